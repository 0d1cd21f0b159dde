/* test_an_sym.c: the symmetries of a game (analysis/symmetry.c, through the
 * gdl.h calls), pinned where the answer is known and checked here again,
 * independently of the library's own check:
 *   - counts: ggp-repository/ticTacToe.kif has exactly 8 (the square's
 *     rotations and reflections), connectFour.kif 2 (the mirror), a few
 *     more corpus games (8-puzzle 2, nim2 4, breakthroughSmall 2, Untwisty
 *     Corridor and checkersTiny 1, neither cut for size), our own
 *     games/tictactoe.kif 8 and connect4.kif 2, a game of ours with no
 *     symmetry 1 (element 0 the identity, moving nothing);
 *   - every element commutes with the state machine (engine ref) on every
 *     state of seeded random playthroughs: terminal and goals kept, the
 *     legal moves of each role mapped onto the legal moves of its image,
 *     next(sigma s, sigma J) = sigma next(s, J) for every joint move;
 *   - the elements form a group: closed under composition, identity
 *     first, no two equal;
 *   - gdl_analysis_symmetry_state is the pairs of gdl_analysis_symmetry
 *     applied to the state's facts, and _move the move pairs;
 *   - the library's check rejects a candidate that is no symmetry (two
 *     cells swapped), with its reason, and accepts a true one;
 *   - bad arguments (k past the count, a role past the last);
 *   - out of memory at every allocation of the first call (GDL_OK or
 *     GDL_OUT_OF_MEMORY, nothing leaked: the sanitizer build checks).
 */
#include "../lib/api_errors.h"
#include "../lib/failing.h"
#include "../lib/helpers.h"

#include "../lib/net.h"

#include "../../runtime/runtime.h"

enum { PLAYS = 4, STEPS = 200 };

/* A game of ours with no symmetry: one role counts up and chooses between
 * moves of different effects; goals tell them apart. */
static const char *const LOPSIDED = "(role a)\n"
                                    "(init (step 0))\n"
                                    "(succ 0 1) (succ 1 2) (succ 2 3)\n"
                                    "(legal a up) (legal a stay)\n"
                                    "(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))\n"
                                    "(<= (next hit) (does a up))\n"
                                    "(<= (next hit) (true hit))\n"
                                    "(<= (next miss) (does a stay) (not (true hit)))\n"
                                    "(<= terminal (true (step 3)))\n"
                                    "(<= (goal a 100) (true hit))\n"
                                    "(<= (goal a 50) (not (true hit)) (true miss))\n"
                                    "(<= (goal a 0) (not (true hit)) (not (true miss)))\n";

static uint64_t rnd(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct Ctx {
    GdlGame *g;
    GdlMachine *m;
    GdlAnalysis *a;
    unsigned nroles;
    size_t n; /* elements */
} Ctx;

static void ctx_open(Ctx *c, GdlGame *g)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    char *err = NULL;
    if (test_machine_new(g, "ref", &c->m, &err) != GDL_OK)
        fail_msg("engine ref: %s", err);
    if (test_analysis_new(c->m, "samples=4,seed=3", &c->a, &err) != GDL_OK)
        fail_msg("analysis: %s", err);
    c->nroles = gdl_game_role_count(g);
    double t0 = gdl_now();
    assert_int_equal(gdl_analysis_symmetry_count(c->a, &c->n), GDL_OK);
    const char *why = rt_symmetry_why(c->a);
    print_message("%zu symmetries in %.3f s%s%s\n", c->n, gdl_now() - t0, why ? ": " : "", why ? why : "");
}

static void ctx_close(Ctx *c)
{
    gdl_analysis_free(c->a);
    gdl_machine_free(c->m);
    gdl_game_free(c->g);
}

static GdlGame *load_text(const char *text)
{
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_string("t.kif", text, strlen(text), &g, &d);
    gdl_diagnostics_free(d);
    assert_int_equal(st, GDL_OK);
    return g;
}

static GdlGame *load_file(const char *path)
{
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_file(path, &g, &d);
    gdl_diagnostics_free(d);
    if (st != GDL_OK)
        fail_msg("%s: not loaded", path);
    return g;
}

