/*
 * latch.c: single latches, joint latches and inhibitors, by implication
 * deduction over two turns with the moves played, turn 1's bases only
 * (ctx->d2b).
 *
 * Single latches. (b, v) is a latch when b = v at turn 0 forces b = v at
 * turn 1, whatever the (legal) joint move. For each non-fixed base b and
 * value v the deduction sets b = v at turn 0 and reads b at turn 1: known
 * and equal, it is a latch (the structural forms X' = X OR ..., X' = NOT X
 * AND ... and anything the gates force beyond them); unknown, it sets b =
 * !v at turn 1 too, and a contradiction proves the latch (refutation
 * reaches what forward propagation alone does not: a false OR makes every
 * input false, a role plays exactly one legal move). When b = v at turn 0
 * is already contradictory (b true makes the state terminal, say) no
 * transition leaves such a state: the latch holds vacuously, and it is
 * reported (a structural X' = X OR ... whose X also ends the game is one),
 * unless no state at all has a transition (the move rules alone are
 * contradictory: terminal always holds), where nothing is reported.
 *
 * Joint latches. From a full state S at turn 0 the deduction gives turn 1;
 * F starts as the non-fixed bases whose turn-1 value is known and equals S's.
 * Then F alone (its bases with S's values) is set at turn 0 and the bases of
 * F that keep their value at turn 1 are kept, until F stops shrinking: then
 * all of F at turn 0 forces all of F at turn 1 (F is closed). The single
 * latches are taken out of F: when the rest R is non-empty and closed by
 * itself it is reported, else (R non-empty, not closed alone) F is. The
 * states are the initial one and, per sample, one state chosen uniformly
 * (reservoir sampling) among the non-terminal states after the first of a
 * random playthrough (uniform legal moves, SplitMix64 seeded by opt->seed,
 * at most opt->max_depth steps). a->joint_states counts the states tried.
 *
 * Inhibitors. p inhibits q when p true at turn 0 forces q false at turn 1.
 * One deduction per p (p true at turn 0), then every candidate q is read at
 * turn 1. Candidates are the non-fixed bases that can be true after turn 0
 * (a next that is not the constant false) and are not forced false at turn 1
 * by the move rules alone (with nothing set): those would be inhibited by
 * every p, which says nothing about p.
 *
 * Everything here is sound as the deduction is: a claim holds on every
 * transition of every state (reachable or not) with a legal joint move.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Whether (b, v) is in the sorted list of single latches. */
static bool is_latch(const Analysis *a, uint32_t b, bool v)
{
    uint32_t lo = 0, hi = a->latches.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const AnLit *l = &a->latches.v[mid];
        if (l->base < b || (l->base == b && (int)l->value < (int)v))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->latches.n && a->latches.v[lo].base == b && a->latches.v[lo].value == v;
}

/* b = v at turn 0 forces b = v at turn 1 (see the essay). */
static bool latched(AnDeduce *d, const Propnet *pn, uint32_t b, bool v)
{
    uint32_t comp = pn->base.v[b].comp;
    an_deduce_reset(d);
    if (!an_deduce_set(d, comp, 0, v))
        return true; /* no transition leaves a state with b = v: it holds vacuously */
    int at1 = an_deduce_base(d, b, 1);
    if (at1 >= 0)
        return at1 == (int)v;
    return !an_deduce_set(d, comp, 1, !v);
}

void an_find_latches(AnCtx *c, Analysis *a)
{
    const Propnet *pn = c->pn;
    an_deduce_reset(c->d2b);
    if (!an_deduce_consistent(c->d2b))
        return; /* no state has a transition (terminal always holds): nothing to say */
    for (uint32_t b = 0; b < pn->base.n && !an_stop(c); b++) {
        if (an_base_fixed(pn, b))
            continue;
        for (int v = 1; v >= 0; v--)
            if (latched(c->d2b, pn, b, v))
                vec_push(a->latches, ((AnLit){b, v}));
    }
}

/* ---- joint latches ------------------------------------------------------ */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *rng, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t x = splitmix(rng);
        if (x < limit)
            return x % n;
    }
}

