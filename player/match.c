/*
 * match.c: the match runner, as GGP-Base's GameServer runs a match, and the
 * built-in players.
 *
 * match_run sends START to every player at once (a thread per player),
 * then, until the state is terminal, PLAY with the last joint move (nil on
 * the first turn) to every player at once, each with the deadline now +
 * play clock; a move that is late, unreadable or illegal, or a failed
 * call, is replaced by a random legal move (the runner's seeded
 * generator) and recorded as that turn's error for the role; then STOP
 * with the last joint move. Seats are role indices: players[i] plays role
 * i. The record is GGP-Base's (record.c).
 *
 * A built-in player ("random", "flat:N", "mcts:N", "flat:Xs", "mcts:Xs")
 * wraps a Session: N playouts per move (its play then depends only on its
 * seed, which is the spec's seed mixed with the match's seed), or X seconds per
 * move (the session's margin kept before the earlier of that and the play
 * clock). Options may follow after commas: ",engine=E" (the sessions'
 * engine, default jit), ",threads=T" (search threads) and ",analyses=0"
 * (no analyses, no solver). "http://..." is
 * a remote player (remote.c).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "internal.h"

/* ---- built-in players ---------------------------------------------- */

typedef struct Builtin {
    MatchPlayer base;
    PlayOptions po;
    double per_move;  /* seconds per move; 0: by playouts */
    uint64_t seed;
    Session *s;
    double margin;
    char *engine;     /* owned: po.engine */
} Builtin;

static bool bi_start(MatchPlayer *p, const char *id, uint64_t seed, const char *rules, const char *role,
                     unsigned startclock, unsigned playclock, char **err)
{
    Builtin *b = (Builtin *)p;
    (void)id;
    session_free(b->s);
    b->s = NULL;
    PlayOptions po = b->po;
    po.seed = b->seed ^ (seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL);
    b->margin = playclock / 4.0 < 0.5 ? playclock / 4.0 : 0.5;
    b->s = session_new(rules, strlen(rules), role, gdl_now() + startclock, playclock, &po, err);
    return b->s != NULL;
}

static char *bi_play(MatchPlayer *p, const char *id, const char *const *last, size_t n, double deadline, char **err)
{
    (void)id;
    Builtin *b = (Builtin *)p;
    if (!b->s) {
        *err = player_fmt("no match started");
        return NULL;
    }
    double d = deadline;
    if (b->per_move > 0 && gdl_now() + b->per_move + b->margin < d)
        d = gdl_now() + b->per_move + b->margin;
    const char *mv = session_play(b->s, last, n, d, err);
    return mv ? strdup(mv) : NULL;
}

static void bi_stop(MatchPlayer *p, const char *id, const char *const *last, size_t n)
{
    (void)id;
    Builtin *b = (Builtin *)p;
    if (b->s)
        session_stop(b->s, last, n);
    session_free(b->s);
    b->s = NULL;
}

static void bi_abort(MatchPlayer *p, const char *id)
{
    (void)id;
    Builtin *b = (Builtin *)p;
    session_free(b->s);
    b->s = NULL;
}

static void bi_free(MatchPlayer *p)
{
    Builtin *b = (Builtin *)p;
    session_free(b->s);
    free(b->engine);
    free(b->base.name);
    free(b);
}

static const MatchPlayerOps builtin_ops = {bi_start, bi_play, bi_stop, bi_abort, bi_free};

/* A built-in spec's options after its first comma: engine=E, threads=T,
 * analyses=0|1 (default 1: the analyses and, by time, the solver),
 * batch=L (UCT's leaves played out L times by a batch). */
