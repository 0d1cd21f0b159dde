/* test_an_moves.c: the analyses of analysis/structure.c, analysis/moves.c and
 * analysis/dot.c, pinned on games where the answer is known:
 *   - control: the step counter and turn control of a tiny game (exactly
 *     those bases), tic-tac-toe's (control xplayer) and (control oplayer);
 *   - irrelevant roles: one-sided in the tiny game, both ways in
 *     stanford-2018/dualhunter.kif (two boards, one per role; there the
 *     goal distance from the start is 14, a capture a turn), none in
 *     ggp-repository/chinook.kif (both roles play on both boards);
 *   - partitions: a 4x4 sudoku of our own (tests/lib/data/sudoku4.kif),
 *     one group per blank cell (its digits the givens allow), and the
 *     most constrained group in a state;
 *   - winning and losing moves in tic-tac-toe states;
 *   - goal distance: exact on a counter puzzle, the tiny game and the
 *     sudoku's last cell, a lower bound on tic-tac-toe (1 from the start,
 *     where x needs 5);
 *   - soundness by brute force over every reachable state of tic-tac-toe:
 *     every winning or losing move reported is one, every distance is a
 *     lower bound, every control base's next value is the same for every
 *     joint move; and how many winning moves the deduction finds;
 *   - the DOT picture: latched and control bases coloured, a dead literal
 *     marked for its role, a state's forced values marked, a legend.
 */
#include "../lib/corpus.h"
#include "../lib/helpers.h"

#include <stdio.h>
#include <stdlib.h>

#include "../../analysis/analysis.h"
#include "../../runtime/pipeline.h"

#define DATA GDLC_SOURCE_DIR "/tests/lib/data/"

typedef struct Game {
    Front f;
    GtStore store;
    Propnet pn;
    Analysis a;
    AnQuery *q;
} Game;

static void game_ready(Game *g, const char *what)
{
    gt_init(&g->store, &g->f.syms);
    GroundLimits lim = {0};
    char *err = NULL;
    if (!cp_propnet(&g->f.ir, &lim, &g->store, PN_OPT_ALL, &g->pn, NULL, &err))
        fail_msg("%s: %s", what, err ? err : "no network");
    AnOptions o = {0};
    an_analyse(&g->pn, &o, &g->a);
    g->q = an_query_new(&g->a);
}

static void game_text(Game *g, const char *text)
{
    memset(g, 0, sizeof *g);
    if (!run_text(&g->f, text))
        fail_msg("the game text is rejected");
    game_ready(g, "text");
}

/* False (a visible skip) when a corpus game is missing. */
static bool game_file(Game *g, const char *path)
{
    memset(g, 0, sizeof *g);
    if (!corpus_there(path))
        return false;
    char *err = NULL;
    if (!front_run_file(&g->f, path, &err))
        fail_msg("%s: %s", path, err ? err : "rejected");
    game_ready(g, path);
    return true;
}

static void game_free(Game *g)
{
    an_query_free(g->q);
    an_free(&g->a);
    pn_free(&g->pn);
    gt_free(&g->store);
    front_free(&g->f);
}

static uint32_t base_named(Game *g, const char *fact)
{
    for (uint32_t b = 0; b < g->pn.base.n; b++)
        if (strcmp(gt_text(g->pn.store, g->pn.base.v[b].fact), fact) == 0)
            return b;
    fail_msg("no base %s", fact);
    return PN_NONE;
}

static uint32_t role_named(Game *g, const char *name)
{
    for (uint32_t r = 0; r < g->pn.roles.n; r++)
        if (strcmp(gt_text(g->pn.store, g->pn.roles.v[r].name), name) == 0)
            return r;
    fail_msg("no role %s", name);
    return PN_NONE;
}

static uint32_t input_named(Game *g, uint32_t role, const char *move)
{
    for (uint32_t i = 0; i < g->pn.inputs.n; i++)
        if (g->pn.inputs.v[i].role == role && strcmp(gt_text(g->pn.store, g->pn.inputs.v[i].move), move) == 0)
            return i;
    fail_msg("no move %s", move);
    return PN_NONE;
}

/* A state of the facts listed (a NULL ends them); malloc-ed. */
static uint64_t *state_of(Game *g, const char *const *facts)
{
    uint64_t *s = calloc(an_state_words(&g->pn) + 1, sizeof *s);
    for (; *facts; facts++) {
        uint32_t b = base_named(g, *facts);
        s[b >> 6] |= 1ull << (b & 63);
    }
    return s;
}

