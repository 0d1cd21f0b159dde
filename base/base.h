/*
 * base.h: the foundation every stage stands on.
 *
 *  - Memory: base_xmalloc and friends are the only calls to the C allocator in
 *    the project, through one hook a thread may replace (base_set_alloc: a
 *    test fails the N-th allocation with it). When memory runs out they jump
 *    to the innermost handler of the thread (base_oom_push): the API's calls
 *    and the driver set one, so the library returns a status instead of
 *    aborting. Without a handler (an internal misuse) they abort.
 *    Arena gives bump allocation freed in one call.
 *  - VEC(T): a growable array of 32-bit length, for the flat tables of every
 *    stage (nodes, terms, rules are arrays indexed by uint32_t ids).
 *  - Symtab: string interning. Ids are dense and stable; the strings live in
 *    the table's arena.
 *  - Source and DiagList: diagnostics are data. A diagnostic stores a byte
 *    offset; its line and column are computed from the source's line index
 *    when it is made, so a printer needs nothing but the list and the source.
 *    Library code never prints on its own and never exits.
 */
#ifndef GDLC_BASE_H
#define GDLC_BASE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__GNUC__) || defined(__clang__)
#define BASE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define BASE_NORETURN __attribute__((noreturn))
#else
#define BASE_PRINTF(f, a)
#define BASE_NORETURN
#endif

#define BASE_NONE UINT32_MAX /* "no id": the null value of every uint32_t index */

/* ---- memory ---------------------------------------------------------- */

/* An allocator with realloc's contract (p NULL: a new block; n > 0 always;
 * NULL when it cannot). Blocks are released with free(). */
typedef void *(*BaseAllocFn)(void *ud, void *p, size_t n);
/* This thread's allocator; NULL restores the C library's. */
void base_set_alloc(BaseAllocFn fn, void *ud);
/* An allocation through the hook that may fail: NULL when it does. */
void *base_try_realloc(void *p, size_t n);

/* A handler of running out of memory: base_oom_push(&h), then
 * `if (BASE_OOM_SETJMP(&h))` is reached again, with h already popped, when
 * an allocation fails before base_oom_pop(&h). Handlers nest per thread.
 *
 * Every public query of the library sets one, so its cost is paid a few
 * times per step of a playout: the C library's setjmp (a call chain that
 * also records the signal mask's flag) was 4-5% of the samples of a
 * Breakthrough profile under aot.
 * Where GCC's built-in pair is available it is used instead: it saves the
 * frame and stack pointers and the resume address (the function that sets
 * it keeps every callee-saved register in its frame), which is all a jump
 * out of an allocation needs. Under the sanitizers, which watch longjmp
 * to mend their view of the stack, the C library's pair is kept. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer) ||    \
    __has_feature(hwaddress_sanitizer)
#define BASE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_HWADDRESS__)
#undef BASE_SANITIZED
#define BASE_SANITIZED 1
#endif
/* x86-64 with GCC or clang; AArch64 with GCC (clang has no built-in pair
 * there). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(BASE_SANITIZED) && !defined(__TINYC__) &&             \
    (defined(__x86_64__) || (defined(__aarch64__) && !defined(__clang__)))
#define BASE_OOM_BUILTIN 1
typedef void *BaseJmpBuf[5];
#define BASE_OOM_SETJMP(h) __builtin_setjmp((h)->jb)
#else
typedef jmp_buf BaseJmpBuf;
#define BASE_OOM_SETJMP(h) setjmp((h)->jb)
#endif
typedef struct BaseOom {
    BaseJmpBuf jb;
    struct BaseOom *prev;  /* the handler this one hides */
    const char *what;      /* after the jump: what ran out */
} BaseOom;
void base_oom_push(BaseOom *h);
void base_oom_pop(BaseOom *h);
/* Runs fn(arg) under a handler of its own: NULL when it returned, else
 * what ran out (the jump stops here; the caller raises it again with
 * base_fatal where it should go on, as a stack segment does). */
const char *base_oom_catch(void (*fn)(void *), void *arg);

/* A journal of the blocks allocated, and not yet freed, while it is this
 * thread's active one: what a call that ran out of memory leaves behind.
 * The API keeps one per machine and per load (api.c): after a jump it frees
 * what the object it was building does not own (see base_journal_release).
 * While one is active every allocation is recorded and every free (free is
 * base_free in the project's code, below) forgets the block. */
