"""The examples run, and say what they should."""
import os
import re
import subprocess
import sys

from conftest import ROOT, game_path

EXAMPLES = os.path.join(ROOT, "python", "examples")


def run(*args):
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, args[0])] + list(args[1:]), capture_output=True,
                         text=True, timeout=300, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_random_agent():
    out = run("random_agent.py", game_path("tictactoe.kif"), "20")
    means = [float(x) for x in re.findall(r"mean goal ([0-9.]+)", out)]
    assert len(means) == 2 and abs(sum(means) - 100) < 1e-6


def test_flat_monte_carlo_beats_random():
    out = run("flat_mc.py", game_path("connect4.kif"), "32")
    assert "result: {'red': 100.0" in out


def test_learning_loop_learns():
    out = run("learn.py", game_path("tictactoe.kif"), "1500")
    assert "engine: batch" in out
    means = [float(x) for x in re.findall(r"mean goal ([0-9.]+)", out)]
    # random play gives x about 65; the table's policy is far above it
    assert len(means) >= 3 and means[-1] > 80 and means[-1] > means[0] - 2
