/*
 * pipeline.h: the back half of the compiler as one list of passes
 * (pipeline.c), from a validated game to the C of its engine.
 */
#ifndef GDLC_PIPELINE_H
#define GDLC_PIPELINE_H

#include "../include/gdl.h"
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

#endif
