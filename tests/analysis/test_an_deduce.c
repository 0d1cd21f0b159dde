/* test_an_deduce.c: the two tools of the analysis stage.
 *
 * Evaluation (analysis/eval.c) answers legal, terminal, goals and next as
 * ref does along seeded random playouts (the states and moves compared as
 * text), on games with and without cycles; an_eval_moves (what an input
 * reaches, evaluated again) as the whole evaluation does.
 *
 * Deduction (analysis/deduce.c): each rule on hand-made cases (tic-tac-toe's
 * marks are latches, a blank is a negative one, a false OR clears its
 * inputs, a played move is legal and the only one of its role, a role left
 * one move plays it), and soundness by brute force: from random partial
 * assignments of reachable states' bases at turn 0, every value deduced at
 * turns 0 and 1 holds under every legal joint move (and, at turn 1, under
 * every joint move of the next state and none).
 *
 * Marks and AN_LAST_BASES, against a fresh deduction: undoing to the mark
 * before the k-th of a sequence of settings and setting the rest again
 * gives every value the sequence without the k-th gives (and undoing a
 * contradiction gives a consistent deduction back); AN_LAST_BASES gives
 * the same values at turn 0 and the same bases at turn 1. */
#include "../lib/net.h"

#include "../../analysis/analysis.h"
#include "../../include/gdl.h"

#include <stdio.h>
#include <stdlib.h>

#define SRC GDLC_SOURCE_DIR "/"

/* ---- evaluation against ref ----------------------------------------- */

static uint32_t base_of_text(Net *n, const char *fact)
{
    for (uint32_t b = 0; b < n->pn.base.n; b++)
        if (strcmp(gt_text(&n->store, n->pn.base.v[b].fact), fact) == 0)
            return b;
    return PN_NONE;
}