static bool spec_options(const char *opts, PlayOptions *po, char **engine, char **err)
{
    while (*opts) {
        const char *end = strchr(opts, ',');
        size_t n = end ? (size_t)(end - opts) : strlen(opts);
        if (n > 7 && strncmp(opts, "engine=", 7) == 0) {
            free(*engine);
            *engine = malloc(n - 6);
            if (!*engine) {
                *err = player_fmt("out of memory");
                return false;
            }
            memcpy(*engine, opts + 7, n - 7);
            (*engine)[n - 7] = 0;
            po->engine = *engine;
        } else if (n > 8 && strncmp(opts, "threads=", 8) == 0) {
            char *e;
            errno = 0;
            unsigned long t = strtoul(opts + 8, &e, 10);
            if (e != opts + n || errno || t == 0 || t > 256 || !isdigit((unsigned char)opts[8])) {
                *err = player_fmt("bad threads in '%.*s' (expected 1 to 256)", (int)n, opts);
                return false;
            }
            po->threads = (unsigned)t;
        } else if (n == 10 && strncmp(opts, "analyses=", 9) == 0 && (opts[9] == '0' || opts[9] == '1')) {
            po->analyses = opts[9] == '1';
        } else if (n > 6 && strncmp(opts, "batch=", 6) == 0) {
            char *e;
            errno = 0;
            unsigned long l = strtoul(opts + 6, &e, 10);
            if (e != opts + n || errno || l == 0 || l % 64 || l > GDL_BATCH_MAX_LANES || !isdigit((unsigned char)opts[6])) {
                *err = player_fmt("bad batch in '%.*s' (expected a multiple of 64 from 64 to %u)", (int)n, opts,
                                  GDL_BATCH_MAX_LANES);
                return false;
            }
            po->batch = (unsigned)l;
        } else {
            *err = player_fmt("unknown option '%.*s' (expected engine=E, threads=T, analyses=0|1 or batch=L)", (int)n,
                              opts);
            return false;
        }
        opts += n + (end ? 1 : 0);
    }
    return true;
}

MatchPlayer *match_player_new(const char *spec, uint64_t seed, char **err)
{
    *err = NULL;
    if (strncmp(spec, "http://", 7) == 0)
        return match_player_http(spec, err);
    PlayOptions po;
    play_options_default(&po);
    double per_move = 0;
    /* the strategy, then options after a comma */
    const char *full = spec;
    char head[64];
    const char *comma = strchr(spec, ',');
    size_t hl = comma ? (size_t)(comma - spec) : strlen(spec);
    if (hl >= sizeof head) {
        *err = player_fmt("unknown player '%s' (expected random, flat:N, mcts:N, flat:Xs, mcts:Xs or http://HOST:PORT)",
                   spec);
        return NULL;
    }
    memcpy(head, spec, hl);
    head[hl] = 0;
    char *engine = NULL;
    if (comma && !spec_options(comma + 1, &po, &engine, err)) {
        free(engine);
        return NULL;
    }
    spec = head;
    if (strcmp(spec, "random") == 0) {
        po.strategy = PLAY_RANDOM;
    } else {
        const char *arg;
        if (strncmp(spec, "flat:", 5) == 0) {
            po.strategy = PLAY_FLAT;
            arg = spec + 5;
        } else if (strncmp(spec, "mcts:", 5) == 0) {
            po.strategy = PLAY_MCTS;
            arg = spec + 5;
        } else {
            *err = player_fmt("unknown player '%s' (expected random, flat:N, mcts:N, flat:Xs, mcts:Xs or http://HOST:PORT)",
                       spec);
            free(engine);
            return NULL;
        }
        size_t len = strlen(arg);
        char *end;
        errno = 0;
        if (len > 0 && arg[len - 1] == 's') {
            double x = strtod(arg, &end);
            if (end != arg + len - 1 || errno || !(x > 0) || x > 1e6 || !isdigit((unsigned char)arg[0])) {
                *err = player_fmt("bad seconds per move in '%s' (expected e.g. %.5s0.5s)", spec, spec);
                free(engine);
                return NULL;
            }
            per_move = x;
        } else {
            unsigned long long n = strtoull(arg, &end, 10);
            if (len == 0 || *end || errno || n == 0 || !isdigit((unsigned char)arg[0])) {
                *err = player_fmt("bad playouts in '%s' (expected a positive integer, e.g. %.5s1000)", spec, spec);
                free(engine);
                return NULL;
            }
            po.playouts = n;
        }
    }
    Builtin *b = calloc(1, sizeof *b);
    if (!b || !(b->base.name = strdup(full))) {
        free(b);
        free(engine);
        *err = player_fmt("out of memory");
        return NULL;
    }
    b->base.ops = &builtin_ops;
    b->engine = engine;
    b->po = po;
    b->per_move = per_move;
    b->seed = seed;
    return &b->base;
}

