#!/bin/sh
# engines.sh GDLC SRC: `gdlc help engines` lists the library's engines
# (gdl_engines), and every name listed makes a machine that plays
# Tic-tac-toe (N taken as a number that fits, PATH as an object gdlc
# compile made), so that the list cannot drift from what gdl_machine_new
# accepts; an unknown name in --engine points to the list. The engines of
# the system compiler (aot, pn:cc, so:PATH) are checked where it works.
set -u
gdlc=$1 src=$2
game=$src/games/tictactoe.kif
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export XDG_CACHE_HOME="$d/cache"
fail=0 pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

"$gdlc" help engines >"$d/list" 2>&1 || bad "gdlc help engines: exit $?"
# the names: the lines that start with two spaces and a name
sed -n 's/^  \([^ ][^ ]*\).*/\1/p' "$d/list" >"$d/names"
[ "$(wc -l <"$d/names")" -ge 10 ] || bad "gdlc help engines lists $(wc -l <"$d/names") names"
for want in jit jit:goal jit:pn aot aot:goal aot:pn pn pn:compiled ref ref:ground so:PATH; do
    grep -qx "$want" "$d/names" && ok || bad "gdlc help engines does not list $want"
done
"$gdlc" help | grep -q 'gdlc help engines' && ok || bad "gdlc help does not point to gdlc help engines"
"$gdlc" bench --help | grep -A1 -- '--engine' | grep -q 'gdlc help engines' && ok ||
    bad "bench --help's --engine does not point to gdlc help engines"

# the system compiler: aot's objects and so: need it
cc_ok=0
if "$gdlc" compile "$game" -o "$d/ttt.so" >"$d/compile" 2>&1; then cc_ok=1; else
    echo "note: the system compiler failed here; aot, pn:cc and so:PATH not played: $(head -n 1 "$d/compile")"
fi
while read -r name; do
    case "$name" in
    aot* | pn:cc* | so:*) [ $cc_ok = 1 ] || continue ;;
    esac
    engine=$(printf '%s' "$name" | sed "s#PATH#$d/ttt.so#; s/max-atoms=N/max-atoms=400000/; s/max-rules=N/max-rules=400000/;
        s/max-links=N/max-links=800000/; s/max-lines=N/max-lines=20000/; s/=N/=1000/g")
    if "$gdlc" play "$game" --engine "$engine" --seed 2 --max-steps 4 >"$d/out" 2>&1 && grep -q '(step 4)' "$d/out"; then
        ok
    else
        bad "engine $name ($engine) did not play: $(head -n 3 "$d/out")"
    fi
done <"$d/names"

# an unknown engine: exit 2, the message pointing to the list
"$gdlc" play "$game" --engine nosuch >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "no engine named 'nosuch'.*gdlc help engines" "$d/out" && ok ||
    bad "an unknown engine: exit $st: $(cat "$d/out")"
"$gdlc" bench "$game" --engine jit:nosuch >"$d/out" 2>&1
grep -q "gdlc help engines" "$d/out" && bad "jit:nosuch is a bad option, not an unknown engine: $(cat "$d/out")" || ok

echo "engines: $pass passed, $fail failed"
[ $fail -eq 0 ]
