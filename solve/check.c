/*
 * check.c: the independent checker of the proofs gdlc solve writes
 * (docs/proofs.md, version 1), behind gdlc check-proof and the fuzzing of
 * proofs (tests/fuzz/fuzz_proof.c).
 *
 * It reads the proof and replays it with a state machine of the public
 * API (include/gdl.h; the caller picks the engine) and nothing of the
 * solver's: it lives in solve/ as a stage over the public API, but
 * includes neither solve.h nor internal.h, and shares no code with the
 * files that write proofs. Every node's state is parsed from its facts,
 * every edge's next state is computed and compared with its child's
 * (through the symmetry the edge names, applied by this file from the
 * proof's own map lines), the proving role's move must be legal and every
 * other role's every legal move covered, terminal nodes must respect the
 * bound, and every symmetry of the proof must commute with the game at
 * every node. The first failure is the result, as FILE:LINE: error: node
 * ID: message.
 *
 * The file is input: every line is tokenised with explicit bounds (the
 * text need not end in a NUL), every number is read against the largest
 * value it may take (the count of symmetries for an edge's symmetry, 100
 * for a bound, 2^64 - 1 for an id: past it, or past 20 digits, is an error
 * at its line), the count of symmetries is capped, and the graph walks
 * (reachability, cycles) use explicit stacks, so a deep or hostile proof
 * costs memory in proportion to its size and never the C stack.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/base.h"
#include "check.h"

enum {
    CP_MAX_SYMMETRIES = 1024, /* elements besides the identity (the API cuts groups at 512) */
    CP_MAX_ROLES = 2,
};
/* N symmetries times their pairs in all, at most (the closure check's work). */
#define CP_MAX_GROUP_WORK (1ull << 30)

typedef struct CpTok {
    const char *s;
    size_t len;
} CpTok;

typedef VEC(CpTok) CpToks;

typedef struct CpNode {
    uint64_t id;
    uint32_t line;
    GdlState *st;
    bool has_play;
    uint32_t play_line;
    GdlMove play;
    uint32_t first, n; /* its edges in the section's adjacency (by file order) */
} CpNode;

typedef struct CpEdge {
    uint64_t from_id, to_id;
    uint32_t from, to; /* node indices, once resolved */
    uint32_t line;
    uint32_t sym;
    GdlMove mv[CP_MAX_ROLES];
} CpEdge;

typedef struct CpPlay {
    uint64_t id;
    uint32_t line;
    GdlMove mv;
} CpPlay;

/* A symmetry: the pairs it names, sorted by from (term ids of the Symtab). */
typedef struct CpPair {
    uint32_t from, to;
} CpPair;
typedef VEC(CpPair) CpPairs;

typedef struct CpSection {
    bool present, lower;
    int bound;
    uint64_t root_id;
    uint32_t line;
    VEC(CpNode) nodes;
    VEC(CpEdge) edges;
    VEC(CpPlay) plays;
    /* id -> node index + 1, open addressing */
    uint64_t *keys;
    uint32_t *vals;
    uint32_t cap;
} CpSection;

typedef struct Cp {
    const char *file;
    GdlMachine *m;
    const GdlGame *game;
    unsigned nroles;
    bool failed;
    char *error;       /* the first failure (malloc'd) */
    int lo, hi;
    GdlState *start;
    uint32_t nsym;
    CpPairs *sym;      /* [1..nsym] */
    uint32_t *sym_line;
    Symtab terms;      /* "f TEXT" facts, "mR TEXT" moves of role R */
    uint64_t checked;
} Cp;

/* ---- reporting ------------------------------------------------------- */

static bool fail_at(Cp *c, uint32_t line, const char *fmt, ...) BASE_PRINTF(3, 4);
/* Keeps the first failure: "FILE:LINE: error: " and prefix, then the
 * message. */
static void fail_v(Cp *c, uint32_t line, const char *prefix, const char *fmt, va_list ap)
{
    c->failed = true;
    if (c->error)
        return;
    char *msg = base_vsprintf(fmt, ap);
    c->error = base_sprintf("%s:%u: error: %s%s", c->file, line ? line : 1, prefix, msg);
    free(msg);
}

static bool fail_at(Cp *c, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_v(c, line, "", fmt, ap);
    va_end(ap);
    return false;
}

static const char *status_why(Cp *c, GdlStatus st)
{
    const char *e = gdl_machine_error(c->m);
    return e && *e ? e : gdl_status_name(st);
}

/* ---- tokens and numbers ---------------------------------------------- */

/* Splits one line into tokens: an atom, or a parenthesised term up to its
 * closing parenthesis. A token starting with ';' ends the line. False
 * with *why set on an unbalanced parenthesis or a control character. */
static bool tokenize(const char *s, size_t len, CpToks *out, const char **why)
{
    out->n = 0;
    size_t i = 0;
    while (i < len) {
        char ch = s[i];
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            i++;
            continue;
        }
        if (ch == ';')
            break;
        if ((unsigned char)ch < 0x20 || ch == 0x7f) {
            *why = "a control character";
            return false;
        }
        size_t b = i;
        if (ch == ')') {
            *why = "a ')' without its '('";
            return false;
        }
        if (ch == '(') {
            size_t depth = 0;
            for (; i < len; i++) {
                if (s[i] == '(')
                    depth++;
                else if (s[i] == ')' && --depth == 0)
                    break;
                else if ((unsigned char)s[i] < 0x20 && s[i] != '\t' && s[i] != '\r') {
                    *why = "a control character";
                    return false;
                }
            }
            if (i >= len) {
                *why = "a '(' without its ')'";
                return false;
            }
            i++;
        } else {
            while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '(' && s[i] != ')' &&
                   s[i] != ';') {
                if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
                    *why = "a control character";
                    return false;
                }
                i++;
            }
        }
        vec_push(*out, ((CpTok){s + b, i - b}));
    }
    return true;
}

static bool tok_is(const CpTok *t, const char *word)
{
    size_t n = strlen(word);
    return t->len == n && memcmp(t->s, word, n) == 0;
}

/* A non-negative decimal number, digits only, at most max (a number past
 * max, however many digits, is false: the caller names the line). */
