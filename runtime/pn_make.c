/*
 * pn_make.c: engine pn's making and freeing (pn.c describes the engine):
 * the game grounded and its network built and optimised (compile/'s
 * cp_propnet), then flattened into the tables pn.c evaluates (flatten_),
 * with the guards (choose_guards), the phases (make_phases), the goals'
 * network of their own (split_goals) and the drain's order (choose_order)
 * chosen, some by sampling random play on those very tables (sample_work):
 * why this part of the compiler stays with the engine, whose evaluator it
 * needs; and engine pn:compiled's C (rt_pn_c).
 */
#include <dlfcn.h>

#include "../middle/ground.h"
#include "compiled.h"
#include "pipeline.h"
#include "pn.h"

/* ---- making and freeing ---------------------------------------------- */

#ifdef PN_COUNT_VISITS
typedef struct PnVisits {
    uint64_t visits;
    uint32_t c;
} PnVisits;

static int cmp_visits(const void *a, const void *b)
{
    uint64_t x = ((const PnVisits *)a)->visits, y = ((const PnVisits *)b)->visits;
    return (x < y) - (x > y);
}

/* The profiling build's report: the totals so far (every network of the
 * process), then this network's components whose changes visited most
 * gates, by their sentence (an unnamed gate: its kind and the sentence
 * of an input). */
static void count_report(Pn *p)
{
    static const char *const kinds[PN_NKINDS] = {"const", "base", "input", "AND", "OR", "NOT"};
    fprintf(stderr, "pn: %llu changes told, %llu gates visited\n", (unsigned long long)pn_tells,
            (unsigned long long)pn_visits);
    uint64_t total = 0;
    PnVisits *v = base_xcalloc(p->n + 1, sizeof *v);
    for (uint32_t c = 0; c < p->n; c++) {
        v[c] = (PnVisits){p->told[c] * links_of(p, c), c};
        total += v[c].visits;
    }
    qsort(v, p->n, sizeof *v, cmp_visits);
    fprintf(stderr, "pn: a network of %u components: %llu visits\n", p->n, (unsigned long long)total);
    for (uint32_t i = 0; i < p->n && i < 30 && v[i].visits; i++) {
        uint32_t c = v[i].c;
        fprintf(stderr, "  %5.1f%%  %10llu told  %4u links  %-5s %s\n", 100.0 * (double)v[i].visits / (double)total,
                (unsigned long long)p->told[c], links_of(p, c), p->kind[c] < PN_NKINDS ? kinds[p->kind[c]] : "?",
                p->name[c] == BASE_NONE ? "?" : gt_text(p->store, p->name[c]));
    }
    free(v);
    free(p->told);
    free(p->name);
    free(p->kind);
}
#endif

void rt_pn_destroy(void *e)
{
    Pn *p = e;
    if (!p)
        return;
#ifdef PN_COUNT_VISITS
    count_report(p);
#endif
    free(p->g);
    free(p->ctr);
    free(p->mark);
    free(p->mark_sum);
    free(p->plain.at);
    free(p->plain.out);
    free(p->pairs.at);
    free(p->pairs.mid);
    free(p->pairs.out);
    free(p->watch_at);
    free(p->watch);
    free(p->legal_on);
    free(p->legal_ok);
    free(p->guard_at);
    free(p->guard_word);
    free(p->guard_mask);
    free(p->cyc);
    free(p->cyc_at);
    free(p->cyc_comp);
    free(p->dirty);
    vec_free(p->dirty_list);
    free(p->queue);
    vec_free(p->local);
    free(p->base_comp);
    free(p->base_next);
    free(p->base_fact);
    free(p->base_of);
    free(p->bit_at);
    free(p->last_on);
    free(p->given_on);
    free(p->snap.on);
    free(p->snap.ctr);
    free(p->snap.g);
    free(p->snap.bits);
    free(p->snap.ok);
    free(p->snap.input);
    free(p->snap.want);
    free(p->made_own.on);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        rt_pn_destroy(p->ph.net[i]);
    rt_pn_destroy(p->goalnet);
    free(p->ph.net);
    free(p->ph.mask);
    free(p->ph.fact);
    free(p->ph.base);
    free(p->nw_at);
    free(p->nw);
    vec_free(p->init);
    rt_jit_free(p->jit);
    if (p->dl)
        dlclose(p->dl);
    free(p->order);
    for (uint32_t k = 0; p->roles && k < p->nroles; k++) {
        PnRoleTab *r = &p->roles[k];
        free(r->move);
        free(r->goal_comp);
        free(r->goal_value);
        free(r->input_of);
        free(r->legal_of);
    }
    free(p->roles);
    free(p);
}

static int cmp_u64(const void *a, const void *b);

typedef VEC(uint64_t) U64Vec;

/* Guards. A base feeding the gates of many legal moves (Breakthrough's
 * (true (control white)): every move of white's is an AND of it) costs a
 * visit of each of them whenever it flips, every turn, though the moves
 * it switches are read only when legal is asked. A legal move's gate that
 * nothing else reads (an AND with no outputs, not a goal, terminal or
 * next) loses its link from the base it shares with the most such gates
 * (at least two); the move's bit in legal_on then follows the rest of the
 * AND, its bit in legal_ok the base (a few words XORed when the base
 * flips), and legal reads both. Per component: its guard, BASE_NONE for
 * none. */
static uint32_t *choose_guards(const Propnet *pn)
{
    uint32_t n = pn->comps.n;
    uint32_t *guard_of = base_xmalloc((n + 1) * sizeof *guard_of);
    uint8_t *use = base_xcalloc(n + 1, 1); /* 1: a legal move's; 2: read otherwise */
    uint32_t *share = base_xcalloc(n + 1, sizeof *share);
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        const PnRole *r = &pn->roles.v[k];
        for (uint32_t i = 0; i < r->legal.n; i++)
            use[r->legal.v[i].comp] |= 1;
        for (uint32_t i = 0; i < r->goals.n; i++)
            use[r->goals.v[i].comp] |= 2;
    }
    if (pn->terminal < n)
        use[pn->terminal] |= 2;
    for (uint32_t b = 0; b < pn->base.n; b++)
        if (pn->base.v[b].next != PN_NONE)
            use[pn->base.v[b].next] |= 2;
#define GUARDABLE(x, c) ((x)->kind == PN_AND && (x)->nout == 0 && use[c] == 1)
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        guard_of[c] = BASE_NONE;
        if (GUARDABLE(x, c))
            for (uint32_t j = 0; j < x->nin; j++) {
                uint32_t i = pn->in.v[x->in_at + j];
                share[i] += pn->comps.v[i].kind == PN_BASE;
            }
    }
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        if (!GUARDABLE(x, c))
            continue;
        uint32_t best = BASE_NONE;
        for (uint32_t j = 0; j < x->nin; j++) {
            uint32_t i = pn->in.v[x->in_at + j];
            if (pn->comps.v[i].kind == PN_BASE && share[i] >= 2 && (best == BASE_NONE || share[i] > share[best]))
                best = i;
        }
        guard_of[c] = best;
    }
