/*
 * fold.c: the fold pass (see fold.h).
 *
 * Relations that depend on neither the state nor the move are evaluated
 * once, here, by ref, and compiled as facts: board geometry, arithmetic,
 * successor chains become indexed sets instead of calls. A relation given
 * by facts in the game is one already and is skipped. A relation too big
 * (or slow) to enumerate stays a goal-directed call: the pass has one
 * budget of answers and one of time for the whole game, spent in relation
 * order.
 */
#include "fold.h"

enum { RT_FOLD_MAX_FACTS = 1u << 20 };
static const double RT_FOLD_SECONDS = 0.5;

void rt_fold(const GdlGame *game, RtFold *fold)
{
    const Ir *ir = &game->front.ir;
    symtab_init(&fold->syms);
    const Symtab *gs = &game->front.syms;
    for (uint32_t i = 0; i < gs->n; i++)
        symtab_intern(&fold->syms, gs->str[i], gs->len[i]);
    gt_init(&fold->store, &fold->syms);
    fold->nrels = ir->rels.n;
    fold->ans = base_xcalloc(ir->rels.n + 1, sizeof *fold->ans);
    fold->pre = base_xcalloc(ir->rels.n + 1, sizeof *fold->pre);
    double end = gdl_now() + RT_FOLD_SECONDS;
    uint32_t budget = RT_FOLD_MAX_FACTS;
    for (uint32_t i = 0; i < ir->rels.n && budget > 0; i++) {
        const IrRel *r = &ir->rels.v[i];
        if (r->kind != IR_REL_USER || r->dep_true || r->dep_does || !r->nrules)
            continue;
        bool facts = true;
        for (uint32_t k = 0; k < r->nrules && facts; k++)
            facts = ir->rules.v[ir->rule_index.v[r->rules + k]].nlits == 0;
        if (facts)
            continue;
        if (rt_ref_relation(game, &fold->store, i, budget, end, &fold->ans[i]) == GDL_OK) {
            fold->pre[i] = &fold->ans[i];
            uint32_t n = r->arity ? fold->ans[i].n / r->arity : fold->ans[i].n;
            budget = n < budget ? budget - n : 0;
        } else {
            vec_free(fold->ans[i]);
        }
    }
}

void rt_fold_free(RtFold *fold)
{
    for (uint32_t i = 0; i < fold->nrels; i++)
        vec_free(fold->ans[i]);
    free(fold->ans);
    free(fold->pre);
    gt_free(&fold->store);
    symtab_free(&fold->syms);
}
