/*
 * batch.c: the batched engine (gdl_batch_*): many random playouts at once
 * over the game's propositional network, one bit per lane.
 *
 * Layout. Every component of the network (engine pn's: the same grounding
 * and optimisations, without its phases, guards or drain orders) is a row
 * of W = lanes / 64 words, bit l of the row the component's value in lane
 * l. A base proposition's row is the lanes' state, an input's row their
 * joint moves; a gate's row is computed from its inputs' rows by one
 * bitwise operation per word, every lane at once. Nothing branches on a
 * lane's value except the drawing of moves.
 *
 * Schedule. The gates are sorted in topological order (pn_sccs) and split
 * in three programs by what they read and who reads them:
 *   - state: the gates that read no input and that play needs (terminal,
 *     the legal moves, the state parts of next);
 *   - goals: the gates only the goals need, run only in a pass where some
 *     lane is terminal;
 *   - move: the gates that read an input (next's).
 * A cyclic strongly connected component (hex's connected cells) is a block
 * of its own: its rows are cleared and its gates run until no word
 * changes, the least fixpoint engine pn computes.
 *
 * A pass. Run the state program. Lanes that are terminal report their
 * goals (after the goals program), and lanes that reached the step cap
 * draw their moves as a single playout does before it stops; both restart
 * from the initial state, whose rows for the state program and the bases
 * were computed once when the batch was made and are blended into the
 * restarting lanes (a word operation per row), so that no lane idles.
 * Every lane then draws one move per role: the role's legal rows, in the
 * API's canonical order of moves, are transposed 64 by 64 into a bitset
 * per lane, and the lane's generator picks the k-th set bit as
 * gdl_state_random_joint_move picks the k-th move. The chosen inputs'
 * bits are set, the move program runs, and every base takes its next row.
 *
 * Lanes and seeds. Lane i has its own generator seeded seed + i, restarts
 * and caps as `gdlc bench` plays them back to back: lane i plays exactly
 * the playouts a single machine plays with that seed, which is what
 * `gdlc verify --batch` checks against ref.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../compile/pipeline.h"
#include "api_shared.h"
#include "rng.h"
#include "runtime.h"

#define HOT_INLINE __attribute__((always_inline))
#if defined(HOT_CLONES)
/* given by the build (empty: one version, for the flags given) */
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_THREAD__) && !defined(__clang__)
#define HOT_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define HOT_CLONES
#endif

typedef unsigned __int128 u128;

/* A role of at most SMALL_ROLE legal moves has them gathered by 8 x 8
 * transposes (legal_bytes) and sets its moves' rows from one-hot rows
 * (gather); a larger one by 64 x 64 transposes and lane by lane. */
enum { SMALL_ROLE = 32 };

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

enum { OP_AND = 0, OP_OR = 1, OP_NOT = 2, OP_SCC = 3 };
#define OP_SHIFT 28
#define OP_COUNT ((1u << OP_SHIFT) - 1)

/* x % n by one reduction to 32 + 15 bits and Lemire's 64-bit direct
 * remainder: m = ceil(2^64 / n), c = 2^32 % n; exact for n <= MOD32_MAX
 * (Lemire, Kaser and Kurz 2019, theorem 1: F = 64 >= N + log2 n with
 * N = 32 + log2 n). Three multiplies where the 128-bit one takes five. */
typedef struct Mod32 {
    uint64_t m, c;
} Mod32;
enum { MOD32_MAX = 1 << 15 };

typedef struct BatchRole {
    uint32_t nlegal;    /* the role's legal sentences, in canonical order of their moves */
    uint32_t nblocks;   /* (nlegal + 63) / 64 */
    uint32_t block0;    /* where its blocks start in a lane's legal bits */
    uint32_t *legal;    /* row offset of each */
    uint32_t *set_at;   /* the rows a lane's choice of move i sets: set[set_at[i] .. set_at[i + 1]) */
    uint32_t t0;        /* a small role's: where its moves' words start in a pass's one-hot rows */
    uint32_t slot;      /* a small role's: its row of picks (lanes bytes each) */
    uint32_t nbits;     /* a small role's: the bits of a move's index (ceil(log2 nlegal)) */
    uint32_t *set;      /* (its input's and the scattered rows that list that input) */
    Gt *move;           /* its move, a term of the machine's store */
    u128 *magic;        /* ceil(2^128 / n) for n = 2 .. nlegal (fastmod) */
    Mod32 *mod;         /* for n = 1 .. nlegal when nlegal <= MOD32_MAX (fastmod32) */
    uint32_t ngoals;
    uint32_t *goal;     /* row offset of each (goal r v) */
    int *value;         /* its v, 0..100, or -1 when v is no such number */
} BatchRole;

/* What every batch of a network shares and none writes once made. */
typedef struct BatchNet {
    _Atomic unsigned refs;
    unsigned W;         /* words a row */
    uint32_t ncomp;
    uint32_t nroles;
    BatchRole *roles;
    U32Vec prog[3];     /* state, goals, move */
    uint32_t ngates[3];
    uint32_t max_scc;   /* the most gates of a cyclic block */
    bool by_changes;    /* gdl_batch_new's choice of evaluation for the state program */
    uint64_t nlinks[3];
    uint32_t nbase;
    uint32_t *base;     /* row offset of each base proposition */
    uint32_t *next;     /* row offset of its next component, UINT32_MAX: never true */
    Gt *fact;
    uint32_t fact_cap;  /* open addressing: fact -> its base index + 1 */
    uint32_t *fact_tab;
    uint32_t nchange;   /* bases whose row a pass writes (the fixed ones are constants) */
    uint8_t *fixed;     /* per base: 0 it changes, 1 always true, 2 never true */
    uint32_t *change;   /* their indices in base[] */
    uint32_t nrows;     /* the components' rows, then the scattered ones and their NOTs */
    U32Vec zero;        /* the rows the moves set, cleared every pass */
    uint32_t nscatter;  /* rows scattered from the moves */
    uint32_t terminal;  /* row offset */
    U32Vec init_on, init_off; /* rows of the bases and state gates true, false in the initial state */
    U32Vec read_on, read_off; /* those of them that a pass reads after its restarts: the
                               * bases, the legal rows and what the move program and
                               * the next rows read (whole evaluation remakes the rest) */
    U32Vec ones;        /* constant rows that are true */
    uint32_t nblocks;   /* the blocks of every role: a lane's legal bits */
    /* the rows the small roles' moves set, gathered from one-hot rows (a
     * row per move, the lanes that drew it): row g_row[i] is the OR of
     * one-hot rows g_t[g_at[i] .. g_at[i + 1]) */
    uint32_t nt;        /* one-hot rows a pass (the small roles' moves) */
    uint32_t nsmall;    /* small roles */
    uint32_t ngather;
    uint32_t *g_row, *g_at, *g_t;
    char *plan;
} BatchNet;

enum { PROG_STATE = 0, PROG_GOALS = 1, PROG_MOVE = 2 };

struct GdlBatch {
    BatchNet *net;
    GdlMachine *m;
    unsigned lanes, W;
    uint64_t *rows;     /* nrows x W words */
    uint64_t *nextbuf;  /* nchange x W */
    uint64_t *bits;     /* lanes x nblocks: the legal moves of the state each lane moved from */
    uint8_t *bytes;     /* lanes x 4: a small role's legal moves per lane (legal_bytes) */
    uint8_t *pick;      /* small roles x lanes: the index of the move drawn per lane */
    uint64_t *onehot_rows; /* W x nt: per small role's move, the lanes that drew it */
    uint64_t *ended_mask; /* W words: the lanes whose playout ended in the last pass */
    GdlRng *rng;
    uint64_t *first;    /* lanes: each lane's first draw of a role's move (draw) */
    bool pdep;          /* the k-th legal move by pdep (rt_batch_pdep when made) */
    uint64_t *steps;    /* per lane, the steps of its playout so far */
    uint8_t *ended;     /* per lane: GDL_BATCH_* of its last pass */
    int *goals;         /* lanes x nroles: the goals of the playout that ended */
    uint64_t *ended_steps; /* per lane: the length of the playout that ended */
    uint32_t *choice;   /* lanes x nroles: the index of the move drawn in the legal list */
    uint64_t max_steps;
    double deadline;
    const volatile int *cancel;
    GdlBatchStats total;
    bool moved;         /* a pass has run: choice and the legal rows are the last pass's */
    int bug;            /* rt_batch_plant's, for tests (0: none) */
    bool fresh;         /* the state program's rows are the bases' (gdl_batch_legal_mask, ...) */
    bool by_changes;    /* the state program by changed rows (run_prog_changed), not whole */
    bool counting;      /* count the words the state program reads into work */
    uint64_t work;
    uint8_t *chg;       /* per row: changed since the last pass (by_changes) */
    uint64_t *old;      /* a cyclic block's rows before it runs again */
    /* gdl_batch_playouts: the states to play out from and what came of them */
    const GdlState *const *jobs;
    size_t njobs, next_job, jobs_done;
    int64_t *job;       /* per lane: the index of the state it plays out from, -1: none */
    int *job_goals;     /* njobs x nroles */
    char *err;
    char *plan;         /* gdl_batch_plan's */
    size_t own_bytes;   /* what batch_alloc allocated */
};

/* ---- making the network's programs ------------------------------------- */

static void emit_gate(U32Vec *p, const Propnet *pn, uint32_t c, unsigned W)
{
    const PnComp *k = &pn->comps.v[c];
    uint32_t op = k->kind == PN_AND ? OP_AND : k->kind == PN_OR ? OP_OR : OP_NOT;
    vec_push(*p, op << OP_SHIFT | k->nin);
    vec_push(*p, c * W);
    for (uint32_t i = 0; i < k->nin; i++)
        vec_push(*p, pn->in.v[k->in_at + i] * W);
}

static void emit_raw(U32Vec *p, uint32_t op, uint32_t dest, const uint32_t *in, uint32_t nin, unsigned W)
{
    vec_push(*p, op << OP_SHIFT | nin);
    vec_push(*p, dest * W);
    for (uint32_t i = 0; i < nin; i++)
        vec_push(*p, in[i] * W);
}

static bool is_gate(const Propnet *pn, uint32_t c)
{
    uint8_t kind = pn->comps.v[c].kind;
    return kind == PN_AND || kind == PN_OR || kind == PN_NOT;
}

/* Marks in need every component c's value depends on, c included. */
static void need_from(const Propnet *pn, uint32_t c, uint8_t *need, uint8_t bit, U32Vec *stack)
{
    if (c == PN_NONE || (need[c] & bit))
        return;
    need[c] |= bit;
    vec_push(*stack, c);
    while (stack->n) {
        uint32_t x = stack->v[--stack->n];
        const PnComp *k = &pn->comps.v[x];
        for (uint32_t i = 0; i < k->nin; i++) {
            uint32_t y = pn->in.v[k->in_at + i];
            if (!(need[y] & bit)) {
                need[y] |= bit;
                vec_push(*stack, y);
            }
        }
    }
}

/* Evaluates the gates of the network for one lane, in topological order
 * (cycles from false to their least fixpoint, as pn's evaluation), from
 * the bases and inputs in val. */
static void eval_one(const Propnet *pn, const U32Vec *order, const U32Vec *at, uint32_t nsccs, uint8_t *val)
{
    for (uint32_t s = 0; s < nsccs; s++) {
        for (uint32_t j = at->v[s]; j < at->v[s + 1]; j++)
            if (is_gate(pn, order->v[j]))
                val[order->v[j]] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t j = at->v[s]; j < at->v[s + 1]; j++) {
                uint32_t c = order->v[j];
                const PnComp *k = &pn->comps.v[c];
                if (!is_gate(pn, c))
                    continue;
                uint32_t on = 0;
                for (uint32_t i = 0; i < k->nin; i++)
                    on += val[pn->in.v[k->in_at + i]];
                uint8_t v = k->kind == PN_AND ? on == k->nin : k->kind == PN_OR ? on > 0 : on == 0;
                if (v != val[c])
                    val[c] = v, changed = true;
            }
        }
    }
}

/* The initial state, one lane, inputs off: val. */
static void eval_init(const Propnet *pn, const U32Vec *order, const U32Vec *at, uint32_t nsccs, uint8_t *val)
{
    memset(val, 0, pn->comps.n);
    for (uint32_t i = 0; i < pn->base.n; i++)
        if (pn->comps.v[pn->base.v[i].comp].kind == PN_BASE)
            val[pn->base.v[i].comp] = pn->base.v[i].init;
    for (uint32_t c = 0; c < pn->comps.n; c++)
        if (pn->comps.v[c].kind == PN_CONST)
            val[c] = pn->comps.v[c].const_value;
    eval_one(pn, order, at, nsccs, val);
}

