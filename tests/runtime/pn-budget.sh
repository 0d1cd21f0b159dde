#!/bin/sh
# pn-budget.sh GDLC SRC SHARED: engine pn refuses a game past its grounding
# budget in every command, quickly, with the grounder's message (naming the
# relation that grew) and "engine jit plays it", and exit status 1:
#  - tests/runtime/pn/counter.kif, whose domain grows without bound, at the default
#    budgets (the grounder stops at its term depth);
#  - one-move amazons (ggp-repository/amazons.kif in the shared corpus, when
#    present) with pn:max-atoms=20000 (its default budgets take tens of
#    seconds to pass: scripts/conformance.sh runs that);
# and a bad budget is refused as such. perf-test writes errorMessage=; the
# history of correctness-test ends with !E! and !F!.
set -u
gdlc=$1 src=$2 shared=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
bad() { echo "FAIL: $*"; sed 's/^/    /' "$tmp/out" | head -n 8; fail=$((fail + 1)); }
# refused NAME FILE_WITH_MESSAGE RELATION COMMAND...: exit 1 within 20 s, the
# message in FILE_WITH_MESSAGE (the output unless a results file is named)
refused() {
    name=$1 where=$2 rel=$3
    shift 3
    timeout 20 "$@" >"$tmp/out" 2>&1
    got=$?
    [ "$where" = out ] && where=$tmp/out
    if [ $got -eq 124 ]; then bad "$name: still running after 20 s"; return; fi
    if [ $got -ne 1 ]; then bad "$name: exit $got, expected 1"; return; fi
    if ! grep -q "grounding stopped: .*relation '$rel'.*engine jit plays it" "$where"; then
        bad "$name: no message naming relation '$rel' and engine jit in $where"
        [ "$where" = "$tmp/out" ] || sed 's/^/    /' "$where" | head -n 4
        return
    fi
    pass=$((pass + 1))
}
every_command() { # GAME ENGINE RELATION
    game=$1 engine=$2 rel=$3
    refused "play $game" out "$rel" "$gdlc" play "$game" --engine "$engine"
    refused "bench $game" out "$rel" "$gdlc" bench "$game" --engine "$engine" --seconds 0.2
    refused "verify $game" out "$rel" "$gdlc" verify "$game" --engine "$engine"
    rm -f "$tmp/results"
    refused "perf-test $game" "$tmp/results" "$rel" "$gdlc" perf-test --engine "$engine" "$game" "$tmp/results" 1
    grep -q "^errorMessage=" "$tmp/results" || bad "perf-test $game: no errorMessage= line"
    refused "replay $game" out "$rel" "$gdlc" replay "$game" "$tmp/trace" --engine "$engine"
    rm -f "$tmp/history"
    refused "correctness-test $game" "$tmp/history" "$rel" "$gdlc" correctness-test --engine "$engine" "$game" "$tmp/history" 1
    grep -q "^!F!" "$tmp/history" || bad "correctness-test $game: the history does not end with !F!"
}
counter=$src/tests/runtime/pn/counter.kif
"$gdlc" play "$counter" --engine jit -o "$tmp/trace" >/dev/null 2>&1 || bad "jit does not play $counter"
every_command "$counter" pn next
amazons=$shared/games/ggp-repository/amazons.kif
if [ -f "$amazons" ]; then
    every_command "$amazons" pn:max-atoms=20000 input
else
    echo "note: $amazons is missing: the counter only"
fi
# a bad budget: refused with the grounder's reason, the game not grounded
"$gdlc" verify "$counter" --engine pn:max-atoms=lots >"$tmp/out" 2>&1
got=$?
if [ $got -eq 0 ] || ! grep -q "engine pn: max-atoms" "$tmp/out"; then
    bad "pn:max-atoms=lots: exit $got"
else
    pass=$((pass + 1))
fi
echo "pn over budget: $pass checks pass, $fail fail"
[ $fail -eq 0 ]
