/*
 * trace.h: replaying a recorded playthrough (docs/trace-format.md) on a
 * machine, and the canonical text of a state that traces and `gdlc verify`
 * compare.
 *
 * The reader checks a trace's structure form by form together with its
 * contents: (roles ...) once and first; per step (step N), one (state ...),
 * one (legal R ...) per role, then (does ...) before the next step; the last
 * step ends after its legal lines (a trace cut short) or with (terminal)
 * (goals ...). The first missing, misplaced or duplicate form is reported at
 * its location; the first divergence with both set differences.
 */
#ifndef GDLC_RUNTIME_TRACE_H
#define GDLC_RUNTIME_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../include/gdl.h"

typedef enum TraceVerdict {
    TRACE_AGREES = 0,  /* the machine agrees everywhere, or the cap stopped it first */
    TRACE_DIFFERS = 1, /* a divergence, a malformed trace or an engine failure */
} TraceVerdict;

/* Replays the trace `text` (len bytes, read from `name`) on m, a machine of
 * game g, from its initial state. cap > 0 sets the machine's deadline to cap
 * seconds from now (cleared on return); a query it cuts ends the replay as
 * agreeing so far, with *capped set. *steps_checked counts the states that
 * matched. What differs or is malformed is written to report, one finding,
 * as gdlc prints it: a diagnostic with the trace's line and caret, or
 * "NAME: step N: ..." lines. */
TraceVerdict trace_replay(GdlMachine *m, const GdlGame *g, const char *name, const char *text, size_t len,
                          double cap, FILE *report, uint64_t *steps_checked, bool *capped);

/* The canonical texts of a state's facts, sorted by their KIF text and
 * separated by single spaces, or "(empty state)" (malloc-ed). Linear in the
 * state after the sort, unlike gdl_state_fact called per fact. */
char *trace_state_text(GdlMachine *m, const GdlState *s);

#endif
