/*
 * pn.c: engine `pn`, a propositional network evaluated from tables.
 *
 * Making it: the game's program is grounded (middle/ground.c, within the
 * budgets of `pn:max-atoms=N,max-rules=N,max-links=N`, defaults otherwise),
 * its network built and optimised (middle/propnet.c, pnopt.c), then
 * flattened into arrays: per component a counter of its true inputs,
 * biased so that its bit 31 is the gate's value (Sancho's trick: a visit
 * adds and compares one word), a PnGate (its value and flags), and the
 * outputs of all as one array (CSR, uint32, each link carrying what a visit
 * needs of its target, PN_E_*: a NOT, whose value is its counter's bit 31
 * inverted, a cyclic member, a bit sink, a record to update on a flip; and
 * whether the link stands for a bypassed NOT, its counter moving against
 * the change). A game whose
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
 * neither branches nor looks the bit up (lay_out); a flip that must
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
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../backend/pncg.h"
#include "../middle/ground.h"
#include "compiled.h"
#include "jit.h"
#include "pipeline.h"
#include "runtime.h"

typedef struct PnRoleTab {
    uint32_t nlegal;
    Gt *move;          /* per legal index: its move; in canonical order (gt_sort's) */
    uint32_t lw0;      /* its legal moves' bits: legal_on[lw0 .. lw0 + (nlegal + 63) / 64) */
    uint32_t ngoals;
    uint32_t *goal_comp; /* per goal: its component */
    Gt *goal_value;    /* per goal: its value as a term (the constant "50") */
    uint32_t *input_of; /* move term id -> input component (BASE_NONE: none); ninput_of entries */
    uint32_t *legal_of; /* move term id -> legal index (BASE_NONE: never legal); ninput_of entries */
    uint32_t ninput_of;
    uint32_t cur_input; /* the input component set now (BASE_NONE: none) */
} PnRoleTab;

/* What evaluation reads of a component beside its counter (Pn.ctr):
 * three bytes, so that the records of a large network stay in cache. */
typedef struct PnGate {
    uint8_t inv;       /* NOT: 1 (its value is its counter's bit 31 inverted) */
    uint8_t val;       /* its value now, kept for leaves, cyclic members and gates
                        * marked PN_F_SPEC (a plain gate's is its counter's bit 31),
                        * for every gate when the network drains in order */
    uint8_t flags;     /* PN_F_* */
} PnGate;

enum {
    PN_F_LEAF = 1,     /* a constant, base or input: set, never computed */
    PN_F_CONST = 2,    /* a constant (a fixed base among them): never set */
    PN_F_WATCHED = 4,  /* legal sentences watch it (watch_at) */
    PN_F_CYCLIC = 8,   /* a member of a cyclic SCC (cyc) */
    PN_F_NEXT = 16,    /* bases' next: their bits in next_on follow it (nw_at) */
    PN_F_GUARD = 32,   /* a base guarding legal moves: their bits in legal_ok follow it (guard_at) */
    PN_F_SINK = 64,    /* no outputs: a flip has no one to tell */
    PN_F_READ = 128,   /* its value is read (terminal, a goal): stored when it flips */
    PN_F_SPEC = PN_F_WATCHED | PN_F_NEXT | PN_F_GUARD | PN_F_SINK | PN_F_READ,
};

/* A base's fact as the API keeps it in a state (EngineOps.bind_shares). */
typedef struct PnShare {
    uint64_t mix;      /* its share of the state's hash */
    Gt fact;
    Gt cid;            /* its canonical id */
} PnShare;

/* The state next answered last. */
typedef struct PnMade {
    uint64_t stamp;    /* the stamp the API gave it (RtControl.made_stamp; 0: none) */
    uint64_t *on;      /* its facts as a bitset over base indexes */
} PnMade;

typedef struct Pn Pn;

/* A network's output links (Pn.out_at). */
typedef struct PnLinks {
    uint32_t *at, *mid, *out;
} PnLinks;

/* An image of the network holding one state (snap_take): what propagation
 * writes, so that coming back to that state is copying it back rather
 * than telling every base that differs (a playout's start: Connect Four's
 * network told a whole game's discs away, a tenth of its time). */
typedef struct PnSnap {
    bool taken;
    uint64_t *on;      /* the state's bases (as last_on) */
    uint32_t *ctr;
    PnGate *g;
    uint64_t *bits;    /* legal_on's block, next_on with it */
    uint64_t *ok;      /* legal_ok */
    uint32_t *input;   /* per role: its input set then (cur_input) */
    uint32_t *want;    /* snap_restore's scratch: the inputs set now */
} PnSnap;

/* A network's phases (below). */
typedef struct PnPhases {
    uint32_t nsplit;   /* the split bases */
    Gt *fact;          /* their facts */
    uint32_t *base;    /* their base indexes (bits of PnMade.on) */
    uint32_t nphase;
    uint32_t *mask;    /* per phase: which split bases hold (bit i: fact[i]) */
    Pn **net;          /* per phase: the network made for it */
} PnPhases;

struct Pn {
    GtStore *store;
    RtControl *ctl;
    uint32_t n;        /* components */
    PnGate *g;         /* per component */
    uint32_t *ctr;     /* per gate: its count of true inputs, biased so that bit 31 is its value
                        * (PN_CTR_TRUE - thr + cnt), inverted for a NOT (inv) */
    uint32_t *out_at;  /* outputs as the drain reads them (lay_out): out[out_at[c] .. out_at[c + 1]);
                        * for the queue's drain (pairs) first its bit sinks, each as two words
                        * (PN_E_BIT | component, then its bit), up to out_mid[c], then the
                        * others, each PN_E_* | component; for the ordered drain (plain) one
                        * word a link, bit sinks among them, and out_mid = out_at */
    uint32_t *out_mid;
    uint32_t *out;
    PnLinks plain;     /* flatten_'s links, one word each (mid unused); out_at and out point
                        * here when the network drains in order, */
    PnLinks pairs;     /* else here (bit sinks first, in pairs) */
    uint32_t *watch_at; /* watchers: watch[watch_at[c] .. watch_at[c + 1]) */
    uint32_t *watch;   /* each the bit in legal_on of a legal sentence c stands for */
    uint64_t *legal_on; /* per role, a bit per legal move: its component is true; next_on
                         * follows in the same block (one word apart), so that a bit sink's
                         * position (bit_at) names a bit of either */
    uint64_t *legal_ok; /* the same bits: the move's guard, if any, is true (a move is legal
                         * when both are set) */
    uint32_t *guard_at; /* per guard: the words of legal_ok it masks,
                         * guard_word/guard_mask[guard_at[c] .. guard_at[c + 1]) */
    uint32_t *guard_word;
    uint64_t *guard_mask;
    uint32_t *cyc;     /* cyclic SCC of the component, by topological rank (BASE_NONE: acyclic) */
    uint32_t ncyc;
    uint32_t *cyc_at;  /* members of cyclic SCC i: cyc_comp[cyc_at[i] .. cyc_at[i + 1]) */
    uint32_t *cyc_comp;
    uint8_t *dirty;    /* per cyclic SCC: waiting to be recomputed */
    U32Vec dirty_list;
    uint64_t *queue;   /* changes not told yet: component << 1 | value */
    uint32_t nqueue, capqueue;
    U32Vec local;      /* a cyclic SCC's members to raise */
    /* bases */
    uint32_t nbase;
    uint32_t *base_comp; /* in the order of their facts' term ids: the component (PN_CONST when fixed) */
    uint32_t *base_next; /* its next component (BASE_NONE: never true) */
    Gt *base_fact;
    PnShare *share;    /* per base, once bound (pn_bind_shares; NULL before; the top network's) */
    uint32_t *base_of;  /* fact term id -> base index (BASE_NONE: none); nbase_of entries */
    uint64_t *next_on;  /* bit b: base b's next component is true (the next state, as a bitset) */
    uint32_t *bit_at;   /* per component linked PN_E_BIT: its one bit, from legal_on[0] */
    uint32_t *nw_at;    /* the bases whose next is c: nw[nw_at[c] .. nw_at[c + 1]) */
    uint32_t *nw;
    uint32_t nbase_of;
    U32Vec init;       /* the initial state's facts, sorted by id */
    uint64_t last_stamp; /* the stamp of the state set now (RtControl.stamp), 0 for none known */
    uint64_t *last_on; /* its facts as a bitset over base indexes */
    uint64_t *given_on; /* set_state's scratch: a state given by its facts, as a bitset */
    PnMade *made;      /* the state next answered last (a playout's next state): its own
                        * made_own, or shared by the phases of a network */
    PnMade made_own;
    uint32_t nbase_words;
    uint32_t nlegal_words; /* legal_on's words (next_on starts one after) */
    uint32_t nconst_true; /* bases fixed true: a state the network can hold has each of them */
    bool strict;       /* a state it cannot hold is refused (RT_PN_UNCOVERED), not ignored */
    uint32_t terminal; /* its component */
    uint32_t nroles;
    PnRoleTab *roles;
    /* pn:compiled: the propagation compiled (backend/pncg.h) */
    RtJit *jit;
    void *dl;          /* or the system compiler's object (pn:compiled,cc) */
    void (*const *ctell)(PncgCtx *, uint32_t); /* per component: its function, or NULL (tables) */
    PncgCtx cx;
    uint32_t *order;   /* every component, in topological order (for the generator) */
    PnPhases ph;       /* nphase 0: none */
    Pn *goalnet;       /* the goals' own network (split_goals), or NULL: the goals are this one's */
    uint64_t route_stamp; /* the stamp of the state routed last (0: none), */
    Pn *route;         /* and its network */
    uint64_t work;     /* changes told (twice) and gates visited, by the tables, */
    bool counting;     /* while counting (sample_work) */
    bool ordered;      /* drained in topological order (drain_ordered; no cycles) */
    bool bypass;       /* plain NOTs are bypassed (bypass_nots): not for compiled code */
    uint64_t *mark;    /* drain_ordered: a bit per component to look at, */
    uint64_t *mark_sum; /* and a bit per word of mark that has one */
    PnSnap snap;       /* the first state given by its facts (a playout's start) */
#ifdef PN_COUNT_VISITS
    uint64_t *told;    /* per component: its changes told */
    Gt *name;          /* per component: its sentence, or that of its first input that has one */
    uint8_t *kind;     /* per component: its PnKind */
#endif
};

