#!/bin/sh
# proof.sh GDLC MINIMAX SRC [SHARED] [sanitize]: proofs (docs/proofs.md).
#  - the oracle (tests/tools/minimax, exhaustive minimax over gdl.h) on the
#    small games of tests/solve/proof (two-player and a puzzle) and on the corpus's nim1..4, chomp and
#    ticTacToe, values pinned; every proof it writes is accepted by
#    gdlc check-proof (engine ref, and jit once);
#  - corrupted proofs rejected, the bad node named: a missing reply, an
#    illegal move (a play and a reply), a wrong child state, an extra edge,
#    a cycle, a value the strategy does not achieve, malformed lines, a
#    truncated file, an unknown node, an edge's symmetry past the count (0,
#    and 1 on tic-tac-toe), ids past 2^64 - 1; 40 seeded mutants of a valid proof
#    exit 0 or 1 (no crash, nothing for the sanitizers);
#  - symmetries on tic-tac-toe (games/tictactoe.kif, and the corpus's):
#    a true reflection written out in full (27 facts, 9 moves of each role)
#    used by the oracle's proof on its edges is accepted; a bogus one (the
#    corner (1 1) and the centre swapped) used on edges is rejected at the
#    node where it does not commute; a map that is no bijection ((cell 1 1
#    x) to (cell 2 2 x) only), and a set that is no group, are rejected in
#    the header;
#  - usage: a missing proof or game (2).
# The corpus part is skipped visibly when the corpus is missing (a failure
# when CI=true). Under the sanitizers (5th argument) nim3 and nim4 (150000
# states each) are left out.
set -u
gdlc=$1 mm=$2 src=$3 shared=${4:-} mode=${5:-}
dir=$src/tests/solve/proof
. "$src/tests/lib/lib.sh"
has() { # has DESCRIPTION FILE TEXT: FILE holds TEXT
    if grep -qF -- "$3" "$2"; then pass=$((pass + 1)); else
        echo "FAIL: $1: no '$3' in"
        sed 's/^/    /' "$2" | head -n 5
        fail=$((fail + 1))
    fi
}
# value GAME ENGINE VALUE: the oracle's value, and its proof accepted
value() {
    g=$1 e=$2 v=$3 name=$(basename "$1" .kif)
    expect 0 "minimax $name" "$mm" "$g" -e "$e" -o "$tmp/$name.proof"
    has "minimax $name" "$tmp/out" " $v ("
    expect 0 "check-proof $name" "$gdlc" check-proof "$g" "$tmp/$name.proof"
    has "check-proof $name" "$tmp/out" "gets [$v, $v]"
}
# reject NAME GAME PROOF TEXT: check-proof exits 1 and says TEXT
reject() {
    [ -n "${VERBOSE:-}" ] && { "$gdlc" check-proof "$2" "$3" 2>&1 | head -3; }
    expect 1 "$1 rejected" "$gdlc" check-proof "$2" "$3"
    has "$1" "$tmp/err" "$4"
}

