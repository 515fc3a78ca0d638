"""Fixed-size numpy encodings of a seat's view, and a fixed action space, for every game.

An ``Encoding`` is made once per spec (``encoding(game)``) and is then the same for every seat,
deal and match of that spec:

* ``encode(view)`` gives a ``float32`` vector of ``size`` entries built from the view alone: what
  the seat may know and nothing more. Seats are written **relative** to the viewer (entry 0 of a
  per-seat block is the viewer itself, entry 1 the seat after it, ...), so one policy can sit
  in any seat;
* ``actions`` lists the game's raw actions (``tapete`` ints) in index order: index ``i`` of the
  ``Discrete`` action space is ``actions[i]``; ``mask(legal)`` is the 0/1 ``int8`` vector of
  the legal ones;
* ``fields`` names each block of the vector, its first index, length, meaning and bounds
  (docs/rl.md prints them for one spec per game: ``describe(encoding(game))``);
* ``low`` and ``high`` bound every entry: counts lie in 0 … 1, scores and Pottle's chips in
  the range the rules allow. They are the environments' observation space (``Box``).

>>> import tapete
>>> enc = encoding(tapete.load("pocha(players=3, schedule=[1, 2])"))
>>> enc.size, len(enc.actions)
(365, 39)
>>> game = enc.game
>>> state = game.new_state(seed=7)
>>> seat = game.current_player(state)
>>> vector = enc.encode(game.observe(state, seat))
>>> vector.shape, vector.dtype, int(vector[enc.field("hands").start:][:36].sum())
((365,), dtype('float32'), 1)
>>> [game.format_action(enc.actions[i]) for i in enc.mask(game.legal_actions(state)).nonzero()[0]]
['bid 0', 'bid 1']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tapete.errors import SpecError
from tapete.game import Action, Game, integer, seat_scores
from tapete.rl import limits

__all__ = ["Encoding", "Field", "describe", "encoding"]

Vector = npt.NDArray[np.float32]
Filler = Callable[[Any, list[int], list[int], list[float]], None]
"""Writes a view: the indices set to 1 in ``ones``, other values as ``idx[k]`` = ``val[k]``."""


@dataclass(frozen=True)
class Field:
    """A block of the vector: ``size`` entries from ``start``, and what they mean. Every entry
    lies in ``low … high`` (0 … 1 unless the field says otherwise: scores, and chip counts that
    buy-ins can grow)."""

    name: str
    start: int
    size: int
    meaning: str
    low: float = 0.0
    high: float = 1.0

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """Lays fields out one after the other, each a slice of the vector."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str, low: float = 0.0, high: float = 1.0) -> int:
        """A new field of ``size`` entries, each in ``low … high``; returns its first index."""
        self.fields.append(Field(name, self.size, size, meaning, low, high))
        self.size += size
        return self.size - size


