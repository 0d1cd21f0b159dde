/*
 * rng.h: gdlc's documented generator (gdl_rng_*, gdl.h), inline for the
 * loops that draw a move per lane (batch.c); api.c's public calls are these.
 */
#ifndef GDLC_RUNTIME_RNG_H
#define GDLC_RUNTIME_RNG_H

#include "../include/gdl.h"

static inline uint64_t rt_rng_next(GdlRng *r)
{
    /* SplitMix64 (Steele, Lea and Flood, 2014). */
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rt_rng_below(GdlRng *r, uint64_t n)
{
    /* Reject the top values that would make `x % n` uneven: those from
     * limit = UINT64_MAX - UINT64_MAX % n up. limit is above UINT64_MAX - n,
     * so only a draw above that needs it computed, and a role with one
     * move (a noop) needs no division at all: the same draws, with one
     * division a call where there were two (a playout draws every role's
     * move every step). */
    for (;;) {
        uint64_t x = rt_rng_next(r);
        if (x <= UINT64_MAX - n || x < UINT64_MAX - UINT64_MAX % n)
            return n == 1 ? 0 : x % n;
    }
}

#endif
