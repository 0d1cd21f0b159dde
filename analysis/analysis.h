/*
 * analysis.h: game analyses over the propnet (issue 14).
 *
 * A library stage between middle/ (the network) and runtime/ (the API):
 * it includes base/, frontend/ and middle/ only. Everything here reads an
 * optimised Propnet (middle/propnet.h) and never changes it. Memory comes
 * from base_x* (running out jumps to the caller's BaseOom handler, as in
 * every stage); nothing here prints or exits.
 *
 * States. A state is a bitset over the network's base propositions:
 * bit i (i indexing pn->base) set when base[i].fact holds. A joint move is
 * one index into pn->inputs per role (PN_NONE: the role has none).
 *
 * ---- implication deduction over turns (deduce.c) ---------------------
 *
 * A timed component is (component, turn), turn 0 .. nturns-1. Within a
 * turn, values follow the gates; between turns, base b at turn t+1 has the
 * value of base[b].next at turn t (false when next is PN_NONE). A fixed
 * base (a PN_CONST with an index) and every constant keep their value at
 * every turn. Deduction keeps a value per timed component (unknown, false,
 * true) and, from the values set, derives every value the rules force,
 * upstream and downstream, with a work-list (a timed component is queued at
 * most once at a time and examined again only when a neighbour gains a
 * value; per-gate counts of true and false inputs make an examination
 * O(1) except when it finds the one unknown input):
 *   - a proposition, transition or NOT passes its input's value on (NOT
 *     inverted) and takes its output's back;
 *   - AND: an input false makes it false, all inputs true make it true; a
 *     true AND makes every input true; a false AND whose other inputs are
 *     all true makes the last one false. OR: the duals.
 *   - moves (AN_MOVES_PLAYED, for every turn t < nturns-1, i.e. a
 *     transition leaves turn t): terminal is false at t; a true (does r m)
 *     makes its (legal r m) true and every other input of r false; a false
 *     legal makes its does false; when every input of r but one is false,
 *     that one is true (a role plays exactly one legal move).
 * Every rule is a consequence of the network's equations, which the least
 * fixpoint of a cycle also satisfies: what is deduced holds in every state
 * and joint move consistent with what was set (sound, incomplete). Setting
 * a value that contradicts one known (given or deduced) makes the deduction
 * inconsistent: the assignment has no model, and every later call on it
 * returns false until an_deduce_reset.
 */
#ifndef GDLC_ANALYSIS_H
#define GDLC_ANALYSIS_H

#include "../middle/propnet.h"

/* ---- deduction -------------------------------------------------------- */

typedef struct AnDeduce AnDeduce;

enum {
    AN_MOVES_PLAYED = 1u << 0, /* the move rules above, for turns < nturns-1 */
    AN_LAST_BASES = 1u << 1,   /* at the last turn only the bases are deduced (below) */
};
/* AN_LAST_BASES. At the last turn nothing is played (no move rules), so a
 * gate there gains a value only from its inputs: nothing flows back from
 * the gates to the bases, and nothing can contradict. Values there are not
 * told to their outputs: the bases' values, and every contradiction, are
 * the same as without the flag, at the cost of the turns before it; the
 * last turn's gates stay unknown (latch.c reads bases only). */

/* A deduction over nturns >= 1 turns of pn (which must outlive it). */
AnDeduce *an_deduce_new(const Propnet *pn, uint32_t nturns, unsigned flags);
void an_deduce_free(AnDeduce *d);
/* Every value unknown again (constants known; with AN_MOVES_PLAYED the
 * terminal false at turns < nturns-1, deduced): costs what the last
 * deduction touched, not the network's size. */
void an_deduce_reset(AnDeduce *d);
/* A mark of what is known now, and every value gained since a mark
 * (of a consistent deduction) unknown again: the values are a closure,
 * the same whatever order the settings came in, so undoing to the mark
 * taken before the k-th of a sequence of settings leaves exactly what the
 * first k - 1 give, at the cost of what came after. */
