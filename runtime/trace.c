/*
 * trace.c: replaying a trace (docs/trace-format.md) on a machine, for
 * `gdlc replay` and the tests.
 *
 * The trace is read with the KIF reader into a document of its own; the
 * terms of each form are interned into the machine's term store
 * (gt_from_kif), so that a state's facts and a role's legal moves compare as
 * sets of term ids, sorted by id; only a difference is sorted canonically
 * (gt_sort) to be printed. The structure is checked in the same pass as the
 * contents, so a replay stops at the first form that is missing, misplaced,
 * duplicated or different, and says where.
 *
 * The machine's own term store is read here: this file is part of the
 * runtime, which owns that store (runtime.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../frontend/kif.h"
#include "runtime.h"
#include "trace.h"

typedef struct Replay {
    const char *trace_path;
    Source *src;
    Symtab syms;
    KifDoc doc;
    DiagList diags;
    GdlMachine *m;
    const GdlGame *g;
    FILE *report;      /* where the finding is written */
} Replay;

static TraceVerdict trace_error(Replay *r, uint32_t node, const char *fmt, ...) BASE_PRINTF(3, 4);
static TraceVerdict trace_error(Replay *r, uint32_t node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(&r->diags, DIAG_ERROR, node == BASE_NONE ? 0 : r->doc.nodes.v[node].off, fmt, ap);
    va_end(ap);
    diag_print(r->report, &r->diags, false);
    return TRACE_DIFFERS;
}

/* The head symbol text of a list form, or "". */
static const char *form_head(Replay *r, uint32_t node)
{
    const KifNode *n = &r->doc.nodes.v[node];
    if (n->kind == KIF_SYM)
        return symtab_str(&r->syms, n->sym);
    if (n->kind != KIF_LIST || n->sym == 0 || r->doc.nodes.v[n->first].kind != KIF_SYM)
        return "";
    return symtab_str(&r->syms, r->doc.nodes.v[n->first].sym);
}

