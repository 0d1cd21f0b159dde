/* mc_player.c: a flat Monte-Carlo player, the first player GGP courses
 * write. For each legal move of its role it plays depth charges (random
 * playouts, run by the library's own loop at the engine's full speed) from
 * the states the move leads to, the other roles moving at random, and plays
 * the move with the best mean goal. Here it plays one match against random
 * opponents and prints the moves and the goals.
 * Build against an installed gdlc:
 *   cc -std=c11 mc_player.c $(pkg-config --cflags --libs --static gdl)
 * Run: ./a.out GAME.kif ROLE [CHARGES-PER-MOVE [ENGINE]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gdl.h>

static int fail(GdlMachine *m)
{
    fprintf(stderr, "mc_player: %s\n", gdl_machine_error(m));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s GAME.kif ROLE [CHARGES-PER-MOVE [ENGINE]]\n", argv[0]);
        return 2;
    }
    int charges = argc > 3 ? atoi(argv[3]) : 100;
    GdlGame *game;
    GdlDiagnostics *diags;
    if (gdl_game_load_file(argv[1], &game, &diags) != GDL_OK) {
        gdl_diagnostics_print(stderr, diags, true);
        gdl_diagnostics_free(diags);
        return 1;
    }
    gdl_diagnostics_free(diags);
    unsigned me, nroles = gdl_game_role_count(game);
    if (gdl_game_role_find(game, argv[2], &me) != GDL_OK || charges < 1) {
        fprintf(stderr, "mc_player: no role '%s', or a bad number of charges\n", argv[2]);
        return 2;
    }
    GdlMachine *m;
    char *err;
    if (gdl_machine_new(game, argc > 4 ? argv[4] : NULL, &m) != GDL_OK) {
        fprintf(stderr, "mc_player: %s\n", gdl_game_error(game));
        free(err);
        return 1;
    }
    GdlMove *joint = calloc(nroles, sizeof *joint), *mine = NULL;
    int *goals = calloc(nroles, sizeof *goals);
    GdlRng rng;
    gdl_rng_seed(&rng, 2026);
    GdlState *s, *child = NULL; /* child is reused: no allocation per step */
    if (gdl_state_initial(m, &s) != GDL_OK)
        return fail(m);
    bool terminal;
    while (gdl_state_is_terminal(m, s, &terminal) == GDL_OK && !terminal) {
        gdl_machine_set_deadline(m, gdl_now() + 10.0); /* never blow the play clock */
        /* The legal moves point into the machine until its next call: copy. */
        const GdlMove *legal;
        size_t n;
        if (gdl_state_legal(m, s, me, &legal, &n) != GDL_OK)
            return fail(m);
        mine = realloc(mine, n * sizeof *mine);
        memcpy(mine, legal, n * sizeof *mine);
        size_t best = 0;
        double best_mean = -1;
        for (size_t i = 0; i < n && n > 1; i++) {
            long total = 0;
            for (int c = 0; c < charges; c++) {
                uint64_t depth;
                if (gdl_state_random_joint_move(m, s, &rng, joint) != GDL_OK)
                    return fail(m);
                joint[me] = mine[i];
                if (gdl_state_next_into(m, s, joint, &child) != GDL_OK ||
                    gdl_state_depth_charge(m, child, &rng, 0, goals, &depth) != GDL_OK)
                    return fail(m);
                total += goals[me];
            }
            if ((double)total / charges > best_mean)
                best_mean = (double)total / charges, best = i;
        }
        if (gdl_state_random_joint_move(m, s, &rng, joint) != GDL_OK)
            return fail(m);
        joint[me] = mine[best];
        for (unsigned r = 0; r < nroles; r++)
            printf("%s plays %s\n", gdl_game_role_name(game, r), gdl_move_text(m, joint[r]));
        if (gdl_state_next_into(m, s, joint, &s) != GDL_OK)
            return fail(m);
    }
    if (gdl_state_goals(m, s, goals) != GDL_OK)
        return fail(m);
    for (unsigned r = 0; r < nroles; r++)
        printf("%s scores %d\n", gdl_game_role_name(game, r), goals[r]);
    free(mine);
    free(goals);
    free(joint);
    gdl_state_free(child);
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(game);
    return 0;
}