static bool is_control(Game *g, const char *fact)
{
    uint32_t b = base_named(g, fact);
    for (uint32_t i = 0; i < g->a.control.n; i++)
        if (g->a.control.v[i] == b)
            return true;
    return false;
}

static bool irrelevant(Game *g, const char *r, const char *s)
{
    uint32_t n = g->pn.roles.n;
    return g->a.irrelevant.v[role_named(g, r) * n + role_named(g, s)];
}

/* ---- control and irrelevant roles ------------------------------------ */

/* A step counter, a turn control, and scores: b's depends on a's, a's on
 * nothing of b's. */
static const char tiny[] = "(role a) (role b)\n"
                           "(succ 0 1) (succ 1 2) (succ 2 3)\n"
                           "(init (step 0)) (init (turn a))\n"
                           "(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n"
                           "(<= (next (turn b)) (true (turn a)))\n"
                           "(<= (next (turn a)) (true (turn b)))\n"
                           "(<= (legal ?r up) (true (turn ?r)))\n"
                           "(<= (legal ?r wait) (role ?r))\n"
                           "(<= (next (score a)) (does a up))\n"
                           "(<= (next (score b)) (does b up) (true (score a)))\n"
                           "(<= (next (score ?r)) (true (score ?r)))\n"
                           "(<= (goal ?r 100) (true (score ?r)))\n"
                           "(<= (goal ?r 0) (role ?r) (not (true (score ?r))))\n"
                           "(<= terminal (true (step 3)))\n";

static void control_tiny(void **state)
{
    (void)state;
    Game g;
    game_text(&g, tiny);
    const char *ctl[] = {"(step 0)", "(step 1)", "(step 2)", "(step 3)", "(turn a)", "(turn b)"};
    for (size_t i = 0; i < sizeof ctl / sizeof *ctl; i++)
        assert_true(is_control(&g, ctl[i]));
    assert_false(is_control(&g, "(score a)"));
    assert_false(is_control(&g, "(score b)"));
    assert_int_equal(g.a.control.n, 6);
    game_free(&g);
}

static void control_tictactoe(void **state)
{
    (void)state;
    Game g;
    if (!game_file(&g, GDLC_SHARED_DIR "/games/ggp-repository/ticTacToe.kif"))
        return;
    assert_int_equal(g.a.control.n, 2);
    assert_true(is_control(&g, "(control xplayer)"));
    assert_true(is_control(&g, "(control oplayer)"));
    game_free(&g);
}

static void irrelevant_tiny(void **state)
{
    (void)state;
    Game g;
    game_text(&g, tiny);
    assert_int_equal(g.a.irrelevant.n, 4);
    assert_true(irrelevant(&g, "a", "b"));  /* b's moves never touch a's score */
    assert_false(irrelevant(&g, "b", "a")); /* a's score gates b's */
    assert_false(irrelevant(&g, "a", "a"));
    assert_false(irrelevant(&g, "b", "b"));
    game_free(&g);
}

/* Dual Hunter: each role hunts on its own board; the step counter ends
 * the game for both. Each is irrelevant to the other. */
static void irrelevant_dualhunter(void **state)
{
    (void)state;
    Game g;
    if (!game_file(&g, GDLC_SHARED_DIR "/games/stanford-2018/dualhunter.kif"))
        return;
    assert_true(irrelevant(&g, "left", "right"));
    assert_true(irrelevant(&g, "right", "left"));
    /* the step counter is control, a board's cells are not */
    assert_true(is_control(&g, "(step 1)"));
    assert_true(is_control(&g, "(step 14)"));
    assert_false(is_control(&g, "(cell left 1 1 knight)"));
    /* 100 needs 14 captures, one a turn at most: the deduction sees it */
    uint64_t *s = calloc(an_state_words(&g.pn) + 1, 8);
    an_initial(&g.pn, s);
    assert_int_equal(an_goal_distance(g.q, s, role_named(&g, "left"), 50), 14);
    assert_int_equal(an_goal_distance(g.q, s, role_named(&g, "right"), 50), 14);
    free(s);
    game_free(&g);
}

/* Chinook: two boards of checkers played at once, white moving on one
 * while black moves on the other, and both roles' goals read both boards:
 * no role is irrelevant to the other (the independence is between the
 * boards, not the roles). The boards' turn controls and step counters are
 * control. */
