/* test_deep.c: deep terms and deep recursion, on every engine, in a thread
 * with a 256 KB stack (a player's thread may have no more).
 *
 * The games are generated here: a path through N edges walked by right
 * and by left recursion, over a static relation (jit and aot evaluate it
 * when compiling, through ref) and over one that depends on the state
 * (evaluated while playing), for N = 10,000 and 100,000; a chain of
 * 100,000 rules p0 :- p1, ..., p99999 :- (true p) (30,000 for both in
 * sanitizer builds, ten times slower); a path of 10^7 steps,
 * counted in seven digits, which must stop with GDL_LIMIT; terms nested
 * too deep, in the text and built while playing; the longest rule body
 * accepted (the code generator and libtcc recurse once per literal). Each game's terminal test
 * holds only if the whole chain is derived, and the move `wrong` would be
 * legal only if something off the chain were.
 *
 * Engines: ref, jit and aot (so:PATH loads objects as aot does). aot runs
 * the system compiler, whose time grows with the game: it gets the path of
 * 10,000 edges and a chain of 3,000 rules, not the largest games.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gdl.h"
#include "../lib/api_errors.h"

/* The larger sizes: 100,000, less in sanitizer builds (CMakeLists.txt),
 * whose evaluation is ten times slower. */
#ifndef GDLC_DEEP_BIG
#define GDLC_DEEP_BIG 100000
#endif

/* AST_MAX_BODY (ast.h, not a public header) */
enum { SMALL_STACK = 256 << 10, BIG = GDLC_DEEP_BIG, AST_MAX_BODY_TESTED = 256 };

/* A growing string. */
typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

static void add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static const char *const GAME_BASE = "(role a)\n(init p)\n(<= (legal a go) (true p))\n(<= (next p) (true p))\n"
                                     "(goal a 100)\n(edge m0 m1)\n";

/* A path n0 -> n1 -> ... -> nN, walked four ways at once: right recursion
 * derives (r n0) from (r nN) through N nested calls, left recursion (l nN)
 * from (l n0) in one table; the edges are read from the static relation
 * edge (rs, ls: jit and aot evaluate them when compiling) or through
 * sedge, which depends on the state (rd, ld: evaluated while playing). An
 * edge m0 -> m1 off the path derives none of them. */
static char *path_game(unsigned n)
{
    Text t = {0};
    add(&t, "%s", GAME_BASE);
    add(&t, "(<= (sedge ?x ?y) (true p) (edge ?x ?y))\n");
    add(&t, "(rs n%u)\n(<= (rs ?x) (edge ?x ?y) (rs ?y))\n", n);
    add(&t, "(rd n%u)\n(<= (rd ?x) (sedge ?x ?y) (rd ?y))\n", n);
    add(&t, "(ls n0)\n(<= (ls ?y) (ls ?x) (edge ?x ?y))\n");
    add(&t, "(ld n0)\n(<= (ld ?y) (ld ?x) (sedge ?x ?y))\n");
    add(&t, "(<= terminal (rs n0) (rd n0) (ls n%u) (ld n%u))\n", n, n);
    add(&t, "(<= (legal a wrong) (rs m0))\n(<= (legal a wrong) (rd m0))\n");
    add(&t, "(<= (legal a wrong) (ls m1))\n(<= (legal a wrong) (ld m1))\n");
    for (unsigned i = 0; i < n; i++)
        add(&t, "(edge n%u n%u)\n", i, i + 1);
    return t.s;
}

/* p0 :- p1, ..., pN-1 :- (true p): N non-recursive rules, each a level. */
static char *chain_game(unsigned n)
{
    Text t = {0};
    add(&t, "%s(<= terminal p0)\n(<= (legal a wrong) q0)\n(<= q0 (edge m1 m0))\n", GAME_BASE);
    for (unsigned i = 0; i + 1 < n; i++)
        add(&t, "(<= p%u p%u)\n", i, i + 1);
    add(&t, "(<= p%u (true p))\n", n - 1);
    return t.s;
}

