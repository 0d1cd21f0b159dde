/*
 * gdl.h: the public API of gdlc, a compiler of GDL games to state machines.
 * This is API version 1.3 (GDL_VERSION_NUMBER 10300): 1.0,
 * gdl_machine_new_until (1.1), the batched playouts, gdl_batch_* (1.2),
 * and a state's facts and the batch's lanes as arrays of bytes, for numpy
 * (gdl_state_facts, gdl_batch_bases, gdl_batch_observe,
 * gdl_batch_legal_columns: 1.3).
 *
 * The model is GGP-Base's StateMachine: a game has roles, an initial state,
 * legal moves per role, a next state per joint move, terminality and goal
 * values. The API is engine-neutral: a machine is made for a game by engine
 * name, and every engine answers every query identically.
 *
 * Names
 *   Every function is gdl_OBJECT_VERB: the object it is about (game,
 *   diagnostics, machine, state, move, fact, joint_moves, successors, rng,
 *   analysis, filter, status), then what it does. A call about a state
 *   takes the machine that evaluates it first, as lua's calls take their
 *   lua_State: gdl_state_next(m, s, joint, &out). The only exception is
 *   gdl_now, the clock deadlines are set against.
 *
 * Engines (the name given to gdl_machine_new; NULL is "jit")
 *   "jit"       a plan per game: the game's propositional network where its
 *               grounding fits a budget and the network plays faster, else
 *               the game compiled to C and that C compiled in process by
 *               libtcc; a state the network cannot hold is answered by the
 *               compiled C. gdl_machine_plan says which plan was taken.
 *   "jit:goal"  the compiled C alone; "jit:pn" the network, untimed.
 *   "aot"       as jit, the C compiled by the system compiler (GDLC_CC, CC
 *               or cc) and cached in $XDG_CACHE_HOME/gdlc; "aot:goal",
 *               "aot:pn" as for jit.
 *   "so:PATH"   a shared object made earlier by `gdlc compile` (checked:
 *               GDL_IO_ERROR when it cannot be read, GDL_BAD_ARGUMENT when
 *               it is not a gdlc object of this game and version).
 *   "pn"        the grounded game as a propositional network, evaluated
 *               from tables. Options after the colon, comma-separated:
 *               max-atoms=N, max-rules=N, max-links=N (the grounding's
 *               budgets; a game past one is refused with GDL_LIMIT),
 *               compiled (the propagation compiled by libtcc; with
 *               max-lines=N, the code's budget), cc (compiled by the
 *               system compiler), no-phases, whole, condensed, ordered,
 *               queued (the network's layout; README: Engine pn).
 *   "ref"       the reference interpreter, which every engine is checked
 *               against; "ref:ground" evaluates the ground program.
 * gdl_engines() lists every name with its options, one line each, as
 * `gdlc help engines` prints them.
 * The analyses of a game (gdl_analysis_new, below) and the filtered
 * machines built on them work over the propositional network.
 *
 * Objects and lifetimes
 *   what                          owned by   valid until
 *   GdlGame                       caller     gdl_game_free, after its machines
 *   GdlDiagnostics                caller     gdl_diagnostics_free
 *   GdlMachine                    caller     gdl_machine_free, before its game
 *   GdlState                      caller     gdl_state_free (any machine of
 *                                            its game may read it; not after
 *                                            the game is freed)
 *   GdlMove, GdlFact ids          machine    the machine's life
 *   text of a move, fact or a     machine    the machine's life
 *     state's fact
 *   arrays of moves or facts      machine    the next call on the machine
 *     (legal moves, base                     (gdl_move_text, gdl_fact_text
 *     propositions, input moves)             and gdl_state_fact excepted)
 *   gdl_machine_error's text      machine    the next call on the machine
 *   gdl_game_error's text         library    the next failing call about the
 *                                            game in the same thread
 *   role names                    game       the game's life
 *   GdlJointMoves                 caller     gdl_joint_moves_free, before
 *                                            its machine; each joint move
 *                                            until the next gdl_joint_moves_next
 *   GdlSuccessors                 caller     gdl_successors_free
 *   GdlAnalysis                   caller     gdl_analysis_free, before its
 *                                            machine
 *   claims, symmetries            analysis   the analysis's life
 *   other answers of an analysis  analysis   the next call on the analysis
 *   version, status names         library    always
 *
 * Threads
 *   A GdlGame is immutable once loaded: several machines, in several
 *   threads, may share it. A GdlMachine is not thread-safe: use one machine
 *   per thread (an analysis counts as its machine). A state is a value
 *   that belongs to its game: every machine of the game, of any engine and
 *   in any thread, may read it (a player's threads share their tree's
 *   states); its own machine reads it fastest, another maps its facts to
 *   its own terms once per state. A state is immutable while other threads
 *   read it. Across processes, use gdl_state_write and gdl_state_read.
 *   Moves and facts are ids of a machine's term store, meaningless to
 *   another machine: gdl_move_text and gdl_move_parse cross.
 *
 * Errors
 *   Every call that can fail returns a GdlStatus; GDL_OK is 0. Each object
 *   has one error channel: after a failed call on a machine (or on an
 *   analysis or a state, which count as calls on their machine),
 *   gdl_machine_error() describes it; after a failed call that makes a
 *   machine of a game, gdl_game_error() does. Loading a game returns its
 *   diagnostics as data (GdlDiagnostics), errors and warnings alike. The
 *   library never prints and never exits: running out of memory is
 *   GDL_OUT_OF_MEMORY (the calls that return a pointer return NULL).
 *   Every object the caller holds stays valid to free, and nothing leaks:
 *   what the call that ran out had allocated is freed with its machine
 *   (at once when loading a game or making a machine).
 *
 * Cancellation
 *   A player must never blow its play clock. gdl_machine_set_deadline gives a
 *   monotonic-clock deadline, gdl_machine_set_cancel_flag a flag another
 *   thread may set to non-zero; evaluation polls both and a query that stops
 *   early returns GDL_CANCELLED, leaving the machine usable.
 *
 * Misuse
 *   Every call that takes a state checks that the state is one of this
 *   machine's game: a state of another game is GDL_BAD_ARGUMENT, not a
 *   wrong answer or a crash. So are a role or a move
 *   id out of range. A joint move is checked in O(number of roles): the
 *   k-th move of a joint move must be among role k's legal moves in the
 *   state. A propositional network reads the move's bit; otherwise the
 *   machine remembers, per role, the legal moves it last computed and for
 *   which state (every state has a stamp, kept by copies and renewed when
 *   gdl_state_next_into overwrites it), and when it has not computed them
 *   for that state (a move parsed from a server's message), the check
 *   computes them once, at the cost of one gdl_state_legal. So a
 *   move of another role, two moves of one role, or an illegal move are
 *   GDL_BAD_ARGUMENT, and a player's usual loop (legal moves, then the next
 *   state) pays nothing more than a few comparisons.
 *
 * Hashing
 *   gdl_state_hash is computed from the text of the state's facts, so it
 *   is the same for every machine, engine and process of a game:
 *   transposition tables may be kept on disk. It is O(1) but for the first
 *   call on a state that the engine wrote itself (the next states of a
 *   propositional network, which a playout makes without reading their
 *   hash): that call sums the shares of its facts, once.
 */
