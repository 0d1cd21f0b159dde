/*
 * propnet.c: building the propositional network of a ground program, its
 * strongly connected components, and its dumps (text and Graphviz).
 *
 * Building. Every sentence of the program is an atom, keyed by its ground
 * term (relation as functor, `terminal` a constant). Relations split in two:
 * the static ones (neither `true` nor `does` reaches them, `init` and `role`
 * among them) are evaluated here, stratum by stratum, each to a fixpoint
 * (distinct and equality compare term ids); every other rule becomes gates.
 * A static sentence a dynamic rule reads is a named PN_CONST of its value:
 * constant propagation folds it, so the raw network shows what the static
 * relations fix. Then, in this order, which is the order of the component
 * numbers (so that dumps are stable):
 *  1. bases: every s with (true s) read, (next s) made or (init s) holding,
 *     sorted by the text of s, each a PN_BASE named `(true s)`;
 *  2. inputs: every (does r m) read and every (legal r m) made, sorted by
 *     role then move text, each a PN_INPUT named `(does r m)`;
 *  3. the rules in program order: the head sentence is a PN_OR named by it
 *     (made at its first use, in a head or a body), each rule an unnamed
 *     PN_AND of its literals (none: true), a negated literal the PN_NOT of
 *     its sentence (one per sentence), a literal written twice one input. A
 *     distinct or an equality that fails drops its rule, one that holds
 *     drops the literal. A sentence read but never made is a PN_OR of no
 *     input: false.
 * Then the marks: legal, goal, terminal and next of every sentence made.
 * An init that reads the state is set by evaluating the network once in
 * the state of no fact (least fixpoints, SCC by SCC), as ref reads it.
 *
 * Names follow one convention everywhere (dumps, DOT, --focus): the
 * sentence as written in GDL, `(true (cell 1 1 x))`, `(does x noop)`,
 * `(legal x noop)`, `(next (cell 1 1 x))`, `(goal x 100)`, `terminal`.
 *
 * Links are kept as two CSR arrays (in, out); pn_relink makes both from a
 * list of (to, from) pairs, here and after every optimisation.
 */
#include <string.h>

#include "propnet.h"

static const char *const kind_names[PN_NKINDS] = {"const", "base", "input", "and", "or", "not"};

const char *pn_kind_name(PnKind k) { return k < PN_NKINDS ? kind_names[k] : "?"; }

uint64_t pn_links(const Propnet *pn)
{
    uint64_t n = 0;
    for (uint32_t c = 0; c < pn->comps.n; c++)
        n += pn->comps.v[c].nin;
    return n;
}

void pn_free(Propnet *pn)
{
    vec_free(pn->comps);
    vec_free(pn->in);
    vec_free(pn->out);
    vec_free(pn->base);
    vec_free(pn->inputs);
    for (uint32_t r = 0; r < pn->roles.n; r++) {
        vec_free(pn->roles.v[r].legal);
        vec_free(pn->roles.v[r].goals);
    }
    vec_free(pn->roles);
    vec_free(pn->passes);
    vec_free(pn->aliases);
    memset(pn, 0, sizeof *pn);
}

#define PN_VEC_COPY(d, s)                                                      \
    do {                                                                       \
        vec_reserve((d), (s).n + 1);                                           \
        if ((s).n)                                                             \
            memcpy((d).v, (s).v, (s).n * sizeof *(s).v);                       \
        (d).n = (s).n;                                                         \
    } while (0)

void pn_copy(Propnet *dst, const Propnet *src)
{
    memset(dst, 0, sizeof *dst);
    dst->store = src->store;
    dst->terminal = src->terminal;
    PN_VEC_COPY(dst->comps, src->comps);
    PN_VEC_COPY(dst->in, src->in);
    PN_VEC_COPY(dst->out, src->out);
    PN_VEC_COPY(dst->base, src->base);
    PN_VEC_COPY(dst->inputs, src->inputs);
    PN_VEC_COPY(dst->passes, src->passes);
    PN_VEC_COPY(dst->aliases, src->aliases);
    PN_VEC_COPY(dst->roles, src->roles);
    for (uint32_t r = 0; r < src->roles.n; r++) {
        PnRole *x = &dst->roles.v[r];
        memset(&x->legal, 0, sizeof x->legal);
        memset(&x->goals, 0, sizeof x->goals);
        PN_VEC_COPY(x->legal, src->roles.v[r].legal);
        PN_VEC_COPY(x->goals, src->roles.v[r].goals);
    }
}

