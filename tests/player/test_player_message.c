/* test_player_message.c: the GGP protocol's messages (player/message.c):
 *   - the bodies GGP-Base's GameServer sends, as observed (upper-case
 *     keywords, a space inside every parenthesis, NIL on the first turn,
 *     only the last joint move in role order), and the same in other case
 *     and spacing;
 *   - the texts handed on keep the manager's spelling (id, role, rules,
 *     moves), the rules being the text between their parentheses;
 *   - every malformed, unknown or truncated body is refused with a message
 *     that names the problem;
 *   - the first s-expression of a reply;
 *   - the spelling of the rules applied to canonical moves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../player/player.h"

static bool parse(const char *text, GgpMessage *m, char **err) { return ggp_message_parse(text, strlen(text), m, err); }

static void ok(const char *text, GgpMessage *m)
{
    char *err = NULL;
    bool r = parse(text, m, &err);
    if (!r)
        fail_msg("refused %s: %s", text, err);
    assert_null(err);
}

/* Refused, with a message containing needle. */
static void refused(const char *text, const char *needle)
{
    GgpMessage m;
    char *err = NULL;
    if (parse(text, &m, &err))
        fail_msg("accepted %s", text);
    assert_non_null(err);
    if (!strstr(err, needle))
        fail_msg("%s: message '%s' lacks '%s'", text, err, needle);
    /* nothing is left to free */
    assert_null(m.id);
    assert_null(m.rules);
    assert_null(m.moves);
    free(err);
}

static void test_ggp_base_bodies(void **state)
{
    GgpMessage m;
    ok("( INFO )", &m);
    assert_int_equal(m.kind, GGP_INFO);
    ggp_message_free(&m);

    ok("( START Base.ticTacToe.1 oplayer (( role xplayer ) ( role oplayer ) ( init ( cell 1 1 b ) ) ) 5 3)", &m);
    assert_int_equal(m.kind, GGP_START);
    assert_string_equal(m.id, "Base.ticTacToe.1");
    assert_string_equal(m.role, "oplayer");
    assert_string_equal(m.rules, "( role xplayer ) ( role oplayer ) ( init ( cell 1 1 b ) ) ");
    assert_int_equal(m.startclock, 5);
    assert_int_equal(m.playclock, 3);
    ggp_message_free(&m);

    ok("( PLAY Base.ticTacToe.1 NIL )", &m);
    assert_int_equal(m.kind, GGP_PLAY);
    assert_string_equal(m.id, "Base.ticTacToe.1");
    assert_int_equal(m.nmoves, 0);
    assert_null(m.moves);
    ggp_message_free(&m);

    ok("( PLAY Base.ticTacToe.1 (( mark 1 1 ) noop ) )", &m);
    assert_int_equal(m.nmoves, 2);
    assert_string_equal(m.moves[0], "( mark 1 1 )");
    assert_string_equal(m.moves[1], "noop");
    ggp_message_free(&m);

    ok("( STOP Base.ticTacToe.1 (noop ( mark 3 1 ) ) )", &m);
    assert_int_equal(m.kind, GGP_STOP);
    assert_int_equal(m.nmoves, 2);
    assert_string_equal(m.moves[0], "noop");
    assert_string_equal(m.moves[1], "( mark 3 1 )");
    ggp_message_free(&m);

    ok("( ABORT Base.ticTacToe.1 )", &m);
    assert_int_equal(m.kind, GGP_ABORT);
    assert_string_equal(m.id, "Base.ticTacToe.1");
    ggp_message_free(&m);

    ok("( PREVIEW (( role robot ) ) 30 )", &m);
    assert_int_equal(m.kind, GGP_PREVIEW);
    assert_string_equal(m.rules, "( role robot ) ");
    assert_int_equal(m.startclock, 30);
    ggp_message_free(&m);
}

