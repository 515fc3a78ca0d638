"""Every tapete game as an OpenSpiel game: ``load(spec)`` and ``register()`` (``tapete_<game>``).

The game is OpenSpiel's kind: sequential, imperfect information, explicit chance. Chance nodes
draw the first dealer (one outcome a seat), then before each deal the deck order card by card
(outcome ``i`` is card ``i`` of the game's deck; the last card follows from the others), so
OpenSpiel's algorithms see every deal as chance and no seed is involved. Player actions are the
indices of the spec's fixed action space (``tapete.rl.encodings``); returns are the final score
of each seat (its team's where the game scores per team), zero until the end.

``information_state_string(p)`` is everything seat ``p`` has seen, in order: its deals as it
saw them, every action as it may know it, every event the rules showed it (perfect recall);
``observation_string(p)`` is the current view in words. Both tensors are the view's encoding
(``docs/rl.md``). Game metadata — the longest history, the utility range, the tensor shapes —
comes from ``tapete.rl.limits`` and the encoding, computed from the spec.

>>> game = load("pocha(players=3, schedule=[1])")
>>> game.get_type().short_name, game.num_players(), game.num_distinct_actions()
('tapete_pocha', 3, 38)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 3)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from tapete.cards import Card
from tapete.errors import SpecError
from tapete.game import Game, Setup, seat_scores
from tapete.games import ENTRIES, game_names
from tapete.games import load as load_game
from tapete.narrate import view_text
from tapete.rl import game_of
from tapete.rl.encodings import Encoding, encoding
from tapete.rl.limits import bounds

__all__ = ["load", "register", "spec_of_param", "spec_param"]


# --- the spec as an OpenSpiel parameter ----------------------------------------------------------


def spec_param(spec: str) -> str:
    """A spec written as one OpenSpiel string parameter: OpenSpiel's game strings split at
    commas, parentheses and equals signs, so these become ``;``, braces and ``:``.

    >>> spec_param("pocha(players=3, schedule=[1, 2])")
    'pocha{players:3;schedule:[1;2]}'
    >>> spec_of_param(spec_param("pocha(players=3, schedule=[1, 2])"))
    'pocha(players=3, schedule=[1, 2])'

    The spec is checked and written canonically first, so one tapete refuses is refused here
    (a ``SpecError`` naming the field; a ``TypeError`` for what is not text), not when
    OpenSpiel loads the game, and spellings of one game give one string:

    >>> spec_param("pocha(schedule=[1,2], players=3)")
    'pocha{players:3;schedule:[1;2]}'
    """
    text = load_game(spec).spec.replace(", ", ";").replace(",", ";").replace("=", ":")
    return text.replace("(", "{").replace(")", "}")


def spec_of_param(text: str) -> str:
    """The spec of an OpenSpiel parameter written by ``spec_param``."""
    return text.replace(";", ", ").replace(":", "=").replace("{", "(").replace("}", ")")


# --- what a spec needs, made once ---------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    game: Game[Any, Any]
    encoding: Encoding
    cards: tuple[Card, ...]
    card_index: dict[Card, int]


@lru_cache(maxsize=64)
def _context(spec: str) -> _Context:
    game = load_game(spec)
    cards = game.deck.cards
    return _Context(game, encoding(game), cards, {c: i for i, c in enumerate(cards)})


@lru_cache(maxsize=64)
def _chance_nodes(spec: str) -> int:
    context = _context(spec)
    return 1 + bounds(context.game).deals * (len(context.cards) - 1)


class _NeedDeckError(Exception):
    """Raised by ``_ChanceSetup`` when the rules deal a deck no chance node has drawn yet."""

    def __init__(self, deal: int, cards: tuple[Card, ...]) -> None:
        super().__init__(deal)
        self.deal, self.cards = deal, cards


@dataclass(frozen=True)
class _ChanceSetup(Setup):
    """A setup that knows only the decks drawn at chance nodes (never a seed's shuffle)."""

    def deck(self, deal: int, cards: Any) -> tuple[Card, ...]:
        if deal >= len(self.decks):
            raise _NeedDeckError(deal, tuple(cards))
        return super().deck(deal, cards)


class _Stale:
    """The mark of a tapete state to rebuild from the chance outcomes and moves."""

    def __reduce__(self) -> str:
        return "_STALE"  # one mark, pickled by name


_STALE = _Stale()


class _Shared:
    """An immutable value that copies of a state share (tapete states never change); pickled,
    it is left out, and the state rebuilds it by replaying its moves."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _Shared, (_STALE,)


class _Drawn(_Shared):
    """The tapete state of a resampled match: no history of chance outcomes leads to it, so it
    is pickled whole rather than rebuilt."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _Drawn, (self.value,)


# --- the game -----------------------------------------------------------------------------------


def _game_type(name: str) -> Any:
    probe = load_game(name)
    low, high = _player_range(name)
    return pyspiel.GameType(
        short_name=f"tapete_{name}",
        long_name=f"tapete {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"spec": spec_param(probe.spec)},
    )


def _player_range(name: str) -> tuple[int, int]:
    """The fewest and most seats any spec of the game may have (as its parameters allow:
    ``min_players`` and ``max_players`` widen a game's range, as Oh Hell's 3–7 to 2–8). OpenSpiel
    takes a game's type as the bounds of every game loaded under its name."""
    counts = []
    for players in range(1, 17):
        for widen in ("", ", min_players=2", f", max_players={players}"):
            try:
                counts.append(load_game(f"{name}(players={players}{widen})").players)
                break
            except SpecError:  # a count the game refuses, or an option it does not have
                continue
    return min(counts), max(counts)


class TapeteGame(pyspiel.Game):  # type: ignore[misc]
    """A tapete spec as an OpenSpiel game (``pyspiel.load_game("tapete_pocha", {"spec": …})``)."""

    NAME = ""  # the game's name, set by each registered class

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = spec_of_param(str((params or {}).get("spec", self.NAME)))
        context = _context(spec)
        game = context.game
        if self.NAME and game.name != self.NAME:
            raise SpecError(
                "tapete_{name} plays {name} specs, not {spec}: load tapete_{other} for that",
                name=self.NAME,
                spec=game.spec,
                other=game.name,
            )
        limit = bounds(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(context.encoding.actions),
            max_chance_outcomes=max(len(context.cards), game.players),
            num_players=game.players,
            min_utility=float(limit.min_score),
            max_utility=float(limit.max_score),
            utility_sum=None,
            max_game_length=limit.decisions,
        )
        super().__init__(_TYPES[game.name], info, {"spec": spec_param(game.spec)})

    @property
    def spec(self) -> str:
        """The tapete spec, read from the game's parameter: an unpickled game is made by
        OpenSpiel without ``__init__``, and has no attribute of its own."""
        return spec_of_param(str(self.get_parameters()["spec"]))

    def max_chance_nodes_in_history(self) -> int:
        """The first dealer, then every card of each deal's deck but the last (OpenSpiel's
        default, the longest game, is far short of it; the longest history and the highest
        move number add it to the decisions)."""
        return _chance_nodes(self.spec)

    def new_initial_state(self) -> TapeteState:
        return TapeteState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("tapete games observe a seat's view: private_info=SINGLE_PLAYER")
        return _Observer(_context(self.spec), perfect_recall=obs_type.perfect_recall)


_TYPES: dict[str, Any] = {}
_DEAL = '{"type":"deal"'  # the line of a deal's event in an information state


class TapeteState(pyspiel.State):  # type: ignore[misc]
    """A match in progress, with the chance nodes of its deals (see the module docstring)."""

    def __init__(self, game: TapeteGame) -> None:
        super().__init__(game)
        self._spec = game.spec
        self._dealer: int | None = None
        self._decks: tuple[tuple[Card, ...], ...] = ()
        self._dealing: list[Card] = []  # the deck being drawn
        self._cards: tuple[Card, ...] = ()  # the cards of that deck (empty: no deck is drawn)
        self._moves: list[int] = []  # the raw actions taken, a pending one included
        self._pending = False  # the last move waits for the next deal
        self._now = _Shared(None)  # the tapete state (None before the first deal)
        self._drawn = False  # resampled (``resample_from_infostate``): no history leads here
        n = _context(self._spec).game.players
        self._seen: list[list[str]] = [[] for _ in range(n)]

    # --- OpenSpiel's API

    def current_player(self) -> int:
        if self._dealer is None or self._cards:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._ctx.game.current_player(self._state)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else int(seat)

    def is_terminal(self) -> bool:
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        ctx = self._ctx
        index = ctx.encoding.index
        return sorted(index[a] for a in ctx.game.legal_actions(self._state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ctx = self._ctx
        if self._dealer is None:
            n = ctx.game.players
            return [(s, 1.0 / n) for s in range(n)]
        left = sorted(ctx.card_index[c] for c in set(self._cards) - set(self._dealing))
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        """Raises ValueError (an outcome or action not on offer, ``IllegalActionError`` for one
        the rules forbid) before anything changes: OpenSpiel's bridge checks none of them, and a
        half-applied move would be replayed by every clone and pickle of this state."""
        if self._dealer is None or self._cards:
            self._check_outcome(action)
            if self._dealer is None:
                self._dealer = int(action)
                self._build()
            else:
                self._draw(self._ctx.cards[action])
        else:
            self._play(self._ctx.encoding.action(action))

    def _check_outcome(self, action: int) -> None:
        ctx = self._ctx
        if self._dealer is None:
            offered = 0 <= action < ctx.game.players
        else:
            card = ctx.cards[action] if 0 <= action < len(ctx.cards) else None
            offered = card in self._cards and card not in self._dealing
        if not offered:
            if self._dealer is None:
                what = f"the first dealer, a seat from 0 to {ctx.game.players - 1}"
            else:
                what = f"a card not drawn yet, one of the {len(self.chance_outcomes())} left"
            raise ValueError(f"chance outcome {action} is not on offer here: {what}")

    def _action_to_string(self, player: int, action: int) -> str:
        ctx = self._ctx
        if player == pyspiel.PlayerId.CHANCE:
            if self._dealer is None:
                return f"dealer {action}"
            return f"deal {ctx.game.format_action(ctx.cards[action]).removeprefix('play ')}"
        return ctx.game.format_action(ctx.encoding.action(action))

    def returns(self) -> list[float]:
        ctx = self._ctx
        now = self._state
        outcome = None if now is None else ctx.game.outcome(now)
        if outcome is None or self._cards:
            return [0.0] * ctx.game.players
        return [float(s) for s in seat_scores(outcome.scores, ctx.game.teams)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TapeteState:
        """A state ``player_id`` cannot tell from this one, for information-set search (OpenSpiel's
        IS-MCTS): the hidden cards of the deal in play are dealt anew by the game's
        ``sample_state`` from the seat's view, with the randomness of ``probability_sampler``
        (a callable giving floats in [0, 1)). The seat's information state is unchanged; each
        other seat's begins the deal anew at its view of the drawn deal. Deals after this one are
        dealt by the drawn state itself, not at chance nodes, and the state's ``history()``
        still names the true deal's chance outcomes: a resampled state is for searching, not
        for serializing by its history (it pickles whole)."""
        copy: TapeteState = self.clone()
        now = self._state
        if now is None or self._cards or self.is_terminal():
            return copy  # at a chance node or over: nothing hidden is in play
        game = self._ctx.game
        rng = random.Random(int(_draw(probability_sampler) * 2**53))
        drawn = game.sample_state(game.observe(now, player_id), rng)
        copy._now, copy._drawn = _Drawn(drawn), True
        for seat in range(game.players):
            if seat != player_id:
                seen = self._seen[seat]
                start = max((i for i, line in enumerate(seen) if line.startswith(_DEAL)), default=0)
                view = view_text(game.observe(drawn, seat))
                copy._seen[seat] = [*seen[:start], f"drawn: {view}"]
        return copy

    def __str__(self) -> str:
        dealing = " ".join(self._ctx.game.format_action(c)[5:] for c in self._dealing)
        return f"{self._state!r} dealer={self._dealer} dealing=[{dealing}]"

    # --- chance and play

    @property
    def _ctx(self) -> _Context:
        return _context(self._spec)

    @property
    def _state(self) -> Any:
        """The tapete state now (None before the first deal)."""
        if self._now.value is _STALE:
            self._now = _Shared(None)
            if self._dealer is None:
                return None
            pending, cards, dealing = self._pending, self._cards, self._dealing
            self._pending, seen = False, self._seen
            self._seen = [[] for _ in seen]
            self._build()
            self._pending, self._cards, self._dealing, self._seen = pending, cards, dealing, seen
        return self._now.value

    def _draw(self, card: Card) -> None:
        self._dealing.append(card)
        if len(self._dealing) == len(self._cards) - 1:  # the last card is what is left
            self._dealing += sorted(set(self._cards) - set(self._dealing))
        if len(self._dealing) == len(self._cards):
            self._decks = (*self._decks, tuple(self._dealing))
            self._dealing, self._cards = [], ()
            self._build()

    def _play(self, raw: int) -> None:
        ctx = self._ctx
        game, before = ctx.game, self._state
        seat = game.current_player(before)
        try:
            after = game.apply(before, raw)  # an illegal move raises here, nothing recorded
        except _NeedDeckError as need:  # legal, and the next deal is to be drawn
            after, cards = None, need.cards
        for s in range(game.players):
            self._seen[s].append(f"{seat}: {game.visible_action(before, raw, s)}")
        self._moves.append(raw)
        if after is None:
            self._pending = True
            self._cards = cards
            return
        self._now = _Drawn(after) if self._drawn else _Shared(after)
        self._see(after)

    def _build(self) -> None:
        """The tapete state after the decks drawn so far and every move (a replay)."""
        game = self._ctx.game
        setup = _ChanceSetup(0, self._decks, self._dealer)
        state = None
        try:
            state = game.rules.new_state(game.params, setup)
            if not self._moves:
                self._see(state)
            for move in self._moves:
                state = game.apply(state, move)
        except _NeedDeckError as need:
            self._cards = need.cards
            if state is not None:  # the state before the move that waits for this deal
                self._now = _Shared(state)
            return
        if self._pending:
            self._see(state)
            self._pending = False
        self._now = _Shared(state)

    def _see(self, state: Any) -> None:
        game = self._ctx.game
        for s in range(game.players):
            for event in game.visible_events(state, s):
                self._seen[s].append(json.dumps(event.to_json(), separators=(",", ":")))


class _Observer:
    """OpenSpiel's observer interface over a seat's view (``tensor``, ``dict``, strings)."""

    def __init__(self, context: _Context, perfect_recall: bool) -> None:
        self.context, self.perfect_recall = context, perfect_recall
        enc = context.encoding
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = {f.name: self.tensor[f.start : f.stop] for f in enc.fields}

    def set_from(self, state: TapeteState, player: int) -> None:
        self.tensor.fill(0)
        now = state._state
        if now is not None:
            view = self.context.game.observe(now, player)
            self.context.encoding.write(view, self.tensor)

    def string_from(self, state: TapeteState, player: int) -> str:
        if self.perfect_recall:
            return "\n".join(state._seen[player])
        now = state._state
        if now is None:
            return ""
        text: str = view_text(self.context.game.observe(now, player))
        return text


def register() -> list[str]:
    """Register every tapete game with OpenSpiel as ``tapete_<game>`` (once); the names.

    ``pyspiel.load_game("tapete_pocha")`` then loads the game's defaults, and
    ``pyspiel.load_game("tapete_pocha", {"spec": spec_param("pocha(players=3)")})`` any spec.
    """
    for name in game_names():
        if name in _TYPES:
            continue
        game_type = _TYPES[name] = _game_type(name)
        # One class a game, kept in this module: OpenSpiel keeps what it registers until exit.
        cls = type(f"Tapete_{name}", (TapeteGame,), {"NAME": name, "__module__": __name__})
        globals()[cls.__name__] = cls
        pyspiel.register_game(game_type, cls)
    return [f"tapete_{name}" for name in game_names()]


def load(spec: str | Game[Any, Any]) -> Any:
    """The OpenSpiel game of a tapete spec, or of a tapete ``Game`` (its spec), as the
    environments take either; registers the games first.

    >>> load("truco(players=4)").num_players()
    4
    """
    register()
    game = game_of(spec)
    if game.name not in ENTRIES:  # an alias loads under its own name
        raise ValueError(f"no game named {game.name!r}")
    return pyspiel.load_game(f"tapete_{game.name}", {"spec": spec_param(game.spec)})


def _draw(probability_sampler: Any) -> float:
    """A float from ``probability_sampler``: TypeError for one that gives anything else (text
    was multiplied into a string of 2**53 copies, a MemoryError), ValueError for NaN or an
    infinity. Any finite number is taken: it only seeds the draw.

    >>> _draw(lambda: "x")
    Traceback (most recent call last):
    TypeError: probability_sampler gave 'x': a float in [0, 1) is asked for
    """
    value = probability_sampler()
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(f"probability_sampler gave {value!r}: a float in [0, 1) is asked for")
    if not np.isfinite(value):
        raise ValueError(f"probability_sampler gave {value!r}: a float in [0, 1) is asked for")
    return float(value)
