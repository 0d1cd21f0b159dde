#!/bin/sh
# symbols.sh LIBGDL LIBTCC: libtcc.a exports its internals (sym_find,
# sym_free, ...); no global of libgdl.a may share a name with them, or
# players linking both get duplicate definitions.
set -eu
ours=$(mktemp) theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT
nm -g --defined-only "$1" 2>/dev/null | awk '$2 ~ /[TDBRC]/ { print $3 }' | sort -u >"$ours"
nm -g --defined-only "$2" 2>/dev/null | awk '$2 ~ /[TDBRC]/ { print $3 }' | sort -u >"$theirs"
clash=$(comm -12 "$ours" "$theirs")
if [ -n "$clash" ]; then
    echo "FAIL: libgdl.a defines symbols libtcc.a defines too: $clash"
    exit 1
fi
echo "symbols: $(wc -l <"$ours") globals of libgdl.a checked against libtcc.a: 1 passed, 0 failed"