/* ---- propagation ---------------------------------------------------------- */

/* An output link carries what the propagation loop needs of its target, so
 * that a visit touches the target's counter only. */
#define PN_E_NOT 0x80000000u  /* the target is a NOT (its value is its counter's bit 31 inverted) */
#define PN_E_CYC 0x40000000u  /* the target is a member of a cyclic SCC */
#define PN_E_SPEC 0x20000000u /* the target's record matters on a flip: its value is read or
                               * bits follow it, or it has no outputs (PN_F_SPEC) */
#define PN_E_BIT 0x10000000u  /* the target is a bit sink: one legal-move or next-state bit
                               * follows it and nothing else reads it (bit_at); its value is
                               * left to its counter, the bit toggled when bit 31 moves */
#define PN_E_NEG 0x08000000u  /* the source stands for a NOT of itself that was bypassed
                               * (bypass_nots): the target's counter moves against its change */
#define PN_E_COMP 0x07ffffffu /* the target component */
#define PN_MAX_COMPS PN_E_COMP
#define PN_CTR_TRUE 0x80000000u

static inline void queue_push(Pn *p, uint32_t c, uint8_t v)
{
    if (p->nqueue == p->capqueue) {
        p->capqueue = p->capqueue ? 2 * p->capqueue : 1024;
        p->queue = base_xrealloc(p->queue, p->capqueue * sizeof *p->queue);
    }
    p->queue[p->nqueue++] = (uint64_t)c << 1 | v;
}

/* The value a gate's count gives it: true when the count reaches its
 * threshold (AND: every input, OR and NOT: one), inverted for a NOT. */
static inline uint8_t gate_value(const PnGate *g, uint32_t cnt, uint32_t thr)
{
    return (uint8_t)((cnt >= thr) ^ g->inv);
}

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
static uint64_t pn_visits, pn_tells;
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
 * pairs layout (lay_out) only: a network with cycles or compiled code,
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
    const uint32_t *out = p->out; /* the plain links, one word each (lay_out) */
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

static void lay_out(Pn *p, bool pairs);

/* Drains p in topological order (drain_ordered), or by its queue; a
 * network with cycles or compiled code keeps its queue. The values of
 * plain gates, which the queue's drain leaves to their counters, are
 * brought up to date first, and the links laid out for the drain
 * (lay_out). */
static void set_ordered(Pn *p, bool on)
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
        lay_out(p, !on);
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

static inline uint32_t base_index(const Pn *p, Gt t) { return t < p->nbase_of ? p->base_of[t] : BASE_NONE; }

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
 * pn_next kept; any other is made a bitset from its facts, and may be
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
 * the next: api.c's poll count). */
static inline bool pn_stop(RtControl *c)
{
    return rt_flag_up(c) || (c->deadline > 0 && (++c->poll & 7) == 0 && rt_stop_coarse(c));
}

#define PN_POLL(p)                                                             \
    do {                                                                       \
        if (pn_stop((p)->ctl))                                                 \
            return rt_fail((p)->ctl, GDL_CANCELLED, "cancelled");              \
    } while (0)

static EngineStatus pn_initial(void *e, U32Vec *facts)
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

static EngineStatus pn_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves)
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

/* EngineOps.next_shared: the facts from the bases' shares (bind_shares;
 * the phases' networks have the top one's bases, numbered alike). */
static EngineStatus pn_next_shared(void *e, const Gt *state, uint32_t n, const Gt *joint, Gt *facts, Gt *cids,
                                   uint32_t *nout, uint64_t *sum)
{
    Pn *p;
    EngineStatus st = step_(e, state, n, joint, true, &p);
    if (st != GDL_OK)
        return st;
    const PnShare *share = ((const Pn *)e)->share;
    uint32_t k = 0;
    uint64_t h = 0;
    for (uint32_t w = 0, nw = (p->nbase + 63) >> 6; w < nw; w++)
        for (uint64_t x = p->next_on[w]; x; x &= x - 1) {
            const PnShare *b = &share[w << 6 | (uint32_t)__builtin_ctzll(x)];
            facts[k] = b->fact;
            cids[k++] = b->cid;
            h += b->mix;
        }
    *nout = k;
    *sum = h;
    made_(p);
    return GDL_OK;
}

/* EngineOps.bind_shares: the bases', once. */
static uint32_t pn_bind_shares(void *e,
                               void (*share)(void *ctx, const Gt *facts, uint32_t n, Gt *cids, uint64_t *mixes),
                               void *ctx)
{
    Pn *p = e;
    if (p->share || !p->nbase)
        return p->share ? p->nbase : 0;
    Gt *cids = base_xmalloc((p->nbase + 1) * sizeof *cids);
    uint64_t *mixes = base_xmalloc((p->nbase + 1) * sizeof *mixes);
    share(ctx, p->base_fact, p->nbase, cids, mixes);
    PnShare *t = base_xmalloc((p->nbase + 1) * sizeof *t);
    for (uint32_t b = 0; b < p->nbase; b++)
        t[b] = (PnShare){mixes[b], p->base_fact[b], cids[b]};
    free(cids);
    free(mixes);
    p->share = t;
    return p->nbase;
}

static EngineStatus pn_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    return next_(e, state, n, joint, facts, false);
}

static EngineStatus pn_next_checked(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    return next_(e, state, n, joint, facts, true);
}

static EngineStatus pn_terminal(void *e, const Gt *state, uint32_t n, bool *terminal)
{
    Pn *p = phase(e, state, n);
    PN_POLL(p);
    if (!set_state(p, state, n))
        return RT_PN_UNCOVERED;
    *terminal = p->g[p->terminal].val;
    return GDL_OK;
}

static EngineStatus pn_goals(void *e, const Gt *state, uint32_t n, U32Vec *values)
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
static void pn_terms(void *e, U32Vec *out)
{
    Pn *p = e;
    for (uint32_t k = 0; k < p->nroles; k++)
        for (uint32_t i = 0; i < p->roles[k].nlegal; i++)
            vec_push(*out, p->roles[k].move[i]);
    for (uint32_t b = 0; b < p->nbase; b++)
        vec_push(*out, p->base_fact[b]);
}

/* ---- making and freeing ---------------------------------------------- */

#ifdef PN_COUNT_VISITS
typedef struct PnVisits {
    uint64_t visits;
    uint32_t c;
} PnVisits;

static int cmp_visits(const void *a, const void *b)
{
    uint64_t x = ((const PnVisits *)a)->visits, y = ((const PnVisits *)b)->visits;
    return (x < y) - (x > y);
}

/* The profiling build's report: the totals so far (every network of the
 * process), then this network's components whose changes visited most
 * gates, by their sentence (an unnamed gate: its kind and the sentence
 * of an input). */
