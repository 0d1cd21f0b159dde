/*
 * save.c: the solver's graph on disk (gdlc solve --save FILE, --resume FILE).
 *
 * Format version 1, integers as LEB128 varints:
 *   "GDLCSOLV", then the byte SV_SAVE_FORMAT;
 *   the group's size (1: no symmetries), whether transpositions are merged,
 *   the constant sum + 1 (0: none seen), the root's id, the expansions,
 *   transpositions and symmetric merges counted so far, the number of nodes;
 *   per node: its state as gdl_state_write writes it (length, bytes), its
 *   mover + 2, alo, ahi, lo, hi, plo, phi, whether its moves are ordered,
 *   its number of joint moves, and per joint move each role's move as text
 *   (length, bytes: move ids belong to one machine), its child + 1 (0:
 *   unexpanded) and the symmetry of the edge;
 *   the 64-bit hash (base_hash_bytes) of every byte before it, 8 bytes
 *   little-endian.
 * Reading checks the syntax (magic, version, hash, every count against the
 * bytes left, ids, states through gdl_state_read, moves through
 * gdl_move_parse): a damaged file is GDL_BAD_ARGUMENT with a message, never
 * a crash. A graph saved under another symmetry group or transposition
 * setting is refused (its edges would not mean the same).
 *
 * The file is input, and the hash only catches accidents: anyone can edit
 * a value and recompute it. So nothing a value rests on is taken from the
 * file (rederive): the machine says which states are terminal and their
 * goals (and the constant sum), each node's joint moves must be exactly
 * its state's legal ones (in any order, each once), each expanded edge must
 * lead to its child's state (the next state, under the edge's symmetry),
 * and every interval is recomputed: a terminal node's is its goal, an
 * inner node starts where sv_node_add starts it (the a-priori interval the
 * analyses give now, [0, 100] provable) and the intervals are settled
 * bottom-up from the children (sv_settle). The saved mover, intervals and
 * sum are read and ignored. What is left of the file is the shape of the
 * search (which moves were expanded, the order of the moves) and its
 * counts: a file edited anywhere either is refused or gives the values the
 * solver would have computed over the same graph, and a proof written from
 * it holds.
 */
#include <string.h>

#include "internal.h"

enum { SV_SAVE_FORMAT = 1 };
static const char sv_magic[8] = {'G', 'D', 'L', 'C', 'S', 'O', 'L', 'V'};

/* ---- writing ---------------------------------------------------------- */

typedef struct Out {
    uint8_t *b;
    size_t n, cap;
} Out;

