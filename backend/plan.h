/*
 * plan.h: the code generator's plan, every decision cg.c prints from,
 * taken before anything is printed (plan.c).
 *
 * The plan says, per relation, how it is evaluated (a fact set of the
 * state, the move, the game's facts or the facts folded ahead; or rules,
 * recursive or not), which queries (relation and binding pattern) the root
 * queries reach, and for each rule of each query the order in which its
 * body is joined and how each literal runs: a lookup in a fact set with
 * some positions bound, a yes/no call, a table read, a continuation. The
 * numbers it gives (queries, fact sets, index slots) are the ones the
 * generated code uses: q3 in the plan is q3() in the C.
 *
 * The dump (cg_plan_dump, gdlc emit --dump=plan) is stable text: the same
 * game gives the same bytes. Five sections, each item on its own line in
 * the order the code numbers it; a pattern is one letter per argument
 * position, b bound or f free, "()" for none; literals are numbered from 1
 * as written in the rule (the IR's order, see --dump=ir); rN is the IR's
 * rule N, @L:C its place in the .kif.
 *
 *   relations:                     every relation of the IR, in its order
 *     NAME/ARITY CLASS LEVEL       CLASS state, move, facts, folded N (N
 *                                  answers), recursive or rules; LEVEL
 *                                  game, state or move (what it depends on)
 *   roots:
 *     NAME qN                      the query of each root query, or none
 *   tables:
 *     NAME/ARITY PATTERN           tables the first reach asked for
 *   queries:
 *     qN NAME/ARITY PATTERN        a query; "yes/no" after it when it only
 *                                  asks whether there is a proof
 *       rN @L:C order I J...       each rule: its literals as joined
 *       rN @L:C fact               (a fact: no literals)
 *         I distinct test          then each literal in that order:
 *         I = test
 *         I [not ]NAME/ARITY set fsN slot S PATTERN  a lookup (slot -: none)
 *         I [not ]NAME/ARITY KIND qN PATTERN         a call; KIND yes/no,
 *                                  subsumed (read in qN's table), negated,
 *                                  recursive (a continuation) or table
 *   fact sets:
 *     fsN KIND NAME/ARITY width W LEVEL slots PATTERN...
 *                                  KIND true, does (NAME any: every fact)
 *                                  or facts; a slot per index asked for
 */
#ifndef GDLC_PLAN_H
#define GDLC_PLAN_H

#include "../frontend/front.h"
#include "abi.h"

#include <stdio.h>

enum {
    CG_MAX_ARITY = BASE_MAX_ENGINE_ARITY + 1, /* a bound on every relation's and term's arguments */
};

/* How a relation is evaluated (the dump's CLASS). */
typedef enum CgRelClass {
    CG_REL_STATE,     /* true: the state's facts, a fact set */
    CG_REL_MOVE,      /* does: the joint move's facts, a fact set */
    CG_REL_FACTS,     /* given by facts in the game: a fact set loaded once */
    CG_REL_FOLDED,    /* evaluated when compiling (the fold pass): a fact set */
    CG_REL_RECURSIVE, /* rules in a recursive component: tables and continuations */
    CG_REL_RULES,     /* rules: a table per call, or a yes/no function */
} CgRelClass;

/* A query: a relation called with some argument positions bound. */
typedef struct CgQ {
    uint32_t rel;
    uint64_t mask;  /* bound argument positions */
    bool exists;    /* every position bound, answered by a yes/no function */
} CgQ;

/* What a fact set holds. */
enum {
    FS_TRUE,  /* state facts of one functor (sym), or all of them (sym BASE_NONE) */
    FS_DOES,  /* moves of one functor with the role first, or all of them */
    FS_FACTS, /* the facts of a relation given by facts or folded (rel) */
};

