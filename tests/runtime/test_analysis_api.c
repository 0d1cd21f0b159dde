/*
 * test_analysis_api.c: the game analyses of gdl.h (gdl_analysis_*) and the
 * filtered machines, pinned on tic-tac-toe (the rules of
 * ggp-repository/ticTacToe.kif, written out below so that the test needs
 * no corpus) and on two tiny games of our own: a latch that fixes both
 * roles' goals (FIXED_RANGE) and a move that breaks the game for its role
 * (DEAD).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../lib/failing.h"
#include "../../base/base.h"
#include "api_helpers.h"

static const char TICTACTOE[] =
    "(role xplayer) (role oplayer)\n"
    "(index 1) (index 2) (index 3)\n"
    "(<= (base (cell ?x ?y b)) (index ?x) (index ?y))\n"
    "(<= (base (cell ?x ?y x)) (index ?x) (index ?y))\n"
    "(<= (base (cell ?x ?y o)) (index ?x) (index ?y))\n"
    "(<= (base (control ?p)) (role ?p))\n"
    "(<= (input ?p (mark ?x ?y)) (index ?x) (index ?y) (role ?p))\n"
    "(<= (input ?p noop) (role ?p))\n"
    "(<= (init (cell ?x ?y b)) (index ?x) (index ?y))\n"
    "(init (control xplayer))\n"
    "(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))\n"
    "(<= (next (cell ?m ?n o)) (does oplayer (mark ?m ?n)) (true (cell ?m ?n b)))\n"
    "(<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))\n"
    "(<= (next (cell ?m ?n b)) (does ?w (mark ?j ?k)) (true (cell ?m ?n b)) (or (distinct ?m ?j) (distinct ?n ?k)))\n"
    "(<= (next (control xplayer)) (true (control oplayer)))\n"
    "(<= (next (control oplayer)) (true (control xplayer)))\n"
    "(<= (row ?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (true (cell ?m 3 ?x)))\n"
    "(<= (column ?n ?x) (true (cell 1 ?n ?x)) (true (cell 2 ?n ?x)) (true (cell 3 ?n ?x)))\n"
    "(<= (diagonal ?x) (true (cell 1 1 ?x)) (true (cell 2 2 ?x)) (true (cell 3 3 ?x)))\n"
    "(<= (diagonal ?x) (true (cell 1 3 ?x)) (true (cell 2 2 ?x)) (true (cell 3 1 ?x)))\n"
    "(<= (line ?x) (row ?m ?x))\n"
    "(<= (line ?x) (column ?m ?x))\n"
    "(<= (line ?x) (diagonal ?x))\n"
    "(<= open (true (cell ?m ?n b)))\n"
    "(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))\n"
    "(<= (legal xplayer noop) (true (control oplayer)))\n"
    "(<= (legal oplayer noop) (true (control xplayer)))\n"
    "(<= (goal xplayer 100) (line x))\n"
    "(<= (goal xplayer 50) (not (line x)) (not (line o)) (not open))\n"
    "(<= (goal xplayer 0) (line o))\n"
    "(<= (goal oplayer 100) (line o))\n"
    "(<= (goal oplayer 50) (not (line x)) (not (line o)) (not open))\n"
    "(<= (goal oplayer 0) (line x))\n"
    "(<= terminal (line x))\n"
    "(<= terminal (line o))\n"
    "(<= terminal (not open))\n";

/* Once a presses the button, a gets 100 and b 0 whatever comes; the game
 * ends at step 3. */
static const char BUTTON[] =
    "(role a) (role b)\n"
    "(init (step 0))\n"
    "(succ 0 1) (succ 1 2) (succ 2 3)\n"
    "(legal a press) (legal a wait) (legal b noop)\n"
    "(<= (next won) (does a press))\n"
    "(<= (next won) (true won))\n"
    "(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))\n"
    "(<= terminal (true (step 3)))\n"
    "(<= (goal a 100) (true won))\n"
    "(<= (goal a 0) (not (true won)))\n"
    "(<= (goal b 0) (true won))\n"
    "(<= (goal b 100) (not (true won)))\n";