/* The image of a fact under element k's pairs (itself when not moved). */
static const char *fact_image(const GdlSymmetry *y, const char *fact)
{
    for (size_t i = 0; i < y->n; i++)
        if (strcmp(y->facts_from[i], fact) == 0)
            return y->facts_to[i];
    return fact;
}

static GdlMove move_image(const GdlSymmetry *y, unsigned role, GdlMove mv)
{
    for (size_t i = 0; i < y->nm; i++)
        if (y->moves_role[i] == role && y->moves_from[i] == mv)
            return y->moves_to[i];
    return mv;
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* Whether t holds exactly the images of s's facts under y's pairs. */
static bool image_by_pairs(Ctx *c, const GdlSymmetry *y, const GdlState *s, const GdlState *t)
{
    size_t n = gdl_state_size(s);
    if (gdl_state_size(t) != n)
        return false;
    const char **u = calloc(n + 1, sizeof *u), **v = calloc(n + 1, sizeof *v);
    assert_non_null(u);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++) {
        u[i] = fact_image(y, gdl_state_fact(c->m, s, i));
        v[i] = gdl_state_fact(c->m, t, i);
    }
    qsort(u, n, sizeof *u, cmp_str);
    qsort(v, n, sizeof *v, cmp_str);
    bool same = true;
    for (size_t i = 0; i < n && same; i++)
        same = strcmp(u[i], v[i]) == 0;
    free(u);
    free(v);
    return same;
}

static GdlMove *legal_copy(Ctx *c, const GdlState *s, unsigned r, size_t *n)
{
    const GdlMove *mv = NULL;
    assert_int_equal(gdl_state_legal(c->m, s, r, &mv, n), GDL_OK);
    GdlMove *out = calloc(*n + 1, sizeof *out);
    assert_non_null(out);
    memcpy(out, mv, *n * sizeof *out);
    return out;
}

static bool has(const GdlMove *v, size_t n, GdlMove x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return true;
    return false;
}

/* Every element against the machine in state s; every joint move (up to
 * 64 of them) checked for next. */
static void check_state(Ctx *c, const GdlState *s)
{
    unsigned nr = c->nroles;
    bool term = false;
    assert_int_equal(gdl_state_is_terminal(c->m, s, &term), GDL_OK);
    int *goals = calloc(nr + 1, sizeof *goals), *tgoals = calloc(nr + 1, sizeof *tgoals);
    GdlMove **legal = calloc(nr + 1, sizeof *legal);
    size_t *nlegal = calloc(nr + 1, sizeof *nlegal);
    GdlMove *joint = calloc(nr + 1, sizeof *joint), *tjoint = calloc(nr + 1, sizeof *tjoint);
    assert_true(goals && tgoals && legal && nlegal && joint && tjoint);
    GdlStatus gst = gdl_state_goals(c->m, s, goals);
    for (unsigned r = 0; r < nr && !term; r++)
        legal[r] = legal_copy(c, s, r, &nlegal[r]);
    for (size_t k = 0; k < c->n; k++) {
        const GdlSymmetry *y = NULL;
        assert_int_equal(gdl_analysis_symmetry(c->a, k, &y), GDL_OK);
        GdlState *t = NULL;
        assert_int_equal(gdl_analysis_symmetry_state(c->a, k, s, &t), GDL_OK);
        assert_true(image_by_pairs(c, y, s, t));
        if (k == 0)
            assert_true(gdl_state_equal(s, t));
        bool tterm = !term;
        assert_int_equal(gdl_state_is_terminal(c->m, t, &tterm), GDL_OK);
        assert_int_equal(tterm, term);
        assert_int_equal(gdl_state_goals(c->m, t, tgoals), gst);
        if (gst == GDL_OK)
            assert_memory_equal(goals, tgoals, nr * sizeof *goals);
        if (!term) {
            for (unsigned r = 0; r < nr; r++) {
                size_t tn = 0;
                GdlMove *tl = legal_copy(c, t, r, &tn);
                assert_int_equal(tn, nlegal[r]);
                for (size_t i = 0; i < nlegal[r]; i++) {
                    GdlMove im = 0;
                    assert_int_equal(gdl_analysis_symmetry_move(c->a, k, r, legal[r][i], &im), GDL_OK);
                    assert_int_equal(im, move_image(y, r, legal[r][i]));
                    assert_true(has(tl, tn, im));
                }
                free(tl);
            }
            /* every joint move, counted in mixed radix (at most 64) */
            size_t total = 1;
            for (unsigned r = 0; r < nr; r++)
                total *= nlegal[r];
            for (size_t x = 0; x < total && x < 64; x++) {
                size_t rest = x;
                for (unsigned r = 0; r < nr; r++) {
                    joint[r] = legal[r][rest % nlegal[r]];
                    rest /= nlegal[r];
                    tjoint[r] = move_image(y, r, joint[r]);
                }
                GdlState *n1 = NULL, *n2 = NULL, *in1 = NULL;
                assert_int_equal(gdl_state_next(c->m, s, joint, &n1), GDL_OK);
                assert_int_equal(gdl_state_next(c->m, t, tjoint, &n2), GDL_OK);
                assert_int_equal(gdl_analysis_symmetry_state(c->a, k, n1, &in1), GDL_OK);
                assert_true(gdl_state_equal(in1, n2));
                gdl_state_free(n1);
                gdl_state_free(n2);
                gdl_state_free(in1);
            }
        }
        gdl_state_free(t);
    }
    for (unsigned r = 0; r < nr; r++)
        free(legal[r]);
    free(legal);
    free(nlegal);
    free(goals);
    free(tgoals);
    free(joint);
    free(tjoint);
}