/* Sets the bases of set at turn 0 with their values in s. */
static bool set_part(AnDeduce *d, const Propnet *pn, const U32Vec *set, const uint64_t *s)
{
    an_deduce_reset(d);
    for (uint32_t i = 0; i < set->n; i++)
        if (!an_deduce_set(d, pn->base.v[set->v[i]].comp, 0, an_bit(s, set->v[i])))
            return false;
    return true;
}

/* Keeps the bases of set whose turn-1 value is known and equal to s's;
 * the position of the first one dropped, UINT32_MAX when every one was
 * kept. Those dropped get rank UINT32_MAX - round (when rank). */
static uint32_t keep_agreeing(const AnDeduce *d, U32Vec *set, const uint64_t *s, uint32_t *rank, uint32_t round)
{
    uint32_t k = 0, first = UINT32_MAX;
    for (uint32_t i = 0; i < set->n; i++)
        if (an_deduce_base(d, set->v[i], 1) == (int)an_bit(s, set->v[i]))
            set->v[k++] = set->v[i];
        else {
            if (first == UINT32_MAX)
                first = i;
            if (rank)
                rank[set->v[i]] = UINT32_MAX - round;
        }
    set->n = k;
    return first;
}

/* Base b put at position at of set and set at turn 0 with its value in s,
 * after a mark. */
static bool set_at(AnDeduce *d, const Propnet *pn, U32Vec *set, uint32_t at, uint32_t b, U32Vec *marks,
                   const uint64_t *s)
{
    set->v[at] = b;
    vec_push(*marks, an_deduce_mark(d));
    return an_deduce_set(d, pn->base.v[b].comp, 0, an_bit(s, b));
}

/* Sets the bases of set from position from on at turn 0 with their values
 * in s, each after a mark (marks->v[i] before set->v[i]), reordering them:
 * first, in rounds, those whose turn-1 value the settings so far already
 * give (they cannot disagree: a value deduced from fewer settings stays),
 * then the rest (pend, scratch), among which alone the next drop can be,
 * so that it comes late and undoing to it is cheap. */
static bool set_from(AnDeduce *d, const Propnet *pn, U32Vec *set, uint32_t from, U32Vec *marks, U32Vec *pend,
                     const uint64_t *s)
{
    marks->n = from;
    pend->n = 0;
    for (uint32_t i = from; i < set->n; i++)
        vec_push(*pend, set->v[i]);
    uint32_t at = from;
    for (bool more = true; more && pend->n > 0;) {
        more = false;
        uint32_t k = 0;
        for (uint32_t i = 0; i < pend->n; i++) {
            uint32_t b = pend->v[i];
            if (an_deduce_base(d, b, 1) < 0) {
                pend->v[k++] = b;
                continue;
            }
            if (!set_at(d, pn, set, at++, b, marks, s))
                return false;
            more = true;
        }
        pend->n = k;
    }
    for (uint32_t i = 0; i < pend->n; i++)
        if (!set_at(d, pn, set, at++, pend->v[i], marks, s))
            return false;
    return true;
}

