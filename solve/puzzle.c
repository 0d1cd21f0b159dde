/*
 * solve/puzzle.c: the one-role search (issue 15). A puzzle's value is the
 * best goal its role can reach; its plan is a path of moves to a terminal
 * state with that goal.
 *
 * The search is A* over the state graph, one node per distinct state
 * (looked up by gdl_state_hash, checked with gdl_state_equal; a table of
 * every state seen is the closed set). Edges cost one turn. It looks for a
 * target value T, at first the highest the role can hope for (100 without
 * analyses; with them, the role's highest goal value capped by the goal
 * range of the start state), and ends when a terminal state with goal T is
 * taken from the open list: with an admissible heuristic that path is the
 * shortest to T (nodes are reopened when a shorter path to them turns up,
 * so the heuristic need not be consistent).
 *
 * Goal ranges prune. A new state whose range max is below T is not put on
 * the open list but in a bucket by its range max (deferred); one whose range
 * max is also at most the best value seen so far (b) is dropped (it cannot
 * improve b). When the open list is empty, T is excluded: the next target
 * is the highest bucket above b, its states go onto the open list, and so
 * on; when no bucket is above b the space is exhausted and the value is b
 * exactly. For a target below 100 the plan is the first path seen to it
 * (each node keeps the parent that gave it its least depth).
 *
 * Heuristics (analyses on), the larger of:
 *   (a) Hamming distance to a target state. gdl_analysis_deduce with
 *       `(goal ROLE T)` true at turn 0 gives the base facts any state with
 *       goal T has (true or false); the control bases (GDL_CLAIM_CONTROL:
 *       no move affects them, e.g. a step counter) are left out. The
 *       distance d(s) is the number of those facts s has wrong. One move
 *       makes at most k of them right, where k is the largest, over the
 *       role's input moves M, number of target facts f for which the
 *       deduction does not find inconsistent "f wrong at turn 0, (does ROLE
 *       M) at turn 0, f right at turn 1": deduction is sound (it reports an
 *       inconsistency only when there is no model), so a fact it rules out
 *       cannot be fixed by M, and d falls by at most k a turn. Hence
 *       ceil(d / k) turns at least: admissible. (With too many moves and
 *       facts for the deduction budget, k is the number of target facts.)
 *   (b) gdl_analysis_goal_distance, a lower bound on the turns before the
 *       role's highest goal can hold: used only while T is that highest
 *       goal (it says nothing of lower goals). -1 (it never can) defers the
 *       state below T. It is a deduction over many turns, dear on big
 *       networks (54 ms a state on the 15-puzzle, 2.4 ms on the 8-puzzle,
 *       against microseconds for a next state): after 16 calls it is
 *       dropped when a call costs more than 20 next states. Leaving a
 *       heuristic out at some nodes keeps h a lower bound; reopening copes
 *       with the inconsistency.
 * Goal ranges: without goal latches the range of every non-terminal state
 * is the role's whole range, so it is asked once, at the start.
 * Without analyses: no heuristic and no pruning, a breadth-first search
 * (uniform cost) that ends at the first terminal state with goal 100 taken
 * from the open list, or exhausts the space.
 *
 * Proofs (docs/proofs.md): the lower section is the plan as a chain of
 * nodes (a play and one edge each). An upper section (hi < 100) must cover
 * every line, and goal ranges cannot be replayed by the checker: so before
 * writing it the search expands every state it left unexpanded (deferred,
 * dropped or never reached by A*), without pruning, and writes the whole
 * graph, every legal move at every node. GDL games end, so that graph has
 * no cycle. Stopped early, no upper section is written and the proof's
 * value line says HI = 100.
 *
 * With a proof asked and hi < 100, the interval returned is the one the
 * proof carries: when a bound stops that completion, [lo, 100].
 *
 * SolveOptions.transpositions and .symmetries are not used: A* always
 * merges equal states (its closed set), and puzzles are solved without
 * symmetries. `nodes` counts next states computed (a move expanded into a
 * child), as in the two-player search.
 *
 * Memory: A* keeps every state. When its table passes --memory (and no
 * proof is asked: a proof needs the graph), the table is dropped and IDA*
 * searches for the same target with the same heuristics and pruning, in
 * the memory of one path (depth-first searches bounded by f, the bound
 * raised to the least f past it, cycles checked along the path): the
 * first bound that reaches T gives a shortest plan. Without --memory, or
 * with a proof asked, the bound stops the search with its partial
 * interval. IDA* only looks for T: when T is out of reach it stops with
 * "memory" and [b, T]. peak_bytes is an estimate: the tables, and 64 + 16
 * bytes a fact for each state.
 */
#include "solve.h"

#include <stdlib.h>
#include <string.h>

enum {
    PZ_UNSEEN = 0,   /* created, never expanded (terminal, dropped or deferred) */
    PZ_OPEN,         /* on the open list */
    PZ_CLOSED,       /* expanded: every child is in the table */
};

/* One state of the graph. */
typedef struct PzNode {
    GdlState *s;        /* the state (owned) */
    uint64_t hash;      /* gdl_state_hash */
    uint32_t parent;    /* the node this one was reached from at its least depth (UINT32_MAX: root) */
    GdlMove move;       /* the move from parent */
    int g;              /* depth: turns from the root along parent links */
    int h;              /* heuristic for the current target (-1: not computed) */
    int rmax;           /* goal range max (100 without analyses) */
    int value;          /* goal when terminal, -1 otherwise */
    uint8_t status;     /* PZ_UNSEEN, PZ_OPEN, PZ_CLOSED */
} PzNode;

/* An entry of the open list: a binary heap by f, then larger g first. */
typedef struct PzEntry {
    int f, g;
    uint32_t node;
} PzEntry;

