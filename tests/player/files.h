/* files.h: reading a whole file inside a test. */
#ifndef GDLC_TEST_FILES_H
#define GDLC_TEST_FILES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

/* The bytes of the file at path, NUL-terminated (malloc-ed), their count
 * in *len; the test fails when the file cannot be read whole. */
static inline char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return s;
}

#endif
