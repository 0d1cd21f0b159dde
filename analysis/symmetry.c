/*
 * symmetry.c: the symmetries of a game as automorphisms of its network,
 * found with nauty (issue 15).
 *
 * The network becomes a coloured digraph whose automorphisms are exactly
 * the permutations of components that keep every gate's kind and inputs,
 * every transition, the terminal, each role's goals with their values and
 * each role's legal/does pairs:
 *   - one vertex per component, coloured by kind (a constant by its
 *     value, an input by its role), with an edge from each input of a gate
 *     to the gate (the inputs of AND and OR are unordered, NOT has one);
 *   - one vertex per base proposition, with an edge to its component and
 *     one from its next component (the transition); a fixed base (the
 *     optimiser made it a constant), or one nothing reads and nothing
 *     makes true (it holds in the initial state only), is a vertex of a
 *     colour of its own and no edge: every symmetry fixes it;
 *   - per role, one vertex per legal move (coloured by role), with an edge
 *     from its legal component and one to its input's component (inputs
 *     have no inputs of their own, so the legal/does pair is kept);
 *   - one vertex per goal, coloured by (role, value), with an edge from
 *     its component; one terminal vertex with an edge from terminal.
 * Init is not fixed: a symmetry maps states to states, not the start to
 * itself. Value by value, an automorphism maps the evaluation of a state
 * and joint move onto that of their images (least fixpoints of cycles
 * included), so each is a symmetry of the game by construction; the
 * caller checks them against a state machine all the same.
 *
 * nauty gives generators (sparse nauty, digraph); they act on the bases
 * and inputs as permutations, and the group they generate there is
 * listed whole by closure (at most cap elements). Past cap, nauty runs
 * again with every input a colour of its own: moves with the same effect
 * (Untwisty Corridor's seven) give a symmetric group that moves no base,
 * useless for merging states; what is left are the symmetries that fix
 * every move. Past cap again: the identity alone.
 * nauty's global state is guarded by a mutex; nothing allocates through
 * base_x* (which may jump) while it is held.
 */
#include "analysis.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

#include <nausparse.h>
#include <nauty.h>

static pthread_mutex_t nauty_lock = PTHREAD_MUTEX_INITIALIZER;

/* What the automorphism callback collects (under nauty_lock). */
static struct {
    uint32_t *vert;   /* the vertices kept: bases' vertices, then inputs' components */
    uint32_t nvert;
    uint32_t *gens;   /* generators, nvert each, as indexes into the kept vertices */
    uint32_t ngens, cap;
    int32_t *pos;     /* per graph vertex: its place among the kept (-1: none) */
    bool oom;         /* room for a generator could not be had */
    bool bad;         /* a kept vertex went to one not kept (the colours forbid it) */
} collect;

