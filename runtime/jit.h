/*
 * jit.h: compiling C in memory with libtcc.
 *
 * The compiled engine generates self-contained C (no #include: it declares
 * what it uses, and calls back into the runtime only through the symbols it
 * is given), so a compile needs nothing from the system but libtcc1.a.
 * libtcc keeps global state while it compiles; compiles are serialised here
 * by one mutex, so machines may be made from several threads.
 *
 * Any error libtcc reports is a gdlc bug (the code is ours), so the failing
 * source is kept in a file whose path the message names.
 */
#ifndef GDLC_JIT_H
#define GDLC_JIT_H

#include <stddef.h>

struct RtControl; /* control.h */

typedef struct RtJit RtJit;

typedef struct RtJitSymbol {
    const char *name; /* as the generated code declares it */
    const void *addr;
} RtJitSymbol;

/* Compiles code; NULL with *err (malloc-ed) on failure. name appears in
 * libtcc's messages and the kept file's name. ctl (NULL: none): its
 * deadline and cancel flag are polled while the compile waits for another
 * thread's (a machine being made whose match is gone waits no longer):
 * NULL, with *err "cancelled", when they stop it before it begins. */
RtJit *rt_jit_compile(const char *name, const char *code, const RtJitSymbol *imports, size_t nimports,
                      const struct RtControl *ctl, char **err);
/* The address of a global of the compiled code, or NULL. */
void *rt_jit_symbol(RtJit *j, const char *name);
void rt_jit_free(RtJit *j);

#endif
