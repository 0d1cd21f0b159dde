#!/bin/sh
# loopback.sh GDLC SRC: gdlc match against gdlc player over loopback, the
# protocol end to end with the real sessions (player/session.c):
#  - the player starts on --port 0 and says on which port it listens;
#  - a whole match START to STOP of tests/player/ticTacToeUpper.kif (moves
#    and roles spelled MARK, NOOP, xPlayer): no error recorded by the runner
#    (a late, illegal or unreadable move would be one), every PLAY answered
#    with the move spelled as the rules spell it, within the play clock,
#    and the per-match log written;
#  - a match where the player searches the whole clock (--no-analyses, so
#    no solved moves): every PLAY still answered before the play clock;
#  - two matches at once against the same player, both without errors;
#  - with curl installed: INFO, GET and OPTIONS as GGP-Base's players
#    answer them, and bad messages (garbage, an unknown id, a body over the
#    cap, no Content-Length), each with its error reply, the player up after;
#  - SIGTERM ends the player cleanly (exit 0);
#  - usage errors of gdlc player.
set -u
gdlc=$1 src=$2
game=$src/tests/player/ticTacToeUpper.kif
. "$src/tests/lib/lib.sh"

# start_player NAME ARGS...: starts gdlc player in the background; sets
# $pid and $port (its stderr in $tmp/NAME.err).
start_player() {
    name=$1
    shift
    "$gdlc" player --port 0 "$@" 2>"$tmp/$name.err" &
    pid=$!
    port=
    i=0
    while [ $i -lt 200 ] && [ -z "$port" ]; do
        port=$(sed -n 's/.*listening on port \([0-9][0-9]*\).*/\1/p' "$tmp/$name.err")
        [ -n "$port" ] || sleep 0.05
        i=$((i + 1))
    done
    if [ -z "$port" ]; then
        echo "FAIL: $name: the player did not say its port:"
        cat "$tmp/$name.err"
        kill $pid 2>/dev/null
        exit 1
    fi
}

# stop_player NAME: SIGTERM, then the exit status must be 0.
stop_player() {
    kill -TERM $pid
    wait $pid
    rc=$?
    check "$1: SIGTERM ends the player with exit 0 (got $rc)" [ $rc -eq 0 ]
    has "$1: a clean stop" "gdlc player: stopped" "$tmp/$1.err"
}

# the runner's summary: the http player's row has 0 errors
no_errors() { # no_errors WHAT SUMMARY
    check "$1: the runner recorded no error for the player" \
        awk -v p="http://127.0.0.1:$port" '$1 == p { found = 1; if ($NF != 0) bad = 1 } END { exit !(found && !bad) }' "$2"
}

# every PLAY answered in less than LIMIT ms, as the request log says
within() { # within WHAT LIMIT LOG
    check "$1: every PLAY answered within $2 ms" \
        awk -v lim="$2" '/ POST PLAY / { n++; for (i = 1; i <= NF; i++) if ($i ~ /^\([0-9]+$/ && $(i+1) ~ /^ms\)/) { ms = substr($i, 2) + 0; if (ms >= lim) bad = 1 } } END { exit !(n > 0 && !bad) }' "$3"
}

start_player main --log "$tmp/logs" --name gdlc-loop --threads 1

# ---- one match, START to STOP, spelled as the rules spell it --------------
expect 0 "a match against the player" "$gdlc" match "$game" --player "http://127.0.0.1:$port" --player random \
    --start 5 --play 2 --seed 1 -o "$tmp/rec1.json"
cp "$tmp/out" "$tmp/match1.out"
no_errors "match 1" "$tmp/match1.out"
has "match 1: START answered" " POST START gdlc." "$tmp/main.err"
has "match 1: a move spelled as in the rules" "-> 200 (MARK " "$tmp/main.err"
has "match 1: STOP answered" " -> 200 done" "$tmp/main.err"
check "match 1: no move spelled in lower case" sh -c "! grep -q -- '-> 200 (mark ' '$tmp/main.err'"
within "match 1" 2000 "$tmp/main.err"
check "match 1: the per-match log" sh -c "ls '$tmp/logs'/gdlc.*.log >/dev/null 2>&1"
has "match 1: the log's START" "START role xPlayer, start clock 5 s, play clock 2 s" "$(ls "$tmp/logs"/gdlc.*.log | head -n 1)"
has "match 1: the record" '"isCompleted": true' "$tmp/rec1.json"
stop_player main

# ---- the player searches the whole clock -----------------------------------
start_player slow --no-analyses --threads 1
expect 0 "a match where the player uses its clock" "$gdlc" match "$game" --player random \
    --player "http://127.0.0.1:$port" --start 2 --play 1 --seed 2
