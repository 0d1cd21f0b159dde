/*
 * pnopt.c: the optimisations of a propositional network.
 *
 * Each pass is a function that edits the network in place, then hands
 * compact() a replacement per component: itself (kept), another component
 * (every reader of it reads that one instead; marks move too) or PN_NONE
 * (removed: nothing kept reads it). compact() renumbers what is kept in
 * its old order, maps every input through the replacements, sorts and
 * deduplicates the inputs of ANDs and ORs, rebuilds the out lists and the
 * marks. pn_optimise runs the passes asked for in a fixed order until a
 * round changes nothing, adding what each removed to its line in
 * pn->passes.
 *
 * The passes:
 *  - constant propagation: two least fixpoints over the components in
 *    SCC order (pn_sccs), "can be true" with every base and input free
 *    and "is always true" with every base and input false; both are sound
 *    on cycles (a cycle without support outside it is never true). A gate
 *    that cannot be true is the constant 0, one always true the constant 1;
 *    constant inputs are dropped from the gates that stay (an AND forgets
 *    its 1s, an OR its 0s). A constant nothing reads and the engine does
 *    not read is removed. `init` does not make a base constant: only the
 *    fixed-base pass does that, once it has proved the base never changes.
 *  - unused components: what reaches no legal, goal, terminal or next is
 *    removed; bases and inputs are kept (the engine maps states and moves
 *    to them).
 *  - single-input gates: an AND or OR of one input is replaced by its
 *    input. A named gate gives its name to an unnamed input; when both are
 *    named the gate's name becomes an alias of the input (aliases[]), so
 *    that every sentence stays findable.
 *  - structural hashing: gates of the same kind and the same input set are
 *    one; an unnamed one gives way to its twin, a named one to an unnamed
 *    twin (taking its place), and of two named ones the later becomes an
 *    alias of the earlier.
 *  - fixed bases: a base whose next is itself (through gates of one
 *    input), or is a constant equal to its init value, or is never made and
 *    its init false, can never change: it becomes a constant of its init
 *    value (and stays in base[], its next itself). The pass then propagates
 *    those constants, and counts what that removed as its own.
 *  - factoring (PN_OPT_FACTOR, engine pn's): an OR of ANDs sharing an
 *    input becomes the AND of that input and the OR of the rests (below).
 *  - input complement (PN_OPT_INPUT_COMPLEMENT, engine pn's only): an OR
 *    of most of a role's moves, read directly or through a tree of ORs,
 *    becomes the NOT of the OR of the others; sound only where one legal
 *    move per role is played (below).
 * Both add gates: they append them, relink the network and let compact()
 * drop what they absorbed.
 */
#include <string.h>

#include "propnet.h"

static uint32_t find(uint32_t *repl, uint32_t c)
{
    uint32_t r = c;
    while (repl[r] != r && repl[r] != PN_NONE)
        r = repl[r];
    while (repl[c] != c && repl[c] != PN_NONE) {
        uint32_t next = repl[c];
        repl[c] = r;
        c = next;
    }
    return r;
}

static uint32_t *identity(uint32_t n)
{
    uint32_t *repl = base_xmalloc((n + 1) * sizeof *repl);
    for (uint32_t c = 0; c < n; c++)
        repl[c] = c;
    return repl;
}

/* What the engine reads: bases, inputs, nexts, legals, goals, terminal. */
static bool *marked(const Propnet *pn)
{
    bool *m = base_xcalloc(pn->comps.n + 1, sizeof *m);
    for (uint32_t i = 0; i < pn->base.n; i++) {
        m[pn->base.v[i].comp] = true;
        if (pn->base.v[i].next != PN_NONE)
            m[pn->base.v[i].next] = true;
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++)
        m[pn->inputs.v[i].comp] = true;
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
            m[pn->roles.v[k].legal.v[i].comp] = true;
        for (uint32_t i = 0; i < pn->roles.v[k].goals.n; i++)
            m[pn->roles.v[k].goals.v[i].comp] = true;
    }
    if (pn->terminal != PN_NONE)
        m[pn->terminal] = true;
    return m;
}

