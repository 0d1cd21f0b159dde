/*
 * ir.c: lowering the AST to the IR, and the checks that need the graph.
 *
 * Lowering one AST rule:
 *  1. Expand disjunctions. Each body literal has a list of alternatives, each
 *     a short list of flat literals (an `or` contributes the alternatives of
 *     its disjuncts). A rule is the product of its literals' alternatives;
 *     the product is capped at IR_MAX_EXPANSION.
 *  2. For each alternative: number the variables, order the body (see ir.h)
 *     and check safety. An unsafe variable is reported once per AST rule, at
 *     its first occurrence in the head, a negation or a distinct.
 *
 * After lowering, two graphs. The relation graph has an edge head -> body
 * relation for every positive or negated literal; its components say which
 * relations are recursive. The rule graph has an edge from a rule to every
 * rule whose head may unify with one of its body literals; stratification is
 * checked on it, so that (<= (goal ?r 0) (not (goal ?r 100))), which many
 * published games write, is stratified as its meaning is (no goal-100 rule
 * depends on a goal-0 fact). Tarjan's algorithm (iterative, so a long chain
 * cannot exhaust the C stack) finds components in reverse topological order,
 * which is dependencies first. Then, in that order:
 *  - a negative edge inside a rule component is unstratified negation; the
 *    error sits on the negated literal and names the cycle it closes;
 *  - legal, goal, terminal, init, base and input may not depend on does;
 *    init, base and input should not depend on true (a warning);
 *  - GDL's recursion restriction (a warning): in a rule whose head is in a
 *    recursive component, each argument of a body literal of the same
 *    component must be ground, an argument of the head, or an argument of a
 *    positive body literal outside the component;
 *  - relations used but never defined, or defined but never used (warnings).
 *
 * ir_analyse computes the same graphs, components and strata for a program
 * made otherwise (the grounder's, middle/ground.c), reporting nothing. A
 * ground program has relations of a million rules whose heads are atoms: a
 * literal there meets the rules of its own atom only (an index of heads by
 * hash), and the rule graph is factored through one node per atom, so that
 * its edges number literals plus rules, not literals times rules.
 */
#include "ir.h"

#include <string.h>

/* ---- lowering -------------------------------------------------------- */

typedef struct FlatLit {
    uint32_t kind; /* IrLitKind */
    uint32_t ast;  /* the AST literal (an atom or distinct) */
} FlatLit;

typedef VEC(FlatLit) FlatVec;

/* Alternatives of one body literal: alts[i] is a run of flat literals. */
typedef struct Alts {
    FlatVec lits;
    U32Vec start; /* start of each alternative in lits; one extra at the end */
} Alts;

typedef struct Lowerer {
    const Ast *ast;
    DiagList *diags;
    Ir *ir;
    uint32_t *var_of_sym; /* per symbol: variable number in the current rule */
    U32Vec vars;          /* symbols of the current rule's variables */
    uint32_t *rel_of_sym; /* per symbol: relation id */
    uint32_t *fn_of_sym;  /* per symbol: function id */
    U32Vec reported;      /* variable symbols reported unsafe in this AST rule */
} Lowerer;

static uint32_t rel_kind_of(GdlKeyword kw)
{
    switch (kw) {
    case KW_ROLE: return IR_REL_ROLE;
    case KW_INIT: return IR_REL_INIT;
    case KW_TRUE: return IR_REL_TRUE;
    case KW_DOES: return IR_REL_DOES;
    case KW_NEXT: return IR_REL_NEXT;
    case KW_LEGAL: return IR_REL_LEGAL;
    case KW_GOAL: return IR_REL_GOAL;
    case KW_TERMINAL: return IR_REL_TERMINAL;
    case KW_BASE: return IR_REL_BASE;
    case KW_INPUT: return IR_REL_INPUT;
    default: return IR_REL_USER;
    }
}

static uint32_t rel_get(Lowerer *lw, uint32_t sym, uint32_t arity)
{
    uint32_t id = lw->rel_of_sym[sym];
    if (id != BASE_NONE)
        return id;
    IrRel r = {.sym = sym, .arity = arity, .kind = rel_kind_of(ast_keyword(lw->ast, sym)),
               .def_off = BASE_NONE, .use_off = BASE_NONE};
    vec_push(lw->ir->rels, r);
    id = lw->ir->rels.n - 1;
    lw->rel_of_sym[sym] = id;
    if (r.kind != IR_REL_USER)
        lw->ir->kwrel[r.kind] = id;
    return id;
}

/* Appends n slots to an array and returns the first. */
static uint32_t reserve(U32Vec *v, uint32_t n)
{
    uint32_t at = v->n;
    vec_reserve(*v, at + n);
    v->n += n;
    return at;
}

static uint32_t lower_term(Lowerer *lw, uint32_t id)
{
    const AstTerm *t = &lw->ast->terms.v[id];
    IrTerm x = {.off = t->off};
    if (t->kind == AST_VAR) {
        x.kind = IR_VAR;
        if (lw->var_of_sym[t->sym] == BASE_NONE) {
            lw->var_of_sym[t->sym] = lw->vars.n;
            vec_push(lw->vars, t->sym);
        }
        x.val = lw->var_of_sym[t->sym];
    } else if (t->kind == AST_CONST || t->nargs == 0) {
        x.kind = IR_CONST;
        x.val = t->sym;
    } else {
        x.kind = IR_FN;
        uint32_t fn = lw->fn_of_sym[t->sym];
        if (fn == BASE_NONE) {
            vec_push(lw->ir->funcs, ((IrFunc){t->sym, t->nargs}));
            fn = lw->fn_of_sym[t->sym] = lw->ir->funcs.n - 1;
        }
        x.val = fn;
        x.nargs = t->nargs;
        x.args = reserve(&lw->ir->targs, t->nargs);
        for (uint32_t i = 0; i < t->nargs; i++) {
            uint32_t a = lower_term(lw, lw->ast->kids.v[t->args + i]);
            lw->ir->targs.v[x.args + i] = a;
        }
    }
    vec_push(lw->ir->terms, x);
    return lw->ir->terms.n - 1;
}

