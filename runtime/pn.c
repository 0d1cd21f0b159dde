/*
 * pn.c: engine `pn`, a propositional network evaluated from tables: its
 * propagation and queries here, its making in pn_make.c, the tables both
 * read in pn.h.
 *
 * Making it: the game's program is grounded (middle/ground.c, within the
 * budgets of `pn:max-atoms=N,max-rules=N,max-links=N`, defaults otherwise),
 * its network built and optimised (middle/propnet.c, pnopt.c; the passes of
 * compile/pipeline.c's cp_propnet), then flattened into arrays: per
 * component a counter of its true inputs, biased so that its bit 31 is the
 * gate's value (Sancho's trick: a visit adds and compares one word), a
 * PnGate (its value and flags), and the outputs of all as one array (CSR,
 * uint32, each link carrying what a visit needs of its target, PN_E_*: a
 * NOT, whose value is its counter's bit 31 inverted, a cyclic member, a bit
 * sink, a record to update on a flip; and whether the link stands for a
 * bypassed NOT, its counter moving against the change). A game whose
 * grounding passes a budget is refused with the grounder's message, which
 * names the relation that grew; engine jit plays such games.
 *
 * Evaluating: the network always holds the values of one state and one
 * joint move (at first: no fact, no move). A query sets the bases of its
 * state and, for `next`, the inputs of its joint move, touching only those
 * that differ from the last ones, and propagates the changes forward, as
 * Sancho and ggplib do: a gate keeps the count of its inputs that are true
 * and is true when the count reaches its threshold (AND: all inputs, OR:
 * one), a NOT when it does not reach it (one), so a change costs a visit
 * per output, whatever the gate's fan-in. A change is queued with the value it tells (component, value),
 * so that a component that flips twice before its outputs hear of it tells
 * them +1 then -1, and counts always equal the values told. In a network
 * without cycles drained from its tables, a NOT that nothing but gates
 * reads is bypassed (bypass_nots): its input tells the NOT's outputs over
 * inverted links, which saves a visit and a change told per flip
 * (Breakthrough +15%, Connect Four +6%).
 *
 * Cycles. Recursion over the state (hex's connected cells) gives positive
 * cycles of gates, whose meaning is the least fixpoint: counting alone
 * would let a cycle hold itself true once its support is gone. Every
 * cyclic strongly connected component (pn_sccs) is therefore recomputed
 * from false, after the changes from outside it have been told: its
 * members are set false (their outputs told), then raised again while one
 * holds on what is true. The cyclic components marked dirty wait until the
 * queue is empty and are recomputed in topological order (the lowest
 * first); a recomputation may queue changes and dirty later ones, and an
 * early one may be recomputed again when an input changes late: the last
 * recomputation of each sees its inputs final.
 *
 * Order. The queue is a stack: changes are told depth first, so a gate
 * whose inputs change one by one may be told a rise, a fall and a rise
 * again in one query (a glitch). A network without cycles is numbered in
 * topological order (flatten: Kahn's, keeping the grounder's numbers
 * where they are topological already) and may be drained in that order
 * instead (drain_ordered): the changes of leaves mark the gates whose
 * count crossed their threshold, and marked gates are looked at by
 * increasing number, each once, told only when its value differs from
 * the value it told last. It pays where glitches are many (Reversi's
 * lines of discs: 40% of the queue's changes told again) and costs more
 * per change elsewhere, so a sample of random play decides
 * (choose_order; pn:ordered, pn:queued force it).
 *
 * Answers. Per role, the legal moves are numbered in canonical order (the
 * API's: gt_sort) and the true ones kept as a bitset as they flip, so that
 * `legal` reads the bits in order and the API need not sort
 * (EngineOps.sorted_moves); a component may stand for several legal
 * sentences once hashing has merged identical gates, hence a list of
 * watchers (bits) per component. A gate without outputs that nothing
 * reads but one such bit or one next-state bit (a bit sink: most legal
 * and next gates) keeps no value of its own: a visit toggles its bit by
 * whether its counter's bit 31 moved, without a branch on it (PN_E_BIT;
 * Breakthrough +6%). For the queue's drain a component's links to bit
 * sinks come first, each with its bit beside it, so that their loop
 * neither branches nor looks the bit up (rt_pn_lay_out); a flip that must
 * update a record is handled out of line, so that the loop over the
 * other links keeps its pointers in registers. `next` reads every base's next
 * component, in the order of the facts' term ids, so the state comes out
 * sorted; it keeps what it answered (facts and bits), so that setting that
 * state next (a playout's next step) compares bitsets instead of merging
 * fact lists. `terminal` reads one component; `goals` the role's goal
 * components.
 *
 * pn:compiled. The same tables, with the propagation of every component
 * whose outputs are acyclic compiled to straight-line C by libtcc
 * (backend/pncg.h): the drain loop calls a component's function instead
 * of walking its output list, and the function tells its outputs depth
 * first, handing the host what the tables must do (a cyclic SCC to
 * recompute, a call nested too deep). A network whose code would pass the
 * line budget (max-lines=N, default PNCG_DEFAULT_MAX_LINES) keeps the
 * tables alone.
 *
 * Guards and phases. A base that many legal moves' gates read (whose
 * turn it is) is taken out of those gates and masks their bits instead
 * (choose_guards); and the network may be made once per phase, each
 * value of such bases or of bases that reach many legal moves through
 * other gates (count_reach), each optimised again with them constant and
 * answering the states of its phase (make_phases), when a sample of
 * random play shows the phases work less.
 *
 * Goals apart. Gates that only the goals read (Reversi's disc counts) may
 * get a network of their own, brought up to date when goals are asked
 * (split_goals), so that play does not tell them every change.
 *
 * States. A fact with no base proposition cannot affect any ground rule
 * (grounding instantiates rules over reachable facts only), so it is
 * ignored: on states no play reaches (a parsed state holding facts outside
 * the domain, or contradicting a base the optimiser found fixed) the
 * answers may differ from ref's, which evaluates whatever it is given.
 * Made strict (rt_pn_strict, as engine jit makes it), it refuses such a
 * state instead (RT_PN_UNCOVERED), and jit answers it with its goal-directed
 * code; the check costs nothing on a playout's next state.
 */
