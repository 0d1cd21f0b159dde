#!/bin/sh
# bench/solve.sh [--seconds S] [--memory MB] [GAME...]
#
# The solver's ablation table (issue 15): for each game, gdlc solve with
# everything on, then with transpositions, symmetries and the analyses
# switched off one at a time: the nodes expanded (moves expanded into a
# child), distinct states, seconds, and the value found (the first role's
# interval; "stopped" when the bound ended it first). Each run is bounded by
# --seconds (default 60) and --memory (default 2000 MB). The default games:
# ticTacToe, nim1..4, chomp (two players), untwistycorridor and 8puzzle
# (puzzles), then checkersTiny, breakthroughSmall, kalaha5x2x3 and
# dotsAndBoxes, as far as they go within the bound. Run it alone on the
# machine (the seconds are wall-clock). A benchmark, not a test. The
# current run is kept in bench/results/solve.txt (bench/results/README.md).
set -eu
cd "$(dirname "$0")/.."
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
seconds=60 memory=2000
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    *) break ;;
    esac
done
[ -f build/CMakeCache.txt ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target gdlc -j 2 >/dev/null
g=$shared/games
if [ $# -eq 0 ]; then
    set -- "$g/ggp-repository/ticTacToe.kif" "$g/ggp-repository/nim1.kif" "$g/ggp-repository/nim2.kif" \
        "$g/ggp-repository/nim3.kif" "$g/ggp-repository/nim4.kif" "$g/ggp-repository/chomp.kif" \
        "$g/stanford-2018/untwistycorridor.kif" "$g/stanford-2018/8puzzle.kif" \
        "$g/ggp-repository/checkersTiny.kif" "$g/ggp-repository/breakthroughSmall.kif" \
        "$g/ggp-repository/kalaha5x2x3.kif" "$g/ggp-repository/dotsAndBoxes.kif"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# field KEY: a number or a short value from the one-line JSON in $tmp/out
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$tmp/out"; }
printf '%-20s %-22s %10s %9s %8s %9s  %s\n' game config nodes states seconds symmetric value
for game; do
    name=$(basename "$game" .kif)
    for config in all no-transpositions no-symmetries no-analyses; do
        opt=
        [ $config = all ] || opt=--$config
        set +e
        # shellcheck disable=SC2086
        build/gdlc solve "$game" --quiet --json --seconds "$seconds" --memory "$memory" $opt >"$tmp/out" 2>"$tmp/err"
        rc=$?
        set -e
        if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
            printf '%-20s %-22s error (exit %d): %s\n' "$name" "$config" $rc "$(head -c 100 "$tmp/err" | tr '\n' ' ')"
            continue
        fi
        value=$(sed -n 's/.*"value":{"[^"]*":\[\([0-9]*\),\([0-9]*\)\].*/[\1, \2]/p' "$tmp/out")
        stopped=$(field stopped)
        [ "$stopped" = null ] || value="$value stopped: $stopped"
        printf '%-20s %-22s %10s %9s %8s %9s  %s\n' "$name" "$config" "$(field nodes)" "$(field states)" \
            "$(field seconds)" "$(field symmetric)" "$value"
    done
done