void pn_permute(Propnet *pn, const uint32_t *newid)
{
    uint32_t n = pn->comps.n;
    uint32_t *oldid = base_xmalloc((n + 1) * sizeof *oldid);
    for (uint32_t c = 0; c < n; c++)
        oldid[newid[c]] = c;
    PnComp *comps = base_xmalloc((n + 1) * sizeof *comps);
    VEC(uint64_t) edges = {0};
    for (uint32_t c = 0; c < n; c++) { /* by new number, so that each out list comes sorted */
        const PnComp *x = &pn->comps.v[oldid[c]];
        comps[c] = *x;
        for (uint32_t i = 0; i < x->nin; i++)
            vec_push(edges, (uint64_t)c << 32 | newid[pn->in.v[x->in_at + i]]);
    }
    free(pn->comps.v);
    pn->comps.v = comps;
    pn->comps.cap = n;
    pn_relink(pn, edges.v, edges.n);
    vec_free(edges);
    free(oldid);
    pn_remap_marks(pn, newid);
}

void pn_remap_marks(Propnet *pn, const uint32_t *map)
{
#define MAP(x) ((x) = (x) == PN_NONE ? PN_NONE : map[(x)])
    for (uint32_t i = 0; i < pn->base.n; i++) {
        MAP(pn->base.v[i].comp);
        MAP(pn->base.v[i].next);
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++)
        MAP(pn->inputs.v[i].comp);
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
            MAP(pn->roles.v[k].legal.v[i].comp);
        for (uint32_t i = 0; i < pn->roles.v[k].goals.n; i++)
            MAP(pn->roles.v[k].goals.v[i].comp);
    }
    MAP(pn->terminal);
    uint32_t k = 0;
    for (uint32_t i = 0; i < pn->aliases.n; i++) {
        PnAlias a = pn->aliases.v[i];
        MAP(a.comp);
        if (a.comp != PN_NONE) /* gone with its component */
            pn->aliases.v[k++] = a;
    }
    pn->aliases.n = k;
#undef MAP
}

/* ---- links ---------------------------------------------------------------- */

void pn_relink(Propnet *pn, const uint64_t *edges, uint32_t nedges)
{
    uint32_t n = pn->comps.n;
    for (uint32_t c = 0; c < n; c++)
        pn->comps.v[c].nin = pn->comps.v[c].nout = 0;
    for (uint32_t e = 0; e < nedges; e++) {
        pn->comps.v[edges[e] >> 32].nin++;
        pn->comps.v[(uint32_t)edges[e]].nout++;
    }
    uint32_t at = 0, ot = 0;
    for (uint32_t c = 0; c < n; c++) {
        pn->comps.v[c].in_at = at;
        pn->comps.v[c].out_at = ot;
        at += pn->comps.v[c].nin;
        ot += pn->comps.v[c].nout;
        pn->comps.v[c].nin = pn->comps.v[c].nout = 0;
    }
    pn->in.n = pn->out.n = 0;
    vec_reserve(pn->in, nedges);
    vec_reserve(pn->out, nedges);
    pn->in.n = pn->out.n = nedges;
    /* Edges in order: every list keeps the order of its pairs. */
    for (uint32_t e = 0; e < nedges; e++) {
        uint32_t to = (uint32_t)(edges[e] >> 32), from = (uint32_t)edges[e];
        PnComp *t = &pn->comps.v[to], *f = &pn->comps.v[from];
        pn->in.v[t->in_at + t->nin++] = from;
        pn->out.v[f->out_at + f->nout++] = to;
    }
}

/* ---- building ------------------------------------------------------------- */

typedef struct Atom {
    Gt sent;        /* the sentence */
    uint32_t rel;   /* its relation */
    uint32_t comp;  /* its component, PN_NONE until made */
    uint32_t notc;  /* the PN_NOT of it, PN_NONE until made */
    bool made;      /* the head of some rule */
    bool value;     /* static relations: holds */
} Atom;

typedef struct Build {
    const Ir *ir;
    GtStore *st;
    Propnet *pn;
    Gt *tgt;              /* per IR term: its ground term */
    bool *dyn;            /* per relation: reached by true or does */
    U32Vec atom_of;       /* by sentence: atom index */
    VEC(Atom) atoms;
    U32Vec base_of;       /* by fact s: base index */
    U32Vec input_of;      /* by sentence (does r m): input index */
    VEC(uint64_t) edges;  /* (to << 32) | from */
    uint32_t sym_true, sym_does;
    char *err;
} Build;

static uint32_t *map_slot(U32Vec *m, Gt g)
{
    if (g >= m->n) {
        uint32_t n = g + 1 > 2 * m->n ? g + 1 : 2 * m->n;
        vec_reserve(*m, n);
        for (uint32_t i = m->n; i < n; i++)
            m->v[i] = BASE_NONE;
        m->n = n;
    }
    return &m->v[g];
}

static uint32_t map_get(const U32Vec *m, Gt g) { return g < m->n ? m->v[g] : BASE_NONE; }

