/*
 * validate.c: the checks on the AST that need no dependency graph.
 *
 * One walk over every rule visits each literal and term with its context
 * (head or body, under a negation or not). Per symbol it remembers the first
 * arity it was used with, separately for relations and for functions (the
 * arguments of true, init, next, base, legal, does, input and goal are terms,
 * so the fluents of a state are functions here), and reports every later use
 * with another arity, pointing back at the first. See ast.h for the list of
 * checks and ir.h for those made later on the IR.
 */
#include "ast.h"

#include <string.h>

typedef struct Use {
    uint32_t arity; /* BASE_NONE: not seen yet */
    uint32_t off;   /* first use */
    bool reported;  /* a mismatch was reported for this symbol */
    bool too_wide;  /* its width was reported as past the compiled engines' limit */
} Use;

typedef struct Checker {
    const Ast *ast;
    DiagList *diags;
    Use *rel, *fn;  /* per symbol id */
    bool *role;     /* per symbol id: declared by (role NAME) */
    bool any_role;  /* some role is declared (else that error says enough) */
    uint32_t nsyms;
    bool defined[KW_COUNT]; /* a keyword relation has a fact or rule */
} Checker;

static const char *S(const Checker *c, uint32_t sym) { return symtab_str(c->ast->syms, sym); }

/* ref takes any width; the compiled engines take BASE_MAX_ENGINE_ARITY
 * arguments per relation and one less per function term. */
static void check_width(Checker *c, Use *u, const char *what, uint32_t sym, uint32_t arity, uint32_t max, uint32_t off)
{
    if (arity <= max || u->too_wide)
        return;
    u->too_wide = true;
    diag_warning(c->diags, off, "%s '%s' has %u arguments; the compiled engines (jit, aot, so:) take at most %u, "
                 "only ref can play this game", what, S(c, sym), arity, max);
}

static void check_arity(Checker *c, Use *table, const char *what, uint32_t sym, uint32_t arity, uint32_t off)
{
    Use *u = &table[sym];
    check_width(c, u, what, sym, arity, table == c->rel ? BASE_MAX_ENGINE_ARITY : BASE_MAX_ENGINE_ARITY - 1, off);
    if (u->arity == BASE_NONE) {
        u->arity = arity;
        u->off = off;
        return;
    }
    if (u->arity == arity || u->reported)
        return;
    u->reported = true;
    uint32_t line, col;
    source_linecol(c->diags->src, u->off, &line, &col);
    diag_error(c->diags, off, "%s '%s' is used with %u argument%s here but with %u at %u:%u", what, S(c, sym), arity,
               arity == 1 ? "" : "s", u->arity, line, col);
    diag_note(c->diags, u->off, "first use of '%s', with %u argument%s", S(c, sym), u->arity,
              u->arity == 1 ? "" : "s");
}

/* Checks a term and returns its depth (a constant or a variable is 1
 * deep). The reader's KIF_MAX_DEPTH bounds the recursion. */
static uint32_t check_term(Checker *c, uint32_t id)
{
    const AstTerm *t = &c->ast->terms.v[id];
    uint32_t depth = 1;
    if (t->kind == AST_VAR)
        return depth;
    if (t->kind == AST_FN) {
        GdlKeyword kw = ast_keyword(c->ast, t->sym);
        if (kw != KW_NONE) {
            diag_error(c->diags, t->off, "the keyword '%s' cannot be used as a function", S(c, t->sym));
            return depth;
        }
        if (t->nargs == 0)
            diag_warning(c->diags, t->off, "'(%s)' has no arguments; it is read as the constant '%s'",
                         S(c, t->sym), S(c, t->sym));
        for (uint32_t i = 0; i < t->nargs; i++) {
            uint32_t d = check_term(c, c->ast->kids.v[t->args + i]);
            if (d + 1 > depth)
                depth = d + 1;
        }
    }
    /* A constant may share its name with a function (a move 'noop' beside
     * (move ...)); only compound uses must agree. */
    if (t->kind == AST_FN && t->nargs > 0)
        check_arity(c, c->fn, "function", t->sym, t->nargs, t->off);
    return depth;
}

/* An argument of a literal: a term no engine could hold is an error here,
 * where it is written, rather than a failed query later. A variable stands
 * for a term at least one deep, so a pattern deeper than the limit can
 * never be matched or built either. */
static void check_arg(Checker *c, uint32_t id)
{
    uint32_t depth = check_term(c, id);
    if (depth > KIF_MAX_TERM_DEPTH)
        diag_error(c->diags, c->ast->terms.v[id].off,
                   "this term is nested %u levels deep; the engines accept terms of at most %d levels",
                   depth, KIF_MAX_TERM_DEPTH);
}