/* A set of facts read by lookups with some positions bound. */
typedef struct CgFs {
    uint32_t kind;    /* FS_TRUE, FS_DOES or FS_FACTS */
    uint32_t sym;     /* FS_TRUE/FS_DOES: functor; BASE_NONE for every fact */
    uint32_t sarity;  /* arity of that functor */
    uint32_t rel;     /* FS_FACTS: the relation */
    uint32_t arity;   /* width of the tuples */
    uint32_t level;   /* 0 game, 1 state, 2 move */
    VEC(uint64_t) masks; /* the bound positions of each index (slot) asked for */
} CgFs;

/* How one body literal runs. */
typedef enum CgStepKind {
    CG_STEP_TEST,      /* distinct or =: ids compared */
    CG_STEP_SET,       /* a lookup in a fact set */
    CG_STEP_YESNO,     /* a call with every position bound (or free ones unused): x<q>() */
    CG_STEP_SUBSUMED,  /* every position bound: read in the table of a query with fewer */
    CG_STEP_NEGATED,   /* a negated call: its complete table tested for emptiness */
    CG_STEP_RECURSIVE, /* a call into the rule's own recursive component: a continuation */
    CG_STEP_TABLE,     /* any other call: its complete table, looped over (or tested) */
} CgStepKind;

typedef struct CgStep {
    uint32_t lit;    /* the literal: its index in the rule's body */
    uint32_t kind;   /* CgStepKind */
    uint64_t mask;   /* positions bound when it runs (a set lookup: of the set's tuple) */
    uint32_t target; /* CG_STEP_SET: the fact set; a call: the query; else BASE_NONE */
    uint32_t slot;   /* CG_STEP_SET: the index of mask in the set, BASE_NONE when no key */
} CgStep;

/* One rule of one query: its steps, in join order. */
typedef struct CgFn {
    uint32_t rule;  /* the rule's id */
    uint32_t steps; /* first index in steps; the rule's nlits follow */
} CgFn;

typedef struct CgPlan {
    const Front *f;
    const Ir *ir;
    const U32Vec *const *pre; /* per relation: its folded answers, or NULL (CgOptions.pre) */
    bool *facts_only;         /* per relation: read as a fact set (FS_FACTS) */
    VEC(CgQ) qs;              /* the queries, numbered as the code numbers them */
    uint32_t root[GQ_N];      /* the query of each root query (GQ_*), or BASE_NONE */
    U32Vec qfn;               /* per query: its first CgFn; one per rule of the relation */
    VEC(CgFn) fns;
    VEC(CgStep) steps;
    VEC(CgFs) fs;             /* the fact sets, numbered as the code numbers them */
    /* The tables (not yes/no) a first reach, without subsumption, asked
     * for: a test with every position bound can read one of them. */
    VEC(CgQ) tables;
    /* Working state: the queries of each relation (qfirst: newest + 1;
     * qnext: the previous one + 1), the facts of relations given by facts
     * as tuples of ids (ftup, fnum; fdone once tried) and which binding
     * patterns of them are functional (fmemo, exists: yes). */
    uint32_t *qfirst;
    U32Vec qnext;
    uint32_t **ftup;
    uint32_t *fnum;
    bool *fdone;
    VEC(CgQ) fmemo;
} CgPlan;

/* Plans the code of an accepted game; pre as CgOptions.pre. False with
 * *err (malloc-ed) naming the limit that was exceeded. cg_plan_free
 * either way. */
bool cg_plan(CgPlan *p, const Front *f, const U32Vec *const *pre, char **err);
void cg_plan_free(CgPlan *p);
CgRelClass cg_rel_class(const CgPlan *p, uint32_t rel);
/* Prints the plan (the format above). */
void cg_plan_dump(FILE *out, const CgPlan *p);

/* Helpers printing shares with planning. */
static inline uint64_t cg_full_mask(uint32_t k) { return k >= 64 ? ~0ULL : (1ULL << k) - 1; }
uint32_t cg_rel_level(const Ir *ir, uint32_t rel); /* 0 game, 1 state, 2 move */

#endif
