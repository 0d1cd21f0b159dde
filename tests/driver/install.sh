#!/bin/sh
# install.sh BUILD SRC: cmake --install into a temporary prefix, then build
# the embedding examples against it with the build line their comments
# give, and run them.
set -eu
build=$1 src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
for ex in random_player mc_player; do
    # the line in the example's comment, as written there
    line=$(grep -E '^ \*   cc ' "$src/examples/$ex.c" | sed 's/^ \*   //; s/ *\*\/$//')
    [ -n "$line" ] || { echo "install: no build line in examples/$ex.c"; exit 1; }
    (cd "$src/examples" && eval "$line -o \"$prefix/$ex\"")
done
"$prefix/random_player" "$src/games/tictactoe.kif" > "$prefix/out"
grep -q '^xplayer scores ' "$prefix/out"
# flat Monte-Carlo as xplayer against a random oplayer, on ref and jit
for engine in ref jit; do
    "$prefix/mc_player" "$src/games/tictactoe.kif" XPlayer 20 $engine > "$prefix/mc-$engine"
    grep -q '^oplayer scores ' "$prefix/mc-$engine"
    score=$(sed -n 's/^xplayer scores //p' "$prefix/mc-$engine")
    [ "$score" -ge 50 ] || { echo "install: mc_player lost to a random player on $engine"; cat "$prefix/mc-$engine"; exit 1; }
done
cmp "$prefix/mc-ref" "$prefix/mc-jit"
[ -x "$prefix/bin/gdlc" ] && [ -f "$prefix/include/gdl.h" ]
echo "install: 1 passed, 0 failed"
