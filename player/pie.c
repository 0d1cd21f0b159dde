/*
 * pie.c: the pie-rule variant of a two-player game whose players alternate
 * (`gdlc pie`): after the first player's first move, the second player may
 * swap sides, taking the first side with its opening move standing, or play
 * on.
 *
 * Scope. The game must have two roles, the first choosing in the initial
 * state while the second waits, and the turns must alternate from there.
 * What the transform relies on, the first two turns, is checked
 * exhaustively: in the initial state only the first role has a choice (the
 * second has one legal move), and after every first move the first role
 * has one legal move. Alternation beyond is checked on seeded random
 * playthroughs: at every step the role not to move has exactly one legal
 * move (a role to move may have only one too: a forced pass). The control
 * analysis (GDL_CLAIM_CONTROL: the bases no move choice affects) then says
 * what keeps the turn: when the values of the control bases tell the mover
 * apart in every state sampled, the turn is a function of the step alone,
 * the same in every play. It needs the game's network, so it runs under a
 * grounding budget and is skipped, and said so, past it.
 *
 * The transform. The roles stay, as the players; what the original rules
 * call a role becomes a side. Every original rule is kept, renamed where a
 * player and a side differ: `legal`, `goal`, `does` and `input`, wherever
 * they occur, become fresh relations P_legal, P_goal, P_does, P_input (P a
 * prefix no symbol of the game starts with). New rules tie players to
 * sides:
 *   (init P_first)                          one-turn markers: P_offer holds
 *   (<= (next P_offer) (true P_first))      on the second turn only
 *   (<= (legal SECOND SWAP) (true P_offer))
 *   (<= (next P_swapped) (does SECOND SWAP))      a latch
 *   (<= (next P_swapped) (true P_swapped))
 *   (<= (P_seat ?p ?p) (role ?p) (not (true P_swapped)))
 *   (<= (P_seat FIRST SECOND) (true P_swapped))  and SECOND FIRST
 *   (<= (legal ?p ?m) (P_seat ?p ?s) (P_legal ?s ?m))
 *   (<= (goal ?p ?v) (P_seat ?p ?s) (P_goal ?s ?v))
 *   (<= (P_does ?s ?m) (P_seat ?p ?s) (does ?p ?m))
 * On the swap turn the original game must not move: every original `next`
 * rule gets (not (does SECOND SWAP)) (so the first player's waiting move,
 * usually noop, never reaches the original rules), and one frame rule
 * copies every fact but the pie's markers:
 *   (<= (next ?f) (does SECOND SWAP) (true ?f) (distinct ?f P_first) ...)
 * The state after a swap is the state before it with P_swapped added: the
 * second side is to move, and its seat is now the first player's.
 * Original `next` rules whose head is a bare variable get the same
 * `distinct`s, so they cannot carry the markers. Negation of `does` in
 * `next` rules keeps the game stratified; `terminal` is unchanged.
 *
 * The text. The output is the original text, comments and spelling kept,
 * with edits at byte offsets of the s-expression tree (frontend/kif.h):
 * renamed symbols, the literal inserted before each `next` rule's closing
 * parenthesis, a `next` fact wrapped into a rule. Then the new rules, after
 * a comment saying what was added. Only plain GDL is added (prefix KIF,
 * `<=`, `not`, `distinct`; no `or`), so every engine reads it.
 */
#include "player.h"

#include <ctype.h>
#include <string.h>

#include "../base/base.h"
#include "../frontend/kif.h"

void pie_options_default(PieOptions *o)
{
    memset(o, 0, sizeof *o);
    o->playthroughs = 8;
    o->max_steps = 2000;
    o->seed = 1;
    o->analysis = true;
    o->analysis_options = "samples=1,max-links=200000";
}

/* ======================================================================
 * Scope: the turn structure
 * ====================================================================== */

