/*
 * solve.c: gdlc solve, the solver of solve/solve.h on the command line: the
 * value of a game from its initial state (or --state FACTS) for each role,
 * exact or as the interval proven so far, the best move, the search's
 * counts, and with --proof the certificate `gdlc check-proof` checks.
 *
 * Bounds (--seconds, --memory) and SIGINT stop the search with what is
 * proven so far: it is printed and the command exits 3. A game out of the
 * solver's scope (more than two roles, simultaneous moves, goals that do
 * not sum to a constant) is "FILE: error: why", exit 1.
 */
#include <signal.h>
#include <string.h>

#include "../include/gdl.h"
#include "../solve/solve.h"
#include "cli.h"

enum { CLI_PARTIAL = 3 /* a bound stopped the solve: the result is partial */ };

typedef struct SolveCli {
    const char *path, *state, *proof, *save, *resume, *engine;
    bool json, quiet;
    SolveOptions so;
} SolveCli;

static volatile sig_atomic_t solve_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    solve_interrupted = 1;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Role r's interval: the first role's, or the second's from the sum. */
static void role_interval(const SolveResult *r, unsigned role, int *lo, int *hi)
{
    if (role == 0 || r->roles == 1) {
        *lo = r->lo, *hi = r->hi;
    } else if (r->sum >= 0) {
        *lo = r->sum - r->hi, *hi = r->sum - r->lo;
    } else { /* no terminal state seen: nothing known of the sum */
        *lo = 0, *hi = 100;
    }
    if (*lo < 0)
        *lo = 0;
    if (*hi > 100)
        *hi = 100;
}

static void report_json(FILE *f, const SolveCli *c, const GdlGame *g, const SolveResult *r)
{
    fprintf(f, "{\"game\":");
    json_str(f, c->path);
    fprintf(f, ",\"value\":{");
    for (unsigned k = 0; k < r->roles; k++) {
        int lo, hi;
        role_interval(r, k, &lo, &hi);
        fprintf(f, "%s", k ? "," : "");
        json_str(f, gdl_game_role_name(g, k));
        fprintf(f, ":[%d,%d]", lo, hi);
    }
    fprintf(f, "},\"exact\":%s,\"best_move\":{", r->exact ? "true" : "false");
    if (r->has_best && r->best_move) {
        json_str(f, gdl_game_role_name(g, r->best_role));
        fputc(':', f);
        json_str(f, r->best_move);
    }
    fprintf(f, "},\"nodes\":%llu,\"seconds\":%.3f,\"states\":%llu,\"transpositions\":%llu,\"symmetric\":%llu,"
               "\"symmetries\":%u,\"proof_nodes\":%llu,\"memory_bytes\":%llu,\"plan\":",
            (unsigned long long)r->nodes, r->seconds, (unsigned long long)r->states,
            (unsigned long long)r->transpositions, (unsigned long long)r->symmetric, r->symmetry_count,
            (unsigned long long)r->proof_nodes, (unsigned long long)r->peak_bytes);
    if (r->roles == 1 && r->plan) {
        fputc('[', f);
        for (size_t i = 0; i < r->plan_len; i++) {
            if (i)
                fputc(',', f);
            json_str(f, r->plan[i]);
        }
        fputc(']', f);
    } else {
        fprintf(f, "null");
    }
    fprintf(f, ",\"stopped\":");
    if (r->stopped && r->stop_reason)
        json_str(f, r->stop_reason);
    else
        fprintf(f, "null");
    fprintf(f, "}\n");
}

