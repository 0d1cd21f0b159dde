/*
 * ground.c: the grounder. See ground.h for the contract.
 *
 * Atoms. Every relation has a set of ground atoms: tuples of term ids of a
 * private store (GtStore over the program's own symbols), appended in the
 * order they are found, deduplicated by a hash set, with indexes built on
 * first use (at most 12 a relation: see Joins; key -> newest atom, a chain
 * to older ones, and a count, so a join picks the most selective). Atoms
 * are never removed, so an atom's number in its relation
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
 * Joins. The order of a rule's literals is chosen as the join goes: a test
 * (negation, distinct, equality) as soon as its variables are bound; else
 * the positive literal of least cost, its atoms to try under the bindings
 * so far times what it would leave the others to try (from the indexes'
 * average atoms per key). A positive literal reads its atoms through the
 * most selective index of its bound places: an argument, a place inside
 * the function term there (two levels down), or several arguments at once;
 * every argument bound is a lookup. A bound argument whose term does not
 * exist in the store matches nothing.
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
 * grew. The atoms the joins try are counted too, against 16 times the
 * budget of links, so that a join of large tables which makes little stops
 * as well (naming the relation whose rules it joins). A term deeper than
 * GT_MAX_DEPTH stops it too (a relation whose terms grow without bound: a
 * counter (s ?x) made from next). Memory per unit, roughly: an atom 100
 * bytes (tuple, hash slot, its entries in up to 12 indexes, its share of
 * new terms), a link 60 (the instance's text, the output literal and its
 * arguments, its edge in ir_analyse's graph), a rule 60; at the default
 * budgets the worst case is under some 2 GB (measured: brawl, 2.6 million
 * rules and 5.4 million links, peaks at 0.6 GB with its dump).
 */
#include "ground.h"

#include "../base/terms.h"

#include <string.h>
#include <time.h>

/* ---- atom sets ------------------------------------------------------- */

/* runtime/ref.c carries a set of tuples much like this one (FactSet), on
 * purpose apart: ref is the oracle that the networks made from this
 * grounding are checked against, so it shares no code with it (see the
 * note there). Here the indexes are on paths into terms, and the rounds
 * of the semi-naive evaluation (old_end, cur_end) live in the set. */

/* An index on one path into the atoms: an argument position, or a
 * position inside the function term there (two levels down at most), so
 * that (true (cell ?x 3 ?p)) with 3 known reads only atoms with 3 there. */
