/* test_api.c: the public state-machine API (gdl.h) on the ref engine. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gdl.h"

#ifndef GDLC_SOURCE_DIR
#error "GDLC_SOURCE_DIR must be defined"
#endif
#define GAME(name) GDLC_SOURCE_DIR "/games/" name ".kif"

static GdlGame *load(const char *path)
{
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_file(path, &g, NULL), GDL_OK);
    return g;
}

static GdlGame *load_text(const char *text)
{
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_string("t.kif", text, strlen(text), &g, &d);
    if (st != GDL_OK)
        gdl_diagnostics_print(stderr, d, true);
    gdl_diagnostics_free(d);
    assert_int_equal(st, GDL_OK);
    return g;
}

/* Every test runs on each engine in turn (see main). */
static const char *engine = "ref";

static GdlMachine *machine(const GdlGame *g)
{
    GdlMachine *m = NULL;
    char *err = NULL;
    if (gdl_machine_new(g, engine, &m, &err) != GDL_OK)
        fail_msg("engine %s: %s", engine, err);
    assert_string_equal(gdl_machine_engine(m), engine);
    return m;
}

static GdlMove move(GdlMachine *m, const char *text)
{
    GdlMove mv;
    assert_int_equal(gdl_move_parse(m, text, &mv), GDL_OK);
    return mv;
}

/* Plays joint moves given as text, two roles. */
static GdlState *after(GdlMachine *m, GdlState *s, const char *a, const char *b)
{
    GdlMove joint[2] = {move(m, a), move(m, b)};
    GdlState *n = NULL;
    assert_int_equal(gdl_next_state(m, s, joint, &n), GDL_OK);
    gdl_state_free(s);
    return n;
}

static void diagnostics_are_data(void **state)
{
    (void)state;
    const char *text = "(role a)\n(<= (legal a go) (true p))\n(<= (q ?x) (true p))\n(<= terminal (q 1))\n(goal a 1)\n";
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    assert_int_equal(gdl_game_load_string("bad.kif", text, strlen(text), &g, &d), GDL_INVALID_GAME);
    assert_null(g);
    assert_true(gdl_diagnostics_count(d) >= 1);
    bool found = false;
    for (size_t i = 0; i < gdl_diagnostics_count(d); i++) {
        const GdlDiagnostic *x = gdl_diagnostics_get(d, i);
        assert_string_equal(x->file, "bad.kif");
        if (x->severity == GDL_SEVERITY_ERROR && strstr(x->message, "unsafe rule") && x->line == 3 && x->col == 8)
            found = true;
    }
    assert_true(found);
    assert_null(gdl_diagnostics_get(d, 999));
    gdl_diagnostics_free(d);
    assert_int_equal(gdl_game_load_file("/nonexistent.kif", &g, &d), GDL_IO_ERROR);
    assert_null(g);
}

static void unknown_engine(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("tictactoe"));
    GdlMachine *m = (GdlMachine *)1;
    char *err = NULL;
    assert_int_equal(gdl_machine_new(g, "warp-drive", &m, &err), GDL_NO_ENGINE);
    assert_null(m);
    assert_non_null(strstr(err, "warp-drive"));
    free(err);
    gdl_game_free(g);
}

static void play_and_transpose(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("tictactoe"));
    GdlMachine *m = machine(g);
    assert_int_equal(gdl_game_role_count(g), 2);
    assert_string_equal(gdl_game_role_name(g, 0), "xplayer");
    GdlState *s0 = NULL;
    assert_int_equal(gdl_initial_state(m, &s0), GDL_OK);
    assert_int_equal(gdl_state_size(s0), 10);
    assert_string_equal(gdl_state_fact(m, s0, 9), "(control xplayer)");
    const GdlMove *moves;
    size_t n;
    assert_int_equal(gdl_legal_moves(m, s0, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 9);
    assert_string_equal(gdl_move_text(m, moves[0]), "(play 1 1)");
    /* two orders of the same moves reach the same state */
    GdlState *a = gdl_state_copy(s0), *b = gdl_state_copy(s0);
    a = after(m, a, "(play 1 1)", "noop");
    a = after(m, a, "noop", "(play 2 2)");
    a = after(m, a, "(play 3 3)", "noop");
    b = after(m, b, "(play 3 3)", "noop");
    b = after(m, b, "noop", "(play 2 2)");
    b = after(m, b, "(PLAY 1 1)", "NOOP");
    assert_true(gdl_state_equal(a, b));
    assert_int_equal(gdl_state_hash(m, a), gdl_state_hash(m, b));
    assert_false(gdl_state_equal(a, s0));
    assert_int_not_equal(gdl_state_hash(m, a), gdl_state_hash(m, s0));
    /* goals exist in this non-terminal state: 50 each */
    int goals[2];
    assert_int_equal(gdl_goals(m, a, goals), GDL_OK);
    assert_int_equal(goals[0], 50);
    bool terminal = true;
    assert_int_equal(gdl_is_terminal(m, a, &terminal), GDL_OK);
    assert_false(terminal);
    gdl_state_free(a);
    gdl_state_free(b);
    gdl_state_free(s0);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void hash_is_independent_of_ids(void **state)
{
    (void)state;
    GdlGame *g1 = load(GAME("tictactoe")), *g2 = load(GAME("tictactoe"));
    GdlMachine *m1 = machine(g1), *m2 = machine(g2);
    /* m2 makes terms in another order first */
    GdlState *junk = NULL;
    assert_int_equal(gdl_state_parse(m2, "(zz 9 9) (cell 3 3 o) (control oplayer)", &junk), GDL_OK);
    gdl_state_free(junk);
    const char *text = "(cell 1 1 x) (cell 3 3 o) (control oplayer)";
    GdlState *s1 = NULL, *s2 = NULL;
    assert_int_equal(gdl_state_parse(m1, text, &s1), GDL_OK);
    assert_int_equal(gdl_state_parse(m2, text, &s2), GDL_OK);
    assert_int_equal(gdl_state_hash(m1, s1), gdl_state_hash(m2, s2));
    assert_int_equal(gdl_state_parse(m1, "(cell 1 1", &junk), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_machine_error(m1), "not KIF"));
    GdlMove mv;
    assert_int_equal(gdl_move_parse(m1, "?x", &mv), GDL_BAD_ARGUMENT);
    gdl_state_free(s1);
    gdl_state_free(s2);
    gdl_machine_free(m1);
    gdl_machine_free(m2);
    gdl_game_free(g1);
    gdl_game_free(g2);
}

