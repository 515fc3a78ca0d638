"""Every tapete game as a PettingZoo ``AECEnv``: one agent per seat, turns as the rules give them.

One episode is one match of the spec. The env keeps the match as a tapete state; the chance
inputs come from the episode's seed, so ``reset(seed=s)`` replays the same deals. Agents are
named ``seat_0`` … ``seat_{n-1}``.

>>> env = TapeteEnv("pocha(players=3, schedule=[1, 2])")
>>> env.reset(seed=3)
>>> env.agent_selection in env.agents
True
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape == env.observation_space(env.agent_selection)["observation"].shape
True
>>> [env.action_text(i) for i in obs["action_mask"].nonzero()[0]]
['bid 0', 'bid 1']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tapete.game import Game, seat_scores
from tapete.record import Recorder, SeatInfo, write
from tapete.rl import episode_seed, game_of
from tapete.rl.encodings import Encoding, encoding

__all__ = [
    "RENDER_MODES",
    "REWARDS",
    "RenderModeError",
    "TapeteEnv",
    "UnknownAgentError",
    "agent_name",
]

REWARDS = ("deal", "match")
# "ansi": render() returns the view as text; "human": it is printed after every reset and step
# (render() prints it again and returns None), as PettingZoo's and Gymnasium's checks expect.
RENDER_MODES = ("ansi", "human")
# Frames a second a player of "human" renders would show: a table is text printed once a move,
# so the number only says so to the environment checkers, which warn where it is missing.
RENDER_FPS = 4


class UnknownAgentError(KeyError):
    """An agent that is not at the table, named with the agents that are: a KeyError, as
    PettingZoo's environments raise for an unknown agent, that prints its sentence (a plain
    KeyError prints the quoted key).

    >>> str(UnknownAgentError("no agent 'seat_9': the agents are seat_0, seat_1"))
    "no agent 'seat_9': the agents are seat_0, seat_1"
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def agent_name(seat: int) -> str:
    """The PettingZoo agent of a seat: ``seat_0``, ``seat_1``, …"""
    return f"seat_{seat}"


