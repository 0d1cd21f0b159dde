#!/bin/sh
# propnet.sh GDLC SRC: gdlc propnet's options and errors: exit 0 on success,
# 1 for a game at fault or a --focus that names nothing, 2 for usage errors;
# --json is one object with the documented keys; --dot writes well-formed
# DOT (checked without Graphviz: balanced braces, one node per component).
set -u
gdlc=$1 src=$2
dir=$src/tests/middle/propnet
. "$src/tests/lib/lib.sh"
expect 0 "help" "$gdlc" help propnet
expect 2 "no game" "$gdlc" propnet
expect 2 "two games" "$gdlc" propnet "$dir/cycle.kif" "$dir/static.kif"
expect 2 "unknown option" "$gdlc" propnet --frob "$dir/cycle.kif"
expect 2 "--focus without --dot" "$gdlc" propnet --focus terminal "$dir/cycle.kif"
expect 2 "a bad depth" "$gdlc" propnet --dot - --depth x "$dir/cycle.kif"
expect 2 "missing file" "$gdlc" propnet /nonexistent/game.kif
expect 1 "a rejected game" "$gdlc" propnet "$src/tests/frontend/diag/unsafe_head.kif"

expect 0 "stats" "$gdlc" propnet "$dir/two_cells.kif"
for w in "raw:" "optimised:" "marks:" "pass:      constant propagation" "pass:      fixed bases" \
         "pass:      unused components" "pass:      single-input gates" "pass:      structural hashing" \
         "pass:      factoring" "pass:      input complement" "time:"; do
    check "stats line '$w'" grep -q "^$w" "$tmp/out"
done

expect 0 "json" "$gdlc" propnet --json "$dir/two_cells.kif"
check "json is one line" test "$(wc -l <"$tmp/out")" -eq 1
check "json is an object" grep -q '^{.*}$' "$tmp/out"
for k in game raw optimised components links kinds const base input and or not roles bases inputs legals goals \
         cyclic_sccs largest_scc passes name components_removed links_removed ground atoms rules static_facts \
         build_seconds optimise_seconds; do
    check "json key $k" grep -q "\"$k\":" "$tmp/out"
done
check "json raw size" grep -q '"raw":{"components":63,"links":66,' "$tmp/out"

# DOT: one node per component, braces balanced
expect 0 "dot to a file" "$gdlc" propnet --dot "$tmp/net.dot" "$dir/two_cells.kif"
comps=$("$gdlc" propnet --dump "$dir/two_cells.kif" | head -n 1 | sed 's/^propnet: \([0-9]*\) components.*/\1/')
nodes=$(grep -c '^  n[0-9]* \[' "$tmp/net.dot")
check "dot: one node per component ($nodes, $comps)" test "$nodes" -eq "$comps"
opens=$(tr -cd '{' <"$tmp/net.dot" | wc -c)
closes=$(tr -cd '}' <"$tmp/net.dot" | wc -c)
check "dot: braces balanced" test "$opens" -eq "$closes"
check "dot: a digraph" grep -q '^digraph propnet {$' "$tmp/net.dot"
expect 0 "dot of the raw network" "$gdlc" propnet --dot - --raw "$dir/two_cells.kif"
check "raw dot: 63 nodes" test "$(grep -c '^  n[0-9]* \[' "$tmp/out")" -eq 63
# --focus: the cone grows with the depth and stays below the whole
prev=0
for d in 0 1 2 3; do
    expect 0 "focus depth $d" "$gdlc" propnet --dot - --focus '(legal x (mark 1))' --depth $d "$dir/two_cells.kif"
    n=$(grep -c '^  n[0-9]* \[' "$tmp/out")
    check "focus depth $d: $n nodes, at least $prev" test "$n" -ge "$prev"
    [ $d -eq 0 ] && check "focus depth 0: one node" test "$n" -eq 1
    prev=$n
done
check "focus: the cone is smaller than the network" test "$prev" -lt "$comps"
expect 0 "focus on a base of the raw network" "$gdlc" propnet --dot - --raw --focus '(true (cell 1 X))' "$dir/two_cells.kif"
expect 0 "focus on an alias" "$gdlc" propnet --dot - --focus '(legal x noop)' "$dir/two_cells.kif"
check "the alias is in the label" grep -q 'label="(true (control o))\\n(legal x noop)' "$tmp/out"
expect 1 "focus on a sentence of no component" "$gdlc" propnet --dot - --focus '(legal x (mark 3))' "$dir/two_cells.kif"
check "its message names the sentence" grep -q "no component is named '(legal x (mark 3))'" "$tmp/err"
expect 1 "focus on something not a sentence" "$gdlc" propnet --dot - --focus '(?x' "$dir/two_cells.kif"
expect 2 "dot onto the game" "$gdlc" propnet --dot "$dir/../propnet/two_cells.kif" "$dir/two_cells.kif"
# a game with variables is grounded first, within the budgets
expect 2 "a budget that is no number" "$gdlc" propnet --max-atoms x "$src/games/tictactoe.kif"
expect 2 "a budget of 0" "$gdlc" propnet --max-rules 0 "$src/games/tictactoe.kif"
expect 0 "a game with variables" "$gdlc" propnet --json "$src/games/tictactoe.kif"
check "its grounding is counted" grep -q '"ground":{"atoms":[1-9]' "$tmp/out"
expect 1 "past the atom budget" "$gdlc" propnet --max-atoms 10 "$src/games/tictactoe.kif"
check "the message names the budget" grep -q "max-atoms=10" "$tmp/err"
expect 1 "past the rule budget" "$gdlc" propnet --max-rules 5 --dump "$src/games/tictactoe.kif"
check "nothing on standard output" test ! -s "$tmp/out"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
