/*
 * prelude.h: the game-dependent half of every generated engine: creation
 * from the game's tables, loading a state and a move, the root queries.
 * Copied into every generated file after abi.h, the game's sizes and
 * engine.h (the tables and continuations), in two halves as engine.h is:
 * the declarations before the game's code, the code after it.
 */

/* The sizes, as values: loops over an empty table are not worth a warning. */
static const struct {
    u32 nq, nfs, nsym, nk, ng, nrole, nts, nds;
} sizes = {NQ, NFS, NSYM, NK, NG, NROLE, NTS, NDS};

static const QInfo QI[NQ];

/* ---- the module: what the runtime calls ---------------------------------- */

typedef struct FsInfo {
    u32 arity, level, nix, mask0;
} FsInfo;

typedef struct Shape {
    u32 sym, arity, fs; /* functor (an S index) and arity of a fact; its set */
} Shape;

/* Given by the game's code below. */
static const char *const SYMNAME[NSYM + 1];
static const u32 KSYM[NK + 1];
static const u32 ROLESYM[NROLE + 1];
static const u32 ROOT[GQ_N];
static const FsInfo FSI[NFS + 1];
static const u64 FSMASK[NMASK + 1];
static const Shape TSH[NTS + 1];
static const Shape DSH[NDS + 1];
static const u32 GTERM[NG * 3 + 1];
static const u32 GARGS[NGARGS + 1];
static void load_facts(Ev *ev);
/* Given below, called by load_facts. */
MAYBE_UNUSED static void load_pre(Ev *ev, FactSet *s, const u32 *t, u32 n);
MAYBE_UNUSED static void load_consts(Ev *ev, FactSet *s, const u32 *t, u32 n);

/* ==== the runtime's code ==== (a generated file puts the game's code here) */

/* Facts evaluated when compiling: tuples of indexes into the G terms. */
MAYBE_UNUSED static void load_pre(Ev *ev, FactSet *s, const u32 *t, u32 n)
{
    u32 buf[64];
    for (u32 i = 0; i < n && !STOP; i++) {
        for (u32 k = 0; k < s->arity; k++)
            buf[k] = ev->g[t[(usize)i * s->arity + k]];
        fs_add(ev, s, buf);
    }
}

/* Facts of constants: tuples of indexes into K. */
MAYBE_UNUSED static void load_consts(Ev *ev, FactSet *s, const u32 *t, u32 n)
{
    u32 buf[64];
    for (u32 i = 0; i < n && !STOP; i++) {
        for (u32 k = 0; k < s->arity; k++)
            buf[k] = K[t[(usize)i * s->arity + k]];
        fs_add(ev, s, buf);
    }
}

static void m_destroy(void *e)
{
    Ev *ev = e;
    if (!ev)
        return;
    const GdlcHost *h = ev->h;
    for (u32 l = 0; l < LV_N; l++)
        arena_free(ev, l);
    if (ev->fs)
        for (u32 f = 0; f < sizes.nfs; f++) {
            h->release(ev->fs[f].tup);
            for (u32 x = 0; ev->fs[f].ix && x < ev->fs[f].nix; x++)
                h->release(ev->fs[f].ix[x].dir);
            h->release(ev->fs[f].ix);
        }
    h->release(ev->fs);
    h->release(ev->calls);
    h->release(ev->qcols);
    h->release(ev->qfree);
    h->release(ev->amax);
    h->release(ev->ahint);
    h->release(ev->stack);
    h->release(ev->syms);
    h->release(ev->consts);
    h->release(ev->roles);
    h->release(ev->g);
    h->release(ev);
}

/* Zeroed memory, so that m_destroy can free a machine made in part when an
 * allocation fails. */
static void *zalloc(const GdlcHost *h, usize n)
{
    void *p = h->alloc(n);
    if (p)
        zero(p, n);
    return p;
}

