#!/bin/sh
# bench/plan-load.sh [--makes N] [--core C] [GAME.kif ...]
#
# Is the default engine's plan the same under load? For each game, N
# machines made quiet, then N with a busy loop sharing gdlc's core (both
# pinned to core C, so that the plan's timing shares its core with
# another process the whole time), each `gdlc bench --seconds 0.01`; the
# count of each plan (its words before the first comma or colon) is
# printed per game and condition. A benchmark, not a test: run it alone.
#   --makes N  machines per game and condition (env MAKES, default 10)
#   --core C   the core (env CORE, default 1)
# Env: GDLC (default build/gdlc), GDL_SHARED (default ../shared); the games
# default to the eight headline games and ggp-repository/connect4.kif.
set -u
makes=${MAKES:-10} core=${CORE:-1}
while [ $# -gt 0 ]; do
    case $1 in
    --makes) makes=$2; shift 2 ;;
    --core) core=$2; shift 2 ;;
    *) break ;;
    esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
gdlc=${GDLC:-$here/build/gdlc}
shared=${GDL_SHARED:-$here/../shared}
if [ $# -eq 0 ]; then
    set --
    for g in ticTacToe connectFour connect4 breakthrough checkers reversi hex amazons_10x10 chess_200; do
        set -- "$@" "$shared/games/ggp-repository/$g.kif"
    done
fi
plan_of() { # the plan's first words
    taskset -c "$core" "$gdlc" bench "$1" --seconds 0.01 --json 2>/dev/null |
        sed -n 's/.*"plan": "\([^,:"]*\).*/\1/p'
}
for g in "$@"; do
    for cond in quiet busy; do
        busy=
        if [ $cond = busy ]; then
            taskset -c "$core" sh -c 'while :; do :; done' &
            busy=$!
        fi
        i=0
        plans=$(while [ $i -lt "$makes" ]; do plan_of "$g"; i=$((i + 1)); done | sort | uniq -c | sed 's/^ *//' | tr '\n' ';')
        [ -n "$busy" ] && kill "$busy" 2>/dev/null
        wait 2>/dev/null
        printf '%s\t%s\t%s\n' "$(basename "$g" .kif)" "$cond" "$plans"
    done
done