static void report_text(FILE *f, const SolveCli *c, const GdlGame *g, const SolveResult *r)
{
    fprintf(f, "game: %s\n", c->path);
    for (unsigned k = 0; k < r->roles; k++) {
        int lo, hi;
        role_interval(r, k, &lo, &hi);
        if (lo == hi)
            fprintf(f, "value: %s %d\n", gdl_game_role_name(g, k), lo);
        else
            fprintf(f, "value: %s [%d, %d]\n", gdl_game_role_name(g, k), lo, hi);
    }
    fprintf(f, "exact: %s\n", r->exact ? "yes" : "no");
    if (r->has_best && r->best_move)
        fprintf(f, "best move: %s %s\n", gdl_game_role_name(g, r->best_role), r->best_move);
    else
        fprintf(f, "best move: none known\n");
    if (r->roles == 1 && r->plan) {
        fprintf(f, "plan: %zu moves:", r->plan_len);
        for (size_t i = 0; i < r->plan_len; i++)
            fprintf(f, " %s", r->plan[i]);
        fputc('\n', f);
    }
    fprintf(f, "nodes: %llu expanded, %llu states\n", (unsigned long long)r->nodes, (unsigned long long)r->states);
    fprintf(f, "transpositions: %llu\n", (unsigned long long)r->transpositions);
    fprintf(f, "symmetric merges: %llu (%u symmetr%s)\n", (unsigned long long)r->symmetric, r->symmetry_count,
            r->symmetry_count == 1 ? "y: the identity" : "ies");
    if (c->proof)
        fprintf(f, "proof: %s, %llu nodes\n", c->proof, (unsigned long long)r->proof_nodes);
    fprintf(f, "time: %.3f s\n", r->seconds);
    fprintf(f, "memory: %.1f MB\n", (double)r->peak_bytes / 1048576.0);
    if (r->stopped)
        fprintf(f, "stopped: %s (the value is what was proven so far)\n", r->stop_reason ? r->stop_reason : "?");
}

static int parse_opts(CliArgs *a, SolveCli *c)
{
    const char *v;
    bool bad = false;
    while (a->i < a->argc) {
        if (cli_opt_flag(a, "--json"))
            c->json = true;
        else if (cli_opt_flag(a, "--quiet"))
            c->quiet = true;
        else if (cli_opt_flag(a, "--no-transpositions"))
            c->so.transpositions = false;
        else if (cli_opt_flag(a, "--no-symmetries"))
            c->so.symmetries = false;
        else if (cli_opt_flag(a, "--no-analyses"))
            c->so.analyses = false;
        else if (cli_opt_value(a, "--state", &v, &bad)) {
            if (!bad)
                c->state = v;
        } else if (cli_opt_value(a, "--proof", &v, &bad)) {
            if (!bad)
                c->proof = v;
        } else if (cli_opt_value(a, "--save", &v, &bad)) {
            if (!bad)
                c->save = v;
        } else if (cli_opt_value(a, "--resume", &v, &bad)) {
            if (!bad)
                c->resume = v;
        } else if (cli_opt_value(a, "--engine", &v, &bad)) {
            if (!bad)
                c->engine = v;
        } else if (cli_opt_value(a, "--seconds", &v, &bad)) {
            if (!bad && !cli_parse_double(a->cmd, "--seconds", v, &c->so.seconds))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--memory", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--memory", v, &c->so.memory_mb))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--max-nodes", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--max-nodes", v, &c->so.max_nodes))
                return CLI_USAGE;
        } else if (bad)
            return CLI_USAGE;
        else if (cli_take_game(a, &c->path) != CLI_OK)
            return CLI_USAGE;
        if (bad)
            return CLI_USAGE;
    }
    if (!c->path)
        return cli_usage_error(a->cmd, "give a game file");
    if (c->so.seconds < 0)
        return cli_usage_error(a->cmd, "--seconds takes a non-negative number");
    if (c->so.memory_mb > (UINT64_MAX >> 21))
        return cli_usage_error(a->cmd, "--memory is too large");
    return CLI_OK;
}

