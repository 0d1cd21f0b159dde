/*
 * test_player.c: the player stage's sessions, search and match runner
 * (player/session.c, mcts.c, match.c, record.c), on gdlc's own games:
 *   - every move a session answers is legal, turn after turn, for every
 *     strategy (a whole Connect Four and Tic-tac-toe, each side a session);
 *   - the manager's joint moves are read case-insensitively, and illegal,
 *     unreadable or miscounted ones are refused with the state unchanged;
 *   - rejected rules and unknown roles are clear errors;
 *   - decoupled UCT on a simultaneous game (tests/player/dominant.kif):
 *     each role finds its dominant move;
 *   - the analyses: a move that wins at once is played without search;
 *   - a puzzle's plan (switches.kif, value 70) is found in the start clock
 *     and replayed to its value;
 *   - threads: playouts split over two threads, summed, the move legal;
 *   - the runner: a match's JSON record read back with jansson, its
 *     moves replayed (legal), its states equal to the replay's, its goals
 *     the end's; an illegal-moving player is replaced and recorded;
 *   - bad specs refused; the confidence interval's arithmetic.
 */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../lib/api_errors.h"
#include "../../player/player.h"
#include "../../player/runner.h"
#include "../../player/search.h"
#include "../lib/corpus.h"
#include "files.h"

#define GAMES GDLC_SOURCE_DIR "/games/"
#define DATA GDLC_SOURCE_DIR "/tests/lib/data/"
#define PLAYER GDLC_SOURCE_DIR "/tests/player/"

static PlayOptions opts(PlayStrategy st, uint64_t playouts, uint64_t seed)
{
    PlayOptions o;
    play_options_default(&o);
    o.strategy = st;
    o.playouts = playouts;
    o.seed = seed;
    return o;
}

/* Plays a whole match, a session per role (strategy per role), checking
 * every answer against a machine of the test's own. Returns role 0's goal. */
static int selfplay(const char *path, const PlayStrategy *st, uint64_t playouts, uint64_t seed)
{
    size_t len;
    char *rules = slurp(path, &len);
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_string(path, rules, len, &g, NULL), GDL_OK);
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    unsigned R = gdl_game_role_count(g);
    Session *s[8];
    assert_true(R <= 8);
    for (unsigned r = 0; r < R; r++) {
        PlayOptions o = opts(st[r], playouts, seed + r);
        char *err = NULL;
        s[r] = session_new(rules, len, gdl_game_role_name(g, r), gdl_now() + 30, 30, &o, &err);
        if (!s[r])
            fail_msg("session_new: %s", err);
    }
    GdlState *state = NULL;
    assert_int_equal(gdl_state_initial(m, &state), GDL_OK);
    char *last[8] = {0};
    bool first = true;
    for (int turn = 0; turn < 200; turn++) {
        bool term;
        assert_int_equal(gdl_state_is_terminal(m, state, &term), GDL_OK);
        if (term)
            break;
        GdlMove joint[8];
        char *texts[8];
        for (unsigned r = 0; r < R; r++) {
            char *err = NULL;
            const char *mv = session_play(s[r], first ? NULL : (const char *const *)last, first ? 0 : R,
                                          gdl_now() + 30, &err);
            if (!mv)
                fail_msg("turn %d, role %u: %s", turn, r, err);
            assert_int_equal(gdl_move_parse(m, mv, &joint[r]), GDL_OK);
            texts[r] = strdup(mv);
            SessionStats ss;
            session_stats(s[r], &ss);
            assert_true(ss.seconds >= 0);
        }
        GdlState *next = NULL;
        /* gdl_state_next refuses an illegal joint move: every answer legal */
        assert_int_equal(gdl_state_next(m, state, joint, &next), GDL_OK);
        gdl_state_free(state);
        state = next;
        for (unsigned r = 0; r < R; r++) {
            free(last[r]);
            last[r] = texts[r];
        }
        first = false;
    }
    int goals[8];
    assert_int_equal(gdl_state_goals(m, state, goals), GDL_OK);
    for (unsigned r = 0; r < R; r++) {
        session_stop(s[r], (const char *const *)last, R);
        session_free(s[r]);
    }
    for (unsigned r = 0; r < R; r++)
        free(last[r]);
    gdl_state_free(state);
    gdl_machine_free(m);
    gdl_game_free(g);
    free(rules);
    return goals[0];
}

static void legal_every_turn(void **state)
{
    (void)state;
    PlayStrategy a[] = {PLAY_MCTS, PLAY_FLAT}, b[] = {PLAY_RANDOM, PLAY_MCTS};
    selfplay(GAMES "connect4.kif", a, 100, 1);
    selfplay(GAMES "connect4.kif", b, 100, 2);
    selfplay(GAMES "tictactoe.kif", a, 200, 3);
    selfplay(GAMES "tictactoe.kif", b, 200, 4);
}

