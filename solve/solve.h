/*
 * solve.h: the solver stage. It proves the value of a game from a state,
 * for puzzles (one role) and for two-player games that take turns and whose
 * goals sum to a constant, and writes the proof in the format of
 * docs/proofs.md. It sits above the public API: it reads the game through
 * include/gdl.h only (a machine, its analysis and the analysis's
 * symmetries), so the same code serves `gdlc solve` and a player.
 *
 * Values are intervals of the first role's score: [lo, hi] means the first
 * role can force at least lo, and the other side (the second role in a
 * two-player game; nobody in a puzzle) can hold it to at most hi. In a
 * two-player game the second role's interval follows from the constant sum
 * C: [C - hi, C - lo]. A node's interval is always the strongest its known
 * children prove (terminal states: their goal; an unexpanded move: the
 * a-priori bounds, the analysis's goal range when analyses are on).
 */
#ifndef GDLC_SOLVE_H
#define GDLC_SOLVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../include/gdl.h"

/* What a solve may use and how long it may run. */
typedef struct SolveOptions {
    double seconds;             /* wall-clock bound; 0: none */
    uint64_t memory_mb;         /* bound on the graph's memory; 0: none */
    uint64_t max_nodes;         /* bound on expansions; 0: none (tests) */
    bool transpositions;        /* merge equal states (default true) */
    bool symmetries;            /* merge states equal under a symmetry (default true) */
    bool analyses;              /* goal ranges, dead states, winning moves (default true) */
    const volatile sig_atomic_t *stop; /* set by SIGINT: stop and report (NULL: none) */
    FILE *progress;             /* a progress line every progress_every s (NULL: none) */
    double progress_every;      /* default 2 s */
    const char *analysis_options; /* for gdl_analysis_new (NULL: default) */
} SolveOptions;

void solve_options_default(SolveOptions *o);

/* Why a game is out of scope, or OK. */
typedef enum SolveScope {
    SOLVE_SCOPE_OK = 0,
    SOLVE_SCOPE_ROLES,        /* more than two roles */
    SOLVE_SCOPE_SIMULTANEOUS, /* a state where two roles have a choice */
    SOLVE_SCOPE_SUM,          /* two terminal states whose goals sum differently */
} SolveScope;

/* The outcome of a solve. */
typedef struct SolveResult {
    unsigned roles;          /* 1 or 2 */
    int lo, hi;              /* the first role's proven interval */
    bool exact;              /* lo == hi */
    int sum;                 /* two roles: the constant sum C (-1 while no terminal was seen) */
    bool has_best;           /* a best move is known (the role with a choice has one proven) */
    unsigned best_role;      /* the role with a choice in the start state */
    char *best_move;         /* its move's text (malloc'd; NULL when none) */
    uint64_t nodes;          /* expansions (moves expanded into a child) */
    uint64_t states;         /* distinct states in the graph */
    uint64_t transpositions; /* child states found already in the graph */
    uint64_t symmetric;      /* child states found in the graph under a non-identity symmetry */
    unsigned symmetry_count; /* symmetries used (1: the identity only) */
    uint64_t proof_nodes;    /* nodes written to the proof (0 when none was asked) */
    size_t plan_len;         /* puzzles: moves of the plan (the first path seen to lo) */
    char **plan;             /* puzzles: its moves' text (malloc'd) */
    double seconds;
    uint64_t peak_bytes;     /* the solver's own memory at its peak */
    bool stopped;            /* a bound or the stop flag ended the search */
    const char *stop_reason; /* "time", "memory", "nodes", "interrupt" or NULL */
    SolveScope scope;        /* not OK: out of scope (the status is GDL_BAD_ARGUMENT) */
    char *scope_message;     /* why, naming the state or role (malloc'd) */
} SolveResult;

void solve_result_free(SolveResult *r);

/*
 * Solves from start (NULL: the initial state) with machine m, whose game is
 * g. When proof is not NULL, writes the proof of the interval found to it
 * (docs/proofs.md); when save is not NULL, writes the graph there at the end
 * (solve_save's format); when resume is not NULL, starts from a graph read
 * from it. GDL_OK with r filled, exact or not (r->stopped says why it ended
 * early); GDL_BAD_ARGUMENT with r->scope set when the game is out of scope;
 * another status, with *err a message to free(), when the machine fails,
 * memory runs out or a file is damaged.
 */
GdlStatus solve_run(const GdlGame *g, GdlMachine *m, const GdlState *start, const SolveOptions *o, FILE *proof,
                    const char *save, const char *resume, SolveResult *r, char **err);

/* The one-role search (A* over the state graph), called by solve_run for
 * puzzles; same contract. */
GdlStatus solve_puzzle(const GdlGame *g, GdlMachine *m, GdlAnalysis *an, const GdlState *start,
                       const SolveOptions *o, FILE *proof, SolveResult *r, char **err);

#endif