static Gt term_gt(Build *b, uint32_t t)
{
    if (b->tgt[t] != BASE_NONE)
        return b->tgt[t];
    const IrTerm *x = &b->ir->terms.v[t];
    if (x->kind == IR_CONST)
        return b->tgt[t] = gt_intern(b->st, x->val, 0, NULL);
    if (x->kind != IR_FN)
        return BASE_NONE;
    Gt args[x->nargs];
    for (uint32_t i = 0; i < x->nargs; i++)
        if ((args[i] = term_gt(b, b->ir->targs.v[x->args + i])) == BASE_NONE)
            return BASE_NONE;
    return b->tgt[t] = gt_intern(b->st, b->ir->funcs.v[x->val].sym, x->nargs, args);
}

/* The atom of rel applied to the terms largs[at .. at + n); BASE_NONE when
 * a term is not ground or too deep (b->err set). */
static uint32_t atom_at(Build *b, uint32_t rel, uint32_t at, uint32_t n)
{
    const Ir *ir = b->ir;
    Gt args[n + 1];
    for (uint32_t i = 0; i < n; i++)
        if ((args[i] = term_gt(b, ir->largs.v[at + i])) == BASE_NONE)
            goto bad;
    Gt s = gt_intern(b->st, ir->rels.v[rel].sym, n, args);
    if (s == BASE_NONE)
        goto bad;
    uint32_t *slot = map_slot(&b->atom_of, s);
    if (*slot == BASE_NONE) {
        *slot = b->atoms.n;
        vec_push(b->atoms, ((Atom){s, rel, PN_NONE, PN_NONE, false, false}));
    }
    return *slot;
bad:
    if (!b->err)
        b->err = base_sprintf("a sentence of '%s' is not ground or is too deep",
                              symtab_str(ir->syms, ir->rels.v[rel].sym));
    return BASE_NONE;
}

static uint32_t new_comp(Build *b, PnKind kind, Gt name, uint8_t value)
{
    PnComp c = {(uint8_t)kind, value, 0, 0, 0, 0, name, PN_NONE};
    vec_push(b->pn->comps, c);
    return b->pn->comps.n - 1;
}

static void link(Build *b, uint32_t to, uint32_t from) { vec_push(b->edges, ((uint64_t)to << 32) | from); }

static uint32_t role_index(const Build *b, Gt r)
{
    if (gt_arity(b->st, r) != 0)
        return BASE_NONE;
    for (uint32_t k = 0; k < b->ir->roles.n; k++)
        if (b->ir->roles.v[k] == gt_fn(b->st, r))
            return k;
    return BASE_NONE;
}

static bool rel_is(const Build *b, uint32_t rel, IrRelKind k) { return b->ir->rels.v[rel].kind == (uint32_t)k; }

/* The component computing an atom. */
static uint32_t atom_comp(Build *b, uint32_t a)
{
    Atom *x = &b->atoms.v[a];
    if (x->comp != PN_NONE)
        return x->comp;
    uint32_t c;
    if (rel_is(b, x->rel, IR_REL_TRUE))
        c = b->pn->base.v[map_get(&b->base_of, gt_arg(b->st, x->sent, 0))].comp;
    else if (rel_is(b, x->rel, IR_REL_DOES)) {
        uint32_t i = map_get(&b->input_of, x->sent);
        /* the move of no role never happens */
        c = i != BASE_NONE ? b->pn->inputs.v[i].comp : new_comp(b, PN_CONST, x->sent, 0);
    } else if (!b->dyn[x->rel])
        c = new_comp(b, PN_CONST, x->sent, x->value);
    else
        c = new_comp(b, PN_OR, x->sent, 0);
    b->atoms.v[a].comp = c;
    return c;
}

static uint32_t atom_not(Build *b, uint32_t a)
{
    if (b->atoms.v[a].notc == PN_NONE) {
        uint32_t in = atom_comp(b, a);
        uint32_t c = new_comp(b, PN_NOT, BASE_NONE, 0);
        link(b, c, in);
        b->atoms.v[a].notc = c;
    }
    return b->atoms.v[a].notc;
}

