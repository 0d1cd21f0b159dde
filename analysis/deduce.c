/*
 * deduce.c: implication deduction over turns (the contract is in
 * analysis.h).
 *
 * Every timed component (c, t) is numbered t * n + c. It has a value
 * (-1 unknown, 0, 1) and, for a gate, the counts of its inputs at turn t
 * known true and known false, kept as values are gained, so that a gate's
 * rules read two counters:
 *
 *   AND  any input false -> false      all inputs true -> true
 *        true -> every input true      false with all others true -> the last false
 *   OR   the duals                     NOT  passes and takes its input inverted
 *
 * A value is gained only through gain(), which records it on a trail,
 * moves the counters of the component's outputs at its turn and queues
 * the component (for the rules upstream of it) and its outputs (for the
 * rules downstream). Examining a queued (c, t) applies the rules of c's
 * kind and the links that cross components without being gates:
 *   - a base at t > 0 equals its next component at t - 1 (both ways; a
 *     base with no next is false after turn 0);
 *   - with AN_MOVES_PLAYED and t < nturns - 1: a true input makes its
 *     legal true and its role's other inputs false, a false legal makes
 *     its inputs false, and a role with every input but one false plays
 *     that one (per-role counters at each turn, checked as an input
 *     gains its value); an input
 *     with no legal is never played; terminal is false.
 * A timed component is queued at most once at a time, and examined again
 * only when it or a neighbour gains a value, so a deduction costs the
 * links around what it decides, not the network's size.
 *
 * Reset. What holds whatever is set (constants, the consequences of the
 * move rules) is deduced once when the deduction is made, and the trail's
 * length then is a checkpoint: an_deduce_reset undoes the trail down to it,
 * moving every counter back, so a reset costs what the last deduction
 * touched.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

/* What a deduction knows of one timed component. */
typedef struct AnTimed {
    uint32_t ntrue;        /* inputs known true */
    uint32_t nfalse;       /* inputs known false */
    int8_t val;            /* -1, 0, 1 */
    uint8_t queued;        /* in the work-list */
} AnTimed;

struct AnDeduce {
    const Propnet *pn;
    uint32_t n;            /* components */
    uint32_t nturns;
    unsigned flags;
    AnTimed *tc;           /* per timed component, together: a gain touches one line an output */
    U32Vec work;           /* the work-list (a stack) */
    U32Vec trail;          /* timed components in the order they gained a value */
    uint32_t checkpoint;   /* trail length after the values that always hold */
    bool bad;              /* an assignment contradicted a known value */
    bool base_bad;         /* ... already at the checkpoint */
    /* comp -> the bases whose next it is: nexts[next_at[c] .. next_at[c+1]) */
    uint32_t *next_at, *nexts;
    /* comp -> the inputs whose legal it is: legal_inputs[legal_at[c] .. legal_at[c+1]) */
    uint32_t *legal_at, *legal_inputs;
    uint32_t *input_legal; /* per input: its legal component, PN_NONE when it has none */
    uint32_t *role_at;     /* per role r: its inputs role_inputs[role_at[r] .. role_at[r+1]) */
    uint32_t *role_inputs;
    uint32_t *role_ntrue, *role_nfalse; /* per role and turn: r * nturns + t */
};

static inline uint32_t timed(const AnDeduce *d, uint32_t c, uint32_t t) { return t * d->n + c; }

static void enqueue(AnDeduce *d, uint32_t x)
{
    if (!d->tc[x].queued) {
        d->tc[x].queued = 1;
        vec_push(d->work, x);
    }
}

static bool moves_at(const AnDeduce *d, uint32_t t)
{
    return (d->flags & AN_MOVES_PLAYED) && t + 1 < d->nturns;
}

/* Whether values at turn t are told to their outputs: not at the last
 * turn under AN_LAST_BASES (see analysis.h). */
static inline bool told(const AnDeduce *d, uint32_t t)
{
    return !(d->flags & AN_LAST_BASES) || t + 1 < d->nturns;
}

