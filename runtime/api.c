/*
 * api.c: the public state-machine API (gdl.h) over the engines.
 *
 * The API keeps what is engine-neutral: games, diagnostics, the term store
 * of each machine, states as sorted arrays of fact ids, canonical order and
 * text, hashing, and the GDL checks on answers (goal values must be numbers
 * from 0 to 100; a terminal state needs one goal per role; a non-terminal
 * one a legal move per role).
 *
 * Misuse is caught here, in O(number of roles) per call so that the checks
 * stay on in a player's hot loop. Every state carries its game (any machine
 * of the game may read it: see "the game's canonical terms" below), the
 * serial of the machine that made it and a stamp naming its content; the machine remembers, per role, the legal moves it computed
 * last and the stamp of the state they were for, with a bit per term and
 * role, so checking the k-th move of a joint move is one lookup when the
 * player asked for the legal moves first, and one legal-move query when
 * not (see Misuse in gdl.h).
 *
 * The StateMachine conveniences (random moves, depth charges, joint-move
 * iterators, successors, base propositions, states as bytes) are built on
 * the engine operations only, so every engine has them. Random moves and
 * depth charges (a playout's loop, which calls the queries' helpers every
 * step) and the generator they draw from are here; the others are in
 * api_machine.c, states as bytes in api_bytes.c.
 */
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "api_shared.h"
#include "rng.h"

const char *gdl_version(void) { return GDL_VERSION; }

const char *gdl_status_name(GdlStatus s)
{
    switch (s) {
    case GDL_OK: return "ok";
    case GDL_INVALID_GAME: return "invalid game";
    case GDL_IO_ERROR: return "i/o error";
    case GDL_NO_ENGINE: return "no such engine";
    case GDL_BAD_ARGUMENT: return "bad argument";
    case GDL_GAME_FAULT: return "game fault";
    case GDL_LIMIT: return "limit reached";
    case GDL_CANCELLED: return "cancelled";
    case GDL_OUT_OF_MEMORY: return "out of memory";
    }
    return "unknown status";
}

/* ---- out of memory ---------------------------------------------------- */

/* Every public call that allocates runs under an out-of-memory handler
 * (base.h): an allocation that fails anywhere below jumps back here and the
 * call returns GDL_OUT_OF_MEMORY. A machine interrupted in the middle of a
 * query may hold half-built tables, so it is marked and refuses every later
 * query; its memory stays consistent enough to be freed. Nothing here may
 * allocate through base_x*: memory has just run out. */
static const char OOM_TEXT[] = "out of memory: an allocation failed; this machine can only be freed";

GdlStatus rt_machine_oom(GdlMachine *m, const char *what)
{
    m->oom = true;
    free(m->ctl.error);
    m->ctl.error = NULL;
    (void)what;
    return GDL_OUT_OF_MEMORY;
}

/* The outermost guarded call records what it allocates in the machine's
 * journal (base.h): after a success it is forgotten; after running out it
 * stays, and gdl_machine_free frees what the machine's own teardown did
 * not (the call's temporaries). A nested call keeps the outer journal.
 * GUARDED and GUARDED_AS are RT_GUARDED and RT_GUARDED_AS (runtime.h), which
 * analysis_api.c uses too (api_shared.h names them for the API's files). */
BaseJournal *rt_journal_enter(GdlMachine *m)
{
    BaseJournal *outer = base_journal_swap(&m->journal);
    if (outer)
        base_journal_swap(outer);
    return outer;
}

void rt_journal_leave(GdlMachine *m, BaseJournal *outer, bool ok)
{
    if (outer)
        return;
    base_journal_swap(NULL);
    if (ok && m->journal.used) /* (a call that allocated nothing has nothing to forget) */
        base_journal_forget_all(&m->journal);
}

/* ---- diagnostics and games ------------------------------------------ */

struct GdlDiagnostics {
    DiagList list;     /* its src points at src below */
    Source *src;       /* a copy, so diagnostics outlive the game */
    GdlDiagnostic *items;
};

static GdlDiagnostics *diagnostics_from(const Front *f)
{
    GdlDiagnostics *d = base_xcalloc(1, sizeof *d);
    const Source *s = f->src;
    d->src = source_new(s->name, base_xstrndup(s->text, s->len), s->len);
    diag_init(&d->list, d->src);
    d->items = base_xcalloc(f->diags.items.n + 1, sizeof *d->items);
    for (uint32_t i = 0; i < f->diags.items.n; i++) {
        Diag x = f->diags.items.v[i];
        x.msg = base_xstrdup(x.msg);
        vec_push(d->list.items, x);
        d->items[i] = (GdlDiagnostic){(GdlSeverity)x.sev, d->src->name, x.line, x.col, x.msg};
    }
    return d;
}

static GameTerms *game_terms_new(const Symtab *gs);
static void game_terms_free(GameTerms *t);

static GdlStatus finish_load(Front *f, bool ok, GdlGame **game, GdlDiagnostics **diags)
{
    /* everything that may run out of memory before anything reaches the caller */
    GameTerms *terms = ok ? game_terms_new(&f->syms) : NULL;
    GdlDiagnostics *d = diags ? diagnostics_from(f) : NULL;
    if (diags)
        *diags = d;
    if (!ok) {
        front_free(f);
        free(f);
        *game = NULL;
        return GDL_INVALID_GAME;
    }
    GdlGame *g = (GdlGame *)f; /* a GdlGame starts with its Front */
    static _Atomic uint64_t serials;
    g->terms = terms;
    g->serial = atomic_fetch_add(&serials, 1) + 1;
    *game = g;
    return GDL_OK;
}

/* Loading under an out-of-memory handler: the game being built is freed
 * (g is volatile: it is read after the jump). */
#define LOAD_GUARDED(body)                                                     \
    GdlGame *volatile g = NULL;                                                \
    *game = NULL;                                                              \
    if (diags)                                                                 \
        *diags = NULL;                                                         \
    BaseJournal journal_ = {0};                                                \
    BaseJournal *outer_ = base_journal_swap(&journal_);                        \
    BaseOom oom_;                                                              \
    base_oom_push(&oom_);                                                      \
    if (BASE_OOM_SETJMP(&oom_)) {                                              \
        if (g) {                                                               \
            front_free(&g->front);                                             \
            free(g);                                                           \
        }                                                                      \
        base_journal_swap(outer_);                                             \
        base_journal_release(&journal_); /* the load's temporaries */          \
        return GDL_OUT_OF_MEMORY;                                              \
    }                                                                          \
    g = base_xcalloc(1, sizeof *g);                                            \
    GdlStatus st_ = body;                                                      \
    base_oom_pop(&oom_);                                                       \
    base_journal_swap(outer_);                                                 \
    base_journal_forget_all(&journal_);                                        \
    base_journal_release(&journal_);                                           \
    return st_

static GdlStatus load_string(GdlGame *g, const char *name, const char *text, size_t len, GdlGame **game,
                             GdlDiagnostics **diags)
{
    bool ok = front_run(&g->front, name ? name : "<string>", base_xstrndup(text, len), len);
    return finish_load(&g->front, ok, game, diags);
}

GdlStatus gdl_game_load_string(const char *name, const char *text, size_t len, GdlGame **game,
                               GdlDiagnostics **diags)
{
    LOAD_GUARDED(load_string(g, name, text, len, game, diags));
}

static GdlStatus load_file(GdlGame *g, const char *path, GdlGame **game, GdlDiagnostics **diags);

GdlStatus gdl_game_load_file(const char *path, GdlGame **game, GdlDiagnostics **diags)
{
    LOAD_GUARDED(load_file(g, path, game, diags));
}

static GdlStatus load_file(GdlGame *g, const char *path, GdlGame **game, GdlDiagnostics **diags)
{
    char *err = NULL;
    bool ok = front_run_file(&g->front, path, &err);
    if (err) {
        /* the reason, as the one diagnostic (front_run_file left f empty) */
        Front *f = &g->front;
        symtab_init(&f->syms);
        f->src = source_new(path, base_xstrdup(""), 0);
        diag_init(&f->diags, f->src);
        diag_error(&f->diags, 0, "%s", err);
        free(err);
        finish_load(f, false, game, diags);
        return GDL_IO_ERROR;
    }
    return finish_load(&g->front, ok, game, diags);
}

void gdl_game_free(GdlGame *game)
{
    if (!game)
        return;
    front_free(&game->front);
    game_terms_free(game->terms);
    free(game);
}

