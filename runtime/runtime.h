/*
 * runtime.h: what the API layer (api.c) and the engines share.
 *
 * The API owns games, machines and states; an engine only answers queries.
 * States cross the boundary as arrays of `true` facts (ground term ids,
 * sorted by id, no duplicates) in the machine's term store, so every engine
 * speaks about the same terms and the API can compare, hash and print states
 * without knowing the engine.
 */
#ifndef GDLC_RUNTIME_H
#define GDLC_RUNTIME_H

#include "../frontend/front.h"
#include "../include/gdl.h"
#include "../base/terms.h"
#include "control.h"

#include <pthread.h>
#include <stdatomic.h>

/* The terms every machine of a game agrees on (api.c): a store of its own,
 * behind a lock, in which a state's facts have the same ids whichever
 * machine made it, so that states pass freely between the machines (and
 * threads) of one game. Each machine maps its own term ids to these and
 * back, taking the lock only for a term it has not mapped yet. */
typedef struct GameTerms {
    pthread_mutex_t lock;  /* guards syms and store */
    Symtab syms;           /* symbols by text */
    GtStore store;         /* the canonical terms */
    _Atomic uint64_t stamps; /* the last stamp given out (machines take them in blocks: api.c's fresh_stamp) */
} GameTerms;

struct GdlGame {
    Front front;       /* the validated program: source, symbols, AST, IR (first: a Front is cast to a game) */
    GameTerms *terms;  /* shared by its machines; made when the game is loaded */
    uint64_t serial;   /* names the game among every game this process loads (gdl_game_error) */
};

/* Whether an engine's name may carry an argument after a colon. */
typedef enum EngineArg {
    ENGINE_ARG_NONE,     /* "jit" only */
    ENGINE_ARG_OPTIONAL, /* "ref" or "ref:ARG": create checks ARG */
    ENGINE_ARG_REQUIRED, /* "so:PATH" only */
} EngineArg;

/* What an engine's query answers: a GdlStatus, or one of the engine
 * interface's own answers below, which stay between the engines and the
 * API: the API acts on them and never hands one to its caller. */
typedef int EngineStatus;
/* next_checked, next_facts: a move of the joint move is not legal (no next
 * state made; the API lists the moves to say which and why) */
#define RT_ILLEGAL 0x7ffe
/* next_facts: the engine made no state so for this one (the API asks
 * next_checked, or lists and checks the moves and asks next) */
#define RT_UNSHARED 0x7ffd
/* engine pn made strict (rt_pn_strict), to the hybrid engine that made it
 * so and only to it: a state the network cannot hold */
#define RT_PN_UNCOVERED 0x7fff

