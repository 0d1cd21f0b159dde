#!/bin/sh
# ground-corpus.sh GDLC SHARED SECONDS PLAYOUTS STRIDE: `gdlc verify GAME
# --engine ref:ground` (the ground program against the original, on ref) on
# every STRIDE-th corpus game gdlc accepts that MANIFEST.tsv marks ok or
# truncated (and not a known fault); STRIDE 1 is the whole corpus (what
# scripts/conformance.sh runs). A game past the default grounding budget must
# say so, naming the relation that grew: it is counted and listed, not
# failed. Any divergence, or a failure without that message, fails.
# Without the corpus: a visible skip (exit 77), or a failure when CI=true.
set -u
gdlc=$1 shared=$2 seconds=$3 playouts=$4 stride=$5
here=$(dirname "$0")
manifest=$shared/games/MANIFEST.tsv
. "$(dirname "$0")/../lib/need-corpus.sh"
need_corpus "$manifest" "$shared"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
pass=0 fail=0 faulty=0 limit=0 states=0 k=0 limited=""
for path in $(awk -F'\t' 'NR > 1 && ($2 == "ok" || $2 == "truncated") && $9 == "no" { print $1 }' "$manifest"); do
    if grep -q "^$path	" "$here/../frontend/corpus-rejected.tsv"; then continue; fi
    k=$((k + 1))
    [ $(((k - 1) % stride)) -eq 0 ] || continue
    "$gdlc" verify "$shared/games/$path" --engine ref:ground --playouts "$playouts" --seconds "$seconds" >"$out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q "grounding stopped: .*relation '[^']*'" "$out"; then
        limit=$((limit + 1))
        limited="$limited $path"
    elif [ $rc -eq 1 ] && grep -q "agrees with ref, but every playout ([0-9]*) ended in a game fault both report" "$out"; then
        faulty=$((faulty + 1))
    elif [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        n=$(sed -n 's/.* \([0-9][0-9]*\) states checked.*/\1/p' "$out" | tail -n 1)
        states=$((states + ${n:-0}))
    else
        fail=$((fail + 1))
        echo "FAIL: $path (exit $rc):"
        head -n 12 "$out"
    fi
done
[ $limit -eq 0 ] || echo "past the grounding budget (the relation named):$limited"
echo "ground (ref:ground against ref, every ${stride}th game, ${seconds}s and $playouts playouts per game):" \
     "$pass games agree ($states states), $faulty agree on a fault every playout reaches," \
     "$limit past the budget, $fail differ or fail"
[ $fail -eq 0 ]