/* A path of 10^digits - 1 steps from (n 0 ... 0) to (n 9 ... 9) for the
 * terminal test (the successor of a number of `digits` digits, by its
 * trailing nines), and goals that build (s (s ... z)) ever deeper. */
static char *counter_game(unsigned digits)
{
    Text t = {0};
    add(&t, "%s", GAME_BASE);
    for (unsigned i = 0; i < 10; i++)
        add(&t, "(digit %u)\n", i);
    for (unsigned i = 0; i < 9; i++)
        add(&t, "(succ %u %u)\n", i, i + 1);
    for (unsigned nines = 0; nines < digits; nines++) {
        unsigned pos = digits - 1 - nines;
        add(&t, "(<= (inc (n");
        for (unsigned i = 0; i < digits; i++)
            i < pos ? add(&t, " ?x%u", i) : i == pos ? add(&t, " ?x%u", i) : add(&t, " 9");
        add(&t, ") (n");
        for (unsigned i = 0; i < digits; i++)
            i < pos ? add(&t, " ?x%u", i) : i == pos ? add(&t, " ?y%u", i) : add(&t, " 0");
        add(&t, ")) (true p)");
        for (unsigned i = 0; i < pos; i++)
            add(&t, " (digit ?x%u)", i);
        add(&t, " (succ ?x%u ?y%u))\n", pos, pos);
    }
    add(&t, "(reach (n");
    for (unsigned i = 0; i < digits; i++)
        add(&t, " 9");
    add(&t, "))\n(<= (reach ?x) (true p) (inc ?x ?y) (reach ?y))\n(<= terminal (reach (n");
    for (unsigned i = 0; i < digits; i++)
        add(&t, " 0");
    add(&t, ")))\n(<= (legal a wrong) (reach m0))\n");
    /* and a term built ever deeper by the goal */
    add(&t, "(grow z)\n(<= (grow (s ?x)) (grow ?x))\n(<= (goal a 50) (grow ?x) (true (at ?x)))\n");
    return t.s;
}

/* A rule of n literals (r ?x0) :- (s ?x0 ?x1) ... (true p): the code
 * generator and libtcc recurse once per literal. */
static char *long_rule_game(unsigned n)
{
    Text t = {0};
    add(&t, "%s(s 1 1)\n(s 2 2)\n(<= terminal (r 1))\n(<= (legal a wrong) (r 3))\n(<= (r ?x0)", GAME_BASE);
    for (unsigned i = 0; i + 1 < n; i++)
        add(&t, " (s ?x%u ?x%u)", i, i + 1);
    add(&t, " (true p))\n");
    return t.s;
}

/* What one run in the small thread saw. */
typedef struct Run {
    const char *engine;
    const char *text;
    GdlStatus load, make, initial, terminal_st, legal_st, goals_st;
    bool terminal;
    size_t nlegal;
    char legal0[32];
    char error[256];       /* after the terminal test */
    char goals_error[256]; /* after the goals */
} Run;

/* Loads the game, makes a machine, asks for the initial state, whether it
 * is terminal and the legal moves of role a. Runs in the small thread:
 * records, never asserts (cmocka's failures longjmp). */
