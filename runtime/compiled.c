/*
 * compiled.c: the compiled engines "jit", "aot" and "so:PATH".
 *
 * All three run the C the backend emits for the game (backend/cg.c); they
 * differ in who compiles it and when:
 *   jit      libtcc, in memory, when the machine is made (milliseconds);
 *   aot      the system C compiler at -O2, into a cache folder keyed by the
 *            game text, gdlc's version, the compiler and its flags; a later
 *            machine of the same game loads the cached object;
 *   so:PATH  a shared object made earlier by `gdlc compile`.
 * A loaded module is checked before use: its ABI number, the gdlc version
 * that emitted it and the hash of the game text must all match.
 *
 * The module keeps its own copy of the current state and move (as fact
 * sets); this layer sends them only when they change, so the legal, goal and
 * terminal queries of one state share their tables.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../backend/abi.h"
#include "../backend/cg.h"
#include "compiled.h"
#include "engine_host.h"
#include "jit.h"
#include "runtime.h"

enum { COMPILED_MEMORY_MIB = 2048 /* most memory the tables of one machine may take */ };

typedef struct Compiled {
    const GdlcModule *mod;
    void *ev;
    RtJit *jit;
    void *dl;
    GtStore *store;
    RtControl *ctl;
    GdlcTermView tv;
    const Ir *ir;
    U32Vec roles;         /* role terms */
    U32Vec state;         /* the state the module holds */
    bool have_state;
    U32Vec joint;         /* the move the module holds */
    bool have_joint;
    RtStack segs;         /* the stack segments its recursion hops to */
} Compiled;

static void *h_alloc(usize n) { return malloc(n ? n : 1); }
static void h_release(void *p) { free(p); }
static u32 h_intern(void *store, u32 fn, u32 arity, const u32 *args) { return gt_intern(store, fn, arity, args); }
static u32 h_sym(void *store, const char *name)
{
    GtStore *s = store;
    return symtab_intern(s->syms, name, strlen(name));
}
/* The module's ctl is the Compiled itself: the control and the segments. */
static int h_stop(void *c) { return rt_should_stop(((Compiled *)c)->ctl); }
_Static_assert(sizeof(usize) == sizeof(uintptr_t), "usize holds an address");
static int h_hop(void *c, usize *floor, void (*fn)(void *), void *arg)
{
    /* the module reads *floor while fn runs: pass it itself */
    return rt_stack_hop(&((Compiled *)c)->segs, (uintptr_t *)floor, fn, arg);
}

static const GdlcHost host = {GDLC_ABI, h_alloc, h_release, h_intern, h_sym, h_stop, h_hop};

/* ---- modules ------------------------------------------------------------- */

/* Checks a module against this gdlc and this game. */
static bool module_check(const GdlcModule *m, const char *what, const Source *src, char **err)
{
    char hash[17];
    cg_game_hash(src, hash);
    if (!m) {
        *err = base_sprintf("%s: not a gdlc engine (no symbol gdlc_module)", what);
        return false;
    }
    if (m->abi != GDLC_ABI || strcmp(m->version, GDL_VERSION) != 0) {
        *err = base_sprintf("%s: made by another gdlc (ABI %u, version %.32s); this is gdlc %s (ABI %u): compile the game again",
                            what, m->abi, m->abi == GDLC_ABI ? m->version : "?", GDL_VERSION, GDLC_ABI);
        return false;
    }
    if (strcmp(m->game_hash, hash) != 0) {
        *err = base_sprintf("%s: compiled from another game text (hash %.16s; %s has hash %s)", what, m->game_hash,
                            src->name, hash);
        return false;
    }
    return true;
}

/* Relations that depend on neither the state nor the move are evaluated
 * once, here, by ref, and compiled as facts: board geometry, arithmetic,
 * successor chains become indexed sets instead of calls. A relation too big
 * (or slow) to enumerate stays a goal-directed call. */
enum { PRE_MAX_FACTS = 1u << 20 };
static const double PRE_SECONDS = 0.5;

static char *emit_here(const GdlGame *game, const char *c_name, bool no_lines, size_t *len, char **err);

/* rt_emit's arguments and result, across a stack segment. */
typedef struct EmitCall {
    const GdlGame *game;
    const char *c_name;
    bool no_lines;
    size_t *len;
    char **err;
    char *code;
} EmitCall;

