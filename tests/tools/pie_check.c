/*
 * pie_check.c: the pie variant of a game against the game itself, over the
 * public API (gdl.h); a test tool of `gdlc pie` (issue 16).
 *
 *   pie_check GAME.kif PIE.kif SEED ENGINE[@STEPS]...
 *
 * Plays the two games side by side on each engine: where the second player
 * swaps on the offer turn, and on the first engine listed also where it
 * plays on (a random move). ENGINE@STEPS stops that engine's playthroughs
 * after STEPS steps (a slow engine on a long game), every step checked. A seat per player maps it to a side of the original game (the
 * identity, exchanged by the swap). At every step it checks:
 *   - the pie state is the original state plus the pie's markers, exactly:
 *     its first marker at step 0, its offer marker at step 1, its swap latch
 *     from the step after a swap on (the markers are found, not assumed: the
 *     facts of the pie's initial state that the game's lacks);
 *   - terminality agrees; each player's legal moves are its side's, and on
 *     the offer turn the second player's are its side's plus one move, the
 *     swap, which no side has;
 *   - at the end, each player's goal is its side's.
 * The swap turn leaves the original game where it was, so the state after
 * it is the state before it and the first player, seated at the second
 * side, moves next: what the pie rule means. Moves are drawn from the
 * original game's legal moves sorted canonically with gdl_rng_below.
 *
 * An engine that cannot load the game (pn past its grounding budget) is
 * reported as skipped. Exit status: 0 when every check held, 1 when one
 * failed (the first named), 2 on a usage error or an unreadable game.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/gdl.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The facts of s, sorted, as copies; *n set. */
