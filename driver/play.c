/*
 * play.c: the commands that play games: play, replay, bench, perf-test and
 * verify.
 *
 * Random playthroughs are the same everywhere: from the initial state, until
 * terminal (or --max-steps joint moves), each role in order draws its move
 * uniformly from its legal moves sorted canonically, with gdl_rng_below on
 * one generator seeded by --seed. Same seed, same playthrough, on every
 * engine and every machine.
 *
 * Time budgets (bench, perf-test, verify's --seconds) are checked between
 * playouts or steps, and also set as the machines' deadline a little later
 * (deadline_grace), so that a single query that runs away (facts that
 * square every step) returns GDL_CANCELLED instead of running until killed.
 * A playout cut that way counts its state changes but is not a playout.
 *
 * replay checks a trace's structure (docs/trace-format.md) as it reads it,
 * form by form, together with its contents: the first missing, misplaced or
 * duplicate line is reported at its location.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <pthread.h>

#include "../include/gdl.h"
#include "../runtime/trace.h"
#include "cli.h"

/* ---- shared ----------------------------------------------------------- */

typedef struct Session {
    GdlGame *game;
    GdlMachine *m;
    double t_start, t_ready; /* load started; machine ready */
    bool aot_compiled;       /* engine aot: the cache gained or changed an
                                object while the machine was made */
} Session;

/* The newest modification time among the objects of the aot cache (where
 * runtime/compiled.c puts them), and how many there are: what changes when
 * making an aot machine compiled the game rather than loading it. */
static void aot_cache_look(double *newest, long *count)
{
    *newest = 0;
    *count = 0;
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *dir = x && *x == '/' ? base_sprintf("%s/gdlc", x) : home ? base_sprintf("%s/.cache/gdlc", home) : NULL;
    DIR *d = dir ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        struct stat st;
        if (n < 3 || strcmp(e->d_name + n - 3, ".so") != 0 || fstatat(dirfd(d), e->d_name, &st, 0) != 0)
            continue;
        double t = (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
        *newest = t > *newest ? t : *newest;
        (*count)++;
    }
    if (d)
        closedir(d);
    free(dir);
}

/* Loads the game and makes the machine, reporting problems; on failure,
 * when why is not NULL, *why gets the reason in one line (malloc-ed). */
static int session_open(Session *s, const char *path, const char *engine, char **why)
{
    memset(s, 0, sizeof *s);
    s->t_start = gdl_now();
    bool aot = engine && strncmp(engine, "aot", 3) == 0 && (!engine[3] || engine[3] == ':');
    double newest0 = 0, newest1 = 0;
    long count0 = 0, count1 = 0;
    if (aot)
        aot_cache_look(&newest0, &count0);
    int rc = cli_open_machine(NULL, path, engine, &s->game, &s->m, why);
    if (rc != CLI_OK)
        return rc;
    s->t_ready = gdl_now();
    if (aot) {
        aot_cache_look(&newest1, &count1);
        s->aot_compiled = count1 != count0 || newest1 != newest0;
    }
    return CLI_OK;
}

static void session_close(Session *s)
{
    gdl_machine_free(s->m);
    gdl_game_free(s->game);
}

typedef struct PlayOpts {
    const char *engine;
    uint64_t seed;
    uint64_t max_steps;
    double seconds;
    const char *out;
    bool json;
    bool seconds_given;
    uint64_t playouts;  /* verify's --playouts, at least 1 */
    unsigned batch;     /* bench's and verify's --batch: lanes (0: one machine) */
    unsigned threads;   /* bench --batch's --threads (default 1) */
    int batch_eval;     /* --batch-eval: GDL_BATCH_EVAL_* + 1 (0: the batch's choice) */
} PlayOpts;

/* Parses the options the playing commands share; positional arguments are
 * collected in pos. Returns false after reporting a usage error. */
static bool parse_play_opts(CliArgs *a, PlayOpts *o, const char **pos, int maxpos, int *npos)
{
    *npos = 0;
    while (a->i < a->argc) {
        const char *v = NULL, *arg = a->argv[a->i];
        bool bad = false;
        if (cli_opt_value(a, "--engine", &v, &bad)) {
            if (bad)
                return false;
            o->engine = v;
        } else if (cli_opt_value(a, "--seed", &v, &bad)) {
            if (bad || !cli_parse_u64(a->cmd, "--seed", v, &o->seed))
                return false;
        } else if (cli_opt_value(a, "--max-steps", &v, &bad)) {
            if (bad || !cli_parse_u64(a->cmd, "--max-steps", v, &o->max_steps))
                return false;
        } else if (cli_opt_value(a, "--seconds", &v, &bad)) {
            if (bad || !cli_parse_double(a->cmd, "--seconds", v, &o->seconds))
                return false;
            o->seconds_given = true;
        } else if (cli_opt_value(a, "-o", &v, &bad) || cli_opt_value(a, "--output", &v, &bad)) {
            if (bad)
                return false;
            if (strcmp(a->cmd, "play") != 0) {
                cli_usage_error(a->cmd, "%s writes no file: -o is for gdlc play", a->cmd);
                return false;
            }
            o->out = v;
        } else if (cli_opt_value(a, "--playouts", &v, &bad)) {
            if (bad || !cli_parse_u64(a->cmd, "--playouts", v, &o->playouts))
                return false;
            if (strcmp(a->cmd, "verify") != 0) {
                cli_usage_error(a->cmd, "--playouts is for gdlc verify");
                return false;
            }
            if (o->playouts == 0) {
                cli_usage_error(a->cmd, "--playouts takes at least 1 (a verify of no playout checks nothing)");
                return false;
            }
        } else if (cli_opt_value(a, "--batch", &v, &bad) || cli_opt_value(a, "--threads", &v, &bad)) {
            bool batch = strncmp(arg, "--batch", 7) == 0;
            const char *name = batch ? "--batch" : "--threads";
            uint64_t x = 0;
            if (bad || !cli_parse_u64(a->cmd, name, v, &x))
                return false;
            if (strcmp(a->cmd, "bench") != 0 && (strcmp(a->cmd, "verify") != 0 || !batch)) {
                cli_usage_error(a->cmd, "%s is for gdlc bench%s", name, batch ? " and gdlc verify" : " --batch");
                return false;
            }
            if (batch && (x == 0 || x % 64 || x > GDL_BATCH_MAX_LANES)) {
                cli_usage_error(a->cmd, "--batch takes a multiple of 64 from 64 to %u lanes, not %s",
                                GDL_BATCH_MAX_LANES, v);
                return false;
            }
            if (!batch && (x == 0 || x > 256)) {
                cli_usage_error(a->cmd, "--threads takes 1 to 256, not %s", v);
                return false;
            }
            *(batch ? &o->batch : &o->threads) = (unsigned)x;
        } else if (cli_opt_value(a, "--batch-eval", &v, &bad)) {
            if (bad)
                return false;
            if (strcmp(v, "full") != 0 && strcmp(v, "changes") != 0 && strcmp(v, "auto") != 0) {
                cli_usage_error(a->cmd, "--batch-eval takes full, changes or auto, not '%s'", v);
                return false;
            }
            if (strcmp(a->cmd, "bench") != 0 && strcmp(a->cmd, "verify") != 0) {
                cli_usage_error(a->cmd, "--batch-eval is for gdlc bench --batch and gdlc verify --batch");
                return false;
            }
            o->batch_eval = strcmp(v, "full") == 0      ? GDL_BATCH_EVAL_FULL + 1
                            : strcmp(v, "changes") == 0 ? GDL_BATCH_EVAL_CHANGES + 1
                                                        : 0;
        } else if (cli_opt_flag(a, "--json")) {
            if (strcmp(a->cmd, "bench") != 0) {
                cli_usage_error(a->cmd, "--json is for gdlc bench");
                return false;
            }
            o->json = true;
        } else if (arg[0] == '-' && arg[1]) {
            cli_usage_error(a->cmd, "unknown option '%s'", arg);
            return false;
        } else {
            if (*npos == maxpos) {
                cli_usage_error(a->cmd, "too many arguments ('%s')", arg);
                return false;
            }
            pos[(*npos)++] = arg;
            a->i++;
        }
    }
    return true;
}

