"""The O(1) trick rules (the winning card kept, tables of beaters) agree with the trick scan."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete import tricks
from tapete.cards import SPANISH_40, cards_of, french

ORDERS = {
    "spanish": (SPANISH_40, tricks.Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))),
    "french": (french(), tricks.Order.of(french(), tuple(range(14, 1, -1)))),
}


@settings(max_examples=300, deadline=None)
@given(
    deck_name=st.sampled_from(sorted(ORDERS)),
    seed=st.integers(0, 2**32),
    played=st.integers(0, 5),
    trump=st.integers(-1, 3),
    obligation=st.sampled_from([tricks.MUST_WIN, tricks.FOLLOW]),
    must_underruff=st.booleans(),
)
def test_legal_over_the_winning_card_is_legal_mask_of_the_trick(
    deck_name: str,
    seed: int,
    played: int,
    trump: int,
    obligation: tricks.Obligation,
    must_underruff: bool,
) -> None:
    deck, order = ORDERS[deck_name]
    rng = random.Random(seed)
    cards = rng.sample(deck.cards, played + 8)
    trick, hand = cards[:played], sum(1 << c for c in cards[played:])
    trump_suit = deck.suits[trump] if trump >= 0 else -1
    beaters = order.beaters[trump_suit]
    winning = -1
    for card in trick:
        if winning < 0 or beaters[winning] >> card & 1:
            winning = card
    if trick:
        assert trick[tricks.trick_winner(trick, trump_suit, order)] == winning
    led = trick[0] >> 4 if trick else -1
    fast = tricks.legal_over(hand, led, winning, trump_suit, beaters, obligation, must_underruff)
    scan = tricks.legal_mask(
        hand, trick, trump_suit, order, obligation, must_underruff=must_underruff
    )
    assert cards_of(fast) == cards_of(scan)


@given(st.integers(0, 2**200))
def test_cards_of_by_table_lists_every_bit_lowest_first(mask: int) -> None:
    bits = [i for i in range(mask.bit_length()) if mask >> i & 1]
    assert cards_of(mask) == bits