/* Playing bad breaks the game for a for good: every state with broken is
 * dead for it. */
static const char BREAK[] =
    "(role a)\n"
    "(init (step 0))\n"
    "(succ 0 1) (succ 1 2)\n"
    "(legal a good) (legal a bad)\n"
    "(<= (next broken) (does a bad))\n"
    "(<= (next broken) (true broken))\n"
    "(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))\n"
    "(<= terminal (true (step 2)))\n"
    "(<= (goal a 100) (not (true broken)))\n"
    "(<= (goal a 0) (true broken))\n";

static GdlMachine *machine(const GdlGame *g)
{
    GdlMachine *m = NULL;
    char *err = NULL;
    if (test_machine_new(g, "ref", &m, &err) != GDL_OK)
        fail_msg("engine ref: %s", err);
    return m;
}

static GdlAnalysis *analysis(GdlMachine *m)
{
    GdlAnalysis *a = NULL;
    char *err = NULL;
    if (test_analysis_new(m, "samples=8,seed=7", &a, &err) != GDL_OK)
        fail_msg("analysis: %s", err);
    assert_null(err);
    return a;
}

static GdlState *state(GdlMachine *m, const char *facts)
{
    GdlState *s = NULL;
    if (gdl_state_parse(m, facts, &s) != GDL_OK)
        fail_msg("state: %s", gdl_machine_error(m));
    return s;
}

/* Whether a claim of kind has sentences[0] == text with values[0] == value. */
static bool has_lit(const GdlAnalysis *a, GdlClaimKind kind, const char *text, bool value)
{
    for (size_t i = 0; i < gdl_analysis_count(a, kind); i++) {
        const GdlClaim *c = gdl_analysis_claim(a, kind, i);
        if (c->n >= 1 && strcmp(c->sentences[0], text) == 0 && c->values[0] == value)
            return true;
    }
    return false;
}

/* Tic-tac-toe's latches: the 18 x and o cells positive, the 9 blank ones
 * negative, each as the fact's text; and nothing else (control flips). */
static void test_claims(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(TICTACTOE);
    GdlMachine *m = machine(g);
    GdlAnalysis *a = analysis(m);
    static const char *const idx[] = {"1", "2", "3"};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            char text[32];
            snprintf(text, sizeof text, "(cell %s %s x)", idx[r], idx[c]);
            assert_true(has_lit(a, GDL_CLAIM_LATCH, text, true));
            snprintf(text, sizeof text, "(cell %s %s o)", idx[r], idx[c]);
            assert_true(has_lit(a, GDL_CLAIM_LATCH, text, true));
            snprintf(text, sizeof text, "(cell %s %s b)", idx[r], idx[c]);
            assert_true(has_lit(a, GDL_CLAIM_LATCH, text, false));
            assert_false(has_lit(a, GDL_CLAIM_LATCH, text, true));
        }
    assert_int_equal(gdl_analysis_count(a, GDL_CLAIM_LATCH), 27);
    assert_false(has_lit(a, GDL_CLAIM_LATCH, "(control xplayer)", true));
    /* the turn is control logic: it depends on no move */
    assert_true(has_lit(a, GDL_CLAIM_CONTROL, "(control xplayer)", true));
    assert_true(has_lit(a, GDL_CLAIM_CONTROL, "(control oplayer)", true));
    /* every claim reads as facts of the game, in a stable order */
    for (int k = 0; k < GDL_CLAIM_NKINDS; k++)
        for (size_t i = 0; i < gdl_analysis_count(a, (GdlClaimKind)k); i++) {
            const GdlClaim *c = gdl_analysis_claim(a, (GdlClaimKind)k, i);
            assert_int_equal(c->kind, k);
            for (size_t j = 0; j < c->n; j++)
                assert_true(strncmp(c->sentences[j], "(cell ", 6) == 0 ||
                            strncmp(c->sentences[j], "(control ", 9) == 0);
        }
    assert_null(gdl_analysis_claim(a, GDL_CLAIM_LATCH, 27));
    assert_null(gdl_analysis_claim(a, GDL_CLAIM_NKINDS, 0));
    assert_true(gdl_analysis_sampled(a) >= 1);
    assert_true(gdl_analysis_seconds(a) >= 0);
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static const char WON[] = "(cell 1 1 x) (cell 1 2 x) (cell 1 3 x) (cell 2 1 o) (cell 2 2 o) (cell 2 3 b)"
                          " (cell 3 1 b) (cell 3 2 b) (cell 3 3 b) (control oplayer)";