/* The terms of a form after its head (and after `skip` more elements). */
static bool form_terms(Replay *r, uint32_t node, uint32_t skip, U32Vec *out)
{
    out->n = 0;
    uint32_t c = r->doc.nodes.v[node].first;
    for (uint32_t i = 0; i <= skip && c != BASE_NONE; i++)
        c = r->doc.nodes.v[c].next;
    for (; c != BASE_NONE; c = r->doc.nodes.v[c].next) {
        Gt t = gt_from_kif(&r->m->store, &r->doc, &r->syms, c);
        if (t == BASE_NONE)
            return false;
        vec_push(*out, t);
    }
    return true;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Compares two sets of terms; on a difference prints it and returns false. */
static bool same_set(Replay *r, uint64_t step, const char *what, U32Vec *want, const Gt *got, size_t ngot)
{
    U32Vec g = {0};
    for (size_t i = 0; i < ngot; i++)
        vec_push(g, got[i]);
    if (want->n > 1)
        qsort(want->v, want->n, sizeof *want->v, cmp_u32);
    if (g.n > 1)
        qsort(g.v, g.n, sizeof *g.v, cmp_u32);
    U32Vec only_trace = {0}, only_engine = {0};
    uint32_t i = 0, j = 0;
    while (i < want->n || j < g.n) {
        if (j == g.n || (i < want->n && want->v[i] < g.v[j]))
            vec_push(only_trace, want->v[i++]);
        else if (i == want->n || g.v[j] < want->v[i])
            vec_push(only_engine, g.v[j++]);
        else
            i++, j++;
    }
    bool same = !only_trace.n && !only_engine.n;
    if (!same) {
        fprintf(r->report, "%s: step %llu: %s differ\n", r->trace_path, (unsigned long long)step, what);
        gt_sort(&r->m->store, only_trace.v, only_trace.n);
        gt_sort(&r->m->store, only_engine.v, only_engine.n);
        fprintf(r->report, "  only in the trace:%s", only_trace.n ? "" : " (none)");
        for (uint32_t k = 0; k < only_trace.n; k++)
            fprintf(r->report, " %s", gt_text(&r->m->store, only_trace.v[k]));
        fprintf(r->report, "\n  only in engine %s:%s", gdl_machine_engine(r->m), only_engine.n ? "" : " (none)");
        for (uint32_t k = 0; k < only_engine.n; k++)
            fprintf(r->report, " %s", gt_text(&r->m->store, only_engine.v[k]));
        fputc('\n', r->report);
    }
    vec_free(g);
    vec_free(only_trace);
    vec_free(only_engine);
    return same;
}

/* Checks that step `step` (opened at node, or ending there) has what it
 * needs: its (state ...); unless it is terminal, one (legal ...) per role;
 * when a (step N+1) follows (next_step), its (does ...); when the trace ends
 * there, no (does ...). A terminal step must end the trace with its
 * (goals ...), checked where they are read: here it is an error. */
static TraceVerdict trace_step_complete(Replay *r, uint64_t step, uint32_t node, bool saw_state,
                                        unsigned nlegal, const bool *has_legal, bool next_step, bool saw_does, bool saw_terminal)
{
    unsigned nroles = gdl_game_role_count(r->g);
    unsigned long long n = (unsigned long long)step;
    if (!saw_state)
        return trace_error(r, node, "malformed trace: step %llu has no (state ...)", n);
    if (saw_terminal)
        return trace_error(r, node, "malformed trace: the (terminal) of step %llu is not followed by (goals ...)", n);
    if (nlegal < nroles) {
        unsigned k = 0;
        while (has_legal[k])
            k++;
        return trace_error(r, node, "malformed trace: step %llu has no (legal %s ...)", n,
                           gdl_game_role_name(r->g, k));
    }
    if (next_step && !saw_does)
        return trace_error(r, node, "malformed trace: step %llu has no (does ...) before (step %llu)", n, n + 1);
    if (!next_step && saw_does)
        return trace_error(r, node, "malformed trace: the trace ends after the (does ...) of step %llu, without "
                                    "step %llu", n, n + 1);
    return TRACE_AGREES;
}

TraceVerdict trace_replay(GdlMachine *m, const GdlGame *g, const char *path, const char *text, size_t len,
                          double cap, FILE *report, uint64_t *steps_checked, bool *capped)
{
    Replay r = {.trace_path = path, .m = m, .g = g, .report = report};
    r.src = source_new(path, base_xstrndup(text, len), len);
    symtab_init(&r.syms);
    diag_init(&r.diags, r.src);
    TraceVerdict rc = TRACE_AGREES;
    unsigned nroles = gdl_game_role_count(g);
    GdlState *s = NULL;
    U32Vec terms = {0};
    GdlMove *joint = base_xcalloc(nroles + 1, sizeof *joint);
    int *goals = base_xcalloc(nroles + 1, sizeof *goals);
    uint64_t step = 0;
    /* the trace's shape so far (docs/trace-format.md): (roles ...) once and
     * first; per step (step N), one (state ...), then one (legal R ...) per
     * role and (does ...) before the next step; the last step ends after
     * its legal lines (a trace cut short) or with (terminal) (goals ...) */
    bool saw_roles = false, in_step = false, saw_state = false, saw_does = false, saw_terminal = false,
         done = false;
    bool *has_legal = base_xcalloc(nroles + 1, sizeof *has_legal);
    unsigned nlegal = 0;
    uint32_t last_node = BASE_NONE;
    *capped = false;
    *steps_checked = 0;
    gdl_machine_set_deadline(m, cap > 0 ? gdl_now() + cap : 0);
    GdlStatus st = GDL_OK;
    if (!kif_read(r.src, &r.syms, &r.diags, &r.doc)) {
        diag_print(report, &r.diags, false);
        rc = TRACE_DIFFERS;
        goto out;
    }
    if ((st = gdl_state_initial(m, &s)) != GDL_OK)
        goto engine_failed;
    for (uint32_t i = 0; i < r.doc.tops.n && rc == TRACE_AGREES; i++) {
        uint32_t node = r.doc.tops.v[i];
        const char *head = form_head(&r, node);
        const KifNode *n = &r.doc.nodes.v[node];
        last_node = node;
        if (done) {
            rc = strcmp(head, "goals") == 0 ? trace_error(&r, node, "malformed trace: duplicate (goals ...)")
                                             : trace_error(&r, node, "malformed trace: nothing may follow the goals");
        } else if (strcmp(head, "roles") == 0) {
            if (saw_roles) {
                rc = trace_error(&r, node, "malformed trace: duplicate (roles ...)");
                break;
            }
            if (i != 0) {
                rc = trace_error(&r, node, "malformed trace: (roles ...) must come first");
                break;
            }
            saw_roles = true;
            if (n->sym - 1 != nroles)
                rc = trace_error(&r, node, "this trace is not for this game: it has %u roles, the game %u",
                                 n->sym - 1, nroles);
            for (uint32_t k = 0; rc == TRACE_AGREES && k < nroles; k++) {
                uint32_t c = kif_elem(&r.doc, node, k + 1);
                if (r.doc.nodes.v[c].kind != KIF_SYM || strcmp(symtab_str(&r.syms, r.doc.nodes.v[c].sym),
                                                                 gdl_game_role_name(g, k)) != 0)
                    rc = trace_error(&r, c, "this trace is not for this game: role %u is '%s' in the game", k + 1,
                                     gdl_game_role_name(g, k));
            }
        } else if (!saw_roles) {
            rc = trace_error(&r, node, "malformed trace: expected (roles ...) first");
        } else if (strcmp(head, "step") == 0) {
            if (in_step && (rc = trace_step_complete(&r, step, node, saw_state, nlegal, has_legal, true,
                                                     saw_does, saw_terminal)) != TRACE_AGREES)
                break;
            uint32_t c = kif_elem(&r.doc, node, 1);
            char want[32];
            snprintf(want, sizeof want, "%llu", (unsigned long long)(in_step ? step + 1 : 0));
            if (c == BASE_NONE || r.doc.nodes.v[c].kind != KIF_SYM || strcmp(symtab_str(&r.syms, r.doc.nodes.v[c].sym), want))
                rc = trace_error(&r, node, "malformed trace: expected (step %s)", want);
            if (in_step)
                step++;
            in_step = true;
            saw_state = saw_does = false;
            nlegal = 0;
            memset(has_legal, 0, nroles * sizeof *has_legal);
        } else if (!in_step) {
            rc = trace_error(&r, node, "malformed trace: expected (roles ...) then (step 0)");
        } else if (strcmp(head, "state") == 0) {
            if (saw_state)
                rc = trace_error(&r, node, "malformed trace: duplicate (state ...) in step %llu",
                                 (unsigned long long)step);
            else if (!form_terms(&r, node, 0, &terms))
                rc = trace_error(&r, node, "malformed trace: a state holds ground terms");
            else if (!same_set(&r, step, "states", &terms, s->facts, s->n))
                rc = TRACE_DIFFERS;
            else
                (*steps_checked)++;
            saw_state = true;
        } else if (!saw_state) {
            rc = trace_error(&r, node, "malformed trace: step %llu has no (state ...) before (%s ...)",
                             (unsigned long long)step, head);
        } else if (strcmp(head, "legal") == 0) {
            uint32_t c = kif_elem(&r.doc, node, 1);
            unsigned k = 0;
            while (c != BASE_NONE && k < nroles && r.doc.nodes.v[c].kind == KIF_SYM &&
                   strcmp(symtab_str(&r.syms, r.doc.nodes.v[c].sym), gdl_game_role_name(g, k)) != 0)
                k++;
            if (c == BASE_NONE || k == nroles || !form_terms(&r, node, 1, &terms)) {
                rc = trace_error(&r, node, "malformed trace: expected (legal ROLE MOVE...) for a role of the game");
                break;
            }
            if (has_legal[k]) {
                rc = trace_error(&r, node, "malformed trace: duplicate (legal %s ...) in step %llu",
                                 gdl_game_role_name(g, k), (unsigned long long)step);
                break;
            }
            if (saw_does || saw_terminal) {
                rc = trace_error(&r, node, "malformed trace: (legal %s ...) comes after the %s of step %llu",
                                 gdl_game_role_name(g, k), saw_does ? "(does ...)" : "(terminal)",
                                 (unsigned long long)step);
                break;
            }
            has_legal[k] = true;
            nlegal++;
            const GdlMove *moves;
            size_t nm;
            if ((st = gdl_state_legal(m, s, k, &moves, &nm)) != GDL_OK)
                goto engine_failed;
            char what[300];
            snprintf(what, sizeof what, "legal moves of %s", gdl_game_role_name(g, k));
            if (!same_set(&r, step, what, &terms, moves, nm))
                rc = TRACE_DIFFERS;
        } else if (strcmp(head, "does") == 0) {
            if (saw_does) {
                rc = trace_error(&r, node, "malformed trace: duplicate (does ...) in step %llu",
                                 (unsigned long long)step);
                break;
            }
            if (saw_terminal) {
                rc = trace_error(&r, node, "malformed trace: (does ...) after the (terminal) of step %llu",
                                 (unsigned long long)step);
                break;
            }
            if ((rc = trace_step_complete(&r, step, node, saw_state, nlegal, has_legal, false, false, false)) !=
                TRACE_AGREES)
                break;
            saw_does = true;
            if (!form_terms(&r, node, 0, &terms) || terms.n != nroles) {
                rc = trace_error(&r, node, "malformed trace: (does ...) needs one move per role");
                break;
            }
            bool terminal;
            if ((st = gdl_state_is_terminal(m, s, &terminal)) != GDL_OK)
                goto engine_failed;
            if (terminal) {
                fprintf(report, "%s: step %llu: engine %s finds the state terminal; the trace plays on\n", path,
                        (unsigned long long)step, gdl_machine_engine(m));
                rc = TRACE_DIFFERS;
                break;
            }
            for (unsigned k = 0; k < nroles && rc == TRACE_AGREES; k++) {
                const GdlMove *moves;
                size_t nm;
                if ((st = gdl_state_legal(m, s, k, &moves, &nm)) != GDL_OK)
                    goto engine_failed;
                bool legal = false;
                for (size_t q = 0; q < nm; q++)
                    legal |= moves[q] == terms.v[k];
                if (!legal)
                    rc = trace_error(&r, node, "the recorded move %s of %s is not legal here (step %llu)",
                                     gt_text(&m->store, terms.v[k]), gdl_game_role_name(g, k),
                                     (unsigned long long)step);
                joint[k] = terms.v[k];
            }
            if (rc != TRACE_AGREES)
                break;
            GdlState *next;
            if ((st = gdl_state_next(m, s, joint, &next)) != GDL_OK)
                goto engine_failed;
            gdl_state_free(s);
            s = next;
        } else if (strcmp(head, "terminal") == 0) {
            if (saw_terminal || nlegal || saw_does) {
                rc = trace_error(&r, node, saw_terminal ? "malformed trace: duplicate (terminal) in step %llu"
                                                        : "malformed trace: step %llu has legal moves or a joint "
                                                          "move, so it cannot be terminal",
                                 (unsigned long long)step);
                break;
            }
            bool terminal;
            if ((st = gdl_state_is_terminal(m, s, &terminal)) != GDL_OK)
                goto engine_failed;
            if (!terminal) {
                fprintf(report, "%s: step %llu: the trace ends in a terminal state; engine %s finds it not terminal\n",
                        path, (unsigned long long)step, gdl_machine_engine(m));
                rc = TRACE_DIFFERS;
            }
            saw_terminal = true;
        } else if (strcmp(head, "goals") == 0) {
            if (!saw_terminal || n->sym - 1 != nroles) {
                rc = trace_error(&r, node, "malformed trace: (goals ...) follows (terminal), one value per role");
                break;
            }
            if ((st = gdl_state_goals(m, s, goals)) != GDL_OK)
                goto engine_failed;
            for (unsigned k = 0; k < nroles; k++) {
                uint32_t c = kif_elem(&r.doc, node, k + 1);
                const char *v = r.doc.nodes.v[c].kind == KIF_SYM ? symtab_str(&r.syms, r.doc.nodes.v[c].sym) : "?";
                char got[16];
                snprintf(got, sizeof got, "%d", goals[k]);
                if (strcmp(v, got) != 0) {
                    fprintf(report, "%s: step %llu: goal of %s differs: trace %s, engine %s %s\n", path,
                            (unsigned long long)step, gdl_game_role_name(g, k), v, gdl_machine_engine(m), got);
                    rc = TRACE_DIFFERS;
                    break;
                }
            }
            done = true;
        } else {
            rc = trace_error(&r, node, "malformed trace: unknown form '%s'", head);
        }
    }
    if (rc == TRACE_AGREES && !saw_roles)
        rc = trace_error(&r, BASE_NONE, "malformed trace: no (roles ...)");
    if (rc == TRACE_AGREES && !in_step)
        rc = trace_error(&r, BASE_NONE, "malformed trace: no steps");
    if (rc == TRACE_AGREES && !done)
        rc = trace_step_complete(&r, step, last_node, saw_state, nlegal, has_legal, false, saw_does, saw_terminal);
    if (rc == TRACE_AGREES && !saw_terminal) {
        /* a trace cut short: the last state must be non-terminal */
        bool terminal;
        if ((st = gdl_state_is_terminal(m, s, &terminal)) != GDL_OK)
            goto engine_failed;
        if (terminal) {
            fprintf(report, "%s: step %llu: engine %s finds the state terminal; the trace has legal moves there\n",
                    path, (unsigned long long)step, gdl_machine_engine(m));
            rc = TRACE_DIFFERS;
        }
    }
    goto out;
engine_failed:
    if (st == GDL_CANCELLED) {
        *capped = true;
        rc = TRACE_AGREES;
    } else {
        fprintf(report, "%s: step %llu: engine %s failed: %s\n", path, (unsigned long long)step,
                gdl_machine_engine(m), gdl_machine_error(m));
        rc = TRACE_DIFFERS;
    }
out:
    gdl_machine_set_deadline(m, 0);
    gdl_state_free(s);
    free(has_legal);
    free(joint);
    free(goals);
    vec_free(terms);
    kif_doc_free(&r.doc);
    diag_free(&r.diags);
    symtab_free(&r.syms);
    source_free(r.src);
    return rc;
}

char *trace_state_text(GdlMachine *m, const GdlState *s)
{
    StrBuf b = {0};
    strbuf_add(&b, s->n ? "" : "(empty state)");
    Gt *facts = base_xcalloc(s->n + 1, sizeof *facts);
    memcpy(facts, s->facts, s->n * sizeof *facts);
    gt_sort(&m->store, facts, s->n);
    for (size_t i = 0; i < s->n; i++)
        strbuf_add_word(&b, gt_text(&m->store, facts[i]));
    free(facts);
    return b.s;
}