static bool tok_u64(const CpTok *t, uint64_t max, uint64_t *out)
{
    if (t->len == 0 || t->len > 20)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (t->s[i] < '0' || t->s[i] > '9')
            return false;
        unsigned d = (unsigned)(t->s[i] - '0');
        /* v * 10 + d <= max; d > max first, as max - d would wrap (max 0,
         * the count of symmetries of a proof without any, let every digit
         * through) */
        if (d > max || v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* The tokens [from, to) joined by spaces (malloc-ed). */
static char *join(const CpTok *t, size_t from, size_t to)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (size_t i = from; i < to; i++) {
        if (i > from)
            strbuf_add(&b, " ");
        char *w = base_xstrndup(t[i].s, t[i].len);
        strbuf_add(&b, w);
        free(w);
    }
    return b.s;
}

static char *tok_str(const CpTok *t) { return base_xstrndup(t->s, t->len); }

/* A token for a message: cut to 60 bytes. */
static char *tok_brief(const CpTok *t)
{
    if (t->len <= 60)
        return tok_str(t);
    char *head = base_xstrndup(t->s, 57);
    char *s = base_sprintf("%s...", head);
    free(head);
    return s;
}

/* ---- the node index of a section ------------------------------------- */

static uint64_t id_hash(uint64_t id) { return base_mix64(id + 0x9e3779b97f4a7c15ULL); }

static uint32_t sec_find(const CpSection *s, uint64_t id)
{
    if (!s->cap)
        return BASE_NONE;
    for (uint32_t h = (uint32_t)id_hash(id) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
        if (!s->vals[h])
            return BASE_NONE;
        if (s->keys[h] == id)
            return s->vals[h] - 1;
    }
}

static void sec_insert(CpSection *s, uint64_t id, uint32_t idx)
{
    if ((uint64_t)(s->nodes.n + 1) * 2 > s->cap) {
        uint32_t ncap = s->cap ? s->cap * 2 : 64;
        uint64_t *k = base_xcalloc(ncap, sizeof *k);
        uint32_t *v = base_xcalloc(ncap, sizeof *v);
        for (uint32_t i = 0; i < s->cap; i++)
            if (s->vals[i]) {
                uint32_t h = (uint32_t)id_hash(s->keys[i]) & (ncap - 1);
                while (v[h])
                    h = (h + 1) & (ncap - 1);
                k[h] = s->keys[i];
                v[h] = s->vals[i];
            }
        free(s->keys);
        free(s->vals);
        s->keys = k;
        s->vals = v;
        s->cap = ncap;
    }
    uint32_t h = (uint32_t)id_hash(id) & (s->cap - 1);
    while (s->vals[h])
        h = (h + 1) & (s->cap - 1);
    s->keys[h] = id;
    s->vals[h] = idx + 1;
}

static void sec_free(CpSection *s)
{
    for (uint32_t i = 0; i < s->nodes.n; i++)
        gdl_state_free(s->nodes.v[i].st);
    vec_free(s->nodes);
    vec_free(s->edges);
    vec_free(s->plays);
    free(s->keys);
    free(s->vals);
    memset(s, 0, sizeof *s);
}

/* ---- terms and symmetries -------------------------------------------- */

/* The key of a fact or of role r's move (r < 0: a fact) in the term table. */
static char *term_key(int r, const char *text)
{
    return r < 0 ? base_sprintf("f %s", text) : base_sprintf("m%d %s", r, text);
}

/* The image of term id t under symmetry k (t itself when not named). */
static uint32_t sym_map(const Cp *c, uint32_t k, uint32_t t)
{
    const CpPairs *p = &c->sym[k];
    uint32_t lo = 0, hi = p->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->v[mid].from < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n && p->v[lo].from == t ? p->v[lo].to : t;
}

/* The image under symmetry k of a text of role r's move or of a fact
 * (r < 0): a pointer to the image's text (into the term table or text). */
static const char *sym_text(const Cp *c, uint32_t k, int r, const char *text)
{
    if (k == 0)
        return text;
    char *key = term_key(r, text);
    uint32_t id = symtab_find(&c->terms, key, strlen(key));
    free(key);
    if (id == BASE_NONE)
        return text;
    uint32_t to = sym_map(c, k, id);
    const char *img = symtab_str(&c->terms, to);
    return strchr(img, ' ') + 1;
}

static GdlStatus sym_state(Cp *c, uint32_t k, const GdlState *s, GdlState **out)
{
    *out = NULL;
    if (k == 0) {
        *out = gdl_state_copy(s);
        return *out ? GDL_OK : GDL_OUT_OF_MEMORY;
    }
    StrBuf b = {0};
    strbuf_add(&b, "");
    size_t n = gdl_state_size(s);
    for (size_t i = 0; i < n; i++) {
        const char *f = gdl_state_fact(c->m, s, i);
        if (!f) {
            free(b.s);
            return GDL_BAD_ARGUMENT;
        }
        strbuf_add_word(&b, sym_text(c, k, -1, f));
    }
    GdlStatus st = gdl_state_parse(c->m, b.s, out);
    free(b.s);
    return st;
}

static GdlStatus sym_move(Cp *c, uint32_t k, unsigned r, GdlMove mv, GdlMove *out)
{
    if (k == 0) {
        *out = mv;
        return GDL_OK;
    }
    const char *t = gdl_move_text(c->m, mv);
    if (!t)
        return GDL_BAD_ARGUMENT;
    const char *img = sym_text(c, k, (int)r, t);
    if (img == t) {
        *out = mv;
        return GDL_OK;
    }
    char *copy = base_xstrdup(img);
    GdlStatus st = gdl_move_parse(c->m, copy, out);
    free(copy);
    return st;
}

static int pair_cmp(const void *a, const void *b)
{
    const CpPair *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from ? 1 : x->to < y->to ? -1 : x->to > y->to;
}

/* The canonical form of a symmetry: its pairs sorted, those that fix their
 * term dropped. */
static void sym_canon(CpPairs *p)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < p->n; i++)
        if (p->v[i].from != p->v[i].to)
            p->v[w++] = p->v[i];
    p->n = w;
    if (p->n)
        qsort(p->v, p->n, sizeof *p->v, pair_cmp);
}

static uint64_t pairs_hash(const CpPairs *p)
{
    return p->n ? base_hash_bytes(p->v, p->n * sizeof *p->v, 7) : 0;
}

static bool pairs_equal(const CpPairs *a, const CpPairs *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, a->n * sizeof *a->v) == 0);
}

typedef struct CpSymKey {
    uint64_t h;
    uint32_t k;
} CpSymKey;