/* x to play (mark 1 3) and win. */
static const char TO_WIN[] = "(cell 1 1 x) (cell 1 2 x) (cell 1 3 b) (cell 2 1 o) (cell 2 2 o) (cell 2 3 b)"
                             " (cell 3 1 b) (cell 3 2 b) (cell 3 3 b) (control xplayer)";

static void test_range(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(TICTACTOE);
    GdlMachine *m = machine(g);
    GdlAnalysis *a = analysis(m);
    GdlState *won = state(m, WON), *s0 = NULL;
    assert_int_equal(gdl_state_initial(m, &s0), GDL_OK);
    int lo = -1, hi = -1;
    assert_int_equal(gdl_analysis_goal_range(a, won, 0, &lo, &hi), GDL_OK);
    assert_int_equal(lo, 100);
    assert_int_equal(hi, 100);
    assert_int_equal(gdl_analysis_goal_range(a, won, 1, &lo, &hi), GDL_OK);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
    assert_int_equal(gdl_analysis_goal_range(a, s0, 0, &lo, &hi), GDL_OK);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 100);
    /* a state of another machine of the game reads the same */
    GdlMachine *m2 = machine(g);
    GdlState *won2 = state(m2, WON);
    assert_int_equal(gdl_analysis_goal_range(a, won2, 1, &lo, &hi), GDL_OK);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
    /* the distance of a goal that holds is 0 */
    int d = -2;
    assert_int_equal(gdl_analysis_goal_distance(a, won, 0, &d), GDL_OK);
    assert_int_equal(d, 0);
    assert_int_equal(gdl_analysis_goal_distance(a, s0, 0, &d), GDL_OK);
    assert_true(d >= 1);
    gdl_state_free(won2);
    gdl_machine_free(m2);
    gdl_state_free(won);
    gdl_state_free(s0);
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void test_winning_moves(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(TICTACTOE);
    GdlMachine *m = machine(g);
    GdlAnalysis *a = analysis(m);
    GdlState *s = state(m, TO_WIN);
    const GdlMove *win = NULL, *lose = NULL;
    size_t nwin = 9, nlose = 9;
    assert_int_equal(gdl_analysis_winning_moves(a, s, 0, &win, &nwin, &lose, &nlose), GDL_OK);
    assert_int_equal(nwin, 1);
    assert_string_equal(gdl_move_text(m, win[0]), "(mark 1 3)");
    assert_int_equal(nlose, 0);
    /* the moves are the machine's: one of its legal moves */
    const GdlMove *legal = NULL;
    size_t nlegal = 0;
    GdlMove w = win[0];
    assert_int_equal(gdl_state_legal(m, s, 0, &legal, &nlegal), GDL_OK);
    bool found = false;
    for (size_t i = 0; i < nlegal; i++)
        found |= legal[i] == w;
    assert_true(found);
    /* o only waits: nothing wins or loses at once */
    assert_int_equal(gdl_analysis_winning_moves(a, s, 1, &win, &nwin, &lose, &nlose), GDL_OK);
    assert_int_equal(nwin, 0);
    assert_int_equal(nlose, 0);
    /* x at one move from the line: one turn to the goal at least */
    int d = -2;
    assert_int_equal(gdl_analysis_goal_distance(a, s, 0, &d), GDL_OK);
    assert_int_equal(d, 1);
    gdl_state_free(s);
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* Whether out holds sentence at turn with value. */
static bool has_timed(const GdlTimed *out, size_t n, const char *sentence, unsigned turn, bool value)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(out[i].sentence, sentence) == 0 && out[i].turn == turn && out[i].value == value)
            return true;
    return false;
}