static void irrelevant_chinook(void **state)
{
    (void)state;
    Game g;
    if (!game_file(&g, GDLC_SHARED_DIR "/games/ggp-repository/chinook.kif"))
        return;
    assert_false(irrelevant(&g, "white", "black"));
    assert_false(irrelevant(&g, "black", "white"));
    assert_true(is_control(&g, "(oddcontrol white)"));
    assert_true(is_control(&g, "(evencontrol black)"));
    assert_false(is_control(&g, "(oddcell a 1 white)"));
    game_free(&g);
}

/* ---- partitions ---------------------------------------------------- */

static void partitions_sudoku4(void **state)
{
    (void)state;
    Game g;
    assert_true(game_file(&g, DATA "sudoku4.kif"));
    uint32_t solver = role_named(&g, "solver");
    /* the six blanks are negative latches */
    const char *blanks[] = {"(cell 1 1 b)", "(cell 1 2 b)", "(cell 1 3 b)",
                            "(cell 2 2 b)", "(cell 3 1 b)", "(cell 4 4 b)"};
    assert_int_equal(g.a.partitions.n, 1);
    const AnPartition *p = &g.a.partitions.v[0];
    assert_int_equal(p->role, solver);
    assert_int_equal(p->group_base.n, 6);
    assert_int_equal(p->group_at.n, 7);
    /* the givens fix most digits (the optimiser folds their legal to
     * false): (1 1) can take 1 or 2, every other blank one digit */
    static const int sol[4][4] = {{1, 2, 3, 4}, {3, 4, 1, 2}, {2, 1, 4, 3}, {4, 3, 2, 1}};
    assert_int_equal(p->inputs.n, 7);
    for (uint32_t k = 0; k < 6; k++) {
        const char *fact = gt_text(g.pn.store, g.pn.base.v[p->group_base.v[k]].fact);
        bool known = false;
        for (size_t j = 0; j < 6; j++)
            known |= strcmp(fact, blanks[j]) == 0;
        assert_true(known);
        if (k > 0)
            assert_true(p->group_base.v[k - 1] < p->group_base.v[k]);
        int rr = fact[6] - '0', cc = fact[8] - '0';
        bool first = rr == 1 && cc == 1;
        assert_int_equal(p->group_at.v[k + 1] - p->group_at.v[k], first ? 2 : 1);
        for (uint32_t j = p->group_at.v[k]; j < p->group_at.v[k + 1]; j++) {
            const char *mv = gt_text(g.pn.store, g.pn.inputs.v[p->inputs.v[j]].move);
            char want[32];
            if (first)
                snprintf(want, sizeof want, "(mark 1 1 %u)", 1 + j - p->group_at.v[k]);
            else
                snprintf(want, sizeof want, "(mark %d %d %d)", rr, cc, sol[rr - 1][cc - 1]);
            assert_string_equal(mv, want);
            if (j > p->group_at.v[k])
                assert_true(p->inputs.v[j - 1] < p->inputs.v[j]);
        }
    }
    /* the most constrained group in the initial state: the first cell with
     * one digit left ((1 1) has two) */
    uint64_t *s = calloc(an_state_words(&g.pn) + 1, 8);
    an_initial(&g.pn, s);
    U32Vec moves = {0};
    assert_true(an_partition_moves(g.q, s, solver, &moves));
    assert_int_equal(moves.n, 1);
    assert_int_equal(moves.v[0], input_named(&g, solver, "(mark 1 2 2)"));
    /* with (1 1) the only blank left, one digit: the row holds 2, 3, 4 */
    const char *last[] = {"(cell 1 1 b)", "(cell 1 2 2)", "(cell 1 3 3)", "(cell 1 4 4)", "(cell 2 1 3)",
                          "(cell 2 2 4)", "(cell 2 3 1)", "(cell 2 4 2)", "(cell 3 1 2)", "(cell 3 2 1)",
                          "(cell 3 3 4)", "(cell 3 4 3)", "(cell 4 1 4)", "(cell 4 2 3)", "(cell 4 3 2)",
                          "(cell 4 4 1)", NULL};
    uint64_t *s2 = state_of(&g, last);
    assert_true(an_partition_moves(g.q, s2, solver, &moves));
    assert_int_equal(moves.n, 1);
    assert_int_equal(moves.v[0], input_named(&g, solver, "(mark 1 1 1)"));
    /* goal distance: one turn, exactly */
    assert_int_equal(an_goal_distance(g.q, s2, solver, 10), 1);
    /* winning move: the last digit */
    U32Vec win = {0}, lose = {0};
    an_winning_moves(g.q, s2, solver, 1000, &win, &lose);
    assert_int_equal(win.n, 1);
    assert_int_equal(win.v[0], input_named(&g, solver, "(mark 1 1 1)"));
    assert_int_equal(lose.n, 0);
    /* no blank left: no group applies */
    const char *solved[] = {"(cell 1 1 1)", "(cell 1 2 2)", "(cell 1 3 3)", "(cell 1 4 4)", "(cell 2 1 3)",
                            "(cell 2 2 4)", "(cell 2 3 1)", "(cell 2 4 2)", "(cell 3 1 2)", "(cell 3 2 1)",
                            "(cell 3 3 4)", "(cell 3 4 3)", "(cell 4 1 4)", "(cell 4 2 3)", "(cell 4 3 2)",
                            "(cell 4 4 1)", NULL};
    uint64_t *s3 = state_of(&g, solved);
    assert_false(an_partition_moves(g.q, s3, solver, &moves));
    assert_int_equal(an_goal_distance(g.q, s3, solver, 10), 0);
    vec_free(win);
    vec_free(lose);
    vec_free(moves);
    free(s);
    free(s2);
    free(s3);
    game_free(&g);
}