static void *m_create(const GdlcHost *h, void *store, void *ctl, const GdlcTermView *tv, usize limit)
{
    Ev *ev = zalloc(h, sizeof(Ev));
    if (!ev)
        return 0;
    ev->h = h;
    ev->store = store;
    ev->ctl = ctl;
    ev->tv = *tv;
    ev->arena_limit = limit;
    ev->qi = QI;
    ev->nq = NQ;
    ev->nfs = NFS;
    ev->poll = 4096;
    ev->low = NONE;
    ev->syms = zalloc(h, (NSYM + 1) * sizeof(u32));
    ev->consts = zalloc(h, (NK + 1) * sizeof(u32));
    ev->roles = zalloc(h, (NROLE + 1) * sizeof(u32));
    ev->calls = zalloc(h, NQ * sizeof(CallMap));
    ev->fs = zalloc(h, (NFS + 1) * sizeof(FactSet));
    ev->g = zalloc(h, (NG + 1) * sizeof(u32));
    ev->qcols = zalloc(h, NQ * sizeof(Cols));
    ev->qfree = zalloc(h, NQ * sizeof(Cols));
    ev->amax = zalloc(h, NQ * sizeof(u32));
    ev->ahint = zalloc(h, NQ * sizeof(u32));
    if (!ev->syms || !ev->consts || !ev->roles || !ev->calls || !ev->fs || !ev->g || !ev->qcols || !ev->qfree ||
        !ev->amax || !ev->ahint) {
        m_destroy(ev);
        return 0;
    }
    for (u32 q = 0; q < sizes.nq; q++) {
        cols_of(&ev->qcols[q], QI[q].mask);
        u64 all = QI[q].arity >= 64 ? ~0ULL : (1ULL << QI[q].arity) - 1;
        cols_of(&ev->qfree[q], all & ~QI[q].mask);
    }
    for (u32 i = 0; i < sizes.nsym; i++)
        ev->syms[i] = h->sym(store, SYMNAME[i]);
    for (u32 i = 0; i < sizes.nk; i++)
        ev->consts[i] = h->intern(store, ev->syms[KSYM[i]], 0, 0);
    for (u32 i = 0; i < sizes.ng; i++) {
        u32 args[64], ar = GTERM[3 * i + 1];
        for (u32 k = 0; k < ar; k++)
            args[k] = ev->g[GARGS[GTERM[3 * i + 2] + k]];
        ev->g[i] = h->intern(store, ev->syms[GTERM[3 * i]], ar, args);
    }
    ev->nroles = NROLE;
    for (u32 i = 0; i < sizes.nrole; i++)
        ev->roles[i] = h->intern(store, ev->syms[ROLESYM[i]], 0, 0);
    for (u32 f = 0; f < sizes.nfs; f++) {
        FactSet *s = &ev->fs[f];
        s->arity = FSI[f].arity;
        s->level = FSI[f].level;
        s->nix = FSI[f].nix;
        s->ix = zalloc(h, (s->nix + 1) * sizeof(Index));
        if (!s->ix) {
            m_destroy(ev);
            return 0;
        }
        for (u32 x = 0; x < s->nix; x++)
            cols_of(&s->ix[x].cols, FSMASK[FSI[f].mask0 + x]);
    }
    load_facts(ev);
    for (u32 f = 0; f < sizes.nfs; f++)
        if (ev->fs[f].level == LV_GAME)
            fs_dedup(ev, &ev->fs[f]);
    if (STOP) {
        m_destroy(ev);
        return 0;
    }
    return ev;
}

static u32 m_set_state(void *e, const u32 *facts, u32 n)
{
    Ev *ev = e;
    ev->status = ST_OK;
    ev_reset(ev, LV_STATE);
    for (u32 s = 0; s < sizes.nts; s++)
        fs_clear(&ev->fs[TSH[s].fs]);
    if (TANY != NONE)
        fs_clear(&ev->fs[TANY]);
    u32 buf[64];
    for (u32 i = 0; i < n; i++) {
        u32 f = facts[i], fn = FN(f), ar = AR(f);
        for (u32 s = 0; s < sizes.nts; s++)
            if (ev->syms[TSH[s].sym] == fn && TSH[s].arity == ar) {
                /* the arguments, then the fact's own id */
                for (u32 k = 0; k < ar; k++)
                    buf[k] = ARG(f, k);
                buf[ar] = f;
                fs_add(ev, &ev->fs[TSH[s].fs], buf);
                break;
            }
        if (TANY != NONE)
            fs_add(ev, &ev->fs[TANY], &f);
    }
    return ev->status;
}

static u32 m_set_move(void *e, const u32 *joint)
{
    Ev *ev = e;
    ev->status = ST_OK;
    ev_reset(ev, LV_MOVE);
    for (u32 s = 0; s < sizes.nds; s++)
        fs_clear(&ev->fs[DSH[s].fs]);
    if (DANY != NONE)
        fs_clear(&ev->fs[DANY]);
    u32 buf[66];
    for (u32 r = 0; r < sizes.nrole; r++) {
        u32 m = joint[r], fn = FN(m), ar = AR(m);
        buf[0] = ev->roles[r];
        for (u32 s = 0; s < sizes.nds; s++)
            if (ev->syms[DSH[s].sym] == fn && DSH[s].arity == ar) {
                for (u32 i = 0; i < ar; i++)
                    buf[i + 1] = ARG(m, i);
                fs_add(ev, &ev->fs[DSH[s].fs], buf);
                break;
            }
        if (DANY != NONE) {
            buf[1] = m;
            fs_add(ev, &ev->fs[DANY], buf);
        }
    }
    return ev->status;
}

static u32 m_query(void *e, u32 which, u32 role, const u32 **ans, u32 *n)
{
    Ev *ev = e;
    *ans = 0;
    *n = 0;
    if (which >= GQ_N || ROOT[which] == NONE)
        return ST_OK;
    u32 key[2] = {role, 0};
    if (which != GQ_LEGAL)
        key[0] = 0;
    ev->floor = (usize)__builtin_frame_address(0) - GDLC_STACK_ALLOW;
    Table *t = tb_call_complete(ev, ROOT[which], key);
    if (!t) {
        /* Whatever failed, forget everything computed: the next call starts
         * clean (the runtime sends the state again). */
        u32 st = ev->status;
        ev_reset(ev, LV_GAME);
        ev->status = ST_OK;
        return st;
    }
    *ans = t->ans;
    *n = t->n;
    return ST_OK;
}
