/*
 * fold.h: the fold pass (fold.c): the relations that depend on neither the
 * state nor the move, evaluated once by the reference interpreter before
 * code is generated, so that the code generator reads them as facts.
 */
#ifndef GDLC_FOLD_H
#define GDLC_FOLD_H

#include "runtime.h"

/* The answers of the folded relations. Filled in place (store points into
 * syms): not to be copied. */
typedef struct RtFold {
    Symtab syms;        /* the game's symbols, then any the answers need */
    GtStore store;      /* the terms of the answers */
    uint32_t nrels;     /* relations of the game */
    U32Vec *ans;        /* per relation: its answers as tuples of terms of store */
    const U32Vec **pre; /* per relation: &ans[rel] when folded, else NULL (CgOptions.pre) */
} RtFold;

/* Folds what fits the pass's budget (2^20 answers in all, half a second);
 * a relation over it is left to the generated code. */
void rt_fold(const GdlGame *game, RtFold *fold);
void rt_fold_free(RtFold *fold);

#endif