typedef struct U32List {
    uint32_t *v;
    size_t n, cap;
} U32List;

typedef struct Pz {
    GdlMachine *m;
    GdlAnalysis *an;        /* NULL: analyses off */
    const SolveOptions *o;
    const char *role_name;
    PzNode *nodes;
    size_t n, cap;
    uint32_t *index;        /* open addressing: node + 1, 0 empty */
    size_t index_cap;
    PzEntry *heap;
    size_t nheap, heap_cap;
    U32List bucket[101];    /* deferred states by range max */
    int target;             /* T */
    int highest;            /* the role's highest goal value (for goal distance) */
    int best;               /* b: the best terminal goal seen, -1 none */
    uint32_t best_node;     /* its node */
    /* the Hamming target of T */
    char **tfacts;          /* facts */
    bool *tvals;            /* their values */
    size_t ntarget;
    int kfix;               /* the most target facts one move fixes */
    /* accounting */
    uint64_t expansions, transpositions, bytes, peak;
    double t0, next_progress;
    bool ida;               /* IDA* took over (the table did not fit) */
    int fmax;               /* the largest f taken from the open list (progress lines) */
    int range_const;        /* the range max of every non-terminal state (no goal latch), or -1 */
    bool use_distance;      /* goal distance in the heuristic (dropped when too dear) */
    uint64_t distance_calls;
    double distance_seconds, expand_seconds;
    bool stopped;
    const char *stop_reason;
    char *err;
} Pz;

static GdlStatus pz_fail(Pz *p, GdlStatus st, const char *what)
{
    if (!p->err) {
        const char *me = gdl_machine_error(p->m);
        size_t len = strlen(what) + strlen(me) + 32;
        p->err = malloc(len);
        if (p->err)
            snprintf(p->err, len, "solve: %s%s%s", what, *me ? ": " : "", me);
    }
    return st;
}

static bool list_push(U32List *l, uint32_t x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        uint32_t *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return false;
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = x;
    return true;
}

/* ---- the table of states ---------------------------------------------- */

static bool index_grow(Pz *p)
{
    size_t cap = p->index_cap ? p->index_cap * 2 : 1024;
    uint32_t *ix = calloc(cap, sizeof *ix);
    if (!ix)
        return false;
    for (size_t i = 0; i < p->n; i++) {
        size_t j = p->nodes[i].hash & (cap - 1);
        while (ix[j])
            j = (j + 1) & (cap - 1);
        ix[j] = (uint32_t)i + 1;
    }
    free(p->index);
    p->bytes += (cap - p->index_cap) * sizeof *ix;
    p->index = ix, p->index_cap = cap;
    return true;
}

/* The node of state s, or UINT32_MAX. */
static uint32_t pz_find(Pz *p, const GdlState *s, uint64_t hash)
{
    size_t j = hash & (p->index_cap - 1);
    for (; p->index[j]; j = (j + 1) & (p->index_cap - 1)) {
        PzNode *x = &p->nodes[p->index[j] - 1];
        if (x->hash == hash && gdl_state_equal(x->s, s))
            return p->index[j] - 1;
    }
    return UINT32_MAX;
}

/* Adds state s (taking it) as a new node; UINT32_MAX when memory runs out
 * (s is then freed). */
static uint32_t pz_add(Pz *p, GdlState *s, uint64_t hash, uint32_t parent, GdlMove move, int g)
{
    if ((p->n + 1) * 2 > p->index_cap && !index_grow(p))
        goto oom;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 1024;
        if (cap > UINT32_MAX - 1)
            goto oom;
        PzNode *v = realloc(p->nodes, cap * sizeof *v);
        if (!v)
            goto oom;
        p->bytes += (cap - p->cap) * sizeof *v;
        p->nodes = v, p->cap = cap;
    }
    uint32_t id = (uint32_t)p->n++;
    p->nodes[id] = (PzNode){s, hash, parent, move, g, -1, 100, -1, PZ_UNSEEN};
    size_t j = hash & (p->index_cap - 1);
    while (p->index[j])
        j = (j + 1) & (p->index_cap - 1);
    p->index[j] = id + 1;
    /* a state's own memory, estimated: its facts and the object */
    p->bytes += 64 + 16 * gdl_state_size(s);
    if (p->bytes > p->peak)
        p->peak = p->bytes;
    return id;
oom:
    gdl_state_free(s);
    return UINT32_MAX;
}

/* ---- the open list ---------------------------------------------------- */

static bool entry_before(const PzEntry *a, const PzEntry *b)
{
    return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static bool heap_push(Pz *p, uint32_t node)
{
    PzNode *x = &p->nodes[node];
    if (p->nheap == p->heap_cap) {
        size_t cap = p->heap_cap ? p->heap_cap * 2 : 1024;
        PzEntry *v = realloc(p->heap, cap * sizeof *v);
        if (!v)
            return false;
        p->bytes += (cap - p->heap_cap) * sizeof *v;
        if (p->bytes > p->peak)
            p->peak = p->bytes;
        p->heap = v, p->heap_cap = cap;
    }
    PzEntry e = {x->g + (x->h > 0 ? x->h : 0), x->g, node};
    size_t i = p->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_before(&e, &p->heap[up]))
            break;
        p->heap[i] = p->heap[up];
        i = up;
    }
    p->heap[i] = e;
    x->status = x->value >= 0 ? PZ_UNSEEN : PZ_OPEN;
    return true;
}

