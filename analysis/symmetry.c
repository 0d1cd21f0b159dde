/* analysis/symmetry.c: placeholder, filled by its owner (issue 15). */
#include "analysis.h"
