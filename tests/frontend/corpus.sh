#!/bin/sh
# corpus.sh GDLC SHARED EXPECTED: checks every game of SHARED/games/MANIFEST.tsv.
# A game listed in EXPECTED must be rejected with the listed error; every
# other game must be accepted. A crash or any other exit status fails.
# Without the corpus: a visible skip (exit 77), or a failure when CI=true.
set -u
gdlc=$1 shared=$2 expected=$3
manifest=$shared/games/MANIFEST.tsv
. "$(dirname "$0")/../lib/need-corpus.sh"
need_corpus "$manifest" "$shared"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
pass=0 fail=0
for path in $(awk -F'\t' 'NR > 1 { print $1 }' "$manifest"); do
    want=$(awk -F'\t' -v p="$path" '$1 == p { print $2 }' "$expected")
    "$gdlc" check -q -w "$shared/games/$path" >/dev/null 2>"$err"
    rc=$?
    if [ -z "$want" ]; then
        if [ $rc -eq 0 ]; then pass=$((pass + 1)); continue; fi
        echo "FAIL: $path: rejected (exit $rc), expected to be accepted:"
        head -n 6 "$err"
    else
        first=$(grep -m1 ': error: ' "$err")
        case "$first" in
        *"$want"*) [ $rc -eq 1 ] && { pass=$((pass + 1)); continue; } ;;
        esac
        echo "FAIL: $path: exit $rc, first error: $first"
        echo "      expected exit 1 and an error containing: $want"
    fi
    fail=$((fail + 1))
done
echo "corpus: $pass passed, $fail failed"
[ $fail -eq 0 ]
