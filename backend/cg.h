/*
 * cg.h: the backend: a game's IR to specialised C.
 *
 * The emitted file is self-contained C11 (abi.h and the declarations of
 * engine.h and prelude.h, the game, then the code of engine.h and
 * prelude.h): it compiles under libtcc in memory and under the system
 * compiler into a shared object, without warnings under `gcc -O2 -Wall`.
 * Same input, same bytes. See cg.c for the shape of the code and engine.h
 * for the runtime it carries (tables, continuations, completion).
 *
 * Two passes: cg_plan (plan.h) takes every decision, cg_emit prints the C
 * from the plan.
 */
#ifndef GDLC_CG_H
#define GDLC_CG_H

#include "../base/terms.h"
#include "plan.h"

enum {
    CG_DEFAULT_MAX_BYTES = 256u << 20,   /* largest C file we emit */
    CG_FACT_BLOCKS_MAX = 64,             /* more facts of constants are loaded from a table */
};

typedef struct CgOptions {
    const char *c_name;   /* name of the C file, for #line; NULL: "<name>.c" */
    bool no_lines;        /* leave out #line directives */
    size_t max_bytes;     /* 0: CG_DEFAULT_MAX_BYTES */
    /* Relations evaluated ahead (the fold pass, compile/fold.h; NULL for
     * none): pre[rel] holds every answer of rel as tuples of terms of
     * store, or is NULL. Such a relation is emitted as facts. */
    const U32Vec *const *pre;
    GtStore *store;
} CgOptions;

/* The C of an accepted game as plan p says (malloc-ed, NUL-terminated), or
 * NULL with *err (malloc-ed) naming the limit that was exceeded. p was made
 * with opt->pre. */
char *cg_emit(const CgPlan *p, const CgOptions *opt, size_t *len, char **err);

/* The hash of a game's text that modules carry: 16 hex digits and a NUL. */
void cg_game_hash(const Source *src, char out[17]);
/* Appends the identity note of a shared object (abi.h's GdlcNote, this
 * gdlc's version, the game's hash, no checksum yet) as C, for a file that
 * has abi.h's text (cg_text_abi) before it; libtcc's code gets none. */
void cg_note(StrBuf *o, const char hash[17]);

/* The texts of abi.h, engine.h and prelude.h, embedded at build time. */
extern const char cg_text_abi[];
extern const char cg_text_engine[];
extern const char cg_text_prelude[];

#endif
