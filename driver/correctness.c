/*
 * correctness.c: gdlc correctness-test, gdl-perf's second engine protocol.
 *
 * gdl-perf (github.com/AlexLandau/gdl-perf) checks an engine by running it
 * as `CMD... GAME HISTORY N` and replaying the HISTORY it writes on its
 * reference engine. The format is what gdl-perf's GGP-Base writer
 * (JavaCorrectnessTestRunnable, PrintStreamGameActionRecorder) prints, one
 * message a line:
 *
 *   !R!r1,r2            the roles, in order
 *   !T!false            per non-terminal state, then
 *   !L!m1,m2,...        the legal moves of each role, in role order
 *   !C!m1,m2            the joint move chosen, one move per role
 *   !T!true             at the end of a playout, then
 *   !G!g1,g2            the goals in role order
 *   !F!                 the last line
 *   !E!text             an error (then !F!): newlines written as <br/>,
 *                       carriage returns dropped, ';' written as ':'
 *
 * Lists are joined by "," with nothing around it (gdl-perf splits on ","
 * and trims). Roles and moves are written as GGP-Base's toString writes
 * them: a constant as itself, a compound term as "( f a b )", a space after
 * "(" and before ")". Playouts start from the initial state and play random
 * joint moves; after each playout ends, the test finishes once the state
 * changes so far exceed N, so the playout in progress is always finished.
 *
 * One case differs from the GGP-Base writer on purpose: when the initial
 * state is terminal, that writer prints !T!true and then !F! without goals,
 * which gdl-perf's own validator cannot read (it expects !G! after every
 * !T!true). We write the goals there too, which the validator accepts.
 *
 * The moves are drawn as everywhere in gdlc (play.c): each role in order
 * draws uniformly from its legal moves sorted canonically, with gdlc's
 * generator seeded by --seed, so a seed gives the same history.
 *
 * `--check` reads a history back and replays it on an engine (ref unless
 * --engine says otherwise), line by line: the roles, the terminal flag of
 * every state, every role's legal set (and that each move is written as
 * GGP-Base writes it), that the chosen joint move is legal, the goals, and
 * that the history stops exactly where N says. It is the test of the writer
 * and a tool for histories written by other engines.
 */
#include <errno.h>
#include <string.h>

#include "../include/gdl.h"
#include "build_id.h"
#include "cli.h"

/* The build identifier (cmake/build_id.cmake): the git commit gdlc was built
 * from, "unknown" outside a git tree. perf-test's version= carries it. */
const char *cli_build_id(void) { return GDLC_BUILD_ID; }

/* ---- the GGP-Base text ------------------------------------------------- */

/* Appends the canonical KIF text of a term as GGP-Base's toString writes it:
 * "(f a (g b))" becomes "( f a ( g b ) )". */
static void ct_add_ggp(StrBuf *b, const char *kif)
{
    for (const char *p = kif; *p; p++) {
        char one[2] = {*p, 0};
        strbuf_add(b, *p == '(' ? "( " : *p == ')' ? " )" : one);
    }
}

/* An error as PrintStreamGameActionRecorder escapes a stack trace. */
static void ct_add_error(StrBuf *b, const char *msg)
{
    for (const char *p = msg; *p; p++) {
        char one[2] = {*p == ';' ? ':' : *p, 0};
        if (*p == '\n')
            strbuf_add(b, "<br/>");
        else if (*p != '\r')
            strbuf_add(b, one);
    }
}

/* ---- writing a history --------------------------------------------------- */

typedef struct CtWriter {
    FILE *out;         /* the history, line-buffered */
    const char *path;  /* its name, for messages */
    GdlMachine *m;     /* the engine under test */
    const GdlGame *g;  /* its game */
    StrBuf line;       /* the line being built */
} CtWriter;

/* Starts a line with a prefix. */
static void ct_begin(CtWriter *w, const char *prefix)
{
    w->line.len = 0;
    strbuf_add(&w->line, prefix);
}

/* Writes the line built; false when the write failed. */
static bool ct_end(CtWriter *w)
{
    strbuf_add(&w->line, "\n");
    return fputs(w->line.s, w->out) >= 0;
}

static bool ct_moves(CtWriter *w, const char *prefix, const GdlMove *moves, size_t n)
{
    ct_begin(w, prefix);
    for (size_t i = 0; i < n; i++) {
        if (i)
            strbuf_add(&w->line, ",");
        ct_add_ggp(&w->line, gdl_move_text(w->m, moves[i]));
    }
    return ct_end(w);
}