/* Lowers the argument terms of an AST atom or distinct into largs. */
static uint32_t lower_args(Lowerer *lw, const AstLit *l)
{
    uint32_t at = reserve(&lw->ir->largs, l->nargs);
    for (uint32_t i = 0; i < l->nargs; i++) {
        uint32_t a = lower_term(lw, lw->ast->kids.v[l->args + i]);
        lw->ir->largs.v[at + i] = a;
    }
    return at;
}

static void alts_free(Alts *a)
{
    vec_free(a->lits);
    vec_free(a->start);
}

/* The alternatives of one body literal, appended to out. */
static void collect_alts(const Lowerer *lw, uint32_t id, Alts *out)
{
    const AstLit *l = &lw->ast->lits.v[id];
    if (l->kind == AST_OR) {
        for (uint32_t i = 0; i < l->nargs; i++)
            collect_alts(lw, lw->ast->kids.v[l->args + i], out);
        return;
    }
    FlatLit f = {.ast = id};
    if (l->kind == AST_ATOM) {
        f.kind = IR_LIT_POS;
    } else if (l->kind == AST_DISTINCT) {
        f.kind = IR_LIT_DISTINCT;
    } else { /* AST_NOT of an atom or a distinct (validation ensured it) */
        f.ast = lw->ast->kids.v[l->args];
        f.kind = lw->ast->lits.v[f.ast].kind == AST_DISTINCT ? IR_LIT_EQUAL : IR_LIT_NEG;
    }
    vec_push(out->start, out->lits.n);
    vec_push(out->lits, f);
}

static bool var_bound(const uint8_t *bound, const Ir *ir, uint32_t term)
{
    const IrTerm *t = &ir->terms.v[term];
    if (t->kind == IR_VAR)
        return bound[t->val];
    for (uint32_t i = 0; t->kind == IR_FN && i < t->nargs; i++)
        if (!var_bound(bound, ir, ir->targs.v[t->args + i]))
            return false;
    return true;
}

static void bind_vars(uint8_t *bound, const Ir *ir, uint32_t term)
{
    const IrTerm *t = &ir->terms.v[term];
    if (t->kind == IR_VAR)
        bound[t->val] = 1;
    for (uint32_t i = 0; t->kind == IR_FN && i < t->nargs; i++)
        bind_vars(bound, ir, ir->targs.v[t->args + i]);
}

/* Reports the first unbound variable of a term, once per AST rule. */
static void report_unbound(Lowerer *lw, const uint8_t *bound, uint32_t term, const char *where)
{
    const IrTerm *t = &lw->ir->terms.v[term];
    if (t->kind == IR_FN) {
        for (uint32_t i = 0; i < t->nargs; i++)
            report_unbound(lw, bound, lw->ir->targs.v[t->args + i], where);
        return;
    }
    if (t->kind != IR_VAR || bound[t->val])
        return;
    uint32_t sym = lw->vars.v[t->val];
    for (uint32_t i = 0; i < lw->reported.n; i++)
        if (lw->reported.v[i] == sym)
            return;
    vec_push(lw->reported, sym);
    diag_error(lw->diags, t->off, "unsafe rule: the variable '%s' %s is not bound by any positive literal of the body",
               symtab_str(lw->ir->syms, sym), where);
}

/* Emits one expanded rule: the head and the chosen flat literals. */
static void emit_rule(Lowerer *lw, uint32_t ast_rule, const FlatLit *chosen, uint32_t n)
{
    Ir *ir = lw->ir;
    const AstRule *ar = &lw->ast->rules.v[ast_rule];
    const AstLit *head = &lw->ast->lits.v[ar->head];
    for (uint32_t i = 0; i < lw->vars.n; i++)
        lw->var_of_sym[lw->vars.v[i]] = BASE_NONE;
    lw->vars.n = 0;

    IrRule r = {.off = ar->off, .ast_rule = ast_rule, .nlits = n};
    r.head = rel_get(lw, head->sym, head->nargs);
    r.args = lower_args(lw, head);

    /* Lower each literal in source order first, so variables are numbered
     * in order of appearance; then order them. */
    IrLit *tmp = base_xmalloc((n + 1) * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++) {
        const AstLit *l = &lw->ast->lits.v[chosen[i].ast];
        tmp[i] = (IrLit){.kind = chosen[i].kind, .rel = BASE_NONE, .nargs = l->nargs, .off = l->off};
        if (chosen[i].kind == IR_LIT_POS || chosen[i].kind == IR_LIT_NEG) {
            tmp[i].rel = rel_get(lw, l->sym, l->nargs);
            IrRel *rel = &ir->rels.v[tmp[i].rel];
            if (rel->use_off == BASE_NONE)
                rel->use_off = l->off;
        }
        tmp[i].args = lower_args(lw, l);
    }
    r.nvars = lw->vars.n;
    r.varnames = ir->varsyms.n;
    for (uint32_t i = 0; i < lw->vars.n; i++)
        vec_push(ir->varsyms, lw->vars.v[i]);

    uint8_t *bound = base_xcalloc(r.nvars + 1, 1);
    uint8_t *placed = base_xcalloc(n + 1, 1);
    r.lits = ir->lits.n;
    for (uint32_t i = 0; i < n; i++) {
        if (tmp[i].kind != IR_LIT_POS)
            continue;
        /* Before each positive literal, place the filters whose variables
         * are already bound: they prune as early as possible. */
        for (uint32_t j = 0; j < n; j++) {
            if (placed[j] || tmp[j].kind == IR_LIT_POS)
                continue;
            bool ready = true;
            for (uint32_t k = 0; k < tmp[j].nargs && ready; k++)
                ready = var_bound(bound, ir, ir->largs.v[tmp[j].args + k]);
            if (ready) {
                vec_push(ir->lits, tmp[j]);
                placed[j] = 1;
            }
        }
        vec_push(ir->lits, tmp[i]);
        placed[i] = 1;
        for (uint32_t k = 0; k < tmp[i].nargs; k++)
            bind_vars(bound, ir, ir->largs.v[tmp[i].args + k]);
    }
    /* The remaining filters, and the safety check. */
    for (uint32_t j = 0; j < n; j++) {
        if (placed[j])
            continue;
        for (uint32_t k = 0; k < tmp[j].nargs; k++)
            report_unbound(lw, bound, ir->largs.v[tmp[j].args + k],
                           tmp[j].kind == IR_LIT_NEG ? "of a negated literal" : "of 'distinct'");
        vec_push(ir->lits, tmp[j]);
    }
    for (uint32_t k = 0; k < head->nargs; k++)
        report_unbound(lw, bound, ir->largs.v[r.args + k], "of the head");
    free(tmp);
    free(bound);
    free(placed);
    vec_push(ir->rules, r);
    IrRel *hr = &ir->rels.v[r.head];
    if (hr->def_off == BASE_NONE)
        hr->def_off = head->off;
}

