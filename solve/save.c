/* solve/save.c: the graph on disk (--save, --resume). */
#include "internal.h"

GdlStatus sv_save(SvGraph *g, const char *path, char **err)
{
    (void)g;
    *err = base_sprintf("%s: --save is not built yet", path);
    return GDL_BAD_ARGUMENT;
}

GdlStatus sv_load(SvGraph *g, const char *path, char **err)
{
    (void)g;
    *err = base_sprintf("%s: --resume is not built yet", path);
    return GDL_BAD_ARGUMENT;
}
