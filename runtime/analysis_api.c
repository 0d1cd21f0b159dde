/*
 * analysis_api.c: the game analyses of gdl.h (gdl_analysis_*) and the
 * filtered machines built on them (gdl_machine_new_filtered).
 *
 * An analysis belongs to a machine. Its network is built as engine pn
 * builds one (cp_propnet: ground within the budgets of the options, build,
 * optimise) in the machine's own term store, so that a base's fact and an
 * input's move are terms of the machine: a claim's moves are GdlMoves of
 * the machine as they are, a state's facts (the machine's ids, api.c's
 * rt_own_facts, which maps the states of other machines of the game)
 * become the network's base bitset through one array from term id to base
 * index, and a sentence given to gdl_analysis_deduce is parsed into the
 * store and looked up with pn_find. Then the game-level analyses run once
 * (an_analyse, analysis/analysis.h) and their results are turned into
 * GdlClaim arrays once: sentences are the canonical KIF text of facts (the
 * store's cached text, as states print them), values beside them, moves
 * as the machine's ids. A partition claim also names, per group, the base
 * its moves switch off (sentences[g], value false).
 *
 * Deduction (gdl_analysis_deduce) keeps one AnDeduce, made again when the
 * number of turns or the move rules change, and reports every timed
 * component with a value under each sentence it computes (its name and
 * the aliases optimising gave it); more than 2^24 timed components (some
 * 10 bytes each) is GDL_LIMIT.
 *
 * Per-state queries reuse the analysis's AnQuery (no allocation once
 * warm); the bitset of the last state asked about is kept by its stamp,
 * so asking for a state's range, then its winning moves, maps it once.
 * Every call counts as a call on the machine: it runs under the machine's
 * out-of-memory guard (RT_GUARDED, runtime.h), reports errors through
 * gdl_machine_error, and a machine that ran out refuses it. Freeing an
 * analysis runs under the machine's journal, like freeing a machine, so
 * that after running out nothing is freed twice.
 *
 * Symmetries (gdl_analysis_symmetry_*) are made at the first call that
 * asks: found on the network (analysis/symmetry.c, nauty), then each one
 * checked with the machine itself along seeded playthroughs (see the
 * section at the end); a state's image maps its facts through base_of.
 *
 * A filtered machine is a machine made as gdl_machine_new makes it, whose
 * engine is then wrapped: the wrapper (a Filter) holds the inner engine's
 * operations and instance and an analysis of the machine, and answers
 * terminal, goals and legal through the filters:
 *   FIXED_RANGE  a state where every role's range is [g, g] is terminal,
 *                with those goals (a role without goals never counts as
 *                fixed); legal there is empty;
 *   DEAD         role's legal moves whose next state is forced dead for
 *                it (a dead claim's literal forced at turn 1 by deduction
 *                over turns 0 and 1 with the move played, whatever the
 *                others play) are dropped, unless every move is;
 *   PARTITION    role's legal moves are cut to its most constrained
 *                partition group (an_partition_moves), unless none is left.
 * initial and next are the inner engine's. The machine's name is the
 * inner engine's; the analysis is freed with the machine.
 */
#include <string.h>
#include <time.h>

#include "../analysis/analysis.h"
#include "../middle/ground.h"
#include "pipeline.h"
#include "runtime.h"

enum {
    AN_API_MAX_JOINT = 4096,  /* joint moves evaluated per candidate winning move */
    AN_API_MAX_TURNS = 64,    /* the bound of goal distance */
    AN_API_MAX_TIMED = 1u << 24, /* deduction's timed components (about 10 bytes each) */
};

typedef VEC(GdlClaim) ClaimVec;
typedef VEC(GdlMove) MoveVec;
typedef VEC(GdlTimed) TimedVec;

struct GdlAnalysis {
    GdlMachine *m;
    Propnet pn;            /* in m->store */
    Analysis an;
    AnOptions opt;
    AnQuery *q;
    uint32_t nroles, words;
    uint32_t *base_of;     /* term id -> base index (PN_NONE); nbase_of entries */
    uint32_t nbase_of;
    uint32_t **input_of;   /* per role: term id -> input index (PN_NONE); nbase_of entries */
    uint64_t *bits;        /* the state asked about, as a base bitset */
    uint64_t bits_stamp;   /* the stamp of the GdlState in bits (0: none) */
    /* the claims, per kind, and what they point into */
    ClaimVec claims[GDL_CLAIM_NKINDS];
    const char **sent;
    bool *val;
    size_t *gat;
    GdlMove *mv;
    /* results handed to the caller */
    AnLitVec jl;           /* gdl_analysis_joint_latch */
    VEC(const char *) jl_sent;
    VEC(bool) jl_val;
    U32Vec win, lose;
    MoveVec win_moves, lose_moves;
    /* gdl_analysis_deduce */
    AnDeduce *ded;
    uint32_t ded_turns;
    bool ded_moves;
    U32Vec comps, turns, tmp;
    AnBytes vals;
    TimedVec timed;
    uint32_t *alias_at;    /* per component: its aliases alias_name[alias_at[c] .. alias_at[c+1]) */
    Gt *alias_name;
    /* the filters */
    AnDeduce *fd;          /* two turns, moves played */
    uint32_t *in_group;    /* per input: the generation it was last marked in */
    uint32_t gen;
    Gt *value_term;        /* per role and value 0..100: its goal term (BASE_NONE: not made yet) */
    struct SymSet *sym;    /* the symmetries, made at the first call that asks (see below) */
};

static void sym_free(struct SymSet *y);

/* ---- options ---------------------------------------------------------- */

static bool parse_u64(const char *v, size_t n, uint64_t *x)
{
    *x = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9' || *x > (UINT64_MAX - (uint64_t)(v[i] - '0')) / 10)
            return false;
        *x = *x * 10 + (uint64_t)(v[i] - '0');
    }
    return true;
}

/* "samples=N,seed=S,max-depth=N" and the grounding budgets: the first into
 * o, the budgets passed on to ground_limits_parse. */
static bool parse_options(const char *spec, AnOptions *o, GroundLimits *lim, char **why)
{
    *why = NULL;
    StrBuf budgets = {0};
    strbuf_add(&budgets, "");
    const char *p = spec ? spec : "";
    bool ok = true;
    while (*p && ok) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        size_t klen = eq ? (size_t)(eq - p) : len;
        const char *v = eq ? eq + 1 : p + len;
        size_t vlen = (size_t)(p + len - v);
        uint64_t x = 0;
        if ((klen == 7 && !strncmp(p, "samples", 7)) || (klen == 9 && !strncmp(p, "max-depth", 9))) {
            ok = eq && parse_u64(v, vlen, &x) && x <= UINT32_MAX;
            if (!ok)
                *why = base_sprintf("%.*s takes a whole number, not '%.*s'", (int)klen, p, (int)vlen, v);
            else if (klen == 7)
                o->samples = (uint32_t)x;
            else
                o->max_depth = (uint32_t)x;
        } else if (klen == 4 && !strncmp(p, "seed", 4)) {
            ok = eq && parse_u64(v, vlen, &x);
            if (!ok)
                *why = base_sprintf("seed takes a whole number, not '%.*s'", (int)vlen, v);
            o->seed = x;
        } else {
            if (budgets.len)
                strbuf_add(&budgets, ",");
            char *item = base_xstrndup(p, len);
            strbuf_add(&budgets, item);
            free(item);
        }
        p += len;
        if (ok && *p == ',' && !*++p) {
            *why = base_xstrdup("an option list may not end with a comma");
            ok = false;
        }
    }
    if (ok && budgets.len && !ground_limits_parse(budgets.s, lim, why)) {
        char *w = *why;
        *why = base_sprintf("%s (options: samples=N, seed=S, max-depth=N and the budgets)", w ? w : "a bad option");
        free(w);
        ok = false;
    }
    free(budgets.s);
    return ok;
}

