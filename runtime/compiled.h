/*
 * compiled.h: what the commands need of the compiled engines (compiled.c).
 */
#ifndef GDLC_COMPILED_H
#define GDLC_COMPILED_H

#include "../include/gdl.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* Compiles the game into a shared object at so_path with the system C
 * compiler; false with *err. progress (may be NULL) is told, once the C is
 * generated and before the compiler runs, its size in lines and bytes:
 * the compiler's part is the long one on large games. */
typedef void (*RtCompileProgress)(void *ud, size_t lines, size_t bytes);
bool rt_compile_so(const GdlGame *game, const char *so_path, RtCompileProgress progress, void *ud, char **err);
/* A network's propagation (backend/pncg.h's C), or the board's, compiled
 * by the system C compiler into the aot cache, sealed, checked and loaded
 * as engine aot's objects are: the dlopen handle (dlclose it), NULL with
 * *err. cancel (NULL: none) stops the compiler once set (a thread
 * compiling in the background: board.c's second tier). */
void *rt_cc_network(const GdlGame *game, const char *code, size_t len, const atomic_bool *cancel, char **err);
/* rt_cc_network in two: the object's path in the cache, compiled there if
 * need be, sealed and checked (malloc-ed; NULL with *err), and loading it
 * (the dlopen handle). */
char *rt_cc_object(const GdlGame *game, const char *code, size_t len, const atomic_bool *cancel, char **err);
void *rt_cc_load(const char *path, char **err);
/* The C compiler (GDLC_CC, else CC, else cc) and the flags it is given. */
const char *rt_cc(void);
extern const char *const rt_cc_flags;

#endif
