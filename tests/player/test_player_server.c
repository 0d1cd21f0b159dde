/* test_player_server.c: the HTTP player (player/server.c) driven over loopback
 * by the match runner's HTTP client (player/remote.c) and by raw sockets,
 * with a stand-in session (session_double.c) so that the protocol is
 * tested on its own:
 *   - whole matches START to STOP, the test being the manager: every PLAY
 *     answered within the play clock with a legal move spelled exactly as
 *     the rules spell it (a tic-tac-toe written with MARK, NOOP, xPlayer);
 *   - two matches at once, served in parallel;
 *   - bad messages: garbage, an unknown message, an unknown id, START for an
 *     id in play, a body over the cap by its Content-Length, a POST without
 *     Content-Length, another method; each gets its error reply and the
 *     server stays up;
 *   - rules the session rejects: busy, then nil to each PLAY, done at STOP;
 *   - the cap on matches at once (busy, and INFO says busy);
 *   - GGP-Base's headers on every reply, GET /MESSAGE and OPTIONS as
 *     GGP-Base's players serve them;
 *   - the logs: a line per request, a file per match named after its id
 *     escaped (an id "../x" stays in the folder);
 *   - the stop flag ends the server, freeing the matches left (ASan counts
 *     the leaks).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <dirent.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../player/player.h"

#ifndef GDLC_SOURCE_DIR
#define GDLC_SOURCE_DIR "."
#endif

enum { MAX_MATCHES = 4, START_CLOCK = 5, PLAY_CLOCK = 1 };

static struct {
    pthread_t thread;
    volatile sig_atomic_t stop;
    unsigned port;
    int rc;
    char dir[64];      /* the per-match logs */
    char logpath[128]; /* the request log */
    FILE *log, *err;
    PlayerServerOptions o;
    char *upper_rules; /* tests/player/ticTacToeUpper.kif */
    char url[64];
} T;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = 0;
    fclose(f);
    return s;
}

static void *serve(void *arg)
{
    T.rc = player_serve(&T.o, &T.stop, T.err);
    return NULL;
}

static int setup(void **state)
{
    snprintf(T.dir, sizeof T.dir, "/tmp/gdlc-player-test-XXXXXX");
    if (!mkdtemp(T.dir))
        return -1;
    snprintf(T.logpath, sizeof T.logpath, "%s/requests.txt", T.dir);
    char sub[96];
    snprintf(sub, sizeof sub, "%s/matches", T.dir);
    mkdir(sub, 0755);
    T.log = fopen(T.logpath, "w");
    T.err = tmpfile();
    T.upper_rules = slurp(GDLC_SOURCE_DIR "/tests/player/ticTacToeUpper.kif");
    if (!T.log || !T.err || !T.upper_rules)
        return -1;
    play_options_default(&T.o.play);
    T.o.port = 0;
    T.o.name = "gdlc-test";
    T.o.log_dir = strdup(sub);
    T.o.log = T.log;
    T.o.max_matches = MAX_MATCHES;
    T.o.forget_seconds = 2;
    T.o.request_seconds = 3;
    T.o.bound_port = &T.port;
    pthread_create(&T.thread, NULL, serve, NULL);
    for (int i = 0; i < 500 && !T.port; i++)
        usleep(10000);
    snprintf(T.url, sizeof T.url, "http://127.0.0.1:%u", T.port);
    return T.port ? 0 : -1;
}

static int teardown(void **state)
{
    free(T.upper_rules);
    free((char *)T.o.log_dir);
    if (T.log)
        fclose(T.log);
    if (T.err)
        fclose(T.err);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", T.dir);
    if (!getenv("KEEP"))
        (void)system(cmd);
    return 0;
}

/* ---- a raw HTTP client ---------------------------------------------- */

typedef struct Resp {
    int status;
    char head[2048];
    char body[4096];
} Resp;

/* Sends req as it is and reads the reply to the end (HTTP/1.0: the server
 * closes). */