static bool ct_goals(CtWriter *w, const int *goals)
{
    ct_begin(w, "!G!");
    for (unsigned k = 0; k < gdl_game_role_count(w->g); k++)
        strbuf_addf(&w->line, k ? ",%d" : "%d", goals[k]);
    return ct_end(w);
}

/* What ended a history. */
typedef enum CtEnd {
    CT_DONE,      /* finished: !F! written */
    CT_FAULT,     /* the engine failed: !E! and !F! written */
    CT_WRITE,     /* a write failed */
} CtEnd;

/* Writes !E! with the engine's error and !F!. */
static CtEnd ct_fail(CtWriter *w, GdlStatus st, uint64_t playout, uint64_t step)
{
    char *msg = base_sprintf("gdlc: %s: playout %llu, step %llu: %s", gdl_status_name(st),
                             (unsigned long long)playout, (unsigned long long)step, gdl_machine_error(w->m));
    fprintf(stderr, "gdlc correctness-test: %s\n", msg);
    ct_begin(w, "!E!");
    ct_add_error(&w->line, msg);
    free(msg);
    bool ok = ct_end(w) && fputs("!F!\n", w->out) >= 0;
    return ok ? CT_FAULT : CT_WRITE;
}

/* Random playouts until the state changes exceed n. */
static CtEnd ct_write(CtWriter *w, uint64_t n, uint64_t seed)
{
    unsigned nroles = gdl_game_role_count(w->g);
    GdlMove *joint = base_xcalloc(nroles + 1, sizeof *joint);
    int *goals = base_xcalloc(nroles + 1, sizeof *goals);
    GdlRng rng;
    gdl_rng_seed(&rng, seed);
    ct_begin(w, "!R!");
    for (unsigned k = 0; k < nroles; k++) {
        if (k)
            strbuf_add(&w->line, ",");
        ct_add_ggp(&w->line, gdl_game_role_name(w->g, k));
    }
    CtEnd end = ct_end(w) ? CT_DONE : CT_WRITE;
    uint64_t changes = 0, playout = 1, step = 0;
    GdlState *s = NULL, *next = NULL;
    GdlStatus st = GDL_OK;
    for (; end == CT_DONE; playout++) {
        step = 0;
        gdl_state_free(s);
        s = NULL;
        if ((st = gdl_state_initial(w->m, &s)) != GDL_OK)
            break;
        for (;;) {
            bool terminal = false;
            if ((st = gdl_state_is_terminal(w->m, s, &terminal)) != GDL_OK)
                break;
            if (fputs(terminal ? "!T!true\n" : "!T!false\n", w->out) < 0) {
                end = CT_WRITE;
                break;
            }
            if (terminal)
                break;
            for (unsigned k = 0; k < nroles && st == GDL_OK && end == CT_DONE; k++) {
                const GdlMove *moves;
                size_t nm;
                if ((st = gdl_state_legal(w->m, s, k, &moves, &nm)) != GDL_OK)
                    break;
                if (!ct_moves(w, "!L!", moves, nm))
                    end = CT_WRITE;
                joint[k] = moves[gdl_rng_below(&rng, nm)];
            }
            if (st != GDL_OK || end != CT_DONE)
                break;
            if (!ct_moves(w, "!C!", joint, nroles)) {
                end = CT_WRITE;
                break;
            }
            if ((st = gdl_state_next(w->m, s, joint, &next)) != GDL_OK)
                break;
            gdl_state_free(s);
            s = next;
            changes++;
            step++;
        }
        if (st != GDL_OK || end != CT_DONE)
            break;
        if ((st = gdl_state_goals(w->m, s, goals)) != GDL_OK)
            break;
        if (!ct_goals(w, goals))
            end = CT_WRITE;
        /* an initial state that is terminal would never add a change */
        else if (changes > n || step == 0) {
            if (fputs("!F!\n", w->out) < 0)
                end = CT_WRITE;
            break;
        }
    }
    if (st != GDL_OK && end == CT_DONE)
        end = ct_fail(w, st, playout, step);
    gdl_state_free(s);
    free(joint);
    free(goals);
    return end;
}

/* ---- checking a history ---------------------------------------------------- */

