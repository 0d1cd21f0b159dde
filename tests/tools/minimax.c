/*
 * minimax.c: an exhaustive minimax oracle over the public API (gdl.h), a
 * test tool of issue 15, independent of the solver (solve/) and of the
 * checker (solve/check.c).
 *
 *   minimax GAME [-e ENGINE] [-o PROOF] [-s SYMS] [-m MAX_STATES]
 *
 * For a puzzle (one role) or a two-player game where the roles take turns
 * (in every state at most one role has more than one legal move) whose
 * goals sum to the same constant in every terminal state, it computes the
 * first role's exact value from the initial state by memoised search
 * (every reachable state once: a hash table of states) and prints
 * "ROLE VALUE (N states)". With -o it writes a proof of that value in the
 * format of docs/proofs.md:
 *   lower section (value > 0): the first role's best move at its nodes,
 *     every reply of the other role;
 *   upper section (value < 100): the second role's best reply at its nodes,
 *     every move of the first role; in a puzzle every line of play.
 * Nodes are distinct states (transpositions merged), numbered in the order
 * a breadth-first walk of the strategy meets them, from 0 at the root.
 * With -s SYMS (a file of a 'symmetries N' line and its 'map' lines, as in
 * a proof's header) those lines are copied into the proof and used as they
 * are: an edge whose next state's image under symmetry k is already a node
 * points to it with k. The symmetries are not checked here (a bogus one
 * makes a proof the checker must reject).
 *
 * Exit status: 0, 1 when the game is out of scope or the engine fails,
 * 2 on a usage error or an unreadable file.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/gdl.h"

typedef struct Entry {
    GdlState *s;
    uint64_t h;
    int value;  /* -1 while being searched */
    long long id; /* the node id in the section being written, -1 none */
} Entry;

typedef struct Table {
    Entry *e;
    size_t n, cap;     /* entries, in order of insertion */
    size_t *slot;      /* open addressing: entry index + 1 */
    size_t nslot;
} Table;

static GdlMachine *M;
static const GdlGame *G;
static unsigned NR;
static Table T;
static bool have_sum;
static int the_sum;
static size_t max_states = 50000000;

static void *xalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "minimax: out of memory\n");
        exit(1);
    }
    return p;
}

static void die_engine(const char *what, GdlStatus st)
{
    fprintf(stderr, "minimax: %s: %s: %s\n", what, gdl_status_name(st), gdl_machine_error(M));
    exit(1);
}

static size_t find(const GdlState *s, uint64_t h)
{
    if (!T.nslot)
        return SIZE_MAX;
    for (size_t i = h & (T.nslot - 1);; i = (i + 1) & (T.nslot - 1)) {
        size_t x = T.slot[i];
        if (!x)
            return SIZE_MAX;
        if (T.e[x - 1].h == h && gdl_state_equal(T.e[x - 1].s, s))
            return x - 1;
    }
}

static size_t insert(const GdlState *s, uint64_t h)
{
    if (T.n >= max_states) {
        fprintf(stderr, "minimax: more than %zu states\n", max_states);
        exit(1);
    }
    if ((T.n + 1) * 2 > T.nslot) {
        size_t ns = T.nslot ? T.nslot * 2 : 1024;
        size_t *sl = xalloc(ns * sizeof *sl);
        memset(sl, 0, ns * sizeof *sl);
        for (size_t i = 0; i < T.nslot; i++)
            if (T.slot[i]) {
                size_t j = T.e[T.slot[i] - 1].h & (ns - 1);
                while (sl[j])
                    j = (j + 1) & (ns - 1);
                sl[j] = T.slot[i];
            }
        free(T.slot);
        T.slot = sl;
        T.nslot = ns;
    }
    if (T.n == T.cap) {
        T.cap = T.cap ? T.cap * 2 : 1024;
        Entry *ne = realloc(T.e, T.cap * sizeof *T.e);
        if (!ne) {
            fprintf(stderr, "minimax: out of memory\n");
            exit(1);
        }
        T.e = ne;
    }
    GdlState *c = gdl_state_copy(s);
    if (!c) {
        fprintf(stderr, "minimax: out of memory\n");
        exit(1);
    }
    T.e[T.n] = (Entry){c, h, -1, -1};
    size_t j = h & (T.nslot - 1);
    while (T.slot[j])
        j = (j + 1) & (T.nslot - 1);
    T.slot[j] = T.n + 1;
    return T.n++;
}

static void print_state(FILE *f, const GdlState *s)
{
    for (size_t i = 0; i < gdl_state_size(s); i++)
        fprintf(f, " %s", gdl_state_fact(M, s, i));
}

