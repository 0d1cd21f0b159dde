/*
 * claim_check.c: the analyses' claims and per-state answers held against
 * brute force (gdlc analyze --check), over the public API only.
 *
 * A state graph is made with an engine independent of the propnet (the
 * machine given, or a jit one in place of a pn machine): nodes are states (deduplicated by
 * gdl_state_hash and gdl_state_equal), an expanded node knows all its
 * successors (gdl_state_successors) with their joint moves. When the reachable
 * states number at most max_states (--check N) every one is expanded (exhaustive); otherwise
 * the graph is thrown away and remade from seeded random playthroughs:
 * every state on a playthrough is expanded, its successors are leaves
 * (their facts, terminality and goals known). Every check below reads only
 * what the graph knows, so a refutation is real in either graph:
 * reachability over known edges is a part of true reachability, and a
 * distance over known edges is at least the true one.
 *   latch (b, v)      every edge s -> s' with b = v in s has b = v in s'
 *   joint latch       every edge where all literals hold in s keeps them all
 *   inhibitor (p, q)  every edge with p in s has q absent from s'
 *   goal latch        every terminal node where the literal holds has the
 *                     goal value (fixes) or another one (excludes)
 *   dead (r, b, v)    no node with b = v reaches (backwards search from the
 *                     terminal nodes with r's best value) r's best value
 *   control b         the successors of every expanded node agree on b
 *   irrelevant (r, s) successors of an expanded node whose joint moves
 *                     differ only in s's move agree on terminality, r's goal
 *                     (when terminal) and r's legal moves
 *   partition         every group's base is false in each terminal node with
 *                     the role's best value, and every edge where the role
 *                     plays a move of the group switches that base off
 *   per node, per role: the goal range contains every terminal outcome the
 *   node reaches; every winning (losing) move is legal and every edge
 *   playing it ends the game with the role's best (worst) value; the goal
 *   distance is -1 only when no node with the role's best goal value is
 *   reachable, and otherwise at most the true distance to one.
 * The roles' best and worst values are the network's (the values v for
 * which gdl_analysis_deduce finds (goal r v) satisfiable), as the analysis
 * uses them. Completeness (exhaustive graphs only): a true single latch is
 * a base and value (b, v), b taking both values in the reachable states
 * (constant bases are not counted), such that every edge from a state with
 * b = v keeps it; those not among the claimed latches are reported missed.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "claim_check.h"

/* Joint moves expanded per state at most (a state with more is played
 * through, not expanded). */
/* (state, role) pairs whose per-state answers are checked at most: past
 * that, every k-th state (the queries cost up to milliseconds each). */
enum { AZ_MAX_JOINT = 1u << 16, AZ_MAX_SHOWN = 10, AZ_SAMPLE_PLAYS = 10000, AZ_SAMPLE_DEPTH = 1000,
       AZ_MAX_QUERIES = 4000 };

static const char *const kind_names[GDL_CLAIM_NKINDS] = {
    "latch", "joint latch", "goal latch", "inhibitor", "dead", "control", "irrelevant role", "partition",
};

static const char *role_name(const GdlGame *g, unsigned r) { return gdl_game_role_name(g, r); }

void claim_print(FILE *f, GdlMachine *m, const GdlGame *g, const GdlClaim *c)
{
    switch (c->kind) {
    case GDL_CLAIM_LATCH:
        fprintf(f, "%s stays %s", c->sentences[0], c->values[0] ? "true" : "false");
        break;
    case GDL_CLAIM_JOINT_LATCH:
        fprintf(f, "together, ");
        for (size_t i = 0; i < c->n; i++)
            fprintf(f, "%s%s %s", i ? ", " : "", c->sentences[i], c->values[i] ? "true" : "false");
        fprintf(f, " stay so");
        break;
    case GDL_CLAIM_GOAL_LATCH:
        fprintf(f, "%s %s %s goal %s %d", c->sentences[0], c->values[0] ? "true" : "false",
                c->fixes ? "fixes" : "excludes", role_name(g, c->role), c->goal);
        break;
    case GDL_CLAIM_INHIBITOR:
        fprintf(f, "%s true makes %s false next", c->sentences[0], c->sentences[1]);
        break;
    case GDL_CLAIM_DEAD:
        fprintf(f, "%s %s: dead for %s", c->sentences[0], c->values[0] ? "true" : "false", role_name(g, c->role));
        break;
    case GDL_CLAIM_CONTROL:
        fprintf(f, "%s is control (no move choice affects it)", c->sentences[0]);
        break;
    case GDL_CLAIM_IRRELEVANT:
        fprintf(f, "the moves of %s cannot affect the goals of %s", role_name(g, c->other_role),
                role_name(g, c->role));
        break;
    case GDL_CLAIM_PARTITION:
        fprintf(f, "%s's moves in %zu groups:", role_name(g, c->role), c->ngroups);
        for (size_t k = 0; k < c->ngroups; k++) {
            if (c->n == c->ngroups)
                fprintf(f, " %s off by", c->sentences[k]);
            fprintf(f, " [");
            for (size_t i = c->group_at[k]; i < c->group_at[k + 1]; i++)
                fprintf(f, "%s%s", i > c->group_at[k] ? " " : "", gdl_move_text(m, c->moves[i]));
            fprintf(f, "]");
        }
        break;
    default:
        fprintf(f, "claim of kind %d", (int)c->kind);
    }
}

