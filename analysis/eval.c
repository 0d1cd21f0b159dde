/*
 * eval.c: exact evaluation of one state and joint move (analysis.h).
 *
 * The gates are visited in the topological order of their strongly
 * connected components (pn_sccs), computed once: an acyclic component
 * from its inputs; a cyclic one (recursion over the state: only ANDs and
 * ORs, the program being stratified) as its least fixpoint, every member
 * false first and then raised while one holds on what is true, sweeping
 * the members until nothing changes. Deliberately plain: it is the
 * yardstick the analyses' claims are confirmed with, and it shares nothing
 * with engine pn's propagation of changes.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

struct AnEval {
    const Propnet *pn;
    U32Vec order;     /* components, grouped by strongly connected component, in topological order */
    uint32_t *scc_at; /* nsccs + 1 */
    uint32_t nsccs;
    uint8_t *cyclic;  /* per group: whether it is a cycle */
    uint8_t *moved;   /* per group: whether an input reaches it (an_eval_moves) */
    uint8_t *val;     /* per component */
    uint8_t *played;  /* per input: in the joint move */
};

AnEval *an_eval_new(const Propnet *pn)
{
    AnEval *e = base_xcalloc(1, sizeof *e);
    e->pn = pn;
    U32Vec at = {0};
    e->nsccs = pn_sccs(pn, &e->order, &at);
    e->scc_at = at.v;
    e->cyclic = base_xcalloc((size_t)e->nsccs + 1, 1);
    for (uint32_t s = 0; s < e->nsccs; s++) {
        uint32_t from = e->scc_at[s], to = e->scc_at[s + 1];
        if (to - from > 1) {
            e->cyclic[s] = 1;
            continue;
        }
        const PnComp *k = &pn->comps.v[e->order.v[from]];
        for (uint32_t i = 0; i < k->nin; i++)
            if (pn->in.v[k->in_at + i] == e->order.v[from])
                e->cyclic[s] = 1;
    }
    /* the groups an input reaches, in topological order */
    e->moved = base_xcalloc((size_t)e->nsccs + 1, 1);
    uint8_t *reached = base_xcalloc((size_t)pn->comps.n + 1, 1);
    for (uint32_t s = 0; s < e->nsccs; s++) {
        for (uint32_t i = e->scc_at[s]; i < e->scc_at[s + 1] && !e->moved[s]; i++) {
            const PnComp *k = &pn->comps.v[e->order.v[i]];
            e->moved[s] = k->kind == PN_INPUT;
            for (uint32_t j = 0; j < k->nin && !e->moved[s]; j++)
                e->moved[s] = reached[pn->in.v[k->in_at + j]];
        }
        for (uint32_t i = e->scc_at[s]; i < e->scc_at[s + 1]; i++)
            reached[e->order.v[i]] = e->moved[s];
    }
    free(reached);
    e->val = base_xcalloc((size_t)pn->comps.n + 1, 1);
    e->played = base_xcalloc((size_t)pn->inputs.n + 1, 1);
    return e;
}

void an_eval_free(AnEval *e)
{
    if (!e)
        return;
    vec_free(e->order);
    free(e->scc_at);
    free(e->cyclic);
    free(e->moved);
    free(e->val);
    free(e->played);
    free(e);
}

/* The value of gate c from its inputs' values now. */
static uint8_t compute(const AnEval *e, uint32_t c, const uint64_t *state)
{
    const PnComp *k = &e->pn->comps.v[c];
    const uint32_t *in = e->pn->in.v + k->in_at;
    switch ((PnKind)k->kind) {
    case PN_CONST:
        return k->const_value;
    case PN_BASE:
        return an_bit(state, k->index);
    case PN_INPUT:
        return e->played[k->index];
    case PN_AND:
        for (uint32_t i = 0; i < k->nin; i++)
            if (!e->val[in[i]])
                return 0;
        return 1;
    case PN_OR:
        for (uint32_t i = 0; i < k->nin; i++)
            if (e->val[in[i]])
                return 1;
        return 0;
    case PN_NOT:
        return k->nin == 1 ? !e->val[in[0]] : 1;
    case PN_NKINDS:
        break;
    }
    return 0;
}

/* The groups in topological order (only those an input reaches, when
 * moved_only). */
static void eval_groups(AnEval *e, const uint64_t *state, const uint32_t *joint, bool moved_only)
{
    const Propnet *pn = e->pn;
    memset(e->played, 0, pn->inputs.n);
    if (joint)
        for (uint32_t r = 0; r < pn->roles.n; r++)
            if (joint[r] < pn->inputs.n)
                e->played[joint[r]] = 1;
    for (uint32_t s = 0; s < e->nsccs; s++) {
        if (moved_only && !e->moved[s])
            continue;
        uint32_t from = e->scc_at[s], to = e->scc_at[s + 1];
        if (!e->cyclic[s]) {
            uint32_t c = e->order.v[from];
            e->val[c] = compute(e, c, state);
            continue;
        }
        for (uint32_t i = from; i < to; i++)
            e->val[e->order.v[i]] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = from; i < to; i++) {
                uint32_t c = e->order.v[i];
                if (!e->val[c] && compute(e, c, state)) {
                    e->val[c] = 1;
                    changed = true;
                }
            }
        }
    }
}

void an_eval(AnEval *e, const uint64_t *state, const uint32_t *joint) { eval_groups(e, state, joint, false); }

void an_eval_moves(AnEval *e, const uint64_t *state, const uint32_t *joint) { eval_groups(e, state, joint, true); }

bool an_eval_value(const AnEval *e, uint32_t comp) { return comp < e->pn->comps.n && e->val[comp]; }

void an_eval_next(const AnEval *e, uint64_t *next)
{
    const Propnet *pn = e->pn;
    memset(next, 0, (size_t)an_state_words(pn) * sizeof *next);
    for (uint32_t b = 0; b < pn->base.n; b++) {
        uint32_t c = pn->base.v[b].next;
        if (c != PN_NONE && e->val[c])
            next[b >> 6] |= 1ull << (b & 63);
    }
}

bool an_eval_terminal(const AnEval *e) { return an_eval_value(e, e->pn->terminal); }

void an_eval_legal(const AnEval *e, uint32_t role, U32Vec *inputs)
{
    const PnRole *r = &e->pn->roles.v[role];
    for (uint32_t l = 0; l < r->legal.n; l++)
        if (r->legal.v[l].input != PN_NONE && e->val[r->legal.v[l].comp])
            vec_push(*inputs, r->legal.v[l].input);
}

int an_eval_goal(const AnEval *e, uint32_t role)
{
    const PnRole *r = &e->pn->roles.v[role];
    int found = -1;
    for (uint32_t g = 0; g < r->goals.n; g++) {
        if (!e->val[r->goals.v[g].comp])
            continue;
        if (r->goals.v[g].value == PN_NONE)
            return -2;
        int v = (int)r->goals.v[g].value;
        if (found >= 0 && found != v)
            return -2;
        found = v;
    }
    return found;
}

void an_initial(const Propnet *pn, uint64_t *state)
{
    memset(state, 0, (size_t)an_state_words(pn) * sizeof *state);
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (pn->base.v[b].init)
            state[b >> 6] |= 1ull << (b & 63);
}
