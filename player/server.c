/*
 * server.c: the HTTP player (`gdlc player`), with libmicrohttpd.
 *
 * A game manager (GGP-Base's GameServer, ggp.org's Tiltyard) POSTs one
 * message per connection: (INFO), (PREVIEW ...), (START id role rules
 * startclock playclock), (PLAY id moves), (STOP id moves), (ABORT id). The
 * daemon runs a thread per connection (MHD_USE_THREAD_PER_CONNECTION with
 * its internal polling thread), so a PLAY that thinks for the whole play
 * clock holds only its own thread: several matches go on at once, each with
 * its own Session (its own machines and search threads). The table of
 * matches is guarded by one mutex, held only to find, add or remove an
 * entry; each match has a mutex of its own, held through a call on its
 * session, so that the calls of one match are serialised (the contract of
 * Session). Entries are counted references: a match taken off the table by
 * STOP or ABORT goes, when the last request using it lets go, to a list of
 * the dead that the serving loop frees (freeing a session stops and joins
 * its threads: no request waits for that).
 *
 * Connection slots: a thread per connection is kept (a PLAY thinking for
 * its whole clock blocks only its own thread, and MHD's polling modes
 * would need suspended connections and a worker pool for the same end),
 * with a watchdog for what MHD's idle timeout cannot see: a request must
 * come in whole within request_seconds (30 s) however slowly it trickles,
 * and at most MAX_RECEIVING of the MAX_CONNECTIONS slots may be receiving,
 * the oldest cut for a newcomer (see "connection slots" below).
 *
 * Everything can be stopped. Each match has a cancel flag (its session's
 * PlayOptions.cancel) that ABORT raises before it waits for the match's
 * lock, as does a STOP that finds a PLAY thinking, and the server's stop
 * for every match: the search, the start clock's waits and the analyses
 * poll it, so the reply comes at once. Clocks are clamped to MAX_CLOCK.
 *
 * Replies are what GGP-Base's players send (GamePlayer, HttpWriter):
 * Content-Type text/acl with the headers browsers need (CORS), and the
 * bodies ready, the move, done, aborted, busy, nil. INFO answers
 * ((name NAME) (status available)), busy once the table is full (GGP-Base's
 * players, one match at a time, say busy while they play). The move is
 * spelled as the manager's rules spell it (GgpSpelling): GGP-Base compares
 * it with its rules case-sensitively.
 *
 * Time: the clocks run from the moment the request arrived (GGP-Base's
 * receptionTime). Every reply leaves 0.5 s of its clock: the
 * session gets deadline = arrival + clock - REPLY_MARGIN, and keeps its own
 * margin (PlayOptions.margin) before that for its search to stop. A START's
 * work (the rules' spelling, loading, compiling, the analyses) runs in a
 * thread of its own: the START answers ready at its deadline whatever is
 * left to do, and each PLAY waits for the session within its own clock
 * (nil when it is still not ready: the manager plays a random move).
 *
 * Failures, and what the manager sees:
 *   - a body that is not a message (malformed, unknown, truncated, empty):
 *     400 and (error "why");
 *   - a body over MAX_BODY bytes (by its Content-Length or as it comes):
 *     413 and (error "why"), before reading it when the length says so;
 *   - PLAY for an id we do not play: 404 and busy; STOP and ABORT for one
 *     (never started, ended, dropped): done and aborted, as GGP-Base's
 *     players answer; START for an id we play: 409 and busy; START when
 *     max_matches are going on: 503 and busy (GGP-Base's players answer
 *     busy to each, with 200);
 *   - rules gdlc rejects: the diagnostics go to the logs, START is
 *     answered busy (GGP-Base's StartRequest answers busy when its
 *     metagaming throws), the id is remembered so that each PLAY gets nil
 *     (GGP-Base's answer when it cannot select a move) and STOP and ABORT
 *     their usual replies. A manager then plays a random legal move for us
 *     each turn (GGP-Base's PlayRequestThread starts from a random legal
 *     move and keeps it when the reply is not a legal move).
 *   - a session that cannot play a turn (an illegal joint move from the
 *     manager): nil, and the reason in the logs.
 * The server stays up through all of these.
 *
 * A match the manager forgot (no STOP or ABORT) is dropped when a START
 * finds the table full and the match has been silent, with no request in
 * flight, for two play clocks and a minute or FORGET_MAX, whichever is
 * less: a match asking for the longest clock cannot hold its slot for
 * hours. Matches whose rules were rejected hold no slot (they hold no
 * session); the last MAX_REFUSED of them are remembered for their PLAYs.
 */
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "../base/base.h"
#include "player.h"
#include "internal.h"

enum {
    MAX_BODY = 16 << 20,      /* bytes of a request body (the largest rules are far smaller) */
    DEFAULT_MAX_MATCHES = 16, /* matches at once when the options say 0 */
    MAX_CONNECTIONS = 128,    /* connections (threads) at once */
    MAX_RECEIVING = 96,       /* of which still receiving their request: the
                                 rest are kept for requests being handled */
    REQUEST_SECONDS = 30,     /* a request must be in (headers and body) within this */
    MAX_CLOCK = 3600,         /* seconds: a longer clock is clamped to this */
    MAX_REFUSED = 256,        /* ids of refused matches remembered (the oldest forgotten first) */
    FORGET_MAX = 900,         /* seconds: a silent match is forgotten after at most this */
};
/* Seconds of every clock aimed to be left when the reply is sent: 0.5 s
 * for the reply to reach the manager (issue 36: at least that, measured
 * with both cores busy), and 0.15 s for a machine whose cores are busy
 * with other work (other matches, a compile) to wake the request late. */
