/*
 * session.c: one match from one role's side, over the public API.
 *
 * session_new loads the rules, makes one machine per search thread (the
 * chosen engine; "auto" times pn and jit and takes the faster; "ref" when
 * the engine cannot make one: GdlMachine is not thread-safe, states are
 * shared by every machine of the game), and spends the start clock: the
 * analysis, built in a thread of its own (a game that does not ground, or
 * not in time, is searched without it until it is done), then, for a
 * session budgeted by time, the solver: a puzzle's
 * plan is replayed when it is proven optimal, and a two-player game solved
 * exactly within the start clock is solved again from each later state
 * (it is smaller) and played by its proven best moves. A session budgeted
 * by playouts does not use the solver, so that its play depends on its
 * seed only, never on the machine's speed.
 *
 * session_play parses the manager's texts (gdl_move_parse folds case),
 * refuses an illegal joint move (GDL_BAD_ARGUMENT from gdl_state_next),
 * and chooses: the only legal move, the plan's or the proof's move, a move
 * the analysis proves wins at once, else the strategy. Search threads
 * (root parallelisation: a tree per thread, each with its own machine and
 * random numbers; the root statistics summed by move text) stop at the
 * playout budget or at the deadline less the margin, through the
 * machine's deadline. A random legal move is known before any search, so
 * a move is always ready.
 *
 * Threads and cancellation (issue 36). The engine's machines are made in a
 * thread (EngBuild): when they are late the session plays on ref machines
 * and takes them over at a later turn. The analysis is built in another
 * (AnBuild). Both are joined by session_free after their cancel flags are
 * raised, so nothing a session starts outlives it. The owner's flag
 * (PlayOptions.cancel) is every machine's cancel flag and is polled by
 * the search, the start clock's waits and session_new between its steps:
 * raised, every call returns at once (session_play with the move it has
 * ready). The solver runs under the machine's deadline and flag too.
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../solve/solve.h"
#include "search.h"
#include "internal.h"

/* A thread that makes something for the session (an analysis, the
 * engine's machines), its lock, its cancel flag and how it ended: the
 * first member of AnBuild and EngBuild. */
typedef struct Build {
    pthread_t th;
    pthread_mutex_t mu;
    volatile int cancel;  /* raised: the build stops (GDL_CANCELLED) */
    bool done;            /* the thread has finished (mu) */
    GdlGame *game;        /* the session's game */
    GdlStatus st;
    char *err;
    double seconds;       /* how long it took */
} Build;

/* Starts run(b) in b's thread; false when it cannot (nothing to undo). */
static bool build_start(Build *b, GdlGame *game, void *(*run)(void *))
{
    if (pthread_mutex_init(&b->mu, NULL) != 0)
        return false;
    b->game = game;
    if (pthread_create(&b->th, NULL, run, b) != 0) {
        pthread_mutex_destroy(&b->mu);
        return false;
    }
    return true;
}

/* The thread's last act: how it ended, begun at t0. */
static void build_finish(Build *b, GdlStatus st, char *err, double t0)
{
    pthread_mutex_lock(&b->mu);
    b->st = st;
    b->err = err;
    b->seconds = gdl_now() - t0;
    b->done = true;
    pthread_mutex_unlock(&b->mu);
}

static bool build_done(Build *b)
{
    pthread_mutex_lock(&b->mu);
    bool done = b->done;
    pthread_mutex_unlock(&b->mu);
    return done;
}

/* Stops the build (when stop) and joins its thread. */
static void build_join(Build *b, bool stop)
{
    if (stop)
        player_flag_raise(&b->cancel);
    pthread_join(b->th, NULL);
}

/* What the thread leaves behind once joined. */
static void build_free(Build *b)
{
    free(b->err);
    pthread_mutex_destroy(&b->mu);
}

/* The analysis, built in a thread of its own on a machine of its own
 * (Amazons 10x10 takes seconds to ground): the session waits for it only
 * until the start clock ends and adopts it at a later turn when it is
 * done. The thread is joined, never left behind: its machine polls the
 * build's cancel flag (grounding, network and analyses poll it, see
 * gdl_analysis_new), which session_free raises before joining, so that a
 * session ABORTed in its start clock frees everything at once and no
 * thread keeps allocating for a match that is gone. */
typedef struct AnBuild {
    Build b;              /* first: the thread is given the AnBuild */
    GdlMachine *m;        /* the analysis's machine */
    GdlAnalysis *an;      /* NULL when it failed */
} AnBuild;

