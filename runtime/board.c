/*
 * board.c: engine "board", the third backend: the state as an array of
 * small integers, the rules as loops over it (backend/bg.c's C, compiled
 * by libtcc).
 *
 * Making it:
 *  1. the relations that depend on neither the state nor the move are
 *     evaluated (the fold pass) into tables of constants;
 *  2. the facts a state may hold and the moves each role may make (the
 *     game's base and input rules, else the domain analysis) give each
 *     state relation and each move shape its domains, position by position;
 *  3. the layout: the reference interpreter plays random playthroughs for
 *     a moment, and for each state relation the fewest argument positions
 *     that determine the rest in every state seen become its key (cell/3:
 *     x and y determine the content), so the relation is one slot per key
 *     holding the rest as a small number. That is a claim from samples,
 *     not a proof, so the generated code checks it on every state it
 *     makes: a second value for a slot, a fact or move outside the domains,
 *     and the query is answered by the reference interpreter instead, as
 *     is every state given to the machine that the layout cannot hold;
 *  4. bg_emit's C, compiled by libtcc.
 * A game the generator does not compile (a recursive relation of the
 * state, a function term nested in a fact) is played by the goal-directed
 * code: the machine resolves to engine jit:goal, and the plan says why.
 *
 * Queries cross the engine interface as facts: a state's facts are read
 * into the slots, the next state's slots written out as facts, each
 * fact's term made once and kept.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../backend/bg.h"
#include "../compile/domain.h"
#include "../compile/fold.h"
#include "engine_host.h"
#include "compiled.h"
#include "jit.h"
#include "pipeline.h"
#include "runtime.h"

enum {
    BOARD_SAMPLE_STATES = 4000, /* states the layout is found from, at most */
    BOARD_SAMPLE_PLAYOUTS = 64, /* in that many playthroughs at most */
    BOARD_SAMPLE_DEPTH = 500,   /* of that many steps at most */
    BOARD_SAMPLE_CALLS = 1u << 20, /* and that many calls of recursive relations */
    BOARD_STACK = 1u << 20,     /* the answer stack, in words */
    BOARD_MAX_FACTS = 1u << 22, /* facts of the layout (slots times values) */
    BOARD_PREMADE = 1u << 18,   /* facts (moves) made when the machine is, at most */
    BOARD_RECURSIVE_CALLS = 1u << 22, /* calls of recursive relations a query may make */
    BOARD_MEMO_LINES = 1u << 12,      /* lines of the tests' memo */
};
#define BOARD_SAMPLE_SECONDS 0.25 /* of the thread's processor time */

/* A relation's key positions given in the engine's options. */
typedef struct BoardKeys {
    uint32_t sym, arity, mask;
} BoardKeys;

/* The second tier (rt_board_tier2): the system compiler's code, made by a
 * thread of its own. */
enum { T2_RUNNING, T2_READY, T2_FAILED };
typedef struct Tier2 {
    pthread_t thread;
    atomic_bool cancel; /* set by the board's free: the compiler is killed */
    atomic_int state;   /* T2_*: READY once the functions below are set */
    const GdlGame *game;
    char *code;
    size_t len;
    char *path;         /* the object compiled, once READY: loaded by the
                         * machine's thread (dlopen and dlclose on one) */
} Tier2;

typedef struct Board {
    const GdlGame *game;
    GtStore *store;
    RtControl *ctl;
    BgGame g;
    CpFold fold;
    U32Vec *stat;       /* per IR relation: tuples of symbols */
    const U32Vec **statp;
    bool *stat_holds;
    uint32_t nsym;
    RtJit *jit;         /* the code, compiled by libtcc */
    void *dl;           /* or by the system compiler (board:cc) */
    Tier2 *t2;          /* the system compiler's code on its way (NULL: none) */
    char *plan2;        /* the plan once it plays by it */
    BgLegalFn legal;
    BgNextFn next;
    BgTerminalFn terminal;
    BgGoalsFn goals;
    uint32_t **ixr;     /* per relation, per position: symbol -> place + 1 */
    uint32_t **ixs;     /* per shape, per position: the same */
    uint32_t *slot_rel; /* slot -> relation */
    uint32_t *fact_at;  /* relation -> first entry of fid */
    Gt *fid;            /* (slot, code) -> fact id + 1, made when first needed */
    Gt *mid;            /* move number -> move id + 1 */
    uint16_t *st, *nx;
    uint32_t *mshape, *marg, *mval, *out, *stack, cap;
    uint32_t *memo;     /* BgCtx.memo */
    uint32_t *marks;    /* per role, per move number: the epoch it was last legal in */
    uint32_t *epoch;    /* per role */
    uint64_t *legal_stamp; /* per role: the stamp of the state its marks are of (0: none) */
    uint32_t *rank;     /* move number -> its place in canonical order (NULL: not made) */
    uint32_t nfacts;    /* entries of fid */
    uint32_t *share_at; /* slot -> its first entry of fid */
    Gt *made;           /* fid's facts by id, for made_facts */
    bool in_order;      /* fid's facts were made in slot order: their ids increase */
    uint32_t *fact_rank; /* when not in order (others made facts first: the plan
                          * of jit, hybrid.c): entry of fid -> its place by id */
    uint64_t *fact_bits; /* next_facts' bitset over those places (zero between calls) */
    uint64_t *fact_words; /* and a bit per word of it in use */
    BgCtx c;
    U32Vec held;        /* the facts st holds */
    bool have, covered; /* st holds held; and the layout could hold it */
    uint64_t held_stamp; /* the stamp of the state st holds (0: none) */
    void *ref;          /* the reference interpreter: the initial state, states outside the layout */
    char *plan;
    void *goal;         /* jit:goal, when the generator declined the game */
    VEC(BoardKeys) keys; /* layouts given in the options */
    char *summary;      /* how the code evaluates each relation (bg_emit_summary) */
    uint32_t sample_budget; /* while sampling: the calls of recursive relations left (0: not sampling) */
    double sample_seconds;  /* of processor time at most (BOARD_SAMPLE_SECONDS, or rt_board_make's) */
    Symtab lsyms;       /* the game's symbols and */
    GtStore lstore;     /* a store of its own, for finding the layout (the
                         * machine's gets the facts in slot order) */
    bool lstore_made;
    bool reversed;      /* option reversed: the layout's facts made in reverse slot order */
} Board;

static void code_free(Board *b);

/* ---- facts and moves as symbols ------------------------------------------ */

/* A flat term's functor, arity and argument symbols; false when an
 * argument is not a constant of the game. */
static bool flat_in(const Board *b, const GtStore *store, Gt t, uint32_t *sym, uint32_t *arity, uint32_t *args)
{
    *sym = gt_fn(store, t);
    *arity = gt_arity(store, t);
    if (*arity > BG_MAX_ARITY)
        return false;
    for (uint32_t i = 0; i < *arity; i++) {
        Gt a = gt_arg(store, t, i);
        if (gt_arity(store, a) != 0 || gt_fn(store, a) >= b->nsym)
            return false;
        args[i] = gt_fn(store, a);
    }
    return *sym < b->nsym;
}

/* The same for a term of the machine's store. */
static bool flat(const Board *b, Gt t, uint32_t *sym, uint32_t *arity, uint32_t *args)
{
    return flat_in(b, b->store, t, sym, arity, args);
}

/* The slot and code of the fact of relation ri and args; false outside
 * the layout. */
static bool slot_of_args(const Board *b, uint32_t ri, const uint32_t *args, uint32_t *slot, uint32_t *code)
{
    const BgRel *R = &b->g.rels.v[ri];
    uint32_t s = 0, v = 0;
    for (uint32_t j = 0; j < R->nkey; j++) {
        uint32_t p = b->ixr[ri][R->key[j] * b->nsym + args[R->key[j]]];
        if (!p)
            return false;
        s = s * R->dom[R->key[j]].n + (p - 1);
    }
    for (uint32_t j = 0; j < R->nval; j++) {
        uint32_t p = b->ixr[ri][R->val[j] * b->nsym + args[R->val[j]]];
        if (!p)
            return false;
        v = v * R->dom[R->val[j]].n + (p - 1);
    }
    *slot = R->off + s;
    *code = v + 1;
    return true;
}