static PzEntry heap_pop(Pz *p)
{
    PzEntry top = p->heap[0], last = p->heap[--p->nheap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= p->nheap)
            break;
        if (c + 1 < p->nheap && entry_before(&p->heap[c + 1], &p->heap[c]))
            c++;
        if (!entry_before(&p->heap[c], &last))
            break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (p->nheap)
        p->heap[i] = last;
    return top;
}

/* ---- heuristics ------------------------------------------------------- */

static void target_clear(Pz *p)
{
    for (size_t i = 0; i < p->ntarget; i++)
        free(p->tfacts[i]);
    free(p->tfacts), free(p->tvals);
    p->tfacts = NULL, p->tvals = NULL, p->ntarget = 0, p->kfix = 1;
}

static bool is_control(Pz *p, const char *fact)
{
    size_t n = gdl_analysis_count(p->an, GDL_CLAIM_CONTROL);
    for (size_t i = 0; i < n; i++) {
        const GdlClaim *c = gdl_analysis_claim(p->an, GDL_CLAIM_CONTROL, i);
        if (c && c->n && strcmp(c->sentences[0], fact) == 0)
            return true;
    }
    return false;
}

/* The facts every state with goal T has (control bases left out), and k,
 * the most of them one move can make right (see the essay). */
static GdlStatus target_make(Pz *p, int T)
{
    target_clear(p);
    char goal[256];
    snprintf(goal, sizeof goal, "(goal %s %d)", p->role_name, T);
    GdlTimed given = {goal, 0, true};
    bool consistent = false;
    const GdlTimed *out = NULL;
    size_t nout = 0;
    GdlStatus st = gdl_analysis_deduce(p->an, &given, 1, 1, false, &consistent, &out, &nout);
    if (st == GDL_BAD_ARGUMENT || (st == GDL_OK && !consistent))
        return GDL_OK; /* no such goal in the network: no target */
    if (st != GDL_OK)
        return pz_fail(p, st, "deducing the target state");
    size_t cap = 0;
    for (size_t i = 0; i < nout; i++)
        cap += out[i].turn == 0 && strncmp(out[i].sentence, "(true ", 6) == 0;
    if (!cap)
        return GDL_OK;
    p->tfacts = calloc(cap, sizeof *p->tfacts);
    p->tvals = calloc(cap, sizeof *p->tvals);
    if (!p->tfacts || !p->tvals)
        return GDL_OUT_OF_MEMORY;
    /* out points into the analysis until its next call: copy first */
    for (size_t i = 0; i < nout; i++) {
        const char *t = out[i].sentence;
        size_t len = strlen(t);
        if (out[i].turn != 0 || strncmp(t, "(true ", 6) != 0 || len < 8)
            continue;
        char *f = malloc(len - 6);
        if (!f)
            return GDL_OUT_OF_MEMORY;
        memcpy(f, t + 6, len - 7);
        f[len - 7] = 0;
        p->tvals[p->ntarget] = out[i].value;
        p->tfacts[p->ntarget++] = f;
    }
    size_t keep = 0;
    for (size_t i = 0; i < p->ntarget; i++) {
        if (is_control(p, p->tfacts[i])) {
            free(p->tfacts[i]);
            continue;
        }
        p->tfacts[keep] = p->tfacts[i], p->tvals[keep++] = p->tvals[i];
    }
    p->ntarget = keep;
    p->kfix = keep ? (int)keep : 1;
    if (!keep)
        return GDL_OK;
    const GdlMove *in = NULL;
    size_t nin = 0;
    st = gdl_machine_input_moves(p->m, 0, 100000, &in, &nin);
    if (st != GDL_OK || nin == 0 || nin * keep > 20000)
        return GDL_OK; /* k stays the number of target facts */
    GdlMove *moves = malloc(nin * sizeof *moves);
    if (!moves)
        return GDL_OUT_OF_MEMORY;
    memcpy(moves, in, nin * sizeof *moves);
    int k = 0;
    for (size_t mi = 0; mi < nin; mi++) {
        char does[512], fact[512];
        snprintf(does, sizeof does, "(does %s %s)", p->role_name, gdl_move_text(p->m, moves[mi]));
        int count = 0;
        for (size_t i = 0; i < keep; i++) {
            snprintf(fact, sizeof fact, "(true %s)", p->tfacts[i]);
            GdlTimed g3[3] = {{fact, 0, !p->tvals[i]}, {does, 0, true}, {fact, 1, p->tvals[i]}};
            bool ok = true;
            GdlStatus s2 = gdl_analysis_deduce(p->an, g3, 3, 2, true, &ok, &out, &nout);
            if (s2 != GDL_OK || ok)
                count++; /* not ruled out: it may fix the fact */
        }
        if (count > k)
            k = count;
    }
    free(moves);
    p->kfix = k > 0 ? k : 1;
    return GDL_OK;
}

/* Whether state s has fact text f. */
static bool has_fact(GdlMachine *m, const GdlState *s, const char *f)
{
    size_t n = gdl_state_size(s);
    for (size_t i = 0; i < n; i++)
        if (strcmp(gdl_state_fact(m, s, i), f) == 0)
            return true;
    return false;
}

/* The heuristic of node x for the current target; -1 when the target is
 * out of its reach (goal distance -1). */