typedef struct PosIndex {
    uint32_t path;     /* (a + 1) | (i + 1) << 8 | (j + 1) << 16: argument a, its argument i, its argument j;
                        * or PATH_SET | the bits of several arguments (a composite key) */
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
    VEC(PosIndex) idx; /* the paths indexed, made on first use */
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

enum {
    GROUND_MAX_REL_ATOMS = 1u << 29, /* atoms of one relation, whatever the budgets (hash tables double it) */
    PATH_SET = 1u << 31, /* a path of several arguments: the low bits say which */
    PATH_MAX_ARG = 254,  /* arguments from here on are not indexed (a path holds a + 1 in 8 bits) */
};

/* The key of an atom at path: the term there, or for a set of arguments a
 * hash of their terms (two keys may collide: whoever reads a chain matches
 * its atoms anyway); BASE_NONE when the atom has no such place (a constant
 * where the path goes down). */
static Gt path_key(const GtStore *st, const Gt *atom, uint32_t path)
{
    if (path & PATH_SET) {
        uint64_t h = 0x7f4a;
        for (uint32_t a = 0; a < 31; a++)
            if (path >> a & 1)
                h = base_mix64(h ^ (atom[a] + 0x9e3779b97f4a7c15ULL * (a + 1)));
        return (Gt)h == BASE_NONE ? 0 : (Gt)h;
    }
    Gt t = atom[(path & 0xff) - 1];
    for (uint32_t shift = 8; shift <= 16; shift += 8) {
        uint32_t i = path >> shift & 0xff;
        if (!i)
            break;
        if (gt_arity(st, t) < i)
            return BASE_NONE;
        t = gt_arg(st, t, i - 1);
    }
    return t;
}

static void idx_build(const GtStore *st, AtomSet *s, PosIndex *ix)
{
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
    for (uint32_t a = 0; a < s->n; a++) {
        Gt key = path_key(st, atom_at(s, a), ix->path);
        if (key != BASE_NONE)
            idx_put(ix, key, a);
    }
}

enum {
    /* the joins may try this many atoms per link of the budget: a join
     * that tries atoms by the billion while making few rules (a product
     * of large tables) stops too, in tens of seconds rather than hours */
    GROUND_STEPS_PER_LINK = 16,
};

enum { GROUND_MAX_INDEXES = 12 /* indexes of one relation: each costs some 16 bytes an atom */ };

/* The index on path, made when new; NULL when the relation has as many as
 * it may (a relation read with ever other arguments bound, such as a
 * table of 2^20 bit strings, would otherwise take an index per pattern). */
static PosIndex *idx_get(const GtStore *st, AtomSet *s, uint32_t path)
{
    for (uint32_t k = 0; k < s->idx.n; k++)
        if (s->idx.v[k].path == path)
            return &s->idx.v[k];
    if (s->idx.n >= GROUND_MAX_INDEXES)
        return NULL;
    PosIndex ix = {.path = path};
    vec_push(s->idx, ix);
    idx_build(st, s, &s->idx.v[s->idx.n - 1]);
    return &s->idx.v[s->idx.n - 1];
}

/* The newest atom with key at the index's path (BASE_NONE: none) and how
 * many there are. */
static uint32_t idx_first(const PosIndex *ix, Gt key, uint32_t *count)
{
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
static bool set_add(const GtStore *st, AtomSet *s, const Gt *t)
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
    for (uint32_t p = 0; p < s->idx.n; p++) {
        PosIndex *ix = &s->idx.v[p];
        Gt key = path_key(st, t, ix->path);
        if ((uint64_t)(ix->nkeys + 1) * 2 > ix->nslots)
            idx_build(st, s, ix);
        else if (key != BASE_NONE)
            idx_put(ix, key, a);
    }
    return true;
}

static void set_free(AtomSet *s)
{
    vec_free(s->tuples);
    free(s->slots);
    for (uint32_t p = 0; p < s->idx.n; p++) {
        free(s->idx.v[p].keys);
        free(s->idx.v[p].heads);
        free(s->idx.v[p].counts);
        vec_free(s->idx.v[p].next);
    }
    vec_free(s->idx);
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
    bool *done;          /* per body literal: joined or tested, further up */
    bool *hyp;           /* per variable: supposed bound, while weighing an order */
    /* instances: head relation, head arguments, number of literals, then
     * per literal its relation << 1 | negated and its arguments */
    U32Vec inst;
    U32Vec inst_at;      /* start of each in inst */
    uint32_t *islots;    /* hash set of instance + 1 */
    uint32_t nislots;
    U32Vec cur;          /* the instance being made */
    uint64_t nlinks;
    uint64_t steps;      /* atoms tried by joins, */
    uint64_t max_steps;  /* at most GROUND_STEPS_PER_LINK * max_links */
    uint64_t polls;      /* calls of poll_cancel */
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

bool ground_cancelled(const GroundLimits *lim)
{
    if (!lim)
        return false;
    if (lim->cancel && __atomic_load_n(lim->cancel, __ATOMIC_RELAXED))
        return true;
    if (lim->deadline <= 0)
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 >= lim->deadline;
}

/* Polls the caller's cancel flag and deadline every 4096 steps (a step is
 * an atom tried by a join or an instance recorded: microseconds). */
static bool poll_cancel(Grounder *g)
{
    if ((++g->polls & 4095) != 0 || !ground_cancelled(&g->lim))
        return false;
    stop(g, base_xstrdup("grounding cancelled"));
    return true;
}

/* Adds an atom to rel, with the copies of the relaxed domain (true from
 * init and next, does from legal). False when it was there or grounding stopped. */
/* Adds t to rel; messages name the relation whose growth made it (`next`
 * or `init` for a copy into `true`, `legal` for one into `does`). */
static bool add_atom_of(Grounder *g, uint32_t rel, uint32_t named, const Gt *t)
{
    AtomSet *s = &g->rel[rel];
    const AtomSet *ns = &g->rel[named];
    if (g->err)
        return false;
    /* the tables hold 32-bit positions: a budget in the billions stops here,
     * not at a wrapped size */
    if (s->n >= GROUND_MAX_REL_ATOMS || s->tuples.n > UINT32_MAX / 2 - s->arity - 1) {
        stop(g, base_sprintf("grounding stopped: relation '%s' holds %u atoms, more than the grounder's tables take",
                             rel_name(g, named), ns->n));
        return false;
    }
    if (!set_add(&g->st, s, t))
        return false;
    if (++g->natoms > g->lim.max_atoms) {
        stop(g, base_sprintf("grounding stopped: the budget of %llu atoms in all (max-atoms=%llu) ran out as "
                             "relation '%s' grew, at %u atoms of its own",
                             (unsigned long long)g->lim.max_atoms, (unsigned long long)g->lim.max_atoms,
                             rel_name(g, named), ns->n));
        return false;
    }
    const Ir *ir = g->ir;
    uint32_t kind = ir->rels.v[rel].kind;
    if ((kind == IR_REL_NEXT || kind == IR_REL_INIT) && ir->kwrel[IR_REL_TRUE] != BASE_NONE)
        add_atom_of(g, ir->kwrel[IR_REL_TRUE], named, t);
    else if (kind == IR_REL_LEGAL && ir->kwrel[IR_REL_DOES] != BASE_NONE)
        add_atom_of(g, ir->kwrel[IR_REL_DOES], named, t);
    return true;
}

static bool add_atom(Grounder *g, uint32_t rel, const Gt *t) { return add_atom_of(g, rel, rel, t); }

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
        stop(g, base_sprintf("grounding stopped: the budget of %llu ground rules in all (max-rules=%llu) ran out "
                             "as relation '%s' grew, at %llu rules of its own",
                             (unsigned long long)g->lim.max_rules, (unsigned long long)g->lim.max_rules,
                             rel_name(g, head), (unsigned long long)s->rules + 1));
        return;
    }
    if (g->nlinks + nlits > g->lim.max_links) {
        stop(g, base_sprintf("grounding stopped: the ground rules of relation '%s' (%llu so far) took the body "
                             "literals past the budget of %llu in all (max-links=%llu)",
                             rel_name(g, head), (unsigned long long)s->rules, (unsigned long long)g->lim.max_links,
                             (unsigned long long)g->lim.max_links));
        return;
    }
    if (g->inst.n > UINT32_MAX / 2 - g->cur.n - 1 || g->inst_at.n > UINT32_MAX / 2) {
        stop(g, base_sprintf("grounding stopped: relation '%s' has %llu ground rules, and all of them more literals "
                             "than the grounder's tables take", rel_name(g, head), (unsigned long long)s->rules));
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
        uint32_t at = g->cur.n;
        vec_push(g->cur, l->rel << 1 | (l->kind == IR_LIT_NEG));
        for (uint32_t a = 0; a < l->nargs; a++) {
            Gt x = build(g, ir->largs.v[l->args + a], true);
            if (x == BASE_NONE)
                return;
            vec_push(g->cur, x);
        }
        /* a literal written twice (two literals bound alike) counts once */
        bool twice = false;
        for (uint32_t p = count_at + 1; p < at && !twice; p += 1 + ir->rels.v[g->cur.v[p] >> 1].arity)
            twice = memcmp(g->cur.v + p, g->cur.v + at, (g->cur.n - at) * sizeof *g->cur.v) == 0;
        if (twice)
            g->cur.n = at;
        else
            nlits++;
    }
    g->cur.v[count_at] = nlits;
    record(g, r->head, nlits);
}