class TapeteEnv(AECEnv):  # type: ignore[misc]
    """A tapete match as an agent-environment-cycle game (see the module docstring).

    Options: ``reward="deal"`` (the default: at the end of each deal every seat gets the score
    the deal gave it, or its team) or ``"match"`` (only at the end: the final score of the
    match); ``record=DIR`` writes each finished episode's ``tapete-record/1`` record there as
    ``episode-<k>.json`` (the next number free there); ``render_mode="ansi"`` renders the
    acting seat's view as text, and ``"human"`` prints it after every reset and step.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 — PettingZoo reads it on the class and the env
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "name": "tapete",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        spec: str | Game[Any, Any],
        *,
        reward: str = "deal",
        record: str | Path | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r} is not accepted: {' or '.join(REWARDS)}")
        check_render_mode(render_mode)
        self.game: Game[Any, Any] = game_of(spec)
        self.encoding: Encoding = encoding(self.game)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tapete_{self.game.name}"}
        # Made now: a folder that cannot be (a file of that name) fails here, not at the end of
        # the first episode, halfway through its last step.
        self.record_dir = None if record is None else _record_folder(record)
        n = self.game.players
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        size, actions = self.encoding.size, len(self.encoding.actions)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self.encoding.low, self.encoding.high, (size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._episodes = 0
        self.state: Any = None
        self.match_seed = 0
        self._recorder: Recorder | None = None
        self._cache: dict[int, dict[str, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``; UnknownAgentError (a KeyError) for no agent."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``; UnknownAgentError (a KeyError) for no agent."""
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: object) -> str:
        """``agent`` when it is one of ``possible_agents``; else UnknownAgentError naming them."""
        if isinstance(agent, str) and agent in self._seat_of:
            return agent
        raise UnknownAgentError(
            f"no agent {agent!r} in {self.metadata['name']}: the agents are"
            f" {', '.join(self.possible_agents)}"
        )

    # --- the cycle ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match; ``seed`` (a whole number from 0) fixes this and every later match's
        deals. TypeError for a seed of another type, ValueError for a negative one."""
        seed = episode_seed(seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.match_seed = int(self._rng.integers(2**63))
        self.state = self.game.new_state(seed=self.match_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        if self.record_dir is not None:
            seats = [SeatInfo(a, "bot", "rl") for a in self.agents]
            self._recorder = Recorder(self.game, self.state, self.match_seed, seats)
        self._select()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        """The agent to act takes ``action`` (an index into the action space). RuntimeError
        before ``reset()`` and once every agent has left (the match is over)."""
        self._check_live()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game, seat = self.game, self._seat_of[agent]
        raw = self.encoding.action(action)
        before = self.state
        self.state = after = game.apply(before, raw)  # an illegal action raises, naming the rule
        self._cache = {}
        if self._recorder is not None:
            self._recorder.step(seat, raw, after)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self._rewards(after)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _rewards(self, after: Any) -> dict[str, float]:
        game = self.game
        outcome = game.outcome(after)
        gains: Sequence[int] | None = None
        if outcome is not None and self.reward_mode == "match":
            gains = seat_scores(outcome.scores, game.teams)
        elif self.reward_mode == "deal":
            for event in game.events(after):
                if event.type == "score":
                    gains = _per_seat(event.data["score"], game)
        if gains is None:
            return dict.fromkeys(self.agents, 0.0)
        return {a: float(gains[s]) for s, a in enumerate(self.possible_agents)}

    def _select(self) -> None:
        seat = self.game.current_player(self.state)
        if seat is None:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"outcome": self.game.outcome(self.state)}
            self.agent_selection = self.agents[0]
            self._finish()
        else:
            self.agent_selection = self.possible_agents[seat]

    def _finish(self) -> None:
        if self._recorder is not None and self.record_dir is not None:
            done = self._recorder.record()
            # Never over another record: environments side by side (a vector of them, worker
            # processes) writing to one folder, or an earlier run's, each wrote episode-0, ...
            # over the others'. Each episode takes the next number free.
            while True:
                try:
                    write(done, self.record_dir / f"episode-{self._episodes}.json", exclusive=True)
                    break
                except FileExistsError:
                    self._episodes += 1
            self._recorder = None
        self._episodes += 1

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act: its observation, cumulative reward, terminated, truncated, info.
        RuntimeError before ``reset()`` and once every agent has left."""
        self._check_live()
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def _check_live(self) -> None:
        if self.state is None:
            raise RuntimeError("call reset() before stepping or observing the environment")
        if not self.agents:
            raise RuntimeError("the match is over and every agent has left: call reset()")

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees now: its encoded view and its legal actions (none off turn).
        The arrays are the caller's own: changing them changes nothing in the environment.
        UnknownAgentError (a KeyError) for an agent that is not at the table."""
        if self.state is None:
            raise RuntimeError("call reset() before stepping or observing the environment")
        seat = self._seat_of[self._agent(agent)]
        cached = self._cache.get(seat)
        if cached is None:
            game, enc = self.game, self.encoding
            observation = enc.encode_state(self.state, seat)
            if game.current_player(self.state) == seat:
                mask = enc.mask(game.legal_actions(self.state))
            else:
                mask = np.zeros(len(enc.actions), dtype=np.int8)
            cached = self._cache[seat] = {"observation": observation, "action_mask": mask}
        # Copies, as a policy may scale an observation or clear a mask in place; the cache saves
        # the encoding, which costs far more, when ``last()`` and ``observe`` ask again.
        return {
            "observation": cached["observation"].copy(),
            "action_mask": cached["action_mask"].copy(),
        }

    def legal_actions(self) -> list[int]:
        """The legal action indices of the agent to act (none once the match is over)."""
        if self.state is None:
            raise RuntimeError("call reset() before asking for the legal actions")
        if self.game.current_player(self.state) is None:
            return []
        index = self.encoding.index
        return [index[a] for a in self.game.legal_actions(self.state)]

    def action_text(self, index: int) -> str:
        """The tapete notation of the action at ``index`` (``bid 2``, ``play 3o``)."""
        return self.game.format_action(self.encoding.action(index))

    def render(self) -> str | None:
        """The acting seat's view as text (``render_mode="ansi"``; a spectator's once the match
        is over); printed, and None returned, with ``"human"``; None without a render mode."""
        if self.render_mode is None or self.state is None:
            return None
        return shown(self.game, self.state, self.game.current_player(self.state), self.render_mode)

    def close(self) -> None:
        pass


class RenderModeError(ValueError, TypeError):
    """A render mode the environments do not draw. A ValueError, and a TypeError too, which is
    how a training library tells an environment without that mode: Stable-Baselines3's
    ``make_vec_env`` asks an id for ``render_mode="rgb_array"`` first and, on a TypeError, makes
    it without one."""


def check_render_mode(render_mode: object) -> None:
    """RenderModeError naming ``render_mode`` unless it is None or one of ``RENDER_MODES``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RenderModeError(
            f"render_mode={render_mode!r} is not accepted: {', '.join(RENDER_MODES)} or None"
        )


def shown(game: Game[Any, Any], state: Any, seat: int | None, render_mode: str) -> str | None:
    """``seat``'s view of ``state`` as text: returned for ``"ansi"``, printed for ``"human"``."""
    from tapete.narrate import view_text

    text: str = view_text(game.observe(state, seat))
    if render_mode == "human":
        print(text, end="\n\n")
        return None
    return text


def _record_folder(record: object) -> Path:
    """The folder ``record=`` names, made if missing; TypeError for a value that is no path,
    ValueError naming it for one that cannot be a folder (a file stands there)."""
    if not isinstance(record, str | os.PathLike):
        raise TypeError(
            f"record={record!r} is not accepted: a folder to write each episode's record in"
        )
    if not str(record).strip():  # Path("") is the current folder: episodes strewn there
        raise ValueError(
            f"record={record!r} is not accepted: a folder to write each episode's record in"
            " (None for no records)"
        )
    folder = Path(record)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(
            f"record={str(folder)!r} is not accepted: it cannot be a folder ({err.strerror})"
        ) from None
    return folder


def _per_seat(scores: Sequence[int], game: Game[Any, Any]) -> tuple[int, ...]:
    teams = game.teams
    if teams is not None and len(scores) == len(teams):
        return seat_scores(scores, teams)
    return tuple(scores)
