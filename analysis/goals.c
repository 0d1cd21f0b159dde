/*
 * goals.c: goal latches and dead states, from the single latches.
 *
 * Goal latches. For each single latch (X, v) and each goal component G of
 * each role: when X = v forces G true in every reachable state where X = v
 * holds, (role, value of G, X, v) FIXES the goal; when it forces G false, it
 * EXCLUDES it. Since X = v is a latch it holds from then on, so the goal is
 * fixed or excluded in every later state, the final one included. "Forces"
 * is decided in two ways:
 *   1. one turn, no moves (ctx->d1): X = v at turn 0 gives G's value at
 *      turn 0 (G = X OR ..., G = X AND ... with X false). This holds in
 *      every state, reachable or not.
 *   2. when 1. leaves G unknown, by refutation over a transition (ctx->d2,
 *      moves played): X = v at turn 1 together with G = !w at turn 1 is a
 *      contradiction, so every state that follows a transition and has X = v
 *      has G = w; with the initial state checked by evaluation (when X = v
 *      holds there, G must be w there), this covers every reachable state.
 *      It sees what one state alone does not: in Untwisty Corridor p and q8
 *      are never true together because the move that sets p (a .. g) is not
 *      the one that advances the corridor to q8 (h), and p stops it after.
 *      A latch X = v that no transition can produce claims nothing here.
 * Dead states. For a role whose best goal value differs from its worst,
 * a single latch (X, v) that forces every one of the role's best goal
 * components false (as above) makes every reachable state where X = v holds
 * dead for the role: the latch keeps X = v, so no later state has a best goal.
 *
 * Method 1 is the brief's (d1); method 2 is an addition: method 1 alone does
 * not find Untwisty Corridor's dead latch, which the issue asks for.
 *
 * Joint latches and the goals. A joint latch J (every literal of J true
 * forces every one true in the next state) holds, once it holds, in every
 * later state, the final one included. What it proves of a role's goals is
 * found as above with all of J's literals set together: method 1 (d1, one
 * turn) gives G's value in every state with J; method 2 (d2) refutes J at
 * turn 1 with G = !w at turn 1, so every state that follows a transition
 * and has J has G = w. The per-state goal range uses it for states where J
 * holds that are not terminal (a terminal one's goal is evaluated): their
 * final state follows at least one transition, so both methods apply, and
 * no check of the initial state is needed. A joint latch found from one
 * state (an_joint_latch_at) is a joint latch in every state: its closure
 * was deduced from its literals alone, so it holds wherever they do.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The goal components' values in the initial state, by role then goal
 * (pn->roles.v[r].goals order), flattened. */
typedef struct InitGoals {
    uint64_t *state;  /* the initial state */
    uint8_t *val;     /* per goal: its value in the initial state */
    uint32_t *at;     /* per role: its first goal in val (nroles + 1 entries) */
} InitGoals;

static void init_goals(AnCtx *c, InitGoals *ig)
{
    const Propnet *pn = c->pn;
    uint32_t nroles = pn->roles.n;
    ig->state = base_xcalloc(c->words ? c->words : 1, sizeof(uint64_t));
    ig->at = base_xcalloc(nroles + 1, sizeof(uint32_t));
    for (uint32_t r = 0; r < nroles; r++)
        ig->at[r + 1] = ig->at[r] + pn->roles.v[r].goals.n;
    ig->val = base_xcalloc(ig->at[nroles] ? ig->at[nroles] : 1, 1);
    an_initial(pn, ig->state);
    an_eval(c->ev, ig->state, NULL);
    for (uint32_t r = 0; r < nroles; r++)
        for (uint32_t g = 0; g < pn->roles.v[r].goals.n; g++)
            ig->val[ig->at[r] + g] = an_eval_value(c->ev, pn->roles.v[r].goals.v[g].comp);
}

static void init_goals_free(InitGoals *ig)
{
    free(ig->state);
    free(ig->val);
    free(ig->at);
}

/* l set at turn 1 of d2 for method 2, once for all of a latch's goals
 * (each refutation is undone to the mark): tried, and whether some
 * transition produces l. */
typedef struct Refuting {
    bool tried, ok;
    uint32_t mark;
} Refuting;

/* Method 2 of the essay: the value w that comp has in every reachable state
 * where l holds, proven by refutation over a transition; -1 when neither is.
 * in_init: l holds in the initial state, where comp has init_val. */
static int refuted(AnCtx *c, Refuting *rf, AnLit l, uint32_t comp, bool in_init, bool init_val)
{
    AnDeduce *d = c->d2;
    for (int w = 0; w <= 1; w++) {
        if (in_init && (int)init_val != w)
            continue;
        if (!rf->tried) {
            an_deduce_reset(d);
            rf->tried = true;
            rf->ok = an_deduce_set(d, c->pn->base.v[l.base].comp, 1, l.value);
            rf->mark = an_deduce_mark(d);
        }
        if (!rf->ok)
            return -1; /* no transition produces l: nothing to say */
        bool refutes = !an_deduce_set(d, comp, 1, !w);
        an_deduce_undo_to(d, rf->mark);
        if (refutes)
            return w;
    }
    return -1;
}

/* Sets l at turn 0 in d1 (one turn, no moves). */
static bool set_lit(AnCtx *c, AnLit l)
{
    an_deduce_reset(c->d1);
    return an_deduce_set(c->d1, c->pn->base.v[l.base].comp, 0, l.value);
}

