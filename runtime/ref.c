/*
 * ref.c: the reference interpreter (engine "ref").
 *
 * Deliberately simple, independent of the compiled backend, and obviously
 * correct rather than fast.
 *
 * Evaluation is goal directed. A query asks a relation for its answers
 * under a call: some arguments bound to ground terms, the others free.
 *  - `true` and `does` are sets of facts: the state and the joint move.
 *    Relations given by ground facts alone are sets of facts too.
 *  - Any other relation is proved through its rules: unify the head with the
 *    call, then satisfy the body left to right (the lowering ordered it so
 *    that negations and distinct come after what binds their variables).
 *    Every call has a table of its answers; a call met again reads the table.
 *
 * Recursion. A call met again while its table is still being filled (it is
 * "in progress", further up the evaluation) is not evaluated again: it
 * answers with what its table holds so far. The first call of such a group
 * (its "leader") then repeats passes over the rules of every table created
 * since it, until a pass adds no answer to any table; only then are they
 * all complete. This is the least fixpoint of the rules restricted to the
 * calls actually made, which is what the rules mean for those calls: each
 * pass only adds answers that follow from answers already there (soundness),
 * and a pass that adds nothing means every rule instance whose body holds
 * has its head in a table (completeness). A table that read a table older
 * than its own leader stays in progress and is repeated by that older
 * leader's passes. Left recursion, right recursion and mutual recursion are
 * all the same to this scheme; nothing loops, because a call in progress is
 * never evaluated twice.
 *
 * Negation. GDL programs are stratified (ir.c checks it on rules: a rule
 * that negates a literal sits in a higher stratum than every rule whose head
 * may unify with it). So the rules a negated call uses never lead back to a
 * call in progress above it: its table completes before the test, and the
 * test reads a final answer set. `distinct` and equality compare ground
 * terms, which are hash-consed, so they compare ids. `or` was expanded into
 * separate rules by the lowering, which is its meaning. Together: this is
 * the perfect model of the stratified program, GDL's semantics, computed
 * only where a query looks.
 *
 * Ground. "ref:ground" grounds the game's program when the machine is
 * made (ground.h, default budgets: past one, making it fails with
 * GDL_LIMIT and the grounder's message) and evaluates the ground program
 * instead, by the same means: its relations, roles and keyword relations
 * are the game's, so nothing else changes. The two must agree on every
 * state, which is what `gdlc verify --engine ref:ground` checks.
 *
 * Lifetimes. Tables of relations that depend on neither `true` nor `does`
 * are kept for the machine's life; those that depend on `true` until the
 * state changes; those that depend on `does` until the state or the move
 * changes. Any failure (a cancel, a limit) drops every table.
 *
 * Termination. Every rule is safe, so an answer is built from terms of the
 * call, of facts and of the rules; only function terms nested ever deeper
 * could grow forever. Terms deeper than GT_MAX_DEPTH are refused with
 * GDL_LIMIT, and so is a total of more than REF_MAX_ANSWERS answers.
 *
 * Depth. Every cycle of the recursion (solve, evaluate, run_rules, body,
 * solve) passes through solve(), once per level of a derivation: a chain of
 * 100,000 rules is 100,000 nested solves. solve() compares its frame with a
 * floor set when the query starts; below it, the call continues on a stack
 * segment of the machine (engine_host.c), and past the last segment the
 * query stops with GDL_LIMIT. A table read while it grows (the left
 * recursion of a call on itself) is read to its current end, so a path
 * through n edges takes one pass over its rules, not n.
 */
#include <string.h>

#include "../backend/abi.h"
#include "../middle/ground.h"
#include "engine_host.h"
#include "runtime.h"

enum { REF_MAX_ANSWERS = 1u << 24 /* most answers in all tables */ };

/* An index on one argument position: open addressing from a term to the
 * newest fact with that term there; next[] chains to older ones. */
typedef struct FactIndex {
    bool built;
    uint32_t *keys, *heads; /* keys BASE_NONE when empty */
    uint32_t nslots;
    U32Vec next;
} FactIndex;

/* A set of facts of one relation: tuples of arity ids, deduplicated, with
 * per-position indexes built on first use. */
typedef struct FactSet {
    uint32_t arity;
    uint32_t n;        /* facts */
    U32Vec tuples;     /* n * arity ids */
    uint32_t *slots;   /* hash set of fact index + 1 */
    uint32_t nslots;
    FactIndex *idx;    /* per argument position */
} FactSet;


/* ---- fact sets ------------------------------------------------------- */

/* middle/ground.c carries a set of tuples much like this one (AtomSet), on
 * purpose apart: ref is the oracle that the engines made from ground.c's
 * grounding are checked against (test_propnet, tests/driver/correctness.sh), and
 * a bug in a set they shared would give both sides the same wrong answer.
 * Forty lines written twice are cheaper than an oracle that agrees with
 * its subject for the wrong reason. */

static uint64_t tuple_hash(const Gt *t, uint32_t arity)
{
    uint64_t h = 0x12345;
    for (uint32_t i = 0; i < arity; i++)
        h = base_mix64(h ^ (t[i] + 0x9e3779b97f4a7c15ULL * (i + 1)));
    return h;
}

static const Gt *fact_at(const FactSet *s, uint32_t i) { return u32_at(&s->tuples, (size_t)i * s->arity); }

static uint32_t set_find(const FactSet *s, const Gt *t)
{
    if (!s->nslots)
        return BASE_NONE;
    uint32_t mask = s->nslots - 1;
    for (uint32_t i = (uint32_t)tuple_hash(t, s->arity) & mask;; i = (i + 1) & mask) {
        uint32_t id = s->slots[i];
        if (!id)
            return BASE_NONE;
        if (gt_tuple_eq(fact_at(s, id - 1), t, s->arity))
            return id - 1;
    }
}

