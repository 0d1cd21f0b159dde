/*
 * connectFour.c: the corpus file ggp-repository/connectFour.kif by hand,
 * the yardstick for compiled GDL on the file the peers are measured on.
 *
 * The rules exactly as the GDL states them, with its quirks:
 *  - roles red then black, red first; the board is 8 columns (x 1..8) by
 *    6 rows (y 1..6), not the usual 7x6; (drop x) lands on the lowest open
 *    cell of column x, and is legal while the top cell (x,6) is open;
 *  - the player not in control plays noop (the one in control never can);
 *    control alternates;
 *  - terminal on four in a row of one colour (horizontal, vertical or
 *    either diagonal) or when no column is open; no step limit;
 *  - goals: the player with a line 100, the other 0; a full board without
 *    a line 50 each.
 * Canonical order: (drop 1) .. (drop 8); noop alone. Arrays and loops, no
 * bitboards.
 */
#define GAME_NAME "ggp-repository/connectFour.kif"
#define NROLES 2
#define MAXMOVES 8

#define W 8
#define H 6

enum { EMPTY, RED, BLACK };

typedef struct State {
    unsigned char cell[W + 1][H + 1]; /* [x][y], 1-based */
    unsigned char height[W + 1];      /* discs in column x */
    int control;                      /* 0 red, 1 black */
} State;

typedef struct Move {
    int x; /* 0 for noop */
} Move;

#include "native.h"

static void initial(State *s)
{
    memset(s, 0, sizeof *s);
    s->control = 0;
}

static int line(const State *s, int c)
{
    for (int x = 1; x <= W; x++)
        for (int y = 1; y <= H; y++) {
            if (s->cell[x][y] != c)
                continue;
            if (x + 3 <= W && s->cell[x + 1][y] == c && s->cell[x + 2][y] == c && s->cell[x + 3][y] == c)
                return 1;
            if (y + 3 <= H && s->cell[x][y + 1] == c && s->cell[x][y + 2] == c && s->cell[x][y + 3] == c)
                return 1;
            if (x + 3 <= W && y + 3 <= H && s->cell[x + 1][y + 1] == c && s->cell[x + 2][y + 2] == c &&
                s->cell[x + 3][y + 3] == c)
                return 1;
            if (x + 3 <= W && y - 3 >= 1 && s->cell[x + 1][y - 1] == c && s->cell[x + 2][y - 2] == c &&
                s->cell[x + 3][y - 3] == c)
                return 1;
        }
    return 0;
}

static int board_open(const State *s)
{
    for (int x = 1; x <= W; x++)
        if (s->height[x] < H)
            return 1;
    return 0;
}

static int terminal(const State *s) { return line(s, RED) || line(s, BLACK) || !board_open(s); }

static void goals(const State *s, int *out)
{
    int r = line(s, RED), b = line(s, BLACK);
    if (r || b) {
        out[0] = r ? 100 : 0;
        out[1] = b ? 100 : 0;
    } else
        out[0] = out[1] = board_open(s) ? 0 : 50;
}

static int legal(const State *s, int role, Move *out)
{
    int n = 0;
    if (role != s->control) {
        out[0] = (Move){0};
        return 1;
    }
    for (int x = 1; x <= W; x++)
        if (s->height[x] < H)
            out[n++] = (Move){x};
    return n;
}

static void next(State *s, const Move *joint)
{
    int x = joint[s->control].x;
    s->cell[x][++s->height[x]] = (unsigned char)(s->control == 0 ? RED : BLACK);
    s->control = 1 - s->control;
}
