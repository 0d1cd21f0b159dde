#!/bin/sh
# callgrind-playouts.sh BUILD ENGINE MODE GAME N [SEED]: instructions per
# playout of bench/playouts (valgrind --tool=callgrind), the cost of loading
# taken out: (Ir(N playouts) - Ir(0 playouts)) / N. Needs `cmake --build
# BUILD --target bench_playouts`.
set -eu
build=$1 engine=$2 mode=$3 game=$4 n=$5 seed=${6:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$build/bench_playouts" "$game" "$engine" "$1" "$mode" "$seed" >"$tmp/stdout" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    sed -n 's/^summary: *//p' "$tmp/out"
}
i0=$(ir 0)
i1=$(ir "$n")
echo "$(basename "$game") $engine $mode: $(( (i1 - i0) / n )) instructions per playout ($n playouts, load $i0); $(cat "$tmp/stdout" | sed 's/.*: //')"
