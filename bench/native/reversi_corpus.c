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
 * Arrays and loops, no bitboards. The rules are those of games/reversi.kif
 * but for the opening, so the code is reversi.c's (its second colour, white
 * there, is the corpus's red).
 */
#define GAME_NAME "ggp-repository/reversi.kif"
#define REVERSI_BLACK_ON_DIAGONAL
#include "reversi.c"