/* The slot and code of fact t of store; false outside the layout. */
static bool fact_slot_in(const Board *b, const GtStore *store, Gt t, uint32_t *slot, uint32_t *code)
{
    uint32_t sym, arity, args[BG_MAX_ARITY];
    if (!flat_in(b, store, t, &sym, &arity, args))
        return false;
    uint32_t ri = bg_rel_of(&b->g, sym, arity);
    return ri != BASE_NONE && slot_of_args(b, ri, args, slot, code);
}

static bool fact_slot(const Board *b, Gt t, uint32_t *slot, uint32_t *code)
{
    return fact_slot_in(b, b->store, t, slot, code);
}

/* The fact of slot and code, made the first time. */
static Gt slot_fact(Board *b, uint32_t slot, uint32_t code)
{
    uint32_t ri = b->slot_rel[slot];
    const BgRel *R = &b->g.rels.v[ri];
    Gt *f = &b->fid[b->fact_at[ri] + (size_t)(slot - R->off) * R->codes + (code - 1)];
    if (*f)
        return *f - 1;
    Gt args[BG_MAX_ARITY];
    uint32_t s = slot - R->off, v = code - 1;
    for (uint32_t j = R->nkey; j-- > 0;) {
        const U32Vec *d = &R->dom[R->key[j]];
        args[R->key[j]] = gt_intern(b->store, d->v[s % d->n], 0, NULL);
        s /= d->n;
    }
    for (uint32_t j = R->nval; j-- > 0;) {
        const U32Vec *d = &R->dom[R->val[j]];
        args[R->val[j]] = gt_intern(b->store, d->v[v % d->n], 0, NULL);
        v /= d->n;
    }
    Gt t = gt_intern(b->store, R->sym, R->arity, args);
    *f = t + 1;
    return t;
}

/* The move of a move number, made the first time. */
static Gt number_move(Board *b, uint32_t m)
{
    if (b->mid[m])
        return b->mid[m] - 1;
    uint32_t si = 0;
    while (si + 1 < b->g.shapes.n && b->g.shapes.v[si + 1].base <= m)
        si++;
    const BgShape *S = &b->g.shapes.v[si];
    Gt args[BG_MAX_ARITY];
    uint32_t k = m - S->base;
    for (uint32_t j = S->arity; j-- > 0;) {
        args[j] = gt_intern(b->store, S->dom[j].v[k % S->dom[j].n], 0, NULL);
        k /= S->dom[j].n;
    }
    Gt t = gt_intern(b->store, S->sym, S->arity, args);
    b->mid[m] = t + 1;
    return t;
}

/* The move number of role r's move in mshape/marg, or BASE_NONE. */
static uint32_t move_number(const Board *b, uint32_t r)
{
    const BgShape *S = &b->g.shapes.v[b->mshape[r]];
    uint32_t m = 0;
    for (uint32_t j = 0; j < S->arity; j++) {
        uint32_t p = b->ixs[b->mshape[r]][j * b->nsym + b->marg[r * BG_MAX_ARITY + j]];
        if (!p)
            return BASE_NONE;
        m = m * S->dom[j].n + (p - 1);
    }
    return S->base + m;
}

/* ---- queries --------------------------------------------------------------- */

/* Makes st hold the state: the one it holds already when the API names it
 * by the same stamp (RtControl.stamp: legal of each role, terminal, next
 * of one state; and the state next made last, kept in st), else read from
 * its facts. False when the layout cannot hold it. */
static bool use_state(Board *b, const Gt *state, uint32_t n)
{
    uint64_t stamp = b->ctl->stamp;
    if (stamp && stamp == b->held_stamp)
        return b->covered;
    if (!stamp && b->have && b->held.n == n && gt_tuple_eq(b->held.v, state, n))
        return b->covered;
    b->held.n = 0;
    vec_reserve(b->held, n + 1);
    gt_tuple_copy(b->held.v, state, n);
    b->held.n = n;
    b->have = true;
    b->held_stamp = stamp;
    memset(b->legal_stamp, 0, b->game->front.ir.roles.n * sizeof *b->legal_stamp);
    memset(b->st, 0, (size_t)b->g.nslots * sizeof *b->st);
    b->covered = true;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t slot, code;
        if (!fact_slot(b, state[i], &slot, &code) || (b->st[slot] && !b->g.unchecked)) {
            b->covered = false;
            break;
        }
        b->st[slot] = (uint16_t)code;
    }
    return b->covered;
}

/* st changed without a state named: no stamp names it. */
static void forget_state(Board *b)
{
    b->have = false;
    b->held_stamp = 0;
}

static void tier2_take(Board *b);

static void ctx_reset(Board *b)
{
    if (b->t2)
        tier2_take(b);
    b->c.nout = 0;
    b->c.sp = b->stack;
    b->c.bad = BG_OK;
    b->c.depth = 0;
    b->c.budget = b->sample_budget ? b->sample_budget : BOARD_RECURSIVE_CALLS;
    if (++b->c.memo_epoch == 0) {
        memset(b->memo, 0, ((size_t)b->c.memo_mask + 1) * BG_MEMO_WORDS * sizeof *b->memo);
        b->c.memo_epoch = 1;
    }
}

static GdlStatus stopped(Board *b)
{
    if (rt_stop_coarse(b->ctl))
        return rt_fail(b->ctl, GDL_CANCELLED, "cancelled");
    return GDL_OK;
}

static EngineStatus board_initial(void *e, U32Vec *facts)
{
    Board *b = e;
    return rt_engine_ref.initial(b->ref, facts);
}

static void sort_by_rank(const Board *b, uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = v[i], r = b->rank[x], k = i;
        for (; k > 0 && b->rank[v[k - 1]] > r; k--)
            v[k] = v[k - 1];
        v[k] = x;
    }
}

/* The legal move numbers of role in st into b->out, each marked in the
 * role's marks; false when the code could not say (BgCtx.bad). */
static bool legal_numbers(Board *b, uint32_t role)
{
    ctx_reset(b);
    if (++b->epoch[role] == 0) {
        memset(b->marks + (size_t)role * b->g.nmoves, 0, (size_t)b->g.nmoves * sizeof *b->marks);
        b->epoch[role] = 1;
    }
    b->c.mark = b->marks + (size_t)role * b->g.nmoves;
    b->c.epoch = b->epoch[role];
    b->legal(&b->c, b->game->front.ir.roles.v[role]);
    if (b->c.bad != BG_OK)
        return false;
    b->legal_stamp[role] = b->held_stamp ? b->held_stamp : UINT64_MAX;
    return true;
}

static EngineStatus board_legal(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves)
{
    Board *b = e;
    GdlStatus st = stopped(b);
    if (st != GDL_OK)
        return st;
    if (use_state(b, state, n) && legal_numbers(b, role)) {
        if (b->rank)
            sort_by_rank(b, b->out, b->c.nout);
        vec_reserve(*moves, moves->n + b->c.nout + 1);
        for (uint32_t i = 0; i < b->c.nout; i++)
            moves->v[moves->n++] = number_move(b, b->out[i]);
        return GDL_OK;
    }
    uint32_t from = moves->n;
    st = rt_engine_ref.legal(b->ref, state, n, role, moves);
    if (st == GDL_OK && b->rank) /* the API takes this engine's moves as sorted */
        gt_sort(b->store, moves->v + from, moves->n - from);
    return st;
}

/* The joint move into mshape and marg; false when a move is outside the
 * shapes. */
static bool use_joint(Board *b, const Gt *joint)
{
    uint32_t nr = b->game->front.ir.roles.n;
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t sym, arity, args[BG_MAX_ARITY];
        if (!flat(b, joint[r], &sym, &arity, args))
            return false;
        uint32_t si = bg_shape_of(&b->g, sym, arity);
        if (si == BASE_NONE)
            return false;
        b->mshape[r] = si;
        for (uint32_t i = 0; i < arity; i++)
            b->marg[r * BG_MAX_ARITY + i] = args[i];
        uint32_t m = move_number(b, r);
        if (m == BASE_NONE)
            return false;
        b->mval[r] = arity ? b->nsym + m : sym;
    }
    return true;
}

/* next into nx; false when the code could not say. */
static bool next_slots(Board *b)
{
    ctx_reset(b);
    memset(b->nx, 0, (size_t)b->g.nslots * sizeof *b->nx);
    b->next(&b->c);
    return b->c.bad == BG_OK;
}

