"""Pocha's ``sample_state``: a full state consistent with a view, for search.

The unseen cards are dealt at random around what the view shows: the seat's own hand, the
cards played, the turned card, the dealer's shown card and every void or "could not beat" that
play revealed; then a deck order is stacked that deals those hands as the game deals.
"""

from __future__ import annotations

import random

from tapete.chance import deal_constrained, random_stack
from tapete.game import Setup
from tapete.games.pocha import Deal, State, View, _deck, card_order

__all__ = ["sample_state"]


def sample_state(view: View, rng: random.Random) -> State:
    """``pocha.sample_state`` (its docstring states the contract), as this module describes."""
    p = view.params
    n, d_seats = p.players, view.seats
    known = [h.mask if h is not None else -1 for h in view.hands]
    played_by = [0] * n
    for leader, trick in (*view.tricks, (view.leader, view.trick)):
        seat = leader
        nxt = {s: d_seats[(i + 1) % len(d_seats)] for i, s in enumerate(d_seats)}
        for card in trick:
            played_by[seat] |= 1 << card
            seat = nxt[seat]
    deck = _deck(p)
    unseen = deck.mask & ~sum(played_by) & ~sum(k for k in known if k > 0)
    if view.upcard >= 0:
        unseen &= ~(1 << view.upcard)
    pinned = [0] * n
    if view.shown >= 0 and not played_by[view.dealer] >> view.shown & 1 and known[view.dealer] < 0:
        pinned[view.dealer] = 1 << view.shown
        unseen &= ~pinned[view.dealer]
    sizes = [0 if known[s] >= 0 else view.hand_sizes[s] - pinned[s].bit_count() for s in range(n)]
    stock = unseen.bit_count() - sum(sizes)
    excluded = [m.mask for m in view.excluded]
    dealt = deal_constrained(unseen, [*sizes, stock], [*excluded, 0], rng)
    hands = tuple(known[s] if known[s] >= 0 else dealt[s] | pinned[s] for s in range(n))
    setup = Setup(seed=rng.getrandbits(32))
    rows = [hands[s] | played_by[s] for s in view.seats]
    order = random_stack(rows, dealt[n], rng, turned=view.upcard, last=view.shown)
    seats = view.seats
    after = [0] * n
    for i, s in enumerate(seats):
        after[s] = seats[(i + 1) % len(seats)]
    deal = Deal(
        view.deal,
        view.hand_size,
        view.dealer,
        seats,
        tuple(after),
        view.trump,
        view.upcard,
        view.shown,
        order,
        tuple(h | b for h, b in zip(hands, played_by, strict=True)),
        view.tiebreak,
        card_order(p),
    )
    phase = view.phase
    return State(
        p,
        setup,
        deal,
        hands,
        tuple(-1 if b is None else b for b in view.bids),
        view.won,
        view.trick,
        view.leader,
        view.tricks,
        view.turn if view.turn is not None else -1,
        phase,
        view.scores,
        view.history,
        (),
    )