/* ---- making and freeing --------------------------------------------- */

static void analysis_free_(GdlAnalysis *a)
{
    an_query_free(a->q);
    an_free(&a->an);
    pn_free(&a->pn);
    free(a->base_of);
    for (uint32_t r = 0; a->input_of && r < a->nroles; r++)
        free(a->input_of[r]);
    free(a->input_of);
    free(a->bits);
    for (int k = 0; k < GDL_CLAIM_NKINDS; k++)
        vec_free(a->claims[k]);
    free(a->sent);
    free(a->val);
    free(a->gat);
    free(a->mv);
    vec_free(a->win);
    vec_free(a->jl);
    vec_free(a->jl_sent);
    vec_free(a->jl_val);
    vec_free(a->lose);
    vec_free(a->win_moves);
    vec_free(a->lose_moves);
    an_deduce_free(a->ded);
    vec_free(a->comps);
    vec_free(a->turns);
    vec_free(a->tmp);
    vec_free(a->vals);
    vec_free(a->timed);
    free(a->alias_at);
    free(a->alias_name);
    an_deduce_free(a->fd);
    free(a->in_group);
    free(a->value_term);
    sym_free(a->sym);
    free(a);
}

void gdl_analysis_free(GdlAnalysis *a)
{
    if (!a)
        return;
    /* under the machine's journal (or the one active, inside
     * gdl_machine_free), as a machine's teardown: a block a call that ran
     * out of memory left recorded is forgotten as it is freed here */
    BaseJournal *outer = base_journal_swap(NULL);
    base_journal_swap(outer ? outer : &a->m->journal);
    analysis_free_(a);
    base_journal_swap(outer);
}

/* The text of base b's fact, as states print it. */
static const char *base_text(GdlAnalysis *a, uint32_t b) { return gt_text(&a->m->store, a->pn.base.v[b].fact); }

static GdlClaim *claim_new(GdlAnalysis *a, GdlClaimKind kind, size_t *at, size_t n)
{
    GdlClaim c = {0};
    c.kind = kind;
    c.n = n;
    c.sentences = a->sent + *at;
    c.values = a->val + *at;
    *at += n;
    vec_push(a->claims[kind], c);
    return &a->claims[kind].v[a->claims[kind].n - 1];
}

static void lit_put(GdlAnalysis *a, GdlClaim *c, size_t i, AnLit l)
{
    ((const char **)c->sentences)[i] = base_text(a, l.base);
    ((bool *)c->values)[i] = l.value;
}

/* The claims, built once from the analysis's lists (kept in their order). */
static void claims_build(GdlAnalysis *a)
{
    const Analysis *an = &a->an;
    size_t nsent = an->latches.n + an->goal_latches.n + 2 * (size_t)an->inhibitors.n + an->dead.n + an->control.n;
    size_t ngat = 0, nmv = 0;
    for (uint32_t i = 0; i < an->joints.n; i++)
        nsent += an->joints.v[i].lits.n;
    for (uint32_t i = 0; i < an->partitions.n; i++) {
        const AnPartition *p = &an->partitions.v[i];
        nsent += p->group_base.n;
        ngat += p->group_base.n + 1;
        nmv += p->inputs.n;
    }
    a->sent = base_xcalloc(nsent + 1, sizeof *a->sent);
    a->val = base_xcalloc(nsent + 1, sizeof *a->val);
    a->gat = base_xcalloc(ngat + 1, sizeof *a->gat);
    a->mv = base_xcalloc(nmv + 1, sizeof *a->mv);
    size_t at = 0, gat = 0, mv = 0;
    for (uint32_t i = 0; i < an->latches.n; i++)
        lit_put(a, claim_new(a, GDL_CLAIM_LATCH, &at, 1), 0, an->latches.v[i]);
    for (uint32_t i = 0; i < an->joints.n; i++) {
        const AnJoint *j = &an->joints.v[i];
        GdlClaim *c = claim_new(a, GDL_CLAIM_JOINT_LATCH, &at, j->lits.n);
        for (uint32_t k = 0; k < j->lits.n; k++)
            lit_put(a, c, k, j->lits.v[k]);
    }
    for (uint32_t i = 0; i < an->goal_latches.n; i++) {
        const AnGoalLatch *g = &an->goal_latches.v[i];
        GdlClaim *c = claim_new(a, GDL_CLAIM_GOAL_LATCH, &at, 1);
        c->role = g->role;
        c->goal = g->goal;
        c->fixes = g->effect == AN_FIXES;
        lit_put(a, c, 0, g->lit);
    }
    for (uint32_t i = 0; i < an->inhibitors.n; i++) {
        GdlClaim *c = claim_new(a, GDL_CLAIM_INHIBITOR, &at, 2);
        lit_put(a, c, 0, (AnLit){an->inhibitors.v[i].p, true});
        lit_put(a, c, 1, (AnLit){an->inhibitors.v[i].q, false});
    }
    for (uint32_t i = 0; i < an->dead.n; i++) {
        GdlClaim *c = claim_new(a, GDL_CLAIM_DEAD, &at, 1);
        c->role = an->dead.v[i].role;
        lit_put(a, c, 0, an->dead.v[i].lit);
    }
    for (uint32_t i = 0; i < an->control.n; i++)
        lit_put(a, claim_new(a, GDL_CLAIM_CONTROL, &at, 1), 0, (AnLit){an->control.v[i], true});
    if (an->irrelevant.n == (size_t)a->nroles * a->nroles)
        for (uint32_t r = 0; r < a->nroles; r++)
            for (uint32_t s = 0; s < a->nroles; s++)
                if (s != r && an->irrelevant.v[r * a->nroles + s]) {
                    GdlClaim *c = claim_new(a, GDL_CLAIM_IRRELEVANT, &at, 0);
                    c->role = r;
                    c->other_role = s;
                }
    for (uint32_t i = 0; i < an->partitions.n; i++) {
        const AnPartition *p = &an->partitions.v[i];
        uint32_t ng = p->group_base.n;
        GdlClaim *c = claim_new(a, GDL_CLAIM_PARTITION, &at, ng);
        c->role = p->role;
        c->ngroups = ng;
        c->group_at = a->gat + gat;
        c->moves = a->mv + mv;
        for (uint32_t g = 0; g < ng; g++)
            lit_put(a, c, g, (AnLit){p->group_base.v[g], false});
        for (uint32_t g = 0; g <= ng; g++)
            a->gat[gat++] = g < p->group_at.n ? p->group_at.v[g] : p->inputs.n;
        for (uint32_t k = 0; k < p->inputs.n; k++)
            a->mv[mv++] = a->pn.inputs.v[p->inputs.v[k]].move;
    }
}

/* The build stopped by the machine's cancel flag or deadline. */
static GdlStatus cancelled(GdlMachine *m, char **err)
{
    GdlStatus st = rt_fail(&m->ctl, GDL_CANCELLED, "analysis: cancelled (the machine's deadline or cancel flag)");
    if (err)
        *err = base_xstrdup(m->ctl.error);
    return st;
}

