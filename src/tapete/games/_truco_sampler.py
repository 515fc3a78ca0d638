"""Truco's ``sample_state``: a full state consistent with a view, for search.

The cards the view does not show (hidden hands, face-down plays, the rest of the deck) are dealt
at random; then a deck order is stacked that deals those hands under the same vira.
"""

from __future__ import annotations

import random

from tapete.cards import Card, cards_of
from tapete.chance import dealt_order
from tapete.game import Setup
from tapete.games.truco import DOWN, TIE, Deal, Play, State, View, deck_of, powers

__all__ = ["sample_state"]


def sample_state(view: View, rng: random.Random) -> State:
    """``truco.sample_state`` (its docstring states the contract), as this module describes."""
    p = view.params
    n = p.players
    rounds = (*((r.leader, r.plays) for r in view.tricks), (view.leader, view.trick))
    known = [h.mask if h is not None else -1 for h in view.hands]
    seen = 1 << view.upcard
    hidden = [0] * n  # face-down cards this view does not show, per seat
    for _, shown in rounds:
        for play in shown:
            if play.card >= 0:
                seen |= 1 << play.card
            else:
                hidden[play.seat] += 1
    for mask in known:
        if mask > 0:
            seen |= mask
    pool = cards_of(deck_of(p.deck).mask & ~seen)
    rng.shuffle(pool)
    hands: list[int] = []
    covered: list[list[Card]] = []
    for s in range(n):
        if known[s] >= 0:
            assert hidden[s] == 0, "a seat that sees a hand sees its face-down cards"
            hands.append(known[s])
            covered.append([])
            continue
        take = view.hand_sizes[s] + hidden[s]
        cards, pool = pool[:take], pool[take:]
        covered.append(cards[: hidden[s]])
        hands.append(sum(1 << c for c in cards[hidden[s] :]))

    def encode(plays: tuple[Play, ...]) -> tuple[int, ...]:
        out = []
        for play in plays:
            card = play.card if play.card >= 0 else covered[play.seat].pop()
            out.append(DOWN + card if play.down else card)
        return tuple(out)

    tricks = tuple((r.leader, encode(r.plays)) for r in view.tricks)
    trick = encode(view.trick)
    dealt = list(hands)
    for leader, encoded in (*tricks, (view.leader, trick)):
        for i, code in enumerate(encoded):
            dealt[(leader + i) % n] |= 1 << (code & 127)
    order = []
    for s in range(n):
        cards = cards_of(dealt[s])
        rng.shuffle(cards)  # a blind seat's positions are unknown to it
        order.append(tuple(cards))
    stack = dealt_order(order, (view.dealer + 1) % n, [view.upcard, *pool])
    special = view.special
    deal = Deal(
        number=view.deal,
        dealer=view.dealer,
        vira=view.upcard,
        manilha=view.manilha,
        power=powers(p.deck, view.manilha),
        deck=stack,
        dealt=tuple(dealt),
        order=tuple(order),
        special=special,
        eleven_team=-1 if view.eleven_team is None else view.eleven_team,
        blind=view.blind,
    )
    return State(
        params=p,
        setup=Setup(seed=rng.getrandbits(32)),
        deal=deal,
        hands=tuple(hands),
        trick=trick,
        leader=view.leader,
        tricks=tricks,
        results=tuple(TIE if r.result is None else r.result for r in view.tricks),
        turn=-1 if view.turn is None else view.turn,
        phase=view.phase,
        stake=view.stake,
        raised_by=-1 if view.raised_by is None else view.raised_by,
        proposal=view.proposal or 0,
        proposer=-1 if view.proposer is None else view.proposer,
        resume=-1 if view.resume is None else view.resume,
        ran=view.ran,
        scores=view.scores,
        history=view.history,
        last=(),
    )
