/*
 * message.c: the messages of the GGP protocol, and the spelling of the
 * rules.
 *
 * A request body is one s-expression, read with the project's KIF reader
 * (frontend/kif.h): (INFO), (PREVIEW rules clock), (START id role rules
 * startclock playclock ...), (PLAY id moves), (STOP id moves), (ABORT id).
 * The keyword may be in any case and the spacing anything (GGP-Base's
 * GameServer writes "( PLAY id NIL )", "( PLAY id (( mark 1 1 ) noop ) )").
 * The reader folds symbols to lower case when it interns them, so every
 * text handed on (id, role, rules, moves) is cut out of the body by the
 * byte offsets the reader keeps: the manager's own spelling survives. A
 * node records where it starts; where it ends is found again here (an atom
 * ends with its last word character, a list at the ')' after its last
 * element, comments and white space skipped).
 *
 * What GGP-Base's player (RequestFactory) accepts, and what we accept:
 * START has at least five arguments (later ones are ignored: room for
 * extensions), PLAY and STOP exactly two, ABORT one, INFO none, PREVIEW
 * two; moves are a list, or the atom NIL (any case) on the first turn.
 * Stricter than GGP-Base: any other atom in the moves' place, a clock that
 * is not a whole number, a variable for an id or role, text after the
 * message, or a message that is not one s-expression is refused with a
 * message saying what was expected.
 *
 * GgpSpelling maps each symbol of the rules, folded, to its first spelling
 * in the rules, so that a move chosen by gdlc (which thinks in lower case)
 * is answered exactly as the manager's rules spell it: GGP-Base compares
 * the reply with its rules case-sensitively.
 */
#include <ctype.h>
#include <limits.h>
#include <string.h>

#include "../frontend/kif.h"
#include "player.h"

/* ---- reading one body ----------------------------------------------- */

/* A word character of KIF (lexer.l's MIDCH). */
static bool word_char(unsigned char c)
{
    return isalnum(c) || (c && strchr("!$%&*+-./<=>@_~?", c));
}

static size_t skip_blank(const char *t, size_t len, size_t p)
{
    while (p < len) {
        if (t[p] == ';') {
            while (p < len && t[p] != '\n' && t[p] != '\r')
                p++;
        } else if (isspace((unsigned char)t[p])) {
            p++;
        } else {
            break;
        }
    }
    return p;
}

/* The byte just after node (a document read without errors). */
static size_t node_end(const KifDoc *doc, const char *t, size_t len, uint32_t node)
{
    const KifNode *n = &doc->nodes.v[node];
    size_t p = n->off;
    if (n->kind != KIF_LIST) {
        while (p < len && word_char((unsigned char)t[p]))
            p++;
        return p;
    }
    uint32_t last = BASE_NONE;
    for (uint32_t e = n->first; e != BASE_NONE; e = doc->nodes.v[e].next)
        last = e;
    p = last == BASE_NONE ? p + 1 : node_end(doc, t, len, last);
    p = skip_blank(t, len, p);
    return p < len ? p + 1 : len; /* past the ')' */
}

/* What one parse holds, so that it can be freed after running out of
 * memory as after a normal end. */
typedef struct Parse {
    const char *text;
    size_t len;
    Source *src;
    Symtab syms;
    DiagList diags;
    KifDoc doc;
    GgpMessage *msg;
    char *err;     /* the message when false */
    bool ok;
} Parse;

static char *cut(const char *t, size_t from, size_t to) { return base_xstrndup(t + from, to - from); }

/* An atom's text as written, shortened for messages. */
static char *quote_node(Parse *p, uint32_t node)
{
    size_t off = p->doc.nodes.v[node].off, end = node_end(&p->doc, p->text, p->len, node);
    bool more = end - off > 40;
    char *s = cut(p->text, off, more ? off + 40 : end);
    for (char *c = s; *c; c++)
        if (!isprint((unsigned char)*c))
            *c = '?';
    char *q = base_sprintf("'%s%s'", s, more ? "..." : "");
    free(s);
    return q;
}

static void fail(Parse *p, const char *fmt, ...) BASE_PRINTF(2, 3);
static void fail(Parse *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    p->err = base_vsprintf(fmt, ap);
    va_end(ap);
}

static const KifNode *node(const Parse *p, uint32_t id) { return &p->doc.nodes.v[id]; }