static GdlStatus analysis_new_(GdlMachine *m, const char *options, GdlAnalysis **out, char **err)
{
    AnOptions opt = {.samples = AN_DEFAULT_SAMPLES};
    GroundLimits lim = {0};
    char *why = NULL;
    if (!parse_options(options, &opt, &lim, &why)) {
        GdlStatus st = rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "analysis: %s", why);
        if (err)
            *err = base_xstrdup(m->ctl.error);
        free(why);
        return st;
    }
    /* the machine's cancel flag and deadline hold for the whole build:
     * grounding polls them every few thousand atoms, the analyses per base,
     * sampled state or round within their passes; the network's building and optimising (a second or two on
     * the largest games) are checked after */
    lim.cancel = opt.cancel = m->ctl.flag;
    lim.deadline = opt.deadline = m->ctl.deadline;
    if (rt_stop_now(&m->ctl))
        return cancelled(m, err);
    GdlAnalysis *a = base_xcalloc(1, sizeof *a);
    a->m = m;
    a->opt = opt;
    bool built = cp_propnet(&m->game->front.ir, &lim, &m->store, PN_OPT_ALL, &a->pn, NULL, &why);
    if (rt_stop_now(&m->ctl)) {
        free(why);
        analysis_free_(a);
        return cancelled(m, err);
    }
    if (!built) {
        GdlStatus st = rt_fail(&m->ctl, GDL_LIMIT, "%s", why ? why : "no network");
        if (err)
            *err = base_xstrdup(m->ctl.error);
        free(why);
        analysis_free_(a);
        return st;
    }
    const Propnet *pn = &a->pn;
    a->nroles = pn->roles.n;
    a->words = an_state_words(pn);
    a->nbase_of = m->store.fn.n;
    a->base_of = base_xmalloc(((size_t)a->nbase_of + 1) * sizeof *a->base_of);
    memset(a->base_of, 0xff, ((size_t)a->nbase_of + 1) * sizeof *a->base_of);
    for (uint32_t b = 0; b < pn->base.n; b++)
        a->base_of[pn->base.v[b].fact] = b;
    a->input_of = base_xcalloc(a->nroles + 1, sizeof *a->input_of);
    for (uint32_t r = 0; r < a->nroles; r++) {
        a->input_of[r] = base_xmalloc(((size_t)a->nbase_of + 1) * sizeof **a->input_of);
        memset(a->input_of[r], 0xff, ((size_t)a->nbase_of + 1) * sizeof **a->input_of);
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++)
        if (pn->inputs.v[i].role < a->nroles)
            a->input_of[pn->inputs.v[i].role][pn->inputs.v[i].move] = i;
    a->bits = base_xcalloc(a->words + 1, sizeof *a->bits);
    /* aliases per component, for the sentences deduction reports */
    uint32_t nc = pn->comps.n;
    a->alias_at = base_xcalloc((size_t)nc + 2, sizeof *a->alias_at);
    a->alias_name = base_xmalloc(((size_t)pn->aliases.n + 1) * sizeof *a->alias_name);
    for (uint32_t i = 0; i < pn->aliases.n; i++)
        if (pn->aliases.v[i].comp < nc)
            a->alias_at[pn->aliases.v[i].comp + 1]++;
    for (uint32_t c = 0; c < nc; c++)
        a->alias_at[c + 1] += a->alias_at[c];
    uint32_t *fill = base_xcalloc((size_t)nc + 1, sizeof *fill);
    for (uint32_t i = 0; i < pn->aliases.n; i++) {
        uint32_t c = pn->aliases.v[i].comp;
        if (c < nc)
            a->alias_name[a->alias_at[c] + fill[c]++] = pn->aliases.v[i].name;
    }
    free(fill);
    an_analyse(pn, &a->opt, &a->an);
    if (a->an.cancelled) {
        analysis_free_(a);
        return cancelled(m, err);
    }
    a->q = an_query_new(&a->an);
    claims_build(a);
    *out = a;
    return GDL_OK;
}

/* The analysis, its message (on failure) set as the machine's error. */
static GdlStatus analysis_made(GdlMachine *m, const char *options, GdlAnalysis **a)
{
    char *err = NULL;
    GdlStatus st = analysis_new_(m, options, a, &err);
    if (st != GDL_OK)
        rt_fail(&m->ctl, st, "%s", err ? err : gdl_status_name(st));
    free(err);
    return st;
}

GdlStatus gdl_analysis_new(GdlMachine *m, const char *options, GdlAnalysis **a)
{
    *a = NULL;
    RT_GUARDED(m, analysis_made(m, options, a));
}

/* ---- claims ----------------------------------------------------------- */

size_t gdl_analysis_count(const GdlAnalysis *a, GdlClaimKind kind)
{
    return a && (unsigned)kind < GDL_CLAIM_NKINDS ? a->claims[kind].n : 0;
}

const GdlClaim *gdl_analysis_claim(const GdlAnalysis *a, GdlClaimKind kind, size_t i)
{
    return i < gdl_analysis_count(a, kind) ? &a->claims[kind].v[i] : NULL;
}

unsigned gdl_analysis_sampled(const GdlAnalysis *a) { return a ? a->an.joint_states : 0; }
double gdl_analysis_seconds(const GdlAnalysis *a) { return a ? a->an.seconds : 0; }

/* ---- per-state queries -------------------------------------------------- */

/* facts (the machine's ids) as the base bitset, in a->bits. */
static void bits_from(GdlAnalysis *a, const Gt *facts, uint32_t n)
{
    memset(a->bits, 0, a->words * sizeof *a->bits);
    for (uint32_t i = 0; i < n; i++) {
        Gt t = facts[i];
        uint32_t b = t < a->nbase_of ? a->base_of[t] : PN_NONE;
        if (b != PN_NONE)
            a->bits[b >> 6] |= (uint64_t)1 << (b & 63);
    }
    a->bits_stamp = 0;
}

/* Checks s and role, and puts s in a->bits. */
static GdlStatus state_load(GdlAnalysis *a, const GdlState *s, unsigned role)
{
    GdlMachine *m = a->m;
    GdlStatus st = rt_state_check(m, s);
    if (st != GDL_OK)
        return st;
    if (role >= a->nroles)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no role %u", role);
    if (a->bits_stamp != s->stamp) {
        bits_from(a, rt_own_facts(m, s), s->n);
        a->bits_stamp = s->stamp;
    }
    return GDL_OK;
}

static GdlStatus goal_range_(GdlAnalysis *a, const GdlState *s, unsigned role, int *lo, int *hi)
{
    GdlStatus st = state_load(a, s, role);
    if (st == GDL_OK)
        an_goal_range(a->q, a->bits, role, lo, hi);
    return st;
}

GdlStatus gdl_analysis_goal_range(GdlAnalysis *a, const GdlState *s, unsigned role, int *lo, int *hi)
{
    RT_GUARDED(a->m, goal_range_(a, s, role, lo, hi));
}

static void moves_of(GdlAnalysis *a, const U32Vec *inputs, MoveVec *out)
{
    out->n = 0;
    for (uint32_t i = 0; i < inputs->n; i++)
        vec_push(*out, a->pn.inputs.v[inputs->v[i]].move);
    if (out->n > 1)
        gt_sort(&a->m->store, out->v, out->n);
}

