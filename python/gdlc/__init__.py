"""gdlc for Python: any game written in GDL as a fast state machine.

Three shapes over one C library (libgdl, built without libtcc):

* OpenSpiel's: ``load_game(path_or_text)`` gives a :class:`Game`;
  ``game.new_initial_state()`` a :class:`State` with ``legal_actions``,
  ``apply_actions``, ``is_terminal``, ``returns``, ``current_player``.
* PettingZoo's: :func:`parallel_env` (every role acts each step) and
  :func:`env` (the AEC form: one agent at a time), without depending on
  PettingZoo; their spaces are the plain classes of this module.
* pgx's: :class:`VectorEnv` steps ``n`` games at once with numpy arrays,
  over gdlc's batched engine where the game's grounding fits it.

Action ids are indexes into a role's input moves (every move the rules
let it make, in canonical order), so a mask has a fixed width per role and
an id means the same move in every state. Observations are a byte per base
proposition (``Game.base_propositions()`` order), 1 where it holds.
"""
import os
import re
import shutil

import numpy as np

from ._gdlc import Batch, GdlError, State, NO_GOAL
from ._gdlc import Game as _Game
from ._gdlc import engines as _engines
from ._gdlc import version as _version

__all__ = [
    "GdlError", "Game", "State", "load_game", "engines", "engine_summaries", "default_engine", "SIMULTANEOUS",
    "TERMINAL", "NO_GOAL", "parallel_env", "env", "ParallelEnv", "AECEnv", "VectorEnv", "Discrete", "MultiBinary",
    "Dict", "__version__",
]

__version__ = _version

#: ``State.current_player()`` when several roles have a choice (OpenSpiel's number).
SIMULTANEOUS = -2
#: ``State.current_player()`` in a terminal state (OpenSpiel's number).
TERMINAL = -4


def engines():
    """The names of the engines this library has (options as ``gdlc help engines`` writes them).

    The package's libgdl is built without libtcc, so the engines that compile
    in process (``jit``, ``board``, ``pn:compiled``) are not among them.
    """
    return [name for name, _ in _engines()]


def engine_summaries():
    """A dict of every engine name to what it plays by, in one line."""
    return dict(_engines())


def _have_compiler():
    for var in ("GDLC_CC", "CC"):
        cc = os.environ.get(var)
        if cc:
            return shutil.which(cc.split()[0]) is not None
    return shutil.which("cc") is not None


def default_engine():
    """The engine ``load_game`` uses when none is named.

    ``aot`` where a system C compiler is found (``GDLC_CC``, ``CC`` or ``cc``):
    gdlc's plan, the propositional network where it fits and plays faster, the
    goal-directed C compiled by that compiler otherwise (the first load of a
    game compiles for about a second; later loads take the cached object).
    Without a compiler, ``pn``, which needs none but is refused past its
    grounding budgets.
    """
    return "aot" if _have_compiler() else "pn"


class Game(_Game):
    """A game loaded from GDL, and one machine of it (see :func:`load_game`)."""

    def num_players(self):
        """The number of roles."""
        return len(self.roles)

    def player_names(self):
        """The role names, in the order the rules declare them, spelled as they write them."""
        return list(getattr(self, "_role_spelling", self.roles))

    def new_initial_state(self):
        """A new :class:`State` at the start of the game."""
        return self.initial_state()

    def max_game_length(self):
        """The longest play, where known: None (GDL does not state it; games end by their own rules)."""
        return None

    def num_distinct_actions(self, player=None):
        """The number of action ids of ``player``; without one, the most of any role."""
        return self.max_actions if player is None else self.num_actions(player)

    def observation_tensor_size(self):
        """The length of ``State.observation_tensor()``: the number of base propositions."""
        return self.num_bases

    def observation_tensor_shape(self):
        """``(observation_tensor_size(),)``."""
        return (self.num_bases,)

    def __repr__(self):
        return "<gdlc.Game %s, roles %s, engine %s>" % (getattr(self, "name", "?"), " ".join(self.roles), self.engine)