#ifndef GDL_H
#define GDL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version and status --------------------------------------------- */

/* The API's version: GDL_VERSION_NUMBER is MAJOR * 10000 + MINOR * 100 +
 * PATCH, for #if; gdl_version() is the library's, which may be newer than
 * the header an embedder compiled against. */
#define GDL_VERSION "1.3.0"
#define GDL_VERSION_NUMBER 10300

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *gdl_version(void);

typedef enum GdlStatus {
    GDL_OK = 0,          /* success */
    GDL_INVALID_GAME,    /* the game text is not valid GDL: see the diagnostics */
    GDL_IO_ERROR,        /* a file could not be read or written */
    GDL_NO_ENGINE,       /* no engine of that name */
    GDL_BAD_ARGUMENT,    /* an argument is out of range or not parseable */
    GDL_GAME_FAULT,      /* the game misbehaves in this state: no legal move
                            in a non-terminal state, or in a terminal state a
                            role with no goal value or several */
    GDL_LIMIT,           /* an evaluation limit was hit (term depth, facts) */
    GDL_CANCELLED,       /* the deadline passed or the cancel flag was set */
    GDL_OUT_OF_MEMORY,   /* an allocation failed; a machine that returns it
                            answers every later query with it: free it */
} GdlStatus;

/* A short English name of a status. */
const char *gdl_status_name(GdlStatus s);

/* ---- games and their diagnostics -------------------------------------- */

typedef struct GdlGame GdlGame;
typedef struct GdlDiagnostics GdlDiagnostics;

typedef enum GdlSeverity {
    GDL_SEVERITY_ERROR,   /* the game is rejected */
    GDL_SEVERITY_WARNING, /* accepted, probably not what the author meant */
    GDL_SEVERITY_NOTE,    /* more about the diagnostic before it */
} GdlSeverity;

typedef struct GdlDiagnostic {
    GdlSeverity severity;
    const char *file;    /* the name the game was loaded under */
    unsigned line, col;  /* 1-based; col counts bytes */
    const char *message;
} GdlDiagnostic;

/* Loads a game from a file or from text (name is used in diagnostics).
 * On GDL_OK *game is set. Whatever the status, when diags is not NULL it
 * receives the diagnostics (free with gdl_diagnostics_free); a file that
 * cannot be read (GDL_IO_ERROR) has one, an error at line 1 whose message
 * says why ("cannot open PATH: No such file or directory"). */
GdlStatus gdl_game_load_file(const char *path, GdlGame **game, GdlDiagnostics **diags);
GdlStatus gdl_game_load_string(const char *name, const char *text, size_t len, GdlGame **game,
                               GdlDiagnostics **diags);
void gdl_game_free(GdlGame *game);