typedef struct Turns {
    GdlMachine *m;
    char *err;          /* the refusal, or NULL */
    StrBuf note;        /* what was checked, for the header comment */
    uint64_t states;    /* states checked */
    /* the states of the playthroughs with their step, for the control check */
    VEC(GdlState *) seen;
    U32Vec seen_step;
} Turns;

/* The number of legal moves of each role in s; false after *err. */
static bool counts(Turns *t, const GdlState *s, size_t n[2])
{
    for (unsigned r = 0; r < 2; r++) {
        const GdlMove *mv;
        GdlStatus st = gdl_state_legal(t->m, s, r, &mv, &n[r]);
        if (st != GDL_OK) {
            t->err = base_sprintf("legal moves: %s", gdl_machine_error(t->m));
            return false;
        }
    }
    return true;
}

/* The first two turns, every first move: a proof of what the transform
 * needs. */
static bool first_turns(Turns *t, const GdlGame *g, const GdlState *s0, const PieOptions *o)
{
    const char *r0 = gdl_game_role_name(g, 0), *r1 = gdl_game_role_name(g, 1);
    bool term;
    size_t n[2];
    if (gdl_state_is_terminal(t->m, s0, &term) != GDL_OK) {
        t->err = base_sprintf("terminal: %s", gdl_machine_error(t->m));
        return false;
    }
    if (term) {
        t->err = base_xstrdup("the initial state is terminal: there is no first move to swap for");
        return false;
    }
    if (!counts(t, s0, n))
        return false;
    t->states++;
    if (n[0] > 1 && n[1] > 1) {
        t->err = base_sprintf("both roles choose in the initial state (%s has %zu legal moves, %s %zu): the game has "
                              "simultaneous moves, and the pie rule is for games whose players alternate",
                              r0, n[0], r1, n[1]);
        return false;
    }
    if (n[1] > 1) {
        t->err = base_sprintf("the second role (%s) moves first (%zu legal moves in the initial state, %s has one): "
                              "the pie rule lets the second player swap after the first player's opening move",
                              r1, n[1], r0);
        return false;
    }
    if (n[0] < 2) {
        t->err = base_sprintf("no role has a choice in the initial state (%s has %zu legal move, %s %zu): there is "
                              "no opening move to swap for",
                              r0, n[0], r1, n[1]);
        return false;
    }
    /* every first move of role 0; role 1's only move */
    const GdlMove *mv;
    size_t nm;
    if (gdl_state_legal(t->m, s0, 0, &mv, &nm) != GDL_OK) {
        t->err = base_sprintf("legal moves: %s", gdl_machine_error(t->m));
        return false;
    }
    GdlMove *first = base_xmalloc(nm * sizeof *first);
    memcpy(first, mv, nm * sizeof *first);
    /* past the cap, an evenly spaced sample of the first moves */
    size_t every = o->max_first && nm > o->max_first ? (nm + o->max_first - 1) / o->max_first : 1;
    GdlMove wait;
    if (gdl_state_legal(t->m, s0, 1, &mv, &n[1]) != GDL_OK || n[1] != 1) {
        free(first);
        t->err = base_sprintf("legal moves: %s", gdl_machine_error(t->m));
        return false;
    }
    wait = mv[0];
    bool ok = true;
    GdlState *s1 = NULL;
    size_t ended = 0;
    size_t tried = 0;
    for (size_t i = 0; ok && i < nm; i += every) {
        GdlMove joint[2] = {first[i], wait};
        tried++;
        if (gdl_state_next_into(t->m, s0, joint, &s1) != GDL_OK || gdl_state_is_terminal(t->m, s1, &term) != GDL_OK) {
            t->err = base_sprintf("after the first move %s: %s", gdl_move_text(t->m, first[i]), gdl_machine_error(t->m));
            ok = false;
            break;
        }
        t->states++;
        if (term) {
            ended++;
            continue;
        }
        /* gdl_state_legal of s0 is overwritten: recompute the counts of s1 */
        if (!counts(t, s1, n)) {
            ok = false;
            break;
        }
        if (n[0] != 1) {
            t->err = base_sprintf(n[1] > 1 ? "after the first move %s both roles choose (%s has %zu legal moves, %s "
                                             "%zu): the game has simultaneous moves"
                                           : "after the first move %s the first role moves again (%s has %zu legal "
                                             "moves, %s %zu): the players do not alternate",
                                  gdl_move_text(t->m, first[i]), r0, n[0], r1, n[1]);
            ok = false;
        }
    }
    gdl_state_free(s1);
    if (ok && ended == tried) {
        t->err = base_xstrdup("every first move ends the game: there is no second turn to swap on");
        ok = false;
    }
    if (ok && tried == nm)
        strbuf_addf(&t->note, ";;   the first two turns, after each of the %zu first moves: %s chooses, then %s\n", nm,
                    r0, r1);
    else if (ok)
        strbuf_addf(&t->note, ";;   the first two turns, after %zu of the %zu first moves (every %zuth): %s chooses, then %s\n",
                    tried, nm, every, r0, r1);
    free(first);
    return ok;
}

