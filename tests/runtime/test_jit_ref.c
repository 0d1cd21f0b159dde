/*
 * test_jit_ref.c: the compiled engine against the reference interpreter on
 * random games (tests/gen): at every state of seeded random playthroughs,
 * the same terminality, goals, legal moves (as texts, in canonical order)
 * and next states (by content hash and size). GDLC_GEN_SEEDS sets how many
 * games (default 300), GDLC_GEN_FIRST the first seed (default 1),
 * GDLC_ENGINE the engine (default jit), GDLC_GEN=flat the games of
 * gen_flat_game instead of gen_game's (gengdl --flat SEED prints one).
 * An engine may refuse a game past a budget of its own (pn's grounding:
 * GDL_LIMIT): each refusal is printed with its seed and counted, and more
 * than GDLC_MAX_REFUSED of them (default 0) fail the test.
 *
 * Engine board declines games with recursion among relations of the
 * state, function terms in facts or moves, or moves that are variables
 * (every game of gen_game has all three: hence gen_flat_game), and hands
 * them to the goal-directed code, which its plan then names
 * ("goal-directed code (board: REASON)"). So that the test
 * cannot pass on the goal-directed code alone, it counts the games the
 * board compiled itself and those it declined, by reason, prints them, and
 * fails when the board compiled none.
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

/* gengdl's flag for the games under test: "--flat " or "". */
static const char *gen_flag = "";

static void check_ok(GdlStatus a, GdlStatus b, GdlMachine *ma, GdlMachine *mb, uint64_t seed, const char *what)
{
    if (a != b || a != GDL_OK)
        fail_msg("seed %llu: %s: %s says %s (%s), ref says %s (%s) (tests/gen: gengdl %s%llu)", (unsigned long long)seed,
                 what, gdl_machine_engine(ma), gdl_status_name(a), gdl_machine_error(ma), gdl_status_name(b),
                 gdl_machine_error(mb), gen_flag, (unsigned long long)seed);
}

static uint64_t states;

/* The reasons engine board gave for the games it declined, with their
 * counts; a reason's relation and functor names are replaced by NAME, so
 * that "relation q/2 is recursive" and "relation r/1 is recursive" count
 * as one. */
enum { MAX_REASONS = 32 };
static struct {
    char text[160];
    uint64_t count;
} reasons[MAX_REASONS];
static unsigned nreasons;
static uint64_t reasons_other;

/* reason without its names, into out (size n). */
static void reason_kind(const char *reason, char *out, size_t n)
{
    static const char *const before_name[] = {"relation ", "call of ", "rule of ", "facts of "};
    size_t k = 0;
    for (const char *p = reason; *p && *p != ':' && k + 1 < n;) {
        out[k++] = *p++;
        for (size_t i = 0; i < sizeof before_name / sizeof before_name[0]; i++) {
            size_t len = strlen(before_name[i]);
            if (k >= len && memcmp(out + k - len, before_name[i], len) == 0) {
                while (*p && *p != ' ' && *p != '/' && *p != ':')
                    p++;
                for (const char *q = "NAME"; *q && k + 1 < n; q++)
                    out[k++] = *q;
            }
        }
    }
    if (k > 0 && out[k - 1] == ')' && !strchr(reason, ':'))
        k--; /* the plan's closing parenthesis */
    out[k] = 0;
}

static void count_reason(const char *reason)
{
    char kind[160];
    reason_kind(reason, kind, sizeof kind);
    for (unsigned i = 0; i < nreasons; i++)
        if (strcmp(reasons[i].text, kind) == 0) {
            reasons[i].count++;
            return;
        }
    if (nreasons == MAX_REASONS) {
        reasons_other++;
        return;
    }
    snprintf(reasons[nreasons].text, sizeof reasons[nreasons].text, "%s", kind);
    reasons[nreasons++].count = 1;
}

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
    /* engine board: the games it compiled itself, and those it declined */
    bool board = strncmp(engine, "board", 5) == 0 && (engine[5] == 0 || engine[5] == ':');
    static const char declined_prefix[] = "goal-directed code (board: ";
    uint64_t compiled = 0, declined = 0;
    const char *gen = getenv("GDLC_GEN");
    bool flat = gen && strcmp(gen, "flat") == 0;
    if (gen && *gen && !flat)
        fail_msg("GDLC_GEN is flat or unset, not '%s'", gen);
    gen_flag = flat ? "--flat " : "";
    for (uint64_t seed = first; seed < first + n; seed++) {
        char *text = flat ? gen_flat_game(seed) : gen_game(seed);
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
        if (board) {
            const char *plan = gdl_machine_plan(e);
            if (strncmp(plan, declined_prefix, sizeof declined_prefix - 1) == 0) {
                declined++;
                count_reason(plan + sizeof declined_prefix - 1);
            } else if (strncmp(plan, "board: ", 7) == 0)
                compiled++;
            else
                fail_msg("seed %llu: engine %s's plan is neither the board's layout nor the goal-directed code: %s",
                         (unsigned long long)seed, engine, plan);
        }
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
    if (board) {
        print_message("%s compiled %llu of the games itself; %llu declined (played by the goal-directed code):\n",
                      engine, (unsigned long long)compiled, (unsigned long long)declined);
        for (unsigned i = 0; i < nreasons; i++)
            print_message("  %6llu  %s\n", (unsigned long long)reasons[i].count, reasons[i].text);
        if (reasons_other)
            print_message("  %6llu  other reasons\n", (unsigned long long)reasons_other);
        if (compiled == 0)
            fail_msg("%s compiled none of the %llu games itself: the test checked the goal-directed code alone",
                     engine, (unsigned long long)(n - refused));
    }
    if (refused > max_refused)
        fail_msg("%s refused %llu games, more than GDLC_MAX_REFUSED=%llu", engine, (unsigned long long)refused,
                 (unsigned long long)max_refused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(differential)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