static uint32_t input_of_text(Net *n, uint32_t role, const char *move)
{
    for (uint32_t i = 0; i < n->pn.inputs.n; i++)
        if (n->pn.inputs.v[i].role == role && strcmp(gt_text(&n->store, n->pn.inputs.v[i].move), move) == 0)
            return i;
    return PN_NONE;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void eval_against_ref(const char *path, uint32_t playouts, uint32_t max_steps)
{
    Net n;
    net_load(&n, path, PN_OPT_ALL);
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_file(path, &g, NULL), GDL_OK);
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    AnEval *e = an_eval_new(&n.pn), *whole = an_eval_new(&n.pn);
    uint32_t words = an_state_words(&n.pn), nroles = n.pn.roles.n;
    uint64_t *st = calloc(words + 1, 8), *nx = calloc(words + 1, 8);
    uint32_t *joint = calloc(nroles + 1, sizeof *joint);
    GdlMove *gj = calloc(nroles + 1, sizeof *gj);
    U32Vec legal = {0};
    GdlRng rng;
    gdl_rng_seed(&rng, 7);
    for (uint32_t p = 0; p < playouts; p++) {
        GdlState *s = NULL;
        assert_int_equal(gdl_state_initial(m, &s), GDL_OK);
        for (uint32_t step = 0; step < max_steps; step++) {
            memset(st, 0, (words + 1) * 8);
            for (size_t i = 0; i < gdl_state_size(s); i++) {
                uint32_t b = base_of_text(&n, gdl_state_fact(m, s, i));
                if (b == PN_NONE)
                    fail_msg("%s: fact %s of ref's state is no base", path, gdl_state_fact(m, s, i));
                st[b >> 6] |= 1ull << (b & 63);
            }
            if (step == 0) {
                an_initial(&n.pn, nx);
                for (uint32_t b = 0; b < n.pn.base.n; b++)
                    if (an_bit(st, b) != an_bit(nx, b))
                        fail_msg("%s: initial state differs at %s", path, gt_text(&n.store, n.pn.base.v[b].fact));
            }
            an_eval(e, st, NULL);
            bool term;
            assert_int_equal(gdl_state_is_terminal(m, s, &term), GDL_OK);
            if (term != an_eval_terminal(e))
                fail_msg("%s: terminal differs at step %u", path, step);
            int goals[64];
            if (nroles <= 64 && gdl_state_goals(m, s, goals) == GDL_OK)
                for (uint32_t r = 0; r < nroles; r++) {
                    int v = an_eval_goal(e, r);
                    if (goals[r] >= 0 && v != goals[r])
                        fail_msg("%s: goal of role %u differs at step %u: %d, ref %d", path, r, step, v, goals[r]);
                }
            if (term)
                break;
            for (uint32_t r = 0; r < nroles; r++) {
                const GdlMove *mv;
                size_t nm;
                assert_int_equal(gdl_state_legal(m, s, r, &mv, &nm), GDL_OK);
                const char **a = calloc(nm + 1, sizeof *a), **b = calloc(nm + legal.n + 1, sizeof *b);
                for (size_t i = 0; i < nm; i++)
                    a[i] = gdl_move_text(m, mv[i]);
                legal.n = 0;
                an_eval_legal(e, r, &legal);
                if (legal.n != nm)
                    fail_msg("%s: role %u has %zu legal moves in ref, %u in eval, step %u", path, r, nm, legal.n, step);
                for (uint32_t i = 0; i < legal.n; i++)
                    b[i] = gt_text(&n.store, n.pn.inputs.v[legal.v[i]].move);
                qsort(a, nm, sizeof *a, cmp_str);
                qsort(b, legal.n, sizeof *b, cmp_str);
                for (size_t i = 0; i < nm; i++)
                    if (strcmp(a[i], b[i]) != 0)
                        fail_msg("%s: legal moves differ at step %u: %s vs %s", path, step, a[i], b[i]);
                free(a);
                free(b);
            }
            assert_int_equal(gdl_state_random_joint_move(m, s, &rng, gj), GDL_OK);
            for (uint32_t r = 0; r < nroles; r++) {
                joint[r] = input_of_text(&n, r, gdl_move_text(m, gj[r]));
                assert_int_not_equal(joint[r], PN_NONE);
            }
            /* only what an input reaches again, against the whole */
            an_eval_moves(e, st, joint);
            an_eval(whole, st, joint);
            for (uint32_t c = 0; c < n.pn.comps.n; c++)
                if (an_eval_value(e, c) != an_eval_value(whole, c))
                    fail_msg("%s: an_eval_moves: component %u is %d, an_eval says %d", path, c, an_eval_value(e, c),
                             an_eval_value(whole, c));
            an_eval_next(e, nx);
            GdlState *s2 = NULL;
            assert_int_equal(gdl_state_next(m, s, gj, &s2), GDL_OK);
            gdl_state_free(s);
            s = s2;
            uint32_t nfacts = 0;
            for (size_t i = 0; i < gdl_state_size(s); i++) {
                uint32_t b = base_of_text(&n, gdl_state_fact(m, s, i));
                if (b == PN_NONE || !an_bit(nx, b))
                    fail_msg("%s: next state differs at step %u: ref has %s", path, step, gdl_state_fact(m, s, i));
                nfacts++;
            }
            uint32_t nbits = 0;
            for (uint32_t b = 0; b < n.pn.base.n; b++)
                nbits += an_bit(nx, b);
            if (nbits != nfacts)
                fail_msg("%s: next state differs at step %u: %u facts, ref %u", path, step, nbits, nfacts);
        }
        gdl_state_free(s);
    }
    vec_free(legal);
    free(st);
    free(nx);
    free(joint);
    free(gj);
    an_eval_free(e);
    an_eval_free(whole);
    gdl_machine_free(m);
    gdl_game_free(g);
    net_free(&n);
}

static void eval_small(void **state)
{
    (void)state;
    eval_against_ref(SRC "games/tictactoe.kif", 20, 20);
    eval_against_ref(SRC "tests/middle/propnet/cycle.kif", 20, 10);
    eval_against_ref(SRC "tests/middle/propnet/static.kif", 10, 10);
}