static char **facts(GdlMachine *m, const GdlState *s, size_t *n)
{
    *n = gdl_state_size(s);
    char **v = calloc(*n + 1, sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = strdup(gdl_state_fact(m, s, i));
    qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

static char **moves(GdlMachine *m, const GdlState *s, unsigned r, size_t *n, GdlStatus *st)
{
    const GdlMove *mv;
    *st = gdl_state_legal(m, s, r, &mv, n);
    if (*st != GDL_OK)
        return NULL;
    char **v = calloc(*n + 1, sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = strdup(gdl_move_text(m, mv[i]));
    qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

static void strs_free(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

static bool in(char **v, size_t n, const char *x)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], x) == 0)
            return true;
    return false;
}

typedef struct Run {
    const char *engine;
    int max_steps;
    unsigned long long seed;
    bool swap;
    int step;
    char why[1024];
} Run;

#define FAIL(...) (snprintf(r->why, sizeof r->why, __VA_ARGS__), false)

/* The markers: the pie's initial facts the game's lacks (one: P_first);
 * the prefix is what precedes "first". */
static bool markers(Run *r, char **f1, size_t n1, char **f0, size_t n0, char *mk[3])
{
    const char *first = NULL;
    for (size_t i = 0; i < n1; i++)
        if (!in(f0, n0, f1[i])) {
            if (first)
                return FAIL("the initial states differ by more than one fact: %s and %s", first, f1[i]);
            first = f1[i];
        }
    size_t len = first ? strlen(first) : 0;
    if (!first || len < 5 || strcmp(first + len - 5, "first") != 0)
        return FAIL("the pie's initial state has no marker P_first");
    for (int k = 0; k < 3; k++) {
        static const char *const what[] = {"first", "offer", "swapped"};
        mk[k] = malloc(len + 8);
        snprintf(mk[k], len + 8, "%.*s%s", (int)(len - 5), first, what[k]);
    }
    return true;
}

static bool play(Run *r, const GdlGame *g0, const GdlGame *g1, bool *skipped)
{
    GdlMachine *m0 = NULL, *m1 = NULL;
    GdlStatus st = gdl_machine_new(g0, r->engine, &m0);
    const GdlGame *failed = g0;
    if (st == GDL_OK)
        st = gdl_machine_new(failed = g1, r->engine, &m1);
    if (st == GDL_LIMIT) {
        *skipped = true;
        gdl_machine_free(m0);
        return true;
    }
    if (st != GDL_OK) {
        bool ok_ = FAIL("engine %s: %s", r->engine, gdl_game_error(failed));
        gdl_machine_free(m0);
        return ok_;
    }
    GdlState *s = NULL, *p = NULL;
    char *mk[3] = {NULL, NULL, NULL};
    bool ok = gdl_state_initial(m0, &s) == GDL_OK && gdl_state_initial(m1, &p) == GDL_OK;
    if (!ok)
        snprintf(r->why, sizeof r->why, "initial state: %s %s", gdl_machine_error(m0), gdl_machine_error(m1));
    GdlRng rng;
    gdl_rng_seed(&rng, r->seed);
    unsigned seat[2] = {0, 1};
    bool swapped = false;
    for (r->step = 0; ok && r->step < r->max_steps; r->step++) {
        size_t n0, n1;
        char **f0 = facts(m0, s, &n0), **f1 = facts(m1, p, &n1);
        if (r->step == 0)
            ok = markers(r, f1, n1, f0, n0, mk);
        /* the pie's facts are the game's plus the markers expected now */
        const char *want[2] = {NULL, NULL};
        if (r->step == 0)
            want[0] = mk[0];
        else if (r->step == 1)
            want[0] = mk[1];
        if (swapped)
            want[want[0] ? 1 : 0] = mk[2];
        size_t nwant = (want[0] != NULL) + (want[1] != NULL);
        for (size_t i = 0; ok && i < n1; i++) {
            bool marker = (want[0] && !strcmp(f1[i], want[0])) || (want[1] && !strcmp(f1[i], want[1]));
            if (!marker && !in(f0, n0, f1[i]))
                ok = FAIL("the pie state has %s, the game's has not", f1[i]);
        }
        for (size_t i = 0; ok && i < n0; i++)
            if (!in(f1, n1, f0[i]))
                ok = FAIL("the game's state has %s, the pie state has not", f0[i]);
        if (ok && n1 != n0 + nwant)
            ok = FAIL("the pie state has %zu facts, the game's %zu and %zu markers expected", n1, n0, nwant);
        strs_free(f0, n0);
        strs_free(f1, n1);
        bool t0 = false, t1 = false;
        if (ok && (gdl_state_is_terminal(m0, s, &t0) != GDL_OK || gdl_state_is_terminal(m1, p, &t1) != GDL_OK))
            ok = FAIL("terminal: %s %s", gdl_machine_error(m0), gdl_machine_error(m1));
        if (ok && t0 != t1)
            ok = FAIL("terminal: the game says %d, the pie %d", t0, t1);
        if (!ok)
            break;
        if (t0) {
            int v0[2], v1[2];
            if (gdl_state_goals(m0, s, v0) != GDL_OK || gdl_state_goals(m1, p, v1) != GDL_OK)
                ok = FAIL("goals: %s %s", gdl_machine_error(m0), gdl_machine_error(m1));
            for (unsigned k = 0; ok && k < 2; k++)
                if (v1[k] != v0[seat[k]])
                    ok = FAIL("player %u scores %d, its side %u %d", k, v1[k], seat[k], v0[seat[k]]);
            break;
        }
        /* legal moves: a player's are its side's (plus the swap) */
        char *swapmove = NULL;
        for (unsigned k = 0; ok && k < 2; k++) {
            size_t a, b;
            GdlStatus e0, e1;
            char **l0 = moves(m0, s, seat[k], &a, &e0), **l1 = moves(m1, p, k, &b, &e1);
            if (e0 != GDL_OK || e1 != GDL_OK)
                ok = FAIL("legal: %s %s", gdl_machine_error(m0), gdl_machine_error(m1));
            bool offer = r->step == 1 && k == 1;
            for (size_t i = 0; ok && i < b; i++)
                if (!in(l0, a, l1[i])) {
                    if (offer && !swapmove)
                        swapmove = strdup(l1[i]);
                    else
                        ok = FAIL("player %u may play %s, its side may not", k, l1[i]);
                }
            for (size_t i = 0; ok && i < a; i++)
                if (!in(l1, b, l0[i]))
                    ok = FAIL("player %u may not play %s, its side may", k, l0[i]);
            if (ok && offer && !swapmove)
                ok = FAIL("no swap move on the offer turn");
            strs_free(l0, a);
            strs_free(l1, b);
        }
        if (!ok) {
            free(swapmove);
            break;
        }
        GdlMove j0[2], j1[2];
        if (swapmove && r->swap) {
            /* the first player's only move, and the swap; the game waits */
            const GdlMove *mv;
            size_t n;
            if (gdl_state_legal(m1, p, 0, &mv, &n) != GDL_OK || n != 1)
                ok = FAIL("the first player has %zu moves on the offer turn", n);
            else {
                j1[0] = mv[0];
                if (gdl_move_parse(m1, swapmove, &j1[1]) != GDL_OK)
                    ok = FAIL("swap: %s", gdl_machine_error(m1));
            }
            if (ok && gdl_state_next_into(m1, p, j1, &p) != GDL_OK)
                ok = FAIL("next after the swap: %s", gdl_machine_error(m1));
            seat[0] = 1;
            seat[1] = 0;
            swapped = true;
            free(swapmove);
            continue;
        }
        free(swapmove);
        if (gdl_state_random_joint_move(m0, s, &rng, j0) != GDL_OK) {
            ok = FAIL("random move: %s", gdl_machine_error(m0));
            break;
        }
        for (unsigned k = 0; ok && k < 2; k++)
            if (gdl_move_parse(m1, gdl_move_text(m0, j0[seat[k]]), &j1[k]) != GDL_OK)
                ok = FAIL("move %s: %s", gdl_move_text(m0, j0[seat[k]]), gdl_machine_error(m1));
        if (ok && (gdl_state_next_into(m0, s, j0, &s) != GDL_OK || gdl_state_next_into(m1, p, j1, &p) != GDL_OK))
            ok = FAIL("next: %s %s", gdl_machine_error(m0), gdl_machine_error(m1));
    }
    if (ok && swapped != r->swap && r->step > 1 && r->step < r->max_steps)
        ok = FAIL("the swap was %s", r->swap ? "not played" : "played");
    for (int k = 0; k < 3; k++)
        free(mk[k]);
    gdl_state_free(s);
    gdl_state_free(p);
    gdl_machine_free(m0);
    gdl_machine_free(m1);
    return ok;
}

static GdlGame *load(const char *path)
{
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_file(path, &g, &d);
    if (st != GDL_OK) {
        fprintf(stderr, "pie_check: %s: %s\n", path, gdl_status_name(st));
        gdl_diagnostics_print(stderr, d, false);
    }
    gdl_diagnostics_free(d);
    return g;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: pie_check GAME.kif PIE.kif SEED ENGINE[@STEPS]...\n");
        return 2;
    }
    GdlGame *g0 = load(argv[1]), *g1 = load(argv[2]);
    if (!g0 || !g1) {
        gdl_game_free(g0);
        gdl_game_free(g1);
        return 2;
    }
    unsigned long long seed = strtoull(argv[3], NULL, 10);
    int rc = 0;
    for (int i = 4; i < argc && rc == 0; i++) {
        char engine[256];
        snprintf(engine, sizeof engine, "%s", argv[i]);
        char *at = strchr(engine, '@');
        int max_steps = 5000;
        if (at) {
            *at = 0;
            max_steps = atoi(at + 1);
        }
        for (int sw = 1; sw >= (i == 4 ? 0 : 1) && rc == 0; sw--) {
            Run r = {.engine = engine, .max_steps = max_steps, .seed = seed, .swap = sw};
            bool skipped = false;
            if (!play(&r, g0, g1, &skipped)) {
                printf("%s: engine %s, seed %llu, %s: step %d: %s\n", argv[2], r.engine, r.seed,
                       sw ? "swapping" : "playing on", r.step, r.why);
                rc = 1;
            } else if (skipped) {
                printf("%s: engine %s: skipped (over the grounding budget)\n", argv[2], r.engine);
                break;
            } else {
                printf("%s: engine %s, %s: %d steps agree\n", argv[2], r.engine, sw ? "swapping" : "playing on",
                       r.step);
            }
        }
    }
    gdl_game_free(g0);
    gdl_game_free(g1);
    return rc;
}
