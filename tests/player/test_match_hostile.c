/*
 * test_match_hostile.c: gdlc match against hostile players, through match_run
 * with players of the test's own making.
 *
 *   - a player whose every move is huge (800 KB that do not parse, 800 KB
 *     that would, past the 64 KB read of a move, and 60 KB that parse to
 *     an illegal move): the match completes, each turn's error quotes at
 *     most a few hundred printable bytes of the move and says how long it
 *     was, and the record as JSON stays small.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../player/player.h"
#include "files.h"

#define GAMES GDLC_SOURCE_DIR "/games/"

enum { HUGE_MOVE = 800 * 1024 };

/* A player answering 800 KB moves: a term that parses (a mark on a cell
 * numbered by 800 KB of digits) when parses is set, else bytes that are
 * not KIF (control bytes and an unclosed parenthesis). */
typedef struct Hostile {
    MatchPlayer base;
    bool parses;
    size_t size; /* bytes of each move */
} Hostile;

static bool h_start(MatchPlayer *p, const char *id, uint64_t seed, const char *rules, const char *role, unsigned sc,
                    unsigned pc, char **err)
{
    (void)p, (void)id, (void)seed, (void)rules, (void)role, (void)sc, (void)pc, (void)err;
    return true;
}
static char *h_play(MatchPlayer *p, const char *id, const char *const *last, size_t n, double dl, char **err)
{
    (void)id, (void)last, (void)n, (void)dl, (void)err;
    size_t size = ((Hostile *)p)->size;
    char *m = malloc(size + 1); /* on the runner's thread: no cmocka assertion here */
    if (!m)
        return NULL;
    if (((Hostile *)p)->parses) {
        memset(m, '7', size);
        memcpy(m, "(mark 1 ", 8);
        memcpy(m + size - 2, " )", 2);
    } else {
        for (size_t i = 0; i < size; i++)
            m[i] = i % 3 == 0 ? '(' : (char)(1 + i % 30);
    }
    m[size] = 0;
    return m;
}
static void h_stop(MatchPlayer *p, const char *id, const char *const *last, size_t n)
{
    (void)p, (void)id, (void)last, (void)n;
}
static void h_abort(MatchPlayer *p, const char *id) { (void)p, (void)id; }
static void h_free(MatchPlayer *p) { (void)p; }
static const MatchPlayerOps hostile_ops = {h_start, h_play, h_stop, h_abort, h_free};

static void huge_moves_are_cut(void **state)
{
    (void)state;
    size_t len;
    char *rules = slurp(GAMES "tictactoe.kif", &len);
    GdlGame *g = NULL;
    assert_int_equal(gdl_game_load_string("tictactoe", rules, len, &g, NULL), GDL_OK);
    /* 800 KB of bytes that are not KIF; 800 KB that parse, past what is
     * read of a move; 60 KB that parse, an illegal move */
    static const struct {
        bool parses;
        size_t size;
        const char *says;
    } cases[] = {
        {false, HUGE_MOVE, "unreadable move: longer than 65536 bytes: (?"},
        {true, HUGE_MOVE, "unreadable move: longer than 65536 bytes: (mark 1 777"},
        {true, 60000, "illegal move: (mark 1 777"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char *err = NULL;
        MatchPlayer *a = match_player_new("random", 1, &err);
        assert_non_null(a);
        Hostile h = {{&hostile_ops, (char *)"hostile"}, cases[k].parses, cases[k].size};
        MatchPlayer *seats[2] = {a, &h.base};
        MatchOptions mo = {5, 5, 7, NULL};
        MatchRecord *rec = NULL;
        if (match_run(g, rules, len, seats, &mo, &rec, &err) != GDL_OK)
            fail_msg("%s", err);
        char *text = NULL;
        size_t tlen = 0;
        FILE *f = open_memstream(&text, &tlen);
        assert_non_null(f);
        assert_true(match_record_write(rec, f));
        fclose(f);
        /* nine moves at most, each error a few hundred bytes */
        if (tlen > 20000)
            fail_msg("the record is %zu bytes: the hostile moves were copied into it", tlen);
        json_error_t je;
        json_t *o = json_loads(text, 0, &je);
        if (!o)
            fail_msg("the record is not JSON: %s", je.text);
        json_t *errors = json_object_get(o, "errors");
        assert_true(json_array_size(errors) > 0);
        char whole[64];
        snprintf(whole, sizeof whole, "(%zu bytes)", cases[k].size);
        for (size_t t = 0; t < json_array_size(errors); t++) {
            const char *e = json_string_value(json_array_get(json_array_get(errors, t), 1));
            assert_non_null(e);
            if (strlen(e) > 400)
                fail_msg("turn %zu: an error of %zu bytes", t, strlen(e));
            if (!strstr(e, whole))
                fail_msg("turn %zu: the error does not say how long the move was: %s", t, e);
            if (!strstr(e, cases[k].says))
                fail_msg("turn %zu: no '%s' in %s", t, cases[k].says, e);
            for (const char *c = e; *c; c++)
                assert_true(*c >= 0x20 && *c < 0x7f);
        }
        json_decref(o);
        free(text);
        match_record_free(rec);
        a->ops->free(a);
    }
    gdl_game_free(g);
    free(rules);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(huge_moves_are_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
