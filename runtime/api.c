/*
 * api.c: the public state-machine API (gdl.h) over the engines.
 *
 * The API keeps what is engine-neutral: games, diagnostics, the term store
 * of each machine, states as sorted arrays of fact ids, canonical order and
 * text, hashing, and the GDL checks on answers (goal values must be numbers
 * from 0 to 100; a terminal state needs one goal per role; a non-terminal
 * one a legal move per role).
 */
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "runtime.h"

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

double gdl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

GdlStatus rt_fail(RtControl *ctl, GdlStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = base_vsprintf(fmt, ap);
    va_end(ap);
    free(ctl->error);
    ctl->error = text;
    return status;
}

bool rt_stop_now(const RtControl *ctl)
{
    return (ctl->flag && *ctl->flag) || (ctl->deadline > 0 && gdl_now() >= ctl->deadline);
}

bool rt_should_stop(RtControl *ctl)
{
    if (ctl->flag && *ctl->flag)
        return true;
    return ctl->deadline > 0 && (++ctl->poll & 255) == 0 && rt_stop_now(ctl);
}

/* ---- out of memory ---------------------------------------------------- */

/* Every public call that allocates runs under an out-of-memory handler
 * (base.h): an allocation that fails anywhere below jumps back here and the
 * call returns GDL_OUT_OF_MEMORY. A machine interrupted in the middle of a
 * query may hold half-built tables, so it is marked and refuses every later
 * query; its memory stays consistent enough to be freed. Nothing here may
 * allocate through base_x*: memory has just run out. */
static const char OOM_TEXT[] = "out of memory: an allocation failed; this machine can only be freed";

static GdlStatus machine_oom(GdlMachine *m, const char *what)
{
    m->oom = true;
    free(m->ctl.error);
    m->ctl.error = NULL;
    (void)what;
    return GDL_OUT_OF_MEMORY;
}

#define GUARDED(m, call)                                                       \
    do {                                                                       \
        if ((m)->oom)                                                          \
            return GDL_OUT_OF_MEMORY;                                          \
        BaseOom oom_;                                                          \
        base_oom_push(&oom_);                                                  \
        if (setjmp(oom_.jb))                                                   \
            return machine_oom((m), oom_.what);                                \
        GdlStatus st_ = (call);                                                \
        base_oom_pop(&oom_);                                                   \
        return st_;                                                            \
    } while (0)

/* The same for calls that return a pointer: NULL when memory ran out. */
#define GUARDED_PTR(m, T, call)                                                \
    do {                                                                       \
        if ((m) && (m)->oom)                                                   \
            return NULL;                                                       \
        BaseOom oom_;                                                          \
        base_oom_push(&oom_);                                                  \
        if (setjmp(oom_.jb)) {                                                 \
            if (m)                                                             \
                machine_oom((m), oom_.what);                                   \
            return NULL;                                                       \
        }                                                                      \
        T r_ = (call);                                                         \
        base_oom_pop(&oom_);                                                   \
        return r_;                                                             \
    } while (0)

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

static GdlStatus finish_load(Front *f, bool ok, GdlGame **game, GdlDiagnostics **diags)
{
    if (diags)
        *diags = diagnostics_from(f);
    if (!ok) {
        front_free(f);
        free(f);
        *game = NULL;
        return GDL_INVALID_GAME;
    }
    *game = (GdlGame *)f; /* a GdlGame is a Front */
    return GDL_OK;
}

/* Loading under an out-of-memory handler: the game being built is freed
 * (g is volatile: it is read after the jump). */
#define LOAD_GUARDED(body)                                                     \
    GdlGame *volatile g = NULL;                                                \
    *game = NULL;                                                              \
    if (diags)                                                                 \
        *diags = NULL;                                                         \
    BaseOom oom_;                                                              \
    base_oom_push(&oom_);                                                      \
    if (setjmp(oom_.jb)) {                                                     \
        if (g) {                                                               \
            front_free(&g->front);                                             \
            free(g);                                                           \
        }                                                                      \
        return GDL_OUT_OF_MEMORY;                                              \
    }                                                                          \
    g = base_xcalloc(1, sizeof *g);                                            \
    GdlStatus st_ = body;                                                      \
    base_oom_pop(&oom_);                                                       \
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
        free(err);
        free(g);
        *game = NULL;
        if (diags)
            *diags = NULL;
        return GDL_IO_ERROR;
    }
    return finish_load(&g->front, ok, game, diags);
}

