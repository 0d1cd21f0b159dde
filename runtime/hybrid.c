/*
 * hybrid.c: engines "jit" and "aot", the plan that picks how a game is
 * played.
 *
 * A game whose grounding fits RT_JIT_PN_BUDGET may be played by its
 * propositional network (engine pn's: dense bases, counters per gate,
 * legal moves as bitsets in canonical order, propagated from its tables:
 * libtcc's code of the propagation, pn:compiled, was 11-28% slower on
 * Connect Four, Breakthrough and Tic-tac-toe and no faster on the large
 * games), which is several times faster than the
 * goal-directed code on most games whose grounding is small, but not all:
 * on games of few facts and a large network (pancakes6, gt_two_thirds_2p)
 * it is 2 to 3 times slower. So both are made (the goal-directed code
 * first), and each plays random steps, counted in the thread's processor
 * time, in CAL_ROUNDS slices of CAL_SECONDS / 2 (CAL_SECONDS_AOT / 2 for aot),
 * interleaved, each slice going on with its engine's walk from where the
 * last stopped (a Walk); the network is kept unless its best slice made fewer than
 * CAL_KEEP of the steps of the goal-directed code's best (the best, not the
 * sum: a slice that meets caches emptied by the compiler that just ran,
 * or another process, says nothing of the engine). A round after which
 * the network's best is CAL_DECISIVE times the other's ends the timing
 * there: the later rounds matter only where the two are close. The choice
 * depends on the clock, the answers do not: both engines answer every
 * query alike, moves in canonical order. "jit:pn" keeps the network
 * without timing (the tests use it). A game past the budget (the grounder
 * stops at it, so finding out costs at most the budget) is played by the
 * goal-directed code alone, as engine "jit:goal" always is, and the
 * machine then holds that engine directly (EngineOps.resolve).
 * Engine aot makes the same plan with a larger budget (RT_AOT_PN_BUDGET)
 * against the goal-directed object of the system compiler ("aot:goal"),
 * made when the machine is, network or not. Its network plays from the
 * tables too: gcc's code of the propagation (pn:cc) was no faster on any
 * headline game and 18% slower on Tic-tac-toe.
 *
 * The network answers only the states it can hold: those play reaches. A
 * state made by hand (a fact outside the grounded domain, a fixed base given
 * otherwise) is refused by the network made strict (RT_PN_UNCOVERED) and
 * answered by the goal-directed code, made the first time it is needed, so
 * engine jit answers every state as ref does. Its moves are then sorted
 * into canonical order here, as the network's always are, since the API
 * relies on it (EngineOps.sorted_moves).
 */
#include <string.h>
#include <time.h>

#include "engine_host.h"
#include "runtime.h"

#define CAL_SECONDS 0.003 /* of random steps, per engine and two slices */
#define CAL_SECONDS_AOT 0.02 /* the same for aot, which may take its time */
#define CAL_ROUNDS 3      /* slices per engine */
#define CAL_KEEP 0.95     /* the network stays if it made at least this share */
#define CAL_DECISIVE 3.0  /* a round that shows the network this many times the other's best ends the timing */
/* jit times the board only when the network it kept does more than this
 * work a state change (rt_pn_work_per_step: changes told and gates
 * visited, counted, not timed, so that a slower machine or a sanitizer's
 * build decides as a fast one does): on the cheap networks (Tic-tac-toe
 * 53, Breakthrough 76, Connect Four 160) making it would only delay
 * ready; Reversi does 1160, Amazons 10x10 1330, chess_200 1584, Hex 2730
 * (the rate they make is about inverse: 125 to 245 million a second of
 * processor time here) */
#define JIT_BOARD_WORK 400.0
/* What the board's steps with libtcc's code are taken to be worth once
 * its second tier (the system compiler's code) plays: the least ratio of
 * the two measured on the headline games (Tic-tac-toe 1.77; Hex 2.5,
 * Amazons 10x10 2.25, Connect Four 4.4) */
