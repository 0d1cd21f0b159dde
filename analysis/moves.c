/*
 * moves.c: what the analysis says about moves: move-choice partitions (a
 * game-level pass), and three per-state queries: winning and losing moves,
 * goal distance, the moves of the most constrained partition group.
 *
 * Partitions (the Sudoku analysis). For a role with goals: the candidates
 * are the negatively latched bases that every best-goal state has false
 * (each best goal set true at turn 0 of the one-turn deduction d1; the
 * bases it forces false, intersected over the best goals that can hold,
 * and with the negative single latches). Then for every input of the role
 * whose legal is not the constant false: its does set true at turn 0 of
 * d2 (moves played); the candidates forced false at turn 1 are what that
 * move switches off. A partition exists when every such input switches off
 * exactly one candidate and at least two groups result: one group per
 * candidate base, its inputs sorted. An input whose does is inconsistent
 * (it can never be played) belongs to no group. Then at every turn a
 * player of the puzzle need only consider one group: every candidate must
 * be switched off before the best goal, and only its group does it.
 *
 * Winning and losing moves. A move wins (loses) when it ends the game at
 * once with the best (worst) value the role can end with from the state:
 * the top (bottom) of its goal range, which holds every reachable outcome,
 * so no move does better (worse). The converse trick of Alloy: the state set at
 * turn 0 of d2 and terminal set false at turn 1; a legal move of the role
 * whose does is then forced false cannot avoid the end, so only those are
 * candidates (all the legal moves when the deduction is inconsistent: no
 * joint move avoids the end). Each candidate is confirmed by evaluation
 * over every joint move containing it (the others' legal moves, at most
 * max_joint joint moves, else the move is not reported): every next state
 * terminal with the role's goal its best (win) or its worst (lose).
 * Deduction only prunes; what is reported is proven by evaluation.
 *
 * Goal distance. 0 when a best goal of the role holds in the state (by
 * evaluation); -1 when the state is terminal without one. Else K_0 = the
 * state, and K_d = the bases known at turn 1 of d2 after setting K_{d-1}
 * at turn 0: every state reachable in d turns agrees with K_d (induction:
 * deduction is sound), so while every best goal is forced false at turn 1
 * no state reached in d turns has it, and the first d where some best goal
 * is not forced false is a lower bound on the distance. K_d is a function
 * of K_{d-1}: when it repeats an earlier K_j (hashed, then compared
 * exactly), the goal stays forced false for ever: -1. An inconsistent
 * deduction (no transition from any state agreeing with K_{d-1}) is -1 as
 * well. The bound max_turns is returned when reached.
 *
 * Goal distance by counting. A best goal G needs some base facts right:
 * need(c, v), a lower bound on the facts the state has wrong that must be
 * made right for component c to take value v, over the gates: a base is 0
 * or 1 (its bit against v), a constant 0 or never (INF), NOT passes !v
 * on; a gate all of whose inputs must take v (AND true, OR false) needs
 * the most any input needs, and at least one per input that is a base
 * fact (or the NOT of one) the state has wrong, all distinct; a gate one
 * of whose inputs must (AND false, OR true) the least any input needs. A
 * component met again on the walk (a cycle) counts 0. n = the least
 * need(G, true) over the best goals. The facts counted are the target T:
 * the base facts the walk reaches, each with the value it wants. One
 * transition makes at most k of them right: for each role, the most facts
 * of T any of its input moves M may make right, M may fix f when deduction
 * (d2) from "f wrong at turn 0, f right at turn 1" does not force (does M)
 * false (one deduction per fact, every input read); every transition
 * includes a move of every role, so the least of those over the roles
 * bounds it (puzzle.c's argument, per role). So the goal holds no sooner
 * than ceil(n / k) turns (k at least 1; past AN_KFIX_MAX_TARGET facts k is
 * the size of T, and since n is at most that, the walk is skipped whenever
 * ceil(|T| / k) cannot beat deduction's bound). Tic-tac-toe's
 * xplayer needs three marks in a line, and each transition makes at most
 * one (cell m n x) true: 3 from the start, where deduction alone says 1.
 *
 * Partition moves. The role's partition's groups whose base still holds in
 * the state, each with the role's legal moves in it (by evaluation); the
 * group with the fewest legal moves (at least one; the first on a tie).
 *
 * The queries use the scratch of AnQuery (query.c makes it): q->ctx for
 * deduction and evaluation, q->state and q->next as state buffers, q->tmp,
 * q->tmp2, q->joint as vectors that grow once and are reused.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- partitions ------------------------------------------------------- */