#include "pn.h"

/* ---- propagation ---------------------------------------------------------- */

/* Legal sentences follow their component's value. */
static inline __attribute__((always_inline)) void watch_legal(Pn *p, uint32_t c)
{
    for (uint32_t w = p->watch_at[c]; w < p->watch_at[c + 1]; w++) {
        uint32_t b = p->watch[w];
        p->legal_on[b >> 6] ^= (uint64_t)1 << (b & 63);
    }
}

/* Legal sentences, next-state bits and guarded moves follow their
 * component's value; f is its flags. Inline: the propagation loop calls
 * it on a flip (a call per flip was 8% of checkers' profile). */
static inline __attribute__((always_inline)) void watch_flip(Pn *p, uint32_t c, uint8_t f)
{
    if (f & PN_F_GUARD)
        for (uint32_t i = p->guard_at[c]; i < p->guard_at[c + 1]; i++)
            p->legal_ok[p->guard_word[i]] ^= p->guard_mask[i];
    if (f & PN_F_NEXT)
        for (uint32_t w = p->nw_at[c]; w < p->nw_at[c + 1]; w++) {
            uint32_t b = p->nw[w];
            p->next_on[b >> 6] ^= (uint64_t)1 << (b & 63);
        }
    if (f & PN_F_WATCHED)
        watch_legal(p, c);
}

static inline void set_val(Pn *p, uint32_t c, uint8_t v)
{
    p->g[c].val = v;
    uint8_t f = p->g[c].flags;
    if (f & (PN_F_WATCHED | PN_F_NEXT | PN_F_GUARD))
        watch_flip(p, c, f);
}

static void mark_dirty(Pn *p, uint32_t s)
{
    if (!p->dirty[s]) {
        p->dirty[s] = 1;
        vec_push(p->dirty_list, s);
    }
}

/* The host of the compiled propagation (pn:compiled, PncgCtx): a change to
 * tell, a cyclic SCC to recompute. */
void rt_pn_host_queue(void *h, uint32_t c, uint32_t v) { queue_push(h, c, (uint8_t)v); }
void rt_pn_host_dirty(void *h, uint32_t c)
{
    Pn *p = h;
    mark_dirty(p, p->cyc[c]);
}

/* A flip of d to v whose link is marked PN_E_SPEC: its value stored, the
 * bits that follow it toggled; false when it has no outputs to tell. */
static inline __attribute__((always_inline)) bool spec_flip(Pn *p, uint32_t d, uint8_t v)
{
    PnGate *g = &p->g[d];
    g->val = v;
    uint8_t f = g->flags;
    if (f & (PN_F_WATCHED | PN_F_NEXT | PN_F_GUARD))
        watch_flip(p, d, f);
    return !(f & PN_F_SINK);
}

/* spec_flip out of line: inline, its loops over watchers and guards took
 * the registers of drain_acyclic's loop, which kept ctr and its bounds on
 * the stack (Connect Four, checkers, Breakthrough 1.02-1.03x out of line,
 * their networks' flips mostly plain gates). */
static __attribute__((noinline)) bool spec_flip_cold(Pn *p, uint32_t d, uint8_t v) { return spec_flip(p, d, v); }