#define JIT_TIER2_GAIN 1.75
/* The most time aot's plan gives making the board (but the system
 * compiler's run): past it, the plan goes on without */
#define AOT_BOARD_SECONDS 5.0
/* A slice of the network against the board in jit's plan: longer than
 * CAL_SECONDS' (the two are closer; hex and Amazons 10x10 took the network
 * in 1 to 2 of 10 makes with 1.5 ms slices) */
#define JIT_BOARD_SLICE 0.006
/* The least processor time the board's sampling is given in jit's plan */
#define JIT_BOARD_SAMPLE_LEAST 0.02

typedef struct Hybrid {
    const EngineOps *goal_ops; /* rt_engine_jit_goal or rt_engine_aot_goal */
    const GdlGame *game;
    GtStore *store;
    RtControl *ctl;
    void *pn;   /* the network (strict) */
    void *goal; /* the goal-directed code, once a state needed it (NULL: not yet) */
    void *board; /* engine board (aot: board:cc), when the plan times it: its
                  * machine plays by it when it wins (hy_resolve) */
    bool board_later; /* jit: the board made and timed after the others, when they are slow */
    double pn_cpu;    /* the processor time making the network took */
    bool outside; /* a state outside the network was met */
    double slice; /* seconds of one engine's slice of the timing (CAL_SECONDS / 2 for jit) */
    char plan[224]; /* hy_plan's answer */
    U32Vec moves; /* outside_check's scratch */
} Hybrid;

static void *goal_engine(Hybrid *h)
{
    if (!h->goal) {
        char *err = NULL;
        h->goal = h->goal_ops->create(h->game, NULL, h->store, h->ctl, &err);
        if (!h->goal) {
            rt_fail(h->ctl, GDL_LIMIT, "engine %s: the goal-directed code for a state outside the network: %s",
                    h->goal_ops->name, err ? err : "not made");
            free(err);
        }
    }
    return h->goal;
}

/* The goal-directed code for a state the network refused (the plan then
 * says so), or NULL with the error set. */
static void *outside(Hybrid *h)
{
    h->outside = true;
    return goal_engine(h);
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void) { return clock_s(CLOCK_MONOTONIC); }

/* The calling thread's processor time: a slice's rate is its steps over
 * the time the thread ran, not the time that passed, so that a slice
 * shared with another thread or process (a player's searches, a second
 * machine being made) says as much of its engine as one that ran alone.
 * Read twice a slice (a call costs about half a microsecond; the slice's
 * end is found by the wall clock, read every step). */
static double cpu_now(void) { return clock_s(CLOCK_THREAD_CPUTIME_ID); }

static void sort_facts(U32Vec *v)
{
    uint32_t i = 1;
    while (i < v->n && v->v[i - 1] < v->v[i])
        i++;
    if (i >= v->n) /* sorted already (the network's), as the API checks first */
        return;
    base_sort_u32(v->v, v->n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < v->n; i++)
        if (k == 0 || v->v[i] != v->v[k - 1])
            v->v[k++] = v->v[i];
    v->n = k;
}

/* A random walk through the game, slice after slice: each engine walks
 * its own, from the same seed, so both play the same steps (they answer
 * alike); a terminal state starts again from the initial one. Slices that
 * went on from where the last stopped see the middle and the end of games,
 * not only their first steps (Amazons 10x10: the network is
 * slower than the goal-directed code in the opening, faster over a game). */
typedef struct Walk {
    U32Vec s, init;
    uint64_t stamp; /* s's, told the engine as the API does (RtControl.stamp) */
    uint64_t rng;
    bool started;
} Walk;

static uint64_t walk_stamp(const Hybrid *h) { return atomic_fetch_add(&h->game->terms->stamps, 1) + 1; }

static void walk_free(Walk *w)
{
    vec_free(w->s);
    vec_free(w->init);
}

/* Random steps per second of engine e on its walk, for about seconds or
 * max_steps steps (0: no bound), whichever comes first, the steps taken
 * into *taken; 0 when it faults first. */
