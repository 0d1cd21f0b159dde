/* gengdl.c: prints the random game of a seed (gengdl SEED; gengdl --flat
 * SEED for gen_flat_game's), to read or to reproduce a failure of the
 * differential test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

int main(int argc, char **argv)
{
    int flat = argc == 3 && strcmp(argv[1], "--flat") == 0;
    if (argc != 2 + flat) {
        fprintf(stderr, "usage: gengdl [--flat] SEED\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[1 + flat], NULL, 10);
    char *g = flat ? gen_flat_game(seed) : gen_game(seed);
    fputs(g, stdout);
    free(g);
    return 0;
}