static void test_case_and_spacing(void **state)
{
    GgpMessage m;
    ok("(play  m7\n\t(\n(MARK 2 2)NOOP))", &m);
    assert_int_equal(m.kind, GGP_PLAY);
    assert_string_equal(m.id, "m7");
    assert_int_equal(m.nmoves, 2);
    assert_string_equal(m.moves[0], "(MARK 2 2)");
    assert_string_equal(m.moves[1], "NOOP");
    ggp_message_free(&m);

    ok("  \r\n(Play m7 nil)\r\n", &m);
    assert_int_equal(m.nmoves, 0);
    ggp_message_free(&m);

    ok("(info)", &m);
    assert_int_equal(m.kind, GGP_INFO);
    ggp_message_free(&m);

    /* START: the rules keep their case, their comments and line breaks;
     * extra arguments (extensions) are ignored, as GGP-Base does */
    ok("(sTaRt M1 XPlayer ((ROLE XPlayer)\n; a comment (\n(init (Cell 1 1 b)))  10 2 extra)", &m);
    assert_string_equal(m.id, "M1");
    assert_string_equal(m.role, "XPlayer");
    assert_string_equal(m.rules, "(ROLE XPlayer)\n; a comment (\n(init (Cell 1 1 b))");
    assert_int_equal(m.startclock, 10);
    assert_int_equal(m.playclock, 2);
    ggp_message_free(&m);

    /* a comment after the message is no text */
    ok("(abort m) ; bye", &m);
    ggp_message_free(&m);

    /* the largest clock */
    ok("(start m r () 4294967295 0)", &m);
    assert_int_equal(m.startclock, 4294967295u);
    assert_int_equal(m.playclock, 0);
    assert_string_equal(m.rules, "");
    ggp_message_free(&m);
}

static void test_errors(void **state)
{
    refused("", "empty message");
    refused("   ; only a comment", "empty message");
    refused("INFO", "expected a list");
    refused("()", "expected a list");
    refused("((play) x)", "expected a list");
    refused("(hello m)", "unknown message 'hello'");
    refused("(Dance m)", "unknown message 'Dance'");
    refused("(info x)", "INFO: 1 argument");
    refused("(play m)", "PLAY: 1 argument, expected (PLAY id moves)");
    refused("(play m nil extra)", "PLAY: 3 arguments");
    refused("(stop)", "STOP: 0 arguments");
    refused("(abort)", "ABORT: 0 arguments");
    refused("(start m r ((role r)) 5)", "START: 4 arguments");
    refused("(preview ((role r)))", "PREVIEW: 1 argument");
    /* truncated: the reader reports the open parenthesis */
    refused("(play m ((mark 1 1) noop)", "malformed message: 1:1: unclosed '('");
    refused("( START m r ((role r) (init (p)) 5 3", "unclosed '('");
    refused("(play m nil))", "unmatched ')'");
    refused("(info) (info)", "text after the message: '(info)'");
    refused("(info) junk", "text after the message: 'junk'");
    refused("(play m #)", "malformed message");
    refused("(play m nope)", "the moves must be NIL or a list of moves, not 'nope'");
    refused("(play ?m nil)", "the match id must be a symbol, not '?m'");
    refused("(play (m) nil)", "the match id must be a symbol, not '(m)'");
    refused("(start m (r) ((role r)) 5 3)", "the role must be a symbol");
    refused("(start m r role 5 3)", "the rules must be a list of rules, not 'role'");
    refused("(start m r ((role r)) five 3)", "the start clock must be a whole number of seconds, not 'five'");
    refused("(start m r ((role r)) 5 -3)", "the play clock must be a whole number of seconds, not '-3'");
    refused("(start m r ((role r)) 5 4294967296)", "play clock must be a whole number");
    refused("(start m r ((role r)) 5 3.5)", "play clock");
    refused("(preview ((role r)) (5))", "the clock must be a whole number");
    /* a long offender is shortened */
    refused("(play m aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)", "aaaa...'");
    /* a NUL byte is no KIF character */
    GgpMessage m;
    char *err = NULL;
    assert_false(ggp_message_parse("(info)\0", 7, &m, &err));
    assert_non_null(err);
    free(err);
    /* an unterminated text of a given length: only len bytes are read */
    assert_true(ggp_message_parse("(info)garbage", 6, &m, &err));
    ggp_message_free(&m);
}