static Session *ttt_session(const char *role, PlayStrategy st, uint64_t playouts, char **err)
{
    size_t len;
    char *rules = slurp(GAMES "tictactoe.kif", &len);
    PlayOptions o = opts(st, playouts, 7);
    o.log = getenv("PLAYER_LOG") ? stderr : NULL;
    Session *s = session_new(rules, len, role, gdl_now() + 30, 30, &o, err);
    free(rules);
    return s;
}

static void refuses_bad_joint_moves(void **state)
{
    (void)state;
    char *err = NULL;
    Session *s = ttt_session("OPLAYER", PLAY_MCTS, 50, &err); /* roles compare case-insensitively */
    if (!s)
        fail_msg("%s", err);
    const char *mv = session_play(s, NULL, 0, gdl_now() + 30, &err);
    assert_non_null(mv);
    assert_string_equal(mv, "noop"); /* x moves first */
    /* the manager's case and spacing are read */
    const char *j1[] = {"( PLAY 2 2 )", "NOOP"};
    mv = session_play(s, j1, 2, gdl_now() + 30, &err);
    if (!mv)
        fail_msg("%s", err);
    assert_string_not_equal(mv, "(play 2 2)");
    char o_move[64];
    snprintf(o_move, sizeof o_move, "%s", mv);
    /* illegal: a taken cell, the wrong role moving, a miscount, unreadable */
    const char *bad1[] = {"noop", "(play 2 2)"};
    const char *bad2[] = {"(play 1 1)", "noop"};
    const char *bad3[] = {"noop"};
    const char *bad4[] = {"noop", "(play 1"};
    const char *const *bads[] = {bad1, bad2, bad3, bad4};
    size_t ns[] = {2, 2, 1, 2};
    for (int i = 0; i < 4; i++) {
        err = NULL;
        assert_null(session_play(s, bads[i], ns[i], gdl_now() + 30, &err));
        assert_non_null(err);
        free(err);
    }
    /* the state is unchanged: o's own move is still legal */
    const char *j2[] = {"noop", o_move};
    mv = session_play(s, j2, 2, gdl_now() + 30, &err);
    if (!mv)
        fail_msg("after refusals: %s", err);
    assert_string_equal(mv, "noop");
    session_free(s);

    /* rejected rules and an unknown role */
    PlayOptions o = opts(PLAY_MCTS, 10, 1);
    err = NULL;
    assert_null(session_new("(role x) (<= (legal x", 21, "x", gdl_now() + 5, 5, &o, &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "rejected"));
    free(err);
    err = NULL;
    assert_null(ttt_session("nobody", PLAY_MCTS, 10, &err));
    assert_non_null(strstr(err, "nobody"));
    free(err);
    /* an unknown engine is an error, not a silent fallback */
    size_t len;
    char *rules = slurp(GAMES "tictactoe.kif", &len);
    o.engine = "no-such-engine";
    err = NULL;
    assert_null(session_new(rules, len, "xplayer", gdl_now() + 5, 5, &o, &err));
    assert_non_null(err);
    free(err);
    free(rules);
}

/* Decoupled UCT: in dominant.kif both roles pick 1, 2 or 3 at once and the
 * higher wins; 3 dominates for each. */
static void simultaneous_decoupled(void **state)
{
    (void)state;
    size_t len;
    char *rules = slurp(PLAYER "dominant.kif", &len);
    const char *roles[] = {"a", "b"};
    for (int i = 0; i < 2; i++) {
        for (unsigned seed = 1; seed <= 3; seed++) {
            PlayOptions o = opts(PLAY_MCTS, 600, seed);
            o.analyses = i == 0; /* with and without the analyses */
            char *err = NULL;
            Session *s = session_new(rules, len, roles[seed % 2], gdl_now() + 30, 30, &o, &err);
            if (!s)
                fail_msg("%s", err);
            const char *mv = session_play(s, NULL, 0, gdl_now() + 30, &err);
            if (!mv)
                fail_msg("%s", err);
            assert_string_equal(mv, "(pick 3)");
            session_free(s);
        }
    }
    free(rules);
}

/* The corpus Tic-tac-toe with x to complete a line: the analysis's winning
 * move is played at once, without a playout. (The analysis does not see it
 * in games/tictactoe.kif, whose frame rule reads does ?p.) */