/* The legal component of input i of role r, or PN_NONE. */
static uint32_t legal_of(const Propnet *pn, uint32_t r, uint32_t i)
{
    const PnRole *role = &pn->roles.v[r];
    for (uint32_t l = 0; l < role->legal.n; l++)
        if (role->legal.v[l].input == i)
            return role->legal.v[l].comp;
    return PN_NONE;
}

static bool const_false(const Propnet *pn, uint32_t comp)
{
    return comp == PN_NONE || (pn->comps.v[comp].kind == PN_CONST && !pn->comps.v[comp].const_value);
}

/* The partition of role r, appended to a->partitions when there is one. */
static void role_partition(AnCtx *c, Analysis *a, uint32_t r)
{
    const Propnet *pn = c->pn;
    const U32Vec *best = &c->best_goals.v[r];
    if (best->n == 0)
        return;
    /* candidates: negative single latches, forced false by every best
     * goal that can hold */
    uint32_t nb = pn->base.n;
    uint8_t *cand = base_xcalloc(nb + 1, 1);
    uint32_t ncand = 0;
    for (uint32_t i = 0; i < a->latches.n; i++)
        if (!a->latches.v[i].value && !cand[a->latches.v[i].base]) {
            cand[a->latches.v[i].base] = 1;
            ncand++;
        }
    bool any_goal = false;
    for (uint32_t g = 0; g < best->n && ncand > 0; g++) {
        an_deduce_reset(c->d1);
        if (!an_deduce_set(c->d1, best->v[g], 0, true))
            continue; /* this best goal never holds: no constraint from it */
        any_goal = true;
        for (uint32_t b = 0; b < nb; b++)
            if (cand[b] && an_deduce_base(c->d1, b, 0) != 0) {
                cand[b] = 0;
                ncand--;
            }
    }
    an_deduce_reset(c->d1);
    if (!any_goal || ncand < 2) {
        free(cand);
        return;
    }
    U32Vec cands = {0};
    for (uint32_t b = 0; b < nb; b++)
        if (cand[b])
            vec_push(cands, b);
    /* each playable input of r: the one candidate it switches off */
    U32Vec in_of = {0}, base_of = {0};
    bool ok = true;
    for (uint32_t i = 0; i < pn->inputs.n && ok; i++) {
        if (pn->inputs.v[i].role != r || const_false(pn, legal_of(pn, r, i)))
            continue;
        an_deduce_reset(c->d2);
        if (!an_deduce_set(c->d2, pn->inputs.v[i].comp, 0, true))
            continue; /* never playable */
        uint32_t off = PN_NONE, noff = 0;
        for (uint32_t k = 0; k < cands.n; k++)
            if (an_deduce_base(c->d2, cands.v[k], 1) == 0) {
                off = cands.v[k];
                noff++;
            }
        if (noff != 1)
            ok = false;
        else {
            vec_push(in_of, i);
            vec_push(base_of, off);
        }
    }
    an_deduce_reset(c->d2);
    /* group by base (cands is sorted; inputs were taken in order) */
    AnPartition p = {0};
    p.role = r;
    if (ok) {
        for (uint32_t k = 0; k < cands.n; k++) {
            uint32_t start = p.inputs.n;
            for (uint32_t j = 0; j < in_of.n; j++)
                if (base_of.v[j] == cands.v[k])
                    vec_push(p.inputs, in_of.v[j]);
            if (p.inputs.n > start) {
                vec_push(p.group_base, cands.v[k]);
                vec_push(p.group_at, start);
            }
        }
        vec_push(p.group_at, p.inputs.n);
    }
    if (ok && p.group_base.n >= 2)
        vec_push(a->partitions, p);
    else {
        vec_free(p.group_base);
        vec_free(p.group_at);
        vec_free(p.inputs);
    }
    vec_free(in_of);
    vec_free(base_of);
    vec_free(cands);
    free(cand);
}