/* The seeded playthroughs, every state checked; the number of states. */
static unsigned check_plays(Ctx *c, uint64_t seed)
{
    unsigned states = 0, nr = c->nroles;
    GdlMove *joint = calloc(nr + 1, sizeof *joint);
    assert_non_null(joint);
    for (unsigned p = 0; p < PLAYS; p++) {
        GdlState *s = NULL;
        assert_int_equal(gdl_state_initial(c->m, &s), GDL_OK);
        for (unsigned step = 0; step < STEPS; step++) {
            check_state(c, s);
            states++;
            bool term = false;
            assert_int_equal(gdl_state_is_terminal(c->m, s, &term), GDL_OK);
            if (term)
                break;
            for (unsigned r = 0; r < nr; r++) {
                const GdlMove *mv = NULL;
                size_t n = 0;
                assert_int_equal(gdl_state_legal(c->m, s, r, &mv, &n), GDL_OK);
                assert_true(n > 0);
                joint[r] = mv[rnd(&seed) % n];
            }
            GdlState *nx = NULL;
            assert_int_equal(gdl_state_next(c->m, s, joint, &nx), GDL_OK);
            gdl_state_free(s);
            s = nx;
        }
        gdl_state_free(s);
    }
    free(joint);
    return states;
}

/* The elements as permutations of the facts and moves any of them moves:
 * closed under composition, the identity first, all distinct. */
static void check_group(Ctx *c)
{
    size_t n = c->n;
    const GdlSymmetry **y = calloc(n + 1, sizeof *y);
    assert_non_null(y);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(gdl_analysis_symmetry(c->a, k, &y[k]), GDL_OK);
    assert_int_equal(y[0]->n, 0);
    assert_int_equal(y[0]->nm, 0);
    /* the domain: every fact and (role, move) moved by some element */
    size_t nf = 0, nm = 0;
    for (size_t k = 0; k < n; k++) {
        nf += y[k]->n;
        nm += y[k]->nm;
    }
    const char **facts = calloc(nf + 1, sizeof *facts);
    unsigned *roles = calloc(nm + 1, sizeof *roles);
    GdlMove *moves = calloc(nm + 1, sizeof *moves);
    assert_true(facts && roles && moves);
    size_t df = 0, dm = 0;
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < y[k]->n; i++) {
            bool seen = false;
            for (size_t j = 0; j < df && !seen; j++)
                seen = strcmp(facts[j], y[k]->facts_from[i]) == 0;
            if (!seen)
                facts[df++] = y[k]->facts_from[i];
        }
        for (size_t i = 0; i < y[k]->nm; i++) {
            bool seen = false;
            for (size_t j = 0; j < dm && !seen; j++)
                seen = roles[j] == y[k]->moves_role[i] && moves[j] == y[k]->moves_from[i];
            if (!seen) {
                roles[dm] = y[k]->moves_role[i];
                moves[dm++] = y[k]->moves_from[i];
            }
        }
    }
    /* each element maps the domain onto itself (a permutation of it) */
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < y[k]->n; i++) {
            bool in = false;
            for (size_t j = 0; j < df && !in; j++)
                in = strcmp(facts[j], y[k]->facts_to[i]) == 0;
            assert_true(in);
        }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            /* i after j: find the element that equals it on the domain */
            size_t found = 0;
            for (size_t k = 0; k < n; k++) {
                bool same = true;
                for (size_t x = 0; x < df && same; x++)
                    same = strcmp(fact_image(y[i], fact_image(y[j], facts[x])), fact_image(y[k], facts[x])) == 0;
                for (size_t x = 0; x < dm && same; x++)
                    same = move_image(y[i], roles[x], move_image(y[j], roles[x], moves[x])) ==
                           move_image(y[k], roles[x], moves[x]);
                found += same;
            }
            assert_int_equal(found, 1); /* present, and the elements distinct */
        }
    free(facts);
    free(roles);
    free(moves);
    free(y);
}