/* How often each input is played (per component, out of *steps), over
 * random playouts of one lane: SAMPLE_STEPS steps at most, and no more
 * than SAMPLE_WORK gate visits. The scattering reads the inputs played in
 * most states (a noop) directly. */
enum { SAMPLE_STEPS = 256, SAMPLE_WORK = 20000000 };
static void sample_inputs(const Propnet *pn, const U32Vec *order, const U32Vec *at, uint32_t nsccs, uint32_t *played,
                          uint32_t *steps)
{
    uint32_t n = pn->comps.n;
    uint8_t *val = base_xcalloc(n + 1, 1), *nx = base_xcalloc(pn->base.n + 1, 1);
    U32Vec legal = {0};
    GdlRng rng;
    gdl_rng_seed(&rng, 1);
    uint64_t work = 0, per = pn_links(pn) + n;
    *steps = 0;
    eval_init(pn, order, at, nsccs, val);
    while (*steps < SAMPLE_STEPS && work + per < SAMPLE_WORK) {
        bool stuck = false;
        if (val[pn->terminal]) {
            eval_init(pn, order, at, nsccs, val);
            work += per;
        }
        for (uint32_t i = 0; i < pn->inputs.n; i++)
            val[pn->inputs.v[i].comp] = 0;
        for (uint32_t k = 0; k < pn->roles.n && !stuck; k++) {
            const PnRole *r = &pn->roles.v[k];
            legal.n = 0;
            for (uint32_t i = 0; i < r->legal.n; i++)
                if (val[r->legal.v[i].comp] && r->legal.v[i].input != PN_NONE)
                    vec_push(legal, pn->inputs.v[r->legal.v[i].input].comp);
            if (!legal.n) {
                stuck = true;
                break;
            }
            uint32_t c = legal.v[rt_rng_below(&rng, legal.n)];
            val[c] = 1;
            played[c]++;
        }
        if (stuck)
            break;
        eval_one(pn, order, at, nsccs, val);
        work += per;
        for (uint32_t i = 0; i < pn->base.n; i++)
            nx[i] = pn->base.v[i].next == PN_NONE ? 0 : val[pn->base.v[i].next];
        for (uint32_t i = 0; i < pn->base.n; i++)
            if (pn->comps.v[pn->base.v[i].comp].kind == PN_BASE)
                val[pn->base.v[i].comp] = nx[i];
        eval_one(pn, order, at, nsccs, val);
        work += per;
        ++*steps;
    }
    vec_free(legal);
    free(val);
    free(nx);
}

static void net_free(BatchNet *n)
{
    if (!n)
        return;
    for (uint32_t k = 0; k < n->nroles; k++) {
        BatchRole *r = &n->roles[k];
        free(r->legal);
        free(r->set_at);
        free(r->set);
        free(r->magic);
        free(r->mod);
        free(r->move);
        free(r->goal);
        free(r->value);
    }
    free(n->roles);
    for (int i = 0; i < 3; i++)
        vec_free(n->prog[i]);
    free(n->base);
    free(n->next);
    free(n->fact);
    free(n->fact_tab);
    free(n->fixed);
    free(n->change);
    vec_free(n->zero);
    vec_free(n->init_on);
    vec_free(n->init_off);
    vec_free(n->read_on);
    vec_free(n->read_off);
    vec_free(n->ones);
    free(n->g_row);
    free(n->g_at);
    free(n->g_t);
    free(n->plan);
    free(n);
}

/* Scattering. An OR of the move program that reads many inputs (Breakthrough's
 * "no move touched this cell": an OR of some 300 moves) would read them all
 * every pass, although each lane sets one input per role. Its inputs of
 * role r become one row set by the lanes whose move is among them (the
 * rows a lane's move sets: BatchRole.set), or, when they are most of the
 * role's inputs, the NOT of the row of the others (exactly one input of
 * each role is set in every lane), or a true row when they are all. */
enum { SCATTER_MIN = 4, SCATTER_HEAVY = 16 };
typedef struct Scatter {
    uint32_t nroles;
    U32Vec *inputs;     /* per role, its input components */
    uint8_t *whole;     /* per role: every legal move has an input (complements are exact) */
    uint32_t *mark;     /* per component: the stamp of the gate that marked it as its input */
    uint32_t stamp;
    uint32_t *uses;     /* per component: how many scattered rows would list it */
    uint8_t *heavy;     /* per component: an input the gates read rather than scatter */
    U32Vec pair_in, pair_row; /* (input component, scattered row) */
    uint32_t one;       /* a true row, once one is needed (0: none yet) */
    /* the rows made so far, to share one between gates that scatter the
     * same inputs (every "the other role played noop"): by a hash of the
     * inputs, open addressing; each row's inputs are pair_in[at .. at + n) */
    struct ScatterRow { uint64_t hash; uint32_t row, at, n; } *tab;
    uint32_t tab_cap, tab_n;
    U32Vec set;         /* scratch: the inputs of the row being made */
} Scatter;

/* The row, made or shared, set by the lanes whose move is one of sc->set's
 * inputs. */
static uint32_t scatter_row(BatchNet *b, Scatter *sc, unsigned W)
{
    uint64_t h = 1469598103934665603ULL;
    for (uint32_t i = 0; i < sc->set.n; i++)
        h = (h ^ sc->set.v[i]) * 1099511628211ULL;
    if (2 * (sc->tab_n + 1) > sc->tab_cap) {
        uint32_t cap = sc->tab_cap ? 2 * sc->tab_cap : 64;
        struct ScatterRow *t = base_xcalloc(cap, sizeof *t);
        for (uint32_t i = 0; i < sc->tab_cap; i++)
            if (sc->tab[i].n) {
                uint32_t j = (uint32_t)sc->tab[i].hash & (cap - 1);
                while (t[j].n)
                    j = (j + 1) & (cap - 1);
                t[j] = sc->tab[i];
            }
        free(sc->tab);
        sc->tab = t;
        sc->tab_cap = cap;
    }
    uint32_t j = (uint32_t)h & (sc->tab_cap - 1);
    for (; sc->tab[j].n; j = (j + 1) & (sc->tab_cap - 1))
        if (sc->tab[j].hash == h && sc->tab[j].n == sc->set.n &&
            memcmp(sc->pair_in.v + sc->tab[j].at, sc->set.v, sc->set.n * sizeof *sc->set.v) == 0)
            return sc->tab[j].row;
    uint32_t t = b->nrows++;
    b->nscatter++;
    vec_push(b->zero, t * W);
    sc->tab[j] = (struct ScatterRow){.hash = h, .row = t, .at = sc->pair_in.n, .n = sc->set.n};
    sc->tab_n++;
    for (uint32_t i = 0; i < sc->set.n; i++) {
        vec_push(sc->pair_in, sc->set.v[i]);
        vec_push(sc->pair_row, t);
    }
    return t;
}

/* Emits gate c of the move program, its inputs scattered when it pays; or,
 * when counting, only counts in sc->uses how many rows would list each
 * input. An input that many rows would list (a noop, which the role whose
 * turn it is not plays in every lane) is read by the gate instead. */
static void emit_move_gate(BatchNet *b, Scatter *sc, const Propnet *pn, uint32_t c, const uint32_t *role_of,
                           unsigned W, bool counting)
{
    const PnComp *k = &pn->comps.v[c];
    U32Vec *p = &b->prog[PROG_MOVE];
    uint32_t direct = 0;
    for (uint32_t i = 0; i < k->nin; i++)
        direct += pn->comps.v[pn->in.v[k->in_at + i]].kind == PN_INPUT;
    if (k->kind != PN_OR || direct < SCATTER_MIN) {
        if (!counting) {
            emit_gate(p, pn, c, W);
            b->nlinks[PROG_MOVE] += k->nin;
        }
        return;
    }
    U32Vec ins = {0};
    uint32_t *count = base_xcalloc(sc->nroles + 1, sizeof *count), stamp = ++sc->stamp;
    for (uint32_t i = 0; i < k->nin; i++) {
        uint32_t x = pn->in.v[k->in_at + i];
        if (pn->comps.v[x].kind != PN_INPUT)
            vec_push(ins, x);
        else if (sc->mark[x] != stamp) {
            sc->mark[x] = stamp;
            count[role_of[x]]++;
        }
    }
    for (uint32_t r = 0; r < sc->nroles; r++) {
        const U32Vec *all = &sc->inputs[r];
        if (!count[r])
            continue;
        if (count[r] == all->n && sc->whole[r]) {
            if (!counting && !sc->one) {
                sc->one = b->nrows++;
                vec_push(b->ones, sc->one * W);
            }
            vec_push(ins, sc->one);
            continue;
        }
        bool flip = sc->whole[r] && all->n - count[r] < count[r];
        sc->set.n = 0;
        uint32_t heavy0 = ins.n; /* the heavy inputs of the set, read directly */
        for (uint32_t i = 0; i < all->n; i++)
            if ((sc->mark[all->v[i]] == stamp) != flip) {
                if (counting)
                    sc->uses[all->v[i]]++;
                else if (sc->heavy[all->v[i]])
                    vec_push(ins, all->v[i]);
                else
                    vec_push(sc->set, all->v[i]);
            }
        if (counting)
            continue;
        uint32_t t = UINT32_MAX;
        if (sc->set.n)
            t = scatter_row(b, sc, W);
        if (flip) {
            /* NOT(the others): NOT(OR(their row, their heavy inputs)) */
            uint32_t nh = ins.n - heavy0;
            if (t != UINT32_MAX)
                vec_push(ins, t);
            uint32_t u = b->nrows++;
            emit_raw(p, OP_OR, u, ins.v + heavy0, ins.n - heavy0, W);
            b->nlinks[PROG_MOVE] += ins.n - heavy0;
            uint32_t v = b->nrows++;
            emit_raw(p, OP_NOT, v, &u, 1, W);
            b->ngates[PROG_MOVE] += 2;
            b->nlinks[PROG_MOVE]++;
            ins.n = heavy0;
            (void)nh;
            vec_push(ins, v);
        } else if (t != UINT32_MAX) {
            vec_push(ins, t);
        }
    }
    if (!counting) {
        emit_raw(p, OP_OR, c, ins.v, ins.n, W);
        b->nlinks[PROG_MOVE] += ins.n;
    }
    vec_free(ins);
    free(count);
}

/* The programs of pn for rows of W words (NULL with *err: a network the
 * batch cannot play). */