/* Seeded random playthroughs: at step k (from 0), role k % 2 is to move and
 * the other has exactly one legal move. */
static bool playthroughs(Turns *t, const GdlGame *g, const GdlState *s0, const PieOptions *o)
{
    uint64_t steps = 0, capped = 0;
    for (unsigned p = 0; p < o->playthroughs; p++) {
        GdlRng rng;
        gdl_rng_seed(&rng, o->seed + p);
        GdlState *s = gdl_state_copy(s0);
        for (uint64_t k = 0;; k++) {
            bool term;
            size_t n[2];
            if (k >= o->max_steps) {
                capped++;
                break;
            }
            if (gdl_state_is_terminal(t->m, s, &term) != GDL_OK) {
                t->err = base_sprintf("random playthrough %llu, step %llu: %s", (unsigned long long)(o->seed + p),
                                      (unsigned long long)k, gdl_machine_error(t->m));
                break;
            }
            if (term)
                break;
            if (!counts(t, s, n))
                break;
            t->states++;
            steps++;
            unsigned waiter = (unsigned)((k + 1) % 2);
            if (n[waiter] != 1) {
                t->err = base_sprintf("the players do not alternate: on the random playthrough of seed %llu, at step "
                                      "%llu, %s has %zu legal moves while it is %s's turn%s",
                                      (unsigned long long)(o->seed + p), (unsigned long long)k,
                                      gdl_game_role_name(g, waiter), n[waiter], gdl_game_role_name(g, 1 - waiter),
                                      n[1 - waiter] > 1 ? " (both choose: simultaneous moves)" : "");
                break;
            }
            if (t->seen.n < 4096) {
                vec_push(t->seen, gdl_state_copy(s));
                vec_push(t->seen_step, (uint32_t)k);
            }
            GdlMove joint[2];
            if (gdl_state_random_joint_move(t->m, s, &rng, joint) != GDL_OK ||
                gdl_state_next_into(t->m, s, joint, &s) != GDL_OK) {
                t->err = base_sprintf("random playthrough %llu, step %llu: %s", (unsigned long long)(o->seed + p),
                                      (unsigned long long)k, gdl_machine_error(t->m));
                break;
            }
        }
        gdl_state_free(s);
        if (t->err)
            return false;
    }
    if (o->playthroughs)
        strbuf_addf(&t->note,
                    ";;   %u random playthroughs (seeds %llu..%llu, %llu steps%s): the role not to move always has one "
                    "legal move\n",
                    o->playthroughs, (unsigned long long)o->seed, (unsigned long long)(o->seed + o->playthroughs - 1),
                    (unsigned long long)steps, capped ? ", some cut at the step cap" : "");
    return true;
}

