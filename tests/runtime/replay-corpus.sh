#!/bin/sh
# replay-corpus.sh GDLC SHARED SECONDS [ENGINE [EVERY [EXCEPT]]]: replays every
# trace of SHARED/traces on the engine (default ref), at most SECONDS per
# trace (0: no cap), two at a time; with EVERY, every EVERY-th trace only (a
# sample), from the first; with EXCEPT 1, every trace but that sample (the
# plain build's share of a corpus the sanitizer build samples).
# An engine that grounds (pn) refuses a game past its grounding budget with
# a message naming the relation and "engine jit plays it": such traces are
# counted, not failed. The traces listed in replay-expected-divergences.tsv
# must diverge exactly as listed there. Traces of games gdlc rejects (check
# exits 1) are skipped (the corpus test checks those rejections); any other
# status of check fails (a gdlc that cannot run, or is being rebuilt, would
# otherwise skip every trace). Prints each failure and a summary;
# fails on any divergence. Without the corpus: a visible skip (exit 77), or
# a failure when CI=true.
set -u
gdlc=$1 shared=$2 seconds=$3 engine=${4:-ref} every=${5:-1} except=${6:-0}
if ! [ -d "$shared/traces" ]; then
    if [ "${CI:-}" = true ]; then echo "FAIL: no traces at $shared/traces"; exit 1; fi
    echo "SKIP: no traces at $shared/traces (set GDL_SHARED)"; exit 77
fi
results=$(mktemp)
trap 'rm -f "$results"' EXIT
expected=$(dirname "$0")/replay-expected-divergences.tsv
export GDLC="$gdlc" SHARED="$shared" SECONDS_CAP="$seconds" ENGINE="$engine" EXPECTED="$expected"
find "$shared/traces" -name '*.trace' | sort | awk -v n="$every" -v x="$except" '((NR - 1) % n == 0) != (x == 1)' | xargs -P 2 -n 1 sh -c '
    t=$1
    rel=${t#"$SHARED/traces/"}
    game="$SHARED/games/$(echo "$rel" | sed "s/\.s[0-9]*\.trace\$/.kif/")"
    "$GDLC" check -q -w "$game" >/dev/null 2>&1
    rc=$?
    if [ $rc -eq 1 ]; then echo "REJECTED $rel"; exit 0; fi
    if [ $rc -ne 0 ]; then echo "FAIL $rel: gdlc check exits $rc"; exit 0; fi
    out=$("$GDLC" replay --engine "$ENGINE" --seconds "$SECONDS_CAP" "$game" "$t" 2>&1 </dev/null)
    rc=$?
    want=$(awk -F"\t" -v p="$rel" '"'"'$1 == p { print $2 }'"'"' "$EXPECTED" | sed "s/ENGINE/${ENGINE%%:*}/")
    if [ -n "$want" ]; then
        case "$out" in
        *"$want"*) [ $rc -eq 1 ] && { echo "PASS $rel (the known difference)"; exit 0; } ;;
        esac
        echo "FAIL $rel: expected the known divergence \"$want\" (tests/runtime/known-differences.md)"
        echo "$out" | head -n 8 | sed "s/^/    /"; exit 0
    fi
    if [ $rc -eq 1 ] && echo "$out" | grep -q "grounding stopped: .*relation '"'"'[^'"'"']*'"'"'.*; engine jit plays it"; then
        echo "BUDGET $rel"
    elif [ $rc -ne 0 ]; then
        echo "FAIL $rel (exit $rc)"; echo "$out" | head -n 8 | sed "s/^/    /"
    elif echo "$out" | grep -q "agrees until the time cap"; then echo "CAPPED $rel"
    else echo "PASS $rel"; fi
' sh > "$results"
grep -A8 '^FAIL' "$results"
pass=$(grep -c '^PASS' "$results"); capped=$(grep -c '^CAPPED' "$results")
fail=$(grep -c '^FAIL' "$results"); rejected=$(grep -c '^REJECTED' "$results")
budget=$(grep -c '^BUDGET' "$results")
sample=
[ "$every" -gt 1 ] && sample=", every ${every}th trace"
[ "$every" -gt 1 ] && [ "$except" = 1 ] && sample=", all but every ${every}th trace"
echo "replay ($engine, cap ${seconds}s$sample): $((pass + capped)) passed, $fail failed ($capped of the passed stopped at the cap; $rejected traces of rejected games skipped; $budget of games past the grounding budget)"
[ "$fail" -eq 0 ]
