/* test_jit.c: the libtcc wrapper: compile, import host symbols, report
 * errors with the kept source, several compiled units at once, threads. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../runtime/jit.h"

static int host_twice(int x) { return 2 * x; }

static const char *SRC = "int host_twice(int);\n"
                         "typedef unsigned long long u64;\n"
                         "static u64 table[4] = {1, 2, 3, 4};\n"
                         "u64 sum(int n) { u64 s = 0; for (int i = 0; i < n; i++) s += table[i]; return s; }\n"
                         "int quad(int x) { return host_twice(host_twice(x)); }\n";

static void compiles_and_calls_back(void **state)
{
    (void)state;
    char *err = NULL;
    RtJitSymbol imports[] = {{"host_twice", (const void *)host_twice}};
    RtJit *j = rt_jit_compile("t", SRC, imports, 1, NULL, &err);
    assert_non_null(j);
    unsigned long long (*sum)(int) = (unsigned long long (*)(int))rt_jit_symbol(j, "sum");
    int (*quad)(int) = (int (*)(int))rt_jit_symbol(j, "quad");
    assert_non_null(sum);
    assert_int_equal(sum(4), 10);
    assert_int_equal(quad(5), 20);
    assert_null(rt_jit_symbol(j, "table_missing"));
    /* a second unit alongside */
    RtJit *k = rt_jit_compile("u", "int sum(int n) { return -n; }", NULL, 0, NULL, &err);
    assert_non_null(k);
    assert_int_equal(((int (*)(int))rt_jit_symbol(k, "sum"))(3), -3);
    assert_int_equal(sum(2), 3);
    rt_jit_free(k);
    rt_jit_free(j);
}

static void errors_name_the_kept_source(void **state)
{
    (void)state;
    char *err = NULL;
    RtJit *j = rt_jit_compile("bad", "int f(void) { return undeclared_thing; }\n", NULL, 0, NULL, &err);
    assert_null(j);
    assert_non_null(strstr(err, "internal error: libtcc could not compile"));
    assert_non_null(strstr(err, "undeclared_thing"));
    char *path = strstr(err, "kept in ");
    assert_non_null(path);
    path += strlen("kept in ");
    char *end = strchr(path, ')');
    assert_non_null(end);
    *end = 0;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[128] = {0};
    assert_true(fread(buf, 1, sizeof buf - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(buf, "undeclared_thing"));
    remove(path);
    free(err);
    /* an unresolved import is an error too, not a crash */
    j = rt_jit_compile("unresolved", "int nowhere(int); int g(void) { return nowhere(1); }\n", NULL, 0, NULL, &err);
    assert_null(j);
    assert_non_null(strstr(err, "nowhere"));
    path = strstr(err, "kept in ") + strlen("kept in ");
    *strchr(path, ')') = 0;
    remove(path);
    free(err);
}

static void *compile_many(void *arg)
{
    long ok = 0;
    for (int i = 0; i < 20; i++) {
        char src[128], *err = NULL;
        snprintf(src, sizeof src, "int v(void) { return %d; }", i + (int)(long)arg);
        RtJit *j = rt_jit_compile("thr", src, NULL, 0, NULL, &err);
        if (j && ((int (*)(void))rt_jit_symbol(j, "v"))() == i + (int)(long)arg)
            ok++;
        rt_jit_free(j);
        free(err);
    }
    return (void *)ok;
}

static void threads_compile_safely(void **state)
{
    (void)state;
    pthread_t a, b;
    void *ra, *rb;
    assert_int_equal(pthread_create(&a, NULL, compile_many, (void *)100L), 0);
    assert_int_equal(pthread_create(&b, NULL, compile_many, (void *)200L), 0);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    assert_int_equal((long)ra, 20);
    assert_int_equal((long)rb, 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compiles_and_calls_back),
        cmocka_unit_test(errors_name_the_kept_source),
        cmocka_unit_test(threads_compile_safely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
