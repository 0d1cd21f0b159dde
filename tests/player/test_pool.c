/*
 * test_pool.c: the match pool (player/pool.c) behind gdlc match and
 * balance: matches come back in order with the seats rotating (or fixed),
 * and the same matches whether one job plays them all or three share them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../player/pool.h"
#include "../../player/runner.h"

#define GAME GDLC_SOURCE_DIR "/games/tictactoe.kif"
#define N 6

typedef struct Run {
    char *moves[N];   /* per match: its joint moves, one string */
    char *seat0[N];   /* per match: the player in role 0 */
    int goals[N][2];
} Run;

/* Plays N matches of Tic-tac-toe on jobs threads between "random" and
 * "flat:5" (made per job from the same seeds) and keeps what each gave. */
static void play(const GdlGame *g, const char *rules, size_t len, unsigned jobs, bool fixed, Run *run)
{
    MatchPlayer *players[3 * 2];
    for (unsigned i = 0; i < jobs * 2; i++) {
        char *err = NULL;
        players[i] = match_player_new(i % 2 ? "flat:5" : "random", 7 + i % 2, &err);
        assert_non_null(players[i]);
    }
    MatchOptions o = {10, 5, 0, NULL};
    const char *why = NULL;
    MatchPool *p = match_pool_start(g, rules, len, players, jobs, N, fixed, &o, 3, &why);
    assert_non_null(p);
    for (uint64_t k = 0; k < N; k++) {
        MatchRecord *rec = NULL;
        char *err = NULL;
        assert_int_equal(match_pool_take(p, k, &rec, &err), GDL_OK);
        assert_null(err);
        assert_true(rec->completed);
        size_t cap = 1;
        for (size_t i = 0; i < rec->nturns * 2; i++)
            cap += strlen(rec->moves[i]) + 1;
        run->moves[k] = calloc(cap, 1);
        assert_non_null(run->moves[k]);
        for (size_t i = 0; i < rec->nturns * 2; i++) {
            strcat(run->moves[k], rec->moves[i]);
            strcat(run->moves[k], ";");
        }
        run->seat0[k] = strdup(rec->players[0]);
        memcpy(run->goals[k], match_record_goals(rec), sizeof run->goals[k]);
        match_record_free(rec);
    }
    match_pool_free(p);
    for (unsigned i = 0; i < jobs * 2; i++)
        (players[i]->ops->free)(players[i]);
}

static void run_free(Run *r)
{
    for (int k = 0; k < N; k++) {
        free(r->moves[k]);
        free(r->seat0[k]);
    }
}

static void same_matches_any_jobs(void **state)
{
    (void)state;
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_file(GAME, &g, NULL), GDL_OK);
    FILE *f = fopen(GAME, "rb");
    assert_non_null(f);
    static char rules[1 << 16];
    size_t len = fread(rules, 1, sizeof rules, f);
    fclose(f);
    Run one = {0}, three = {0}, fixed = {0};
    play(g, rules, len, 1, false, &one);
    play(g, rules, len, 3, false, &three);
    play(g, rules, len, 2, true, &fixed);
    for (int k = 0; k < N; k++) {
        assert_string_equal(one.moves[k], three.moves[k]);
        assert_int_equal(one.goals[k][0], three.goals[k][0]);
        assert_int_equal(one.goals[k][1], three.goals[k][1]);
        assert_true(one.goals[k][0] + one.goals[k][1] == 100);
        /* rotating: player 0 ("random") sits in role 0 in the even matches */
        assert_non_null(strstr(one.seat0[k], k % 2 ? "flat" : "random"));
        assert_non_null(strstr(fixed.seat0[k], "random"));
    }
    run_free(&one);
    run_free(&three);
    run_free(&fixed);
    gdl_game_free(g);
}

static void nothing_to_play(void **state)
{
    (void)state;
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_file(GAME, &g, NULL), GDL_OK);
    MatchOptions o = {10, 5, 0, NULL};
    const char *why = NULL;
    assert_null(match_pool_start(g, "", 0, NULL, 1, 0, false, &o, 1, &why));
    assert_non_null(why);
    match_pool_free(NULL);
    gdl_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_matches_any_jobs),
        cmocka_unit_test(nothing_to_play),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