/* nx becomes the state held: the one the API is making (made_stamp). */
static void keep_next(Board *b)
{
    uint16_t *t = b->st;
    b->st = b->nx;
    b->nx = t;
    b->c.st = b->st;
    b->c.nx = b->nx;
    b->have = false;
    b->held_stamp = b->ctl->made_stamp;
    b->covered = true;
    memset(b->legal_stamp, 0, b->game->front.ir.roles.n * sizeof *b->legal_stamp);
}

static EngineStatus board_next(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts)
{
    Board *b = e;
    GdlStatus st = stopped(b);
    if (st != GDL_OK)
        return st;
    if (use_state(b, state, n) && use_joint(b, joint) && next_slots(b)) {
        vec_reserve(*facts, facts->n + b->g.nslots + 1);
        for (uint32_t s = 0; s < b->g.nslots; s++)
            if (b->nx[s])
                facts->v[facts->n++] = slot_fact(b, s, b->nx[s]);
        if (b->ctl->made_stamp)
            keep_next(b);
        return GDL_OK;
    }
    forget_state(b);
    return rt_engine_ref.next(b->ref, state, n, joint, facts);
}

/* Is every move of the joint move legal in st (O(roles) once each role's
 * moves were listed in it, as a playout does)? */
static bool joint_legal(Board *b, const Gt *joint, bool *ok)
{
    uint32_t nr = b->game->front.ir.roles.n;
    for (uint32_t r = 0; r < nr; r++) {
        uint64_t want = b->held_stamp ? b->held_stamp : UINT64_MAX;
        if (b->legal_stamp[r] != want && !legal_numbers(b, r))
            return false;
        uint32_t m = move_number(b, r);
        if (m == BASE_NONE || b->marks[(size_t)r * b->g.nmoves + m] != b->epoch[r]) {
            *ok = false;
            return true;
        }
    }
    *ok = true;
    return true;
}

/* EngineOps.next_facts: the next state's facts in slot order, which is
 * their order by id (made so: board_create). */
static EngineStatus board_next_facts(void *e, const Gt *state, uint32_t n, const Gt *joint, Gt *facts, uint32_t *nout)
{
    Board *b = e;
    GdlStatus st = stopped(b);
    if (st != GDL_OK)
        return st;
    bool ok = false;
    if (!use_state(b, state, n) || !use_joint(b, joint) || !joint_legal(b, joint, &ok))
        return RT_UNSHARED;
    if (!ok)
        return RT_ILLEGAL;
    if (!next_slots(b)) {
        forget_state(b);
        return RT_UNSHARED;
    }
    uint32_t k = 0;
    const uint16_t *nx = b->nx;
    if (b->in_order) {
        for (uint32_t s = 0; s < b->g.nslots; s++)
            if (nx[s])
                facts[k++] = b->fid[b->share_at[s] + nx[s] - 1] - 1;
    } else {
        /* by their places in id order, through a bitset of them and one
         * of its words in use (each cleared as it is read) */
        uint64_t *bits = b->fact_bits, *used = b->fact_words;
        for (uint32_t s = 0; s < b->g.nslots; s++)
            if (nx[s]) {
                uint32_t r = b->fact_rank[b->share_at[s] + nx[s] - 1];
                bits[r >> 6] |= 1ULL << (r & 63);
                used[r >> 12] |= 1ULL << (r >> 6 & 63);
            }
        for (uint32_t u = 0, nu = (b->nfacts + 4095) / 4096; u < nu; u++) {
            for (uint64_t y = used[u]; y; y &= y - 1) {
                uint32_t w = u << 6 | (uint32_t)__builtin_ctzll(y);
                for (uint64_t x = bits[w]; x; x &= x - 1)
                    facts[k++] = b->made[w << 6 | (uint32_t)__builtin_ctzll(x)];
                bits[w] = 0;
            }
            used[u] = 0;
        }
    }
    *nout = k;
    keep_next(b);
    return GDL_OK;
}

/* EngineOps.made_facts: every fact of the layout's, made in slot order;
 * a state holds one a slot at most. */
static uint32_t board_made_facts(void *e, const Gt **facts, uint32_t *most)
{
    Board *b = e;
    if (b->goal || !b->made)
        return 0;
    *facts = b->made;
    *most = b->g.nslots;
    return b->nfacts;
}

static EngineStatus board_terminal(void *e, const Gt *state, uint32_t n, bool *terminal)
{
    Board *b = e;
    GdlStatus st = stopped(b);
    if (st != GDL_OK)
        return st;
    if (use_state(b, state, n)) {
        ctx_reset(b);
        int t = b->terminal(&b->c);
        if (b->c.bad == BG_OK) {
            *terminal = t != 0;
            return GDL_OK;
        }
    }
    return rt_engine_ref.terminal(b->ref, state, n, terminal);
}

static EngineStatus board_goals(void *e, const Gt *state, uint32_t n, U32Vec *values)
{
    Board *b = e;
    GdlStatus st = stopped(b);
    if (st != GDL_OK)
        return st;
    if (use_state(b, state, n)) {
        ctx_reset(b);
        b->goals(&b->c);
        if (b->c.bad == BG_OK) {
            for (uint32_t i = 0; i + 1 < b->c.nout; i += 2) {
                vec_push(*values, b->out[i]);
                vec_push(*values, gt_intern(b->store, b->out[i + 1], 0, NULL));
            }
            return GDL_OK;
        }
    }
    return rt_engine_ref.goals(b->ref, state, n, values);
}

/* ---- the layout ---------------------------------------------------------------- */

static bool stop_cb(void *ctx) { return rt_stop_now(ctx); }

/* Appends the facts a state may hold (role BASE_NONE) or the moves of a
 * role: the game's base or input rules when it has them, else the domain
 * analysis. */
