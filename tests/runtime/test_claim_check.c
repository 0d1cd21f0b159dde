/*
 * test_claim_check.c: the claim checker (runtime/claim_check.c) behind
 * gdlc analyze --check: Tic-tac-toe's claims and per-state answers hold on
 * all its 5,478 reachable states and along sampled playthroughs past a
 * smaller bound; the per-state answers of the initial state; each kind of
 * claim printed as gdlc analyze prints it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../runtime/claim_check.h"

#define GAME(name) GDLC_SOURCE_DIR "/games/" name ".kif"

typedef struct Fixture {
    GdlGame *g;
    GdlMachine *m;
    GdlAnalysis *an;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(gdl_game_load_file(GAME("tictactoe"), &f->g, NULL), GDL_OK);
    assert_int_equal(gdl_machine_new(f->g, "ref", &f->m), GDL_OK);
    assert_int_equal(gdl_analysis_new(f->m, NULL, &f->an), GDL_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;
    gdl_analysis_free(f->an);
    gdl_machine_free(f->m);
    gdl_game_free(f->g);
    free(f);
    return 0;
}

/* What f wrote, from its start (malloc-ed); closes f. */
static char *slurp(FILE *f)
{
    long n = ftell(f);
    assert_true(n >= 0);
    char *s = calloc((size_t)n + 1, 1);
    assert_non_null(s);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

static void exhaustive(void **state)
{
    Fixture *f = *state;
    FILE *out = tmpfile(), *report = tmpfile();
    assert_non_null(out);
    assert_non_null(report);
    ClaimCheckOpts o = {100000, 1, "test"};
    ClaimCheckResult res;
    assert_true(claim_check(f->m, f->g, f->an, &o, out, report, &res));
    char *o_text = slurp(out), *r_text = slurp(report);
    assert_int_equal(res.unsound, 0);
    assert_int_equal(res.shown, 0);
    assert_string_equal(r_text, "");
    assert_non_null(strstr(o_text, "check: engine ref: 5478 reachable states, all enumerated, 16167 transitions"));
    assert_non_null(strstr(o_text, "check: completeness: "));
    assert_non_null(strstr(o_text, "check: goal values (best, worst): xplayer (100, 0) oplayer (100, 0)\n"));
    assert_non_null(strstr(o_text, "check: 0 unsound\n"));
    free(o_text);
    free(r_text);
}

static void sampled(void **state)
{
    Fixture *f = *state;
    FILE *out = tmpfile(), *report = tmpfile();
    assert_non_null(out);
    assert_non_null(report);
    ClaimCheckOpts o = {50, 3, "test"};
    ClaimCheckResult res;
    assert_true(claim_check(f->m, f->g, f->an, &o, out, report, &res));
    char *o_text = slurp(out), *r_text = slurp(report);
    assert_int_equal(res.unsound, 0);
    assert_string_equal(r_text, "");
    assert_non_null(strstr(o_text, "check: engine ref: more than 50 reachable states: claims checked along "));
    assert_non_null(strstr(o_text, "(seed 3)"));
    assert_null(strstr(o_text, "completeness")); /* exhaustive graphs only */
    free(o_text);
    free(r_text);
}

static void answers(void **state)
{
    Fixture *f = *state;
    GdlState *s;
    assert_int_equal(gdl_state_initial(f->m, &s), GDL_OK);
    ClaimAnswer a;
    claim_answer(f->an, s, 0, &a);
    assert_int_equal(a.st, GDL_OK);
    assert_true(a.lo <= a.hi);
    assert_true(a.lo >= 0 && a.hi <= 100);
    assert_int_equal(a.win.n, 0); /* no first move wins at once */
    assert_true(a.distance >= 1);
    claim_answer_free(&a);
    FILE *t = tmpfile();
    assert_non_null(t);
    claim_print_state(t, f->m, s);
    char *text = slurp(t);
    assert_string_equal(text, "(cell 1 1 b) (cell 1 2 b) (cell 1 3 b) (cell 2 1 b) (cell 2 2 b) (cell 2 3 b) "
                              "(cell 3 1 b) (cell 3 2 b) (cell 3 3 b) (control xplayer)");
    free(text);
    gdl_state_free(s);
}

static void printed(void **state)
{
    Fixture *f = *state;
    const char *sent[] = {"(cell 1 1 x)", "(control oplayer)"};
    const bool vals[] = {true, false};
    GdlMove mv[2];
    assert_int_equal(gdl_move_parse(f->m, "(mark 1 1)", &mv[0]), GDL_OK);
    assert_int_equal(gdl_move_parse(f->m, "noop", &mv[1]), GDL_OK);
    const size_t at[] = {0, 1, 2};
    const struct {
        GdlClaim c;
        const char *text;
    } cases[] = {
        {{.kind = GDL_CLAIM_LATCH, .n = 1, .sentences = sent, .values = vals}, "(cell 1 1 x) stays true"},
        {{.kind = GDL_CLAIM_JOINT_LATCH, .n = 2, .sentences = sent, .values = vals},
         "together, (cell 1 1 x) true, (control oplayer) false stay so"},
        {{.kind = GDL_CLAIM_GOAL_LATCH, .role = 1, .goal = 0, .fixes = true, .n = 1, .sentences = sent,
          .values = vals},
         "(cell 1 1 x) true fixes goal oplayer 0"},
        {{.kind = GDL_CLAIM_INHIBITOR, .n = 2, .sentences = sent, .values = vals},
         "(cell 1 1 x) true makes (control oplayer) false next"},
        {{.kind = GDL_CLAIM_DEAD, .role = 0, .n = 1, .sentences = sent + 1, .values = vals + 1},
         "(control oplayer) false: dead for xplayer"},
        {{.kind = GDL_CLAIM_CONTROL, .n = 1, .sentences = sent + 1, .values = vals},
         "(control oplayer) is control (no move choice affects it)"},
        {{.kind = GDL_CLAIM_IRRELEVANT, .role = 0, .other_role = 1},
         "the moves of oplayer cannot affect the goals of xplayer"},
        {{.kind = GDL_CLAIM_PARTITION, .role = 0, .n = 2, .sentences = sent, .values = vals, .ngroups = 2,
          .group_at = at, .moves = mv},
         "xplayer's moves in 2 groups: (cell 1 1 x) off by [(mark 1 1)] (control oplayer) off by [noop]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        FILE *t = tmpfile();
        assert_non_null(t);
        claim_print(t, f->m, f->g, &cases[i].c);
        char *text = slurp(t);
        assert_string_equal(text, cases[i].text);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(exhaustive, setup, teardown),
        cmocka_unit_test_setup_teardown(sampled, setup, teardown),
        cmocka_unit_test_setup_teardown(answers, setup, teardown),
        cmocka_unit_test_setup_teardown(printed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
