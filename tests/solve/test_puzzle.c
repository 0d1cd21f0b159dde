/* test_puzzle.c: the one-role search (solve/puzzle.c), called directly:
 *   - tests/lib/data/switches.kif (ours): the best, 70, is below 100; the
 *     search exhausts the space and proves it, with and without analyses,
 *     and its proof has both sections;
 *   - tests/lib/data/corridor50.kif (ours): 100 cannot be reached, the
 *     goal range defers the states where it is excluded, and 50 is found
 *     from them once 100 is excluded;
 *   - games/fifteenPuzzle.kif (ours), 12 moves from the solution: the plan
 *     is 12 moves and replays to 100;
 *   - the same with a memory bound of 1 MB: A* hands over to IDA*, which
 *     finds a 12-move plan too;
 *   - stanford-2018/untwistycorridor.kif: solved (100, 7 moves), with fewer
 *     expansions with the analyses than without;
 *   - the corpus 8-puzzle (stanford-2018/8puzzle.kif; 100 needs the tiles in
 *     order at exactly step 30): solved optimally, the plan as long as a
 *     breadth-first search of our own over gdl.h finds (Release only: the
 *     space is some millions of states);
 *   - a bound (max_nodes) gives a partial interval.
 * Every plan is replayed with the state machine to a terminal state with
 * the value. GDLC_PUZZLE_VERBOSE=1 prints the numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../lib/api_errors.h"
#include "../../solve/solve.h"
#include "../lib/corpus.h"

#define DATA GDLC_SOURCE_DIR "/tests/lib/data/"

typedef struct Puz {
    GdlGame *g;
    GdlMachine *m;
    GdlAnalysis *an;
} Puz;

static bool verbose(void)
{
    const char *v = getenv("GDLC_PUZZLE_VERBOSE");
    return v && *v == '1';
}

static void puz_load(Puz *p, const char *path)
{
    memset(p, 0, sizeof *p);
    char *err = NULL;
    if (gdl_game_load_file(path, &p->g, NULL) != GDL_OK)
        fail_msg("%s: rejected", path);
    if (test_machine_new(p->g, "jit", &p->m, &err) != GDL_OK)
        fail_msg("%s: %s", path, err ? err : "no machine");
    if (test_analysis_new(p->m, NULL, &p->an, &err) != GDL_OK)
        fail_msg("%s: %s", path, err ? err : "no analysis");
}

/* False, with a visible skip (a failure when CI=true), when the corpus
 * game is missing. */
static bool puz_corpus(Puz *p, const char *game)
{
    char path[1024];
    if (!corpus_path(path, sizeof path, game))
        return false;
    puz_load(p, path);
    return true;
}

static void puz_free(Puz *p)
{
    gdl_analysis_free(p->an);
    gdl_machine_free(p->m);
    gdl_game_free(p->g);
}

static void options(SolveOptions *o, bool analyses)
{
    memset(o, 0, sizeof *o);
    o->transpositions = true;
    o->symmetries = true;
    o->analyses = analyses;
    o->progress_every = 2;
}

static void result_free(SolveResult *r)
{
    for (size_t i = 0; i < r->plan_len; i++)
        free(r->plan[i]);
    free(r->plan);
    free(r->best_move);
    free(r->scope_message);
    memset(r, 0, sizeof *r);
}

static void solve(Puz *p, bool analyses, uint64_t max_nodes, FILE *proof, SolveResult *r, const char *what)
{
    SolveOptions o;
    options(&o, analyses);
    o.max_nodes = max_nodes;
    char *err = NULL;
    GdlStatus st = solve_puzzle(p->g, p->m, p->an, NULL, &o, proof, r, &err);
    if (st != GDL_OK)
        fail_msg("%s: status %d: %s", what, (int)st, err ? err : "");
    free(err);
    if (verbose())
        printf("%s (analyses %s): [%d, %d]%s, plan %zu, nodes %llu, states %llu, transpositions %llu, "
               "%.3f s, %.1f MB\n",
               what, analyses ? "on" : "off", r->lo, r->hi, r->stopped ? " stopped" : "", r->plan_len,
               (unsigned long long)r->nodes, (unsigned long long)r->states,
               (unsigned long long)r->transpositions, r->seconds, r->peak_bytes / 1048576.0);
}