@dataclass(frozen=True)
class Encoding:
    """The observation vector and action space of one spec (see the module docstring)."""

    game: Game[Any, Any]
    fields: tuple[Field, ...]
    size: int
    actions: tuple[Action, ...]
    fill: Filler
    viewer: Callable[[Any, int], Any] | None = None  # (state, seat) -> what ``fill`` reads
    # raw action -> its index, made from ``actions``
    index: dict[Action, int] = dataclass_field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {a: i for i, a in enumerate(self.actions)})

    @property
    def low(self) -> Vector:
        """The least value of each entry (the fields' ``low``): Gymnasium's ``Box`` low."""
        return self._bound("low")

    @property
    def high(self) -> Vector:
        """The greatest value of each entry (the fields' ``high``): the ``Box`` high."""
        return self._bound("high")

    def _bound(self, which: str) -> Vector:
        out = np.zeros(self.size, dtype=np.float32)
        for f in self.fields:
            out[f.start : f.stop] = getattr(f, which)
        return out

    def __reduce__(self) -> tuple[Callable[[Game[Any, Any]], Encoding], tuple[Game[Any, Any]]]:
        # Its writers are closures, which do not pickle: it is made again from its game, so an
        # environment pickles (vectorized environments send theirs to worker processes).
        return encoding, (self.game,)

    def encode(self, view: Any) -> Vector:
        """The vector of ``view``, a view of a seat of this spec's game. TypeError for anything
        else: a state, or a view of another game or of other rules (Pocha for four given to
        Pocha for three's encoding), whose entries would land where this spec's layout puts
        other things; ValueError for a spectator's view, which has no seat to be relative to."""
        self._own(view)
        return self._vector(view)

    def encode_state(self, state: Any, seat: int) -> Vector:
        """``encode(game.observe(state, seat))``, faster where the game has a shortcut: the
        view's fields the encoding reads, taken from the state (a test checks they agree).
        ValueError for a seat not at the table (``-1`` is no seat counted from the end) or
        None, TypeError for a state of another game or other rules, as ``observe`` says."""
        params = self.game.params
        if (
            self.viewer is None
            or type(seat) is not int
            or not 0 <= seat < self.game.players
            or (state.params is not params and state.params != params)
        ):
            view = self.game.observe(state, seat)  # refuses a seat or state not of this game
            self._own(view)
            return self._vector(view)
        return self._vector(self.viewer(state, seat))

    def _vector(self, view: Any) -> Vector:
        out = np.zeros(self.size, dtype=np.float32)
        self.write(view, out)
        return out

    def _own(self, view: Any) -> None:
        """Refuse what is not a seat's view of this spec's game (see ``encode``)."""
        kind, params = getattr(self.game.rules, "View", None), self.game.params
        given = getattr(view, "params", None)
        if isinstance(kind, type) and not isinstance(view, kind):
            what = f"a {type(view).__module__}.{type(view).__qualname__}"
        elif given is not params and given != params:
            what = (
                f"a view of {Game(self.game.name, given, self.game.rules, self.game.defaults).spec}"
            )
        else:
            if view.seat is None:
                raise ValueError(
                    f"the encoding of {self.game.spec} encodes a seat's view, not a spectator's"
                    " (seat None): its seats are relative to the seat that sees"
                )
            return
        raise TypeError(
            f"the encoding of {self.game.spec} encodes a view of that game, not {what}:"
            " take the encoding of the game that made it"
        )

    def write(self, view: Any, out: Vector) -> None:
        """Write the vector of ``view`` into ``out`` (zeros, ``size`` long)."""
        ones: list[int] = []
        idx: list[int] = []
        val: list[float] = []
        self.fill(view, ones, idx, val)
        # Two numpy writes instead of one per entry: item writes cost more than the lists.
        out[ones] = 1.0
        out[idx] = val

    def action(self, index: object) -> Action:
        """The game's action at ``index`` of the action space; ValueError for anything else (a
        negative index or one past the end is not read as another action, nor a float or text).
        """
        number = integer(index)
        if number is not None and 0 <= number < len(self.actions):
            return self.actions[number]
        raise ValueError(
            f"action {index!r} is not in the action space of {self.game.spec}:"
            f" an index from 0 to {len(self.actions) - 1}"
        )

    def mask(self, legal: Sequence[Action]) -> npt.NDArray[np.int8]:
        """1 at the index of each legal action, 0 elsewhere."""
        out = np.zeros(len(self.actions), dtype=np.int8)
        index = self.index
        try:
            out[[index[action] for action in legal]] = 1
        except KeyError as err:
            text = self.game.format_action(err.args[0])
            raise SpecError(
                "{action} is outside the action space of {spec}",
                action=repr(text),
                spec=self.game.spec,
            ) from None
        return out

    def field(self, name: str) -> Field:
        """The field called ``name``; raises KeyError naming the fields."""
        for f in self.fields:
            if f.name == name:
                return f
        names = ", ".join(f.name for f in self.fields)
        raise KeyError(f"no field {name!r}; the fields are {names}")


def describe(enc: Encoding) -> str:
    """The fields of an encoding as a Markdown table (indices, name, meaning, and the range
    of each entry: the observation space's bounds).

    >>> import tapete
    >>> print(describe(encoding(tapete.load("truco(players=4)"))).splitlines()[3])
    | 160–163 | `hand_sizes` | cards in each hand / 3, relative seats (0 is this seat) | 0 … 1 |
    """
    if not isinstance(enc, Encoding):
        raise TypeError(
            f"describe takes an encoding, tapete.rl.encoding(spec), not {enc!r}"
            f"{' (a spec)' if isinstance(enc, str) else ''}"
        )
    lines = ["| indices | field | meaning | range |", "|---|---|---|---|"]
    for f in enc.fields:
        where = str(f.start) if f.size == 1 else f"{f.start}–{f.stop - 1}"
        lines.append(f"| {where} | `{f.name}` | {f.meaning} | {f.low:.4g} … {f.high:.4g} |")
    return "\n".join(lines)


