/*
 * pipeline.h: the back half of the compiler as one list of passes
 * (pipeline.c), from a validated game to what an engine loads: the C of
 * the goal-directed code, or the propositional network.
 */
#ifndef GDLC_COMPILE_PIPELINE_H
#define GDLC_COMPILE_PIPELINE_H

#include "../frontend/front.h"
#include "../include/gdl.h"
#include "../middle/propnet.h"
#include "fold.h"
#include <stdbool.h>
#include <stddef.h>

/* The last pass to run; its output is what cp_back returns. */
typedef enum CpBackStop {
    CP_BACK_PLAN, /* the code generator's plan, dumped (backend/plan.h) */
    CP_BACK_C,    /* the C of the engine */
    CP_BACK_FOLD, /* the fold pass's answers: per relation folded, its facts */
} CpBackStop;

typedef struct CpBackOptions {
    CpBackStop stop;    /* the last pass */
    const char *c_name; /* names the C file in #line directives (NULL: "<game>.c") */
    bool no_lines;      /* leave the #line directives out */
    CpRelationEval eval; /* the fold pass's evaluator (fold.h), with */
    const void *eval_ctx; /* its argument */
} CpBackOptions;

/* Runs the goal-directed back half on a validated program (front_run's,
 * stage FRONT_IR): the text of the last pass (malloc-ed, *len bytes,
 * NUL-terminated), or NULL with *err (malloc-ed) naming the limit that was
 * exceeded. The code generator recurses once per literal of a rule body:
 * the caller gives it a deep stack (runtime/pipeline.c's rt_back runs it on
 * a stack segment). */
char *cp_back(const Front *front, const CpBackOptions *o, size_t *len, char **err);

/* The propositional half, for engine pn, gdlc propnet and check's dumps:
 * ground (with the budgets lim; NULL: the defaults; skipped for a program
 * without variables, whose static relations pn_build evaluates itself),
 * build the network with names in store, optimise with opts (0: as built).
 * store's symbol table must be the program's or a copy of it, id for id.
 * gs (may be NULL) receives the grounder's counts, zero when nothing was
 * grounded. False with *err (malloc-ed) when grounding stops at a budget
 * (the grounder's message, naming the relation) or the build fails; *pn is
 * then empty. */
bool cp_propnet(const Ir *ir, const GroundLimits *lim, GtStore *store, unsigned opts, Propnet *pn, GroundStats *gs,
                char **err);

#endif