static GdlStatus props(Board *b, uint32_t role, U32Vec *out, char **err)
{
    const Ir *ir = &b->game->front.ir;
    uint32_t rel = ir->kwrel[role == BASE_NONE ? IR_REL_BASE : IR_REL_INPUT];
    if (rel != BASE_NONE && ir->rels.v[rel].nrules > 0 && !ir->rels.v[rel].dep_true && !ir->rels.v[rel].dep_does) {
        U32Vec t = {0};
        GdlStatus st = rt_ref_relation(b->game, &b->lstore, rel, BOARD_MAX_FACTS, b->ctl->deadline, &t);
        uint32_t arity = role == BASE_NONE ? 1 : 2;
        Gt r = role == BASE_NONE ? 0 : gt_intern(&b->lstore, ir->roles.v[role], 0, NULL);
        for (uint32_t i = 0; st == GDL_OK && i + arity <= t.n; i += arity)
            if (arity == 1 || t.v[i] == r)
                vec_push(*out, t.v[i + arity - 1]);
        vec_free(t);
        if (st != GDL_OK)
            *err = base_sprintf("evaluating the game's %s rules: %s", role == BASE_NONE ? "base" : "input",
                                gdl_status_name(st));
        return st;
    }
    return cp_domain(ir, &b->lstore, BOARD_MAX_FACTS, role, stop_cb, b->ctl, out, err);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void dom_add(U32Vec *d, uint32_t s) { vec_push(*d, s); }

static void dom_sort(U32Vec *d)
{
    qsort(d->v, d->n, sizeof *d->v, cmp_u32);
    uint32_t k = 0;
    for (uint32_t i = 0; i < d->n; i++)
        if (k == 0 || d->v[k - 1] != d->v[i])
            d->v[k++] = d->v[i];
    d->n = k;
}

/* The states seen while finding the layout: per state, its facts as
 * (relation, its arguments' symbols), then BASE_NONE. */
static void seen_fact(const Board *b, U32Vec *seen, uint32_t ri, const uint32_t *args)
{
    vec_push(*seen, ri);
    for (uint32_t j = 0; j < b->g.rels.v[ri].arity; j++)
        vec_push(*seen, args[j]);
}

/* The facts of the slots st, in the layout of b (every relation a set or
 * not), appended to seen. */
static void seen_slots(const Board *b, const uint16_t *st, U32Vec *seen)
{
    for (uint32_t s = 0; s < b->g.nslots; s++) {
        if (!st[s])
            continue;
        uint32_t ri = b->slot_rel[s], args[BG_MAX_ARITY], k = s - b->g.rels.v[ri].off, v = st[s] - 1u;
        const BgRel *R = &b->g.rels.v[ri];
        for (uint32_t j = R->nkey; j-- > 0;) {
            args[R->key[j]] = R->dom[R->key[j]].v[k % R->dom[R->key[j]].n];
            k /= R->dom[R->key[j]].n;
        }
        for (uint32_t j = R->nval; j-- > 0;) {
            args[R->val[j]] = R->dom[R->val[j]].v[v % R->dom[R->val[j]].n];
            v /= R->dom[R->val[j]].n;
        }
        seen_fact(b, seen, ri, args);
    }
    vec_push(*seen, BASE_NONE);
}

/* Random playthroughs by b's own code in the layout it was made with
 * (every relation a set: a claim of none), from the initial state ref
 * gives: the states seen. Seeded and counted (states, and calls of
 * recursive relations), so the layout is a function of the game, except
 * where steps are so slow that BOARD_SAMPLE_SECONDS of the thread's
 * processor time (not the wall clock: another process's load does not
 * count) ends it first. A query the code cannot answer ends the sampling
 * there. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sample_(Board *b, const uint16_t *initial, U32Vec *seen);

static void sample(Board *b, const uint16_t *initial, U32Vec *seen)
{
    b->sample_budget = BOARD_SAMPLE_CALLS;
    sample_(b, initial, seen);
    b->sample_budget = 0;
}

static void sample_(Board *b, const uint16_t *initial, U32Vec *seen)
{
    GdlRng rng;
    gdl_rng_seed(&rng, 1);
    double end = cpu_now() + b->sample_seconds;
    uint32_t nr = b->game->front.ir.roles.n, states = 0;
    uint64_t calls = 0; /* of recursive relations: the work, counted */
    for (uint32_t p = 0; p < BOARD_SAMPLE_PLAYOUTS && states < BOARD_SAMPLE_STATES && calls <= BOARD_SAMPLE_CALLS &&
                         cpu_now() < end;
         p++) {
        memcpy(b->st, initial, (size_t)b->g.nslots * sizeof *b->st);
        for (uint32_t depth = 0; depth < BOARD_SAMPLE_DEPTH && states < BOARD_SAMPLE_STATES; depth++) {
            seen_slots(b, b->st, seen);
            states++;
            if (calls > BOARD_SAMPLE_CALLS || cpu_now() > end) /* slow steps: enough */
                break;
            b->sample_budget = BOARD_SAMPLE_CALLS - (uint32_t)calls;
            ctx_reset(b);
            int term = b->terminal(&b->c);
            calls += b->sample_budget - b->c.budget;
            if (b->c.bad != BG_OK || term)
                break;
            bool ok = true;
            for (uint32_t r = 0; r < nr && ok; r++) {
                b->held_stamp = 0;
                b->sample_budget = BOARD_SAMPLE_CALLS > calls ? BOARD_SAMPLE_CALLS - (uint32_t)calls : 1;
                ok = legal_numbers(b, r) && b->c.nout > 0;
                calls += b->sample_budget - b->c.budget;
                if (!ok)
                    break;
                /* the smallest numbers first: the same choice every time */
                qsort(b->out, b->c.nout, sizeof *b->out, cmp_u32);
                uint32_t m = b->out[gdl_rng_below(&rng, b->c.nout)], si = 0;
                while (si + 1 < b->g.shapes.n && b->g.shapes.v[si + 1].base <= m)
                    si++;
                const BgShape *S = &b->g.shapes.v[si];
                uint32_t k = m - S->base;
                b->mshape[r] = si;
                b->mval[r] = S->arity ? b->nsym + m : S->sym;
                for (uint32_t j = S->arity; j-- > 0;) {
                    b->marg[r * BG_MAX_ARITY + j] = S->dom[j].v[k % S->dom[j].n];
                    k /= S->dom[j].n;
                }
            }
            b->sample_budget = BOARD_SAMPLE_CALLS > calls ? BOARD_SAMPLE_CALLS - (uint32_t)calls : 1;
            if (!ok || !next_slots(b))
                break;
            calls += b->sample_budget - b->c.budget;
            uint16_t *t = b->st;
            b->st = b->nx;
            b->nx = t;
            b->c.st = b->st;
            b->c.nx = b->nx;
        }
    }
}

/* Does key set `keys` (a bit per position) determine the rest of R's
 * facts in every state of seen? */
static bool determines(Board *b, uint32_t ri, uint32_t keys, const U32Vec *seen)
{
    U32Vec tup = {0};
    bool ok = true;
    const BgRel *R = &b->g.rels.v[ri];
    uint32_t a = R->arity;
    for (uint32_t i = 0; i < seen->n && ok;) {
        tup.n = 0;
        while (seen->v[i] != BASE_NONE) {
            uint32_t r = seen->v[i], n = b->g.rels.v[r].arity;
            if (r == ri)
                for (uint32_t j = 0; j < a; j++)
                    vec_push(tup, seen->v[i + 1 + j]);
            i += 1 + n;
        }
        i++;
        uint32_t n = a ? tup.n / a : 0;
        for (uint32_t x = 0; x < n && ok; x++)
            for (uint32_t y = x + 1; y < n && ok; y++) {
                bool same_key = true;
                for (uint32_t j = 0; j < a && same_key; j++)
                    if (keys >> j & 1)
                        same_key = tup.v[x * a + j] == tup.v[y * a + j];
                if (same_key)
                    ok = false; /* facts are unique: they differ elsewhere */
            }
    }
    vec_free(tup);
    return ok;
}

/* The fewest key positions that determine the rest in every sampled
 * state, with a value of fewer than 65535 codes; among as few, the most
 * groups (the weakest claim: (cell x y) has a content rather than
 * (cell x _ c) a row). A relation no sampled state holds is a set. */
static void choose_key(Board *b, uint32_t ri, const U32Vec *seen)
{
    BgRel *R = &b->g.rels.v[ri];
    uint32_t a = R->arity, best = (1u << a) - 1;
    double best_size = 0;
    bool found = false;
    for (uint32_t i = 0; i < b->keys.n; i++)
        if (b->keys.v[i].sym == R->sym && b->keys.v[i].arity == a) {
            best = b->keys.v[i].mask;
            found = true;
        }
    bool any = false; /* a relation no sampled state holds claims nothing */
    for (uint32_t i = 0; i < seen->n && !any;) {
        if (seen->v[i] == BASE_NONE) {
            i++;
            continue;
        }
        any = seen->v[i] == ri;
        i += 1 + b->g.rels.v[seen->v[i]].arity;
    }
    for (uint32_t size = 0; size <= a && !found && any; size++)
        for (uint32_t keys = 0; keys < 1u << a; keys++) {
            if ((uint32_t)__builtin_popcount(keys) != size)
                continue;
            double ks = 1, vs = 1;
            for (uint32_t j = 0; j < a; j++)
                *(keys >> j & 1 ? &ks : &vs) *= R->dom[j].n;
            if (vs >= 65535 || ks > BG_MAX_SLOTS || !determines(b, ri, keys, seen))
                continue;
            if (!found || ks > best_size) {
                best = keys;
                best_size = ks;
                found = true;
            }
        }
    R->nkey = R->nval = 0;
    for (uint32_t j = 0; j < a; j++) {
        if (best >> j & 1)
            R->key[R->nkey++] = j;
        else
            R->val[R->nval++] = j;
    }
}

/* Adds the terms (state facts when facts, else moves) to b->g's state
 * relations or move shapes, each argument to its position's domain; false
 * with *err at a term that is not a functor over constants. */
static bool gather(Board *b, const U32Vec *terms, bool facts, char **err)
{
    for (uint32_t i = 0; i < terms->n; i++) {
        uint32_t sym, arity, args[BG_MAX_ARITY];
        if (!flat_in(b, &b->lstore, terms->v[i], &sym, &arity, args)) {
            *err = base_sprintf("%s is not a functor over constants: %s", facts ? "a state fact" : "a move",
                                gt_text(&b->lstore, terms->v[i]));
            return false;
        }
        U32Vec *dom;
        if (facts) {
            uint32_t ri = bg_rel_of(&b->g, sym, arity);
            if (ri == BASE_NONE) {
                BgRel R = {.sym = sym, .arity = arity};
                vec_push(b->g.rels, R);
                ri = b->g.rels.n - 1;
            }
            dom = b->g.rels.v[ri].dom;
        } else {
            uint32_t si = bg_shape_of(&b->g, sym, arity);
            if (si == BASE_NONE) {
                BgShape S = {.sym = sym, .arity = arity};
                vec_push(b->g.shapes, S);
                si = b->g.shapes.n - 1;
            }
            dom = b->g.shapes.v[si].dom;
        }
        for (uint32_t j = 0; j < arity; j++)
            dom_add(&dom[j], args[j]);
    }
    return true;
}