static void test_deduce(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(TICTACTOE);
    GdlMachine *m = machine(g);
    GdlAnalysis *a = analysis(m);
    const GdlTimed *out = NULL;
    size_t n = 0;
    bool ok = false;
    GdlTimed x11 = {"(true (cell 1 1 x))", 0, true};
    assert_int_equal(gdl_analysis_deduce(a, &x11, 1, 2, true, &ok, &out, &n), GDL_OK);
    assert_true(ok);
    assert_true(has_timed(out, n, "(true (cell 1 1 x))", 0, true));
    assert_true(has_timed(out, n, "(true (cell 1 1 x))", 1, true));
    /* a move played: its mark is there at the next turn, and it was legal */
    GdlTimed play[] = {{"(does xplayer (mark 2 2))", 0, true}};
    assert_int_equal(gdl_analysis_deduce(a, play, 1, 2, true, &ok, &out, &n), GDL_OK);
    assert_true(ok);
    assert_true(has_timed(out, n, "(legal xplayer (mark 2 2))", 0, true));
    assert_true(has_timed(out, n, "(true (cell 2 2 x))", 1, true));
    /* givens with no model */
    GdlTimed both[] = {{"(true (cell 1 1 x))", 0, true}, {"(true (cell 1 1 x))", 0, false}};
    assert_int_equal(gdl_analysis_deduce(a, both, 2, 1, false, &ok, &out, &n), GDL_OK);
    assert_false(ok);
    /* sentences the network does not compute, turns past the last */
    GdlTimed bad = {"(true (cell 9 9 x))", 0, true};
    assert_int_equal(gdl_analysis_deduce(a, &bad, 1, 2, true, &ok, &out, &n), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_machine_error(m), "(cell 9 9 x)"));
    bad = (GdlTimed){"(true (cell 1 1", 0, true};
    assert_int_equal(gdl_analysis_deduce(a, &bad, 1, 2, true, &ok, &out, &n), GDL_BAD_ARGUMENT);
    GdlTimed late = {"(true (cell 1 1 x))", 2, true};
    assert_int_equal(gdl_analysis_deduce(a, &late, 1, 2, true, &ok, &out, &n), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_analysis_deduce(a, &x11, 1, 0, true, &ok, &out, &n), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_analysis_deduce(a, &x11, 1, 1u << 30, true, &ok, &out, &n), GDL_LIMIT);
    /* after all that, it still answers */
    assert_int_equal(gdl_analysis_deduce(a, &x11, 1, 3, true, &ok, &out, &n), GDL_OK);
    assert_true(ok);
    assert_true(has_timed(out, n, "(true (cell 1 1 x))", 2, true));
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void test_bad_arguments(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(TICTACTOE), *other = load_text(BUTTON);
    GdlMachine *m = machine(g), *mo = machine(other);
    GdlAnalysis *a = analysis(m);
    GdlState *s = state(m, WON), *so = NULL;
    assert_int_equal(gdl_state_initial(mo, &so), GDL_OK);
    int lo, hi, d;
    const GdlMove *win, *lose;
    size_t nwin, nlose;
    assert_int_equal(gdl_analysis_goal_range(a, s, 2, &lo, &hi), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_machine_error(m), "no role 2"));
    assert_int_equal(gdl_analysis_goal_range(a, so, 0, &lo, &hi), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_machine_error(m), "another game"));
    assert_int_equal(gdl_analysis_goal_range(a, NULL, 0, &lo, &hi), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_analysis_winning_moves(a, s, 7, &win, &nwin, &lose, &nlose), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_analysis_winning_moves(a, so, 0, &win, &nwin, &lose, &nlose), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_analysis_goal_distance(a, s, 2, &d), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_analysis_goal_distance(a, so, 1, &d), GDL_BAD_ARGUMENT);
    /* options */
    GdlAnalysis *b = NULL;
    char *err = NULL;
    assert_int_equal(test_analysis_new(m, "samples=x", &b, &err), GDL_BAD_ARGUMENT);
    assert_null(b);
    assert_non_null(strstr(err, "samples"));
    free(err);
    assert_int_equal(test_analysis_new(m, "bogus=1", &b, &err), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(err, "bogus"));
    free(err);
    assert_int_equal(test_analysis_new(m, "seed=1,", &b, &err), GDL_BAD_ARGUMENT);
    free(err);
    /* a budget the game does not ground within: the grounder's message */
    assert_int_equal(test_analysis_new(m, "max-atoms=2", &b, &err), GDL_LIMIT);
    assert_null(b);
    assert_non_null(strstr(err, "grounding stopped"));
    assert_non_null(strstr(gdl_machine_error(m), "grounding stopped"));
    free(err);
    /* NULL options: the defaults; err may be NULL */
    assert_int_equal(gdl_analysis_new(m, NULL, &b), GDL_OK);
    assert_int_equal(gdl_analysis_count(b, GDL_CLAIM_LATCH), gdl_analysis_count(a, GDL_CLAIM_LATCH));
    gdl_analysis_free(b);
    gdl_analysis_free(NULL);
    gdl_state_free(s);
    gdl_state_free(so);
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_machine_free(mo);
    gdl_game_free(g);
    gdl_game_free(other);
}