/* ---- the runner ---------------------------------------------------- */

enum {
    MATCH_MAX_MOVE = 1 << 16, /* bytes of a move read: no game's move is near it */
    SHOWN_MAX = 200,          /* bytes of a player's text an error or a log line quotes */
};

/* A player's text as an error quotes it: printable ASCII, at most
 * SHOWN_MAX bytes, then how long the whole was (a hostile player's
 * 800 KB move is not copied into the record). buf holds SHOWN_MAX + 40. */
static const char *shown(const char *text, char *buf)
{
    size_t len = strlen(text), n = 0;
    for (; n < len && n < SHOWN_MAX; n++)
        buf[n] = text[n] >= 0x20 && text[n] < 0x7f ? text[n] : '?';
    if (n < len)
        n += (size_t)sprintf(buf + n, "... (%zu bytes)", len);
    buf[n] = 0;
    return buf;
}

/* 64 bits for a match id that no other match, of this run or another, has
 * used: the kernel's random bytes, or where they cannot be had, the clock,
 * the process and a counter, mixed. Never from the seed: two runs with the
 * same seed against one long-running player would name the same match. */
static uint64_t fresh_id(void)
{
    static _Atomic uint64_t counter;
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v && v != 0)
        return v;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    x ^= (uint64_t)getpid() << 40 ^ ++counter * 0x9E3779B97F4A7C15ULL;
    return base_mix64(x);
}

typedef enum CallKind { CALL_START, CALL_PLAY, CALL_STOP } CallKind;

/* One call to one player, run in its own thread. */
typedef struct Call {
    CallKind kind;
    MatchPlayer *p;
    const char *id, *rules, *role;
    uint64_t seed;
    unsigned startclock, playclock;
    const char *const *last;
    size_t n;
    double deadline;
    bool ok;
    char *move;      /* PLAY's answer */
    char *err;
    double done_at;  /* gdl_now when it returned */
} Call;

static void *call_run(void *arg)
{
    Call *c = arg;
    switch (c->kind) {
    case CALL_START:
        c->ok = c->p->ops->start(c->p, c->id, c->seed, c->rules, c->role, c->startclock, c->playclock, &c->err);
        break;
    case CALL_PLAY:
        c->move = c->p->ops->play(c->p, c->id, c->last, c->n, c->deadline, &c->err);
        c->ok = c->move != NULL;
        break;
    case CALL_STOP:
        c->p->ops->stop(c->p, c->id, c->last, c->n);
        c->ok = true;
        break;
    }
    c->done_at = gdl_now();
    return NULL;
}

/* Runs calls[0..n) at once. */
static void call_all(Call *calls, size_t n)
{
    pthread_t th[n ? n : 1];
    bool started[n ? n : 1];
    for (size_t i = 1; i < n; i++)
        started[i] = pthread_create(&th[i], NULL, call_run, &calls[i]) == 0;
    if (n > 0)
        call_run(&calls[0]);
    for (size_t i = 1; i < n; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            call_run(&calls[i]);
    }
}

static void mlog(const MatchOptions *o, const char *fmt, ...)
{
    if (!o->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o->log, fmt, ap);
    va_end(ap);
    fputc('\n', o->log);
    fflush(o->log);
}