/* Does the distinct or equality literal hold? */
static bool decide(Build *b, const IrLit *l)
{
    Gt x = term_gt(b, b->ir->largs.v[l->args]), y = term_gt(b, b->ir->largs.v[l->args + 1]);
    return (x == y) == (l->kind == IR_LIT_EQUAL);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Static relations, stratum by stratum, each to a fixpoint. */
static void eval_static(Build *b)
{
    const Ir *ir = b->ir;
    U32Vec rules = {0};
    for (uint32_t r = 0; r < ir->rules.n; r++)
        if (!b->dyn[ir->rules.v[r].head])
            vec_push(rules, r);
    /* by stratum, then rule id */
    uint64_t *keys = base_xmalloc((rules.n + 1) * sizeof *keys);
    for (uint32_t i = 0; i < rules.n; i++)
        keys[i] = ((uint64_t)ir->rules.v[rules.v[i]].stratum << 32) | rules.v[i];
    qsort(keys, rules.n, sizeof *keys, cmp_u64);
    for (uint32_t lo = 0; lo < rules.n;) {
        uint32_t hi = lo;
        while (hi < rules.n && keys[hi] >> 32 == keys[lo] >> 32)
            hi++;
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = lo; i < hi; i++) {
                const IrRule *r = &ir->rules.v[(uint32_t)keys[i]];
                uint32_t h = atom_at(b, r->head, r->args, ir->rels.v[r->head].arity);
                if (h == BASE_NONE || b->atoms.v[h].value)
                    continue;
                bool holds = true;
                for (uint32_t l = 0; l < r->nlits && holds; l++) {
                    const IrLit *lit = &ir->lits.v[r->lits + l];
                    if (lit->kind == IR_LIT_DISTINCT || lit->kind == IR_LIT_EQUAL) {
                        holds = decide(b, lit);
                        continue;
                    }
                    uint32_t a = atom_at(b, lit->rel, lit->args, lit->nargs);
                    holds = a != BASE_NONE && b->atoms.v[a].value == (lit->kind == IR_LIT_POS);
                }
                if (holds)
                    b->atoms.v[h].value = changed = true;
            }
        }
        lo = hi;
    }
    free(keys);
    vec_free(rules);
}

static void sort_gts(GtStore *st, U32Vec *v)
{
    gt_sort(st, v->v, v->n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < v->n; i++)
        if (k == 0 || v->v[k - 1] != v->v[i])
            v->v[k++] = v->v[i];
    v->n = k;
}

/* An init that reads the state (validate warns) holds when it does in the
 * state of no fact, with no move, as ref evaluates it: the network is
 * evaluated once so, each cycle from false. */
static void init_from_empty_state(Build *b)
{
    Propnet *pn = b->pn;
    uint32_t n = pn->comps.n;
    uint8_t *val = base_xcalloc(n + 1, 1);
    U32Vec order = {0}, at = {0};
    uint32_t nsccs = pn_sccs(pn, &order, &at);
    for (uint32_t s = 0; s < nsccs; s++)
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = at.v[s]; i < at.v[s + 1]; i++) {
                uint32_t c = order.v[i];
                const PnComp *x = &pn->comps.v[c];
                const uint32_t *in = u32_at(&pn->in, x->in_at);
                uint8_t v = 0;
                if (x->kind == PN_CONST)
                    v = x->const_value;
                else if (x->kind == PN_AND) {
                    v = 1;
                    for (uint32_t j = 0; j < x->nin; j++)
                        v &= val[in[j]];
                } else if (x->kind == PN_OR) {
                    for (uint32_t j = 0; j < x->nin; j++)
                        v |= val[in[j]];
                } else if (x->kind == PN_NOT)
                    v = !val[in[0]];
                if (v != val[c]) {
                    val[c] = v;
                    changed = true;
                }
            }
        }
    for (uint32_t a = 0; a < b->atoms.n; a++) {
        const Atom *x = &b->atoms.v[a];
        if (x->made && rel_is(b, x->rel, IR_REL_INIT) && x->comp != PN_NONE && val[x->comp])
            pn->base.v[map_get(&b->base_of, gt_arg(b->st, x->sent, 0))].init = true;
    }
    free(val);
    vec_free(order);
    vec_free(at);
}

