"""Cards as small ints, hands as bitmasks.

A card is ``suit * 16 + rank``. Spanish suits are 0–3 (oros, copas, espadas, bastos) with ranks
1–12 as printed on the card (10 Sota, 11 Caballo, 12 Rey); French suits are 4–7 (clubs, diamonds,
hearts, spades) with ranks 2–14 (11 J, 12 Q, 13 K, 14 A). Every card of every deck thus has one
number and one text form, and a set of cards is an int with bit ``card`` set:

>>> parse_card("7e"), format_card(39)
(39, '7e')
>>> hand = CardSet.parse("1o 3o 12b")
>>> len(hand), parse_card("3o") in hand
(3, True)
>>> hand | CardSet.parse("7e")
CardSet('1o 3o 7e 12b')
>>> SPANISH_40.size, SPANISH_48.size, french(ranks=8).size
(40, 48, 32)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeAlias

from tapete.errors import InvalidActionError

__all__ = [
    "CARD_TEXT",
    "FRENCH_52",
    "SPANISH_40",
    "SPANISH_48",
    "Card",
    "CardSet",
    "Deck",
    "Suit",
    "cards_of",
    "format_card",
    "format_cards",
    "french",
    "mask_of",
    "parse_card",
    "parse_cards",
    "rank_of",
    "spanish",
    "suit_mask",
    "suit_name",
    "suit_of",
]

Card: TypeAlias = int
Suit: TypeAlias = int

SPANISH_SUITS = "oceb"
FRENCH_SUITS = "cdhs"
_SUIT_NAMES = ("oros", "copas", "espadas", "bastos", "clubs", "diamonds", "hearts", "spades")
_FRENCH_RANKS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_FRENCH_RANK_TEXT = {v: k for k, v in _FRENCH_RANKS.items()}


def suit_of(card: Card) -> Suit:
    return card >> 4


def rank_of(card: Card) -> int:
    return card & 15


def suit_mask(suit: Suit) -> int:
    """All 16 card slots of ``suit`` as a bitmask (intersect with a deck's mask for its cards)."""
    return 0xFFFF << (16 * suit)


def suit_name(suit: Suit) -> str:
    """The suit's name in the game's own language: oros, copas ... clubs, hearts ...

    >>> suit_name(0), suit_name(6)
    ('oros', 'hearts')
    """
    return _SUIT_NAMES[suit]


def format_card(card: Card) -> str:
    """The compact ASCII form of docs/notation.md: ``12b`` (Rey de bastos), ``Th`` (ten);
    InvalidActionError for an int that is no card of any deck (``is_card``), or no int.

    >>> format_card(60), format_card(110)
    ('12b', 'Ah')
    >>> format_card(-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tapete.errors.InvalidActionError: -1 is not a card: a card is suit * 16 + rank ...
    """
    try:
        known = not isinstance(card, bool) and is_card(card)
    except TypeError:  # text, a float: not a number of a card
        known = False
    if not known:
        raise InvalidActionError(
            f"{card!r} is not a card: a card is suit * 16 + rank (docs/notation.md)"
        )
    return _card_text(card)


def _card_text(card: Card) -> str:
    suit, rank = card >> 4, card & 15
    if suit < 4:
        return f"{rank}{SPANISH_SUITS[suit]}"
    return f"{_FRENCH_RANK_TEXT.get(rank, str(rank))}{FRENCH_SUITS[suit - 4]}"


def is_card(card: int) -> bool:
    """Whether ``card`` is a card of some deck: 1..12 of a Spanish suit, 2..A of a French one.

    >>> is_card(60), is_card(110), is_card(15), is_card(-1)
    (True, True, False, False)
    """
    suit, rank = card >> 4, card & 15
    return (0 <= suit < 4 and 1 <= rank <= 12) or (4 <= suit < 8 and 2 <= rank <= 14)


def parse_card(text: str, french: bool = False) -> Card:
    """Parse ``1o``..``12b`` (Spanish) or ``2c``..``As`` (French); raises InvalidActionError.

    ``2c``..``9c`` is a Spanish copas card unless ``french`` says the deck is French (clubs).

    >>> parse_card("12b"), parse_card("Ah"), parse_card("th"), parse_card("2c", french=True)
    (60, 110, 106, 66)
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"a card is read from text such as 1o or Ah, not {text!r}")
    text = text.strip()
    if len(text) >= 2:
        rank_text, suit_char = text[:-1], text[-1]
        spanish = not french and suit_char in SPANISH_SUITS
        # Two digits at most: no int() of a number thousands of digits long (refused, or slow).
        if spanish and rank_text.isdecimal() and len(rank_text) <= 2:
            rank = int(rank_text)
            if 1 <= rank <= 12:
                return SPANISH_SUITS.index(suit_char) * 16 + rank
        upper = rank_text.upper()
        if suit_char.lower() in FRENCH_SUITS:
            suit = 4 + FRENCH_SUITS.index(suit_char.lower())
            if upper in _FRENCH_RANKS:
                return suit * 16 + _FRENCH_RANKS[upper]
            if upper.isdecimal() and len(upper) == 1 and 2 <= int(upper) <= 9:
                return suit * 16 + int(upper)
    raise InvalidActionError(
        f"{text!r} is not a card: write rank then suit, e.g. 1o 7e 12b (Spanish: o oros, c copas, "
        "e espadas, b bastos) or Ah Td 7s (French: c d h s)"
    )


CARD_TEXT: tuple[str, ...] = tuple(_card_text(c) for c in range(128))
"""``format_card`` as a table, for hot paths (the entries of ints that are no card are
placeholders)."""


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _bits_of(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_ROWS: tuple[dict[int, tuple[Card, ...]], ...] = tuple({0: ()} for _ in range(8))
"""``cards_of`` by table: per suit, the cards of each 16-bit pattern met so far."""
_S0, _S1, _S2, _S3, _S4, _S5, _S6, _S7 = _ROWS  # for the hot path: a global is read faster
_LOW = (1 << 64) - 1  # the Spanish suits' cards


def cards_of(mask: int) -> list[Card]:
    """The cards of a bitmask, lowest first.

    A table lookup per suit of the deck (the legal moves of every playout step).

    >>> cards_of(1 << parse_card("3o") | 1 << parse_card("1o") | 1 << parse_card("12b"))
    [1, 3, 60]
    """
    try:
        if not mask >> 64:  # Spanish suits
            return [
                *_S0[mask & 0xFFFF],
                *_S1[mask >> 16 & 0xFFFF],
                *_S2[mask >> 32 & 0xFFFF],
                *_S3[mask >> 48],
            ]
        if not mask & _LOW and not mask >> 128:  # French suits
            return [
                *_S4[mask >> 64 & 0xFFFF],
                *_S5[mask >> 80 & 0xFFFF],
                *_S6[mask >> 96 & 0xFFFF],
                *_S7[mask >> 112],
            ]
    except KeyError:  # a pattern met for the first time
        pass
    return _cards_filling(mask)


def _cards_filling(mask: int) -> list[Card]:
    """``cards_of`` for any mask (both decks' suits, or bits beyond the cards), filling the
    tables with the patterns it meets."""
    if mask < 0:
        raise ValueError(f"a mask of cards is not negative: {mask}")
    out: list[Card] = []
    for suit, rows in enumerate(_ROWS):
        chunk = mask >> (suit << 4) & 0xFFFF
        row = rows.get(chunk)
        if row is None:
            row = rows[chunk] = tuple(_bits_of(chunk << (suit << 4)))
        out += row
    return out + _bits_of(mask >> 128 << 128)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(c) for c in cards)


def parse_cards(text: str, french: bool = False) -> list[Card]:
    """Cards separated by spaces or commas, in the order written; InvalidActionError for
    anything else."""
    if not isinstance(text, str):
        raise InvalidActionError(f"cards are read from text such as '1o 7e', not {text!r}")
    return [parse_card(t, french) for t in text.replace(",", " ").split()]


class CardSet:
    """An immutable set of cards backed by an int bitmask.

    >>> a, b = CardSet.parse("1o 3o"), CardSet.parse("3o 7e")
    >>> a & b, a - b, sorted(a ^ b)
    (CardSet('3o'), CardSet('1o'), [1, 39])
    >>> eval(repr(a)) == a, CardSet.parse("2c Ah", french=True)
    (True, CardSet('2c Ah', french=True))
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card] | int | str = 0, french: bool = False) -> None:
        if isinstance(cards, int):
            mask = cards
        elif isinstance(cards, str):
            mask = mask_of(parse_cards(cards, french))
        else:
            mask = mask_of(cards)
        object.__setattr__(self, "mask", mask)

    @classmethod
    def parse(cls, text: str, french: bool = False) -> CardSet:
        return cls(mask_of(parse_cards(text, french)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        # Pickled as its mask, so views travel to other processes (arena, reviews, bot pools).
        return (CardSet, (self.mask,))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and card >= 0 and bool(self.mask >> card & 1)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        """Subset: every card of this set is in ``other``."""
        return self.mask & ~other.mask == 0

    def __ge__(self, other: CardSet) -> bool:
        return other.mask & ~self.mask == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __repr__(self) -> str:
        if self.mask >> 64:
            return f"CardSet({str(self)!r}, french=True)"
        return f"CardSet({str(self)!r})"

    def __str__(self) -> str:
        return format_cards(cards_of(self.mask))


@dataclass(frozen=True)
class Deck:
    """A deck: its suits and ranks, and its cards in canonical (suit, rank) order."""

    name: str
    suits: tuple[Suit, ...]
    ranks: tuple[int, ...]
    cards: tuple[Card, ...] = field(init=False)
    mask: int = field(init=False)

    def __post_init__(self) -> None:
        cards = tuple(s * 16 + r for s in self.suits for r in self.ranks)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "mask", mask_of(cards))

    @property
    def size(self) -> int:
        return len(self.cards)

    def parse(self, text: str, usage: str = "") -> Card:
        """The card ``text`` names, which must be one of this deck's (``2c`` is clubs in a French
        deck); raises InvalidActionError naming the card otherwise, and how this deck's cards are
        written where ``text`` is no card at all, after ``usage`` where one is given (what else
        the notation reads, for a word that was no card).

        >>> spanish().parse("1o"), french().parse("2c")
        (1, 66)
        >>> spanish().parse("Ah")
        Traceback (most recent call last):
        tapete.errors.InvalidActionError: 'Ah' is not a card of this game's 40-card deck
        """
        try:
            card = parse_card(text, french=self.suits[0] >= 4)
        except InvalidActionError:
            raise self.no_card(text, usage) from None
        if not self.mask >> card & 1:
            raise InvalidActionError(f"{text!r} is not a card of this game's {self.size}-card deck")
        return card

    def no_card(self, text: str, usage: str = "") -> InvalidActionError:
        """The refusal of ``text``, which names no card: how this deck's cards are written (three
        of them, and its suits' letters), after ``usage`` where one is given.

        >>> head, written = str(spanish().no_card("x", usage="'x' is no move")).split("e.g. ")
        >>> head
        "'x' is no move; 'x' is not a card: write rank then suit, "
        >>> written
        '12o 6c 1b (o oros, c copas, e espadas, b bastos)'
        >>> str(french(ranks=6).no_card("x")).split("e.g. ")[1]
        'Ac Qd 9s (c clubs, d diamonds, h hearts, s spades)'
        """
        ranks, suits = self.ranks, self.suits
        picks = (
            (suits[0], ranks[-1]),
            (suits[1 % len(suits)], ranks[len(ranks) // 2]),
            (suits[-1], ranks[0]),
        )
        examples = " ".join(_card_text(s * 16 + r) for s, r in picks)
        letters = ", ".join(f"{_card_text(s * 16 + ranks[0])[-1]} {_SUIT_NAMES[s]}" for s in suits)
        refusal = f"{text!r} is not a card: write rank then suit, e.g. {examples} ({letters})"
        return InvalidActionError(f"{usage}; {refusal}" if usage else refusal)

    def without_ranks(self, *ranks: int) -> Deck:
        """The same deck with some ranks taken out (Pocha drops the 2s for 3 or 6 players)."""
        kept = tuple(r for r in self.ranks if r not in ranks)
        return Deck(f"{self.name}-{len(self.suits) * len(kept)}", self.suits, kept)


def spanish(size: int = 40) -> Deck:
    """The Spanish deck: 40 cards (no 8s or 9s) or 48."""
    if size == 40:
        return Deck("spanish-40", (0, 1, 2, 3), (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))
    if size == 48:
        return Deck("spanish-48", (0, 1, 2, 3), tuple(range(1, 13)))
    raise ValueError(f"a Spanish deck has 40 or 48 cards, not {size}")


def french(suits: int = 4, ranks: int = 13) -> Deck:
    """A French deck with the top ``ranks`` ranks (A high) of the first ``suits`` suits.

    ``ranks=6`` is the 24-card deck (9–A), 8 the 32-card (7–A), 10 the 40-card (5–A).
    """
    if not 1 <= suits <= 4 or not 1 <= ranks <= 13:
        raise ValueError("a French deck has 1–4 suits and 1–13 ranks")
    return Deck(f"french-{suits * ranks}", tuple(range(4, 4 + suits)), tuple(range(15 - ranks, 15)))


SPANISH_40 = spanish(40)
SPANISH_48 = spanish(48)
FRENCH_52 = french()
