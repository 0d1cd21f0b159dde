/* test_batch.c: the batched playouts (gdl_batch_*, runtime/batch.c).
 *
 * The central check (lanes_agree): every lane of a batch is followed, pass
 * by pass, by one machine of engine pn playing the playouts of generator
 * seed + lane as gdlc bench plays them (restarts, and the moves drawn at
 * the step cap): how each pass began for the lane (playing, terminal with
 * its goals, capped), the legal moves, the joint move drawn and the state
 * made must all be equal. A bug planted in the lanes (lane 63 loses a
 * legal move; lane 1 shares lane 0's generator) must be caught, in that
 * lane alone. Both evaluations (whole, by changed rows) are followed, on
 * the shipped games and on random ones. Then the arguments, a game past the grounding's budget,
 * forks run in threads (the same totals as run one after the other), the
 * cancel flag and deadline, and restarts. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api_helpers.h"
#include "../../runtime/runtime.h"
#include "../gen/gen.h"

#ifndef GDLC_SOURCE_DIR
#error "GDLC_SOURCE_DIR must be defined"
#endif
#define GAME(name) GDLC_SOURCE_DIR "/games/" name ".kif"

static GdlGame *load(const char *path)
{
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_file(path, &g, NULL), GDL_OK);
    return g;
}

typedef struct Follower {
    GdlState *s;
    GdlRng rng;
    uint64_t steps;
} Follower;

static char *moves_text(GdlMachine *m, const GdlMove *moves, size_t n)
{
    size_t cap = 64, len = 0;
    char *t = malloc(cap);
    t[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const char *x = gdl_move_text(m, moves[i]);
        while (len + strlen(x) + 2 > cap)
            t = realloc(t, cap *= 2);
        len += (size_t)sprintf(t + len, "%s%s", i ? " " : "", x);
    }
    return t;
}

/* What following a batch's lanes found. */
typedef struct Followed {
    unsigned diverged; /* lanes that diverged */
    unsigned first;    /* the first of them (UINT32_MAX: none) */
    unsigned ended, capped; /* playouts seen to end, of which at the cap */
    bool fault;        /* the game faulted (a lane without a legal move, no goal): both sides stop */
} Followed;

#define TRY(call)                                                              \
    do {                                                                       \
        if ((call) != GDL_OK) {                                                \
            f.fault = true;                                                    \
            goto out;                                                          \
        }                                                                      \
    } while (0)

/* The evaluation follow forces (-1: the batch's choice). */
static int forced_eval = -1;

/* Plays passes of a batch of g (lanes, seed, max_steps, a planted bug)
 * beside one machine of engine per lane. */