/* The queue, twice as long (drain_acyclic: its rare case, out of line). */
static __attribute__((noinline)) void queue_grow(Pn *p)
{
    p->capqueue = p->capqueue ? 2 * p->capqueue : 1024;
    p->queue = base_xrealloc(p->queue, p->capqueue * sizeof *p->queue);
}

#ifdef PN_COUNT_VISITS
/* A profiling build (cc -DPN_COUNT_VISITS): gates told of a change and
 * changes told, printed to stderr when the engine is freed, with the
 * components whose changes visited most (count_report). */
uint64_t pn_visits, pn_tells;
static inline uint32_t links_of(const Pn *p, uint32_t c)
{
    return (p->out_mid[c] - p->out_at[c]) / 2 + p->out_at[c + 1] - p->out_mid[c];
}
#define PN_COUNT(c) (pn_tells++, p->told[(c)]++, pn_visits += links_of(p, (c)))
#else
#define PN_COUNT(c) ((void)0)
#endif

/* Tells c's outputs that it became v; own is c's cyclic SCC (BASE_NONE:
 * none): members of it only count (recompute decides them). Reads the
 * pairs layout (rt_pn_lay_out) only: a network with cycles or compiled code,
 * the only ones told here, never drains in order, which alone has the
 * plain one. Every
 * counter takes the change alike; a NOT's value is its bit 31 inverted.
 * Only a target whose link is marked PN_E_SPEC has its record read (and
 * its value stored) when it flips: the others are plain gates whose
 * value is their counter's. count: the tables' work is counted
 * (sample_work). */
static inline __attribute__((always_inline)) void tell_(Pn *p, uint32_t c, uint8_t v, uint32_t own, bool count)
{
    uint32_t delta = v ? 1 : UINT32_MAX; /* +1 or -1 (no PN_E_NEG here: bypass_nots leaves
                                          * networks with cycles or compiled code alone) */
    uint32_t *ctr = p->ctr;
    PN_COUNT(c);
    uint32_t o = p->out_at[c], mid = p->out_mid[c], end = p->out_at[c + 1];
    if (count)
        p->work += 2 + (mid - o) / 2 + end - mid;
    for (; o < mid; o += 2) { /* bit sinks */
        uint32_t d = p->out[o] & PN_E_COMP, b = p->out[o + 1];
        uint32_t old = ctr[d], now = old + delta;
        ctr[d] = now;
        p->legal_on[b >> 6] ^= (uint64_t)((old ^ now) >> 31) << (b & 63);
    }
    for (; o < end; o++) {
        uint32_t e = p->out[o], d = e & PN_E_COMP;
        uint32_t old = ctr[d], now = old + delta;
        ctr[d] = now;
        if (e & PN_E_CYC) {
            uint32_t s = p->cyc[d];
            if (s != own)
                mark_dirty(p, s);
            else if (v)
                vec_push(p->local, d);
            continue;
        }
        if ((old ^ now) & PN_CTR_TRUE) {
            uint8_t nv = (uint8_t)(now >> 31) ^ (uint8_t)(e >> 31); /* PN_E_NOT: inverted */
            if ((e & PN_E_SPEC) && !spec_flip(p, d, nv))
                continue;
            queue_push(p, d, nv);
        }
    }
}

static void tell(Pn *p, uint32_t c, uint8_t v, uint32_t own) { tell_(p, c, v, own, p->counting); }

/* Tells every queued change of a network without cycles from its tables:
 * tell_'s loop with the queue and the arrays it reads in locals (a store
 * of a value byte may alias anything reached through p, so the compiler
 * would reload them after each). */
static inline __attribute__((always_inline)) void drain_acyclic(Pn *p, bool count)
{
    const uint32_t *out_at = p->out_at, *out_mid = p->out_mid, *out = p->out;
    uint32_t *ctr = p->ctr;
    uint64_t *q = p->queue, *bits = p->legal_on, work = 0;
    uint32_t nq = p->nqueue, cap = p->capqueue;
    while (nq) {
        uint64_t x = q[--nq];
        uint32_t c = (uint32_t)(x >> 1), delta = (x & 1) ? 1 : UINT32_MAX, ndelta = 0u - delta;
        PN_COUNT(c);
        uint32_t o = out_at[c], mid = out_mid[c], end = out_at[c + 1];
        if (count)
            work += 2 + (mid - o) / 2 + end - mid;
        for (; o < mid; o += 2) { /* bit sinks: no branch on whether they flipped */
            uint32_t e = out[o], d = e & PN_E_COMP, b = out[o + 1];
            uint32_t old = ctr[d], now = old + (e & PN_E_NEG ? ndelta : delta);
            ctr[d] = now;
            bits[b >> 6] ^= (uint64_t)((old ^ now) >> 31) << (b & 63);
        }
        for (; o < end; o++) {
            uint32_t e = out[o], d = e & PN_E_COMP;
            uint32_t old = ctr[d], now = old + (e & PN_E_NEG ? ndelta : delta);
            ctr[d] = now;
            if (!((old ^ now) & PN_CTR_TRUE))
                continue;
            uint8_t nv = (uint8_t)(now >> 31) ^ (uint8_t)(e >> 31); /* PN_E_NOT: inverted */
            if ((e & PN_E_SPEC) && !spec_flip_cold(p, d, nv))
                continue;
            if (__builtin_expect(nq == cap, 0)) {
                p->nqueue = nq;
                queue_grow(p);
                q = p->queue;
                cap = p->capqueue;
            }
            q[nq++] = (uint64_t)d << 1 | nv;
        }
    }
    p->nqueue = 0;
    if (count)
        p->work += work;
}