size_t gdl_diagnostics_count(const GdlDiagnostics *d) { return d ? d->list.items.n : 0; }

const GdlDiagnostic *gdl_diagnostics_get(const GdlDiagnostics *d, size_t i)
{
    return d && i < d->list.items.n ? &d->items[i] : NULL;
}

void gdl_diagnostics_print(FILE *f, const GdlDiagnostics *d, bool warnings)
{
    if (d)
        diag_print(f, &d->list, warnings);
}

void gdl_diagnostics_free(GdlDiagnostics *d)
{
    if (!d)
        return;
    diag_free(&d->list);
    source_free(d->src);
    free(d->items);
    free(d);
}

unsigned gdl_game_role_count(const GdlGame *game) { return game->front.ir.roles.n; }

const char *gdl_game_role_name(const GdlGame *game, unsigned role)
{
    if (role >= game->front.ir.roles.n)
        return NULL;
    return symtab_str(&game->front.syms, game->front.ir.roles.v[role]);
}

/* ---- machines -------------------------------------------------------- */

/* A number naming the machine in its states: from its address and the
 * time, so a machine made later at the same address has another. */
static uint64_t machine_serial(const GdlMachine *m)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t t = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    uint64_t x = base_mix64((uint64_t)(uintptr_t)m ^ base_mix64(t));
    return x ? x : 1;
}

static GdlStatus machine_new(const GdlGame *game, const char *engine, double deadline, const volatile int *cancel,
                             GdlMachine *volatile *mp, char **err);
static void rank_known(GdlMachine *m);
static void shares_make(GdlMachine *m);
static void shares_release(FactShares *f);
static const Gt *state_cids(const GdlState *s, Gt *buf);

/* gdl_game_error's message: of the last failed call that made a machine,
 * per thread (a game is shared by threads, and is const to them), for the
 * game of that serial (not its address: a game loaded where a freed one
 * was has no message). A buffer, not an allocation, so that a thread that
 * ends leaves nothing behind; a longer message is cut. */
static _Thread_local struct {
    uint64_t game; /* its serial; 0: none */
    char message[1024];
} game_error;

void rt_game_fail(const GdlGame *game, GdlStatus st, char *message)
{
    game_error.game = game->serial;
    snprintf(game_error.message, sizeof game_error.message, "%s", message ? message : gdl_status_name(st));
    free(message);
}

const char *gdl_game_error(const GdlGame *game)
{
    return game && game_error.game == game->serial ? game_error.message : "";
}

GdlStatus gdl_machine_new(const GdlGame *game, const char *engine, GdlMachine **out)
{
    return gdl_machine_new_until(game, engine, 0, NULL, out);
}

GdlStatus gdl_machine_new_until(const GdlGame *game, const char *engine, double deadline, const volatile int *cancel,
                                GdlMachine **out)
{
    char *err = NULL;
    GdlStatus st = rt_machine_new_until(game, engine, deadline, cancel, out, &err);
    if (st != GDL_OK)
        rt_game_fail(game, st, err);
    return st;
}

GdlStatus rt_machine_new(const GdlGame *game, const char *engine, GdlMachine **out, char **err)
{
    return rt_machine_new_until(game, engine, 0, NULL, out, err);
}

GdlStatus rt_machine_new_until(const GdlGame *game, const char *engine, double deadline, const volatile int *cancel,
                               GdlMachine **out, char **err)
{
    *out = NULL;
    if (err)
        *err = NULL;
    GdlMachine *volatile m = NULL;
    BaseJournal journal = {0};
    BaseJournal *outer = base_journal_swap(&journal);
    BaseOom oom_;
    base_oom_push(&oom_);
    if (BASE_OOM_SETJMP(&oom_)) {
        /* what the machine holds is freed, then whatever else the making
         * had allocated (an engine half made). An engine made whole (the
         * jump came later, ranking its terms) is destroyed: it may hold
         * memory the journal does not know, libtcc's or dlopen's. */
        if (m)
            gdl_machine_free(m);
        base_journal_swap(outer);
        base_journal_release(&journal);
        return GDL_OUT_OF_MEMORY;
    }
    GdlStatus st = machine_new(game, engine, deadline, cancel, &m, err);
    base_oom_pop(&oom_);
    base_journal_swap(outer);
    base_journal_forget_all(&journal);
    base_journal_release(&journal);
    if (st == GDL_OK)
        *out = m;
    return st;
}

static GdlStatus machine_new(const GdlGame *game, const char *engine, double deadline, const volatile int *cancel,
                             GdlMachine *volatile *mp, char **err)
{
    if (!engine)
        engine = gdl_engines()[0].name; /* jit; aot in a build without libtcc */
    /* "so:PATH", "ref:ground": the name is what comes before the colon,
     * and whether an argument may or must follow is the engine's say */
    const char *arg;
    const EngineOps *ops = rt_engine_find(engine, &arg);
    if (!ops) {
        if (err)
            *err = rt_engine_unknown(engine);
        return GDL_NO_ENGINE;
    }
    GdlMachine *m = *mp = base_xcalloc(1, sizeof *m);
    m->game = game;
    m->ops = ops;
    /* The machine's own symbol table starts as a copy of the game's, id for id. */
    symtab_init(&m->syms);
    const Symtab *gs = &game->front.syms;
    for (uint32_t i = 0; i < gs->n; i++)
        symtab_intern(&m->syms, gs->str[i], gs->len[i]);
    gt_init(&m->store, &m->syms);
    for (uint32_t k = 0; k < game->front.ir.roles.n; k++)
        vec_push(m->roles, gt_intern(&m->store, game->front.ir.roles.v[k], 0, NULL));
    m->serial = machine_serial(m);
    m->legal_stamp = base_xcalloc(m->roles.n + 1, sizeof *m->legal_stamp);
    m->legal_mark = base_xcalloc(m->roles.n + 1, sizeof *m->legal_mark);
    m->legal_epoch = base_xcalloc(m->roles.n + 1, sizeof *m->legal_epoch);
    char *e = NULL;
    /* what making polls (grounding, the network's timing, sampling, a
     * compile waiting for another's); the machine starts without them.
     * Stopped at the end, an engine made is thrown away: a step stopped
     * inside may have left it short of its plan (jit without its
     * goal-directed code). */
    m->ctl.deadline = deadline;
    m->ctl.flag = cancel;
    bool stopped = rt_stop_now(&m->ctl);
    if (!stopped) {
        m->engine = ops->create(game, arg, &m->store, &m->ctl, &e);
        stopped = rt_stop_now(&m->ctl);
    }
    m->ctl.deadline = 0;
    m->ctl.flag = NULL;
    if (stopped && m->engine) {
        ops->destroy(m->engine);
        m->engine = NULL;
    }
    if (!m->engine) {
        if (stopped) {
            free(e);
            e = base_xstrdup("cancelled: the deadline passed or the cancel flag was raised while the machine was made");
        }
        if (err)
            *err = e;
        else
            free(e);
        GdlStatus st = stopped ? GDL_CANCELLED : m->ctl.create_status ? m->ctl.create_status : GDL_LIMIT;
        gdl_machine_free(m);
        *mp = NULL;
        return st;
    }
    if (ops->resolve)
        m->ops = ops->resolve(ops, &m->engine);
    rank_known(m);
    if (m->ops->made_facts)
        shares_make(m);
    return GDL_OK;
}

void gdl_machine_free(GdlMachine *m)
{
    if (!m)
        return;
    /* The teardown frees under the machine's journal (or an outer one, when
     * making the machine failed), so that what is left in it afterwards
     * are the temporaries of a call that ran out of memory. */
    BaseJournal own = m->journal;
    BaseJournal *outer = base_journal_swap(NULL);
    base_journal_swap(outer ? outer : &own);
    if (m->engine)
        m->ops->destroy(m->engine);
    gt_free(&m->store);
    symtab_free(&m->syms);
    vec_free(m->scratch);
    vec_free(m->to_cid);
    vec_free(m->to_own);
    vec_free(m->foreign);
    vec_free(m->foreign_cids);
    vec_free(m->rank);
    vec_free(m->ranked);
    vec_free(m->rank_tmp);
    vec_free(m->rank_bits);
    vec_free(m->sorted);
    vec_free(m->joint);
    for (uint32_t k = 0; m->legal_mark && k < m->roles.n; k++)
        vec_free(m->legal_mark[k]);
    free(m->legal_mark);
    free(m->legal_epoch);
    vec_free(m->fact_info);
    shares_release(m->shares);
    free(m->legal_stamp);
    gdl_state_free(m->charge[0]);
    gdl_state_free(m->charge[1]);
    vec_free(m->props);
    vec_free(m->symidx);
    vec_free(m->roles);
    free(m->ctl.error);
    free(m);
    base_journal_swap(outer);
    base_journal_release(&own);
}

