/* test_oom.c: running out of memory comes back through the API as a status.
 * An allocation hook (base_set_alloc) fails the N-th allocation of a whole
 * session (load a game, make a machine, ask every query), for every N until
 * a session sees no failure: no call may crash or abort, a failed call
 * returns GDL_OUT_OF_MEMORY (or NULL where it returns a pointer), a machine
 * that ran out refuses every later query with it, and everything the
 * session holds can still be freed, and nothing leaks: the temporaries of
 * the call that ran out are freed with the machine (or at once, for a load
 * or a machine being made). The sanitizer build runs it with the leak
 * checker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../base/base.h"
#include "../../include/gdl.h"
#include "../lib/api_errors.h"

typedef struct Failing {
    unsigned long count;   /* allocations so far */
    unsigned long fail_at; /* the one that fails (1-based) */
    bool failed;           /* it has happened */
} Failing;

/* Where an allocation is refused (a place for a debugger's breakpoint). */
__attribute__((noinline)) static void *refuse(Failing *f)
{
    f->failed = true;
    __asm__ volatile("");
    return NULL;
}

static void *failing_alloc(void *ud, void *p, size_t n)
{
    Failing *f = ud;
    if (++f->count == f->fail_at) {
        return refuse(f);
    }
    return realloc(p, n);
}

static const char *GAME = "(role x) (role o)\n"
                          "(init (cell 1 b)) (init (cell 2 b)) (init (control x))\n"
                          "(<= (legal ?r (mark ?c)) (true (control ?r)) (true (cell ?c b)))\n"
                          "(<= (legal x noop) (true (control o)))\n"
                          "(<= (legal o noop) (true (control x)))\n"
                          "(<= (next (cell ?c ?r)) (does ?r (mark ?c)))\n"
                          "(<= (next (cell ?c b)) (true (cell ?c b)) (not (marked ?c)))\n"
                          "(<= (marked ?c) (does ?r (mark ?c)))\n"
                          "(<= (next (control o)) (true (control x)))\n"
                          "(<= (next (control x)) (true (control o)))\n"
                          "(<= open (true (cell ?c b)))\n"
                          "(<= terminal (not open))\n"
                          "(<= (goal x 100) (true (cell 1 x)))\n"
                          "(<= (goal x 0) (not (true (cell 1 x))))\n"
                          "(<= (goal o 100) (not (true (cell 1 x))))\n"
                          "(<= (goal o 0) (true (cell 1 x)))\n";

/* One status from a call made after memory ran out somewhere: OK, or the
 * out-of-memory status once the hook has failed. */
static bool ok_or_oom(GdlStatus st, const Failing *f)
{
    if (st == GDL_OK)
        return true;
    assert_int_equal(st, GDL_OUT_OF_MEMORY);
    assert_true(f->failed);
    return false;
}

/* A whole session; the machine, once it answered GDL_OUT_OF_MEMORY, must
 * keep answering it. */
