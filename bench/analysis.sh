#!/bin/sh
# bench/analysis.sh [--seconds S] [--states N] [--seed S] [GAME.kif ...]
#
# What the game analyses cost (issue 14), with bench/analysis.c: the
# seconds of the game-level analysis of the headline corpus games (reversi,
# connectFour, breakthrough, ticTacToe, checkers, chess_200, hex,
# amazons_10x10), with their claims counted by kind, then microseconds per
# call of the per-state queries (goal range, winning moves, goal distance)
# over the states of seeded random playthroughs of breakthrough and
# connectFour (S seconds per query, default 0.3). Builds build/ when it is
# not there. A benchmark, not a test.
set -eu
cd "$(dirname "$0")/.."
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
[ -f build/CMakeCache.txt ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target bench_analysis -j 2 >/dev/null
exec build/bench_analysis --shared "$shared" "$@"