static void emit_call(void *p)
{
    EmitCall *e = p;
    e->code = emit_here(e->game, e->c_name, e->no_lines, e->len, e->err);
}

/* The code generator recurses once per literal of a rule body: it runs on
 * a stack segment, whatever the caller's thread (engine_host.h). */
char *rt_emit(const GdlGame *game, const char *c_name, bool no_lines, size_t *len, char **err)
{
    EmitCall e = {game, c_name, no_lines, len, err, NULL};
    rt_stack_run(emit_call, &e);
    return e.code;
}

static char *emit_here(const GdlGame *game, const char *c_name, bool no_lines, size_t *len, char **err)
{
    const Ir *ir = &game->front.ir;
    Symtab syms;
    symtab_init(&syms);
    const Symtab *gs = &game->front.syms;
    for (uint32_t i = 0; i < gs->n; i++)
        symtab_intern(&syms, gs->str[i], gs->len[i]);
    GtStore store;
    gt_init(&store, &syms);
    U32Vec *pre = base_xcalloc(ir->rels.n + 1, sizeof *pre);
    const U32Vec **pre_of = base_xcalloc(ir->rels.n + 1, sizeof *pre_of);
    double end = gdl_now() + PRE_SECONDS;
    uint32_t budget = PRE_MAX_FACTS;
    for (uint32_t i = 0; i < ir->rels.n && budget > 0; i++) {
        const IrRel *r = &ir->rels.v[i];
        if (r->kind != IR_REL_USER || r->dep_true || r->dep_does || !r->nrules)
            continue;
        bool facts = true;
        for (uint32_t k = 0; k < r->nrules && facts; k++)
            facts = ir->rules.v[ir->rule_index.v[r->rules + k]].nlits == 0;
        if (facts)
            continue;
        if (rt_ref_relation(game, &store, i, budget, end, &pre[i]) == GDL_OK) {
            pre_of[i] = &pre[i];
            uint32_t n = r->arity ? pre[i].n / r->arity : pre[i].n;
            budget = n < budget ? budget - n : 0;
        } else {
            vec_free(pre[i]);
        }
    }
    CgOptions opt = {.c_name = c_name, .no_lines = no_lines, .pre = pre_of, .store = &store};
    char *code = cg_emit(&game->front, &opt, len, err);
    for (uint32_t i = 0; i < ir->rels.n; i++)
        vec_free(pre[i]);
    free(pre);
    free(pre_of);
    gt_free(&store);
    symtab_free(&syms);
    return code;
}

/* Writes text to a new file path; false with *err. */
static bool write_file(const char *path, const char *text, size_t len, char **err)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        *err = base_sprintf("cannot write %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return false;
    }
    return true;
}

