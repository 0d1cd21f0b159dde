"""Random playouts through the Python API agree with engine ref, state by state."""
import os
import random

import pytest

import gdlc
from conftest import game_path, need_shared

OURS = ["tictactoe.kif", "connect4.kif", "breakthrough.kif", "reversi.kif", "fifteenPuzzle.kif"]
SHARED = ["ggp-repository/connectFourSimultaneous.kif", "ggp-repository/chickentictactoe.kif",
          "ggp-repository/pentago.kif", "ggp-repository/knightThrough.kif",
          "ggp-repository/3pttc.kif", "ggp-repository/sheepAndWolf.kif"]


def agree(path, engine, seed, max_steps=60):
    a = gdlc.load_game(path, engine=engine)
    b = gdlc.load_game(path, engine="ref")
    assert a.player_names() == b.player_names()
    rng = random.Random(seed)
    sa, sb = a.new_initial_state(), b.new_initial_state()
    for step in range(max_steps):
        assert sa.facts() == sb.facts(), "%s step %d" % (path, step)
        assert list(sa.observation_tensor()) == list(sb.observation_tensor())
        assert sa.is_terminal() == sb.is_terminal()
        assert sa.current_player() == sb.current_player()
        if sa.is_terminal():
            assert sa.returns() == sb.returns()
            return
        joint = []
        for k in range(a.num_players()):
            la = [a.action_to_string(k, x) for x in sa.legal_actions(k)]
            assert la == [b.action_to_string(k, x) for x in sb.legal_actions(k)]
            joint.append(rng.choice(sa.legal_actions(k)))
        sb.apply_actions([b.string_to_action(k, a.action_to_string(k, x)) for k, x in enumerate(joint)])
        sa.apply_actions(joint)
        assert sa.serialize() == sb.serialize()


@pytest.mark.parametrize("name", OURS)
def test_our_games_agree_with_ref(name):
    # ref is slow on amazons: fewer steps there
    for seed in range(2):
        agree(game_path(name), "pn", seed, 60)


@pytest.mark.parametrize("name", SHARED)
def test_shared_games_agree_with_ref(name):
    path = os.path.join(need_shared("games"), name)
    agree(path, "pn", 7)


def test_default_engine_agrees_with_ref():
    agree(game_path("connect4.kif"), None, 3)
