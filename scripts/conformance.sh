#!/bin/sh
# conformance.sh [SHARED]: everything on every engine, without time caps
# that would hide a slow game. Longer than the test suite (which runs a
# bounded part of this); prints one summary line per check and exits 1 if
# any fails.
#   - replay of every shared trace on ref, jit, aot, pn, pn:compiled and
#     board;
#   - gdlc verify (against ref) of every accepted corpus game on jit, aot,
#     pn, pn:compiled and board (games past pn's grounding budget are listed
#     and counted; the games board declines are played by the goal-directed
#     code, as its plan says);
#   - gdlc verify --batch of every accepted corpus game the network holds,
#     at 64 and 512 lanes (every lane's states, legal moves, draws, ends and
#     goals against ref);
#   - the ground program of every accepted corpus game against the game
#     (ref:ground against ref), games past the grounding budget listed;
#   - random games (tests/gen): GDLC_GEN_SEEDS (default 20000) on jit, pn
#     and pn:compiled, 200 on aot (each one a system-compiler run), 5000 on ref:ground;
#     flat ones (gen_flat_game) on board, checked and with layouts forced
#     that fail on reachable states, GDLC_GEN_SEEDS each, 200 on board:cc;
#     the batched playouts on GDLC_GEN_SEEDS / 4 (unit/batch's check);
#   - gdlc analyze --check 20000 on every accepted corpus game (every claim
#     of the analyses against brute force; tests/analysis/analyze-corpus.sh);
#   - the player's soak for GDLC_SOAK_SECONDS (default 300): many matches
#     at once, START, PLAY, STOP and ABORT in random order, slow clients,
#     RSS bounded, SIGTERM obeyed (the suite runs it for 10 s).
set -u
cd "$(dirname "$0")/.."
shared=${1:-${GDL_SHARED:-$(cd .. && pwd)/shared}}
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 2
gdlc=$PWD/build/gdlc
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$(mktemp -d)}
status=0
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
step() {
    name=$1
    shift
    start=$(date +%s)
    out=$("$@" 2>&1)
    rc=$?
    echo "$out" | grep -v '^\(/work\|[a-z]\)' | tail -n 5
    line=$(echo "$out" | grep -E '^(replay|verify|ground|analyze) \(|agrees with|^soak: [0-9]' | tail -n 1)
    echo "$name: $line ($(($(date +%s) - start)) s)$([ $rc -ne 0 ] && echo ' FAILED')" | tee -a "$summary"
    [ $rc -eq 0 ] || status=1
}
for e in ref jit aot pn pn:compiled board; do
    step "replay $e" sh tests/runtime/replay-corpus.sh "$gdlc" "$shared" 0 $e
done
for e in jit aot pn pn:compiled board; do
    step "verify $e" sh tests/runtime/verify-corpus.sh "$gdlc" "$shared" $e 10 5
done
step "verify batch 64" sh tests/runtime/verify-corpus.sh "$gdlc" "$shared" batch=64 10 200
step "verify batch 512" sh tests/runtime/verify-corpus.sh "$gdlc" "$shared" batch=512 10 200
step "ground" sh tests/middle/ground-corpus.sh "$gdlc" "$shared" 10 5 1
step "random games jit" env GDLC_GEN_SEEDS=${GDLC_GEN_SEEDS:-20000} GDLC_ENGINE=jit build/test_jit_ref
step "random games pn" env GDLC_GEN_SEEDS=${GDLC_GEN_SEEDS:-20000} GDLC_ENGINE=pn build/test_jit_ref
step "random games pn:compiled" env GDLC_GEN_SEEDS=${GDLC_GEN_SEEDS:-20000} GDLC_ENGINE=pn:compiled build/test_jit_ref
step "random games aot" env GDLC_GEN_SEEDS=200 GDLC_GEN_FIRST=100001 GDLC_ENGINE=aot build/test_jit_ref
step "random games ref:ground" env GDLC_GEN_SEEDS=5000 GDLC_GEN_FIRST=200001 GDLC_ENGINE=ref:ground build/test_jit_ref
step "random games board" env GDLC_GEN_SEEDS=${GDLC_GEN_SEEDS:-20000} GDLC_GEN=flat GDLC_ENGINE=board build/test_jit_ref
step "random games board keys" env GDLC_GEN_SEEDS=${GDLC_GEN_SEEDS:-20000} GDLC_GEN_FIRST=300001 GDLC_GEN=flat \
    GDLC_ENGINE=board:keys=f/2:0,keys=g/2:1 build/test_jit_ref
step "random games board:cc" env GDLC_GEN_SEEDS=200 GDLC_GEN_FIRST=600001 GDLC_GEN=flat GDLC_ENGINE=board:cc build/test_jit_ref
step "random games batch" env GDLC_BATCH_GEN_SEEDS=$((${GDLC_GEN_SEEDS:-20000} / 4)) build/test_batch
step "analyze check" sh tests/analysis/analyze-corpus.sh "$gdlc" "$shared" 20000 120
step "player soak" build/test_player_soak "$gdlc" "$PWD" "${GDLC_SOAK_SECONDS:-300}"
echo "== summary"
cat "$summary"
exit $status