static void eval_corpus(void **state)
{
    (void)state;
    static const char *games[] = {"ggp-repository/connectFour.kif", "ggp-repository/atariGoVariant_7x7.kif",
                                  "ggp-repository/breakthroughSmall.kif"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        char path[4096];
        if (corpus_path(path, sizeof path, games[i]))
            eval_against_ref(path, 3, 60);
    }
}

/* ---- deduction: the rules on hand-made cases ------------------------- */

static void rules_on_tictactoe(void **state)
{
    (void)state;
    Net n;
    net_load(&n, SRC "games/tictactoe.kif", PN_OPT_ALL);
    AnDeduce *d = an_deduce_new(&n.pn, 2, AN_MOVES_PLAYED);
    uint32_t x11 = net_base(&n, "(cell 1 1 x)"), b11 = net_base(&n, "(cell 1 1 b)");
    uint32_t ctl = net_base(&n, "(control xplayer)");
    assert_int_not_equal(x11, PN_NONE);
    assert_int_not_equal(b11, PN_NONE);
    assert_int_not_equal(ctl, PN_NONE);
    /* this file's frame rule keeps a mark only when some play is made
     * elsewhere: in a state no play reaches (x and blank on one cell, o to
     * play there) the mark goes, so deduction must not call it a latch */
    assert_true(an_deduce_set(d, n.pn.base.v[x11].comp, 0, true));
    assert_int_equal(an_deduce_base(d, x11, 1), -1);
    /* a filled cell stays filled */
    an_deduce_reset(d);
    assert_int_equal(an_deduce_base(d, x11, 0), -1);
    assert_true(an_deduce_set(d, n.pn.base.v[b11].comp, 0, false));
    assert_int_equal(an_deduce_base(d, b11, 1), 0);
    /* whose turn flips: with x in control and o not, o is next (alone,
     * control of x says nothing of o's, which an unreachable state may hold) */
    an_deduce_reset(d);
    assert_true(an_deduce_set(d, n.pn.base.v[ctl].comp, 0, true));
    assert_int_equal(an_deduce_base(d, ctl, 1), -1);
    assert_true(an_deduce_set(d, n.pn.base.v[net_base(&n, "(control oplayer)")].comp, 0, false));
    assert_int_equal(an_deduce_base(d, ctl, 1), 0);
    assert_int_equal(an_deduce_base(d, net_base(&n, "(control oplayer)"), 1), 1);
    /* a move played is legal and the only one of its role */
    an_deduce_reset(d);
    uint32_t play = net_named(&n, "(does xplayer (play 1 1))"), noop = net_named(&n, "(does xplayer noop)");
    uint32_t legal = net_named(&n, "(legal xplayer (play 1 1))");
    assert_int_not_equal(play, PN_NONE);
    assert_int_not_equal(noop, PN_NONE);
    assert_int_not_equal(legal, PN_NONE);
    assert_true(an_deduce_set(d, play, 0, true));
    assert_int_equal(an_deduce_get(d, legal, 0), 1);
    assert_int_equal(an_deduce_get(d, noop, 0), 0);
    /* legal means blank and x's turn (a true AND: every input true) */
    assert_int_equal(an_deduce_base(d, b11, 0), 1);
    assert_int_equal(an_deduce_base(d, ctl, 0), 1);
    assert_int_equal(an_deduce_base(d, x11, 1), 1);
    /* the same move at the last turn (no move is played from it) says nothing */
    an_deduce_reset(d);
    assert_true(an_deduce_set(d, play, 1, true));
    assert_int_equal(an_deduce_get(d, legal, 1), -1);
    /* contradiction: x plays (1 1), o cannot play (not in control), and
     * the cell blank at turn 1 */
    an_deduce_reset(d);
    assert_true(an_deduce_set(d, play, 0, true));
    assert_true(an_deduce_set(d, n.pn.base.v[net_base(&n, "(control oplayer)")].comp, 0, false));
    assert_int_equal(an_deduce_base(d, b11, 1), 0);
    assert_false(an_deduce_set(d, n.pn.base.v[b11].comp, 1, true));
    assert_false(an_deduce_consistent(d));
    assert_false(an_deduce_set(d, n.pn.base.v[ctl].comp, 0, true));
    an_deduce_reset(d);
    assert_true(an_deduce_consistent(d));
    assert_int_equal(an_deduce_base(d, b11, 1), -1);
    /* a role left one move plays it: every x move but noop false */
    uint32_t xrole = n.pn.inputs.v[n.pn.comps.v[noop].index].role;
    for (uint32_t i = 0; i < n.pn.inputs.n; i++)
        if (n.pn.inputs.v[i].role == xrole && n.pn.inputs.v[i].comp != noop)
            assert_true(an_deduce_set(d, n.pn.inputs.v[i].comp, 0, false));
    assert_int_equal(an_deduce_get(d, noop, 0), 1);
    /* ... and x's noop is legal only when o has control */
    assert_int_equal(an_deduce_base(d, net_base(&n, "(control oplayer)"), 0), 1);
    /* terminal is false while moves are played */
    assert_int_equal(an_deduce_get(d, n.pn.terminal, 0), 0);
    /* no move left at all: inconsistent */
    assert_false(an_deduce_set(d, noop, 0, false));
    an_deduce_free(d);

    /* one turn, no moves: a false goal (an OR of lines) clears the line */
    d = an_deduce_new(&n.pn, 1, 0);
    uint32_t win = net_named(&n, "(goal xplayer 100)");
    assert_int_not_equal(win, PN_NONE);
    assert_true(an_deduce_set(d, win, 0, false));
    /* with x on (1 1) and (1 2), (1 3) cannot be x: a false AND whose other
     * inputs are true makes the last false */
    assert_true(an_deduce_set(d, n.pn.base.v[x11].comp, 0, true));
    assert_true(an_deduce_set(d, n.pn.base.v[net_base(&n, "(cell 1 2 x)")].comp, 0, true));
    assert_int_equal(an_deduce_base(d, net_base(&n, "(cell 1 3 x)"), 0), 0);
    an_deduce_free(d);
    net_free(&n);
}