/* The plan replayed from the initial state ends in a terminal state with
 * goal value. */
static void replay_from(Puz *p, const GdlState *start, const SolveResult *r, int value)
{
    GdlState *s = NULL;
    if (start)
        assert_non_null(s = gdl_state_copy(start));
    else
        assert_int_equal(gdl_state_initial(p->m, &s), GDL_OK);
    for (size_t i = 0; i < r->plan_len; i++) {
        bool term = true;
        assert_int_equal(gdl_state_is_terminal(p->m, s, &term), GDL_OK);
        assert_false(term);
        GdlMove mv;
        assert_int_equal(gdl_move_parse(p->m, r->plan[i], &mv), GDL_OK);
        assert_int_equal(gdl_state_next_into(p->m, s, &mv, &s), GDL_OK);
    }
    bool term = false;
    assert_int_equal(gdl_state_is_terminal(p->m, s, &term), GDL_OK);
    assert_true(term);
    int v = -1;
    assert_int_equal(gdl_state_goal(p->m, s, 0, &v), GDL_OK);
    assert_int_equal(v, value);
    gdl_state_free(s);
}

static void replay(Puz *p, const SolveResult *r, int value) { replay_from(p, NULL, r, value); }

#ifdef GDLC_PUZZLE_HEAVY
/* ---- a breadth-first search of our own, over gdl.h ------------------- */

typedef struct Bfs {
    GdlState **s;
    int *depth;
    size_t n, cap;
    uint32_t *ix;
    size_t ixcap;
} Bfs;

static bool bfs_add(Bfs *b, GdlMachine *m, GdlState *s, int depth)
{
    if ((b->n + 1) * 2 > b->ixcap) {
        size_t cap = b->ixcap ? b->ixcap * 2 : 4096;
        uint32_t *ix = calloc(cap, sizeof *ix);
        assert_non_null(ix);
        for (size_t i = 0; i < b->n; i++) {
            size_t j = gdl_state_hash(b->s[i]) & (cap - 1);
            while (ix[j])
                j = (j + 1) & (cap - 1);
            ix[j] = (uint32_t)i + 1;
        }
        free(b->ix);
        b->ix = ix, b->ixcap = cap;
    }
    size_t j = gdl_state_hash(s) & (b->ixcap - 1);
    for (; b->ix[j]; j = (j + 1) & (b->ixcap - 1))
        if (gdl_state_equal(b->s[b->ix[j] - 1], s))
            return false;
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 4096;
        b->s = realloc(b->s, b->cap * sizeof *b->s);
        b->depth = realloc(b->depth, b->cap * sizeof *b->depth);
        assert_true(b->s && b->depth);
    }
    b->s[b->n] = s, b->depth[b->n] = depth;
    b->ix[j] = (uint32_t)++b->n;
    return true;
}

/* The fewest moves from the initial state to a terminal state with goal
 * value (-1: none). */
static int bfs_shortest(GdlMachine *m, int value)
{
    Bfs b = {0};
    GdlState *s0 = NULL;
    assert_int_equal(gdl_state_initial(m, &s0), GDL_OK);
    bfs_add(&b, m, s0, 0);
    int found = -1;
    for (size_t i = 0; i < b.n && found < 0; i++) {
        bool term = false;
        assert_int_equal(gdl_state_is_terminal(m, b.s[i], &term), GDL_OK);
        if (term) {
            int v;
            assert_int_equal(gdl_state_goal(m, b.s[i], 0, &v), GDL_OK);
            if (v == value)
                found = b.depth[i];
            continue;
        }
        GdlSuccessors x;
        assert_int_equal(gdl_state_successors(m, b.s[i], 1000, &x), GDL_OK);
        for (size_t k = 0; k < x.n; k++)
            if (bfs_add(&b, m, x.states[k], b.depth[i] + 1))
                x.states[k] = NULL;
        gdl_successors_free(&x);
    }
    for (size_t i = 0; i < b.n; i++)
        gdl_state_free(b.s[i]);
    free(b.s), free(b.depth), free(b.ix);
    return found;
}

