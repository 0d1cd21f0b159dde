#!/bin/sh
# python.sh [asan]: builds gdlc's Python package from this checkout with the
# README's command (pip, no build isolation, into build-python/site), then
# runs its tests (python/tests) and examples with Debian's interpreter. With
# asan: the package and libgdl built under AddressSanitizer and
# UndefinedBehaviorSanitizer, into build-python/site-asan, the interpreter
# run with gcc's libasan and libubsan preloaded.
set -eu
cd "$(dirname "$0")/.."
py=/usr/bin/python3 # Debian's, which has python3-numpy and python3-pytest
site=build-python/site
if [ "${1:-}" = asan ]; then
    site=build-python/site-asan
    export GDLC_PYTHON_SANITIZE=1
fi
rm -rf "$site"
"$py" -m pip install --quiet --no-build-isolation --no-deps --disable-pip-version-check --root-user-action=ignore \
    --target "$site" ./python
export PYTHONPATH="$PWD/$site" XDG_CACHE_HOME="$PWD/build-python/aot-cache"
if [ "${1:-}" = asan ]; then
    LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
    # the interpreter's own allocations live to its exit: leaks are not ours to judge here
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 LD_PRELOAD="$LD_PRELOAD" \
        GDLC_PY_TRACE_EVERY=111 "$py" -m pytest -q -p no:cacheprovider python/tests
else
    "$py" -m pytest -q -p no:cacheprovider python/tests
    "$py" -c "import gdlc; g = gdlc.load_game('games/tictactoe.kif'); print(g.new_initial_state())" >/dev/null
fi