/* Stops the build (when stop), joins its thread and frees it. */
static void an_build_end(AnBuild *b, bool stop)
{
    build_join(&b->b, stop);
    gdl_analysis_free(b->an);
    gdl_machine_free(b->m);
    build_free(&b->b);
    free(b);
}

static void *an_build_run(void *p)
{
    AnBuild *b = p;
    double t0 = gdl_now();
    GdlMachine *m = NULL;
    GdlAnalysis *an = NULL;
    char *err = NULL;
    GdlStatus st = gdl_machine_new(b->b.game, "ref", &m);
    if (st != GDL_OK)
        err = strdup(gdl_game_error(b->b.game)); /* the message is this thread's */
    else {
        gdl_machine_set_cancel_flag(m, &b->b.cancel);
        st = gdl_analysis_new(m, NULL, &an);
        gdl_machine_set_cancel_flag(m, NULL);
        if (st != GDL_OK)
            err = strdup(gdl_machine_error(m));
    }
    b->m = m; /* published with done, by build_finish */
    b->an = an;
    build_finish(&b->b, st, err, t0);
    return NULL;
}

/* The chosen engine's machines, made in a thread of their own: compiling
 * a large game (jit: libtcc, and the plan's timing of a network) can take
 * longer than the start clock. The session waits for them until its start
 * clock ends; when they are late it plays on ref machines (made at once)
 * and adopts them at a later turn. The machines are made under the
 * build's cancel flag (gdl_machine_new_until), which session_free raises
 * before it joins the thread: making stops at its next poll (a compile
 * under way ends first), so that nothing outlives the session and the
 * builds of matches that are gone do not pile up behind libtcc's lock
 * (player/soak under the sanitizers, where the plan of jit tries the
 * board, compiled twice). */
typedef struct EngBuild {
    Build b;              /* first; its cancel flag: no further machine is begun */
    const char *engine;   /* the options' (it outlives the session) */
    unsigned n;           /* machines to make */
    GdlMachine **m;       /* n machines, all made when b.st is GDL_OK */
} EngBuild;

/* Frees a build whose thread is joined. */
static void eng_build_free(EngBuild *b)
{
    for (unsigned t = 0; t < b->n; t++)
        gdl_machine_free(b->m[t]);
    free(b->m);
    build_free(&b->b);
    free(b);
}

static void *eng_build_run(void *p)
{
    EngBuild *b = p;
    double t0 = gdl_now();
    GdlStatus st = GDL_OK;
    char *err = NULL;
    for (unsigned t = 0; t < b->n && st == GDL_OK; t++)
        st = player_flag_up(&b->b.cancel) ? GDL_CANCELLED
                                           : gdl_machine_new_until(b->b.game, b->engine, 0, &b->b.cancel, &b->m[t]);
    if (st != GDL_OK && st != GDL_CANCELLED)
        err = strdup(gdl_game_error(b->b.game)); /* the message is this thread's */
    build_finish(&b->b, st, err, t0);
    return NULL;
}

/* Stops (when stop) and joins the build's thread, and frees it. */
static void eng_build_end(EngBuild *b, bool stop)
{
    build_join(&b->b, stop);
    eng_build_free(b);
}

struct Session {
    PlayOptions o;
    GdlGame *game;
    unsigned nroles, role;
    unsigned nthreads;
    GdlMachine **m;       /* per thread */
    Search **search;      /* per thread */
    AnBuild *ab;          /* the analysis being built (NULL: none, or adopted) */
    EngBuild *eb;         /* the engine's machines being made (NULL: none, or adopted);
                             meanwhile m holds ref machines */
    GdlAnalysis *an;      /* the analysis, once built (on an_m) */
    GdlMachine *an_m;     /* its own machine ("ref"): thread 0's search and the
                             session use it, never at the same time */
    double an_seconds;    /* how long the analysis took to build */
    GdlState *state;      /* the current state */
    GdlRng rng;
    double playclock;
    char **plan;          /* a puzzle's proven plan, as move texts */
    size_t plan_len, plan_at;
    bool solvable;        /* the solver proved the game within the start clock */
    char *move;           /* the last move returned */
    SessionStats stats;
};

/* Has the owner cancelled everything (PlayOptions.cancel)? */
static bool cancelled(const Session *s) { return player_flag_up(s->o.cancel); }