static bool build(Build *b)
{
    const Ir *ir = b->ir;
    Propnet *pn = b->pn;
    GtStore *st = b->st;
    for (uint32_t r = 0; r < ir->rules.n; r++)
        if (ir->rules.v[r].nvars) {
            b->err = base_sprintf("the program is not ground: a rule of '%s' has variables",
                                  symtab_str(ir->syms, ir->rels.v[ir->rules.v[r].head].sym));
            return false;
        }
    b->sym_true = symtab_intern(st->syms, "true", 4);
    b->sym_does = symtab_intern(st->syms, "does", 4);
    /* dynamic relations: true, does and what reads them */
    for (uint32_t r = 0; r < ir->rels.n; r++)
        b->dyn[r] = rel_is(b, r, IR_REL_TRUE) || rel_is(b, r, IR_REL_DOES);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t r = 0; r < ir->rules.n; r++) {
            const IrRule *x = &ir->rules.v[r];
            if (b->dyn[x->head])
                continue;
            for (uint32_t l = 0; l < x->nlits; l++) {
                const IrLit *lit = &ir->lits.v[x->lits + l];
                if ((lit->kind == IR_LIT_POS || lit->kind == IR_LIT_NEG) && b->dyn[lit->rel]) {
                    b->dyn[x->head] = changed = true;
                    break;
                }
            }
        }
    }
    /* every atom, and what was made */
    for (uint32_t r = 0; r < ir->rules.n; r++) {
        const IrRule *x = &ir->rules.v[r];
        if (rel_is(b, x->head, IR_REL_TRUE) || rel_is(b, x->head, IR_REL_DOES)) {
            b->err = base_sprintf("a rule defines '%s'", symtab_str(ir->syms, ir->rels.v[x->head].sym));
            return false;
        }
        uint32_t h = atom_at(b, x->head, x->args, ir->rels.v[x->head].arity);
        if (h == BASE_NONE)
            return false;
        if (b->dyn[x->head])
            b->atoms.v[h].made = true;
        for (uint32_t l = 0; l < x->nlits; l++) {
            const IrLit *lit = &ir->lits.v[x->lits + l];
            if ((lit->kind == IR_LIT_POS || lit->kind == IR_LIT_NEG) &&
                atom_at(b, lit->rel, lit->args, lit->nargs) == BASE_NONE)
                return false;
        }
    }
    eval_static(b);
    if (b->err)
        return false;
    for (uint32_t a = 0; a < b->atoms.n; a++)
        if (!b->dyn[b->atoms.v[a].rel] && b->atoms.v[a].value)
            b->atoms.v[a].made = true;
    /* 1. bases */
    U32Vec facts = {0};
    for (uint32_t a = 0; a < b->atoms.n; a++) {
        const Atom *x = &b->atoms.v[a];
        bool made = (rel_is(b, x->rel, IR_REL_NEXT) || rel_is(b, x->rel, IR_REL_INIT)) && x->made;
        if (rel_is(b, x->rel, IR_REL_TRUE) || made)
            vec_push(facts, gt_arg(st, x->sent, 0));
    }
    sort_gts(st, &facts);
    for (uint32_t i = 0; i < facts.n; i++) {
        Gt name = gt_intern(st, b->sym_true, 1, &facts.v[i]);
        if (name == BASE_NONE) {
            b->err = base_sprintf("a base proposition is too deep");
            vec_free(facts);
            return false;
        }
        uint32_t c = new_comp(b, PN_BASE, name, 0);
        pn->comps.v[c].index = pn->base.n;
        *map_slot(&b->base_of, facts.v[i]) = pn->base.n;
        vec_push(pn->base, ((PnBase){c, facts.v[i], PN_NONE, false}));
    }
    vec_free(facts);
    /* 2. inputs */
    U32Vec moves = {0};
    for (uint32_t a = 0; a < b->atoms.n; a++) {
        const Atom *x = &b->atoms.v[a];
        if ((rel_is(b, x->rel, IR_REL_DOES) || (rel_is(b, x->rel, IR_REL_LEGAL) && x->made)) &&
            role_index(b, gt_arg(st, x->sent, 0)) != BASE_NONE) {
            Gt args[2] = {gt_arg(st, x->sent, 0), gt_arg(st, x->sent, 1)};
            Gt d = gt_intern(st, b->sym_does, 2, args);
            if (d == BASE_NONE) {
                b->err = base_sprintf("a move is too deep");
                vec_free(moves);
                return false;
            }
            vec_push(moves, d);
        }
    }
    sort_gts(st, &moves);
    uint32_t nroles = ir->roles.n;
    for (uint32_t k = 0; k < nroles; k++) /* role order, then move text */
        for (uint32_t i = 0; i < moves.n; i++) {
            Gt d = moves.v[i];
            if (role_index(b, gt_arg(st, d, 0)) != k)
                continue;
            uint32_t c = new_comp(b, PN_INPUT, d, 0);
            pn->comps.v[c].index = pn->inputs.n;
            *map_slot(&b->input_of, d) = pn->inputs.n;
            vec_push(pn->inputs, ((PnInput){c, k, gt_arg(st, d, 1)}));
        }
    vec_free(moves);
    /* 3. the rules */
    for (uint32_t r = 0; r < ir->rules.n; r++) {
        const IrRule *x = &ir->rules.v[r];
        if (!b->dyn[x->head])
            continue;
        bool holds = true;
        for (uint32_t l = 0; l < x->nlits && holds; l++) {
            const IrLit *lit = &ir->lits.v[x->lits + l];
            if (lit->kind == IR_LIT_DISTINCT || lit->kind == IR_LIT_EQUAL)
                holds = decide(b, lit);
        }
        if (!holds)
            continue;
        uint32_t head = atom_comp(b, atom_at(b, x->head, x->args, ir->rels.v[x->head].arity));
        uint32_t and = new_comp(b, PN_AND, BASE_NONE, 0);
        link(b, head, and);
        uint32_t first = b->edges.n;
        for (uint32_t l = 0; l < x->nlits; l++) {
            const IrLit *lit = &ir->lits.v[x->lits + l];
            if (lit->kind != IR_LIT_POS && lit->kind != IR_LIT_NEG)
                continue;
            uint32_t a = atom_at(b, lit->rel, lit->args, lit->nargs);
            uint32_t in = lit->kind == IR_LIT_POS ? atom_comp(b, a) : atom_not(b, a);
            /* a literal written twice is one input */
            bool twice = false;
            for (uint32_t e = first; e < b->edges.n && !twice; e++)
                twice = b->edges.v[e] == (((uint64_t)and << 32) | in);
            if (!twice)
                link(b, and, in);
        }
    }
    /* the marks */
    vec_reserve(pn->roles, nroles);
    for (uint32_t k = 0; k < nroles; k++)
        vec_push(pn->roles, ((PnRole){gt_intern(st, ir->roles.v[k], 0, NULL), {0}, {0}}));
    pn->terminal = PN_NONE;
    for (uint32_t a = 0; a < b->atoms.n; a++) {
        const Atom x = b->atoms.v[a];
        if (!x.made)
            continue;
        uint32_t kind = ir->rels.v[x.rel].kind;
        if (kind == IR_REL_NEXT) {
            pn->base.v[map_get(&b->base_of, gt_arg(st, x.sent, 0))].next = atom_comp(b, a);
        } else if (kind == IR_REL_INIT && !b->dyn[x.rel]) {
            pn->base.v[map_get(&b->base_of, gt_arg(st, x.sent, 0))].init = true;
        } else if (kind == IR_REL_TERMINAL) {
            pn->terminal = atom_comp(b, a);
        } else if (kind == IR_REL_LEGAL || kind == IR_REL_GOAL) {
            uint32_t k = role_index(b, gt_arg(st, x.sent, 0));
            if (k == BASE_NONE)
                continue; /* no role asks */
            Gt v = gt_arg(st, x.sent, 1);
            if (kind == IR_REL_LEGAL) {
                Gt args[2] = {gt_arg(st, x.sent, 0), v};
                uint32_t in = map_get(&b->input_of, gt_intern(st, b->sym_does, 2, args));
                vec_push(pn->roles.v[k].legal, ((PnLegal){atom_comp(b, a), v, in}));
            } else {
                /* a value that is no number from 0 to 100 (one bound
                 * through a variable gets past validate) is kept, so that
                 * the API reports the game fault as it does for ref */
                int value;
                bool number = gt_arity(st, v) == 0 && base_goal_value(gt_text(st, v), &value);
                vec_push(pn->roles.v[k].goals, ((PnGoal){atom_comp(b, a), number ? (uint32_t)value : PN_NONE, v}));
            }
        }
    }
    if (pn->terminal == PN_NONE)
        pn->terminal = new_comp(b, PN_CONST, gt_intern(st, symtab_intern(st->syms, "terminal", 8), 0, NULL), 0);
    pn_relink(pn, b->edges.v, b->edges.n);
    uint32_t init = ir->kwrel[IR_REL_INIT];
    if (init != BASE_NONE && b->dyn[init])
        init_from_empty_state(b);
    return true;
}

