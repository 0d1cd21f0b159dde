/*
 * player.c: gdlc player, the HTTP player of player/server.c on the command
 * line: it listens for a game manager (GGP-Base's GameServer, ggp.org's
 * Tiltyard, gdlc match) and plays each match it is sent with a session of
 * its own (player/session.c), until SIGINT or SIGTERM.
 *
 * It prints "gdlc player: listening on port N" on stderr once bound (with
 * --port 0 the system picks N: scripts read it there), one line per request
 * on stderr, and with --log DIR one log per match in DIR.
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../player/player.h"
#include "cli.h"

static volatile sig_atomic_t player_stop;

/* SIGINT or SIGTERM ends the player within a second whatever is running.
 * The serving loop stops every search and wait and joins every thread, but
 * a few steps of a START cannot be interrupted (reading megabytes of rules,
 * libtcc compiling them): past STOP_GRACE seconds after the signal the
 * process ends at once (_exit, status 0 as after an orderly stop; every
 * log line is already written). The sanitizer builds, ten times slower,
 * get longer, so that their orderly stop and leak check still run. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STOP_GRACE_NS 4000000000L
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define STOP_GRACE_NS 4000000000L
#endif
#endif
#ifndef STOP_GRACE_NS
#define STOP_GRACE_NS 750000000L
#endif
static timer_t stop_timer;
static bool stop_timer_made;

static void on_signal(int sig)
{
    (void)sig;
    if (!player_stop && stop_timer_made) {
        struct itimerspec it = {{0, 0}, {STOP_GRACE_NS / 1000000000L, STOP_GRACE_NS % 1000000000L}};
        timer_settime(stop_timer, 0, &it, NULL); /* async-signal-safe */
    }
    player_stop = 1;
}

static void on_grace_over(int sig)
{
    (void)sig;
    static const char msg[] = "gdlc player: stopped (forced: work that cannot be interrupted was still running)\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(0);
}

typedef struct PlayerCli {
    PlayerServerOptions so;
    const char *strategy;
} PlayerCli;

static bool name_ok(const char *s)
{
    if (!*s || *s == '?')
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              strchr("!$%&*+-./<=>@_~?", *s)))
            return false;
    return true;
}