def _looks_like_text(s):
    return s.lstrip()[:1] in ("(", ";")


def load_game(path_or_text, engine=None, timeout=None):
    """Loads a game: a path to a ``.kif`` file, or the rules' text itself.

    ``engine`` is an engine name (:func:`engines`); None is :func:`default_engine`.
    ``timeout`` (seconds) gives up making the machine after that long.
    Rules that are not valid GDL raise :class:`GdlError`, whose text gives
    each error as ``file:line:col`` with the source line and a caret, and
    whose ``diagnostics`` lists them as (severity, file, line, col, message).
    """
    if engine is None:
        engine = default_engine()
    src = os.fspath(path_or_text)
    if isinstance(src, bytes):
        src = src.decode()
    is_text = not os.path.exists(src) and _looks_like_text(src)
    name = "<text>" if is_text else src
    g = Game(src, is_text, name, engine, float(timeout or 0))
    g.name = name
    if is_text:
        text = src
    else:
        with open(src, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    spelling = _spelling(text)
    if spelling:
        g._set_spelling(spelling)
        g._role_spelling = [spelling.get(r, r) for r in g.roles]
    return g


def _spelling(text):
    """Each symbol the rules write other than in lower case: folded -> its first spelling.

    GDL compares symbols case-insensitively and gdlc prints them folded;
    action_to_string and player_names give them back as the rules write them.
    """
    first = {}
    for line in text.splitlines():
        for atom in re.findall(r"[^\s()]+", line.split(";", 1)[0]):
            first.setdefault(atom.lower(), atom)
    return {k: v for k, v in first.items() if k != v}


def _as_game(game_or_path, engine):
    if isinstance(game_or_path, _Game) and not isinstance(game_or_path, Game):
        raise TypeError("pass a gdlc.Game (from gdlc.load_game), a path or the rules' text")
    return game_or_path if isinstance(game_or_path, Game) else load_game(game_or_path, engine)


# ---- spaces ---------------------------------------------------------------


class Discrete:
    """The actions of one role: the integers ``0 .. n - 1`` (gymnasium's Discrete, without gymnasium)."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.int64
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        """Seeds ``sample``."""
        self._rng = np.random.default_rng(seed)

    def sample(self, mask=None):
        """A uniformly random action; with ``mask`` (a vector of n 0/1), one where the mask is 1."""
        if mask is None:
            return int(self._rng.integers(self.n))
        ok = np.flatnonzero(np.asarray(mask))
        if len(ok) == 0:
            raise ValueError("no action is allowed by the mask")
        return int(ok[self._rng.integers(len(ok))])

    def contains(self, x):
        """True for an integer in range."""
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    def __repr__(self):
        return "Discrete(%d)" % self.n

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n


class MultiBinary:
    """A vector of ``n`` bytes, each 0 or 1 (gymnasium's MultiBinary, without gymnasium)."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = (self.n,)
        self.dtype = np.uint8
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        """Seeds ``sample``."""
        self._rng = np.random.default_rng(seed)

    def sample(self):
        """A uniformly random vector."""
        return self._rng.integers(0, 2, self.n, dtype=np.uint8)

    def contains(self, x):
        """True for a vector of n values, each 0 or 1."""
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all((x == 0) | (x == 1)))

    def __repr__(self):
        return "MultiBinary(%d)" % self.n

    def __eq__(self, other):
        return isinstance(other, MultiBinary) and other.n == self.n


class Dict:
    """Named spaces (gymnasium's Dict): an observation's ``observation`` and ``action_mask``."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def sample(self):
        """A sample of each space."""
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x):
        """True for a dict with every key, each value in its space."""
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            s.contains(x[k]) for k, s in self.spaces.items())

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%s: %r" % kv for kv in self.spaces.items())


# ---- PettingZoo's shapes ----------------------------------------------------


class _Envs:
    """What the parallel and the AEC forms share."""

    def __init__(self, game_or_path, engine=None):
        self.game = _as_game(game_or_path, engine)
        self.possible_agents = self.game.player_names()
        self.agents = []
        self.metadata = {"name": "gdlc/" + os.path.basename(getattr(self.game, "name", "game")),
                         "render_modes": ["ansi"]}
        self.render_mode = "ansi"
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = MultiBinary(self.game.num_bases)
        self._spaces = {a: Dict({"observation": self._obs_space,
                                 "action_mask": MultiBinary(self.game.num_actions(i))})
                        for i, a in enumerate(self.possible_agents)}
        self._act_spaces = {a: Discrete(self.game.num_actions(i)) for i, a in enumerate(self.possible_agents)}
        self.state = None

    @property
    def num_agents(self):
        """The number of agents still in the game."""
        return len(self.agents)

    @property
    def max_num_agents(self):
        """The number of roles."""
        return len(self.possible_agents)

    def observation_space(self, agent):
        """A :class:`Dict` of ``observation`` (MultiBinary over the base propositions) and ``action_mask``."""
        return self._spaces[agent]

    def action_space(self, agent):
        """A :class:`Discrete` over the agent's input moves."""
        return self._act_spaces[agent]

    def observe(self, agent):
        """The agent's observation: the state's base propositions and the agent's action mask."""
        return {"observation": self.state.observation_tensor(),
                "action_mask": self.state.legal_actions_mask(self._index[agent])}

    def render(self):
        """The state's facts, one per line."""
        return str(self.state)

    def close(self):
        """Nothing to release: the game is freed with the environment."""

    def _start(self, seed):
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self._act_spaces[a].seed(seed + i)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)


