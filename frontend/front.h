/*
 * front.h: the whole front end as one call.
 *
 * front_run passes a game text through every stage in order (read, build the
 * AST, validate, lower to the IR and check the graph), stopping after the
 * first stage that reports errors: a later stage never sees a program an
 * earlier one rejected. Everything lives in one Front and is freed by
 * front_free.
 */
#ifndef GDLC_FRONT_H
#define GDLC_FRONT_H

#include "ir.h"

typedef enum FrontStage {
    FRONT_NONE,     /* nothing done yet */
    FRONT_READ,     /* s-expressions read */
    FRONT_AST,      /* AST built */
    FRONT_VALID,    /* AST validated */
    FRONT_IR,       /* IR lowered and checked: the game is accepted */
} FrontStage;

typedef struct Front {
    Source *src;
    Symtab syms;
    KifDoc doc;
    Ast ast;
    Ir ir;
    DiagList diags;
    FrontStage stage; /* the last stage that completed without errors */
} Front;

/* Runs the front end on text (malloc-ed, len bytes and a NUL; taken over).
 * Returns true when the game is accepted (stage == FRONT_IR). */
bool front_run(Front *f, const char *name, char *text, size_t len);
/* Reads a file and runs the front end. When the file cannot be read, returns
 * false with *io_err set (malloc-ed) and no diagnostics; a file over the size
 * limit is an input error instead, reported at 1:1. */
bool front_run_file(Front *f, const char *path, char **io_err);
void front_free(Front *f);

#endif
