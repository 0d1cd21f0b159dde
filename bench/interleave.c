/*
 * interleave.c: engines of one game side by side in one process, in short
 * alternating slices, so that the host's drift (this machine's cells move
 * by 10-30% from minute to minute) falls on every engine alike:
 *
 *   bench/interleave GAME SECONDS SLICE_MS ENGINE...
 *
 * One machine per engine (`jit`, `pn:ordered`, `pn:queued`, ...), each
 * playing random playouts as `gdlc bench` does (every role's legal moves,
 * a random move each, the next state into one of two states kept, terminal
 * every step, goals at the end; all through the public calls), for
 * SLICE_MS at a time, in turn, until each has played about SECONDS. A
 * playout goes on where it stopped in the engine's next slice. Prints each
 * engine's state changes per second over its slices and its ratio to the
 * first engine's, then the median of the ratios of each round's slices
 * (a round: one slice of every engine), the steadier figure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/gdl.h"

typedef struct Player {
    const char *engine;
    GdlMachine *m;
    GdlState *init, *s, *buf[2];
    unsigned which;
    GdlRng rng;
    unsigned long long changes;
    double seconds;
    double *rate; /* per round */
} Player;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Plays p for about slice seconds; the number of state changes, or -1. */
static long long play(Player *p, unsigned nroles, double slice, GdlMove *joint, int *goals)
{
    long long changes = 0;
    double end = gdl_now() + slice;
    do {
        for (int i = 0; i < 64; i++) { /* the clock read every 64 steps */
            bool t;
            if (gdl_state_is_terminal(p->m, p->s, &t) != GDL_OK)
                return -1;
            if (t) {
                if (gdl_state_goals(p->m, p->s, goals) != GDL_OK)
                    return -1;
                p->s = p->init;
                continue;
            }
            for (unsigned k = 0; k < nroles; k++) {
                const GdlMove *mv;
                size_t nm;
                if (gdl_state_legal(p->m, p->s, k, &mv, &nm) != GDL_OK || !nm)
                    return -1;
                joint[k] = mv[gdl_rng_below(&p->rng, nm)];
            }
            GdlState **out = &p->buf[p->which];
            if (gdl_state_next_into(p->m, p->s, joint, out) != GDL_OK)
                return -1;
            p->s = *out;
            p->which ^= 1;
            changes++;
        }
    } while (gdl_now() < end);
    return changes;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: interleave GAME SECONDS SLICE_MS ENGINE...\n");
        return 2;
    }
    double seconds = atof(argv[2]), slice = atof(argv[3]) / 1000;
    int n = argc - 4;
    if (seconds <= 0 || slice <= 0) {
        fprintf(stderr, "interleave: SECONDS and SLICE_MS must be positive\n");
        return 2;
    }
    GdlGame *g;
    GdlDiagnostics *d = NULL;
    if (gdl_game_load_file(argv[1], &g, &d) != GDL_OK) {
        gdl_diagnostics_print(stderr, d, false);
        return 1;
    }
    gdl_diagnostics_free(d);
    unsigned nroles = gdl_game_role_count(g);
    size_t rounds = (size_t)(seconds / slice) + 1;
    Player *pl = calloc((size_t)n, sizeof *pl);
    GdlMove *joint = calloc(nroles + 1, sizeof *joint);
    int *goals = calloc(nroles + 1, sizeof *goals);
    if (!pl || !joint || !goals)
        return 1;
    for (int i = 0; i < n; i++) {
        Player *p = &pl[i];
        p->engine = argv[4 + i];
        if (gdl_machine_new(g, p->engine, &p->m) != GDL_OK) {
            fprintf(stderr, "interleave: %s: %s\n", p->engine, gdl_game_error(g));
            return 1;
        }
        if (gdl_state_initial(p->m, &p->init) != GDL_OK)
            return fprintf(stderr, "interleave: %s: %s\n", p->engine, gdl_machine_error(p->m)), 1;
        p->s = p->init;
        gdl_rng_seed(&p->rng, 1);
        p->rate = calloc(rounds, sizeof *p->rate);
        if (!p->rate)
            return 1;
    }
    size_t r = 0;
    for (; r < rounds; r++)
        for (int i = 0; i < n; i++) {
            Player *p = &pl[(size_t)i];
            double t0 = gdl_now();
            long long c = play(p, nroles, slice, joint, goals);
            double dt = gdl_now() - t0;
            if (c < 0)
                return fprintf(stderr, "interleave: %s: %s\n", p->engine, gdl_machine_error(p->m)), 1;
            p->changes += (unsigned long long)c;
            p->seconds += dt;
            p->rate[r] = (double)c / dt;
        }
    double *ratio = calloc(rounds, sizeof *ratio);
    if (!ratio)
        return 1;
    for (int i = 0; i < n; i++) {
        Player *p = &pl[i];
        double rate = (double)p->changes / p->seconds, first = (double)pl[0].changes / pl[0].seconds;
        for (size_t k = 0; k < r; k++)
            ratio[k] = p->rate[k] / pl[0].rate[k];
        qsort(ratio, r, sizeof *ratio, cmp_double);
        printf("%-24s %12.0f state changes/s  %.3f of %s  (median of %zu rounds: %.3f)  plan: %s\n", p->engine,
               rate, rate / first, pl[0].engine, r, ratio[r / 2], gdl_machine_plan(p->m));
    }
    free(ratio);
    for (int i = 0; i < n; i++) {
        gdl_state_free(pl[i].buf[0]);
        gdl_state_free(pl[i].buf[1]);
        gdl_state_free(pl[i].init);
        gdl_machine_free(pl[i].m);
        free(pl[i].rate);
    }
    free(pl);
    free(joint);
    free(goals);
    gdl_game_free(g);
    return 0;
}
