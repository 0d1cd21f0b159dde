/* failing.h: an allocator for base_set_alloc that refuses the fail_at-th
 * allocation (1-based), for the tests that fail every allocation in turn. */
#ifndef GDLC_TEST_FAILING_H
#define GDLC_TEST_FAILING_H

#include <stdbool.h>
#include <stdlib.h>

typedef struct Failing {
    unsigned long count, fail_at;
    bool failed;
} Failing;

static inline void *failing_alloc(void *ud, void *p, size_t n)
{
    Failing *f = ud;
    if (++f->count == f->fail_at) {
        f->failed = true;
        return NULL;
    }
    return realloc(p, n);
}

#endif