static BatchNet *net_make(const Propnet *pn, GtStore *store, unsigned W, char **err)
{
    uint32_t n = pn->comps.n;
    BatchNet *b = base_xcalloc(1, sizeof *b), *made = NULL;
    atomic_init(&b->refs, 1);
    b->W = W;
    b->ncomp = n;
    U32Vec order = {0}, at = {0}, stack = {0};
    uint32_t nsccs = pn_sccs(pn, &order, &at);
    /* which components read an input, and who needs them */
    uint8_t *dyn = base_xcalloc(n + 1, 1), *need = base_xcalloc(n + 1, 1), *val = base_xcalloc(n + 1, 1);
    for (uint32_t s = 0; s < nsccs; s++) {
        uint8_t d = 0;
        for (uint32_t j = at.v[s]; j < at.v[s + 1]; j++) {
            uint32_t c = order.v[j];
            const PnComp *k = &pn->comps.v[c];
            d |= k->kind == PN_INPUT;
            for (uint32_t i = 0; i < k->nin; i++)
                d |= dyn[pn->in.v[k->in_at + i]];
        }
        for (uint32_t j = at.v[s]; j < at.v[s + 1]; j++)
            dyn[order.v[j]] = d;
    }
    enum { NEED_PLAY = 1, NEED_GOAL = 2 };
    need_from(pn, pn->terminal, need, NEED_PLAY, &stack);
    for (uint32_t k = 0; k < pn->roles.n; k++) {
        const PnRole *r = &pn->roles.v[k];
        for (uint32_t i = 0; i < r->legal.n; i++)
            need_from(pn, r->legal.v[i].comp, need, NEED_PLAY, &stack);
        for (uint32_t i = 0; i < r->goals.n; i++)
            need_from(pn, r->goals.v[i].comp, need, NEED_GOAL, &stack);
    }
    for (uint32_t i = 0; i < pn->base.n; i++)
        if (pn->base.v[i].next != pn->base.v[i].comp)
            need_from(pn, pn->base.v[i].next, need, NEED_PLAY, &stack);
    const char *why = NULL;
    if (dyn[pn->terminal])
        why = "terminal depends on the moves";
    for (uint32_t k = 0; !why && k < pn->roles.n; k++) {
        const PnRole *r = &pn->roles.v[k];
        for (uint32_t i = 0; !why && i < r->legal.n; i++)
            if (dyn[r->legal.v[i].comp])
                why = "a legal move depends on the moves";
        for (uint32_t i = 0; !why && i < r->goals.n; i++)
            if (dyn[r->goals.v[i].comp])
                why = "a goal depends on the moves";
    }
    /* the inputs by role, for scattering */
    b->nrows = n;
    Scatter sc = {.nroles = pn->roles.n};
    sc.inputs = base_xcalloc(sc.nroles + 1, sizeof *sc.inputs);
    sc.whole = base_xcalloc(sc.nroles + 1, 1);
    sc.mark = base_xcalloc(n + 1, sizeof *sc.mark);
    sc.uses = base_xcalloc(n + 1, sizeof *sc.uses);
    uint32_t *role_of = base_xcalloc(n + 1, sizeof *role_of);
    for (uint32_t i = 0; i < pn->inputs.n; i++) {
        vec_push(sc.inputs[pn->inputs.v[i].role], pn->inputs.v[i].comp);
        role_of[pn->inputs.v[i].comp] = pn->inputs.v[i].role;
    }
    for (uint32_t k = 0; k < sc.nroles; k++) {
        sc.whole[k] = 1;
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
            sc.whole[k] &= pn->roles.v[k].legal.v[i].input != PN_NONE;
    }
    for (uint32_t i = 0; i < pn->inputs.n; i++)
        vec_push(b->zero, pn->inputs.v[i].comp * W);
    for (uint32_t s = 0; s < nsccs; s++) {
        uint32_t c0 = order.v[at.v[s]];
        if (at.v[s + 1] - at.v[s] == 1 && is_gate(pn, c0) && need[c0] && dyn[c0])
            emit_move_gate(b, &sc, pn, c0, role_of, W, true);
    }
    /* heavy: listed by many rows, and played in more than one state in 16
     * (a lane then sets as many rows as the gates would read words) */
    sc.heavy = base_xcalloc(n + 1, 1);
    {
        uint32_t *played = base_xcalloc(n + 1, sizeof *played), steps = 0;
        sample_inputs(pn, &order, &at, nsccs, played, &steps);
        for (uint32_t i = 0; i < pn->inputs.n; i++) {
            uint32_t c = pn->inputs.v[i].comp;
            sc.heavy[c] = sc.uses[c] > SCATTER_HEAVY && (uint64_t)played[c] * 16 > steps;
        }
        free(played);
    }
    /* the programs, in topological order */
    for (uint32_t s = 0; !why && s < nsccs; s++) {
        uint32_t c0 = order.v[at.v[s]];
        if (!is_gate(pn, c0) || !need[c0])
            continue;
        int prog = dyn[c0] ? PROG_MOVE : (need[c0] & NEED_PLAY) ? PROG_STATE : PROG_GOALS;
        U32Vec *p = &b->prog[prog];
        uint32_t size = at.v[s + 1] - at.v[s];
        bool cyclic = size > 1;
        if (size == 1) {
            const PnComp *k = &pn->comps.v[c0];
            for (uint32_t i = 0; i < k->nin; i++)
                cyclic |= pn->in.v[k->in_at + i] == c0;
        }
        uint32_t head = p->n;
        if (cyclic) {
            vec_push(*p, 0); /* OP_SCC and the block's length, below */
            vec_push(*p, size);
            if (size > b->max_scc)
                b->max_scc = size;
        }
        for (uint32_t j = at.v[s]; j < at.v[s + 1]; j++) {
            uint32_t c = order.v[j];
            if (!is_gate(pn, c)) {
                why = "a cycle through a base or an input";
                break;
            }
            b->ngates[prog]++;
            if (prog == PROG_MOVE && !cyclic) {
                emit_move_gate(b, &sc, pn, c, role_of, W, false);
                continue;
            }
            emit_gate(p, pn, c, W);
            b->nlinks[prog] += pn->comps.v[c].nin;
        }
        if (cyclic) {
            uint32_t len = p->n - head - 2;
            if (len > OP_COUNT)
                why = "a cycle too large";
            p->v[head] = (uint32_t)OP_SCC << OP_SHIFT | len;
        }
    }
    if (why) {
        *err = base_sprintf("the batched engine cannot play this network: %s", why);
        goto fail;
    }
    /* the initial state's rows, to restart lanes */
    eval_init(pn, &order, &at, nsccs, val);
    uint8_t *read = base_xcalloc(n + 1, 1);
    for (uint32_t k = 0; k < pn->roles.n; k++)
        for (uint32_t i = 0; i < pn->roles.v[k].legal.n; i++)
            read[pn->roles.v[k].legal.v[i].comp] = 1;
    for (uint32_t i = 0; i < pn->base.n; i++)
        if (pn->base.v[i].next != PN_NONE)
            read[pn->base.v[i].next] = 1;
    for (uint32_t c = 0; c < n; c++)
        if (is_gate(pn, c) && dyn[c] && need[c]) {
            const PnComp *k = &pn->comps.v[c];
            for (uint32_t i = 0; i < k->nin; i++)
                read[pn->in.v[k->in_at + i]] = 1;
        }
    for (uint32_t c = 0; c < n; c++) {
        const PnComp *k = &pn->comps.v[c];
        bool state_row = k->kind == PN_BASE || (is_gate(pn, c) && !dyn[c] && (need[c] & NEED_PLAY));
        if (state_row) {
            if (val[c])
                vec_push(b->init_on, c * W);
            else
                vec_push(b->init_off, c * W);
            if (k->kind == PN_BASE || read[c]) {
                if (val[c])
                    vec_push(b->read_on, c * W);
                else
                    vec_push(b->read_off, c * W);
            }
        }
        if (k->kind == PN_CONST && k->const_value)
            vec_push(b->ones, c * W);
    }
    free(read);
    if (val[pn->terminal]) {
        why = "the initial state is terminal";
        *err = base_sprintf("the batched engine cannot play this game: %s", why);
        goto fail;
    }
    b->terminal = pn->terminal * W;
    b->nbase = pn->base.n;
    b->base = base_xmalloc((b->nbase + 1) * sizeof *b->base);
    b->next = base_xmalloc((b->nbase + 1) * sizeof *b->next);
    b->fact = base_xmalloc((b->nbase + 1) * sizeof *b->fact);
    b->change = base_xmalloc((b->nbase + 1) * sizeof *b->change);
    b->fixed = base_xcalloc(b->nbase + 1, 1);
    for (uint32_t i = 0; i < b->nbase; i++) {
        const PnBase *pb = &pn->base.v[i];
        b->base[i] = pb->comp * W;
        b->next[i] = pb->next == PN_NONE ? UINT32_MAX : pb->next * W;
        b->fact[i] = pb->fact;
        if (pn->comps.v[pb->comp].kind == PN_BASE)
            b->change[b->nchange++] = i;
        else
            b->fixed[i] = pn->comps.v[pb->comp].const_value ? 1 : 2;
    }
    for (b->fact_cap = 16; b->fact_cap < 2 * b->nbase + 2; b->fact_cap *= 2)
        ;
    b->fact_tab = base_xcalloc(b->fact_cap, sizeof *b->fact_tab);
    for (uint32_t i = 0; i < b->nbase; i++) {
        uint32_t j = (b->fact[i] * 2654435761u) & (b->fact_cap - 1);
        while (b->fact_tab[j])
            j = (j + 1) & (b->fact_cap - 1);
        b->fact_tab[j] = i + 1;
    }
    /* per input component, the scattered rows that list it */
    uint32_t *sat = base_xcalloc(n + 2, sizeof *sat), *srow = base_xmalloc((sc.pair_in.n + 1) * sizeof *srow);
    for (uint32_t i = 0; i < sc.pair_in.n; i++)
        sat[sc.pair_in.v[i] + 1]++;
    for (uint32_t c = 0; c < n; c++)
        sat[c + 1] += sat[c];
    uint32_t *fill = base_xcalloc(n + 1, sizeof *fill);
    for (uint32_t i = 0; i < sc.pair_in.n; i++) {
        uint32_t c = sc.pair_in.v[i];
        srow[sat[c] + fill[c]++] = sc.pair_row.v[i] * W;
    }
    free(fill);
    b->nroles = pn->roles.n;
    b->roles = base_xcalloc(b->nroles + 1, sizeof *b->roles);
    for (uint32_t k = 0; k < b->nroles; k++) {
        const PnRole *pr = &pn->roles.v[k];
        BatchRole *r = &b->roles[k];
        r->nlegal = pr->legal.n;
        r->nblocks = (r->nlegal + 63) / 64;
        r->block0 = b->nblocks;
        b->nblocks += r->nblocks;
        r->legal = base_xmalloc((r->nlegal + 1) * sizeof *r->legal);
        uint32_t *input = base_xmalloc((r->nlegal + 1) * sizeof *input);
        r->move = base_xmalloc((r->nlegal + 1) * sizeof *r->move);
        /* the moves in canonical order (the API's), each with its entry */
        for (uint32_t i = 0; i < r->nlegal; i++)
            r->move[i] = pr->legal.v[i].move;
        gt_sort(store, r->move, r->nlegal);
        for (uint32_t i = 0; i < r->nlegal; i++) {
            const PnLegal *l = &pr->legal.v[i];
            uint32_t lo = 0, hi = r->nlegal;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (gt_cmp(store, r->move[mid], l->move) < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            r->legal[lo] = l->comp * W;
            input[lo] = l->input == PN_NONE ? UINT32_MAX : pn->inputs.v[l->input].comp;
        }
        r->set_at = base_xcalloc(r->nlegal + 1, sizeof *r->set_at);
        U32Vec set = {0};
        for (uint32_t i = 0; i < r->nlegal; i++) {
            uint32_t c = input[i];
            if (c != UINT32_MAX) {
                vec_push(set, c * W);
                for (uint32_t j = sat[c]; j < sat[c + 1]; j++)
                    vec_push(set, srow[j]);
            }
            r->set_at[i + 1] = set.n;
        }
        r->set = set.v ? set.v : base_xcalloc(1, sizeof *r->set);
        free(input);
        r->magic = base_xcalloc(r->nlegal + 2, sizeof *r->magic); /* magic[1] = 0 */
        for (uint32_t d = 2; d <= r->nlegal; d++)
            r->magic[d] = ~(u128)0 / d + 1;
        if (r->nlegal <= MOD32_MAX) {
            r->mod = base_xcalloc(r->nlegal + 2, sizeof *r->mod); /* mod[1] = {0, 0} */
            for (uint32_t d = 2; d <= r->nlegal; d++)
                r->mod[d] = (Mod32){UINT64_MAX / d + 1, ((uint64_t)1 << 32) % d};
        }
        r->ngoals = pr->goals.n;
        r->goal = base_xmalloc((r->ngoals + 1) * sizeof *r->goal);
        r->value = base_xmalloc((r->ngoals + 1) * sizeof *r->value);
        for (uint32_t i = 0; i < r->ngoals; i++) {
            r->goal[i] = pr->goals.v[i].comp * W;
            r->value[i] = pr->goals.v[i].value == PN_NONE ? -1 : (int)pr->goals.v[i].value;
        }
    }
    /* the small roles' rows, gathered from one-hot rows */
    {
        VEC(uint64_t) pairs = {0}; /* row << 32 | t */
        for (uint32_t k = 0; k < b->nroles; k++) {
            BatchRole *r = &b->roles[k];
            if (r->nlegal > SMALL_ROLE)
                continue;
            r->t0 = b->nt;
            r->slot = b->nsmall++;
            while ((1u << r->nbits) < r->nlegal)
                r->nbits++;
            b->nt += r->nlegal;
            for (uint32_t i = 0; i < r->nlegal; i++)
                for (uint32_t j = r->set_at[i]; j < r->set_at[i + 1]; j++)
                    vec_push(pairs, (uint64_t)r->set[j] << 32 | (r->t0 + i));
        }
        if (pairs.n)
            qsort(pairs.v, pairs.n, sizeof *pairs.v, u64_cmp);
        b->g_row = base_xmalloc((pairs.n + 1) * sizeof *b->g_row);
        b->g_at = base_xmalloc((pairs.n + 2) * sizeof *b->g_at);
        b->g_t = base_xmalloc((pairs.n + 1) * sizeof *b->g_t);
        for (uint32_t i = 0; i < pairs.n; i++) {
            uint32_t row = (uint32_t)(pairs.v[i] >> 32);
            if (!b->ngather || b->g_row[b->ngather - 1] != row) {
                b->g_at[b->ngather] = i;
                b->g_row[b->ngather++] = row;
            }
            b->g_t[i] = (uint32_t)pairs.v[i];
        }
        b->g_at[b->ngather] = pairs.n;
        vec_free(pairs);
    }
    free(sat);
    free(srow);
    b->plan = base_sprintf("%u lanes (%u words a row): %u components; gates "
                           "(links): %u (%llu) of the state, %u (%llu) of the goals (passes where a lane ends), %u (%llu) "
                           "of the moves; %u rows scattered from the moves",
                           W * 64, W, n, b->ngates[PROG_STATE], (unsigned long long)b->nlinks[PROG_STATE],
                           b->ngates[PROG_GOALS], (unsigned long long)b->nlinks[PROG_GOALS], b->ngates[PROG_MOVE],
                           (unsigned long long)b->nlinks[PROG_MOVE], b->nscatter);
    made = b;
fail:
    for (uint32_t k = 0; k < sc.nroles; k++)
        vec_free(sc.inputs[k]);
    free(sc.inputs);
    free(sc.whole);
    free(sc.mark);
    free(sc.uses);
    free(sc.heavy);
    vec_free(sc.pair_in);
    vec_free(sc.pair_row);
    vec_free(sc.set);
    free(sc.tab);
    free(role_of);
    free(dyn);
    free(need);
    free(val);
    vec_free(order);
    vec_free(at);
    vec_free(stack);
    if (!made)
        net_free(b);
    return made;
}

/* The index of fact f among n's bases, or UINT32_MAX. */
static uint32_t base_of(const BatchNet *n, Gt f)
{
    for (uint32_t j = (f * 2654435761u) & (n->fact_cap - 1); n->fact_tab[j]; j = (j + 1) & (n->fact_cap - 1))
        if (n->fact[n->fact_tab[j] - 1] == f)
            return n->fact_tab[j] - 1;
    return UINT32_MAX;
}

/* ---- running the programs ------------------------------------------------ */

/* Runs a program on rows of W words; W is a constant in each caller, so the
 * word loops unroll. */
static inline __attribute__((always_inline)) void run_prog(uint64_t *restrict rows, const uint32_t *p,
                                                           const uint32_t *end, unsigned W)
{
    while (p < end) {
        uint32_t op = p[0] >> OP_SHIFT, cnt = p[0] & OP_COUNT;
        if (op == OP_SCC) {
            const uint32_t *b = p + 2, *e = p + 2 + cnt;
            /* from false, to the least fixpoint */
            for (const uint32_t *q = b; q < e; q += 2 + (q[0] & OP_COUNT))
                for (unsigned w = 0; w < W; w++)
                    rows[q[1] + w] = 0;
            for (bool changed = true; changed;) {
                changed = false;
                for (const uint32_t *q = b; q < e; q += 2 + (q[0] & OP_COUNT)) {
                    uint32_t qop = q[0] >> OP_SHIFT, n = q[0] & OP_COUNT;
                    uint64_t acc[8];
                    for (unsigned w = 0; w < W; w++)
                        acc[w] = qop == OP_AND ? ~(uint64_t)0 : 0;
                    for (uint32_t i = 0; i < n; i++)
                        for (unsigned w = 0; w < W; w++)
                            acc[w] = qop == OP_AND ? acc[w] & rows[q[2 + i] + w] : acc[w] | rows[q[2 + i] + w];
                    if (qop == OP_NOT)
                        for (unsigned w = 0; w < W; w++)
                            acc[w] = ~acc[w];
                    uint64_t diff = 0;
                    for (unsigned w = 0; w < W; w++) {
                        diff |= acc[w] ^ rows[q[1] + w];
                        rows[q[1] + w] = acc[w];
                    }
                    changed |= diff != 0;
                }
            }
            p = e;
            continue;
        }
        uint64_t *restrict d = rows + p[1];
        const uint32_t *in = p + 2;
        uint64_t acc[8];
        if (op == OP_NOT) {
            for (unsigned w = 0; w < W; w++)
                d[w] = ~rows[in[0] + w];
        } else if (op == OP_AND) {
            for (unsigned w = 0; w < W; w++)
                acc[w] = cnt ? rows[in[0] + w] : ~(uint64_t)0;
            for (uint32_t i = 1; i < cnt; i++)
                for (unsigned w = 0; w < W; w++)
                    acc[w] &= rows[in[i] + w];
            for (unsigned w = 0; w < W; w++)
                d[w] = acc[w];
        } else {
            for (unsigned w = 0; w < W; w++)
                acc[w] = cnt ? rows[in[0] + w] : 0;
            for (uint32_t i = 1; i < cnt; i++)
                for (unsigned w = 0; w < W; w++)
                    acc[w] |= rows[in[i] + w];
            for (unsigned w = 0; w < W; w++)
                d[w] = acc[w];
        }
        p = in + cnt;
    }
}

static inline HOT_INLINE void run(GdlBatch *b, int prog);

/* The state program by changed rows: a gate none of whose inputs changed
 * since the last pass keeps its row, unread; chg[row] says whether the
 * row changed (the bases' set by write_next, the gates' here). A cyclic
 * block runs whole when an input changed, its old rows kept in old to
 * tell which changed. *work counts the words read (a flag counts one). */
static inline HOT_INLINE void run_prog_changed(uint64_t *restrict rows, uint8_t *restrict chg, uint64_t *old,
                                               const uint32_t *p, const uint32_t *end, unsigned W, uint64_t *work)
{
    uint64_t words = 0;
    while (p < end) {
        uint32_t op = p[0] >> OP_SHIFT, cnt = p[0] & OP_COUNT;
        if (op == OP_SCC) {
            const uint32_t *b = p + 2, *e = p + 2 + cnt;
            uint8_t any = 0;
            uint32_t k = 0;
            for (const uint32_t *q = b; q < e; q += 2 + (q[0] & OP_COUNT)) {
                for (uint32_t i = 0; i < (q[0] & OP_COUNT); i++)
                    any |= chg[q[2 + i] / W];
                memcpy(old + (size_t)k++ * W, rows + q[1], W * sizeof *rows);
            }
            words += (uint64_t)cnt * (W + 1) / 2;
            if (any) {
                run_prog(rows, p, e, W);
                words += (uint64_t)cnt * W;
            }
            k = 0;
            for (const uint32_t *q = b; q < e; q += 2 + (q[0] & OP_COUNT))
                chg[q[1] / W] = any && memcmp(old + (size_t)k++ * W, rows + q[1], W * sizeof *rows) != 0;
            p = e;
            continue;
        }
        const uint32_t *in = p + 2;
        uint8_t any = 0;
        for (uint32_t i = 0; i < cnt; i++)
            any |= chg[in[i] / W];
        words += (uint64_t)cnt * (W + 1) / 2;
        uint8_t changed = 0;
        if (any) {
            uint64_t acc[8];
            uint64_t *restrict d = rows + p[1];
            if (op == OP_NOT) {
                for (unsigned w = 0; w < W; w++)
                    acc[w] = ~rows[in[0] + w];
            } else {
                for (unsigned w = 0; w < W; w++)
                    acc[w] = cnt ? rows[in[0] + w] : op == OP_AND ? ~(uint64_t)0 : 0;
                for (uint32_t i = 1; i < cnt; i++)
                    for (unsigned w = 0; w < W; w++)
                        acc[w] = op == OP_AND ? acc[w] & rows[in[i] + w] : acc[w] | rows[in[i] + w];
            }
            uint64_t diff = 0;
            for (unsigned w = 0; w < W; w++) {
                diff |= acc[w] ^ d[w];
                d[w] = acc[w];
            }
            changed = diff != 0;
            words += (uint64_t)cnt * W;
        }
        chg[p[1] / W] = changed;
        p = in + cnt;
    }
    if (work)
        *work += words;
}

static inline HOT_INLINE void run_state(GdlBatch *b)
{
    const U32Vec *p = &b->net->prog[PROG_STATE];
    if (!b->by_changes) {
        run(b, PROG_STATE);
        return;
    }
    const uint32_t *s = p->v, *e = u32_at(p, p->n);
    uint64_t *work = b->counting ? &b->work : NULL;
    switch (b->W) {
    case 1: run_prog_changed(b->rows, b->chg, b->old, s, e, 1, work); break;
    case 2: run_prog_changed(b->rows, b->chg, b->old, s, e, 2, work); break;
    case 4: run_prog_changed(b->rows, b->chg, b->old, s, e, 4, work); break;
    case 8: run_prog_changed(b->rows, b->chg, b->old, s, e, 8, work); break;
    default: run_prog_changed(b->rows, b->chg, b->old, s, e, b->W, work); break;
    }
}

static inline HOT_INLINE void run(GdlBatch *b, int prog)
{
    const U32Vec *p = &b->net->prog[prog];
    const uint32_t *s = p->v, *e = u32_at(p, p->n);
    switch (b->W) {
    case 1: run_prog(b->rows, s, e, 1); break;
    case 2: run_prog(b->rows, s, e, 2); break;
    case 4: run_prog(b->rows, s, e, 4); break;
    case 8: run_prog(b->rows, s, e, 8); break;
    default: run_prog(b->rows, s, e, b->W); break;
    }
}

/* a[c] bit r = a[r] bit c, for a 64 x 64 matrix of bits. */
static inline HOT_INLINE void transpose64(uint64_t a[64])
{
    uint64_t m = 0x00000000FFFFFFFFULL;
    for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j)
        for (unsigned k = 0; k < 64; k = (k + j + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
}

/* Four 64 x 64 transposes at once, one per element of the vectors (AVX2
 * in the x86-64-v3 clone, pairs of SSE2 words elsewhere). */
typedef uint64_t v4u64 __attribute__((vector_size(32)));
static inline HOT_INLINE void transpose64x4(v4u64 a[64])
{
    uint64_t m = 0x00000000FFFFFFFFULL;
    for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j)
        for (unsigned k = 0; k < 64; k = (k + j + 1) & ~j) {
            v4u64 t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
}

/* bits[lane * nblocks + r->block0 + blk]: role r's legal moves in each lane,
 * by 64 x 64 transposes, four words at a time where there are four. */
static inline HOT_INLINE void legal_bits(GdlBatch *b, const BatchRole *r)
{
    unsigned mb = b->net->nblocks, w = 0;
    for (; w + 4 <= b->W; w += 4)
        for (uint32_t blk = 0; blk < r->nblocks; blk++) {
            v4u64 a[64];
            uint32_t j0 = blk * 64, nj = r->nlegal - j0 < 64 ? r->nlegal - j0 : 64;
            for (uint32_t j = 0; j < nj; j++)
                memcpy(&a[j], b->rows + r->legal[j0 + j] + w, sizeof a[j]);
            for (uint32_t j = nj; j < 64; j++)
                a[j] = (v4u64){0, 0, 0, 0};
            transpose64x4(a);
            for (unsigned e = 0; e < 4; e++)
                for (unsigned l = 0; l < 64; l++)
                    b->bits[(size_t)((w + e) * 64 + l) * mb + r->block0 + blk] = a[l][e];
        }
    for (; w < b->W; w++)
        for (uint32_t blk = 0; blk < r->nblocks; blk++) {
            uint64_t a[64];
            uint32_t j0 = blk * 64, nj = r->nlegal - j0 < 64 ? r->nlegal - j0 : 64;
            for (uint32_t j = 0; j < nj; j++)
                a[j] = b->rows[r->legal[j0 + j] + w];
            for (uint32_t j = nj; j < 64; j++)
                a[j] = 0;
            transpose64(a);
            for (unsigned l = 0; l < 64; l++)
                b->bits[(size_t)(w * 64 + l) * mb + r->block0 + blk] = a[l];
        }
}

/* a[c] byte r = a[r] byte c, for an 8 x 8 matrix of bytes. */
static inline HOT_INLINE void transpose_bytes(uint64_t a[8])
{
    static const uint64_t m[3] = {0x00000000FFFFFFFFULL, 0x0000FFFF0000FFFFULL, 0x00FF00FF00FF00FFULL};
    for (unsigned i = 0, j = 4; j; j >>= 1, i++)
        for (unsigned k = 0; k < 8; k = (k + j + 1) & ~j) {
            uint64_t t = ((a[k] >> (8 * j)) ^ a[k + j]) & m[i];
            a[k] ^= t << (8 * j);
            a[k + j] ^= t;
        }
}

/* x byte j bit i = x byte i bit j: an 8 x 8 matrix of bits. */
static inline HOT_INLINE uint64_t transpose8(uint64_t x)
{
    uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
    return x ^ t ^ (t << 28);
}

/* For a small role: bytes[g * lanes + lane] bit i is whether its move
 * 8 g + i is legal in the lane, by 8 x 8 transposes (the 64 x 64 one moves
 * 64 rows however few are used). */
static inline HOT_INLINE void legal_bytes(GdlBatch *b, const BatchRole *r)
{
    uint32_t ng = (r->nlegal + 7) / 8;
    for (unsigned w = 0; w < b->W; w++)
        for (uint32_t g = 0; g < ng; g++) {
            uint64_t a[8];
            for (uint32_t i = 0; i < 8; i++)
                a[i] = 8 * g + i < r->nlegal ? b->rows[r->legal[8 * g + i] + w] : 0;
            transpose_bytes(a); /* a[lb] byte i: row 8 g + i's lanes 8 lb .. 8 lb + 7 */
            uint8_t *out = b->bytes + (size_t)g * b->lanes + w * 64;
            for (unsigned lb = 0; lb < 8; lb++) {
                uint64_t y = transpose8(a[lb]); /* byte j: lane 8 lb + j's rows */
                memcpy(out + 8 * lb, &y, 8);
            }
        }
}

/* The index of the k-th set bit of x (k < its popcount), without a branch
 * (a loop of k steps mispredicts its exit on every draw): the byte that
 * holds it from the bytes' running popcounts, then sel, the k-th set bit
 * of each byte value. */
static uint8_t sel_table[256][8];
static inline HOT_INLINE uint32_t kth_bit(uint64_t x, uint64_t k)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t c = x - ((x >> 1) & 0x5555555555555555ULL);
    c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
    c = (c + (c >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    uint64_t prefix = c * ones; /* byte i: the set bits of bytes 0 .. i */
    /* the bytes whose running count is at most k come before the bit */
    uint64_t le = ((k * ones | highs) - prefix) & highs;
    uint32_t byte = (uint32_t)__builtin_popcountll(le);
    uint32_t before = (uint32_t)(((prefix << 8) >> (8 * byte)) & 0xff);
    return 8 * byte + sel_table[(x >> (8 * byte)) & 0xff][k - before];
}

static void sel_table_make(void)
{
    for (unsigned v = 0; v < 256; v++)
        for (unsigned b = 0, k = 0; b < 8; b++)
            if (v >> b & 1)
                sel_table[v][k++] = (uint8_t)b;
}

/* x % d for any x, by Lemire, Kaser and Kurz's direct remainder (2019):
 * M = ceil(2^128 / d), precomputed; the same as the division, which is
 * most of a draw's cost. */
static inline HOT_INLINE uint64_t fastmod(uint64_t x, u128 M, uint64_t d)
{
    u128 low = M * x;
    u128 bottom = ((u128)(uint64_t)low * d) >> 64, top = (low >> 64) * d;
    return (uint64_t)((bottom + top) >> 64);
}

/* rt_rng_below(r, n) exactly, with the remainder by M (r's magic[n]). */
static inline HOT_INLINE uint64_t below(GdlRng *r, uint64_t n, const u128 *magic)
{
    for (;;) {
        uint64_t x = rt_rng_next(r);
        if (n == 1) { /* a noop: rejected only at UINT64_MAX, as rt_rng_below */
            if (__builtin_expect(x != UINT64_MAX, 1))
                return 0;
            continue;
        }
        if (__builtin_expect(x <= UINT64_MAX - n, 1))
            return fastmod(x, magic[n], n);
        if (x < UINT64_MAX - UINT64_MAX % n)
            return x % n;
    }
}

static GdlStatus batch_fail(GdlBatch *b, GdlStatus st, const char *fmt, ...) BASE_PRINTF(3, 4);
static GdlStatus batch_fail(GdlBatch *b, GdlStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = base_vsprintf(fmt, ap);
    va_end(ap);
    free(b->err);
    b->err = msg;
    return st;
}

/* below's answer when its first draw y was one of the top n values, which
 * the remainder may not take as it is. */
static uint64_t below_rest(GdlRng *r, uint64_t y, uint64_t n, const u128 *magic)
{
    if (y < UINT64_MAX - UINT64_MAX % n)
        return n == 1 ? 0 : y % n;
    return below(r, n, magic);
}

/* rt_rng_below(r, n) given its first draw y, without a branch on n: a
 * noop's too (magic[1] = 0 makes its remainder 0). In games whose players
 * alternate, which role has one move changes from lane to lane, so a
 * branch on it mispredicts. */
static inline HOT_INLINE uint64_t fastmod32(uint64_t x, const Mod32 *d, uint64_t n)
{
    uint64_t a = (x >> 32) * d->c + (uint32_t)x; /* = x mod n, below 2^32 n */
    return (uint64_t)(((u128)(d->m * a) * n) >> 64);
}

static inline HOT_INLINE uint64_t below_from(GdlRng *r, uint64_t y, uint64_t n, const BatchRole *role)
{
    if (__builtin_expect(y > UINT64_MAX - n, 0))
        return below_rest(r, y, n, role->magic);
    return role->mod ? fastmod32(y, &role->mod[n], n) : fastmod(y, role->magic[n], n);
}

/* The k-th set bit of x by BMI2's pdep, where it is fast (every processor
 * that has it but AMD's before Zen 3, which microcode it). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_PDEP 1
static bool pdep_fast;
static __attribute__((target("bmi2"))) inline uint32_t kth_pdep(uint64_t x, uint64_t k)
{
    return (uint32_t)__builtin_ctzll(_pdep_u64((uint64_t)1 << k, x));
}
static void pdep_check(void)
{
    __builtin_cpu_init();
    pdep_fast = __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
}
#define KTH_BIT(fast, x, k) ((fast) ? kth_pdep(x, k) : kth_bit(x, k))
#else
#define KTH_BIT(fast, x, k) ((void)(fast), kth_bit(x, k))
static const bool pdep_fast = false;
static void pdep_check(void) {}
#endif

/* The index, in r's legal list, of the k-th legal move of lane l (k below
 * their count), without a branch on the block that holds it: which block
 * that is changes from lane to lane. */
static inline HOT_INLINE uint32_t kth(const uint64_t *bits, uint32_t nblocks, uint64_t k, bool fast)
{
    uint32_t blk = 0;
    uint64_t before = 0, acc = 0;
    for (uint32_t j = 0; j + 1 < nblocks; j++) {
        acc += (uint64_t)__builtin_popcountll(bits[j]);
        bool past = k >= acc;
        blk += past;
        before = past ? acc : before;
    }
    return blk * 64 + KTH_BIT(fast, bits[blk], k - before);
}

/* A small role's draws, in every lane or in those of only (ng, its groups
 * of 8 moves, a constant in each copy): into choice, and into its picks
 * when set. Answers the first lane with no legal move, or lanes. */
static inline HOT_INLINE unsigned draw_small(GdlBatch *b, const BatchRole *r, uint32_t k, const uint64_t *only, bool set,
                                             const uint32_t ng)
{
    const unsigned lanes = b->lanes, mb = b->net->nblocks, nr = b->net->nroles;
    const uint8_t *bytes = b->bytes;
    const uint64_t *first = b->first;
    uint64_t *bits = b->bits + r->block0;
    uint32_t *choice = b->choice + k;
    uint8_t *pick = b->pick + (size_t)r->slot * lanes;
    GdlRng *rng = b->rng;
    bool bug63 = b->bug == RT_BATCH_BUG_MASK63, fast = b->pdep;
    for (unsigned l = 0; l < lanes; l++) {
        if (only && !(only[l / 64] >> (l & 63) & 1))
            continue;
        uint64_t x = 0;
        for (uint32_t g = 0; g < ng; g++)
            x |= (uint64_t)bytes[(size_t)g * lanes + l] << (8 * g);
        if (__builtin_expect(bug63, 0) && l == 63 && (x & (x - 1)))
            x &= ~((uint64_t)1 << (63 - __builtin_clzll(x))); /* the last legal move lost */
        if (r->nblocks)
            bits[(size_t)l * mb] = x;
        uint64_t cnt = (uint64_t)__builtin_popcountll(x);
        if (__builtin_expect(cnt == 0, 0))
            return l;
        uint64_t y = only ? rt_rng_next(&rng[l]) : first[l];
        uint32_t i = KTH_BIT(fast, x, below_from(&rng[l], y, cnt, r));
        choice[(size_t)l * nr] = i;
        if (set)
            pick[l] = (uint8_t)i;
    }
    return lanes;
}

/* Lane l plays move i of role r: the rows of its input and of the rows
 * scattered from it. */
static inline HOT_INLINE void set_move_rows(GdlBatch *b, const BatchRole *r, unsigned l, uint32_t i)
{
    uint64_t bit = (uint64_t)1 << (l & 63), *rows = b->rows + l / 64;
    for (uint32_t j = r->set_at[i]; j < r->set_at[i + 1]; j++)
        rows[r->set[j]] |= bit;
}

/* The same for a large role, from its legal bits, setting the rows of its
 * moves lane by lane. */
static inline HOT_INLINE unsigned draw_large(GdlBatch *b, const BatchRole *r, uint32_t k, const uint64_t *only, bool set)
{
    const unsigned lanes = b->lanes, mb = b->net->nblocks, nr = b->net->nroles, nb = r->nblocks;
    const uint64_t *first = b->first;
    uint32_t *choice = b->choice + k;
    GdlRng *rng = b->rng;
    bool bug63 = b->bug == RT_BATCH_BUG_MASK63, fast = b->pdep;
    for (unsigned l = 0; l < lanes; l++) {
        if (only && !(only[l / 64] >> (l & 63) & 1))
            continue;
        uint64_t *bits = b->bits + (size_t)l * mb + r->block0, cnt = 0;
        if (__builtin_expect(bug63, 0) && l == 63)
            for (uint32_t blk = nb; blk-- > 0;)
                if (bits[blk]) {
                    if (blk || (bits[0] & (bits[0] - 1)))
                        bits[blk] &= ~((uint64_t)1 << (63 - __builtin_clzll(bits[blk])));
                    break;
                }
        for (uint32_t blk = 0; blk < nb; blk++)
            cnt += (uint64_t)__builtin_popcountll(bits[blk]);
        if (__builtin_expect(cnt == 0, 0))
            return l;
        uint64_t y = only ? rt_rng_next(&rng[l]) : first[l];
        uint32_t i = kth(bits, nb, below_from(&rng[l], y, cnt, r), fast);
        choice[(size_t)l * nr] = i;
        if (set)
            set_move_rows(b, r, l, i);
    }
    return lanes;
}

/* Draws every role's move in every lane (into choice), or in the lanes of
 * the mask only, roles in role order within a lane, as one machine draws
 * them; when set, sets the rows of the moves drawn (a small role's through
 * its picks, by gather). Every lane draws at least once per role, so when
 * all lanes draw, their first draws are made in a loop of their own
 * (vectors of multiplies where there are any). */
static inline HOT_INLINE GdlStatus draw(GdlBatch *b, const uint64_t *only, bool set)
{
    const BatchNet *n = b->net;
    for (uint32_t k = 0; k < n->nroles; k++) {
        const BatchRole *r = &n->roles[k];
        if (!only)
            for (unsigned l = 0; l < b->lanes; l++)
                b->first[l] = rt_rng_next(&b->rng[l]);
        unsigned l;
        if (r->nlegal <= SMALL_ROLE) {
            legal_bytes(b, r);
            switch ((r->nlegal + 7) / 8) {
            case 0: l = draw_small(b, r, k, only, set, 0); break; /* no legal sentence: faults */
            case 1: l = draw_small(b, r, k, only, set, 1); break;
            case 2: l = draw_small(b, r, k, only, set, 2); break;
            case 3: l = draw_small(b, r, k, only, set, 3); break;
            default: l = draw_small(b, r, k, only, set, 4); break;
            }
        } else {
            legal_bits(b, r);
            l = draw_large(b, r, k, only, set);
        }
        if (l < b->lanes)
            return batch_fail(b, GDL_GAME_FAULT, "lane %u, step %llu: role %s has no legal move in a state that is not terminal",
                              l, (unsigned long long)b->steps[l], gdl_game_role_name(b->m->game, k));
    }
    return GDL_OK;
}

/* The rows the small roles' moves set: their picks transposed to bit
 * planes (plane j: the lanes whose move has bit j set), a row per move
 * made of them, then ORed into the rows that list it. */
static inline HOT_INLINE void gather(GdlBatch *b)
{
    const BatchNet *n = b->net;
    unsigned W = b->W;
    for (uint32_t k = 0; k < n->nroles; k++) {
        const BatchRole *r = &n->roles[k];
        if (r->nlegal > SMALL_ROLE)
            continue;
        for (unsigned w = 0; w < W; w++) {
            const uint8_t *in = b->pick + (size_t)r->slot * b->lanes + w * 64;
            uint64_t a[8];
            for (unsigned lb = 0; lb < 8; lb++) {
                memcpy(&a[lb], in + 8 * lb, 8); /* byte j: lane 8 lb + j's pick */
                a[lb] = transpose8(a[lb]);      /* byte i: bit i of lanes 8 lb ..'s picks */
            }
            transpose_bytes(a); /* a[i]: bit i of the 64 lanes' picks */
            uint64_t *t = b->onehot_rows + (size_t)w * n->nt + r->t0;
            for (uint32_t i = 0; i < r->nlegal; i++) {
                uint64_t row = ~(uint64_t)0;
                for (uint32_t j = 0; j < r->nbits; j++)
                    row &= i >> j & 1 ? a[j] : ~a[j];
                t[i] = row;
            }
        }
    }
    for (unsigned w = 0; w < W; w++) {
        const uint64_t *t = b->onehot_rows + (size_t)w * n->nt;
        for (uint32_t i = 0; i < n->ngather; i++) {
            uint64_t acc = 0;
            for (uint32_t j = n->g_at[i]; j < n->g_at[i + 1]; j++)
                acc |= t[n->g_t[j]];
            b->rows[n->g_row[i] + w] |= acc;
        }
    }
}

/* The goals of the terminal lanes of word w's mask m, lane by lane: the
 * checks, each lane's error as one machine would find it. */
static GdlStatus read_goals_lanes(GdlBatch *b, unsigned w, uint64_t m)
{
    const BatchNet *n = b->net;
    for (uint64_t x = m; x; x &= x - 1) {
        unsigned l = w * 64 + (unsigned)__builtin_ctzll(x);
        for (uint32_t k = 0; k < n->nroles; k++) {
            const BatchRole *r = &n->roles[k];
            int v = GDL_NO_GOAL, distinct = 0;
            for (uint32_t i = 0; i < r->ngoals; i++)
                if (b->rows[r->goal[i] + w] >> (l & 63) & 1) {
                    if (r->value[i] < 0)
                        return batch_fail(b, GDL_GAME_FAULT, "lane %u: a goal value of role %s is not a number from 0 to 100",
                                          l, gdl_game_role_name(b->m->game, k));
                    if (distinct == 0 || r->value[i] != v)
                        distinct++;
                    v = r->value[i];
                }
            if (distinct != 1)
                return batch_fail(b, GDL_GAME_FAULT, "lane %u, step %llu: role %s has %s goal value%s in the terminal state",
                                  l, (unsigned long long)b->steps[l], gdl_game_role_name(b->m->game, k),
                                  distinct ? "several" : "no", distinct ? "s" : "");
            b->goals[(size_t)l * n->nroles + k] = v;
        }
    }
    return GDL_OK;
}

/* Reads the goals of the terminal lanes in mask (W words) into goals: a
 * word at a time, each goal row read once, a store per lane and role; a
 * word where some lane has no goal, several, or one that is no number is
 * read lane by lane, which says which. */
static GdlStatus read_goals(GdlBatch *b, const uint64_t *mask)
{
    const BatchNet *n = b->net;
    for (unsigned w = 0; w < b->W; w++) {
        uint64_t m = mask[w], bad = 0;
        if (!m)
            continue;
        for (uint32_t k = 0; k < n->nroles && !bad; k++) {
            const BatchRole *r = &n->roles[k];
            uint64_t seen = 0, several = 0, neg = 0;
            for (uint32_t i = 0; i < r->ngoals; i++) {
                uint64_t g = b->rows[r->goal[i] + w] & m;
                several |= seen & g;
                seen |= g;
                neg |= r->value[i] < 0 ? g : 0;
            }
            bad = several | neg | (m & ~seen);
        }
        if (bad) {
            GdlStatus st = read_goals_lanes(b, w, m);
            if (st != GDL_OK)
                return st;
            continue;
        }
        for (uint32_t k = 0; k < n->nroles; k++) {
            const BatchRole *r = &n->roles[k];
            for (uint32_t i = 0; i < r->ngoals; i++)
                for (uint64_t g = b->rows[r->goal[i] + w] & m; g; g &= g - 1)
                    b->goals[(size_t)(w * 64 + (unsigned)__builtin_ctzll(g)) * n->nroles + k] = r->value[i];
        }
    }
    return GDL_OK;
}

/* Every base takes its next row (through nextbuf: the next rows may read
 * the bases). */
static inline HOT_INLINE void write_next(GdlBatch *b)
{
    const BatchNet *n = b->net;
    unsigned W = b->W;
    for (uint32_t j = 0; j < n->nchange; j++) {
        uint32_t nx = n->next[n->change[j]];
        for (unsigned w = 0; w < W; w++)
            b->nextbuf[(size_t)j * W + w] = nx == UINT32_MAX ? 0 : b->rows[nx + w];
    }
    for (uint32_t j = 0; j < n->nchange; j++) {
        uint64_t *row = b->rows + n->base[n->change[j]], *nx = b->nextbuf + (size_t)j * W, diff = 0;
        for (unsigned w = 0; w < W; w++) {
            diff |= row[w] ^ nx[w];
            row[w] = nx[w];
        }
        b->chg[n->base[n->change[j]] / W] = diff != 0;
    }
}

/* Every row changed: the next state program reads them all (after lanes
 * were loaded from outside the passes). */
static void all_changed(GdlBatch *b) { memset(b->chg, 1, b->net->nrows); }

/* Sets lane l's bases to the facts of s (checked by gdl_batch_playouts), or
 * to the initial state's when s is NULL. */
static void load_lane(GdlBatch *b, unsigned l, const GdlState *s)
{
    const BatchNet *n = b->net;
    uint64_t bit = (uint64_t)1 << (l & 63);
    unsigned w = l / 64;
    for (uint32_t j = 0; j < n->nchange; j++)
        b->rows[n->base[n->change[j]] + w] &= ~bit;
    if (!s) {
        for (uint32_t i = 0; i < n->init_on.n; i++)
            b->rows[n->init_on.v[i] + w] |= bit; /* state gates too: recomputed */
        return;
    }
    const Gt *facts = rt_own_facts(b->m, s);
    for (uint32_t i = 0; i < s->n; i++)
        b->rows[n->base[base_of(n, facts[i])] + w] |= bit;
}

/* The lanes of R (W words) set to the initial state, the rows of its bases
 * and state gates alike: what the state program would make of it. */
static inline HOT_INLINE void blend_rows(GdlBatch *b, const U32Vec *on, const U32Vec *off, const uint64_t *R)
{
    for (uint32_t i = 0; i < on->n; i++)
        for (unsigned w = 0; w < b->W; w++)
            b->rows[on->v[i] + w] |= R[w];
    for (uint32_t i = 0; i < off->n; i++)
        for (unsigned w = 0; w < b->W; w++)
            b->rows[off->v[i] + w] &= ~R[w];
}

static inline HOT_INLINE void blend_initial(GdlBatch *b, const uint64_t *R) { blend_rows(b, &b->net->init_on, &b->net->init_off, R); }

/* The same for a pass's restarts, which need only the rows read before
 * the next state program remakes them all; by changed rows, it remakes
 * only those whose inputs changed, so all are blended. */
static inline HOT_INLINE void blend_restarts(GdlBatch *b, const uint64_t *R)
{
    if (b->by_changes)
        blend_initial(b, R);
    else
        blend_rows(b, &b->net->read_on, &b->net->read_off, R);
}

/* Lane l's playout ended: its goals (none when capped) are its job's. */
static void job_record(GdlBatch *b, unsigned l)
{
    const BatchNet *n = b->net;
    if (b->job[l] < 0)
        return;
    int *out = b->job_goals + (size_t)b->job[l] * n->nroles;
    for (uint32_t k = 0; k < n->nroles; k++)
        out[k] = b->ended[l] == GDL_BATCH_TERMINAL ? b->goals[(size_t)l * n->nroles + k] : GDL_NO_GOAL;
    b->jobs_done++;
}

/* gdl_batch_playouts: the lanes in R ended their playouts (b->ended says
 * how, b->goals their goals). The results of those that played a job are
 * kept; each takes the next state waiting, or the initial state when none
 * is, and the state program runs again; a state taken that is terminal
 * ends at once (a playout of no step), until none is. */
static GdlStatus next_jobs(GdlBatch *b, const uint64_t *R)
{
    const BatchNet *n = b->net;
    unsigned W = b->W;
    uint64_t again[8];
    memcpy(again, R, W * sizeof *again);
    for (bool any = true; any;) {
        if (b->next_job >= b->njobs) {
            /* no state waits: the lanes restart from the initial state,
             * blended in as a pass restarts them (it is not terminal) */
            for (unsigned l = 0; l < b->lanes; l++) {
                if (!(again[l / 64] >> (l & 63) & 1))
                    continue;
                job_record(b, l);
                b->job[l] = -1;
                b->steps[l] = 0;
            }
            blend_initial(b, again);
            return GDL_OK;
        }
        for (unsigned l = 0; l < b->lanes; l++) {
            if (!(again[l / 64] >> (l & 63) & 1))
                continue;
            job_record(b, l);
            if (b->next_job < b->njobs) {
                b->job[l] = (int64_t)b->next_job;
                load_lane(b, l, b->jobs[b->next_job++]);
            } else {
                b->job[l] = -1;
                load_lane(b, l, NULL);
            }
            b->steps[l] = 0;
        }
        all_changed(b);
        run_state(b);
        /* the states taken that are terminal */
        any = false;
        for (unsigned w = 0; w < W; w++) {
            again[w] &= b->rows[n->terminal + w];
            any |= again[w] != 0;
        }
        if (any) {
            run(b, PROG_GOALS);
            GdlStatus st = read_goals(b, again);
            if (st != GDL_OK)
                return st;
            for (unsigned l = 0; l < b->lanes; l++)
                if (again[l / 64] >> (l & 63) & 1) {
                    b->ended[l] = GDL_BATCH_TERMINAL;
                    b->ended_steps[l] = 0;
                }
        }
    }
    return GDL_OK;
}

/* One step of every lane. Compiled three times on x86-64, for the
 * processors of x86-64-v4 (AVX-512), of x86-64-v3 (popcnt, AVX2) and for
 * the others, the loader choosing. */
static HOT_CLONES GdlStatus pass(GdlBatch *b)
{
    const BatchNet *n = b->net;
    unsigned W = b->W;
    uint64_t *rows = b->rows;
    GdlStatus st;
    b->fresh = false; /* a pass that fails may leave rows half made */
    run_state(b);
    /* lanes that end: terminal, or at the cap (which draw first) */
    uint64_t *R = b->ended_mask, any_t = 0, any_c = 0;
    uint64_t capped[8];
    for (unsigned w = 0; w < W; w++) {
        R[w] = rows[n->terminal + w];
        any_t |= R[w];
        capped[w] = 0;
    }
    if (b->max_steps)
        for (unsigned l = 0; l < b->lanes; l++)
            if (b->steps[l] >= b->max_steps && !(R[l / 64] >> (l & 63) & 1))
                capped[l / 64] |= (uint64_t)1 << (l & 63), any_c = 1;
    memset(b->ended, 0, b->lanes);
    if (any_t) {
        run(b, PROG_GOALS);
        if ((st = read_goals(b, R)) != GDL_OK)
            return st;
    }
    if (any_c) {
        /* the capped lanes draw their moves, as a playout does before the cap stops it */
        if ((st = draw(b, capped, false)) != GDL_OK)
            return st;
    }
    uint64_t any = any_t | any_c;
    if (any) {
        for (unsigned l = 0; l < b->lanes; l++) {
            uint64_t bit = (uint64_t)1 << (l & 63);
            if (R[l / 64] & bit)
                b->ended[l] = GDL_BATCH_TERMINAL;
            else if (capped[l / 64] & bit)
                b->ended[l] = GDL_BATCH_CAPPED;
            else
                continue;
            b->ended_steps[l] = b->steps[l];
            b->steps[l] = 0;
            b->total.playouts++;
            b->total.capped += b->ended[l] == GDL_BATCH_CAPPED;
        }
        for (unsigned w = 0; w < W; w++)
            R[w] |= capped[w];
        if (b->jobs) {
            if ((st = next_jobs(b, R)) != GDL_OK)
                return st;
            goto draw_all;
        }
        /* restart them: the initial state's rows blended in */
        blend_restarts(b, R);
    } else {
        for (unsigned w = 0; w < W; w++)
            R[w] = 0;
    }
draw_all:
    /* the joint moves drawn, as inputs and the rows scattered from them */
    for (uint32_t i = 0; i < n->zero.n; i++)
        for (unsigned w = 0; w < W; w++)
            rows[n->zero.v[i] + w] = 0;
    if ((st = draw(b, NULL, true)) != GDL_OK)
        return st;
    gather(b);
    run(b, PROG_MOVE);
    write_next(b);
    for (unsigned l = 0; l < b->lanes; l++)
        b->steps[l]++;
    b->total.state_changes += b->lanes;
    b->total.passes++;
    b->moved = true;
    b->fresh = false;
    return GDL_OK;
}

/* ---- the public calls ------------------------------------------------------ */

static void batch_start(GdlBatch *b, uint64_t seed)
{
    const BatchNet *n = b->net;
    unsigned W = b->W;
    memset(b->rows, 0, (size_t)n->nrows * W * sizeof *b->rows);
    for (uint32_t i = 0; i < n->ones.n; i++)
        for (unsigned w = 0; w < W; w++)
            b->rows[n->ones.v[i] + w] = ~(uint64_t)0;
    for (uint32_t i = 0; i < n->init_on.n; i++)
        for (unsigned w = 0; w < W; w++)
            b->rows[n->init_on.v[i] + w] = ~(uint64_t)0;
    for (unsigned l = 0; l < b->lanes; l++) {
        gdl_rng_seed(&b->rng[l], seed + l);
        b->steps[l] = 0;
    }
    if (b->bug == RT_BATCH_BUG_SHARE)
        gdl_rng_seed(&b->rng[1], seed); /* lane 1 plays lane 0's moves */
    memset(b->ended, 0, b->lanes);
    b->total = (GdlBatchStats){0};
    b->moved = false;
    b->fresh = false;
    all_changed(b);
}

static void plan_make(GdlBatch *b);

static GdlBatch *batch_alloc(BatchNet *net, GdlMachine *m, unsigned lanes, uint64_t seed, uint64_t max_steps)
{
    GdlBatch *b = base_xcalloc(1, sizeof *b);
    b->net = net;
    b->m = m;
    b->lanes = lanes;
    b->W = lanes / 64;
    b->max_steps = max_steps;
    size_t nr = net->nroles ? net->nroles : 1;
    b->rows = base_xcalloc((size_t)net->nrows * b->W + 1, sizeof *b->rows);
    b->nextbuf = base_xcalloc((size_t)net->nchange * b->W + 1, sizeof *b->nextbuf);
    b->bits = base_xcalloc((size_t)lanes * net->nblocks + 1, sizeof *b->bits);
    b->ended_mask = base_xcalloc(b->W, sizeof *b->ended_mask);
    b->bytes = base_xcalloc((size_t)lanes * (SMALL_ROLE / 8), 1);
    b->pick = base_xcalloc((size_t)lanes * (net->nsmall + 1), 1);
    b->onehot_rows = base_xcalloc((size_t)b->W * net->nt + 1, sizeof *b->onehot_rows);
    b->rng = base_xcalloc(lanes, sizeof *b->rng);
    b->first = base_xcalloc(lanes, sizeof *b->first);
    b->pdep = pdep_fast;
    b->steps = base_xcalloc(lanes, sizeof *b->steps);
    b->ended = base_xcalloc(lanes, 1);
    b->goals = base_xcalloc((size_t)lanes * nr, sizeof *b->goals);
    b->ended_steps = base_xcalloc(lanes, sizeof *b->ended_steps);
    b->choice = base_xcalloc((size_t)lanes * nr, sizeof *b->choice);
    b->job = base_xcalloc(lanes, sizeof *b->job);
    b->own_bytes = sizeof *b + ((size_t)net->nrows + (size_t)net->nchange + (size_t)net->nt + net->max_scc) * b->W * 8 +
                   (size_t)lanes * (net->nblocks * 8 + SMALL_ROLE / 8 + net->nsmall + sizeof *b->rng +
                                    sizeof *b->steps + 1 + sizeof *b->ended_steps + sizeof *b->job +
                                    sizeof *b->first + nr * (sizeof *b->goals + sizeof *b->choice)) +
                   net->nrows;
    b->chg = base_xcalloc(net->nrows + 1, 1);
    b->old = base_xcalloc((size_t)net->max_scc * b->W + 1, sizeof *b->old);
    b->by_changes = net->by_changes;
    batch_start(b, seed);
    plan_make(b);
    return b;
}

/* The evaluation of the state program: SAMPLE_PASSES passes by changed
 * rows, counting the words read (a flag read counts half a row's words),
 * against the words of whole evaluation; by changes when they read under
 * 70% of it. Counted, not timed: the same choice on a busy machine. */
enum { SAMPLE_PASSES = 32 };
static void choose_evaluation(GdlBatch *b, uint64_t seed)
{
    BatchNet *n = b->net;
    b->by_changes = b->counting = true;
    b->work = 0;
    uint64_t passes = 0;
    while (passes < SAMPLE_PASSES && pass(b) == GDL_OK)
        passes++;
    uint64_t full = passes * n->nlinks[PROG_STATE] * b->W;
    n->by_changes = passes > 0 && b->work * 10 < full * 7;
    b->by_changes = n->by_changes;
    b->counting = false;
    free(b->err);
    b->err = NULL;
    batch_start(b, seed);
    plan_make(b);
}

static GdlStatus batch_new_(GdlMachine *m, unsigned lanes, uint64_t seed, uint64_t max_steps, GdlBatch **out)
{
    *out = NULL;
    if (lanes == 0 || lanes % 64 || lanes > GDL_BATCH_MAX_LANES)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a batch has 64 to %u lanes, a multiple of 64: not %u",
                       GDL_BATCH_MAX_LANES, lanes);
    if (m->roles.n > GDL_BATCH_MAX_ROLES)
        return rt_fail(&m->ctl, GDL_LIMIT, "a batch plays games of up to %u roles, not %u", GDL_BATCH_MAX_ROLES,
                       m->roles.n);
    if (max_steps == 0)
        return rt_fail(&m->ctl, GDL_BAD_ARGUMENT, "a batch's playouts need a step cap of at least 1");
    Propnet pn;
    char *why = NULL;
    GroundLimits lim = {.deadline = m->ctl.deadline, .cancel = m->ctl.flag};
    if (!cp_propnet(&m->game->front.ir, &lim, &m->store, PN_OPT_ENGINE, &pn, NULL, &why)) {
        GdlStatus st = rt_fail(&m->ctl, GDL_LIMIT, "%s; engine jit plays it, one state at a time (the batch needs the network)",
                               why ? why : "no network");
        free(why);
        pn_free(&pn);
        return st;
    }
    BatchNet *net = net_make(&pn, &m->store, lanes / 64, &why);
    pn_free(&pn);
    if (!net) {
        GdlStatus st = rt_fail(&m->ctl, GDL_LIMIT, "%s; engine jit plays it, one state at a time", why);
        free(why);
        return st;
    }
    GdlBatch *b = batch_alloc(net, m, lanes, seed, max_steps);
    choose_evaluation(b, seed);
    *out = b;
    return GDL_OK;
}

static void tables_make(void)
{
    sel_table_make();
    pdep_check();
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

GdlStatus gdl_batch_new(GdlMachine *m, unsigned lanes, uint64_t seed, uint64_t max_steps, GdlBatch **out)
{
    pthread_once(&tables_once, tables_make);
    RT_GUARDED(m, batch_new_(m, lanes, seed, max_steps, out));
}

bool rt_batch_pdep(bool on)
{
    pthread_once(&tables_once, tables_make);
#ifdef HAVE_PDEP
    static bool fast = false, known = false;
    if (!known)
        fast = pdep_fast, known = true;
    pdep_fast = on && fast;
    return pdep_fast;
#else
    (void)on;
    return false;
#endif
}

GdlStatus gdl_batch_fork(const GdlBatch *b, uint64_t seed, GdlBatch **out)
{
    atomic_fetch_add(&b->net->refs, 1);
    *out = batch_alloc(b->net, b->m, b->lanes, seed, b->max_steps);
    return GDL_OK;
}

void gdl_batch_free(GdlBatch *b)
{
    if (!b)
        return;
    if (atomic_fetch_sub(&b->net->refs, 1) == 1)
        net_free(b->net);
    free(b->rows);
    free(b->nextbuf);
    free(b->bits);
    free(b->ended_mask);
    free(b->bytes);
    free(b->pick);
    free(b->onehot_rows);
    free(b->rng);
    free(b->first);
    free(b->steps);
    free(b->ended);
    free(b->goals);
    free(b->ended_steps);
    free(b->choice);
    free(b->job);
    free(b->chg);
    free(b->old);
    free(b->plan);
    free(b->err);
    free(b);
}

void gdl_batch_restart(GdlBatch *b, uint64_t seed) { batch_start(b, seed); }

void rt_batch_plant(GdlBatch *b, int bug) { b->bug = bug; }

GdlStatus gdl_batch_set_evaluation(GdlBatch *b, int how)
{
    if (how != GDL_BATCH_EVAL_FULL && how != GDL_BATCH_EVAL_CHANGES)
        return batch_fail(b, GDL_BAD_ARGUMENT, "no evaluation %d (GDL_BATCH_EVAL_FULL or GDL_BATCH_EVAL_CHANGES)", how);
    b->by_changes = how == GDL_BATCH_EVAL_CHANGES;
    all_changed(b);
    plan_make(b);
    return GDL_OK;
}

int gdl_batch_evaluation(const GdlBatch *b) { return b->by_changes ? GDL_BATCH_EVAL_CHANGES : GDL_BATCH_EVAL_FULL; }

unsigned gdl_batch_lanes(const GdlBatch *b) { return b->lanes; }
const char *gdl_batch_plan(const GdlBatch *b) { return b->plan; }

static void plan_make(GdlBatch *b)
{
    free(b->plan);
    const BatchNet *n = b->net;
    size_t prog = 0;
    for (int i = 0; i < 3; i++)
        prog += n->prog[i].n * sizeof *n->prog[i].v;
    b->plan = base_sprintf("batch: the network's state %s each pass, for %s; memory: %zu KiB a batch (%zu bytes a lane; "
                           "a state is %u bits), the programs %zu KiB",
                           b->by_changes ? "by changed rows (the gates an input of which changed in a word)"
                                         : "whole (full evaluation)",
                           n->plan, (b->own_bytes + 1023) / 1024, b->own_bytes / b->lanes, n->nchange, (prog + 1023) / 1024);
}
const char *gdl_batch_error(const GdlBatch *b) { return b->err ? b->err : ""; }
void gdl_batch_set_deadline(GdlBatch *b, double deadline) { b->deadline = deadline; }
void gdl_batch_set_cancel_flag(GdlBatch *b, const volatile int *flag) { b->cancel = flag; }

GdlStatus gdl_batch_run(GdlBatch *b, uint64_t passes, GdlBatchStats *stats)
{
    GdlStatus st = GDL_OK;
    for (uint64_t i = 0; passes == 0 || i < passes; i++) {
        if ((b->cancel && __atomic_load_n(b->cancel, __ATOMIC_RELAXED)) || (b->deadline > 0 && gdl_now() >= b->deadline)) {
            st = batch_fail(b, GDL_CANCELLED, "cancelled: the batch's deadline passed or its cancel flag was set");
            break;
        }
        if ((st = pass(b)) != GDL_OK)
            break;
    }
    if (stats)
        *stats = b->total;
    return st;
}

GdlStatus gdl_batch_playouts(GdlBatch *b, const GdlState *const *states, size_t n, int *goals)
{
    const BatchNet *net = b->net;
    uint32_t fixed_on = 0;
    for (uint32_t j = 0; j < net->nbase; j++)
        fixed_on += net->fixed[j] == 1;
    for (size_t i = 0; i < n; i++) {
        GdlStatus st = rt_state_check(b->m, states[i]);
        if (st != GDL_OK)
            return batch_fail(b, st, "state %zu: %s", i, gdl_machine_error(b->m));
        const Gt *facts = rt_own_facts(b->m, states[i]);
        for (uint32_t j = 0; j < states[i]->n; j++)
            if (base_of(net, facts[j]) == UINT32_MAX)
                return batch_fail(b, GDL_BAD_ARGUMENT, "state %zu: the fact %s is none the network holds", i,
                                  gt_text(&b->m->store, facts[j]));
        /* the facts the network fixed must be as fixed */
        uint32_t held_on = 0;
        for (uint32_t j = 0; j < states[i]->n; j++) {
            uint8_t f = net->fixed[base_of(net, facts[j])];
            if (f == 2)
                return batch_fail(b, GDL_BAD_ARGUMENT, "state %zu: the fact %s can never hold", i,
                                  gt_text(&b->m->store, facts[j]));
            held_on += f == 1;
        }
        if (held_on != fixed_on)
            return batch_fail(b, GDL_BAD_ARGUMENT, "state %zu: a fact that always holds is missing", i);
    }
    if (n == 0)
        return GDL_OK;
    b->jobs = states;
    b->njobs = n;
    b->next_job = b->jobs_done = 0;
    b->job_goals = goals;
    /* every lane takes a state (or the initial one), as after an end */
    for (unsigned l = 0; l < b->lanes; l++)
        b->job[l] = -1, b->ended[l] = GDL_BATCH_PLAYING;
    uint64_t all[8];
    for (unsigned w = 0; w < b->W; w++)
        all[w] = ~(uint64_t)0;
    GdlStatus st = next_jobs(b, all);
    while (st == GDL_OK && b->jobs_done < n) {
        if ((b->cancel && __atomic_load_n(b->cancel, __ATOMIC_RELAXED)) || (b->deadline > 0 && gdl_now() >= b->deadline))
            st = batch_fail(b, GDL_CANCELLED, "cancelled: the batch's deadline passed or its cancel flag was set");
        else
            st = pass(b);
    }
    for (unsigned l = 0; l < b->lanes; l++)
        b->job[l] = -1;
    b->jobs = NULL;
    b->job_goals = NULL;
    b->fresh = false;
    return st;
}

/* ---- stepping the lanes from outside -------------------------------------- */

static void ensure_fresh(GdlBatch *b)
{
    if (!b->fresh) {
        run_state(b);
        b->fresh = true;
    }
}

/* Writes, for each lane, the bits of rows[0..n) as bytes: out[lane *
 * stride + column[i]] is 1 when row i is true in the lane (column NULL:
 * column i), every other byte of out[lane * stride .. + width) 0; a
 * column at or past width is skipped. By the bits set (masks and states
 * are sparse): 8 x 8 transposes of every block cost more (Breakthrough's
 * masks, 256 lanes: 41 us a step against 31). */
static void rows_to_bytes(const GdlBatch *b, const uint32_t *row, uint32_t n, const uint32_t *column, size_t width,
                          size_t stride, uint8_t *out)
{
    for (unsigned l = 0; l < b->lanes; l++)
        memset(out + (size_t)l * stride, 0, width);
    for (uint32_t i = 0; i < n; i++) {
        size_t c = column ? column[i] : i;
        if (c >= width)
            continue;
        for (unsigned w = 0; w < b->W; w++)
            for (uint64_t x = b->rows[row[i] + w]; x; x &= x - 1)
                out[(size_t)(w * 64 + (unsigned)__builtin_ctzll(x)) * stride + c] = 1;
    }
}

size_t gdl_batch_role_moves(GdlBatch *b, unsigned role, const GdlMove **moves)
{
    if (role >= b->net->nroles) {
        *moves = NULL;
        return 0;
    }
    *moves = b->net->roles[role].move;
    return b->net->roles[role].nlegal;
}

GdlStatus gdl_batch_legal_mask(GdlBatch *b, unsigned role, uint8_t *mask)
{
    const BatchNet *n = b->net;
    if (role >= n->nroles)
        return batch_fail(b, GDL_BAD_ARGUMENT, "no role %u", role);
    ensure_fresh(b);
    const BatchRole *r = &n->roles[role];
    rows_to_bytes(b, r->legal, r->nlegal, NULL, r->nlegal, r->nlegal, mask);
    return GDL_OK;
}

GdlStatus gdl_batch_terminal(GdlBatch *b, uint8_t *terminal, int *goals)
{
    const BatchNet *n = b->net;
    ensure_fresh(b);
    uint64_t T[8];
    for (unsigned w = 0; w < b->W; w++)
        T[w] = b->rows[n->terminal + w];
    for (unsigned l = 0; l < b->lanes; l++) {
        terminal[l] = (uint8_t)(T[l / 64] >> (l & 63) & 1);
        if (goals)
            for (uint32_t k = 0; k < n->nroles; k++)
                goals[(size_t)l * n->nroles + k] = GDL_NO_GOAL;
    }
    bool any = false;
    for (unsigned w = 0; w < b->W; w++)
        any |= T[w] != 0;
    if (goals && any) {
        run(b, PROG_GOALS);
        GdlStatus st = read_goals(b, T);
        if (st != GDL_OK)
            return st;
        for (unsigned l = 0; l < b->lanes; l++)
            if (terminal[l])
                memcpy(goals + (size_t)l * n->nroles, b->goals + (size_t)l * n->nroles, n->nroles * sizeof *goals);
    }
    return GDL_OK;
}

GdlStatus gdl_batch_reset_lanes(GdlBatch *b, const uint8_t *which)
{
    if (b->fresh) {
        /* the initial state's rows blended in, state gates included, as a
         * pass restarts its lanes: the state program need not run again */
        uint64_t R[8] = {0};
        for (unsigned l = 0; l < b->lanes; l++)
            if (!which || which[l]) {
                R[l / 64] |= (uint64_t)1 << (l & 63);
                b->steps[l] = 0;
            }
        blend_initial(b, R);
        all_changed(b);
        return GDL_OK;
    }
    for (unsigned l = 0; l < b->lanes; l++)
        if (!which || which[l]) {
            load_lane(b, l, NULL);
            b->steps[l] = 0;
        }
    all_changed(b);
    b->fresh = false;
    return GDL_OK;
}

size_t gdl_batch_bases(GdlBatch *b, const GdlFact **facts)
{
    *facts = b->net->fact;
    return b->net->nbase;
}

GdlStatus gdl_batch_observe(GdlBatch *b, const uint32_t *column, size_t width, size_t stride, uint8_t *obs)
{
    const BatchNet *n = b->net;
    if (width > stride || (!column && width < n->nbase))
        return batch_fail(b, GDL_BAD_ARGUMENT, "observations of %zu bytes in lanes %zu apart, for %u bases", width,
                          stride, n->nbase);
    rows_to_bytes(b, n->base, n->nbase, column, width, stride, obs);
    return GDL_OK;
}

GdlStatus gdl_batch_legal_columns(GdlBatch *b, unsigned role, const uint32_t *column, size_t width, size_t stride,
                                  uint8_t *mask)
{
    const BatchNet *n = b->net;
    if (role >= n->nroles)
        return batch_fail(b, GDL_BAD_ARGUMENT, "no role %u", role);
    const BatchRole *r = &n->roles[role];
    if (width > stride || (!column && width < r->nlegal))
        return batch_fail(b, GDL_BAD_ARGUMENT, "masks of %zu bytes in lanes %zu apart, for %u moves", width, stride,
                          r->nlegal);
    ensure_fresh(b);
    rows_to_bytes(b, r->legal, r->nlegal, column, width, stride, mask);
    return GDL_OK;
}

GdlStatus gdl_batch_step(GdlBatch *b, const uint32_t *actions)
{
    const BatchNet *n = b->net;
    unsigned W = b->W;
    ensure_fresh(b);
    for (unsigned l = 0; l < b->lanes; l++) {
        if (b->rows[n->terminal + l / 64] >> (l & 63) & 1)
            return batch_fail(b, GDL_BAD_ARGUMENT, "lane %u is terminal: reset it before a step", l);
        for (uint32_t k = 0; k < n->nroles; k++) {
            const BatchRole *r = &n->roles[k];
            uint32_t a = actions[(size_t)l * n->nroles + k];
            if (a >= r->nlegal || !(b->rows[r->legal[a] + l / 64] >> (l & 63) & 1))
                return batch_fail(b, GDL_BAD_ARGUMENT, "lane %u: move %u of role %s is not legal", l, a,
                                  gdl_game_role_name(b->m->game, k));
        }
    }
    for (uint32_t i = 0; i < n->zero.n; i++)
        for (unsigned w = 0; w < W; w++)
            b->rows[n->zero.v[i] + w] = 0;
    for (uint32_t k = 0; k < n->nroles; k++) {
        const BatchRole *r = &n->roles[k];
        for (unsigned l = 0; l < b->lanes; l++) {
            uint32_t i = actions[(size_t)l * n->nroles + k];
            b->choice[(size_t)l * n->nroles + k] = i;
            set_move_rows(b, r, l, i);
        }
    }
    run(b, PROG_MOVE);
    write_next(b);
    for (unsigned l = 0; l < b->lanes; l++)
        b->steps[l]++;
    b->fresh = false;
    return GDL_OK;
}

static GdlStatus lane_check(GdlBatch *b, unsigned lane)
{
    if (lane >= b->lanes)
        return batch_fail(b, GDL_BAD_ARGUMENT, "no lane %u in a batch of %u", lane, b->lanes);
    return GDL_OK;
}

static GdlStatus lane_state_(GdlBatch *b, unsigned lane, GdlState **out)
{
    GdlStatus st = lane_check(b, lane);
    if (st != GDL_OK)
        return st;
    const BatchNet *n = b->net;
    U32Vec facts = {0};
    for (uint32_t i = 0; i < n->nbase; i++)
        if (b->rows[n->base[i] + lane / 64] >> (lane & 63) & 1)
            vec_push(facts, n->fact[i]);
    *out = rt_state_make(b->m, facts.v, facts.n);
    vec_free(facts);
    return GDL_OK;
}

GdlStatus gdl_batch_lane_state(GdlBatch *b, unsigned lane, GdlState **out)
{
    *out = NULL;
    RT_GUARDED(b->m, lane_state_(b, lane, out));
}

GdlStatus gdl_batch_lane_pass(GdlBatch *b, unsigned lane, GdlBatchLane *info)
{
    GdlStatus st = lane_check(b, lane);
    if (st != GDL_OK)
        return st;
    if (!b->moved)
        return batch_fail(b, GDL_BAD_ARGUMENT, "the batch has not run a pass yet");
    const BatchNet *n = b->net;
    info->ended = b->ended[lane];
    info->ended_steps = info->ended ? b->ended_steps[lane] : 0;
    info->goals = info->ended == GDL_BATCH_TERMINAL ? b->goals + (size_t)lane * n->nroles : NULL;
    for (uint32_t k = 0; k < n->nroles && k < GDL_BATCH_MAX_ROLES; k++)
        info->joint[k] = n->roles[k].move[b->choice[(size_t)lane * n->nroles + k]];
    return GDL_OK;
}

GdlStatus gdl_batch_lane_legal(GdlBatch *b, unsigned lane, unsigned role, const GdlMove **moves, size_t *count)
{
    GdlStatus st = lane_check(b, lane);
    if (st != GDL_OK)
        return st;
    const BatchNet *n = b->net;
    if (role >= n->nroles)
        return batch_fail(b, GDL_BAD_ARGUMENT, "no role %u", role);
    if (!b->moved)
        return batch_fail(b, GDL_BAD_ARGUMENT, "the batch has not run a pass yet");
    const BatchRole *r = &n->roles[role];
    const uint64_t *bits = b->bits + (size_t)lane * n->nblocks + r->block0;
    b->m->scratch.n = 0;
    for (uint32_t i = 0; i < r->nlegal; i++)
        if (bits[i / 64] >> (i & 63) & 1)
            vec_push(b->m->scratch, r->move[i]);
    *moves = b->m->scratch.v;
    *count = b->m->scratch.n;
    return GDL_OK;
}