static double steps_per_s(const Hybrid *h, const EngineOps *ops, void *e, Walk *w, double seconds,
                          uint64_t max_steps, uint64_t *taken)
{
    RtControl *ctl = h->ctl;
    uint32_t nroles = h->game->front.ir.roles.n;
    U32Vec t = {0}, moves = {0}, joint = {0};
    vec_reserve(joint, nroles + 1);
    uint64_t steps = 0;
    double t0 = now(), t1 = t0, c0 = cpu_now();
    bool ok = true;
    if (!w->started) {
        w->started = true;
        w->rng = 0x9e3779b97f4a7c15ull;
        ok = ops->initial(e, &w->init) == GDL_OK;
        if (ok)
            sort_facts(&w->init);
        for (uint32_t i = 0; ok && i < w->init.n; i++)
            vec_push(w->s, w->init.v[i]);
        w->stamp = walk_stamp(h);
    }
    U32Vec s = w->s;
    while (ok && (t1 = now()) - t0 < seconds && (!max_steps || steps < max_steps)) {
        bool terminal = false;
        ctl->stamp = w->stamp;
        ok = ops->terminal(e, s.v, s.n, &terminal) == GDL_OK;
        if (ok && terminal) {
            s.n = 0;
            for (uint32_t i = 0; i < w->init.n; i++)
                vec_push(s, w->init.v[i]);
            w->stamp = walk_stamp(h);
            continue;
        }
        for (uint32_t k = 0; ok && k < nroles; k++) {
            moves.n = 0;
            ok = ops->legal(e, s.v, s.n, k, &moves) == GDL_OK && moves.n > 0;
            w->rng = w->rng * 6364136223846793005ull + 1442695040888963407ull;
            if (ok)
                joint.v[k] = moves.v[(w->rng >> 33) % moves.n];
        }
        t.n = 0;
        uint64_t made = ctl->made_stamp = walk_stamp(h);
        if (ok && (ok = ops->next(e, s.v, s.n, joint.v, &t) == GDL_OK)) {
            sort_facts(&t);
            U32Vec x = s;
            s = t;
            t = x;
            w->stamp = made;
            steps++;
        }
        ctl->made_stamp = 0;
    }
    ctl->stamp = 0;
    w->s = s;
    vec_free(t);
    vec_free(moves);
    vec_free(joint);
    *taken = steps;
    double c1 = cpu_now();
    return ok && c1 > c0 ? (double)steps / (c1 - c0) : 0;
}

/* steps_per_s for a slice of h's calibration (seconds, or max_steps when
 * not 0, within twice the slice), every query within a deadline: a query
 * of the goal-directed code can take minutes where grounding found its
 * answer. */
static double timed_steps(const Hybrid *h, const EngineOps *ops, void *e, Walk *w, uint64_t max_steps,
                          uint64_t *taken)
{
    RtControl *ctl = h->ctl;
    double deadline = ctl->deadline, t = now(), seconds = max_steps ? 2 * h->slice : h->slice;
    ctl->deadline = t + 2 * seconds;
    if (deadline > 0 && deadline < ctl->deadline)
        ctl->deadline = deadline;
    double r = steps_per_s(h, ops, e, w, seconds, max_steps, taken);
    ctl->deadline = deadline;
    return r;
}

/* An engine the plan times: its best slice's rate, what its rate is taken
 * to be worth (gain: the board of libtcc's code, whose second tier is on
 * its way, JIT_TIER2_GAIN), and its walk. */
typedef struct Timed {
    const EngineOps *ops;
    void *e;
    double best, gain;
    Walk w;
} Timed;

/* Times engines t[0..n), interleaved, and says which to keep: t[0] unless
 * it made no steps or another's best (times its gain) beats its best by
 * more than 1 / CAL_KEEP; of those others, the best. */
