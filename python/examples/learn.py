"""A tabular learning loop over the batched interface, numpy only.

    /usr/bin/python3 learn.py [GAME.kif] [STEPS]

Learns, for the first role of a two-role game, a value per (state, action)
by Monte-Carlo returns over 256 games stepped at once by gdlc.VectorEnv:
states are hashed from the observation bytes into a table; the first role
plays epsilon-greedy on it, the others at random. Prints the first role's
mean goal per 10,000 finished games: it rises above the random baseline
as the table learns (Tic-tac-toe: random against random gives x about 65;
here x passes 90 within 20,000 games).
"""
import os
import sys

import numpy as np

import gdlc

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = 1 << 20


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "games", "tictactoe.kif")
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    env = gdlc.VectorEnv(path, 256, engine="pn")
    n, players, actions = env.num_envs, env.num_players, env.num_actions
    rng = np.random.default_rng(0)
    value = np.zeros((TABLE, actions), dtype=np.float32)
    count = np.zeros((TABLE, actions), dtype=np.float32)
    weights = rng.integers(1, 2 ** 61, env.observation_size, dtype=np.int64)
    obs, masks = env.reset(seed=0)
    trail = [[] for _ in range(n)]  # per game: the (slot, action) pairs of role 0's choices
    finished, block = [], []
    print("engine:", env.engine)
    for step in range(steps):
        a = gdlc.sample_actions(masks, rng)
        slot = (obs.astype(np.int64) @ weights) % TABLE
        q = np.where(masks[:, 0], value[slot], -np.inf)
        greedy = q.argmax(axis=1)
        choose = (masks[:, 0].sum(axis=1) > 1) & (rng.random(n) > 0.1)
        a[choose, 0] = greedy[choose]
        for i in np.flatnonzero(masks[:, 0].sum(axis=1) > 1):
            trail[i].append((slot[i], a[i, 0]))
        obs, masks, rewards, done = env.step(a)
        for i in np.flatnonzero(done):
            g = rewards[i, 0]
            for s, act in trail[i]:
                count[s, act] += 1
                value[s, act] += (g - value[s, act]) / count[s, act]
            trail[i] = []
            block.append(g)
        if len(block) >= 10000:
            finished.append(float(np.mean(block)))
            print("games %6d: %s's mean goal %.1f" % (10000 * len(finished), env.game.player_names()[0], finished[-1]))
            block = []
    return finished


if __name__ == "__main__":
    main()
