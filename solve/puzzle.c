/* solve/puzzle.c: placeholder, filled by its owner (issue 15). */
#include "solve.h"

GdlStatus solve_puzzle(const GdlGame *g, GdlMachine *m, GdlAnalysis *an, const GdlState *start,
                       const SolveOptions *o, FILE *proof, SolveResult *r, char **err)
{
    (void)g, (void)m, (void)an, (void)start, (void)o, (void)proof, (void)r, (void)err;
    return GDL_BAD_ARGUMENT;
}