size_t gdl_diagnostics_count(const GdlDiagnostics *d);
/* The i-th diagnostic, in source order; NULL when i is out of range. */
const GdlDiagnostic *gdl_diagnostics_get(const GdlDiagnostics *d, size_t i);
/* Prints them as gdlc does: FILE:LINE:COL: severity: message, source line, caret. */
void gdl_diagnostics_print(FILE *f, const GdlDiagnostics *d, bool warnings);
void gdl_diagnostics_free(GdlDiagnostics *d);

unsigned gdl_game_role_count(const GdlGame *game);
/* Role names in declaration order, lower case. */
const char *gdl_game_role_name(const GdlGame *game, unsigned role);
/* The index of the role named name, compared case-insensitively as GDL
 * compares symbols. GDL_BAD_ARGUMENT when no role has that name. */
GdlStatus gdl_game_role_find(const GdlGame *game, const char *name, unsigned *role);
/* Describes the last failed call that made a machine of game
 * (gdl_machine_new, gdl_machine_new_filtered) in the calling thread; ""
 * when there was none. */
const char *gdl_game_error(const GdlGame *game);

/* ---- machines -------------------------------------------------------- */

typedef struct GdlMachine GdlMachine;
typedef struct GdlState GdlState;
/* A move (a ground term that `does` may take) and a fact (a ground term
 * that `true` may hold: a base proposition), as ids of a machine's term
 * store. */
typedef uint32_t GdlMove;
typedef uint32_t GdlFact;

/* An engine name gdl_machine_new accepts (gdl_engines). */
typedef struct GdlEngineInfo {
    const char *name;    /* as given to gdl_machine_new; N stands for a number, PATH for a file */
    const char *summary; /* what it plays by, in one line */
} GdlEngineInfo;
/* Every engine name gdl_machine_new accepts, with its options (see Engines
 * above), the default first; the array ends with an entry whose name is
 * NULL. The library's, valid always. */
const GdlEngineInfo *gdl_engines(void);

/* Makes a machine of the named engine (see Engines above; NULL means
 * "jit"). On failure *m is NULL and gdl_game_error(game) says why:
 * GDL_NO_ENGINE for an unknown name, GDL_IO_ERROR for an so: object that
 * cannot be read, GDL_BAD_ARGUMENT for one that is not a gdlc object of this
 * game or a bad option, GDL_LIMIT when the game is past an engine's limits. */
GdlStatus gdl_machine_new(const GdlGame *game, const char *engine, GdlMachine **m);
/* The same, given up when the deadline (seconds of CLOCK_MONOTONIC, 0 for
 * none) passes or *cancel (NULL for none) becomes non-zero before the
 * machine is made: then GDL_CANCELLED and *m NULL. Making polls them where
 * it takes long (grounding, the plan's timing, the board's sampling and
 * join orders, a compile waiting for another thread's); a compile under
 * way ends first. The machine starts with no deadline and no cancel
 * flag. */
GdlStatus gdl_machine_new_until(const GdlGame *game, const char *engine, double deadline, const volatile int *cancel,
                                GdlMachine **m);
void gdl_machine_free(GdlMachine *m);
/* The engine's name. */
const char *gdl_machine_engine(const GdlMachine *m);
/* How it plays this game: for engine jit, "propositional network" (the
 * game's grounding fit its budget; states outside the network, made by
 * hand, are answered by the goal-directed code, and the plan then says so)
 * or "goal-directed code"; for the other engines their name. */
const char *gdl_machine_plan(const GdlMachine *m);
/* Describes the last failed call on this machine ("" when none). */
const char *gdl_machine_error(const GdlMachine *m);

/* Deadline in seconds of CLOCK_MONOTONIC (see gdl_now); 0 clears it. */
void gdl_machine_set_deadline(GdlMachine *m, double deadline);
/* A flag evaluation polls: non-zero cancels. NULL clears it. */
void gdl_machine_set_cancel_flag(GdlMachine *m, const volatile int *flag);
/* Seconds of CLOCK_MONOTONIC. */
double gdl_now(void);

/* The game's base propositions (every fact a state may hold) and input
 * moves of a role (every move it may make), as terms sorted canonically;
 * *facts (*moves) points into the machine and stays valid until the next
 * call on it. Where the game has `base` (or `input`) rules they are the
 * answer, from every engine alike. Where it has none the answer is a sound
 * over-approximation computed on the game's rules: each argument position
 * of `true` (of `does`, for moves) takes any constant or term that some
 * `init`, `next` (`legal`) head can put there, a variable position taking
 * every value the rule's body can bind it to, approximated per argument
 * position; the set holds every reachable fact and possibly more.
 * GDL_LIMIT past max terms (0: no bound). */
GdlStatus gdl_machine_base_propositions(GdlMachine *m, uint64_t max, const GdlFact **facts, size_t *n);
GdlStatus gdl_machine_input_moves(GdlMachine *m, unsigned role, uint64_t max, const GdlMove **moves, size_t *n);

/* ---- states: the game's moves --------------------------------------- */

GdlStatus gdl_state_initial(GdlMachine *m, GdlState **out);
/* Legal moves of a role, sorted canonically (by the bytes of their KIF
 * text). *moves points into the machine and stays valid only until the next
 * call on the machine (any call but gdl_move_text): copy the moves to keep
 * them. The moves themselves (the ids) stay valid for the machine's life. */