static void sort_unique(uint32_t *v, uint32_t *n)
{
    if (*n < 2)
        return;
    base_sort_u32(v, *n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < *n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    *n = k;
}

/* Applies the replacements (consumed) and renumbers; when the pass changed
 * nothing, only frees them. */
static void compact(Propnet *pn, uint32_t *repl, bool changed)
{
    if (!changed) {
        free(repl);
        return;
    }
    uint32_t n = pn->comps.n;
    uint32_t *newid = base_xmalloc((n + 1) * sizeof *newid);
    uint32_t m = 0;
    for (uint32_t c = 0; c < n; c++)
        newid[c] = repl[c] == c ? m++ : PN_NONE;
    VEC(uint64_t) edges = {0};
    U32Vec ins = {0};
    PnComp *comps = base_xmalloc((m + 1) * sizeof *comps);
    for (uint32_t c = 0; c < n; c++) {
        if (newid[c] == PN_NONE)
            continue;
        PnComp x = pn->comps.v[c];
        ins.n = 0;
        for (uint32_t i = 0; i < x.nin; i++) {
            uint32_t d = newid[find(repl, pn->in.v[x.in_at + i])];
            if (d != PN_NONE) /* never: a pass removes only what nothing kept reads */
                vec_push(ins, d);
        }
        if (x.kind == PN_AND || x.kind == PN_OR)
            sort_unique(ins.v, &ins.n);
        for (uint32_t i = 0; i < ins.n; i++)
            vec_push(edges, ((uint64_t)newid[c] << 32) | ins.v[i]);
        comps[newid[c]] = x;
    }
    free(pn->comps.v);
    pn->comps.v = comps;
    pn->comps.n = pn->comps.cap = m;
    pn_relink(pn, edges.v, edges.n);
    vec_free(edges);
    vec_free(ins);
    uint32_t *map = base_xmalloc((n + 1) * sizeof *map); /* each component to what replaced it, renumbered */
    for (uint32_t c = 0; c < n; c++)
        map[c] = newid[find(repl, c)];
    pn_remap_marks(pn, map);
    free(map);
    free(newid);
    free(repl);
}

static bool is_gate(uint8_t kind) { return kind == PN_AND || kind == PN_OR || kind == PN_NOT; }

/* ---- constant propagation ---------------------------------------------- */

static bool fold(Propnet *pn)
{
    uint32_t n = pn->comps.n;
    U32Vec order = {0}, at = {0};
    uint32_t nsccs = pn_sccs(pn, &order, &at);
    uint32_t *scc = base_xmalloc((n + 1) * sizeof *scc);
    for (uint32_t s = 0; s < nsccs; s++)
        for (uint32_t i = at.v[s]; i < at.v[s + 1]; i++)
            scc[order.v[i]] = s;
    uint8_t *poss = base_xcalloc(n + 1, 1), *cert = base_xcalloc(n + 1, 1);
    for (uint32_t s = 0; s < nsccs; s++) {
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = at.v[s]; i < at.v[s + 1]; i++) {
                uint32_t c = order.v[i];
                const PnComp *x = &pn->comps.v[c];
                const uint32_t *in = u32_at(&pn->in, x->in_at);
                uint8_t p = 0, t = 0;
                switch (x->kind) {
                case PN_CONST:
                    p = t = x->const_value;
                    break;
                case PN_BASE:
                case PN_INPUT:
                    p = 1;
                    break;
                case PN_AND:
                    p = t = 1;
                    for (uint32_t j = 0; j < x->nin; j++)
                        p &= poss[in[j]], t &= cert[in[j]];
                    break;
                case PN_OR:
                    for (uint32_t j = 0; j < x->nin; j++)
                        p |= poss[in[j]], t |= cert[in[j]];
                    break;
                case PN_NOT:
                    /* stratified: the input is settled, unless a NOT sits
                     * in a cycle, which is then left alone */
                    if (x->nin == 1 && scc[in[0]] != s)
                        p = !cert[in[0]], t = !poss[in[0]];
                    else
                        p = 1;
                    break;
                }
                if (p != poss[c] || t != cert[c]) {
                    poss[c] = p, cert[c] = t;
                    changed = true;
                }
            }
        }
    }
    bool changed = false;
    for (uint32_t c = 0; c < n; c++) {
        PnComp *x = &pn->comps.v[c];
        if (!is_gate(x->kind))
            continue;
        if (!poss[c] || cert[c]) {
            x->kind = PN_CONST;
            x->const_value = cert[c];
            x->nin = 0;
            changed = true;
            continue;
        }
        uint32_t *in = u32_at(&pn->in, x->in_at), k = 0;
        for (uint32_t j = 0; j < x->nin; j++)
            if (!(x->kind == PN_AND && cert[in[j]]) && !(x->kind == PN_OR && !poss[in[j]]))
                in[k++] = in[j];
        changed |= k != x->nin;
        x->nin = k;
    }
    bool *m = marked(pn);
    uint32_t *repl = identity(n);
    for (uint32_t c = 0; c < n; c++)
        if (pn->comps.v[c].kind == PN_CONST && !m[c]) {
            repl[c] = PN_NONE;
            changed = true;
        }
    compact(pn, repl, changed);
    free(m);
    free(poss);
    free(cert);
    free(scc);
    vec_free(order);
    vec_free(at);
    return changed;
}

/* ---- unused components ------------------------------------------------- */

static bool unused(Propnet *pn)
{
    uint32_t n = pn->comps.n;
    bool *keep = marked(pn);
    U32Vec stack = {0};
    for (uint32_t c = 0; c < n; c++)
        if (keep[c])
            vec_push(stack, c);
    while (stack.n) {
        const PnComp *x = &pn->comps.v[stack.v[--stack.n]];
        for (uint32_t j = 0; j < x->nin; j++) {
            uint32_t d = pn->in.v[x->in_at + j];
            if (!keep[d]) {
                keep[d] = true;
                vec_push(stack, d);
            }
        }
    }
    vec_free(stack);
    uint32_t *repl = identity(n);
    bool changed = false;
    for (uint32_t c = 0; c < n; c++)
        if (!keep[c]) {
            repl[c] = PN_NONE;
            changed = true;
        }
    free(keep);
    compact(pn, repl, changed);
    return changed;
}