static void idx_put(FactSet *s, uint32_t pos, uint32_t fact)
{
    FactIndex *ix = &s->idx[pos];
    Gt key = fact_at(s, fact)[pos];
    uint32_t mask = ix->nslots - 1, i = (uint32_t)base_mix64(key) & mask;
    while (ix->keys[i] != BASE_NONE && ix->keys[i] != key)
        i = (i + 1) & mask;
    vec_reserve(ix->next, fact + 1);
    if (ix->keys[i] == BASE_NONE) {
        ix->keys[i] = key;
        ix->next.v[fact] = BASE_NONE;
    } else {
        ix->next.v[fact] = ix->heads[i];
    }
    ix->heads[i] = fact;
    if (fact + 1 > ix->next.n)
        ix->next.n = fact + 1;
}

static void idx_build(FactSet *s, uint32_t pos)
{
    FactIndex *ix = &s->idx[pos];
    uint32_t want = 64;
    while (want < s->n * 2 + 2)
        want *= 2;
    /* new arrays before the old go: running out of memory in between leaves
     * the index as it was (see base.h) */
    uint32_t *keys = base_xmalloc(want * sizeof *ix->keys);
    uint32_t *heads = base_try_realloc(NULL, want * sizeof *ix->heads);
    if (!heads) {
        free(keys);
        base_fatal("out of memory");
    }
    free(ix->keys);
    free(ix->heads);
    ix->nslots = want;
    ix->keys = keys;
    ix->heads = heads;
    memset(ix->keys, 0xff, want * sizeof *ix->keys);
    ix->next.n = 0;
    ix->built = true;
    for (uint32_t f = 0; f < s->n; f++)
        idx_put(s, pos, f);
}

/* The newest fact with key at pos, or BASE_NONE. */
static uint32_t idx_first(FactSet *s, uint32_t pos, Gt key)
{
    if (!s->idx[pos].built)
        idx_build(s, pos);
    FactIndex *ix = &s->idx[pos];
    uint32_t mask = ix->nslots - 1;
    for (uint32_t i = (uint32_t)base_mix64(key) & mask;; i = (i + 1) & mask) {
        if (ix->keys[i] == BASE_NONE)
            return BASE_NONE;
        if (ix->keys[i] == key)
            return ix->heads[i];
    }
}

static void set_grow(FactSet *s)
{
    uint32_t n = s->nslots ? s->nslots * 2 : 64;
    uint32_t *slots = base_xcalloc(n, sizeof *s->slots);
    free(s->slots);
    s->slots = slots;
    s->nslots = n;
    for (uint32_t f = 0; f < s->n; f++) {
        uint32_t i = (uint32_t)tuple_hash(fact_at(s, f), s->arity) & (n - 1);
        while (s->slots[i])
            i = (i + 1) & (n - 1);
        s->slots[i] = f + 1;
    }
}

/* Adds a fact; false when it was there already. */
static bool set_add(FactSet *s, const Gt *t)
{
    if (set_find(s, t) != BASE_NONE)
        return false;
    if ((uint64_t)(s->n + 1) * 2 > s->nslots)
        set_grow(s);
    uint32_t f = s->n++;
    for (uint32_t i = 0; i < s->arity; i++)
        vec_push(s->tuples, t[i]);
    uint32_t mask = s->nslots - 1, i = (uint32_t)tuple_hash(t, s->arity) & mask;
    while (s->slots[i])
        i = (i + 1) & mask;
    s->slots[i] = f + 1;
    for (uint32_t p = 0; p < s->arity; p++)
        if (s->idx[p].built) {
            if ((uint64_t)s->n * 2 > s->idx[p].nslots)
                idx_build(s, p);
            else
                idx_put(s, p, f);
        }
    return true;
}

static void set_clear(FactSet *s)
{
    if (!s->n)
        return;
    s->n = 0;
    s->tuples.n = 0;
    memset(s->slots, 0, s->nslots * sizeof *s->slots);
    for (uint32_t p = 0; p < s->arity; p++)
        s->idx[p].built = false;
}

static void set_free(FactSet *s)
{
    vec_free(s->tuples);
    free(s->slots);
    for (uint32_t p = 0; p < s->arity; p++) {
        free(s->idx[p].keys);
        free(s->idx[p].heads);
        vec_free(s->idx[p].next);
    }
    free(s->idx);
}

/* The answers of one call. */
typedef struct Table {
    uint32_t rel;      /* the relation */
    uint32_t call;     /* its arguments (BASE_NONE: free) at calls[call] */
    FactSet ans;       /* the answers, full tuples */
    bool complete;     /* no more answers can come */
    uint32_t seq;      /* creation order, to tell older tables from newer */
} Table;

/* The rules of a relation by the ground term of one head argument, for a
 * relation of many rules (a ground program's): a call with that argument
 * bound runs only the rules it may match. */
typedef struct RuleIndex {
    bool built, usable;  /* usable: every head has a ground term there */
    Gt *keys;            /* open addressing; BASE_NONE empty */
    uint32_t *heads;     /* first rule position with the key + 1 */
    uint32_t *counts;    /* rules with the key */
    uint32_t nslots;
    uint32_t *next;      /* per rule position: the next with its key + 1 */
} RuleIndex;

enum { REF_RULE_INDEX_MIN = 32 /* relations with fewer rules scan them */ };