typedef struct EngineOps {
    const char *name;
    /* NULL with *err set on failure. store is the machine's (shared by the
     * API for moves and states); the symbols are the game's own copy. arg
     * is what follows the colon in the engine's name ("so:PATH"), or NULL. */
    void *(*create)(const GdlGame *game, const char *arg, GtStore *store, RtControl *ctl, char **err);
    void (*destroy)(void *e);
    EngineStatus (*initial)(void *e, U32Vec *facts);
    /* moves: the role's legal moves, in any order, no duplicates */
    EngineStatus (*legal)(void *e, const Gt *state, uint32_t n, uint32_t role, U32Vec *moves);
    EngineStatus (*next)(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts);
    EngineStatus (*terminal)(void *e, const Gt *state, uint32_t n, bool *terminal);
    /* values: pairs (role index, goal value term), one per goal fact */
    EngineStatus (*goals)(void *e, const Gt *state, uint32_t n, U32Vec *values);
    EngineArg arg;     /* what may follow the name */
    /* Optional (NULL: not known): appends every move and fact the engine can
     * ever answer, so that the API ranks them in canonical order once
     * (rank_sort in api.c) instead of as they first appear. */
    void (*terms)(void *e, U32Vec *out);
    /* legal answers its moves in canonical order already (gt_sort's, no
     * duplicates): the API does not sort them again */
    bool sorted_moves;
    /* Optional (NULL: the API checks joint moves against the legal moves
     * it listed and remembered, per role): next with the joint move
     * checked first, in O(roles), without listing moves: RT_ILLEGAL, and
     * no next state made, when a move is not legal in the state (the API
     * then lists the moves to say which and why). */
    EngineStatus (*next_checked)(void *e, const Gt *state, uint32_t n, const Gt *joint, U32Vec *facts);
    /* Optional, both or neither: the next state written straight into a
     * state's room, so that a playout's step makes no copy and no
     * canonical ids or hash (the API reads those when asked, from the
     * shares it made of made_facts' facts once: FactShares).
     * made_facts points *facts at every fact next_facts may write (the
     * engine's array), sets *most to the most of them one state may hold,
     * and returns their number (0: it makes no state so).
     * next_facts is next_checked writing the facts, sorted by id, to facts
     * (room for made_facts' *most) and their number to *nout,
     * only when it answers GDL_OK; RT_UNSHARED for a state it cannot make
     * so (the API asks next_checked). */
    uint32_t (*made_facts)(void *e, const Gt **facts, uint32_t *most);
    EngineStatus (*next_facts)(void *e, const Gt *state, uint32_t n, const Gt *joint, Gt *facts, uint32_t *nout);
    /* Optional (NULL: the engine's name): what a machine of the engine
     * plays by (gdl_machine_plan); valid until the next call. */
    const char *(*plan)(const void *e);
    /* Optional (NULL: the machine keeps ops and the engine): called once
     * the engine is made; the ops that play it, *engine replaced when
     * another engine plays instead (the hybrid engine without a network
     * hands its machine the goal-directed code). */
    const struct EngineOps *(*resolve)(const struct EngineOps *ops, void **engine);
} EngineOps;

extern const EngineOps rt_engine_ref;

/* The engine of a name given to gdl_machine_new (engines.c): the name before
 * the colon, an argument allowed or required after it as the engine says;
 * *arg what follows the colon (NULL: none). NULL when no engine has the
 * name. */
const EngineOps *rt_engine_find(const char *name, const char **arg);
/* The message for a name rt_engine_find did not know: the engines there
 * are (malloc-ed). */
char *rt_engine_unknown(const char *name);

/* Every answer of a relation that depends on neither `true` nor `does`,
 * evaluated by ref: tuples of the relation's arity appended to out, in
 * store (a proposition, arity 0, appends one 0 when true). GDL_LIMIT past max tuples, GDL_CANCELLED past the deadline. The
 * compiler's fold pass uses it to turn such relations into facts (pipeline.c
 * hands it to compile/fold.c). */
GdlStatus rt_ref_relation(const GdlGame *game, GtStore *store, uint32_t rel, uint32_t max, double deadline,
                          U32Vec *out);
/* The same within a budget of steps (a literal tried; a new answer or
 * table, several: ref.c's REF_ANSWER_STEPS), those it takes taken from
 * *steps: GDL_LIMIT when it runs out, at the same step on every machine,
 * whatever its load (the fold pass: the C generated from a game is then
 * the same on every machine). */
GdlStatus rt_ref_relation_counted(const GdlGame *game, GtStore *store, uint32_t rel, uint32_t max, uint64_t *steps,
                                  double deadline, U32Vec *out);
extern const EngineOps rt_engine_jit, rt_engine_aot, rt_engine_so, rt_engine_pn;
/* The board backend (board.c): the state as slots, the rules as loops. */
extern const EngineOps rt_engine_board;
/* A board engine (rt_engine_board's, its options none but cc) for the plan
 * of jit and aot (hybrid.c), or NULL with *why (malloc-ed) when the board
 * declines the game, its compiler fails, or making it fails: the plan
 * then plays otherwise. sample_seconds (0: board.c's own bound) bounds
 * the processor time its layout's sampling may take. Made before any
 * other engine of the store, its facts' ids increase with their slots;
 * made after, it writes next states through a bitset in id order. */
void *rt_board_make(const GdlGame *game, bool cc, double sample_seconds, GtStore *store, RtControl *ctl, char **why);
/* Starts the second tier of a board of libtcc's code: the system compiler
 * compiles the same C on a thread of its own, and the board plays by that
 * code from the first query after it is loaded (board.c); false when it
 * could not start (the board plays on by libtcc's). */
