/*
 * fold.c: the fold pass (see fold.h).
 *
 * Relations that depend on neither the state nor the move are evaluated
 * once, here, by the reference interpreter, and compiled as facts: board
 * geometry, arithmetic, successor chains become indexed sets instead of
 * calls. A relation given by facts in the game is one already and is
 * skipped. A relation too big (or slow) to enumerate stays a goal-directed
 * call: the pass has one budget of answers and one of time for the whole
 * game, spent in relation order.
 *
 * The evaluator is handed in (CpRelationEval) rather than called: it is
 * the reference interpreter (runtime/ref.c), an engine, and the compile
 * stage lies below the runtime (README: the design). The runtime, which
 * asks for the C (runtime/pipeline.c's rt_back), passes ref's; moving ref
 * here instead would put an engine in the compiler, and a second
 * evaluator of the rules for the pass alone would be one more to keep
 * agreeing with ref.
 */
#include "fold.h"

enum { CP_FOLD_MAX_FACTS = 1u << 20 };
static const double CP_FOLD_SECONDS = 0.5;

void cp_fold(const Front *front, CpRelationEval eval, const void *ctx, CpFold *fold)
{
    const Ir *ir = &front->ir;
    symtab_init(&fold->syms);
    const Symtab *gs = &front->syms;
    for (uint32_t i = 0; i < gs->n; i++)
        symtab_intern(&fold->syms, gs->str[i], gs->len[i]);
    gt_init(&fold->store, &fold->syms);
    fold->nrels = ir->rels.n;
    fold->ans = base_xcalloc(ir->rels.n + 1, sizeof *fold->ans);
    fold->pre = base_xcalloc(ir->rels.n + 1, sizeof *fold->pre);
    double end = gdl_now() + CP_FOLD_SECONDS;
    uint32_t budget = CP_FOLD_MAX_FACTS;
    for (uint32_t i = 0; i < ir->rels.n && budget > 0; i++) {
        const IrRel *r = &ir->rels.v[i];
        if (r->kind != IR_REL_USER || r->dep_true || r->dep_does || !r->nrules)
            continue;
        bool facts = true;
        for (uint32_t k = 0; k < r->nrules && facts; k++)
            facts = ir->rules.v[ir->rule_index.v[r->rules + k]].nlits == 0;
        if (facts)
            continue;
        if (eval(ctx, &fold->store, i, budget, end, &fold->ans[i]) == GDL_OK) {
            fold->pre[i] = &fold->ans[i];
            uint32_t n = r->arity ? fold->ans[i].n / r->arity : fold->ans[i].n;
            budget = n < budget ? budget - n : 0;
        } else {
            vec_free(fold->ans[i]);
        }
    }
}

void cp_fold_free(CpFold *fold)
{
    for (uint32_t i = 0; i < fold->nrels; i++)
        vec_free(fold->ans[i]);
    free(fold->ans);
    free(fold->pre);
    gt_free(&fold->store);
    symtab_free(&fold->syms);
}
