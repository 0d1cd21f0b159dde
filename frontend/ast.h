/*
 * ast.h: the GDL meaning of a KIF document, and its validation.
 *
 * ast_build classifies the s-expressions of a game file into rules, literals
 * and terms, reporting forms that cannot be GDL at all (a variable as a
 * sentence, a list that does not start with a name, an empty list). The AST
 * is flat: terms, literals and rules are arrays, and children are runs in the
 * shared `kids` array. Every node keeps the byte offset it came from.
 *
 * ast_validate then makes the checks that need no dependency graph: keyword
 * arities and placement, consistent arities of relations and functions,
 * keywords used as functions, variables in facts, the shape of negations,
 * role facts, GDL-II, terms nested deeper than the engines accept
 * (KIF_MAX_TERM_DEPTH), bodies longer than AST_MAX_BODY literals. The graph checks (stratification, dependence on does,
 * safety after `or` is expanded, the recursion restriction) are made on the
 * IR by ir_check, in ir.h.
 */
#ifndef GDLC_AST_H
#define GDLC_AST_H

#include "../base/base.h"
#include "kif.h"

/* GDL's reserved words, declared once. X(enum suffix, text, arity of the
 * relation, or -1 when not a relation) */
#define GDL_KEYWORDS(X)          \
    X(ROLE, "role", 1)           \
    X(INIT, "init", 1)           \
    X(TRUE, "true", 1)           \
    X(DOES, "does", 2)           \
    X(NEXT, "next", 1)           \
    X(LEGAL, "legal", 2)         \
    X(GOAL, "goal", 2)           \
    X(TERMINAL, "terminal", 0)   \
    X(BASE, "base", 1)           \
    X(INPUT, "input", 2)         \
    X(DISTINCT, "distinct", 2)   \
    X(NOT, "not", 1)             \
    X(OR, "or", -1)              \
    X(RULE, "<=", -1)            \
    X(SEES, "sees", -1)

typedef enum GdlKeyword {
    KW_NONE, /* an ordinary symbol */
#define X(e, s, a) KW_##e,
    GDL_KEYWORDS(X)
#undef X
    KW_COUNT
} GdlKeyword;

extern const char *const gdl_keyword_text[KW_COUNT];
extern const int gdl_keyword_arity[KW_COUNT];

typedef enum AstTermKind {
    AST_CONST, /* a symbol */
    AST_VAR,   /* a variable */
    AST_FN,    /* a function applied to kids[args .. args+nargs) (term ids) */
} AstTermKind;

typedef struct AstTerm {
    uint32_t kind;  /* AstTermKind */
    uint32_t off;   /* source offset */
    uint32_t sym;   /* the symbol, variable or function name */
    uint32_t args;  /* AST_FN: first index in kids */
    uint32_t nargs; /* AST_FN: number of arguments */
    bool parens;    /* written as a list: (f) with no arguments */
} AstTerm;

typedef enum AstLitKind {
    AST_ATOM,     /* relation sym applied to terms kids[args..] */
    AST_NOT,      /* negation of the literal kids[args] */
    AST_DISTINCT, /* the two terms kids[args], kids[args+1] differ */
    AST_OR,       /* disjunction of the literals kids[args..] */
} AstLitKind;

typedef struct AstLit {
    uint32_t kind;  /* AstLitKind */
    uint32_t off;   /* source offset */
    uint32_t sym;   /* AST_ATOM: relation name */
    uint32_t args;  /* first index in kids */
    uint32_t nargs; /* number of children */
    bool parens;    /* AST_ATOM: written as a list, (terminal) */
} AstLit;

/* Most literals in one rule body: the code generator and libtcc recurse
 * once per literal (a rule's loops nest), and gcc -O2 takes time cubic in
 * the nesting (10 s at 256 literals, minutes at 1024); published games
 * write 102 at most. */
enum { AST_MAX_BODY = 256 };

typedef struct AstRule {
    uint32_t off;   /* where the form starts */
    uint32_t head;  /* literal id, an AST_ATOM */
    uint32_t body;  /* first index in kids of the body literal ids */
    uint32_t nbody; /* body literals; a fact has none */
    bool is_rule;   /* written with <= (possibly with an empty body) */
} AstRule;

typedef struct Ast {
    Symtab *syms;              /* shared with the reader */
    VEC(AstTerm) terms;
    VEC(AstLit) lits;
    VEC(AstRule) rules;
    U32Vec kids;               /* children runs */
    uint32_t kw[KW_COUNT];     /* symbol id of each keyword */
} Ast;

/* Builds the AST of a game file. false on errors (reported in diags). */
bool ast_build(const KifDoc *doc, Symtab *syms, DiagList *diags, Ast *ast);
void ast_free(Ast *ast);
/* The keyword a symbol is, or KW_NONE. */
GdlKeyword ast_keyword(const Ast *ast, uint32_t sym);

bool ast_validate(const Ast *ast, DiagList *diags);

void ast_print_term(FILE *f, const Ast *ast, uint32_t term);
void ast_print_lit(FILE *f, const Ast *ast, uint32_t lit);
/* --dump=ast: every rule with its structure and positions. */
void ast_dump(FILE *f, const Ast *ast, const Source *src);

#endif