/* No partition in tic-tac-toe (noop switches nothing off). */
static void partitions_none(void **state)
{
    (void)state;
    Game g;
    if (!game_file(&g, GDLC_SHARED_DIR "/games/ggp-repository/ticTacToe.kif"))
        return;
    assert_int_equal(g.a.partitions.n, 0);
    U32Vec moves = {0};
    uint64_t *s = calloc(an_state_words(&g.pn) + 1, 8);
    an_initial(&g.pn, s);
    assert_false(an_partition_moves(g.q, s, 0, &moves));
    free(s);
    vec_free(moves);
    game_free(&g);
}

/* ---- winning and losing moves --------------------------------------- */

static void winning_tictactoe(void **state)
{
    (void)state;
    Game g;
    if (!game_file(&g, GDLC_SHARED_DIR "/games/ggp-repository/ticTacToe.kif"))
        return;
    uint32_t x = role_named(&g, "xplayer"), o = role_named(&g, "oplayer");
    U32Vec win = {0}, lose = {0};
    /* x to move, (1 1) and (1 2) x, (1 3) blank: (mark 1 3) wins; o's two
     * in row 2 do not matter, x plays first */
    const char *s1f[] = {"(cell 1 1 x)", "(cell 1 2 x)", "(cell 1 3 b)", "(cell 2 1 o)", "(cell 2 2 o)",
                         "(cell 2 3 b)", "(cell 3 1 b)", "(cell 3 2 b)", "(cell 3 3 b)",
                         "(control xplayer)", NULL};
    uint64_t *s1 = state_of(&g, s1f);
    an_winning_moves(g.q, s1, x, 1000, &win, &lose);
    assert_int_equal(win.n, 1);
    assert_int_equal(win.v[0], input_named(&g, x, "(mark 1 3)"));
    assert_int_equal(lose.n, 0);
    an_winning_moves(g.q, s1, o, 1000, &win, &lose);
    assert_int_equal(win.n, 0);
    assert_int_equal(lose.n, 0); /* noop loses only if every x move wins */
    /* max_joint 0: nothing can be confirmed */
    an_winning_moves(g.q, s1, x, 0, &win, &lose);
    assert_int_equal(win.n, 0);
    /* one blank left, and x filling it makes a row: x's only move wins,
     * o's only move (noop) loses */
    const char *s2f[] = {"(cell 1 1 x)", "(cell 1 2 x)", "(cell 1 3 b)", "(cell 2 1 o)", "(cell 2 2 o)",
                         "(cell 2 3 x)", "(cell 3 1 x)", "(cell 3 2 o)", "(cell 3 3 o)",
                         "(control xplayer)", NULL};
    uint64_t *s2 = state_of(&g, s2f);
    an_winning_moves(g.q, s2, x, 1000, &win, &lose);
    assert_int_equal(win.n, 1);
    assert_int_equal(win.v[0], input_named(&g, x, "(mark 1 3)"));
    assert_int_equal(lose.n, 0);
    an_winning_moves(g.q, s2, o, 1000, &win, &lose);
    assert_int_equal(win.n, 0);
    assert_int_equal(lose.n, 1);
    assert_int_equal(lose.v[0], input_named(&g, o, "noop"));
    /* the initial state: nothing wins or loses at once */
    uint64_t *s0 = calloc(an_state_words(&g.pn) + 1, 8);
    an_initial(&g.pn, s0);
    an_winning_moves(g.q, s0, x, 1000, &win, &lose);
    assert_int_equal(win.n + lose.n, 0);
    /* a terminal state: nothing */
    const char *s3f[] = {"(cell 1 1 x)", "(cell 1 2 x)", "(cell 1 3 x)", "(cell 2 1 o)", "(cell 2 2 o)",
                         "(cell 2 3 b)", "(cell 3 1 b)", "(cell 3 2 b)", "(cell 3 3 b)",
                         "(control oplayer)", NULL};
    uint64_t *s3 = state_of(&g, s3f);
    an_winning_moves(g.q, s3, o, 1000, &win, &lose);
    assert_int_equal(win.n + lose.n, 0);
    assert_int_equal(an_goal_distance(g.q, s3, x, 10), 0);
    assert_int_equal(an_goal_distance(g.q, s3, o, 10), -1);
    free(s0);
    free(s1);
    free(s2);
    free(s3);
    vec_free(win);
    vec_free(lose);
    game_free(&g);
}

