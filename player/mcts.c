/*
 * mcts.c: the player's search, UCT and flat Monte-Carlo over one machine.
 *
 * UCT. A node holds a state and, once expanded, every role's legal moves
 * with per-role statistics (visits, summed score): decoupled UCT, so each
 * role picks its move at a node by its own UCB1, mean + C sqrt(ln N / n),
 * scores being goal / 100; a role with a single legal move has nothing to
 * choose, so alternating games are plain UCT. An iteration walks down by
 * UCB1 (unvisited moves first, from a random offset), adds the one child
 * its joint move leads to (gdl_state_next), runs a depth charge from it
 * (gdl_state_depth_charge: the library's loop, no allocation per step) and adds
 * the goals to every node on the path. Children are kept per node in a
 * small array keyed by the joint move's index (sum of move index times the
 * product of the earlier roles' counts).
 *
 * The analyses, when given, at a node's expansion (its second visit: the
 * first is the playout from it, so nodes seen once cost nothing more): a
 * node whose every role's goal range is a single value is terminal with
 * those goals (the fixed-range filter); at the root (and, with the
 * winning_moves option, at every node) a role with moves proven to win at
 * once keeps only those, and its moves proven to lose at once are dropped
 * unless every move loses. In the tree the latter costs more than it
 * gives: bench/player.c's ablation measures both.
 *
 * Flat Monte-Carlo spreads its playouts round-robin over the player's
 * moves at the root, the other roles moving at random, and keeps only the
 * root's statistics.
 *
 * Batched rounds (cfg.batch = L lanes): L iterations walk down one after
 * the other, each counting its visits at once along its path (a virtual
 * loss, so that the next walks elsewhere), and their L new leaves are then
 * played out together by a batch of the network (gdl_batch_playouts), each
 * result added to its path. A game the batch cannot take (past the
 * grounding budget) plays depth charges.
 *
 * The tree is bounded (max_nodes): past it an iteration plays out from the
 * leaf without adding a node. Across turns the subtree of the state
 * reached (a child or grandchild of the old root) is kept and the rest
 * freed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "internal.h"

typedef struct Node Node;
struct Node {
    GdlState *state;   /* owned */
    uint32_t visits;   /* iterations through this node */
    bool expanded;     /* moves and statistics are set */
    bool terminal;     /* goals hold the end's values */
    bool *winning;     /* per role: its moves were cut to winning ones */
    float *goals;      /* terminal: per role, in [0, 1] */
    uint32_t *nm;      /* per role: number of moves */
    uint32_t *off;     /* per role: its first move in moves / cnt / sum */
    GdlMove *moves;    /* every role's moves, one after the other */
    uint32_t *cnt;     /* per move: visits */
    double *sum;       /* per move: summed score */
    uint64_t *keys;    /* children's joint-move keys */
    Node **kids;       /* children */
    uint32_t nkids, capkids;
};

struct Search {
    GdlMachine *m;
    GdlAnalysis *an;
    GdlMachine *an_m;     /* the analysis's machine (m, or another machine of the game) */
    unsigned nroles;
    SearchConfig cfg;
    GdlRng rng;
    Node *root;
    size_t nodes;
    /* per iteration scratch, reused */
    Node **path;          /* nodes walked */
    uint32_t *sel;        /* per step, per role: the move index chosen */
    size_t cappath;
    GdlMove *joint;       /* nroles */
    int *goals;           /* nroles */
    float *fgoals;        /* nroles */
    GdlState *scratch;    /* flat and past max_nodes: the leaf's next state */
    GdlMove *legal;       /* copy of one role's legal moves */
    size_t caplegal;
    /* flat: the root statistics, kept in the root node */
    uint64_t rr;          /* flat's round-robin counter */
    /* batched leaves */
    GdlBatch *batch;      /* made at the first playout; NULL with batch_off: none */
    bool batch_off;
    const GdlState **bstates; /* a round's leaves (cfg.batch) */
    int *bgoals;          /* cfg.batch x nroles */
    Node ***bpath;        /* per leaf of a round: its path and choices */
    uint32_t **bsel;
    size_t *bdepth, *bcap;
    double deadline;      /* search_run's, for the batch */
    const volatile int *cancel;
};