static void reversi_opening_flips(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("reversi"));
    GdlMachine *m = machine(g);
    GdlState *s = NULL;
    assert_int_equal(gdl_initial_state(m, &s), GDL_OK);
    s = after(m, s, "(move 4 3)", "noop");
    GdlState *want = NULL;
    assert_int_equal(gdl_state_parse(m, "(cell 4 3 black) (cell 4 4 black) (cell 4 5 black) (cell 5 4 black) "
                                        "(cell 5 5 white) (control white)", &want), GDL_OK);
    assert_true(gdl_state_equal(s, want));
    const GdlMove *moves;
    size_t n;
    assert_int_equal(gdl_legal_moves(m, s, 1, &moves, &n), GDL_OK);
    assert_int_equal(n, 3); /* white's replies: (3 3) (5 3) (3 5) */
    gdl_state_free(s);
    gdl_state_free(want);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static const char *FAULTY =
    "(role a) (role b)\n"
    "(init (s 0))\n"
    "(<= (legal a go) (true (s 0)))\n"
    "(<= (legal b go) (true (s ?x)))\n"
    "(<= (next (s 1)) (true (s 0)))\n"
    "(<= (next (s 2)) (true (s 1)))\n"
    "(<= terminal (true (s 2)))\n"
    "(<= (goal a 100) (true (s 2)))\n"
    "(<= (goal a 0) (true (s 2)))\n"
    "(<= (goal b 50) (true (s 2)))\n";