static Followed follow(GdlGame *g, const char *engine, unsigned lanes, uint64_t seed, uint64_t max_steps,
                       unsigned passes, int bug)
{
    Followed f = {.first = UINT32_MAX};
    GdlMachine *bm = NULL, *pm = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &bm), GDL_OK);
    assert_int_equal(gdl_machine_new(g, engine, &pm), GDL_OK);
    GdlBatch *b = NULL;
    assert_int_equal(gdl_batch_new(bm, lanes, seed, max_steps, &b), GDL_OK);
    if (forced_eval >= 0) {
        assert_int_equal(gdl_batch_set_evaluation(b, forced_eval), GDL_OK);
        assert_int_equal(gdl_batch_evaluation(b), forced_eval);
    }
    if (bug) {
        rt_batch_plant(b, bug);
        gdl_batch_restart(b, seed);
    }
    unsigned nroles = gdl_game_role_count(g);
    GdlState *init = NULL;
    Follower *fl = calloc(lanes, sizeof *fl);
    bool *bad = calloc(lanes, sizeof *bad);
    TRY(gdl_state_initial(pm, &init));
    for (unsigned l = 0; l < lanes; l++) {
        fl[l].s = gdl_state_copy(init);
        gdl_rng_seed(&fl[l].rng, seed + l);
    }
    for (unsigned p = 0; p < passes; p++) {
        TRY(gdl_batch_run(b, 1, NULL));
        for (unsigned l = 0; l < lanes; l++) {
            if (bad[l])
                continue;
            Follower *x = &fl[l];
            GdlBatchLane info;
            assert_int_equal(gdl_batch_lane_pass(b, l, &info), GDL_OK);
            bool terminal = false, ok = true;
            TRY(gdl_state_is_terminal(pm, x->s, &terminal));
            GdlMove joint[GDL_BATCH_MAX_ROLES];
            if (terminal) {
                int goals[GDL_BATCH_MAX_ROLES];
                TRY(gdl_state_goals(pm, x->s, goals));
                ok = info.ended == GDL_BATCH_TERMINAL && info.ended_steps == x->steps;
                for (unsigned k = 0; ok && k < nroles; k++)
                    ok = info.goals[k] == goals[k];
            } else if (x->steps == max_steps) {
                TRY(gdl_state_random_joint_move(pm, x->s, &x->rng, joint));
                ok = info.ended == GDL_BATCH_CAPPED && info.ended_steps == max_steps;
                f.capped += ok;
            } else {
                ok = info.ended == GDL_BATCH_PLAYING;
            }
            if (ok && info.ended) {
                f.ended++;
                gdl_state_free(x->s);
                x->s = gdl_state_copy(init);
                x->steps = 0;
            }
            for (unsigned k = 0; ok && k < nroles; k++) {
                const GdlMove *mb, *mp;
                size_t nb, np;
                assert_int_equal(gdl_batch_lane_legal(b, l, k, &mb, &nb), GDL_OK);
                char *tb = moves_text(bm, mb, nb);
                TRY(gdl_state_legal(pm, x->s, k, &mp, &np));
                char *tp = moves_text(pm, mp, np);
                ok = strcmp(tb, tp) == 0;
                free(tb);
                free(tp);
            }
            if (ok) {
                TRY(gdl_state_random_joint_move(pm, x->s, &x->rng, joint));
                for (unsigned k = 0; ok && k < nroles; k++)
                    ok = strcmp(gdl_move_text(bm, info.joint[k]), gdl_move_text(pm, joint[k])) == 0;
            }
            if (ok) {
                GdlState *nx = NULL, *ls = NULL;
                TRY(gdl_state_next(pm, x->s, joint, &nx));
                gdl_state_free(x->s);
                x->s = nx;
                x->steps++;
                assert_int_equal(gdl_batch_lane_state(b, l, &ls), GDL_OK);
                ok = gdl_state_equal(ls, x->s);
                gdl_state_free(ls);
            }
            if (!ok) {
                bad[l] = true;
                f.diverged++;
                if (f.first == UINT32_MAX)
                    f.first = l;
            }
        }
    }
out:
    for (unsigned l = 0; l < lanes; l++)
        gdl_state_free(fl[l].s);
    free(fl);
    free(bad);
    gdl_state_free(init);
    gdl_batch_free(b);
    gdl_machine_free(pm);
    gdl_machine_free(bm);
    return f;
}

/* follow on a shipped game, which must not fault; the number of lanes
 * that diverged, the first in *first. */
static unsigned lanes_agree(const char *path, unsigned lanes, uint64_t seed, uint64_t max_steps, unsigned passes,
                            int bug, unsigned *first)
{
    GdlGame *g = load(path);
    Followed f = follow(g, "pn", lanes, seed, max_steps, passes, bug);
    gdl_game_free(g);
    assert_false(f.fault);
    if (!bug) {
        /* the check saw playouts end both ways */
        assert_true(f.ended > lanes);
        assert_true(f.capped > 0);
    }
    *first = f.first;
    return f.diverged;
}

/* Random games (tests/gen: gengdl SEED prints one), each followed by ref:
 * GDLC_BATCH_GEN_SEEDS of them (default 150). A game the batch cannot
 * take (past the budget, an initial state that is terminal) or that
 * faults is counted, not checked; most must be checked. */