/* Gives (c, t) the value v: false on a contradiction. */
static bool gain(AnDeduce *d, uint32_t c, uint32_t t, int v)
{
    uint32_t x = timed(d, c, t);
    if (d->tc[x].val >= 0) {
        if (d->tc[x].val != v)
            d->bad = true;
        return d->tc[x].val == v;
    }
    d->tc[x].val = (int8_t)v;
    vec_push(d->trail, x);
    const PnComp *k = &d->pn->comps.v[c];
    const uint32_t *out = d->pn->out.v + k->out_at;
    for (uint32_t i = 0, nout = told(d, t) ? k->nout : 0; i < nout; i++) {
        uint32_t y = timed(d, out[i], t);
        if (v)
            d->tc[y].ntrue++;
        else
            d->tc[y].nfalse++;
        enqueue(d, y);
    }
    if (k->kind == PN_INPUT) {
        uint32_t r = d->pn->inputs.v[k->index].role;
        uint32_t rt = r * d->nturns + t;
        if (v)
            d->role_ntrue[rt]++;
        else
            d->role_nfalse[rt]++;
        enqueue(d, x);
        /* a role plays one of its inputs: when all but one are false, that one */
        uint32_t from = d->role_at[r], to = d->role_at[r + 1];
        if (!v && moves_at(d, t) && d->role_nfalse[rt] == to - from) {
            d->bad = true; /* no move left to play */
            return false;
        }
        if (!v && moves_at(d, t) && d->role_ntrue[rt] == 0 && d->role_nfalse[rt] + 1 == to - from)
            for (uint32_t i = from; i < to; i++) {
                uint32_t o = d->pn->inputs.v[d->role_inputs[i]].comp;
                if (d->tc[timed(d, o, t)].val < 0)
                    return gain(d, o, t, 1);
            }
        return true;
    }
    enqueue(d, x);
    return true;
}

/* Undoes the trail down to length keep. */
static void undo(AnDeduce *d, uint32_t keep)
{
    while (d->trail.n > keep) {
        uint32_t x = d->trail.v[--d->trail.n];
        uint32_t c = x % d->n, t = x / d->n;
        int v = d->tc[x].val;
        const PnComp *k = &d->pn->comps.v[c];
        const uint32_t *out = d->pn->out.v + k->out_at;
        for (uint32_t i = 0, nout = told(d, t) ? k->nout : 0; i < nout; i++) {
            uint32_t y = timed(d, out[i], t);
            if (v)
                d->tc[y].ntrue--;
            else
                d->tc[y].nfalse--;
        }
        if (k->kind == PN_INPUT) {
            uint32_t r = d->pn->inputs.v[k->index].role;
            if (v)
                d->role_ntrue[r * d->nturns + t]--;
            else
                d->role_nfalse[r * d->nturns + t]--;
        }
        d->tc[x].val = -1;
    }
}

/* The rules of one timed component. False on a contradiction. */
static bool examine(AnDeduce *d, uint32_t x)
{
    uint32_t c = x % d->n, t = x / d->n;
    const PnComp *k = &d->pn->comps.v[c];
    int v = d->tc[x].val;
    uint32_t nt = d->tc[x].ntrue, nf = d->tc[x].nfalse, nin = k->nin;
    const uint32_t *in = d->pn->in.v + k->in_at;
    switch ((PnKind)k->kind) {
    case PN_AND:
    case PN_OR: {
        int cv = k->kind == PN_AND ? 0 : 1; /* the value of an input that decides the gate */
        uint32_t ncv = cv ? nt : nf, nother = cv ? nf : nt;
        if (ncv > 0 && !gain(d, c, t, cv))
            return false;
        if (nother == nin && !gain(d, c, t, !cv))
            return false;
        v = d->tc[x].val;
        if (v == !cv) { /* no input decides it: every input has the other value */
            for (uint32_t i = 0; i < nin; i++)
                if (!gain(d, in[i], t, !cv))
                    return false;
        } else if (v == cv && ncv == 0 && nother + 1 == nin) {
            for (uint32_t i = 0; i < nin; i++)
                if (d->tc[timed(d, in[i], t)].val < 0)
                    return gain(d, in[i], t, cv);
        }
        break;
    }
    case PN_NOT:
        if (nt && !gain(d, c, t, 0))
            return false;
        if (nf && !gain(d, c, t, 1))
            return false;
        v = d->tc[x].val;
        if (v >= 0 && nin == 1 && !gain(d, in[0], t, !v))
            return false;
        break;
    case PN_BASE:
        if (t > 0 && v >= 0) {
            uint32_t next = d->pn->base.v[k->index].next;
            if (next != PN_NONE && !gain(d, next, t - 1, v))
                return false;
        }
        break;
    case PN_INPUT:
        if (moves_at(d, t)) {
            uint32_t in_ix = k->index, r = d->pn->inputs.v[in_ix].role;
            uint32_t from = d->role_at[r], to = d->role_at[r + 1];
            if (v == 1) {
                if (d->input_legal[in_ix] != PN_NONE && !gain(d, d->input_legal[in_ix], t, 1))
                    return false;
                for (uint32_t i = from; i < to; i++) {
                    uint32_t o = d->pn->inputs.v[d->role_inputs[i]].comp;
                    if (o != c && !gain(d, o, t, 0))
                        return false;
                }
            }
        }
        break;
    case PN_CONST:
    case PN_NKINDS:
        break;
    }
    v = d->tc[x].val;
    if (v < 0)
        return true;
    /* the bases whose next this is, one turn later */
    if (t + 1 < d->nturns)
        for (uint32_t i = d->next_at[c]; i < d->next_at[c + 1]; i++) {
            uint32_t bc = d->pn->base.v[d->nexts[i]].comp;
            if (d->pn->comps.v[bc].kind == PN_BASE && !gain(d, bc, t + 1, v))
                return false;
        }
    /* a false legal: its inputs are not played */
    if (v == 0 && moves_at(d, t))
        for (uint32_t i = d->legal_at[c]; i < d->legal_at[c + 1]; i++)
            if (!gain(d, d->pn->inputs.v[d->legal_inputs[i]].comp, t, 0))
                return false;
    return true;
}

