/* fuzz_engine.c: libFuzzer target for the engines behind the public API.
 * The input is a game: loaded with gdl_game_load_string, then, when it is
 * accepted, played for a few random steps on ref and on jit under a short
 * deadline, with the KIF readers of states and moves fed the same bytes.
 * Whatever the game does (terms that grow every step, deep recursion,
 * facts that square, faults on some paths), every call must end in a
 * status: never a crash, a leak, a sanitizer report or a hang. The two
 * engines must agree on every state they both reach. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/gdl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { STEPS = 6 /* random steps per engine */ };

/* A status that can end a playthrough early; anything else is a bug. */
static bool expected_stop(GdlStatus st)
{
    return st == GDL_GAME_FAULT || st == GDL_LIMIT || st == GDL_CANCELLED || st == GDL_OUT_OF_MEMORY;
}

/* Plays on one engine; writes the text of the states it reaches into out
 * (one line per state), so that engines can be compared. */
static void play(const GdlGame *g, const char *engine, const char *text, FILE *out)
{
    GdlMachine *m = NULL;
    GdlStatus st = gdl_machine_new(g, engine, &m);
    if (st != GDL_OK) {
        if (!expected_stop(st))
            abort();
        return;
    }
    gdl_machine_set_deadline(m, gdl_now() + 0.1);
    GdlState *parsed = NULL;
    GdlMove mv;
    if (gdl_state_parse(m, text, &parsed) == GDL_OK)
        gdl_state_free(parsed);
    (void)gdl_move_parse(m, text, &mv);
    GdlRng rng;
    gdl_rng_seed(&rng, 1);
    unsigned nroles = gdl_game_role_count(g);
    GdlMove *joint = calloc(nroles ? nroles : 1, sizeof *joint);
    int *goals = calloc(nroles ? nroles : 1, sizeof *goals);
    GdlState *s = NULL;
    if ((st = gdl_state_initial(m, &s)) != GDL_OK)
        goto done;
    for (int step = 0; step < STEPS; step++) {
        for (size_t i = 0; i < gdl_state_size(s); i++)
            fprintf(out, "%s ", gdl_state_fact(m, s, i));
        fputc('\n', out);
        bool term = false;
        if ((st = gdl_state_is_terminal(m, s, &term)) != GDL_OK)
            goto done;
        if ((st = gdl_state_goals(m, s, goals)) != GDL_OK)
            goto done;
        if (term)
            break;
        for (unsigned r = 0; r < nroles; r++) {
            const GdlMove *moves;
            size_t n;
            if ((st = gdl_state_legal(m, s, r, &moves, &n)) != GDL_OK)
                goto done;
            joint[r] = moves[gdl_rng_below(&rng, n)];
        }
        GdlState *t = NULL;
        if ((st = gdl_state_next(m, s, joint, &t)) != GDL_OK)
            goto done;
        gdl_state_free(s);
        s = t;
    }
    st = GDL_OK;
done:
    if (st != GDL_OK && !expected_stop(st))
        abort();
    fprintf(out, "end\n");
    gdl_state_free(s);
    free(joint);
    free(goals);
    gdl_machine_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    GdlGame *g = NULL;
    if (gdl_game_load_string("fuzz.kif", text, size, &g, NULL) == GDL_OK) {
        char *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);
        if (fa && fb) {
            play(g, "ref", text, fa);
            play(g, "jit", text, fb);
        }
        if (fa)
            fclose(fa);
        if (fb)
            fclose(fb);
        /* the engines agree on every state both reached (a deadline or a
         * limit may cut either one short) */
        if (a && b)
            for (const char *p = a, *q = b; *p && *q;) {
                const char *pe = strchr(p, '\n'), *qe = strchr(q, '\n');
                if (!pe || !qe || strncmp(p, "end\n", 4) == 0 || strncmp(q, "end\n", 4) == 0)
                    break;
                if (pe - p != qe - q || memcmp(p, q, (size_t)(pe - p)) != 0)
                    abort();
                p = pe + 1;
                q = qe + 1;
            }
        free(a);
        free(b);
        gdl_game_free(g);
    }
    free(text);
    return 0;
}