static void random_games_agree_with_ref(void **state)
{
    (void)state;
    const char *v = getenv("GDLC_BATCH_GEN_SEEDS");
    uint64_t n = v && *v ? strtoull(v, NULL, 10) : 150, checked = 0, declined = 0, faulted = 0;
    for (uint64_t seed = 1; seed <= n; seed++) {
        char *text = gen_game(seed);
        GdlGame *g = NULL;
        GdlStatus st = gdl_game_load_string("gen.kif", text, strlen(text), &g, NULL);
        free(text);
        if (st != GDL_OK)
            continue;
        GdlMachine *m = NULL;
        assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
        GdlBatch *b = NULL;
        st = gdl_batch_new(m, 64, seed, 20, &b);
        gdl_batch_free(b);
        gdl_machine_free(m);
        if (st != GDL_OK) {
            assert_int_equal(st, GDL_LIMIT);
            declined++;
        } else {
            forced_eval = seed % 2 ? -1 : GDL_BATCH_EVAL_CHANGES; /* half of them by changed rows */
            Followed f = follow(g, "ref", 64, seed, 20, 25, 0);
            forced_eval = -1;
            if (f.diverged)
                fail_msg("gengdl %llu: lane %u of the batch diverges from ref", (unsigned long long)seed, f.first);
            if (f.fault)
                faulted++;
            else
                checked++;
        }
        gdl_game_free(g);
    }
    printf("random games: %llu checked, %llu declined, %llu faulted\n", (unsigned long long)checked,
           (unsigned long long)declined, (unsigned long long)faulted);
    assert_true(checked * 2 > n);
}

static void lanes_agree_with_single_machines(void **state)
{
    (void)state;
    unsigned first;
    /* caps short enough that some playouts end at them, others terminal */
    assert_int_equal(lanes_agree(GAME("tictactoe"), 128, 7, 7, 60, 0, &first), 0);
    assert_int_equal(lanes_agree(GAME("connect4"), 64, 11, 30, 90, 0, &first), 0);
    assert_int_equal(lanes_agree(GAME("breakthrough"), 64, 3, 60, 130, 0, &first), 0);
    assert_int_equal(lanes_agree(GAME("tictactoe"), 512, 1, 8, 30, 0, &first), 0);
    /* the state's gates by changed rows, where the batch chooses whole */
    forced_eval = GDL_BATCH_EVAL_CHANGES;
    assert_int_equal(lanes_agree(GAME("tictactoe"), 128, 7, 7, 60, 0, &first), 0);
    assert_int_equal(lanes_agree(GAME("connect4"), 64, 11, 30, 90, 0, &first), 0);
    assert_int_equal(lanes_agree(GAME("reversi"), 64, 2, 20, 50, 0, &first), 0);
    forced_eval = -1;
    /* the k-th legal move found by counts where pdep finds it (the draws
     * of processors without a fast pdep) */
    rt_batch_pdep(false);
    assert_int_equal(lanes_agree(GAME("tictactoe"), 128, 7, 7, 60, 0, &first), 0);
    assert_int_equal(lanes_agree(GAME("breakthrough"), 64, 3, 60, 130, 0, &first), 0);
    rt_batch_pdep(true);
}

static void planted_bugs_are_caught_in_their_lane(void **state)
{
    (void)state;
    unsigned first;
    assert_int_equal(lanes_agree(GAME("tictactoe"), 128, 7, 7, 20, RT_BATCH_BUG_MASK63, &first), 1);
    assert_int_equal(first, 63);
    assert_int_equal(lanes_agree(GAME("connect4"), 64, 5, 30, 20, RT_BATCH_BUG_MASK63, &first), 1);
    assert_int_equal(first, 63);
    assert_int_equal(lanes_agree(GAME("tictactoe"), 64, 7, 7, 20, RT_BATCH_BUG_SHARE, &first), 1);
    assert_int_equal(first, 1);
}