bool rt_board_tier2(void *board);
/* The ops that play a board of rt_board_make under the name of the engine
 * whose plan took it (jit, or aot). */
const EngineOps *rt_board_ops(const void *board, bool aot);

/* Engines jit and aot make a plan (hybrid.c): the game's propositional
 * network (engine pn's tables, which played the small games 11-28% faster
 * than libtcc's straight-line code of their propagation and as fast as
 * gcc's or faster) when the grounding fits the budget below, else,
 * and for any state the network cannot hold, the goal-directed code
 * (rt_engine_jit_goal, rt_engine_aot_goal). "jit:goal" and "aot:goal" are
 * the goal-directed code alone. */
extern const EngineOps rt_engine_jit_goal, rt_engine_aot_goal;
#define RT_JIT_PN_BUDGET "max-atoms=400000,max-rules=150000,max-links=300000"
#define RT_AOT_PN_BUDGET "max-atoms=600000,max-rules=250000,max-links=500000"

/* Engine pn made strict (by the hybrid engine, hybrid.c, which answers such
 * states itself): a query on a state its network cannot hold (a fact
 * it has no base for, a base it fixed given otherwise) returns
 * RT_PN_UNCOVERED, with no message, instead of answering as if the state
 * were the nearest one it holds. */
void rt_pn_strict(void *pn);
/* How many phases engine pn's network was made in (pn.c: a network per
 * phase, such as whose turn it is), 0 for one network for every state. */
uint32_t rt_pn_phases(const void *pn);
/* Whether engine pn's goals have a network of their own (pn.c: split_goals). */
bool rt_pn_goals_apart(const void *pn);
/* Whether engine pn tells changes in topological order (pn.c: choose_order). */
bool rt_pn_ordered(const void *pn);

/* Engine pn's count of its work (the plan, hybrid_plan.c): rt_pn_count turns the
 * counting on or off in every network it has (phases, goals apart; while
 * on, the tables' drains count and no image is copied back: pn.c's
 * snap_restore), rt_pn_work reads the work counted so far: changes told
 * (twice) and gates visited (Pn.work). */
void rt_pn_count(void *pn, bool on);
uint64_t rt_pn_work(const void *pn);
/* Its work a state change along seeded random playouts (PN_SAMPLE_STEPS
 * changes): what the plan of jit reads to decide whether the board is
 * worth trying (the same count on every machine and build). */
double rt_pn_work_per_step(void *pn);
/* The goal-directed code's count of its work (the plan): the steps its
 * polls counted (engine.h's POLL: a rule tried, a fact a join's loop met,
 * an answer added) and the facts of the states sent to it, so far, exact
 * and the same for the same queries; rt_compiled_limit stops its queries,
 * as cancelled, once the polls pass a count (0: no limit). For the
 * engines of compiled.c (jit:goal, aot:goal, so:PATH). */
void rt_compiled_work(const void *e, uint64_t *polls, uint64_t *facts_set);
void rt_compiled_limit(void *e, uint64_t polls);

/* What making a state needs of a fact (api.c: fact_share). */
typedef struct FactInfo {
    uint64_t mix; /* its share of a state's hash (0: not computed yet) */
    Gt cid;       /* its canonical id + 1 (0: not mapped yet) */
} FactInfo;

/* The canonical ids and hash shares of every fact a machine's engine
 * writes into states itself (EngineOps.made_facts), made once with the
 * machine and never changed after: a state so made points here instead of
 * holding its facts' canonical ids and hash, and whoever asks for them
 * (any machine of the game, in any thread, after its own machine is freed)
 * reads them here (api.c: state_cids, state_hash). Counted: the machine
 * and each state pointing here hold one reference; the last frees it. */
typedef struct FactShares {
    _Atomic uint32_t refs; /* the machine's, if alive, and one per state pointing here */
    Gt lo;            /* the least fact's own term id */
    uint32_t n;       /* own term ids lo .. lo + n - 1 are covered */
    FactInfo info[];  /* own term id - lo -> its share and canonical id + 1 (both 0: no such fact) */
} FactShares;