/* Does state s hold the fact written as text (canonical KIF)? */
static bool holds(GdlMachine *m, const GdlState *s, const char *fact)
{
    size_t n = gdl_state_size(s);
    for (size_t i = 0; i < n; i++) {
        const char *f = gdl_state_fact(m, s, i);
        if (f && strcmp(f, fact) == 0)
            return true;
    }
    return false;
}

/* The control analysis over the states the playthroughs saw: which
 * move-independent bases keep the turn. Never a refusal: the playthroughs
 * decide; this says why the turn is the same in every play. */
static void control(Turns *t, const PieOptions *o)
{
    if (!o->analysis) {
        strbuf_add(&t->note, ";;   the control analysis was not run (--no-analysis)\n");
        return;
    }
    GdlAnalysis *an = NULL;
    GdlStatus st = gdl_analysis_new(t->m, o->analysis_options, &an);
    if (st != GDL_OK) {
        /* one line: the grounder's message up to its first newline */
        const char *why = gdl_machine_error(t->m);
        size_t len = strcspn(why, "\n");
        strbuf_addf(&t->note, ";;   the control analysis was not run: %.*s\n", (int)(len > 160 ? 160 : len), why);
        return;
    }
    size_t nc = gdl_analysis_count(an, GDL_CLAIM_CONTROL);
    /* A signature per state: which control bases hold, as a string of
     * '0'/'1'; the mover must be a function of it. */
    size_t used = 0;
    char **sig = base_xcalloc(t->seen.n + 1, sizeof *sig);
    bool *tells = base_xcalloc(nc + 1, sizeof *tells);
    for (uint32_t i = 0; i < t->seen.n; i++) {
        sig[i] = base_xmalloc(nc + 1);
        for (size_t c = 0; c < nc; c++)
            sig[i][c] = holds(t->m, t->seen.v[i], gdl_analysis_claim(an, GDL_CLAIM_CONTROL, c)->sentences[0]) ? '1'
                                                                                                                 : '0';
        sig[i][nc] = 0;
    }
    bool decides = nc > 0;
    for (uint32_t i = 0; decides && i < t->seen.n; i++)
        for (uint32_t j = i + 1; j < t->seen.n; j++)
            if (strcmp(sig[i], sig[j]) == 0 && (t->seen_step.v[i] ^ t->seen_step.v[j]) & 1) {
                decides = false;
                break;
            }
    /* the control bases whose value differs between the two movers' states */
    for (size_t c = 0; decides && c < nc; c++) {
        int at[2] = {-1, -1};
        for (uint32_t i = 0; i < t->seen.n && !tells[c]; i++) {
            int v = sig[i][c] == '1', p = (int)(t->seen_step.v[i] & 1);
            if (at[p] == -1)
                at[p] = v;
            else if (at[p] != v)
                at[p] = 2; /* varies within one mover's states: a counter */
            if (at[0] >= 0 && at[0] < 2 && at[1] >= 0 && at[1] < 2 && at[0] != at[1])
                tells[c] = true;
        }
        if (tells[c] && at[0] != 2 && at[1] != 2)
            used++;
        else
            tells[c] = false;
    }
    if (!decides) {
        strbuf_addf(&t->note,
                    ";;   the control analysis: %zu move-independent bases; they do not tell the two movers apart, "
                    "so the turn rests on the playthroughs alone\n",
                    nc);
    } else {
        strbuf_addf(&t->note, ";;   the control analysis: the turn is kept by move-independent bases%s",
                    used ? ":" : " (a step counter)");
        for (size_t c = 0; c < nc; c++)
            if (tells[c])
                strbuf_addf(&t->note, " %s", gdl_analysis_claim(an, GDL_CLAIM_CONTROL, c)->sentences[0]);
        strbuf_add(&t->note, "\n");
    }
    for (uint32_t i = 0; i < t->seen.n; i++)
        free(sig[i]);
    free(sig);
    free(tells);
    gdl_analysis_free(an);
}