@lru_cache(maxsize=64)
def _cached(game: Game[Any, Any]) -> Encoding:
    builder = _BUILDERS.get(game.rules.NAME)
    if builder is None:
        raise SpecError("no encoding for {name} yet", name=game.name)
    return builder(game)


def encoding(game: Game[Any, Any]) -> Encoding:
    """The encoding of a game's spec (made once per spec); TypeError for anything but a
    ``Game``."""
    if not isinstance(game, Game):
        raise TypeError(f"an encoding is made for a tapete Game (tapete.load(spec)), not {game!r}")
    return _cached(game)


# --- building blocks ---------------------------------------------------------------------------


class Cards:
    """Writes cards of one deck as one-hot or multi-hot blocks (the deck's order)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.cards = game.deck.cards
        self.n = len(self.cards)
        self.at = [-1] * 128
        for i, card in enumerate(self.cards):
            self.at[card] = i
        self._seen: dict[int, tuple[int, ...]] = {}  # bitmask -> positions in the deck

    def set(self, ones: list[int], start: int, mask: int) -> None:
        """Mark the entries of the cards in bitmask ``mask``."""
        found = self._seen.get(mask)
        if found is None:
            found = self._seen[mask] = self._positions(mask)
            if len(self._seen) > 1 << 16:  # hands and trick piles repeat; a match's worth
                self._seen.clear()
        ones += [start + i for i in found]

    def _positions(self, mask: int) -> tuple[int, ...]:
        at, found = self.at, []
        while mask:
            low = mask & -mask
            found.append(at[low.bit_length() - 1])
            mask ^= low
        return tuple(found)

    def one(self, ones: list[int], start: int, card: int) -> None:
        """Mark the entry of ``card`` (nothing for -1, no card)."""
        if card >= 0:
            ones.append(start + self.at[card])


def _mask(cards: object) -> int:
    """A CardSet's bitmask (0 for None)."""
    return 0 if cards is None else int(getattr(cards, "mask", 0))


def _trick_mask(tricks: Sequence[tuple[int, Sequence[int]]]) -> int:
    mask = 0
    for _, cards in tricks:
        for card in cards:
            mask |= 1 << card
    return mask


def _standings(game: Game[Any, Any], scores: Sequence[int]) -> tuple[int, ...]:
    """Each seat's standing: its own score, or its team's where the game scores per team."""
    teams = game.teams
    if teams is not None and len(scores) == len(teams):
        return seat_scores(scores, teams)
    return tuple(scores)


def _seat_block(
    layout: Layout, name: str, n: int, meaning: str, low: float = 0.0, high: float = 1.0
) -> int:
    return layout.add(name, n, f"{meaning}, relative seats (0 is this seat)", low, high)


def _clip(value: float, low: float, high: float) -> float:
    return low if value < low else high if value > high else value


# --- Pocha and Oh Hell -------------------------------------------------------------------------