static int parse_opts(CliArgs *a, PlayerCli *c)
{
    const char *v;
    bool bad = false;
    uint64_t n = 0;
    while (a->i < a->argc) {
        if (cli_opt_flag(a, "--no-analyses"))
            c->so.play.analyses = false;
        else if (cli_opt_value(a, "--port", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--port", v, &n))
                return CLI_USAGE;
            if (!bad && (n > 65535))
                return cli_usage_error(a->cmd, "--port takes a port number from 0 to 65535");
            c->so.port = (unsigned)n;
        } else if (cli_opt_value(a, "--threads", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--threads", v, &n))
                return CLI_USAGE;
            if (!bad && (n < 1 || n > 256))
                return cli_usage_error(a->cmd, "--threads takes a number from 1 to 256");
            c->so.play.threads = (unsigned)n;
        } else if (cli_opt_value(a, "--max-matches", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--max-matches", v, &n))
                return CLI_USAGE;
            if (!bad && (n < 1 || n > 1024))
                return cli_usage_error(a->cmd, "--max-matches takes a number from 1 to 1024");
            c->so.max_matches = (unsigned)n;
        } else if (cli_opt_value(a, "--playouts", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--playouts", v, &c->so.play.playouts))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--seed", &v, &bad)) {
            if (!bad && !cli_parse_u64(a->cmd, "--seed", v, &c->so.play.seed))
                return CLI_USAGE;
        } else if (cli_opt_value(a, "--margin", &v, &bad)) {
            if (!bad && (!cli_parse_double(a->cmd, "--margin", v, &c->so.play.margin) || c->so.play.margin < 0))
                return cli_usage_error(a->cmd, "--margin takes a non-negative number of seconds");
        } else if (cli_opt_value(a, "--engine", &v, &bad)) {
            if (!bad)
                c->so.play.engine = v;
        } else if (cli_opt_value(a, "--strategy", &v, &bad)) {
            if (!bad)
                c->strategy = v;
        } else if (cli_opt_value(a, "--log", &v, &bad)) {
            if (!bad)
                c->so.log_dir = v;
        } else if (cli_opt_value(a, "--name", &v, &bad)) {
            if (!bad && !name_ok(v))
                return cli_usage_error(a->cmd, "--name takes one KIF symbol (letters, digits, - _ . and the like)");
            c->so.name = v;
        } else if (bad)
            return CLI_USAGE;
        else if (a->argv[a->i][0] == '-' && a->argv[a->i][1])
            return cli_usage_error(a->cmd, "unknown option '%s'", a->argv[a->i]);
        else
            return cli_usage_error(a->cmd, "unexpected argument '%s' (the player takes its games from the manager)",
                                   a->argv[a->i]);
        if (bad)
            return CLI_USAGE;
    }
    if (c->strategy) {
        if (strcmp(c->strategy, "random") == 0)
            c->so.play.strategy = PLAY_RANDOM;
        else if (strcmp(c->strategy, "flat") == 0)
            c->so.play.strategy = PLAY_FLAT;
        else if (strcmp(c->strategy, "mcts") == 0)
            c->so.play.strategy = PLAY_MCTS;
        else
            return cli_usage_error(a->cmd, "--strategy takes random, flat or mcts, not '%s'", c->strategy);
    }
    return CLI_OK;
}

/* --log DIR: made when missing (one level), and a directory. */
static int log_dir_check(const char *cmd, const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gdlc %s: --log: cannot make the folder %s: %s\n", cmd, dir, strerror(errno));
        return CLI_USAGE;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gdlc %s: --log: %s is not a folder\n", cmd, dir);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int run(CliArgs *a)
{
    PlayerCli c;
    memset(&c, 0, sizeof c);
    play_options_default(&c.so.play);
    c.so.port = 9147;
    c.so.name = "gdlc";
    c.so.log = stderr;
    int rc = parse_opts(a, &c);
    if (rc != CLI_OK)
        return rc;
    if (c.so.log_dir && (rc = log_dir_check(a->cmd, c.so.log_dir)) != CLI_OK)
        return rc;
#ifdef __GLIBC__
    /* The player makes and ends threads all the time (a thread per
     * connection, a START's, its searches', its analysis's), and glibc
     * gives threads malloc arenas of their own, up to eight per core:
     * memory freed into one stays with it, and the soak's RSS grew from
     * 114 MB to 362 MB in 40 s of matches that all ended (from 52 MB to
     * 55 MB with one arena). A few arenas, one per search thread and one
     * more, keep it bounded. */
    mallopt(M_ARENA_MAX, (int)(c.so.play.threads > 1 ? c.so.play.threads + 1 : 2));
#endif
    player_stop = 0;
    struct sigaction sa, old_int, old_term, old_pipe, old_grace;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    /* the grace timer: SIGUSR2 when it runs out */
    sa.sa_handler = on_grace_over;
    sigaction(SIGUSR2, &sa, &old_grace);
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = SIGUSR2;
    stop_timer_made = timer_create(CLOCK_MONOTONIC, &sev, &stop_timer) == 0;
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_handler = SIG_IGN; /* a manager hanging up must not end the player */
    sigaction(SIGPIPE, &sa, &old_pipe);
    int st = player_serve(&c.so, &player_stop, stderr);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    if (stop_timer_made) {
        timer_delete(stop_timer);
        stop_timer_made = false;
    }
    sigaction(SIGUSR2, &old_grace, NULL);
    return st == 0 ? CLI_OK : CLI_USAGE;
}

const CliCommand cli_player = {
    "player",
    "play GGP matches over HTTP (for GGP-Base, Tiltyard, gdlc match)",
    "usage: gdlc player [--port N] [--threads T] [--engine E] [--log DIR] [--name NAME]\n"
    "                   [--max-matches N] [--strategy random|flat|mcts] [--playouts N]\n"
    "                   [--margin S] [--seed N] [--no-analyses]\n"
    "\n"
    "Serves the GGP protocol over HTTP, as GGP-Base's players do (docs/player.md):\n"
    "a game manager POSTs (INFO), (PREVIEW ...), (START id role rules startclock\n"
    "playclock), (PLAY id moves), (STOP id moves) and (ABORT id). At START the\n"
    "rules are compiled in-process and the start clock spent on analyses and\n"
    "the solver; each PLAY is answered with a move, spelled as the manager's\n"
    "rules spell it, before the play clock ends. Several matches go on at\n"
    "once, each with its own machines. Rules gdlc rejects are logged with their\n"
    "diagnostics and answered as GGP-Base's players answer when they fail\n"
    "(busy, then nil), so that the manager plays a random legal move for us.\n"
    "\n"
    "  --port N         the port (default 9147, as GGP-Base's players; 0: any\n"
    "                   free port, printed as \"listening on port N\" on stderr)\n"
    "  --threads T      search threads per match (default 1)\n"
    "  --engine E       the engine of the machines (default jit; a game the\n"
    "                   engine cannot make is played on ref)\n"
    "  --log DIR        one log per match in DIR (made when missing), named\n"
    "                   after the match id\n"
    "  --name NAME      the name INFO answers (default gdlc)\n"
    "  --max-matches N  matches at once (default 16); a START beyond gets busy\n"
    "  --strategy S     random, flat (flat Monte-Carlo) or mcts (UCT, default)\n"
    "  --playouts N     playouts per move (default 0: as many as the clock allows)\n"
    "  --margin S       seconds kept back before each deadline (default, and 0:\n"
    "                   0.25, or a quarter of the time left when that is less;\n"
    "                   the server keeps 0.5 s of every clock for the reply besides)\n"
    "  --seed N         the search's random numbers\n"
    "  --no-analyses    play without the analyses and the solver\n"
    "\n"
    "One line per request goes to stderr. SIGINT or SIGTERM ends the player\n"
    "cleanly: the requests in flight are answered, the matches dropped.\n"
    "\n"
    "exit status: 0 after SIGINT or SIGTERM; 2 a usage error or a port that\n"
    "cannot be bound\n",
    run};
