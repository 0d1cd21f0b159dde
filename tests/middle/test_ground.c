/*
 * test_ground.c: the grounder's budget strings, its output's invariants
 * (ground.h) on a small game, its budgets and errors through the API, and
 * the condensation of rules (which rules split, that the grounding
 * shrinks, that engine pn on the condensed grounding agrees with ref, and
 * that the random programs of the differential tests do split).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../frontend/front.h"
#include "../../middle/ground.h"
#include "../gen/gen.h"
#include "gdl.h"
#include "../lib/api_errors.h"

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
    assert_int_equal(test_machine_new(g, "ref:grond", &m, &err), GDL_BAD_ARGUMENT);
    assert_string_equal(err, "the engine ref takes no argument but 'ground' (ref:ground), not 'grond'");
    free(err);
    assert_int_equal(test_machine_new(g, "ref:ground", &m, &err), GDL_OK);
    gdl_machine_free(m);
    gdl_game_free(g);
    static const char counter[] = "(role r) (init (c z)) (legal r t) (<= (next (c (s ?x))) (true (c ?x)))\n"
                                  "(<= terminal (true (c (s (s z))))) (goal r 100)\n";
    assert_int_equal(gdl_game_load_string("c.kif", counter, strlen(counter), &g, NULL), GDL_OK);
    assert_int_equal(test_machine_new(g, "ref:ground", &m, &err), GDL_LIMIT);
    assert_string_equal(err, "grounding stopped: relation 'next' builds terms nested deeper than 64 levels (its "
                             "rules make ever larger terms)");
    free(err);
    gdl_game_free(g);
}

/* A game on a 10x10 board with the three shapes of rule condensation
 * weighs: checkers' frame rule ("a cell keeps its piece if the move is
 * elsewhere", elsewhere a static relation of 99 cells per cell: split), a
 * tally of moves made ("a move by r", its variables the move's own: split)
 * and four in a column (its variables follow by succ: not split). */
static char *board_game(void)
{
    StrBuf b = {0};
    strbuf_add(&b, "(role white) (role black) (init (control white)) (init (tally white 0)) (init (tally black 0))\n");
    for (int i = 1; i <= 10; i++)
        strbuf_addf(&b, "(index %d) (init (cell %d 1 wp)) (init (cell %d 10 bp))\n", i, i, i);
    for (int i = 0; i < 40; i++)
        strbuf_addf(&b, "(succ %d %d)\n", i, i + 1);
    strbuf_add(&b,
               "(<= (legal white (move ?x ?y1 ?x ?y2)) (true (control white)) (true (cell ?x ?y1 wp))"
               " (succ ?y1 ?y2) (index ?y2) (not (occupied ?x ?y2)))\n"
               "(<= (legal black (move ?x ?y1 ?x ?y2)) (true (control black)) (true (cell ?x ?y1 bp))"
               " (succ ?y2 ?y1) (index ?y2) (not (occupied ?x ?y2)))\n"
               "(<= (legal ?r noop) (role ?r))\n"
               "(<= (occupied ?x ?y) (true (cell ?x ?y ?p)))\n"
               "(<= (next (cell ?x2 ?y2 ?p)) (does ?r (move ?x1 ?y1 ?x2 ?y2)) (true (cell ?x1 ?y1 ?p)))\n"
               "(<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (does ?r (move ?x1 ?y1 ?x2 ?y2))"
               " (elsewhere ?x ?y ?x1 ?y1))\n"
               "(<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (not (moved)))\n"
               "(<= moved (does ?r (move ?x1 ?y1 ?x2 ?y2)))\n"
               "(<= (elsewhere ?x ?y ?u ?v) (index ?x) (index ?y) (index ?u) (index ?v) (distinct ?x ?u))\n"
               "(<= (elsewhere ?x ?y ?u ?v) (index ?x) (index ?y) (index ?u) (index ?v) (distinct ?y ?v))\n"
               "(<= (next (tally ?r ?n)) (does ?r (move ?a ?b ?c ?d)) (true (tally ?r ?m)) (succ ?m ?n))\n"
               "(<= (next (tally ?r ?m)) (does ?r noop) (true (tally ?r ?m)))\n"
               "(<= (next (control black)) (true (control white)))\n"
               "(<= (next (control white)) (true (control black)))\n"
               "(<= (line ?p) (true (cell ?x ?y1 ?p)) (succ ?y1 ?y2) (true (cell ?x ?y2 ?p)) (succ ?y2 ?y3)"
               " (true (cell ?x ?y3 ?p)) (succ ?y3 ?y4) (true (cell ?x ?y4 ?p)))\n"
               "(<= terminal (line wp)) (<= terminal (line bp)) (<= terminal (true (tally white 30)))\n"
               "(<= (goal white 100) (line wp)) (<= (goal white 0) (not (line wp)))\n"
               "(<= (goal black 100) (line bp)) (<= (goal black 0) (not (line bp)))\n");
    return b.s;
}

/* Is there a relation named NAME#k of the given arity in p? */
static bool has_split(const Ir *p, const char *name, uint32_t arity)
{
    size_t n = strlen(name);
    for (uint32_t r = 0; r < p->rels.n; r++) {
        const char *s = symtab_str(p->syms, p->rels.v[r].sym);
        if (strncmp(s, name, n) == 0 && s[n] == '#' && p->rels.v[r].arity == arity)
            return true;
    }
    return false;
}