/* The value comp is forced to where l holds (reachable states), -1 unknown;
 * d1 holds l (set_lit). */
static int forced(AnCtx *c, const InitGoals *ig, Refuting *rf, AnLit l, uint32_t comp, uint32_t goal_at)
{
    int v = an_deduce_get(c->d1, comp, 0);
    if (v >= 0)
        return v;
    return refuted(c, rf, l, comp, an_bit(ig->state, l.base) == l.value, ig->val[goal_at]);
}

void an_find_goal_latches(AnCtx *c, Analysis *a)
{
    const Propnet *pn = c->pn;
    InitGoals ig;
    init_goals(c, &ig);
    for (uint32_t i = 0; i < a->latches.n && !an_stop(c); i++) {
        AnLit l = a->latches.v[i];
        if (!set_lit(c, l))
            continue;
        Refuting rf = {0};
        for (uint32_t r = 0; r < pn->roles.n; r++) {
            const PnRole *role = &pn->roles.v[r];
            for (uint32_t g = 0; g < role->goals.n; g++) {
                if (role->goals.v[g].value == PN_NONE)
                    continue;
                int v = forced(c, &ig, &rf, l, role->goals.v[g].comp, ig.at[r] + g);
                if (v >= 0)
                    vec_push(a->goal_latches,
                             ((AnGoalLatch){r, (int)role->goals.v[g].value, l, v ? AN_FIXES : AN_EXCLUDES}));
            }
        }
    }
    init_goals_free(&ig);
}

void an_find_dead(AnCtx *c, Analysis *a)
{
    const Propnet *pn = c->pn;
    InitGoals ig;
    init_goals(c, &ig);
    for (uint32_t i = 0; i < a->latches.n && !an_stop(c); i++) {
        AnLit l = a->latches.v[i];
        if (!set_lit(c, l))
            continue;
        Refuting rf = {0};
        for (uint32_t r = 0; r < pn->roles.n; r++) {
            const PnRole *role = &pn->roles.v[r];
            if (a->best.v[r] < 0 || a->best.v[r] == a->worst.v[r] || c->best_goals.v[r].n == 0)
                continue;
            bool dead = true;
            for (uint32_t g = 0; g < role->goals.n && dead; g++) {
                if (role->goals.v[g].value != (uint32_t)a->best.v[r])
                    continue;
                dead = forced(c, &ig, &rf, l, role->goals.v[g].comp, ig.at[r] + g) == 0;
            }
            if (dead)
                vec_push(a->dead, ((AnDead){r, l}));
        }
    }
    init_goals_free(&ig);
}

/* ---- joint latches and the goals ------------------------------------- */

/* Sets every literal of lits at turn in d (reset first); false when that is
 * inconsistent. */
static bool set_lits(AnCtx *c, AnDeduce *d, const AnLit *lits, uint32_t n, uint32_t turn)
{
    an_deduce_reset(d);
    for (uint32_t i = 0; i < n; i++)
        if (!an_deduce_set(d, c->pn->base.v[lits[i].base].comp, turn, lits[i].value))
            return false;
    return true;
}

void an_joint_goals(AnCtx *c, const AnLit *lits, uint32_t n, uint32_t joint, AnJointGoalsVec *out)
{
    const Propnet *pn = c->pn;
    /* method 1: every state with the literals (none: nothing to say) */
    if (!set_lits(c, c->d1, lits, n, 0)) {
        an_deduce_reset(c->d1);
        return;
    }
    /* method 2's literals at turn 1 of d2, set once when first needed
     * (-1: not yet, 0: no transition makes them, 1: set, up to mark); each
     * refutation is undone to the mark */
    int set2 = -1;
    uint32_t mark2 = 0;
    for (uint32_t r = 0; r < pn->roles.n; r++) {
        const PnRole *role = &pn->roles.v[r];
        AnJointGoals jg = {joint, r, -1, {0, 0}};
        bool any = false;
        for (uint32_t g = 0; g < role->goals.n; g++) {
            uint32_t value = role->goals.v[g].value;
            if (value > 100)
                continue;
            int v = an_deduce_get(c->d1, role->goals.v[g].comp, 0);
            if (v < 0 && set2 < 0) {
                set2 = set_lits(c, c->d2, lits, n, 1);
                mark2 = an_deduce_mark(c->d2);
            }
            /* method 2: refuted at turn 1, after a transition (none makes
             * the literals: the range never asks) */
            for (int w = 0; w <= 1 && v < 0 && set2 > 0; w++) {
                if (!an_deduce_set(c->d2, role->goals.v[g].comp, 1, !w))
                    v = w;
                an_deduce_undo_to(c->d2, mark2);
            }
            if (v == 1 && jg.fixed < 0) {
                jg.fixed = (int)value;
                any = true;
            } else if (v == 0) {
                jg.excluded[value / 64] |= (uint64_t)1 << (value % 64);
                any = true;
            }
        }
        if (any)
            vec_push(*out, jg);
    }
    an_deduce_reset(c->d1);
    an_deduce_reset(c->d2); /* d2 shares nothing with d1 */
}

void an_find_joint_goals(AnCtx *c, Analysis *a)
{
    for (uint32_t j = 0; j < a->joints.n && !an_stop(c); j++)
        an_joint_goals(c, a->joints.v[j].lits.v, a->joints.v[j].lits.n, j, &a->joint_goals);
}
