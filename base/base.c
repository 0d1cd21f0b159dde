/*
 * base.c: memory, arrays, hashing, symbol interning, sources and diagnostics.
 * See base.h for the contract of each piece.
 */
#include "base.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- memory ---------------------------------------------------------- */

/* The thread's allocator and handlers: per thread, so that two threads (two
 * machines of a player) never see each other's. */
static _Thread_local BaseAllocFn alloc_fn;
static _Thread_local void *alloc_ud;
static _Thread_local BaseOom *oom_top;

void base_set_alloc(BaseAllocFn fn, void *ud)
{
    alloc_fn = fn;
    alloc_ud = ud;
}

static _Thread_local BaseJournal *journal;

BaseJournal *base_journal_swap(BaseJournal *j)
{
    BaseJournal *before = journal;
    journal = j;
    return before;
}

void base_journal_forget_all(BaseJournal *j)
{
    if (++j->gen == 0) { /* after 2^32 calls: start the table afresh */
        memset(j->slot, 0, (size_t)j->cap * sizeof *j->slot);
        j->gen = 1;
    }
    j->used = 0;
}

static uint32_t journal_home(const BaseJournal *j, const void *p)
{
    return (uint32_t)base_mix64((uint64_t)(uintptr_t)p) & (j->cap - 1);
}

/* The slot of p, or UINT32_MAX. */
static uint32_t journal_find(const BaseJournal *j, const void *p)
{
    if (!j->cap)
        return UINT32_MAX;
    for (uint32_t i = journal_home(j, p);; i = (i + 1) & (j->cap - 1)) {
        const BaseJournalSlot *s = &j->slot[i];
        if (s->gen != j->gen)
            return UINT32_MAX;
        if (s->p == p)
            return i;
    }
}

/* Records p; false when the table cannot grow (then p goes unrecorded:
 * at worst a leak after running out of memory, never a wrong free). */
static bool journal_add(BaseJournal *j, void *p)
{
    if ((uint64_t)(j->used + 1) * 2 > j->cap) {
        /* deleted entries go in the rehash: the new size is for the live
         * ones (blocks allocated and freed in turn must not grow it) */
        uint32_t live = 0, cap = 256;
        for (uint32_t i = 0; i < j->cap; i++)
            live += j->slot[i].gen == j->gen && j->slot[i].p;
        while ((uint64_t)cap < (uint64_t)(live + 1) * 4)
            cap *= 2;
        live = 0;
        /* the C library's malloc, not the hook: the journal is bookkeeping
         * of the hook's blocks, not one of them */
        BaseJournalSlot *slot = malloc((size_t)cap * sizeof *slot);
        if (!slot)
            return false;
        memset(slot, 0, (size_t)cap * sizeof *slot);
        BaseJournal next = {slot, cap, 0, 1};
        for (uint32_t i = 0; i < j->cap; i++)
            if (j->slot[i].gen == j->gen && j->slot[i].p) {
                uint32_t k = journal_home(&next, j->slot[i].p);
                while (slot[k].gen == next.gen)
                    k = (k + 1) & (cap - 1);
                slot[k] = (BaseJournalSlot){j->slot[i].p, next.gen};
                live++;
            }
        (free)(j->slot); /* (free): the C library's, not the macro */
        next.used = live;
        *j = next;
    }
    /* p is a new block, not in the table: the first deleted slot on its
     * probe will do. Without the reuse, a block freed and allocated again
     * at the same address (a scratch vector in a loop) would lengthen its
     * own probe by one slot every time, quadratic until the next rehash
     * (hex's network took 129 s to factor instead of 1). */
    uint32_t i = journal_home(j, p);
    while (j->slot[i].gen == j->gen && j->slot[i].p)
        i = (i + 1) & (j->cap - 1);
    if (j->slot[i].gen != j->gen)
        j->used++; /* an empty slot taken; a deleted one was counted already */
    j->slot[i] = (BaseJournalSlot){p, j->gen};
    return true;
}

static void journal_remove(BaseJournal *j, const void *p)
{
    uint32_t i = journal_find(j, p);
    if (i != UINT32_MAX)
        j->slot[i].p = NULL; /* deleted: the probe goes on past it */
}

void base_journal_adopt(void *p)
{
    if (journal && p)
        journal_add(journal, p);
}

void base_journal_forget(void *p)
{
    if (journal && p)
        journal_remove(journal, p);
}

void base_journal_release(BaseJournal *j)
{
    for (uint32_t i = 0; i < j->cap; i++)
        if (j->slot[i].gen == j->gen && j->slot[i].p)
            (free)(j->slot[i].p);
    (free)(j->slot);
    *j = (BaseJournal){0};
}

