/*
 * engine.h: the runtime every generated engine carries with it.
 *
 * This file is copied, byte for byte, into every C file the backend emits
 * (cg.c), after abi.h and the sizes of the game, in two halves: the
 * declarations before the game's code, the code (from the line "the
 * runtime's code") after it, each half before prelude.h's. In a
 * JIT-compiled engine (GDLC_RUNTIME_EXTERN defined) only its declarations
 * are used: the functions are the host's copy, compiled from this same file
 * by the system compiler (runtime/engine_host.c). It is self-contained on purpose: no #include, nothing from
 * the C library, so the same text compiles in memory under libtcc with
 * -nostdlib and into a shared object under the system compiler. Everything
 * it needs from the outside (memory, ground terms, the clock) comes through
 * the GdlcHost table the runtime hands to create().
 *
 * What is here:
 *  - arenas: bump allocation per lifetime level (game, state, move), reset
 *    in one step when the state or the move changes;
 *  - fact sets: tuples of ground term ids with lazily built hash indexes,
 *    one per binding pattern the rules use (the state's `true` facts grouped
 *    by functor, the joint move's `does` facts, relations given by facts);
 *  - tables: the answers of one call (a relation, a binding pattern, the
 *    bound values), and the evaluation of recursive calls with continuations.
 *
 * Recursive calls, continuations and completion
 * ----------------------------------------------
 * Every call of a derived relation has a table. A call met for the first
 * time is evaluated at once: its table goes on the completion stack (status
 * in progress), then every rule of the relation runs with the call's
 * bindings and adds head instances to the table (deduplicated).
 *
 * A rule literal whose relation is in the same recursive component as the
 * rule's head is compiled as a continuation: a C function for the rest of
 * the body, taking the variables bound so far (an environment) and one
 * answer of the literal. When the rule meets such a call:
 *  - the call's table is complete: the continuation is run on each answer;
 *  - it is in progress (the call is being evaluated further up: this is what
 *    would make a naive prover loop on left recursion): the continuation is
 *    registered on the table as a consumer with a cursor at answer 0, and the
 *    current evaluation notes that it depends on that table (ev->low, the
 *    lowest stack position it has read from). Nothing is evaluated again.
 *
 * Consumers are fed by the leader. When a table's own rules have run and the
 * evaluation depended on nothing below the table on the stack, that table is
 * the leader of every table above it: it feeds every consumer of those
 * tables each answer past the consumer's cursor, one at a time, in passes,
 * until a whole pass feeds nothing. Each consumer therefore sees each answer
 * of its table exactly once, those found before it registered and those
 * found after, and answers produced while feeding are picked up by the same
 * loop (a worklist, so the C stack does not grow with the number of answers).
 * Only then are the leader and every table above it marked complete and
 * popped. A table that returns having read from an older in-progress table
 * is not a leader: it stays in progress, and the older leader's passes cover
 * its consumers. If a feed reads an older in-progress table, the leader
 * stops being one, and returns the same way.
 *
 * Negation and calls into lower components need complete tables: the
 * rules' stratification guarantees it (a lower component cannot reach back
 * into a call in progress), and it is checked at run time all the same.
 *
 * The cost of a left-recursive rule is one continuation per call and one
 * feed per answer: linear in the answers.
 *
 * Deep recursion
 * --------------
 * Evaluating a new call nests C calls (tb_call, tb_eval, the rules, tb_call
 * again), and so do yes/no functions calling each other: once per level of
 * a derivation, 100,000 deep for a chain of 100,000 rules. Every recursive
 * path goes through tb_call or a yes/no function, and both start with DEEP:
 * is this frame below ev->floor? A query sets the floor GDLC_STACK_ALLOW
 * below its entry (m_query). Below it, the call goes on through the host's
 * hop(): on a fresh stack segment, whose floor it sets while the call runs
 * (runtime/engine_host.c). When the host's budget of segments is spent the
 * query stops with ST_STACK. Shallow queries pay one comparison per call.
 */

#define NONE 0xffffffffu
/* Helpers a game may not need. */
#define MAYBE_UNUSED __attribute__((unused))
#define FN(t) ((*ev->tv.fn)[t])
#define AR(t) ((*ev->tv.arity)[t])
#define ARG(t, i) ((*ev->tv.args)[(*ev->tv.args_at)[t] + (i)])
#define STOP (ev->status != ST_OK)
#define DEEP ((usize)__builtin_frame_address(0) < ev->floor)
#define S (ev->syms)
#define K (ev->consts)