static GdlStatus heuristic(Pz *p, PzNode *x, int *h)
{
    *h = 0;
    if (!p->an)
        return GDL_OK;
    if (p->ntarget) {
        int d = 0;
        for (size_t i = 0; i < p->ntarget; i++)
            d += has_fact(p->m, x->s, p->tfacts[i]) != p->tvals[i];
        *h = (d + p->kfix - 1) / p->kfix;
    }
    if (p->target == p->highest && p->use_distance) {
        int turns = 0;
        double t = gdl_now();
        GdlStatus st = gdl_analysis_goal_distance(p->an, x->s, 0, &turns);
        if (st != GDL_OK)
            return pz_fail(p, st, "goal distance");
        p->distance_seconds += gdl_now() - t;
        /* dropped when it costs more than 20 expansions a call (after 16
         * calls): a heuristic may be left out at any node (h stays a lower
         * bound, and reopening copes with the inconsistency) */
        if (++p->distance_calls == 16 && p->expansions &&
            p->distance_seconds / 16 > 20 * (p->expand_seconds / (double)p->expansions))
            p->use_distance = false;
        if (turns < 0)
            *h = -1;
        else if (turns > *h)
            *h = turns;
    }
    return GDL_OK;
}

/* ---- search ----------------------------------------------------------- */

static bool out_of_bounds(Pz *p)
{
    const SolveOptions *o = p->o;
    if (o->max_nodes && p->expansions >= o->max_nodes) {
        p->stop_reason = "nodes";
        return p->stopped = true;
    }
    if (o->stop && *o->stop) {
        p->stop_reason = "interrupt";
        return p->stopped = true;
    }
    if (o->memory_mb && !p->ida && p->peak > o->memory_mb * 1024 * 1024) {
        p->stop_reason = "memory";
        return p->stopped = true;
    }
    {
        double now = gdl_now();
        if (o->seconds > 0 && now - p->t0 > o->seconds) {
            p->stop_reason = "time";
            return p->stopped = true;
        }
        if (o->progress && now >= p->next_progress) {
            fprintf(o->progress, "solve: %llu nodes, %zu states, target %d, best %d, f %d, %.1f s\n",
                    (unsigned long long)p->expansions, p->n, p->target, p->best, p->fmax, now - p->t0);
            p->next_progress = now + (o->progress_every > 0 ? o->progress_every : 2);
        }
    }
    return false;
}

/* Places node id, new or reached anew, for the current target: on the open
 * list, in a bucket, or nowhere (dropped, or a terminal below T). */
static GdlStatus place(Pz *p, uint32_t id)
{
    PzNode *x = &p->nodes[id];
    if (x->value >= 0) {
        if (x->value > p->best)
            p->best = x->value, p->best_node = id;
        if (x->value == p->target) {
            x->h = 0;
            if (!heap_push(p, id))
                return GDL_OUT_OF_MEMORY;
        }
        return GDL_OK;
    }
    if (x->rmax < p->target) {
        if (x->rmax > p->best && !list_push(&p->bucket[x->rmax], id))
            return GDL_OUT_OF_MEMORY;
        return GDL_OK;
    }
    if (x->h < 0) {
        int h;
        GdlStatus st = heuristic(p, x, &h);
        if (st != GDL_OK)
            return st;
        if (h < 0) {
            /* the highest goal is out of reach: below it */
            x->rmax = p->highest - 1;
            return place(p, id);
        }
        x->h = h;
    }
    if (!heap_push(p, id))
        return GDL_OUT_OF_MEMORY;
    return GDL_OK;
}

/* Makes or finds the child of node i after move mv; *child its node. */
static GdlStatus child_of(Pz *p, uint32_t i, GdlMove mv, uint32_t *child, bool *fresh)
{
    GdlState *ns = NULL;
    double t = gdl_now();
    GdlStatus st = gdl_state_next(p->m, p->nodes[i].s, &mv, &ns);
    if (st != GDL_OK)
        return pz_fail(p, st, "next state");
    p->expand_seconds += gdl_now() - t;
    p->expansions++;
    uint64_t hash = gdl_state_hash(ns);
    uint32_t j = pz_find(p, ns, hash);
    *fresh = j == UINT32_MAX;
    if (!*fresh) {
        gdl_state_free(ns);
        p->transpositions++;
        *child = j;
        return GDL_OK;
    }
    j = pz_add(p, ns, hash, i, mv, p->nodes[i].g + 1);
    if (j == UINT32_MAX)
        return GDL_OUT_OF_MEMORY;
    PzNode *x = &p->nodes[j];
    bool term = false;
    st = gdl_state_is_terminal(p->m, x->s, &term);
    if (st != GDL_OK)
        return pz_fail(p, st, "terminal");
    if (term) {
        int v = 0;
        st = gdl_state_goal(p->m, x->s, 0, &v);
        if (st != GDL_OK)
            return pz_fail(p, st, "goal");
        x->value = v;
        x->rmax = v;
    } else if (p->an && p->range_const >= 0) {
        x->rmax = p->range_const;
    } else if (p->an) {
        int lo, hi;
        st = gdl_analysis_goal_range(p->an, x->s, 0, &lo, &hi);
        if (st != GDL_OK)
            return pz_fail(p, st, "goal range");
        x->rmax = hi;
    }
    *child = j;
    return GDL_OK;
}

/* Copies the legal moves of node i (they point into the machine). */
static GdlStatus moves_of(Pz *p, uint32_t i, GdlMove **mv, size_t *n)
{
    const GdlMove *lm = NULL;
    GdlStatus st = gdl_state_legal(p->m, p->nodes[i].s, 0, &lm, n);
    if (st != GDL_OK)
        return pz_fail(p, st, "legal moves");
    *mv = malloc((*n ? *n : 1) * sizeof **mv);
    if (!*mv)
        return GDL_OUT_OF_MEMORY;
    memcpy(*mv, lm, *n * sizeof **mv);
    return GDL_OK;
}

