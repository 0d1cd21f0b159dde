/*
 * pipeline.h: the compile stage's passes (compile/pipeline.h) as the
 * runtime runs them (pipeline.c): with the reference interpreter for the
 * fold pass and on a stack segment deep enough for the code generator.
 */
#ifndef GDLC_PIPELINE_H
#define GDLC_PIPELINE_H

#include "../compile/pipeline.h"
#include "../include/gdl.h"
#include <stdbool.h>
#include <stddef.h>

/* The last pass to run; its output is what rt_back returns. */
typedef enum RtBackStop {
    RT_BACK_PLAN = CP_BACK_PLAN, /* the code generator's plan, dumped (backend/plan.h) */
    RT_BACK_C = CP_BACK_C,       /* the C of the engine */
    RT_BACK_FOLD = CP_BACK_FOLD, /* the fold pass's answers */
} RtBackStop;

typedef struct RtBackOptions {
    RtBackStop stop;    /* the last pass */
    const char *c_name; /* names the C file in #line directives (NULL: "<game>.c") */
    bool no_lines;      /* leave the #line directives out */
} RtBackOptions;

/* Runs the back half (compile/pipeline.c's cp_back) on game: the text of
 * the last pass (malloc-ed, *len bytes, NUL-terminated), or NULL with *err
 * (malloc-ed) naming the limit that was exceeded. */
char *rt_back(const GdlGame *game, const RtBackOptions *o, size_t *len, char **err);
/* The C of a game: rt_back to RT_BACK_C. */
char *rt_emit(const GdlGame *game, const char *c_name, bool no_lines, size_t *len, char **err);
/* The fold pass alone (compile/fold.h), by the reference interpreter. */
void rt_fold(const GdlGame *game, CpFold *fold);

/* The C that engine `pn:compiled` compiles for game (backend/pncg.h):
 * arg is the engine's argument after "pn:" (budgets; "max-lines=N");
 * malloc-ed, *len bytes, or NULL with *err (malloc-ed) when the game does
 * not ground or the code would pass the line budget (pn.c). */
char *rt_pn_c(const GdlGame *game, const char *arg, size_t *len, char **err);

/* The C of engine board for game (runtime/board.c, backend/bg.c), with the
 * layout it finds; NULL with *err (malloc-ed) when the board declines it. */
char *rt_board_c(const GdlGame *game, size_t *len, char **err);

#endif
