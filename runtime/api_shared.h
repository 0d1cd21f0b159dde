/*
 * api_shared.h: what the API's own files share beyond runtime.h (api.c's
 * queries, for api_machine.c and api_bytes.c), and the guard of every
 * public call.
 */
#ifndef GDLC_API_SHARED_H
#define GDLC_API_SHARED_H

#include "runtime.h"

#define GUARDED RT_GUARDED
#define GUARDED_AS RT_GUARDED_AS

/* The legal moves of role k in s, sorted canonically, in m->scratch; a
 * non-terminal state without one is a game fault. When remember, they are
 * remembered for checking joint moves. */
GdlStatus rt_legal_moves(GdlMachine *m, const GdlState *s, uint32_t k, bool remember);
/* The next state of s after m->joint (checked), into *out. */
GdlStatus rt_next_into(GdlMachine *m, const GdlState *s, GdlState **out);
/* The goal values of every role, or of role `only` (others untouched) when
 * it is not BASE_NONE, with the GDL checks. */
GdlStatus rt_goals_of(GdlMachine *m, const GdlState *s, int *values, uint32_t only);
/* The facts of s in canonical order, in m->sorted. */
void rt_state_sort(GdlMachine *m, const GdlState *s);

#endif
