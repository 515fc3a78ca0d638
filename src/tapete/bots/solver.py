"""An exact solver for open-hand trick play: alpha-beta over card-set bitmasks.

A *position* is a trick-taking endgame with every hand known (a determinization sampled from a
view): the hands, the trick on the table, trump, the play obligation. ``solve`` returns the value
the ``counted`` seats collect from the remaining tricks — one point a trick, or the card points of
the tricks taken when ``points`` is given — with the ``maximizing`` seats playing to raise it and
everyone else to lower it. That covers the questions the bots ask:

* how many tricks can I take at most (``counted = maximizing = {me}``)?
* how few can I be held to, or forced to take (``counted = {me}``, the others maximizing)?
* how many card points can my team make (Tute)?

The search is a plain minimax with alpha-beta pruning, a transposition table at trick boundaries
(exact values and bounds), equivalent-card merging (cards of one hand adjacent in strength among
the cards still out play alike when only tricks count) and cheap move ordering.

>>> from tapete.cards import SPANISH_40, CardSet
>>> from tapete.tricks import Order
>>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
>>> hands = [CardSet.parse(h).mask for h in ("1o 1c", "3o 4c", "2o 7c")]
>>> pos = Position(hands=hands, seats=(0, 1, 2), trick=(), leader=0, trump=2, order=order)
>>> solve(pos, counted={0}, maximizing={0})
2
>>> solve(pos, counted={1}, maximizing={1})
0
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from tapete.cards import Card, cards_of
from tapete.tricks import MUST_WIN, Obligation, Order, legal_mask, trick_winner

__all__ = ["Position", "Solver", "solve"]


@dataclass(frozen=True)
class Position:
    """An open-hand trick-play position. ``hands`` is indexed by seat; ``seats`` play in order."""

    hands: Sequence[int]
    seats: tuple[int, ...]
    trick: tuple[Card, ...]
    leader: int
    trump: int
    order: Order
    obligation: Obligation = MUST_WIN
    must_underruff: bool = False
    last_trick_bonus: int = 0
    points: Sequence[int] | None = field(default=None, repr=False)  # card points by card

    def to_play(self) -> int:
        i = self.seats.index(self.leader)
        return self.seats[(i + len(self.trick)) % len(self.seats)]


class Solver:
    """One search: the position's fixed facts, the counted and maximizing seats, the table."""

    def __init__(self, pos: Position, counted: Collection[int], maximizing: Collection[int]):
        self.pos = pos
        self.counted = frozenset(counted)
        self.maximizing = frozenset(maximizing)
        n = max(pos.seats) + 1
        self.after = [0] * n
        for i, s in enumerate(pos.seats):
            self.after[s] = pos.seats[(i + 1) % len(pos.seats)]
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
        self.nodes = 0

    def value_of_trick(self, trick: Sequence[Card], tricks_left_after: int) -> int:
        if self.pos.points is None:
            return 1
        value = sum(self.pos.points[c] for c in trick)
        return value + (self.pos.last_trick_bonus if tricks_left_after == 0 else 0)

    def run(self) -> int:
        pos = self.pos
        return self.search(list(pos.hands), pos.trick, pos.leader, -(10**9), 10**9)

    def search(
        self, hands: list[int], trick: tuple[Card, ...], leader: int, alpha: int, beta: int
    ) -> int:
        """The counted seats' value of the rest of the hand, within the window (alpha, beta)."""
        self.nodes += 1
        pos = self.pos
        seat = leader
        for _ in trick:
            seat = self.after[seat]
        if not trick:
            if not hands[leader]:
                return 0
            key = (tuple(hands), leader)
            entry = self.table.get(key)
            if entry is not None:
                low, high = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
                alpha, beta = max(alpha, low), min(beta, high)
        maximize = seat in self.maximizing
        moves = self.moves(hands, seat, trick)
        best = -(10**9) if maximize else 10**9
        a, b = alpha, beta
        for card in moves:
            hands[seat] ^= 1 << card
            played = (*trick, card)
            if len(played) == len(pos.seats):
                winner = leader
                for _ in range(trick_winner(played, pos.trump, pos.order)):
                    winner = self.after[winner]
                left = hands[winner].bit_count()
                gain = self.value_of_trick(played, left) if winner in self.counted else 0
                value = gain + self.search(hands, (), winner, a - gain, b - gain)
            else:
                value = self.search(hands, played, leader, a, b)
            hands[seat] ^= 1 << card
            if maximize:
                if value > best:
                    best = value
                a = max(a, best)
            else:
                if value < best:
                    best = value
                b = min(b, best)
            if a >= b:
                break
        if not trick:
            key = (tuple(hands), leader)
            low, high = self.table.get(key, (-(10**9), 10**9))
            if best <= alpha:
                high = min(high, best)
            elif best >= beta:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high)
        return best

    def moves(self, hands: list[int], seat: int, trick: tuple[Card, ...]) -> list[Card]:
        """Legal cards, one per group of equivalent cards, strongest first."""
        pos = self.pos
        legal = legal_mask(
            hands[seat],
            trick,
            pos.trump,
            pos.order,
            pos.obligation,
            must_underruff=pos.must_underruff,
        )
        power = pos.order.power
        cards = sorted(cards_of(legal), key=lambda c: -power[c])
        if pos.points is not None or len(cards) < 2:
            return cards
        # Merge cards of one suit with no outstanding card of another hand between them.
        outstanding = 0
        for h in hands:
            outstanding |= h
        out = [cards[0]]
        for prev, card in itertools.pairwise(cards):
            between = pos.order.above[card] & ~pos.order.above[prev] & ~(1 << prev)
            if card >> 4 == prev >> 4 and not (between & outstanding & ~hands[seat]):
                continue
            out.append(card)
        return out


def solve(pos: Position, counted: Collection[int], maximizing: Collection[int]) -> int:
    """The counted seats' value of the rest of the hand under best play (see the module doc)."""
    return Solver(pos, counted, maximizing).run()