/* ---- joins ----------------------------------------------------------- */

/* How a positive literal reads its atoms under the current bindings. */
typedef struct Access {
    uint32_t path;   /* the index used; 0: a lookup (every argument bound); BASE_NONE: a scan of [lo, hi) */
    uint32_t first;  /* the index's newest atom with the key, or the atom looked up (BASE_NONE: none) */
    uint32_t count;  /* atoms it will try (an index's count includes atoms outside [lo, hi)) */
} Access;

/* The access of body literal j; false when no atom can match it (a bound
 * argument is a term that does not exist). call gets the bound arguments. */
static bool lit_access(Grounder *g, uint32_t j, Gt *call, Access *ac)
{
    const Ir *ir = g->ir;
    const IrLit *l = &ir->lits.v[g->rule->lits + j];
    AtomSet *s = &g->rel[l->rel];
    uint32_t lo = g->lo[j], hi = g->hi[j], nbound = 0;
    ac->path = BASE_NONE;
    ac->first = BASE_NONE;
    ac->count = hi - lo;
    for (uint32_t a = 0; a < l->nargs; a++) {
        uint32_t t = ir->largs.v[l->args + a];
        call[a] = BASE_NONE;
        /* the bound places of the argument, two levels down at most */
        uint32_t paths[17], np = 0;
        Gt keys[17];
        if (term_bound(g, t)) {
            if ((call[a] = build(g, t, false)) == BASE_NONE)
                return false;
            nbound++;
            if (a < PATH_MAX_ARG) {
                paths[np] = a + 1;
                keys[np++] = call[a];
            }
        } else if (a < PATH_MAX_ARG) {
            const IrTerm *x = &ir->terms.v[t];
            for (uint32_t i = 0; x->kind == IR_FN && i < x->nargs && i < 254 && np < 16; i++) {
                uint32_t u = ir->targs.v[x->args + i];
                const IrTerm *y = &ir->terms.v[u];
                if (term_bound(g, u)) {
                    if ((keys[np] = build(g, u, false)) == BASE_NONE)
                        return false;
                    paths[np++] = (a + 1) | (i + 1) << 8;
                    continue;
                }
                for (uint32_t k2 = 0; y->kind == IR_FN && k2 < y->nargs && k2 < 254 && np < 16; k2++) {
                    uint32_t w = ir->targs.v[y->args + k2];
                    if (!term_bound(g, w))
                        continue;
                    if ((keys[np] = build(g, w, false)) == BASE_NONE)
                        return false;
                    paths[np++] = (a + 1) | (i + 1) << 8 | (k2 + 1) << 16;
                }
            }
        }
        for (uint32_t p = 0; p < np; p++) {
            const PosIndex *ix = idx_get(&g->st, s, paths[p]);
            uint32_t count = 0, f = ix ? idx_first(ix, keys[p], &count) : BASE_NONE;
            if (ix && count < ac->count) {
                ac->path = paths[p];
                ac->count = count;
                ac->first = f;
            }
        }
    }
    if (nbound > 1 && nbound < l->nargs && l->nargs <= 31) {
        uint32_t path = PATH_SET;
        for (uint32_t a = 0; a < l->nargs; a++)
            if (call[a] != BASE_NONE)
                path |= 1u << a;
        Gt key = path_key(&g->st, call, path);
        const PosIndex *ix = idx_get(&g->st, s, path);
        uint32_t count = 0, f = ix ? idx_first(ix, key, &count) : BASE_NONE;
        if (ix && count < ac->count) {
            ac->path = path;
            ac->count = count;
            ac->first = f;
        }
    }
    if (nbound == l->nargs) {
        uint32_t a = set_find(s, call);
        ac->path = 0;
        ac->first = a != BASE_NONE && a >= lo && a < hi ? a : BASE_NONE;
        ac->count = ac->first != BASE_NONE;
    }
    return true;
}

