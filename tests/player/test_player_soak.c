/* test_player_soak.c GDLC SRC SECONDS [sanitize]: the soak of `gdlc player`
 * (issue 36): the real player, as a child process, under many matches at
 * once and hostile clients for SECONDS:
 *   - MANAGERS threads each play matches of tic-tac-toe or Connect Four
 *     with random clocks (sometimes the largest, 4294967295 s), sending
 *     START, PLAYs (the joint moves made up: legal or not), and ending with
 *     STOP or ABORT, some sent while a PLAY is thinking; every reply must
 *     come, START and PLAY within their
 *     clocks, STOP and ABORT within 1.5 s;
 *   - SLOW threads keep connections that send their request a byte at a
 *     time (slow loris);
 *   - an INFO every 0.2 s must be answered within 1 s throughout;
 *   - the player's resident memory at the end within 150 MB of that after
 *     the first matches;
 *   - SIGTERM then ends it within 1 s (5 s under ASan) with exit status 0
 *     (under ASan, LeakSanitizer would make it fail on a leak).
 * Plain C with its own checks (the failures counted and printed), the
 * server on 127.0.0.1 and port 0, every loop bounded in time. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MANAGERS = 6, SLOW = 2, SLOW_CONNS = 24 };

static unsigned port;
static pid_t child;
static double stop_at;
static int failures;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char *games[2];
static const char *roles[2][2] = {{"xplayer", "oplayer"}, {"red", "black"}};
static unsigned long requests, starts, plays, ends;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(const char *f, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    pthread_mutex_lock(&mu);
    if (failures < 20) {
        fprintf(stderr, "FAIL: ");
        vfprintf(stderr, f, ap);
        fputc('\n', stderr);
    }
    failures++;
    pthread_mutex_unlock(&mu);
    va_end(ap);
}

static int dial(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = {20, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* POSTs body; the reply's body in out (cap bytes); the seconds it took, or
 * -1 when no reply came. */
static double post(const char *body, char *out, size_t cap)
{
    double t0 = now();
    out[0] = 0;
    int fd = dial();
    if (fd < 0)
        return -1;
    size_t len = strlen(body);
    char head[160];
    int hn = snprintf(head, sizeof head, "POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: %zu\r\n\r\n",
                      len);
    if (send(fd, head, (size_t)hn, MSG_NOSIGNAL) != hn) {
        close(fd);
        return -1;
    }
    for (size_t off = 0; off < len;) {
        ssize_t w = send(fd, body + off, len - off, MSG_NOSIGNAL);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    char buf[8192];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof buf - 1 && (got = recv(fd, buf + n, sizeof buf - 1 - n, 0)) > 0)
        n += (size_t)got;
    buf[n] = 0;
    close(fd);
    __atomic_add_fetch(&requests, 1, __ATOMIC_RELAXED);
    char *sep = strstr(buf, "\r\n\r\n");
    if (!sep)
        return -1;
    snprintf(out, cap, "%s", sep + 4);
    return now() - t0;
}

static unsigned rnd(unsigned *seed, unsigned n) { return (unsigned)(rand_r(seed) % n); }

typedef struct Ender {
    char msg[128];
    double delay;
} Ender;

/* An ABORT or STOP sent after a delay, while a PLAY may be thinking. */
static void *end_later(void *arg)
{
    Ender *e = arg;
    usleep((useconds_t)(e->delay * 1e6));
    char out[256];
    double t = post(e->msg, out, sizeof out);
    if (t < 0 || t > 1.5 || (strcmp(out, "aborted") != 0 && strcmp(out, "done") != 0))
        fail("%s: '%s' after %.3f s", e->msg, out, t);
    __atomic_add_fetch(&ends, 1, __ATOMIC_RELAXED);
    free(e);
    return NULL;
}