static void print_moves(FILE *f, GdlMachine *m, const GdlMove *moves, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s", gdl_move_text(m, moves[i]));
}

static void write_state(FILE *f, GdlMachine *m, const GdlState *s)
{
    fputs("(state", f);
    for (size_t i = 0; i < gdl_state_size(s); i++)
        fprintf(f, " %s", gdl_state_fact(m, s, i));
    fputs(")\n", f);
}

typedef struct PlayResult {
    uint64_t steps;     /* joint moves made */
    bool capped;        /* stopped by max_steps */
    int goals[64];      /* when terminal, for up to 64 roles */
} PlayResult;

/* The states a run of playouts plays in: the initial state, made once and
 * only read, and two the steps write into by turns, kept from playout to
 * playout, as the peers' harnesses keep theirs: once they have grown, a
 * playout allocates nothing. */
typedef struct Playing {
    GdlState *init, *buf[2];
} Playing;

static GdlStatus playing_open(GdlMachine *m, Playing *pl)
{
    *pl = (Playing){0};
    return gdl_state_initial(m, &pl->init);
}

static void playing_close(Playing *pl)
{
    gdl_state_free(pl->init);
    gdl_state_free(pl->buf[0]);
    gdl_state_free(pl->buf[1]);
}

/* One random playthrough from pl's initial state; writes a trace when f
 * is not NULL. On failure the machine's error says what happened. */
static GdlStatus playout(GdlMachine *m, const GdlGame *g, GdlRng *rng, uint64_t max_steps, FILE *f, PlayResult *res,
                         GdlMove *joint, int *goals, Playing *pl)
{
    unsigned nroles = gdl_game_role_count(g);
    const GdlState *s = pl->init;
    GdlStatus st = GDL_OK;
    res->steps = 0;
    res->capped = false;
    if (f) {
        fputs("(roles", f);
        for (unsigned k = 0; k < nroles; k++)
            fprintf(f, " %s", gdl_game_role_name(g, k));
        fputs(")\n", f);
    }
    while (st == GDL_OK) {
        bool terminal;
        if (f)
            fprintf(f, "(step %llu)\n", (unsigned long long)res->steps), write_state(f, m, s);
        if ((st = gdl_state_is_terminal(m, s, &terminal)) != GDL_OK)
            break;
        if (terminal) {
            if ((st = gdl_state_goals(m, s, goals)) != GDL_OK)
                break;
            if (f) {
                fputs("(terminal)\n(goals", f);
                for (unsigned k = 0; k < nroles; k++)
                    fprintf(f, " %d", goals[k]);
                fputs(")\n", f);
            }
            break;
        }
        for (unsigned k = 0; k < nroles && st == GDL_OK; k++) {
            const GdlMove *moves;
            size_t n;
            if ((st = gdl_state_legal(m, s, k, &moves, &n)) != GDL_OK)
                break;
            if (f) {
                fprintf(f, "(legal %s", gdl_game_role_name(g, k));
                print_moves(f, m, moves, n);
                fputs(")\n", f);
            }
            joint[k] = moves[gdl_rng_below(rng, n)];
        }
        if (st != GDL_OK)
            break;
        if (res->steps == max_steps) {
            res->capped = true;
            break;
        }
        if (f) {
            fputs("(does", f);
            print_moves(f, m, joint, nroles);
            fputs(")\n", f);
        }
        /* into the buffer s is not, as a player's loop does */
        GdlState **into = &pl->buf[s == pl->buf[0]];
        if ((st = gdl_state_next_into(m, s, joint, into)) != GDL_OK)
            break;
        s = *into;
        res->steps++;
    }
    return st;
}

/* For the commands that take one game: parses the options into o (which
 * holds the defaults), and opens the game. */
static int open_one_game(CliArgs *a, PlayOpts *o, Session *s, const char **path)
{
    int npos;
    if (!parse_play_opts(a, o, path, 1, &npos))
        return CLI_USAGE;
    if (npos != 1)
        return cli_usage_error(a->cmd, "give one game file");
    const char *inputs[2];
    if (o->out && cli_output_check(a->cmd, o->out, inputs, cli_inputs(*path, o->engine, inputs)) != CLI_OK)
        return CLI_USAGE;
    return session_open(s, *path, o->engine, NULL);
}

/* ---- gdlc play -------------------------------------------------------- */

static int play_run(CliArgs *a)
{
    PlayOpts o = {.seed = 1, .max_steps = 10000};
    const char *pos[1];
    Session s;
    int rc = open_one_game(a, &o, &s, pos);
    if (rc != CLI_OK)
        return rc;
    FILE *f = stdout;
    const char *inputs[2];
    if (o.out && !(f = cli_output_open(a->cmd, o.out, inputs, cli_inputs(pos[0], o.engine, inputs)))) {
        session_close(&s);
        return CLI_USAGE;
    }
    fputs("; game: ", f);
    cli_put_line_field(f, pos[0]);
    fprintf(f, "\n; engine: gdlc %s ", gdl_version());
    cli_put_line_field(f, gdl_machine_engine(s.m));
    fprintf(f, ", seed %llu\n", (unsigned long long)o.seed);
    unsigned nroles = gdl_game_role_count(s.game);
    GdlMove *joint = base_xcalloc(nroles + 1, sizeof *joint);
    int *goals = base_xcalloc(nroles + 1, sizeof *goals);
    GdlRng rng;
    gdl_rng_seed(&rng, o.seed);
    PlayResult res = {0};
    Playing pl;
    GdlStatus st = playing_open(s.m, &pl);
    if (st == GDL_OK)
        st = playout(s.m, s.game, &rng, o.max_steps, f, &res, joint, goals, &pl);
    playing_close(&pl);
    if (o.out && cli_output_close(a->cmd, f, o.out) != CLI_OK)
        rc = CLI_USAGE;
    if (st != GDL_OK) {
        fprintf(stderr, "gdlc play: %s: step %llu: %s\n", pos[0], (unsigned long long)res.steps,
                gdl_machine_error(s.m));
        rc = rc == CLI_OK ? CLI_FAULT : rc;
    } else if (res.capped) {
        fprintf(stderr, "gdlc play: stopped after %llu steps (--max-steps)\n", (unsigned long long)res.steps);
    }
    free(joint);
    free(goals);
    session_close(&s);
    return rc;
}

const CliCommand cli_play = {
    "play",
    "play one random playthrough and write its trace",
    "usage: gdlc play GAME.kif [--engine E] [--seed N] [--max-steps K] [-o TRACE]\n"
    "\n"
    "Plays one random playthrough and writes it as a trace (docs/trace-format.md):\n"
    "every state, every role's legal moves, the joint moves, and at a terminal\n"
    "end the goals. Each role's move is drawn uniformly from its legal moves\n"
    "sorted canonically, with gdlc's generator (SplitMix64) seeded by --seed, so\n"
    "a seed gives the same playthrough on every engine and machine.\n"
    "\n"
    "options:\n"
    "  --engine E      jit (default), aot, pn, ref, so:PATH and their options:\n"
    "                  every name in 'gdlc help engines'\n"
    "  --seed N        the seed (default 1)\n"
    "  --max-steps K   stop after K joint moves (default 10000)\n"
    "  -o, --output F  write the trace to F instead of stdout (a regular file,\n"
    "                  not the game: see 'gdlc help')\n"
    "\n"
    "exit status: 0 played to the end or to --max-steps, 1 the game is rejected\n"
    "or faults on the way, 2 usage error, unreadable game or unwritable output.\n",
    play_run,
};

/* ---- gdlc replay ------------------------------------------------------ */


/* Reads and replays one trace (runtime/trace.c). CLI_OK when the engine
 * agrees everywhere (or the time cap stopped it, reported); CLI_FAULT on a
 * divergence, a bad trace or one too large; CLI_USAGE when it cannot be
 * read. */