static void lower_rule(Lowerer *lw, uint32_t ast_rule)
{
    const AstRule *ar = &lw->ast->rules.v[ast_rule];
    uint32_t n = ar->nbody;
    Alts *alts = base_xcalloc(n + 1, sizeof *alts);
    uint64_t product = 1;
    for (uint32_t i = 0; i < n; i++) {
        collect_alts(lw, lw->ast->kids.v[ar->body + i], &alts[i]);
        vec_push(alts[i].start, alts[i].lits.n);
        product *= alts[i].start.n - 1;
        if (product > IR_MAX_EXPANSION)
            break;
    }
    lw->reported.n = 0;
    if (product > IR_MAX_EXPANSION) {
        diag_error(lw->diags, ar->off, "expanding the disjunctions of this rule gives more than %d rules",
                   IR_MAX_EXPANSION);
    } else {
        uint32_t *idx = base_xcalloc(n + 1, sizeof *idx);
        FlatVec chosen = {0};
        for (;;) {
            chosen.n = 0;
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t k = alts[i].start.v[idx[i]]; k < alts[i].start.v[idx[i] + 1]; k++)
                    vec_push(chosen, alts[i].lits.v[k]);
            emit_rule(lw, ast_rule, chosen.v, chosen.n);
            uint32_t i = 0;
            while (i < n && ++idx[i] == alts[i].start.n - 1)
                idx[i++] = 0;
            if (i == n)
                break;
        }
        vec_free(chosen);
        free(idx);
    }
    for (uint32_t i = 0; i < n; i++)
        alts_free(&alts[i]);
    free(alts);
}

/* ---- the graphs ----------------------------------------------------- */

static const char *rel_name(const Ir *ir, uint32_t rel);

typedef struct Edge {
    uint32_t to;  /* body relation, or rule */
    uint32_t lit; /* the literal, in ir->lits */
    bool neg;
} Edge;

/* A graph in compressed rows: the edges of node v are edges[start[v] ..
 * start[v+1]). */
typedef struct Graph {
    uint32_t n;
    uint32_t *start;
    Edge *edges;
} Graph;

/* Adds the edge (or counts it, when g->edges is still NULL). */
static void graph_put(Graph *g, uint32_t *fill, uint32_t from, Edge e)
{
    if (!g->edges)
        g->start[from + 1]++;
    else
        g->edges[fill[from]++] = e;
}

static void graph_free(Graph *g)
{
    free(g->start);
    free(g->edges);
}

/* May the two terms unify? Conservative: false only on a clash of symbols
 * or functions at the same position (variables of the two sides are
 * distinct and their bindings are not tracked). */
static bool may_unify(const Ir *ir, uint32_t a, uint32_t b)
{
    const IrTerm *x = &ir->terms.v[a], *y = &ir->terms.v[b];
    if (x->kind == IR_VAR || y->kind == IR_VAR)
        return true;
    if (x->kind != y->kind || x->val != y->val || x->nargs != y->nargs)
        return false;
    for (uint32_t i = 0; x->kind == IR_FN && i < x->nargs; i++)
        if (!may_unify(ir, ir->targs.v[x->args + i], ir->targs.v[y->args + i]))
            return false;
    return true;
}

/* A hash of a term's structure: two terms written alike hash alike. */
static uint64_t term_hash(const Ir *ir, uint32_t t)
{
    const IrTerm *x = &ir->terms.v[t];
    uint64_t h = base_mix64(((uint64_t)x->kind << 32 | x->val) + 0x9e37);
    for (uint32_t i = 0; x->kind == IR_FN && i < x->nargs; i++)
        h = base_mix64(h ^ (term_hash(ir, ir->targs.v[x->args + i]) + i));
    return h;
}

static uint64_t args_hash(const Ir *ir, uint32_t args, uint32_t n)
{
    uint64_t h = 0x51;
    for (uint32_t a = 0; a < n; a++)
        h = base_mix64(h ^ (term_hash(ir, ir->largs.v[args + a]) + a));
    return h;
}

/* Rules of one relation by the hash of their ground heads, for a relation
 * with many rules all ground (a ground program, a long table of facts): a
 * ground literal then meets only the rules whose head it may equal, in
 * rule_index order, instead of every rule of the relation. */
typedef struct HeadIndex {
    uint32_t *slots;  /* per hash slot: first position in the relation's rules + 1 */
    uint32_t nslots;  /* a power of two, 0 when not indexed */
    uint32_t *next;   /* per position: the next position with the same slot + 1 */
} HeadIndex;

enum { HEAD_INDEX_MIN = 16 /* fewer rules are simply scanned */ };

static void head_index_build(const Ir *ir, uint32_t rel, HeadIndex *hx)
{
    const IrRel *R = &ir->rels.v[rel];
    memset(hx, 0, sizeof *hx);
    if (R->nrules < HEAD_INDEX_MIN)
        return;
    for (uint32_t k = 0; k < R->nrules; k++) {
        const IrRule *o = &ir->rules.v[ir->rule_index.v[R->rules + k]];
        for (uint32_t a = 0; a < R->arity; a++)
            if (!ir_term_ground(ir, ir->largs.v[o->args + a]))
                return;
    }
    uint32_t n = 16;
    while (n < R->nrules * 2)
        n *= 2;
    hx->nslots = n;
    hx->slots = base_xcalloc(n, sizeof *hx->slots);
    hx->next = base_xcalloc(R->nrules + 1, sizeof *hx->next);
    /* inserted last first, so that each chain runs in rule_index order */
    for (uint32_t k = R->nrules; k-- > 0;) {
        const IrRule *o = &ir->rules.v[ir->rule_index.v[R->rules + k]];
        uint32_t i = (uint32_t)args_hash(ir, o->args, R->arity) & (n - 1);
        hx->next[k] = hx->slots[i];
        hx->slots[i] = k + 1;
    }
}