enum { LV_GAME, LV_STATE, LV_MOVE, LV_N };
enum { TB_PROGRESS, TB_COMPLETE };


typedef struct Chunk {
    struct Chunk *prev;
    usize size, used;
} Chunk;

typedef struct Arena {
    Chunk *top;
    usize total;
} Arena;

/* Positions of a tuple: those a binding pattern binds. */
typedef struct Cols {
    u32 n;
    u8 at[64];
} Cols;

/* An index of a fact set on some positions. Keys of small ids (three
 * positions at most, the product of their ranges at most DIRECT_MAX) are
 * addressed directly: dir[sum of value * stride] holds the stamp of the
 * build that wrote it and the first fact. Others go through an open
 * addressing hash table. Both chain the facts of one key through next. */
typedef struct Index {
    u32 gen;        /* the set's generation it was built for */
    u32 ok;         /* built (reset drops it) */
    u32 nslots;
    Cols cols;      /* bound positions */
    u32 *slot;      /* hashed: first fact + 1 of each key; 0 empty */
    u32 *next;      /* next fact with the same key, or NONE */
    u32 direct;     /* 1: dir below, not slot */
    u32 stamp;      /* of the latest direct build */
    u32 range[3], stride[3];
    u64 *dir;       /* stamp << 32 | first fact + 1 */
    u32 dcap;
} Index;

enum { DIRECT_MAX = 1u << 15 };

typedef struct FactSet {
    u32 arity, level;
    u32 n, cap;
    u32 *tup;       /* n * arity ids */
    u32 gen;        /* bumped when cleared */
    u32 nix;
    Index *ix;
} FactSet;

struct Ev;
struct Table;
typedef void (*KFn)(struct Ev *ev, struct Table *head, const u32 *env, const u32 *ans);

typedef struct Cons {
    struct Cons *next;
    KFn k;
    struct Table *head;
    u32 cursor;
    u32 env[];
} Cons;

typedef struct Table {
    u32 q, status, sp;
    u32 n, cap;
    u32 *ans;       /* n * arity ids */
    u32 *set;       /* answer index + 1; 0 empty */
    u32 nset;
    Cons *cons;
    u32 key[];      /* the call: bound positions hold values, others 0 */
} Table;

/* What the generated code says about each query id. */
typedef struct QInfo {
    u32 arity, level;
    u64 mask;
    void (*rules)(struct Ev *ev, struct Table *t);
} QInfo;

typedef struct CallMap {
    Table **slot;
    u32 nslots, n;
    u32 hint;       /* slots the map grew to before its last reset */
} CallMap;

typedef struct Ev {
    const GdlcHost *h;
    void *store, *ctl;
    GdlcTermView tv;
    u32 status;
    u32 poll;
    u32 low;        /* lowest stack position the running evaluation read */
    u32 sn, scap;
    Table **stack;
    Arena arena[LV_N];
    usize arena_limit;
    const QInfo *qi; /* the query ids */
    u32 nq, nfs;
    CallMap *calls; /* one per query id */
    Cols *qcols;    /* the bound positions of each query id */
    Cols *qfree;    /* and the others */
    u32 *amax;      /* most answers of a table of each query id, this state */
    u32 *ahint;     /* the same, in the last state */
    FactSet *fs;    /* one per fact set */
    u32 *syms;      /* symbol ids: S[i] */
    u32 *consts;    /* constant term ids: K[i] */
    u32 *roles;     /* role constants */
    u32 *g;         /* the terms of precomputed facts */
    u32 nroles;
    usize floor;    /* a call whose frame is below it hops to a new stack (DEEP) */
} Ev;

#define POLL(fail) do { if (--ev->poll == 0 && ev_poll(ev)) fail; } while (0)

#ifdef GDLC_RUNTIME_EXTERN
/* The JIT links these to the host's copy, compiled by the system compiler
 * (runtime/engine_host.c): the hot paths then run at -O2 even in code
 * compiled by libtcc. */