def _pocha(game: Game[Any, Any]) -> Encoding:
    from tapete.games import pocha

    p = game.params
    n, cards = game.players, Cards(game)
    d = cards.n
    most = max(pocha.schedule_of(p))
    deals = len(pocha.schedule_of(p))
    suits = sorted(game.deck.suits)
    scale = float(10 + most)  # about the most a hand can score (docs/rl.md)
    # A running score lies within the sums of each deal's worst and best scores; only more
    # tie-break deals than limits allows for (EXTRA_DEALS) could leave that range: clipped.
    bound = limits.bounds(game)
    low, high = bound.min_score / scale, bound.max_score / scale
    lay = Layout()
    f_hands = lay.add(
        "hands",
        n * d,
        f"the hands this seat sees (its own; the others' in a blind one-card hand), {d} cards"
        " per seat, relative seats",
    )
    f_trick = lay.add(
        "trick", n * d, f"the card each seat has played to this trick, {d} per seat, relative seats"
    )
    f_played = lay.add("played", d, "cards played to earlier tricks of this deal")
    f_upcard = lay.add("upcard", d, "the turned card that sets trump (none: all zero)")
    f_shown = lay.add("shown", d, "the dealer's own card shown for trump when every card is dealt")
    f_trump = lay.add("trump", len(suits) + 1, "trump suit one-hot (the deck's suits), last: none")
    f_bids = lay.add(
        "bids", n * (most + 2), f"each seat's bid one-hot: none, 0, 1 … {most}, relative seats"
    )
    f_won = _seat_block(lay, "won", n, f"tricks won this deal / {most}")
    f_sizes = _seat_block(lay, "hand_sizes", n, f"cards in each hand / {most}")
    f_in = _seat_block(lay, "in_deal", n, "1 for each seat that plays this deal")
    f_dealer = _seat_block(lay, "dealer", n, "the dealer, one-hot")
    f_leader = _seat_block(lay, "leader", n, "who led this trick, one-hot")
    f_phase = lay.add("phase", 3, "bid, play, over: one-hot")
    f_size = lay.add("hand_size", 1, f"this deal's cards a hand / {most}")
    f_deal = lay.add(
        "deal", 1, f"the deal's number from 0 / {deals} deals in the schedule (1: a tie-break)"
    )
    f_tie = lay.add("tiebreak", 1, "1 in a tie-break deal")
    f_scores = _seat_block(lay, "scores", n, f"each seat's score / {scale:g}", low, high)
    suit_at = {s: i for i, s in enumerate(suits)}

    def fill(view: Any, ones: list[int], idx: list[int], val: list[float]) -> None:
        me = view.seat
        for s, hand in enumerate(view.hands):
            if hand is not None:
                cards.set(ones, f_hands + (s - me) % n * d, hand.mask)
        seat = view.leader
        for card in view.trick:
            cards.one(ones, f_trick + (seat - me) % n * d, card)
            seat = _next_in(view.seats, seat)
        cards.set(ones, f_played, _trick_mask(view.tricks))
        cards.one(ones, f_upcard, view.upcard)
        cards.one(ones, f_shown, view.shown)
        ones.append(f_trump + (suit_at[view.trump] if view.trump >= 0 else len(suits)))
        for s, bid in enumerate(view.bids):
            r = (s - me) % n
            ones.append(f_bids + r * (most + 2) + (0 if bid is None else bid + 1))
            idx.append(f_won + r)
            val.append(view.won[s] / most)
            idx.append(f_sizes + r)
            val.append(view.hand_sizes[s] / most)
        for s in view.seats:
            ones.append(f_in + (s - me) % n)
        ones.append(f_dealer + (view.dealer - me) % n)
        ones.append(f_leader + (view.leader - me) % n)
        ones.append(f_phase + int(view.phase))
        idx.append(f_size)
        val.append(view.hand_size / most)
        idx.append(f_deal)
        val.append(min(view.deal, deals) / deals)
        idx.append(f_tie)
        val.append(float(view.tiebreak))
        for s, score in enumerate(view.scores):
            idx.append(f_scores + (s - me) % n)
            val.append(_clip(score / scale, low, high))

    actions = (*cards.cards, *(pocha.BID + b for b in range(most + 1)))
    viewer = None if p.ronda_india else _pocha_viewer(game)
    return Encoding(game, tuple(lay.fields), lay.size, actions, fill, viewer)


class _PochaView:
    """The fields of a Pocha view that its encoding reads, taken straight from the state:
    ``observe`` also works out every seat's known voids, which the encoding does not use."""

    __slots__ = (
        "bids",
        "deal",
        "dealer",
        "hand_size",
        "hand_sizes",
        "hands",
        "leader",
        "phase",
        "scores",
        "seat",
        "seats",
        "shown",
        "tiebreak",
        "trick",
        "tricks",
        "trump",
        "upcard",
        "won",
    )
    bids: list[int | None]
    deal: int
    dealer: int
    hand_size: int
    hand_sizes: list[int]
    hands: list[Any]
    leader: int
    phase: int
    scores: tuple[int, ...]
    seat: int
    seats: tuple[int, ...]
    shown: int
    tiebreak: bool
    trick: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    trump: int
    upcard: int
    won: tuple[int, ...]


def _pocha_viewer(game: Game[Any, Any]) -> Callable[[Any, int], Any]:
    from tapete.cards import CardSet

    nobody: list[CardSet | None] = [None] * game.players

    def view(state: Any, seat: int) -> _PochaView:
        v, d = _PochaView(), state.deal
        hands = nobody[:]
        hands[seat] = CardSet(state.hands[seat])  # its own hand: no blind hand without ronda
        v.seat, v.hands, v.deal, v.hand_size, v.dealer = seat, hands, d.number, d.size, d.dealer
        v.seats, v.tiebreak, v.trump, v.upcard, v.shown = (
            d.seats,
            d.tiebreak,
            d.trump,
            d.upcard,
            d.shown,
        )
        v.hand_sizes = [h.bit_count() for h in state.hands]
        v.bids = [None if b < 0 else b for b in state.bids]
        v.won, v.trick, v.leader, v.tricks = state.won, state.trick, state.leader, state.tricks
        v.phase, v.scores = state.phase, state.scores
        return v

    return view