void claim_print_state(FILE *f, GdlMachine *m, const GdlState *s)
{
    size_t n = gdl_state_size(s);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? " " : "", gdl_state_fact(m, s, i));
    if (!n)
        fprintf(f, "(no facts)");
}

void claim_answer(GdlAnalysis *an, const GdlState *s, unsigned r, ClaimAnswer *x)
{
    memset(x, 0, sizeof *x);
    const GdlMove *win = NULL, *lose = NULL;
    size_t nwin = 0, nlose = 0;
    x->st = gdl_analysis_goal_range(an, s, r, &x->lo, &x->hi);
    if (x->st == GDL_OK)
        x->st = gdl_analysis_winning_moves(an, s, r, &win, &nwin, &lose, &nlose);
    if (x->st == GDL_OK) {
        for (size_t i = 0; i < nwin; i++)
            vec_push(x->win, win[i]);
        for (size_t i = 0; i < nlose; i++)
            vec_push(x->lose, lose[i]);
        x->st = gdl_analysis_goal_distance(an, s, r, &x->distance);
    }
}

void claim_answer_free(ClaimAnswer *x)
{
    vec_free(x->win);
    vec_free(x->lose);
}

/* ---- the check: the state graph -------------------------------------- */

typedef struct AzNode {
    GdlState *s;
    uint32_t fact_at, nfacts; /* sorted fact ids in facts */
    uint32_t edge_at, nedges; /* edges[edge_at ..) */
    bool terminal;
    bool expanded;            /* every successor is known */
    bool failed;              /* the engine failed in it (not expanded) */
} AzNode;

typedef struct AzGraph {
    GdlMachine *m;
    unsigned nroles;
    VEC(AzNode) nodes;
    U32Vec facts;             /* per node: its facts' ids */
    VEC(int) goals;           /* per node and role: goal value (GDL_NO_GOAL when none) */
    VEC(uint64_t) legal;      /* per node and role: a hash of the legal moves (0: terminal) */
    U32Vec edge_to;           /* per edge: target node */
    VEC(GdlMove) joints;      /* per edge: the joint move (nroles moves) */
    uint32_t *slots;          /* node id + 1, open addressing on gdl_state_hash */
    uint32_t nslots;
    Symtab names;             /* fact texts -> ids */
    bool exhaustive;
    uint32_t plays;           /* playthroughs (sampled graphs) */
    uint32_t failures;        /* nodes where the engine failed */
    GdlStatus fault;
    char *fault_msg;
} AzGraph;

static void graph_clear(AzGraph *g)
{
    for (uint32_t i = 0; i < g->nodes.n; i++)
        gdl_state_free(g->nodes.v[i].s);
    vec_free(g->nodes);
    vec_free(g->facts);
    vec_free(g->goals);
    vec_free(g->legal);
    vec_free(g->edge_to);
    vec_free(g->joints);
    free(g->slots);
    g->slots = NULL;
    g->nslots = 0;
    symtab_free(&g->names);
    symtab_init(&g->names);
    free(g->fault_msg);
    g->fault_msg = NULL;
    g->failures = g->plays = 0;
}