const char *rt_cc(void)
{
    const char *cc = getenv("GDLC_CC");
    if (!cc || !*cc)
        cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

const char *const rt_cc_flags = "-O2 -shared -fPIC -w";

/* Runs argv, its output into a file we read back; true when it exits 0.
 * *out (malloc-ed) gets what it printed. */
static bool run(char *const argv[], char **out)
{
    const char *dir = getenv("TMPDIR");
    char *path = base_sprintf("%s/gdlc-cc-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    *out = NULL;
    if (fd < 0) {
        *out = base_sprintf("cannot make a temporary file %s: %s", path, strerror(errno));
        free(path);
        return false;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        execvp(argv[0], argv);
        dprintf(fd, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    bool ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    close(fd);
    size_t len = 0;
    char *e = NULL;
    bool too_large = false;
    *out = base_read_file(path, &len, &e, &too_large);
    free(e);
    unlink(path);
    free(path);
    if (!*out)
        *out = base_xstrdup("");
    return ok;
}

static bool compile_code(const char *code, size_t len, const char *so_path, char **err);

bool rt_compile_so(const GdlGame *game, const char *so_path, char **err)
{
    size_t len = 0;
    char *code = rt_emit(game, NULL, false, &len, err);
    if (!code)
        return false;
    bool ok = compile_code(code, len, so_path, err);
    free(code);
    return ok;
}

/* Writes the C next to so_path, compiles it there, renames the object into
 * place (so a reader never sees half an object). */
static bool compile_code(const char *code, size_t len, const char *so_path, char **err)
{
    char *c_path = base_sprintf("%s.%ld.c", so_path, (long)getpid());
    char *tmp_so = base_sprintf("%s.%ld.tmp", so_path, (long)getpid());
    bool ok = write_file(c_path, code, len, err);
    if (ok) {
        char *flags = base_xstrdup(rt_cc_flags);
        char *argv[16];
        int n = 0;
        argv[n++] = (char *)rt_cc();
        for (char *t = strtok(flags, " "); t && n < 12; t = strtok(NULL, " "))
            argv[n++] = t;
        argv[n++] = "-o";
        argv[n++] = tmp_so;
        argv[n++] = c_path;
        argv[n] = NULL;
        char *out = NULL;
        ok = run(argv, &out);
        if (!ok)
            *err = base_sprintf("%s failed on the generated code (a gdlc bug; the code is kept in %s):\n%s", rt_cc(),
                                c_path, out);
        else if (rename(tmp_so, so_path) != 0) {
            *err = base_sprintf("cannot write %s: %s", so_path, strerror(errno));
            ok = false;
        }
        free(out);
        free(flags);
        if (ok)
            unlink(c_path);
        unlink(tmp_so);
    }
    free(c_path);
    free(tmp_so);
    return ok;
}

/* ---- the engine ------------------------------------------------------------ */

static void compiled_destroy(void *e)
{
    Compiled *c = e;
    if (!c)
        return;
    if (c->ev)
        c->mod->destroy(c->ev);
    if (c->jit)
        rt_jit_free(c->jit);
    if (c->dl)
        dlclose(c->dl);
    vec_free(c->roles);
    vec_free(c->state);
    vec_free(c->joint);
    rt_stack_free(&c->segs);
    free(c);
}

static Compiled *compiled_start(const GdlGame *game, GtStore *store, RtControl *ctl)
{
    Compiled *c = base_xcalloc(1, sizeof *c);
    c->store = store;
    c->ctl = ctl;
    c->ir = &game->front.ir;
    rt_stack_init(&c->segs);
    c->tv = (GdlcTermView){&store->fn.v, &store->arity.v, &store->args_at.v, &store->args.v};
    for (uint32_t k = 0; k < c->ir->roles.n; k++)
        vec_push(c->roles, gt_intern(store, c->ir->roles.v[k], 0, NULL));
    return c;
}

static void *compiled_finish(Compiled *c, const char *what, const GdlGame *game, char **err)
{
    if (!module_check(c->mod, what, game->front.src, err)) {
        compiled_destroy(c);
        return NULL;
    }
    c->ev = c->mod->create(&host, c->store, c, &c->tv, (usize)COMPILED_MEMORY_MIB << 20);
    if (!c->ev) {
        *err = base_sprintf("out of memory while loading the compiled engine");
        compiled_destroy(c);
        return NULL;
    }
    return c;
}

/* rt_jit_compile's arguments and result, across a stack segment. */
typedef struct JitCall {
    const char *name;
    const char *code;
    const RtJitSymbol *imports;
    size_t nimp;
    char **err;
    RtJit *jit;
} JitCall;

static void jit_call(void *p)
{
    JitCall *j = p;
    j->jit = rt_jit_compile(j->name, j->code, j->imports, j->nimp, j->err);
}

static void *jit_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    (void)arg;
    size_t len = 0;
    char *code = rt_emit(game, NULL, false, &len, err);
    if (!code)
        return NULL;
    /* The runtime's functions are the host's (engine_host.c), compiled at
     * -O2; libtcc compiles the game's rules. */
    size_t nimp = rt_engine_nsymbols + 3;
    RtJitSymbol *imports = base_xmalloc(nimp * sizeof *imports);
    imports[0] = (RtJitSymbol){"memset", (const void *)memset};
    imports[1] = (RtJitSymbol){"memcpy", (const void *)memcpy};
    imports[2] = (RtJitSymbol){"memmove", (const void *)memmove};
    for (size_t i = 0; i < rt_engine_nsymbols; i++)
        imports[3 + i] = rt_engine_symbols[i];
    char *jcode = base_sprintf("#define GDLC_RUNTIME_EXTERN 1\n%s", code);
    free(code);
    Compiled *c = compiled_start(game, store, ctl);
    /* libtcc recurses once per nested block: a rule's loops nest once per
     * literal. On a stack segment, as the code generator. */
    JitCall jc = {game->front.src->name, jcode, imports, nimp, err, NULL};
    rt_stack_run(jit_call, &jc);
    c->jit = jc.jit;
    free(jcode);
    free(imports);
    if (!c->jit) {
        compiled_destroy(c);
        return NULL;
    }
    c->mod = rt_jit_symbol(c->jit, "gdlc_module");
    return compiled_finish(c, "the JIT-compiled engine", game, err);
}

static void *so_load(const GdlGame *game, const char *path, GtStore *store, RtControl *ctl, char **err)
{
    char *p = strchr(path, '/') ? base_xstrdup(path) : base_sprintf("./%s", path);
    Compiled *c = compiled_start(game, store, ctl);
    c->dl = dlopen(p, RTLD_NOW | RTLD_LOCAL);
    free(p);
    if (!c->dl) {
        *err = base_sprintf("cannot load %s: %s", path, dlerror());
        compiled_destroy(c);
        return NULL;
    }
    c->mod = dlsym(c->dl, "gdlc_module");
    return compiled_finish(c, path, game, err);
}

static void *so_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    if (!arg || !*arg) {
        *err = base_xstrdup("engine so: needs a path: so:GAME.so");
        return NULL;
    }
    return so_load(game, arg, store, ctl, err);
}

/* The folder of the aot cache, made if missing; NULL with *err. */
static char *cache_dir(char **err)
{
    const char *x = getenv("XDG_CACHE_HOME");
    char *base;
    if (x && *x == '/')
        base = base_xstrdup(x);
    else {
        const char *home = getenv("HOME");
        if (!home || !*home) {
            *err = base_xstrdup("engine aot: neither XDG_CACHE_HOME nor HOME is set, so there is no cache folder");
            return NULL;
        }
        base = base_sprintf("%s/.cache", home);
    }
    mkdir(base, 0777);
    char *dir = base_sprintf("%s/gdlc", base);
    free(base);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        *err = base_sprintf("engine aot: cannot make the cache folder %s: %s", dir, strerror(errno));
        free(dir);
        return NULL;
    }
    return dir;
}

/* The object of a generated C text: its name hashes the C itself (so any
 * change in gdlc's code generation or runtime makes a new object), the
 * compiler's --version line and the flags. */
static char *aot_path_of(const GdlGame *game, const char *code, size_t len, char **err)
{
    char *dir = cache_dir(err);
    if (!dir)
        return NULL;
    char *argv[] = {(char *)rt_cc(), "--version", NULL};
    char *out = NULL;
    bool ok = run(argv, &out);
    if (!ok) {
        *err = base_sprintf("engine aot: cannot run the C compiler '%s' (set GDLC_CC or CC): %s", rt_cc(), out);
        free(out);
        free(dir);
        return NULL;
    }
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = 0;
    char hash[17];
    cg_game_hash(game->front.src, hash);
    char *key = base_sprintf("%s|%s|%s|%u", rt_cc(), out, rt_cc_flags, GDLC_ABI);
    uint64_t kh = base_hash_bytes(code, len, base_hash_bytes(key, strlen(key), 0));
    char *path = base_sprintf("%s/%s-%016llx.so", dir, hash, (unsigned long long)kh);
    free(key);
    free(out);
    free(dir);
    return path;
}

static void *aot_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    (void)arg;
    size_t len = 0;
    char *code = rt_emit(game, NULL, false, &len, err);
    if (!code)
        return NULL;
    char *path = aot_path_of(game, code, len, err);
    struct stat st;
    bool ok = path && (stat(path, &st) == 0 || compile_code(code, len, path, err));
    free(code);
    if (!ok) {
        free(path);
        return NULL;
    }
    void *c = so_load(game, path, store, ctl, err);
    free(path);
    return c;
}

