#!/bin/sh
# bench/run.sh [--seconds S] [--quick] [--engines "E..."] [--out DIR]
#
# The benchmark suite: every engine on every game, one cell at a time, with
# gdl-perf's measure (state changes per second over repeated random
# playthroughs; `gdlc bench`). Writes DIR/results.json, DIR/results.md (the
# table) and DIR/chart.png (gnuplot), and prints the table.
#   --seconds S   seconds per cell (default 30, as published measurements use)
#   --quick       a smoke run: 1 second per cell, written to build/bench-quick
#                 unless --out says otherwise
#   --engines     default "ref jit aot native"; native (bench/native, built
#                 here with cc -O2) exists for our Reversi and split-turn
#                 Amazons and for the corpus Reversi, Connect Four and
#                 Breakthrough (native_of below)
#   --out DIR     default bench/results, where the current full run is kept
#                 in git (bench/results/README.md): a new run replaces it
# Games: ours in games/, and, when the shared corpus is there, the corpus
# files other engines are measured on. aot cells report the load time of a
# cached object; the compile time of a cold cache is its own column.
set -eu
cd "$(dirname "$0")/.."
seconds=30 engines="ref jit aot native" out=
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --quick) seconds=1 quick=1; shift ;;
    --engines) engines=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: bench/run.sh [--seconds S] [--quick] [--engines \"E...\"] [--out DIR]" >&2; exit 2 ;;
    esac
done
[ -n "$out" ] || { [ -n "${quick:-}" ] && out=build/bench-quick || out=bench/results; }
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
[ -x build/gdlc ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
for n in reversi amazons_split reversi_corpus connectFour breakthrough; do
    ${CC:-cc} -O2 -o "$tmp/native_$n" "bench/native/$n.c"
done
# native_of GAME: the baseline of bench/native playing GAME, if any. Our
# games/breakthrough.kif is not the corpus file: only the paths below.
native_of() {
    case $1 in
    games/reversi.kif) echo reversi ;;
    games/amazons_split.kif | games/amazons_split_leftrec.kif) echo amazons_split ;;
    "$shared/games/ggp-repository/reversi.kif") echo reversi_corpus ;;
    "$shared/games/ggp-repository/connectFour.kif") echo connectFour ;;
    "$shared/games/ggp-repository/breakthrough.kif") echo breakthrough ;;
    esac
}

games="games/reversi.kif games/amazons.kif games/amazons_split.kif games/amazons_split_leftrec.kif
games/connect4.kif games/breakthrough.kif games/tictactoe.kif"
for g in reversi amazons amazons_10x10 connectFour breakthrough ticTacToe; do
    [ -f "$shared/games/ggp-repository/$g.kif" ] && games="$games $shared/games/ggp-repository/$g.kif"
done

# value KEY JSON: a number from gdlc bench --json's flat object
value() { echo "$2" | sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p"; }
label() {
    case $1 in games/*) basename "$1" ;; *) echo "corpus $(basename "$1")" ;; esac
}

echo "[" >"$out/results.json"
first=1
{
    echo "| game | engine | state changes/s | playouts/s | avg depth | load to ready (ms) | aot compile (s) | peak RSS (MB) |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
} >"$out/results.md"
printf 'game' >"$tmp/chart.dat"
for e in $engines; do printf ' %s' "$e" >>"$tmp/chart.dat"; done
echo >>"$tmp/chart.dat"
for g in $games; do
    name=$(label "$g")
    printf '"%s"' "$name" >>"$tmp/chart.dat"
    for e in $engines; do
        compile=""
        case $e in
        native)
            n=$(native_of "$g")
            if [ -z "$n" ] || ! [ -x "$tmp/native_$n" ]; then
                printf ' ?' >>"$tmp/chart.dat"
                continue
            fi
            j=$("$tmp/native_$n" --seconds "$seconds" --json | sed "s|\"game\": \"[^\"]*\"|\"game\": \"$g\"|") ;;
        aot)
            t0=$(date +%s.%N)
            build/gdlc bench --engine aot --seconds 0.01 "$g" >/dev/null
            compile=$(echo "$(date +%s.%N) - $t0" | bc)
            j=$(build/gdlc bench --engine aot --seconds "$seconds" --json "$g") ;;
        *)
            j=$(build/gdlc bench --engine "$e" --seconds "$seconds" --json "$g") ;;
        esac
        scps=$(value state_changes_per_s "$j")
        printf ' %s' "$scps" >>"$tmp/chart.dat"
        [ $first = 1 ] || echo "," >>"$out/results.json"
        first=0
        printf '%s' "$(echo "$j" | sed "s/}\$/, \"aot_compile_s\": ${compile:-null}}/")" >>"$out/results.json"
        awk -v g="$name" -v e="$e" -v s="$scps" -v p="$(value playouts_per_s "$j")" -v d="$(value avg_depth "$j")" \
            -v l="$(value load_to_ready_s "$j")" -v c="$compile" -v m="$(value peak_rss_kb "$j")" \
            'BEGIN { printf "| %s | %s | %.0f | %.1f | %.1f | %.2f | %s | %.1f |\n", g, e, s, p, d, l * 1000,
                     c == "" ? "" : sprintf("%.1f", c), m / 1024 }' >>"$out/results.md"
    done
    echo >>"$tmp/chart.dat"
done
echo "]" >>"$out/results.json"
cat "$out/results.md"
if command -v gnuplot >/dev/null; then
    cp "$tmp/chart.dat" "$out/chart.dat"
    gnuplot <<GNUPLOT
set terminal png size 1100,560 font ",10"
set output "$out/chart.png"
set title "State changes per second (log scale), ${seconds} s per cell"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set yrange [10:*]
set bmargin 8
set rmargin 10
set grid ytics
set key top right
set xtics rotate by -30 noenhanced
set ylabel "state changes / s"
plot for [i=2:$(($(echo $engines | wc -w) + 1))] "$out/chart.dat" using i:xtic(1) title columnheader(i)
GNUPLOT
    echo "chart: $out/chart.png"
else
    echo "gnuplot is not installed (scripts/setup.sh installs gnuplot-nox): no chart"
fi