/* The state relations and move shapes of b->g and their domains, from
 * the game's facts and moves; false with *err when the game is not for
 * this engine. */
static bool find_domains(Board *b, char **err)
{
    const Ir *ir = &b->game->front.ir;
    U32Vec facts = {0};
    if (props(b, BASE_NONE, &facts, err) != GDL_OK) {
        vec_free(facts);
        return false;
    }
    bool ok = gather(b, &facts, true, err);
    vec_free(facts);
    for (uint32_t r = 0; r < ir->roles.n && ok; r++) {
        U32Vec moves = {0};
        ok = props(b, r, &moves, err) == GDL_OK && gather(b, &moves, false, err);
        vec_free(moves);
    }
    if (!ok)
        return false;
    for (uint32_t i = 0; i < b->g.rels.n; i++)
        for (uint32_t j = 0; j < b->g.rels.v[i].arity; j++)
            dom_sort(&b->g.rels.v[i].dom[j]);
    for (uint32_t i = 0; i < b->g.shapes.n; i++)
        for (uint32_t j = 0; j < b->g.shapes.v[i].arity; j++)
            dom_sort(&b->g.shapes.v[i].dom[j]);
    return true;
}

/* Places the layout (bg_layout) within the engine's bounds. */
static bool place_layout(Board *b, char **err)
{
    if (!bg_layout(&b->g, err))
        return false;
    uint64_t nfacts = 0;
    for (uint32_t i = 0; i < b->g.rels.n; i++)
        nfacts += (uint64_t)b->g.rels.v[i].groups * b->g.rels.v[i].codes;
    if (nfacts > BOARD_MAX_FACTS) {
        *err = base_sprintf("the layout would name more than %u facts", BOARD_MAX_FACTS);
        return false;
    }
    return true;
}

/* The static relations as tuples of symbols; false when one holds a
 * function term or was not evaluated. */
static bool statics(Board *b, char **err)
{
    const Ir *ir = &b->game->front.ir;
    rt_fold(b->game, &b->fold);
    b->stat = base_xcalloc(ir->rels.n + 1, sizeof *b->stat);
    b->statp = base_xcalloc(ir->rels.n + 1, sizeof *b->statp);
    b->stat_holds = base_xcalloc(ir->rels.n + 1, sizeof *b->stat_holds);
    for (uint32_t r = 0; r < ir->rels.n; r++) {
        const IrRel *rel = &ir->rels.v[r];
        if ((rel->kind != IR_REL_USER && rel->kind != IR_REL_ROLE) || rel->dep_true || rel->dep_does)
            continue;
        U32Vec own = {0};
        const U32Vec *t = b->fold.pre[r];
        if (!t) {
            /* given by facts (the fold pass leaves those to the code
             * generator), or not folded within its budget: then not a
             * table for the board (evaluated here without that budget,
             * laikLee_hex's append_el/3 took 85 s and 1.5 GB to fail) */
            bool facts = true;
            for (uint32_t i = 0; i < rel->nrules && facts; i++)
                facts = ir->rules.v[ir->rule_index.v[rel->rules + i]].nlits == 0;
            if (!facts) {
                *err = base_sprintf("relation %s/%" PRIu32 " was not evaluated ahead within the fold pass's budget",
                                    symtab_str(&b->game->front.syms, rel->sym), rel->arity);
                return false;
            }
            GdlStatus st = rt_ref_relation(b->game, &b->fold.store, r, BOARD_MAX_FACTS, b->ctl->deadline, &own);
            if (st != GDL_OK) {
                vec_free(own);
                *err = base_sprintf("relation %s/%" PRIu32 " could not be evaluated ahead: %s",
                                    symtab_str(&b->game->front.syms, rel->sym), rel->arity, gdl_status_name(st));
                return false;
            }
            t = &own;
        }
        if (rel->arity == 0) {
            b->stat_holds[r] = t->n > 0;
        } else {
            for (uint32_t i = 0; i < t->n; i++) {
                Gt x = t->v[i];
                if (gt_arity(&b->fold.store, x) != 0 || gt_fn(&b->fold.store, x) >= b->nsym) {
                    *err = base_sprintf("relation %s holds a function term", symtab_str(&b->game->front.syms, rel->sym));
                    vec_free(own);
                    return false;
                }
                vec_push(b->stat[r], gt_fn(&b->fold.store, x));
            }
        }
        vec_free(own);
        b->statp[r] = &b->stat[r];
    }
    b->g.stat = b->statp;
    b->g.stat_holds = b->stat_holds;
    return true;
}

static void tier2_stop(Board *b);

static void board_free(Board *b)
{
    if (!b)
        return;
    tier2_stop(b);
    code_free(b);
    if (b->ref)
        rt_engine_ref.destroy(b->ref);
    for (uint32_t i = 0; i < b->g.rels.n; i++)
        for (uint32_t j = 0; j < BG_MAX_ARITY; j++)
            vec_free(b->g.rels.v[i].dom[j]);
    for (uint32_t i = 0; i < b->g.shapes.n; i++)
        for (uint32_t j = 0; j < BG_MAX_ARITY; j++)
            vec_free(b->g.shapes.v[i].dom[j]);
    vec_free(b->g.rels);
    vec_free(b->g.shapes);
    if (b->stat)
        for (uint32_t r = 0; r < b->game->front.ir.rels.n; r++)
            vec_free(b->stat[r]);
    if (b->fold.pre)
        cp_fold_free(&b->fold);
    free(b->stat);
    free(b->statp);
    free(b->stat_holds);
    free(b->fid);
    free(b->mid);
    free(b->rank);
    free(b->made);
    free(b->fact_rank);
    free(b->fact_bits);
    free(b->fact_words);
    vec_free(b->held);
    vec_free(b->keys);
    free(b->summary);
    if (b->lstore_made) {
        gt_free(&b->lstore);
        symtab_free(&b->lsyms);
    }
    free(b->plan);
    free(b->plan2);
    free(b);
}

/* The layout in words, for the plan and --dump=layout. */
static char *layout_text(const Board *b)
{
    StrBuf o = {0};
    strbuf_add(&o, "board: the state as slots (relation: key positions -> value positions)");
    for (uint32_t i = 0; i < b->g.rels.n; i++) {
        const BgRel *R = &b->g.rels.v[i];
        strbuf_addf(&o, "%s %s/%" PRIu32 ":", i ? "," : ";", symtab_str(&b->game->front.syms, R->sym), R->arity);
        for (uint32_t j = 0; j < R->nkey; j++)
            strbuf_addf(&o, " %" PRIu32, R->key[j]);
        strbuf_add(&o, " ->");
        for (uint32_t j = 0; j < R->nval; j++)
            strbuf_addf(&o, " %" PRIu32, R->val[j]);
    }
    if (b->summary)
        strbuf_addf(&o, "; %s", b->summary);
    return o.s;
}

typedef struct EmitCall {
    const BgGame *g;
    char *code;
    size_t len;
    char **summary; /* NULL: none wanted */
    char **err;
} EmitCall;

static void emit_call(void *p)
{
    EmitCall *c = p;
    c->code = bg_emit_summary(c->g, &c->len, c->summary, c->err);
}

typedef struct CompileCall {
    const char *name, *code;
    const RtControl *ctl;
    char **err;
    RtJit *jit;
} CompileCall;

static void compile_call(void *p)
{
    CompileCall *c = p;
    c->jit = rt_jit_compile(c->name, c->code, NULL, 0, c->ctl, c->err);
}

/* Compiles code (libtcc, or the system compiler when cc) and finds its
 * functions; false with *why. */