/* ---- queries ------------------------------------------------------------------ */

static GdlStatus status_of(Compiled *c, u32 st)
{
    switch (st) {
    case ST_OK:
        return GDL_OK;
    case ST_CANCELLED:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_CANCELLED, "cancelled");
    case ST_DEPTH:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_LIMIT, "a term would be nested deeper than %d levels", GT_MAX_DEPTH);
    case ST_MEMORY:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_LIMIT, "the compiled engine's tables would exceed %d MiB", COMPILED_MEMORY_MIB);
    case ST_STACK:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_LIMIT, "the derivation nests deeper than the %u MiB of stack a query may use "
                       "(GDLC_STACK_MIB)", rt_stack_mib(&c->segs));
    default:
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_GAME_FAULT, "a negated relation depends on itself through the query being evaluated");
    }
}

/* Is v[0..n) what the module holds already? If not, records it. */
static bool held(U32Vec *cache, bool *have, const Gt *v, uint32_t n)
{
    if (*have && cache->n == n && gt_tuple_eq(cache->v, v, n))
        return true;
    cache->n = 0;
    vec_reserve(*cache, n + 1);
    gt_tuple_copy(cache->v, v, n);
    cache->n = n;
    *have = true;
    return false;
}

static GdlStatus use_state(Compiled *c, const Gt *state, uint32_t n)
{
    if (held(&c->state, &c->have_state, state, n))
        return GDL_OK;
    c->have_joint = false;
    return status_of(c, c->mod->set_state(c->ev, state, n));
}