/* A symbol (not a variable, not a list) as written into *out. */
static bool take_symbol(Parse *p, uint32_t id, const char *what, const char *kw, char **out)
{
    if (node(p, id)->kind != KIF_SYM) {
        char *q = quote_node(p, id);
        fail(p, "%s: the %s must be a symbol, not %s", kw, what, q);
        free(q);
        return false;
    }
    *out = cut(p->text, node(p, id)->off, node_end(&p->doc, p->text, p->len, id));
    return true;
}

static bool take_clock(Parse *p, uint32_t id, const char *what, const char *kw, unsigned *out)
{
    const KifNode *n = node(p, id);
    const char *s = n->kind == KIF_SYM ? symtab_str(&p->syms, n->sym) : "";
    unsigned long v = 0;
    bool ok = *s != 0;
    for (const char *c = s; ok && *c; c++) {
        unsigned long d = (unsigned long)(*c - '0');
        ok = isdigit((unsigned char)*c) && v <= (UINT_MAX - d) / 10;
        v = v * 10 + d;
    }
    if (!ok) {
        char *q = quote_node(p, id);
        fail(p, "%s: the %s must be a whole number of seconds, not %s", kw, what, q);
        free(q);
        return false;
    }
    *out = (unsigned)v;
    return true;
}

/* The rules: the text inside the list's parentheses, as written. */
static bool take_rules(Parse *p, uint32_t id, const char *kw, char **out)
{
    const KifNode *n = node(p, id);
    if (n->kind != KIF_LIST) {
        char *q = quote_node(p, id);
        fail(p, "%s: the rules must be a list of rules, not %s", kw, q);
        free(q);
        return false;
    }
    size_t end = node_end(&p->doc, p->text, p->len, id);
    *out = cut(p->text, n->off + 1, end - 1);
    return true;
}

/* The last joint move: NIL, or a list of moves, each as written. */
static bool take_moves(Parse *p, uint32_t id, const char *kw, GgpMessage *m)
{
    const KifNode *n = node(p, id);
    if (n->kind == KIF_SYM && strcmp(symtab_str(&p->syms, n->sym), "nil") == 0)
        return true;
    if (n->kind != KIF_LIST) {
        char *q = quote_node(p, id);
        fail(p, "%s: the moves must be NIL or a list of moves, not %s", kw, q);
        free(q);
        return false;
    }
    m->moves = base_xcalloc(n->sym ? n->sym : 1, sizeof *m->moves);
    for (uint32_t e = n->first; e != BASE_NONE; e = node(p, e)->next)
        m->moves[m->nmoves++] = cut(p->text, node(p, e)->off, node_end(&p->doc, p->text, p->len, e));
    return true;
}

static const struct {
    const char *name; /* folded */
    const char *upper; /* for messages */
    GgpKind kind;
    uint32_t min, max; /* elements, the keyword included */
    const char *form;  /* for messages */
} kinds[] = {
    {"info", "INFO", GGP_INFO, 1, 1, "(INFO)"},
    {"preview", "PREVIEW", GGP_PREVIEW, 3, 3, "(PREVIEW rules clock)"},
    {"start", "START", GGP_START, 6, UINT32_MAX, "(START id role rules startclock playclock)"},
    {"play", "PLAY", GGP_PLAY, 3, 3, "(PLAY id moves)"},
    {"stop", "STOP", GGP_STOP, 3, 3, "(STOP id moves)"},
    {"abort", "ABORT", GGP_ABORT, 2, 2, "(ABORT id)"},
};