# ---- our own small games (tests/solve/proof) ----
value "$dir/pick.kif" ref 50
value "$dir/nim23.kif" ref 100
value "$dir/twostep.kif" ref 75
# a puzzle: the plan one move a node; every line in the upper section, no play there
T=$tmp/twostep.proof
awk '$1 == "section" && $2 == "upper" { up = 1 } { print } up && $1 == "node" && $2 == 1 { print "play 1 (go left)" }' "$T" >"$tmp/c.proof"
reject "puzzle: a play in the upper section" "$dir/twostep.kif" "$tmp/c.proof" "node 1: a play in a puzzle's upper section"
grep -v '^edge 2 6 ' "$T" >"$tmp/c.proof"
reject "puzzle: a line missing" "$dir/twostep.kif" "$tmp/c.proof" "node 2: no edge for the joint move (robot (go right)): a line of play is missing"
sed 's/^play 1 (go right)/play 1 (go left)/; s/^edge 1 2 0 (go right)/edge 1 2 0 (go left)/' "$T" >"$tmp/c.proof"
reject "puzzle: a worse plan" "$dir/twostep.kif" "$tmp/c.proof" "node 1: after (robot (go left)), the next state is not node 2's state"
# the worked example of docs/proofs.md, as written there
expect 0 "docs example" "$gdlc" check-proof "$dir/pick.kif" "$dir/pick.proof"
has "docs example" "$tmp/out" "ok: xplayer gets [50, 50] (9 nodes checked)"
has "docs example: from the initial state" "$tmp/out" "from: the initial state"
cmp -s "$dir/pick.proof" "$tmp/pick.proof" || {
    echo "FAIL: the oracle's proof of pick differs from tests/solve/proof/pick.proof (the docs' example)"
    diff "$dir/pick.proof" "$tmp/pick.proof" | head
    fail=$((fail + 1))
}
# from a given start state, written by hand (the upper section first)
cat >"$tmp/c.proof" <<'END'
gdlc-proof 1
roles xplayer oplayer
start (took left)
value 30 30    ; oplayer answers a
symmetries 0
section upper 30 root 7
node 7 (took left)
play 7 (pick a)
edge 7 8 0 noop (pick a)
node 8 (ended left a)
section lower 30 root 0
edge 0 2 0 noop (pick b)
edge 0 1 0 noop (pick a)
play 0 noop
node 0	(took left)
node 1 (ended left a)
node 2 (ended left b)
end
END
expect 0 "a start state" "$gdlc" check-proof "$dir/pick.kif" "$tmp/c.proof"
has "a start state" "$tmp/out" "ok: xplayer gets [30, 30] (5 nodes checked)"
has "a start state: said" "$tmp/out" "from: the state the proof's start line names, not the initial state"
sed 's/^start (took left)/start initial/' "$tmp/c.proof" >"$tmp/c2.proof"
reject "another start state" "$dir/pick.kif" "$tmp/c2.proof" "c2.proof:7: error: node 7: the root's state is not the start state"
expect 0 "check-proof --engine jit" "$gdlc" check-proof "$dir/nim23.kif" "$tmp/nim23.proof" --engine jit

# ---- corruptions (nim23: value 100, a lower section only) ----
P=$tmp/nim23.proof G=$dir/nim23.kif
# a missing reply: the last edge of the first node where the second player replies
n=$(awk '$1 == "play" && $3 == "noop" { print $2; exit }' "$P")
awk -v n="$n" '{ l[NR] = $0; if ($1 == "edge" && $2 == n) last = NR } END { for (i = 1; i <= NR; i++) if (i != last) print l[i] }' "$P" >"$tmp/c.proof"
reject "missing reply" "$G" "$tmp/c.proof" "node $n: no edge for the joint move"
has "missing reply" "$tmp/err" "a reply is missing"
# an illegal play of the first player at the root
sed 's/^play 0 .*/play 0 (take b 3)/' "$P" >"$tmp/c.proof"
reject "illegal play" "$G" "$tmp/c.proof" "node 0: (take b 3) is not a legal move of first"
# an illegal reply
awk -v n="$n" '!done && $1 == "edge" && $2 == n { sub(/noop .*/, "noop (take a 7)"); done = 1 } { print }' "$P" >"$tmp/c.proof"
reject "illegal reply" "$G" "$tmp/c.proof" "node $n: an edge with (take a 7), not a legal move of second"
# the root's move leads to another node than its next state
awk '$1 == "edge" && $2 == 0 { $3 = 2 } { print }' "$P" >"$tmp/c.proof"
reject "wrong child" "$G" "$tmp/c.proof" "node 0: after (first (take"
has "wrong child" "$tmp/err" "the next state is not node 2's state"
# a node's facts changed: its parent's edge fails
awk '$1 == "node" && $2 == 1 { $0 = $0 " (heap c 1)" } { print }' "$P" >"$tmp/c.proof"
reject "wrong state" "$G" "$tmp/c.proof" "node 0: after (first (take"
has "wrong state" "$tmp/err" "(heap c 1) is in node 1's state, not in the next state"
# an extra edge: one line twice
awk -v n="$n" '{ print } !done && $1 == "edge" && $2 == n { print; done = 1 }' "$P" >"$tmp/c.proof"
reject "extra edge" "$G" "$tmp/c.proof" "node $n: a second edge for"
# an edge where the first player plays what is not its play
awk '$1 == "edge" && $2 == 0 { print "edge 0 0 0 (take a 0) noop" } { print }' "$P" >"$tmp/c.proof"
reject "edge off the play" "$G" "$tmp/c.proof" "node 0: an edge with first's move (take a 0), not its play"
# no play at a node
awk -v n="$n" '!($1 == "play" && $2 == n)' "$P" >"$tmp/c.proof"
reject "missing play" "$G" "$tmp/c.proof" "node $n: no play line"
# a node nothing leads to
awk '{ print } $1 == "section" { print "node 999 (heap a 0) (heap b 0) (control second)" }' "$P" >"$tmp/c.proof"
reject "unreached" "$G" "$tmp/c.proof" "node 999: not reached from the root 0"
# an edge to a node that is not there
awk '$1 == "edge" && $2 == 0 { $3 = 4242 } { print }' "$P" >"$tmp/c.proof"
reject "unknown child" "$G" "$tmp/c.proof" "node 0: an edge to node 4242, which the section does not have"
# a value the strategy does not achieve: pick claimed at 60
sed 's/^value 50 50/value 60 60/; s/^section lower 50/section lower 60/; s/^section upper 50/section upper 60/' \
    "$tmp/pick.proof" >"$tmp/c.proof"