static bool compile_text(Board *b, const char *code, size_t len, bool cc, char **why)
{
    if (cc) {
        b->dl = rt_cc_network(b->game, code, len, NULL, why);
        if (b->dl) {
            b->legal = (BgLegalFn)dlsym(b->dl, "bg_legal");
            b->next = (BgNextFn)dlsym(b->dl, "bg_next");
            b->terminal = (BgTerminalFn)dlsym(b->dl, "bg_terminal");
            b->goals = (BgGoalsFn)dlsym(b->dl, "bg_goals");
        }
    } else {
        CompileCall call = {b->game->front.src ? b->game->front.src->name : "game", code, b->ctl, why, NULL};
        rt_stack_run(compile_call, &call);
        b->jit = call.jit;
        if (b->jit) {
            b->legal = (BgLegalFn)rt_jit_symbol(b->jit, "bg_legal");
            b->next = (BgNextFn)rt_jit_symbol(b->jit, "bg_next");
            b->terminal = (BgTerminalFn)rt_jit_symbol(b->jit, "bg_terminal");
            b->goals = (BgGoalsFn)rt_jit_symbol(b->jit, "bg_goals");
        }
    }
    return b->legal && b->next && b->terminal && b->goals;
}

/* Emits the C of b's layout and compiles it. */
static bool compile_code(Board *b, bool cc, char **why)
{
    EmitCall ec = {&b->g, NULL, 0, NULL, why};
    rt_stack_run(emit_call, &ec);
    if (!ec.code)
        return false;
    bool ok = compile_text(b, ec.code, ec.len, cc, why);
    free(ec.code);
    return ok;
}

/* What queries on slots need, for b's layout: the places of symbols, the
 * relation of each slot, the buffers and BgCtx. */
static void slot_tables(Board *b)
{
    uint32_t ns = b->nsym, nr = b->game->front.ir.roles.n;
    b->ixr = base_xcalloc(b->g.rels.n + 1, sizeof *b->ixr);
    for (uint32_t i = 0; i < b->g.rels.n; i++) {
        const BgRel *R = &b->g.rels.v[i];
        b->ixr[i] = base_xcalloc((size_t)(R->arity ? R->arity : 1) * ns + 1, sizeof **b->ixr);
        for (uint32_t j = 0; j < R->arity; j++)
            for (uint32_t k = 0; k < R->dom[j].n; k++)
                b->ixr[i][j * ns + R->dom[j].v[k]] = k + 1;
    }
    b->ixs = base_xcalloc(b->g.shapes.n + 1, sizeof *b->ixs);
    for (uint32_t i = 0; i < b->g.shapes.n; i++) {
        const BgShape *S = &b->g.shapes.v[i];
        b->ixs[i] = base_xcalloc((size_t)(S->arity ? S->arity : 1) * ns + 1, sizeof **b->ixs);
        for (uint32_t j = 0; j < S->arity; j++)
            for (uint32_t k = 0; k < S->dom[j].n; k++)
                b->ixs[i][j * ns + S->dom[j].v[k]] = k + 1;
    }
    b->slot_rel = base_xcalloc(b->g.nslots + 1, sizeof *b->slot_rel);
    b->fact_at = base_xcalloc(b->g.rels.n + 1, sizeof *b->fact_at);
    b->share_at = base_xcalloc(b->g.nslots + 1, sizeof *b->share_at);
    size_t nf = 0;
    for (uint32_t i = 0; i < b->g.rels.n; i++) {
        const BgRel *R = &b->g.rels.v[i];
        b->fact_at[i] = (uint32_t)nf;
        for (uint32_t s = 0; s < R->groups; s++) {
            b->slot_rel[R->off + s] = i;
            b->share_at[R->off + s] = (uint32_t)(nf + (size_t)s * R->codes);
        }
        nf += (size_t)R->groups * R->codes;
    }
    b->nfacts = (uint32_t)nf;
    b->st = base_xcalloc(b->g.nslots + 1, sizeof *b->st);
    b->nx = base_xcalloc(b->g.nslots + 1, sizeof *b->nx);
    b->mshape = base_xcalloc(nr + 1, sizeof *b->mshape);
    b->marg = base_xcalloc((size_t)(nr + 1) * BG_MAX_ARITY, sizeof *b->marg);
    b->mval = base_xcalloc(nr + 1, sizeof *b->mval);
    b->cap = b->g.nmoves + 2 * nr * 1024 + 16;
    b->out = base_xcalloc(b->cap, sizeof *b->out);
    b->marks = base_xcalloc((size_t)(b->g.nmoves + 1) * (nr + 1), sizeof *b->marks);
    b->epoch = base_xcalloc(nr + 1, sizeof *b->epoch);
    b->legal_stamp = base_xcalloc(nr + 1, sizeof *b->legal_stamp);
    b->stack = base_xcalloc(BOARD_STACK, sizeof *b->stack);
    b->memo = base_xcalloc((size_t)BOARD_MEMO_LINES * BG_MEMO_WORDS, sizeof *b->memo);
    b->c = (BgCtx){.st = b->st, .nx = b->nx, .mshape = b->mshape, .marg = b->marg, .mval = b->mval, .out = b->out, .cap = b->cap,
                   .mark = b->marks, .sp = b->stack, .spend = b->stack + BOARD_STACK, .memo = b->memo,
                   .memo_mask = BOARD_MEMO_LINES - 1};
}

#define FREE_NULL(p) (free(p), (p) = NULL)

/* Frees the compiled code and slot_tables' tables. */
static void code_free(Board *b)
{
    if (b->jit)
        rt_jit_free(b->jit);
    if (b->dl)
        dlclose(b->dl);
    b->jit = NULL;
    b->dl = NULL;
    b->legal = NULL;
    b->next = NULL;
    b->terminal = NULL;
    b->goals = NULL;
    for (uint32_t i = 0; b->ixr && i < b->g.rels.n; i++)
        free(b->ixr[i]);
    for (uint32_t i = 0; b->ixs && i < b->g.shapes.n; i++)
        free(b->ixs[i]);
    FREE_NULL(b->ixr);
    FREE_NULL(b->ixs);
    FREE_NULL(b->slot_rel);
    FREE_NULL(b->fact_at);
    FREE_NULL(b->share_at);
    FREE_NULL(b->st);
    FREE_NULL(b->nx);
    FREE_NULL(b->mshape);
    FREE_NULL(b->marg);
    FREE_NULL(b->mval);
    FREE_NULL(b->out);
    FREE_NULL(b->marks);
    FREE_NULL(b->epoch);
    FREE_NULL(b->legal_stamp);
    FREE_NULL(b->stack);
    FREE_NULL(b->memo);
    b->c = (BgCtx){0};
}

/* Finds the layout and emits the C; NULL with *err when the game is not
 * for this engine. */
static char *board_code(Board *b, size_t *len, char **err)
{
    b->nsym = b->game->front.syms.n;
    b->g.ir = &b->game->front.ir;
    b->g.syms = &b->game->front.syms;
    b->g.stop = stop_cb;
    b->g.stop_ctx = b->ctl;
    symtab_init(&b->lsyms);
    for (uint32_t i = 0; i < b->game->front.syms.n; i++)
        symtab_intern(&b->lsyms, symtab_str(&b->game->front.syms, i), b->game->front.syms.len[i]);
    gt_init(&b->lstore, &b->lsyms);
    b->lstore_made = true;
    if (!statics(b, err) || !find_domains(b, err))
        return NULL;
    /* the states the layout is found from, played by the code of a layout
     * that claims nothing (every relation a set) */
    for (uint32_t i = 0; i < b->g.rels.n; i++) {
        BgRel *R = &b->g.rels.v[i];
        R->nval = 0;
        for (R->nkey = 0; R->nkey < R->arity; R->nkey++)
            R->key[R->nkey] = R->nkey;
    }
    U32Vec seen = {0};
    char *why = NULL;
    if (place_layout(b, &why) && compile_code(b, false, &why)) {
        slot_tables(b);
        uint16_t *initial = base_xcalloc(b->g.nslots + 1, sizeof *initial);
        U32Vec facts = {0};
        void *ref = rt_engine_ref.create(b->game, NULL, &b->lstore, b->ctl, &why);
        bool ok = ref && rt_engine_ref.initial(ref, &facts) == GDL_OK;
        for (uint32_t i = 0; ok && i < facts.n; i++) {
            uint32_t slot, code;
            ok = fact_slot_in(b, &b->lstore, facts.v[i], &slot, &code);
            if (ok)
                initial[slot] = (uint16_t)code;
        }
        if (ok)
            sample(b, initial, &seen);
        if (ref)
            rt_engine_ref.destroy(ref);
        free(b->ctl->error); /* a fault while sampling is the game's, met again in play */
        b->ctl->error = NULL;
        vec_free(facts);
        free(initial);
        code_free(b);
    }
    free(why);
    for (uint32_t i = 0; i < b->g.rels.n; i++)
        choose_key(b, i, &seen);
    vec_free(seen);
    if (!place_layout(b, err))
        return NULL;
    EmitCall ec = {&b->g, NULL, 0, &b->summary, err};
    rt_stack_run(emit_call, &ec);
    *len = ec.len;
    return ec.code;
}

