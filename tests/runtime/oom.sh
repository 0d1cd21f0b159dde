#!/bin/sh
# oom.sh GDLC SRC: a game whose facts double every step, played in a process
# whose address space is capped (ulimit -v), runs out of memory: every engine
# must end with a message naming it and exit 1, never abort (134) or die on
# a signal. Not in sanitizer builds (they reserve terabytes of address space).
set -u
gdlc=$1 src=$2
fail=0 pass=0
for engine in ref jit; do
    out=$( (ulimit -v 150000 && "$gdlc" play --engine "$engine" "$src/tests/runtime/limits/grow.kif" >/dev/null) 2>&1)
    st=$?
    if [ "$st" -ne 1 ]; then
        echo "FAIL: $engine: exit $st, expected 1"
        echo "$out" | tail -n 3 | sed 's/^/    /'
        fail=$((fail + 1))
    elif ! echo "$out" | grep -q 'out of memory'; then
        echo "FAIL: $engine: the message does not say 'out of memory':"
        echo "$out" | tail -n 3 | sed 's/^/    /'
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done
echo "oom: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
