/* helpers.h: running the front end on a string inside a test. */
#ifndef GDLC_TEST_HELPERS_H
#define GDLC_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "front.h"

/* Runs the whole front end on text. */
static inline bool run_text(Front *f, const char *text)
{
    return front_run(f, "test.kif", base_xstrdup(text), strlen(text));
}

/* The index of the first diagnostic of severity sev whose message contains
 * needle, or -1. */
static inline int find_diag(const Front *f, DiagSeverity sev, const char *needle)
{
    for (uint32_t i = 0; i < f->diags.items.n; i++)
        if (f->diags.items.v[i].sev == sev && strstr(f->diags.items.v[i].msg, needle))
            return (int)i;
    return -1;
}

#define GAME_BASE                \
    "(role a)\n"                 \
    "(init p)\n"                 \
    "(<= (legal a go) (true p))\n" \
    "(<= (next p) (does a go))\n" \
    "(<= terminal (true p))\n"   \
    "(goal a 100)\n"

#endif
