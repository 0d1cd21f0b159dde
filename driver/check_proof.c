/* driver/check_proof.c: `gdlc check-proof` (placeholder, filled by its owner, issue 15). */
#include "cli.h"

static int run(CliArgs *a)
{
    (void)a;
    return cli_usage_error("check-proof", "not built yet");
}

const CliCommand cli_check_proof = {"check-proof", "check a proof written by gdlc solve, with the ref engine",
                                    "usage: gdlc check-proof GAME.kif PROOF\n", run};