/* Tables of one lifetime. */
typedef enum RefLevel {
    LEVEL_STATIC, /* relations that depend on neither true nor does */
    LEVEL_STATE,  /* depend on true, not on does */
    LEVEL_MOVE,   /* depend on does */
    LEVEL_COUNT
} RefLevel;

typedef struct Level {
    VEC(Table) t;
    U32Vec calls;     /* call arguments of every table */
    uint32_t *slots;  /* open addressing: table index + 1 */
    uint32_t nslots;
    uint32_t nanswers; /* answers in these tables */
} Level;

typedef struct Ref {
    const Ir *ir;        /* the program evaluated: the game's, or ground */
    Ir ground;           /* "ref:ground": the game's program grounded (ground.h) */
    bool grounded;
    GtStore *store;
    RtControl *ctl;
    bool *mat;           /* per relation: a set of facts (true, does, facts alone) */
    FactSet *facts;      /* per relation, when mat */
    uint8_t *level;      /* per relation: its RefLevel */
    Gt *const_gt;        /* per IR term: its ground id when ground, else BASE_NONE */
    Level levels[LEVEL_COUNT];
    U32Vec stack;        /* tables in progress, oldest first (ids: level << 28 | index) */
    uint32_t seq;        /* next table's seq */
    uint32_t low;        /* oldest in-progress table read during the current pass */
    uint64_t epoch;      /* counts new answers and new tables */
    /* the state and move the tables of LEVEL_STATE and LEVEL_MOVE are for */
    bool have_state, have_move;
    U32Vec model_state;
    U32Vec model_joint;
    U32Vec envs;         /* frames of variable bindings, one per rule application */
    U32Vec trail;        /* slots of envs bound, for undoing */
    bool cut;            /* an existence test found its answer: stop scanning */
    GdlStatus status;    /* first failure of the current query */
    uintptr_t floor;     /* a solve() whose frame is below it hops to a segment */
    RuleIndex **ridx;    /* per relation: per argument position, its rules by ground head argument */
    RtStack segs;        /* the stack segments */
    uint64_t *steps;     /* rt_ref_relation_counted: the steps it may still take (NULL: no bound), */
    uint64_t tried;      /* and the literals it tried (its steps are these and REF_ANSWER_STEPS
                          * for each new answer or table: r->epoch) */
} Ref;

/* What a new answer or table costs beside a literal tried, in steps of
 * the fold's budget (rt_ref_relation_counted): appending lists, where
 * nearly every step made a table (laikLee_hex), cost 0.9 us a literal
 * tried, summing numbers 0.11 (gt_two_thirds_2p); counted so, the two
 * cost 0.10 and 0.04 us a step. */
enum { REF_ANSWER_STEPS = 8 };

/* ---- matching and building terms ------------------------------------ */

/* Variables live in frames on r->envs: variable v of the rule application
 * whose frame starts at `base` is envs[base + v]. */
static bool match(Ref *r, uint32_t base, uint32_t term, Gt g)
{
    const Ir *ir = r->ir;
    const IrTerm *t = &ir->terms.v[term];
    switch (t->kind) {
    case IR_VAR: {
        uint32_t at = base + t->val;
        if (r->envs.v[at] != BASE_NONE)
            return r->envs.v[at] == g;
        r->envs.v[at] = g;
        vec_push(r->trail, at);
        return true;
    }
    case IR_CONST:
        return r->const_gt[term] == g;
    default:
        if (r->const_gt[term] != BASE_NONE)
            return r->const_gt[term] == g;
        if (gt_fn(r->store, g) != ir->funcs.v[t->val].sym || gt_arity(r->store, g) != t->nargs)
            return false;
        for (uint32_t i = 0; i < t->nargs; i++)
            if (!match(r, base, ir->targs.v[t->args + i], gt_arg(r->store, g, i)))
                return false;
        return true;
    }
}

static void undo(Ref *r, uint32_t mark)
{
    while (r->trail.n > mark)
        r->envs.v[r->trail.v[--r->trail.n]] = BASE_NONE;
}

/* The ground term a pattern stands for under the bindings: BASE_NONE when a
 * variable in it is unbound, or, with intern false, when no such term exists
 * yet (so no fact can hold it). */
static Gt build(Ref *r, uint32_t base, uint32_t term, bool intern)
{
    const IrTerm *t = &r->ir->terms.v[term];
    if (r->const_gt[term] != BASE_NONE)
        return r->const_gt[term];
    if (t->kind == IR_VAR)
        return r->envs.v[base + t->val];
    Gt args[t->nargs];
    for (uint32_t i = 0; i < t->nargs; i++)
        if ((args[i] = build(r, base, r->ir->targs.v[t->args + i], intern)) == BASE_NONE)
            return BASE_NONE;
    uint32_t fn = r->ir->funcs.v[t->val].sym;
    if (!intern)
        return gt_find(r->store, fn, t->nargs, args);
    Gt g = gt_intern(r->store, fn, t->nargs, args);
    if (g == BASE_NONE && r->status == GDL_OK)
        r->status = rt_fail(r->ctl, GDL_LIMIT, "a term nested deeper than %d levels was built: the game's recursion "
                            "builds ever larger terms", GT_MAX_DEPTH);
    return g;
}


/* ---- tables ------------------------------------------------------- */

static Table *tab(Ref *r, uint32_t id) { return &r->levels[id >> 28].t.v[id & 0x0fffffff]; }

static uint64_t call_hash(uint32_t rel, const Gt *call, uint32_t arity)
{
    uint64_t h = base_mix64(rel + 0x51);
    for (uint32_t i = 0; i < arity; i++)
        h = base_mix64(h ^ ((uint64_t)call[i] * 0x9e3779b97f4a7c15ULL + i));
    return h;
}

