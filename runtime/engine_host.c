/*
 * engine_host.c: the host's copy of the generated engines' runtime, and the
 * stack segments every engine recurses on.
 *
 * backend/engine.h compiled here by the system compiler, with external
 * names (gdlc_rt_*). Code JIT-compiled by libtcc declares these functions
 * (GDLC_RUNTIME_EXTERN) and is linked to this copy, so the hash lookups,
 * tables and completion run at -O2 while only the game's own rules are
 * compiled by libtcc. Ahead-of-time objects carry their own copy instead.
 *
 * Stack segments
 * --------------
 * Evaluation is recursive: ref's solve() and the compiled engines' table
 * calls (tb_call) and yes/no functions (xN) nest once per level of a
 * derivation, so a chain of 100,000 rules, or a path through 100,000 edges,
 * is 100,000 nested calls: far more than a player's thread has (256 KB to
 * 8 MB). Rather than rewrite every evaluator around an explicit stack, each
 * recursive call point compares its frame address with a floor. A query
 * sets the floor RT_STACK_ALLOW below its entry; a call below the floor
 * "hops": it continues on a fresh segment of RT_STACK_SEGMENT bytes mapped
 * from the heap (makecontext, then getcontext/setcontext), whose floor is
 * RT_STACK_MARGIN above its end, and returns to the caller's stack when it
 * is done. Shallow queries never hop: the hot path pays one comparison per
 * call. Segments stay mapped for the machine's next deep query, except
 * those past the first, unmapped when the outermost hop returns, so a
 * single deep query does not hold its memory for good. RT_STACK_SEGMENTS
 * segments (fewer if GDLC_STACK_MIB says so) bound the depth: the next hop
 * fails and the query stops with GDL_LIMIT rather than overflowing. Each
 * segment starts with a guard page.
 *
 * Hops nest strictly (a hop returns before its caller does), like calls. For
 * AddressSanitizer each switch is announced (__sanitizer_start_switch_fiber
 * before, __sanitizer_finish_switch_fiber after), as its fiber API asks.
 * Under ThreadSanitizer there are no hops (see rt_stack_hop).
 */
#include "engine_host.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "../backend/abi.h"

/* From base/base.h, which cannot be included beside engine.h (both
 * define Arena): running out of memory (see rt_stack_hop). */
const char *base_oom_catch(void (*fn)(void *), void *arg);
__attribute__((noreturn)) void base_fatal(const char *what);

#if defined(__SANITIZE_ADDRESS__)
#define RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RT_ASAN 1
#endif
#endif
#ifdef RT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__SANITIZE_THREAD__)
#define RT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RT_TSAN 1
#endif
#endif

/* One hop: what to run, and the two contexts. */
typedef struct RtHop {
    void (*fn)(void *);
    void *arg;
    ucontext_t back;           /* the caller's context, resumed at the end */
    ucontext_t here;           /* the segment's */
    const void *caller_bottom; /* ASan: the caller's stack */
    size_t caller_size;
    const char *oom;           /* fn ran out of memory: what, to raise again on the caller's stack */
} RtHop;

/* The first function on a segment; returning resumes h->back (uc_link).
 * makecontext passes ints: the pointer comes in two halves. */
static void hop_main(unsigned hi, unsigned lo)
{
    RtHop *h = (RtHop *)(((uintptr_t)hi << 16 << 16) | lo);
#ifdef RT_ASAN
    __sanitizer_finish_switch_fiber(NULL, &h->caller_bottom, &h->caller_size);
#endif
    /* Running out of memory jumps to the innermost handler (base.h): catch
     * it here, on the segment, so that the switch back is made as usual and
     * the jump goes on from the caller's stack (a longjmp from one stack to
     * another would leave the sanitizers, and the segment count, wrong). */
    h->oom = base_oom_catch(h->fn, h->arg);
#ifdef RT_ASAN
    __sanitizer_start_switch_fiber(NULL, h->caller_bottom, h->caller_size);
#endif
}