#undef GUARDABLE
    free(use);
    free(share);
    return guard_of;
}

/* How many inputs of c are true, its guard's links left out. */
static uint32_t count_true(const Pn *p, const Propnet *pn, uint32_t c, uint32_t guard)
{
    const PnComp *x = &pn->comps.v[c];
    uint32_t k = 0;
    for (uint32_t j = 0; j < x->nin; j++) {
        uint32_t i = pn->in.v[x->in_at + j];
        k += i != guard && p->g[i].val;
    }
    return k;
}

/* The guards' masks (guarded: guard << 32 | legal bit), every guard false,
 * as every base is at first. */
static void guard_masks(Pn *p, U64Vec *guarded)
{
    if (guarded->n)
        qsort(guarded->v, guarded->n, sizeof *guarded->v, cmp_u64);
    p->guard_at = base_xcalloc(p->n + 2, sizeof *p->guard_at);
    p->guard_word = base_xmalloc((guarded->n + 1) * sizeof *p->guard_word);
    p->guard_mask = base_xmalloc((guarded->n + 1) * sizeof *p->guard_mask);
    uint32_t m = 0;
    for (uint32_t i = 0; i < guarded->n; i++) {
        uint32_t g = (uint32_t)(guarded->v[i] >> 32), b = (uint32_t)guarded->v[i];
        if (i == 0 || (uint32_t)(guarded->v[i - 1] >> 32) != g || p->guard_word[m - 1] != b >> 6) {
            p->guard_word[m] = b >> 6;
            p->guard_mask[m++] = 0;
            p->guard_at[g + 1]++;
            p->g[g].flags |= PN_F_GUARD;
        }
        p->guard_mask[m - 1] |= (uint64_t)1 << (b & 63);
        p->legal_ok[b >> 6] &= ~((uint64_t)1 << (b & 63));
    }
    for (uint32_t c = 0; c < p->n; c++)
        p->guard_at[c + 1] += p->guard_at[c];
}

/* The links of c from out[o .. end) to the components that are not gone,
 * a gone NOT's outputs in its place, inverted (neg: PN_E_NEG or 0). */
static void bypass_links(const Pn *p, const uint8_t *gone, uint32_t o, uint32_t end, uint32_t neg, U32Vec *out)
{
    for (; o < end; o++) {
        uint32_t e = p->out[o], d = e & PN_E_COMP;
        if (gone[d])
            bypass_links(p, gone, p->out_at[d], p->out_at[d + 1], neg ^ PN_E_NEG, out);
        else
            vec_push(*out, e ^ neg);
    }
}

/* Takes the plain NOTs out of the propagation: a NOT that nothing reads
 * (no bit follows it, no query asks it, not a leaf) is told of no change;
 * its input tells the NOT's outputs itself, over links marked PN_E_NEG
 * that move their counters against its change, as the NOT's would have
 * moved. A flip of a NOT cost a visit and a change told: a quarter of
 * Connect Four's changes, a third of Breakthrough's. The NOT's counter
 * and value are left as they are: nothing reads them. Only for a network
 * without cycles drained from its tables (compiled code keeps its own). */
static void bypass_nots(Pn *p)
{
    uint32_t n = p->n, gone_n = 0;
    uint8_t *gone = base_xcalloc(n + 1, 1);
    for (uint32_t c = 0; c < n; c++)
        if (p->g[c].inv && !(p->g[c].flags & (PN_F_LEAF | PN_F_SPEC | PN_F_CYCLIC))) { /* a bit sink is a PN_F_SINK */
            gone[c] = 1;
            gone_n++;
        }
    if (gone_n) {
        U32Vec out = {0};
        uint32_t *at = base_xcalloc(n + 2, sizeof *at);
        for (uint32_t c = 0; c < n; c++) {
            at[c] = out.n;
            if (!gone[c]) /* a gone NOT's links go with it: no one tells it */
                bypass_links(p, gone, p->out_at[c], p->out_at[c + 1], 0, &out);
        }
        at[n] = at[n + 1] = out.n;
        vec_push(out, 0);
        free(p->out);
        free(p->out_at);
        p->out = out.v;
        p->out_at = at;
    }
    free(gone);
}

/* Lays each component's links out for the drain. For the queue's
 * (pairs), its links to bit sinks first, each as two words (the link,
 * then the sink's bit), then its other links (from out_mid): a visit of a
 * bit sink no longer branches on the link's kind and reads its bit beside
 * the link rather than from bit_at (checkers' cell bases feed mostly
 * legal moves' sinks). For the ordered drain, which marks a bit sink as
 * any gate, flatten_'s links as they are (plain, out_mid = out_at: the
 * pairs' words cost hex and Reversi 5-10% there). */
void rt_pn_lay_out(Pn *p, bool pairs)
{
    PnLinks *l = &p->pairs;
    if (!pairs) {
        free(l->at);
        free(l->mid);
        free(l->out);
        memset(l, 0, sizeof *l);
        p->out_at = p->out_mid = p->plain.at;
        p->out = p->plain.out;
        return;
    }
    if (!l->at) {
        uint32_t n = p->n, nout = p->plain.at[n], nbits = 0, k = 0;
        for (uint32_t o = 0; o < nout; o++)
            nbits += (p->plain.out[o] & PN_E_BIT) != 0;
        l->at = base_xcalloc(n + 2, sizeof *l->at);
        l->mid = base_xcalloc(n + 1, sizeof *l->mid);
        l->out = base_xmalloc(((size_t)nout + nbits + 1) * sizeof *l->out);
        for (uint32_t c = 0; c < n; c++) {
            uint32_t o0 = p->plain.at[c], end = p->plain.at[c + 1];
            l->at[c] = k;
            for (uint32_t o = o0; o < end; o++)
                if (p->plain.out[o] & PN_E_BIT) {
                    l->out[k++] = p->plain.out[o];
                    l->out[k++] = p->bit_at[p->plain.out[o] & PN_E_COMP];
                }
            l->mid[c] = k;
            for (uint32_t o = o0; o < end; o++)
                if (!(p->plain.out[o] & PN_E_BIT))
                    l->out[k++] = p->plain.out[o];
        }
        l->at[n] = l->at[n + 1] = l->mid[n] = k;
        l->out[k] = 0;
    }
    p->out_at = l->at;
    p->out_mid = l->mid;
    p->out = l->out;
}

/* The tables of an optimised network; every value computed for no fact
 * and no move. */