bool pn_build(const Ir *ground, GtStore *store, Propnet *pn, char **err)
{
    memset(pn, 0, sizeof *pn);
    pn->store = store;
    pn->terminal = PN_NONE;
    *err = NULL;
    if (store->syms != ground->syms) {
        *err = base_xstrdup("the store must share the program's symbol table");
        return false;
    }
    Build b = {0};
    b.ir = ground;
    b.st = store;
    b.pn = pn;
    b.tgt = base_xmalloc((ground->terms.n + 1) * sizeof *b.tgt);
    for (uint32_t t = 0; t < ground->terms.n; t++)
        b.tgt[t] = BASE_NONE;
    b.dyn = base_xcalloc(ground->rels.n + 1, sizeof *b.dyn);
    bool ok = build(&b);
    free(b.tgt);
    free(b.dyn);
    vec_free(b.atom_of);
    vec_free(b.atoms);
    vec_free(b.base_of);
    vec_free(b.input_of);
    vec_free(b.edges);
    if (!ok) {
        pn_free(pn);
        pn->store = store;
        *err = b.err ? b.err : base_xstrdup("the program cannot be represented");
        return false;
    }
    free(b.err);
    return true;
}


/* ---- strongly connected components -------------------------------------- */

/* Tarjan's algorithm without recursion, edges from a component to its
 * inputs: a component is closed once everything it reads is, so the
 * components come out inputs first. */
