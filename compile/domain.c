/*
 * domain.c: the domain analysis (domain.h): which facts a state may hold and which moves a role may make,
 * for games without `base` and `input` rules.
 *
 * A sound over-approximation computed on the IR, one set of ground terms per
 * argument position of every relation (a "slot"), grown to a fixpoint:
 *  - a rule's variable takes every value its first positive body literal
 *    can bind it to: the subterm at its place in each value of the
 *    literal's argument slot that matches the literal's pattern (values
 *    come from one literal; the others, negations and `distinct` are
 *    ignored, which only adds values);
 *  - a head argument takes every instance of its term, each variable
 *    ranging over its values independently of the others, and adds them to
 *    the head's slot;
 *  - `true` takes what `init` and `next` take, `does` the roles and what
 *    `legal` takes; the moves of role k are the moves of `legal` heads
 *    whose role argument can be k.
 * Every fact of a reachable state is an instance of some `init` or `next`
 * head whose variables were bound by true facts, by induction over the
 * fixpoint, so it is in the `true` slot; likewise for moves. The sets can be
 * infinite (a counter built of function terms): the analysis stops with
 * GDL_LIMIT past a bound on the values it holds, or at GT_MAX_DEPTH.
 */
#include <stdarg.h>
#include <string.h>

#include "domain.h"

typedef struct Dom {
    const Ir *ir;       /* the game's rules */
    GtStore *store;     /* the machine's terms, where values are made */
    CpStopFn stop;      /* whether to stop (the caller's deadline, cancel flag): */
    void *stop_ctx;     /* stop's argument */
    char **err;         /* where the message of a failure goes */
    uint32_t *slot;     /* per relation: its first slot, one per argument */
    uint32_t nslots;    /* relation slots, then one input slot per role */
    U32Vec *vals;       /* per slot: its values, in the order found */
    uint64_t *set;      /* open addressing: (slot << 32 | value) + 1, 0 empty */
    uint64_t nset, capset;
    uint64_t max;       /* the most values all slots may hold */
    bool grew;          /* a value was added in this round */
    GdlStatus st;       /* GDL_OK until a limit or the deadline stops it */
    U32Vec *var;        /* per variable of the rule at hand: its values */
    uint32_t nvar;
} Dom;

/* Sets the failure's message and returns st. */
static GdlStatus dom_fail(Dom *d, GdlStatus st, const char *fmt, ...) BASE_PRINTF(3, 4);
static GdlStatus dom_fail(Dom *d, GdlStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(*d->err);
    *d->err = base_vsprintf(fmt, ap);
    va_end(ap);
    return st;
}

static void dom_add(Dom *d, uint32_t slot, Gt v)
{
    if (d->st != GDL_OK)
        return;
    if (2 * (d->nset + 1) > d->capset) {
        uint64_t *old = d->set, oldcap = d->capset;
        d->capset = d->capset ? 2 * d->capset : 1024;
        d->set = base_xcalloc(d->capset, sizeof *d->set);
        for (uint64_t i = 0; i < oldcap; i++)
            if (old[i]) {
                uint64_t h = base_mix64(old[i]) & (d->capset - 1);
                while (d->set[h])
                    h = (h + 1) & (d->capset - 1);
                d->set[h] = old[i];
            }
        free(old);
    }
    uint64_t key = ((uint64_t)slot << 32 | v) + 1, h = base_mix64(key) & (d->capset - 1);
    for (; d->set[h]; h = (h + 1) & (d->capset - 1))
        if (d->set[h] == key)
            return;
    d->set[h] = key;
    d->nset++;
    vec_push(d->vals[slot], v);
    d->grew = true;
    if (d->nset > d->max)
        d->st = dom_fail(d, GDL_LIMIT, "the domain analysis finds more than %llu terms",
                        (unsigned long long)d->max);
}

static bool term_has_var(const Ir *ir, uint32_t t, uint32_t x)
{
    const IrTerm *p = &ir->terms.v[t];
    if (p->kind == IR_VAR)
        return p->val == x;
    for (uint32_t i = 0; p->kind == IR_FN && i < p->nargs; i++)
        if (term_has_var(ir, ir->targs.v[p->args + i], x))
            return true;
    return false;
}