static void raw(const char *req, size_t len, Resp *r)
{
    memset(r, 0, sizeof *r);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)T.port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    size_t off = 0;
    while (off < len) {
        ssize_t w = send(fd, req + off, len - off, MSG_NOSIGNAL);
        if (w <= 0)
            break; /* the server may hang up early (a body refused) */
        off += (size_t)w;
    }
    char buf[8192];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof buf - 1 && (got = recv(fd, buf + n, sizeof buf - 1 - n, 0)) > 0)
        n += (size_t)got;
    buf[n] = 0;
    close(fd);
    sscanf(buf, "HTTP/%*s %d", &r->status);
    char *sep = strstr(buf, "\r\n\r\n");
    if (sep) {
        snprintf(r->head, sizeof r->head, "%.*s", (int)(sep - buf), buf);
        snprintf(r->body, sizeof r->body, "%s", sep + 4);
    }
}

/* POSTs body as GGP-Base's GameServer does. */
static void post(const char *body, Resp *r)
{
    char req[16384];
    int n = snprintf(req, sizeof req,
                     "POST / HTTP/1.0\r\nAccept: text/delim\r\nSender: GAMESERVER\r\nReceiver: 127.0.0.1\r\n"
                     "Content-Type: text/acl\r\nContent-Length: %zu\r\n\r\n%s",
                     strlen(body), body);
    raw(req, (size_t)n, r);
}

static void ggp_base_headers(const Resp *r)
{
    assert_non_null(strstr(r->head, "Content-Type: text/acl"));
    assert_non_null(strstr(r->head, "Access-Control-Allow-Origin: *"));
    assert_non_null(strstr(r->head, "Access-Control-Allow-Methods: POST, GET, OPTIONS"));
    assert_non_null(strstr(r->head, "Access-Control-Allow-Headers: Content-Type"));
}

/* ---- the test as the manager ----------------------------------------- */

typedef struct Manager {
    const char *id, *rules;
    unsigned seat;  /* the role the player plays */
    double seconds; /* the match's wall time */
    unsigned plays;
    bool ok;
} Manager;

/* Plays one match against the player, every other role random; checks
 * every reply. Run in a thread (cmocka's asserts are for the main thread
 * only: failures are printed and counted in ok). */
