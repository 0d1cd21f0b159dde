#!/bin/sh
# analyze-corpus.sh GDLC SHARED [MAX_STATES [SECONDS]]: gdlc analyze --check
# MAX_STATES (default 20000) on every accepted corpus game, SECONDS (default
# 60) at most each. A game with at most MAX_STATES reachable states is
# checked over all of them; a larger one along seeded random playthroughs.
# Fails on any unsound claim; games past the grounding budget or the time
# are counted and listed, not failed. One summary line at the end, with the
# true single latches missed over the enumerated games.
# Without the corpus: a visible skip (exit 77), or a failure when CI=true.
set -u
gdlc=$1 shared=$2 max=${3:-20000} secs=${4:-60}
manifest=$shared/games/MANIFEST.tsv
if ! [ -f "$manifest" ]; then
    if [ "${CI:-}" = true ]; then echo "FAIL: the shared corpus is missing at $shared (set GDL_SHARED)"; exit 1; fi
    echo "SKIP: the shared corpus is missing at $shared (set GDL_SHARED to run this test)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
full=0 sampled=0 unsound=0 nogrounding=0 slow=0 other=0 truth=0 missed=0
for p in $(awk -F'\t' 'NR > 1 && $2 == "ok" { print $1 }' "$manifest"); do
    timeout "$secs" "$gdlc" analyze --check "$max" "$shared/games/$p" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if grep -q "unsound claim" "$tmp/err"; then
        unsound=$((unsound + 1))
        echo "UNSOUND: $p"
        sed 's/^/    /' "$tmp/err" | head -n 12
    elif [ $rc -eq 124 ]; then
        slow=$((slow + 1))
        echo "slow: $p (over $secs s)"
    elif grep -q "grounding stopped" "$tmp/err"; then
        nogrounding=$((nogrounding + 1))
    elif [ $rc -ne 0 ]; then
        other=$((other + 1))
        echo "failed: $p (exit $rc): $(head -n 1 "$tmp/err")"
    elif grep -q "all enumerated" "$tmp/out"; then
        full=$((full + 1))
        line=$(grep "check: completeness" "$tmp/out")
        t=$(echo "$line" | sed 's/.*: \([0-9]*\) true single latches.*/\1/')
        m=$(echo "$line" | sed 's/.* found, \([0-9]*\) missed.*/\1/')
        truth=$((truth + t)) missed=$((missed + m))
        echo "checked: $p: $(grep -o '[0-9]* reachable states' "$tmp/out"), $m of $t true latches missed"
    else
        sampled=$((sampled + 1))
    fi
done
echo "analyze (check $max): $full games enumerated, $sampled checked along playthroughs, $unsound unsound," \
     "$nogrounding past the grounding budget, $slow over $secs s, $other failed; $missed of $truth true" \
     "single latches missed"
[ $unsound -eq 0 ] && [ $other -eq 0 ]
