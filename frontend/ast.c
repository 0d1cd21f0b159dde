/*
 * ast.c: from s-expressions to GDL rules, literals and terms.
 *
 * The conversion is a walk over each top-level form. A form (<= head body...)
 * is a rule; any other form is a fact. In literal position a list is a
 * relation applied to arguments or one of not / or / distinct; in term
 * position a list is a function applied to arguments. Shapes that cannot
 * mean anything in GDL are reported here, at the offending s-expression, and
 * the walk goes on so several errors are found at once. Nesting is bounded by
 * the reader's KIF_MAX_DEPTH, so the recursion here is bounded too.
 */
#include "ast.h"

#include <string.h>

const char *const gdl_keyword_text[KW_COUNT] = {
    [KW_NONE] = "",
#define X(e, s, a) [KW_##e] = s,
    GDL_KEYWORDS(X)
#undef X
};

const int gdl_keyword_arity[KW_COUNT] = {
    [KW_NONE] = -1,
#define X(e, s, a) [KW_##e] = a,
    GDL_KEYWORDS(X)
#undef X
};

typedef struct Builder {
    const KifDoc *doc;
    Ast *ast;
    DiagList *diags;
} Builder;

GdlKeyword ast_keyword(const Ast *ast, uint32_t sym)
{
    for (int k = 1; k < KW_COUNT; k++)
        if (ast->kw[k] == sym)
            return (GdlKeyword)k;
    return KW_NONE;
}

static const KifNode *node(const Builder *b, uint32_t id) { return &b->doc->nodes.v[id]; }

/* Reserves n consecutive slots in kids. */
static uint32_t kids_alloc(Ast *ast, uint32_t n)
{
    uint32_t at = ast->kids.n;
    vec_reserve(ast->kids, at + n);
    ast->kids.n += n;
    return at;
}

static uint32_t build_term(Builder *b, uint32_t id);

/* The arguments of a list after its head, as terms. */
static bool build_args(Builder *b, uint32_t first, uint32_t n, uint32_t *at)
{
    *at = kids_alloc(b->ast, n);
    bool ok = true;
    uint32_t i = 0;
    for (uint32_t c = first; c != BASE_NONE; c = node(b, c)->next, i++) {
        uint32_t t = build_term(b, c);
        if (t == BASE_NONE)
            ok = false;
        b->ast->kids.v[*at + i] = t;
    }
    return ok;
}

static uint32_t build_term(Builder *b, uint32_t id)
{
    const KifNode *n = node(b, id);
    AstTerm t = {.off = n->off, .sym = n->sym};
    if (n->kind == KIF_SYM) {
        t.kind = AST_CONST;
    } else if (n->kind == KIF_VAR) {
        t.kind = AST_VAR;
    } else if (n->sym == 0) {
        diag_error(b->diags, n->off, "an empty list '()' is not a term");
        return BASE_NONE;
    } else {
        const KifNode *head = node(b, n->first);
        if (head->kind != KIF_SYM) {
            diag_error(b->diags, head->off, "a function term must start with a function name, not %s",
                       head->kind == KIF_VAR ? "a variable" : "a list");
            return BASE_NONE;
        }
        if (head->sym == b->ast->kw[KW_RULE]) {
            diag_error(b->diags, head->off, "'<=' can only start a rule at the top level");
            return BASE_NONE;
        }
        t.kind = AST_FN;
        t.sym = head->sym;
        t.nargs = n->sym - 1;
        t.parens = true;
        if (!build_args(b, head->next, t.nargs, &t.args))
            return BASE_NONE;
    }
    vec_push(b->ast->terms, t);
    return b->ast->terms.n - 1;
}

static uint32_t push_lit(Ast *ast, AstLit l)
{
    vec_push(ast->lits, l);
    return ast->lits.n - 1;
}