static int symkey_cmp(const void *a, const void *b)
{
    const CpSymKey *x = a, *y = b;
    return x->h < y->h ? -1 : x->h > y->h ? 1 : x->k < y->k ? -1 : x->k > y->k;
}

/* Each symmetry a bijection of the terms it names, none the identity, no
 * two alike, the set with the identity closed under composition. */
static bool check_group(Cp *c, uint32_t symbols_line)
{
    uint32_t N = c->nsym;
    for (uint32_t k = 1; k <= N; k++)
        if (!c->sym_line[k])
            c->sym_line[k] = symbols_line;
    /* bijection: froms distinct, tos distinct, and every image is itself
     * mapped (errors at the symmetry's first map line) */
    for (uint32_t k = 1; k <= N; k++) {
        CpPairs *p = &c->sym[k];
        if (p->n)
            qsort(p->v, p->n, sizeof *p->v, pair_cmp);
        for (uint32_t i = 0; i + 1 < p->n; i++)
            if (p->v[i].from == p->v[i + 1].from)
                return fail_at(c, c->sym_line[k], "symmetry %u maps %s twice", k,
                               strchr(symtab_str(&c->terms, p->v[i].from), ' ') + 1);
        CpPairs tos = {0};
        for (uint32_t i = 0; i < p->n; i++)
            vec_push(tos, ((CpPair){p->v[i].to, p->v[i].from}));
        if (tos.n)
            qsort(tos.v, tos.n, sizeof *tos.v, pair_cmp);
        for (uint32_t i = 0; i < tos.n; i++) {
            const char *img = strchr(symtab_str(&c->terms, tos.v[i].from), ' ') + 1;
            if (i + 1 < tos.n && tos.v[i].from == tos.v[i + 1].from) {
                vec_free(tos);
                return fail_at(c, c->sym_line[k], "symmetry %u is not one to one: two terms map to %s", k, img);
            }
            uint32_t lo = 0, hi = p->n;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (p->v[mid].from < tos.v[i].from)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (!(lo < p->n && p->v[lo].from == tos.v[i].from)) {
                vec_free(tos);
                return fail_at(c, c->sym_line[k],
                               "symmetry %u is not a bijection: %s is an image but is not mapped (it would map "
                               "to itself, and two terms to it)",
                               k, img);
            }
        }
        vec_free(tos);
        sym_canon(p);
        if (p->n == 0)
            return fail_at(c, c->sym_line[k], "symmetry %u is the identity (list the elements besides it)", k);
    }
    if (N == 0)
        return true;
    /* the closure check composes every pair: about 2 N L steps for L pairs
     * in all; a file past CP_MAX_GROUP_WORK is refused, not ground through */
    uint64_t total = 0;
    for (uint32_t k = 1; k <= N; k++)
        total += c->sym[k].n;
    if (total * N > CP_MAX_GROUP_WORK)
        return fail_at(c, symbols_line, "%u symmetries of %llu pairs in all: more than this checker composes "
                       "(N times the pairs at most %llu)", N, (unsigned long long)total,
                       (unsigned long long)CP_MAX_GROUP_WORK);
    CpSymKey *keys = base_xmalloc((size_t)N * sizeof *keys);
    for (uint32_t k = 1; k <= N; k++)
        keys[k - 1] = (CpSymKey){pairs_hash(&c->sym[k]), k};
    qsort(keys, N, sizeof *keys, symkey_cmp);
    for (uint32_t i = 0; i + 1 < N; i++)
        if (keys[i].h == keys[i + 1].h && pairs_equal(&c->sym[keys[i].k], &c->sym[keys[i + 1].k])) {
            uint32_t a = keys[i].k < keys[i + 1].k ? keys[i].k : keys[i + 1].k;
            uint32_t b = keys[i].k ^ keys[i + 1].k ^ a;
            free(keys);
            return fail_at(c, c->sym_line[b], "symmetry %u is symmetry %u again", b, a);
        }
    /* closure: sigma_i o sigma_j (j first) is the identity or some sigma_k */
    CpPairs comp = {0};
    bool ok = true;
    for (uint32_t i = 1; i <= N && ok; i++)
        for (uint32_t j = 1; j <= N && ok; j++) {
            comp.n = 0;
            const CpPairs *pj = &c->sym[j], *pi = &c->sym[i];
            for (uint32_t x = 0; x < pj->n; x++)
                vec_push(comp, ((CpPair){pj->v[x].from, sym_map(c, i, pj->v[x].to)}));
            for (uint32_t x = 0; x < pi->n; x++)
                if (sym_map(c, j, pi->v[x].from) == pi->v[x].from) /* not moved by j: not listed yet */
                    vec_push(comp, pi->v[x]);
            sym_canon(&comp);
            if (comp.n == 0)
                continue;
            CpSymKey want = {pairs_hash(&comp), 0};
            size_t lo = 0, hi = N;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (keys[mid].h < want.h)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            bool found = false;
            for (; lo < N && keys[lo].h == want.h && !found; lo++)
                found = pairs_equal(&c->sym[keys[lo].k], &comp);
            if (!found)
                ok = fail_at(c, symbols_line,
                             "the symmetries are not a group: symmetry %u after symmetry %u is none of them", i, j);
        }
    vec_free(comp);
    free(keys);
    return ok;
}

/* ---- reading --------------------------------------------------------- */

typedef struct CpReader {
    const char *text;
    size_t len, pos;
    uint32_t line;
    CpToks tok;
} CpReader;

/* The next line that is not blank or a comment, tokenised; false at the end
 * of the file (or after an error, with c->failed). */
static bool next_line(Cp *c, CpReader *r)
{
    while (r->pos < r->len) {
        size_t b = r->pos;
        const char *nl = memchr(r->text + b, '\n', r->len - b);
        size_t e = nl ? (size_t)(nl - r->text) : r->len;
        r->pos = nl ? e + 1 : r->len;
        r->line++;
        const char *why = NULL;
        if (!tokenize(r->text + b, e - b, &r->tok, &why))
            return fail_at(c, r->line, "%s", why);
        if (r->tok.n)
            return true;
    }
    return false;
}