static GdlStatus winning_moves_(GdlAnalysis *a, const GdlState *s, unsigned role, const GdlMove **win, size_t *nwin,
                                const GdlMove **lose, size_t *nlose)
{
    *win = *lose = NULL;
    *nwin = *nlose = 0;
    GdlStatus st = state_load(a, s, role);
    if (st != GDL_OK)
        return st;
    a->win.n = a->lose.n = 0;
    an_winning_moves(a->q, a->bits, role, AN_API_MAX_JOINT, &a->win, &a->lose);
    moves_of(a, &a->win, &a->win_moves);
    moves_of(a, &a->lose, &a->lose_moves);
    *win = a->win_moves.v;
    *nwin = a->win_moves.n;
    *lose = a->lose_moves.v;
    *nlose = a->lose_moves.n;
    return GDL_OK;
}

GdlStatus gdl_analysis_winning_moves(GdlAnalysis *a, const GdlState *s, unsigned role, const GdlMove **win,
                                     size_t *nwin, const GdlMove **lose, size_t *nlose)
{
    RT_GUARDED(a->m, winning_moves_(a, s, role, win, nwin, lose, nlose));
}

static GdlStatus goal_distance_(GdlAnalysis *a, const GdlState *s, unsigned role, int *turns)
{
    GdlStatus st = state_load(a, s, role);
    if (st == GDL_OK)
        *turns = an_goal_distance(a->q, a->bits, role, AN_API_MAX_TURNS);
    return st;
}

GdlStatus gdl_analysis_goal_distance(GdlAnalysis *a, const GdlState *s, unsigned role, int *turns)
{
    RT_GUARDED(a->m, goal_distance_(a, s, role, turns));
}

static GdlStatus joint_latch_(GdlAnalysis *a, const GdlState *s, const char *const **sentences, const bool **values,
                              size_t *n)
{
    *sentences = NULL;
    *values = NULL;
    *n = 0;
    GdlStatus st = state_load(a, s, 0);
    if (st != GDL_OK)
        return st;
    a->jl_sent.n = a->jl_val.n = 0;
    if (an_joint_latch_at(a->q, a->bits, &a->jl))
        for (uint32_t i = 0; i < a->jl.n; i++) {
            vec_push(a->jl_sent, base_text(a, a->jl.v[i].base));
            vec_push(a->jl_val, a->jl.v[i].value);
        }
    *sentences = a->jl_sent.v;
    *values = a->jl_val.v;
    *n = a->jl_sent.n;
    return GDL_OK;
}

GdlStatus gdl_analysis_joint_latch(GdlAnalysis *a, const GdlState *s, const char *const **sentences,
                                   const bool **values, size_t *n)
{
    RT_GUARDED(a->m, joint_latch_(a, s, sentences, values, n));
}

/* ---- deduction ---------------------------------------------------------- */

static void timed_push(GdlAnalysis *a, uint32_t comp, uint32_t turn, bool value)
{
    const PnComp *c = &a->pn.comps.v[comp];
    if (c->name != BASE_NONE)
        vec_push(a->timed, ((GdlTimed){gt_text(&a->m->store, c->name), turn, value}));
    for (uint32_t i = a->alias_at[comp]; i < a->alias_at[comp + 1]; i++)
        vec_push(a->timed, ((GdlTimed){gt_text(&a->m->store, a->alias_name[i]), turn, value}));
}

static GdlStatus deduce_(GdlAnalysis *a, const GdlTimed *given, size_t ngiven, unsigned nturns, bool moves_played,
                         bool *consistent, const GdlTimed **out, size_t *nout)
{
    GdlMachine *m = a->m;
    *out = NULL;
    *nout = 0;
    *consistent = false;
    if (nturns == 0)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "deduction takes one turn at least");
    if ((uint64_t)nturns * a->pn.comps.n > AN_API_MAX_TIMED)
        return rt_fail(&m->ctl, GDL_LIMIT, "deduction over %u turns of %u components: more than %u timed components",
                       nturns, a->pn.comps.n, (unsigned)AN_API_MAX_TIMED);
    if (ngiven && !given)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no givens (NULL)");
    /* every given read before anything is deduced */
    a->tmp.n = 0;
    for (size_t i = 0; i < ngiven; i++) {
        if (!given[i].sentence)
            return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "given %zu has no sentence (NULL)", i);
        if (given[i].turn >= nturns)
            return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "given %s at turn %u, past the last turn %u", given[i].sentence,
                           given[i].turn, nturns - 1);
        a->comps.n = 0;
        GdlStatus st = rt_parse_terms(m, given[i].sentence, &a->comps);
        if (st != GDL_OK)
            return st;
        if (a->comps.n != 1)
            return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a sentence is one term, not %u: %s", a->comps.n,
                           given[i].sentence);
        uint32_t c = pn_find(&a->pn, a->comps.v[0]);
        if (c == PN_NONE)
            return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "the network computes no sentence %s", given[i].sentence);
        vec_push(a->tmp, c);
    }
    if (!a->ded || a->ded_turns != nturns || a->ded_moves != moves_played) {
        an_deduce_free(a->ded);
        a->ded = NULL;
        a->ded = an_deduce_new(&a->pn, nturns, moves_played ? AN_MOVES_PLAYED : 0);
        a->ded_turns = nturns;
        a->ded_moves = moves_played;
    }
    AnDeduce *d = a->ded;
    an_deduce_reset(d);
    bool ok = true;
    for (size_t i = 0; i < ngiven && ok; i++)
        ok = an_deduce_set(d, a->tmp.v[i], given[i].turn, given[i].value);
    *consistent = ok && an_deduce_consistent(d);
    a->timed.n = 0;
    if (!*consistent)
        return GDL_OK;
    a->comps.n = a->turns.n = a->vals.n = 0;
    an_deduce_known(d, &a->comps, &a->turns, &a->vals);
    for (uint32_t i = 0; i < a->comps.n; i++)
        timed_push(a, a->comps.v[i], a->turns.v[i], a->vals.v[i] != 0);
    *out = a->timed.v;
    *nout = a->timed.n;
    return GDL_OK;
}

GdlStatus gdl_analysis_deduce(GdlAnalysis *a, const GdlTimed *given, size_t ngiven, unsigned nturns,
                              bool moves_played, bool *consistent, const GdlTimed **out, size_t *nout)
{
    RT_GUARDED(a->m, deduce_(a, given, ngiven, nturns, moves_played, consistent, out, nout));
}

/* ---- filtered machines ------------------------------------------------ */

typedef struct Filter {
    EngineOps ops;            /* the machine's: the inner engine's name, the functions below */
    const EngineOps *inner_ops;
    void *inner;
    GdlAnalysis *a;
    unsigned filters;
    uint32_t role;            /* of DEAD and PARTITION */
} Filter;

bool gdl_filter_preserves_value(unsigned filter) { return (filter & ~GDL_FILTER_FIXED_RANGE) == 0; }

/* Whether a goal latch of role r holds in a->bits. */
static bool goal_latch_holds(const GdlAnalysis *a, uint32_t r)
{
    const Analysis *an = &a->an;
    for (uint32_t i = 0; i < an->goal_latches.n; i++) {
        const AnGoalLatch *g = &an->goal_latches.v[i];
        if (g->role == r && an_bit(a->bits, g->lit.base) == g->lit.value)
            return true;
    }
    return false;
}

/* Whether every role's range in the state of facts (not terminal) is one
 * value. A role with several goal values and no goal latch holding has
 * its whole range: that is decided without a query (which evaluates the
 * state). */