/* The table of rel(call), created when new (*created says which). */
static uint32_t table_get(Ref *r, uint32_t rel, const Gt *call, bool *created)
{
    uint32_t lv = r->level[rel], arity = r->ir->rels.v[rel].arity;
    Level *L = &r->levels[lv];
    uint64_t h = call_hash(rel, call, arity);
    *created = false;
    if (L->nslots) {
        uint32_t mask = L->nslots - 1;
        for (uint32_t i = (uint32_t)h & mask; L->slots[i]; i = (i + 1) & mask) {
            const Table *t = &L->t.v[L->slots[i] - 1];
            if (t->rel == rel && gt_tuple_eq(u32_at(&L->calls, t->call), call, arity))
                return lv << 28 | (L->slots[i] - 1);
        }
    }
    if ((uint64_t)(L->t.n + 1) * 2 > L->nslots) {
        uint32_t n = L->nslots ? L->nslots * 2 : 256;
        uint32_t *slots = base_xcalloc(n, sizeof *L->slots);
        free(L->slots);
        L->slots = slots;
        L->nslots = n;
        for (uint32_t k = 0; k < L->t.n; k++) {
            const Table *t = &L->t.v[k];
            uint32_t i = (uint32_t)call_hash(t->rel, u32_at(&L->calls, t->call), r->ir->rels.v[t->rel].arity) & (n - 1);
            while (L->slots[i])
                i = (i + 1) & (n - 1);
            L->slots[i] = k + 1;
        }
    }
    Table t = {.rel = rel, .call = L->calls.n, .seq = r->seq++};
    t.ans.arity = arity;
    t.ans.idx = base_xcalloc(arity + 1, sizeof *t.ans.idx);
    for (uint32_t i = 0; i < arity; i++)
        vec_push(L->calls, call[i]);
    vec_push(L->t, t);
    uint32_t mask = L->nslots - 1, i = (uint32_t)h & mask;
    while (L->slots[i])
        i = (i + 1) & mask;
    L->slots[i] = L->t.n;
    *created = true;
    r->epoch++;
    return lv << 28 | (L->t.n - 1);
}

/* Drops the tables of one lifetime. */
static void level_clear(Ref *r, RefLevel lv)
{
    Level *L = &r->levels[lv];
    for (uint32_t k = 0; k < L->t.n; k++)
        set_free(&L->t.v[k].ans);
    L->t.n = 0;
    L->calls.n = 0;
    L->nanswers = 0;
    if (L->nslots)
        memset(L->slots, 0, L->nslots * sizeof *L->slots);
}

static void level_free(Ref *r, RefLevel lv)
{
    level_clear(r, lv);
    vec_free(r->levels[lv].t);
    vec_free(r->levels[lv].calls);
    free(r->levels[lv].slots);
}

/* ---- solving literals ------------------------------------------------ */

/* Receives each answer of a call: a tuple of the relation's arity. */
typedef void (*AnswerFn)(Ref *r, void *ctx, const Gt *tuple);

static void solve(Ref *r, uint32_t rel, const Gt *call, AnswerFn fn, void *ctx);

/* What to do once a rule body has been satisfied: build the head and hand
 * it on. */
typedef struct BodyK {
    const IrRule *rule;
    uint32_t base;  /* the rule's frame */
    AnswerFn fn;
    void *ctx;
} BodyK;

static void body(Ref *r, const BodyK *k, uint32_t i);

static bool stopping(Ref *r) { return r->status != GDL_OK || r->cut; }

/* Pushes a frame of n unbound variables; returns its base. */
static uint32_t frame_push(Ref *r, uint32_t n)
{
    uint32_t base = r->envs.n;
    vec_reserve(r->envs, base + n + 1);
    for (uint32_t v = 0; v < n; v++)
        r->envs.v[base + v] = BASE_NONE;
    r->envs.n += n;
    return base;
}

typedef struct LitK {
    const BodyK *k;
    uint32_t i;     /* the literal */
} LitK;

/* Matches an answer against the literal's arguments; on success goes on
 * with the body (positive literal) or notes that it holds (negation). */
static void lit_answer(Ref *r, void *ctx, const Gt *tuple)
{
    const LitK *lk = ctx;
    const IrLit *l = &r->ir->lits.v[lk->k->rule->lits + lk->i];
    uint32_t mark = r->trail.n;
    bool ok = true;
    for (uint32_t a = 0; a < l->nargs && ok; a++)
        ok = match(r, lk->k->base, r->ir->largs.v[l->args + a], tuple[a]);
    if (ok) {
        if (l->kind == IR_LIT_POS)
            body(r, lk->k, lk->i + 1);
        else
            r->cut = true;
    }
    undo(r, mark);
}