static void flatten_(Pn *p, const Propnet *pn)
{
    uint32_t n = p->n = pn->comps.n;
    uint32_t *guard_of = choose_guards(pn);
    p->g = base_xcalloc(n + 1, sizeof *p->g);
    p->out_at = base_xcalloc(n + 2, sizeof *p->out_at);
    p->out = base_xmalloc((pn->out.n + 1) * sizeof *p->out);
    p->cyc = base_xmalloc((n + 1) * sizeof *p->cyc);
    uint32_t *cnt = base_xcalloc(n + 1, sizeof *cnt), *thr = base_xcalloc(n + 1, sizeof *thr); /* per gate */
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        PnGate *g = &p->g[c];
        thr[c] = x->kind == PN_AND ? x->nin : 1;
        if (x->kind == PN_AND && guard_of[c] != BASE_NONE)
            for (uint32_t j = 0; j < x->nin; j++)
                thr[c] -= pn->in.v[x->in_at + j] == guard_of[c];
        g->inv = x->kind == PN_NOT;
        if (x->kind == PN_CONST || x->kind == PN_BASE || x->kind == PN_INPUT)
            g->flags = PN_F_LEAF | (x->kind == PN_CONST ? PN_F_CONST : 0);
        uint32_t k = p->out_at[c];
        for (uint32_t o = 0; o < x->nout; o++) {
            uint32_t d = pn->out.v[x->out_at + o];
            if (guard_of[d] != c)
                p->out[k++] = d;
        }
        p->out_at[c + 1] = k;
        p->cyc[c] = BASE_NONE;
        if (x->kind == PN_CONST)
            g->val = x->const_value;
    }
#ifdef PN_COUNT_VISITS
    p->told = base_xcalloc(n + 1, sizeof *p->told);
    p->name = base_xmalloc((n + 1) * sizeof *p->name);
    p->kind = base_xmalloc(n + 1);
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *x = &pn->comps.v[c];
        p->kind[c] = x->kind;
        p->name[c] = x->name;
        for (uint32_t j = 0; p->name[c] == BASE_NONE && j < x->nin; j++)
            p->name[c] = pn->comps.v[pn->in.v[x->in_at + j]].name;
    }