static void graph_rehash(AzGraph *g)
{
    uint32_t n = g->nslots ? g->nslots * 2 : 1024;
    free(g->slots);
    g->slots = base_xcalloc(n, sizeof *g->slots);
    g->nslots = n;
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        uint32_t k = (uint32_t)gdl_state_hash(g->nodes.v[i].s) & (n - 1);
        while (g->slots[k])
            k = (k + 1) & (n - 1);
        g->slots[k] = i + 1;
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The node of s (a copy is kept when new). */
static uint32_t graph_node(AzGraph *g, const GdlState *s)
{
    if ((g->nodes.n + 1) * 2 > g->nslots)
        graph_rehash(g);
    uint64_t h = gdl_state_hash(s);
    uint32_t k = (uint32_t)h & (g->nslots - 1);
    for (; g->slots[k]; k = (k + 1) & (g->nslots - 1))
        if (gdl_state_equal(g->nodes.v[g->slots[k] - 1].s, s))
            return g->slots[k] - 1;
    uint32_t id = g->nodes.n;
    g->slots[k] = id + 1;
    AzNode x = {gdl_state_copy(s), g->facts.n, 0, 0, 0, false, false, false};
    size_t nf = gdl_state_size(s);
    for (size_t i = 0; i < nf; i++) {
        const char *t = gdl_state_fact(g->m, s, i);
        vec_push(g->facts, symtab_intern(&g->names, t, strlen(t)));
    }
    x.nfacts = (uint32_t)nf;
    qsort(g->facts.v + x.fact_at, nf, sizeof(uint32_t), cmp_u32);
    bool term = false;
    if (gdl_state_is_terminal(g->m, s, &term) != GDL_OK)
        x.failed = true;
    x.terminal = term;
    for (unsigned r = 0; r < g->nroles; r++) {
        int v = GDL_NO_GOAL;
        if (gdl_state_goal(g->m, s, r, &v) != GDL_OK)
            v = GDL_NO_GOAL;
        vec_push(g->goals, v);
        uint64_t lh = 0;
        const GdlMove *mv;
        size_t n;
        if (!term && gdl_state_legal(g->m, s, r, &mv, &n) == GDL_OK) {
            lh = base_hash_bytes(mv, n * sizeof *mv, 0x51ed27) | 1;
        }
        vec_push(g->legal, lh);
    }
    vec_push(g->nodes, x);
    return id;
}

static bool node_holds(const AzGraph *g, uint32_t node, uint32_t fact)
{
    const AzNode *x = &g->nodes.v[node];
    if (fact == BASE_NONE)
        return false;
    uint32_t lo = 0, hi = x->nfacts;
    const uint32_t *f = g->facts.v + x->fact_at;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (f[mid] < fact)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < x->nfacts && f[lo] == fact;
}

static int node_goal(const AzGraph *g, uint32_t node, unsigned r) { return g->goals.v[node * g->nroles + r]; }

/* Expands node i with every successor. False when it has more than
 * AZ_MAX_JOINT joint moves or the engine fails (the node stays unexpanded;
 * a failure is counted). Edges of a node are contiguous: a node is
 * expanded at most once and its edges pushed together. */
static bool graph_expand(AzGraph *g, uint32_t i)
{
    if (g->nodes.v[i].expanded)
        return true;
    if (g->nodes.v[i].terminal) {
        g->nodes.v[i].expanded = true;
        g->nodes.v[i].edge_at = g->edge_to.n;
        return true;
    }
    if (g->nodes.v[i].failed)
        return false;
    GdlSuccessors sx = {0};
    GdlStatus st = gdl_state_successors(g->m, g->nodes.v[i].s, AZ_MAX_JOINT, &sx);
    if (st != GDL_OK) {
        if (st != GDL_LIMIT) {
            g->nodes.v[i].failed = true;
            g->failures++;
            if (!g->fault_msg) {
                g->fault = st;
                g->fault_msg = base_xstrdup(gdl_machine_error(g->m));
            }
        }
        return false;
    }
    U32Vec to = {0};
    for (size_t k = 0; k < sx.n; k++)
        vec_push(to, graph_node(g, sx.states[k]));
    AzNode *x = &g->nodes.v[i];
    x->edge_at = g->edge_to.n;
    x->nedges = to.n;
    x->expanded = true;
    for (uint32_t k = 0; k < to.n; k++) {
        vec_push(g->edge_to, to.v[k]);
        for (unsigned r = 0; r < g->nroles; r++)
            vec_push(g->joints, sx.joints[k * g->nroles + r]);
    }
    vec_free(to);
    gdl_successors_free(&sx);
    return true;
}

/* Exhaustive: breadth first over the reachable states while there are at
 * most max of them. */
static bool graph_enumerate(AzGraph *g, const GdlState *init, uint64_t max)
{
    graph_node(g, init);
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        if (g->nodes.n > max)
            return false;
        if (!graph_expand(g, i) && !g->nodes.v[i].failed)
            return false; /* too many joint moves to enumerate */
    }
    return g->nodes.n <= max;
}

/* Sampled: seeded random playthroughs, each state on them expanded, until
 * the graph holds max nodes (at least one playthrough). */
static void graph_sample(AzGraph *g, const GdlState *init, uint64_t max, uint64_t seed)
{
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    uint32_t root = graph_node(g, init);
    VEC(GdlMove) joint = {0};
    vec_reserve(joint, g->nroles + 1);
    while (g->plays < AZ_SAMPLE_PLAYS && (g->plays == 0 || g->nodes.n < max)) {
        g->plays++;
        uint32_t at = root;
        for (uint32_t depth = 0; depth < AZ_SAMPLE_DEPTH; depth++) {
            if (g->nodes.v[at].terminal)
                break;
            if (graph_expand(g, at) && g->nodes.v[at].nedges) {
                const AzNode *x = &g->nodes.v[at];
                at = g->edge_to.v[x->edge_at + (uint32_t)gdl_rng_below(&rng, x->nedges)];
                continue;
            }
            /* too many joint moves (or a failure): one random step */
            GdlState *next = NULL;
            if (g->nodes.v[at].failed || gdl_state_random_joint_move(g->m, g->nodes.v[at].s, &rng, joint.v) != GDL_OK ||
                gdl_state_next(g->m, g->nodes.v[at].s, joint.v, &next) != GDL_OK)
                break;
            at = graph_node(g, next);
            gdl_state_free(next);
        }
        if (g->nodes.n >= max && g->plays >= 1)
            break;
    }
    vec_free(joint);
}

/* ---- the check: the claims ------------------------------------------- */

typedef struct AzCheck {
    AzGraph *g;
    GdlMachine *m;            /* the analysis' machine (moves of the claims) */
    const GdlGame *game;
    GdlAnalysis *an;
    int *best, *worst;        /* per role: the network's highest and lowest goal value (-1: none) */
    uint64_t checked[GDL_CLAIM_NKINDS];
    uint64_t queries;         /* per-state answers checked */
    uint64_t narrow;          /* of them, goal ranges narrower than the role's whole range */
    uint64_t unsound;
    uint64_t shown;
    FILE *report;             /* where refutations go */
    const char *who;          /* their prefix */
} AzCheck;

static uint32_t fact_id(const AzGraph *g, const char *s) { return symtab_find(&g->names, s, strlen(s)); }

