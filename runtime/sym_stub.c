/* runtime/sym_stub.c: TEMPORARY identity-only symmetries so that the solver
 * links before analysis/symmetry.c lands (issue 15); helper sym deletes this
 * file and its CMakeLists.txt line. */
#include <stdlib.h>

#include "../include/gdl.h"

GdlStatus gdl_analysis_symmetry_count(GdlAnalysis *a, size_t *n)
{
    (void)a;
    *n = 1;
    return GDL_OK;
}

GdlStatus gdl_analysis_symmetry_state(GdlAnalysis *a, size_t k, const GdlState *s, GdlState **out)
{
    (void)a;
    if (k != 0)
        return GDL_BAD_ARGUMENT;
    *out = gdl_state_copy(s);
    return *out ? GDL_OK : GDL_OUT_OF_MEMORY;
}

GdlStatus gdl_analysis_symmetry_move(GdlAnalysis *a, size_t k, unsigned role, GdlMove move, GdlMove *out)
{
    (void)a, (void)role;
    if (k != 0)
        return GDL_BAD_ARGUMENT;
    *out = move;
    return GDL_OK;
}

GdlStatus gdl_analysis_symmetry(GdlAnalysis *a, size_t k, const GdlSymmetry **sym)
{
    static const GdlSymmetry none;
    (void)a;
    if (k != 0)
        return GDL_BAD_ARGUMENT;
    *sym = &none;
    return GDL_OK;
}
