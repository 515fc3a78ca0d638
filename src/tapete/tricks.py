"""Trick-taking mechanics shared by Pocha, Oh Hell, Tute and Pottle: plain functions over bitmasks.

Two play obligations exist in tapete's games:

``FOLLOW``
    follow suit if you can, otherwise play anything (Oh Hell, Pottle).
``MUST_WIN``
    the Spanish "must win" rule (Pocha, Tute): follow suit and beat the best card of the suit led
    while the trick is not trumped; when void, trump, over-trumping when you can; a void player
    who cannot over-trump plays anything (no duty to under-trump unless ``must_underruff``).

A trick is the tuple of cards played so far, leader first. ``Order`` tells which card beats which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from tapete.cards import Card, Deck, Suit, cards_of, format_cards, suit_mask, suit_name
from tapete.errors import IllegalActionError

__all__ = [
    "FOLLOW",
    "MUST_WIN",
    "Obligation",
    "Order",
    "beaters_of",
    "beats",
    "excluded_by_play",
    "legal_mask",
    "legal_over",
    "next_seat",
    "trick_winner",
    "why_card_illegal",
]

Obligation: TypeAlias = Literal["follow", "must_win"]
FOLLOW: Obligation = "follow"
MUST_WIN: Obligation = "must_win"
NO_TRUMP = -1


def next_seat(seat: int, players: int) -> int:
    """The seat that acts after ``seat`` (play order is seat order)."""
    return (seat + 1) % players


@dataclass(frozen=True, eq=False)
class Order:
    """The strength of cards within their suit, as lookup tables indexed by card.

    ``power[c]`` is larger for stronger cards; ``above[c]`` is the mask of same-suit cards that
    beat ``c``. Build one from a deck and its ranks from strongest to weakest:

    >>> from tapete.cards import SPANISH_40, parse_card, CardSet
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> CardSet(order.above[parse_card("12o")])
    CardSet('1o 3o')
    """

    power: tuple[int, ...]
    above: tuple[int, ...]
    beaters: tuple[tuple[int, ...], ...] = ()
    """``beaters[trump][card]``: the cards that beat ``card`` when it is winning a trick with
    ``trump`` (a suit; ``beaters[-1]``: no trump). Filled in by ``of``."""

    def __post_init__(self) -> None:
        if not self.beaters:
            object.__setattr__(self, "beaters", beaters_of(self.above))

    @classmethod
    def of(cls, deck: Deck, ranks_high_to_low: Sequence[int]) -> Order:
        power = [-1] * 128
        above = [0] * 128
        for suit in deck.suits:
            stronger = 0
            for strength, rank in enumerate(ranks_high_to_low):
                card = suit * 16 + rank
                power[card] = len(ranks_high_to_low) - strength
                above[card] = stronger
                stronger |= 1 << card
        return cls(tuple(power), tuple(above))


def beaters_of(above: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Per trump suit (0–7, and last no trump), per card: the cards that beat it when it is
    winning a trick.

    A winning card that is not a trump is of the suit led: the higher cards of its suit beat it,
    and so does every trump. A winning trump falls only to a higher trump.

    >>> from tapete.cards import SPANISH_40, CardSet, parse_card
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> CardSet(order.beaters[2][parse_card("3o")] & ~suit_mask(2)), order.beaters[-1][1]
    (CardSet('1o'), 0)
    """
    tables = [
        tuple(above[c] | (suit_mask(trump) if c >> 4 != trump else 0) for c in range(128))
        for trump in range(8)
    ]
    return (*tables, tuple(above))


_SLOTS = tuple(suit_mask(suit) for suit in range(8))  # each suit's card slots, by suit


def legal_over(
    hand: int,
    led: Suit,
    winning: Card,
    trump: Suit,
    beaters: Sequence[int],
    obligation: Obligation = MUST_WIN,
    must_underruff: bool = False,
) -> int:
    """``legal_mask`` in O(1), from the suit ``led`` and the card ``winning`` the trick so far
    (``winning`` -1: the trick is empty), ``beaters`` being ``order.beaters[trump]``.

    >>> from tapete.cards import SPANISH_40, CardSet, parse_card
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> hand = CardSet.parse("12e 2e 7o")
    >>> CardSet(legal_over(hand.mask, 1, parse_card("10e"), 2, order.beaters[2]))
    CardSet('12e')
    """
    if winning < 0:
        return hand
    in_led = hand & _SLOTS[led]
    if obligation == FOLLOW:
        return in_led or hand
    if in_led:  # follow suit, beating the winning card if it is of that suit
        return in_led & beaters[winning] or in_led
    over = hand & beaters[winning]  # void: the trumps that win
    if over:
        return over
    if must_underruff and trump >= 0:
        return hand & 0xFFFF << (trump << 4) or hand
    return hand


def _tops(trick: Sequence[Card], trump: Suit, power: Sequence[int]) -> tuple[int, int]:
    """The best card of the suit led and the best trump in ``trick`` (-1 where none)."""
    led = trick[0] >> 4
    top_led = top_trump = -1
    for card in trick:
        suit = card >> 4
        if suit == trump and (top_trump < 0 or power[card] > power[top_trump]):
            top_trump = card
        elif suit == led and (top_led < 0 or power[card] > power[top_led]):
            top_led = card
    return top_led, top_trump


def trick_winner(trick: Sequence[Card], trump: Suit, order: Order) -> int:
    """The index in ``trick`` of the winning card: the best trump, else the best of the suit led.

    ``trump`` is -1 for no trump.

    >>> from tapete.cards import SPANISH_40, parse_cards
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> trick_winner(parse_cards("5o 7o 4o 6e"), 2, order)
    3
    """
    top_led, top_trump = _tops(trick, trump, order.power)
    return trick.index(top_trump if top_trump >= 0 else top_led)


