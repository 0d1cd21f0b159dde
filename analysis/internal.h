/*
 * internal.h: what the files of the analysis stage share (not for other
 * stages: they read analysis.h).
 *
 * an_analyse (analysis.c) runs the passes below in this order, each
 * appending to its lists in a (sorted and deduplicated at the end by
 * analysis.c): latches first (goal latches, dead states, partitions read
 * them), then the others.
 */
#ifndef GDLC_ANALYSIS_INTERNAL_H
#define GDLC_ANALYSIS_INTERNAL_H

#include "analysis.h"

/* The tools every pass may use, made once by an_analyse. */
typedef struct AnCtx {
    const Propnet *pn;
    const AnOptions *opt;
    AnDeduce *d1;      /* one turn, no move rules */
    AnDeduce *d2;      /* two turns, AN_MOVES_PLAYED */
    AnDeduce *d2b;     /* the same, AN_LAST_BASES: turn 1's bases only (latch.c) */
    AnEval *ev;
    uint32_t words;    /* an_state_words(pn) */
    /* per role: the components of its goals of the highest value (the
     * role's best), and of the lowest */
    VEC(U32Vec) best_goals, worst_goals;
    bool stopped;      /* an_stop said so: the pass under way ends early */
} AnCtx;

/* Whether the caller's flag or deadline (AnOptions) says stop, polled
 * within the long passes (per base, per sampled state, per round of a
 * shrinking set) as well as between them; once true it stays true, and
 * what the passes found is partial (Analysis.cancelled). */
bool an_stop(AnCtx *c);

/* latch.c */
void an_find_latches(AnCtx *c, Analysis *a);        /* single latches, by deduction over turns 0 and 1 */
void an_find_joint_latches(AnCtx *c, Analysis *a);  /* from the initial state and sampled states */
void an_find_inhibitors(AnCtx *c, Analysis *a);
/* goals.c */
void an_find_goal_latches(AnCtx *c, Analysis *a);
void an_find_dead(AnCtx *c, Analysis *a);
/* What the joint latch lits[0, n) proves of the goals, appended to out as
 * one record per role it bounds (joint: its index in its list). */
void an_joint_goals(AnCtx *c, const AnLit *lits, uint32_t n, uint32_t joint, AnJointGoalsVec *out);
void an_find_joint_goals(AnCtx *c, Analysis *a);
/* structure.c */
void an_find_control(AnCtx *c, Analysis *a);
void an_find_irrelevant(AnCtx *c, Analysis *a);
/* moves.c */
void an_find_partitions(AnCtx *c, Analysis *a);

/* The per-state queries' scratch (query.c makes and frees it). */
struct AnQuery {
    const Analysis *a;
    AnCtx ctx;          /* d1, d2, ev, goals as an_analyse makes them */
    uint64_t *state;    /* scratch states, ctx.words words each */
    uint64_t *next;
    U32Vec tmp, tmp2, tmp3, tmp4;
    U32Vec joint;
    /* joint latches an_joint_latch_at found that the game's list lacks
     * (at most AN_QUERY_MAX_JOINTS), and what they prove of the goals */
    AnJointVec found;
    AnJointGoalsVec found_goals;
    /* goal distance: per role, the most target facts one transition can
     * make right (0: not computed yet), and the scratch of its count */
    U32Vec kfix;        /* per role: k + 1 (0: not computed yet) */
    U32Vec need;        /* per (component, value), 2 * comp + value: need + 1 (0: unknown) */
    U32Vec need_stack;  /* the walk's stack */
    U32Vec need_touched; /* the entries of need set by the last count */
};

enum { AN_QUERY_MAX_JOINTS = 256 };

/* Makes and frees the context (used by an_analyse and an_query_new). */
void an_ctx_init(AnCtx *c, const Propnet *pn, const AnOptions *o);
void an_ctx_free(AnCtx *c);

#endif
