/*
 * claim_check.h: the analyses' claims and per-state answers held against
 * brute force over a game's state graph (gdlc analyze --check); see
 * claim_check.c for how each kind of claim is checked. Over include/gdl.h
 * only.
 */
#ifndef GDLC_RUNTIME_CLAIM_CHECK_H
#define GDLC_RUNTIME_CLAIM_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/base.h"
#include "../include/gdl.h"

typedef struct ClaimCheckOpts {
    uint64_t max_states; /* enumerate every reachable state when there are at most this many, else sample */
    uint64_t seed;       /* of the sampled playthroughs */
    const char *who;     /* the prefix of the messages written to report ("gdlc analyze") */
} ClaimCheckOpts;

typedef struct ClaimCheckResult {
    uint64_t unsound;    /* claims and answers refuted */
    uint64_t shown;      /* of them, the first ones written to report (at most 10) */
} ClaimCheckResult;

/* Checks every claim of an (made on m, a machine of game) and its per-state
 * answers on the reachable states. Writes the summary, "check: ..." lines,
 * to out, and each refutation shown (the claim, the state, the joint move
 * and the next state) to report. Returns false, after a message on report,
 * when the check could not run (no initial state, no jit machine in place
 * of a pn one); otherwise true with *res. */
bool claim_check(GdlMachine *m, const GdlGame *game, GdlAnalysis *an, const ClaimCheckOpts *o, FILE *out,
                 FILE *report, ClaimCheckResult *res);

/* The answers of the per-state queries for one role in one state. */
typedef struct ClaimAnswer {
    int lo, hi;             /* goal range */
    VEC(GdlMove) win, lose; /* winning and losing moves */
    int distance;           /* goal distance; -1: never */
    GdlStatus st;           /* the first failure, or GDL_OK */
} ClaimAnswer;

/* Asks an for role r's goal range, winning and losing moves and goal
 * distance in s; free with claim_answer_free. */
void claim_answer(GdlAnalysis *an, const GdlState *s, unsigned r, ClaimAnswer *x);
void claim_answer_free(ClaimAnswer *x);

/* One claim as text, as gdlc analyze prints it ("(cell 1 1 x) stays true"). */
void claim_print(FILE *f, GdlMachine *m, const GdlGame *g, const GdlClaim *c);
/* A state's facts in canonical order, separated by spaces, or "(no facts)". */
void claim_print_state(FILE *f, GdlMachine *m, const GdlState *s);

#endif