reject "value too high" "$dir/pick.kif" "$tmp/c.proof" "node 2: terminal, xplayer's goal is 50, below the lower bound 60"
sed 's/^value 50 50/value 40 40/; s/^section lower 50/section lower 40/; s/^section upper 50/section upper 40/' \
    "$tmp/pick.proof" >"$tmp/c.proof"
reject "value too low" "$dir/pick.kif" "$tmp/c.proof" "node 4: terminal, xplayer's goal is 50, above the upper bound 40"
# a bound with no section
awk '$1 == "section" && $2 == "upper" { exit } { print } END { print "end" }' "$tmp/pick.proof" >"$tmp/c.proof"
reject "no upper section" "$dir/pick.kif" "$tmp/c.proof" "no upper section, which HI 50 needs"
# a cycle: the puzzle loop's wait leaves the state as it is
printf 'gdlc-proof 1\nroles robot\nstart initial\nvalue 100 100\nsymmetries 0\nsection lower 100 root 0\nnode 0\nplay 0 wait\nedge 0 0 0 wait\nend\n' >"$tmp/c.proof"
reject "cycle" "$dir/loop.kif" "$tmp/c.proof" "c.proof:9: error: node 0: the edge to node 0 closes a cycle"
printf 'gdlc-proof 1\nroles robot\nstart initial\nvalue 100 100\nsymmetries 0\nsection lower 100 root 0\nnode 0\nplay 0 finish\nedge 0 1 0 finish\nnode 1 done\nend\n' >"$tmp/c.proof"
expect 0 "loop: a plan that ends" "$gdlc" check-proof "$dir/loop.kif" "$tmp/c.proof"
# malformed files: the line named
sed '9s/.*/node x (heap a 1)/' "$P" >"$tmp/c.proof"
reject "bad id" "$G" "$tmp/c.proof" "c.proof:9: error: 'node' needs a node id"
sed '9s/.*/frobnicate 1 2/' "$P" >"$tmp/c.proof"
reject "unknown line" "$G" "$tmp/c.proof" "c.proof:9: error: unknown line kind 'frobnicate'"
sed 's/^value 100 100/value 100 1OO/' "$P" >"$tmp/c.proof"
reject "bad number" "$G" "$tmp/c.proof" "c.proof:5: error: HI is a whole number from 0 to 100"
sed 's/^value 100 100/value 100 101/' "$P" >"$tmp/c.proof"
reject "number past 100" "$G" "$tmp/c.proof" "c.proof:5: error: HI is a whole number from 0 to 100"
sed '10s/noop$/(take a/' "$P" >"$tmp/c.proof"
reject "unbalanced" "$G" "$tmp/c.proof" "c.proof:10: error: a '(' without its ')'"
sed '1d' "$P" >"$tmp/c.proof"
reject "no version" "$G" "$tmp/c.proof" "error: expected the 'gdlc-proof' line of the header"
sed 's/^gdlc-proof 1/gdlc-proof 2/' "$P" >"$tmp/c.proof"
reject "version 2" "$G" "$tmp/c.proof" "c.proof:1: error: this checker reads proofs of version 1"
sed 's/^roles first second/roles second first/' "$P" >"$tmp/c.proof"
reject "roles" "$G" "$tmp/c.proof" "c.proof:3: error: role 1 is 'second', the game's is 'first'"
sed 's/^start initial/start (heap a 1) (heap b 3) (control first)/' "$P" >"$tmp/c.proof"
reject "start" "$G" "$tmp/c.proof" "node 0: the root's state is not the start state"
sed '/^symmetries/d' "$P" >"$tmp/c.proof"
reject "no symmetries line" "$G" "$tmp/c.proof" "c.proof:6: error: expected the 'symmetries' line of the header"
sed 's/^symmetries 0/symmetries 99999999999999999999999/' "$P" >"$tmp/c.proof"
reject "hostile count" "$G" "$tmp/c.proof" "expected 'symmetries N'"
# numbers are checked against what they index, at their line: a symmetry
# past the count (the reader once let any digit through when the count was
# 0, and the proof passed), ids past 2^64 - 1
el=$(grep -n '^edge' "$P" | head -n 1 | cut -d: -f1)
awk -v el="$el" 'NR == el { $4 = 7 } { print }' "$P" >"$tmp/c.proof"
reject "symmetry past 0" "$G" "$tmp/c.proof" "c.proof:$el: error: node 0: SYM is 0 (the identity) or a symmetry from 1 to 0"
awk -v el="$el" 'NR == el { $3 = "18446744073709551616" } { print }' "$P" >"$tmp/c.proof"
reject "child id past 2^64" "$G" "$tmp/c.proof" "c.proof:$el: error: node 0: CHILD is a node id"
sed '8s/^node 0/node 18446744073709551616/' "$P" >"$tmp/c.proof"
reject "node id past 2^64" "$G" "$tmp/c.proof" "c.proof:8: error: 'node' needs a node id"
sed 's/^section lower 100 root 0/section lower 100 root 18446744073709551616/' "$P" >"$tmp/c.proof"
reject "root id past 2^64" "$G" "$tmp/c.proof" "c.proof:7: error: expected 'section lower LO root ID'"
lines=$(wc -l <"$P")
head -n $((lines / 2)) "$P" >"$tmp/c.proof"
reject "truncated" "$G" "$tmp/c.proof" "c.proof:$((lines / 2)): error: the file ends before 'end' (a truncated file?)"
head -c 100 "$P" >"$tmp/c.proof"
expect 1 "truncated mid-line" "$gdlc" check-proof "$G" "$tmp/c.proof"
: >"$tmp/c.proof"
reject "empty" "$G" "$tmp/c.proof" "the file ends before its 'gdlc-proof' line"
{ cat "$P"; echo "end"; } >"$tmp/c.proof"
reject "after end" "$G" "$tmp/c.proof" "a line after 'end'"
head -c 3000 /dev/urandom >"$tmp/c.proof"
expect 1 "random bytes" "$gdlc" check-proof "$G" "$tmp/c.proof"
# deep: a proof of a million nested parentheses is one malformed token, not a crash
awk 'BEGIN { printf "gdlc-proof 1\nroles first second\nstart "; for (i = 0; i < 1000000; i++) printf "("; print "" }' >"$tmp/c.proof"
reject "deep" "$G" "$tmp/c.proof" "c.proof:3: error: a '(' without its ')'"

