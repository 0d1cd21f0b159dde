/* test_ir.c: validation and lowering: or expansion, literal order, safety,
 * components, strata and dependence. */
#include "../lib/helpers.h"

static uint32_t rel(const Front *f, const char *name)
{
    uint32_t r = ir_rel_find(&f->ir, name);
    assert_int_not_equal(r, BASE_NONE);
    return r;
}

static char *rule_text(const Front *f, uint32_t rule)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ir_print_rule(out, &f->ir, rule);
    fclose(out);
    return buf;
}

static void or_expands_into_rules(void **state)
{
    (void)state;
    Front f;
    assert_true(run_text(&f, GAME_BASE "(s 1) (s 2) (t 3)\n"
                                       "(<= (q ?x) (or (s ?x) (t ?x)) (or (true p) (not (t ?x))))\n"
                                       "(<= terminal (q 1))\n"));
    const IrRel *q = &f.ir.rels.v[rel(&f, "q")];
    assert_int_equal(q->nrules, 4);
    /* the first literal's choice varies fastest */
    char *s = rule_text(&f, f.ir.rule_index.v[q->rules + 1]);
    assert_string_equal(s, "(q ?x) :- (t ?x), (true p)");
    free(s);
    s = rule_text(&f, f.ir.rule_index.v[q->rules + 2]);
    assert_string_equal(s, "(q ?x) :- (s ?x), not (t ?x)");
    free(s);
    front_free(&f);
}

static void filters_follow_their_bindings(void **state)
{
    (void)state;
    Front f;
    assert_true(run_text(&f, GAME_BASE "(s 1) (t 2)\n"
                                       "(<= (q ?x ?y) (distinct ?x ?y) (not (t ?x)) (s ?x) (t ?y))\n"
                                       "(<= terminal (q 1 2))\n"));
    const IrRel *q = &f.ir.rels.v[rel(&f, "q")];
    char *s = rule_text(&f, f.ir.rule_index.v[q->rules]);
    assert_string_equal(s, "(q ?x ?y) :- (s ?x), not (t ?x), (t ?y), (distinct ?x ?y)");
    free(s);
    front_free(&f);
}

static void not_distinct_is_equality(void **state)
{
    (void)state;
    Front f;
    assert_true(run_text(&f, GAME_BASE "(s 1)\n(<= (q ?x ?y) (s ?x) (s ?y) (not (distinct ?x ?y)))\n"
                                       "(<= terminal (q 1 1))\n"));
    assert_true(find_diag(&f, DIAG_WARNING, "read as equality") >= 0);
    const IrRel *q = &f.ir.rels.v[rel(&f, "q")];
    const IrRule *r = &f.ir.rules.v[f.ir.rule_index.v[q->rules]];
    assert_int_equal(f.ir.lits.v[r->lits + 2].kind, IR_LIT_EQUAL);
    front_free(&f);
}

static void components_and_recursion(void **state)
{
    (void)state;
    Front f;
    assert_true(run_text(&f, GAME_BASE "(edge 1 2) (edge 2 3)\n"
                                       "(<= (path ?x ?y) (edge ?x ?y))\n"
                                       "(<= (path ?x ?z) (path ?x ?y) (edge ?y ?z))\n"
                                       "(<= (even ?x) (edge 0 ?x))\n"
                                       "(<= (odd ?y) (even ?x) (edge ?x ?y))\n"
                                       "(<= (even ?y) (odd ?x) (edge ?x ?y))\n"
                                       "(<= terminal (path 1 3) (odd 2))\n"));
    const Ir *ir = &f.ir;
    uint32_t path = rel(&f, "path"), edge = rel(&f, "edge"), even = rel(&f, "even"), odd = rel(&f, "odd");
    assert_true(ir->sccs.v[ir->rels.v[path].scc].recursive);
    assert_false(ir->sccs.v[ir->rels.v[edge].scc].recursive);
    assert_int_equal(ir->rels.v[even].scc, ir->rels.v[odd].scc);
    /* dependencies first */
    assert_true(ir->rels.v[edge].scc < ir->rels.v[path].scc);
    assert_true(ir->rels.v[path].scc < ir->rels.v[rel(&f, "terminal")].scc);
    front_free(&f);
}

static void strata_follow_negation(void **state)
{
    (void)state;
    Front f;
    assert_true(run_text(&f, GAME_BASE "(s 1) (s 2)\n"
                                       "(<= (a ?x) (s ?x) (true p))\n"
                                       "(<= (b ?x) (s ?x) (not (a ?x)))\n"
                                       "(<= (c ?x) (s ?x) (not (b ?x)))\n"
                                       "(<= terminal (c 1))\n"));
    assert_int_equal(f.ir.rels.v[rel(&f, "a")].stratum, 0);
    assert_int_equal(f.ir.rels.v[rel(&f, "b")].stratum, 1);
    assert_int_equal(f.ir.rels.v[rel(&f, "c")].stratum, 2);
    assert_int_equal(f.ir.nstrata, 3);
    assert_true(f.ir.rels.v[rel(&f, "c")].dep_true);
    assert_false(f.ir.rels.v[rel(&f, "s")].dep_true);
    front_free(&f);
}

