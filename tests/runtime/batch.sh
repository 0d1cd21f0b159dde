#!/bin/sh
# batch.sh GDLC SRC: the batched playouts through the command line:
#  - `gdlc verify --batch N` agrees with ref on the shipped games (every
#    lane's states, legal moves, draws, ends and goals), at 64 and 512
#    lanes, with a step cap that ends some playouts;
#  - a game whose goal is no number: the batch and ref report the fault,
#    exit 1 as plain verify's "every playout ended in a fault"; so do
#    games where some lanes end with several goal values or none;
#  - `gdlc bench --batch N --json` has bench's keys and the batch's (lanes,
#    threads, the plan), over one thread and two;
#  - a game past the grounding budget (one-move Amazons) is refused with
#    exit 1, naming the engine that plays it;
#  - --batch-eval changes (the state's gates by changed rows) agrees too;
#  - usage errors: lanes not a multiple of 64 or past 512, --threads
#    without --batch, --batch for a command that takes none.
set -u
gdlc=$1 src=$2
. "$src/tests/lib/lib.sh"
g=$src/games
for game in tictactoe connect4 breakthrough reversi amazons_split; do
    expect 0 "verify --batch 64 $game" "$gdlc" verify "$g/$game.kif" --batch 64 --seconds 1 --max-steps 40
    has "verify --batch 64 $game" "the batch agrees with ref: 64 lanes" "$tmp/out"
done
expect 0 "verify --batch 512" "$gdlc" verify "$g/tictactoe.kif" --batch 512 --seconds 1 --max-steps 6
has "verify --batch 512" "the batch agrees with ref: 512 lanes" "$tmp/out"
expect 0 "verify --batch-eval changes" "$gdlc" verify "$g/reversi.kif" --batch 64 --batch-eval changes --seconds 1 --max-steps 30
has "verify --batch-eval changes" "the batch agrees with ref" "$tmp/out"
expect 0 "bench --batch-eval changes" "$gdlc" bench "$g/connect4.kif" --batch 64 --batch-eval changes --seconds 0.2
has "bench --batch-eval changes" "by changed rows" "$tmp/out"
expect 2 "--batch-eval junk" "$gdlc" bench "$g/connect4.kif" --batch 64 --batch-eval junk
expect 2 "--batch-eval alone" "$gdlc" bench "$g/connect4.kif" --batch-eval full
expect 1 "a goal that is no number" "$gdlc" verify "$src/tests/runtime/pn/goal_not_number.kif" --batch 64 --seconds 1
has "a goal that is no number" "until a game fault both report" "$tmp/out"
has "a goal that is no number" "not a number from 0 to 100" "$tmp/out"
# a word of lanes some of which end with several goal values or none: the
# first such lane is named (seed 4: lanes 0 to 2 played a), and ref agrees
for f in several:"r has several" none:"q has no"; do
    kif=${f%%:*} says=${f#*:}
    expect 1 "goals: $kif" "$gdlc" verify "$src/tests/runtime/pn/goal_$kif.kif" --batch 64 --seconds 1 --seed 4
    has "goals: $kif" "until a game fault both report" "$tmp/out"
    has "goals: $kif" "lane 3, step 1: role $says goal value" "$tmp/out"
done

# a role with no legal sentence at all: the fault at lane 0, as ref has it
expect 1 "a role without moves" "$gdlc" verify "$src/tests/runtime/pn/role_without_moves.kif" --batch 64 --seconds 1
has "a role without moves" "until a game fault both report" "$tmp/out"
has "a role without moves" "lane 0, step 0: role b has no legal move" "$tmp/out"

expect 0 "bench --batch --json" "$gdlc" bench "$g/connect4.kif" --batch 128 --seconds 0.3 --json
for key in '"engine": "batch"' '"lanes": 128' '"threads": 1' '"state_changes_per_s": ' '"playouts_per_s": ' \
    '"capped_playouts": ' '"plan": "batch: the network'"'"'s state whole' '"load_to_ready_s": ' '"peak_rss_kb": '; do
    has "bench --batch --json: $key" "$key" "$tmp/out"
done
expect 0 "bench --batch --threads 2" "$gdlc" bench "$g/tictactoe.kif" --batch 64 --threads 2 --seconds 0.3
has "bench --batch --threads 2" "64 a thread, 2 threads" "$tmp/out"

expect 1 "past the budget" "$gdlc" bench "$g/amazons.kif" --batch 64 --seconds 0.3
has "past the budget" "engine jit plays it, one state at a time" "$tmp/err"

expect 2 "--batch 100" "$gdlc" bench "$g/tictactoe.kif" --batch 100
has "--batch 100" "--batch takes a multiple of 64 from 64 to 512 lanes, not 100" "$tmp/err"
expect 2 "--batch 1024" "$gdlc" verify "$g/tictactoe.kif" --batch 1024
expect 2 "--threads alone" "$gdlc" bench "$g/tictactoe.kif" --threads 2
has "--threads alone" "--threads is for gdlc bench --batch" "$tmp/err"
expect 2 "--threads for verify" "$gdlc" verify "$g/tictactoe.kif" --batch 64 --threads 2
expect 2 "--batch for play" "$gdlc" play "$g/tictactoe.kif" --batch 64

echo "batch: $pass passed, $fail failed"
[ $fail -eq 0 ]