/* Relation graph (rules_level false): head relation -> body relation.
 * Rule graph (true): rule -> each rule whose head may unify with one of its
 * body literals. Built in two passes: count, then fill. */
static void graph_build(const Ir *ir, Graph *g, bool rules_level)
{
    g->n = rules_level ? ir->rules.n : ir->rels.n;
    g->start = base_xcalloc(g->n + 2, sizeof *g->start);
    g->edges = NULL;
    uint32_t *fill = NULL;
    HeadIndex *hx = NULL;
    if (rules_level) {
        hx = base_xcalloc(ir->rels.n + 1, sizeof *hx);
        for (uint32_t r = 0; r < ir->rels.n; r++)
            head_index_build(ir, r, &hx[r]);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < ir->rules.n; i++) {
            const IrRule *r = &ir->rules.v[i];
            for (uint32_t j = 0; j < r->nlits; j++) {
                const IrLit *l = &ir->lits.v[r->lits + j];
                if (l->rel == BASE_NONE)
                    continue;
                Edge e = {l->rel, r->lits + j, l->kind == IR_LIT_NEG};
                if (!rules_level) {
                    graph_put(g, fill, r->head, e);
                    continue;
                }
                const IrRel *rel = &ir->rels.v[l->rel];
                const HeadIndex *x = &hx[l->rel];
                bool ground = x->nslots > 0;
                for (uint32_t a = 0; a < l->nargs && ground; a++)
                    ground = ir_term_ground(ir, ir->largs.v[l->args + a]);
                uint32_t k = 0, end = rel->nrules;
                if (ground) {
                    k = x->slots[(uint32_t)args_hash(ir, l->args, l->nargs) & (x->nslots - 1)];
                    k = k ? k - 1 : end;
                }
                while (k < end) {
                    uint32_t other = ir->rule_index.v[rel->rules + k];
                    const IrRule *o = &ir->rules.v[other];
                    bool unify = true;
                    for (uint32_t a = 0; a < l->nargs && unify; a++)
                        unify = may_unify(ir, ir->largs.v[l->args + a], ir->largs.v[o->args + a]);
                    if (unify) {
                        e.to = other;
                        graph_put(g, fill, i, e);
                    }
                    k = !ground ? k + 1 : x->next[k] ? x->next[k] - 1 : end;
                }
            }
        }
        if (pass == 0) {
            for (uint32_t v = 0; v < g->n; v++)
                g->start[v + 1] += g->start[v];
            g->edges = base_xmalloc((g->start[g->n] + 1) * sizeof *g->edges);
            fill = base_xmalloc((g->n + 1) * sizeof *fill);
            memcpy(fill, g->start, (g->n + 1) * sizeof *fill);
        }
    }
    free(fill);
    for (uint32_t r = 0; hx && r < ir->rels.n; r++) {
        free(hx[r].slots);
        free(hx[r].next);
    }
    free(hx);
}

/* The first rule position of the chain from k whose ground head is
 * written as the literal's arguments, or BASE_NONE. */
static uint32_t head_find(const Ir *ir, const IrRel *rel, const HeadIndex *x, uint32_t k, uint32_t args)
{
    for (; k != BASE_NONE; k = x->next[k] ? x->next[k] - 1 : BASE_NONE) {
        const IrRule *o = &ir->rules.v[ir->rule_index.v[rel->rules + k]];
        bool same = true;
        for (uint32_t a = 0; a < rel->arity && same; a++)
            same = ir_term_same(ir, ir->largs.v[args + a], ir->largs.v[o->args + a]);
        if (same)
            return k;
    }
    return BASE_NONE;
}

/* The rule graph of a program with many ground heads (a ground one),
 * factored: the rules of one relation with the same ground head form a
 * group, a node after the rules; a ground literal has one edge to the group
 * of its atom, the group one edge to each of its rules. Paths between rules,
 * and so components and strata, are those of graph_build's rule graph, but
 * the edges number literals plus rules instead of literals times rules. */
static void graph_build_factored(const Ir *ir, Graph *g)
{
    HeadIndex *hx = base_xcalloc(ir->rels.n + 1, sizeof *hx);
    uint32_t **group = base_xcalloc(ir->rels.n + 1, sizeof *group); /* per position: its group node */
    uint32_t n = ir->rules.n;
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        const IrRel *rel = &ir->rels.v[r];
        head_index_build(ir, r, &hx[r]);
        if (!hx[r].nslots)
            continue;
        group[r] = base_xmalloc((rel->nrules + 1) * sizeof *group[r]);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            const IrRule *o = &ir->rules.v[ir->rule_index.v[rel->rules + k]];
            uint32_t h = hx[r].slots[(uint32_t)args_hash(ir, o->args, rel->arity) & (hx[r].nslots - 1)] - 1;
            uint32_t j = head_find(ir, rel, &hx[r], h, o->args);
            group[r][k] = j == k ? n++ : group[r][j];
        }
    }
    g->n = n;
    g->start = base_xcalloc(g->n + 2, sizeof *g->start);
    g->edges = NULL;
    uint32_t *fill = NULL;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < ir->rules.n; i++) {
            const IrRule *r = &ir->rules.v[i];
            for (uint32_t j = 0; j < r->nlits; j++) {
                const IrLit *l = &ir->lits.v[r->lits + j];
                if (l->rel == BASE_NONE)
                    continue;
                Edge e = {l->rel, r->lits + j, l->kind == IR_LIT_NEG};
                const IrRel *rel = &ir->rels.v[l->rel];
                const HeadIndex *x = &hx[l->rel];
                bool ground = x->nslots > 0;
                for (uint32_t a = 0; a < l->nargs && ground; a++)
                    ground = ir_term_ground(ir, ir->largs.v[l->args + a]);
                if (ground) {
                    uint32_t h = x->slots[(uint32_t)args_hash(ir, l->args, l->nargs) & (x->nslots - 1)];
                    uint32_t k = head_find(ir, rel, x, h ? h - 1 : BASE_NONE, l->args);
                    if (k != BASE_NONE) {
                        e.to = group[l->rel][k];
                        graph_put(g, fill, i, e);
                    }
                    continue;
                }
                for (uint32_t k = 0; k < rel->nrules; k++) {
                    uint32_t other = ir->rule_index.v[rel->rules + k];
                    const IrRule *o = &ir->rules.v[other];
                    bool unify = true;
                    for (uint32_t a = 0; a < l->nargs && unify; a++)
                        unify = may_unify(ir, ir->largs.v[l->args + a], ir->largs.v[o->args + a]);
                    if (unify) {
                        e.to = other;
                        graph_put(g, fill, i, e);
                    }
                }
            }
        }
        /* each group to its rules */
        for (uint32_t r = 0; r < ir->rels.n; r++)
            for (uint32_t k = 0; group[r] && k < ir->rels.v[r].nrules; k++) {
                Edge e = {ir->rule_index.v[ir->rels.v[r].rules + k], BASE_NONE, false};
                graph_put(g, fill, group[r][k], e);
            }
        if (pass == 0) {
            for (uint32_t v = 0; v < g->n; v++)
                g->start[v + 1] += g->start[v];
            g->edges = base_xmalloc((g->start[g->n] + 1) * sizeof *g->edges);
            fill = base_xmalloc((g->n + 1) * sizeof *fill);
            memcpy(fill, g->start, (g->n + 1) * sizeof *fill);
        }
    }
    free(fill);
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        free(hx[r].slots);
        free(hx[r].next);
        free(group[r]);
    }
    free(hx);
    free(group);
}

