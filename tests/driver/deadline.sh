#!/bin/sh
# deadline.sh GDLC SRC [sanitize]: timed commands stop at their deadline even
# when a single query runs away. tests/driver/deadline/runaway.kif cubes its facts
# every step, so its third next state never ends; sometimes.kif runs away
# only in a playout that goes on five times in a row, after others finished.
# Each command gets a budget of 1 s and must end within 10 s of wall time
# (generous, so that the test is not a flaky timing test: without the
# deadline they run until killed), and say what happened: bench --json marks
# the cut playout ("partial": true), perf-test writes errorMessage= only
# when no playout finished, verify says the playout was cut.
set -u
gdlc=$1 src=$2
dir=$src/tests/driver/deadline
fail=0 pass=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# without the deadline the runaway would take gigabytes before timeout
# kills it (a sanitizer build reserves terabytes of address space: no cap)
[ "${3:-}" = sanitize ] || ulimit -v 3000000
bad() { echo "FAIL: $*"; sed 's/^/    /' "$tmp/out" | head -n 8; fail=$((fail + 1)); }
# timed WANT_STATUS NAME COMMAND...: runs it with a 10 s wall-clock limit
timed() {
    want=$1 name=$2
    shift 2
    t0=$(date +%s)
    timeout 10 "$@" >"$tmp/out" 2>&1
    got=$?
    t1=$(date +%s)
    if [ $got -eq 124 ]; then bad "$name: still running after 10 s (budget 1 s)"; return 1; fi
    if [ $got -ne "$want" ]; then bad "$name: exit $got, expected $want ($((t1 - t0)) s)"; return 1; fi
    return 0
}
ok() { pass=$((pass + 1)); }
for engine in ref jit; do
    g=$dir/runaway.kif
    if [ $engine = ref ] && timed 0 "bench $engine" "$gdlc" bench --engine $engine --seconds 1 "$g"; then
        if grep -q 'cut at the deadline' "$tmp/out" && grep -q '^playouts: *0 ' "$tmp/out"; then ok
        else bad "bench $engine does not say the playout was cut"; fi
    fi
    if timed 0 "bench --json $engine" "$gdlc" bench --engine $engine --seconds 1 --json "$g"; then
        if grep -q '"partial": true' "$tmp/out" && grep -q '"playouts": 0,' "$tmp/out" &&
            grep -q '"state_changes": [1-9]' "$tmp/out"; then ok
        else bad "bench --json $engine: no \"partial\": true, or the cut playout's state changes not counted"; fi
    fi
    if timed 1 "perf-test $engine" "$gdlc" perf-test --engine $engine "$g" "$tmp/results" 1; then
        if grep -q '^errorMessage=no playout finished' "$tmp/results" && ! grep -q '^numRollouts' "$tmp/results"; then ok
        else bad "perf-test $engine results: $(cat "$tmp/results")"; fi
    fi
    if timed 0 "verify $engine" "$gdlc" verify --engine $engine --seconds 1 "$g"; then
        if grep -q 'cut at the deadline' "$tmp/out"; then ok; else bad "verify $engine does not say it was cut"; fi
    fi
    # some playouts finish before one runs away: those are the results
    g=$dir/sometimes.kif
    if timed 0 "perf-test $engine, some playouts finished" "$gdlc" perf-test --engine $engine "$g" "$tmp/results" 1; then
        if ! grep -q '^errorMessage=' "$tmp/results" && grep -Eq '^numRollouts=[1-9]' "$tmp/results"; then ok
        else bad "perf-test $engine results: $(cat "$tmp/results")"; fi
    fi
    # seed 22 runs away in its second playout: cut at the deadline however
    # slow the build (seed 1 reaches its runaway only after 30 playouts,
    # past 1 s under the sanitizers)
    if timed 0 "bench --json $engine, some playouts finished" "$gdlc" bench --engine $engine --seconds 1 --seed 22 --json "$g"
    then
        if grep -q '"partial": true' "$tmp/out" && grep -Eq '"playouts": [1-9]' "$tmp/out"; then ok
        else bad "bench --json $engine: $(cat "$tmp/out")"; fi
    fi
done
# a game that ends is never cut: "partial": false
if timed 0 "bench --json of tictactoe" "$gdlc" bench --engine ref --seconds 0.2 --json "$src/games/tictactoe.kif"; then
    if grep -q '"partial": false' "$tmp/out"; then ok; else bad "bench --json of tictactoe: not \"partial\": false"; fi
fi
# a goal query ref is still deriving at the deadline while jit (which
# folded the relation when compiling) has answered: a cut, not a divergence
for secs in 0.01 0.02 0.03; do
    if timed 0 "verify of slowgoal.kif at $secs s" "$gdlc" verify --engine jit --playouts 3 --seconds $secs "$dir/slowgoal.kif"
    then
        if grep -q 'differs' "$tmp/out"; then bad "verify at $secs s reports a query cut at the deadline as a divergence"
        else ok; fi
    fi
done
echo "deadline: $pass passed, $fail failed"
[ $fail -eq 0 ]
