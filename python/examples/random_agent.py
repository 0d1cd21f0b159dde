"""A random agent through the PettingZoo-style AEC environment.

    /usr/bin/python3 random_agent.py [GAME.kif] [GAMES]

Plays GAMES games (default 10) with every role choosing uniformly among its
legal moves, and prints each role's mean goal.
"""
import os
import sys

import gdlc

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "games", "tictactoe.kif")
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    env = gdlc.env(path)
    totals = {a: 0.0 for a in env.possible_agents}
    for seed in range(games):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                totals[agent] += reward
                env.step(None)
            else:
                env.step(env.action_space(agent).sample(obs["action_mask"]))
    for agent, total in totals.items():
        print("%s: mean goal %.1f over %d games" % (agent, total / games, games))


if __name__ == "__main__":
    main()