void search_config_default(SearchConfig *c)
{
    c->strategy = PLAY_MCTS;
    c->c = 0.4;
    c->goal_ranges = true;
    c->winning_moves = false; /* measured: halves the playouts per second of Connect
                                 Four, no gain in strength at equal playouts */
    c->max_nodes = 0;
    c->batch = 0;
}

static void node_free(Search *s, Node *n)
{
    if (!n)
        return;
    for (uint32_t i = 0; i < n->nkids; i++)
        node_free(s, n->kids[i]);
    gdl_state_free(n->state);
    free(n->winning);
    free(n->goals);
    free(n->nm);
    free(n->off);
    free(n->moves);
    free(n->cnt);
    free(n->sum);
    free(n->keys);
    free(n->kids);
    free(n);
    s->nodes--;
}

/* A node for state (taken over), terminal or not, not expanded. */
static GdlStatus node_make(Search *s, GdlState *state, Node **out)
{
    *out = NULL;
    Node *n = calloc(1, sizeof *n);
    if (!n) {
        gdl_state_free(state);
        return GDL_OUT_OF_MEMORY;
    }
    n->state = state;
    s->nodes++;
    bool term;
    GdlStatus st = gdl_state_is_terminal(s->m, state, &term);
    if (st != GDL_OK) {
        node_free(s, n);
        return st;
    }
    if (term) {
        n->terminal = true;
        n->goals = malloc(s->nroles * sizeof *n->goals);
        if (!n->goals) {
            node_free(s, n);
            return GDL_OUT_OF_MEMORY;
        }
        st = gdl_state_goals(s->m, state, s->goals);
        if (st != GDL_OK) {
            node_free(s, n);
            return st;
        }
        for (unsigned r = 0; r < s->nroles; r++)
            n->goals[r] = (float)s->goals[r] / 100.0f;
    }
    *out = n;
    return GDL_OK;
}

/* Whether mv (of s->m) is among set (moves of the analysis's machine):
 * by id on the same machine, by text across machines. */
static bool move_in(const Search *s, GdlMove mv, const GdlMove *set, size_t n)
{
    if (s->an_m == s->m) {
        for (size_t i = 0; i < n; i++)
            if (set[i] == mv)
                return true;
        return false;
    }
    const char *t = gdl_move_text(s->m, mv);
    for (size_t i = 0; i < n; i++)
        if (strcmp(gdl_move_text(s->an_m, set[i]), t) == 0)
            return true;
    return false;
}

/* Every role's legal moves and zeroed statistics; the analysis cuts a
 * role's moves to its winning ones, or drops its losing ones. */
