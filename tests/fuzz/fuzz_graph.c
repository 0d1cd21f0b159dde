/* fuzz_graph.c: libFuzzer target for the solver's saved graphs
 * (solve/save.c, gdlc solve --resume). The input is a saved graph of Nim
 * with heaps of 1, 2 and 2 (tests/solve/nim122.kif: value 100, two
 * symmetries), read with the analyses and the symmetries on, as gdlc
 * solve reads it. Any bytes must be refused with a message, or give a
 * graph the search finishes: never a crash, a leak, a sanitizer report or
 * a hang. A graph the reader accepts is solved to the end with a proof,
 * which the independent checker (solve/check.c) must accept with the
 * root's provable interval; from the initial state that is the game's
 * true value. The hash is recomputed over each input before it is read
 * (the file's last 8 bytes), so that the fuzzer reaches the reader behind
 * the checksum: the hash is no defence, the re-derivation on load is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/base.h"
#include "../../include/gdl.h"
#include "../../solve/check.h"
#include "../../solve/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { VALUE = 100 /* nim122's, under best play */ };

static GdlGame *game;
static GdlMachine *m;
static GdlAnalysis *an;
static GdlState *initial;

static void open_game(void)
{
    if (m)
        return;
    if (gdl_game_load_file(GDLC_SOURCE_DIR "/tests/solve/nim122.kif", &game, NULL) != GDL_OK ||
        gdl_machine_new(game, "ref", &m) != GDL_OK || gdl_analysis_new(m, NULL, &an) != GDL_OK ||
        gdl_state_initial(m, &initial) != GDL_OK) {
        fprintf(stderr, "fuzz_graph: cannot open nim122: %s\n", m ? gdl_machine_error(m) : gdl_game_error(game));
        abort();
    }
}

/* The search's ends that a hostile graph may cause; anything else is a bug. */
static bool expected(GdlStatus st)
{
    return st == GDL_BAD_ARGUMENT || st == GDL_GAME_FAULT || st == GDL_LIMIT || st == GDL_OUT_OF_MEMORY;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    open_game();
    uint8_t *b = malloc(size ? size : 1);
    if (!b)
        return 0;
    memcpy(b, data, size);
    if (size >= 17) {
        uint64_t h = base_hash_bytes(b, size - 8, 0);
        for (int k = 0; k < 8; k++)
            b[size - 8 + k] = (uint8_t)(h >> (8 * k));
    }
    SolveOptions o;
    solve_options_default(&o);
    SvGraph g;
    sv_graph_init(&g, m, an, &o);
    char *err = NULL;
    GdlStatus st = sv_load_bytes(&g, "fuzz.graph", b, size, &err);
    free(b);
    if (st != GDL_OK) {
        if (!expected(st) || !err || !*err)
            abort(); /* a refusal says why */
        free(err);
        sv_graph_free(&g);
        return 0;
    }
    /* a bound on the work (the graph's counts are the file's) */
    o.max_nodes = g.expansions + 5000;
    const char *stopped = NULL;
    if (!sv_search(&g, &o, true, gdl_now(), &stopped)) {
        if (!expected(g.status) || !g.message)
            abort();
        sv_graph_free(&g);
        return 0;
    }
    const SvNode *r = &g.nodes.v[g.root];
    bool from_initial = gdl_state_equal(r->s, initial);
    if (!stopped && r->plo == r->phi) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
            abort();
        uint64_t nodes = 0;
        st = sv_proof_write(&g, game, from_initial ? NULL : r->s, f, &nodes, &err);
        fclose(f);
        if (st != GDL_OK)
            abort(); /* the graph's provable intervals support a proof */
        ProofCheck pc;
        if (!proof_check(game, m, "resumed.proof", text, len, &pc)) {
            fprintf(stderr, "fuzz_graph: the proof of a loaded graph does not hold: %s\n", pc.error);
            abort();
        }
        if (pc.lo != r->plo || pc.hi != r->phi || (from_initial && pc.lo != VALUE))
            abort();
        proof_check_free(&pc);
        free(text);
    }
    sv_graph_free(&g);
    return 0;
}
