"""VectorEnv: the batched engine where it takes the game, every lane as single states say."""
import threading

import numpy as np
import pytest

import gdlc
from conftest import game_path


def follow(g, n, steps, seed, batched=True):
    """Steps a VectorEnv with random legal actions and single States beside it, checking every lane."""
    v = gdlc.VectorEnv(g, n, batched=batched)
    rng = np.random.default_rng(seed)
    obs, masks = v.reset(seed)
    states = [g.new_initial_state() for _ in range(n)]
    ended = 0
    for _ in range(steps):
        for i, s in enumerate(states):
            assert np.array_equal(obs[i], s.observation_tensor())
            for k in range(g.num_players()):
                m = s.legal_actions_mask(k)
                assert np.array_equal(masks[i, k, :len(m)], m.astype(bool))
                assert not masks[i, k, len(m):].any()
        actions = gdlc.sample_actions(masks, rng)
        obs, masks, rewards, done = v.step(actions)
        assert obs.dtype == np.uint8 and masks.dtype == bool
        assert rewards.dtype == np.float32 and done.dtype == bool
        assert rewards.shape == (n, g.num_players()) and done.shape == (n,)
        for i, s in enumerate(states):
            s.apply_actions([int(a) for a in actions[i]])
            assert done[i] == s.is_terminal()
            assert list(rewards[i]) == s.returns()
            if done[i]:
                ended += 1
                states[i] = g.new_initial_state()
    return v, ended


@pytest.mark.parametrize("name", ["tictactoe.kif", "connect4.kif", "breakthrough.kif"])
def test_batch_lanes_agree_with_states(name):
    g = gdlc.load_game(game_path(name), engine="pn")
    v, ended = follow(g, 64, 60, 1)
    assert v.engine == "batch" and "lanes" in v.plan
    assert ended > 0


def test_lanes_past_a_multiple_of_64():
    g = gdlc.load_game(game_path("tictactoe.kif"), engine="pn")
    v, ended = follow(g, 70, 25, 2)
    assert v.engine == "batch" and ended > 0


def test_more_than_one_batch():
    g = gdlc.load_game(game_path("tictactoe.kif"), engine="pn")
    v, ended = follow(g, 600, 12, 3)
    assert v.engine == "batch" and len(v._batches) == 2


def test_loop_fallback_agrees():
    g = gdlc.load_game(game_path("tictactoe.kif"), engine="pn")
    v, ended = follow(g, 5, 25, 4, batched=False)
    assert v.engine == "pn" and "loop" in v.plan and ended > 0


def many_roles(n):
    """A game of n roles, each choosing a or b once: past the batch's 64 roles when n > 64."""
    rules = ["(role r%d)" % i for i in range(n)]
    rules += ["(init start)", "(<= (legal ?r a) (role ?r) (true start))", "(<= (legal ?r b) (role ?r) (true start))",
              "(<= (next (chose ?r ?m)) (does ?r ?m))", "(<= terminal (not (true start)))",
              "(<= (goal ?r 100) (true (chose ?r a)))", "(<= (goal ?r 0) (true (chose ?r b)))"]
    return "\n".join(rules) + "\n"


def test_game_the_batch_refuses_falls_back_to_a_loop():
    g = gdlc.load_game(many_roles(65), engine="pn")
    v = gdlc.VectorEnv(g, 3)
    assert v.engine == "pn" and "not 65" in v.plan
    obs, masks = v.reset(0)
    assert obs.shape == (3, g.num_bases) and masks.shape == (3, 65, 2) and masks.all()
    obs, masks, rewards, done = v.step(np.zeros((3, 65), dtype=np.int32))
    assert done.all() and (rewards == 100).all()


def test_bad_actions():
    g = gdlc.load_game(game_path("tictactoe.kif"), engine="pn")
    v = gdlc.VectorEnv(g, 64)
    obs, masks = v.reset(0)
    a = gdlc.sample_actions(masks, np.random.default_rng(0))
    with pytest.raises(ValueError):
        v.step(a[:3])
    bad = a.copy()
    bad[5, 0] = g.string_to_action(0, "noop")  # x's noop, illegal at the start
    with pytest.raises(ValueError):
        v.step(bad)
    bad[5, 0] = 99
    with pytest.raises(ValueError):
        v.step(bad)
    obs2, masks2, _, _ = v.step(a)  # nothing was played by the refused steps
    assert (obs2.sum(axis=1) == obs.sum(axis=1)).all()


def test_leaf_playouts_and_run():
    g = gdlc.load_game(game_path("connect4.kif"), engine="pn")
    b = gdlc.Batch(g, 64, 5)
    s = g.new_initial_state()
    goals = b.playouts([s] * 100)
    assert goals.shape == (100, 2) and ((goals == 0) | (goals == 50) | (goals == 100)).all()
    assert (goals.sum(axis=1) == 100).all()
    b.reset(5)
    totals = b.run(passes=50)
    assert totals["state_changes"] == 64 * 50
    with pytest.raises(ValueError):
        b.playouts([gdlc.load_game(game_path("connect4.kif"), engine="pn").new_initial_state()])


def test_batch_steps_in_threads():
    g = gdlc.load_game(game_path("breakthrough.kif"), engine="pn")
    envs = [gdlc.VectorEnv(g, 128, seed=i) for i in range(2)]
    shared = gdlc.VectorEnv(g, 64)
    shared.reset(0)
    errors = []

    def work(v, seed):
        try:
            rng = np.random.default_rng(seed)
            obs, masks = v.reset(seed)
            for _ in range(200):
                obs, masks, r, d = v.step(gdlc.sample_actions(masks, rng))
                # the shared batch, from both threads at once: its lock orders them
                shared._batches[0].run(passes=1)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(v, i)) for i, v in enumerate(envs)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def test_sample_actions_is_uniform_over_the_legal():
    rng = np.random.default_rng(0)
    m = np.zeros((3, 2, 5), bool)
    m[0, 0, [1, 3]] = m[0, 1, 4] = m[1, 0, :] = m[1, 1, 0] = m[2, 0, 2] = m[2, 1, [0, 4]] = True
    counts = np.zeros(m.shape)
    draws = 20000
    for _ in range(draws):
        a = gdlc.sample_actions(m, rng)
        assert a.dtype == np.int64 and a.shape == (3, 2)
        np.add.at(counts, (np.arange(3)[:, None], np.arange(2)[None, :], a), 1)
    assert ((counts > 0) == m).all()
    share = counts / draws
    want = m / m.sum(axis=2, keepdims=True)
    assert np.abs(share - want).max() < 0.02
    with pytest.raises(ValueError):
        gdlc.sample_actions(np.zeros((1, 1, 3), bool), rng)


def test_batch_refuses_bad_sizes_and_times():
    g = gdlc.load_game(game_path("tictactoe.kif"), engine="pn")
    for lanes in (0, 63, 100, 576, 2 ** 32 + 64):
        with pytest.raises(ValueError):
            gdlc.Batch(g, lanes)
    b = gdlc.Batch(g, 64)
    for bad in (float("nan"), -1.0, float("inf")):
        with pytest.raises(ValueError):
            b.run(seconds=bad)
    with pytest.raises(ValueError):
        b.run()
    assert b.run(seconds=0.01)["state_changes"] > 0
    with pytest.raises(TypeError):
        gdlc.VectorEnv(gdlc._gdlc.Game(game_path("tictactoe.kif"), False, "x", "pn"), 64)