void ev_fail(Ev *ev, u32 status);
int ev_poll(Ev *ev);
void zero(void *p, usize n);
void copy32(u32 *d, const u32 *s, u32 n);
void *arena_alloc(Ev *ev, u32 level, usize n);
void arena_reset(Ev *ev, u32 level);
void arena_free(Ev *ev, u32 level);
u32 hash_cols(const u32 *t, const Cols *c);
int eq_cols(const u32 *a, const u32 *b, const Cols *c);
u32 hash_all(const u32 *t, u32 n);
int eq_all(const u32 *a, const u32 *b, u32 n);
void cols_of(Cols *c, u64 mask);
u32 mkn(Ev *ev, u32 fn, u32 n, const u32 *args);
void fs_clear(FactSet *s);
void fs_add(Ev *ev, FactSet *s, const u32 *t);
void fs_dedup(Ev *ev, FactSet *s);
Index *ix_build(Ev *ev, FactSet *s, u32 slot);
u32 fs_first(Ev *ev, FactSet *s, u32 slot, const u32 *key);
Table *tb_new(Ev *ev, u32 q, u32 arity, u32 level, const u32 *key);
void tb_add(Ev *ev, Table *t, u32 arity, u32 level, const u32 *a);
int tb_has(Ev *ev, const Table *t, u32 arity, const u32 *a);
Table *tb_call(Ev *ev, u32 q, const u32 *key);
Table *tb_call_complete(Ev *ev, u32 q, const u32 *key);
void tb_eval(Ev *ev, Table *t);
void tb_consume(Ev *ev, Table *t, KFn k, Table *head, const u32 *env, u32 nenv);
void ev_reset(Ev *ev, u32 level);
int x_hop(Ev *ev, int (*x)(Ev *, const u32 *), const u32 *key);
#else
#ifndef RT
#define RT MAYBE_UNUSED static
#endif
RT void ev_fail(Ev *ev, u32 status);
RT int ev_poll(Ev *ev);
RT void zero(void *p, usize n);
RT void copy32(u32 *d, const u32 *s, u32 n);
RT void *arena_alloc(Ev *ev, u32 level, usize n);
RT void arena_reset(Ev *ev, u32 level);
RT void arena_free(Ev *ev, u32 level);
RT u32 hash_cols(const u32 *t, const Cols *c);
RT int eq_cols(const u32 *a, const u32 *b, const Cols *c);
RT u32 hash_all(const u32 *t, u32 n);
RT int eq_all(const u32 *a, const u32 *b, u32 n);
RT void cols_of(Cols *c, u64 mask);
RT u32 mkn(Ev *ev, u32 fn, u32 n, const u32 *args);
RT void fs_clear(FactSet *s);
RT void fs_add(Ev *ev, FactSet *s, const u32 *t);
RT void fs_dedup(Ev *ev, FactSet *s);
RT Index *ix_build(Ev *ev, FactSet *s, u32 slot);
RT u32 fs_first(Ev *ev, FactSet *s, u32 slot, const u32 *key);
RT Table *tb_new(Ev *ev, u32 q, u32 arity, u32 level, const u32 *key);
RT void tb_add(Ev *ev, Table *t, u32 arity, u32 level, const u32 *a);
RT int tb_has(Ev *ev, const Table *t, u32 arity, const u32 *a);
RT Table *tb_call(Ev *ev, u32 q, const u32 *key);
RT Table *tb_call_complete(Ev *ev, u32 q, const u32 *key);
RT void tb_eval(Ev *ev, Table *t);
RT void tb_consume(Ev *ev, Table *t, KFn k, Table *head, const u32 *env, u32 nenv);
RT void ev_reset(Ev *ev, u32 level);
RT int x_hop(Ev *ev, int (*x)(Ev *, const u32 *), const u32 *key);
#endif /* GDLC_RUNTIME_EXTERN */

/* fs_first on at most three positions, given as constants (c0, c1, c2 of
 * which the first n count): a compiled engine reads a direct index in line,
 * the generic loop over the positions folded away. */
#ifdef GDLC_RUNTIME_EXTERN
/* libtcc does not inline: the host's copy, compiled at -O2, with the
 * positions as arguments rather than read from the index. */
u32 fs_getn(Ev *ev, FactSet *s, u32 slot, const u32 *key, u32 n, u32 c0, u32 c1, u32 c2);
#define fs_get fs_getn
#else
static inline __attribute__((always_inline)) u32 fs_get(Ev *ev, FactSet *s, u32 slot, const u32 *key, u32 n,
                                                        u32 c0, u32 c1, u32 c2);
#endif

