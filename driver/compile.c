/*
 * compile.c: gdlc emit and gdlc compile, the backend's commands.
 */
#include <string.h>

#include "../include/gdl.h"
#include "../runtime/compiled.h"
#include "../runtime/pipeline.h"
#include "cli.h"

/* What gdlc emit --dump prints instead of the C: the output of an earlier
 * pass of the back half. */
static const CliDump emit_dumps[] = {
    {"fold", RT_BACK_FOLD, NULL},
    {"plan", RT_BACK_PLAN, NULL},
};

/* GAME.kif and -o OUT; emit's --no-lines and --dump when no_lines is given. */
static bool emit_pn;   /* emit --pn */
static bool emit_game; /* emit --game */
static bool emit_board; /* emit --engine board */

static int parse(CliArgs *a, const char **game, const char **out, bool *no_lines, const CliDump **dump)
{
    *game = *out = NULL;
    bool bad = false;
    while (a->i < a->argc) {
        const char *v;
        if (cli_opt_value(a, "-o", &v, &bad) || cli_opt_value(a, "--output", &v, &bad))
            *out = v;
        else if (no_lines && cli_opt_flag(a, "--no-lines"))
            *no_lines = true;
        else if (no_lines && cli_opt_flag(a, "--pn"))
            emit_pn = true;
        else if (no_lines && cli_opt_flag(a, "--game"))
            emit_game = true;
        else if (!bad && no_lines && cli_opt_value(a, "--engine", &v, &bad)) {
            if (bad)
                return CLI_USAGE;
            if (strcmp(v, "board") == 0)
                emit_board = true;
            else if (strcmp(v, "pn:compiled") == 0)
                emit_pn = true;
            else if (strcmp(v, "jit") != 0 && strcmp(v, "jit:goal") != 0 && strcmp(v, "aot") != 0 &&
                     strcmp(v, "aot:goal") != 0)
                return cli_usage_error(a->cmd, "--engine: the C of jit, jit:goal, aot, aot:goal (the goal-directed "
                                               "code), pn:compiled or board, not '%s'", v);
        }
        else if (!bad && dump && cli_opt_value(a, "--dump", &v, &bad)) {
            if (!bad && !(*dump = cli_dump_find(a->cmd, emit_dumps, sizeof emit_dumps / sizeof *emit_dumps, v)))
                return CLI_USAGE;
        } else if (bad)
            return CLI_USAGE;
        else if (cli_take_game(a, game) != CLI_OK)
            return CLI_USAGE;
    }
    if (bad)
        return CLI_USAGE;
    if (!*game)
        return cli_usage_error(a->cmd, "give a game file");
    return CLI_OK;
}

/* The game's part of the generated C, for reading: from the line that
 * opens it ("==== the game ====", after the runtime's declarations) to the
 * line that closes it, that line included. */
static bool game_part(const char *code, const char **from, size_t *len)
{
    const char *open = strstr(code, "/* ==== the game ==== */\n");
    const char *close = open ? strstr(open, "/* ==== end of the game ==== */\n") : NULL;
    if (!close)
        return false;
    *from = open;
    *len = (size_t)(close - open) + strlen("/* ==== end of the game ==== */\n");
    return true;
}