static void count_report(Pn *p)
{
    static const char *const kinds[PN_NKINDS] = {"const", "base", "input", "AND", "OR", "NOT"};
    fprintf(stderr, "pn: %llu changes told, %llu gates visited\n", (unsigned long long)pn_tells,
            (unsigned long long)pn_visits);
    uint64_t total = 0;
    PnVisits *v = base_xcalloc(p->n + 1, sizeof *v);
    for (uint32_t c = 0; c < p->n; c++) {
        v[c] = (PnVisits){p->told[c] * links_of(p, c), c};
        total += v[c].visits;
    }
    qsort(v, p->n, sizeof *v, cmp_visits);
    fprintf(stderr, "pn: a network of %u components: %llu visits\n", p->n, (unsigned long long)total);
    for (uint32_t i = 0; i < p->n && i < 30 && v[i].visits; i++) {
        uint32_t c = v[i].c;
        fprintf(stderr, "  %5.1f%%  %10llu told  %4u links  %-5s %s\n", 100.0 * (double)v[i].visits / (double)total,
                (unsigned long long)p->told[c], links_of(p, c), p->kind[c] < PN_NKINDS ? kinds[p->kind[c]] : "?",
                p->name[c] == BASE_NONE ? "?" : gt_text(p->store, p->name[c]));
    }
    free(v);
    free(p->told);
    free(p->name);
    free(p->kind);
}
#endif

static void pn_destroy(void *e)
{
    Pn *p = e;
    if (!p)
        return;
#ifdef PN_COUNT_VISITS
    count_report(p);
#endif
    free(p->g);
    free(p->ctr);
    free(p->mark);
    free(p->mark_sum);
    free(p->plain.at);
    free(p->plain.out);
    free(p->pairs.at);
    free(p->pairs.mid);
    free(p->pairs.out);
    free(p->watch_at);
    free(p->watch);
    free(p->legal_on);
    free(p->legal_ok);
    free(p->guard_at);
    free(p->guard_word);
    free(p->guard_mask);
    free(p->cyc);
    free(p->cyc_at);
    free(p->cyc_comp);
    free(p->dirty);
    vec_free(p->dirty_list);
    free(p->queue);
    vec_free(p->local);
    free(p->base_comp);
    free(p->base_next);
    free(p->base_fact);
    free(p->share);
    free(p->base_of);
    free(p->bit_at);
    free(p->last_on);
    free(p->given_on);
    free(p->snap.on);
    free(p->snap.ctr);
    free(p->snap.g);
    free(p->snap.bits);
    free(p->snap.ok);
    free(p->snap.input);
    free(p->snap.want);
    free(p->made_own.on);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        pn_destroy(p->ph.net[i]);
    pn_destroy(p->goalnet);
    free(p->ph.net);
    free(p->ph.mask);
    free(p->ph.fact);
    free(p->ph.base);
    free(p->nw_at);
    free(p->nw);
    vec_free(p->init);
    rt_jit_free(p->jit);
    if (p->dl)
        dlclose(p->dl);
    free(p->order);
    for (uint32_t k = 0; p->roles && k < p->nroles; k++) {
        PnRoleTab *r = &p->roles[k];
        free(r->move);
        free(r->goal_comp);
        free(r->goal_value);
        free(r->input_of);
        free(r->legal_of);
    }
    free(p->roles);
    free(p);
}

static int cmp_u64(const void *a, const void *b);

typedef VEC(uint64_t) U64Vec;

/* Guards. A base feeding the gates of many legal moves (Breakthrough's
 * (true (control white)): every move of white's is an AND of it) costs a
 * visit of each of them whenever it flips, every turn, though the moves
 * it switches are read only when legal is asked. A legal move's gate that
 * nothing else reads (an AND with no outputs, not a goal, terminal or
 * next) loses its link from the base it shares with the most such gates
 * (at least two); the move's bit in legal_on then follows the rest of the
 * AND, its bit in legal_ok the base (a few words XORed when the base
 * flips), and legal reads both. Per component: its guard, BASE_NONE for
 * none. */
static uint32_t *choose_guards(const Propnet *pn)
{
    uint32_t n = pn->comps.n;
    uint32_t *guard_of = base_xmalloc((n + 1) * sizeof *guard_of);
    uint8_t *use = base_xcalloc(n + 1, 1); /* 1: a legal move's; 2: read otherwise */
    uint32_t *share = base_xcalloc(n + 1, sizeof *share);
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        const PnRole *r = &pn->roles.v[k];
        for (uint32_t i = 0; i < r->legal.n; i++)
            use[r->legal.v[i].comp] |= 1;
        for (uint32_t i = 0; i < r->goals.n; i++)
            use[r->goals.v[i].comp] |= 2;
    }
    if (pn->terminal < n)
        use[pn->terminal] |= 2;
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (pn->base.v[b].next != PN_NONE)
            use[pn->base.v[b].next] |= 2;
#define GUARDABLE(x, c) ((x)->kind == PN_AND && (x)->nout == 0 && use[c] == 1)
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        guard_of[c] = BASE_NONE;
        if (GUARDABLE(x, c))
            for (uint32_t j = 0; j < x->nin; j++) {
                uint32_t i = pn->in.v[x->in_at + j];
                share[i] += pn->comps.v[i].kind == PN_BASE;
            }
    }
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        if (!GUARDABLE(x, c))
            continue;
        uint32_t best = BASE_NONE;
        for (uint32_t j = 0; j < x->nin; j++) {
            uint32_t i = pn->in.v[x->in_at + j];
            if (pn->comps.v[i].kind == PN_BASE && share[i] >= 2 && (best == BASE_NONE || share[i] > share[best]))
                best = i;
        }
        guard_of[c] = best;
    }
#undef GUARDABLE
    free(use);
    free(share);
    return guard_of;
}

/* How many inputs of c are true, its guard's links left out. */
static uint32_t count_true(const Pn *p, const Propnet *pn, uint32_t c, uint32_t guard)
{
    const PnComp *x = &pn->comps.v[c];
    uint32_t k = 0;
    for (uint32_t j = 0; j < x->nin; j++) {
        uint32_t i = pn->in.v[x->in_at + j];
        k += i != guard && p->g[i].val;
    }
    return k;
}

/* The guards' masks (guarded: guard << 32 | legal bit), every guard false,
 * as every base is at first. */
static void guard_masks(Pn *p, U64Vec *guarded)
{
    if (guarded->n)
        qsort(guarded->v, guarded->n, sizeof *guarded->v, cmp_u64);
    p->guard_at = base_xcalloc(p->n + 2, sizeof *p->guard_at);
    p->guard_word = base_xmalloc((guarded->n + 1) * sizeof *p->guard_word);
    p->guard_mask = base_xmalloc((guarded->n + 1) * sizeof *p->guard_mask);
    uint32_t m = 0;
    for (uint32_t i = 0; i < guarded->n; i++) {
        uint32_t g = (uint32_t)(guarded->v[i] >> 32), b = (uint32_t)guarded->v[i];
        if (i == 0 || (uint32_t)(guarded->v[i - 1] >> 32) != g || p->guard_word[m - 1] != b >> 6) {
            p->guard_word[m] = b >> 6;
            p->guard_mask[m++] = 0;
            p->guard_at[g + 1]++;
            p->g[g].flags |= PN_F_GUARD;
        }
        p->guard_mask[m - 1] |= (uint64_t)1 << (b & 63);
        p->legal_ok[b >> 6] &= ~((uint64_t)1 << (b & 63));
    }
    for (uint32_t c = 0; c < p->n; c++)
        p->guard_at[c + 1] += p->guard_at[c];
}

/* The links of c from out[o .. end) to the components that are not gone,
 * a gone NOT's outputs in its place, inverted (neg: PN_E_NEG or 0). */
static void bypass_links(const Pn *p, const uint8_t *gone, uint32_t o, uint32_t end, uint32_t neg, U32Vec *out)
{
    for (; o < end; o++) {
        uint32_t e = p->out[o], d = e & PN_E_COMP;
        if (gone[d])
            bypass_links(p, gone, p->out_at[d], p->out_at[d + 1], neg ^ PN_E_NEG, out);
        else
            vec_push(*out, e ^ neg);
    }
}

/* Takes the plain NOTs out of the propagation: a NOT that nothing reads
 * (no bit follows it, no query asks it, not a leaf) is told of no change;
 * its input tells the NOT's outputs itself, over links marked PN_E_NEG
 * that move their counters against its change, as the NOT's would have
 * moved. A flip of a NOT cost a visit and a change told: a quarter of
 * Connect Four's changes, a third of Breakthrough's. The NOT's counter
 * and value are left as they are: nothing reads them. Only for a network
 * without cycles drained from its tables (compiled code keeps its own). */
static void bypass_nots(Pn *p)
{
    uint32_t n = p->n, gone_n = 0;
    uint8_t *gone = base_xcalloc(n + 1, 1);
    for (uint32_t c = 0; c < n; c++)
        if (p->g[c].inv && !(p->g[c].flags & (PN_F_LEAF | PN_F_SPEC | PN_F_CYCLIC))) { /* a bit sink is a PN_F_SINK */
            gone[c] = 1;
            gone_n++;
        }
    if (gone_n) {
        U32Vec out = {0};
        uint32_t *at = base_xcalloc(n + 2, sizeof *at);
        for (uint32_t c = 0; c < n; c++) {
            at[c] = out.n;
            if (!gone[c]) /* a gone NOT's links go with it: no one tells it */
                bypass_links(p, gone, p->out_at[c], p->out_at[c + 1], 0, &out);
        }
        at[n] = at[n + 1] = out.n;
        vec_push(out, 0);
        free(p->out);
        free(p->out_at);
        p->out = out.v;
        p->out_at = at;
    }
    free(gone);
}

