/*
 * plan.c: decides the code of a game before cg.c prints it (see plan.h).
 *
 * Reach: the root queries are registered, then every rule of every query,
 * in query order, is planned for the query's binding pattern: its join
 * order (join_order()), then its literals in that order, each registering
 * the query or the fact set index it reads, until no new query appears.
 * The bindings follow the code that will be printed: a head position the
 * caller binds, and a free position of a literal once it is matched, bind
 * their variables, except a variable used once in the rule (a don't-care,
 * never bound). Numbers are given in the order they are first met, which
 * is the order cg.c prints in.
 *
 * Reaching is done twice. A test with every position bound is cheapest as
 * a lookup in the relation's table for fewer bound positions when that
 * table is asked for anyway (subsumer()); which tables are asked for is
 * known only once the queries are reached, and reading them changes which
 * queries are. So the first reach, without that substitution, lists the
 * tables; the second, the plan kept, lets tests read them.
 */
#include "plan.h"

#include <inttypes.h>
#include <string.h>

uint32_t cg_rel_level(const Ir *ir, uint32_t rel)
{
    const IrRel *r = &ir->rels.v[rel];
    return r->dep_does ? 2 : r->dep_true ? 1 : 0;
}

static uint32_t q_ix(CgPlan *p, uint32_t rel, uint64_t mask, bool exists)
{
    /* a relation has few patterns: look through its own */
    for (uint32_t i = p->qfirst[rel]; i; i = p->qnext.v[i - 1])
        if (p->qs.v[i - 1].mask == mask && p->qs.v[i - 1].exists == exists)
            return i - 1;
    vec_push(p->qs, ((CgQ){rel, mask, exists}));
    vec_push(p->qnext, p->qfirst[rel]);
    p->qfirst[rel] = p->qs.n;
    return p->qs.n - 1;
}

static uint32_t fs_ix(CgPlan *p, uint32_t kind, uint32_t sym, uint32_t sarity, uint32_t rel, uint32_t arity)
{
    for (uint32_t i = 0; i < p->fs.n; i++) {
        CgFs *s = &p->fs.v[i];
        if (s->kind == kind && s->sym == sym && s->sarity == sarity && s->rel == rel)
            return i;
    }
    /* A state fact's set keeps the fact's own id after its arguments. */
    uint32_t width = kind == FS_TRUE && sym != BASE_NONE ? arity + 1 : arity;
    CgFs s = {kind, sym, sarity, rel, width, kind == FS_TRUE ? 1 : kind == FS_DOES ? 2 : 0, {0}};
    vec_push(p->fs, s);
    return p->fs.n - 1;
}

static uint32_t fs_slot(CgPlan *p, uint32_t fs, uint64_t mask)
{
    CgFs *s = &p->fs.v[fs];
    for (uint32_t i = 0; i < s->masks.n; i++)
        if (s->masks.v[i] == mask)
            return i;
    vec_push(s->masks, mask);
    return s->masks.n - 1;
}

/* ---- relations given by facts ------------------------------------------- */

static bool rule_fact(const Ir *ir, uint32_t rule) { return ir->rules.v[rule].nlits == 0; }

static void classify(CgPlan *p)
{
    const Ir *ir = p->ir;
    for (uint32_t i = 0; i < ir->rels.n; i++) {
        const IrRel *r = &ir->rels.v[i];
        if (r->kind != IR_REL_USER && r->kind != IR_REL_ROLE && r->kind != IR_REL_BASE && r->kind != IR_REL_INPUT)
            continue;
        bool only = true;
        for (uint32_t k = 0; k < r->nrules && only; k++)
            only = rule_fact(ir, ir->rule_index.v[r->rules + k]);
        p->facts_only[i] = only || (p->pre && p->pre[i]);
    }
}

static uint32_t hash_u32s(const uint32_t *v, uint32_t n, uint64_t mask)
{
    uint64_t h = 0;
    for (uint32_t i = 0; i < n; i++)
        if (mask >> i & 1)
            h = (h + v[i] + 1) * 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(h >> 32 ^ h >> 7);
}

