#!/bin/sh
# bench/player.sh [--quick] [speed] [ablation] [strength] [balance]
#
# The player's figures (issue 16), one part or all (the default):
#  speed     playouts per second of the player's UCT search (bench/player.c:
#            a machine, analysis and tree per thread, root statistics
#            summed) on Connect Four and Breakthrough, engines jit and pn,
#            1 and 2 threads, SPEED_SECONDS (default 3) per position;
#  ablation  the analyses' cost in the tree (none, goal ranges, winning
#            moves, both) at a fixed number of playouts;
#  strength  UCT against flat Monte-Carlo at equal playouts, seats
#            alternating, with the 95% interval: Connect Four at
#            C4_PLAYOUTS (default 500) over C4_MATCHES (default 100),
#            Breakthrough at BT_PLAYOUTS (default 300) over BT_MATCHES
#            (default 40); and UCT with the analyses against UCT without;
#  balance   gdlc balance --no-analyses (UCT against itself at
#            BAL_PLAYOUTS, default 1000, 300 on nine-board tic-tac-toe, 100 on
#            Breakthrough and hex, over BAL_MATCHES, default 400: an interval
#            of about +-5)
#            for ticTacToe, connectFour, breakthrough, hex and
#            nineBoardTicTacToe, before and after `gdlc pie` (skipped when
#            pie is not built or refuses the game).
# --quick divides the match counts by 10 (first figures, not publishable).
# GDLC names the gdlc binary (default build/gdlc).
# Matches run JOBS at once (default: the number of cores; the same results).
# Playout budgets, not time, so strength and balance figures depend on the
# seeds only; the engine (pn, or jit for hex where pn is slower) changes
# only how long they take. Builds build/ when it is not there. A benchmark,
# not a test. The long parts take hours on a 2-core machine: run them alone.
set -eu
cd "$(dirname "$0")/.."
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
g=$shared/games/ggp-repository
div=1
if [ "${1:-}" = --quick ]; then div=10; shift; fi
parts=${*:-speed ablation strength balance}
[ -f build/CMakeCache.txt ] || scripts/build.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target gdlc bench_player -j 2 >/dev/null
gdlc=${GDLC:-build/gdlc} b=build/bench_player
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=${JOBS:-$(nproc)}
engine_of() { case $1 in hex) echo jit ;; *) echo pn ;; esac; }
# Playouts per move of the balance table: fewer on the long games, so that
# 400 matches of each fit in an hour of two cores (BAL_PLAYOUTS sets all).
bal_playouts_of() { case $1 in breakthrough | hex) echo 100 ;; nineBoardTicTacToe) echo 300 ;; *) echo 1000 ;; esac; }
n() { x=$(($1 / div)); [ $x -ge 2 ] || x=2; echo $x; }

for part in $parts; do
    case $part in
    speed)
        echo "== playouts per second (UCT search; $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg))"
        for game in connectFour breakthrough; do
            for e in jit pn; do
                for t in 1 2; do
                    $b speed "$g/$game.kif" --engine $e --threads $t --seconds "${SPEED_SECONDS:-3}"
                done
            done
        done
        ;;
    ablation)
        echo "== the analyses in the tree: cost at equal playouts"
        $b ablation "$g/connectFour.kif" --engine pn --playouts 5000
        $b ablation "$g/breakthrough.kif" --engine pn --playouts 1000
        ;;
    strength)
        echo "== UCT against flat Monte-Carlo at equal playouts"
        p=${C4_PLAYOUTS:-500}
        $gdlc match "$g/connectFour.kif" --player "mcts:$p,engine=pn" --player "flat:$p,engine=pn" \
            --matches "$(n "${C4_MATCHES:-100}")" --jobs "$jobs" --quiet
        p=${BT_PLAYOUTS:-300}
        $gdlc match "$g/breakthrough.kif" --player "mcts:$p,engine=pn" --player "flat:$p,engine=pn" \
            --matches "$(n "${BT_MATCHES:-40}")" --jobs "$jobs" --quiet
        echo "== UCT with the analyses against UCT without, equal playouts"
        p=${C4_PLAYOUTS:-500}
        $gdlc match "$g/connectFour.kif" --player "mcts:$p,engine=pn" --player "mcts:$p,engine=pn,analyses=0" \
            --matches "$(n "${C4_MATCHES:-100}")" --jobs "$jobs" --quiet
        ;;
    balance)
        m=$(n "${BAL_MATCHES:-400}")
        echo "== balance: first seat's score, UCT (no analyses) against itself, $m matches"
        echo "| game | playouts per move | first seat | with the pie rule |"
        echo "|---|---:|---|---|"
        for game in ticTacToe connectFour nineBoardTicTacToe breakthrough hex; do
            e=$(engine_of $game) p=${BAL_PLAYOUTS:-$(bal_playouts_of $game)}
            before=$($gdlc balance "$g/$game.kif" --playouts "$p" --matches "$m" --engine "$e" --jobs "$jobs" \
                --no-analyses --quiet | sed -n 's/^first seat [^:]*: //p')
            after="(pie not available)"
            if $gdlc pie "$g/$game.kif" -o "$tmp/${game}_pie.kif" >/dev/null 2>"$tmp/pie.err"; then
                after=$($gdlc balance "$tmp/${game}_pie.kif" --playouts "$p" --matches "$m" --engine "$e" \
                    --jobs "$jobs" --no-analyses --quiet | sed -n 's/^first seat [^:]*: //p')
            fi
            echo "| $game | $p | $before | $after |"
        done
        ;;
    *)
        echo "bench/player.sh: unknown part '$part' (speed, ablation, strength, balance)" >&2
        exit 2
        ;;
    esac
done
