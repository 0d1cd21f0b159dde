"""Shared fixtures: the repository's games, the shared corpus (GDL_SHARED)."""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAMES = os.path.join(ROOT, "games")


def shared_dir():
    """The shared corpus: GDL_SHARED, else ../shared beside the repository."""
    return os.environ.get("GDL_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")


def need_shared(sub):
    """The corpus folder sub; a visible skip without it, a failure when CI=true."""
    path = os.path.join(shared_dir(), sub)
    if not os.path.isdir(path):
        if os.environ.get("CI") == "true":
            pytest.fail("no shared corpus at %s (set GDL_SHARED)" % path)
        pytest.skip("no shared corpus at %s (set GDL_SHARED)" % path)
    return path


def game_path(name):
    """A game of the repository's games/ folder."""
    return os.path.join(GAMES, name)


@pytest.fixture
def ttt():
    import gdlc
    return gdlc.load_game(game_path("tictactoe.kif"), engine="pn")
