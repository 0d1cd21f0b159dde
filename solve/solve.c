/*
 * solve.c: the solver's entry (solve.h): options, the scope checks, and the
 * dispatch: one role goes to solve_puzzle (puzzle.c), two roles to the
 * proof-number search over the state graph (graph.c, pns.c), whose proof
 * proof.c writes and whose graph save.c keeps on disk.
 *
 * Scope. More than two roles is refused at once; the other two conditions
 * are found by the search, in the states it meets: a state where both roles
 * have a choice, a terminal state whose goals sum differently from the
 * first one seen (graph.c). Either stops the solve with GDL_BAD_ARGUMENT
 * and r->scope set, the message naming the state.
 *
 * The analyses (goal ranges, winning moves, symmetries) come from
 * gdl_analysis_new on the caller's machine. A game whose network cannot be
 * built (a grounding budget) is solved without them.
 */
#include <setjmp.h>
#include <string.h>

#include "internal.h"

void solve_options_default(SolveOptions *o)
{
    memset(o, 0, sizeof *o);
    o->transpositions = true;
    o->symmetries = true;
    o->analyses = true;
    o->progress_every = 2;
}

void solve_result_free(SolveResult *r)
{
    if (!r)
        return;
    free(r->best_move);
    for (size_t i = 0; i < r->plan_len; i++)
        free(r->plan[i]);
    free(r->plan);
    free(r->scope_message);
    memset(r, 0, sizeof *r);
}

/* The best move at the root: the mover's move whose child achieves the
 * root's bound (lo for the first role, hi for the second). */
static void best_move(SvGraph *g, bool provable, SolveResult *r)
{
    const SvNode *n = &g->nodes.v[g->root];
    if (n->mover < 0)
        return;
    unsigned p = (unsigned)n->mover;
    int lo = provable ? n->plo : n->lo, hi = provable ? n->phi : n->hi;
    if (!(lo == hi || (p == 0 ? lo > 0 : hi < 100)))
        return;
    uint32_t pick = BASE_NONE;
    int pickv = 0;
    for (uint32_t e = 0; e < n->nmoves; e++) {
        uint32_t c = g->edges.v[n->edge_at + e].child;
        if (c == BASE_NONE)
            continue;
        const SvNode *cn = &g->nodes.v[c];
        int clo = provable ? cn->plo : cn->lo, chi = provable ? cn->phi : cn->hi;
        if (p == 0 ? clo >= lo : chi <= hi) {
            int v = p == 0 ? -chi : clo; /* among those, the one leaving the other side least */
            if (pick == BASE_NONE || v < pickv)
                pick = e, pickv = v;
        }
    }
    if (pick == BASE_NONE)
        return;
    r->has_best = true;
    r->best_role = p;
    r->best_move = base_xstrdup(gdl_move_text(g->m, sv_joint(g, g->root, pick)[p]));
}

typedef struct SolveCtx {
    SvGraph g;
    GdlAnalysis *an;
    GdlState *init;  /* the initial state when no start was given */
} SolveCtx;

static void ctx_free(SolveCtx *c)
{
    sv_graph_free(&c->g);
    gdl_state_free(c->init);
    gdl_analysis_free(c->an);
    c->init = NULL;
    c->an = NULL;
}