typedef struct CtCheck {
    FILE *in;          /* the history */
    const char *path;  /* its name, for messages */
    GdlMachine *m;     /* the engine it is replayed on */
    const GdlGame *g;  /* its game */
    char *line;        /* the current line (getline's buffer) */
    size_t cap;        /* its capacity */
    uint64_t lno;      /* its number, 1-based */
    bool eof;          /* no line was left */
    bool failed_too;   /* it ended with an error the engine reports too */
    StrBuf want;       /* scratch: the text expected */
} CtCheck;

static int ct_mismatch(CtCheck *c, const char *fmt, ...) BASE_PRINTF(2, 3);
static int ct_mismatch(CtCheck *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%llu: ", c->path, (unsigned long long)c->lno);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_FAULT;
}

/* Reads the next line (without its newline); NULL at the end. */
static const char *ct_read(CtCheck *c)
{
    ssize_t n = getline(&c->line, &c->cap, c->in);
    if (n < 0) {
        c->eof = true;
        return NULL;
    }
    c->lno++;
    if (n > 0 && c->line[n - 1] == '\n')
        c->line[--n] = 0;
    return c->line;
}

/* Reads the next line, which must start with prefix; returns the rest, or
 * NULL after reporting what came instead. */
static const char *ct_expect(CtCheck *c, const char *prefix, const char *what)
{
    const char *l = ct_read(c);
    if (!l) {
        ct_mismatch(c, "the history ends where %s (%s) was due", what, prefix);
        return NULL;
    }
    if (strncmp(l, prefix, strlen(prefix)) == 0)
        return l + strlen(prefix);
    if (strncmp(l, "!E!", 3) == 0)
        ct_mismatch(c, "the history records an error where %s (%s) was due: %.300s", what, prefix, l + 3);
    else
        ct_mismatch(c, "%s (%s) was due, the history has: %.300s", what, prefix, l);
    return NULL;
}

/* The engine failed where the history goes on: the history must record an
 * error there (any text) and end. */
static int ct_engine_failed(CtCheck *c, GdlStatus st, const char *query)
{
    const char *l = ct_read(c);
    if (!l || strncmp(l, "!E!", 3) != 0)
        return ct_mismatch(c, "engine %s fails on %s (%s: %s), the history has: %.300s", gdl_machine_engine(c->m),
                           query, gdl_status_name(st), gdl_machine_error(c->m), l ? l : "(its end)");
    if (!ct_expect(c, "!F!", "the end"))
        return CLI_FAULT;
    c->failed_too = true;
    return CLI_OK;
}

/* Splits a list as gdl-perf does (on ",", each item trimmed) and parses each
 * item as a move; also checks it is written as GGP-Base writes it. */