/* ---- single-input gates ------------------------------------------------ */

static bool single(Propnet *pn)
{
    uint32_t n = pn->comps.n;
    uint32_t *repl = identity(n);
    bool changed = false;
    for (uint32_t c = 0; c < n; c++) {
        PnComp *x = &pn->comps.v[c];
        if ((x->kind != PN_AND && x->kind != PN_OR) || x->nin != 1)
            continue;
        uint32_t d = find(repl, pn->in.v[x->in_at]);
        if (d == c)
            continue; /* a gate reading only itself: constant propagation's */
        PnComp *y = &pn->comps.v[d];
        if (x->name != BASE_NONE && y->name == BASE_NONE)
            y->name = x->name;
        else if (x->name != BASE_NONE)
            vec_push(pn->aliases, ((PnAlias){x->name, c}));
        x->name = BASE_NONE;
        repl[c] = d;
        changed = true;
    }
    compact(pn, repl, changed);
    return changed;
}

/* ---- structural hashing ------------------------------------------------ */

static bool hashing(Propnet *pn)
{
    uint32_t n = pn->comps.n;
    U32Vec order = {0}, at = {0};
    pn_sccs(pn, &order, &at);
    uint32_t *repl = identity(n);
    uint32_t *key_at = base_xmalloc((n + 1) * sizeof *key_at), *key_n = base_xcalloc(n + 1, sizeof *key_n);
    U32Vec keys = {0};
    uint32_t nslots = 16;
    while (nslots < 2 * n)
        nslots *= 2;
    uint32_t *slots = base_xmalloc(nslots * sizeof *slots);
    for (uint32_t i = 0; i < nslots; i++)
        slots[i] = PN_NONE;
    bool changed = false;
    for (uint32_t i = 0; i < order.n; i++) {
        uint32_t c = order.v[i];
        PnComp *x = &pn->comps.v[c];
        if (!is_gate(x->kind))
            continue;
        key_at[c] = keys.n;
        for (uint32_t j = 0; j < x->nin; j++)
            vec_push(keys, find(repl, pn->in.v[x->in_at + j]));
        key_n[c] = x->nin;
        const uint32_t *key = u32_at(&keys, key_at[c]); /* NULL while keys is empty */
        if (x->kind != PN_NOT && key_n[c]) {
            sort_unique(keys.v + key_at[c], &key_n[c]);
            keys.n = key_at[c] + key_n[c];
        }
        uint64_t h = base_hash_bytes(key, key_n[c] * sizeof(uint32_t), x->kind);
        uint32_t s = (uint32_t)h & (nslots - 1);
        for (;; s = (s + 1) & (nslots - 1)) {
            uint32_t e = slots[s];
            if (e == PN_NONE) {
                slots[s] = c;
                break;
            }
            const PnComp *y = &pn->comps.v[e];
            if (y->kind != x->kind || key_n[e] != key_n[c] ||
                (key_n[c] && memcmp(keys.v + key_at[e], keys.v + key_at[c], key_n[c] * sizeof(uint32_t)) != 0))
                continue;
            if (x->name != BASE_NONE && y->name == BASE_NONE) {
                repl[e] = c; /* the named twin stays */
                slots[s] = c;
            } else {
                if (x->name != BASE_NONE)
                    vec_push(pn->aliases, ((PnAlias){x->name, c}));
                repl[c] = e;
            }
            changed = true;
            break;
        }
    }
    compact(pn, repl, changed);
    free(slots);
    free(key_at);
    free(key_n);
    vec_free(keys);
    vec_free(order);
    vec_free(at);
    return changed;
}

/* ---- fixed bases ------------------------------------------------------- */

static bool fixed(Propnet *pn)
{
    bool any = false;
    for (uint32_t i = 0; i < pn->base.n; i++) {
        PnBase *b = &pn->base.v[i];
        PnComp *x = &pn->comps.v[b->comp];
        if (x->kind != PN_BASE)
            continue;
        uint32_t nx = b->next;
        while (nx != PN_NONE && (pn->comps.v[nx].kind == PN_AND || pn->comps.v[nx].kind == PN_OR) &&
               pn->comps.v[nx].nin == 1)
            nx = pn->in.v[pn->comps.v[nx].in_at];
        bool fix = nx == b->comp || (nx == PN_NONE && !b->init) ||
                   (nx != PN_NONE && pn->comps.v[nx].kind == PN_CONST && pn->comps.v[nx].const_value == b->init);
        if (!fix)
            continue;
        x->kind = PN_CONST;
        x->const_value = b->init;
        b->next = b->comp;
        any = true;
    }
    if (any)
        fold(pn);
    return any;
}

/* ---- rewriting inputs: shared by factoring and input complement ------------ */

/* A pass that rewrites some gates' inputs and adds gates: per component an
 * override of its input list (the ones not overridden keep theirs), gates
 * appended at the end, and ANDs absorbed (nothing reads them any more). */
