/*
 * check.h: the proof checker (check.c), independent of the solver: it
 * replays a proof of docs/proofs.md with a machine of the public API.
 */
#ifndef GDLC_SOLVE_CHECK_H
#define GDLC_SOLVE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/gdl.h"

/* The outcome of a check. */
typedef struct ProofCheck {
    int lo, hi;     /* the first role's interval the proof shows (when it holds) */
    uint64_t nodes; /* nodes checked, all sections */
    bool from_initial; /* the proof's start is the game's initial state (else the value is of another state) */
    char *error;    /* the first failure, "FILE:LINE: error: [node ID: ]what" (malloc'd; NULL when it holds) */
} ProofCheck;

/*
 * Checks the proof text[0, len) (no NUL needed), named file in messages,
 * by replaying it with machine m of game g (one or two roles). True when
 * it holds, with out's value and count; false with out->error. Never
 * exits on bad input; memory runs out through base's handler.
 */
bool proof_check(const GdlGame *g, GdlMachine *m, const char *file, const char *text, size_t len, ProofCheck *out);
void proof_check_free(ProofCheck *pc);

#endif