static uint32_t time_engines(Hybrid *h, Timed *t, uint32_t n)
{
    for (int i = 0; n > 1 && i < CAL_ROUNDS; i++) {
        /* the first plays a slice; the others the same steps of the same
         * walk (the cost of a step varies along a game: hex's network
         * pays more as the groups grow) */
        uint64_t steps = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint64_t m = 0;
            double r = timed_steps(h, t[k].ops, t[k].e, &t[k].w, k == 0 ? 0 : steps ? steps : 1, &m);
            if (k == 0)
                steps = m;
            t[k].best = r > t[k].best ? r : t[k].best;
        }
        /* a margin no later slice is going to turn around (six of the
         * eight headline games' networks play 6 to 12 times the
         * goal-directed code; hex and Amazons 10x10, under 2 times, take
         * all the rounds): the rest would only delay ready. Not the other
         * way: the network's first slice runs on caches its making just
         * emptied, and dropping it is not undone */
        bool decisive = t[0].best > 0;
        for (uint32_t k = 1; k < n; k++)
            decisive &= t[k].best > 0 && t[0].best >= CAL_DECISIVE * t[k].best * t[k].gain;
        if (decisive)
            break;
    }
    for (uint32_t k = 0; k < n; k++)
        walk_free(&t[k].w);
    free(h->ctl->error); /* a fault while timing is the game's, met again in play */
    h->ctl->error = NULL;
    uint32_t other = 1;
    for (uint32_t k = 2; k < n; k++)
        if (t[k].best * t[k].gain > t[other].best * t[other].gain)
            other = k;
    return n > 1 && t[0].best > 0 && t[0].best < CAL_KEEP * t[other].best * t[other].gain ? other : 0;
}

/* Times the engines made: the network against the goal-directed code and,
 * for aot, the board (the network, if any, first); for jit, when the
 * network is kept but slow (over JIT_BOARD_WORK work a step), the board
 * of libtcc's code is made then and timed against it, its steps taken at
 * JIT_TIER2_GAIN times their worth, and its second tier started when it
 * wins. The losers are destroyed, but for the goal-directed code
 * (the network's, for states outside it). */
static void time_plan(void *arg)
{
    Hybrid *h = arg;
    Timed t[3];
    uint32_t n = 0;
    if (h->pn)
        t[n++] = (Timed){.ops = &rt_engine_pn, .e = h->pn, .gain = 1};
    if (h->board)
        t[n++] = (Timed){.ops = &rt_engine_board, .e = h->board, .gain = 1};
    if (h->goal) /* made first (hy_create) */
        t[n++] = (Timed){.ops = h->goal_ops, .e = h->goal, .gain = 1};
    if (n == 0)
        return;
    uint32_t win = time_engines(h, t, n);
    const EngineOps *keep = t[win].ops;
    if (h->board_later && keep == &rt_engine_pn && rt_pn_work_per_step(h->pn) > JIT_BOARD_WORK) {
        char *why = NULL;
        /* its sampling bounded by half the processor time the network
         * took to make, so that the trial costs ready about what the
         * network did where it loses; and the whole of it by a deadline
         * (a game whose relations of constants the board evaluates
         * ahead for long: it is not for the board) */
        double sample = h->pn_cpu / 2 > JIT_BOARD_SAMPLE_LEAST ? h->pn_cpu / 2 : JIT_BOARD_SAMPLE_LEAST;
        double deadline = h->ctl->deadline, by = now() + (2 * h->pn_cpu > 0.25 ? 2 * h->pn_cpu : 0.25);
        h->ctl->deadline = deadline > 0 && deadline < by ? deadline : by;
        h->board = rt_board_make(h->game, false, sample, h->store, h->ctl, &why);
        h->ctl->deadline = deadline;
        free(why);
        free(h->ctl->error);
        h->ctl->error = NULL;
        h->ctl->create_status = 0;
        if (h->board) {
            double slice = h->slice;
            Timed u[2] = {{.ops = t[win].ops, .e = t[win].e, .gain = 1},
                          {.ops = &rt_engine_board, .e = h->board, .gain = JIT_TIER2_GAIN}};
            h->slice = JIT_BOARD_SLICE;
            uint32_t k = time_engines(h, u, 2);
            h->slice = slice;
            /* the second tier started once the board won, so that a
             * compiler never runs for a board thrown away (where it does
             * not start, the board plays on by libtcc's code) */
            if (k == 1) {
                keep = &rt_engine_board;
                rt_board_tier2(h->board);
            }
        }
    }
    if (keep != &rt_engine_pn && h->pn) {
        rt_engine_pn.destroy(h->pn);
        h->pn = NULL;
    }
    if (keep != &rt_engine_board && h->board) {
        rt_engine_board.destroy(h->board);
        h->board = NULL;
    }
}