static void body(Ref *r, const BodyK *k, uint32_t i)
{
    if (stopping(r))
        return;
    /* a long loop that derives nothing must still see a deadline */
    if (rt_should_stop(r->ctl)) {
        r->status = rt_fail(r->ctl, GDL_CANCELLED, "cancelled");
        return;
    }
    if (r->steps && ++r->tried + REF_ANSWER_STEPS * r->epoch > *r->steps) {
        r->status = rt_fail(r->ctl, GDL_LIMIT, "past its budget of steps");
        return;
    }
    const IrRule *rule = k->rule;
    if (i == rule->nlits) {
        const IrRel *h = &r->ir->rels.v[rule->head];
        Gt t[h->arity + 1];
        for (uint32_t a = 0; a < h->arity; a++)
            if ((t[a] = build(r, k->base, r->ir->largs.v[rule->args + a], true)) == BASE_NONE)
                return;
        k->fn(r, k->ctx, t);
        return;
    }
    const IrLit *l = &r->ir->lits.v[rule->lits + i];
    LitK lk = {k, i};
    switch (l->kind) {
    case IR_LIT_POS:
    case IR_LIT_NEG: {
        /* The call: bound arguments as terms, the rest free. A bound
         * argument whose term does not exist yet is passed free; the
         * answers are matched against the arguments anyway. */
        Gt call[l->nargs + 1];
        for (uint32_t a = 0; a < l->nargs; a++)
            call[a] = build(r, k->base, r->ir->largs.v[l->args + a], false);
        if (l->kind == IR_LIT_POS) {
            solve(r, l->rel, call, lit_answer, &lk);
            return;
        }
        solve(r, l->rel, call, lit_answer, &lk);
        bool found = r->cut;
        r->cut = false;
        if (!found && !r->mat[l->rel] && r->status == GDL_OK) {
            /* Stratification guarantees the table is final; check it. */
            bool created;
            Table *t = tab(r, table_get(r, l->rel, call, &created));
            if (!t->complete)
                r->status = rt_fail(r->ctl, GDL_LIMIT, "internal error: a negated call of '%s' is still in "
                                    "progress", symtab_str(r->ir->syms, r->ir->rels.v[l->rel].sym));
        }
        if (!found && r->status == GDL_OK)
            body(r, k, i + 1);
        return;
    }
    case IR_LIT_DISTINCT:
    case IR_LIT_EQUAL: {
        /* Both sides are bound (safety); hash-consing makes equality of
         * terms equality of ids. */
        Gt a = build(r, k->base, r->ir->largs.v[l->args], true);
        Gt b = build(r, k->base, r->ir->largs.v[l->args + 1], true);
        if (a == BASE_NONE || b == BASE_NONE)
            return; /* too deep: r->status is set */
        if ((a == b) == (l->kind == IR_LIT_EQUAL))
            body(r, k, i + 1);
        return;
    }
    }
}

/* Every fact of s that agrees with the bound positions of call, read up to
 * the count it has now (answers added meanwhile wait for the next pass). */
static void scan_facts(Ref *r, FactSet *s, const Gt *call, AnswerFn fn, void *ctx)
{
    uint32_t pos = BASE_NONE;
    for (uint32_t a = 0; call && a < s->arity && pos == BASE_NONE; a++)
        if (call[a] != BASE_NONE)
            pos = a;
    Gt t[s->arity + 1];
    uint32_t count = s->n;
    uint32_t f = pos == BASE_NONE ? 0 : idx_first(s, pos, call[pos]);
    while (f != BASE_NONE && !stopping(r)) {
        if (pos == BASE_NONE && f >= count)
            break;
        if (f < count) {
            gt_tuple_copy(t, fact_at(s, f), s->arity);
            bool ok = true;
            for (uint32_t a = 0; call && a < s->arity && ok; a++)
                ok = call[a] == BASE_NONE || call[a] == t[a];
            if (ok)
                fn(r, ctx, t);
        }
        f = pos == BASE_NONE ? f + 1 : s->idx[pos].next.v[f];
    }
}

static void add_answer(Ref *r, void *ctx, const Gt *tuple)
{
    uint32_t id = (uint32_t)(uintptr_t)ctx;
    if (!set_add(&tab(r, id)->ans, tuple))
        return;
    r->epoch++;
    r->levels[id >> 28].nanswers++;
    uint64_t total = 0;
    for (int lv = 0; lv < LEVEL_COUNT; lv++)
        total += r->levels[lv].nanswers;
    if (total > REF_MAX_ANSWERS && r->status == GDL_OK)
        r->status = rt_fail(r->ctl, GDL_LIMIT, "more than %u answers in the tables of one query",
                            (unsigned)REF_MAX_ANSWERS);
}

/* The index of rel's rules on head argument pos, built on first use; NULL
 * when some head is not ground there. */
static const RuleIndex *rule_index_get(Ref *r, uint32_t rel, uint32_t pos)
{
    const IrRel *R = &r->ir->rels.v[rel];
    if (!r->ridx[rel])
        r->ridx[rel] = base_xcalloc(R->arity + 1, sizeof *r->ridx[rel]);
    RuleIndex *x = &r->ridx[rel][pos];
    if (x->built)
        return x->usable ? x : NULL;
    x->built = true;
    for (uint32_t k = 0; k < R->nrules; k++)
        if (r->const_gt[r->ir->largs.v[r->ir->rules.v[r->ir->rule_index.v[R->rules + k]].args + pos]] == BASE_NONE)
            return NULL;
    uint32_t n = 64;
    while (n < R->nrules * 2)
        n *= 2;
    x->keys = base_xmalloc(n * sizeof *x->keys);
    x->heads = base_xcalloc(n, sizeof *x->heads);
    x->counts = base_xcalloc(n, sizeof *x->counts);
    x->next = base_xcalloc(R->nrules + 1, sizeof *x->next);
    x->nslots = n;
    memset(x->keys, 0xff, n * sizeof *x->keys);
    for (uint32_t k = R->nrules; k-- > 0;) {
        Gt key = r->const_gt[r->ir->largs.v[r->ir->rules.v[r->ir->rule_index.v[R->rules + k]].args + pos]];
        uint32_t i = (uint32_t)base_mix64(key) & (n - 1);
        while (x->keys[i] != BASE_NONE && x->keys[i] != key)
            i = (i + 1) & (n - 1);
        x->keys[i] = key;
        x->next[k] = x->heads[i];
        x->heads[i] = k + 1;
        x->counts[i]++;
    }
    x->usable = true;
    return x;
}