static void bad_arguments(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("tictactoe"));
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    GdlBatch *b = NULL;
    static const unsigned bad_lanes[] = {0, 32, 100, GDL_BATCH_MAX_LANES + 64};
    for (size_t i = 0; i < sizeof bad_lanes / sizeof *bad_lanes; i++) {
        assert_int_equal(gdl_batch_new(m, bad_lanes[i], 1, 100, &b), GDL_BAD_ARGUMENT);
        assert_null(b);
        assert_non_null(strstr(gdl_machine_error(m), "multiple of 64"));
    }
    assert_int_equal(gdl_batch_new(m, 64, 1, 0, &b), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_machine_error(m), "step cap"));
    assert_int_equal(gdl_batch_new(m, 64, 1, 100, &b), GDL_OK);
    GdlBatchLane info;
    assert_int_equal(gdl_batch_lane_pass(b, 0, &info), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_batch_error(b), "not run a pass"));
    assert_int_equal(gdl_batch_run(b, 1, NULL), GDL_OK);
    assert_int_equal(gdl_batch_lane_pass(b, 64, &info), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_batch_error(b), "no lane 64"));
    const GdlMove *moves;
    size_t n;
    assert_int_equal(gdl_batch_lane_legal(b, 0, 2, &moves, &n), GDL_BAD_ARGUMENT);
    assert_int_equal(gdl_batch_lane_legal(b, 0, 1, &moves, &n), GDL_OK);
    assert_int_equal(gdl_batch_lanes(b), 64);
    assert_non_null(strstr(gdl_batch_plan(b), "64 lanes"));
    gdl_batch_free(b);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void past_the_budget_names_the_engine(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("amazons")); /* one-move Amazons: millions of legal moves */
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    GdlBatch *b = NULL;
    assert_int_equal(gdl_batch_new(m, 64, 1, 100, &b), GDL_LIMIT);
    assert_null(b);
    assert_non_null(strstr(gdl_machine_error(m), "grounding stopped"));
    assert_non_null(strstr(gdl_machine_error(m), "engine jit plays"));
    gdl_machine_free(m);
    gdl_game_free(g);
}

typedef struct Run {
    GdlBatch *b;
    GdlBatchStats stats;
    GdlStatus st;
} Run;

static void *run_thread(void *arg)
{
    Run *r = arg;
    r->st = gdl_batch_run(r->b, 200, &r->stats);
    return NULL;
}

static void forks_run_in_threads(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("connect4"));
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    GdlBatch *b = NULL;
    assert_int_equal(gdl_batch_new(m, 128, 1, 1000, &b), GDL_OK);
    Run r[3] = {{.b = b}};
    for (int i = 1; i < 3; i++)
        assert_int_equal(gdl_batch_fork(b, 1 + 128 * (uint64_t)i, &r[i].b), GDL_OK);
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&t[i], NULL, run_thread, &r[i]), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r[i].st, GDL_OK);
        assert_int_equal(r[i].stats.passes, 200);
        assert_int_equal(r[i].stats.state_changes, 200 * 128);
        /* the same totals again, one after the other */
        GdlBatchStats again;
        gdl_batch_restart(r[i].b, 1 + 128 * (uint64_t)i);
        assert_int_equal(gdl_batch_run(r[i].b, 200, &again), GDL_OK);
        assert_int_equal(again.playouts, r[i].stats.playouts);
        assert_int_equal(again.capped, r[i].stats.capped);
    }
    /* the network outlives the first batch */
    gdl_batch_free(r[0].b);
    assert_int_equal(gdl_batch_run(r[1].b, 10, NULL), GDL_OK);
    gdl_batch_free(r[1].b);
    gdl_batch_free(r[2].b);
    gdl_machine_free(m);
    gdl_game_free(g);
}

static void cancel_and_deadline(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("tictactoe"));
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    GdlBatch *b = NULL;
    assert_int_equal(gdl_batch_new(m, 64, 1, 100, &b), GDL_OK);
    volatile int flag = 1;
    gdl_batch_set_cancel_flag(b, &flag);
    GdlBatchStats s;
    assert_int_equal(gdl_batch_run(b, 0, &s), GDL_CANCELLED);
    assert_int_equal(s.passes, 0);
    assert_non_null(strstr(gdl_batch_error(b), "cancelled"));
    flag = 0;
    gdl_batch_set_deadline(b, gdl_now() + 0.05);
    assert_int_equal(gdl_batch_run(b, 0, &s), GDL_CANCELLED);
    assert_true(s.passes > 0);
    gdl_batch_set_deadline(b, 0);
    assert_int_equal(gdl_batch_run(b, 5, &s), GDL_OK);
    gdl_batch_free(b);
    gdl_machine_free(m);
    gdl_game_free(g);
}