/* Tells c's outputs that its value became v (ordered: drain_ordered):
 * their counters move, and a target whose count crossed its threshold is
 * marked to be looked at in its turn (its bit in mark, and the word's in
 * mark_sum). */
static inline __attribute__((always_inline)) void tell_marks(Pn *p, uint32_t c, uint8_t v, bool count)
{
    uint32_t delta = v ? 1 : UINT32_MAX, ndelta = 0u - delta, *ctr = p->ctr;
    uint64_t *mark = p->mark, *sum = p->mark_sum;
    const uint32_t *out = p->out; /* the plain links, one word each (rt_pn_lay_out) */
    PN_COUNT(c);
    uint32_t o = p->out_at[c], end = p->out_at[c + 1];
    if (count)
        p->work += 2 + end - o;
    for (; o < end; o++) {
        uint32_t e = out[o], d = e & PN_E_COMP, old = ctr[d], now = old + (e & PN_E_NEG ? ndelta : delta);
        ctr[d] = now;
        if ((old ^ now) & PN_CTR_TRUE) {
            mark[d >> 6] |= (uint64_t)1 << (d & 63);
            sum[d >> 12] |= (uint64_t)1 << (d >> 6 & 63);
        }
    }
}

/* Tells every queued change of a network without cycles in the order of
 * the components' numbers, which is topological (flatten): a gate is
 * looked at once all its inputs are told, so it is told at most once per
 * drain, and only when its value then differs from the value it told
 * last (val). The depth-first queue may tell a gate a rise, then a fall,
 * then a rise again as its inputs arrive one by one (a glitch); Reversi's
 * lines of discs told 40% of their changes more than once. Marks go to
 * later words only, so one pass over the summary finds them all. */
static inline __attribute__((always_inline)) void drain_ordered_(Pn *p, bool count)
{
    while (p->nqueue) { /* leaves, set already: their outputs */
        uint64_t x = p->queue[--p->nqueue];
        tell_marks(p, (uint32_t)(x >> 1), (uint8_t)(x & 1), count);
    }
    const uint32_t *ctr = p->ctr;
    uint64_t *mark = p->mark, *sum = p->mark_sum;
    for (uint32_t sw = 0, nsum = (p->n >> 12) + 1; sw < nsum; sw++)
        while (sum[sw]) {
            uint32_t w = sw << 6 | (uint32_t)__builtin_ctzll(sum[sw]);
            if (count)
                p->work++;
            while (mark[w]) {
                uint64_t m = mark[w];
                uint32_t d = w << 6 | (uint32_t)__builtin_ctzll(m);
                mark[w] = m & (m - 1);
                uint8_t v = (uint8_t)(ctr[d] >> 31) ^ p->g[d].inv;
                if (v == p->g[d].val)
                    continue; /* back where it was: nothing to tell */
                set_val(p, d, v);
                tell_marks(p, d, v, count);
            }
            sum[sw] &= ~((uint64_t)1 << (w & 63));
        }
}

/* Out of line: in the function of the queue's drain its loop took the
 * registers and code alignment that drain's other loops left it (hex,
 * pinned, interleaved: 1.12x as its own function). */
static __attribute__((noinline)) void drain_ordered(Pn *p)
{
    if (p->counting)
        drain_ordered_(p, true);
    else
        drain_ordered_(p, false);
}

/* Drains p in topological order (drain_ordered), or by its queue; a
 * network with cycles or compiled code keeps its queue. The values of
 * plain gates, which the queue's drain leaves to their counters, are
 * brought up to date first, and the links laid out for the drain
 * (rt_pn_lay_out). */
