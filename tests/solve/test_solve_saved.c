/* test_solve_saved.c: the solver's saved graphs are input (solve/save.c), and its
 * search ends (solve/pns.c). On games/tictactoe.kif (value 50, eight
 * symmetries) and tests/solve/nim123.kif (value 0, none):
 *   - a root whose interval contradicts its provable interval (lo 100,
 *     phi 50), in a graph made in memory: sv_search stops with an error,
 *     at once, instead of asking the same question forever;
 *   - saved graphs edited and their hash recomputed, so that only the
 *     re-derivation on load stands between the edit and the value: the
 *     root claimed at 100 in a solved graph (once reported "xplayer 100,
 *     exact: yes"), the root's contradiction above in a partial graph
 *     (once a solve that never ended), a terminal state's goal, an
 *     unexpanded node's a-priori interval, an edge to another state, a
 *     move removed;
 *   - seeded mutants (GDLC_SAVED_MUTANTS, default 200 per game; under the
 *     sanitizers 12 of tic-tac-toe and 60 of Nim) of a partial and of a
 *     solved graph: values and ids set anew, bytes changed, the hash
 *     recomputed; every resume is refused with GDL_BAD_ARGUMENT and a
 *     message, or reports the true value; every proof written after a
 *     resume holds under the independent checker (solve/check.c) with
 *     that value.
 * A hang fails the test by SIGALRM. GDLC_SAVED_VERBOSE=1 prints counts.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../base/base.h"
#include "../../include/gdl.h"
#include "../../solve/check.h"
#include "../../solve/internal.h"
#include "../../solve/solve.h"

static char tmpdir[256];

typedef struct Game {
    const char *path;
    int value; /* the first role's, under best play */
    GdlGame *g;
    GdlMachine *m;
} Game;

static void game_open(Game *gm, const char *rel, int value)
{
    gm->path = base_sprintf("%s/%s", GDLC_SOURCE_DIR, rel);
    gm->value = value;
    assert_int_equal(gdl_game_load_file(gm->path, &gm->g, NULL), GDL_OK);
    assert_int_equal(gdl_machine_new(gm->g, "ref", &gm->m), GDL_OK);
}

static void game_close(Game *gm)
{
    gdl_machine_free(gm->m);
    gdl_game_free(gm->g);
    free((char *)gm->path);
}

static char *tmp_path(const char *name)
{
    return base_sprintf("%s/%s", tmpdir, name);
}

/* ---- reading and writing files --------------------------------------- */

static uint8_t *slurp(const char *path, size_t *len)
{
    char *err = NULL;
    bool big = false;
    char *b = base_read_file(path, len, &err, &big);
    free(err);
    assert_non_null(b);
    return (uint8_t *)b;
}

/* Writes b[0, len) to path with the hash of save.c recomputed over all but
 * the last 8 bytes (the file then passes its checksum). */