enum { FUNCTIONAL_MAX_FACTS = 1u << 20, FUNCTIONAL_MAX_WRITTEN = 2048 };

/* The facts of a relation given by facts as tuples of ids that are equal
 * exactly when the terms are: answers evaluated ahead are terms of one
 * store already (read in place); facts written in the game are numbered by
 * comparing terms. NULL when there are too many to look at. */
static const uint32_t *fact_tuples(CgPlan *p, uint32_t rel, uint32_t *n)
{
    const Ir *ir = p->ir;
    uint32_t ar = ir->rels.v[rel].arity;
    const U32Vec *pre = p->pre ? p->pre[rel] : NULL;
    static const uint32_t no_facts[1];
    if (pre) {
        *n = ar ? pre->n / ar : pre->n;
        if (!ar || *n > FUNCTIONAL_MAX_FACTS)
            return NULL;
        return pre->n ? pre->v : no_facts;
    }
    if (!p->fdone[rel]) {
        p->fdone[rel] = true;
        const IrRel *r = &ir->rels.v[rel];
        if (r->nrules <= FUNCTIONAL_MAX_WRITTEN && ar) {
            U32Vec seen = {0};
            uint32_t *t = base_xmalloc((size_t)r->nrules * ar * sizeof(uint32_t) + 1);
            for (uint32_t k = 0; k < r->nrules; k++) {
                const IrRule *f = &ir->rules.v[ir->rule_index.v[r->rules + k]];
                for (uint32_t i = 0; i < ar; i++) {
                    uint32_t term = ir->largs.v[f->args + i], id = 0;
                    while (id < seen.n && !ir_term_same(ir, seen.v[id], term))
                        id++;
                    if (id == seen.n)
                        vec_push(seen, term);
                    t[(size_t)k * ar + i] = id;
                }
            }
            vec_free(seen);
            p->ftup[rel] = t;
            p->fnum[rel] = r->nrules;
        }
    }
    *n = p->fnum[rel];
    return p->ftup[rel];
}

/* Do the positions of mask determine the others among the facts of rel
 * (at most one fact per key, repeated facts aside)? */
static bool functional(CgPlan *p, uint32_t rel, uint64_t mask)
{
    for (uint32_t i = 0; i < p->fmemo.n; i++)
        if (p->fmemo.v[i].rel == rel && p->fmemo.v[i].mask == mask)
            return p->fmemo.v[i].exists;
    uint32_t n = 0, ar = p->ir->rels.v[rel].arity;
    const uint32_t *t = fact_tuples(p, rel, &n);
    bool ok = t != NULL;
    if (ok) {
        uint32_t want = 16;
        while (want < n * 2 + 2)
            want *= 2;
        uint32_t *slot = base_xcalloc(want, sizeof *slot);
        for (uint32_t f = 0; f < n && ok; f++) {
            const uint32_t *a = t + (size_t)f * ar;
            uint32_t i = hash_u32s(a, ar, mask) & (want - 1);
            for (;; i = (i + 1) & (want - 1)) {
                if (!slot[i]) {
                    slot[i] = f + 1;
                    break;
                }
                const uint32_t *b = t + (size_t)(slot[i] - 1) * ar;
                bool same_key = true, same = true;
                for (uint32_t k = 0; k < ar; k++) {
                    if (a[k] != b[k]) {
                        same = false;
                        if (mask >> k & 1)
                            same_key = false;
                    }
                }
                if (same_key) {
                    ok = same;
                    break;
                }
            }
        }
        free(slot);
    }
    vec_push(p->fmemo, ((CgQ){rel, mask, ok}));
    return ok;
}

/* ---- join order ----------------------------------------------------------- */