def _next_in(seats: Sequence[int], seat: int) -> int:
    """The seat after ``seat`` among ``seats`` (in play order, wrapping)."""
    i = seats.index(seat) if seat in seats else -1
    return seats[(i + 1) % len(seats)]


# --- Tute --------------------------------------------------------------------------------------


def _tute(game: Game[Any, Any]) -> Encoding:
    from tapete.games import tute

    n, cards = game.players, Cards(game)
    d = cards.n
    most = tute.HAND_SIZE[n]
    standing = limits.bounds(game).max_score / 100
    lay = Layout()
    f_hands = lay.add(
        "hands", n * d, f"the hands this seat sees (its own), {d} cards per seat, relative seats"
    )
    f_known = lay.add(
        "known",
        n * d,
        f"cards everyone knows are in each hand (sung, swapped), {d} per seat, relative seats",
    )
    f_trick = lay.add(
        "trick", n * d, f"the card each seat has played to this trick, {d} per seat, relative seats"
    )
    f_played = lay.add("played", d, "cards played to earlier tricks of this deal")
    f_upcard = lay.add("upcard", d, "the card that set trump")
    f_face = lay.add("face_up", d, "the card face up under the stock now (two players)")
    f_trump = lay.add("trump", 4, "trump suit one-hot: oros, copas, espadas, bastos")
    f_stock = lay.add("stock", 1, f"cards left to draw / {d}")
    f_sizes = _seat_block(lay, "hand_sizes", n, f"cards in each hand / {most}")
    f_points = _seat_block(lay, "points", n, "card points each seat won this deal / 130")
    f_cantes = lay.add("cantes", n * 4, "who sang which suit (4 suits per seat), relative seats")
    f_sing = lay.add("sing_right", n + 1, "whose side may sing for the last trick; last: nobody")
    f_dealer = _seat_block(lay, "dealer", n, "the dealer, one-hot")
    f_leader = _seat_block(lay, "leader", n, "who led this trick, one-hot")
    f_phase = lay.add("phase", 2, "play, over: one-hot")
    f_scores = _seat_block(
        lay,
        "scores",
        n,
        "each seat's side's match standing / 100",
        high=standing,
    )

    def fill(view: Any, ones: list[int], idx: list[int], val: list[float]) -> None:
        me = view.seat
        for s in range(n):
            r = (s - me) % n
            cards.set(ones, f_hands + r * d, _mask(view.hands[s]))
            cards.set(ones, f_known + r * d, _mask(view.known[s]))
            idx.append(f_sizes + r)
            val.append(view.hand_sizes[s] / most)
            idx.append(f_points + r)
            val.append(view.points[s] / 130)
        seat = view.leader
        for card in view.trick:
            cards.one(ones, f_trick + (seat - me) % n * d, card)
            seat = (seat + 1) % n
        cards.set(ones, f_played, _trick_mask(view.tricks))
        cards.one(ones, f_upcard, view.upcard)
        cards.one(ones, f_face, view.face_up)
        ones.append(f_trump + view.trump)
        idx.append(f_stock)
        val.append(view.stock_size / d)
        for _, s, suit in view.cantes:
            ones.append(f_cantes + (s - me) % n * 4 + suit)
        ones.append(f_sing + (n if view.sing_right is None else (view.sing_right - me) % n))
        ones.append(f_dealer + (view.dealer - me) % n)
        ones.append(f_leader + (view.leader - me) % n)
        ones.append(f_phase + int(view.phase))
        for s, score in enumerate(_standings(game, view.scores)):
            idx.append(f_scores + (s - me) % n)
            val.append(score / 100)

    actions = (*cards.cards, tute.SWAP, *(tute.SING + s for s in range(4)), tute.TUTE)
    return Encoding(game, tuple(lay.fields), lay.size, actions, fill)


# --- Truco -------------------------------------------------------------------------------------


