#!/bin/sh
# bench/sweep.sh [SECONDS] [SHARED]: every corpus game gdlc accepts that
# MANIFEST.tsv marks ok or truncated, benchmarked on two engines for SECONDS
# each (default 2); prints one line per game with both rates and their
# ratio, then the games where the second is slower than the first by more
# than TOLERANCE percent (default 0). Exit 1 if any.
#   BASE="GDLC ENGINE" (default "build/gdlc ref") and NEW="GDLC ENGINE"
#   (default "build/gdlc jit"): each a gdlc binary and an engine, so that a
#   build is compared with an older one (BASE="/tmp/gdlc-50b187f jit") or
#   an engine with another (BASE="build/gdlc jit:goal").
#   PLAN="propositional network" keeps the games NEW's machine plays by that
#   plan (gdl_machine_plan, read from a bench of a few milliseconds).
# The current runs are kept in bench/results/ (sweep.txt against jit at
# 50b187f, sweep-ref.txt against ref, sweep-plan.txt against jit:goal; see
# bench/results/README.md, which says how each was run).
set -u
cd "$(dirname "$0")/.."
seconds=${1:-2}
shared=${2:-${GDL_SHARED:-$(cd .. && pwd)/shared}}
manifest=$shared/games/MANIFEST.tsv
[ -f "$manifest" ] || { echo "no corpus at $shared"; exit 2; }
[ -x build/gdlc ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
base=${BASE:-build/gdlc ref}
new=${NEW:-build/gdlc jit}
tolerance=${TOLERANCE:-0}
rate() { sed -n 's/.*"state_changes_per_s": \([0-9.]*\).*/\1/p'; }
run() { # "GDLC ENGINE" GAME
    set -- $1 "$2"
    "$1" bench --engine "$2" --seconds "$seconds" --json "$3" 2>/dev/null | rate
}
slower=""
n=0
for path in $(awk -F'\t' 'NR > 1 && ($2 == "ok" || $2 == "truncated") && $9 == "no" { print $1 }' "$manifest"); do
    grep -q "^$path	" tests/frontend/corpus-rejected.tsv && continue
    g=$shared/games/$path
    if [ -n "${PLAN:-}" ]; then
        set -- $new
        "$1" bench --engine "$2" --seconds 0.001 --json "$g" 2>/dev/null | grep -q "\"plan\": \"$PLAN" || continue
    fi
    a=$(run "$base" "$g")
    b=$(run "$new" "$g")
    n=$((n + 1))
    if [ -z "$a" ] || [ -z "$b" ]; then
        # bench stops at a game fault (e.g. two goal values), on both engines
        printf '%-50s %s\n' "$path" "no figure: base ${a:-failed}, new ${b:-failed}"
        continue
    fi
    line=$(awk -v p="$path" -v a="${a:-0}" -v b="${b:-0}" 'BEGIN {
        printf "%-50s base %10.0f  new %10.0f  new/base %6.2f", p, a, b, (a > 0 ? b / a : 0) }')
    echo "$line"
    if awk -v a="${a:-0}" -v b="${b:-0}" -v t="$tolerance" 'BEGIN { exit !(b < a * (1 - t / 100)) }'; then slower="$slower
$line"; fi
done
echo "== base: $base; new: $new; $seconds s each"
if [ -n "$slower" ]; then
    echo "== slower on new than on base by more than $tolerance%:$slower"
    exit 1
fi
echo "== $n games: none slower on new than on base by more than $tolerance%"
