/* version.c: the library's version string. */
#include "../include/gdl.h"

const char *gdl_version(void) { return GDL_VERSION; }