static void out_bytes(Out *o, const void *p, size_t n)
{
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->n + n)
            cap *= 2;
        o->b = base_xrealloc(o->b, cap);
        o->cap = cap;
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void out_var(Out *o, uint64_t v)
{
    uint8_t buf[10];
    size_t n = 0;
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        buf[n++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
    out_bytes(o, buf, n);
}

static void out_text(Out *o, const char *s)
{
    size_t n = strlen(s);
    out_var(o, n);
    out_bytes(o, s, n);
}

GdlStatus sv_save(SvGraph *g, const char *path, char **err)
{
    Out o = {0};
    out_bytes(&o, sv_magic, sizeof sv_magic);
    uint8_t v = SV_SAVE_FORMAT;
    out_bytes(&o, &v, 1);
    out_var(&o, g->nsym);
    out_var(&o, g->transpositions);
    out_var(&o, (uint64_t)(g->sum + 1));
    out_var(&o, g->root);
    out_var(&o, g->expansions);
    out_var(&o, g->transpositions_found);
    out_var(&o, g->symmetric_found);
    out_var(&o, g->nodes.n);
    void *sb = NULL;
    size_t scap = 0;
    GdlStatus st = GDL_OK;
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        const SvNode *n = &g->nodes.v[i];
        size_t len = 0;
        st = gdl_state_write(g->m, n->s, sb, scap, &len);
        if (st == GDL_LIMIT) {
            free(sb);
            scap = len * 2;
            sb = base_xmalloc(scap);
            st = gdl_state_write(g->m, n->s, sb, scap, &len);
        }
        if (st != GDL_OK) {
            *err = base_sprintf("%s: a state cannot be written: %s", path, gdl_machine_error(g->m));
            goto out;
        }
        out_var(&o, len);
        out_bytes(&o, sb, len);
        out_var(&o, (uint64_t)(n->mover + 2));
        uint8_t iv[7] = {n->alo, n->ahi, n->lo, n->hi, n->plo, n->phi, n->ordered};
        for (int k = 0; k < 7; k++)
            out_var(&o, iv[k]);
        out_var(&o, n->nmoves);
        for (uint32_t e = 0; e < n->nmoves; e++) {
            const GdlMove *j = sv_joint(g, i, e);
            for (unsigned r = 0; r < g->nroles; r++)
                out_text(&o, gdl_move_text(g->m, j[r]));
            const SvEdge *ed = &g->edges.v[n->edge_at + e];
            out_var(&o, ed->child == BASE_NONE ? 0 : (uint64_t)ed->child + 1);
            out_var(&o, ed->sym);
        }
    }
    uint64_t h = base_hash_bytes(o.b, o.n, 0);
    uint8_t hb[8];
    for (int k = 0; k < 8; k++)
        hb[k] = (uint8_t)(h >> (8 * k));
    out_bytes(&o, hb, 8);
    FILE *f = fopen(path, "wb");
    if (!f) {
        *err = base_sprintf("%s: cannot write the graph", path);
        st = GDL_IO_ERROR;
        goto out;
    }
    bool ok = fwrite(o.b, 1, o.n, f) == o.n;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        *err = base_sprintf("%s: the graph was not written whole", path);
        st = GDL_IO_ERROR;
    }
out:
    free(sb);
    free(o.b);
    return st;
}

/* ---- reading ---------------------------------------------------------- */

typedef struct In {
    const uint8_t *p, *end;
    bool bad;
} In;

static uint64_t in_var(In *in)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (in->p >= in->end) {
            in->bad = true;
            return 0;
        }
        uint8_t c = *in->p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
    }
    in->bad = true;
    return 0;
}

/* A length that fits in what is left (0 when bad). */
static size_t in_len(In *in)
{
    uint64_t n = in_var(in);
    if (in->bad || n > (uint64_t)(in->end - in->p)) {
        in->bad = true;
        return 0;
    }
    return (size_t)n;
}

static GdlStatus damaged(SvGraph *g, char **err, const char *path, const char *what)
{
    *err = base_sprintf("%s: not a solver graph of this game, or damaged (%s)", path, what);
    sv_graph_free(g);
    return GDL_BAD_ARGUMENT;
}

/* The index of mv in v[0, n), or n. */
static size_t move_index(const GdlMove *v, size_t n, GdlMove mv)
{
    size_t i = 0;
    while (i < n && v[i] != mv)
        i++;
    return i;
}

/* Node i, not terminal: its joint moves are its state's legal ones, each
 * once; its mover, its a-priori interval; its expanded edges lead to their
 * children's states. False with why (the file is at fault) or with
 * g->message (the machine failed). */