static void check_game(GdlGame *g, size_t expected, uint64_t seed)
{
    Ctx c;
    ctx_open(&c, g);
    assert_int_equal(c.n, expected);
    check_group(&c);
    unsigned states = check_plays(&c, seed);
    print_message("%zu symmetries checked on %u states\n", c.n, states);
    ctx_close(&c);
}

static void test_tictactoe(void **state_)
{
    (void)state_;
    char path[4096];
    if (!corpus_path(path, sizeof path, "ggp-repository/ticTacToe.kif"))
        return;
    check_game(load_file(path), 8, 11);
}

static void test_connect_four(void **state_)
{
    (void)state_;
    char path[4096];
    if (!corpus_path(path, sizeof path, "ggp-repository/connectFour.kif"))
        return;
    check_game(load_file(path), 2, 12);
}

/* More corpus games: each count pinned with no reason to cut the set
 * (why NULL): 8-puzzle's transposition (tiles relabelled), Nim's equal
 * heaps, Breakthrough's mirror; Untwisty Corridor's seven equivalent moves
 * (5040 permutations moving no base) are fixed, not cut to the identity;
 * checkersTiny's dark squares (16! permutations) likewise. */
static void check_corpus(const char *game, size_t expected, uint64_t seed)
{
    char path[4096];
    if (!corpus_path(path, sizeof path, game))
        return;
    Ctx c;
    ctx_open(&c, load_file(path));
    assert_int_equal(c.n, expected);
    assert_null(rt_symmetry_why(c.a));
    check_group(&c);
    unsigned states = check_plays(&c, seed);
    print_message("%s: %zu symmetries checked on %u states\n", game, c.n, states);
    ctx_close(&c);
}

static void test_more(void **state_)
{
    (void)state_;
    check_corpus("stanford-2018/8puzzle.kif", 2, 21);
    check_corpus("ggp-repository/nim2.kif", 4, 22);
    check_corpus("ggp-repository/breakthroughSmall.kif", 2, 23);
    check_corpus("stanford-2018/untwistycorridor.kif", 1, 24);
#ifdef NDEBUG /* a second or so in Release; more with the sanitizers */
    check_corpus("ggp-repository/checkersTiny.kif", 1, 25);
#endif
}

static void test_ours(void **state_)
{
    (void)state_;
    check_game(load_file(GDLC_SOURCE_DIR "/games/tictactoe.kif"), 8, 13);
    check_game(load_file(GDLC_SOURCE_DIR "/games/connect4.kif"), 2, 14);
}

static void test_none(void **state_)
{
    (void)state_;
    check_game(load_text(LOPSIDED), 1, 15);
}

/* The library's check on candidates: two cells swapped is no symmetry
 * (the reason says which check failed); each element found passes. */
