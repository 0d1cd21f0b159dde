#!/bin/sh
# bench/rbg.sh [--seconds S] [--rounds R] [--core C] [--out DIR]
#
# gdlc side by side with the Regular Boardgames (RBG) compiler's reasoners
# and, when PEERS is set, Sancho's propnet (issue 38), on the games RBG and
# the corpus both have. Game by game, interleaved (the order of the sides
# flips every round, so that drift falls on all alike), every process pinned
# to one core, the same for all; the median of the rounds is taken cell by
# cell. Writes DIR/rbg.md (the table) and DIR/rbg.tsv (one raw row per cell
# of every round), and prints the table. A benchmark, not a test: run it
# alone on the machine.
#   --seconds S  seconds a cell (env SECONDS, default 6)
#   --rounds R   rounds, the median taken (env ROUNDS, default 3)
#   --core C     the core every process runs on (env CORE, default 1)
#   --out DIR    default bench/results (env OUT)
# Env: RBG_BUILD  the RBG benchmarks someone has built, one folder a game
#                 holding `benchmark` (default /work/scratch/rbg/build): run
#                 here as `benchmark MILLISECONDS`, never built here. Missing:
#                 RBG's cells are skipped, and the table says so.
#      ENGINES    gdlc's engines (default "default": `gdlc bench` with no
#                 --engine, what issue 38 measures); others are passed as
#                 --engine NAME, e.g. ENGINES="default pn aot"
#      PEERS      the folder of the peers' harnesses built by hand
#                 (../shared/peers/README.md): when set, Sancho is run through
#                 ../shared/peers/run_table.sh with ENGINES=sancho
#      SANCHO_SKIP  RBG game names Sancho is not run on (default "amazons":
#                 it does not finish building one-move Amazons in 180 s)
#      GAMES      RBG game names (default all eight below)
#      GDLC       the gdlc binary (default build/gdlc, built if missing)
#      GDL_SHARED the shared folder (default ../shared: games/, peers/)
#      LOAD_MAX, WAIT_EACH  before each game, wait up to WAIT_EACH seconds
#                 (default 120) for the 1-minute load to fall below LOAD_MAX
#                 (default 1.5); the load is kept in every row
#
# What is counted. RBG's test/benchmark.cpp (rbg2cpp at fd93c43) plays flat
# Monte-Carlo playouts from the initial state, the current player's legal
# moves, a uniform random one, apply; then the keeper's (the rules' own,
# non-player) moves; until the player to move has none. Its "states" are the
# players' moves applied: one per player turn, the terminal state and the
# keeper's moves not counted. `gdlc bench`'s state_changes are the
# next-state computations of gdl-perf's playthrough: one per joint move,
# i.e. one per turn in these alternating games (the other role plays noop).
# Sancho's harness counts the same as gdlc. So the unit is the same, one
# ply, on every game here, and the average depths show it: RBG's
# states/playout equals gdlc's avg_depth to within 1% (7.63 tic-tac-toe,
# 21.3 connect4, 64.1 breakthrough, 60.4 reversi, whose passes are a move on
# both sides, 71.0 hex, 136 split Amazons, 190.4 chess_200). Split Amazons
# needs no conversion: RBG's amazons_split2 makes the queen's move and the
# arrow two player moves (`->me ... ->> [piece] ->me ... ->> [x]`), and
# amazons_10x10.kif two steps too ((turn ?p move), then (fire ?x ?y)), so one
# orthodox turn is two states on both sides. One-move amazons ↔ amazons.kif:
# one state a turn on both, but the playouts differ a little: amazons.kif
# ends when either side has no queen move (its legalMove ignores the turn),
# RBG when the player to move has none, so RBG plays on after a player walls
# itself in (71.5 plies a playout against 70.1). What differs is the work
# behind a state: gdlc computes every role's legal moves, terminal, and the
# goals at the end through the public calls of include/gdl.h; RBG only the
# mover's moves (terminal is "no move"), and its keeper's moves (scores,
# placing a piece) run uncounted. The table's depth column checks the unit,
# run by run. The sides' details: docs/benchmarks.md, "Against RBG's
# reasoners".
# shellcheck disable=SC3028 # SECONDS is ours (dash does not set it; bash: read at once)
seconds=${SECONDS:-6}
rounds=${ROUNDS:-3} core=${CORE:-1} out=${OUT:-}
set -eu
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --core) core=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: bench/rbg.sh [--seconds S] [--rounds R] [--core C] [--out DIR]" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/.."
out=${out:-bench/results}
rbg=${RBG_BUILD:-/work/scratch/rbg/build}
engines=${ENGINES:-default}
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
gdlc=${GDLC:-build/gdlc}
games=${GAMES:-"ticTacToe connect4 breakthrough reversi hex_9x9 amazons_split2 chess_200 amazons"}
sancho_skip=${SANCHO_SKIP-amazons}
load_max=${LOAD_MAX:-1.5} wait_each=${WAIT_EACH:-120}
[ "$gdlc" != build/gdlc ] || [ -x build/gdlc ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
[ -x "$gdlc" ] || { echo "bench/rbg.sh: no gdlc at $gdlc" >&2; exit 2; }
command -v taskset >/dev/null || { echo "bench/rbg.sh: taskset is needed (util-linux)" >&2; exit 2; }

# gdl_of RBG_GAME: the corpus file with the same rules
gdl_of() {
    case $1 in
    ticTacToe) echo ggp-repository/ticTacToe.kif ;;
    connect4) echo ggp-repository/connect4.kif ;; # 7x6, not the 8x6 connectFour.kif
    breakthrough) echo ggp-repository/breakthrough.kif ;;
    reversi) echo ggp-repository/reversi.kif ;;
    hex_9x9) echo ggp-repository/hex.kif ;;
    amazons_split2) echo ggp-repository/amazons_10x10.kif ;; # both split a turn in two
    chess_200) echo ggp-repository/chess_200.kif ;;
    amazons) echo ggp-repository/amazons.kif ;; # one move a turn
    *) return 1 ;;
    esac
}
for g in $games; do gdl_of "$g" >/dev/null || { echo "bench/rbg.sh: no GDL counterpart known for RBG's $g" >&2; exit 2; }; done
if [ -d "$rbg" ]; then
    rbg_note=""