void rt_pn_set_ordered(Pn *p, bool on)
{
    if (on && (p->ncyc || p->ctell))
        return;
    if (on && !p->mark) {
        p->mark = base_xcalloc((p->n >> 6) + 2, sizeof *p->mark);
        p->mark_sum = base_xcalloc((p->n >> 12) + 2, sizeof *p->mark_sum);
    }
    if (on && !p->ordered)
        for (uint32_t c = 0; c < p->n; c++)
            if (!(p->g[c].flags & PN_F_LEAF))
                p->g[c].val = (uint8_t)(p->ctr[c] >> 31) ^ p->g[c].inv;
    if (on != p->ordered) {
        p->snap.taken = false; /* its values of plain gates were the other drain's */
        rt_pn_lay_out(p, !on);
    }
    p->ordered = on;
}

/* Recomputes cyclic SCC s from false: its least fixpoint. */
static void recompute(Pn *p, uint32_t s)
{
    p->dirty[s] = 0;
    p->local.n = 0;
    for (uint32_t i = p->cyc_at[s]; i < p->cyc_at[s + 1]; i++) {
        uint32_t c = p->cyc_comp[i];
        if (p->g[c].val) {
            set_val(p, c, 0);
            tell(p, c, 0, s);
        }
    }
    p->local.n = 0;
    for (uint32_t i = p->cyc_at[s]; i < p->cyc_at[s + 1]; i++)
        vec_push(p->local, p->cyc_comp[i]);
    while (p->local.n) {
        uint32_t c = p->local.v[--p->local.n];
        if (!p->g[c].val && ((p->ctr[c] >> 31) ^ p->g[c].inv)) {
            set_val(p, c, 1);
            tell(p, c, 1, s);
        }
    }
}

/* Tells every queued change, then recomputes dirty cyclic SCCs, lowest
 * first, until nothing changes. */
static void drain(Pn *p)
{
    for (;;) {
        if (p->ctell) /* pn:compiled: a component's function, else its tables */
            while (p->nqueue) {
                uint64_t x = p->queue[--p->nqueue];
                uint32_t c = (uint32_t)(x >> 1);
                if (p->ctell[c])
                    p->ctell[c](&p->cx, (x & 1) ? 1u : UINT32_MAX);
                else
                    tell(p, c, (uint8_t)(x & 1), p->cyc[c]);
            }
        else if (p->ordered)
            drain_ordered(p);
        else if (!p->ncyc) { /* no cycles: no SCC to look up */
            if (p->counting)
                drain_acyclic(p, true);
            else
                drain_acyclic(p, false);
        } else
            while (p->nqueue) {
                uint64_t x = p->queue[--p->nqueue];
                uint32_t c = (uint32_t)(x >> 1);
                tell_(p, c, (uint8_t)(x & 1), p->cyc[c], p->counting);
            }
        if (!p->dirty_list.n)
            return;
        uint32_t best = 0;
        for (uint32_t i = 1; i < p->dirty_list.n; i++)
            if (p->dirty_list.v[i] < p->dirty_list.v[best])
                best = i;
        uint32_t s = p->dirty_list.v[best];
        p->dirty_list.v[best] = p->dirty_list.v[--p->dirty_list.n];
        recompute(p, s);
    }
}

/* Sets a base or input component (a fixed base, now a constant, is left). */
static inline void set_leaf(Pn *p, uint32_t c, uint8_t v)
{
    if ((p->g[c].flags & PN_F_CONST) || p->g[c].val == v)
        return;
    set_val(p, c, v);
    if (p->out_at[c + 1] != p->out_at[c])
        queue_push(p, c, v);
}

/* Can the network hold the state facts: has every fact a base, and are
 * the bases fixed by the optimiser as they were fixed (the ones fixed true
 * present, none fixed false)? Play from the initial state reaches no
 * other state. */
static bool holds(const Pn *p, const Gt *facts, uint32_t n)
{
    uint32_t fixed_true = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = base_index(p, facts[i]);
        if (b == BASE_NONE)
            return false;
        const PnGate *g = &p->g[p->base_comp[b]];
        if (g->flags & PN_F_CONST) {
            if (!g->val)
                return false;
            fixed_true++;
        }
    }
    return fixed_true == p->nconst_true;
}

/* Snapshots (PnSnap). A network small beside the bases a state changes
 * (PN_SNAP_GAIN components or fewer per differing base) is copied back
 * rather than told them: a copy costs a fraction of a nanosecond per
 * component, a base told about 45 (Connect Four). At most PN_SNAP_MAX
 * components: the image doubles what the network's state takes. Not for
 * compiled code (its own functions keep the values). */
enum { PN_SNAP_GAIN = 64, PN_SNAP_MAX = 1u << 16 };

/* legal_on's block: the legal bits, a word, next_on, a word (flatten_) */
static size_t legal_block_words(const Pn *p) { return (size_t)p->nlegal_words + 1 + p->nbase_words + 1; }

