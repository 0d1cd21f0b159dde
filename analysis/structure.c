/*
 * structure.c: the analyses that read only the network's shape, not its
 * values: control logic and irrelevant roles.
 *
 * Control. A base is control (a step counter, whose turn it is) when its
 * value at every turn is the same whatever the roles play: the greatest
 * set C of bases such that the cone of each one's next component (upstream
 * through gates, stopping at bases) reaches no input and no base outside
 * C. Its complement is a least fixpoint, computed at once by reachability:
 * a component depends on the moves when it is an input, a gate with such
 * an input, or the base of such a next component (a transition is an edge
 * from next to base). One breadth-first pass forward from every input over
 * outputs and transitions marks exactly the components that depend on the
 * moves; the non-fixed bases left unmarked are control. Fixed bases (see
 * an_base_fixed) are constants and are left out, as in the latches. A base
 * whose next is PN_NONE (false after turn 0) is control.
 *
 * Irrelevant roles. For role r, the backward cone of what decides r's
 * outcome and r's choices: its goal components, terminal and its legal
 * components, closed upstream through gate inputs and from a base to its
 * next component. Another role s is irrelevant to r when none of s's inputs
 * is in that cone: no play of s changes r's goals, when the game ends or
 * what r may play. One breadth-first pass backward per role, O(roles *
 * network).
 *
 * Invariants: both passes read the network only; every queue entry is
 * pushed once (a mark is set on push).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Per component, the bases whose next it is: first[c] the first base,
 * nextb[b] the next base with the same next component (PN_NONE ends). */
static void next_lists(const Propnet *pn, uint32_t *first, uint32_t *nextb)
{
    for (uint32_t c = 0; c < pn->comps.n; c++)
        first[c] = PN_NONE;
    for (uint32_t b = pn->base.n; b-- > 0;) {
        uint32_t nx = pn->base.v[b].next;
        nextb[b] = PN_NONE;
        if (nx == PN_NONE || nx == pn->base.v[b].comp)
            continue;
        nextb[b] = first[nx];
        first[nx] = b;
    }
}

void an_find_control(AnCtx *c, Analysis *a)
{
    const Propnet *pn = c->pn;
    uint32_t n = pn->comps.n;
    uint8_t *moved = base_xcalloc(n + 1, 1);
    uint32_t *first = base_xmalloc((n + 1) * sizeof *first);
    uint32_t *nextb = base_xmalloc((pn->base.n + 1) * sizeof *nextb);
    next_lists(pn, first, nextb);
    U32Vec q = {0};
    for (uint32_t i = 0; i < pn->inputs.n; i++) {
        uint32_t ic = pn->inputs.v[i].comp;
        if (!moved[ic]) {
            moved[ic] = 1;
            vec_push(q, ic);
        }
    }
    for (uint32_t h = 0; h < q.n; h++) {
        uint32_t x = q.v[h];
        const PnComp *k = &pn->comps.v[x];
        for (uint32_t j = 0; j < k->nout; j++) {
            uint32_t y = pn->out.v[k->out_at + j];
            if (!moved[y]) {
                moved[y] = 1;
                vec_push(q, y);
            }
        }
        /* across the transitions of the bases x is the next of */
        for (uint32_t b = first[x]; b != PN_NONE; b = nextb[b]) {
            uint32_t bc = pn->base.v[b].comp;
            if (!moved[bc]) {
                moved[bc] = 1;
                vec_push(q, bc);
            }
        }
    }
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (!an_base_fixed(pn, b) && !moved[pn->base.v[b].comp])
            vec_push(a->control, b);
    vec_free(q);
    free(moved);
    free(first);
    free(nextb);
}

void an_find_irrelevant(AnCtx *c, Analysis *a)
{
    const Propnet *pn = c->pn;
    uint32_t n = pn->comps.n, nroles = pn->roles.n;
    /* per base component, its base index (to cross a transition backward) */
    uint32_t *base_of = base_xmalloc((n + 1) * sizeof *base_of);
    for (uint32_t x = 0; x < n; x++)
        base_of[x] = PN_NONE;
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (pn->comps.v[pn->base.v[b].comp].kind == PN_BASE)
            base_of[pn->base.v[b].comp] = b;
    uint8_t *in_cone = base_xmalloc(n + 1);
    U32Vec q = {0};
    vec_reserve(a->irrelevant, nroles * nroles);
    a->irrelevant.n = nroles * nroles;
    memset(a->irrelevant.v, 0, (size_t)nroles * nroles);
    for (uint32_t r = 0; r < nroles; r++) {
        const PnRole *role = &pn->roles.v[r];
        memset(in_cone, 0, n + 1);
        q.n = 0;
#define PUSH(x)                                                                \
    do {                                                                       \
        uint32_t x_ = (x);                                                     \
        if (x_ != PN_NONE && !in_cone[x_]) {                                   \
            in_cone[x_] = 1;                                                   \
            vec_push(q, x_);                                                   \
        }                                                                      \
    } while (0)
        PUSH(pn->terminal);
        for (uint32_t g = 0; g < role->goals.n; g++)
            PUSH(role->goals.v[g].comp);
        for (uint32_t l = 0; l < role->legal.n; l++)
            PUSH(role->legal.v[l].comp);
        for (uint32_t h = 0; h < q.n; h++) {
            uint32_t x = q.v[h];
            const PnComp *k = &pn->comps.v[x];
            for (uint32_t j = 0; j < k->nin; j++)
                PUSH(pn->in.v[k->in_at + j]);
            if (base_of[x] != PN_NONE)
                PUSH(pn->base.v[base_of[x]].next);
        }
#undef PUSH
        for (uint32_t s = 0; s < nroles; s++)
            a->irrelevant.v[r * nroles + s] = s != r;
        for (uint32_t i = 0; i < pn->inputs.n; i++)
            if (in_cone[pn->inputs.v[i].comp])
                a->irrelevant.v[r * nroles + pn->inputs.v[i].role] = 0;
    }
    vec_free(q);
    free(in_cone);
    free(base_of);
}
