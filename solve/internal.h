/*
 * internal.h: what the two-player solver's files share (graph.c, pns.c,
 * proof.c, save.c, solve.c): the graph of states and its intervals.
 *
 * The graph. One node per distinct state (transpositions: a hash table on
 * gdl_state_hash, equality checked with gdl_state_equal); with symmetries a
 * node's state is the canonical one of its class (the image, among the
 * group's, with the smallest hash), and an edge stores (child, k) with
 * state(child) = sigma_k(next state). The root keeps the start state as it
 * is (a proof starts there). A node lists every legal joint move of its
 * state (at most one role has a choice; the mover's moves are in canonical
 * order, winning moves first when the analyses are on); each joint move has
 * an edge, unexpanded (child BASE_NONE) until the search expands it. Parents
 * are kept in a list per node so that a change reaches every parent.
 *
 * Intervals. Per node two intervals of the first role's score: [lo, hi],
 * which also uses the analyses' a-priori bounds [alo, ahi], and the
 * provable [plo, phi], computed from terminal goals and children only (what
 * a proof can show). Both only shrink.
 */
#ifndef GDLC_SOLVE_INTERNAL_H
#define GDLC_SOLVE_INTERNAL_H

#include "../base/base.h"
#include "solve.h"

enum {
    SV_INF = 0x3fffffff,  /* an infinite proof or disproof number */
    SV_TERMINAL = -2,     /* SvNode.mover of a terminal state */
    SV_FORCED = -1,       /* SvNode.mover where no role has a choice */
};

/* One joint move's edge: the child's node, or BASE_NONE while unexpanded. */
typedef struct SvEdge {
    uint32_t child; /* node id, BASE_NONE: unexpanded */
    uint32_t sym;   /* state(child) = sigma_sym(next state) */
} SvEdge;

typedef struct SvNode {
    GdlState *s;       /* the node's state (canonical under the symmetries, except the root's) */
    uint32_t move_at;  /* its first joint move in SvGraph.joints (nroles moves each) */
    uint32_t nmoves;   /* joint moves, and edges (0: terminal) */
    uint32_t edge_at;  /* its first edge in SvGraph.edges */
    uint32_t parent;   /* head of its parent list in SvGraph.parents (BASE_NONE: none) */
    uint32_t pn, dn;   /* proof and disproof numbers for the current question */
    uint32_t mark;     /* visit stamp of the traversals */
    int8_t mover;      /* the role with a choice (0, 1), SV_FORCED or SV_TERMINAL */
    uint8_t alo, ahi;  /* a-priori interval (the analyses'; [0, 100] without them) */
    uint8_t lo, hi;    /* interval with the analyses */
    uint8_t plo, phi;  /* provable interval */
    uint8_t queued;    /* in the propagation queue */
    uint8_t ordered;   /* its winning moves were put first (sv_order) */
} SvNode;

typedef struct SvParent {
    uint32_t node; /* a parent */
    uint32_t next; /* next entry of the list, BASE_NONE at the end */
} SvParent;

typedef struct SvGraph {
    GdlMachine *m;
    GdlAnalysis *an;        /* NULL when the analyses and symmetries are off */
    unsigned nroles;        /* 2 */
    bool transpositions;    /* merge equal states */
    bool symmetries;        /* merge states under the group (nsym > 1) */
    bool analyses;          /* a-priori intervals, winning moves first */
    size_t nsym;            /* group elements (1: identity only) */
    VEC(SvNode) nodes;
    VEC(GdlMove) joints;    /* joint moves of every node */
    VEC(SvEdge) edges;
    VEC(SvParent) parents;
    uint32_t *slots;        /* node id + 1, open addressing on the state hash */
    uint32_t nslots;        /* a power of two, or 0 */
    uint32_t root;
    uint32_t stamp;         /* the last visit stamp handed out */
    int sum;                /* the constant sum (-1 until a terminal state is seen) */
    uint64_t expansions, transpositions_found, symmetric_found;
    uint64_t state_bytes;   /* an estimate of the states' memory */
    uint64_t proven;        /* nodes whose interval is one value */
    uint64_t win_asked;     /* winning-move queries asked */
    uint64_t win_found;     /* of which found one */
    uint64_t range_asked;   /* goal-range queries asked */
    uint64_t range_narrowed; /* of which narrowed [0, 100] */
    /* the scope failure or machine error, when any */
    SolveScope scope;
    GdlStatus status;
    char *message;          /* malloc'd */
    U32Vec queue;           /* propagation work list */
} SvGraph;

