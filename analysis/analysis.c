/*
 * analysis.c: an_analyse, the game-level analyses in order (see
 * internal.h), and what the passes share.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void an_ctx_init(AnCtx *c, const Propnet *pn, const AnOptions *o)
{
    memset(c, 0, sizeof *c);
    c->pn = pn;
    c->opt = o;
    c->d1 = an_deduce_new(pn, 1, 0);
    c->d2 = an_deduce_new(pn, 2, AN_MOVES_PLAYED);
    c->d2b = an_deduce_new(pn, 2, AN_MOVES_PLAYED | AN_LAST_BASES);
    c->ev = an_eval_new(pn);
    c->words = an_state_words(pn);
    uint32_t nroles = pn->roles.n;
    vec_reserve(c->best_goals, nroles);
    vec_reserve(c->worst_goals, nroles);
    for (uint32_t r = 0; r < nroles; r++) {
        const PnRole *role = &pn->roles.v[r];
        uint32_t hi = 0, lo = PN_NONE;
        bool any = false;
        for (uint32_t g = 0; g < role->goals.n; g++) {
            uint32_t v = role->goals.v[g].value;
            if (v == PN_NONE)
                continue;
            if (!any || v > hi)
                hi = v;
            if (!any || v < lo)
                lo = v;
            any = true;
        }
        U32Vec best = {0}, worst = {0};
        for (uint32_t g = 0; any && g < role->goals.n; g++) {
            if (role->goals.v[g].value == hi)
                vec_push(best, role->goals.v[g].comp);
            if (role->goals.v[g].value == lo)
                vec_push(worst, role->goals.v[g].comp);
        }
        c->best_goals.v[c->best_goals.n++] = best;
        c->worst_goals.v[c->worst_goals.n++] = worst;
    }
}

void an_ctx_free(AnCtx *c)
{
    an_deduce_free(c->d1);
    an_deduce_free(c->d2);
    an_deduce_free(c->d2b);
    an_eval_free(c->ev);
    for (uint32_t r = 0; r < c->best_goals.n; r++) {
        vec_free(c->best_goals.v[r]);
        vec_free(c->worst_goals.v[r]);
    }
    vec_free(c->best_goals);
    vec_free(c->worst_goals);
}

static int cmp_lit(const void *x, const void *y)
{
    const AnLit *a = x, *b = y;
    if (a->base != b->base)
        return a->base < b->base ? -1 : 1;
    return (int)a->value - (int)b->value;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static int cmp_goal_latch(const void *x, const void *y)
{
    const AnGoalLatch *a = x, *b = y;
    if (a->role != b->role)
        return a->role < b->role ? -1 : 1;
    int c = cmp_lit(&a->lit, &b->lit);
    if (c)
        return c;
    if (a->goal != b->goal)
        return a->goal < b->goal ? -1 : 1;
    return (int)a->effect - (int)b->effect;
}

static int cmp_inhibitor(const void *x, const void *y)
{
    const AnInhibitor *a = x, *b = y;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return a->q < b->q ? -1 : a->q > b->q;
}

static int cmp_dead(const void *x, const void *y)
{
    const AnDead *a = x, *b = y;
    if (a->role != b->role)
        return a->role < b->role ? -1 : 1;
    return cmp_lit(&a->lit, &b->lit);
}

static int cmp_joint(const void *x, const void *y)
{
    const AnJoint *a = x, *b = y;
    for (uint32_t i = 0; i < a->lits.n && i < b->lits.n; i++) {
        int c = cmp_lit(&a->lits.v[i], &b->lits.v[i]);
        if (c)
            return c;
    }
    return a->lits.n < b->lits.n ? -1 : a->lits.n > b->lits.n;
}

/* Sorts a vector and drops the repeats (cmp 0), freeing nothing. */
#define SORT_UNIQUE(vec, cmp)                                                  \
    do {                                                                       \
        if ((vec).n > 1)                                                       \
            qsort((vec).v, (vec).n, sizeof *(vec).v, cmp);                     \
        uint32_t k_ = 0;                                                       \
        for (uint32_t i_ = 0; i_ < (vec).n; i_++)                              \
            if (k_ == 0 || cmp(&(vec).v[k_ - 1], &(vec).v[i_]) != 0)           \
                (vec).v[k_++] = (vec).v[i_];                                   \
        (vec).n = k_;                                                          \
    } while (0)