static GdlStatus node_expand(Search *s, Node *n)
{
    unsigned R = s->nroles;
    /* an expansion cut short (cancelled, out of memory) left these */
    free(n->nm);
    free(n->off);
    free(n->winning);
    free(n->moves);
    free(n->cnt);
    free(n->sum);
    n->nm = n->off = NULL;
    n->winning = NULL;
    n->moves = NULL;
    n->cnt = NULL;
    n->sum = NULL;
    if (s->an && s->cfg.goal_ranges) {
        /* every role's goal range one value: the game's value is fixed */
        bool fixed = true;
        for (unsigned r = 0; r < R && fixed; r++) {
            int lo, hi;
            if (gdl_analysis_goal_range(s->an, n->state, r, &lo, &hi) != GDL_OK || lo != hi)
                fixed = false;
            else
                s->goals[r] = lo;
        }
        if (fixed) {
            n->goals = malloc(R * sizeof *n->goals);
            if (!n->goals)
                return GDL_OUT_OF_MEMORY;
            for (unsigned r = 0; r < R; r++)
                n->goals[r] = (float)s->goals[r] / 100.0f;
            n->terminal = true;
            return GDL_OK;
        }
    }
    n->nm = calloc(R, sizeof *n->nm);
    n->off = calloc(R + 1, sizeof *n->off);
    n->winning = calloc(R, sizeof *n->winning);
    if (!n->nm || !n->off || !n->winning)
        return GDL_OUT_OF_MEMORY;
    size_t total = 0, cap = 0;
    GdlMove *all = NULL;
    for (unsigned r = 0; r < R; r++) {
        const GdlMove *lm;
        size_t k;
        GdlStatus st = gdl_state_legal(s->m, n->state, r, &lm, &k);
        if (st != GDL_OK) {
            free(all);
            return st;
        }
        if (k == 0) {
            free(all);
            return GDL_GAME_FAULT;
        }
        if (total + k > cap) {
            cap = (total + k) * 2;
            GdlMove *t = realloc(all, cap * sizeof *t);
            if (!t) {
                free(all);
                return GDL_OUT_OF_MEMORY;
            }
            all = t;
        }
        memcpy(all + total, lm, k * sizeof *lm);
        if (k > 1 && s->an && (s->cfg.winning_moves || n == s->root)) {
            const GdlMove *win, *lose;
            size_t nwin, nlose;
            if (gdl_analysis_winning_moves(s->an, n->state, r, &win, &nwin, &lose, &nlose) == GDL_OK) {
                if (nwin > 0) {
                    size_t j = 0;
                    for (size_t i = 0; i < k; i++)
                        if (move_in(s, all[total + i], win, nwin))
                            all[total + j++] = all[total + i];
                    if (j > 0) {
                        k = j;
                        n->winning[r] = true;
                    }
                } else if (nlose > 0 && nlose < k) {
                    size_t j = 0;
                    for (size_t i = 0; i < k; i++)
                        if (!move_in(s, all[total + i], lose, nlose))
                            all[total + j++] = all[total + i];
                    if (j > 0)
                        k = j;
                }
            }
        }
        n->off[r] = (uint32_t)total;
        n->nm[r] = (uint32_t)k;
        total += k;
    }
    n->off[R] = (uint32_t)total;
    n->moves = all;
    n->cnt = calloc(total, sizeof *n->cnt);
    n->sum = calloc(total, sizeof *n->sum);
    if (!n->cnt || !n->sum)
        return GDL_OUT_OF_MEMORY;
    n->expanded = true;
    return GDL_OK;
}

Search *search_new(GdlMachine *m, GdlAnalysis *an, unsigned nroles, const SearchConfig *cfg, uint64_t seed)
{
    Search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = m;
    s->an = an;
    s->an_m = m;
    s->nroles = nroles;
    if (cfg)
        s->cfg = *cfg;
    else
        search_config_default(&s->cfg);
    if (s->cfg.max_nodes == 0)
        s->cfg.max_nodes = (size_t)1 << 18; /* about 350 bytes a node in Connect Four: 90 MB */
    gdl_rng_seed(&s->rng, seed);
    s->joint = calloc(nroles ? nroles : 1, sizeof *s->joint);
    s->goals = calloc(nroles ? nroles : 1, sizeof *s->goals);
    s->fgoals = calloc(nroles ? nroles : 1, sizeof *s->fgoals);
    if (!s->joint || !s->goals || !s->fgoals) {
        search_free(s);
        return NULL;
    }
    return s;
}

void search_free(Search *s)
{
    if (!s)
        return;
    node_free(s, s->root);
    free(s->path);
    free(s->sel);
    free(s->joint);
    free(s->goals);
    free(s->fgoals);
    free(s->legal);
    gdl_state_free(s->scratch);
    gdl_batch_free(s->batch);
    free(s->bstates);
    free(s->bgoals);
    for (unsigned k = 0; s->bpath && k < s->cfg.batch; k++) {
        free(s->bpath[k]);
        free(s->bsel[k]);
    }
    free(s->bpath);
    free(s->bsel);
    free(s->bdepth);
    free(s->bcap);
    free(s);
}

