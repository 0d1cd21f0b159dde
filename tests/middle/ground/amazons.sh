#!/bin/sh
# amazons.sh GDLC SHARED: one-move amazons (a move is a queen's move and an
# arrow: millions of them in the relaxed domain) must stop at a grounding
# budget with a message naming the relation, in a few seconds, not exhaust
# memory. Without the corpus: a visible skip (exit 77), or a failure when
# CI=true.
set -u
gdlc=$1 shared=$2
game=$shared/games/ggp-repository/amazons.kif
if ! [ -f "$game" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: the shared corpus is missing at $shared (set GDL_SHARED)"
        exit 1
    fi
    echo "SKIP: the shared corpus is missing at $shared (set GDL_SHARED to run this test)"
    exit 77
fi
start=$(date +%s)
out=$("$gdlc" check -q -w --dump=ground "$game" 2>&1 >/dev/null)
rc=$?
echo "$out (exit $rc, $(($(date +%s) - start)) s)"
[ $rc -eq 1 ] && echo "$out" | grep -q "grounding stopped: .*(max-[a-z]*=[0-9]*).*relation '[^']*'"
