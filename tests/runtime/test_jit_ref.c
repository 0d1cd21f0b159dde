/*
 * test_jit_ref.c: the compiled engine against the reference interpreter on
 * random games (tests/gen): at every state of seeded random playthroughs,
 * the same terminality, goals, legal moves (as texts, in canonical order)
 * and next states (by content hash and size). GDLC_GEN_SEEDS sets how many
 * games (default 300), GDLC_GEN_FIRST the first seed (default 1),
 * GDLC_ENGINE the engine (default jit). An engine may refuse a game past a
 * budget of its own (pn's grounding: GDL_LIMIT): each refusal is printed
 * with its seed and counted, and more than GDLC_MAX_REFUSED of them
 * (default 0) fail the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../include/gdl.h"
#include "../lib/api_errors.h"
#include "../gen/gen.h"

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 10) : dflt;
}

static void check_ok(GdlStatus a, GdlStatus b, GdlMachine *ma, GdlMachine *mb, uint64_t seed, const char *what)
{
    if (a != b || a != GDL_OK)
        fail_msg("seed %llu: %s: %s says %s (%s), ref says %s (%s) (tests/gen: gengdl %llu)", (unsigned long long)seed,
                 what, gdl_machine_engine(ma), gdl_status_name(a), gdl_machine_error(ma), gdl_status_name(b),
                 gdl_machine_error(mb), (unsigned long long)seed);
}

static uint64_t states;

/* The steps of a playthrough, kept to be asked again out of order. */
typedef struct Step {
    GdlState *se, *sr;
    GdlMove je[8], jr[8];
} Step;

/* Asks the next state of every step again, last first, and nothing else
 * before it (no terminal, no legal moves: an engine that keeps what it
 * was asked last must not mistake the inputs it holds for the move it is
 * given, nor a state it has an image of for the moves played in it). */
static void next_again(GdlMachine *e, GdlMachine *r, Step *steps, int n, uint64_t seed)
{
    for (int i = n - 1; i >= 0; i--) {
        GdlState *ne = NULL, *nr = NULL;
        check_ok(gdl_state_next(e, steps[i].se, steps[i].je, &ne), gdl_state_next(r, steps[i].sr, steps[i].jr, &nr),
                 e, r, seed, "next state asked again");
        if (gdl_state_hash(ne) != gdl_state_hash(nr) || gdl_state_size(ne) != gdl_state_size(nr))
            fail_msg("seed %llu: the next state of step %d, asked again alone, differs", (unsigned long long)seed, i);
        gdl_state_free(ne);
        gdl_state_free(nr);
    }
}

