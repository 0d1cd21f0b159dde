/*
 * graph.c: the solver's graph of states (see internal.h for its layout).
 *
 * Adding a node asks the machine, once, everything the search needs of its
 * state: terminality and goals (a terminal state: its interval is the first
 * role's goal; the goals' sum is checked against the first terminal's),
 * the legal moves of each role (two roles with a choice: the game is out
 * of scope), and with the analyses the a-priori interval (the first role's
 * goal range, and C minus the second's once the sum C is known; dead
 * states show there, as a range without the role's best value). The
 * mover's winning moves are asked when the search first expands a move of
 * the node (sv_order) and put first, so the search expands them first.
 * Both queries are dropped when they do not pay: the ranges after 1024
 * queries of which fewer than one in 64 narrowed [0, 100], the winning
 * moves (a deduction each, some ten expansions' worth) after 256 of which
 * fewer than one in 16 found one. On tic-tac-toe both pay (winning moves
 * save a fifth of the nodes); on Nim, chomp and checkersTiny neither does,
 * and asking on every node cost 3 to 8 times the time.
 *
 * Expanding an edge computes the next state, maps it to its canonical form
 * (the image under the group with the smallest hash), and finds it in the
 * table or adds it. The child learns its new parent; the caller propagates.
 *
 * Intervals (sv_intervals): where the first role chooses (or nobody does),
 * lo is the largest child lo and hi the largest child hi, an unexpanded
 * move counting the node's a-priori bounds; where the second chooses, lo is
 * the smallest lo and hi the smallest hi. The provable interval is the same
 * with [0, 100] a priori. Both only shrink.
 */
#include <stdarg.h>
#include <string.h>

#include "internal.h"

bool sv_fail(SvGraph *g, GdlStatus st, const char *fmt, ...)
{
    if (g->message)
        return false;
    va_list ap;
    va_start(ap, fmt);
    g->message = base_vsprintf(fmt, ap);
    va_end(ap);
    g->status = st;
    return false;
}

static bool machine_fail(SvGraph *g, GdlStatus st, const char *what)
{
    return sv_fail(g, st, "%s: %s: %s", what, gdl_status_name(st), gdl_machine_error(g->m));
}

char *sv_state_text(GdlMachine *m, const GdlState *s)
{
    StrBuf b = {0};
    size_t n = gdl_state_size(s);
    for (size_t i = 0; i < n; i++)
        strbuf_add_word(&b, gdl_state_fact(m, s, i));
    if (!b.s)
        strbuf_add(&b, "(no facts)");
    return b.s;
}

uint32_t sv_stamp(SvGraph *g)
{
    if (++g->stamp == 0) {
        for (uint32_t i = 0; i < g->nodes.n; i++)
            g->nodes.v[i].mark = 0;
        g->stamp = 1;
    }
    return g->stamp;
}

void sv_graph_init(SvGraph *g, GdlMachine *m, GdlAnalysis *an, const SolveOptions *o)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->an = an;
    g->nroles = 2;
    g->transpositions = o->transpositions;
    g->analyses = o->analyses && an;
    g->nsym = 1;
    if (o->symmetries && o->transpositions && an) {
        size_t n = 1;
        if (gdl_analysis_symmetry_count(an, &n) == GDL_OK && n > 1)
            g->nsym = n;
    }
    g->symmetries = g->nsym > 1;
    g->sum = -1;
    g->root = BASE_NONE;
}

void sv_graph_free(SvGraph *g)
{
    for (uint32_t i = 0; i < g->nodes.n; i++)
        gdl_state_free(g->nodes.v[i].s);
    vec_free(g->nodes);
    vec_free(g->joints);
    vec_free(g->edges);
    vec_free(g->parents);
    vec_free(g->queue);
    free(g->slots);
    free(g->message);
    memset(g, 0, sizeof *g);
}

uint64_t sv_bytes(const SvGraph *g)
{
    return (uint64_t)g->nodes.cap * sizeof(SvNode) + (uint64_t)g->joints.cap * sizeof(GdlMove) +
           (uint64_t)g->edges.cap * sizeof(SvEdge) + (uint64_t)g->parents.cap * sizeof(SvParent) +
           (uint64_t)g->nslots * sizeof(uint32_t) + g->state_bytes;
}

/* ---- the table of states -------------------------------------------- */

static void table_put(SvGraph *g, uint32_t id)
{
    uint32_t k = (uint32_t)gdl_state_hash(g->nodes.v[id].s) & (g->nslots - 1);
    while (g->slots[k])
        k = (k + 1) & (g->nslots - 1);
    g->slots[k] = id + 1;
}