static int ct_parse_moves(CtCheck *c, const char *list, const char *what, U32Vec *out)
{
    out->n = 0;
    char *copy = base_xstrdup(list);
    int rc = CLI_OK;
    for (char *item = copy, *next; item && rc == CLI_OK; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = 0;
        char *end = item + strlen(item);
        while (*item == ' ' || *item == '\t')
            item++;
        while (end > item && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = 0;
        GdlMove mv;
        if (gdl_move_parse(c->m, item, &mv) != GDL_OK) {
            rc = ct_mismatch(c, "%s: '%.200s' is no term: %s", what, item, gdl_machine_error(c->m));
            break;
        }
        c->want.len = 0;
        strbuf_add(&c->want, "");
        ct_add_ggp(&c->want, gdl_move_text(c->m, mv));
        if (strcmp(c->want.s, item) != 0)
            rc = ct_mismatch(c, "%s: '%.200s' is not written as GGP-Base writes it ('%.200s')", what, item,
                             c->want.s);
        vec_push(*out, mv);
    }
    free(copy);
    return rc;
}

static int ct_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static bool ct_contains(const U32Vec *v, uint32_t x)
{
    for (uint32_t i = 0; i < v->n; i++)
        if (v->v[i] == x)
            return true;
    return false;
}

/* Compares a role's legal moves in the history with the engine's, as sets
 * with no duplicates. */
static int ct_check_legal(CtCheck *c, unsigned role, U32Vec *theirs, U32Vec *ours)
{
    char what[300];
    snprintf(what, sizeof what, "the legal moves of %s", gdl_game_role_name(c->g, role));
    const char *l = ct_expect(c, "!L!", what);
    if (!l || ct_parse_moves(c, l, what, theirs) != CLI_OK)
        return CLI_FAULT;
    qsort(theirs->v, theirs->n, sizeof *theirs->v, ct_cmp_u32);
    for (uint32_t i = 1; i < theirs->n; i++)
        if (theirs->v[i] == theirs->v[i - 1])
            return ct_mismatch(c, "%s: %s is listed twice", what, gdl_move_text(c->m, theirs->v[i]));
    U32Vec sorted = {0};
    for (uint32_t i = 0; i < ours->n; i++)
        vec_push(sorted, ours->v[i]);
    if (sorted.n)
        qsort(sorted.v, sorted.n, sizeof *sorted.v, ct_cmp_u32);
    int rc = CLI_OK;
    for (uint32_t i = 0; i < sorted.n && rc == CLI_OK; i++)
        if (!ct_contains(theirs, sorted.v[i]))
            rc = ct_mismatch(c, "%s: the history lacks %s, which engine %s finds legal", what,
                             gdl_move_text(c->m, sorted.v[i]), gdl_machine_engine(c->m));
    for (uint32_t i = 0; i < theirs->n && rc == CLI_OK; i++)
        if (!ct_contains(&sorted, theirs->v[i]))
            rc = ct_mismatch(c, "%s: the history has %s, which engine %s does not find legal", what,
                             gdl_move_text(c->m, theirs->v[i]), gdl_machine_engine(c->m));
    vec_free(sorted);
    return rc;
}

/* Replays the history; CLI_OK when every line agrees. */
static int ct_check(CtCheck *c, uint64_t n)
{
    unsigned nroles = gdl_game_role_count(c->g);
    U32Vec *legal = base_xcalloc(nroles + 1, sizeof *legal);
    U32Vec theirs = {0};
    GdlMove *joint = base_xcalloc(nroles + 1, sizeof *joint);
    int *goals = base_xcalloc(nroles + 1, sizeof *goals);
    GdlState *s = NULL, *next = NULL;
    uint64_t changes = 0, playouts = 0;
    int rc = CLI_OK;
    bool done = false;
    const char *l = ct_expect(c, "!R!", "the roles");
    strbuf_add(&c->want, "");
    for (unsigned k = 0; l && k < nroles; k++) {
        if (k)
            strbuf_add(&c->want, ",");
        ct_add_ggp(&c->want, gdl_game_role_name(c->g, k));
    }
    if (!l)
        rc = CLI_FAULT;
    else if (strcmp(l, c->want.s) != 0)
        rc = ct_mismatch(c, "the roles differ: the history has '%.300s', the game has '%s'", l, c->want.s);
    while (rc == CLI_OK && !done) {
        uint64_t step = 0;
        GdlStatus st;
        gdl_state_free(s);
        s = NULL;
        if ((st = gdl_state_initial(c->m, &s)) != GDL_OK) {
            rc = ct_engine_failed(c, st, "the initial state");
            done = true;
            break;
        }
        for (;;) {
            bool terminal = false;
            if ((st = gdl_state_is_terminal(c->m, s, &terminal)) != GDL_OK) {
                rc = ct_engine_failed(c, st, "terminal");
                done = true;
                break;
            }
            if (!(l = ct_expect(c, "!T!", "the terminal flag"))) {
                rc = CLI_FAULT;
                break;
            }
            if (strcmp(l, terminal ? "true" : "false") != 0) {
                rc = ct_mismatch(c, "the terminal flag differs: the history has '%.20s', engine %s says %s", l,
                                 gdl_machine_engine(c->m), terminal ? "true" : "false");
                break;
            }
            if (terminal)
                break;
            for (unsigned k = 0; k < nroles && rc == CLI_OK && !done; k++) {
                const GdlMove *moves;
                size_t nm;
                if ((st = gdl_state_legal(c->m, s, k, &moves, &nm)) != GDL_OK) {
                    rc = ct_engine_failed(c, st, "the legal moves");
                    done = true;
                    break;
                }
                legal[k].n = 0;
                for (size_t i = 0; i < nm; i++)
                    vec_push(legal[k], moves[i]);
                rc = ct_check_legal(c, k, &theirs, &legal[k]);
            }
            if (rc != CLI_OK || done)
                break;
            if (!(l = ct_expect(c, "!C!", "the joint move")) ||
                ct_parse_moves(c, l, "the joint move", &theirs) != CLI_OK) {
                rc = CLI_FAULT;
                break;
            }
            if (theirs.n != nroles) {
                rc = ct_mismatch(c, "the joint move has %u moves for %u roles", theirs.n, nroles);
                break;
            }
            for (unsigned k = 0; k < nroles && rc == CLI_OK; k++) {
                joint[k] = theirs.v[k];
                if (!ct_contains(&legal[k], joint[k]))
                    rc = ct_mismatch(c, "the joint move gives %s the move %s, which is not legal",
                                     gdl_game_role_name(c->g, k), gdl_move_text(c->m, joint[k]));
            }
            if (rc != CLI_OK)
                break;
            if ((st = gdl_state_next(c->m, s, joint, &next)) != GDL_OK) {
                rc = ct_engine_failed(c, st, "the next state");
                done = true;
                break;
            }
            gdl_state_free(s);
            s = next;
            changes++;
            step++;
        }
        if (rc != CLI_OK || done)
            break;
        GdlStatus gs = gdl_state_goals(c->m, s, goals);
        if (gs != GDL_OK) {
            rc = ct_engine_failed(c, gs, "the goals");
            break;
        }
        if (!(l = ct_expect(c, "!G!", "the goals"))) {
            rc = CLI_FAULT;
            break;
        }
        c->want.len = 0;
        strbuf_add(&c->want, "");
        for (unsigned k = 0; k < nroles; k++)
            strbuf_addf(&c->want, k ? ",%d" : "%d", goals[k]);
        if (strcmp(l, c->want.s) != 0) {
            rc = ct_mismatch(c, "the goals differ: the history has '%.300s', engine %s says '%s'", l,
                             gdl_machine_engine(c->m), c->want.s);
            break;
        }
        playouts++;
        if (changes > n || step == 0) {
            if (!ct_expect(c, "!F!", "the end"))
                rc = CLI_FAULT;
            done = true;
        }
    }
    if (rc == CLI_OK && ct_read(c))
        rc = ct_mismatch(c, "a line after the end (!F!): %.300s", c->line);
    if (rc == CLI_OK)
        printf("%s: agrees with engine %s: %llu playout%s, %llu state changes, %llu lines%s\n", c->path,
               gdl_machine_engine(c->m), (unsigned long long)playouts, playouts == 1 ? "" : "s",
               (unsigned long long)changes, (unsigned long long)c->lno,
               c->failed_too ? ", ending with an error the engine reports too" : "");
    gdl_state_free(s);
    for (unsigned k = 0; k < nroles; k++)
        vec_free(legal[k]);
    free(legal);
    vec_free(theirs);
    free(joint);
    free(goals);
    return rc;
}

/* ---- the command ----------------------------------------------------------- */

/* Closes the history: a lost write is exit 2 (cli_output_close says so),
 * else rc. */
static int ct_close(const char *cmd, FILE *out, const char *path, int rc)
{
    int w = cli_output_close(cmd, out, path);
    return w != CLI_OK ? w : rc;
}

static int correctness_run(CliArgs *a)
{
    const char *engine = NULL, *pos[3];
    uint64_t seed = 1, n = 0;
    bool check = false;
    int npos = 0;
    while (a->i < a->argc) {
        const char *v = NULL, *arg = a->argv[a->i];
        bool bad = false;
        if (cli_opt_value(a, "--engine", &v, &bad)) {
            if (bad)
                return CLI_USAGE;
            engine = v;
        } else if (cli_opt_value(a, "--seed", &v, &bad)) {
            if (bad || !cli_parse_u64(a->cmd, "--seed", v, &seed))
                return CLI_USAGE;
        } else if (cli_opt_flag(a, "--check")) {
            check = true;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_usage_error(a->cmd, "unknown option '%s'", arg);
        } else if (npos == 3) {
            return cli_usage_error(a->cmd, "too many arguments ('%s')", arg);
        } else {
            pos[npos++] = arg;
            a->i++;
        }
    }
    if (npos != 3)
        return cli_usage_error(a->cmd, "give GAME HISTORY N");
    if (check) {
        if (!cli_parse_u64(a->cmd, "N", pos[2], &n))
            return CLI_USAGE;
        FILE *in = fopen(pos[1], "r");
        if (!in) {
            fprintf(stderr, "gdlc correctness-test: cannot read %s: %s\n", pos[1], strerror(errno));
            return CLI_USAGE;
        }
        GdlGame *game = NULL;
        char *why = NULL;
        int rc = cli_open_game(pos[0], &game, &why);
        free(why);
        GdlMachine *m = NULL;
        char *err = NULL;
        GdlStatus st = rc == CLI_OK ? gdl_machine_new(game, engine ? engine : "ref", &m) : GDL_OK;
        if (st != GDL_OK) {
            fprintf(stderr, "gdlc correctness-test: %s%s\n", gdl_game_error(game), cli_engine_hint(st));
            rc = st == GDL_NO_ENGINE ? CLI_USAGE : CLI_FAULT;
            free(err);
        }
        if (rc == CLI_OK) {
            CtCheck c = {.in = in, .path = pos[1], .m = m, .g = game};
            rc = ct_check(&c, n);
            free(c.line);
            free(c.want.s);
        }
        fclose(in);
        gdl_machine_free(m);
        gdl_game_free(game);
        return rc;
    }
    /* The history is made first, so that every failure after this point
     * is written into it, where gdl-perf looks. */
    const char *inputs[2];
    FILE *out = cli_output_open(a->cmd, pos[1], inputs, cli_inputs(pos[0], engine, inputs));
    if (!out)
        return CLI_USAGE;
    setvbuf(out, NULL, _IOLBF, 0);
    if (!cli_parse_u64(a->cmd, "N", pos[2], &n)) {
        fprintf(out, "!E!usage: N is a number of state changes, not '%s'\n!F!\n", pos[2]);
        return ct_close(a->cmd, out, pos[1], CLI_USAGE);
    }
    GdlGame *game = NULL;
    char *why = NULL;
    int rc = cli_open_game(pos[0], &game, &why);
    GdlMachine *m = NULL;
    if (rc == CLI_OK) {
        GdlStatus st = gdl_machine_new(game, engine, &m);
        if (st != GDL_OK) {
            why = base_sprintf("%s%s", gdl_game_error(game), cli_engine_hint(st));
            fprintf(stderr, "gdlc correctness-test: %s\n", why);
            rc = st == GDL_NO_ENGINE ? CLI_USAGE : CLI_FAULT;
        }
    }
    if (rc != CLI_OK) {
        StrBuf b = {0};
        strbuf_add(&b, "!E!");
        ct_add_error(&b, why ? why : "cannot load the game");
        fprintf(out, "%s\n!F!\n", b.s);
        free(b.s);
    } else {
        CtWriter w = {.out = out, .path = pos[1], .m = m, .g = game};
        CtEnd end = ct_write(&w, n, seed);
        free(w.line.s);
        rc = end == CT_FAULT ? CLI_FAULT : CLI_OK;
    }
    free(why);
    gdl_machine_free(m);
    gdl_game_free(game);
    return ct_close(a->cmd, out, pos[1], rc);
}

const CliCommand cli_correctness_test = {
    "correctness-test",
    "gdl-perf's correctness protocol: GAME HISTORY N",
    "usage: gdlc correctness-test [--engine E] [--seed N] GAME HISTORY N\n"
    "       gdlc correctness-test --check [--engine E] GAME HISTORY N\n"
    "\n"
    "The correctness protocol of gdl-perf: plays random playouts of GAME until\n"
    "the state changes exceed N (finishing the playout in progress) and writes\n"
    "to HISTORY, a line at a time as it goes:\n"
    "  !R!ROLE,ROLE,...     the roles\n"
    "  !T!false             each non-terminal state, followed by\n"
    "  !L!MOVE,MOVE,...     the legal moves of each role, in role order, and\n"
    "  !C!MOVE,MOVE,...     the joint move chosen\n"
    "  !T!true              the terminal state ending a playout, followed by\n"
    "  !G!GOAL,GOAL,...     the goals in role order\n"
    "  !F!                  the end, after !E!TEXT when something failed\n"
    "Roles and moves are written as GGP-Base writes them: noop, ( mark 1 2 ).\n"
    "When the initial state is terminal the history is !R!, !T!true, !G!, !F!.\n"
    "\n"
    "options:\n"
    "  --engine E      jit (default), aot, pn, ref, so:PATH and their options\n"
    "                  ('gdlc help engines'); with --check, the engine the\n"
    "                  history is replayed on (default ref)\n"
    "  --seed N        the seed of the random moves (default 1): each role draws\n"
    "                  uniformly from its legal moves sorted canonically\n"
    "  --check         read HISTORY back instead and replay it: the roles, every\n"
    "                  terminal flag, every legal set, that each chosen move is\n"
    "                  legal, the goals, and the end where N puts it; the first\n"
    "                  difference is printed as HISTORY:LINE: what differs\n"
    "\n"
    "exit status: 0 done (or, with --check, the history agrees), 1 the game is\n"
    "invalid or faulty, or the history disagrees, 2 usage error, unreadable or\n"
    "unwritable file. Failures are also written into HISTORY as !E! and !F!.\n",
    correctness_run,
};