static int replay_one(const char *path, GdlMachine *m, const GdlGame *g, double cap, uint64_t *steps_checked,
                      bool *capped)
{
    size_t len;
    char *err = NULL;
    bool big;
    char *text = base_read_file(path, &len, &err, &big);
    if (!text) {
        /* too large is the trace's fault (exit 1), unreadable is exit 2 */
        fprintf(stderr, big ? "gdlc replay: %s: %s\n" : "gdlc replay: %.0s%s\n", path, err);
        free(err);
        return big ? CLI_FAULT : CLI_USAGE;
    }
    TraceVerdict v = trace_replay(m, g, path, text, len, cap, stderr, steps_checked, capped);
    free(text);
    return v == TRACE_AGREES ? CLI_OK : CLI_FAULT;
}

static int replay_run(CliArgs *a)
{
    PlayOpts o = {0};
    /* as many traces as the command line holds */
    const char **pos = base_xcalloc((size_t)a->argc + 1, sizeof *pos);
    int npos;
    if (!parse_play_opts(a, &o, pos, a->argc, &npos)) {
        free(pos);
        return CLI_USAGE;
    }
    Session s;
    int rc = npos < 2 ? cli_usage_error(a->cmd, "give a game file and at least one trace")
                      : session_open(&s, pos[0], o.engine, NULL);
    if (rc != CLI_OK) {
        free(pos);
        return rc;
    }
    int agreed = 0, diverged = 0, capped_n = 0, unreadable = 0;
    for (int i = 1; i < npos; i++) {
        uint64_t steps = 0;
        bool capped = false;
        int r = replay_one(pos[i], s.m, s.game, o.seconds_given ? o.seconds : 0, &steps, &capped);
        if (r == CLI_USAGE) {
            /* said so already; a trace that cannot be read was not replayed */
            unreadable++;
            rc = CLI_USAGE;
        } else if (r == CLI_OK) {
            agreed++;
            capped_n += capped;
            printf("%s: %s (%llu states)\n", pos[i], capped ? "agrees until the time cap" : "agrees",
                   (unsigned long long)steps);
        } else {
            diverged++;
            if (r > rc)
                rc = r;
        }
    }
    if (agreed + diverged) {
        printf("replay: %d agreed (%d stopped at the time cap), %d failed", agreed, capped_n, diverged);
        if (unreadable)
            printf(", %d could not be read", unreadable);
        printf("\n");
    }
    session_close(&s);
    free(pos);
    return rc;
}

const CliCommand cli_replay = {
    "replay",
    "check an engine against recorded traces",
    "usage: gdlc replay GAME.kif TRACE... [--engine E] [--seconds S]\n"
    "\n"
    "Replays each trace on the engine: at every step the state, each role's\n"
    "legal moves, terminality and at the end the goals must be equal; then the\n"
    "recorded joint move (which must be legal) is applied. On the first\n"
    "divergence it prints the step, what differs and both set differences.\n"
    "\n"
    "options:\n"
    "  --engine E    jit (default), aot, pn, ref, so:PATH and their options:\n"
    "                every name in 'gdlc help engines'\n"
    "  --seconds S   time cap per trace; a trace stopped by it counts as agreeing\n"
    "                up to where it got, and says so\n"
    "\n"
    "A trace's structure is checked against docs/trace-format.md: (roles ...)\n"
    "once and first; per step (step N), one (state ...), one (legal R ...) per\n"
    "role and (does ...), or at the end (terminal) and (goals ...), or only the\n"
    "legal lines (a trace cut short). A missing, misplaced or duplicate line is\n"
    "a malformed trace, reported with its location.\n"
    "\n"
    "exit status: 0 all agree, 1 a divergence or a malformed trace, 2 usage or\n"
    "a trace that cannot be read.\n",
    replay_run,
};

/* ---- gdlc bench and perf-test ------------------------------------------ */

/* How far past its budget a timed command lets the playout in progress run
 * before the machine's deadline cuts it: 5% of the budget and 20 ms, so
 * that the command ends within about 10% of its budget past it even when a
 * single query would run away (a game whose facts square every step). */
static double deadline_grace(double seconds)
{
    return seconds * 0.05 + 0.02;
}

typedef struct BenchResult {
    uint64_t state_changes; /* joint moves made, the cut playout's included */
    uint64_t playouts;      /* playouts finished */
    uint64_t capped;        /* of which stopped by --max-steps */
    bool partial;           /* a playout was cut by the deadline: its state
                               changes count, it is not a playout */
    uint64_t cut_steps;     /* the state changes of that playout */
    double seconds, load_to_ready;
    long peak_rss_kb;
} BenchResult;

static GdlStatus bench_loop(Session *s, const PlayOpts *o, BenchResult *b, uint64_t *step_of_error)
{
    unsigned nroles = gdl_game_role_count(s->game);
    GdlMove *joint = base_xcalloc(nroles + 1, sizeof *joint);
    int *goals = base_xcalloc(nroles + 1, sizeof *goals);
    GdlRng rng;
    gdl_rng_seed(&rng, o->seed);
    memset(b, 0, sizeof *b);
    b->load_to_ready = s->t_ready - s->t_start;
    /* Like gdl-perf: playouts start until the time is up, and the last one
     * finishes (--max-steps bounds it), unless it is still running when the
     * machine's deadline comes, a little later: then it is cut, its state
     * changes counted and itself not. */
    double t0 = gdl_now(), end = t0 + o->seconds;
    gdl_machine_set_deadline(s->m, end + deadline_grace(o->seconds));
    Playing pl;
    *step_of_error = 0;
    GdlStatus st = playing_open(s->m, &pl);
    while (st == GDL_OK) {
        PlayResult res;
        st = playout(s->m, s->game, &rng, o->max_steps, NULL, &res, joint, goals, &pl);
        *step_of_error = res.steps;
        if (st == GDL_CANCELLED) {
            b->state_changes += res.steps;
            b->partial = true;
            b->cut_steps = res.steps;
            st = GDL_OK;
            break;
        }
        if (st != GDL_OK)
            break;
        b->state_changes += res.steps;
        b->playouts++;
        b->capped += res.capped;
        if (gdl_now() >= end)
            break;
    }
    playing_close(&pl);
    gdl_machine_set_deadline(s->m, 0);
    b->seconds = gdl_now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    b->peak_rss_kb = ru.ru_maxrss;
    free(joint);
    free(goals);
    return st;
}

/* Says on stderr why a timed command stopped a playout in the middle. */
static void report_cut(const char *cmd, const char *path, const BenchResult *b, double budget)
{
    fprintf(stderr,
            "gdlc %s: %s: a playout was still running %.2f s past the %.2f s budget: cut at the deadline after %llu "
            "state changes (counted; the playout is not)%s\n",
            cmd, path, deadline_grace(budget), budget, (unsigned long long)b->cut_steps,
            b->playouts ? "" : "; no playout finished");
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}


/* ---- gdlc bench --batch and verify --batch ------------------------------ */

static char *moves_text(GdlMachine *m, const GdlMove *moves, size_t n);

/* One thread of a batched bench: its batch plays until the end. */
typedef struct BatchThread {
    GdlBatch *b;
    double end;
    GdlStatus st;
    GdlBatchStats stats;
    double seconds;
    pthread_t tid;
} BatchThread;

static void *batch_thread(void *arg)
{
    BatchThread *t = arg;
    double t0 = gdl_now();
    do
        t->st = gdl_batch_run(t->b, 8, &t->stats);
    while (t->st == GDL_OK && gdl_now() < t->end);
    t->seconds = gdl_now() - t0;
    return NULL;
}

/* The machine a batch takes its terms from: ref unless --engine says
 * otherwise (the batch evaluates the network itself; ref is made at once). */
static const char *batch_engine(const PlayOpts *o) { return o->engine ? o->engine : "ref"; }