static GdlStatus expand(Pz *p, uint32_t i)
{
    GdlMove *mv = NULL;
    size_t n = 0;
    GdlStatus st = moves_of(p, i, &mv, &n);
    if (st != GDL_OK)
        return st;
    p->nodes[i].status = PZ_CLOSED;
    for (size_t k = 0; k < n && st == GDL_OK; k++) {
        uint32_t j;
        bool fresh;
        st = child_of(p, i, mv[k], &j, &fresh);
        if (st != GDL_OK)
            break;
        PzNode *x = &p->nodes[j];
        if (fresh) {
            st = place(p, j);
        } else if (x->g > p->nodes[i].g + 1) {
            /* a shorter path: relink, and reopen when it is searched */
            x->g = p->nodes[i].g + 1, x->parent = i, x->move = mv[k];
            if (x->status != PZ_UNSEEN || (x->value >= 0 && x->value == p->target))
                st = heap_push(p, j) ? GDL_OK : GDL_OUT_OF_MEMORY;
        }
    }
    free(mv);
    return st;
}

/* A* for the current target: true when a terminal state with goal T was
 * taken from the open list. */
static GdlStatus astar(Pz *p, bool *found)
{
    *found = false;
    while (p->nheap) {
        if (out_of_bounds(p))
            return GDL_OK;
        PzEntry e = heap_pop(p);
        PzNode *x = &p->nodes[e.node];
        if (e.f > p->fmax)
            p->fmax = e.f;
        if (e.g != x->g)
            continue; /* stale: reached since at a lesser depth */
        if (x->value >= 0) {
            if (x->value == p->target) {
                p->best = x->value, p->best_node = e.node;
                *found = true;
                return GDL_OK;
            }
            continue;
        }
        if (x->status == PZ_CLOSED)
            continue; /* expanded already at this depth */
        GdlStatus st = expand(p, e.node);
        if (st != GDL_OK)
            return st;
    }
    return GDL_OK;
}

/* Expands every state not yet expanded, without pruning (for a proof that
 * covers every line). */
static GdlStatus complete(Pz *p)
{
    for (size_t i = 0; i < p->n; i++) {
        if (p->nodes[i].value >= 0 || p->nodes[i].status == PZ_CLOSED)
            continue;
        if (out_of_bounds(p))
            return GDL_OK;
        GdlMove *mv = NULL;
        size_t n = 0;
        GdlStatus st = moves_of(p, (uint32_t)i, &mv, &n);
        if (st != GDL_OK)
            return st;
        p->nodes[i].status = PZ_CLOSED;
        for (size_t k = 0; k < n && st == GDL_OK; k++) {
            uint32_t j;
            bool fresh;
            st = child_of(p, (uint32_t)i, mv[k], &j, &fresh);
            if (st == GDL_OK && fresh && p->nodes[j].value > p->best)
                p->best = p->nodes[j].value, p->best_node = j; /* cannot happen when the analyses are sound */
        }
        free(mv);
        if (st != GDL_OK)
            return st;
    }
    return GDL_OK;
}

/* ---- IDA*, when the table would not fit ------------------------------ */

/* A frame of the depth-first search: a state and the moves left. */
typedef struct PzFrame {
    GdlState *s;
    uint64_t hash;
    GdlMove *moves;
    size_t n, next;
} PzFrame;

/* Whether s is on the stack (a cycle). */
static bool on_stack(const PzFrame *st, size_t depth, const GdlState *s, uint64_t hash)
{
    for (size_t i = 0; i < depth; i++)
        if (st[i].hash == hash && gdl_state_equal(st[i].s, s))
            return true;
    return false;
}

/* Drops the table, keeping the root's state in *root. */
static GdlState *table_drop(Pz *p)
{
    GdlState *root = p->nodes[0].s;
    for (size_t i = 1; i < p->n; i++)
        gdl_state_free(p->nodes[i].s);
    p->n = 0;
    memset(p->index, 0, p->index_cap * sizeof *p->index);
    p->nheap = 0;
    for (int v = 0; v <= 100; v++)
        p->bucket[v].n = 0;
    return root;
}

/* Rebuilds the table as the chain of the plan, so that the plan and the
 * proof are read as after A*. */
static GdlStatus table_chain(Pz *p, GdlState *root, const GdlMove *plan, size_t len, int value)
{
    uint32_t at = pz_add(p, root, gdl_state_hash(root), UINT32_MAX, 0, 0);
    if (at == UINT32_MAX)
        return GDL_OUT_OF_MEMORY;
    for (size_t i = 0; i < len; i++) {
        GdlState *ns = NULL;
        GdlStatus st = gdl_state_next(p->m, p->nodes[at].s, &plan[i], &ns);
        if (st != GDL_OK)
            return pz_fail(p, st, "next state");
        uint32_t j = pz_add(p, ns, gdl_state_hash(ns), at, plan[i], (int)i + 1);
        if (j == UINT32_MAX)
            return GDL_OUT_OF_MEMORY;
        at = j;
    }
    p->nodes[at].value = value;
    p->best = value, p->best_node = at;
    return GDL_OK;
}

/* IDA* for the current target from root (taken): depth-first searches
 * bounded by f = g + h, the bound raised to the least f past it, a cycle
 * check along the path only. The heuristics and pruning are A*'s. *found
 * when a terminal state with goal T is reached within the bound (the
 * first such bound is the least: the plan is a shortest one); a better
 * terminal goal below T is kept as the best seen, with its path. */