static bool turn_structure(const GdlGame *g, const PieOptions *o, Turns *t)
{
    unsigned nroles = gdl_game_role_count(g);
    if (nroles != 2) {
        t->err = base_sprintf("the pie rule is for two-player games; this game has %u role%s", nroles,
                              nroles == 1 ? "" : "s");
        return false;
    }
    GdlStatus st = gdl_machine_new(g, "jit", &t->m);
    if (st != GDL_OK)
        st = gdl_machine_new(g, "ref", &t->m);
    if (st != GDL_OK) {
        t->err = base_sprintf("cannot make a machine: %s", gdl_game_error(g));
        return false;
    }
    GdlState *s0 = NULL;
    if (gdl_state_initial(t->m, &s0) != GDL_OK) {
        t->err = base_sprintf("initial state: %s", gdl_machine_error(t->m));
        return false;
    }
    bool ok = first_turns(t, g, s0, o) && playthroughs(t, g, s0, o);
    gdl_state_free(s0);
    if (ok)
        control(t, o);
    return ok;
}

static void turns_free(Turns *t)
{
    for (uint32_t i = 0; i < t->seen.n; i++)
        gdl_state_free(t->seen.v[i]);
    vec_free(t->seen);
    vec_free(t->seen_step);
    free(t->note.s);
    free(t->err);
    gdl_machine_free(t->m);
}

/* ======================================================================
 * The transform: edits of the original text
 * ====================================================================== */

typedef struct Edit {
    uint32_t off;  /* where, in the original text */
    uint32_t del;  /* bytes replaced */
    char *ins;     /* what is written instead (malloc'd) */
    uint32_t seq;  /* order among edits at one offset */
} Edit;

typedef struct Pie {
    Source *src;
    Symtab syms;
    DiagList diags;
    KifDoc doc;
    VEC(Edit) edits;
    char pfx[24];        /* the fresh prefix, "pie_" unless taken */
    char *swap;          /* the swap move's name */
    char *role[2];       /* the roles as the rules spell them */
    char *guard;         /* " (not (does SECOND SWAP))" */
    bool uses_does, has_input, has_base;
    uint32_t nnext;      /* next rules and facts guarded */
} Pie;

static void edit(Pie *p, uint32_t off, uint32_t del, char *ins)
{
    Edit e = {off, del, ins, p->edits.n};
    vec_push(p->edits, e);
}

static const KifNode *node(const Pie *p, uint32_t id) { return &p->doc.nodes.v[id]; }
static const char *sym(const Pie *p, uint32_t id) { return symtab_str(&p->syms, node(p, id)->sym); }

/* The byte just past a node: a symbol's length is its interned text's
 * (folding keeps lengths); a list ends at its ')' (skipping blanks and
 * comments after its last element). */
static uint32_t node_end(const Pie *p, uint32_t id)
{
    const KifNode *k = node(p, id);
    if (k->kind != KIF_LIST)
        return k->off + p->syms.len[k->sym];
    uint32_t pos = k->off + 1;
    for (uint32_t c = k->first; c != BASE_NONE; c = node(p, c)->next)
        pos = node_end(p, c);
    const char *s = p->src->text;
    while (pos < p->src->len && s[pos] != ')') {
        if (s[pos] == ';')
            while (pos < p->src->len && s[pos] != '\n' && s[pos] != '\r')
                pos++;
        else
            pos++;
    }
    return pos < p->src->len ? pos + 1 : pos;
}

/* The relation a literal or atom names (NULL for a variable or an empty
 * list), folded. */
static const char *head_name(const Pie *p, uint32_t id)
{
    const KifNode *k = node(p, id);
    if (k->kind == KIF_SYM)
        return sym(p, id);
    if (k->kind == KIF_LIST && k->first != BASE_NONE && node(p, k->first)->kind == KIF_SYM)
        return sym(p, k->first);
    return NULL;
}