static int cmp_key(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int cmp_base(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Whether every base of set, with its value in s, is a single latch. */
static bool only_latches(const Analysis *a, const U32Vec *set, const uint64_t *s)
{
    for (uint32_t i = 0; i < set->n; i++)
        if (!is_latch(a, set->v[i], an_bit(s, set->v[i])))
            return false;
    return true;
}

/* The joint latch through state s, if any, appended to a. */
static void joint_from(AnCtx *c, const Analysis *a, const uint64_t *s, U32Vec *f, U32Vec *r, U32Vec *marks,
                       U32Vec *pend, uint32_t *rank, AnJointVec *out)
{
    const Propnet *pn = c->pn;
    AnDeduce *d = c->d2b;
    uint32_t rounds = 0;
    an_deduce_reset(d);
    if (!an_deduce_set_state(d, s, 0))
        return; /* a terminal state, or one where a role has no legal move */
    f->n = 0;
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (!an_base_fixed(pn, b) && an_deduce_base(d, b, 1) == (int)an_bit(s, b))
            vec_push(*f, b);
    /* shrink to a closed set: a subset of a consistent assignment stays
     * consistent; once only single latches are left nothing is reported.
     * A round drops what disagrees; the bases before the first dropped are
     * still set as they were, so the next round undoes to the mark before
     * it and sets only what follows (a counter's bases drop one a round,
     * and a round costs the settings after the drop, not all of f). The
     * order is the last state's outcome (rank): what stayed first, then
     * what dropped, the later the earlier, so that what drops first comes
     * last (Hex's chains of connected cells drop over 50 to 80 rounds).
     * The closure, and so the set found, is the same in any order */
    if (rank && f->n > 1) {
        uint64_t *key = base_xmalloc(f->n * sizeof *key);
        for (uint32_t i = 0; i < f->n; i++)
            key[i] = (uint64_t)rank[f->v[i]] << 32 | f->v[i];
        qsort(key, f->n, sizeof *key, cmp_key);
        for (uint32_t i = 0; i < f->n; i++)
            f->v[i] = (uint32_t)key[i];
        free(key);
    }
    an_deduce_reset(d);
    for (uint32_t from = 0; !only_latches(a, f, s);) {
        if (an_stop(c) || !set_from(d, pn, f, from, marks, pend, s))
            return;
        rounds++;
        from = keep_agreeing(d, f, s, rank, rounds);
        if (from == UINT32_MAX)
            break;
        an_deduce_undo_to(d, marks->v[from]);
    }
    if (rank)
        for (uint32_t i = 0; i < f->n; i++)
            rank[f->v[i]] = 0;
    if (f->n > 1) /* the order of the settings, not of the bases */
        qsort(f->v, f->n, sizeof *f->v, cmp_base);
    r->n = 0;
    for (uint32_t i = 0; i < f->n; i++)
        if (!is_latch(a, f->v[i], an_bit(s, f->v[i])))
            vec_push(*r, f->v[i]);
    if (r->n == 0)
        return;
    const U32Vec *set = f;
    if (r->n < f->n && set_part(d, pn, r, s) && keep_agreeing(d, r, s, NULL, 0) == UINT32_MAX)
        set = r;
    AnJoint j = {0};
    vec_reserve(j.lits, set->n);
    for (uint32_t i = 0; i < set->n; i++)
        j.lits.v[j.lits.n++] = (AnLit){set->v[i], an_bit(s, set->v[i])};
    vec_push(*out, j);
}

/* Plays one random playthrough from init and keeps up to want of its
 * non-terminal states after the first, chosen uniformly (a reservoir:
 * pick holds want states of c->words words); returns how many it kept. */
static uint32_t sample(AnCtx *c, uint64_t *rng, const uint64_t *init, uint64_t *cur, uint64_t *pick, uint32_t want,
                       U32Vec *legal, uint32_t *joint)
{
    const Propnet *pn = c->pn;
    uint32_t max_depth = c->opt && c->opt->max_depth ? c->opt->max_depth : 1000;
    uint32_t nroles = pn->roles.n;
    size_t wbytes = (size_t)c->words * sizeof *cur;
    memcpy(cur, init, wbytes);
    uint64_t seen = 0;
    for (uint32_t step = 0; step < max_depth; step++) {
        an_eval(c->ev, cur, NULL);
        if (an_eval_terminal(c->ev))
            break;
        if (step > 0) {
            seen++;
            uint64_t slot = seen <= want ? seen - 1 : below(rng, seen);
            if (slot < want)
                memcpy(pick + slot * c->words, cur, wbytes);
        }
        bool stuck = false;
        for (uint32_t r = 0; r < nroles; r++) {
            legal->n = 0;
            an_eval_legal(c->ev, r, legal);
            if (legal->n == 0) {
                stuck = true;
                break;
            }
            joint[r] = legal->v[below(rng, legal->n)];
        }
        if (stuck)
            break;
        an_eval_moves(c->ev, cur, joint);
        an_eval_next(c->ev, cur);
    }
    return seen < want ? (uint32_t)seen : want;
}

void an_find_joint_latches(AnCtx *c, Analysis *a)
{
    const Propnet *pn = c->pn;
    size_t wbytes = (size_t)(c->words ? c->words : 1) * sizeof(uint64_t);
    uint64_t *init = base_xcalloc(1, wbytes), *cur = base_xcalloc(1, wbytes);
    uint64_t *pick = base_xcalloc(AN_STATES_PER_PLAYTHROUGH, wbytes);
    uint32_t *joint = base_xcalloc(pn->roles.n ? pn->roles.n : 1, sizeof *joint);
    U32Vec f = {0}, r = {0}, marks = {0}, pend = {0}, legal = {0};
    uint32_t *rank = base_xcalloc(pn->base.n + 1, sizeof *rank);
    an_initial(pn, init);
    joint_from(c, a, init, &f, &r, &marks, &pend, rank, &a->joints);
    a->joint_states = 1;
    uint64_t rng = c->opt ? c->opt->seed : 0;
    uint32_t samples = c->opt ? c->opt->samples : 0;
    /* AN_STATES_PER_PLAYTHROUGH states a playthrough; a playthrough that
     * gives none (over at once) ends the sampling */
    for (uint32_t done = 0; done < samples && !an_stop(c);) {
        uint32_t want = samples - done < AN_STATES_PER_PLAYTHROUGH ? samples - done : AN_STATES_PER_PLAYTHROUGH;
        uint32_t got = sample(c, &rng, init, cur, pick, want, &legal, joint);
        if (got == 0)
            break;
        for (uint32_t k = 0; k < got && !an_stop(c); k++) {
            joint_from(c, a, pick + (size_t)k * c->words, &f, &r, &marks, &pend, rank, &a->joints);
            a->joint_states++;
        }
        done += got;
    }
    vec_free(f);
    vec_free(r);
    vec_free(marks);
    vec_free(pend);
    vec_free(legal);
    free(rank);
    free(joint);
    free(init);
    free(cur);
    free(pick);
}

/* ---- inhibitors --------------------------------------------------------- */

void an_find_inhibitors(AnCtx *c, Analysis *a)
{
    const Propnet *pn = c->pn;
    AnDeduce *d = c->d2b;
    U32Vec cand = {0};
    an_deduce_reset(d);
    for (uint32_t q = 0; q < pn->base.n; q++) {
        uint32_t next = pn->base.v[q].next;
        if (an_base_fixed(pn, q) || next == PN_NONE)
            continue;
        const PnComp *x = &pn->comps.v[next];
        if (x->kind == PN_CONST && x->const_value == 0)
            continue;
        if (an_deduce_base(d, q, 1) == 0)
            continue;
        vec_push(cand, q);
    }
    for (uint32_t p = 0; p < pn->base.n && cand.n > 0 && !an_stop(c); p++) {
        if (an_base_fixed(pn, p))
            continue;
        an_deduce_reset(d);
        if (!an_deduce_set(d, pn->base.v[p].comp, 0, true))
            continue;
        for (uint32_t i = 0; i < cand.n; i++)
            if (an_deduce_base(d, cand.v[i], 1) == 0)
                vec_push(a->inhibitors, ((AnInhibitor){p, cand.v[i]}));
    }
    vec_free(cand);
}

/* Whether lits (sorted) is in joints. */
static bool joint_known(const AnJointVec *joints, const AnLitVec *lits)
{
    for (uint32_t i = 0; i < joints->n; i++) {
        const AnLitVec *l = &joints->v[i].lits;
        if (l->n != lits->n)
            continue;
        uint32_t k = 0;
        while (k < l->n && l->v[k].base == lits->v[k].base && l->v[k].value == lits->v[k].value)
            k++;
        if (k == l->n)
            return true;
    }
    return false;
}

bool an_joint_latch_at(AnQuery *q, const uint64_t *state, AnLitVec *out)
{
    AnJointVec one = {0};
    out->n = 0;
    joint_from(&q->ctx, q->a, state, &q->tmp, &q->tmp2, &q->tmp3, &q->tmp4, NULL, &one);
    if (one.n == 0)
        return false;
    for (uint32_t i = 0; i < one.v[0].lits.n; i++)
        vec_push(*out, one.v[0].lits.v[i]);
    /* a latch the game's list lacks is remembered, with what it proves of
     * the goals, for the ranges this query answers later */
    if (q->found.n < AN_QUERY_MAX_JOINTS && !joint_known(&q->a->joints, out) && !joint_known(&q->found, out)) {
        an_joint_goals(&q->ctx, out->v, out->n, q->found.n, &q->found_goals);
        vec_push(q->found, one.v[0]);
    } else {
        vec_free(one.v[0].lits);
    }
    vec_free(one);
    return true;
}