static void test_fixed_range(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(BUTTON);
    GdlMachine *m = machine(g), *f = NULL;
    GdlAnalysis *a = analysis(m);
    /* the latch and the goal latches it makes */
    assert_true(has_lit(a, GDL_CLAIM_LATCH, "won", true));
    bool fixes = false;
    for (size_t i = 0; i < gdl_analysis_count(a, GDL_CLAIM_GOAL_LATCH); i++) {
        const GdlClaim *c = gdl_analysis_claim(a, GDL_CLAIM_GOAL_LATCH, i);
        fixes |= c->role == 0 && c->goal == 100 && c->fixes && strcmp(c->sentences[0], "won") == 0 && c->values[0];
    }
    assert_true(fixes);
    char *err = NULL;
    assert_int_equal(test_machine_new_filtered(g, "ref", "samples=4", GDL_FILTER_FIXED_RANGE, 0, &f, &err), GDL_OK);
    assert_string_equal(gdl_machine_engine(f), "ref");
    GdlState *s = state(m, "(step 1) won"), *fs = state(f, "(step 1) won");
    bool t = true;
    assert_int_equal(gdl_state_is_terminal(m, s, &t), GDL_OK);
    assert_false(t);
    int lo, hi;
    assert_int_equal(gdl_analysis_goal_range(a, s, 0, &lo, &hi), GDL_OK);
    assert_int_equal(lo, 100);
    assert_int_equal(hi, 100);
    /* filtered: terminal, with the fixed goals; no move */
    assert_int_equal(gdl_state_is_terminal(f, fs, &t), GDL_OK);
    assert_true(t);
    assert_int_equal(gdl_state_is_terminal(f, s, &t), GDL_OK); /* a state of the other machine */
    assert_true(t);
    int goals[2] = {-1, -1};
    assert_int_equal(gdl_state_goals(f, fs, goals), GDL_OK);
    assert_int_equal(goals[0], 100);
    assert_int_equal(goals[1], 0);
    const GdlMove *moves = NULL;
    size_t n = 9;
    assert_int_equal(gdl_state_legal(f, fs, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 0);
    /* before the press nothing is fixed: the game goes on */
    GdlState *f0 = NULL;
    assert_int_equal(gdl_state_initial(f, &f0), GDL_OK);
    assert_int_equal(gdl_state_is_terminal(f, f0, &t), GDL_OK);
    assert_false(t);
    assert_int_equal(gdl_state_legal(f, f0, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 2);
    /* a depth charge on the filtered machine ends at once after a press */
    GdlRng rng;
    gdl_rng_seed(&rng, 3);
    uint64_t depth = 0;
    for (int i = 0; i < 8; i++) {
        assert_int_equal(gdl_state_depth_charge(f, f0, &rng, 0, goals, &depth), GDL_OK);
        assert_true(depth >= 1 && depth <= 3);
        assert_true((goals[0] == 100 && goals[1] == 0) || (goals[0] == 0 && goals[1] == 100 && depth == 3));
    }
    assert_true(gdl_filter_preserves_value(GDL_FILTER_FIXED_RANGE));
    assert_false(gdl_filter_preserves_value(GDL_FILTER_DEAD));
    assert_false(gdl_filter_preserves_value(GDL_FILTER_PARTITION));
    assert_false(gdl_filter_preserves_value(GDL_FILTER_FIXED_RANGE | GDL_FILTER_DEAD));
    gdl_state_free(s);
    gdl_state_free(fs);
    gdl_state_free(f0);
    gdl_machine_free(f);
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void test_dead_filter(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(BREAK);
    GdlMachine *m = machine(g), *f = NULL;
    GdlAnalysis *a = analysis(m);
    assert_true(has_lit(a, GDL_CLAIM_DEAD, "broken", true));
    char *err = NULL;
    assert_int_equal(test_machine_new_filtered(g, "ref", NULL, GDL_FILTER_DEAD, 0, &f, &err), GDL_OK);
    GdlState *s0 = NULL;
    assert_int_equal(gdl_state_initial(f, &s0), GDL_OK);
    const GdlMove *moves = NULL;
    size_t n = 0;
    assert_int_equal(gdl_state_legal(f, s0, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 1);
    assert_true(has_move(f, moves, n, "good"));
    /* once broken, every move stays dead: all kept */
    GdlState *s = state(f, "(step 1) broken");
    assert_int_equal(gdl_state_legal(f, s, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 2);
    /* unfiltered, both */
    assert_int_equal(gdl_state_legal(m, s0, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 2);
    gdl_state_free(s);
    gdl_state_free(s0);
    gdl_machine_free(f);
    /* bad filters and roles */
    assert_int_equal(test_machine_new_filtered(g, "ref", NULL, 8, 0, &f, &err), GDL_BAD_ARGUMENT);
    assert_null(f);
    assert_non_null(strstr(err, "filter"));
    free(err);
    assert_int_equal(test_machine_new_filtered(g, "ref", NULL, GDL_FILTER_DEAD, 1, &f, &err), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(err, "no role 1"));
    free(err);
    assert_int_equal(test_machine_new_filtered(g, "nosuch", NULL, GDL_FILTER_DEAD, 0, &f, &err), GDL_NO_ENGINE);
    free(err);
    assert_int_equal(test_machine_new_filtered(g, "ref", "max-atoms=1", GDL_FILTER_DEAD, 0, &f, &err), GDL_LIMIT);
    assert_null(f);
    free(err);
    /* no filter at all: the machine as it is */
    assert_int_equal(gdl_machine_new_filtered(g, "pn", NULL, 0, 0, &f), GDL_OK);
    assert_string_equal(gdl_machine_engine(f), "pn");
    assert_int_equal(gdl_state_initial(f, &s0), GDL_OK);
    assert_int_equal(gdl_state_legal(f, s0, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 2);
    gdl_state_free(s0);
    gdl_machine_free(f);
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* ---- out of memory ------------------------------------------------------ */


static bool ok_or_oom(GdlStatus st, const Failing *f)
{
    if (st == GDL_OK)
        return true;
    assert_int_equal(st, GDL_OUT_OF_MEMORY);
    assert_true(f->failed);
    return false;
}

/* An analysis and a filtered machine made and asked with the N-th
 * allocation failing: every call returns GDL_OUT_OF_MEMORY or succeeds,
 * the machine refuses later calls, and everything frees (the sanitizer
 * build checks for leaks and double frees). */
static void oom_session(GdlGame *g, Failing *f)
{
    GdlMachine *m = machine(g), *fm = NULL;
    GdlState *s = state(m, "(step 1) won");
    GdlAnalysis *a = NULL;
    base_set_alloc(failing_alloc, f);
    bool dead = !ok_or_oom(gdl_analysis_new(m, "samples=2", &a), f);
    if (dead)
        assert_null(a);
    int lo, hi, d;
    const GdlMove *win, *lose;
    size_t nwin, nlose, n;
    bool ok;
    const GdlTimed *out;
    GdlTimed given = {"(does a press)", 0, true};
    if (!dead)
        dead = !ok_or_oom(gdl_analysis_goal_range(a, s, 0, &lo, &hi), f) ||
               !ok_or_oom(gdl_analysis_winning_moves(a, s, 0, &win, &nwin, &lose, &nlose), f) ||
               !ok_or_oom(gdl_analysis_goal_distance(a, s, 1, &d), f) ||
               !ok_or_oom(gdl_analysis_deduce(a, &given, 1, 2, true, &ok, &out, &n), f);
    if (dead) {
        GdlState *again = NULL;
        assert_int_equal(gdl_state_initial(m, &again), GDL_OUT_OF_MEMORY);
        if (a)
            assert_int_equal(gdl_analysis_goal_range(a, s, 0, &lo, &hi), GDL_OUT_OF_MEMORY);
    }
    GdlStatus st = gdl_machine_new_filtered(g, "ref", "samples=2", GDL_FILTER_FIXED_RANGE | GDL_FILTER_DEAD, 0, &fm);
    if (ok_or_oom(st, f)) {
        GdlState *f0 = NULL;
        GdlRng rng;
        gdl_rng_seed(&rng, 1);
        int goals[2];
        uint64_t depth;
        if (ok_or_oom(gdl_state_initial(fm, &f0), f))
            ok_or_oom(gdl_state_depth_charge(fm, f0, &rng, 0, goals, &depth), f);
        gdl_state_free(f0);
    } else
        assert_null(fm);
    base_set_alloc(NULL, NULL);
    gdl_machine_free(fm);
    gdl_state_free(s);
    gdl_analysis_free(a);
    gdl_machine_free(m);
}

static void test_out_of_memory(void **state_)
{
    (void)state_;
    GdlGame *g = load_text(BUTTON);
    Failing probe = {0};
    oom_session(g, &probe);
    assert_false(probe.failed);
    unsigned long total = probe.count, seen = 0;
    assert_true(total > 100);
    for (unsigned long k = 1; k <= total + 1; k += k < 300 ? 1 : 7) {
        Failing f = {.fail_at = k};
        oom_session(g, &f);
        seen += f.failed;
    }
    print_message("%lu allocations per session, %lu sessions ran out\n", total, seen);
    assert_true(seen > 100);
    gdl_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_claims),        cmocka_unit_test(test_range),
        cmocka_unit_test(test_winning_moves), cmocka_unit_test(test_deduce),
        cmocka_unit_test(test_bad_arguments), cmocka_unit_test(test_fixed_range),
        cmocka_unit_test(test_dead_filter),   cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