static void on_automorphism(int count, int *perm, int *orbits, int numorbits, int stabvertex, int n)
{
    (void)count, (void)orbits, (void)numorbits, (void)stabvertex, (void)n;
    if (collect.oom || collect.bad)
        return;
    bool id = true;
    for (uint32_t i = 0; i < collect.nvert && id; i++)
        id = (uint32_t)perm[collect.vert[i]] == collect.vert[i];
    if (id)
        return; /* moves only gates: nothing a state sees */
    if (collect.ngens == collect.cap) {
        uint32_t cap = collect.cap ? 2 * collect.cap : 8;
        uint32_t *g = base_try_realloc(collect.gens, (size_t)cap * collect.nvert * sizeof *g + 1);
        if (!g) {
            collect.oom = true;
            return;
        }
        collect.gens = g;
        collect.cap = cap;
    }
    uint32_t *g = collect.gens + (size_t)collect.ngens * collect.nvert;
    for (uint32_t i = 0; i < collect.nvert; i++) {
        int32_t p = collect.pos[perm[collect.vert[i]]];
        if (p < 0) {
            collect.bad = true;
            return;
        }
        g[i] = (uint32_t)p;
    }
    collect.ngens++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double pow10_(int e)
{
    double x = 1;
    while (e-- > 0)
        x *= 10;
    return x;
}

static uint64_t perm_hash(const uint32_t *p, uint32_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (uint32_t i = 0; i < n; i++)
        h = base_mix64(h ^ p[i]) + i;
    return h | 1;
}

void an_symmetries_free(AnSymmetries *s)
{
    free(s->base);
    free(s->input);
    free(s->why);
    memset(s, 0, sizeof *s);
}

/* The identity alone. */
static void identity_only(AnSymmetries *s)
{
    s->n = 1;
    for (uint32_t b = 0; b < s->nbase; b++)
        s->base[b] = b;
    for (uint32_t i = 0; i < s->ninput; i++)
        s->input[i] = i;
}

/* One run of nauty and the closure (see an_symmetries); with fix_moves
 * every input is a colour of its own. */
static void run(const Propnet *pn, uint32_t cap, bool fix_moves, AnSymmetries *s)
{
    double t0 = now();
    memset(s, 0, sizeof *s);
    if (cap == 0)
        cap = 1;
    uint32_t nc = pn->comps.n, nb = pn->base.n, ni = pn->inputs.n, nr = pn->roles.n;
    s->nbase = nb;
    s->ninput = ni;
    s->base = base_xmalloc(((size_t)nb + 1) * sizeof *s->base);
    s->input = base_xmalloc(((size_t)ni + 1) * sizeof *s->input);
    identity_only(s);

    /* vertices: comps, bases, legal moves, goals, terminal */
    uint32_t nlegal = 0, ngoal = 0;
    for (uint32_t r = 0; r < nr; r++) {
        nlegal += pn->roles.v[r].legal.n;
        ngoal += pn->roles.v[r].goals.n;
    }
    uint64_t nv64 = (uint64_t)nc + nb + nlegal + ngoal + 1;
    uint64_t ne64 = pn_links(pn) + 2ull * nb + 2ull * nlegal + ngoal + 1;
    if (nv64 > INT32_MAX / 2 || ne64 > INT32_MAX / 2) {
        s->why = base_sprintf("a network of %llu vertices and %llu edges is too big for nauty",
                              (unsigned long long)nv64, (unsigned long long)ne64);
        s->seconds = now() - t0;
        return;
    }
    uint32_t nv = (uint32_t)nv64;
    uint32_t vb = nc, vl = nc + nb, vg = vl + nlegal, vt = vg + ngoal;
    uint32_t *colour = base_xmalloc((size_t)nv * sizeof *colour);
    size_t *vstart = base_xcalloc((size_t)nv + 1, sizeof *vstart);
    int *deg = base_xcalloc((size_t)nv + 1, sizeof *deg);
    int *edge = base_xmalloc(((size_t)ne64 + 1) * sizeof *edge);
    int *lab = base_xmalloc((size_t)nv * sizeof *lab);
    int *ptn = base_xmalloc((size_t)nv * sizeof *ptn);
    int *orbits = base_xmalloc((size_t)nv * sizeof *orbits);
    int32_t *pos = base_xmalloc((size_t)nv * sizeof *pos);
    uint32_t *vert = base_xmalloc(((size_t)nb + ni + 1) * sizeof *vert);
    /* edges: counted, then placed (out-lists) */
    uint32_t *src = base_xmalloc(((size_t)ne64 + 1) * sizeof *src);
    uint32_t *dst = base_xmalloc(((size_t)ne64 + 1) * sizeof *dst);
    uint32_t ne = 0;
#define EDGE(a, b) (src[ne] = (a), dst[ne] = (b), ne++)
    enum { C_CONST0, C_CONST1, C_AND, C_OR, C_NOT, C_BASE, C_INPUT, C_BVAR, C_TERMINAL, C_ROLE };
    uint32_t nfixed = 0; /* vertices of a colour of their own, after the terminal's */
    for (uint32_t c = 0; c < nc; c++) {
        const PnComp *k = &pn->comps.v[c];
        switch (k->kind) {
        case PN_CONST: colour[c] = k->const_value ? C_CONST1 : C_CONST0; break;
        case PN_BASE: colour[c] = C_BASE; break;
        case PN_INPUT:
            if (fix_moves)
                colour[c] = C_ROLE + 2 * nr + nr * 102 + 1 + nfixed++;
            else
                colour[c] = k->index < ni && pn->inputs.v[k->index].role < nr
                                ? C_ROLE + 2 * pn->inputs.v[k->index].role
                                : C_INPUT;
            break;
        case PN_AND: colour[c] = C_AND; break;
        case PN_OR: colour[c] = C_OR; break;
        default: colour[c] = C_NOT; break;
        }
        for (uint32_t j = 0; j < k->nin; j++)
            EDGE(pn->in.v[k->in_at + j], c);
    }
    for (uint32_t b = 0; b < nb; b++) {
        const PnBase *pb = &pn->base.v[b];
        if (an_base_fixed(pn, b) || (pb->next == PN_NONE && pn->comps.v[pb->comp].nout == 0)) {
            /* a colour of its own, no edge: fixed by every symmetry. A
             * fixed base has its value in every state; one nothing reads
             * and nothing makes true again holds in the initial state
             * alone, with every other such one of its init: moving them
             * among themselves would change no state, only make the group
             * larger (checkers' dark squares, empty at the start and never
             * mentioned again) */
            colour[vb + b] = C_ROLE + 2 * nr + nr * 102 + 1 + nfixed++;
            continue;
        }
        colour[vb + b] = C_BVAR;
        EDGE(vb + b, pb->comp);
        if (pb->next != PN_NONE)
            EDGE(pb->next, vb + b);
    }
    uint32_t l = 0, g = 0;
    for (uint32_t r = 0; r < nr; r++) {
        const PnRole *pr = &pn->roles.v[r];
        for (uint32_t j = 0; j < pr->legal.n; j++, l++) {
            colour[vl + l] = C_ROLE + 2 * r + 1;
            EDGE(pr->legal.v[j].comp, vl + l);
            if (pr->legal.v[j].input != PN_NONE)
                EDGE(vl + l, pn->inputs.v[pr->legal.v[j].input].comp);
        }
        for (uint32_t j = 0; j < pr->goals.n; j++, g++) {
            uint32_t v = pr->goals.v[j].value;
            colour[vg + g] = C_ROLE + 2 * nr + r * 102 + (v <= 100 ? v : 101);
            EDGE(pr->goals.v[j].comp, vg + g);
        }
    }
    colour[vt] = C_ROLE + 2 * nr + nr * 102;
    EDGE(pn->terminal, vt);
#undef EDGE
    for (uint32_t e = 0; e < ne; e++)
        deg[src[e]]++;
    for (uint32_t v = 0; v < nv; v++)
        vstart[v + 1] = vstart[v] + (size_t)deg[v];
    memset(deg, 0, (size_t)nv * sizeof *deg);
    for (uint32_t e = 0; e < ne; e++)
        edge[vstart[src[e]] + (size_t)deg[src[e]]++] = (int)dst[e];
    free(src);
    free(dst);
    /* the partition: vertices sorted by colour (a counting sort over the
     * colours in use) */
    uint32_t ncol = colour[vt] + 1 + nfixed;
    uint32_t *at = base_xcalloc((size_t)ncol + 1, sizeof *at);
    for (uint32_t v = 0; v < nv; v++)
        at[colour[v] + 1]++;
    for (uint32_t k = 0; k < ncol; k++)
        at[k + 1] += at[k];
    for (uint32_t v = 0; v < nv; v++)
        lab[at[colour[v]]++] = (int)v;
    for (uint32_t v = 0; v < nv; v++)
        ptn[v] = v + 1 < nv && colour[lab[v]] == colour[lab[v + 1]] ? 1 : 0;
    free(at);
    /* the vertices whose images make a symmetry */
    for (uint32_t v = 0; v < nv; v++)
        pos[v] = -1;
    for (uint32_t b = 0; b < nb; b++) {
        vert[b] = vb + b;
        pos[vb + b] = (int32_t)b;
    }
    for (uint32_t i = 0; i < ni; i++) {
        vert[nb + i] = pn->inputs.v[i].comp;
        pos[pn->inputs.v[i].comp] = (int32_t)(nb + i);
    }

    /* room for the group (allocated before nauty runs: nothing jumps
     * while the lock is held or the generators are in hand) */
    uint32_t d = nb + ni;
    uint32_t room = cap + 1;
    uint32_t *el = base_xmalloc(((size_t)room * d + 1) * sizeof *el);
    uint32_t tsize = 1;
    while (tsize < 2 * room)
        tsize <<= 1;
    uint64_t *th = base_xmalloc((size_t)tsize * sizeof *th);
    uint32_t *ti = base_xmalloc((size_t)tsize * sizeof *ti);

    sparsegraph sg;
    SG_INIT(sg);
    sg.nv = (int)nv;
    sg.nde = ne;
    sg.v = vstart;
    sg.d = deg;
    sg.e = edge;
    sg.vlen = (size_t)nv + 1;
    sg.dlen = (size_t)nv + 1;
    sg.elen = (size_t)ne64 + 1;
    DEFAULTOPTIONS_SPARSEDIGRAPH(options);
    options.defaultptn = FALSE;
    options.getcanon = FALSE;
    options.userautomproc = on_automorphism;
    statsblk stats;
    memset(&stats, 0, sizeof stats);

    pthread_mutex_lock(&nauty_lock);
    collect.vert = vert;
    collect.nvert = nb + ni;
    collect.gens = NULL;
    collect.ngens = collect.cap = 0;
    collect.pos = pos;
    collect.oom = collect.bad = false;
    double t1 = now();
    sparsenauty(&sg, lab, ptn, orbits, &options, &stats, NULL);
    s->nauty_seconds = now() - t1;
    uint32_t *gens = collect.gens, ngens = collect.ngens;
    bool oom = collect.oom, bad = collect.bad;
    memset(&collect, 0, sizeof collect);
    pthread_mutex_unlock(&nauty_lock);

    s->generators = ngens;
    s->nauty_order = stats.grpsize1 * pow10_(stats.grpsize2);
    s->vertices = nv;
    s->edges = ne;
    free(colour);
    free(vstart);
    free(deg);
    free(edge);
    free(lab);
    free(ptn);
    free(orbits);
    free(pos);
    free(vert);
    if (oom || bad || stats.errstatus) {
        free(gens);
        free(el);
        free(th);
        free(ti);
        if (oom) /* the lock released: out of memory as any allocation here */
            base_fatal("memory for nauty's generators");
        s->why = bad ? base_xstrdup("nauty mapped a base or a move onto something else")
                     : base_sprintf("nauty failed (status %d)", stats.errstatus);
        s->seconds = now() - t0;
        return;
    }

    /* the group: closure of the identity under the generators */
    memset(th, 0, (size_t)tsize * sizeof *th);
    for (uint32_t x = 0; x < d; x++)
        el[x] = x;
    uint32_t n = 1;
    {
        uint64_t h = perm_hash(el, d);
        uint32_t k = (uint32_t)(h & (tsize - 1));
        th[k] = h;
        ti[k] = 0;
    }
    bool over = false;
    for (uint32_t i = 0; i < n && !over; i++)
        for (uint32_t j = 0; j < ngens && !over; j++) {
            uint32_t *p = el + (size_t)n * d; /* the candidate, in the next free slot */
            const uint32_t *gj = gens + (size_t)j * d, *ei = el + (size_t)i * d;
            for (uint32_t x = 0; x < d; x++)
                p[x] = gj[ei[x]];
            uint64_t h = perm_hash(p, d);
            uint32_t k = (uint32_t)(h & (tsize - 1));
            bool seen = false;
            while (th[k] && !seen) {
                seen = th[k] == h && !memcmp(el + (size_t)ti[k] * d, p, (size_t)d * sizeof *p);
                k = (k + 1) & (tsize - 1);
            }
            if (seen)
                continue;
            if (n == cap) {
                over = true;
                break;
            }
            th[k] = h;
            ti[k] = n;
            n++;
        }
    free(th);
    free(ti);
    free(gens);
    if (over) {
        s->capped = true;
        s->why = base_sprintf("the group has more than %u elements: cut to the identity", cap);
        free(el);
        s->seconds = now() - t0;
        return;
    }
    free(s->base);
    free(s->input);
    s->base = base_xmalloc(((size_t)n * nb + 1) * sizeof *s->base);
    s->input = base_xmalloc(((size_t)n * ni + 1) * sizeof *s->input);
    for (uint32_t k = 0; k < n; k++) {
        memcpy(s->base + (size_t)k * nb, el + (size_t)k * d, (size_t)nb * sizeof *el);
        for (uint32_t x = 0; x < ni; x++)
            s->input[(size_t)k * ni + x] = el[(size_t)k * d + nb + x] - nb;
    }
    s->n = n;
    free(el);
    s->seconds = now() - t0;
}

void an_symmetries(const Propnet *pn, uint32_t cap, AnSymmetries *s)
{
    double t0 = now();
    run(pn, cap, false, s);
    if (s->capped) {
        /* moves that do the same thing (Untwisty Corridor's seven) make a
         * symmetric group that moves no base: fix the moves and try again */
        double nauty = s->nauty_seconds;
        an_symmetries_free(s);
        run(pn, cap, true, s);
        s->moves_fixed = true;
        s->nauty_seconds += nauty;
        if (s->capped) {
            free(s->why);
            s->why = base_sprintf("the group has more than %u elements, with every move fixed too: cut to the "
                                  "identity", cap);
        }
    }
    s->seconds = now() - t0;
}
