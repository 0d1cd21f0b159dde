/*
 * ir.h: the intermediate representation every engine reads.
 *
 * A game is a Datalog program with function terms: relations, rules whose
 * bodies are flat literals (positive, negated, distinct, equal), the
 * dependency graph between relations, its strongly connected components in
 * dependency order, and the strata of stratified negation.
 *
 * Lowering from the AST:
 *  - every `or` is expanded: a rule with disjunctions becomes one rule per
 *    choice of disjuncts (bounded by IR_MAX_EXPANSION);
 *  - `(not (distinct a b))` becomes IR_LIT_EQUAL;
 *  - variables are numbered per rule, 0..nvars-1, in order of appearance;
 *  - body literals are ordered so that every literal that binds nothing
 *    (negation, distinct, equal) comes right after the positive literals that
 *    bind its variables, keeping the source order otherwise. Evaluating a body
 *    left to right therefore never meets an unbound variable outside a
 *    positive literal: this is the safety condition, checked here;
 *  - `true` and `does` are relations with no rules: the state and the joint
 *    move give their facts.
 *
 * Invariants after ir_lower returns true: every rule is safe; relations have
 * one arity; sccs[] lists the relation components so that each comes after
 * every component it depends on. Strata are computed on rules (see ir.c): a
 * rule's stratum is >= that of every rule whose head may unify with one of
 * its positive literals, and > for a negated one. Evaluating rules stratum by
 * stratum, each stratum to a fixpoint, is therefore sound: a negated literal
 * is only tested once every rule that could make it true has finished.
 */
#ifndef GDLC_IR_H
#define GDLC_IR_H

#include "ast.h"

enum {
    IR_MAX_EXPANSION = 4096, /* most rules one rule may expand to through `or` */
};

typedef enum IrRelKind {
    IR_REL_USER,     /* a relation of the game's own */
    IR_REL_ROLE,     /* role/1 */
    IR_REL_INIT,     /* init/1 */
    IR_REL_TRUE,     /* true/1: the state */
    IR_REL_DOES,     /* does/2: the joint move */
    IR_REL_NEXT,     /* next/1 */
    IR_REL_LEGAL,    /* legal/2 */
    IR_REL_GOAL,     /* goal/2 */
    IR_REL_TERMINAL, /* terminal/0 */
    IR_REL_BASE,     /* base/1 */
    IR_REL_INPUT,    /* input/2 */
} IrRelKind;

typedef enum IrTermKind {
    IR_VAR,   /* variable number `val` of the rule */
    IR_CONST, /* the symbol `val` */
    IR_FN,    /* function `val` (an id in funcs) applied to targs[args..args+nargs) */
} IrTermKind;

typedef struct IrTerm {
    uint32_t kind;  /* IrTermKind */
    uint32_t val;   /* variable number, symbol or function id */
    uint32_t args;  /* IR_FN: first index in targs */
    uint32_t nargs; /* IR_FN: arity */
    uint32_t off;   /* source offset */
} IrTerm;

typedef struct IrFunc {
    uint32_t sym;   /* name */
    uint32_t arity; /* >= 1 */
} IrFunc;

typedef enum IrLitKind {
    IR_LIT_POS,      /* rel(args) holds; binds its variables */
    IR_LIT_NEG,      /* rel(args) does not hold; all variables bound */
    IR_LIT_DISTINCT, /* args[0] and args[1] differ; both bound */
    IR_LIT_EQUAL,    /* args[0] and args[1] are equal (not distinct); both bound */
} IrLitKind;

typedef struct IrLit {
    uint32_t kind;  /* IrLitKind */
    uint32_t rel;   /* POS/NEG: relation id; BASE_NONE otherwise */
    uint32_t args;  /* first index in largs: term ids */
    uint32_t nargs; /* number of terms */
    uint32_t off;   /* source offset of the literal */
} IrLit;

typedef struct IrRule {
    uint32_t head;     /* relation id */
    uint32_t args;     /* head arguments: first index in largs */
    uint32_t lits;     /* first body literal in lits */
    uint32_t nlits;    /* body literals; 0 for a fact */
    uint32_t nvars;    /* variables, numbered 0..nvars-1 */
    uint32_t varnames; /* first index in varsyms: the name of each variable */
    uint32_t off;      /* source offset of the rule */
    uint32_t ast_rule; /* the AST rule it was lowered from */
    uint32_t stratum;  /* its stratum in the rule graph */
} IrRule;

typedef struct IrRel {
    uint32_t sym;      /* name */
    uint32_t arity;
    uint32_t kind;     /* IrRelKind */
    uint32_t rules;    /* first index in rule_index of the rules defining it */
    uint32_t nrules;
    uint32_t scc;      /* component id (index in sccs) */
    uint32_t stratum;  /* highest stratum of its rules */
    bool dep_true;     /* depends on true, directly or not */
    bool dep_does;     /* depends on does, directly or not */
    uint32_t def_off;  /* first rule or fact defining it, or BASE_NONE */
    uint32_t use_off;  /* first body literal using it, or BASE_NONE */
} IrRel;

typedef struct IrScc {
    uint32_t rels;   /* first index in scc_rels */
    uint32_t nrels;
    bool recursive;  /* a cycle: several relations, or one calling itself */
    uint32_t stratum; /* highest stratum of its relations */
} IrScc;

typedef struct Ir {
    Symtab *syms;           /* shared with the reader */
    const Source *src;
    VEC(IrTerm) terms;
    U32Vec targs;           /* arguments of function terms */
    VEC(IrFunc) funcs;
    VEC(IrLit) lits;
    U32Vec largs;           /* arguments of literals and heads */
    VEC(IrRule) rules;
    U32Vec varsyms;
    VEC(IrRel) rels;
    U32Vec rule_index;      /* rule ids grouped by head relation */
    VEC(IrScc) sccs;        /* dependencies first */
    U32Vec scc_rels;
    uint32_t nstrata;
    U32Vec roles;           /* role symbols in declaration order */
    uint32_t kwrel[IR_REL_INPUT + 1]; /* relation id of each keyword relation, or BASE_NONE */
} Ir;

/* Lowers a validated AST, then checks what needs the graph. Returns false on
 * errors (reported in diags). */
bool ir_lower(const Ast *ast, DiagList *diags, Ir *ir);
void ir_free(Ir *ir);
/* Derives from the rules and relations of a program everything ir_lower
 * derives from them: rule_index, the relations' rules, sccs, stratum and
 * dependence on true and does, the rules' strata, nstrata. For a program
 * made otherwise than by lowering (the grounder's), which must be
 * stratified: nothing is reported. */
void ir_analyse(Ir *ir);

/* Relation id by name, or BASE_NONE. */
uint32_t ir_rel_find(const Ir *ir, const char *name);
/* Are the two terms (of the given rules, or the same rule) written alike? */
bool ir_term_same(const Ir *ir, uint32_t a, uint32_t b);
bool ir_term_ground(const Ir *ir, uint32_t t);

void ir_print_term(FILE *f, const Ir *ir, const IrRule *r, uint32_t term);
void ir_print_rule(FILE *f, const Ir *ir, uint32_t rule);
/* --dump=ir */
void ir_dump(FILE *f, const Ir *ir);

#endif