/* The joint latches sorted, each's literals sorted, duplicates dropped. */
static void joints_sort(Analysis *a)
{
    for (uint32_t i = 0; i < a->joints.n; i++)
        if (a->joints.v[i].lits.n > 1)
            qsort(a->joints.v[i].lits.v, a->joints.v[i].lits.n, sizeof(AnLit), cmp_lit);
    if (a->joints.n > 1) {
        qsort(a->joints.v, a->joints.n, sizeof *a->joints.v, cmp_joint);
        uint32_t k = 0;
        for (uint32_t i = 0; i < a->joints.n; i++) {
            if (k > 0 && cmp_joint(&a->joints.v[k - 1], &a->joints.v[i]) == 0)
                vec_free(a->joints.v[i].lits);
            else
                a->joints.v[k++] = a->joints.v[i];
        }
        a->joints.n = k;
    }
}

/* Has the caller cancelled the analyses (AnOptions' flag or deadline)? */
static bool stop_now(const AnOptions *o)
{
    return o && ((o->cancel && __atomic_load_n(o->cancel, __ATOMIC_RELAXED)) || (o->deadline > 0 && now() >= o->deadline));
}

bool an_stop(AnCtx *c)
{
    if (!c->stopped)
        c->stopped = stop_now(c->opt);
    return c->stopped;
}

void an_analyse(const Propnet *pn, const AnOptions *o, Analysis *a)
{
    double t0 = now();
    memset(a, 0, sizeof *a);
    a->pn = pn;
    AnCtx c;
    an_ctx_init(&c, pn, o);
    for (uint32_t r = 0; r < pn->roles.n; r++) {
        int hi = -1, lo = -1;
        for (uint32_t g = 0; g < pn->roles.v[r].goals.n; g++) {
            uint32_t v = pn->roles.v[r].goals.v[g].value;
            if (v == PN_NONE)
                continue;
            if (hi < 0 || (int)v > hi)
                hi = (int)v;
            if (lo < 0 || (int)v < lo)
                lo = (int)v;
        }
        vec_push(a->best, hi);
        vec_push(a->worst, lo);
    }
    /* the passes in order; the caller's flag and deadline are polled
     * between them (each is a fraction of the network's building) */
#define PASS(code)                      \
    do {                                \
        if (!a->cancelled)              \
            a->cancelled = an_stop(&c); \
        if (!a->cancelled) {            \
            code;                       \
        }                               \
    } while (0)
    PASS(an_find_latches(&c, a); SORT_UNIQUE(a->latches, cmp_lit));
    PASS(an_find_joint_latches(&c, a); joints_sort(a));
    PASS(an_find_inhibitors(&c, a); SORT_UNIQUE(a->inhibitors, cmp_inhibitor));
    PASS(an_find_goal_latches(&c, a); SORT_UNIQUE(a->goal_latches, cmp_goal_latch));
    PASS(an_find_joint_goals(&c, a));
    PASS(an_find_dead(&c, a); SORT_UNIQUE(a->dead, cmp_dead));
    PASS(an_find_control(&c, a); SORT_UNIQUE(a->control, cmp_u32));
    PASS(an_find_irrelevant(&c, a));
    PASS(an_find_partitions(&c, a));
#undef PASS
    a->cancelled = a->cancelled || c.stopped; /* within the last pass */
    an_ctx_free(&c);
    a->seconds = now() - t0;
}

void an_free(Analysis *a)
{
    vec_free(a->latches);
    for (uint32_t i = 0; i < a->joints.n; i++)
        vec_free(a->joints.v[i].lits);
    vec_free(a->joints);
    vec_free(a->goal_latches);
    vec_free(a->joint_goals);
    vec_free(a->inhibitors);
    vec_free(a->dead);
    vec_free(a->control);
    vec_free(a->irrelevant);
    for (uint32_t i = 0; i < a->partitions.n; i++) {
        vec_free(a->partitions.v[i].group_base);
        vec_free(a->partitions.v[i].group_at);
        vec_free(a->partitions.v[i].inputs);
    }
    vec_free(a->partitions);
    vec_free(a->best);
    vec_free(a->worst);
    memset(a, 0, sizeof *a);
}