static void winning_move_at_once(void **state)
{
    (void)state;
    char path[1024];
    if (!corpus_path(path, sizeof path, "ggp-repository/ticTacToe.kif"))
        return;
    size_t len;
    char *rules = slurp(path, &len);
    PlayOptions o = opts(PLAY_MCTS, 100000, 7);
    char *err = NULL;
    Session *s = session_new(rules, len, "xplayer", gdl_now() + 30, 30, &o, &err);
    free(rules);
    if (!s)
        fail_msg("%s", err);
    const char *moves[][2] = {{"(mark 1 1)", "noop"}, {"noop", "(mark 2 1)"}, {"(mark 1 2)", "noop"},
                              {"noop", "(mark 2 2)"}};
    const char *mv = session_play(s, NULL, 0, gdl_now() + 30, &err);
    assert_non_null(mv);
    for (int i = 0; i < 4; i++) {
        mv = session_play(s, moves[i], 2, gdl_now() + 30, &err);
        if (!mv)
            fail_msg("%s", err);
    }
    assert_string_equal(mv, "(mark 1 3)");
    SessionStats ss;
    session_stats(s, &ss);
    assert_true(ss.solved);
    assert_int_equal(ss.playouts, 0);
    session_free(s);
}

/* switches.kif (value 70, three moves): the start clock's solver gives the
 * plan, replayed move by move to its value. */
static void puzzle_plan(void **state)
{
    (void)state;
    size_t len;
    char *rules = slurp(DATA "switches.kif", &len);
    PlayOptions o = opts(PLAY_MCTS, 0, 1); /* by time: the solver may run */
    char *err = NULL;
    Session *s = session_new(rules, len, "solver", gdl_now() + 5, 2, &o, &err);
    if (!s)
        fail_msg("%s", err);
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_string("switches", rules, len, &g, NULL), GDL_OK);
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    GdlState *st = NULL;
    assert_int_equal(gdl_state_initial(m, &st), GDL_OK);
    char *last = NULL;
    for (;;) {
        bool term;
        assert_int_equal(gdl_state_is_terminal(m, st, &term), GDL_OK);
        if (term)
            break;
        const char *j[1] = {last};
        const char *mv = session_play(s, last ? j : NULL, last ? 1 : 0, gdl_now() + 2, &err);
        if (!mv)
            fail_msg("%s", err);
        SessionStats ss;
        session_stats(s, &ss);
        assert_true(ss.solved);
        GdlMove jm[1];
        assert_int_equal(gdl_move_parse(m, mv, &jm[0]), GDL_OK);
        GdlState *next = NULL;
        assert_int_equal(gdl_state_next(m, st, jm, &next), GDL_OK);
        gdl_state_free(st);
        st = next;
        free(last);
        last = strdup(mv);
    }
    int goal;
    assert_int_equal(gdl_state_goal(m, st, 0, &goal), GDL_OK);
    assert_int_equal(goal, 70);
    free(last);
    gdl_state_free(st);
    gdl_machine_free(m);
    gdl_game_free(g);
    session_free(s);
    free(rules);
}

/* A small two-player game by time: the start clock's solver proves
 * tic-tac-toe, every move then comes from a proof, and the solved player
 * never loses, in either seat, against UCT. */
static void two_player_solver(void **state)
{
    (void)state;
    size_t len;
    char *rules = slurp(GAMES "tictactoe.kif", &len);
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_string("tictactoe", rules, len, &g, NULL), GDL_OK);
    for (unsigned seat = 0; seat < 2; seat++) {
        char *err = NULL;
        MatchPlayer *a = match_player_new("mcts:3s", 1, &err), *b = match_player_new("mcts:200", 2, &err);
        assert_non_null(a);
        assert_non_null(b);
        MatchPlayer *seats[2];
        seats[seat] = a;
        seats[1 - seat] = b;
        MatchOptions mo = {10, 10, 5 + seat, NULL};
        MatchRecord *rec = NULL;
        if (match_run(g, rules, len, seats, &mo, &rec, &err) != GDL_OK)
            fail_msg("%s", err);
        assert_true(match_record_goals(rec)[seat] >= 50);
        assert_int_equal(match_record_errors(rec), 0);
        match_record_free(rec);
        (a->ops->free)(a);
        (b->ops->free)(b);
    }
    /* the session itself: solved moves, no playouts */
    PlayOptions o = opts(PLAY_MCTS, 0, 3);
    char *err = NULL;
    Session *s = session_new(rules, len, "xplayer", gdl_now() + 10, 5, &o, &err);
    if (!s)
        fail_msg("%s", err);
    const char *mv = session_play(s, NULL, 0, gdl_now() + 5, &err);
    assert_non_null(mv);
    SessionStats ss;
    session_stats(s, &ss);
    assert_true(ss.solved);
    assert_int_equal(ss.playouts, 0);
    session_free(s);
    gdl_game_free(g);
    free(rules);
}

/* Tree reuse: after our move and the reply, the subtree of the state
 * reached (a grandchild of the root) is kept, the rest freed. */
