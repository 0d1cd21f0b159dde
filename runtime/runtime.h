/*
 * runtime.h: what the API layer (api.c) and the engines share.
 *
 * The API owns games, machines and states; an engine only answers queries.
 * States cross the boundary as arrays of `true` facts (ground term ids,
 * sorted by id, no duplicates) in the machine's term store, so every engine
 * speaks about the same terms and the API can compare, hash and print states
 * without knowing the engine.
 */
#ifndef GDLC_RUNTIME_H
#define GDLC_RUNTIME_H

#include "../frontend/front.h"
#include "../include/gdl.h"
#include "terms.h"

struct GdlGame {
    Front front; /* the validated program: source, symbols, AST, IR */
};

/* What evaluation polls, and where an engine leaves its error message. */
typedef struct RtControl {
    double deadline;           /* CLOCK_MONOTONIC seconds, 0 for none */
    const volatile int *flag;  /* non-zero cancels */
    char *error;               /* malloc-ed message of the last failure */
    uint32_t poll;             /* counter so the clock is read rarely */
} RtControl;

/* Sets ctl->error from a format and returns status. */
GdlStatus rt_fail(RtControl *ctl, GdlStatus status, const char *fmt, ...) BASE_PRINTF(3, 4);
/* Should evaluation stop? Cheap: reads the clock every 256 calls. */
bool rt_should_stop(RtControl *ctl);
/* The same, reading the clock now. */
bool rt_stop_now(const RtControl *ctl);

typedef struct EngineOps {
    const char *name;
    /* NULL with *err set on failure. store is the machine's (shared by the
     * API for moves and states); the symbols are the game's own copy. arg
     * is what follows the colon in the engine's name ("so:PATH"), or NULL. */
    void *(*create)(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err);
    void (*destroy)(void *e);
    GdlStatus (*initial)(void *e, U32Vec *facts);
    /* moves: the role's legal moves, in any order, no duplicates */
    GdlStatus (*legal)(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves);
    GdlStatus (*next)(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts);
    GdlStatus (*terminal)(void *e, const Gt *state, uint32_t n, bool *terminal);
    /* values: pairs (role index, goal value term), one per goal fact */
    GdlStatus (*goals)(void *e, const Gt *state, uint32_t n, U32Vec *values);
} EngineOps;

extern const EngineOps rt_engine_ref;

/* Every answer of a relation that depends on neither `true` nor `does`,
 * evaluated by ref: tuples of the relation's arity appended to out, in
 * store (a proposition, arity 0, appends one 0 when true). GDL_LIMIT past max tuples, GDL_CANCELLED past the deadline. The
 * compiler uses it to turn such relations into facts. */
GdlStatus rt_ref_relation(const GdlGame *game, GtStore *store, uint32_t rel, uint32_t max, double deadline,
                          U32Vec *out);
extern const EngineOps rt_engine_jit, rt_engine_aot, rt_engine_so;

struct GdlMachine {
    const GdlGame *game;
    const EngineOps *ops;
    void *engine;
    Symtab syms;       /* the machine's symbols: the game's, plus any parsed */
    GtStore store;
    RtControl ctl;
    U32Vec roles;      /* role constants as terms */
    U32Vec scratch;    /* results handed to the caller */
    U32Vec sorted;     /* the facts of sorted_of in canonical order */
    U32Vec sorted_of;  /* the last state gdl_state_fact sorted (its facts by id) */
    bool oom;          /* memory ran out inside a query: every later one fails */
};

struct GdlState {
    uint32_t n;    /* number of facts */
    Gt facts[];    /* sorted by id */
};

#endif
