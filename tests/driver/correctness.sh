#!/bin/sh
# correctness.sh GDLC SRC SHARED: gdlc correctness-test, gdl-perf's
# correctness protocol.
#  - histories written by jit and ref (tictactoe, and corpus games when the
#    corpus is there) are read back line by line against ref (--check), and
#    the lines have the format gdl-perf's GGP-Base writer gives;
#  - every kind of planted wrong line is caught, naming its line;
#  - an initially terminal game, a game fault, an invalid game and a full
#    disk end the history as gdl-perf expects, with the exit status.
set -u
gdlc=$1 src=$2 shared=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
t="$src/games/tictactoe.kif"

games="$t"
for g in ggp-repository/biddingTicTacToe.kif ggp-repository/3pConnectFour.kif ggp-repository/blocks.kif; do
    [ -f "$shared/games/$g" ] && games="$games $shared/games/$g"
done
for g in $games; do
    for e in jit ref; do
        if ! "$gdlc" correctness-test --engine $e "$g" "$tmp/h" 20 2>"$tmp/err"; then
            echo "FAIL: correctness-test --engine $e $g:"; cat "$tmp/err"; fail=1; continue
        fi
        if ! "$gdlc" correctness-test --check "$g" "$tmp/h" 20 >"$tmp/out" 2>&1; then
            echo "FAIL: the history of $e on $g disagrees with ref:"; cat "$tmp/out"; fail=1
        fi
    done
done

# The format, as GGP-Base writes it (tictactoe's roles and moves).
"$gdlc" correctness-test "$t" "$tmp/h" 0 || { echo "FAIL: correctness-test $t"; fail=1; }
head -n 1 "$tmp/h" | grep -qx '!R!xplayer,oplayer' || { echo "FAIL: roles line: $(head -n 1 "$tmp/h")"; fail=1; }
sed -n 2p "$tmp/h" | grep -qx '!T!false' || { echo "FAIL: first terminal line"; fail=1; }
sed -n 3p "$tmp/h" | grep -qx '!L!( play 1 1 ),( play 1 2 ),( play 1 3 ),( play 2 1 ),( play 2 2 ),( play 2 3 ),( play 3 1 ),( play 3 2 ),( play 3 3 )' ||
    { echo "FAIL: first legal line: $(sed -n 3p "$tmp/h")"; fail=1; }
sed -n 4p "$tmp/h" | grep -qx '!L!noop' || { echo "FAIL: second legal line"; fail=1; }
sed -n 5p "$tmp/h" | grep -Eqx '!C!\( play [1-3] [1-3] \),noop' || { echo "FAIL: chosen line: $(sed -n 5p "$tmp/h")"; fail=1; }
grep -Eqx '!G!(0|50|100),(0|50|100)' "$tmp/h" || { echo "FAIL: no goals line"; fail=1; }
tail -n 3 "$tmp/h" | head -n 1 | grep -qx '!T!true' || { echo "FAIL: the playout does not end with !T!true"; fail=1; }
tail -n 1 "$tmp/h" | grep -qx '!F!' || { echo "FAIL: no !F! at the end"; fail=1; }
[ "$(grep -c '^!G!' "$tmp/h")" = 1 ] || { echo "FAIL: N=0 should give exactly one playout"; fail=1; }
# A seed gives one history; another seed another.
"$gdlc" correctness-test --seed 7 "$t" "$tmp/s1" 30 && "$gdlc" correctness-test --seed 7 --engine ref "$t" "$tmp/s2" 30 &&
    cmp -s "$tmp/s1" "$tmp/s2" || { echo "FAIL: --seed 7 differs between jit and ref"; fail=1; }
"$gdlc" correctness-test --seed 8 "$t" "$tmp/s3" 30 && ! cmp -s "$tmp/s1" "$tmp/s3" ||
    { echo "FAIL: --seed 8 gives the history of --seed 7"; fail=1; }

