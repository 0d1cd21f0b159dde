/*
 * bench/analysis.c: what the game analyses cost (issue 14).
 *
 *   bench_analysis [--shared DIR] [--seconds S] [--states N] [--seed S] [GAME.kif ...]
 *
 * Part 1, per game (default: the headline corpus games, reversi,
 * connectFour, breakthrough, ticTacToe, checkers, chess_200, hex and
 * amazons_10x10 of DIR/games/ggp-repository): the seconds of
 * gdl_analysis_new (grounding and the network included) and of the
 * game-level analyses alone (gdl_analysis_seconds), the network's claims
 * counted by kind, and how many states the joint latches were sought from.
 * A game past the grounding budgets is reported with the grounder's
 * message.
 *
 * Part 2, on breakthrough and connectFour: N states (default 200) from
 * seeded random playthroughs (gdl_state_random_joint_move, every state of each
 * playthrough, terminal ones included), then microseconds per call of
 * gdl_analysis_goal_range, gdl_analysis_winning_moves and
 * gdl_analysis_goal_distance, each over every state and role in turn
 * (every call on another state, so each pays for mapping its state),
 * repeated for S seconds per query (default 0.3), with the number of
 * winning moves found and the mean distance as a sanity check.
 *
 * --level-only and --queries-only run one part, --no-header leaves the
 * column names out, --header-only prints them alone. A benchmark, not a test: it fails only when a game
 * cannot be loaded. bench/analysis.sh builds it and runs it one game at a
 * time, each under a time limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdl.h"

static const char *const HEADLINE[] = {"reversi", "connectFour", "breakthrough", "ticTacToe",
                                       "checkers", "chess_200", "hex", "amazons_10x10"};
static const char *const QUERIED[] = {"breakthrough", "connectFour"};

static const char *const KIND[GDL_CLAIM_NKINDS] = {"latch", "joint", "goal", "inhib", "dead",
                                                   "control", "irrel", "part"};

static GdlGame *load(const char *path)
{
    GdlGame *g = NULL;
    if (gdl_game_load_file(path, &g, NULL) != GDL_OK) {
        fprintf(stderr, "bench_analysis: cannot load %s\n", path);
        exit(1);
    }
    return g;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Part 1: one line per game. */
