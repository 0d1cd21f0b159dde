"""bench/python.py: what the Python package costs over the C it calls, side by side in one run.

    taskset -c 1 /usr/bin/python3 bench/python.py [--gdlc build/gdlc] [--seconds 3] [--rounds 3] [GAME ...]

With PYTHONPATH naming the installed package (scripts/python.sh installs it
into build-python/site). For each game, median of --rounds rounds:

* single states: a Python loop of legal_actions / apply_actions /
  is_terminal (random.choice per role) over engine pn, against `gdlc bench
  --engine pn` (the C library's own playout loop, same engine) in the same
  run; the cost Python adds a step is 1/python_rate - 1/c_rate (target: 2 us
  at most);
* batched: VectorEnv.step with 256 games, each game's action drawn from its
  mask in numpy (gdlc.sample_actions, timed), against the C batched
  engine's own playouts of 256 lanes (`gdlc bench --batch 256`); target: at
  least 50% of it.

Writes a Markdown table to stdout (bench/results/python.md keeps one).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

import numpy as np

import gdlc

GAMES = ["ggp-repository/ticTacToe.kif", "ggp-repository/connectFour.kif", "ggp-repository/breakthrough.kif",
         "ggp-repository/reversi.kif", "ggp-repository/chess_200.kif"]


def python_loop(game, seconds, seed):
    rng = random.Random(seed)
    roles = range(game.num_players())
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_actions([rng.choice(s.legal_actions(k)) for k in roles])
            steps += 1
    return steps / (time.perf_counter() - t0)


def vector_loop(game, seconds, seed):
    env = gdlc.VectorEnv(game, 256, seed=seed)
    assert env.engine == "batch", env.plan
    rng = np.random.default_rng(seed)
    obs, masks = env.reset(seed)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        obs, masks, rewards, done = env.step(gdlc.sample_actions(masks, rng))
        steps += 1
    return steps * 256 / (time.perf_counter() - t0)


def c_bench(gdlc_bin, path, seconds, extra):
    out = subprocess.run([gdlc_bin, "bench", path, "--seconds", str(seconds), "--json"] + extra, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["state_changes_per_s"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gdlc", default="build/gdlc")
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("games", nargs="*")
    args = ap.parse_args()
    shared = os.environ.get("GDL_SHARED") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                           "shared")
    games = args.games or [os.path.join(shared, "games", g) for g in GAMES]
    print("| game | C pn states/s | Python loop states/s | Python adds (us a step) | C batch 256 states/s "
          "| VectorEnv 256 states/s | VectorEnv / C batch |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for path in games:
        game = gdlc.load_game(path, engine="pn")
        rows = {k: [] for k in ("c", "py", "cb", "vec")}
        for r in range(args.rounds):
            rows["c"].append(c_bench(args.gdlc, path, args.seconds, ["--engine", "pn"]))
            rows["py"].append(python_loop(game, args.seconds, r))
            rows["cb"].append(c_bench(args.gdlc, path, args.seconds, ["--batch", "256"]))
            rows["vec"].append(vector_loop(game, args.seconds, r))
        m = {k: statistics.median(v) for k, v in rows.items()}
        added = (1 / m["py"] - 1 / m["c"]) * 1e6
        print("| %s | %.2f M | %.2f M | %.2f | %.2f M | %.2f M | %.2f |" % (
            os.path.basename(path), m["c"] / 1e6, m["py"] / 1e6, added, m["cb"] / 1e6, m["vec"] / 1e6,
            m["vec"] / m["cb"]))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