static int emit_run(CliArgs *a)
{
    const char *path, *out;
    bool no_lines = false;
    const CliDump *dump = NULL;
    int rc = parse(a, &path, &out, &no_lines, &dump);
    if (rc != CLI_OK)
        return rc;
    if (out && cli_output_check(a->cmd, out, &path, 1) != CLI_OK)
        return CLI_USAGE;
    GdlGame *g = NULL;
    if ((rc = cli_open_game(path, &g, NULL)) != CLI_OK)
        return rc;
    size_t len = 0;
    char *err = NULL;
    /* #line directives name the C file as written */
    RtBackOptions o = {dump ? (RtBackStop)dump->stage : RT_BACK_C, out, no_lines};
    if (emit_pn && dump)
        return gdl_game_free(g), cli_usage_error(a->cmd, "--pn prints C, not a dump");
    if (emit_game && (dump || emit_pn))
        return gdl_game_free(g), cli_usage_error(a->cmd, "--game prints the game's part of the goal-directed C only");
    if (emit_board && (dump || emit_pn))
        return gdl_game_free(g), cli_usage_error(a->cmd, "--engine board prints C, not a dump");
    char *code = emit_board ? rt_board_c(g, &len, &err)
                 : emit_pn  ? rt_pn_c(g, NULL, &len, &err)
                            : rt_back(g, &o, &len, &err);
    if (code && dump && dump->stage == RT_BACK_PLAN) {
        /* the plan of engines jit and aot comes first: whether the network
         * is a candidate (jit:pn, untimed: the answer does not depend on the
         * clock), and the goal-directed code whose plan follows */
        GdlMachine *m = NULL;
        const char *how = gdl_machine_new(g, "jit:pn", &m) == GDL_OK ? gdl_machine_plan(m) : NULL;
        unsigned phases = 0;
        if (how)
            sscanf(how, "propositional network in %u phases", &phases);
        char made[96] = "";
        if (phases)
            snprintf(made, sizeof made, ", made in %u phases (a network per value of whose turn it is)", phases);
        char *head = how && strncmp(how, "propositional network", 21) == 0
                         ? base_sprintf("engines jit and aot: the propositional network%s, unless the goal-directed "
                                        "code below plays faster when the machine is made (the grounding fits "
                                        "their budget); the goal-directed code also answers the states the "
                                        "network cannot hold, and is jit:goal's and aot:goal's\n",
                                        made)
                     : how ? base_sprintf("engines jit and aot: the goal-directed plan below (the grounding passes "
                                          "their budget for the network)\n")
                           : base_sprintf("engines jit and aot: not made (%s)\n", gdl_game_error(g));
        char *both = base_sprintf("%s%.*s", head, (int)len, code);
        len += strlen(head);
        free(head);
        free(code);
        gdl_machine_free(m);
        code = both;
    }
    gdl_game_free(g);
    if (!code) {
        fprintf(stderr, "gdlc emit: %s: %s\n", path, err);
        free(err);
        return CLI_FAULT;
    }
    const char *from = code;
    if (emit_game && !game_part(code, &from, &len)) {
        fprintf(stderr, "gdlc emit: %s: the generated C has no game part (a bug: its markers are missing)\n", path);
        free(code);
        return CLI_FAULT;
    }
    FILE *f = out ? cli_output_open(a->cmd, out, &path, 1) : stdout;
    if (!f) {
        free(code);
        return CLI_USAGE;
    }
    fwrite(from, 1, len, f);
    free(code);
    return cli_output_close(a->cmd, f, out);
}

typedef struct CompileWord {
    const char *path;
    double t0;
} CompileWord;

/* Says what the long part of a compile is, before it starts: on a large
 * game the C compiler takes seconds and nothing else would be printed. */
static void compile_progress(void *ud, size_t lines, size_t bytes)
{
    const CompileWord *w = ud;
    fprintf(stderr, "gdlc compile: %s: %zu lines of C (%zu KB) generated in %.2f s; compiling them with %s %s\n",
            w->path, lines, (bytes + 1023) / 1024, gdl_now() - w->t0, rt_cc(), rt_cc_flags);
}

static int compile_run(CliArgs *a)
{
    const char *path, *out;
    int rc = parse(a, &path, &out, NULL, NULL);
    if (rc != CLI_OK)
        return rc;
    if (!out)
        return cli_usage_error(a->cmd, "give the shared object to write: -o GAME.so");
    if (cli_output_check(a->cmd, out, &path, 1) != CLI_OK)
        return CLI_USAGE;
    GdlGame *g = NULL;
    if ((rc = cli_open_game(path, &g, NULL)) != CLI_OK)
        return rc;
    char *err = NULL;
    double t0 = gdl_now();
    CompileWord w = {path, t0};
    bool ok = rt_compile_so(g, out, compile_progress, &w, &err);
    gdl_game_free(g);
    if (!ok) {
        fprintf(stderr, "gdlc compile: %s: %s\n", path, err);
        free(err);
        return CLI_FAULT;
    }
    fprintf(stderr, "gdlc compile: wrote %s in %.2f s (%s %s); load it with --engine so:%s\n", out, gdl_now() - t0,
            rt_cc(), rt_cc_flags, out);
    return CLI_OK;
}