typedef struct Rewrite {
    uint32_t n0;         /* components before the pass */
    U32Vec *ins;         /* per component (n0 of them): its new inputs when over[c] */
    uint8_t *over;       /* per component of the first n0 */
    uint8_t *gone;       /* per component of the first n0: absorbed */
    VEC(uint64_t) extra; /* the inputs of the gates added: (to << 32) | from */
} Rewrite;

static void rw_init(Rewrite *w, const Propnet *pn)
{
    memset(w, 0, sizeof *w);
    w->n0 = pn->comps.n;
    w->ins = base_xcalloc(w->n0 + 1, sizeof *w->ins);
    w->over = base_xcalloc(w->n0 + 1, 1);
    w->gone = base_xcalloc(w->n0 + 1, 1);
}

/* A new gate (unnamed) of kind with inputs in[0 .. nin). */
static uint32_t rw_gate(Rewrite *w, Propnet *pn, PnKind kind, const uint32_t *in, uint32_t nin)
{
    PnComp x = {(uint8_t)kind, 0, 0, 0, 0, 0, BASE_NONE, PN_NONE};
    vec_push(pn->comps, x);
    uint32_t c = pn->comps.n - 1;
    for (uint32_t i = 0; i < nin; i++)
        vec_push(w->extra, ((uint64_t)c << 32) | in[i]);
    return c;
}

/* Component c's inputs now (its override, or the network's). */
static const uint32_t *rw_in(const Rewrite *w, const Propnet *pn, uint32_t c, uint32_t *nin)
{
    if (c < w->n0 && w->over[c]) {
        *nin = w->ins[c].n;
        return w->ins[c].v;
    }
    *nin = pn->comps.v[c].nin;
    return u32_at(&pn->in, pn->comps.v[c].in_at);
}

static void rw_set(Rewrite *w, uint32_t c, const uint32_t *in, uint32_t nin)
{
    U32Vec tmp = {0};
    for (uint32_t i = 0; i < nin; i++)
        vec_push(tmp, in[i]); /* in may be w->ins[c] itself */
    vec_free(w->ins[c]);
    w->ins[c] = tmp;
    w->over[c] = 1;
}

/* Relinks the network and drops what was absorbed; true when anything changed. */
static bool rw_finish(Rewrite *w, Propnet *pn, bool changed)
{
    if (changed) {
        VEC(uint64_t) edges = {0};
        for (uint32_t c = 0; c < w->n0; c++) {
            if (w->gone[c])
                continue;
            uint32_t nin;
            const uint32_t *in = rw_in(w, pn, c, &nin);
            for (uint32_t i = 0; i < nin; i++)
                vec_push(edges, ((uint64_t)c << 32) | in[i]);
        }
        for (uint32_t i = 0; i < w->extra.n; i++)
            vec_push(edges, w->extra.v[i]);
        for (uint32_t c = 0; c < w->n0; c++) /* gone: no inputs */
            if (w->gone[c])
                pn->comps.v[c].nin = 0;
        pn_relink(pn, edges.v, edges.n);
        vec_free(edges);
        uint32_t *repl = identity(pn->comps.n);
        for (uint32_t c = 0; c < w->n0; c++)
            if (w->gone[c])
                repl[c] = PN_NONE;
        compact(pn, repl, true);
    }
    for (uint32_t c = 0; c < w->n0; c++)
        vec_free(w->ins[c]);
    free(w->ins);
    free(w->over);
    free(w->gone);
    vec_free(w->extra);
    return changed;
}

/* ---- factoring --------------------------------------------------------- */

/* OR(AND(a, x1...), AND(a, y1...), ..., rest) = OR(AND(a, OR(AND(x1...),
 * AND(y1...), ...)), rest): exact, and a change of a then visits one gate
 * instead of one per AND. Only ANDs that this OR alone reads, that carry no
 * name and that the engine does not read are absorbed (an AND of two
 * inputs disappears, its other input read by the new OR; a wider one loses
 * a and is read by the new OR). The common input shared by the most ANDs
 * is taken first, then the next among the ANDs left, while two or more
 * share one. A group is factored only when it removes AND links (two ANDs
 * of three inputs or more would not), so that the optimiser's fixpoint
 * ends. On cycles (least fixpoints) the identity holds as well: the new
 * gates are definitions in terms of the old ones. */
