"""Reproducible chance: deck orders from ``(seed, deal)``, lots, and dealing consistent with a view.

Nothing here touches Python's global RNG. A shuffle is a pure function of the seed and the deal
index, so a match can be replayed from its seed; records store the deck orders anyway, so a replay
never depends on this module at all. ``sample_state`` takes the caller's ``random.Random``.
"""

from __future__ import annotations

import hashlib
import random
import struct
from bisect import bisect
from collections.abc import Callable, Iterable, Sequence

from tapete.cards import Card, Deck, cards_of, parse_cards

__all__ = [
    "by_lot",
    "constrained_dealer",
    "deal_constrained",
    "dealt_order",
    "random_stack",
    "shuffled",
    "stack_deck",
]


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


def stack_deck(
    deck: Deck, players: int, dealer: int, hands: Sequence[str], then: str = ""
) -> tuple[Card, ...]:
    """The deck order that deals ``hands`` (text, one per seat) from the dealer's left.

    The cards of ``then`` follow (a card turned up, a stock), then the rest of ``deck`` in its
    order. Cards are written in the deck's notation (``2c`` is clubs in a French deck). Each
    game's ``stack_deck`` says it in the game's words, for tests, puzzles and teaching:
    ``game.new_state(decks=[stack_deck(...)], dealer=...)``.

    >>> from tapete.cards import FRENCH_52, format_cards
    >>> format_cards(stack_deck(FRENCH_52, 2, 0, ["2c 3c", "Ah Kh"], then="Qs")[:6])
    'Ah 2c Kh 3c Qs 4c'
    """
    french = any(suit >= 4 for suit in deck.suits)
    rows = [parse_cards(hand, french) for hand in hands]
    return dealt_order(rows, (dealer + 1) % players, parse_cards(then, french), deck.cards)


def random_stack(
    hands: Iterable[int], rest: int, rng: random.Random, turned: Card = -1, last: Card = -1
) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (card masks, in the order served) one card at a time.

    Each hand's cards come in random order, but ``last`` (a card the deal shows, when a hand holds
    it) is that hand's last card; ``turned`` (when not -1) follows, then the cards of ``rest`` in
    random order. How ``sample_state`` lays out a sampled deal as a deck.

    >>> order = random_stack([0b011, 0b1100], 0b110000, random.Random(1), turned=6, last=3)
    >>> sorted(order[0::2][:2]), order[3], order[4], sorted(order[5:])
    ([0, 1], 3, 6, [4, 5])
    """
    rows = []
    for mask in hands:
        row = cards_of(mask)
        rng.shuffle(row)
        if last >= 0 and mask >> last & 1:
            row.remove(last)
            row.append(last)
        rows.append(row)
    tail = cards_of(rest & ~(1 << turned) if turned >= 0 else rest)
    rng.shuffle(tail)
    if turned >= 0:
        tail.insert(0, turned)
    return dealt_order(rows, then=tail)


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
    a dead end restarts, and after a few restarts each card goes at random to a seat that leaves
    the rest a deal (Hall's condition, ``_room_for_all``), so a consistent deal is always found
    when one exists, in time polynomial in the cards. Raises ValueError when none does.

    >>> hands = deal_constrained(0b1111, [2, 2], [0b0011, 0], random.Random(1))
    >>> hands[0]
    12
    """
    return constrained_dealer(unseen, sizes, excluded)(rng)


def constrained_dealer(
    unseen: int, sizes: Sequence[int], excluded: Sequence[int]
) -> Callable[[random.Random], list[int]]:
    """``deal_constrained`` for many deals of the same cards under the same constraints: what
    does not change between deals is worked out once, and each call deals exactly as
    ``deal_constrained(unseen, sizes, excluded, rng)`` would with that ``rng``.
    Raises ValueError at once when the cards cannot fill the hands."""
    cards = cards_of(unseen)
    if sum(sizes) != len(cards):
        raise ValueError(f"{len(cards)} unseen cards cannot fill hands of sizes {list(sizes)}")
    seats = range(len(sizes))
    allowed = {c: [s for s in seats if sizes[s] and not excluded[s] >> c & 1] for c in cards}
    ways = {c: len(allowed[c]) for c in cards}
    room = list(sizes)

    def deal(rng: random.Random) -> list[int]:
        draw = rng.random
        order = sorted(cards, key=lambda c: (ways[c], draw()))
        for _ in range(20):
            hands = _greedy(order, allowed, list(room), rng)
            if hands is not None:
                return hands
        hands = _guided(order, allowed, list(room), rng)
        if hands is None:
            raise ValueError("no deal of the unseen cards is consistent with what the view shows")
        return hands

    return deal


def _greedy(
    order: list[Card], allowed: dict[Card, list[int]], room: list[int], rng: random.Random
) -> list[int] | None:
    hands = [0] * len(room)
    draw = rng.random
    for card in order:
        # Weight by free room so a uniform deal is the unconstrained case. This is
        # rng.choices(seats, weights=[room[s] for s in seats])[0] written out (the same one
        # number drawn, the same seat for it): it runs for every card of every deal searched.
        seats: list[int] = []
        cumulative: list[int] = []
        total = 0
        for s in allowed[card]:
            if room[s]:
                total += room[s]
                cumulative.append(total)
                seats.append(s)
        if not seats:
            return None
        seat = seats[bisect(cumulative, draw() * (total + 0.0), 0, len(seats) - 1)]
        room[seat] -= 1
        hands[seat] |= 1 << card
    return hands


def _guided(
    order: list[Card], allowed: dict[Card, list[int]], room: list[int], rng: random.Random
) -> list[int] | None:
    """Each card of ``order`` to a seat at random (weighted by free room, as ``_greedy``) among
    those after which the cards left can still all be placed; None when no deal exists at all.

    A backtracking search instead may not end in any useful time where the constraints are many
    (eight seats of a 48-card deal, mid-hand, with voids revealed): checking Hall's condition
    before each step never has to undo one.
    """
    seats_of = {card: sum(1 << s for s in allowed[card]) for card in order}
    waiting: dict[int, int] = {}  # cards not placed yet, by the set of seats they may go to
    for card in order:
        waiting[seats_of[card]] = waiting.get(seats_of[card], 0) + 1
    if not _room_for_all(waiting, room):
        return None
    hands = [0] * len(room)
    for card in order:
        waiting[seats_of[card]] -= 1
        seats = [s for s in allowed[card] if room[s]]
        while True:
            # Never empty: the cards left had a deal before this one was taken out of them.
            seat = rng.choices(seats, weights=[room[s] for s in seats])[0]
            room[seat] -= 1
            if _room_for_all(waiting, room):
                break
            room[seat] += 1
            seats.remove(seat)
        hands[seat] |= 1 << card
    return hands


def _room_for_all(waiting: dict[int, int], room: Sequence[int]) -> bool:
    """Whether the cards ``waiting`` (counts by the set of seats each may go to, as a bitmask)
    can all be placed in the ``room`` left at each seat. Hall's condition: for every set of seats,
    the cards that may only go there are no more than its room. Only unions of the cards' own
    seat sets need checking, and the seats are few (a table and the stock).
    """
    unions = {0}
    for seats in waiting:
        if waiting[seats]:
            unions |= {u | seats for u in unions}
    for union in unions:
        need = sum(n for seats, n in waiting.items() if (seats & ~union) == 0)
        space = sum(r for s, r in enumerate(room) if union >> s & 1)
        if need > space:
            return False
    return True