static void *manage(void *arg)
{
    Manager *mg = arg;
    mg->ok = false;
    double t0 = gdl_now();
    GdlGame *g = NULL;
    GdlMachine *m = NULL;
    GdlState *s = NULL;
    GgpSpelling *sp = ggp_spelling_new(mg->rules, strlen(mg->rules));
    char *err = NULL;
    MatchPlayer *p = match_player_http(T.url, &err);
    if (!p || gdl_game_load_string("rules", mg->rules, strlen(mg->rules), &g, NULL) != GDL_OK ||
        gdl_machine_new(g, "ref", &m) != GDL_OK || gdl_state_initial(m, &s) != GDL_OK) {
        fprintf(stderr, "%s: cannot set up: %s\n", mg->id, err ? err : "?");
        goto out;
    }
    unsigned roles = gdl_game_role_count(g);
    if (!p->ops->start(p, mg->id, 0, mg->rules, gdl_game_role_name(g, mg->seat), START_CLOCK, PLAY_CLOCK, &err)) {
        fprintf(stderr, "%s: START: %s\n", mg->id, err);
        goto out;
    }
    GdlRng rng;
    gdl_rng_seed(&rng, 7);
    char *last[8] = {0};
    size_t nlast = 0;
    bool terminal = false;
    while (gdl_state_is_terminal(m, s, &terminal) == GDL_OK && !terminal) {
        double sent = gdl_now();
        char *move = p->ops->play(p, mg->id, (const char *const *)last, nlast, sent + PLAY_CLOCK + 1, &err);
        double took = gdl_now() - sent;
        if (!move) {
            fprintf(stderr, "%s: PLAY: %s\n", mg->id, err);
            goto out;
        }
        mg->plays++;
        if (took > PLAY_CLOCK) {
            fprintf(stderr, "%s: PLAY answered after %.3f s, the clock is %d s\n", mg->id, took, PLAY_CLOCK);
            free(move);
            goto out;
        }
        GdlMove joint[8], mine;
        if (gdl_move_parse(m, move, &mine) != GDL_OK) {
            fprintf(stderr, "%s: not a move: %s\n", mg->id, move);
            free(move);
            goto out;
        }
        /* spelled exactly as the rules spell it */
        char *want = ggp_spelling_apply(sp, gdl_move_text(m, mine));
        bool same = strcmp(want, move) == 0;
        if (!same)
            fprintf(stderr, "%s: the move '%s' is not spelled as the rules spell it: '%s'\n", mg->id, move, want);
        free(want);
        free(move);
        if (!same)
            goto out;
        gdl_state_random_joint_move(m, s, &rng, joint);
        const GdlMove *legal;
        size_t nlegal;
        gdl_state_legal(m, s, mg->seat, &legal, &nlegal);
        bool ok = false;
        for (size_t i = 0; i < nlegal; i++)
            ok |= legal[i] == mine;
        if (!ok) {
            fprintf(stderr, "%s: an illegal move\n", mg->id);
            goto out;
        }
        joint[mg->seat] = mine;
        GdlState *next = NULL;
        gdl_state_next(m, s, joint, &next);
        gdl_state_free(s);
        s = next;
        for (size_t i = 0; i < nlast; i++)
            free(last[i]);
        nlast = roles;
        for (unsigned i = 0; i < roles; i++)
            last[i] = strdup(gdl_move_text(m, joint[i]));
    }
    p->ops->stop(p, mg->id, (const char *const *)last, nlast);
    for (size_t i = 0; i < nlast; i++)
        free(last[i]);
    mg->ok = true;
out:
    mg->seconds = gdl_now() - t0;
    free(err);
    if (p)
        p->ops->free(p);
    ggp_spelling_free(sp);
    gdl_state_free(s);
    gdl_machine_free(m);
    gdl_game_free(g);
    return NULL;
}

/* ---- the tests ------------------------------------------------------- */

static void test_info_and_headers(void **state)
{
    Resp r;
    post("( INFO )", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "((name gdlc-test) (status available))");
    ggp_base_headers(&r);
    /* GET /MESSAGE, URL-encoded as Java's URLEncoder writes it */
    const char *get = "GET /%28+info+%29 HTTP/1.0\r\n\r\n";
    raw(get, strlen(get), &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "((name gdlc-test) (status available))");
    /* a browser's preflight */
    const char *opt = "OPTIONS / HTTP/1.0\r\nOrigin: http://example.org\r\n\r\n";
    raw(opt, strlen(opt), &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "");
    ggp_base_headers(&r);
    /* any path, and HTTP/1.1 with a keep-alive the server may refuse */
    const char *path = "POST /ggp/player?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 6\r\n\r\n(info)";
    raw(path, strlen(path), &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "((name gdlc-test) (status available))");
    /* PREVIEW is answered ready */
    post("(preview ((role r)) 10)", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "ready");
}

static void test_match_spelled_as_rules(void **state)
{
    /* the player takes oPlayer: it answers NOOP first, then MARK */
    Manager mg = {.id = "Base.ticTacToeUpper.1", .rules = T.upper_rules, .seat = 1};
    manage(&mg);
    assert_true(mg.ok);
    assert_true(mg.plays >= 5);
    /* its log, named after the id */
    char path[256];
    snprintf(path, sizeof path, "%s/Base.ticTacToeUpper.1.log", T.o.log_dir);
    char *log = slurp(path);
    assert_non_null(log);
    assert_non_null(strstr(log, "START role oPlayer, start clock 5 s, play clock 1 s"));
    assert_non_null(strstr(log, "PLAY 1: NOOP"));
    assert_non_null(strstr(log, "PLAY 2: (MARK "));
    assert_non_null(strstr(log, "STOP after"));
    free(log);
    /* the match is over: its id is unknown now */
    Resp r;
    post("( PLAY Base.ticTacToeUpper.1 NIL )", &r);
    assert_int_equal(r.status, 404);
    assert_string_equal(r.body, "busy");
}

