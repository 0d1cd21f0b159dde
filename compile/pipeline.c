/*
 * pipeline.c: the compiler's passes, from a game's text to what an engine
 * runs, one call each (see pipeline.h). This is the one list of them.
 *
 * The front half (frontend/front.c's front_run) runs when a game is loaded
 * (gdl_game_load; gdlc check --dump NAME prints each stage):
 *
 *   read      the KIF text into s-expressions (frontend/kif.c);
 *   ast       the rules, their heads and literals (frontend/ast.c; ast);
 *   validate  GDL's restrictions: safety, stratification, arities
 *             (frontend/validate.c);
 *   lower     the IR: relations, rules, variables numbered (frontend/ir.c;
 *             ir).
 *
 * The back half is here, in this folder (compile/), and runs from the IR
 * when an engine asks for its input. The goal-directed code (cp_back, for
 * engines jit:goal, aot:goal and so, gdlc emit; gdlc emit --dump NAME
 * prints a pass's output instead of the C):
 *
 *   fold      relations of neither the state nor the move, evaluated
 *             ahead into facts by the evaluator the caller hands in (the
 *             runtime's reference interpreter: fold.c says why; fold);
 *   plan      the code generator's decisions: relations as fact sets or
 *             calls, the queries reached, join orders (backend/plan.h;
 *             plan);
 *   emit      the C, printed from the plan (backend/cg.h).
 *
 * The propositional network (cp_propnet, for engine pn and the hybrid
 * engines jit and aot, gdlc propnet, gdlc check --dump condensed, ground,
 * pn-raw, pn):
 *
 *   condense  rules split where few variables join their parts, so that
 *             they ground to fewer instances (middle/ground.c; condensed);
 *   ground    the program instantiated over its reachable domain, static
 *             relations folded into facts (middle/ground.h; ground);
 *   propnet   the network of the ground program (middle/propnet.h; pn-raw);
 *   optimise  its optimisations, to a fixpoint (middle/pnopt.c; pn).
 *
 * And, for games without `base` and `input` rules, the domain analysis
 * (domain.c), when the API is asked for the base and input propositions.
 *
 * What the engines do with the output (runtime/, which calls these):
 *
 *   compile   the C by libtcc in memory (jit) or the system C compiler
 *             into a shared object (aot, gdlc compile), then loaded
 *             (runtime/compiled.c);
 *   tables    the network flattened into the arrays engine pn evaluates,
 *             with its phases, guards, goals apart and drain order, chosen
 *             by sampling random play on those very tables (runtime/pn.c;
 *             they stay with the engine, whose evaluator they need);
 *   pn:compiled  the tables' propagation as C (backend/pncg.h), compiled
 *             as above (runtime/pipeline.c's rt_pn_c, gdlc emit --pn).
 */
#include "pipeline.h"

#include <string.h>

#include "../backend/cg.h"

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

/* The fold pass's dump: per relation folded, its name, arity and number of
 * answers, then each answer as a fact. */
static char *fold_text(const Front *front, CpFold *fold, size_t *len)
{
    char *out = NULL;
    FILE *m = open_memstream(&out, len);
    if (!m)
        base_fatal("out of memory");
    for (uint32_t i = 0; i < fold->nrels; i++) {
        if (!fold->pre[i])
            continue;
        const IrRel *r = &front->ir.rels.v[i];
        const char *name = symtab_str(&front->syms, r->sym);
        const U32Vec *a = fold->pre[i];
        uint32_t n = r->arity ? a->n / r->arity : a->n;
        fprintf(m, "%s/%u: %u answer%s\n", name, r->arity, n, n == 1 ? "" : "s");
        for (uint32_t k = 0; r->arity && k < n; k++) {
            fprintf(m, "  (%s", name);
            for (uint32_t j = 0; j < r->arity; j++)
                fprintf(m, " %s", gt_text(&fold->store, a->v[k * r->arity + j]));
            fputs(")\n", m);
        }
    }
    fclose(m);
    base_journal_adopt(out); /* the C library's block: freed if memory runs out */
    return out;
}

/* The goal-directed passes, in order. */
char *cp_back(const Front *front, const CpBackOptions *o, size_t *len, char **err)
{
    char *out = NULL;
    CpFold fold;
    CgPlan plan;
    cp_fold(front, o->eval, o->eval_ctx, &fold);                   /* fold */
    if (o->stop == CP_BACK_FOLD) {
        out = fold_text(front, &fold, len);
        cp_fold_free(&fold);
        return out;
    }
    CgOptions opt = {.c_name = o->c_name, .no_lines = o->no_lines, .pre = fold.pre, .store = &fold.store};
    if (cg_plan(&plan, front, fold.pre, err))                      /* plan */
        out = o->stop == CP_BACK_PLAN ? plan_text(&plan, len)
                                      : cg_emit(&plan, &opt, len, err); /* emit */
    cg_plan_free(&plan);
    cp_fold_free(&fold);
    return out;
}

/* The propositional passes, in order. */
bool cp_propnet(const Ir *ir, const GroundLimits *lim, GtStore *store, unsigned opts, Propnet *pn, GroundStats *gs,
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
