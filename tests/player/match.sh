#!/bin/sh
# match.sh GDLC SRC: gdlc match and gdlc balance on gdlc's own games.
#  - a run of built-in players: the summary table (a row per player, a
#    column per seat, the interval), the records as a JSON array (-o FILE)
#    or a file per match (-o DIR), each a GGP-Base match record whose
#    goalValues match the table;
#  - seats rotate: with 2 matches each player sits in each seat once;
#  - balance: the first seat's score with its interval, the same for the
#    same seed, on another engine, and with --jobs 2; with --batch L, UCT
#    in batched rounds, the same on --jobs 2, bad lane counts refused;
#  - UCT in batched rounds (batch=64): never loses to random at
#    tic-tac-toe, the same moves for the same seed;
#  - bad input: bad specs, the wrong number of players, a missing or
#    rejected game, bad numbers, -o naming the game: a clear message, a
#    non-zero exit, nothing run.
set -u
gdlc=$1 src=$2
. "$src/tests/lib/lib.sh"
ttt=$src/games/tictactoe.kif

# a run, records as an array
expect 0 "match run" "$gdlc" match "$ttt" --player mcts:30 --player random --matches 2 -o "$tmp/rec.json"
has "summary header" "as xplayer"
has "summary row" "mcts:30"
has "summary interval" "+-"
has "progress" "match 2/2" "$tmp/err"
check "array of 2 records" [ "$(jq length "$tmp/rec.json")" = 2 ]
check "record keys" [ "$(jq -r '.[0] | has("matchId") and has("states") and has("moves") and has("errors") and has("goalValues") and has("stateTimes") and .isCompleted' "$tmp/rec.json")" = true ]
check "states = moves + 1" [ "$(jq '.[0] | (.states | length) - (.moves | length)' "$tmp/rec.json")" = 1 ]
# seats rotate: match 1 has mcts:30 as xplayer, match 2 as oplayer
check "seat rotation 1" [ "$(jq -r '.[0].playerNamesFromHost | join(" ")' "$tmp/rec.json")" = "mcts:30 random" ]
check "seat rotation 2" [ "$(jq -r '.[1].playerNamesFromHost | join(" ")' "$tmp/rec.json")" = "random mcts:30" ]
# the same seed, the same matches
expect 0 "match run again" "$gdlc" match "$ttt" --player mcts:30 --player random --matches 2 -o "$tmp/rec2.json"
check "deterministic moves" [ "$(jq -c '[.[].moves]' "$tmp/rec.json")" = "$(jq -c '[.[].moves]' "$tmp/rec2.json")" ]
# ...but never the same match ids: two runs against one long-running player
# must not land in each other's matches (the seed decides play, not the id)
check "match ids unique across runs" [ "$(jq -r '.[].matchId' "$tmp/rec.json" "$tmp/rec2.json" | sort -u | wc -l)" = 4 ]
check "match ids well formed" [ "$(jq -r '.[].matchId' "$tmp/rec.json" | grep -c '^gdlc\.[0-9a-f]\{16\}$')" = 2 ]
# a file per match in a directory
mkdir "$tmp/dir"
expect 0 "match to a directory" "$gdlc" match "$ttt" --player random --player flat:10 --matches 2 --quiet -o "$tmp/dir"
check "a file per match" [ -f "$tmp/dir/match-1.json" ] && [ -f "$tmp/dir/match-2.json" ]
check "a record per file" [ "$(jq -r '.goalValues | length' "$tmp/dir/match-2.json")" = 2 ]
check "quiet" [ ! -s "$tmp/err" ]

# balance
expect 0 "balance" "$gdlc" balance "$ttt" --matches 3 --playouts 20 --quiet
has "balance first seat" "first seat xplayer:"
has "balance interval" "+-"
cp "$tmp/out" "$tmp/bal0"
expect 0 "balance again" "$gdlc" balance "$ttt" --matches 3 --playouts 20 --quiet --engine ref
cp "$tmp/out" "$tmp/bal1"
grep seat "$tmp/out" >"$tmp/bal2"
grep seat "$tmp/bal0" >"$tmp/bal1s"
check "balance is the same on another engine" cmp -s "$tmp/bal2" "$tmp/bal1s"

expect 0 "balance --no-analyses" "$gdlc" balance "$ttt" --matches 2 --playouts 20 --no-analyses
has "balance --no-analyses players" "mcts:20,analyses=0 against itself"