static int bench_batch(CliArgs *a, PlayOpts *o, const char *path)
{
    Session s;
    int rc = session_open(&s, path, batch_engine(o), NULL);
    if (rc != CLI_OK)
        return rc;
    unsigned nt = o->threads ? o->threads : 1;
    BatchThread *t = base_xcalloc(nt, sizeof *t);
    double t0 = gdl_now();
    GdlStatus st = gdl_batch_new(s.m, o->batch, o->seed, o->max_steps, &t[0].b);
    double ready = gdl_now() - s.t_start, made = gdl_now() - t0;
    if (st != GDL_OK) {
        fprintf(stderr, "gdlc %s: %s: %s\n", a->cmd, path, gdl_machine_error(s.m));
        free(t);
        session_close(&s);
        return CLI_FAULT;
    }
    if (o->batch_eval)
        gdl_batch_set_evaluation(t[0].b, o->batch_eval - 1);
    for (unsigned i = 1; i < nt; i++) {
        gdl_batch_fork(t[0].b, o->seed + (uint64_t)i * o->batch, &t[i].b);
        if (o->batch_eval)
            gdl_batch_set_evaluation(t[i].b, o->batch_eval - 1);
    }
    double start = gdl_now(), end = start + o->seconds;
    for (unsigned i = 0; i < nt; i++) {
        t[i].end = end;
        if (nt == 1)
            batch_thread(&t[i]);
        else if (pthread_create(&t[i].tid, NULL, batch_thread, &t[i]) != 0) {
            fprintf(stderr, "gdlc %s: cannot start thread %u\n", a->cmd, i);
            exit(CLI_FAULT);
        }
    }
    GdlBatchStats sum = {0};
    double secs = 0;
    for (unsigned i = 0; i < nt; i++) {
        if (nt > 1)
            pthread_join(t[i].tid, NULL);
        sum.passes += t[i].stats.passes;
        sum.state_changes += t[i].stats.state_changes;
        sum.playouts += t[i].stats.playouts;
        sum.capped += t[i].stats.capped;
        if (t[i].st != GDL_OK && st == GDL_OK) {
            st = t[i].st;
            fprintf(stderr, "gdlc %s: %s: thread %u: %s\n", a->cmd, path, i, gdl_batch_error(t[i].b));
        }
        secs = t[i].seconds > secs ? t[i].seconds : secs;
    }
    double wall = gdl_now() - start;
    if (st == GDL_OK) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        double scps = sum.state_changes / wall, pps = sum.playouts / wall;
        double depth = sum.playouts ? (double)sum.state_changes / (double)sum.playouts : 0;
        if (o->json) {
            printf("{\"game\": ");
            json_string(stdout, path);
            printf(", \"engine\": \"batch\", \"lanes\": %u, \"threads\": %u, \"seconds\": %.3f, \"state_changes\": %llu, "
                   "\"playouts\": %llu, \"capped_playouts\": %llu, \"partial\": false, \"state_changes_per_s\": %.1f, "
                   "\"playouts_per_s\": %.2f, \"state_changes_per_s_per_thread\": %.1f, \"avg_depth\": %.2f, "
                   "\"load_to_ready_s\": %.6f, \"batch_made_s\": %.6f, \"plan\": ",
                   o->batch, nt, wall, (unsigned long long)sum.state_changes, (unsigned long long)sum.playouts,
                   (unsigned long long)sum.capped, scps, pps, scps / nt, depth, ready, made);
            json_string(stdout, gdl_batch_plan(t[0].b));
            printf(", \"peak_rss_kb\": %ld}\n", ru.ru_maxrss);
        } else {
            printf("game:                %s\nengine:              batch (%s)\nlanes:               %u a thread, %u "
                   "thread%s\nseconds:             %.2f\nstate changes:       %llu (%.1f per second, %.1f a thread)\n"
                   "playouts:            %llu (%.2f per second, %llu capped)\naverage depth:       %.2f\n"
                   "load to ready:       %.2f ms (the batch: %.2f ms)\npeak memory:         %ld KiB\n",
                   path, gdl_batch_plan(t[0].b), o->batch, nt, nt == 1 ? "" : "s", wall,
                   (unsigned long long)sum.state_changes, scps, scps / nt, (unsigned long long)sum.playouts, pps,
                   (unsigned long long)sum.capped, depth, ready * 1e3, made * 1e3, ru.ru_maxrss);
        }
        rc = CLI_OK;
    } else {
        rc = CLI_FAULT;
    }
    for (unsigned i = 0; i < nt; i++)
        gdl_batch_free(t[i].b);
    free(t);
    session_close(&s);
    return rc;
}

/* A lane of verify --batch: ref's side of it, played as one machine plays
 * the playouts of seed + lane (bench's: the moves drawn at the cap). */
typedef struct RefLane {
    GdlState *s;
    GdlRng rng;
    uint64_t playout, step;
} RefLane;

static int lane_differs(const char *path, unsigned lane, const RefLane *r, const char *what, const char *batch,
                        const char *ref)
{
    if (strcmp(batch, ref) == 0)
        return CLI_OK;
    fprintf(stderr, "%s: lane %u, playout %llu, step %llu: %s differs\n  batch: %s\n  engine ref: %s\n", path, lane,
            (unsigned long long)r->playout, (unsigned long long)r->step, what, batch, ref);
    return CLI_FAULT;
}

/* verify_lane's answer when a query of ref was cut by the deadline: the
 * check stops there, no divergence. */
enum { LANE_CUT = -1 };

static int lane_ref_fault(const char *path, unsigned lane, const RefLane *r, const char *what, GdlMachine *ref)
{
    if (strncmp(gdl_machine_error(ref), "cancelled", 9) == 0)
        return LANE_CUT;
    fprintf(stderr, "%s: lane %u, playout %llu, step %llu: %s: engine ref fails: %s\n", path, lane,
            (unsigned long long)r->playout, (unsigned long long)r->step, what, gdl_machine_error(ref));
    return CLI_FAULT;
}

/* Checks one lane's pass against ref: how it began (an end, its goals),
 * the legal moves, the joint move drawn, and the state it made. */
