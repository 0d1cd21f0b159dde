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
 * range. Cost: one evaluation of the state (for terminal) and one bit test
 * per goal latch of the role.
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
    vec_free(q->joint);
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
