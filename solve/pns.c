/*
 * pns.c: proof-number search over the solver's graph.
 *
 * The value of the root is an interval [lo, hi] of the first role's score.
 * The search narrows it by binary questions "does the first role get at
 * least t?" for a t in (lo, hi] (the middle): a node answers yes when its
 * lo >= t (proof number 0), no when its hi < t (disproof number 0). Where
 * the first role chooses (or nobody does) a node's proof number is the
 * smallest of its moves' and its disproof number their sum; where the
 * second chooses, the other way round. An unexpanded move counts 1 and 1.
 * Each step descends from the root along a most-proving move (the first of
 * the smallest proof number where the first role chooses, of the smallest
 * disproof number where the second does: winning moves, listed first, go
 * first) to an unexpanded move, expands it, and propagates: the intervals
 * to every parent whose interval changes (values must be exact on every
 * path of the DAG), the numbers along the path descended only (numbers of
 * parents off the path go stale until a descent passes them: a heuristic
 * only, as the numbers of shared children counted on every path are in
 * plain PNS with transpositions; updating every ancestor's numbers cost
 * half the time on Nim).
 * Moves already known not to help have infinite proof (or disproof)
 * numbers and are never chosen: GameCracker's "won't win" ordering.
 *
 * A question answered moves lo up (yes: the root's lo is now some goal
 * value >= t) or hi down (no: below t), so the questions end when lo ==
 * hi. Their numbers are recomputed over the whole graph when the question
 * changes (a post-order walk from the root).
 *
 * With the analyses the questions are asked of [lo, hi], which the goal
 * ranges narrow a priori; a proof needs the provable interval, so when one
 * is asked the search goes on with the questions asked of [plo, phi] until
 * it matches [lo, hi]: sv_search's `provable`. Without a proof the value
 * reported may rest on the ranges (they are sound, not checkable).
 *
 * Why PNS and not df-pn: the graph is kept whole anyway (for the proof, the
 * save file and the intervals of every node), so the memory df-pn saves is
 * not saved here, and best-first PNS needs no thresholds.
 */
#include <string.h>

#include "internal.h"

typedef struct Pns {
    SvGraph *g;
    const SolveOptions *o;
    bool provable;      /* the questions are asked of [plo, phi] */
    int t;              /* the question: first role's score >= t */
    double t0;          /* the solve's start */
    double next_progress;
    const char *stopped;
} Pns;

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    uint32_t s = a + b;
    return s >= SV_INF ? SV_INF : s;
}

/* Recomputes x's numbers from its interval and children; true when they
 * changed. */
static bool numbers(Pns *p, uint32_t x)
{
    SvGraph *g = p->g;
    SvNode *n = &g->nodes.v[x];
    int lo = p->provable ? n->plo : n->lo, hi = p->provable ? n->phi : n->hi;
    uint32_t pn, dn;
    if (lo >= p->t) {
        pn = 0, dn = SV_INF;
    } else if (hi < p->t) {
        pn = SV_INF, dn = 0;
    } else {
        bool maxer = n->mover != 1;
        uint32_t mn = SV_INF, sum = 0;
        for (uint32_t e = 0; e < n->nmoves; e++) {
            uint32_t c = g->edges.v[n->edge_at + e].child;
            uint32_t cpn = 1, cdn = 1;
            if (c != BASE_NONE)
                cpn = g->nodes.v[c].pn, cdn = g->nodes.v[c].dn;
            uint32_t a = maxer ? cpn : cdn, b = maxer ? cdn : cpn;
            mn = a < mn ? a : mn;
            sum = sat_add(sum, b);
        }
        pn = maxer ? mn : sum;
        dn = maxer ? sum : mn;
        if (!pn || !dn) /* not decided by its interval: keep it open */
            pn = pn ? pn : 1, dn = dn ? dn : 1;
    }
    bool changed = pn != n->pn || dn != n->dn;
    n->pn = pn, n->dn = dn;
    return changed;
}