/* The role with a choice in s (-1: none has), after checking the roles
 * take turns. */
static int chooser(const GdlState *s)
{
    int who = -1;
    for (unsigned r = 0; r < NR; r++) {
        const GdlMove *mv;
        size_t n;
        GdlStatus st = gdl_state_legal(M, s, r, &mv, &n);
        if (st != GDL_OK)
            die_engine("legal moves", st);
        if (n > 1) {
            if (who >= 0) {
                fprintf(stderr, "minimax: both roles have a choice in a state:");
                print_state(stderr, s);
                fprintf(stderr, "\n");
                exit(1);
            }
            who = (int)r;
        }
    }
    return who;
}

/* The first role's value of s under best play (memoised; depth is the
 * game's length). */
static int solve(const GdlState *s, unsigned depth)
{
    uint64_t h = gdl_state_hash(s);
    size_t x = find(s, h);
    if (x != SIZE_MAX) {
        if (T.e[x].value < 0) {
            fprintf(stderr, "minimax: a line of play returns to a state (the game may not end)\n");
            exit(1);
        }
        return T.e[x].value;
    }
    if (depth > 100000) {
        fprintf(stderr, "minimax: lines longer than 100000 moves\n");
        exit(1);
    }
    x = insert(s, h);
    bool term;
    GdlStatus st = gdl_state_is_terminal(M, s, &term);
    if (st != GDL_OK)
        die_engine("terminal", st);
    int v;
    if (term) {
        int g[2];
        if ((st = gdl_state_goals(M, s, g)) != GDL_OK)
            die_engine("goals", st);
        if (NR == 2) {
            int sum = g[0] + g[1];
            if (!have_sum)
                have_sum = true, the_sum = sum;
            else if (sum != the_sum) {
                fprintf(stderr, "minimax: the goals sum to %d and to %d\n", the_sum, sum);
                exit(1);
            }
        }
        v = g[0];
    } else {
        int who = chooser(s);
        GdlSuccessors succ;
        if ((st = gdl_state_successors(M, s, UINT64_MAX, &succ)) != GDL_OK)
            die_engine("next states", st);
        v = who == 1 ? 101 : -1;
        for (size_t i = 0; i < succ.n; i++) {
            int cv = solve(succ.states[i], depth + 1);
            if (who == 1 ? cv < v : cv > v)
                v = cv;
        }
        gdl_successors_free(&succ);
    }
    T.e[x].value = v;
    return v;
}

/* ---- symmetries given by -s (applied by text, as a proof's reader does) */

typedef struct Pair {
    char *from, *to; /* canonical fact text */
} Pair;
static Pair **sym_pairs; /* [k][i], k in 1..nsym */
static size_t *sym_n;
static unsigned nsym;
static char *sym_text; /* the file's text, copied into the proof */

/* Canonical text of one fact (malloc-ed), NULL when it is not one. */
static char *canon_fact(const char *text)
{
    GdlState *s = NULL;
    if (gdl_state_parse(M, text, &s) != GDL_OK || gdl_state_size(s) != 1) {
        gdl_state_free(s);
        return NULL;
    }
    char *c = strdup(gdl_state_fact(M, s, 0));
    gdl_state_free(s);
    return c;
}

/* The next token of p: an atom or a parenthesised term (malloc-ed). */
static char *token(const char **p)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s || *s == '\n' || *s == ';')
        return NULL;
    const char *b = s;
    if (*s == '(') {
        int d = 0;
        for (; *s && *s != '\n'; s++) {
            if (*s == '(')
                d++;
            else if (*s == ')' && --d == 0) {
                s++;
                break;
            }
        }
    } else
        while (*s && *s != ' ' && *s != '\t' && *s != '\n')
            s++;
    *p = s;
    char *t = xalloc((size_t)(s - b) + 1);
    memcpy(t, b, (size_t)(s - b));
    t[s - b] = 0;
    return t;
}