void base_free(void *p)
{
    if (journal && p)
        journal_remove(journal, p);
    (free)(p);
}

void *base_try_realloc(void *p, size_t n)
{
    if (n == 0)
        n = 1;
    void *q = alloc_fn ? alloc_fn(alloc_ud, p, n) : realloc(p, n);
    if (journal && q && q != p) {
        /* a block that moves stays recorded, or not, as it was */
        bool recorded = !p || journal_find(journal, p) != UINT32_MAX;
        if (p)
            journal_remove(journal, p);
        if (recorded)
            journal_add(journal, q); /* a table that cannot grow: q goes unrecorded, a leak at worst */
    }
    return q;
}

void base_oom_push(BaseOom *h)
{
    h->prev = oom_top;
    h->what = NULL;
    oom_top = h;
}

void base_oom_pop(BaseOom *h)
{
    if (oom_top == h)
        oom_top = h->prev;
}

const char *base_oom_catch(void (*fn)(void *), void *arg)
{
    BaseOom h;
    base_oom_push(&h);
    if (BASE_OOM_SETJMP(&h))
        return h.what ? h.what : "out of memory";
    fn(arg);
    base_oom_pop(&h);
    return NULL;
}

void base_fatal(const char *what)
{
    BaseOom *h = oom_top;
    if (h) {
        oom_top = h->prev;
        h->what = what;
#ifdef BASE_OOM_BUILTIN
        __builtin_longjmp(h->jb, 1);
#else
        longjmp(h->jb, 1);
#endif
    }
    fprintf(stderr, "gdlc: fatal: %s\n", what);
    abort();
}

void *base_xmalloc(size_t n)
{
    void *p = base_try_realloc(NULL, n);
    if (!p)
        base_fatal("out of memory");
    return p;
}

void *base_xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        base_fatal("out of memory");
    void *p = base_try_realloc(NULL, n * size);
    if (!p)
        base_fatal("out of memory");
    memset(p, 0, n * size > 0 ? n * size : 1);
    return p;
}

void *base_xrealloc(void *p, size_t n)
{
    p = base_try_realloc(p, n);
    if (!p)
        base_fatal("out of memory");
    return p;
}

char *base_xstrndup(const char *s, size_t n)
{
    char *p = base_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *base_xstrdup(const char *s) { return base_xstrndup(s, strlen(s)); }

char *base_vsprintf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        base_fatal("bad format");
    char *p = base_xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *base_sprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = base_vsprintf(fmt, ap);
    va_end(ap);
    return p;
}

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    ArenaChunk *c = a->head;
    if (!c || c->size - c->used < n) {
        size_t size = n > 60000 ? n : 65536 - sizeof(ArenaChunk);
        c = base_xmalloc(sizeof(ArenaChunk) + size);
        c->next = a->head;
        c->used = 0;
        c->size = size;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    a->bytes += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void arena_free(Arena *a)
{
    for (ArenaChunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    a->head = NULL;
    a->bytes = 0;
}

void vec_grow_(void **v, uint32_t *cap, uint32_t need, size_t elem)
{
    uint64_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX)
        base_fatal("array too large");
    *v = base_xrealloc(*v, (size_t)c * elem);
    *cap = (uint32_t)c;
}

/* ---- strings ---------------------------------------------------------- */

void strbuf_add(StrBuf *b, const char *text)
{
    size_t n = strlen(text);
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = base_xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, text, n + 1);
    b->len += n;
}

void base_sort_u32_with(uint32_t *v, uint32_t *tmp, uint32_t n)
{
    if (n <= 24) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t x = v[i], j = i;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    uint32_t h = n / 2, i = 0, j = h, k = 0;
    base_sort_u32_with(v, tmp, h);
    base_sort_u32_with(v + h, tmp, n - h);
    if (v[h - 1] <= v[h])
        return; /* the halves are already in order */
    while (i < h && j < n)
        tmp[k++] = v[j] < v[i] ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

void base_sort_u32(uint32_t *v, uint32_t n)
{
    if (n <= 24) {
        base_sort_u32_with(v, NULL, n);
        return;
    }
    uint32_t *tmp = base_xmalloc(n * sizeof *tmp);
    base_sort_u32_with(v, tmp, n);
    free(tmp);
}

void strbuf_addf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = base_xrealloc(b->s, b->cap);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void strbuf_add_word(StrBuf *b, const char *text)
{
    if (b->len)
        strbuf_add(b, " ");
    strbuf_add(b, text);
}

/* ---- hashing --------------------------------------------------------- */

uint64_t base_hash_bytes(const void *p, size_t n, uint64_t seed)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ULL ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return base_mix64(h);
}