static int verify_lane(GdlMachine *ref, GdlBatch *b, GdlMachine *bm, const GdlGame *g, const char *path, unsigned l,
                       RefLane *r, const GdlState *init, uint64_t max_steps)
{
    unsigned nroles = gdl_game_role_count(g);
    GdlBatchLane info;
    if (gdl_batch_lane_pass(b, l, &info) != GDL_OK) {
        fprintf(stderr, "%s: lane %u: %s\n", path, l, gdl_batch_error(b));
        return CLI_FAULT;
    }
    bool terminal = false;
    if (gdl_state_is_terminal(ref, r->s, &terminal) != GDL_OK)
        return lane_ref_fault(path, l, r, "terminal", ref);
    int rc = lane_differs(path, l, r, "terminal", info.ended == GDL_BATCH_TERMINAL ? "terminal" : "not terminal",
                          terminal ? "terminal" : "not terminal");
    if (rc != CLI_OK)
        return rc;
    if (info.ended == GDL_BATCH_TERMINAL) {
        int goals[GDL_BATCH_MAX_ROLES];
        if (gdl_state_goals(ref, r->s, goals) != GDL_OK)
            return lane_ref_fault(path, l, r, "goals", ref);
        for (unsigned k = 0; k < nroles && rc == CLI_OK; k++) {
            char x[16], y[16], what[300];
            snprintf(x, sizeof x, "%d", info.goals[k]);
            snprintf(y, sizeof y, "%d", goals[k]);
            snprintf(what, sizeof what, "the goal of %s", gdl_game_role_name(g, k));
            rc = lane_differs(path, l, r, what, x, y);
        }
    } else {
        char x[32], y[32];
        snprintf(x, sizeof x, "%s", info.ended == GDL_BATCH_CAPPED ? "capped" : "playing");
        snprintf(y, sizeof y, "%s", r->step == max_steps ? "capped" : "playing");
        rc = lane_differs(path, l, r, "the step cap", x, y);
        if (rc == CLI_OK && info.ended == GDL_BATCH_CAPPED) {
            GdlMove joint[GDL_BATCH_MAX_ROLES];
            if (gdl_state_random_joint_move(ref, r->s, &r->rng, joint) != GDL_OK)
                return lane_ref_fault(path, l, r, "the moves drawn at the cap", ref);
        }
    }
    if (rc != CLI_OK)
        return rc;
    if (info.ended) {
        gdl_state_free(r->s);
        if (!(r->s = gdl_state_copy(init)))
            return lane_ref_fault(path, l, r, "the initial state", ref);
        r->playout++;
        r->step = 0;
    }
    GdlMove joint[GDL_BATCH_MAX_ROLES];
    for (unsigned k = 0; k < nroles && rc == CLI_OK; k++) {
        const GdlMove *mb, *mr;
        size_t nb, nr;
        if (gdl_batch_lane_legal(b, l, k, &mb, &nb) != GDL_OK) {
            fprintf(stderr, "%s: lane %u: %s\n", path, l, gdl_batch_error(b));
            return CLI_FAULT;
        }
        char *tb = moves_text(bm, mb, nb);
        if (gdl_state_legal(ref, r->s, k, &mr, &nr) != GDL_OK) {
            free(tb);
            return lane_ref_fault(path, l, r, "the legal moves", ref);
        }
        char *tr = moves_text(ref, mr, nr), what[300];
        snprintf(what, sizeof what, "the legal moves of %s", gdl_game_role_name(g, k));
        rc = lane_differs(path, l, r, what, tb, tr);
        free(tb);
        free(tr);
        if (rc != CLI_OK)
            return rc;
        joint[k] = mr[gdl_rng_below(&r->rng, nr)];
        snprintf(what, sizeof what, "the move drawn for %s", gdl_game_role_name(g, k));
        rc = lane_differs(path, l, r, what, gdl_move_text(bm, info.joint[k]), gdl_move_text(ref, joint[k]));
    }
    if (rc != CLI_OK)
        return rc;
    GdlState *nx = NULL, *bs = NULL;
    if (gdl_state_next(ref, r->s, joint, &nx) != GDL_OK)
        return lane_ref_fault(path, l, r, "the next state", ref);
    gdl_state_free(r->s);
    r->s = nx;
    r->step++;
    if (gdl_batch_lane_state(b, l, &bs) != GDL_OK) {
        fprintf(stderr, "%s: lane %u: %s\n", path, l, gdl_machine_error(bm));
        return CLI_FAULT;
    }
    char *tb = trace_state_text(bm, bs), *tr = trace_state_text(ref, r->s);
    rc = lane_differs(path, l, r, "the state", tb, tr);
    free(tb);
    free(tr);
    gdl_state_free(bs);
    return rc;
}

/* Whether ref faults in some lane's state: no goal where it is terminal,
 * no legal move of a role where it is not. */
static bool ref_faults(GdlMachine *ref, const GdlGame *g, const RefLane *r, unsigned lanes)
{
    for (unsigned l = 0; l < lanes; l++) {
        bool terminal = false;
        if (gdl_state_is_terminal(ref, r[l].s, &terminal) != GDL_OK)
            return true;
        int goals[GDL_BATCH_MAX_ROLES];
        if (terminal && gdl_state_goals(ref, r[l].s, goals) != GDL_OK)
            return true;
        for (unsigned k = 0; !terminal && k < gdl_game_role_count(g); k++) {
            const GdlMove *m;
            size_t n;
            if (gdl_state_legal(ref, r[l].s, k, &m, &n) != GDL_OK)
                return true;
        }
    }
    return false;
}

static int verify_batch(PlayOpts *o, const char *path)
{
    Session s;
    int rc = session_open(&s, path, batch_engine(o), NULL);
    if (rc != CLI_OK)
        return rc;
    GdlMachine *ref = NULL;
    GdlBatch *b = NULL;
    if (gdl_machine_new(s.game, "ref", &ref) != GDL_OK) {
        fprintf(stderr, "gdlc verify: %s\n", gdl_game_error(s.game));
        session_close(&s);
        return CLI_FAULT;
    }
    if (gdl_batch_new(s.m, o->batch, o->seed, o->max_steps, &b) != GDL_OK) {
        fprintf(stderr, "gdlc verify: %s: %s\n", path, gdl_machine_error(s.m));
        gdl_machine_free(ref);
        session_close(&s);
        return CLI_FAULT;
    }
    if (o->batch_eval)
        gdl_batch_set_evaluation(b, o->batch_eval - 1);
    unsigned lanes = o->batch;
    RefLane *r = base_xcalloc(lanes, sizeof *r);
    GdlState *init = NULL;
    if (gdl_state_initial(ref, &init) != GDL_OK) {
        fprintf(stderr, "gdlc verify: %s: engine ref: %s\n", path, gdl_machine_error(ref));
        rc = CLI_FAULT;
    }
    for (unsigned l = 0; l < lanes && rc == CLI_OK; l++) {
        gdl_rng_seed(&r[l].rng, o->seed + l);
        r[l].playout = 1;
        if (!(r[l].s = gdl_state_copy(init)))
            rc = CLI_FAULT;
    }
    double end = gdl_now() + o->seconds;
    gdl_machine_set_deadline(ref, end + deadline_grace(o->seconds));
    uint64_t passes = 0, ended = 0, checked = 0;
    bool faulted = false, cut = false;
    while (rc == CLI_OK && gdl_now() < end) {
        GdlStatus st = gdl_batch_run(b, 1, NULL);
        if (st == GDL_GAME_FAULT && ref_faults(ref, s.game, r, lanes)) {
            /* a fault of the game, which ref reports in a lane too */
            printf("%s: the batch agrees with ref until a game fault both report, after %llu passes (%llu states "
                   "checked, %llu playouts ended): %s\n",
                   path, (unsigned long long)passes, (unsigned long long)checked, (unsigned long long)ended,
                   gdl_batch_error(b));
            faulted = true;
            break;
        }
        if (st != GDL_OK) {
            fprintf(stderr, "%s: pass %llu: %s\n", path, (unsigned long long)passes + 1, gdl_batch_error(b));
            rc = CLI_FAULT;
            break;
        }
        passes++;
        for (unsigned l = 0; l < lanes && rc == CLI_OK; l++) {
            uint64_t before = r[l].playout;
            rc = verify_lane(ref, b, s.m, s.game, path, l, &r[l], init, o->max_steps);
            ended += r[l].playout != before;
            checked += rc == CLI_OK;
        }
        if (rc == LANE_CUT) {
            rc = CLI_OK;
            cut = true;
            break;
        }
        if (rc == CLI_OK && o->playouts && ended >= o->playouts)
            break;
    }
    if (rc == CLI_OK && faulted && ended == 0)
        rc = CLI_FAULT; /* agreement on nothing but a fault checks little: the game is at fault */
    else if (rc == CLI_OK && !faulted)
        printf("%s: the batch agrees with ref: %u lanes, %llu passes, %llu states checked, %llu playouts ended%s\n",
               path, lanes, (unsigned long long)passes, (unsigned long long)checked, (unsigned long long)ended,
               cut ? " (the last pass cut at the deadline)" : "");
    for (unsigned l = 0; l < lanes; l++)
        gdl_state_free(r[l].s);
    free(r);
    gdl_state_free(init);
    gdl_batch_free(b);
    gdl_machine_free(ref);
    session_close(&s);
    return rc;
}

