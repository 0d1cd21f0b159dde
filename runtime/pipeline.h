/*
 * pipeline.h: the back half of the compiler as one list of passes
 * (pipeline.c), from a validated game to the C of its engine.
 */
#ifndef GDLC_PIPELINE_H
#define GDLC_PIPELINE_H

#include "../include/gdl.h"
#include "../middle/propnet.h"
#include <stdbool.h>
#include <stddef.h>

/* The last pass to run; its output is what rt_back returns. */
typedef enum RtBackStop {
    RT_BACK_PLAN, /* the code generator's plan, dumped (backend/plan.h) */
    RT_BACK_C,    /* the C of the engine */
} RtBackStop;

typedef struct RtBackOptions {
    RtBackStop stop;    /* the last pass */
    const char *c_name; /* names the C file in #line directives (NULL: "<game>.c") */
    bool no_lines;      /* leave the #line directives out */
} RtBackOptions;

/* Runs the back half on game: the text of the last pass (malloc-ed, *len
 * bytes, NUL-terminated), or NULL with *err (malloc-ed) naming the limit
 * that was exceeded. */
char *rt_back(const GdlGame *game, const RtBackOptions *o, size_t *len, char **err);
/* The C of a game: rt_back to RT_BACK_C. */
char *rt_emit(const GdlGame *game, const char *c_name, bool no_lines, size_t *len, char **err);

/* The propositional half, for engine pn, gdlc propnet and check's dumps:
 * ground (with the budgets lim; NULL: the defaults; skipped for a program
 * without variables, whose static relations pn_build evaluates itself),
 * build the network with names in store, optimise with opts (0: as built).
 * store's symbol table must be the program's or a copy of it, id for id.
 * gs (may be NULL) receives the grounder's counts, zero when nothing was
 * grounded. False with *err (malloc-ed) when grounding stops at a budget
 * (the grounder's message, naming the relation) or the build fails; *pn is
 * then empty. */
bool rt_propnet(const Ir *ir, const GroundLimits *lim, GtStore *store, unsigned opts, Propnet *pn, GroundStats *gs,
                char **err);

/* The C that engine `pn:compiled` compiles for game (backend/pncg.h):
 * arg is the engine's argument after "pn:" (budgets; "max-lines=N");
 * malloc-ed, *len bytes, or NULL with *err (malloc-ed) when the game does
 * not ground or the code would pass the line budget. */
char *rt_pn_c(const GdlGame *game, const char *arg, size_t *len, char **err);

#endif