static void condensation(void **state)
{
    (void)state;
    char *text = board_game();
    Front f;
    assert_true(front_run(&f, "board.kif", strdup(text), strlen(text))); /* taken over */
    Ir c;
    char *err = NULL;
    assert_int_equal(ground_condense(&f.ir, NULL, &f.syms, false, &c, &err), GROUND_OK);
    assert_true(has_split(&c, "next", 2)); /* the frame rule's (next#k ?x ?y) */
    assert_true(has_split(&c, "next", 1)); /* the tally's (next#k ?r) */
    assert_false(has_split(&c, "line", 1) || has_split(&c, "line", 2) || has_split(&c, "line", 3) ||
                 has_split(&c, "line", 4));
    ir_free(&c);
    /* fewer ground rules, and a program ref:ground's invariants hold of */
    Ir g, h;
    GroundStats gs, hs;
    assert_int_equal(ground_run(&f.ir, NULL, &g, &gs, &err), GROUND_OK);
    assert_int_equal(ground_condensed(&f.ir, NULL, &f.syms, false, &h, &hs, &err), GROUND_OK);
    print_message("board: %llu ground rules as written, %llu condensed\n", (unsigned long long)gs.rules,
                  (unsigned long long)hs.rules);
    assert_true(hs.rules * 2 < gs.rules);
    for (uint32_t i = 0; i < h.rules.n; i++)
        assert_int_equal(h.rules.v[i].nvars, 0);
    assert_memory_equal(h.kwrel, f.ir.kwrel, sizeof h.kwrel);
    ir_free(&g);
    ir_free(&h);
    front_free(&f);

    /* engine pn on it (condensed: the grounding is not small) plays as ref */
    GdlGame *gm = NULL;
    assert_int_equal(gdl_game_load_string("board.kif", text, strlen(text), &gm, NULL), GDL_OK);
    GdlMachine *p = NULL, *r = NULL;
    assert_int_equal(test_machine_new(gm, "pn", &p, &err), GDL_OK);
    assert_int_equal(test_machine_new(gm, "ref", &r, &err), GDL_OK);
    GdlRng rng;
    gdl_rng_seed(&rng, 7);
    for (int game = 0; game < 5; game++) {
        GdlState *sp = NULL, *sr = NULL;
        assert_int_equal(gdl_state_initial(p, &sp), GDL_OK);
        assert_int_equal(gdl_state_initial(r, &sr), GDL_OK);
        for (int step = 0; step < 80; step++) {
            assert_int_equal(gdl_state_hash(sp), gdl_state_hash(sr));
            bool tp = false, tr = false;
            assert_int_equal(gdl_state_is_terminal(p, sp, &tp), GDL_OK);
            assert_int_equal(gdl_state_is_terminal(r, sr, &tr), GDL_OK);
            assert_int_equal(tp, tr);
            int gp[2], gr[2];
            assert_int_equal(gdl_state_goals(p, sp, gp), GDL_OK);
            assert_int_equal(gdl_state_goals(r, sr, gr), GDL_OK);
            assert_memory_equal(gp, gr, sizeof gp);
            if (tp)
                break;
            GdlMove jp[2], jr[2];
            for (unsigned k = 0; k < 2; k++) {
                const GdlMove *mp, *mr;
                size_t np = 0, nr = 0;
                assert_int_equal(gdl_state_legal(p, sp, k, &mp, &np), GDL_OK);
                assert_int_equal(gdl_state_legal(r, sr, k, &mr, &nr), GDL_OK);
                assert_int_equal(np, nr);
                for (size_t i = 0; i < np; i++)
                    assert_string_equal(gdl_move_text(p, mp[i]), gdl_move_text(r, mr[i]));
                size_t pick = (size_t)gdl_rng_below(&rng, np);
                jp[k] = mp[pick];
                jr[k] = mr[pick];
            }
            GdlState *np = NULL, *nr = NULL;
            assert_int_equal(gdl_state_next(p, sp, jp, &np), GDL_OK);
            assert_int_equal(gdl_state_next(r, sr, jr, &nr), GDL_OK);
            gdl_state_free(sp);
            gdl_state_free(sr);
            sp = np;
            sr = nr;
        }
        gdl_state_free(sp);
        gdl_state_free(sr);
    }
    gdl_machine_free(p);
    gdl_machine_free(r);
    gdl_game_free(gm);
    free(text);
}

/* The random programs of unit/pn-condensed-ref split rules: that test
 * plays engine pn:condensed against ref on them. (One shape of theirs
 * splits, a next rule reading both roles' moves; the corpus tests,
 * verify and the trace replays on pn over every game, carry the others:
 * dropping the negations of a split part fails corpus/verify-pn on
 * battlebrushes and checkers-suicide-cylinder-mustjump among others.) */
static void random_programs_split(void **state)
{
    (void)state;
    unsigned split = 0, n = 300;
    for (uint64_t seed = 1; seed <= n; seed++) {
        char *text = gen_game(seed);
        Front f;
        assert_true(front_run(&f, "gen.kif", text, strlen(text))); /* taken over */
        Ir c;
        char *err = NULL;
        if (ground_condense(&f.ir, NULL, &f.syms, true, &c, &err) == GROUND_OK)
            split += c.rels.n > 0;
        else
            free(err);
        ir_free(&c);
        front_free(&f);
    }
    print_message("%u of %u random programs split a rule\n", split, n);
    assert_true(split >= n / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits_parse),
        cmocka_unit_test(output_invariants),
        cmocka_unit_test(engine_argument),
        cmocka_unit_test(condensation),
        cmocka_unit_test(random_programs_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