static bool factor(Propnet *pn)
{
    Rewrite w;
    rw_init(&w, pn);
    uint32_t n0 = w.n0;
    bool *m = marked(pn);
    uint32_t *cnt = base_xcalloc(n0 + 1, sizeof *cnt);
    U32Vec elig = {0}, touched = {0}, group = {0}, rest = {0}, keep = {0};
    bool changed = false;
    for (uint32_t c = 0; c < n0; c++) {
        if (pn->comps.v[c].kind != PN_OR || pn->comps.v[c].nin < 2)
            continue;
        elig.n = 0;
        const uint32_t *cin = u32_at(&pn->in, pn->comps.v[c].in_at);
        for (uint32_t i = 0; i < pn->comps.v[c].nin; i++) {
            uint32_t d = cin[i];
            const PnComp *y = &pn->comps.v[d];
            if (d != c && y->kind == PN_AND && y->nin >= 2 && y->nout == 1 && y->name == BASE_NONE && !m[d])
                vec_push(elig, d);
        }
        while (elig.n >= 2) {
            touched.n = 0;
            for (uint32_t i = 0; i < elig.n; i++) {
                const PnComp *y = &pn->comps.v[elig.v[i]];
                for (uint32_t j = 0; j < y->nin; j++) {
                    uint32_t x = pn->in.v[y->in_at + j];
                    if (x != c && cnt[x]++ == 0)
                        vec_push(touched, x);
                }
            }
            uint32_t best = PN_NONE;
            for (uint32_t i = 0; i < touched.n; i++) {
                uint32_t x = touched.v[i];
                if (cnt[x] >= 2 && (best == PN_NONE || cnt[x] > cnt[best] || (cnt[x] == cnt[best] && x < best)))
                    best = x;
            }
            uint32_t k = best == PN_NONE ? 0 : cnt[best];
            for (uint32_t i = 0; i < touched.n; i++)
                cnt[touched.v[i]] = 0;
            if (best == PN_NONE)
                break;
            /* the group: the eligible ANDs reading best */
            group.n = keep.n = 0;
            uint32_t k2 = 0;
            for (uint32_t i = 0; i < elig.n; i++) {
                const PnComp *y = &pn->comps.v[elig.v[i]];
                bool has = false;
                for (uint32_t j = 0; j < y->nin && !has; j++)
                    has = pn->in.v[y->in_at + j] == best;
                if (has) {
                    vec_push(group, elig.v[i]);
                    k2 += y->nin == 2;
                } else
                    vec_push(keep, elig.v[i]);
            }
            elig.n = 0;
            for (uint32_t i = 0; i < keep.n; i++)
                vec_push(elig, keep.v[i]);
            if (k < 3 && k2 == 0)
                continue; /* would not remove a link */
            /* the rests, read by a new OR */
            rest.n = 0;
            for (uint32_t i = 0; i < group.n; i++) {
                uint32_t d = group.v[i];
                const PnComp *y = &pn->comps.v[d];
                if (y->nin == 2) {
                    uint32_t a = pn->in.v[y->in_at], b = pn->in.v[y->in_at + 1];
                    vec_push(rest, a == best ? b : a);
                    w.gone[d] = 1;
                } else {
                    U32Vec r = {0};
                    for (uint32_t j = 0; j < y->nin; j++)
                        if (pn->in.v[y->in_at + j] != best)
                            vec_push(r, pn->in.v[y->in_at + j]);
                    rw_set(&w, d, r.v, r.n);
                    vec_free(r);
                    vec_push(rest, d);
                }
            }
            uint32_t o = rw_gate(&w, pn, PN_OR, rest.v, rest.n);
            uint32_t pair[2] = {best, o};
            uint32_t a = rw_gate(&w, pn, PN_AND, pair, 2);
            /* c reads a instead of the group */
            uint32_t nin;
            const uint32_t *in = rw_in(&w, pn, c, &nin);
            U32Vec now = {0};
            for (uint32_t i = 0; i < nin; i++) {
                bool in_group = false;
                for (uint32_t j = 0; j < group.n && !in_group; j++)
                    in_group = group.v[j] == in[i];
                if (!in_group)
                    vec_push(now, in[i]);
            }
            vec_push(now, a);
            rw_set(&w, c, now.v, now.n);
            vec_free(now);
            changed = true;
        }
    }
    free(m);
    free(cnt);
    vec_free(elig);
    vec_free(touched);
    vec_free(group);
    vec_free(rest);
    vec_free(keep);
    return rw_finish(&w, pn, changed);
}

/* ---- input complement ---------------------------------------------------- */

/* Only for an evaluator that sets exactly one input of every role, one of
 * the role's legal moves, before it reads anything that depends on inputs
 * (engine pn: the API checks every joint move against the legal moves the
 * engine gave, and GDL forbids legal, goal, terminal and init to depend on
 * does, so only next cones read inputs). Then, for a role whose possible
 * inputs are R (the inputs of its legal sentences), an OR reading a set S
 * of them is OR(S) = NOT(OR(R \ S)), and an input of no legal sentence is
 * always false. An OR reading most of a role's inputs is rewritten so,
 * when R \ S weighs at most (S - 2) / 2: a change of move then visits the
 * gates of the few moves outside S instead of the many inside. The weight
 * guesses how often a move is played: a move legal by one fact or none, or
 * an OR of such (the noop of a turn-taking game, played every other turn:
 * Reversi's is legal when the other role has control or when the role has
 * no move) weighs as much as all the role's others together, any other
 * move 1; without it a frame rule "the cell keeps its piece unless the move touches it" would
 * read noop in the complement of every cell, flipping them all each turn
 * (Breakthrough: 64% more instructions than factoring alone). ANDs and
 * NOTs reading an impossible input become constants, ORs drop it. The
 * moves an OR reads include those of the trees of ORs mostly of moves it
 * reads (of_moves), which it then reads apart (complement_gate). */
