/*
 * jit_none.c: jit.h for a libgdl built without libtcc (GDLC_LIBTCC=OFF,
 * the Python package's build: Debian's libtcc.a is not position-
 * independent, so it cannot be linked into a shared object). Every compile
 * fails with a message that says so; engines.c leaves the engines that
 * need one out of its list and refuses them by name.
 */
#include "jit.h"

#include "../base/base.h"

RtJit *rt_jit_compile(const char *name, const char *code, const RtJitSymbol *imports, size_t nimports,
                      const struct RtControl *ctl, char **err)
{
    (void)name, (void)code, (void)imports, (void)nimports, (void)ctl;
    *err = base_xstrdup("this libgdl was built without libtcc (Debian's libtcc.a is not position-independent): "
                        "the engines that compile in process are not in it; engines aot, pn:cc and board:cc "
                        "compile by the system compiler, pn and ref need none");
    return NULL;
}

void *rt_jit_symbol(RtJit *j, const char *name)
{
    (void)j, (void)name;
    return NULL;
}

void rt_jit_free(RtJit *j) { (void)j; }
