/*
 * match.c: gdlc match, matches between players (built-in or remote over
 * the GGP protocol) with GGP-Base's JSON records and a summary table, and
 * gdlc balance, the first seat's advantage measured by the built-in UCT
 * against itself at a fixed number of playouts per move.
 *
 * The players rotate over the seats: in match k (from 0), player j plays
 * role (j + k) mod R, so with N a multiple of R every player sits in every
 * seat equally often. A score's interval is mean +- 1.96 sd / sqrt(n), sd
 * the sample standard deviation (match_mean_ci).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../include/gdl.h"
#include "../player/player.h"
#include "../player/pool.h"
#include "cli.h"

typedef struct MatchCli {
    const char *path, *out;
    const char *specs[64];
    size_t nspecs;
    uint64_t startclock, playclock, matches, seed, playouts, jobs;
    const char *engine; /* balance: the players' engine */
    bool quiet;
    bool no_analyses; /* balance: analyses=0 */
    uint64_t batch;   /* balance: batch=L, 0 none */
} MatchCli;

static int parse(CliArgs *a, MatchCli *c, bool balance)
{
    while (a->i < a->argc) {
        const char *v;
        bool bad = false;
        if (cli_opt_flag(a, "--quiet"))
            c->quiet = true;
        else if (balance && cli_opt_flag(a, "--no-analyses"))
            c->no_analyses = true;
        else if (!balance && cli_opt_value(a, "--player", &v, &bad)) {
            if (!bad) {
                if (c->nspecs == sizeof c->specs / sizeof c->specs[0])
                    return cli_usage_error(a->cmd, "too many players");
                c->specs[c->nspecs++] = v;
            }
        } else if (!balance && cli_opt_value(a, "--start", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--start", v, &c->startclock))
                return CLI_USAGE;
        } else if (!balance && cli_opt_value(a, "--play", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--play", v, &c->playclock))
                return CLI_USAGE;
        } else if (!balance && cli_opt_value(a, "-o", &v, &bad)) {
            if (!bad)
                c->out = v;
        } else if (balance && cli_opt_value(a, "--engine", &v, &bad)) {
            if (!bad)
                c->engine = v;
        } else if (balance && cli_opt_value(a, "--batch", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--batch", v, &c->batch))
                return CLI_USAGE;
            if (!bad && (c->batch == 0 || c->batch % 64 || c->batch > GDL_BATCH_MAX_LANES))
                return cli_usage_error(a->cmd, "--batch takes a multiple of 64 from 64 to 512 lanes");
        } else if (balance && cli_opt_value(a, "--playouts", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--playouts", v, &c->playouts))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--jobs", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--jobs", v, &c->jobs))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--matches", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--matches", v, &c->matches))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--seed", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--seed", v, &c->seed))
                return CLI_USAGE;
        } else if (bad)
            return CLI_USAGE;
        else if (cli_take_game(a, &c->path) != CLI_OK)
            return CLI_USAGE;
    }
    if (!c->path)
        return cli_usage_error(a->cmd, "give a game file");
    if (c->matches == 0)
        return cli_usage_error(a->cmd, "--matches takes a positive number");
    if (c->matches > 1000000)
        return cli_usage_error(a->cmd, "--matches is too large");
    if (c->jobs == 0 || c->jobs > 64)
        return cli_usage_error(a->cmd, "--jobs takes a number from 1 to 64");
    if (!balance && (c->playclock == 0 || c->startclock == 0))
        return cli_usage_error(a->cmd, "--start and --play take a positive number of seconds");
    if (!balance && (c->playclock > 86400 || c->startclock > 86400))
        return cli_usage_error(a->cmd, "--start and --play are at most 86400 seconds");
    if (balance && c->playouts == 0)
        return cli_usage_error(a->cmd, "--playouts takes a positive number");
    return CLI_OK;
}

/* Prints "mean +- half" (or "mean" alone for one sample) into buf. */
static void fmt_ci(char *buf, size_t cap, const double *v, size_t n)
{
    double mean, half;
    if (n == 0) {
        snprintf(buf, cap, "-");
        return;
    }
    match_mean_ci(v, n, &mean, &half);
    if (n == 1)
        snprintf(buf, cap, "%.1f", mean);
    else
        snprintf(buf, cap, "%.1f +- %.1f", mean, half);
}

/* The runs of both commands: players by spec (rotating seats), records
 * to out (an array file, or a file per match in a directory). */
static int run_matches(CliArgs *a, MatchCli *c, bool balance)
{
    int rc = CLI_OK;
    GdlGame *game = NULL;
    char *rules = NULL, *rerr = NULL;
    size_t len = 0;
    bool big = false;
    MatchPlayer **players = NULL; /* [job * R + j] */
    size_t np = 0;
    MatchPool *pool = NULL;
    double *scores = NULL;  /* [player][match] */
    int *seat_of = NULL;    /* [player][match] */
    size_t *errors = NULL;  /* per player */
    FILE *out = NULL;
    bool outdir = false;
    size_t done = 0;

    const char *inputs[2] = {c->path, NULL};
    if (c->out) {
        struct stat sb;
        outdir = stat(c->out, &sb) == 0 && S_ISDIR(sb.st_mode);
        if (!outdir && !(out = cli_output_open(a->cmd, c->out, inputs, 1)))
            return CLI_USAGE;
    }
    if ((rc = cli_open_game(c->path, &game, NULL)) != CLI_OK)
        goto end;
    if (!(rules = base_read_file(c->path, &len, &rerr, &big))) {
        fprintf(stderr, "gdlc %s: %s\n", a->cmd, rerr ? rerr : "cannot read the game");
        rc = CLI_USAGE;
        goto end;
    }
    unsigned R = gdl_game_role_count(game);
    if (balance) {
        for (unsigned i = 0; i < R && i < 64; i++)
            c->specs[i] = NULL;
        c->nspecs = R;
    } else if (c->nspecs != R) {
        fprintf(stderr, "gdlc %s: %s has %u role%s; give as many --player (got %zu)\n", a->cmd, c->path, R,
                R == 1 ? "" : "s", c->nspecs);
        rc = CLI_USAGE;
        goto end;
    }
    if (R > 64) {
        fprintf(stderr, "gdlc %s: too many roles\n", a->cmd);
        rc = CLI_USAGE;
        goto end;
    }
    char bspec[256], bbatch[32] = "";
    if (c->batch)
        snprintf(bbatch, sizeof bbatch, ",batch=%llu", (unsigned long long)c->batch);
    snprintf(bspec, sizeof bspec, "mcts:%llu%s%.200s%s%s", (unsigned long long)c->playouts,
             c->engine ? ",engine=" : "", c->engine ? c->engine : "", c->no_analyses ? ",analyses=0" : "", bbatch);
    if (c->jobs > c->matches)
        c->jobs = c->matches;
    players = calloc(R * c->jobs, sizeof *players);
    if (!players) {
        fprintf(stderr, "gdlc %s: out of memory\n", a->cmd);
        rc = CLI_FAULT;
        goto end;
    }
    for (np = 0; np < R * c->jobs; np++) {
        char *err = NULL;
        const char *spec = balance ? bspec : c->specs[np % R];
        players[np] = match_player_new(spec, c->seed * 1000003u + np % R + 1, &err);
        if (!players[np]) {
            fprintf(stderr, "gdlc %s: --player %s: %s\n", a->cmd, spec, err ? err : "bad player");
            free(err);
            rc = CLI_USAGE;
            goto end;
        }
    }
    scores = calloc(R * c->matches, sizeof *scores);
    seat_of = calloc(R * c->matches, sizeof *seat_of);
    errors = calloc(R, sizeof *errors);
    if (!scores || !seat_of || !errors) {
        fprintf(stderr, "gdlc %s: out of memory\n", a->cmd);
        rc = CLI_FAULT;
        goto end;
    }
    if (out && fputs("[\n", out) == EOF)
        rc = CLI_USAGE;
    /* --jobs threads, each with players of its own */
    MatchOptions mo = {(unsigned)c->startclock, (unsigned)c->playclock, 0, NULL};
    const char *why = NULL;
    if (rc == CLI_OK &&
        !(pool = match_pool_start(game, rules, len, players, (unsigned)c->jobs, c->matches, balance, &mo, c->seed,
                                  &why))) {
        fprintf(stderr, "gdlc %s: %s\n", a->cmd, why);
        rc = CLI_FAULT;
    }
    for (uint64_t k = 0; k < c->matches && rc == CLI_OK; k++) {
        for (unsigned j = 0; j < R; j++)
            seat_of[j * c->matches + k] = balance ? (int)j : (int)((j + k) % R);
        MatchRecord *rec = NULL;
        char *err = NULL;
        GdlStatus st = match_pool_take(pool, k, &rec, &err);
        if (st != GDL_OK) {
            fprintf(stderr, "gdlc %s: match %llu: %s\n", a->cmd, (unsigned long long)k + 1,
                    err ? err : gdl_status_name(st));
            free(err);
            rc = CLI_FAULT;
            break;
        }
        free(err);
        const int *g = match_record_goals(rec);
        for (unsigned j = 0; j < R; j++)
            scores[j * c->matches + k] = g[seat_of[j * c->matches + k]];
        for (size_t t = 0; t < match_record_turns(rec); t++)
            for (unsigned role = 0; role < R; role++)
                if (match_record_error(rec, t, role)[0])
                    for (unsigned j = 0; j < R; j++)
                        if (seat_of[j * c->matches + k] == (int)role)
                            errors[j]++;
        if (out) {
            if ((k > 0 && fputs(",\n", out) == EOF) || !match_record_write(rec, out))
                rc = CLI_USAGE;
        } else if (outdir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/match-%llu.json", c->out, (unsigned long long)k + 1);
            FILE *f = cli_output_open(a->cmd, path, inputs, 1);
            if (!f)
                rc = CLI_USAGE;
            else {
                bool ok = match_record_write(rec, f);
                if (cli_output_close(a->cmd, f, path) != CLI_OK || !ok)
                    rc = CLI_USAGE;
            }
        }
        if (!c->quiet) {
            fprintf(stderr, "match %llu/%llu:", (unsigned long long)k + 1, (unsigned long long)c->matches);
            for (unsigned role = 0; role < R; role++)
                fprintf(stderr, " %s=%d", gdl_game_role_name(game, role), g[role]);
            if (match_record_errors(rec))
                fprintf(stderr, " (%zu errors)", match_record_errors(rec));
            fputc('\n', stderr);
        }
        match_record_free(rec);
        done = k + 1;
    }
    match_pool_free(pool);
    pool = NULL;
    if (out) {
        if (fputs("]\n", out) == EOF)
            rc = CLI_USAGE;
        int crc = cli_output_close(a->cmd, out, c->out);
        out = NULL;
        if (crc != CLI_OK)
            rc = CLI_USAGE;
    }
    if (done == 0)
        goto end;
    /* the summary */
    double *v = malloc(done * sizeof *v);
    if (!v)
        goto end;
    char cell[64];
    if (balance) {
        printf("game: %s\nplayers: %s against itself, %llu matches\n", c->path, bspec, (unsigned long long)done);
        for (unsigned role = 0; role < R; role++) {
            for (size_t k = 0; k < done; k++)
                v[k] = scores[role * c->matches + k];
            fmt_ci(cell, sizeof cell, v, done);
            printf("%s %s: %s\n", role == 0 ? "first seat" : "seat", gdl_game_role_name(game, role), cell);
        }
    } else {
        int w = 24;
        for (unsigned j = 0; j < R; j++)
            if ((int)strlen(players[j]->name) > w)
                w = (int)strlen(players[j]->name);
        printf("%-*s %7s  %-16s", w, "player", "matches", "score");
        for (unsigned role = 0; role < R; role++) {
            char h[64];
            snprintf(h, sizeof h, "as %s", gdl_game_role_name(game, role));
            printf("  %-16s", h);
        }
        printf("  %s\n", "errors");
        for (unsigned j = 0; j < R; j++) {
            for (size_t k = 0; k < done; k++)
                v[k] = scores[j * c->matches + k];
            fmt_ci(cell, sizeof cell, v, done);
            printf("%-*s %7zu  %-16s", w, players[j]->name, done, cell);
            for (unsigned role = 0; role < R; role++) {
                size_t n = 0;
                for (size_t k = 0; k < done; k++)
                    if (seat_of[j * c->matches + k] == (int)role)
                        v[n++] = scores[j * c->matches + k];
                fmt_ci(cell, sizeof cell, v, n);
                printf("  %-16s", cell);
            }
            printf("  %zu\n", errors[j]);
        }
        printf("(score: mean +- 1.96 sd / sqrt(n), the 95%% confidence interval)\n");
    }
    free(v);
end:
    if (out)
        fclose(out);
    for (size_t j = 0; j < np; j++)
        (players[j]->ops->free)(players[j]);
    free(players);
    match_pool_free(pool);
    free(scores);
    free(seat_of);
    free(errors);
    free(rules);
    free(rerr);
    gdl_game_free(game);
    return rc;
}

static int match_cmd(CliArgs *a)
{
    MatchCli c;
    memset(&c, 0, sizeof c);
    c.startclock = 10;
    c.playclock = 5;
    c.matches = 1;
    c.seed = 1;
    c.jobs = 1;
    int rc = parse(a, &c, false);
    if (rc != CLI_OK)
        return rc;
    if (c.nspecs == 0)
        return cli_usage_error(a->cmd, "give a --player per role");
    /* every spec checked before anything runs */
    for (size_t i = 0; i < c.nspecs; i++) {
        char *err = NULL;
        MatchPlayer *p = match_player_new(c.specs[i], 1, &err);
        if (!p) {
            fprintf(stderr, "gdlc %s: --player %s: %s\n", a->cmd, c.specs[i], err ? err : "bad player");
            free(err);
            return CLI_USAGE;
        }
        (p->ops->free)(p);
    }
    return run_matches(a, &c, false);
}

static int balance_cmd(CliArgs *a)
{
    MatchCli c;
    memset(&c, 0, sizeof c);
    c.startclock = 3600;
    c.playclock = 3600;
    c.matches = 100;
    c.seed = 1;
    c.jobs = 1;
    c.playouts = 1000;
    int rc = parse(a, &c, true);
    if (rc != CLI_OK)
        return rc;
    return run_matches(a, &c, true);
}

const CliCommand cli_match = {
    "match",
    "run matches between players, with GGP match records",
    "usage: gdlc match GAME.kif --player SPEC --player SPEC ... [--start S] [--play P]\n"
    "                  [--matches N] [--seed N] [--jobs J] [-o RECORD] [--quiet]\n"
    "\n"
    "Runs matches of a game as GGP-Base's GameServer runs them: START to every\n"
    "player (answered within the start clock), PLAY each turn with the last\n"
    "joint move, STOP at the end. A move that is late, unreadable or illegal,\n"
    "or a failed call, is replaced by a random legal move and recorded as an\n"
    "error. Give one --player per role; in match k (from 0) the j-th player\n"
    "takes role (j + k) mod R, so the players rotate over the seats.\n"
    "\n"
    "  --player SPEC    random          a random legal move\n"
    "                   flat:N          flat Monte-Carlo, N playouts per move\n"
    "                   mcts:N          UCT, N playouts per move\n"
    "                   flat:Xs, mcts:Xs  the same, X seconds per move\n"
    "                   http://HOST:PORT  a GGP player over HTTP\n"
    "                   (a built-in player with N playouts plays the same for\n"
    "                   the same --seed on every machine and engine)\n"
    "                   options after commas: engine=E (default jit; pn is\n"
    "                   faster on many games; auto times both at the start\n"
    "                   and takes the faster), threads=T, analyses=0 (no\n"
    "                   analyses, no solver) and batch=L (UCT's leaves played\n"
    "                   out L times at once by a batch of the network: gdl.h's\n"
    "                   gdl_batch_playouts), e.g. mcts:2s,engine=auto,threads=2\n"
    "                   (a built-in player stops at the play clock, playouts\n"
    "                   or not)\n"
    "  --start S        start clock, seconds (default 10)\n"
    "  --play P         play clock, seconds (default 5)\n"
    "  --matches N      number of matches (default 1)\n"
    "  --seed N         the matches' random numbers (default 1)\n"
    "  --jobs J         run J matches at once (default 1), each with players\n"
    "                   of its own made from the same specs: built-in players\n"
    "                   by playouts give the same results\n"
    "  -o RECORD        the match records in GGP-Base's JSON format (as\n"
    "                   ggp.org archives them: matchId, states, moves, errors,\n"
    "                   goalValues, ...): a JSON array of the records, or, when\n"
    "                   RECORD is an existing directory, one file per match,\n"
    "                   RECORD/match-K.json\n"
    "  --quiet          no line per match on stderr\n"
    "\n"
    "The summary on standard output gives each player's average score overall\n"
    "and per seat with the 95% confidence interval (mean +- 1.96 sd / sqrt(n))\n"
    "and the number of its moves that were replaced.\n"
    "\n"
    "exit status: 0 done; 1 a rejected game or a match that could not run;\n"
    "2 a usage error (a bad spec, a wrong number of players, unreadable file)\n",
    match_cmd};

const CliCommand cli_balance = {
    "balance",
    "measure the first player's advantage by self-play",
    "usage: gdlc balance GAME.kif [--matches N] [--playouts P] [--seed S] [--engine E]\n"
    "                    [--jobs J] [--no-analyses] [--batch L] [--quiet]\n"
    "\n"
    "Plays the built-in UCT (mcts:P) against itself in every seat and prints\n"
    "the average score of each seat, the first seat's first, with the 95%\n"
    "confidence interval (mean +- 1.96 sd / sqrt(n)). The players' budget is\n"
    "playouts, not time, so the result depends on the seed only, not on the\n"
    "machine. An interval of +-5 points takes about 400 matches for a game\n"
    "whose scores are 0 or 100.\n"
    "\n"
    "  --matches N      number of matches (default 100)\n"
    "  --playouts P     playouts per move (default 1000)\n"
    "  --seed S         the matches' random numbers (default 1)\n"
    "  --engine E       the players' engine (default jit): the same results,\n"
    "                   only faster or slower\n"
    "  --jobs J         run J matches at once (default 1; the same results)\n"
    "  --no-analyses    players without the analyses (mcts:P,analyses=0): the\n"
    "                   analysis is built anew for every player of every\n"
    "                   match, minutes each on a game as large as hex\n"
    "  --batch L        UCT in batched rounds (mcts:P,batch=L): L walks down\n"
    "                   the tree, their new leaves played out together by a\n"
    "                   batch of the network, L a multiple of 64 up to 512;\n"
    "                   the same playouts per move, other results (the walks\n"
    "                   of a round do not see each other's playouts)\n"
    "  --quiet          no line per match on stderr\n"
    "\n"
    "exit status: 0 done; 1 a rejected game or a match that could not run;\n"
    "2 a usage error\n",
    balance_cmd};
