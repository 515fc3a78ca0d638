"""One seat of a tapete game as a Gymnasium ``Env``: the other seats are tapete bots.

The observation is the seat's encoded view (``tapete.rl.encodings``), the action an index into
the spec's fixed action space, ``action_masks()`` the legal ones (for maskable algorithms such
as sb3-contrib's ``MaskablePPO``). One episode is one match; the reward is the seat's (or its
team's) score, per deal or per match as in the AEC env.

>>> env = SingleAgentEnv("pocha(players=3, schedule=[2])", seat=1, opponents="random")
>>> obs, info = env.reset(seed=5)
>>> obs.shape == env.observation_space.shape
True
>>> total, done = 0.0, False
>>> while not done:
...     legal = env.action_masks().nonzero()[0]
...     obs, reward, done, truncated, info = env.step(int(legal[0]))
...     total += reward
>>> total == info["outcome"].scores[1]
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from tapete import bots, players
from tapete.bots import Bot
from tapete.errors import SpecError
from tapete.game import Game, Seat, integer, seat_scores
from tapete.rl import episode_seed, game_of
from tapete.rl.aec import RENDER_FPS, RENDER_MODES, REWARDS, check_render_mode, shown
from tapete.rl.encodings import Encoding, encoding

__all__ = ["ILLEGAL", "SingleAgentEnv"]

ILLEGAL = ("replace", "raise")


class _SeedTypeError(TypeError, gymnasium.error.Error):
    """A seed of another type: a TypeError, as the AEC environment raises, and the error
    Gymnasium's own ``reset`` raises for it."""


class _SeedValueError(ValueError, gymnasium.error.Error):
    """A negative seed: a ValueError, as the AEC environment raises, and Gymnasium's error."""


class SingleAgentEnv(gymnasium.Env[Any, Any]):
    """Seat ``seat`` of a match against ``opponents`` (a bot level for every other seat, or one
    level or ``Bot`` per seat, the learner's own entry ignored). See the module docstring.

    An action the mask rules out is, with ``illegal="replace"`` (the default, so that unmasked
    algorithms and checkers can step it), replaced by the first legal action, and the step's
    info says ``illegal: True``; with ``illegal="raise"`` it raises the rule's
    ``IllegalActionError``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 — Gymnasium's
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        spec: str | Game[Any, Any],
        seat: Seat = 0,
        opponents: str | Bot | Sequence[str | Bot] = "medium",
        *,
        reward: str = "deal",
        illegal: str = "replace",
        render_mode: str | None = None,
    ) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal={illegal!r} is not accepted: {' or '.join(ILLEGAL)}")
        self.illegal = illegal
        self.game: Game[Any, Any] = game_of(spec)
        n, number = self.game.players, integer(seat)
        if number is None or not 0 <= number < n:
            raise ValueError(f"seat={seat!r} is not accepted: a seat from 0 to {n - 1}")
        seat = number
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r} is not accepted: {' or '.join(REWARDS)}")
        check_render_mode(render_mode)
        self.seat, self.reward_mode, self.render_mode = seat, reward, render_mode
        self.encoding: Encoding = encoding(self.game)
        self.bots: list[Bot | None] = _opponents(opponents, n, seat)
        for bot in self.bots:
            players.check_game(bot, self.game)
        enc = self.encoding
        self.observation_space = spaces.Box(enc.low, enc.high, (enc.size,), np.float32)
        self.action_space = spaces.Discrete(len(self.encoding.actions))
        self.state: Any = None
        self.match_seed = 0  # the seed of the match dealt at the last reset
        self._rngs: list[random.Random] = []
        self._mask: npt.NDArray[np.int8] | None = None
        # What the bots' moves before this seat's first decision brought it (a deal they ended,
        # as Truco's run before a partner speaks): reset returns no reward, so the first step does.
        self._carried = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new match, played by the bots up to this seat's first decision (a match that ends
        before it — a seat may have nothing to decide — is skipped for the next one). What the
        bots' moves up to that decision brought this seat (a deal they scored) comes with the
        first step's reward, so an episode's rewards sum to the seat's score.
        ``seed`` is a whole number from 0 or None: TypeError for another type, ValueError for a
        negative one (each also a ``gymnasium.error.Error``, which Gymnasium raises for them)."""
        super().reset(seed=episode_seed(seed, _SeedTypeError, _SeedValueError))
        while True:
            self.match_seed = seed = int(self.np_random.integers(2**63))
            self.state = self.game.new_state(seed=seed)
            self._rngs = [random.Random(f"{seed}/{s}") for s in range(self.game.players)]
            self._carried = self._opponents_play()
            if self.game.current_player(self.state) == self.seat:
                if self.render_mode == "human":
                    self.render()
                return self._observation(), {}

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Take ``action`` (an index), then let the bots play up to this seat's next turn."""
        if self.state is None or self.game.current_player(self.state) != self.seat:
            raise RuntimeError("call reset() before step(), and again once the match is over")
        raw, info = self.encoding.action(action), {}
        if self.illegal == "replace" and not self.action_masks()[self.encoding.index[raw]]:
            raw, info = self.game.legal_actions(self.state)[0], {"illegal": True}
        reward = self._carried + self._apply(raw) + self._opponents_play()
        self._carried = 0.0
        if self.render_mode == "human":
            self.render()
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            if self.reward_mode == "match":
                reward = float(seat_scores(outcome.scores, self.game.teams)[self.seat])
            self._mask = np.zeros(len(self.encoding.actions), dtype=np.int8)
            observation = self.encoding.encode_state(self.state, self.seat)
            return observation, reward, True, False, {**info, "outcome": outcome}
        return self._observation(), reward, False, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of this seat now, as booleans over the action space (a copy);
        RuntimeError before ``reset()``."""
        if self.state is None:
            raise RuntimeError("call reset() before asking for the action masks")
        if self._mask is None:
            self._mask = self.encoding.mask(self.game.legal_actions(self.state))
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """This seat's view as text (``render_mode="ansi"``); printed, and None returned, with
        ``"human"`` (which also prints it after every reset and step); None without a mode."""
        if self.render_mode is None or self.state is None:
            return None
        return shown(self.game, self.state, self.seat, self.render_mode)

    def _observation(self) -> npt.NDArray[np.float32]:
        self._mask = None
        return self.encoding.encode_state(self.state, self.seat)

    def _apply(self, raw: int) -> float:
        """Apply a raw action; the per-deal reward it brings this seat."""
        game = self.game
        self.state = game.apply(self.state, raw)
        if self.reward_mode != "deal":
            return 0.0
        for event in game.events(self.state):
            if event.type == "score":
                score = event.data["score"]
                teams = game.teams
                if teams is not None and len(score) == len(teams):
                    score = seat_scores(score, teams)
                return float(score[self.seat])
        return 0.0

    def _opponents_play(self) -> float:
        """The bots move until this seat's turn or the end; the reward they bring this seat."""
        game, reward = self.game, 0.0
        while (seat := game.current_player(self.state)) is not None and seat != self.seat:
            bot = self.bots[seat]
            assert bot is not None  # only the learner's seat has no bot
            view = game.observe(self.state, seat)
            action = bot.choose(view, game.legal_actions(self.state), self._rngs[seat])
            reward += self._apply(action)
        return reward