/* Prints a refutation: the claim (or what), the state, and the successor. */
static void refute(AzCheck *c, const GdlClaim *cl, const char *what, uint32_t node, int64_t edge)
{
    c->unsound++;
    if (c->shown++ >= AZ_MAX_SHOWN)
        return;
    AzGraph *g = c->g;
    fprintf(c->report, "%s: unsound claim: ", c->who);
    if (cl)
        claim_print(c->report, c->m, c->game, cl);
    if (what)
        fprintf(c->report, "%s%s", cl ? ": " : "", what);
    fprintf(c->report, "\n  refuted in the state: ");
    claim_print_state(c->report, g->m, g->nodes.v[node].s);
    fputc('\n', c->report);
    if (edge >= 0) {
        fprintf(c->report, "  joint move:");
        for (unsigned r = 0; r < g->nroles; r++)
            fprintf(c->report, " %s", gdl_move_text(g->m, g->joints.v[(size_t)edge * g->nroles + r]));
        fprintf(c->report, "\n  next state: ");
        claim_print_state(c->report, g->m, g->nodes.v[g->edge_to.v[edge]].s);
        fputc('\n', c->report);
    }
}

/* Whether every literal of the claim holds in node. */
static bool lits_hold(const AzGraph *g, uint32_t node, const uint32_t *ids, const GdlClaim *cl)
{
    for (size_t k = 0; k < cl->n; k++)
        if (node_holds(g, node, ids[k]) != cl->values[k])
            return false;
    return true;
}

/* Latches and joint latches: every edge from a node where the literals
 * hold keeps them. */
static void check_latch(AzCheck *c, const GdlClaim *cl)
{
    AzGraph *g = c->g;
    uint32_t *ids = base_xmalloc((cl->n + 1) * sizeof *ids);
    for (size_t k = 0; k < cl->n; k++)
        ids[k] = fact_id(g, cl->sentences[k]);
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        const AzNode *x = &g->nodes.v[i];
        if (!x->nedges || !lits_hold(g, i, ids, cl))
            continue;
        for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges; e++)
            if (!lits_hold(g, g->edge_to.v[e], ids, cl)) {
                refute(c, cl, NULL, i, e);
                free(ids);
                return;
            }
    }
    free(ids);
}

static void check_inhibitor(AzCheck *c, const GdlClaim *cl)
{
    AzGraph *g = c->g;
    uint32_t p = fact_id(g, cl->sentences[0]), q = fact_id(g, cl->sentences[1]);
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        const AzNode *x = &g->nodes.v[i];
        if (!x->nedges || !node_holds(g, i, p))
            continue;
        for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges; e++)
            if (node_holds(g, g->edge_to.v[e], q)) {
                refute(c, cl, NULL, i, e);
                return;
            }
    }
}

static void check_goal_latch(AzCheck *c, const GdlClaim *cl)
{
    AzGraph *g = c->g;
    uint32_t b = fact_id(g, cl->sentences[0]);
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        if (!g->nodes.v[i].terminal || node_holds(g, i, b) != cl->values[0])
            continue;
        int v = node_goal(g, i, cl->role);
        if ((v == cl->goal) != cl->fixes) {
            char why[96];
            snprintf(why, sizeof why, "a terminal state where %s gets %d", role_name(c->game, cl->role), v);
            refute(c, cl, why, i, -1);
            return;
        }
    }
}

/* dist[node]: the fewest known edges from node to a target (UINT32_MAX: none). */
static void dist_back(const AzGraph *g, const uint8_t *target, uint32_t *dist)
{
    uint32_t n = g->nodes.n;
    uint32_t *at = base_xcalloc(n + 1, sizeof *at), *rev = base_xmalloc((g->edge_to.n + 1) * sizeof *rev);
    for (uint32_t e = 0; e < g->edge_to.n; e++)
        at[g->edge_to.v[e] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        at[i + 1] += at[i];
    uint32_t *fill = base_xmalloc((n + 1) * sizeof *fill);
    memcpy(fill, at, (n + 1) * sizeof *fill);
    for (uint32_t i = 0; i < n; i++) {
        const AzNode *x = &g->nodes.v[i];
        for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges; e++)
            rev[fill[g->edge_to.v[e]]++] = i;
    }
    U32Vec q = {0};
    for (uint32_t i = 0; i < n; i++) {
        dist[i] = target[i] ? 0 : UINT32_MAX;
        if (target[i])
            vec_push(q, i);
    }
    for (uint32_t h = 0; h < q.n; h++) {
        uint32_t y = q.v[h];
        for (uint32_t k = at[y]; k < at[y + 1]; k++)
            if (dist[rev[k]] == UINT32_MAX) {
                dist[rev[k]] = dist[y] + 1;
                vec_push(q, rev[k]);
            }
    }
    vec_free(q);
    free(fill);
    free(rev);
    free(at);
}

/* reach[node]: the node reaches (over known edges) a node in target; dist
 * is dist_back's scratch. */
static void reach_back(const AzGraph *g, const uint8_t *target, uint32_t *dist, uint8_t *reach)
{
    dist_back(g, target, dist);
    for (uint32_t i = 0; i < g->nodes.n; i++)
        reach[i] = dist[i] != UINT32_MAX;
}

/* Per role: the terminal outcomes each node reaches, as [lo, hi] (lo > hi:
 * none known); a fixpoint over the known edges (values only narrow, so it
 * ends). */