static void *manager(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg * 7919u + 1;
    char *msg = malloc(1 << 16), out[1024];
    for (unsigned k = 0; now() < stop_at; k++) {
        unsigned g = rnd(&seed, 2), seat = rnd(&seed, 2);
        bool huge = rnd(&seed, 6) == 0;
        unsigned sc = 1 + rnd(&seed, 2), pc = 1 + rnd(&seed, 2);
        char id[64];
        snprintf(id, sizeof id, "soak.%u.%u", (unsigned)(uintptr_t)arg, k);
        if (huge)
            snprintf(msg, 1 << 16, "( START %s %s (%s) %u 4294967295 )", id, roles[g][seat], games[g], sc);
        else
            snprintf(msg, 1 << 16, "( START %s %s (%s) %u %u )", id, roles[g][seat], games[g], sc, pc);
        double t = post(msg, out, sizeof out);
        __atomic_add_fetch(&starts, 1, __ATOMIC_RELAXED);
        if (t < 0 || t > sc || (strcmp(out, "ready") != 0 && strcmp(out, "busy") != 0)) {
            fail("START %s (%u s): '%s' after %.3f s", id, sc, out, t);
            continue;
        }
        if (strcmp(out, "busy") == 0) { /* the table is full: try later */
            usleep(200 * 1000);
            continue;
        }
        /* ending 0 or over 9: ABORT or STOP during a PLAY, 2 or over 8:
         * ABORT, else STOP. (No match is forgotten here: one holds its
         * slot and its memory for a minute, which is test_forgotten_matches'
         * business, and the memory bound is for matches that end.) */
        unsigned turns = rnd(&seed, 4), ending = rnd(&seed, 12);
        pthread_t th;
        bool ender = false;
        if (ending == 0 || ending > 9 || huge) { /* ABORT or STOP while a PLAY thinks */
            Ender *e = malloc(sizeof *e);
            snprintf(e->msg, sizeof e->msg, rnd(&seed, 2) ? "( ABORT %s )" : "( STOP %s NIL )", id);
            e->delay = 0.2 + 0.1 * rnd(&seed, 5);
            ender = pthread_create(&th, NULL, end_later, e) == 0;
            if (!ender)
                free(e);
        }
        for (unsigned turn = 0; turn < (ender ? 1 : turns); turn++) {
            if (turn == 0)
                snprintf(msg, 1 << 16, "( PLAY %s NIL )", id);
            else if (g == 0)
                snprintf(msg, 1 << 16, "( PLAY %s ((play %u %u) noop) )", id, 1 + rnd(&seed, 3), 1 + rnd(&seed, 3));
            else
                snprintf(msg, 1 << 16, "( PLAY %s ((drop %u) noop) )", id, 1 + rnd(&seed, 7));
            double limit = huge ? 2 : pc;
            t = post(msg, out, sizeof out);
            __atomic_add_fetch(&plays, 1, __ATOMIC_RELAXED);
            if (t < 0 || t > limit || !out[0])
                fail("PLAY %s turn %u (%u s): '%s' after %.3f s", id, turn, pc, out, t);
        }
        if (ender) {
            pthread_join(th, NULL);
        } else {
            snprintf(msg, 1 << 16, ending == 2 || ending > 8 ? "( ABORT %s )" : "( STOP %s NIL )", id);
            t = post(msg, out, sizeof out);
            __atomic_add_fetch(&ends, 1, __ATOMIC_RELAXED);
            if (t < 0 || t > 1.5 || (strcmp(out, "aborted") != 0 && strcmp(out, "done") != 0))
                fail("%s: '%s' after %.3f s", msg, out, t);
        }
    }
    free(msg);
    return NULL;
}

