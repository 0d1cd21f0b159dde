/*
 * terms.c: the hash-consed store of ground terms. See terms.h.
 */
#include "terms.h"

#include <string.h>

enum { GT_RECENT = 4096 /* entries of the interning cache */ };

/* Where a term would sit in the interning cache: cheap, from ids. */
static uint32_t recent_slot(uint32_t fn, uint32_t arity, const Gt *args)
{
    uint64_t h = fn * 0x9e3779b97f4a7c15ULL + arity;
    for (uint32_t i = 0; i < arity; i++)
        h = (h + args[i]) * 0xbf58476d1ce4e5b9ULL;
    return (uint32_t)(h >> 40) & (GT_RECENT - 1);
}

void gt_init(GtStore *s, Symtab *syms)
{
    memset(s, 0, sizeof *s);
    s->syms = syms;
    s->nslots = 1024;
    s->slots = base_xcalloc(s->nslots, sizeof *s->slots);
    s->recent = base_xcalloc(GT_RECENT, sizeof *s->recent);
}

void gt_free(GtStore *s)
{
    for (uint32_t i = 0; i < s->text.n; i++)
        free(s->text.v[i]);
    vec_free(s->fn);
    vec_free(s->arity);
    vec_free(s->args_at);
    vec_free(s->args);
    vec_free(s->hash);
    vec_free(s->depth);
    vec_free(s->text);
    vec_free(s->key);
    vec_free(s->key2);
    vec_free(s->symhash);
    free(s->recent);
    free(s->slots);
    memset(s, 0, sizeof *s);
}

static uint64_t sym_hash(GtStore *s, uint32_t sym)
{
    while (s->symhash.n <= sym) {
        uint32_t i = s->symhash.n;
        uint64_t h = i < s->syms->n ? base_hash_bytes(s->syms->str[i], s->syms->len[i], 0x9e37) : 0;
        vec_push(s->symhash, h);
    }
    return s->symhash.v[sym];
}

static uint64_t key_hash(GtStore *s, uint32_t fn, uint32_t arity, const Gt *args)
{
    uint64_t h = sym_hash(s, fn) ^ (arity * 0x9e3779b97f4a7c15ULL);
    for (uint32_t i = 0; i < arity; i++)
        h = base_mix64(h + s->hash.v[args[i]] + i);
    return h;
}

static bool same_key(const GtStore *s, Gt t, uint32_t fn, uint32_t arity, const Gt *args)
{
    if (s->fn.v[t] != fn || s->arity.v[t] != arity)
        return false;
    const Gt *a = u32_at(&s->args, s->args_at.v[t]);
    for (uint32_t i = 0; i < arity; i++)
        if (a[i] != args[i])
            return false;
    return true;
}

Gt gt_find(const GtStore *s, uint32_t fn, uint32_t arity, const Gt *args)
{
    if (fn >= s->symhash.n && fn >= s->syms->n)
        return BASE_NONE;
    uint64_t h = key_hash((GtStore *)s, fn, arity, args);
    uint32_t mask = s->nslots - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        uint32_t id = s->slots[i];
        if (!id)
            return BASE_NONE;
        if (s->hash.v[id - 1] == h && same_key(s, id - 1, fn, arity, args))
            return id - 1;
    }
}

Gt gt_intern(GtStore *s, uint32_t fn, uint32_t arity, const Gt *args)
{
    /* Engines build the same few terms again and again (moves, facts of
     * the next state): a direct-mapped cache saves the content hash. */
    uint32_t slot = recent_slot(fn, arity, args), r = s->recent[slot];
    if (r && same_key(s, r - 1, fn, arity, args))
        return r - 1;
    Gt found = gt_find(s, fn, arity, args);
    if (found != BASE_NONE) {
        s->recent[slot] = found + 1;
        return found;
    }
    uint8_t depth = 1;
    for (uint32_t i = 0; i < arity; i++)
        if (s->depth.v[args[i]] + 1 > depth)
            depth = (uint8_t)(s->depth.v[args[i]] + 1);
    if (depth > GT_MAX_DEPTH)
        return BASE_NONE;
    if ((uint64_t)(s->fn.n + 1) * 2 > s->nslots) {
        uint32_t n = s->nslots * 2;
        uint32_t *slots = base_xcalloc(n, sizeof *s->slots);
        free(s->slots);
        s->slots = slots;
        s->nslots = n;
        for (uint32_t t = 0; t < s->fn.n; t++) {
            uint32_t i = (uint32_t)s->hash.v[t] & (n - 1);
            while (s->slots[i])
                i = (i + 1) & (n - 1);
            s->slots[i] = t + 1;
        }
    }
    uint64_t h = key_hash(s, fn, arity, args);
    Gt t = s->fn.n;
    vec_push(s->fn, fn);
    vec_push(s->arity, arity);
    vec_push(s->args_at, s->args.n);
    for (uint32_t i = 0; i < arity; i++)
        vec_push(s->args, args[i]);
    vec_push(s->hash, h);
    vec_push(s->depth, depth);
    vec_push(s->text, NULL);
    vec_push(s->key, 0);
    vec_push(s->key2, 0);
    uint32_t mask = s->nslots - 1, i = (uint32_t)h & mask;
    while (s->slots[i])
        i = (i + 1) & mask;
    s->slots[i] = t + 1;
    s->recent[slot] = t + 1;
    return t;
}

