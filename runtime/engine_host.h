/*
 * engine_host.h: the runtime functions a JIT-compiled engine imports, and
 * the stack segments every engine recurses on (engine_host.c).
 */
#ifndef GDLC_ENGINE_HOST_H
#define GDLC_ENGINE_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "jit.h"

extern const RtJitSymbol rt_engine_symbols[];
extern const size_t rt_engine_nsymbols;

/* What is left of an engine's count to its next poll (engine.h's Ev.poll,
 * run down by POLL at every rule tried, every fact a join's loop meets and
 * every answer added, then reset when the host's stop() is asked): read
 * before and after a query, it counts that query's work exactly
 * (compiled.c's rt_compiled_polls). ev is what the module's create made,
 * an Ev of this gdlc's engine.h, as every module it loads is (checked by
 * version). */
uint32_t rt_ev_poll_left(const void *ev);

/* ---- stack segments ---------------------------------------------------- */

enum {
    RT_STACK_ALLOW = 64 << 10,      /* bytes of the caller's stack a query may use */
    RT_STACK_SEGMENT = 8 << 20,     /* one heap segment, its guard page included */
    RT_STACK_MARGIN = 128 << 10,    /* kept free at a segment's end for the frames between two checks */
    RT_STACK_BUDGET_MIB = 1024,     /* all segments of one query, at most: the depth bound */
    RT_STACK_SEGMENTS = (RT_STACK_BUDGET_MIB << 20) / RT_STACK_SEGMENT,
};

/* The segments of one machine, mapped on first use. */
typedef struct RtStack {
    char *seg[RT_STACK_SEGMENTS]; /* mapped segments (NULL: not yet) */
    uint32_t depth;               /* segments in use by the running query */
    uint32_t nmax;                /* segments a query may use: the budget */
} RtStack;

/* No segment mapped yet; the budget is RT_STACK_BUDGET_MIB, or less when
 * the environment variable GDLC_STACK_MIB says so (rounded down to whole
 * segments, one at least). */
void rt_stack_init(RtStack *s);
/* The budget in MiB, for messages. */
static inline unsigned rt_stack_mib(const RtStack *s) { return s->nmax * (RT_STACK_SEGMENT >> 20); }

/* The floor of a query entered in the frame `here`: a recursive call whose
 * frame lies below it continues on a segment (rt_stack_hop). */
static inline uintptr_t rt_stack_floor(const void *here) { return (uintptr_t)here - RT_STACK_ALLOW; }

/* Runs fn(arg) on the next segment, *floor set to that segment's floor
 * meanwhile. False, without running fn, when the budget is spent (or no
 * memory can be mapped): the caller stops its query with GDL_LIMIT. */
bool rt_stack_hop(RtStack *s, uintptr_t *floor, void (*fn)(void *), void *arg);
/* Unmaps every segment. */
void rt_stack_free(RtStack *s);
/* Runs fn(arg) on a segment of its own, mapped for the call (or, when none
 * can be, on the caller's stack): for passes whose recursion follows the
 * shape of the game's rules (code generation, libtcc), deeper than a small
 * thread's stack can hold under a sanitizer. */
void rt_stack_run(void (*fn)(void *), void *arg);

#endif