uint32_t pn_sccs(const Propnet *pn, U32Vec *comps, U32Vec *scc_at)
{
    uint32_t n = pn->comps.n;
    uint32_t *index = base_xmalloc((n + 1) * sizeof *index);
    uint32_t *low = base_xmalloc((n + 1) * sizeof *low);
    uint32_t *edge = base_xmalloc((n + 1) * sizeof *edge); /* next input to visit */
    bool *on = base_xcalloc(n + 1, sizeof *on);
    U32Vec stack = {0}, call = {0};
    comps->n = scc_at->n = 0;
    vec_reserve(*comps, n);
    for (uint32_t c = 0; c < n; c++)
        index[c] = PN_NONE;
    uint32_t next = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != PN_NONE)
            continue;
        vec_push(call, root);
        index[root] = low[root] = next++;
        edge[root] = 0;
        vec_push(stack, root);
        on[root] = true;
        while (call.n) {
            uint32_t c = call.v[call.n - 1];
            const PnComp *x = &pn->comps.v[c];
            if (edge[c] < x->nin) {
                uint32_t d = pn->in.v[x->in_at + edge[c]++];
                if (index[d] == PN_NONE) {
                    index[d] = low[d] = next++;
                    edge[d] = 0;
                    vec_push(stack, d);
                    on[d] = true;
                    vec_push(call, d);
                } else if (on[d] && index[d] < low[c])
                    low[c] = index[d];
                continue;
            }
            call.n--;
            if (call.n) {
                uint32_t p = call.v[call.n - 1];
                if (low[c] < low[p])
                    low[p] = low[c];
            }
            if (low[c] == index[c]) {
                vec_push(*scc_at, comps->n);
                uint32_t d;
                do {
                    d = stack.v[--stack.n];
                    on[d] = false;
                    vec_push(*comps, d);
                } while (d != c);
            }
        }
    }
    uint32_t nsccs = scc_at->n;
    vec_push(*scc_at, comps->n);
    vec_free(stack);
    vec_free(call);
    free(index);
    free(low);
    free(edge);
    free(on);
    return nsccs;
}

/* ---- dumps ---------------------------------------------------------------- */

static const char *name_text(const Propnet *pn, uint32_t c)
{
    Gt g = pn->comps.v[c].name;
    return g == BASE_NONE ? "-" : gt_text(pn->store, g);
}

void pn_dump(FILE *f, const Propnet *pn)
{
    fprintf(f, "propnet: %u components, %llu links, %u bases, %u inputs\n", pn->comps.n,
            (unsigned long long)pn_links(pn), pn->base.n, pn->inputs.n);
    for (uint32_t c = 0; c < pn->comps.n; c++) {
        const PnComp *x = &pn->comps.v[c];
        fprintf(f, "%u %s %s", c, kind_names[x->kind], name_text(pn, c));
        if (x->kind == PN_CONST)
            fprintf(f, " = %u", x->const_value);
        if (x->nin) {
            fputs(" <-", f);
            for (uint32_t i = 0; i < x->nin; i++)
                fprintf(f, " %u", pn->in.v[x->in_at + i]);
        }
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < pn->base.n; i++) {
        const PnBase *x = &pn->base.v[i];
        fprintf(f, "base %u %s: comp %u", i, gt_text(pn->store, x->fact), x->comp);
        if (x->next != PN_NONE)
            fprintf(f, " next %u", x->next);
        fputs(x->init ? " init\n" : "\n", f);
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++) {
        const PnInput *x = &pn->inputs.v[i];
        fprintf(f, "input %u %s %s: comp %u\n", i, gt_text(pn->store, pn->roles.v[x->role].name),
                gt_text(pn->store, x->move), x->comp);
    }
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        const PnRole *r = &pn->roles.v[k];
        const char *role = gt_text(pn->store, r->name);
        for (uint32_t i = 0; i < r->legal.n; i++) {
            fprintf(f, "legal %s %s: comp %u", role, gt_text(pn->store, r->legal.v[i].move), r->legal.v[i].comp);
            if (r->legal.v[i].input != PN_NONE)
                fprintf(f, " input %u", r->legal.v[i].input);
            fputc('\n', f);
        }
        for (uint32_t i = 0; i < r->goals.n; i++)
            fprintf(f, "goal %s %s: comp %u\n", role, gt_text(pn->store, r->goals.v[i].term), r->goals.v[i].comp);
    }
    fprintf(f, "terminal: comp %u\n", pn->terminal);
    for (uint32_t i = 0; i < pn->aliases.n; i++)
        fprintf(f, "alias %s: comp %u\n", gt_text(pn->store, pn->aliases.v[i].name), pn->aliases.v[i].comp);
}

