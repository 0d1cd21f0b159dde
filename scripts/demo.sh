#!/bin/sh
# demo.sh: the README's first command. Sets up, builds, checks the games
# shipped in games/, plays one, and benchmarks Reversi.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
echo "== gdlc check games/*.kif"
build/gdlc check games/*.kif
echo "== gdlc play games/tictactoe.kif --seed 3 (the end of the trace)"
build/gdlc play games/tictactoe.kif --seed 3 | tail -n 4
echo "== gdlc bench games/reversi.kif --seconds 5"
build/gdlc bench games/reversi.kif --seconds 5