static void read_syms(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "minimax: cannot read %s\n", path);
        exit(2);
    }
    size_t cap = 1 << 16, len = 0;
    sym_text = xalloc(cap);
    size_t got;
    while ((got = fread(sym_text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            cap *= 2;
            sym_text = realloc(sym_text, cap);
            if (!sym_text)
                exit(1);
        }
    }
    fclose(f);
    sym_text[len] = 0;
    for (const char *line = sym_text; *line;) {
        const char *p = line;
        char *w = token(&p);
        if (w && strcmp(w, "symmetries") == 0) {
            char *n = token(&p);
            nsym = n ? (unsigned)atoi(n) : 0;
            free(n);
            sym_pairs = calloc(nsym + 1, sizeof *sym_pairs);
            sym_n = calloc(nsym + 1, sizeof *sym_n);
        } else if (w && strcmp(w, "map") == 0) {
            char *k = token(&p), *kind = token(&p);
            unsigned kk = k ? (unsigned)atoi(k) : 0;
            if (kind && strcmp(kind, "fact") == 0 && kk >= 1 && kk <= nsym) {
                char *a = token(&p), *b = token(&p);
                char *ca = a ? canon_fact(a) : NULL, *cb = b ? canon_fact(b) : NULL;
                if (!ca || !cb) {
                    fprintf(stderr, "minimax: %s: a bad map line\n", path);
                    exit(2);
                }
                sym_pairs[kk] = realloc(sym_pairs[kk], (sym_n[kk] + 1) * sizeof **sym_pairs);
                sym_pairs[kk][sym_n[kk]++] = (Pair){ca, cb};
                free(a);
                free(b);
            }
            free(k);
            free(kind);
        }
        free(w);
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
}

static GdlState *sym_state(unsigned k, const GdlState *s)
{
    size_t cap = 256, len = 0;
    char *b = xalloc(cap);
    b[0] = 0;
    for (size_t i = 0; i < gdl_state_size(s); i++) {
        const char *f = gdl_state_fact(M, s, i);
        for (size_t j = 0; j < sym_n[k]; j++)
            if (strcmp(sym_pairs[k][j].from, f) == 0) {
                f = sym_pairs[k][j].to;
                break;
            }
        size_t fl = strlen(f);
        if (len + fl + 2 > cap) {
            cap = (len + fl + 2) * 2;
            b = realloc(b, cap);
            if (!b)
                exit(1);
        }
        if (len)
            b[len++] = ' ';
        memcpy(b + len, f, fl + 1);
        len += fl;
    }
    GdlState *out = NULL;
    GdlStatus st = gdl_state_parse(M, b, &out);
    free(b);
    if (st != GDL_OK)
        die_engine("the image of a state", st);
    return out;
}

/* ---- the proof -------------------------------------------------------- */

/* One section: prover 0 (lower), 1 (upper, two players) or -1 (puzzle's
 * upper: every line). */
static void write_section(FILE *f, bool lower, int bound, size_t root)
{
    int prover = lower ? 0 : NR == 2 ? 1 : -1;
    for (size_t i = 0; i < T.n; i++)
        T.e[i].id = -1;
    size_t *queue = xalloc(T.n * sizeof *queue);
    size_t qh = 0, qt = 0;
    long long next_id = 0;
    T.e[root].id = next_id++;
    queue[qt++] = root;
    fprintf(f, "section %s %d root 0\n", lower ? "lower" : "upper", bound);
    while (qh < qt) {
        size_t x = queue[qh++];
        const GdlState *s = T.e[x].s;
        long long id = T.e[x].id;
        fprintf(f, "node %lld", id);
        print_state(f, s);
        fputc('\n', f);
        bool term;
        GdlStatus st = gdl_state_is_terminal(M, s, &term);
        if (st != GDL_OK)
            die_engine("terminal", st);
        if (term)
            continue;
        GdlSuccessors succ;
        if ((st = gdl_state_successors(M, s, UINT64_MAX, &succ)) != GDL_OK)
            die_engine("next states", st);
        int *cv = xalloc(succ.n * sizeof *cv);
        size_t *cx = xalloc(succ.n * sizeof *cx);
        for (size_t i = 0; i < succ.n; i++) {
            cx[i] = find(succ.states[i], gdl_state_hash(succ.states[i]));
            if (cx[i] == SIZE_MAX) {
                fprintf(stderr, "minimax: a state the search did not see\n");
                exit(1);
            }
            cv[i] = T.e[cx[i]].value;
        }
        /* the prover's move: the best worst case (lower: max over its moves
         * of the min over the replies; upper: min of max) */
        GdlMove play = 0;
        if (prover >= 0) {
            int best = lower ? -1 : 101;
            for (size_t i = 0; i < succ.n; i++) {
                GdlMove mv = succ.joints[i * NR + (unsigned)prover];
                int worst = lower ? 101 : -1;
                for (size_t j = 0; j < succ.n; j++)
                    if (succ.joints[j * NR + (unsigned)prover] == mv && (lower ? cv[j] < worst : cv[j] > worst))
                        worst = cv[j];
                if (lower ? worst > best : worst < best)
                    best = worst, play = mv;
            }
            fprintf(f, "play %lld %s\n", id, gdl_move_text(M, play));
        }
        for (size_t i = 0; i < succ.n; i++) {
            if (prover >= 0 && succ.joints[i * NR + (unsigned)prover] != play)
                continue;
            size_t c = cx[i];
            unsigned k = 0;
            if (T.e[c].id < 0)
                for (unsigned j = 1; j <= nsym; j++) {
                    GdlState *img = sym_state(j, succ.states[i]);
                    size_t y = find(img, gdl_state_hash(img));
                    gdl_state_free(img);
                    if (y != SIZE_MAX && T.e[y].id >= 0) {
                        c = y, k = j;
                        break;
                    }
                }
            if (T.e[c].id < 0) {
                T.e[c].id = next_id++;
                queue[qt++] = c;
            }
            fprintf(f, "edge %lld %lld %u", id, T.e[c].id, k);
            for (unsigned r = 0; r < NR; r++)
                fprintf(f, " %s", gdl_move_text(M, succ.joints[i * NR + r]));
            fputc('\n', f);
        }
        free(cv);
        free(cx);
        gdl_successors_free(&succ);
    }
    free(queue);
}

static void write_proof(const char *path, int value, size_t root)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "minimax: cannot write %s\n", path);
        exit(2);
    }
    fprintf(f, "gdlc-proof 1\n; written by tests/tools/minimax (exhaustive minimax)\nroles");
    for (unsigned r = 0; r < NR; r++)
        fprintf(f, " %s", gdl_game_role_name(G, r));
    fprintf(f, "\nstart initial\nvalue %d %d\n", value, value);
    if (sym_text)
        fputs(sym_text, f);
    else
        fprintf(f, "symmetries 0\n");
    if (value > 0)
        write_section(f, true, value, root);
    if (value < 100)
        write_section(f, false, value, root);
    fprintf(f, "end\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "minimax: cannot write %s\n", path);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    const char *game = NULL, *engine = "ref", *out = NULL, *syms = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-e") == 0 && i + 1 < argc)
            engine = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            syms = argv[++i];
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            max_states = (size_t)strtoull(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && !game)
            game = argv[i];
        else {
            fprintf(stderr, "usage: minimax GAME [-e ENGINE] [-o PROOF] [-s SYMS] [-m MAX_STATES]\n");
            return 2;
        }
    }
    if (!game) {
        fprintf(stderr, "usage: minimax GAME [-e ENGINE] [-o PROOF] [-s SYMS] [-m MAX_STATES]\n");
        return 2;
    }
    GdlGame *g = NULL;
    GdlDiagnostics *d = NULL;
    GdlStatus st = gdl_game_load_file(game, &g, &d);
    if (st != GDL_OK) {
        gdl_diagnostics_print(stderr, d, false);
        fprintf(stderr, "minimax: cannot load %s: %s\n", game, gdl_status_name(st));
        gdl_diagnostics_free(d);
        return st == GDL_IO_ERROR ? 2 : 1;
    }
    gdl_diagnostics_free(d);
    G = g;
    NR = gdl_game_role_count(g);
    if (NR < 1 || NR > 2) {
        fprintf(stderr, "minimax: %s has %u roles (1 or 2 only)\n", game, NR);
        return 1;
    }
    if ((st = gdl_machine_new(g, engine, &M)) != GDL_OK) {
        fprintf(stderr, "minimax: %s\n", gdl_game_error(g));
        return 1;
    }
    if (syms)
        read_syms(syms);
    GdlState *init = NULL;
    if ((st = gdl_state_initial(M, &init)) != GDL_OK)
        die_engine("initial state", st);
    int v = solve(init, 0);
    size_t root = find(init, gdl_state_hash(init));
    printf("%s %d (%zu states)\n", gdl_game_role_name(g, 0), v, T.n);
    if (out)
        write_proof(out, v, root);
    gdl_state_free(init);
    for (size_t i = 0; i < T.n; i++)
        gdl_state_free(T.e[i].s);
    free(T.e);
    free(T.slot);
    for (unsigned k = 1; k <= nsym && sym_pairs; k++) {
        for (size_t j = 0; j < sym_n[k]; j++)
            free(sym_pairs[k][j].from), free(sym_pairs[k][j].to);
        free(sym_pairs[k]);
    }
    free(sym_pairs);
    free(sym_n);
    free(sym_text);
    gdl_machine_free(M);
    gdl_game_free(g);
    return 0;
}
