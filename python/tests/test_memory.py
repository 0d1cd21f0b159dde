"""10,000 create/step/free cycles leave the resident set within 20 MB of where it was after the first hundred."""
import gc
import os

import pytest

import numpy as np

import gdlc
from conftest import game_path


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's quarantine keeps freed memory resident")
def test_create_step_free_cycles():
    text = open(game_path("tictactoe.kif")).read()
    g = gdlc.load_game(text, engine="pn")
    rng = np.random.default_rng(0)

    def cycle(i):
        s = g.new_initial_state()
        s.legal_actions(0)
        s.apply_actions([int(rng.integers(9)), 9])
        s.clone().serialize()
        s.observation_tensor()
        if i % 50 == 0:  # games, environments and batches too
            h = gdlc.load_game(text, engine="pn")
            v = gdlc.VectorEnv(h, 64)
            obs, masks = v.reset(i)
            v.step(gdlc.sample_actions(masks, rng))
            e = gdlc.parallel_env(h)
            e.reset()
            try:
                s.apply_actions([99, 9])
            except ValueError:
                pass

    for i in range(100):
        cycle(i)
    gc.collect()
    base = rss_mb()
    for i in range(100, 10000):
        cycle(i)
    gc.collect()
    assert rss_mb() - base < 20, (base, rss_mb())