/* ==== the runtime's code ==== (a generated file puts the game's code here) */

#ifndef GDLC_RUNTIME_EXTERN
RT void ev_fail(Ev *ev, u32 status)
{
    if (ev->status == ST_OK)
        ev->status = status;
}

RT int ev_poll(Ev *ev)
{
    ev->poll = 4096;
    if (ev->h->stop(ev->ctl))
        ev_fail(ev, ST_CANCELLED);
    return STOP;
}


RT void zero(void *p, usize n)
{
    u8 *b = p;
    for (usize i = 0; i < n; i++)
        b[i] = 0;
}

RT void copy32(u32 *d, const u32 *s, u32 n)
{
    for (u32 i = 0; i < n; i++)
        d[i] = s[i];
}

/* ---- arenas ----------------------------------------------------------- */

RT void *arena_alloc(Ev *ev, u32 level, usize n)
{
    Arena *a = &ev->arena[level];
    n = (n + 15) & ~(usize)15;
    Chunk *c = a->top;
    if (!c || c->size - c->used < n) {
        usize size = 1u << 16;
        while (size < n + sizeof(Chunk) + 16)
            size *= 2;
        usize all = ev->arena[0].total + ev->arena[1].total + ev->arena[2].total;
        if (all + size > ev->arena_limit) {
            ev_fail(ev, ST_MEMORY);
            return 0;
        }
        c = ev->h->alloc(size);
        if (!c) {
            ev_fail(ev, ST_MEMORY);
            return 0;
        }
        c->prev = a->top;
        c->size = size;
        c->used = (sizeof(Chunk) + 15) & ~(usize)15;
        a->top = c;
        a->total += size;
    }
    void *p = (u8 *)c + c->used;
    c->used += n;
    return p;
}

/* Keeps the newest chunk, empties it, and frees the others. */
RT void arena_reset(Ev *ev, u32 level)
{
    Arena *a = &ev->arena[level];
    Chunk *c = a->top;
    if (!c)
        return;
    while (c->prev) {
        Chunk *p = c->prev;
        c->prev = p->prev;
        a->total -= p->size;
        ev->h->release(p);
    }
    c->used = (sizeof(Chunk) + 15) & ~(usize)15;
}

RT void arena_free(Ev *ev, u32 level)
{
    Arena *a = &ev->arena[level];
    while (a->top) {
        Chunk *p = a->top->prev;
        ev->h->release(a->top);
        a->top = p;
    }
    a->total = 0;
}

/* ---- hashing ---------------------------------------------------------- */

/* Multiply-add over the positions, one final mix: cheap, and good enough
 * for open addressing over small ids. */
RT u32 hash_cols(const u32 *t, const Cols *c)
{
    u64 h = 0;
    for (u32 i = 0; i < c->n; i++)
        h = (h + t[c->at[i]] + 1) * 0x9e3779b97f4a7c15ULL;
    return (u32)(h >> 32 ^ h >> 7);
}

RT int eq_cols(const u32 *a, const u32 *b, const Cols *c)
{
    for (u32 i = 0; i < c->n; i++)
        if (a[c->at[i]] != b[c->at[i]])
            return 0;
    return 1;
}

RT u32 hash_all(const u32 *t, u32 n)
{
    u64 h = 0;
    for (u32 i = 0; i < n; i++)
        h = (h + t[i] + 1) * 0x9e3779b97f4a7c15ULL;
    return (u32)(h >> 32 ^ h >> 7);
}