static bool range_fixed(GdlAnalysis *a, const Gt *facts, uint32_t n)
{
    bits_from(a, facts, n);
    for (uint32_t r = 0; r < a->nroles; r++)
        if (a->an.best.v[r] < 0 || (a->an.best.v[r] != a->an.worst.v[r] && !goal_latch_holds(a, r)))
            return false;
    for (uint32_t r = 0; r < a->nroles; r++) {
        int lo = 0, hi = -1;
        an_goal_range(a->q, a->bits, r, &lo, &hi);
        if (lo != hi)
            return false;
    }
    return a->nroles > 0;
}

/* Role r's goal value v as a term of the machine: the network's own term
 * for it when it has one. */
static Gt value_term(GdlAnalysis *a, uint32_t r, int v)
{
    if (!a->value_term) {
        size_t n = (size_t)a->nroles * 101 + 1;
        a->value_term = base_xmalloc(n * sizeof *a->value_term);
        for (size_t i = 0; i < n; i++)
            a->value_term[i] = BASE_NONE;
    }
    Gt *t = &a->value_term[(size_t)r * 101 + (size_t)v];
    if (*t != BASE_NONE)
        return *t;
    const PnRole *pr = &a->pn.roles.v[r];
    for (uint32_t g = 0; g < pr->goals.n && *t == BASE_NONE; g++)
        if (pr->goals.v[g].value == (uint32_t)v)
            *t = pr->goals.v[g].term;
    if (*t == BASE_NONE) {
        char text[8];
        int len = snprintf(text, sizeof text, "%d", v);
        *t = gt_intern(&a->m->store, symtab_intern(&a->m->syms, text, (size_t)len), 0, NULL);
    }
    return *t;
}

static void f_destroy(void *e)
{
    Filter *f = e;
    if (!f)
        return;
    gdl_analysis_free(f->a);
    if (f->inner)
        f->inner_ops->destroy(f->inner);
    free(f);
}

static EngineStatus f_initial(void *e, U32Vec *facts)
{
    Filter *f = e;
    return f->inner_ops->initial(f->inner, facts);
}

static EngineStatus f_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    Filter *f = e;
    return f->inner_ops->next(f->inner, state, n, joint, facts);
}

/* terminal through the filters: *fixed when only FIXED_RANGE makes it so. */
static GdlStatus f_terminal_(Filter *f, const Gt *state, uint32_t n, bool *terminal, bool *fixed)
{
    *fixed = false;
    GdlStatus st = f->inner_ops->terminal(f->inner, state, n, terminal);
    if (st == GDL_OK && !*terminal && (f->filters & GDL_FILTER_FIXED_RANGE))
        *terminal = *fixed = range_fixed(f->a, state, n);
    return st;
}

static EngineStatus f_terminal(void *e, const Gt *state, uint32_t n, bool *terminal)
{
    bool fixed;
    return f_terminal_(e, state, n, terminal, &fixed);
}

static EngineStatus f_goals(void *e, const Gt *state, uint32_t n, U32Vec *values)
{
    Filter *f = e;
    bool terminal = false, fixed = false;
    if (f->filters & GDL_FILTER_FIXED_RANGE) {
        GdlStatus st = f_terminal_(f, state, n, &terminal, &fixed);
        if (st != GDL_OK)
            return st;
    }
    if (!fixed)
        return f->inner_ops->goals(f->inner, state, n, values);
    /* range_fixed left the state in bits */
    GdlAnalysis *a = f->a;
    for (uint32_t r = 0; r < a->nroles; r++) {
        int lo = 0, hi = 0;
        an_goal_range(a->q, a->bits, r, &lo, &hi);
        vec_push(*values, r);
        vec_push(*values, value_term(a, r, lo));
    }
    return GDL_OK;
}

/* Drops from moves those of role f->role that deduction proves lead to a
 * state dead for it, unless that is every one. a->bits holds the state. */
static void filter_dead(Filter *f, U32Vec *moves, uint32_t from)
{
    GdlAnalysis *a = f->a;
    const Analysis *an = &a->an;
    uint32_t first = 0;
    while (first < an->dead.n && an->dead.v[first].role < f->role)
        first++;
    if (first == an->dead.n || an->dead.v[first].role != f->role || moves->n - from < 2)
        return;
    if (!a->fd)
        a->fd = an_deduce_new(&a->pn, 2, AN_MOVES_PLAYED);
    uint32_t k = from;
    for (uint32_t i = from; i < moves->n; i++) {
        Gt mv = moves->v[i];
        uint32_t in = mv < a->nbase_of ? a->input_of[f->role][mv] : PN_NONE;
        bool dead = false;
        if (in != PN_NONE) {
            an_deduce_reset(a->fd);
            if (an_deduce_set_state(a->fd, a->bits, 0) && an_deduce_set(a->fd, a->pn.inputs.v[in].comp, 0, true))
                for (uint32_t j = first; j < an->dead.n && an->dead.v[j].role == f->role && !dead; j++)
                    dead = an_deduce_base(a->fd, an->dead.v[j].lit.base, 1) == (int)an->dead.v[j].lit.value;
        }
        /* kept moves first, dropped ones after them (kept if all are) */
        if (!dead) {
            moves->v[i] = moves->v[k];
            moves->v[k++] = mv;
        }
    }
    if (k > from)
        moves->n = k;
}

/* Cuts moves (from index from) to role f->role's most constrained
 * partition group, unless none would be left. a->bits holds the state. */
static void filter_partition(Filter *f, U32Vec *moves, uint32_t from)
{
    GdlAnalysis *a = f->a;
    a->tmp.n = 0;
    if (!an_partition_moves(a->q, a->bits, f->role, &a->tmp) || a->tmp.n == 0)
        return;
    if (!a->in_group)
        a->in_group = base_xcalloc(a->pn.inputs.n + 1, sizeof *a->in_group);
    if (++a->gen == 0) {
        memset(a->in_group, 0, (a->pn.inputs.n + 1) * sizeof *a->in_group);
        a->gen = 1;
    }
    for (uint32_t i = 0; i < a->tmp.n; i++)
        if (a->tmp.v[i] < a->pn.inputs.n)
            a->in_group[a->tmp.v[i]] = a->gen;
    uint32_t k = from;
    for (uint32_t i = from; i < moves->n; i++) {
        Gt mv = moves->v[i];
        uint32_t in = mv < a->nbase_of ? a->input_of[f->role][mv] : PN_NONE;
        if (in != PN_NONE && a->in_group[in] == a->gen) {
            moves->v[i] = moves->v[k];
            moves->v[k++] = mv;
        }
    }
    if (k > from)
        moves->n = k;
}

static EngineStatus f_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves)
{
    Filter *f = e;
    GdlAnalysis *a = f->a;
    if (f->filters & GDL_FILTER_FIXED_RANGE) {
        bool terminal, fixed;
        GdlStatus st = f_terminal_(f, state, n, &terminal, &fixed);
        if (st != GDL_OK || fixed)
            return st; /* terminal by its range: no move */
    }
    uint32_t from = moves->n;
    GdlStatus st = f->inner_ops->legal(f->inner, state, n, role, moves);
    if (st != GDL_OK || role != f->role || !(f->filters & (GDL_FILTER_DEAD | GDL_FILTER_PARTITION)) ||
        moves->n - from < 2)
        return st;
    bits_from(a, state, n);
    if (f->filters & GDL_FILTER_DEAD)
        filter_dead(f, moves, from);
    if (f->filters & GDL_FILTER_PARTITION)
        filter_partition(f, moves, from);
    return GDL_OK;
}