/* Is an OR reading inputs of weight s among a role's weight r worth
 * rewriting: would the moves outside weigh at most (s - 2) / 2? */
static bool worth(uint64_t s, uint64_t r) { return s >= 3 && 2 * (r - s) + 2 <= s; }

/* The tree of ORs under an OR (its members not rewritten in this pass,
 * PN_TREE_DEPTH deep at most): or_leaves gathers the moves at its leaves
 * (with repeats) and its other leaves, and fails when the tree reads root
 * (a cycle), passes PN_TREE_LEAVES leaves, or the pass has walked its
 * budget of leaves (*budget: a few times the network's links, so that the
 * pass stays linear whatever the trees share); of_moves also fails when d
 * is no OR or its other leaves outnumber its moves. Checkers' frame "the
 * cell keeps its piece" reads one OR per kind of move (a step, a double, a
 * triple jump), which read "a step from u v to x y", the OR of a man's and
 * a king's. */
#define PN_TREE_DEPTH 4
#define PN_TREE_LEAVES 4096

static bool or_leaves(const Propnet *pn, const Rewrite *w, uint32_t root, uint32_t d, int depth, U32Vec *moves,
                      U32Vec *others, uint64_t *budget)
{
    const PnComp *x = &pn->comps.v[d];
    const uint32_t *in = u32_at(&pn->in, x->in_at);
    for (uint32_t i = 0; i < x->nin; i++) {
        uint32_t e = in[i];
        uint8_t k = pn->comps.v[e].kind;
        if (e == root || moves->n + others->n >= PN_TREE_LEAVES || !*budget)
            return false;
        --*budget;
        if (k == PN_INPUT)
            vec_push(*moves, e);
        else if (k == PN_OR && depth > 1 && e < w->n0 && !w->over[e]) {
            if (!or_leaves(pn, w, root, e, depth - 1, moves, others, budget))
                return false;
        } else
            vec_push(*others, e);
    }
    return true;
}

/* d, read by the OR root: a tree of ORs mostly of moves (or_leaves)? */
static bool of_moves(const Propnet *pn, const Rewrite *w, uint32_t root, uint32_t d, U32Vec *moves,
                     U32Vec *others, uint64_t *budget)
{
    moves->n = others->n = 0;
    if (d >= w->n0 || pn->comps.v[d].kind != PN_OR || w->over[d] || d == root)
        return false;
    return or_leaves(pn, w, root, d, PN_TREE_DEPTH, moves, others, budget) && moves->n && moves->n >= others->n;
}

static void push_once(U32Vec *v, uint8_t *seen, uint32_t c)
{
    if (!seen[c]) {
        seen[c] = 1;
        vec_push(*v, c);
    }
}

/* The state of the input complement pass (complement) over one network. */
typedef struct Compl {
    Propnet *pn;
    Rewrite w;
    uint32_t nroles;
    uint32_t *role_of;  /* per input component: its role, PN_NONE when never legal (or no input) */
    U32Vec *poss;       /* per role: its possible inputs (R) */
    uint64_t *weight;   /* per input: how often it is guessed to be played */
    uint64_t *wall;     /* per role: the weight of R */
    uint64_t *ns;       /* per role: the weight of S, the moves the gate reads */
    uint8_t *inw;       /* per role: rewritten (in W) */
    uint8_t *in_s;      /* per component: a move in S */
    uint8_t *seen;      /* per component: read by the gate's new inputs already */
    uint64_t budget;    /* leaves of trees still to walk (or_leaves) */
    U32Vec now, k_set, touched, tm, to;
    U32Vec mv, ot, mv_at, ot_at, tree; /* per input of the gate: its tree's moves and other leaves */
} Compl;

/* Is input i's tree read apart under the roles in W: is each of its moves
 * of a role in W, or never made? */
static bool tree_apart(const Compl *x, uint32_t i)
{
    for (uint32_t j = x->mv_at.v[i]; j < x->mv_at.v[i + 1]; j++) {
        uint32_t r = x->role_of[x->mv.v[j]];
        if (r != PN_NONE && !x->inw[r])
            return false;
    }
    return true;
}

/* S, the moves gate c reads that the complement replaces: its possible
 * inputs, and the moves of the trees read apart under W; their weights
 * per role in ns. */
static void gather_s(Compl *x, const uint32_t *in, uint32_t nin)
{
    for (uint32_t i = 0; i < x->touched.n; i++)
        x->in_s[x->touched.v[i]] = 0;
    x->touched.n = 0;
    for (uint32_t k = 0; k < x->nroles; k++)
        x->ns[k] = 0;
    for (uint32_t i = 0; i < nin; i++) {
        const uint32_t *m = &in[i];
        uint32_t nm = 1;
        if (x->tree.v[i]) {
            if (!tree_apart(x, i))
                continue;
            m = &x->mv.v[x->mv_at.v[i]];
            nm = x->mv_at.v[i + 1] - x->mv_at.v[i];
        } else if (x->pn->comps.v[in[i]].kind != PN_INPUT)
            continue;
        for (uint32_t j = 0; j < nm; j++)
            if (x->role_of[m[j]] != PN_NONE && !x->in_s[m[j]]) {
                x->ns[x->role_of[m[j]]] += x->weight[m[j]];
                x->in_s[m[j]] = 1;
                vec_push(x->touched, m[j]);
            }
    }
}

