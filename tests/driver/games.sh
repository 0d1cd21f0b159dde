#!/bin/sh
# games.sh GDLC SRC ENGINE: the games shipped in games/, on one engine:
# known positions, play -> replay round trips, the two split-turn Amazons
# playing identically, and bench and perf-test output on every game.
set -u
gdlc=$1 src=$2 engine=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# The moves of the first legal line of a game's initial state.
first_moves() {
    "$gdlc" play --engine "$engine" --max-steps 0 "$src/games/$1.kif" 2>/dev/null | grep -m1 "^(legal $2 "
}
count_moves() { first_moves "$1" "$2" | grep -o "($3 " | wc -l; }

[ "$(count_moves tictactoe xplayer play)" -eq 9 ] && ok || bad "tictactoe: 9 opening moves"
[ "$(count_moves connect4 red drop)" -eq 7 ] && ok || bad "connect4: 7 opening moves"
[ "$(count_moves breakthrough white move)" -eq 22 ] && ok || bad "breakthrough: 22 opening moves"
[ "$(count_moves amazons white play)" -eq 2176 ] && ok || bad "amazons: 2176 opening moves (queen move and arrow)"
[ "$(count_moves amazons_split white move)" -eq 80 ] && ok || bad "amazons_split: 80 opening queen moves"
[ "$(count_moves amazons_split_leftrec white move)" -eq 80 ] && ok || bad "amazons_split_leftrec: 80 opening queen moves"
[ "$(first_moves reversi black)" = "(legal black (move 3 4) (move 4 3) (move 5 6) (move 6 5))" ] && ok ||
    bad "reversi: black's four opening moves, got: $(first_moves reversi black)"

# Split-turn Amazons: right- and left-recursive lines give the same game.
for seed in 1 2 3; do
    "$gdlc" play --engine "$engine" --seed $seed "$src/games/amazons_split.kif" | grep -v '^;' >"$tmp/r"
    "$gdlc" play --engine "$engine" --seed $seed "$src/games/amazons_split_leftrec.kif" | grep -v '^;' >"$tmp/l"
    if cmp -s "$tmp/r" "$tmp/l" && grep -q '^(goals' "$tmp/r"; then ok; else bad "amazons split versions differ (seed $seed)"; fi
done

for g in "$src"/games/*.kif; do
    name=$(basename "$g" .kif)
    # play writes a trace that replay accepts
    for seed in 1 2; do
        if "$gdlc" play --engine "$engine" --seed $seed -o "$tmp/$name.trace" "$g" &&
            "$gdlc" replay --engine "$engine" "$g" "$tmp/$name.trace" >/dev/null; then ok; else bad "$name: play/replay seed $seed"; fi
    done
    # bench --json has every key, and counted something (or says that its
    # one playout was cut at the deadline: ref's on Amazons, under load)
    json=$("$gdlc" bench --engine "$engine" --seconds 0.3 --json "$g" 2>/dev/null)
    missing=""
    for key in game engine seconds state_changes playouts capped_playouts partial state_changes_per_s \
        playouts_per_s avg_depth load_to_ready_s peak_rss_kb; do
        echo "$json" | grep -q "\"$key\": " || missing="$missing $key"
    done
    if [ -z "$missing" ] && echo "$json" | grep -Eq '"state_changes": [1-9]|"partial": true'; then ok; else bad "$name: bench --json: $json (missing:$missing)"; fi
    # perf-test writes gdl-perf's lines (or, when one playout takes longer
    # than the budget and its grace, as ref's do on Amazons, that none finished)
    if "$gdlc" perf-test --engine "$engine" "$g" "$tmp/perf" 0.3 2>/dev/null &&
        grep -Eq "^version=gdlc [0-9.]+ $engine ([0-9a-f]+(-dirty)?|unknown)$" "$tmp/perf" && grep -Eq '^millisecondsTaken=[0-9]+$' "$tmp/perf" &&
        grep -Eq '^numStateChanges=[1-9][0-9]*$' "$tmp/perf" && grep -Eq '^numRollouts=[0-9]+$' "$tmp/perf"; then ok
    elif grep -q '^errorMessage=no playout finished' "$tmp/perf"; then ok
    else bad "$name: perf-test output: $(cat "$tmp/perf")"; fi
done

# perf-test reports a game it cannot load as errorMessage=
"$gdlc" perf-test --engine "$engine" "$src/tests/frontend/diag/unsafe_head.kif" "$tmp/perf" 0.1 2>/dev/null
if [ $? -eq 1 ] && grep -q '^errorMessage=' "$tmp/perf"; then ok; else bad "perf-test of an invalid game"; fi

echo "games ($engine): $pass passed, $fail failed"
[ $fail -eq 0 ]