static void snap_take(Pn *p)
{
    PnSnap *s = &p->snap;
    if (p->ctell || p->n > PN_SNAP_MAX)
        return;
    if (!s->on) {
        s->on = base_xmalloc((p->nbase_words + 1) * sizeof *s->on);
        s->ctr = base_xmalloc(((size_t)p->n + 1) * sizeof *s->ctr);
        s->g = base_xmalloc(((size_t)p->n + 1) * sizeof *s->g);
        s->bits = base_xmalloc(legal_block_words(p) * sizeof *s->bits);
        s->ok = base_xmalloc(((size_t)p->nlegal_words + 1) * sizeof *s->ok);
        s->input = base_xmalloc(((size_t)p->nroles + 1) * sizeof *s->input);
        s->want = base_xmalloc(((size_t)p->nroles + 1) * sizeof *s->want);
    }
    memcpy(s->on, p->last_on, p->nbase_words * sizeof *s->on);
    memcpy(s->ctr, p->ctr, p->n * sizeof *s->ctr);
    memcpy(s->g, p->g, p->n * sizeof *s->g);
    memcpy(s->bits, p->legal_on, legal_block_words(p) * sizeof *s->bits);
    memcpy(s->ok, p->legal_ok, (p->nlegal_words + 1) * sizeof *s->ok);
    for (uint32_t k = 0; k < p->nroles; k++)
        s->input[k] = p->roles[k].cur_input;
    s->taken = true;
}

/* Copies the snapshot back when it holds the bases on and the copy is
 * worth it. The inputs stay the caller's: those set now (a next step sets
 * them first, queued or not) are set again on the image, and what they
 * queued before is dropped with the state it was told to. Not while the
 * work is counted (sample_work measures the tables). */
static bool snap_restore(Pn *p, const uint64_t *on)
{
    PnSnap *s = &p->snap;
    if (!s->taken || p->ctell || p->counting)
        return false;
    uint64_t differ = 0;
    for (uint32_t w = 0; w < p->nbase_words; w++) {
        if (on[w] != s->on[w])
            return false;
        differ += (uint64_t)__builtin_popcountll(on[w] ^ p->last_on[w]);
    }
    if (differ * PN_SNAP_GAIN < p->n)
        return false;
    for (uint32_t k = 0; k < p->nroles; k++)
        s->want[k] = p->roles[k].cur_input;
    p->nqueue = 0; /* only inputs wait here: set again below */
    memcpy(p->last_on, s->on, p->nbase_words * sizeof *s->on);
    memcpy(p->ctr, s->ctr, p->n * sizeof *s->ctr);
    memcpy(p->g, s->g, p->n * sizeof *s->g);
    memcpy(p->legal_on, s->bits, legal_block_words(p) * sizeof *s->bits);
    memcpy(p->legal_ok, s->ok, (p->nlegal_words + 1) * sizeof *s->ok);
    for (uint32_t k = 0; k < p->nroles; k++) {
        uint32_t was = s->input[k], now = s->want[k];
        p->roles[k].cur_input = now;
        if (was == now)
            continue;
        if (was != BASE_NONE)
            set_leaf(p, was, 0);
        if (now != BASE_NONE)
            set_leaf(p, now, 1);
    }
    return true;
}

/* Makes the network hold the state facts (sorted by id): the bases that
 * differ from the state it holds change. The state next answered last (a
 * playout's next step) is known by its stamp and taken as the bitset
 * rt_pn_next kept; any other is made a bitset from its facts, and may be
 * the snapshot's (snap_restore). False, with nothing changed, for a state
 * that strict refuses (holds). */
static bool set_state(Pn *p, const Gt *facts, uint32_t n)
{
    uint64_t stamp = p->ctl->stamp;
    if (stamp && stamp == p->last_stamp) {
        if (p->nqueue) /* the same state again (legal of each role, then next): only the inputs, if any */
            drain(p);
        return true;
    }
    const uint64_t *on = p->made->on;
    if (!stamp || stamp != p->made->stamp) {
        if (p->strict && !holds(p, facts, n))
            return false;
        uint64_t *given = p->given_on;
        memset(given, 0, p->nbase_words * sizeof *given);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t b = base_index(p, facts[i]);
            if (b != BASE_NONE)
                given[b >> 6] |= (uint64_t)1 << (b & 63);
        }
        if (snap_restore(p, given)) {
            p->last_stamp = stamp;
            drain(p); /* the inputs set again, if any */
            return true;
        }
        on = given;
    }
    for (uint32_t w = 0; w < p->nbase_words; w++) {
        uint64_t now = on[w];
        for (uint64_t d = p->last_on[w] ^ now; d; d &= d - 1) {
            uint32_t bit = (uint32_t)__builtin_ctzll(d);
            set_leaf(p, p->base_comp[w << 6 | bit], (uint8_t)(now >> bit & 1));
        }
        p->last_on[w] = now;
    }
    p->last_stamp = stamp;
    drain(p);
    if (on == p->given_on && !p->snap.taken)
        snap_take(p);
    return true;
}