static void parse_run(void *arg)
{
    Parse *p = arg;
    GgpMessage *m = p->msg;
    p->src = source_new("message", base_xstrndup(p->text, p->len), p->len);
    symtab_init(&p->syms);
    diag_init(&p->diags, p->src);
    if (!kif_read(p->src, &p->syms, &p->diags, &p->doc)) {
        diag_sort(&p->diags);
        const Diag *d = &p->diags.items.v[0];
        fail(p, "malformed message: %u:%u: %s", d->line, d->col, d->msg);
        return;
    }
    if (p->doc.tops.n == 0) {
        fail(p, "empty message: expected an s-expression such as (INFO)");
        return;
    }
    uint32_t top = p->doc.tops.v[0];
    if (p->doc.tops.n > 1) {
        char *q = quote_node(p, p->doc.tops.v[1]);
        fail(p, "malformed message: text after the message: %s", q);
        free(q);
        return;
    }
    uint32_t head = node(p, top)->kind == KIF_LIST ? node(p, top)->first : BASE_NONE;
    if (head == BASE_NONE || node(p, head)->kind != KIF_SYM) {
        char *q = quote_node(p, head == BASE_NONE ? top : head);
        fail(p, "malformed message: expected a list starting with INFO, PREVIEW, START, PLAY, STOP or ABORT, not %s",
             q);
        free(q);
        return;
    }
    const char *folded = symtab_str(&p->syms, node(p, head)->sym);
    size_t k = 0;
    while (k < sizeof kinds / sizeof *kinds && strcmp(kinds[k].name, folded) != 0)
        k++;
    if (k == sizeof kinds / sizeof *kinds) {
        char *q = quote_node(p, head);
        fail(p, "unknown message %s: expected INFO, PREVIEW, START, PLAY, STOP or ABORT", q);
        free(q);
        return;
    }
    const char *kw = kinds[k].upper;
    uint32_t n = node(p, top)->sym, a[6];
    if (n < kinds[k].min || n > kinds[k].max) {
        fail(p, "%s: %u argument%s, expected %s", kw, n - 1, n == 2 ? "" : "s", kinds[k].form);
        return;
    }
    for (uint32_t i = 0; i < 6 && i < n; i++)
        a[i] = kif_elem(&p->doc, top, i);
    m->kind = kinds[k].kind;
    switch (m->kind) {
    case GGP_INFO:
        break;
    case GGP_PREVIEW:
        if (!take_rules(p, a[1], kw, &m->rules) || !take_clock(p, a[2], "clock", kw, &m->startclock))
            return;
        break;
    case GGP_START:
        if (!take_symbol(p, a[1], "match id", kw, &m->id) || !take_symbol(p, a[2], "role", kw, &m->role) ||
            !take_rules(p, a[3], kw, &m->rules) || !take_clock(p, a[4], "start clock", kw, &m->startclock) ||
            !take_clock(p, a[5], "play clock", kw, &m->playclock))
            return;
        break;
    case GGP_PLAY:
    case GGP_STOP:
        if (!take_symbol(p, a[1], "match id", kw, &m->id) || !take_moves(p, a[2], kw, m))
            return;
        break;
    case GGP_ABORT:
        if (!take_symbol(p, a[1], "match id", kw, &m->id))
            return;
        break;
    }
    p->ok = true;
}

bool ggp_message_parse(const char *text, size_t len, GgpMessage *msg, char **err)
{
    memset(msg, 0, sizeof *msg);
    *err = NULL;
    if (len >= UINT32_MAX / 2) {
        *err = base_sprintf("message too long (%zu bytes)", len);
        return false;
    }
    Parse p = {.text = text, .len = len, .msg = msg};
    const char *oom = base_oom_catch(parse_run, &p);
    kif_doc_free(&p.doc);
    if (p.src) {
        diag_free(&p.diags);
        symtab_free(&p.syms);
        source_free(p.src);
    }
    if (oom) {
        free(p.err);
        p.err = NULL;
        p.ok = false;
    }
    if (!p.ok) {
        ggp_message_free(msg);
        /* base_sprintf may itself fail when memory ran out */
        *err = p.err ? p.err : (char *)base_try_realloc(NULL, 32);
        if (!p.err && *err)
            strcpy(*err, "out of memory");
        return false;
    }
    return true;
}

void ggp_message_free(GgpMessage *msg)
{
    free(msg->id);
    free(msg->role);
    free(msg->rules);
    for (size_t i = 0; i < msg->nmoves; i++)
        free(msg->moves[i]);
    free(msg->moves);
    memset(msg, 0, sizeof *msg);
}

/* The first s-expression of a reply, for the match runner's client:
 * GGP-Base's server reads only that. */
typedef struct First {
    const char *text;
    size_t len;
    Source *src;
    Symtab syms;
    DiagList diags;
    KifDoc doc;
    size_t off, end;
    bool ok;
} First;

static void first_run(void *arg)
{
    First *f = arg;
    f->src = source_new("reply", base_xstrndup(f->text, f->len), f->len);
    symtab_init(&f->syms);
    diag_init(&f->diags, f->src);
    kif_read(f->src, &f->syms, &f->diags, &f->doc); /* errors after the first form do not count */
    if (f->doc.tops.n == 0)
        return;
    uint32_t top = f->doc.tops.v[0];
    size_t end = node_end(&f->doc, f->text, f->len, top);
    for (uint32_t i = 0; i < f->diags.items.n; i++)
        if (f->diags.items.v[i].sev == DIAG_ERROR && f->diags.items.v[i].off < end)
            return;
    f->off = f->doc.nodes.v[top].off;
    f->end = end;
    f->ok = true;
}