# mutations of a valid proof (lines deleted, doubled, swapped, cut; bytes
# and tokens changed), seeded: each one exits 0 or 1, never anything else
# (a crash, a sanitizer's report)
mutants=0
for seed in $(seq 1 40); do
    awk -v seed="$seed" 'BEGIN { srand(seed) }
        { l[NR] = $0 }
        END {
            n = NR
            for (m = 0; m < 1 + int(rand() * 3); m++) {
                k = 1 + int(rand() * n); op = int(rand() * 6)
                if (op == 0) { for (i = k; i < n; i++) l[i] = l[i + 1]; n-- }
                else if (op == 1) { n++; for (i = n; i > k; i--) l[i] = l[i - 1] }
                else if (op == 2 && length(l[k]) > 0) {
                    j = 1 + int(rand() * length(l[k])); c = substr("()019 ;xab-", 1 + int(rand() * 11), 1)
                    l[k] = substr(l[k], 1, j - 1) c substr(l[k], j + 1)
                } else if (op == 3) {
                    t = split(l[k], w, " ")
                    if (t > 2) {
                        w[2 + int(rand() * (t - 1))] = (rand() < 0.5 ? "18446744073709551616" : "7")
                        s = w[1]; for (i = 2; i <= t; i++) s = s " " w[i]; l[k] = s
                    }
                } else if (op == 4) n = k
                else { j = 1 + int(rand() * n); s = l[j]; l[j] = l[k]; l[k] = s }
            }
            for (i = 1; i <= n; i++) print l[i]
        }' "$tmp/nim23.proof" >"$tmp/m.proof"
    "$gdlc" check-proof "$G" "$tmp/m.proof" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -gt 1 ] || grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
        echo "FAIL: mutant $seed: exit $rc"
        head -n 5 "$tmp/err"
        fail=$((fail + 1))
    else
        mutants=$((mutants + 1))
    fi
