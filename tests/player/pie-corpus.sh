#!/bin/sh
# pie-corpus.sh GDLC PIE_CHECK SHARED [sanitize]: `gdlc pie` on every
# two-player corpus game gdlc accepts (MANIFEST.tsv ok or truncated, not a
# known fault, not in corpus-rejected.tsv). Each game is either
#   - refused with "FILE: error: no pie variant: REASON" and exit 1 (counted
#     by reason: simultaneous moves, turns that do not alternate, ...), or
#   - transformed (exit 0): the output is accepted by `gdlc check` with no
#     more warnings than the game has (none are added), and pie_check plays
#     it against the game, swapping, on jit, ref (its first 8 steps) and pn
#     (pn may be over its grounding budget: counted), and playing on, on jit;
#     aot on a few games (it runs the system compiler).
# Any other outcome fails. For time, the turn check here looks at 16 first
# moves and 2 playthroughs without the analysis (tests/player/pie.sh covers those),
# and pn gets a grounding budget. With "sanitize", every 16th game only.
# Without the corpus: a visible skip (exit 77), or a failure when CI=true.
set -u
gdlc=$1 check=$2 shared=$3 mode=${4:-}
here=$(dirname "$0")
manifest=$shared/games/MANIFEST.tsv
. "$(dirname "$0")/../lib/need-corpus.sh"
need_corpus "$manifest" "$shared"
every=1
[ "$mode" = sanitize ] && every=16
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
aot_games=" ggp-repository/ticTacToe.kif ggp-repository/connectFour.kif ggp-repository/nineBoardTicTacToe.kif "
pass=0 fail=0 refused=0 pn_skipped=0 aot=0 i=0
for path in $(awk -F'\t' 'NR > 1 && ($2 == "ok" || $2 == "truncated") && $9 == "no" && $3 == 2 { print $1 }' "$manifest"); do
    if grep -q "^$path	" "$here/../frontend/corpus-rejected.tsv"; then continue; fi
    i=$((i + 1))
    if [ $(((i - 1) % every)) -ne 0 ]; then continue; fi
    game=$shared/games/$path
    out=$tmp/pie.kif
    rm -f "$out"
    "$gdlc" pie "$game" -o "$out" -q --first-moves 16 --playthroughs 2 --max-steps 400 --no-analysis \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "^$game: error: no pie variant: " "$tmp/err"; then
        if [ -e "$out" ]; then
            echo "FAIL: $path: refused, but $out was written"
            fail=$((fail + 1))
        fi
        refused=$((refused + 1))
        reason=$(sed -n 's/.*no pie variant: \(.\{0,40\}\).*/\1/p' "$tmp/err" | head -n 1)
        echo "$reason" >>"$tmp/reasons"
        continue
    fi
    if [ $rc -ne 0 ]; then
        echo "FAIL: $path: gdlc pie exit $rc"
        head -n 5 "$tmp/err"
        fail=$((fail + 1))
        continue
    fi
    # no warning added: the summary's count is 0, or the game's
    if ! "$gdlc" check "$out" >"$tmp/check" 2>"$tmp/checkerr"; then
        echo "FAIL: $path: the pie variant is rejected"
        head -n 8 "$tmp/checkerr"
        fail=$((fail + 1))
        continue
    fi
    w1=$(sed -n 's/.* \([0-9][0-9]*\) warnings*$/\1/p' "$tmp/check")
    w0=0
    [ "$w1" = 0 ] || w0=$("$gdlc" check "$game" 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) warnings*$/\1/p')
    if [ "${w1:-x}" != "${w0:-y}" ]; then
        echo "FAIL: $path: $w1 warnings in the pie variant, $w0 in the game"
        "$gdlc" check -w "$out" 2>&1 | head -n 12
        fail=$((fail + 1))
        continue
    fi
    engines="jit ref@8 pn:max-links=100000"
    case "$aot_games" in *" $path "*) engines="$engines aot" aot=$((aot + 1)) ;; esac
    # shellcheck disable=SC2086
    "$check" "$game" "$out" "$i" $engines >"$tmp/play" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $path: the pie variant does not play as the game with seats (exit $rc):"
        head -n 6 "$tmp/play"
        fail=$((fail + 1))
        continue
    fi
    grep -q "engine pn.*skipped" "$tmp/play" && pn_skipped=$((pn_skipped + 1))
    pass=$((pass + 1))
done
sample=
[ $every -gt 1 ] && sample=" (every ${every}th game)"
echo "pie over the corpus$sample: $pass transformed, checked and played on ref, jit and pn ($pn_skipped over pn's budget, $aot on aot too), $refused refused, $fail failures"
if [ -f "$tmp/reasons" ]; then
    echo "refusals by reason:"
    sort "$tmp/reasons" | uniq -c | sort -rn | sed 's/^/  /'
fi
[ $pass -gt 0 ] || { echo "FAIL: no game transformed"; exit 1; }
[ $fail -eq 0 ]