/* Every node's numbers, children first (iterative post-order from the
 * root). */
static void renumber(Pns *p)
{
    SvGraph *g = p->g;
    uint32_t stamp = sv_stamp(g);
    U32Vec stack = {0}, at = {0};
    vec_push(stack, g->root);
    vec_push(at, 0);
    g->nodes.v[g->root].mark = stamp;
    while (stack.n) {
        uint32_t x = stack.v[stack.n - 1];
        uint32_t *i = &at.v[at.n - 1];
        SvNode *n = &g->nodes.v[x];
        bool pushed = false;
        while (*i < n->nmoves) {
            uint32_t c = g->edges.v[n->edge_at + *i].child;
            ++*i;
            if (c != BASE_NONE && g->nodes.v[c].mark != stamp) {
                g->nodes.v[c].mark = stamp;
                vec_push(stack, c);
                vec_push(at, 0);
                pushed = true;
                break;
            }
        }
        if (pushed)
            continue;
        numbers(p, x);
        stack.n--;
        at.n--;
    }
    vec_free(stack);
    vec_free(at);
}

static void visit_numbers(void *p, uint32_t x) { numbers(p, x); }

/* x's children changed: its intervals, then every ancestor's whose
 * interval changed, with their numbers, in a FIFO work list. */
static void propagate(Pns *p, uint32_t x)
{
    SvGraph *g = p->g;
    g->queue.n = 0;
    vec_push(g->queue, x);
    g->nodes.v[x].queued = 1;
    sv_drain(g, visit_numbers, p);
}

static bool decided(const Pns *p, uint32_t x)
{
    const SvNode *n = &p->g->nodes.v[x];
    return n->pn == 0 || n->dn == 0;
}

static void progress(Pns *p, double now)
{
    SvGraph *g = p->g;
    const SvNode *r = &g->nodes.v[g->root];
    fprintf(p->o->progress,
            "solve: %.0f s: %llu nodes, %u states, %llu proven; root [%d, %d], provable [%d, %d]; %.1f MB\n",
            now - p->t0, (unsigned long long)g->expansions, g->nodes.n, (unsigned long long)g->proven, r->lo, r->hi,
            r->plo, r->phi, (double)sv_bytes(g) / 1048576.0);
    fflush(p->o->progress);
    p->next_progress = now + p->o->progress_every;
}

/* Whether a bound stops the search now (p->stopped says which). */
static bool bound(Pns *p, uint64_t step)
{
    const SolveOptions *o = p->o;
    SvGraph *g = p->g;
    if (o->stop && *o->stop)
        p->stopped = "interrupt";
    else if (o->max_nodes && g->expansions >= o->max_nodes)
        p->stopped = "nodes";
    else if (o->memory_mb && sv_bytes(g) > (o->memory_mb << 20))
        p->stopped = "memory";
    else if ((step & 63) == 0 && (o->seconds > 0 || o->progress)) {
        double now = gdl_now();
        if (o->seconds > 0 && now - p->t0 >= o->seconds)
            p->stopped = "time";
        else if (o->progress && now >= p->next_progress)
            progress(p, now);
    }
    return p->stopped != NULL;
}