static void outcomes(const AzGraph *g, unsigned r, int *lo, int *hi)
{
    uint32_t n = g->nodes.n;
    for (uint32_t i = 0; i < n; i++) {
        const AzNode *x = &g->nodes.v[i];
        int v = x->terminal ? node_goal(g, i, r) : -1;
        lo[i] = x->terminal && v >= 0 ? v : 1000;
        hi[i] = x->terminal && v >= 0 ? v : -1000;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = n; i-- > 0;) {
            const AzNode *x = &g->nodes.v[i];
            for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges; e++) {
                uint32_t y = g->edge_to.v[e];
                if (lo[y] < lo[i])
                    lo[i] = lo[y], changed = true;
                if (hi[y] > hi[i])
                    hi[i] = hi[y], changed = true;
            }
        }
    }
}

static void check_dead(AzCheck *c, const GdlClaim *cl, const uint8_t *reach_best)
{
    AzGraph *g = c->g;
    uint32_t b = fact_id(g, cl->sentences[0]);
    for (uint32_t i = 0; i < g->nodes.n; i++)
        if (reach_best[i] && node_holds(g, i, b) == cl->values[0]) {
            char why[96];
            snprintf(why, sizeof why, "%s's best value %d is reachable from", role_name(c->game, cl->role),
                     c->best[cl->role]);
            refute(c, cl, why, i, -1);
            return;
        }
}

static void check_control(AzCheck *c, const GdlClaim *cl)
{
    AzGraph *g = c->g;
    uint32_t b = fact_id(g, cl->sentences[0]);
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        const AzNode *x = &g->nodes.v[i];
        if (!x->expanded || x->nedges < 2)
            continue;
        bool first = node_holds(g, g->edge_to.v[x->edge_at], b);
        for (uint32_t e = x->edge_at + 1; e < x->edge_at + x->nedges; e++)
            if (node_holds(g, g->edge_to.v[e], b) != first) {
                refute(c, cl, "two successors disagree on it; one is", i, e);
                return;
            }
    }
}

/* The hash of an edge's joint move with role s's move left out. */
static uint64_t masked_hash(const AzGraph *g, uint32_t e, unsigned s)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (unsigned r = 0; r < g->nroles; r++)
        h = base_mix64((h ^ (r == s ? 0xffffffffu : g->joints.v[(size_t)e * g->nroles + r])) + r);
    return h;
}

static bool masked_equal(const AzGraph *g, uint32_t e, uint32_t f, unsigned s)
{
    for (unsigned r = 0; r < g->nroles; r++)
        if (r != s && g->joints.v[(size_t)e * g->nroles + r] != g->joints.v[(size_t)f * g->nroles + r])
            return false;
    return true;
}

typedef struct AzKeyed {
    uint64_t key;
    uint32_t edge;
} AzKeyed;

static int cmp_keyed(const void *a, const void *b)
{
    const AzKeyed *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->edge > y->edge) - (x->edge < y->edge);
}

static void check_irrelevant(AzCheck *c, const GdlClaim *cl)
{
    AzGraph *g = c->g;
    unsigned r = cl->role, s = cl->other_role;
    VEC(AzKeyed) k = {0};
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        const AzNode *x = &g->nodes.v[i];
        if (!x->expanded || x->nedges < 2)
            continue;
        k.n = 0;
        for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges; e++)
            vec_push(k, ((AzKeyed){masked_hash(g, e, s), e}));
        qsort(k.v, k.n, sizeof *k.v, cmp_keyed);
        for (uint32_t a = 0; a + 1 < k.n; a++) {
            if (k.v[a].key != k.v[a + 1].key)
                continue;
            uint32_t e = k.v[a].edge, f = k.v[a + 1].edge;
            if (!masked_equal(g, e, f, s))
                continue;
            uint32_t y = g->edge_to.v[e], z = g->edge_to.v[f];
            const char *why = NULL;
            if (g->nodes.v[y].terminal != g->nodes.v[z].terminal)
                why = "changing only that role's move changes terminality";
            else if (g->nodes.v[y].terminal && node_goal(g, y, r) != node_goal(g, z, r))
                why = "changing only that role's move changes the goal";
            else if (!g->nodes.v[y].terminal && g->legal.v[(size_t)y * g->nroles + r] !=
                                                    g->legal.v[(size_t)z * g->nroles + r])
                why = "changing only that role's move changes the role's legal moves";
            if (why) {
                refute(c, cl, why, i, e);
                fprintf(c->report, "  other joint move:");
                for (unsigned q = 0; q < g->nroles; q++)
                    fprintf(c->report, " %s", gdl_move_text(g->m, g->joints.v[(size_t)f * g->nroles + q]));
                fputc('\n', c->report);
                vec_free(k);
                return;
            }
        }
    }
    vec_free(k);
}