static void game_level(const char *path)
{
    GdlGame *g = load(path);
    GdlMachine *m = NULL;
    if (gdl_machine_new(g, "ref", &m) != GDL_OK) {
        printf("%-22s machine: %s\n", base_name(path), gdl_game_error(g));
        gdl_game_free(g);
        return;
    }
    GdlAnalysis *a = NULL;
    double t0 = gdl_now();
    GdlStatus st = gdl_analysis_new(m, NULL, &a);
    double total = gdl_now() - t0;
    if (st != GDL_OK) {
        printf("%-22s %s after %.3f s: %s\n", base_name(path), gdl_status_name(st), total, gdl_machine_error(m));
    } else {
        printf("%-22s %8.3f %8.3f %7u", base_name(path), total, gdl_analysis_seconds(a), gdl_analysis_sampled(a));
        for (int k = 0; k < GDL_CLAIM_NKINDS; k++)
            printf(" %7zu", gdl_analysis_count(a, (GdlClaimKind)k));
        printf("\n");
    }
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* States of seeded random playthroughs, n of them. */
static GdlState **playthrough_states(GdlMachine *m, uint64_t seed, size_t n)
{
    GdlState **v = calloc(n + 1, sizeof *v);
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    GdlMove joint[64];
    GdlState *s = NULL;
    for (size_t k = 0; k < n;) {
        if (!s && gdl_state_initial(m, &s) != GDL_OK)
            break;
        v[k++] = gdl_state_copy(s);
        bool terminal = true;
        if (gdl_state_is_terminal(m, s, &terminal) != GDL_OK || terminal || gdl_state_random_joint_move(m, s, &rng, joint) != GDL_OK) {
            gdl_state_free(s);
            s = NULL;
            continue;
        }
        GdlState *next = NULL;
        if (gdl_state_next(m, s, joint, &next) != GDL_OK)
            break;
        gdl_state_free(s);
        s = next;
    }
    gdl_state_free(s);
    return v;
}

enum { Q_RANGE, Q_WIN, Q_DIST };

/* Microseconds per call of query q over every state and role, repeated
 * for at least seconds; *found sums what the calls found. */
static double per_call(GdlAnalysis *a, int q, GdlState **states, size_t n, unsigned nroles, double seconds,
                       double *found)
{
    uint64_t calls = 0;
    double sum = 0, t0 = gdl_now(), t = t0;
    do {
        sum = 0;
        for (size_t i = 0; i < n; i++)
            for (unsigned r = 0; r < nroles; r++) {
                int lo, hi, d;
                const GdlMove *win, *lose;
                size_t nwin, nlose;
                if (q == Q_RANGE && gdl_analysis_goal_range(a, states[i], r, &lo, &hi) == GDL_OK)
                    sum += hi - lo;
                else if (q == Q_WIN && gdl_analysis_winning_moves(a, states[i], r, &win, &nwin, &lose, &nlose) == GDL_OK)
                    sum += (double)(nwin + nlose);
                else if (q == Q_DIST && gdl_analysis_goal_distance(a, states[i], r, &d) == GDL_OK)
                    sum += d;
                calls++;
            }
        t = gdl_now();
    } while (t - t0 < seconds);
    *found = sum;
    return (t - t0) * 1e6 / (double)calls;
}

/* Part 2: the per-state queries on one game. */
static void queries(const char *path, size_t nstates, uint64_t seed, double seconds)
{
    GdlGame *g = load(path);
    unsigned nroles = gdl_game_role_count(g);
    GdlMachine *m = NULL;
    if (gdl_machine_new(g, "pn", &m) != GDL_OK && gdl_machine_new(g, "ref", &m) != GDL_OK) {
        printf("%-22s machine: %s\n", base_name(path), gdl_game_error(g));
        gdl_game_free(g);
        return;
    }
    GdlAnalysis *a = NULL;
    if (gdl_analysis_new(m, NULL, &a) != GDL_OK) {
        printf("%-22s analysis: %s\n", base_name(path), gdl_machine_error(m));
        gdl_machine_free(m);
        gdl_game_free(g);
        return;
    }
    GdlState **states = playthrough_states(m, seed, nstates);
    size_t n = 0;
    while (n < nstates && states[n])
        n++;
    double fr, fw, fd;
    double ur = per_call(a, Q_RANGE, states, n, nroles, seconds, &fr);
    double uw = per_call(a, Q_WIN, states, n, nroles, seconds, &fw);
    double ud = per_call(a, Q_DIST, states, n, nroles, seconds, &fd);
    double calls = (double)n * nroles;
    printf("%-22s %6zu %10.2f %10.2f %10.2f   mean range width %.1f, moves won/lost %.0f, mean distance %.2f\n",
           base_name(path), n, ur, uw, ud, fr / calls, fw, fd / calls);
    for (size_t i = 0; i < n; i++)
        gdl_state_free(states[i]);
    free(states);
    gdl_analysis_free(a);
    gdl_machine_free(m);
    gdl_game_free(g);
}

int main(int argc, char **argv)
{
    const char *shared = getenv("GDL_SHARED") ? getenv("GDL_SHARED") : "../shared";
    double seconds = 0.3;
    size_t nstates = 200;
    uint64_t seed = 1;
    int first = argc;
    bool level = true, query = true, header = true, only_header = false;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shared") && i + 1 < argc)
            shared = argv[++i];
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--states") && i + 1 < argc)
            nstates = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--level-only"))
            query = false;
        else if (!strcmp(argv[i], "--queries-only"))
            level = false;
        else if (!strcmp(argv[i], "--no-header"))
            header = false;
        else if (!strcmp(argv[i], "--header-only"))
            only_header = true;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: bench_analysis [--shared DIR] [--seconds S] [--states N] [--seed S] [--level-only | "
                            "--queries-only] [--no-header | --header-only] [GAME.kif ...]\n");
            return 2;
        } else {
            first = i;
            break;
        }
    }
    char path[4096];
    if (level && header) {
        printf("%-22s %8s %8s %7s", "game", "new_s", "anal_s", "sampled");
        for (int k = 0; k < GDL_CLAIM_NKINDS; k++)
            printf(" %7s", KIND[k]);
        printf("\n");
    }
    if (only_header)
        level = false; /* the loops below: none */
    if (level && first < argc)
        for (int i = first; i < argc; i++)
            game_level(argv[i]);
    else if (level)
        for (size_t i = 0; i < sizeof HEADLINE / sizeof *HEADLINE; i++) {
            snprintf(path, sizeof path, "%s/games/ggp-repository/%s.kif", shared, HEADLINE[i]);
            game_level(path);
        }
    if (query && header)
        printf("%s%-22s %6s %10s %10s %10s   (microseconds per call, seed %llu)\n", level ? "\n" : "", "game",
               "states", "range_us", "winning_us", "distance_us", (unsigned long long)seed);
    if (only_header)
        return 0;
    if (query && first < argc)
        for (int i = first; i < argc; i++)
            queries(argv[i], nstates, seed, seconds);
    else if (query)
        for (size_t i = 0; i < sizeof QUERIED / sizeof *QUERIED; i++) {
            snprintf(path, sizeof path, "%s/games/ggp-repository/%s.kif", shared, QUERIED[i]);
            queries(path, nstates, seed, seconds);
        }
    return 0;
}
