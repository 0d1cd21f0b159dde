#!/bin/sh
# fuzz.sh BUILD_DIR SECONDS: runs each libFuzzer target for SECONDS (the front
# end; the engines ref and jit behind the API; the GGP protocol's messages),
# seeded with the shipped games, the malformed games of tests/diag, the GGP
# messages of tests/fuzz/messages and (when present) the shared corpus (the
# engines' target: its small games), all three at once. Any crash, leak, sanitizer report or timeout fails; the
# reproducer is left in BUILD_DIR/fuzz-artifacts.
set -eu
cd "$(dirname "$0")/.."
dir=$1 seconds=$2
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
mkdir "$seeds/all" "$seeds/small"
cp games/*.kif tests/diag/*.kif tests/fuzz/messages/*.acl "$seeds/all"/
cp games/*.kif tests/diag/*.kif tests/fuzz/messages/*.acl "$seeds/small"/
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
mkdir -p "$dir/fuzz-artifacts"
# run TARGET: one libFuzzer target for $seconds, its own growing corpus;
# its exit status in $dir/fuzz-TARGET.status.
run() {
    target=$1 seed=all
    [ "$target" = fuzz_engine ] && seed=small
    mkdir -p "$dir/fuzz-corpus-$target"
    status=0
    "$dir/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
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
passed=0 failed=0
for target in $targets; do
    if report $target; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