static void table_grow(SvGraph *g)
{
    uint32_t n = g->nslots ? g->nslots * 2 : 1024;
    free(g->slots);
    g->slots = base_xcalloc(n, sizeof *g->slots);
    g->nslots = n;
    for (uint32_t i = 0; i < g->nodes.n; i++)
        if (g->nodes.v[i].s)
            table_put(g, i);
}

static uint32_t table_find(SvGraph *g, const GdlState *s)
{
    if (!g->nslots)
        return BASE_NONE;
    uint32_t k = (uint32_t)gdl_state_hash(s) & (g->nslots - 1);
    for (; g->slots[k]; k = (k + 1) & (g->nslots - 1))
        if (gdl_state_equal(g->nodes.v[g->slots[k] - 1].s, s))
            return g->slots[k] - 1;
    return BASE_NONE;
}

/* ---- nodes ------------------------------------------------------------ */

static uint8_t clamp100(int v) { return (uint8_t)(v < 0 ? 0 : v > 100 ? 100 : v); }

/* A terminal state: its goals, and the constant sum. */
static bool add_terminal(SvGraph *g, SvNode *x)
{
    int goals[2];
    GdlStatus st = gdl_state_goals(g->m, x->s, goals);
    if (st != GDL_OK)
        return machine_fail(g, st, "goals");
    int sum = goals[0] + goals[1];
    if (g->sum < 0) {
        g->sum = sum;
    } else if (sum != g->sum) {
        char *facts = sv_state_text(g->m, x->s);
        g->scope = SOLVE_SCOPE_SUM;
        sv_fail(g, GDL_BAD_ARGUMENT,
                "the goals do not sum to a constant: %d in the first terminal state seen, %d in the terminal "
                "state %s",
                g->sum, sum, facts);
        free(facts);
        return false;
    }
    x->mover = SV_TERMINAL;
    x->alo = x->ahi = x->lo = x->hi = x->plo = x->phi = clamp100(goals[0]);
    x->nmoves = 0;
    x->move_at = g->joints.n;
    x->edge_at = g->edges.n;
    return true;
}

/* The a-priori interval of a non-terminal state s: [0, 100], narrowed by
 * the analyses' goal ranges when they are on (the first role's range, and
 * C minus the second's once the sum C is known). */
bool sv_apriori(SvGraph *g, const GdlState *s, uint8_t *lo, uint8_t *hi)
{
    int alo = 0, ahi = 100;
    /* the ranges cost an evaluation per state: keep asking while at least
     * one query in 64 narrows the interval below [0, 100] */
    if (g->analyses && (g->range_asked < 1024 || g->range_narrowed * 64 >= g->range_asked)) {
        g->range_asked++;
        int l0, h0;
        GdlStatus st = gdl_analysis_goal_range(g->an, s, 0, &l0, &h0);
        if (st != GDL_OK)
            return machine_fail(g, st, "goal range");
        alo = l0, ahi = h0;
        if (g->sum >= 0) {
            int l1, h1;
            if ((st = gdl_analysis_goal_range(g->an, s, 1, &l1, &h1)) != GDL_OK)
                return machine_fail(g, st, "goal range");
            if (g->sum - h1 > alo)
                alo = g->sum - h1;
            if (g->sum - l1 < ahi)
                ahi = g->sum - l1;
        }
        if (alo > ahi) /* the game's goals are not what the ranges assume: ignore them */
            alo = 0, ahi = 100;
        if (alo > 0 || ahi < 100)
            g->range_narrowed++;
    }
    *lo = clamp100(alo);
    *hi = clamp100(ahi);
    return true;
}

/* A non-terminal state: its joint moves (winning moves first), its
 * a-priori interval. */