static GdlStatus ida(Pz *p, GdlState *root, GdlMove *best_plan, size_t best_len, bool *found)
{
    *found = false;
    GdlStatus st = GDL_OK;
    size_t cap = 64, depth = 0, found_len = 0;
    PzFrame *stack = calloc(cap, sizeof *stack);
    GdlMove *found_plan = NULL;
    if (!stack) {
        gdl_state_free(root);
        free(best_plan);
        return GDL_OUT_OF_MEMORY;
    }
    PzNode tmp = {root, gdl_state_hash(root), UINT32_MAX, 0, 0, -1, 100, -1, PZ_UNSEEN};
    int h0 = 0;
    if ((st = heuristic(p, &tmp, &h0)) != GDL_OK)
        goto done;
    int bound = h0 < 0 ? 0 : h0;
    while (!*found && !p->stopped && st == GDL_OK) {
        int next_bound = INT32_MAX;
        const GdlMove *lm;
        stack[0] = (PzFrame){root, tmp.hash, NULL, 0, 0};
        if ((st = gdl_state_legal(p->m, root, 0, &lm, &stack[0].n)) != GDL_OK) {
            pz_fail(p, st, "legal moves");
            break;
        }
        if (!(stack[0].moves = malloc((stack[0].n ? stack[0].n : 1) * sizeof *lm))) {
            st = GDL_OUT_OF_MEMORY;
            break;
        }
        memcpy(stack[0].moves, lm, stack[0].n * sizeof *lm);
        depth = 1;
        while (depth && st == GDL_OK && !*found) {
            if (out_of_bounds(p))
                break;
            PzFrame *f = &stack[depth - 1];
            if (f->next == f->n) {
                free(f->moves);
                if (depth > 1)
                    gdl_state_free(f->s);
                depth--;
                continue;
            }
            GdlMove mv = f->moves[f->next++];
            GdlState *ns = NULL;
            if ((st = gdl_state_next(p->m, f->s, &mv, &ns)) != GDL_OK) {
                pz_fail(p, st, "next state");
                break;
            }
            p->expansions++;
            uint64_t hash = gdl_state_hash(ns);
            PzNode x = {ns, hash, UINT32_MAX, mv, (int)depth, -1, 100, -1, PZ_UNSEEN};
            bool term = false;
            int g = (int)depth;
            if ((st = gdl_state_is_terminal(p->m, ns, &term)) != GDL_OK) {
                pz_fail(p, st, "terminal");
                gdl_state_free(ns);
                break;
            }
            if (term) {
                int v = 0;
                if ((st = gdl_state_goal(p->m, ns, 0, &v)) != GDL_OK) {
                    pz_fail(p, st, "goal");
                    gdl_state_free(ns);
                    break;
                }
                gdl_state_free(ns);
                GdlMove **keep = v == p->target ? &found_plan : v > p->best ? &best_plan : NULL;
                if (!keep)
                    continue;
                GdlMove *plan = malloc((size_t)g * sizeof *plan);
                if (!plan) {
                    st = GDL_OUT_OF_MEMORY;
                    break;
                }
                for (size_t i = 0; i < depth; i++)
                    plan[i] = stack[i].moves[stack[i].next - 1];
                free(*keep);
                *keep = plan;
                if (v == p->target)
                    found_len = depth, *found = true;
                else
                    best_len = depth, p->best = v;
                continue;
            }
            int rmax = p->range_const;
            if (rmax < 0) {
                int lo, hi;
                if ((st = gdl_analysis_goal_range(p->an, ns, 0, &lo, &hi)) != GDL_OK) {
                    pz_fail(p, st, "goal range");
                    gdl_state_free(ns);
                    break;
                }
                rmax = hi;
            }
            int h = 0;
            if (rmax < p->target || (st = heuristic(p, &x, &h)) != GDL_OK || h < 0 ||
                on_stack(stack, depth, ns, hash)) {
                gdl_state_free(ns);
                continue;
            }
            if (g + h > bound) {
                if (g + h < next_bound)
                    next_bound = g + h;
                gdl_state_free(ns);
                continue;
            }
            if (depth == cap) {
                PzFrame *v = realloc(stack, cap * 2 * sizeof *v);
                if (!v) {
                    gdl_state_free(ns);
                    st = GDL_OUT_OF_MEMORY;
                    break;
                }
                stack = v, cap *= 2;
            }
            PzFrame *c = &stack[depth];
            *c = (PzFrame){ns, hash, NULL, 0, 0};
            if ((st = gdl_state_legal(p->m, ns, 0, &lm, &c->n)) != GDL_OK) {
                pz_fail(p, st, "legal moves");
                gdl_state_free(ns);
                break;
            }
            if (!(c->moves = malloc((c->n ? c->n : 1) * sizeof *lm))) {
                gdl_state_free(ns);
                st = GDL_OUT_OF_MEMORY;
                break;
            }
            memcpy(c->moves, lm, c->n * sizeof *lm);
            depth++;
        }
        while (depth) {
            free(stack[depth - 1].moves);
            if (depth > 1)
                gdl_state_free(stack[depth - 1].s);
            depth--;
        }
        if (next_bound == INT32_MAX)
            break; /* nothing past the bound: the target is out of reach */
        bound = next_bound;
    }
done:
    if (st == GDL_OK && *found)
        st = table_chain(p, root, found_plan, found_len, p->target);
    else if (st == GDL_OK && p->best >= 0)
        st = table_chain(p, root, best_plan, best_len, p->best);
    else
        gdl_state_free(root);
    free(stack), free(best_plan), free(found_plan);
    return st;
}

/* ---- proof ------------------------------------------------------------ */

static void write_facts(Pz *p, FILE *f, const GdlState *s)
{
    size_t n = gdl_state_size(s);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s", gdl_state_fact(p->m, s, i));
}

