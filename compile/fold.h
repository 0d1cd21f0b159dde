/*
 * fold.h: the fold pass (fold.c): the relations that depend on neither the
 * state nor the move, evaluated once before code is generated, so that the
 * code generator reads them as facts.
 */
#ifndef GDLC_FOLD_H
#define GDLC_FOLD_H

#include "../base/terms.h"
#include "../frontend/front.h"
#include "../include/gdl.h"

/* An evaluator of static relations: every answer of relation rel (which
 * depends on neither `true` nor `does`) appended to out as tuples of its
 * arity in store (a proposition, arity 0, appends one 0 when true);
 * GDL_LIMIT past max tuples or past the steps left in *steps (each step
 * it takes is taken from it), GDL_CANCELLED past deadline (gdl_now's
 * clock). The engines' reference interpreter is one (runtime/ref.c's
 * rt_ref_relation_counted, handed in by the runtime: see fold.c). */
typedef GdlStatus (*CpRelationEval)(const void *ctx, GtStore *store, uint32_t rel, uint32_t max, uint64_t *steps,
                                    double deadline, U32Vec *out);

/* The answers of the folded relations. Filled in place (store points into
 * syms): not to be copied. */
typedef struct CpFold {
    Symtab syms;        /* the game's symbols, then any the answers need */
    GtStore store;      /* the terms of the answers */
    uint32_t nrels;     /* relations of the game */
    U32Vec *ans;        /* per relation: its answers as tuples of terms of store */
    const U32Vec **pre; /* per relation: &ans[rel] when folded, else NULL (CgOptions.pre) */
} CpFold;

/* Folds what fits the pass's budget (2^20 answers and CP_FOLD_STEPS steps
 * of the evaluator in all: counts, so that the C generated from a game is
 * the same on every machine and under any load; CP_FOLD_SECONDS only
 * guards against a machine many times slower than ours),
 * each relation evaluated by eval(ctx, ...); a relation over it is left to
 * the generated code. */
void cp_fold(const Front *front, CpRelationEval eval, const void *ctx, CpFold *fold);
void cp_fold_free(CpFold *fold);

#endif
