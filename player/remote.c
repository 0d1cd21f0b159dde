/*
 * remote.c: a GGP player behind HTTP, as the match runner sees it
 * (match_player_http), with libcurl.
 *
 * It speaks as GGP-Base's GameServer does (RequestBuilder, HttpWriter's
 * writeAsClient, RequestThread): one POST per message on a connection of
 * its own, HTTP/1.0, with the headers Accept: text/delim, Sender:
 * GAMESERVER, Receiver: HOST and Content-Type: text/acl; bodies written
 * "( START id role (rules) startclock playclock)", "( PLAY id NIL )" on
 * the first turn, then "( PLAY id (move move ) )" (the last joint move in
 * role order), "( STOP id (...) )" and "( ABORT id )". The rules go out
 * without their comments, on one line. Every symbol sent (the role, the
 * moves) is spelled as the rules spell it, so that a player comparing with
 * its rules case-sensitively, as GGP-Base's do, recognises it.
 *
 * Time: START may take the start clock (GGP-Base's StartRequestThread),
 * PLAY until the runner's deadline, STOP and ABORT a play clock and a
 * second. Of a reply only the first s-expression counts (GGP-Base reads
 * no further); START wants `ready` in any case. Every failure (no
 * connection, a timeout, an HTTP status other than 200, an empty or
 * malformed reply) is NULL or false with *err, and the runner plays a
 * random legal move in its place.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "../base/base.h"
#include "player.h"
#include "internal.h"

enum { MAX_REPLY = 1 << 20 /* bytes of a reply kept; more is an error */ };

typedef struct HttpPlayer {
    MatchPlayer base;      /* first: the runner holds a MatchPlayer * */
    char *url;             /* http://HOST:PORT/... */
    char *host;            /* for the Receiver header */
    GgpSpelling *spelling; /* of the rules of the last START */
    unsigned playclock;    /* of the last START */
} HttpPlayer;

/* A growing text. */
typedef struct Buf {
    char *s;
    size_t len, cap;
    bool over; /* passed MAX_REPLY */
} Buf;

static void buf_add(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->s = base_xrealloc(b->s, cap);
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void buf_str(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static size_t on_data(char *data, size_t size, size_t n, void *arg)
{
    Buf *b = arg;
    if (b->len + n > MAX_REPLY) {
        b->over = true;
        return 0; /* libcurl stops with CURLE_WRITE_ERROR */
    }
    buf_add(b, data, n);
    return n;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_code;
static void curl_init(void) { curl_init_code = curl_global_init(CURL_GLOBAL_DEFAULT); }

/*
 * POSTs body and returns the reply's body (malloc'd), or NULL with *err.
 * timeout_ms > 0 bounds the whole exchange.
 */
static char *post(HttpPlayer *p, const char *what, const char *body, long timeout_ms, char **err)
{
    CURL *c = curl_easy_init();
    if (!c) {
        *err = player_fmt("%s: %s: cannot make a libcurl handle", p->url, what);
        return NULL;
    }
    char *receiver = player_fmt("Receiver: %s", p->host);
    struct curl_slist *h = NULL;
    h = curl_slist_append(h, "Accept: text/delim");
    h = curl_slist_append(h, "Sender: GAMESERVER");
    h = curl_slist_append(h, receiver);
    h = curl_slist_append(h, "Content-Type: text/acl");
    h = curl_slist_append(h, "Expect:"); /* no 100-continue round trip */
    Buf reply = {0};
    curl_easy_setopt(c, CURLOPT_URL, p->url);
    curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_0);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*"); /* players are reached directly, as GGP-Base does */
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms < 5000 ? timeout_ms : 5000L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &reply);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "gdlc match");
    double t0 = gdl_now();
    CURLcode rc = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(c);
    curl_slist_free_all(h);
    free(receiver);
    if (rc != CURLE_OK) {
        *err = reply.over ? player_fmt("%s: %s: the reply is longer than %d bytes", p->url, what, MAX_REPLY)
               : rc == CURLE_OPERATION_TIMEDOUT
                   ? player_fmt("%s: %s: no reply within %.3f s", p->url, what, (double)timeout_ms / 1000)
                   : player_fmt("%s: %s: %s (after %.3f s)", p->url, what, curl_easy_strerror(rc), gdl_now() - t0);
        free(reply.s);
        return NULL;
    }
    if (status != 200) {
        char shown[100];
        size_t n = 0;
        for (size_t i = 0; reply.s && reply.s[i] && n < 80; i++)
            shown[n++] = isprint((unsigned char)reply.s[i]) ? reply.s[i] : ' ';
        shown[n] = 0;
        *err = player_fmt("%s: %s: HTTP status %ld: %s", p->url, what, status, shown);
        free(reply.s);
        return NULL;
    }
    if (!reply.s)
        buf_add(&reply, "", 0);
    return reply.s;
}