const char *gdl_machine_engine(const GdlMachine *m) { return m->ops->name; }

const char *gdl_machine_plan(const GdlMachine *m)
{
    return m->ops->plan ? m->ops->plan(m->engine) : m->ops->name;
}
const char *gdl_machine_error(const GdlMachine *m)
{
    return m->oom ? OOM_TEXT : m->ctl.error ? m->ctl.error : "";
}
void gdl_machine_set_deadline(GdlMachine *m, double deadline)
{
    m->ctl.deadline = deadline;
    m->ctl.poll = 255; /* the next poll reads the clock (a deadline already past stops the next query) */
}
void gdl_machine_set_cancel_flag(GdlMachine *m, const volatile int *flag) { m->ctl.flag = flag; }

/* ---- states ---------------------------------------------------------- */

/* ---- the game's canonical terms ---------------------------------------- */

/* A state's facts are its machine's term ids, for speed, and also the
 * game's canonical ids (GameTerms in runtime.h), so that any machine of the
 * game can read it: a machine maps its own ids to canonical ones when it
 * makes a state, and canonical ones to its own when it is handed a state of
 * another machine, through two arrays of its own; only a term it has never
 * mapped takes the game's lock. States of one machine cost it one lookup
 * per fact; a state of another machine is mapped and sorted once per stamp
 * (the machine keeps the last one). */

