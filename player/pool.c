/*
 * pool.c: matches run by a few threads, their results taken in order (see
 * pool.h).
 *
 * One lock guards the next match to start and the per-match slots; a job
 * takes the next match number under it, plays the match without it, and
 * files the result with a broadcast; the taker waits on the condition for
 * the slot of the match it wants. A failed match sets stop, so no job
 * starts another; the matches already running finish and are freed with
 * the pool if nobody takes them.
 */
#include <pthread.h>
#include <stdlib.h>

#include "pool.h"

typedef struct PoolJob {
    MatchPool *p;
    unsigned index;          /* its players: players[index * R ..) */
    pthread_t th;
} PoolJob;

struct MatchPool {
    pthread_mutex_t mu;      /* guards next, stop and the per-match slots */
    pthread_cond_t cv;       /* a match was filed */
    uint64_t next, n;        /* the next match to start; how many */
    bool stop;               /* no more matches to start */
    MatchRecord **recs;      /* per match, once done */
    char **errs;             /* per match: why it failed */
    GdlStatus *sts;          /* per match: match_run's status */
    bool *ready;             /* per match: filed */
    const GdlGame *game;
    const char *rules;
    size_t len;
    unsigned R;              /* roles */
    bool fixed_seats;        /* player j in role j (balance), else rotating */
    MatchOptions mo;
    uint64_t seed;
    MatchPlayer *const *players; /* [job * R + j] */
    PoolJob *jobs;
    unsigned started;        /* jobs running */
};

static void *job_run(void *arg)
{
    PoolJob *jb = arg;
    MatchPool *p = jb->p;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        if (p->stop || p->next >= p->n) {
            pthread_mutex_unlock(&p->mu);
            break;
        }
        uint64_t k = p->next++;
        pthread_mutex_unlock(&p->mu);
        MatchPlayer *seats[64];
        for (unsigned j = 0; j < p->R; j++) {
            unsigned role = p->fixed_seats ? j : (unsigned)((j + k) % p->R);
            seats[role] = p->players[jb->index * p->R + j];
        }
        MatchOptions mo = p->mo;
        mo.seed = p->seed * 0x9E3779B97F4A7C15ULL + k;
        MatchRecord *rec = NULL;
        char *err = NULL;
        GdlStatus st = match_run(p->game, p->rules, p->len, seats, &mo, &rec, &err);
        pthread_mutex_lock(&p->mu);
        p->recs[k] = rec;
        p->errs[k] = err;
        p->sts[k] = st;
        p->ready[k] = true;
        if (st != GDL_OK)
            p->stop = true;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

static void pool_release(MatchPool *p)
{
    free(p->recs);
    free(p->errs);
    free(p->sts);
    free(p->ready);
    free(p->jobs);
    free(p);
}

MatchPool *match_pool_start(const GdlGame *game, const char *rules, size_t len, MatchPlayer *const *players,
                            unsigned jobs, uint64_t n, bool fixed_seats, const MatchOptions *o, uint64_t seed,
                            const char **why)
{
    unsigned R = gdl_game_role_count(game);
    if (R > 64 || jobs == 0 || n == 0) {
        *why = R > 64 ? "too many roles" : "no match to play";
        return NULL;
    }
    MatchPool *p = calloc(1, sizeof *p);
    if (!p) {
        *why = "out of memory";
        return NULL;
    }
    p->recs = calloc(n, sizeof *p->recs);
    p->errs = calloc(n, sizeof *p->errs);
    p->sts = calloc(n, sizeof *p->sts);
    p->ready = calloc(n, sizeof *p->ready);
    p->jobs = calloc(jobs, sizeof *p->jobs);
    if (!p->recs || !p->errs || !p->sts || !p->ready || !p->jobs) {
        pool_release(p);
        *why = "out of memory";
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->n = n;
    p->game = game;
    p->rules = rules;
    p->len = len;
    p->R = R;
    p->fixed_seats = fixed_seats;
    p->mo = *o;
    p->seed = seed;
    p->players = players;
    for (unsigned j = 0; j < jobs; j++) {
        p->jobs[j] = (PoolJob){p, j, 0};
        if (pthread_create(&p->jobs[j].th, NULL, job_run, &p->jobs[j]) != 0)
            break;
        p->started++;
    }
    if (p->started == 0) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        pool_release(p);
        *why = "cannot start a thread";
        return NULL;
    }
    return p;
}

GdlStatus match_pool_take(MatchPool *p, uint64_t k, MatchRecord **rec, char **err)
{
    pthread_mutex_lock(&p->mu);
    while (!p->ready[k])
        pthread_cond_wait(&p->cv, &p->mu);
    *rec = p->recs[k];
    *err = p->errs[k];
    GdlStatus st = p->sts[k];
    p->recs[k] = NULL;
    p->errs[k] = NULL;
    pthread_mutex_unlock(&p->mu);
    return st;
}

void match_pool_free(MatchPool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_mutex_unlock(&p->mu);
    for (unsigned j = 0; j < p->started; j++)
        pthread_join(p->jobs[j].th, NULL);
    for (uint64_t k = 0; k < p->n; k++) {
        match_record_free(p->recs[k]);
        free(p->errs[k]);
    }
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    pool_release(p);
}
