/* test_an_gen.c: the analyses on random games (tests/gen) with planted
 * latches, checked by brute force.
 *
 * Each game gets three planted sentences: (lp) a positive latch that a move
 * of r2 may switch on, (ln) a negative latch that the step counter switches
 * off, and (jp) (jq) a joint latch, each keeping the other, switched on
 * together after the first move. On every game:
 *   - soundness: the reachable states (an_eval from the initial state, every
 *     joint move, up to a cap) refute no claim: every latch and joint latch
 *     holds on every transition, every inhibitor too, every goal latch's
 *     goal is fixed or excluded in every state where its literal holds,
 *     every dead literal keeps the role's best goals false in every state
 *     after, every control
 *     base has one next value per state whatever the moves, every winning
 *     or losing move wins or loses, every goal range holds every outcome
 *     reachable, every goal distance is at most the true one;
 *   - completeness where it is planted: lp and ln are latches and {jp, jq}
 *     a joint latch (unless the optimiser made the base a constant);
 * and over all games it prints how many true latches of the reachable
 * states the analysis missed (the count of GDLC_AN_GAMES games, 40 by
 * default). */
#include "../lib/net.h"

#include "../../analysis/analysis.h"
#include "../gen/gen.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_STATES 4000

static const char PLANTED[] = "(init (ln a))\n"
                              "(<= (next (lp a)) (true (lp a)))\n"
                              "(<= (next (lp a)) (does r2 noop) (true (step 2)))\n"
                              "(<= (next (ln a)) (true (ln a)) (not (true (step 3))))\n"
                              "(<= (next jp) (true jq))\n"
                              "(<= (next jq) (true jp))\n"
                              "(<= (next jp) (true (step 0)))\n"
                              "(<= (next jq) (true (step 0)))\n";

/* The reachable states, as a table of bitsets with their successors. */
typedef struct Graph {
    uint32_t words, n;
    uint64_t *states;   /* n * words */
    U32Vec succ_at;     /* per state, into succ (n + 1 once complete) */
    U32Vec succ;
    bool complete;      /* every reachable state is in */
} Graph;

static uint32_t find_or_add(Graph *g, const uint64_t *s)
{
    for (uint32_t i = 0; i < g->n; i++)
        if (memcmp(g->states + (size_t)i * g->words, s, g->words * 8) == 0)
            return i;
    if (g->n == MAX_STATES) {
        g->complete = false;
        return UINT32_MAX;
    }
    memcpy(g->states + (size_t)g->n * g->words, s, g->words * 8);
    return g->n++;
}

static void explore(const Propnet *pn, AnEval *e, Graph *g)
{
    g->words = an_state_words(pn);
    g->states = calloc((size_t)MAX_STATES * g->words + 1, 8);
    g->complete = true;
    uint64_t *s = calloc(g->words + 1, 8), *nx = calloc(g->words + 1, 8);
    uint32_t nroles = pn->roles.n;
    U32Vec *legal = calloc(nroles + 1, sizeof *legal);
    uint32_t *joint = calloc(nroles + 1, 4);
    an_initial(pn, s);
    find_or_add(g, s);
    for (uint32_t i = 0; i < g->n; i++) {
        vec_push(g->succ_at, g->succ.n);
        memcpy(s, g->states + (size_t)i * g->words, g->words * 8);
        an_eval(e, s, NULL);
        if (an_eval_terminal(e))
            continue;
        uint64_t nj = 1;
        for (uint32_t r = 0; r < nroles; r++) {
            legal[r].n = 0;
            an_eval_legal(e, r, &legal[r]);
            nj *= legal[r].n;
        }
        for (uint64_t j = 0; j < nj; j++) {
            uint64_t x = j;
            for (uint32_t r = 0; r < nroles; r++) {
                joint[r] = legal[r].v[x % legal[r].n];
                x /= legal[r].n;
            }
            an_eval(e, s, joint);
            an_eval_next(e, nx);
            uint32_t k = find_or_add(g, nx);
            if (k != UINT32_MAX)
                vec_push(g->succ, k);
        }
    }
    vec_push(g->succ_at, g->succ.n);
    for (uint32_t r = 0; r < nroles; r++)
        vec_free(legal[r]);
    free(legal);
    free(joint);
    free(s);
    free(nx);
}

