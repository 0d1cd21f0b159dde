/*
 * reversi.c: games/reversi.kif by hand, the yardstick for compiled GDL.
 *
 * The rules exactly as the GDL states them: 8x8, black first; a move
 * places a disc on an empty square that flanks a line of the opponent's
 * discs in at least one of the 8 directions, and flips every flanked line;
 * a player with no move plays noop, the other player always plays noop, and
 * control alternates every turn; the game ends when neither player has a
 * move; more discs wins 100, fewer 0, a tie 50 each. Arrays and loops, no
 * bitboards.
 */
#ifndef GAME_NAME
#define GAME_NAME "reversi.kif"
#endif
/* REVERSI_BLACK_ON_DIAGONAL: the opening with black on (4,4) and (5,5), as
 * the corpus file has it (reversi_corpus.c); the second colour is then
 * called red there, the same rules otherwise. */
#define NROLES 2
#define MAXMOVES 64

enum { EMPTY, BLACK, WHITE };

typedef struct State {
    unsigned char cell[9][9]; /* [x][y], 1..8 */
    int control;              /* 0 black, 1 white */
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
#ifdef REVERSI_BLACK_ON_DIAGONAL
    s->cell[4][4] = BLACK;
    s->cell[5][5] = BLACK;
    s->cell[4][5] = WHITE;
    s->cell[5][4] = WHITE;
#else
    s->cell[4][4] = WHITE;
    s->cell[5][5] = WHITE;
    s->cell[4][5] = BLACK;
    s->cell[5][4] = BLACK;
#endif
    s->control = 0;
}

/* Does placing colour c at (x,y) flank a line going d? */
static int flanks(const State *s, int c, int x, int y, int d)
{
    int o = c == BLACK ? WHITE : BLACK;
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

static int terminal(const State *s) { return !has_move(s, BLACK) && !has_move(s, WHITE); }

static void goals(const State *s, int *out)
{
    int n[3] = {0, 0, 0};
    for (int x = 1; x <= 8; x++)
        for (int y = 1; y <= 8; y++)
            n[s->cell[x][y]]++;
    out[0] = n[BLACK] > n[WHITE] ? 100 : n[BLACK] < n[WHITE] ? 0 : 50;
    out[1] = 100 - out[0];
}

/* Canonical order: (move x y) by x then y (single digits), then noop. */
static int legal(const State *s, int role, Move *out)
{
    int n = 0;
    if (role == s->control)
        for (int x = 1; x <= 8; x++)
            for (int y = 1; y <= 8; y++)
                if (playable(s, role == 0 ? BLACK : WHITE, x, y))
                    out[n++] = (Move){x, y};
    if (n == 0)
        out[n++] = (Move){0, 0};
    return n;
}

static void next(State *s, const Move *joint)
{
    const Move *m = &joint[s->control];
    if (m->x) {
        int c = s->control == 0 ? BLACK : WHITE;
        for (int d = 0; d < 8; d++)
            if (flanks(s, c, m->x, m->y, d))
                for (int x = m->x + DX[d], y = m->y + DY[d]; s->cell[x][y] != c; x += DX[d], y += DY[d])
                    s->cell[x][y] = (unsigned char)c;
        s->cell[m->x][m->y] = (unsigned char)c;
    }
    s->control = 1 - s->control;
}