/* The first s-expression of a reply (malloc'd), or NULL with *err. */
static char *first_term(HttpPlayer *p, const char *what, const char *reply, char **err)
{
    size_t off, end;
    if (!ggp_first_sexp(reply, strlen(reply), &off, &end)) {
        char shown[100];
        size_t n = 0;
        for (size_t i = 0; reply[i] && n < 80; i++)
            shown[n++] = isprint((unsigned char)reply[i]) ? reply[i] : ' ';
        shown[n] = 0;
        *err = player_fmt("%s: %s: %s reply%s%s", p->url, what, *reply ? "a malformed" : "an empty", *reply ? ": " : "",
                   shown);
        return NULL;
    }
    return base_xstrndup(reply + off, end - off);
}

/* The text in the rules' spelling (a copy when there is none). */
static char *spell(const HttpPlayer *p, const char *text)
{
    char *s = ggp_spelling_apply(p->spelling, text);
    return s ? s : base_xstrdup(text);
}

/* An id goes out as one symbol: KIF's word characters only. */
static bool id_ok(const char *id, const char *what, HttpPlayer *p, char **err)
{
    bool ok = *id != 0 && *id != '?';
    for (const char *c = id; ok && *c; c++)
        ok = isalnum((unsigned char)*c) || strchr("!$%&*+-./<=>@_~?", *c);
    if (!ok)
        *err = player_fmt("%s: %s: the match id must be one symbol", p->url, what);
    return ok;
}

/* The rules without comments, white space made single spaces. */
static void add_rules(Buf *b, const char *rules)
{
    bool space = false;
    for (const char *c = rules; *c; c++) {
        if (*c == ';') {
            while (*c && *c != '\n' && *c != '\r')
                c++;
            space = true;
            if (!*c)
                break;
        } else if (isspace((unsigned char)*c)) {
            space = true;
        } else {
            if (space && b->len > 0 && b->s[b->len - 1] != '(' && *c != ')')
                buf_add(b, " ", 1);
            space = false;
            buf_add(b, c, 1);
        }
    }
}

static void add_moves(Buf *b, const HttpPlayer *p, const char *const *last, size_t n)
{
    if (!last || n == 0) {
        buf_str(b, "NIL");
        return;
    }
    buf_str(b, "(");
    for (size_t i = 0; i < n; i++) {
        char *s = spell(p, last[i]);
        buf_str(b, s);
        buf_str(b, " ");
        free(s);
    }
    buf_str(b, ")");
}

static bool http_start(MatchPlayer *mp, const char *id, uint64_t seed, const char *rules, const char *role,
                       unsigned startclock, unsigned playclock, char **err)
{
    HttpPlayer *p = (HttpPlayer *)mp;
    (void)seed; /* a remote player seeds itself */
    *err = NULL;
    if (!id_ok(id, "START", p, err))
        return false;
    ggp_spelling_free(p->spelling);
    p->spelling = ggp_spelling_new(rules, strlen(rules));
    p->playclock = playclock;
    Buf b = {0};
    char *r = spell(p, role);
    buf_str(&b, "( START ");
    buf_str(&b, id);
    buf_str(&b, " ");
    buf_str(&b, r);
    buf_str(&b, " (");
    add_rules(&b, rules);
    char tail[64];
    snprintf(tail, sizeof tail, " ) %u %u)", startclock, playclock);
    buf_str(&b, tail);
    free(r);
    long ms = startclock ? (long)startclock * 1000 : 1;
    char *reply = post(p, "START", b.s, ms, err);
    free(b.s);
    if (!reply)
        return false;
    char *t = first_term(p, "START", reply, err);
    bool ok = t && strcasecmp(t, "ready") == 0;
    if (t && !ok) {
        char shown[64];
        snprintf(shown, sizeof shown, "%.60s", t);
        *err = player_fmt("%s: START: the player answered '%s', not ready", p->url, shown);
    }
    free(t);
    free(reply);
    return ok;
}