/* ---- goal distance ------------------------------------------------------- */

/* A counter to bring to 3 (inc or stay) within a timer of 6 turns; at 4
 * it is stuck. */
static const char counter[] = "(role p)\n"
                              "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)\n"
                              "(init (c 0)) (init (t 0))\n"
                              "(<= (legal p inc) (true (c ?n)) (succ ?n ?m) (succ ?m ?k))\n"
                              "(legal p stay)\n"
                              "(<= (next (c ?m)) (does p inc) (true (c ?n)) (succ ?n ?m))\n"
                              "(<= (next (c ?n)) (does p stay) (true (c ?n)))\n"
                              "(<= (next (t ?m)) (true (t ?n)) (succ ?n ?m))\n"
                              "(<= terminal (true (t 6)))\n"
                              "(<= (goal p 100) (true (c 3)))\n"
                              "(<= (goal p 0) (not (true (c 3))))\n";

static void distance_exact(void **state)
{
    (void)state;
    Game g;
    game_text(&g, counter);
    uint32_t p = role_named(&g, "p");
    uint64_t *s = calloc(an_state_words(&g.pn) + 1, 8);
    an_initial(&g.pn, s);
    assert_int_equal(an_goal_distance(g.q, s, p, 20), 3);
    assert_int_equal(an_goal_distance(g.q, s, p, 2), 2); /* the bound */
    const char *s1f[] = {"(c 1)", "(t 1)", NULL};
    uint64_t *s1 = state_of(&g, s1f);
    assert_int_equal(an_goal_distance(g.q, s1, p, 20), 2);
    /* at 4 the counter is stuck: never */
    const char *s4f[] = {"(c 4)", "(t 4)", NULL};
    uint64_t *s4 = state_of(&g, s4f);
    assert_int_equal(an_goal_distance(g.q, s4, p, 20), -1);
    const char *s3f[] = {"(c 3)", "(t 3)", NULL};
    uint64_t *s3 = state_of(&g, s3f);
    assert_int_equal(an_goal_distance(g.q, s3, p, 20), 0);
    free(s);
    free(s1);
    free(s3);
    free(s4);
    game_free(&g);

    /* the tiny game: a scores at once, b only after a and on its turn */
    game_text(&g, tiny);
    s = calloc(an_state_words(&g.pn) + 1, 8);
    an_initial(&g.pn, s);
    assert_int_equal(an_goal_distance(g.q, s, role_named(&g, "a"), 10), 1);
    assert_int_equal(an_goal_distance(g.q, s, role_named(&g, "b"), 10), 2);
    free(s);
    game_free(&g);
}

/* ---- brute force on tic-tac-toe ----------------------------------------- */

typedef struct Space {
    uint32_t words;
    VEC(uint64_t) states; /* words each */
    U32Vec table;         /* open addressing: state index + 1, 0 empty */
    VEC(uint8_t) terminal;
    /* per state: its joint moves' successors at succ[at[s] .. at[s+1]) and the joint moves, nroles each */
    U32Vec at, succ, joints;
} Space;

static uint64_t hash_state(const uint64_t *s, uint32_t w)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t i = 0; i < w; i++)
        h = (h ^ s[i]) * 0xff51afd7ed558ccdull;
    return h ^ h >> 29;
}