/* Renames an atom's relation when it is one of the player-facing ones. */
static void rename_atom(Pie *p, uint32_t id)
{
    const KifNode *k = node(p, id);
    if (k->kind != KIF_LIST || k->first == BASE_NONE || node(p, k->first)->kind != KIF_SYM)
        return;
    static const char *const renamed[] = {"legal", "goal", "does", "input"};
    const char *name = sym(p, k->first);
    for (size_t i = 0; i < sizeof renamed / sizeof *renamed; i++)
        if (strcmp(name, renamed[i]) == 0) {
            if (i == 2)
                p->uses_does = true;
            edit(p, node(p, k->first)->off, (uint32_t)strlen(name), base_sprintf("%s%s", p->pfx, name));
        }
}

/* A body literal: through not and or; distinct has terms only. */
static void rename_literal(Pie *p, uint32_t id)
{
    const char *h = head_name(p, id);
    if (!h || node(p, id)->kind != KIF_LIST)
        return;
    if (strcmp(h, "not") == 0 || strcmp(h, "or") == 0) {
        for (uint32_t c = node(p, node(p, id)->first)->next; c != BASE_NONE; c = node(p, c)->next)
            rename_literal(p, c);
    } else if (strcmp(h, "distinct") != 0) {
        rename_atom(p, id);
    }
}

/* The guard a `next` rule gets: the swap blocks it; a head that is a bare
 * variable must not make the pie's markers. */
static char *next_guard(const Pie *p, uint32_t head)
{
    uint32_t arg = kif_elem(&p->doc, head, 1);
    if (arg != BASE_NONE && node(p, arg)->kind == KIF_VAR) {
        const char *v = sym(p, arg);
        return base_sprintf("%s (distinct %s %sfirst) (distinct %s %soffer) (distinct %s %sswapped)", p->guard, v,
                            p->pfx, v, p->pfx, v, p->pfx);
    }
    return base_xstrdup(p->guard);
}

static void transform_form(Pie *p, uint32_t top)
{
    const KifNode *k = node(p, top);
    const char *h = head_name(p, top);
    if (k->kind != KIF_LIST || !h)
        return;
    if (strcmp(h, "<=") == 0) {
        uint32_t head = node(p, k->first)->next;
        if (head == BASE_NONE)
            return;
        const char *hn = head_name(p, head);
        if (hn && strcmp(hn, "input") == 0)
            p->has_input = true;
        if (hn && strcmp(hn, "base") == 0)
            p->has_base = true;
        rename_atom(p, head);
        for (uint32_t b = node(p, head)->next; b != BASE_NONE; b = node(p, b)->next)
            rename_literal(p, b);
        if (hn && strcmp(hn, "next") == 0) {
            /* before the closing parenthesis */
            edit(p, node_end(p, top) - 1, 0, next_guard(p, head));
            p->nnext++;
        }
        return;
    }
    if (strcmp(h, "input") == 0)
        p->has_input = true;
    if (strcmp(h, "base") == 0)
        p->has_base = true;
    rename_atom(p, top);
    if (strcmp(h, "next") == 0) {
        edit(p, k->off, 0, base_xstrdup("(<= "));
        char *g = next_guard(p, top);
        edit(p, node_end(p, top), 0, base_sprintf("%s)", g));
        free(g);
        p->nnext++;
    }
}

static bool taken(const Pie *p, const char *prefix)
{
    size_t n = strlen(prefix);
    for (uint32_t i = 0; i < p->syms.n; i++)
        if (p->syms.len[i] >= n && strncmp(p->syms.str[i], prefix, n) == 0)
            return true;
    return false;
}