bool ggp_first_sexp(const char *text, size_t len, size_t *off, size_t *end)
{
    if (len >= UINT32_MAX / 2)
        return false;
    First f = {.text = text, .len = len};
    const char *oom = base_oom_catch(first_run, &f);
    kif_doc_free(&f.doc);
    if (f.src) {
        diag_free(&f.diags);
        symtab_free(&f.syms);
        source_free(f.src);
    }
    if (oom || !f.ok)
        return false;
    *off = f.off, *end = f.end;
    return true;
}

/* ---- the rules' spelling --------------------------------------------- */

struct GgpSpelling {
    Symtab syms;         /* the rules' symbols, folded (the reader's table) */
    VEC(char *) written; /* symbol id -> its first spelling in the rules (NULL: none) */
};

typedef struct SpellBuild {
    const char *text;
    size_t len;
    GgpSpelling *sp;
    Source *src;
    DiagList diags;
    KifDoc doc;
} SpellBuild;

static void spelling_run(void *arg)
{
    SpellBuild *b = arg;
    GgpSpelling *sp = b->sp;
    b->src = source_new("rules", base_xstrndup(b->text, b->len), b->len);
    diag_init(&b->diags, b->src);
    /* what was read counts even when the rules have errors */
    kif_read(b->src, &sp->syms, &b->diags, &b->doc);
    vec_reserve(sp->written, sp->syms.n);
    for (uint32_t i = sp->written.n; i < sp->syms.n; i++)
        sp->written.v[i] = NULL;
    sp->written.n = sp->syms.n;
    for (uint32_t i = 0; i < b->doc.nodes.n; i++) {
        const KifNode *n = &b->doc.nodes.v[i];
        if (n->kind != KIF_SYM || sp->written.v[n->sym])
            continue;
        size_t e = n->off;
        while (e < b->len && word_char((unsigned char)b->text[e]))
            e++;
        sp->written.v[n->sym] = base_xstrndup(b->text + n->off, e - n->off);
    }
}

GgpSpelling *ggp_spelling_new(const char *rules, size_t len)
{
    if (len >= UINT32_MAX / 2)
        return NULL;
    GgpSpelling *sp = base_try_realloc(NULL, sizeof *sp);
    if (!sp)
        return NULL;
    memset(sp, 0, sizeof *sp);
    SpellBuild b = {.text = rules, .len = len, .sp = sp};
    symtab_init(&sp->syms);
    const char *oom = base_oom_catch(spelling_run, &b);
    kif_doc_free(&b.doc);
    if (b.src) {
        diag_free(&b.diags);
        source_free(b.src);
    }
    if (oom) {
        ggp_spelling_free(sp);
        return NULL;
    }
    return sp;
}

void ggp_spelling_free(GgpSpelling *sp)
{
    if (!sp)
        return;
    for (uint32_t i = 0; i < sp->written.n; i++)
        free(sp->written.v[i]);
    vec_free(sp->written);
    symtab_free(&sp->syms);
    free(sp);
}

/* Appends n bytes to a buffer grown with base_try_realloc; false when it
 * cannot grow. */
static bool put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = (*cap ? *cap * 2 : 64);
        while (c < *len + n + 1)
            c *= 2;
        char *nb = base_try_realloc(*buf, c);
        if (!nb)
            return false;
        *buf = nb, *cap = c;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = 0;
    return true;
}

char *ggp_spelling_apply(const GgpSpelling *sp, const char *text)
{
    char *out = NULL, low[256];
    size_t len = 0, cap = 0, tl = strlen(text);
    bool ok = put(&out, &len, &cap, "", 0);
    for (size_t p = 0; ok && p < tl;) {
        size_t q = p;
        while (q < tl && word_char((unsigned char)text[q]))
            q++;
        if (q == p) { /* not a word: copied as it is */
            ok = put(&out, &len, &cap, text + p, 1);
            p++;
            continue;
        }
        const char *w = text + p;
        size_t wl = q - p;
        if (sp && text[p] != '?' && wl < sizeof low) {
            for (size_t i = 0; i < wl; i++)
                low[i] = (char)tolower((unsigned char)text[p + i]);
            uint32_t id = symtab_find(&sp->syms, low, wl);
            if (id != BASE_NONE && id < sp->written.n && sp->written.v[id])
                w = sp->written.v[id], wl = strlen(w);
        }
        ok = put(&out, &len, &cap, w, wl);
        p = q;
    }
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}