static void test_two_matches_at_once(void **state)
{
    char *ttt = slurp(GDLC_SOURCE_DIR "/games/tictactoe.kif");
    assert_non_null(ttt);
    Manager one = {.id = "solo", .rules = ttt, .seat = 0};
    manage(&one);
    assert_true(one.ok);
    Manager a = {.id = "para.1", .rules = ttt, .seat = 0}, b = {.id = "para.2", .rules = T.upper_rules, .seat = 1};
    pthread_t ta, tb;
    double t0 = gdl_now();
    pthread_create(&ta, NULL, manage, &a);
    pthread_create(&tb, NULL, manage, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    double both = gdl_now() - t0;
    assert_true(a.ok);
    assert_true(b.ok);
    /* served in parallel: the session thinks 0.1 s a move, so two matches
     * one after the other would take about twice one */
    if (both > 1.7 * one.seconds + 0.3)
        fail_msg("two matches took %.3f s, one alone %.3f s: not served in parallel", both, one.seconds);
    free(ttt);
}

static void test_bad_messages(void **state)
{
    Resp r;
    post("hello (", &r);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "(error \"malformed message"));
    ggp_base_headers(&r);
    post("(DANCE now)", &r);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "unknown message 'DANCE'"));
    post("(PLAY m)", &r);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "PLAY: 1 argument"));
    post("( PLAY nosuch NIL )", &r);
    assert_int_equal(r.status, 404);
    assert_string_equal(r.body, "busy");
    /* STOP and ABORT of a match never started: done and aborted, as
     * GGP-Base's players answer (issue 36) */
    post("( STOP nosuch NIL )", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "done");
    post("( ABORT nosuch )", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "aborted");

    /* START for an id in play */
    char start[4096];
    snprintf(start, sizeof start, "( START dup xplayer (%s) 5 1)", "(role xplayer) (init (p)) (legal xplayer go) "
                                                                     "(<= terminal (true (p))) (goal xplayer 100)");
    post(start, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "ready");
    post(start, &r);
    assert_int_equal(r.status, 409);
    assert_string_equal(r.body, "busy");
    post("(abort dup)", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "aborted");

    /* a body over the cap, refused by its Content-Length before it is read */
    const char *huge = "POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 999999999\r\n\r\n(INFO";
    raw(huge, strlen(huge), &r);
    assert_int_equal(r.status, 413);
    assert_non_null(strstr(r.body, "too large"));
    /* no Content-Length: no body */
    const char *nolen = "POST / HTTP/1.0\r\nContent-Type: text/acl\r\n\r\n(INFO)";
    raw(nolen, strlen(nolen), &r);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "empty request"));
    /* another method */
    const char *cut = "PUT / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(INFO)";
    raw(cut, strlen(cut), &r);
    assert_int_equal(r.status, 405);
    /* still up */
    post("(INFO)", &r);
    assert_int_equal(r.status, 200);
}

static void test_rejected_rules(void **state)
{
    Resp r;
    /* an unsafe variable: the rules are rejected */
    post("( START bad r ((role r) (<= (legal r ?x) (true (p)))) 5 1)", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "busy");
    post("( PLAY bad NIL )", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "nil");
    post("( STOP bad (go) )", &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "done");
    /* the diagnostics are in the match's log */
    char path[256];
    snprintf(path, sizeof path, "%s/bad.log", T.o.log_dir);
    char *log = slurp(path);
    assert_non_null(log);
    assert_non_null(strstr(log, "rules rejected"));
    assert_non_null(strstr(log, "?x"));
    free(log);
}


typedef struct Later {
    char body[256];
    Resp r;
    double took;
} Later;

static void *post_later(void *arg)
{
    Later *l = arg;
    double t0 = gdl_now();
    post(l->body, &l->r);
    l->took = gdl_now() - t0;
    return NULL;
}