/* The options after "board:", comma-separated: cc (the system compiler),
 * unchecked (BgGame.unchecked, and a state read into the slots keeps the
 * last of two facts of a slot: for tests of verify), keys=NAME/ARITY:P.P.. (relation NAME's key
 * positions, counted from 0, instead of the ones sampling finds; none
 * after the colon: a single slot). False with *err on a bad one. */
static bool options(Board *b, const char *arg, bool *cc, bool *tiered, char **err)
{
    for (const char *p = arg; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *o = base_xstrndup(p, n);
        bool ok = true;
        if (strcmp(o, "cc") == 0)
            *cc = true;
        else if (strcmp(o, "unchecked") == 0)
            b->g.unchecked = true;
        else if (strcmp(o, "tiered") == 0)
            *tiered = true;
        else if (strcmp(o, "reversed") == 0)
            b->reversed = true;
        else if (strncmp(o, "keys=", 5) == 0) {
            char *slash = strchr(o + 5, '/'), *colon = slash ? strchr(slash, ':') : NULL;
            char *rest = NULL;
            unsigned long arity = slash ? strtoul(slash + 1, &rest, 10) : 0;
            ok = slash && colon && rest == colon && arity <= BG_MAX_ARITY;
            BoardKeys k = {.sym = BASE_NONE, .arity = (uint32_t)arity};
            if (ok) {
                k.sym = symtab_find(&b->game->front.syms, o + 5, (size_t)(slash - (o + 5)));
                for (char *q = colon + 1; ok && *q;) {
                    unsigned long pos = strtoul(q, &rest, 10);
                    ok = rest != q && pos < arity && (*rest == '.' || *rest == 0);
                    if (ok)
                        k.mask |= 1u << pos;
                    q = *rest == '.' ? rest + 1 : rest;
                }
                ok = ok && k.sym != BASE_NONE;
            }
            if (ok)
                vec_push(b->keys, k);
        } else
            ok = false;
        if (!ok) {
            *err = base_sprintf("engine board's options are cc, tiered, unchecked, reversed and keys=NAME/ARITY:P.P "
                                "(the key positions of a relation of the game): '%s'",
                                o);
            free(o);
            return false;
        }
        free(o);
        p = end ? end + 1 : NULL;
    }
    return true;
}

/* ---- the second tier ---------------------------------------------------------- */
/*
 * The plan of jit (hybrid.c) may play the board by libtcc's code, ready in
 * milliseconds but about half as fast as the system compiler's, while a
 * thread of its own has the system compiler compile the same C into the
 * aot cache (where the next machine of the game finds it). Once that code
 * is loaded, the next query plays by it: the switch is made between
 * queries, on the machine's thread, and both codes are of the same C, so
 * the answers do not change, only their speed. Freeing the board kills a
 * compiler still running and waits for the thread to end.
 */
static void *tier2_run(void *arg)
{
    Tier2 *t = arg;
    char *why = NULL;
    t->path = rt_cc_object(t->game, t->code, t->len, &t->cancel, &why);
    free(why);
    atomic_store_explicit(&t->state, t->path ? T2_READY : T2_FAILED, memory_order_release);
    return NULL;
}

bool rt_board_tier2(void *e)
{
    Board *b = e;
    if (!b || b->goal || !b->jit || b->t2)
        return false;
    char *why = NULL;
    EmitCall ec = {&b->g, NULL, 0, NULL, &why};
    rt_stack_run(emit_call, &ec);
    free(why);
    if (!ec.code)
        return false;
    Tier2 *t = base_xcalloc(1, sizeof *t);
    t->game = b->game;
    t->code = ec.code;
    t->len = ec.len;
    atomic_init(&t->cancel, false);
    atomic_init(&t->state, T2_RUNNING);
    if (pthread_create(&t->thread, NULL, tier2_run, t) != 0) {
        free(t->code);
        free(t);
        return false;
    }
    /* waited for by its state (tier2_take, tier2_stop), which it sets
     * last, touching nothing of t after */
    pthread_detach(t->thread);
    b->t2 = t;
    return true;
}

/* Plays by the second tier from now on, once it is ready (ctx_reset). */
static void tier2_take(Board *b)
{
    Tier2 *t = b->t2;
    int state = atomic_load_explicit(&t->state, memory_order_acquire);
    if (state == T2_RUNNING)
        return;
    char *why = NULL;
    void *dl = state == T2_READY ? rt_cc_load(t->path, &why) : NULL;
    free(why);
    BgLegalFn legal = dl ? (BgLegalFn)dlsym(dl, "bg_legal") : NULL;
    BgNextFn next = dl ? (BgNextFn)dlsym(dl, "bg_next") : NULL;
    BgTerminalFn terminal = dl ? (BgTerminalFn)dlsym(dl, "bg_terminal") : NULL;
    BgGoalsFn goals = dl ? (BgGoalsFn)dlsym(dl, "bg_goals") : NULL;
    if (legal && next && terminal && goals) {
        rt_jit_free(b->jit);
        b->jit = NULL;
        b->dl = dl;
        b->legal = legal;
        b->next = next;
        b->terminal = terminal;
        b->goals = goals;
        if (b->plan && strncmp(b->plan, "board: ", 7) == 0)
            b->plan2 = base_sprintf("board, the system compiler's code: %s", b->plan + 7);
    } else if (dl)
        dlclose(dl);
    free(t->path);
    free(t->code);
    free(t);
    b->t2 = NULL;
}

static void tier2_stop(Board *b)
{
    Tier2 *t = b->t2;
    if (!t)
        return;
    atomic_store(&t->cancel, true);
    /* the compiler, if still running, is killed within a few ms */
    while (atomic_load_explicit(&t->state, memory_order_acquire) == T2_RUNNING)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    free(t->path);
    free(t->code);
    free(t);
    b->t2 = NULL;
}

/* Makes b's layout, code and tables: 1 when made, 0 when the generator
 * declines the game or the compiler fails (*why), -1 on another failure
 * (*err). */
