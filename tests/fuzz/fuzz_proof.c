/* fuzz_proof.c: libFuzzer target for the proof checker (solve/check.c,
 * docs/proofs.md), the reader people trust to validate a proof. The input
 * is a proof file, checked against two small games of ours: Nim with heaps
 * of 1, 2 and 2 (tests/solve/nim122.kif: two players, a symmetry that swaps
 * the heaps of 2, value 100) and a two-step puzzle (tests/solve/proof/twostep.kif:
 * one role). Any bytes must end in a verdict, never in a crash, a leak, a
 * sanitizer report or a hang; a refusal always says why, at a line of the
 * file; and a proof of Nim from its initial state that holds must show
 * its true value (a proof of another value holds only when the checker is
 * wrong; a proof from another start state proves that state's value). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/gdl.h"
#include "../../solve/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct FuzzGame {
    const char *path;
    int value; /* the first role's, under best play (-1: not asked) */
    GdlGame *g;
    GdlMachine *m;
} FuzzGame;

static FuzzGame games[] = {
    {GDLC_SOURCE_DIR "/tests/solve/nim122.kif", 100, NULL, NULL},
    {GDLC_SOURCE_DIR "/tests/solve/proof/twostep.kif", -1, NULL, NULL},
};

static void open_games(void)
{
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        if (games[i].m)
            continue;
        if (gdl_game_load_file(games[i].path, &games[i].g, NULL) != GDL_OK ||
            gdl_machine_new(games[i].g, "ref", &games[i].m) != GDL_OK) {
            fprintf(stderr, "fuzz_proof: cannot open %s: %s\n", games[i].path, gdl_game_error(games[i].g));
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    open_games();
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        ProofCheck pc;
        bool ok = proof_check(games[i].g, games[i].m, "fuzz.proof", (const char *)data, size, &pc);
        if (ok) {
            if (pc.error || pc.lo < 0 || pc.lo > pc.hi || pc.hi > 100)
                abort();
            /* a proof that holds shows a sound interval: the value in it */
            if (games[i].value >= 0 && pc.from_initial && (pc.lo > games[i].value || pc.hi < games[i].value))
                abort();
        } else if (!pc.error || strncmp(pc.error, "fuzz.proof:", 11) != 0) {
            abort(); /* a refusal names the file */
        }
        proof_check_free(&pc);
    }
    return 0;
}