/* Answers the question at p->t: false on failure or a bound. */
static bool answer(Pns *p, uint64_t *step)
{
    SvGraph *g = p->g;
    renumber(p);
    unsigned idle = 0;
    U32Vec path = {0};
    bool ok = true;
    while (!decided(p, g->root)) {
        if (bound(p, ++*step))
            break;
        uint32_t x = g->root;
        path.n = 0;
        for (;;) {
            SvNode *n = &g->nodes.v[x];
            if (n->mover == SV_TERMINAL || decided(p, x) || path.n > g->nodes.n) {
                /* stale numbers (or a cycle): recompute and start again */
                propagate(p, x);
                if (++idle > 1000) {
                    ok = sv_fail(g, GDL_GAME_FAULT, "the search cannot progress (the game's states form a cycle?)");
                    goto out;
                }
                break;
            }
            vec_push(path, x);
            if (!n->ordered) {
                if (!sv_order(g, x)) {
                    ok = false;
                    goto out;
                }
                n = &g->nodes.v[x];
            }
            bool maxer = n->mover != 1;
            uint32_t best = 0, bestv = SV_INF + 1u;
            for (uint32_t e = 0; e < n->nmoves; e++) {
                uint32_t c = g->edges.v[n->edge_at + e].child;
                uint32_t v = 1;
                if (c != BASE_NONE)
                    v = maxer ? g->nodes.v[c].pn : g->nodes.v[c].dn;
                if (v < bestv) {
                    bestv = v, best = e;
                    if (v <= 1 && c == BASE_NONE)
                        break;
                }
            }
            uint32_t c = g->edges.v[n->edge_at + best].child;
            if (c == BASE_NONE) {
                if (!sv_expand(g, x, best)) {
                    ok = false;
                    goto out;
                }
                c = g->edges.v[g->nodes.v[x].edge_at + best].child;
                numbers(p, c);
                propagate(p, x);
                for (uint32_t i = path.n; i-- > 0;)
                    numbers(p, path.v[i]);
                idle = 0;
                break;
            }
            x = c;
        }
    }
out:
    vec_free(path);
    return ok;
}

/* Whether the root's intervals differ from those in before. */
static bool moved(const SvNode *before, const SvNode *now)
{
    return before->lo != now->lo || before->hi != now->hi || before->plo != now->plo || before->phi != now->phi;
}

/* One question at t, of [lo, hi] or (provable) of [plo, phi]: true when it
 * was answered, or a bound stopped it (p->stopped). An answer always moves
 * a bound of the root past t, so a question answered without moving one
 * (the root's intervals contradict each other: lo above phi, or plo above
 * hi, which no search can mend) is an error, not a question to ask again. */
static bool ask(Pns *p, uint64_t *step, int t)
{
    SvGraph *g = p->g;
    if (bound(p, 0)) /* 0: the clock too */
        return true;
    p->t = t;
    SvNode before = g->nodes.v[g->root];
    if (!answer(p, step))
        return false;
    const SvNode *r = &g->nodes.v[g->root];
    if (!p->stopped && !moved(&before, r))
        return sv_fail(g, GDL_GAME_FAULT,
                       "the search makes no progress: the root's interval [%d, %d] and its provable interval [%d, "
                       "%d] contradict each other (question: at least %d)",
                       r->lo, r->hi, r->plo, r->phi, t);
    return true;
}

bool sv_search(SvGraph *g, const SolveOptions *o, bool provable, double t0, const char **stopped)
{
    Pns p = {g, o, false, 0, t0, t0 + (o->progress_every > 0 ? o->progress_every : 2), NULL};
    uint64_t step = 0;
    *stopped = NULL;
    const SvNode *r;
    /* each question moves lo up or hi down (ask checks it): at most 101 */
    for (;;) {
        r = &g->nodes.v[g->root];
        if (r->lo >= r->hi)
            break;
        if (!ask(&p, &step, r->lo + (r->hi - r->lo + 1) / 2))
            return false;
        if (p.stopped) {
            *stopped = p.stopped;
            return true;
        }
    }
    if (!provable)
        return true;
    p.provable = true;
    /* each question moves plo up or phi down (ask checks it) */
    for (;;) {
        r = &g->nodes.v[g->root];
        int t;
        if (r->plo < r->lo && r->plo < r->phi)
            t = r->lo;
        else if (r->phi > r->hi && r->phi > r->plo)
            t = r->hi + 1;
        else
            break;
        if (!ask(&p, &step, t))
            return false;
        if (p.stopped) {
            *stopped = p.stopped;
            return true;
        }
    }
    return true;
}