#endif
    /* cyclic SCCs, numbered in topological order; the whole network
     * evaluated in that order, each cyclic one from false */
    U32Vec order = {0}, at = {0};
    uint32_t nsccs = pn_sccs(pn, &order, &at);
    U32Vec cat = {0}, ccomp = {0};
    for (uint32_t s = 0; s < nsccs; s++) {
        uint32_t first = at.v[s], end = at.v[s + 1];
        uint32_t c0 = order.v[first];
        bool cyclic = end - first > 1;
        for (uint32_t i = 0; !cyclic && i < pn->comps.v[c0].nin; i++)
            cyclic = pn->in.v[pn->comps.v[c0].in_at + i] == c0;
        if (cyclic) {
            vec_push(cat, ccomp.n);
            for (uint32_t i = first; i < end; i++) {
                p->cyc[order.v[i]] = cat.n - 1;
                p->g[order.v[i]].flags |= PN_F_CYCLIC;
                vec_push(ccomp, order.v[i]);
            }
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = first; i < end; i++) {
                uint32_t c = order.v[i];
                if (p->g[c].flags & PN_F_LEAF)
                    continue;
                cnt[c] = count_true(p, pn, c, guard_of[c]);
                uint8_t v = gate_value(&p->g[c], cnt[c], thr[c]);
                if (v != p->g[c].val) {
                    p->g[c].val = v;
                    changed = true;
                }
            }
        }
    }
    /* counts once every value is final (a cycle's first members counted
     * before its last rose) */
    for (uint32_t c = 0; c < n; c++)
        cnt[c] = count_true(p, pn, c, guard_of[c]);
    p->ctr = base_xcalloc(n + 1, sizeof *p->ctr);
    for (uint32_t c = 0; c < n; c++)
        p->ctr[c] = PN_CTR_TRUE - thr[c] + cnt[c]; /* a NOT's (thr 1): inverted */
    free(cnt);
    free(thr);
    for (uint32_t c = 0; c < n; c++)
        if (p->out_at[c + 1] == p->out_at[c])
            p->g[c].flags |= PN_F_SINK;
    p->ncyc = cat.n;
    vec_push(cat, ccomp.n);
    p->cyc_at = cat.v;
    p->cyc_comp = ccomp.v;
    p->dirty = base_xcalloc(p->ncyc + 1, 1);
    p->order = order.v;
    vec_free(at);

    /* bases, in the order of their facts' ids */
    p->nbase = pn->base.n;
    uint64_t *idx = base_xmalloc((p->nbase + 1) * sizeof *idx);
    for (uint32_t b = 0; b < p->nbase; b++)
        idx[b] = (uint64_t)pn->base.v[b].fact << 32 | b;
    qsort(idx, p->nbase, sizeof *idx, cmp_u64);
    p->base_comp = base_xmalloc((p->nbase + 1) * sizeof *p->base_comp);
    p->base_next = base_xmalloc((p->nbase + 1) * sizeof *p->base_next);
    p->base_fact = base_xmalloc((p->nbase + 1) * sizeof *p->base_fact);
    p->nbase_of = p->store->fn.n;
    p->base_of = base_xmalloc((p->nbase_of + 1) * sizeof *p->base_of);
    for (uint32_t t = 0; t < p->nbase_of; t++)
        p->base_of[t] = BASE_NONE;
    for (uint32_t i = 0; i < p->nbase; i++) {
        const PnBase *x = &pn->base.v[(uint32_t)idx[i]];
        p->base_comp[i] = x->comp;
        p->base_next[i] = x->next == PN_NONE ? BASE_NONE : x->next;
        p->base_fact[i] = x->fact;
        p->base_of[x->fact] = i;
        if (x->init)
            vec_push(p->init, x->fact);
        const PnGate *g = &p->g[x->comp];
        p->nconst_true += (g->flags & PN_F_CONST) && g->val;
    }
    free(idx);

    /* roles: legal moves and their watchers, goals, inputs */
    p->nroles = pn->roles.n;
    p->roles = base_xcalloc(p->nroles + 1, sizeof *p->roles);
    p->watch_at = base_xcalloc(n + 2, sizeof *p->watch_at);
    uint32_t nwatch = 0;
    for (uint32_t k = 0; k < p->nroles; k++)
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++) {
            p->watch_at[pn->roles.v[k].legal.v[i].comp + 1]++;
            nwatch++;
        }
    for (uint32_t c = 0; c < n; c++)
        p->watch_at[c + 1] += p->watch_at[c];
    p->watch = base_xmalloc((nwatch + 1) * sizeof *p->watch);
    uint32_t *fill = base_xcalloc(n + 1, sizeof *fill);
    uint32_t lw = 0;
    for (uint32_t k = 0; k < p->nroles; k++) {
        p->roles[k].lw0 = lw;
        lw += (pn->roles.v[k].legal.n + 63) >> 6;
    }
    p->legal_on = base_xcalloc(lw + 1 + ((p->nbase + 63) >> 6) + 1, sizeof *p->legal_on);
    p->nlegal_words = lw;
    p->legal_ok = base_xmalloc((lw + 1) * sizeof *p->legal_ok);
    memset(p->legal_ok, 0xff, (lw + 1) * sizeof *p->legal_ok);
    U64Vec guarded = {0}; /* guard << 32 | bit */
    for (uint32_t k = 0; k < p->nroles; k++) {
        const PnRole *pr = &pn->roles.v[k];
        PnRoleTab *r = &p->roles[k];
        r->nlegal = pr->legal.n;
        r->move = base_xmalloc((r->nlegal + 1) * sizeof *r->move);
        /* legal moves in canonical order, so that legal answers in it (the
         * API's order: EngineOps.sorted) */
        uint32_t *ord = base_xmalloc((r->nlegal + 1) * sizeof *ord);
        for (uint32_t i = 0; i < r->nlegal; i++)
            r->move[i] = pr->legal.v[i].move;
        gt_sort(p->store, r->move, r->nlegal);
        for (uint32_t i = 0; i < r->nlegal; i++) {
            /* the legal entry of each sorted move (moves are distinct) */
            uint32_t lo = 0, hi = r->nlegal;
            Gt mv = pr->legal.v[i].move;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (gt_cmp(p->store, r->move[mid], mv) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            ord[lo] = i;
        }
        r->ninput_of = p->store->fn.n;
        r->input_of = base_xmalloc((r->ninput_of + 1) * sizeof *r->input_of);
        r->legal_of = base_xmalloc((r->ninput_of + 1) * sizeof *r->legal_of);
        for (uint32_t t = 0; t < r->ninput_of; t++)
            r->input_of[t] = r->legal_of[t] = BASE_NONE;
        for (uint32_t i = 0; i < r->nlegal; i++)
            if (r->move[i] < r->ninput_of)
                r->legal_of[r->move[i]] = i;
        r->cur_input = BASE_NONE;
        for (uint32_t i = 0; i < r->nlegal; i++) {
            uint32_t c = pr->legal.v[ord[i]].comp, b = (r->lw0 << 6) + i;
            p->watch[p->watch_at[c] + fill[c]++] = b;
            p->g[c].flags |= PN_F_WATCHED;
            if (p->g[c].val)
                p->legal_on[b >> 6] |= (uint64_t)1 << (b & 63);
            if (guard_of[c] != BASE_NONE)
                vec_push(guarded, (uint64_t)guard_of[c] << 32 | b);
        }
        free(ord);
        r->ngoals = pr->goals.n;
        r->goal_comp = base_xmalloc((r->ngoals + 1) * sizeof *r->goal_comp);
        r->goal_value = base_xmalloc((r->ngoals + 1) * sizeof *r->goal_value);
        for (uint32_t g = 0; g < r->ngoals; g++) {
            /* the value term as written, in the machine's store: the API
             * reads it as ref's (and reports one that is no number) */
            r->goal_comp[g] = pr->goals.v[g].comp;
            r->goal_value[g] = pr->goals.v[g].term;
        }
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++) {
        const PnInput *x = &pn->inputs.v[i];
        if (x->role < p->nroles && x->move < p->roles[x->role].ninput_of)
            p->roles[x->role].input_of[x->move] = x->comp;
    }
    free(fill);
    guard_masks(p, &guarded);
    vec_free(guarded);
    free(guard_of);
    p->terminal = pn->terminal;

    /* next-state bits: per component, the bases whose next it is */
    p->nbase_words = (p->nbase + 63) >> 6;
    p->next_on = p->legal_on + p->nlegal_words + 1; /* one block (bit_at) */
    p->last_on = base_xcalloc(p->nbase_words + 1, sizeof *p->last_on);
    p->made = &p->made_own;
    p->given_on = base_xcalloc(p->nbase_words + 1, sizeof *p->given_on);
    p->made->on = base_xcalloc(p->nbase_words + 1, sizeof *p->made->on);
    p->nw_at = base_xcalloc(n + 2, sizeof *p->nw_at);
    p->nw = base_xmalloc((p->nbase + 1) * sizeof *p->nw);
    for (uint32_t b = 0; b < p->nbase; b++)
        if (p->base_next[b] != BASE_NONE)
            p->nw_at[p->base_next[b] + 1]++;
    for (uint32_t c = 0; c < n; c++)
        p->nw_at[c + 1] += p->nw_at[c];
    fill = base_xcalloc(n + 1, sizeof *fill);
    for (uint32_t b = 0; b < p->nbase; b++) {
        uint32_t c = p->base_next[b];
        if (c == BASE_NONE)
            continue;
        p->nw[p->nw_at[c] + fill[c]++] = b;
        p->g[c].flags |= PN_F_NEXT;
        if (p->g[c].val)
            p->next_on[b >> 6] |= (uint64_t)1 << (b & 63);
    }
    free(fill);

    /* the links, each with what a visit needs of its target */
    if (p->terminal < n) /* a goals network (split_goals) has none */
        p->g[p->terminal].flags |= PN_F_READ;
    for (uint32_t k = 0; k < p->nroles; k++)
        for (uint32_t i = 0; i < p->roles[k].ngoals; i++)
            p->g[p->roles[k].goal_comp[i]].flags |= PN_F_READ;
    /* bit sinks: gates without outputs whose value nothing reads but one
     * legal-move or next-state bit (most of a game's legal and next gates) */
    p->bit_at = base_xmalloc((n + 1) * sizeof *p->bit_at);
    for (uint32_t c = 0; c < n; c++) {
        uint8_t f = p->g[c].flags;
        uint32_t nwatch = p->watch_at[c + 1] - p->watch_at[c], nnext = p->nw_at[c + 1] - p->nw_at[c];
        p->bit_at[c] = BASE_NONE;
        if ((f & PN_F_SINK) && !(f & (PN_F_LEAF | PN_F_CYCLIC | PN_F_GUARD | PN_F_READ)) && nwatch + nnext == 1)
            p->bit_at[c] = nwatch ? p->watch[p->watch_at[c]] : ((p->nlegal_words + 1) << 6) + p->nw[p->nw_at[c]];
    }
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t o = p->out_at[c]; o < p->out_at[c + 1]; o++) {
            uint32_t d = p->out[o];
            p->out[o] = d | (p->g[d].inv ? PN_E_NOT : 0) | (p->g[d].flags & PN_F_CYCLIC ? PN_E_CYC : 0) |
                        (p->bit_at[d] != BASE_NONE ? PN_E_BIT : p->g[d].flags & PN_F_SPEC ? PN_E_SPEC : 0);
        }
    if (p->bypass && !p->ncyc)
        bypass_nots(p);
    p->plain = (PnLinks){p->out_at, NULL, p->out};
    rt_pn_lay_out(p, true);
}

/* A topological numbering that keeps the given one where it can (Kahn's,
 * the lowest-numbered ready component first): the identity when the
 * network's numbers are topological already, so the queue's drain sees
 * the same layout. NULL when the network has a cycle (a gate reading
 * itself among them): its members never become ready. */