/* Is the term bound, or would it be with the variables supposed bound? */
static bool term_known(const Grounder *g, uint32_t term)
{
    const IrTerm *t = &g->ir->terms.v[term];
    if (t->kind == IR_VAR)
        return g->env[t->val] != BASE_NONE || g->hyp[t->val];
    for (uint32_t i = 0; t->kind == IR_FN && i < t->nargs; i++)
        if (!term_known(g, g->ir->targs.v[t->args + i]))
            return false;
    return true;
}

static void term_suppose(Grounder *g, uint32_t term, bool on)
{
    const IrTerm *t = &g->ir->terms.v[term];
    if (t->kind == IR_VAR && g->env[t->val] == BASE_NONE)
        g->hyp[t->val] = on;
    for (uint32_t i = 0; t->kind == IR_FN && i < t->nargs; i++)
        term_suppose(g, g->ir->targs.v[t->args + i], on);
}

/* About how many atoms literal j would try with the variables supposed
 * bound: the average atoms per key of its most selective known place
 * (one when every argument is known). */
static double lit_estimate(Grounder *g, uint32_t j)
{
    const Ir *ir = g->ir;
    const IrLit *l = &ir->lits.v[g->rule->lits + j];
    AtomSet *s = &g->rel[l->rel];
    double best = g->hi[j] - g->lo[j];
    bool all = true;
    for (uint32_t a = 0; a < l->nargs; a++) {
        uint32_t t = ir->largs.v[l->args + a];
        if (term_known(g, t)) {
            PosIndex *ix = a < PATH_MAX_ARG ? idx_get(&g->st, s, a + 1) : NULL;
            double avg = !ix ? best : ix->nkeys ? (double)s->n / ix->nkeys : 0;
            if (avg < best)
                best = avg;
            continue;
        }
        all = false;
        const IrTerm *x = &ir->terms.v[t];
        for (uint32_t i = 0; a < PATH_MAX_ARG && x->kind == IR_FN && i < x->nargs && i < 254; i++) {
            if (!term_known(g, ir->targs.v[x->args + i]))
                continue;
            PosIndex *ix = idx_get(&g->st, s, (a + 1) | (i + 1) << 8);
            double avg = !ix ? best : ix->nkeys ? (double)s->n / ix->nkeys : 0;
            if (avg < best)
                best = avg;
        }
    }
    uint32_t set = PATH_SET, nknown = 0;
    for (uint32_t a = 0; a < l->nargs && l->nargs <= 31; a++)
        if (term_known(g, ir->largs.v[l->args + a])) {
            set |= 1u << a;
            nknown++;
        }
    if (!all && nknown > 1) {
        PosIndex *ix = idx_get(&g->st, s, set);
        double avg = !ix ? best : ix->nkeys ? (double)s->n / ix->nkeys : 0;
        if (avg < best)
            best = avg;
    }
    return all && best > 1 ? 1 : best;
}

static void join(Grounder *g);

/* Goes on with the join once atom a of literal j is matched. */
static void join_atom(Grounder *g, uint32_t j, uint32_t a)
{
    if (poll_cancel(g))
        return;
    if (++g->steps > g->max_steps) {
        stop(g, base_sprintf("grounding stopped: the joins of the rules of relation '%s' tried more than %llu atoms "
                             "in all (%d times max-links=%llu)",
                             rel_name(g, g->rule->head),
                             (unsigned long long)g->max_steps, GROUND_STEPS_PER_LINK,
                             (unsigned long long)g->lim.max_links));
        return;
    }
    const IrLit *l = &g->ir->lits.v[g->rule->lits + j];
    const AtomSet *s = &g->rel[l->rel];
    uint32_t mark = g->trail.n;
    bool ok = true;
    for (uint32_t i = 0; i < l->nargs && ok; i++)
        ok = match(g, g->ir->largs.v[l->args + i], atom_at(s, a)[i]);
    if (ok)
        join(g);
    undo(g, mark);
}

/* Does a test (negation, distinct, equality) with its variables bound hold? */
static bool test_holds(Grounder *g, const IrLit *l)
{
    const Ir *ir = g->ir;
    if (l->kind == IR_LIT_NEG) {
        if (!g->is_static[l->rel])
            return true; /* relaxed: assumed to hold */
        Gt call[l->nargs + 1];
        for (uint32_t a = 0; a < l->nargs; a++)
            if ((call[a] = build(g, ir->largs.v[l->args + a], false)) == BASE_NONE)
                return true; /* no such term: no such atom */
        return set_find(&g->rel[l->rel], call) == BASE_NONE;
    }
    Gt a = build(g, ir->largs.v[l->args], true), b = build(g, ir->largs.v[l->args + 1], true);
    return a != BASE_NONE && b != BASE_NONE && (a == b) == (l->kind == IR_LIT_EQUAL);
}

/* Joins the literals of g->rule not yet done. The order is chosen as it
 * goes: first any test whose variables are bound; else the positive
 * literal of least cost: the atoms it will try under the bindings so far,
 * times one plus what the other positive literals would try, on average,
 * once its variables are bound too. */