/* Whether every variable of t is marked in b; with set, marks them too. */
static bool vars_in(const Ir *ir, uint32_t t, bool *b, bool set)
{
    const IrTerm *p = &ir->terms.v[t];
    if (p->kind == IR_VAR) {
        bool was = b[p->val];
        if (set)
            b[p->val] = true;
        return was;
    }
    bool all = true;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        all &= vars_in(ir, ir->targs.v[p->args + i], b, set);
    return all;
}

/* May literal l be joined now, before literals written ahead of it? When
 * it only filters (every variable bound: a test, a negation, distinct), or
 * when it is a relation given by facts whose bound positions determine the
 * rest (at most one answer: it never multiplies the loops after it). Calls
 * into the rule's own recursive component keep their place. */
static bool eager(CgPlan *p, const IrRule *r, const IrLit *l, bool *b)
{
    const Ir *ir = p->ir;
    const uint32_t *args = u32_at(&ir->largs, l->args);
    uint64_t mask = 0;
    for (uint32_t i = 0; i < l->nargs; i++)
        if (vars_in(ir, args[i], b, false))
            mask |= 1ULL << i;
    bool all = mask == cg_full_mask(l->nargs);
    if (l->kind != IR_LIT_POS)
        return all;
    const IrRel *rel = &ir->rels.v[l->rel], *head = &ir->rels.v[r->head];
    if (rel->kind == IR_REL_TRUE || rel->kind == IR_REL_DOES)
        return all;
    if (p->facts_only[l->rel])
        return all || functional(p, l->rel, mask);
    return all && !(rel->scc == head->scc && ir->sccs.v[head->scc].recursive);
}

/* The order in which the body of rule is joined when the head positions of
 * mask are bound: as written, except that a literal that may go early
 * (eager()) is taken as soon as the variables it needs are bound. Filters
 * then run before the loops they would otherwise sit inside, and a lookup
 * of a function given by facts, such as (opponent ?p ?o), runs once rather
 * than once per answer of the literals before it. Conjunction commutes;
 * every literal still sees bound whatever it needs bound. */
static uint32_t *join_order(CgPlan *p, uint32_t rule, uint64_t mask)
{
    const Ir *ir = p->ir;
    const IrRule *r = &ir->rules.v[rule];
    uint32_t n = r->nlits;
    uint32_t *order = base_xmalloc((n + 1) * sizeof *order);
    bool *b = base_xcalloc(r->nvars + 1, sizeof *b);
    bool *done = base_xcalloc(n + 1, sizeof *done);
    for (uint32_t i = 0; i < ir->rels.v[r->head].arity; i++)
        if (mask >> i & 1)
            vars_in(ir, ir->largs.v[r->args + i], b, true);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t pick = BASE_NONE, first = BASE_NONE;
        for (uint32_t i = 0; i < n && pick == BASE_NONE; i++) {
            if (done[i])
                continue;
            if (first == BASE_NONE)
                first = i;
            if (eager(p, r, &ir->lits.v[r->lits + i], b))
                pick = i;
        }
        if (pick == BASE_NONE)
            pick = first;
        done[pick] = true;
        order[k] = pick;
        const IrLit *l = &ir->lits.v[r->lits + pick];
        if (l->kind == IR_LIT_POS)
            for (uint32_t i = 0; i < l->nargs; i++)
                vars_in(ir, ir->largs.v[l->args + i], b, true);
    }
    free(b);
    free(done);
    return order;
}

/* ---- bindings, as the printed code makes them ------------------------------ */

/* A rule being planned: which variables are bound, and how often each
 * occurs in the rule (once: a don't-care, never bound). */
typedef struct Bind {
    const Ir *ir;
    bool *bound;
    uint32_t *occ;
} Bind;

static void count_occ(const Ir *ir, uint32_t t, uint32_t *occ)
{
    const IrTerm *p = &ir->terms.v[t];
    if (p->kind == IR_VAR)
        occ[p->val]++;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        count_occ(ir, ir->targs.v[p->args + i], occ);
}