/* The corpus's tic-tac-toe keeps marks in its own rule: 18 positive latches
 * and 9 negative (blank) ones, each found by one deduction. */
static void latches_of_corpus_tictactoe(void **state)
{
    (void)state;
    char path[4096];
    if (!corpus_path(path, sizeof path, "ggp-repository/ticTacToe.kif"))
        return;
    Net n;
    net_load(&n, path, PN_OPT_ALL);
    AnDeduce *d = an_deduce_new(&n.pn, 2, AN_MOVES_PLAYED);
    uint32_t pos = 0, neg = 0;
    for (uint32_t b = 0; b < n.pn.base.n; b++) {
        if (n.pn.comps.v[n.pn.base.v[b].comp].kind != PN_BASE)
            continue;
        const char *fact = gt_text(&n.store, n.pn.base.v[b].fact);
        for (int v = 0; v < 2; v++) {
            an_deduce_reset(d);
            assert_true(an_deduce_set(d, n.pn.base.v[b].comp, 0, v));
            bool latch = an_deduce_base(d, b, 1) == v;
            bool cell = strncmp(fact, "(cell", 5) == 0;
            bool blank = cell && strstr(fact, " b)") != NULL;
            /* exactly: marks positive, blanks negative, control neither */
            assert_int_equal(latch, cell && (v ? !blank : blank));
            pos += latch && v;
            neg += latch && !v;
        }
    }
    assert_int_equal(pos, 18);
    assert_int_equal(neg, 9);
    an_deduce_free(d);
    net_free(&n);
}

/* ---- deduction: soundness by brute force ----------------------------- */

