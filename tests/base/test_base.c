/* test_base.c: symbols, line and column arithmetic, diagnostic order. */
#include "../lib/helpers.h"

static void symbols_intern_once(void **state)
{
    (void)state;
    Symtab t;
    symtab_init(&t);
    uint32_t a = symtab_intern(&t, "cell", 4);
    uint32_t b = symtab_intern(&t, "mark", 4);
    assert_int_not_equal(a, b);
    assert_int_equal(symtab_intern(&t, "cell", 4), a);
    assert_int_equal(symtab_find(&t, "mark", 4), b);
    assert_int_equal(symtab_find(&t, "none", 4), BASE_NONE);
    /* Growth keeps every id. */
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        assert_int_equal(symtab_intern(&t, buf, (size_t)n), (uint32_t)i + 2);
    }
    assert_string_equal(symtab_str(&t, 4002), "s4000");
    assert_int_equal(symtab_intern(&t, "cell", 4), a);
    symtab_free(&t);
}

static void line_and_column(void **state)
{
    (void)state;
    const char *text = "ab\ncd\r\nef\rg";
    Source *s = source_new("x", base_xstrdup(text), strlen(text));
    uint32_t line, col;
    source_linecol(s, 0, &line, &col);
    assert_true(line == 1 && col == 1);
    source_linecol(s, 4, &line, &col);
    assert_true(line == 2 && col == 2);
    source_linecol(s, 7, &line, &col); /* after \r\n */
    assert_true(line == 3 && col == 1);
    source_linecol(s, 10, &line, &col); /* after a lone \r */
    assert_true(line == 4 && col == 1);
    source_free(s);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void sort_u32_matches_qsort(void **state)
{
    (void)state;
    uint64_t x = 1;
    for (uint32_t n = 0; n < 300; n += 7) {
        uint32_t a[300], b[300];
        for (uint32_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1;
            a[i] = b[i] = (uint32_t)(x >> 40) % (n / 2 + 1); /* duplicates too */
        }
        base_sort_u32(a, n);
        qsort(b, n, sizeof *b, cmp_u32);
        for (uint32_t i = 0; i < n; i++)
            assert_int_equal(a[i], b[i]);
    }
}

static void diagnostics_sort_keeps_notes(void **state)
{
    (void)state;
    const char *text = "one\ntwo\nthree\n";
    Source *s = source_new("x", base_xstrdup(text), strlen(text));
    DiagList d;
    diag_init(&d, s);
    diag_error(&d, 8, "third");
    diag_note(&d, 0, "note of third");
    diag_warning(&d, 4, "second");
    diag_error(&d, 0, "first");
    diag_sort(&d);
    assert_string_equal(d.items.v[0].msg, "first");
    assert_string_equal(d.items.v[1].msg, "second");
    assert_string_equal(d.items.v[2].msg, "third");
    assert_string_equal(d.items.v[3].msg, "note of third");
    assert_int_equal(d.nerrors, 2);
    assert_int_equal(d.nwarnings, 1);
    diag_free(&d);
    source_free(s);
}

static void diagnostic_printing_shows_caret(void **state)
{
    (void)state;
    const char *text = "(role a)\n\t(bad x)\n";
    Source *s = source_new("g.kif", base_xstrdup(text), strlen(text));
    DiagList d;
    diag_init(&d, s);
    diag_error(&d, 11, "oops");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    diag_print(f, &d, true);
    fclose(f);
    assert_string_equal(buf, "g.kif:2:3: error: oops\n \t(bad x)\n \t ^\n");
    free(buf);
    diag_free(&d);
    source_free(s);
}

static void arena_is_zeroed_and_aligned(void **state)
{
    (void)state;
    Arena a = {0};
    for (int i = 1; i < 3000; i++) {
        unsigned char *p = arena_alloc(&a, (size_t)i);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (int k = 0; k < i; k++)
            assert_int_equal(p[k], 0);
        memset(p, 0xab, (size_t)i);
    }
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(symbols_intern_once),
        cmocka_unit_test(line_and_column),
        cmocka_unit_test(diagnostics_sort_keeps_notes),
        cmocka_unit_test(sort_u32_matches_qsort),
        cmocka_unit_test(diagnostic_printing_shows_caret),
        cmocka_unit_test(arena_is_zeroed_and_aligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