void an_find_partitions(AnCtx *c, Analysis *a)
{
    for (uint32_t r = 0; r < c->pn->roles.n; r++)
        role_partition(c, a, r);
}

/* ---- winning and losing moves ---------------------------------------- */

/* Every role's legal moves in the state last evaluated, flat in q->tmp with
 * role k's at q->tmp2.v[k] .. q->tmp2.v[k+1]. */
static void gather_legal(AnQuery *q)
{
    const Propnet *pn = q->ctx.pn;
    q->tmp.n = 0;
    q->tmp2.n = 0;
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        vec_push(q->tmp2, q->tmp.n);
        an_eval_legal(q->ctx.ev, k, &q->tmp); /* appends */
    }
    vec_push(q->tmp2, q->tmp.n);
}

void an_winning_moves(AnQuery *q, const uint64_t *state, uint32_t role, uint64_t max_joint, U32Vec *win,
                      U32Vec *lose)
{
    win->n = 0;
    lose->n = 0;
    const Analysis *a = q->a;
    const Propnet *pn = q->ctx.pn;
    uint32_t nroles = pn->roles.n;
    if (role >= nroles || a->best.v[role] < 0)
        return;
    /* the best and worst the role can end with from here: its range */
    int best, worst;
    an_goal_range(q, state, role, &worst, &best);
    AnEval *ev = q->ctx.ev;
    an_eval(ev, state, NULL);
    if (an_eval_terminal(ev))
        return;
    gather_legal(q);
    uint32_t r0 = q->tmp2.v[role], r1 = q->tmp2.v[role + 1];
    if (r0 == r1)
        return;
    /* the number of joint moves per move of the role */
    uint64_t others = 1;
    for (uint32_t k = 0; k < nroles; k++) {
        if (k == role)
            continue;
        uint64_t m = q->tmp2.v[k + 1] - q->tmp2.v[k];
        if (m == 0 || others > max_joint / m)
            return; /* no joint move at all, or too many */
        others *= m;
    }
    if (others > max_joint)
        return;
    /* the moves that do not force the end, ruled out in one deduction */
    AnDeduce *d = q->ctx.d2;
    an_deduce_reset(d);
    bool cons = an_deduce_set_state(d, state, 0) && an_deduce_set(d, pn->terminal, 1, false);
    /* q->joint: the joint move, then per role the index in q->tmp of its pick */
    vec_reserve(q->joint, 2 * nroles);
    q->joint.n = 2 * nroles;
    uint32_t *pick = q->joint.v + nroles;
    for (uint32_t j = r0; j < r1; j++) {
        uint32_t mv = q->tmp.v[j];
        if (cons && an_deduce_get(d, pn->inputs.v[mv].comp, 0) != 0)
            continue;
        bool wins = true, loses = true;
        /* every joint move with the role playing mv: an odometer over the
         * other roles' legal moves */
        for (uint32_t k = 0; k < nroles; k++)
            pick[k] = k == role ? j : q->tmp2.v[k];
        for (;;) {
            for (uint32_t k = 0; k < nroles; k++)
                q->joint.v[k] = q->tmp.v[pick[k]];
            an_eval(ev, state, q->joint.v);
            an_eval_next(ev, q->next);
            an_eval(ev, q->next, NULL);
            int g = an_eval_terminal(ev) ? an_eval_goal(ev, role) : -3;
            wins &= g == best;
            loses &= g == worst;
            if (!wins && !loses)
                break;
            uint32_t k = 0;
            for (; k < nroles; k++) {
                if (k == role)
                    continue;
                if (++pick[k] < q->tmp2.v[k + 1])
                    break;
                pick[k] = q->tmp2.v[k];
            }
            if (k == nroles)
                break;
        }
        if (wins)
            vec_push(*win, mv);
        if (loses)
            vec_push(*lose, mv);
    }
    q->joint.n = 0;
    an_deduce_reset(d);
}

