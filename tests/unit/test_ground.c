/*
 * test_ground.c: the grounder's budget strings, its output's invariants
 * (ground.h) on a small game, and its budgets and errors through the API.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../frontend/front.h"
#include "../../middle/ground.h"
#include "gdl.h"

static void limits_parse(void **state)
{
    (void)state;
    GroundLimits lim = {0};
    char *err = NULL;
    assert_true(ground_limits_parse("max-atoms=5,max-links=7", &lim, &err));
    assert_null(err);
    assert_int_equal(lim.max_atoms, 5);
    assert_int_equal(lim.max_rules, 0);
    assert_int_equal(lim.max_links, 7);
    assert_true(ground_limits_parse("max-rules=18446744073", &lim, &err));
    assert_int_equal(lim.max_rules, 18446744073ull);
    assert_true(ground_limits_parse("max-links=18446744073709551615", &lim, &err));
    assert_int_equal(lim.max_links, UINT64_MAX);
    assert_true(ground_limits_parse("", &lim, &err));
    static const struct {
        const char *spec, *msg;
    } bad[] = {
        {"max-atoms", "max-atoms takes a positive whole number, not ''"},
        {"max-atoms=", "max-atoms takes a positive whole number, not ''"},
        {"max-atoms=0", "max-atoms takes a positive whole number, not '0'"},
        {"max-atoms=-1", "max-atoms takes a positive whole number, not '-1'"},
        {"max-atoms=1x", "max-atoms takes a positive whole number, not '1x'"},
        {"max-atoms=18446744073709551616", "max-atoms takes a positive whole number, not '18446744073709551616'"},
        {"max-atom=3", "unknown grounding budget 'max-atom' (budgets: max-atoms=N, max-rules=N, max-links=N)"},
        {"max-atoms=3,", "a grounding budget list may not end with a comma"},
        {",max-atoms=3", "unknown grounding budget '' (budgets: max-atoms=N, max-rules=N, max-links=N)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(ground_limits_parse(bad[i].spec, &lim, &err));
        assert_non_null(err);
        assert_string_equal(err, bad[i].msg);
        free(err);
    }
}

static const char game[] = "(role a) (role b) (step 1 2) (step 2 3)\n"
                           "(init (at 1))\n"
                           "(<= (legal ?r go) (role ?r) (true (at ?x)) (step ?x ?y))\n"
                           "(<= (legal ?r wait) (role ?r))\n"
                           "(<= (next (at ?y)) (does a go) (true (at ?x)) (step ?x ?y))\n"
                           "(<= (next (at ?x)) (not (does a go)) (true (at ?x)))\n"
                           "(<= terminal (true (at 3)))\n"
                           "(<= (goal ?r 100) (role ?r) terminal)\n"
                           "(<= (goal ?r 0) (role ?r) (not terminal))\n";

static void output_invariants(void **state)
{
    (void)state;
    Front f;
    char *text = strdup(game);
    assert_true(front_run(&f, "g.kif", text, strlen(text)));
    Ir g;
    GroundStats st;
    char *err = NULL;
    assert_int_equal(ground_run(&f.ir, NULL, &g, &st, &err), GROUND_OK);
    assert_null(err);
    assert_int_equal(g.rels.n, f.ir.rels.n);
    assert_int_equal(g.roles.n, 2);
    assert_memory_equal(g.kwrel, f.ir.kwrel, sizeof g.kwrel);
    for (uint32_t r = 0; r < g.rels.n; r++) {
        assert_int_equal(g.rels.v[r].sym, f.ir.rels.v[r].sym);
        assert_int_equal(g.rels.v[r].arity, f.ir.rels.v[r].arity);
        assert_int_equal(g.rels.v[r].kind, f.ir.rels.v[r].kind);
    }
    for (uint32_t i = 0; i < g.rules.n; i++)
        assert_int_equal(g.rules.v[i].nvars, 0);
    for (uint32_t i = 0; i < g.terms.n; i++)
        assert_int_not_equal(g.terms.v[i].kind, IR_VAR);
    for (uint32_t i = 0; i < g.lits.n; i++)
        assert_true(g.lits.v[i].kind == IR_LIT_POS || g.lits.v[i].kind == IR_LIT_NEG);
    /* facts: 2 roles, 2 steps, 1 init; rules: legal 2x(go at 1, go at 2,
     * wait), next: (at 2), (at 3) by go, (at 1..3) by waiting; terminal;
     * goal 2x2 */
    assert_int_equal(st.static_facts, 5);
    assert_int_equal(st.rules, 5 + 6 + 5 + 1 + 4);
    assert_int_equal(st.links, g.lits.n);
    assert_int_equal(g.rule_index.n, g.rules.n);
    assert_true(g.nstrata >= 2);
    /* a budget of 3 atoms stops at the first relation past it */
    GroundLimits lim = {.max_atoms = 3};
    Ir h;
    assert_int_equal(ground_run(&f.ir, &lim, &h, &st, &err), GROUND_LIMIT);
    assert_string_equal(err, "grounding stopped: the budget of 3 atoms in all (max-atoms=3) ran out as relation "
                             "'step' grew, at 2 atoms of its own");
    free(err);
    ir_free(&g);
    front_free(&f);
}

static void engine_argument(void **state)
{
    (void)state;
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_string("g.kif", game, strlen(game), &g, NULL), GDL_OK);
    GdlMachine *m = NULL;
    char *err = NULL;
    assert_int_equal(gdl_machine_new(g, "ref:grond", &m, &err), GDL_BAD_ARGUMENT);
    assert_string_equal(err, "the engine ref takes no argument but 'ground' (ref:ground), not 'grond'");
    free(err);
    assert_int_equal(gdl_machine_new(g, "ref:ground", &m, &err), GDL_OK);
    gdl_machine_free(m);
    gdl_game_free(g);
    static const char counter[] = "(role r) (init (c z)) (legal r t) (<= (next (c (s ?x))) (true (c ?x)))\n"
                                  "(<= terminal (true (c (s (s z))))) (goal r 100)\n";
    assert_int_equal(gdl_game_load_string("c.kif", counter, strlen(counter), &g, NULL), GDL_OK);
    assert_int_equal(gdl_machine_new(g, "ref:ground", &m, &err), GDL_LIMIT);
    assert_string_equal(err, "grounding stopped: relation 'next' builds terms nested deeper than 64 levels (its "
                             "rules make ever larger terms)");
    free(err);
    gdl_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits_parse),
        cmocka_unit_test(output_invariants),
        cmocka_unit_test(engine_argument),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