def _truco(game: Game[Any, Any]) -> Encoding:
    from tapete.games import truco

    p = game.params
    n, cards = game.players, Cards(game)
    d = cards.n
    teams = game.teams or tuple((s,) for s in range(n))
    team_of = {s: t for t, members in enumerate(teams) for s in members}
    per_play = d + 1  # the card, or the last entry: played face down
    lay = Layout()
    f_hands = lay.add(
        "hands",
        n * d,
        f"the hands this seat sees (its own; its partner's in a mão de onze), {d} cards per seat,"
        " relative seats",
    )
    f_sizes = _seat_block(lay, "hand_sizes", n, "cards in each hand / 3")
    f_vira = lay.add("vira", d, "the vira (the turned card that names the manilhas)")
    f_trick = lay.add(
        "trick",
        n * per_play,
        f"each seat's card in this round: {d} cards then 1 for face down, relative seats",
    )
    f_rounds = lay.add(
        "rounds",
        2 * (n * per_play + 3),
        f"the first two rounds: {n * per_play} entries of plays as in trick, then the result"
        " (this seat's team, the other, tied)",
    )
    f_leader = _seat_block(lay, "leader", n, "who led this round, one-hot")
    f_dealer = _seat_block(lay, "dealer", n, "the dealer, one-hot")
    f_phase = lay.add("phase", 4, "play, answer, eleven, over: one-hot")
    f_special = lay.add("special", 3, "normal, mão de onze, mão de ferro: one-hot")
    f_eleven = lay.add("eleven_team", 3, "the team on 11: this seat's, the other, none")
    f_blind = lay.add("blind", 1, "1 when the cards are played blind")
    f_stake = lay.add("stake", 1, "the hand's stake / 12")
    f_proposal = lay.add("proposal", 1, "the stake a pending raise asks for / 12 (0: none)")
    f_proposer = lay.add("proposer", n + 1, "who proposed the pending raise, relative; last: none")
    f_raised = lay.add("raised_by", 3, "the team of the last accepted raise: this, other, none")
    points = limits.bounds(game).max_score / p.target  # the last hand may pass the target
    f_scores = lay.add(
        "scores",
        2,
        f"points: this seat's team, the other / {p.target}",
        high=points,
    )

    def team(t: int | None, me: int) -> int:
        return 2 if t is None else int(t != team_of[me])

    def plays(ones: list[int], start: int, trick: Sequence[Any], me: int) -> None:
        for play in trick:
            base = start + (play.seat - me) % n * per_play
            if play.down:
                ones.append(base + d)
            else:
                cards.one(ones, base, play.card)

    def fill(view: Any, ones: list[int], idx: list[int], val: list[float]) -> None:
        me = view.seat
        for s in range(n):
            r = (s - me) % n
            cards.set(ones, f_hands + r * d, _mask(view.hands[s]))
            idx.append(f_sizes + r)
            val.append(view.hand_sizes[s] / 3)
        cards.one(ones, f_vira, view.upcard)
        plays(ones, f_trick, view.trick, me)
        for i, rnd in enumerate(view.tricks[:2]):
            base = f_rounds + i * (n * per_play + 3)
            plays(ones, base, rnd.plays, me)
            ones.append(base + n * per_play + (2 if rnd.result is None else team(rnd.result, me)))
        ones.append(f_leader + (view.leader - me) % n)
        ones.append(f_dealer + (view.dealer - me) % n)
        ones.append(f_phase + int(view.phase))
        ones.append(f_special + int(view.special))
        ones.append(f_eleven + team(view.eleven_team, me))
        idx.append(f_blind)
        val.append(float(view.blind))
        idx.append(f_stake)
        val.append(view.stake / 12)
        idx.append(f_proposal)
        val.append((view.proposal or 0) / 12)
        proposer = view.proposer
        ones.append(f_proposer + (n if proposer is None else (proposer - me) % n))
        ones.append(f_raised + team(view.raised_by, me))
        mine = team_of[me]
        idx.append(f_scores)
        val.append(view.scores[mine] / p.target)
        idx.append(f_scores + 1)
        val.append(view.scores[1 - mine] / p.target)

    actions = (
        *cards.cards,
        *(truco.DOWN + c for c in cards.cards),
        *(truco.BLIND + i for i in range(3)),
        truco.RAISE,
        truco.ACCEPT,
        truco.RUN,
    )
    return Encoding(game, tuple(lay.fields), lay.size, actions, fill)


# --- Poch --------------------------------------------------------------------------------------


