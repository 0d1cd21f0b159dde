/*
 * test_player_strength.c: the built-in players' strength on the corpus Connect
 * Four, with playout budgets (never wall time), so the outcome depends on
 * the seeds only. Release builds only (tests/CMakeLists.txt leaves it out of
 * sanitizer builds).
 *   - UCT at 50 playouts per move wins at least 95% of 40 matches against
 *     random (the bar);
 *   - UCT beats flat Monte-Carlo at equal playouts (200 per move): over 40
 *     matches, seats alternating, UCT's average score is above 50 with the
 *     whole 95% confidence interval (measured: 77.5 +- 13.1).
 * The engine is pn (faster on Connect Four): every engine answers alike and
 * draws the same playouts, so the matches are the same on jit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../player/player.h"
#include "../../player/runner.h"

static char *rules;
static size_t len;
static GdlGame *game;

/* The score of players a and b over n matches, seats alternating. */
static void play(const char *a_spec, const char *b_spec, unsigned n, double *a_scores, unsigned *a_wins)
{
    char *err = NULL;
    MatchPlayer *a = match_player_new(a_spec, 11, &err), *b = match_player_new(b_spec, 12, &err);
    if (!a || !b)
        fail_msg("%s", err);
    *a_wins = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned aseat = k % 2;
        MatchPlayer *seats[2];
        seats[aseat] = a;
        seats[1 - aseat] = b;
        MatchOptions mo = {60, 60, 1000 + k, NULL};
        MatchRecord *rec = NULL;
        if (match_run(game, rules, len, seats, &mo, &rec, &err) != GDL_OK)
            fail_msg("match %u: %s", k, err);
        assert_int_equal(match_record_errors(rec), 0);
        const int *g = match_record_goals(rec);
        a_scores[k] = g[aseat];
        if (g[aseat] > g[1 - aseat])
            (*a_wins)++;
        match_record_free(rec);
    }
    (a->ops->free)(a);
    (b->ops->free)(b);
}

static void mcts_beats_random(void **state)
{
    (void)state;
    if (!game)
        return;
    double sc[40];
    unsigned wins;
    play("mcts:50,engine=pn", "random", 40, sc, &wins);
    print_message("mcts:50 against random: %u wins of 40\n", wins);
    assert_true(wins >= 38);
}

static void mcts_beats_flat(void **state)
{
    (void)state;
    if (!game)
        return;
    double sc[40], mean, half;
    unsigned wins;
    play("mcts:200,engine=pn", "flat:200,engine=pn", 40, sc, &wins);
    match_mean_ci(sc, 40, &mean, &half);
    print_message("mcts:200 against flat:200: %u wins of 40, score %.1f +- %.1f\n", wins, mean, half);
    assert_true(mean - half > 50);
}

int main(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/games/ggp-repository/connectFour.kif", GDLC_SHARED_DIR);
    FILE *f = fopen(path, "rb");
    if (!f) {
        const char *ci = getenv("CI");
        if (ci && strcmp(ci, "true") == 0) {
            fprintf(stderr, "the shared corpus is missing: %s (set GDL_SHARED)\n", path);
            return 1;
        }
        printf("SKIP: %s: not found (set GDL_SHARED)\n", path);
    } else {
        fseek(f, 0, SEEK_END);
        len = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        rules = malloc(len + 1);
        if (!rules || fread(rules, 1, len, f) != len)
            return 1;
        rules[len] = 0;
        fclose(f);
        if (gdl_game_load_string(path, rules, len, &game, NULL) != GDL_OK)
            return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mcts_beats_random),
        cmocka_unit_test(mcts_beats_flat),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    gdl_game_free(game);
    free(rules);
    return rc;
}