/* ---- goal distance ----------------------------------------------------- */

/* The known set of bases at turn (mask and values, 32 bits a word) appended
 * to out after its hash (2 words); the hash returned. */
static uint64_t known_set(AnDeduce *d, const Propnet *pn, uint32_t turn, U32Vec *out)
{
    uint32_t w = (pn->base.n + 31) / 32;
    uint32_t at = out->n;
    vec_reserve(*out, out->n + 2 + 2 * w);
    out->n += 2 + 2 * w;
    uint32_t *mask = out->v + at + 2, *val = mask + w;
    memset(mask, 0, 2 * w * sizeof *mask);
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t b = 0; b < pn->base.n; b++) {
        int v = an_deduce_base(d, b, turn);
        if (v < 0)
            continue;
        mask[b >> 5] |= 1u << (b & 31);
        if (v)
            val[b >> 5] |= 1u << (b & 31);
        h = (h ^ (b * 2u + (uint32_t)v)) * 0x100000001b3ull;
    }
    out->v[at] = (uint32_t)h;
    out->v[at + 1] = (uint32_t)(h >> 32);
    return h;
}

static int goal_distance_deduced(AnQuery *q, const uint64_t *state, uint32_t role, uint32_t max_turns);

enum {
    NEED_INF = UINT32_MAX / 4,       /* never */
    NEED_OPEN = UINT32_MAX,          /* on the walk's path: counts 0 */
    AN_KFIX_MAX_TARGET = 4096,       /* target facts for k (a deduction each), per role */
};

/* The need of (comp, v), memoised in q->need (need + 1, NEED_OPEN while
 * being walked); NEED_INF when never. Iterative: stack entries 2 * comp + v,
 * with the top bit set once the inputs were pushed. */
