"""The game contract (docs/concepts.md): what every game module provides, and the ``Game`` handle.

A game is one module in ``tapete.games`` with a frozen keyword-only ``Params`` and these plain
functions (``State`` and ``View`` are the module's own immutable types, actions are ints):

============================  ===============================================================
``new_state(params, setup)``  the match before its first decision, first deal dealt
``current_player(state)``     the seat to act, None when the match is over
``legal_actions(state)``      the actions of that seat, in a stable order
``why_illegal(state, a)``     the ``IllegalActionError`` ``a`` would raise, or None
``apply(state, a)``           the next state (the old one is unchanged)
``observe(state, seat)``      what ``seat`` may see (``None``: a spectator)
``sample_state(view, rng)``   a full state consistent with a view, for search
``outcome(state)``            an ``Outcome`` once the match is over, else None
``events(state)``             what the rules did by themselves in the last step
``visible_events(state, s)``  those events as seat ``s`` may know them (``None``: a spectator)
``visible_action(state, a, s)``  the text of ``a`` (taken in ``state``) as ``s`` may know it
``format_action`` / ``parse_action(params, ...)``   the text notation of docs/notation.md
``teams(params)``             the partnerships, or None
``players(params)``           the number of seats
``deck(params)``              every card the game uses
============================  ===============================================================

``Game`` binds a module to its parameters and adds text actions:

>>> import tapete
>>> game = tapete.load("pocha(players=3, schedule=2)")
>>> game.spec
'pocha(players=3, schedule=2)'
>>> state = game.new_state(seed=1)
>>> game.current_player(state) in range(3)
True
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import importlib
import io
import math
import random
import re
import tokenize
import types
import typing
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Protocol,
    Self,
    TypeAlias,
    TypeVar,
    cast,
)

from tapete.cards import Card, Deck, parse_card
from tapete.chance import by_lot, shuffled
from tapete.errors import IllegalActionError, InvalidActionError, Phrase, SpecError, one_of

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameState",
    "Outcome",
    "Rules",
    "Seat",
    "Setup",
    "WordEnum",
    "check",
    "check_params",
    "count_in",
    "deal_as_seen",
    "deck_problem",
    "form_spec",
    "format_spec",
    "mypyc_attr",
    "param_value",
    "parse_spec",
    "seat_scores",
    "unshared",
]

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*args: object, **kwargs: object) -> Callable[[type], type]:
        """What mypyc reads when it compiles the engine (``TAPETE_COMPILE=1``); nothing else."""
        return lambda cls: cls


Action: TypeAlias = int
Seat: TypeAlias = int
ParamValue: TypeAlias = int | str | bool | tuple[int, ...] | None
S = TypeVar("S")  # a game's State
V = TypeVar("V")  # a game's View


@dataclass(frozen=True)
class Setup:
    """The chance inputs of a match (docs/concepts.md).

    Deal ``k`` uses ``decks[k]`` (top card first) when given, else a shuffle derived from
    ``(seed, k)``; the first dealer is ``dealer``, or drawn by lot from the seed.

    A value: the decks are kept as tuples however they are given, so a setup built from lists
    equals, and hashes as, the same setup built from tuples.

    >>> len({Setup(1, [[3, 1, 2]]), Setup(1, ((3, 1, 2),))})
    1

    A seed, a dealer or a card that is no whole number is refused here, a SpecError naming
    the field, as ``Game.new_state`` refuses it (a seed of ``"x"`` once dealt its own deals).

    >>> Setup(seed="7")
    Traceback (most recent call last):
    tapete.errors.SpecError: seed='7' is not accepted: a whole number (the deals follow from it)
    """

    seed: int = 0
    decks: tuple[tuple[Card, ...], ...] = ()
    dealer: int | None = None

    def __post_init__(self) -> None:
        # The samplers of search bots build one per sampled deal, from an int seed and no
        # decks: that path is one type test and an empty tuple.
        if type(self.seed) is not int:
            seed = integer(self.seed)
            if seed is None:
                check(False, "seed", self.seed, "a whole number (the deals follow from it)")
            object.__setattr__(self, "seed", seed)
        if self.dealer is not None and type(self.dealer) is not int:
            dealer = integer(self.dealer)
            if dealer is None:
                check(False, "dealer", self.dealer, "a seat number")
            object.__setattr__(self, "dealer", dealer)
        if self.decks == () and type(self.decks) is tuple:  # no decks: nothing to read
            return
        decks = tuple(tuple(_number(card) for card in deck) for deck in _orders(self.decks))
        object.__setattr__(self, "decks", decks)  # frozen: the constructor's own fix-up

    def first_dealer(self, players: int) -> int:
        """The first dealer: the one given (its seat checked), or drawn by lot from the seed."""
        if self.dealer is None:
            return by_lot(players, self.seed, "first-dealer")
        dealer = self.dealer
        check(0 <= dealer < players, "dealer", dealer, "a seat from 0 to {last}", last=players - 1)
        return dealer

    def deck(self, deal: int, cards: Sequence[Card]) -> tuple[Card, ...]:
        """The order of deal ``deal`` over ``cards``; raises ValueError if a given one is wrong."""
        if deal >= len(self.decks):
            return shuffled(cards, self.seed, deal)
        given = self.decks[deal]
        problem = deck_problem(given, cards)
        if problem is not None:
            raise SpecError(
                Phrase(
                    "deck order for deal {deal} must hold each of the {cards} cards once (it has"
                    " {given}; missing: {missing}; not in the deck: {foreign}; repeated:"
                    " {repeated})",
                    deal=deal,
                    **problem,
                )
            )
        return given


def deck_problem(given: Sequence[Card], cards: Sequence[Card]) -> dict[str, object] | None:
    """What keeps ``given`` from being an order of ``cards``, as the fields of a refusal (how
    many cards it should hold and holds, which are missing, not in the deck, repeated); None
    when it holds each card once.

    >>> deck_problem([1, 2, 2], [1, 2, 3])["missing"], deck_problem([2, 1], [1, 2])
    ('3o', None)
    """
    if sorted(given) == sorted(cards):
        return None
    from tapete.cards import format_cards

    counts = Counter(given)
    missing = sorted(set(cards) - set(given))
    foreign = sorted(set(given) - set(cards))
    repeated = sorted(c for c, k in counts.items() if k > 1 and c not in foreign)
    none = Phrase("none")
    return {
        "cards": len(cards),
        "given": len(given),
        "missing": format_cards(missing) or none,
        "foreign": format_cards(foreign) or none,
        "repeated": format_cards(repeated) or none,
    }


class WordEnum(enum.IntEnum):
    """The base of a game's enumerations (its ``Phase``, what the seat to act is deciding, ...).

    A member is an int (states compare phases in every step of a playout) that reads as its
    lowercase name, so a view's phase prints as a word and an event can carry it as one:

    >>> class Phase(WordEnum):
    ...     BID = 0
    ...     PLAY = 1
    >>> Phase.PLAY == 1, str(Phase.PLAY), f"{Phase.BID}"
    (True, 'play', 'bid')
    """

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


@mypyc_attr(native_class=False)
class GameState:
    """The base of a game's slotted ``State``: the ways to make a new state from an old one.

    ``state._copy()`` is a new state with every slot of this one but the caches in ``_FRESH``
    (e.g. its legal moves), which it sets to their fresh values; ``state._with(**changes)`` is
    that copy with ``changes`` applied. Both are written out slot by slot when the class is made:
    several times faster than a loop over the slots, and every transition of a playout makes one.
    The keywords cost a dict and a ``setattr`` each, so a step on a playout's path that changes
    several slots copies with ``_copy()`` and sets them on the new state before it returns it
    (nobody has seen it yet): a third of the cost with six changes.

    A class with an ``__init__`` of its own writes ``_copy`` too, as a call of its constructor
    with every argument taken from ``self`` (mypy checks that none is missing); one without may
    write it as well. The pure build replaces a written ``_copy`` with the written-out one; the
    compiled build keeps it and starts ``_with`` from it: a compiled class is made fastest by its
    own compiled code (from interpreted code, a copy of Truco's state through its constructor's
    keywords took longer than the rest of a decision).

    >>> class Tally(GameState):
    ...     __slots__ = ("count", "_cache")
    ...     _FRESH = (("_cache", None),)
    ...     def __init__(self, count: int) -> None:
    ...         self.count, self._cache = count, "stale"
    ...     def _copy(self) -> Tally:
    ...         return Tally(self.count)
    >>> a = Tally(1)
    >>> b = a._with(count=2)
    >>> (a.count, a._cache), (b.count, b._cache), a._copy()._cache
    ((1, 'stale'), (2, None), None)
    """

    __slots__ = ()
    _FRESH: ClassVar[tuple[tuple[str, object], ...]] = ()  # (slot, value) pairs

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fresh = dict(cls._FRESH)
        compiled = vars(cls).get("__mypyc_attrs__")
        scope: dict[str, Any] = {"_make": object.__new__, "_cls": cls}
        scope.update((f"_fresh_{i}", value) for i, value in enumerate(fresh.values()))
        if "__init__" in vars(cls) and "_copy" not in vars(cls):
            raise TypeError(f"{cls.__qualname__} has an __init__, so it writes _copy too")
        if compiled is not None and "_copy" in vars(cls):
            body = ["    new = self._copy()"]  # the class's own, compiled
        else:
            make, slots = "_make(_cls)", vars(cls).get("__slots__", ())
            if compiled is not None:  # with no ``__init__`` of its own: a blank instance
                make, slots = "_cls()", tuple(name for name in compiled if name != "__dict__")
            body = [f"    new = {make}"]
            body += [f"    new.{name} = self.{name}" for name in slots if name not in fresh]
            body += [f"    new.{name} = _fresh_{i}" for i, name in enumerate(fresh)]
            exec("\n".join(["def _copy(self):", *body, "    return new"]), scope)
            cls._copy = scope["_copy"]
        changes = ["    for name, value in changes.items():", "        setattr(new, name, value)"]
        # The code names only the class's own slots.
        exec("\n".join(["def _with(self, **changes):", *body, *changes, "    return new"]), scope)
        cls._with = scope["_with"]

    _copy: Callable[[], Self]  # written out for each subclass, see the class docstring
    _with: Callable[..., Self]


@dataclass(frozen=True)
class Outcome:
    """The end of a match: final ``scores`` (per seat, or per team), ``winners`` (seats), why.

    A value: scores and winners are kept as tuples however they are given (as ``Setup``).
    """

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    reason: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", tuple(self.scores))
        object.__setattr__(self, "winners", tuple(self.winners))


def seat_scores(scores: Sequence[int], teams: Sequence[Sequence[Seat]] | None) -> tuple[int, ...]:
    """Each seat's final score: its own, or its team's where the game scores per team
    (``Outcome.scores`` has one entry per team then, in the order of ``teams``).

    >>> seat_scores((7, 12), ((0, 2), (1, 3)))
    (7, 12, 7, 12)
    >>> seat_scores((30, -5, 10), None)
    (30, -5, 10)
    """
    if teams is None:
        return tuple(scores)
    check(len(scores) == len(teams), "scores", scores, "one score per team ({n})", n=len(teams))
    team_of = {seat: t for t, members in enumerate(teams) for seat in members}
    return tuple(scores[team_of[seat]] for seat in sorted(team_of))


@dataclass(frozen=True)
class Event:
    """Something the rules did by themselves: a deal, a trick taken, a hand scored.

    ``data`` is JSON-ready (cards in text form). A ``deal`` event holds every hand, so it is for
    records and referees only; views are what players receive.

    An event is a value: equal events (same type, equal data) hash equal, so events go in sets
    and serve as dict keys. The hash is worked out from the data each time it is asked for, so
    it stays consistent with equality even after someone changes a list inside the data (which
    moves the event within a set that holds it, as for any value changed in place).

    >>> Event("score", {"score": [3, 1]}) in {Event("score", {"score": [3, 1]})}
    True
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.data, MappingProxyType):
            object.__setattr__(self, "data", MappingProxyType(self.data))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **jsonable(self.data)}

    def __hash__(self) -> int:
        return hash((self.type, hashable(self.data)))

    def __reduce__(self) -> tuple[Callable[..., Event], tuple[str, dict[str, Any]]]:
        # A read-only mapping does not pickle; its items do, and a state keeps its last events.
        return Event, (self.type, dict(self.data))


