#!/bin/sh
# demo.sh: the README's first command. Sets up, builds, and runs the main
# job on the games shipped in games/.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
echo "== gdlc check games/*.kif"
build/gdlc check games/*.kif
