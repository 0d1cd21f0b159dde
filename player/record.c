/*
 * record.c: a match's record, written as the JSON of GGP-Base's
 * Match.toJSON (what ggp.org's archives hold): matchId, startTime (ms),
 * startClock, playClock, previewClock, isCompleted, isAborted, states (each
 * "( fact fact ... )" with facts written as GGP-Base writes a sentence,
 * "( cell 1 1 b )"), moves (per turn, each role's move as GGP-Base writes a
 * term), stateTimes (ms), errors (per turn, a string per role, "" when
 * none), goalValues (when completed), playerNamesFromHost, scrambled. The
 * JSON is built with jansson.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"
#include "internal.h"

int64_t record_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void match_mean_ci(const double *v, size_t n, double *mean, double *half)
{
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    *mean = n ? sum / (double)n : 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    *half = n >= 2 ? 1.96 * sqrt(ss / (double)(n - 1)) / sqrt((double)n) : 0;
}

/* GGP-Base's spelling of a term: "(mark 1 1)" -> "( mark 1 1 )". */
static char *ggp_term(const char *t)
{
    size_t n = strlen(t), k = 0;
    char *out = malloc(2 * n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == ')')
            out[k++] = ' ';
        out[k++] = t[i];
        if (t[i] == '(')
            out[k++] = ' ';
    }
    out[k] = 0;
    return out;
}

MatchRecord *record_new(const char *id, unsigned nroles, MatchPlayer *const *players, unsigned startclock,
                        unsigned playclock)
{
    MatchRecord *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->match_id = strdup(id);
    r->nroles = nroles;
    r->players = calloc(nroles ? nroles : 1, sizeof *r->players);
    r->goals = calloc(nroles ? nroles : 1, sizeof *r->goals);
    if (!r->match_id || !r->players || !r->goals) {
        match_record_free(r);
        return NULL;
    }
    for (unsigned i = 0; i < nroles; i++)
        if (!(r->players[i] = strdup(players[i] && players[i]->name ? players[i]->name : "?"))) {
            match_record_free(r);
            return NULL;
        }
    r->startclock = startclock;
    r->playclock = playclock;
    r->start_ms = record_now_ms();
    return r;
}

bool record_add_state(MatchRecord *r, GdlMachine *m, const GdlState *s)
{
    if (r->nstates == r->capstates) {
        size_t cap = r->capstates ? r->capstates * 2 : 32;
        char **st = realloc(r->states, cap * sizeof *st);
        if (!st)
            return false;
        r->states = st;
        int64_t *tm = realloc(r->state_ms, cap * sizeof *tm);
        if (!tm)
            return false;
        r->state_ms = tm;
        r->capstates = cap;
    }
    size_t nf = gdl_state_size(s), cap = 8, len = 0;
    char *text = malloc(cap);
    if (!text)
        return false;
    text[len++] = '(';
    for (size_t i = 0; i < nf; i++) {
        char *f = ggp_term(gdl_state_fact(m, s, i));
        if (!f) {
            free(text);
            return false;
        }
        size_t k = strlen(f);
        if (len + k + 4 > cap) {
            cap = (len + k + 4) * 2;
            char *t = realloc(text, cap);
            if (!t) {
                free(f);
                free(text);
                return false;
            }
            text = t;
        }
        text[len++] = ' ';
        memcpy(text + len, f, k);
        len += k;
        free(f);
    }
    text[len++] = ' ';
    text[len++] = ')';
    text[len] = 0;
    r->states[r->nstates] = text;
    r->state_ms[r->nstates++] = record_now_ms();
    return true;
}

bool record_add_turn(MatchRecord *r, const char *const *moves, const char *const *errors)
{
    unsigned R = r->nroles;
    if (r->nturns == r->capturns) {
        size_t cap = r->capturns ? r->capturns * 2 : 32;
        char **mv = realloc(r->moves, cap * R * sizeof *mv);
        if (!mv)
            return false;
        r->moves = mv;
        char **er = realloc(r->errors, cap * R * sizeof *er);
        if (!er)
            return false;
        r->errors = er;
        r->capturns = cap;
    }
    size_t at = r->nturns * R;
    for (unsigned i = 0; i < R; i++) {
        r->moves[at + i] = strdup(moves[i]);
        r->errors[at + i] = strdup(errors && errors[i] ? errors[i] : "");
        if (!r->moves[at + i] || !r->errors[at + i]) {
            for (unsigned j = 0; j <= i; j++) {
                free(r->moves[at + j]);
                free(r->errors[at + j]);
            }
            return false;
        }
        if (errors && errors[i] && errors[i][0])
            r->nerrors++;
    }
    r->nturns++;
    return true;
}

