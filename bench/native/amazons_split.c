/*
 * amazons_split.c: games/amazons_split.kif by hand, the yardstick for
 * compiled GDL.
 *
 * The rules exactly as the GDL states them: 10x10, four amazons each, white
 * first. A turn is two steps by the same player: move one of its amazons
 * along a line (8 directions) over empty squares, then shoot an arrow from
 * the amazon that moved, along a line over empty squares; the arrow stays.
 * The other player plays noop. The game ends when the player to move an
 * amazon has none that can move: it gets 0, the other 100. Arrays and
 * loops, no bitboards.
 */
#define GAME_NAME "amazons_split.kif"
#define NROLES 2
#define MAXMOVES 2176

enum { EMPTY, WHITE, BLACK, ARROW };

typedef struct State {
    unsigned char cell[11][11]; /* [x][y], 1..10 */
    int control;                /* 0 white, 1 black */
    int fx, fy;                 /* the amazon that must shoot, or 0 */
} State;

typedef struct Move {
    unsigned char kind;         /* 0 noop, 1 move, 2 fire */
    unsigned char x1, y1, x2, y2;
    unsigned key;               /* canonical order */
} Move;

#include "native.h"

static const int DX[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int DY[8] = {1, -1, 0, 0, 1, 1, -1, -1};

/* Position of a coordinate in the byte order of its text: 1 10 2 3 ... 9. */
static const unsigned RANK[11] = {0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 1};

static int inside(int x, int y) { return x >= 1 && x <= 10 && y >= 1 && y <= 10; }

static void initial(State *s)
{
    memset(s, 0, sizeof *s);
    s->cell[1][4] = s->cell[4][1] = s->cell[7][1] = s->cell[10][4] = WHITE;
    s->cell[1][7] = s->cell[4][10] = s->cell[7][10] = s->cell[10][7] = BLACK;
}

static int can_move(const State *s, int c)
{
    for (int x = 1; x <= 10; x++)
        for (int y = 1; y <= 10; y++)
            if (s->cell[x][y] == c)
                for (int d = 0; d < 8; d++) {
                    int nx = x + DX[d], ny = y + DY[d];
                    if (inside(nx, ny) && s->cell[nx][ny] == EMPTY)
                        return 1;
                }
    return 0;
}

static int terminal(const State *s) { return !s->fx && !can_move(s, s->control == 0 ? WHITE : BLACK); }

static void goals(const State *s, int *out)
{
    out[s->control] = 0;
    out[1 - s->control] = 100;
}

static int by_key(const void *a, const void *b)
{
    unsigned x = ((const Move *)a)->key, y = ((const Move *)b)->key;
    return x < y ? -1 : x > y;
}

/* Every empty square along the 8 lines from (x,y). */
static int targets(const State *s, int x, int y, Move *out, int n, Move base)
{
    for (int d = 0; d < 8; d++)
        for (int tx = x + DX[d], ty = y + DY[d]; inside(tx, ty) && s->cell[tx][ty] == EMPTY; tx += DX[d], ty += DY[d]) {
            Move m = base;
            m.x2 = (unsigned char)tx;
            m.y2 = (unsigned char)ty;
            m.key = base.key | RANK[tx] << 4 | RANK[ty];
            out[n++] = m;
        }
    return n;
}

/* Canonical order: (fire x y) and (move x1 y1 x2 y2) by the text order of
 * their numbers; noop for the player not in control. */
static int legal(const State *s, int role, Move *out)
{
    int n = 0;
    if (role != s->control) {
        out[0] = (Move){0, 0, 0, 0, 0, 0};
        return 1;
    }
    if (s->fx) {
        n = targets(s, s->fx, s->fy, out, 0, (Move){2, 0, 0, 0, 0, 0});
        for (int i = 0; i < n; i++) {
            out[i].x1 = out[i].x2;
            out[i].y1 = out[i].y2;
        }
    } else {
        int c = role == 0 ? WHITE : BLACK;
        for (int x = 1; x <= 10; x++)
            for (int y = 1; y <= 10; y++)
                if (s->cell[x][y] == c)
                    n = targets(s, x, y, out, n, (Move){1, (unsigned char)x, (unsigned char)y, 0, 0, RANK[x] << 12 | RANK[y] << 8});
    }
    qsort(out, (size_t)n, sizeof *out, by_key);
    return n;
}

static void next(State *s, const Move *joint)
{
    const Move *m = &joint[s->control];
    if (m->kind == 1) {
        s->cell[m->x2][m->y2] = s->cell[m->x1][m->y1];
        s->cell[m->x1][m->y1] = EMPTY;
        s->fx = m->x2;
        s->fy = m->y2;
    } else if (m->kind == 2) {
        s->cell[m->x1][m->y1] = ARROW;
        s->fx = s->fy = 0;
        s->control = 1 - s->control;
    }
}