/* Lays each component's links out for the drain. For the queue's
 * (pairs), its links to bit sinks first, each as two words (the link,
 * then the sink's bit), then its other links (from out_mid): a visit of a
 * bit sink no longer branches on the link's kind and reads its bit beside
 * the link rather than from bit_at (checkers' cell bases feed mostly
 * legal moves' sinks). For the ordered drain, which marks a bit sink as
 * any gate, flatten_'s links as they are (plain, out_mid = out_at: the
 * pairs' words cost hex and Reversi 5-10% there). */
static void lay_out(Pn *p, bool pairs)
{
    PnLinks *l = &p->pairs;
    if (!pairs) {
        free(l->at);
        free(l->mid);
        free(l->out);
        memset(l, 0, sizeof *l);
        p->out_at = p->out_mid = p->plain.at;
        p->out = p->plain.out;
        return;
    }
    if (!l->at) {
        uint32_t n = p->n, nout = p->plain.at[n], nbits = 0, k = 0;
        for (uint32_t o = 0; o < nout; o++)
            nbits += (p->plain.out[o] & PN_E_BIT) != 0;
        l->at = base_xcalloc(n + 2, sizeof *l->at);
        l->mid = base_xcalloc(n + 1, sizeof *l->mid);
        l->out = base_xmalloc(((size_t)nout + nbits + 1) * sizeof *l->out);
        for (uint32_t c = 0; c < n; c++) {
            uint32_t o0 = p->plain.at[c], end = p->plain.at[c + 1];
            l->at[c] = k;
            for (uint32_t o = o0; o < end; o++)
                if (p->plain.out[o] & PN_E_BIT) {
                    l->out[k++] = p->plain.out[o];
                    l->out[k++] = p->bit_at[p->plain.out[o] & PN_E_COMP];
                }
            l->mid[c] = k;
            for (uint32_t o = o0; o < end; o++)
                if (!(p->plain.out[o] & PN_E_BIT))
                    l->out[k++] = p->plain.out[o];
        }
        l->at[n] = l->at[n + 1] = l->mid[n] = k;
        l->out[k] = 0;
    }
    p->out_at = l->at;
    p->out_mid = l->mid;
    p->out = l->out;
}

/* The tables of an optimised network; every value computed for no fact
 * and no move. */
static void flatten_(Pn *p, const Propnet *pn)
{
    uint32_t n = p->n = pn->comps.n;
    uint32_t *guard_of = choose_guards(pn);
    p->g = base_xcalloc(n + 1, sizeof *p->g);
    p->out_at = base_xcalloc(n + 2, sizeof *p->out_at);
    p->out = base_xmalloc((pn->out.n + 1) * sizeof *p->out);
    p->cyc = base_xmalloc((n + 1) * sizeof *p->cyc);
    uint32_t *cnt = base_xcalloc(n + 1, sizeof *cnt), *thr = base_xcalloc(n + 1, sizeof *thr); /* per gate */
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        PnGate *g = &p->g[c];
        thr[c] = x->kind == PN_AND ? x->nin : 1;
        if (x->kind == PN_AND && guard_of[c] != BASE_NONE)
            for (uint32_t j = 0; j < x->nin; j++)
                thr[c] -= pn->in.v[x->in_at + j] == guard_of[c];
        g->inv = x->kind == PN_NOT;
        if (x->kind == PN_CONST || x->kind == PN_BASE || x->kind == PN_INPUT)
            g->flags = PN_F_LEAF | (x->kind == PN_CONST ? PN_F_CONST : 0);
        uint32_t k = p->out_at[c];
        for (uint32_t o = 0; o < x->nout; o++) {
            uint32_t d = pn->out.v[x->out_at + o];
            if (guard_of[d] != c)
                p->out[k++] = d;
        }
        p->out_at[c + 1] = k;
        p->cyc[c] = BASE_NONE;
        if (x->kind == PN_CONST)
            g->val = x->const_value;
    }
#ifdef PN_COUNT_VISITS
    p->told = base_xcalloc(n + 1, sizeof *p->told);
    p->name = base_xmalloc((n + 1) * sizeof *p->name);
    p->kind = base_xmalloc(n + 1);
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        p->kind[c] = x->kind;
        p->name[c] = x->name;
        for (uint32_t j = 0; p->name[c] == BASE_NONE && j < x->nin; j++)
            p->name[c] = pn->comps.v[pn->in.v[x->in_at + j]].name;
    }
