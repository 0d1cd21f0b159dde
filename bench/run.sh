#!/bin/sh
# bench/run.sh [SECONDS] [ENGINES]: runs `gdlc bench --json` on every engine
# and game, one at a time, and prints a Markdown table. SECONDS per cell
# (default 10); ENGINES a space-separated list (default "ref"). The games are
# ours in games/ and, when the shared corpus is there, the corpus files other
# engines are measured on.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-10}
engines=${2:-ref}
shared=${GDL_SHARED:-$(cd .. && pwd)/shared}
games="games/reversi.kif games/amazons_split.kif games/amazons_split_leftrec.kif games/amazons.kif
games/connect4.kif games/breakthrough.kif games/tictactoe.kif"
for g in reversi amazons amazons_10x10 connectFour breakthrough ticTacToe; do
    [ -f "$shared/games/ggp-repository/$g.kif" ] && games="$games $shared/games/ggp-repository/$g.kif"
done
echo "| game | engine | state changes/s | playouts/s | avg depth | load to ready (ms) | peak RSS (MB) |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for g in $games; do
    for e in $engines; do
        j=$(build/gdlc bench --engine "$e" --seconds "$seconds" --json "$g") || { echo "| $(basename "$g") | $e | failed | | | | |"; continue; }
        echo "$j" | python3 -c '
import json, sys, os
d = json.load(sys.stdin)
g = d["game"]
name = os.path.basename(g) if g.startswith("games/") else "corpus " + os.path.basename(g)
print("| %s | %s | %.0f | %.1f | %.1f | %.2f | %.1f |" % (name, d["engine"], d["state_changes_per_s"],
      d["playouts_per_s"], d["avg_depth"], d["load_to_ready_s"] * 1e3, d["peak_rss_kb"] / 1024))'
    done
done
