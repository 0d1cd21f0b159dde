/*
 * reversi_corpus.c: the corpus file ggp-repository/reversi.kif (GDL by Alex
 * Landau) by hand, the yardstick for compiled GDL on the file the peers are
 * measured on. games/reversi.kif has its own baseline, reversi.c.
 *
 * The rules exactly as the GDL states them, with its quirks:
 *  - roles black then red; 8x8, (cell x y colour); black first (control
 *    black); the initial discs are black on (4,4) and (5,5), red on (4,5)
 *    and (5,4): the colours of games/reversi.kif swapped;
 *  - a move (move x y) puts a disc on an empty square next to a run of the
 *    opponent's discs closed by one's own, in any of the 8 directions, and
 *    flips every such run (hasOtherColorInDir / affected);
 *  - the player not in control plays noop; the player in control with no
 *    move plays noop too (it is never offered both); control alternates
 *    every turn, passes included;
 *  - terminal when neither colour has a move anywhere, whoever is in
 *    control; no step limit;
 *  - goals by disc count (pieceCount over the 64 squares): more discs 100,
 *    fewer 0, equal 50 each.
 * Canonical order: (move x y) by x then y (single digits); noop alone.
 * Arrays and loops, no bitboards.
 */
#define GAME_NAME "ggp-repository/reversi.kif"
#define NROLES 2
#define MAXMOVES 64

enum { EMPTY, BLACK, RED };

typedef struct State {
    unsigned char cell[9][9]; /* [x][y], 1..8 */
    int control;              /* 0 black, 1 red */
} State;

typedef struct Move {
    int x, y; /* 0 for noop */
} Move;

#include "native.h"

static const int DX[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int DY[8] = {1, -1, 0, 0, 1, 1, -1, -1};

static int inside(int x, int y) { return x >= 1 && x <= 8 && y >= 1 && y <= 8; }

static void initial(State *s)
{
    memset(s, 0, sizeof *s);
    s->cell[4][4] = BLACK;
    s->cell[5][5] = BLACK;
    s->cell[4][5] = RED;
    s->cell[5][4] = RED;
    s->control = 0;
}

/* Does placing colour c at (x,y) flank a run of the opponent going d? */
static int flanks(const State *s, int c, int x, int y, int d)
{
    int o = c == BLACK ? RED : BLACK;
    int cx = x + DX[d], cy = y + DY[d];
    if (!inside(cx, cy) || s->cell[cx][cy] != o)
        return 0;
    for (cx += DX[d], cy += DY[d]; inside(cx, cy); cx += DX[d], cy += DY[d]) {
        if (s->cell[cx][cy] == c)
            return 1;
        if (s->cell[cx][cy] != o)
            return 0;
    }
    return 0;
}

static int playable(const State *s, int c, int x, int y)
{
    if (s->cell[x][y] != EMPTY)
        return 0;
    for (int d = 0; d < 8; d++)
        if (flanks(s, c, x, y, d))
            return 1;
    return 0;
}

static int has_move(const State *s, int c)
{
    for (int x = 1; x <= 8; x++)
        for (int y = 1; y <= 8; y++)
            if (playable(s, c, x, y))
                return 1;
    return 0;
}

static int terminal(const State *s) { return !has_move(s, BLACK) && !has_move(s, RED); }

static void goals(const State *s, int *out)
{
    int n[3] = {0, 0, 0};
    for (int x = 1; x <= 8; x++)
        for (int y = 1; y <= 8; y++)
            n[s->cell[x][y]]++;
    out[0] = n[BLACK] > n[RED] ? 100 : n[BLACK] < n[RED] ? 0 : 50;
    out[1] = 100 - out[0];
}

static int legal(const State *s, int role, Move *out)
{
    int n = 0;
    if (role == s->control)
        for (int x = 1; x <= 8; x++)
            for (int y = 1; y <= 8; y++)
                if (playable(s, role == 0 ? BLACK : RED, x, y))
                    out[n++] = (Move){x, y};
    if (n == 0)
        out[n++] = (Move){0, 0};
    return n;
}

static void next(State *s, const Move *joint)
{
    const Move *m = &joint[s->control];
    if (m->x) {
        int c = s->control == 0 ? BLACK : RED;
        for (int d = 0; d < 8; d++)
            if (flanks(s, c, m->x, m->y, d))
                for (int x = m->x + DX[d], y = m->y + DY[d]; s->cell[x][y] != c; x += DX[d], y += DY[d])
                    s->cell[x][y] = (unsigned char)c;
        s->cell[m->x][m->y] = (unsigned char)c;
    }
    s->control = 1 - s->control;
}