/* Iterative Tarjan: comp[v] gets the component of each node, numbered so
 * that a component comes after every component it reaches (dependencies
 * first); members[] lists the nodes grouped by component, first[c] where
 * component c starts. Returns the number of components. */
static uint32_t tarjan(const Graph *g, uint32_t *comp, uint32_t *members, uint32_t *first)
{
    uint32_t n = g->n;
    uint32_t *index = base_xmalloc((n + 1) * sizeof *index);
    uint32_t *low = base_xmalloc((n + 1) * sizeof *low);
    uint8_t *on_stack = base_xcalloc(n + 1, 1);
    uint32_t *stack = base_xmalloc((n + 1) * sizeof *stack);
    uint32_t *call = base_xmalloc((n + 1) * sizeof *call); /* the DFS path */
    uint32_t *next_edge = base_xmalloc((n + 1) * sizeof *next_edge);
    uint32_t sp = 0, counter = 0, ncomp = 0, nmem = 0;
    for (uint32_t i = 0; i < n; i++)
        index[i] = BASE_NONE;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != BASE_NONE)
            continue;
        uint32_t depth = 0;
        call[depth++] = root;
        index[root] = low[root] = counter++;
        next_edge[root] = g->start[root];
        stack[sp++] = root;
        on_stack[root] = 1;
        while (depth) {
            uint32_t v = call[depth - 1];
            if (next_edge[v] < g->start[v + 1]) {
                uint32_t w = g->edges[next_edge[v]++].to;
                if (index[w] == BASE_NONE) {
                    index[w] = low[w] = counter++;
                    next_edge[w] = g->start[w];
                    stack[sp++] = w;
                    on_stack[w] = 1;
                    call[depth++] = w;
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            depth--;
            if (depth && low[v] < low[call[depth - 1]])
                low[call[depth - 1]] = low[v];
            if (low[v] != index[v])
                continue;
            first[ncomp] = nmem;
            uint32_t w;
            do {
                w = stack[--sp];
                on_stack[w] = 0;
                comp[w] = ncomp;
                members[nmem++] = w;
            } while (w != v);
            ncomp++;
        }
    }
    first[ncomp] = nmem;
    free(index);
    free(low);
    free(on_stack);
    free(stack);
    free(call);
    free(next_edge);
    return ncomp;
}

static void find_sccs(Ir *ir, const Graph *g)
{
    uint32_t nr = ir->rels.n;
    uint32_t *comp = base_xmalloc((nr + 1) * sizeof *comp);
    uint32_t *members = base_xmalloc((nr + 1) * sizeof *members);
    uint32_t *first = base_xmalloc((nr + 2) * sizeof *first);
    uint32_t nc = tarjan(g, comp, members, first);
    for (uint32_t c = 0; c < nc; c++) {
        IrScc s = {.rels = first[c], .nrels = first[c + 1] - first[c]};
        vec_push(ir->sccs, s);
    }
    for (uint32_t i = 0; i < nr; i++) {
        vec_push(ir->scc_rels, members[i]);
        ir->rels.v[i].scc = comp[i];
    }
    /* A component is recursive when it has an edge inside itself. */
    for (uint32_t r = 0; r < nr; r++)
        for (uint32_t e = g->start[r]; e < g->start[r + 1]; e++)
            if (comp[g->edges[e].to] == comp[r])
                ir->sccs.v[comp[r]].recursive = true;
    free(comp);
    free(members);
    free(first);
}

static const char *rel_name(const Ir *ir, uint32_t rel)
{
    return symtab_str(ir->syms, ir->rels.v[rel].sym);
}

/* The relations along a shortest path of rules from `from` to `to` within
 * one rule component, appended to *buf as " -> name". */
static void cycle_path(const Ir *ir, const Graph *g, const uint32_t *comp, uint32_t from, uint32_t to, char **buf)
{
    uint32_t n = g->n;
    uint32_t *prev = base_xmalloc((n + 1) * sizeof *prev);
    uint32_t *queue = base_xmalloc((n + 1) * sizeof *queue);
    for (uint32_t i = 0; i < n; i++)
        prev[i] = BASE_NONE;
    uint32_t qh = 0, qt = 0;
    queue[qt++] = from;
    prev[from] = from;
    while (qh < qt && prev[to] == BASE_NONE) {
        uint32_t v = queue[qh++];
        for (uint32_t e = g->start[v]; e < g->start[v + 1]; e++) {
            uint32_t w = g->edges[e].to;
            if (prev[w] == BASE_NONE && comp[w] == comp[from]) {
                prev[w] = v;
                queue[qt++] = w;
            }
        }
    }
    uint32_t len = 0;
    for (uint32_t v = to; v != from && prev[v] != BASE_NONE; v = prev[v])
        queue[len++] = v;
    for (uint32_t i = len; i-- > 0;) {
        char *s = base_sprintf("%s -> %s", *buf, rel_name(ir, ir->rules.v[queue[i]].head));
        free(*buf);
        *buf = s;
    }
    free(prev);
    free(queue);
}

