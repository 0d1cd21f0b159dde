#!/bin/sh
# fuzz.sh BUILD_DIR SECONDS: runs each libFuzzer target for SECONDS (the front
# end; the engines ref and jit behind the API; the GGP protocol's messages),
# seeded with the shipped games, the malformed games of tests/frontend/diag, the GGP
# messages of tests/fuzz/messages and (when present) the shared corpus (the
# engines' target: its small games), all three at once; then the proof
# checker and the solver's saved graphs, each over small games of ours and
# seeded with the proofs and graphs this build's gdlc writes of them, both
# at once for a sixth of SECONDS (at least 2 s). Any crash, leak, sanitizer
# report or timeout fails; the reproducer is left in BUILD_DIR/fuzz-artifacts.
set -eu
cd "$(dirname "$0")/.."
dir=$1 seconds=$2
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
mkdir "$seeds/all" "$seeds/small"
cp games/*.kif tests/frontend/diag/*.kif tests/fuzz/messages/*.acl "$seeds/all"/
cp games/*.kif tests/frontend/diag/*.kif tests/fuzz/messages/*.acl "$seeds/small"/
# the front end reads 400 corpus games in seconds; the engines make two
# machines of each (jit's plan grounds and times it), 0.7 s a game under
# the sanitizers, so that 400 seeds took five minutes and left no time to
# fuzz: they get the corpus games under 3 KB
if [ -d "$shared/games" ]; then
    find "$shared/games" -name '*.kif' -size -64k | sort | head -n 400 | while read -r f; do
        cp "$f" "$seeds/all/$(echo "$f" | tr / _)"
    done
    find "$shared/games" -name '*.kif' -size -3k | sort | while read -r f; do
        cp "$f" "$seeds/small/$(echo "$f" | tr / _)"
    done
fi
# the proofs and saved graphs of the games fuzz_proof and fuzz_graph read:
# whole, without symmetries, partial (--max-nodes: exit 3)
mkdir "$seeds/proof" "$seeds/graph"
cp tests/solve/proof/pick.proof "$seeds/proof/"
"$dir/gdlc" solve tests/solve/nim122.kif --quiet --proof "$seeds/proof/nim122.proof" >/dev/null
"$dir/gdlc" solve tests/solve/nim122.kif --quiet --no-symmetries --proof "$seeds/proof/nim122-nosym.proof" >/dev/null
"$dir/gdlc" solve tests/solve/proof/twostep.kif --quiet --proof "$seeds/proof/twostep.proof" >/dev/null
for n in 2 6 12; do
    "$dir/gdlc" solve tests/solve/nim122.kif --quiet --max-nodes $n --save "$seeds/graph/nim122-$n.graph" >/dev/null ||
        [ $? -eq 3 ]
done
"$dir/gdlc" solve tests/solve/nim122.kif --quiet --save "$seeds/graph/nim122.graph" >/dev/null
mkdir -p "$dir/fuzz-artifacts"
# run TARGET [SECONDS]: one libFuzzer target for SECONDS (default $seconds),
# its own growing corpus; its exit status in $dir/fuzz-TARGET.status.
run() {
    target=$1 secs=${2:-$seconds} seed=all
    [ "$target" = fuzz_engine ] && seed=small
    [ "$target" = fuzz_proof ] && seed=proof
    [ "$target" = fuzz_graph ] && seed=graph
    mkdir -p "$dir/fuzz-corpus-$target"
    status=0
    "$dir/$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$dir/fuzz-artifacts/$target-" "$dir/fuzz-corpus-$target" "$seeds/$seed" \
        >"$dir/fuzz-$target.log" 2>&1 || status=$?
    echo $status >"$dir/fuzz-$target.status"
}
# report TARGET: its statistics, and its log's end when it failed.
report() {
    target=$1 log="$dir/fuzz-$1.log"
    status=$(cat "$dir/fuzz-$target.status")
    echo "$target:"
    grep -E '^(stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb|Done)' "$log" || true
    if [ "$status" -ne 0 ]; then
        echo "fuzz: $target FAILED (exit $status); the log is $log:"
        tail -n 40 "$log"
        return 1
    fi
}
# the three at once, each a process of its own (libFuzzer runs one thread):
# on CI's two cores, 60 s of wall time rather than 180
targets="fuzz_front fuzz_engine fuzz_message"
for target in $targets; do
    run $target &
done
wait
# the proof checker's and the saved graphs' targets read small files of two
# small games: a sixth of the time each, both at once
short=$((seconds / 6))
[ "$short" -ge 2 ] || short=2
for target in fuzz_proof fuzz_graph; do
    run $target $short &
done
wait
passed=0 failed=0
for target in $targets fuzz_proof fuzz_graph; do
    if report $target; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
