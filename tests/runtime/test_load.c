/*
 * test_load.c: a game file that cannot be read is GDL_IO_ERROR with one
 * diagnostic that says why, so that a caller (gdlc's driver) need not read
 * the file again to learn it; one too large is the input's fault.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../include/gdl.h"

static void missing_file(void **state)
{
    (void)state;
    GdlGame *g = (GdlGame *)1;
    GdlDiagnostics *d = NULL;
    assert_int_equal(gdl_game_load_file("/nonexistent/game.kif", &g, &d), GDL_IO_ERROR);
    assert_null(g);
    assert_int_equal(gdl_diagnostics_count(d), 1);
    const GdlDiagnostic *e = gdl_diagnostics_get(d, 0);
    assert_int_equal(e->severity, GDL_SEVERITY_ERROR);
    assert_string_equal(e->file, "/nonexistent/game.kif");
    assert_int_equal(e->line, 1);
    assert_string_equal(e->message, "cannot open /nonexistent/game.kif: No such file or directory");
    gdl_diagnostics_free(d);
    /* without diagnostics asked for, the same status and nothing leaks */
    assert_int_equal(gdl_game_load_file("/nonexistent/game.kif", &g, NULL), GDL_IO_ERROR);
    assert_null(g);
}

static void directory(void **state)
{
    (void)state;
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    assert_int_equal(gdl_game_load_file("/", &g, &d), GDL_IO_ERROR);
    assert_null(g);
    assert_int_equal(gdl_diagnostics_count(d), 1);
    assert_string_equal(gdl_diagnostics_get(d, 0)->message, "cannot read /: it is a directory");
    gdl_diagnostics_free(d);
}

static void readable_file(void **state)
{
    (void)state;
    char path[] = "/tmp/gdlc-test-load-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("(role a) (init p) (<= (legal a go) (true p)) (<= terminal (true p)) (<= (goal a 100) (true p))\n", f);
    assert_int_equal(fclose(f), 0);
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    assert_int_equal(gdl_game_load_file(path, &g, &d), GDL_OK);
    assert_int_equal(gdl_diagnostics_count(d), 0);
    assert_int_equal(gdl_game_role_count(g), 1);
    gdl_diagnostics_free(d);
    gdl_game_free(g);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_file),
        cmocka_unit_test(directory),
        cmocka_unit_test(readable_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