def unshared(event: Event) -> Event:
    """``event`` with lists and dicts of its own, for a state that keeps the event itself: what
    a caller does to the events it is given must not change the state they came from.

    >>> kept = Event("end", {"scores": [3, 1], "winners": [0]})
    >>> given = unshared(kept)
    >>> given.data["winners"].append(1)
    >>> given == kept, kept.data["winners"]
    (False, [0])
    """
    return Event(event.type, {key: _copied(value) for key, value in event.data.items()})


def _copied(value: Any) -> Any:
    if isinstance(value, list | tuple):
        items = [_copied(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, Mapping):
        return {k: _copied(v) for k, v in value.items()}
    return value


def hashable(value: Any) -> Hashable:
    """A hashable stand-in for JSON-ready ``value``, equal for equal values: a mapping is the set
    of its items (equal mappings compare regardless of order), a list or tuple a tuple. Made
    anew at each call, as the lists and dicts it comes from may change.

    >>> hashable({"b": [1, 2], "a": {"c": None}}) == hashable({"a": {"c": None}, "b": [1, 2]})
    True
    """
    if isinstance(value, Mapping):
        return frozenset((key, hashable(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return tuple(hashable(item) for item in value)
    return cast(Hashable, value)  # a leaf (int, text, None): hashable, or hash() says it is not


def jsonable(value: Any) -> Any:
    """``value`` with mappings as dicts and tuples as lists, as JSON writes them."""
    if isinstance(value, Mapping):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    return value


class Rules(Protocol[S, V]):
    """What a game module provides (see the module docstring), ``S`` its State, ``V`` its View."""

    Params: type[Any]
    View: type[V]
    NAME: str

    def new_state(self, params: Any, setup: Setup) -> S: ...
    def current_player(self, state: S) -> Seat | None: ...
    def legal_actions(self, state: S) -> list[Action]: ...
    def why_illegal(self, state: S, action: Action) -> IllegalActionError | None: ...
    def apply(self, state: S, action: Action) -> S: ...
    def observe(self, state: S, seat: Seat | None) -> V: ...
    def sample_state(self, view: V, rng: random.Random) -> S: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def events(self, state: S) -> tuple[Event, ...]: ...
    def visible_events(self, state: S, seat: Seat | None) -> tuple[Event, ...]: ...
    def visible_action(self, state: S, action: Action, seat: Seat | None) -> str: ...
    def format_action(self, params: Any, action: Action) -> str: ...
    def parse_action(self, params: Any, text: str) -> Action: ...
    def players(self, params: Any) -> int: ...
    def teams(self, params: Any) -> tuple[tuple[Seat, ...], ...] | None: ...
    def deck(self, params: Any) -> Deck: ...


@dataclass(frozen=True)
class Game(Generic[S, V]):
    """A game with its parameters: the handle ``tapete.load`` returns.

    Methods take and return the module's immutable states ``S`` and views ``V``; ``apply`` and
    ``why_illegal`` accept an action as an int or as text. ``tapete.load(spec)`` cannot know the
    types from a string (``Game[Any, Any]``); ``tapete.load(spec, pocha)`` checks that the spec
    names a game of that module and gives ``Game[pocha.State, pocha.View]``.
    """

    name: str
    params: Any
    rules: Rules[S, V] = field(repr=False)
    defaults: Any = field(repr=False, compare=False)
    # format_action's answers: a server writes the same few actions into every view
    _texts: dict[int, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The per-step queries go straight to the module: playouts call them millions of times.
        for name in ("current_player", "legal_actions", "outcome", "events"):
            object.__setattr__(self, name, getattr(self.rules, name))

    @property
    def changes(self) -> dict[str, Any]:
        """Every parameter that differs from the game's default, by name, in their order."""
        return {
            f.name: getattr(self.params, f.name)
            for f in dataclasses.fields(self.params)
            if getattr(self.params, f.name) != getattr(self.defaults, f.name)
        }

    @property
    def spec(self) -> str:
        """The canonical spec: the name and every parameter that differs from its default."""
        return format_spec(self.name, self.changes)

    @property
    def players(self) -> int:
        return self.rules.players(self.params)

    @property
    def teams(self) -> tuple[tuple[Seat, ...], ...] | None:
        return self.rules.teams(self.params)

    @property
    def deck(self) -> Deck:
        """Every card this game uses (for a match with these parameters)."""
        return self.rules.deck(self.params)

    def parse_card(self, text: str) -> Card:
        """A card from its text, read as this game's deck writes cards (``2c`` is clubs in a
        French deck, copas in a Spanish one); InvalidActionError for text that is no card.
        Any card of any deck is read: whether it is one of this game's is
        ``card in game.deck.cards`` (a deck order given to ``new_state`` is checked so).

        >>> import tapete
        >>> game = tapete.load("pocha")
        >>> game.parse_card("2c"), game.parse_card("Ah") in game.deck.cards
        (18, False)
        """
        return parse_card(text, french=self._french)

    @property
    def _french(self) -> bool:
        return any(s >= 4 for s in self.deck.suits)

    def new_state(
        self,
        seed: int = 0,
        *,
        decks: Iterable[Iterable[Card | str]] = (),
        dealer: int | None = None,
    ) -> S:
        number = seed if type(seed) is int else integer(seed)
        if number is None:
            raise SpecError(
                ACCEPTED,
                name="seed",
                value=format_value(seed),
                accepted=Phrase("a whole number (the deals follow from it)"),
            )
        if dealer is not None and integer(dealer) is None:  # True or "1" is no seat
            last = self.players - 1
            check(False, "dealer", dealer, "a seat from 0 to {last}, or none", last=last)
        orders = (
            ()
            if type(decks) is tuple and not decks  # none given: the common case, kept cheap
            else tuple(tuple(_card(c, self._french) for c in d) for d in _orders(decks))
        )
        first = None if dealer is None else integer(dealer)
        return self.rules.new_state(self.params, Setup(number, orders, first))

    def current_player(self, state: S) -> Seat | None:
        return self.rules.current_player(state)

    def legal_actions(self, state: S) -> list[Action]:
        return self.rules.legal_actions(state)

    def action(self, action: Action | str) -> Action:
        """``action`` as the rules take it: text is parsed; anything but an int (or an integer
        such as NumPy's) or text is refused with InvalidActionError, as text that does not parse.
        """
        if isinstance(action, str):
            return self.rules.parse_action(self.params, action)
        number = integer(action)
        if number is None:
            kind = type(action).__name__
            raise InvalidActionError(f"an action is an int or its text, not a {kind}")
        return number

    def why_illegal(self, state: S, action: Action | str) -> IllegalActionError | None:
        """The error ``apply`` would raise for ``action``, or None when it is legal.

        Raises InvalidActionError when text does not parse.
        """
        action = self.action(action)
        self._check(state)
        return self.rules.why_illegal(state, action)

    def apply(self, state: S, action: Action | str) -> S:
        if type(action) is not int:  # a plain int, the hot path, goes straight to the rules
            action = self.action(action)
        try:
            # A state made by this game shares its Params: one identity test on the hot path.
            if state.params is not self.params:  # type: ignore[attr-defined]
                self._same_rules(state)
            return self.rules.apply(state, action)
        except _FOREIGN:
            self._own(state, "State")
            raise

    def observe(self, state: S, seat: Seat | None) -> V:
        """What ``seat`` may know of ``state`` (None: a spectator); ValueError for a seat that
        is not at this table."""
        seat = self._seat(seat)
        try:
            if state.params is not self.params:  # type: ignore[attr-defined]
                self._same_rules(state)
            return self.rules.observe(state, seat)
        except _FOREIGN:
            self._own(state, "State")
            raise

    def sample_state(self, view: V, rng: random.Random) -> S:
        """A full state consistent with ``view``, its hidden cards dealt at random from
        ``rng`` (a ``random.Random``; TypeError for anything else, such as a seed)."""
        if not isinstance(rng, random.Random):
            kind = type(rng).__name__
            raise TypeError(f"sample_state draws from a random.Random, not a {kind}")
        try:
            if view.params is not self.params:  # type: ignore[attr-defined]
                self._same_rules(view, "view")
            return self.rules.sample_state(view, rng)
        except _FOREIGN:
            self._own(view, "View")
            raise

    def outcome(self, state: S) -> Outcome | None:
        return self.rules.outcome(state)

    def events(self, state: S) -> tuple[Event, ...]:
        return self.rules.events(state)

    def visible_events(self, state: S, seat: Seat | None) -> tuple[Event, ...]:
        """The events of the last step as ``seat`` may know them (None: a spectator).

        The one way events reach players: logs and records for a seat are built from these, and
        they hide exactly what ``observe(state, seat)`` hides.
        """
        seat = self._seat(seat)
        self._check(state)
        return self.rules.visible_events(state, seat)

    def visible_action(self, state: S, action: Action | str, seat: Seat | None) -> str:
        """The text of ``action``, taken in ``state``, as ``seat`` may know it (a card played
        face down by another seat is ``play down``); InvalidActionError, as ``format_action``
        gives, for an int that is no action of this game."""
        action, seat = self.action(action), self._seat(seat)
        self._check(state)
        self.format_action(action)  # no text made up for what is no action (``bid 9871``)
        return self.rules.visible_action(state, action, seat)

    def format_action(self, action: Action) -> str:
        """The text of ``action``, which ``parse_action`` reads back as ``action``; an int that
        names no action of this game (a card of another deck, a number out of range) raises
        InvalidActionError rather than get the text of some other action."""
        if isinstance(action, str):
            raise InvalidActionError(f"format_action takes an action as an int, not {action!r}")
        number = self.action(action)  # an int, or InvalidActionError
        known = self._texts.get(number)
        if known is not None:
            return known
        try:
            # The rules' own refusal says what an action of the game is ("a raise names 1 to
            # 360 chips"): it goes out as it is.
            text = self.rules.format_action(self.params, number)
        except (IndexError, OverflowError):
            text = None
        try:
            same = text is not None and self.rules.parse_action(self.params, text) == number
        except InvalidActionError:  # a text of another deck's card, say, not read back
            same = False
        if text is None or not same:
            raise InvalidActionError(f"{number} is not an action of {self.name}")
        if 0 <= number < 1024:  # every action of every game; never an unbounded cache
            self._texts[number] = text
        return text

    def __reduce__(self) -> tuple[Callable[..., Game[Any, Any]], tuple[Any, ...]]:
        # The rules are a module, which does not pickle: its name does (for process pools).
        module = self.rules.__name__  # type: ignore[attr-defined]
        return _game, (module, self.name, self.params, self.defaults)

    def _own(self, value: object, kind: str) -> None:
        """Called when the rules failed on ``value``: a TypeError saying so if it is not a
        ``kind`` (``State`` or ``View``) of this game's module (the other error stands if it is).
        Checked only on failure, so the playout loop pays nothing for it."""
        expected = getattr(self.rules, kind, None)
        if isinstance(expected, type) and not isinstance(value, expected):
            given = f"{type(value).__module__}.{type(value).__qualname__}"
            raise TypeError(
                f"a {given} is not a {kind} of {self.name}: give it to the game that made it"
            ) from None

    def _check(self, state: object) -> None:
        """A TypeError, as ``apply`` gives, for a state of another game or of other rules, before
        a query the rules would answer with nonsense or an error of their own. (The per-step
        queries, ``current_player``, ``legal_actions``, ``outcome`` and ``events``, go straight to
        the rules unchecked.)"""
        if getattr(state, "params", None) is not self.params:
            self._own(state, "State")
            self._same_rules(state)

    def _same_rules(self, value: Any, kind: str = "state") -> None:
        """A TypeError unless ``value``, a state or a view, was made under this game's
        parameters: one of Pocha for three, say, given to Pocha for four or to Oh Hell (one
        module, other rules)."""
        if value.params != self.params:
            made = Game(self.name, value.params, self.rules, self.defaults).spec
            raise TypeError(
                f"a {kind} of {made} is not a {kind} of {self.spec}:"
                " give it to the game that made it"
            )

    def _seat(self, seat: object) -> Seat | None:
        """``seat`` checked: None (a spectator) or a seat of this table, as an int."""
        if seat is None:
            return None
        number = integer(seat)
        if number is not None and 0 <= number < self.players:
            return number
        raise ValueError(
            f"seat {seat!r} is not at this table: a seat is 0 to {self.players - 1},"
            " or None for a spectator"
        )

    def parse_action(self, text: str) -> Action:
        """The action ``text`` names (``bid 2``, ``play 3o``), which ``format_action`` writes
        back; InvalidActionError for text that names none, and for anything but text."""
        if not isinstance(text, str):
            raise InvalidActionError(f"parse_action takes the text of an action, not {text!r}")
        return self.rules.parse_action(self.params, text)


def _game(module: str, name: str, params: Any, defaults: Any) -> Game[Any, Any]:
    """A pickled ``Game`` again, its rules imported by the module's name."""
    return Game(name, params, importlib.import_module(module), defaults)


_FOREIGN = (AttributeError, IndexError, KeyError, TypeError)  # what another game's value raises
HIDDEN_PILES = ("deck", "stock", "undealt")  # a deal event's cards no player has yet


def deal_as_seen(
    event: Event, sees: Callable[[Seat], bool], *, french: bool | None = None
) -> Event:
    """A ``deal`` event as a seat knows it: the hands of the seats it ``sees`` (the others as
    empty lists), and no deck order, stock or undealt cards: they would tell the cards to come.

    A hand is a set: each one shown is in the deck's order (``french``: the deck is French, by
    default as the event's ``french`` says), never the order dealt, so two deals that give a
    seat the same cards look the same to it.

    >>> deal = Event("deal", {"dealer": 0, "deck": ["7o", "1o", "2o"], "hands": [["7o", "1o"], []]})
    >>> deal_as_seen(deal, lambda owner: owner == 0).to_json()
    {'type': 'deal', 'dealer': 0, 'deck': [], 'hands': [['1o', '7o'], []]}
    """
    data = dict(event.data)
    in_french = bool(data.get("french")) if french is None else french
    data["hands"] = [
        sorted(h, key=lambda text: parse_card(text, in_french)) if sees(owner) else []
        for owner, h in enumerate(data["hands"])
    ]
    for pile in HIDDEN_PILES:
        if pile in data:
            data[pile] = []
    return Event(event.type, data)


def integer(value: object) -> int | None:
    """``value`` as an int when it is a whole number (an int, or an integer such as NumPy's),
    else None: not a bool, a float or text.

    >>> integer(3), integer(True), integer(3.0), integer("3")
    (3, None, None, None)
    """
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_"):  # NumPy's too
        return None
    index = getattr(value, "__index__", None)
    if not callable(index):
        return None
    try:
        return int(index())
    except TypeError:  # an array that is not a scalar
        return None


def _orders(decks: object) -> list[Iterable[Card | str]]:
    """``decks`` checked for its shape: a list of deck orders, one a deal, each a list of cards
    (or any other iterable, a NumPy array too). Text (``"1o 2o"``, or one order given as a list
    of card texts where a list of orders is asked for) would otherwise be read a character at a
    time, and a number or None be refused by Python's words, not by a sentence naming ``decks``.
    """

    def listed(value: object) -> bool:
        return isinstance(value, Iterable) and not isinstance(value, str | bytes)

    orders: list[Iterable[Card | str]] | None = list(decks) if listed(decks) else None  # type: ignore[call-overload]
    if orders is not None and all(listed(order) for order in orders):
        return orders
    shown = repr(decks)
    raise SpecError(
        ACCEPTED,
        param="decks",
        name="decks",
        value=shown if len(shown) <= 60 else shown[:57] + "...",
        accepted=Phrase("a list of deck orders, one a deal, each a list of cards"),
    )


def _number(card: object) -> Card:
    """A card of a ``Setup``'s deck order: an int (NumPy's too); its text is read by
    ``Game.new_state``, which knows the deck."""
    if type(card) is int:
        return card
    number = integer(card)
    if number is None:
        raise SpecError(
            "a Setup's deck order holds cards as ints (Game.new_state reads them as text too),"
            " not {card}",
            card=repr(card),
        )
    return number


def _card(card: Card | str, french: bool) -> Card:
    """A card of a given deck order: a Card (an int), or its text (``1o``, ``Ah``) in the
    game's deck (``french``: a French deck, where ``2c`` is clubs)."""
    if isinstance(card, str):
        try:
            return parse_card(card, french)
        except InvalidActionError as exc:
            raise SpecError("a deck order holds cards: {why}", why=str(exc)) from None
    number = integer(card)
    if number is not None:
        return number
    raise SpecError(
        "a deck order holds cards (an int, or text such as 1o or Ah), not {card}", card=repr(card)
    )


def count_in(text: str, most: int) -> int | None:
    """The whole number ``text`` writes, if it is one from 0 to ``most``; None for anything
    else. A number thousands of digits long is refused by its length, not read (``int`` of it
    is slow, or refused); leading zeros are no part of that length.

    >>> count_in("07", 13), count_in("14", 13), count_in("9" * 5000, 13), count_in("-1", 13)
    (7, None, None, None)
    """
    if not text.isdecimal() or len(text.lstrip("0")) > len(str(most)):
        return None
    number = int(text)
    return number if number <= most else None


ACCEPTED = "{name}={value} is not accepted: {accepted}"
"""The template of a refused parameter value (``check``): its translations key on it."""


def check(ok: bool, name: str, value: object, accepted: str | Phrase, /, **fields: object) -> None:
    """Raise SpecError for parameter ``name`` unless ``ok``; ``accepted`` says what would do.

    ``accepted`` is English, a template that ``fields`` fill (or a ``Phrase``): it is the key
    of its translations (``tapete.i18n``), so it names numbers as fields, not as text.

    >>> check(False, "deck", 52, "40 or 48")
    Traceback (most recent call last):
    tapete.errors.SpecError: deck=52 is not accepted: 40 or 48
    >>> check(False, "suits", 5, "{low} to {high}", low=1, high=4)
    Traceback (most recent call last):
    tapete.errors.SpecError: suits=5 is not accepted: 1 to 4
    """
    if not ok:
        words = accepted if isinstance(accepted, Phrase) else Phrase(accepted, **fields)
        raise SpecError(ACCEPTED, param=name, name=name, value=format_value(value), accepted=words)


def format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if value is None:
        return "none"
    if isinstance(value, str) and not value.isidentifier():
        return repr(value)  # quoted, as a spec writes it: '40' is not the number 40
    if isinstance(value, int) and value.bit_length() > 10_000:
        # Too long for Python to write (it refuses ints of over 4,300 digits): its size.
        return f"{'-' if value < 0 else ''}~10**{int(abs(value).bit_length() * math.log10(2))}"
    return str(value)


def format_spec(name: str, params: Mapping[str, object]) -> str:
    """The spec text of a name and parameters (the inverse of ``parse_spec``).

    >>> format_spec("pocha", {"players": 3, "schedule": (1, 2)})
    'pocha(players=3, schedule=[1, 2])'
    """
    if not params:
        return name
    return f"{name}(" + ", ".join(f"{k}={format_value(v)}" for k, v in params.items()) + ")"


def parse_spec(spec: str) -> tuple[str, dict[str, ParamValue]]:
    """Split ``name(key=value, ...)`` into the name and its parameters.

    Values are ints, ``true``/``false``, ``none``, bare words or quoted strings, and ``[...]``
    lists of ints.

    >>> parse_spec("pocha(players=3, schedule=[1, 3], dealer_hook=false, rank_order=natural)")
    ('pocha', {'players': 3, 'schedule': (1, 3), 'dealer_hook': False, 'rank_order': 'natural'})
    """
    if not isinstance(spec, str):
        raise TypeError(f"a spec is text, such as 'pocha(players=3)', not {spec!r}")
    # ValueError: an int too long to read. RecursionError and MemoryError: a value nested too
    # deep for Python's parser or for ours (two thousand minus signs, as many brackets).
    too_deep = (RecursionError, MemoryError)
    plain = _plain_numbers(spec.strip())
    if plain is None:
        raise SpecError(NOT_A_SPEC, spec=_cut(repr(spec)))
    try:
        tree = ast.parse(plain, mode="eval").body
    except (SyntaxError, ValueError, *too_deep):
        raise SpecError(NOT_A_SPEC, spec=_cut(repr(spec))) from None
    if isinstance(tree, ast.Name):
        return tree.id, {}
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)) or tree.args:
        raise SpecError(NOT_A_SPEC, spec=_cut(repr(spec)))
    params: dict[str, ParamValue] = {}
    for keyword in tree.keywords:
        if keyword.arg is None:
            raise SpecError("{spec}: parameters are written key=value", spec=repr(spec))
        if keyword.arg in params:
            raise SpecError("{spec}: {name} is given twice", spec=repr(spec), name=keyword.arg)
        try:
            params[keyword.arg] = _spec_value(keyword.arg, keyword.value)
        except too_deep:
            raise SpecError(NOT_A_SPEC, spec=_cut(repr(spec))) from None
    return tree.func.id, params


# What may be a number written otherwise than plainly: a sign, an underscore, a leading zero
# (0x3 too). Text without any is a spec as Python reads it.
_UNPLAIN = re.compile(r"[+]|\d_|-\s*-|(?<!\d)0[0-9xXoObB]")
_UNARY_AFTER = frozenset({"=", ",", "[", "("})
_NOT_TOKENS = frozenset(
    {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
)


def _plain_numbers(spec: str) -> str | None:
    """``spec`` with its whole numbers as a person writes them, in Python's words, or None when
    one is written in a way a spec does not read.

    A spec's ints are plain decimals: a leading ``+`` or zeros are read (``+3``, ``03`` is 3),
    but not Python's other ways of writing an int (``0x3``, ``0o7``, ``0b1``, ``1_0``) nor a
    sign on a sign (``--3``), which a person does not mean as a number. Text Python cannot
    read at all is left for ``ast.parse`` to refuse.

    >>> _plain_numbers("pocha(players=+03, schedule=[-1, 007])")
    'pocha(players=3, schedule=[-1, 7])'
    >>> _plain_numbers("pocha(players=0x3)"), _plain_numbers("pocha(players=--3)")
    (None, None)
    """
    if _UNPLAIN.search(spec) is None:  # the usual spec: read as it is, without tokenizing it
        return spec
    try:
        tokens = [
            t
            for t in tokenize.generate_tokens(io.StringIO(spec).readline)
            if t.type not in _NOT_TOKENS
        ]
    except (tokenize.TokenError, SyntaxError):
        return spec
    starts = [0]
    for line in spec.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def at(position: tuple[int, int]) -> int:
        return starts[position[0] - 1] + position[1]

    cuts: list[tuple[int, int, str]] = []  # (start, end, replacement), in order
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == tokenize.NUMBER:
            text = token.string
            if "_" in text or text[:2].lower() in ("0x", "0o", "0b"):
                return None
            # Python reads 03 as two numbers, 0 and 3, side by side: one number of a spec.
            end = i
            while (
                text.isdigit()
                and end + 1 < len(tokens)
                and tokens[end + 1].type == tokenize.NUMBER
                and tokens[end + 1].string.isdigit()
                and tokens[end + 1].start == tokens[end].end
            ):
                end += 1
                text += tokens[end].string
            if text.isdigit() and text != "0" and text.startswith("0"):
                cuts.append((at(token.start), at(tokens[end].end), text.lstrip("0") or "0"))
            i = end + 1
            continue
        unary = token.string in ("+", "-") and (i == 0 or tokens[i - 1].string in _UNARY_AFTER)
        if unary and i + 1 < len(tokens):
            after = tokens[i + 1]
            if after.string in ("+", "-"):
                return None
            if token.string == "+" and after.type == tokenize.NUMBER:
                cuts.append((at(token.start), at(token.end), ""))
        i += 1
    for start, end, replacement in reversed(cuts):
        spec = spec[:start] + replacement + spec[end:]
    return spec


def _cut(text: str, most: int = 80) -> str:
    """``text`` as a refusal quotes it: whole up to ``most`` characters, else its start."""
    return text if len(text) <= most else text[: most - 3] + "..."


NOT_A_SPEC = "{spec} is not a game spec: write name or name(key=value, ...)"
NOT_A_VALUE = "{name}: {value} is not a value (an int, a word, true/false, [ints])"
_WORDS: dict[str, ParamValue] = {"true": True, "false": False, "none": None}


def param_value(name: str, value: object) -> ParamValue:
    """A parameter value given from Python (``tapete.load("pocha", players=3)``) as the spec
    parser reads the same value written in a spec: an int (any whole-number type), text (a
    word), True/False, None, or a list or tuple of ints (a tuple, as ``[1, 2]`` in a spec).
    Anything else is refused in the words the spec parser uses for it.

    >>> param_value("schedule", [1, 2]), param_value("players", 3), param_value("deck", "french")
    ((1, 2), 3, 'french')
    >>> param_value("players", 3.5)
    Traceback (most recent call last):
    tapete.errors.SpecError: players: 3.5 is not a value (an int, a word, true/false, [ints])
    >>> param_value("schedule", [1, True])
    Traceback (most recent call last):
    tapete.errors.SpecError: schedule: [1, true] is not a value (an int, a word, true/false, [ints])
    """
    if value is None or isinstance(value, bool | str):
        return value
    number = integer(value)
    if number is not None:
        return number
    if isinstance(value, list | tuple):
        items = [integer(item) for item in value]
        if all(item is not None for item in items):
            return tuple(item for item in items if item is not None)
    raise SpecError(NOT_A_VALUE, name=name, value=format_value(value))


def _spec_value(name: str, node: ast.expr) -> ParamValue:
    if isinstance(node, ast.Name):
        return _WORDS.get(node.id.lower(), node.id)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | str | bool | None):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand  # a number, not another value's negation: -(-3) is no number
        if isinstance(inner, ast.Constant) and type(inner.value) is int:
            return -inner.value
    if isinstance(node, ast.List | ast.Tuple):
        items = [_spec_value(name, e) for e in node.elts]
        if all(isinstance(i, int) and not isinstance(i, bool) for i in items):
            return tuple(i for i in items if isinstance(i, int))
    raise SpecError(NOT_A_VALUE, name=name, value=ast.unparse(node))


def bind(
    name: str, rules: Rules[S, V], defaults: Mapping[str, Any], given: Mapping[str, Any]
) -> Game[S, V]:
    """Build a ``Game`` from a registry entry and the parameters a spec gives; the values are
    checked by ``Params`` itself (``check_params``), as when it is built directly."""
    fields = [f.name for f in dataclasses.fields(rules.Params)]
    unknown = [k for k in given if k not in fields]
    if unknown:
        raise SpecError(
            "{game} has no parameter {unknown}; its parameters are {known}",
            game=name,
            unknown=", ".join(unknown),
            known=", ".join(fields),
        )
    base = rules.Params(**defaults)
    try:
        params = rules.Params(**{**defaults, **given})
    except TypeError as exc:  # compiled, a value of an erased type (``_typed``) fails early
        raise SpecError(
            "{game}: a parameter has a value of the wrong type ({why})", game=name, why=str(exc)
        ) from None
    return Game(name, params, rules, base)


def check_params(params: Any) -> None:
    """Check each field of a game's ``Params`` against its declared type; the first thing every
    ``Params.__post_init__`` does, so that a ``Params`` built directly and one read from a spec
    (``tapete.load``) are refused alike, and the game's own checks compare values of the types
    they expect.

    A value of another type raises SpecError naming the field and the types it takes, unless the
    game's own check can name what the field accepts: a word field reads the value as the word
    it is written as, and a field of several types keeps any value a spec can write.

    >>> from tapete.games import pocha
    >>> pocha.Params(players="4")
    Traceback (most recent call last):
    tapete.errors.SpecError: players='4' is not accepted: a whole number
    >>> pocha.Params(dealer_hook=1)
    Traceback (most recent call last):
    tapete.errors.SpecError: dealer_hook=1 is not accepted: true or false
    >>> pocha.Params(scoring=3)
    Traceback (most recent call last):
    tapete.errors.SpecError: scoring='3' is not accepted: pocha or oh_hell
    """
    hints = _field_hints(type(params))
    for name, hint in hints.items():
        value = getattr(params, name)
        typed = _typed(name, hint, value)
        if typed is not value:
            object.__setattr__(params, name, typed)  # frozen: the constructor's own fix-up


_HINTS: dict[type, dict[str, object]] = {}


def _field_hints(params: type[Any]) -> dict[str, object]:
    """The declared type of each field of the dataclass ``params`` (resolved once a class)."""
    hints = _HINTS.get(params)
    if hints is None:
        every = typing.get_type_hints(params)
        hints = _HINTS[params] = {f.name: every[f.name] for f in dataclasses.fields(params)}
    return hints


def typed_params(params: type[Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` parameter values for the ``Params`` class ``params``, as ``check_params`` reads
    them; raises SpecError for a value of a type the field does not take."""
    hints = _field_hints(params)
    return {key: _typed(key, hints.get(key), value) for key, value in given.items()}


_KINDS: dict[object, str] = {
    bool: "true or false",
    int: "a whole number",
    str: "a word",
    type(None): "none",
}


def _typed(name: str, hint: object, value: Any) -> Any:
    """``value`` for a parameter declared ``hint``; raises SpecError for a value of a type the
    check of the game could not judge.

    A value of one of the hint's types is kept. A word parameter reads any other value as the
    word it is written as, so that the game's own check names the words it accepts (in both
    builds alike: compiled, a value of another type would fail before the checks). A parameter
    of several types (``int | None``, say) keeps any other value a spec can write (an int, a
    word, true/false, none, a tuple of ints): its check names the values it takes, as for a spec.
    """
    if hint is None or hint is type:
        # None: no field of that name (the caller refuses the name itself). type: a compiled
        # module's annotation of a union or a tuple, which mypyc keeps only as "some type";
        # the game's own check names what it takes (bind turns a compiled TypeError into one).
        return value
    kinds = _kinds_of(hint)
    if any(_has_type(value, kind) for kind in kinds):
        return value
    if kinds == (str,):
        return format_value(value)
    if len(kinds) > 1 and _spec_value_type(value):
        return value
    accepted = one_of([Phrase(_describe(kind)) for kind in kinds])
    if isinstance(value, str) and value.lower() in _WORDS:
        # The text "false" written bare is the value false: quoted, the refusal does not say
        # "dealer_hook=false is not accepted: true or false".
        raise SpecError(ACCEPTED, param=name, name=name, value=repr(value), accepted=accepted)
    listed = isinstance(value, list) and any(typing.get_origin(k) is tuple for k in kinds)
    check(False, name, value, Phrase("{kinds}, not a list", kinds=accepted) if listed else accepted)
    return value


@functools.lru_cache(maxsize=256)
def _kinds_of(hint: object) -> tuple[object, ...]:
    """The types a parameter declared ``hint`` takes, each once (a ``Literal``'s by the types
    of its values): worked out once a hint, as every ``Params`` built checks every field."""
    kinds: list[object] = []
    for kind in typing.get_args(hint) if _is_union(hint) else (hint,):
        if typing.get_origin(kind) is typing.Literal:
            kinds.extend(type(choice) for choice in typing.get_args(kind))
        else:
            kinds.append(kind)
    return tuple(dict.fromkeys(kinds))


def _spec_value_type(value: object) -> bool:
    """Whether ``value`` is of a type ``parse_spec`` gives (``ParamValue``)."""
    return value is None or isinstance(value, int | str) or _has_type(value, tuple[int, ...])


def _describe(kind: object) -> str:
    if typing.get_origin(kind) is tuple:
        return "a tuple of whole numbers"
    return _KINDS.get(kind, getattr(kind, "__name__", str(kind)))


def _is_union(hint: object) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _has_type(value: object, kind: object) -> bool:
    """Whether ``value`` is of the declared type ``kind``: a bool is no int here, and a tuple is
    checked item by item (``tuple[int, ...]``, the one kind of tuple a parameter is)."""
    if kind is int:
        return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))
    if isinstance(kind, type):  # a plain class (str, bool, None's type): not a generic alias
        return isinstance(value, kind)
    if typing.get_origin(kind) is tuple:
        return isinstance(value, tuple) and all(_has_type(v, int) for v in value)
    return False


MAX_PARAMS = 40  # rule options a table may set (a game has about 20)
MAX_VALUE = 600  # characters of one option's value (a 100-hand schedule is about 400)


def form_spec(game: str, params: Mapping[str, str | int | bool]) -> str:
    """A spec from a game's name and the values of a form's fields (the lobby's, the terminal's
    new match): each value is read as a spec writes it (``[1, 2]``, true), an empty one is the
    default, and a value that is not one spec value is refused naming its field.

    >>> form_spec("pocha", {"players": "3", "schedule": "[1, 2]", "dealer_hook": False})
    'pocha(players=3, schedule=[1, 2], dealer_hook=false)'
    >>> form_spec("pocha", {"players": "3, deck=48"})
    Traceback (most recent call last):
    tapete.errors.SpecError: players: '3, deck=48' is not one value
    """
    name, given = parse_spec(game)
    if given:
        raise SpecError("give parameters in params, not in the game name")
    parsed: dict[str, Any] = {}
    if len(params) > MAX_PARAMS:
        raise SpecError("a table takes at most {most} rule options", most=MAX_PARAMS)
    for key, value in params.items():
        if not key.isidentifier() or len(key) > MAX_VALUE:
            raise SpecError("{name} is not a parameter name", name=repr(key[:MAX_VALUE]))
        text = ("true" if value else "false") if isinstance(value, bool) else str(value).strip()
        if len(text) > MAX_VALUE:  # read before the rules judge it: keep the reading small
            raise SpecError(
                "{name}: a value is at most {most} characters", param=key, name=key, most=MAX_VALUE
            )
        if not text:
            continue
        try:
            _, one = parse_spec(f"x({key}={text})")
        except SpecError:
            raise SpecError(
                "{name}: {value} is not a value: a number, a word or [1, 2]",
                param=key,
                name=key,
                value=repr(text),
            ) from None
        if list(one) != [key]:  # "3, deck=48" would set a second parameter
            raise SpecError(
                "{name}: {value} is not one value", param=key, name=key, value=repr(text)
            )
        parsed.update(one)
    return format_spec(name, parsed)
