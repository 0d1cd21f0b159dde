/* corpus.h: a game of the shared corpus (GDL_SHARED) inside a test. A
 * game that is not there is a visible skip, and a failure when CI=true. */
#ifndef GDLC_TEST_CORPUS_H
#define GDLC_TEST_CORPUS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Whether the corpus file at path is there; when not, the skip. */
static inline bool corpus_there(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f) {
        fclose(f);
        return true;
    }
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0)
        fail_msg("the shared corpus is missing: %s (set GDL_SHARED)", path);
    print_message("SKIP: %s: not found (set GDL_SHARED)\n", path);
    return false;
}

#ifdef GDLC_SHARED_DIR
/* The path of a corpus game (under games/) in path; false, with the skip,
 * when it is not there. */
static inline bool corpus_path(char *path, size_t cap, const char *game)
{
    snprintf(path, cap, "%s/games/%s", GDLC_SHARED_DIR, game);
    return corpus_there(path);
}
#endif

#endif
