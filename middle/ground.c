/*
 * ground.c: the grounder. See ground.h for the contract.
 *
 * Atoms. Every relation has a set of ground atoms: tuples of term ids of a
 * private store (GtStore over the program's own symbols), appended in the
 * order they are found, deduplicated by a hash set, with an index per
 * argument position built on first use (key term -> newest atom, a chain to
 * older ones, and a count, so a join picks the most selective bound
 * position). Atoms are never removed, so an atom's number in its relation
 * is stable and "the atoms found before round k" is a prefix.
 *
 * Two phases, each a semi-naive bottom-up fixpoint.
 *  1. The static relations (those that depend on neither true nor does:
 *     init, role, base, input and the game's tables) exactly, rule stratum
 *     by rule stratum (ir.c's strata: a negated literal only reads rules of
 *     lower strata, complete by then), each stratum to its fixpoint.
 *  2. The dynamic relations together, relaxed: a negated dynamic literal is
 *     assumed to hold; `true` holds what init and next hold, `does` what
 *     legal holds (copied as atoms are added). Static literals read the
 *     complete static relations: a positive one joins, a negated one is
 *     tested. Every full binding of a rule is an instance: its head, and its
 *     dynamic literals, positive and negated, as ground atoms (static ones
 *     hold and are dropped). Instances are deduplicated by their text (two
 *     bindings differing only in variables of static literals, or two rules
 *     from one `or`, make the same instance).
 *
 * Semi-naive rounds. Before a round each relation marks old = its atoms
 * before the previous round and delta = those the previous round added; the
 * round reads nothing added during it. Round 0 joins every rule over all
 * atoms; a later round joins, for each positive literal i whose relation has
 * a delta, literal i over the delta, the positive literals before it over
 * old atoms and those after it over old and delta. Each combination of atoms
 * is thus joined exactly once, in the round after its newest atom appeared.
 * A round that adds nothing ends the phase (or stratum).
 *
 * Joins. For each (rule, delta literal) the literals are ordered greedily:
 * the delta literal first, then any test whose variables are bound
 * (negation, distinct, equality), else the positive literal with the most
 * bound arguments (a literal entirely bound is a lookup), the smaller
 * relation on ties. A bound argument whose term does not exist in the store
 * matches nothing.
 *
 * Output. The ground program (an Ir, see ground.h) has the input's
 * relations, roles and symbols; every static atom as a fact; every instance
 * as a rule, its literals in their source order. A negated literal whose
 * atom is not in the domain holds in every reachable state and is dropped.
 * Terms are interned once each (the same id for the same term), so a
 * hash of term ids is a hash of ground atoms; ir_analyse then computes the
 * graphs.
 *
 * Budgets. Atoms, rules and links are counted as they are made; the first
 * past its budget stops grounding with a message naming the relation that
 * grew. A term deeper than GT_MAX_DEPTH stops it too (a relation whose
 * terms grow without bound: a counter (succ ?x) made from next). Memory per
 * unit: an atom some 60 bytes (tuple, hash slot, index entries, its share of
 * new terms), a link some 40 (the instance's text, the output literal and
 * its arguments), a rule some 60; the defaults keep the worst case near
 * 1.5 GB.
 */
#include "ground.h"

#include "../base/terms.h"

#include <errno.h>
#include <string.h>

/* ---- atom sets ------------------------------------------------------- */

/* An index on one argument position. */
typedef struct PosIndex {
    bool built;
    Gt *keys;          /* open addressing; BASE_NONE empty */
    uint32_t *heads;   /* newest atom with the key */
    uint32_t *counts;  /* atoms with the key */
    uint32_t nslots, nkeys;
    U32Vec next;       /* per atom: the next older atom with its key, or BASE_NONE */
} PosIndex;

typedef struct AtomSet {
    uint32_t arity;
    uint32_t n;        /* atoms */
    U32Vec tuples;     /* n * arity term ids */
    uint32_t *slots;   /* hash set: atom + 1, 0 empty */
    uint32_t nslots;
    PosIndex *idx;     /* per position */
    uint32_t old_end;  /* this round: atoms [0, old_end) are old, */
    uint32_t cur_end;  /* [old_end, cur_end) the delta; later ones wait */
    uint64_t rules;    /* ground rules made for it */
} AtomSet;

static uint64_t tuple_hash(const Gt *t, uint32_t arity)
{
    uint64_t h = 0x2545f491;
    for (uint32_t i = 0; i < arity; i++)
        h = base_mix64(h ^ (t[i] + 0x9e3779b97f4a7c15ULL * (i + 1)));
    return h;
}

static const Gt *atom_at(const AtomSet *s, uint32_t i) { return u32_at(&s->tuples, (size_t)i * s->arity); }

