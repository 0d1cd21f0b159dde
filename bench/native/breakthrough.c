/*
 * breakthrough.c: the corpus file ggp-repository/breakthrough.kif (with
 * MG's bugfix) by hand, the yardstick for compiled GDL on the file the
 * peers are measured on.
 *
 * The rules exactly as the GDL states them, with its quirks:
 *  - roles white then black, white first; 8x8, (cellHolds x y colour);
 *    white starts on rows 1 and 2 and moves up (y+1), black on rows 7 and 8
 *    and moves down (y-1);
 *  - (move x1 y1 x2 y2): one step straight ahead onto an empty square, or
 *    one step diagonally ahead onto any square not holding one's own piece
 *    (an opponent's piece there is captured);
 *  - the player not in control plays noop (the one in control never can);
 *    control alternates;
 *  - terminal when white holds a square of row 8 or black one of row 1, or
 *    (the bugfix) when a colour has no piece left; no step limit;
 *  - goals: the winner 100, the other 0 (no draws).
 * The player in control always has a move (the diagonals of its most
 * advanced piece hold none of its own), so no noop is ever needed.
 * Canonical order: (move x1 y1 x2 y2) by x1, y1, then x2 (single digits);
 * noop alone. Arrays and loops, no bitboards.
 */
#define GAME_NAME "ggp-repository/breakthrough.kif"
#define NROLES 2
#define MAXMOVES 48

enum { EMPTY, WHITE, BLACK };

typedef struct State {
    unsigned char cell[10][10]; /* [x][y], 1..8, a border of EMPTY around */
    unsigned char count[3];     /* pieces of each colour */
    int control;                /* 0 white, 1 black */
} State;

typedef struct Move {
    unsigned char x1, y1, x2, y2; /* x1 == 0 for noop */
} Move;

#include "native.h"

static void initial(State *s)
{
    memset(s, 0, sizeof *s);
    for (int x = 1; x <= 8; x++) {
        s->cell[x][1] = s->cell[x][2] = WHITE;
        s->cell[x][7] = s->cell[x][8] = BLACK;
    }
    s->count[WHITE] = s->count[BLACK] = 16;
    s->control = 0;
}

static int white_win(const State *s)
{
    if (s->count[BLACK] == 0)
        return 1;
    for (int x = 1; x <= 8; x++)
        if (s->cell[x][8] == WHITE)
            return 1;
    return 0;
}

static int black_win(const State *s)
{
    if (s->count[WHITE] == 0)
        return 1;
    for (int x = 1; x <= 8; x++)
        if (s->cell[x][1] == BLACK)
            return 1;
    return 0;
}

static int terminal(const State *s) { return white_win(s) || black_win(s); }

static void goals(const State *s, int *out)
{
    out[0] = white_win(s) ? 100 : 0;
    out[1] = black_win(s) ? 100 : 0;
}

static int legal(const State *s, int role, Move *out)
{
    int n = 0;
    if (role != s->control) {
        out[0] = (Move){0, 0, 0, 0};
        return 1;
    }
    int c = role == 0 ? WHITE : BLACK, dy = role == 0 ? 1 : -1;
    for (int x = 1; x <= 8; x++)
        for (int y = 1; y <= 8; y++) {
            if (s->cell[x][y] != c)
                continue;
            int y2 = y + dy;
            if (y2 < 1 || y2 > 8)
                continue;
            if (x > 1 && s->cell[x - 1][y2] != c)
                out[n++] = (Move){(unsigned char)x, (unsigned char)y, (unsigned char)(x - 1), (unsigned char)y2};
            if (s->cell[x][y2] == EMPTY)
                out[n++] = (Move){(unsigned char)x, (unsigned char)y, (unsigned char)x, (unsigned char)y2};
            if (x < 8 && s->cell[x + 1][y2] != c)
                out[n++] = (Move){(unsigned char)x, (unsigned char)y, (unsigned char)(x + 1), (unsigned char)y2};
        }
    return n;
}

static void next(State *s, const Move *joint)
{
    const Move *m = &joint[s->control];
    int c = s->cell[m->x1][m->y1];
    if (s->cell[m->x2][m->y2] != EMPTY)
        s->count[s->cell[m->x2][m->y2]]--; /* a capture */
    s->cell[m->x2][m->y2] = (unsigned char)c;
    s->cell[m->x1][m->y1] = EMPTY;
    s->control = 1 - s->control;
}