static const double REPLY_MARGIN = 0.65;

/* ---- small helpers --------------------------------------------------- */

/* A malloc'd copy; NULL when memory runs out. */
static char *dup_str(const char *s) { return strdup(s); }

/* Text from outside, fit for one log line (quotes: '"' and '\\' kept) or
 * a reply's string (not): printable ASCII, at most max bytes (then "..."). */
static void clean_text(char *out, size_t cap, const char *s, size_t max, bool quotes)
{
    size_t n = 0;
    for (; s && *s && n + 4 < cap; s++) {
        if (n >= max) {
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        unsigned char c = (unsigned char)*s;
        out[n++] = (c >= 0x20 && c < 0x7f && (quotes || (c != '"' && c != '\\'))) ? (char)c
                   : (c == '\n' || c == '\t')                                    ? ' '
                                                                                : '?';
    }
    out[n] = 0;
}

static void clean(char *out, size_t cap, const char *s, size_t max) { clean_text(out, cap, s, max, false); }

/* A match id as a file name: [A-Za-z0-9_-] and '.' (not first) kept,
 * every other byte %XX; long ids cut, with a hash of the whole. */
static void file_name(char *out, size_t cap, const char *id)
{
    size_t n = 0, idl = strlen(id);
    for (size_t i = 0; i < idl && n + 4 < cap - 24; i++) {
        unsigned char c = (unsigned char)id[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
            (c == '.' && i > 0))
            out[n++] = (char)c;
        else
            n += (size_t)snprintf(out + n, cap - n, "%%%02X", c);
    }
    if (n + 4 >= cap - 24)
        n += (size_t)snprintf(out + n, cap - n, "~%016llx",
                              (unsigned long long)base_hash_bytes(id, idl, 0));
    snprintf(out + n, cap - n, ".log");
}

static void stamp(char *buf, size_t cap)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, cap - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* ---- matches --------------------------------------------------------- */

typedef struct Match {
    char *id;              /* as the manager wrote it */
    Session *session;      /* NULL: the rules were rejected (the id is remembered) */
    bool refused;          /* the rules were rejected: it holds no slot (server lock) */
    GgpSpelling *spelling; /* the rules' spelling, for replies */
    unsigned playclock;    /* seconds */
    unsigned turn;         /* PLAY messages answered */
    int plays;             /* PLAYs in flight (atomic): a second one is answered busy at once */
    FILE *log;             /* this match's log (NULL: none) */
    PlayOptions play;      /* the server's, with log = this match's log and
                              cancel = &cancel */
    volatile int cancel;   /* raised by ABORT, STOP and the server's stop: the
                              session's search and waits end at once */
    double last;           /* gdl_now of the last message's arrival or reply (server lock) */
    pthread_mutex_t lock;  /* held through each call on the session */
    unsigned refs;         /* the table's, and requests' (server lock) */
    /* the START's work (spelling, session_new) runs in a thread of its own
     * that the START waits for only until its clock less REPLY_MARGIN */
    pthread_t starter;
    bool has_starter;      /* starter to be joined */
    bool started;          /* its work is done: session and spelling set (lock) */
    pthread_cond_t done;   /* signalled when started (lock; CLOCK_MONOTONIC) */
    char *rules, *role;    /* the START's, for the starter (freed by it) */
    double start_t0, start_deadline;
} Match;

/* A connection, as the watchdog sees it (MHD's socket context). */
typedef struct Conn {
    int fd;             /* its socket (open while the Conn is listed) */
    double since;       /* gdl_now when its request began to come in */
    bool handling;      /* its request is in: being handled or answered */
    bool cut;           /* the watchdog has shut its socket down */
    struct Conn *prev, *next;
} Conn;

typedef struct Server {
    const PlayerServerOptions *o;
    pthread_mutex_t conn_lock; /* the connections' list */
    Conn *conns;               /* every open connection, oldest last */
    unsigned receiving;        /* listed, not handling, not cut */
    double request_seconds;    /* REQUEST_SECONDS or the options' */
    unsigned max_matches;
    bool stopping;        /* the player stops: a match added now is cancelled at once (lock) */
    double forget;        /* seconds of silence after which a match may be dropped */
    pthread_mutex_t lock; /* the table and the dead */
    Match **m;            /* the matches going on, refused ones included */
    size_t n, cap;
    Match **dead;         /* matches let go, freed by the serving loop (their
                             session joins its threads: never in a request) */
    size_t ndead, deadcap;
} Server;

static void match_destroy(Match *m)
{
    if (m->has_starter) { /* its flag is raised: it ends soon */
        player_flag_raise(&m->cancel);
        pthread_join(m->starter, NULL);
    }
    pthread_cond_destroy(&m->done);
    free(m->rules);
    free(m->role);
    if (m->session)
        session_free(m->session);
    ggp_spelling_free(m->spelling);
    if (m->log)
        fclose(m->log);
    pthread_mutex_destroy(&m->lock);
    free(m->id);
    free(m);
}

/* A match nobody refers to any more goes to the dead, freed by the
 * serving loop (reap): freeing a session stops and joins its threads,
 * which must not hold up the request that let it go. Server lock held. */
static void bury_locked(Server *sv, Match *m)
{
    player_flag_raise(&m->cancel);
    if (sv->ndead == sv->deadcap) {
        size_t cap = sv->deadcap ? sv->deadcap * 2 : 8;
        Match **d = base_try_realloc(sv->dead, cap * sizeof *d);
        if (!d) { /* out of memory: freed here, late but freed */
            pthread_mutex_unlock(&sv->lock);
            match_destroy(m);
            pthread_mutex_lock(&sv->lock);
            return;
        }
        sv->dead = d, sv->deadcap = cap;
    }
    sv->dead[sv->ndead++] = m;
}

static void match_release(Server *sv, Match *m)
{
    pthread_mutex_lock(&sv->lock);
    m->last = gdl_now();
    if (--m->refs == 0)
        bury_locked(sv, m);
    pthread_mutex_unlock(&sv->lock);
}

/* Frees the dead (the serving loop's thread). A match's memory was
 * allocated by many threads (its connections', its searches', its
 * analysis's), each with a malloc arena of its own in glibc, and what is
 * freed in an arena stays in the process: the soak's RSS tripled in a
 * minute. So the free pages go back to the system once the dead are
 * freed. */
static void reap(Server *sv)
{
    bool any = false;
    for (;;) {
        pthread_mutex_lock(&sv->lock);
        Match *m = sv->ndead ? sv->dead[--sv->ndead] : NULL;
        pthread_mutex_unlock(&sv->lock);
        if (!m)
            break;
        match_destroy(m);
        any = true;
    }
#ifdef __GLIBC__
    if (any)
        malloc_trim(0);
#else
    (void)any;
#endif
}

/* Matches holding a slot: those going on with rules accepted or still
 * starting. (The dead are freed within a tick of the serving loop, their
 * threads stopped at once.) Server lock held. */
static size_t slots_used_locked(const Server *sv)
{
    size_t k = 0;
    for (size_t i = 0; i < sv->n; i++)
        k += !sv->m[i]->refused;
    return k;
}

/* The match with this id, referenced (release it), or NULL. With take, it
 * also leaves the table. Server lock held. */
static Match *find_locked(Server *sv, const char *id, bool take)
{
    for (size_t i = 0; i < sv->n; i++) {
        Match *m = sv->m[i];
        if (strcmp(m->id, id) != 0)
            continue;
        m->last = gdl_now();
        if (take) {
            sv->m[i] = sv->m[--sv->n]; /* the table's reference passes to the caller */
        } else {
            m->refs++;
        }
        return m;
    }
    return NULL;
}

static Match *find(Server *sv, const char *id, bool take)
{
    pthread_mutex_lock(&sv->lock);
    Match *m = find_locked(sv, id, take);
    pthread_mutex_unlock(&sv->lock);
    return m;
}

static void mlog(Match *m, const char *f, ...) BASE_PRINTF(2, 3);
static void mlog(Match *m, const char *f, ...)
{
    if (!m->log)
        return;
    char ts[40];
    stamp(ts, sizeof ts);
    va_list ap;
    va_start(ap, f);
    flockfile(m->log);
    fprintf(m->log, "%s ", ts);
    vfprintf(m->log, f, ap);
    fputc('\n', m->log);
    fflush(m->log);
    funlockfile(m->log);
    va_end(ap);
}

/* Opens the match's log in the log folder: appended to, never through a
 * symbolic link. */
static FILE *open_match_log(const Server *sv, const char *id)
{
    if (!sv->o->log_dir)
        return NULL;
    char name[200];
    file_name(name, sizeof name, id);
    char *path = player_fmt("%s/%s", sv->o->log_dir, name);
    if (!path)
        return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "a") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    if (!f && sv->o->log)
        fprintf(sv->o->log, "gdlc player: cannot open the match log %s: %s\n", path, strerror(errno));
    free(path);
    return f;
}

