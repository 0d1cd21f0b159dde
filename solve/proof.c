/*
 * proof.c: the two-player proof (docs/proofs.md, version 1) of the root's
 * provable interval [plo, phi].
 *
 * The lower section (plo > 0) is a strategy of the first role: from the
 * root, at a node where the first role chooses, one move whose child's plo
 * is at least plo; elsewhere every joint move (the other role's replies, or
 * the one forced move). The upper section (phi < 100) is the second role's
 * strategy the same way with phi. The provable intervals guarantee it: a
 * node where the other side chooses has plo > 0 (phi < 100) only when every
 * move is expanded and every child keeps the bound. Nodes are the graph's
 * ids, written once per section however many paths reach them; an edge
 * carries the symmetry its child's state was found under. The group's
 * elements are listed with their maps when a written edge uses one.
 */
#include <string.h>

#include "internal.h"

/* One section's nodes, in the order they are written, with the move chosen
 * (BASE_NONE: every joint move). */
typedef struct ProofSection {
    U32Vec nodes;
    U32Vec chosen;
} ProofSection;

/* Collects the section of role p (0: lower, keeps plo >= bound; 1: upper,
 * phi <= bound). False on an internal inconsistency. */
static bool collect(SvGraph *g, unsigned p, int bound, ProofSection *sec, bool *uses_sym)
{
    uint32_t stamp = sv_stamp(g);
    U32Vec stack = {0};
    vec_push(stack, g->root);
    g->nodes.v[g->root].mark = stamp;
    bool ok = true;
    while (stack.n && ok) {
        uint32_t x = stack.v[--stack.n];
        const SvNode *n = &g->nodes.v[x];
        uint32_t pick = BASE_NONE;
        if (n->mover == (int)p) {
            for (uint32_t e = 0; e < n->nmoves && pick == BASE_NONE; e++) {
                uint32_t c = g->edges.v[n->edge_at + e].child;
                if (c == BASE_NONE)
                    continue;
                const SvNode *cn = &g->nodes.v[c];
                if (p == 0 ? cn->plo >= bound : cn->phi <= bound)
                    pick = e;
            }
            if (pick == BASE_NONE)
                ok = sv_fail(g, GDL_BAD_ARGUMENT, "internal: no move keeps the bound at node %u", x);
        }
        vec_push(sec->nodes, x);
        vec_push(sec->chosen, pick);
        for (uint32_t e = 0; e < n->nmoves && ok; e++) {
            if (pick != BASE_NONE && e != pick)
                continue;
            const SvEdge *ed = &g->edges.v[n->edge_at + e];
            if (ed->child == BASE_NONE) {
                ok = sv_fail(g, GDL_BAD_ARGUMENT, "internal: an unexpanded reply at node %u", x);
                break;
            }
            if (ed->sym)
                *uses_sym = true;
            if (g->nodes.v[ed->child].mark != stamp) {
                g->nodes.v[ed->child].mark = stamp;
                vec_push(stack, ed->child);
            }
        }
    }
    vec_free(stack);
    return ok;
}

static void write_section(SvGraph *g, FILE *f, unsigned p, int bound, const ProofSection *sec)
{
    fprintf(f, "section %s %d root %u\n", p == 0 ? "lower" : "upper", bound, g->root);
    for (uint32_t i = 0; i < sec->nodes.n; i++) {
        uint32_t x = sec->nodes.v[i], pick = sec->chosen.v[i];
        const SvNode *n = &g->nodes.v[x];
        fprintf(f, "node %u", x);
        size_t nf = gdl_state_size(n->s);
        for (size_t k = 0; k < nf; k++)
            fprintf(f, " %s", gdl_state_fact(g->m, n->s, k));
        fputc('\n', f);
        if (n->mover == SV_TERMINAL)
            continue;
        fprintf(f, "play %u %s\n", x, gdl_move_text(g->m, sv_joint(g, x, pick == BASE_NONE ? 0 : pick)[p]));
        for (uint32_t e = 0; e < n->nmoves; e++) {
            if (pick != BASE_NONE && e != pick)
                continue;
            const SvEdge *ed = &g->edges.v[n->edge_at + e];
            const GdlMove *j = sv_joint(g, x, e);
            fprintf(f, "edge %u %u %u %s", x, ed->child, ed->sym, gdl_move_text(g->m, j[0]));
            fprintf(f, " %s\n", gdl_move_text(g->m, j[1]));
        }
    }
}

GdlStatus sv_proof_write(SvGraph *g, const GdlGame *game, const GdlState *start, FILE *f, uint64_t *nodes,
                         char **err)
{
    const SvNode *r = &g->nodes.v[g->root];
    int lo = r->plo, hi = r->phi;
    ProofSection sec[2];
    memset(sec, 0, sizeof sec);
    bool uses_sym = false, ok = true;
    if (lo > 0)
        ok = collect(g, 0, lo, &sec[0], &uses_sym);
    if (ok && hi < 100)
        ok = collect(g, 1, hi, &sec[1], &uses_sym);
    GdlStatus st = GDL_OK;
    if (!ok) {
        st = g->status ? g->status : GDL_BAD_ARGUMENT;
        *err = base_xstrdup(g->message);
        goto out;
    }
    fprintf(f, "gdlc-proof 1\n");
    fprintf(f, "roles %s %s\n", gdl_game_role_name(game, 0), gdl_game_role_name(game, 1));
    if (start) {
        fprintf(f, "start");
        size_t nf = gdl_state_size(start);
        for (size_t k = 0; k < nf; k++)
            fprintf(f, " %s", gdl_state_fact(g->m, start, k));
        fputc('\n', f);
    } else {
        fprintf(f, "start initial\n");
    }
    fprintf(f, "value %d %d\n", lo, hi);
    size_t nsym = uses_sym ? g->nsym : 1;
    fprintf(f, "symmetries %zu\n", nsym - 1);
    for (size_t k = 1; k < nsym; k++) {
        const GdlSymmetry *s = NULL;
        if ((st = gdl_analysis_symmetry(g->an, k, &s)) != GDL_OK) {
            *err = base_sprintf("symmetry %zu: %s", k, gdl_status_name(st));
            goto out;
        }
        for (size_t i = 0; i < s->n; i++)
            fprintf(f, "map %zu fact %s %s\n", k, s->facts_from[i], s->facts_to[i]);
        for (size_t i = 0; i < s->nm; i++)
            fprintf(f, "map %zu move %s %s %s\n", k, gdl_game_role_name(game, s->moves_role[i]),
                    gdl_move_text(g->m, s->moves_from[i]), gdl_move_text(g->m, s->moves_to[i]));
    }
    if (lo > 0)
        write_section(g, f, 0, lo, &sec[0]);
    if (hi < 100)
        write_section(g, f, 1, hi, &sec[1]);
    fprintf(f, "end\n");
    *nodes = (uint64_t)sec[0].nodes.n + sec[1].nodes.n;
out:
    for (int i = 0; i < 2; i++) {
        vec_free(sec[i].nodes);
        vec_free(sec[i].chosen);
    }
    return st;
}