static void test_first_sexp(void **state)
{
    size_t off, end;
    const char *r = "  ( mark 1 1 ) trailing )) junk";
    assert_true(ggp_first_sexp(r, strlen(r), &off, &end));
    assert_int_equal(off, 2);
    assert_int_equal(end, 14);
    r = "\nnoop\n";
    assert_true(ggp_first_sexp(r, strlen(r), &off, &end));
    assert_int_equal(off, 1);
    assert_int_equal(end, 5);
    r = "(mark 1";
    assert_false(ggp_first_sexp(r, strlen(r), &off, &end));
    r = "  ";
    assert_false(ggp_first_sexp(r, strlen(r), &off, &end));
    r = "(mark # 1)";
    assert_false(ggp_first_sexp(r, strlen(r), &off, &end));
}

static void test_spelling(void **state)
{
    const char *rules = "(ROLE xPlayer) (role oplayer)\n; MARKS in comments do not count\n"
                        "(<= (LEGAL ?Player (MARK ?x ?y)) (true (control ?player)))\n"
                        "(<= (legal xPlayer NOOP) (true (control oplayer)))\n"
                        "(<= (legal oplayer (mark 1 1)) (true (Cell 1 1 b)))\n";
    GgpSpelling *sp = ggp_spelling_new(rules, strlen(rules));
    assert_non_null(sp);
    char *s = ggp_spelling_apply(sp, "(mark 1 1)");
    assert_string_equal(s, "(MARK 1 1)"); /* the first spelling wins */
    free(s);
    s = ggp_spelling_apply(sp, "noop");
    assert_string_equal(s, "NOOP");
    free(s);
    s = ggp_spelling_apply(sp, "( mark  (cell xplayer) unknownSym ?x)");
    assert_string_equal(s, "( MARK  (Cell xPlayer) unknownSym ?x)");
    free(s);
    s = ggp_spelling_apply(sp, "");
    assert_string_equal(s, "");
    free(s);
    ggp_spelling_free(sp);

    /* rules with errors still give the spelling of what was read */
    const char *bad = "(role ROBOT) (legal ROBOT (Go # ";
    sp = ggp_spelling_new(bad, strlen(bad));
    assert_non_null(sp);
    s = ggp_spelling_apply(sp, "(go robot)");
    assert_string_equal(s, "(Go ROBOT)");
    free(s);
    ggp_spelling_free(sp);

    /* one symbol, two spellings: the relation (mark ?m) and the move
     * (MARK ?r ?c) are told apart by their number of arguments */
    const char *two = "(mark x) (mark b) (<= (legal ?p (MARK ?r ?c)) (true (cell ?r ?c b))) (Mark)";
    sp = ggp_spelling_new(two, strlen(two));
    s = ggp_spelling_apply(sp, "(mark 1 1)");
    assert_string_equal(s, "(MARK 1 1)");
    free(s);
    s = ggp_spelling_apply(sp, "(mark x)");
    assert_string_equal(s, "(mark x)");
    free(s);
    s = ggp_spelling_apply(sp, "(mark)");
    assert_string_equal(s, "(Mark)");
    free(s);
    s = ggp_spelling_apply(sp, "(mark 1 2 3)"); /* no such use: the first spelling */
    assert_string_equal(s, "(mark 1 2 3)");
    free(s);
    s = ggp_spelling_apply(sp, "(mark 1 "); /* not KIF: unchanged */
    assert_string_equal(s, "(mark 1 ");
    free(s);
    ggp_spelling_free(sp);

    /* no spelling: the text unchanged */
    s = ggp_spelling_apply(NULL, "(mark 1 1)");
    assert_string_equal(s, "(mark 1 1)");
    free(s);
    ggp_spelling_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ggp_base_bodies), cmocka_unit_test(test_case_and_spacing),
        cmocka_unit_test(test_errors),          cmocka_unit_test(test_first_sexp),
        cmocka_unit_test(test_spelling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
