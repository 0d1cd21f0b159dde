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

typedef struct RtJit RtJit;

typedef struct RtJitSymbol {
    const char *name; /* as the generated code declares it */
    const void *addr;
} RtJitSymbol;

/* Compiles code; NULL with *err (malloc-ed) on failure. name appears in
 * libtcc's messages and the kept file's name. */
RtJit *rt_jit_compile(const char *name, const char *code, const RtJitSymbol *imports, size_t nimports, char **err);
/* The address of a global of the compiled code, or NULL. */
void *rt_jit_symbol(RtJit *j, const char *name);
void rt_jit_free(RtJit *j);

#endif