static void session(const char *engine, Failing *f)
{
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    base_set_alloc(failing_alloc, f);
    GdlStatus st = gdl_game_load_string("oom.kif", GAME, strlen(GAME), &g, &d);
    gdl_diagnostics_free(d);
    if (!ok_or_oom(st, f)) {
        assert_null(g);
        base_set_alloc(NULL, NULL);
        return;
    }
    GdlMachine *m = NULL;
    char *err = NULL;
    st = test_machine_new(g, engine, &m, &err);
    free(err);
    if (!ok_or_oom(st, f)) {
        assert_null(m);
        gdl_game_free(g);
        base_set_alloc(NULL, NULL);
        return;
    }
    bool dead = false; /* the machine has answered out of memory */
    GdlState *s = NULL;
    for (int step = 0; step < 3 && !dead; step++) {
        if (!s && !(dead = !ok_or_oom(gdl_state_initial(m, &s), f)))
            assert_non_null(s);
        if (dead)
            break;
        bool term = false;
        if ((dead = !ok_or_oom(gdl_state_is_terminal(m, s, &term), f)) || term)
            break;
        GdlMove joint[2];
        for (unsigned r = 0; r < 2 && !dead; r++) {
            const GdlMove *mv;
            size_t n;
            if (!(dead = !ok_or_oom(gdl_state_legal(m, s, r, &mv, &n), f))) {
                assert_true(n > 0);
                joint[r] = mv[0];
                const char *text = gdl_move_text(m, mv[0]);
                dead = text == NULL;
            }
        }
        if (dead)
            break;
        GdlState *t = NULL;
        if ((dead = !ok_or_oom(gdl_state_next(m, s, joint, &t), f)))
            break;
        gdl_state_free(s);
        s = t;
        int goals[2];
        dead = !ok_or_oom(gdl_state_goals(m, s, goals), f);
        if (!dead && gdl_state_size(s) > 0)
            dead = gdl_state_fact(m, s, 0) == NULL;
    }
    if (!dead) {
        /* the library's own loop and the byte form of states */
        GdlRng rng;
        gdl_rng_seed(&rng, 7);
        int goals[2];
        uint64_t depth = 0;
        dead = !ok_or_oom(gdl_state_depth_charge(m, s, &rng, 100, goals, &depth), f);
        size_t len = 0;
        if (!dead) {
            /* asking for the size is GDL_LIMIT with the size set */
            GdlStatus st = gdl_state_write(m, s, NULL, 0, &len);
            dead = st != GDL_LIMIT && !ok_or_oom(st, f);
        }
        unsigned char buf[4096];
        GdlState *back = NULL;
        if (!dead && len <= sizeof buf)
            dead = !ok_or_oom(gdl_state_write(m, s, buf, sizeof buf, &len), f) ||
                   !ok_or_oom(gdl_state_read(m, buf, len, &back), f);
        if (back)
            assert_true(gdl_state_equal(back, s));
        gdl_state_free(back);
    }
    if (!dead) {
        GdlState *p = NULL;
        GdlMove mv;
        dead = !ok_or_oom(gdl_state_parse(m, "(cell 1 x) (control o)", &p), f) ||
               !ok_or_oom(gdl_move_parse(m, "(mark 2)", &mv), f);
        gdl_state_free(p);
    }
    if (dead) {
        /* every later query refuses, and says why */
        GdlState *again = NULL;
        assert_int_equal(gdl_state_initial(m, &again), GDL_OUT_OF_MEMORY);
        assert_null(again);
        assert_non_null(strstr(gdl_machine_error(m), "out of memory"));
    }
    base_set_alloc(NULL, NULL);
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* Every allocation of a session fails once, in turn (every stride-th for a
 * slow engine), until a session runs without a failure. */
static void fail_each_allocation(const char *engine, unsigned long stride)
{
    Failing probe = {0};
    session(engine, &probe);
    assert_false(probe.failed);
    unsigned long total = probe.count, seen = 0;
    assert_true(total > 100);
    const char *only = getenv("GDLC_OOM_ONLY"); /* one N, to debug */
    for (unsigned long n = only ? strtoul(only, NULL, 10) : 1; n <= total + 1; n += n < 200 ? 1 : stride) {
        Failing f = {.fail_at = n};
        if (getenv("GDLC_OOM_TRACE"))
            fprintf(stderr, "fail allocation %lu\n", n);
        session(engine, &f);
        seen += f.failed;
    }
    print_message("%s: %lu allocations per session, %lu sessions ran out\n", engine, total, seen);
    assert_true(seen > 100);
}

static void ref_never_aborts(void **state)
{
    (void)state;
    fail_each_allocation("ref", 1);
}

/* the grounder runs when the machine is made: each of its allocations too */
static void ref_ground_never_aborts(void **state)
{
    (void)state;
    fail_each_allocation("ref:ground", 1);
}

static void jit_never_aborts(void **state)
{
    (void)state;
    fail_each_allocation("jit", 1);
}

/* pn: the grounder, the network and its tables while the machine is made */
static void pn_never_aborts(void **state)
{
    (void)state;
    fail_each_allocation("pn", 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ref_never_aborts),
        cmocka_unit_test(ref_ground_never_aborts),
        cmocka_unit_test(jit_never_aborts),
        cmocka_unit_test(pn_never_aborts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