static void goal_negating_another_goal_is_stratified(void **state)
{
    (void)state;
    Front f;
    assert_true(run_text(&f, "(role a)\n(init p)\n(<= (legal a go) (true p))\n(<= (next p) (does a go))\n"
                             "(<= terminal (true p))\n"
                             "(<= (goal a 100) (true p))\n"
                             "(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))\n"));
    const IrRel *g = &f.ir.rels.v[rel(&f, "goal")];
    assert_int_equal(f.ir.rules.v[f.ir.rule_index.v[g->rules]].stratum, 0);
    assert_int_equal(f.ir.rules.v[f.ir.rule_index.v[g->rules + 1]].stratum, 1);
    front_free(&f);
    /* but a goal that negates a goal that may be itself is not */
    assert_false(run_text(&f, "(role a)\n(init p)\n(<= (legal a go) (true p))\n(<= (next p) (does a go))\n"
                              "(<= terminal (true p))\n"
                              "(<= (goal ?r 0) (role ?r) (not (goal ?r ?r)))\n"));
    assert_true(find_diag(&f, DIAG_ERROR, "unstratified negation") >= 0);
    front_free(&f);
}

static void unsafe_variable_reported_once(void **state)
{
    (void)state;
    Front f;
    assert_false(run_text(&f, GAME_BASE "(s 1)\n(<= (q ?x ?y) (or (s ?x) (true p)) (not (s ?y)))\n"));
    /* ?y is reported at the negation, not again at the head */
    int i = find_diag(&f, DIAG_ERROR, "'?y' of a negated literal");
    assert_true(i >= 0);
    assert_int_equal(f.diags.items.v[i].col, 44);
    assert_true(find_diag(&f, DIAG_ERROR, "'?y' of the head") < 0);
    /* ?x is bound in one disjunct only */
    assert_true(find_diag(&f, DIAG_ERROR, "'?x' of the head") >= 0);
    assert_int_equal(f.diags.nerrors, 2);
    front_free(&f);
}

static void expansion_limit(void **state)
{
    (void)state;
    char text[4096];
    int n = snprintf(text, sizeof text, "%s(s 1)\n(<= q", GAME_BASE);
    for (int i = 0; i < 13; i++) /* 2^13 = 8192 > IR_MAX_EXPANSION */
        n += snprintf(text + n, sizeof text - (size_t)n, " (or (s 1) (true p))");
    snprintf(text + n, sizeof text - (size_t)n, ")\n(<= terminal q)\n");
    Front f;
    assert_false(run_text(&f, text));
    assert_true(find_diag(&f, DIAG_ERROR, "more than 4096 rules") >= 0);
    front_free(&f);
}

static void case_insensitive_symbols(void **state)
{
    (void)state;
    Front f;
    assert_true(run_text(&f, "(ROLE White)\n(init (Cell 1))\n(<= (legal white go) (true (cell 1)))\n"
                             "(<= (next (CELL 1)) (does WHITE go))\n(<= Terminal (true (cell 1)))\n"
                             "(GOAL white 100)\n"));
    assert_int_equal(f.ir.roles.n, 1);
    assert_string_equal(symtab_str(&f.syms, f.ir.roles.v[0]), "white");
    front_free(&f);
}

static void dependence_on_does_names_the_path(void **state)
{
    (void)state;
    Front f;
    assert_false(run_text(&f, GAME_BASE "(<= (m ?x) (does a ?x))\n(<= (k ?x) (m ?x))\n"
                                        "(<= (goal a 50) (k go))\n"));
    int i = find_diag(&f, DIAG_ERROR, "'goal' cannot depend on 'does': goal -> k -> m -> does");
    assert_true(i >= 0);
    assert_int_equal(f.diags.items.v[i].line, 9);
    front_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(or_expands_into_rules),
        cmocka_unit_test(filters_follow_their_bindings),
        cmocka_unit_test(not_distinct_is_equality),
        cmocka_unit_test(components_and_recursion),
        cmocka_unit_test(strata_follow_negation),
        cmocka_unit_test(goal_negating_another_goal_is_stratified),
        cmocka_unit_test(unsafe_variable_reported_once),
        cmocka_unit_test(expansion_limit),
        cmocka_unit_test(case_insensitive_symbols),
        cmocka_unit_test(dependence_on_does_names_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