GdlStatus gdl_state_legal(GdlMachine *m, const GdlState *s, unsigned role, const GdlMove **moves, size_t *n);
/* The next state after a joint move: one move per role, in role order,
 * each a legal move of its role in s (GDL_BAD_ARGUMENT otherwise: see
 * Misuse). */
GdlStatus gdl_state_next(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out);
GdlStatus gdl_state_is_terminal(GdlMachine *m, const GdlState *s, bool *terminal);
/* Goal values of every role (role_count values). In a non-terminal state a
 * role without a goal value gets GDL_NO_GOAL. In a terminal state a role
 * with no value or several is GDL_GAME_FAULT, naming the role. */
#define GDL_NO_GOAL (-1)
GdlStatus gdl_state_goals(GdlMachine *m, const GdlState *s, int *values);

/* The goal value of one role: 0 to 100, or GDL_NO_GOAL in a non-terminal
 * state where the role has none. The checks of gdl_state_goals, for this
 * role. */
GdlStatus gdl_state_goal(GdlMachine *m, const GdlState *s, unsigned role, int *value);

/* gdl_state_next writing into a caller's state object: *out is NULL (a new
 * state is made) or a state of the caller's, overwritten and grown when too
 * small, so a loop that reuses it allocates nothing once it has grown.
 * *out may be s itself. On failure *out is left as it was. */
GdlStatus gdl_state_next_into(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out);

/* ---- states as values ------------------------------------------------ */

GdlState *gdl_state_copy(const GdlState *s);
void gdl_state_free(GdlState *s);
/* Equal when they hold the same facts (states of different games never are). */
bool gdl_state_equal(const GdlState *a, const GdlState *b);
/* The state's hash (see Hashing above); 0 for NULL. */
uint64_t gdl_state_hash(const GdlState *s);
/* Number of facts, and the canonical KIF text of the i-th in canonical order
 * (valid until the machine is freed; NULL for a state of another game). */
size_t gdl_state_size(const GdlState *s);
const char *gdl_state_fact(GdlMachine *m, const GdlState *s, size_t i);
/* The facts as the machine's ids, in the same canonical order (1.3):
 * *facts points into the machine, valid until the next call on it. */
GdlStatus gdl_state_facts(GdlMachine *m, const GdlState *s, const GdlFact **facts, size_t *n);
/* A state from facts written in KIF, e.g. "(cell 1 1 b) (control x)". */
GdlStatus gdl_state_parse(GdlMachine *m, const char *text, GdlState **out);

/* ---- moves and facts ------------------------------------------------ */

/* The canonical KIF text of a move or a fact: lower case, single spaces. */
const char *gdl_move_text(GdlMachine *m, GdlMove move);
const char *gdl_fact_text(GdlMachine *m, GdlFact fact);
/* Parses a move or a fact written in KIF. */
GdlStatus gdl_move_parse(GdlMachine *m, const char *text, GdlMove *move);
GdlStatus gdl_fact_parse(GdlMachine *m, const char *text, GdlFact *fact);

/* ---- random numbers ------------------------------------------------- */

/* gdlc's documented generator (SplitMix64), so that a seed gives the same
 * playthrough on every engine and machine. */
typedef struct GdlRng {
    uint64_t state;
} GdlRng;
void gdl_rng_seed(GdlRng *r, uint64_t seed);
uint64_t gdl_rng_next(GdlRng *r);
/* Uniform in [0, n), by rejection so there is no bias. n > 0. */
uint64_t gdl_rng_below(GdlRng *r, uint64_t n);

/* ---- random moves and playouts --------------------------------------- */

/* A random legal move of a role, and a random joint move (role_count moves
 * in role order). The draw is gdlc's: for each role in order, the legal
 * moves sorted canonically, then moves[gdl_rng_below(rng, n)]; so a seed
 * gives the same moves as `gdlc play --seed` on every engine. */
GdlStatus gdl_state_random_move(GdlMachine *m, const GdlState *s, unsigned role, GdlRng *rng, GdlMove *move);
GdlStatus gdl_state_random_joint_move(GdlMachine *m, const GdlState *s, GdlRng *rng, GdlMove *joint);

/* A depth charge: random joint moves (drawn as gdl_state_random_joint_move draws
 * them) from s to a terminal state, in the library's own loop, which makes
 * no allocation per step. Writes the terminal state's goals (role_count
 * values) and the number of steps taken. GDL_LIMIT when max_depth steps
 * (0: no bound) did not reach the end; the deadline and cancel flag apply. */
GdlStatus gdl_state_depth_charge(GdlMachine *m, const GdlState *s, GdlRng *rng, uint64_t max_depth, int *goals,
                                 uint64_t *depth);

/* ---- joint moves and successors -------------------------------------- */

