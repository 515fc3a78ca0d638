"""Reproducible chance: deck orders from ``(seed, deal)``, lots, and dealing consistent with a view.

Nothing here touches Python's global RNG. A shuffle is a pure function of the seed and the deal
index, so a match can be replayed from its seed; records store the deck orders anyway, so a replay
never depends on this module at all. ``sample_state`` takes the caller's ``random.Random``.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Iterable, Sequence

from tapete.cards import Card, cards_of

__all__ = ["by_lot", "deal_constrained", "dealt_order", "shuffled"]


def _stream(seed: int, label: str, count: int) -> tuple[int, ...]:
    """``count`` 32-bit numbers from SHAKE-256 of ``tapete/{seed}/{label}``.

    A hash stream rather than Python's Mersenne Twister: anyone can recompute a deal from a
    published seed in any language (fair dealing), and it is cheaper than seeding a Random.
    """
    digest = hashlib.shake_256(f"tapete/{seed}/{label}".encode()).digest(4 * count)
    return struct.unpack(f"<{count}I", digest)


def shuffled(cards: Sequence[Card], seed: int, deal: int) -> tuple[Card, ...]:
    """The deck order of deal ``deal`` (0-based) of the match with ``seed``, top card first.

    Fisher–Yates from the last position down, position ``i`` swapping with ``r[i] % (i + 1)``
    where ``r`` is the hash stream of label ``deal-{deal}`` (the bias of the modulo is below
    one in 10⁸ for any deck).

    >>> shuffled(range(5), 7, 0) == shuffled(range(5), 7, 0) != shuffled(range(5), 7, 1)
    True
    """
    order = list(cards)
    numbers = _stream(seed, f"deal-{deal}", len(order))
    for i in range(len(order) - 1, 0, -1):
        j = numbers[i] % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def dealt_order(
    hands: Sequence[Sequence[Card]],
    first: int = 0,
    then: Iterable[Card] = (),
    deck: Iterable[Card] = (),
) -> tuple[Card, ...]:
    """The deck order, top card first, that deals ``hands`` one card at a time.

    ``hands[first]`` gets the top card, the next hand round the table the next one, and so on,
    each hand's cards in the order given; when the cards run out in the middle of a round, the
    hands served first in it hold one card more (other sizes raise ValueError). The cards of
    ``then`` follow (a card turned up, a stock), then the cards of ``deck`` not named before, in
    the deck's order. Raises ValueError for a card named twice. Used to stack a deck for tests
    and worked examples, and to lay out a sampled deal as a deck.

    >>> dealt_order([[1], [2, 3], [4, 5]], first=1, then=[7], deck=range(9))
    (2, 4, 1, 3, 5, 7, 0, 6, 8)
    >>> dealt_order([[1], [2, 3], [4, 5]])
    Traceback (most recent call last):
    ValueError: hands of 1, 2, 2 cards in the order served cannot be dealt one card at a time
    """
    n = len(hands)
    rows = [hands[(first + k) % n] for k in range(n)]
    total = sum(len(row) for row in rows)
    if any(len(row) != total // n + (k < total % n) for k, row in enumerate(rows)):
        sizes = ", ".join(str(len(row)) for row in rows)
        raise ValueError(
            f"hands of {sizes} cards in the order served cannot be dealt one card at a time"
        )
    order = [rows[i % n][i // n] for i in range(total)]
    order.extend(then)
    named = set(order)
    if len(named) != len(order):
        raise ValueError("a card is named twice")
    order.extend(c for c in deck if c not in named)
    return tuple(order)


def by_lot(choices: int, seed: int, label: str) -> int:
    """A number in ``range(choices)`` drawn for ``label`` (e.g. the first dealer) of a match."""
    return _stream(seed, label, 1)[0] % choices


def deal_constrained(
    unseen: int,
    sizes: Sequence[int],
    excluded: Sequence[int],
    rng: random.Random,
) -> list[int]:
    """Deal the cards of ``unseen`` so seat ``i`` gets ``sizes[i]`` cards, none in ``excluded[i]``.

    Used by ``sample_state``: the unseen cards go to the seats that might hold them, honouring
    voids and other facts the view reveals. The most constrained cards are placed first at random;
    a dead end restarts, and after a few restarts an exhaustive search settles it, so a consistent
    deal is always found when one exists. Raises ValueError when none does.

    >>> hands = deal_constrained(0b1111, [2, 2], [0b0011, 0], random.Random(1))
    >>> hands[0]
    12
    """
    cards = cards_of(unseen)
    if sum(sizes) != len(cards):
        raise ValueError(f"{len(cards)} unseen cards cannot fill hands of sizes {list(sizes)}")
    seats = range(len(sizes))
    allowed = {c: [s for s in seats if sizes[s] and not excluded[s] >> c & 1] for c in cards}
    order = sorted(cards, key=lambda c: (len(allowed[c]), rng.random()))
    for _ in range(20):
        hands = _greedy(order, allowed, list(sizes), rng)
        if hands is not None:
            return hands
    hands = _exhaustive(order, allowed, list(sizes), [0] * len(sizes))
    if hands is None:
        raise ValueError("no deal of the unseen cards is consistent with what the view shows")
    return hands


def _greedy(
    order: list[Card], allowed: dict[Card, list[int]], room: list[int], rng: random.Random
) -> list[int] | None:
    hands = [0] * len(room)
    for card in order:
        seats = [s for s in allowed[card] if room[s]]
        if not seats:
            return None
        # Weight by free room so a uniform deal is the unconstrained case.
        seat = rng.choices(seats, weights=[room[s] for s in seats])[0]
        room[seat] -= 1
        hands[seat] |= 1 << card
    return hands


def _exhaustive(
    order: list[Card], allowed: dict[Card, list[int]], room: list[int], hands: list[int]
) -> list[int] | None:
    if not order:
        return list(hands)
    card, rest = order[0], order[1:]
    for seat in allowed[card]:
        if room[seat]:
            room[seat] -= 1
            hands[seat] |= 1 << card
            found = _exhaustive(rest, allowed, room, hands)
            room[seat] += 1
            hands[seat] &= ~(1 << card)
            if found is not None:
                return found
    return None