static void tree_reuse(void **state)
{
    (void)state;
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_file(GAMES "connect4.kif", &g, NULL), GDL_OK);
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    Search *s = search_new(m, NULL, 2, NULL, 3);
    assert_non_null(s);
    GdlState *st = NULL;
    assert_int_equal(gdl_state_initial(m, &st), GDL_OK);
    assert_int_equal(search_set_root(s, st), GDL_OK);
    uint64_t done = 0;
    assert_int_equal(search_run(s, 0, 2000, 0, NULL, &done), GDL_OK);
    assert_int_equal(done, 2000);
    size_t before = search_nodes(s);
    assert_true(before > 1000);
    /* red's most visited move, then black's first legal move */
    const GdlMove *mv;
    const uint32_t *v;
    const double *sum;
    size_t n = search_root(s, 0, &mv, &v, &sum), best = 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] > v[best])
            best = i;
    const GdlMove *noop;
    size_t nn;
    assert_int_equal(gdl_state_legal(m, st, 1, &noop, &nn), GDL_OK);
    GdlMove j1[2] = {mv[best], noop[0]};
    GdlState *s1 = NULL, *s2 = NULL;
    assert_int_equal(gdl_state_next(m, st, j1, &s1), GDL_OK);
    const GdlMove *r0, *b;
    size_t nr, nb;
    assert_int_equal(gdl_state_legal(m, s1, 0, &r0, &nr), GDL_OK);
    GdlMove red_noop = r0[0];
    assert_int_equal(gdl_state_legal(m, s1, 1, &b, &nb), GDL_OK);
    GdlMove j2[2] = {red_noop, b[3]};
    assert_int_equal(gdl_state_next(m, s1, j2, &s2), GDL_OK);
    assert_int_equal(search_set_root(s, s2), GDL_OK);
    size_t after = search_nodes(s);
    assert_true(after > 1);      /* kept */
    assert_true(after < before); /* the rest freed */
    /* the search goes on from there */
    assert_int_equal(search_run(s, 0, 100, 0, NULL, &done), GDL_OK);
    assert_true(search_nodes(s) > after);
    /* an unrelated state: a fresh tree */
    assert_int_equal(search_set_root(s, st), GDL_OK);
    assert_int_equal(search_nodes(s), 1);
    search_free(s);
    gdl_state_free(st);
    gdl_state_free(s1);
    gdl_state_free(s2);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* Two search threads: the budget split and summed, the move legal. Short
 * enough for ThreadSanitizer. */
static void two_threads(void **state)
{
    (void)state;
    size_t len;
    char *rules = slurp(GAMES "tictactoe.kif", &len);
    /* a session freed while its analysis's thread still runs: the thread
     * frees what is left (the game too) when it is done */
    {
        PlayOptions o = opts(PLAY_MCTS, 0, 1);
        char *err = NULL;
        Session *s = session_new(rules, len, "xplayer", gdl_now(), 5, &o, &err);
        if (!s)
            fail_msg("%s", err);
        session_free(s);
    }
    for (int strat = 0; strat < 2; strat++) {
        PlayOptions o = opts(strat ? PLAY_FLAT : PLAY_MCTS, 301, 5);
        o.threads = 2;
        char *err = NULL;
        Session *s = session_new(rules, len, "xplayer", gdl_now() + 30, 30, &o, &err);
        if (!s)
            fail_msg("%s", err);
        const char *mv = session_play(s, NULL, 0, gdl_now() + 30, &err);
        if (!mv)
            fail_msg("%s", err);
        SessionStats ss;
        session_stats(s, &ss);
        assert_int_equal(ss.threads, 2);
        assert_int_equal(ss.playouts, 301);
        const char *j[] = {mv, "noop"};
        const char *mv2 = session_play(s, j, 2, gdl_now() + 30, &err);
        if (!mv2)
            fail_msg("%s", err);
        assert_string_equal(mv2, "noop");
        session_free(s);
    }
    /* by time: both threads stop at the deadline less the margin (no
     * analyses, so no solver: tic-tac-toe is solved in the start clock) */
    PlayOptions o = opts(PLAY_MCTS, 0, 9);
    o.threads = 2;
    o.analyses = false;
    o.margin = 0.1;
    char *err = NULL;
    Session *s = session_new(rules, len, "xplayer", gdl_now() + 30, 1, &o, &err);
    if (!s)
        fail_msg("%s", err);
    double t0 = gdl_now();
    const char *mv = session_play(s, NULL, 0, t0 + 0.4, &err);
    double t1 = gdl_now();
    if (!mv)
        fail_msg("%s", err);
    SessionStats ss;
    session_stats(s, &ss);
    assert_true(ss.playouts > 0);
    assert_true(t1 < t0 + 0.4);
    session_free(s);
    free(rules);
}

