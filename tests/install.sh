#!/bin/sh
# install.sh BUILD SRC: cmake --install into a temporary prefix, then build
# the embedding example against it with pkg-config, and run it.
set -eu
build=$1 src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc -std=c11 -o "$prefix/random_player" "$src/examples/random_player.c" $(pkg-config --cflags --libs --static gdl)
"$prefix/random_player" "$src/games/tictactoe.kif" > "$prefix/out"
grep -q '^xplayer scores ' "$prefix/out"
[ -x "$prefix/bin/gdlc" ] && [ -f "$prefix/include/gdl.h" ]
echo "install: 1 passed, 0 failed"