/* The legal joint moves of a state, one at a time: every combination of
 * the roles' legal moves (sorted canonically), the last role's move varying
 * fastest. gdl_joint_moves_new computes the legal moves of every role and
 * gives an iterator (free it with gdl_joint_moves_free; it may outlive
 * later calls on the machine, not the machine). Each call of
 * gdl_joint_moves_next sets *joint to the next joint move (role_count
 * moves, valid until the next call on the iterator), or to NULL after the
 * last; once max joint moves have been given and more remain it returns
 * GDL_LIMIT (one-move Amazons has millions). gdl_joint_moves_count is the
 * number of joint moves, UINT64_MAX when that overflows. */
typedef struct GdlJointMoves GdlJointMoves;
GdlStatus gdl_joint_moves_new(GdlMachine *m, const GdlState *s, uint64_t max, GdlJointMoves **it);
GdlStatus gdl_joint_moves_next(GdlJointMoves *it, const GdlMove **joint);
uint64_t gdl_joint_moves_count(const GdlJointMoves *it);
void gdl_joint_moves_free(GdlJointMoves *it);

/* Every next state of s with its joint move, in gdl_joint_moves_new order:
 * n states, and n * role_count moves (joint move i is joints[i * roles]).
 * GDL_LIMIT, with nothing made, when s has more than max joint moves. Free
 * with gdl_successors_free. */
typedef struct GdlSuccessors {
    size_t n;           /* number of joint moves, and of states */
    unsigned roles;     /* moves per joint move */
    GdlMove *joints;    /* n joint moves, one after the other */
    GdlState **states;  /* the next state of each */
} GdlSuccessors;
GdlStatus gdl_state_successors(GdlMachine *m, const GdlState *s, uint64_t max, GdlSuccessors *out);
void gdl_successors_free(GdlSuccessors *x);

/* ---- states as bytes ------------------------------------------------ */

/* States as bytes, the same bytes from every engine and machine for the
 * same facts (transposition tables, solver graphs, files, other threads).
 * Format version 1, integers as LEB128 varints:
 *   "GDLS", then the byte GDL_STATE_FORMAT;
 *   the number of symbols, and each symbol: its length, then its text;
 *   the number of facts, then each fact in canonical order, a term written
 *   as index * 8 + min(arity, 7) (index: its symbol's in the list above),
 *   then arity - 7 when arity >= 7, then its arguments;
 *   the FNV-1a 64-bit hash of every byte before it, 8 bytes little-endian.
 * gdl_state_write writes into buf (cap bytes) and sets *len to the size;
 * when cap is too small it writes nothing and returns GDL_LIMIT with *len
 * set, so gdl_state_write(m, s, NULL, 0, &len) asks for the size.
 * gdl_state_read checks everything (version, hash, every count and index,
 * symbol text, term depth, no byte left over) and returns GDL_BAD_ARGUMENT
 * on damaged input without making anything. */
#define GDL_STATE_FORMAT 1
GdlStatus gdl_state_write(GdlMachine *m, const GdlState *s, void *buf, size_t cap, size_t *len);
GdlStatus gdl_state_read(GdlMachine *m, const void *buf, size_t len, GdlState **out);

/* ---- batched playouts ------------------------------------------------ */

/* Many random playouts at once: the game's propositional network (engine
 * pn's) evaluated for 64 to GDL_BATCH_MAX_LANES lanes at a time, one bit
 * of a word per lane, every gate one bitwise operation for 64 lanes.
 *
 * Each lane plays random playouts back to back: from the initial state,
 * joint moves drawn as gdl_state_random_joint_move draws them from the
 * lane's own generator, seeded seed + lane, until a terminal state or
 * max_steps joint moves (a step cap, as `gdlc bench --max-steps`: at the
 * cap the lane draws its moves, then stops), then again from the initial
 * state. So lane i plays exactly the playouts one machine plays with
 * generator seed + i, as `gdlc bench --seed` plays them.
 *
 * gdl_batch_new grounds the game as engine pn does, within its budgets
 * (GDL_LIMIT past them, naming the engine that plays the game) and polls
 * the machine's deadline and cancel flag while it does; the batch keeps m
 * for the terms of its facts and moves (free the batch first). A batch is
 * one thread's: gdl_batch_fork makes another batch of the same network
 * (shared, never written) and lanes, for another thread; forks may run at
 * once, and the last one freed frees the network. gdl_batch_run plays
 * passes (a joint move in every lane; 0: until the deadline or the cancel
 * flag, GDL_CANCELLED then) and sets *stats to the totals since the batch
 * was made or restarted. After a failed call on a batch gdl_batch_error
 * says why (gdl_batch_new's: gdl_machine_error). gdl_batch_plan describes
 * the evaluation chosen. */