/* Does ground term v match pattern t? Sets *out to the value of x in it. */
static bool match(Dom *d, uint32_t t, Gt v, uint32_t x, Gt *out)
{
    const IrTerm *p = &d->ir->terms.v[t];
    if (p->kind == IR_VAR) {
        if (p->val == x) {
            if (*out != BASE_NONE && *out != v)
                return false;
            *out = v;
        }
        return true;
    }
    if (p->kind == IR_CONST)
        return gt_arity(d->store, v) == 0 && gt_fn(d->store, v) == p->val;
    if (gt_fn(d->store, v) != d->ir->funcs.v[p->val].sym || gt_arity(d->store, v) != p->nargs)
        return false;
    for (uint32_t i = 0; i < p->nargs; i++)
        if (!match(d, d->ir->targs.v[p->args + i], gt_arg(d->store, v, i), x, out))
            return false;
    return true;
}

/* Every instance of term t (each variable over its values) into out. */
static void instances(Dom *d, uint32_t t, U32Vec *out)
{
    const IrTerm *p = &d->ir->terms.v[t];
    if (p->kind == IR_CONST) {
        vec_push(*out, gt_intern(d->store, p->val, 0, NULL));
        return;
    }
    if (p->kind == IR_VAR) {
        for (uint32_t i = 0; i < d->var[p->val].n; i++)
            vec_push(*out, d->var[p->val].v[i]);
        return;
    }
    /* a function: the product of its arguments' instances, odometer order */
    uint32_t n = p->nargs;
    U32Vec args[n];
    uint32_t at[n];
    uint64_t count = 1;
    for (uint32_t i = 0; i < n; i++) {
        args[i] = (U32Vec){0};
        instances(d, d->ir->targs.v[p->args + i], &args[i]);
        at[i] = 0;
        if (args[i].n && count > d->max / args[i].n) {
            count = 0;
            d->st = dom_fail(d, GDL_LIMIT, "the domain analysis finds more than %llu terms",
                            (unsigned long long)d->max);
        }
        count *= args[i].n;
    }
    Gt tuple[n + 1];
    for (uint64_t c = 0; c < count && d->st == GDL_OK; c++) {
        for (uint32_t i = 0; i < n; i++)
            tuple[i] = args[i].v[at[i]];
        Gt g = gt_intern(d->store, d->ir->funcs.v[p->val].sym, n, tuple);
        if (g == BASE_NONE)
            d->st = dom_fail(d, GDL_LIMIT, "the domain analysis meets terms nested deeper than %d",
                            GT_MAX_DEPTH);
        else
            vec_push(*out, g);
        for (uint32_t i = n; i-- > 0;) {
            if (++at[i] < args[i].n)
                break;
            at[i] = 0;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        vec_free(args[i]);
}

static void dom_rule(Dom *d, const IrRule *r)
{
    const Ir *ir = d->ir;
    if (r->nvars > d->nvar) {
        d->var = base_xrealloc(d->var, r->nvars * sizeof *d->var);
        memset(d->var + d->nvar, 0, (r->nvars - d->nvar) * sizeof *d->var);
        d->nvar = r->nvars;
    }
    for (uint32_t x = 0; x < r->nvars; x++) {
        U32Vec *vx = &d->var[x];
        vx->n = 0;
        for (uint32_t l = 0; l < r->nlits; l++) {
            const IrLit *lit = &ir->lits.v[r->lits + l];
            uint32_t i = 0;
            while (lit->kind == IR_LIT_POS && i < lit->nargs && !term_has_var(ir, ir->largs.v[lit->args + i], x))
                i++;
            if (lit->kind != IR_LIT_POS || i == lit->nargs)
                continue;
            const U32Vec *from = &d->vals[d->slot[lit->rel] + i];
            for (uint32_t k = 0; k < from->n; k++) {
                Gt v = BASE_NONE;
                if (match(d, ir->largs.v[lit->args + i], from->v[k], x, &v) && v != BASE_NONE)
                    vec_push(*vx, v);
            }
            break;
        }
        base_sort_u32(vx->v, vx->n);
        uint32_t u = 0;
        for (uint32_t k = 0; k < vx->n; k++)
            if (u == 0 || vx->v[u - 1] != vx->v[k])
                vx->v[u++] = vx->v[k];
        vx->n = u;
    }
    const IrRel *head = &ir->rels.v[r->head];
    U32Vec inst[head->arity + 1];
    for (uint32_t j = 0; j < head->arity; j++) {
        inst[j] = (U32Vec){0};
        instances(d, ir->largs.v[r->args + j], &inst[j]);
        for (uint32_t k = 0; k < inst[j].n; k++)
            dom_add(d, d->slot[r->head] + j, inst[j].v[k]);
    }
    if (head->kind == IR_REL_LEGAL && head->arity == 2)
        for (uint32_t k = 0; k < ir->roles.n; k++) {
            Gt role = gt_intern(d->store, ir->roles.v[k], 0, NULL);
            bool can = false;
            for (uint32_t i = 0; i < inst[0].n && !can; i++)
                can = inst[0].v[i] == role;
            for (uint32_t i = 0; can && i < inst[1].n; i++)
                dom_add(d, d->nslots + k, inst[1].v[i]);
        }
    for (uint32_t j = 0; j < head->arity; j++)
        vec_free(inst[j]);
}

/* Copies slot `from` of relation kind a, position i, into b's position j. */
static void dom_copy(Dom *d, IrRelKind a, uint32_t i, IrRelKind b, uint32_t j)
{
    uint32_t ra = d->ir->kwrel[a], rb = d->ir->kwrel[b];
    if (ra == BASE_NONE || rb == BASE_NONE)
        return;
    const U32Vec *from = &d->vals[d->slot[ra] + i];
    for (uint32_t k = 0; k < from->n; k++)
        dom_add(d, d->slot[rb] + j, from->v[k]);
}

GdlStatus cp_domain(const Ir *ir, GtStore *store, uint64_t max, uint32_t role, CpStopFn stop, void *stop_ctx,
                    U32Vec *out, char **err)
{
    Dom d = {.ir = ir, .store = store, .stop = stop, .stop_ctx = stop_ctx, .err = err, .max = max ? max : 1u << 22};
    d.slot = base_xcalloc(ir->rels.n + 1, sizeof *d.slot);
    for (uint32_t i = 0; i < ir->rels.n; i++)
        d.slot[i] = d.nslots, d.nslots += ir->rels.v[i].arity;
    d.vals = base_xcalloc(d.nslots + ir->roles.n + 1, sizeof *d.vals);
    uint32_t roles = ir->kwrel[IR_REL_ROLE], does = ir->kwrel[IR_REL_DOES];
    for (uint32_t k = 0; k < ir->roles.n; k++) {
        Gt r = gt_intern(store, ir->roles.v[k], 0, NULL);
        if (roles != BASE_NONE)
            dom_add(&d, d.slot[roles], r);
        if (does != BASE_NONE)
            dom_add(&d, d.slot[does], r);
    }
    do {
        d.grew = false;
        for (uint32_t i = 0; i < ir->rules.n && d.st == GDL_OK; i++) {
            if (stop(stop_ctx))
                d.st = dom_fail(&d, GDL_CANCELLED, "cancelled in the domain analysis");
            else
                dom_rule(&d, &ir->rules.v[i]);
        }
        dom_copy(&d, IR_REL_INIT, 0, IR_REL_TRUE, 0);
        dom_copy(&d, IR_REL_NEXT, 0, IR_REL_TRUE, 0);
        dom_copy(&d, IR_REL_LEGAL, 1, IR_REL_DOES, 1);
    } while (d.grew && d.st == GDL_OK);
    /* the moves of the role, or what init and next can make true */
    for (int pass = 0; pass < 2 && d.st == GDL_OK; pass++) {
        uint32_t rel = ir->kwrel[pass ? IR_REL_NEXT : IR_REL_INIT];
        const U32Vec *ans = role != BASE_NONE ? (pass ? NULL : &d.vals[d.nslots + role])
                            : rel != BASE_NONE ? &d.vals[d.slot[rel]] : NULL;
        for (uint32_t i = 0; ans && i < ans->n; i++)
            vec_push(*out, ans->v[i]);
    }
    for (uint32_t i = 0; i < d.nslots + ir->roles.n; i++)
        vec_free(d.vals[i]);
    for (uint32_t x = 0; x < d.nvar; x++)
        vec_free(d.var[x]);
    free(d.var);
    free(d.vals);
    free(d.slot);
    free(d.set);
    return d.st;
}