static uint32_t need_of(AnQuery *q, const uint64_t *state, uint32_t comp0, bool v0)
{
    const Propnet *pn = q->ctx.pn;
    uint32_t *memo = q->need.v;
    U32Vec *st = &q->need_stack;
    st->n = 0;
    vec_push(*st, 2 * comp0 + v0);
    while (st->n > 0) {
        uint32_t top = st->v[st->n - 1], key = top & 0x7fffffffu, comp = key >> 1;
        bool v = key & 1, again = top >> 31;
        const PnComp *c = &pn->comps.v[comp];
        if (!again) {
            if (memo[key] != 0 && memo[key] != NEED_OPEN) {
                st->n--;
                continue;
            }
            if (memo[key] == NEED_OPEN) { /* met again on the path */
                st->n--;
                continue;
            }
            uint32_t val;
            switch (c->kind) {
            case PN_CONST:
                val = (c->const_value != 0) == v ? 0 : NEED_INF;
                break;
            case PN_BASE:
                val = an_bit(state, c->index) == v ? 0 : 1;
                break;
            case PN_INPUT:
                val = 0;
                break;
            default:
                val = NEED_OPEN;
                break;
            }
            vec_push(q->need_touched, key);
            if (val != NEED_OPEN) {
                memo[key] = val + 1;
                st->n--;
                continue;
            }
            memo[key] = NEED_OPEN;
            st->v[st->n - 1] = top | 0x80000000u;
            bool child_v = c->kind == PN_NOT ? !v : v;
            for (uint32_t i = 0; i < c->nin; i++) {
                uint32_t in = pn->in.v[c->in_at + i], k = 2 * in + child_v;
                if (memo[k] == 0)
                    vec_push(*st, k);
            }
            continue;
        }
        st->n--;
        bool child_v = c->kind == PN_NOT ? !v : v;
        bool all = (c->kind == PN_AND && v) || (c->kind == PN_OR && !v);
        uint32_t most = 0, least = NEED_INF, wrong = 0;
        for (uint32_t i = 0; i < c->nin; i++) {
            uint32_t in = pn->in.v[c->in_at + i], m = memo[2 * in + child_v];
            uint32_t x = m == NEED_OPEN || m == 0 ? 0 : m - 1;
            if (x > most)
                most = x;
            if (x < least)
                least = x;
            const PnComp *ic = &pn->comps.v[in];
            if (ic->kind == PN_BASE)
                wrong += an_bit(state, ic->index) != child_v;
            else if (ic->kind == PN_NOT && pn->comps.v[pn->in.v[ic->in_at]].kind == PN_BASE)
                wrong += an_bit(state, pn->comps.v[pn->in.v[ic->in_at]].index) == child_v;
        }
        uint32_t val;
        if (c->kind == PN_NOT)
            val = c->nin ? most : 0;
        else if (all)
            val = most >= NEED_INF ? NEED_INF : most > wrong ? most : wrong;
        else
            val = c->nin ? least : (c->kind == PN_AND ? 0 : NEED_INF); /* an empty OR is false */
        memo[key] = val + 1;
    }
    uint32_t m = memo[2 * comp0 + v0];
    return m == 0 || m == NEED_OPEN ? 0 : m - 1;
}

/* The target facts of role's best goals (the base facts the walk of
 * need_of reaches, each with the value wanted) into out, as 2 * base +
 * value, each once. */
static void target_facts(AnQuery *q, uint32_t role, U32Vec *out)
{
    const Propnet *pn = q->ctx.pn;
    const U32Vec *best = &q->ctx.best_goals.v[role];
    uint8_t *seen = base_xcalloc(2 * (size_t)pn->comps.n + 1, 1);
    U32Vec st = {0};
    out->n = 0;
    for (uint32_t g = 0; g < best->n; g++)
        if (!seen[2 * best->v[g] + 1]) {
            seen[2 * best->v[g] + 1] = 1;
            vec_push(st, 2 * best->v[g] + 1);
        }
    while (st.n > 0) {
        uint32_t key = st.v[--st.n], comp = key >> 1;
        bool v = key & 1;
        const PnComp *c = &pn->comps.v[comp];
        if (c->kind == PN_BASE) {
            vec_push(*out, 2 * c->index + v);
            continue;
        }
        if (c->kind != PN_AND && c->kind != PN_OR && c->kind != PN_NOT)
            continue;
        bool child_v = c->kind == PN_NOT ? !v : v;
        for (uint32_t i = 0; i < c->nin; i++) {
            uint32_t k = 2 * pn->in.v[c->in_at + i] + child_v;
            if (!seen[k]) {
                seen[k] = 1;
                vec_push(st, k);
            }
        }
    }
    vec_free(st);
    free(seen);
}

/* k for role (see the essay), and the size of its target in *ntarget,
 * computed once per query (q->kfix: k + 1 and the size, per role). */
