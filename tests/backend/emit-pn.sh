#!/bin/sh
# emit-pn.sh GDLC SRCDIR: the C of engine pn:compiled (`gdlc emit --pn`,
# backend/pncg.c):
#  - tests/backend/emit-pn/*.kif against golden files (UPDATE_GOLDEN=1 refreshes
#    them): flip (every component compiled, a NOT), reach (a cyclic SCC
#    left to the tables, its inputs counted and marked);
#  - the same bytes twice;
#  - no warning from `cc -std=c11 -O2 -Wall -Wextra -Werror` or `tcc -Wall
#    -Werror` on those and on the shipped games that fit the line budget;
#  - a game past the budget is refused with the estimate and the budget.
set -u
gdlc=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for kif in "$src"/tests/backend/emit-pn/*.kif; do
    name=$(basename "$kif" .kif)
    sh "$src/tests/lib/golden.sh" "$gdlc" "$src/tests/backend/emit-pn" "$name" emit --pn "$name.kif" || fail=1
done
for kif in "$src"/tests/backend/emit-pn/*.kif "$src"/games/tictactoe.kif "$src"/games/connect4.kif; do
    "$gdlc" emit --pn "$kif" >"$tmp/a.c" 2>"$tmp/err" || { echo "FAIL: emit --pn $kif"; cat "$tmp/err"; fail=1; continue; }
    "$gdlc" emit --pn "$kif" >"$tmp/b.c" 2>/dev/null
    cmp -s "$tmp/a.c" "$tmp/b.c" || { echo "FAIL: emit --pn $kif differs between runs"; fail=1; }
    if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -fPIC -c "$tmp/a.c" -o "$tmp/a.o" 2>"$tmp/err"; then
        echo "FAIL: ${CC:-cc} warns on the pn C of $kif:"; head -20 "$tmp/err"; fail=1
    fi
    if command -v tcc >/dev/null; then
        if ! tcc -Wall -Werror -c "$tmp/a.c" -o "$tmp/t.o" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
            echo "FAIL: tcc warns on the pn C of $kif:"; head -20 "$tmp/err"; fail=1
        fi
    fi
done
# past the budget (breakthrough: 116,000 links)
"$gdlc" emit --pn "$src/games/breakthrough.kif" >"$tmp/a.c" 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q "more than the budget of 20000 (max-lines=N)" "$tmp/err"; then
    echo "FAIL: emit --pn of breakthrough should be refused past the budget (exit $rc):"; cat "$tmp/err"; fail=1
fi
[ $fail -eq 0 ] && echo "ok: the C of pn:compiled"
exit $fail
