"""The registry of games: names, the module that implements each, and its default parameters.

One module may register several names: ``oh_hell`` is Pocha's module with the international
defaults (French deck, follow suit only, +1 a trick and +10 for an exact bid).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

from tapete.errors import SpecError
from tapete.game import Game, Rules, bind, parse_spec

__all__ = ["ENTRIES", "Entry", "games", "load"]


@dataclass(frozen=True)
class Entry:
    """A registered game: its module, its defaults beyond the module's own, a one-line summary."""

    module: str
    summary: str
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def rules(self) -> Rules:
        return cast(Rules, importlib.import_module(self.module))


ENTRIES: Mapping[str, Entry] = MappingProxyType(
    {
        "pocha": Entry(
            "tapete.games.pocha",
            "Spanish trick-taking with exact bids: 1 card up to all and back (3–8 players)",
        ),
        "tute": Entry(
            "tapete.games.tute",
            "Spanish tricks for card points with cantes: 2 players with a stock, or 4 in pairs",
        ),
        "oh_hell": Entry(
            "tapete.games.pocha",
            "the international Pocha: French deck, follow suit, +1 a trick, +10 exact (3–7)",
            {
                "deck": "french",
                "min_players": 3,
                "max_players": 7,
                "rank_order": "natural",
                "obligation": "follow",
                "scoring": "oh_hell",
                "all_dealt_trump": "none",
                "hook_on_one_card": True,
                "tiebreak_players": "nobody",
            },
        ),
        "poch": Entry(
            "tapete.games.poch",
            "bowls for the trump honours, a poker round, then a shedding race (3–6 players,"
            " at most 10 rounds a player)",
        ),
        "pottle": Entry(
            "tapete.games.pottle",
            "seven cards, one bid each: the highest bidder must take exactly his bid to win the"
            " pot (3–7)",
        ),
        "truco": Entry(
            "tapete.games.truco",
            "Truco Paulista: vira and manilhas, three rounds a hand, truco to 12 (1v1 or 2v2)",
        ),
    }
)
ALIASES: Mapping[str, str] = MappingProxyType({"truco_paulista": "truco"})


def games() -> list[str]:
    """The names of every registered game, alphabetically.

    >>> "pocha" in games() and "oh_hell" in games()
    True
    """
    return sorted(ENTRIES)


def load(spec: str) -> Game:
    """The game a spec names, e.g. ``pocha`` or ``pocha(players=3, deck=48)``.

    >>> load("pocha(players=5)").players
    5
    >>> load("poker")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tapete.errors.SpecError: no game named 'poker'; the games are oh_hell, poch, pocha, ...
    """
    name, given = parse_spec(spec)
    name = ALIASES.get(name, name)
    entry = ENTRIES.get(name)
    if entry is None:
        raise SpecError(f"no game named {name!r}; the games are {', '.join(games())}")
    return bind(name, entry.rules(), entry.defaults, given)