static void join(Grounder *g)
{
    if (g->err)
        return;
    const Ir *ir = g->ir;
    const IrRule *r = g->rule;
    uint32_t pick = BASE_NONE;
    Access best = {0};
    double best_cost = 0;
    for (uint32_t j = 0; j < r->nlits; j++) {
        if (g->done[j])
            continue;
        const IrLit *l = &ir->lits.v[r->lits + j];
        if (l->kind != IR_LIT_POS) {
            bool bound = true;
            for (uint32_t a = 0; a < l->nargs && bound; a++)
                bound = term_bound(g, ir->largs.v[l->args + a]);
            if (!bound)
                continue;
            g->done[j] = true;
            if (test_holds(g, l) && !g->err)
                join(g);
            g->done[j] = false;
            return;
        }
        Gt call[l->nargs + 1];
        Access ac;
        if (!lit_access(g, j, call, &ac) || ac.count == 0)
            return; /* no atom can match it: no binding completes */
        if (ac.path == 0) {
            /* a lookup that holds binds nothing: nothing is cheaper */
            pick = j;
            best = ac;
            break;
        }
        /* its atoms, times what each would leave the other positive
         * literals to try (a literal that binds what the others need
         * goes first, though it tries more atoms itself) */
        double cost = 1;
        for (uint32_t a = 0; a < l->nargs; a++)
            term_suppose(g, ir->largs.v[l->args + a], true);
        for (uint32_t m = 0; m < r->nlits; m++)
            if (m != j && !g->done[m] && ir->lits.v[r->lits + m].kind == IR_LIT_POS)
                cost += lit_estimate(g, m);
        for (uint32_t a = 0; a < l->nargs; a++)
            term_suppose(g, ir->largs.v[l->args + a], false);
        cost *= ac.count;
        if (pick == BASE_NONE || cost < best_cost) {
            pick = j;
            best = ac;
            best_cost = cost;
        }
    }
    if (pick == BASE_NONE) {
        emit(g);
        return;
    }
    const IrLit *l = &ir->lits.v[r->lits + pick];
    AtomSet *s = &g->rel[l->rel];
    uint32_t lo = g->lo[pick], hi = g->hi[pick];
    g->done[pick] = true;
    if (best.path == 0) {
        if (best.first != BASE_NONE)
            join(g);
    } else if (best.path != BASE_NONE) {
        /* indexes move when one is made or rebuilt: find it by its path */
        for (uint32_t a = best.first; a != BASE_NONE && !g->err; a = idx_get(&g->st, s, best.path)->next.v[a])
            if (a >= lo && a < hi)
                join_atom(g, pick, a);
    } else {
        for (uint32_t a = lo; a < hi && !g->err; a++)
            join_atom(g, pick, a);
    }
    g->done[pick] = false;
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
        g->done[j] = false;
        if (l->kind != IR_LIT_POS)
            continue;
        const AtomSet *s = &g->rel[l->rel];
        g->hi[j] = delta == BASE_NONE || j > delta ? s->cur_end : j == delta ? s->cur_end : s->old_end;
        g->lo[j] = j == delta ? s->old_end : 0;
    }
    for (uint32_t v = 0; v < r->nvars; v++)
        g->env[v] = BASE_NONE;
    g->trail.n = 0;
    join(g);
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

/* ---- condensation (ground.h) ------------------------------------------
 *
 * Variables and literals of a rule are sets in 64-bit masks. The output
 * starts as a copy of the input; a rule that splits gets a new range of
 * literals (the old one is left unused), the new rule and relation are
 * appended, and both are tried again: the loop over rules reaches the new
 * ones as it goes. Literals keep pointing into the copied argument lists;
 * only the new literal and the new head need new variable terms.
 */

typedef struct Cond {
    Grounder *g;
    const Ir *in;
    Ir *out;
    Symtab *names;
    uint32_t made;
} Cond;

#define VEC_COPY(dst, src)                                        \
    do {                                                          \
        vec_reserve((dst), (src).n);                              \
        if ((src).n)                                              \
            memcpy((dst).v, (src).v, (size_t)(src).n * sizeof *(src).v); \
        (dst).n = (src).n;                                        \
    } while (0)

static uint64_t term_vars(const Ir *ir, uint32_t t)
{
    const IrTerm *x = &ir->terms.v[t];
    if (x->kind == IR_VAR)
        return x->val < 64 ? 1ull << x->val : 0;
    uint64_t m = 0;
    if (x->kind == IR_FN)
        for (uint32_t i = 0; i < x->nargs; i++)
            m |= term_vars(ir, ir->targs.v[x->args + i]);
    return m;
}

static uint64_t lit_vars(const Ir *ir, const IrLit *l)
{
    uint64_t m = 0;
    for (uint32_t a = 0; a < l->nargs; a++)
        m |= term_vars(ir, ir->largs.v[l->args + a]);
    return m;
}

/* Appends lits (with their variables in vars) to out->lits in an order that
 * keeps ir.h's invariant: each test right after the positive literals that
 * bind its variables, the source order otherwise. Returns the first. */
static uint32_t put_lits(Ir *out, const IrLit *lits, const uint64_t *vars, uint32_t n)
{
    uint32_t first = out->lits.n;
    bool put[n + 1];
    memset(put, 0, sizeof put);
    uint64_t bound = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (lits[j].kind == IR_LIT_POS) {
            vec_push(out->lits, lits[j]);
            put[j] = true;
            bound |= vars[j];
        } else if ((vars[j] & ~bound) == 0) {
            vec_push(out->lits, lits[j]);
            put[j] = true;
        } else {
            continue;
        }
        for (uint32_t t = 0; t < j; t++)
            if (!put[t] && (vars[t] & ~bound) == 0) {
                vec_push(out->lits, lits[t]);
                put[t] = true;
            }
    }
    for (uint32_t j = 0; j < n; j++) /* none left when the rule is safe */
        if (!put[j])
            vec_push(out->lits, lits[j]);
    return first;
}