/* ---- one request ------------------------------------------------------ */

/* What a connection gathers before its message is handled. */
typedef struct Request {
    char *body;
    size_t len, cap;
    bool too_big; /* the body passed MAX_BODY: the rest is dropped */
    double t0;    /* gdl_now when it arrived: the clocks run from here */
} Request;

/* A reply: status, body, and what the request log says of it. The body
 * is allocated to its length: a move may be spelled in any number of
 * bytes, and a reply cut short would be an unclosed s-expression. */
typedef struct Reply {
    unsigned status;
    char *body;       /* malloc'd; NULL when memory ran out: "nil" is sent */
    const char *kind; /* the message's keyword, or "-" */
    char id[80];      /* the match id, cleaned, or "-" (for the log line) */
    char note[400];   /* why, for errors; what was played (for the log line) */
} Reply;

static void set_body(Reply *r, unsigned status, const char *body)
{
    r->status = status;
    free(r->body);
    r->body = dup_str(body);
}

/* An error reply: (error "why"), why cleaned of quotes and control bytes. */
static void set_error(Reply *r, unsigned status, const char *why)
{
    char c[400];
    clean(c, sizeof c, why, 300);
    r->status = status;
    free(r->body);
    r->body = player_fmt("(error \"%s\")", c);
}

/* Takes the i-th match, which only the table refers to, out of it and
 * buries it. Server lock held. */
static void drop_locked(Server *sv, size_t i)
{
    Match *x = sv->m[i];
    sv->m[i] = sv->m[--sv->n];
    x->refs = 0;
    bury_locked(sv, x);
}