/* ---- the engine operations ---------------------------------------------- */

/* Every query is short (it propagates what changed): the flag is read
 * once per query, the coarse clock once per 8 (a deadline set reads it at
 * the next: RtControl's poll count, control.h). */
static inline bool pn_stop(RtControl *c)
{
    return rt_flag_up(c) || (c->deadline > 0 && (++c->poll & 7) == 0 && rt_stop_coarse(c));
}

#define PN_POLL(p)                                                             \
    do {                                                                       \
        if (pn_stop((p)->ctl))                                                 \
            return rt_fail((p)->ctl, GDL_CANCELLED, "cancelled");              \
    } while (0)

EngineStatus rt_pn_initial(void *e, U32Vec *facts)
{
    Pn *p = e;
    PN_POLL(p);
    for (uint32_t i = 0; i < p->init.n; i++)
        vec_push(*facts, p->init.v[i]);
    return GDL_OK;
}

/* The network that answers for a state: its phase's, when the network has
 * phases and the state is in one, else the network itself. */
static inline Pn *phase(Pn *p, const Gt *state, uint32_t n)
{
    if (!p->ph.nphase)
        return p;
    uint64_t stamp = p->ctl->stamp;
    if (stamp && stamp == p->route_stamp)
        return p->route;
    p->route_stamp = stamp;
    p->route = p;
    uint32_t m = 0;
    if (stamp && stamp == p->made->stamp) { /* the state next answered last: its bits */
        for (uint32_t i = 0; i < p->ph.nsplit; i++) {
            uint32_t b = p->ph.base[i];
            m |= (uint32_t)(p->made->on[b >> 6] >> (b & 63) & 1) << i;
        }
    } else
        for (uint32_t i = 0; i < p->ph.nsplit; i++) {
            Gt f = p->ph.fact[i];
            uint32_t lo = 0, hi = n;
            while (lo < hi) {
                uint32_t mid = (lo + hi) >> 1;
                if (state[mid] < f)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            m |= (uint32_t)(lo < n && state[lo] == f) << i;
        }
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        if (p->ph.mask[i] == m)
            p->route = p->ph.net[i];
    return p->route;
}

EngineStatus rt_pn_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves)
{
    Pn *p = phase(e, state, n);
    PN_POLL(p);
    if (!set_state(p, state, n))
        return RT_PN_UNCOVERED;
    const PnRoleTab *r = &p->roles[role];
    vec_reserve(*moves, moves->n + r->nlegal + 1);
    const uint64_t *on = p->legal_on + r->lw0, *ok = p->legal_ok + r->lw0;
    Gt *out = moves->v + moves->n;
    for (uint32_t w = 0, nw = (r->nlegal + 63) >> 6; w < nw; w++)
        for (uint64_t x = on[w] & ok[w]; x; x &= x - 1)
            *out++ = r->move[w << 6 | (uint32_t)__builtin_ctzll(x)];
    moves->n = (uint32_t)(out - moves->v);
    return GDL_OK;
}

/* Whether move is legal for role r in the state the network holds: its bit. */
static inline bool legal_bit(const Pn *p, const PnRoleTab *r, Gt move)
{
    uint32_t i = move < r->ninput_of ? r->legal_of[move] : BASE_NONE;
    if (i == BASE_NONE)
        return false;
    uint32_t w = r->lw0 + (i >> 6);
    return (p->legal_on[w] & p->legal_ok[w]) >> (i & 63) & 1;
}

/* The network holds the next state of state after joint (in next_on),
 * answered by *pp; when check, the joint move is checked first
 * (EngineOps.next_checked): RT_ILLEGAL when a move is not legal. */
static inline __attribute__((always_inline)) EngineStatus step_(void *e, const Gt *state, uint32_t n,
                                                                const Gt *joint, bool check, Pn **pp)
{
    Pn *p = *pp = phase(e, state, n);
    PN_POLL(p);
    for (uint32_t k = 0; k < p->nroles; k++) {
        PnRoleTab *r = &p->roles[k];
        uint32_t c = joint[k] < r->ninput_of ? r->input_of[joint[k]] : BASE_NONE;
        if (c == r->cur_input)
            continue;
        if (r->cur_input != BASE_NONE)
            set_leaf(p, r->cur_input, 0);
        if (c != BASE_NONE)
            set_leaf(p, c, 1);
        r->cur_input = c;
    }
    if (!set_state(p, state, n))
        return RT_PN_UNCOVERED;
    /* legal does not read does: the bits are the state's, inputs or not */
    for (uint32_t k = 0; check && k < p->nroles; k++)
        if (!legal_bit(p, &p->roles[k], joint[k]))
            return RT_ILLEGAL;
    return GDL_OK;
}