static void f_terms(void *e, U32Vec *out)
{
    Filter *f = e;
    if (f->inner_ops->terms)
        f->inner_ops->terms(f->inner, out);
}

static GdlStatus filter_wrap_(GdlMachine *m, const char *options, unsigned filters, unsigned role, char **err)
{
    unsigned known = GDL_FILTER_FIXED_RANGE | GDL_FILTER_DEAD | GDL_FILTER_PARTITION;
    GdlStatus st = GDL_OK;
    if (filters & ~known)
        st = rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "unknown filters 0x%x", filters & ~known);
    else if ((filters & (GDL_FILTER_DEAD | GDL_FILTER_PARTITION)) && role >= m->roles.n)
        st = rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no role %u (the game has %u)", role, m->roles.n);
    if (st != GDL_OK) {
        if (err)
            *err = base_xstrdup(m->ctl.error);
        return st;
    }
    GdlAnalysis *a = NULL;
    if ((st = analysis_new_(m, options, &a, err)) != GDL_OK)
        return st;
    Filter *f = base_xcalloc(1, sizeof *f);
    f->ops = (EngineOps){.name = m->ops->name, .destroy = f_destroy, .initial = f_initial, .legal = f_legal,
                         .next = f_next, .terminal = f_terminal, .goals = f_goals, .arg = m->ops->arg,
                         .terms = m->ops->terms ? f_terms : NULL};
    f->inner_ops = m->ops;
    f->inner = m->engine;
    f->a = a;
    f->filters = filters;
    f->role = role;
    /* nothing below allocates: the machine is whole either way */
    m->ops = &f->ops;
    m->engine = f;
    return GDL_OK;
}

static GdlStatus filter_wrap(GdlMachine *m, const char *options, unsigned filters, unsigned role, char **err)
{
    RT_GUARDED(m, filter_wrap_(m, options, filters, role, err));
}

GdlStatus gdl_machine_new_filtered(const GdlGame *game, const char *engine, const char *options, unsigned filters,
                                   unsigned role, GdlMachine **out)
{
    *out = NULL;
    GdlMachine *m = NULL;
    char *err = NULL;
    GdlStatus st = rt_machine_new(game, engine, &m, &err);
    if (st == GDL_OK && (st = filter_wrap(m, options, filters, role, &err)) != GDL_OK)
        gdl_machine_free(m);
    if (st != GDL_OK) {
        rt_game_fail(game, st, err);
        return st;
    }
    *out = m;
    return GDL_OK;
}

/* ---- symmetries ----------------------------------------------------------
 *
 * Made at the first call that asks: an_symmetries (analysis/symmetry.c)
 * finds the group on the network with nauty; then every element is
 * checked with the machine itself on the initial state and every state of
 * SYM_PLAYS seeded random playthroughs (SYM_STEPS steps at most): terminal
 * and goals equal in s and sigma(s), each role's legal moves in sigma(s)
 * the images of those in s, and next(sigma s, sigma J) = sigma next(s, J)
 * for the joint move played and SYM_JOINTS random others. One failure
 * drops the whole set to the identity (why says what failed). A state's
 * image maps each fact that is a base of the network and keeps the others
 * (facts the network does not read). */

enum {
    SYM_CAP = 512,   /* a larger group is cut to the identity */
    SYM_PLAYS = 4,
    SYM_STEPS = 200,
    SYM_JOINTS = 2,  /* random joint moves checked beside the one played */
};

typedef struct SymSet {
    AnSymmetries g;
    char *why;              /* why the set is the identity alone (NULL: kept whole) */
    GdlSymmetry *sym;       /* per element */
    const char **text;      /* every element's facts_from and facts_to */
    unsigned *mrole;        /* every element's moves_role */
    GdlMove *mv;            /* every element's moves_from and moves_to */
    double seconds;         /* finding and checking */
    uint64_t checks;        /* (element, state) pairs checked */
} SymSet;

static void sym_free(SymSet *y)
{
    if (!y)
        return;
    an_symmetries_free(&y->g);
    free(y->why);
    free(y->sym);
    free(y->text);
    free(y->mrole);
    free(y->mv);
    free(y);
}