/* The first variable in a term, or BASE_NONE. */
static uint32_t first_var(const Ast *ast, uint32_t id)
{
    const AstTerm *t = &ast->terms.v[id];
    if (t->kind == AST_VAR)
        return id;
    for (uint32_t i = 0; t->kind == AST_FN && i < t->nargs; i++) {
        uint32_t v = first_var(ast, ast->kids.v[t->args + i]);
        if (v != BASE_NONE)
            return v;
    }
    return BASE_NONE;
}

typedef enum Place { IN_HEAD, IN_BODY } Place;

static void check_lit(Checker *c, uint32_t id, Place place, bool negated)
{
    const Ast *ast = c->ast;
    const AstLit *l = &ast->lits.v[id];
    switch (l->kind) {
    case AST_NOT: {
        const AstLit *in = &ast->lits.v[ast->kids.v[l->args]];
        if (in->kind == AST_NOT || in->kind == AST_OR) {
            diag_error(c->diags, in->off,
                       "only a single sentence or 'distinct' can be negated, not %s",
                       in->kind == AST_NOT ? "a negation" : "a disjunction");
            return;
        }
        if (in->kind == AST_DISTINCT)
            diag_warning(c->diags, l->off, "'(not (distinct ...))' is read as equality of the two terms");
        check_lit(c, ast->kids.v[l->args], place, true);
        return;
    }
    case AST_OR:
        for (uint32_t i = 0; i < l->nargs; i++)
            check_lit(c, ast->kids.v[l->args + i], place, negated);
        return;
    case AST_DISTINCT:
        for (uint32_t i = 0; i < l->nargs; i++)
            check_arg(c, ast->kids.v[l->args + i]);
        return;
    case AST_ATOM:
        break;
    }
    GdlKeyword kw = ast_keyword(ast, l->sym);
    if (kw == KW_SEES) {
        diag_error(c->diags, l->off, "GDL-II is not supported: 'sees' belongs to games with imperfect information");
        return;
    }
    if (kw != KW_NONE && gdl_keyword_arity[kw] >= 0 && l->nargs != (uint32_t)gdl_keyword_arity[kw]) {
        diag_error(c->diags, l->off, "'%s' takes %d argument%s, not %u", S(c, l->sym), gdl_keyword_arity[kw],
                   gdl_keyword_arity[kw] == 1 ? "" : "s", l->nargs);
        return;
    }
    if (place == IN_BODY && (kw == KW_INIT || kw == KW_NEXT || kw == KW_BASE || kw == KW_INPUT))
        diag_error(c->diags, l->off, "'%s' cannot be used in a rule body", S(c, l->sym));
    if (place == IN_HEAD && (kw == KW_TRUE || kw == KW_DOES))
        diag_error(c->diags, l->off, "'%s' cannot be defined by a rule or fact: %s", S(c, l->sym),
                   kw == KW_TRUE ? "the current state gives it" : "the players' moves give it");
    if (l->nargs == 0 && l->parens)
        diag_warning(c->diags, l->off, "'(%s)' is written with parentheses; a relation without arguments is just '%s'",
                     S(c, l->sym), S(c, l->sym));
    if (kw == KW_NONE)
        check_arity(c, c->rel, "relation", l->sym, l->nargs, l->off);
    (void)negated;
    for (uint32_t i = 0; i < l->nargs; i++)
        check_arg(c, ast->kids.v[l->args + i]);
}

/* The constant a literal's argument i is, or BASE_NONE. */
static uint32_t const_arg(const Ast *ast, const AstLit *l, uint32_t i)
{
    const AstTerm *t = &ast->terms.v[ast->kids.v[l->args + i]];
    return t->kind == AST_CONST ? t->sym : BASE_NONE;
}

/* Calls f on every atom of a literal, through 'not' and 'or'. */
static void each_atom(Checker *c, uint32_t id, void (*f)(Checker *, const AstLit *))
{
    const AstLit *l = &c->ast->lits.v[id];
    if (l->kind == AST_NOT || l->kind == AST_OR)
        for (uint32_t i = 0; i < l->nargs; i++)
            each_atom(c, c->ast->kids.v[l->args + i], f);
    else if (l->kind == AST_ATOM)
        f(c, l);
}

/* legal, goal and does name a role first; a constant goal value must be one
 * every engine can return. */