static void *run_game(void *arg)
{
    Run *r = arg;
    GdlGame *g = NULL;
    GdlMachine *m = NULL;
    GdlState *s = NULL;
    char *err = NULL;
    r->load = gdl_game_load_string("deep.kif", r->text, strlen(r->text), &g, NULL);
    if (r->load != GDL_OK)
        return NULL;
    r->make = test_machine_new(g, r->engine, &m, &err);
    if (r->make != GDL_OK) {
        snprintf(r->error, sizeof r->error, "%s", err ? err : "");
        free(err);
        gdl_game_free(g);
        return NULL;
    }
    r->initial = gdl_state_initial(m, &s);
    if (r->initial == GDL_OK) {
        r->terminal_st = gdl_state_is_terminal(m, s, &r->terminal);
        if (r->terminal_st != GDL_OK)
            snprintf(r->error, sizeof r->error, "%s", gdl_machine_error(m));
        const GdlMove *moves = NULL;
        r->legal_st = gdl_state_legal(m, s, 0, &moves, &r->nlegal);
        if (r->legal_st == GDL_OK && r->nlegal > 0)
            snprintf(r->legal0, sizeof r->legal0, "%s", gdl_move_text(m, moves[0]));
        int goals[1];
        r->goals_st = gdl_state_goals(m, s, goals);
        snprintf(r->goals_error, sizeof r->goals_error, "%s", r->goals_st ? gdl_machine_error(m) : "");
    }
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(g);
    return NULL;
}

static void run_small(Run *r)
{
    pthread_attr_t attr;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
    assert_int_equal(pthread_create(&t, &attr, run_game, r), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    pthread_attr_destroy(&attr);
}

/* The game plays on the engine in the small thread; its chain is derived
 * (terminal) and nothing off it (the one legal move is go). */
static void expect_derived(const char *engine, char *text)
{
    Run r = {.engine = engine, .text = text};
    run_small(&r);
    free(text);
    assert_int_equal(r.load, GDL_OK);
    if (r.make != GDL_OK)
        fail_msg("engine %s: %s", engine, r.error);
    assert_int_equal(r.initial, GDL_OK);
    if (r.terminal_st != GDL_OK)
        fail_msg("engine %s: %s: %s", engine, gdl_status_name(r.terminal_st), r.error);
    assert_true(r.terminal);
    assert_int_equal(r.legal_st, GDL_OK);
    assert_int_equal(r.nlegal, 1);
    assert_string_equal(r.legal0, "go");
}

static void ref_paths(void **state)
{
    (void)state;
    expect_derived("ref", path_game(10000));
    expect_derived("ref", path_game(BIG));
}

/* The larger size on the goal-directed code alone, whose recursion it is
 * about: jit's plan would ground it first (10 s of a 46 s test). */
static void jit_paths(void **state)
{
    (void)state;
    expect_derived("jit", path_game(10000));
    expect_derived("jit:goal", path_game(BIG));
}

static void aot_paths(void **state)
{
    (void)state;
    expect_derived("aot", path_game(10000));
}

static void ref_chain(void **state)
{
    (void)state;
    expect_derived("ref", chain_game(BIG));
}

static void jit_chain(void **state)
{
    (void)state;
    expect_derived("jit", chain_game(10000));
    expect_derived("jit:goal", chain_game(BIG));
}

static void aot_chain(void **state)
{
    (void)state;
    expect_derived("aot", chain_game(3000));
}

/* Deeper than the stack budget: GDL_LIMIT naming the limit, not a crash.
 * The budget is lowered (GDLC_STACK_MIB, read when a machine is made; no
 * other thread runs) so that reaching it is quick. A term built deeper
 * than the engines accept: GDL_LIMIT naming the depth limit. */
static void too_deep(void **state)
{
    (void)state;
    static const char *const engines[] = {"ref", "jit", "aot"};
    char *text = counter_game(7);
    setenv("GDLC_STACK_MIB", "32", 1);
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
        Run r = {.engine = engines[i], .text = text};
        run_small(&r);
        assert_int_equal(r.load, GDL_OK);
        if (r.make != GDL_OK)
            fail_msg("engine %s: %s", engines[i], r.error);
        assert_int_equal(r.initial, GDL_OK);
        assert_int_equal(r.terminal_st, GDL_LIMIT);
        if (!strstr(r.error, "deeper than the 32 MiB of stack"))
            fail_msg("engine %s: %s", engines[i], r.error);
        /* the machine stays usable: the shallow query after it answers */
        assert_int_equal(r.legal_st, GDL_OK);
        assert_int_equal(r.nlegal, 1);
        assert_int_equal(r.goals_st, GDL_LIMIT);
        if (!strstr(r.goals_error, "nested deeper than 64 levels"))
            fail_msg("engine %s: %s", engines[i], r.goals_error);
    }
    unsetenv("GDLC_STACK_MIB");
    free(text);
}

