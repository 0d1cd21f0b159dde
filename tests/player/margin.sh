#!/bin/sh
# margin.sh GDLC SRC [sanitize]: issue 36, class 8: every START and PLAY
# reply leaves at least 0.5 s of its clock, with both cores busy (two
# busy loops run throughout):
#  - 5.6 MB of rules (tic-tac-toe and 198,000 facts; 1.1 MB under ASan,
#    which reads ten times slower) with a 2 s start
#    clock: ready within 1.5 s, the loading and compiling going on after
#    the reply if need be; each PLAY (2 s) within 1.5 s: the first a legal
#    move or nil while the session is still starting, the later ones legal
#    moves (on ref when the compiled engine is not made yet);
#  - Connect Four with a 3 s start clock (analyses and the solver on):
#    ready within 2.5 s; three PLAYs with a 1 s play clock, each within
#    0.5 s, each a legal move.
set -u
gdlc=$1 src=$2
sanitize=${3:-}
# ASan reads a message ten times slower: 1.1 MB of rules there
facts=198000
[ "$sanitize" = sanitize ] && facts=40000
. "$src/tests/lib/lib.sh"
command -v curl >/dev/null 2>&1 || { echo "SKIP: no curl"; exit 0; }

busy1= busy2= pid=
cleanup() {
    for p in $busy1 $busy2 $pid; do kill "$p" 2>/dev/null; done
    [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
sh -c 'while :; do :; done' &
busy1=$!
sh -c 'while :; do :; done' &
busy2=$!

now() { date +%s.%N; }
below() { echo "$1 $2" | awk '{ exit !($1 < $2) }'; }
# timed BODY OUT: POSTs BODY, the reply's body in OUT, the seconds in $took
timed() {
    t0=$(now)
    curl -s -0 --max-time 20 -o "$2" -H 'Content-Type: text/acl' --data-binary "@$1" "http://127.0.0.1:$port/" >/dev/null
    took=$(echo "$(now) $t0" | awk '{ printf "%.3f", $1 - $2 }')
}
msg() { printf '%s' "$1" >"$tmp/msg"; }

"$gdlc" player --port 0 2>"$tmp/player.err" &
pid=$!
port=
i=0
while [ $i -lt 200 ] && [ -z "$port" ]; do
    port=$(sed -n 's/.*listening on port \([0-9][0-9]*\).*/\1/p' "$tmp/player.err" 2>/dev/null)
    [ -n "$port" ] || sleep 0.05
    i=$((i + 1))
done
[ -n "$port" ] || { echo "FAIL: no port"; cat "$tmp/player.err"; exit 1; }

# ---- 5.6 MB of rules, a 2 s start clock -----------------------------------
{
    printf '( START big.1 xplayer ('
    sed 's/;.*//' "$src/games/tictactoe.kif" | tr '\n' ' '
    awk -v n="$facts" 'BEGIN { for (i = 0; i < n; i++) printf "(filler f%d g%d h%d) ", i, i * 7 % 100003, i % 977 }'
    printf ') 2 2 )'
} >"$tmp/msg"
timed "$tmp/msg" "$tmp/start"
check "big, a 2 s start clock: ready (got $(cat "$tmp/start"))" grep -qx ready "$tmp/start"
check "big, a 2 s start clock: answered within 1.5 s (took $took s)" below "$took" 1.5
msg "( PLAY big.1 NIL )"
timed "$tmp/msg" "$tmp/play"
check "big: the first PLAY (2 s) answered within 1.5 s (took $took s)" below "$took" 1.5
check "big: the first PLAY is a move, or nil while the session starts (got $(cat "$tmp/play"))" \
    grep -Eqx '\(play [123] [123]\)|nil' "$tmp/play"
first=$(cat "$tmp/play")
[ "$first" = nil ] && first="(play 1 1)"
# the session goes on after the replies; later turns are played by it
if [ "$sanitize" = sanitize ]; then sleep 8; else sleep 2; fi
msg "( PLAY big.1 ($first noop) )"
timed "$tmp/msg" "$tmp/play"
check "big: PLAY 2 answered within 1.5 s (took $took s)" below "$took" 1.5
check "big: PLAY 2 is noop (got $(cat "$tmp/play"))" grep -qx noop "$tmp/play"
other="(play 2 2)"
[ "$first" = "(play 2 2)" ] && other="(play 1 1)"
msg "( PLAY big.1 (noop $other) )"
timed "$tmp/msg" "$tmp/play"
check "big: PLAY 3 answered within 1.5 s (took $took s)" below "$took" 1.5
check "big: PLAY 3 is a legal move (got $(cat "$tmp/play"))" grep -Eqx '\(play [123] [123]\)' "$tmp/play"
check "big: PLAY 3 is not on a taken cell" sh -c "! grep -Fqx -e '$first' -e '$other' '$tmp/play'"
msg "( ABORT big.1 )"
timed "$tmp/msg" "$tmp/abort"

# ---- Connect Four: a 3 s start clock, 1 s play clocks --------------------
{
    printf '( START c4.1 red ('
    sed 's/;.*//' "$src/games/connect4.kif" | tr '\n' ' '
    printf ') 3 1 )'
} >"$tmp/msg"
timed "$tmp/msg" "$tmp/start"
check "Connect Four, a 3 s start clock: ready (got $(cat "$tmp/start"))" grep -qx ready "$tmp/start"
check "Connect Four, a 3 s start clock: answered within 2.5 s (took $took s)" below "$took" 2.5
last=NIL
for turn in 1 2 3; do
    msg "( PLAY c4.1 $last )"
    timed "$tmp/msg" "$tmp/play"
    mv=$(cat "$tmp/play")
    check "Connect Four, PLAY $turn (1 s): answered within 0.5 s (took $took s)" below "$took" 0.5
    case $turn in
    1 | 3)
        check "Connect Four, PLAY $turn: a drop (got $mv)" grep -Eqx '\(drop [1-7]\)' "$tmp/play"
        last="($mv noop)" ;;
    2)
        check "Connect Four, PLAY 2: noop (got $mv)" [ "$mv" = noop ]
        last="(noop (drop 1))" ;;
    esac
done
msg "( STOP c4.1 $last )"
timed "$tmp/msg" "$tmp/stop"

echo "margin: $pass passed, $fail failed"
[ $fail -eq 0 ]