static uint32_t space_add(Space *sp, const uint64_t *s, bool *added)
{
    uint32_t cap = sp->table.n;
    uint64_t h = hash_state(s, sp->words);
    for (uint32_t i = (uint32_t)(h % cap);; i = (i + 1) % cap) {
        uint32_t k = sp->table.v[i];
        if (k == 0) {
            uint32_t idx = sp->states.n / sp->words;
            for (uint32_t j = 0; j < sp->words; j++)
                vec_push(sp->states, s[j]);
            sp->table.v[i] = idx + 1;
            *added = true;
            return idx;
        }
        if (memcmp(sp->states.v + (size_t)(k - 1) * sp->words, s, sp->words * 8) == 0) {
            *added = false;
            return k - 1;
        }
    }
}

/* Every reachable state (at most cap), breadth first, with successors. */
static void explore(const Propnet *pn, Space *sp, uint32_t cap)
{
    memset(sp, 0, sizeof *sp);
    sp->words = an_state_words(pn);
    vec_reserve(sp->table, 4 * cap);
    sp->table.n = 4 * cap;
    memset(sp->table.v, 0, sp->table.n * sizeof(uint32_t));
    AnEval *ev = an_eval_new(pn);
    uint64_t *s = calloc(sp->words + 1, 8), *nx = calloc(sp->words + 1, 8);
    an_initial(pn, s);
    bool added;
    space_add(sp, s, &added);
    uint32_t nroles = pn->roles.n;
    U32Vec legal[8] = {{0}};
    assert_true(nroles <= 8);
    uint32_t pick[8], joint[8];
    for (uint32_t h = 0; h < sp->states.n / sp->words; h++) {
        memcpy(s, sp->states.v + (size_t)h * sp->words, sp->words * 8);
        an_eval(ev, s, NULL);
        vec_push(sp->at, sp->succ.n);
        bool term = an_eval_terminal(ev);
        vec_push(sp->terminal, term);
        if (term)
            continue;
        for (uint32_t r = 0; r < nroles; r++) {
            legal[r].n = 0; /* an_eval_legal appends */
            an_eval_legal(ev, r, &legal[r]);
            assert_true(legal[r].n > 0);
            pick[r] = 0;
        }
        for (;;) {
            for (uint32_t r = 0; r < nroles; r++) {
                joint[r] = legal[r].v[pick[r]];
                vec_push(sp->joints, joint[r]);
            }
            an_eval(ev, s, joint);
            an_eval_next(ev, nx);
            uint32_t k = space_add(sp, nx, &added);
            assert_true(sp->states.n / sp->words <= cap);
            vec_push(sp->succ, k);
            uint32_t r = 0;
            for (; r < nroles; r++) {
                if (++pick[r] < legal[r].n)
                    break;
                pick[r] = 0;
            }
            if (r == nroles)
                break;
        }
    }
    vec_push(sp->at, sp->succ.n);
    for (uint32_t r = 0; r < nroles; r++)
        vec_free(legal[r]);
    free(s);
    free(nx);
    an_eval_free(ev);
}

static void space_free(Space *sp)
{
    vec_free(sp->states);
    vec_free(sp->table);
    vec_free(sp->terminal);
    vec_free(sp->at);
    vec_free(sp->succ);
    vec_free(sp->joints);
}