RT int eq_all(const u32 *a, const u32 *b, u32 n)
{
    for (u32 i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

RT void cols_of(Cols *c, u64 mask)
{
    c->n = 0;
    for (u32 i = 0; i < 64; i++)
        if (mask >> i & 1)
            c->at[c->n++] = (u8)i;
}

/* ---- terms ------------------------------------------------------------ */

RT u32 mkn(Ev *ev, u32 fn, u32 n, const u32 *args)
{
    if (STOP)
        return 0;
    u32 t = ev->h->intern(ev->store, fn, n, args);
    if (t == NONE) {
        ev_fail(ev, ST_DEPTH);
        return 0;
    }
    return t;
}

/* ---- fact sets -------------------------------------------------------- */

RT void fs_clear(FactSet *s)
{
    s->n = 0;
    s->gen++;
}

RT void fs_add(Ev *ev, FactSet *s, const u32 *t)
{
    if (s->n == s->cap) {
        u32 cap = s->cap ? s->cap * 2 : 16;
        u32 *v = ev->h->alloc((usize)cap * (s->arity ? s->arity : 1) * sizeof(u32));
        if (!v) {
            ev_fail(ev, ST_MEMORY);
            return;
        }
        copy32(v, s->tup, s->n * s->arity);
        ev->h->release(s->tup);
        s->tup = v;
        s->cap = cap;
    }
    copy32(s->tup + (usize)s->n * s->arity, t, s->arity);
    s->n++;
}

/* Drops repeated tuples, keeping the first of each (a game may state a
 * fact twice; loops over a set must not see it twice). */
RT void fs_dedup(Ev *ev, FactSet *s)
{
    u32 want = 16, ar = s->arity, k = 0;
    while (want < s->n * 2 + 2)
        want *= 2;
    u32 *slot = ev->h->alloc((usize)want * sizeof(u32));
    if (!slot) {
        ev_fail(ev, ST_MEMORY);
        return;
    }
    zero(slot, (usize)want * sizeof(u32));
    for (u32 f = 0; f < s->n; f++) {
        const u32 *t = s->tup + (usize)f * ar;
        u32 i = hash_all(t, ar) & (want - 1);
        for (; slot[i]; i = (i + 1) & (want - 1))
            if (eq_all(s->tup + (usize)(slot[i] - 1) * ar, t, ar))
                break;
        if (slot[i])
            continue;
        copy32(s->tup + (usize)k * ar, t, ar);
        slot[i] = ++k;
    }
    s->n = k;
    s->gen++;
    ev->h->release(slot);
}

/* Direct addressing fits when at most three positions are bound and the
 * product of their value ranges is small. */
static int ix_try_direct(Ev *ev, FactSet *s, Index *x)
{
    u32 ar = s->arity, size = 1;
    if (x->cols.n == 0 || x->cols.n > 3)
        return 0;
    for (u32 c = 0; c < x->cols.n; c++) {
        u32 top = 0;
        for (u32 f = 0; f < s->n; f++) {
            u32 v = s->tup[(usize)f * ar + x->cols.at[c]];
            if (v > top)
                top = v;
        }
        if (top >= DIRECT_MAX || (u64)size * (top + 1) > DIRECT_MAX)
            return 0;
        x->range[c] = top + 1;
        x->stride[c] = size;
        size *= top + 1;
    }
    if (size > x->dcap) {
        u32 cap = size < 64 ? 64 : size;
        u64 *d = ev->h->alloc((usize)cap * sizeof(u64));
        if (!d)
            return 0;
        zero(d, (usize)cap * sizeof(u64));
        ev->h->release(x->dir);
        x->dir = d;
        x->dcap = cap;
        x->stamp = 0;
    }
    if (++x->stamp == 0) {
        zero(x->dir, (usize)x->dcap * sizeof(u64));
        x->stamp = 1;
    }
    u64 st = (u64)x->stamp << 32;
    for (u32 f = s->n; f-- > 0;) {
        const u32 *t = s->tup + (usize)f * ar;
        u32 k = 0;
        for (u32 c = 0; c < x->cols.n; c++)
            k += t[x->cols.at[c]] * x->stride[c];
        u64 e = x->dir[k];
        x->next[f] = (e >> 32) == x->stamp ? (u32)e - 1 : NONE;
        x->dir[k] = st | (f + 1);
    }
    return 1;
}

RT Index *ix_build(Ev *ev, FactSet *s, u32 slot)
{
    Index *x = &s->ix[slot];
    x->next = arena_alloc(ev, s->level, ((usize)s->n + 1) * sizeof(u32));
    if (STOP)
        return 0;
    x->direct = ix_try_direct(ev, s, x);
    if (x->direct) {
        x->gen = s->gen;
        x->ok = 1;
        return x;
    }
    u32 want = 16;
    while (want < s->n * 2 + 2)
        want *= 2;
    x->slot = arena_alloc(ev, s->level, (usize)want * sizeof(u32));
    if (STOP)
        return 0;
    zero(x->slot, (usize)want * sizeof(u32));
    x->nslots = want;
    u32 mask = want - 1, ar = s->arity;
    for (u32 f = s->n; f-- > 0;) {
        const u32 *t = s->tup + (usize)f * ar;
        u32 i = hash_cols(t, &x->cols) & mask;
        for (;; i = (i + 1) & mask) {
            u32 g = x->slot[i];
            if (!g) {
                x->next[f] = NONE;
                x->slot[i] = f + 1;
                break;
            }
            if (eq_cols(s->tup + (usize)(g - 1) * ar, t, &x->cols)) {
                x->next[f] = g - 1;
                x->slot[i] = f + 1;
                break;
            }
        }
    }
    x->gen = s->gen;
    x->ok = 1;
    return x;
}

/* The first fact matching key on the index's positions, or NONE; the rest
 * follow through ix->next. */
RT u32 fs_first(Ev *ev, FactSet *s, u32 slot, const u32 *key)
{
    Index *x = &s->ix[slot];
    if (x->gen != s->gen || !x->ok) {
        if (s->n == 0)
            return NONE;
        x = ix_build(ev, s, slot);
        if (!x)
            return NONE;
    }
    if (x->direct) {
        u32 k = 0;
        for (u32 c = 0; c < x->cols.n; c++) {
            u32 v = key[x->cols.at[c]];
            if (v >= x->range[c])
                return NONE;
            k += v * x->stride[c];
        }
        u64 e = x->dir[k];
        return (e >> 32) == x->stamp ? (u32)e - 1 : NONE;
    }
    u32 mask = x->nslots - 1, ar = s->arity;
    for (u32 i = hash_cols(key, &x->cols) & mask;; i = (i + 1) & mask) {
        u32 g = x->slot[i];
        if (!g)
            return NONE;
        if (eq_cols(s->tup + (usize)(g - 1) * ar, key, &x->cols))
            return g - 1;
    }
}

/* ---- tables ----------------------------------------------------------- */

RT Table *tb_new(Ev *ev, u32 q, u32 arity, u32 level, const u32 *key)
{
    Table *t = arena_alloc(ev, level, sizeof(Table) + (arity ? arity : 1) * sizeof(u32));
    if (!t)
        return 0;
    zero(t, sizeof(Table));
    t->q = q;
    copy32(t->key, key, arity);
    return t;
}

/* Adds an answer unless already there. */
RT void tb_add(Ev *ev, Table *t, u32 arity, u32 level, const u32 *a)
{
    POLL(return);
    if (arity < 64 && ev->qi[t->q].mask == (1ULL << arity) - 1) {
        /* Every position bound: the one possible answer is the call. */
        if (!t->n) {
            t->ans = t->key;
            t->n = t->cap = 1;
        }
        return;
    }
    /* Answers agree with the call on its bound positions: the set hashes
     * and compares the others. */
    const Cols *fc = &ev->qfree[t->q];
    if (t->n * 2 + 2 > t->nset) {
        /* The first set is sized for the most answers a table of the same
         * query had in the last state; then it doubles. */
        u32 want = t->nset ? t->nset * 2 : 8;
        if (!t->nset)
            while (want < ev->ahint[t->q] * 2 + 2 && want < 1024)
                want *= 2;
        while (want < t->n * 2 + 2)
            want *= 2;
        u32 *set = arena_alloc(ev, level, (usize)want * sizeof(u32));
        if (!set)
            return;
        zero(set, (usize)want * sizeof(u32));
        for (u32 k = 0; k < t->n; k++) {
            u32 i = hash_cols(t->ans + (usize)k * arity, fc) & (want - 1);
            while (set[i])
                i = (i + 1) & (want - 1);
            set[i] = k + 1;
        }
        t->set = set;
        t->nset = want;
    }
    u32 mask = t->nset - 1;
    u32 i = hash_cols(a, fc) & mask;
    for (; t->set[i]; i = (i + 1) & mask)
        if (eq_cols(t->ans + (usize)(t->set[i] - 1) * arity, a, fc))
            return;
    if (t->n == t->cap) {
        u32 cap = t->cap ? t->cap * 2 : 4;
        if (!t->cap)
            while (cap < ev->ahint[t->q] && cap < 512)
                cap *= 2;
        u32 *v = arena_alloc(ev, level, (usize)cap * (arity ? arity : 1) * sizeof(u32));
        if (!v)
            return;
        copy32(v, t->ans, t->n * arity);
        t->ans = v;
        t->cap = cap;
    }
    copy32(t->ans + (usize)t->n * arity, a, arity);
    t->set[i] = ++t->n;
    if (t->n > ev->amax[t->q])
        ev->amax[t->q] = t->n;
}

/* Is a (every position given) among the answers? */
RT int tb_has(Ev *ev, const Table *t, u32 arity, const u32 *a)
{
    if (!t->n)
        return 0;
    if (!t->nset) /* a table of a call that binds everything */
        return eq_all(t->ans, a, arity);
    const Cols *fc = &ev->qfree[t->q];
    u32 mask = t->nset - 1;
    for (u32 i = hash_cols(a, fc) & mask; t->set[i]; i = (i + 1) & mask)
        if (eq_cols(t->ans + (usize)(t->set[i] - 1) * arity, a, fc))
            return 1;
    return 0;
}

/* ---- deep recursion --------------------------------------------------- */

/* A table call or a yes/no function, continued on a host stack segment. */
typedef struct Hop {
    Ev *ev;
    u32 q;
    const u32 *key;
    int (*x)(Ev *, const u32 *);
    Table *t;       /* tb_call's result */
    int yes;        /* x's result */
} Hop;

static void tb_call_hopped(void *p)
{
    Hop *h = p;
    h->t = tb_call(h->ev, h->q, h->key);
}

static void x_hopped(void *p)
{
    Hop *h = p;
    h->yes = h->x(h->ev, h->key);
}

static Table *tb_call_hop(Ev *ev, u32 q, const u32 *key)
{
    Hop h = {ev, q, key, 0, 0, 0};
    if (!ev->h->hop(ev->ctl, &ev->floor, tb_call_hopped, &h)) {
        ev_fail(ev, ST_STACK);
        return 0;
    }
    return h.t;
}

RT int x_hop(Ev *ev, int (*x)(Ev *, const u32 *), const u32 *key)
{
    Hop h = {ev, 0, key, x, 0, 0};
    if (!ev->h->hop(ev->ctl, &ev->floor, x_hopped, &h)) {
        ev_fail(ev, ST_STACK);
        return 0;
    }
    return h.yes;
}

/* The table of a call, evaluated if it is new. NULL after a failure. */
RT Table *tb_call(Ev *ev, u32 q, const u32 *key)
{
    const QInfo *qi = &ev->qi[q];
    CallMap *m = &ev->calls[q];
    const Cols *cols = &ev->qcols[q];
    u32 ar = qi->arity;
    if (STOP)
        return 0;
    if (DEEP)
        return tb_call_hop(ev, q, key);
    if (m->n * 2 + 2 > m->nslots) {
        /* The last state's calls are a good guess at this one's: start
         * at that size rather than growing to it again. */
        u32 want = m->nslots ? m->nslots * 2 : m->hint ? m->hint : 4;
        Table **slot = arena_alloc(ev, qi->level, (usize)want * sizeof(Table *));
        if (!slot)
            return 0;
        zero(slot, (usize)want * sizeof(Table *));
        for (u32 k = 0; k < m->nslots; k++) {
            Table *x = m->slot[k];
            if (!x)
                continue;
            u32 i = hash_cols(x->key, cols) & (want - 1);
            while (slot[i])
                i = (i + 1) & (want - 1);
            slot[i] = x;
        }
        m->slot = slot;
        m->nslots = want;
    }
    u32 mask = m->nslots - 1;
    u32 i = hash_cols(key, cols) & mask;
    for (; m->slot[i]; i = (i + 1) & mask)
        if (eq_cols(m->slot[i]->key, key, cols))
            return m->slot[i];
    Table *t = tb_new(ev, q, ar, qi->level, key);
    if (!t)
        return 0;
    m->slot[i] = t;
    m->n++;
    tb_eval(ev, t);
    return STOP ? 0 : t;
}

/* A call whose table must be complete: negation, lower components. */
RT Table *tb_call_complete(Ev *ev, u32 q, const u32 *key)
{
    Table *t = tb_call(ev, q, key);
    if (t && t->status != TB_COMPLETE) {
        ev_fail(ev, ST_NEGATION);
        return 0;
    }
    return t;
}

RT void tb_eval(Ev *ev, Table *t)
{
    if (ev->sn == ev->scap) {
        u32 cap = ev->scap ? ev->scap * 2 : 64;
        Table **v = ev->h->alloc((usize)cap * sizeof(Table *));
        if (!v) {
            ev_fail(ev, ST_MEMORY);
            return;
        }
        for (u32 i = 0; i < ev->sn; i++)
            v[i] = ev->stack[i];
        ev->h->release(ev->stack);
        ev->stack = v;
        ev->scap = cap;
    }
    u32 sp = ev->sn++;
    t->sp = sp;
    t->status = TB_PROGRESS;
    ev->stack[sp] = t;
    u32 outer = ev->low;
    ev->low = sp;
    ev->qi[t->q].rules(ev, t);
    if (STOP)
        return;
    if (ev->low == sp) {
        /* The leader: feed every consumer above it until nothing moves. */
        u32 buf[64];
        for (int progress = 1; progress;) {
            progress = 0;
            for (u32 j = sp; j < ev->sn; j++) {
                Table *u = ev->stack[j];
                u32 ar = ev->qi[u->q].arity;
                for (Cons *c = u->cons; c; c = c->next) {
                    while (c->cursor < u->n) {
                        copy32(buf, u->ans + (usize)c->cursor * ar, ar);
                        c->cursor++;
                        c->k(ev, c->head, c->env, buf);
                        progress = 1;
                        if (STOP)
                            return;
                        if (ev->low < sp)
                            goto not_leader;
                    }
                }
            }
        }
        for (u32 j = sp; j < ev->sn; j++) {
            ev->stack[j]->status = TB_COMPLETE;
            ev->stack[j]->cons = 0;
        }
        ev->sn = sp;
        ev->low = outer;
        return;
    }
not_leader:
    if (outer < ev->low)
        ev->low = outer;
}

/* Runs k on every answer of t: now if t is complete, else as a consumer. */
RT void tb_consume(Ev *ev, Table *t, KFn k, Table *head, const u32 *env, u32 nenv)
{
    if (t->status == TB_COMPLETE) {
        u32 ar = ev->qi[t->q].arity;
        for (u32 i = 0; i < t->n && !STOP; i++)
            k(ev, head, env, t->ans + (usize)i * ar);
        return;
    }
    Cons *c = arena_alloc(ev, ev->qi[t->q].level, sizeof(Cons) + (nenv ? nenv : 1) * sizeof(u32));
    if (!c)
        return;
    c->k = k;
    c->head = head;
    c->cursor = 0;
    copy32(c->env, env, nenv);
    c->next = t->cons;
    t->cons = c;
    if (t->sp < ev->low)
        ev->low = t->sp;
}

/* ---- levels ----------------------------------------------------------- */

/* Forgets every table and index of a level and of the levels below it
 * (a move's tables depend on the state, the state's on nothing else). */
RT void ev_reset(Ev *ev, u32 level)
{
    for (u32 q = 0; q < ev->nq; q++) {
        CallMap *m = &ev->calls[q];
        if (ev->qi[q].level < level)
            continue;
        if (m->nslots) {
            /* what this state needed is the next one's first guess */
            if (m->nslots > m->hint || m->nslots * 4 < m->hint)
                m->hint = m->nslots;
            ev->ahint[q] = ev->amax[q];
            ev->amax[q] = 0;
        }
        m->slot = 0;
        m->nslots = m->n = 0;
    }
    for (u32 f = 0; f < ev->nfs; f++)
        if (ev->fs[f].level >= level)
            for (u32 x = 0; x < ev->fs[f].nix; x++)
                ev->fs[f].ix[x].ok = 0;
    for (u32 l = level; l < LV_N; l++)
        arena_reset(ev, l);
    ev->sn = 0;
    ev->low = NONE;
}

static inline __attribute__((always_inline)) u32 fs_get(Ev *ev, FactSet *s, u32 slot, const u32 *key, u32 n,
                                                        u32 c0, u32 c1, u32 c2)
{
    Index *x = &s->ix[slot];
    if (!(x->ok && x->gen == s->gen && x->direct))
        return fs_first(ev, s, slot, key);
    u32 a = key[c0];
    if (a >= x->range[0])
        return NONE;
    u32 k = a * x->stride[0];
    if (n > 1) {
        a = key[c1];
        if (a >= x->range[1])
            return NONE;
        k += a * x->stride[1];
    }
    if (n > 2) {
        a = key[c2];
        if (a >= x->range[2])
            return NONE;
        k += a * x->stride[2];
    }
    u64 e = x->dir[k];
    return (e >> 32) == x->stamp ? (u32)e - 1 : NONE;
}
#endif
