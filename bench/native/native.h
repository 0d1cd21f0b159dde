/*
 * native.h: the random-playthrough loop of the hand-written baselines.
 *
 * A game file defines State, Move, NROLES, MAXMOVES and the five functions
 * below, then includes this file, which supplies main(). The loop is gdlc's
 * (driver/play.c): from the initial state, until terminal, each role in
 * order draws its move with gdl_rng_below over its legal moves in canonical
 * order (the byte order of their KIF text), then the next state; goals at
 * the end. With the same seed it makes the same choices as `gdlc play`, which
 * is how tests/bench/native.sh shows the baselines are faithful.
 *
 * The baselines: reversi.c and amazons_split.c play our games/reversi.kif
 * and games/amazons_split.kif; reversi_corpus.c, connectFour.c and
 * breakthrough.c play the corpus files of the same names in
 * ggp-repository/ of the shared corpus (GDL_SHARED), the ones the peers are
 * measured on. tests/bench/native.sh checks each against its file; bench/run.sh
 * maps each file to its baseline.
 *
 *   native_GAME [--seconds S] [--seed N] [--json]   benchmark, like gdlc bench
 *   native_GAME --counts SEED                       one playthrough: the number
 *                                                   of legal moves of each role
 *                                                   at each step
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static void initial(State *s);
static int terminal(const State *s);
static void goals(const State *s, int *out);
/* The role's legal moves in canonical order; returns how many. */
static int legal(const State *s, int role, Move *out);
static void next(State *s, const Move *joint);

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t x = rng_next();
        if (x < limit)
            return x % n;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static Move moves[MAXMOVES];

/* One playthrough; returns its number of state changes. counts: print the
 * legal move counts. */
static uint64_t playout(int counts)
{
    State s;
    Move joint[NROLES];
    int g[NROLES];
    uint64_t steps = 0;
    initial(&s);
    while (!terminal(&s)) {
        for (int r = 0; r < NROLES; r++) {
            int n = legal(&s, r, moves);
            if (counts)
                printf("step %llu role %d moves %d\n", (unsigned long long)steps, r, n);
            joint[r] = moves[rng_below((uint64_t)n)];
        }
        next(&s, joint);
        steps++;
    }
    goals(&s, g);
    if (counts) {
        printf("goals");
        for (int r = 0; r < NROLES; r++)
            printf(" %d", g[r]);
        printf("\n");
    }
    return steps;
}

int main(int argc, char **argv)
{
    double seconds = 10;
    uint64_t seed = 1;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--counts") == 0 && i + 1 < argc) {
            rng_state = strtoull(argv[++i], NULL, 10);
            playout(1);
            return 0;
        } else {
            fprintf(stderr, "usage: %s [--seconds S] [--seed N] [--json] | --counts SEED\n", argv[0]);
            return 2;
        }
    }
    rng_state = seed;
    double t0 = now(), end = t0 + seconds, t;
    uint64_t changes = 0, playouts = 0;
    do {
        changes += playout(0);
        playouts++;
        t = now();
    } while (t < end);
    double el = t - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (json)
        printf("{\"game\": \"%s\", \"engine\": \"native\", \"seconds\": %.3f, \"state_changes\": %llu, \"playouts\": %llu, "
               "\"capped_playouts\": 0, \"state_changes_per_s\": %.1f, \"playouts_per_s\": %.2f, \"avg_depth\": %.2f, "
               "\"load_to_ready_s\": 0, \"peak_rss_kb\": %ld}\n",
               GAME_NAME, el, (unsigned long long)changes, (unsigned long long)playouts, changes / el, playouts / el,
               (double)changes / (double)playouts, ru.ru_maxrss);
    else
        printf("%s (native): %llu state changes (%.1f per second), %llu playouts (%.2f per second), peak memory %ld KiB\n",
               GAME_NAME, (unsigned long long)changes, changes / el, (unsigned long long)playouts, playouts / el,
               ru.ru_maxrss);
    return 0;
}