/* One pass over the rules of a table. */
static void run_rules(Ref *r, uint32_t id)
{
    uint32_t rel = tab(r, id)->rel;
    const IrRel *R = &r->ir->rels.v[rel];
    Gt call[R->arity + 1];
    Table *t = tab(r, id);
    gt_tuple_copy(call, u32_at(&r->levels[id >> 28].calls, t->call), R->arity);
    /* many rules and a bound argument: only the rules whose head has it
     * (the bound argument fewest rules have) */
    const RuleIndex *x = NULL;
    uint32_t k = 0, best = R->nrules + 1;
    for (uint32_t a = 0; R->nrules >= REF_RULE_INDEX_MIN && a < R->arity; a++) {
        const RuleIndex *y;
        if (call[a] == BASE_NONE || !(y = rule_index_get(r, rel, a)))
            continue;
        uint32_t mask = y->nslots - 1, i = (uint32_t)base_mix64(call[a]) & mask;
        while (y->keys[i] != BASE_NONE && y->keys[i] != call[a])
            i = (i + 1) & mask;
        uint32_t count = y->keys[i] == BASE_NONE ? 0 : y->counts[i];
        if (count < best) {
            best = count;
            x = y;
            k = count ? y->heads[i] - 1 : R->nrules;
        }
    }
    while (k < R->nrules && !stopping(r)) {
        const IrRule *rule = &r->ir->rules.v[r->ir->rule_index.v[R->rules + k]];
        k = x ? (x->next[k] ? x->next[k] - 1 : R->nrules) : k + 1;
        uint32_t base = frame_push(r, rule->nvars), mark = r->trail.n;
        bool ok = true;
        for (uint32_t a = 0; a < R->arity && ok; a++)
            if (call[a] != BASE_NONE)
                ok = match(r, base, r->ir->largs.v[rule->args + a], call[a]);
        if (ok) {
            BodyK bk = {rule, base, add_answer, (void *)(uintptr_t)id};
            body(r, &bk, 0);
        }
        undo(r, mark);
        r->envs.n = base;
    }
}

/* Fills a new table: passes over it and every table created since, until a
 * pass adds nothing; then, unless they read an older table in progress,
 * they are complete. */
static void evaluate(Ref *r, uint32_t id)
{
    uint32_t seq = tab(r, id)->seq, pos = r->stack.n;
    uint32_t saved_low = r->low;
    vec_push(r->stack, id);
    uint32_t low;
    for (;;) {
        uint64_t before = r->epoch;
        r->low = UINT32_MAX;
        for (uint32_t k = pos; k < r->stack.n && !stopping(r); k++) {
            if (rt_should_stop(r->ctl) && r->status == GDL_OK)
                r->status = rt_fail(r->ctl, GDL_CANCELLED, "cancelled");
            run_rules(r, r->stack.v[k]);
        }
        low = r->low;
        if (r->epoch == before || stopping(r))
            break;
    }
    if (low >= seq) {
        for (uint32_t k = pos; k < r->stack.n; k++)
            tab(r, r->stack.v[k])->complete = true;
        r->stack.n = pos;
        r->low = saved_low;
    } else {
        r->low = low < saved_low ? low : saved_low;
    }
}

/* A solve() continued on a stack segment. */
typedef struct SolveHop {
    Ref *r;
    uint32_t rel;
    const Gt *call;
    AnswerFn fn;
    void *ctx;
} SolveHop;

static void solve_hop(void *p)
{
    SolveHop *h = p;
    solve(h->r, h->rel, h->call, h->fn, h->ctx);
}

/* All answers of rel(call), where call[i] is a term or BASE_NONE (free). */
static void solve(Ref *r, uint32_t rel, const Gt *call, AnswerFn fn, void *ctx)
{
    if ((uintptr_t)__builtin_frame_address(0) < r->floor) {
        SolveHop h = {r, rel, call, fn, ctx};
        if (!rt_stack_hop(&r->segs, &r->floor, solve_hop, &h) && r->status == GDL_OK)
            r->status = rt_fail(r->ctl, GDL_LIMIT, "the derivation nests deeper than the %u MiB of stack a query "
                                "may use (GDLC_STACK_MIB)", rt_stack_mib(&r->segs));
        return;
    }
    if (r->mat[rel]) {
        scan_facts(r, &r->facts[rel], call, fn, ctx);
        return;
    }
    if (r->status != GDL_OK)
        return;
    bool created;
    uint32_t id = table_get(r, rel, call, &created);
    if (created)
        evaluate(r, id);
    Table *t = tab(r, id);
    if (!t->complete && t->seq < r->low)
        r->low = t->seq;
    /* Tables move when new ones are made (during fn): fetch it each time.
     * Answers added meanwhile (by fn, through a rule that reads this very
     * table) are read too: each follows from answers already there. */
    uint32_t arity = t->ans.arity;
    Gt tuple[arity + 1];
    for (uint32_t f = 0; f < tab(r, id)->ans.n && !stopping(r); f++) {
        gt_tuple_copy(tuple, fact_at(&tab(r, id)->ans, f), arity);
        fn(r, ctx, tuple);
    }
}

/* ---- queries ---------------------------------------------------------- */

/* Drops every table that depends on what changed, and sets the facts of
 * true and does. joint NULL: a query about the state alone. */