static void brute_tictactoe(void **state)
{
    (void)state;
    Game g;
    if (!game_file(&g, GDLC_SHARED_DIR "/games/ggp-repository/ticTacToe.kif"))
        return;
    const Propnet *pn = &g.pn;
    Space sp;
    explore(pn, &sp, 10000);
    uint32_t n = sp.states.n / sp.words, nroles = pn->roles.n, w = sp.words;
    assert_int_equal(n, 5478);
    AnEval *ev = an_eval_new(pn);
    /* per state and role: goal (terminal states), true distance */
    int *goal = calloc((size_t)n * nroles, sizeof *goal);
    uint32_t *dist = calloc((size_t)n * nroles, sizeof *dist);
    uint64_t *nx = calloc(w + 1, 8);
    for (uint32_t s = 0; s < n; s++) {
        an_eval(ev, sp.states.v + (size_t)s * w, NULL);
        for (uint32_t r = 0; r < nroles; r++) {
            goal[s * nroles + r] = sp.terminal.v[s] ? an_eval_goal(ev, r) : -1;
            bool best = an_eval_goal(ev, r) == g.a.best.v[r];
            dist[s * nroles + r] = best ? 0 : UINT32_MAX;
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t s = 0; s < n; s++)
            for (uint32_t r = 0; r < nroles; r++)
                for (uint32_t j = sp.at.v[s]; j < sp.at.v[s + 1]; j++) {
                    uint32_t d = dist[sp.succ.v[j] * nroles + r];
                    if (d != UINT32_MAX && d + 1 < dist[s * nroles + r]) {
                        dist[s * nroles + r] = d + 1;
                        changed = true;
                    }
                }
    }
    /* the initial state: x needs five turns (three marks of its own);
     * deduction's bound is 1: after one turn the x cells are unknown
     * (which one x marks), so a line of x is not forced false at turn 1;
     * the count's is 3 */
    int d0 = an_goal_distance(g.q, sp.states.v, 0, 20);
    assert_int_equal(dist[0], 5);
    /* three marks in a line, one a turn at most (the count); deduction
     * alone says 1, the truth is 5 (the turn order is not counted) */
    assert_int_equal(d0, 3);
    print_message("tic-tac-toe: distance of x from the initial state: %d (true 5)\n", d0);
    uint64_t true_wins = 0, found_wins = 0, true_loses = 0, found_loses = 0, exact = 0;
    U32Vec win = {0}, lose = {0};
    for (uint32_t s = 0; s < n; s++) {
        const uint64_t *st = sp.states.v + (size_t)s * w;
        /* control bases: one next value whatever the joint move */
        for (uint32_t i = 0; i < g.a.control.n && !sp.terminal.v[s]; i++) {
            uint32_t b = g.a.control.v[i];
            int v = -1;
            for (uint32_t j = sp.at.v[s]; j < sp.at.v[s + 1]; j++) {
                int vj = an_bit(sp.states.v + (size_t)sp.succ.v[j] * w, b);
                assert_true(v < 0 || v == vj);
                v = vj;
            }
        }
        for (uint32_t r = 0; r < nroles; r++) {
            /* distance: a lower bound; -1 only when the goal is out of reach */
            int d = an_goal_distance(g.q, st, r, 20);
            uint32_t t = dist[s * nroles + r];
            if (d < 0)
                assert_true(t == UINT32_MAX);
            else
                assert_true((uint32_t)d <= t);
            exact += t != UINT32_MAX && (uint32_t)d == t;
            if (sp.terminal.v[s])
                continue;
            /* winning and losing moves, against the successors */
            an_winning_moves(g.q, st, r, 1000, &win, &lose);
            an_eval(ev, st, NULL);
            U32Vec legal = {0};
            an_eval_legal(ev, r, &legal);
            for (uint32_t k = 0; k < legal.n; k++) {
                bool wins = true, loses = true;
                for (uint32_t j = sp.at.v[s]; j < sp.at.v[s + 1]; j++) {
                    if (sp.joints.v[j * nroles + r] != legal.v[k])
                        continue;
                    uint32_t t2 = sp.succ.v[j];
                    int gv = sp.terminal.v[t2] ? goal[t2 * nroles + r] : -3;
                    wins &= gv == g.a.best.v[r];
                    loses &= gv == g.a.worst.v[r];
                }
                bool rw = false, rl = false;
                for (uint32_t m = 0; m < win.n; m++)
                    rw |= win.v[m] == legal.v[k];
                for (uint32_t m = 0; m < lose.n; m++)
                    rl |= lose.v[m] == legal.v[k];
                /* reported: proven; and nothing outside the legal moves */
                if (rw)
                    assert_true(wins);
                if (rl)
                    assert_true(loses);
                true_wins += wins;
                found_wins += rw;
                true_loses += loses;
                found_loses += rl;
            }
            for (uint32_t m = 0; m < win.n; m++) {
                bool in = false;
                for (uint32_t k = 0; k < legal.n; k++)
                    in |= legal.v[k] == win.v[m];
                assert_true(in);
            }
            vec_free(legal);
        }
    }
    print_message("tic-tac-toe: %u states; winning moves found %llu of %llu, losing %llu of %llu; "
                  "distance exact in %llu of %u (state, role)\n",
                  n, (unsigned long long)found_wins, (unsigned long long)true_wins,
                  (unsigned long long)found_loses, (unsigned long long)true_loses, (unsigned long long)exact,
                  n * nroles);
    /* a winning move is a move that completes a line: the deduction sees it */
    assert_true(true_wins > 0);
    assert_int_equal(found_wins, true_wins);
    assert_int_equal(found_loses, true_loses);
    vec_free(win);
    vec_free(lose);
    free(nx);
    free(goal);
    free(dist);
    an_eval_free(ev);
    space_free(&sp);
    game_free(&g);
}