uint32_t an_deduce_mark(const AnDeduce *d);
void an_deduce_undo_to(AnDeduce *d, uint32_t mark);
/* Sets comp at turn to value and deduces to a fixpoint. False when that
 * makes the deduction inconsistent (now or already). */
bool an_deduce_set(AnDeduce *d, uint32_t comp, uint32_t turn, bool value);
/* Sets every base of state (all of them: a bit clear is false) at turn. */
bool an_deduce_set_state(AnDeduce *d, const uint64_t *state, uint32_t turn);
/* -1 unknown, 0 false, 1 true. */
int an_deduce_get(const AnDeduce *d, uint32_t comp, uint32_t turn);
/* The value of base[b] at turn (at turn > 0 that of its next at turn-1). */
int an_deduce_base(const AnDeduce *d, uint32_t b, uint32_t turn);
bool an_deduce_consistent(const AnDeduce *d);
/* The timed components with a value, in the order they gained it (the
 * given ones included): pairs (comp, turn) in out, values in val. */
typedef VEC(uint8_t) AnBytes;
void an_deduce_known(const AnDeduce *d, U32Vec *comps, U32Vec *turns, AnBytes *val);

/* ---- evaluation (eval.c) ---------------------------------------------- */

/* Exact values of one state and joint move: every gate in topological
 * order (pn_sccs), cyclic components as their least fixpoint. Simple and
 * separate from engine pn; used for sampling states, confirming winning
 * moves and the --check of the analyses. */
typedef struct AnEval AnEval;
AnEval *an_eval_new(const Propnet *pn);
void an_eval_free(AnEval *e);
/* Evaluates with the state's bases and the joint move (NULL: no input
 * true); then the readers below answer for it. */
void an_eval(AnEval *e, const uint64_t *state, const uint32_t *joint);
/* The same after an_eval of the same state (any joint move): only what
 * depends on an input is evaluated again, with this joint move. */
void an_eval_moves(AnEval *e, const uint64_t *state, const uint32_t *joint);
bool an_eval_value(const AnEval *e, uint32_t comp);
/* The next state (words of an_state_words(pn)). */
void an_eval_next(const AnEval *e, uint64_t *next);
bool an_eval_terminal(const AnEval *e);
/* A role's legal input indexes (pn->inputs) in pn->roles[r].legal order. */
void an_eval_legal(const AnEval *e, uint32_t role, U32Vec *inputs);
/* A role's goal value: the value of its one true goal, -1 when none is
 * true, -2 when several with different values are. */
int an_eval_goal(const AnEval *e, uint32_t role);

static inline uint32_t an_state_words(const Propnet *pn) { return (pn->base.n + 63) / 64; }
static inline bool an_bit(const uint64_t *s, uint32_t i) { return s[i >> 6] >> (i & 63) & 1; }
/* Whether the base is a fixed one (its component a constant). */
static inline bool an_base_fixed(const Propnet *pn, uint32_t b)
{
    return pn->comps.v[pn->base.v[b].comp].kind == PN_CONST;
}
/* The initial state (base.init). */
void an_initial(const Propnet *pn, uint64_t *state);

/* ---- the analyses (analysis.c runs them; latch.c, goals.c, structure.c, moves.c) ----------- */

/* A base proposition with a value: base index and value. */
typedef struct AnLit {
    uint32_t base;
    bool value;
} AnLit;

typedef VEC(AnLit) AnLitVec;

/* A joint latch: when every literal holds, they all hold in the next state. */
typedef struct AnJoint {
    AnLitVec lits; /* sorted by base */
} AnJoint;
typedef VEC(AnJoint) AnJointVec;

typedef enum AnEffect { AN_FIXES, AN_EXCLUDES } AnEffect;

/* When lit holds (it is a latch: from then on), role's goal value `goal`
 * is fixed (its (goal role goal) true) or excluded (false). */
typedef struct AnGoalLatch {
    uint32_t role;
    int goal;       /* 0..100 */
    AnLit lit;
    AnEffect effect;
} AnGoalLatch;

