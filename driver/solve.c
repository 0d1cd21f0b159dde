/* driver/solve.c: `gdlc solve` (placeholder, filled by its owner, issue 15). */
#include "cli.h"

static int run(CliArgs *a)
{
    (void)a;
    return cli_usage_error("solve", "not built yet");
}

const CliCommand cli_solve = {"solve", "prove a game's value with a checkable proof", "usage: gdlc solve GAME.kif\n", run};
