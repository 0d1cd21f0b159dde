/*
 * bg.h: the board backend's code generator (bg.c): a game whose state
 * facts and moves are flat (a functor over constants) compiled to C that
 * reads the state as an array of small integers, one per group of facts of
 * which at most one holds, and runs the rules as loops over those arrays.
 *
 * The caller (runtime/board.c) finds the layout: for each state relation,
 * which argument positions (the key) determine the others (the value) in
 * every state it has seen, and the domain of each position; the generated
 * code checks the claim on every state it writes and says so when it fails
 * (BgCtx.bad), so a wrong claim is never a wrong answer. A value is a
 * symbol's id, or a move (a function term of a move's functor and arity,
 * its arguments in their domains) numbered past them: the symbols' count
 * plus its move number. So a variable holds one number and two terms are
 * equal when their numbers are.
 *
 * What is compiled: legal (role bound), next, terminal and goal, and every
 * relation they reach, evaluated top-down without tables. A recursive
 * relation is called like any other (a line walked cell by cell ends at
 * the board's edge), under a bound on nesting and on the calls a query
 * may make: past it the query reports BG_DEEP and the host asks another
 * engine, so a recursion that would not end without tables (a cycle of
 * the rules) costs one bounded query, never a wrong answer. Relations
 * that depend on neither the state nor the move are tables of constants
 * (the fold pass's answers).
 */
#ifndef GDLC_BG_H
#define GDLC_BG_H

#include "../base/base.h"
#include "../frontend/ir.h"

enum {
    BG_MAX_ARITY = 12,    /* argument positions of a state fact or a move */
    BG_MAX_SLOTS = 1u << 20, /* slots of a state */
    BG_MAX_MOVES = 1u << 22, /* move numbers of all shapes together */
    BG_MAX_DEPTH = 4096,     /* nested calls of recursive relations */
    BG_MAX_CALL_DEPTH = 256, /* the longest chain of calls among the rules' relations */
    BG_MEMO_WORDS = 8,       /* a line of the tests' memo: epoch, query, 4 arguments, answer */
    BG_MEMO_ARITY = 4,       /* tests of more arguments are not remembered */
};

/* A state relation (the facts (sym a1 .. an)) and its layout: the key's
 * positions pick a slot, the value's positions are coded in it (0: no fact
 * of the group holds). nval == 0: the slot says whether the fact holds. */
typedef struct BgRel {
    uint32_t sym, arity;
    uint32_t nkey, key[BG_MAX_ARITY];
    uint32_t nval, val[BG_MAX_ARITY];
    U32Vec dom[BG_MAX_ARITY]; /* per position: the symbols it may hold, sorted */
    /* set by bg_layout: */
    uint32_t off, groups, codes; /* first slot, slots, value codes (1..codes) */
} BgRel;

/* Moves of one functor and arity (a constant move has arity 0), numbered
 * base + the mixed radix of its arguments' places in their domains. */
typedef struct BgShape {
    uint32_t sym, arity;
    U32Vec dom[BG_MAX_ARITY];
    uint32_t base, count; /* set by bg_layout */
} BgShape;

typedef struct BgGame {
    const Ir *ir;
    const Symtab *syms;
    VEC(BgRel) rels;
    VEC(BgShape) shapes;
    /* per IR relation: its tuples of symbols when it depends on neither
     * true nor does (arity symbols a tuple; a proposition that holds has
     * one empty tuple: n == 0 and holds set), else NULL */
    const U32Vec **stat;
    const bool *stat_holds; /* per IR relation: the static proposition holds */
    uint32_t nslots, nmoves; /* set by bg_layout */
    bool unchecked; /* next overwrites a slot written before instead of
                     * reporting BG_CLAIM (for tests: a wrong layout then
                     * plays wrong, and verify must catch it) */
    /* polled while the code is made (the search of join orders), NULL for
     * never: true stops it, and bg_emit fails with "cancelled" */
    bool (*stop)(void *ctx);
    void *stop_ctx;
} BgGame;

/* Places the relations' slots and the shapes' move numbers; false (and
 * *err) when past BG_MAX_SLOTS or BG_MAX_MOVES. */
bool bg_layout(BgGame *g, char **err);
/* The relation or shape of a functor and arity, or BASE_NONE. */
uint32_t bg_rel_of(const BgGame *g, uint32_t sym, uint32_t arity);
uint32_t bg_shape_of(const BgGame *g, uint32_t sym, uint32_t arity);
/* The place of symbol s in a sorted domain, or BASE_NONE. */
uint32_t bg_place(const U32Vec *dom, uint32_t s);

/* The C of the game (malloc-ed, *len its length), or NULL with *err saying
 * what is not compiled (a recursive relation, a term that is not flat). */
char *bg_emit(const BgGame *g, size_t *len, char **err);
/* The same, and *summary (malloc-ed) says how each relation the code
 * reaches is evaluated: "compiled NAME/ARITY ...; recursive, bounded:
 * ...; tables: ..." (gdl_machine_plan). */
char *bg_emit_summary(const BgGame *g, size_t *len, char **summary, char **err);

/* The generated code's view of a query, one definition for both sides:
 * the host (runtime/board.c) declares the struct from BG_CTX_FIELDS, and
 * bg_emit prints the same text into the code. */
#define BG_CTX_FIELDS                                                                        \
    const unsigned short *st; /* the state's slots */                                       \
    unsigned short *nx;       /* next: the slots written (zeroed by the host) */             \
    const unsigned int *mshape; /* per role: the shape of its move */                       \
    const unsigned int *marg; /* per role: BG_MAX_ARITY arguments of its move */            \
    const unsigned int *mval; /* per role: its move as a value (below) */                    \
    unsigned int *out;        /* answers: move numbers, or (role, goal value) pairs */      \
    unsigned int nout, cap;                                                                  \
    unsigned int *mark;       /* legal: per move number, the epoch it was answered in */    \
    unsigned int epoch;                                                                      \
    unsigned int *sp, *spend; /* the stack of answers of enumerated relations */             \
    unsigned int *memo;       /* answers of tests this query: BG_MEMO_WORDS a line */  \
    unsigned int memo_mask;   /* lines - 1 (a power of two) */                         \
    unsigned int memo_epoch;  /* the query's number: lines of others are stale */      \
    unsigned int depth;       /* calls of recursive relations under way */            \
    unsigned int budget;      /* calls of recursive relations left to this query */  \
    unsigned int bad;         /* BG_CLAIM, BG_SPACE, BG_DEEP: the answers are not to be used */
#define BG_STR_(...) #__VA_ARGS__
#define BG_STR(...) BG_STR_(__VA_ARGS__)

typedef struct BgCtx {
    BG_CTX_FIELDS
} BgCtx;

/* The functions the code defines. */
typedef void (*BgLegalFn)(BgCtx *c, unsigned int role);
typedef void (*BgNextFn)(BgCtx *c);
typedef int (*BgTerminalFn)(BgCtx *c);
typedef void (*BgGoalsFn)(BgCtx *c);

/* What the generated code reports in BgCtx.bad. */
enum {
    BG_OK = 0,
    BG_CLAIM = 1,   /* two facts of one group, or a fact or move outside the layout */
    BG_SPACE = 2,   /* the answer stack is full */
    BG_DEEP = 3,    /* recursion past BG_MAX_DEPTH, or the query's budget of
                     * recursive calls spent: not evaluated without tables */
};

#endif
