/*
 * test_terms.c: the term store: hash-consing (with its cache of recent
 * terms) gives one id per content, and gt_sort is the byte order of the
 * canonical texts, also when they share long prefixes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../base/terms.h"

static uint32_t sym(Symtab *t, const char *s) { return symtab_intern(t, s, strlen(s)); }

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void one_id_per_content(void **state)
{
    (void)state;
    Symtab syms;
    symtab_init(&syms);
    GtStore s;
    gt_init(&s, &syms);
    uint32_t move = sym(&syms, "move");
    Gt nums[12];
    for (int i = 0; i < 12; i++) {
        char b[8];
        snprintf(b, sizeof b, "%d", i);
        nums[i] = gt_intern(&s, sym(&syms, b), 0, NULL);
    }
    /* every 4-tuple twice, interleaved with others so the cache is both
     * hit and missed */
    Gt first[12][12];
    for (int round = 0; round < 3; round++)
        for (int a = 0; a < 12; a++)
            for (int b = 0; b < 12; b++) {
                Gt args[4] = {nums[a], nums[b], nums[(a + b) % 12], nums[a]};
                Gt t = gt_intern(&s, move, 4, args);
                if (round == 0)
                    first[a][b] = t;
                else
                    assert_int_equal(t, first[a][b]);
                assert_int_equal(gt_find(&s, move, 4, args), t);
            }
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++)
            for (int c = 0; c < 12; c++)
                for (int d = 0; d < 12; d++)
                    if ((a != c || b != d) && first[a][b] == first[c][d])
                        fail_msg("two contents share an id");
    gt_free(&s);
    symtab_free(&syms);
}

static void sort_is_text_order(void **state)
{
    (void)state;
    Symtab syms;
    symtab_init(&syms);
    GtStore s;
    gt_init(&s, &syms);
    uint32_t move = sym(&syms, "move"), fire = sym(&syms, "fire"), noop = sym(&syms, "noop");
    Gt v[1200];
    uint32_t n = 0;
    uint64_t x = 7;
    for (int i = 0; i < 1000; i++) {
        Gt args[4];
        for (int k = 0; k < 4; k++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            char b[8];
            snprintf(b, sizeof b, "%d", (int)(x >> 33) % 11 + 1); /* 1..11: "1" < "10" < "11" < "2" */
            args[k] = gt_intern(&s, sym(&syms, b), 0, NULL);
        }
        v[n++] = gt_intern(&s, i % 3 ? move : fire, i % 3 ? 4 : 2, args);
    }
    v[n++] = gt_intern(&s, noop, 0, NULL);
    gt_sort(&s, v, n);
    const char *texts[1200];
    for (uint32_t i = 0; i < n; i++)
        texts[i] = gt_text(&s, v[i]);
    const char *want[1200];
    memcpy(want, texts, n * sizeof *want);
    qsort(want, n, sizeof *want, by_text);
    for (uint32_t i = 0; i < n; i++)
        assert_string_equal(texts[i], want[i]);
    gt_free(&s);
    symtab_free(&syms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_id_per_content),
        cmocka_unit_test(sort_is_text_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
