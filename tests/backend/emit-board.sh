#!/bin/sh
# emit-board.sh GDLC SRC: the C of engine board (`gdlc emit --engine
# board`, backend/bg.c), held to what tests/backend/emit.sh holds the
# goal-directed C to, for the shipped games it compiles (tic-tac-toe,
# Connect Four, Breakthrough, the 15-puzzle: it declines the others, the
# one-move Amazons after some 30 s) and those of tests/runtime/board/:
#  - deterministic: two runs give the same bytes;
#  - warning-free: it compiles under `cc -std=c11 -O2 -Wall -Wextra
#    -Werror` and `tcc -Wall -Werror`;
# and a game the board declines exits 1 naming the reason. Each game the
# board compiles is counted; none fails the test.
set -u
gdlc=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 compiled=0 declined=0
for kif in "$src"/games/tictactoe.kif "$src"/games/connect4.kif "$src"/games/breakthrough.kif \
           "$src"/games/fifteenPuzzle.kif "$src"/tests/runtime/board/*.kif; do
    mkdir -p "$tmp/1" "$tmp/2"
    (cd "$tmp/1" && "$gdlc" emit --engine board "$kif" -o a.c 2>"$tmp/err")
    rc=$?
    if [ $rc -eq 1 ] && grep -q "^gdlc emit: .*: " "$tmp/err"; then
        declined=$((declined + 1))
        continue
    elif [ $rc -ne 0 ]; then
        echo "FAIL: emit --engine board $kif: exit $rc"; head -5 "$tmp/err"; fail=1; continue
    fi
    compiled=$((compiled + 1))
    (cd "$tmp/2" && "$gdlc" emit --engine board "$kif" -o a.c) || { echo "FAIL: emit $kif again"; fail=1; continue; }
    cmp -s "$tmp/1/a.c" "$tmp/2/a.c" || { echo "FAIL: two emits of $kif differ"; fail=1; }
    cp "$tmp/1/a.c" "$tmp/a.c"
    if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -fPIC -c "$tmp/a.c" -o "$tmp/a.o" 2>"$tmp/err"; then
        echo "FAIL: ${CC:-cc} warns on the board's C of $kif:"; grep -E 'error|warning' "$tmp/err" | head -20; fail=1
    fi
    if command -v tcc >/dev/null; then
        if ! tcc -Wall -Werror -c "$tmp/a.c" -o "$tmp/t.o" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
            echo "FAIL: tcc warns on the board's C of $kif:"; head -20 "$tmp/err"; fail=1
        fi
    fi
done
echo "emit-board: $compiled games compiled by the board, $declined declined"
[ $compiled -gt 0 ] || { echo "FAIL: the board compiled none of the games"; fail=1; }
[ $fail -eq 0 ] && echo "emit-board: deterministic and warning-free"
exit $fail