static char *http_play(MatchPlayer *mp, const char *id, const char *const *last, size_t n, double deadline,
                       char **err)
{
    HttpPlayer *p = (HttpPlayer *)mp;
    *err = NULL;
    if (!id_ok(id, "PLAY", p, err))
        return NULL;
    double left = deadline - gdl_now();
    if (left < 0.001) {
        *err = player_fmt("%s: PLAY: no time left before the deadline", p->url);
        return NULL;
    }
    Buf b = {0};
    buf_str(&b, "( PLAY ");
    buf_str(&b, id);
    buf_str(&b, " ");
    add_moves(&b, p, last, n);
    buf_str(&b, " )");
    char *reply = post(p, "PLAY", b.s, (long)(left * 1000), err);
    free(b.s);
    if (!reply)
        return NULL;
    char *move = first_term(p, "PLAY", reply, err);
    free(reply);
    return move;
}

static void http_end(HttpPlayer *p, const char *what, const char *id, const char *const *last, size_t n)
{
    char *err = NULL;
    if (!id_ok(id, what, p, &err)) {
        free(err);
        return;
    }
    Buf b = {0};
    buf_str(&b, "( ");
    buf_str(&b, what);
    buf_str(&b, " ");
    buf_str(&b, id);
    if (strcmp(what, "STOP") == 0) {
        buf_str(&b, " ");
        add_moves(&b, p, last, n);
    }
    buf_str(&b, " )");
    char *reply = post(p, what, b.s, (long)(p->playclock ? p->playclock : 1) * 1000 + 1000, &err);
    free(reply); /* done, aborted: nothing depends on it */
    free(err);
    free(b.s);
}

static void http_stop(MatchPlayer *mp, const char *id, const char *const *last, size_t n)
{
    http_end((HttpPlayer *)mp, "STOP", id, last, n);
}

static void http_abort(MatchPlayer *mp, const char *id) { http_end((HttpPlayer *)mp, "ABORT", id, NULL, 0); }

static void http_free(MatchPlayer *mp)
{
    HttpPlayer *p = (HttpPlayer *)mp;
    if (!p)
        return;
    ggp_spelling_free(p->spelling);
    free(p->url);
    free(p->host);
    free(p->base.name);
    free(p);
}

static const MatchPlayerOps http_ops = {http_start, http_play, http_stop, http_abort, http_free};

MatchPlayer *match_player_http(const char *url, char **err)
{
    *err = NULL;
    pthread_once(&curl_once, curl_init);
    if (curl_init_code != CURLE_OK) {
        *err = player_fmt("libcurl cannot start: %s", curl_easy_strerror(curl_init_code));
        return NULL;
    }
    CURLU *u = curl_url();
    char *host = NULL, *scheme = NULL;
    CURLUcode uc = u ? curl_url_set(u, CURLUPART_URL, url, 0) : CURLUE_OUT_OF_MEMORY;
    if (uc == CURLUE_OK)
        uc = curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
    if (uc == CURLUE_OK)
        uc = curl_url_get(u, CURLUPART_HOST, &host, 0);
    bool http = scheme && strcasecmp(scheme, "http") == 0;
    if (uc != CURLUE_OK || !http) {
        *err = uc != CURLUE_OK ? player_fmt("%s: not a URL: %s", url, curl_url_strerror(uc))
                               : player_fmt("%s: a GGP player is reached by http://HOST:PORT", url);
        curl_free(host);
        curl_free(scheme);
        curl_url_cleanup(u);
        return NULL;
    }
    HttpPlayer *p = base_xcalloc(1, sizeof *p);
    p->base.ops = &http_ops;
    p->base.name = base_xstrdup(url);
    p->url = base_xstrdup(url);
    p->host = base_xstrdup(host);
    for (char *c = p->host; *c; c++) /* one header line */
        if (!isprint((unsigned char)*c))
            *c = '?';
    curl_free(host);
    curl_free(scheme);
    curl_url_cleanup(u);
    return &p->base;
}