static GdlStatus two_player(SolveCtx *c, const GdlGame *game, GdlMachine *m, const GdlState *start,
                            const SolveOptions *o, FILE *proof, const char *save, const char *resume, SolveResult *r,
                            char **err, double t0)
{
    SvGraph *g = &c->g;
    sv_graph_init(g, m, c->an, o);
    GdlStatus st;
    if (resume) {
        if ((st = sv_load(g, resume, err)) != GDL_OK)
            return st;
        if (!gdl_state_equal(g->nodes.v[g->root].s, start)) {
            *err = base_sprintf("%s: its graph starts from another state than this solve", resume);
            return GDL_BAD_ARGUMENT;
        }
    } else {
        GdlState *s = gdl_state_copy(start);
        if (!s)
            return GDL_OUT_OF_MEMORY;
        g->root = sv_node_add(g, s);
    }
    const char *stopped = NULL;
    if (g->root == BASE_NONE || !sv_search(g, o, proof != NULL, t0, &stopped)) {
        if (g->scope != SOLVE_SCOPE_OK) {
            r->scope = g->scope;
            r->scope_message = g->message;
            g->message = NULL;
            return GDL_BAD_ARGUMENT;
        }
        *err = g->message ? g->message : base_xstrdup("the solve failed");
        g->message = NULL;
        return g->status ? g->status : GDL_BAD_ARGUMENT;
    }
    const SvNode *root = &g->nodes.v[g->root];
    bool provable = proof != NULL;
    r->lo = provable ? root->plo : root->lo;
    r->hi = provable ? root->phi : root->hi;
    r->exact = r->lo == r->hi;
    r->sum = g->sum;
    best_move(g, provable, r);
    r->nodes = g->expansions;
    r->states = g->nodes.n;
    r->transpositions = g->transpositions_found;
    r->symmetric = g->symmetric_found;
    r->symmetry_count = (unsigned)g->nsym;
    r->stopped = stopped != NULL;
    r->stop_reason = stopped;
    r->peak_bytes = sv_bytes(g);
    if (proof && (st = sv_proof_write(g, game, start == c->init ? NULL : start, proof, &r->proof_nodes, err)) !=
                     GDL_OK)
        return st;
    if (save && (st = sv_save(g, save, err)) != GDL_OK)
        return st;
    return GDL_OK;
}

GdlStatus solve_run(const GdlGame *game, GdlMachine *m, const GdlState *start_, const SolveOptions *o, FILE *proof,
                    const char *save, const char *resume, SolveResult *r, char **err)
{
    const GdlState *volatile start = start_;
    double t0 = gdl_now();
    memset(r, 0, sizeof *r);
    *err = NULL;
    r->sum = -1;
    r->symmetry_count = 1;
    unsigned nroles = gdl_game_role_count(game);
    r->roles = nroles;
    if (nroles < 1 || nroles > 2) {
        r->scope = SOLVE_SCOPE_ROLES;
        r->scope_message = base_sprintf("the game has %u roles; the solver handles puzzles and two-player games",
                                        nroles);
        return GDL_BAD_ARGUMENT;
    }
    SolveCtx *c = base_try_realloc(NULL, sizeof *c);
    if (!c)
        return GDL_OUT_OF_MEMORY;
    memset(c, 0, sizeof *c);
    BaseOom h;
    base_oom_push(&h);
    if (BASE_OOM_SETJMP(&h)) {
        ctx_free(c);
        free(c);
        solve_result_free(r);
        r->sum = -1;
        *err = NULL;
        return GDL_OUT_OF_MEMORY;
    }
    GdlStatus st = GDL_OK;
    if (o->analyses || o->symmetries || nroles == 1) {
        st = gdl_analysis_new(m, o->analysis_options, &c->an);
        if (st == GDL_OUT_OF_MEMORY)
            goto out;
        if (st != GDL_OK)
            c->an = NULL; /* no network: solved without the analyses */
        st = GDL_OK;
    }
    if (!start) {
        if ((st = gdl_state_initial(m, &c->init)) != GDL_OK) {
            *err = base_sprintf("initial state: %s", gdl_machine_error(m));
            goto out;
        }
        start = c->init;
    }
    if (nroles == 1) {
        if (save || resume) {
            *err = base_xstrdup("--save and --resume are for two-player games");
            st = GDL_BAD_ARGUMENT;
            goto out;
        }
        st = solve_puzzle(game, m, c->an, start, o, proof, r, err);
        r->roles = 1;
        if (st == GDL_BAD_ARGUMENT && !*err && r->scope == SOLVE_SCOPE_OK)
            *err = base_xstrdup("the puzzle solver is not available");
        goto out;
    }
    st = two_player(c, game, m, start, o, proof, save, resume, r, err, t0);
    r->roles = 2;
out:
    base_oom_pop(&h);
    r->seconds = gdl_now() - t0;
    ctx_free(c);
    free(c);
    return st;
}