/* What a joint latch proves of one role's goal: from any state where all
 * its literals hold, every goal value the role can end the game with is
 * `fixed` (when >= 0) and none whose bit is set in `excluded` (bit v of
 * word v / 64, v in 0..100). Found as goal latches are (goals.c), with the
 * joint latch's literals set together. */
typedef struct AnJointGoals {
    uint32_t joint;       /* its joint latch: an index into its list of joint latches */
    uint32_t role;
    int fixed;            /* -1: none */
    uint64_t excluded[2];
} AnJointGoals;
typedef VEC(AnJointGoals) AnJointGoalsVec;

/* p true forces q false in the next state (both base indexes). */
typedef struct AnInhibitor {
    uint32_t p, q;
} AnInhibitor;

/* Every state where lit holds is dead for role: lit is a latch that forces
 * every goal of the role's highest value false. */
typedef struct AnDead {
    uint32_t role;
    AnLit lit;
} AnDead;

/* Moves of role grouped by the negatively latched base each switches off;
 * every best-goal state has every such base false, and every input of the
 * role that can be legal is in exactly one group. */
typedef struct AnPartition {
    uint32_t role;
    U32Vec group_base; /* per group: the base it switches off */
    U32Vec group_at;   /* per group g: inputs[group_at[g] .. group_at[g+1]) (ngroups + 1 entries) */
    U32Vec inputs;     /* input indexes (pn->inputs) */
} AnPartition;

/* States sampled for joint latches when the caller says nothing: each costs
 * a few deductions over the whole network (about 0.1 s on checkers). */
#define AN_DEFAULT_SAMPLES 16
/* States taken from one playthrough (evaluating a playthrough costs more
 * than deducing from a few of its states). */
#define AN_STATES_PER_PLAYTHROUGH 8

typedef struct AnOptions {
    uint32_t samples;   /* states sampled along random playthroughs for joint latches (0: initial only) */
    uint64_t seed;      /* of those playthroughs (SplitMix64) */
    uint32_t max_depth; /* a playthrough stops after this many steps (0: 1000) */
    const volatile int *cancel; /* non-zero: the analyses stop, within a pass or between two (NULL: none) */
    double deadline;    /* CLOCK_MONOTONIC seconds: the same (0: none) */
} AnOptions;

/* The game-level results. Every list is sorted (by base, then value; by
 * role first where there is one) and free of duplicates. */
typedef struct Analysis {
    const Propnet *pn;
    AnLitVec latches;           /* single latches (fixed bases left out) */
    AnJointVec joints;          /* joint latches */
    uint32_t joint_states;      /* states the joint latches were sought from */
    VEC(AnGoalLatch) goal_latches;
    AnJointGoalsVec joint_goals; /* what each joint latch proves of the goals (by joint, then role; only
                                    the pairs where it proves something) */
    VEC(AnInhibitor) inhibitors;
    VEC(AnDead) dead;
    U32Vec control;             /* bases independent of every move choice */
    /* irrelevant[r * nroles + s]: the moves of role s cannot affect role r's
     * goals (s != r) */
    VEC(uint8_t) irrelevant;
    VEC(AnPartition) partitions;
    /* per role: its highest and lowest goal value over the network (-1: no goal) */
    VEC(int) best, worst;
    double seconds;             /* time the analysis took */
    bool cancelled;             /* AnOptions' flag or deadline stopped it: the lists are partial */
} Analysis;

/* Runs every game-level analysis. */
void an_analyse(const Propnet *pn, const AnOptions *o, Analysis *a);
void an_free(Analysis *a);

/* ---- per-state queries (query.c) ----------------------------------- */

/* The scratch of the queries below: one per thread, reused across calls so
 * that a query allocates nothing once warm. */
typedef struct AnQuery AnQuery;
AnQuery *an_query_new(const Analysis *a);
void an_query_free(AnQuery *q);

/* The range [*lo, *hi] of role's achievable goal values from state: from
 * the goal latches that hold in it, and what every joint latch whose
 * literals all hold in it proves of the goals (the game's, and those
 * an_joint_latch_at found from any state with this query: a joint latch
 * found from one state holds in every state that has its literals), and
 * the goal itself in a terminal state. Every value the role can end with
 * from the state is in it. */
