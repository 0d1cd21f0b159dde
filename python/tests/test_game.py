"""The OpenSpiel shape: loading, states, actions, errors."""
import gc
import os

import numpy as np
import pytest

import gdlc
from conftest import game_path

TTT_TEXT = open(game_path("tictactoe.kif")).read()


def test_engines_need_no_libtcc():
    names = gdlc.engines()
    assert "pn" in names and "ref" in names and "aot" in names
    for jit in ("jit", "jit:goal", "board", "pn:compiled", "board:tiered"):
        assert jit not in names
    assert gdlc.default_engine() in names
    assert set(gdlc.engine_summaries()) == set(names)


def test_jit_is_refused_by_name():
    with pytest.raises(gdlc.GdlError) as e:
        gdlc.load_game(game_path("tictactoe.kif"), engine="jit")
    assert "no engine named 'jit'" in str(e.value)
    assert e.value.status == "no such engine"


def test_default_engine_loads(ttt):
    g = gdlc.load_game(game_path("tictactoe.kif"))
    assert g.engine == gdlc.default_engine()
    assert str(g.new_initial_state()) == str(ttt.new_initial_state())


def test_game_shape(ttt):
    assert ttt.num_players() == 2
    assert ttt.player_names() == ["xplayer", "oplayer"]
    assert ttt.max_game_length() is None
    assert ttt.num_distinct_actions(0) == ttt.num_actions(0) == 10
    assert ttt.observation_tensor_shape() == (len(ttt.base_propositions()),)
    assert ttt.base_propositions() == sorted(ttt.base_propositions())


def test_text_and_path_load_the_same_game(ttt):
    g = gdlc.load_game(TTT_TEXT, engine="pn")
    assert str(g.new_initial_state()) == str(ttt.new_initial_state())
    assert g.base_propositions() == ttt.base_propositions()


def test_initial_state(ttt):
    s = ttt.new_initial_state()
    facts = str(s).split("\n")
    assert facts == sorted(facts) and "(control xplayer)" in facts and len(facts) == 10
    assert s.facts() == facts
    assert s.current_player() == 0
    assert s.legal_actions(0) == list(range(9))
    assert [s.action_to_string(0, a) for a in s.legal_actions(0)][:2] == ["(play 1 1)", "(play 1 2)"]
    assert s.legal_actions(1) == [ttt.string_to_action(1, "noop")]
    assert s.legal_actions() == s.legal_actions(None) == s.legal_actions(0)
    mask = s.legal_actions_mask(0)
    assert mask.dtype == np.uint8 and list(np.flatnonzero(mask)) == s.legal_actions(0)
    assert not s.is_terminal() and s.returns() == [0.0, 0.0]


def test_play_to_the_end(ttt):
    s = ttt.new_initial_state()
    # x takes the first column
    for move in ["(play 1 1)", "(play 1 2)", "(play 2 1)", "(play 2 2)", "(play 3 1)"]:
        p = s.current_player()
        s.apply_action(s.string_to_action(p, move))
    assert s.is_terminal()
    assert s.current_player() == gdlc.TERMINAL
    assert s.returns() == [100.0, 0.0] and s.goals() == [100, 0]
    assert s.legal_actions(0) == [] and s.legal_actions_mask(0).sum() == 0
    with pytest.raises(ValueError):
        s.apply_action(0)


def test_bad_actions_are_value_errors(ttt):
    s = ttt.new_initial_state()
    before = str(s)
    with pytest.raises(ValueError):
        s.apply_actions([9, 9])  # x's noop is not legal now
    with pytest.raises(ValueError):
        s.apply_actions([0])
    with pytest.raises(ValueError):
        s.apply_actions([10, 9])
    with pytest.raises(ValueError):
        s.apply_actions([-1, 9])
    with pytest.raises(ValueError):
        s.legal_actions(2)
    with pytest.raises(ValueError):
        ttt.string_to_action(0, "(play 4 4)")
    with pytest.raises(ValueError):
        ttt.string_to_action(0, "(play")
    with pytest.raises(ValueError):
        ttt.action_to_string(0, 10)
    assert str(s) == before
    s.apply_actions([4, 9])
    assert "(cell 2 2 x)" in str(s)


def test_clone_and_equality(ttt):
    s = ttt.new_initial_state()
    c = s.clone()
    s.apply_actions([0, 9])
    assert c != s and c == ttt.new_initial_state()
    assert hash(c) == hash(ttt.new_initial_state())
    c.apply_actions([0, 9])
    assert c == s and hash(c) == hash(s)


def test_serialize_round_trip(ttt):
    s = ttt.new_initial_state()
    s.apply_actions([4, 9])
    b = s.serialize()
    assert b[:4] == b"GDLS"
    t = ttt.deserialize_state(b)
    assert t == s and str(t) == str(s)
    other = gdlc.load_game(game_path("tictactoe.kif"), engine="ref")
    assert str(other.deserialize_state(b)) == str(s)
    for bad in (b[:-1], b[:5], b"", b"XXXX" + b[4:], b[:10] + bytes([b[10] ^ 1]) + b[11:]):
        with pytest.raises(ValueError):
            ttt.deserialize_state(bad)


