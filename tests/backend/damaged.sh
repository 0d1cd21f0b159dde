#!/bin/sh
# damaged.sh GDLC SRC: damaged and foreign shared objects, and compilers that
# fail.
#  - so:PATH of an object truncated (0 bytes, 16, 100, half, all but the
#    end) or with bytes overwritten (header, section table offset, middle,
#    end) is refused with a message naming the file, never by a signal;
#  - an object compiled by hand from `gdlc emit` (not sealed) is refused;
#  - a foreign object is refused before its constructor runs;
#  - a damaged entry of the aot cache is compiled again, and plays;
#  - a compiler killed by a signal, out of memory or missing is reported as
#    such (not as a gdlc bug); a compile error is a gdlc bug whose code is
#    kept outside the cache, and no .c is left behind in either case.
set -u
gdlc=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
t="$src/games/tictactoe.kif"
cc=${CC:-cc}

# refused WHAT MESSAGE ENGINE: play must exit 1 and say MESSAGE, naming the file
refused() {
    "$gdlc" play "$t" --engine "$3" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 1 ] || ! grep -q "$2" "$tmp/err"; then
        echo "FAIL: $1: exit $rc (128 and above is a signal), said:"; cat "$tmp/err"; fail=1
    fi
}

"$gdlc" compile "$t" -o "$tmp/t.so" 2>"$tmp/err" || { echo "FAIL: gdlc compile:"; cat "$tmp/err"; exit 1; }
"$gdlc" play "$t" --engine "so:$tmp/t.so" >"$tmp/good" || { echo "FAIL: so: of a good object"; fail=1; }
size=$(wc -c <"$tmp/t.so")
for n in 0 16 100 $((size / 2)) $((size - 100)); do
    head -c $n "$tmp/t.so" >"$tmp/cut.so"
    refused "so: truncated to $n bytes" "cut.so: damaged: " "so:$tmp/cut.so"
