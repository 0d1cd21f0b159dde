/*
 * check_proof.c: gdlc check-proof GAME FILE [--engine E], the command
 * over the independent proof checker (solve/check.c, docs/proofs.md): it
 * opens the game and the machine, reads the file, and prints the
 * checker's verdict: "ok: ROLE gets [LO, HI] (N nodes checked)" (exit 0)
 * or its first failure, FILE:LINE: error: node ID: message (exit 1).
 */
#include <string.h>

#include "../include/gdl.h"
#include "../solve/check.h"
#include "cli.h"

static int run(CliArgs *a)
{
    const char *engine = "ref", *paths[2] = {NULL, NULL}, *v;
    unsigned npaths = 0;
    bool bad = false;
    while (a->i < a->argc) {
        if (cli_opt_value(a, "--engine", &v, &bad)) {
            if (bad)
                return CLI_USAGE;
            engine = v;
        } else if (a->argv[a->i][0] == '-' && a->argv[a->i][1])
            return cli_usage_error(a->cmd, "unknown option '%s'", a->argv[a->i]);
        else if (npaths == 2)
            return cli_usage_error(a->cmd, "give a game and a proof file");
        else
            paths[npaths++] = a->argv[a->i++];
    }
    if (npaths != 2)
        return cli_usage_error(a->cmd, "give a game and a proof file");
    char *text = NULL, *err = NULL;
    size_t len = 0;
    bool big = false;
    text = base_read_file(paths[1], &len, &err, &big);
    if (!text) {
        fprintf(stderr, "gdlc %s: %s\n", a->cmd, err ? err : "cannot read the proof");
        free(err);
        return big ? CLI_FAULT : CLI_USAGE;
    }
    GdlGame *game = NULL;
    GdlMachine *m = NULL;
    int rc = cli_open_machine(a->cmd, paths[0], engine, &game, &m, NULL);
    if (rc != CLI_OK)
        goto out;
    unsigned nroles = gdl_game_role_count(game);
    if (nroles < 1 || nroles > 2) {
        fprintf(stderr, "gdlc %s: %s has %u roles; proofs are of puzzles and two-player games\n", a->cmd, paths[0],
                nroles);
        rc = CLI_FAULT;
        goto out;
    }
    ProofCheck pc;
    if (proof_check(game, m, paths[1], text, len, &pc)) {
        printf("ok: %s gets [%d, %d] (%llu node%s checked)\n", gdl_game_role_name(game, 0), pc.lo, pc.hi,
               (unsigned long long)pc.nodes, pc.nodes == 1 ? "" : "s");
        /* a proof may start anywhere: say whether its value is the game's */
        printf("from: %s\n", pc.from_initial ? "the initial state"
                                              : "the state the proof's start line names, not the initial state");
        rc = CLI_OK;
    } else {
        fflush(stdout);
        fprintf(stderr, "%s\n", pc.error);
        rc = CLI_FAULT;
    }
    proof_check_free(&pc);
out:
    free(text);
    free(err);
    gdl_machine_free(m);
    gdl_game_free(game);
    return rc;
}

const CliCommand cli_check_proof = {
    "check-proof",
    "check a proof written by gdlc solve, with the ref engine",
    "usage: gdlc check-proof GAME.kif PROOF [--engine E]\n"
    "\n"
    "Checks a proof of the first role's score (docs/proofs.md, format version\n"
    "1) by replaying it with a state machine, independently of the solver:\n"
    "every node's state is parsed, every edge's next state computed and\n"
    "compared with its child's (through the symmetry the edge names), the\n"
    "proving role's move must be legal and every other role's every legal\n"
    "move covered, every line must end (no cycle) in a terminal state whose\n"
    "goal respects the bound, and every symmetry the proof lists must be a\n"
    "bijection, the set a group, each one commuting with the game at every\n"
    "node.\n"
    "\n"
    "  --engine E       the machine that replays it (default ref)\n"
    "\n"
    "A valid proof prints 'ok: ROLE gets [LO, HI] (N nodes checked)'. The first\n"
    "failure is printed as FILE:LINE: error: node ID: what is wrong.\n"
    "\n"
    "exit status: 0 the proof holds; 1 it does not (or the file is malformed,\n"
    "or the game is rejected); 2 usage error or unreadable file\n",
    run,
};