/* A fact of the game as one term: its canonical text's id in the table. */
static bool read_term(Cp *c, uint32_t line, int role, const CpTok *t, uint32_t *id)
{
    char *s = tok_str(t);
    const char *canon = NULL;
    GdlState *st = NULL;
    GdlMove mv;
    GdlStatus e;
    if (role < 0) {
        e = gdl_state_parse(c->m, s, &st);
        if (e == GDL_OK && gdl_state_size(st) != 1)
            e = GDL_BAD_ARGUMENT;
        if (e == GDL_OK)
            canon = gdl_state_fact(c->m, st, 0);
    } else {
        e = gdl_move_parse(c->m, s, &mv);
        if (e == GDL_OK)
            canon = gdl_move_text(c->m, mv);
    }
    bool ok = e == GDL_OK && canon;
    if (!ok) {
        char *b = tok_brief(t);
        fail_at(c, line, "'%s' is not a %s: %s", b, role < 0 ? "fact" : "move",
                e == GDL_OK ? "one term is needed" : status_why(c, e));
        free(b);
    } else {
        char *key = term_key(role, canon);
        *id = symtab_intern(&c->terms, key, strlen(key));
        free(key);
    }
    gdl_state_free(st);
    free(s);
    return ok;
}

static bool read_move(Cp *c, uint32_t line, const CpTok *t, GdlMove *mv)
{
    char *s = tok_str(t);
    GdlStatus e = gdl_move_parse(c->m, s, mv);
    if (e != GDL_OK) {
        char *b = tok_brief(t);
        fail_at(c, line, "'%s' is not a move: %s", b, status_why(c, e));
        free(b);
    }
    free(s);
    return e == GDL_OK;
}

static bool read_header(Cp *c, CpReader *r)
{
    static const char *const kinds[] = {"gdlc-proof", "roles", "start", "value", "symmetries"};
    for (int k = 0; k < 5; k++) {
        if (!next_line(c, r))
            return c->failed ? false
                             : fail_at(c, r->line, "the file ends before its '%s' line (a truncated file?)", kinds[k]);
        CpTok *t = r->tok.v;
        uint32_t n = r->tok.n;
        if (!tok_is(&t[0], kinds[k])) {
            char *w = tok_brief(&t[0]);
            fail_at(c, r->line, "expected the '%s' line of the header, not '%s'", kinds[k], w);
            free(w);
            return false;
        }
        uint64_t v;
        switch (k) {
        case 0:
            if (n != 2 || !tok_is(&t[1], "1"))
                return fail_at(c, r->line, "this checker reads proofs of version 1: 'gdlc-proof 1'");
            break;
        case 1:
            if (n - 1 != c->nroles)
                return fail_at(c, r->line, "the proof names %u role%s, the game has %u", n - 1, n == 2 ? "" : "s",
                               c->nroles);
            for (unsigned i = 0; i < c->nroles; i++) {
                char *w = tok_str(&t[i + 1]), *b = tok_brief(&t[i + 1]);
                unsigned ri;
                bool ok = gdl_game_role_find(c->game, w, &ri) == GDL_OK && ri == i;
                if (!ok)
                    fail_at(c, r->line, "role %u is '%s', the game's is '%s'", i + 1, b,
                            gdl_game_role_name(c->game, i));
                free(w);
                free(b);
                if (!ok)
                    return false;
            }
            break;
        case 2: {
            GdlStatus e;
            if (n == 2 && tok_is(&t[1], "initial"))
                e = gdl_state_initial(c->m, &c->start);
            else {
                char *s = join(t, 1, n);
                e = gdl_state_parse(c->m, s, &c->start);
                free(s);
            }
            if (e != GDL_OK)
                return fail_at(c, r->line, "the start state: %s", status_why(c, e));
            break;
        }
        case 3:
            if (n != 3)
                return fail_at(c, r->line, "expected 'value LO HI'");
            if (!tok_u64(&t[1], 100, &v))
                return fail_at(c, r->line, "LO is a whole number from 0 to 100");
            c->lo = (int)v;
            if (!tok_u64(&t[2], 100, &v))
                return fail_at(c, r->line, "HI is a whole number from 0 to 100");
            c->hi = (int)v;
            if (c->lo > c->hi)
                return fail_at(c, r->line, "LO %d is above HI %d", c->lo, c->hi);
            break;
        case 4:
            if (n != 2 || !tok_u64(&t[1], CP_MAX_SYMMETRIES, &v))
                return fail_at(c, r->line, "expected 'symmetries N', N a whole number from 0 to %u",
                               (unsigned)CP_MAX_SYMMETRIES);
            c->nsym = (uint32_t)v;
            c->sym = base_xcalloc(c->nsym + 1, sizeof *c->sym);
            c->sym_line = base_xcalloc(c->nsym + 1, sizeof *c->sym_line);
            break;
        }
    }
    return true;
}

/* map K fact TERM TERM | map K move ROLE TERM TERM */
static bool read_map(Cp *c, CpReader *r)
{
    CpTok *t = r->tok.v;
    uint32_t n = r->tok.n;
    uint64_t k;
    if (n < 3 || !tok_u64(&t[1], UINT32_MAX, &k) || k == 0 || k > c->nsym)
        return fail_at(c, r->line, "expected 'map K fact TERM TERM' or 'map K move ROLE TERM TERM', K from 1 to %u",
                       c->nsym);
    int role = -1;
    uint32_t at;
    if (tok_is(&t[2], "fact") && n == 5)
        at = 3;
    else if (tok_is(&t[2], "move") && n == 6) {
        char *w = tok_str(&t[3]), *b = tok_brief(&t[3]);
        unsigned ri;
        bool ok = gdl_game_role_find(c->game, w, &ri) == GDL_OK;
        if (!ok)
            fail_at(c, r->line, "no role '%s'", b);
        free(w);
        free(b);
        if (!ok)
            return false;
        role = (int)ri;
        at = 4;
    } else
        return fail_at(c, r->line, "expected 'map K fact TERM TERM' or 'map K move ROLE TERM TERM'");
    uint32_t from, to;
    if (!read_term(c, r->line, role, &t[at], &from) || !read_term(c, r->line, role, &t[at + 1], &to))
        return false;
    CpPairs *p = &c->sym[k];
    vec_push(*p, ((CpPair){from, to}));
    if (!c->sym_line[k])
        c->sym_line[k] = r->line;
    return true;
}