/* Connections that send their request a byte every 0.3 s. */
static void *slow(void *arg)
{
    (void)arg;
    const char *trickle = "POST / HTTP/1.0\r\nContent-Type: text/acl\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    int fd[SLOW_CONNS];
    unsigned at[SLOW_CONNS];
    for (int i = 0; i < SLOW_CONNS; i++)
        fd[i] = -1, at[i] = 0;
    while (now() < stop_at) {
        for (int i = 0; i < SLOW_CONNS; i++) {
            if (fd[i] < 0) {
                fd[i] = dial();
                at[i] = 0;
                continue;
            }
            if (send(fd[i], trickle + at[i] % 60, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
                close(fd[i]); /* cut by the player: a new one */
                fd[i] = -1;
            }
            at[i]++;
        }
        usleep(300 * 1000);
    }
    for (int i = 0; i < SLOW_CONNS; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    return NULL;
}

static double rss_mb(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = atof(line + 6);
    if (f)
        fclose(f);
    return kb / 1024;
}

/* A game's rules on one line, comments dropped. */
static char *rules_of(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *out = calloc(1, 1 << 16), line[1024];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        char *c = strchr(line, ';');
        if (c)
            *c = 0;
        for (char *p = line; *p && n + 2 < (1 << 16); p++)
            out[n++] = *p == '\n' ? ' ' : *p;
    }
    fclose(f);
    return out;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: player_soak GDLC SRC SECONDS [sanitize]\n");
        return 2;
    }
    double seconds = atof(argv[3]), term_limit = argc > 4 && strcmp(argv[4], "sanitize") == 0 ? 5 : 1;
    char path[512];
    snprintf(path, sizeof path, "%s/games/tictactoe.kif", argv[2]);
    games[0] = rules_of(path);
    snprintf(path, sizeof path, "%s/games/connect4.kif", argv[2]);
    games[1] = rules_of(path);
    if (!games[0] || !games[1]) {
        fprintf(stderr, "player_soak: cannot read the games under %s\n", argv[2]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return 2;
    child = fork();
    if (child == 0) {
        if (term_limit > 1) { /* ASan: a smaller quarantine, or it counts as growth */
            const char *had = getenv("ASAN_OPTIONS");
            char opts[1024];
            snprintf(opts, sizeof opts, "%s%squarantine_size_mb=16", had ? had : "", had && *had ? ":" : "");
            setenv("ASAN_OPTIONS", opts, 1);
        }
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        close(pipefd[1]);
        execl(argv[1], argv[1], "player", "--port", "0", "--threads", "2", "--max-matches", "16", (char *)NULL);
        _exit(127);
    }
    close(pipefd[1]);
    /* its stderr: the port, then drained by a thread into a file */
    FILE *err = fdopen(pipefd[0], "r");
    char line[4096];
    while (!port && fgets(line, sizeof line, err))
        sscanf(line, "gdlc player: listening on port %u", &port);
    if (!port) {
        fprintf(stderr, "player_soak: the player did not say its port\n");
        kill(child, SIGKILL);
        return 1;
    }
    FILE *log = tmpfile();
    pid_t drain = fork();
    if (drain == 0) { /* copies the player's log lines, so its pipe never fills */
        while (fgets(line, sizeof line, err))
            if (log)
                fputs(line, log);
        if (log)
            fflush(log);
        _exit(0);
    }
    fclose(err);

    double t0 = now();
    stop_at = t0 + seconds;
    pthread_t m[MANAGERS], s[SLOW];
    for (uintptr_t i = 0; i < MANAGERS; i++)
        pthread_create(&m[i], NULL, manager, (void *)i);
    for (int i = 0; i < SLOW; i++)
        pthread_create(&s[i], NULL, slow, NULL);
    double first = 0, peak = 0;
    unsigned infos = 0;
    char out[256];
    while (now() < stop_at) {
        double t = post("( INFO )", out, sizeof out);
        infos++;
        if (t < 0 || t > 1 || !strstr(out, "(name gdlc)"))
            fail("INFO: '%s' after %.3f s", out, t);
        double r = rss_mb(child);
        if (!first && now() - t0 > (seconds < 20 ? seconds / 4 : 5))
            first = r;
        if (r > peak)
            peak = r;
        usleep(200 * 1000);
    }
    for (int i = 0; i < MANAGERS; i++)
        pthread_join(m[i], NULL);
    for (int i = 0; i < SLOW; i++)
        pthread_join(s[i], NULL);
    usleep(500 * 1000); /* every match is over: the serving loop frees the last */
    double last = rss_mb(child);
    printf("soak: %.0f s, %lu requests (%lu START, %lu PLAY, %lu STOP/ABORT, %u INFO); RSS %.0f MB after warm-up, "
           "%.0f MB peak, %.0f MB at the end\n",
           now() - t0, requests, starts, plays, ends, infos, first, peak, last);
    if (last > first + 150)
        fail("the player's RSS grew from %.0f MB to %.0f MB", first, last);
    double ts = now();
    kill(child, SIGTERM);
    int status = 0;
    pid_t w = 0;
    while ((w = waitpid(child, &status, WNOHANG)) == 0 && now() - ts < 30)
        usleep(10 * 1000);
    double took = now() - ts;
    if (w != child) {
        fail("the player did not end within 30 s of SIGTERM");
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
    } else if (took > term_limit) {
        fail("the player took %.3f s to end after SIGTERM (at most %.0f s)", took, term_limit);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail("the player's exit: %s %d", WIFEXITED(status) ? "status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    waitpid(drain, NULL, 0);
    if (log && failures) { /* the player's last lines */
        fseek(log, 0, SEEK_END);
        long size = ftell(log);
        fseek(log, size > 3000 ? size - 3000 : 0, SEEK_SET);
        size_t n = fread(line, 1, sizeof line - 1, log);
        line[n] = 0;
        fprintf(stderr, "the player's last log lines:\n%s\n", line);
    }
    printf("soak: SIGTERM ended the player in %.3f s; %d failure%s\n", took, failures, failures == 1 ? "" : "s");
    free(games[0]);
    free(games[1]);
    return failures ? 1 : 0;
}
