#!/bin/sh
# so.sh GDLC SRC SHARED: the ahead-of-time engines.
#  - gdlc compile makes a shared object that --engine so:PATH plays exactly
#    like ref (gdlc verify), for a few games: ours, and the corpus's Reversi
#    and left-recursive Amazons variant when the corpus is there;
#  - a shared object of another game, or one that is no gdlc engine, is
#    refused with a clear message;
#  - engine aot compiles once into $XDG_CACHE_HOME/gdlc and reuses it.
set -u
gdlc=$1 src=$2 shared=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
games="$src/games/tictactoe.kif $src/games/amazons_split_leftrec.kif"
for g in reversi.kif; do
    [ -f "$shared/games/ggp-repository/$g" ] && games="$games $shared/games/ggp-repository/$g"
done
[ -f "$shared/games/variants/amazons_10x10_leftrec.kif" ] && games="$games $shared/games/variants/amazons_10x10_leftrec.kif"
for g in $games; do
    name=$(basename "$g" .kif)
    if ! "$gdlc" compile "$g" -o "$tmp/$name.so" 2>"$tmp/err"; then
        echo "FAIL: gdlc compile $g:"; cat "$tmp/err"; fail=1; continue
    fi
    # it says what the long part is before it starts: the C's size, the compiler
    if ! grep -F "gdlc compile: $g: " "$tmp/err" | grep -q ": [0-9]* lines of C ([0-9]* KB) generated in [0-9.]* s; compiling them with "; then
        echo "FAIL: gdlc compile $g printed no progress line:"; cat "$tmp/err"; fail=1
    fi
    if ! "$gdlc" verify "$g" --engine "so:$tmp/$name.so" --playouts 2 --seconds 10 >"$tmp/out" 2>&1; then
        echo "FAIL: so:$name.so differs from ref:"; head -20 "$tmp/out"; fail=1
    else
        cat "$tmp/out"
    fi
done

# Another game's object.
"$gdlc" play "$src/games/connect4.kif" --engine "so:$tmp/tictactoe.so" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q "compiled from another game text" "$tmp/err"; then
    echo "FAIL: loading tictactoe.so for connect4: exit $rc, said:"; cat "$tmp/err"; fail=1
fi
# No gdlc engine at all.
printf 'int not_an_engine;\n' >"$tmp/x.c"
${CC:-cc} -shared -fPIC -o "$tmp/x.so" "$tmp/x.c"
"$gdlc" play "$src/games/tictactoe.kif" --engine "so:$tmp/x.so" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q "not a gdlc engine" "$tmp/err"; then
    echo "FAIL: loading a foreign object: exit $rc, said:"; cat "$tmp/err"; fail=1
fi
# A missing file: unreadable, exit 2.
"$gdlc" play "$src/games/tictactoe.kif" --engine "so:$tmp/missing.so" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q "cannot load" "$tmp/err"; then
    echo "FAIL: loading a missing object: exit $rc, said:"; cat "$tmp/err"; fail=1
fi

# aot: the first run fills the cache (the goal-directed code and the
# board's, which aot times against the network's tables; the network
# itself is not compiled), the second reuses it.
export XDG_CACHE_HOME="$tmp/cache"
"$gdlc" play "$src/games/tictactoe.kif" --engine aot >"$tmp/p1" 2>&1 || { echo "FAIL: aot play"; cat "$tmp/p1"; fail=1; }
n1=$(ls "$tmp/cache/gdlc" 2>/dev/null | wc -l)
touch -d '2000-01-01' "$tmp/cache/gdlc"/*.so 2>/dev/null
"$gdlc" play "$src/games/tictactoe.kif" --engine aot >"$tmp/p2" 2>&1 || { echo "FAIL: aot play (cached)"; fail=1; }
n2=$(ls "$tmp/cache/gdlc" | wc -l)
if [ "$n1" != 2 ] || [ "$n2" != 2 ] || ! cmp -s "$tmp/p1" "$tmp/p2"; then
    echo "FAIL: aot cache: $n1 then $n2 objects, playthroughs equal: $(cmp -s "$tmp/p1" "$tmp/p2" && echo yes || echo no)"; fail=1
fi
if [ -n "$(find "$tmp/cache/gdlc" -name '*.so' -newer "$tmp/p1")" ]; then
    echo "FAIL: aot compiled again instead of reusing $(ls "$tmp/cache/gdlc")"; fail=1
fi
"$gdlc" play "$src/games/tictactoe.kif" --engine ref >"$tmp/p3" 2>&1
grep -v '^; engine' "$tmp/p1" >"$tmp/q1"
grep -v '^; engine' "$tmp/p3" >"$tmp/q3"
cmp -s "$tmp/q1" "$tmp/q3" || { echo "FAIL: aot and ref play differently"; fail=1; }
[ $fail -eq 0 ] && echo "so/aot: all good"
exit $fail