size_t search_nodes(const Search *s) { return s->nodes; }

void search_set_analysis(Search *s, GdlAnalysis *an, GdlMachine *an_m)
{
    s->an = an;
    s->an_m = an ? an_m : s->m;
}

GdlStatus search_set_root(Search *s, const GdlState *state)
{
    if (s->root && gdl_state_equal(s->root->state, state))
        return GDL_OK;
    /* the state among the root's children or grandchildren (a player
     * that had one legal move did not search on the turn between) */
    Node *keep = NULL;
    if (s->root && s->cfg.strategy == PLAY_MCTS) {
        Node *r = s->root;
        for (uint32_t i = 0; i < r->nkids && !keep; i++)
            if (gdl_state_equal(r->kids[i]->state, state)) {
                keep = r->kids[i];
                r->kids[i] = r->kids[--r->nkids];
            }
        for (uint32_t i = 0; i < r->nkids && !keep; i++) {
            Node *c = r->kids[i];
            for (uint32_t j = 0; j < c->nkids && !keep; j++)
                if (gdl_state_equal(c->kids[j]->state, state)) {
                    keep = c->kids[j];
                    c->kids[j] = c->kids[--c->nkids];
                }
        }
    }
    node_free(s, s->root);
    s->root = keep;
    if (keep)
        return GDL_OK;
    GdlState *c = gdl_state_copy(state);
    if (!c)
        return GDL_OUT_OF_MEMORY;
    return node_make(s, c, &s->root);
}

static bool path_room(Search *s, size_t depth)
{
    if (depth < s->cappath)
        return true;
    size_t cap = s->cappath ? s->cappath * 2 : 64;
    Node **p = realloc(s->path, cap * sizeof *p);
    if (!p)
        return false;
    s->path = p;
    uint32_t *q = realloc(s->sel, cap * (s->nroles ? s->nroles : 1) * sizeof *q);
    if (!q)
        return false;
    s->sel = q;
    s->cappath = cap;
    return true;
}

/* UCB1 for role r at n (expanded, visited at least once when a move was). */
static uint32_t ucb_pick(Search *s, const Node *n, unsigned r)
{
    uint32_t k = n->nm[r], off = n->off[r];
    if (k == 1)
        return 0;
    /* unvisited moves first, from a random offset */
    uint32_t start = (uint32_t)gdl_rng_below(&s->rng, k);
    for (uint32_t j = 0; j < k; j++) {
        uint32_t i = (start + j) % k;
        if (n->cnt[off + i] == 0)
            return i;
    }
    double lnN = log((double)n->visits);
    double best = -1;
    uint32_t bi = 0;
    for (uint32_t i = 0; i < k; i++) {
        double c = (double)n->cnt[off + i];
        double v = n->sum[off + i] / c + s->cfg.c * sqrt(lnN / c);
        if (v > best) {
            best = v;
            bi = i;
        }
    }
    return bi;
}

static Node *kid_find(const Node *n, uint64_t key)
{
    for (uint32_t i = 0; i < n->nkids; i++)
        if (n->keys[i] == key)
            return n->kids[i];
    return NULL;
}

static bool kid_add(Node *n, uint64_t key, Node *kid)
{
    if (n->nkids == n->capkids) {
        uint32_t cap = n->capkids ? n->capkids * 2 : 4;
        uint64_t *k = realloc(n->keys, cap * sizeof *k);
        if (!k)
            return false;
        n->keys = k;
        Node **c = realloc(n->kids, cap * sizeof *c);
        if (!c)
            return false;
        n->kids = c;
        n->capkids = cap;
    }
    n->keys[n->nkids] = key;
    n->kids[n->nkids++] = kid;
    return true;
}

