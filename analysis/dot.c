/* dot.c: placeholder, filled by its owner. */
#include "internal.h"