static uint32_t kfix_of(AnQuery *q, uint32_t role, uint32_t *ntarget)
{
    const Propnet *pn = q->ctx.pn;
    if (q->kfix.n < 2 * pn->roles.n) {
        vec_reserve(q->kfix, 2 * pn->roles.n);
        while (q->kfix.n < 2 * pn->roles.n)
            q->kfix.v[q->kfix.n++] = 0;
    }
    if (q->kfix.v[2 * role]) {
        *ntarget = q->kfix.v[2 * role + 1];
        return q->kfix.v[2 * role] - 1;
    }
    U32Vec target = {0};
    target_facts(q, role, &target);
    uint32_t k = target.n;
    if (target.n > 0 && target.n <= AN_KFIX_MAX_TARGET) {
        /* one deduction per target fact f: f wrong at turn 0 and right at
         * turn 1; an input whose does is not forced false may fix f */
        AnDeduce *d = q->ctx.d2;
        uint32_t *fixes = base_xcalloc(pn->inputs.n + 1, sizeof *fixes);
        for (uint32_t t = 0; t < target.n; t++) {
            uint32_t bc = pn->base.v[target.v[t] >> 1].comp;
            bool want = target.v[t] & 1;
            an_deduce_reset(d);
            if (!an_deduce_set(d, bc, 0, !want) || !an_deduce_set(d, bc, 1, want))
                continue; /* no transition makes f right */
            for (uint32_t i = 0; i < pn->inputs.n; i++)
                fixes[i] += an_deduce_get(d, pn->inputs.v[i].comp, 0) != 0;
        }
        an_deduce_reset(d);
        for (uint32_t r = 0; r < pn->roles.n; r++) {
            uint32_t most = 0;
            bool any = false;
            for (uint32_t i = 0; i < pn->inputs.n; i++)
                if (pn->inputs.v[i].role == r) {
                    any = true;
                    if (fixes[i] > most)
                        most = fixes[i];
                }
            if (any && most < k)
                k = most;
        }
        free(fixes);
    }
    *ntarget = target.n;
    vec_free(target);
    if (k == 0)
        k = 1;
    q->kfix.v[2 * role] = k + 1;
    q->kfix.v[2 * role + 1] = *ntarget;
    return k;
}

/* ceil(n / k): the count's bound on the turns before a best goal of role
 * can hold; 0 when it says nothing more than d, deduction's bound (n is at
 * most the target's size: when that over k is no more than d, the walk is
 * not made; with k the whole target, as past the budget, it never is). */
static uint32_t count_bound(AnQuery *q, const uint64_t *state, uint32_t role, uint32_t d)
{
    const Propnet *pn = q->ctx.pn;
    const U32Vec *best = &q->ctx.best_goals.v[role];
    uint32_t ntarget = 0, k = kfix_of(q, role, &ntarget);
    if ((ntarget + k - 1) / k <= d)
        return 0;
    if (q->need.n < 2 * pn->comps.n) {
        vec_reserve(q->need, 2 * pn->comps.n);
        memset(q->need.v + q->need.n, 0, (2 * (size_t)pn->comps.n - q->need.n) * sizeof *q->need.v);
        q->need.n = 2 * pn->comps.n;
    }
    uint32_t n = NEED_INF;
    for (uint32_t g = 0; g < best->n; g++) {
        uint32_t x = need_of(q, state, best->v[g], true);
        if (x < n)
            n = x;
    }
    for (uint32_t i = 0; i < q->need_touched.n; i++)
        q->need.v[q->need_touched.v[i]] = 0;
    q->need_touched.n = 0;
    if (n == 0 || n >= NEED_INF)
        return 0;
    return (n + k - 1) / k;
}

int an_goal_distance(AnQuery *q, const uint64_t *state, uint32_t role, uint32_t max_turns)
{
    int d = goal_distance_deduced(q, state, role, max_turns);
    if (d <= 0)
        return d;
    uint32_t c = count_bound(q, state, role, (uint32_t)d);
    if (c > max_turns)
        c = max_turns;
    return (uint32_t)d > c ? d : (int)c;
}