/* Partitions: the group bases are the claim's sentences (one per group). */
static void check_partition(AzCheck *c, const GdlClaim *cl)
{
    AzGraph *g = c->g;
    if (cl->n != cl->ngroups) {
        refute(c, cl, "the claim names no base per group", 0, -1);
        return;
    }
    unsigned r = cl->role;
    for (size_t k = 0; k < cl->ngroups; k++) {
        uint32_t b = fact_id(g, cl->sentences[k]);
        for (uint32_t i = 0; i < g->nodes.n; i++) {
            const AzNode *x = &g->nodes.v[i];
            if (x->terminal && node_goal(g, i, r) == c->best[r] && node_holds(g, i, b)) {
                char why[160];
                snprintf(why, sizeof why, "%s holds in a terminal state where %s gets its best value",
                         cl->sentences[k], role_name(c->game, r));
                refute(c, cl, why, i, -1);
                return;
            }
            for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges; e++) {
                GdlMove mv = g->joints.v[(size_t)e * g->nroles + r];
                bool in = false;
                for (size_t j = cl->group_at[k]; j < cl->group_at[k + 1] && !in; j++)
                    in = cl->moves[j] == mv;
                if (in && node_holds(g, g->edge_to.v[e], b)) {
                    char why[160];
                    snprintf(why, sizeof why, "a move of the group of %s leaves it true", cl->sentences[k]);
                    refute(c, cl, why, i, e);
                    return;
                }
            }
        }
    }
}

/* Moves are of the analysis' machine; the graph's may be another's. */
static bool same_move(AzCheck *c, GdlMove graph_move, GdlMove an_move)
{
    if (c->g->m == c->m)
        return graph_move == an_move;
    const char *a = gdl_move_text(c->g->m, graph_move), *b = gdl_move_text(c->m, an_move);
    return a && b && strcmp(a, b) == 0;
}

/* The per-state queries in every node: range, winning and losing moves,
 * goal distance. */
static void check_queries(AzCheck *c, unsigned r, const int *lo, const int *hi, const uint32_t *dist,
                          uint32_t stride)
{
    AzGraph *g = c->g;
    for (uint32_t i = 0; i < g->nodes.n; i += stride) {
        const AzNode *x = &g->nodes.v[i];
        if (x->failed)
            continue;
        ClaimAnswer a;
        claim_answer(c->an, x->s, r, &a);
        char why[256];
        c->queries++;
        if (a.st != GDL_OK) {
            snprintf(why, sizeof why, "the queries of %s failed: %s: %s", role_name(c->game, r),
                     gdl_status_name(a.st), gdl_machine_error(c->m));
            refute(c, NULL, why, i, -1);
            claim_answer_free(&a);
            continue;
        }
        c->narrow += a.lo > c->worst[r] || a.hi < c->best[r];
        if (lo[i] <= hi[i] && (a.lo > lo[i] || a.hi < hi[i])) {
            snprintf(why, sizeof why, "goal range of %s [%d, %d], yet outcomes from %d to %d are reachable from",
                     role_name(c->game, r), a.lo, a.hi, lo[i], hi[i]);
            refute(c, NULL, why, i, -1);
        }
        for (int w = 0; w < 2; w++) {
            const GdlMove *mv = w ? a.lose.v : a.win.v;
            size_t n = w ? a.lose.n : a.win.n;
            /* the best (worst) value the role can end with from here: the
             * range, which the check above holds to every outcome reachable */
            int want = w ? a.lo : a.hi;
            for (size_t k = 0; k < n; k++) {
                if (!x->expanded)
                    break;
                bool seen = false;
                int64_t bad = -1;
                for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges && bad < 0; e++) {
                    if (!same_move(c, g->joints.v[(size_t)e * g->nroles + r], mv[k]))
                        continue;
                    seen = true;
                    uint32_t y = g->edge_to.v[e];
                    if (!g->nodes.v[y].terminal || node_goal(g, y, r) != want)
                        bad = e;
                }
                if (!seen || bad >= 0) {
                    snprintf(why, sizeof why, "%s's %s move %s %s", role_name(c->game, r), w ? "losing" : "winning",
                             gdl_move_text(c->m, mv[k]),
                             !seen ? "is not legal" : w ? "does not lose at once" : "does not win at once");
                    refute(c, NULL, why, i, bad);
                }
            }
        }
        if (a.distance < 0 ? dist[i] != UINT32_MAX : dist[i] != UINT32_MAX && (uint32_t)a.distance > dist[i]) {
            snprintf(why, sizeof why, "goal distance of %s %d, yet its best value is %u turns away from",
                     role_name(c->game, r), a.distance, dist[i]);
            refute(c, NULL, why, i, -1);
        }
        claim_answer_free(&a);
    }
}

/* The joint latch through every state queried (one in stride), each
 * distinct one held on every transition as the game's are: a latch found
 * from one state must hold in every state with its literals (the analysis
 * remembers them, and the goal ranges checked after use them). Returns how
 * many distinct ones were found. */
static uint32_t check_state_joints(AzCheck *c, uint32_t stride)
{
    AzGraph *g = c->g;
    Symtab seen;
    symtab_init(&seen);
    uint32_t found = 0;
    StrBuf key = {0};
    for (uint32_t i = 0; i < g->nodes.n; i += stride) {
        if (g->nodes.v[i].failed)
            continue;
        const char *const *sent = NULL;
        const bool *vals = NULL;
        size_t k = 0;
        GdlStatus st = gdl_analysis_joint_latch(c->an, g->nodes.v[i].s, &sent, &vals, &k);
        if (st != GDL_OK) {
            char why[200];
            snprintf(why, sizeof why, "the joint latch through the state failed: %s: %s", gdl_status_name(st),
                     gdl_machine_error(c->m));
            refute(c, NULL, why, i, -1);
            continue;
        }
        if (k == 0)
            continue;
        key.len = 0;
        strbuf_add(&key, "");
        for (size_t j = 0; j < k; j++)
            strbuf_addf(&key, "%s%d ", sent[j], (int)vals[j]);
        if (symtab_find(&seen, key.s, key.len) != BASE_NONE)
            continue;
        symtab_intern(&seen, key.s, key.len);
        found++;
        GdlClaim cl = {.kind = GDL_CLAIM_JOINT_LATCH, .n = k, .sentences = sent, .values = vals};
        check_latch(c, &cl);
    }
    free(key.s);
    symtab_free(&seen);
    return found;
}

