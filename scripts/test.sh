#!/bin/sh
# test.sh: the README's second command, and what CI runs. Sets up, builds
# and runs the whole test suite four ways: an optimised build with -Werror,
# a build under AddressSanitizer and UndefinedBehaviorSanitizer, the
# threading tests under ThreadSanitizer, and a short libFuzzer run of the
# front end and the engines; the Python package (python/) is built and
# tested twice, plainly and under the sanitizers. About 22 minutes on 2
# cores (CI allows 90).
# FUZZ_SECONDS (default 60) sets the length of each fuzzing run.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

echo "== build (Release, -Werror) and test"
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DGDLC_WERROR=ON
(cd build && ctest -j "$jobs" --output-on-failure)

echo "== the Python package: built by pip from this checkout, its tests and examples"
scripts/python.sh

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer and test"
CC=clang scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DGDLC_SANITIZE=ON -DGDLC_WERROR=ON \
    -DGDLC_REPLAY_CAP=3 -DGDLC_VERIFY_SECONDS=0.3 -DGDLC_GEN_SEEDS=500
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest -j "$jobs" --output-on-failure)

echo "== the Python package under AddressSanitizer + UndefinedBehaviorSanitizer"
scripts/python.sh asan

echo "== build with ThreadSanitizer and run the threading tests"
# gcc's ThreadSanitizer: clang 14's (Debian bookworm) missed a race planted
# in gdl_state_depth_charge once other threads had come and gone in the process.
CC=gcc cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DGDLC_TSAN=ON -DGDLC_WERROR=ON >/dev/null
cmake --build build-tsan -j "$jobs" --target test_api test_jit test_player_threads test_batch
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest -R '^(unit/(api|jit|batch-threads)|player/threads)$' -j "$jobs" --output-on-failure)

echo "== fuzz the front end, the engines and the GGP messages (libFuzzer, ${FUZZ_SECONDS:-60} s each)"
CC=clang scripts/build.sh build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGDLC_FUZZ=ON -DGDLC_SANITIZE=ON
scripts/fuzz.sh build-fuzz "${FUZZ_SECONDS:-60}"
echo "== all tests passed"
