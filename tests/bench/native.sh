#!/bin/sh
# native.sh GDLC SRC [SHARED]: the hand-written baselines of bench/native
# play the GDL games they claim to: along seeded playthroughs driven by the
# same random choices as `gdlc play`, the number of legal moves of every
# role at every step, and the goals at the end, are the same.
# Without SHARED: our games (SRC/games/). With SHARED: the corpus files of
# SHARED/games/ggp-repository the peers are measured on; without the corpus
# a visible skip (exit 77), or a failure when CI=true.
set -u
gdlc=$1 src=$2 shared=${3:-}
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
# check BASELINE KIF SEEDS...: bench/native/BASELINE.c against KIF.
check() {
    base=$1 kif=$2
    shift 2
    ${CC:-cc} -O2 -o "$tmp/native_$base" "$src/bench/native/$base.c" || { echo "FAIL: build $base"; fail=1; return; }
    for seed in "$@"; do
        "$tmp/native_$base" --counts $seed >"$tmp/native" &&
            "$gdlc" play --seed $seed -o "$tmp/trace" "$kif" || { echo "FAIL: $base seed $seed: run"; fail=1; continue; }
        counts "$tmp/trace" >"$tmp/gdl"
        if cmp -s "$tmp/native" "$tmp/gdl" && [ -s "$tmp/gdl" ]; then
            echo "$base seed $seed: $(grep -c '^step' "$tmp/gdl") legal move counts and the goals ($(tail -n 1 "$tmp/gdl")) agree"
        else
            echo "FAIL: $base seed $seed: the native baseline and gdlc differ:"
            diff "$tmp/native" "$tmp/gdl" | head -5
            fail=1
        fi
    done
}
if [ -z "$shared" ]; then
    for game in reversi amazons_split; do
        check $game "$src/games/$game.kif" 1 2 3
    done
    exit $fail
fi
corpus=$shared/games/ggp-repository
if ! [ -f "$corpus/reversi.kif" ] || ! [ -f "$corpus/connectFour.kif" ] || ! [ -f "$corpus/breakthrough.kif" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: the shared corpus is missing at $shared (set GDL_SHARED)"
        exit 1
    fi
    echo "SKIP: the shared corpus is missing at $shared (set GDL_SHARED to run this test)"
    exit 77
fi
# Seeds 1 to 10, and one that ends in a draw (50 each): 16 for Reversi (equal
# discs), 766 for Connect Four (a full board).
check reversi_corpus "$corpus/reversi.kif" 1 2 3 4 5 6 7 8 9 10 16
check connectFour "$corpus/connectFour.kif" 1 2 3 4 5 6 7 8 9 10 766
check breakthrough "$corpus/breakthrough.kif" 1 2 3 4 5 6 7 8 9 10
exit $fail