static uint32_t set_find(const AtomSet *s, const Gt *t)
{
    if (!s->nslots)
        return BASE_NONE;
    uint32_t mask = s->nslots - 1;
    for (uint32_t i = (uint32_t)tuple_hash(t, s->arity) & mask;; i = (i + 1) & mask) {
        uint32_t id = s->slots[i];
        if (!id)
            return BASE_NONE;
        if (gt_tuple_eq(atom_at(s, id - 1), t, s->arity))
            return id - 1;
    }
}

static void idx_put(PosIndex *ix, Gt key, uint32_t atom)
{
    uint32_t mask = ix->nslots - 1, i = (uint32_t)base_mix64(key) & mask;
    while (ix->keys[i] != BASE_NONE && ix->keys[i] != key)
        i = (i + 1) & mask;
    vec_reserve(ix->next, atom + 1);
    if (ix->keys[i] == BASE_NONE) {
        ix->keys[i] = key;
        ix->counts[i] = 0;
        ix->nkeys++;
        ix->next.v[atom] = BASE_NONE;
    } else {
        ix->next.v[atom] = ix->heads[i];
    }
    ix->heads[i] = atom;
    ix->counts[i]++;
    if (atom + 1 > ix->next.n)
        ix->next.n = atom + 1;
}

static void idx_build(AtomSet *s, uint32_t pos)
{
    PosIndex *ix = &s->idx[pos];
    uint32_t want = 64;
    while (want < s->n * 2 + 2)
        want *= 2;
    free(ix->keys);
    free(ix->heads);
    free(ix->counts);
    ix->keys = ix->heads = ix->counts = NULL;
    ix->keys = base_xmalloc(want * sizeof *ix->keys);
    ix->heads = base_xmalloc(want * sizeof *ix->heads);
    ix->counts = base_xmalloc(want * sizeof *ix->counts);
    memset(ix->keys, 0xff, want * sizeof *ix->keys);
    ix->nslots = want;
    ix->nkeys = 0;
    ix->next.n = 0;
    ix->built = true;
    for (uint32_t a = 0; a < s->n; a++)
        idx_put(ix, atom_at(s, a)[pos], a);
}

/* The newest atom with key at pos (BASE_NONE: none) and how many there are. */
static uint32_t idx_first(AtomSet *s, uint32_t pos, Gt key, uint32_t *count)
{
    if (!s->idx[pos].built)
        idx_build(s, pos);
    PosIndex *ix = &s->idx[pos];
    uint32_t mask = ix->nslots - 1;
    for (uint32_t i = (uint32_t)base_mix64(key) & mask;; i = (i + 1) & mask) {
        if (ix->keys[i] == BASE_NONE) {
            *count = 0;
            return BASE_NONE;
        }
        if (ix->keys[i] == key) {
            *count = ix->counts[i];
            return ix->heads[i];
        }
    }
}

/* Adds an atom; false when it was there. */
static bool set_add(AtomSet *s, const Gt *t)
{
    if (set_find(s, t) != BASE_NONE)
        return false;
    if ((uint64_t)(s->n + 1) * 2 > s->nslots) {
        uint32_t n = s->nslots ? s->nslots * 2 : 16;
        uint32_t *slots = base_xcalloc(n, sizeof *slots);
        free(s->slots);
        s->slots = slots;
        s->nslots = n;
        for (uint32_t a = 0; a < s->n; a++) {
            uint32_t i = (uint32_t)tuple_hash(atom_at(s, a), s->arity) & (n - 1);
            while (s->slots[i])
                i = (i + 1) & (n - 1);
            s->slots[i] = a + 1;
        }
    }
    uint32_t a = s->n++;
    vec_reserve(s->tuples, s->tuples.n + s->arity + 1);
    for (uint32_t i = 0; i < s->arity; i++)
        s->tuples.v[s->tuples.n++] = t[i];
    uint32_t mask = s->nslots - 1, i = (uint32_t)tuple_hash(t, s->arity) & mask;
    while (s->slots[i])
        i = (i + 1) & mask;
    s->slots[i] = a + 1;
    for (uint32_t p = 0; p < s->arity; p++)
        if (s->idx[p].built) {
            if ((uint64_t)(s->idx[p].nkeys + 1) * 2 > s->idx[p].nslots)
                idx_build(s, p);
            else
                idx_put(&s->idx[p], t[p], a);
        }
    return true;
}

static void set_free(AtomSet *s)
{
    vec_free(s->tuples);
    free(s->slots);
    for (uint32_t p = 0; s->idx && p < s->arity; p++) {
        free(s->idx[p].keys);
        free(s->idx[p].heads);
        free(s->idx[p].counts);
        vec_free(s->idx[p].next);
    }
    free(s->idx);
}

/* ---- the grounder's state ------------------------------------------- */