static void check_sound(const char *path, uint32_t playouts, uint32_t max_steps, uint64_t seed)
{
    Net n;
    net_load(&n, path, PN_OPT_ALL);
    const Propnet *pn = &n.pn;
    AnEval *e = an_eval_new(pn), *e2 = an_eval_new(pn);
    AnDeduce *d = an_deduce_new(pn, 2, AN_MOVES_PLAYED);
    uint32_t words = an_state_words(pn), nroles = pn->roles.n, ncomps = pn->comps.n;
    uint64_t *st = calloc(words + 1, 8), *nx = calloc(words + 1, 8);
    uint32_t *joint = calloc(nroles + 1, 4), *joint2 = calloc(nroles + 1, 4);
    U32Vec *legal = calloc(nroles + 1, sizeof *legal), *legal2 = calloc(nroles + 1, sizeof *legal2);
    U32Vec kc = {0}, kt = {0};
    AnBytes kv = {0};
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    uint64_t checked = 0;
    for (uint32_t p = 0; p < playouts; p++) {
        an_initial(pn, st);
        for (uint32_t step = 0; step < max_steps; step++) {
            an_eval(e, st, NULL);
            if (an_eval_terminal(e))
                break;
            uint64_t njoint = 1;
            for (uint32_t r = 0; r < nroles; r++) {
                legal[r].n = 0;
                an_eval_legal(e, r, &legal[r]);
                njoint *= legal[r].n ? legal[r].n : 1;
            }
            /* a random partial assignment of the state at turn 0 */
            an_deduce_reset(d);
            for (uint32_t b = 0; b < pn->base.n; b++)
                if (gdl_rng_below(&rng, 3) == 0 && pn->comps.v[pn->base.v[b].comp].kind == PN_BASE)
                    an_deduce_set(d, pn->base.v[b].comp, 0, an_bit(st, b));
            if (!an_deduce_consistent(d))
                fail_msg("%s: a reachable state's bases are inconsistent at step %u", path, step);
            kc.n = kt.n = kv.n = 0;
            an_deduce_known(d, &kc, &kt, &kv);
            /* every legal joint move (up to 64 of them), and the next state's */
            for (uint64_t j = 0; j < njoint && j < 64; j++) {
                uint64_t x = njoint <= 64 ? j : gdl_rng_below(&rng, njoint);
                for (uint32_t r = 0; r < nroles; r++) {
                    joint[r] = legal[r].n ? legal[r].v[x % legal[r].n] : PN_NONE;
                    x /= legal[r].n ? legal[r].n : 1;
                }
                an_eval(e, st, joint);
                an_eval_next(e, nx);
                for (uint32_t i = 0; i < kc.n; i++)
                    if (kt.v[i] == 0 && an_eval_value(e, kc.v[i]) != kv.v[i])
                        fail_msg("%s: deduced %s = %u at turn 0, but it is %u (step %u)", path,
                                 pn->comps.v[kc.v[i]].name == BASE_NONE ? "a gate"
                                                                         : gt_text(&n.store, pn->comps.v[kc.v[i]].name),
                                 kv.v[i], !kv.v[i], step);
                /* turn 1: under no move, and under each legal one of the next state */
                an_eval(e2, nx, NULL);
                bool term2 = an_eval_terminal(e2);
                for (uint32_t r = 0; r < nroles; r++) {
                    legal2[r].n = 0;
                    an_eval_legal(e2, r, &legal2[r]);
                }
                for (uint32_t k = 0; k < 3; k++) {
                    if (k > 0) {
                        if (term2)
                            break;
                        for (uint32_t r = 0; r < nroles; r++)
                            joint2[r] = legal2[r].n ? legal2[r].v[gdl_rng_below(&rng, legal2[r].n)] : PN_NONE;
                        an_eval(e2, nx, joint2);
                    }
                    for (uint32_t i = 0; i < kc.n; i++)
                        if (kt.v[i] == 1 && kc.v[i] < ncomps && an_eval_value(e2, kc.v[i]) != kv.v[i])
                            fail_msg("%s: deduced %s = %u at turn 1, but it is %u (step %u)", path,
                                     pn->comps.v[kc.v[i]].name == BASE_NONE
                                         ? "a gate"
                                         : gt_text(&n.store, pn->comps.v[kc.v[i]].name),
                                     kv.v[i], !kv.v[i], step);
                }
                checked++;
            }
            /* on to a random next state */
            uint64_t x = gdl_rng_below(&rng, njoint);
            for (uint32_t r = 0; r < nroles; r++) {
                joint[r] = legal[r].n ? legal[r].v[x % legal[r].n] : PN_NONE;
                x /= legal[r].n ? legal[r].n : 1;
            }
            an_eval(e, st, joint);
            an_eval_next(e, st);
        }
    }
    assert_true(checked > 0);
    for (uint32_t r = 0; r < nroles; r++) {
        vec_free(legal[r]);
        vec_free(legal2[r]);
    }
    free(legal);
    free(legal2);
    vec_free(kc);
    vec_free(kt);
    vec_free(kv);
    free(st);
    free(nx);
    free(joint);
    free(joint2);
    an_deduce_free(d);
    an_eval_free(e);
    an_eval_free(e2);
    net_free(&n);
}