/* The network's highest and lowest goal values of each role, from
 * deduction: (goal r v) satisfiable. */
static void goal_values(AzCheck *c)
{
    unsigned nroles = gdl_game_role_count(c->game);
    for (unsigned r = 0; r < nroles; r++) {
        c->best[r] = c->worst[r] = -1;
        for (int v = 0; v <= 100; v++) {
            char *s = base_sprintf("(goal %s %d)", role_name(c->game, r), v);
            GdlTimed t = {s, 0, true};
            bool consistent = false;
            const GdlTimed *out;
            size_t nout;
            if (gdl_analysis_deduce(c->an, &t, 1, 1, false, &consistent, &out, &nout) == GDL_OK && consistent) {
                if (c->worst[r] < 0)
                    c->worst[r] = v;
                c->best[r] = v;
            }
            free(s);
        }
    }
}

/* Completeness: the true single latches over the reachable states that
 * were not claimed. */
static void completeness(AzCheck *c, FILE *out)
{
    AzGraph *g = c->g;
    uint32_t nf = g->names.n;
    /* per fact: in how many nodes; broken[f*2+v]: an edge breaks (f, v) */
    uint32_t *count = base_xcalloc(nf + 1, sizeof *count);
    uint8_t *broken = base_xcalloc(2 * (size_t)nf + 1, 1);
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        const AzNode *x = &g->nodes.v[i];
        for (uint32_t k = 0; k < x->nfacts; k++)
            count[g->facts.v[x->fact_at + k]]++;
        for (uint32_t e = x->edge_at; e < x->edge_at + x->nedges; e++) {
            uint32_t y = g->edge_to.v[e];
            for (uint32_t f = 0; f < nf; f++) {
                bool a = node_holds(g, i, f), b = node_holds(g, y, f);
                if (a != b)
                    broken[2 * f + a] = 1;
            }
        }
    }
    uint8_t *claimed = base_xcalloc(2 * (size_t)nf + 1, 1);
    size_t nl = gdl_analysis_count(c->an, GDL_CLAIM_LATCH);
    for (size_t i = 0; i < nl; i++) {
        const GdlClaim *cl = gdl_analysis_claim(c->an, GDL_CLAIM_LATCH, i);
        uint32_t f = fact_id(g, cl->sentences[0]);
        if (f != BASE_NONE)
            claimed[2 * f + cl->values[0]] = 1;
    }
    uint32_t truth = 0, missed = 0, constant = 0;
    StrBuf list = {0};
    strbuf_add(&list, "");
    for (uint32_t f = 0; f < nf; f++) {
        if (count[f] == g->nodes.n) {
            constant++;
            continue;
        }
        for (int v = 0; v < 2; v++) {
            if (broken[2 * f + v])
                continue;
            truth++;
            if (!claimed[2 * f + v]) {
                if (missed < AZ_MAX_SHOWN)
                    strbuf_addf(&list, "  missed: %s stays %s\n", symtab_str(&g->names, f), v ? "true" : "false");
                missed++;
            }
        }
    }
    fprintf(out, "check: completeness: %u true single latches over the reachable states, %u found, %u missed "
                 "(%u facts constant over the reachable states not counted)\n",
            truth, truth - missed, missed, constant);
    fputs(list.s, out);
    free(list.s);
    free(claimed);
    free(broken);
    free(count);
}

