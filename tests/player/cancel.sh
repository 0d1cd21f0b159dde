#!/bin/sh
# cancel.sh GDLC SRC SHARED [sanitize]: issue 36, class 2, with the real sessions:
# nothing the player does keeps it from answering an ABORT or from ending
# on SIGTERM.
#  - a START asking for the largest clocks (4294967295 s, clamped to an
#    hour) and a PLAY searching towards that deadline: ABORT answers
#    `aborted` within 1 s, and the PLAY is answered at once;
#  - SIGTERM while a PLAY searches: the player exits 0 within 1 s;
#  - SIGTERM while a START reads and compiles 5.6 MB of rules, or waits
#    for the analysis of Amazons (seconds of grounding): the same.
# With "sanitize" (the ASan build) the bound for SIGTERM is 5 s.
set -u
gdlc=$1 src=$2 shared=$3
limit=1
[ "${4:-}" = sanitize ] && limit=5
. "$src/tests/lib/lib.sh"
command -v curl >/dev/null 2>&1 || { echo "SKIP: no curl"; exit 0; }
ttt=$(sed 's/;.*//' "$src/games/connect4.kif" | tr '\n' ' ')

now() { date +%s.%N; }
# elapsed T0: seconds since T0
elapsed() { echo "$(now) $1" | awk '{ printf "%.3f", $1 - $2 }'; }
below() { echo "$1 $2" | awk '{ exit !($1 < $2) }'; }

start_player() { # start_player NAME ARGS...: sets $pid and $port
    name=$1
    shift
    "$gdlc" player --port 0 "$@" 2>"$tmp/$name.err" &
    pid=$!
    port=
    i=0
    while [ $i -lt 200 ] && [ -z "$port" ]; do
        port=$(sed -n 's/.*listening on port \([0-9][0-9]*\).*/\1/p' "$tmp/$name.err" 2>/dev/null)
        [ -n "$port" ] || sleep 0.05
        i=$((i + 1))
    done
    [ -n "$port" ] || { echo "FAIL: $name: no port"; cat "$tmp/$name.err"; kill $pid; exit 1; }
}
send() { # send BODY OUT: POSTs BODY, the reply's body in OUT
    curl -s -0 --max-time 20 -o "$2" -H 'Content-Type: text/acl' --data-binary "$1" "http://127.0.0.1:$port/" >/dev/null
}
# sigterm NAME: SIGTERM, the exit within $limit s with status 0
sigterm() {
    t0=$(now)
    kill -TERM $pid
    wait $pid
    rc=$?
    took=$(elapsed "$t0")
    check "$1: SIGTERM ends the player with exit 0 (got $rc)" [ $rc -eq 0 ]
    check "$1: SIGTERM ends the player within $limit s (took $took s)" below "$took" "$limit"
}

# ---- ABORT during a PLAY, then SIGTERM during a PLAY ----------------------
start_player play --no-analyses --threads 2
send "( START c.1 red ($ttt) 10 4294967295 )" "$tmp/start1"
check "START with the largest clocks: ready (got $(cat "$tmp/start1"))" grep -qx ready "$tmp/start1"
has "the clocks are clamped, and logged" "clamped to 10 s and 3600 s" "$tmp/play.err"
send "( PLAY c.1 NIL )" "$tmp/play1" &
cpid=$!
sleep 0.5
t0=$(now)
send "( ABORT c.1 )" "$tmp/abort1"
took=$(elapsed "$t0")
wait $cpid
check "ABORT during a PLAY: aborted (got $(cat "$tmp/abort1"))" grep -qx aborted "$tmp/abort1"
check "ABORT during a PLAY answered within 1 s (took $took s)" below "$took" 1
check "the PLAY is answered with a move (got $(cat "$tmp/play1"))" grep -q '^(drop [0-9]*)$' "$tmp/play1"
send "( START c.2 red ($ttt) 10 4294967295 )" "$tmp/start2"
send "( PLAY c.2 NIL )" "$tmp/play2" &
cpid=$!
sleep 0.5
sigterm "a PLAY searching"
wait $cpid

# ---- SIGTERM while a START reads and compiles 5.6 MB of rules -------------
# (1.1 MB under ASan, which reads ten times slower)
facts=198000
[ "$limit" -gt 1 ] && facts=40000
{
    printf '( START big.1 xplayer ('
    sed 's/;.*//' "$src/games/tictactoe.kif" | tr '\n' ' '
    awk -v n="$facts" 'BEGIN { for (i = 0; i < n; i++) printf "(filler f%d g%d h%d) ", i, i * 7 % 100003, i % 977 }'
    printf ') 3600 3600 )'
} >"$tmp/big"
for wait in 0.6 1.2; do
    start_player "big$wait"
    curl -s -0 --max-time 20 -o /dev/null -H 'Content-Type: text/acl' --data-binary "@$tmp/big" \
        "http://127.0.0.1:$port/" >/dev/null &
    cpid=$!
    sleep $wait
    sigterm "a START of 5.6 MB, SIGTERM after $wait s"
    wait $cpid
done

# ---- SIGTERM while a START waits for the analysis of Amazons --------------
big=$shared/games/ggp-repository/amazons.kif
if [ -f "$big" ]; then
amazons=$(sed 's/;.*//' "$big" | tr '\n' ' ')
start_player start --engine ref
send "( START a.1 white ($amazons) 3600 3600 )" "$tmp/start3" &
cpid=$!
sleep 1.5
sigterm "a START in its analysis"
wait $cpid
else
    echo "SKIP: $big not found (set GDL_SHARED)"
fi

echo "cancel: $pass passed, $fail failed"
[ $fail -eq 0 ]