static bool run(AnDeduce *d)
{
    while (d->work.n > 0 && !d->bad) {
        uint32_t x = d->work.v[--d->work.n];
        d->tc[x].queued = 0;
        if (!examine(d, x))
            d->bad = true;
    }
    /* leave the work-list empty whatever happened */
    while (d->work.n > 0)
        d->tc[d->work.v[--d->work.n]].queued = 0;
    return !d->bad;
}

/* CSR of a map given as (key, value) pairs, keys < nkeys. */
static void csr(uint32_t nkeys, const uint32_t *keys, const uint32_t *vals, uint32_t npairs, uint32_t **at,
                uint32_t **list)
{
    *at = base_xcalloc((size_t)nkeys + 1, sizeof **at);
    *list = base_xmalloc(((size_t)npairs + 1) * sizeof **list);
    for (uint32_t i = 0; i < npairs; i++)
        (*at)[keys[i] + 1]++;
    for (uint32_t k = 0; k < nkeys; k++)
        (*at)[k + 1] += (*at)[k];
    uint32_t *fill = base_xmalloc(((size_t)nkeys + 1) * sizeof *fill);
    memcpy(fill, *at, ((size_t)nkeys + 1) * sizeof *fill);
    for (uint32_t i = 0; i < npairs; i++)
        (*list)[fill[keys[i]]++] = vals[i];
    free(fill);
}