def _opponents(given: str | Bot | Sequence[str | Bot], n: int, seat: Seat) -> list[Bot | None]:
    """Each seat's bot (None for the learner's): one entry for every other seat, an entry for
    each other seat in seat order, or one per seat with the learner's ignored. A text entry is
    a level (``medium``, ``hard(ms=100)``) or a trained ``policy(path="FILE")``; a program
    (``exec``) needs a match's start and end, which an environment does not give."""
    one = isinstance(given, str) or not isinstance(given, Sequence)
    entries: list[Any] = [given] * n if one else list(given)  # type: ignore[arg-type]
    if len(entries) == n - 1:
        entries.insert(seat, None)
    if len(entries) != n:
        raise ValueError(
            f"opponents: one for every other seat ({n - 1}) or one per seat ({n}),"
            f" not {len(entries)}"
        )
    return [None if s == seat else _bot(entry) for s, entry in enumerate(entries)]


def _bot(entry: str | Bot) -> Bot:
    if not isinstance(entry, str):
        if not callable(getattr(entry, "choose", None)):
            raise TypeError(
                "opponents: a bot level such as 'medium', a policy(path=...) or a Bot with"
                f" choose(view, legal_actions, rng), not {entry!r}"
            )
        return entry
    if players.is_outer(entry) and players.kind_of(entry) != "policy":
        raise ValueError(f"opponents: {entry} is a program; an environment seats bots and policies")
    if not players.is_outer(entry) and players.kind_of(entry) not in bots.LEVELS:
        try:
            bots.load(entry)
        except SpecError as exc:
            # Not players.load's "or exec(...)": an environment refuses programs.
            raise SpecError(
                'opponents: {why}, or policy(path="FILE") for a trained policy', why=exc.phrase
            ) from None
    bot: Bot = players.load(entry)
    return bot