/* Making the network recurses as deep as the rules are long: on a stack
 * segment, as the code generator and libtcc run. */
typedef struct PnCall {
    const GdlGame *game;
    const char *budget;
    GtStore *store;
    RtControl *ctl;
    char **why;
    void *pn;
} PnCall;

static void pn_call(void *arg)
{
    PnCall *c = arg;
    c->pn = rt_engine_pn.create(c->game, c->budget, c->store, c->ctl, c->why);
}

static void pn_make(void *arg) { rt_stack_run(pn_call, arg); }

/* Destroys the engines h made, and h. */
static void hy_free(Hybrid *h)
{
    if (h->pn)
        rt_engine_pn.destroy(h->pn);
    if (h->goal)
        h->goal_ops->destroy(h->goal);
    if (h->board)
        rt_engine_board.destroy(h->board);
    vec_free(h->moves);
    free(h);
}

/* board: the plan times engine board too (compiled by the system compiler
 * for aot, by libtcc for jit). */
static void *hy_create(const EngineOps *goal_ops, const char *budget, double slice, bool board, const GdlGame *game,
                       const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    bool goal_only = arg && strcmp(arg, "goal") == 0, timed = !arg;
    if (arg && !goal_only && strcmp(arg, "pn") != 0) {
        ctl->create_status = GDL_BAD_ARGUMENT;
        *err = base_sprintf("engine %s takes no argument but 'goal' (the goal-directed code alone) or 'pn' (the "
                            "network when the grounding fits, untimed): '%s'",
                            goal_ops->name, arg);
        return NULL;
    }
    Hybrid *h = base_xcalloc(1, sizeof *h);
    h->goal_ops = goal_ops;
    h->slice = slice;
    h->game = game;
    h->store = store;
    h->ctl = ctl;
    h->board_later = timed && board && goal_ops == &rt_engine_jit_goal;
    if (timed && board && !h->board_later) {
        /* first: its facts' ids then increase with its slots (board.c) */
        char *why = NULL;
        /* within AOT_BOARD_SECONDS (the domain analysis of slaughter runs
         * for minutes: it is not for the board) */
        double deadline = ctl->deadline, by = now() + AOT_BOARD_SECONDS;
        ctl->deadline = deadline > 0 && deadline < by ? deadline : by;
        h->board = rt_board_make(game, goal_ops == &rt_engine_aot_goal, 0, store, ctl, &why);
        ctl->deadline = deadline;
        free(why);
        free(ctl->error); /* a board not made is a plan without it */
        ctl->error = NULL;
        ctl->create_status = 0;
    }
    /* A plan to be timed makes the goal-directed code first, so that its
     * code and tables lie apart from the network's, made next: made after
     * a network that the timing then dropped, it played knightfight 5-10%
     * slower than when made alone, and no network played slower for it
     * (Connect Four, Breakthrough, checkers, Reversi: 0.99-1.03). jit
     * without it (libtcc failed) plays the network untimed, as before; aot
     * fails, as it does without a network. */
    if (timed && !goal_engine(h)) {
        if (goal_ops == &rt_engine_aot_goal) {
            *err = base_xstrdup(ctl->error ? ctl->error : "not made");
            hy_free(h);
            return NULL;
        }
        free(ctl->error);
        ctl->error = NULL;
    }
    if (!goal_only) {
        char *why = NULL;
        PnCall pc = {game, budget, store, ctl, &why, NULL};
        /* the goal-directed code made first holds libtcc's or dlopen's
         * memory, which the journal does not free: freed here when making
         * the network runs out of memory */
        double c0 = cpu_now();
        const char *oom = base_oom_catch(pn_make, &pc);
        h->pn_cpu = cpu_now() - c0;
        if (oom) {
            hy_free(h);
            base_fatal(oom);
        }
        h->pn = pc.pn;
        if (h->pn)
            rt_pn_strict(h->pn);
        else if (ctl->create_status != GDL_LIMIT) {
            /* not a budget: cancelled, the deadline passed, or the
             * compiler failed */
            *err = why ? why : base_xstrdup(ctl->error ? ctl->error : "the network was not made");
            hy_free(h);
            return NULL;
        }
        free(why);
        ctl->create_status = 0;
    }
    /* aot makes its goal-directed object now, network or not: a system
     * compiler that fails is the user's to hear of, not a plan to pass over */
    if ((!h->pn || goal_ops == &rt_engine_aot_goal) && !h->goal && !goal_engine(h)) {
        *err = base_xstrdup(ctl->error ? ctl->error : "not made");
        hy_free(h);
        return NULL;
    }
    if ((h->pn || h->board || h->board_later) && timed) {
        /* the network holds libtcc's or dlopen's memory, which the
         * journal does not free: running out of memory while timing
         * frees the engines here, then goes on to the caller's handler */
        const char *oom = base_oom_catch(time_plan, h);
        if (oom) {
            hy_free(h);
            base_fatal(oom);
        }
    }
    return h;
}

