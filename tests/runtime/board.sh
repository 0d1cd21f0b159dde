#!/bin/sh
# board.sh GDLC SRC: engine board's layout claims, options and plan
# (runtime/board.c), through the command line:
#  - a planted wrong layout: keys=cell/3:0 on tic-tac-toe (a row's number
#    alone would determine a cell's content) with unchecked makes `gdlc
#    verify` exit 1 naming the difference at the first state; the same
#    layout checked agrees with ref;
#  - a claim that fails late (board/late_break.kif: a cell gets a second
#    value at step 601, past what sampling plays): the layout found by
#    sampling agrees with ref when checked, and verify catches the
#    difference at step 601 when unchecked;
#  - bad options are refused with exit 1 (as jit:fast is: a bad engine
#    argument is the input's fault, exit 2 is for no such engine) and a
#    message naming the options;
#  - the plan (`gdlc bench --json`) names the layout on tic-tac-toe (cell/3:
#    0 1 -> 2), says "goal-directed code (board: REASON)" on a game it
#    declines (a nested function term in a fact; calls chained deeper than
#    its code may nest them), and names how it runs a
#    recursive relation of the state and a legal move that is a variable,
#    which it compiles; each agrees with ref;
#  - `gdlc emit --engine board` prints C that the system compiler compiles
#    (its warnings: backend/emit-board), and exits 1 with the reason on a
#    declined game;
#  - board:cc agrees with ref and caches one object per code: the
#    unchecked code of a layout apart from the checked one.
set -u
gdlc=$1 src=$2
. "$src/tests/lib/lib.sh"
export XDG_CACHE_HOME="$tmp/cache"
ttt=$src/games/tictactoe.kif
dir=$src/tests/runtime/board

# the planted claim
expect 1 "unchecked wrong layout" "$gdlc" verify "$ttt" --engine board:keys=cell/3:0,unchecked --playouts 3
has "unchecked wrong layout" "step 0: the legal moves of xplayer differs" "$tmp/err"
has "unchecked wrong layout" "engine board: (play 1 3) (play 2 3) (play 3 3)" "$tmp/err"
expect 0 "checked wrong layout" "$gdlc" verify "$ttt" --engine board:keys=cell/3:0 --playouts 10
has "checked wrong layout" "engine board:keys=cell/3:0 agrees with ref" "$tmp/out"
expect 0 "late claim, checked" "$gdlc" verify "$dir/late_break.kif" --engine board --playouts 1
has "late claim, checked" "agrees with ref: 1 playout, 701 states checked" "$tmp/out"
expect 1 "late claim, unchecked" "$gdlc" verify "$dir/late_break.kif" --engine board:unchecked --playouts 1
has "late claim, unchecked" "playout 1, step 601: the state differs" "$tmp/err"
has "late claim, unchecked" "engine ref: (cell a x) (cell a y)" "$tmp/err"

# bad options
expect 1 "jit:fast (the status a bad engine argument gets)" "$gdlc" verify "$ttt" --engine jit:fast
for opt in fast keys=nothing/3:0 keys=cell/3:3 keys=cell:0 keys=cell/x:0 keys=cell/3:0.x; do
    expect 1 "board:$opt" "$gdlc" verify "$ttt" --engine "board:$opt"
    has "board:$opt" "engine board's options are cc, tiered, unchecked, reversed and keys=NAME/ARITY:P.P" "$tmp/err"
    has "board:$opt" "'$opt'" "$tmp/err"
done
expect 1 "board:cc,bogus in bench" "$gdlc" bench "$ttt" --engine board:cc,bogus --seconds 0.1
has "board:cc,bogus in bench" "'bogus'" "$tmp/err"

# the plan: the layout, or why the goal-directed code plays
expect 0 "bench tictactoe" "$gdlc" bench "$ttt" --engine board --seconds 0.1 --json
has "the layout" '"plan": "board: the state as slots' "$tmp/out"
has "the layout" "cell/3: 0 1 -> 2" "$tmp/out"
has "the layout" "control/1: -> 0" "$tmp/out"
has "the frames" "carried over by frames (copied, the facts no frame rule keeps cleared): cell/3" "$tmp/out"

