/*
 * engine_host.h: the runtime functions a JIT-compiled engine imports
 * (engine_host.c).
 */
#ifndef GDLC_ENGINE_HOST_H
#define GDLC_ENGINE_HOST_H

#include "jit.h"

extern const RtJitSymbol rt_engine_symbols[];
extern const size_t rt_engine_nsymbols;

#endif