/* node ID FACT... | play ID MOVE | edge ID CHILD SYM MOVE... */
static bool read_body_line(Cp *c, CpReader *r, CpSection *s)
{
    CpTok *t = r->tok.v;
    uint32_t n = r->tok.n;
    uint64_t id;
    if (n < 2 || !tok_u64(&t[1], UINT64_MAX, &id)) {
        char *w = tok_brief(&t[0]);
        fail_at(c, r->line, "'%s' needs a node id (a whole number)", w);
        free(w);
        return false;
    }
    if (tok_is(&t[0], "node")) {
        if (sec_find(s, id) != BASE_NONE)
            return fail_at(c, r->line, "node %llu: a second node line for it", (unsigned long long)id);
        char *text = join(t, 2, n);
        GdlState *st = NULL;
        GdlStatus e = gdl_state_parse(c->m, text, &st);
        free(text);
        if (e != GDL_OK)
            return fail_at(c, r->line, "node %llu: its state: %s", (unsigned long long)id, status_why(c, e));
        CpNode nd = {.id = id, .line = r->line, .st = st};
        sec_insert(s, id, s->nodes.n);
        vec_push(s->nodes, nd);
    } else if (tok_is(&t[0], "play")) {
        if (n != 3)
            return fail_at(c, r->line, "node %llu: expected 'play ID MOVE'", (unsigned long long)id);
        CpPlay p = {.id = id, .line = r->line};
        if (!read_move(c, r->line, &t[2], &p.mv))
            return false;
        vec_push(s->plays, p);
    } else if (tok_is(&t[0], "edge")) {
        uint64_t child, sym;
        if (n != 4 + c->nroles)
            return fail_at(c, r->line, "node %llu: expected 'edge ID CHILD SYM' and %u move%s", (unsigned long long)id,
                           c->nroles, c->nroles == 1 ? "" : "s");
        if (!tok_u64(&t[2], UINT64_MAX, &child))
            return fail_at(c, r->line, "node %llu: CHILD is a node id (a whole number)", (unsigned long long)id);
        if (!tok_u64(&t[3], c->nsym, &sym))
            return fail_at(c, r->line, "node %llu: SYM is 0 (the identity) or a symmetry from 1 to %u",
                           (unsigned long long)id, c->nsym);
        CpEdge e = {.from_id = id, .to_id = child, .line = r->line, .sym = (uint32_t)sym};
        for (unsigned i = 0; i < c->nroles; i++)
            if (!read_move(c, r->line, &t[4 + i], &e.mv[i]))
                return false;
        vec_push(s->edges, e);
    } else {
        char *w = tok_brief(&t[0]);
        fail_at(c, r->line, "unknown line kind '%s' (node, play, edge, section or end)", w);
        free(w);
        return false;
    }
    return true;
}

/* ---- checking a section ---------------------------------------------- */

/* The first fact of the next state a missing from node id's state b, or
 * the other way round. */
static void state_diff(Cp *c, const GdlState *a, const GdlState *b, unsigned long long id, StrBuf *out)
{
    for (int pass = 0; pass < 2; pass++) {
        const GdlState *x = pass ? b : a, *y = pass ? a : b;
        for (size_t i = 0; i < gdl_state_size(x); i++) {
            const char *f = gdl_state_fact(c->m, x, i);
            bool found = false;
            for (size_t j = 0; j < gdl_state_size(y) && !found; j++)
                found = strcmp(f, gdl_state_fact(c->m, y, j)) == 0;
            if (!found) {
                if (pass)
                    strbuf_addf(out, " (%s is in node %llu's state, not in the next state)", f, id);
                else
                    strbuf_addf(out, " (%s is in the next state, not in node %llu's)", f, id);
                return;
            }
        }
    }
}

typedef struct CpLegal {
    GdlMove *v[CP_MAX_ROLES];
    size_t n[CP_MAX_ROLES];
} CpLegal;

static void legal_free(CpLegal *l)
{
    for (unsigned r = 0; r < CP_MAX_ROLES; r++)
        free(l->v[r]);
    memset(l, 0, sizeof *l);
}

static GdlStatus legal_get(Cp *c, const GdlState *s, CpLegal *l)
{
    memset(l, 0, sizeof *l);
    for (unsigned r = 0; r < c->nroles; r++) {
        const GdlMove *mv;
        size_t n;
        GdlStatus st = gdl_state_legal(c->m, s, r, &mv, &n);
        if (st != GDL_OK)
            return st;
        l->v[r] = base_xmalloc((n + 1) * sizeof *mv);
        if (n)
            memcpy(l->v[r], mv, n * sizeof *mv);
        l->n[r] = n;
    }
    return GDL_OK;
}

static bool has_move(const CpLegal *l, unsigned r, GdlMove mv)
{
    for (size_t i = 0; i < l->n[r]; i++)
        if (l->v[r][i] == mv)
            return true;
    return false;
}

static char *joint_text(Cp *c, const GdlMove *j)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (unsigned r = 0; r < c->nroles; r++)
        strbuf_addf(&b, "%s%s %s", r ? ", " : "", gdl_game_role_name(c->game, r), gdl_move_text(c->m, j[r]));
    return b.s;
}

static bool node_fail(Cp *c, uint32_t line, unsigned long long id, const char *fmt, ...) BASE_PRINTF(4, 5);
static bool node_fail(Cp *c, uint32_t line, unsigned long long id, const char *fmt, ...)
{
    char prefix[40];
    snprintf(prefix, sizeof prefix, "node %llu: ", id);
    va_list ap;
    va_start(ap, fmt);
    fail_v(c, line, prefix, fmt, ap);
    va_end(ap);
    return false;
}
#define NODE_FAIL(line, id, ...) node_fail(c, (line), (id), __VA_ARGS__)

/* Symmetry k commutes with the game at node nd (state s, legal moves l,
 * terminal and goals known). */
