#!/bin/sh
# bench/analysis.sh [--limit SECONDS] [--seconds S] [--states N] [--seed S]
#
# What the game analyses cost (issue 14), with bench/analysis.c: the
# seconds of the game-level analysis of the headline corpus games (reversi,
# connectFour, breakthrough, ticTacToe, checkers, chess_200, hex,
# amazons_10x10), with their claims counted by kind, then microseconds per
# call of the per-state queries (goal range, winning moves, goal distance)
# over the states of seeded random playthroughs of breakthrough and
# connectFour (S seconds per query, default 0.3). One game at a time, each
# stopped after --limit seconds (default 60; reported as such). Builds
# build/ when it is not there. A benchmark, not a test.
set -eu
cd "$(dirname "$0")/.."
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
limit=60
if [ "${1:-}" = --limit ]; then limit=$2; shift 2; fi
[ -f build/CMakeCache.txt ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target bench_analysis -j 2 >/dev/null
b=build/bench_analysis
run() { # OPTIONS... GAME
    for game; do :; done
    timeout "$limit" "$b" "$@" || { [ $? -eq 124 ] && printf '%-22s stopped after %s s\n' "$(basename "$game")" "$limit"; }
}
$b --level-only --header-only
for g in reversi connectFour breakthrough ticTacToe checkers chess_200 hex amazons_10x10; do
    run --level-only --no-header "$shared/games/ggp-repository/$g.kif"
done
echo
$b --queries-only --header-only "$@"
for g in breakthrough connectFour; do
    run --queries-only --no-header "$@" "$shared/games/ggp-repository/$g.kif"
done
