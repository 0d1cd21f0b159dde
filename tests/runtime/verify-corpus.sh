#!/bin/sh
# verify-corpus.sh GDLC SHARED ENGINE SECONDS PLAYOUTS [EVERY [FROM [EXCEPT]]]: `gdlc verify`
# of the engine against ref on every corpus game gdlc accepts that
# MANIFEST.tsv marks ok or truncated (and not a known fault), SECONDS at most
# per game; with EVERY, on every EVERY-th of them only (a sample), starting
# FROM places later (default 0), so that two engines can sample other games;
# with EXCEPT 1, on every game but that sample (the plain build's share of
# a corpus the sanitizer build samples: tests/CMakeLists.txt).
# ENGINE batch=N checks the batched playouts of N lanes instead
# (`gdlc verify --batch N`; PLAYOUTS then counts ended playouts).
# An engine that grounds (pn) refuses a game past its grounding budget with
# a message naming the relation and "engine jit plays it": such games are
# counted and listed, not failed.
# Without the corpus: a visible skip (exit 77), or a failure when CI=true.
set -u
gdlc=$1 shared=$2 engine=$3 seconds=$4 playouts=$5 every=${6:-1} from=${7:-0} except=${8:-0}
here=$(dirname "$0")
manifest=$shared/games/MANIFEST.tsv
. "$(dirname "$0")/../lib/need-corpus.sh"
need_corpus "$manifest" "$shared"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
pass=0 fail=0 faulty=0 states=0 budget=0 i=0
case $engine in
batch=*) select="--batch ${engine#batch=}" ;;
*) select="--engine $engine" ;;
esac
for path in $(awk -F'\t' 'NR > 1 && ($2 == "ok" || $2 == "truncated") && $9 == "no" { print $1 }' "$manifest"); do
    if grep -q "^$path	" "$here/../frontend/corpus-rejected.tsv"; then continue; fi
    i=$((i + 1))
    in=$(((i - 1 + every - from % every) % every == 0))
    if [ "$in" = "$except" ]; then continue; fi
    # shellcheck disable=SC2086
    "$gdlc" verify "$shared/games/$path" $select --playouts "$playouts" --seconds "$seconds" >"$out" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && grep -q "agrees with ref, but every playout ([0-9]*) ended in a game fault both report" "$out"; then
        # a faulty game (merrills has two goal values from its first state):
        # the engines agree on the fault, which is all there is to check
        faulty=$((faulty + 1))
    elif [ $rc -eq 1 ] && grep -q "grounding stopped: .*relation '[^']*'.*; engine jit plays it" "$out"; then
        budget=$((budget + 1))
        echo "over budget: $path: $(grep -o "grounding stopped: [^;]*" "$out" | head -n 1)"
    elif [ $rc -le 1 ] && grep -q "the batch agrees with ref until a game fault both report" "$out"; then
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
sample=
[ "$every" -gt 1 ] && sample=", every ${every}th game from game $((from % every + 1))"
[ "$every" -gt 1 ] && [ "$except" = 1 ] && sample=", all but every ${every}th game from game $((from % every + 1))"
echo "verify ($engine, ${seconds}s and $playouts playouts per game$sample): $pass games agree ($states states), $faulty agree on a fault every playout reaches, $budget over the grounding budget, $fail differ"
[ $fail -eq 0 ]
