/*
 * control.c: the clock, the cancel flag and failures (see control.h).
 */
#include "control.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

double gdl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

GdlStatus rt_fail(RtControl *ctl, GdlStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = base_vsprintf(fmt, ap);
    va_end(ap);
    free(ctl->error);
    ctl->error = text;
    return status;
}

bool rt_stop_now(const RtControl *ctl)
{
    return rt_flag_up(ctl) || (ctl->deadline > 0 && gdl_now() >= ctl->deadline);
}

bool rt_stop_coarse(const RtControl *ctl)
{
    if (rt_flag_up(ctl))
        return true;
    if (ctl->deadline <= 0)
        return false;
    /* the coarse clock is read from memory (a few ns, where the fine one
     * costs tens); it runs behind by at most a tick (1 to 4 ms) */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 >= ctl->deadline;
}

bool rt_should_stop(RtControl *ctl)
{
    if (rt_flag_up(ctl))
        return true;
    return ctl->deadline > 0 && (++ctl->poll & 255) == 0 && rt_stop_now(ctl);
}