/* ---- symbols --------------------------------------------------------- */

void symtab_init(Symtab *t) { memset(t, 0, sizeof *t); }

void symtab_free(Symtab *t)
{
    arena_free(&t->arena);
    free(t->str);
    free(t->len);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint32_t symtab_slot(const Symtab *t, const char *s, size_t len, bool *found)
{
    uint32_t mask = t->nslots - 1;
    uint32_t i = (uint32_t)base_hash_bytes(s, len, 0) & mask;
    for (;;) {
        uint32_t id = t->slots[i];
        if (!id) {
            *found = false;
            return i;
        }
        id--;
        if (t->len[id] == len && memcmp(t->str[id], s, len) == 0) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

uint32_t symtab_find(const Symtab *t, const char *s, size_t len)
{
    if (!t->nslots)
        return BASE_NONE;
    bool found;
    uint32_t i = symtab_slot(t, s, len, &found);
    return found ? t->slots[i] - 1 : BASE_NONE;
}

uint32_t symtab_intern(Symtab *t, const char *s, size_t len)
{
    if ((uint64_t)(t->n + 1) * 2 > t->nslots) {
        uint32_t old = t->nslots;
        uint32_t *olds = t->slots;
        t->nslots = old ? old * 2 : 256;
        t->slots = base_xcalloc(t->nslots, sizeof *t->slots);
        for (uint32_t i = 0; i < old; i++)
            if (olds[i]) {
                bool found;
                uint32_t id = olds[i] - 1;
                t->slots[symtab_slot(t, t->str[id], t->len[id], &found)] = olds[i];
            }
        free(olds);
    }
    bool found;
    uint32_t i = symtab_slot(t, s, len, &found);
    if (found)
        return t->slots[i] - 1;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->str = base_xrealloc(t->str, t->cap * sizeof *t->str);
        t->len = base_xrealloc(t->len, t->cap * sizeof *t->len);
    }
    uint32_t id = t->n++;
    t->str[id] = arena_strndup(&t->arena, s, len);
    t->len[id] = (uint32_t)len;
    t->slots[i] = id + 1;
    return id;
}

/* ---- sources --------------------------------------------------------- */

Source *source_new(const char *name, char *text, size_t len)
{
    Source *s = base_xcalloc(1, sizeof *s);
    s->name = base_xstrdup(name);
    s->text = text;
    s->len = len;
    uint32_t cap = 64;
    s->line_start = base_xmalloc(cap * sizeof *s->line_start);
    s->line_start[s->nlines++] = 0;
    for (size_t i = 0; i < len; i++) {
        /* A line ends at \n, at \r\n, or at a lone \r (old Mac files). */
        bool eol = text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'));
        if (eol) {
            if (s->nlines == cap) {
                cap *= 2;
                s->line_start = base_xrealloc(s->line_start, cap * sizeof *s->line_start);
            }
            s->line_start[s->nlines++] = (uint32_t)(i + 1);
        }
    }
    return s;
}

void source_free(Source *s)
{
    if (!s)
        return;
    free(s->name);
    free(s->text);
    free(s->line_start);
    free(s);
}

void source_linecol(const Source *s, uint32_t off, uint32_t *line, uint32_t *col)
{
    if (!s || !s->nlines) {
        *line = 1;
        *col = 1;
        return;
    }
    if (off > s->len)
        off = (uint32_t)s->len;
    uint32_t lo = 0, hi = s->nlines - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (s->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = lo + 1;
    *col = off - s->line_start[lo] + 1;
}

/* ---- diagnostics ----------------------------------------------------- */

void diag_init(DiagList *d, const Source *src)
{
    memset(d, 0, sizeof *d);
    d->src = src;
}

void diag_free(DiagList *d)
{
    for (uint32_t i = 0; i < d->items.n; i++)
        free(d->items.v[i].msg);
    vec_free(d->items);
}

void diag_vadd(DiagList *d, DiagSeverity sev, uint32_t off, const char *fmt, va_list ap)
{
    Diag x = {.sev = sev, .off = off};
    source_linecol(d->src, off, &x.line, &x.col);
    x.msg = base_vsprintf(fmt, ap);
    vec_push(d->items, x);
    if (sev == DIAG_ERROR)
        d->nerrors++;
    else if (sev == DIAG_WARNING)
        d->nwarnings++;
}

void diag_add(DiagList *d, DiagSeverity sev, uint32_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(d, sev, off, fmt, ap);
    va_end(ap);
}

typedef struct {
    uint32_t first, n; /* a diagnostic and its notes */
} DiagGroup;

static int group_cmp(const void *a, const void *b, void *ctx)
{
    const Diag *v = ctx;
    const DiagGroup *x = a, *y = b;
    uint32_t ox = v[x->first].off, oy = v[y->first].off;
    if (ox != oy)
        return ox < oy ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first; /* stable */
}

/* A small merge sort so the order is stable and needs no qsort_r. */
static void group_sort(DiagGroup *g, DiagGroup *tmp, uint32_t n, const Diag *v)
{
    if (n < 2)
        return;
    uint32_t h = n / 2;
    group_sort(g, tmp, h, v);
    group_sort(g + h, tmp, n - h, v);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = group_cmp(&g[j], &g[i], (void *)v) < 0 ? g[j++] : g[i++];
    while (i < h)
        tmp[k++] = g[i++];
    while (j < n)
        tmp[k++] = g[j++];
    for (k = 0; k < n; k++)
        g[k] = tmp[k];
}

void diag_sort(DiagList *d)
{
    uint32_t n = d->items.n;
    if (n < 2)
        return;
    DiagGroup *g = base_xmalloc(n * sizeof *g), *tmp = base_xmalloc(n * sizeof *tmp);
    uint32_t ng = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (d->items.v[i].sev == DIAG_NOTE && ng)
            g[ng - 1].n++;
        else
            g[ng++] = (DiagGroup){i, 1};
    }
    group_sort(g, tmp, ng, d->items.v);
    Diag *out = base_xmalloc(n * sizeof *out);
    uint32_t k = 0;
    for (uint32_t i = 0; i < ng; i++)
        for (uint32_t j = 0; j < g[i].n; j++)
            out[k++] = d->items.v[g[i].first + j];
    free(d->items.v);
    d->items.v = out;
    d->items.cap = n;
    free(g);
    free(tmp);
}

static const char *sev_name(DiagSeverity s)
{
    switch (s) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    case DIAG_NOTE: return "note";
    }
    return "?";
}

enum { DIAG_LINE_SHOWN = 200 /* a longer source line is cut around the caret */ };

void diag_print_one(FILE *f, const Source *src, const Diag *x)
{
    fprintf(f, "%s:%u:%u: %s: %s\n", src ? src->name : "<input>", x->line, x->col, sev_name(x->sev), x->msg);
    if (!src || !src->len)
        return;
    uint32_t start = src->line_start[x->line - 1];
    uint32_t end = start;
    while (end < src->len && src->text[end] != '\n' && src->text[end] != '\r')
        end++;
    uint32_t caret = x->off > end ? end : x->off;
    /* Show at most DIAG_LINE_SHOWN bytes, keeping the caret in view. */
    uint32_t from = start;
    if (caret - start > DIAG_LINE_SHOWN / 2)
        from = caret - DIAG_LINE_SHOWN / 2;
    uint32_t to = end - from > DIAG_LINE_SHOWN ? from + DIAG_LINE_SHOWN : end;
    fputs(" ", f);
    for (uint32_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)src->text[i];
        fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', f);
    }
    fputs("\n ", f);
    for (uint32_t i = from; i < caret; i++)
        fputc(src->text[i] == '\t' ? '\t' : ' ', f);
    fputs("^\n", f);
}