static void *jit_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    return hy_create(&rt_engine_jit_goal, RT_JIT_PN_BUDGET, CAL_SECONDS / 2, true, game, arg, store, ctl, err);
}

static void *aot_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    return hy_create(&rt_engine_aot_goal, RT_AOT_PN_BUDGET, CAL_SECONDS_AOT / 2, true, game, arg, store, ctl, err);
}

static const EngineOps *hy_resolve(const EngineOps *ops, void **engine)
{
    Hybrid *h = *engine;
    if (h->board) {
        /* the board won the plan: it plays alone */
        void *b = h->board;
        bool aot = h->goal_ops == &rt_engine_aot_goal;
        h->board = NULL;
        hy_free(h);
        *engine = b;
        return rt_board_ops(b, aot);
    }
    if (h->pn)
        return ops;
    const EngineOps *goal_ops = h->goal_ops;
    *engine = h->goal;
    free(h);
    return goal_ops;
}

static const char *hy_plan(const void *engine)
{
    Hybrid *h = (Hybrid *)engine;
    uint32_t k = rt_pn_phases(h->pn);
    char phases[32] = "";
    if (k)
        snprintf(phases, sizeof phases, " in %u phases", k);
    snprintf(h->plan, sizeof h->plan, "propositional network%s%s%s%s", phases,
             rt_pn_goals_apart(h->pn) ? ", goals in a network of their own" : "",
             rt_pn_ordered(h->pn) ? ", changes told in topological order" : "",
             h->outside ? ", goal-directed code for states outside it" : "");
    return h->plan;
}

static void hy_destroy(void *e) { hy_free(e); }

static EngineStatus hy_initial(void *e, U32Vec *facts)
{
    Hybrid *h = e;
    return rt_engine_pn.initial(h->pn, facts);
}

static EngineStatus hy_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves)
{
    Hybrid *h = e;
    uint32_t from = moves->n;
    EngineStatus st = rt_engine_pn.legal(h->pn, state, n, role, moves);
    if (st != RT_PN_UNCOVERED)
        return st;
    moves->n = from;
    void *g = outside(h);
    if (!g)
        return GDL_LIMIT;
    if ((st = h->goal_ops->legal(g, state, n, role, moves)) == GDL_OK)
        gt_sort(h->store, moves->v + from, moves->n - from);
    return st;
}

static EngineStatus hy_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    Hybrid *h = e;
    uint32_t from = facts->n;
    EngineStatus st = rt_engine_pn.next(h->pn, state, n, joint, facts);
    if (st != RT_PN_UNCOVERED)
        return st;
    facts->n = from;
    void *g = outside(h);
    return g ? h->goal_ops->next(g, state, n, joint, facts) : GDL_LIMIT;
}

