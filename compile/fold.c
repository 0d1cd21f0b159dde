/*
 * fold.c: the fold pass (see fold.h).
 *
 * Relations that depend on neither the state nor the move are evaluated
 * once, here, by the reference interpreter, and compiled as facts: board
 * geometry, arithmetic, successor chains become indexed sets instead of
 * calls. A relation given by facts in the game is one already and is
 * skipped. A relation too big (or slow) to enumerate stays a goal-directed
 * call: the pass has one budget of answers and one of the evaluator's
 * steps for the whole game, spent in relation order.
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

/* The pass's budgets: answers, and steps of the evaluator (a literal
 * tried, 8 for a new answer or table: runtime/ref.c) rather than time, so
 * that what is folded, and with it the generated C, depends on the game
 * alone. Half a second of wall time folded less of gt_two_thirds_2p on a
 * loaded machine (lt, lte, absDiff left as calls, 5.4 M steps in all),
 * whose code then polled 2.6 times as much a step. 8 M steps took 0.4 to
 * 0.9 s of processor time on the games that spend them (sudoku,
 * mummymaze1p, the larger gt_two_thirds, laikLee_hex, ad_game_2x2), which
 * the half second had cut short too; the clock stays, as a guard only. */
enum { CP_FOLD_MAX_FACTS = 1u << 20 };
static const uint64_t CP_FOLD_STEPS = 8000000;
static const double CP_FOLD_SECONDS = 10;

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
    uint64_t steps = CP_FOLD_STEPS;
    for (uint32_t i = 0; i < ir->rels.n && budget > 0; i++) {
        const IrRel *r = &ir->rels.v[i];
        if (r->kind != IR_REL_USER || r->dep_true || r->dep_does || !r->nrules)
            continue;
        bool facts = true;
        for (uint32_t k = 0; k < r->nrules && facts; k++)
            facts = ir->rules.v[ir->rule_index.v[r->rules + k]].nlits == 0;
        if (facts)
            continue;
        if (eval(ctx, &fold->store, i, budget, &steps, end, &fold->ans[i]) == GDL_OK) {
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