typedef struct Grounder {
    const Ir *ir;
    GroundLimits lim;
    GtStore st;
    AtomSet *rel;        /* per relation */
    bool *is_static;     /* per relation: depends on neither true nor does */
    uint64_t natoms;
    bool relaxed;        /* phase 2: dynamic negation ignored, instances recorded */
    char *err;           /* the budget exceeded (set once: everything unwinds) */
    /* the rule being joined */
    const IrRule *rule;
    Gt *env;             /* per variable: its term, BASE_NONE unbound */
    U32Vec trail;        /* variables bound, for undoing */
    uint32_t *lo, *hi;   /* per body literal: the atoms it reads, [lo, hi) */
    /* instances: head relation, head arguments, number of literals, then
     * per literal its relation << 1 | negated and its arguments */
    U32Vec inst;
    U32Vec inst_at;      /* start of each in inst */
    uint32_t *islots;    /* hash set of instance + 1 */
    uint32_t nislots;
    U32Vec cur;          /* the instance being made */
    uint64_t nlinks;
} Grounder;

static const char *rel_name(const Grounder *g, uint32_t rel)
{
    return symtab_str(g->ir->syms, g->ir->rels.v[rel].sym);
}

static void stop(Grounder *g, char *msg)
{
    if (!g->err)
        g->err = msg;
    else
        free(msg);
}

/* Adds an atom to rel, with the copies of the relaxed domain (true from
 * next, does from legal). False when it was there or grounding stopped. */
static bool add_atom(Grounder *g, uint32_t rel, const Gt *t)
{
    AtomSet *s = &g->rel[rel];
    if (g->err || !set_add(s, t))
        return false;
    if (++g->natoms > g->lim.max_atoms) {
        stop(g, base_sprintf("grounding stopped: relation '%s' grew to %u atoms, past the budget of %llu atoms in "
                             "all (max-atoms=%llu)",
                             rel_name(g, rel), s->n, (unsigned long long)g->lim.max_atoms,
                             (unsigned long long)g->lim.max_atoms));
        return false;
    }
    const Ir *ir = g->ir;
    uint32_t kind = ir->rels.v[rel].kind;
    if (kind == IR_REL_NEXT && ir->kwrel[IR_REL_TRUE] != BASE_NONE)
        add_atom(g, ir->kwrel[IR_REL_TRUE], t);
    else if (kind == IR_REL_LEGAL && ir->kwrel[IR_REL_DOES] != BASE_NONE)
        add_atom(g, ir->kwrel[IR_REL_DOES], t);
    return true;
}

/* ---- terms under the bindings ---------------------------------------- */

/* The term a pattern stands for: BASE_NONE when a variable in it is
 * unbound, or (intern false) when no such term exists, or (intern true)
 * when it would be too deep (g->err then says so). */
static Gt build(Grounder *g, uint32_t term, bool intern)
{
    const Ir *ir = g->ir;
    const IrTerm *t = &ir->terms.v[term];
    switch (t->kind) {
    case IR_VAR:
        return g->env[t->val];
    case IR_CONST:
        return intern ? gt_intern(&g->st, t->val, 0, NULL) : gt_find(&g->st, t->val, 0, NULL);
    default: {
        Gt args[t->nargs];
        for (uint32_t i = 0; i < t->nargs; i++)
            if ((args[i] = build(g, ir->targs.v[t->args + i], intern)) == BASE_NONE)
                return BASE_NONE;
        uint32_t fn = ir->funcs.v[t->val].sym;
        if (!intern)
            return gt_find(&g->st, fn, t->nargs, args);
        Gt x = gt_intern(&g->st, fn, t->nargs, args);
        if (x == BASE_NONE)
            stop(g, base_sprintf("grounding stopped: relation '%s' builds terms nested deeper than %d levels (its "
                                 "rules make ever larger terms)",
                                 rel_name(g, g->rule->head), GT_MAX_DEPTH));
        return x;
    }
    }
}

static bool match(Grounder *g, uint32_t term, Gt x)
{
    const Ir *ir = g->ir;
    const IrTerm *t = &ir->terms.v[term];
    switch (t->kind) {
    case IR_VAR:
        if (g->env[t->val] != BASE_NONE)
            return g->env[t->val] == x;
        g->env[t->val] = x;
        vec_push(g->trail, t->val);
        return true;
    case IR_CONST:
        return gt_fn(&g->st, x) == t->val && gt_arity(&g->st, x) == 0;
    default:
        if (gt_fn(&g->st, x) != ir->funcs.v[t->val].sym || gt_arity(&g->st, x) != t->nargs)
            return false;
        for (uint32_t i = 0; i < t->nargs; i++)
            if (!match(g, ir->targs.v[t->args + i], gt_arg(&g->st, x, i)))
                return false;
        return true;
    }
}

static void undo(Grounder *g, uint32_t mark)
{
    while (g->trail.n > mark)
        g->env[g->trail.v[--g->trail.n]] = BASE_NONE;
}

static bool term_bound(const Grounder *g, uint32_t term)
{
    const IrTerm *t = &g->ir->terms.v[term];
    if (t->kind == IR_VAR)
        return g->env[t->val] != BASE_NONE;
    for (uint32_t i = 0; t->kind == IR_FN && i < t->nargs; i++)
        if (!term_bound(g, g->ir->targs.v[t->args + i]))
            return false;
    return true;
}