static int solve_cmd(CliArgs *a)
{
    SolveCli c;
    memset(&c, 0, sizeof c);
    solve_options_default(&c.so);
    int rc = parse_opts(a, &c);
    if (rc != CLI_OK)
        return rc;
    const char *inputs[3];
    size_t ninputs = cli_inputs(c.path, c.engine, inputs);
    /* --save may name the --resume file (read whole before the search,
     * written after it); no other output may */
    if (c.save && cli_output_check(a->cmd, c.save, inputs, ninputs) != CLI_OK)
        return CLI_USAGE;
    if (c.resume)
        inputs[ninputs++] = c.resume;
    if (c.proof && c.save && strcmp(c.proof, c.save) == 0)
        return cli_usage_error(a->cmd, "--proof and --save name the same file");

    GdlGame *game = NULL;
    GdlMachine *m = NULL;
    GdlState *state = NULL;
    FILE *proof = NULL;
    char *err = NULL;
    SolveResult r;
    memset(&r, 0, sizeof r);
    if ((rc = cli_open_machine(a->cmd, c.path, c.engine, &game, &m, NULL)) != CLI_OK)
        return rc;
    if (c.state && (rc = cli_read_state(a->cmd, m, c.state, &state)) != CLI_OK)
        goto out;
    if (c.proof && !(proof = cli_output_open(a->cmd, c.proof, inputs, ninputs))) {
        rc = CLI_USAGE;
        goto out;
    }
    if (!c.quiet) {
        c.so.progress = stderr;
        c.so.progress_every = 2;
    }
    solve_interrupted = 0;
    c.so.stop = &solve_interrupted;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    GdlStatus st = solve_run(game, m, state, &c.so, proof, c.save, c.resume, &r, &err);
    sigaction(SIGINT, &old, NULL);
    if (proof) {
        int prc = cli_output_close(a->cmd, proof, c.proof);
        proof = NULL;
        if (prc != CLI_OK) {
            rc = CLI_USAGE;
            goto out;
        }
    }
    if (st != GDL_OK) {
        if (r.scope != SOLVE_SCOPE_OK) {
            fprintf(stderr, "%s: error: %s\n", c.path, r.scope_message ? r.scope_message : "out of scope");
        } else {
            fprintf(stderr, "gdlc %s: %s: %s\n", a->cmd, c.path, err ? err : gdl_status_name(st));
        }
        /* a --resume file that cannot be read, a --save file that cannot
         * be written: 2, as every file that cannot be read or written */
        rc = st == GDL_IO_ERROR ? CLI_USAGE : CLI_FAULT;
        if (c.proof)
            remove(c.proof); /* an incomplete proof is no proof */
        goto out;
    }
    if (c.json)
        report_json(stdout, &c, game, &r);
    else
        report_text(stdout, &c, game, &r);
    rc = r.exact && !r.stopped ? CLI_OK : CLI_PARTIAL; /* main.c checks standard output */
out:
    if (proof)
        fclose(proof);
    solve_result_free(&r);
    free(err);
    gdl_state_free(state);
    gdl_machine_free(m);
    gdl_game_free(game);
    return rc;
}

const CliCommand cli_solve = {
    "solve",
    "prove a game's value with a checkable proof",
    "usage: gdlc solve GAME.kif [--state FACTS] [--proof FILE] [--json] [--seconds S]\n"
    "                   [--memory MB] [--save FILE] [--resume FILE] [--no-transpositions]\n"
    "                   [--no-symmetries] [--no-analyses] [--max-nodes N] [--engine E]\n"
    "                   [--quiet]\n"
    "\n"
    "Proves the value of a game under best play, from its initial state or\n"
    "--state: puzzles (one role) by A*, two-player games that take turns and\n"
    "whose goals sum to a constant by proof-number search over the graph of\n"
    "states (transpositions and symmetries merged). The value is the first\n"
    "role's score as an interval [lo, hi]: the first role can force lo, the\n"
    "other side can hold it to hi (the second role's follows from the sum).\n"
    "\n"
    "  --proof FILE     writes the proof (docs/proofs.md) that gdlc check-proof\n"
    "                   checks; the value printed is then the one the proof\n"
    "                   shows (without it, the value may rest on the\n"
    "                   analyses' goal ranges, which are sound but cannot be\n"
    "                   replayed by the checker)\n"
    "  --json           one JSON object: game, value ({role: [lo, hi]}), exact,\n"
    "                   best_move ({role: move}), nodes (expansions), seconds,\n"
    "                   states, transpositions, symmetric, symmetries,\n"
    "                   proof_nodes, memory_bytes, plan (puzzles), stopped\n"
    "                   (time, memory, nodes, interrupt, or null)\n"
    "  --seconds S      stop after S seconds with what is proven\n"
    "  --memory MB      stop when the graph passes MB megabytes\n"
    "  --max-nodes N    stop after N expansions (with --resume: counting the\n"
    "                   saved graph's)\n"
    "  --save FILE      write the graph at the end (also when a bound stopped\n"
    "                   it); --resume FILE goes on from it, with the same\n"
    "                   options (--save may name the same file)\n"
    "  --no-transpositions, --no-symmetries, --no-analyses\n"
    "                   switch each off (no transpositions: the graph is a\n"
    "                   tree, so no symmetric merges either)\n"
    "  --engine E       the machine's engine (default jit)\n"
    "  --quiet          no progress lines (otherwise one every 2 s on stderr)\n"
    "\n"
    "exit status: 0 the value is exact; 3 a bound or SIGINT stopped the search\n"
    "(the partial result is printed); 1 the game is rejected or out of scope,\n"
    "or the machine failed; 2 usage error or unreadable file\n",
    solve_cmd,
};