static void check_role_goal_atom(Checker *c, const AstLit *l)
{
    GdlKeyword kw = ast_keyword(c->ast, l->sym);
    if ((kw != KW_LEGAL && kw != KW_GOAL && kw != KW_DOES) || l->nargs != 2)
        return;
    uint32_t role = const_arg(c->ast, l, 0);
    if (role != BASE_NONE && !c->role[role] && c->any_role)
        diag_warning(c->diags, c->ast->terms.v[c->ast->kids.v[l->args]].off,
                     "'%s' is not a role of the game, so this '%s' never %s", S(c, role), S(c, l->sym),
                     kw == KW_DOES ? "holds" : "applies");
    uint32_t value = kw == KW_GOAL ? const_arg(c->ast, l, 1) : BASE_NONE;
    int v;
    if (value != BASE_NONE && !base_goal_value(S(c, value), &v))
        diag_error(c->diags, c->ast->terms.v[c->ast->kids.v[l->args + 1]].off,
                   "the goal value '%s' is not a number from 0 to 100", S(c, value));
    else if (kw == KW_GOAL && value == BASE_NONE && c->ast->terms.v[c->ast->kids.v[l->args + 1]].kind == AST_FN)
        diag_error(c->diags, c->ast->terms.v[c->ast->kids.v[l->args + 1]].off,
                   "a goal value must be a number from 0 to 100, not a function term");
}

static void check_roles_and_goals(Checker *c)
{
    const Ast *ast = c->ast;
    for (uint32_t i = 0; i < ast->rules.n; i++) {
        const AstRule *r = &ast->rules.v[i];
        const AstLit *head = &ast->lits.v[r->head];
        if (ast_keyword(ast, head->sym) == KW_ROLE && r->nbody == 0 && head->nargs == 1 &&
            const_arg(ast, head, 0) != BASE_NONE)
            c->role[const_arg(ast, head, 0)] = c->any_role = true;
    }
    for (uint32_t i = 0; i < ast->rules.n && !diag_too_many(c->diags); i++) {
        const AstRule *r = &ast->rules.v[i];
        each_atom(c, r->head, check_role_goal_atom);
        for (uint32_t j = 0; j < r->nbody; j++)
            each_atom(c, ast->kids.v[r->body + j], check_role_goal_atom);
    }
}

bool ast_validate(const Ast *ast, DiagList *diags)
{
    uint32_t before = diags->nerrors;
    Checker c = {.ast = ast, .diags = diags, .nsyms = ast->syms->n};
    c.rel = base_xmalloc(c.nsyms * sizeof *c.rel);
    c.fn = base_xmalloc(c.nsyms * sizeof *c.fn);
    c.role = base_xcalloc(c.nsyms ? c.nsyms : 1, sizeof *c.role);
    for (uint32_t i = 0; i < c.nsyms; i++)
        c.rel[i] = c.fn[i] = (Use){.arity = BASE_NONE};
    uint32_t first_role = BASE_NONE;
    for (uint32_t i = 0; i < ast->rules.n && !diag_too_many(diags); i++) {
        const AstRule *r = &ast->rules.v[i];
        const AstLit *head = &ast->lits.v[r->head];
        GdlKeyword kw = ast_keyword(ast, head->sym);
        c.defined[kw] = true;
        check_lit(&c, r->head, IN_HEAD, false);
        for (uint32_t j = 0; j < r->nbody; j++)
            check_lit(&c, ast->kids.v[r->body + j], IN_BODY, false);
        if (r->nbody > AST_MAX_BODY)
            diag_error(diags, r->off, "this rule's body has %u literals; at most %d are accepted", r->nbody,
                       AST_MAX_BODY);
        if (r->nbody == 0) {
            if (r->is_rule)
                diag_warning(diags, r->off, "a rule with an empty body is a fact");
            for (uint32_t j = 0; j < head->nargs; j++) {
                uint32_t v = first_var(ast, ast->kids.v[head->args + j]);
                if (v != BASE_NONE) {
                    diag_error(diags, ast->terms.v[v].off, "a fact cannot contain a variable ('%s')",
                               S(&c, ast->terms.v[v].sym));
                    break;
                }
            }
        }
        if (kw == KW_ROLE) {
            if (r->nbody > 0)
                diag_error(diags, head->off, "'role' must be given by ground facts, not by a rule");
            else if (head->nargs == 1) {
                const AstTerm *t = &ast->terms.v[ast->kids.v[head->args]];
                if (t->kind == AST_CONST && strcmp(S(&c, t->sym), "random") == 0)
                    diag_error(diags, t->off, "GDL-II is not supported: a role named 'random' is the random player of GDL-II");
                if (first_role == BASE_NONE)
                    first_role = i;
            }
        }
    }
    check_roles_and_goals(&c);
    if (!diag_too_many(diags)) {
        if (first_role == BASE_NONE)
            diag_error(diags, 0, "the game has no role: declare each player with a fact (role NAME)");
        static const GdlKeyword needed[] = {KW_TERMINAL, KW_LEGAL, KW_GOAL};
        for (size_t k = 0; k < sizeof needed / sizeof needed[0]; k++)
            if (!c.defined[needed[k]])
                diag_error(diags, 0, "no rule or fact defines '%s'", gdl_keyword_text[needed[k]]);
    }
    free(c.rel);
    free(c.fn);
    free(c.role);
    return diags->nerrors == before;
}
