/*
 * main.c: the gdlc command line. Each command lives in its own file and is
 * listed here once; `gdlc help NAME` prints its full help, `gdlc help
 * engines` the engines every --engine takes. Whatever a
 * command returns, main checks at exit that all of standard output was
 * written.
 */
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "../include/gdl.h"
#include "cli.h"


static const CliCommand *const commands[] = {
    &cli_check,
    &cli_play,
    &cli_replay,
    &cli_bench,
    &cli_perf_test,
    &cli_correctness_test,
    &cli_verify,
    &cli_emit,
    &cli_compile,
    &cli_propnet,
    &cli_analyze,
    &cli_solve,
    &cli_check_proof,
    &cli_player,
    &cli_match,
    &cli_balance,
    &cli_pie,
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f)
{
    fprintf(f, "usage: gdlc COMMAND [options] ...\n\n"
               "gdlc compiles General Game Playing rules (GDL in KIF) into fast state machines.\n\n"
               "commands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-16s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "  %-16s %s\n", "help", "describe a command: gdlc help COMMAND; the engines: gdlc help engines");
    fprintf(f, "\n  --version    print the version\n  --help       this text\n"
               "\nexit status: 0 success, 1 the input is at fault or a check failed, 2 usage error, unreadable\n"
               "file or output that cannot be written\n"
               "\noutput files: a file a command writes (-o FILE, perf-test's RESULTS_FILE) must be a\n"
               "regular file or a new one, and never one of the command's inputs (however the path\n"
               "is spelled); devices, fifos and directories are refused with exit 2. Standard output\n"
               "may be anything. Every write is checked: output that is lost (a full disk,\n"
               "/dev/full) exits 2 with a message naming the file.\n");
}

/* gdlc help engines: every name --engine takes, from the library's list
 * (gdl_engines), one line each. */
static void engines(FILE *f)
{
    fprintf(f, "usage: gdlc COMMAND --engine NAME ...\n\n"
               "The engines every --engine takes (and gdl_machine_new, gdl_engines in\n"
               "include/gdl.h); N stands for a number, PATH for a file, and the options of\n"
               "pn combine with commas (pn:compiled,max-lines=N,no-phases). Every engine\n"
               "answers every query as ref does; they differ in speed and in what making a\n"
               "machine costs (README: Engines, docs/engines.md).\n\n");
    for (const GdlEngineInfo *e = gdl_engines(); e->name; e++) {
        /* the name at column 2, its summary from column 16, wrapped at 79 */
        int col = fprintf(f, "  %s", e->name);
        if (col > 14) { /* a long name: its summary on the next line */
            fputc('\n', f);
            col = 0;
        }
        const char *w = e->summary;
        while (*w) {
            size_t len = strcspn(w, " ");
            if (col >= 16 && col + 1 + (int)len > 79) {
                fputc('\n', f);
                col = 0;
            }
            col += col < 16 ? fprintf(f, "%*s%.*s", 16 - col, "", (int)len, w) : fprintf(f, " %.*s", (int)len, w);
            w += len;
            w += *w == ' ';
        }
        fputc('\n', f);
    }
}

static const CliCommand *find(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("gdlc %s\n", gdl_version());
        return CLI_OK;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return CLI_OK;
        }
        if (strcmp(argv[2], "engines") == 0) {
            engines(stdout);
            return CLI_OK;
        }
        const CliCommand *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "gdlc: no command '%s' (see 'gdlc help'; the engines: 'gdlc help engines')\n", argv[2]);
            return CLI_USAGE;
        }
        fputs(c->help, stdout);
        return CLI_OK;
    }
    const CliCommand *c = find(cmd);
    if (!c) {
        fprintf(stderr, "gdlc: no command '%s' (see 'gdlc --help')\n", cmd);
        return CLI_USAGE;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(c->help, stdout);
            return CLI_OK;
        }
    CliArgs a = {argc, argv, 2, c->name};
    /* Memory running out in the driver's own work (the library's calls
     * return GDL_OUT_OF_MEMORY themselves) ends the command with a message,
     * not an abort. */
    BaseOom oom;
    base_oom_push(&oom);
    if (BASE_OOM_SETJMP(&oom)) {
        fflush(stdout);
        fprintf(stderr, "gdlc %s: %s (the process's memory limit was reached)\n", c->name,
                oom.what ? oom.what : "out of memory");
        return CLI_FAULT;
    }
    int status = c->run(&a);
    base_oom_pop(&oom);
    return status;
}

/* Making a machine allocates and frees tens of megabytes in bursts (the
 * grounder's tables, the network's passes). glibc's thresholds start low
 * and rise with the blocks freed, so early in a load freed blocks go back
 * to the system and the next ones are faulted in anew, page by page: a
 * sixth of chess_200's load to ready was spent in the kernel. Fixed
 * thresholds (the heap serves blocks below 32 MiB and keeps up to 64 MiB
 * free), pinned, two rounds: chess_200's jit ready 963/973 -> 808/843 ms,
 * its peak 51 -> 58 MiB. gdlc's own process only: a program that embeds
 * the library chooses its allocator's settings (bench/'s keep glibc's). */
static void tune_malloc(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

/* Output that never reached standard output (a full disk, /dev/full, a
 * closed pipe) is a failure, whatever the command did: exit 2. */
int main(int argc, char **argv)
{
    tune_malloc();
    int rc = run(argc, argv);
    if (cli_output_close(argc > 1 ? argv[1] : "", stdout, NULL) != CLI_OK)
        return CLI_USAGE;
    return rc;
}