GdlStatus match_run(const GdlGame *game, const char *rules, size_t len, MatchPlayer *const *players,
                    const MatchOptions *o, MatchRecord **rec, char **err)
{
    *rec = NULL;
    *err = NULL;
    (void)len;
    unsigned R = gdl_game_role_count(game);
    GdlMachine *m = NULL;
    GdlStatus st = gdl_machine_new(game, NULL, &m);
    if (st != GDL_OK)
        st = gdl_machine_new(game, "ref", &m);
    if (st != GDL_OK) {
        *err = player_fmt("no machine for the game: %s", gdl_game_error(game));
        return st;
    }
    GdlRng rng;
    gdl_rng_seed(&rng, o->seed);
    char id[64];
    snprintf(id, sizeof id, "gdlc.%016llx", (unsigned long long)fresh_id());
    MatchRecord *r = record_new(id, R, players, o->startclock, o->playclock);
    Call *calls = calloc(R ? R : 1, sizeof *calls);
    char **last = calloc(R ? R : 1, sizeof *last);
    const char **errs = calloc(R ? R : 1, sizeof *errs);
    char **errbuf = calloc(R ? R : 1, sizeof *errbuf);
    GdlMove *joint = calloc(R ? R : 1, sizeof *joint);
    GdlState *state = NULL;
    bool have_last = false;
    if (!r || !calls || !last || !errs || !errbuf || !joint) {
        st = GDL_OUT_OF_MEMORY;
        goto out;
    }
    if ((st = gdl_state_initial(m, &state)) != GDL_OK || !record_add_state(r, m, state)) {
        if (st == GDL_OK)
            st = GDL_OUT_OF_MEMORY;
        goto out;
    }
    /* START */
    mlog(o, "match %s: start", id);
    for (unsigned i = 0; i < R; i++)
        calls[i] = (Call){.kind = CALL_START, .p = players[i], .id = id, .seed = o->seed, .rules = rules,
                          .role = gdl_game_role_name(game, i), .startclock = o->startclock,
                          .playclock = o->playclock};
    call_all(calls, R);
    char **start_err = calloc(R ? R : 1, sizeof *start_err);
    if (!start_err) {
        st = GDL_OUT_OF_MEMORY;
        goto out;
    }
    for (unsigned i = 0; i < R; i++) {
        if (!calls[i].ok)
            start_err[i] = player_fmt("start failed: %s", calls[i].err ? calls[i].err : "no reason given");
        mlog(o, "  %s as %s: %s", players[i]->name, gdl_game_role_name(game, i),
             calls[i].ok ? "ready" : start_err[i] ? start_err[i] : "failed");
        free(calls[i].err);
    }
    /* PLAY until the end */
    for (;;) {
        bool term;
        if ((st = gdl_state_is_terminal(m, state, &term)) != GDL_OK) {
            *err = player_fmt("%s", gdl_machine_error(m));
            break;
        }
        if (term)
            break;
        double deadline = gdl_now() + o->playclock;
        for (unsigned i = 0; i < R; i++)
            calls[i] = (Call){.kind = CALL_PLAY, .p = players[i], .id = id,
                              .last = have_last ? (const char *const *)last : NULL, .n = have_last ? R : 0,
                              .deadline = deadline};
        call_all(calls, R);
        for (unsigned i = 0; i < R; i++) {
            const GdlMove *lm;
            size_t nl;
            char shownbuf[SHOWN_MAX + 40];
            errbuf[i] = NULL;
            bool good = false, parsed = false;
            Call *c = &calls[i];
            if (!c->ok)
                errbuf[i] = player_fmt("no move: %s", c->err ? c->err : "the call failed");
            else if (c->done_at > deadline)
                errbuf[i] = player_fmt("late: answered %.3f s after the play clock", c->done_at - deadline);
            else if (strlen(c->move) > MATCH_MAX_MOVE)
                errbuf[i] = player_fmt("unreadable move: longer than %d bytes: %s", MATCH_MAX_MOVE,
                                       shown(c->move, shownbuf));
            else if (gdl_move_parse(m, c->move, &joint[i]) != GDL_OK)
                errbuf[i] = player_fmt("unreadable move: %s", shown(c->move, shownbuf));
            else
                parsed = true;
            /* the legal moves after the parse (it is a call on the machine) */
            if ((st = gdl_state_legal(m, state, i, &lm, &nl)) != GDL_OK)
                break;
            if (parsed) {
                for (size_t k = 0; k < nl; k++)
                    if (lm[k] == joint[i])
                        good = true;
                if (!good)
                    errbuf[i] = player_fmt("illegal move: %s", shown(c->move, shownbuf));
            }
            if (start_err[i] && !good) {
                /* the first error of a player whose START failed says so */
                free(errbuf[i]);
                errbuf[i] = start_err[i];
                start_err[i] = NULL;
            }
            if (!good && (st = gdl_state_random_move(m, state, i, &rng, &joint[i])) != GDL_OK)
                break;
            if (!good && !errbuf[i])
                errbuf[i] = player_fmt("no move");
            free(c->move);
            free(c->err);
            c->move = c->err = NULL;
        }
        if (st != GDL_OK) {
            *err = player_fmt("%s", gdl_machine_error(m));
            for (unsigned i = 0; i < R; i++) {
                free(calls[i].move);
                free(calls[i].err);
                free(errbuf[i]);
            }
            break;
        }
        for (unsigned i = 0; i < R; i++) {
            free(last[i]);
            last[i] = strdup(gdl_move_text(m, joint[i]));
            errs[i] = errbuf[i] ? errbuf[i] : "";
            if (errbuf[i])
                mlog(o, "  %s (%s): %s", players[i]->name, gdl_game_role_name(game, i), errbuf[i]);
        }
        have_last = true;
        bool added = record_add_turn(r, (const char *const *)last, errs);
        for (unsigned i = 0; i < R; i++) {
            free(errbuf[i]);
            errbuf[i] = NULL;
        }
        GdlState *next = NULL;
        if (!added) {
            st = GDL_OUT_OF_MEMORY;
            break;
        }
        if ((st = gdl_state_next(m, state, joint, &next)) != GDL_OK) {
            *err = player_fmt("%s", gdl_machine_error(m));
            break;
        }
        gdl_state_free(state);
        state = next;
        if (!record_add_state(r, m, state)) {
            st = GDL_OUT_OF_MEMORY;
            break;
        }
    }
    for (unsigned i = 0; i < R; i++)
        free(start_err[i]);
    free(start_err);
    if (st == GDL_OK && (st = gdl_state_goals(m, state, r->goals)) != GDL_OK)
        *err = player_fmt("%s", gdl_machine_error(m));
    /* STOP (ABORT when the match could not end) */
    for (unsigned i = 0; i < R; i++)
        calls[i] = (Call){.kind = CALL_STOP, .p = players[i], .id = id,
                          .last = have_last ? (const char *const *)last : NULL, .n = have_last ? R : 0};
    if (st == GDL_OK) {
        r->completed = true;
        call_all(calls, R);
        mlog(o, "match %s: done", id);
    } else {
        for (unsigned i = 0; i < R; i++)
            players[i]->ops->abort(players[i], id);
    }
out:
    if (st != GDL_OK && !*err)
        *err = player_fmt("%s", gdl_status_name(st));
    gdl_state_free(state);
    for (unsigned i = 0; last && i < R; i++)
        free(last[i]);
    free(last);
    free(calls);
    free(errs);
    free(errbuf);
    free(joint);
    gdl_machine_free(m);
    if (st != GDL_OK) {
        match_record_free(r);
        return st;
    }
    *rec = r;
    return GDL_OK;
}
