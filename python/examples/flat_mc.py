"""Flat Monte-Carlo over the OpenSpiel-style API, its playouts run by the batch.

    /usr/bin/python3 flat_mc.py [GAME.kif] [PLAYOUTS]

Plays one game of flat Monte-Carlo (PLAYOUTS random playouts a candidate
move, default 128, run 64 at a time by gdlc.Batch.playouts) against a
random opponent and prints the moves and the result.
"""
import os
import random
import sys

import gdlc

HERE = os.path.dirname(os.path.abspath(__file__))


def best_action(state, player, batch, playouts):
    """The legal action whose random playouts give the player the highest mean goal."""
    best, best_value = None, -1.0
    for a in state.legal_actions(player):
        nexts = []
        joint_fixed = [a if k == player else None for k in range(state.game.num_players())]
        for _ in range(playouts):
            s = state.clone()
            s.apply_actions([x if x is not None else random.choice(s.legal_actions(k))
                             for k, x in enumerate(joint_fixed)])
            nexts.append(s)
        goals = batch.playouts(nexts)
        value = float(goals[:, player].clip(min=0).mean())
        if value > best_value:
            best, best_value = a, value
    return best, best_value


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "games", "connect4.kif")
    playouts = int(sys.argv[2]) if len(sys.argv) > 2 else 128
    random.seed(1)
    game = gdlc.load_game(path, engine="pn")
    batch = gdlc.Batch(game, 64, seed=1)
    state = game.new_initial_state()
    me = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == me:
            a, v = best_action(state, me, batch, playouts)
            print("%s plays %s (mean goal %.1f)" % (game.player_names()[me], state.action_to_string(me, a), v))
            state.apply_action(a)
        elif p == gdlc.SIMULTANEOUS:
            a, _ = best_action(state, me, batch, playouts)
            state.apply_actions([a if k == me else random.choice(state.legal_actions(k))
                                 for k in range(game.num_players())])
        else:
            state.apply_action(random.choice(state.legal_actions(p)))
    print("result:", dict(zip(game.player_names(), state.returns())))


if __name__ == "__main__":
    main()
