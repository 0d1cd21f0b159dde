/* test_names.c: nothing from outside reaches generated C unescaped. A game's
 * name (a file name, or the name a player gives gdl_game_load_string, such
 * as a server's match id) and its symbols are written into comments, #line
 * directives and string literals of the generated code. Names built to end
 * a comment, a string or a line and plant an #error (or code) must leave
 * the code exactly as harmless: jit and aot build the engine and play, and
 * the system compiler accepts the C with -Werror under -std=c11, where
 * trigraphs are on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../include/gdl.h"
#include "../lib/api_errors.h"
#include "../../runtime/compiled.h"
#include "../../runtime/pipeline.h"

/* A small game whose symbols hold comment and trigraph openers, so that
 * every place a symbol is written into a comment is exercised. */
static const char *GAME = "(role a*/b)\n"
                          "(init (c/*ell?\?/ 1))\n"
                          "(<= (legal a*/b (go?\?/ 1)) (true (c/*ell?\?/ 1)))\n"
                          "(<= (next (c/*ell?\?/ 2)) (does a*/b (go?\?/ 1)))\n"
                          "(<= (x*/y ?n) (true (c/*ell?\?/ ?n)))\n"
                          "(<= terminal (x*/y 2))\n"
                          "(<= (goal a*/b 100) (x*/y 2))\n"
                          "(<= (goal a*/b 0) (not (x*/y 2)))\n"
                          /* symbols ending in '*', '/' or '?' meet the text after them */
                          "(<= (end* ?n) (true (c/*ell?\?/ ?n)))\n"
                          "(<= (end/ ?n) (end* ?n))\n"
                          "(<= (end? ?n) (end/ ?n))\n"
                          "(<= (next (c/*ell?\?/ 1)) (end? 9))\n";

/* Names that would, pasted raw, end the comment or string they land in and
 * stop the compile with #error (or define a symbol). */
static const char *const NAMES[] = {
    "plain.kif",
    "a*/\n#error injected through a comment\n/*.kif",
    "*/ int gdlc_injected[-1]; /*",
    "q\"\n#error injected through a string\n\".kif",
    "back\\slash\\\n#error injected after a line splice\n.kif",
    "tri?\?/\n#error injected through a trigraph\n.kif",
    "ctl\r\t\x01\x7f.kif",
    "non-ascii \xc3\xa9\xff\xfe.kif",
};

/* Compiles code with the system compiler, warnings as errors; true when it
 * is accepted. */
static bool cc_accepts(const char *code, size_t len)
{
    char path[] = "/tmp/gdlc-names-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(code, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    char *cmd = NULL;
    assert_true(asprintf(&cmd, "%s -std=c11 -Wall -Wextra -Werror -fsyntax-only -x c %s 2>&1", rt_cc(), path) > 0);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char buf[512];
    while (fgets(buf, sizeof buf, p))
        fprintf(stderr, "cc: %s", buf);
    int st = pclose(p);
    free(cmd);
    unlink(path);
    return st == 0;
}

/* One step of the game on an engine: the only move, then terminal, goal 100. */
static void plays(const GdlGame *g, const char *engine)
{
    GdlMachine *m = NULL;
    char *err = NULL;
    GdlStatus st = test_machine_new(g, engine, &m, &err);
    if (st != GDL_OK)
        fprintf(stderr, "%s: %s\n", engine, err ? err : "?");
    assert_int_equal(st, GDL_OK);
    GdlState *s, *t;
    assert_int_equal(gdl_state_initial(m, &s), GDL_OK);
    const GdlMove *mv;
    size_t n;
    assert_int_equal(gdl_state_legal(m, s, 0, &mv, &n), GDL_OK);
    assert_int_equal(n, 1);
    assert_string_equal(gdl_move_text(m, mv[0]), "(go?\?/ 1)");
    GdlMove joint = mv[0];
    assert_int_equal(gdl_state_next(m, s, &joint, &t), GDL_OK);
    bool term = false;
    assert_int_equal(gdl_state_is_terminal(m, t, &term), GDL_OK);
    assert_true(term);
    int goal = -1;
    assert_int_equal(gdl_state_goals(m, t, &goal), GDL_OK);
    assert_int_equal(goal, 100);
    gdl_state_free(s);
    gdl_state_free(t);
    gdl_machine_free(m);
}

static void crafted_names_stay_inert(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++) {
        GdlGame *g = NULL;
        assert_int_equal(gdl_game_load_string(NAMES[i], GAME, strlen(GAME), &g, NULL), GDL_OK);
        plays(g, "jit");
        for (int no_lines = 0; no_lines < 2; no_lines++) {
            size_t len = 0;
            char *err = NULL;
            /* the C file's own name goes into #line too */
            char *code = rt_emit(g, NAMES[i], no_lines, &len, &err);
            assert_non_null(code);
            /* the planted text may stay, inert, inside a comment or string:
             * never as a directive of its own */
            assert_null(strstr(code, "\n#error"));
            assert_true(cc_accepts(code, len));
            free(code);
        }
        gdl_game_free(g);
    }
}

/* aot builds with the system compiler from the same code: one crafted name
 * is enough there (each build is a run of cc). */
static void aot_builds_under_a_crafted_name(void **state)
{
    (void)state;
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_string(NAMES[1], GAME, strlen(GAME), &g, NULL), GDL_OK);
    plays(g, "aot");
    gdl_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crafted_names_stay_inert),
        cmocka_unit_test(aot_builds_under_a_crafted_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