static uint32_t *topo_order(const Propnet *pn)
{
    uint32_t n = pn->comps.n, m = 0, nheap = 0;
    uint32_t *left = base_xmalloc((n + 1) * sizeof *left), *heap = base_xmalloc((n + 1) * sizeof *heap);
    uint32_t *newid = base_xmalloc((n + 1) * sizeof *newid);
    for (uint32_t c = 0; c < n; c++)
        if (!(left[c] = pn->comps.v[c].nin))
            heap[nheap++] = c; /* in increasing order: a heap already */
    while (nheap) {
        uint32_t c = heap[0], last = heap[--nheap], i = 0;
        for (;;) { /* sift last down from the root */
            uint32_t k = 2 * i + 1;
            if (k >= nheap)
                break;
            if (k + 1 < nheap && heap[k + 1] < heap[k])
                k++;
            if (last <= heap[k])
                break;
            heap[i] = heap[k];
            i = k;
        }
        if (nheap)
            heap[i] = last;
        newid[c] = m++;
        const PnComp *x = &pn->comps.v[c];
        for (uint32_t o = 0; o < x->nout; o++) {
            uint32_t d = pn->out.v[x->out_at + o];
            if (--left[d] == 0) { /* sift d up */
                uint32_t j = nheap++;
                while (j && heap[(j - 1) / 2] > d) {
                    heap[j] = heap[(j - 1) / 2];
                    j = (j - 1) / 2;
                }
                heap[j] = d;
            }
        }
    }
    free(left);
    free(heap);
    if (m < n) {
        free(newid);
        return NULL;
    }
    return newid;
}

/* Flattens pn into p's tables; an acyclic network's components numbered
 * in topological order first (topo_order), so that a drain that tells
 * changes in the order of their numbers tells each gate once, its value
 * final (drain_ordered). */
static void flatten(Pn *p, const Propnet *pn)
{
    uint32_t *newid = topo_order(pn);
    if (!newid) { /* cycles: the queue drains it, in the grounder's numbers */
        flatten_(p, pn);
        return;
    }
    Propnet q;
    pn_copy(&q, pn);
    pn_permute(&q, newid);
    free(newid);
    flatten_(p, &q);
    pn_free(&q);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The generated code's calls back into the engine. */
enum {
    PN_DRAIN_CHOSEN,   /* by a sample of random play (choose_order) */
    PN_DRAIN_QUEUED,   /* "queued": the depth-first queue */
    PN_DRAIN_ORDERED,  /* "ordered": in topological order, when the network has no cycles */
};

/* The options after "pn:": the grounding budgets, and "compiled" (with
 * "max-lines=N", the generated code's budget), in any order. */
typedef struct PnArgs {
    GroundLimits lim;
    bool compiled;
    bool cc;           /* compiled by the system compiler (engine aot's plan), not libtcc */
    size_t max_lines;  /* 0: PNCG_DEFAULT_MAX_LINES */
    bool no_phases;    /* one network for every state (make_phases) */
    bool whole;        /* the goals in the network of play (split_goals) */
    bool condensed;    /* the condensed grounding however small (ground.h; the tests) */
    uint8_t drain;     /* PN_DRAIN_*: how changes are told (choose_order) */
} PnArgs;

static bool pn_args(const char *arg, PnArgs *a, char **why)
{
    memset(a, 0, sizeof *a);
    if (!arg)
        return true;
    StrBuf rest = {0};
    strbuf_add(&rest, "");
    const char *s = arg;
    bool ok = true;
    while (ok) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 8 && strncmp(s, "compiled", 8) == 0)
            a->compiled = true;
        else if (len == 2 && strncmp(s, "cc", 2) == 0)
            a->compiled = a->cc = true;
        else if (len == 9 && strncmp(s, "no-phases", 9) == 0)
            a->no_phases = true;
        else if (len == 5 && strncmp(s, "whole", 5) == 0)
            a->whole = true;
        else if (len == 9 && strncmp(s, "condensed", 9) == 0)
            a->condensed = true;
        else if (len == 7 && strncmp(s, "ordered", 7) == 0)
            a->drain = PN_DRAIN_ORDERED;
        else if (len == 6 && strncmp(s, "queued", 6) == 0)
            a->drain = PN_DRAIN_QUEUED;
        else if (len > 10 && strncmp(s, "max-lines=", 10) == 0) {
            char *end;
            unsigned long long v = strtoull(s + 10, &end, 10);
            ok = end == s + len && v > 0 && s[10] >= '0' && s[10] <= '9';
            a->max_lines = (size_t)v;
            if (!ok)
                *why = base_sprintf("max-lines takes a positive number: '%.*s'", (int)len, s);
        } else {
            if (rest.len)
                strbuf_add(&rest, ",");
            strbuf_addf(&rest, "%.*s", (int)len, s);
        }
        if (!e)
            break;
        s = e + 1;
    }
    if (ok && (rest.len || !*arg))
        ok = ground_limits_parse(rest.s, &a->lim, why);
    free(rest.s);
    return ok;
}

/* Phases. A base that guards many legal moves (Breakthrough's control:
 * every move of white's reads (true (control white))) flips every turn,
 * and with it the network's view of whose moves count: the frame rule
 * "a cell keeps its piece unless a move touches it" reads every move of
 * both roles. Made for the states where such bases take given values
 * (white in control: (control white) true, (control black) false), the
 * network loses what they decide: black's moves are never legal there, so
 * black's only input is its noop, and the frame rule reads white's few
 * moves that touch the cell (input complement). As Sancho's networks per
 * role in control, a network is made per phase: with one split base, one
 * where it holds and one where it does not; with several (one a role),
 * one per base, holding alone. Each is the general network, optimised
 * again with those bases constant, and exact for every state of its phase
 * (no pass that assumes the states reachable runs again: fixed bases are
 * the general network's); a state in no phase goes to the general
 * network. The phases share the state next answered last, so that the
 * one that answers a playout's next step compares bitsets, whichever
 * made it. */
enum { PN_PHASE_MIN = 8, PN_MAX_SPLIT = 8, PN_SAMPLE_STEPS = 400 };

/* Counts the tables' work (Pn.work) of p and its networks, or stops. */
static void set_counting(Pn *p, bool on)
{
    p->counting = on;
    if (p->goalnet)
        p->goalnet->counting = on;
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        p->ph.net[i]->counting = on;
}

/* The work (Pn.work) of random playouts from the initial state, up to
 * PN_SAMPLE_STEPS state changes in all: the same moves whichever networks
 * answer, since each answers exactly. */
