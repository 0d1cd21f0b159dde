/*
 * kif.c: the reader's driver and node constructors, and canonical printing.
 */
#include "kif.h"

#include <ctype.h>
#include <string.h>

#include "parser.h"
#include "lexer.h"

uint32_t kif_new_atom(KifReader *r, KifKind kind, uint32_t off, const char *text, size_t len)
{
    if (r->doc->nodes.n >= KIF_MAX_NODES) {
        diag_error(r->diags, off, "more than %u terms in one file", (unsigned)KIF_MAX_NODES);
        return BASE_NONE;
    }
    if (len > r->fold_cap) {
        r->fold_cap = len * 2;
        r->fold = base_xrealloc(r->fold, r->fold_cap);
    }
    for (size_t i = 0; i < len; i++)
        r->fold[i] = (char)tolower((unsigned char)text[i]);
    KifNode n = {.kind = kind, .off = off, .sym = symtab_intern(r->syms, r->fold, len),
                 .first = BASE_NONE, .next = BASE_NONE};
    vec_push(r->doc->nodes, n);
    return r->doc->nodes.n - 1;
}

uint32_t kif_new_list(KifReader *r, uint32_t off, uint32_t first, uint32_t n)
{
    if (r->doc->nodes.n >= KIF_MAX_NODES) {
        diag_error(r->diags, off, "more than %u terms in one file", (unsigned)KIF_MAX_NODES);
        return BASE_NONE;
    }
    KifNode x = {.kind = KIF_LIST, .off = off, .sym = n, .first = first, .next = BASE_NONE};
    vec_push(r->doc->nodes, x);
    return r->doc->nodes.n - 1;
}

/* Does the line around off look like Prolog ("head(args) :- body.")? */
static bool looks_like_prolog(const Source *s, uint32_t off)
{
    uint32_t line, col;
    source_linecol(s, off, &line, &col);
    uint32_t from = s->line_start[line - 1];
    for (uint32_t i = from; i + 1 < s->len && s->text[i] != '\n' && s->text[i] != '\r'; i++)
        if (s->text[i] == ':' && s->text[i + 1] == '-')
            return true;
    return false;
}

void kif_bad_char(KifReader *r, uint32_t off, unsigned char c)
{
    uint32_t line, col;
    source_linecol(r->src, off, &line, &col);
    if (line == r->bad_line)
        return; /* one report per line */
    r->bad_line = line;
    if (c >= 0x21 && c < 0x7f)
        diag_error(r->diags, off, "unexpected character '%c' (KIF words use letters, digits and !$%%&*+-./<=>?@_~)", c);
    else
        diag_error(r->diags, off, "unexpected byte 0x%02x: this is not KIF text", c);
    if (looks_like_prolog(r->src, off))
        diag_note(r->diags, off, "this line looks like Prolog; GDL in KIF writes rules as (<= (head ...) body ...)");
}

bool kif_read(const Source *src, Symtab *syms, DiagList *diags, KifDoc *doc)
{
    uint32_t errors_before = diags->nerrors;
    KifReader *r = base_xcalloc(1, sizeof *r);
    r->src = src;
    r->syms = syms;
    r->diags = diags;
    r->doc = doc;
    yyscan_t scanner;
    if (kifyylex_init_extra(r, &scanner) != 0)
        base_fatal("cannot create the KIF scanner");
    YY_BUFFER_STATE buf = kifyy_scan_bytes(src->text, (int)src->len, scanner);
    kifyyparse(scanner, r);
    kifyy_delete_buffer(buf, scanner);
    kifyylex_destroy(scanner);
    if (r->fatal && diags->nerrors >= DIAG_MAX_ERRORS)
        diag_error(diags, r->pos, "too many errors; stopping here");
    free(r->fold);
    free(r);
    return diags->nerrors == errors_before;
}

void kif_doc_free(KifDoc *doc)
{
    vec_free(doc->nodes);
    vec_free(doc->tops);
}

uint32_t kif_elem(const KifDoc *doc, uint32_t list, uint32_t i)
{
    const KifNode *n = &doc->nodes.v[list];
    if (n->kind != KIF_LIST)
        return BASE_NONE;
    uint32_t c = n->first;
    while (c != BASE_NONE && i--)
        c = doc->nodes.v[c].next;
    return c;
}

void kif_print(FILE *f, const KifDoc *doc, const Symtab *syms, uint32_t node)
{
    const KifNode *n = &doc->nodes.v[node];
    if (n->kind != KIF_LIST) {
        fputs(symtab_str(syms, n->sym), f);
        return;
    }
    fputc('(', f);
    for (uint32_t c = n->first; c != BASE_NONE; c = doc->nodes.v[c].next) {
        kif_print(f, doc, syms, c);
        if (doc->nodes.v[c].next != BASE_NONE)
            fputc(' ', f);
    }
    fputc(')', f);
}

Gt gt_from_kif(GtStore *s, const KifDoc *doc, const Symtab *docsyms, uint32_t node)
{
    const KifNode *n = &doc->nodes.v[node];
    if (n->kind == KIF_VAR)
        return BASE_NONE;
    if (n->kind == KIF_SYM) {
        const char *text = symtab_str(docsyms, n->sym);
        uint32_t sym = symtab_intern(s->syms, text, strlen(text));
        return gt_intern(s, sym, 0, NULL);
    }
    if (n->sym == 0 || doc->nodes.v[n->first].kind != KIF_SYM)
        return BASE_NONE;
    const char *text = symtab_str(docsyms, doc->nodes.v[n->first].sym);
    uint32_t fn = symtab_intern(s->syms, text, strlen(text));
    uint32_t arity = n->sym - 1;
    Gt *args = base_xmalloc((arity + 1) * sizeof *args);
    uint32_t i = 0;
    Gt result = BASE_NONE;
    for (uint32_t c = doc->nodes.v[n->first].next; c != BASE_NONE; c = doc->nodes.v[c].next) {
        args[i] = gt_from_kif(s, doc, docsyms, c);
        if (args[i++] == BASE_NONE)
            goto done;
    }
    result = gt_intern(s, fn, arity, args);
done:
    free(args);
    return result;
}