void play_options_default(PlayOptions *o)
{
    memset(o, 0, sizeof *o);
    o->strategy = PLAY_MCTS;
    o->engine = NULL;
    o->threads = 1;
    o->playouts = 0;
    o->margin = 0;
    o->seed = 1;
    o->analyses = true;
    o->log = NULL;
}

/* The diagnostics' errors as text, one per line. */
static char *diag_text(const GdlDiagnostics *d)
{
    size_t cap = 256, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = 0;
    for (size_t i = 0; d && i < gdl_diagnostics_count(d); i++) {
        const GdlDiagnostic *g = gdl_diagnostics_get(d, i);
        if (g->severity != GDL_SEVERITY_ERROR)
            continue;
        char *line = player_fmt("%s:%u:%u: error: %s\n", g->file, g->line, g->col, g->message);
        if (!line)
            break;
        size_t k = strlen(line);
        if (len + k + 1 > cap) {
            cap = (len + k + 1) * 2;
            char *t = realloc(out, cap);
            if (!t) {
                free(line);
                break;
            }
            out = t;
        }
        memcpy(out + len, line, k + 1);
        len += k;
        free(line);
    }
    return out;
}

/* The seconds kept back before deadline for the search threads to stop
 * and the move to be chosen: the options', else 0.25 s or a quarter of the
 * time left when that is less (the server keeps its own margin for the
 * reply besides). */
static double margin_of(const Session *s, double deadline)
{
    if (s->o.margin > 0)
        return s->o.margin;
    double m = 0.25, left = deadline - gdl_now();
    if (left / 4 < m)
        m = left > 0 ? left / 4 : 0;
    return m;
}

static void slog(Session *s, const char *fmt, ...)
{
    if (!s->o.log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->o.log, fmt, ap);
    va_end(ap);
    fputc('\n', s->o.log);
    fflush(s->o.log);
}

void session_free(Session *s)
{
    if (!s)
        return;
    for (unsigned t = 0; t < s->nthreads; t++) {
        if (s->search)
            search_free(s->search[t]);
        if (s->m)
            gdl_machine_free(s->m[t]);
    }
    free(s->search);
    free(s->m);
    gdl_state_free(s->state);
    for (size_t i = 0; i < s->plan_len; i++)
        free(s->plan[i]);
    free(s->plan);
    free(s->move);
    gdl_analysis_free(s->an);
    gdl_machine_free(s->an_m);
    if (s->ab)
        an_build_end(s->ab, true);
    if (s->eb)
        eng_build_end(s->eb, true);
    gdl_game_free(s->game);
    free(s);
}

/* The solver within the time left before until (gdl_now seconds) from the
 * current state: GDL_OK with r filled, or why not. */
static GdlStatus run_solver(Session *s, double until, SolveResult *r)
{
    double secs = until - gdl_now();
    if (secs < 0.05)
        return GDL_CANCELLED;
    SolveOptions so;
    solve_options_default(&so);
    so.seconds = secs;
    so.memory_mb = 512;
    so.analyses = s->o.analyses;
    memset(r, 0, sizeof *r);
    char *err = NULL;
    /* so.seconds bounds the search; the machine's deadline bounds the rest
     * (the solver's own analysis polls it, and every query) */
    gdl_machine_set_deadline(s->m[0], until);
    GdlStatus st = solve_run(s->game, s->m[0], s->state, &so, NULL, NULL, NULL, r, &err);
    gdl_machine_set_deadline(s->m[0], 0);
    free(err);
    if (st != GDL_OK)
        solve_result_free(r);
    return st;
}

/* Waits, looking every ms milliseconds, until b is done, the time is
 * until or the session is cancelled. */
