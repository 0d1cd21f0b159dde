/*
 * gdl.h: the public API of gdlc, a compiler of GDL games to state machines.
 *
 * The model is GGP-Base's StateMachine: a game has roles, an initial state,
 * legal moves per role, a next state per joint move, terminality and goal
 * values. The API is engine-neutral: a machine is made for a game by engine
 * name ("ref", the reference interpreter; the compiled engines add theirs),
 * and every engine answers every query identically.
 *
 * Objects and ownership
 *   GdlGame     a loaded, validated game. Immutable once loaded: several
 *               machines, in several threads, may share it. Free it after
 *               every machine made from it.
 *   GdlMachine  an engine instance for one game. Not thread-safe: use one
 *               machine per thread. Moves and states belong to the machine
 *               that made them and must not be given to another machine.
 *   GdlState    a game state, owned by the caller: free it with
 *               gdl_state_free. States are values: copy, compare, hash.
 *   GdlMove     a ground term (a move) of a machine, a small integer handle
 *               valid for the machine's lifetime.
 *   Strings the API returns point into the object they come from and stay
 *   valid as long as it does, unless said otherwise.
 *
 * Errors
 *   Every call that can fail returns a GdlStatus; GDL_OK is 0. After a failed
 *   call on a machine, gdl_machine_error() describes it. Loading a game
 *   returns its diagnostics as data (GdlDiagnostics), errors and warnings
 *   alike. The library never prints and never exits: running out of memory
 *   is GDL_OUT_OF_MEMORY (the calls that return a pointer return NULL). The
 *   temporaries of the call that ran out may be lost (leaked) with it;
 *   every object the caller holds stays valid to free.
 *
 * Cancellation
 *   A player must never blow its play clock. gdl_machine_set_deadline gives a
 *   monotonic-clock deadline, gdl_machine_set_cancel_flag a flag another
 *   thread may set to non-zero; evaluation polls both and a query that stops
 *   early returns GDL_CANCELLED, leaving the machine usable.
 *
 * Hashing
 *   gdl_state_hash is computed from the text of the state's facts, so it is
 *   the same in every process for a given engine and game: transposition
 *   tables may be kept on disk.
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

#define GDL_VERSION "0.1.0"

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

/* ---- games and their diagnostics ------------------------------------ */

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
 * receives the diagnostics (free with gdl_diagnostics_free). */
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

/* ---- machines -------------------------------------------------------- */

typedef struct GdlMachine GdlMachine;
typedef struct GdlState GdlState;
typedef uint32_t GdlMove;

/* Makes a machine of the named engine ("ref"; NULL means the default). On
 * failure *m is NULL and, when err is not NULL, *err is a message to free(). */
GdlStatus gdl_machine_new(const GdlGame *game, const char *engine, GdlMachine **m, char **err);
void gdl_machine_free(GdlMachine *m);
/* The engine's name. */
const char *gdl_machine_engine(const GdlMachine *m);
/* Describes the last failed call on this machine ("" when none). */
const char *gdl_machine_error(const GdlMachine *m);

/* Deadline in seconds of CLOCK_MONOTONIC (see gdl_now); 0 clears it. */
void gdl_machine_set_deadline(GdlMachine *m, double deadline);
/* A flag evaluation polls: non-zero cancels. NULL clears it. */
void gdl_machine_set_cancel_flag(GdlMachine *m, const volatile int *flag);
/* Seconds of CLOCK_MONOTONIC. */
double gdl_now(void);

/* ---- queries --------------------------------------------------------- */

GdlStatus gdl_initial_state(GdlMachine *m, GdlState **out);
/* Legal moves of a role, sorted canonically (by the bytes of their KIF
 * text). *moves points into the machine and stays valid until the next
 * query on it. */
GdlStatus gdl_legal_moves(GdlMachine *m, const GdlState *s, unsigned role, const GdlMove **moves, size_t *n);
/* The next state after a joint move: one move per role, in role order. */
GdlStatus gdl_next_state(GdlMachine *m, const GdlState *s, const GdlMove *joint, GdlState **out);
GdlStatus gdl_is_terminal(GdlMachine *m, const GdlState *s, bool *terminal);
/* Goal values of every role (role_count values). In a non-terminal state a
 * role without a goal value gets GDL_NO_GOAL. In a terminal state a role
 * with no value or several is GDL_GAME_FAULT, naming the role. */
#define GDL_NO_GOAL (-1)
GdlStatus gdl_goals(GdlMachine *m, const GdlState *s, int *values);

/* ---- states and moves ------------------------------------------------ */

GdlState *gdl_state_copy(const GdlState *s);
void gdl_state_free(GdlState *s);
bool gdl_state_equal(const GdlState *a, const GdlState *b);
uint64_t gdl_state_hash(GdlMachine *m, const GdlState *s);
/* Number of facts, and the canonical KIF text of the i-th in canonical order
 * (valid until the machine is freed). */
size_t gdl_state_size(const GdlState *s);
const char *gdl_state_fact(GdlMachine *m, const GdlState *s, size_t i);
/* A state from facts written in KIF, e.g. "(cell 1 1 b) (control x)". */
GdlStatus gdl_state_parse(GdlMachine *m, const char *text, GdlState **out);

/* The canonical KIF text of a move: lower case, single spaces. */
const char *gdl_move_text(GdlMachine *m, GdlMove move);
/* Parses a move written in KIF. */
GdlStatus gdl_move_parse(GdlMachine *m, const char *text, GdlMove *move);

/* ---- random playthroughs --------------------------------------------- */

/* gdlc's documented generator (SplitMix64), so that a seed gives the same
 * playthrough on every engine and machine. */
typedef struct GdlRng {
    uint64_t state;
} GdlRng;
void gdl_rng_seed(GdlRng *r, uint64_t seed);
uint64_t gdl_rng_next(GdlRng *r);
/* Uniform in [0, n), by rejection so there is no bias. n > 0. */
uint64_t gdl_rng_below(GdlRng *r, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif
