/*
 * pncg.h: the compiled propositional backend: a flattened propositional
 * network to C that propagates changes in straight-line code.
 *
 * Engine `pn` (runtime/pn.c) keeps per component a counter of its true
 * inputs biased so that bit 31 is the gate's value, and tells a change to
 * a component's outputs by walking its output list. pncg_emit writes that
 * walk out per component: one function t<c> per component whose outputs
 * are all acyclic, each output one line with its counter's address and the
 * direction of the move (+1, or -1 for a NOT told of a rise) as constants,
 * and on a flip of a target its value stored, the next-state bits that
 * follow it toggled, and so the bits of the legal moves it stands for
 * (constants too), and the target's own function called directly (depth
 * first). A
 * member of a cyclic SCC (which the host recomputes from false) is only
 * counted and its SCC marked for the host; a cyclic member's own changes
 * are told by the host's tables. A call that would nest deeper than
 * PNCG_MAX_NEST is handed to the host's queue instead, so that the stack a
 * propagation uses stays bounded (a few KB) whatever the network's depth.
 *
 * The description below is plain data: runtime/pn.c fills it from its
 * tables (the backend does not read middle/propnet.h); no text from the
 * game reaches the generated C, only numbers. The generated file
 * is self-contained C (no #include, no import) for libtcc or the system
 * compiler: the host's two functions come in the context (PncgCtx), and it
 * exports the table pncg_tell: per component its function or 0 (the host
 * tells it from its tables).
 *
 * Budget: a network whose code would pass max_lines (the default keeps
 * libtcc's compile in milliseconds) is not emitted: the engine keeps its
 * tables.
 */
#ifndef GDLC_PNCG_H
#define GDLC_PNCG_H

#include <stddef.h>
#include <stdint.h>

enum {
    PNCG_DEFAULT_MAX_LINES = 20000,
    PNCG_MAX_NEST = 128,       /* direct calls nest at most this deep */
};

/* Output links, as engine pn encodes them. */
#define PNCG_E_NOT 0x80000000u  /* the target is a NOT */
#define PNCG_E_CYC 0x40000000u  /* the target is a member of a cyclic SCC */
#define PNCG_E_COMP 0x3fffffffu

/* Per component. */
enum {
    PNCG_F_CYCLIC = 1,   /* a member of a cyclic SCC: told by the host */
};

typedef struct PncgNet {
    uint32_t n;              /* components */
    const uint32_t *out_at;  /* outputs of c: out[out_at[c] .. out_at[c + 1]) */
    const uint32_t *out;     /* PNCG_E_* | component */
    const uint8_t *flags;    /* PNCG_F_* per component */
    const uint32_t *nw_at;   /* the bases whose next is c: nw[nw_at[c] .. nw_at[c + 1]) */
    const uint32_t *nw;
    const uint32_t *lb_at;   /* the legal moves' bits that follow c: lb[lb_at[c] .. lb_at[c + 1]) */
    const uint32_t *lb;
    const uint32_t *order;   /* every component once, inputs before outputs (cycles aside) */
    uint32_t gate_size;      /* the host's per-component record: its size, */
    uint32_t val_offset;     /* and where its value byte is */
} PncgNet;

/* What the generated code reads and writes, laid out alike in the host
 * and in the generated file (which declares it with its own names). */
typedef struct PncgCtx {
    uint32_t *ctr;      /* per component: the biased counter */
    uint8_t *gates;     /* per component: a record of gate_size bytes, its value at val_offset */
    uint64_t *next_on;  /* the next state's bits */
    uint64_t *legal_on; /* the legal moves' bits */
    void *host;         /* handed back to the host functions: */
    /* tell comp's outputs that it became v, later (its value is stored) */
    void (*queue)(void *host, uint32_t comp, uint32_t v);
    /* comp, a member of a cyclic SCC, was counted: recompute its SCC */
    void (*dirty)(void *host, uint32_t comp);
} PncgCtx;

/* The C (malloc-ed, NUL-terminated, *len bytes), or NULL when it would
 * take more than max_lines lines (0: PNCG_DEFAULT_MAX_LINES). *lines
 * receives the count (or the estimate that passed the budget). */
char *pncg_emit(const PncgNet *net, size_t max_lines, size_t *len, size_t *lines);

#endif