static uint32_t build_lit(Builder *b, uint32_t id)
{
    const KifNode *n = node(b, id);
    Ast *ast = b->ast;
    if (n->kind == KIF_VAR) {
        diag_error(b->diags, n->off, "a variable cannot stand as a sentence");
        return BASE_NONE;
    }
    if (n->kind == KIF_SYM) {
        if (n->sym == ast->kw[KW_RULE]) {
            diag_error(b->diags, n->off, "'<=' can only start a rule, as in (<= head body...)");
            return BASE_NONE;
        }
        return push_lit(ast, (AstLit){.kind = AST_ATOM, .off = n->off, .sym = n->sym});
    }
    if (n->sym == 0) {
        diag_error(b->diags, n->off, "an empty list '()' is not a sentence");
        return BASE_NONE;
    }
    const KifNode *head = node(b, n->first);
    if (head->kind != KIF_SYM) {
        diag_error(b->diags, head->off, "a sentence must start with a relation name, not %s",
                   head->kind == KIF_VAR ? "a variable" : "a list");
        return BASE_NONE;
    }
    uint32_t nargs = n->sym - 1;
    AstLit l = {.off = n->off, .sym = head->sym, .nargs = nargs, .parens = true};
    GdlKeyword kw = ast_keyword(ast, head->sym);
    if (kw == KW_RULE) {
        diag_error(b->diags, head->off, "'<=' can only start a rule at the top level");
        return BASE_NONE;
    }
    if (kw == KW_NOT || kw == KW_OR) {
        if (kw == KW_NOT && nargs != 1) {
            diag_error(b->diags, head->off, "'not' takes exactly one sentence, not %u", nargs);
            return BASE_NONE;
        }
        if (kw == KW_OR && nargs == 0) {
            diag_error(b->diags, head->off, "'or' needs at least one sentence");
            return BASE_NONE;
        }
        l.kind = kw == KW_NOT ? AST_NOT : AST_OR;
        l.args = kids_alloc(ast, nargs);
        bool ok = true;
        uint32_t i = 0;
        for (uint32_t c = head->next; c != BASE_NONE; c = node(b, c)->next, i++) {
            uint32_t k = build_lit(b, c);
            ok &= k != BASE_NONE;
            ast->kids.v[l.args + i] = k;
        }
        return ok ? push_lit(ast, l) : BASE_NONE;
    }
    if (kw == KW_DISTINCT) {
        if (nargs != 2) {
            diag_error(b->diags, head->off, "'distinct' takes 2 arguments, not %u", nargs);
            return BASE_NONE;
        }
        l.kind = AST_DISTINCT;
    } else {
        l.kind = AST_ATOM;
    }
    if (!build_args(b, head->next, nargs, &l.args))
        return BASE_NONE;
    return push_lit(ast, l);
}

static void build_form(Builder *b, uint32_t id)
{
    const KifNode *n = node(b, id);
    Ast *ast = b->ast;
    AstRule r = {.off = n->off};
    if (n->kind == KIF_LIST && n->sym > 0 && node(b, n->first)->kind == KIF_SYM &&
        node(b, n->first)->sym == ast->kw[KW_RULE]) {
        r.is_rule = true;
        uint32_t h = node(b, n->first)->next;
        if (h == BASE_NONE) {
            diag_error(b->diags, n->off, "a rule needs a head: (<= head body...)");
            return;
        }
        r.head = build_lit(b, h);
        r.nbody = n->sym - 2;
        r.body = kids_alloc(ast, r.nbody);
        bool ok = r.head != BASE_NONE;
        uint32_t i = 0;
        for (uint32_t c = node(b, h)->next; c != BASE_NONE; c = node(b, c)->next, i++) {
            uint32_t k = build_lit(b, c);
            ok &= k != BASE_NONE;
            ast->kids.v[r.body + i] = k;
        }
        if (!ok)
            return;
    } else {
        r.head = build_lit(b, id);
        if (r.head == BASE_NONE)
            return;
    }
    const AstLit *head = &ast->lits.v[r.head];
    if (head->kind != AST_ATOM) {
        static const char *what[] = {"", "a negation", "'distinct'", "a disjunction"};
        diag_error(b->diags, head->off, "%s cannot be %s", what[head->kind],
                   r.is_rule ? "the head of a rule" : "a fact");
        return;
    }
    vec_push(ast->rules, r);
}