static void sound_small(void **state)
{
    (void)state;
    check_sound(SRC "games/tictactoe.kif", 30, 20, 1);
    check_sound(SRC "tests/middle/propnet/cycle.kif", 30, 10, 2);
}

/* check(path, playouts, max_steps, seed0 + i) on the i-th of three corpus
 * games (each skipped visibly when the corpus is absent). */
static void on_corpus(const char *const games[3], void (*check)(const char *, uint32_t, uint32_t, uint64_t),
                      uint32_t playouts, uint32_t max_steps, uint64_t seed0)
{
    for (size_t i = 0; i < 3; i++) {
        char path[4096];
        if (corpus_path(path, sizeof path, games[i]))
            check(path, playouts, max_steps, seed0 + i);
    }
}

static void sound_corpus(void **state)
{
    (void)state;
    static const char *const games[3] = {"ggp-repository/connectFour.kif", "ggp-repository/breakthroughSmall.kif",
                                         "ggp-repository/atariGoVariant_7x7.kif"};
    on_corpus(games, check_sound, 2, 40, 3);
}

/* Every timed value of a and b equal (at the last turn, the bases only,
 * when last_bases). */
static void same_values(const char *path, const Propnet *pn, const AnDeduce *a, const AnDeduce *b, bool last_bases,
                        const char *what)
{
    if (an_deduce_consistent(a) != an_deduce_consistent(b))
        fail_msg("%s: %s: consistent %d against %d", path, what, an_deduce_consistent(a), an_deduce_consistent(b));
    if (!an_deduce_consistent(a))
        return;
    for (uint32_t c = 0; c < pn->comps.n; c++)
        if (an_deduce_get(a, c, 0) != an_deduce_get(b, c, 0))
            fail_msg("%s: %s: component %u at turn 0: %d against %d", path, what, c, an_deduce_get(a, c, 0),
                     an_deduce_get(b, c, 0));
    for (uint32_t c = 0; c < pn->comps.n; c++)
        if ((!last_bases || pn->comps.v[c].kind == PN_BASE) && an_deduce_get(a, c, 1) != an_deduce_get(b, c, 1))
            fail_msg("%s: %s: component %u at turn 1: %d against %d", path, what, c, an_deduce_get(a, c, 1),
                     an_deduce_get(b, c, 1));
}

