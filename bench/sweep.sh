#!/bin/sh
# bench/sweep.sh [SECONDS] [SHARED]: every corpus game gdlc accepts that
# MANIFEST.tsv marks ok or truncated, benchmarked on ref and on jit for
# SECONDS each (default 2); prints one line per game with both rates and
# their ratio, then the games where jit is slower than ref. Exit 1 if any.
set -u
cd "$(dirname "$0")/.."
seconds=${1:-2}
shared=${2:-${GDL_SHARED:-$(cd .. && pwd)/shared}}
manifest=$shared/games/MANIFEST.tsv
[ -f "$manifest" ] || { echo "no corpus at $shared"; exit 2; }
[ -x build/gdlc ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
rate() { sed -n 's/.*"state_changes_per_s": \([0-9.]*\).*/\1/p'; }
slower=""
n=0
for path in $(awk -F'\t' 'NR > 1 && ($2 == "ok" || $2 == "truncated") && $9 == "no" { print $1 }' "$manifest"); do
    grep -q "^$path	" tests/corpus-rejected.tsv && continue
    g=$shared/games/$path
    r=$(build/gdlc bench --engine ref --seconds "$seconds" --json "$g" 2>/dev/null | rate)
    j=$(build/gdlc bench --engine jit --seconds "$seconds" --json "$g" 2>/dev/null | rate)
    n=$((n + 1))
    if [ -z "$r" ] || [ -z "$j" ]; then
        # bench stops at a game fault (e.g. two goal values), on both engines
        printf '%-50s %s\n' "$path" "no figure: ref ${r:-failed}, jit ${j:-failed}"
        continue
    fi
    line=$(awk -v p="$path" -v r="${r:-0}" -v j="${j:-0}" 'BEGIN {
        printf "%-50s ref %10.0f  jit %10.0f  jit/ref %6.2f", p, r, j, (r > 0 ? j / r : 0) }')
    echo "$line"
    if awk -v r="${r:-0}" -v j="${j:-0}" 'BEGIN { exit !(j < r) }'; then slower="$slower
$line"; fi
done
if [ -n "$slower" ]; then
    echo "== slower on jit than on ref:$slower"
    exit 1
fi
echo "== $n games: none slower on jit than on ref"
