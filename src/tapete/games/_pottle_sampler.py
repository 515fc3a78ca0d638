"""Pottle's ``sample_state``: a full state consistent with a view, for search.

The unseen cards are dealt at random around what the view shows (the seat's own hand, the cards
played and every void play revealed); then a deck order is stacked that deals those hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tapete.cards import cards_of
from tapete.chance import constrained_dealer
from tapete.game import Setup
from tapete.games.pottle import _UNNAMED, DECK, Deal, State, View

__all__ = ["sample_state", "sampler"]


def sample_state(view: View, rng: random.Random) -> State:
    """``pottle.sample_state`` (its docstring states the contract), as this module describes."""
    return sampler(view)(rng)


def sampler(view: View) -> Callable[[random.Random], State]:
    """``pottle.sampler``: what the view fixes is worked out once, each call draws a deal."""
    p = view.params
    n = p.players
    played_by = [0] * n
    for first, cards in (*view.tricks, (view.leader, view.trick)):
        for i, card in enumerate(cards):
            played_by[(first + i) % n] |= 1 << card
    known = [-1] * n
    if view.seat is not None:
        own = view.hands[view.seat]
        assert own is not None
        known[view.seat] = own.mask
    unseen = DECK.mask & ~sum(played_by) & ~sum(k for k in known if k > 0)
    sizes = [0 if known[s] >= 0 else view.hand_sizes[s] for s in range(n)]
    undealt = unseen.bit_count() - sum(sizes)
    excluded = [m.mask for m in view.excluded]
    deal_hands = constrained_dealer(unseen, [*sizes, undealt], [*excluded, 0])
    served = [(view.dealer + 1 + i) % n for i in range(n)]
    number, dealer = view.deal, view.dealer
    bids = tuple(-1 if b is None else b for b in view.bids)
    declarer = -1 if view.declarer is None else view.declarer
    trump = _UNNAMED if view.trump is None else view.trump
    turn = -1 if view.turn is None else view.turn
    reason = view.reason or ""

    def sample(rng: random.Random) -> State:
        shuffle = rng.shuffle
        dealt = deal_hands(rng)
        hands = tuple(known[s] if known[s] >= 0 else dealt[s] for s in range(n))
        held = tuple(h | b for h, b in zip(hands, played_by, strict=True))
        # random_stack(rows, dealt[n], rng) written out for hands of one size (each row
        # shuffled in turn, then the undealt cards): the same shuffles, the same deck.
        rows = [cards_of(held[s]) for s in served]
        for row in rows:
            shuffle(row)
        tail = cards_of(dealt[n])
        shuffle(tail)
        deck = (*(c for cards in zip(*rows, strict=True) for c in cards), *tail)
        deal = Deal(number, dealer, deck, held)
        return State(
            params=p,
            setup=Setup(seed=rng.getrandbits(32)),
            deal=deal,
            hands=hands,
            bids=bids,
            declarer=declarer,
            trump=trump,
            won=view.won,
            trick=view.trick,
            leader=view.leader,
            tricks=view.tricks,
            turn=turn,
            phase=view.phase,
            stacks=view.stacks,
            bought=view.bought,
            pot=view.pot,
            discarded=view.discarded,
            history=view.history,
            reason=reason,
            last=(),
        )

    return sample