static uint64_t sample_work_n(Pn *p, uint32_t *nsteps)
{
    set_counting(p, true);
    uint64_t before = p->work + (p->goalnet ? p->goalnet->work : 0);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        before += p->ph.net[i]->work;
    U32Vec s = {0}, t = {0}, moves = {0};
    Gt *joint = base_xcalloc(p->nroles + 1, sizeof *joint);
    uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64 */
    bool stuck = false;
    for (uint32_t steps = 0; steps < PN_SAMPLE_STEPS && !stuck;) {
        s.n = 0;
        rt_pn_initial(p, &s);
        uint32_t start = steps;
        for (bool terminal = false; steps < PN_SAMPLE_STEPS; steps++) {
            if (rt_pn_terminal(p, s.v, s.n, &terminal) != GDL_OK) {
                stuck = true;
                break;
            }
            if (terminal) { /* a playout's end: its goals */
                moves.n = 0;
                rt_pn_goals(p, s.v, s.n, &moves);
                break;
            }
            for (uint32_t k = 0; k < p->nroles && !stuck; k++) {
                moves.n = 0;
                stuck = rt_pn_legal(p, s.v, s.n, k, &moves) != GDL_OK || !moves.n;
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (!stuck)
                    joint[k] = moves.v[x % moves.n];
            }
            t.n = 0;
            if (stuck || rt_pn_next(p, s.v, s.n, joint, &t) != GDL_OK) {
                stuck = true;
                break;
            }
            U32Vec u = s;
            s = t;
            t = u;
        }
        stuck |= steps == start; /* the initial state is terminal: every playout would be this one */
        *nsteps = steps;
    }
    vec_free(s);
    vec_free(t);
    vec_free(moves);
    free(joint);
    uint64_t after = p->work + (p->goalnet ? p->goalnet->work : 0);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        after += p->ph.net[i]->work;
    set_counting(p, false);
    return after - before;
}

static uint64_t sample_work(Pn *p)
{
    uint32_t steps = 0;
    return sample_work_n(p, &steps);
}

double rt_pn_work_per_step(void *pn)
{
    uint32_t steps = 0;
    uint64_t w = sample_work_n(pn, &steps);
    return steps ? (double)w / steps : 0;
}

void rt_pn_count(void *pn, bool on) { set_counting(pn, on); }

uint64_t rt_pn_work(const void *pn)
{
    const Pn *p = pn;
    uint64_t w = p->work + (p->goalnet ? p->goalnet->work : 0);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        w += p->ph.net[i]->work;
    return w;
}

/* When no base guards enough legal moves: bases that decide many legal
 * moves through gates between (checkers' (true (control red)): a jump's
 * gate reads it, the move's reads the jump's, and has_legal_move reads
 * the moves, so no move is guarded). Per base, the legal moves'
 * components within PN_REACH_DEPTH gates downstream (one may feed
 * another: a jump's gate, shared by the double jumps that start with
 * it), counted for the bases that reach at least an eighth of all legal
 * moves and half as many as the base reaching most. Bases are few beside
 * gates: a search each, bounded by the depth. */
enum { PN_REACH_DEPTH = 6 };

static void count_reach(const Propnet *pn, uint32_t *count)
{
    uint32_t n = pn->comps.n, nlegal = 0, most = 0;
    uint8_t *legal = base_xcalloc(n + 1, 1);
    for (uint32_t k = 0; k < pn->roles.n; k++)
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
            nlegal += !legal[pn->roles.v[k].legal.v[i].comp], legal[pn->roles.v[k].legal.v[i].comp] = 1;
    uint32_t *seen = base_xcalloc(n + 1, sizeof *seen), *reach = base_xcalloc(n + 1, sizeof *reach);
    uint32_t *stack = base_xmalloc((n + 1) * sizeof *stack);
    uint8_t *depth = base_xmalloc(n + 1);
    for (uint32_t b = 0; b < n; b++) {
        if (pn->comps.v[b].kind != PN_BASE)
            continue;
        uint32_t top = 0;
        stack[top] = b, depth[top++] = 0, seen[b] = b + 1;
        while (top) {
            top--;
            uint32_t c = stack[top], d = depth[top];
            if (legal[c])
                reach[b]++;
            if (d == PN_REACH_DEPTH)
                continue;
            const PnComp *x = &pn->comps.v[c];
            for (uint32_t o = 0; o < x->nout; o++) {
                uint32_t t = pn->out.v[x->out_at + o];
                if (seen[t] != b + 1)
                    seen[t] = b + 1, stack[top] = t, depth[top++] = (uint8_t)(d + 1);
            }
        }
        if (reach[b] > most)
            most = reach[b];
    }
    for (uint32_t b = 0; b < n; b++)
        if (reach[b] >= PN_PHASE_MIN && reach[b] * 8 >= nlegal && reach[b] * 2 >= most && reach[b] > count[b])
            count[b] = reach[b];
    free(legal);
    free(seen);
    free(reach);
    free(stack);
    free(depth);
}

static void make_phases(Pn *p, const Propnet *pn)
{
    uint32_t n = pn->comps.n;
    uint32_t *guard_of = choose_guards(pn), *count = base_xcalloc(n + 1, sizeof *count);
    bool guards = false;
    for (uint32_t c = 0; c < n; c++)
        if (guard_of[c] != BASE_NONE)
            guards |= ++count[guard_of[c]] >= PN_PHASE_MIN;
    if (!guards) /* else the bases split on may not exclude each other */
        count_reach(pn, count);
    PnPhases *ph = &p->ph;
    uint32_t split[PN_MAX_SPLIT];
    uint32_t *comp_of = base_xmalloc((p->nbase + 1) * sizeof *comp_of); /* pn's component of p's base b */
    for (uint32_t i = 0; i < pn->base.n; i++)
        comp_of[base_index(p, pn->base.v[i].fact)] = pn->base.v[i].comp;
    for (uint32_t b = 0; b < p->nbase; b++) /* in the order of their facts (p's are numbered apart) */
        if (count[comp_of[b]] >= PN_PHASE_MIN) {
            if (ph->nsplit == PN_MAX_SPLIT) {
                ph->nsplit = 0; /* too many to split on */
                break;
            }
            split[ph->nsplit++] = comp_of[b];
        }
    free(comp_of);
    free(guard_of);
    free(count);
    if (!ph->nsplit)
        return;
    ph->fact = base_xmalloc(ph->nsplit * sizeof *ph->fact);
    ph->base = base_xmalloc(ph->nsplit * sizeof *ph->base);
    for (uint32_t i = 0; i < ph->nsplit; i++) {
        ph->fact[i] = pn->base.v[pn->comps.v[split[i]].index].fact;
        ph->base[i] = base_index(p, ph->fact[i]);
    }
    ph->nphase = ph->nsplit == 1 ? 2 : ph->nsplit;
    ph->mask = base_xmalloc(ph->nphase * sizeof *ph->mask);
    ph->net = base_xcalloc(ph->nphase, sizeof *ph->net);
    bool same = true;
    for (uint32_t k = 0; k < ph->nphase; k++) {
        ph->mask[k] = ph->nsplit == 1 ? 1u - k : 1u << k;
        Propnet q;
        pn_copy(&q, pn);
        for (uint32_t i = 0; i < ph->nsplit; i++) {
            PnComp *x = &q.comps.v[split[i]];
            x->kind = PN_CONST;
            x->const_value = (uint8_t)(ph->mask[k] >> i & 1);
        }
        pn_optimise(&q, PN_OPT_ENGINE & ~PN_OPT_FIXED_BASE);
        Pn *sub = base_xcalloc(1, sizeof *sub);
        sub->store = p->store;
        sub->ctl = p->ctl;
        sub->bypass = p->bypass;
        flatten(sub, &q);
        pn_free(&q);
        free(sub->made_own.on);
        sub->made_own.on = NULL;
        sub->made = p->made; /* the same bases, numbered alike: optimising keeps every base */
        ph->net[k] = sub;
        same &= sub->nbase == p->nbase;
    }
    /* kept when they work less */
    uint32_t nphase = ph->nphase;
    ph->nphase = 0;
    uint64_t one = same ? sample_work(p) : 0;
    ph->nphase = nphase;
    uint64_t phased = same ? sample_work(p) : 0;
    if (same && phased * 5 < one * 4)
        return;
    for (uint32_t i = 0; i < ph->nphase; i++)
        rt_pn_destroy(ph->net[i]);
    free(ph->net);
    free(ph->mask);
    free(ph->fact);
    free(ph->base);
    memset(ph, 0, sizeof *ph);
}