bool ast_build(const KifDoc *doc, Symtab *syms, DiagList *diags, Ast *ast)
{
    memset(ast, 0, sizeof *ast);
    ast->syms = syms;
    for (int k = 1; k < KW_COUNT; k++)
        ast->kw[k] = symtab_intern(syms, gdl_keyword_text[k], strlen(gdl_keyword_text[k]));
    uint32_t before = diags->nerrors;
    Builder b = {doc, ast, diags};
    if (doc->tops.n == 0) {
        diag_error(diags, 0, "the file holds no rules or facts");
        return false;
    }
    for (uint32_t i = 0; i < doc->tops.n && !diag_too_many(diags); i++)
        build_form(&b, doc->tops.v[i]);
    return diags->nerrors == before;
}

void ast_free(Ast *ast)
{
    vec_free(ast->terms);
    vec_free(ast->lits);
    vec_free(ast->rules);
    vec_free(ast->kids);
}

/* ---- printing -------------------------------------------------------- */

void ast_print_term(FILE *f, const Ast *ast, uint32_t id)
{
    const AstTerm *t = &ast->terms.v[id];
    if (t->kind != AST_FN) {
        fputs(symtab_str(ast->syms, t->sym), f);
        return;
    }
    fprintf(f, "(%s", symtab_str(ast->syms, t->sym));
    for (uint32_t i = 0; i < t->nargs; i++) {
        fputc(' ', f);
        ast_print_term(f, ast, ast->kids.v[t->args + i]);
    }
    fputc(')', f);
}

void ast_print_lit(FILE *f, const Ast *ast, uint32_t id)
{
    const AstLit *l = &ast->lits.v[id];
    switch (l->kind) {
    case AST_ATOM:
    case AST_DISTINCT:
        if (!l->parens) {
            fputs(symtab_str(ast->syms, l->sym), f);
            return;
        }
        fprintf(f, "(%s", symtab_str(ast->syms, l->sym));
        for (uint32_t i = 0; i < l->nargs; i++) {
            fputc(' ', f);
            ast_print_term(f, ast, ast->kids.v[l->args + i]);
        }
        fputc(')', f);
        return;
    case AST_NOT:
    case AST_OR:
        fputs(l->kind == AST_NOT ? "(not" : "(or", f);
        for (uint32_t i = 0; i < l->nargs; i++) {
            fputc(' ', f);
            ast_print_lit(f, ast, ast->kids.v[l->args + i]);
        }
        fputc(')', f);
        return;
    }
}

static void dump_lit(FILE *f, const Ast *ast, const Source *src, uint32_t id, int indent)
{
    const AstLit *l = &ast->lits.v[id];
    static const char *kind[] = {"atom", "not", "distinct", "or"};
    uint32_t line, col;
    source_linecol(src, l->off, &line, &col);
    fprintf(f, "%*s%s @%u:%u ", indent, "", kind[l->kind], line, col);
    if (l->kind == AST_NOT || l->kind == AST_OR) {
        fputc('\n', f);
        for (uint32_t i = 0; i < l->nargs; i++)
            dump_lit(f, ast, src, ast->kids.v[l->args + i], indent + 2);
        return;
    }
    ast_print_lit(f, ast, id);
    fputc('\n', f);
}

void ast_dump(FILE *f, const Ast *ast, const Source *src)
{
    for (uint32_t i = 0; i < ast->rules.n; i++) {
        const AstRule *r = &ast->rules.v[i];
        uint32_t line, col;
        source_linecol(src, r->off, &line, &col);
        fprintf(f, "%s %u @%u:%u\n", r->is_rule ? "rule" : "fact", i, line, col);
        fputs("  head ", f);
        dump_lit(f, ast, src, r->head, 0);
        for (uint32_t j = 0; j < r->nbody; j++)
            dump_lit(f, ast, src, ast->kids.v[r->body + j], 2);
    }
}