static const char *const dot_style[PN_NKINDS] = {
    "shape=box,style=filled,fillcolor=\"#dddddd\"",      /* const */
    "shape=box,style=filled,fillcolor=\"#a6cee3\"",      /* base */
    "shape=box,style=filled,fillcolor=\"#b2df8a\"",      /* input */
    "shape=invhouse,style=filled,fillcolor=\"#fdbf6f\"", /* and */
    "shape=ellipse,style=filled,fillcolor=\"#ffff99\"",  /* or */
    "shape=invtriangle,style=filled,fillcolor=\"#fb9a99\"", /* not */
};

/* A DOT string; a newline becomes DOT's line break. */
static void dot_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '\n') {
            fputs("\\n", f);
            continue;
        }
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void pn_dot(FILE *f, const Propnet *pn, uint32_t focus, uint32_t depth)
{
    pn_dot_with(f, pn, focus, depth, NULL, NULL);
}

void pn_dot_with(FILE *f, const Propnet *pn, uint32_t focus, uint32_t depth, const char *const *extra,
                 const char *trailer)
{
    uint32_t n = pn->comps.n;
    /* the components shown: all, or the cone up to depth levels upstream */
    uint32_t *level = base_xmalloc((n + 1) * sizeof *level);
    for (uint32_t c = 0; c < n; c++)
        level[c] = focus == PN_NONE ? 0 : PN_NONE;
    if (focus != PN_NONE && focus < n) {
        U32Vec q = {0};
        level[focus] = 0;
        vec_push(q, focus);
        for (uint32_t h = 0; h < q.n; h++) {
            uint32_t c = q.v[h];
            if (level[c] >= depth)
                continue;
            const PnComp *x = &pn->comps.v[c];
            for (uint32_t i = 0; i < x->nin; i++) {
                uint32_t d = pn->in.v[x->in_at + i];
                if (level[d] == PN_NONE) {
                    level[d] = level[c] + 1;
                    vec_push(q, d);
                }
            }
        }
        vec_free(q);
    }
    /* each component's aliases, as lists threaded through next_alias */
    uint32_t *first_alias = base_xmalloc((n + 1) * sizeof *first_alias);
    uint32_t *next_alias = base_xmalloc((pn->aliases.n + 1) * sizeof *next_alias);
    for (uint32_t c = 0; c < n; c++)
        first_alias[c] = PN_NONE;
    for (uint32_t i = pn->aliases.n; i-- > 0;) {
        next_alias[i] = first_alias[pn->aliases.v[i].comp];
        first_alias[pn->aliases.v[i].comp] = i;
    }
    fputs("digraph propnet {\n  rankdir=LR;\n  node [fontname=\"Helvetica\",fontsize=10];\n", f);
    for (uint32_t c = 0; c < n; c++) {
        if (level[c] == PN_NONE)
            continue;
        const PnComp *x = &pn->comps.v[c];
        fprintf(f, "  n%u [%s,label=", c, dot_style[x->kind]);
        if (x->name != BASE_NONE) {
            /* the name, then its aliases a line each */
            StrBuf b = {0};
            strbuf_add(&b, name_text(pn, c));
            for (uint32_t i = first_alias[c]; i != PN_NONE; i = next_alias[i]) {
                strbuf_add(&b, "\n");
                strbuf_add(&b, gt_text(pn->store, pn->aliases.v[i].name));
            }
            dot_string(f, b.s);
            free(b.s);
        } else if (x->kind == PN_CONST)
            fputs(x->const_value ? "\"1\"" : "\"0\"", f);
        else
            fprintf(f, "\"%s\"", kind_names[x->kind]);
        if (extra && extra[c])
            fprintf(f, ",%s", extra[c]);
        fputs("];\n", f);
    }
    for (uint32_t c = 0; c < n; c++) {
        if (level[c] == PN_NONE)
            continue;
        const PnComp *x = &pn->comps.v[c];
        for (uint32_t i = 0; i < x->nin; i++) {
            uint32_t d = pn->in.v[x->in_at + i];
            if (level[d] != PN_NONE)
                fprintf(f, "  n%u -> n%u;\n", d, c);
        }
    }
    /* transitions, dashed: base <- its next */
    for (uint32_t i = 0; i < pn->base.n; i++) {
        const PnBase *x = &pn->base.v[i];
        if (x->next != PN_NONE && x->next != x->comp && level[x->comp] != PN_NONE && level[x->next] != PN_NONE)
            fprintf(f, "  n%u -> n%u [style=dashed];\n", x->next, x->comp);
    }
    if (trailer)
        fputs(trailer, f);
    fputs("}\n", f);
    free(level);
    free(first_alias);
    free(next_alias);
}

uint32_t pn_find(const Propnet *pn, Gt name)
{
    for (uint32_t c = 0; c < pn->comps.n; c++)
        if (pn->comps.v[c].name == name)
            return c;
    for (uint32_t i = 0; i < pn->aliases.n; i++)
        if (pn->aliases.v[i].name == name)
            return pn->aliases.v[i].comp;
    return PN_NONE;
}