/* The state next_on holds is the one next answered last (PnMade). */
static inline void made_(Pn *p)
{
    p->made->stamp = p->ctl->made_stamp;
    memcpy(p->made->on, p->next_on, p->nbase_words * sizeof *p->made->on);
}

static inline __attribute__((always_inline)) EngineStatus next_(void *e, const Gt *state, uint32_t n,
                                                                const Gt *joint, U32Vec *facts, bool check)
{
    Pn *p;
    EngineStatus st = step_(e, state, n, joint, check, &p);
    if (st != GDL_OK)
        return st;
    vec_reserve(*facts, facts->n + p->nbase + 1);
    Gt *out = facts->v + facts->n;
    for (uint32_t w = 0, nw = (p->nbase + 63) >> 6; w < nw; w++)
        for (uint64_t x = p->next_on[w]; x; x &= x - 1)
            *out++ = p->base_fact[w << 6 | (uint32_t)__builtin_ctzll(x)];
    facts->n = (uint32_t)(out - facts->v);
    made_(p);
    return GDL_OK;
}

/* EngineOps.next_facts: next_checked's facts written to the API's room
 * (made_facts: the bases' facts; the phases' networks have the top one's
 * bases, numbered alike). */
EngineStatus rt_pn_next_facts(void *e, const Gt *state, uint32_t n, const Gt *joint, Gt *facts, uint32_t *nout)
{
    Pn *p;
    EngineStatus st = step_(e, state, n, joint, true, &p);
    if (st != GDL_OK)
        return st;
    const Gt *fact = ((const Pn *)e)->base_fact;
    Gt *out = facts;
    for (uint32_t w = 0, nw = (p->nbase + 63) >> 6; w < nw; w++)
        for (uint64_t x = p->next_on[w]; x; x &= x - 1)
            *out++ = fact[w << 6 | (uint32_t)__builtin_ctzll(x)];
    *nout = (uint32_t)(out - facts);
    made_(p);
    return GDL_OK;
}

/* EngineOps.made_facts: the bases' facts. */
uint32_t rt_pn_made_facts(void *e, const Gt **facts, uint32_t *most)
{
    Pn *p = e;
    *facts = p->base_fact;
    *most = p->nbase;
    return p->nbase;
}

EngineStatus rt_pn_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    return next_(e, state, n, joint, facts, false);
}

EngineStatus rt_pn_next_checked(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    return next_(e, state, n, joint, facts, true);
}

EngineStatus rt_pn_terminal(void *e, const Gt *state, uint32_t n, bool *terminal)
{
    Pn *p = phase(e, state, n);
    PN_POLL(p);
    if (!set_state(p, state, n))
        return RT_PN_UNCOVERED;
    *terminal = p->g[p->terminal].val;
    return GDL_OK;
}

EngineStatus rt_pn_goals(void *e, const Gt *state, uint32_t n, U32Vec *values)
{
    Pn *p = ((Pn *)e)->goalnet ? ((Pn *)e)->goalnet : phase(e, state, n);
    PN_POLL(p);
    if (!set_state(p, state, n))
        return RT_PN_UNCOVERED;
    for (uint32_t k = 0; k < p->nroles; k++) {
        const PnRoleTab *r = &p->roles[k];
        for (uint32_t g = 0; g < r->ngoals; g++)
            if (p->g[r->goal_comp[g]].val) {
                vec_push(*values, k);
                vec_push(*values, r->goal_value[g]);
            }
    }
    return GDL_OK;
}

/* Every move and fact: ranked once by the API (EngineOps.terms). */
void rt_pn_terms(void *e, U32Vec *out)
{
    Pn *p = e;
    for (uint32_t k = 0; k < p->nroles; k++)
        for (uint32_t i = 0; i < p->roles[k].nlegal; i++)
            vec_push(*out, p->roles[k].move[i]);
    for (uint32_t b = 0; b < p->nbase; b++)
        vec_push(*out, p->base_fact[b]);
}

const EngineOps rt_engine_pn = {
    "pn", rt_pn_create, rt_pn_destroy, rt_pn_initial, rt_pn_legal, rt_pn_next, rt_pn_terminal, rt_pn_goals, ENGINE_ARG_OPTIONAL, rt_pn_terms,
    true, rt_pn_next_checked, rt_pn_made_facts, rt_pn_next_facts, NULL, NULL,
};