def _poch(game: Game[Any, Any]) -> Encoding:
    from tapete.games import poch

    p = game.params
    n, cards = game.players, Cards(game)
    d = cards.n
    limit = poch.round_limit(p)
    if limit == 0:
        raise SpecError(
            "{spec}: without a round cap a Poch stack has no bound, nor has the action"
            " space: give max_rounds (or rounds) a number",
            spec=game.spec,
        )
    total = poch.most_chips(p)  # the chips in play, and the most a bet or raise names
    assert total is not None  # a round cap bounds it
    # The most cards a hand holds: five, or under deal=all the whole deck shared by the seats
    # still in, as few as two.
    most = -(-d // 2) if p.deal == "all" else (d - 1) // n + 1
    bowls = len(poch.BOWLS)
    lay = Layout()
    f_hands = lay.add(
        "hands",
        n * d,
        f"the hands this seat sees (its own, those shown down), {d} cards per seat, relative seats",
    )
    f_known = lay.add(
        "known", n * d, f"cards still in each hand that everyone has seen, {d} each, relative seats"
    )
    f_sizes = _seat_block(lay, "hand_sizes", n, f"cards in each hand / {most}")
    f_trump = lay.add("trump", 4, "trump suit one-hot: clubs, diamonds, hearts, spades")
    f_upcard = lay.add("upcard", d, "the turned card")
    f_shown = lay.add("shown", d, "the last card dealt, shown for trump (deal=all)")
    f_bowls = lay.add("bowls", bowls, f"chips in each bowl ({', '.join(poch.BOWLS)}) / {total}")
    f_melds = lay.add(
        "melds", (bowls - 1) * (n + 1), "who took each named bowl this round, relative; last: none"
    )
    f_chips = _seat_block(lay, "chips", n, f"each seat's chips / {total}")
    f_bets = _seat_block(lay, "bets", n, f"chips each seat put in the Pinke this round / {total}")
    f_in = _seat_block(lay, "in_game", n, "1 for each seat still in the match")
    f_folded = _seat_block(lay, "folded", n, "1 for each seat that passed in the poker round")
    f_to_act = _seat_block(lay, "to_act", n, "1 for each seat that still has to act in the poker")
    f_winner = lay.add("poker_winner", n + 1, "the poker round's winner, relative; last: none")
    f_played = lay.add("played", d, "cards played in the shedding runs this round")
    f_out = lay.add("out_of_play", d, "cards known to be out of play this round")
    f_run = lay.add("run", d, "the last card of the run going on")
    f_runner = _seat_block(lay, "run_by", n, "who played that card, one-hot")
    f_dealer = _seat_block(lay, "dealer", n, "the dealer, one-hot")
    f_phase = lay.add("phase", 3, "poker, shedding, over: one-hot")
    f_round = lay.add("round", 1, f"the round's number / {limit}")
    lost, won = -p.chips / total, 1 - p.chips / total  # a seat's own chips, all the others'
    f_scores = _seat_block(
        lay,
        "scores",
        n,
        f"chips won or lost so far / {total}",
        lost,
        won,
    )

    def fill(view: Any, ones: list[int], idx: list[int], val: list[float]) -> None:
        me = view.seat
        for s in range(n):
            r = (s - me) % n
            cards.set(ones, f_hands + r * d, _mask(view.hands[s]))
            cards.set(ones, f_known + r * d, _mask(view.known[s]))
            idx.append(f_sizes + r)
            val.append(view.hand_sizes[s] / most)
            idx.append(f_chips + r)
            val.append(view.chips[s] / total)
            idx.append(f_bets + r)
            val.append(view.bets[s] / total)
            idx.append(f_in + r)
            val.append(float(view.in_game[s]))
            idx.append(f_folded + r)
            val.append(float(view.folded[s]))
            idx.append(f_scores + r)
            val.append(view.scores[s] / total)
        for s in view.to_act:
            ones.append(f_to_act + (s - me) % n)
        ones.append(f_trump + view.trump - 4)
        cards.one(ones, f_upcard, view.upcard)
        cards.one(ones, f_shown, view.shown)
        for b, chips in enumerate(view.bowls):
            idx.append(f_bowls + b)
            val.append(chips / total)
        for meld in view.melds:
            if meld.bowl < bowls - 1:
                who = n if meld.seat is None else (meld.seat - me) % n
                ones.append(f_melds + meld.bowl * (n + 1) + who)
        winner = view.poker_winner
        ones.append(f_winner + (n if winner is None else (winner - me) % n))
        cards.set(ones, f_played, _mask(view.played))
        cards.set(ones, f_out, _mask(view.out_of_play))
        if view.runs and view.runs[-1]:
            seat, card = view.runs[-1][-1]
            cards.one(ones, f_run, card)
            ones.append(f_runner + (seat - me) % n)
        ones.append(f_dealer + (view.dealer - me) % n)
        ones.append(f_phase + int(view.phase))
        idx.append(f_round)
        val.append(view.deal / limit)

    actions = (
        *cards.cards,
        poch.PASS,
        poch.CALL,
        *(poch.bet_action(k) for k in range(1, total + 1)),
        *(poch.raise_action(k) for k in range(1, total + 1)),
    )
    return Encoding(game, tuple(lay.fields), lay.size, actions, fill)


# --- Pottle ------------------------------------------------------------------------------------


def _pottle(game: Game[Any, Any]) -> Encoding:
    from tapete.games import pottle

    p = game.params
    n, cards = game.players, Cards(game)
    d = cards.n
    most = pottle.HAND
    total = n * p.bankroll
    # Buy-ins bring more chips in, a bankroll a seat each deal at most: every count of chips
    # lies within all the chips that can enter the match (limits), ``grown`` times ``total``.
    grown = limits.bounds(game).max_score / total
    lay = Layout()
    f_hand = lay.add("hand", d, "this seat's hand")
    f_sizes = _seat_block(lay, "hand_sizes", n, f"cards in each hand / {most}")
    f_bids = lay.add(
        "bids", n * (most + 2), f"each seat's bid one-hot: none, 0 … {most}, relative seats"
    )
    f_declarer = lay.add("declarer", n + 1, "the highest bidder, relative; last: none yet")
    f_trump = lay.add("trump", 6, "trump: not named yet, no trump, clubs, diamonds, hearts, spades")
    f_trick = lay.add(
        "trick", n * d, f"the card each seat has played to this trick, {d} per seat, relative seats"
    )
    f_played = lay.add("played", d, "cards played to earlier tricks of this deal")
    f_won = _seat_block(lay, "won", n, f"tricks won this deal / {most}")
    f_leader = _seat_block(lay, "leader", n, "who led this trick, one-hot")
    f_dealer = _seat_block(lay, "dealer", n, "the dealer, one-hot")
    f_phase = lay.add("phase", 4, "bid, trump, play, over: one-hot")
    f_pot = lay.add("pot", 1, f"chips in the pot / {total}", high=grown)
    f_stacks = _seat_block(lay, "stacks", n, f"each seat's chips / {total}", high=grown)
    f_bought = _seat_block(lay, "bought", n, f"chips each seat bought / {total}", high=grown)
    f_scores = _seat_block(
        lay,
        "scores",
        n,
        f"net results (chips held minus bought) / {total}",
        low=-grown,
        high=grown,
    )

    def fill(view: Any, ones: list[int], idx: list[int], val: list[float]) -> None:
        me = view.seat
        cards.set(ones, f_hand, _mask(view.hands[me]))
        for s in range(n):
            r = (s - me) % n
            idx.append(f_sizes + r)
            val.append(view.hand_sizes[s] / most)
            bid = view.bids[s]
            ones.append(f_bids + r * (most + 2) + (0 if bid is None else bid + 1))
            idx.append(f_won + r)
            val.append(view.won[s] / most)
            idx.append(f_stacks + r)
            val.append(view.stacks[s] / total)
            idx.append(f_bought + r)
            val.append(view.bought[s] / total)
            idx.append(f_scores + r)
            val.append(view.scores[s] / total)
        declarer = view.declarer
        ones.append(f_declarer + (n if declarer is None else (declarer - me) % n))
        trump = view.trump
        ones.append(f_trump + (0 if trump is None else 1 if trump < 0 else trump - 2))
        seat = view.leader
        for card in view.trick:
            cards.one(ones, f_trick + (seat - me) % n * d, card)
            seat = (seat + 1) % n
        cards.set(ones, f_played, _trick_mask(view.tricks))
        ones.append(f_leader + (view.leader - me) % n)
        ones.append(f_dealer + (view.dealer - me) % n)
        ones.append(f_phase + int(view.phase))
        idx.append(f_pot)
        val.append(view.pot / total)

    actions = (
        *cards.cards,
        *(pottle.TRUMP + i for i in range(4)),
        pottle.NO_TRUMP,
        *(pottle.BID + b for b in range(most + 1)),
    )
    return Encoding(game, tuple(lay.fields), lay.size, actions, fill)


_BUILDERS: dict[str, Callable[[Game[Any, Any]], Encoding]] = {
    "pocha": _pocha,
    "tute": _tute,
    "truco": _truco,
    "poch": _poch,
    "pottle": _pottle,
}