static bool ground(const Bind *b, uint32_t t)
{
    const IrTerm *p = &b->ir->terms.v[t];
    if (p->kind == IR_VAR)
        return b->bound[p->val];
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        if (!ground(b, b->ir->targs.v[p->args + i]))
            return false;
    return true;
}

/* Matching a value against t binds its free variables used elsewhere. */
static void bind(Bind *b, uint32_t t)
{
    const IrTerm *p = &b->ir->terms.v[t];
    if (p->kind == IR_VAR && b->occ[p->val] > 1)
        b->bound[p->val] = true;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        bind(b, b->ir->targs.v[p->args + i]);
}

static uint64_t ground_mask(const Bind *b, const uint32_t *pos, uint32_t k)
{
    uint64_t mask = 0;
    for (uint32_t i = 0; i < k; i++)
        if (ground(b, pos[i]))
            mask |= 1ULL << i;
    return mask;
}

static void bind_free(Bind *b, const uint32_t *pos, uint32_t k, uint64_t mask)
{
    for (uint32_t i = 0; i < k; i++)
        if (!(mask >> i & 1))
            bind(b, pos[i]);
}

/* Is every free position a variable used nowhere else? Then a call only
 * asks whether some answer exists (a pattern such as (go ?x ?y) in a free
 * position would still have to be matched, so it does not count). */
static bool free_are_dont_care(const Bind *b, const uint32_t *pos, uint32_t k, uint64_t mask)
{
    for (uint32_t i = 0; i < k; i++) {
        if (mask >> i & 1)
            continue;
        const IrTerm *p = &b->ir->terms.v[pos[i]];
        if (p->kind != IR_VAR || b->bound[p->val] || b->occ[p->val] > 1)
            return false;
    }
    return true;
}

/* ---- steps -------------------------------------------------------------------- */

/* The table of rel, among those the first reach asked for, whose bound
 * positions are the most of a strict subset of mask; BASE_NONE if none. */
static uint32_t subsumer(CgPlan *p, uint32_t rel, uint64_t mask)
{
    uint32_t best = BASE_NONE;
    int most = -1;
    for (uint32_t i = 0; i < p->tables.n; i++) {
        CgQ t = p->tables.v[i];
        if (t.rel != rel || t.exists || (t.mask & ~mask) || t.mask == mask)
            continue;
        int bits = __builtin_popcountll(t.mask);
        if (bits > most) {
            most = bits;
            best = i;
        }
    }
    return best == BASE_NONE ? BASE_NONE : q_ix(p, rel, p->tables.v[best].mask, false);
}

/* A lookup in fact set fs of the tuple pos[0..k). */
static void step_set(CgPlan *p, Bind *b, CgStep *s, uint32_t fs, const uint32_t *pos, uint32_t k)
{
    s->kind = CG_STEP_SET;
    s->target = fs;
    if (k == 0)
        return;
    s->mask = ground_mask(b, pos, k);
    s->slot = fs_slot(p, fs, s->mask);
    if (s->mask != cg_full_mask(k))
        bind_free(b, pos, k, s->mask);
}

/* A literal over `true` or `does`: the fact set by the functor of the
 * (move) term, or the set of every fact when it is a variable. */
static void step_state(CgPlan *p, Bind *b, CgStep *s, const IrLit *l, bool does)
{
    const Ir *ir = p->ir;
    const uint32_t *args = u32_at(&ir->largs, l->args);
    uint32_t t = args[does ? 1 : 0];
    const IrTerm *tm = &ir->terms.v[t];
    uint32_t pos[CG_MAX_ARITY + 2], k = 0;
    if (does)
        pos[k++] = args[0];
    uint32_t fs, kind = does ? FS_DOES : FS_TRUE;
    if (tm->kind == IR_VAR) {
        pos[k++] = t;
        fs = fs_ix(p, kind, BASE_NONE, 0, BASE_NONE, k);
    } else if (tm->kind == IR_CONST) {
        fs = fs_ix(p, kind, tm->val, 0, BASE_NONE, k);
    } else {
        for (uint32_t i = 0; i < tm->nargs; i++)
            pos[k++] = ir->targs.v[tm->args + i];
        fs = fs_ix(p, kind, ir->funcs.v[tm->val].sym, tm->nargs, BASE_NONE, k);
    }
    step_set(p, b, s, fs, pos, k);
}