static void game_faults_name_role_and_state(void **state)
{
    (void)state;
    GdlGame *g = load_text(FAULTY);
    GdlMachine *m = machine(g);
    GdlState *s = NULL;
    assert_int_equal(gdl_initial_state(m, &s), GDL_OK);
    int goals[2];
    /* no goals in a non-terminal state: no value, not an error */
    assert_int_equal(gdl_goals(m, s, goals), GDL_OK);
    assert_int_equal(goals[0], GDL_NO_GOAL);
    s = after(m, s, "go", "go");
    /* (s 1): not terminal, and a has no legal move */
    const GdlMove *moves;
    size_t n;
    assert_int_equal(gdl_legal_moves(m, s, 0, &moves, &n), GDL_GAME_FAULT);
    assert_non_null(strstr(gdl_machine_error(m), "role a has no legal move"));
    assert_non_null(strstr(gdl_machine_error(m), "(s 1)"));
    GdlState *t = NULL;
    assert_int_equal(gdl_state_parse(m, "(s 2)", &t), GDL_OK);
    assert_int_equal(gdl_goals(m, t, goals), GDL_GAME_FAULT);
    assert_non_null(strstr(gdl_machine_error(m), "role a has several goal values in the terminal state: (s 2)"));
    gdl_state_free(s);
    gdl_state_free(t);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void cancellation(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("amazons"));
    GdlMachine *m = machine(g);
    GdlState *s = NULL;
    assert_int_equal(gdl_initial_state(m, &s), GDL_OK);
    volatile int flag = 1;
    gdl_machine_set_cancel_flag(m, &flag);
    const GdlMove *moves;
    size_t n;
    assert_int_equal(gdl_legal_moves(m, s, 0, &moves, &n), GDL_CANCELLED);
    flag = 0;
    gdl_machine_set_deadline(m, gdl_now() - 1.0);
    assert_int_equal(gdl_legal_moves(m, s, 0, &moves, &n), GDL_CANCELLED);
    /* the machine stays usable */
    gdl_machine_set_deadline(m, 0);
    gdl_machine_set_cancel_flag(m, NULL);
    assert_int_equal(gdl_legal_moves(m, s, 0, &moves, &n), GDL_OK);
    assert_int_equal(n, 2176);
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* A query that would run for minutes stops at the deadline, inside the
 * evaluation (a loop over 10^9 combinations; `never` never holds, and no
 * join order can tell before the three loops have bound its arguments). */
static void cancellation_inside_a_query(void **state)
{
    (void)state;
    char text[20000] = "(role a)\n(init p)\n(<= (legal a go) (true p))\n(<= (next p) (true p))\n"
                       "(<= (never ?x ?y ?z) (true (at ?x ?y ?z)))\n"
                       "(<= terminal (d ?x) (d ?y) (d ?z) (never ?x ?y ?z))\n(goal a 100)\n";
    for (int i = 0; i < 1000; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "(d n%d)", i);
    GdlGame *g = load_text(text);
    GdlMachine *m = machine(g);
    GdlState *s = NULL;
    assert_int_equal(gdl_initial_state(m, &s), GDL_OK);
    bool terminal;
    gdl_machine_set_deadline(m, gdl_now() + 0.05);
    assert_int_equal(gdl_is_terminal(m, s, &terminal), GDL_CANCELLED);
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void limits_stop_runaway_terms(void **state)
{
    (void)state;
    GdlGame *g = load_text("(role a)\n(init p)\n(<= (legal a go) (true p))\n(<= (next p) (true p))\n"
                           "(grow z)\n(<= (grow (s ?x)) (grow ?x))\n(<= terminal (grow ?x) (true (at ?x)))\n"
                           "(goal a 100)\n");
    GdlMachine *m = machine(g);
    GdlState *s = NULL;
    assert_int_equal(gdl_initial_state(m, &s), GDL_OK);
    bool terminal;
    assert_int_equal(gdl_is_terminal(m, s, &terminal), GDL_LIMIT);
    assert_non_null(strstr(gdl_machine_error(m), "nested deeper than"));
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* Random playouts of one game on one machine; returns a digest. */
static uint64_t playouts(const GdlGame *g, uint64_t seed, int count)
{
    GdlMachine *m = NULL;
    if (gdl_machine_new(g, engine, &m, NULL) != GDL_OK)
        return 0;
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    uint64_t digest = 0;
    for (int p = 0; p < count; p++) {
        GdlState *s = NULL;
        gdl_initial_state(m, &s);
        bool terminal = false;
        while (gdl_is_terminal(m, s, &terminal) == GDL_OK && !terminal) {
            GdlMove joint[2];
            for (unsigned k = 0; k < 2; k++) {
                const GdlMove *moves;
                size_t n;
                gdl_legal_moves(m, s, k, &moves, &n);
                joint[k] = moves[gdl_rng_below(&rng, n)];
            }
            GdlState *next = NULL;
            gdl_next_state(m, s, joint, &next);
            gdl_state_free(s);
            s = next;
            digest = digest * 31 + gdl_state_hash(m, s);
        }
        gdl_state_free(s);
    }
    gdl_machine_free(m);
    return digest;
}

typedef struct Job {
    const GdlGame *g;
    uint64_t seed, digest;
} Job;

static void *job_run(void *arg)
{
    Job *j = arg;
    j->digest = playouts(j->g, j->seed, 20);
    return NULL;
}

static void one_machine_per_thread(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("connect4"));
    uint64_t want1 = playouts(g, 1, 20), want2 = playouts(g, 2, 20);
    assert_int_not_equal(want1, want2);
    Job a = {g, 1, 0}, b = {g, 2, 0};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, job_run, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, job_run, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_int_equal(a.digest, want1);
    assert_int_equal(b.digest, want2);
    gdl_game_free(g);
}

static void rng_is_documented_splitmix(void **state)
{
    (void)state;
    GdlRng r;
    gdl_rng_seed(&r, 0);
    /* SplitMix64's published first output for seed 0 */
    assert_int_equal(gdl_rng_next(&r), 0xe220a8397b1dcdafULL);
    gdl_rng_seed(&r, 42);
    int hist[3] = {0, 0, 0};
    for (int i = 0; i < 30000; i++)
        hist[gdl_rng_below(&r, 3)]++;
    for (int k = 0; k < 3; k++)
        assert_true(hist[k] > 9500 && hist[k] < 10500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diagnostics_are_data),
        cmocka_unit_test(unknown_engine),
        cmocka_unit_test(play_and_transpose),
        cmocka_unit_test(hash_is_independent_of_ids),
        cmocka_unit_test(reversi_opening_flips),
        cmocka_unit_test(game_faults_name_role_and_state),
        cmocka_unit_test(cancellation),
        cmocka_unit_test(cancellation_inside_a_query),
        cmocka_unit_test(limits_stop_runaway_terms),
        cmocka_unit_test(one_machine_per_thread),
        cmocka_unit_test(rng_is_documented_splitmix),
    };
    int failed = 0;
    static const char *const engines[] = {"ref", "jit"};
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
        engine = engines[i];
        failed += _cmocka_run_group_tests(engine, tests, sizeof tests / sizeof tests[0], NULL, NULL);
    }
    return failed;
}
