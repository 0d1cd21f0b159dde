/*
 * gen.c: random small GDL games.
 *
 * Helper relations p0..p5 form three groups of two (p0 p1, p2 p3, p4 p5).
 * A rule of p_i may use positively any relation of its own group or a
 * lower one (so recursion, left, right and mutual, happens inside a group)
 * and negatively only relations of lower groups: the program is stratified
 * by construction. Every variable of a head, negation or distinct is bound
 * by a positive literal first: it is safe by construction. Domains are tiny
 * (constants a b c d, and pairs (pr X Y)) so every model is small.
 * Calls come with every binding pattern: free, bound, a constant in a bound
 * position, the same variable twice. `nat` builds function terms (s (s z))
 * by recursion, bounded only by the facts of `small`.
 *
 * gen_flat_game makes games that engine board compiles (runtime/board.c
 * declines recursion among relations of the state, function terms in facts
 * and moves, and moves that are variables): the same roles, counter and
 * helpers, with these differences. A helper calls only helpers of lower
 * number, so no relation of the state is recursive; recursion stays in
 * `reach`, a relation of constants (the closure of e), which the board
 * evaluates ahead into a table. The state holds flat facts only: (f X Y)
 * and (g X Y) as sets of pairs, (h X V) with one V per X (a board whose
 * cells a move of r1 sets), a proposition `lit` and a counter `score`;
 * in some games a move of r2 at one step gives a cell of h a second value,
 * so that the layout the board finds by sampling play (X determines V) may
 * fail on a reachable state that its checks must catch.
 */
#include "gen.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Out {
    char *s;
    size_t len, cap;
} Out;

static void put(Out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (o->len + (size_t)n + 1 > o->cap) {
        o->cap = (o->len + (size_t)n + 1) * 2;
        o->s = realloc(o->s, o->cap);
    }
    memcpy(o->s + o->len, tmp, (size_t)n + 1);
    o->len += (size_t)n;
}