typedef struct BaseJournalSlot {
    void *p;       /* the block; NULL with gen current: a deleted entry */
    uint32_t gen;  /* the journal's generation it was recorded in */
} BaseJournalSlot;
typedef struct BaseJournal {
    BaseJournalSlot *slot; /* open addressing; slots of an older gen are empty */
    uint32_t cap;          /* a power of two, or 0 */
    uint32_t used;         /* current-gen slots, deleted ones included */
    uint32_t gen;          /* bumped to forget everything at once */
} BaseJournal;
/* Makes j this thread's active journal (NULL: none); returns the one before. */
BaseJournal *base_journal_swap(BaseJournal *j);
/* Forgets every block recorded (they live on, owned elsewhere): O(1). */
void base_journal_forget_all(BaseJournal *j);
/* Forgets one block of the active journal: it is handed to the caller. */
void base_journal_forget(void *p);
/* Records a block the C library allocated (open_memstream's buffer): it
 * will be freed with the call's temporaries should memory run out. */
void base_journal_adopt(void *p);
/* Frees every block still recorded, then the journal's own table. */
void base_journal_release(BaseJournal *j);
/* free(), keeping the active journal up to date. */
void base_free(void *p);

void *base_xmalloc(size_t n);
void *base_xcalloc(size_t n, size_t size);
void *base_xrealloc(void *p, size_t n);
char *base_xstrdup(const char *s);
char *base_xstrndup(const char *s, size_t n);
BASE_NORETURN void base_fatal(const char *what);
/* malloc-ed string made by a printf format. */
char *base_vsprintf(const char *fmt, va_list ap) BASE_PRINTF(1, 0);
char *base_sprintf(const char *fmt, ...) BASE_PRINTF(1, 2);

typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
    ArenaChunk *head; /* newest chunk; older chunks hang off it */
    size_t bytes;     /* bytes handed out so far, for memory accounting */
} Arena;

void *arena_alloc(Arena *a, size_t n); /* zeroed, 16-byte aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);

/* ---- growable arrays ------------------------------------------------- */

#define VEC(T)         \
    struct {           \
        T *v;          \
        uint32_t n;    \
        uint32_t cap;  \
    }

void vec_grow_(void **v, uint32_t *cap, uint32_t need, size_t elem);
#define vec_reserve(a, need) \
    ((need) > (a).cap ? vec_grow_((void **)&(a).v, &(a).cap, (need), sizeof *(a).v) : (void)0)
#define vec_push(a, x) (vec_reserve((a), (a).n + 1), (a).v[(a).n++] = (x))
#define vec_free(a) (free((a).v), (a).v = NULL, (a).n = (a).cap = 0)

typedef VEC(uint32_t) U32Vec;
/* Sorts ids ascending (no comparison callback: states are sorted a lot). */
void base_sort_u32(uint32_t *v, uint32_t n);
/* The same with scratch room for n numbers from the caller (none needed
 * for n <= 24): no allocation. */
void base_sort_u32_with(uint32_t *v, uint32_t *tmp, uint32_t n);

/* &v->v[i], without arithmetic on a NULL array (an empty vector of tuples of
 * arity 0 has none). */
static inline uint32_t *u32_at(const U32Vec *v, size_t i) { return v->v ? v->v + i : NULL; }

/* ---- strings ---------------------------------------------------------- */

/* A growable string; s is NUL-terminated once anything was added. */
typedef struct StrBuf {
    char *s;
    size_t len, cap;
} StrBuf;

void strbuf_add(StrBuf *b, const char *text);
/* Adds text made by a printf format. */
void strbuf_addf(StrBuf *b, const char *fmt, ...) BASE_PRINTF(2, 3);
/* Adds text after a space unless the buffer is empty. */
void strbuf_add_word(StrBuf *b, const char *text);

/* ---- hashing --------------------------------------------------------- */

/* 64-bit FNV-1a followed by a final mix: deterministic across processes. */
uint64_t base_hash_bytes(const void *p, size_t n, uint64_t seed);
static inline uint64_t base_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* ---- symbols --------------------------------------------------------- */

typedef struct Symtab {
    Arena arena;      /* the strings */
    const char **str; /* id -> NUL-terminated text */
    uint32_t *len;    /* id -> length */
    uint32_t n, cap;  /* ids in use, capacity of str/len */
    uint32_t *slots;  /* open-addressing table of id+1 (0 = empty) */
    uint32_t nslots;  /* power of two */
} Symtab;

