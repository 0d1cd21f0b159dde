/*
 * pie.c: `gdlc pie GAME.kif [-o OUT]`, the pie-rule variant of a two-player
 * game whose players alternate (player/pie.c does the work). The output is
 * made in memory first, so a game out of scope leaves no file behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../player/player.h"
#include "cli.h"

typedef struct PieCli {
    const char *path;
    const char *out;
    bool quiet;
    PieOptions o;
    char *analysis_options; /* made from --max-atoms/--max-rules/--max-links */
} PieCli;

static int parse_opts(CliArgs *a, PieCli *c)
{
    const char *v;
    bool bad = false;
    uint64_t x;
    char budget[160] = "";
    while (a->i < a->argc) {
        const char *arg = a->argv[a->i];
        if (cli_opt_flag(a, "--no-analysis"))
            c->o.analysis = false;
        else if (cli_opt_flag(a, "-q") || cli_opt_flag(a, "--quiet"))
            c->quiet = true;
        else if (cli_opt_value(a, "-o", &v, &bad)) {
            if (!bad)
                c->out = v;
        } else if (cli_opt_value(a, "--playthroughs", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--playthroughs", v, &x))
                return CLI_USAGE;
            if (!bad && x > 1000000)
                return cli_usage_error(a->cmd, "--playthroughs is at most 1000000");
            if (!bad)
                c->o.playthroughs = (unsigned)x;
        } else if (cli_opt_value(a, "--max-steps", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--max-steps", v, &c->o.max_steps))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--first-moves", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--first-moves", v, &x))
                return CLI_USAGE;
            if (!bad)
                c->o.max_first = (size_t)x;
        } else if (cli_opt_value(a, "--seed", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--seed", v, &c->o.seed))
                return CLI_USAGE;
        } else if (!strncmp(arg, "--max-atoms", 11) || !strncmp(arg, "--max-rules", 11) ||
                   !strncmp(arg, "--max-links", 11)) {
            char opt[12];
            memcpy(opt, arg, 11);
            opt[11] = 0;
            if (cli_opt_value(a, opt, &v, &bad)) {
                if (bad)
                    return CLI_USAGE;
                if (!cli_parse_u64(a->cmd, opt, v, &x))
                    return CLI_USAGE;
                size_t n = strlen(budget);
                snprintf(budget + n, sizeof budget - n, ",%s=%llu", opt + 2, (unsigned long long)x);
            } else {
                return cli_usage_error(a->cmd, "unknown option '%s'", arg);
            }
        } else if (bad)
            return CLI_USAGE;
        else if (cli_take_game(a, &c->path) != CLI_OK)
            return CLI_USAGE;
        if (bad)
            return CLI_USAGE;
    }
    if (!c->path)
        return cli_usage_error(a->cmd, "give a game file");
    if (c->o.max_steps == 0)
        return cli_usage_error(a->cmd, "--max-steps takes a positive number");
    if (budget[0]) {
        /* the budgets given replace the default's */
        c->analysis_options = base_sprintf("samples=1%s", budget);
        c->o.analysis_options = c->analysis_options;
    }
    return CLI_OK;
}

static int run(CliArgs *a)
{
    PieCli c;
    memset(&c, 0, sizeof c);
    pie_options_default(&c.o);
    int rc = parse_opts(a, &c);
    if (rc != CLI_OK) {
        free(c.analysis_options);
        return rc;
    }
    const char *inputs[1] = {c.path};
    if (c.out && cli_output_check(a->cmd, c.out, inputs, 1) != CLI_OK) {
        free(c.analysis_options);
        return CLI_USAGE;
    }
    size_t len;
    char *err = NULL;
    bool big = false;
    char *text = base_read_file(c.path, &len, &err, &big);
    if (!text) {
        fprintf(stderr, "gdlc %s: %s\n", a->cmd, err ? err : "cannot read the game");
        free(err);
        free(c.analysis_options);
        return big ? CLI_FAULT : CLI_USAGE;
    }
    GdlGame *game = NULL;
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_string(c.path, text, len, &game, &d);
    gdl_diagnostics_print(stderr, d, false);
    gdl_diagnostics_free(d);
    if (st != GDL_OK) {
        fprintf(stderr, "gdlc %s: %s: the game is rejected (see `gdlc check`)\n", a->cmd, c.path);
        free(text);
        free(c.analysis_options);
        return CLI_FAULT;
    }
    char *buf = NULL;
    size_t blen = 0;
    FILE *mem = open_memstream(&buf, &blen);
    if (!mem) {
        fprintf(stderr, "gdlc %s: out of memory\n", a->cmd);
        rc = CLI_FAULT;
        goto out;
    }
    double t0 = gdl_now();
    bool ok = pie_transform_opt(game, text, len, c.path, &c.o, mem, &err);
    fclose(mem);
    if (!ok) {
        fprintf(stderr, "%s: error: no pie variant: %s\n", c.path, err ? err : "out of scope");
        rc = CLI_FAULT;
        goto out;
    }
    FILE *f = c.out ? cli_output_open(a->cmd, c.out, inputs, 1) : stdout;
    if (!f) {
        rc = CLI_USAGE;
        goto out;
    }
    fwrite(buf, 1, blen, f);
    rc = cli_output_close(a->cmd, f, c.out);
    if (rc == CLI_OK && c.out && !c.quiet)
        fprintf(stderr, "%s: the pie variant written to %s (%.2f s)\n", c.path, c.out, gdl_now() - t0);
out:
    free(buf);
    free(err);
    free(text);
    free(c.analysis_options);
    gdl_game_free(game);
    return rc;
}

const CliCommand cli_pie = {
    "pie",
    "the pie-rule variant of a two-player game whose players alternate",
    "usage: gdlc pie GAME.kif [-o OUT.kif] [--playthroughs N] [--seed S] [--max-steps K]\n"
    "                 [--first-moves N] [--no-analysis] [--max-atoms N] [--max-rules N]\n"
    "                 [--max-links N] [-q]\n"
    "\n"
    "Writes the pie-rule variant of a two-player game whose players alternate:\n"
    "after the first player's first move the second player may play `swap`\n"
    "(or a fresh name when the game uses that symbol) and take the first side,\n"
    "the opening move standing; the other player then moves as the second side.\n"
    "Or the second player plays on. The roles stay the players' names; every\n"
    "original rule is kept, with legal, goal, does and input renamed to fresh\n"
    "relations about sides, and a comment at the top says what was added.\n"
    "The output is plain GDL that every engine reads (see docs/pie.md).\n"
    "\n"
    "The turn structure is checked first: the first two turns after every first\n"
    "move (the first role opens, the second answers; with --first-moves N, after\n"
    "N of them evenly spaced), then --playthroughs seeded\n"
    "random playthroughs (default 8, from --seed, default 1, each at most\n"
    "--max-steps, default 2000), where the role not to move must always have\n"
    "exactly one legal move; then the control analysis names the move-independent\n"
    "bases that keep the turn, within a grounding budget (default --max-links\n"
    "200000; skipped past it, or with --no-analysis). A game out of scope (not\n"
    "two roles, simultaneous moves, the second role opening, turns that do not\n"
    "alternate) is refused with the reason, and nothing is written.\n"
    "\n"
    "  -o OUT.kif        write here (default: standard output)\n"
    "  -q, --quiet       no line on standard error after writing\n"
    "\n"
    "Exit status: 0 written, 1 the game is rejected or out of scope, 2 a usage\n"
    "error, an unreadable game or output that cannot be written.\n",
    run};