static uint64_t next(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int pick(uint64_t *st, int n) { return (int)(next(st) % (uint64_t)n); }

static const char *CONSTS[] = {"a", "b", "c", "d"};
enum { NREL = 6 };
static const int ARITY[NREL] = {2, 1, 2, 2, 1, 2};

/* gen_flat_game's body of helper rel: binds ?x and ?y as body does, and
 * calls only helpers of lower number (positively or negatively). */
static void flat_body(Out *o, uint64_t *st, int rel)
{
    switch (pick(st, 6)) {
    case 0: put(o, " (e ?x ?y)"); break;
    case 1: put(o, " (true (f ?x ?y))"); break;
    case 2: put(o, " (true (g ?x ?y))"); break;
    case 3: put(o, " (true (h ?x ?y))"); break;
    case 4: put(o, " (reach ?x ?y)"); break;
    default: put(o, " (or (e ?x ?y) (true (f ?y ?x)))"); break;
    }
    int extra = rel ? pick(st, 3) : 0;
    for (int k = 0; k < extra; k++) {
        int r = pick(st, rel); /* a lower one */
        if (ARITY[r] == 2) {
            int shape = pick(st, 6);
            if (shape == 0)
                put(o, " (p%d ?x ?z) (p%d ?z ?y)", r, r);
            else if (shape == 1)
                put(o, " (p%d ?y ?x)", r);
            else if (shape == 2)
                put(o, " (p%d ?x ?z) (true (h ?z ?y))", r); /* a cell read by a bound key */
            else if (shape == 3)
                put(o, " (reach ?x ?z) (p%d ?z ?y)", r);
            else if (shape == 4)
                put(o, " (p%d ?x ?x)", r);
            else
                put(o, " (p%d %s ?y)", r, CONSTS[pick(st, 4)]);
        } else {
            put(o, " (p%d ?%c)", r, pick(st, 2) ? 'x' : 'y');
        }
    }
    if (rel > 0 && pick(st, 2)) {
        int r = pick(st, rel);
        if (ARITY[r] == 2)
            put(o, " (not (p%d ?y ?x))", r);
        else
            put(o, " (not (p%d ?x))", r);
    }
    int f = pick(st, 5);
    if (f == 0)
        put(o, " (distinct ?x ?y)");
    else if (f == 1)
        put(o, " (distinct ?x %s)", CONSTS[pick(st, 4)]);
    else if (f == 2)
        put(o, " (not (distinct ?y %s))", CONSTS[pick(st, 4)]);
    else if (f == 3)
        put(o, " (not (true (h ?y %s)))", CONSTS[pick(st, 4)]); /* a cell that does not hold a value */
}

/* A body that binds ?x and ?y (both for arity 2 heads, ?x for 1): a
 * positive base literal, then 0-2 more positive literals of allowed
 * relations, then optional filters. */
static void body(Out *o, uint64_t *st, int rel, bool flat)
{
    int group = rel / 2;
    if (flat) {
        flat_body(o, st, rel);
        return;
    }
    switch (pick(st, 4)) {
    case 0: put(o, " (e ?x ?y)"); break;
    case 1: put(o, " (true (f ?x ?y))"); break;
    case 2: put(o, " (true (g (pr ?x ?y)))"); break;
    default: put(o, " (or (e ?x ?y) (true (f ?y ?x)))"); break;
    }
    int extra = pick(st, 3);
    for (int k = 0; k < extra; k++) {
        int r = pick(st, 2 * group + 2); /* own group or lower */
        if (ARITY[r] == 2) {
            int shape = pick(st, 6);
            if (shape == 0)
                put(o, " (p%d ?x ?z) (p%d ?z ?y)", r, r); /* two recursive literals */
            else if (shape == 1)
                put(o, " (p%d ?y ?x)", r);
            else if (shape == 2)
                put(o, " (p%d ?x ?z) (e ?z ?y)", r); /* left recursion when r == rel */
            else if (shape == 3)
                put(o, " (e ?x ?z) (p%d ?z ?y)", r); /* right recursion */
            else if (shape == 4)
                put(o, " (p%d ?x ?x)", r); /* one variable twice */
            else
                put(o, " (p%d %s ?y)", r, CONSTS[pick(st, 4)]); /* a constant bound */
        } else {
            put(o, " (p%d ?%c)", r, pick(st, 2) ? 'x' : 'y');
        }
    }
    if (group > 0 && pick(st, 2)) {
        int r = pick(st, 2 * group); /* a lower group only */
        if (ARITY[r] == 2)
            put(o, " (not (p%d ?y ?x))", r);
        else
            put(o, " (not (p%d ?x))", r);
    }
    int f = pick(st, 4);
    if (f == 0)
        put(o, " (distinct ?x ?y)");
    else if (f == 1)
        put(o, " (distinct ?x %s)", CONSTS[pick(st, 4)]);
    else if (f == 2)
        put(o, " (not (distinct ?y %s))", CONSTS[pick(st, 4)]);
}

char *gen_game(uint64_t seed)
{
    uint64_t st = seed * 0x2545f4914f6cdd1dULL + 1;
    Out o = {0};
    put(&o, "; generated by tests/gen/gen.c, seed %llu\n", (unsigned long long)seed);
    put(&o, "(role r1) (role r2)\n");
    for (int i = 0; i < 4; i++)
        put(&o, "(dom %s)\n", CONSTS[i]);
    int ne = 3 + pick(&st, 5);
    for (int i = 0; i < ne; i++)
        put(&o, "(e %s %s)\n", CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)]);
    put(&o, "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)\n");
    put(&o, "(init (step 0))\n(init (f %s %s))\n(init (g (pr %s %s)))\n", CONSTS[pick(&st, 4)],
        CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)]);
    /* helper relations: a base rule each, then random ones */
    for (int r = 0; r < NREL; r++) {
        int n = 1 + pick(&st, 3);
        for (int k = 0; k < n; k++) {
            if (ARITY[r] == 2)
                put(&o, "(<= (p%d ?x ?y)", r);
            else
                put(&o, "(<= (p%d ?x)", r);
            body(&o, &st, r, false);
            put(&o, ")\n");
        }
    }
    /* function terms built by recursion, bounded by `small` */
    put(&o, "(nat z)\n(<= (nat (s ?n)) (nat ?n) (small ?n))\n(small z)\n");
    int nsmall = pick(&st, 4);
    const char *chain[] = {"(s z)", "(s (s z))", "(s (s (s z)))"};
    for (int i = 0; i < nsmall; i++)
        put(&o, "(small %s)\n", chain[i]);
    /* a proposition of the game alone; a call asking only whether some
     * answer has a shape, (pr ?a ?b), while others answer plain values */
    put(&o, "(<= flag0 (e %s ?x))\n", CONSTS[pick(&st, 4)]);
    put(&o, "(<= (wrap ?x (pr ?x ?y)) (true (f ?x ?y)))\n(<= (wrap ?x ?x) (true (step ?x)))\n");
    put(&o, "(<= somepair (wrap ?x (pr ?a ?b)))\n");
    put(&o, "(<= (legal r2 pairmove) somepair)\n(<= (legal r2 flagmove) flag0)\n");
    put(&o, "(<= (legal r1 nflag) (role r1) (not flag0))\n");
    /* moves: noop always, and (m X) for a helper's answers */
    put(&o, "(<= (legal ?r noop) (role ?r))\n");
    put(&o, "(<= (legal r2 (c ?n)) (nat ?n) (true (step %d)))\n", pick(&st, 3));
    put(&o, "(<= (legal r1 (m ?x)) (p%d ?x))\n", pick(&st, 2) ? 1 : 4);
    static const int binary[] = {0, 2, 3, 5};
    put(&o, "(<= (legal r2 (m ?x)) (p%d ?x ?y))\n", binary[pick(&st, 4)]);
    /* next */
    put(&o, "(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n");
    put(&o, "(<= (next (f ?x ?y)) (does r1 (m ?x)) (dom ?y) (p%d ?x ?y))\n", pick(&st, 2) ? 0 : 3);
    put(&o, "(<= (next (f ?x ?y)) (true (f ?x ?y)) (not (p%d ?x ?y)))\n", pick(&st, 2) ? 2 : 5);
    put(&o, "(<= (next (g (pr ?x ?y))) (does r2 (m ?x)) (does r1 ?w) (e ?x ?y))\n");
    put(&o, "(<= (next (g ?p)) (true (g ?p)) (does r1 noop))\n");
    /* the end and the goals */
    put(&o, "(<= terminal (true (step 6)))\n");
    put(&o, "(<= terminal (p%d %s %s))\n", pick(&st, 2) ? 3 : 5, CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)]);
    int gr = pick(&st, 2) ? 4 : 1;
    const char *gc = CONSTS[pick(&st, 4)];
    put(&o, "(<= (goal ?r 100) (role ?r) (p%d %s))\n", gr, gc);
    put(&o, "(<= (goal ?r 0) (role ?r) (not (p%d %s)))\n", gr, gc);
    return o.s;
}