done
corrupt() { # corrupt OFFSET FILE: four bytes 0xff at OFFSET
    printf '\377\377\377\377' | dd of="$2" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
for off in 0 40 $((size / 2)) $((size - 8)); do
    cp "$tmp/t.so" "$tmp/bad.so"
    corrupt $off "$tmp/bad.so"
    refused "so: 4 bytes overwritten at $off" "bad.so: \(damaged\|not a gdlc engine\): " "so:$tmp/bad.so"
done
# Stripped after gdlc made it: the checksum no longer matches.
if command -v strip >/dev/null; then
    strip -o "$tmp/stripped.so" "$tmp/t.so" && refused "so: a stripped object" "stripped.so: damaged: .*checksum" "so:$tmp/stripped.so"
fi
# Compiled by hand: the note is there, the checksum is not.
"$gdlc" emit "$t" -o "$tmp/hand.c" && $cc -O1 -shared -fPIC -w -o "$tmp/hand.so" "$tmp/hand.c" ||
    { echo "FAIL: compiling gdlc emit's C by hand"; fail=1; }
refused "so: an object not sealed by gdlc" "hand.so: not sealed" "so:$tmp/hand.so"
# A foreign object whose constructor would leave a marker.
cat >"$tmp/evil.c" <<EOF
#include <stdio.h>
__attribute__((constructor)) static void mark(void) { FILE *f = fopen("$tmp/marker", "w"); if (f) fclose(f); }
int gdlc_module;
EOF
$cc -shared -fPIC -o "$tmp/evil.so" "$tmp/evil.c" || { echo "FAIL: cc evil.c"; fail=1; }
refused "so: a foreign object" "evil.so: not a gdlc engine" "so:$tmp/evil.so"
[ -e "$tmp/marker" ] && { echo "FAIL: the foreign object's constructor ran"; fail=1; }
# Not a file of ours at all.
refused "so: a directory" "cannot load" "so:$tmp"
printf 'hello\n' >"$tmp/text.so"
refused "so: a text file" "text.so: " "so:$tmp/text.so"

# The aot cache: a damaged entry is compiled again. The cache keeps
# objects of a small game, the goal-directed code (aot:goal, one) and the
# network's propagation compiled by the system compiler (pn:cc, one per
# phase: two); one of each is damaged in turn, and is rebuilt in its place.
for eng in aot:goal pn:cc; do
    export XDG_CACHE_HOME="$tmp/cache-$eng"
    "$gdlc" play "$t" --engine $eng >"$tmp/a1" 2>&1 || { echo "FAIL: $eng play:"; cat "$tmp/a1"; fail=1; }
    obj=$(ls "$XDG_CACHE_HOME/gdlc"/*.so 2>/dev/null | head -n 1)
    [ -n "$obj" ] || { echo "FAIL: no object in the aot cache of $eng"; exit 1; }
    want=1; [ $eng = pn:cc ] && want=2
    [ "$(ls "$XDG_CACHE_HOME/gdlc"/*.so | wc -l)" = $want ] || { echo "FAIL: $eng left $(ls "$XDG_CACHE_HOME/gdlc"/*.so | wc -l) objects, not $want"; fail=1; }
    osize=$(wc -c <"$obj")
    for damage in "half" "empty" "corrupt"; do
        case $damage in
            half) head -c $((osize / 2)) "$obj" >"$tmp/x" && cat "$tmp/x" >"$obj" ;;
            empty) : >"$obj" ;;
            corrupt) corrupt $((osize / 2)) "$obj" ;;
        esac
        "$gdlc" play "$t" --engine $eng >"$tmp/a2" 2>&1
        rc=$?
        if [ $rc -ne 0 ] || ! cmp -s "$tmp/a1" "$tmp/a2"; then
            echo "FAIL: $eng with a cache entry damaged ($damage): exit $rc, said:"; head -5 "$tmp/a2"; fail=1
        fi
        [ "$(ls "$XDG_CACHE_HOME/gdlc"/*.so | wc -l)" = $want ] || { echo "FAIL: $eng ($damage) now has $(ls "$XDG_CACHE_HOME/gdlc"/*.so | wc -l) objects, not $want"; fail=1; }
        if [ $eng = aot:goal ]; then
            "$gdlc" play "$t" --engine "so:$obj" >/dev/null 2>"$tmp/err" ||
                { echo "FAIL: the rebuilt cache entry ($damage) does not load:"; cat "$tmp/err"; fail=1; }
        fi
    done
done
unset XDG_CACHE_HOME

# Compilers that fail. Each fake answers --version (aot asks) like a compiler.
mkdir -p "$tmp/bin" "$tmp/tmpdir" "$tmp/out"
fake() { # fake NAME BODY
    printf '#!/bin/sh\n[ "$1" = --version ] && { echo "fake 1.0"; exit 0; }\n%s\n' "$2" >"$tmp/bin/$1"
    chmod +x "$tmp/bin/$1"
}
fake killed 'kill -9 $$'
fake oom 'echo "cc1: out of memory allocating 65536 bytes after a total of 0 bytes" >&2; exit 1'
fake broken 'echo "game.c:1:1: error: expected declaration" >&2; exit 1'
# cc_fails WHAT CC MESSAGE: gdlc compile and aot must exit 1, say MESSAGE,
# and leave no .c behind
cc_fails() {
    GDLC_CC=$2 TMPDIR="$tmp/tmpdir" "$gdlc" compile "$t" -o "$tmp/out/x.so" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 1 ] || ! grep -q "$3" "$tmp/err"; then
        echo "FAIL: compile with a compiler that $1: exit $rc, said:"; cat "$tmp/err"; fail=1
    fi
    GDLC_CC=$2 TMPDIR="$tmp/tmpdir" XDG_CACHE_HOME="$tmp/cache-$1" "$gdlc" play "$t" --engine aot >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 1 ] || ! grep -q "$3" "$tmp/err"; then
        echo "FAIL: aot with a compiler that $1: exit $rc, said:"; cat "$tmp/err"; fail=1
    fi
    if [ "$1" != "finds an error" ] && grep -q "gdlc bug" "$tmp/err"; then
        echo "FAIL: a compiler that $1 is called a gdlc bug"; fail=1
    fi
    if ls "$tmp/out" "$tmp/cache-$1/gdlc" 2>/dev/null | grep -q '\.c$'; then
        echo "FAIL: a compiler that $1 left generated C behind:"; ls "$tmp/out" "$tmp/cache-$1/gdlc"; fail=1
    fi
}
cc_fails "is killed" "$tmp/bin/killed" "killed by signal 9"
cc_fails "runs out of memory" "$tmp/bin/oom" "ran out of memory"
cc_fails "is missing" "$tmp/bin/missing" "cannot run the C compiler"
cc_fails "finds an error" "$tmp/bin/broken" "a gdlc bug; the code is kept in $tmp/tmpdir/gdlc-bug-"
for f in "$tmp/tmpdir"/gdlc-bug-*.c; do
    grep -q 'gdlc_module' "$f" || { echo "FAIL: the kept code $f is not the generated C"; fail=1; }
done
[ $fail -eq 0 ] && echo "damaged objects refused, cache entries rebuilt, compiler failures named"
exit $fail