static bool rederive_inner(SvGraph *g, uint32_t i, char *why, size_t cap)
{
    GdlMachine *m = g->m;
    GdlMove *legal[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    uint8_t *seen = NULL;
    GdlState *next = NULL, *img = NULL;
    bool ok = false;
    const GdlState *s = g->nodes.v[i].s;
    for (unsigned r = 0; r < 2; r++) {
        const GdlMove *mv;
        GdlStatus st = gdl_state_legal(m, s, r, &mv, &n[r]);
        if (st != GDL_OK) {
            sv_fail(g, st, "node %u: legal moves: %s: %s", i, gdl_status_name(st), gdl_machine_error(m));
            goto out;
        }
        if (n[r] == 0) {
            snprintf(why, cap, "node %u: role %u has no legal move in its state", i, r);
            goto out;
        }
        legal[r] = base_xmalloc(n[r] * sizeof(GdlMove));
        memcpy(legal[r], mv, n[r] * sizeof(GdlMove));
    }
    SvNode *x = &g->nodes.v[i];
    if (n[0] > 1 && n[1] > 1) {
        snprintf(why, cap, "node %u: both roles have a choice in its state", i);
        goto out;
    }
    if ((uint64_t)n[0] * n[1] != x->nmoves) {
        snprintf(why, cap, "node %u: %u joint moves, its state has %zu", i, x->nmoves, n[0] * n[1]);
        goto out;
    }
    seen = base_xcalloc(x->nmoves, 1);
    bool expanded = false;
    for (uint32_t e = 0; e < x->nmoves; e++) {
        const GdlMove *j = sv_joint(g, i, e);
        size_t a = move_index(legal[0], n[0], j[0]), b = move_index(legal[1], n[1], j[1]);
        if (a == n[0] || b == n[1]) {
            snprintf(why, cap, "node %u: joint move %u is not legal in its state", i, e);
            goto out;
        }
        if (seen[a * n[1] + b]++) {
            snprintf(why, cap, "node %u: joint move %u is listed twice", i, e);
            goto out;
        }
        const SvEdge *ed = &g->edges.v[x->edge_at + e];
        if (ed->child == BASE_NONE)
            continue;
        expanded = true;
        gdl_state_free(next), gdl_state_free(img);
        next = img = NULL;
        GdlStatus st = gdl_state_next(m, s, j, &next);
        if (st == GDL_OK && ed->sym)
            st = gdl_analysis_symmetry_state(g->an, ed->sym, next, &img);
        if (st != GDL_OK) {
            sv_fail(g, st, "node %u: the next state of joint move %u: %s: %s", i, e, gdl_status_name(st),
                    gdl_machine_error(m));
            goto out;
        }
        if (!gdl_state_equal(img ? img : next, g->nodes.v[ed->child].s)) {
            snprintf(why, cap, "node %u: joint move %u does not lead to the state of node %u", i, e, ed->child);
            goto out;
        }
    }
    x->mover = (int8_t)(n[0] > 1 ? 0 : n[1] > 1 ? 1 : SV_FORCED);
    /* sv_order permutes the moves of a node none of whose edges is
     * expanded: one with an expanded edge keeps its order */
    if (expanded)
        x->ordered = 1;
    uint8_t alo, ahi;
    if (!sv_apriori(g, s, &alo, &ahi))
        goto out;
    x = &g->nodes.v[i];
    x->alo = x->lo = alo;
    x->ahi = x->hi = ahi;
    x->plo = 0, x->phi = 100;
    ok = true;
out:
    free(legal[0]);
    free(legal[1]);
    free(seen);
    gdl_state_free(next), gdl_state_free(img);
    return ok;
}

/* Everything the graph's values rest on, from the machine (the essay):
 * GDL_OK; GDL_BAD_ARGUMENT with why when the file is at fault; the
 * machine's status with g->message when it failed. */
static GdlStatus rederive(SvGraph *g, char *why, size_t cap)
{
    GdlMachine *m = g->m;
    int sum = -1;
    uint32_t first_terminal = BASE_NONE;
    /* terminal states first: their goals give the sum the a-priori
     * intervals use */
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        SvNode *x = &g->nodes.v[i];
        bool term = false;
        GdlStatus st = gdl_state_is_terminal(m, x->s, &term);
        if (st != GDL_OK) {
            sv_fail(g, st, "node %u: terminal: %s: %s", i, gdl_status_name(st), gdl_machine_error(m));
            return st;
        }
        if (term != (x->nmoves == 0)) {
            snprintf(why, cap, "node %u: its state is %sterminal, and it has %u moves", i, term ? "" : "not ",
                     x->nmoves);
            return GDL_BAD_ARGUMENT;
        }
        if (!term)
            continue;
        int goals[2];
        if ((st = gdl_state_goals(m, x->s, goals)) != GDL_OK) {
            sv_fail(g, st, "node %u: goals: %s: %s", i, gdl_status_name(st), gdl_machine_error(m));
            return st;
        }
        if (sum < 0) {
            sum = goals[0] + goals[1];
            first_terminal = i;
        } else if (goals[0] + goals[1] != sum) {
            snprintf(why, cap, "the goals of node %u sum to %d, those of node %u to %d", i, goals[0] + goals[1],
                     first_terminal, sum);
            return GDL_BAD_ARGUMENT;
        }
        uint8_t v = (uint8_t)(goals[0] < 0 ? 0 : goals[0] > 100 ? 100 : goals[0]);
        x->mover = SV_TERMINAL;
        x->alo = x->ahi = x->lo = x->hi = x->plo = x->phi = v;
        x->ordered = 0;
    }
    g->sum = sum;
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        if (g->nodes.v[i].nmoves == 0)
            continue;
        if (!rederive_inner(g, i, why, cap))
            return g->message ? (g->status ? g->status : GDL_BAD_ARGUMENT) : GDL_BAD_ARGUMENT;
    }
    sv_settle(g);
    g->proven = 0;
    for (uint32_t i = 0; i < g->nodes.n; i++)
        g->proven += g->nodes.v[i].lo == g->nodes.v[i].hi;
    return GDL_OK;
}