static void step_call(CgPlan *p, Bind *b, CgStep *s, const IrRule *r, const IrLit *l)
{
    const Ir *ir = p->ir;
    const uint32_t *pos = u32_at(&ir->largs, l->args);
    uint32_t k = l->nargs;
    uint64_t mask = ground_mask(b, pos, k);
    const IrRel *head = &ir->rels.v[r->head], *callee = &ir->rels.v[l->rel];
    bool recursive = l->kind == IR_LIT_POS && head->scc == callee->scc && ir->sccs.v[head->scc].recursive;
    /* Every position bound, no recursion through the callee: a yes/no
     * function that stops at the first proof, and no table. */
    bool exists = !ir->sccs.v[callee->scc].recursive &&
                  (l->kind == IR_LIT_NEG || free_are_dont_care(b, pos, k, mask));
    uint32_t sub = exists && mask == cg_full_mask(k) && k > 0 ? subsumer(p, l->rel, mask) : BASE_NONE;
    s->mask = mask;
    s->target = sub != BASE_NONE ? sub : q_ix(p, l->rel, mask, exists);
    if (sub != BASE_NONE)
        s->kind = CG_STEP_SUBSUMED;
    else if (exists)
        s->kind = CG_STEP_YESNO;
    else if (l->kind == IR_LIT_NEG)
        s->kind = CG_STEP_NEGATED;
    else if (recursive)
        s->kind = CG_STEP_RECURSIVE;
    else
        s->kind = CG_STEP_TABLE;
    if ((s->kind == CG_STEP_RECURSIVE || s->kind == CG_STEP_TABLE) && mask != cg_full_mask(k))
        bind_free(b, pos, k, mask);
}

/* Plans rule for query q: its join order and a step per literal. */
static void plan_rule(CgPlan *p, uint32_t q, uint32_t rule)
{
    const Ir *ir = p->ir;
    const IrRule *r = &ir->rules.v[rule];
    uint64_t qmask = p->qs.v[q].mask;
    Bind b = {ir, base_xcalloc(r->nvars + 1, sizeof(bool)), base_xcalloc(r->nvars + 1, sizeof(uint32_t))};
    uint32_t arity = ir->rels.v[r->head].arity;
    for (uint32_t i = 0; i < arity; i++)
        count_occ(ir, ir->largs.v[r->args + i], b.occ);
    for (uint32_t i = 0; i < r->nlits; i++) {
        const IrLit *l = &ir->lits.v[r->lits + i];
        for (uint32_t j = 0; j < l->nargs; j++)
            count_occ(ir, ir->largs.v[l->args + j], b.occ);
    }
    uint32_t *order = join_order(p, rule, qmask);
    for (uint32_t i = 0; i < arity; i++)
        if (qmask >> i & 1)
            bind(&b, ir->largs.v[r->args + i]);
    vec_push(p->fns, ((CgFn){rule, p->steps.n}));
    for (uint32_t li = 0; li < r->nlits; li++) {
        const IrLit *l = &ir->lits.v[r->lits + order[li]];
        CgStep s = {order[li], CG_STEP_TEST, 0, BASE_NONE, BASE_NONE};
        if (l->kind == IR_LIT_POS || l->kind == IR_LIT_NEG) {
            const IrRel *rel = &ir->rels.v[l->rel];
            if (rel->kind == IR_REL_TRUE || rel->kind == IR_REL_DOES)
                step_state(p, &b, &s, l, rel->kind == IR_REL_DOES);
            else if (p->facts_only[l->rel])
                step_set(p, &b, &s, fs_ix(p, FS_FACTS, BASE_NONE, 0, l->rel, rel->arity),
                         u32_at(&ir->largs, l->args), l->nargs);
            else
                step_call(p, &b, &s, r, l);
        }
        vec_push(p->steps, s);
    }
    free(order);
    free(b.bound);
    free(b.occ);
}