#endif
    /* cyclic SCCs, numbered in topological order; the whole network
     * evaluated in that order, each cyclic one from false */
    U32Vec order = {0}, at = {0};
    uint32_t nsccs = pn_sccs(pn, &order, &at);
    U32Vec cat = {0}, ccomp = {0};
    for (uint32_t s = 0; s < nsccs; s++) {
        uint32_t first = at.v[s], end = at.v[s + 1];
        uint32_t c0 = order.v[first];
        bool cyclic = end - first > 1;
        for (uint32_t i = 0; !cyclic && i < pn->comps.v[c0].nin; i++)
            cyclic = pn->in.v[pn->comps.v[c0].in_at + i] == c0;
        if (cyclic) {
            vec_push(cat, ccomp.n);
            for (uint32_t i = first; i < end; i++) {
                p->cyc[order.v[i]] = cat.n - 1;
                p->g[order.v[i]].flags |= PN_F_CYCLIC;
                vec_push(ccomp, order.v[i]);
            }
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = first; i < end; i++) {
                uint32_t c = order.v[i];
                if (p->g[c].flags & PN_F_LEAF)
                    continue;
                cnt[c] = count_true(p, pn, c, guard_of[c]);
                uint8_t v = gate_value(&p->g[c], cnt[c], thr[c]);
                if (v != p->g[c].val) {
                    p->g[c].val = v;
                    changed = true;
                }
            }
        }
    }
    /* counts once every value is final (a cycle's first members counted
     * before its last rose) */
    for (uint32_t c = 0; c < n; c++)
        cnt[c] = count_true(p, pn, c, guard_of[c]);
    p->ctr = base_xcalloc(n + 1, sizeof *p->ctr);
    for (uint32_t c = 0; c < n; c++)
        p->ctr[c] = PN_CTR_TRUE - thr[c] + cnt[c]; /* a NOT's (thr 1): inverted */
    free(cnt);
    free(thr);
    for (uint32_t c = 0; c < n; c++)
        if (p->out_at[c + 1] == p->out_at[c])
            p->g[c].flags |= PN_F_SINK;
    p->ncyc = cat.n;
    vec_push(cat, ccomp.n);
    p->cyc_at = cat.v;
    p->cyc_comp = ccomp.v;
    p->dirty = base_xcalloc(p->ncyc + 1, 1);
    p->order = order.v;
    vec_free(at);

    /* bases, in the order of their facts' ids */
    p->nbase = pn->base.n;
    uint64_t *idx = base_xmalloc((p->nbase + 1) * sizeof *idx);
    for (uint32_t b = 0; b < p->nbase; b++)
        idx[b] = (uint64_t)pn->base.v[b].fact << 32 | b;
    qsort(idx, p->nbase, sizeof *idx, cmp_u64);
    p->base_comp = base_xmalloc((p->nbase + 1) * sizeof *p->base_comp);
    p->base_next = base_xmalloc((p->nbase + 1) * sizeof *p->base_next);
    p->base_fact = base_xmalloc((p->nbase + 1) * sizeof *p->base_fact);
    p->nbase_of = p->store->fn.n;
    p->base_of = base_xmalloc((p->nbase_of + 1) * sizeof *p->base_of);
    for (uint32_t t = 0; t < p->nbase_of; t++)
        p->base_of[t] = BASE_NONE;
    for (uint32_t i = 0; i < p->nbase; i++) {
        const PnBase *x = &pn->base.v[(uint32_t)idx[i]];
        p->base_comp[i] = x->comp;
        p->base_next[i] = x->next == PN_NONE ? BASE_NONE : x->next;
        p->base_fact[i] = x->fact;
        p->base_of[x->fact] = i;
        if (x->init)
            vec_push(p->init, x->fact);
        const PnGate *g = &p->g[x->comp];
        p->nconst_true += (g->flags & PN_F_CONST) && g->val;
    }
    free(idx);

    /* roles: legal moves and their watchers, goals, inputs */
    p->nroles = pn->roles.n;
    p->roles = base_xcalloc(p->nroles + 1, sizeof *p->roles);
    p->watch_at = base_xcalloc(n + 2, sizeof *p->watch_at);
    uint32_t nwatch = 0;
    for (uint32_t k = 0; k < p->nroles; k++)
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++) {
            p->watch_at[pn->roles.v[k].legal.v[i].comp + 1]++;
            nwatch++;
        }
    for (uint32_t c = 0; c < n; c++)
        p->watch_at[c + 1] += p->watch_at[c];
    p->watch = base_xmalloc((nwatch + 1) * sizeof *p->watch);
    uint32_t *fill = base_xcalloc(n + 1, sizeof *fill);
    uint32_t lw = 0;
    for (uint32_t k = 0; k < p->nroles; k++) {
        p->roles[k].lw0 = lw;
        lw += (pn->roles.v[k].legal.n + 63) >> 6;
    }
    p->legal_on = base_xcalloc(lw + 1 + ((p->nbase + 63) >> 6) + 1, sizeof *p->legal_on);
    p->nlegal_words = lw;
    p->legal_ok = base_xmalloc((lw + 1) * sizeof *p->legal_ok);
    memset(p->legal_ok, 0xff, (lw + 1) * sizeof *p->legal_ok);
    U64Vec guarded = {0}; /* guard << 32 | bit */
    for (uint32_t k = 0; k < p->nroles; k++) {
        const PnRole *pr = &pn->roles.v[k];
        PnRoleTab *r = &p->roles[k];
        r->nlegal = pr->legal.n;
        r->move = base_xmalloc((r->nlegal + 1) * sizeof *r->move);
        /* legal moves in canonical order, so that legal answers in it (the
         * API's order: EngineOps.sorted) */
        uint32_t *ord = base_xmalloc((r->nlegal + 1) * sizeof *ord);
        for (uint32_t i = 0; i < r->nlegal; i++)
            r->move[i] = pr->legal.v[i].move;
        gt_sort(p->store, r->move, r->nlegal);
        for (uint32_t i = 0; i < r->nlegal; i++) {
            /* the legal entry of each sorted move (moves are distinct) */
            uint32_t lo = 0, hi = r->nlegal;
            Gt mv = pr->legal.v[i].move;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (gt_cmp(p->store, r->move[mid], mv) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            ord[lo] = i;
        }
        r->ninput_of = p->store->fn.n;
        r->input_of = base_xmalloc((r->ninput_of + 1) * sizeof *r->input_of);
        r->legal_of = base_xmalloc((r->ninput_of + 1) * sizeof *r->legal_of);
        for (uint32_t t = 0; t < r->ninput_of; t++)
            r->input_of[t] = r->legal_of[t] = BASE_NONE;
        for (uint32_t i = 0; i < r->nlegal; i++)
            if (r->move[i] < r->ninput_of)
                r->legal_of[r->move[i]] = i;
        r->cur_input = BASE_NONE;
        for (uint32_t i = 0; i < r->nlegal; i++) {
            uint32_t c = pr->legal.v[ord[i]].comp, b = (r->lw0 << 6) + i;
            p->watch[p->watch_at[c] + fill[c]++] = b;
            p->g[c].flags |= PN_F_WATCHED;
            if (p->g[c].val)
                p->legal_on[b >> 6] |= (uint64_t)1 << (b & 63);
            if (guard_of[c] != BASE_NONE)
                vec_push(guarded, (uint64_t)guard_of[c] << 32 | b);
        }
        free(ord);
        r->ngoals = pr->goals.n;
        r->goal_comp = base_xmalloc((r->ngoals + 1) * sizeof *r->goal_comp);
        r->goal_value = base_xmalloc((r->ngoals + 1) * sizeof *r->goal_value);
        for (uint32_t g = 0; g < r->ngoals; g++) {
            /* the value term as written, in the machine's store: the API
             * reads it as ref's (and reports one that is no number) */
            r->goal_comp[g] = pr->goals.v[g].comp;
            r->goal_value[g] = pr->goals.v[g].term;
        }
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++) {
        const PnInput *x = &pn->inputs.v[i];
        if (x->role < p->nroles && x->move < p->roles[x->role].ninput_of)
            p->roles[x->role].input_of[x->move] = x->comp;
    }
    free(fill);
    guard_masks(p, &guarded);
    vec_free(guarded);
    free(guard_of);
    p->terminal = pn->terminal;

    /* next-state bits: per component, the bases whose next it is */
    p->nbase_words = (p->nbase + 63) >> 6;
    p->next_on = p->legal_on + p->nlegal_words + 1; /* one block (bit_at) */
    p->last_on = base_xcalloc(p->nbase_words + 1, sizeof *p->last_on);
    p->made = &p->made_own;
    p->given_on = base_xcalloc(p->nbase_words + 1, sizeof *p->given_on);
    p->made->on = base_xcalloc(p->nbase_words + 1, sizeof *p->made->on);
    p->nw_at = base_xcalloc(n + 2, sizeof *p->nw_at);
    p->nw = base_xmalloc((p->nbase + 1) * sizeof *p->nw);
    for (uint32_t b = 0; b < p->nbase; b++)
        if (p->base_next[b] != BASE_NONE)
            p->nw_at[p->base_next[b] + 1]++;
    for (uint32_t c = 0; c < n; c++)
        p->nw_at[c + 1] += p->nw_at[c];
    fill = base_xcalloc(n + 1, sizeof *fill);
    for (uint32_t b = 0; b < p->nbase; b++) {
        uint32_t c = p->base_next[b];
        if (c == BASE_NONE)
            continue;
        p->nw[p->nw_at[c] + fill[c]++] = b;
        p->g[c].flags |= PN_F_NEXT;
        if (p->g[c].val)
            p->next_on[b >> 6] |= (uint64_t)1 << (b & 63);
    }
    free(fill);

    /* the links, each with what a visit needs of its target */
    if (p->terminal < n) /* a goals network (split_goals) has none */
        p->g[p->terminal].flags |= PN_F_READ;
    for (uint32_t k = 0; k < p->nroles; k++)
        for (uint32_t i = 0; i < p->roles[k].ngoals; i++)
            p->g[p->roles[k].goal_comp[i]].flags |= PN_F_READ;
    /* bit sinks: gates without outputs whose value nothing reads but one
     * legal-move or next-state bit (most of a game's legal and next gates) */
    p->bit_at = base_xmalloc((n + 1) * sizeof *p->bit_at);
    for (uint32_t c = 0; c < n; c++) {
        uint8_t f = p->g[c].flags;
        uint32_t nwatch = p->watch_at[c + 1] - p->watch_at[c], nnext = p->nw_at[c + 1] - p->nw_at[c];
        p->bit_at[c] = BASE_NONE;
        if ((f & PN_F_SINK) && !(f & (PN_F_LEAF | PN_F_CYCLIC | PN_F_GUARD | PN_F_READ)) && nwatch + nnext == 1)
            p->bit_at[c] = nwatch ? p->watch[p->watch_at[c]] : ((p->nlegal_words + 1) << 6) + p->nw[p->nw_at[c]];
    }
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t o = p->out_at[c]; o < p->out_at[c + 1]; o++) {
            uint32_t d = p->out[o];
            p->out[o] = d | (p->g[d].inv ? PN_E_NOT : 0) | (p->g[d].flags & PN_F_CYCLIC ? PN_E_CYC : 0) |
                        (p->bit_at[d] != BASE_NONE ? PN_E_BIT : p->g[d].flags & PN_F_SPEC ? PN_E_SPEC : 0);
        }
    if (p->bypass && !p->ncyc)
        bypass_nots(p);
    p->plain = (PnLinks){p->out_at, NULL, p->out};
    lay_out(p, true);
}

/* A topological numbering that keeps the given one where it can (Kahn's,
 * the lowest-numbered ready component first): the identity when the
 * network's numbers are topological already, so the queue's drain sees
 * the same layout. NULL when the network has a cycle (a gate reading
 * itself among them): its members never become ready. */
static uint32_t *topo_order(const Propnet *pn)
{
    uint32_t n = pn->comps.n, m = 0, nheap = 0;
    uint32_t *left = base_xmalloc((n + 1) * sizeof *left), *heap = base_xmalloc((n + 1) * sizeof *heap);
    uint32_t *newid = base_xmalloc((n + 1) * sizeof *newid);
    for (uint32_t c = 0; c < n; c++)
        if (!(left[c] = pn->comps.v[c].nin))
            heap[nheap++] = c; /* in increasing order: a heap already */
    while (nheap) {
        uint32_t c = heap[0], last = heap[--nheap], i = 0;
        for (;;) { /* sift last down from the root */
            uint32_t k = 2 * i + 1;
            if (k >= nheap)
                break;
            if (k + 1 < nheap && heap[k + 1] < heap[k])
                k++;
            if (last <= heap[k])
                break;
            heap[i] = heap[k];
            i = k;
        }
        if (nheap)
            heap[i] = last;
        newid[c] = m++;
        const PnComp *x = &pn->comps.v[c];
        for (uint32_t o = 0; o < x->nout; o++) {
            uint32_t d = pn->out.v[x->out_at + o];
            if (--left[d] == 0) { /* sift d up */
                uint32_t j = nheap++;
                while (j && heap[(j - 1) / 2] > d) {
                    heap[j] = heap[(j - 1) / 2];
                    j = (j - 1) / 2;
                }
                heap[j] = d;
            }
        }
    }
    free(left);
    free(heap);
    if (m < n) {
        free(newid);
        return NULL;
    }
    return newid;
}