static int bench_run(CliArgs *a)
{
    PlayOpts o = {.seed = 1, .max_steps = 10000, .seconds = 10};
    const char *pos[1];
    Session s;
    int npos;
    if (!parse_play_opts(a, &o, pos, 1, &npos))
        return CLI_USAGE;
    if (npos != 1)
        return cli_usage_error(a->cmd, "give one game file");
    if (o.batch)
        return bench_batch(a, &o, pos[0]);
    if (o.threads || o.batch_eval)
        return cli_usage_error(a->cmd, "%s is for gdlc bench --batch", o.threads ? "--threads" : "--batch-eval");
    int rc = session_open(&s, pos[0], o.engine, NULL);
    if (rc != CLI_OK)
        return rc;
    BenchResult b;
    uint64_t step;
    GdlStatus st = bench_loop(&s, &o, &b, &step);
    if (st != GDL_OK) {
        fprintf(stderr, "gdlc bench: %s: playout %llu, step %llu: %s\n", pos[0], (unsigned long long)b.playouts + 1,
                (unsigned long long)step, gdl_machine_error(s.m));
        session_close(&s);
        return CLI_FAULT;
    }
    if (b.partial)
        report_cut(a->cmd, pos[0], &b, o.seconds);
    double scps = b.state_changes / b.seconds, pps = b.playouts / b.seconds;
    double depth = b.playouts ? (double)(b.state_changes - b.cut_steps) / (double)b.playouts : 0;
    bool aot = strcmp(gdl_machine_engine(s.m), "aot") == 0;
    if (o.json) {
        printf("{\"game\": ");
        json_string(stdout, pos[0]);
        printf(", \"engine\": \"%s\", \"seconds\": %.3f, \"state_changes\": %llu, \"playouts\": %llu, "
               "\"capped_playouts\": %llu, \"partial\": %s, \"state_changes_per_s\": %.1f, \"playouts_per_s\": %.2f, "
               "\"avg_depth\": %.2f, \"load_to_ready_s\": %.6f, ",
               gdl_machine_engine(s.m), b.seconds, (unsigned long long)b.state_changes,
               (unsigned long long)b.playouts, (unsigned long long)b.capped, b.partial ? "true" : "false", scps, pps,
               depth, b.load_to_ready);
        if (aot)
            printf("\"aot_compiled\": %s, ", s.aot_compiled ? "true" : "false");
        printf("\"plan\": ");
        json_string(stdout, gdl_machine_plan(s.m));
        printf(", \"peak_rss_kb\": %ld}\n", b.peak_rss_kb);
    } else {
        const char *plan = gdl_machine_plan(s.m);
        bool own = strcmp(plan, gdl_machine_engine(s.m)) != 0; /* jit: its plan */
        printf("game:                %s\nengine:              %s%s%s%s\nseconds:             %.2f\n"
               "state changes:       %llu (%.1f per second)\nplayouts:            %llu (%.2f per second, %llu capped)\n",
               pos[0], gdl_machine_engine(s.m), own ? " (" : "", own ? plan : "", own ? ")" : "", b.seconds, (unsigned long long)b.state_changes, scps,
               (unsigned long long)b.playouts, pps, (unsigned long long)b.capped);
        if (b.partial)
            printf("cut at the deadline: one playout, after %llu state changes (counted above)\n",
                   (unsigned long long)b.cut_steps);
        printf("average depth:       %.2f\nload to ready:       %.2f ms%s\npeak memory:         %ld KiB\n", depth,
               b.load_to_ready * 1e3,
               !aot ? "" : s.aot_compiled ? " (compiled: the aot cache had no object for it)"
                                          : " (loaded from the aot cache, no compile)",
               b.peak_rss_kb);
    }
    session_close(&s);
    return CLI_OK;
}

const CliCommand cli_bench = {
    "bench",
    "measure state changes per second over random playthroughs",
    "usage: gdlc bench GAME.kif [--engine E] [--seconds S] [--seed N] [--max-steps K] [--json]\n"
    "       gdlc bench GAME.kif --batch N [--threads T] [--batch-eval full|changes|auto] ...\n"
    "\n"
    "Plays random playthroughs for S seconds exactly as gdl-perf does (initial\n"
    "state; until terminal: legal moves of every role, a random move per role,\n"
    "next state; then all goals) and reports state changes per second, playouts\n"
    "per second, average depth, time from load to ready (for aot: whether that\n"
    "included compiling the game or only loading the cached object) and peak\n"
    "memory. The last playout finishes past S seconds, unless it is still\n"
    "running at the machine's deadline (S plus 5% and 20 ms): then it is cut,\n"
    "its state changes are counted, it is not counted as a playout, and the\n"
    "report says so.\n"
    "\n"
    "options:\n"
    "  --engine E      jit (default), aot, pn, ref, so:PATH and their options:\n"
    "                  every name in 'gdlc help engines'\n"
    "  --seconds S     how long to play (default 10)\n"
    "  --seed N        the seed (default 1)\n"
    "  --max-steps K   cap each playthrough at K joint moves (default 10000);\n"
    "                  capped playthroughs are counted\n"
    "  --json          one JSON object with the keys game, engine, seconds,\n"
    "                  state_changes, playouts, capped_playouts, partial (a\n"
    "                  playout was cut at the deadline), state_changes_per_s,\n"
    "                  playouts_per_s, avg_depth, load_to_ready_s,\n"
    "                  aot_compiled (engine aot only), plan (gdl_machine_plan:\n"
    "                  how the engine plays the game), peak_rss_kb\n"
    "  --batch N       the batched playouts instead (include/gdl.h, gdl_batch_*):\n"
    "                  the game's network evaluated for N lanes a pass (a multiple\n"
    "                  of 64, up to 512), lane i playing the playouts of seed + i\n"
    "                  back to back; the same keys, with engine \"batch\", lanes,\n"
    "                  threads, state_changes_per_s_per_thread and batch_made_s (the\n"
    "                  batch's making); the plan says how the network is evaluated\n"
    "  --threads T     with --batch: T batches of N lanes, one a thread (their\n"
    "                  lanes seeded on from the first's), nothing shared in the loop\n"
    "  --batch-eval E  with --batch: the state's gates whole each pass (full), only\n"
    "                  those an input of which changed (changes), or as the batch\n"
    "                  chooses by counting both over a sample (auto, the default)\n"
    "\n"
    "exit status: 0 measured, 1 the game is rejected or faults, 2 usage error\n"
    "or unreadable game.\n",
    bench_run,
};

/* The RESULTS_FILE argument of a perf-test command line that could not be
 * parsed: the second of exactly three positional arguments, else NULL. */
static const char *perf_results_arg(const CliArgs *a, int first, const char **game)
{
    static const char *const with_value[] = {"--engine", "--seed", "--max-steps", "--seconds", "-o", "--output"};
    const char *pos[3];
    int n = 0;
    for (int i = first; i < a->argc; i++) {
        const char *arg = a->argv[i];
        if (arg[0] == '-' && arg[1]) {
            for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
                if (strcmp(arg, with_value[k]) == 0)
                    i++;
            continue;
        }
        if (n == 3)
            return NULL;
        pos[n++] = arg;
    }
    if (n != 3)
        return NULL;
    *game = pos[0];
    return pos[1];
}

/* Opens RESULTS_FILE under the output rule, and only when it is new, empty
 * or an earlier results file (it starts with "version="): with the game and
 * the results swapped on the command line, the game is not overwritten. */
static FILE *perf_results_open(const char *cmd, const char *results, const char *const *inputs, size_t ninputs)
{
    if (cli_output_check(cmd, results, inputs, ninputs) != CLI_OK)
        return NULL; /* before reading it: a fifo would block */
    FILE *old = fopen(results, "rb");
    if (old) {
        char head[8];
        size_t n = fread(head, 1, sizeof head, old);
        fclose(old);
        if (n && (n < sizeof head || memcmp(head, "version=", sizeof head) != 0)) {
            fprintf(stderr, "gdlc %s: will not write %s: it is not a results file of an earlier run (it does not "
                            "start with version=)\n",
                    cmd, results);
            return NULL;
        }
    }
    return cli_output_open(cmd, results, inputs, ninputs);
}

/* perf-test after a usage error: RESULTS_FILE, when it can be told, says
 * so, so that no results of an earlier run stay behind. */
static int perf_usage_failed(CliArgs *a, int first)
{
    const char *game = NULL, *results = perf_results_arg(a, first, &game);
    FILE *out = results ? perf_results_open(a->cmd, results, &game, 1) : NULL;
    if (out) {
        fprintf(out, "version=gdlc %s\nerrorMessage=usage error:", gdl_version());
        for (int i = 1; i < a->argc; i++)
            fprintf(out, " %s", a->argv[i]);
        fprintf(out, " (see gdlc help perf-test)\n");
        cli_output_close(a->cmd, out, results);
    }
    return CLI_USAGE;
}