/* The term of variable v (a new one: terms of variables are per rule). */
static uint32_t var_term(Ir *out, uint32_t v, uint32_t off)
{
    IrTerm t = {.kind = IR_VAR, .val = v, .off = off};
    vec_push(out->terms, t);
    return out->terms.n - 1;
}

/* About how many atoms static literal j of rule r (of program ir) has per
 * binding of the variables in bound: the grounder's own estimate, on the
 * complete static relations. */
static double static_fanout(Grounder *g, const Ir *ir, const IrRule *r, uint32_t j, uint64_t bound)
{
    const Ir *ir0 = g->ir;
    const IrRule *r0 = g->rule;
    g->ir = ir;
    g->rule = r;
    g->lo[j] = 0;
    g->hi[j] = g->rel[ir->lits.v[r->lits + j].rel].n;
    for (uint32_t v = 0; v < r->nvars; v++) {
        g->env[v] = BASE_NONE;
        g->hyp[v] = v < 64 && (bound >> v & 1);
    }
    double f = lit_estimate(g, j);
    for (uint32_t v = 0; v < r->nvars; v++)
        g->hyp[v] = false;
    g->ir = ir0;
    g->rule = r0;
    return f;
}

/* Is rel a static relation of the input (the new ones are dynamic)? */
static bool is_static(const Cond *c, uint32_t rel)
{
    return rel < c->in->rels.n && c->g->is_static[rel];
}

/* Splits rule k once if it can (ground.h). */
static bool split(Cond *c, uint32_t k)
{
    Ir *out = c->out;
    IrRule r = out->rules.v[k];
    if (r.nlits < 2 || r.nlits > 64 || r.nvars > 64)
        return false;
    uint32_t n = r.nlits;
    uint64_t lv[64], head = 0, body = 0;
    for (uint32_t j = 0; j < n; j++)
        body |= lv[j] = lit_vars(out, &out->lits.v[r.lits + j]);
    for (uint32_t a = 0; a < out->rels.v[r.head].arity; a++)
        head |= term_vars(out, out->largs.v[r.args + a]);

    uint64_t best_a = 0, best_i = 0;
    int best = 0;
    for (uint32_t v = 0; v < r.nvars; v++) {
        if (!(body >> v & 1))
            continue;
        /* A: the literals without v; those of no variable stay with the rest */
        uint64_t in_a = 0, vars_a = 0, vars_r = 0, pos_a = 0, pos_r = 0;
        bool dyn_a = false; /* A reads the state or the move: its relation is not static */
        for (uint32_t j = 0; j < n; j++) {
            const IrLit *l = &out->lits.v[r.lits + j];
            bool pos = l->kind == IR_LIT_POS;
            if (lv[j] && !(lv[j] >> v & 1)) {
                in_a |= 1ull << j;
                dyn_a |= (pos || l->kind == IR_LIT_NEG) && !is_static(c, l->rel);
                vars_a |= lv[j];
                pos_a |= pos ? lv[j] : 0;
            } else {
                vars_r |= lv[j];
                pos_r |= pos ? lv[j] : 0;
            }
        }
        uint64_t local = vars_a & ~(vars_r | head), shared = vars_a & (vars_r | head);
        if (!in_a || !local || !dyn_a)
            continue;
        /* A a lone move that the rest only compares: "a move from column
         * x1 to x2", the frame rule then an OR of those with x1, x2 not the
         * cell's. Left whole, the optimiser makes that the NOT of the few
         * moves touching the cell (input complement); split, every move
         * goes through the layer (Breakthrough: 30% slower) */
        if (__builtin_popcountll(in_a) == 1 && (shared & ~(pos_r | head)) == shared) {
            uint32_t j = (uint32_t)__builtin_ctzll(in_a);
            const IrLit *l = &out->lits.v[r.lits + j];
            if (l->kind == IR_LIT_POS && l->rel == c->in->kwrel[IR_REL_DOES])
                continue;
        }
        /* the variables the shared ones determine through static literals
         * of at most one atom per binding (a successor relation): if they
         * are all of A's own, the rule's instances do not multiply */
        uint64_t det = shared;
        for (bool grew = true; grew;) {
            grew = false;
            for (uint32_t j = 0; j < n; j++) {
                const IrLit *l = &out->lits.v[r.lits + j];
                if ((in_a >> j & 1) && l->kind == IR_LIT_POS && (lv[j] & ~det) && is_static(c, l->rel) &&
                    static_fanout(c->g, out, &r, j, det) <= 1) {
                    det |= lv[j];
                    grew = true;
                }
            }
        }
        if (!(local & ~det))
            continue;
        bool safe = (head & ~(pos_r | shared)) == 0;
        for (uint32_t j = 0; j < n && safe; j++) {
            if (out->lits.v[r.lits + j].kind == IR_LIT_POS)
                continue;
            safe = in_a >> j & 1 ? (lv[j] & ~pos_a) == 0 : (lv[j] & ~(pos_r | shared)) == 0;
        }
        int score = 64 * __builtin_popcountll(local) - __builtin_popcountll(shared);
        if (safe && score > best) {
            best = score;
            best_a = in_a;
            best_i = shared;
        }
    }
    if (!best)
        return false;

    /* the new relation: the head's name (up to a '#'), '#', a number */
    const char *hn = symtab_str(c->names, out->rels.v[r.head].sym);
    size_t hl = strcspn(hn, "#");
    char name[hl + 16];
    int len = snprintf(name, sizeof name, "%.*s#%u", (int)hl, hn, ++c->made);
    IrRel rel = {.sym = symtab_intern(c->names, name, (size_t)len),
                 .arity = (uint32_t)__builtin_popcountll(best_i),
                 .kind = IR_REL_USER,
                 .def_off = r.off,
                 .use_off = r.off};
    uint32_t aux = out->rels.n;
    vec_push(out->rels, rel);
    uint32_t args = out->largs.n;
    for (uint32_t v = 0; v < 64; v++)
        if (best_i >> v & 1)
            vec_push(out->largs, var_term(out, v, r.off));

    /* the rule of the new relation: A */
    IrLit lits[65];
    uint64_t vars[65];
    uint32_t m = 0;
    for (uint32_t j = 0; j < n; j++)
        if (best_a >> j & 1) {
            lits[m] = out->lits.v[r.lits + j];
            vars[m++] = lv[j];
        }
    IrRule ar = r;
    ar.head = aux;
    ar.args = args;
    ar.nlits = m;
    ar.lits = put_lits(out, lits, vars, m);
    ar.stratum = 0;

    /* the rule itself: the rest and the new literal where A began */
    m = 0;
    bool placed = false;
    for (uint32_t j = 0; j < n; j++) {
        if (!(best_a >> j & 1)) {
            lits[m] = out->lits.v[r.lits + j];
            vars[m++] = lv[j];
        } else if (!placed) {
            lits[m] = (IrLit){.kind = IR_LIT_POS, .rel = aux, .args = args, .nargs = rel.arity,
                              .off = out->lits.v[r.lits + j].off};
            vars[m++] = best_i;
            placed = true;
        }
    }
    r.nlits = m;
    r.lits = put_lits(out, lits, vars, m);
    out->rules.v[k] = r;
    vec_push(out->rules, ar);
    return true;
}