static void backprop(Search *s, size_t depth, const float *g)
{
    unsigned R = s->nroles;
    for (size_t d = 0; d < depth; d++) {
        Node *n = s->path[d];
        n->visits++;
        const uint32_t *sel = s->sel + d * R;
        for (unsigned r = 0; r < R; r++) {
            uint32_t i = n->off[r] + sel[r];
            n->cnt[i]++;
            n->sum[i] += g[r];
        }
    }
}

/* A depth charge from state into s->fgoals. */
static GdlStatus playout(Search *s, const GdlState *state)
{
    uint64_t steps;
    GdlStatus st = gdl_state_depth_charge(s->m, state, &s->rng, 0, s->goals, &steps);
    if (st != GDL_OK)
        return st;
    for (unsigned r = 0; r < s->nroles; r++)
        s->fgoals[r] = (float)s->goals[r] / 100.0f;
    return GDL_OK;
}

/* The goals (in s->fgoals) of a playout from the state after s->joint in
 * from, through the scratch state: no node is added. */
static GdlStatus play_after(Search *s, const GdlState *from)
{
    GdlStatus st = gdl_state_next_into(s->m, from, s->joint, &s->scratch);
    if (st != GDL_OK)
        return st;
    bool term;
    if ((st = gdl_state_is_terminal(s->m, s->scratch, &term)) != GDL_OK)
        return st;
    if (!term)
        return playout(s, s->scratch);
    if ((st = gdl_state_goals(s->m, s->scratch, s->goals)) != GDL_OK)
        return st;
    for (unsigned r = 0; r < s->nroles; r++)
        s->fgoals[r] = (float)s->goals[r] / 100.0f;
    return GDL_OK;
}

/* Walks down from the root by UCB1 (the path in s->path and s->sel, *depth
 * long) and adds the node its last joint move leads to, visited once. *g
 * is then the goals when they are known (a terminal node; the tree full,
 * whose step past the leaf was played out at once), else NULL and *leaf
 * the new node to play out. */
static GdlStatus descend(Search *s, size_t *depth, const float **g, Node **leaf)
{
    unsigned R = s->nroles;
    Node *n = s->root;
    *depth = 0;
    *g = NULL;
    *leaf = NULL;
    for (;;) {
        if (n->terminal) {
            *g = n->goals;
            return GDL_OK;
        }
        if (!n->expanded) {
            GdlStatus st = node_expand(s, n);
            if (st != GDL_OK)
                return st;
            if (n->terminal) {
                *g = n->goals;
                return GDL_OK;
            }
        }
        if (!path_room(s, *depth))
            return GDL_OUT_OF_MEMORY;
        uint32_t *sel = s->sel + *depth * R;
        uint64_t key = 0, stride = 1;
        for (unsigned r = 0; r < R; r++) {
            sel[r] = ucb_pick(s, n, r);
            s->joint[r] = n->moves[n->off[r] + sel[r]];
            key += sel[r] * stride;
            stride *= n->nm[r];
        }
        s->path[(*depth)++] = n;
        Node *kid = kid_find(n, key);
        if (kid) {
            n = kid;
            continue;
        }
        if (s->nodes >= s->cfg.max_nodes) {
            /* the tree is full: play out from the next state, adding nothing */
            GdlStatus st = play_after(s, n->state);
            if (st == GDL_OK)
                *g = s->fgoals;
            return st;
        }
        GdlState *next = NULL;
        GdlStatus st = gdl_state_next(s->m, n->state, s->joint, &next);
        if (st != GDL_OK)
            return st;
        if ((st = node_make(s, next, &kid)) != GDL_OK)
            return st;
        if (!kid_add(n, key, kid)) {
            node_free(s, kid);
            return GDL_OUT_OF_MEMORY;
        }
        kid->visits++;
        if (kid->terminal)
            *g = kid->goals;
        else
            *leaf = kid;
        return GDL_OK;
    }
}