def test_state_from_text(ttt):
    s = ttt.state_from_text("(cell 1 1 x) (control oplayer)")
    assert s.facts() == ["(cell 1 1 x)", "(control oplayer)"]
    with pytest.raises(ValueError):
        ttt.state_from_text("(cell 1 1")


def test_observation_tensor(ttt):
    s = ttt.new_initial_state()
    s.apply_actions([0, 9])
    obs = s.observation_tensor()
    names = ttt.base_propositions()
    assert obs.dtype == np.uint8 and obs.shape == (len(names),)
    assert [names[i] for i in np.flatnonzero(obs)] == s.facts()


def test_invalid_game_is_located():
    text = ("(role x)\n(init (cell 1))\n(<= (legal x go) (true (cell ?y)) (distinct ?z 1))\n"
            "(<= terminal (true (cell 2)))\n(goal x 100)\n")
    with pytest.raises(gdlc.GdlError) as e:
        gdlc.load_game(text, engine="pn")
    msg = str(e.value)
    assert "<text>:3:" in msg and "^" in msg
    assert e.value.diagnostics and e.value.diagnostics[0][0] == "error"
    assert e.value.diagnostics[0][2] == 3


def test_unreadable_file():
    with pytest.raises(gdlc.GdlError) as e:
        gdlc.load_game("/nonexistent/game.kif", engine="pn")
    assert "/nonexistent/game.kif" in str(e.value) and "No such file" in str(e.value)


def test_syntax_error_in_file(tmp_path):
    p = tmp_path / "bad.kif"
    p.write_text("(role x)\n(init (a)\n")
    with pytest.raises(gdlc.GdlError) as e:
        gdlc.load_game(str(p), engine="pn")
    assert str(p) + ":" in str(e.value)


def test_limit_names_the_engine():
    with pytest.raises(gdlc.GdlError) as e:
        gdlc.load_game(game_path("tictactoe.kif"), engine="pn:max-atoms=3")
    assert e.value.status == "limit reached"


def test_states_keep_their_game_alive():
    g = gdlc.load_game(game_path("tictactoe.kif"), engine="pn")
    s = g.new_initial_state()
    del g
    gc.collect()
    s.apply_actions([0, s.game.string_to_action(1, "noop")])
    assert "(cell 1 1 x)" in str(s)


def test_simultaneous_current_player():
    path = os.path.join(os.path.dirname(game_path("x")), "..", "python", "tests", "data", "rps.kif")
    g = gdlc.load_game(path, engine="pn")
    s = g.new_initial_state()
    assert s.current_player() == gdlc.SIMULTANEOUS
    with pytest.raises(ValueError):
        s.apply_action(0)
    with pytest.raises(ValueError):
        s.legal_actions()
    s.apply_actions([g.string_to_action(0, "rock"), g.string_to_action(1, "scissors")])
    assert s.is_terminal() and s.returns() == [100.0, 0.0]


def test_bytes_that_are_not_utf8(tmp_path):
    # a symbol with a byte that is not UTF-8: the text comes back with it replaced, never a decoding error
    p = tmp_path / "latin.kif"
    p.write_bytes(TTT_TEXT.replace("(role oplayer)", "(role opl\xe4yer)").replace(
        "oplayer", "opl\xe4yer").encode("latin-1"))
    try:
        g = gdlc.load_game(str(p), engine="pn")
    except gdlc.GdlError as e:
        assert "\ufffd" in str(e) or "latin.kif" in str(e)
        return
    assert "opl\ufffdyer" in g.player_names()
    s = g.new_initial_state()
    s.apply_actions([0, g.string_to_action(1, "noop")])
    assert "(control opl\ufffdyer)" in s.facts()
    p.write_bytes(b"(role x)\n(init (c\xff)\n")
    with pytest.raises(gdlc.GdlError):
        gdlc.load_game(str(p), engine="pn")


def test_moves_and_roles_as_the_rules_spell_them():
    text = ("(role Alice) (role bob)\n(init (Lamp OFF))\n"
            "(<= (legal Alice (turnOn ?x)) (true (Lamp ?x)))\n(legal bob Noop)\n"
            "(<= (next (Lamp ON)) (does alice (TURNON ?x)))\n(<= terminal (true (lamp on)))\n"
            "(goal alice 100) (goal bob 0)\n")
    g = gdlc.load_game(text, engine="pn")
    assert g.player_names() == ["Alice", "bob"] and g.roles == ("alice", "bob")
    s = g.new_initial_state()
    assert [s.action_to_string(0, a) for a in s.legal_actions(0)] == ["(turnOn OFF)"]
    assert s.action_to_string(1, s.legal_actions(1)[0]) == "Noop"
    assert s.facts() == ["(lamp off)"]  # facts stay canonical, as the traces and gdl_state_fact write them
    a = g.string_to_action(0, "(TurnOn off)")
    assert a == s.legal_actions(0)[0]
    e = gdlc.parallel_env(g)
    assert e.possible_agents == ["Alice", "bob"]
    e.reset()
    e.step({"Alice": a})
    assert e.agents == []