/* Drops the matches the manager forgot: silent (no request in flight) for
 * two play clocks and a minute, and never longer than sv->forget whatever
 * clock they asked for. Server lock held. */
static void forget_locked(Server *sv)
{
    double now = gdl_now();
    for (size_t i = 0; i < sv->n;) {
        Match *x = sv->m[i];
        double quiet = 2.0 * x->playclock + 60;
        if (quiet > sv->forget)
            quiet = sv->forget;
        if (x->refs == 1 && !x->refused && now - x->last > quiet) {
            if (sv->o->log)
                fprintf(sv->o->log, "gdlc player: dropping a forgotten match (silent %.0f s)\n", now - x->last);
            drop_locked(sv, i);
        } else {
            i++;
        }
    }
}

/* Remembers at most MAX_REFUSED refused matches: the oldest goes. Server
 * lock held. */
static void refused_trim_locked(Server *sv)
{
    size_t k = 0, oldest = SIZE_MAX;
    for (size_t i = 0; i < sv->n; i++)
        if (sv->m[i]->refused && sv->m[i]->refs == 1) {
            k++;
            if (oldest == SIZE_MAX || sv->m[i]->last < sv->m[oldest]->last)
                oldest = i;
        }
    if (k >= MAX_REFUSED && oldest != SIZE_MAX)
        drop_locked(sv, oldest);
}

/* Waits on m's lock (held) until the START's work is done, until (gdl_now
 * seconds) or the match's cancel flag; true when it is done. */
static bool wait_started(Match *m, double until)
{
    while (!m->started) {
        double left = until - gdl_now();
        if (left <= 0 || player_flag_up(&m->cancel))
            return false;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double at = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + (left < 0.05 ? left : 0.05);
        ts.tv_sec = (time_t)at;
        ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
        pthread_cond_timedwait(&m->done, &m->lock, &ts);
    }
    return true;
}

/* The START's work, in its own thread: the rules' spelling, then the
 * session (rules loaded, machines made, the start clock spent). */
typedef struct Starter {
    Server *sv;
    Match *m;
} Starter;

static void start_work(Server *sv, Match *m)
{
    char *err = NULL;
    Session *session = session_new(m->rules, strlen(m->rules), m->role, m->start_deadline, m->playclock, &m->play,
                                   &err);
    /* the spelling after: a cancelled START does not read the rules twice */
    GgpSpelling *sp = session ? ggp_spelling_new(m->rules, strlen(m->rules)) : NULL;
    double took = gdl_now() - m->start_t0;
    if (session) {
        mlog(m, "ready after %.3f s%s", took,
             took > m->start_deadline - m->start_t0 ? " (after the START's reply)" : "");
    } else {
        mlog(m, "rules rejected; every PLAY will be answered nil:\n%s", err ? err : "(no message)");
        if (sv->o->log && sv->o->log_dir == NULL && err && !player_flag_up(&m->cancel))
            fprintf(sv->o->log, "gdlc player: the rules of a match were rejected:\n%s\n", err);
        /* it holds nothing now: the id is remembered without a slot; a
         * cancelled match is leaving (ABORT, STOP, the player's stop, which
         * frees the table's matches: the trim must not read them) */
        pthread_mutex_lock(&sv->lock);
        if (!player_flag_up(&m->cancel)) {
            m->refused = true;
            refused_trim_locked(sv);
        }
        pthread_mutex_unlock(&sv->lock);
    }
    pthread_mutex_lock(&m->lock);
    m->spelling = sp;
    m->session = session;
    free(m->rules); /* not needed any more; the reason why not, for the START's log line */
    m->rules = session ? NULL : err;
    err = NULL;
    m->started = true;
    pthread_cond_broadcast(&m->done);
    pthread_mutex_unlock(&m->lock);
    free(err);
}

static void *starter_run(void *arg)
{
    Starter st = *(Starter *)arg;
    free(arg);
    start_work(st.sv, st.m);
    return NULL;
}