/* Marks the variables of a term bound (for planning: env holds 0). */
static void term_bind(Grounder *g, uint32_t term)
{
    const IrTerm *t = &g->ir->terms.v[term];
    if (t->kind == IR_VAR)
        g->env[t->val] = 0;
    for (uint32_t i = 0; t->kind == IR_FN && i < t->nargs; i++)
        term_bind(g, g->ir->targs.v[t->args + i]);
}

/* ---- instances ------------------------------------------------------- */

static uint64_t words_hash(const uint32_t *w, uint32_t n)
{
    return base_hash_bytes(w, (size_t)n * sizeof *w, 0x6a09e667);
}

static const uint32_t *inst_words(const Grounder *g, uint32_t i, uint32_t *n)
{
    uint32_t at = g->inst_at.v[i];
    *n = (i + 1 < g->inst_at.n ? g->inst_at.v[i + 1] : g->inst.n) - at;
    return g->inst.v + at;
}

/* Records g->cur as an instance unless it is one already. */
static void record(Grounder *g, uint32_t head, uint32_t nlits)
{
    uint64_t h = words_hash(g->cur.v, g->cur.n);
    if ((uint64_t)(g->inst_at.n + 1) * 2 > g->nislots) {
        uint32_t n = g->nislots ? g->nislots * 2 : 1024;
        uint32_t *slots = base_xcalloc(n, sizeof *slots);
        for (uint32_t k = 0; k < g->inst_at.n; k++) {
            uint32_t len;
            const uint32_t *w = inst_words(g, k, &len);
            uint32_t i = (uint32_t)words_hash(w, len) & (n - 1);
            while (slots[i])
                i = (i + 1) & (n - 1);
            slots[i] = k + 1;
        }
        free(g->islots);
        g->islots = slots;
        g->nislots = n;
    }
    uint32_t mask = g->nislots - 1, i = (uint32_t)h & mask;
    for (; g->islots[i]; i = (i + 1) & mask) {
        uint32_t len;
        const uint32_t *w = inst_words(g, g->islots[i] - 1, &len);
        if (len == g->cur.n && memcmp(w, g->cur.v, len * sizeof *w) == 0)
            return;
    }
    AtomSet *s = &g->rel[head];
    if (g->inst_at.n + 1 > g->lim.max_rules) {
        stop(g, base_sprintf("grounding stopped: relation '%s' grew to %llu ground rules, past the budget of %llu "
                             "rules in all (max-rules=%llu)",
                             rel_name(g, head), (unsigned long long)s->rules + 1,
                             (unsigned long long)g->lim.max_rules, (unsigned long long)g->lim.max_rules));
        return;
    }
    if (g->nlinks + nlits > g->lim.max_links) {
        stop(g, base_sprintf("grounding stopped: the ground rules of relation '%s' (%llu so far) took the body "
                             "literals past the budget of %llu in all (max-links=%llu)",
                             rel_name(g, head), (unsigned long long)s->rules, (unsigned long long)g->lim.max_links,
                             (unsigned long long)g->lim.max_links));
        return;
    }
    s->rules++;
    g->nlinks += nlits;
    g->islots[i] = g->inst_at.n + 1;
    vec_push(g->inst_at, g->inst.n);
    vec_reserve(g->inst, g->inst.n + g->cur.n + 1);
    memcpy(g->inst.v + g->inst.n, g->cur.v, g->cur.n * sizeof *g->cur.v);
    g->inst.n += g->cur.n;
}

/* A full binding of the rule: its head is an atom; in phase 2 the binding
 * is an instance too. */
static void emit(Grounder *g)
{
    const Ir *ir = g->ir;
    const IrRule *r = g->rule;
    uint32_t arity = ir->rels.v[r->head].arity;
    Gt head[arity + 1];
    for (uint32_t a = 0; a < arity; a++)
        if ((head[a] = build(g, ir->largs.v[r->args + a], true)) == BASE_NONE)
            return;
    add_atom(g, r->head, head);
    if (!g->relaxed || g->err)
        return;
    g->cur.n = 0;
    vec_push(g->cur, r->head);
    for (uint32_t a = 0; a < arity; a++)
        vec_push(g->cur, head[a]);
    uint32_t count_at = g->cur.n, nlits = 0;
    vec_push(g->cur, 0);
    for (uint32_t j = 0; j < r->nlits; j++) {
        const IrLit *l = &ir->lits.v[r->lits + j];
        if ((l->kind != IR_LIT_POS && l->kind != IR_LIT_NEG) || g->is_static[l->rel])
            continue;
        vec_push(g->cur, l->rel << 1 | (l->kind == IR_LIT_NEG));
        for (uint32_t a = 0; a < l->nargs; a++) {
            Gt x = build(g, ir->largs.v[l->args + a], true);
            if (x == BASE_NONE)
                return;
            vec_push(g->cur, x);
        }
        nlits++;
    }
    g->cur.v[count_at] = nlits;
    record(g, r->head, nlits);
}