static uint64_t sym_rand(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A candidate element: images of bases and of inputs. */
typedef struct SymPerm {
    const uint32_t *base, *input;
} SymPerm;

static GdlState *sym_image(GdlAnalysis *a, SymPerm p, const GdlState *s)
{
    const Gt *f = rt_own_facts(a->m, s);
    U32Vec out = {0};
    vec_reserve(out, s->n + 1);
    for (uint32_t i = 0; i < s->n; i++) {
        Gt t = f[i];
        uint32_t b = t < a->nbase_of ? a->base_of[t] : PN_NONE;
        out.v[out.n++] = b == PN_NONE ? t : a->pn.base.v[p.base[b]].fact;
    }
    GdlState *r = rt_state_make(a->m, out.v, out.n);
    vec_free(out);
    return r;
}

static GdlMove sym_move(const GdlAnalysis *a, SymPerm p, unsigned role, GdlMove mv)
{
    uint32_t i = mv < a->nbase_of ? a->input_of[role][mv] : PN_NONE;
    return i == PN_NONE ? mv : a->pn.inputs.v[p.input[i]].move;
}

static int cmp_move(const void *x, const void *y)
{
    GdlMove a = *(const GdlMove *)x, b = *(const GdlMove *)y;
    return (a > b) - (a < b);
}

/* The checks of one element in one state s (with its image ts): NULL when
 * they pass, else why not (malloc-ed). legal[r] holds role r's legal moves
 * in s (sorted by id), terminal and goals s's. */
static char *sym_check_state(GdlAnalysis *a, SymPerm p, const GdlState *s, bool terminal, GdlStatus gst,
                             const int *goals, U32Vec *legal, const GdlMove *joints, uint32_t njoints)
{
    GdlMachine *m = a->m;
    uint32_t nr = a->nroles;
    char *why = NULL;
    GdlState *ts = sym_image(a, p, s), *n1 = NULL, *n2 = NULL, *in1 = NULL;
    bool tt = false;
    int *tg = base_xcalloc(nr + 1, sizeof *tg);
    GdlMove *tj = base_xcalloc(nr + 1, sizeof *tj);
    U32Vec mv = {0};
    if (gdl_state_is_terminal(m, ts, &tt) != GDL_OK) {
        why = base_sprintf("the machine fails on the image of a state: %s", gdl_machine_error(m));
        goto done;
    }
    if (tt != terminal) {
        why = base_sprintf("it maps a state where terminal is %s to one where it is %s", terminal ? "true" : "false",
                           tt ? "true" : "false");
        goto done;
    }
    GdlStatus tgst = gdl_state_goals(m, ts, tg);
    if (tgst != gst) {
        why = base_sprintf("the goals of a state and of its image differ (statuses %d and %d)", (int)gst, (int)tgst);
        goto done;
    }
    for (uint32_t r = 0; gst == GDL_OK && r < nr; r++)
        if (goals[r] != tg[r]) {
            why = base_sprintf("it maps a state where role %u's goal is %d to one where it is %d", r, goals[r], tg[r]);
            goto done;
        }
    if (terminal)
        goto done;
    for (uint32_t r = 0; r < nr; r++) {
        const GdlMove *lm = NULL;
        size_t ln = 0;
        if (gdl_state_legal(m, ts, r, &lm, &ln) != GDL_OK) {
            why = base_sprintf("the machine fails on the image of a state: %s", gdl_machine_error(m));
            goto done;
        }
        mv.n = 0;
        for (size_t i = 0; i < ln; i++)
            vec_push(mv, lm[i]);
        if (mv.n > 1)
            qsort(mv.v, mv.n, sizeof *mv.v, cmp_move);
        bool same = mv.n == legal[r].n;
        for (uint32_t i = 0; same && i < mv.n; i++) {
            /* the image of each legal move of s is legal in ts */
            GdlMove im = sym_move(a, p, r, legal[r].v[i]);
            same = bsearch(&im, mv.v, mv.n, sizeof *mv.v, cmp_move) != NULL;
        }
        if (!same) {
            why = base_sprintf("role %u's legal moves in a state (%u) do not map onto those in its image (%u)", r,
                               legal[r].n, mv.n);
            goto done;
        }
    }
    for (uint32_t j = 0; j < njoints; j++) {
        const GdlMove *J = joints + (size_t)j * nr;
        for (uint32_t r = 0; r < nr; r++)
            tj[r] = sym_move(a, p, r, J[r]);
        if (gdl_state_next(m, s, J, &n1) != GDL_OK || gdl_state_next(m, ts, tj, &n2) != GDL_OK) {
            why = base_sprintf("the machine fails on a next state: %s", gdl_machine_error(m));
            goto done;
        }
        in1 = sym_image(a, p, n1);
        if (!gdl_state_equal(in1, n2)) {
            why = base_sprintf("next(sigma s, sigma J) differs from sigma next(s, J) (%u and %u facts)", n2->n, in1->n);
            goto done;
        }
        gdl_state_free(n1);
        gdl_state_free(n2);
        gdl_state_free(in1);
        n1 = n2 = in1 = NULL;
    }
done:
    gdl_state_free(ts);
    gdl_state_free(n1);
    gdl_state_free(n2);
    gdl_state_free(in1);
    free(tg);
    free(tj);
    vec_free(mv);
    return why;
}

/* Checks elements perms[0..n) along the seeded playthroughs: NULL when
 * every one passes, else why the first failure (malloc-ed). */
static char *sym_check(GdlAnalysis *a, const SymPerm *perms, uint32_t n, uint64_t *checks)
{
    GdlMachine *m = a->m;
    uint32_t nr = a->nroles;
    char *why = NULL;
    uint64_t rng = 0x5eed5eedULL ^ a->opt.seed;
    U32Vec *legal = base_xcalloc(nr + 1, sizeof *legal);
    int *goals = base_xcalloc(nr + 1, sizeof *goals);
    GdlMove *joints = base_xcalloc((size_t)(SYM_JOINTS + 1) * nr + 1, sizeof *joints);
    GdlState *s = NULL, *nx = NULL;
    for (uint32_t play = 0; play < SYM_PLAYS && !why && n; play++) {
        gdl_state_free(s);
        s = NULL;
        if (gdl_state_initial(m, &s) != GDL_OK) {
            why = base_sprintf("the machine fails on the initial state: %s", gdl_machine_error(m));
            break;
        }
        for (uint32_t step = 0; step <= SYM_STEPS && !why; step++) {
            bool terminal = false;
            if (gdl_state_is_terminal(m, s, &terminal) != GDL_OK) {
                why = base_sprintf("the machine fails on a state: %s", gdl_machine_error(m));
                break;
            }
            GdlStatus gst = gdl_state_goals(m, s, goals);
            bool stuck = false;
            for (uint32_t r = 0; r < nr && !terminal && !why; r++) {
                const GdlMove *lm = NULL;
                size_t ln = 0;
                if (gdl_state_legal(m, s, r, &lm, &ln) != GDL_OK) {
                    why = base_sprintf("the machine fails on a state: %s", gdl_machine_error(m));
                    break;
                }
                legal[r].n = 0;
                for (size_t i = 0; i < ln; i++)
                    vec_push(legal[r], lm[i]);
                if (legal[r].n > 1)
                    qsort(legal[r].v, legal[r].n, sizeof *legal[r].v, cmp_move);
                stuck |= ln == 0;
            }
            if (why)
                break;
            uint32_t nj = 0;
            if (!terminal && !stuck) {
                nj = SYM_JOINTS + 1;
                for (uint32_t j = 0; j < nj; j++)
                    for (uint32_t r = 0; r < nr; r++)
                        joints[(size_t)j * nr + r] = legal[r].v[sym_rand(&rng) % legal[r].n];
            }
            for (uint32_t k = 0; k < n && !why; k++) {
                char *w = sym_check_state(a, perms[k], s, terminal, gst, goals, legal, joints, nj);
                ++*checks;
                if (w) {
                    why = base_sprintf("symmetry %u fails on playthrough %u, step %u: %s", k, play, step, w);
                    free(w);
                }
            }
            if (why || nj == 0)
                break;
            if (gdl_state_next(m, s, joints, &nx) != GDL_OK) {
                why = base_sprintf("the machine fails on a next state: %s", gdl_machine_error(m));
                break;
            }
            gdl_state_free(s);
            s = nx;
            nx = NULL;
        }
    }
    gdl_state_free(s);
    for (uint32_t r = 0; r < nr; r++)
        vec_free(legal[r]);
    free(legal);
    free(goals);
    free(joints);
    return why;
}

static double sym_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The GdlSymmetry of every element (the pairs each moves). */
static void sym_describe(GdlAnalysis *a, SymSet *y)
{
    const AnSymmetries *g = &y->g;
    uint32_t nb = g->nbase, ni = g->ninput;
    size_t nf = 0, nm = 0;
    for (uint32_t k = 0; k < g->n; k++) {
        for (uint32_t b = 0; b < nb; b++)
            nf += g->base[(size_t)k * nb + b] != b;
        for (uint32_t i = 0; i < ni; i++)
            nm += g->input[(size_t)k * ni + i] != i;
    }
    y->sym = base_xcalloc(g->n + 1, sizeof *y->sym);
    y->text = base_xmalloc((2 * nf + 1) * sizeof *y->text);
    y->mrole = base_xmalloc((nm + 1) * sizeof *y->mrole);
    y->mv = base_xmalloc((2 * nm + 1) * sizeof *y->mv);
    size_t tf = 0, tm = 0; /* text and moves used (two entries a pair); tm / 2 roles used */
    for (uint32_t k = 0; k < g->n; k++) {
        GdlSymmetry *z = &y->sym[k];
        const uint32_t *bp = g->base + (size_t)k * nb, *ip = g->input + (size_t)k * ni;
        size_t cf = 0, cm = 0;
        for (uint32_t b = 0; b < nb; b++)
            cf += bp[b] != b;
        for (uint32_t i = 0; i < ni; i++)
            cm += ip[i] != i;
        const char **from = y->text + tf, **to = from + cf;
        GdlMove *mfrom = y->mv + tm, *mto = mfrom + cm;
        unsigned *roles = y->mrole + tm / 2;
        size_t x = 0;
        for (uint32_t b = 0; b < nb; b++)
            if (bp[b] != b) {
                from[x] = base_text(a, b);
                to[x++] = base_text(a, bp[b]);
            }
        x = 0;
        for (uint32_t i = 0; i < ni; i++)
            if (ip[i] != i) {
                roles[x] = a->pn.inputs.v[i].role;
                mfrom[x] = a->pn.inputs.v[i].move;
                mto[x++] = a->pn.inputs.v[ip[i]].move;
            }
        *z = (GdlSymmetry){.n = cf, .facts_from = from, .facts_to = to, .nm = cm, .moves_role = roles,
                           .moves_from = mfrom, .moves_to = mto};
        tf += 2 * cf;
        tm += 2 * cm;
    }
}

static GdlStatus sym_ensure(GdlAnalysis *a)
{
    if (a->sym)
        return GDL_OK;
    double t0 = sym_now();
    SymSet *y = base_xcalloc(1, sizeof *y);
    an_symmetries(&a->pn, SYM_CAP, &y->g);
    if (y->g.why)
        y->why = base_xstrdup(y->g.why);
    if (y->g.n > 1) {
        uint32_t n = y->g.n - 1; /* the identity needs no check */
        SymPerm *perms = base_xcalloc(n + 1, sizeof *perms);
        for (uint32_t k = 0; k < n; k++)
            perms[k] = (SymPerm){y->g.base + (size_t)(k + 1) * y->g.nbase, y->g.input + (size_t)(k + 1) * y->g.ninput};
        char *why = sym_check(a, perms, n, &y->checks);
        free(perms);
        if (a->m->oom) {
            /* a call on the machine ran out: so does this one (the jump
             * keeps the journal, so that freeing the machine frees what
             * that call left) */
            free(why);
            sym_free(y);
            base_fatal("memory checking the symmetries");
        }
        if (why) {
            y->why = why;
            y->g.n = 1; /* the identity is element 0 */
        }
    }
    sym_describe(a, y);
    y->seconds = sym_now() - t0;
    a->sym = y;
    return GDL_OK;
}

static GdlStatus sym_count_(GdlAnalysis *a, size_t *n)
{
    *n = 1;
    GdlStatus st = sym_ensure(a);
    if (st == GDL_OK)
        *n = a->sym->g.n;
    return st;
}

GdlStatus gdl_analysis_symmetry_count(GdlAnalysis *a, size_t *n)
{
    RT_GUARDED(a->m, sym_count_(a, n));
}

static GdlStatus sym_k(GdlAnalysis *a, size_t k)
{
    GdlStatus st = sym_ensure(a);
    if (st == GDL_OK && k >= a->sym->g.n)
        st = rt_fail(&a->m->ctl, GDL_BAD_ARGUMENT, "no symmetry %zu (the game has %u)", k, a->sym->g.n);
    return st;
}

static SymPerm sym_perm(const GdlAnalysis *a, size_t k)
{
    const AnSymmetries *g = &a->sym->g;
    return (SymPerm){g->base + k * g->nbase, g->input + k * g->ninput};
}

static GdlStatus sym_state_(GdlAnalysis *a, size_t k, const GdlState *s, GdlState **out)
{
    *out = NULL;
    GdlStatus st = rt_state_check(a->m, s);
    if (st == GDL_OK)
        st = sym_k(a, k);
    if (st == GDL_OK)
        *out = sym_image(a, sym_perm(a, k), s);
    return st;
}

GdlStatus gdl_analysis_symmetry_state(GdlAnalysis *a, size_t k, const GdlState *s, GdlState **out)
{
    RT_GUARDED(a->m, sym_state_(a, k, s, out));
}

static GdlStatus sym_move_(GdlAnalysis *a, size_t k, unsigned role, GdlMove move, GdlMove *out)
{
    *out = move;
    if (role >= a->nroles)
        return rt_fail(&a->m->ctl, GDL_BAD_ARGUMENT, "no role %u", role);
    GdlStatus st = sym_k(a, k);
    if (st == GDL_OK)
        *out = sym_move(a, sym_perm(a, k), role, move);
    return st;
}

GdlStatus gdl_analysis_symmetry_move(GdlAnalysis *a, size_t k, unsigned role, GdlMove move, GdlMove *out)
{
    RT_GUARDED(a->m, sym_move_(a, k, role, move, out));
}

static GdlStatus sym_get_(GdlAnalysis *a, size_t k, const GdlSymmetry **sym)
{
    *sym = NULL;
    GdlStatus st = sym_k(a, k);
    if (st == GDL_OK)
        *sym = &a->sym->sym[k];
    return st;
}

GdlStatus gdl_analysis_symmetry(GdlAnalysis *a, size_t k, const GdlSymmetry **sym)
{
    RT_GUARDED(a->m, sym_get_(a, k, sym));
}

/* ---- for tests and reports (runtime.h) ---- */

const char *rt_symmetry_why(const GdlAnalysis *a) { return a && a->sym ? a->sym->why : NULL; }

double rt_symmetry_seconds(const GdlAnalysis *a) { return a && a->sym ? a->sym->seconds : 0; }

static GdlStatus sym_try_(GdlAnalysis *a, const GdlSymmetry *c, char **why)
{
    *why = NULL;
    uint32_t nb = a->pn.base.n, ni = a->pn.inputs.n;
    uint32_t *bp = base_xmalloc(((size_t)nb + 1) * sizeof *bp);
    uint32_t *ip = base_xmalloc(((size_t)ni + 1) * sizeof *ip);
    for (uint32_t b = 0; b < nb; b++)
        bp[b] = b;
    for (uint32_t i = 0; i < ni; i++)
        ip[i] = i;
    GdlStatus st = GDL_OK;
    U32Vec t = {0};
    for (size_t i = 0; i < c->n && st == GDL_OK; i++) {
        uint32_t ends[2];
        for (int e = 0; e < 2 && st == GDL_OK; e++) {
            t.n = 0;
            st = rt_parse_terms(a->m, e ? c->facts_to[i] : c->facts_from[i], &t);
            uint32_t b = st == GDL_OK && t.n == 1 && t.v[0] < a->nbase_of ? a->base_of[t.v[0]] : PN_NONE;
            if (st == GDL_OK && b == PN_NONE)
                st = rt_fail(&a->m->ctl, GDL_BAD_ARGUMENT, "no base fact %s", e ? c->facts_to[i] : c->facts_from[i]);
            ends[e] = b;
        }
        if (st == GDL_OK)
            bp[ends[0]] = ends[1];
    }
    for (size_t i = 0; i < c->nm && st == GDL_OK; i++) {
        unsigned r = c->moves_role[i];
        GdlMove f = c->moves_from[i], to = c->moves_to[i];
        uint32_t x = r < a->nroles && f < a->nbase_of ? a->input_of[r][f] : PN_NONE;
        uint32_t y = r < a->nroles && to < a->nbase_of ? a->input_of[r][to] : PN_NONE;
        if (x == PN_NONE || y == PN_NONE)
            st = rt_fail(&a->m->ctl, GDL_BAD_ARGUMENT, "move pair %zu is no move of role %u", i, r);
        else
            ip[x] = y;
    }
    vec_free(t);
    if (st == GDL_OK) {
        SymPerm p = {bp, ip};
        uint64_t checks = 0;
        *why = sym_check(a, &p, 1, &checks);
    }
    free(bp);
    free(ip);
    return st;
}

GdlStatus rt_symmetry_try(GdlAnalysis *a, const GdlSymmetry *candidate, char **why)
{
    RT_GUARDED(a->m, sym_try_(a, candidate, why));
}