else
    rbg_note="no RBG build at $rbg (RBG_BUILD): RBG's cells skipped"
    echo "bench/rbg.sh: $rbg_note" >&2
fi
run_table=$shared/peers/run_table.sh
sancho_note=""
if [ -z "${PEERS:-}" ]; then
    sancho_note="PEERS unset: Sancho not run"
elif ! [ -x "$run_table" ] || ! [ -f "$PEERS/sancho.classpath" ]; then
    sancho_note="no $run_table or no $PEERS/sancho.classpath: Sancho not run"
    echo "bench/rbg.sh: $sancho_note" >&2
fi

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" # aot: compiled in a warm-up bench, then loaded
tsv=$out/rbg.tsv
printf 'round\tgame\tgdl\tside\tengine\tstates_per_s\tplayouts_per_s\tavg_depth\tready_s\tpeak_kb\tplan\tload1\tutc\tnote\n' >"$tsv"
load1() { cut -d' ' -f1 /proc/loadavg; }
waitload() {
    t=0
    while awk "BEGIN { exit !($(load1) >= $load_max) }" && [ $t -lt "$wait_each" ]; do sleep 5; t=$((t + 5)); done
}
# row ROUND GAME SIDE ENGINE STATES PLAYOUTS DEPTH READY PEAK PLAN NOTE
row() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(gdl_of "$2")" "$3" "$4" "$5" "$6" \
        "$7" "$8" "$9" "${10}" "$(load1)" "$(date -u +%H:%M:%S)" "${11}" | tee -a "$tsv" | cut -f1-10,14 >&2
}
# value KEY JSON: a number, or a string's text, from a flat JSON object
value() { echo "$2" | sed -n "s/.*\"$1\": \"\{0,1\}\([^\",}]*\).*/\1/p"; }
plan() { echo "$1" | sed -n 's/.*"plan": "\(\([^"\\]\|\\.\)*\)".*/\1/p' | tr '\t' ' '; }

