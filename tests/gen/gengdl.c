/* gengdl.c: prints the random game of a seed (gengdl SEED), to read or to
 * reproduce a failure of the differential test. */
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gengdl SEED\n");
        return 2;
    }
    char *g = gen_game(strtoull(argv[1], NULL, 10));
    fputs(g, stdout);
    free(g);
    return 0;
}