/* Stratification over the rule graph: a negated literal may not sit in a
 * cycle (reported in diags, unless NULL: a factored graph has group nodes,
 * which a reported path cannot name). A relation's stratum is the highest
 * stratum of its rules. */
static void compute_strata(Ir *ir, DiagList *diags, bool factored)
{
    Graph g;
    if (factored)
        graph_build_factored(ir, &g);
    else
        graph_build(ir, &g, true);
    uint32_t n = g.n;
    uint32_t *comp = base_xmalloc((n + 1) * sizeof *comp);
    uint32_t *members = base_xmalloc((n + 1) * sizeof *members);
    uint32_t *first = base_xmalloc((n + 2) * sizeof *first);
    uint32_t *stratum = base_xcalloc(n + 2, sizeof *stratum);
    uint32_t nc = tarjan(&g, comp, members, first);
    uint32_t reported = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint32_t st = 0;
        for (uint32_t m = first[c]; m < first[c + 1]; m++) {
            uint32_t v = members[m];
            for (uint32_t e = g.start[v]; e < g.start[v + 1]; e++) {
                const Edge *ed = &g.edges[e];
                if (comp[ed->to] != c) {
                    uint32_t need = stratum[comp[ed->to]] + (ed->neg ? 1 : 0);
                    if (need > st)
                        st = need;
                } else if (ed->neg && diags && reported < 8) {
                    reported++;
                    char *path = base_sprintf("%s -> not %s", rel_name(ir, ir->rules.v[v].head),
                                              rel_name(ir, ir->rules.v[ed->to].head));
                    cycle_path(ir, &g, comp, ed->to, v, &path);
                    diag_error(diags, ir->lits.v[ed->lit].off,
                               "unstratified negation: this negation closes the cycle %s", path);
                    free(path);
                }
            }
        }
        stratum[c] = st;
    }
    for (uint32_t i = 0; i < ir->rules.n; i++) {
        IrRel *rel = &ir->rels.v[ir->rules.v[i].head];
        ir->rules.v[i].stratum = stratum[comp[i]];
        if (stratum[comp[i]] > rel->stratum)
            rel->stratum = stratum[comp[i]];
        if (rel->stratum + 1 > ir->nstrata)
            ir->nstrata = rel->stratum + 1;
    }
    if (!ir->nstrata)
        ir->nstrata = 1;
    free(comp);
    free(members);
    free(first);
    free(stratum);
    graph_free(&g);
}

/* Dependence on true and does, components in dependency order. */
static void compute_dependence(Ir *ir, const Graph *g)
{
    for (uint32_t s = 0; s < ir->sccs.n; s++) {
        IrScc *scc = &ir->sccs.v[s];
        bool dep_true = false, dep_does = false;
        for (uint32_t i = 0; i < scc->nrels; i++) {
            uint32_t r = ir->scc_rels.v[scc->rels + i];
            dep_true |= ir->rels.v[r].kind == IR_REL_TRUE;
            dep_does |= ir->rels.v[r].kind == IR_REL_DOES;
            for (uint32_t e = g->start[r]; e < g->start[r + 1]; e++) {
                dep_true |= ir->rels.v[g->edges[e].to].dep_true;
                dep_does |= ir->rels.v[g->edges[e].to].dep_does;
            }
        }
        uint32_t st = 0;
        for (uint32_t i = 0; i < scc->nrels; i++) {
            IrRel *rel = &ir->rels.v[ir->scc_rels.v[scc->rels + i]];
            rel->dep_true = dep_true;
            rel->dep_does = dep_does;
            if (rel->stratum > st)
                st = rel->stratum;
        }
        scc->stratum = st;
    }
}

/* The path of relations from r down to does (or true), and the literal of
 * r's rules where it starts. */
static char *dependence_path(const Ir *ir, const Graph *g, uint32_t r, bool on_does, uint32_t *first_lit)
{
    char *path = base_xstrdup(rel_name(ir, r));
    uint32_t at = r, target = on_does ? IR_REL_DOES : IR_REL_TRUE;
    *first_lit = BASE_NONE;
    for (uint32_t steps = 0; ir->rels.v[at].kind != target && steps <= ir->rels.n; steps++) {
        uint32_t next = BASE_NONE;
        for (uint32_t e = g->start[at]; e < g->start[at + 1] && next == BASE_NONE; e++) {
            const IrRel *to = &ir->rels.v[g->edges[e].to];
            if ((on_does ? to->dep_does : to->dep_true) && g->edges[e].to != at) {
                next = g->edges[e].to;
                if (*first_lit == BASE_NONE)
                    *first_lit = g->edges[e].lit;
            }
        }
        if (next == BASE_NONE)
            break;
        char *s = base_sprintf("%s -> %s", path, rel_name(ir, next));
        free(path);
        path = s;
        at = next;
    }
    return path;
}

/* legal, goal, terminal, init, base and input must not depend on does
 * (an error); init, base and input should not depend on the state either
 * (a warning: play never needs base and input, and init is evaluated with
 * no state, so such a literal is simply false there). */
static void check_dependence(const Ir *ir, const Graph *g, DiagList *diags)
{
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        const IrRel *rel = &ir->rels.v[r];
        bool stateless = rel->kind == IR_REL_INIT || rel->kind == IR_REL_BASE || rel->kind == IR_REL_INPUT;
        bool restricted = stateless || rel->kind == IR_REL_LEGAL || rel->kind == IR_REL_GOAL ||
                          rel->kind == IR_REL_TERMINAL;
        uint32_t lit;
        if (restricted && rel->dep_does) {
            char *path = dependence_path(ir, g, r, true, &lit);
            diag_error(diags, lit != BASE_NONE ? ir->lits.v[lit].off : rel->def_off,
                       "'%s' cannot depend on 'does': %s", rel_name(ir, r), path);
            free(path);
        } else if (stateless && rel->dep_true) {
            char *path = dependence_path(ir, g, r, false, &lit);
            diag_warning(diags, lit != BASE_NONE ? ir->lits.v[lit].off : rel->def_off,
                         "'%s' should not depend on the state: %s", rel_name(ir, r), path);
            free(path);
        }
    }
}