static void check_marks(const char *path, uint32_t playouts, uint32_t max_steps, uint64_t seed)
{
    Net n;
    net_load(&n, path, PN_OPT_ALL);
    const Propnet *pn = &n.pn;
    AnEval *e = an_eval_new(pn);
    AnDeduce *fresh = an_deduce_new(pn, 2, AN_MOVES_PLAYED), *marked = an_deduce_new(pn, 2, AN_MOVES_PLAYED);
    AnDeduce *lb = an_deduce_new(pn, 2, AN_MOVES_PLAYED | AN_LAST_BASES);
    uint32_t words = an_state_words(pn), nroles = pn->roles.n;
    uint64_t *st = calloc(words + 1, 8);
    uint32_t *joint = calloc(nroles + 1, 4);
    U32Vec legal = {0}, set = {0}, marks = {0};
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    uint64_t undone = 0, contradictions = 0;
    for (uint32_t p = 0; p < playouts; p++) {
        an_initial(pn, st);
        for (uint32_t step = 0; step < max_steps; step++) {
            an_eval(e, st, NULL);
            if (an_eval_terminal(e))
                break;
            /* a random part of the state, in a random order */
            set.n = 0;
            for (uint32_t b = 0; b < pn->base.n; b++)
                if (gdl_rng_below(&rng, 2) == 0 && !an_base_fixed(pn, b))
                    vec_push(set, b);
            for (uint32_t i = set.n; i > 1; i--) {
                uint32_t j = (uint32_t)gdl_rng_below(&rng, i), t = set.v[i - 1];
                set.v[i - 1] = set.v[j];
                set.v[j] = t;
            }
            an_deduce_reset(fresh);
            an_deduce_reset(lb);
            an_deduce_reset(marked);
            marks.n = 0;
            for (uint32_t i = 0; i < set.n; i++) {
                uint32_t c = pn->base.v[set.v[i]].comp;
                bool v = an_bit(st, set.v[i]);
                an_deduce_set(fresh, c, 0, v);
                an_deduce_set(lb, c, 0, v);
                vec_push(marks, an_deduce_mark(marked));
                an_deduce_set(marked, c, 0, v);
            }
            same_values(path, pn, fresh, lb, true, "AN_LAST_BASES");
            if (set.n > 0) {
                /* without the k-th */
                uint32_t k = (uint32_t)gdl_rng_below(&rng, set.n);
                an_deduce_undo_to(marked, marks.v[k]);
                an_deduce_reset(fresh);
                for (uint32_t i = 0; i < set.n; i++)
                    if (i != k) {
                        an_deduce_set(fresh, pn->base.v[set.v[i]].comp, 0, an_bit(st, set.v[i]));
                        if (i > k)
                            an_deduce_set(marked, pn->base.v[set.v[i]].comp, 0, an_bit(st, set.v[i]));
                    }
                same_values(path, pn, fresh, marked, false, "undone to a mark");
                undone++;
                /* a contradiction undone */
                uint32_t b = set.v[(k + 1) % set.n];
                uint32_t m = an_deduce_mark(marked);
                if (!an_deduce_set(marked, pn->base.v[b].comp, 0, !an_bit(st, b)))
                    contradictions++;
                an_deduce_undo_to(marked, m);
                same_values(path, pn, fresh, marked, false, "a contradiction undone");
            }
            legal.n = 0;
            for (uint32_t r = 0; r < nroles; r++) {
                legal.n = 0;
                an_eval_legal(e, r, &legal);
                joint[r] = legal.n ? legal.v[gdl_rng_below(&rng, legal.n)] : PN_NONE;
            }
            an_eval(e, st, joint);
            an_eval_next(e, st);
        }
    }
    assert_true(undone > 0);
    assert_true(contradictions > 0);
    vec_free(legal);
    vec_free(set);
    vec_free(marks);
    free(st);
    free(joint);
    an_deduce_free(fresh);
    an_deduce_free(marked);
    an_deduce_free(lb);
    an_eval_free(e);
    net_free(&n);
}

static void marks_small(void **state)
{
    (void)state;
    check_marks(SRC "games/tictactoe.kif", 20, 20, 11);
    check_marks(SRC "tests/middle/propnet/cycle.kif", 20, 10, 12);
}

static void marks_corpus(void **state)
{
    (void)state;
    static const char *const games[3] = {"ggp-repository/connectFour.kif", "ggp-repository/breakthroughSmall.kif",
                                         "ggp-repository/checkers.kif"};
    on_corpus(games, check_marks, 1, 30, 13);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eval_small),          cmocka_unit_test(eval_corpus),
        cmocka_unit_test(rules_on_tictactoe),
        cmocka_unit_test(latches_of_corpus_tictactoe), cmocka_unit_test(sound_small),
        cmocka_unit_test(sound_corpus),        cmocka_unit_test(marks_small),
        cmocka_unit_test(marks_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
