/*
 * kif.h: reading KIF s-expressions.
 *
 * The reader turns bytes into a flat tree of s-expressions (KifNode), nothing
 * more: it knows parentheses, symbols, variables and comments, not GDL. Game
 * files and trace files share it. The GDL meaning of the tree (rules,
 * literals, terms) is ast.h's business.
 *
 * Symbols and variables are folded to lower case when interned: GDL compares
 * symbols case-insensitively, as every GGP engine does.
 *
 * Limits, each with its own located message, so that no input can exhaust the
 * stack or memory: nesting depth KIF_MAX_DEPTH, node count KIF_MAX_NODES and
 * DIAG_MAX_ERRORS errors. The lexer closes parentheses left open at the end
 * of the file (after reporting where the outermost one was opened), so the
 * grammar itself never meets a syntax error; every problem is reported by the
 * lexer, which knows where it is.
 */
#ifndef GDLC_KIF_H
#define GDLC_KIF_H

#include "../base/terms.h"

enum {
    /* deepest nesting of parentheses accepted: the AST passes recurse once
     * per level, and must fit in a small thread's stack (256 KB, under
     * AddressSanitizer too); games nest far less (27 at most in the shared
     * corpus) and terms may be only KIF_MAX_TERM_DEPTH deep anyway */
    KIF_MAX_DEPTH = 128,
    KIF_MAX_NODES = 1u << 24, /* most s-expression nodes in one file */
    KIF_MAX_TERM_DEPTH = BASE_MAX_TERM_DEPTH, /* see base.h */
};

typedef enum KifKind {
    KIF_SYM,  /* a symbol: constant, function or relation name */
    KIF_VAR,  /* a variable: ?name, interned with its '?' */
    KIF_LIST, /* a parenthesised list */
} KifKind;

typedef struct KifNode {
    uint32_t kind;  /* KifKind */
    uint32_t off;   /* byte offset of the first character */
    uint32_t sym;   /* SYM/VAR: interned text; LIST: number of elements */
    uint32_t first; /* LIST: first element or BASE_NONE */
    uint32_t next;  /* next element of the enclosing list or BASE_NONE */
} KifNode;

typedef struct KifDoc {
    VEC(KifNode) nodes; /* every node; ids index this array */
    U32Vec tops;        /* the top-level forms in file order */
} KifDoc;

/* Location type of the grammar: a byte range. */
typedef struct KifLoc {
    uint32_t off, end;
} KifLoc;

/* Reads src into doc, interning into syms and reporting into diags.
 * Returns false when there were errors (doc still holds what was read). */
bool kif_read(const Source *src, Symtab *syms, DiagList *diags, KifDoc *doc);
void kif_doc_free(KifDoc *doc);

/* Prints node as canonical KIF (lower case, single spaces). */
void kif_print(FILE *f, const KifDoc *doc, const Symtab *syms, uint32_t node);

/* The i-th element of a list node, BASE_NONE when it has fewer. */
uint32_t kif_elem(const KifDoc *doc, uint32_t list, uint32_t i);

/* ---- internal: shared by lexer.l, parser.y and kif.c ---------------- */

typedef struct KifReader {
    const Source *src;
    Symtab *syms;
    DiagList *diags;
    KifDoc *doc;
    uint32_t pos;            /* byte offset of the next token */
    uint32_t depth;          /* open parentheses */
    uint32_t open[KIF_MAX_DEPTH + 1]; /* where each open '(' is */
    uint32_t to_close;       /* ')' still to synthesise at end of file */
    bool fatal;              /* a limit was hit: stop reading */
    uint32_t bad_line;       /* last line (1-based) given a bad-character error */
    char *fold;              /* scratch buffer for lower-casing */
    size_t fold_cap;
} KifReader;

uint32_t kif_new_atom(KifReader *r, KifKind kind, uint32_t off, const char *text, size_t len);
uint32_t kif_new_list(KifReader *r, uint32_t off, uint32_t first, uint32_t n);
void kif_bad_char(KifReader *r, uint32_t off, unsigned char c);

/* Converts an s-expression to a ground term, interning new symbols in the
 * store's table. BASE_NONE for a variable, an empty list, a list not
 * starting with a symbol, or a term too deep. */
Gt gt_from_kif(GtStore *s, const KifDoc *doc, const Symtab *docsyms, uint32_t node);

#endif