static void playthrough(GdlMachine *e, GdlMachine *r, GdlRng *rng, uint64_t seed, unsigned nroles)
{
    GdlState *se = NULL, *sr = NULL;
    Step steps[30];
    int nsteps = 0;
    check_ok(gdl_state_initial(e, &se), gdl_state_initial(r, &sr), e, r, seed, "initial state");
    for (int step = 0; step < 30; step++) {
        states++;
        if (gdl_state_hash(se) != gdl_state_hash(sr) || gdl_state_size(se) != gdl_state_size(sr))
            fail_msg("seed %llu, step %d: the states differ", (unsigned long long)seed, step);
        bool te = false, tr = false;
        check_ok(gdl_state_is_terminal(e, se, &te), gdl_state_is_terminal(r, sr, &tr), e, r, seed, "terminal");
        if (te != tr)
            fail_msg("seed %llu, step %d: terminal %d vs ref %d", (unsigned long long)seed, step, te, tr);
        int ge[8], gr[8];
        GdlStatus a = gdl_state_goals(e, se, ge), b = gdl_state_goals(r, sr, gr);
        if (a != b)
            fail_msg("seed %llu, step %d: goals: %s vs ref %s", (unsigned long long)seed, step, gdl_status_name(a),
                     gdl_status_name(b));
        for (unsigned k = 0; a == GDL_OK && k < nroles; k++)
            if (ge[k] != gr[k])
                fail_msg("seed %llu, step %d: goal of role %u: %d vs ref %d", (unsigned long long)seed, step, k, ge[k],
                         gr[k]);
        if (te)
            break;
        GdlMove je[8], jr[8];
        for (unsigned k = 0; k < nroles; k++) {
            const GdlMove *me, *mr;
            size_t ne = 0, nr = 0;
            check_ok(gdl_state_legal(e, se, k, &me, &ne), gdl_state_legal(r, sr, k, &mr, &nr), e, r, seed, "legal");
            if (ne != nr)
                fail_msg("seed %llu, step %d: role %u has %zu legal moves, ref %zu", (unsigned long long)seed, step, k,
                         ne, nr);
            for (size_t i = 0; i < ne; i++)
                if (strcmp(gdl_move_text(e, me[i]), gdl_move_text(r, mr[i])) != 0)
                    fail_msg("seed %llu, step %d: legal move %zu of role %u: %s vs ref %s", (unsigned long long)seed,
                             step, i, k, gdl_move_text(e, me[i]), gdl_move_text(r, mr[i]));
            size_t pick = (size_t)gdl_rng_below(rng, ne);
            je[k] = me[pick];
            jr[k] = mr[pick];
        }
        GdlState *ne = NULL, *nr = NULL;
        check_ok(gdl_state_next(e, se, je, &ne), gdl_state_next(r, sr, jr, &nr), e, r, seed, "next state");
        steps[nsteps] = (Step){se, sr, {0}, {0}};
        memcpy(steps[nsteps].je, je, nroles * sizeof *je);
        memcpy(steps[nsteps].jr, jr, nroles * sizeof *jr);
        nsteps++;
        se = ne;
        sr = nr;
    }
    next_again(e, r, steps, nsteps, seed);
    for (int i = 0; i < nsteps; i++) {
        gdl_state_free(steps[i].se);
        gdl_state_free(steps[i].sr);
    }
    gdl_state_free(se);
    gdl_state_free(sr);
}

static void differential(void **state)
{
    (void)state;
    uint64_t first = env_u64("GDLC_GEN_FIRST", 1), n = env_u64("GDLC_GEN_SEEDS", 300);
    uint64_t max_refused = env_u64("GDLC_MAX_REFUSED", 0), refused = 0;
    const char *engine = getenv("GDLC_ENGINE");
    if (!engine || !*engine)
        engine = "jit";
    for (uint64_t seed = first; seed < first + n; seed++) {
        char *text = gen_game(seed);
        GdlGame *g = NULL;
        GdlDiagnostics *d = NULL;
        if (gdl_game_load_string("gen.kif", text, strlen(text), &g, &d) != GDL_OK) {
            gdl_diagnostics_print(stderr, d, false);
            fail_msg("seed %llu: the generated game is rejected", (unsigned long long)seed);
        }
        gdl_diagnostics_free(d);
        GdlMachine *e = NULL, *r = NULL;
        char *err = NULL;
        GdlStatus st = test_machine_new(g, engine, &e, &err);
        if (st == GDL_LIMIT) {
            print_message("seed %llu: engine %s refuses the game: %s\n", (unsigned long long)seed, engine, err);
            free(err);
            refused++;
            gdl_game_free(g);
            free(text);
            continue;
        }
        if (st != GDL_OK || test_machine_new(g, "ref", &r, &err) != GDL_OK)
            fail_msg("seed %llu: %s", (unsigned long long)seed, err);
        GdlRng rng;
        gdl_rng_seed(&rng, seed);
        for (int p = 0; p < 3; p++)
            playthrough(e, r, &rng, seed, gdl_game_role_count(g));
        gdl_machine_free(e);
        gdl_machine_free(r);
        gdl_game_free(g);
        free(text);
    }
    print_message("%s agrees with ref on %llu random games (seeds %llu..%llu), %llu states; %llu refused\n", engine,
                  (unsigned long long)(n - refused), (unsigned long long)first, (unsigned long long)(first + n - 1),
                  (unsigned long long)states, (unsigned long long)refused);
    if (refused > max_refused)
        fail_msg("%s refused %llu games, more than GDLC_MAX_REFUSED=%llu", engine, (unsigned long long)refused,
                 (unsigned long long)max_refused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(differential)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