#define GDL_BATCH_MAX_LANES 512
typedef struct GdlBatch GdlBatch;
typedef struct GdlBatchStats {
    uint64_t passes;        /* joint moves made in every lane at once */
    uint64_t state_changes; /* joint moves made, every lane counted */
    uint64_t playouts;      /* playouts ended: terminal or capped */
    uint64_t capped;        /* of which at the step cap */
} GdlBatchStats;
GdlStatus gdl_batch_new(GdlMachine *m, unsigned lanes, uint64_t seed, uint64_t max_steps, GdlBatch **out);
GdlStatus gdl_batch_fork(const GdlBatch *b, uint64_t seed, GdlBatch **out);
void gdl_batch_free(GdlBatch *b);
/* Every lane back at the initial state, generators seeded seed + lane, totals zero. */
void gdl_batch_restart(GdlBatch *b, uint64_t seed);
GdlStatus gdl_batch_run(GdlBatch *b, uint64_t passes, GdlBatchStats *stats);
void gdl_batch_set_deadline(GdlBatch *b, double deadline);
void gdl_batch_set_cancel_flag(GdlBatch *b, const volatile int *flag);
unsigned gdl_batch_lanes(const GdlBatch *b);
/* How the state's part of the network is evaluated each pass: whole
 * (GDL_BATCH_EVAL_FULL, branch-free), or only the gates an input of which
 * changed in some lane of a word since the last pass
 * (GDL_BATCH_EVAL_CHANGES); gdl_batch_new chooses by the words each reads
 * over a sample of passes, and gdl_batch_plan says which. */
enum { GDL_BATCH_EVAL_FULL = 0, GDL_BATCH_EVAL_CHANGES = 1 };
GdlStatus gdl_batch_set_evaluation(GdlBatch *b, int how);
int gdl_batch_evaluation(const GdlBatch *b);
const char *gdl_batch_plan(const GdlBatch *b);
const char *gdl_batch_error(const GdlBatch *b);

/* One lane, for checking and for callers that follow lanes. After a pass:
 * gdl_batch_lane_state is the lane's state now (a new state of the
 * batch's machine, a call on that machine); gdl_batch_lane_legal, role's
 * legal moves in the state the lane moved from (sorted canonically; the
 * array is the machine's, as gdl_state_legal's); gdl_batch_lane_pass, how
 * the pass went: whether the lane's playout ended first (then its length
 * and, when terminal, its goals, valid until the next pass) and the joint
 * move it then made, from the initial state when it ended. */
#define GDL_BATCH_MAX_ROLES 64
enum { GDL_BATCH_PLAYING = 0, GDL_BATCH_TERMINAL = 1, GDL_BATCH_CAPPED = 2 };
typedef struct GdlBatchLane {
    int ended;              /* GDL_BATCH_*: how the pass began for the lane */
    uint64_t ended_steps;   /* the length of the playout that ended */
    const int *goals;       /* role_count values when it ended terminal, else NULL */
    GdlMove joint[GDL_BATCH_MAX_ROLES]; /* the joint move made (role_count moves) */
} GdlBatchLane;
GdlStatus gdl_batch_lane_state(GdlBatch *b, unsigned lane, GdlState **out);
/* Leaf evaluation (MCTS): one random playout from each of n states of the
 * batch's machine's game, run in the lanes; goals[i * role_count + k] is
 * role k's goal at the end of state i's playout, GDL_NO_GOAL for every
 * role when it reached the step cap (counted from state i). The moves come
 * from the lanes' generators, which go on from where they were, so the
 * answers are the same for the same seed and the same calls; after it the
 * lanes go on from where they stopped (gdl_batch_restart starts again).
 * A state holding a fact the network has no base proposition for, or
 * contradicting one it proved fixed, is GDL_BAD_ARGUMENT. */
GdlStatus gdl_batch_playouts(GdlBatch *b, const GdlState *const *states, size_t n, int *goals);

/* The per-step form (a learning loop): the caller chooses every lane's
 * moves. A role's actions are its possible moves, in canonical order
 * (gdl_batch_role_moves: the array is the batch's, valid for its life);
 * gdl_batch_legal_mask writes lanes x actions bytes, mask[lane * actions +
 * a] 1 when action a is legal in the lane's state; gdl_batch_terminal
 * writes a byte per lane and, when goals is not NULL, lanes x role_count
 * goals (GDL_NO_GOAL in lanes not terminal); gdl_batch_step plays
 * actions[lane * role_count + k] in every lane (GDL_BAD_ARGUMENT, nothing
 * played, when a lane is terminal or an action is not legal);
 * gdl_batch_reset_lanes puts the lanes with which[lane] non-zero (NULL:
 * all) back at the initial state. */
size_t gdl_batch_role_moves(GdlBatch *b, unsigned role, const GdlMove **moves);
GdlStatus gdl_batch_legal_mask(GdlBatch *b, unsigned role, uint8_t *mask);
GdlStatus gdl_batch_terminal(GdlBatch *b, uint8_t *terminal, int *goals);
GdlStatus gdl_batch_step(GdlBatch *b, const uint32_t *actions);
GdlStatus gdl_batch_reset_lanes(GdlBatch *b, const uint8_t *which);
GdlStatus gdl_batch_lane_legal(GdlBatch *b, unsigned lane, unsigned role, const GdlMove **moves, size_t *count);
GdlStatus gdl_batch_lane_pass(GdlBatch *b, unsigned lane, GdlBatchLane *info);