no_errors "match 2" "$tmp/out"
within "match 2" 1000 "$tmp/slow.err"
check "match 2: the player searched (playouts)" grep -qE 'turn [0-9]+, [1-9][0-9]* playouts' "$tmp/slow.err"
stop_player slow
start_player main2 --log "$tmp/logs" --name gdlc-loop --threads 1

# ---- two matches at once ------------------------------------------------------
"$gdlc" match "$game" --player "http://127.0.0.1:$port" --player random --start 3 --play 1 --seed 3 \
    >"$tmp/a.out" 2>"$tmp/a.err" &
a=$!
"$gdlc" match "$game" --player random --player "http://127.0.0.1:$port" --start 3 --play 1 --seed 4 \
    >"$tmp/b.out" 2>"$tmp/b.err" &
b=$!
wait $a
ra=$?
wait $b
rb=$?
check "two matches at once: both end (exit $ra, $rb)" [ $ra -eq 0 ] && [ $rb -eq 0 ]
no_errors "match A" "$tmp/a.out"
no_errors "match B" "$tmp/b.out"
check "two matches at once: two STARTs" [ "$(grep -c ' POST START gdlc.* -> 200 ready' "$tmp/main2.err")" -eq 2 ]

# ---- raw messages (curl) ---------------------------------------------------------
if command -v curl >/dev/null 2>&1; then
    url=http://127.0.0.1:$port/
    # acl BODY [CURL ARGS...]: POSTs BODY as GGP-Base does; the status in
    # $tmp/code, the body in $tmp/body, the headers in $tmp/head
    acl() {
        body=$1
        shift
        curl -s -0 --max-time 10 -o "$tmp/body" -D "$tmp/head" -w '%{http_code}' -H 'Content-Type: text/acl' \
            -H 'Accept: text/delim' -H 'Sender: GAMESERVER' -H 'Receiver: 127.0.0.1' --data-binary "$body" "$@" \
            "$url" >"$tmp/code"
    }
    acl '( INFO )'
    check "INFO: status 200" [ "$(cat "$tmp/code")" = 200 ]
    check "INFO: GGP-Base's reply" [ "$(cat "$tmp/body")" = "((name gdlc-loop) (status available))" ]
    has "INFO: Content-Type" "Content-Type: text/acl" "$tmp/head"
    has "INFO: CORS" "Access-Control-Allow-Origin: *" "$tmp/head"
    curl -s -0 --max-time 10 -o "$tmp/body" -w '%{http_code}' "${url}%28INFO%29" >"$tmp/code"
    check "GET /(INFO)" [ "$(cat "$tmp/body")" = "((name gdlc-loop) (status available))" ]
    curl -s -0 --max-time 10 -X OPTIONS -D "$tmp/head" -o /dev/null -w '%{http_code}' "$url" >"$tmp/code"
    check "OPTIONS: 200" [ "$(cat "$tmp/code")" = 200 ]
    has "OPTIONS: the methods" "Access-Control-Allow-Methods: POST, GET, OPTIONS" "$tmp/head"
    acl 'garbage ((('
    check "garbage: 400" [ "$(cat "$tmp/code")" = 400 ]
    has "garbage: the reason" '(error "malformed message' "$tmp/body"
    acl '( PLAY nosuch NIL )'
    check "an unknown id: 404 busy" [ "$(cat "$tmp/code") $(cat "$tmp/body")" = "404 busy" ]
    acl '(INFO)' -H 'Content-Length: 999999999'
    check "a body over the cap: 413" [ "$(cat "$tmp/code")" = 413 ]
    curl -s -0 --max-time 10 -o "$tmp/body" -w '%{http_code}' -X POST "$url" >"$tmp/code"
    check "no body: 400" [ "$(cat "$tmp/code")" = 400 ]
    acl '( INFO )'
    check "still up after the bad messages" [ "$(cat "$tmp/code")" = 200 ]
else
    echo "note: curl is not installed: raw messages are tested by player/server only"
fi
stop_player main2

# ---- usage -------------------------------------------------------------------------
expect 2 "a bad port" "$gdlc" player --port 70000
has "a bad port: the message" "--port takes a port number from 0 to 65535" "$tmp/err"
expect 2 "a bad name" "$gdlc" player --name "a b"
expect 2 "an argument" "$gdlc" player game.kif
expect 2 "a bad strategy" "$gdlc" player --strategy best
start_player taken
expect 2 "a port in use" "$gdlc" player --port "$port"
has "a port in use: the message" "cannot listen on port $port" "$tmp/err"
stop_player taken

echo "player loopback: $pass passed, $fail failed"
[ $fail -eq 0 ]