static GdlStatus query(Compiled *c, u32 which, u32 role, const u32 **ans, u32 *n)
{
    /* the clock once per query; the generated code polls it every few
     * thousand steps */
    if (rt_stop_now(c->ctl)) {
        c->have_state = c->have_joint = false;
        return rt_fail(c->ctl, GDL_CANCELLED, "cancelled");
    }
    return status_of(c, c->mod->query(c->ev, which, role, ans, n));
}

static GdlStatus compiled_initial(void *e, U32Vec *facts)
{
    Compiled *c = e;
    const u32 *a;
    u32 n;
    GdlStatus st = query(c, GQ_INIT, 0, &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        vec_push(*facts, a[i]);
    return st;
}

static GdlStatus compiled_legal(void *e, const Gt *state, uint32_t ns, uint32_t role, U32Vec *moves)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    const u32 *a;
    u32 n = 0;
    if (st == GDL_OK)
        st = query(c, GQ_LEGAL, c->roles.v[role], &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        vec_push(*moves, a[2 * i + 1]);
    return st;
}

static GdlStatus compiled_next(void *e, const Gt *state, uint32_t ns, const Gt *joint, U32Vec *facts)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    if (st != GDL_OK)
        return st;
    if (!held(&c->joint, &c->have_joint, joint, c->roles.n)) {
        st = status_of(c, c->mod->set_move(c->ev, joint));
        if (st != GDL_OK)
            return st;
    }
    const u32 *a;
    u32 n = 0;
    st = query(c, GQ_NEXT, 0, &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        vec_push(*facts, a[i]);
    return st;
}

static GdlStatus compiled_terminal(void *e, const Gt *state, uint32_t ns, bool *terminal)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    const u32 *a;
    u32 n = 0;
    if (st == GDL_OK)
        st = query(c, GQ_TERMINAL, 0, &a, &n);
    *terminal = n > 0;
    return st;
}

static GdlStatus compiled_goals(void *e, const Gt *state, uint32_t ns, U32Vec *values)
{
    Compiled *c = e;
    GdlStatus st = use_state(c, state, ns);
    const u32 *a;
    u32 n = 0;
    if (st == GDL_OK)
        st = query(c, GQ_GOAL, 0, &a, &n);
    for (u32 i = 0; st == GDL_OK && i < n; i++)
        for (uint32_t r = 0; r < c->roles.n; r++)
            if (c->roles.v[r] == a[2 * i]) {
                vec_push(*values, r);
                vec_push(*values, a[2 * i + 1]);
            }
    return st;
}

const EngineOps rt_engine_jit = {"jit", jit_create, compiled_destroy, compiled_initial, compiled_legal,
                                 compiled_next, compiled_terminal, compiled_goals};
const EngineOps rt_engine_aot = {"aot", aot_create, compiled_destroy, compiled_initial, compiled_legal,
                                 compiled_next, compiled_terminal, compiled_goals};
const EngineOps rt_engine_so = {"so", so_create, compiled_destroy, compiled_initial, compiled_legal,
                                compiled_next, compiled_terminal, compiled_goals};