/* One UCT iteration. */
static GdlStatus uct_iterate(Search *s)
{
    size_t depth;
    const float *g;
    Node *leaf;
    GdlStatus st = descend(s, &depth, &g, &leaf);
    if (st != GDL_OK)
        return st;
    if (!g) {
        if ((st = playout(s, leaf->state)) != GDL_OK)
            return st;
        g = s->fgoals;
    }
    backprop(s, depth, g);
    return GDL_OK;
}

/* A batched round's slot k: the path s->path / s->sel of depth kept. */
static bool slot_keep(Search *s, unsigned k, size_t depth)
{
    unsigned R = s->nroles ? s->nroles : 1;
    if (depth > s->bcap[k]) {
        size_t cap = depth * 2;
        Node **p = realloc(s->bpath[k], cap * sizeof *p);
        if (!p)
            return false;
        s->bpath[k] = p;
        uint32_t *q = realloc(s->bsel[k], cap * R * sizeof *q);
        if (!q)
            return false;
        s->bsel[k] = q;
        s->bcap[k] = cap;
    }
    memcpy(s->bpath[k], s->path, depth * sizeof *s->path);
    memcpy(s->bsel[k], s->sel, depth * R * sizeof *s->sel);
    s->bdepth[k] = depth;
    return true;
}

/* Adds g's scores along slot k's path, whose visits were counted. */
static void slot_score(Search *s, unsigned k, const float *g)
{
    unsigned R = s->nroles;
    for (size_t d = 0; d < s->bdepth[k]; d++) {
        Node *n = s->bpath[k][d];
        const uint32_t *sel = s->bsel[k] + d * R;
        for (unsigned r = 0; r < R; r++)
            n->sum[n->off[r] + sel[r]] += g[r];
    }
}

/* The batch of a batched round, made at the first; false when the game
 * has none (then plain iterations). */
static bool batch_ready(Search *s)
{
    if (s->batch)
        return true;
    unsigned L = s->cfg.batch, R = s->nroles ? s->nroles : 1;
    s->bstates = calloc(L, sizeof *s->bstates);
    s->bgoals = calloc((size_t)L * R, sizeof *s->bgoals);
    s->bpath = calloc(L, sizeof *s->bpath);
    s->bsel = calloc(L, sizeof *s->bsel);
    s->bdepth = calloc(L, sizeof *s->bdepth);
    s->bcap = calloc(L, sizeof *s->bcap);
    if (!s->bstates || !s->bgoals || !s->bpath || !s->bsel || !s->bdepth || !s->bcap || s->nroles > 64 ||
        gdl_batch_new(s->m, L, gdl_rng_next(&s->rng), 100000, &s->batch) != GDL_OK) {
        s->batch_off = true;
        return false;
    }
    return true;
}

/* cfg.batch iterations, their playouts in one batch; *done the
 * iterations made. */
static GdlStatus uct_round(Search *s, uint64_t *done)
{
    unsigned R = s->nroles, L = s->cfg.batch, leaves = 0;
    GdlStatus st = GDL_OK;
    for (unsigned k = 0; k < L && st == GDL_OK; k++) {
        size_t depth;
        const float *g;
        Node *leaf;
        if ((st = descend(s, &depth, &g, &leaf)) != GDL_OK)
            return st;
        /* the visits at once, scoring nothing (the virtual loss); the score
         * when known, else after the batch */
        static const float nothing[64];
        backprop(s, depth, nothing);
        if (!slot_keep(s, leaves, depth))
            return GDL_OUT_OF_MEMORY;
        if (g) {
            slot_score(s, leaves, g);
        } else {
            s->bstates[leaves] = leaf->state;
            leaves++;
        }
        ++*done;
    }
    if (leaves == 0)
        return GDL_OK;
    gdl_batch_set_deadline(s->batch, s->deadline);
    gdl_batch_set_cancel_flag(s->batch, s->cancel);
    if ((st = gdl_batch_playouts(s->batch, s->bstates, leaves, s->bgoals)) != GDL_OK)
        return st;
    for (unsigned k = 0; k < leaves; k++) {
        for (unsigned r = 0; r < R; r++) {
            int v = s->bgoals[(size_t)k * R + r];
            s->fgoals[r] = v == GDL_NO_GOAL ? 0.0f : (float)v / 100.0f;
        }
        slot_score(s, k, s->fgoals);
    }
    return GDL_OK;
}