class ParallelEnv(_Envs):
    """PettingZoo's parallel API: every agent acts at every step (see :func:`parallel_env`)."""

    def reset(self, seed=None, options=None):
        """Starts a game: returns (observations, infos), dicts keyed by agent."""
        self._start(seed)
        return {a: self.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions):
        """Plays a joint move: ``actions`` maps agents to action ids (an agent with one legal move may be left out).

        Returns (observations, rewards, terminations, truncations, infos). Rewards
        are the goals (0-100 as the game gives them) at the end, 0 before; at the
        end every agent terminates and ``agents`` empties.
        """
        if not self.agents:
            raise ValueError("the game is over: reset it")
        joint = []
        for i, a in enumerate(self.possible_agents):
            if a in actions and actions[a] is not None:
                joint.append(int(actions[a]))
            else:
                legal = self.state.legal_actions(i)
                if len(legal) != 1:
                    raise ValueError("no action for %s, which has %d legal moves" % (a, len(legal)))
                joint.append(legal[0])
        self.state.apply_actions(joint)
        done = self.state.is_terminal()
        returns = self.state.returns()
        obs = {a: self.observe(a) for a in self.agents}
        rewards = {a: returns[i] for i, a in enumerate(self.possible_agents)}
        terms = {a: done for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos = {a: {} for a in self.agents}
        if done:
            self.agents = []
        return obs, rewards, terms, truncs, infos


def parallel_env(game_or_path, engine=None):
    """A PettingZoo-style parallel environment of the game (a path, its text, or a :class:`Game`)."""
    return ParallelEnv(game_or_path, engine)


class AECEnv(_Envs):
    """PettingZoo's AEC API: one agent acts at a time (see :func:`env`).

    The agent to act is a role with more than one legal move; where several
    have one (a simultaneous move), each acts in role order and the joint move
    is played when the last has. Where no role has a choice, the first role
    acts (its one legal move). At the end every agent is terminated, gets its
    goal as reward, and must step None to leave, as PettingZoo's agents do.
    """

    def reset(self, seed=None, options=None):
        """Starts a game."""
        self._start(seed)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending = {}
        self._turn()

    def _turn(self):
        """Chooses who acts next in a non-terminal state."""
        choosers = [i for i in range(len(self.possible_agents)) if len(self.state.legal_actions(i)) > 1]
        if not choosers:
            choosers = [0]
        self._choosers = [self.possible_agents[i] for i in choosers]
        self._pending = {}
        self.agent_selection = self._choosers[0]

    def agent_iter(self, max_iter=2 ** 63):
        """The agents to act, one at a time, until every agent has left (or max_iter)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe=True):
        """(observation, reward, termination, truncation, info) of the agent to act."""
        a = self.agent_selection
        return (self.observe(a) if observe else None, self._cumulative_rewards[a], self.terminations[a],
                self.truncations[a], self.infos[a])

    def step(self, action):
        """The selected agent's action id (None once it is terminated)."""
        a = self.agent_selection
        if self.terminations.get(a):
            if action is not None:
                raise ValueError("%s is terminated: step None" % a)
            self.agents.remove(a)
            del self.rewards[a], self._cumulative_rewards[a], self.terminations[a], self.truncations[a]
            del self.infos[a]
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        i = self._index[a]
        if action is None or int(action) not in self.state.legal_actions(i):
            raise ValueError("action %r is not legal for %s" % (action, a))
        self._cumulative_rewards[a] = 0.0
        self._pending[a] = int(action)
        rest = [c for c in self._choosers if c not in self._pending]
        if rest:
            self.agent_selection = rest[0]
            return
        joint = [self._pending[p] if p in self._pending else self.state.legal_actions(j)[0]
                 for j, p in enumerate(self.possible_agents)]
        self.state.apply_actions(joint)
        if self.state.is_terminal():
            returns = self.state.returns()
            for j, p in enumerate(self.possible_agents):
                self.rewards[p] = returns[j]
                self._cumulative_rewards[p] += returns[j]
                self.terminations[p] = True
            self.agent_selection = self.agents[0]
        else:
            self._turn()


def env(game_or_path, engine=None):
    """A PettingZoo-style AEC environment of the game (a path, its text, or a :class:`Game`)."""
    return AECEnv(game_or_path, engine)


# ---- batched ---------------------------------------------------------------


class VectorEnv:
    """``n`` games stepped at once with numpy arrays (pgx's shape).

    Over gdlc's batched engine (``engine == "batch"``): lanes of 64 games, up to
    512 a batch, the games' propositional network evaluated for 64 lanes a
    bitwise operation. A game whose grounding is past the batch's budgets is
    played by a loop over single states of ``engine`` instead (``engine`` then
    names it). Finished games restart at once, as vector environments do.

    ``reset(seed)`` returns (obs, masks); ``step(actions)``, with actions an
    int array n x players of action ids, returns (obs, masks, rewards,
    terminated): obs uint8 n x bases, masks bool n x players x the most
    actions of a player (padded with False), rewards float32 n x players (the
    goals in the games that ended, 0 elsewhere), terminated bool n. Where a
    game ended, obs and masks are of its new initial state. A bad action is a
    ValueError; with more than one batch (past 512 games) or on the loop, the
    games before the one refused have been stepped: reset then.
    """

    def __init__(self, game_or_path, n, engine=None, seed=0, batched=True):
        self.game = _as_game(game_or_path, engine)
        self.num_envs = int(n)
        if self.num_envs < 1:
            raise ValueError("a VectorEnv needs at least one game")
        self.num_players = self.game.num_players()
        self.num_actions = self.game.max_actions
        self.observation_size = self.game.num_bases
        self._batches = []
        self._why_not = None
        if batched:
            try:
                left = self.num_envs
                while left > 0:
                    lanes = min(512, -(-left // 64) * 64)
                    self._batches.append(Batch(self.game, lanes, seed + self.num_envs - left))
                    left -= lanes
            except GdlError as e:
                self._batches = []
                self._why_not = str(e)
        self.engine = "batch" if self._batches else self.game.engine
        self._lanes = sum(b.lanes for b in self._batches)
        self._states = None
        self._masks = None

    @property
    def plan(self):
        """How the games are stepped: the batch's evaluation, or why the batch could not take the game."""
        if self._batches:
            return self._batches[0].plan
        return "a loop over states of engine %s (%s)" % (self.game.engine, self._why_not or "batch not asked for")

    def _cut(self, parts):
        obs, masks = (np.concatenate([p[i] for p in parts]) if len(parts) > 1 else parts[0][i] for i in (0, 1))
        if self._lanes != self.num_envs:
            obs, masks = obs[:self.num_envs], masks[:self.num_envs]
        return obs, masks

    def reset(self, seed=None):
        """Every game at the initial state: returns (obs, masks)."""
        if self._batches:
            parts = [b.reset(0 if seed is None else seed + 512 * i) for i, b in enumerate(self._batches)]
            if self._lanes != self.num_envs:
                self._masks = [p[1] for p in parts]
            return self._cut(parts)
        self._states = [self.game.new_initial_state() for _ in range(self.num_envs)]
        return self._loop_arrays()

    def _loop_arrays(self):
        obs = np.stack([s.observation_tensor() for s in self._states])
        masks = np.zeros((self.num_envs, self.num_players, self.num_actions), dtype=bool)
        for i, s in enumerate(self._states):
            for k in range(self.num_players):
                m = s.legal_actions_mask(k)
                masks[i, k, :len(m)] = m
        return obs, masks

    def step(self, actions):
        """Plays one joint move in every game: returns (obs, masks, rewards, terminated)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs, self.num_players):
            raise ValueError("step takes an array of %d x %d action ids (games x players), not %s"
                             % (self.num_envs, self.num_players, actions.shape))
        if self._batches:
            return self._step_batches(actions)
        if self._states is None:
            raise ValueError("reset the VectorEnv before stepping it")
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        for i, s in enumerate(self._states):
            s.apply_actions([int(a) for a in actions[i]])
            if s.is_terminal():
                rewards[i] = s.returns()
                done[i] = True
                self._states[i] = self.game.new_initial_state()
        obs, masks = self._loop_arrays()
        return obs, masks, rewards, done

    def _step_batches(self, actions):
        if len(self._batches) == 1 and self._lanes == self.num_envs:
            return self._batches[0].step(actions)
        if self._lanes != self.num_envs:
            if self._masks is None:
                raise ValueError("reset the VectorEnv before stepping it")
            # the lanes past n play the first legal move of each player
            pad = np.concatenate(self._masks)[self.num_envs:].argmax(axis=2)
            actions = np.concatenate([actions, pad])
        parts, at = [], 0
        for b in self._batches:
            parts.append(b.step(actions[at:at + b.lanes]))
            at += b.lanes
        if self._lanes != self.num_envs:
            self._masks = [p[1] for p in parts]
        out = [np.concatenate([p[i] for p in parts]) if len(parts) > 1 else parts[0][i] for i in range(4)]
        return tuple(x[:self.num_envs] for x in out)

    def sample_actions(self, masks, rng):
        """A uniformly random legal action id per game and player, drawn in numpy from masks."""
        return sample_actions(masks, rng)


def sample_actions(masks, rng):
    """A uniformly random legal action per row of ``masks`` (n x players x actions, bool): an int64 n x players.

    The k-th legal action of each row, k uniform below the row's count, found
    among the masks' nonzero entries (rows split by binary search: a few
    numpy calls a step, whatever the number of games).
    """
    n, p, a = masks.shape
    if n * p == 0:
        return np.zeros((n, p), dtype=np.int64)
    flat = masks.reshape(n * p, a)
    where = np.flatnonzero(flat)
    first = _row_starts(n * p, a)
    ends = np.searchsorted(where, first + a)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1]
    counts = ends - starts
    if not counts.all():
        raise ValueError("a game has a player with no legal move")
    pick = where[starts + (rng.random(n * p) * counts).astype(np.int64)]
    pick -= first
    return pick.reshape(n, p)


_starts = {}


def _row_starts(rows, width):
    """0, width, 2 width, ...: each row's first index in the flattened masks (kept per shape)."""
    key = (rows, width)
    if key not in _starts:
        if len(_starts) > 64:
            _starts.clear()
        _starts[key] = np.arange(0, rows * width, width, dtype=np.int64)
    return _starts[key]
