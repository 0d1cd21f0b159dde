/*
 * pn.h: what engine pn's files share: the network's tables (struct Pn) and
 * the calls between its evaluation (pn.c: propagation and the queries) and
 * its making (pn_make.c: flattening, guards, phases, goals apart, order).
 * pn.c's comment describes the engine.
 */
#ifndef GDLC_PN_H
#define GDLC_PN_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../backend/pncg.h"
#include "../middle/propnet.h"
#include "jit.h"
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

/* ---- between pn.c and pn_make.c ------------------------------------------ */

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

static inline uint32_t base_index(const Pn *p, Gt t) { return t < p->nbase_of ? p->base_of[t] : BASE_NONE; }

#ifdef PN_COUNT_VISITS
extern uint64_t pn_visits, pn_tells; /* the profiling build's totals (pn.c) */
#endif

/* pn.c: the engine's queries (EngineOps), for the engine's table and the
 * sampling of random play (pn_make.c's sample_work) */
EngineStatus rt_pn_initial(void *e, U32Vec *facts);
EngineStatus rt_pn_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves);
EngineStatus rt_pn_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts);
EngineStatus rt_pn_next_checked(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts);
EngineStatus rt_pn_terminal(void *e, const Gt *state, uint32_t n, bool *terminal);
EngineStatus rt_pn_goals(void *e, const Gt *state, uint32_t n, U32Vec *values);
void rt_pn_terms(void *e, U32Vec *out);
uint32_t rt_pn_made_facts(void *e, const Gt **facts, uint32_t *most);
EngineStatus rt_pn_next_facts(void *e, const Gt *state, uint32_t n, const Gt *joint, Gt *facts, uint32_t *nout);
/* pn.c: the host of the compiled propagation (PncgCtx's queue and dirty) */
void rt_pn_host_queue(void *h, uint32_t c, uint32_t v);
void rt_pn_host_dirty(void *h, uint32_t c);
/* pn.c: drains p in topological order, or by its queue */
void rt_pn_set_ordered(Pn *p, bool on);
/* pn_make.c: the output links laid out for the drain: in pairs, bit sinks
 * first (the queue's), or plain (the ordered drain's) */
void rt_pn_lay_out(Pn *p, bool pairs);
/* pn_make.c: making and freeing the engine */
void *rt_pn_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err);
void rt_pn_destroy(void *e);

#endif
