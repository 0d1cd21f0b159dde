#!/bin/sh
# golden.sh GDLC DIR NAME ARGS...: runs `gdlc ARGS...` in DIR and compares
# its stdout, stderr and exit status with DIR/NAME.expected. With
# UPDATE_GOLDEN=1 it rewrites the expected file instead.
set -u
gdlc=$1 dir=$2 name=$3
shift 3
cd "$dir" || exit 2
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
"$gdlc" "$@" >"$actual" 2>&1
echo "exit status: $?" >>"$actual"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$actual" "$name.expected"
    echo "updated $dir/$name.expected"
    exit 0
fi
if ! [ -f "$name.expected" ]; then
    echo "missing $dir/$name.expected (run with UPDATE_GOLDEN=1 to create it)"
    cat "$actual"
    exit 1
fi
if ! diff -u "$name.expected" "$actual"; then
    echo "FAIL: output of 'gdlc $*' differs from $dir/$name.expected (UPDATE_GOLDEN=1 refreshes it)"
    exit 1
fi