/* One flat iteration: role's next move round-robin, the others at random. */
static GdlStatus flat_iterate(Search *s, unsigned role)
{
    unsigned R = s->nroles;
    Node *n = s->root;
    if (n->terminal)
        return GDL_OK;
    if (!n->expanded) {
        GdlStatus st = node_expand(s, n);
        if (st != GDL_OK || n->terminal)
            return st;
    }
    if (!path_room(s, 1))
        return GDL_OUT_OF_MEMORY;
    uint32_t *sel = s->sel;
    for (unsigned r = 0; r < R; r++) {
        sel[r] = r == role ? (uint32_t)(s->rr++ % n->nm[r]) : (uint32_t)gdl_rng_below(&s->rng, n->nm[r]);
        s->joint[r] = n->moves[n->off[r] + sel[r]];
    }
    GdlStatus st = play_after(s, n->state);
    if (st != GDL_OK)
        return st;
    s->path[0] = n;
    backprop(s, 1, s->fgoals);
    return GDL_OK;
}

GdlStatus search_run(Search *s, unsigned role, uint64_t playouts, double deadline, const volatile int *cancel,
                     uint64_t *done)
{
    if (!s->root)
        return GDL_BAD_ARGUMENT;
    if (s->root->terminal)
        return GDL_OK;
    /* the root's expansion too runs under the deadline and the flag: one
     * expansion of a large game may take longer than a play clock */
    gdl_machine_set_deadline(s->m, deadline);
    gdl_machine_set_cancel_flag(s->m, cancel);
    s->deadline = deadline;
    s->cancel = cancel;
    GdlStatus st = GDL_OK;
    uint64_t i = 0;
    bool go = true;
    if (!s->root->expanded) {
        st = node_expand(s, s->root);
        go = st == GDL_OK && !s->root->terminal;
    }
    while (go && (playouts == 0 || i < playouts)) {
        if (player_flag_up(cancel))
            break;
        /* the clock every 16 iterations: a depth charge polls it too */
        if (deadline > 0 && (i & 15) == 0 && gdl_now() >= deadline)
            break;
        if (s->cfg.strategy == PLAY_MCTS && s->cfg.batch && !s->batch_off && batch_ready(s)) {
            st = uct_round(s, &i);
            if (st != GDL_OK)
                break;
            continue;
        }
        st = s->cfg.strategy == PLAY_FLAT ? flat_iterate(s, role) : uct_iterate(s);
        if (st != GDL_OK)
            break;
        i++;
    }
    gdl_machine_set_deadline(s->m, 0);
    gdl_machine_set_cancel_flag(s->m, NULL);
    *done += i;
    return st == GDL_CANCELLED ? GDL_OK : st;
}

size_t search_root(const Search *s, unsigned role, const GdlMove **moves, const uint32_t **visits,
                   const double **sums)
{
    const Node *n = s->root;
    if (!n || !n->expanded || role >= s->nroles)
        return 0;
    *moves = n->moves + n->off[role];
    *visits = n->cnt + n->off[role];
    *sums = n->sum + n->off[role];
    return n->nm[role];
}

bool search_root_winning(const Search *s, unsigned role)
{
    return s->root && s->root->expanded && role < s->nroles && s->root->winning[role];
}