/* A player that always answers an illegal move. */
static bool bad_start(MatchPlayer *p, const char *id, uint64_t seed, const char *rules, const char *role, unsigned sc,
                      unsigned pc, char **err)
{
    (void)p, (void)id, (void)seed, (void)rules, (void)role, (void)sc, (void)pc, (void)err;
    return true;
}
static char *bad_play(MatchPlayer *p, const char *id, const char *const *last, size_t n, double dl, char **err)
{
    (void)p, (void)id, (void)last, (void)n, (void)dl, (void)err;
    return strdup("(mark 9 9)");
}
static void bad_stop(MatchPlayer *p, const char *id, const char *const *last, size_t n)
{
    (void)p, (void)id, (void)last, (void)n;
}
static void bad_abort(MatchPlayer *p, const char *id) { (void)p, (void)id; }
static void bad_free(MatchPlayer *p) { (void)p; }
static const MatchPlayerOps bad_ops = {bad_start, bad_play, bad_stop, bad_abort, bad_free};

/* "( ( cell 1 1 b ) ... )" from a state, as the record writes it. */
static char *render(GdlMachine *m, const GdlState *s)
{
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    len += (size_t)snprintf(out, cap, "(");
    for (size_t i = 0; i < gdl_state_size(s); i++) {
        const char *f = gdl_state_fact(m, s, i);
        if (len + 2 * strlen(f) + 8 > cap)
            out = realloc(out, cap = cap * 2 + 2 * strlen(f));
        out[len++] = ' ';
        for (const char *c = f; *c; c++) {
            if (*c == ')')
                out[len++] = ' ';
            out[len++] = *c;
            if (*c == '(')
                out[len++] = ' ';
        }
    }
    out[len++] = ' ';
    out[len++] = ')';
    out[len] = 0;
    return out;
}

/* GGP-Base's term text back to KIF: "( mark 1 1 )" reads as is. */
static void record_round_trip(void **state)
{
    (void)state;
    size_t len;
    char *rules = slurp(GAMES "tictactoe.kif", &len);
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_string("tictactoe", rules, len, &g, NULL), GDL_OK);
    char *err = NULL;
    MatchPlayer *a = match_player_new("mcts:100", 1, &err);
    assert_non_null(a);
    MatchPlayer bad = {&bad_ops, (char *)"bad"};
    for (int which = 0; which < 2; which++) {
        MatchPlayer *b = which == 0 ? match_player_new("flat:50", 2, &err) : &bad;
        assert_non_null(b);
        MatchPlayer *seats[2] = {a, b};
        MatchOptions mo = {5, 5, 42 + (uint64_t)which, NULL};
        MatchRecord *rec = NULL;
        if (match_run(g, rules, len, seats, &mo, &rec, &err) != GDL_OK)
            fail_msg("%s", err);
        FILE *f = tmpfile();
        assert_true(match_record_write(rec, f));
        rewind(f);
        json_error_t je;
        json_t *o = json_loadf(f, 0, &je);
        if (!o)
            fail_msg("the record is not JSON: %s (line %d)", je.text, je.line);
        fclose(f);
        assert_true(json_is_string(json_object_get(o, "matchId")));
        assert_int_equal(json_integer_value(json_object_get(o, "startClock")), 5);
        assert_int_equal(json_integer_value(json_object_get(o, "playClock")), 5);
        assert_true(json_is_true(json_object_get(o, "isCompleted")));
        assert_true(json_is_integer(json_object_get(o, "startTime")));
        json_t *names = json_object_get(o, "playerNamesFromHost");
        assert_string_equal(json_string_value(json_array_get(names, 0)), "mcts:100");
        json_t *states = json_object_get(o, "states"), *moves = json_object_get(o, "moves"),
               *errors = json_object_get(o, "errors"), *goals = json_object_get(o, "goalValues"),
               *times = json_object_get(o, "stateTimes");
        assert_int_equal(json_array_size(states), json_array_size(moves) + 1);
        assert_int_equal(json_array_size(times), json_array_size(states));
        assert_int_equal(json_array_size(errors), json_array_size(moves));
        /* replay: every move legal, every state as recorded */
        GdlMachine *m = NULL;
        assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
        GdlState *st = NULL;
        assert_int_equal(gdl_state_initial(m, &st), GDL_OK);
        size_t nerr = 0;
        for (size_t t = 0; t <= json_array_size(moves); t++) {
            char *txt = render(m, st);
            assert_string_equal(json_string_value(json_array_get(states, t)), txt);
            free(txt);
            if (t == json_array_size(moves))
                break;
            GdlMove jm[2];
            for (size_t r = 0; r < 2; r++) {
                json_t *mv = json_array_get(json_array_get(moves, t), r);
                assert_int_equal(gdl_move_parse(m, json_string_value(mv), &jm[r]), GDL_OK);
                const char *e = json_string_value(json_array_get(json_array_get(errors, t), r));
                assert_non_null(e);
                if (*e) {
                    nerr++;
                    assert_int_equal(r, 1); /* only the bad player erred */
                    assert_non_null(strstr(e, "(mark 9 9)"));
                }
            }
            GdlState *next = NULL;
            assert_int_equal(gdl_state_next(m, st, jm, &next), GDL_OK);
            gdl_state_free(st);
            st = next;
        }
        bool term;
        assert_int_equal(gdl_state_is_terminal(m, st, &term), GDL_OK);
        assert_true(term);
        int gv[2];
        assert_int_equal(gdl_state_goals(m, st, gv), GDL_OK);
        assert_int_equal(json_integer_value(json_array_get(goals, 0)), gv[0]);
        assert_int_equal(json_integer_value(json_array_get(goals, 1)), gv[1]);
        assert_int_equal(match_record_goals(rec)[0], gv[0]);
        assert_int_equal(match_record_errors(rec), nerr);
        if (which == 1) {
            /* the bad player's every answer was replaced */
            assert_true(nerr >= 2);
            assert_int_equal(nerr, json_array_size(moves));
        } else {
            assert_int_equal(nerr, 0);
        }
        gdl_state_free(st);
        gdl_machine_free(m);
        json_decref(o);
        match_record_free(rec);
        if (which == 0)
            (b->ops->free)(b);
    }
    (a->ops->free)(a);
    gdl_game_free(g);
    free(rules);
}

