/*
 * bench/player.c: what the player's search does per second (issue 16).
 *
 *   bench_player speed GAME.kif [--engine E] [--threads T] [--seconds S] [--positions N] [--seed S]
 *   bench_player ablation GAME.kif [--engine E] [--playouts N] [--positions N] [--seed S]
 *
 * speed: the player's UCT search (player/search.h, as session.c runs it:
 * a thread per search, each with its own machine and tree, thread 0's with
 * the analysis: root parallelisation) thinks S seconds (default 2) on each of N positions
 * (default 3: the initial state, then states along a seeded random
 * playthrough, 4 joint moves apart, where role 0 or 1 has a choice) with T
 * threads; prints the playouts per second over all threads and per
 * thread.
 *
 * ablation: the search alone (player/search.h) with a fixed number of
 * playouts per position (default 5000) and the analyses' parts switched
 * on one at a time: none, goal ranges at expansion (a node whose every
 * role's range is one value is terminal), winning/losing moves at
 * expansion, both; prints the seconds, playouts per second and tree nodes
 * of each, so their cost per iteration shows. (Their effect on strength is
 * measured by matches: bench/player.sh, mcts:N against mcts:N,analyses=0.)
 *
 * A benchmark, not a test: it fails only when the game cannot be loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "../player/search.h"

typedef struct Work {
    Search *s;
    unsigned role;
    double deadline;
    uint64_t done;
} Work;

static void *work(void *p)
{
    Work *w = p;
    search_run(w->s, w->role, 0, w->deadline, NULL, &w->done);
    return NULL;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(s);
        return NULL;
    }
    s[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return s;
}

/* Positions along a seeded playthrough where role 0 or 1 has a choice:
 * states[0..*n) (the initial state first), and who has the choice. */
static void positions(GdlMachine *m, uint64_t seed, unsigned want, GdlState **states, unsigned *roles, unsigned *n)
{
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    GdlState *s = NULL;
    gdl_state_initial(m, &s);
    *n = 0;
    GdlMove joint[64];
    for (unsigned step = 0; *n < want && step < 1000; step++) {
        bool term;
        if (gdl_state_is_terminal(m, s, &term) != GDL_OK || term)
            break;
        if (step % 4 == 0) {
            for (unsigned r = 0; r < 2; r++) {
                const GdlMove *lm;
                size_t k;
                if (gdl_state_legal(m, s, r, &lm, &k) == GDL_OK && k > 1) {
                    states[*n] = gdl_state_copy(s);
                    roles[(*n)++] = r;
                    break;
                }
            }
        }
        GdlState *next = NULL;
        if (gdl_state_random_joint_move(m, s, &rng, joint) != GDL_OK || gdl_state_next(m, s, joint, &next) != GDL_OK)
            break;
        gdl_state_free(s);
        s = next;
    }
    gdl_state_free(s);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_player speed|ablation GAME.kif [options]\n");
        return 2;
    }
    const char *mode = argv[1], *path = argv[2], *engine = "jit";
    unsigned threads = 1, npos = 3;
    double seconds = 2;
    uint64_t playouts = 5000, seed = 1;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--engine"))
            engine = argv[i + 1];
        else if (!strcmp(argv[i], "--threads"))
            threads = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds"))
            seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--positions"))
            npos = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--playouts"))
            playouts = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "bench_player: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (npos > 16)
        npos = 16;
    size_t len;
    char *rules = slurp(path, &len);
    GdlGame *g = NULL;
    if (!rules || gdl_game_load_string(path, rules, len, &g, NULL) != GDL_OK) {
        fprintf(stderr, "bench_player: cannot load %s\n", path);
        return 1;
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    GdlMachine *m = NULL;
    if (gdl_machine_new(g, engine, &m) != GDL_OK) {
        fprintf(stderr, "bench_player: no %s machine for %s\n", engine, path);
        return 1;
    }
    GdlState *pos[16];
    unsigned prole[16], n;
    positions(m, seed, npos, pos, prole, &n);
    if (!strcmp(mode, "speed")) {
        unsigned T = threads < 1 ? 1 : threads > 64 ? 64 : threads;
        GdlMachine *ms[64];
        GdlAnalysis *ans[64];
        Work w[64];
        pthread_t th[64];
        for (unsigned t = 0; t < T; t++) {
            if (gdl_machine_new(g, engine, &ms[t]) != GDL_OK)
                return 1;
            ans[t] = NULL;
            /* as a session: the analysis in thread 0's search only */
            if (t == 0 && gdl_analysis_new(ms[t], NULL, &ans[t]) != GDL_OK)
                ans[t] = NULL;
        }
        uint64_t total = 0;
        double secs = 0;
        for (unsigned i = 0; i < n; i++) {
            for (unsigned t = 0; t < T; t++) {
                w[t].s = search_new(ms[t], ans[t], gdl_game_role_count(g), NULL, seed * 31 + t + 100 * i);
                search_set_root(w[t].s, pos[i]);
                w[t].role = prole[i];
                w[t].done = 0;
            }
            double t0 = gdl_now();
            for (unsigned t = 0; t < T; t++) {
                w[t].deadline = t0 + seconds;
                pthread_create(&th[t], NULL, work, &w[t]);
            }
            for (unsigned t = 0; t < T; t++)
                pthread_join(th[t], NULL);
            secs += gdl_now() - t0;
            for (unsigned t = 0; t < T; t++) {
                total += w[t].done;
                search_free(w[t].s);
            }
        }
        for (unsigned t = 0; t < T; t++) {
            gdl_analysis_free(ans[t]);
            gdl_machine_free(ms[t]);
        }
        printf("%-24s %-4s threads %u: %9.0f playouts/s, %9.0f per thread (%u positions, %.1f s each)\n", name,
               engine, T, total / secs, total / secs / T, n, seconds);
    } else if (!strcmp(mode, "ablation")) {
        GdlAnalysis *an = NULL;
        double ta = gdl_now();
        if (gdl_analysis_new(m, NULL, &an) != GDL_OK) {
            printf("%s: no analysis: %s\n", name, gdl_machine_error(m));
            return 0;
        }
        ta = gdl_now() - ta;
        const char *names[] = {"none", "goal ranges", "winning moves", "both"};
        printf("%s (%s): analysis built in %.2f s; %llu playouts on each of %u positions\n", name, engine, ta,
               (unsigned long long)playouts, n);
        for (int v = 0; v < 4; v++) {
            SearchConfig cfg;
            search_config_default(&cfg);
            cfg.goal_ranges = v & 1;
            cfg.winning_moves = (v & 2) != 0;
            double t0 = gdl_now();
            uint64_t done = 0;
            size_t nodes = 0;
            for (unsigned i = 0; i < n; i++) {
                Search *s = search_new(m, v ? an : NULL, gdl_game_role_count(g), &cfg, seed + i);
                search_set_root(s, pos[i]);
                search_run(s, prole[i], playouts, 0, NULL, &done);
                nodes += search_nodes(s);
                search_free(s);
            }
            double dt = gdl_now() - t0;
            printf("  %-14s %7.2f s  %9.0f playouts/s  %8zu nodes\n", names[v], dt, done / dt, nodes);
        }
        gdl_analysis_free(an);
    }
    for (unsigned i = 0; i < n; i++)
        gdl_state_free(pos[i]);
    gdl_machine_free(m);
    gdl_game_free(g);
    free(rules);
    return 0;
}