static GdlStatus write_proof(Pz *p, const GdlGame *g, const GdlState *start, FILE *f, int lo, int hi,
                             const uint32_t *path, size_t plen, uint64_t *written)
{
    fprintf(f, "gdlc-proof 1\nroles %s\nstart", gdl_game_role_name(g, 0));
    if (!start)
        fputs(" initial", f);
    else
        write_facts(p, f, start);
    fprintf(f, "\nvalue %d %d\nsymmetries 0\n", lo, hi);
    if (lo > 0) {
        /* path[0] is the root, path[plen] the terminal state */
        fprintf(f, "section lower %d root 0\n", lo);
        for (size_t i = 0; i <= plen; i++) {
            fprintf(f, "node %zu", i);
            write_facts(p, f, p->nodes[path[i]].s);
            fputc('\n', f);
            if (i < plen) {
                const char *mt = gdl_move_text(p->m, p->nodes[path[i + 1]].move);
                fprintf(f, "play %zu %s\nedge %zu %zu 0 %s\n", i, mt, i, i + 1, mt);
            }
            (*written)++;
        }
    }
    if (hi < 100) {
        fprintf(f, "section upper %d root 0\n", hi);
        for (size_t i = 0; i < p->n; i++) {
            PzNode *x = &p->nodes[i];
            fprintf(f, "node %zu", i);
            write_facts(p, f, x->s);
            fputc('\n', f);
            (*written)++;
            if (x->value >= 0)
                continue;
            GdlMove *mv = NULL;
            size_t n = 0;
            GdlStatus st = moves_of(p, (uint32_t)i, &mv, &n);
            if (st != GDL_OK)
                return st;
            for (size_t k = 0; k < n; k++) {
                GdlState *ns = NULL;
                st = gdl_state_next(p->m, x->s, &mv[k], &ns);
                if (st != GDL_OK) {
                    free(mv);
                    return pz_fail(p, st, "next state");
                }
                uint32_t j = pz_find(p, ns, gdl_state_hash(ns));
                gdl_state_free(ns);
                if (j == UINT32_MAX) {
                    free(mv);
                    if (!p->err)
                        p->err = strdup("solve: internal error: a child missing from the complete graph");
                    return GDL_BAD_ARGUMENT;
                }
                fprintf(f, "edge %zu %u 0 %s\n", i, j, gdl_move_text(p->m, mv[k]));
            }
            free(mv);
        }
    }
    fputs("end\n", f);
    if (ferror(f)) {
        if (!p->err)
            p->err = strdup("solve: writing the proof failed");
        return GDL_IO_ERROR;
    }
    return GDL_OK;
}

/* ---- the driver ------------------------------------------------------- */

/* The role's highest goal value the network has (100 when none is found). */
static int highest_goal(Pz *p)
{
    for (int v = 100; v >= 0; v--) {
        char goal[256];
        snprintf(goal, sizeof goal, "(goal %s %d)", p->role_name, v);
        GdlTimed given = {goal, 0, true};
        bool consistent = false;
        const GdlTimed *out;
        size_t nout;
        if (gdl_analysis_deduce(p->an, &given, 1, 1, false, &consistent, &out, &nout) == GDL_OK && consistent)
            return v;
    }
    return 100;
}

