#!/bin/sh
# bench/compile-sweep.sh [SHARED]: every corpus game gdlc accepts (the games
# bench/sweep.sh takes: MANIFEST.tsv ok or truncated, no known fault, not in
# tests/frontend/corpus-rejected.tsv) through `gdlc compile`, one at a time, each
# timed with its peak memory: GNU time's maximum resident size, which is
# that of the largest single process of the compile (gdlc, or the C
# compiler it waits for), not their sum. Prints one line per game (seconds,
# peak KB, exit status), then the slowest and largest three and the games
# over the limits: LIMIT_S seconds (default 30) or LIMIT_KB KB (default
# 1048576, 1 GB). A compile still running after KILL_S (default 120)
# seconds is stopped and counted over. Exit 1 if any game is over a limit
# or fails.
#   GDLC (default build/gdlc; a name without a slash is looked up on PATH).
# The current run is kept in bench/results/compile-sweep.txt
# (bench/results/README.md).
set -u
here=$(pwd)
shared=${1:-${GDL_SHARED:-}}
gdlc=${GDLC:-build/gdlc}
case $gdlc in
*/*) case $gdlc in /*) ;; *) gdlc=$here/$gdlc ;; esac ;;
*) gdlc=$(command -v "$gdlc") || gdlc= ;;
esac
case $shared in
'') ;;
/*) ;;
*) shared=$here/$shared ;;
esac
cd "$(dirname "$0")/.."
shared=${shared:-$(cd .. && pwd)/shared}
manifest=$shared/games/MANIFEST.tsv
[ -f "$manifest" ] || { echo "no corpus at $shared"; exit 2; }
[ -n "$gdlc" ] && [ -x "$gdlc" ] || { echo "no gdlc at ${GDLC:-build/gdlc} (build it, or set GDLC)"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time (Debian: apt-get install time)"; exit 2; }
command -v timeout >/dev/null || { echo "needs timeout (coreutils)"; exit 2; }
limit_s=${LIMIT_S:-30}
limit_kb=${LIMIT_KB:-1048576}
kill_s=${KILL_S:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
rows=$tmp/rows
: >"$rows"
for path in $(awk -F'\t' 'NR > 1 && ($2 == "ok" || $2 == "truncated") && $9 == "no" { print $1 }' "$manifest"); do
    grep -q "^$path	" tests/frontend/corpus-rejected.tsv && continue
    rm -f "$tmp/t"
    /usr/bin/time -f '%e %M' -o "$tmp/t" timeout -s KILL "$kill_s" "$gdlc" compile "$shared/games/$path" -o "$tmp/g.so" \
        >/dev/null 2>"$tmp/err"
    rc=$?
    # the last line: a killed command's report starts with a line of its own
    set -- $(tail -1 "$tmp/t" 2>/dev/null)
    s=${1:-0} kb=${2:-0}
    printf '%s\t%s\t%s\t%s\n' "$path" "$s" "$kb" "$rc" | tee -a "$rows"
    rm -f "$tmp/g.so"
done
n=$(wc -l <"$rows")
echo "games: $n"
echo "slowest:"; sort -t'	' -k2 -g -r "$rows" | head -3 | awk -F'\t' '{ printf "  %s %.2f s %d KB\n", $1, $2, $3 }'
echo "largest:"; sort -t'	' -k3 -g -r "$rows" | head -3 | awk -F'\t' '{ printf "  %s %.2f s %d KB\n", $1, $2, $3 }'
over=$(awk -F'\t' -v s="$limit_s" -v k="$limit_kb" '$2 > s || $3 > k || $4 != 0' "$rows")
if [ -n "$over" ]; then
    echo "over ${limit_s} s or ${limit_kb} KB, or failed (game, s, KB, exit status):"
    echo "$over" | sed 's/^/  /'
    exit 1
fi
echo "every game compiled in under ${limit_s} s and ${limit_kb} KB"
