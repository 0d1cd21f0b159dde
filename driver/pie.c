/* pie.c: `gdlc pie` (placeholder; being written). */
#include <stdio.h>

#include "cli.h"

static int run(CliArgs *a)
{
    fprintf(stderr, "gdlc pie: not built yet\n");
    return CLI_USAGE;
}
const CliCommand cli_pie = {"pie", "the pie-rule variant of a two-player game (being built)", "usage: gdlc pie\n", run};