static void spit_rehashed(const char *path, uint8_t *b, size_t len)
{
    assert_true(len >= 17);
    uint64_t h = base_hash_bytes(b, len - 8, 0);
    for (int k = 0; k < 8; k++)
        b[len - 8 + k] = (uint8_t)(h >> (8 * k));
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* ---- the fields of a saved graph (save.c's format 1) ------------------ */

typedef enum FieldKind {
    FK_HEADER, /* nsym, transpositions, sum + 1, root, counts, nodes */
    FK_MOVER,  /* mover + 2 */
    FK_IV,     /* alo, ahi, lo, hi, plo, phi, ordered */
    FK_NMOVES, /* a node's joint moves */
    FK_CHILD,  /* an edge's child + 1 */
    FK_SYM,    /* an edge's symmetry */
} FieldKind;

typedef struct Field {
    size_t at, len; /* the varint's bytes */
    FieldKind kind;
    uint32_t node;  /* the node it belongs to */
    unsigned k;     /* FK_HEADER, FK_IV: which */
} Field;

typedef struct Layout {
    VEC(Field) f;
    uint64_t nodes, nsym, root;
    VEC(size_t) node_at; /* each node's first byte */
} Layout;

static uint64_t rd_var(const uint8_t *b, size_t *p, size_t *len)
{
    uint64_t v = 0;
    size_t s = *p;
    for (int shift = 0;; shift += 7) {
        uint8_t c = b[(*p)++];
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            break;
    }
    *len = *p - s;
    return v;
}

static uint64_t field(Layout *l, const uint8_t *b, size_t *p, FieldKind kind, uint32_t node, unsigned k)
{
    size_t at = *p, n;
    uint64_t v = rd_var(b, p, &n);
    vec_push(l->f, ((Field){at, n, kind, node, k}));
    return v;
}

/* The fields of a graph written by the solver (trusted: ours). */
static void layout(const uint8_t *b, size_t len, Layout *l)
{
    memset(l, 0, sizeof *l);
    size_t p = 9, n;
    uint64_t h[8];
    for (unsigned k = 0; k < 8; k++)
        h[k] = field(l, b, &p, FK_HEADER, 0, k);
    l->nsym = h[0], l->root = h[3], l->nodes = h[7];
    for (uint32_t i = 0; i < l->nodes; i++) {
        vec_push(l->node_at, p);
        uint64_t sl = rd_var(b, &p, &n);
        p += sl;
        field(l, b, &p, FK_MOVER, i, 0);
        for (unsigned k = 0; k < 7; k++)
            field(l, b, &p, FK_IV, i, k);
        uint64_t nm = field(l, b, &p, FK_NMOVES, i, 0);
        for (uint64_t e = 0; e < nm; e++) {
            for (int r = 0; r < 2; r++) {
                uint64_t tl = rd_var(b, &p, &n);
                p += tl;
            }
            field(l, b, &p, FK_CHILD, i, 0);
            field(l, b, &p, FK_SYM, i, 0);
        }
    }
    assert_int_equal(p, len - 8);
}

static void layout_free(Layout *l)
{
    vec_free(l->f);
    vec_free(l->node_at);
}

/* b (len bytes, cap at least len + 10) with the varint at f set to v. */
static size_t set_var(uint8_t *b, size_t len, const Field *f, uint64_t v)
{
    uint8_t enc[10];
    size_t n = 0;
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        enc[n++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
    memmove(b + f->at + n, b + f->at + f->len, len - f->at - f->len);
    memcpy(b + f->at, enc, n);
    return len - f->len + n;
}

/* The first field of node i of the kind (and k). */
static const Field *find_field(const Layout *l, uint32_t node, FieldKind kind, unsigned k)
{
    for (uint32_t i = 0; i < l->f.n; i++)
        if (l->f.v[i].node == node && l->f.v[i].kind == kind && (kind != FK_IV || l->f.v[i].k == k) &&
            (kind != FK_HEADER || l->f.v[i].k == k))
            return &l->f.v[i];
    return NULL;
}

/* ---- solving ---------------------------------------------------------- */

typedef struct Outcome {
    GdlStatus st;
    char *err;
    int lo, hi;
    bool stopped;
    bool proof_ok;       /* the proof written holds (when one was asked) */
    char *proof_error;   /* why not */
    int plo, phi;        /* the value the proof shows */
} Outcome;

static void outcome_free(Outcome *o)
{
    free(o->err);
    free(o->proof_error);
    memset(o, 0, sizeof *o);
}

/* Solves gm from its initial state; resume, save: paths or NULL; proof:
 * whether to write one (then checked with solve/check.c). */
static void solve(Game *gm, const char *resume, const char *save, uint64_t max_nodes, bool proof, Outcome *out)
{
    memset(out, 0, sizeof *out);
    SolveOptions o;
    solve_options_default(&o);
    o.max_nodes = max_nodes;
    char *ppath = tmp_path("out.proof");
    FILE *pf = NULL;
    if (proof) {
        pf = fopen(ppath, "wb");
        assert_non_null(pf);
    }
    SolveResult r;
    out->st = solve_run(gm->g, gm->m, NULL, &o, pf, save, resume, &r, &out->err);
    out->lo = r.lo, out->hi = r.hi, out->stopped = r.stopped;
    if (out->st != GDL_OK && !out->err && r.scope_message)
        out->err = base_xstrdup(r.scope_message);
    solve_result_free(&r);
    if (pf) {
        assert_int_equal(fclose(pf), 0);
        if (out->st == GDL_OK) {
            size_t len;
            uint8_t *text = slurp(ppath, &len);
            GdlMachine *m = NULL;
            assert_int_equal(gdl_machine_new(gm->g, "ref", &m), GDL_OK);
            ProofCheck pc;
            out->proof_ok = proof_check(gm->g, m, ppath, (const char *)text, len, &pc);
            out->plo = pc.lo, out->phi = pc.hi;
            if (pc.error)
                out->proof_error = base_xstrdup(pc.error);
            proof_check_free(&pc);
            gdl_machine_free(m);
            free(text);
        }
    }
    free(ppath);
}

/* A resume of an edited graph: refused with GDL_BAD_ARGUMENT and a
 * message, or the true value (and a proof of it that holds). Returns
 * whether it was refused. */
static bool resume_sound(Game *gm, const char *path, bool proof, const char *what)
{
    Outcome o;
    solve(gm, path, NULL, 0, proof, &o);
    bool refused = o.st != GDL_OK;
    if (refused) {
        if (o.st != GDL_BAD_ARGUMENT || !o.err || !*o.err)
            fail_msg("%s: refused with status %s and message '%s'", what, gdl_status_name(o.st),
                     o.err ? o.err : "(none)");
    } else {
        if (o.stopped || o.lo != gm->value || o.hi != gm->value)
            fail_msg("%s: resumed to [%d, %d]%s, the value is %d", what, o.lo, o.hi, o.stopped ? " (stopped)" : "",
                     gm->value);
        if (proof && (!o.proof_ok || o.plo != gm->value || o.phi != gm->value))
            fail_msg("%s: its proof does not hold: %s", what, o.proof_error ? o.proof_error : "another value");
    }
    outcome_free(&o);
    return refused;
}

/* Saves gm's graph to name: solved (max_nodes 0) or partial. */
static char *save_graph(Game *gm, const char *name, uint64_t max_nodes)
{
    char *path = tmp_path(name);
    Outcome o;
    solve(gm, NULL, path, max_nodes, false, &o);
    assert_int_equal(o.st, GDL_OK);
    assert_int_equal(o.stopped, max_nodes != 0);
    outcome_free(&o);
    return path;
}

/* ---- the search ends -------------------------------------------------- */

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "saved: a search did not end (SIGALRM)\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

/* A root with lo 100 and phi 50: the provable question "at least 100?"
 * is answered no at once, and asked again forever before the fix. */
static void test_contradiction_in_memory(void **state)
{
    (void)state;
    Game gm;
    game_open(&gm, "tests/solve/nim123.kif", 0);
    SolveOptions o;
    solve_options_default(&o);
    o.analyses = o.symmetries = false;
    o.seconds = 1;
    SvGraph g;
    sv_graph_init(&g, gm.m, NULL, &o);
    GdlState *s = NULL;
    assert_int_equal(gdl_state_initial(gm.m, &s), GDL_OK);
    g.root = sv_node_add(&g, s);
    assert_int_not_equal(g.root, BASE_NONE);
    SvNode *r = &g.nodes.v[g.root];
    r->lo = r->hi = 100;
    r->plo = 0, r->phi = 50;
    const char *stopped = NULL;
    alarm(20);
    bool ok = sv_search(&g, &o, true, gdl_now(), &stopped);
    alarm(0);
    assert_false(ok);
    assert_non_null(g.message);
    assert_non_null(strstr(g.message, "no progress"));
    sv_graph_free(&g);
    game_close(&gm);
}

/* ---- edits ------------------------------------------------------------ */

/* Sets node's IV fields k (lo 2, hi 3, plo 4, phi 5; alo 0, ahi 1) to v[k]
 * (-1: unchanged), writes to name; the file's path. */
static char *edit_iv(const char *src, const char *name, uint32_t node, const int v[7])
{
    size_t len;
    uint8_t *b0 = slurp(src, &len);
    uint8_t *b = base_xmalloc(len + 80);
    memcpy(b, b0, len);
    free(b0);
    for (unsigned k = 7; k-- > 0;) { /* back to front: offsets before stay valid */
        if (v[k] < 0)
            continue;
        Layout l;
        layout(b, len, &l);
        const Field *f = find_field(&l, node, FK_IV, k);
        assert_non_null(f);
        len = set_var(b, len, f, (uint64_t)v[k]);
        layout_free(&l);
    }
    char *path = tmp_path(name);
    spit_rehashed(path, b, len);
    free(b);
    return path;
}

static uint32_t root_of(const char *graph)
{
    size_t len;
    uint8_t *b = slurp(graph, &len);
    Layout l;
    layout(b, len, &l);
    uint32_t root = (uint32_t)l.root;
    layout_free(&l);
    free(b);
    return root;
}

/* The first node whose mover (from the file) is terminal, or whose edges
 * are all unexpanded and not terminal (unexpanded: true). */
static uint32_t node_where(const char *graph, bool unexpanded)
{
    size_t len;
    uint8_t *b = slurp(graph, &len);
    Layout l;
    layout(b, len, &l);
    uint32_t found = BASE_NONE;
    for (uint32_t i = 0; i < l.nodes && found == BASE_NONE; i++) {
        size_t p = find_field(&l, i, FK_MOVER, 0)->at, n;
        uint64_t mover = rd_var(b, &p, &n);
        if (!unexpanded) {
            if (mover == 0)
                found = i;
            continue;
        }
        if (mover == 0)
            continue;
        bool any = false;
        for (uint32_t k = 0; k < l.f.n; k++)
            if (l.f.v[k].node == i && l.f.v[k].kind == FK_CHILD) {
                size_t q = l.f.v[k].at;
                any |= rd_var(b, &q, &n) != 0;
            }
        if (!any)
            found = i;
    }
    layout_free(&l);
    free(b);
    assert_int_not_equal(found, BASE_NONE);
    return found;
}

static void test_edits(void **state)
{
    (void)state;
    alarm(60);
    Game gm;
    game_open(&gm, "games/tictactoe.kif", 50);
    char *full = save_graph(&gm, "full.graph", 0);
    char *part = save_graph(&gm, "part.graph", 150);
    uint32_t root = root_of(full);
    /* the solved root claimed at 100 (every interval) */
    const int at100[7] = {100, 100, 100, 100, 100, 100, -1};
    char *p = edit_iv(full, "e1.graph", root, at100);
    resume_sound(&gm, p, false, "solved root at 100");
    resume_sound(&gm, p, true, "solved root at 100, --proof");
    free(p);
    /* a partial root whose interval contradicts its provable one */
    const int contra[7] = {-1, -1, 100, 100, 0, 50, -1};
    p = edit_iv(part, "e2.graph", root_of(part), contra);
    resume_sound(&gm, p, true, "partial root lo 100, phi 50, --proof");
    resume_sound(&gm, p, false, "partial root lo 100, phi 50");
    free(p);
    /* a terminal state's goal */
    uint32_t t = node_where(full, false);
    const int win[7] = {100, 100, 100, 100, 100, 100, -1};
    p = edit_iv(full, "e3.graph", t, win);
    resume_sound(&gm, p, true, "a terminal's goal, --proof");
    free(p);
    /* an unexpanded node's a-priori interval, in the partial graph */
    uint32_t u = node_where(part, true);
    const int apriori[7] = {100, 100, 100, 100, 100, 100, -1};
    p = edit_iv(part, "e4.graph", u, apriori);
    resume_sound(&gm, p, true, "an unexpanded node at 100, --proof");
    resume_sound(&gm, p, false, "an unexpanded node at 100");
    free(p);
    /* an edge of the root to another node: refused, the node named */
    {
        size_t len;
        uint8_t *b0 = slurp(full, &len);
        uint8_t *b = base_xmalloc(len + 16);
        memcpy(b, b0, len);
        free(b0);
        Layout l;
        layout(b, len, &l);
        const Field *f = find_field(&l, root, FK_CHILD, 0);
        size_t q = f->at, n;
        uint64_t child = rd_var(b, &q, &n);
        len = set_var(b, len, f, child == 1 ? 2 : 1);
        layout_free(&l);
        p = tmp_path("e5.graph");
        spit_rehashed(p, b, len);
        free(b);
        Outcome o;
        solve(&gm, p, NULL, 0, false, &o);
        assert_int_equal(o.st, GDL_BAD_ARGUMENT);
        assert_non_null(o.err);
        assert_non_null(strstr(o.err, "does not lead to the state of node"));
        outcome_free(&o);
        free(p);
    }
    /* a reply removed from a node: its moves are not the legal ones */
    {
        size_t len;
        uint8_t *b0 = slurp(part, &len);
        uint8_t *b = base_xmalloc(len + 16);
        memcpy(b, b0, len);
        free(b0);
        Layout l;
        layout(b, len, &l);
        uint32_t proot = root_of(part);
        const Field *f = find_field(&l, proot, FK_NMOVES, 0);
        size_t q = f->at, n;
        uint64_t nm = rd_var(b, &q, &n);
        /* drop the last joint move's bytes: from its first move text to its sym */
        uint32_t last = BASE_NONE;
        for (uint32_t k = 0; k < l.f.n; k++)
            if (l.f.v[k].node == proot && l.f.v[k].kind == FK_SYM)
                last = k;
        uint32_t prev = last - 2; /* the previous edge's sym, or nmoves when one edge */
        size_t from = l.f.v[prev].at + l.f.v[prev].len, to = l.f.v[last].at + l.f.v[last].len;
        memmove(b + from, b + to, len - to);
        len -= to - from;
        len = set_var(b, len, f, nm - 1);
        layout_free(&l);
        p = tmp_path("e6.graph");
        spit_rehashed(p, b, len);
        free(b);
        Outcome o;
        solve(&gm, p, NULL, 0, true, &o);
        assert_int_equal(o.st, GDL_BAD_ARGUMENT);
        assert_non_null(o.err);
        assert_non_null(strstr(o.err, "joint moves, its state has"));
        outcome_free(&o);
        free(p);
    }
    free(full);
    free(part);
    game_close(&gm);
    alarm(0);
}

/* ---- mutants ----------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    *s += 0x9e3779b97f4a7c15ULL;
    return base_mix64(*s);
}

/* One mutant of src (1 to 3 edits), rehashed, written to path. */
static void mutate(const uint8_t *src, size_t len0, uint64_t seed, const char *path)
{
    uint8_t *b = base_xmalloc(len0 + 64);
    memcpy(b, src, len0);
    size_t len = len0;
    uint64_t rs = seed * 7919 + 1;
    unsigned edits = 1 + (unsigned)(rng_next(&rs) % 3);
    for (unsigned e = 0; e < edits; e++) {
        Layout l;
        layout(b, len, &l);
        unsigned op = (unsigned)(rng_next(&rs) % 8);
        if (op == 0) { /* a byte anywhere before the hash */
            b[9 + rng_next(&rs) % (len - 17)] = (uint8_t)rng_next(&rs);
            layout_free(&l);
            /* the layout no longer holds: no more structured edits */
            break;
        }
        const Field *f = &l.f.v[rng_next(&rs) % l.f.n];
        uint64_t v;
        switch (f->kind) {
        case FK_IV:
            v = f->k == 6 ? rng_next(&rs) % 2 : rng_next(&rs) % 101;
            break;
        case FK_MOVER:
            v = rng_next(&rs) % 4;
            break;
        case FK_CHILD:
            v = rng_next(&rs) % (l.nodes + 1);
            break;
        case FK_SYM:
            v = rng_next(&rs) % l.nsym;
            break;
        case FK_NMOVES:
            /* changes the layout: the last edit */
            v = rng_next(&rs) % 10;
            e = edits;
            break;
        default: /* the header: the root another node, other counts and sums */
            v = f->k == 3 ? rng_next(&rs) % l.nodes : rng_next(&rs) % 202;
            if (f->k == 7) /* the node count changes the layout: the last edit */
                e = edits;
            break;
        }
        len = set_var(b, len, f, v);
        layout_free(&l);
    }
    spit_rehashed(path, b, len);
    free(b);
}

static void mutants_of(Game *gm, const char *graph, unsigned count, unsigned *refused, unsigned *resumed)
{
    size_t len;
    uint8_t *src = slurp(graph, &len);
    char *path = tmp_path("mutant.graph");
    for (unsigned i = 0; i < count; i++) {
        mutate(src, len, i + 1, path);
        char what[80];
        snprintf(what, sizeof what, "%s mutant %u", graph, i + 1);
        if (resume_sound(gm, path, i % 4 != 3, what))
            ++*refused;
        else
            ++*resumed;
    }
    free(path);
    free(src);
}

/* GDLC_SAVED_MUTANTS, or dflt. */
static unsigned mutant_count(unsigned dflt)
{
    const char *e = getenv("GDLC_SAVED_MUTANTS");
    return e ? (unsigned)atoi(e) : dflt;
}

/* Under the sanitizers checking a proof of tic-tac-toe and its eight
 * symmetries takes a second: fewer mutants there. */
#ifdef GDLC_SAVED_SANITIZE
#define SANITIZED(plain, sanitized) (sanitized)
#else
#define SANITIZED(plain, sanitized) (plain)
#endif

static void run_mutants(const char *rel, int value, uint64_t partial, unsigned count)
{
    alarm(240);
    Game gm;
    game_open(&gm, rel, value);
    char *full = save_graph(&gm, "mfull.graph", 0);
    char *part = save_graph(&gm, "mpart.graph", partial);
    unsigned n = mutant_count(count), refused = 0, resumed = 0;
    mutants_of(&gm, part, n - n / 2, &refused, &resumed);
    mutants_of(&gm, full, n / 2, &refused, &resumed);
    if (getenv("GDLC_SAVED_VERBOSE"))
        fprintf(stderr, "%s: %u mutants: %u refused, %u resumed to the value\n", rel, n, refused, resumed);
    /* the edits must reach the values, not only be refused */
    assert_true(resumed > n / 10);
    free(full);
    free(part);
    game_close(&gm);
    alarm(0);
}

static void test_mutants_tictactoe(void **state)
{
    (void)state;
    run_mutants("games/tictactoe.kif", 50, 150, SANITIZED(200, 12));
}

static void test_mutants_nim(void **state)
{
    (void)state;
    run_mutants("tests/solve/nim123.kif", 0, 12, SANITIZED(200, 60));
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/gdlc-saved-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contradiction_in_memory),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_mutants_tictactoe),
        cmocka_unit_test(test_mutants_nim),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char *cmd = base_sprintf("rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    free(cmd);
    return rc;
}