def beats(card: Card, best: Card, trump: Suit, order: Order) -> bool:
    """Whether ``card``, played to a trick, beats ``best``, the card winning it so far: a higher
    card of its suit, or a trump on a card of another suit (``trump`` -1: no trump).

    >>> from tapete.cards import SPANISH_40, parse_card
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> [beats(parse_card(c), parse_card("3o"), 2, order) for c in ("1o", "12o", "2e", "1c")]
    [True, False, True, False]
    """
    if card >> 4 == best >> 4:
        return order.power[card] > order.power[best]
    return card >> 4 == trump


def legal_mask(
    hand: int,
    trick: Sequence[Card],
    trump: Suit,
    order: Order,
    obligation: Obligation = MUST_WIN,
    *,
    must_underruff: bool = False,
) -> int:
    """The cards of ``hand`` (a mask) that may be played to ``trick``.

    >>> from tapete.cards import SPANISH_40, CardSet, parse_cards
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> hand = CardSet.parse("12e 2e 7o")
    >>> CardSet(legal_mask(hand.mask, parse_cards("11c 10e 1c"), 2, order))
    CardSet('12e')
    """
    if not trick:
        return hand
    led = trick[0] >> 4
    in_led = hand & suit_mask(led)
    if obligation == FOLLOW:
        return in_led or hand
    top_led, top_trump = _tops(trick, trump, order.power)
    above = order.above
    if in_led:
        if led == trump:
            return in_led & above[top_trump] or in_led
        if top_trump < 0:
            return in_led & above[top_led] or in_led
        return in_led
    trumps = hand & suit_mask(trump) if trump >= 0 else 0
    if not trumps:
        return hand
    if top_trump < 0:
        return trumps
    return trumps & above[top_trump] or (trumps if must_underruff else hand)


def why_card_illegal(
    hand: int,
    card: Card,
    trick: Sequence[Card],
    trump: Suit,
    order: Order,
    obligation: Obligation = MUST_WIN,
    *,
    must_underruff: bool = False,
) -> IllegalActionError | None:
    """Why ``card`` may not be played from ``hand`` to ``trick``, or None when it may.

    The rule codes are ``not-in-hand``, ``must-follow-suit``, ``must-beat``, ``must-trump``,
    ``must-overtrump`` and ``must-underruff``.

    >>> from tapete.cards import SPANISH_40, CardSet, parse_card, parse_cards
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> hand = CardSet.parse("3o 7o 1b").mask
    >>> print(why_card_illegal(hand, parse_card("1b"), parse_cards("5o"), 2, order))
    must follow suit: oros was led and you hold 3o 7o
    """
    if not hand >> card & 1:
        return IllegalActionError(
            "not-in-hand",
            f"{format_cards([card])} is not in your hand ({format_cards(cards_of(hand))})",
        )
    legal = legal_mask(hand, trick, trump, order, obligation, must_underruff=must_underruff)
    if legal >> card & 1:
        return None
    led = trick[0] >> 4
    shown = format_cards(cards_of(legal))
    if hand & suit_mask(led):
        if card >> 4 != led:
            return IllegalActionError(
                "must-follow-suit",
                f"must follow suit: {suit_name(led)} was led and you hold {shown}",
            )
        top_led, top_trump = _tops(trick, trump, order.power)
        best = format_cards([top_trump if led == trump else top_led])
        return IllegalActionError("must-beat", f"must beat the {best}: you hold {shown}")
    top_led, top_trump = _tops(trick, trump, order.power)
    if top_trump < 0:
        return IllegalActionError(
            "must-trump",
            f"must trump: you have no {suit_name(led)} and hold the trumps {shown}",
        )
    if legal & order.above[top_trump]:
        return IllegalActionError(
            "must-overtrump", f"must beat the trump {format_cards([top_trump])}: you hold {shown}"
        )
    return IllegalActionError(
        "must-underruff", f"must play a trump when you cannot follow suit: you hold {shown}"
    )


def excluded_by_play(
    card: Card,
    trick: Sequence[Card],
    trump: Suit,
    order: Order,
    obligation: Obligation = MUST_WIN,
    *,
    must_underruff: bool = False,
) -> int:
    """The cards a player cannot have held, given that they legally played ``card`` to ``trick``.

    Public knowledge for every seat: not following reveals a void, not beating reveals that no
    higher card of the suit was held, and so on. ``sample_state`` deals around these.

    >>> from tapete.cards import SPANISH_40, CardSet, parse_card, parse_cards
    >>> order = Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
    >>> CardSet(excluded_by_play(parse_card("4o"), parse_cards("5o 7o"), 2, order))
    CardSet('1o 3o 10o 11o 12o')
    """
    if not trick:
        return 0
    led = trick[0] >> 4
    led_cards = suit_mask(led)
    trumps = suit_mask(trump) if trump >= 0 else 0
    if card >> 4 != led:
        excluded = led_cards
        if obligation == FOLLOW:
            return excluded
        top_led, top_trump = _tops(trick, trump, order.power)
        if card >> 4 != trump:
            if top_trump < 0 or must_underruff:
                return excluded | trumps
            return excluded | order.above[top_trump]
        if top_trump >= 0 and not order.above[top_trump] >> card & 1:
            excluded |= order.above[top_trump]
        return excluded
    if obligation == FOLLOW:
        return 0
    top_led, top_trump = _tops(trick, trump, order.power)
    if led == trump:
        return 0 if order.above[top_trump] >> card & 1 else order.above[top_trump]
    if top_trump < 0 and not order.above[top_led] >> card & 1:
        return order.above[top_led]
    return 0
