/*
 * abi.h: the contract between the runtime and a generated engine.
 *
 * Copied into every generated C file (before prelude.h) and included by the
 * runtime (runtime/compiled.c), so both sides see one definition. Plain C
 * types only: the generated code has no headers. An engine exports one
 * object, `gdlc_module`; the runtime checks its abi, version and game hash
 * before using anything else in it. Change GDLC_ABI whenever a layout or a
 * meaning here changes.
 *
 * A shared object (aot, `gdlc compile`) also carries the same identity in a
 * note, GdlcNote, that the runtime reads with plain file reads before it
 * lets dlopen map the file or run any of its code.
 */
#ifndef GDLC_ABI_H
#define GDLC_ABI_H

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned long usize;

#define GDLC_ABI 3u

/* The section ".note.gdlc" of a shared object, laid out as an ELF note
 * (owner "gdlc"). All fields are 4-byte aligned; text fields are
 * NUL-terminated. sum is written by gdlc after linking: the hash of the
 * whole file read with sum zeroed (runtime/compiled.c), so that any change
 * to the file after gdlc made it (truncation, a damaged copy, strip) is
 * seen before the file is loaded. */
#define GDLC_NOTE_TYPE 0x6764u /* "gd" */
typedef struct GdlcNote {
    u32 namesz;         /* 5: "gdlc" and its NUL */
    u32 descsz;         /* bytes from abi to the end: sizeof(GdlcNote) - 20 */
    u32 type;           /* GDLC_NOTE_TYPE */
    char name[8];       /* "gdlc", NUL-padded to a multiple of 4 */
    u32 abi;            /* GDLC_ABI */
    char version[16];   /* gdlc's version that emitted it */
    char game_hash[20]; /* hash of the game text: 16 hex digits */
    char sum[20];       /* 16 hex digits; all zero until gdlc seals the file */
} GdlcNote;

/* What the runtime offers the generated code. */
typedef struct GdlcHost {
    u32 abi;
    void *(*alloc)(usize n);                 /* NULL when out of memory */
    void (*release)(void *p);
    /* the ground term fn(args): 0xffffffff when it would be too deep */
    u32 (*intern)(void *store, u32 fn, u32 arity, const u32 *args);
    u32 (*sym)(void *store, const char *name); /* a symbol's id */
    int (*stop)(void *ctl);                  /* deadline passed or cancel flag */
    /* Runs fn(arg) on a fresh stack segment of the host, *floor set to
     * the segment's floor meanwhile (engine.h, DEEP); 0, without running
     * fn, when a query's stack budget is spent. */
    int (*hop)(void *ctl, usize *floor, void (*fn)(void *), void *arg);
} GdlcHost;

/* Bytes of the caller's stack a query may use before its recursion goes
 * on the host's stack segments (runtime/engine_host.c). */
#define GDLC_STACK_ALLOW 65536u

/* The term store's arrays, read in place (they move when terms are added). */
typedef struct GdlcTermView {
    u32 *const *fn, *const *arity, *const *args_at, *const *args;
} GdlcTermView;

/* Status of a call into a module. */
enum {
    ST_OK,
    ST_CANCELLED, /* the deadline or the cancel flag */
    ST_DEPTH,     /* a term would be nested too deep */
    ST_MEMORY,    /* the tables would exceed the memory limit */
    ST_NEGATION,  /* a negated call is still in progress */
    ST_STACK,     /* the recursion would exceed the stack budget */
};

/* The root queries, declared once, in their ABI order: X(NAME, name,
 * BOUND) with name the keyword relation asked (IR_REL_NAME in the compiler)
 * and BOUND the argument positions the caller binds (a mask). */
#define GDLC_ROOT_QUERIES(X)                           \
    X(INIT, init, 0)         /* init(?f) */            \
    X(LEGAL, legal, 1)       /* legal(role, ?m) */     \
    X(NEXT, next, 0)         /* next(?f) */            \
    X(TERMINAL, terminal, 0) /* terminal */            \
    X(GOAL, goal, 0)         /* goal(?r, ?v) */

/* The queries (GQ_INIT, ...): answers are tuples of the relation's arity. */
#define GDLC_GQ(NAME, name, bound) GQ_##NAME,
enum { GDLC_ROOT_QUERIES(GDLC_GQ) GQ_N };
#undef GDLC_GQ

typedef struct GdlcModule {
    u32 abi;
    const char *version;   /* gdlc's version that emitted it */
    const char *game_hash; /* hash of the game text (16 hex digits) */
    /* NULL when out of memory */
    void *(*create)(const GdlcHost *h, void *store, void *ctl, const GdlcTermView *tv, usize mem_limit);
    void (*destroy)(void *e);
    /* The state (its `true` facts) and the joint move (one per role, in
     * role order) that the next queries read. */
    u32 (*set_state)(void *e, const u32 *facts, u32 n);
    u32 (*set_move)(void *e, const u32 *joint);
    /* Answers of a query; role is the role's term for GQ_LEGAL. The
     * answers stay valid until the next call. */
    u32 (*query)(void *e, u32 which, u32 role, const u32 **ans, u32 *n);
} GdlcModule;

#endif