static int board_build(Board *b, bool cc, char **why, char **err)
{
    size_t len = 0;
    char *code = board_code(b, &len, why);
    bool made = code && compile_text(b, code, len, cc, why);
    free(code);
    if (!made) {
        if (!*why)
            *why = base_xstrdup("the code was not made");
        return 0;
    }
    slot_tables(b);
    uint32_t ns = b->nsym;
    GtStore *store = b->store;
    b->fid = base_xcalloc((size_t)b->nfacts + 1, sizeof *b->fid);
    b->mid = base_xcalloc(b->g.nmoves + 1, sizeof *b->mid);
    /* every fact made now, in slot order, before anything else makes one:
     * their ids then increase with the slot, and the next state's facts
     * come out sorted (board_next_shared) */
    b->in_order = b->nfacts <= BOARD_PREMADE;
    for (uint32_t s = b->g.nslots; b->reversed && b->in_order && s-- > 0;) {
        /* (a test's: the facts' ids then decrease with the slot) */
        const BgRel *R = &b->g.rels.v[b->slot_rel[s]];
        for (uint32_t v = R->codes; v >= 1; v--)
            slot_fact(b, s, v);
    }
    for (uint32_t s = 0; b->in_order && s < b->g.nslots; s++) {
        const BgRel *R = &b->g.rels.v[b->slot_rel[s]];
        for (uint32_t v = 1; v <= R->codes; v++)
            slot_fact(b, s, v);
    }
    bool premade = b->in_order;
    for (size_t i = 1; b->in_order && i < b->nfacts; i++)
        b->in_order = b->fid[i - 1] < b->fid[i];
    if (premade && b->nfacts) {
        /* made_facts' facts, by id */
        b->made = base_xmalloc(((size_t)b->nfacts + 1) * sizeof *b->made);
        for (uint32_t i = 0; i < b->nfacts; i++)
            b->made[i] = b->fid[i] - 1;
        if (!b->in_order) {
            base_sort_u32(b->made, b->nfacts);
            b->fact_rank = base_xmalloc(((size_t)b->nfacts + 1) * sizeof *b->fact_rank);
            for (uint32_t i = 0; i < b->nfacts; i++) {
                /* the place of fid[i] among made (distinct ids) */
                uint32_t lo = 0, hi = b->nfacts, id = b->fid[i] - 1;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (b->made[mid] < id)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                b->fact_rank[i] = lo;
            }
            b->fact_bits = base_xcalloc((b->nfacts + 63) / 64 + 1, sizeof *b->fact_bits);
            b->fact_words = base_xcalloc((b->nfacts + 4095) / 4096 + 1, sizeof *b->fact_words);
        }
    }
    if (b->g.nmoves <= BOARD_PREMADE) {
        /* the moves' canonical order, so that legal answers in it */
        Gt *ids = base_xmalloc(((size_t)b->g.nmoves + 1) * sizeof *ids);
        for (uint32_t m = 0; m < b->g.nmoves; m++)
            ids[m] = number_move(b, m);
        gt_sort(store, ids, b->g.nmoves);
        b->rank = base_xcalloc(b->g.nmoves + 1, sizeof *b->rank);
        for (uint32_t k = 0; k < b->g.nmoves; k++) {
            /* the move number of ids[k]: its shape and arguments */
            uint32_t sym, arity, args[BG_MAX_ARITY];
            flat(b, ids[k], &sym, &arity, args);
            uint32_t si = bg_shape_of(&b->g, sym, arity), m = 0;
            for (uint32_t j = 0; j < arity; j++)
                m = m * b->g.shapes.v[si].dom[j].n + (b->ixs[si][j * ns + args[j]] - 1);
            b->rank[b->g.shapes.v[si].base + m] = k;
        }
        free(ids);
    }
    b->ref = rt_engine_ref.create(b->game, NULL, store, b->ctl, err);
    if (!b->ref)
        return -1;
    b->plan = layout_text(b);
    return 1;
}

typedef struct BuildCall {
    Board *b;
    bool cc;
    char **why, **err;
    int made;
} BuildCall;

static void build_call(void *p)
{
    BuildCall *c = p;
    c->made = board_build(c->b, c->cc, c->why, c->err);
}

/* board_build, where running out of memory frees the board first: its
 * code is libtcc's or dlopen's memory, which the journal does not know
 * (unit/oom, under the leak checker), then goes on to the caller's
 * handler. */
static int board_build_whole(Board *b, bool cc, char **why, char **err)
{
    BuildCall c = {b, cc, why, err, 0};
    const char *oom = base_oom_catch(build_call, &c);
    if (oom) {
        board_free(b);
        base_fatal(oom);
    }
    return c.made;
}

static void *board_create(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err)
{
    Board *b = base_xcalloc(1, sizeof *b);
    b->game = game;
    b->store = store;
    b->ctl = ctl;
    b->sample_seconds = BOARD_SAMPLE_SECONDS;
    bool cc = false, tiered = false;
    if (!options(b, arg, &cc, &tiered, err)) {
        ctl->create_status = GDL_BAD_ARGUMENT;
        board_free(b);
        return NULL;
    }
    char *why = NULL;
    int made = board_build_whole(b, cc, &why, err);
    if (made < 0) {
        free(why);
        board_free(b);
        return NULL;
    }
    if (made == 0) {
        /* not a game for the board: the goal-directed code plays it */
        board_free(b);
        b = base_xcalloc(1, sizeof *b);
        b->goal = rt_engine_jit_goal.create(game, NULL, store, ctl, err);
        if (!b->goal) {
            free(why);
            free(b);
            return NULL;
        }
        b->plan = base_sprintf("goal-directed code (board: %s)", why);
        free(why);
        return b;
    }
    free(why);
    if (tiered && !cc)
        rt_board_tier2(b);
    return b;
}

void *rt_board_make(const GdlGame *game, bool cc, double sample_seconds, GtStore *store, RtControl *ctl, char **why)
{
    Board *b = base_xcalloc(1, sizeof *b);
    b->game = game;
    b->store = store;
    b->ctl = ctl;
    b->sample_seconds = sample_seconds > 0 && sample_seconds < BOARD_SAMPLE_SECONDS ? sample_seconds : BOARD_SAMPLE_SECONDS;
    if (board_build_whole(b, cc, why, why) <= 0) {
        board_free(b);
        return NULL;
    }
    return b;
}

static void board_destroy(void *e)
{
    Board *b = e;
    if (b && b->goal) {
        rt_engine_jit_goal.destroy(b->goal);
        b->goal = NULL;
    }
    board_free(b);
}

static const char *board_plan(const void *e)
{
    const Board *b = e;
    return b->plan2 ? b->plan2 : b->plan;
}

/* Queries of a machine whose game the board declined: the goal-directed
 * code's. */
static EngineStatus via_initial(void *e, U32Vec *facts)
{
    Board *b = e;
    return b->goal ? rt_engine_jit_goal.initial(b->goal, facts) : board_initial(e, facts);
}

static EngineStatus via_legal(void *e, const Gt *s, uint32_t n, uint32_t role, U32Vec *moves)
{
    Board *b = e;
    return b->goal ? rt_engine_jit_goal.legal(b->goal, s, n, role, moves) : board_legal(e, s, n, role, moves);
}

static EngineStatus via_next(void *e, const Gt *s, uint32_t n, const Gt *joint, U32Vec *facts)
{
    Board *b = e;
    return b->goal ? rt_engine_jit_goal.next(b->goal, s, n, joint, facts) : board_next(e, s, n, joint, facts);
}

static EngineStatus via_terminal(void *e, const Gt *s, uint32_t n, bool *terminal)
{
    Board *b = e;
    return b->goal ? rt_engine_jit_goal.terminal(b->goal, s, n, terminal) : board_terminal(e, s, n, terminal);
}

static EngineStatus via_goals(void *e, const Gt *s, uint32_t n, U32Vec *values)
{
    Board *b = e;
    return b->goal ? rt_engine_jit_goal.goals(b->goal, s, n, values) : board_goals(e, s, n, values);
}


/* Answers in canonical order (the moves' ranks are known); and the same
 * under the names of the engines whose plan plays the board (hybrid.c). */
#define BOARD_OPS(name, sorted)                                                                                   \
    {name, NULL, board_destroy, via_initial, via_legal, via_next, via_terminal, via_goals, ENGINE_ARG_OPTIONAL,   \
     NULL, sorted, NULL, board_made_facts, board_next_facts, board_plan, NULL}
static const EngineOps board_sorted = BOARD_OPS("board", true);
static const EngineOps board_as[2][2] = {{BOARD_OPS("jit", false), BOARD_OPS("jit", true)},
                                         {BOARD_OPS("aot", false), BOARD_OPS("aot", true)}};

const EngineOps *rt_board_ops(const void *board, bool aot)
{
    const Board *b = board;
    return &board_as[aot][b->rank != NULL];
}

static const EngineOps *board_resolve(const EngineOps *ops, void **engine)
{
    Board *b = *engine;
    return !b->goal && b->rank ? &board_sorted : ops;
}

const EngineOps rt_engine_board = {"board", board_create, board_destroy, via_initial, via_legal, via_next,
                                   via_terminal, via_goals, ENGINE_ARG_OPTIONAL, NULL, false, NULL, board_made_facts,
                                   board_next_facts, board_plan, board_resolve};

char *rt_board_c(const GdlGame *game, size_t *len, char **err)
{
    GtStore store;
    Symtab syms;
    symtab_init(&syms);
    for (uint32_t i = 0; i < game->front.syms.n; i++)
        symtab_intern(&syms, symtab_str(&game->front.syms, i), game->front.syms.len[i]);
    gt_init(&store, &syms);
    RtControl ctl = {0};
    Board *b = base_xcalloc(1, sizeof *b);
    b->game = game;
    b->store = &store;
    b->ctl = &ctl;
    char *code = board_code(b, len, err);
    board_free(b);
    gt_free(&store);
    symtab_free(&syms);
    free(ctl.error);
    return code;
}