/* Condenses in into *out (ground.h) with the static relations complete in
 * g; the number of relations made (none: *out zeroed). */
static uint32_t condense(Grounder *g, const Ir *in, Symtab *names, Ir *out)
{
    memset(out, 0, sizeof *out);
    out->syms = names;
    out->src = in->src;
    VEC_COPY(out->terms, in->terms);
    VEC_COPY(out->targs, in->targs);
    VEC_COPY(out->funcs, in->funcs);
    VEC_COPY(out->lits, in->lits);
    VEC_COPY(out->largs, in->largs);
    VEC_COPY(out->rules, in->rules);
    VEC_COPY(out->varsyms, in->varsyms);
    VEC_COPY(out->rels, in->rels);
    VEC_COPY(out->roles, in->roles);
    memcpy(out->kwrel, in->kwrel, sizeof out->kwrel);
    Cond c = {g, in, out, names, 0};
    /* a rule of a static head is evaluated exactly, its instances not kept */
    for (uint32_t k = 0; k < out->rules.n; k++)
        if (!is_static(&c, out->rules.v[k].head))
            while (split(&c, k))
                ;
    if (!c.made) {
        ir_free(out);
        memset(out, 0, sizeof *out);
        return 0;
    }
    ir_analyse(out);
    return c.made;
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
    free(g->done);
    free(g->hyp);
    vec_free(g->trail);
    vec_free(g->inst);
    vec_free(g->inst_at);
    vec_free(g->cur);
    free(g->islots);
    gt_free(&g->st);
}

/* The grounder; with names, the rules condensed once the static relations
 * are known (into cond, which then holds the program grounded), and with
 * only_condense, nothing grounded after that (*out left zeroed). */