static void set_model(Ref *r, const Gt *state, uint32_t n, const Gt *joint)
{
    uint32_t nroles = r->ir->roles.n;
    bool same_state = r->have_state && r->model_state.n == n &&
                      gt_tuple_eq(r->model_state.v, state, n);
    bool same_move = joint && r->have_move && same_state &&
                     gt_tuple_eq(r->model_joint.v, joint, nroles);
    r->floor = rt_stack_floor(__builtin_frame_address(0));
    r->status = GDL_OK;
    r->cut = false;
    if (!same_state) {
        level_clear(r, LEVEL_STATE);
        FactSet *t = &r->facts[r->ir->kwrel[IR_REL_TRUE]];
        set_clear(t);
        for (uint32_t i = 0; i < n; i++)
            set_add(t, &state[i]);
        r->model_state.n = 0;
        for (uint32_t i = 0; i < n; i++)
            vec_push(r->model_state, state[i]);
        r->have_state = true;
    }
    if (!same_move) {
        level_clear(r, LEVEL_MOVE);
        FactSet *d = &r->facts[r->ir->kwrel[IR_REL_DOES]];
        set_clear(d);
        r->model_joint.n = 0;
        r->have_move = joint != NULL;
        for (uint32_t k = 0; joint && k < nroles; k++) {
            Gt t[2] = {gt_intern(r->store, r->ir->roles.v[k], 0, NULL), joint[k]};
            set_add(d, t);
            vec_push(r->model_joint, joint[k]);
        }
    }
}

/* After a failure nothing half-built may stay. */
static GdlStatus finish(Ref *r)
{
    if (r->status != GDL_OK) {
        for (int lv = 0; lv < LEVEL_COUNT; lv++)
            level_clear(r, (RefLevel)lv);
        r->stack.n = 0;
        r->envs.n = 0;
        r->trail.n = 0;
        r->have_state = r->have_move = false;
    }
    return r->status;
}

/* Collects one argument of every answer, after `tag` when it is not
 * BASE_NONE (goals collect pairs of role and value). */
typedef struct Collect {
    U32Vec *out;
    uint32_t pos;
    uint32_t tag;
} Collect;

static void collect(Ref *r, void *ctx, const Gt *tuple)
{
    (void)r;
    Collect *c = ctx;
    if (c->tag != BASE_NONE)
        vec_push(*c->out, c->tag);
    vec_push(*c->out, tuple[c->pos]);
}

/* The keyword relation of each root query (abi.h). */
#define ROOT_KW(NAME, name, bound) IR_REL_##NAME,
static const uint32_t root_kw[GQ_N] = {GDLC_ROOT_QUERIES(ROOT_KW)};
#undef ROOT_KW

/* Root query `which` (GQ_*), called with call. */
static void query(Ref *r, uint32_t which, const Gt *call, uint32_t pos, uint32_t tag, U32Vec *out)
{
    Collect c = {out, pos, tag};
    solve(r, r->ir->kwrel[root_kw[which]], call, collect, &c);
}

static EngineStatus ref_initial(void *e, U32Vec *facts)
{
    Ref *r = e;
    set_model(r, NULL, 0, NULL);
    Gt call[1] = {BASE_NONE};
    query(r, GQ_INIT, call, 0, BASE_NONE, facts);
    return finish(r);
}

static EngineStatus ref_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves)
{
    Ref *r = e;
    set_model(r, state, n, NULL);
    Gt call[2] = {gt_intern(r->store, r->ir->roles.v[role], 0, NULL), BASE_NONE};
    query(r, GQ_LEGAL, call, 1, BASE_NONE, moves);
    return finish(r);
}

static EngineStatus ref_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    Ref *r = e;
    set_model(r, state, n, joint);
    Gt call[1] = {BASE_NONE};
    query(r, GQ_NEXT, call, 0, BASE_NONE, facts);
    return finish(r);
}

static EngineStatus ref_terminal(void *e, const Gt *state, uint32_t n, bool *terminal)
{
    Ref *r = e;
    U32Vec out = {0};
    set_model(r, state, n, NULL);
    Gt call[1] = {BASE_NONE};
    query(r, GQ_TERMINAL, call, 0, BASE_NONE, &out);
    *terminal = out.n > 0;
    vec_free(out);
    return finish(r);
}

static EngineStatus ref_goals(void *e, const Gt *state, uint32_t n, U32Vec *values)
{
    Ref *r = e;
    set_model(r, state, n, NULL);
    for (uint32_t k = 0; k < r->ir->roles.n && r->status == GDL_OK; k++) {
        Gt call[2] = {gt_intern(r->store, r->ir->roles.v[k], 0, NULL), BASE_NONE};
        query(r, GQ_GOAL, call, 1, k, values);
    }
    return finish(r);
}

/* ---- making and freeing --------------------------------------------- */

static void ref_destroy(void *e);

