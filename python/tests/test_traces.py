"""The shared traces (GGP-Base's prover) replayed through the package's own API.

A sample of the traces: every legal set, every next state, terminality and
goals as the trace says. Engine pn; ref where pn refuses a game past its
grounding budgets. Traces of games gdlc rejects, and the traces on which
gdlc differs from GGP-Base on purpose (tests/runtime/known-differences.md),
are left out, as the C suite's replay leaves them.
"""
import os
import re

import pytest

import gdlc
from conftest import ROOT, need_shared
from kif import steps

EVERY = int(os.environ.get("GDLC_PY_TRACE_EVERY", "37"))
MAX_STEPS = 80


def sample():
    shared = need_shared("traces")
    known = set()
    with open(os.path.join(ROOT, "tests", "runtime", "replay-expected-divergences.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                known.add(line.split("\t")[0])
    traces = []
    for d, _, files in os.walk(shared):
        traces += [os.path.join(d, t) for t in files if t.endswith(".trace")]
    traces.sort()
    picked = [t for t in traces[::EVERY] if os.path.relpath(t, shared) not in known]
    return shared, picked


def load(game):
    try:
        return gdlc.load_game(game, engine="pn")
    except gdlc.GdlError as e:
        if e.status == "limit reached":
            return gdlc.load_game(game, engine="ref")
        raise


def replay(shared, trace):
    rel = os.path.relpath(trace, shared)
    game = os.path.join(os.path.dirname(shared), "games", re.sub(r"\.s[0-9]+\.trace$", ".kif", rel))
    try:
        g = load(game)
    except gdlc.GdlError as e:
        if e.status == "invalid game":
            return "rejected"
        if e.status == "limit reached":
            return "limit"
        raise
    roles, trace_steps = steps(open(trace).read())
    # traces spell symbols folded; the package gives the rules' spelling
    assert roles == [r.lower() for r in g.player_names()], rel
    s = g.new_initial_state()
    for n, st in enumerate(trace_steps[:MAX_STEPS]):
        assert set(s.facts()) == st["state"], "%s step %d: state" % (rel, n)
        assert s.is_terminal() == st["terminal"], "%s step %d: terminal" % (rel, n)
        if st["terminal"]:
            assert s.goals() == st["goals"], "%s: goals" % rel
            break
        for k, r in enumerate(roles):
            legal = {s.action_to_string(k, a).lower() for a in s.legal_actions(k)}
            assert legal == st["legal"][r], "%s step %d: legal moves of %s" % (rel, n, r)
        if st["does"] is None:
            break
        s.apply_actions([s.string_to_action(k, m) for k, m in enumerate(st["does"])])
    return "pass"


def test_traces_replay_through_python():
    shared, picked = sample()
    assert len(picked) >= 5
    outcome = {"pass": 0, "rejected": 0, "limit": 0}
    for t in picked:
        outcome[replay(shared, t)] += 1
    print("traces replayed: %s of %d" % (outcome, len(picked)))
    assert outcome["pass"] >= len(picked) * 3 // 4, outcome