static GdlStatus run(Pz *p, const GdlGame *g, const GdlState *start, FILE *proof, SolveResult *r)
{
    GdlState *s0 = NULL;
    GdlStatus st = start ? ((s0 = gdl_state_copy(start)) ? GDL_OK : GDL_OUT_OF_MEMORY) : gdl_state_initial(p->m, &s0);
    if (st != GDL_OK)
        return pz_fail(p, st, "the start state");
    uint32_t root = pz_add(p, s0, gdl_state_hash(s0), UINT32_MAX, 0, 0);
    if (root == UINT32_MAX)
        return GDL_OUT_OF_MEMORY;
    PzNode *x = &p->nodes[root];
    bool term = false;
    if ((st = gdl_state_is_terminal(p->m, x->s, &term)) != GDL_OK)
        return pz_fail(p, st, "terminal");
    int hi = 100;
    bool found = false;
    if (term) {
        int v;
        if ((st = gdl_state_goal(p->m, x->s, 0, &v)) != GDL_OK)
            return pz_fail(p, st, "goal");
        x->value = x->rmax = v;
        p->best = v, p->best_node = root;
        found = true;
        hi = v;
    } else {
        p->highest = 100;
        if (p->an) {
            int lo0, hi0;
            if ((st = gdl_analysis_goal_range(p->an, x->s, 0, &lo0, &hi0)) != GDL_OK)
                return pz_fail(p, st, "goal range");
            p->highest = highest_goal(p);
            x->rmax = hi0;
            /* without goal latches the range of a non-terminal state is the
             * game's range for the role: no need to ask at every state */
            if (gdl_analysis_count(p->an, GDL_CLAIM_GOAL_LATCH) == 0)
                p->range_const = hi0;
        }
        p->target = x->rmax < p->highest ? x->rmax : p->highest;
        if (p->an && (st = target_make(p, p->target)) != GDL_OK)
            return st;
        if ((st = place(p, root)) != GDL_OK)
            return st;
        for (;;) {
            hi = p->target;
            if ((st = astar(p, &found)) != GDL_OK)
                return st;
            if (p->stopped && p->stop_reason && strcmp(p->stop_reason, "memory") == 0 && !proof &&
                p->n > 0) {
                /* the table does not fit: IDA* for the same target, in the
                 * memory of one path */
                p->stopped = false, p->stop_reason = NULL, p->ida = true;
                size_t blen = 0;
                GdlMove *bplan = NULL;
                if (p->best >= 0) {
                    for (uint32_t i = p->best_node; p->nodes[i].parent != UINT32_MAX; i = p->nodes[i].parent)
                        blen++;
                    if (!(bplan = malloc((blen ? blen : 1) * sizeof *bplan)))
                        return GDL_OUT_OF_MEMORY;
                    size_t k = blen;
                    for (uint32_t i = p->best_node; p->nodes[i].parent != UINT32_MAX; i = p->nodes[i].parent)
                        bplan[--k] = p->nodes[i].move;
                }
                if ((st = ida(p, table_drop(p), bplan, blen, &found)) != GDL_OK)
                    return st;
                if (!found && !p->stopped) {
                    /* T is out of reach; the targets below it were not
                     * searched (their states went with the table) */
                    p->stopped = true, p->stop_reason = "memory";
                }
                break;
            }
            if (found || p->stopped)
                break;
            /* the target is excluded: the next, from the buckets */
            int next = -1;
            for (int v = p->target - 1; v > p->best && v >= 0; v--)
                if (p->bucket[v].n) {
                    next = v;
                    break;
                }
            if (next < 0) {
                hi = p->best < 0 ? 0 : p->best;
                found = true; /* exhausted */
                break;
            }
            p->target = next;
            if (p->an && (st = target_make(p, next)) != GDL_OK)
                return st;
            /* the heuristics of the states already placed were for the old
             * target: those on the open list are none (it is empty) */
            U32List *b = &p->bucket[next];
            for (size_t i = 0; i < b->n; i++) {
                PzNode *y = &p->nodes[b->v[i]];
                if (y->status == PZ_UNSEEN && y->value < 0) {
                    y->h = -1;
                    if ((st = place(p, b->v[i])) != GDL_OK)
                        return st;
                }
            }
            b->n = 0;
        }
    }
    int lo = p->best < 0 ? 0 : p->best;
    if (found && hi < lo)
        hi = lo;
    if (!found && hi < lo)
        hi = lo;
    r->lo = lo, r->hi = hi, r->exact = lo == hi;
    /* the plan: parent links from the best terminal state */
    size_t plen = 0;
    uint32_t *path = NULL;
    if (p->best >= 0) {
        for (uint32_t i = p->best_node; p->nodes[i].parent != UINT32_MAX; i = p->nodes[i].parent)
            plen++;
        path = malloc((plen + 1) * sizeof *path);
        r->plan = calloc(plen ? plen : 1, sizeof *r->plan);
        if (!path || !r->plan) {
            free(path);
            return GDL_OUT_OF_MEMORY;
        }
        size_t k = plen;
        for (uint32_t i = p->best_node;; i = p->nodes[i].parent) {
            path[k] = i;
            if (p->nodes[i].parent == UINT32_MAX)
                break;
            k--;
        }
        for (size_t i = 0; i < plen; i++) {
            r->plan[i] = strdup(gdl_move_text(p->m, p->nodes[path[i + 1]].move));
            if (!r->plan[i]) {
                free(path);
                return GDL_OUT_OF_MEMORY;
            }
            r->plan_len = i + 1;
        }
        if (plen) {
            r->best_move = strdup(r->plan[0]);
            if (!r->best_move) {
                free(path);
                return GDL_OUT_OF_MEMORY;
            }
            r->has_best = true;
        }
    }
    if (proof) {
        int phi = 100;
        if (hi < 100 && !p->stopped) {
            if ((st = complete(p)) != GDL_OK) {
                free(path);
                return st;
            }
            if (!p->stopped)
                phi = hi;
        }
        /* what the proof proves is what the caller gets */
        r->hi = phi > lo ? phi : lo;
        r->exact = r->lo == r->hi;
        uint64_t written = 0;
        st = write_proof(p, g, start, proof, lo, phi, path, plen, &written);
        r->proof_nodes = written;
        if (st != GDL_OK) {
            free(path);
            return st;
        }
    }
    free(path);
    return GDL_OK;
}

GdlStatus solve_puzzle(const GdlGame *g, GdlMachine *m, GdlAnalysis *an, const GdlState *start,
                       const SolveOptions *o, FILE *proof, SolveResult *r, char **err)
{
    if (err)
        *err = NULL;
    if (!g || !m || !o || !r)
        return GDL_BAD_ARGUMENT;
    memset(r, 0, sizeof *r);
    r->roles = 1, r->sum = -1, r->symmetry_count = 1, r->hi = 100;
    if (gdl_game_role_count(g) != 1) {
        r->scope = SOLVE_SCOPE_ROLES;
        r->scope_message = strdup("solve_puzzle: the game does not have one role");
        return GDL_BAD_ARGUMENT;
    }
    Pz p = {0};
    p.m = m, p.an = o->analyses ? an : NULL, p.o = o;
    p.role_name = gdl_game_role_name(g, 0);
    p.best = -1, p.kfix = 1, p.range_const = -1, p.t0 = gdl_now(), p.use_distance = true;
    p.next_progress = p.t0 + (o->progress_every > 0 ? o->progress_every : 2);
    GdlStatus st = run(&p, g, start, proof, r);
    r->nodes = p.expansions;
    r->states = p.n;
    r->transpositions = p.transpositions;
    r->peak_bytes = p.peak;
    r->stopped = p.stopped;
    r->stop_reason = p.stop_reason;
    r->seconds = gdl_now() - p.t0;
    if (st == GDL_OUT_OF_MEMORY && !p.err)
        p.err = strdup("solve: out of memory");
    if (st != GDL_OK && !p.err) {
        const char *me = gdl_machine_error(m);
        p.err = strdup(*me ? me : "solve: failed");
    }
    if (err)
        *err = p.err;
    else
        free(p.err);
    for (size_t i = 0; i < p.n; i++)
        gdl_state_free(p.nodes[i].s);
    free(p.nodes), free(p.index), free(p.heap);
    for (int v = 0; v <= 100; v++)
        free(p.bucket[v].v);
    target_clear(&p);
    return st;
}
