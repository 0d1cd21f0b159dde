/*
 * api_errors.h: the calls that make machines and analyses, with their
 * message copied out as the tests read it: *err is NULL on success, else a
 * copy (to free) of the object's error channel (gdl.h: Errors), of the
 * game for a machine, of the machine for an analysis.
 */
#ifndef GDLC_TEST_API_ERRORS_H
#define GDLC_TEST_API_ERRORS_H

#include <stdlib.h>
#include <string.h>

#include "gdl.h"

static inline char *test_error_copy(GdlStatus st, const char *message)
{
    return st == GDL_OK ? NULL : strdup(message);
}

static inline GdlStatus test_machine_new(const GdlGame *g, const char *engine, GdlMachine **m, char **err)
{
    GdlStatus st = gdl_machine_new(g, engine, m);
    if (err)
        *err = test_error_copy(st, gdl_game_error(g));
    return st;
}

static inline GdlStatus test_machine_new_filtered(const GdlGame *g, const char *engine, const char *options,
                                                  unsigned filters, unsigned role, GdlMachine **m, char **err)
{
    GdlStatus st = gdl_machine_new_filtered(g, engine, options, filters, role, m);
    if (err)
        *err = test_error_copy(st, gdl_game_error(g));
    return st;
}

static inline GdlStatus test_analysis_new(GdlMachine *m, const char *options, GdlAnalysis **a, char **err)
{
    GdlStatus st = gdl_analysis_new(m, options, a);
    if (err)
        *err = test_error_copy(st, gdl_machine_error(m));
    return st;
}

#endif
