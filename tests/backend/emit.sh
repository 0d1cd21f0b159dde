#!/bin/sh
# emit.sh GDLC SRC: the generated C.
#  - golden: for each tests/backend/emit/NAME.kif, the game's part of `gdlc emit
#    --no-lines` (from the line "==== the game ====" to "==== end of the
#    game ====") must equal
#    tests/backend/emit/NAME.c.expected; UPDATE_GOLDEN=1 rewrites them;
#  - --game: prints exactly that part;
#  - deterministic: two runs give the same bytes;
#  - warning-free: the whole file, for those games and for games/*.kif,
#    compiles under `cc -O2 -Wall -Wextra -Werror` and `tcc -Wall -Werror`.
set -u
gdlc=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for kif in "$src"/tests/backend/emit/*.kif; do
    name=$(basename "$kif" .kif)
    (cd "$src/tests/backend/emit" && "$gdlc" emit --no-lines "$name.kif") >"$tmp/$name.c" || { echo "FAIL: emit $name"; fail=1; continue; }
    sed -n '/==== the game ====/,/==== end of the game ====/p' "$tmp/$name.c" >"$tmp/$name.game"
    (cd "$src/tests/backend/emit" && "$gdlc" emit --no-lines --game "$name.kif") >"$tmp/$name.only" &&
        cmp -s "$tmp/$name.game" "$tmp/$name.only" && [ -s "$tmp/$name.only" ] ||
        { echo "FAIL: emit --game $name is not the game's part of emit"; fail=1; }
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$tmp/$name.game" "$src/tests/backend/emit/$name.c.expected"
        echo "updated tests/backend/emit/$name.c.expected"
    elif ! diff -u "$src/tests/backend/emit/$name.c.expected" "$tmp/$name.game"; then
        echo "FAIL: the C of tests/backend/emit/$name.kif changed (UPDATE_GOLDEN=1 refreshes the expected file)"
        fail=1
    fi
done
for kif in "$src"/tests/backend/emit/*.kif "$src"/games/*.kif; do
    name=$(basename "$kif" .kif)
    mkdir -p "$tmp/1" "$tmp/2"
    (cd "$tmp/1" && "$gdlc" emit "$kif" -o a.c) && (cd "$tmp/2" && "$gdlc" emit "$kif" -o a.c) ||
        { echo "FAIL: emit $kif"; fail=1; continue; }
    cmp -s "$tmp/1/a.c" "$tmp/2/a.c" || { echo "FAIL: two emits of $kif differ"; fail=1; }
    cp "$tmp/1/a.c" "$tmp/a.c"
    if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -fPIC -c "$tmp/a.c" -o "$tmp/a.o" 2>"$tmp/err"; then
        echo "FAIL: ${CC:-cc} warns on the C of $kif:"; head -20 "$tmp/err"; fail=1
    fi
    if command -v tcc >/dev/null; then
        if ! tcc -Wall -Werror -c "$tmp/a.c" -o "$tmp/t.o" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
            echo "FAIL: tcc warns on the C of $kif:"; head -20 "$tmp/err"; fail=1
        fi
    fi
done
[ $fail -eq 0 ] && echo "emit: golden, deterministic and warning-free"
exit $fail
