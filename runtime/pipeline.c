/*
 * pipeline.c: the back half of the compiler, one call per pass (see
 * pipeline.h).
 *
 * The front half (frontend/front.c's front_run: read, validate, lower)
 * made the game's IR when the game was loaded; the domain analysis
 * (domain.c) runs when the API is asked for the base and input
 * propositions. From the IR:
 *
 *   fold      relations of neither the state nor the move, evaluated
 *             ahead by ref into facts (fold.h);
 *   plan      the code generator's decisions: relations as fact sets or
 *             calls, the queries reached, join orders (backend/plan.h);
 *   emit      the C, printed from the plan (backend/cg.h);
 *   compile   by the engine that asked for the C (compiled.c): libtcc in
 *             memory (jit), or the system C compiler into a shared object
 *             (aot, gdlc compile).
 *
 * The propositional half (rt_propnet, for engine pn, gdlc propnet and
 * check's dumps) runs from the IR too:
 *
 *   ground    (its rules condensed first for the engines: split where
 *             few variables join their parts, so that they ground to
 *             fewer instances) the program instantiated over its reachable domain, static
 *             relations folded into facts (middle/ground.h);
 *   propnet   the network of the ground program (middle/propnet.h);
 *   optimise  its optimisations, to a fixpoint (middle/pnopt.c);
 *   tables    by the engine that asked for it (pn.c).
 */
#include "pipeline.h"

#include <string.h>

#include "../backend/cg.h"
#include "engine_host.h"
#include "fold.h"

/* The plan's dump (backend/plan.h) as text. */
static char *plan_text(const CgPlan *plan, size_t *len)
{
    char *out = NULL;
    FILE *m = open_memstream(&out, len);
    if (!m)
        base_fatal("out of memory");
    cg_plan_dump(m, plan);
    fclose(m);
    base_journal_adopt(out); /* the C library's block: freed if memory runs out */
    return out;
}

/* The passes, in order. */
static char *back(const GdlGame *game, const RtBackOptions *o, size_t *len, char **err)
{
    char *out = NULL;
    RtFold fold;
    CgPlan plan;
    rt_fold(game, &fold);                                          /* fold */
    CgOptions opt = {.c_name = o->c_name, .no_lines = o->no_lines, .pre = fold.pre, .store = &fold.store};
    if (cg_plan(&plan, &game->front, fold.pre, err))               /* plan */
        out = o->stop == RT_BACK_PLAN ? plan_text(&plan, len)
                                      : cg_emit(&plan, &opt, len, err); /* emit */
    /* compile: the engine's, on the C returned (compiled.c) */
    cg_plan_free(&plan);
    rt_fold_free(&fold);
    return out;
}

/* rt_back's arguments and result, across a stack segment. */
typedef struct BackCall {
    const GdlGame *game;
    const RtBackOptions *o;
    size_t *len;
    char **err;
    char *out;
} BackCall;

static void back_call(void *p)
{
    BackCall *b = p;
    b->out = back(b->game, b->o, b->len, b->err);
}

/* The code generator recurses once per literal of a rule body: it runs on
 * a stack segment, whatever the caller's thread (engine_host.h). */
char *rt_back(const GdlGame *game, const RtBackOptions *o, size_t *len, char **err)
{
    BackCall b = {game, o, len, err, NULL};
    rt_stack_run(back_call, &b);
    return b.out;
}

char *rt_emit(const GdlGame *game, const char *c_name, bool no_lines, size_t *len, char **err)
{
    RtBackOptions o = {RT_BACK_C, c_name, no_lines};
    return rt_back(game, &o, len, err);
}

/* The propositional passes, in order. */
bool rt_propnet(const Ir *ir, const GroundLimits *lim, GtStore *store, unsigned opts, Propnet *pn, GroundStats *gs,
                char **err)
{
    bool vars = false;
    for (uint32_t r = 0; r < ir->rules.n && !vars; r++)
        vars = ir->rules.v[r].nvars > 0;
    if (gs)
        memset(gs, 0, sizeof *gs);
    *err = NULL;
    /* both programs below speak the ids of store's table (a copy of the
     * program's, id for id) */
    Ir g = *ir;
    bool grounded = false;
    if (vars) {
        GroundStats st;
        GroundResult res = opts & PN_OPT_CONDENSE                    /* condense, ground */
                               ? ground_condensed(ir, lim, store->syms, opts & PN_OPT_CONDENSE_ALWAYS, &g, &st, err)
                               : ground_run(ir, lim, &g, &st, err);
        if (res != GROUND_OK) {
            memset(pn, 0, sizeof *pn);
            pn->store = store;
            pn->terminal = PN_NONE;
            if (!*err)
                *err = base_xstrdup("grounding stopped");
            return false;
        }
        grounded = true;
        if (gs)
            *gs = st;
    }
    Symtab *own = g.syms;
    g.syms = store->syms;
    bool ok = pn_build(&g, store, pn, err);                          /* propnet */
    g.syms = own;
    if (grounded)
        ir_free(&g);
    unsigned net = opts & ~(PN_OPT_CONDENSE | PN_OPT_CONDENSE_ALWAYS);
    if (ok && net)
        pn_optimise(pn, net);                                         /* optimise */
    return ok;
}
