/* session_double.c: a stand-in for player/session.c in the protocol test
 * (tests/player/test_player_server.c), so that the HTTP player is tested on its
 * own: a session that loads the rules through the public API on the ref
 * engine, follows the joint moves it is told, and answers a random legal
 * move after "thinking" until its deadline less the margin (at most
 * 0.1 s, except for a role named thinker: the whole clock), which is what
 * a real session does with its clock. Like a real session it stops at
 * once when its owner raises PlayOptions.cancel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../player/player.h"

struct Session {
    GdlGame *game;
    GdlMachine *m;
    GdlState *s;
    unsigned role;
    GdlRng rng;
    double margin;
    uint64_t played;
    bool thinker;                /* thinks until its deadline */
    const volatile int *cancel;  /* PlayOptions.cancel */
};

void play_options_default(PlayOptions *o)
{
    memset(o, 0, sizeof *o);
    o->strategy = PLAY_MCTS;
    o->threads = 1;
    o->margin = 0.5;
    o->analyses = true;
}

static char *msg(const char *f, const char *a)
{
    size_t n = strlen(f) + strlen(a) + 1;
    char *s = malloc(n);
    snprintf(s, n, f, a);
    return s;
}

Session *session_new(const char *rules, size_t len, const char *role, double start_deadline, double playclock,
                     const PlayOptions *o, char **err)
{
    Session *s = calloc(1, sizeof *s);
    GdlDiagnostics *d = NULL;
    if (gdl_game_load_string("rules", rules, len, &s->game, &d) != GDL_OK) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        gdl_diagnostics_print(f, d, false);
        fclose(f);
        *err = msg("the rules are rejected:\n%s", buf);
        free(buf);
        gdl_diagnostics_free(d);
        free(s);
        return NULL;
    }
    gdl_diagnostics_free(d);
    if (gdl_game_role_find(s->game, role, &s->role) != GDL_OK) {
        *err = msg("no role %s in the rules", role);
        gdl_game_free(s->game);
        free(s);
        return NULL;
    }
    gdl_machine_new(s->game, "ref", &s->m);
    gdl_state_initial(s->m, &s->s);
    gdl_rng_seed(&s->rng, o->seed);
    s->margin = playclock / 4 < o->margin ? playclock / 4 : o->margin;
    s->thinker = strcmp(role, "thinker") == 0;
    s->cancel = o->cancel;
    return s;
}

static bool advance(Session *s, const char *const *joint, size_t n, char **err)
{
    if (n == 0)
        return true;
    unsigned roles = gdl_game_role_count(s->game);
    if (n != roles) {
        *err = msg("a joint move of the wrong size%s", "");
        return false;
    }
    GdlMove mv[16];
    for (size_t i = 0; i < n && i < 16; i++)
        if (gdl_move_parse(s->m, joint[i], &mv[i]) != GDL_OK) {
            *err = msg("not a move: %s", joint[i]);
            return false;
        }
    GdlState *next = NULL;
    if (gdl_state_next(s->m, s->s, mv, &next) != GDL_OK) {
        *err = msg("an illegal joint move: %s", gdl_machine_error(s->m));
        return false;
    }
    gdl_state_free(s->s);
    s->s = next;
    return true;
}

const char *session_play(Session *s, const char *const *joint, size_t n, double deadline, char **err)
{
    if (!advance(s, joint, n, err))
        return NULL;
    GdlMove mv;
    if (gdl_state_random_move(s->m, s->s, s->role, &s->rng, &mv) != GDL_OK) {
        *err = msg("no legal move: %s", gdl_machine_error(s->m));
        return NULL;
    }
    double until = deadline - s->margin, now = gdl_now();
    if (until > now + 0.1 && !s->thinker)
        until = now + 0.1;
    while (gdl_now() < until && !(s->cancel && __atomic_load_n(s->cancel, __ATOMIC_RELAXED))) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    s->played++;
    return gdl_move_text(s->m, mv);
}

void session_stop(Session *s, const char *const *joint, size_t n)
{
    char *err = NULL;
    advance(s, joint, n, &err);
    free(err);
}

void session_free(Session *s)
{
    if (!s)
        return;
    gdl_state_free(s->s);
    gdl_machine_free(s->m);
    gdl_game_free(s->game);
    free(s);
}

void session_stats(const Session *s, SessionStats *st)
{
    memset(st, 0, sizeof *st);
    st->playouts = s->played;
    st->threads = 1;
}