void an_goal_range(AnQuery *q, const uint64_t *state, uint32_t role, int *lo, int *hi);
/* The role's legal moves (input indexes) in state that win at once (every
 * joint move containing it leads to a terminal state where the role gets
 * the highest goal value it can end with from the state: the top of its
 * goal range there, its highest over the game unless latches bound it) or
 * lose at once (the bottom of the range), each proven: a
 * deduction (terminal false at turn 1) rules out the moves that do not force
 * the end, and evaluation confirms the others over every joint move (at
 * most max_joint of them per move; a move with more is not reported). */
void an_winning_moves(AnQuery *q, const uint64_t *state, uint32_t role, uint64_t max_joint, U32Vec *win,
                      U32Vec *lose);
/* A lower bound on the turns before one of role's highest goals can hold,
 * from state: 0 when one holds; -1 when none can ever (the known bases
 * repeat while the goal stays forced false); at most max_turns (the bound
 * returned when deduction still forces the goal false after max_turns).
 * The larger of two bounds: the turns deduction keeps the goal forced
 * false, and the facts the goal needs that the state has wrong, over the
 * most of them one transition can make right (see moves.c). */
int an_goal_distance(AnQuery *q, const uint64_t *state, uint32_t role, uint32_t max_turns);
/* The joint latch through state (the search an_analyse runs from each
 * sampled state: every base with its value in state, shrunk to a closed
 * set, single latches left out when the rest is closed alone): its
 * literals, sorted by base, in out (emptied first); false when there is
 * none. A latch the game's list lacks is remembered by the query, with
 * what it proves of the goals, for the goal ranges it answers later. */
bool an_joint_latch_at(AnQuery *q, const uint64_t *state, AnLitVec *out);
/* The inputs of role's most constrained partition group in state: the
 * group, among those whose base holds, with the fewest legal moves (at
 * least one). False when the role has no partition or no group applies. */
bool an_partition_moves(AnQuery *q, const uint64_t *state, uint32_t role, U32Vec *inputs);

/* ---- pictures (dot.c) ------------------------------------------------- */

/* The network as Graphviz DOT, coloured by what the analysis knows: latched
 * bases (positive, negative), control, dead; with state != NULL also every
 * component's value deduced from the state at turn 0 (forced true / false).
 * focus and depth as pn_dot (PN_NONE: the whole network). */
void an_dot(FILE *f, const Analysis *a, const uint64_t *state, uint32_t focus, uint32_t depth);

/* ---- symmetries (symmetry.c) ------------------------------------------ */

/* The symmetries of the game as automorphisms of a coloured digraph of the
 * network (kinds, transitions, terminal, goals per role and value, legal/
 * does pairs per role; init not fixed), found with nauty: permutations of
 * the bases and of the inputs (each input to one of the same role) that
 * map every evaluation onto the evaluation of the images. The group they
 * generate is listed whole, element 0 the identity. Past cap elements,
 * nauty runs again with every input fixed (moves_fixed: the symmetries
 * that fix every move); past cap again (or when nauty cannot run) it is
 * the identity alone, with why set. */
typedef struct AnSymmetries {
    uint32_t n;              /* elements */
    uint32_t nbase, ninput;
    uint32_t *base;          /* base[k * nbase + b]: the image of base b under element k */
    uint32_t *input;         /* input[k * ninput + i]: the image of input i */
    bool capped;             /* the group had more than cap elements */
    bool moves_fixed;        /* it had with moves moving: these fix every move */
    char *why;               /* why the group is the identity alone (malloc-ed), or NULL */
    uint32_t generators;     /* nauty's, that move a base or an input */
    double nauty_order;      /* the order nauty gives (of the whole graph's group) */
    uint32_t vertices, edges;
    double seconds, nauty_seconds;
} AnSymmetries;

void an_symmetries(const Propnet *pn, uint32_t cap, AnSymmetries *s);
void an_symmetries_free(AnSymmetries *s);

#endif
