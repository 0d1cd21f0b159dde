#!/bin/sh
# bench/pnsweep.sh [SECONDS] [SHARED]: the propositional layer over the whole
# corpus. For every corpus game gdlc accepts that MANIFEST.tsv marks ok or
# truncated (and not a known fault): whether it grounds within the default
# budgets (else the grounder's message, naming the relation), the seconds to
# ground and build the optimised network and the peak memory of doing so
# (`gdlc propnet --json` under /usr/bin/time), the network's size raw and
# optimised, and the state changes per second of `pn` and `jit` for SECONDS
# each (default 1), with their ratio. One tab-separated line per game on
# standard output, then a summary. A benchmark, not a test: it fails only
# when gdlc cannot be run. The current run is kept in
# bench/results/pnsweep.txt (bench/results/README.md).
set -u
cd "$(dirname "$0")/.."
seconds=${1:-1}
shared=${2:-${GDL_SHARED:-$(cd .. && pwd)/shared}}
manifest=$shared/games/MANIFEST.tsv
[ -f "$manifest" ] || { echo "no corpus at $shared"; exit 2; }
[ -x build/gdlc ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
gdlc=build/gdlc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
num() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" | head -n 1; }
printf 'game\tstatus\tbuild_s\tpeak_kb\traw_comps\traw_links\topt_comps\topt_links\tpn_per_s\tjit_per_s\tpn/jit\n'
for path in $(awk -F'\t' 'NR > 1 && ($2 == "ok" || $2 == "truncated") && $9 == "no" { print $1 }' "$manifest"); do
    grep -q "^$path	" tests/frontend/corpus-rejected.tsv && continue
    g=$shared/games/$path
    /usr/bin/time -f '%M' -o "$tmp/time" "$gdlc" propnet --json "$g" >"$tmp/pn" 2>"$tmp/err"
    rc=$?
    kb=$(tail -n 1 "$tmp/time")
    if [ $rc -ne 0 ]; then
        why=$(grep -v '^Command exited' "$tmp/err" | head -n 1 | tr '\t' ' ')
        printf '%s\tover budget\t\t%s\t\t\t\t\t\t\t\t%s\n' "$path" "$kb" "$why"
        continue
    fi
    # the JSON is one line: raw then optimised sizes, in that order
    build=$(sed -n 's/.*"build_seconds":\([0-9.e+-]*\).*/\1/p' "$tmp/pn")
    opt=$(sed -n 's/.*"optimise_seconds":\([0-9.e+-]*\).*/\1/p' "$tmp/pn")
    rc_=$(sed -n 's/.*"raw":{"components":\([0-9]*\),"links":\([0-9]*\).*/\1 \2/p' "$tmp/pn")
    oc_=$(sed -n 's/.*"optimised":{"components":\([0-9]*\),"links":\([0-9]*\).*/\1 \2/p' "$tmp/pn")
    p=$("$gdlc" bench --engine pn --seconds "$seconds" --json "$g" 2>/dev/null | num state_changes_per_s)
    j=$("$gdlc" bench --engine jit --seconds "$seconds" --json "$g" 2>/dev/null | num state_changes_per_s)
    awk -v path="$path" -v b="$build" -v o="$opt" -v kb="$kb" -v r="$rc_" -v oc="$oc_" -v p="${p:-}" -v j="${j:-}" 'BEGIN {
        split(r, R, " "); split(oc, O, " ")
        ratio = (p != "" && j != "" && j > 0) ? sprintf("%.2f", p / j) : ""
        printf "%s\tok\t%.3f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", path, b + o, kb, R[1], R[2], O[1], O[2],
               (p == "" ? "fault" : sprintf("%.0f", p)), (j == "" ? "fault" : sprintf("%.0f", j)), ratio }'
done >"$tmp/rows"
cat "$tmp/rows"
awk -F'\t' '
    { n++ }
    $2 == "ok" { ok++; if ($3 > maxb) { maxb = $3; maxg = $1 } if ($4 > maxkb) { maxkb = $4; maxkg = $1 } }
    $11 != "" { r[++nr] = $11; if ($11 >= 1) faster++ }
    END {
        printf "== %d games: %d ground within the default budgets (%.1f%%), %d over a budget\n", n, ok, 100 * ok / n, n - ok
        printf "== slowest ground and build: %.3f s (%s); largest peak memory: %d KB (%s)\n", maxb, maxg, maxkb, maxkg
        if (nr) {
            # median of the pn/jit ratios
            for (i = 1; i <= nr; i++) for (k = i + 1; k <= nr; k++) if (r[k] < r[i]) { t = r[i]; r[i] = r[k]; r[k] = t }
            printf "== pn against jit on %d games: pn faster on %d; median ratio %.2f, lowest %.2f, highest %.2f\n",
                   nr, faster, (nr % 2 ? r[(nr + 1) / 2] : (r[nr / 2] + r[nr / 2 + 1]) / 2), r[1], r[nr]
        }
    }' "$tmp/rows"
