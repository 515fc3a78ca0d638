"""The registry of games: names, the module that implements each, and its default parameters.

One module may register several names: ``oh_hell`` is Pocha's module with the international
defaults (French deck, follow suit only, +1 a trick and +10 for an exact bid).
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeAlias, TypeVar, cast, overload

from tapete.errors import SpecError
from tapete.game import Game, Rules, bind, hashable, param_value, parse_spec

__all__ = ["ENTRIES", "Entry", "game_names", "load", "rules_of"]

S = TypeVar("S")
V = TypeVar("V")


@dataclass(frozen=True)
class Entry:
    """A registered game: its module, its defaults beyond the module's own, a one-line summary.
    A value: equal entries hash equal (their defaults read as a value, ``hashable``)."""

    module: str
    summary: str
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.module, self.summary, hashable(self.defaults)))

    def rules(self) -> Rules[Any, Any]:
        module = importlib.import_module(self.module)
        if module.__name__ not in _PICKLED:
            _pickle_by_fields(module)
        return cast(Rules[Any, Any], module)


_PICKLED: set[str] = set()


def _pickle_by_fields(module: Any) -> None:
    """Pickle the module's dataclasses (its View and Params among them) by their fields, through
    their constructor: compiled (mypyc), a frozen dataclass cannot be pickled the default way,
    which sets its fields one by one, and a server ships views to its bot processes."""
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and dataclasses.is_dataclass(value)
            and value.__module__ == module.__name__
            and all(f.init for f in dataclasses.fields(value))
        ):
            copyreg.pickle(value, _by_fields)
    _PICKLED.add(module.__name__)


def _by_fields(value: Any) -> tuple[Any, ...]:
    fields = tuple((f.name, getattr(value, f.name)) for f in dataclasses.fields(value))
    return _rebuilt, (type(value), fields)


def _rebuilt(cls: type, fields: tuple[tuple[str, Any], ...]) -> Any:
    return cls(**dict(fields))


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


def game_names() -> list[str]:
    """The names of every registered game, alphabetically.

    >>> "pocha" in game_names() and "oh_hell" in game_names()
    True
    """
    return sorted(ENTRIES)


ParamArg: TypeAlias = int | str | bool | Sequence[int] | None
"""A parameter value given to ``load`` as a keyword, as a spec writes one (``[1, 2]``: a list)."""


@overload
def load(spec: str, rules: None = None, **params: ParamArg) -> Game[Any, Any]: ...
@overload
def load(spec: str, rules: Rules[S, V], **params: ParamArg) -> Game[S, V]: ...


def load(spec: str, rules: Rules[Any, Any] | None = None, **params: object) -> Game[Any, Any]:
    """The game a spec names, e.g. ``pocha`` or ``pocha(players=3, deck=48)``.

    Parameters may be given as keywords too, alone or with those of the spec; each is read and
    checked as it would be written in the spec, and the game's ``spec`` is its canonical one
    (what a record of it holds), however its parameters were given. (No game has a parameter
    named ``spec`` or ``rules``: those are this function's own.)

    >>> load("pocha", players=3, deck=48).spec
    'pocha(players=3, deck=48)'
    >>> load("pocha(players=3)", schedule=[1, 2]).spec
    'pocha(players=3, schedule=[1, 2])'
    >>> load("pocha(players=3)", players=5)
    Traceback (most recent call last):
    tapete.errors.SpecError: 'pocha(players=3)': players is given both in the spec and as a keyword

    Given the game's module as ``rules``, the game is typed with its states and views (and the
    spec must name a game of that module):

    >>> from tapete.games import pocha
    >>> load("oh_hell", pocha, players=5).players
    5
    >>> load("tute", pocha)
    Traceback (most recent call last):
    tapete.errors.SpecError: tute is not a game of the module tapete.games.pocha
    >>> load("Pocha(players=3)").spec
    'pocha(players=3)'
    >>> load("poker")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tapete.errors.SpecError: no game named 'poker'; the games are oh_hell, poch, pocha, ...
    """
    name, given = parse_spec(spec)
    for key, value in params.items():
        if key in given:
            raise SpecError(
                "{spec}: {name} is given both in the spec and as a keyword",
                param=key,
                spec=repr(spec),
                name=key,
            )
        given[key] = param_value(key, value)
    # A name is read in any case, as a person types it ("Pocha"); the spec then names the game
    # as the registry does.
    registered = ALIASES.get(name.lower(), name.lower())
    entry = ENTRIES.get(registered)
    if entry is None:
        raise SpecError(
            "no game named {name}; the games are {games}",
            name=repr(name),
            games=", ".join(game_names()),
        )
    found = entry.rules()
    if rules is not None and rules is not found:
        module = getattr(rules, "__name__", rules)
        raise SpecError(
            "{name} is not a game of the module {module}", name=registered, module=module
        )
    return bind(registered, found, entry.defaults, given)


_BY_VIEW: dict[type, Rules[Any, Any]] = {}


def rules_of(view: object) -> Rules[Any, Any]:
    """The rules module of the game ``view`` comes from: its ``NAME`` is the name presenters,
    bots and screens register against. Raises SpecError for an object no registered game made.

    >>> game = load("oh_hell(players=3)")
    >>> rules_of(game.observe(game.new_state(), 0)).NAME
    'pocha'
    """
    rules = _BY_VIEW.get(type(view))
    if rules is None:
        for entry in ENTRIES.values():
            if isinstance(view, entry.rules().View):
                rules = _BY_VIEW[type(view)] = entry.rules()
                break
        else:
            raise SpecError("{kind} is not the view of a registered game", kind=type(view).__name__)
    return rules