static int perf_test_run(CliArgs *a)
{
    PlayOpts o = {.seed = 1, .max_steps = 10000};
    const char *pos[3];
    int npos, first = a->i;
    if (!parse_play_opts(a, &o, pos, 3, &npos))
        return perf_usage_failed(a, first);
    if (npos != 3)
        return cli_usage_error(a->cmd, "give GAME_FILE RESULTS_FILE SECONDS");
    if (!cli_parse_double(a->cmd, "SECONDS", pos[2], &o.seconds))
        return perf_usage_failed(a, first);
    const char *inputs[2];
    FILE *out = perf_results_open(a->cmd, pos[1], inputs, cli_inputs(pos[0], o.engine, inputs));
    if (!out)
        return CLI_USAGE;
    Session s;
    char *why = NULL;
    int rc = session_open(&s, pos[0], o.engine, &why);
    /* gdl-perf measures each (engine, version) pair once: name the engine
     * (no so: path, nothing that would end the line) and the build */
    const char *eng = rc == CLI_OK ? gdl_machine_engine(s.m) : o.engine ? o.engine : "jit";
    fprintf(out, "version=gdlc %s %.*s %s\n", gdl_version(), (int)strcspn(eng, ":;\r\n"), eng, cli_build_id());
    if (rc != CLI_OK) {
        /* the results file is all gdl-perf keeps: the first reason goes there */
        fprintf(out, "errorMessage=cannot load %s: %s\n", pos[0], why ? why : "unknown reason");
        free(why);
        return cli_output_close(a->cmd, out, pos[1]) != CLI_OK ? CLI_USAGE : rc;
    }
    BenchResult b;
    uint64_t step;
    GdlStatus st = bench_loop(&s, &o, &b, &step);
    if (st != GDL_OK) {
        fprintf(out, "errorMessage=playout %llu, step %llu: %s\n", (unsigned long long)b.playouts + 1,
                (unsigned long long)step, gdl_machine_error(s.m));
        rc = CLI_FAULT;
    } else if (b.partial && !b.playouts) {
        report_cut(a->cmd, pos[0], &b, o.seconds);
        fprintf(out, "errorMessage=no playout finished: the first was cut at the deadline (%.2f s past the %.2f s "
                     "budget) after %llu state changes\n",
                deadline_grace(o.seconds), o.seconds, (unsigned long long)b.cut_steps);
        rc = CLI_FAULT;
    } else {
        if (b.partial)
            report_cut(a->cmd, pos[0], &b, o.seconds);
        fprintf(out, "millisecondsTaken=%llu\nnumStateChanges=%llu\nnumRollouts=%llu\n",
                (unsigned long long)(b.seconds * 1000.0 + 0.5), (unsigned long long)b.state_changes,
                (unsigned long long)b.playouts);
    }
    if (cli_output_close(a->cmd, out, pos[1]) != CLI_OK)
        rc = CLI_USAGE;
    session_close(&s);
    return rc;
}

const CliCommand cli_perf_test = {
    "perf-test",
    "gdl-perf's engine protocol: GAME_FILE RESULTS_FILE SECONDS",
    "usage: gdlc perf-test [--engine E] GAME_FILE RESULTS_FILE SECONDS\n"
    "\n"
    "The language-agnostic engine protocol of gdl-perf: plays random\n"
    "playthroughs of the game for SECONDS, as gdlc bench does, and writes to\n"
    "RESULTS_FILE the lines version=, millisecondsTaken=, numStateChanges= and\n"
    "numRollouts=. A playout cut at the deadline (SECONDS plus 5% and 20 ms)\n"
    "counts its state changes but is not a rollout. errorMessage= replaces the\n"
    "numbers when the game or engine cannot be loaded (with the first reason:\n"
    "the read error, the game's first error, the engine's message), when a\n"
    "playout fails, and when not even one playout finished. A usage error\n"
    "writes errorMessage= too, when RESULTS_FILE can be told (the second of\n"
    "three arguments), so that no old results stay behind. RESULTS_FILE must\n"
    "be a regular file or a new one, and not the game (see 'gdlc help'); an\n"
    "existing one is overwritten only when empty or when it starts with\n"
    "version= (results of an earlier run), so that swapped arguments cannot\n"
    "overwrite a game.\n"
    "\n"
    "exit status: 0 measured, 1 the game is rejected, fails or finished no\n"
    "playout, 2 usage error, unreadable game or unwritable RESULTS_FILE.\n",
    perf_test_run,
};

/* ---- gdlc verify ------------------------------------------------------ */

/* The canonical texts of moves, or of a state's facts, as one string, for
 * comparing across machines (malloc-ed). */
static char *moves_text(GdlMachine *m, const GdlMove *moves, size_t n)
{
    StrBuf b = {0};
    strbuf_add(&b, n ? "" : "(no moves)");
    for (size_t i = 0; i < n; i++)
        strbuf_add_word(&b, gdl_move_text(m, moves[i]));
    return b.s;
}

typedef struct Verify {
    GdlMachine *e, *ref;
    const GdlGame *g;
    const char *path;
    uint64_t playout, step, states;
    uint64_t faults;      /* playouts ended by a fault both engines report */
    char *first_fault;    /* the first such fault: status and message */
    bool cut;             /* a query was cut by the deadline */
    uint64_t cut_playout, cut_step; /* where */
} Verify;

static bool verify_differs(Verify *v, const char *query, const char *engine_says, const char *ref_says)
{
    if (strcmp(engine_says, ref_says) == 0)
        return false;
    fprintf(stderr, "%s: playout %llu, step %llu: %s differs\n  engine %s: %s\n  engine ref: %s\n", v->path,
            (unsigned long long)v->playout, (unsigned long long)v->step, query, gdl_machine_engine(v->e),
            engine_says, ref_says);
    return true;
}

/* Both machines' statuses must agree too; a fault both report is no
 * divergence, but it ends the playout. */
static int verify_status(Verify *v, const char *query, GdlStatus a, GdlStatus b, bool *stop)
{
    *stop = a != GDL_OK || b != GDL_OK;
    if (a == GDL_CANCELLED || b == GDL_CANCELLED) {
        /* the deadline, not the engines: no divergence */
        v->cut = true;
        v->cut_playout = v->playout;
        v->cut_step = v->step;
        return CLI_OK;
    }
    if (a == b && a != GDL_OK) {
        if (!v->faults++)
            v->first_fault = base_sprintf("%s: %s: %s", query, gdl_status_name(a), gdl_machine_error(v->ref));
        return CLI_OK;
    }
    if (a == b)
        return CLI_OK;
    fprintf(stderr, "%s: playout %llu, step %llu: %s: engine %s says %s (%s), engine ref says %s (%s)\n", v->path,
            (unsigned long long)v->playout, (unsigned long long)v->step, query, gdl_machine_engine(v->e),
            gdl_status_name(a), gdl_machine_error(v->e), gdl_status_name(b), gdl_machine_error(v->ref));
    return CLI_FAULT;
}

