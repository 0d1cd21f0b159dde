/* match.c: `gdlc match` and `gdlc balance` (placeholder; being written). */
#include <stdio.h>

#include "cli.h"

static int run(CliArgs *a)
{
    fprintf(stderr, "gdlc %s: not built yet\n", a->cmd);
    return CLI_USAGE;
}
const CliCommand cli_match = {"match", "run matches between players (being built)", "usage: gdlc match\n", run};
const CliCommand cli_balance = {"balance", "measure the first player's advantage (being built)", "usage: gdlc balance\n", run};