static bool check_limits(CgPlan *p, char **err)
{
    const Ir *ir = p->ir;
    for (uint32_t i = 0; i < ir->rels.n; i++)
        if (ir->rels.v[i].arity > CG_MAX_ARITY - 1) {
            uint32_t off = ir->rels.v[i].def_off != BASE_NONE ? ir->rels.v[i].def_off : ir->rels.v[i].use_off, line = 0,
                     col = 0;
            if (off != BASE_NONE)
                source_linecol(p->f->src, off, &line, &col);
            *err = base_sprintf("%s:%" PRIu32 ":%" PRIu32 ": relation '%s' has %" PRIu32
                                " arguments; the compiled engine takes at most %d",
                                p->f->src->name, line, col, symtab_str(&p->f->syms, ir->rels.v[i].sym),
                                ir->rels.v[i].arity, CG_MAX_ARITY - 1);
            return false;
        }
    for (uint32_t i = 0; i < ir->funcs.n; i++)
        if (ir->funcs.v[i].arity > CG_MAX_ARITY - 2) {
            *err = base_sprintf("function '%s' has %" PRIu32 " arguments; the compiled engine takes at most %d",
                                symtab_str(&p->f->syms, ir->funcs.v[i].sym), ir->funcs.v[i].arity, CG_MAX_ARITY - 2);
            return false;
        }
    return true;
}

/* Forgets the queries, fact sets and steps of a reach. */
static void plan_clear(CgPlan *p)
{
    p->qs.n = p->qnext.n = p->qfn.n = p->fns.n = p->steps.n = 0;
    memset(p->qfirst, 0, (p->ir->rels.n + 1) * sizeof *p->qfirst);
    for (uint32_t i = 0; i < p->fs.n; i++)
        vec_free(p->fs.v[i].masks);
    p->fs.n = 0;
}

/* Registers the root queries and plans every query they reach. */
static void reach(CgPlan *p)
{
    const Ir *ir = p->ir;
#define ROOT(NAME, name, bound) {IR_REL_##NAME, bound},
    static const struct { uint32_t kw; uint64_t bound; } roots[GQ_N] = {GDLC_ROOT_QUERIES(ROOT)};
#undef ROOT
    for (int i = 0; i < GQ_N; i++) {
        uint32_t rel = ir->kwrel[roots[i].kw];
        p->root[i] = rel == BASE_NONE ? BASE_NONE : q_ix(p, rel, roots[i].bound, false);
    }
    for (uint32_t q = 0; q < p->qs.n; q++) {
        const IrRel *rel = &ir->rels.v[p->qs.v[q].rel];
        vec_push(p->qfn, p->fns.n);
        for (uint32_t k = 0; k < rel->nrules; k++)
            plan_rule(p, q, ir->rule_index.v[rel->rules + k]);
    }
}

bool cg_plan(CgPlan *p, const Front *f, const U32Vec *const *pre, char **err)
{
    const Ir *ir = &f->ir;
    *p = (CgPlan){.f = f, .ir = ir, .pre = pre};
    uint32_t n = ir->rels.n + 1;
    p->facts_only = base_xcalloc(n, sizeof *p->facts_only);
    p->qfirst = base_xcalloc(n, sizeof *p->qfirst);
    p->ftup = base_xcalloc(n, sizeof *p->ftup);
    p->fnum = base_xcalloc(n, sizeof *p->fnum);
    p->fdone = base_xcalloc(n, sizeof *p->fdone);
    classify(p);
    if (!check_limits(p, err))
        return false;
    reach(p);
    for (uint32_t i = 0; i < p->qs.n; i++)
        if (!p->qs.v[i].exists)
            vec_push(p->tables, p->qs.v[i]);
    plan_clear(p);
    reach(p);
    return true;
}