/* Makes h->here start hop_main on the stack [sp, sp + size). A function of
 * its own: getcontext returns twice, as far as the compiler knows, and
 * would make it distrust the caller's locals. */
static __attribute__((noinline)) bool hop_prepare(RtHop *h, char *sp, size_t size)
{
    if (getcontext(&h->here) != 0)
        return false;
    h->here.uc_stack.ss_sp = sp;
    h->here.uc_stack.ss_size = size;
    h->here.uc_link = &h->back;
    uintptr_t p = (uintptr_t)h;
    makecontext(&h->here, (void (*)(void))hop_main, 2, (unsigned)(p >> 16 >> 16), (unsigned)(p & 0xffffffffu));
    return true;
}

/* Switches to h->here and comes back when hop_main returns (uc_link):
 * swapcontext, spelt as getcontext and setcontext, because AddressSanitizer
 * intercepts swapcontext only to print a warning on every program's first
 * switch (the annotations around the call are what it needs). */
static __attribute__((noinline)) void hop_switch(RtHop *h)
{
    volatile int back = 0;
    getcontext(&h->back);
    if (!back) {
        back = 1;
        setcontext(&h->here);
    }
}

void rt_stack_init(RtStack *s)
{
    memset(s, 0, sizeof *s);
    s->nmax = RT_STACK_SEGMENTS;
    const char *env = getenv("GDLC_STACK_MIB");
    char *end;
    unsigned long mib = env && *env ? strtoul(env, &end, 10) : 0;
    if (env && *env && !*end && mib < RT_STACK_BUDGET_MIB)
        s->nmax = mib < (RT_STACK_SEGMENT >> 20) ? 1 : (uint32_t)(mib / (RT_STACK_SEGMENT >> 20));
}