/* Every lane as bytes, for arrays of lanes x width laid out stride bytes
 * apart (1.3; numpy's, in the Python package). gdl_batch_bases gives the
 * batch's base propositions (facts of its machine, valid for the batch's
 * life): gdl_batch_observe writes obs[lane * stride + column[i]] = 1 when
 * base i holds in the lane's state, and 0 at every other byte of
 * obs[lane * stride .. + width); gdl_batch_legal_columns does the same
 * for role's actions (gdl_batch_role_moves' order) legal in the lane's
 * state. column NULL is column i for item i (width must then hold every
 * item); a column at or past width is left out. gdl_batch_reset_lanes
 * after gdl_batch_terminal blends the initial state in, so that the masks
 * after it cost no second evaluation. */
size_t gdl_batch_bases(GdlBatch *b, const GdlFact **facts);
GdlStatus gdl_batch_observe(GdlBatch *b, const uint32_t *column, size_t width, size_t stride, uint8_t *obs);
GdlStatus gdl_batch_legal_columns(GdlBatch *b, unsigned role, const uint32_t *column, size_t width, size_t stride,
                                  uint8_t *mask);

/* ---- game analyses (over the propositional network) ----------------- */

/* The analyses of the game's propnet (the grounded game, as engine pn
 * builds it): latches, joint latches, goal latches, inhibitors, dead
 * states, control propositions, irrelevant roles, move partitions, and the
 * per-state queries built on them (score range, winning and losing moves,
 * goal distance). Made from a machine, whose term store it shares: its
 * states and moves are the machine's, and its calls count as calls on the
 * machine (not thread-safe with it; make one machine and analysis per
 * thread). options: NULL or "samples=N,seed=S,max-atoms=N,max-rules=N,
 * max-links=N" (samples: states sampled along seeded random playthroughs
 * for joint latches, default 16). On failure gdl_machine_error(m) says why:
 * GDL_BAD_ARGUMENT for bad options, GDL_LIMIT, with the grounder's message,
 * when the game does not ground within the budgets. The machine's
 * deadline and cancel flag hold while it is built (grounding, the network,
 * the analyses): GDL_CANCELLED when either stops it. Free it before its
 * machine. */
typedef struct GdlAnalysis GdlAnalysis;
GdlStatus gdl_analysis_new(GdlMachine *m, const char *options, GdlAnalysis **a);
void gdl_analysis_free(GdlAnalysis *a);

typedef enum GdlClaimKind {
    GDL_CLAIM_LATCH,       /* sentences[0] keeps values[0] once it has it */
    GDL_CLAIM_JOINT_LATCH, /* when every sentence has its value, all keep them */
    GDL_CLAIM_GOAL_LATCH,  /* sentences[0] with values[0] fixes or excludes role's goal value goal */
    GDL_CLAIM_INHIBITOR,   /* sentences[0] true forces sentences[1] false in the next state */
    GDL_CLAIM_DEAD,        /* every state where sentences[0] has values[0] is dead for role */
    GDL_CLAIM_CONTROL,     /* sentences[0] is independent of every move choice */
    GDL_CLAIM_IRRELEVANT,  /* the moves of other_role cannot affect role's goals */
    GDL_CLAIM_PARTITION,   /* role's moves in groups: moves[group_at[g] .. group_at[g+1]) */
    GDL_CLAIM_NKINDS
} GdlClaimKind;

/* One claim of the analysis. Sentences are canonical KIF text of the
 * facts (`(cell 1 1 x)`, as in states); moves are the machine's. */
typedef struct GdlClaim {
    GdlClaimKind kind;
    unsigned role, other_role;
    int goal;                     /* GOAL_LATCH: the goal value */
    bool fixes;                   /* GOAL_LATCH: fixes (true) or excludes it */
    size_t n;                     /* sentences and values */
    const char *const *sentences;
    const bool *values;
    size_t ngroups;               /* PARTITION */
    const size_t *group_at;       /* ngroups + 1 entries */
    const GdlMove *moves;
} GdlClaim;

/* The claims of a kind, in a stable order; NULL past the last. Valid as
 * long as the analysis. */
size_t gdl_analysis_count(const GdlAnalysis *a, GdlClaimKind kind);
const GdlClaim *gdl_analysis_claim(const GdlAnalysis *a, GdlClaimKind kind, size_t i);
/* How many states the joint latches were sought from, and seconds spent. */
unsigned gdl_analysis_sampled(const GdlAnalysis *a);
double gdl_analysis_seconds(const GdlAnalysis *a);

/* The range of role's achievable goal values from s: every value the role
 * can end the game with is in [*lo, *hi]. It uses the goal latches and the
 * joint latches that hold in s: the game's, and every one
 * gdl_analysis_joint_latch found with this analysis from any state (a
 * joint latch holds in every state that has its literals). */
GdlStatus gdl_analysis_goal_range(GdlAnalysis *a, const GdlState *s, unsigned role, int *lo, int *hi);
/* role's legal moves in s proven to win at once (every joint move with it
 * ends the game with the highest value the role can end with from s, the
 * top of its goal range there) and to lose at once (the bottom). *win and
 * *lose point into the analysis until its next call. */
GdlStatus gdl_analysis_winning_moves(GdlAnalysis *a, const GdlState *s, unsigned role, const GdlMove **win,
                                     size_t *nwin, const GdlMove **lose, size_t *nlose);