static void handle_start(Server *sv, const GgpMessage *msg, double t0, Reply *r)
{
    const PlayerServerOptions *o = sv->o;
    Match *m = base_try_realloc(NULL, sizeof *m);
    if (m)
        memset(m, 0, sizeof *m);
    if (!m || !(m->id = dup_str(msg->id)) || !(m->rules = dup_str(msg->rules)) || !(m->role = dup_str(msg->role))) {
        if (m) {
            free(m->id);
            free(m->rules);
        }
        free(m);
        set_error(r, 500, "out of memory");
        return;
    }
    pthread_mutex_init(&m->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&m->done, &ca);
    pthread_condattr_destroy(&ca);
    /* a clock past the cap is clamped, not refused: a refused START would
     * leave the manager's ABORT or STOP naming a match we do not know */
    unsigned startclock = msg->startclock < MAX_CLOCK ? msg->startclock : MAX_CLOCK;
    unsigned playclock = msg->playclock < MAX_CLOCK ? msg->playclock : MAX_CLOCK;
    m->playclock = playclock;
    m->refs = 2; /* the table's and ours */
    m->last = t0;

    pthread_mutex_lock(&sv->lock);
    Match *old = find_locked(sv, msg->id, false);
    if (!old && slots_used_locked(sv) >= sv->max_matches)
        forget_locked(sv);
    const char *refuse = NULL;
    unsigned status = 0;
    if (old) {
        refuse = "a match with this id is going on", status = 409;
    } else if (slots_used_locked(sv) >= sv->max_matches) {
        refuse = "too many matches at once", status = 503;
    } else if (sv->n == sv->cap) {
        size_t cap = sv->cap ? sv->cap * 2 : 8;
        Match **nm = base_try_realloc(sv->m, cap * sizeof *nm);
        if (nm)
            sv->m = nm, sv->cap = cap;
        else
            refuse = "out of memory", status = 500;
    }
    if (!refuse)
        sv->m[sv->n++] = m;
    if (!refuse && sv->stopping)
        player_flag_raise(&m->cancel); /* the stop already raised every other flag */
    pthread_mutex_unlock(&sv->lock);
    if (old)
        match_release(sv, old);
    if (refuse) {
        set_body(r, status, status == 500 ? "(error \"out of memory\")" : "busy");
        snprintf(r->note, sizeof r->note, "%s (max %u)", refuse, sv->max_matches);
        match_destroy(m);
        return;
    }

    m->log = open_match_log(sv, msg->id);
    m->play = o->play;
    m->play.log = m->log;
    m->play.cancel = &m->cancel;
    char role[80];
    clean(role, sizeof role, msg->role, 60);
    mlog(m, "START role %s, start clock %u s, play clock %u s, rules %zu bytes", role, msg->startclock,
         msg->playclock, strlen(msg->rules));
    if (startclock != msg->startclock || playclock != msg->playclock) {
        mlog(m, "clocks clamped to %u s and %u s (at most %d s)", startclock, playclock, MAX_CLOCK);
        snprintf(r->note, sizeof r->note, "clocks clamped to %u s and %u s", startclock, playclock);
        if (o->log && !o->log_dir)
            fprintf(o->log, "gdlc player: a START's clocks (%u s, %u s) clamped to %u s and %u s\n", msg->startclock,
                    msg->playclock, startclock, playclock);
    }
    /* the session spends the start clock up to the reply's deadline; what
     * is not done by then (a compile, a grounding) goes on after the
     * reply, and the PLAYs wait for it within their own clocks */
    m->start_t0 = t0;
    m->start_deadline = t0 + startclock - REPLY_MARGIN;
    Starter *job = base_try_realloc(NULL, sizeof *job);
    if (job) {
        job->sv = sv, job->m = m;
        m->has_starter = pthread_create(&m->starter, NULL, starter_run, job) == 0;
        if (!m->has_starter)
            free(job);
    }
    if (!m->has_starter)
        start_work(sv, m); /* no thread to be had: here, late or not */
    pthread_mutex_lock(&m->lock);
    if (!wait_started(m, m->start_deadline)) {
        set_body(r, 200, "ready");
        snprintf(r->note + strlen(r->note), sizeof r->note - strlen(r->note), "%sthe session is still starting",
                 r->note[0] ? "; " : "");
        mlog(m, "ready sent at the start clock's margin; the session is still starting");
    } else if (m->session) {
        set_body(r, 200, "ready");
    } else {
        /* as GGP-Base's players when metagaming fails: busy, then nil to
         * each PLAY, so that the manager plays a random legal move */
        set_body(r, 200, "busy");
        char first[200];
        clean(first, sizeof first, m->rules ? m->rules : "?", 150);
        snprintf(r->note, sizeof r->note, "rules rejected: %s", first);
    }
    pthread_mutex_unlock(&m->lock);
    match_release(sv, m);
}

static void handle_play(Server *sv, const GgpMessage *msg, double t0, Reply *r)
{
    Match *m = find(sv, msg->id, false);
    if (!m) {
        set_body(r, 404, "busy");
        snprintf(r->note, sizeof r->note, "no match with this id");
        return;
    }
    /* one PLAY in flight per match: a manager sends the next only after
     * the reply, so a second is a careless or hostile client, and queuing
     * it on the match would let PLAYs for one match hold every slot */
    if (__atomic_fetch_add(&m->plays, 1, __ATOMIC_ACQ_REL) > 0) {
        __atomic_fetch_sub(&m->plays, 1, __ATOMIC_ACQ_REL);
        set_body(r, 200, "busy");
        snprintf(r->note, sizeof r->note, "a PLAY of this match is in progress");
        match_release(sv, m);
        return;
    }
    pthread_mutex_lock(&m->lock);
    m->turn++;
    double deadline = t0 + m->playclock - REPLY_MARGIN;
    if (!wait_started(m, deadline)) {
        set_body(r, 200, "nil");
        snprintf(r->note, sizeof r->note, "the session is still starting");
        mlog(m, "PLAY %u: nil (the session is still starting)", m->turn);
    } else if (!m->session) {
        set_body(r, 200, "nil");
        snprintf(r->note, sizeof r->note, "the rules were rejected");
        mlog(m, "PLAY %u: nil (the rules were rejected)", m->turn);
    } else {
        char *err = NULL;
        const char *move = session_play(m->session, (const char *const *)msg->moves, msg->nmoves, deadline, &err);
        char *spelled = move ? ggp_spelling_apply(m->spelling, move) : NULL;
        SessionStats st = {0};
        session_stats(m->session, &st);
        if (spelled) {
            set_body(r, 200, spelled);
            snprintf(r->note, sizeof r->note, "turn %u, %llu playouts%s", m->turn, (unsigned long long)st.playouts,
                     st.solved ? ", solved" : "");
            mlog(m, "PLAY %u: %s after %.3f s (%llu playouts, %u threads%s)", m->turn, spelled, gdl_now() - t0,
                 (unsigned long long)st.playouts, st.threads, st.solved ? ", from a proof or plan" : "");
        } else {
            /* GGP-Base's answer when a move cannot be selected */
            set_body(r, 200, "nil");
            char why[200];
            clean(why, sizeof why, move ? "out of memory" : err ? err : "no move", 150);
            snprintf(r->note, sizeof r->note, "no move: %s", why);
            mlog(m, "PLAY %u: nil: %s", m->turn, move ? "out of memory" : err ? err : "no move");
        }
        free(spelled);
        free(err);
    }
    pthread_mutex_unlock(&m->lock);
    __atomic_fetch_sub(&m->plays, 1, __ATOMIC_ACQ_REL);
    match_release(sv, m);
}

/* STOP and ABORT. A PLAY still thinking is cancelled first (ABORT always;
 * STOP when it finds the match busy), so that the reply comes at once. A
 * match we do not know (never started, already ended, or dropped) gets the
 * usual reply, as GGP-Base's players give it: an error status would make
 * nothing better for a manager that is done with the match anyway. */
static void handle_end(Server *sv, const GgpMessage *msg, Reply *r)
{
    bool stop = msg->kind == GGP_STOP;
    Match *m = find(sv, msg->id, true);
    if (!m) {
        set_body(r, 200, stop ? "done" : "aborted");
        snprintf(r->note, sizeof r->note, "no match with this id");
        return;
    }
    if (!stop || pthread_mutex_trylock(&m->lock) != 0) {
        player_flag_raise(&m->cancel);
        pthread_mutex_lock(&m->lock);
    }
    if (stop) {
        if (m->session && !player_flag_up(&m->cancel))
            session_stop(m->session, (const char *const *)msg->moves, msg->nmoves);
        set_body(r, 200, "done");
        mlog(m, "STOP after %u turns", m->turn);
    } else {
        set_body(r, 200, "aborted");
        mlog(m, "ABORT after %u turns", m->turn);
    }
    pthread_mutex_unlock(&m->lock);
    match_release(sv, m);
}

static const char *kind_name(GgpKind k)
{
    static const char *const names[] = {"INFO", "PREVIEW", "START", "PLAY", "STOP", "ABORT"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* Handles one message body. */
static void handle(Server *sv, const char *text, size_t len, double t0, Reply *r)
{
    GgpMessage msg;
    char *err = NULL;
    if (len == 0) {
        set_error(r, 400, "empty request: a message such as (INFO) is expected, with its Content-Length");
        return;
    }
    if (!ggp_message_parse(text, len, &msg, &err)) {
        set_error(r, 400, err ? err : "out of memory");
        free(err);
        return;
    }
    r->kind = kind_name(msg.kind);
    if (msg.id)
        clean(r->id, sizeof r->id, msg.id, 60);
    switch (msg.kind) {
    case GGP_INFO: {
        char name[80];
        clean(name, sizeof name, sv->o->name ? sv->o->name : "gdlc", 60);
        for (char *c = name; *c; c++) /* one symbol */
            if (*c == ' ' || *c == '(' || *c == ')' || *c == ';')
                *c = '_';
        pthread_mutex_lock(&sv->lock);
        bool full = slots_used_locked(sv) >= sv->max_matches;
        pthread_mutex_unlock(&sv->lock);
        r->status = 200;
        free(r->body);
        r->body = player_fmt("((name %s) (status %s))", *name ? name : "gdlc", full ? "busy" : "available");
        break;
    }
    case GGP_PREVIEW:
        set_body(r, 200, "ready");
        break;
    case GGP_START:
        handle_start(sv, &msg, t0, r);
        break;
    case GGP_PLAY:
        handle_play(sv, &msg, t0, r);
        break;
    case GGP_STOP:
    case GGP_ABORT:
        handle_end(sv, &msg, r);
        break;
    }
    ggp_message_free(&msg);
}

/* ---- HTTP -------------------------------------------------------------- */

/* Queues a reply with the headers GGP-Base's players send (HttpWriter's
 * writeAsServer), and writes the request's log line. */
static enum MHD_Result send_reply(Server *sv, struct MHD_Connection *c, const char *method, Reply *r,
                                  double t0)
{
    const char *text = r->body ? r->body : "nil";
    struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
    if (!resp) {
        free(r->body);
        r->body = NULL;
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", "text/acl");
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", "*");
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", "POST, GET, OPTIONS");
    MHD_add_response_header(resp, "Access-Control-Allow-Headers", "Content-Type");
    MHD_add_response_header(resp, "Access-Control-Allow-Age", "86400");
    if (r->status == 405)
        MHD_add_response_header(resp, "Allow", "POST, GET, OPTIONS");
    enum MHD_Result q = MHD_queue_response(c, r->status, resp);
    MHD_destroy_response(resp);
    if (sv->o->log) {
        char ts[40], from[64] = "?", body[200], m[16];
        stamp(ts, sizeof ts);
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET) {
            const unsigned char *a = (const unsigned char *)&((const struct sockaddr_in *)ci->client_addr)->sin_addr;
            snprintf(from, sizeof from, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
        }
        clean_text(body, sizeof body, text, 160, true);
        clean(m, sizeof m, method, 10);
        fprintf(sv->o->log, "%s %s %s %s %s -> %u %s (%.0f ms)%s%s\n", ts, from, m, r->kind ? r->kind : "-",
                r->id[0] ? r->id : "-", r->status, body, (gdl_now() - t0) * 1000, r->note[0] ? ": " : "", r->note);
        fflush(sv->o->log);
    }
    free(r->body);
    r->body = NULL;
    return q;
}

/* ---- connection slots -------------------------------------------------- */

/* A thread per connection serves requests that may think for a whole play
 * clock, but a client that sends its request a byte every few seconds
 * (slow loris) defeats MHD's idle timeout and holds its thread for good;
 * MAX_CONNECTIONS of them held every slot and INFO went unanswered. So
 * every connection is listed (MHD's connection notifications), and the
 * serving loop's watchdog shuts down the socket of a connection whose
 * request has not fully come in within request_seconds of its start,
 * whatever its pace. And at most MAX_RECEIVING connections may be
 * receiving at once: a new connection beyond that cuts the oldest
 * receiving one, so a new client always gets in and slots stay in reserve
 * for requests being handled. Connections are never limited per address:
 * managers, GGP-Base's GameServer and the tests all connect from one.
 * The socket is shut down (not closed) under the list's lock; MHD closes
 * it only after it has told us the connection is closed, so the watchdog
 * never touches a descriptor that has been reused. */

/* Shuts down c's socket: its thread sees the end of the stream and closes
 * the connection. conn_lock held. */
static void conn_cut_locked(Server *sv, Conn *c)
{
    if (c->cut)
        return;
    if (!c->handling)
        sv->receiving--;
    c->cut = true;
    shutdown(c->fd, SHUT_RDWR);
}

static void on_connection(void *cls, struct MHD_Connection *mc, void **ctx, enum MHD_ConnectionNotificationCode toe)
{
    Server *sv = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
        Conn *c = ci ? base_try_realloc(NULL, sizeof *c) : NULL;
        *ctx = c;
        if (!c)
            return;
        memset(c, 0, sizeof *c);
        c->fd = ci->connect_fd;
        c->since = gdl_now();
        pthread_mutex_lock(&sv->conn_lock);
        if (sv->receiving >= MAX_RECEIVING) { /* the oldest receiving connections go */
            Conn *old = sv->conns;
            while (old && old->next)
                old = old->next;
            for (; old && sv->receiving >= MAX_RECEIVING; old = old->prev)
                if (!old->handling)
                    conn_cut_locked(sv, old);
        }
        c->next = sv->conns;
        if (sv->conns)
            sv->conns->prev = c;
        sv->conns = c;
        sv->receiving++;
        pthread_mutex_unlock(&sv->conn_lock);
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        Conn *c = *ctx;
        if (!c)
            return;
        pthread_mutex_lock(&sv->conn_lock);
        if (!c->handling && !c->cut)
            sv->receiving--;
        if (c->prev)
            c->prev->next = c->next;
        else
            sv->conns = c->next;
        if (c->next)
            c->next->prev = c->prev;
        pthread_mutex_unlock(&sv->conn_lock);
        free(c);
        *ctx = NULL;
    }
}

/* The connection's request is in (handling) or answered (not handling:
 * a kept-alive connection's next request starts now). */
static void conn_mark(Server *sv, struct MHD_Connection *mc, bool handling)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    Conn *c = ci ? ci->socket_context : NULL;
    if (!c)
        return;
    pthread_mutex_lock(&sv->conn_lock);
    if (handling) /* a PLAY may think for its whole clock: only the watchdog times requests */
        MHD_set_connection_option(mc, MHD_CONNECTION_OPTION_TIMEOUT, 0u);
    if (c->handling != handling && !c->cut) {
        c->handling = handling;
        if (handling)
            sv->receiving--;
        else
            sv->receiving++;
    }
    if (!handling)
        c->since = gdl_now();
    pthread_mutex_unlock(&sv->conn_lock);
}

/* The watchdog (the serving loop, every tick): cuts the connections whose
 * request has been coming in for longer than request_seconds. */
static void conn_watch(Server *sv)
{
    double now = gdl_now();
    pthread_mutex_lock(&sv->conn_lock);
    for (Conn *c = sv->conns; c; c = c->next)
        if (!c->handling && !c->cut && now - c->since > sv->request_seconds)
            conn_cut_locked(sv, c);
    pthread_mutex_unlock(&sv->conn_lock);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **req_cls)
{
    Server *sv = cls;
    Request *rq = *req_cls;
    Reply r;
    memset(&r, 0, sizeof r);
    if (!rq) { /* the headers are in: decide whether to read a body */
        double t0 = gdl_now();
        if (strcmp(method, MHD_HTTP_METHOD_POST) != 0)
            conn_mark(sv, c, true); /* answered now: no body to wait for */
        if (strcmp(method, MHD_HTTP_METHOD_OPTIONS) == 0) { /* a browser's preflight */
            set_body(&r, 200, "");
            return send_reply(sv, c, method, &r, t0);
        }
        if (strcmp(method, MHD_HTTP_METHOD_GET) == 0) { /* GET /MESSAGE, URL-encoded (GGP-Base's readAsServer) */
            const char *msg = url[0] == '/' ? url + 1 : url;
            handle(sv, msg, strlen(msg), t0, &r);
            return send_reply(sv, c, method, &r, t0);
        }
        if (strcmp(method, MHD_HTTP_METHOD_POST) != 0) {
            set_error(&r, 405, "only POST, GET and OPTIONS are served");
            return send_reply(sv, c, method, &r, t0);
        }
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > MAX_BODY) {
            char why[120];
            snprintf(why, sizeof why, "request body too large: Content-Length %.30s, at most %d bytes", cl, MAX_BODY);
            set_error(&r, 413, why);
            return send_reply(sv, c, method, &r, t0);
        }
        rq = base_try_realloc(NULL, sizeof *rq);
        if (!rq)
            return MHD_NO;
        memset(rq, 0, sizeof *rq);
        rq->t0 = t0;
        *req_cls = rq;
        return MHD_YES;
    }
    if (*upload_size > 0) { /* a piece of the body */
        size_t n = *upload_size;
        *upload_size = 0;
        if (rq->too_big || rq->len + n > MAX_BODY) {
            rq->too_big = true;
            return MHD_YES;
        }
        if (rq->len + n + 1 > rq->cap) {
            size_t cap = rq->cap ? rq->cap : 4096;
            while (cap < rq->len + n + 1)
                cap *= 2;
            char *b = base_try_realloc(rq->body, cap);
            if (!b)
                return MHD_NO;
            rq->body = b, rq->cap = cap;
        }
        memcpy(rq->body + rq->len, upload, n);
        rq->len += n;
        rq->body[rq->len] = 0;
        return MHD_YES;
    }
    /* the whole body is in */
    conn_mark(sv, c, true);
    if (rq->too_big) {
        char why[120];
        snprintf(why, sizeof why, "request body too large: more than %d bytes", MAX_BODY);
        set_error(&r, 413, why);
    } else {
        handle(sv, rq->body ? rq->body : "", rq->len, rq->t0, &r);
    }
    return send_reply(sv, c, method, &r, rq->t0);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls, enum MHD_RequestTerminationCode code)
{
    conn_mark(cls, c, false);
    Request *rq = *req_cls;
    if (rq) {
        free(rq->body);
        free(rq);
        *req_cls = NULL;
    }
}

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* URL-decoding as Java's URLDecoder (GGP-Base's GET): %XX, and '+' for a
 * space. In place; the result is never longer. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    char *w = s;
    for (const char *p = s; *p; p++) {
        int hi, lo;
        if (*p == '+') {
            *w++ = ' ';
        } else if (*p == '%' && (hi = hex(p[1])) >= 0 && (lo = hex(p[2])) >= 0) {
            *w++ = (char)(hi * 16 + lo);
            p += 2;
        } else {
            *w++ = *p;
        }
    }
    *w = 0;
    return (size_t)(w - s);
}

