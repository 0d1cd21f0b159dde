#!/bin/sh
# bench/ab.sh [--seconds S] [--rounds R] [--core C] [--engines "E..."] BEFORE AFTER [GAME...]
#
# Two builds of gdlc side by side: BEFORE and AFTER are bench_interleave
# binaries (cmake --build BUILD --target bench_interleave) of two commits.
# Each round runs, for every game, both binaries one after the other (the
# order flips every round, so that drift falls on both alike), each playing
# the engines interleaved in one process for S seconds (bench/interleave.c),
# pinned to core C. Prints every engine's median rate over the rounds for
# each build and the ratio AFTER/BEFORE.
#   --seconds S   seconds of each interleave run (default 6: 3 s an engine)
#   --rounds R    default 3 (the median of three)
#   --core C      default 1
#   --engines     default "jit pn"
# GAMEs default to the eight headline games of the shared corpus
# (GDL_SHARED, default ../shared).
set -eu
seconds=6 rounds=3 core=1 engines="jit pn"
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --core) core=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    -*) echo "usage: bench/ab.sh [--seconds S] [--rounds R] [--core C] [--engines \"E...\"] BEFORE AFTER [GAME...]" >&2
        exit 2 ;;
    *) break ;;
    esac
done
[ $# -ge 2 ] || { echo "bench/ab.sh: BEFORE and AFTER binaries are needed" >&2; exit 2; }
before=$1 after=$2; shift 2
for b in "$before" "$after"; do [ -x "$b" ] || { echo "bench/ab.sh: $b is not an executable" >&2; exit 2; }; done
shared=${GDL_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
if [ $# -eq 0 ]; then
    for g in reversi amazons_10x10 connectFour ticTacToe breakthrough chess_200 checkers hex; do
        set -- "$@" "$shared/games/ggp-repository/$g.kif"
    done
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# one run: game, side (before/after), binary; appends "game side engine rate" lines
run() {
    taskset -c "$core" "$3" "$1" "$seconds" 50 $engines |
        awk -v g="$(basename "$1" .kif)" -v s="$2" '/state changes\/s/ { print g, s, $1, $2 }' >> "$tmp"
}
r=0
while [ $r -lt "$rounds" ]; do
    for g in "$@"; do
        if [ $((r % 2)) -eq 0 ]; then run "$g" before "$before"; run "$g" after "$after"
        else run "$g" after "$after"; run "$g" before "$before"; fi
    done
    r=$((r + 1))
done
# medians per game, engine and side; then the ratio
printf "%-16s %-8s %14s %14s %7s\n" game engine before after ratio
sort -k1,1 -k3,3 -k2,2 -k4,4n "$tmp" | awk '
    { k = $1 " " $3 " " $2; v[k, ++n[k]] = $4; keys[$1 " " $3] = 1 }
    function med(k) { return v[k, int((n[k] + 1) / 2)] }
    END {
        for (gk in keys) {
            b = med(gk " before"); a = med(gk " after"); split(gk, p, " ")
            printf "%-16s %-8s %14.0f %14.0f %7.3f\n", p[1], p[2], b, a, b ? a / b : 0
        }
    }' | sort
