/*
 * hybrid.c: engines "jit" and "aot", the plan that picks how a game is
 * played.
 *
 * A game whose grounding fits RT_JIT_PN_BUDGET is played by its
 * propositional network (engine pn's: dense bases, counters per gate,
 * legal moves as bitsets in canonical order, the propagation compiled by
 * libtcc within pncg's line budget), which is several times faster than the
 * goal-directed code wherever the grounding is small; a game past the
 * budget (the grounder stops at it, so finding out costs at most the budget)
 * is played by the goal-directed code alone, as engine "jit:goal" always
 * is, and the machine holds that engine directly (rt_jit_resolve).
 * Engine aot makes the same plan with the system compiler: the network's
 * propagation compiled into the aot cache (pn:compiled,cc), else the
 * goal-directed object ("aot:goal").
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

#include "runtime.h"

typedef struct Hybrid {
    const EngineOps *goal_ops; /* rt_engine_jit_goal or rt_engine_aot_goal */
    const GdlGame *game;
    GtStore *store;
    RtControl *ctl;
    void *pn;   /* the network (strict) */
    void *goal; /* the goal-directed code, once a state needed it (NULL: not yet) */
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

static void *hy_create(const EngineOps *goal_ops, const char *budget, const GdlGame *game, const char *arg,
                       GtStore *store, RtControl *ctl, char **err)
{
    bool goal_only = arg && strcmp(arg, "goal") == 0;
    if (arg && !goal_only) {
        ctl->create_status = GDL_BAD_ARGUMENT;
        *err = base_sprintf("engine %s takes no argument but 'goal' (the goal-directed code alone): '%s'",
                            goal_ops->name, arg);
        return NULL;
    }
    Hybrid *h = base_xcalloc(1, sizeof *h);
    h->goal_ops = goal_ops;
    h->game = game;
    h->store = store;
    h->ctl = ctl;
    if (!goal_only) {
        char *why = NULL;
        h->pn = rt_engine_pn.create(game, budget, store, ctl, &why);
        if (h->pn)
            rt_pn_strict(h->pn);
        else if (ctl->create_status != GDL_LIMIT) {
            /* not a budget: cancelled, the deadline passed, or the
             * compiler failed */
            *err = why ? why : base_xstrdup(ctl->error ? ctl->error : "the network was not made");
            free(h);
            return NULL;
        }
        free(why);
        ctl->create_status = 0;
    }
    if (!h->pn && !goal_engine(h)) {
        *err = base_xstrdup(ctl->error ? ctl->error : "not made");
        free(h);
        return NULL;
    }
    return h;
}

static void *jit_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    return hy_create(&rt_engine_jit_goal, RT_JIT_PN_BUDGET, game, arg, store, ctl, err);
}

static void *aot_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    return hy_create(&rt_engine_aot_goal, RT_AOT_PN_BUDGET, game, arg, store, ctl, err);
}

const EngineOps *rt_jit_resolve(const EngineOps *ops, void **engine)
{
    Hybrid *h = *engine;
    if (h->pn)
        return ops;
    const EngineOps *goal_ops = h->goal_ops;
    *engine = h->goal;
    free(h);
    return goal_ops;
}

const char *rt_jit_plan(const void *engine)
{
    const Hybrid *h = engine;
    return h->goal ? "propositional network, goal-directed code for states outside it" : "propositional network";
}

static void hy_destroy(void *e)
{
    Hybrid *h = e;
    if (h->pn)
        rt_engine_pn.destroy(h->pn);
    if (h->goal)
        h->goal_ops->destroy(h->goal);
    free(h);
}

static GdlStatus hy_initial(void *e, U32Vec *facts)
{
    Hybrid *h = e;
    return rt_engine_pn.initial(h->pn, facts);
}

static GdlStatus hy_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves)
{
    Hybrid *h = e;
    uint32_t from = moves->n;
    GdlStatus st = rt_engine_pn.legal(h->pn, state, n, role, moves);
    if (st != RT_PN_UNCOVERED)
        return st;
    moves->n = from;
    void *g = goal_engine(h);
    if (!g)
        return GDL_LIMIT;
    if ((st = h->goal_ops->legal(g, state, n, role, moves)) == GDL_OK)
        gt_sort(h->store, moves->v + from, moves->n - from);
    return st;
}

static GdlStatus hy_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    Hybrid *h = e;
    uint32_t from = facts->n;
    GdlStatus st = rt_engine_pn.next(h->pn, state, n, joint, facts);
    if (st != RT_PN_UNCOVERED)
        return st;
    facts->n = from;
    void *g = goal_engine(h);
    return g ? h->goal_ops->next(g, state, n, joint, facts) : GDL_LIMIT;
}

static GdlStatus hy_terminal(void *e, const Gt *state, uint32_t n, bool *terminal)
{
    Hybrid *h = e;
    GdlStatus st = rt_engine_pn.terminal(h->pn, state, n, terminal);
    if (st != RT_PN_UNCOVERED)
        return st;
    void *g = goal_engine(h);
    return g ? h->goal_ops->terminal(g, state, n, terminal) : GDL_LIMIT;
}

static GdlStatus hy_goals(void *e, const Gt *state, uint32_t n, U32Vec *values)
{
    Hybrid *h = e;
    uint32_t from = values->n;
    GdlStatus st = rt_engine_pn.goals(h->pn, state, n, values);
    if (st != RT_PN_UNCOVERED)
        return st;
    values->n = from;
    void *g = goal_engine(h);
    return g ? h->goal_ops->goals(g, state, n, values) : GDL_LIMIT;
}

static void hy_terms(void *e, U32Vec *out)
{
    Hybrid *h = e;
    rt_engine_pn.terms(h->pn, out);
}

const EngineOps rt_engine_jit = {
    "jit", jit_create, hy_destroy, hy_initial, hy_legal, hy_next, hy_terminal, hy_goals, ENGINE_ARG_OPTIONAL, hy_terms,
    true,
};
const EngineOps rt_engine_aot = {
    "aot", aot_create, hy_destroy, hy_initial, hy_legal, hy_next, hy_terminal, hy_goals, ENGINE_ARG_OPTIONAL, hy_terms,
    true,
};