#endif

/* ---- the tests ------------------------------------------------------- */

static void count_lines(FILE *f, const char *prefix, size_t *n)
{
    char line[4096];
    *n = 0;
    rewind(f);
    while (fgets(line, sizeof line, f))
        *n += strncmp(line, prefix, strlen(prefix)) == 0;
}

static void t_below_100(void **state)
{
    (void)state;
    Puz p;
    puz_load(&p, DATA "switches.kif");
    SolveResult r;
    for (int an = 0; an < 2; an++) {
        FILE *proof = tmpfile();
        assert_non_null(proof);
        solve(&p, an, 0, proof, &r, "switches");
        assert_int_equal(r.lo, 70);
        assert_int_equal(r.hi, 70);
        assert_true(r.exact);
        assert_false(r.stopped);
        assert_int_equal(r.plan_len, 3);
        replay(&p, &r, 70);
        /* the proof: the plan (4 nodes) and every line (the whole graph) */
        size_t lower, upper, nodes, edges;
        count_lines(proof, "section lower 70 root 0", &lower);
        count_lines(proof, "section upper 70 root 0", &upper);
        count_lines(proof, "node ", &nodes);
        count_lines(proof, "edge ", &edges);
        assert_int_equal(lower, 1);
        assert_int_equal(upper, 1);
        /* states: subsets of at most 3 of 4 switches, one per step count:
         * 1 + 4 + 6 + 4 = 15; edges: 4 + 4*3 + 6*2 = 28; and the plan */
        assert_int_equal(nodes, 4 + 15);
        assert_int_equal(edges, 3 + 28);
        assert_int_equal(r.proof_nodes, 4 + 15);
        fclose(proof);
        result_free(&r);
    }
    puz_free(&p);
}

/* 100 excluded, then 50 from the states the goal range deferred */
static void t_deferred(void **state)
{
    (void)state;
    Puz p;
    puz_load(&p, DATA "corridor50.kif");
    SolveResult r[2];
    for (int an = 0; an < 2; an++) {
        solve(&p, an, 0, NULL, &r[an], "corridor50");
        assert_int_equal(r[an].lo, 50);
        assert_int_equal(r[an].hi, 50);
        assert_int_equal(r[an].plan_len, 3);
        replay(&p, &r[an], 50);
    }
    assert_true(r[1].nodes <= r[0].nodes);
    /* with a proof every state is expanded: the upper section replays */
    FILE *proof = tmpfile();
    assert_non_null(proof);
    SolveResult q;
    solve(&p, true, 0, proof, &q, "corridor50 with a proof");
    assert_int_equal(q.lo, 50);
    assert_int_equal(q.hi, 50);
    size_t upper;
    count_lines(proof, "section upper 50 root 0", &upper);
    assert_int_equal(upper, 1);
    fclose(proof);
    result_free(&q);
    result_free(&r[0]);
    result_free(&r[1]);
    puz_free(&p);
}

static void t_fifteen_shallow(void **state)
{
    (void)state;
    Puz p;
    puz_load(&p, GDLC_SOURCE_DIR "/games/fifteenPuzzle.kif");
    SolveResult r;
    solve(&p, true, 0, NULL, &r, "fifteenPuzzle (12 moves)");
    assert_true(r.exact);
    assert_int_equal(r.lo, 100);
    assert_int_equal(r.plan_len, 12);
    replay(&p, &r, 100);
    assert_non_null(r.best_move);
    assert_string_equal(r.best_move, r.plan[0]);
    result_free(&r);
    puz_free(&p);
}

/* A* past its memory bound hands over to IDA*, which finds the same plan
 * length in the memory of one path (under the sanitizers, from a state 8
 * moves from the solution, on the way of the 12-move plan). */