/* ---- joins ----------------------------------------------------------- */

static void join(Grounder *g, const uint32_t *plan, uint32_t n, uint32_t k);

/* Goes on with the join once atom a of the literal is matched. */
static void join_atom(Grounder *g, const IrLit *l, const AtomSet *s, uint32_t a, const uint32_t *plan, uint32_t n,
                      uint32_t k)
{
    uint32_t mark = g->trail.n;
    bool ok = true;
    for (uint32_t i = 0; i < l->nargs && ok; i++)
        ok = match(g, g->ir->largs.v[l->args + i], atom_at(s, a)[i]);
    if (ok)
        join(g, plan, n, k + 1);
    undo(g, mark);
}

/* Plan step k of n: plan[k] is a body literal of g->rule. */
static void join(Grounder *g, const uint32_t *plan, uint32_t n, uint32_t k)
{
    if (g->err)
        return;
    if (k == n) {
        emit(g);
        return;
    }
    const Ir *ir = g->ir;
    uint32_t j = plan[k];
    const IrLit *l = &ir->lits.v[g->rule->lits + j];
    switch (l->kind) {
    case IR_LIT_POS: {
        AtomSet *s = &g->rel[l->rel];
        uint32_t lo = g->lo[j], hi = g->hi[j];
        Gt call[l->nargs + 1];
        uint32_t best = BASE_NONE, best_count = hi - lo, first = BASE_NONE, nbound = 0;
        for (uint32_t a = 0; a < l->nargs; a++) {
            uint32_t t = ir->largs.v[l->args + a];
            call[a] = BASE_NONE;
            if (!term_bound(g, t))
                continue;
            if ((call[a] = build(g, t, false)) == BASE_NONE)
                return; /* no such term: no atom has it */
            nbound++;
            uint32_t count, f = idx_first(s, a, call[a], &count);
            if (count < best_count || best == BASE_NONE) {
                best = a;
                best_count = count;
                first = f;
            }
        }
        if (nbound == l->nargs) {
            uint32_t a = set_find(s, call);
            if (a != BASE_NONE && a >= lo && a < hi)
                join(g, plan, n, k + 1);
            return;
        }
        if (best != BASE_NONE && best_count < hi - lo) {
            for (uint32_t a = first; a != BASE_NONE && !g->err; a = s->idx[best].next.v[a])
                if (a >= lo && a < hi)
                    join_atom(g, l, s, a, plan, n, k);
        } else {
            for (uint32_t a = lo; a < hi && !g->err; a++)
                join_atom(g, l, s, a, plan, n, k);
        }
        return;
    }
    case IR_LIT_NEG: {
        if (!g->is_static[l->rel]) {
            join(g, plan, n, k + 1); /* relaxed: assumed to hold */
            return;
        }
        Gt call[l->nargs + 1];
        bool exists = true;
        for (uint32_t a = 0; a < l->nargs && exists; a++)
            exists = (call[a] = build(g, ir->largs.v[l->args + a], false)) != BASE_NONE;
        if (!exists || set_find(&g->rel[l->rel], call) == BASE_NONE)
            join(g, plan, n, k + 1);
        return;
    }
    default: {
        Gt a = build(g, ir->largs.v[l->args], true), b = build(g, ir->largs.v[l->args + 1], true);
        if (a == BASE_NONE || b == BASE_NONE)
            return;
        if ((a == b) == (l->kind == IR_LIT_EQUAL))
            join(g, plan, n, k + 1);
        return;
    }
    }
}

/* Orders the body of g->rule for a join with literal delta (BASE_NONE:
 * none) first; returns the number of steps. */
static uint32_t plan_rule(Grounder *g, uint32_t delta, uint32_t *plan)
{
    const Ir *ir = g->ir;
    const IrRule *r = g->rule;
    bool placed[r->nlits + 1];
    uint32_t n = 0;
    memset(placed, 0, sizeof placed);
    for (uint32_t v = 0; v < r->nvars; v++)
        g->env[v] = BASE_NONE;
    if (delta != BASE_NONE) {
        plan[n++] = delta;
        placed[delta] = true;
        const IrLit *l = &ir->lits.v[r->lits + delta];
        for (uint32_t a = 0; a < l->nargs; a++)
            term_bind(g, ir->largs.v[l->args + a]);
    }
    while (n < r->nlits) {
        uint32_t pick = BASE_NONE;
        int64_t best = -1;
        for (uint32_t j = 0; j < r->nlits && best < INT64_MAX; j++) {
            if (placed[j])
                continue;
            const IrLit *l = &ir->lits.v[r->lits + j];
            uint32_t bound = 0;
            for (uint32_t a = 0; a < l->nargs; a++)
                bound += term_bound(g, ir->largs.v[l->args + a]);
            if (l->kind != IR_LIT_POS) {
                if (bound == l->nargs) {
                    pick = j;
                    best = INT64_MAX;
                }
                continue;
            }
            /* more bound arguments first; then the fewer atoms to read */
            uint32_t size = g->hi[j] - g->lo[j];
            int64_t score = bound == l->nargs ? INT64_MAX - 1 : ((int64_t)bound << 32) + (UINT32_MAX - size);
            if (score > best) {
                best = score;
                pick = j;
            }
        }
        if (pick == BASE_NONE) {
            /* cannot happen in a safe rule; place the rest as written */
            for (uint32_t j = 0; j < r->nlits; j++)
                if (!placed[j]) {
                    placed[j] = true;
                    plan[n++] = j;
                }
            break;
        }
        placed[pick] = true;
        plan[n++] = pick;
        const IrLit *l = &ir->lits.v[r->lits + pick];
        for (uint32_t a = 0; l->kind == IR_LIT_POS && a < l->nargs; a++)
            term_bind(g, ir->largs.v[l->args + a]);
    }
    for (uint32_t v = 0; v < r->nvars; v++)
        g->env[v] = BASE_NONE;
    g->trail.n = 0;
    return n;
}

