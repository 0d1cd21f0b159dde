/*
 * control.h: what evaluation polls and where it fails (control.c): the
 * deadline, the cancel flag and the error message of a machine, shared by
 * the API and every engine. It lies below both, so that an engine reports a
 * failure or reads the clock without calling into the API's files.
 */
#ifndef GDLC_CONTROL_H
#define GDLC_CONTROL_H

#include "../base/base.h"
#include "../include/gdl.h"

#include <stdbool.h>
#include <stdint.h>

/* What evaluation polls, and where an engine leaves its error message. */
typedef struct RtControl {
    double deadline;           /* CLOCK_MONOTONIC seconds, 0 for none */
    const volatile int *flag;  /* non-zero cancels */
    char *error;               /* malloc-ed message of the last failure */
    uint32_t poll;             /* counter so the clock is read rarely */
    GdlStatus create_status;   /* an engine that could not be made: why (0: a limit) */
    uint64_t stamp;            /* during a query of the API: its state's stamp, which names
                                * its facts (an engine may know them by it); else 0 */
    uint64_t made_stamp;       /* during the API's next: the stamp the state answered will
                                * have (an engine may keep it, to know the state when it is
                                * asked of next); else 0 */
} RtControl;

/* Whether the cancel flag is raised: read atomically (relaxed), since
 * another thread raises it while this one evaluates; on the machines we
 * build for, as cheap as the plain read. */
static inline bool rt_flag_up(const RtControl *ctl)
{
    return ctl->flag && __atomic_load_n(ctl->flag, __ATOMIC_RELAXED);
}

/* Sets ctl->error from a format and returns status. */
GdlStatus rt_fail(RtControl *ctl, GdlStatus status, const char *fmt, ...) BASE_PRINTF(3, 4);
/* Should evaluation stop? Cheap: reads the clock every 256 calls. */
bool rt_should_stop(RtControl *ctl);
/* The same, reading the clock now. */
bool rt_stop_now(const RtControl *ctl);
/* The same with the coarse clock: cheap enough for every poll, late by a
 * tick at most. */
bool rt_stop_coarse(const RtControl *ctl);

#endif
