/*
 * playouts.c: a fixed, seeded workload for instruction counts
 * (valgrind --tool=callgrind): bench/playouts GAME ENGINE N [step|into|charge] [SEED].
 * "step" (the default) plays N random playouts through the per-step API
 * (every role's legal moves, a random move each, next state; terminal every
 * step, goals at the end), each next state a new one (gdl_state_next);
 * "into" the same into two states kept, as `gdlc bench` and
 * bench/interleave.c do (gdl_state_next_into); "charge" runs N
 * gdl_state_depth_charge calls from the initial state. Prints the state changes
 * and a checksum of the goals, so that two engines can be compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/gdl.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: playouts GAME ENGINE N [step|into|charge] [SEED]\n");
        return 2;
    }
    const char *mode = argc > 4 ? argv[4] : "step";
    unsigned long long seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
    long n = atol(argv[3]);
    GdlGame *g;
    GdlDiagnostics *d = NULL;
    if (gdl_game_load_file(argv[1], &g, &d) != GDL_OK) {
        gdl_diagnostics_print(stderr, d, false);
        return 1;
    }
    gdl_diagnostics_free(d);
    GdlMachine *m;
    if (gdl_machine_new(g, argv[2], &m) != GDL_OK) {
        fprintf(stderr, "%s\n", gdl_game_error(g));
        return 1;
    }
    unsigned nroles = gdl_game_role_count(g);
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    GdlState *init;
    if (gdl_state_initial(m, &init) != GDL_OK)
        return 1;
    int goals[64];
    GdlMove joint[64];
    unsigned long long changes = 0, sum = 0;
    bool into = strcmp(mode, "into") == 0;
    GdlState *buf[2] = {NULL, NULL};
    unsigned which = 0;
    for (long i = 0; i < n; i++) {
        if (strcmp(mode, "charge") == 0) {
            uint64_t depth;
            if (gdl_state_depth_charge(m, init, &rng, 0, goals, &depth) != GDL_OK)
                return fprintf(stderr, "%s\n", gdl_machine_error(m)), 1;
            changes += depth;
        } else {
            GdlState *s = into ? init : gdl_state_copy(init), *next;
            for (;;) {
                bool t;
                if (gdl_state_is_terminal(m, s, &t) != GDL_OK)
                    return fprintf(stderr, "%s\n", gdl_machine_error(m)), 1;
                if (t)
                    break;
                for (unsigned k = 0; k < nroles; k++) {
                    const GdlMove *mv;
                    size_t nm;
                    if (gdl_state_legal(m, s, k, &mv, &nm) != GDL_OK)
                        return fprintf(stderr, "%s\n", gdl_machine_error(m)), 1;
                    joint[k] = mv[gdl_rng_below(&rng, nm)];
                }
                if (into) {
                    if (gdl_state_next_into(m, s, joint, &buf[which]) != GDL_OK)
                        return fprintf(stderr, "%s\n", gdl_machine_error(m)), 1;
                    s = buf[which];
                    which ^= 1;
                } else {
                    if (gdl_state_next(m, s, joint, &next) != GDL_OK)
                        return fprintf(stderr, "%s\n", gdl_machine_error(m)), 1;
                    gdl_state_free(s);
                    s = next;
                }
                changes++;
            }
            if (gdl_state_goals(m, s, goals) != GDL_OK)
                return fprintf(stderr, "%s\n", gdl_machine_error(m)), 1;
            if (!into)
                gdl_state_free(s);
        }
        for (unsigned k = 0; k < nroles; k++)
            sum = sum * 31 + (unsigned)goals[k];
    }
    printf("%s %s %s: %ld playouts, %llu state changes, goal checksum %llu\n", argv[1], argv[2], mode, n, changes, sum);
    gdl_state_free(buf[0]);
    gdl_state_free(buf[1]);
    gdl_state_free(init);
    gdl_machine_free(m);
    gdl_game_free(g);
    return 0;
}