run_rbg() { # ROUND GAME
    b=$rbg/$2/benchmark
    if ! [ -x "$b" ]; then
        [ -n "$rbg_note" ] || row "$1" "$2" rbg rbg "" "" "" "" "" "" "no $b: skipped"
        return 0
    fi
    rc=0 ms=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 1000 }')
    : >"$tmp/time"
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f 'TIME %M' -o "$tmp/time" taskset -c "$core" timeout 600 "$b" "$ms" >"$tmp/rbg" 2>&1 || rc=$?
    else
        taskset -c "$core" timeout 600 "$b" "$ms" >"$tmp/rbg" 2>&1 || rc=$?
    fi
    st=$(sed -n 's/^number of states: [0-9]* (\([0-9.]*\) states\/sec).*/\1/p' "$tmp/rbg")
    if [ $rc != 0 ] || [ -z "$st" ]; then
        row "$1" "$2" rbg rbg "" "" "" "" "" "" "rc $rc: $(tail -c 200 "$tmp/rbg" | tr '\t\n' '  ')"
        return 0
    fi
    row "$1" "$2" rbg rbg "$st" "$(sed -n 's/^number of playouts: [0-9]* (\([0-9.]*\) playouts\/sec).*/\1/p' "$tmp/rbg")" \
        "$(sed -n 's/^depth: avg \([0-9.]*\).*/\1/p' "$tmp/rbg")" "" "$(sed -n 's/^TIME //p' "$tmp/time")" "" ""
}
run_gdlc() { # ROUND GAME ENGINE
    f=$shared/games/$(gdl_of "$2")
    [ "$3" = default ] && opt="" || opt="--engine $3" # split below, on purpose
    case $3 in aot*) "$gdlc" bench $opt --seconds 0.01 "$f" >/dev/null 2>&1 || true ;; esac
    rc=0
    j=$(taskset -c "$core" timeout 600 "$gdlc" bench $opt --seconds "$seconds" --json "$f" 2>"$tmp/err") || rc=$?
    if [ $rc != 0 ]; then
        row "$1" "$2" "gdlc-$3" "" "" "" "" "" "" "" "rc $rc: $(tail -c 200 "$tmp/err" | tr '\t\n' '  ')"
        return 0
    fi
    row "$1" "$2" "gdlc-$3" "$(value engine "$j")" "$(value state_changes_per_s "$j")" "$(value playouts_per_s "$j")" \
        "$(value avg_depth "$j")" "$(value load_to_ready_s "$j")" "$(value peak_rss_kb "$j")" "$(plan "$j")" \
        "$(value partial "$j" | sed 's/^true$/a playout cut at the deadline/; s/^false$//')"
}
run_sancho() { # ROUND GAME
    [ -z "$sancho_note" ] || return 0
    for skip in $sancho_skip; do
        [ "$skip" != "$2" ] || { row "$1" "$2" sancho sancho "" "" "" "" "" "" "skipped (SANCHO_SKIP)"; return 0; }
    done
    rm -rf "$tmp/peers"
    PEERS=$PEERS ENGINES=sancho GAMES=$(gdl_of "$2") SECONDS_PER_CELL=$seconds WAIT_FIRST=0 \
        taskset -c "$core" "$run_table" "$shared/games" "$tmp/peers" >"$tmp/peers.log" 2>&1 || true
    j=$(grep '"engine": "sancho"' "$tmp/peers/results.jsonl" 2>/dev/null | head -1)
    case $j in
    *'"result"'*)
        row "$1" "$2" sancho sancho "$(value state_changes_per_s "$j")" "$(value rollouts_per_s "$j")" \
            "$(awk -v n="$(value state_changes "$j")" -v r="$(value rollouts "$j")" 'BEGIN { if (r > 0) printf "%.2f", n / r }')" "$(value build_s "$j")" \
            "$(value peak_rss_kb "$j")" "" "init $(value init_s "$j") s: the build and 5 s of tuning" ;;
    *) row "$1" "$2" sancho sancho "" "" "" "" "" "" "failed: $(echo "${j:-$(tail -c 200 "$tmp/peers.log")}" | tr '\t\n' '  ' | tail -c 200)" ;;
    esac
}

started=$(date -u '+%Y-%m-%d %H:%M UTC') load_start=$(uptime | sed 's/.*load/load/')
# The functions above share the shell's variables: the loop's are named apart.
round=1
while [ $round -le "$rounds" ]; do
    for game in $games; do
        waitload
        sides="rbg"
        for e in $engines; do sides="$sides gdlc:$e"; done
        [ -n "$sancho_note" ] || sides="$sides sancho"
        if [ $((round % 2)) -eq 0 ]; then sides=$(echo "$sides" | tr ' ' '\n' | tac | tr '\n' ' '); fi
        for side in $sides; do
            case $side in
            rbg) run_rbg "$round" "$game" ;;
            sancho) run_sancho "$round" "$game" ;;
            gdlc:*) run_gdlc "$round" "$game" "${side#gdlc:}" ;;
            esac
        done
    done
    round=$((round + 1))
