#!/bin/sh
# fuzz.sh BUILD_DIR SECONDS: runs the front end's libFuzzer target, seeded
# with the shipped games, the malformed games of tests/diag and (when
# present) the shared corpus. Any crash, leak, sanitizer report or timeout
# fails; the reproducer is left in BUILD_DIR/fuzz-artifacts.
set -eu
cd "$(dirname "$0")/.."
dir=$1 seconds=$2
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
cp games/*.kif tests/diag/*.kif "$seeds"/
if [ -d "$shared/games" ]; then
    find "$shared/games" -name '*.kif' -size -64k | head -n 400 | while read -r f; do
        cp "$f" "$seeds/$(echo "$f" | tr / _)"
    done
fi
mkdir -p "$dir/fuzz-artifacts" "$dir/fuzz-corpus"
log="$dir/fuzz.log"
status=0
"$dir/fuzz_front" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$dir/fuzz-artifacts/" "$dir/fuzz-corpus" "$seeds" >"$log" 2>&1 || status=$?
grep -E '^(stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb|Done)' "$log" || true
if [ $status -ne 0 ]; then
    echo "fuzz: FAILED (exit $status); the log is $log:"
    tail -n 40 "$log"
    exit 1
fi
echo "fuzz: 1 passed, 0 failed"