static void specs(void **state)
{
    (void)state;
    const char *good[] = {"random", "flat:10", "mcts:1", "mcts:0.5s", "flat:2s", "mcts:100,engine=pn,threads=2"};
    const char *bad[] = {"", "mcts", "mcts:", "mcts:0", "mcts:-5", "mcts:1x", "mcts:0s", "mcts:s", "uct:10",
                         "mcts:10,threads=0", "mcts:10,colour=red", "random,engine"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        char *err = NULL;
        MatchPlayer *p = match_player_new(good[i], 1, &err);
        if (!p)
            fail_msg("%s: %s", good[i], err);
        assert_string_equal(p->name, good[i]);
        (p->ops->free)(p);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *err = NULL;
        MatchPlayer *p = match_player_new(bad[i], 1, &err);
        if (p)
            fail_msg("'%s' accepted", bad[i]);
        assert_non_null(err);
        free(err);
    }
}

static void confidence_interval(void **state)
{
    (void)state;
    double mean, half;
    double a[] = {0, 100};
    match_mean_ci(a, 2, &mean, &half);
    assert_float_equal(mean, 50, 1e-9);
    assert_float_equal(half, 1.96 * sqrt(5000.0) / sqrt(2.0), 1e-9); /* sd 70.71 */
    double b[] = {50, 50, 50};
    match_mean_ci(b, 3, &mean, &half);
    assert_float_equal(mean, 50, 1e-9);
    assert_float_equal(half, 0, 1e-12);
    double c[] = {100, 0, 0, 100, 100};
    match_mean_ci(c, 5, &mean, &half);
    assert_float_equal(mean, 60, 1e-9);
    assert_float_equal(half, 1.96 * sqrt(3000.0) / sqrt(5.0), 1e-9); /* sum of squares 12000 / 4 */
    match_mean_ci(c, 1, &mean, &half);
    assert_float_equal(mean, 100, 1e-9);
    assert_float_equal(half, 0, 1e-12);
}


/* Resident memory of the process in MB, and its threads (/proc/self/status). */
static double rss_mb(unsigned *threads)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    *threads = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = atof(line + 6);
        else if (strncmp(line, "Threads:", 8) == 0)
            *threads = (unsigned)atoi(line + 8);
    }
    if (f)
        fclose(f);
    return kb / 1024;
}

/* Issue 36, class 3: a session freed while its analysis is being built
 * (START then ABORT on Amazons, whose network takes seconds to ground)
 * stops and joins the analysis's thread: after 20 cycles no thread is left
 * and the resident memory is within 100 MB of that after the first, and
 * each free returns at once. (The thread used to be detached and left to
 * finish: 12 cycles reached 2.3 GB.) */
static void abandoned_analysis(void **state)
{
    (void)state;
    char path[512];
    if (!corpus_path(path, sizeof path, "ggp-repository/amazons.kif"))
        return;
    size_t len;
    char *rules = slurp(path, &len);
    unsigned threads0, threads;
    rss_mb(&threads0);
    double first = 0, worst_free = 0, t_begin = gdl_now();
    for (int i = 0; i < 20; i++) {
        PlayOptions o = opts(PLAY_MCTS, 0, (uint64_t)i + 1);
        o.engine = "ref";
        char *err = NULL;
        Session *s = session_new(rules, len, "white", gdl_now() + 0.7, 10, &o, &err);
        if (!s)
            fail_msg("%s", err);
        double t0 = gdl_now();
        session_free(s);
        double took = gdl_now() - t0;
        if (took > worst_free)
            worst_free = took;
        if (i == 0)
            first = rss_mb(&threads);
    }
    double last = rss_mb(&threads);
    print_message("abandoned analysis: RSS %.0f MB after the first cycle, %.0f MB after 20; %u threads (%u before); "
                  "the slowest free %.3f s; %.1f s in all\n", first, last, threads, threads0, worst_free,
                  gdl_now() - t_begin);
    assert_int_equal(threads, threads0);
    if (last > first + 100)
        fail_msg("RSS grew from %.0f MB to %.0f MB over 20 START/ABORT cycles", first, last);
    if (worst_free > 3)
        fail_msg("a session took %.3f s to free", worst_free);
    free(rules);
}


