/*
 * jit.c: the libtcc wrapper. See jit.h.
 *
 * Debian bookworm's libtcc (0.9.27+git20200814) relocates with
 * tcc_relocate(s, TCC_RELOCATE_AUTO); later versions take one argument.
 * CMake checks which this one is (GDLC_TCC_RELOCATE_ONE_ARG). The options
 * and the library path are set before tcc_set_output_type, which fixes
 * them.
 */
#include "jit.h"

#include <ctype.h>
#include <errno.h>
#include <time.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libtcc.h>

#include "../base/base.h"
#include "control.h"

#ifndef GDLC_TCC_LIB_PATH
#define GDLC_TCC_LIB_PATH "/usr/lib/x86_64-linux-gnu/tcc"
#endif

struct RtJit {
    TCCState *s;
};

static pthread_mutex_t tcc_lock = PTHREAD_MUTEX_INITIALIZER; /* libtcc is not reentrant */

/* libtcc's messages, gathered by its error callback. The callback runs
 * under tcc_lock, where nothing may jump out on running out of memory (the
 * lock would stay taken): it allocates with base_try_realloc and drops what
 * does not fit. */
typedef struct Errors {
    char *text;
    size_t len;
    bool lost;  /* a message was dropped for want of memory */
} Errors;

static void on_error(void *opaque, const char *msg)
{
    Errors *e = opaque;
    size_t n = strlen(msg);
    char *t = base_try_realloc(e->text, e->len + n + 2);
    if (!t) {
        e->lost = true;
        return;
    }
    e->text = t;
    memcpy(e->text + e->len, msg, n);
    e->len += n;
    e->text[e->len++] = '\n';
    e->text[e->len] = 0;
}

/* Keeps the failing source for the bug report; returns its path or NULL. */
static char *keep_source(const char *name, const char *code)
{
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    /* the game's name is outside text: only its plain characters go into the file name */
    char plain[65];
    size_t n = 0;
    for (const char *p = base; *p && n < sizeof plain - 1; p++)
        plain[n++] = (isalnum((unsigned char)*p) || *p == '.' || *p == '_' || *p == '-') && (unsigned char)*p < 128 ? *p : '_';
    plain[n] = 0;
    char *path = base_sprintf("%s/gdlc-%s-XXXXXX.c", base_tmpdir(), plain);
    int fd = mkstemps(path, 2);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    if (f) {
        fputs(code, f);
        fclose(f);
    }
    return path;
}

/* Takes tcc_lock, polling ctl's deadline and cancel flag every 5 ms while
 * another thread compiles; false, without the lock, when they stop it. */
static bool lock_unless_stopped(const RtControl *ctl)
{
    if (!ctl) {
        pthread_mutex_lock(&tcc_lock);
        return true;
    }
    for (;;) {
        if (rt_stop_now(ctl))
            return false;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 5000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        int r = pthread_mutex_timedlock(&tcc_lock, &ts);
        if (r == 0)
            return true;
        if (r != ETIMEDOUT) {
            pthread_mutex_lock(&tcc_lock);
            return true;
        }
    }
}

RtJit *rt_jit_compile(const char *name, const char *code, const RtJitSymbol *imports, size_t nimports,
                      const RtControl *ctl, char **err)
{
    Errors e = {0};
    /* Allocated before the lock: between lock and unlock nothing may call
     * base_x* (an out-of-memory jump would leave the lock taken). */
    RtJit *j = base_xcalloc(1, sizeof *j);
    if (!lock_unless_stopped(ctl)) {
        free(j);
        *err = base_xstrdup("cancelled");
        return NULL;
    }
    TCCState *s = tcc_new();
    bool created = s != NULL, ok = created;
    if (ok) {
        tcc_set_error_func(s, &e, on_error);
        tcc_set_lib_path(s, GDLC_TCC_LIB_PATH);
        tcc_set_options(s, "-nostdinc -nostdlib");
        tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
        ok = tcc_compile_string(s, code) == 0;
        for (size_t i = 0; ok && i < nimports; i++)
            ok = tcc_add_symbol(s, imports[i].name, imports[i].addr) == 0;
#ifdef GDLC_TCC_RELOCATE_ONE_ARG
        ok = ok && tcc_relocate(s) >= 0;
#else
        ok = ok && tcc_relocate(s, TCC_RELOCATE_AUTO) >= 0;
#endif
        if (ok)
            j->s = s;
        else
            tcc_delete(s);
    }
    pthread_mutex_unlock(&tcc_lock);
    if (!ok) {
        free(j);
        j = NULL;
        if (!created) {
            *err = base_xstrdup("libtcc: cannot create a compiler state");
        } else {
            char *kept = keep_source(name, code);
            *err = base_sprintf("internal error: libtcc could not compile the generated code (a gdlc bug; the code "
                                "is kept in %s):\n%s%s",
                                kept ? kept : "(could not be written)", e.text ? e.text : "(no message)\n",
                                e.lost ? "(messages lost: out of memory)\n" : "");
            free(kept);
        }
    }
    free(e.text);
    return j;
}

void *rt_jit_symbol(RtJit *j, const char *name) { return tcc_get_symbol(j->s, name); }

void rt_jit_free(RtJit *j)
{
    if (!j)
        return;
    pthread_mutex_lock(&tcc_lock);
    tcc_delete(j->s);
    pthread_mutex_unlock(&tcc_lock);
    free(j);
}
