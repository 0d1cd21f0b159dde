#!/bin/sh
# build.sh [DIR] [CMAKE ARGS...]: configures and builds gdlc in DIR (default
# build), leaving the command-line tool at DIR/gdlc.
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build}
[ $# -gt 0 ] && shift
cmake -S . -B "$dir" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