GdlStatus sv_load(SvGraph *g, const char *path, char **err)
{
    size_t len = 0;
    bool big = false;
    char *rerr = NULL;
    char *buf = base_read_file(path, &len, &rerr, &big);
    if (!buf) {
        *err = rerr ? rerr : base_sprintf("%s: cannot read the graph", path);
        return big ? GDL_BAD_ARGUMENT : GDL_IO_ERROR;
    }
    GdlStatus st = sv_load_bytes(g, path, (const uint8_t *)buf, len, err);
    free(buf);
    return st;
}

GdlStatus sv_load_bytes(SvGraph *g, const char *path, const uint8_t *b, size_t len, char **err)
{
    GdlMachine *m = g->m;
    GdlAnalysis *an = g->an;
    size_t nsym = g->nsym;
    bool tr = g->transpositions, analyses = g->analyses, symmetries = g->symmetries;
    GdlStatus st = GDL_BAD_ARGUMENT;
    const char *what = NULL;
    char *text = NULL;
    if (len < sizeof sv_magic + 1 + 8 || memcmp(b, sv_magic, sizeof sv_magic) != 0) {
        what = "no GDLCSOLV header";
        goto bad;
    }
    if (b[sizeof sv_magic] != SV_SAVE_FORMAT) {
        what = "another format version";
        goto bad;
    }
    uint64_t h = 0;
    for (int k = 0; k < 8; k++)
        h |= (uint64_t)b[len - 8 + k] << (8 * k);
    if (base_hash_bytes(b, len - 8, 0) != h) {
        what = "its hash does not match";
        goto bad;
    }
    In in = {b + sizeof sv_magic + 1, b + len - 8, false};
    uint64_t fsym = in_var(&in), ftr = in_var(&in), fsum = in_var(&in), root = in_var(&in);
    uint64_t exps = in_var(&in), trs = in_var(&in), syms = in_var(&in), nnodes = in_var(&in);
    if (in.bad || fsum > 201 || ftr > 1) {
        what = "a bad header";
        goto bad;
    }
    if (fsym != nsym || (ftr != 0) != tr) {
        *err = base_sprintf("%s: saved with %s and %llu symmetr%s: resume with the same options", path,
                            ftr ? "transpositions" : "no transpositions", (unsigned long long)fsym,
                            fsym == 1 ? "y" : "ies");
        return GDL_BAD_ARGUMENT;
    }
    if (nnodes == 0 || nnodes > (uint64_t)(in.end - in.p) || root >= nnodes) {
        what = "a bad node count";
        goto bad;
    }
    g->sum = (int)fsum - 1;
    g->root = (uint32_t)root;
    g->expansions = exps, g->transpositions_found = trs, g->symmetric_found = syms;
    for (uint64_t i = 0; i < nnodes; i++) {
        size_t sl = in_len(&in);
        if (in.bad) {
            what = "a truncated state";
            goto bad;
        }
        GdlState *s = NULL;
        if (gdl_state_read(m, in.p, sl, &s) != GDL_OK) {
            what = "a state that does not read";
            goto bad;
        }
        in.p += sl;
        SvNode x;
        memset(&x, 0, sizeof x);
        x.s = s;
        x.parent = BASE_NONE;
        vec_push(g->nodes, x); /* owned by the graph from here */
        g->state_bytes += 48 + 16 * (uint64_t)gdl_state_size(s);
        uint64_t mover = in_var(&in);
        uint64_t iv[7];
        for (int k = 0; k < 7; k++)
            iv[k] = in_var(&in);
        uint64_t nm = in_var(&in);
        if (in.bad || mover > 3 || nm > (uint64_t)(in.end - in.p) || (mover == 0) != (nm == 0)) {
            what = "a bad node";
            goto bad;
        }
        for (int k = 0; k < 6; k++)
            if (iv[k] > 100) {
                what = "a bad interval";
                goto bad;
            }
        SvNode *n = &g->nodes.v[g->nodes.n - 1];
        n->mover = (int8_t)((int)mover - 2);
        n->alo = (uint8_t)iv[0], n->ahi = (uint8_t)iv[1], n->lo = (uint8_t)iv[2], n->hi = (uint8_t)iv[3];
        n->plo = (uint8_t)iv[4], n->phi = (uint8_t)iv[5], n->ordered = iv[6] != 0;
        if (n->plo > n->phi || n->alo > n->ahi) {
            what = "a bad interval";
            goto bad;
        }
        n->nmoves = (uint32_t)nm;
        n->move_at = g->joints.n;
        n->edge_at = g->edges.n;
        for (uint64_t e = 0; e < nm; e++) {
            for (unsigned r = 0; r < g->nroles; r++) {
                size_t tl = in_len(&in);
                if (in.bad) {
                    what = "a truncated move";
                    goto bad;
                }
                text = base_xstrndup((const char *)in.p, tl);
                in.p += tl;
                GdlMove mv;
                if (gdl_move_parse(m, text, &mv) != GDL_OK) {
                    what = "a move that does not parse";
                    goto bad;
                }
                free(text);
                text = NULL;
                vec_push(g->joints, mv);
            }
            uint64_t child = in_var(&in), sym = in_var(&in);
            if (in.bad || child > nnodes || sym >= nsym) {
                what = "a bad edge";
                goto bad;
            }
            SvEdge ed = {child ? (uint32_t)(child - 1) : BASE_NONE, (uint32_t)sym};
            vec_push(g->edges, ed);
        }
    }
    if (in.p != in.end) {
        what = "bytes left over";
        goto bad;
    }
    /* parents, and the table of states */
    for (uint32_t i = 0; i < g->nodes.n; i++) {
        const SvNode *n = &g->nodes.v[i];
        for (uint32_t e = 0; e < n->nmoves; e++) {
            uint32_t c = g->edges.v[n->edge_at + e].child;
            if (c == BASE_NONE)
                continue;
            SvParent p = {i, g->nodes.v[c].parent};
            g->nodes.v[c].parent = g->parents.n;
            vec_push(g->parents, p);
        }
    }
    if (tr) {
        uint32_t cap = 1024;
        while ((uint64_t)cap < (uint64_t)g->nodes.n * 2 + 2)
            cap *= 2;
        g->slots = base_xcalloc(cap, sizeof *g->slots);
        g->nslots = cap;
        for (uint32_t i = 0; i < g->nodes.n; i++) {
            uint32_t k = (uint32_t)gdl_state_hash(g->nodes.v[i].s) & (cap - 1);
            while (g->slots[k])
                k = (k + 1) & (cap - 1);
            g->slots[k] = i + 1;
        }
    }
    char why[200] = "";
    if ((st = rederive(g, why, sizeof why)) != GDL_OK) {
        if (!g->message) {
            what = why;
            goto bad;
        }
        *err = base_sprintf("%s: %s", path, g->message);
        goto fail;
    }
    return GDL_OK;
bad:
    free(text);
    st = damaged(g, err, path, what);
    goto reset;
fail:
    sv_graph_free(g);
reset:
    /* leave g as sv_graph_init made it, for the caller's cleanup */
    g->m = m, g->an = an, g->nsym = nsym, g->transpositions = tr, g->analyses = analyses;
    g->symmetries = symmetries, g->nroles = 2, g->sum = -1, g->root = BASE_NONE;
    return st;
}