AnDeduce *an_deduce_new(const Propnet *pn, uint32_t nturns, unsigned flags)
{
    AnDeduce *d = base_xcalloc(1, sizeof *d);
    d->pn = pn;
    d->n = pn->comps.n;
    d->nturns = nturns ? nturns : 1;
    d->flags = flags;
    size_t nt = (size_t)d->n * d->nturns;
    d->tc = base_xcalloc(nt ? nt : 1, sizeof *d->tc);
    for (size_t x = 0; x < nt; x++)
        d->tc[x].val = -1;

    U32Vec keys = {0}, vals = {0};
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (pn->base.v[b].next != PN_NONE) {
            vec_push(keys, pn->base.v[b].next);
            vec_push(vals, b);
        }
    csr(d->n, keys.v, vals.v, keys.n, &d->next_at, &d->nexts);
    keys.n = vals.n = 0;
    uint32_t nin = pn->inputs.n, nroles = pn->roles.n;
    d->input_legal = base_xmalloc(((size_t)nin + 1) * sizeof *d->input_legal);
    for (uint32_t i = 0; i < nin; i++)
        d->input_legal[i] = PN_NONE;
    for (uint32_t r = 0; r < nroles; r++)
        for (uint32_t l = 0; l < pn->roles.v[r].legal.n; l++) {
            const PnLegal *lg = &pn->roles.v[r].legal.v[l];
            if (lg->input == PN_NONE)
                continue;
            d->input_legal[lg->input] = lg->comp;
            vec_push(keys, lg->comp);
            vec_push(vals, lg->input);
        }
    csr(d->n, keys.v, vals.v, keys.n, &d->legal_at, &d->legal_inputs);
    keys.n = vals.n = 0;
    for (uint32_t i = 0; i < nin; i++) {
        vec_push(keys, pn->inputs.v[i].role);
        vec_push(vals, i);
    }
    csr(nroles, keys.v, vals.v, keys.n, &d->role_at, &d->role_inputs);
    vec_free(keys);
    vec_free(vals);
    d->role_ntrue = base_xcalloc((size_t)nroles * d->nturns + 1, sizeof *d->role_ntrue);
    d->role_nfalse = base_xcalloc((size_t)nroles * d->nturns + 1, sizeof *d->role_nfalse);

    /* what always holds */
    for (uint32_t t = 0; t < d->nturns; t++) {
        for (uint32_t c = 0; c < d->n; c++)
            if (pn->comps.v[c].kind == PN_CONST)
                gain(d, c, t, pn->comps.v[c].const_value);
        if (t > 0)
            for (uint32_t b = 0; b < pn->base.n; b++)
                if (pn->base.v[b].next == PN_NONE && pn->comps.v[pn->base.v[b].comp].kind == PN_BASE)
                    gain(d, pn->base.v[b].comp, t, 0);
        if (moves_at(d, t)) {
            gain(d, pn->terminal, t, 0);
            for (uint32_t i = 0; i < nin; i++)
                if (d->input_legal[i] == PN_NONE)
                    gain(d, pn->inputs.v[i].comp, t, 0);
        }
    }
    run(d);
    d->base_bad = d->bad;
    d->checkpoint = d->trail.n;
    return d;
}

void an_deduce_free(AnDeduce *d)
{
    if (!d)
        return;
    free(d->tc);
    vec_free(d->work);
    vec_free(d->trail);
    free(d->next_at);
    free(d->nexts);
    free(d->legal_at);
    free(d->legal_inputs);
    free(d->input_legal);
    free(d->role_at);
    free(d->role_inputs);
    free(d->role_ntrue);
    free(d->role_nfalse);
    free(d);
}

void an_deduce_reset(AnDeduce *d)
{
    undo(d, d->checkpoint);
    d->bad = d->base_bad;
}

uint32_t an_deduce_mark(const AnDeduce *d) { return d->trail.n; }

void an_deduce_undo_to(AnDeduce *d, uint32_t mark)
{
    undo(d, mark > d->checkpoint ? mark : d->checkpoint);
    d->bad = d->base_bad;
}

bool an_deduce_set(AnDeduce *d, uint32_t comp, uint32_t turn, bool value)
{
    if (d->bad)
        return false;
    if (comp >= d->n || turn >= d->nturns)
        return true; /* nothing known of it: no constraint */
    gain(d, comp, turn, value);
    return run(d);
}

bool an_deduce_set_state(AnDeduce *d, const uint64_t *state, uint32_t turn)
{
    if (d->bad)
        return false;
    if (turn >= d->nturns)
        return true;
    const Propnet *pn = d->pn;
    for (uint32_t b = 0; b < pn->base.n && !d->bad; b++) {
        uint32_t c = pn->base.v[b].comp;
        if (pn->comps.v[c].kind == PN_BASE)
            gain(d, c, turn, an_bit(state, b));
    }
    return run(d);
}

int an_deduce_get(const AnDeduce *d, uint32_t comp, uint32_t turn)
{
    if (comp >= d->n || turn >= d->nturns)
        return -1;
    return d->tc[timed(d, comp, turn)].val;
}

int an_deduce_base(const AnDeduce *d, uint32_t b, uint32_t turn)
{
    return an_deduce_get(d, d->pn->base.v[b].comp, turn);
}

bool an_deduce_consistent(const AnDeduce *d) { return !d->bad; }

void an_deduce_known(const AnDeduce *d, U32Vec *comps, U32Vec *turns, AnBytes *val)
{
    for (uint32_t i = 0; i < d->trail.n; i++) {
        uint32_t x = d->trail.v[i];
        vec_push(*comps, x % d->n);
        vec_push(*turns, x / d->n);
        vec_push(*val, (uint8_t)d->tc[x].val);
    }
}
