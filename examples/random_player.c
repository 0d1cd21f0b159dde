/* random_player.c: embedding gdlc in a player. Loads a game, then plays it
 * to the end choosing random legal moves, within a time budget per move.
 * Build against an installed gdlc (the library is static, so --static):
 *   cc -std=c11 random_player.c $(pkg-config --cflags --libs --static gdl) */
#include <stdio.h>
#include <stdlib.h>

#include <gdl.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s GAME.kif\n", argv[0]);
        return 2;
    }
    GdlGame *game;
    GdlDiagnostics *diags;
    if (gdl_game_load_file(argv[1], &game, &diags) != GDL_OK) {
        gdl_diagnostics_print(stderr, diags, true); /* file:line:col: error: ... */
        gdl_diagnostics_free(diags);
        return 1;
    }
    gdl_diagnostics_free(diags);
    GdlMachine *m;
    char *err;
    if (gdl_machine_new(game, "ref", &m) != GDL_OK) {
        fprintf(stderr, "%s\n", gdl_game_error(game));
        free(err);
        return 1;
    }
    unsigned nroles = gdl_game_role_count(game);
    GdlMove *joint = calloc(nroles, sizeof *joint);
    GdlRng rng;
    gdl_rng_seed(&rng, 7);
    GdlState *s;
    gdl_state_initial(m, &s);
    bool terminal = false;
    while (gdl_state_is_terminal(m, s, &terminal) == GDL_OK && !terminal) {
        gdl_machine_set_deadline(m, gdl_now() + 1.0); /* never blow the play clock */
        for (unsigned r = 0; r < nroles; r++) {
            const GdlMove *moves;
            size_t n;
            if (gdl_state_legal(m, s, r, &moves, &n) != GDL_OK) {
                fprintf(stderr, "%s\n", gdl_machine_error(m));
                return 1;
            }
            joint[r] = moves[gdl_rng_below(&rng, n)];
            printf("%s plays %s\n", gdl_game_role_name(game, r), gdl_move_text(m, joint[r]));
        }
        GdlState *next;
        if (gdl_state_next(m, s, joint, &next) != GDL_OK) {
            fprintf(stderr, "%s\n", gdl_machine_error(m));
            return 1;
        }
        gdl_state_free(s);
        s = next;
    }
    int *goals = calloc(nroles, sizeof *goals);
    if (gdl_state_goals(m, s, goals) == GDL_OK)
        for (unsigned r = 0; r < nroles; r++)
            printf("%s scores %d\n", gdl_game_role_name(game, r), goals[r]);
    free(goals);
    free(joint);
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(game);
    return 0;
}