static bool check_commute(Cp *c, const CpSection *sec, const CpNode *nd, uint32_t k, bool terminal, const int *goals,
                          const CpLegal *l)
{
    unsigned long long id = (unsigned long long)nd->id;
    GdlState *ss = NULL, *n1 = NULL, *n2 = NULL, *img = NULL;
    CpLegal l2 = {0};
    bool ok = false;
    GdlStatus st = sym_state(c, k, nd->st, &ss);
    bool t2;
    int g2[CP_MAX_ROLES];
    if (st != GDL_OK) {
        NODE_FAIL(nd->line, id, "the image of the state under symmetry %u: %s", k, status_why(c, st));
        goto out;
    }
    if ((st = gdl_state_is_terminal(c->m, ss, &t2)) != GDL_OK) {
        NODE_FAIL(nd->line, id, "symmetry %u: the image of the state: %s", k, status_why(c, st));
        goto out;
    }
    if (t2 != terminal) {
        NODE_FAIL(nd->line, id, "symmetry %u does not commute with the game here: the state is %sterminal, its "
                                "image is %sterminal", k, terminal ? "" : "not ", t2 ? "" : "not ");
        goto out;
    }
    if (terminal) {
        if ((st = gdl_state_goals(c->m, ss, g2)) != GDL_OK) {
            NODE_FAIL(nd->line, id, "symmetry %u: the goals of the image: %s", k, status_why(c, st));
            goto out;
        }
        for (unsigned r = 0; r < c->nroles; r++)
            if (g2[r] != goals[r]) {
                NODE_FAIL(nd->line, id, "symmetry %u does not commute with the game here: %s's goal is %d, in the "
                                        "image %d", k, gdl_game_role_name(c->game, r), goals[r], g2[r]);
                goto out;
            }
        ok = true;
        goto out;
    }
    if ((st = legal_get(c, ss, &l2)) != GDL_OK) {
        NODE_FAIL(nd->line, id, "symmetry %u: the legal moves of the image: %s", k, status_why(c, st));
        goto out;
    }
    for (unsigned r = 0; r < c->nroles; r++) {
        if (l2.n[r] != l->n[r]) {
            NODE_FAIL(nd->line, id, "symmetry %u does not commute with the game here: %s has %zu legal moves, in "
                                    "the image %zu", k, gdl_game_role_name(c->game, r), l->n[r], l2.n[r]);
            goto out;
        }
        for (size_t i = 0; i < l->n[r]; i++) {
            GdlMove mv;
            if ((st = sym_move(c, k, r, l->v[r][i], &mv)) != GDL_OK || !has_move(&l2, r, mv)) {
                NODE_FAIL(nd->line, id, "symmetry %u does not commute with the game here: the image of %s's legal "
                                        "move %s is not legal in the image of the state", k,
                          gdl_game_role_name(c->game, r), gdl_move_text(c->m, l->v[r][i]));
                goto out;
            }
        }
    }
    for (uint32_t e = nd->first; e < nd->first + nd->n; e++) {
        const CpEdge *ed = &sec->edges.v[e];
        GdlMove j2[CP_MAX_ROLES];
        for (unsigned r = 0; r < c->nroles; r++)
            if ((st = sym_move(c, k, r, ed->mv[r], &j2[r])) != GDL_OK)
                break;
        gdl_state_free(n1), gdl_state_free(n2), gdl_state_free(img);
        n1 = n2 = img = NULL;
        if (st == GDL_OK)
            st = gdl_state_next(c->m, nd->st, ed->mv, &n1);
        if (st == GDL_OK)
            st = sym_state(c, k, n1, &img);
        if (st == GDL_OK)
            st = gdl_state_next(c->m, ss, j2, &n2);
        if (st != GDL_OK) {
            NODE_FAIL(ed->line, id, "symmetry %u on this edge: %s", k, status_why(c, st));
            goto out;
        }
        if (!gdl_state_equal(img, n2)) {
            char *jt = joint_text(c, ed->mv);
            NODE_FAIL(ed->line, id, "symmetry %u does not commute with the game here: the image of the next state "
                                    "after (%s) is not the next state of the images", k, jt);
            free(jt);
            goto out;
        }
    }
    ok = true;
out:
    legal_free(&l2);
    gdl_state_free(ss), gdl_state_free(n1), gdl_state_free(n2), gdl_state_free(img);
    return ok;
}