/* Looks at gate c; true when it rewrote it. For an OR, the roles W whose
 * moves it replaces by the NOT of the OR of the others are the largest
 * set such that a role is in W exactly when the moves it reads, directly
 * or through trees read apart (each of their moves of a role in W), are
 * worth it: from every role, roles are dropped until none is. A tree with
 * a move of a role outside W stays as it is and its moves are not in S,
 * so that the gate rewritten reads no move of W but through such trees,
 * and the next pass finds nothing to rewrite (W empty: a tree kept has a
 * move of a role that would have to join W, and W was the largest). */
static bool complement_gate(Compl *x, uint32_t c)
{
    Propnet *pn = x->pn;
    PnComp *g = &pn->comps.v[c];
    const uint32_t *in = u32_at(&pn->in, g->in_at);
    uint32_t nin = g->nin;
    bool any = false, impossible = false;
    x->mv.n = x->ot.n = x->mv_at.n = x->ot_at.n = x->tree.n = 0;
    vec_push(x->mv_at, 0);
    vec_push(x->ot_at, 0);
    for (uint32_t i = 0; i < nin; i++) {
        uint32_t d = in[i];
        bool t = false;
        if (pn->comps.v[d].kind == PN_INPUT) {
            any = true;
            impossible |= x->role_of[d] == PN_NONE;
        } else if (g->kind == PN_OR && of_moves(pn, &x->w, c, d, &x->tm, &x->to, &x->budget)) {
            any = t = true;
            for (uint32_t j = 0; j < x->tm.n; j++)
                vec_push(x->mv, x->tm.v[j]);
            for (uint32_t j = 0; j < x->to.n; j++)
                vec_push(x->ot, x->to.v[j]);
        }
        vec_push(x->tree, t);
        vec_push(x->mv_at, x->mv.n);
        vec_push(x->ot_at, x->ot.n);
    }
    if (!any)
        return false;
    if (g->kind != PN_OR) {
        if (!impossible)
            return false;
        g->const_value = g->kind == PN_NOT; /* an AND of a move never made (false), the NOT of one (true) */
        g->kind = PN_CONST;
        g->nin = 0;
        return true;
    }
    bool rewrite = false;
    for (uint32_t k = 0; k < x->nroles; k++)
        x->inw[k] = 1;
    for (bool again = true; again;) {
        gather_s(x, in, nin);
        again = rewrite = false;
        for (uint32_t k = 0; k < x->nroles; k++) {
            if (x->inw[k] && !worth(x->ns[k], x->wall[k])) {
                x->inw[k] = 0;
                again = true;
            }
            rewrite |= x->inw[k];
        }
    }
    if (!rewrite && !impossible)
        return false;
    x->now.n = 0;
    for (uint32_t i = 0; i < nin; i++) {
        uint32_t d = in[i];
        if (x->tree.v[i] && tree_apart(x, i)) { /* its other leaves in its place */
            for (uint32_t j = x->ot_at.v[i]; j < x->ot_at.v[i + 1]; j++)
                push_once(&x->now, x->seen, x->ot.v[j]);
        } else if (pn->comps.v[d].kind != PN_INPUT)
            push_once(&x->now, x->seen, d);
        else if (x->role_of[d] != PN_NONE && !x->inw[x->role_of[d]])
            push_once(&x->now, x->seen, d); /* its role's moves stay as they are */
    }
    for (uint32_t i = 0; i < x->now.n; i++)
        x->seen[x->now.v[i]] = 0;
    for (uint32_t k = 0; k < x->nroles; k++) {
        if (!x->inw[k])
            continue;
        x->k_set.n = 0;
        for (uint32_t i = 0; i < x->poss[k].n; i++)
            if (!x->in_s[x->poss[k].v[i]])
                vec_push(x->k_set, x->poss[k].v[i]);
        uint32_t o = rw_gate(&x->w, pn, PN_OR, x->k_set.v, x->k_set.n);
        vec_push(x->now, rw_gate(&x->w, pn, PN_NOT, &o, 1));
    }
    rw_set(&x->w, c, x->now.v, x->now.n);
    return true;
}