static const uint64_t *state_of(const Graph *g, uint32_t i) { return g->states + (size_t)i * g->words; }

static bool lit_holds(const uint64_t *s, AnLit l) { return an_bit(s, l.base) == l.value; }

static uint32_t base_named(const Propnet *pn, GtStore *store, const char *fact)
{
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (strcmp(gt_text(store, pn->base.v[b].fact), fact) == 0)
            return b;
    return PN_NONE;
}

static bool has_latch(const Analysis *a, uint32_t b, bool v)
{
    for (uint32_t i = 0; i < a->latches.n; i++)
        if (a->latches.v[i].base == b && a->latches.v[i].value == v)
            return true;
    return false;
}

static uint32_t missed_total, true_total, joint_fixed;

static void check_game(uint64_t seed)
{
    char *text = gen_game(seed);
    size_t len = strlen(text);
    text = realloc(text, len + sizeof PLANTED);
    memcpy(text + len, PLANTED, sizeof PLANTED);
    /* the planted joint latch fixes the goal: the sentence the best goal
     * reads, (pN C), also holds with jp and jq */
    const char *g100 = strstr(text, "(<= (goal ?r 100) (role ?r) (");
    assert_non_null(g100);
    const char *lit = g100 + strlen("(<= (goal ?r 100) (role ?r) "), *end = strchr(lit, ')');
    assert_non_null(end);
    char rule[128];
    snprintf(rule, sizeof rule, "(<= %.*s (true jp) (true jq))\n", (int)(end + 1 - lit), lit);
    len = strlen(text);
    text = realloc(text, len + strlen(rule) + 1);
    memcpy(text + len, rule, strlen(rule) + 1);
    char path[] = "/tmp/gdlc-an-gen-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    Net n;
    net_load(&n, path, PN_OPT_ALL);
    remove(path);
    const Propnet *pn = &n.pn;
    /* a game over before any move (terminal holds in every state: a
     * generated terminal rule may be static) has no transition to check,
     * and every literal is trivially latched there */
    {
        AnEval *e0 = an_eval_new(pn);
        uint64_t *s0 = calloc(an_state_words(pn) + 1, 8);
        an_initial(pn, s0);
        an_eval(e0, s0, NULL);
        bool over = an_eval_terminal(e0);
        free(s0);
        an_eval_free(e0);
        if (over) {
            net_free(&n);
            return;
        }
    }
    AnOptions o = {.samples = 64, .seed = seed, .max_depth = 0};
    Analysis a;
    an_analyse(pn, &o, &a);
    AnEval *e = an_eval_new(pn);
    Graph g = {0};
    explore(pn, e, &g);
    uint32_t nroles = pn->roles.n;
    uint32_t jp = base_named(pn, &n.store, "jp"), jq = base_named(pn, &n.store, "jq");

    /* every claim on every transition or state */
    for (uint32_t i = 0; i < g.n; i++) {
        const uint64_t *s = state_of(&g, i);
        for (uint32_t k = g.succ_at.v[i]; k < g.succ_at.v[i + 1]; k++) {
            const uint64_t *t = state_of(&g, g.succ.v[k]);
            for (uint32_t l = 0; l < a.latches.n; l++)
                if (lit_holds(s, a.latches.v[l]) && !lit_holds(t, a.latches.v[l]))
                    fail_msg("seed %llu: latch %s = %d does not hold", (unsigned long long)seed,
                             gt_text(&n.store, pn->base.v[a.latches.v[l].base].fact), a.latches.v[l].value);
            for (uint32_t j = 0; j < a.joints.n; j++) {
                const AnJoint *jl = &a.joints.v[j];
                bool all = true, after = true;
                for (uint32_t l = 0; l < jl->lits.n; l++) {
                    all &= lit_holds(s, jl->lits.v[l]);
                    after &= lit_holds(t, jl->lits.v[l]);
                }
                if (all && !after)
                    fail_msg("seed %llu: joint latch %u does not hold", (unsigned long long)seed, j);
            }
            for (uint32_t h = 0; h < a.inhibitors.n; h++)
                if (an_bit(s, a.inhibitors.v[h].p) && an_bit(t, a.inhibitors.v[h].q))
                    fail_msg("seed %llu: %s does not inhibit %s", (unsigned long long)seed,
                             gt_text(&n.store, pn->base.v[a.inhibitors.v[h].p].fact),
                             gt_text(&n.store, pn->base.v[a.inhibitors.v[h].q].fact));
        }
        an_eval(e, s, NULL);
        for (uint32_t h = 0; h < a.goal_latches.n; h++) {
            const AnGoalLatch *gl = &a.goal_latches.v[h];
            if (!lit_holds(s, gl->lit))
                continue;
            const PnRole *r = &pn->roles.v[gl->role];
            bool any = false;
            for (uint32_t k = 0; k < r->goals.n; k++)
                if ((int)r->goals.v[k].value == gl->goal)
                    any |= an_eval_value(e, r->goals.v[k].comp);
            if (any != (gl->effect == AN_FIXES))
                fail_msg("seed %llu: goal latch of %d does not hold", (unsigned long long)seed, gl->goal);
        }
        /* dead: no state after one where the literal holds has the role's best goal */
        for (uint32_t h = 0; h < a.dead.n; h++) {
            if (!lit_holds(s, a.dead.v[h].lit))
                continue;
            const PnRole *r = &pn->roles.v[a.dead.v[h].role];
            for (uint32_t k = g.succ_at.v[i]; k < g.succ_at.v[i + 1]; k++) {
                an_eval(e, state_of(&g, g.succ.v[k]), NULL);
                for (uint32_t x = 0; x < r->goals.n; x++)
                    if ((int)r->goals.v[x].value == a.best.v[a.dead.v[h].role] &&
                        an_eval_value(e, r->goals.v[x].comp))
                        fail_msg("seed %llu: a state after a dead one holds its role's best goal",
                                 (unsigned long long)seed);
            }
            an_eval(e, s, NULL);
        }
        /* control: one next value whatever the moves */
        for (uint32_t c = 0; c < a.control.n; c++) {
            uint32_t b = a.control.v[c];
            for (uint32_t k = g.succ_at.v[i] + 1; k < g.succ_at.v[i + 1]; k++)
                if (an_bit(state_of(&g, g.succ.v[k]), b) != an_bit(state_of(&g, g.succ.v[g.succ_at.v[i]]), b))
                    fail_msg("seed %llu: control base %s depends on the moves", (unsigned long long)seed,
                             gt_text(&n.store, pn->base.v[b].fact));
        }
    }

    /* per state: range, winning and losing moves, goal distance */
    if (g.complete) {
        AnQuery *q = an_query_new(&a);
        /* outcomes reachable (min, max per role) and true distances, by
         * iterating to a fixpoint over the graph */
        int *lo = malloc(sizeof(int) * g.n * nroles + 1), *hi = malloc(sizeof(int) * g.n * nroles + 1);
        uint32_t *dist = malloc(sizeof(uint32_t) * g.n * nroles + 1);
        for (uint32_t i = 0; i < g.n; i++) {
            an_eval(e, state_of(&g, i), NULL);
            bool term = an_eval_terminal(e);
            for (uint32_t r = 0; r < nroles; r++) {
                int v = term ? an_eval_goal(e, r) : -1;
                lo[i * nroles + r] = v >= 0 ? v : 1000;
                hi[i * nroles + r] = v >= 0 ? v : -1000;
                bool best = false;
                const PnRole *pr = &pn->roles.v[r];
                for (uint32_t k = 0; k < pr->goals.n; k++)
                    best |= (int)pr->goals.v[k].value == a.best.v[r] && an_eval_value(e, pr->goals.v[k].comp);
                dist[i * nroles + r] = best ? 0 : UINT32_MAX;
            }
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = 0; i < g.n; i++)
                for (uint32_t k = g.succ_at.v[i]; k < g.succ_at.v[i + 1]; k++) {
                    uint32_t t = g.succ.v[k];
                    for (uint32_t r = 0; r < nroles; r++) {
                        uint32_t x = i * nroles + r, y = t * nroles + r;
                        if (lo[y] < lo[x]) {
                            lo[x] = lo[y];
                            changed = true;
                        }
                        if (hi[y] > hi[x]) {
                            hi[x] = hi[y];
                            changed = true;
                        }
                        if (dist[y] != UINT32_MAX && dist[y] + 1 < dist[x]) {
                            dist[x] = dist[y] + 1;
                            changed = true;
                        }
                    }
                }
        }
        U32Vec win = {0}, lose = {0};
        for (uint32_t i = 0; i < g.n; i++) {
            const uint64_t *s = state_of(&g, i);
            for (uint32_t r = 0; r < nroles; r++) {
                int rl, rh;
                if (r == 0) {
                    /* the joint latch through the state, remembered by the
                     * query: where it holds jp and jq the best goal holds
                     * for good, and the range must say so */
                    AnLitVec jl = {0};
                    bool pq = false;
                    if (an_joint_latch_at(q, s, &jl)) {
                        bool hp = false, hq = false;
                        for (uint32_t l = 0; l < jl.n; l++) {
                            hp |= jl.v[l].base == jp && jl.v[l].value;
                            hq |= jl.v[l].base == jq && jl.v[l].value;
                        }
                        pq = hp && hq;
                    }
                    vec_free(jl);
                    an_eval(e, s, NULL);
                    for (uint32_t rr = 0; pq && !an_eval_terminal(e) && rr < nroles; rr++) {
                        an_goal_range(q, s, rr, &rl, &rh);
                        if (rl != 100 || rh != 100)
                            fail_msg("seed %llu: jp and jq hold for good, yet the range of role %u is [%d, %d]",
                                     (unsigned long long)seed, rr, rl, rh);
                        joint_fixed++;
                    }
                }
                an_goal_range(q, s, r, &rl, &rh);
                uint32_t x = i * nroles + r;
                if (lo[x] <= hi[x] && (rl > lo[x] || rh < hi[x]))
                    fail_msg("seed %llu: range [%d, %d] misses outcomes [%d, %d]", (unsigned long long)seed, rl, rh,
                             lo[x], hi[x]);
                int d = an_goal_distance(q, s, r, 50);
                if (d < 0 ? dist[x] != UINT32_MAX : dist[x] != UINT32_MAX && (uint32_t)d > dist[x])
                    fail_msg("seed %llu: goal distance %d, true %d", (unsigned long long)seed, d, (int)dist[x]);
                win.n = lose.n = 0;
                an_winning_moves(q, s, r, 1000, &win, &lose);
                an_eval(e, s, NULL);
                for (uint32_t w = 0; w < win.n + lose.n; w++) {
                    uint32_t mv = w < win.n ? win.v[w] : lose.v[w - win.n];
                    int want = w < win.n ? rh : rl; /* the best (worst) it can end with */
                    /* every joint move with it ends the game with want */
                    uint32_t nj = 0;
                    uint32_t *joint = calloc(nroles + 1, 4);
                    U32Vec *legal = calloc(nroles + 1, sizeof *legal);
                    uint64_t count = 1;
                    for (uint32_t rr = 0; rr < nroles; rr++) {
                        an_eval(e, s, NULL);
                        an_eval_legal(e, rr, &legal[rr]);
                        count *= legal[rr].n;
                    }
                    for (uint64_t j = 0; j < count; j++) {
                        uint64_t xx = j;
                        for (uint32_t rr = 0; rr < nroles; rr++) {
                            joint[rr] = legal[rr].v[xx % legal[rr].n];
                            xx /= legal[rr].n;
                        }
                        if (joint[r] != mv)
                            continue;
                        nj++;
                        uint64_t *nx = calloc(g.words + 1, 8);
                        an_eval(e, s, joint);
                        an_eval_next(e, nx);
                        an_eval(e, nx, NULL);
                        if (!an_eval_terminal(e) || an_eval_goal(e, r) != want)
                            fail_msg("seed %llu: a %s move does not %s", (unsigned long long)seed,
                                     w < win.n ? "winning" : "losing", w < win.n ? "win" : "lose");
                        free(nx);
                    }
                    assert_true(nj > 0);
                    for (uint32_t rr = 0; rr < nroles; rr++)
                        vec_free(legal[rr]);
                    free(legal);
                    free(joint);
                }
            }
        }
        vec_free(win);
        vec_free(lose);
        free(lo);
        free(hi);
        free(dist);
        an_query_free(q);

        /* completeness: true latches of the reachable states */
        for (uint32_t b = 0; b < pn->base.n; b++) {
            if (an_base_fixed(pn, b))
                continue;
            for (int v = 0; v < 2; v++) {
                bool seen = false, kept = true;
                for (uint32_t i = 0; i < g.n && kept; i++) {
                    if (an_bit(state_of(&g, i), b) != v)
                        continue;
                    seen = true;
                    for (uint32_t k = g.succ_at.v[i]; k < g.succ_at.v[i + 1]; k++)
                        kept &= an_bit(state_of(&g, g.succ.v[k]), b) == v;
                }
                if (seen && kept) {
                    true_total++;
                    missed_total += !has_latch(&a, b, v);
                }
            }
        }
    }

    /* the planted ones */
    uint32_t lp = base_named(pn, &n.store, "(lp a)"), ln = base_named(pn, &n.store, "(ln a)");
    if (lp != PN_NONE && !an_base_fixed(pn, lp) && !has_latch(&a, lp, true))
        fail_msg("seed %llu: the planted latch (lp a) was not found", (unsigned long long)seed);
    if (ln != PN_NONE && !an_base_fixed(pn, ln) && !has_latch(&a, ln, false))
        fail_msg("seed %llu: the planted negative latch (ln a) was not found", (unsigned long long)seed);
    if (jp != PN_NONE && jq != PN_NONE && !an_base_fixed(pn, jp) && !an_base_fixed(pn, jq)) {
        /* reached when some state (beyond the first) was sampled */
        bool found = false;
        for (uint32_t j = 0; j < a.joints.n; j++) {
            bool hp = false, hq = false;
            for (uint32_t l = 0; l < a.joints.v[j].lits.n; l++) {
                hp |= a.joints.v[j].lits.v[l].base == jp && a.joints.v[j].lits.v[l].value;
                hq |= a.joints.v[j].lits.v[l].base == jq && a.joints.v[j].lits.v[l].value;
            }
            found |= hp && hq;
        }
        assert_false(has_latch(&a, jp, true));
        if (!found && a.joint_states > 1)
            fail_msg("seed %llu: the planted joint latch {jp, jq} was not found (%u states tried)",
                     (unsigned long long)seed, a.joint_states);
    }
    free(g.states);
    vec_free(g.succ_at);
    vec_free(g.succ);
    an_eval_free(e);
    an_free(&a);
    net_free(&n);
}

static void random_games(void **state)
{
    (void)state;
    const char *env = getenv("GDLC_AN_GAMES");
    uint32_t games = env && atoi(env) > 0 ? (uint32_t)atoi(env) : 40;
    for (uint32_t s = 1; s <= games; s++)
        check_game(s);
    print_message("analyses on %u random games: %u true latches of the reachable states, %u missed; "
                  "%u (state, role) ranges fixed at 100 by the planted joint latch\n",
                  games, true_total, missed_total, joint_fixed);
    assert_true(joint_fixed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
