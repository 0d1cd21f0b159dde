/*
 * query.c: the scratch of the per-state queries (AnQuery) and the goal
 * range of a role in a state.
 *
 * An AnQuery holds its own context (deductions, evaluator, best and worst
 * goal components, made as an_analyse makes them with default options) and
 * scratch states, so that a query allocates nothing once warm and two
 * threads with one query each can share an Analysis.
 *
 * Goal range. In a terminal state the range is the role's goal there
 * (exactly, by evaluation). Elsewhere it starts from the role's goal values
 * and applies the goal latches of the role whose literal holds in the state
 * (the list is sorted by role: a binary search finds the role's run): a
 * FIXES g makes it [g, g]; an EXCLUDES g removes g. The range is [min, max]
 * of what is left, and the role's whole range [worst, best] when nothing is
 * left (only an unreachable state can exclude every value). A goal latch
 * holds from the state where its literal holds to the end of the game, so
 * every goal value the role can end with from a reachable state is in the
 * range. Then every joint latch whose literals all hold in the state
 * applies what it proves of the role's goals (a->joint_goals, and
 * q->found_goals for the joint latches an_joint_latch_at found with this
 * query): a fixed value, or values excluded. Cost: one evaluation of the
 * state (for terminal), one bit test per goal latch of the role, and a few
 * per joint latch that bounds the role's goals.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const AnOptions query_options = {0};

AnQuery *an_query_new(const Analysis *a)
{
    AnQuery *q = base_xcalloc(1, sizeof *q);
    q->a = a;
    an_ctx_init(&q->ctx, a->pn, &query_options);
    size_t words = q->ctx.words ? q->ctx.words : 1;
    q->state = base_xcalloc(words, sizeof *q->state);
    q->next = base_xcalloc(words, sizeof *q->next);
    return q;
}

void an_query_free(AnQuery *q)
{
    if (!q)
        return;
    an_ctx_free(&q->ctx);
    free(q->state);
    free(q->next);
    vec_free(q->tmp);
    vec_free(q->tmp2);
    vec_free(q->tmp3);
    vec_free(q->tmp4);
    vec_free(q->joint);
    for (uint32_t i = 0; i < q->found.n; i++)
        vec_free(q->found.v[i].lits);
    vec_free(q->found);
    vec_free(q->found_goals);
    vec_free(q->kfix);
    vec_free(q->need);
    vec_free(q->need_stack);
    vec_free(q->need_touched);
    free(q);
}

/* The first goal latch of role (the list is sorted by role). */
static uint32_t first_of_role(const Analysis *a, uint32_t role)
{
    uint32_t lo = 0, hi = a->goal_latches.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->goal_latches.v[mid].role < role)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void an_goal_range(AnQuery *q, const uint64_t *state, uint32_t role, int *lo, int *hi)
{
    const Analysis *a = q->a;
    const Propnet *pn = a->pn;
    int best = role < a->best.n ? a->best.v[role] : -1, worst = role < a->worst.n ? a->worst.v[role] : -1;
    *lo = worst;
    *hi = best;
    if (best < 0)
        return; /* no goal */
    an_eval(q->ctx.ev, state, NULL);
    if (an_eval_terminal(q->ctx.ev)) {
        int g = an_eval_goal(q->ctx.ev, role);
        if (g >= 0) {
            *lo = *hi = g;
            return;
        }
    }
    bool allowed[101] = {0};
    const PnRole *r = &pn->roles.v[role];
    for (uint32_t g = 0; g < r->goals.n; g++)
        if (r->goals.v[g].value <= 100)
            allowed[r->goals.v[g].value] = true;
    int fixed = -1;
    for (uint32_t i = first_of_role(a, role); i < a->goal_latches.n && a->goal_latches.v[i].role == role; i++) {
        const AnGoalLatch *gl = &a->goal_latches.v[i];
        if (an_bit(state, gl->lit.base) != gl->lit.value || gl->goal < 0 || gl->goal > 100)
            continue;
        if (gl->effect == AN_FIXES) {
            if (fixed < 0)
                fixed = gl->goal;
        } else {
            allowed[gl->goal] = false;
        }
    }
    for (int list = 0; list < 2; list++) {
        const AnJointVec *joints = list ? &q->found : &a->joints;
        const AnJointGoalsVec *goals = list ? &q->found_goals : &a->joint_goals;
        for (uint32_t i = 0; i < goals->n; i++) {
            const AnJointGoals *jg = &goals->v[i];
            if (jg->role != role)
                continue;
            const AnJoint *j = &joints->v[jg->joint];
            bool holds = true;
            for (uint32_t k = 0; k < j->lits.n && holds; k++)
                holds = an_bit(state, j->lits.v[k].base) == j->lits.v[k].value;
            if (!holds)
                continue;
            if (jg->fixed >= 0 && fixed < 0)
                fixed = jg->fixed;
            for (int v = 0; v <= 100; v++)
                if (jg->excluded[v / 64] >> (v % 64) & 1)
                    allowed[v] = false;
        }
    }
    if (fixed >= 0) {
        *lo = *hi = fixed;
        return;
    }
    int l = -1, h = -1;
    for (int v = 0; v <= 100; v++)
        if (allowed[v]) {
            if (l < 0)
                l = v;
            h = v;
        }
    if (l >= 0) {
        *lo = l;
        *hi = h;
    }
}