/* Issue 36, class 2: a START with the largest clocks (clamped to an hour,
 * and logged), then a PLAY that thinks towards its deadline: ABORT answers
 * within a second and the PLAY is cut short, answered with a legal move.
 * ABORT used to wait for the match's lock, held by the PLAY, for the
 * whole play clock. Then the same with STOP. */
static void test_abort_thinking(void **state)
{
    const char *rules = "(role thinker) (init (p)) (legal thinker go) (legal thinker wait) "
                        "(<= (next (q)) (does thinker go)) (<= terminal (true (q))) (goal thinker 100)";
    const char *ends[] = {"( ABORT think.%d )", "( STOP think.%d (go) )"};
    const char *want[] = {"aborted", "done"};
    for (int k = 0; k < 2; k++) {
        char msg[1024];
        Resp r;
        snprintf(msg, sizeof msg, "( START think.%d thinker (%s) 5 4294967295 )", k, rules);
        post(msg, &r);
        assert_int_equal(r.status, 200);
        assert_string_equal(r.body, "ready");
        Later play;
        snprintf(play.body, sizeof play.body, "( PLAY think.%d NIL )", k);
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, post_later, &play), 0);
        usleep(300 * 1000);
        if (k == 0) {
            /* a second PLAY while one thinks is answered at once, not queued
             * on the match (128 of them held every slot for an hour) */
            snprintf(msg, sizeof msg, "( PLAY think.%d NIL )", k);
            double t1 = gdl_now();
            post(msg, &r);
            if (r.status != 200 || strcmp(r.body, "busy") != 0 || gdl_now() - t1 > 1)
                fail_msg("a second PLAY answered %d '%s' after %.3f s", r.status, r.body, gdl_now() - t1);
        }
        snprintf(msg, sizeof msg, ends[k], k);
        double t0 = gdl_now();
        post(msg, &r);
        double took = gdl_now() - t0;
        pthread_join(th, NULL);
        if (r.status != 200 || strcmp(r.body, want[k]) != 0 || took > 1)
            fail_msg("%s answered %d '%s' after %.3f s", msg, r.status, r.body, took);
        assert_int_equal(play.r.status, 200);
        assert_true(strcmp(play.r.body, "go") == 0 || strcmp(play.r.body, "wait") == 0);
        assert_true(play.took < 1.5);
    }
    char path[256];
    snprintf(path, sizeof path, "%s/think.0.log", T.o.log_dir);
    char *log = slurp(path);
    assert_non_null(log);
    assert_non_null(strstr(log, "clocks clamped to 5 s and 3600 s"));
    free(log);
}

/* Issue 36, class 9: a move spelled in more than 511 bytes is answered
 * whole (a fixed reply buffer of 512 bytes cut it: an unclosed
 * s-expression). */
static void test_long_move(void **state)
{
    char sym[701];
    for (int i = 0; i < 700; i++)
        sym[i] = "abcdefghij"[i % 10];
    sym[700] = 0;
    char rules[2048], msg[4096], want[1024];
    snprintf(rules, sizeof rules,
             "(role r) (init (p)) (legal r (say %s one)) (<= (next (q)) (does r (say ?x ?y))) "
             "(<= terminal (true (q))) (goal r 100)", sym);
    snprintf(msg, sizeof msg, "( START long r (%s) 5 2 )", rules);
    Resp r;
    post(msg, &r);
    assert_string_equal(r.body, "ready");
    post("( PLAY long NIL )", &r);
    assert_int_equal(r.status, 200);
    snprintf(want, sizeof want, "(say %s one)", sym);
    assert_string_equal(r.body, want);
    post("( ABORT long )", &r);
    assert_string_equal(r.body, "aborted");
}

/* Issue 36, class 7: STARTs whose rules are rejected, with the largest
 * play clock, do not fill the table (they hold no session), and a match
 * the manager forgot is dropped after the server's forget time whatever
 * clock it asked for (it used to be kept two play clocks and a minute:
 * more than two hours, every START meanwhile refused with 503). */