/* The goals' own network. GDL's goals read the state alone, and a
 * playout asks them once, at its end; but the gates that only goals read
 * are told of every change on the way (Reversi's disc counts: a chain of
 * running totals over the 64 cells, told each flip of a disc, most of the
 * network's work). When such gates are at least PN_GOAL_SPLIT of the
 * network's and PN_GOAL_SPLIT_MIN (goals_alone), the goals may get a
 * network of their own (split_goals: a copy optimised with no legal move,
 * next or terminal to keep, the goals' cone), brought up to the state
 * asked when goals are asked (a playout's last state: the bits that
 * differ from the state it held last, as any next step), and the network
 * of play loses them (optimised again without goals). It pays when
 * playouts are long; where they are short (a game of one move: the goal
 * network catches up with a whole playout each time) it costs, so
 * pn_make keeps it when a sample of random play works less, as phases. */
#define PN_GOAL_SPLIT 0.05
#define PN_GOAL_SPLIT_MIN 64

static bool goals_alone(const Propnet *pn)
{
    uint32_t n = pn->comps.n, alone = 0;
    uint8_t *mark = base_xcalloc(n + 1, 1); /* 1: play reads it, 2: goals do */
    uint32_t *stack = base_xmalloc((n + 1) * sizeof *stack);
    /* marked when pushed: a component is pushed at most once */
#define PUSH(c)                                                                \
    do {                                                                       \
        uint32_t c_ = (c);                                                     \
        if (!(mark[c_] & bit))                                                 \
            mark[c_] |= bit, stack[top++] = c_;                                \
    } while (0)
    for (uint8_t bit = 1; bit <= 2; bit <<= 1) {
        uint32_t top = 0;
        if (bit == 1) {
            for (uint32_t b = 0; b < pn->base.n; b++)
                if (pn->base.v[b].next != PN_NONE)
                    PUSH(pn->base.v[b].next);
            for (uint32_t k = 0; k < pn->roles.n; k++)
                for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
                    PUSH(pn->roles.v[k].legal.v[i].comp);
            if (pn->terminal != PN_NONE)
                PUSH(pn->terminal);
        } else
            for (uint32_t k = 0; k < pn->roles.n; k++)
                for (uint32_t i = 0; i < pn->roles.v[k].goals.n; i++)
                    PUSH(pn->roles.v[k].goals.v[i].comp);
        while (top) {
            const PnComp *x = &pn->comps.v[stack[--top]];
            for (uint32_t j = 0; j < x->nin; j++)
                PUSH(pn->in.v[x->in_at + j]);
        }
    }
#undef PUSH
    for (uint32_t c = 0; c < n; c++)
        alone += mark[c] == 2;
    free(mark);
    free(stack);
    return alone >= PN_GOAL_SPLIT_MIN && alone >= PN_GOAL_SPLIT * n;
}

/* Splits pn's goals off into goals. */
static void split_goals(Propnet *pn, Propnet *goals)
{
    pn_copy(goals, pn);
    for (uint32_t k = 0; k < goals->roles.n; k++)
        goals->roles.v[k].legal.n = 0;
    for (uint32_t b = 0; b < goals->base.n; b++)
        goals->base.v[b].next = PN_NONE;
    goals->terminal = PN_NONE;
    /* the bases stay as they are: not fixed again without their nexts */
    pn_optimise(goals, PN_OPT_ENGINE & ~PN_OPT_FIXED_BASE);
    for (uint32_t k = 0; k < pn->roles.n; k++)
        pn->roles.v[k].goals.n = 0;
    pn_optimise(pn, PN_OPT_ENGINE & ~PN_OPT_FIXED_BASE);
}

/* Sets the drain of p and its networks (rt_pn_set_ordered). */
static void set_ordered_all(Pn *p, bool on)
{
    rt_pn_set_ordered(p, on);
    if (p->goalnet)
        rt_pn_set_ordered(p->goalnet, on);
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        rt_pn_set_ordered(p->ph.net[i], on);
}

/* Drains in topological order when a sample of random play works at
 * least 5% less so. A unit of work told that way once cost about 1.4
 * times one told from the queue, and the bar was a third less work; since
 * the queue's drain lost its branches, the two cost about the same
 * (pinned, alternating, 2 s cells, ordered against queued: hex, whose work
 * the order cuts by 8%, 1.09x; Amazons 10x10, 9%, 1.05-1.16x; checkers,
 * 8% more, 0.89x; Connect Four, 20% more, 0.86x; chess_200, 26% less,
 * 0.99x, the one game that still pays 1.35 per unit). */
static void choose_order(Pn *p, uint8_t drain)
{
    if (drain == PN_DRAIN_QUEUED)
        return;
    set_ordered_all(p, true);
    if (drain == PN_DRAIN_ORDERED || !rt_pn_ordered(p))
        return; /* forced, or no network it plays is without cycles: no sample */
    set_ordered_all(p, false);
    uint64_t queued = sample_work(p);
    set_ordered_all(p, true);
    uint64_t ordered = sample_work(p);
    if (!(ordered * 20 < queued * 19))
        set_ordered_all(p, false);
}

/* The tables of pn, a new engine. */
static Pn *pn_flat(const Propnet *pn, GtStore *store, RtControl *ctl, bool bypass)
{
    Pn *p = base_xcalloc(1, sizeof *p);
    p->store = store;
    p->ctl = ctl;
    p->bypass = bypass;
    flatten(p, pn);
    return p;
}