static bool check_node(Cp *c, const CpSection *sec, const CpNode *nd)
{
    unsigned long long id = (unsigned long long)nd->id;
    int prover = sec->lower ? 0 : c->nroles == 2 ? 1 : -1;
    bool terminal;
    int goals[CP_MAX_ROLES] = {0};
    GdlStatus st = gdl_state_is_terminal(c->m, nd->st, &terminal);
    if (st != GDL_OK)
        return NODE_FAIL(nd->line, id, "the engine fails on its state: %s", status_why(c, st));
    CpLegal l = {0};
    GdlState *next = NULL, *img = NULL;
    bool ok = false;
    if (terminal) {
        if ((st = gdl_state_goals(c->m, nd->st, goals)) != GDL_OK)
            return NODE_FAIL(nd->line, id, "the goals of its terminal state: %s", status_why(c, st));
        if (nd->has_play)
            return NODE_FAIL(nd->play_line, id, "a play at a terminal state");
        if (nd->n)
            return NODE_FAIL(sec->edges.v[nd->first].line, id, "an edge from a terminal state");
        if (sec->lower && goals[0] < sec->bound)
            return NODE_FAIL(nd->line, id, "terminal, %s's goal is %d, below the lower bound %d",
                             gdl_game_role_name(c->game, 0), goals[0], sec->bound);
        if (!sec->lower && goals[0] > sec->bound)
            return NODE_FAIL(nd->line, id, "terminal, %s's goal is %d, above the upper bound %d",
                             gdl_game_role_name(c->game, 0), goals[0], sec->bound);
        ok = true;
        goto syms;
    }
    if ((st = legal_get(c, nd->st, &l)) != GDL_OK) {
        NODE_FAIL(nd->line, id, "the legal moves of its state: %s", status_why(c, st));
        goto out;
    }
    if (prover < 0 && nd->has_play) {
        NODE_FAIL(nd->play_line, id, "a play in a puzzle's upper section (every move is covered there)");
        goto out;
    }
    if (prover >= 0 && !nd->has_play) {
        NODE_FAIL(nd->line, id, "no play line: %s's move is missing", gdl_game_role_name(c->game, (unsigned)prover));
        goto out;
    }
    if (prover >= 0 && !has_move(&l, (unsigned)prover, nd->play)) {
        NODE_FAIL(nd->play_line, id, "%s is not a legal move of %s", gdl_move_text(c->m, nd->play),
                  gdl_game_role_name(c->game, (unsigned)prover));
        goto out;
    }
    /* the edges: legal, the play for the prover, none twice */
    for (uint32_t e = nd->first; e < nd->first + nd->n; e++) {
        const CpEdge *ed = &sec->edges.v[e];
        for (unsigned r = 0; r < c->nroles; r++) {
            if (!has_move(&l, r, ed->mv[r])) {
                NODE_FAIL(ed->line, id, "an edge with %s, not a legal move of %s", gdl_move_text(c->m, ed->mv[r]),
                          gdl_game_role_name(c->game, r));
                goto out;
            }
            if ((int)r == prover && ed->mv[r] != nd->play) {
                NODE_FAIL(ed->line, id, "an edge with %s's move %s, not its play %s", gdl_game_role_name(c->game, r),
                          gdl_move_text(c->m, ed->mv[r]), gdl_move_text(c->m, nd->play));
                goto out;
            }
        }
        for (uint32_t f = nd->first; f < e; f++)
            if (memcmp(sec->edges.v[f].mv, ed->mv, c->nroles * sizeof *ed->mv) == 0) {
                char *jt = joint_text(c, ed->mv);
                NODE_FAIL(ed->line, id, "a second edge for (%s)", jt);
                free(jt);
                goto out;
            }
    }
    /* none missing: every combination of the other roles' legal moves */
    uint64_t want = 1;
    for (unsigned r = 0; r < c->nroles; r++)
        if ((int)r != prover)
            want *= l.n[r];
    if (nd->n != want) {
        size_t at[CP_MAX_ROLES] = {0};
        GdlMove j[CP_MAX_ROLES];
        for (;;) {
            for (unsigned r = 0; r < c->nroles; r++)
                j[r] = (int)r == prover ? nd->play : l.v[r][at[r]];
            bool found = false;
            for (uint32_t e = nd->first; e < nd->first + nd->n && !found; e++)
                found = memcmp(sec->edges.v[e].mv, j, c->nroles * sizeof *j) == 0;
            if (!found) {
                char *jt = joint_text(c, j);
                NODE_FAIL(nd->line, id, "no edge for the joint move (%s): %s is missing", jt,
                          prover >= 0 ? "a reply" : "a line of play");
                free(jt);
                goto out;
            }
            int r = (int)c->nroles - 1;
            for (; r >= 0; r--) {
                if (r == prover)
                    continue;
                if (++at[r] < l.n[r])
                    break;
                at[r] = 0;
            }
            if (r < 0)
                break;
        }
        NODE_FAIL(nd->line, id, "%u edges where %llu are due", nd->n, (unsigned long long)want);
        goto out;
    }
    /* each edge's child holds the image of the next state */
    for (uint32_t e = nd->first; e < nd->first + nd->n; e++) {
        const CpEdge *ed = &sec->edges.v[e];
        gdl_state_free(next), gdl_state_free(img);
        next = img = NULL;
        if ((st = gdl_state_next(c->m, nd->st, ed->mv, &next)) != GDL_OK ||
            (st = sym_state(c, ed->sym, next, &img)) != GDL_OK) {
            NODE_FAIL(ed->line, id, "the next state: %s", status_why(c, st));
            goto out;
        }
        const CpNode *ch = &sec->nodes.v[ed->to];
        if (!gdl_state_equal(img, ch->st)) {
            StrBuf b = {0};
            strbuf_add(&b, "");
            state_diff(c, img, ch->st, (unsigned long long)ch->id, &b);
            char *jt = joint_text(c, ed->mv);
            if (ed->sym)
                NODE_FAIL(ed->line, id, "after (%s), the image of the next state under symmetry %u is not node %llu's "
                                        "state%s", jt, ed->sym, (unsigned long long)ch->id, b.s);
            else
                NODE_FAIL(ed->line, id, "after (%s), the next state is not node %llu's state%s", jt,
                          (unsigned long long)ch->id, b.s);
            free(jt);
            free(b.s);
            goto out;
        }
    }
    ok = true;
syms:
    for (uint32_t k = 1; k <= c->nsym && ok; k++)
        ok = check_commute(c, sec, nd, k, terminal, goals, &l);
out:
    legal_free(&l);
    gdl_state_free(next), gdl_state_free(img);
    return ok;
}

static bool check_section(Cp *c, CpSection *s)
{
    /* plays onto their nodes */
    for (uint32_t i = 0; i < s->plays.n; i++) {
        CpPlay *p = &s->plays.v[i];
        uint32_t x = sec_find(s, p->id);
        if (x == BASE_NONE)
            return fail_at(c, p->line, "node %llu: a play for a node the section does not have",
                           (unsigned long long)p->id);
        CpNode *nd = &s->nodes.v[x];
        if (nd->has_play)
            return fail_at(c, p->line, "node %llu: a second play line", (unsigned long long)p->id);
        nd->has_play = true;
        nd->play = p->mv;
        nd->play_line = p->line;
    }
    /* edges resolved, then grouped by their node (file order kept) */
    for (uint32_t i = 0; i < s->edges.n; i++) {
        CpEdge *e = &s->edges.v[i];
        if ((e->from = sec_find(s, e->from_id)) == BASE_NONE)
            return fail_at(c, e->line, "node %llu: an edge from a node the section does not have",
                           (unsigned long long)e->from_id);
        if ((e->to = sec_find(s, e->to_id)) == BASE_NONE)
            return fail_at(c, e->line, "node %llu: an edge to node %llu, which the section does not have",
                           (unsigned long long)e->from_id, (unsigned long long)e->to_id);
        s->nodes.v[e->from].n++;
    }
    uint32_t nn = s->nodes.n;
    uint32_t sum = 0;
    for (uint32_t i = 0; i < nn; i++) {
        s->nodes.v[i].first = sum;
        sum += s->nodes.v[i].n;
        s->nodes.v[i].n = 0;
    }
    CpEdge *sorted = base_xmalloc((s->edges.n + 1) * sizeof *sorted);
    for (uint32_t i = 0; i < s->edges.n; i++) {
        CpNode *nd = &s->nodes.v[s->edges.v[i].from];
        sorted[nd->first + nd->n++] = s->edges.v[i];
    }
    free(s->edges.v);
    s->edges.v = sorted;
    s->edges.cap = s->edges.n + 1;

    uint32_t root = sec_find(s, s->root_id);
    if (root == BASE_NONE)
        return fail_at(c, s->line, "node %llu: the root is not in the section", (unsigned long long)s->root_id);
    if (!gdl_state_equal(s->nodes.v[root].st, c->start))
        return fail_at(c, s->nodes.v[root].line, "node %llu: the root's state is not the start state",
                       (unsigned long long)s->root_id);
    /* every node on its own, in file order (a missing reply is reported as
     * such, before the nodes it leaves unreached) */
    for (uint32_t i = 0; i < nn; i++) {
        if (!check_node(c, s, &s->nodes.v[i]))
            return false;
        c->checked++;
    }
    /* from the root, depth first with an explicit stack: a cycle is an edge
     * to a node on the stack; then every node must have been reached */
    uint8_t *colour = base_xcalloc(nn + 1, 1);
    uint32_t *stack = base_xmalloc((nn + 1) * sizeof *stack), *cursor = base_xcalloc(nn + 1, sizeof *cursor);
    uint32_t sp = 0;
    bool ok = true;
    stack[sp++] = root;
    colour[root] = 1;
    while (sp && ok) {
        uint32_t v = stack[sp - 1];
        CpNode *nd = &s->nodes.v[v];
        if (cursor[v] < nd->n) {
            const CpEdge *e = &s->edges.v[nd->first + cursor[v]++];
            if (colour[e->to] == 1)
                ok = fail_at(c, e->line, "node %llu: the edge to node %llu closes a cycle (a strategy must end)",
                             (unsigned long long)nd->id, (unsigned long long)s->nodes.v[e->to].id);
            else if (colour[e->to] == 0) {
                colour[e->to] = 1;
                stack[sp++] = e->to;
            }
        } else {
            colour[v] = 2;
            sp--;
        }
    }
    for (uint32_t i = 0; i < nn && ok; i++)
        if (!colour[i])
            ok = fail_at(c, s->nodes.v[i].line, "node %llu: not reached from the root %llu",
                         (unsigned long long)s->nodes.v[i].id, (unsigned long long)s->root_id);
    free(colour);
    free(stack);
    free(cursor);
    return ok;
}

