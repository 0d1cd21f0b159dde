#!/bin/sh
# setup.sh: installs what gdlc needs from Debian's packages when run as root;
# otherwise says what to install. Safe to run again: it installs only what
# is missing.
set -eu
# the Python package (python/) is built and tested with Debian's /usr/bin/python3
PACKAGES="gcc make cmake pkg-config flex bison tcc libtcc-dev libcmocka-dev libnauty2-dev libmicrohttpd-dev libcurl4-openssl-dev libjansson-dev jq curl clang libclang-rt-14-dev gnuplot-nox
python3-dev python3-numpy python3-pytest python3-pip python3-setuptools python3-wheel"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
    echo "setup: missing Debian packages:$missing" >&2
    echo "setup: install them with: sudo apt-get install$missing" >&2
    exit 1
fi