char *gen_flat_game(uint64_t seed)
{
    uint64_t st = seed * 0x9e3779b97f4a7c15ULL + 7;
    Out o = {0};
    put(&o, "; generated by tests/gen/gen.c (gen_flat_game), seed %llu\n", (unsigned long long)seed);
    put(&o, "(role r1) (role r2)\n");
    for (int i = 0; i < 4; i++)
        put(&o, "(dom %s)\n", CONSTS[i]);
    int ne = 3 + pick(&st, 5);
    for (int i = 0; i < ne; i++)
        put(&o, "(e %s %s)\n", CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)]);
    put(&o, "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)\n");
    int nnum = 1 + pick(&st, 4);
    for (int i = 0; i < nnum; i++)
        put(&o, "(num n%d)\n", i);
    /* recursion among constants: a table */
    put(&o, "(<= (reach ?x ?y) (e ?x ?y))\n(<= (reach ?x ?z) (e ?x ?y) (reach ?y ?z))\n");
    put(&o, "(init (step 0))\n(init (f %s %s))\n(init (g %s %s))\n", CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)],
        CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)]);
    put(&o, "(<= (init (h ?x %s)) (dom ?x))\n", CONSTS[pick(&st, 4)]);
    if (pick(&st, 2))
        put(&o, "(init lit)\n");
    for (int r = 0; r < NREL; r++) {
        int n = 1 + pick(&st, 3);
        for (int k = 0; k < n; k++) {
            if (ARITY[r] == 2)
                put(&o, "(<= (p%d ?x ?y)", r);
            else
                put(&o, "(<= (p%d ?x)", r);
            body(&o, &st, r, true);
            put(&o, ")\n");
        }
    }
    put(&o, "(<= flag0 (e %s ?x))\n", CONSTS[pick(&st, 4)]);
    put(&o, "(<= (legal r2 flagmove) flag0)\n");
    put(&o, "(<= (legal r1 nflag) (role r1) (not flag0))\n");
    put(&o, "(<= (legal ?r noop) (role ?r))\n");
    put(&o, "(<= (legal r2 (c ?n)) (num ?n) (true (step %d)))\n", pick(&st, 3));
    put(&o, "(<= (legal r1 (m ?x)) (p%d ?x))\n", pick(&st, 2) ? 1 : 4);
    static const int binary[] = {0, 2, 3, 5};
    put(&o, "(<= (legal r2 (m ?x)) (p%d ?x ?y))\n", binary[pick(&st, 4)]);
    put(&o, "(<= (legal r1 (set ?x ?v)) (true (h ?x ?w)) (%s ?w ?v))\n", pick(&st, 2) ? "e" : "reach");
    /* next */
    put(&o, "(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n");
    put(&o, "(<= (next (f ?x ?y)) (does r1 (m ?x)) (dom ?y) (p%d ?x ?y))\n", pick(&st, 2) ? 0 : 3);
    put(&o, "(<= (next (f ?x ?y)) (true (f ?x ?y)) (not (p%d ?x ?y)))\n", pick(&st, 2) ? 2 : 5);
    /* frame rules of other shapes (engine board's frames, bg.c), chosen by
     * a stream of their own so that the rest of the game is as before */
    uint64_t fr = seed * 0xd1b54a32d192ed03ULL + 3;
    int hframe = pick(&fr, 4), fframe = pick(&fr, 2);
    if (fframe)
        put(&o, "(<= (next (f ?x ?y)) (true (f ?x ?y)) (does r2 (m ?z)) (distinct ?z ?x))\n");
    put(&o, "(<= (next (g ?x ?y)) (does r2 (m ?x)) (does r1 noop) (e ?x ?y))\n");
    put(&o, "(<= (next (g ?x ?y)) (true (g ?x ?y)) (does r1 noop))\n");
    put(&o, "(<= (touched ?x) (does r1 (set ?x ?v)))\n");
    put(&o, "(<= (next (h ?x ?v)) (does r1 (set ?x ?v)))\n");
    if (hframe == 3) { /* split by the value */
        put(&o, "(<= (next (h ?x ?v)) (true (h ?x ?v)) (distinct ?v a) (not (touched ?x)))\n");
        put(&o, "(<= (next (h ?x a)) (true (h ?x a)) (not (touched ?x)))\n");
    } else
        put(&o, "(<= (next (h ?x ?v)) (true (h ?x ?v)) (not (touched ?x)))\n");
    if (hframe == 1) /* a move part that may have no answer */
        put(&o, "(<= (next (h ?x ?v)) (true (h ?x ?v)) (does r1 (set ?y ?w)) (distinct ?x ?y))\n");
    if (hframe == 2) /* one branch a frame of the key, one not */
        put(&o, "(<= (next (h ?x ?v)) (true (h ?x ?v)) (does ?r (set ?y ?w)) (or (distinct ?x ?y) (distinct ?v ?w)))\n");
    if (pick(&st, 3) == 0) /* h's key broken at one step, by one move */
        put(&o, "(<= (next (h ?x ?v)) (does r2 (m ?x)) (true (step %d)) (e ?x ?v))\n", 2 + pick(&st, 4));
    put(&o, "(<= (next lit) (true lit) (not (does r2 flagmove)))\n");
    put(&o, "(<= (next lit) (does r1 nflag))\n");
    put(&o, "(<= (next (score ?n)) (does r2 (c ?n)))\n");
    put(&o, "(<= (next (score ?n)) (true (score ?n)) (not (does r2 flagmove)))\n");
    /* the end and the goals */
    put(&o, "(<= terminal (true (step 6)))\n");
    put(&o, "(<= terminal (p%d %s %s))\n", pick(&st, 2) ? 3 : 5, CONSTS[pick(&st, 4)], CONSTS[pick(&st, 4)]);
    int gr = pick(&st, 2) ? 4 : 1;
    const char *gc = CONSTS[pick(&st, 4)];
    put(&o, "(<= (goal ?r 100) (role ?r) (p%d %s))\n", gr, gc);
    put(&o, "(<= (goal ?r 0) (role ?r) (not (p%d %s)))\n", gr, gc);
    return o.s;
}
