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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../frontend/kif.h"
#include "player.h"
#include "internal.h"

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

/*
 * A symbol may be spelled several ways in one set of rules: GDL does not
 * care, the manager does. Spellings are kept per use: the symbol with the
 * number of arguments it takes where it heads a list (0 for a constant),
 * then per symbol alone. So in rules with a relation (mark ?m) and a move
 * (MARK ?r ?c), the move (mark 1 1) is answered (MARK 1 1). Each key keeps
 * the first spelling met.
 */
typedef VEC(char *) StrVec;

struct GgpSpelling {
    Symtab syms;          /* the rules' symbols, folded (the reader's table) */
    StrVec written;       /* symbol id -> its first spelling in the rules (NULL: none) */
    Symtab keys;          /* "symbol\1arity", folded */
    StrVec by_arity;      /* key id -> its first spelling */
};

/* For each node heading a list, the list's number of arguments; 0 for any
 * other node. */
static uint32_t *head_arity(const KifDoc *doc)
{
    uint32_t *ar = base_xcalloc(doc->nodes.n ? doc->nodes.n : 1, sizeof *ar);
    for (uint32_t i = 0; i < doc->nodes.n; i++) {
        const KifNode *n = &doc->nodes.v[i];
        if (n->kind == KIF_LIST && n->first != BASE_NONE)
            ar[n->first] = n->sym - 1;
    }
    return ar;
}

/* "symbol\1arity" into buf (cap bytes); its length, or 0 when too long. */
static size_t arity_key(char *buf, size_t cap, const char *folded, uint32_t arity)
{
    int n = snprintf(buf, cap, "%s\x01%u", folded, arity);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static size_t atom_end(const char *t, size_t len, size_t p)
{
    while (p < len && word_char((unsigned char)t[p]))
        p++;
    return p;
}

typedef struct SpellBuild {
    const char *text;
    size_t len;
    GgpSpelling *sp;
    Source *src;
    DiagList diags;
    KifDoc doc;
    uint32_t *arity;
} SpellBuild;

static void keep_first(StrVec *v, uint32_t id, const char *s, size_t n)
{
    while (v->n <= id)
        vec_push(*v, NULL);
    if (!v->v[id])
        v->v[id] = base_xstrndup(s, n);
}

static void spelling_run(void *arg)
{
    SpellBuild *b = arg;
    GgpSpelling *sp = b->sp;
    b->src = source_new("rules", base_xstrndup(b->text, b->len), b->len);
    diag_init(&b->diags, b->src);
    /* what was read counts even when the rules have errors */
    kif_read(b->src, &sp->syms, &b->diags, &b->doc);
    b->arity = head_arity(&b->doc);
    char key[300];
    for (uint32_t i = 0; i < b->doc.nodes.n; i++) {
        const KifNode *n = &b->doc.nodes.v[i];
        if (n->kind != KIF_SYM)
            continue;
        size_t e = atom_end(b->text, b->len, n->off);
        keep_first(&sp->written, n->sym, b->text + n->off, e - n->off);
        size_t kl = arity_key(key, sizeof key, symtab_str(&sp->syms, n->sym), b->arity[i]);
        if (kl)
            keep_first(&sp->by_arity, symtab_intern(&sp->keys, key, kl), b->text + n->off, e - n->off);
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
    symtab_init(&sp->keys);
    const char *oom = base_oom_catch(spelling_run, &b);
    kif_doc_free(&b.doc);
    free(b.arity);
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
    for (uint32_t i = 0; i < sp->by_arity.n; i++)
        free(sp->by_arity.v[i]);
    vec_free(sp->by_arity);
    symtab_free(&sp->syms);
    symtab_free(&sp->keys);
    free(sp);
}

/* The spelling of a folded symbol used with arity arguments, or NULL. */
static const char *spelled(const GgpSpelling *sp, const char *folded, size_t fl, uint32_t arity)
{
    char key[300];
    size_t kl = fl < 256 ? arity_key(key, sizeof key, folded, arity) : 0;
    uint32_t id = kl ? symtab_find(&sp->keys, key, kl) : BASE_NONE;
    if (id != BASE_NONE && id < sp->by_arity.n && sp->by_arity.v[id])
        return sp->by_arity.v[id];
    id = symtab_find(&sp->syms, folded, fl);
    return id != BASE_NONE && id < sp->written.n ? sp->written.v[id] : NULL;
}

typedef struct SpellApply {
    const GgpSpelling *sp;
    const char *text;
    size_t len;
    Source *src;
    Symtab syms;
    DiagList diags;
    KifDoc doc;
    uint32_t *arity;
    StrBuf out;
    bool read; /* the text is KIF */
} SpellApply;

static void apply_run(void *arg)
{
    SpellApply *a = arg;
    strbuf_add(&a->out, "");
    a->src = source_new("move", base_xstrndup(a->text, a->len), a->len);
    diag_init(&a->diags, a->src);
    if (!kif_read(a->src, &a->syms, &a->diags, &a->doc))
        return;
    a->read = true;
    a->arity = head_arity(&a->doc);
    /* atoms are made in the order of the text: copy what lies between */
    size_t at = 0;
    for (uint32_t i = 0; i < a->doc.nodes.n; i++) {
        const KifNode *n = &a->doc.nodes.v[i];
        if (n->kind == KIF_LIST)
            continue;
        size_t e = atom_end(a->text, a->len, n->off);
        const char *folded = symtab_str(&a->syms, n->sym);
        const char *w = n->kind == KIF_SYM ? spelled(a->sp, folded, strlen(folded), a->arity[i]) : NULL;
        char *between = base_xstrndup(a->text + at, n->off - at);
        strbuf_add(&a->out, between);
        free(between);
        if (w) {
            strbuf_add(&a->out, w);
        } else {
            char *as_is = base_xstrndup(a->text + n->off, e - n->off);
            strbuf_add(&a->out, as_is);
            free(as_is);
        }
        at = e;
    }
    strbuf_add(&a->out, a->text + at);
}

char *ggp_spelling_apply(const GgpSpelling *sp, const char *text)
{
    size_t len = strlen(text);
    if (len >= UINT32_MAX / 2)
        return NULL;
    SpellApply a = {.sp = sp, .text = text, .len = len};
    const char *oom = sp ? base_oom_catch(apply_run, &a) : NULL;
    kif_doc_free(&a.doc);
    free(a.arity);
    if (a.src) {
        diag_free(&a.diags);
        symtab_free(&a.syms);
        source_free(a.src);
    }
    if (oom || !sp || !a.read) { /* no spelling, or not KIF: the text unchanged */
        free(a.out.s);
        char *copy = base_try_realloc(NULL, len + 1);
        if (copy)
            memcpy(copy, text, len + 1);
        return copy;
    }
    return a.out.s;
}

char *player_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : s;
}