static void test_forgotten_matches(void **state)
{
    char msg[512];
    Resp r;
    for (int i = 0; i < 3 * MAX_MATCHES; i++) {
        snprintf(msg, sizeof msg, "( START refused.%d r ((role r) (<= (legal r ?x) (true (p)))) 5 4294967295 )", i);
        post(msg, &r);
        assert_int_equal(r.status, 200);
        assert_string_equal(r.body, "busy");
    }
    const char *rules = "(role r) (init (p)) (legal r go) (<= terminal (true (p))) (goal r 100)";
    int live = 0;
    for (; live <= MAX_MATCHES; live++) {
        snprintf(msg, sizeof msg, "( START live.%d r (%s) 5 4294967295 )", live, rules);
        post(msg, &r);
        if (r.status == 503)
            break;
        assert_string_equal(r.body, "ready");
    }
    assert_int_equal(live, MAX_MATCHES);
    post("( PLAY refused.0 NIL )", &r);
    assert_string_equal(r.body, "nil");
    /* silent past the forget time: a START finds room */
    usleep((useconds_t)((T.o.forget_seconds + 0.5) * 1e6));
    snprintf(msg, sizeof msg, "( START live.new r (%s) 5 4294967295 )", rules);
    post(msg, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "ready");
    for (int i = 0; i < live; i++) {
        snprintf(msg, sizeof msg, "( ABORT live.%d )", i);
        post(msg, &r);
        assert_string_equal(r.body, "aborted");
    }
    post("( ABORT live.new )", &r);
    post("(INFO)", &r);
    assert_string_equal(r.body, "((name gdlc-test) (status available))");
}


/* Issue 36, class 6: slow clients (each sends its request a byte at a
 * time, every 0.3 s: an idle timeout never fires) more than the
 * connection slots. INFO is still answered at once, each slow connection
 * is closed once its request has been coming in for request_seconds
 * (whatever its pace), and a PLAY thinking longer than that is not cut.
 * (Before: 64 slow clients held every slot and INFO went unanswered.) */
