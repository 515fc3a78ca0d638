"""Bots: players that see only their view (DESIGN.md §5).

A bot has one method, ``choose(view, legal_actions, rng) -> action``. ``load(name)`` gives a bot
by its level name, as used in ``--seats`` and in records.

>>> import random, tapete
>>> game = tapete.load("pocha(players=3, schedule=1)")
>>> state = game.new_state(seed=2)
>>> seat = game.current_player(state)
>>> bot = load("random")
>>> bot.choose(game.observe(state, seat), game.legal_actions(state), random.Random(0)) in (128, 129)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from tapete.errors import SpecError
from tapete.game import Action

__all__ = ["LEVELS", "Bot", "RandomBot", "load"]


class Bot(Protocol):
    """A player that decides from its view alone."""

    name: str

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Plays a legal action uniformly at random: the baseline every other level must beat."""

    name = "random"

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[rng.randrange(len(legal_actions))]


LEVELS = ("random",)


def load(name: str) -> Bot:
    """The bot of a level name; raises SpecError listing the levels."""
    if name == "random":
        return RandomBot()
    raise SpecError(f"no bot level {name!r}; the levels are {', '.join(LEVELS)}")