static bool complement(Propnet *pn)
{
    Compl x = {0};
    x.pn = pn;
    rw_init(&x.w, pn);
    uint32_t n0 = x.w.n0, nroles = x.nroles = pn->roles.n;
    x.role_of = base_xmalloc((n0 + 1) * sizeof *x.role_of);
    for (uint32_t c = 0; c < n0; c++)
        x.role_of[c] = PN_NONE;
    x.poss = base_xcalloc(nroles + 1, sizeof *x.poss);
    uint8_t *hot = base_xcalloc(n0 + 1, 1);
    x.weight = base_xcalloc(n0 + 1, sizeof *x.weight);
    x.wall = base_xcalloc(nroles + 1, sizeof *x.wall);
    for (uint32_t k = 0; k < nroles; k++)
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++) {
            const PnLegal *l = &pn->roles.v[k].legal.v[i];
            if (l->input == PN_NONE)
                continue;
            const PnComp *lc = &pn->comps.v[l->comp];
            if (lc->kind == PN_CONST && lc->const_value == 0)
                continue; /* never legal */
            uint32_t c = pn->inputs.v[l->input].comp;
            if (pn->comps.v[c].kind == PN_INPUT && x.role_of[c] == PN_NONE) {
                x.role_of[c] = k;
                vec_push(x.poss[k], c);
                hot[c] = lc->kind != PN_AND && lc->kind != PN_OR;
                for (uint32_t j = 0; lc->kind == PN_OR && j < lc->nin; j++) {
                    uint8_t kj = pn->comps.v[pn->in.v[lc->in_at + j]].kind;
                    hot[c] |= kj == PN_BASE || kj == PN_NOT;
                }
            }
        }
    /* weights: a hot move (legal by one fact, or always: a turn-taking
     * game's noop, played whenever the role is not in control) counts as
     * often played as all the others together; any other once */
    for (uint32_t k = 0; k < nroles; k++)
        for (uint32_t i = 0; i < x.poss[k].n; i++) {
            uint32_t c = x.poss[k].v[i];
            x.weight[c] = hot[c] ? x.poss[k].n : 1;
            x.wall[k] += x.weight[c];
        }
    free(hot);
    x.in_s = base_xcalloc(n0 + 1, 1);
    x.seen = base_xcalloc(n0 + 1, 1);
    x.ns = base_xcalloc(nroles + 1, sizeof *x.ns);
    x.inw = base_xcalloc(nroles + 1, 1);
    x.budget = 16 * pn_links(pn) + 65536;
    /* ORs that an OR reads wait for the second round, so that a tree of
     * ORs is taken whole from its root before its members are looked at
     * alone (a member rewritten first would cut the tree) */
    uint8_t *member = base_xcalloc(n0 + 1, 1);
    for (uint32_t c = 0; c < n0; c++)
        if (pn->comps.v[c].kind == PN_OR)
            for (uint32_t i = 0; i < pn->comps.v[c].nin; i++) {
                uint32_t d = pn->in.v[pn->comps.v[c].in_at + i];
                member[d] |= pn->comps.v[d].kind == PN_OR;
            }
    bool changed = false;
    for (uint8_t round = 0; round < 2; round++)
        for (uint32_t c = 0; c < n0; c++)
            if (is_gate(pn->comps.v[c].kind) && member[c] == round)
                changed |= complement_gate(&x, c);
    for (uint32_t k = 0; k < nroles; k++)
        vec_free(x.poss[k]);
    free(x.poss);
    free(x.weight);
    free(x.wall);
    free(x.role_of);
    free(x.in_s);
    free(x.seen);
    free(x.ns);
    free(x.inw);
    free(member);
    vec_free(x.now);
    vec_free(x.k_set);
    vec_free(x.touched);
    vec_free(x.tm);
    vec_free(x.to);
    vec_free(x.mv);
    vec_free(x.ot);
    vec_free(x.mv_at);
    vec_free(x.ot_at);
    vec_free(x.tree);
    return rw_finish(&x.w, pn, changed);
}

/* ---- the driver ---------------------------------------------------------- */

static bool run(Propnet *pn, const char *name, bool (*pass)(Propnet *))
{
    uint32_t comps = pn->comps.n;
    uint64_t links = pn_links(pn);
    bool changed = pass(pn);
    PnPassStats *s = NULL;
    for (uint32_t i = 0; i < pn->passes.n; i++)
        if (strcmp(pn->passes.v[i].name, name) == 0)
            s = &pn->passes.v[i];
    if (!s) {
        vec_push(pn->passes, ((PnPassStats){name, 0, 0}));
        s = &pn->passes.v[pn->passes.n - 1];
    }
    s->comps_removed += (int64_t)comps - (int64_t)pn->comps.n;
    s->links_removed += (int64_t)links - (int64_t)pn_links(pn);
    return changed;
}

void pn_optimise(Propnet *pn, unsigned opts)
{
    for (bool changed = true; changed;) {
        changed = false;
        if (opts & PN_OPT_CONST)
            changed |= run(pn, "constant propagation", fold);
        if (opts & PN_OPT_FIXED_BASE)
            changed |= run(pn, "fixed bases", fixed);
        if (opts & PN_OPT_UNUSED)
            changed |= run(pn, "unused components", unused);
        if (opts & PN_OPT_SINGLE)
            changed |= run(pn, "single-input gates", single);
        if (opts & PN_OPT_HASH)
            changed |= run(pn, "structural hashing", hashing);
        if (opts & PN_OPT_FACTOR)
            changed |= run(pn, "factoring", factor);
        if (opts & PN_OPT_INPUT_COMPLEMENT)
            changed |= run(pn, "input complement", complement);
    }
}
