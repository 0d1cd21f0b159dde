/* api_helpers.h: the public API (gdl.h) inside a test: a game from text,
 * a move among moves. */
#ifndef GDLC_TEST_API_HELPERS_H
#define GDLC_TEST_API_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gdl.h"
#include "../lib/api_errors.h"

/* The game of KIF text; its diagnostics printed, and the test failed,
 * when it is refused. */
static inline GdlGame *load_text(const char *text)
{
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_string("t.kif", text, strlen(text), &g, &d);
    if (st != GDL_OK)
        gdl_diagnostics_print(stderr, d, true);
    gdl_diagnostics_free(d);
    assert_int_equal(st, GDL_OK);
    return g;
}

/* Whether the move (or proposition) named text is among the n of moves. */
static inline bool has_move(GdlMachine *m, const GdlMove *moves, size_t n, const char *text)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(gdl_move_text(m, moves[i]), text) == 0)
            return true;
    return false;
}

#endif
