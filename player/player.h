/*
 * player.h: the player stage. It plays GGP matches over the public API
 * (include/gdl.h) and the solver (solve/solve.h): a session per match that
 * compiles the rules in process and chooses moves (random, flat Monte-Carlo,
 * UCT), the GGP protocol's messages, the HTTP player (`gdlc player`, with
 * libmicrohttpd), the match runner (`gdlc match`, `gdlc balance`, with
 * libcurl for remote players and jansson for the match records) and the
 * pie-rule transform (`gdlc pie`).
 *
 * The stage may include base/, frontend/kif.h (to read messages and rules as
 * s-expressions, with the byte offsets that keep the rules' own spelling),
 * solve/ and include/. It is built as its own library (gdlplayer), so that
 * libgdl keeps no HTTP or JSON dependency.
 */
#ifndef GDLC_PLAYER_H
#define GDLC_PLAYER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../include/gdl.h"

/* ======================================================================
 * Sessions and strategies (session.c, mcts.c)
 * ====================================================================== */

typedef enum PlayStrategy {
    PLAY_RANDOM, /* a uniformly random legal move */
    PLAY_FLAT,   /* flat Monte-Carlo: playouts spread evenly over the root's moves */
    PLAY_MCTS,   /* UCT (decoupled UCT when several roles choose at once) */
} PlayStrategy;

typedef struct PlayOptions {
    PlayStrategy strategy;
    const char *engine;     /* NULL: "jit"; a game the engine cannot make falls back to "ref" */
    unsigned threads;       /* search threads, each with its own machine (>= 1) */
    uint64_t playouts;      /* per move; 0: as many as the clock allows */
    double margin;          /* seconds kept back before a deadline (default 0.25, or
                               a quarter of the time left when that is less) */
    uint64_t seed;          /* the search's random numbers */
    bool analyses;          /* use the analyses and the solver (default true) */
    unsigned batch;         /* UCT's leaves played out by a batch of this many lanes
                               (SearchConfig.batch; 0, the default: one depth charge) */
    FILE *log;              /* one line per decision (NULL: none) */
    /* set non-zero by another thread: whatever the session is doing stops
     * at once (session_new returns NULL, session_play the move it has
     * ready); NULL: none. The HTTP player sets it on ABORT, STOP and
     * SIGTERM. It must outlive the session. */
    const volatile int *cancel;
} PlayOptions;

void play_options_default(PlayOptions *o);

/* One match from one role's side. Not thread-safe: one call at a time (the
 * HTTP player serialises calls per match; matches run in parallel). */
typedef struct Session Session;

/*
 * Loads the rules (KIF text), finds role (compared case-insensitively),
 * makes the machines and spends the start clock until start_deadline
 * (gdl_now seconds) on what helps: analyses, and the solver or a plan for
 * puzzles and small games. playclock is the seconds per move. NULL on
 * failure with *err a message to free() (the game's diagnostics included
 * when the rules are rejected).
 */
Session *session_new(const char *rules, size_t len, const char *role, double start_deadline, double playclock,
                     const PlayOptions *o, char **err);

/*
 * Takes the last joint move (n move texts in role order, as the manager
 * wrote them; joint NULL and n 0 on the first turn), advances the state and
 * chooses a move before deadline (gdl_now seconds, less the margin).
 * Returns the move's canonical text (valid until the next call on the
 * session), or NULL with *err when the joint move is not legal or the
 * state cannot advance. Never returns after the deadline when a legal move
 * is known.
 */
const char *session_play(Session *s, const char *const *joint, size_t n, double deadline, char **err);

/* The match is over (joint: the last joint move, as for session_play). */
void session_stop(Session *s, const char *const *joint, size_t n);
/* Frees the session after stopping and joining every thread it started
 * (the analysis's included): nothing it began outlives it. */
void session_free(Session *s);

/* What the session's search did on its last move: playouts, seconds,
 * threads (for logs and the benchmark of playouts per second). */