/* The rules at path read and loaded, and a ref machine of them. */
static char *load_ref(const char *path, GdlGame **g, GdlMachine **m)
{
    size_t len;
    char *rules = slurp(path, &len);
    assert_int_equal(gdl_game_load_string(path, rules, len, g, NULL), GDL_OK);
    assert_int_equal(gdl_machine_new(*g, "ref", m), GDL_OK);
    return rules;
}

/* Issue 36, class 3: gdl_analysis_new honours the machine's deadline and
 * cancel flag (grounding Amazons takes seconds, checkers' latch passes
 * too): GDL_CANCELLED soon after the deadline, at once with the flag
 * raised, and the machine usable. */
static void analysis_cancelled(void **state)
{
    (void)state;
    char path[512];
    if (!corpus_path(path, sizeof path, "ggp-repository/amazons.kif"))
        return;
    GdlGame *g = NULL;
    GdlMachine *m = NULL;
    char *rules = load_ref(path, &g, &m);
    GdlAnalysis *an = NULL;
    char *err = NULL;
    double t0 = gdl_now();
    gdl_machine_set_deadline(m, t0 + 0.3);
    assert_int_equal(test_analysis_new(m, NULL, &an, &err), GDL_CANCELLED);
    double took = gdl_now() - t0;
    assert_null(an);
    free(err);
    if (took > 1.5)
        fail_msg("the analysis went on %.3f s past a deadline 0.3 s away", took - 0.3);
    gdl_machine_set_deadline(m, 0);
    /* a deadline met within a pass: checkers' network is made in under a
     * second (1.5 s under the sanitizers), its latch passes take seconds
     * after it, and without polls within them the analysis ran 0.8 s past
     * (until the first pass ended) */
    char path2[512];
    if (corpus_path(path2, sizeof path2, "ggp-repository/checkers.kif")) {
        GdlGame *g2 = NULL;
        GdlMachine *m2 = NULL;
        char *rules2 = load_ref(path2, &g2, &m2);
        t0 = gdl_now();
        gdl_machine_set_deadline(m2, t0 + 2.0);
        assert_int_equal(test_analysis_new(m2, NULL, &an, &err), GDL_CANCELLED);
        took = gdl_now() - t0;
        free(err);
        if (took > 2.6)
            fail_msg("checkers' analysis went on %.3f s past a deadline 2 s away", took - 2.0);
        gdl_machine_free(m2);
        gdl_game_free(g2);
        free(rules2);
    }
    volatile int flag = 1;
    gdl_machine_set_cancel_flag(m, &flag);
    t0 = gdl_now();
    assert_int_equal(test_analysis_new(m, NULL, &an, &err), GDL_CANCELLED);
    assert_true(gdl_now() - t0 < 0.1);
    free(err);
    gdl_machine_set_cancel_flag(m, NULL);
    GdlState *st = NULL;
    assert_int_equal(gdl_state_initial(m, &st), GDL_OK);
    gdl_state_free(st);
    gdl_machine_free(m);
    gdl_game_free(g);
    free(rules);
}


/* Issue 36, class 8: the chosen engine's machines made after the start
 * clock. 100,000 facts more than tic-tac-toe and a start clock that has
 * run out by the time the rules are read (a clock of 0.3 s was met on a
 * fast machine): the session plays on ref at once, and takes jit's
 * machines over at a later turn, legal moves throughout (the log says
 * both). */
