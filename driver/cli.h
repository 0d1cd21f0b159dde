/*
 * cli.h: what the gdlc commands share: exit codes, option parsing, loading
 * a game with its diagnostics printed.
 */
#ifndef GDLC_CLI_H
#define GDLC_CLI_H

#include "../frontend/front.h"
#include "../include/gdl.h"
#include "../middle/ground.h"

enum {
    CLI_OK = 0,      /* success */
    CLI_FAULT = 1,   /* the input is at fault or a check failed */
    CLI_USAGE = 2,   /* a usage error, or a file that cannot be read */
};

typedef struct CliArgs {
    int argc;
    char **argv;
    int i;           /* next argument */
    const char *cmd; /* command name, for messages */
} CliArgs;

/* Option matching: on "--name=value" or "--name value" stores the value and
 * returns true; reports a missing value and sets *bad. */
bool cli_opt_value(CliArgs *a, const char *name, const char **value, bool *bad);
bool cli_opt_flag(CliArgs *a, const char *name);
bool cli_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
bool cli_parse_double(const char *cmd, const char *opt, const char *s, double *out);
int cli_usage_error(const char *cmd, const char *fmt, ...) BASE_PRINTF(2, 3);
/* The argument at a->i, which no option matched, as the command's one game
 * file: stored in *path and CLI_OK; CLI_USAGE after a message for an
 * unknown option or a second file. */
int cli_take_game(CliArgs *a, const char **path);

/* --dump=NAME: a stage a command can print, one row per stage in the
 * command's table (check_dumps in cli.c, emit_dumps in compile.c). */
/* What a dump may need besides the game: the grounding budgets, whether
 * --time was given, the file's name for messages. */
typedef struct CliDumpCtx {
    GroundLimits lim;
    bool timing;
    const char *path;
} CliDumpCtx;

typedef struct CliDump {
    const char *name; /* NAME */
    uint32_t stage;   /* check: the FrontStage the game must reach; emit: the RtBackStop */
    /* check: prints the stage of f to out; CLI_OK, or CLI_FAULT after a
     * message. NULL for emit, whose back half prints it. */
    int (*print)(FILE *out, const Front *f, const CliDumpCtx *ctx);
} CliDump;
/* Reads --max-atoms N, --max-rules N or --max-links N at a->i into lim:
 * CLI_OK when one was read, CLI_USAGE after a message for a bad one, -1
 * when the argument is none of them. */
int cli_opt_budget(CliArgs *a, GroundLimits *lim);
/* The row of table[0..n) named value, or NULL after a usage error that
 * names the rows. */
const CliDump *cli_dump_find(const char *cmd, const CliDump *table, size_t n, const char *value);

/* Output files. Every file a command writes (-o, perf-test's RESULTS_FILE,
 * compile's object) keeps one rule: it is a regular file or does not exist
 * yet, and it is none of the command's input files, compared by device and
 * inode, so that another spelling of the path, a symbolic or a hard link is
 * caught too. A refusal prints a message naming the file and the command
 * exits 2 before writing anything. Standard output may be anything (a
 * terminal, a pipe, /dev/null, /dev/full); every write to it and to an
 * output file is checked, and a write that is lost exits 2 too. */

/* CLI_OK when out may be written (or replaced by a rename), else CLI_USAGE
 * after the message. inputs[0..ninputs) are the command's input files. */
int cli_output_check(const char *cmd, const char *out, const char *const *inputs, size_t ninputs);
/* The input files of a command that plays: the game, and the object of an
 * so:PATH engine; returns how many (inputs holds two). */
size_t cli_inputs(const char *game, const char *engine, const char **inputs);
/* cli_output_check, then opens out for writing, emptied; NULL after the
 * message. */
FILE *cli_output_open(const char *cmd, const char *out, const char *const *inputs, size_t ninputs);
/* Closes an output file (stdout is flushed, not closed). CLI_OK when every
 * write reached it, else CLI_USAGE after a message naming the file (out, or
 * "standard output" when NULL). */
int cli_output_close(const char *cmd, FILE *f, const char *out);

/* Loads and checks a game, printing its diagnostics to stderr. Returns
 * CLI_OK, CLI_FAULT (rejected) or CLI_USAGE (unreadable). */
int cli_load_game(const char *path, Front *f, bool show_warnings);

/* Loads a game through the public API, its diagnostics (errors only) to
 * stderr. Returns CLI_OK, CLI_FAULT (rejected) or CLI_USAGE (unreadable);
 * on failure, when why is not NULL, *why gets the reason in one line (the
 * read error, or the first error as FILE:LINE:COL: error: message),
 * malloc-ed. */
struct GdlGame;
int cli_open_game(const char *path, struct GdlGame **game, char **why);

/* What to add to the message of a machine that could not be made: for an
 * unknown engine, where the engines are listed ("" otherwise). */
const char *cli_engine_hint(GdlStatus st);
/* Loads a game as cli_open_game does and makes its machine on engine (NULL:
 * the default), what every command that plays or reads a game opens first.
 * A machine that cannot be made is reported on stderr as "gdlc CMD: reason"
 * ("gdlc: reason" when cmd is NULL). CLI_OK with both set; otherwise neither
 * is left open, and CLI_USAGE (an unreadable game, an unknown engine or an
 * so: object that cannot be read) or CLI_FAULT; *why, when why is not NULL,
 * gets the reason in one line (malloc-ed). */
struct GdlMachine;
int cli_open_machine(const char *cmd, const char *path, const char *engine, struct GdlGame **game,
                     struct GdlMachine **m, char **why);

/* Writes s as a field of a one-line header (a trace's "; game: PATH"):
 * a backslash, a newline, a tab and the other control bytes as C escapes
 * (\\, \n, \t, \xNN), every other byte as it is, so that a file name
 * holding a newline cannot end the line. */
void cli_put_line_field(FILE *f, const char *s);

/* --state FACTS, read as a state of m's game. Text that is not KIF, and a
 * fact outside the game's base propositions (gdl_machine_base_propositions, a
 * superset of every fact it can hold: a typo such as (cel 1 1 x) would
 * silently give another state), is an error located in the text
 * (--state:1:COL with a caret), the latter naming the nearest base
 * proposition. CLI_OK with *out, or CLI_FAULT after the messages. A game
 * with more than CLI_STATE_MAX_PROPS base propositions is read unchecked,
 * with a note. */
enum { CLI_STATE_MAX_PROPS = 1 << 20 };
struct GdlMachine;
struct GdlState;
int cli_read_state(const char *cmd, struct GdlMachine *m, const char *text, struct GdlState **out);

/* The build identifier perf-test's version= carries (correctness.c). */
const char *cli_build_id(void);

typedef struct CliCommand {
    const char *name;
    const char *summary; /* one line for `gdlc --help` */
    const char *help;    /* the full text for `gdlc help NAME` */
    int (*run)(CliArgs *a);
} CliCommand;

extern const CliCommand cli_check, cli_play, cli_replay, cli_bench, cli_perf_test, cli_verify, cli_emit,
    cli_compile, cli_correctness_test, cli_propnet, cli_analyze, cli_solve, cli_check_proof, cli_player, cli_match, cli_balance, cli_pie;

#endif