done
pass=$((pass + mutants))

# ---- usage ----
expect 2 "missing proof" "$gdlc" check-proof "$G" "$tmp/no-such.proof"
expect 2 "missing game" "$gdlc" check-proof "$tmp/no-such.kif" "$P"
expect 2 "one argument" "$gdlc" check-proof "$G"
expect 2 "bad option" "$gdlc" check-proof "$G" "$P" --frob
expect 2 "bad engine" "$gdlc" check-proof "$G" "$P" --engine nosuch

# ---- symmetries on tic-tac-toe ----
# reflection FILE MOVE: the reflection c -> 4 - c of the board, every cell and mark,
# and the moves (MOVE r c) of both roles
reflection() {
    {
        echo "symmetries 1"
        for r in 1 2 3; do for c in 1 2 3; do for m in x o b; do
            echo "map 1 fact (cell $r $c $m) (cell $r $((4 - c)) $m)"
        done; done; done
        for p in xplayer oplayer; do for r in 1 2 3; do for c in 1 2 3; do
            echo "map 1 move $p ($2 $r $c) ($2 $r $((4 - c)))"
        done; done; done
    } >"$1"
}
# bogus: the corner (1 1) and the centre swapped, every mark (moves left alone)
{
    echo "symmetries 1"
    for m in x o b; do
        echo "map 1 fact (cell 1 1 $m) (cell 2 2 $m)"
        echo "map 1 fact (cell 2 2 $m) (cell 1 1 $m)"
    done
} >"$tmp/bogus.syms"
printf 'symmetries 1\nmap 1 fact (cell 1 1 x) (cell 2 2 x)\n' >"$tmp/onto.syms"
ttt() { # ttt GAME MOVE
    g=$1 name=$(basename "$1" .kif)
    reflection "$tmp/refl.syms" "$2"
    expect 0 "$name: minimax with the reflection" "$mm" "$g" -e jit -s "$tmp/refl.syms" -o "$tmp/$name-refl.proof"
    has "$name: value" "$tmp/out" " 50 ("
    n=$(grep -c '^edge [0-9]* [0-9]* 1 ' "$tmp/$name-refl.proof")
    if [ "$n" -gt 0 ]; then pass=$((pass + 1)); else echo "FAIL: $name: no edge uses the reflection"; fail=$((fail + 1)); fi
    expect 0 "$name: the reflection accepted" "$gdlc" check-proof "$g" "$tmp/$name-refl.proof"
    has "$name: the reflection accepted" "$tmp/out" "ok: xplayer gets [50, 50]"
    # an edge's symmetry past the one listed: refused at its line (it once
    # indexed the table of symmetries past its end)
    el=$(grep -n '^edge [0-9]* [0-9]* 1 ' "$tmp/$name-refl.proof" | head -n 1 | cut -d: -f1)
    awk -v el="$el" 'NR == el { $4 = 9 } { print }' "$tmp/$name-refl.proof" >"$tmp/c.proof"
    reject "$name: symmetry past 1" "$g" "$tmp/c.proof" "c.proof:$el: error: node"
    has "$name: symmetry past 1" "$tmp/err" "SYM is 0 (the identity) or a symmetry from 1 to 1"
    expect 0 "$name: minimax with a bogus symmetry" "$mm" "$g" -e jit -s "$tmp/bogus.syms" -o "$tmp/$name-bogus.proof"
    n=$(grep -c '^edge [0-9]* [0-9]* 1 ' "$tmp/$name-bogus.proof")
    if [ "$n" -gt 0 ]; then pass=$((pass + 1)); else echo "FAIL: $name: no edge uses the bogus symmetry"; fail=$((fail + 1)); fi
    reject "$name: bogus symmetry" "$g" "$tmp/$name-bogus.proof" "error: node 0: symmetry 1 does not commute with the game here"
    # the oracle's plain proof with the bogus map pasted in, on no edge: still rejected
    sed '/^symmetries 0/{
r '"$tmp/bogus.syms"'
d
}' "$tmp/$name.proof" >"$tmp/c.proof"
    reject "$name: bogus symmetry unused" "$g" "$tmp/c.proof" "node 0: symmetry 1 does not commute"
    sed '/^symmetries 0/{