/* Flattens pn into p's tables; an acyclic network's components numbered
 * in topological order first (topo_order), so that a drain that tells
 * changes in the order of their numbers tells each gate once, its value
 * final (drain_ordered). */
static void flatten(Pn *p, const Propnet *pn)
{
    uint32_t *newid = topo_order(pn);
    if (!newid) { /* cycles: the queue drains it, in the grounder's numbers */
        flatten_(p, pn);
        return;
    }
    Propnet q;
    pn_copy(&q, pn);
    pn_permute(&q, newid);
    free(newid);
    flatten_(p, &q);
    pn_free(&q);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The generated code's calls back into the engine. */
static void host_queue(void *h, uint32_t c, uint32_t v) { queue_push(h, c, (uint8_t)v); }
static void host_dirty(void *h, uint32_t c)
{
    Pn *p = h;
    mark_dirty(p, p->cyc[c]);
}

enum {
    PN_DRAIN_CHOSEN,   /* by a sample of random play (choose_order) */
    PN_DRAIN_QUEUED,   /* "queued": the depth-first queue */
    PN_DRAIN_ORDERED,  /* "ordered": in topological order, when the network has no cycles */
};

/* The options after "pn:": the grounding budgets, and "compiled" (with
 * "max-lines=N", the generated code's budget), in any order. */
typedef struct PnArgs {
    GroundLimits lim;
    bool compiled;
    bool cc;           /* compiled by the system compiler (engine aot's plan), not libtcc */
    size_t max_lines;  /* 0: PNCG_DEFAULT_MAX_LINES */
    bool no_phases;    /* one network for every state (make_phases) */
    bool whole;        /* the goals in the network of play (split_goals) */
    bool condensed;    /* the condensed grounding however small (ground.h; the tests) */
    uint8_t drain;     /* PN_DRAIN_*: how changes are told (choose_order) */
} PnArgs;

static bool pn_args(const char *arg, PnArgs *a, char **why)
{
    memset(a, 0, sizeof *a);
    if (!arg)
        return true;
    StrBuf rest = {0};
    strbuf_add(&rest, "");
    const char *s = arg;
    bool ok = true;
    while (ok) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 8 && strncmp(s, "compiled", 8) == 0)
            a->compiled = true;
        else if (len == 2 && strncmp(s, "cc", 2) == 0)
            a->compiled = a->cc = true;
        else if (len == 9 && strncmp(s, "no-phases", 9) == 0)
            a->no_phases = true;
        else if (len == 5 && strncmp(s, "whole", 5) == 0)
            a->whole = true;
        else if (len == 9 && strncmp(s, "condensed", 9) == 0)
            a->condensed = true;
        else if (len == 7 && strncmp(s, "ordered", 7) == 0)
            a->drain = PN_DRAIN_ORDERED;
        else if (len == 6 && strncmp(s, "queued", 6) == 0)
            a->drain = PN_DRAIN_QUEUED;
        else if (len > 10 && strncmp(s, "max-lines=", 10) == 0) {
            char *end;
            unsigned long long v = strtoull(s + 10, &end, 10);
            ok = end == s + len && v > 0 && s[10] >= '0' && s[10] <= '9';
            a->max_lines = (size_t)v;
            if (!ok)
                *why = base_sprintf("max-lines takes a positive number: '%.*s'", (int)len, s);
        } else {
            if (rest.len)
                strbuf_add(&rest, ",");
            strbuf_addf(&rest, "%.*s", (int)len, s);
        }
        if (!e)
            break;
        s = e + 1;
    }
    if (ok && (rest.len || !*arg))
        ok = ground_limits_parse(rest.s, &a->lim, why);
    free(rest.s);
    return ok;
}

/* Phases. A base that guards many legal moves (Breakthrough's control:
 * every move of white's reads (true (control white))) flips every turn,
 * and with it the network's view of whose moves count: the frame rule
 * "a cell keeps its piece unless a move touches it" reads every move of
 * both roles. Made for the states where such bases take given values
 * (white in control: (control white) true, (control black) false), the
 * network loses what they decide: black's moves are never legal there, so
 * black's only input is its noop, and the frame rule reads white's few
 * moves that touch the cell (input complement). As Sancho's networks per
 * role in control, a network is made per phase: with one split base, one
 * where it holds and one where it does not; with several (one a role),
 * one per base, holding alone. Each is the general network, optimised
 * again with those bases constant, and exact for every state of its phase
 * (no pass that assumes the states reachable runs again: fixed bases are
 * the general network's); a state in no phase goes to the general
 * network. The phases share the state next answered last, so that the
 * one that answers a playout's next step compares bitsets, whichever
 * made it. */
enum { PN_PHASE_MIN = 8, PN_MAX_SPLIT = 8, PN_SAMPLE_STEPS = 400 };

/* Counts the tables' work (Pn.work) of p and its networks, or stops. */
static void set_counting(Pn *p, bool on)
{
    p->counting = on;
    if (p->goalnet)
        p->goalnet->counting = on;
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        p->ph.net[i]->counting = on;
}

/* The work (Pn.work) of random playouts from the initial state, up to
 * PN_SAMPLE_STEPS state changes in all: the same moves whichever networks
 * answer, since each answers exactly. */
static uint64_t sample_work(Pn *p)
{
    set_counting(p, true);
    uint64_t before = p->work + (p->goalnet ? p->goalnet->work : 0);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        before += p->ph.net[i]->work;
    U32Vec s = {0}, t = {0}, moves = {0};
    Gt *joint = base_xcalloc(p->nroles + 1, sizeof *joint);
    uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64 */
    bool stuck = false;
    for (uint32_t steps = 0; steps < PN_SAMPLE_STEPS && !stuck;) {
        s.n = 0;
        pn_initial(p, &s);
        uint32_t start = steps;
        for (bool terminal = false; steps < PN_SAMPLE_STEPS; steps++) {
            if (pn_terminal(p, s.v, s.n, &terminal) != GDL_OK) {
                stuck = true;
                break;
            }
            if (terminal) { /* a playout's end: its goals */
                moves.n = 0;
                pn_goals(p, s.v, s.n, &moves);
                break;
            }
            for (uint32_t k = 0; k < p->nroles && !stuck; k++) {
                moves.n = 0;
                stuck = pn_legal(p, s.v, s.n, k, &moves) != GDL_OK || !moves.n;
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (!stuck)
                    joint[k] = moves.v[x % moves.n];
            }
            t.n = 0;
            if (stuck || pn_next(p, s.v, s.n, joint, &t) != GDL_OK) {
                stuck = true;
                break;
            }
            U32Vec u = s;
            s = t;
            t = u;
        }
        stuck |= steps == start; /* the initial state is terminal: every playout would be this one */
    }
    vec_free(s);
    vec_free(t);
    vec_free(moves);
    free(joint);
    uint64_t after = p->work + (p->goalnet ? p->goalnet->work : 0);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        after += p->ph.net[i]->work;
    set_counting(p, false);
    return after - before;
}

/* When no base guards enough legal moves: bases that decide many legal
 * moves through gates between (checkers' (true (control red)): a jump's
 * gate reads it, the move's reads the jump's, and has_legal_move reads
 * the moves, so no move is guarded). Per base, the legal moves'
 * components within PN_REACH_DEPTH gates downstream (one may feed
 * another: a jump's gate, shared by the double jumps that start with
 * it), counted for the bases that reach at least an eighth of all legal
 * moves and half as many as the base reaching most. Bases are few beside
 * gates: a search each, bounded by the depth. */
enum { PN_REACH_DEPTH = 6 };

static void count_reach(const Propnet *pn, uint32_t *count)
{
    uint32_t n = pn->comps.n, nlegal = 0, most = 0;
    uint8_t *legal = base_xcalloc(n + 1, 1);
    for (uint32_t k = 0; k < pn->roles.n; k++)
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
            nlegal += !legal[pn->roles.v[k].legal.v[i].comp], legal[pn->roles.v[k].legal.v[i].comp] = 1;
    uint32_t *seen = base_xcalloc(n + 1, sizeof *seen), *reach = base_xcalloc(n + 1, sizeof *reach);
    uint32_t *stack = base_xmalloc((n + 1) * sizeof *stack);
    uint8_t *depth = base_xmalloc(n + 1);
    for (uint32_t b = 0; b < n; b++) {
        if (pn->comps.v[b].kind != PN_BASE)
            continue;
        uint32_t top = 0;
        stack[top] = b, depth[top++] = 0, seen[b] = b + 1;
        while (top) {
            top--;
            uint32_t c = stack[top], d = depth[top];
            if (legal[c])
                reach[b]++;
            if (d == PN_REACH_DEPTH)
                continue;
            const PnComp *x = &pn->comps.v[c];
            for (uint32_t o = 0; o < x->nout; o++) {
                uint32_t t = pn->out.v[x->out_at + o];
                if (seen[t] != b + 1)
                    seen[t] = b + 1, stack[top] = t, depth[top++] = (uint8_t)(d + 1);
            }
        }
        if (reach[b] > most)
            most = reach[b];
    }
    for (uint32_t b = 0; b < n; b++)
        if (reach[b] >= PN_PHASE_MIN && reach[b] * 8 >= nlegal && reach[b] * 2 >= most && reach[b] > count[b])
            count[b] = reach[b];
    free(legal);
    free(seen);
    free(reach);
    free(stack);
    free(depth);
}