bool claim_check(GdlMachine *m, const GdlGame *game, GdlAnalysis *an, const ClaimCheckOpts *o, FILE *out,
                 FILE *report, ClaimCheckResult *res)
{
    memset(res, 0, sizeof *res);
    /* an engine independent of the propnet plays */
    GdlMachine *cm = m;
    if (strncmp(gdl_machine_engine(m), "pn", 2) == 0) {
        if (gdl_machine_new(game, "jit", &cm) != GDL_OK) {
            fprintf(report, "%s: --check: %s\n", o->who, gdl_game_error(game));
            return false;
        }
    }
    AzGraph g = {0};
    g.m = cm;
    g.nroles = gdl_game_role_count(game);
    symtab_init(&g.names);
    GdlState *init = NULL;
    bool ran = true;
    if (gdl_state_initial(cm, &init) != GDL_OK) {
        fprintf(report, "%s: --check: no initial state: %s\n", o->who, gdl_machine_error(cm));
        ran = false;
        goto done;
    }
    double t0 = gdl_now();
    g.exhaustive = graph_enumerate(&g, init, o->max_states);
    if (!g.exhaustive) {
        graph_clear(&g);
        graph_sample(&g, init, o->max_states, o->seed);
    }
    uint64_t expanded = 0;
    for (uint32_t i = 0; i < g.nodes.n; i++)
        expanded += g.nodes.v[i].expanded;
    if (g.exhaustive)
        fprintf(out, "check: engine %s: %u reachable states, all enumerated, %u transitions (%.2f s)\n",
                gdl_machine_engine(cm), g.nodes.n, g.edge_to.n, gdl_now() - t0);
    else
        fprintf(out, "check: engine %s: more than %llu reachable states: claims checked along %u seeded random "
                     "playthroughs (seed %llu): %llu states expanded, %u states seen, %u transitions (%.2f s)\n",
                gdl_machine_engine(cm), (unsigned long long)o->max_states, g.plays,
                (unsigned long long)o->seed, (unsigned long long)expanded, g.nodes.n,
                g.edge_to.n, gdl_now() - t0);
    if (g.failures)
        fprintf(out, "check: the engine failed in %u state%s (left unexpanded): %s: %s\n", g.failures,
                g.failures == 1 ? "" : "s", gdl_status_name(g.fault), g.fault_msg ? g.fault_msg : "");

    unsigned nroles = g.nroles;
    AzCheck c = {&g, m, game, an, base_xcalloc(nroles + 1, sizeof(int)), base_xcalloc(nroles + 1, sizeof(int)),
                 {0}, 0, 0, 0, 0, report, o->who};
    goal_values(&c);
    uint32_t n = g.nodes.n;
    uint8_t *target = base_xcalloc(n + 1, 1), *reach = base_xcalloc(n + 1, 1);
    uint32_t *dist = base_xmalloc((n + 1) * sizeof *dist);
    int *lo = base_xmalloc((n + 1) * sizeof *lo), *hi = base_xmalloc((n + 1) * sizeof *hi);
    for (GdlClaimKind k = 0; k < GDL_CLAIM_NKINDS; k++) {
        size_t nk = gdl_analysis_count(an, k);
        for (size_t i = 0; i < nk; i++) {
            const GdlClaim *cl = gdl_analysis_claim(an, k, i);
            c.checked[k]++;
            switch (k) {
            case GDL_CLAIM_LATCH:
            case GDL_CLAIM_JOINT_LATCH:
                check_latch(&c, cl);
                break;
            case GDL_CLAIM_GOAL_LATCH:
                check_goal_latch(&c, cl);
                break;
            case GDL_CLAIM_INHIBITOR:
                check_inhibitor(&c, cl);
                break;
            case GDL_CLAIM_DEAD:
                for (uint32_t j = 0; j < n; j++)
                    target[j] = g.nodes.v[j].terminal && node_goal(&g, j, cl->role) == c.best[cl->role];
                reach_back(&g, target, dist, reach);
                check_dead(&c, cl, reach);
                break;
            case GDL_CLAIM_CONTROL:
                check_control(&c, cl);
                break;
            case GDL_CLAIM_IRRELEVANT:
                check_irrelevant(&c, cl);
                break;
            case GDL_CLAIM_PARTITION:
                check_partition(&c, cl);
                break;
            default:
                break;
            }
        }
    }
    uint64_t pairs = (uint64_t)n * nroles;
    uint32_t stride = pairs > AZ_MAX_QUERIES ? (uint32_t)((pairs + AZ_MAX_QUERIES - 1) / AZ_MAX_QUERIES) : 1;
    uint32_t state_joints = check_state_joints(&c, stride);
    for (unsigned r = 0; r < nroles; r++) {
        outcomes(&g, r, lo, hi);
        for (uint32_t j = 0; j < n; j++)
            target[j] = c.best[r] >= 0 && node_goal(&g, j, r) == c.best[r];
        dist_back(&g, target, dist);
        check_queries(&c, r, lo, hi, dist, stride);
    }
    uint64_t total = 0;
    fprintf(out, "check: claims checked:");
    for (GdlClaimKind k = 0; k < GDL_CLAIM_NKINDS; k++) {
        fprintf(out, "%s %llu %s", k ? "," : "", (unsigned long long)c.checked[k], kind_names[k]);
        total += c.checked[k];
    }
    fprintf(out, "; %llu in all, and the queries of %llu (state, role) pairs", (unsigned long long)total,
            (unsigned long long)c.queries);
    if (stride > 1)
        fprintf(out, " (one state in %u)", stride);
    fputc('\n', out);
    fprintf(out, "check: %u distinct joint latches through the states queried, each held on every transition; "
                 "goal ranges narrower than the role's whole range in %llu of %llu (state, role) pairs\n",
            state_joints, (unsigned long long)c.narrow, (unsigned long long)c.queries);
    fprintf(out, "check: goal values (best, worst):");
    for (unsigned r = 0; r < nroles; r++)
        fprintf(out, " %s (%d, %d)", role_name(game, r), c.best[r], c.worst[r]);
    fputc('\n', out);
    if (g.exhaustive)
        completeness(&c, out);
    fprintf(out, "check: %llu unsound\n", (unsigned long long)c.unsound);
    res->unsound = c.unsound;
    res->shown = c.shown < AZ_MAX_SHOWN ? c.shown : AZ_MAX_SHOWN;
    free(lo);
    free(hi);
    free(dist);
    free(reach);
    free(target);
    free(c.best);
    free(c.worst);
done:
    gdl_state_free(init);
    graph_clear(&g);
    symtab_free(&g.names);
    if (cm != m)
        gdl_machine_free(cm);
    return ran;
}