static int verify_playout(Verify *v, GdlRng *rng, uint64_t max_steps, double end)
{
    unsigned nroles = gdl_game_role_count(v->g);
    GdlState *se = NULL, *sr = NULL;
    GdlMove *je = base_xcalloc(nroles + 1, sizeof *je), *jr = base_xcalloc(nroles + 1, sizeof *jr);
    int *ge = base_xcalloc(nroles + 1, sizeof *ge), *gr = base_xcalloc(nroles + 1, sizeof *gr);
    bool stop = false;
    int rc = verify_status(v, "the initial state", gdl_state_initial(v->e, &se), gdl_state_initial(v->ref, &sr),
                           &stop);
    for (v->step = 0; rc == CLI_OK && !stop; v->step++) {
        char *a = trace_state_text(v->e, se), *b = trace_state_text(v->ref, sr);
        bool differ = verify_differs(v, "the state", a, b);
        free(a);
        free(b);
        if (differ) {
            rc = CLI_FAULT;
            break;
        }
        v->states++;
        bool te = false, tr = false;
        if ((rc = verify_status(v, "terminal", gdl_state_is_terminal(v->e, se, &te), gdl_state_is_terminal(v->ref, sr, &tr),
                                &stop)) != CLI_OK || stop)
            break;
        if (verify_differs(v, "terminal", te ? "terminal" : "not terminal", tr ? "terminal" : "not terminal")) {
            rc = CLI_FAULT;
            break;
        }
        GdlStatus st_e = gdl_state_goals(v->e, se, ge), st_r = gdl_state_goals(v->ref, sr, gr);
        if ((rc = verify_status(v, "goals", st_e, st_r, &stop)) != CLI_OK)
            break;
        /* a query cut by the deadline (stop) left its values unset */
        for (unsigned k = 0; st_e == GDL_OK && st_r == GDL_OK && k < nroles && rc == CLI_OK; k++) {
            char a1[16], b1[16], what[300];
            snprintf(a1, sizeof a1, "%d", ge[k]);
            snprintf(b1, sizeof b1, "%d", gr[k]);
            snprintf(what, sizeof what, "the goal of %s", gdl_game_role_name(v->g, k));
            if (verify_differs(v, what, a1, b1))
                rc = CLI_FAULT;
        }
        if (rc != CLI_OK || stop || te || v->step == max_steps || gdl_now() >= end)
            break;
        for (unsigned k = 0; k < nroles && rc == CLI_OK && !stop; k++) {
            const GdlMove *me, *mr;
            size_t ne, nr;
            GdlStatus a2 = gdl_state_legal(v->e, se, k, &me, &ne);
            char *ta = a2 == GDL_OK ? moves_text(v->e, me, ne) : NULL;
            GdlStatus b2 = gdl_state_legal(v->ref, sr, k, &mr, &nr);
            char *tb = b2 == GDL_OK ? moves_text(v->ref, mr, nr) : NULL;
            char what[300];
            snprintf(what, sizeof what, "the legal moves of %s", gdl_game_role_name(v->g, k));
            rc = verify_status(v, what, a2, b2, &stop);
            if (rc == CLI_OK && !stop && verify_differs(v, what, ta, tb))
                rc = CLI_FAULT;
            if (rc == CLI_OK && !stop) {
                uint64_t pick = gdl_rng_below(rng, ne);
                je[k] = me[pick];
                jr[k] = mr[pick];
            }
            free(ta);
            free(tb);
        }
        if (rc != CLI_OK || stop)
            break;
        GdlState *ne2 = NULL, *nr2 = NULL;
        GdlStatus a3 = gdl_state_next(v->e, se, je, &ne2), b3 = gdl_state_next(v->ref, sr, jr, &nr2);
        rc = verify_status(v, "the next state", a3, b3, &stop);
        gdl_state_free(se);
        gdl_state_free(sr);
        se = ne2;
        sr = nr2;
    }
    gdl_state_free(se);
    gdl_state_free(sr);
    free(je);
    free(jr);
    free(ge);
    free(gr);
    return rc;
}

static int verify_run(CliArgs *a)
{
    PlayOpts o = {.seed = 1, .max_steps = 10000, .seconds = 60};
    const char *pos[1];
    int npos = 0;
    if (!parse_play_opts(a, &o, pos, 1, &npos))
        return CLI_USAGE;
    if (npos != 1)
        return cli_usage_error(a->cmd, "give one game file");
    if (o.batch)
        return verify_batch(&o, pos[0]);
    if (o.batch_eval)
        return cli_usage_error(a->cmd, "--batch-eval is for gdlc verify --batch");
    uint64_t playouts = o.playouts ? o.playouts : 10;
    Session s;
    int rc = session_open(&s, pos[0], o.engine ? o.engine : "jit", NULL);
    if (rc != CLI_OK)
        return rc;
    GdlMachine *ref = NULL;
    char *err = NULL;
    if (gdl_machine_new(s.game, "ref", &ref) != GDL_OK) {
        fprintf(stderr, "gdlc verify: %s\n", gdl_game_error(s.game));
        free(err);
        session_close(&s);
        return CLI_FAULT;
    }
    Verify v = {.e = s.m, .ref = ref, .g = s.game, .path = pos[0]};
    GdlRng rng;
    gdl_rng_seed(&rng, o.seed);
    /* --seconds is checked between steps; the machines' deadline, a little
     * later, cuts a query that runs away */
    double end = gdl_now() + o.seconds;
    gdl_machine_set_deadline(s.m, end + deadline_grace(o.seconds));
    gdl_machine_set_deadline(ref, end + deadline_grace(o.seconds));
    uint64_t done = 0;
    for (v.playout = 1; v.playout <= playouts && rc == CLI_OK && !v.cut && gdl_now() < end; v.playout++)
        if ((rc = verify_playout(&v, &rng, o.max_steps, end)) == CLI_OK && !v.cut)
            done++;
    if (rc == CLI_OK && v.cut)
        fprintf(stderr, "%s: playout %llu, step %llu: a query was still running %.2f s past the %.2f s of --seconds: "
                        "cut at the deadline (not a divergence)\n",
                pos[0], (unsigned long long)v.cut_playout, (unsigned long long)v.cut_step, deadline_grace(o.seconds),
                o.seconds);
    if (rc == CLI_OK && done && v.faults == done) {
        /* agreement on nothing but a fault checks little: the game is at fault */
        printf("%s: engine %s agrees with ref, but every playout (%llu) ended in a game fault both report; the "
               "first: %s\n",
               pos[0], o.engine ? o.engine : "jit", (unsigned long long)done, v.first_fault);
        rc = CLI_FAULT;
    } else if (rc == CLI_OK) {
        printf("%s: engine %s agrees with ref: %llu playout%s, %llu states checked", pos[0], o.engine ? o.engine : "jit",
               (unsigned long long)done, done == 1 ? "" : "s", (unsigned long long)v.states);
        if (v.faults)
            printf(", %llu ended in a game fault both report (the first: %s)", (unsigned long long)v.faults,
                   v.first_fault);
        printf("%s\n", v.cut ? " (a playout cut at the deadline)" : done < playouts ? " (stopped at --seconds)" : "");
    }
    free(v.first_fault);
    gdl_machine_free(ref);
    session_close(&s);
    return rc;
}

const CliCommand cli_verify = {
    "verify",
    "play an engine and the reference interpreter side by side",
    "usage: gdlc verify GAME.kif [--engine E] [--playouts N] [--seed N] [--max-steps K] [--seconds T]\n"
    "       gdlc verify GAME.kif --batch N [--batch-eval E] [--playouts N] [--seed N] [--max-steps K] [--seconds T]\n"
    "\n"
    "The engine and the reference interpreter play the same seeded random\n"
    "playthroughs side by side. At every state the state itself, terminality,\n"
    "the goals and every role's legal moves must be equal (and so must any\n"
    "fault both report); the first divergence is printed with the playout,\n"
    "the step, the query and both answers.\n"
    "\n"
    "options:\n"
    "  --engine E      the engine to check (default: jit; 'gdlc help engines')\n"
    "  --playouts N    how many playthroughs (default 10)\n"
    "  --seed N        the seed (default 1)\n"
    "  --max-steps K   cap each playthrough at K joint moves (default 10000)\n"
    "  --seconds T     stop after T seconds (default 60); reaching it is not a\n"
    "                  failure, and the output says how many states were checked;\n"
    "                  a query still running past T plus 5% and 20 ms is cut\n"
    "\n"
    "A fault both engines report ends a playout without a divergence; the\n"
    "summary counts such playouts and names the first fault.\n"
    "\n"
    "With --batch N, a batch of N lanes (gdlc bench --batch) is checked instead,\n"
    "every lane beside ref playing the playouts of seed + lane as bench plays\n"
    "them (moves drawn at the --max-steps cap too): at every pass, how the\n"
    "lane's pass began (playing, terminal with its goals, capped), every role's\n"
    "legal moves, the joint move drawn and the state made; until --seconds, or\n"
    "until --playouts N playouts have ended when given. A fault of the game\n"
    "(no legal move, no goal) that ref reports in a lane too ends the check.\n"
    "\n"
    "exit status: 0 agreement, 1 a divergence, or every playout ended in a\n"
    "fault, 2 usage.\n",
    verify_run,
};
