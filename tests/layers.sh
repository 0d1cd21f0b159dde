#!/bin/sh
# The stage folders include each other in one direction only (README: the
# design): base <- frontend <- middle <- analysis <- runtime <- driver,
# backend <- compile <- runtime (compile/ over base, frontend, middle and
# backend), solve (over include/gdl.h only) <- player (which may read
# s-expressions with frontend/kif.h) <- driver. A file may include its own folder, the folders listed
# for it, and include/ where noted.
src=${1:?source dir}
status=0
check() { # folder, allowed folders (space-separated)
    dir=$1; shift
    for f in "$src/$dir"/*.c "$src/$dir"/*.h; do
        [ -f "$f" ] || continue
        grep -o '#include "\.\./[a-z]*/' "$f" | sed 's|#include "\.\./||; s|/$||' | sort -u | while read -r to; do
            ok=no
            for a in "$@"; do [ "$a" = "$to" ] && ok=yes; done
            if [ $ok = no ]; then
                echo "FAIL: $dir/$(basename "$f") includes $to/ (allowed: $*)"
                echo x >> "$tmp"
            fi
        done
    done
}
tmp=$(mktemp)
check base
check frontend base
check middle base frontend
check analysis base frontend middle
check backend base frontend include
check compile base frontend middle backend include
check runtime base frontend middle analysis backend compile include
check solve base include
check player base frontend solve include
check driver base frontend middle analysis runtime compile backend solve player include
# The driver reads the runtime through its public and stage headers only: not
# runtime.h (the engines' shared internals) nor an engine's private header.
# Allowed: trace.h (the trace reader), claim_check.h (the analyses' claims
# against brute force), and the headers that the dumps and `emit`/`compile`
# print from (pipeline.h, compiled.h).
for f in "$src"/driver/*.c "$src"/driver/*.h; do
    [ -f "$f" ] || continue
    grep -o '#include "\.\./runtime/[a-z_]*\.h"' "$f" | sed 's|.*/runtime/||; s|"$||' | sort -u | while read -r h; do
        case $h in
        trace.h | claim_check.h | pipeline.h | compiled.h) ;;
        *)
            echo "FAIL: driver/$(basename "$f") includes runtime/$h (the runtime's internals)"
            echo x >> "$tmp"
            ;;
        esac
    done
done
# No private status travels through the public enum: an engine's own
# answers are EngineStatus values (runtime/runtime.h), never a GdlStatus cast.
for f in $(find "$src" -path "$src/include" -prune -o -path "$src/build*" -prune -o \( -name '*.c' -o -name '*.h' \) -print); do
    if grep -n '(GdlStatus) *0x' "$f" >/dev/null; then
        echo "FAIL: $f casts a private status into GdlStatus"
        echo x >> "$tmp"
    fi
done
if [ -s "$tmp" ]; then status=1; else echo "ok: the stages include each other in one direction; the driver includes no runtime internals; no status is cast into GdlStatus"; fi
rm -f "$tmp"
exit $status
