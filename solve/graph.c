/* solve/graph.c: placeholder, filled by its owner (issue 15). */
#include "solve.h"