/* ---- the whole file -------------------------------------------------- */

static bool check_file(Cp *c, CpReader *r)
{
    if (!read_header(c, r))
        return false;
    uint32_t symbols_line = r->line;
    bool more;
    while ((more = next_line(c, r)) && tok_is(&r->tok.v[0], "map"))
        if (!read_map(c, r))
            return false;
    if (c->failed || !check_group(c, symbols_line))
        return false;
    CpSection sec = {0};
    bool seen_lower = false, seen_upper = false, ended = false, ok = true;
    while (more && ok) {
        CpTok *t = r->tok.v;
        uint32_t n = r->tok.n;
        if (tok_is(&t[0], "section") || tok_is(&t[0], "end")) {
            if (sec.present) {
                ok = check_section(c, &sec);
                sec_free(&sec);
                if (!ok)
                    break;
            }
            if (tok_is(&t[0], "end")) {
                if (n != 1) {
                    ok = fail_at(c, r->line, "'end' stands alone on its line");
                    break;
                }
                ended = true;
                if (next_line(c, r))
                    ok = fail_at(c, r->line, "a line after 'end'");
                else if (c->failed)
                    ok = false;
                break;
            }
            uint64_t bound, root;
            bool lower = n == 5 && tok_is(&t[1], "lower"), upper = n == 5 && tok_is(&t[1], "upper");
            if ((!lower && !upper) || !tok_is(&t[3], "root") || !tok_u64(&t[2], 100, &bound) ||
                !tok_u64(&t[4], UINT64_MAX, &root)) {
                ok = fail_at(c, r->line, "expected 'section lower LO root ID' or 'section upper HI root ID'");
                break;
            }
            if ((lower && seen_lower) || (upper && seen_upper)) {
                ok = fail_at(c, r->line, "a second %s section", lower ? "lower" : "upper");
                break;
            }
            if ((int)bound != (lower ? c->lo : c->hi)) {
                ok = fail_at(c, r->line, "the %s section proves %llu, the value line says %d", lower ? "lower" : "upper",
                             (unsigned long long)bound, lower ? c->lo : c->hi);
                break;
            }
            seen_lower |= lower;
            seen_upper |= upper;
            sec.present = true;
            sec.lower = lower;
            sec.bound = (int)bound;
            sec.root_id = root;
            sec.line = r->line;
        } else if (!sec.present) {
            char *w = tok_brief(&t[0]);
            ok = fail_at(c, r->line, "unexpected '%s' (a map line belongs before the sections, a node, play or edge "
                                     "line in one)", w);
            free(w);
            break;
        } else if (!read_body_line(c, r, &sec)) {
            ok = false;
            break;
        }
        more = next_line(c, r);
    }
    sec_free(&sec);
    if (!ok || c->failed)
        return false;
    if (!ended)
        return fail_at(c, r->line, "the file ends before 'end' (a truncated file?)");
    if (c->lo > 0 && !seen_lower)
        return fail_at(c, r->line, "no lower section, which LO %d needs", c->lo);
    if (c->hi < 100 && !seen_upper)
        return fail_at(c, r->line, "no upper section, which HI %d needs", c->hi);
    return true;
}

void proof_check_free(ProofCheck *pc)
{
    if (!pc)
        return;
    free(pc->error);
    memset(pc, 0, sizeof *pc);
}

bool proof_check(const GdlGame *game, GdlMachine *m, const char *file, const char *text, size_t len,
                 ProofCheck *out)
{
    memset(out, 0, sizeof *out);
    Cp c = {.file = file ? file : "proof", .m = m, .game = game, .nroles = gdl_game_role_count(game)};
    if (c.nroles < 1 || c.nroles > CP_MAX_ROLES) {
        out->error = base_sprintf("%s: the game has %u roles; proofs are of puzzles and two-player games", c.file,
                                  c.nroles);
        return false;
    }
    CpReader r = {.text = text, .len = len};
    symtab_init(&c.terms);
    bool ok = check_file(&c, &r) && !c.failed;
    if (ok) {
        out->lo = c.lo, out->hi = c.hi;
        out->nodes = c.checked;
        GdlState *init = NULL;
        out->from_initial = c.start && gdl_state_initial(c.m, &init) == GDL_OK && gdl_state_equal(init, c.start);
        gdl_state_free(init);
    } else {
        out->error = c.error ? c.error : base_sprintf("%s: the proof does not hold", c.file);
        c.error = NULL;
    }
    symtab_free(&c.terms);
    if (c.sym)
        for (uint32_t k = 0; k <= c.nsym; k++)
            vec_free(c.sym[k]);
    free(c.sym);
    free(c.sym_line);
    free(c.error);
    gdl_state_free(c.start);
    vec_free(r.tok);
    return ok;
}
