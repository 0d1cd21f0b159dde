/* test_kif.c: the KIF reader on well-formed and hostile input. */
#include <stdio.h>

#include "../lib/helpers.h"

typedef struct Read {
    Source *src;
    Symtab syms;
    DiagList diags;
    KifDoc doc;
    bool ok;
} Read;

static void read_bytes(Read *r, const char *text, size_t len)
{
    memset(r, 0, sizeof *r);
    symtab_init(&r->syms);
    char *copy = base_xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = 0;
    r->src = source_new("t.kif", copy, len);
    diag_init(&r->diags, r->src);
    r->ok = kif_read(r->src, &r->syms, &r->diags, &r->doc);
}

static void read_text(Read *r, const char *text) { read_bytes(r, text, strlen(text)); }

static void read_free(Read *r)
{
    kif_doc_free(&r->doc);
    diag_free(&r->diags);
    symtab_free(&r->syms);
    source_free(r->src);
}

static char *print_node(Read *r, uint32_t node)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    kif_print(f, &r->doc, &r->syms, node);
    fclose(f);
    return buf;
}

static void reads_forms_and_folds_case(void **state)
{
    (void)state;
    Read r;
    read_text(&r, "; comment\n(Cell 1 ?X\tB)\r\n terminal (<= (P ?x) (Q ?X))");
    assert_true(r.ok);
    assert_int_equal(r.doc.tops.n, 3);
    char *s = print_node(&r, r.doc.tops.v[0]);
    assert_string_equal(s, "(cell 1 ?x b)");
    free(s);
    s = print_node(&r, r.doc.tops.v[2]);
    assert_string_equal(s, "(<= (p ?x) (q ?x))");
    free(s);
    const KifNode *n = &r.doc.nodes.v[r.doc.tops.v[1]];
    assert_int_equal(n->kind, KIF_SYM);
    assert_int_equal(n->off, 26);
    read_free(&r);
}

static void unclosed_paren_names_its_opening(void **state)
{
    (void)state;
    Read r;
    read_text(&r, "(role a)\n(init (cell 1\n");
    assert_false(r.ok);
    assert_int_equal(r.diags.nerrors, 1);
    assert_int_equal(r.diags.items.v[0].line, 2);
    assert_int_equal(r.diags.items.v[0].col, 1);
    assert_non_null(strstr(r.diags.items.v[0].msg, "unclosed '('"));
    /* the note points at the innermost open parenthesis */
    assert_int_equal(r.diags.items.v[1].sev, DIAG_NOTE);
    assert_int_equal(r.diags.items.v[1].col, 7);
    /* what was read still forms a tree */
    assert_int_equal(r.doc.tops.n, 2);
    read_free(&r);
}

static void deep_nesting_is_bounded(void **state)
{
    (void)state;
    size_t n = 200000;
    char *text = base_xmalloc(2 * n + 1);
    memset(text, '(', n);
    memset(text + n, ')', n);
    text[2 * n] = 0;
    Read r;
    read_text(&r, text);
    assert_false(r.ok);
    assert_int_equal(r.diags.nerrors, 1);
    char want[64];
    snprintf(want, sizeof want, "nested deeper than %d levels", KIF_MAX_DEPTH);
    assert_non_null(strstr(r.diags.items.v[0].msg, want));
    assert_int_equal(r.diags.items.v[0].col, KIF_MAX_DEPTH + 1);
    read_free(&r);
    free(text);
}

static void nesting_at_the_limit_is_fine(void **state)
{
    (void)state;
    size_t n = KIF_MAX_DEPTH;
    char *text = base_xmalloc(2 * n + 2);
    memset(text, '(', n);
    text[n] = 'a';
    memset(text + n + 1, ')', n);
    text[2 * n + 1] = 0;
    Read r;
    read_text(&r, text);
    assert_true(r.ok);
    read_free(&r);
    free(text);
}

static void binary_bytes_are_errors(void **state)
{
    (void)state;
    const char bytes[] = "(role a)\n\x00\xff\x01(x)\n\x80";
    Read r;
    read_bytes(&r, bytes, sizeof bytes - 1);
    assert_false(r.ok);
    /* one report per line */
    assert_int_equal(r.diags.nerrors, 2);
    assert_non_null(strstr(r.diags.items.v[0].msg, "unexpected byte 0x00"));
    assert_int_equal(r.diags.items.v[1].line, 3);
    read_free(&r);
}

static void stray_close_and_error_limit(void **state)
{
    (void)state;
    Read r;
    read_text(&r, "(a))");
    assert_false(r.ok);
    assert_non_null(strstr(r.diags.items.v[0].msg, "unmatched ')'"));
    read_free(&r);
    /* Many errors: the reader gives up after DIAG_MAX_ERRORS. */
    char *text = base_xmalloc(20001);
    for (int i = 0; i < 10000; i++)
        memcpy(text + 2 * i, ")\n", 2);
    text[20000] = 0;
    read_text(&r, text);
    assert_int_equal(r.diags.nerrors, DIAG_MAX_ERRORS + 1);
    assert_non_null(strstr(r.diags.items.v[DIAG_MAX_ERRORS].msg, "too many errors"));
    read_free(&r);
    free(text);
}

static void empty_and_comment_only(void **state)
{
    (void)state;
    Read r;
    read_text(&r, "");
    assert_true(r.ok);
    assert_int_equal(r.doc.tops.n, 0);
    read_free(&r);
    read_text(&r, ";; only a comment, no newline");
    assert_true(r.ok);
    assert_int_equal(r.doc.tops.n, 0);
    read_free(&r);
}

static void prolog_line_gets_a_hint(void **state)
{
    (void)state;
    Read r;
    read_text(&r, "goal(you,100):-true_step(5).\n");
    assert_false(r.ok);
    assert_int_equal(r.diags.nerrors, 1);
    assert_int_equal(r.diags.items.v[1].sev, DIAG_NOTE);
    assert_non_null(strstr(r.diags.items.v[1].msg, "looks like Prolog"));
    read_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_forms_and_folds_case),
        cmocka_unit_test(unclosed_paren_names_its_opening),
        cmocka_unit_test(deep_nesting_is_bounded),
        cmocka_unit_test(nesting_at_the_limit_is_fine),
        cmocka_unit_test(binary_bytes_are_errors),
        cmocka_unit_test(stray_close_and_error_limit),
        cmocka_unit_test(empty_and_comment_only),
        cmocka_unit_test(prolog_line_gets_a_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