r '"$tmp/onto.syms"'
d
}' "$tmp/$name.proof" >"$tmp/c.proof"
    reject "$name: not a bijection" "$g" "$tmp/c.proof" "c.proof:7: error: symmetry 1 is not a bijection"
    printf 'symmetries 1\nmap 1 fact (cell 1 1 x) (cell 1 3 x)\nmap 1 fact (cell 1 1 x) (cell 3 1 x)\n' >"$tmp/twice.syms"
    sed '/^symmetries 0/{
r '"$tmp/twice.syms"'
d
}' "$tmp/$name.proof" >"$tmp/c.proof"
    reject "$name: a fact mapped twice" "$g" "$tmp/c.proof" "c.proof:7: error: symmetry 1 maps (cell 1 1 x) twice"
    sed 's/^symmetries 0/symmetries 1/' "$tmp/$name.proof" >"$tmp/c.proof"
    reject "$name: the identity listed" "$g" "$tmp/c.proof" "c.proof:6: error: symmetry 1 is the identity"
    { echo "symmetries 2"; grep '^map' "$tmp/refl.syms"; grep '^map' "$tmp/refl.syms" | sed 's/^map 1/map 2/'; } >"$tmp/again.syms"
    sed '/^symmetries 0/{
r '"$tmp/again.syms"'
d
}' "$tmp/$name.proof" >"$tmp/c.proof"
    reject "$name: a symmetry twice" "$g" "$tmp/c.proof" "error: symmetry 2 is symmetry 1 again"
    # two reflections (columns, rows) without their composition: no group
    {
        echo "symmetries 2"
        grep '^map' "$tmp/refl.syms"
        for r in 1 2 3; do for c in 1 2 3; do for m in x o b; do
            echo "map 2 fact (cell $r $c $m) (cell $((4 - r)) $c $m)"
        done; done; done
    } >"$tmp/two.syms"
    sed '/^symmetries 0/{
r '"$tmp/two.syms"'
d
}' "$tmp/$name.proof" >"$tmp/c.proof"
    reject "$name: not a group" "$g" "$tmp/c.proof" "error: the symmetries are not a group"
}
expect 0 "games/tictactoe minimax" "$mm" "$src/games/tictactoe.kif" -e jit -o "$tmp/tictactoe.proof"
has "games/tictactoe value" "$tmp/out" "xplayer 50 (5478 states)"
ttt "$src/games/tictactoe.kif" play

# ---- the corpus ----
if [ -z "$shared" ] || ! [ -d "$shared/games" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: the shared corpus is missing at $shared (set GDL_SHARED)"
        fail=$((fail + 1))
    else
        echo "SKIP: the corpus games (the shared corpus is missing at $shared; set GDL_SHARED)"
    fi
else
    c=$shared/games/ggp-repository
    value "$c/nim1.kif" jit 100
    value "$c/nim2.kif" jit 0
    value "$c/chomp.kif" jit 100
    value "$c/ticTacToe.kif" jit 50
    if [ "$mode" != sanitize ]; then
        value "$c/nim3.kif" jit 100
        value "$c/nim4.kif" jit 0
    fi
    ttt "$c/ticTacToe.kif" mark
fi

echo "proof: $pass passed, $fail failed"
[ $fail -eq 0 ]