static EngineStatus hy_terminal(void *e, const Gt *state, uint32_t n, bool *terminal)
{
    Hybrid *h = e;
    EngineStatus st = rt_engine_pn.terminal(h->pn, state, n, terminal);
    if (st != RT_PN_UNCOVERED)
        return st;
    void *g = outside(h);
    return g ? h->goal_ops->terminal(g, state, n, terminal) : GDL_LIMIT;
}

static EngineStatus hy_goals(void *e, const Gt *state, uint32_t n, U32Vec *values)
{
    Hybrid *h = e;
    uint32_t from = values->n;
    EngineStatus st = rt_engine_pn.goals(h->pn, state, n, values);
    if (st != RT_PN_UNCOVERED)
        return st;
    values->n = from;
    void *g = outside(h);
    return g ? h->goal_ops->goals(g, state, n, values) : GDL_LIMIT;
}

/* Whether every move of joint is legal in a state outside the network, by
 * the goal-directed code g: GDL_OK, RT_ILLEGAL, or its failure. */
static EngineStatus outside_check(Hybrid *h, void *g, const Gt *state, uint32_t n, const Gt *joint)
{
    uint32_t nroles = h->game->front.ir.roles.n;
    for (uint32_t k = 0; k < nroles; k++) {
        h->moves.n = 0;
        EngineStatus st = h->goal_ops->legal(g, state, n, k, &h->moves);
        if (st != GDL_OK)
            return st;
        bool found = false;
        for (uint32_t i = 0; i < h->moves.n && !found; i++)
            found = h->moves.v[i] == joint[k];
        if (!found)
            return RT_ILLEGAL;
    }
    return GDL_OK;
}

/* The network's check; a state outside it is checked and played by the
 * goal-directed code, here (the API hears RT_ILLEGAL or the next state). */
static EngineStatus hy_next_checked(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    Hybrid *h = e;
    uint32_t from = facts->n;
    EngineStatus st = rt_engine_pn.next_checked(h->pn, state, n, joint, facts);
    if (st != RT_PN_UNCOVERED)
        return st;
    facts->n = from;
    void *g = outside(h);
    if (!g)
        return GDL_LIMIT;
    st = outside_check(h, g, state, n, joint);
    return st == GDL_OK ? h->goal_ops->next(g, state, n, joint, facts) : st;
}

static void hy_terms(void *e, U32Vec *out)
{
    Hybrid *h = e;
    rt_engine_pn.terms(h->pn, out);
}

static uint32_t hy_made_facts(void *e, const Gt **facts, uint32_t *most)
{
    Hybrid *h = e;
    return rt_engine_pn.made_facts(h->pn, facts, most);
}

/* The network's; a state outside it is made by hy_next_checked, which the
 * API asks when told RT_UNSHARED. */
static EngineStatus hy_next_facts(void *e, const Gt *state, uint32_t n, const Gt *joint, Gt *facts, uint32_t *nout)
{
    Hybrid *h = e;
    EngineStatus st = rt_engine_pn.next_facts(h->pn, state, n, joint, facts, nout);
    return st == RT_PN_UNCOVERED ? RT_UNSHARED : st;
}

const EngineOps rt_engine_jit = {
    "jit", jit_create, hy_destroy, hy_initial, hy_legal, hy_next, hy_terminal, hy_goals, ENGINE_ARG_OPTIONAL, hy_terms,
    true, hy_next_checked, hy_made_facts, hy_next_facts, hy_plan, hy_resolve,
};
const EngineOps rt_engine_aot = {
    "aot", aot_create, hy_destroy, hy_initial, hy_legal, hy_next, hy_terminal, hy_goals, ENGINE_ARG_OPTIONAL, hy_terms,
    true, hy_next_checked, hy_made_facts, hy_next_facts, hy_plan, hy_resolve,
};
