#!/bin/sh
# outputs.sh GDLC SRC: the rule for files a command writes (see `gdlc help`).
# An output that is one of the command's inputs (however its path is
# spelled: another spelling, a symbolic or a hard link) or that is not a
# regular file (a device, a fifo, a directory) is refused with exit 2 and a
# message naming it, and the input is left as it was. Output that is lost is
# exit 2: standard output into /dev/full for every command, and output files
# past a file-size limit (ulimit -f 0, SIGXFSZ ignored, so that writes fail
# with EFBIG as on a full disk).
set -u
gdlc=$1 src=$2
fail=0 pass=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/games/tictactoe.kif" "$tmp/game.kif"
mkdir "$tmp/sub"
ln -s "$tmp/game.kif" "$tmp/symlink.kif"
ln "$tmp/game.kif" "$tmp/hardlink.kif"
mkfifo "$tmp/fifo"
ln -s /dev/null "$tmp/null"
printf 'not an object\n' >"$tmp/engine.so"
g=$tmp/game.kif
# refused WHAT OUT COMMAND...: exit 2, a message naming OUT, the game intact
refused() {
    what=$1 out=$2
    shift 2
    timeout 20 "$@" >"$tmp/out" 2>&1
    got=$?
    intact=yes
    cmp -s "$g" "$src/games/tictactoe.kif" && [ "$(cat "$tmp/engine.so")" = "not an object" ] || intact=no
    # put the inputs back for the next case (a hard link must stay one)
    cat "$src/games/tictactoe.kif" >"$g"
    printf 'not an object\n' >"$tmp/engine.so"
    if [ $got -ne 2 ]; then
        echo "FAIL: $what: exit $got, expected 2: $*"
        sed 's/^/    /' "$tmp/out" | head -n 5
        fail=$((fail + 1))
    elif ! grep -qF "will not write $out" "$tmp/out"; then
        echo "FAIL: $what: the message does not name $out:"
        sed 's/^/    /' "$tmp/out" | head -n 5
        fail=$((fail + 1))
    elif [ $intact = no ]; then
        echo "FAIL: $what: an input was changed"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
for out in "$g" "$tmp/sub/../game.kif" "$tmp/symlink.kif" "$tmp/hardlink.kif"; do
    refused "play -o the game ($out)" "$out" "$gdlc" play -o "$out" "$g"
    refused "emit -o the game ($out)" "$out" "$gdlc" emit "$g" -o "$out"
    refused "compile -o the game ($out)" "$out" "$gdlc" compile "$g" -o "$out"
    refused "perf-test into the game ($out)" "$out" "$gdlc" perf-test "$g" "$out" 1
    refused "correctness-test into the game ($out)" "$out" "$gdlc" correctness-test "$g" "$out" 10
done
refused "correctness-test into the so: object" "$tmp/engine.so" "$gdlc" correctness-test --engine "so:$tmp/engine.so" \
    "$g" "$tmp/engine.so" 10
refused "perf-test into the so: object" "$tmp/engine.so" "$gdlc" perf-test --engine "so:$tmp/engine.so" "$g" \
    "$tmp/engine.so" 1
refused "play -o into the so: object" "$tmp/engine.so" "$gdlc" play --engine "so:$tmp/engine.so" -o "$tmp/engine.so" "$g"
# the game and the results swapped: the game is no results file of an earlier run
refused "perf-test with the arguments swapped" "$g" "$gdlc" perf-test "$tmp/results" "$g" 1
refused "perf-test with the arguments swapped and a usage error" "$g" "$gdlc" perf-test --seed x "$tmp/results" "$g" 1
for out in /dev/null "$tmp/null" "$tmp/fifo" "$tmp/sub"; do
    refused "play -o $out" "$out" "$gdlc" play -o "$out" "$g"
    refused "emit -o $out" "$out" "$gdlc" emit "$g" -o "$out"
    refused "perf-test into $out" "$out" "$gdlc" perf-test "$g" "$out" 1
    refused "correctness-test into $out" "$out" "$gdlc" correctness-test "$g" "$out" 10
    # compile renames its object into place: a gdlc that got this wrong,
    # run as root, would replace /dev/null itself, so only the link to it
    [ "$out" = /dev/null ] || refused "compile -o $out" "$out" "$gdlc" compile "$g" -o "$out"
done
# status WANT WHAT COMMAND...: the exit status, and a message on exit 2
status() {
    want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>&1
    got=$?
    if [ $got -ne "$want" ]; then
        echo "FAIL: $what: exit $got, expected $want: $*"
        sed 's/^/    /' "$tmp/out" | head -n 5
        fail=$((fail + 1))
    elif [ "$want" -eq 2 ] && ! grep -q 'cannot write' "$tmp/out"; then
        echo "FAIL: $what: no message saying what could not be written"
        sed 's/^/    /' "$tmp/out" | head -n 5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
# regular files, new or old, are written
status 0 "play -o a new file" "$gdlc" play -o "$tmp/t.trace" "$g"
status 0 "play -o over an old file" "$gdlc" play --seed 2 -o "$tmp/t.trace" "$g"
status 0 "replay of what play wrote" "$gdlc" replay "$g" "$tmp/t.trace"
"$gdlc" play --seed 2 "$g" | cmp -s - "$tmp/t.trace" || { echo "FAIL: play -o wrote something else"; fail=$((fail + 1)); }
# standard output into a full disk
full() { # full WHAT COMMAND...: stdout to /dev/full
    what=$1
    shift
    "$@" >/dev/full 2>"$tmp/out"
    got=$?
    if [ $got -ne 2 ] || ! grep -q 'cannot write standard output' "$tmp/out"; then
        echo "FAIL: $what into /dev/full: exit $got, expected 2 with 'cannot write standard output': $*"
        sed 's/^/    /' "$tmp/out" | head -n 5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
full "check" "$gdlc" check "$g"
full "check --dump=ir" "$gdlc" check --dump=ir "$g"
full "play" "$gdlc" play "$g"
full "replay" "$gdlc" replay "$g" "$tmp/t.trace"
full "bench" "$gdlc" bench --seconds 0.1 "$g"
full "bench --json" "$gdlc" bench --seconds 0.1 --json "$g"
full "verify" "$gdlc" verify --playouts 1 "$g"
full "emit" "$gdlc" emit "$g"
full "--version" "$gdlc" --version
full "--help" "$gdlc" --help
full "help check" "$gdlc" help check
full "play --help" "$gdlc" play --help
# output files past the file-size limit (as on a full disk)
limited() { # limited WHAT COMMAND...
    what=$1
    shift
    # the messages through a pipe: the limit applies to regular files
    msg=$( (ulimit -f 0 && trap '' XFSZ && exec "$@") 2>&1)
    got=$?
    printf '%s\n' "$msg" >"$tmp/out"
    if [ $got -ne 2 ] || ! grep -q "cannot write $tmp/limited" "$tmp/out"; then
        echo "FAIL: $what on a full disk: exit $got, expected 2 with 'cannot write $tmp/limited': $*"
        sed 's/^/    /' "$tmp/out" | head -n 5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
    rm -f "$tmp/limited"
}
limited "play -o" "$gdlc" play -o "$tmp/limited" "$g"
limited "emit -o" "$gdlc" emit "$g" -o "$tmp/limited"
limited "perf-test" "$gdlc" perf-test "$g" "$tmp/limited" 0.1
limited "perf-test of a rejected game" "$gdlc" perf-test "$src/tests/frontend/diag/unsafe_head.kif" "$tmp/limited" 0.1
echo "outputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