# next states written through the id-order bitset (the layout's facts made
# in reverse order, as when the plan of jit makes the board last)
expect 0 "reversed ids" "$gdlc" verify "$ttt" --engine board:reversed --playouts 5
has "reversed ids" "engine board:reversed agrees with ref" "$tmp/out"
expect 0 "reversed ids, late claim" "$gdlc" verify "$dir/late_break.kif" --engine board:reversed --playouts 1
has "reversed ids, late claim" "agrees with ref: 1 playout, 701 states checked" "$tmp/out"

# the second tier: libtcc's code, then the system compiler's (compiled by
# a thread of its own, into the aot cache); a machine freed while the
# compiler runs kills it and leaves no file behind
# (the object made first by board:cc, so that the second tier only loads
# it: the bench does not race a compiler on a loaded machine)
expect 0 "tiered, its object cached" "$gdlc" bench "$ttt" --engine board:cc --seconds 0.1
expect 0 "tiered" "$gdlc" bench "$ttt" --engine board:tiered --seconds 1 --json
has "tiered" "board, the system compiler's code: the state as slots" "$tmp/out"
expect 0 "tiered agrees" "$gdlc" verify "$src/games/reversi.kif" --engine board:tiered --playouts 2
rm -rf "$XDG_CACHE_HOME/gdlc"
expect 0 "tiered, freed at once" "$gdlc" verify "$src/games/reversi.kif" --engine board:tiered --playouts 1 --max-steps 1
check "tiered, freed at once: no compiler's file left" sh -c "! ls '$XDG_CACHE_HOME/gdlc' 2>/dev/null | grep -q '\.c$\|\.tmp$'"
for case in "nested:a state fact is not a functor over constants: (at (pos 1 1))" \
    "chain:the rules call relations 301 deep, more than 256"; do
    game=${case%%:*} why=${case#*:}
    expect 0 "bench $game" "$gdlc" bench "$dir/$game.kif" --engine board --seconds 0.1 --json
    has "$game declined" "\"plan\": \"goal-directed code (board: $why" "$tmp/out"
    expect 0 "verify $game" "$gdlc" verify "$dir/$game.kif" --engine board --playouts 3
    expect 1 "emit $game" "$gdlc" emit --engine board "$dir/$game.kif"
    has "emit $game" "$why" "$tmp/err"
done

# a recursive relation of the state (evaluated without tables, bounded)
# and a legal move that is a variable (a move as a value) are compiled
for case in "recursive:recursive, without tables, bounded: path/2" "variable_move:compiled legal/2"; do
    game=${case%%:*} how=${case#*:}
    expect 0 "bench $game" "$gdlc" bench "$dir/$game.kif" --engine board --seconds 0.1 --json
    has "$game compiled" '"plan": "board: the state as slots' "$tmp/out"
    has "$game compiled" "$how" "$tmp/out"
    expect 0 "verify $game" "$gdlc" verify "$dir/$game.kif" --engine board --playouts 3
done

# the C
expect 0 "emit tictactoe" "$gdlc" emit --engine board "$ttt" -o "$tmp/ttt.c"
check "emit tictactoe: bg_legal, bg_next, bg_terminal, bg_goals" \
    sh -c "for f in bg_legal bg_next bg_terminal bg_goals; do grep -q \"^[a-z].* \$f(\" '$tmp/ttt.c' || exit 1; done"
expect 0 "cc compiles the board's C" ${CC:-cc} -std=c11 -fPIC -c "$tmp/ttt.c" -o "$tmp/ttt.o"
expect 2 "emit --engine board with a dump" "$gdlc" emit --engine board --dump=plan "$ttt"

# board:cc, cached by its code
expect 1 "board:cc unchecked wrong layout" "$gdlc" verify "$ttt" --engine board:cc,keys=cell/3:0,unchecked --playouts 3
has "board:cc unchecked wrong layout" "the legal moves of xplayer differs" "$tmp/err"
expect 0 "board:cc checked" "$gdlc" verify "$ttt" --engine board:cc,keys=cell/3:0 --playouts 3
expect 0 "board:cc" "$gdlc" verify "$ttt" --engine board:cc --playouts 3
expect 0 "board:cc again (from the cache)" "$gdlc" verify "$ttt" --engine board:cc --playouts 3
check "board:cc caches one object per code (3)" [ "$(ls "$XDG_CACHE_HOME/gdlc" | grep -c '\.so$')" -eq 3 ]

echo "board: $pass passed, $fail failed"
[ $fail -eq 0 ]