static bool add_inner(SvGraph *g, SvNode *x)
{
    GdlMove *moves[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    bool ok = false;
    for (unsigned r = 0; r < 2; r++) {
        const GdlMove *mv;
        GdlStatus st = gdl_state_legal(g->m, x->s, r, &mv, &n[r]);
        if (st != GDL_OK) {
            machine_fail(g, st, "legal moves");
            goto out;
        }
        if (n[r] == 0) {
            char *facts = sv_state_text(g->m, x->s);
            sv_fail(g, GDL_GAME_FAULT, "role %u has no legal move in the non-terminal state %s", r, facts);
            free(facts);
            goto out;
        }
        moves[r] = base_xmalloc(n[r] * sizeof(GdlMove));
        memcpy(moves[r], mv, n[r] * sizeof(GdlMove));
    }
    if (n[0] > 1 && n[1] > 1) {
        char *facts = sv_state_text(g->m, x->s);
        g->scope = SOLVE_SCOPE_SIMULTANEOUS;
        sv_fail(g, GDL_BAD_ARGUMENT,
                "both roles have a choice (%zu and %zu legal moves) in the state %s: the solver handles games "
                "that take turns",
                n[0], n[1], facts);
        free(facts);
        goto out;
    }
    x->mover = n[0] > 1 ? 0 : n[1] > 1 ? 1 : SV_FORCED;
    uint8_t alo, ahi;
    if (!sv_apriori(g, x->s, &alo, &ahi))
        goto out;
    x->alo = x->lo = alo;
    x->ahi = x->hi = ahi;
    x->plo = 0, x->phi = 100;
    size_t nj = n[0] * n[1];
    if (nj > UINT32_MAX / 4) {
        sv_fail(g, GDL_LIMIT, "too many joint moves in one state");
        goto out;
    }
    x->nmoves = (uint32_t)nj;
    x->move_at = g->joints.n;
    x->edge_at = g->edges.n;
    for (size_t i = 0; i < n[0]; i++)
        for (size_t j = 0; j < n[1]; j++) {
            vec_push(g->joints, moves[0][i]);
            vec_push(g->joints, moves[1][j]);
            SvEdge e = {BASE_NONE, 0};
            vec_push(g->edges, e);
        }
    ok = true;
out:
    free(moves[0]);
    free(moves[1]);
    return ok;
}

uint32_t sv_node_add(SvGraph *g, GdlState *s)
{
    if (g->nodes.n >= UINT32_MAX / 2) {
        gdl_state_free(s);
        sv_fail(g, GDL_LIMIT, "the graph has too many nodes");
        return BASE_NONE;
    }
    SvNode x;
    memset(&x, 0, sizeof x);
    x.s = s;
    x.parent = BASE_NONE;
    bool term = false;
    GdlStatus st = gdl_state_is_terminal(g->m, s, &term);
    if (st != GDL_OK) {
        gdl_state_free(s);
        machine_fail(g, st, "terminal");
        return BASE_NONE;
    }
    if (!(term ? add_terminal(g, &x) : add_inner(g, &x))) {
        gdl_state_free(s);
        return BASE_NONE;
    }
    uint32_t id = g->nodes.n;
    vec_push(g->nodes, x);
    g->state_bytes += 48 + 16 * (uint64_t)gdl_state_size(s);
    if (x.lo == x.hi)
        g->proven++;
    if (g->transpositions) {
        if ((uint64_t)(g->nodes.n + 1) * 2 > g->nslots)
            table_grow(g);
        else
            table_put(g, id);
    }
    return id;
}

/* ---- expansion -------------------------------------------------------- */

bool sv_expand(SvGraph *g, uint32_t x, uint32_t e)
{
    GdlState *next = NULL;
    GdlStatus st = gdl_state_next(g->m, g->nodes.v[x].s, sv_joint(g, x, e), &next);
    if (st != GDL_OK)
        return machine_fail(g, st, "next state");
    g->expansions++;
    uint32_t k = 0;
    GdlState *canon = next;
    if (g->symmetries) {
        uint64_t best = gdl_state_hash(next);
        for (size_t i = 1; i < g->nsym; i++) {
            GdlState *img = NULL;
            if ((st = gdl_analysis_symmetry_state(g->an, i, next, &img)) != GDL_OK) {
                if (canon != next)
                    gdl_state_free(canon);
                gdl_state_free(next);
                return machine_fail(g, st, "symmetry");
            }
            uint64_t h = gdl_state_hash(img);
            if (h < best && !gdl_state_equal(img, next)) {
                best = h;
                if (canon != next)
                    gdl_state_free(canon);
                canon = img;
                k = (uint32_t)i;
            } else {
                gdl_state_free(img);
            }
        }
        if (canon != next)
            gdl_state_free(next);
    }
    uint32_t child = g->transpositions ? table_find(g, canon) : BASE_NONE;
    if (child != BASE_NONE) {
        gdl_state_free(canon);
        if (k)
            g->symmetric_found++;
        else
            g->transpositions_found++;
    } else {
        child = sv_node_add(g, canon);
        if (child == BASE_NONE)
            return false;
    }
    SvEdge *ed = sv_edge(g, x, e);
    ed->child = child;
    ed->sym = k;
    SvParent p = {x, g->nodes.v[child].parent};
    g->nodes.v[child].parent = g->parents.n;
    vec_push(g->parents, p);
    return true;
}

/* ---- intervals --------------------------------------------------------- */

bool sv_intervals(SvGraph *g, uint32_t x)
{
    SvNode *n = &g->nodes.v[x];
    if (n->mover == SV_TERMINAL)
        return false;
    bool maxer = n->mover != 1;
    int lo, hi, plo, phi;
    if (maxer) {
        lo = 0, hi = 0, plo = 0, phi = 0;
    } else {
        lo = 100, hi = 100, plo = 100, phi = 100;
    }
    for (uint32_t e = 0; e < n->nmoves; e++) {
        const SvEdge *ed = &g->edges.v[n->edge_at + e];
        int clo, chi, cplo, cphi;
        if (ed->child == BASE_NONE) {
            /* an unexpanded move: the node's a-priori bounds */
            clo = maxer ? 0 : n->alo;
            chi = maxer ? n->ahi : 100;
            cplo = 0;
            cphi = 100;
        } else {
            const SvNode *c = &g->nodes.v[ed->child];
            clo = c->lo, chi = c->hi, cplo = c->plo, cphi = c->phi;
        }
        if (maxer) {
            lo = clo > lo ? clo : lo;
            hi = chi > hi ? chi : hi;
            plo = cplo > plo ? cplo : plo;
            phi = cphi > phi ? cphi : phi;
        } else {
            lo = clo < lo ? clo : lo;
            hi = chi < hi ? chi : hi;
            plo = cplo < plo ? cplo : plo;
            phi = cphi < phi ? cphi : phi;
        }
    }
    if (lo < n->lo)
        lo = n->lo;
    if (hi > n->hi)
        hi = n->hi;
    if (plo < n->plo)
        plo = n->plo;
    if (phi > n->phi)
        phi = n->phi;
    bool changed = lo != n->lo || hi != n->hi || plo != n->plo || phi != n->phi;
    bool was = n->lo == n->hi;
    n->lo = (uint8_t)lo, n->hi = (uint8_t)hi, n->plo = (uint8_t)plo, n->phi = (uint8_t)phi;
    if (!was && n->lo == n->hi)
        g->proven++;
    return changed;
}

void sv_settle(SvGraph *g)
{
    g->queue.n = 0;
    for (uint32_t i = g->nodes.n; i-- > 0;) /* children have the larger ids, mostly: them first */
        if (g->nodes.v[i].mover != SV_TERMINAL) {
            g->nodes.v[i].queued = 1;
            vec_push(g->queue, i);
        }
    sv_drain(g, NULL, NULL);
}

void sv_drain(SvGraph *g, void (*visit)(void *ctx, uint32_t x), void *ctx)
{
    for (uint32_t h = 0; h < g->queue.n; h++) {
        uint32_t y = g->queue.v[h];
        g->nodes.v[y].queued = 0;
        bool changed = sv_intervals(g, y);
        if (visit)
            visit(ctx, y);
        if (!changed)
            continue;
        for (uint32_t q = g->nodes.v[y].parent; q != BASE_NONE; q = g->parents.v[q].next) {
            uint32_t z = g->parents.v[q].node;
            if (!g->nodes.v[z].queued) {
                g->nodes.v[z].queued = 1;
                vec_push(g->queue, z);
            }
        }
        if (h > 4096 && h * 2 > g->queue.n) { /* drop the consumed front */
            memmove(g->queue.v, g->queue.v + h + 1, (g->queue.n - h - 1) * sizeof *g->queue.v);
            g->queue.n -= h + 1;
            h = (uint32_t)-1;
        }
    }
    g->queue.n = 0;
}

/* Winning moves first (analyses): asked when the search first expands a
 * move of x, since the query costs a deduction and most nodes of the
 * frontier are never expanded. Every edge of x is still unexpanded. */
bool sv_order(SvGraph *g, uint32_t x)
{
    SvNode *n = &g->nodes.v[x];
    n->ordered = 1;
    if (!g->analyses || n->mover < 0)
        return true;
    /* the query costs a deduction (about ten expansions' worth): keep
     * asking while at least one query in 16 finds a winning move */
    if (g->win_asked >= 256 && g->win_found * 16 < g->win_asked)
        return true;
    g->win_asked++;
    unsigned r = (unsigned)n->mover;
    const GdlMove *win, *lose;
    size_t nwin, nlose;
    GdlStatus st = gdl_analysis_winning_moves(g->an, n->s, r, &win, &nwin, &lose, &nlose);
    if (st != GDL_OK)
        return machine_fail(g, st, "winning moves");
    if (nwin)
        g->win_found++;
    GdlMove *j = &g->joints.v[n->move_at];
    uint32_t front = 0;
    for (size_t i = 0; i < nwin; i++)
        for (uint32_t e = front; e < n->nmoves; e++)
            if (j[(size_t)e * 2 + r] == win[i]) {
                GdlMove t0 = j[(size_t)e * 2], t1 = j[(size_t)e * 2 + 1];
                memmove(j + (size_t)(front + 1) * 2, j + (size_t)front * 2, (size_t)(e - front) * 2 * sizeof *j);
                j[(size_t)front * 2] = t0, j[(size_t)front * 2 + 1] = t1;
                front++;
                break;
            }
    return true;
}