static void *ref_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    const Ir *ir = &game->front.ir;
    if (arg && strcmp(arg, "ground") != 0) {
        *err = base_sprintf("the engine ref takes no argument but 'ground' (ref:ground), not '%s'", arg);
        ctl->create_status = GDL_BAD_ARGUMENT;
        return NULL;
    }
    Ref *r = base_xcalloc(1, sizeof *r);
    if (arg) {
        /* everything below reads the ground program: relations, roles and
         * keyword relations are the game's, with the same ids */
        if (ground_run(ir, NULL, &r->ground, NULL, err) != GROUND_OK) {
            ctl->create_status = GDL_LIMIT;
            free(r);
            return NULL;
        }
        r->grounded = true;
        ir = &r->ground;
    }
    r->ir = ir;
    r->store = store;
    r->ctl = ctl;
    r->low = UINT32_MAX;
    rt_stack_init(&r->segs);
    uint32_t nr = ir->rels.n;
    r->mat = base_xcalloc(nr + 1, sizeof *r->mat);
    r->level = base_xcalloc(nr + 1, sizeof *r->level);
    r->facts = base_xcalloc(nr + 1, sizeof *r->facts);
    r->ridx = base_xcalloc(nr + 1, sizeof *r->ridx);
    /* Ground terms of the rules, interned once. */
    r->const_gt = base_xmalloc((ir->terms.n + 1) * sizeof *r->const_gt);
    for (uint32_t t = 0; t < ir->terms.n; t++) {
        r->const_gt[t] = BASE_NONE;
        const IrTerm *x = &ir->terms.v[t];
        if (x->kind == IR_CONST)
            r->const_gt[t] = gt_intern(store, x->val, 0, NULL);
        else if (x->kind == IR_FN && ir_term_ground(ir, t)) {
            Gt args[x->nargs];
            for (uint32_t i = 0; i < x->nargs; i++)
                args[i] = r->const_gt[ir->targs.v[x->args + i]];
            r->const_gt[t] = gt_intern(store, ir->funcs.v[x->val].sym, x->nargs, args);
        }
    }
    for (uint32_t i = 0; i < nr; i++) {
        const IrRel *rel = &ir->rels.v[i];
        bool facts_only = true;
        for (uint32_t k = 0; k < rel->nrules; k++)
            facts_only &= ir->rules.v[ir->rule_index.v[rel->rules + k]].nlits == 0;
        r->mat[i] = facts_only;
        r->level[i] = rel->dep_does ? LEVEL_MOVE : rel->dep_true ? LEVEL_STATE : LEVEL_STATIC;
        r->facts[i].arity = rel->arity;
        r->facts[i].idx = base_xcalloc(rel->arity + 1, sizeof *r->facts[i].idx);
        for (uint32_t k = 0; k < rel->nrules; k++) {
            const IrRule *rule = &ir->rules.v[ir->rule_index.v[rel->rules + k]];
            if (rule->nlits)
                continue;
            Gt t[rel->arity + 1];
            for (uint32_t a = 0; a < rel->arity; a++)
                t[a] = r->const_gt[ir->largs.v[rule->args + a]];
            set_add(&r->facts[i], t);
        }
    }
    return r;
}

static void ref_destroy(void *e)
{
    Ref *r = e;
    if (!r)
        return;
    for (uint32_t i = 0; i < r->ir->rels.n; i++) {
        set_free(&r->facts[i]);
        for (uint32_t a = 0; r->ridx[i] && a < r->ir->rels.v[i].arity; a++) {
            free(r->ridx[i][a].keys);
            free(r->ridx[i][a].heads);
            free(r->ridx[i][a].counts);
            free(r->ridx[i][a].next);
        }
        free(r->ridx[i]);
    }
    free(r->ridx);
    for (int lv = 0; lv < LEVEL_COUNT; lv++)
        level_free(r, (RefLevel)lv);
    free(r->facts);
    free(r->mat);
    free(r->level);
    free(r->const_gt);
    vec_free(r->stack);
    vec_free(r->envs);
    vec_free(r->trail);
    vec_free(r->model_state);
    vec_free(r->model_joint);
    rt_stack_free(&r->segs);
    if (r->grounded)
        ir_free(&r->ground);
    free(r);
}

const EngineOps rt_engine_ref = {
    "ref", ref_create, ref_destroy, ref_initial, ref_legal, ref_next, ref_terminal, ref_goals, ENGINE_ARG_OPTIONAL, NULL,
    false, NULL, NULL, NULL, NULL, NULL,
};

/* ---- precomputing relations for the compiler ------------------------------ */

typedef struct Gather {
    U32Vec *out;
    uint32_t arity, max, n;
} Gather;

static void gather(Ref *r, void *ctx, const Gt *tuple)
{
    Gather *g = ctx;
    if (++g->n > g->max) {
        r->status = rt_fail(r->ctl, GDL_LIMIT, "more than %u answers", g->max);
        return;
    }
    for (uint32_t i = 0; i < g->arity; i++)
        vec_push(*g->out, tuple[i]);
    if (g->arity == 0)
        vec_push(*g->out, 0); /* a true proposition: one (empty) answer */
}

GdlStatus rt_ref_relation(const GdlGame *game, GtStore *store, uint32_t rel, uint32_t max, double deadline,
                          U32Vec *out)
{
    return rt_ref_relation_counted(game, store, rel, max, NULL, deadline, out);
}

GdlStatus rt_ref_relation_counted(const GdlGame *game, GtStore *store, uint32_t rel, uint32_t max, uint64_t *steps,
                                  double deadline, U32Vec *out)
{
    RtControl ctl = {.deadline = deadline};
    Ref *r = ref_create(game, NULL, store, &ctl, NULL);
    r->steps = steps;
    set_model(r, NULL, 0, NULL);
    uint32_t arity = game->front.ir.rels.v[rel].arity;
    Gt call[arity + 1];
    for (uint32_t i = 0; i <= arity; i++)
        call[i] = BASE_NONE;
    Gather g = {out, arity, max, 0};
    solve(r, rel, call, gather, &g);
    GdlStatus st = finish(r);
    if (steps) {
        uint64_t used = r->tried + REF_ANSWER_STEPS * r->epoch;
        *steps = used < *steps ? *steps - used : 0;
    }
    ref_destroy(r);
    free(ctl.error);
    return st;
}