typedef struct SessionStats {
    uint64_t playouts;
    double seconds;
    unsigned threads;
    bool solved;       /* the move came from a proof or a plan */
} SessionStats;
void session_stats(const Session *s, SessionStats *st);

/* ======================================================================
 * Messages of the GGP protocol (message.c)
 * ====================================================================== */

typedef enum GgpKind {
    GGP_INFO,
    GGP_PREVIEW,
    GGP_START,
    GGP_PLAY,
    GGP_STOP,
    GGP_ABORT,
} GgpKind;

/* A parsed request. Strings are malloc'd and freed with ggp_message_free. */
typedef struct GgpMessage {
    GgpKind kind;
    char *id;            /* START, PLAY, STOP, ABORT */
    char *role;          /* START: the role, as written */
    char *rules;         /* START, PREVIEW: the rules' text, as written */
    unsigned startclock; /* START (PREVIEW: its clock) */
    unsigned playclock;  /* START */
    size_t nmoves;       /* PLAY, STOP: the last joint move (0: nil) */
    char **moves;        /* each move's text, as written */
} GgpMessage;

/* Parses a request body (any case of the keywords, any spacing). false with
 * *err (malloc'd) on a malformed or unknown message. */
bool ggp_message_parse(const char *text, size_t len, GgpMessage *msg, char **err);
void ggp_message_free(GgpMessage *msg);
/* The byte range [*off, *end) of the first s-expression of text (a
 * player's reply: GGP-Base's server reads only that); false when there is
 * none or it is malformed. */
bool ggp_first_sexp(const char *text, size_t len, size_t *off, size_t *end);

/* The spelling of the rules: maps a canonical (lower-case) text back to
 * the text as the rules wrote it, symbol by symbol ("(mark 1 1)" to
 * "( MARK 1 1 )" -> "(MARK 1 1)"), so replies match the manager's rules
 * case-sensitively. */
typedef struct GgpSpelling GgpSpelling;
GgpSpelling *ggp_spelling_new(const char *rules, size_t len);
/* A malloc'd copy of text with every symbol spelled as in the rules. */
char *ggp_spelling_apply(const GgpSpelling *sp, const char *text);
void ggp_spelling_free(GgpSpelling *sp);

/* ======================================================================
 * The HTTP player (server.c)
 * ====================================================================== */

typedef struct PlayerServerOptions {
    unsigned port;          /* 9147 by default; 0: any free port */
    const char *name;       /* INFO's name */
    const char *log_dir;    /* a log per match (NULL: none) */
    FILE *log;              /* one line per request (NULL: none) */
    PlayOptions play;
    unsigned max_matches;   /* matches at once (0: 16); a START beyond gets `busy`;
                               matches whose rules were rejected hold no slot */
    double forget_seconds;  /* a match silent this long (0: 900 s), or two play
                               clocks and a minute when that is less, is
                               dropped when a START finds the table full */
    double request_seconds; /* a request must come in whole (headers and body)
                               within this (0: 30 s); its connection is closed
                               after */
    /* when not NULL, the port bound is written here once listening */
    unsigned *bound_port;
} PlayerServerOptions;

/* Serves until *stop is set (SIGINT, SIGTERM); 0 on a clean end, -1 with a
 * message on err when the port cannot be bound. */
int player_serve(const PlayerServerOptions *o, const volatile sig_atomic_t *stop, FILE *err);

/* ======================================================================
 * The match runner (match.c, remote.c, record.c)
 * ====================================================================== */

/* A player as the runner sees it: built in or behind HTTP. Every call may
 * fail (NULL / false with *err malloc'd); the runner then substitutes a
 * random legal move and records the error. */