/* One join of a rule, literal delta over its relation's delta (BASE_NONE:
 * round 0, every literal over every atom). */
static void join_rule(Grounder *g, uint32_t rule, uint32_t delta)
{
    const Ir *ir = g->ir;
    const IrRule *r = &ir->rules.v[rule];
    g->rule = r;
    for (uint32_t j = 0; j < r->nlits; j++) {
        const IrLit *l = &ir->lits.v[r->lits + j];
        g->lo[j] = g->hi[j] = 0;
        if (l->kind != IR_LIT_POS)
            continue;
        const AtomSet *s = &g->rel[l->rel];
        g->hi[j] = delta == BASE_NONE || j > delta ? s->cur_end : j == delta ? s->cur_end : s->old_end;
        g->lo[j] = j == delta ? s->old_end : 0;
    }
    uint32_t plan[r->nlits + 1];
    uint32_t n = plan_rule(g, delta, plan);
    join(g, plan, n, 0);
}

/* A semi-naive fixpoint of the given rules. With inst_rule, the rule that
 * made each instance is noted there (for its source offset). */
static void fixpoint(Grounder *g, const uint32_t *rules, uint32_t nrules, U32Vec *inst_rule)
{
    const Ir *ir = g->ir;
    for (uint32_t round = 0; !g->err; round++) {
        bool any = false;
        for (uint32_t r = 0; r < ir->rels.n; r++) {
            AtomSet *s = &g->rel[r];
            s->old_end = round ? s->cur_end : s->n;
            s->cur_end = s->n;
            any |= s->old_end < s->cur_end;
        }
        if (round && !any)
            return;
        for (uint32_t k = 0; k < nrules && !g->err; k++) {
            const IrRule *r = &ir->rules.v[rules[k]];
            if (!round) {
                join_rule(g, rules[k], BASE_NONE);
            } else {
                for (uint32_t j = 0; j < r->nlits && !g->err; j++) {
                    const IrLit *l = &ir->lits.v[r->lits + j];
                    if (l->kind == IR_LIT_POS && g->rel[l->rel].old_end < g->rel[l->rel].cur_end)
                        join_rule(g, rules[k], j);
                }
            }
            while (inst_rule && inst_rule->n < g->inst_at.n)
                vec_push(*inst_rule, rules[k]);
        }
    }
}

/* ---- output ----------------------------------------------------------- */

typedef struct Out {
    Grounder *g;
    Ir *ir;
    uint32_t *term_of;   /* per store term: its IrTerm + 1 */
    uint32_t *func_of;   /* per symbol: a function id + 1 (the first of that name) */
} Out;

static uint32_t out_term(Out *o, Gt x)
{
    if (o->term_of[x])
        return o->term_of[x] - 1;
    const GtStore *st = &o->g->st;
    uint32_t arity = gt_arity(st, x), sym = gt_fn(st, x);
    IrTerm t = {.kind = arity ? IR_FN : IR_CONST, .val = sym, .nargs = arity};
    if (arity) {
        uint32_t args[arity];
        for (uint32_t i = 0; i < arity; i++)
            args[i] = out_term(o, gt_arg(st, x, i));
        const Ir *in = o->g->ir;
        uint32_t f = o->func_of[sym] ? o->func_of[sym] - 1 : 0;
        while (f < in->funcs.n && !(in->funcs.v[f].sym == sym && in->funcs.v[f].arity == arity))
            f++;
        t.val = f; /* every functor of a ground term comes from a rule: it is there */
        t.args = o->ir->targs.n;
        for (uint32_t i = 0; i < arity; i++)
            vec_push(o->ir->targs, args[i]);
    }
    vec_push(o->ir->terms, t);
    o->term_of[x] = o->ir->terms.n;
    return o->ir->terms.n - 1;
}