bool ir_term_same(const Ir *ir, uint32_t a, uint32_t b)
{
    const IrTerm *x = &ir->terms.v[a], *y = &ir->terms.v[b];
    if (x->kind != y->kind || x->val != y->val || x->nargs != y->nargs)
        return false;
    for (uint32_t i = 0; x->kind == IR_FN && i < x->nargs; i++)
        if (!ir_term_same(ir, ir->targs.v[x->args + i], ir->targs.v[y->args + i]))
            return false;
    return true;
}

bool ir_term_ground(const Ir *ir, uint32_t t)
{
    const IrTerm *x = &ir->terms.v[t];
    if (x->kind == IR_VAR)
        return false;
    for (uint32_t i = 0; x->kind == IR_FN && i < x->nargs; i++)
        if (!ir_term_ground(ir, ir->targs.v[x->args + i]))
            return false;
    return true;
}

static void check_recursion_restriction(const Ir *ir, DiagList *diags)
{
    uint32_t last_ast_rule = BASE_NONE;
    for (uint32_t ri = 0; ri < ir->rules.n; ri++) {
        const IrRule *r = &ir->rules.v[ri];
        uint32_t scc = ir->rels.v[r->head].scc;
        if (!ir->sccs.v[scc].recursive || r->ast_rule == last_ast_rule)
            continue;
        for (uint32_t j = 0; j < r->nlits; j++) {
            const IrLit *l = &ir->lits.v[r->lits + j];
            if (l->kind != IR_LIT_POS || ir->rels.v[l->rel].scc != scc)
                continue;
            for (uint32_t a = 0; a < l->nargs; a++) {
                uint32_t t = ir->largs.v[l->args + a];
                bool ok = ir_term_ground(ir, t);
                for (uint32_t h = 0; !ok && h < ir->rels.v[r->head].arity; h++)
                    ok = ir_term_same(ir, t, ir->largs.v[r->args + h]);
                for (uint32_t k = 0; !ok && k < r->nlits; k++) {
                    const IrLit *m = &ir->lits.v[r->lits + k];
                    if (m->kind != IR_LIT_POS || ir->rels.v[m->rel].scc == scc)
                        continue;
                    for (uint32_t b = 0; !ok && b < m->nargs; b++)
                        ok = ir_term_same(ir, t, ir->largs.v[m->args + b]);
                }
                if (!ok) {
                    diag_warning(diags, ir->terms.v[t].off,
                                 "this argument of the recursive literal '%s' breaks GDL's recursion restriction: it is "
                                 "not ground, not an argument of the head, and not an argument of a positive literal "
                                 "outside the recursion",
                                 rel_name(ir, l->rel));
                    last_ast_rule = r->ast_rule;
                    break;
                }
            }
            if (last_ast_rule == r->ast_rule)
                break;
        }
    }
}

static void check_usage(const Ir *ir, DiagList *diags)
{
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        const IrRel *rel = &ir->rels.v[r];
        if (rel->kind != IR_REL_USER)
            continue;
        if (rel->nrules == 0 && rel->use_off != BASE_NONE)
            diag_warning(diags, rel->use_off, "the relation '%s' is used but never defined, so it is always false",
                         rel_name(ir, r));
        else if (rel->nrules > 0 && rel->use_off == BASE_NONE)
            diag_warning(diags, rel->def_off, "the relation '%s' is defined but never used", rel_name(ir, r));
    }
}

/* Rules grouped by head relation, in rule order. */
static void index_rules(Ir *ir)
{
    for (uint32_t i = 0; i < ir->rules.n; i++)
        ir->rels.v[ir->rules.v[i].head].nrules++;
    uint32_t at = 0;
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        ir->rels.v[r].rules = at;
        at += ir->rels.v[r].nrules;
        ir->rels.v[r].nrules = 0;
    }
    vec_reserve(ir->rule_index, at + 1);
    ir->rule_index.n = at;
    for (uint32_t i = 0; i < ir->rules.n; i++) {
        IrRel *rel = &ir->rels.v[ir->rules.v[i].head];
        ir->rule_index.v[rel->rules + rel->nrules++] = i;
    }
}

void ir_analyse(Ir *ir)
{
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        IrRel *rel = &ir->rels.v[r];
        rel->rules = rel->nrules = rel->scc = rel->stratum = 0;
        rel->dep_true = rel->dep_does = false;
    }
    ir->rule_index.n = 0;
    ir->sccs.n = 0;
    ir->scc_rels.n = 0;
    ir->nstrata = 0;
    index_rules(ir);
    Graph g;
    graph_build(ir, &g, false);
    find_sccs(ir, &g);
    compute_strata(ir, NULL, true);
    compute_dependence(ir, &g);
    graph_free(&g);
}