# Planted faults: each edit of a good history must be caught at its line.
"$gdlc" correctness-test "$t" "$tmp/good" 12 || { echo "FAIL: correctness-test $t"; fail=1; }
plant() { # plant WHAT LINE MESSAGE SED-SCRIPT: the edit must be reported at LINE with MESSAGE
    what=$1 line=$2 msg=$3
    sed "$4" "$tmp/good" >"$tmp/bad"
    if cmp -s "$tmp/good" "$tmp/bad"; then
        echo "FAIL: planting $what changed nothing"; fail=1; return
    fi
    "$gdlc" correctness-test --check "$t" "$tmp/bad" 12 >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -ne 1 ] || ! grep -q "bad:$line: .*$msg" "$tmp/out"; then
        echo "FAIL: planted $what: exit $rc, said:"; cat "$tmp/out"; fail=1
    fi
}
plant "swapped roles" 1 "roles differ" '1s/.*/!R!oplayer,xplayer/'
plant "a terminal flag" 2 "terminal flag differs" '2s/false/true/'
plant "a missing legal move" 3 "lacks (play 1 1)" '3s/( play 1 1 ),//'
plant "an extra legal move" 4 "has (play 1 1), which engine ref does not find legal" '4s/$/,( play 1 1 )/'
plant "a duplicated legal move" 4 "listed twice" '4s/$/,noop/'
plant "an illegal chosen move" 5 "not legal" '5s/noop/( play 1 1 )/'
plant "a joint move of one move" 5 "1 moves for 2 roles" '5s/,noop//'
plant "a move not written as GGP-Base writes it" 3 "not written as GGP-Base" '3s/( play 1 1 )/(play 1 1)/'
plant "a term that is no term" 3 "is no term" '3s/( play 1 1 )/( play 1 1/'
plant "wrong goals" "$(grep -n '^!G!' "$tmp/good" | head -n 1 | cut -d: -f1)" "goals differ" '/^!G!/s/.*/!G!7,7/'
plant "a lost line" 2 "terminal flag (!T!) was due" '2d'
plant "an error" 2 "records an error" '2s/.*/!E!boom/'
last=$(wc -l <"$tmp/good")
plant "a missing end" "$((last - 1))" "history ends where the end" '$d'
plant "a line after the end" "$((last + 1))" "after the end" '$s/$/\n!T!false/'
plant "an early end" "$(($(grep -n '^!G!' "$tmp/good" | head -n 1 | cut -d: -f1) + 1))" "terminal flag (!T!) was due, the history has: !F!" '/^!G!/{n;s/.*/!F!/;q}'
# The history must run until the state changes exceed N, and stop there.
"$gdlc" correctness-test --check "$t" "$tmp/good" 100000 >"$tmp/out" 2>&1
[ $? -eq 1 ] || { echo "FAIL: a history checked against a larger N passes"; fail=1; }
"$gdlc" correctness-test --check "$t" "$tmp/good" 0 >"$tmp/out" 2>&1
[ $? -eq 1 ] || { echo "FAIL: a history checked against N=0 passes"; fail=1; }

# A game whose initial state is terminal: roles, !T!true, goals, !F!.
cat >"$tmp/t0.kif" <<'EOF'
(role a) (role b)
(init done)
(<= terminal (true done))
(goal a 100) (goal b 0)
(legal a go) (legal b go)
(<= (next done) (true done))
EOF
"$gdlc" correctness-test "$tmp/t0.kif" "$tmp/h" 5 || { echo "FAIL: initially terminal game"; fail=1; }
printf '!R!a,b\n!T!true\n!G!100,0\n!F!\n' | cmp -s - "$tmp/h" || { echo "FAIL: initially terminal history:"; cat "$tmp/h"; fail=1; }
# A game fault: the history records it (!E!, !F!), exit 1; ref agrees.
cat >"$tmp/f1.kif" <<'EOF'
(role a)
(init (s 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(<= (legal a (go x)) (true (s 0)))
(<= (next (s ?y)) (true (s ?x)) (succ ?x ?y))
(<= terminal (true (s 3)))
(goal a 50)
EOF
"$gdlc" correctness-test "$tmp/f1.kif" "$tmp/h" 5 2>/dev/null
rc=$?
if [ $rc -ne 1 ] || ! tail -n 2 "$tmp/h" | head -n 1 | grep -q '^!E!.*no legal move' || [ "$(tail -n 1 "$tmp/h")" != '!F!' ]; then
    echo "FAIL: a game fault: exit $rc, history:"; cat "$tmp/h"; fail=1
fi
"$gdlc" correctness-test --check "$tmp/f1.kif" "$tmp/h" 5 >"$tmp/out" 2>&1 ||
    { echo "FAIL: the fault's history disagrees with ref:"; cat "$tmp/out"; fail=1; }
# An invalid game: the first error, in the history too.
"$gdlc" correctness-test "$src/tests/frontend/diag/unsafe_head.kif" "$tmp/h" 5 2>/dev/null
rc=$?
if [ $rc -ne 1 ] || ! head -n 1 "$tmp/h" | grep -q '^!E!.*unsafe_head.kif:[0-9]*:[0-9]*: error: ' ||
    [ "$(tail -n 1 "$tmp/h")" != '!F!' ]; then
    echo "FAIL: an invalid game: exit $rc, history:"; cat "$tmp/h"; fail=1
fi
# A full disk (a file-size limit of 0 fails every write as a full disk
# does; a device such as /dev/full is no output file: refused).
msg=$( (ulimit -f 0 && trap '' XFSZ && exec "$gdlc" correctness-test "$t" "$tmp/full" 50) 2>&1)
rc=$?
if [ $rc -ne 2 ] || ! echo "$msg" | grep -q "cannot write $tmp/full"; then
    echo "FAIL: writing on a full disk: exit $rc, said: $msg"; fail=1
fi
"$gdlc" correctness-test "$t" /dev/full 50 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q 'will not write /dev/full' "$tmp/err"; then
    echo "FAIL: writing to /dev/full: exit $rc, said:"; cat "$tmp/err"; fail=1
fi
[ $fail -eq 0 ] && echo "correctness-test: histories agree with ref, planted faults caught"
exit $fail
