"""Oh Hell in tapete and in OpenSpiel: one mapping between the two engines.

OpenSpiel's ``oh_hell`` with ``players=P, num_suits=S, num_cards_per_suit=R,
num_tricks_fixed=T`` is tapete's ``oh_hell(players=P, suits=S, ranks=R, schedule=T,
tiebreak_players=nobody)``: the same deck shape, the same hook on the last bidder, the turned card
after the hands as trump, a point a trick and 10 for an exact bid, one hand and no play-off.
Both engines agree on every legal action and every score (the cross-play benchmark checks it at
every step). The mapping is a bijection that keeps what the rules look at:

* **cards**: OpenSpiel numbers card ``rank * S + suit`` with rank 0 the lowest; tapete's French
  deck keeps the top R ranks (A high) of its first S suits. Suit ``i`` is tapete's suit ``4 + i``
  and the ``k``-th lowest rank is the ``k``-th lowest rank of tapete's deck, so the order of cards
  within a suit, which is all trick-taking compares, is kept;
* **bids**: OpenSpiel's ``S * R + n`` is tapete's ``bid n``; a play is its card;
* **deals**: OpenSpiel deals from seat 0 (card ``k`` of the deal to seat ``k % P``) whoever
  deals, tapete from the seat after the dealer; a deal is the same when every hand and the
  turned card are, so :meth:`OhHellShape.setup` lays out the tapete deck that deals OpenSpiel's
  hands.

Nothing here imports OpenSpiel: the mapping is plain arithmetic, usable (and tested) without it.

>>> shape = OhHellShape()
>>> shape.spec
'oh_hell(players=4, suits=4, ranks=10, schedule=9, tiebreak_players=nobody)'
>>> from tapete.cards import format_card
>>> format_card(shape.card_from_openspiel(0)), format_card(shape.card_from_openspiel(39))
('5c', 'As')
>>> shape.action_to_openspiel(shape.action_from_openspiel(42))
42
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tapete.cards import Card, french
from tapete.chance import dealt_order
from tapete.game import Action, Setup, integer
from tapete.games.pocha import BID

__all__ = ["OhHellShape"]


@dataclass(frozen=True)
class OhHellShape:
    """One Oh Hell hand shape, as both engines name it."""

    players: int = 4
    suits: int = 4
    ranks: int = 10
    tricks: int = 9

    def __post_init__(self) -> None:
        from tapete.games import load  # the spec's own checks name a field tapete refuses

        for name in ("players", "suits", "ranks", "tricks"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"OhHellShape: {name} is a whole number, not {value!r}")
        if self.players * self.tricks + 1 > self.suits * self.ranks:
            raise ValueError(
                f"{self.players} hands of {self.tricks} cards and a turned card need more than"
                f" the {self.suits * self.ranks} cards of {self.suits} suits of {self.ranks}"
            )
        load(self.spec)  # SpecError for a shape tapete's oh_hell does not play (players=8)

    @property
    def spec(self) -> str:
        """The tapete game spec of this shape."""
        return (
            f"oh_hell(players={self.players}, suits={self.suits}, ranks={self.ranks},"
            f" schedule={self.tricks}, tiebreak_players=nobody)"
        )

    def openspiel_params(self) -> dict[str, int]:
        """The parameters of ``pyspiel.load_game("oh_hell", ...)`` for this shape."""
        return {
            "players": self.players,
            "num_suits": self.suits,
            "num_cards_per_suit": self.ranks,
            "num_tricks_fixed": self.tricks,
        }

    @property
    def _deck_ranks(self) -> tuple[int, ...]:
        return french(self.suits, self.ranks).ranks

    def card_from_openspiel(self, card: int) -> Card:
        """tapete's card for OpenSpiel's card ``card``; ValueError for a number of no card."""
        card = _number(card, "card")
        if not 0 <= card < self.suits * self.ranks:
            raise ValueError(
                f"OpenSpiel card {card} is not in this shape: 0 to {self.suits * self.ranks - 1}"
            )
        rank, suit = divmod(card, self.suits)
        return (4 + suit) * 16 + self._deck_ranks[rank]

    def card_to_openspiel(self, card: Card) -> int:
        """OpenSpiel's card for tapete's ``card``; ValueError for a card not in this deck."""
        card = _number(card, "card")
        if card not in french(self.suits, self.ranks).cards:
            raise ValueError(f"{card} is no card of the deck of {self.spec}")
        return self._deck_ranks.index(card & 15) * self.suits + (card >> 4) - 4

    def action_from_openspiel(self, action: int) -> Action:
        """tapete's action for OpenSpiel's bid or play ``action``; ValueError for a number
        outside OpenSpiel's actions of this shape (cards, then bids 0 to ``tricks``)."""
        cards = self.suits * self.ranks
        action = _number(action, "action")
        if cards <= action <= cards + self.tricks:
            return BID + action - cards
        if 0 <= action < cards:
            return self.card_from_openspiel(action)
        raise ValueError(
            f"OpenSpiel action {action} is not in this shape: cards 0 to {cards - 1},"
            f" bids {cards} to {cards + self.tricks}"
        )

    def action_to_openspiel(self, action: Action) -> int:
        """OpenSpiel's action for tapete's bid or play ``action``; ValueError for anything
        else (a bid past ``tricks``, a card not in this deck)."""
        action = _number(action, "action")
        if BID <= action <= BID + self.tricks:
            return self.suits * self.ranks + action - BID
        if action >= BID:
            raise ValueError(f"bid {action - BID} is past the {self.tricks} tricks of this shape")
        return self.card_to_openspiel(action)

    def setup(self, dealer: int, dealt: Sequence[int], seed: int = 0) -> Setup:
        """The tapete ``Setup`` of OpenSpiel's deal: its dealer and its dealt cards in order.

        ``dealt`` is OpenSpiel's deal chance outcomes: the hands' cards (card ``k`` to seat
        ``k % players``), then the turned card.

        >>> shape = OhHellShape(players=3, suits=1, ranks=7, tricks=2)
        >>> setup = shape.setup(dealer=2, dealt=[0, 1, 2, 3, 4, 5, 6])
        >>> from tapete.cards import format_cards
        >>> format_cards(setup.decks[0])  # seat 0, first after the dealer, takes the top card
        '8c 9c Tc Jc Qc Kc Ac'
        """
        seat = integer(dealer)
        if seat is None or not 0 <= seat < self.players:  # else refused only at new_state
            raise ValueError(
                f"dealer {dealer!r} is not a seat of this shape: 0 to {self.players - 1}"
            )
        dealer = seat
        cards = [self.card_from_openspiel(c) for c in dealt]
        hand_cards = self.players * self.tricks
        if len(cards) != hand_cards + 1:
            raise ValueError(f"a deal of {self.tricks} tricks is {hand_cards + 1} cards")
        hands = [cards[seat : hand_cards : self.players] for seat in range(self.players)]
        deck = french(self.suits, self.ranks).cards
        order = dealt_order(hands, first=(dealer + 1) % self.players, then=cards[-1:], deck=deck)
        return Setup(seed=seed, decks=(order,), dealer=dealer)


def _number(value: object, kind: str) -> int:
    """``value`` as an int (NumPy's integers too); TypeError naming ``kind`` for a bool, a
    float or text, which would otherwise be mapped as some card (``True`` as card 1) or fail
    on Python's own words."""
    number = integer(value)
    if number is None:
        raise TypeError(f"an OpenSpiel or tapete {kind} is a whole number, not {value!r}")
    return number
