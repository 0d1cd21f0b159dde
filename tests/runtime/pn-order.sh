#!/bin/sh
# pn-order.sh GDLC SHARED: engine pn's choice of drain (pn.c: choose_order)
# on the corpus files, by the work of a seeded sample, so the same on every
# machine: Reversi, whose queue tells 40% of its changes more than once,
# and hex (8% less work) drain in topological order; Breakthrough,
# Connect Four and checkers (8% more) keep the queue. Read from the plan
# jit:pn reports (the network without timing).
set -u
gdlc=$1 shared=$2
. "$(dirname "$0")/../lib/need-corpus.sh"
need_corpus "$shared/games/ggp-repository/reversi.kif" "$shared"
fail=0
plan() { "$gdlc" bench --engine jit:pn --seconds 0.05 "$shared/games/ggp-repository/$1.kif" | sed -n 's/^engine: *//p'; }
for g in reversi hex breakthrough connectFour checkers; do
    p=$(plan $g)
    case "$g:$p" in
    reversi:*"changes told in topological order"* | hex:*"changes told in topological order"*) echo "ok: $g: $p" ;;
    reversi:* | hex:*) echo "FAIL: $g should drain in topological order: '$p'"; fail=1 ;;
    *"changes told in topological order"*) echo "FAIL: $g should keep the queue: '$p'"; fail=1 ;;
    *propositional*) echo "ok: $g: $p" ;;
    *) echo "FAIL: $g: no network in the plan: '$p'"; fail=1 ;;
    esac
done
exit $fail