static void mhd_log(void *cls, const char *f, va_list ap)
{
    FILE *out = cls;
    if (!out)
        return;
    flockfile(out); /* one line, whichever thread */
    fprintf(out, "gdlc player: libmicrohttpd: ");
    vfprintf(out, f, ap);
    fflush(out);
    funlockfile(out);
}

int player_serve(const PlayerServerOptions *o, const volatile sig_atomic_t *stop, FILE *err)
{
    Server sv = {.o = o,
                 .max_matches = o->max_matches ? o->max_matches : DEFAULT_MAX_MATCHES,
                 .forget = o->forget_seconds > 0 ? o->forget_seconds : FORGET_MAX,
                 .request_seconds = o->request_seconds > 0 ? o->request_seconds : REQUEST_SECONDS};
    pthread_mutex_init(&sv.lock, NULL);
    pthread_mutex_init(&sv.conn_lock, NULL);
    if (o->port > 65535) {
        fprintf(err, "gdlc player: port %u is out of range (0 to 65535)\n", o->port);
        return -1;
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, (uint16_t)o->port, NULL,
        NULL, on_request, &sv, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, (void *)err, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, &sv, MHD_OPTION_NOTIFY_CONNECTION, on_connection, &sv, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(sv.request_seconds + 1),
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, &sv, MHD_OPTION_END);
    if (!d) {
        fprintf(err, "gdlc player: cannot listen on port %u: %s\n", o->port,
                errno ? strerror(errno) : "libmicrohttpd refused to start");
        pthread_mutex_destroy(&sv.lock);
        pthread_mutex_destroy(&sv.conn_lock);
        return -1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = info ? info->port : o->port;
    if (o->bound_port)
        *o->bound_port = port;
    fprintf(err, "gdlc player: listening on port %u\n", port);
    fflush(err);
    while (!*stop) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
        reap(&sv);
        conn_watch(&sv);
    }
    /* every match's search and waits end now; then the daemon closes the
     * connections and joins their threads */
    pthread_mutex_lock(&sv.lock);
    sv.stopping = true;
    for (size_t i = 0; i < sv.n; i++)
        player_flag_raise(&sv.m[i]->cancel);
    pthread_mutex_unlock(&sv.lock);
    MHD_stop_daemon(d);
    /* each match leaves the table under the lock before it is freed: a
     * START's thread still ending may take the lock */
    size_t left = 0;
    for (;;) {
        pthread_mutex_lock(&sv.lock);
        Match *x = sv.n ? sv.m[--sv.n] : NULL;
        pthread_mutex_unlock(&sv.lock);
        if (!x)
            break;
        left += !x->refused;
        mlog(x, "the player stops: the match is dropped");
        match_destroy(x);
    }
    reap(&sv);
    free(sv.dead);
    free(sv.m);
    pthread_mutex_destroy(&sv.lock);
    pthread_mutex_destroy(&sv.conn_lock);
    fprintf(err, "gdlc player: stopped (%zu match%s dropped)\n", left, left == 1 ? "" : "es");
    return 0;
}