static void make_phases(Pn *p, const Propnet *pn)
{
    uint32_t n = pn->comps.n;
    uint32_t *guard_of = choose_guards(pn), *count = base_xcalloc(n + 1, sizeof *count);
    bool guards = false;
    for (uint32_t c = 0; c < n; c++)
        if (guard_of[c] != BASE_NONE)
            guards |= ++count[guard_of[c]] >= PN_PHASE_MIN;
    if (!guards) /* else the bases split on may not exclude each other */
        count_reach(pn, count);
    PnPhases *ph = &p->ph;
    uint32_t split[PN_MAX_SPLIT];
    uint32_t *comp_of = base_xmalloc((p->nbase + 1) * sizeof *comp_of); /* pn's component of p's base b */
    for (uint32_t i = 0; i < pn->base.n; i++)
        comp_of[base_index(p, pn->base.v[i].fact)] = pn->base.v[i].comp;
    for (uint32_t b = 0; b < p->nbase; b++) /* in the order of their facts (p's are numbered apart) */
        if (count[comp_of[b]] >= PN_PHASE_MIN) {
            if (ph->nsplit == PN_MAX_SPLIT) {
                ph->nsplit = 0; /* too many to split on */
                break;
            }
            split[ph->nsplit++] = comp_of[b];
        }
    free(comp_of);
    free(guard_of);
    free(count);
    if (!ph->nsplit)
        return;
    ph->fact = base_xmalloc(ph->nsplit * sizeof *ph->fact);
    ph->base = base_xmalloc(ph->nsplit * sizeof *ph->base);
    for (uint32_t i = 0; i < ph->nsplit; i++) {
        ph->fact[i] = pn->base.v[pn->comps.v[split[i]].index].fact;
        ph->base[i] = base_index(p, ph->fact[i]);
    }
    ph->nphase = ph->nsplit == 1 ? 2 : ph->nsplit;
    ph->mask = base_xmalloc(ph->nphase * sizeof *ph->mask);
    ph->net = base_xcalloc(ph->nphase, sizeof *ph->net);
    bool same = true;
    for (uint32_t k = 0; k < ph->nphase; k++) {
        ph->mask[k] = ph->nsplit == 1 ? 1u - k : 1u << k;
        Propnet q;
        pn_copy(&q, pn);
        for (uint32_t i = 0; i < ph->nsplit; i++) {
            PnComp *x = &q.comps.v[split[i]];
            x->kind = PN_CONST;
            x->const_value = (uint8_t)(ph->mask[k] >> i & 1);
        }
        pn_optimise(&q, PN_OPT_ENGINE & ~PN_OPT_FIXED_BASE);
        Pn *sub = base_xcalloc(1, sizeof *sub);
        sub->store = p->store;
        sub->ctl = p->ctl;
        sub->bypass = p->bypass;
        flatten(sub, &q);
        pn_free(&q);
        free(sub->made_own.on);
        sub->made_own.on = NULL;
        sub->made = p->made; /* the same bases, numbered alike: optimising keeps every base */
        ph->net[k] = sub;
        same &= sub->nbase == p->nbase;
    }
    /* kept when they work less */
    uint32_t nphase = ph->nphase;
    ph->nphase = 0;
    uint64_t one = same ? sample_work(p) : 0;
    ph->nphase = nphase;
    uint64_t phased = same ? sample_work(p) : 0;
    if (same && phased * 5 < one * 4)
        return;
    for (uint32_t i = 0; i < ph->nphase; i++)
        pn_destroy(ph->net[i]);
    free(ph->net);
    free(ph->mask);
    free(ph->fact);
    free(ph->base);
    memset(ph, 0, sizeof *ph);
}

/* The goals' own network. GDL's goals read the state alone, and a
 * playout asks them once, at its end; but the gates that only goals read
 * are told of every change on the way (Reversi's disc counts: a chain of
 * running totals over the 64 cells, told each flip of a disc, most of the
 * network's work). When such gates are at least PN_GOAL_SPLIT of the
 * network's and PN_GOAL_SPLIT_MIN (goals_alone), the goals may get a
 * network of their own (split_goals: a copy optimised with no legal move,
 * next or terminal to keep, the goals' cone), brought up to the state
 * asked when goals are asked (a playout's last state: the bits that
 * differ from the state it held last, as any next step), and the network
 * of play loses them (optimised again without goals). It pays when
 * playouts are long; where they are short (a game of one move: the goal
 * network catches up with a whole playout each time) it costs, so
 * pn_make keeps it when a sample of random play works less, as phases. */
#define PN_GOAL_SPLIT 0.05
#define PN_GOAL_SPLIT_MIN 64

static bool goals_alone(const Propnet *pn)
{
    uint32_t n = pn->comps.n, alone = 0;
    uint8_t *mark = base_xcalloc(n + 1, 1); /* 1: play reads it, 2: goals do */
    uint32_t *stack = base_xmalloc((n + 1) * sizeof *stack);
    /* marked when pushed: a component is pushed at most once */
#define PUSH(c)                                                                \
    do {                                                                       \
        uint32_t c_ = (c);                                                     \
        if (!(mark[c_] & bit))                                                 \
            mark[c_] |= bit, stack[top++] = c_;                                \
    } while (0)
    for (uint8_t bit = 1; bit <= 2; bit <<= 1) {
        uint32_t top = 0;
        if (bit == 1) {
            for (uint32_t b = 0; b < pn->base.n; b++)
                if (pn->base.v[b].next != PN_NONE)
                    PUSH(pn->base.v[b].next);
            for (uint32_t k = 0; k < pn->roles.n; k++)
                for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
                    PUSH(pn->roles.v[k].legal.v[i].comp);
            if (pn->terminal != PN_NONE)
                PUSH(pn->terminal);
        } else
            for (uint32_t k = 0; k < pn->roles.n; k++)
                for (uint32_t i = 0; i < pn->roles.v[k].goals.n; i++)
                    PUSH(pn->roles.v[k].goals.v[i].comp);
        while (top) {
            const PnComp *x = &pn->comps.v[stack[--top]];
            for (uint32_t j = 0; j < x->nin; j++)
                PUSH(pn->in.v[x->in_at + j]);
        }
    }
#undef PUSH
    for (uint32_t c = 0; c < n; c++)
        alone += mark[c] == 2;
    free(mark);
    free(stack);
    return alone >= PN_GOAL_SPLIT_MIN && alone >= PN_GOAL_SPLIT * n;
}

/* Splits pn's goals off into goals. */
static void split_goals(Propnet *pn, Propnet *goals)
{
    pn_copy(goals, pn);
    for (uint32_t k = 0; k < goals->roles.n; k++)
        goals->roles.v[k].legal.n = 0;
    for (uint32_t b = 0; b < goals->base.n; b++)
        goals->base.v[b].next = PN_NONE;
    goals->terminal = PN_NONE;
    /* the bases stay as they are: not fixed again without their nexts */
    pn_optimise(goals, PN_OPT_ENGINE & ~PN_OPT_FIXED_BASE);
    for (uint32_t k = 0; k < pn->roles.n; k++)
        pn->roles.v[k].goals.n = 0;
    pn_optimise(pn, PN_OPT_ENGINE & ~PN_OPT_FIXED_BASE);
}

/* Sets the drain of p and its networks (set_ordered). */
static void set_ordered_all(Pn *p, bool on)
{
    set_ordered(p, on);
    if (p->goalnet)
        set_ordered(p->goalnet, on);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        set_ordered(p->ph.net[i], on);
}

/* Drains in topological order when a sample of random play works at
 * least 5% less so. A unit of work told that way once cost about 1.4
 * times one told from the queue, and the bar was a third less work; since
 * the queue's drain lost its branches, the two cost about the same
 * (pinned, alternating, 2 s cells, ordered against queued: hex, whose work
 * the order cuts by 8%, 1.09x; Amazons 10x10, 9%, 1.05-1.16x; checkers,
 * 8% more, 0.89x; Connect Four, 20% more, 0.86x; chess_200, 26% less,
 * 0.99x, the one game that still pays 1.35 per unit). */