void cg_plan_free(CgPlan *p)
{
    for (uint32_t i = 0; i < p->fs.n; i++)
        vec_free(p->fs.v[i].masks);
    vec_free(p->fs);
    vec_free(p->qs);
    vec_free(p->qnext);
    vec_free(p->qfn);
    vec_free(p->fns);
    vec_free(p->steps);
    vec_free(p->tables);
    vec_free(p->fmemo);
    for (uint32_t i = 0; p->ftup && i < p->ir->rels.n; i++)
        free(p->ftup[i]);
    free(p->ftup);
    free(p->fnum);
    free(p->fdone);
    free(p->qfirst);
    free(p->facts_only);
}

CgRelClass cg_rel_class(const CgPlan *p, uint32_t rel)
{
    const IrRel *r = &p->ir->rels.v[rel];
    if (r->kind == IR_REL_TRUE)
        return CG_REL_STATE;
    if (r->kind == IR_REL_DOES)
        return CG_REL_MOVE;
    if (p->facts_only[rel])
        return p->pre && p->pre[rel] ? CG_REL_FOLDED : CG_REL_FACTS;
    return p->ir->sccs.v[r->scc].recursive ? CG_REL_RECURSIVE : CG_REL_RULES;
}

/* ---- the dump ------------------------------------------------------------------ */

/* The pattern of mask over k positions: b bound, f free; "()" for none. */
static void put_pattern(FILE *out, uint64_t mask, uint32_t k)
{
    if (!k)
        fputs("()", out);
    for (uint32_t i = 0; i < k; i++)
        fputc(mask >> i & 1 ? 'b' : 'f', out);
}

static void put_rel(FILE *out, const CgPlan *p, uint32_t rel)
{
    fprintf(out, "%s/%" PRIu32, symtab_str(&p->f->syms, p->ir->rels.v[rel].sym), p->ir->rels.v[rel].arity);
}

/* The positions a lookup in set s names (a state fact's id is not one). */
static uint32_t fs_key_width(const CgFs *s) { return s->kind == FS_TRUE && s->sym != BASE_NONE ? s->arity - 1 : s->arity; }

