/* test_plan.c: the code generator's plan (backend/plan.h) keeps its
 * contract on the shipped games and on random games of tests/gen: every
 * rule of every query is planned once, its literals in an order that is a
 * permutation of the body; every step names a query or a fact set that
 * exists and agrees with it (the same relation and bound positions, a
 * subsumed test reading a table of strictly fewer); every query is a root
 * or the target of a step; planning twice gives the same dump. With and
 * without the fold pass's answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../backend/plan.h"
#include "../../runtime/pipeline.h"
#include "../../runtime/runtime.h"
#include "../gen/gen.h"

#ifndef GDLC_SOURCE_DIR
#error "GDLC_SOURCE_DIR must be defined"
#endif

static char *dump_of(const CgPlan *p)
{
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    assert_non_null(m);
    cg_plan_dump(m, p);
    fclose(m);
    return s;
}

/* Checks one step of rule r against the plan; marks the query it reaches. */
static void check_step(const CgPlan *p, const IrRule *r, const CgStep *s, bool *reached)
{
    const Ir *ir = p->ir;
    const IrLit *l = &ir->lits.v[r->lits + s->lit];
    if (s->kind == CG_STEP_TEST) {
        assert_true(l->kind == IR_LIT_DISTINCT || l->kind == IR_LIT_EQUAL);
        return;
    }
    assert_true(l->kind == IR_LIT_POS || l->kind == IR_LIT_NEG);
    const IrRel *rel = &ir->rels.v[l->rel];
    if (s->kind == CG_STEP_SET) {
        assert_true(rel->kind == IR_REL_TRUE || rel->kind == IR_REL_DOES || p->facts_only[l->rel]);
        assert_true(s->target < p->fs.n);
        const CgFs *fs = &p->fs.v[s->target];
        if (p->facts_only[l->rel])
            assert_true(fs->kind == FS_FACTS && fs->rel == l->rel);
        else
            assert_int_equal(fs->kind, rel->kind == IR_REL_TRUE ? FS_TRUE : FS_DOES);
        if (s->slot != BASE_NONE) {
            assert_true(s->slot < fs->masks.n);
            assert_true(fs->masks.v[s->slot] == s->mask);
        }
        return;
    }
    assert_false(p->facts_only[l->rel]);
    assert_true(s->target < p->qs.n);
    const CgQ *q = &p->qs.v[s->target];
    reached[s->target] = true;
    assert_int_equal(q->rel, l->rel);
    uint64_t all = cg_full_mask(l->nargs);
    switch (s->kind) {
    case CG_STEP_YESNO:
        assert_true(q->exists && q->mask == s->mask);
        break;
    case CG_STEP_SUBSUMED:
        assert_true(!q->exists && s->mask == all && (q->mask & ~s->mask) == 0 && q->mask != s->mask);
        break;
    case CG_STEP_RECURSIVE:
        assert_true(l->kind == IR_LIT_POS && rel->scc == ir->rels.v[r->head].scc && ir->sccs.v[rel->scc].recursive);
        /* fall through */
    case CG_STEP_NEGATED:
    case CG_STEP_TABLE:
        assert_true(!q->exists && q->mask == s->mask);
        break;
    default:
        fail_msg("unknown step kind %u", s->kind);
    }
}

/* pre: the fold pass's answers, or NULL. */
static void check_plan(const Front *f, const U32Vec *const *pre)
{
    const Ir *ir = &f->ir;
    CgPlan p;
    char *err = NULL;
    assert_true(cg_plan(&p, f, pre, &err));
    assert_null(err);
    bool *reached = calloc(p.qs.n + 1, sizeof *reached);
#define ROOT(NAME, name, bound)                                                       \
    if (ir->kwrel[IR_REL_##NAME] != BASE_NONE) {                                      \
        assert_true(p.root[GQ_##NAME] < p.qs.n);                                      \
        assert_int_equal(p.qs.v[p.root[GQ_##NAME]].rel, ir->kwrel[IR_REL_##NAME]);    \
        assert_true(p.qs.v[p.root[GQ_##NAME]].mask == (bound));                       \
        reached[p.root[GQ_##NAME]] = true;                                            \
    } else                                                                            \
        assert_int_equal(p.root[GQ_##NAME], BASE_NONE);
    GDLC_ROOT_QUERIES(ROOT)
#undef ROOT
    assert_int_equal(p.qfn.n, p.qs.n);
    uint32_t nfns = 0;
    for (uint32_t q = 0; q < p.qs.n; q++) {
        const IrRel *rel = &ir->rels.v[p.qs.v[q].rel];
        assert_int_equal(p.qfn.v[q], nfns);
        for (uint32_t k = 0; k < rel->nrules; k++, nfns++) {
            const CgFn *fn = &p.fns.v[p.qfn.v[q] + k];
            assert_int_equal(fn->rule, ir->rule_index.v[rel->rules + k]);
            const IrRule *r = &ir->rules.v[fn->rule];
            bool *seen = calloc(r->nlits + 1, sizeof *seen);
            for (uint32_t li = 0; li < r->nlits; li++) {
                const CgStep *s = &p.steps.v[fn->steps + li];
                assert_true(s->lit < r->nlits && !seen[s->lit]);
                seen[s->lit] = true;
                check_step(&p, r, s, reached);
            }
            free(seen);
        }
    }
    assert_int_equal(p.fns.n, nfns);
    for (uint32_t q = 0; q < p.qs.n; q++)
        assert_true(reached[q]);
    free(reached);
    /* deterministic */
    CgPlan again;
    assert_true(cg_plan(&again, f, pre, &err));
    char *a = dump_of(&p), *b = dump_of(&again);
    assert_string_equal(a, b);
    free(a);
    free(b);
    cg_plan_free(&again);
    cg_plan_free(&p);
}

static void shipped_games(void **state)
{
    (void)state;
    static const char *const games[] = {"tictactoe", "connect4", "breakthrough", "reversi",
                                        "amazons", "amazons_split", "amazons_split_leftrec"};
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/games/%s.kif", GDLC_SOURCE_DIR, games[i]);
        GdlGame *g = NULL;
        assert_int_equal(gdl_game_load_file(path, &g, NULL), GDL_OK);
        check_plan(&g->front, NULL);
        CpFold fold;
        rt_fold(g, &fold);
        check_plan(&g->front, fold.pre);
        cp_fold_free(&fold);
        gdl_game_free(g);
    }
}

static void random_games(void **state)
{
    (void)state;
    uint32_t accepted = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        char *text = gen_game(seed);
        Front f;
        if (front_run(&f, "gen.kif", text, strlen(text))) {
            check_plan(&f, NULL);
            accepted++;
        }
        front_free(&f);
    }
    assert_true(accepted >= 250);
}

/* An arity over the engine's bound is refused with a message, not planned. */
static void arity_limit(void **state)
{
    (void)state;
    char text[4096] = "(role r) (init (p)) (legal r (m)) (next (p)) terminal (goal r 100) (wide";
    for (int i = 0; i < CG_MAX_ARITY; i++)
        strcat(text, " a");
    strcat(text, ")");
    char *copy = strdup(text);
    Front f;
    assert_true(front_run(&f, "wide.kif", copy, strlen(copy))); /* a warning: only ref can play it */
    CgPlan p;
    char *err = NULL;
    assert_false(cg_plan(&p, &f, NULL, &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "relation 'wide' has 64 arguments"));
    free(err);
    cg_plan_free(&p);
    front_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_games),
        cmocka_unit_test(random_games),
        cmocka_unit_test(arity_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