static void choose_order(Pn *p, uint8_t drain)
{
    if (drain == PN_DRAIN_QUEUED)
        return;
    set_ordered_all(p, true);
    if (drain == PN_DRAIN_ORDERED || !rt_pn_ordered(p))
        return; /* forced, or no network it plays is without cycles: no sample */
    set_ordered_all(p, false);
    uint64_t queued = sample_work(p);
    set_ordered_all(p, true);
    uint64_t ordered = sample_work(p);
    if (!(ordered * 20 < queued * 19))
        set_ordered_all(p, false);
}

/* The tables of pn, a new engine. */
static Pn *pn_flat(const Propnet *pn, GtStore *store, RtControl *ctl, bool bypass)
{
    Pn *p = base_xcalloc(1, sizeof *p);
    p->store = store;
    p->ctl = ctl;
    p->bypass = bypass;
    flatten(p, pn);
    return p;
}

/* The network of game as tables (NULL with *err and ctl->create_status). */
static Pn *pn_make(const GdlGame *game, const PnArgs *a, GtStore *store, RtControl *ctl, char **err)
{
    /* ground, propnet, optimise (pipeline.h), in the machine's store: its
     * symbol table is a copy of the game's, id for id */
    Propnet pn;
    char *why = NULL;
    if (!cp_propnet(&game->front.ir, &a->lim, store, PN_OPT_ENGINE | (a->condensed ? PN_OPT_CONDENSE_ALWAYS : 0), &pn,
                    NULL, &why)) {
        ctl->create_status = GDL_LIMIT;
        bool budget = why && strncmp(why, "grounding stopped", 17) == 0;
        *err = base_sprintf("%s%s; engine jit plays it", budget ? "" : "engine pn: ", why ? why : "no network");
        free(why);
        pn_free(&pn);
        return NULL;
    }
    if (pn.comps.n >= PN_MAX_COMPS) {
        ctl->create_status = GDL_LIMIT;
        *err = base_sprintf("engine pn: %u components, more than it numbers; engine jit plays it", pn.comps.n);
        pn_free(&pn);
        return NULL;
    }
    Pn *p = pn_flat(&pn, store, ctl, !a->compiled);
    if (!a->whole && goals_alone(&pn)) {
        /* kept when a sample of random play works less */
        Propnet play, goals;
        pn_copy(&play, &pn);
        split_goals(&play, &goals);
        Pn *q = pn_flat(&play, store, ctl, !a->compiled), *g = q->goalnet = pn_flat(&goals, store, ctl, !a->compiled);
        pn_free(&goals);
        free(g->made_own.on);
        g->made_own.on = NULL;
        g->made = q->made; /* the same bases, numbered alike */
        uint64_t whole = sample_work(p), apart = sample_work(q);
        if (apart * 5 < whole * 4) {
            pn_destroy(p);
            p = q;
            pn_free(&pn);
            pn = play;
        } else {
            pn_destroy(q);
            pn_free(&play);
        }
    }
    if (!a->no_phases)
        make_phases(p, &pn);
    if (!a->compiled) /* compiled code keeps the queue */
        choose_order(p, a->drain);
    pn_free(&pn);
    return p;
}

/* The C of p's propagation (pncg.h), or NULL past the budget, or for a
 * network whose NOTs were bypassed (pncg knows no inverted links; the
 * callers make theirs with bypass off). */
static char *pn_code(const Pn *p, size_t max_lines, size_t *len, size_t *lines)
{
    if (p->bypass)
        return NULL;
    uint8_t *flags = base_xcalloc(p->n + 1, 1);
    for (uint32_t c = 0; c < p->n; c++)
        flags[c] = p->g[c].flags & PN_F_CYCLIC ? PNCG_F_CYCLIC : 0;
    uint32_t nout = p->plain.at[p->n];
    uint32_t *out = base_xmalloc((nout + 1) * sizeof *out); /* the links without PN_E_SPEC, PN_E_BIT */
    for (uint32_t o = 0; o < nout; o++)
        out[o] = p->plain.out[o] & ~(PN_E_SPEC | PN_E_BIT);
    PncgNet net = {
        .lb_at = p->watch_at,
        .lb = p->watch,
        .n = p->n,
        .out_at = p->plain.at,
        .out = out,
        .flags = flags,
        .nw_at = p->nw_at,
        .nw = p->nw,
        .order = p->order,
        .gate_size = (uint32_t)sizeof(PnGate),
        .val_offset = (uint32_t)offsetof(PnGate, val),
    };
    char *code = pncg_emit(&net, max_lines, len, lines);
    free(flags);
    free(out);
    return code;
}

/* Compiles q's propagation: by libtcc, or by the system compiler (cc),
 * when its code fits the budget (else q keeps the tables, as plain pn).
 * False with *err when the compiler fails. */
static bool compile_net(Pn *q, const GdlGame *game, const PnArgs *a, char **err)
{
    size_t len = 0, lines = 0;
    char *code = pn_code(q, a->max_lines, &len, &lines);
    if (!code)
        return true;
    if (a->cc) {
        q->dl = rt_cc_network(game, code, len, err);
        q->ctell = q->dl ? dlsym(q->dl, "pncg_tell") : NULL;
    } else {
        q->jit = rt_jit_compile(game->front.src->name, code, NULL, 0, err);
        q->ctell = q->jit ? rt_jit_symbol(q->jit, "pncg_tell") : NULL;
    }
    free(code);
    if (!q->ctell) {
        if (!*err)
            *err = base_xstrdup("engine pn: the compiled propagation has no table pncg_tell");
        return false;
    }
    q->cx = (PncgCtx){q->ctr, (uint8_t *)q->g, q->next_on, q->legal_on, q, host_queue, host_dirty};
    return true;
}

static void *pn_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    PnArgs a;
    char *why = NULL;
    if (!pn_args(arg, &a, &why)) {
        ctl->create_status = GDL_BAD_ARGUMENT;
        *err = base_sprintf("engine pn: %s", why ? why : "a bad budget");
        free(why);
        return NULL;
    }
    Pn *p = pn_make(game, &a, store, ctl, err);
    if (!p || !a.compiled)
        return p;
    /* pn:compiled: the propagation compiled, each phase's when it has
     * phases (the general network then answers the states of none, from
     * its tables) */
    bool ok = true;
    if (p->ph.nphase)
        for (uint32_t i = 0; ok && i < p->ph.nphase; i++)
            ok = compile_net(p->ph.net[i], game, &a, err);
    else
        ok = compile_net(p, game, &a, err);
    if (!ok) {
        pn_destroy(p);
        return NULL;
    }
    return p;
}

char *rt_pn_c(const GdlGame *game, const char *arg, size_t *len, char **err)
{
    PnArgs a;
    char *why = NULL;
    if (!pn_args(arg, &a, &why)) {
        *err = base_sprintf("engine pn: %s", why ? why : "a bad budget");
        free(why);
        return NULL;
    }
    Symtab syms;
    symtab_init(&syms);
    const Symtab *gs = &game->front.syms;
    for (uint32_t i = 0; i < gs->n; i++)
        symtab_intern(&syms, gs->str[i], gs->len[i]);
    GtStore store;
    gt_init(&store, &syms);
    RtControl ctl = {0};
    a.no_phases = true; /* the general network's code */
    a.compiled = true;  /* its NOTs kept (bypass_nots) */
    Pn *p = pn_make(game, &a, &store, &ctl, err);
    char *code = NULL;
    if (p) {
        size_t lines = 0;
        code = pn_code(p, a.max_lines, len, &lines);
        if (!code)
            *err = base_sprintf("the compiled propagation would take about %zu lines, more than the budget of %zu "
                                "(max-lines=N)",
                                lines, a.max_lines ? a.max_lines : (size_t)PNCG_DEFAULT_MAX_LINES);
        pn_destroy(p);
    }
    gt_free(&store);
    symtab_free(&syms);
    return code;
}

uint32_t rt_pn_phases(const void *e) { return ((const Pn *)e)->ph.nphase; }

bool rt_pn_goals_apart(const void *e) { return ((const Pn *)e)->goalnet != NULL; }

bool rt_pn_ordered(const void *e)
{
    const Pn *p = e;
    for (uint32_t i = 0; i < p->ph.nphase; i++) /* in phases, the phases' networks play */
        if (p->ph.net[i]->ordered)
            return true;
    return !p->ph.nphase && p->ordered;
}

void rt_pn_strict(void *e)
{
    Pn *p = e;
    p->strict = true;
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        p->ph.net[i]->strict = true;
    if (p->goalnet)
        p->goalnet->strict = true;
}

const EngineOps rt_engine_pn = {
    "pn", pn_create, pn_destroy, pn_initial, pn_legal, pn_next, pn_terminal, pn_goals, ENGINE_ARG_OPTIONAL, pn_terms,
    true, pn_next_checked, pn_bind_shares, pn_next_shared, NULL, NULL,
};