static void out_rule(Out *o, uint32_t head, const Gt *args, uint32_t off, uint32_t ast_rule)
{
    IrRule r = {.head = head, .args = o->ir->largs.n, .lits = o->ir->lits.n, .off = off, .ast_rule = ast_rule};
    for (uint32_t a = 0; a < o->ir->rels.v[head].arity; a++)
        vec_push(o->ir->largs, out_term(o, args[a]));
    vec_push(o->ir->rules, r);
}

static void out_lit(Out *o, uint32_t rel, bool neg, const Gt *args)
{
    IrLit l = {.kind = neg ? IR_LIT_NEG : IR_LIT_POS, .rel = rel, .args = o->ir->largs.n,
               .nargs = o->ir->rels.v[rel].arity};
    for (uint32_t a = 0; a < l.nargs; a++)
        vec_push(o->ir->largs, out_term(o, args[a]));
    vec_push(o->ir->lits, l);
    o->ir->rules.v[o->ir->rules.n - 1].nlits++;
}

static void output(Grounder *g, Ir *out, GroundStats *stats, const uint32_t *inst_rule)
{
    const Ir *in = g->ir;
    memset(out, 0, sizeof *out);
    out->syms = in->syms;
    out->src = in->src;
    for (uint32_t i = 0; i < in->funcs.n; i++)
        vec_push(out->funcs, in->funcs.v[i]);
    for (uint32_t r = 0; r < in->rels.n; r++)
        vec_push(out->rels, in->rels.v[r]);
    for (uint32_t i = 0; i < in->roles.n; i++)
        vec_push(out->roles, in->roles.v[i]);
    memcpy(out->kwrel, in->kwrel, sizeof out->kwrel);
    Out o = {g, out, NULL, NULL};
    o.term_of = base_xcalloc(g->st.fn.n + 1, sizeof *o.term_of);
    o.func_of = base_xcalloc(in->syms->n + 1, sizeof *o.func_of);
    for (uint32_t f = in->funcs.n; f-- > 0;)
        o.func_of[in->funcs.v[f].sym] = f + 1;
    uint64_t facts = 0;
    for (uint32_t r = 0; r < in->rels.n; r++) {
        if (!g->is_static[r])
            continue;
        const AtomSet *s = &g->rel[r];
        uint32_t off = in->rels.v[r].def_off != BASE_NONE ? in->rels.v[r].def_off : 0;
        for (uint32_t a = 0; a < s->n; a++)
            out_rule(&o, r, atom_at(s, a), off, BASE_NONE);
        facts += s->n;
    }
    for (uint32_t i = 0; i < g->inst_at.n; i++) {
        uint32_t len;
        const uint32_t *w = inst_words(g, i, &len);
        const IrRule *src = &in->rules.v[inst_rule[i]];
        uint32_t head = w[0], at = 1 + in->rels.v[head].arity;
        out_rule(&o, head, w + 1, src->off, src->ast_rule);
        uint32_t nl = w[at++];
        for (uint32_t k = 0; k < nl; k++) {
            uint32_t rel = w[at] >> 1;
            bool neg = w[at] & 1;
            const Gt *args = w + at + 1;
            at += 1 + in->rels.v[rel].arity;
            /* an atom outside the domain is false in every reachable state */
            if (neg && set_find(&g->rel[rel], args) == BASE_NONE)
                continue;
            out_lit(&o, rel, neg, args);
        }
    }
    free(o.term_of);
    free(o.func_of);
    ir_analyse(out);
    if (stats) {
        stats->atoms = g->natoms;
        stats->rules = out->rules.n;
        stats->links = out->lits.n;
        stats->static_facts = facts;
    }
}

/* ---- the passes -------------------------------------------------------- */

static void grounder_free(Grounder *g)
{
    for (uint32_t r = 0; g->rel && r < g->ir->rels.n; r++)
        set_free(&g->rel[r]);
    free(g->rel);
    free(g->is_static);
    free(g->env);
    free(g->lo);
    free(g->hi);
    vec_free(g->trail);
    vec_free(g->inst);
    vec_free(g->inst_at);
    vec_free(g->cur);
    free(g->islots);
    gt_free(&g->st);
}