/* Leaf evaluation: playouts from given states. A terminal state is its own
 * result; from the initial state of tic-tac-toe uniformly random play wins
 * for the first player about 58.5% of the time; the same seed gives the
 * same answers; a cap of one step ends no playout from the initial state;
 * a state of another game is refused. */
static void playouts_from_states(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("tictactoe"));
    GdlMachine *m = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &m), GDL_OK);
    GdlBatch *b = NULL;
    assert_int_equal(gdl_batch_new(m, 128, 5, 100, &b), GDL_OK);
    /* a random playout's states, the last terminal */
    enum { N = 3000 };
    const GdlState **states = calloc(N, sizeof *states);
    GdlState *path[16];
    int npath = 0;
    GdlRng rng;
    gdl_rng_seed(&rng, 9);
    assert_int_equal(gdl_state_initial(m, &path[0]), GDL_OK);
    for (bool t = false;; npath++) {
        assert_int_equal(gdl_state_is_terminal(m, path[npath], &t), GDL_OK);
        if (t)
            break;
        GdlMove joint[2];
        assert_int_equal(gdl_state_random_joint_move(m, path[npath], &rng, joint), GDL_OK);
        assert_int_equal(gdl_state_next(m, path[npath], joint, &path[npath + 1]), GDL_OK);
    }
    for (int i = 0; i < N; i++)
        states[i] = i == 0 ? path[npath] : path[0];
    int *goals = calloc(2 * N, sizeof *goals), *again = calloc(2 * N, sizeof *goals), end[2];
    assert_int_equal(gdl_batch_playouts(b, states, N, goals), GDL_OK);
    assert_int_equal(gdl_state_goals(m, path[npath], end), GDL_OK);
    assert_int_equal(goals[0], end[0]);
    assert_int_equal(goals[1], end[1]);
    unsigned xwins = 0;
    for (int i = 1; i < N; i++) {
        assert_int_equal(goals[2 * i] + goals[2 * i + 1], 100);
        xwins += goals[2 * i] == 100;
    }
    assert_in_range(xwins, (unsigned)(0.55 * (N - 1)), (unsigned)(0.62 * (N - 1)));
    gdl_batch_restart(b, 5);
    assert_int_equal(gdl_batch_playouts(b, states, N, again), GDL_OK);
    assert_memory_equal(goals, again, 2 * N * sizeof *goals);
    gdl_batch_free(b);
    /* a cap of one step: no playout from the initial state ends in time */
    assert_int_equal(gdl_batch_new(m, 64, 5, 1, &b), GDL_OK);
    assert_int_equal(gdl_batch_playouts(b, states, 10, goals), GDL_OK);
    for (int i = 1; i < 10; i++)
        assert_int_equal(goals[2 * i], GDL_NO_GOAL);
    /* a state of another game */
    GdlGame *g2 = load(GAME("connect4"));
    GdlMachine *m2 = NULL;
    assert_int_equal(gdl_machine_new(g2, "ref", &m2), GDL_OK);
    GdlState *other = NULL;
    assert_int_equal(gdl_state_initial(m2, &other), GDL_OK);
    const GdlState *bad[1] = {other};
    assert_int_equal(gdl_batch_playouts(b, bad, 1, goals), GDL_BAD_ARGUMENT);
    assert_non_null(strstr(gdl_batch_error(b), "state 0"));
    gdl_state_free(other);
    gdl_machine_free(m2);
    gdl_game_free(g2);
    gdl_batch_free(b);
    for (int i = 0; i <= npath; i++)
        gdl_state_free(path[i]);
    free(states);
    free(goals);
    free(again);
    gdl_machine_free(m);
    gdl_game_free(g);
}

/* The per-step form against a machine of pn per lane, the caller drawing
 * the moves: every lane's mask is its legal moves, terminal and goals
 * agree, an illegal action is refused with nothing played. */