const int *match_record_goals(const MatchRecord *rec) { return rec->goals; }
size_t match_record_errors(const MatchRecord *rec) { return rec->nerrors; }
size_t match_record_turns(const MatchRecord *rec) { return rec->nturns; }

const char *match_record_error(const MatchRecord *rec, size_t turn, unsigned role)
{
    return turn < rec->nturns && role < rec->nroles ? rec->errors[turn * rec->nroles + role] : "";
}

void match_record_free(MatchRecord *r)
{
    if (!r)
        return;
    free(r->match_id);
    for (unsigned i = 0; r->players && i < r->nroles; i++)
        free(r->players[i]);
    free(r->players);
    for (size_t i = 0; i < r->nstates; i++)
        free(r->states[i]);
    free(r->states);
    free(r->state_ms);
    for (size_t i = 0; i < r->nturns * r->nroles; i++) {
        free(r->moves[i]);
        free(r->errors[i]);
    }
    free(r->moves);
    free(r->errors);
    free(r->goals);
    free(r);
}

/* Adds v to o under key; false (v freed) when either is NULL or it fails. */
static bool put(json_t *o, const char *key, json_t *v)
{
    return v && json_object_set_new(o, key, v) == 0;
}

static json_t *record_json(const MatchRecord *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    bool ok = put(o, "matchId", json_string(r->match_id)) && put(o, "startTime", json_integer(r->start_ms)) &&
              put(o, "startClock", json_integer(r->startclock)) && put(o, "playClock", json_integer(r->playclock)) &&
              put(o, "previewClock", json_integer(-1)) && put(o, "isCompleted", json_boolean(r->completed)) &&
              put(o, "isAborted", json_boolean(!r->completed)) && put(o, "scrambled", json_false());
    json_t *states = json_array(), *times = json_array(), *moves = json_array(), *errors = json_array(),
           *names = json_array();
    ok = put(o, "states", states) && put(o, "stateTimes", times) && put(o, "moves", moves) &&
         put(o, "playerNamesFromHost", names) && ok;
    for (size_t i = 0; ok && i < r->nstates; i++)
        ok = json_array_append_new(states, json_string(r->states[i])) == 0 &&
             json_array_append_new(times, json_integer(r->state_ms[i])) == 0;
    for (size_t t = 0; ok && t < r->nturns; t++) {
        json_t *jm = json_array(), *je = json_array();
        ok = jm && je;
        for (unsigned i = 0; ok && i < r->nroles; i++) {
            char *g = ggp_term(r->moves[t * r->nroles + i]);
            ok = g && json_array_append_new(jm, json_string(g)) == 0 &&
                 json_array_append_new(je, json_string(r->errors[t * r->nroles + i])) == 0;
            free(g);
        }
        if (ok) {
            ok = json_array_append_new(moves, jm) == 0;
            ok = json_array_append_new(errors, je) == 0 && ok;
        } else {
            json_decref(jm);
            json_decref(je);
        }
    }
    /* GGP-Base writes errors whenever a turn was played (a string per role) */
    if (r->nturns > 0 && ok)
        ok = put(o, "errors", errors);
    else
        json_decref(errors);
    for (unsigned i = 0; ok && i < r->nroles; i++)
        ok = json_array_append_new(names, json_string(r->players[i])) == 0;
    if (ok && r->completed) {
        json_t *g = json_array();
        ok = put(o, "goalValues", g);
        for (unsigned i = 0; ok && i < r->nroles; i++)
            ok = json_array_append_new(g, json_integer(r->goals[i])) == 0;
    }
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

bool match_record_write(const MatchRecord *rec, FILE *f)
{
    json_t *o = record_json(rec);
    if (!o)
        return false;
    bool ok = json_dumpf(o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0;
    json_decref(o);
    return ok && fputc('\n', f) != EOF;
}