void symtab_init(Symtab *t);
void symtab_free(Symtab *t);
uint32_t symtab_intern(Symtab *t, const char *s, size_t len);
/* BASE_NONE when the string was never interned. */
uint32_t symtab_find(const Symtab *t, const char *s, size_t len);
static inline const char *symtab_str(const Symtab *t, uint32_t id) { return t->str[id]; }

/* ---- sources and diagnostics ----------------------------------------- */

typedef struct Source {
    char *name;           /* path as the user gave it */
    char *text;           /* the bytes, NUL-terminated (NULs inside are kept) */
    size_t len;           /* length of text */
    uint32_t *line_start; /* offset of the first byte of each line */
    uint32_t nlines;
} Source;

/* Takes ownership of text (malloc-ed, len bytes plus a NUL). */
Source *source_new(const char *name, char *text, size_t len);
void source_free(Source *s);
void source_linecol(const Source *s, uint32_t off, uint32_t *line, uint32_t *col);

typedef enum DiagSeverity {
    DIAG_ERROR,   /* the input is rejected */
    DIAG_WARNING, /* accepted, but probably not what the author meant */
    DIAG_NOTE,    /* more about the diagnostic before it */
} DiagSeverity;

typedef struct Diag {
    DiagSeverity sev;
    uint32_t off;       /* byte offset in the source */
    uint32_t line, col; /* 1-based; col counts bytes */
    char *msg;          /* malloc-ed */
} Diag;

enum { DIAG_MAX_ERRORS = 50 /* after this many errors a stage gives up */ };

typedef struct DiagList {
    const Source *src; /* where offsets point */
    VEC(Diag) items;   /* in the order they were made */
    uint32_t nerrors, nwarnings;
} DiagList;

void diag_init(DiagList *d, const Source *src);
void diag_free(DiagList *d);
void diag_add(DiagList *d, DiagSeverity sev, uint32_t off, const char *fmt, ...) BASE_PRINTF(4, 5);
void diag_vadd(DiagList *d, DiagSeverity sev, uint32_t off, const char *fmt, va_list ap) BASE_PRINTF(4, 0);
#define diag_error(d, off, ...) diag_add((d), DIAG_ERROR, (off), __VA_ARGS__)
#define diag_warning(d, off, ...) diag_add((d), DIAG_WARNING, (off), __VA_ARGS__)
#define diag_note(d, off, ...) diag_add((d), DIAG_NOTE, (off), __VA_ARGS__)
static inline bool diag_too_many(const DiagList *d) { return d->nerrors >= DIAG_MAX_ERRORS; }
/* Sorts by position, keeping each note after the diagnostic it belongs to. */
void diag_sort(DiagList *d);
/* FILE:LINE:COL: severity: message, then the source line and a caret. */
void diag_print(FILE *f, const DiagList *d, bool show_warnings);
void diag_print_one(FILE *f, const Source *src, const Diag *x);

/* ---- limits and values every engine shares ------------------------------ */

enum {
    /* the widest relation the compiled engines take; a function term takes
     * one argument less (its functor has a slot of its own) */
    BASE_MAX_ENGINE_ARITY = 63,
    /* deepest term (a constant is 1 deep) the engines accept: deeper ones
     * in the game text are errors (validate.c), deeper ones built while
     * playing stop the query with GDL_LIMIT (GT_MAX_DEPTH in terms.h) */
    BASE_MAX_TERM_DEPTH = 64,
};

/* Reads a goal value as every engine reads it: a decimal integer from 0 to
 * 100 (an optional sign, no other character). False when text is not one. */
bool base_goal_value(const char *text, int *value);

/* ---- files ----------------------------------------------------------- */

enum { BASE_MAX_FILE_BYTES = 128u << 20 /* larger inputs are refused */ };

/* Reads a whole file. NULL with *err set (malloc-ed) when it cannot; then
 * *too_large tells whether the file exists but exceeds BASE_MAX_FILE_BYTES
 * (an input fault) rather than being unreadable. */
char *base_read_file(const char *path, size_t *len, char **err, bool *too_large);
/* Where temporary files go: $TMPDIR when set and not empty, else /tmp. */
const char *base_tmpdir(void);

/* Every free of the project's code goes through base_free (for the
 * journal above); "(free)(p)" still names the C library's. */
#define free(p) base_free(p)

#endif