static GameTerms *game_terms_new(const Symtab *gs)
{
    GameTerms *t = base_xcalloc(1, sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    symtab_init(&t->syms);
    for (uint32_t i = 0; i < gs->n; i++)
        symtab_intern(&t->syms, gs->str[i], gs->len[i]);
    gt_init(&t->store, &t->syms);
    atomic_init(&t->stamps, 0);
    return t;
}

static void game_terms_free(GameTerms *t)
{
    if (!t)
        return;
    gt_free(&t->store);
    symtab_free(&t->syms);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* Grows a map to hold index need - 1, new entries 0 (not mapped). */
static void map_grow(U32Vec *v, uint32_t need)
{
    if (v->n >= need)
        return;
    vec_reserve(*v, need);
    memset(v->v + v->n, 0, (size_t)(need - v->n) * sizeof *v->v);
    v->n = need;
}

static void map_pair(GdlMachine *m, Gt own, Gt cid)
{
    map_grow(&m->to_cid, own + 1);
    m->to_cid.v[own] = cid + 1;
    map_grow(&m->to_own, cid + 1);
    m->to_own.v[cid] = own + 1;
}

/* The canonical id of one of m's terms; the game's lock is held. */
static Gt cid_locked(GdlMachine *m, Gt t)
{
    if (t < m->to_cid.n && m->to_cid.v[t])
        return m->to_cid.v[t] - 1;
    GameTerms *g = m->game->terms;
    uint32_t ar = gt_arity(&m->store, t), fn = gt_fn(&m->store, t);
    Gt small[8], *args = ar <= 8 ? small : base_xmalloc(ar * sizeof *args);
    for (uint32_t i = 0; i < ar; i++)
        args[i] = cid_locked(m, gt_arg(&m->store, t, i));
    Gt c = gt_intern(&g->store, symtab_intern(&g->syms, m->syms.str[fn], m->syms.len[fn]), ar, args);
    if (args != small)
        free(args);
    map_pair(m, t, c);
    return c;
}

/* m's own id of a canonical term (made in m's store if new); the game's
 * lock is held. */
static Gt own_locked(GdlMachine *m, Gt c)
{
    if (c < m->to_own.n && m->to_own.v[c])
        return m->to_own.v[c] - 1;
    GameTerms *g = m->game->terms;
    uint32_t ar = gt_arity(&g->store, c), fn = gt_fn(&g->store, c);
    Gt small[8], *args = ar <= 8 ? small : base_xmalloc(ar * sizeof *args);
    for (uint32_t i = 0; i < ar; i++)
        args[i] = own_locked(m, gt_arg(&g->store, c, i));
    Gt t = gt_intern(&m->store, symtab_intern(&m->syms, g->syms.str[fn], g->syms.len[fn]), ar, args);
    if (args != small)
        free(args);
    map_pair(m, t, c);
    return t;
}

/* Maps n terms, to canonical ids (to_cid) or back, under the game's lock.
 * Running out of memory releases the lock, then jumps on. */
static void map_locked(GdlMachine *m, const Gt *in, Gt *out, uint32_t n, bool to_cid)
{
    GameTerms *g = m->game->terms;
    /* what this grows is the game's and the machine's for good, not the
     * call's: out of the journal (base.h) */
    BaseJournal *journal = base_journal_swap(NULL);
    pthread_mutex_lock(&g->lock);
    BaseOom oom;
    base_oom_push(&oom);
    if (BASE_OOM_SETJMP(&oom)) {
        pthread_mutex_unlock(&g->lock);
        base_journal_swap(journal);
        base_fatal(oom.what ? oom.what : "out of memory");
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = to_cid ? cid_locked(m, in[i]) : own_locked(m, in[i]);
    base_oom_pop(&oom);
    pthread_mutex_unlock(&g->lock);
    base_journal_swap(journal);
}

/* The facts of s, a state of another machine, as m's own ids, sorted:
 * mapped once per stamp (the machine keeps the last). */
static const Gt *foreign_facts(GdlMachine *m, const GdlState *s)
{
    if (m->foreign_stamp == s->stamp && m->foreign.n == s->n)
        return m->foreign.v;
    m->foreign_stamp = 0;
    m->foreign.n = 0;
    vec_reserve(m->foreign, s->n + 1);
    if (s->shares)
        vec_reserve(m->foreign_cids, s->n + 1);
    const Gt *cids = state_cids(s, m->foreign_cids.v);
    bool all = true;
    for (uint32_t i = 0; i < s->n && all; i++) {
        Gt c = cids[i];
        all = c < m->to_own.n && m->to_own.v[c];
        m->foreign.v[i] = all ? m->to_own.v[c] - 1 : 0;
    }
    if (!all)
        map_locked(m, cids, m->foreign.v, s->n, false);
    m->foreign.n = s->n;
    base_sort_u32(m->foreign.v, s->n);
    m->foreign_stamp = s->stamp;
    return m->foreign.v;
}

/* The facts of s as m's own ids, sorted: s's own array when m made it. */
static inline const Gt *own_facts(GdlMachine *m, const GdlState *s)
{
    return s->owner == m->serial ? s->facts : foreign_facts(m, s);
}

/* ---- canonical ranks -------------------------------------------------- */

/* Moves come out in canonical order, the byte order of their text, and so
 * do facts when a state is read fact by fact. Comparing texts in a playout
 * loop cost a quarter of a game's time, so each machine ranks the terms it
 * orders, once: ranked holds them in canonical order and rank[t] - 1 is t's
 * place there, so that sorting is sorting small integers. A term without a
 * rank is placed by binary search among the ranked ones (text comparisons,
 * once per term) and the ranks after it are renumbered: a cost linear in
 * the ranked terms, paid only by a call that meets terms never seen before,
 * which stops once a game's moves have all been seen. An engine that knows
 * its every move and fact (EngineOps.terms) has them ranked in one batch
 * when the machine is made. */

/* Gives the terms of v (any order, repeats allowed) that have none a rank;
 * rank covers every term of v. */
static void rank_add(GdlMachine *m, const Gt *v, uint32_t n)
{
    U32Vec *fresh = &m->rank_tmp;
    fresh->n = 0;
    for (uint32_t i = 0; i < n; i++)
        if (m->rank.v[v[i]] == 0) {
            m->rank.v[v[i]] = UINT32_MAX; /* collected: a repeat is not taken twice */
            vec_push(*fresh, v[i]);
        }
    if (fresh->n == 0)
        return;
    gt_sort(&m->store, fresh->v, fresh->n);
    /* merged from the end, the greatest fresh term first: each goes after
     * the ranked terms that precede it, found by binary search */
    uint32_t old = m->ranked.n, k = fresh->n, i = old, at = old + k;
    vec_reserve(m->ranked, old + k);
    while (k > 0) {
        Gt t = fresh->v[--k];
        uint32_t lo = 0, hi = i;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (gt_cmp(&m->store, m->ranked.v[mid], t) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        while (i > lo)
            m->ranked.v[--at] = m->ranked.v[--i];
        m->ranked.v[--at] = t;
    }
    m->ranked.n = old + fresh->n;
    for (uint32_t j = at; j < m->ranked.n; j++) /* ranked[0..at) kept their places */
        m->rank.v[m->ranked.v[j]] = j + 1;
}

/* Sorts n numbers, repeats removed, with the machine's scratch (no
 * allocation once it has grown); returns how many remain. Numbers within a
 * span of a few times 64n (ranks, the facts of most states) are sorted by
 * a bitset over their span, in time linear in n and the span. */
static uint32_t sort_unique(GdlMachine *m, uint32_t *v, uint32_t n)
{
    if (n < 2)
        return n;
    if (n <= 16) {
        /* a few moves, a small state: in place, repeats dropped as met
         * (the bitset's scans and clearing cost more than the sort) */
        uint32_t k = 1;
        for (uint32_t i = 1; i < n; i++) {
            uint32_t x = v[i], j = k;
            while (j > 0 && v[j - 1] > x)
                j--;
            if (j > 0 && v[j - 1] == x)
                continue;
            for (uint32_t l = k; l > j; l--)
                v[l] = v[l - 1];
            v[j] = x;
            k++;
        }
        return k;
    }
    uint32_t lo = v[0], hi = v[0];
    for (uint32_t i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    uint32_t words = ((hi - lo) >> 6) + 1, k = 0;
    if (words <= 2 * (uint64_t)n + 8) {
        vec_reserve(m->rank_bits, words);
        uint64_t *bits = m->rank_bits.v;
        memset(bits, 0, words * sizeof *bits);
        for (uint32_t i = 0; i < n; i++)
            bits[(v[i] - lo) >> 6] |= (uint64_t)1 << ((v[i] - lo) & 63);
        for (uint32_t w = 0; w < words; w++)
            for (uint64_t x = bits[w]; x; x &= x - 1)
                v[k++] = lo + (w << 6) + (uint32_t)__builtin_ctzll(x);
        return k;
    }
    if (n > 24)
        vec_reserve(m->rank_tmp, n);
    base_sort_u32_with(v, m->rank_tmp.v, n);
    for (uint32_t i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

/* Sorts n terms of m canonically (gt_sort's order), by rank, repeats
 * removed; returns how many remain. */
static uint32_t rank_sort(GdlMachine *m, Gt *v, uint32_t n)
{
    if (m->rank.n < m->store.fn.n)
        map_grow(&m->rank, m->store.fn.n);
    uint32_t i = 0;
    for (; i < n && m->rank.v[v[i]]; i++)
        v[i] = m->rank.v[v[i]];
    if (i < n) {
        for (uint32_t j = 0; j < i; j++) /* back to terms, then rank the new ones */
            v[j] = m->ranked.v[v[j] - 1];
        rank_add(m, v, n);
        for (i = 0; i < n; i++)
            v[i] = m->rank.v[v[i]];
    }
    n = sort_unique(m, v, n);
    for (i = 0; i < n; i++)
        v[i] = m->ranked.v[v[i] - 1];
    return n;
}

/* The engine's every move and fact, when it knows them, ranked at once. */
static void rank_known(GdlMachine *m)
{
    if (!m->ops->terms)
        return;
    m->scratch.n = 0;
    m->ops->terms(m->engine, &m->scratch);
    map_grow(&m->rank, m->store.fn.n);
    rank_add(m, m->scratch.v, m->scratch.n);
    m->scratch.n = 0;
}

/* ---- states ---------------------------------------------------------- */

/* A state holds its facts as its machine's term ids, sorted, and, for any
 * other machine and for the hash, their canonical ids and hash shares in
 * one of two ways. Made from facts an engine answered (state_set_stamped),
 * it holds them itself: the ids after its facts and the hash summed, in one
 * pass. Written by its machine's engine straight into its room
 * (EngineOps.next_facts, a playout's step), it holds neither: it points at
 * the machine's FactShares, where every fact such a state may hold has both
 * (made once with the machine), and whoever needs them reads them there
 * when asked (state_cids, state_hash). A step of a playout then makes no
 * ids, no hash and no copy, and a state's answers are the same either way. */

/* Term t's share of a state's hash: its content hash, mixed. */
static inline uint64_t fact_mix(const GdlMachine *m, Gt t)
{
    return base_mix64(m->store.hash.v[t] ^ 0x5851f42d4c957f2dULL);
}

#define STATE_SEED 0x6a09e667f3bcc908ULL /* a state's sum of shares before its facts' */

/* The shares of the facts the engine writes into states itself
 * (EngineOps.made_facts), made once the machine is: their canonical ids
 * (mapped now) and hash shares, over the span of their own ids. */
static void shares_make(GdlMachine *m)
{
    const Gt *facts;
    uint32_t most = 0;
    uint32_t n = m->ops->made_facts(m->engine, &facts, &most);
    if (!n)
        return;
    Gt lo = facts[0], hi = facts[0];
    for (uint32_t i = 1; i < n; i++) {
        lo = facts[i] < lo ? facts[i] : lo;
        hi = facts[i] > hi ? facts[i] : hi;
    }
    Gt *cids = base_xmalloc((size_t)n * sizeof *cids);
    map_locked(m, facts, cids, n, true);
    uint32_t span = hi - lo + 1;
    FactShares *f = base_xcalloc(1, sizeof *f + (size_t)span * sizeof *f->info);
    atomic_init(&f->refs, 1);
    f->lo = lo;
    f->n = span;
    for (uint32_t i = 0; i < n; i++)
        f->info[facts[i] - lo] = (FactInfo){fact_mix(m, facts[i]), cids[i] + 1};
    free(cids);
    m->shares = f;
    m->shares_max = most ? most : n;
}

static FactShares *shares_take(FactShares *f)
{
    atomic_fetch_add_explicit(&f->refs, 1, memory_order_relaxed);
    return f;
}

static void shares_release(FactShares *f)
{
    if (f && atomic_fetch_sub_explicit(&f->refs, 1, memory_order_acq_rel) == 1)
        free(f);
}

/* The canonical ids of s's facts, in the order of its facts: its own, or
 * read from its shares into buf (room for s->n). */
static const Gt *state_cids(const GdlState *s, Gt *buf)
{
    if (!s->shares)
        return s->facts + s->cap;
    const FactInfo *info = s->shares->info - s->shares->lo;
    for (uint32_t i = 0; i < s->n; i++)
        buf[i] = info[s->facts[i]].cid - 1;
    return buf;
}

/* s's hash: made with it, or summed from its shares the first time it is
 * asked and kept. Any thread may ask (a state is a value every machine of
 * its game may read), so the hash is stored atomically; two threads that
 * race store the same value. A sum that hashes to 0 is summed again at
 * each call (the value is the same). */
static uint64_t state_hash(const GdlState *s)
{
    uint64_t h = atomic_load_explicit(&s->hash, memory_order_relaxed);
    if (h || !s->shares)
        return h;
    const FactInfo *info = s->shares->info - s->shares->lo;
    uint64_t sum = STATE_SEED;
    for (uint32_t i = 0; i < s->n; i++)
        sum += info[s->facts[i]].mix;
    h = base_mix64(sum ^ s->n);
    atomic_store_explicit(&((GdlState *)s)->hash, h, memory_order_relaxed);
    return h;
}

/* Term t's share, and its canonical id into *cid when m has mapped it
 * (else *all is made false), kept in its info the first time t is a fact. */
static inline uint64_t fact_share(GdlMachine *m, Gt t, Gt *cid, bool *all)
{
    FactInfo *fi = &m->fact_info.v[t];
    if (!fi->mix) /* 0: not mixed yet (or mixed to 0, mixed again) */
        fi->mix = fact_mix(m, t);
    if (!fi->cid && t < m->to_cid.n)
        fi->cid = m->to_cid.v[t];
    if (fi->cid)
        *cid = fi->cid - 1;
    else
        *all = false;
    return fi->mix;
}

/* A stamp no state of the game has had. The machine takes them from the
 * game's counter in blocks, so that a step of a playout does not pay a
 * locked add (stamps are only ever compared for equality). */
#define STAMP_BLOCK 1024
static uint64_t fresh_stamp(GdlMachine *m)
{
    if (m->stamp_next == m->stamp_end) {
        m->stamp_next = atomic_fetch_add(&m->game->terms->stamps, STAMP_BLOCK) + 1;
        m->stamp_end = m->stamp_next + STAMP_BLOCK;
    }
    return m->stamp_next++;
}

/* *sp, or a new state when NULL, with room for n facts (moved when it
 * grows: the caller's still, whatever happens); *sp is set to a new state
 * only by the state_finish calls. */
static GdlState *state_room(GdlMachine *m, GdlState **sp, uint32_t n)
{
    GdlState *s = *sp;
    if (!s || s->cap < n) {
        /* a new state has no room to spare; one that grows gets some */
        uint32_t cap = !s ? n + 1 : n + n / 4 + 4;
        bool theirs = s != NULL;
        s = base_xrealloc(s, sizeof *s + 2 * (size_t)cap * sizeof(Gt));
        s->cap = cap;
        s->n = 0;
        if (theirs) {
            /* the caller's object, moved: theirs still, whatever happens */
            *sp = s;
            base_journal_forget(s);
        } else
            s->shares = NULL;
    }
    if (m->fact_info.n < m->store.fn.n) {
        uint32_t have = m->fact_info.n, need = m->store.fn.n;
        vec_reserve(m->fact_info, need);
        memset(m->fact_info.v + have, 0, (size_t)(need - have) * sizeof *m->fact_info.v);
        m->fact_info.n = need;
    }
    return s;
}

/* s (*sp's room) holds k facts of m, sorted, stamped stamp (0: a fresh
 * stamp): it becomes *sp, pointing at shares (NULL: none), with hash. */
static inline void state_finish_as(GdlMachine *m, GdlState **sp, GdlState *s, uint32_t k, FactShares *shares,
                                   uint64_t hash, uint64_t stamp)
{
    s->n = k;
    if (s->shares != shares) {
        shares_release(s->shares);
        s->shares = shares ? shares_take(shares) : NULL;
    }
    atomic_store_explicit(&s->hash, hash, memory_order_relaxed);
    s->owner = m->serial;
    s->stamp = stamp ? stamp : fresh_stamp(m);
    s->game = m->game;
    *sp = s; /* a new state reaches the caller only once it is whole */
}

/* s (*sp's room) holds k facts with their canonical ids (mapped unless
 * all), the sum of their shares h: it becomes *sp. */
static void state_finish(GdlMachine *m, GdlState **sp, GdlState *s, uint32_t k, uint64_t h, bool all, uint64_t stamp)
{
    if (!all)
        map_locked(m, s->facts, s->facts + s->cap, k, true);
    state_finish_as(m, sp, s, k, NULL, base_mix64(h ^ k), stamp);
}

/* Writes facts (m's ids, any order, duplicates allowed) into *sp as a state
 * stamped stamp (0: a fresh stamp), making or growing *sp when it has too
 * little room. facts must not point into *sp. */
static void state_set_stamped(GdlMachine *m, GdlState **sp, const Gt *facts, uint32_t n, uint64_t stamp)
{
    GdlState *s = state_room(m, sp, n);
    /* the facts, their canonical ids beside them, and the hash (a sum of
     * mixed content hashes: independent of ids and of order), in one pass
     * when they come sorted (engines that answer in id order); else
     * sorted first */
    Gt *cids = s->facts + s->cap;
    bool all = true;
    uint64_t h = STATE_SEED;
    uint32_t k = 0;
    const FactInfo *info = m->fact_info.v;
    for (Gt last = 0; k < n; k++) {
        Gt t = facts[k];
        if (k && t <= last)
            break;
        last = t;
        s->facts[k] = t;
        uint64_t mix = info[t].mix;
        Gt cid = info[t].cid;
        if (__builtin_expect(!mix || !cid, 0)) { /* no share or canonical id known yet */
            h += fact_share(m, t, &cids[k], &all);
            continue;
        }
        cids[k] = cid - 1;
        h += mix;
    }
    if (k < n) {
        gt_tuple_copy(s->facts, facts, n);
        k = sort_unique(m, s->facts, n);
        h = STATE_SEED;
        all = true;
        for (uint32_t i = 0; i < k; i++)
            h += fact_share(m, s->facts[i], &cids[i], &all);
    }
    state_finish(m, sp, s, k, h, all, stamp);
}

static void state_set(GdlMachine *m, GdlState **sp, const Gt *facts, uint32_t n)
{
    state_set_stamped(m, sp, facts, n, 0);
}

/* The facts alone (m's ids, any order, duplicates allowed) into *sp,
 * stamped stamp: a state of the machine's own that never reaches a caller
 * (the depth charge's), so neither its canonical ids nor its hash are
 * made (it reads as having neither: no reader asks). */
static void state_set_bare(GdlMachine *m, GdlState **sp, const Gt *facts, uint32_t n, uint64_t stamp)
{
    GdlState *s = state_room(m, sp, n);
    uint32_t k = 0;
    for (Gt last = 0; k < n && (k == 0 || facts[k] > last); k++)
        s->facts[k] = last = facts[k];
    if (k < n) {
        gt_tuple_copy(s->facts, facts, n);
        k = sort_unique(m, s->facts, n);
    }
    state_finish_as(m, sp, s, k, NULL, 0, stamp);
}

static GdlState *state_make(GdlMachine *m, const Gt *facts, uint32_t n)
{
    GdlState *s = NULL;
    state_set(m, &s, facts, n);
    return s;
}

GdlState *rt_state_make(GdlMachine *m, const Gt *facts, uint32_t n) { return state_make(m, facts, n); }

/* Is s a state of this machine's game? See Misuse in gdl.h. */
static GdlStatus state_check(GdlMachine *m, const GdlState *s)
{
    if (s && s->game == m->game)
        return GDL_OK;
    if (!s)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no state (NULL)");
    return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a state of another game");
}

GdlState *gdl_state_copy(const GdlState *s)
{
    uint32_t cap = s->n + 1;
    GdlState *c = base_try_realloc(NULL, sizeof *c + 2 * (size_t)cap * sizeof(Gt));
    if (!c)
        return NULL;
    c->owner = s->owner;
    c->stamp = s->stamp;
    atomic_init(&c->hash, atomic_load_explicit(&s->hash, memory_order_relaxed));
    c->game = s->game;
    c->shares = s->shares ? shares_take(s->shares) : NULL;
    c->cap = cap;
    c->n = s->n;
    gt_tuple_copy(c->facts, s->facts, s->n);
    if (!s->shares)
        gt_tuple_copy(c->facts + cap, s->facts + s->cap, s->n);
    return c;
}

void gdl_state_free(GdlState *s)
{
    if (s)
        shares_release(s->shares);
    free(s);
}

static int cmp_gt(const void *a, const void *b)
{
    Gt x = *(const Gt *)a, y = *(const Gt *)b;
    return (x > y) - (x < y);
}

bool gdl_state_equal(const GdlState *a, const GdlState *b)
{
    if (a->game != b->game || a->n != b->n)
        return false;
    if (a->owner == b->owner)
        return gt_tuple_eq(a->facts, b->facts, a->n);
    /* states of two machines: a hash each knows may tell them apart, else
     * the same canonical ids, in any order (each set has no repeats) */
    uint64_t ha = atomic_load_explicit(&a->hash, memory_order_relaxed),
             hb = atomic_load_explicit(&b->hash, memory_order_relaxed);
    if (ha && hb && ha != hb)
        return false;
    Gt *sa = base_try_realloc(NULL, 2 * (size_t)a->n * sizeof(Gt) + 1);
    bool eq = true;
    if (sa) {
        Gt *sb = sa + a->n;
        const Gt *ca = state_cids(a, sa), *cb = state_cids(b, sb);
        if (ca != sa)
            gt_tuple_copy(sa, ca, a->n);
        if (cb != sb)
            gt_tuple_copy(sb, cb, a->n);
        qsort(sa, a->n, sizeof(Gt), cmp_gt);
        qsort(sb, a->n, sizeof(Gt), cmp_gt);
        eq = gt_tuple_eq(sa, sb, a->n);
        free(sa);
    } else { /* no memory to sort with: compare by search, reading the ids one by one */
        const FactInfo *ia = a->shares ? a->shares->info - a->shares->lo : NULL,
                       *ib = b->shares ? b->shares->info - b->shares->lo : NULL;
        for (uint32_t i = 0; i < a->n && eq; i++) {
            Gt x = ia ? ia[a->facts[i]].cid - 1 : a->facts[a->cap + i];
            bool found = false;
            for (uint32_t j = 0; j < b->n && !found; j++)
                found = x == (ib ? ib[b->facts[j]].cid - 1 : b->facts[b->cap + j]);
            eq = found;
        }
    }
    return eq;
}

size_t gdl_state_size(const GdlState *s) { return s->n; }

/* The facts of s in canonical order, in m->sorted. */
static void state_sort(GdlMachine *m, const GdlState *s)
{
    /* Callers walk a state fact by fact: sort it once, not once per fact.
     * A stamp names the facts (states that share one hold the same facts),
     * so knowing it is ours costs one comparison, not one per fact. */
    if (m->sorted_stamp != s->stamp || m->sorted.n != s->n) {
        const Gt *facts = own_facts(m, s);
        m->sorted_stamp = 0;
        m->sorted.n = 0;
        for (uint32_t k = 0; k < s->n; k++)
            vec_push(m->sorted, facts[k]);
        m->sorted.n = rank_sort(m, m->sorted.v, m->sorted.n);
        m->sorted_stamp = s->stamp;
    }
}

static const char *state_fact_(GdlMachine *m, const GdlState *s, size_t i)
{
    if (state_check(m, s) != GDL_OK || i >= s->n)
        return NULL;
    state_sort(m, s);
    return gt_text(&m->store, m->sorted.v[i]);
}

/* Parses a sequence of ground terms into out. */
static GdlStatus parse_terms(GdlMachine *m, const char *text, U32Vec *out)
{
    size_t len = strlen(text);
    Source *src = source_new("<text>", base_xstrndup(text, len), len);
    Symtab syms;
    symtab_init(&syms);
    DiagList diags;
    diag_init(&diags, src);
    KifDoc doc = {0};
    GdlStatus st = GDL_OK;
    if (!kif_read(src, &syms, &diags, &doc))
        st = rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "not KIF: %s", diags.items.v[0].msg);
    for (uint32_t i = 0; st == GDL_OK && i < doc.tops.n; i++) {
        Gt t = gt_from_kif(&m->store, &doc, &syms, doc.tops.v[i]);
        if (t == BASE_NONE)
            st = rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "not a ground term: %s", text);
        else
            vec_push(*out, t);
    }
    kif_doc_free(&doc);
    diag_free(&diags);
    symtab_free(&syms);
    source_free(src);
    return st;
}

/* For analysis_api.c (runtime.h). */
GdlStatus rt_state_check(GdlMachine *m, const GdlState *s) { return state_check(m, s); }
const Gt *rt_own_facts(GdlMachine *m, const GdlState *s) { return own_facts(m, s); }
GdlStatus rt_parse_terms(GdlMachine *m, const char *text, U32Vec *out) { return parse_terms(m, text, out); }

static GdlStatus state_parse_(GdlMachine *m, const char *text, GdlState **out)
{
    m->scratch.n = 0;
    GdlStatus st = parse_terms(m, text, &m->scratch);
    *out = st == GDL_OK ? state_make(m, m->scratch.v, m->scratch.n) : NULL;
    return st;
}

/* The text of a move or a fact (both are terms of the store). */
static const char *move_text_(GdlMachine *m, Gt term)
{
    return term < m->store.fn.n ? gt_text(&m->store, term) : NULL;
}

/* A move or a fact (what names it in messages): one ground term. */
static GdlStatus term_parse_(GdlMachine *m, const char *what, const char *text, Gt *term)
{
    m->scratch.n = 0;
    GdlStatus st = parse_terms(m, text, &m->scratch);
    if (st == GDL_OK && m->scratch.n != 1)
        st = rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a %s is one term, not %u: %s", what, m->scratch.n, text);
    if (st == GDL_OK)
        *term = m->scratch.v[0];
    return st;
}

/* ---- queries --------------------------------------------------------- */

/* The text of a state, for messages (malloc-ed, shortened when long). */
static char *state_brief(GdlMachine *m, const GdlState *s)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (uint32_t i = 0; i < s->n; i++) {
        const char *f = state_fact_(m, s, i);
        if (b.len + strlen(f) > 400) {
            strbuf_add(&b, " ...");
            break;
        }
        strbuf_add_word(&b, f);
    }
    if (s->n == 0)
        strbuf_add(&b, "(empty state)");
    return b.s;
}

static GdlStatus initial_state_(GdlMachine *m, GdlState **out)
{
    *out = NULL;
    m->scratch.n = 0;
    GdlStatus st = m->ops->initial(m->engine, &m->scratch);
    if (st == GDL_OK)
        *out = state_make(m, m->scratch.v, m->scratch.n);
    return st;
}

/* The facts of s as the engine takes them, its stamp told for the query
 * (RtControl.stamp); done() forgets it when the query returns. */
static inline const Gt *query_facts(GdlMachine *m, const GdlState *s)
{
    const Gt *f = own_facts(m, s);
    m->ctl.stamp = s->stamp;
    return f;
}

static inline GdlStatus done(GdlMachine *m, GdlStatus st)
{
    m->ctl.stamp = 0;
    m->ctl.made_stamp = 0;
    return st;
}

static GdlStatus is_terminal(GdlMachine *m, const GdlState *s, bool *terminal)
{
    return done(m, m->ops->terminal(m->engine, query_facts(m, s), s->n, terminal));
}

/* Role k's remembered legal moves (see Misuse in gdl.h) are forgotten. */
static void legal_forget(GdlMachine *m, uint32_t k) { m->legal_stamp[k] = 0; }

/* The moves in m->scratch become role k's remembered legal moves in s:
 * each marked with the role's new epoch, so that forgetting them is
 * starting another. */
static void legal_remember(GdlMachine *m, const GdlState *s, uint32_t k)
{
    U32Vec *mark = &m->legal_mark[k];
    uint32_t e = ++m->legal_epoch[k];
    if (e == 0) { /* the epochs went round: no mark may match a new one */
        memset(mark->v, 0, (size_t)mark->n * sizeof *mark->v);
        e = m->legal_epoch[k] = 1;
    }
    for (uint32_t i = 0; i < m->scratch.n; i++) {
        Gt mv = m->scratch.v[i];
        if (mv >= mark->n) {
            uint32_t have = mark->n, need = mv + 1 > m->store.fn.n ? mv + 1 : m->store.fn.n;
            vec_reserve(*mark, need);
            memset(mark->v + have, 0, (size_t)(need - have) * sizeof *mark->v);
            mark->n = need;
        }
        mark->v[mv] = e;
    }
    m->legal_stamp[k] = s->stamp;
}

/* The legal moves of role k in s, sorted canonically, in m->scratch; a
 * non-terminal state without one is a game fault. When remember, they are
 * remembered for checking joint moves. */
static inline __attribute__((always_inline)) GdlStatus legal_moves(GdlMachine *m, const GdlState *s, uint32_t k,
                                                                   bool remember)
{
    m->scratch.n = 0;
    if (remember)
        legal_forget(m, k);
    GdlStatus st = done(m, m->ops->legal(m->engine, query_facts(m, s), s->n, k, &m->scratch));
    if (st != GDL_OK)
        return st;
    if (m->scratch.n == 0) {
        /* GDL: every role has a legal move in every non-terminal state. */
        bool terminal = true;
        if ((st = is_terminal(m, s, &terminal)) != GDL_OK)
            return st;
        if (!terminal) {
            char *brief = state_brief(m, s);
            st = rt_fail(&m->ctl, GDL_GAME_FAULT, "role %s has no legal move in the non-terminal state: %s",
                         gdl_game_role_name(m->game, k), brief);
            free(brief);
            return st;
        }
    }
    if (!m->ops->sorted_moves)
        m->scratch.n = rank_sort(m, m->scratch.v, m->scratch.n);
    if (remember)
        legal_remember(m, s, k);
    return GDL_OK;
}

static GdlStatus legal_moves_(GdlMachine *m, const GdlState *s, unsigned role, const GdlMove **moves, size_t *n)
{
    *n = 0;
    *moves = NULL;
    GdlStatus st = state_check(m, s);
    if (st != GDL_OK)
        return st;
    if (role >= m->roles.n)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no role %u", role);
    if ((st = legal_moves(m, s, role, !m->ops->next_checked)) != GDL_OK)
        return st;
    *moves = m->scratch.v;
    *n = m->scratch.n;
    return GDL_OK;
}

/* Checks that a joint move may be one for s (see Misuse in gdl.h: the
 * state, the ids) and copies it into m->joint, so that it may point into
 * the machine's scratch; whether its moves are legal is joint_legal's. */
static GdlStatus joint_take(GdlMachine *m, const GdlState *s, const GdlMove *joint)
{
    GdlStatus st = state_check(m, s);
    if (st != GDL_OK)
        return st;
    if (!joint)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no joint move (NULL)");
    uint32_t nroles = m->roles.n, nterms = m->store.fn.n;
    vec_reserve(m->joint, nroles + 1);
    m->joint.n = 0;
    for (uint32_t k = 0; k < nroles; k++) {
        if (joint[k] >= nterms)
            return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "the move of role %s is not a move of this machine (id %u)",
                           gdl_game_role_name(m->game, k), joint[k]);
        m->joint.v[k] = joint[k];
    }
    m->joint.n = nroles;
    return GDL_OK;
}

/* Every move of m->joint is among its role's legal moves in s: the ones
 * remembered for s's stamp, else listed now (and remembered). */
static GdlStatus joint_legal(GdlMachine *m, const GdlState *s)
{
    GdlStatus st;
    for (uint32_t k = 0; k < m->roles.n; k++) {
        Gt mv = m->joint.v[k];
        if (m->legal_stamp[k] != s->stamp && (st = legal_moves(m, s, k, true)) != GDL_OK)
            return st;
        if (!(mv < m->legal_mark[k].n && m->legal_mark[k].v[mv] == m->legal_epoch[k]))
            return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "%s is not a legal move of role %s in this state",
                           gt_text(&m->store, mv), gdl_game_role_name(m->game, k));
    }
    return GDL_OK;
}

/* The next state of s after m->joint (checked), into *out. */
static GdlStatus next_into(GdlMachine *m, const GdlState *s, GdlState **out)
{
    m->scratch.n = 0;
    uint64_t stamp = m->ctl.made_stamp = fresh_stamp(m); /* told the engine (RtControl.made_stamp) */
    GdlStatus st = done(m, m->ops->next(m->engine, query_facts(m, s), s->n, m->joint.v, &m->scratch));
    if (st == GDL_OK)
        state_set_stamped(m, out, m->scratch.v, m->scratch.n, stamp);
    return st;
}

/* The next state of s after m->joint, its moves checked: by the engine
 * while it plays them when it can (EngineOps.next_checked), else first.
 * keep: *out is a state the caller writes again and again
 * (gdl_state_next_into): when it must grow, it grows to hold any state the
 * engine writes itself, so that the next ones are written straight into it
 * (one with room enough for this one is written in place). */
static GdlStatus next_checked_into(GdlMachine *m, const GdlState *s, GdlState **out, bool keep)
{
    EngineStatus st = RT_UNSHARED;
    if (m->shares) { /* the engine writes the facts (EngineOps.next_facts) */
        uint32_t k = 0;
        uint64_t stamp = m->ctl.made_stamp = fresh_stamp(m);
        GdlState *t = *out;
        if (t && t != s && t->cap >= m->shares_max) { /* into the caller's state */
            st = m->ops->next_facts(m->engine, query_facts(m, s), s->n, m->joint.v, t->facts, &k);
            done(m, GDL_OK);
        } else { /* into the scratch, then a state made or grown (*out may be s) */
            vec_reserve(m->scratch, m->shares_max + 1);
            st = m->ops->next_facts(m->engine, query_facts(m, s), s->n, m->joint.v, m->scratch.v, &k);
            done(m, GDL_OK);
            if (st == GDL_OK) {
                t = state_room(m, out, keep && !(t && t->cap >= k) ? m->shares_max : k);
                gt_tuple_copy(t->facts, m->scratch.v, k);
            }
        }
        if (st == GDL_OK)
            state_finish_as(m, out, t, k, m->shares, 0, stamp);
    }
    if (st == RT_UNSHARED && m->ops->next_checked) {
        m->scratch.n = 0;
        uint64_t stamp = m->ctl.made_stamp = fresh_stamp(m);
        st = m->ops->next_checked(m->engine, query_facts(m, s), s->n, m->joint.v, &m->scratch);
        done(m, GDL_OK);
        if (st == GDL_OK)
            state_set_stamped(m, out, m->scratch.v, m->scratch.n, stamp);
    }
    if (st != RT_UNSHARED && st != RT_ILLEGAL)
        return (GdlStatus)st;
    /* no check by the engine, or illegal: the moves listed say which and
     * why (a role without any in a state that is not terminal is the
     * game's fault) */
    GdlStatus g = joint_legal(m, s);
    return g == GDL_OK ? next_into(m, s, out) : g;
}

static GdlStatus next_state_(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out)
{
    *out = NULL;
    GdlStatus st = joint_take(m, s, joint);
    return st == GDL_OK ? next_checked_into(m, s, out, false) : st;
}

static GdlStatus next_state_into_(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out)
{
    GdlStatus st = joint_take(m, s, joint);
    return st == GDL_OK ? next_checked_into(m, s, out, true) : st;
}

static GdlStatus is_terminal_(GdlMachine *m, const GdlState *s, bool *terminal)
{
    GdlStatus st = state_check(m, s);
    return st == GDL_OK ? is_terminal(m, s, terminal) : st;
}

/* The goal values of every role, or of role `only` (others untouched) when
 * it is not BASE_NONE, with the GDL checks. */
static GdlStatus goals_of(GdlMachine *m, const GdlState *s, int *values, uint32_t only)
{
    uint32_t nroles = m->roles.n;
    m->scratch.n = 0;
    GdlStatus st = done(m, m->ops->goals(m->engine, query_facts(m, s), s->n, &m->scratch));
    if (st != GDL_OK)
        return st;
    uint32_t count[nroles + 1];
    memset(count, 0, sizeof count);
    for (uint32_t k = 0; k < nroles; k++)
        if (only == BASE_NONE || k == only)
            values[k] = GDL_NO_GOAL;
    for (uint32_t i = 0; i + 1 < m->scratch.n; i += 2) {
        uint32_t k = m->scratch.v[i];
        if (only != BASE_NONE && k != only)
            continue;
        const char *text = gt_text(&m->store, m->scratch.v[i + 1]);
        int v;
        if (!base_goal_value(text, &v))
            return rt_fail(&m->ctl, GDL_GAME_FAULT, "the goal value '%s' of role %s is not a number from 0 to 100",
                           text, gdl_game_role_name(m->game, k));
        if (count[k]++ == 0 || v != values[k])
            values[k] = v;
    }
    bool terminal = false;
    for (uint32_t k = 0; k < nroles; k++) {
        if (count[k] == 1 || (only != BASE_NONE && k != only))
            continue;
        /* Several facts may still name one value; count distinct values
         * (each was read above, so base_goal_value succeeds). */
        uint32_t distinct = 0;
        int seen[count[k] + 1];
        for (uint32_t i = 0; i + 1 < m->scratch.n; i += 2) {
            if (m->scratch.v[i] != k)
                continue;
            int v = 0;
            base_goal_value(gt_text(&m->store, m->scratch.v[i + 1]), &v);
            bool dup = false;
            for (uint32_t j = 0; j < distinct; j++)
                dup |= seen[j] == v;
            if (!dup)
                seen[distinct++] = v;
        }
        if (distinct == 1)
            continue;
        if ((st = is_terminal(m, s, &terminal)) != GDL_OK)
            return st;
        if (!terminal && distinct == 0)
            continue;
        char *brief = state_brief(m, s);
        st = rt_fail(&m->ctl, GDL_GAME_FAULT, "role %s has %s goal value%s in the %sstate: %s",
                     gdl_game_role_name(m->game, k), distinct == 0 ? "no" : "several", distinct == 0 ? "" : "s",
                     terminal ? "terminal " : "", brief);
        free(brief);
        return st;
    }
    return GDL_OK;
}

static GdlStatus goals_(GdlMachine *m, const GdlState *s, int *values)
{
    GdlStatus st = state_check(m, s);
    return st == GDL_OK ? goals_of(m, s, values, BASE_NONE) : st;
}

/* For api_machine.c and api_bytes.c (api_shared.h). */
GdlStatus rt_legal_moves(GdlMachine *m, const GdlState *s, uint32_t k, bool remember)
{
    return legal_moves(m, s, k, remember);
}
GdlStatus rt_next_into(GdlMachine *m, const GdlState *s, GdlState **out) { return next_into(m, s, out); }
GdlStatus rt_goals_of(GdlMachine *m, const GdlState *s, int *values, uint32_t only)
{
    return goals_of(m, s, values, only);
}
void rt_state_sort(GdlMachine *m, const GdlState *s) { state_sort(m, s); }

/* ---- random moves and depth charges (GGP-Base's StateMachine; the rest
 * of it is api_machine.c's) --------------------------------------------- */

/* Draws role k's move in s into m->joint (see gdl_state_random_move). */
static GdlStatus draw_move(GdlMachine *m, const GdlState *s, uint32_t k, GdlRng *rng, bool remember)
{
    GdlStatus st = legal_moves(m, s, k, remember);
    if (st != GDL_OK)
        return st;
    if (m->scratch.n == 0)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no move to draw: the state is terminal");
    vec_push(m->joint, m->scratch.v[gdl_rng_below(rng, m->scratch.n)]);
    return GDL_OK;
}

static GdlStatus random_move_(GdlMachine *m, const GdlState *s, unsigned role, GdlRng *rng, GdlMove *move)
{
    GdlStatus st = state_check(m, s);
    if (st != GDL_OK)
        return st;
    if (role >= m->roles.n)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no role %u", role);
    m->joint.n = 0;
    if ((st = draw_move(m, s, role, rng, !m->ops->next_checked)) == GDL_OK)
        *move = m->joint.v[0];
    return st;
}

static GdlStatus random_joint_move_(GdlMachine *m, const GdlState *s, GdlRng *rng, GdlMove *joint)
{
    GdlStatus st = state_check(m, s);
    m->joint.n = 0;
    for (uint32_t k = 0; st == GDL_OK && k < m->roles.n; k++)
        st = draw_move(m, s, k, rng, !m->ops->next_checked);
    for (uint32_t k = 0; st == GDL_OK && k < m->roles.n; k++)
        joint[k] = m->joint.v[k];
    return st;
}

/* A step of the depth charge: the next state of m->charge[a] after
 * m->joint (drawn from its legal moves) into m->charge[1 - a], its facts
 * alone (state_set_bare): written there by the engine when it can
 * (EngineOps.next_facts), else copied from its answer. */
static GdlStatus charge_step(GdlMachine *m, int a)
{
    const GdlState *s = m->charge[a];
    uint64_t stamp = m->ctl.made_stamp = fresh_stamp(m);
    EngineStatus st = RT_UNSHARED;
    if (m->shares) {
        GdlState *t = m->charge[1 - a];
        if (!t || t->cap < m->shares_max)
            t = state_room(m, &m->charge[1 - a], m->shares_max);
        uint32_t k = 0;
        st = m->ops->next_facts(m->engine, query_facts(m, s), s->n, m->joint.v, t->facts, &k);
        if (st == GDL_OK)
            state_finish_as(m, &m->charge[1 - a], t, k, NULL, 0, stamp);
    }
    if (st == RT_UNSHARED || st == RT_ILLEGAL) { /* (the moves are legal: drawn from the legal ones) */
        m->scratch.n = 0;
        m->ctl.made_stamp = stamp;
        st = m->ops->next(m->engine, query_facts(m, s), s->n, m->joint.v, &m->scratch);
        if (st == GDL_OK)
            state_set_bare(m, &m->charge[1 - a], m->scratch.v, m->scratch.n, stamp);
    }
    return done(m, (GdlStatus)st);
}

static GdlStatus depth_charge_(GdlMachine *m, const GdlState *s, GdlRng *rng, uint64_t max_depth, int *goals,
                           uint64_t *depth)
{
    *depth = 0;
    GdlStatus st = state_check(m, s);
    if (st != GDL_OK)
        return st;
    /* Two states of the machine's own, overwritten in turn: no allocation
     * per step once they have grown, and neither canonical ids nor hashes
     * (state_set_bare). The first holds s's facts, so it takes s's stamp. */
    int a = 0;
    state_set_bare(m, &m->charge[a], own_facts(m, s), s->n, s->stamp);
    for (;;) {
        bool terminal;
        if ((st = is_terminal(m, m->charge[a], &terminal)) != GDL_OK)
            return st;
        if (terminal)
            return goals_of(m, m->charge[a], goals, BASE_NONE);
        if (max_depth && *depth == max_depth)
            return rt_fail(&m->ctl, GDL_LIMIT, "the depth charge did not end within %llu steps",
                           (unsigned long long)max_depth);
        m->joint.n = 0;
        for (uint32_t k = 0; k < m->roles.n; k++)
            if ((st = draw_move(m, m->charge[a], k, rng, false)) != GDL_OK)
                return st;
        if ((st = charge_step(m, a)) != GDL_OK)
            return st;
        a = 1 - a;
        ++*depth;
    }
}

/* ---- the generator --------------------------------------------------- */

void gdl_rng_seed(GdlRng *r, uint64_t seed) { r->state = seed; }

uint64_t gdl_rng_next(GdlRng *r) { return rt_rng_next(r); }

uint64_t gdl_rng_below(GdlRng *r, uint64_t n) { return rt_rng_below(r, n); }

/* ---- the public calls, each under an out-of-memory handler ------------- */

GdlStatus gdl_state_initial(GdlMachine *m, GdlState **out)
{
    GUARDED(m, initial_state_(m, out));
}

GdlStatus gdl_state_legal(GdlMachine *m, const GdlState *s, unsigned role, const GdlMove **moves, size_t *n)
{
    GUARDED(m, legal_moves_(m, s, role, moves, n));
}

GdlStatus gdl_state_next(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out)
{
    GUARDED(m, next_state_(m, s, joint, out));
}

GdlStatus gdl_state_is_terminal(GdlMachine *m, const GdlState *s, bool *terminal)
{
    GUARDED(m, is_terminal_(m, s, terminal));
}

GdlStatus gdl_state_goals(GdlMachine *m, const GdlState *s, int *values)
{
    GUARDED(m, goals_(m, s, values));
}

GdlStatus gdl_state_parse(GdlMachine *m, const char *text, GdlState **out)
{
    GUARDED(m, state_parse_(m, text, out));
}

GdlStatus gdl_move_parse(GdlMachine *m, const char *text, GdlMove *move)
{
    GUARDED(m, term_parse_(m, "move", text, move));
}

GdlStatus gdl_fact_parse(GdlMachine *m, const char *text, GdlFact *fact)
{
    GUARDED(m, term_parse_(m, "fact", text, fact));
}

const char *gdl_state_fact(GdlMachine *m, const GdlState *s, size_t i)
{
    GUARDED_AS(m, const char *, NULL, state_fact_(m, s, i));
}

static GdlStatus state_facts_(GdlMachine *m, const GdlState *s, const GdlFact **facts, size_t *n)
{
    GdlStatus st = state_check(m, s);
    if (st != GDL_OK)
        return st;
    state_sort(m, s);
    *facts = m->sorted.v;
    *n = m->sorted.n;
    return GDL_OK;
}

GdlStatus gdl_state_facts(GdlMachine *m, const GdlState *s, const GdlFact **facts, size_t *n)
{
    *facts = NULL;
    *n = 0;
    GUARDED(m, state_facts_(m, s, facts, n));
}

const char *gdl_move_text(GdlMachine *m, GdlMove move)
{
    GUARDED_AS(m, const char *, NULL, move_text_(m, move));
}

const char *gdl_fact_text(GdlMachine *m, GdlFact fact)
{
    GUARDED_AS(m, const char *, NULL, move_text_(m, fact));
}

GdlStatus gdl_state_next_into(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out)
{
    GUARDED(m, next_state_into_(m, s, joint, out));
}

uint64_t gdl_state_hash(const GdlState *s) { return s ? state_hash(s) : 0; }

GdlStatus gdl_state_random_move(GdlMachine *m, const GdlState *s, unsigned role, GdlRng *rng, GdlMove *move)
{
    GUARDED(m, random_move_(m, s, role, rng, move));
}

GdlStatus gdl_state_random_joint_move(GdlMachine *m, const GdlState *s, GdlRng *rng, GdlMove *joint)
{
    GUARDED(m, random_joint_move_(m, s, rng, joint));
}

GdlStatus gdl_state_depth_charge(GdlMachine *m, const GdlState *s, GdlRng *rng, uint64_t max_depth, int *goals,
                           uint64_t *depth)
{
    GUARDED(m, depth_charge_(m, s, rng, max_depth, goals, depth));
}
