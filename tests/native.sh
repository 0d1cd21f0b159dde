#!/bin/sh
# native.sh GDLC SRC: the hand-written baselines of bench/native play the
# GDL games they claim to: along seeded playthroughs driven by the same
# random choices as `gdlc play`, the number of legal moves of every role at
# every step, and the goals at the end, are the same.
set -u
gdlc=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# The number of moves on each (legal ROLE m1 m2 ...) line, and the goals.
counts() {
    awk '
    /^\(step / { step = $2; sub(/\)/, "", step); role = 0 }
    /^\(legal / {
        line = substr($0, 8); depth = 0; n = -1; inatom = 0
        for (i = 1; i <= length(line); i++) {
            ch = substr(line, i, 1)
            if (ch == "(") { if (depth == 0) n++; depth++; inatom = 0 }
            else if (ch == ")") { depth--; inatom = 0 }
            else if (ch == " ") { inatom = 0 }
            else if (depth == 0 && !inatom) { n++; inatom = 1 }
        }
        printf "step %s role %d moves %d\n", step, role, n; role++
    }
    /^\(goals / { g = $0; gsub(/[()]/, "", g); print g }' "$1"
}
for game in reversi amazons_split; do
    ${CC:-cc} -O2 -o "$tmp/native_$game" "$src/bench/native/$game.c" || { echo "FAIL: build $game"; fail=1; continue; }
    for seed in 1 2 3; do
        "$tmp/native_$game" --counts $seed >"$tmp/native" &&
            "$gdlc" play --seed $seed -o "$tmp/trace" "$src/games/$game.kif" || { echo "FAIL: $game seed $seed: run"; fail=1; continue; }
        counts "$tmp/trace" >"$tmp/gdl"
        if cmp -s "$tmp/native" "$tmp/gdl" && [ -s "$tmp/gdl" ]; then
            echo "$game seed $seed: $(grep -c '^step' "$tmp/gdl") legal move counts and the goals agree"
        else
            echo "FAIL: $game seed $seed: the native baseline and gdlc differ:"
            diff "$tmp/native" "$tmp/gdl" | head -5
            fail=1
        fi
    done
done
exit $fail