static void test_slow_clients(void **state)
{
    enum { SLOW = 140 };
    int fd[SLOW];
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)T.port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const char *trickle = "POST / HTTP/1.0\r\nContent-Type: text/acl\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    for (int i = 0; i < SLOW; i++) {
        fd[i] = socket(AF_INET, SOCK_STREAM, 0);
        assert_true(fd[i] >= 0);
        assert_int_equal(connect(fd[i], (struct sockaddr *)&a, sizeof a), 0);
    }
    /* a PLAY that thinks 5.4 s, past request_seconds, in parallel */
    const char *rules = "(role thinker) (init (p)) (legal thinker go) (legal thinker wait) "
                        "(<= (next (q)) (does thinker go)) (<= terminal (true (q))) (goal thinker 100)";
    char msg[1024];
    Resp r;
    snprintf(msg, sizeof msg, "( START slow.think thinker (%s) 5 6 )", rules);
    post(msg, &r);
    assert_string_equal(r.body, "ready");
    Later play;
    snprintf(play.body, sizeof play.body, "( PLAY slow.think NIL )");
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, post_later, &play), 0);
    double t0 = gdl_now(), info_took = -1;
    int open_at_end = 0;
    for (int step = 0; gdl_now() - t0 < T.o.request_seconds + 2; step++) {
        for (int i = 0; i < SLOW; i++)
            if (fd[i] >= 0 && send(fd[i], trickle + step % 60, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
                close(fd[i]);
                fd[i] = -1;
            }
        if (step == 3) {
            double t1 = gdl_now();
            post("( INFO )", &r);
            info_took = gdl_now() - t1;
            if (r.status != 200 || !strstr(r.body, "(name gdlc-test)"))
                fail_msg("INFO with %d slow clients: status %d '%s' after %.3f s", SLOW, r.status, r.body, info_took);
        }
        usleep(300 * 1000);
    }
    for (int i = 0; i < SLOW; i++)
        if (fd[i] >= 0) {
            /* closed by the server: the read sees the end (or a reset) at once */
            struct timeval tv = {0, 200 * 1000};
            setsockopt(fd[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            char b[64];
            if (recv(fd[i], b, sizeof b, 0) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                open_at_end++;
            close(fd[i]);
        }
    pthread_join(th, NULL);
    print_message("slow clients: INFO answered in %.3f s; %d of %d still open after %.1f s\n", info_took,
                  open_at_end, SLOW, gdl_now() - t0);
    assert_true(info_took >= 0 && info_took < 1);
    assert_int_equal(open_at_end, 0);
    assert_int_equal(play.r.status, 200);
    assert_true(strcmp(play.r.body, "go") == 0 || strcmp(play.r.body, "wait") == 0);
    assert_true(play.took > T.o.request_seconds + 1);
    post("( ABORT slow.think )", &r);
    assert_string_equal(r.body, "aborted");
}

static void test_cap_and_names(void **state)
{
    const char *rules = "(role r) (init (p)) (legal r go) (<= terminal (true (p))) (goal r 100)";
    char msg[512];
    Resp r;
    /* the first id would escape the log folder if it were used as it is */
    const char *ids[MAX_MATCHES] = {"../escape", "cap.2", "cap.3", "cap.4"};
    for (int i = 0; i < MAX_MATCHES; i++) {
        snprintf(msg, sizeof msg, "(START %s r (%s) 5 1)", ids[i], rules);
        post(msg, &r);
        assert_int_equal(r.status, 200);
        assert_string_equal(r.body, "ready");
    }
    snprintf(msg, sizeof msg, "(START cap.5 r (%s) 5 1)", rules);
    post(msg, &r);
    assert_int_equal(r.status, 503);
    assert_string_equal(r.body, "busy");
    post("(INFO)", &r);
    assert_string_equal(r.body, "((name gdlc-test) (status busy))");
    snprintf(msg, sizeof msg, "%s/%%2E.%%2Fescape.log", T.o.log_dir);
    struct stat st;
    assert_int_equal(stat(msg, &st), 0);
    snprintf(msg, sizeof msg, "%s/escape.log", T.dir);
    assert_int_not_equal(stat(msg, &st), 0);
    for (int i = 1; i < MAX_MATCHES; i++) {
        snprintf(msg, sizeof msg, "(abort %s)", ids[i]);
        post(msg, &r);
        assert_string_equal(r.body, "aborted");
    }
    post("(INFO)", &r);
    assert_string_equal(r.body, "((name gdlc-test) (status available))");
    /* "../escape" is left going on: the stop frees it */
}

static void test_stop(void **state)
{
    T.stop = 1;
    pthread_join(T.thread, NULL);
    assert_int_equal(T.rc, 0);
    fflush(T.err);
    rewind(T.err);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, T.err);
    buf[n] = 0;
    assert_non_null(strstr(buf, "listening on port"));
    assert_non_null(strstr(buf, "stopped (1 match dropped)"));
    /* a line per request */
    fflush(T.log);
    char *log = slurp(T.logpath);
    assert_non_null(log);
    assert_non_null(strstr(log, " POST INFO - -> 200 ((name gdlc-test) (status available))"));
    assert_non_null(strstr(log, " POST PLAY nosuch -> 404 busy"));
    assert_non_null(strstr(log, " POST START bad -> 200 busy"));
    assert_non_null(strstr(log, " GET INFO - -> 200"));
    assert_non_null(strstr(log, "-> 413"));
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_and_headers), cmocka_unit_test(test_match_spelled_as_rules),
        cmocka_unit_test(test_two_matches_at_once), cmocka_unit_test(test_bad_messages),
        cmocka_unit_test(test_rejected_rules), cmocka_unit_test(test_abort_thinking),
        cmocka_unit_test(test_long_move), cmocka_unit_test(test_forgotten_matches),
        cmocka_unit_test(test_slow_clients),
        cmocka_unit_test(test_cap_and_names),
        cmocka_unit_test(test_stop),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