void cg_plan_dump(FILE *out, const CgPlan *p)
{
    static const char *const levels[] = {"game", "state", "move"};
#define ROOT_NAME(NAME, name, bound) #name,
    static const char *const roots[GQ_N] = {GDLC_ROOT_QUERIES(ROOT_NAME)};
#undef ROOT_NAME
    static const char *const classes[] = {
        [CG_REL_STATE] = "state", [CG_REL_MOVE] = "move", [CG_REL_FACTS] = "facts",
        [CG_REL_FOLDED] = "folded", [CG_REL_RECURSIVE] = "recursive", [CG_REL_RULES] = "rules"};
    static const char *const steps[] = {
        [CG_STEP_TEST] = "test", [CG_STEP_SET] = "set", [CG_STEP_YESNO] = "yes/no",
        [CG_STEP_SUBSUMED] = "subsumed", [CG_STEP_NEGATED] = "negated", [CG_STEP_RECURSIVE] = "recursive",
        [CG_STEP_TABLE] = "table"};
    const Ir *ir = p->ir;
    fprintf(out, "relations:\n");
    for (uint32_t i = 0; i < ir->rels.n; i++) {
        const IrRel *r = &ir->rels.v[i];
        fputs("  ", out);
        put_rel(out, p, i);
        CgRelClass k = cg_rel_class(p, i);
        fprintf(out, " %s", classes[k]);
        if (k == CG_REL_FOLDED)
            fprintf(out, " %" PRIu32, r->arity ? p->pre[i]->n / r->arity : p->pre[i]->n);
        fprintf(out, " %s\n", levels[cg_rel_level(ir, i)]);
    }
    fprintf(out, "roots:\n");
    for (int i = 0; i < GQ_N; i++)
        if (p->root[i] == BASE_NONE)
            fprintf(out, "  %s none\n", roots[i]);
        else
            fprintf(out, "  %s q%" PRIu32 "\n", roots[i], p->root[i]);
    fprintf(out, "tables:\n");
    for (uint32_t i = 0; i < p->tables.n; i++) {
        fputs("  ", out);
        put_rel(out, p, p->tables.v[i].rel);
        fputc(' ', out);
        put_pattern(out, p->tables.v[i].mask, ir->rels.v[p->tables.v[i].rel].arity);
        fputc('\n', out);
    }
    fprintf(out, "queries:\n");
    for (uint32_t q = 0; q < p->qs.n; q++) {
        const CgQ *cq = &p->qs.v[q];
        const IrRel *rel = &ir->rels.v[cq->rel];
        fprintf(out, "  q%" PRIu32 " ", q);
        put_rel(out, p, cq->rel);
        fputc(' ', out);
        put_pattern(out, cq->mask, rel->arity);
        fputs(cq->exists ? " yes/no\n" : "\n", out);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            const CgFn *fn = &p->fns.v[p->qfn.v[q] + k];
            const IrRule *r = &ir->rules.v[fn->rule];
            uint32_t line = 0, col = 0;
            source_linecol(p->f->src, r->off, &line, &col);
            fprintf(out, "    r%" PRIu32 " @%" PRIu32 ":%" PRIu32 "%s", fn->rule, line, col, r->nlits ? " order" : " fact");
            for (uint32_t li = 0; li < r->nlits; li++)
                fprintf(out, " %" PRIu32, p->steps.v[fn->steps + li].lit + 1);
            fputc('\n', out);
            for (uint32_t li = 0; li < r->nlits; li++) {
                const CgStep *s = &p->steps.v[fn->steps + li];
                const IrLit *l = &ir->lits.v[r->lits + s->lit];
                fprintf(out, "      %" PRIu32 " ", s->lit + 1);
                if (l->kind == IR_LIT_DISTINCT || l->kind == IR_LIT_EQUAL) {
                    fprintf(out, "%s test\n", l->kind == IR_LIT_DISTINCT ? "distinct" : "=");
                    continue;
                }
                fputs(l->kind == IR_LIT_NEG ? "not " : "", out);
                put_rel(out, p, l->rel);
                fprintf(out, " %s", steps[s->kind]);
                if (s->kind == CG_STEP_SET) {
                    uint32_t k = fs_key_width(&p->fs.v[s->target]);
                    fprintf(out, " fs%" PRIu32, s->target);
                    if (s->slot == BASE_NONE)
                        fputs(" slot -", out);
                    else
                        fprintf(out, " slot %" PRIu32, s->slot);
                    fputc(' ', out);
                    put_pattern(out, s->mask, k);
                } else {
                    fprintf(out, " q%" PRIu32 " ", s->target);
                    put_pattern(out, s->mask, l->nargs);
                }
                fputc('\n', out);
            }
        }
    }
    fprintf(out, "fact sets:\n");
    for (uint32_t i = 0; i < p->fs.n; i++) {
        const CgFs *s = &p->fs.v[i];
        fprintf(out, "  fs%" PRIu32 " %s ", i, s->kind == FS_TRUE ? "true" : s->kind == FS_DOES ? "does" : "facts");
        if (s->kind == FS_FACTS)
            put_rel(out, p, s->rel);
        else if (s->sym == BASE_NONE)
            fputs("any", out);
        else
            fprintf(out, "%s/%" PRIu32, symtab_str(&p->f->syms, s->sym), s->sarity);
        fprintf(out, " width %" PRIu32 " %s slots", s->arity, levels[s->level]);
        for (uint32_t k = 0; k < s->masks.n; k++) {
            fputc(' ', out);
            put_pattern(out, s->masks.v[k], fs_key_width(s));
        }
        fputc('\n', out);
    }
}