static void engine_after_start(void **state)
{
    (void)state;
    size_t len;
    char *ttt = slurp(GAMES "tictactoe.kif", &len);
    size_t cap = len + 100000 * 40;
    char *rules = malloc(cap);
    size_t n = (size_t)snprintf(rules, cap, "%s", ttt);
    for (int i = 0; i < 100000; i++)
        n += (size_t)snprintf(rules + n, cap - n, "(filler f%d g%d)\n", i, i % 977);
    PlayOptions o = opts(PLAY_MCTS, 0, 5);
    o.threads = 2;
    o.analyses = false;
    o.log = tmpfile();
    char *err = NULL;
    unsigned threads0;
    rss_mb(&threads0);
    Session *s = session_new(rules, n, "xplayer", gdl_now(), 1, &o, &err);
    if (!s)
        fail_msg("%s", err);
    const char *mv = session_play(s, NULL, 0, gdl_now() + 0.5, &err);
    if (!mv)
        fail_msg("%s", err);
    char first[64];
    snprintf(first, sizeof first, "%s", mv);
    assert_non_null(strstr(first, "(play "));
    /* jit's machines are made meanwhile: its thread ends (up to 60 s, for
     * the sanitizers' builds) */
    unsigned threads;
    for (int i = 0; i < 600 && (rss_mb(&threads), threads > threads0); i++)
        usleep(100 * 1000);
    const char *j1[] = {first, "noop"};
    mv = session_play(s, j1, 2, gdl_now() + 0.5, &err);
    if (!mv)
        fail_msg("%s", err);
    assert_string_equal(mv, "noop");
    const char *other = strcmp(first, "(play 2 2)") == 0 ? "(play 1 1)" : "(play 2 2)";
    const char *j2[] = {"noop", other};
    mv = session_play(s, j2, 2, gdl_now() + 0.5, &err);
    if (!mv)
        fail_msg("%s", err);
    assert_non_null(strstr(mv, "(play "));
    assert_string_not_equal(mv, first);
    assert_string_not_equal(mv, other);
    session_free(s);
    fflush(o.log);
    rewind(o.log);
    char buf[4096];
    size_t got = fread(buf, 1, sizeof buf - 1, o.log);
    buf[got] = 0;
    fclose(o.log);
    if (!strstr(buf, "engine jit: not made within the start clock; playing on ref") ||
        !strstr(buf, "playing on it from now on"))
        fail_msg("the log does not say ref, then jit:\n%s", buf);
    free(rules);
    free(ttt);
}

typedef struct Cancel {
    Session *s;
    double deadline;
    const char *move;
    double took;
} Cancel;

static void *cancel_play(void *arg)
{
    Cancel *c = arg;
    char *err = NULL;
    double t0 = gdl_now();
    c->move = session_play(c->s, NULL, 0, c->deadline, &err);
    c->took = gdl_now() - t0;
    free(err);
    return NULL;
}

/* Issue 36, class 2: the owner's cancel flag stops a PLAY searching
 * towards a deadline hours away: it answers its move within a second. */
static void cancel_a_play(void **state)
{
    (void)state;
    size_t len;
    char *rules = slurp(GAMES "tictactoe.kif", &len);
    volatile int flag = 0;
    PlayOptions o = opts(PLAY_MCTS, 0, 3);
    o.threads = 2;
    o.analyses = false;
    o.cancel = &flag;
    char *err = NULL;
    Session *s = session_new(rules, len, "xplayer", gdl_now() + 1, 3600, &o, &err);
    if (!s)
        fail_msg("%s", err);
    Cancel c = {s, gdl_now() + 3600, NULL, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, cancel_play, &c), 0);
    usleep(300 * 1000);
    double t0 = gdl_now();
    __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
    pthread_join(th, NULL);
    double after = gdl_now() - t0;
    assert_non_null(c.move);
    if (after > 1)
        fail_msg("the PLAY went on %.3f s after its cancel", after);
    session_free(s);
    /* a START cancelled before it begins ends at once, without a session */
    Session *s2 = session_new(rules, len, "xplayer", gdl_now() + 3600, 3600, &o, &err);
    assert_null(s2);
    assert_non_null(err);
    free(err);
    free(rules);
}

int main(void)
{
#ifdef PLAYER_THREADS_ONLY
    /* the ThreadSanitizer build's subset (scripts/test.sh) */
    const struct CMUnitTest tests[] = {cmocka_unit_test(two_threads)};
    (void)legal_every_turn, (void)refuses_bad_joint_moves, (void)simultaneous_decoupled, (void)winning_move_at_once,
        (void)puzzle_plan, (void)record_round_trip, (void)two_player_solver, (void)tree_reuse, (void)specs, (void)confidence_interval,
        (void)abandoned_analysis, (void)cancel_a_play, (void)analysis_cancelled,
        (void)engine_after_start;
#else
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(legal_every_turn),        cmocka_unit_test(refuses_bad_joint_moves),
        cmocka_unit_test(simultaneous_decoupled),  cmocka_unit_test(winning_move_at_once),
        cmocka_unit_test(puzzle_plan),             cmocka_unit_test(two_threads),
        cmocka_unit_test(two_player_solver),       cmocka_unit_test(tree_reuse),
        cmocka_unit_test(record_round_trip),       cmocka_unit_test(specs),
        cmocka_unit_test(confidence_interval),     cmocka_unit_test(abandoned_analysis),
        cmocka_unit_test(cancel_a_play),           cmocka_unit_test(analysis_cancelled),
        cmocka_unit_test(engine_after_start),
    };
#endif
    return cmocka_run_group_tests(tests, NULL, NULL);
}