GroundResult ground_run(const Ir *in, const GroundLimits *lim, Ir *out, GroundStats *stats, char **err)
{
    Grounder g = {.ir = in};
    memset(out, 0, sizeof *out);
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (err)
        *err = NULL;
    g.lim.max_atoms = lim && lim->max_atoms ? lim->max_atoms : GROUND_DEFAULT_MAX_ATOMS;
    g.lim.max_rules = lim && lim->max_rules ? lim->max_rules : GROUND_DEFAULT_MAX_RULES;
    g.lim.max_links = lim && lim->max_links ? lim->max_links : GROUND_DEFAULT_MAX_LINKS;
    gt_init(&g.st, in->syms);
    uint32_t nr = in->rels.n, maxvars = 1, maxlits = 1;
    g.rel = base_xcalloc(nr + 1, sizeof *g.rel);
    g.is_static = base_xcalloc(nr + 1, sizeof *g.is_static);
    for (uint32_t r = 0; r < nr; r++) {
        const IrRel *rel = &in->rels.v[r];
        g.is_static[r] = !rel->dep_true && !rel->dep_does;
        g.rel[r].arity = rel->arity;
        g.rel[r].idx = base_xcalloc(rel->arity + 1, sizeof *g.rel[r].idx);
    }
    for (uint32_t i = 0; i < in->rules.n; i++) {
        if (in->rules.v[i].nvars + 1 > maxvars)
            maxvars = in->rules.v[i].nvars + 1;
        if (in->rules.v[i].nlits + 1 > maxlits)
            maxlits = in->rules.v[i].nlits + 1;
    }
    g.env = base_xmalloc(maxvars * sizeof *g.env);
    g.lo = base_xmalloc(maxlits * sizeof *g.lo);
    g.hi = base_xmalloc(maxlits * sizeof *g.hi);
    U32Vec rules = {0}, inst_rule = {0};

    /* 1. static relations, stratum by stratum */
    for (uint32_t s = 0; s < in->nstrata && !g.err; s++) {
        rules.n = 0;
        for (uint32_t i = 0; i < in->rules.n; i++)
            if (g.is_static[in->rules.v[i].head] && in->rules.v[i].stratum == s)
                vec_push(rules, i);
        if (rules.n)
            fixpoint(&g, rules.v, rules.n, NULL);
    }
    /* 2. the dynamic ones, relaxed, with true seeded from init */
    g.relaxed = true;
    uint32_t init = in->kwrel[IR_REL_INIT], tru = in->kwrel[IR_REL_TRUE];
    for (uint32_t a = 0; init != BASE_NONE && tru != BASE_NONE && a < g.rel[init].n && !g.err; a++)
        add_atom(&g, tru, atom_at(&g.rel[init], a));
    rules.n = 0;
    for (uint32_t i = 0; i < in->rules.n; i++)
        if (!g.is_static[in->rules.v[i].head])
            vec_push(rules, i);
    fixpoint(&g, rules.v, rules.n, &inst_rule);
    vec_free(rules);
    GroundResult res = GROUND_OK;
    if (g.err) {
        if (err)
            *err = g.err;
        else
            free(g.err);
        res = GROUND_LIMIT;
    } else {
        output(&g, out, stats, inst_rule.v);
    }
    vec_free(inst_rule);
    grounder_free(&g);
    return res;
}

/* ---- printing and options --------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void ground_dump(FILE *f, const Ir *ir)
{
    fprintf(f, "roles:");
    for (uint32_t i = 0; i < ir->roles.n; i++)
        fprintf(f, " %s", symtab_str(ir->syms, ir->roles.v[i]));
    fprintf(f, "\n");
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        const IrRel *rel = &ir->rels.v[r];
        if (!rel->nrules)
            continue;
        char **text = base_xcalloc(rel->nrules, sizeof *text);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            if (!m)
                base_fatal("out of memory");
            base_journal_adopt(buf);
            ir_print_rule(m, ir, ir->rule_index.v[rel->rules + k]);
            if (fclose(m) != 0 || !buf)
                base_fatal("out of memory");
            text[k] = buf;
        }
        qsort(text, rel->nrules, sizeof *text, cmp_str);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            fprintf(f, "%s\n", text[k]);
            free(text[k]);
        }
        free(text);
    }
}

bool ground_limits_parse(const char *spec, GroundLimits *lim, char **err)
{
    static const struct {
        const char *name;
        size_t at;
    } keys[] = {
        {"max-atoms", offsetof(GroundLimits, max_atoms)},
        {"max-rules", offsetof(GroundLimits, max_rules)},
        {"max-links", offsetof(GroundLimits, max_links)},
    };
    *err = NULL;
    const char *p = spec;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        size_t klen = eq ? (size_t)(eq - p) : len;
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && !(strlen(keys[k].name) == klen && !strncmp(keys[k].name, p, klen)))
            k++;
        if (k == sizeof keys / sizeof keys[0]) {
            *err = base_sprintf("unknown grounding budget '%.*s' (budgets: max-atoms=N, max-rules=N, max-links=N)",
                                (int)klen, p);
            return false;
        }
        const char *v = eq ? eq + 1 : p + len;
        size_t vlen = (size_t)(p + len - v);
        uint64_t x = 0;
        bool ok = eq && vlen > 0 && vlen <= 19;
        for (size_t i = 0; ok && i < vlen; i++) {
            ok = v[i] >= '0' && v[i] <= '9';
            x = x * 10 + (uint64_t)(v[i] - '0');
        }
        if (!ok || x == 0) {
            *err = base_sprintf("%s takes a positive whole number, not '%.*s'", keys[k].name, eq ? (int)vlen : 0,
                                eq ? v : "");
            return false;
        }
        *(uint64_t *)((char *)lim + keys[k].at) = x;
        p += len;
        if (*p == ',') {
            p++;
            if (!*p) {
                *err = base_xstrdup("a grounding budget list may not end with a comma");
                return false;
            }
        }
    }
    return true;
}