/* A term nested deeper than the engines accept, written in the game: a
 * located error when loading. */
static void deep_term_in_the_text(void **state)
{
    (void)state;
    Text t = {0};
    add(&t, "%s(<= terminal (deep ?x))\n(deep ", GAME_BASE);
    for (int i = 0; i < 64; i++)
        add(&t, "(f ");
    add(&t, "z");
    for (int i = 0; i < 64; i++)
        add(&t, ")");
    add(&t, ")\n");
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    assert_int_equal(gdl_game_load_string("t.kif", t.s, t.len, &g, &d), GDL_INVALID_GAME);
    const GdlDiagnostic *first = gdl_diagnostics_get(d, 0);
    assert_non_null(first);
    assert_int_equal(first->line, 8);
    assert_int_equal(first->col, 7);
    assert_non_null(strstr(first->message, "nested 65 levels deep; the engines accept terms of at most 64"));
    gdl_diagnostics_free(d);
    free(t.s);
}

/* Loads the text in the small thread. */
static void *load_only(void *arg)
{
    Run *r = arg;
    GdlGame *g = NULL;
    r->load = gdl_game_load_string("t.kif", r->text, strlen(r->text), &g, NULL);
    gdl_game_free(g);
    return NULL;
}

/* Parentheses nested as deep as the reader accepts, and deeper: the front
 * end's recursive passes fit in the small thread (under AddressSanitizer
 * too), and both are errors, not crashes. */
static void deep_nesting_in_a_small_thread(void **state)
{
    (void)state;
    static const int depths[] = {126, 2000};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        Text t = {0};
        add(&t, "%s(<= terminal (deep ?x))\n(deep ", GAME_BASE);
        for (int k = 0; k < depths[i] - 1; k++)
            add(&t, "(f ");
        add(&t, "z");
        for (int k = 0; k < depths[i] - 1; k++)
            add(&t, ")");
        add(&t, ")\n");
        Run r = {.text = t.s};
        pthread_attr_t attr;
        pthread_t th;
        assert_int_equal(pthread_attr_init(&attr), 0);
        assert_int_equal(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
        assert_int_equal(pthread_create(&th, &attr, load_only, &r), 0);
        assert_int_equal(pthread_join(th, NULL), 0);
        pthread_attr_destroy(&attr);
        assert_int_equal(r.load, GDL_INVALID_GAME);
        free(t.s);
    }
}

/* The longest rule body accepted plays in the small thread; one literal
 * more is an error. Not on aot: gcc -O2 takes 10 s over 256 nested loops. */
static void long_rules(void **state)
{
    (void)state;
    expect_derived("ref", long_rule_game(AST_MAX_BODY_TESTED));
    expect_derived("jit", long_rule_game(AST_MAX_BODY_TESTED));
    char *text = long_rule_game(AST_MAX_BODY_TESTED + 1);
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    assert_int_equal(gdl_game_load_string("t.kif", text, strlen(text), &g, &d), GDL_INVALID_GAME);
    assert_non_null(strstr(gdl_diagnostics_get(d, 0)->message, "at most 256 are accepted"));
    gdl_diagnostics_free(d);
    free(text);
}

int main(void)
{
    unsetenv("GDLC_STACK_MIB");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deep_term_in_the_text),
        cmocka_unit_test(deep_nesting_in_a_small_thread),
        cmocka_unit_test(ref_paths),
        cmocka_unit_test(jit_paths),
        cmocka_unit_test(aot_paths),
        cmocka_unit_test(ref_chain),
        cmocka_unit_test(jit_chain),
        cmocka_unit_test(aot_chain),
        cmocka_unit_test(too_deep),
        cmocka_unit_test(long_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
