/* player.c: `gdlc player` (placeholder; being written). */
#include <stdio.h>

#include "cli.h"

static int run(CliArgs *a)
{
    fprintf(stderr, "gdlc player: not built yet\n");
    return CLI_USAGE;
}
const CliCommand cli_player = {"player", "play GGP matches over HTTP (being built)", "usage: gdlc player\n", run};