/* A lower bound on the turns before role's highest goal can hold from s
 * (0: it holds); -1 when it never can. It counts: the facts that goal needs
 * and s has wrong, over the most of them one transition can make right. */
GdlStatus gdl_analysis_goal_distance(GdlAnalysis *a, const GdlState *s, unsigned role, int *turns);

/* The joint latch through s: the bases, with their values in s, that keep
 * each other once all hold (the search the game-level joint latches come
 * from, run from s). *n is 0 when there is none; the sentences and values
 * point into the analysis until its next call. The analysis remembers the
 * latches it finds (up to 256 beyond the game's), and its per-state
 * answers use them in every state that has their literals. */
GdlStatus gdl_analysis_joint_latch(GdlAnalysis *a, const GdlState *s, const char *const **sentences,
                                   const bool **values, size_t *n);

/* Implication deduction over turns 0 .. nturns-1: given sentences with
 * values and turns, every other timed sentence whose value they force.
 * A sentence is any the network computes, as written in GDL: `(true
 * (cell 1 1 x))`, `(does x noop)`, `(legal x noop)`, `terminal`, `(goal x
 * 100)`, `(line x)`. With moves_played, a move is made between consecutive
 * turns (terminal false before the last, one legal move per role). On
 * GDL_OK *consistent says whether the givens have a model; the results
 * (when consistent) are every sentence with a value, given or deduced,
 * and point into the analysis until its next call. GDL_BAD_ARGUMENT for a
 * sentence the network does not compute. */
typedef struct GdlTimed {
    const char *sentence;
    unsigned turn;
    bool value;
} GdlTimed;
GdlStatus gdl_analysis_deduce(GdlAnalysis *a, const GdlTimed *given, size_t ngiven, unsigned nturns,
                              bool moves_played, bool *consistent, const GdlTimed **out, size_t *nout);

/* Symmetries of the game: permutations of the base propositions and of
 * each role's moves that map the network onto itself, fixing terminal,
 * each role's goal values and the legal/does pair of every move (found as
 * automorphisms of a coloured graph of the network with nauty), each one
 * checked with the state machine along seeded playthroughs before it is
 * kept. They form a group: element 0 is the identity, and the elements are
 * listed whole. A group past 512 elements is cut to its symmetries that
 * fix every move (Untwisty Corridor's seven equivalent moves), and when
 * those are still too many, or any element fails the check, to the
 * identity alone. Symmetries that exchange the roles are not sought.
 * Computed at the first call. */
GdlStatus gdl_analysis_symmetry_count(GdlAnalysis *a, size_t *n);
/* The image of s under symmetry k (a new state). */
GdlStatus gdl_analysis_symmetry_state(GdlAnalysis *a, size_t k, const GdlState *s, GdlState **out);
/* The image of role's move under symmetry k. */
GdlStatus gdl_analysis_symmetry_move(GdlAnalysis *a, size_t k, unsigned role, GdlMove move, GdlMove *out);
/* Symmetry k as the pairs it moves: n facts facts_from[i] -> facts_to[i]
 * (sentences as in states), and nm moves of moves_role[i]:
 * moves_from[i] -> moves_to[i] (the machine's moves). Everything else maps
 * to itself. Valid until the analysis is freed. */
typedef struct GdlSymmetry {
    size_t n;
    const char *const *facts_from, *const *facts_to;
    size_t nm;
    const unsigned *moves_role;
    const GdlMove *moves_from, *moves_to;
} GdlSymmetry;
GdlStatus gdl_analysis_symmetry(GdlAnalysis *a, size_t k, const GdlSymmetry **sym);

/* ---- filtered machines ---------------------------------------------- */

/* State-machine filters, as Sancho layers them between search and the
 * machine: a machine of the engine named that answers through the
 * analysis of the game.
 *   GDL_FILTER_FIXED_RANGE  a state where every role's goal range is one
 *                           value is terminal, with those goals
 *                           (preserves the game's value)
 *   GDL_FILTER_DEAD         role's moves into states dead for it are
 *                           dropped unless every move leads to one
 *                           (preserves the value when the role can reach
 *                           its highest goal)
 *   GDL_FILTER_PARTITION    role's legal moves are those of its most
 *                           constrained partition group (preserves the
 *                           value of puzzles whose groups commute, as
 *                           Sudoku's; not in general)
 * role names the role of DEAD and PARTITION. The machine is made as
 * gdl_machine_new makes one, and its analysis with options; on failure
 * gdl_game_error(game) says why. */
#define GDL_FILTER_FIXED_RANGE 1u
#define GDL_FILTER_DEAD 2u
#define GDL_FILTER_PARTITION 4u
GdlStatus gdl_machine_new_filtered(const GdlGame *game, const char *engine, const char *options, unsigned filters,
                                   unsigned role, GdlMachine **m);
/* Whether a filter keeps the value of every game (only FIXED_RANGE). */
bool gdl_filter_preserves_value(unsigned filter);

#ifdef __cplusplus
}
#endif

#endif
