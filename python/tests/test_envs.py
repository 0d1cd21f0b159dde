"""The PettingZoo shapes: parallel and AEC."""
import os

import numpy as np
import pytest

import gdlc
from conftest import game_path

RPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "rps.kif")


def test_parallel_env_plays_to_the_end():
    e = gdlc.parallel_env(game_path("connect4.kif"), engine="pn")
    assert e.possible_agents == e.game.player_names()
    obs, infos = e.reset(seed=1)
    assert set(obs) == set(e.agents) == set(e.possible_agents) and infos[e.agents[0]] == {}
    space = e.observation_space(e.agents[0])
    assert space["observation"].n == e.game.num_bases
    rng = np.random.default_rng(1)
    steps = 0
    while e.agents:
        actions = {}
        for a in e.agents:
            assert e.observation_space(a).contains(obs[a])
            mask = obs[a]["action_mask"]
            actions[a] = e.action_space(a).sample(mask)
            assert e.action_space(a).contains(actions[a])
        obs, rewards, terms, truncs, infos = e.step(actions)
        steps += 1
        assert not any(truncs.values())
        if any(terms.values()):
            assert all(terms.values())
            assert sum(rewards.values()) == 100 and set(rewards.values()) <= {0.0, 50.0, 100.0}
        else:
            assert set(rewards.values()) == {0.0}
    assert e.agents == [] and 7 <= steps <= 42
    with pytest.raises(ValueError):
        e.step({})


def test_parallel_env_forced_moves_may_be_left_out():
    e = gdlc.parallel_env(game_path("tictactoe.kif"), engine="pn")
    e.reset()
    e.step({"xplayer": e.game.string_to_action(0, "(play 2 2)")})  # oplayer's noop filled in
    assert "(cell 2 2 x)" in e.render()
    with pytest.raises(ValueError):
        e.step({})  # oplayer has a choice now


def test_aec_env_turns():
    e = gdlc.env(game_path("tictactoe.kif"), engine="pn")
    e.reset(seed=3)
    seen = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            seen.append((agent, reward))
            e.step(None)
            continue
        seen.append(agent)
        e.step(e.action_space(agent).sample(obs["action_mask"]))
    movers = [s for s in seen if isinstance(s, str)]
    assert movers[:4] == ["xplayer", "oplayer", "xplayer", "oplayer"]
    finals = [s for s in seen if isinstance(s, tuple)]
    assert sorted(a for a, _ in finals) == ["oplayer", "xplayer"]
    assert sum(r for _, r in finals) == 100
    assert e.agents == []


def test_aec_env_simultaneous_moves_collect_in_role_order():
    e = gdlc.env(RPS, engine="pn")
    e.reset()
    assert e.agent_selection == "left"
    e.step(e.game.string_to_action(0, "paper"))
    assert e.agent_selection == "right" and not e.terminations["left"]
    with pytest.raises(ValueError):
        e.step(99)
    e.step(e.game.string_to_action(1, "rock"))
    assert all(e.terminations.values())
    assert e.rewards == {"left": 100.0, "right": 0.0}
    assert e.last()[1] == 100.0  # left's, the first to leave
    e.step(None)
    e.step(None)
    assert e.agents == []


def test_spaces():
    d = gdlc.Discrete(5, seed=0)
    assert all(d.contains(d.sample()) for _ in range(20))
    assert d.sample(np.array([0, 0, 1, 0, 0])) == 2
    with pytest.raises(ValueError):
        d.sample(np.zeros(5))
    b = gdlc.MultiBinary(4, seed=0)
    assert b.contains(b.sample()) and not b.contains(np.array([0, 2, 0, 0]))
