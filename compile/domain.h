/*
 * domain.h: the domain analysis (domain.c): the facts a state may hold and
 * the moves a role may make, for games without `base` and `input` rules.
 */
#ifndef GDLC_DOMAIN_H
#define GDLC_DOMAIN_H

#include "../base/terms.h"
#include "../frontend/ir.h"
#include "../include/gdl.h"

/* Whether a long pass should stop (a deadline passed, a cancel flag
 * raised), asked between steps with the caller's ctx. */
typedef bool (*CpStopFn)(void *ctx);

/* Appends to out the terms a state of ir's game may hold (role BASE_NONE)
 * or the moves role may make, made in store: a sound over-approximation,
 * possibly with repeats. GDL_LIMIT past max terms held in all (0: a bound
 * of its own), GDL_CANCELLED once stop says so; then *err (malloc-ed, any
 * earlier one freed) says why. */
GdlStatus cp_domain(const Ir *ir, GtStore *store, uint64_t max, uint32_t role, CpStopFn stop, void *stop_ctx,
                    U32Vec *out, char **err);

#endif