bool rt_stack_hop(RtStack *s, uintptr_t *floor, void (*fn)(void *), void *arg)
{
#ifdef RT_TSAN
    /* ThreadSanitizer does not follow these switches (even announced
     * through its fiber interface, it crashed): no hop under it. Deep
     * recursion stops with GDL_LIMIT; code generation runs in place. */
    (void)fn;
    (void)arg;
    (void)floor;
    return false;
#endif
    if (s->depth >= s->nmax)
        return false;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *seg = s->seg[s->depth];
    if (!seg) {
        seg = mmap(NULL, RT_STACK_SEGMENT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
        if (seg == MAP_FAILED)
            return false;
        mprotect(seg, page, PROT_NONE);
        s->seg[s->depth] = seg;
    }
    RtHop h = {.fn = fn, .arg = arg};
    if (!hop_prepare(&h, seg + page, RT_STACK_SEGMENT - page))
        return false;
    uintptr_t saved = *floor;
    *floor = (uintptr_t)seg + page + RT_STACK_MARGIN;
    s->depth++;
#ifdef RT_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, seg + page, RT_STACK_SEGMENT - page);
#endif
    hop_switch(&h);
#ifdef RT_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
    s->depth--;
    *floor = saved;
    if (s->depth == 0)
        for (uint32_t i = 1; i < RT_STACK_SEGMENTS && s->seg[i]; i++) {
            munmap(s->seg[i], RT_STACK_SEGMENT);
            s->seg[i] = NULL;
        }
    if (h.oom)
        base_fatal(h.oom);
    return true;
}

void rt_stack_run(void (*fn)(void *), void *arg)
{
    RtStack s;
    rt_stack_init(&s);
    s.nmax = 1;
    uintptr_t floor = 0;
    if (!rt_stack_hop(&s, &floor, fn, arg))
        fn(arg);
    rt_stack_free(&s);
}

void rt_stack_free(RtStack *s)
{
    for (uint32_t i = 0; i < RT_STACK_SEGMENTS; i++)
        if (s->seg[i]) {
            munmap(s->seg[i], RT_STACK_SEGMENT);
            s->seg[i] = NULL;
        }
}

#define RT
#define ev_fail gdlc_rt_ev_fail
#define ev_poll gdlc_rt_ev_poll
#define zero gdlc_rt_zero
#define copy32 gdlc_rt_copy32
#define arena_alloc gdlc_rt_arena_alloc
#define arena_reset gdlc_rt_arena_reset
#define arena_free gdlc_rt_arena_free
#define hash_cols gdlc_rt_hash_cols
#define eq_cols gdlc_rt_eq_cols
#define hash_all gdlc_rt_hash_all
#define eq_all gdlc_rt_eq_all
#define cols_of gdlc_rt_cols_of
#define mkn gdlc_rt_mkn
#define fs_clear gdlc_rt_fs_clear
#define fs_add gdlc_rt_fs_add
#define fs_dedup gdlc_rt_fs_dedup
#define ix_build gdlc_rt_ix_build
#define fs_first gdlc_rt_fs_first
#define tb_new gdlc_rt_tb_new
#define tb_add gdlc_rt_tb_add
#define tb_has gdlc_rt_tb_has
#define tb_call gdlc_rt_tb_call
#define tb_call_complete gdlc_rt_tb_call_complete
#define tb_eval gdlc_rt_tb_eval
#define tb_consume gdlc_rt_tb_consume
#define ev_reset gdlc_rt_ev_reset
#define x_hop gdlc_rt_x_hop
#include "../backend/engine.h"

/* fs_get for code compiled by libtcc (see engine.h). */
u32 gdlc_rt_fs_getn(Ev *ev, FactSet *s, u32 slot, const u32 *key, u32 n, u32 c0, u32 c1, u32 c2);
u32 gdlc_rt_fs_getn(Ev *ev, FactSet *s, u32 slot, const u32 *key, u32 n, u32 c0, u32 c1, u32 c2)
{
    return fs_get(ev, s, slot, key, n, c0, c1, c2);
}

uint32_t rt_ev_poll_left(const void *ev) { return ((const Ev *)ev)->poll; }

const RtJitSymbol rt_engine_symbols[] = {
    {"ev_fail", (const void *)gdlc_rt_ev_fail},
    {"ev_poll", (const void *)gdlc_rt_ev_poll},
    {"zero", (const void *)gdlc_rt_zero},
    {"copy32", (const void *)gdlc_rt_copy32},
    {"arena_alloc", (const void *)gdlc_rt_arena_alloc},
    {"arena_reset", (const void *)gdlc_rt_arena_reset},
    {"arena_free", (const void *)gdlc_rt_arena_free},
    {"hash_cols", (const void *)gdlc_rt_hash_cols},
    {"eq_cols", (const void *)gdlc_rt_eq_cols},
    {"hash_all", (const void *)gdlc_rt_hash_all},
    {"eq_all", (const void *)gdlc_rt_eq_all},
    {"cols_of", (const void *)gdlc_rt_cols_of},
    {"mkn", (const void *)gdlc_rt_mkn},
    {"fs_clear", (const void *)gdlc_rt_fs_clear},
    {"fs_add", (const void *)gdlc_rt_fs_add},
    {"fs_dedup", (const void *)gdlc_rt_fs_dedup},
    {"ix_build", (const void *)gdlc_rt_ix_build},
    {"fs_first", (const void *)gdlc_rt_fs_first},
    {"fs_getn", (const void *)gdlc_rt_fs_getn},
    {"tb_new", (const void *)gdlc_rt_tb_new},
    {"tb_add", (const void *)gdlc_rt_tb_add},
    {"tb_has", (const void *)gdlc_rt_tb_has},
    {"tb_call", (const void *)gdlc_rt_tb_call},
    {"tb_call_complete", (const void *)gdlc_rt_tb_call_complete},
    {"tb_eval", (const void *)gdlc_rt_tb_eval},
    {"tb_consume", (const void *)gdlc_rt_tb_consume},
    {"ev_reset", (const void *)gdlc_rt_ev_reset},
    {"x_hop", (const void *)gdlc_rt_x_hop},
};
const size_t rt_engine_nsymbols = sizeof rt_engine_symbols / sizeof rt_engine_symbols[0];