static void text_build(GtStore *s, Gt t, char **buf, size_t *len, size_t *cap)
{
    const char *name = symtab_str(s->syms, s->fn.v[t]);
    size_t need = strlen(name) + 2;
    if (*len + need + 1 > *cap) {
        *cap = (*len + need + 1) * 2;
        *buf = base_xrealloc(*buf, *cap);
    }
    uint32_t arity = s->arity.v[t];
    if (arity)
        (*buf)[(*len)++] = '(';
    memcpy(*buf + *len, name, strlen(name));
    *len += strlen(name);
    for (uint32_t i = 0; i < arity; i++) {
        (*buf)[(*len)++] = ' ';
        const char *sub = gt_text(s, gt_arg(s, t, i));
        size_t n = strlen(sub);
        if (*len + n + 2 > *cap) {
            *cap = (*len + n + 2) * 2;
            *buf = base_xrealloc(*buf, *cap);
        }
        memcpy(*buf + *len, sub, n);
        *len += n;
    }
    if (arity)
        (*buf)[(*len)++] = ')';
    (*buf)[*len] = 0;
}

const char *gt_text(GtStore *s, Gt t)
{
    if (!s->text.v[t]) {
        size_t len = 0, cap = 32;
        char *buf = base_xmalloc(cap);
        text_build(s, t, &buf, &len, &cap);
        s->text.v[t] = buf;
        uint64_t k = 0, k2 = 0;
        for (size_t i = 0; i < 8; i++)
            k = k << 8 | (i < len ? (unsigned char)buf[i] : 0);
        for (size_t i = 8; i < 16; i++)
            k2 = k2 << 8 | (i < len ? (unsigned char)buf[i] : 0);
        s->key.v[t] = k;
        s->key2.v[t] = k2;
    }
    return s->text.v[t];
}

/* A term with its sort keys (the first 16 bytes of its text), read once:
 * the keys decide most pairs without reading the texts. */
typedef struct SortItem {
    uint64_t k, k2;
    Gt t;
} SortItem;

static SortItem sort_item(GtStore *s, Gt t)
{
    gt_text(s, t);
    return (SortItem){s->key.v[t], s->key2.v[t], t};
}

/* Byte order of the texts of two terms whose texts are built. */
static bool item_less(const GtStore *s, const SortItem *a, const SortItem *b)
{
    if (a->k != b->k)
        return a->k < b->k;
    if (a->k2 != b->k2)
        return a->k2 < b->k2;
    return strcmp(s->text.v[a->t], s->text.v[b->t]) < 0;
}

int gt_cmp(GtStore *s, Gt a, Gt b)
{
    if (a == b)
        return 0; /* hash-consed: different terms have different texts */
    SortItem x = sort_item(s, a), y = sort_item(s, b);
    return item_less(s, &x, &y) ? -1 : 1;
}

/* A merge sort by canonical text: stable, and needs no global context. */
static void merge_sort(const GtStore *s, SortItem *v, SortItem *tmp, uint32_t n)
{
    if (n < 2)
        return;
    uint32_t h = n / 2, i = 0, j = h, k = 0;
    merge_sort(s, v, tmp, h);
    merge_sort(s, v + h, tmp, n - h);
    if (!item_less(s, &v[h], &v[h - 1]))
        return; /* the halves are in order already */
    while (i < h && j < n)
        tmp[k++] = item_less(s, &v[j], &v[i]) ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

void gt_sort(GtStore *s, Gt *v, uint32_t n)
{
    SortItem buf[2 * 256], *items = n <= 256 ? buf : base_xmalloc(2 * (size_t)n * sizeof *items);
    for (uint32_t i = 0; i < n; i++)
        items[i] = sort_item(s, v[i]);
    merge_sort(s, items, items + n, n);
    for (uint32_t i = 0; i < n; i++)
        v[i] = items[i].t;
    if (items != buf)
        free(items);
}