static void build_wait(const Session *s, Build *b, double until, long ms)
{
    while (!build_done(b) && gdl_now() < until && !cancelled(s)) {
        struct timespec ts = {0, ms * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* Starts the analysis's thread; false when it cannot. */
static bool start_analysis(Session *s)
{
    AnBuild *b = calloc(1, sizeof *b);
    if (!b)
        return false;
    if (!build_start(&b->b, s->game, an_build_run)) {
        free(b);
        return false;
    }
    s->ab = b;
    return true;
}

/* Takes the analysis over once its thread is done (thread 0's search gets
 * it); true when the session has one. */
static bool adopt_analysis(Session *s)
{
    if (s->an)
        return true;
    if (!s->ab)
        return false;
    if (!build_done(&s->ab->b))
        return false;
    AnBuild *b = s->ab;
    s->ab = NULL;
    if (b->an) {
        s->an = b->an;
        s->an_m = b->m;
        s->an_seconds = b->b.seconds;
        b->an = NULL;
        b->m = NULL;
        slog(s, "analysis: built in %.2f s", b->b.seconds);
        if (s->search && s->search[0])
            search_set_analysis(s->search[0], s->an, s->an_m);
    } else {
        slog(s, "analysis: %s%s%s", gdl_status_name(b->b.st), b->b.err ? ": " : "", b->b.err ? b->b.err : "");
    }
    an_build_end(b, false);
    return s->an != NULL;
}

/* The start clock's work: analyses, then the solver (time budgets only). */
static void use_start_clock(Session *s, double start_deadline)
{
    double until = start_deadline - margin_of(s, start_deadline);
    if (s->o.analyses && s->o.strategy != PLAY_RANDOM && start_analysis(s)) {
        /* wait for it until the start clock ends */
        build_wait(s, &s->ab->b, until, 5);
        adopt_analysis(s);
        if (!s->an)
            slog(s, "start: the analysis is not done within the start clock; searching without it for now");
    }
    /* the solver builds an analysis of its own, without polling the clock:
     * only for games whose analysis was quick next to the time left */
    if (!s->an || until - gdl_now() < 3 * s->an_seconds || cancelled(s))
        return;
    if (!s->o.analyses || s->o.playouts > 0 || s->o.strategy == PLAY_RANDOM || s->nroles > 2)
        return;
    SolveResult r;
    if (run_solver(s, until, &r) != GDL_OK)
        return;
    if (s->nroles == 1 && r.plan_len > 0 && (r.exact || r.lo == 100)) {
        s->plan = r.plan;
        s->plan_len = r.plan_len;
        r.plan = NULL;
        r.plan_len = 0;
        slog(s, "start: puzzle solved (%d..%d), plan of %zu moves", r.lo, r.hi, s->plan_len);
    } else if (s->nroles == 2 && r.exact) {
        s->solvable = true;
        slog(s, "start: game solved, value %d for the first role", r.lo);
    }
    solve_result_free(&r);
}

static const char *pick_engine(Session *s, double start_deadline);

/* Makes n machines of engine into m; GDL_OK, or why not (*e). */
static GdlStatus machines_new(GdlGame *g, const char *engine, unsigned n, GdlMachine **m, char **e)
{
    GdlStatus st = GDL_OK;
    for (unsigned t = 0; t < n && st == GDL_OK; t++)
        st = gdl_machine_new(g, engine, &m[t]);
    if (st != GDL_OK && e)
        *e = strdup(gdl_game_error(g));
    return st;
}

/* The session's machines: the chosen engine's when they are made within
 * the start clock (until), else ref machines now and the engine's at a
 * later turn (adopt_engine); ref when the engine cannot make the game. */
static bool make_machines(Session *s, double start_deadline, char **err)
{
    const char *engine = s->o.engine ? s->o.engine : "jit";
    if (strcmp(engine, "auto") == 0)
        engine = pick_engine(s, start_deadline);
    char *e = NULL;
    GdlStatus st = GDL_OK;
    EngBuild *b = strcmp(engine, "ref") != 0 ? calloc(1, sizeof *b) : NULL;
    if (b) {
        b->engine = engine;
        b->n = s->nthreads;
        if (!(b->m = calloc(s->nthreads, sizeof *b->m)) || !build_start(&b->b, s->game, eng_build_run)) {
            free(b->m);
            free(b);
            b = NULL;
        }
    }
    if (b) {
        /* a session budgeted by playouts waits for them whatever the clock:
         * its play must depend on its seed alone, not on when they come */
        double until = s->o.playouts > 0 ? INFINITY : start_deadline - margin_of(s, start_deadline);
        build_wait(s, &b->b, until, 2);
        /* read once: a build ending between two reads would take the
         * failure's branch with machines that are fine */
        bool done = build_done(&b->b);
        if (done && b->b.st == GDL_OK) { /* in time: the usual case */
            build_join(&b->b, false);
            memcpy(s->m, b->m, s->nthreads * sizeof *s->m);
            memset(b->m, 0, s->nthreads * sizeof *b->m);
            eng_build_free(b);
            b = NULL;
            engine = NULL;
        } else if (done) {
            if (b->b.st == GDL_NO_ENGINE) {
                *err = player_fmt("no machine for the game: %s", b->b.err ? b->b.err : gdl_status_name(b->b.st));
                eng_build_end(b, false);
                return false;
            }
            slog(s, "engine %s: %s; falling back to ref", engine, b->b.err ? b->b.err : gdl_status_name(b->b.st));
            eng_build_end(b, false);
            b = NULL;
        } else if (cancelled(s)) {
            eng_build_end(b, true);
            *err = player_fmt("cancelled");
            return false;
        } else {
            slog(s, "engine %s: not made within the start clock; playing on ref until it is", engine);
        }
    } else if (strcmp(engine, "ref") != 0) { /* no thread to be had: made here */
        st = machines_new(s->game, engine, s->nthreads, s->m, &e);
        if (st == GDL_OK)
            engine = NULL;
        else if (st == GDL_NO_ENGINE) {
            *err = player_fmt("no machine for the game: %s", e ? e : gdl_status_name(st));
            free(e);
            return false;
        } else {
            slog(s, "engine %s: %s; falling back to ref", engine, e ? e : gdl_status_name(st));
            for (unsigned t = 0; t < s->nthreads; t++) {
                gdl_machine_free(s->m[t]);
                s->m[t] = NULL;
            }
        }
        free(e);
        e = NULL;
    }
    s->eb = b;
    if (engine && (st = machines_new(s->game, "ref", s->nthreads, s->m, &e)) != GDL_OK) {
        *err = player_fmt("no machine for the game: %s", e ? e : gdl_status_name(st));
        free(e);
        return false;
    }
    free(e);
    for (unsigned t = 0; t < s->nthreads; t++)
        gdl_machine_set_cancel_flag(s->m[t], s->o.cancel);
    return true;
}

/* A search per thread (none for random play), thread 0's with the
 * analysis; false when memory runs out. */
static bool make_searches(Session *s)
{
    if (s->o.strategy == PLAY_RANDOM)
        return true;
    SearchConfig cfg;
    search_config_default(&cfg);
    cfg.strategy = s->o.strategy;
    cfg.batch = s->o.batch;
    for (unsigned t = 0; t < s->nthreads; t++)
        if (!(s->search[t] = search_new(s->m[t], NULL, s->nroles, &cfg, s->o.seed * 0x9E3779B97F4A7C15ULL + t + 1)))
            return false;
    if (s->an)
        search_set_analysis(s->search[0], s->an, s->an_m);
    return true;
}

/* Takes the engine's machines over once they are made (the searches are
 * made again on them: the trees of the ref machines are dropped). */
static void adopt_engine(Session *s)
{
    if (!s->eb || !build_done(&s->eb->b))
        return;
    EngBuild *b = s->eb;
    s->eb = NULL;
    build_join(&b->b, false);
    if (b->b.st != GDL_OK) {
        slog(s, "engine %s: %s; playing on ref", b->engine, b->b.err ? b->b.err : gdl_status_name(b->b.st));
        eng_build_free(b);
        return;
    }
    for (unsigned t = 0; t < s->nthreads; t++) {
        if (s->search) {
            search_free(s->search[t]);
            s->search[t] = NULL;
        }
        gdl_machine_free(s->m[t]);
        s->m[t] = b->m[t];
        b->m[t] = NULL;
        gdl_machine_set_cancel_flag(s->m[t], s->o.cancel);
    }
    slog(s, "engine %s: made in %.2f s; playing on it from now on", b->engine, b->b.seconds);
    eng_build_free(b);
    if (!make_searches(s)) /* out of memory: this turn is played at random */
        for (unsigned t = 0; t < s->nthreads; t++) {
            search_free(s->search[t]);
            s->search[t] = NULL;
        }
}


Session *session_new(const char *rules, size_t len, const char *role, double start_deadline, double playclock,
                     const PlayOptions *o, char **err)
{
    *err = NULL;
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        *err = player_fmt("out of memory");
        return NULL;
    }
    if (o)
        s->o = *o;
    else
        play_options_default(&s->o);
    if (s->o.threads == 0)
        s->o.threads = 1;
    s->playclock = playclock;
    gdl_rng_seed(&s->rng, s->o.seed ^ 0x5eed5eedULL);
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_string("rules", rules, len, &s->game, &d);
    if (st != GDL_OK) {
        char *dt = diag_text(d);
        *err = player_fmt("the rules are rejected (%s)%s%s", gdl_status_name(st), dt && *dt ? ":\n" : "", dt ? dt : "");
        free(dt);
        gdl_diagnostics_free(d);
        free(s);
        return NULL;
    }
    gdl_diagnostics_free(d);
    if (cancelled(s)) {
        *err = player_fmt("cancelled");
        session_free(s);
        return NULL;
    }
    s->nroles = gdl_game_role_count(s->game);
    if (gdl_game_role_find(s->game, role, &s->role) != GDL_OK) {
        *err = player_fmt("no role named '%s' in the rules", role);
        session_free(s);
        return NULL;
    }
    s->nthreads = s->o.strategy == PLAY_RANDOM ? 1 : s->o.threads;
    s->m = calloc(s->nthreads, sizeof *s->m);
    s->search = calloc(s->nthreads, sizeof *s->search);
    if (!s->m || !s->search) {
        *err = player_fmt("out of memory");
        session_free(s);
        return NULL;
    }
    if (!make_machines(s, start_deadline, err)) {
        session_free(s);
        return NULL;
    }
    if ((st = gdl_state_initial(s->m[0], &s->state)) != GDL_OK) {
        *err = player_fmt("no initial state: %s", gdl_machine_error(s->m[0]));
        session_free(s);
        return NULL;
    }
    use_start_clock(s, start_deadline);
    if (cancelled(s)) {
        *err = player_fmt("cancelled");
        session_free(s);
        return NULL;
    }
    if (!make_searches(s)) {
        *err = player_fmt("out of memory");
        session_free(s);
        return NULL;
    }
    return s;
}

/* Engine "auto": the faster of pn and jit at depth charges from the
 * initial state, each timed for a sliver of the start clock (at most
 * 0.2 s); every engine answers alike, so only the speed differs. */
static const char *pick_engine(Session *s, double start_deadline)
{
    static const char *const cands[] = {"jit", "pn"}; /* a tie keeps jit */
    const char *best = "jit";
    double best_rate = -1;
    double slice = (start_deadline - gdl_now()) / 10;
    if (slice > 0.2)
        slice = 0.2;
    for (size_t i = 0; i < sizeof cands / sizeof *cands && slice > 0.01; i++) {
        GdlMachine *m = NULL;
        GdlState *st = NULL;
        if (gdl_machine_new(s->game, cands[i], &m) != GDL_OK || gdl_state_initial(m, &st) != GDL_OK) {
            gdl_machine_free(m);
            continue;
        }
        gdl_machine_set_cancel_flag(m, s->o.cancel);
        int goals[64];
        GdlRng rng;
        gdl_rng_seed(&rng, 1);
        uint64_t n = 0, depth;
        double t0 = gdl_now(), t1 = t0 + slice;
        gdl_machine_set_deadline(m, t1);
        while (gdl_now() < t1 && s->nroles <= 64 && !cancelled(s) &&
               gdl_state_depth_charge(m, st, &rng, 0, goals, &depth) == GDL_OK)
            n++;
        double rate = (double)n / (gdl_now() - t0);
        slog(s, "engine auto: %s %.0f playouts/s", cands[i], rate);
        if (rate > best_rate) {
            best_rate = rate;
            best = cands[i];
        }
        gdl_state_free(st);
        gdl_machine_free(m);
    }
    return best;
}

/* Advances the state by the manager's joint move. */
static bool advance(Session *s, const char *const *joint, size_t n, char **err)
{
    if (!joint || n == 0)
        return true;
    if (n != s->nroles) {
        *err = player_fmt("a joint move of %zu moves for %u roles", n, s->nroles);
        return false;
    }
    GdlMove mv[64], *jm = n <= 64 ? mv : malloc(n * sizeof *jm);
    if (!jm) {
        *err = player_fmt("out of memory");
        return false;
    }
    bool ok = true;
    for (size_t r = 0; r < n && ok; r++)
        if (!joint[r] || gdl_move_parse(s->m[0], joint[r], &jm[r]) != GDL_OK) {
            *err = player_fmt("cannot read the move '%s' of role %s", joint[r] ? joint[r] : "(null)",
                       gdl_game_role_name(s->game, (unsigned)r));
            ok = false;
        }
    GdlState *next = NULL;
    if (ok) {
        GdlStatus st = gdl_state_next(s->m[0], s->state, jm, &next);
        if (st == GDL_BAD_ARGUMENT) {
            *err = player_fmt("the joint move is not legal in the current state");
            ok = false;
        } else if (st != GDL_OK) {
            *err = player_fmt("cannot advance the state: %s", gdl_machine_error(s->m[0]));
            ok = false;
        }
    }
    if (jm != mv)
        free(jm);
    if (!ok)
        return false;
    gdl_state_free(s->state);
    s->state = next;
    return true;
}

typedef struct Work {
    Session *s;
    unsigned t;
    uint64_t playouts;
    double deadline;
    uint64_t done;
    GdlStatus st;
} Work;

static void *work_run(void *p)
{
    Work *w = p;
    w->st = search_run(w->s->search[w->t], w->s->role, w->playouts, w->deadline, w->s->o.cancel, &w->done);
    /* search_run clears the machine's flag when it returns: the session's
     * other calls on the machine stay cancellable */
    gdl_machine_set_cancel_flag(w->s->m[w->t], w->s->o.cancel);
    return NULL;
}

/* The searched move's text (copied into s->move), or NULL to fall back. */
static const char *search_move(Session *s, double until)
{
    unsigned T = s->nthreads;
    for (unsigned t = 0; t < T; t++)
        if (!s->search[t] || search_set_root(s->search[t], s->state) != GDL_OK)
            return NULL;
    Work w[T];
    pthread_t th[T];
    bool started[T];
    for (unsigned t = 0; t < T; t++) {
        uint64_t share = s->o.playouts / T + (t < s->o.playouts % T ? 1 : 0);
        w[t] = (Work){s, t, s->o.playouts ? share : 0, until, 0, GDL_OK};
        if (s->o.playouts && share == 0)
            w[t].playouts = 1;
        started[t] = false;
    }
    for (unsigned t = 1; t < T; t++)
        started[t] = pthread_create(&th[t], NULL, work_run, &w[t]) == 0;
    work_run(&w[0]);
    for (unsigned t = 1; t < T; t++)
        if (started[t])
            pthread_join(th[t], NULL);
    /* sum the roots by move text (thread 0's order) */
    const GdlMove *mv0;
    const uint32_t *v0;
    const double *sm0;
    size_t n = search_root(s->search[0], s->role, &mv0, &v0, &sm0);
    if (n == 0)
        return NULL;
    uint64_t visits[n];
    double sums[n];
    for (size_t i = 0; i < n; i++) {
        visits[i] = v0[i];
        sums[i] = sm0[i];
    }
    uint64_t total = w[0].done;
    for (unsigned t = 1; t < T; t++) {
        total += w[t].done;
        const GdlMove *mv;
        const uint32_t *v;
        const double *sm;
        size_t k = search_root(s->search[t], s->role, &mv, &v, &sm);
        for (size_t j = 0; j < k; j++) {
            const char *txt = gdl_move_text(s->m[t], mv[j]);
            for (size_t i = 0; i < n; i++)
                if (strcmp(txt, gdl_move_text(s->m[0], mv0[i])) == 0) {
                    visits[i] += v[j];
                    sums[i] += sm[j];
                    break;
                }
        }
    }
    s->stats.playouts = total;
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        /* the most visited; ties by mean score */
        if (visits[i] > visits[best] ||
            (visits[i] == visits[best] && visits[i] > 0 &&
             sums[i] / (double)visits[i] > sums[best] / (double)visits[best]))
            best = i;
    }
    if (s->o.strategy == PLAY_FLAT) {
        /* flat: the best mean */
        best = 0;
        double bm = -1;
        for (size_t i = 0; i < n; i++) {
            double mean = visits[i] ? sums[i] / (double)visits[i] : -1;
            if (mean > bm) {
                bm = mean;
                best = i;
            }
        }
    }
    if (visits[best] == 0 && !search_root_winning(s->search[0], s->role))
        return NULL;
    slog(s, "search: %llu playouts, %zu nodes in thread 0's tree, best %s (%llu visits, mean %.3f)",
         (unsigned long long)total,
         search_nodes(s->search[0]), gdl_move_text(s->m[0], mv0[best]), (unsigned long long)visits[best],
         visits[best] ? sums[best] / (double)visits[best] : 0.0);
    free(s->move);
    s->move = strdup(gdl_move_text(s->m[0], mv0[best]));
    return s->move;
}

static const char *keep_move(Session *s, GdlMove mv)
{
    free(s->move);
    s->move = strdup(gdl_move_text(s->m[0], mv));
    return s->move;
}

const char *session_play(Session *s, const char *const *joint, size_t n, double deadline, char **err)
{
    *err = NULL;
    double t0 = gdl_now();
    memset(&s->stats, 0, sizeof s->stats);
    s->stats.threads = s->nthreads;
    adopt_engine(s); /* the engine's machines, when they came after the start clock */
    if (!advance(s, joint, n, err))
        return NULL;
    bool term;
    GdlStatus st = gdl_state_is_terminal(s->m[0], s->state, &term);
    if (st != GDL_OK || term) {
        *err = st != GDL_OK ? player_fmt("%s", gdl_machine_error(s->m[0])) : player_fmt("the game is over");
        return NULL;
    }
    double until = deadline - margin_of(s, deadline);
    /* a legal move ready before anything else */
    GdlMove ready;
    if ((st = gdl_state_random_move(s->m[0], s->state, s->role, &s->rng, &ready)) != GDL_OK) {
        *err = player_fmt("no legal move: %s", gdl_machine_error(s->m[0]));
        return NULL;
    }
    const GdlMove *lm;
    size_t nl;
    if ((st = gdl_state_legal(s->m[0], s->state, s->role, &lm, &nl)) != GDL_OK) {
        *err = player_fmt("no legal move: %s", gdl_machine_error(s->m[0]));
        return NULL;
    }
    const char *out = NULL, *how = "search";
    if (cancelled(s)) {
        how = "cancelled";
        out = keep_move(s, ready);
        goto done;
    }
    if (nl == 1) {
        how = "only move";
        out = keep_move(s, lm[0]);
        goto done;
    }
    if (s->o.strategy == PLAY_RANDOM) {
        how = "random";
        out = keep_move(s, ready);
        goto done;
    }
    /* a puzzle's plan */
    if (s->plan_at < s->plan_len) {
        GdlMove pm;
        GdlState *next = NULL;
        GdlMove jm[1];
        if (s->nroles == 1 && gdl_move_parse(s->m[0], s->plan[s->plan_at], &pm) == GDL_OK &&
            (jm[0] = pm, gdl_state_next(s->m[0], s->state, jm, &next)) == GDL_OK) {
            gdl_state_free(next);
            s->plan_at++;
            s->stats.solved = true;
            how = "plan";
            out = keep_move(s, pm);
            goto done;
        }
        s->plan_len = s->plan_at; /* off the plan: search from here on */
    }
    /* a proof's best move */
    if (s->solvable) {
        SolveResult r;
        if (run_solver(s, gdl_now() + (until - gdl_now()) / 2, &r) == GDL_OK) {
            GdlMove bm;
            if (r.exact && r.has_best && r.best_role == s->role && r.best_move &&
                gdl_move_parse(s->m[0], r.best_move, &bm) == GDL_OK) {
                solve_result_free(&r);
                s->stats.solved = true;
                how = "proof";
                out = keep_move(s, bm);
                goto done;
            }
            solve_result_free(&r);
        }
    }
    /* a move the analysis proves wins at once */
    /* by time, an analysis done late is used from then on; by playouts,
     * only one done within the start clock, so that play depends on the
     * seed alone */
    if (s->o.playouts == 0)
        adopt_analysis(s);
    if (s->an) {
        const GdlMove *win, *lose;
        size_t nwin, nlose;
        GdlMove wm;
        if (gdl_analysis_winning_moves(s->an, s->state, s->role, &win, &nwin, &lose, &nlose) == GDL_OK &&
            nwin > 0 && gdl_move_parse(s->m[0], gdl_move_text(s->an_m, win[0]), &wm) == GDL_OK) {
            s->stats.solved = true;
            how = "winning move";
            out = keep_move(s, wm);
            goto done;
        }
    }
    out = search_move(s, until);
    if (!out) {
        how = "random (the search gave nothing)";
        out = keep_move(s, ready);
    }
done:
    s->stats.seconds = gdl_now() - t0;
    slog(s, "play: %s (%s; %llu playouts, %u threads, %.3f s)", out ? out : "(none)", how,
         (unsigned long long)s->stats.playouts, s->stats.threads, s->stats.seconds);
    if (!out)
        *err = player_fmt("out of memory");
    return out;
}

void session_stop(Session *s, const char *const *joint, size_t n)
{
    char *err = NULL;
    if (!advance(s, joint, n, &err))
        slog(s, "stop: %s", err ? err : "");
    free(err);
}

void session_stats(const Session *s, SessionStats *st) { *st = s->stats; }
