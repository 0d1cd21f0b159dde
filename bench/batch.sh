#!/bin/sh
# bench/batch.sh [--seconds S] [--rounds R] [--core C] [--out DIR]
#
# The batched playouts (issue 39) side by side with one lane of engine pn
# (the baseline: `gdlc bench GAME --engine pn`) and the default engine
# (`gdlc bench GAME`), in one build and one run, game by game, the sides
# interleaved (their order flips every round), every process pinned to one
# core; the median of the rounds cell by cell. The batch at 64, 128, 256
# and 512 lanes on that core, the best of them taken; then the best lane
# count over two threads (`--threads 2`, unpinned: both cores), against the
# same on one core. Writes DIR/batch.md (the table) and DIR/batch.tsv (a
# raw row per cell of every round), and prints the table. A benchmark, not
# a test: run it alone on the machine.
#   --seconds S  seconds a cell (env SECONDS_CELL, default 3)
#   --rounds R   rounds, the median taken (env ROUNDS, default 3)
#   --core C     the core of the one-core cells (env CORE, default 1)
#   --out DIR    default bench/results (env OUT)
# Env: GAMES  corpus paths under GDL_SHARED/games (default: the nine below)
#      GDLC   the gdlc binary (default build/gdlc)
#      GDL_SHARED  the shared folder (default ../shared)
set -eu
cd "$(dirname "$0")/.."
seconds=${SECONDS_CELL:-3} rounds=${ROUNDS:-3} core=${CORE:-1} out=${OUT:-bench/results}
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --core) core=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "bench/batch.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
gdlc=${GDLC:-build/gdlc}
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
games=${GAMES:-"ggp-repository/ticTacToe.kif ggp-repository/connectFour.kif ggp-repository/connect4.kif
ggp-repository/breakthrough.kif ggp-repository/reversi.kif ggp-repository/checkers.kif
ggp-repository/amazons_10x10.kif ggp-repository/hex.kif ggp-repository/chess_200.kif"}
mkdir -p "$out"
tsv=$out/batch.tsv
printf 'round\tgame\tside\tthreads\tplayouts_per_s\tstate_changes_per_s\tavg_depth\tpeak_rss_kb\tload_to_ready_s\tplan\n' >"$tsv"
field() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
plan() { sed -n 's/.*"plan": "\([^"]*\)".*/\1/p'; }
cell() { # cell ROUND GAME SIDE THREADS ARGS...: one run, a row of the tsv
    r=$1 g=$2 side=$3 t=$4
    shift 4
    if [ "$t" = 1 ]; then
        j=$(taskset -c "$core" "$gdlc" bench "$shared/games/$g" --seconds "$seconds" --json "$@")
    else
        j=$("$gdlc" bench "$shared/games/$g" --seconds "$seconds" --json "$@")
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$g" "$side" "$t" "$(echo "$j" | field playouts_per_s)" \
        "$(echo "$j" | field state_changes_per_s)" "$(echo "$j" | field avg_depth)" "$(echo "$j" | field peak_rss_kb)" \
        "$(echo "$j" | field load_to_ready_s)" "$(echo "$j" | plan)" >>"$tsv"
}
sides="pn default batch64 batch128 batch256 batch512"
for r in $(seq 1 "$rounds"); do
    order=$sides
    [ $((r % 2)) -eq 0 ] && order=$(echo "$sides" | tr ' ' '\n' | tac | tr '\n' ' ')
    for g in $games; do
        for side in $order; do
            case $side in
            pn) cell "$r" "$g" pn 1 --engine pn ;;
            default) cell "$r" "$g" default 1 ;;
            batch*) cell "$r" "$g" "$side" 1 --batch "${side#batch}" ;;
            esac
        done
        # two threads at the best lane count of this round so far
        best=$(awk -F'\t' -v r="$r" -v g="$g" '$1 == r && $2 == g && $3 ~ /^batch/ && $4 == 1 { if ($5 > m) { m = $5; s = $3 } } END { print s }' "$tsv")
        cell "$r" "$g" "$best" 2 --batch "${best#batch}" --threads 2
    done
done
python3 - "$tsv" "$out/batch.md" "$seconds" "$rounds" "$core" "$(git rev-parse --short HEAD)" <<'EOF'
import sys, statistics, collections, datetime
tsv, md, seconds, rounds, core, commit = sys.argv[1:]
rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
cells = collections.defaultdict(list)
plans = {}
for r in rows:
    key = (r[1], r[2], r[3])
    cells[key].append(float(r[4] or 0))
    plans[key] = r[9]
    cells[key + ("rss",)].append(float(r[7] or 0))
med = lambda k: statistics.median(cells[k]) if cells.get(k) else 0.0
games = list(dict.fromkeys(r[1] for r in rows))
out = []
out.append("# Batched playouts against one lane (bench/batch.sh)\n")
out.append("%s UTC, at %s, %s s a cell, median of %s rounds; one-core cells pinned to core %s, the sides interleaved "
           "game by game; playouts per second (`gdlc bench --json`'s playouts_per_s). The batch's best lane count "
           "of 64-512 on one core; two threads at that count, unpinned.\n" %
           (datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"), commit, seconds, rounds, core))
out.append("| game | pn (one lane) | default | batch, best lanes | batch / pn | batch / default | 2 threads | 2 threads / 1 | batch peak MB | state evaluation | batch memory |")
out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
for g in games:
    pn, d = med((g, "pn", "1")), med((g, "default", "1"))
    best = max(("batch64", "batch128", "batch256", "batch512"), key=lambda s: med((g, s, "1")))
    b = med((g, best, "1"))
    two = [k for k in cells if len(k) == 3 and k[0] == g and k[2] == "2"]
    t2 = med(two[0]) if two else 0
    t1 = med((two[0][0], two[0][1], "1")) if two else 0
    rss = med((g, best, "1", "rss")) / 1024
    plan = plans.get((g, best, "1"), "")
    short = plan.split(" each pass")[0].replace("batch: the network's state ", "")
    mem = plan.split("memory: ")[-1] if "memory: " in plan else ""
    out.append("| %s | %s | %s | %s (%s lanes) | %.1f | %.1f | %s | %.2f | %.0f | %s | %s |" % (
        g.split("/")[-1], f"{pn:,.0f}", f"{d:,.0f}", f"{b:,.0f}", best[5:], b / pn if pn else 0, b / d if d else 0,
        f"{t2:,.0f}", t2 / t1 if t1 else 0, rss, short, mem))
out.append("\nRaw rows of every round: batch.tsv beside this file.")
open(md, "w").write("\n".join(out) + "\n")
print("\n".join(out))
EOF