static void t_ida(void **state)
{
    (void)state;
    Puz p;
    puz_load(&p, GDLC_SOURCE_DIR "/games/fifteenPuzzle.kif");
    SolveOptions o;
    options(&o, true);
    o.memory_mb = 1;
    SolveResult r;
    char *err = NULL;
    GdlState *start = NULL;
#ifdef GDLC_PUZZLE_HEAVY
    size_t expect = 12;
#else
    size_t expect = 8;
    assert_int_equal(gdl_state_parse(p.m,
                                     "(cell 1 1 1) (cell 1 2 2) (cell 1 3 3) (cell 1 4 4) (cell 2 1 5) (cell 2 2 6) "
                                     "(cell 2 3 8) (cell 2 4 11) (cell 3 1 b) (cell 3 2 9) (cell 3 3 10) (cell 3 4 7) "
                                     "(cell 4 1 13) (cell 4 2 14) (cell 4 3 15) (cell 4 4 12) (step 4)",
                                     &start),
                     GDL_OK);
#endif
    assert_int_equal(solve_puzzle(p.g, p.m, p.an, start, &o, NULL, &r, &err), GDL_OK);
    if (verbose())
        printf("fifteenPuzzle, IDA* past 1 MB: [%d, %d], plan %zu, nodes %llu, %.3f s\n", r.lo, r.hi, r.plan_len,
               (unsigned long long)r.nodes, r.seconds);
    assert_false(r.stopped);
    assert_true(r.exact);
    assert_int_equal(r.lo, 100);
    assert_int_equal(r.plan_len, expect);
    replay_from(&p, start, &r, 100);
    gdl_state_free(start);
    result_free(&r);
    puz_free(&p);
}

static void t_untwisty(void **state)
{
    (void)state;
    Puz p;
    if (!puz_corpus(&p, "stanford-2018/untwistycorridor.kif"))
        return;
    SolveResult with, without;
    solve(&p, true, 0, NULL, &with, "untwistycorridor");
    solve(&p, false, 0, NULL, &without, "untwistycorridor");
    assert_int_equal(with.lo, 100);
    assert_int_equal(with.hi, 100);
    assert_int_equal(without.lo, 100);
    assert_int_equal(without.hi, 100);
    assert_int_equal(with.plan_len, 7);
    assert_int_equal(without.plan_len, 7);
    replay(&p, &with, 100);
    replay(&p, &without, 100);
    assert_true(with.nodes < without.nodes);
    result_free(&with);
    result_free(&without);
    puz_free(&p);
}

static void t_bound(void **state)
{
    (void)state;
    Puz p;
    puz_load(&p, GDLC_SOURCE_DIR "/games/fifteenPuzzle.kif");
    SolveResult r;
    solve(&p, false, 200, NULL, &r, "fifteenPuzzle, 200 nodes");
    assert_true(r.stopped);
    assert_string_equal(r.stop_reason, "nodes");
    assert_false(r.exact);
    assert_int_equal(r.lo, 0);
    assert_int_equal(r.hi, 100);
    assert_true(r.nodes >= 200 && r.nodes < 200 + 8);
    result_free(&r);
    puz_free(&p);
    /* the puzzle below 100 stopped early: its interval holds the value */
    Puz q;
    puz_load(&q, DATA "switches.kif");
    solve(&q, false, 6, NULL, &r, "switches, 6 nodes");
    assert_true(r.stopped);
    assert_true(r.lo <= 70 && 70 <= r.hi);
    assert_true(r.lo < r.hi);
    result_free(&r);
    puz_free(&q);
}

static void t_eight(void **state)
{
    (void)state;
#ifdef GDLC_PUZZLE_HEAVY
    Puz p;
    if (!puz_corpus(&p, "stanford-2018/8puzzle.kif"))
        return;
    SolveResult r;
    solve(&p, true, 0, NULL, &r, "8puzzle");
    assert_int_equal(r.lo, 100);
    assert_int_equal(r.hi, 100);
    replay(&p, &r, 100);
    int shortest = bfs_shortest(p.m, 100);
    assert_int_equal((int)r.plan_len, shortest);
    result_free(&r);
    puz_free(&p);
#else
    print_message("SKIP: the corpus 8-puzzle runs in Release builds only\n");
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_below_100), cmocka_unit_test(t_deferred), cmocka_unit_test(t_fifteen_shallow), cmocka_unit_test(t_ida), cmocka_unit_test(t_untwisty),
        cmocka_unit_test(t_bound),     cmocka_unit_test(t_eight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
