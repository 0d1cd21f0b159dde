/*
 * internal.h: what the player stage's files share and nobody else needs.
 */
#ifndef GDLC_PLAYER_INTERNAL_H
#define GDLC_PLAYER_INTERNAL_H

#include "../base/base.h"

/* A malloc'd string made by a format; NULL when memory runs out (the stage
 * never aborts on it: a session or a request fails instead). */
char *player_fmt(const char *fmt, ...) BASE_PRINTF(1, 2);

/* Cancel flags (gdl_machine_set_cancel_flag's kind), set by one thread and
 * polled by others: atomic accesses, so that ThreadSanitizer sees no race
 * where the player itself reads or writes one. */
static inline void player_flag_raise(volatile int *f) { __atomic_store_n(f, 1, __ATOMIC_RELAXED); }
static inline bool player_flag_up(const volatile int *f) { return f && __atomic_load_n(f, __ATOMIC_RELAXED); }

#endif