typedef struct MatchPlayer MatchPlayer;
typedef struct MatchPlayerOps {
    /* id: the match's id, unique per run (never reused: a long-running
     * player may serve several runs); seed: the match's seed, which alone
     * decides a seeded player's play (built-in players; remote ones ignore it). */
    bool (*start)(MatchPlayer *p, const char *id, uint64_t seed, const char *rules, const char *role,
                  unsigned startclock, unsigned playclock, char **err);
    /* last: the last joint move (n texts in role order; NULL, 0 on the first
     * turn); returns a malloc'd move text, read before deadline (gdl_now). */
    char *(*play)(MatchPlayer *p, const char *id, const char *const *last, size_t n, double deadline, char **err);
    void (*stop)(MatchPlayer *p, const char *id, const char *const *last, size_t n);
    void (*abort)(MatchPlayer *p, const char *id);
    void (*free)(MatchPlayer *p);
} MatchPlayerOps;
struct MatchPlayer {
    const MatchPlayerOps *ops;
    char *name;  /* as the summary prints it (the spec) */
};

/* A player from a spec: "random", "flat:PLAYOUTS", "mcts:PLAYOUTS",
 * "flat:SECONDSs", "mcts:SECONDSs", or "http://HOST:PORT". NULL with *err
 * on a bad spec. */
MatchPlayer *match_player_new(const char *spec, uint64_t seed, char **err);
/* The HTTP player (remote.c). */
MatchPlayer *match_player_http(const char *url, char **err);

typedef struct MatchOptions {
    unsigned startclock, playclock; /* seconds */
    uint64_t seed;                  /* random replacements, the players' seeds (not the id) */
    FILE *log;                      /* progress lines (NULL: none) */
} MatchOptions;

/* One match's record, as GGP-Base and ggp.org write it. */
typedef struct MatchRecord MatchRecord;

/*
 * Plays one match of game (rules: its text, sent to the players) with
 * players[i] in role i. Illegal, late and failed moves are replaced by a
 * random legal move and recorded as errors. GDL_OK with *rec set.
 */
GdlStatus match_run(const GdlGame *game, const char *rules, size_t len, MatchPlayer *const *players,
                    const MatchOptions *o, MatchRecord **rec, char **err);
/* The goals of the record's last state, role order. */
const int *match_record_goals(const MatchRecord *rec);
size_t match_record_errors(const MatchRecord *rec);
/* The turns played, and the error recorded for role's move in one of them
 * ("" when none). */
size_t match_record_turns(const MatchRecord *rec);
const char *match_record_error(const MatchRecord *rec, size_t turn, unsigned role);
/* The mean of v[0..n) and the half-width of its 95% confidence interval,
 * 1.96 sd / sqrt(n) with sd the sample standard deviation (0 when n < 2). */
void match_mean_ci(const double *v, size_t n, double *mean, double *half);
/* Writes the record as JSON (GGP-Base's match format). */
bool match_record_write(const MatchRecord *rec, FILE *f);
void match_record_free(MatchRecord *rec);

/* ======================================================================
 * The pie rule (pie.c)
 * ====================================================================== */

/*
 * The pie variant of a two-player alternating game: after the first
 * player's first move the second may swap sides. Writes valid GDL to out.
 * false with *err (malloc'd, naming the reason: roles, turn structure) when
 * the game is out of scope.
 */
bool pie_transform(const GdlGame *game, const char *rules, size_t len, const char *name, FILE *out, char **err);

/* How pie_transform checks the turn structure (pie_transform uses the
 * defaults). The first two turns are always checked exhaustively. */
typedef struct PieOptions {
    unsigned playthroughs;        /* seeded random playthroughs checking alternation (default 8) */
    uint64_t max_steps;           /* steps per playthrough (default 2000) */
    uint64_t seed;                /* the first playthrough's seed (default 1) */
    size_t max_first;             /* first moves checked, evenly spaced (default 0: all) */
    bool analysis;                /* run the control analysis (default true) */
    const char *analysis_options; /* gdl_analysis_new's options: its grounding budget
                                     (default "samples=1,max-links=200000") */
} PieOptions;
void pie_options_default(PieOptions *o);
bool pie_transform_opt(const GdlGame *game, const char *rules, size_t len, const char *name, const PieOptions *o,
                       FILE *out, char **err);

#endif
