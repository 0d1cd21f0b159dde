/*
 * runner.h: the match record's fields, shared by match.c (which fills
 * them) and record.c (which writes them as GGP-Base's JSON), internal to
 * player/.
 */
#ifndef GDLC_PLAYER_RUNNER_H
#define GDLC_PLAYER_RUNNER_H

#include "player.h"

struct MatchRecord {
    char *match_id;     /* "gdlc." and 16 hex digits */
    unsigned nroles;
    char **players;     /* per role: the player's name */
    unsigned startclock, playclock;
    int64_t start_ms;   /* Unix time of the start, milliseconds */
    size_t nstates, capstates;
    char **states;      /* GGP-Base's rendering: "( (cell 1 1 b) (control x) )" */
    int64_t *state_ms;  /* Unix time each state was reached, milliseconds */
    size_t nturns, capturns;
    char **moves;       /* nturns * nroles, canonical text */
    char **errors;      /* nturns * nroles, "" when none */
    int *goals;         /* nroles, when completed */
    bool completed;
    size_t nerrors;     /* non-empty errors */
};

MatchRecord *record_new(const char *id, unsigned nroles, MatchPlayer *const *players, unsigned startclock,
                        unsigned playclock);
/* false when memory runs out */
bool record_add_state(MatchRecord *r, GdlMachine *m, const GdlState *s);
/* moves and errors: nroles texts each (errors[i] NULL or "" when none). */
bool record_add_turn(MatchRecord *r, const char *const *moves, const char *const *errors);
/* Unix time now, milliseconds. */
int64_t record_now_ms(void);

#endif