/* The network of game as tables (NULL with *err and ctl->create_status). */
static Pn *pn_make(const GdlGame *game, const PnArgs *a, GtStore *store, RtControl *ctl, char **err)
{
    /* ground, propnet, optimise (pipeline.h), in the machine's store: its
     * symbol table is a copy of the game's, id for id */
    Propnet pn;
    char *why = NULL;
    if (!cp_propnet(&game->front.ir, &a->lim, store, PN_OPT_ENGINE | (a->condensed ? PN_OPT_CONDENSE_ALWAYS : 0), &pn,
                    NULL, &why)) {
        ctl->create_status = GDL_LIMIT;
        bool budget = why && strncmp(why, "grounding stopped", 17) == 0;
        *err = base_sprintf("%s%s; engine jit plays it", budget ? "" : "engine pn: ", why ? why : "no network");
        free(why);
        pn_free(&pn);
        return NULL;
    }
    if (pn.comps.n >= PN_MAX_COMPS) {
        ctl->create_status = GDL_LIMIT;
        *err = base_sprintf("engine pn: %u components, more than it numbers; engine jit plays it", pn.comps.n);
        pn_free(&pn);
        return NULL;
    }
    Pn *p = pn_flat(&pn, store, ctl, !a->compiled);
    if (!a->whole && goals_alone(&pn)) {
        /* kept when a sample of random play works less */
        Propnet play, goals;
        pn_copy(&play, &pn);
        split_goals(&play, &goals);
        Pn *q = pn_flat(&play, store, ctl, !a->compiled), *g = q->goalnet = pn_flat(&goals, store, ctl, !a->compiled);
        pn_free(&goals);
        free(g->made_own.on);
        g->made_own.on = NULL;
        g->made = q->made; /* the same bases, numbered alike */
        uint64_t whole = sample_work(p), apart = sample_work(q);
        if (apart * 5 < whole * 4) {
            rt_pn_destroy(p);
            p = q;
            pn_free(&pn);
            pn = play;
        } else {
            rt_pn_destroy(q);
            pn_free(&play);
        }
    }
    if (!a->no_phases)
        make_phases(p, &pn);
    if (!a->compiled) /* compiled code keeps the queue */
        choose_order(p, a->drain);
    pn_free(&pn);
    return p;
}

/* The C of p's propagation (pncg.h), or NULL past the budget, or for a
 * network whose NOTs were bypassed (pncg knows no inverted links; the
 * callers make theirs with bypass off). */
static char *pn_code(const Pn *p, size_t max_lines, size_t *len, size_t *lines)
{
    if (p->bypass)
        return NULL;
    uint8_t *flags = base_xcalloc(p->n + 1, 1);
    for (uint32_t c = 0; c < p->n; c++)
        flags[c] = p->g[c].flags & PN_F_CYCLIC ? PNCG_F_CYCLIC : 0;
    uint32_t nout = p->plain.at[p->n];
    uint32_t *out = base_xmalloc((nout + 1) * sizeof *out); /* the links without PN_E_SPEC, PN_E_BIT */
    for (uint32_t o = 0; o < nout; o++)
        out[o] = p->plain.out[o] & ~(PN_E_SPEC | PN_E_BIT);
    PncgNet net = {
        .lb_at = p->watch_at,
        .lb = p->watch,
        .n = p->n,
        .out_at = p->plain.at,
        .out = out,
        .flags = flags,
        .nw_at = p->nw_at,
        .nw = p->nw,
        .order = p->order,
        .gate_size = (uint32_t)sizeof(PnGate),
        .val_offset = (uint32_t)offsetof(PnGate, val),
    };
    char *code = pncg_emit(&net, max_lines, len, lines);
    free(flags);
    free(out);
    return code;
}

/* Compiles q's propagation: by libtcc, or by the system compiler (cc),
 * when its code fits the budget (else q keeps the tables, as plain pn).
 * False with *err when the compiler fails. */
static bool compile_net(Pn *q, const GdlGame *game, const PnArgs *a, char **err)
{
    size_t len = 0, lines = 0;
    char *code = pn_code(q, a->max_lines, &len, &lines);
    if (!code)
        return true;
    if (a->cc) {
        q->dl = rt_cc_network(game, code, len, NULL, err);
        q->ctell = q->dl ? dlsym(q->dl, "pncg_tell") : NULL;
    } else {
        q->jit = rt_jit_compile(game->front.src->name, code, NULL, 0, q->ctl, err);
        q->ctell = q->jit ? rt_jit_symbol(q->jit, "pncg_tell") : NULL;
    }
    free(code);
    if (!q->ctell) {
        if (!*err)
            *err = base_xstrdup("engine pn: the compiled propagation has no table pncg_tell");
        return false;
    }
    q->cx = (PncgCtx){q->ctr, (uint8_t *)q->g, q->next_on, q->legal_on, q, rt_pn_host_queue, rt_pn_host_dirty};
    return true;
}

void *rt_pn_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    PnArgs a;
    char *why = NULL;
    if (!pn_args(arg, &a, &why)) {
        ctl->create_status = GDL_BAD_ARGUMENT;
        *err = base_sprintf("engine pn: %s", why ? why : "a bad budget");
        free(why);
        return NULL;
    }
    Pn *p = pn_make(game, &a, store, ctl, err);
    if (!p || !a.compiled)
        return p;
    /* pn:compiled: the propagation compiled, each phase's when it has
     * phases (the general network then answers the states of none, from
     * its tables) */
    bool ok = true;
    if (p->ph.nphase)
        for (uint32_t i = 0; ok && i < p->ph.nphase; i++)
            ok = compile_net(p->ph.net[i], game, &a, err);
    else
        ok = compile_net(p, game, &a, err);
    if (!ok) {
        rt_pn_destroy(p);
        return NULL;
    }
    return p;
}

char *rt_pn_c(const GdlGame *game, const char *arg, size_t *len, char **err)
{
    PnArgs a;
    char *why = NULL;
    if (!pn_args(arg, &a, &why)) {
        *err = base_sprintf("engine pn: %s", why ? why : "a bad budget");
        free(why);
        return NULL;
    }
    Symtab syms;
    symtab_init(&syms);
    const Symtab *gs = &game->front.syms;
    for (uint32_t i = 0; i < gs->n; i++)
        symtab_intern(&syms, gs->str[i], gs->len[i]);
    GtStore store;
    gt_init(&store, &syms);
    RtControl ctl = {0};
    a.no_phases = true; /* the general network's code */
    a.compiled = true;  /* its NOTs kept (bypass_nots) */
    Pn *p = pn_make(game, &a, &store, &ctl, err);
    char *code = NULL;
    if (p) {
        size_t lines = 0;
        code = pn_code(p, a.max_lines, len, &lines);
        if (!code)
            *err = base_sprintf("the compiled propagation would take about %zu lines, more than the budget of %zu "
                                "(max-lines=N)",
                                lines, a.max_lines ? a.max_lines : (size_t)PNCG_DEFAULT_MAX_LINES);
        rt_pn_destroy(p);
    }
    gt_free(&store);
    symtab_free(&syms);
    return code;
}

uint32_t rt_pn_phases(const void *e) { return ((const Pn *)e)->ph.nphase; }

bool rt_pn_goals_apart(const void *e) { return ((const Pn *)e)->goalnet != NULL; }

bool rt_pn_ordered(const void *e)
{
    const Pn *p = e;
    for (uint32_t i = 0; i < p->ph.nphase; i++) /* in phases, the phases' networks play */
        if (p->ph.net[i]->ordered)
            return true;
    return !p->ph.nphase && p->ordered;
}

void rt_pn_strict(void *e)
{
    Pn *p = e;
    p->strict = true;
    for (uint32_t i = 0; i < p->ph.nphase; i++)
        p->ph.net[i]->strict = true;
    if (p->goalnet)
        p->goalnet->strict = true;
}