struct GdlMachine {
    const GdlGame *game;
    const EngineOps *ops;
    void *engine;
    Symtab syms;       /* the machine's symbols: the game's, plus any parsed */
    GtStore store;
    RtControl ctl;
    U32Vec roles;      /* role constants as terms */
    U32Vec scratch;    /* results handed to the caller */
    U32Vec sorted;     /* the facts of the state stamped sorted_stamp, in canonical order */
    uint64_t sorted_stamp; /* the stamp of the last state gdl_state_fact sorted (0: none) */
    bool oom;          /* memory ran out inside a query: every later one fails */
    BaseJournal journal; /* what the current call allocated (see GUARDED in api.c) */
    uint64_t serial;   /* names the machine in its states (see state_check) */
    U32Vec joint;      /* the joint move being played, copied from the caller */
    uint64_t stamp_next, stamp_end; /* fresh_stamp's block: stamps [next, end) are the machine's to give */
    /* The legal moves last computed per role, for checking joint moves in
     * O(roles): legal_stamp[k] is the stamp of the state they were computed
     * for (0: none), and term t is among them when legal_mark[k][t] is
     * legal_epoch[k] (a role's epoch changes each time it remembers). */
    uint64_t *legal_stamp;
    U32Vec *legal_mark;
    uint32_t *legal_epoch;
    GdlState *charge[2]; /* the depth charge's two states, reused */
    U32Vec props;      /* base propositions or input moves handed to the caller */
    U32Vec symidx;     /* gdl_state_write's scratch: per symbol, its number + 1 */
    U32Vec to_cid;     /* own term id -> the game's canonical id + 1 (0: not mapped yet) */
    U32Vec to_own;     /* canonical id -> own term id + 1 (0: not mapped yet) */
    U32Vec foreign;    /* the facts of the last state of another machine, as own ids, sorted */
    U32Vec foreign_cids; /* foreign_facts' scratch: that state's canonical ids, when it holds none */
    U32Vec rank;       /* own term id -> its place in canonical order + 1 (0: not ranked yet) */
    U32Vec ranked;     /* the ranked terms, in canonical order (rank - 1 indexes it) */
    U32Vec rank_tmp;   /* rank_sort's scratch */
    VEC(uint64_t) rank_bits; /* sort_unique's bitset */
    uint64_t foreign_stamp; /* that state's stamp (0: none) */
    VEC(FactInfo) fact_info; /* own term id -> what a state holding it needs (state_set) */
    FactShares *shares; /* of EngineOps.made_facts' facts (NULL: next_facts is not used) */
    uint32_t shares_max; /* how many facts next_facts may write (made_facts' *most) */
};

struct GdlState {
    uint64_t owner; /* the serial of the machine whose term ids facts are */
    uint64_t stamp; /* names these facts within the game (copies share it) */
    /* gdl_state_hash: from the facts' text, the same everywhere; set when
     * the state is made, or, when shares is set, 0 until first asked
     * (state_hash: any thread may fill it, so it is atomic) */
    _Atomic uint64_t hash;
    const GdlGame *game; /* a state is good for every machine of its game */
    /* NULL: facts[cap..cap+n) hold the facts' canonical ids (GameTerms),
     * in the same order; else the state was written by its machine's
     * engine (EngineOps.next_facts) and the ids and hash are read here
     * when asked (a reference held) */
    FactShares *shares;
    uint32_t cap;   /* room for facts (and as many canonical ids after them) */
    uint32_t n;     /* number of facts */
    Gt facts[];     /* facts[0..n): the owner's term ids, sorted */
};

/* ---- what the API's files share (api*.c, analysis_api.c) --------------- */

/* gdl_machine_new with its message in *err (malloc-ed), for the API's own
 * callers; gdl_game_error's message is set from it by rt_game_fail, which
 * takes message (NULL: the status's name). */
GdlStatus rt_machine_new(const GdlGame *game, const char *engine, GdlMachine **out, char **err);
/* The same, stopped by a deadline or a cancel flag (gdl_machine_new_until). */
GdlStatus rt_machine_new_until(const GdlGame *game, const char *engine, double deadline, const volatile int *cancel,
                               GdlMachine **out, char **err);
void rt_game_fail(const GdlGame *game, GdlStatus st, char *message);