static GroundResult ground_main(const Ir *in, const GroundLimits *lim, Symtab *names, bool only_condense, Ir *cond,
                                Ir *out, GroundStats *stats, char **err)
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
    if (lim) {
        g.lim.cancel = lim->cancel;
        g.lim.deadline = lim->deadline;
    }
    g.max_steps = g.lim.max_links > UINT64_MAX / GROUND_STEPS_PER_LINK ? UINT64_MAX
                                                                       : GROUND_STEPS_PER_LINK * g.lim.max_links;
    gt_init(&g.st, in->syms);
    uint32_t nr = in->rels.n, maxvars = 1, maxlits = 1;
    g.rel = base_xcalloc(nr + 1, sizeof *g.rel);
    g.is_static = base_xcalloc(nr + 1, sizeof *g.is_static);
    for (uint32_t r = 0; r < nr; r++) {
        const IrRel *rel = &in->rels.v[r];
        g.is_static[r] = !rel->dep_true && !rel->dep_does;
        g.rel[r].arity = rel->arity;
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
    g.done = base_xmalloc(maxlits * sizeof *g.done);
    g.hyp = base_xcalloc(maxvars, sizeof *g.hyp);
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
    /* condensed: the new relations are dynamic, A having a dynamic literal */
    memset(cond, 0, sizeof *cond);
    const Ir *prog = in;
    if (names && !g.err && condense(&g, in, names, cond)) {
        uint32_t n = cond->rels.n;
        g.rel = base_xrealloc(g.rel, (n + 1) * sizeof *g.rel);
        g.is_static = base_xrealloc(g.is_static, (n + 1) * sizeof *g.is_static);
        memset(g.rel + nr, 0, (n + 1 - nr) * sizeof *g.rel);
        memset(g.is_static + nr, 0, (n + 1 - nr) * sizeof *g.is_static);
        for (uint32_t r = nr; r < n; r++)
            g.rel[r].arity = cond->rels.v[r].arity;
        g.ir = prog = cond;
    }
    if (only_condense) {
        vec_free(rules);
        GroundResult res = GROUND_OK;
        if (g.err) {
            res = GROUND_LIMIT;
            if (err)
                *err = g.err;
            else
                free(g.err);
        }
        grounder_free(&g);
        return res;
    }
    /* 2. the dynamic ones, relaxed (true has had init's atoms since phase 1) */
    g.relaxed = true;
    rules.n = 0;
    for (uint32_t i = 0; i < prog->rules.n; i++)
        if (!g.is_static[prog->rules.v[i].head])
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

GroundResult ground_run(const Ir *in, const GroundLimits *lim, Ir *out, GroundStats *stats, char **err)
{
    Ir cond;
    return ground_main(in, lim, NULL, false, &cond, out, stats, err);
}

/* A condensed grounding this small is made again from the rules as
 * written, kept if that one is at most GROUND_AS_WRITTEN times as large
 * (ground.h). */
static bool as_written(const Ir *in, const GroundLimits *lim, const GroundStats *cs, Ir *out, GroundStats *stats)
{
    uint64_t rules = cs->rules - cs->static_facts;
    if (rules > GROUND_SMALL)
        return false;
    GroundLimits l = lim ? *lim : (GroundLimits){0};
    l.max_rules = GROUND_AS_WRITTEN * rules + 1;
    l.max_links = GROUND_AS_WRITTEN * cs->links + 1;
    if (lim && lim->max_rules && lim->max_rules < l.max_rules)
        l.max_rules = lim->max_rules;
    if (lim && lim->max_links && lim->max_links < l.max_links)
        l.max_links = lim->max_links;
    return ground_run(in, &l, out, stats, NULL) == GROUND_OK;
}

GroundResult ground_condensed(const Ir *in, const GroundLimits *lim, Symtab *names, bool always, Ir *out,
                              GroundStats *stats, char **err)
{
    Ir cond, w;
    GroundStats cs, ws;
    GroundResult res = ground_main(in, lim, names, false, &cond, out, &cs, err);
    bool made = cond.rels.n > 0;
    ir_free(&cond);
    if (res == GROUND_OK && made && !always && as_written(in, lim, &cs, &w, &ws)) {
        ir_free(out);
        *out = w;
        cs = ws;
    }
    if (stats)
        *stats = cs;
    return res;
}

GroundResult ground_condense(const Ir *in, const GroundLimits *lim, Symtab *names, bool always, Ir *out, char **err)
{
    Ir none, g, w;
    GroundStats cs, ws;
    GroundResult res = ground_main(in, lim, names, true, out, &none, NULL, err);
    if (res == GROUND_OK && out->rels.n && !always) {
        /* whether the grounding keeps it (ground_condensed) */
        Symtab copy;
        symtab_init(&copy);
        for (uint32_t i = 0; i < names->n; i++)
            symtab_intern(&copy, names->str[i], names->len[i]);
        Ir c2;
        res = ground_main(in, lim, &copy, false, &c2, &g, &cs, err);
        ir_free(&c2);
        if (res == GROUND_OK && as_written(in, lim, &cs, &w, &ws)) {
            ir_free(out);
            memset(out, 0, sizeof *out);
            ir_free(&w);
        }
        ir_free(&g);
        symtab_free(&copy);
    }
    if (res != GROUND_OK) {
        ir_free(out);
        memset(out, 0, sizeof *out);
    }
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
        /* the relation's rules as NUL-terminated texts in one buffer */
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m)
            base_fatal("out of memory");
        size_t *at = base_xmalloc(rel->nrules * sizeof *at);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            at[k] = (size_t)ftell(m);
            ir_print_rule(m, ir, ir->rule_index.v[rel->rules + k]);
            fputc(0, m);
        }
        bool ok = fclose(m) == 0 && buf;
        if (buf)
            base_journal_adopt(buf);
        if (!ok) {
            free(buf);
            free(at);
            base_fatal("out of memory");
        }
        char **text = base_xmalloc(rel->nrules * sizeof *text);
        for (uint32_t k = 0; k < rel->nrules; k++)
            text[k] = buf + at[k];
        qsort(text, rel->nrules, sizeof *text, cmp_str);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            fputs(text[k], f);
            fputc('\n', f);
        }
        free(text);
        free(at);
        free(buf);
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
        bool ok = eq && vlen > 0;
        for (size_t i = 0; ok && i < vlen; i++) {
            ok = v[i] >= '0' && v[i] <= '9' && x <= (UINT64_MAX - (uint64_t)(v[i] - '0')) / 10;
            x = ok ? x * 10 + (uint64_t)(v[i] - '0') : x;
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