done
load_end=$(uptime | sed 's/.*load/load/')

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 - "$tsv" "$engines" "$games" >"$out/rbg.md" <<EOF
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
engines, games = sys.argv[2].split(), sys.argv[3].split()
def cells(g, side):
    return [r for r in rows if r['game'] == g and r['side'] == side]
def med(g, side, key='states_per_s'):
    v = [float(r[key]) for r in cells(g, side) if r[key]]
    return statistics.median(v) if v else None
def why(g, side):
    notes = [r['note'] for r in cells(g, side) if r['note']]
    return notes[-1] if notes else ''
def rate(g, side):
    m = med(g, side)
    if m is None:
        return why(g, side) or 'not run'
    return f'{m:,.0f}'
def fmt(x):
    return f'{x:.2f}' if x >= 0.1 else f'{x:.2g}'
def ratio(g, a, b):
    # the ratio of the medians, and the range of the rounds' own ratios
    ma, mb = med(g, a), med(g, b)
    if ma is None or mb is None or mb == 0:
        return ''
    per = {}
    for r in rows:
        if r['game'] == g and r['side'] in (a, b) and r['states_per_s']:
            per.setdefault(r['round'], {})[r['side']] = float(r['states_per_s'])
    rs = sorted(p[a] / p[b] for p in per.values() if a in p and p.get(b))
    spread = f' ({fmt(rs[0])}-{fmt(rs[-1])})' if len(rs) > 1 else ''
    return f'{fmt(ma / mb)}{spread}'
def depth(g, side):
    m = med(g, side, 'avg_depth')
    return '' if m is None else f'{m:.2f}'
d0 = f'gdlc-{engines[0]}'
print('# gdlc against RBG and Sancho (bench/rbg.sh)')
print()
print(f'$started, at $commit, ${seconds} s a cell, median of ${rounds} round(s), every process pinned to core ${core}, '
      'the sides interleaved game by game. States/s: RBG\'s "states" (player moves applied), gdlc\'s and Sancho\'s '
      'state_changes_per_s (next states computed); one ply either way on these games (the depth column checks it). '
      f'The ratios are the first gdlc engine\'s ({engines[0]}), the median\'s and, in brackets, the rounds\' range.')
print()
print('Load before: $load_start; after: $load_end.')
for n in ('$rbg_note', '$sancho_note'):
    if n:
        print(); print(f'Note: {n}.')
print()
head = ['game (RBG; ours)', 'RBG states/s'] + [f'gdlc {e} states/s' for e in engines] + ['Sancho states/s',
        'gdlc/RBG', 'gdlc/Sancho', 'depth RBG / gdlc', f'gdlc {engines[0]} plan', 'ready (ms)', 'peak (MB)',
        'Sancho build (s)']
print('| ' + ' | '.join(head) + ' |')
print('|' + '|'.join(['---'] + ['---:'] * (len(head) - 5) + ['---', '---:', '---:', '---:']) + '|')
for g in games:
    gdl = next((r['gdl'] for r in rows if r['game'] == g), '')
    plan = next((r['plan'] for r in cells(g, d0) if r['plan']), '')
    eng = next((r['engine'] for r in cells(g, d0) if r['engine']), '')
    ready, peak, build = med(g, d0, 'ready_s'), med(g, d0, 'peak_kb'), med(g, 'sancho', 'ready_s')
    line = [f'{g}; {gdl.split("/")[-1]}', rate(g, 'rbg')] + [rate(g, f'gdlc-{e}') for e in engines] + [
        rate(g, 'sancho'), ratio(g, d0, 'rbg'), ratio(g, d0, 'sancho'), f'{depth(g, "rbg")} / {depth(g, d0)}',
        f'{eng}: {plan}' if eng else '', '' if ready is None else f'{ready * 1000:.1f}',
        '' if peak is None else f'{peak / 1024:.1f}', '' if build is None else f'{build:.1f}']
    print('| ' + ' | '.join(line) + ' |')
print()
print('Ready and peak: gdlc\'s first engine, load to ready (reading the .kif to a machine ready) and peak RSS; '
      'Sancho build: its propnet construction (its init adds 5 s of tuning). '
      'Raw rows of every round: rbg.tsv beside this file.')
EOF
cat "$out/rbg.md"
