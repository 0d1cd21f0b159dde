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
#define MAP(x) ((x) = (x) == PN_NONE ? PN_NONE : newid[find(repl, (x))])
    for (uint32_t i = 0; i < pn->base.n; i++) {
        MAP(pn->base.v[i].comp);
        MAP(pn->base.v[i].next);
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++)
        MAP(pn->inputs.v[i].comp);
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
            MAP(pn->roles.v[k].legal.v[i].comp);
        for (uint32_t i = 0; i < pn->roles.v[k].goals.n; i++)
            MAP(pn->roles.v[k].goals.v[i].comp);
    }
    MAP(pn->terminal);
    uint32_t k = 0;
    for (uint32_t i = 0; i < pn->aliases.n; i++) {
        PnAlias a = pn->aliases.v[i];
        MAP(a.comp);
        if (a.comp != PN_NONE) /* gone with its component */
            pn->aliases.v[k++] = a;
    }
    pn->aliases.n = k;
#undef MAP
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
    s->comps_removed += comps - pn->comps.n;
    s->links_removed += (uint32_t)(links - pn_links(pn));
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
    }
}
