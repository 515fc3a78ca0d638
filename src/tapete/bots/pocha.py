"""Pocha and Oh Hell bots: easy rules, medium card counting, hard determinized search.

* **easy** bids its aces, threes and high trumps, then plays like a casual player: when it still
  needs tricks it wins as cheaply as it can, otherwise it ducks with its highest safe card.
* **medium** counts cards: it knows which higher cards and trumps are still out, bids the sum of
  each card's chance of taking a trick, leads sure winners when it needs tricks, and when it does
  not, sheds its most dangerous cards under someone else's winner.
* **hard** samples deals consistent with its view (``sample_state``: voids and "could not beat"
  facts included) and, in each, tries every legal move: with few cards left the exact solver
  (``tapete.bots.solver``) finds the fewest and the most tricks it can end with, so it knows
  whether its bid stays makeable; with more, the medium policy plays the hand out for everyone.
  Bids are chosen the same way: for each sampled deal and each legal bid, the others bid as medium
  does and the hand is played out; the bid with the best mean score wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tapete.bots import Budget, Decision, RandomBot
from tapete.bots.solver import Position, solve
from tapete.cards import cards_of, suit_mask
from tapete.games import pocha
from tapete.tricks import Order, beats, trick_winner

__all__ = ["decide"]

SOLVE_CARDS = 4  # cards per hand at or below which hard solves each sampled deal exactly
_BID, _PLAY = pocha.Phase.BID, pocha.Phase.PLAY  # read in playouts: a global is faster


def decide(
    level: str, view: pocha.View, legal: list[int], rng: random.Random, budget: Budget
) -> Decision:
    if level == "hard":
        return _hard(view, legal, rng, budget)
    if view.phase == pocha.Phase.BID:
        estimate = _bid_estimate(view, careful=level == "medium")
        bid = _nearest_bid(estimate, legal)
        return Decision(bid, f"expects about {estimate:.1f} tricks")
    if view.hand is None:  # cannot happen outside ronda india, where cards play themselves
        return Decision(RandomBot().choose(view, legal, rng), "blind")
    card = _play_policy(
        hand=view.hand.mask,
        legal=sum(1 << c for c in legal),
        trick=view.trick,
        trump=view.trump,
        order=pocha.card_order(view.params),
        outstanding=_outstanding(view),
        need=_need(view),
        after=len(view.seats) - 1 - len(view.trick),
        careful=level == "medium",
    )
    return Decision(card, "wants a trick" if _need(view) > 0 else "ducks")


# --- shared facts --------------------------------------------------------------------------------


def _need(view: pocha.View) -> int:
    assert view.seat is not None
    bid = view.bids[view.seat]
    return (bid if bid is not None else 0) - view.won[view.seat]


def _outstanding(view: pocha.View) -> int:
    """Cards not in this hand, not played and not the turned card: somewhere else or undealt."""
    assert view.hand is not None
    played = 0
    for _, trick in view.tricks:
        for c in trick:
            played |= 1 << c
    for c in view.trick:
        played |= 1 << c
    mask = pocha.deck(view.params).mask & ~view.hand.mask & ~played
    return mask & ~(1 << view.upcard) if view.upcard >= 0 else mask


def _nearest_bid(estimate: float, legal: Sequence[int]) -> int:
    return min(legal, key=lambda a: (abs(a - pocha.BID - estimate), a))


def _bid_estimate(view: pocha.View, careful: bool) -> float:
    """Expected tricks: easy counts honours; medium weighs every card by what is still out."""
    if view.hand is None:  # ronda india: a blind one-card hand
        return _blind_estimate(view)
    hand, trump = view.hand.mask, view.trump
    order = pocha.card_order(view.params)
    outstanding = _outstanding(view)
    players = len(view.seats)
    total = 0.0
    for card in cards_of(hand):
        higher = (order.above[card] & outstanding).bit_count()
        is_trump = card >> 4 == trump
        if not careful:
            total += 1.0 if higher == 0 else (0.5 if is_trump and higher <= 2 else 0.0)
            continue
        if is_trump:
            mine = (hand & suit_mask(trump)).bit_count()
            total += (1.0, 0.75, 0.5)[higher] if higher < 3 else (0.3 if mine >= 3 else 0.1)
        else:
            length = (hand & suit_mask(card >> 4)).bit_count()
            base = (0.9, 0.4, 0.12)[higher] if higher < 3 else 0.02
            ruff_risk = 0.8 ** max(0, length - 1) if trump >= 0 else 1.0
            total += base * ruff_risk * (4 / max(players, 2)) ** 0.3
    return total


def _blind_estimate(view: pocha.View) -> float:
    """Ronda india: the seat sees every card in play but its own, and the cards play themselves.

    Its card is any card it cannot see, all equally likely; the estimate is the share of them
    that would take the trick against the cards it sees, played in turn.
    """
    assert view.seat is not None
    seen = {s: cards_of(h.mask)[0] for s, h in enumerate(view.hands) if h is not None and h.mask}
    if view.seat == view.dealer and view.shown >= 0:
        mine = [view.shown]  # the dealer's card was turned for trump: everyone saw it
    else:
        unseen = pocha.deck(view.params).mask & ~view.excluded[view.seat].mask
        for card in (*seen.values(), view.upcard, view.shown):
            if card >= 0:
                unseen &= ~(1 << card)
        mine = cards_of(unseen)
    order = pocha.card_order(view.params)
    wins = 0
    for card in mine:
        trick = [card if s == view.seat else seen[s] for s in view.seats]
        wins += view.seats[trick_winner(trick, view.trump, order)] == view.seat
    return wins / max(len(mine), 1)


def _play_policy(
    *,
    hand: int,
    legal: int,
    trick: Sequence[int],
    trump: int,
    order: Order,
    outstanding: int,
    need: int,
    after: int,
    careful: bool,
) -> int:
    """Easy (``careful=False``) or medium play: win cheaply when a trick is needed, else duck."""
    power = order.power
    cards = sorted(cards_of(legal), key=lambda c: power[c] + (100 if c >> 4 == trump else 0))
    trumps_out = outstanding & suit_mask(trump) if trump >= 0 else 0
    if not trick:
        if need > 0:
            if careful:
                sure = [
                    c
                    for c in cards
                    if not order.above[c] & outstanding and (c >> 4 == trump or not trumps_out)
                ]
                if sure:
                    return sure[-1]
            return cards[-1]
        if careful:
            # Lead where the most higher cards are out: someone else is likely to win it.
            return max(cards, key=lambda c: ((order.above[c] & outstanding).bit_count(), -power[c]))
        return cards[0]
    best = trick[trick_winner(trick, trump, order)]
    winners = [c for c in cards if beats(c, best, trump, order)]
    losers = [c for c in cards if c not in winners]
    if need > 0:
        if not winners:
            return cards[0]
        if after == 0 or not careful:
            return winners[0]
        safe = [
            c
            for c in winners
            if not order.above[c] & outstanding and (c >> 4 == trump or not trumps_out)
        ]
        return safe[0] if safe else winners[-1]
    if losers:
        return losers[-1]
    return winners[-1]


# --- hard: determinized search -------------------------------------------------------------------


def _hard(view: pocha.View, legal: list[int], rng: random.Random, budget: Budget) -> Decision:
    clock = budget.clock()
    totals = dict.fromkeys(legal, 0.0)
    made = dict.fromkeys(legal, 0)
    while clock.more():
        world = pocha.sample_state(view, rng)
        for action in legal:
            value, exact = _evaluate(world, action, rng)
            totals[action] += value
            made[action] += exact
        clock.tick()
    worlds = max(clock.done, 1)
    best = max(legal, key=lambda a: (totals[a], -a))
    mean = totals[best] / worlds
    what = pocha.format_action(view.params, best)
    return Decision(
        best,
        f"{what}: {mean:+.1f} points on average, bid made in "
        f"{100 * made[best] / worlds:.0f}% of {worlds} sampled deals",
    )


def _evaluate(world: pocha.State, action: int, rng: random.Random) -> tuple[float, int]:
    """The acting seat's hand score after ``action`` in a sampled deal, and whether it is exact."""
    seat, params = world.turn, world.params
    state = pocha.apply(world, action)
    while state.deal is world.deal and state.phase == _BID:
        state = pocha.apply(state, _medium_bid(state))
    if state.deal is world.deal and state.phase == _PLAY:
        if state.hands[seat].bit_count() <= SOLVE_CARDS:
            return _solved(state, seat)
        state = _rollout(state)
    # The hand is over: its score is the entry it added to the history.
    score = state.history[len(world.history)][seat]
    bid = state.bids[seat] if state.deal is world.deal else _final_bid(world, action, seat)
    return float(score), int(score == pocha.hand_score(params, bid, bid))