/* The deduction's bound (the essay's goal distance). */
static int goal_distance_deduced(AnQuery *q, const uint64_t *state, uint32_t role, uint32_t max_turns)
{
    const Propnet *pn = q->ctx.pn;
    if (role >= pn->roles.n)
        return -1;
    const U32Vec *best = &q->ctx.best_goals.v[role];
    if (best->n == 0)
        return -1;
    AnEval *ev = q->ctx.ev;
    an_eval(ev, state, NULL);
    for (uint32_t g = 0; g < best->n; g++)
        if (an_eval_value(ev, best->v[g]))
            return 0;
    if (an_eval_terminal(ev))
        return -1;
    AnDeduce *d = q->ctx.d2;
    uint32_t w = (pn->base.n + 31) / 32, rec = 2 + 2 * w;
    U32Vec *seen = &q->tmp; /* the known sets so far, rec words each */
    seen->n = 0;
    /* K_0: the whole state */
    an_deduce_reset(d);
    bool cons = an_deduce_set_state(d, state, 0);
    if (cons)
        known_set(d, pn, 0, seen);
    for (uint32_t t = 1; cons && t <= max_turns; t++) {
        /* K_{t-1} is the last record of seen */
        if (t > 1) {
            const uint32_t *mask = seen->v + seen->n - rec + 2, *val = mask + w;
            an_deduce_reset(d);
            for (uint32_t b = 0; b < pn->base.n && cons; b++) {
                if (!(mask[b >> 5] >> (b & 31) & 1) || an_base_fixed(pn, b))
                    continue;
                cons = an_deduce_set(d, pn->base.v[b].comp, 0, val[b >> 5] >> (b & 31) & 1);
            }
        }
        if (!cons || !an_deduce_set(d, pn->terminal, 0, false)) {
            cons = false;
            break;
        }
        for (uint32_t g = 0; g < best->n; g++)
            if (an_deduce_get(d, best->v[g], 1) != 0) {
                an_deduce_reset(d);
                return (int)t;
            }
        uint32_t at = seen->n;
        uint64_t h = known_set(d, pn, 1, seen);
        for (uint32_t j = 0; j < at; j += rec) {
            uint64_t hj = seen->v[j] | (uint64_t)seen->v[j + 1] << 32;
            if (hj == h && memcmp(seen->v + j + 2, seen->v + at + 2, 2 * w * sizeof(uint32_t)) == 0) {
                an_deduce_reset(d);
                return -1;
            }
        }
    }
    an_deduce_reset(d);
    return cons ? (int)max_turns : -1;
}

/* ---- partition moves ----------------------------------------------------- */

bool an_partition_moves(AnQuery *q, const uint64_t *state, uint32_t role, U32Vec *inputs)
{
    inputs->n = 0;
    const Analysis *a = q->a;
    const AnPartition *p = NULL;
    for (uint32_t i = 0; i < a->partitions.n; i++)
        if (a->partitions.v[i].role == role)
            p = &a->partitions.v[i];
    if (!p)
        return false;
    AnEval *ev = q->ctx.ev;
    an_eval(ev, state, NULL);
    q->tmp.n = 0;
    an_eval_legal(ev, role, &q->tmp); /* appends */
    uint32_t bestg = PN_NONE, bestn = 0;
    for (uint32_t g = 0; g + 1 < p->group_at.n; g++) {
        if (!an_bit(state, p->group_base.v[g]))
            continue;
        uint32_t m = 0;
        for (uint32_t j = p->group_at.v[g]; j < p->group_at.v[g + 1]; j++)
            for (uint32_t k = 0; k < q->tmp.n; k++)
                m += q->tmp.v[k] == p->inputs.v[j];
        if (m > 0 && (bestg == PN_NONE || m < bestn)) {
            bestg = g;
            bestn = m;
        }
    }
    if (bestg == PN_NONE)
        return false;
    for (uint32_t j = p->group_at.v[bestg]; j < p->group_at.v[bestg + 1]; j++)
        for (uint32_t k = 0; k < q->tmp.n; k++)
            if (q->tmp.v[k] == p->inputs.v[j])
                vec_push(*inputs, p->inputs.v[j]);
    return true;
}