static void test_check(void **state_)
{
    (void)state_;
    Ctx c;
    ctx_open(&c, load_file(GDLC_SOURCE_DIR "/games/tictactoe.kif"));
    assert_null(rt_symmetry_why(c.a));
    for (size_t k = 0; k < c.n; k++) {
        const GdlSymmetry *y = NULL;
        assert_int_equal(gdl_analysis_symmetry(c.a, k, &y), GDL_OK);
        char *why = NULL;
        assert_int_equal(rt_symmetry_try(c.a, y, &why), GDL_OK);
        assert_null(why);
    }
    /* (cell 1 1 x) <-> (cell 1 2 x) alone, moves fixed: not a symmetry */
    GdlState *s = NULL;
    assert_int_equal(gdl_state_initial(c.m, &s), GDL_OK);
    const char *from[] = {"(cell 1 1 x)", "(cell 1 2 x)"}, *to[] = {"(cell 1 2 x)", "(cell 1 1 x)"};
    GdlSymmetry bogus = {.n = 2, .facts_from = from, .facts_to = to};
    char *why = NULL;
    assert_int_equal(rt_symmetry_try(c.a, &bogus, &why), GDL_OK);
    assert_non_null(why);
    print_message("bogus: %s\n", why);
    free(why);
    /* a fact of no base: refused */
    const char *nf[] = {"(cell 9 9 x)"};
    GdlSymmetry worse = {.n = 1, .facts_from = nf, .facts_to = nf};
    assert_int_equal(rt_symmetry_try(c.a, &worse, &why), GDL_BAD_ARGUMENT);
    /* bad arguments */
    const GdlSymmetry *y = NULL;
    GdlState *t = NULL;
    GdlMove mv = 0;
    assert_int_equal(gdl_analysis_symmetry(c.a, c.n, &y), GDL_BAD_ARGUMENT);
    assert_null(y);
    assert_int_equal(gdl_analysis_symmetry_state(c.a, c.n, s, &t), GDL_BAD_ARGUMENT);
    assert_null(t);
    assert_int_equal(gdl_analysis_symmetry_move(c.a, 0, c.nroles, mv, &mv), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_analysis_symmetry_move(c.a, c.n, 0, mv, &mv), GDL_BAD_ARGUMENT);
    gdl_state_free(s);
    ctx_close(&c);
}

/* ---- out of memory ------------------------------------------------------ */


/* The symmetries made with the N-th allocation failing: GDL_OK with the
 * whole group, or GDL_OUT_OF_MEMORY (and the machine refuses later
 * calls); everything frees (the sanitizer build checks). */
static void oom_session(GdlGame *g, Failing *f)
{
    GdlMachine *m = NULL;
    GdlAnalysis *a = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    assert_int_equal(gdl_analysis_new(m, "samples=1", &a), GDL_OK);
    base_set_alloc(failing_alloc, f);
    size_t n = 0;
    GdlStatus st = gdl_analysis_symmetry_count(a, &n);
    GdlState *s = NULL, *t = NULL;
    if (st == GDL_OK) {
        assert_int_equal(n, 8);
        if (gdl_state_initial(m, &s) == GDL_OK && gdl_analysis_symmetry_state(a, 3, s, &t) == GDL_OK)
            assert_int_equal(gdl_state_size(t), gdl_state_size(s));
    } else {
        assert_int_equal(st, GDL_OUT_OF_MEMORY);
        assert_true(f->failed);
        assert_int_equal(gdl_analysis_symmetry_count(a, &n), GDL_OUT_OF_MEMORY);
    }
    base_set_alloc(NULL, NULL);
    gdl_state_free(s);
    gdl_state_free(t);
    gdl_analysis_free(a);
    gdl_machine_free(m);
}

static void test_out_of_memory(void **state_)
{
    (void)state_;
    GdlGame *g = load_file(GDLC_SOURCE_DIR "/games/tictactoe.kif");
    Failing probe = {0};
    oom_session(g, &probe);
    assert_false(probe.failed);
    unsigned long total = probe.count, seen = 0;
    for (unsigned long k = 1; k <= total + 1; k += k < 50 ? 1 : 1 + total / 100) {
        Failing f = {.fail_at = k};
        oom_session(g, &f);
        seen += f.failed;
    }
    print_message("%lu allocations per session, %lu sessions ran out\n", total, seen);
    gdl_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tictactoe), cmocka_unit_test(test_connect_four), cmocka_unit_test(test_more),
        cmocka_unit_test(test_ours),
        cmocka_unit_test(test_none),      cmocka_unit_test(test_check),        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