/* Out of memory inside a public call (see GUARDED in api.c): the outermost
 * guarded call records its allocations in the machine's journal, and a
 * machine that ran out is marked and refuses every later query. */
BaseJournal *rt_journal_enter(GdlMachine *m);
void rt_journal_leave(GdlMachine *m, BaseJournal *outer, bool ok);
GdlStatus rt_machine_oom(GdlMachine *m, const char *what);

/* Runs call (a GdlStatus) under the machine's out-of-memory handler and
 * returns its status (GDL_OUT_OF_MEMORY when memory ran out). */
#define RT_GUARDED(m, call)                                                    \
    do {                                                                       \
        if ((m)->oom)                                                          \
            return GDL_OUT_OF_MEMORY;                                          \
        BaseJournal *outer_ = rt_journal_enter(m);                             \
        BaseOom oom_;                                                          \
        base_oom_push(&oom_);                                                  \
        if (BASE_OOM_SETJMP(&oom_)) {                                          \
            rt_journal_leave((m), outer_, false);                              \
            return rt_machine_oom((m), oom_.what);                             \
        }                                                                      \
        GdlStatus st_ = (call);                                                \
        base_oom_pop(&oom_);                                                   \
        rt_journal_leave((m), outer_, true);                                   \
        return st_;                                                            \
    } while (0)

/* The same for calls that return a value of type T: fail when memory ran
 * out (NULL for a pointer). */
#define RT_GUARDED_AS(m, T, fail, call)                                        \
    do {                                                                       \
        if ((m)->oom)                                                          \
            return (fail);                                                     \
        BaseJournal *outer_ = rt_journal_enter(m);                             \
        BaseOom oom_;                                                          \
        base_oom_push(&oom_);                                                  \
        if (BASE_OOM_SETJMP(&oom_)) {                                          \
            rt_journal_leave((m), outer_, false);                              \
            rt_machine_oom((m), oom_.what);                                    \
            return (fail);                                                     \
        }                                                                      \
        T r_ = (call);                                                         \
        base_oom_pop(&oom_);                                                   \
        rt_journal_leave((m), outer_, true);                                   \
        return r_;                                                             \
    } while (0)

/* A bug planted in a batch (batch.c), for the tests that show they catch
 * one: lane 63 loses the last of its legal moves (when it has two or
 * more), or lane 1 shares lane 0's generator (from the next restart). */
enum { RT_BATCH_BUG_MASK63 = 1, RT_BATCH_BUG_SHARE = 2 };
void rt_batch_plant(GdlBatch *b, int bug);
/* Whether the batches made from now on find the k-th legal move by BMI2's
 * pdep (on where it is fast) or by bytes' counts: for the tests, which
 * play both; not while another thread makes a batch. Answers whether pdep
 * is now used. */
bool rt_batch_pdep(bool on);

/* GDL_OK when s is a state of m's game, else GDL_BAD_ARGUMENT (message set). */
GdlStatus rt_state_check(GdlMachine *m, const GdlState *s);
/* The facts of s (a state of m's game) as m's own term ids, sorted by id:
 * s's own array when m made it, else mapped (valid until the next call). */
const Gt *rt_own_facts(GdlMachine *m, const GdlState *s);
/* A new state of m holding facts (m's ids, any order, duplicates allowed). */
GdlState *rt_state_make(GdlMachine *m, const Gt *facts, uint32_t n);
/* The symmetries of an analysis (analysis_api.c), for tests and reports:
 * why the set is the identity alone (NULL when kept whole, or not made
 * yet), the seconds finding and checking took, and the check run on a
 * candidate (pairs as gdl_analysis_symmetry gives them; every other fact
 * and move fixed): *why NULL when it passes, else why not (malloc-ed). */
const char *rt_symmetry_why(const GdlAnalysis *a);
double rt_symmetry_seconds(const GdlAnalysis *a);
GdlStatus rt_symmetry_try(GdlAnalysis *a, const GdlSymmetry *candidate, char **why);
/* Parses ground terms written in KIF into m's store, appending them to
 * out; GDL_BAD_ARGUMENT (message set) on text that is not ground KIF. */
GdlStatus rt_parse_terms(GdlMachine *m, const char *text, U32Vec *out);

#endif