/* ---- the picture ----------------------------------------------------- */

static size_t count(const char *hay, const char *needle)
{
    size_t k = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

static void dot_tictactoe(void **state)
{
    (void)state;
    Game g;
    if (!game_file(&g, GDLC_SHARED_DIR "/games/ggp-repository/ticTacToe.kif"))
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    an_dot(f, &g.a, NULL, PN_NONE, 0);
    fclose(f);
    assert_memory_equal(buf, "digraph propnet {", 17);
    assert_non_null(strstr(buf, "->"));
    /* every latch and control base coloured, once each, plus the legend */
    uint32_t pos = 0, neg = 0;
    for (uint32_t i = 0; i < g.a.latches.n; i++)
        *(g.a.latches.v[i].value ? &pos : &neg) += 1;
    size_t legend = pos > 0;
    assert_int_equal(count(buf, "fillcolor=\"#1b9e77\""), pos + legend);
    assert_int_equal(count(buf, "fillcolor=\"#d95f02\""), neg + (neg > 0));
    assert_int_equal(count(buf, "fillcolor=\"#7570b3\""), g.a.control.n + 1);
    assert_non_null(strstr(buf, "cluster_legend"));
    assert_null(strstr(buf, "penwidth=3"));
    free(buf);
    /* with the initial state: (control xplayer) true, (legal oplayer (mark 1 1)) false */
    uint64_t *s = calloc(an_state_words(&g.pn) + 1, 8);
    an_initial(&g.pn, s);
    buf = NULL;
    f = open_memstream(&buf, &len);
    an_dot(f, &g.a, s, PN_NONE, 0);
    fclose(f);
    assert_true(count(buf, "color=\"#1a9641\",penwidth=3") > 1);
    assert_true(count(buf, "color=\"#d7191c\",penwidth=3") > 1);
    char want[128];
    uint32_t ctl = g.pn.base.v[base_named(&g, "(control xplayer)")].comp;
    snprintf(want, sizeof want, "  n%u [", ctl);
    const char *line = strstr(buf, want);
    assert_non_null(line);
    const char *eol = strchr(line, '\n');
    char *l = strndup(line, (size_t)(eol - line));
    assert_non_null(strstr(l, "color=\"#1a9641\",penwidth=3"));
    assert_non_null(strstr(l, "fillcolor=\"#7570b3\""));
    free(l);
    free(buf);
    /* a dead literal (set by hand here: goals.c finds them) gets a double
     * border and says for whom */
    AnDead dead = {role_named(&g, "oplayer"), {base_named(&g, "(cell 2 2 x)"), true}};
    vec_push(g.a.dead, dead);
    buf = NULL;
    f = open_memstream(&buf, &len);
    an_dot(f, &g.a, NULL, PN_NONE, 0);
    fclose(f);
    snprintf(want, sizeof want, "  n%u [", g.pn.base.v[dead.lit.base].comp);
    line = strstr(buf, want);
    assert_non_null(line);
    eol = strchr(line, '\n');
    l = strndup(line, (size_t)(eol - line));
    assert_non_null(strstr(l, "peripheries=2,xlabel=\"dead: oplayer if true\""));
    free(l);
    size_t ndead = 1; /* distinct dead bases, plus the legend */
    for (uint32_t i = 0; i < g.a.dead.n; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < i; j++)
            seen |= g.a.dead.v[j].lit.base == g.a.dead.v[i].lit.base;
        ndead += !seen;
    }
    assert_int_equal(count(buf, "peripheries=2"), ndead);
    free(buf);
    /* a focused picture stays small */
    buf = NULL;
    f = open_memstream(&buf, &len);
    an_dot(f, &g.a, s, g.pn.terminal, 1);
    fclose(f);
    assert_true(count(buf, " [") < 40);
    free(buf);
    free(s);
    game_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(control_tiny),
        cmocka_unit_test(control_tictactoe),
        cmocka_unit_test(irrelevant_tiny),
        cmocka_unit_test(irrelevant_dualhunter),
        cmocka_unit_test(irrelevant_chinook),
        cmocka_unit_test(partitions_sudoku4),
        cmocka_unit_test(partitions_none),
        cmocka_unit_test(winning_tictactoe),
        cmocka_unit_test(distance_exact),
        cmocka_unit_test(brute_tictactoe),
        cmocka_unit_test(dot_tictactoe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