# --batch: UCT in batched rounds, named in the players, the same results
# for the same seed and on --jobs 2; a bad lane count is a usage error
expect 0 "balance --batch 64" "$gdlc" balance "$ttt" --matches 3 --playouts 128 --no-analyses --batch 64 --quiet
has "balance --batch players" "mcts:128,analyses=0,batch=64 against itself"
has "balance --batch first seat" "first seat xplayer:"
cp "$tmp/out" "$tmp/balb"
expect 0 "balance --batch 64 --jobs 2" "$gdlc" balance "$ttt" --matches 3 --playouts 128 --no-analyses --batch 64 --quiet --jobs 2
check "balance --batch is the same on --jobs 2" cmp -s "$tmp/out" "$tmp/balb"
for bad in 0 100 x 1024; do
    expect 2 "balance --batch $bad" "$gdlc" balance "$ttt" --matches 1 --batch "$bad"
done
has "balance --batch 1024 named" "--batch takes a multiple of 64 from 64 to 512 lanes" "$tmp/err"

# --jobs: matches at once, the same results
expect 0 "balance --jobs 2" "$gdlc" balance "$ttt" --matches 3 --playouts 20 --quiet --engine ref --jobs 2
check "balance --jobs 2 is the same" cmp -s "$tmp/out" "$tmp/bal1"
expect 0 "match --jobs 2" "$gdlc" match "$ttt" --player mcts:30 --player random --matches 2 --jobs 2 -o "$tmp/rec3.json"
check "match --jobs 2, the same moves" [ "$(jq -c '[.[].moves]' "$tmp/rec.json")" = "$(jq -c '[.[].moves]' "$tmp/rec3.json")" ]

# bad input
expect 2 "bad --jobs" "$gdlc" match "$ttt" --player random --player random --jobs 0
expect 2 "no players" "$gdlc" match "$ttt"
expect 2 "one player for two roles" "$gdlc" match "$ttt" --player random
has "role count named" "2 roles" "$tmp/err"
for spec in uct:10 mcts:0 mcts:-1 mcts:1.5 mcts:abc flat:0s flat: mcts:10,threads=0 mcts:10,x=1 ""; do
    expect 2 "bad spec '$spec'" "$gdlc" match "$ttt" --player "$spec" --player random
    has "bad spec '$spec' named" "--player $spec:" "$tmp/err"
done
expect 2 "missing game" "$gdlc" match "$tmp/nothing.kif" --player random --player random
printf '(role x) (<= (legal x' >"$tmp/bad.kif"
expect 1 "rejected game" "$gdlc" match "$tmp/bad.kif" --player random --player random
has "rejected game's diagnostic" "error" "$tmp/err"
expect 2 "bad --matches" "$gdlc" match "$ttt" --player random --player random --matches 0
expect 2 "bad --play" "$gdlc" match "$ttt" --player random --player random --play x
expect 2 "unknown option" "$gdlc" match "$ttt" --player random --player random --colour red
cp "$ttt" "$tmp/g.kif"
expect 2 "-o naming the game" "$gdlc" match "$tmp/g.kif" --player random --player random -o "$tmp/g.kif"
check "the game is untouched" cmp -s "$ttt" "$tmp/g.kif"
expect 2 "balance bad playouts" "$gdlc" balance "$ttt" --playouts 0
expect 2 "balance no game" "$gdlc" balance
expect 2 "balance missing game" "$gdlc" balance "$tmp/nothing.kif"
expect 1 "balance rejected game" "$gdlc" balance "$tmp/bad.kif"
# UCT in batched rounds (batch=L): no loss to random, the same matches for
# the same seed; a lane count that is no multiple of 64 refused
expect 0 "batched UCT" "$gdlc" match "$ttt" --player mcts:640,analyses=0,batch=64 --player random --matches 4 -o "$tmp/b1.json"
check "batched UCT never loses" [ "$(jq '[.[] | .goalValues[.playerNamesFromHost | index("mcts:640,analyses=0,batch=64")]] | min' "$tmp/b1.json")" -ge 50 ]
expect 0 "batched UCT again" "$gdlc" match "$ttt" --player mcts:640,analyses=0,batch=64 --player random --matches 4 -o "$tmp/b2.json"
check "batched UCT: same seed, same moves" [ "$(jq -c '[.[].moves]' "$tmp/b1.json")" = "$(jq -c '[.[].moves]' "$tmp/b2.json")" ]
expect 2 "batch=100" "$gdlc" match "$ttt" --player mcts:10,batch=100 --player random
has "batch=100" "bad batch" "$tmp/err"
expect 0 "help match" "$gdlc" help match
has "help match text" "--player SPEC"
expect 0 "help balance" "$gdlc" help balance
has "help balance text" "--playouts P"

echo "match: $pass passed, $fail failed"
[ $fail -eq 0 ]