void gdl_game_free(GdlGame *game)
{
    if (!game)
        return;
    front_free(&game->front);
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

static const EngineOps *const engines[] = {&rt_engine_ref, &rt_engine_jit, &rt_engine_aot, &rt_engine_so};

static GdlStatus machine_new(const GdlGame *game, const char *engine, GdlMachine *volatile *mp, char **err);

GdlStatus gdl_machine_new(const GdlGame *game, const char *engine, GdlMachine **out, char **err)
{
    *out = NULL;
    if (err)
        *err = NULL;
    GdlMachine *volatile m = NULL;
    BaseOom oom_;
    base_oom_push(&oom_);
    if (setjmp(oom_.jb)) {
        /* an engine half made is lost; what the machine holds is freed */
        if (m) {
            m->engine = NULL;
            gdl_machine_free(m);
        }
        return GDL_OUT_OF_MEMORY;
    }
    GdlStatus st = machine_new(game, engine, &m, err);
    base_oom_pop(&oom_);
    if (st == GDL_OK)
        *out = m;
    return st;
}

static GdlStatus machine_new(const GdlGame *game, const char *engine, GdlMachine *volatile *mp, char **err)
{
    if (!engine)
        engine = "jit";
    /* "so:PATH": the name is what comes before the colon */
    const char *colon = strchr(engine, ':');
    size_t nlen = colon ? (size_t)(colon - engine) : strlen(engine);
    const EngineOps *ops = NULL;
    for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
        if (strlen(engines[i]->name) == nlen && strncmp(engines[i]->name, engine, nlen) == 0 &&
            (colon != NULL) == (engines[i] == &rt_engine_so))
            ops = engines[i];
    if (!ops) {
        if (err)
            *err = base_sprintf("no engine named '%s' (engines: ref, jit, aot, so:PATH)", engine);
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
    char *e = NULL;
    m->engine = ops->create(game, colon ? colon + 1 : NULL, &m->store, &m->ctl, &e);
    if (!m->engine) {
        if (err)
            *err = e;
        else
            free(e);
        GdlStatus st = m->ctl.error ? GDL_LIMIT : GDL_LIMIT;
        gdl_machine_free(m);
        *mp = NULL;
        return st;
    }
    return GDL_OK;
}

void gdl_machine_free(GdlMachine *m)
{
    if (!m)
        return;
    if (m->engine)
        m->ops->destroy(m->engine);
    gt_free(&m->store);
    symtab_free(&m->syms);
    vec_free(m->roles);
    vec_free(m->scratch);
    vec_free(m->sorted);
    vec_free(m->sorted_of);
    free(m->ctl.error);
    free(m);
}

const char *gdl_machine_engine(const GdlMachine *m) { return m->ops->name; }
const char *gdl_machine_error(const GdlMachine *m)
{
    return m->oom ? OOM_TEXT : m->ctl.error ? m->ctl.error : "";
}
void gdl_machine_set_deadline(GdlMachine *m, double deadline) { m->ctl.deadline = deadline; }
void gdl_machine_set_cancel_flag(GdlMachine *m, const volatile int *flag) { m->ctl.flag = flag; }

/* ---- states ---------------------------------------------------------- */

/* A state from facts in any order, duplicates allowed. */
static GdlState *state_make(const Gt *facts, uint32_t n)
{
    GdlState *s = base_xmalloc(sizeof *s + (n + 1) * sizeof(Gt));
    gt_tuple_copy(s->facts, facts, n);
    base_sort_u32(s->facts, n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (k == 0 || s->facts[k - 1] != s->facts[i])
            s->facts[k++] = s->facts[i];
    s->n = k;
    return s;
}

GdlState *gdl_state_copy(const GdlState *s)
{
    GdlState *c = base_try_realloc(NULL, sizeof *c + (s->n + 1) * sizeof(Gt));
    if (!c)
        return NULL;
    memcpy(c, s, sizeof *c + s->n * sizeof(Gt));
    return c;
}

void gdl_state_free(GdlState *s) { free(s); }

bool gdl_state_equal(const GdlState *a, const GdlState *b)
{
    return a->n == b->n && gt_tuple_eq(a->facts, b->facts, a->n);
}

uint64_t gdl_state_hash(GdlMachine *m, const GdlState *s)
{
    /* A sum of mixed content hashes: independent of ids and of order. */
    uint64_t h = 0x6a09e667f3bcc908ULL;
    for (uint32_t i = 0; i < s->n; i++)
        h += base_mix64(m->store.hash.v[s->facts[i]] ^ 0x5851f42d4c957f2dULL);
    return base_mix64(h ^ s->n);
}

size_t gdl_state_size(const GdlState *s) { return s->n; }

static const char *state_fact_(GdlMachine *m, const GdlState *s, size_t i)
{
    if (i >= s->n)
        return NULL;
    /* Callers walk a state fact by fact: sort it once, not once per fact. */
    if (!(m->sorted_of.n == s->n && gt_tuple_eq(m->sorted_of.v, s->facts, s->n))) {
        m->sorted_of.n = m->sorted.n = 0;
        for (uint32_t k = 0; k < s->n; k++) {
            vec_push(m->sorted_of, s->facts[k]);
            vec_push(m->sorted, s->facts[k]);
        }
        gt_sort(&m->store, m->sorted.v, m->sorted.n);
    }
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

static GdlStatus state_parse_(GdlMachine *m, const char *text, GdlState **out)
{
    m->scratch.n = 0;
    GdlStatus st = parse_terms(m, text, &m->scratch);
    *out = st == GDL_OK ? state_make(m->scratch.v, m->scratch.n) : NULL;
    return st;
}

static const char *move_text_(GdlMachine *m, GdlMove move)
{
    return move < m->store.fn.n ? gt_text(&m->store, move) : NULL;
}

static GdlStatus move_parse_(GdlMachine *m, const char *text, GdlMove *move)
{
    m->scratch.n = 0;
    GdlStatus st = parse_terms(m, text, &m->scratch);
    if (st == GDL_OK && m->scratch.n != 1)
        st = rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a move is one term, not %u: %s", m->scratch.n, text);
    if (st == GDL_OK)
        *move = m->scratch.v[0];
    return st;
}

/* ---- queries --------------------------------------------------------- */

/* The text of a state, for messages (malloc-ed, shortened when long). */
static char *state_brief(GdlMachine *m, const GdlState *s)
{
    StrBuf b = {0};
    strbuf_add(&b, "");
    for (uint32_t i = 0; i < s->n; i++) {
        const char *f = gdl_state_fact(m, s, i);
        if (b.len + strlen(f) > 400) {
            strbuf_add(&b, " ...");
            break;
        }
        strbuf_add_word(&b, f);
    }
    return b.s;
}

static GdlStatus initial_state_(GdlMachine *m, GdlState **out)
{
    *out = NULL;
    m->scratch.n = 0;
    GdlStatus st = m->ops->initial(m->engine, &m->scratch);
    if (st == GDL_OK)
        *out = state_make(m->scratch.v, m->scratch.n);
    return st;
}

static GdlStatus legal_moves_(GdlMachine *m, const GdlState *s, unsigned role, const GdlMove **moves, size_t *n)
{
    *n = 0;
    *moves = NULL;
    if (role >= m->roles.n)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "no role %u", role);
    m->scratch.n = 0;
    GdlStatus st = m->ops->legal(m->engine, s->facts, s->n, role, &m->scratch);
    if (st != GDL_OK)
        return st;
    if (m->scratch.n == 0) {
        /* GDL: every role has a legal move in every non-terminal state. */
        bool terminal = true;
        if ((st = gdl_is_terminal(m, s, &terminal)) != GDL_OK)
            return st;
        if (!terminal) {
            char *brief = state_brief(m, s);
            st = rt_fail(&m->ctl, GDL_GAME_FAULT, "role %s has no legal move in the non-terminal state: %s",
                         gdl_game_role_name(m->game, role), brief);
            free(brief);
            return st;
        }
    }
    gt_sort(&m->store, m->scratch.v, m->scratch.n);
    *moves = m->scratch.v;
    *n = m->scratch.n;
    return GDL_OK;
}

static GdlStatus next_state_(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out)
{
    *out = NULL;
    for (uint32_t k = 0; k < m->roles.n; k++)
        if (joint[k] >= m->store.fn.n)
            return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "the move of role %u is not a term of this machine", k);
    m->scratch.n = 0;
    GdlStatus st = m->ops->next(m->engine, s->facts, s->n, joint, &m->scratch);
    if (st == GDL_OK)
        *out = state_make(m->scratch.v, m->scratch.n);
    return st;
}

static GdlStatus is_terminal_(GdlMachine *m, const GdlState *s, bool *terminal)
{
    return m->ops->terminal(m->engine, s->facts, s->n, terminal);
}

static GdlStatus goals_(GdlMachine *m, const GdlState *s, int *values)
{
    uint32_t nroles = m->roles.n;
    m->scratch.n = 0;
    GdlStatus st = m->ops->goals(m->engine, s->facts, s->n, &m->scratch);
    if (st != GDL_OK)
        return st;
    uint32_t count[nroles + 1];
    memset(count, 0, sizeof count);
    for (uint32_t k = 0; k < nroles; k++)
        values[k] = GDL_NO_GOAL;
    for (uint32_t i = 0; i + 1 < m->scratch.n; i += 2) {
        uint32_t k = m->scratch.v[i];
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
        if (count[k] == 1)
            continue;
        /* Several facts may still name one value; count distinct values. */
        uint32_t distinct = 0;
        long seen[count[k] + 1];
        for (uint32_t i = 0; i + 1 < m->scratch.n; i += 2) {
            if (m->scratch.v[i] != k)
                continue;
            long v = strtol(gt_text(&m->store, m->scratch.v[i + 1]), NULL, 10);
            bool dup = false;
            for (uint32_t j = 0; j < distinct; j++)
                dup |= seen[j] == v;
            if (!dup)
                seen[distinct++] = v;
        }
        if (distinct == 1)
            continue;
        if ((st = gdl_is_terminal(m, s, &terminal)) != GDL_OK)
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

/* ---- the generator --------------------------------------------------- */

void gdl_rng_seed(GdlRng *r, uint64_t seed) { r->state = seed; }

uint64_t gdl_rng_next(GdlRng *r)
{
    /* SplitMix64 (Steele, Lea and Flood, 2014). */
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t gdl_rng_below(GdlRng *r, uint64_t n)
{
    /* Reject the top values that would make `x % n` uneven. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t x = gdl_rng_next(r);
        if (x < limit)
            return x % n;
    }
}

/* ---- the public calls, each under an out-of-memory handler ------------- */

GdlStatus gdl_initial_state(GdlMachine *m, GdlState **out) { GUARDED(m, initial_state_(m, out)); }
GdlStatus gdl_legal_moves(GdlMachine *m, const GdlState *s, unsigned role, const GdlMove **moves, size_t *n) { GUARDED(m, legal_moves_(m, s, role, moves, n)); }
GdlStatus gdl_next_state(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out) { GUARDED(m, next_state_(m, s, joint, out)); }
GdlStatus gdl_is_terminal(GdlMachine *m, const GdlState *s, bool *terminal) { GUARDED(m, is_terminal_(m, s, terminal)); }
GdlStatus gdl_goals(GdlMachine *m, const GdlState *s, int *values) { GUARDED(m, goals_(m, s, values)); }
GdlStatus gdl_state_parse(GdlMachine *m, const char *text, GdlState **out) { GUARDED(m, state_parse_(m, text, out)); }
GdlStatus gdl_move_parse(GdlMachine *m, const char *text, GdlMove *move) { GUARDED(m, move_parse_(m, text, move)); }
const char *gdl_state_fact(GdlMachine *m, const GdlState *s, size_t i) { GUARDED_PTR(m, const char *, state_fact_(m, s, i)); }
const char *gdl_move_text(GdlMachine *m, GdlMove move) { GUARDED_PTR(m, const char *, move_text_(m, move)); }