const CliCommand cli_emit = {
    "emit",
    "print the C the compiler generates for a game",
    "usage: gdlc emit GAME.kif [-o GAME.c] [--no-lines] [--game] [--dump=fold|plan] [--pn]\n"
    "                 [--engine E]\n"
    "\n"
    "Writes the C source of the game's compiled engine (to standard output, or\n"
    "to GAME.c): the declarations of the engine's runtime, then the game (from\n"
    "the line \"==== the game ====\" to \"==== end of the game ====\"): one\n"
    "function per rule and binding pattern, named for the relation, its arity\n"
    "and the pattern, each with the rule in a comment and a #line directive\n"
    "pointing at the .kif; then the runtime's code. It compiles on its own; the\n"
    "same game gives the same bytes.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE  write there instead of standard output (a regular\n"
    "                     file, not the game: see 'gdlc help')\n"
    "  --no-lines         leave out the #line directives\n"
    "  --game             print only the game's part, for reading (it does not\n"
    "                     compile on its own)\n"
    "  --pn               print instead the C of engine pn:compiled: the\n"
    "                     propagation of the game's optimised propositional\n"
    "                     network, one function per component (backend/pncg.h);\n"
    "                     exit 1 past its budget of lines\n"
    "  --engine E         the C of engine E: jit, jit:goal, aot, aot:goal (the\n"
    "                     goal-directed code, the default), pn:compiled (as\n"
    "                     --pn) or board (the board backend: the layout it\n"
    "                     found in a comment, then the state's slots read by\n"
    "                     loops; exit 1 when the board declines the game)\n"
    "  --dump=fold        print the fold pass's answers instead of the C: per\n"
    "                     relation evaluated ahead (NAME/ARITY: N answers), its\n"
    "                     facts\n"
    "  --dump=plan        print the code generator's plan instead of the C:\n"
    "                     how each relation is evaluated (state, move, facts,\n"
    "                     folded N, recursive, rules), the root queries, then\n"
    "                     each query (qN NAME/ARITY PATTERN, b bound, f free)\n"
    "                     with each rule (rN @LINE:COL) and its literals in\n"
    "                     join order, numbered as written, each with how it\n"
    "                     runs (set fsN slot S, yes/no, subsumed, negated,\n"
    "                     recursive or table, and the query), then the fact\n"
    "                     sets and their indexes. Numbers are those of the C.\n"
    "                     The format is described in backend/plan.h.\n"
    "\n"
    "exit status: 0 written, 1 the game is rejected or over a limit, 2 usage\n"
    "error or unreadable file.\n",
    emit_run,
};

const CliCommand cli_compile = {
    "compile",
    "compile a game ahead of time into a shared object",
    "usage: gdlc compile GAME.kif -o GAME.so\n"
    "\n"
    "Generates the game's C and compiles it with the system C compiler at -O2\n"
    "(GDLC_CC, else CC, else cc) into a shared object. Load it later with\n"
    "--engine so:GAME.so (or gdl_machine_new(game, \"so:GAME.so\", ...)); the\n"
    "object records the gdlc version and the hash of the game text, and a\n"
    "mismatch is refused when it is loaded. GAME.so must be a regular file or a\n"
    "new one, and not the game (see 'gdlc help').\n"
    "\n"
    "exit status: 0 written, 1 the game is rejected or the compiler failed, 2\n"
    "usage error or unreadable file.\n",
    compile_run,
};
