/*
 * terms.h: ground terms, hash-consed.
 *
 * A ground term is a functor (a symbol of the game) applied to ground terms;
 * a constant has arity 0. Every distinct term gets one dense id (Gt), so
 * equality of terms is equality of ids. Each term carries a content hash
 * computed from the text of its symbols, never from ids, so hashes of states
 * are the same in every process whatever order terms were made in. The
 * canonical printed form (lower case, single spaces) is built on demand and
 * cached; sorting by it is the canonical order of moves and facts.
 */
#ifndef GDLC_TERMS_H
#define GDLC_TERMS_H

#include "base.h"

typedef uint32_t Gt; /* a ground term id */

enum { GT_MAX_DEPTH = BASE_MAX_TERM_DEPTH /* deeper terms are refused: see ref.c */ };

typedef struct GtStore {
    Symtab *syms;      /* the game's symbols (new ones are interned when parsing) */
    U32Vec fn;         /* functor symbol of each term */
    U32Vec arity;      /* arity of each term */
    U32Vec args_at;    /* first argument in args */
    U32Vec args;       /* argument ids */
    VEC(uint64_t) hash; /* content hash of each term */
    VEC(uint8_t) depth; /* 1 for a constant */
    VEC(char *) text;  /* canonical text, built on demand */
    VEC(uint64_t) key; /* its first 16 bytes, big-endian, as two words: */
    VEC(uint64_t) key2; /* they order most pairs without reading the text */
    uint32_t *recent;  /* a direct-mapped cache of interned terms (id + 1) */
    uint32_t *slots;   /* open addressing: id+1, 0 empty */
    uint32_t nslots;
    VEC(uint64_t) symhash; /* per symbol: hash of its text */
} GtStore;

/* Tuples of terms; n may be 0 with NULL pointers (unlike memcmp/memcpy). */
static inline bool gt_tuple_eq(const Gt *a, const Gt *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}
static inline void gt_tuple_copy(Gt *dst, const Gt *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        dst[i] = src[i];
}

void gt_init(GtStore *s, Symtab *syms);
void gt_free(GtStore *s);
/* The term fn(args); BASE_NONE when it would be deeper than GT_MAX_DEPTH. */
Gt gt_intern(GtStore *s, uint32_t fn, uint32_t arity, const Gt *args);
/* The term if it exists, else BASE_NONE. */
Gt gt_find(const GtStore *s, uint32_t fn, uint32_t arity, const Gt *args);
static inline uint32_t gt_arity(const GtStore *s, Gt t) { return s->arity.v[t]; }
static inline Gt gt_arg(const GtStore *s, Gt t, uint32_t i) { return s->args.v[s->args_at.v[t] + i]; }
static inline uint32_t gt_fn(const GtStore *s, Gt t) { return s->fn.v[t]; }
const char *gt_text(GtStore *s, Gt t);
/* Byte order of canonical texts. */
int gt_cmp(GtStore *s, Gt a, Gt b);
void gt_sort(GtStore *s, Gt *v, uint32_t n);

#endif