static void stepping_from_outside(void **state)
{
    (void)state;
    GdlGame *g = load(GAME("connect4"));
    GdlMachine *bm = NULL, *pm = NULL;
    assert_int_equal(gdl_machine_new(g, "ref", &bm), GDL_OK);
    assert_int_equal(gdl_machine_new(g, "pn", &pm), GDL_OK);
    enum { L = 64 };
    GdlBatch *b = NULL;
    assert_int_equal(gdl_batch_new(bm, L, 1, 100, &b), GDL_OK);
    unsigned nroles = gdl_game_role_count(g);
    const GdlMove *acts[2];
    size_t nacts[2];
    for (unsigned k = 0; k < nroles; k++)
        nacts[k] = gdl_batch_role_moves(b, k, &acts[k]);
    GdlState *init = NULL, *s[L];
    assert_int_equal(gdl_state_initial(pm, &init), GDL_OK);
    for (unsigned l = 0; l < L; l++)
        s[l] = gdl_state_copy(init);
    uint8_t *mask = calloc(L * (nacts[0] + nacts[1]), 1), term[L], reset[L];
    int goals[L * 2];
    uint32_t actions[L * 2];
    GdlRng rng;
    gdl_rng_seed(&rng, 3);
    unsigned ends = 0;
    for (int step = 0; step < 120; step++) {
        assert_int_equal(gdl_batch_terminal(b, term, goals), GDL_OK);
        for (unsigned l = 0; l < L; l++) {
            bool t;
            assert_int_equal(gdl_state_is_terminal(pm, s[l], &t), GDL_OK);
            assert_int_equal(term[l], t);
            reset[l] = t;
            if (t) {
                int want[2];
                assert_int_equal(gdl_state_goals(pm, s[l], want), GDL_OK);
                assert_int_equal(goals[2 * l], want[0]);
                assert_int_equal(goals[2 * l + 1], want[1]);
                gdl_state_free(s[l]);
                s[l] = gdl_state_copy(init);
                ends++;
            } else {
                assert_int_equal(goals[2 * l], GDL_NO_GOAL);
            }
        }
        assert_int_equal(gdl_batch_reset_lanes(b, reset), GDL_OK);
        for (unsigned k = 0; k < nroles; k++) {
            assert_int_equal(gdl_batch_legal_mask(b, k, mask), GDL_OK);
            for (unsigned l = 0; l < L; l++) {
                const GdlMove *mv;
                size_t n;
                assert_int_equal(gdl_state_legal(pm, s[l], k, &mv, &n), GDL_OK);
                size_t on = 0;
                for (size_t a = 0; a < nacts[k]; a++)
                    if (mask[l * nacts[k] + a]) {
                        assert_true(on < n);
                        assert_string_equal(gdl_move_text(bm, acts[k][a]), gdl_move_text(pm, mv[on]));
                        on++;
                    }
                assert_int_equal(on, n);
                /* the caller's draw: the k-th legal action */
                uint64_t pick = gdl_rng_below(&rng, n);
                for (size_t a = 0, seen = 0; a < nacts[k]; a++)
                    if (mask[l * nacts[k] + a] && seen++ == pick)
                        actions[l * nroles + k] = (uint32_t)a;
            }
        }
        if (step % 10 == 0) {
            /* the lanes as bytes (gdl_batch_observe): the bases that hold
             * are the pn machine's facts, in canonical order (gdl_state_facts) */
            const GdlFact *bf;
            size_t nb = gdl_batch_bases(b, &bf), stride = nb + 3;
            uint8_t *obs = malloc(L * stride);
            memset(obs, 7, L * stride);
            assert_int_equal(gdl_batch_observe(b, NULL, nb, stride, obs), GDL_OK);
            for (unsigned l = 0; l < L; l++) {
                const GdlFact *f;
                size_t n, ones = 0;
                assert_int_equal(gdl_state_facts(pm, s[l], &f, &n), GDL_OK);
                assert_int_equal(n, gdl_state_size(s[l]));
                for (size_t j = 0; j < nb; j++)
                    ones += obs[l * stride + j];
                assert_int_equal(ones, n);
                assert_int_equal(obs[l * stride + nb], 7); /* past width: untouched */
                for (size_t i = 0; i < n; i++) {
                    assert_string_equal(gdl_fact_text(pm, f[i]), gdl_state_fact(pm, s[l], i));
                    size_t j = 0;
                    while (j < nb && strcmp(gdl_fact_text(bm, bf[j]), gdl_fact_text(pm, f[i])) != 0)
                        j++;
                    assert_true(j < nb);
                    assert_int_equal(obs[l * stride + j], 1);
                }
            }
            free(obs);
            /* the masks through a column map (reversed), and refusals */
            uint32_t *col = malloc(nacts[1] * sizeof *col);
            for (size_t a = 0; a < nacts[1]; a++)
                col[a] = (uint32_t)(nacts[1] - 1 - a);
            uint8_t *rev = malloc(L * nacts[1]), *plain = malloc(L * nacts[1]);
            assert_int_equal(gdl_batch_legal_mask(b, 1, plain), GDL_OK);
            assert_int_equal(gdl_batch_legal_columns(b, 1, col, nacts[1], nacts[1], rev), GDL_OK);
            for (unsigned l = 0; l < L; l++)
                for (size_t a = 0; a < nacts[1]; a++)
                    assert_int_equal(rev[l * nacts[1] + col[a]], plain[l * nacts[1] + a]);
            assert_int_equal(gdl_batch_legal_columns(b, 1, NULL, nacts[1] - 1, nacts[1], rev), GDL_BAD_ARGUMENT);
            assert_int_equal(gdl_batch_legal_columns(b, 1, col, nacts[1], nacts[1] - 1, rev), GDL_BAD_ARGUMENT);
            assert_int_equal(gdl_batch_legal_columns(b, 2, col, nacts[1], nacts[1], rev), GDL_BAD_ARGUMENT);
            assert_int_equal(gdl_batch_observe(b, NULL, 1, 1, rev), GDL_BAD_ARGUMENT);
            free(col);
            free(rev);
            free(plain);
        }
        if (step == 0) {
            /* an illegal action: refused, nothing played */
            uint32_t keep = actions[5 * nroles];
            actions[5 * nroles] = (uint32_t)nacts[0]; /* past the role's actions */
            assert_int_equal(gdl_batch_step(b, actions), GDL_BAD_ARGUMENT);
            assert_non_null(strstr(gdl_batch_error(b), "lane 5"));
            actions[5 * nroles] = keep;
        }
        assert_int_equal(gdl_batch_step(b, actions), GDL_OK);
        for (unsigned l = 0; l < L; l++) {
            GdlMove joint[2];
            for (unsigned k = 0; k < nroles; k++)
                assert_int_equal(gdl_move_parse(pm, gdl_move_text(bm, acts[k][actions[l * nroles + k]]), &joint[k]),
                                 GDL_OK);
            GdlState *nx = NULL, *ls = NULL;
            assert_int_equal(gdl_state_next(pm, s[l], joint, &nx), GDL_OK);
            gdl_state_free(s[l]);
            s[l] = nx;
            assert_int_equal(gdl_batch_lane_state(b, l, &ls), GDL_OK);
            assert_true(gdl_state_equal(ls, s[l]));
            gdl_state_free(ls);
        }
    }
    assert_true(ends > L);
    for (unsigned l = 0; l < L; l++)
        gdl_state_free(s[l]);
    gdl_state_free(init);
    free(mask);
    gdl_batch_free(b);
    gdl_machine_free(pm);
    gdl_machine_free(bm);
    gdl_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lanes_agree_with_single_machines),
        cmocka_unit_test(planted_bugs_are_caught_in_their_lane),
        cmocka_unit_test(random_games_agree_with_ref),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(past_the_budget_names_the_engine),
        cmocka_unit_test(forks_run_in_threads),
        cmocka_unit_test(cancel_and_deadline),
        cmocka_unit_test(playouts_from_states),
        cmocka_unit_test(stepping_from_outside),
    };
    /* GDLC_TEST_FILTER: the tests to run (ThreadSanitizer's build runs the threads' alone) */
    const char *filter = getenv("GDLC_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