bool ir_lower(const Ast *ast, DiagList *diags, Ir *ir)
{
    memset(ir, 0, sizeof *ir);
    ir->syms = ast->syms;
    ir->src = diags->src;
    uint32_t before = diags->nerrors;
    for (int k = 0; k <= IR_REL_INPUT; k++)
        ir->kwrel[k] = BASE_NONE;
    Lowerer lw = {.ast = ast, .diags = diags, .ir = ir};
    uint32_t ns = ast->syms->n;
    lw.var_of_sym = base_xmalloc((ns + 1) * sizeof(uint32_t));
    lw.rel_of_sym = base_xmalloc((ns + 1) * sizeof(uint32_t));
    lw.fn_of_sym = base_xmalloc((ns + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < ns; i++)
        lw.var_of_sym[i] = lw.rel_of_sym[i] = lw.fn_of_sym[i] = BASE_NONE;
    /* The keyword relations exist even when unused, so engines can rely on them. */
    static const GdlKeyword kws[] = {KW_ROLE, KW_INIT, KW_TRUE, KW_DOES, KW_NEXT, KW_LEGAL, KW_GOAL, KW_TERMINAL};
    for (size_t k = 0; k < sizeof kws / sizeof kws[0]; k++)
        rel_get(&lw, ast->kw[kws[k]], (uint32_t)gdl_keyword_arity[kws[k]]);
    for (uint32_t i = 0; i < ast->rules.n && !diag_too_many(diags); i++)
        lower_rule(&lw, i);
    free(lw.var_of_sym);
    free(lw.rel_of_sym);
    free(lw.fn_of_sym);
    vec_free(lw.vars);
    vec_free(lw.reported);

    index_rules(ir);
    /* Roles, in declaration order. */
    uint32_t role = ir->kwrel[IR_REL_ROLE];
    for (uint32_t i = 0; i < ir->rels.v[role].nrules; i++) {
        const IrRule *r = &ir->rules.v[ir->rule_index.v[ir->rels.v[role].rules + i]];
        const IrTerm *t = &ir->terms.v[ir->largs.v[r->args]];
        bool dup = false;
        for (uint32_t k = 0; k < ir->roles.n; k++)
            dup |= ir->roles.v[k] == t->val;
        if (t->kind != IR_CONST)
            diag_error(diags, t->off, "a role must be a constant");
        else if (dup)
            diag_error(diags, t->off, "the role '%s' is declared twice", symtab_str(ir->syms, t->val));
        else
            vec_push(ir->roles, t->val);
    }
    if (diags->nerrors != before)
        return false;

    Graph g;
    graph_build(ir, &g, false);
    find_sccs(ir, &g);
    compute_strata(ir, diags, false);
    compute_dependence(ir, &g);
    check_dependence(ir, &g, diags);
    check_recursion_restriction(ir, diags);
    check_usage(ir, diags);
    graph_free(&g);
    return diags->nerrors == before;
}

void ir_free(Ir *ir)
{
    vec_free(ir->terms);
    vec_free(ir->targs);
    vec_free(ir->funcs);
    vec_free(ir->lits);
    vec_free(ir->largs);
    vec_free(ir->rules);
    vec_free(ir->varsyms);
    vec_free(ir->rels);
    vec_free(ir->rule_index);
    vec_free(ir->sccs);
    vec_free(ir->scc_rels);
    vec_free(ir->roles);
}

uint32_t ir_rel_find(const Ir *ir, const char *name)
{
    uint32_t sym = symtab_find(ir->syms, name, strlen(name));
    for (uint32_t r = 0; sym != BASE_NONE && r < ir->rels.n; r++)
        if (ir->rels.v[r].sym == sym)
            return r;
    return BASE_NONE;
}

/* ---- printing -------------------------------------------------------- */

void ir_print_term(FILE *f, const Ir *ir, const IrRule *r, uint32_t id)
{
    const IrTerm *t = &ir->terms.v[id];
    switch (t->kind) {
    case IR_VAR:
        fputs(symtab_str(ir->syms, ir->varsyms.v[r->varnames + t->val]), f);
        return;
    case IR_CONST:
        fputs(symtab_str(ir->syms, t->val), f);
        return;
    default:
        fprintf(f, "(%s", symtab_str(ir->syms, ir->funcs.v[t->val].sym));
        for (uint32_t i = 0; i < t->nargs; i++) {
            fputc(' ', f);
            ir_print_term(f, ir, r, ir->targs.v[t->args + i]);
        }
        fputc(')', f);
    }
}

static void print_atom(FILE *f, const Ir *ir, const IrRule *r, const char *name, uint32_t args, uint32_t nargs)
{
    if (!nargs) {
        fputs(name, f);
        return;
    }
    fprintf(f, "(%s", name);
    for (uint32_t i = 0; i < nargs; i++) {
        fputc(' ', f);
        ir_print_term(f, ir, r, ir->largs.v[args + i]);
    }
    fputc(')', f);
}

void ir_print_rule(FILE *f, const Ir *ir, uint32_t rule)
{
    const IrRule *r = &ir->rules.v[rule];
    const IrRel *h = &ir->rels.v[r->head];
    print_atom(f, ir, r, rel_name(ir, r->head), r->args, h->arity);
    for (uint32_t i = 0; i < r->nlits; i++) {
        const IrLit *l = &ir->lits.v[r->lits + i];
        fputs(i ? ", " : " :- ", f);
        switch (l->kind) {
        case IR_LIT_NEG: fputs("not ", f); /* fall through */
        case IR_LIT_POS: print_atom(f, ir, r, rel_name(ir, l->rel), l->args, l->nargs); break;
        case IR_LIT_DISTINCT: print_atom(f, ir, r, "distinct", l->args, 2); break;
        case IR_LIT_EQUAL: print_atom(f, ir, r, "=", l->args, 2); break;
        }
    }
}

void ir_dump(FILE *f, const Ir *ir)
{
    static const char *kinds[] = {"user", "role", "init", "true", "does", "next",
                                  "legal", "goal", "terminal", "base", "input"};
    fprintf(f, "roles:");
    for (uint32_t i = 0; i < ir->roles.n; i++)
        fprintf(f, " %s", symtab_str(ir->syms, ir->roles.v[i]));
    fprintf(f, "\nrelations:\n");
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        const IrRel *rel = &ir->rels.v[r];
        fprintf(f, "  %s/%u %s scc=%u stratum=%u rules=%u%s%s\n", rel_name(ir, r), rel->arity, kinds[rel->kind],
                rel->scc, rel->stratum, rel->nrules, rel->dep_true ? " dep-true" : "",
                rel->dep_does ? " dep-does" : "");
    }
    fprintf(f, "functions:\n");
    for (uint32_t i = 0; i < ir->funcs.n; i++)
        fprintf(f, "  %s/%u\n", symtab_str(ir->syms, ir->funcs.v[i].sym), ir->funcs.v[i].arity);
    fprintf(f, "rules:\n");
    for (uint32_t i = 0; i < ir->rules.n; i++) {
        uint32_t line, col;
        source_linecol(ir->src, ir->rules.v[i].off, &line, &col);
        fprintf(f, "  r%u @%u:%u  ", i, line, col);
        ir_print_rule(f, ir, i);
        fputc('\n', f);
    }
    fprintf(f, "components (dependencies first):\n");
    for (uint32_t s = 0; s < ir->sccs.n; s++) {
        const IrScc *scc = &ir->sccs.v[s];
        fprintf(f, "  scc %u stratum=%u%s {", s, scc->stratum, scc->recursive ? " recursive" : "");
        for (uint32_t i = 0; i < scc->nrels; i++)
            fprintf(f, "%s%s", i ? " " : "", rel_name(ir, ir->scc_rels.v[scc->rels + i]));
        fprintf(f, "}\n");
    }
    fprintf(f, "strata: %u\n", ir->nstrata);
}