static int edit_cmp(const void *a, const void *b)
{
    const Edit *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void emit(Pie *p, const char *name, const char *note, FILE *out)
{
    const char *P = p->pfx, *F = p->role[0], *S = p->role[1], *W = p->swap;
    fprintf(out,
            ";;; The pie-rule variant of %s, made by gdlc pie.\n"
            ";;; After %s's first move, %s may play %s: the players exchange sides, %s\n"
            ";;; taking the first side with its opening move standing, and the other player\n"
            ";;; moves next as the second side. Or %s plays on as usual.\n"
            ";;;\n"
            ";;; The roles are the players; the original rules speak of sides. Every original\n"
            ";;; rule is kept, with these renamings (%s is a prefix no symbol of the game uses):\n"
            ";;;   legal -> %slegal, goal -> %sgoal, does -> %sdoes%s%s%s\n"
            ";;; and every next rule has (not (does %s %s)) added (the original game stands still\n"
            ";;; on the swap turn). The rules added are at the end of the file.\n"
            ";;;\n"
            ";;; Turn structure checked:\n%s"
            "\n",
            name, F, S, W, S, S, P, P, P, P, p->has_input ? ", input -> " : "", p->has_input ? P : "",
            p->has_input ? "input" : "", S, W, note);
    /* the original text with the edits */
    qsort(p->edits.v, p->edits.n, sizeof *p->edits.v, edit_cmp);
    const char *s = p->src->text;
    uint32_t at = 0;
    for (uint32_t i = 0; i < p->edits.n; i++) {
        const Edit *e = &p->edits.v[i];
        fwrite(s + at, 1, e->off - at, out);
        fputs(e->ins, out);
        at = e->off + e->del;
    }
    fwrite(s + at, 1, p->src->len - at, out);
    if (p->src->len && s[p->src->len - 1] != '\n')
        fputc('\n', out);
    fprintf(out,
            "\n"
            ";;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;\n"
            ";;; The pie rule (added by gdlc pie)\n"
            ";;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;\n"
            "\n"
            ";; One-turn markers: %soffer holds on the second turn only, when %s may swap.\n"
            "(init %sfirst)\n"
            "(<= (next %soffer) (true %sfirst))\n"
            "(<= (legal %s %s) (true %soffer))\n"
            "\n"
            ";; The swap, a latch.\n"
            "(<= (next %sswapped) (does %s %s))\n"
            "(<= (next %sswapped) (true %sswapped))\n"
            "\n"
            ";; (%sseat PLAYER SIDE): each player's side, exchanged after a swap.\n"
            "(<= (%sseat ?p ?p) (role ?p) (not (true %sswapped)))\n"
            "(<= (%sseat %s %s) (true %sswapped))\n"
            "(<= (%sseat %s %s) (true %sswapped))\n"
            "\n"
            ";; A player may play, and scores, what its side may play and scores.\n"
            "(<= (legal ?p ?m) (%sseat ?p ?s) (%slegal ?s ?m))\n"
            "(<= (goal ?p ?v) (%sseat ?p ?s) (%sgoal ?s ?v))\n",
            P, S, P, P, P, S, W, P, P, S, W, P, P, P, P, P, P, F, S, P, P, S, F, P, P, P, P, P);
    if (p->uses_does)
        fprintf(out, ";; The original rules see the moves of the sides.\n"
                     "(<= (%sdoes ?s ?m) (%sseat ?p ?s) (does ?p ?m))\n",
                P, P);
    fprintf(out,
            "\n"
            ";; On the swap turn the state is copied unchanged (the markers aside).\n"
            "(<= (next ?f) (does %s %s) (true ?f) (distinct ?f %sfirst) (distinct ?f %soffer) (distinct ?f %sswapped))\n",
            S, W, P, P, P);
    if (p->has_base)
        fprintf(out, "\n(base %sfirst)\n(base %soffer)\n(base %sswapped)\n", P, P, P);
    if (p->has_input)
        fprintf(out, "\n(<= (input ?p ?m) (role ?p) (%sinput ?s ?m))\n(input %s %s)\n", P, S, W);
}

/* Reads the rules and makes the edits; false with *err. */
static bool rewrite(Pie *p, const GdlGame *g, const char *rules, size_t len, const char *name, char **err)
{
    p->src = source_new(name, base_xstrndup(rules, len), len);
    symtab_init(&p->syms);
    diag_init(&p->diags, p->src);
    if (!kif_read(p->src, &p->syms, &p->diags, &p->doc)) {
        *err = base_xstrdup("the rules cannot be read as KIF");
        return false;
    }
    /* a prefix no symbol starts with */
    strcpy(p->pfx, "pie_");
    for (unsigned i = 1; taken(p, p->pfx); i++)
        snprintf(p->pfx, sizeof p->pfx, "pie%u_", i);
    p->swap = symtab_find(&p->syms, "swap", 4) == BASE_NONE ? base_xstrdup("swap") : base_sprintf("%sswap", p->pfx);
    /* the roles, spelled as the rules spell them, in order */
    unsigned nr = 0;
    for (uint32_t i = 0; i < p->doc.tops.n; i++) {
        uint32_t top = p->doc.tops.v[i];
        const char *h = head_name(p, top);
        if (node(p, top)->kind != KIF_LIST || !h || strcmp(h, "role") != 0)
            continue;
        uint32_t r = kif_elem(&p->doc, top, 1);
        if (r == BASE_NONE || nr == 2) {
            nr = 3;
            break;
        }
        const KifNode *k = node(p, r);
        uint32_t end = node_end(p, r);
        p->role[nr] = base_xstrndup(p->src->text + k->off, end - k->off);
        char *canon = base_xstrdup(p->role[nr]);
        for (char *c = canon; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        bool same = strcmp(canon, gdl_game_role_name(g, nr)) == 0;
        free(canon);
        if (!same || k->kind != KIF_SYM) {
            nr = 3;
            break;
        }
        nr++;
    }
    if (nr != 2) {
        *err = base_xstrdup("the roles must be two constants, written as (role NAME) facts");
        return false;
    }
    p->guard = base_sprintf(" (not (does %s %s))", p->role[1], p->swap);
    for (uint32_t i = 0; i < p->doc.tops.n; i++)
        transform_form(p, p->doc.tops.v[i]);
    return true;
}

static void pie_free(Pie *p)
{
    for (uint32_t i = 0; i < p->edits.n; i++)
        free(p->edits.v[i].ins);
    vec_free(p->edits);
    free(p->swap);
    free(p->role[0]);
    free(p->role[1]);
    free(p->guard);
    kif_doc_free(&p->doc);
    diag_free(&p->diags);
    symtab_free(&p->syms);
    if (p->src)
        source_free(p->src);
}

bool pie_transform_opt(const GdlGame *game, const char *rules, size_t len, const char *name, const PieOptions *o,
                       FILE *out, char **err)
{
    *err = NULL;
    Turns t;
    Pie p;
    memset(&t, 0, sizeof t);
    memset(&p, 0, sizeof p);
    BaseOom h;
    base_oom_push(&h);
    if (BASE_OOM_SETJMP(&h)) {
        /* the handler is popped; what the two structures hold is freed */
        pie_free(&p);
        turns_free(&t);
        *err = strdup("out of memory");
        return false;
    }
    bool ok = turn_structure(game, o, &t);
    if (!ok) {
        *err = t.err;
        t.err = NULL;
    } else if ((ok = rewrite(&p, game, rules, len, name, err))) {
        emit(&p, name, t.note.s ? t.note.s : "", out);
    }
    base_oom_pop(&h);
    pie_free(&p);
    turns_free(&t);
    return ok;
}

bool pie_transform(const GdlGame *game, const char *rules, size_t len, const char *name, FILE *out, char **err)
{
    PieOptions o;
    pie_options_default(&o);
    return pie_transform_opt(game, rules, len, name, &o, out, err);
}
