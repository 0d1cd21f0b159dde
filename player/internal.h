/*
 * internal.h: what the player stage's files share and nobody else needs.
 */
#ifndef GDLC_PLAYER_INTERNAL_H
#define GDLC_PLAYER_INTERNAL_H

#include "../base/base.h"

/* A malloc'd string made by a format; NULL when memory runs out (the stage
 * never aborts on it: a session or a request fails instead). */
char *player_fmt(const char *fmt, ...) BASE_PRINTF(1, 2);

#endif