/* graph.c */
void sv_graph_init(SvGraph *g, GdlMachine *m, GdlAnalysis *an, const SolveOptions *o);
void sv_graph_free(SvGraph *g);
/* Adds a node for state s (taken over). BASE_NONE on failure (g->status,
 * g->message, g->scope set). */
uint32_t sv_node_add(SvGraph *g, GdlState *s);
/* Expands edge e of node x: makes or finds the child. False on failure. */
bool sv_expand(SvGraph *g, uint32_t x, uint32_t e);
/* Puts the mover's winning moves first (before x's first expansion). */
bool sv_order(SvGraph *g, uint32_t x);
/* Recomputes x's intervals from its children; true when one changed. */
bool sv_intervals(SvGraph *g, uint32_t x);
/* Every node's intervals to their fixed point under sv_intervals (a loaded
 * graph, each node set to what sv_node_add gives it). Intervals only
 * shrink, each bound of a node at most 100 times, so it ends. */
void sv_settle(SvGraph *g);
/* Runs the work list (g->queue, its nodes marked queued) to its end, first
 * in first out: each node taken off it has its intervals recomputed and is
 * passed to visit (when not NULL), and when they changed its parents not
 * queued yet are queued. The list is empty after. */
void sv_drain(SvGraph *g, void (*visit)(void *ctx, uint32_t x), void *ctx);
/* The a-priori interval of the non-terminal state s (sv_node_add's: the
 * analyses' goal ranges, or [0, 100]). False on a machine failure. */
bool sv_apriori(SvGraph *g, const GdlState *s, uint8_t *lo, uint8_t *hi);
uint64_t sv_bytes(const SvGraph *g);
bool sv_fail(SvGraph *g, GdlStatus st, const char *fmt, ...) BASE_PRINTF(3, 4);
/* The facts of s, space-separated (malloc'd). */
char *sv_state_text(GdlMachine *m, const GdlState *s);
/* A new visit stamp (marks of older stamps count as unvisited). */
uint32_t sv_stamp(SvGraph *g);
static inline SvEdge *sv_edge(SvGraph *g, uint32_t x, uint32_t e) { return &g->edges.v[g->nodes.v[x].edge_at + e]; }
static inline const GdlMove *sv_joint(const SvGraph *g, uint32_t x, uint32_t e)
{
    return &g->joints.v[g->nodes.v[x].move_at + (size_t)e * g->nroles];
}

/* pns.c: searches until the root's value is exact, or a bound stops it
 * (*stopped the reason). proofs: continue until the provable interval
 * matches. False on failure. */
bool sv_search(SvGraph *g, const SolveOptions *o, bool provable, double t0, const char **stopped);

/* proof.c: writes the proof of the root's provable interval. */
GdlStatus sv_proof_write(SvGraph *g, const GdlGame *game, const GdlState *start, FILE *f, uint64_t *nodes,
                         char **err);

/* save.c */
GdlStatus sv_save(SvGraph *g, const char *path, char **err);
GdlStatus sv_load(SvGraph *g, const char *path, char **err);
/* The same from the bytes b[0, len) (path names them in messages). */
GdlStatus sv_load_bytes(SvGraph *g, const char *path, const uint8_t *b, size_t len, char **err);

#endif
