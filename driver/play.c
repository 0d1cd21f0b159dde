/*
 * play.c: the commands that play games: play, replay, bench and perf-test.
 *
 * Random playthroughs are the same everywhere: from the initial state, until
 * terminal (or --max-steps joint moves), each role in order draws its move
 * uniformly from its legal moves sorted canonically, with gdl_rng_below on
 * one generator seeded by --seed. Same seed, same playthrough, on every
 * engine and every machine.
 */
#include <string.h>
#include <sys/resource.h>

#include "../runtime/runtime.h"
#include "cli.h"

/* ---- shared ----------------------------------------------------------- */

typedef struct Session {
    GdlGame *game;
    GdlMachine *m;
    double t_start, t_ready; /* load started; machine ready */
} Session;

/* Loads the game and makes the machine, reporting problems. */
static int session_open(Session *s, const char *path, const char *engine)
{
    memset(s, 0, sizeof *s);
    s->t_start = gdl_now();
    int rc = cli_open_game(path, &s->game);
    if (rc != CLI_OK)
        return rc;
    char *err = NULL;
    GdlStatus st = gdl_machine_new(s->game, engine, &s->m, &err);
    if (st != GDL_OK) {
        fprintf(stderr, "gdlc: %s\n", err);
        free(err);
        gdl_game_free(s->game);
        return st == GDL_NO_ENGINE ? CLI_USAGE : CLI_FAULT;
    }
    s->t_ready = gdl_now();
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
            o->out = v;
        } else if (cli_opt_flag(a, "--json")) {
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

/* One random playthrough; writes a trace when f is not NULL. On failure the
 * machine's error says what happened. */
static GdlStatus playout(GdlMachine *m, const GdlGame *g, GdlRng *rng, uint64_t max_steps, FILE *f, PlayResult *res,
                         GdlMove *joint, int *goals)
{
    unsigned nroles = gdl_game_role_count(g);
    GdlState *s = NULL, *next = NULL;
    GdlStatus st = gdl_initial_state(m, &s);
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
        if ((st = gdl_is_terminal(m, s, &terminal)) != GDL_OK)
            break;
        if (terminal) {
            if ((st = gdl_goals(m, s, goals)) != GDL_OK)
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
            if ((st = gdl_legal_moves(m, s, k, &moves, &n)) != GDL_OK)
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
        if ((st = gdl_next_state(m, s, joint, &next)) != GDL_OK)
            break;
        gdl_state_free(s);
        s = next;
        res->steps++;
    }
    gdl_state_free(s);
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
    return session_open(s, *path, o->engine);
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
    if (o.out && !(f = fopen(o.out, "w"))) {
        fprintf(stderr, "gdlc play: cannot write %s\n", o.out);
        session_close(&s);
        return CLI_USAGE;
    }
    fprintf(f, "; game: %s\n; engine: gdlc %s %s, seed %llu\n", pos[0], gdl_version(), gdl_machine_engine(s.m),
            (unsigned long long)o.seed);
    unsigned nroles = gdl_game_role_count(s.game);
    GdlMove *joint = base_xcalloc(nroles + 1, sizeof *joint);
    int *goals = base_xcalloc(nroles + 1, sizeof *goals);
    GdlRng rng;
    gdl_rng_seed(&rng, o.seed);
    PlayResult res;
    GdlStatus st = playout(s.m, s.game, &rng, o.max_steps, f, &res, joint, goals);
    if (f != stdout)
        fclose(f);
    if (st != GDL_OK) {
        fprintf(stderr, "gdlc play: %s: step %llu: %s\n", pos[0], (unsigned long long)res.steps,
                gdl_machine_error(s.m));
        rc = CLI_FAULT;
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
    "  --engine E      ref, jit (default), aot or so:PATH\n"
    "  --seed N        the seed (default 1)\n"
    "  --max-steps K   stop after K joint moves (default 10000)\n"
    "  -o, --output F  write the trace to F instead of stdout\n",
    play_run,
};

/* ---- gdlc replay ------------------------------------------------------ */

typedef struct Replay {
    const char *trace_path;
    Source *src;
    Symtab syms;
    KifDoc doc;
    DiagList diags;
    GdlMachine *m;
    const GdlGame *g;
} Replay;

static int trace_error(Replay *r, uint32_t node, const char *fmt, ...) BASE_PRINTF(3, 4);
static int trace_error(Replay *r, uint32_t node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(&r->diags, DIAG_ERROR, node == BASE_NONE ? 0 : r->doc.nodes.v[node].off, fmt, ap);
    va_end(ap);
    diag_print(stderr, &r->diags, false);
    return CLI_FAULT;
}

/* The head symbol text of a list form, or "". */
static const char *form_head(Replay *r, uint32_t node)
{
    const KifNode *n = &r->doc.nodes.v[node];
    if (n->kind == KIF_SYM)
        return symtab_str(&r->syms, n->sym);
    if (n->kind != KIF_LIST || n->sym == 0 || r->doc.nodes.v[n->first].kind != KIF_SYM)
        return "";
    return symtab_str(&r->syms, r->doc.nodes.v[n->first].sym);
}

/* The terms of a form after its head (and after `skip` more elements). */
static bool form_terms(Replay *r, uint32_t node, uint32_t skip, U32Vec *out)
{
    out->n = 0;
    uint32_t c = r->doc.nodes.v[node].first;
    for (uint32_t i = 0; i <= skip && c != BASE_NONE; i++)
        c = r->doc.nodes.v[c].next;
    for (; c != BASE_NONE; c = r->doc.nodes.v[c].next) {
        Gt t = gt_from_kif(&r->m->store, &r->doc, &r->syms, c);
        if (t == BASE_NONE)
            return false;
        vec_push(*out, t);
    }
    return true;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Compares two sets of terms; on a difference prints it and returns false. */
static bool same_set(Replay *r, uint64_t step, const char *what, U32Vec *want, const Gt *got, size_t ngot)
{
    U32Vec g = {0};
    for (size_t i = 0; i < ngot; i++)
        vec_push(g, got[i]);
    if (want->n > 1)
        qsort(want->v, want->n, sizeof *want->v, cmp_u32);
    if (g.n > 1)
        qsort(g.v, g.n, sizeof *g.v, cmp_u32);
    U32Vec only_trace = {0}, only_engine = {0};
    uint32_t i = 0, j = 0;
    while (i < want->n || j < g.n) {
        if (j == g.n || (i < want->n && want->v[i] < g.v[j]))
            vec_push(only_trace, want->v[i++]);
        else if (i == want->n || g.v[j] < want->v[i])
            vec_push(only_engine, g.v[j++]);
        else
            i++, j++;
    }
    bool same = !only_trace.n && !only_engine.n;
    if (!same) {
        fprintf(stderr, "%s: step %llu: %s differ\n", r->trace_path, (unsigned long long)step, what);
        gt_sort(&r->m->store, only_trace.v, only_trace.n);
        gt_sort(&r->m->store, only_engine.v, only_engine.n);
        fprintf(stderr, "  only in the trace:");
        for (uint32_t k = 0; k < only_trace.n; k++)
            fprintf(stderr, " %s", gt_text(&r->m->store, only_trace.v[k]));
        fprintf(stderr, "\n  only in engine %s:", gdl_machine_engine(r->m));
        for (uint32_t k = 0; k < only_engine.n; k++)
            fprintf(stderr, " %s", gt_text(&r->m->store, only_engine.v[k]));
        fputc('\n', stderr);
    }
    vec_free(g);
    vec_free(only_trace);
    vec_free(only_engine);
    return same;
}

/* Replays one trace. CLI_OK when the engine agrees everywhere (or the time
 * cap stopped it, reported); CLI_FAULT on a divergence or a bad trace. */
static int replay_one(const char *path, GdlMachine *m, const GdlGame *g, double cap, uint64_t *steps_checked,
                      bool *capped)
{
    Replay r = {.trace_path = path, .m = m, .g = g};
    size_t len;
    char *err = NULL;
    bool big;
    char *text = base_read_file(path, &len, &err, &big);
    if (!text) {
        fprintf(stderr, "gdlc replay: %s\n", err);
        free(err);
        return CLI_USAGE;
    }
    r.src = source_new(path, text, len);
    symtab_init(&r.syms);
    diag_init(&r.diags, r.src);
    int rc = CLI_OK;
    unsigned nroles = gdl_game_role_count(g);
    GdlState *s = NULL;
    U32Vec terms = {0};
    GdlMove *joint = base_xcalloc(nroles + 1, sizeof *joint);
    int *goals = base_xcalloc(nroles + 1, sizeof *goals);
    uint64_t step = 0;
    bool in_step = false, saw_legal = false, saw_terminal = false, done = false;
    *capped = false;
    *steps_checked = 0;
    gdl_machine_set_deadline(m, cap > 0 ? gdl_now() + cap : 0);
    GdlStatus st = GDL_OK;
    if (!kif_read(r.src, &r.syms, &r.diags, &r.doc)) {
        diag_print(stderr, &r.diags, false);
        rc = CLI_FAULT;
        goto out;
    }
    if ((st = gdl_initial_state(m, &s)) != GDL_OK)
        goto engine_failed;
    for (uint32_t i = 0; i < r.doc.tops.n && rc == CLI_OK; i++) {
        uint32_t node = r.doc.tops.v[i];
        const char *head = form_head(&r, node);
        const KifNode *n = &r.doc.nodes.v[node];
        if (done) {
            rc = trace_error(&r, node, "malformed trace: nothing may follow the goals");
        } else if (strcmp(head, "roles") == 0) {
            if (i != 0 || n->sym - 1 != nroles)
                rc = trace_error(&r, node, "this trace is not for this game: it has %u roles, the game %u",
                                 n->sym - 1, nroles);
            for (uint32_t k = 0; rc == CLI_OK && k < nroles; k++) {
                uint32_t c = kif_elem(&r.doc, node, k + 1);
                if (r.doc.nodes.v[c].kind != KIF_SYM || strcmp(symtab_str(&r.syms, r.doc.nodes.v[c].sym),
                                                                 gdl_game_role_name(g, k)) != 0)
                    rc = trace_error(&r, c, "this trace is not for this game: role %u is '%s' in the game", k + 1,
                                     gdl_game_role_name(g, k));
            }
        } else if (strcmp(head, "step") == 0) {
            uint32_t c = kif_elem(&r.doc, node, 1);
            char want[32];
            snprintf(want, sizeof want, "%llu", (unsigned long long)(in_step ? step + 1 : 0));
            if (c == BASE_NONE || r.doc.nodes.v[c].kind != KIF_SYM || strcmp(symtab_str(&r.syms, r.doc.nodes.v[c].sym), want))
                rc = trace_error(&r, node, "malformed trace: expected (step %s)", want);
            if (in_step)
                step++;
            in_step = true;
            saw_legal = false;
        } else if (!in_step) {
            rc = trace_error(&r, node, "malformed trace: expected (roles ...) then (step 0)");
        } else if (strcmp(head, "state") == 0) {
            if (!form_terms(&r, node, 0, &terms))
                rc = trace_error(&r, node, "malformed trace: a state holds ground terms");
            else if (!same_set(&r, step, "states", &terms, s->facts, s->n))
                rc = CLI_FAULT;
            else
                (*steps_checked)++;
        } else if (strcmp(head, "legal") == 0) {
            uint32_t c = kif_elem(&r.doc, node, 1);
            unsigned k = 0;
            while (c != BASE_NONE && k < nroles && r.doc.nodes.v[c].kind == KIF_SYM &&
                   strcmp(symtab_str(&r.syms, r.doc.nodes.v[c].sym), gdl_game_role_name(g, k)) != 0)
                k++;
            if (c == BASE_NONE || k == nroles || !form_terms(&r, node, 1, &terms)) {
                rc = trace_error(&r, node, "malformed trace: expected (legal ROLE MOVE...) for a role of the game");
                break;
            }
            const GdlMove *moves;
            size_t nm;
            if ((st = gdl_legal_moves(m, s, k, &moves, &nm)) != GDL_OK)
                goto engine_failed;
            char what[300];
            snprintf(what, sizeof what, "legal moves of %s", gdl_game_role_name(g, k));
            if (!same_set(&r, step, what, &terms, moves, nm))
                rc = CLI_FAULT;
            saw_legal = true;
        } else if (strcmp(head, "does") == 0) {
            if (!form_terms(&r, node, 0, &terms) || terms.n != nroles) {
                rc = trace_error(&r, node, "malformed trace: (does ...) needs one move per role");
                break;
            }
            bool terminal;
            if ((st = gdl_is_terminal(m, s, &terminal)) != GDL_OK)
                goto engine_failed;
            if (terminal) {
                fprintf(stderr, "%s: step %llu: engine %s finds the state terminal; the trace plays on\n", path,
                        (unsigned long long)step, gdl_machine_engine(m));
                rc = CLI_FAULT;
                break;
            }
            for (unsigned k = 0; k < nroles && rc == CLI_OK; k++) {
                const GdlMove *moves;
                size_t nm;
                if ((st = gdl_legal_moves(m, s, k, &moves, &nm)) != GDL_OK)
                    goto engine_failed;
                bool legal = false;
                for (size_t q = 0; q < nm; q++)
                    legal |= moves[q] == terms.v[k];
                if (!legal)
                    rc = trace_error(&r, node, "the recorded move %s of %s is not legal here (step %llu)",
                                     gt_text(&m->store, terms.v[k]), gdl_game_role_name(g, k),
                                     (unsigned long long)step);
                joint[k] = terms.v[k];
            }
            if (rc != CLI_OK)
                break;
            GdlState *next;
            if ((st = gdl_next_state(m, s, joint, &next)) != GDL_OK)
                goto engine_failed;
            gdl_state_free(s);
            s = next;
        } else if (strcmp(head, "terminal") == 0) {
            bool terminal;
            if ((st = gdl_is_terminal(m, s, &terminal)) != GDL_OK)
                goto engine_failed;
            if (!terminal) {
                fprintf(stderr, "%s: step %llu: the trace ends in a terminal state; engine %s finds it not terminal\n",
                        path, (unsigned long long)step, gdl_machine_engine(m));
                rc = CLI_FAULT;
            }
            saw_terminal = true;
        } else if (strcmp(head, "goals") == 0) {
            if (!saw_terminal || n->sym - 1 != nroles) {
                rc = trace_error(&r, node, "malformed trace: (goals ...) follows (terminal), one value per role");
                break;
            }
            if ((st = gdl_goals(m, s, goals)) != GDL_OK)
                goto engine_failed;
            for (unsigned k = 0; k < nroles; k++) {
                uint32_t c = kif_elem(&r.doc, node, k + 1);
                const char *v = r.doc.nodes.v[c].kind == KIF_SYM ? symtab_str(&r.syms, r.doc.nodes.v[c].sym) : "?";
                char got[16];
                snprintf(got, sizeof got, "%d", goals[k]);
                if (strcmp(v, got) != 0) {
                    fprintf(stderr, "%s: step %llu: goal of %s differs: trace %s, engine %s %s\n", path,
                            (unsigned long long)step, gdl_game_role_name(g, k), v, gdl_machine_engine(m), got);
                    rc = CLI_FAULT;
                    break;
                }
            }
            done = true;
        } else {
            rc = trace_error(&r, node, "malformed trace: unknown form '%s'", head);
        }
    }
    if (rc == CLI_OK && !in_step)
        rc = trace_error(&r, BASE_NONE, "malformed trace: no steps");
    if (rc == CLI_OK && !saw_terminal && saw_legal) {
        /* a trace cut short: the last state must be non-terminal */
        bool terminal;
        if ((st = gdl_is_terminal(m, s, &terminal)) != GDL_OK)
            goto engine_failed;
        if (terminal) {
            fprintf(stderr, "%s: step %llu: engine %s finds the state terminal; the trace has legal moves there\n",
                    path, (unsigned long long)step, gdl_machine_engine(m));
            rc = CLI_FAULT;
        }
    }
    goto out;
engine_failed:
    if (st == GDL_CANCELLED) {
        *capped = true;
        rc = CLI_OK;
    } else {
        fprintf(stderr, "%s: step %llu: engine %s failed: %s\n", path, (unsigned long long)step,
                gdl_machine_engine(m), gdl_machine_error(m));
        rc = CLI_FAULT;
    }
out:
    gdl_machine_set_deadline(m, 0);
    gdl_state_free(s);
    free(joint);
    free(goals);
    vec_free(terms);
    kif_doc_free(&r.doc);
    diag_free(&r.diags);
    symtab_free(&r.syms);
    source_free(r.src);
    return rc;
}

static int replay_run(CliArgs *a)
{
    PlayOpts o = {0};
    const char *pos[4096];
    int npos;
    if (!parse_play_opts(a, &o, pos, 4096, &npos))
        return CLI_USAGE;
    if (npos < 2)
        return cli_usage_error(a->cmd, "give a game file and at least one trace");
    Session s;
    int rc = session_open(&s, pos[0], o.engine);
    if (rc != CLI_OK)
        return rc;
    int agreed = 0, diverged = 0, capped_n = 0;
    for (int i = 1; i < npos; i++) {
        uint64_t steps;
        bool capped;
        int r = replay_one(pos[i], s.m, s.game, o.seconds_given ? o.seconds : 0, &steps, &capped);
        if (r == CLI_OK) {
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
    printf("replay: %d agreed (%d stopped at the time cap), %d failed\n", agreed, capped_n, diverged);
    session_close(&s);
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
    "  --engine E    ref, jit (default), aot or so:PATH\n"
    "  --seconds S   time cap per trace; a trace stopped by it counts as agreeing\n"
    "                up to where it got, and says so\n"
    "\n"
    "exit status: 0 all agree, 1 a divergence or a malformed trace, 2 usage.\n",
    replay_run,
};

/* ---- gdlc bench and perf-test ------------------------------------------ */

typedef struct BenchResult {
    uint64_t state_changes, playouts, capped;
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
     * finishes (--max-steps bounds it). */
    double t0 = gdl_now(), end = t0 + o->seconds;
    GdlStatus st = GDL_OK;
    do {
        PlayResult res;
        st = playout(s->m, s->game, &rng, o->max_steps, NULL, &res, joint, goals);
        *step_of_error = res.steps;
        if (st != GDL_OK)
            break;
        b->state_changes += res.steps;
        b->playouts++;
        b->capped += res.capped;
    } while (gdl_now() < end);
    b->seconds = gdl_now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    b->peak_rss_kb = ru.ru_maxrss;
    free(joint);
    free(goals);
    return st;
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

static int bench_run(CliArgs *a)
{
    PlayOpts o = {.seed = 1, .max_steps = 10000, .seconds = 10};
    const char *pos[1];
    Session s;
    int rc = open_one_game(a, &o, &s, pos);
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
    double scps = b.state_changes / b.seconds, pps = b.playouts / b.seconds;
    double depth = b.playouts ? (double)b.state_changes / (double)b.playouts : 0;
    if (o.json) {
        printf("{\"game\": ");
        json_string(stdout, pos[0]);
        printf(", \"engine\": \"%s\", \"seconds\": %.3f, \"state_changes\": %llu, \"playouts\": %llu, "
               "\"capped_playouts\": %llu, \"state_changes_per_s\": %.1f, \"playouts_per_s\": %.2f, "
               "\"avg_depth\": %.2f, \"load_to_ready_s\": %.6f, \"peak_rss_kb\": %ld}\n",
               gdl_machine_engine(s.m), b.seconds, (unsigned long long)b.state_changes,
               (unsigned long long)b.playouts, (unsigned long long)b.capped, scps, pps, depth, b.load_to_ready,
               b.peak_rss_kb);
    } else {
        printf("game:                %s\nengine:              %s\nseconds:             %.2f\n"
               "state changes:       %llu (%.1f per second)\nplayouts:            %llu (%.2f per second, %llu capped)\n"
               "average depth:       %.2f\nload to ready:       %.2f ms\npeak memory:         %ld KiB\n",
               pos[0], gdl_machine_engine(s.m), b.seconds, (unsigned long long)b.state_changes, scps,
               (unsigned long long)b.playouts, pps, (unsigned long long)b.capped, depth, b.load_to_ready * 1e3,
               b.peak_rss_kb);
    }
    session_close(&s);
    return CLI_OK;
}

const CliCommand cli_bench = {
    "bench",
    "measure state changes per second over random playthroughs",
    "usage: gdlc bench GAME.kif [--engine E] [--seconds S] [--seed N] [--max-steps K] [--json]\n"
    "\n"
    "Plays random playthroughs for S seconds exactly as gdl-perf does (initial\n"
    "state; until terminal: legal moves of every role, a random move per role,\n"
    "next state; then all goals) and reports state changes per second, playouts\n"
    "per second, average depth, time from load to ready and peak memory.\n"
    "\n"
    "options:\n"
    "  --engine E      ref, jit (default), aot or so:PATH\n"
    "  --seconds S     how long to play (default 10)\n"
    "  --seed N        the seed (default 1)\n"
    "  --max-steps K   cap each playthrough at K joint moves (default 10000);\n"
    "                  capped playthroughs are counted\n"
    "  --json          one JSON object with the keys game, engine, seconds,\n"
    "                  state_changes, playouts, capped_playouts,\n"
    "                  state_changes_per_s, playouts_per_s, avg_depth,\n"
    "                  load_to_ready_s, peak_rss_kb\n",
    bench_run,
};

static int perf_test_run(CliArgs *a)
{
    PlayOpts o = {.seed = 1, .max_steps = 10000};
    const char *pos[3];
    int npos;
    if (!parse_play_opts(a, &o, pos, 3, &npos))
        return CLI_USAGE;
    if (npos != 3)
        return cli_usage_error(a->cmd, "give GAME_FILE RESULTS_FILE SECONDS");
    if (!cli_parse_double(a->cmd, "SECONDS", pos[2], &o.seconds))
        return CLI_USAGE;
    FILE *out = fopen(pos[1], "w");
    if (!out) {
        fprintf(stderr, "gdlc perf-test: cannot write %s\n", pos[1]);
        return CLI_USAGE;
    }
    Session s;
    int rc = session_open(&s, pos[0], o.engine);
    /* gdl-perf measures each (engine, version) pair once: name the engine
     * (no so: path, nothing that would end the line) and the build (correctness.c) */
    const char *cli_build_id(void);
    const char *eng = rc == CLI_OK ? gdl_machine_engine(s.m) : o.engine ? o.engine : "jit";
    fprintf(out, "version=gdlc %s %.*s %s\n", gdl_version(), (int)strcspn(eng, ":;\r\n"), eng, cli_build_id());
    if (rc != CLI_OK) {
        fprintf(out, "errorMessage=cannot load %s: %s\n", pos[0],
                rc == CLI_USAGE ? "unreadable file or unknown engine" : "invalid game (see gdlc check)");
        fclose(out);
        return rc;
    }
    BenchResult b;
    uint64_t step;
    GdlStatus st = bench_loop(&s, &o, &b, &step);
    if (st != GDL_OK) {
        fprintf(out, "errorMessage=playout %llu, step %llu: %s\n", (unsigned long long)b.playouts + 1,
                (unsigned long long)step, gdl_machine_error(s.m));
        rc = CLI_FAULT;
    } else {
        fprintf(out, "millisecondsTaken=%llu\nnumStateChanges=%llu\nnumRollouts=%llu\n",
                (unsigned long long)(b.seconds * 1000.0 + 0.5), (unsigned long long)b.state_changes,
                (unsigned long long)b.playouts);
    }
    fclose(out);
    session_close(&s);
    return rc;
}

const CliCommand cli_perf_test = {
    "perf-test",
    "gdl-perf's engine protocol: GAME_FILE RESULTS_FILE SECONDS",
    "usage: gdlc perf-test [--engine E] GAME_FILE RESULTS_FILE SECONDS\n"
    "\n"
    "The language-agnostic engine protocol of gdl-perf: plays random\n"
    "playthroughs of the game for SECONDS and writes to RESULTS_FILE the lines\n"
    "version=, millisecondsTaken=, numStateChanges= and numRollouts=, or\n"
    "errorMessage= when the game cannot be loaded or played.\n",
    perf_test_run,
};

/* ---- gdlc verify ------------------------------------------------------ */

/* The canonical texts of moves, or of a state's facts, as one string, for
 * comparing across machines (malloc-ed). */
static char *moves_text(GdlMachine *m, const GdlMove *moves, size_t n)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (size_t i = 0; i < n; i++)
        strbuf_add_word(&b, gdl_move_text(m, moves[i]));
    return b.s;
}

static char *state_text(GdlMachine *m, const GdlState *s)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (size_t i = 0; i < gdl_state_size(s); i++)
        strbuf_add_word(&b, gdl_state_fact(m, s, i));
    return b.s;
}

typedef struct Verify {
    GdlMachine *e, *ref;
    const GdlGame *g;
    const char *path;
    uint64_t playout, step, states;
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
    int rc = verify_status(v, "the initial state", gdl_initial_state(v->e, &se), gdl_initial_state(v->ref, &sr),
                           &stop);
    for (v->step = 0; rc == CLI_OK && !stop; v->step++) {
        char *a = state_text(v->e, se), *b = state_text(v->ref, sr);
        bool differ = verify_differs(v, "the state", a, b);
        free(a);
        free(b);
        if (differ) {
            rc = CLI_FAULT;
            break;
        }
        v->states++;
        bool te = false, tr = false;
        if ((rc = verify_status(v, "terminal", gdl_is_terminal(v->e, se, &te), gdl_is_terminal(v->ref, sr, &tr),
                                &stop)) != CLI_OK || stop)
            break;
        if (verify_differs(v, "terminal", te ? "terminal" : "not terminal", tr ? "terminal" : "not terminal")) {
            rc = CLI_FAULT;
            break;
        }
        GdlStatus st_e = gdl_goals(v->e, se, ge), st_r = gdl_goals(v->ref, sr, gr);
        if ((rc = verify_status(v, "goals", st_e, st_r, &stop)) != CLI_OK)
            break;
        for (unsigned k = 0; st_e == GDL_OK && k < nroles && rc == CLI_OK; k++) {
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
            GdlStatus a2 = gdl_legal_moves(v->e, se, k, &me, &ne);
            char *ta = a2 == GDL_OK ? moves_text(v->e, me, ne) : NULL;
            GdlStatus b2 = gdl_legal_moves(v->ref, sr, k, &mr, &nr);
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
        rc = verify_status(v, "the next state", gdl_next_state(v->e, se, je, &ne2), gdl_next_state(v->ref, sr, jr, &nr2),
                           &stop);
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
    uint64_t playouts = 10;
    const char *pos[1];
    int npos = 0;
    /* --playouts is verify's own; the rest are the shared options */
    for (int i = a->i; i < a->argc; i++)
        if (strncmp(a->argv[i], "--playouts", 10) == 0) {
            const char *val = a->argv[i][10] == '=' ? a->argv[i] + 11 : (i + 1 < a->argc ? a->argv[i + 1] : "");
            if (!cli_parse_u64(a->cmd, "--playouts", val, &playouts))
                return CLI_USAGE;
            int drop = a->argv[i][10] == '=' ? 1 : 2;
            for (int k = i; k + drop < a->argc; k++)
                a->argv[k] = a->argv[k + drop];
            a->argc -= drop;
            break;
        }
    if (!parse_play_opts(a, &o, pos, 1, &npos))
        return CLI_USAGE;
    if (npos != 1)
        return cli_usage_error(a->cmd, "give one game file");
    Session s;
    int rc = session_open(&s, pos[0], o.engine ? o.engine : "jit");
    if (rc != CLI_OK)
        return rc;
    GdlMachine *ref = NULL;
    char *err = NULL;
    if (gdl_machine_new(s.game, "ref", &ref, &err) != GDL_OK) {
        fprintf(stderr, "gdlc verify: %s\n", err);
        free(err);
        session_close(&s);
        return CLI_FAULT;
    }
    Verify v = {.e = s.m, .ref = ref, .g = s.game, .path = pos[0]};
    GdlRng rng;
    gdl_rng_seed(&rng, o.seed);
    double end = gdl_now() + o.seconds;
    uint64_t done = 0;
    for (v.playout = 1; v.playout <= playouts && rc == CLI_OK && gdl_now() < end; v.playout++, done++)
        rc = verify_playout(&v, &rng, o.max_steps, end);
    if (rc == CLI_OK)
        printf("%s: engine %s agrees with ref: %llu playout%s, %llu states checked%s\n", pos[0],
               gdl_machine_engine(s.m), (unsigned long long)done, done == 1 ? "" : "s",
               (unsigned long long)v.states, done < playouts ? " (stopped at --seconds)" : "");
    gdl_machine_free(ref);
    session_close(&s);
    return rc;
}

const CliCommand cli_verify = {
    "verify",
    "play an engine and the reference interpreter side by side",
    "usage: gdlc verify GAME.kif [--engine E] [--playouts N] [--seed N] [--max-steps K] [--seconds T]\n"
    "\n"
    "The engine and the reference interpreter play the same seeded random\n"
    "playthroughs side by side. At every state the state itself, terminality,\n"
    "the goals and every role's legal moves must be equal (and so must any\n"
    "fault both report); the first divergence is printed with the playout,\n"
    "the step, the query and both answers.\n"
    "\n"
    "options:\n"
    "  --engine E      the engine to check (default: jit)\n"
    "  --playouts N    how many playthroughs (default 10)\n"
    "  --seed N        the seed (default 1)\n"
    "  --max-steps K   cap each playthrough at K joint moves (default 10000)\n"
    "  --seconds T     stop after T seconds (default 60); reaching it is not a\n"
    "                  failure, and the output says how many states were checked\n"
    "\n"
    "exit status: 0 agreement, 1 a divergence, 2 usage.\n",
    verify_run,
};
