# tests/lib/lib.sh: what the shell tests of the commands share, sourced after
# `set -u`: a scratch folder $tmp (removed at exit unless KEEP is set), the
# counts $pass and $fail, and three checks.
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail=0 pass=0
expect() { # expect STATUS DESCRIPTION COMMAND...: the exit status, output in $tmp/out and $tmp/err
    want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ $got -ne $want ]; then
        echo "FAIL: $what: exit $got, expected $want: $*"
        sed 's/^/    /' "$tmp/err" | head -n 8
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
check() { # check DESCRIPTION CONDITION...
    what=$1
    shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
has() { # has WHAT TEXT [FILE]: the last output (or FILE) holds TEXT
    f=${3:-$tmp/out}
    if grep -qF -- "$2" "$f"; then pass=$((pass + 1)); else
        echo "FAIL: $1: no $2 in"
        sed 's/^/    /' "$f" | head -c 2000
        echo
        fail=$((fail + 1))
    fi
}
