/*
 * test_trace.c: the trace reader (runtime/trace.c) on a one-role game of two
 * steps: a good trace and one cut short agree; a planted divergence and a
 * malformed form are reported as gdlc replay prints them; every prefix of a
 * good trace gets a verdict; the canonical state text is sorted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../runtime/trace.h"

static const char GAME[] = "(role p)\n"
                           "(init (c 0)) (init (b 1))\n"
                           "(<= (legal p inc) (true (c 0)))\n"
                           "(<= (next (c 1)) (does p inc))\n"
                           "(<= (next (b 1)) (true (b 1)))\n"
                           "(<= terminal (true (c 1)))\n"
                           "(<= (goal p 100) (true (c 1)))\n"
                           "(<= (goal p 0) (true (c 0)))\n";

static const char GOOD[] = "(roles p)\n"
                           "(step 0)\n"
                           "(state (c 0) (b 1))\n"
                           "(legal p inc)\n"
                           "(does inc)\n"
                           "(step 1)\n"
                           "(state (b 1) (c 1))\n"
                           "(terminal)\n"
                           "(goals 100)\n";

typedef struct Fixture {
    GdlGame *g;
    GdlMachine *m;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(gdl_game_load_string("t.kif", GAME, sizeof GAME - 1, &f->g, NULL), GDL_OK);
    assert_int_equal(gdl_machine_new(f->g, "ref", &f->m), GDL_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    gdl_machine_free(f->m);
    gdl_game_free(f->g);
    free(f);
    return 0;
}

/* Replays text; *report gets what the reader wrote (malloc-ed). */
static TraceVerdict replay(Fixture *f, const char *text, size_t len, uint64_t *steps, bool *capped, char **report)
{
    FILE *out = tmpfile();
    assert_non_null(out);
    TraceVerdict v = trace_replay(f->m, f->g, "t.trace", text, len, 0, out, steps, capped);
    long n = ftell(out);
    assert_true(n >= 0);
    *report = calloc((size_t)n + 1, 1);
    assert_non_null(*report);
    rewind(out);
    assert_int_equal(fread(*report, 1, (size_t)n, out), (size_t)n);
    fclose(out);
    return v;
}

static void good_and_cut_short(void **state)
{
    Fixture *f = *state;
    uint64_t steps;
    bool capped;
    char *report;
    assert_int_equal(replay(f, GOOD, strlen(GOOD), &steps, &capped, &report), TRACE_AGREES);
    assert_int_equal(steps, 2);
    assert_false(capped);
    assert_string_equal(report, "");
    free(report);
    /* the first step alone, ended after its legal line */
    size_t cut = (size_t)(strstr(GOOD, "(does") - GOOD);
    assert_int_equal(replay(f, GOOD, cut, &steps, &capped, &report), TRACE_AGREES);
    assert_int_equal(steps, 1);
    assert_string_equal(report, "");
    free(report);
}

static void divergence(void **state)
{
    Fixture *f = *state;
    const char *bad = "(roles p) (step 0) (state (c 0) (b 2)) (legal p inc)";
    uint64_t steps;
    bool capped;
    char *report;
    assert_int_equal(replay(f, bad, strlen(bad), &steps, &capped, &report), TRACE_DIFFERS);
    assert_string_equal(report, "t.trace: step 0: states differ\n"
                                "  only in the trace: (b 2)\n"
                                "  only in engine ref: (b 1)\n");
    free(report);
    const char *goals = "(roles p) (step 0) (state (c 0) (b 1)) (legal p inc) (does inc)\n"
                        "(step 1) (state (b 1) (c 1)) (terminal) (goals 50)";
    assert_int_equal(replay(f, goals, strlen(goals), &steps, &capped, &report), TRACE_DIFFERS);
    assert_string_equal(report, "t.trace: step 1: goal of p differs: trace 50, engine ref 100\n");
    free(report);
}

static void malformed(void **state)
{
    Fixture *f = *state;
    const char *dup = "(roles p)\n(roles p)\n";
    uint64_t steps;
    bool capped;
    char *report;
    assert_int_equal(replay(f, dup, strlen(dup), &steps, &capped, &report), TRACE_DIFFERS);
    assert_string_equal(report, "t.trace:2:1: error: malformed trace: duplicate (roles ...)\n (roles p)\n ^\n");
    free(report);
    const char *other = "(roles q)";
    assert_int_equal(replay(f, other, strlen(other), &steps, &capped, &report), TRACE_DIFFERS);
    assert_non_null(strstr(report, "this trace is not for this game: role 1 is 'p' in the game"));
    free(report);
}

/* Bad input never crashes: every prefix of the good trace, and the good
 * trace with each byte replaced, gets a verdict; only the whole trace and the
 * prefixes that end a step's legal lines or its goals agree. */
static void every_prefix(void **state)
{
    Fixture *f = *state;
    size_t n = strlen(GOOD), agreed = 0;
    for (size_t len = 0; len <= n; len++) {
        uint64_t steps;
        bool capped;
        char *report;
        TraceVerdict v = replay(f, GOOD, len, &steps, &capped, &report);
        assert_true(v == TRACE_AGREES || v == TRACE_DIFFERS);
        assert_true(v == TRACE_AGREES ? report[0] == 0 : report[0] != 0);
        agreed += v == TRACE_AGREES;
        free(report);
    }
    assert_true(agreed >= 2);
    char *copy = malloc(n);
    assert_non_null(copy);
    for (size_t i = 0; i < n; i++) {
        memcpy(copy, GOOD, n);
        copy[i] = i % 2 ? ')' : '\0';
        uint64_t steps;
        bool capped;
        char *report;
        TraceVerdict v = replay(f, copy, n, &steps, &capped, &report);
        assert_true(v == TRACE_AGREES || v == TRACE_DIFFERS);
        free(report);
    }
    free(copy);
}

static void state_text(void **state)
{
    Fixture *f = *state;
    GdlState *s;
    assert_int_equal(gdl_state_initial(f->m, &s), GDL_OK);
    char *t = trace_state_text(f->m, s);
    assert_string_equal(t, "(b 1) (c 0)");
    free(t);
    gdl_state_free(s);
    assert_int_equal(gdl_state_parse(f->m, "", &s), GDL_OK);
    t = trace_state_text(f->m, s);
    assert_string_equal(t, "(empty state)");
    free(t);
    gdl_state_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(good_and_cut_short, setup, teardown),
        cmocka_unit_test_setup_teardown(divergence, setup, teardown),
        cmocka_unit_test_setup_teardown(malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(every_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(state_text, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