def _final_bid(world: pocha.State, action: int, seat: int) -> int:
    bid = world.bids[seat]
    return action - pocha.BID if bid < 0 else bid


def _medium_bid(state: pocha.State) -> int:
    view = pocha.observe(state, state.turn)
    return _nearest_bid(_bid_estimate(view, careful=True), pocha.legal_actions(state))


def _rollout(state: pocha.State) -> pocha.State:
    """Play the current hand out with the medium policy for every seat (cards all known)."""
    deal = state.deal
    order = deal.order
    unplayed = 0
    for h in state.hands:
        unplayed |= h
    while state.deal is deal and state.phase == _PLAY:
        seat = state.turn
        hand = state.hands[seat]
        legal = pocha.legal_cards(state)
        card = _play_policy(
            hand=hand,
            legal=legal,
            trick=state.trick,
            trump=deal.trump,
            order=order,
            outstanding=unplayed & ~hand,
            need=state.bids[seat] - state.won[seat],
            after=len(deal.seats) - 1 - len(state.trick),
            careful=True,
        )
        unplayed &= ~(1 << card)
        state = pocha.apply(state, card)
    return state


def _solved(state: pocha.State, seat: int) -> tuple[float, int]:
    """Exact: the fewest and most tricks this seat can end with, and what that is worth."""
    deal = state.deal
    pos = Position(
        hands=state.hands,
        seats=deal.seats,
        trick=state.trick,
        leader=state.leader,
        trump=deal.trump,
        order=deal.order,
        obligation=state.params.obligation,
        must_underruff=state.params.must_underruff,
    )
    others = set(deal.seats) - {seat}
    most = solve(pos, {seat}, {seat})
    fewest = solve(pos, {seat}, others)
    need = state.bids[seat] - state.won[seat]
    bid = state.bids[seat]
    if fewest <= need <= most:
        return float(pocha.hand_score(state.params, bid, bid)), 1
    won = state.won[seat] + (fewest if need < fewest else most)
    return float(pocha.hand_score(state.params, bid, won)), 0