void diag_print(FILE *f, const DiagList *d, bool show_warnings)
{
    bool skipping = false;
    for (uint32_t i = 0; i < d->items.n; i++) {
        const Diag *x = &d->items.v[i];
        if (x->sev != DIAG_NOTE)
            skipping = x->sev == DIAG_WARNING && !show_warnings;
        if (!skipping)
            diag_print_one(f, d->src, x);
    }
}

/* ---- files ----------------------------------------------------------- */

char *base_read_file(const char *path, size_t *len, char **err, bool *too_large)
{
    *too_large = false;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = base_sprintf("cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        *err = base_sprintf("cannot read %s: it is a directory", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = base_xmalloc(cap + 1);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > BASE_MAX_FILE_BYTES) {
            fclose(f);
            free(buf);
            *err = base_sprintf("the file is larger than the limit of %u MiB", (unsigned)(BASE_MAX_FILE_BYTES >> 20));
            *too_large = true;
            return NULL;
        }
        if (got == 0) {
            if (ferror(f)) {
                fclose(f);
                free(buf);
                *err = base_sprintf("cannot read %s: %s", path, strerror(errno));
                return NULL;
            }
            break;
        }
        if (n == cap) {
            cap *= 2;
            buf = base_xrealloc(buf, cap + 1);
        }
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    *err = NULL;
    return buf;
}

bool base_goal_value(const char *text, int *value)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno || v < 0 || v > 100 || isspace((unsigned char)*text))
        return false;
    *value = (int)v;
    return true;
}

const char *base_tmpdir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}
