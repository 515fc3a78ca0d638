"""Pocha and Oh Hell bots: easy rules, medium card counting, hard determinized search.

* **easy** bids a trick for each card with no higher one of its suit out (an ace, a three held
  with its ace) and half of one for a high trump, then plays like a casual player: when it still
  needs tricks it wins as cheaply as it can, otherwise it ducks with its highest safe card.
* **medium** counts cards: it knows which higher cards and trumps are still out, bids the sum of
  each card's chance of taking a trick, leads sure winners when it needs tricks, and when it does
  not, sheds its most dangerous cards under someone else's winner. Once over its bid in Oh Hell
  (where every trick scores a point) it plays for tricks again.
* **hard** (and **expert**, with more time) is the information-set search of
  ``tapete.bots.search`` over deals drawn from its view, valued by the hand's score. What it knows
  of this game (``Knowledge``): an information set is the seat's hand and the bids and cards
  played (all public); the prior favours the bids nearest medium's estimate and medium's card
  (then the card it would play with the opposite aim), which is also how the tree first models
  the other seats; playouts bid like medium and play uniformly random cards (see ``PLAYOUT``),
  but below a card decision at a table of five or more they play medium's cards
  (``MEDIUM_PLAY_FROM``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from tapete.bots import Budget, Decision, RandomBot, Reason, search
from tapete.cards import cards_of, suit_mask
from tapete.chance import deal_constrained
from tapete.game import Rules
from tapete.games import pocha
from tapete.tricks import Obligation, Order, beats, legal_over, trick_winner

__all__ = ["Knowledge", "decide", "knowledge"]

UNIT = "points"  # what a deal's returns count, in reasons and reviews

# How hard's playouts play the cards: "random" (uniformly random legal cards) measured better than
# "medium" against a strong search in Oh Hell: medium's fixed ducking and winning makes a bid's
# playouts too predictable, and hard ended above its bid more often (see docs/bots.md).
PLAYOUT = "random"
# From this many seats on, the playouts below a card decision play medium's cards instead (a bid
# is still valued by random playouts, every bid on the same deal): with five hands of five, four
# random cards a trick drown the tricks a seat can steer, and against hard-v1 at five players
# medium's cards measured better (see docs/bots.md); four players and Oh Hell keep random cards.
MEDIUM_PLAY_FROM = 5
_BID, _PLAY, _OVER = pocha.Phase  # read in playouts: a global is faster
# How hard reads the others' bids: a seat's bid is taken to be medium's estimate of its hand give
# or take READ_SPREAD tricks (a bell curve), and the search draws READ_DEALS deals for each one it
# keeps, by that fit (0 reads nothing).
READ_SPREAD = 1.0
READ_DEALS = 2


def decide(
    level: str, view: pocha.View, legal: list[int], rng: random.Random, budget: Budget
) -> Decision:
    if level == "hard":
        return search.decide(view, legal, rng, budget, knowledge(view), UNIT)
    if view.phase == pocha.Phase.BID:
        estimate = (
            _bid_estimate(view, careful=level == "medium")
            if view.hand is not None
            else _blind_view_estimate(view)
        )
        bid = _nearest_bid(estimate, legal)
        wanted = _nearest_bid(estimate, range(pocha.BID, pocha.BID + view.hand_size + 1))
        if wanted != bid:  # the dealer's hook: "bid 3: expects about 2.2 tricks" read as a slip
            return Decision(
                bid,
                Reason(
                    "expects about {n:.1f} tricks; the dealer's hook forbids {b}",
                    n=estimate,
                    b=wanted - pocha.BID,
                ),
            )
        return Decision(bid, Reason("expects about {n:.1f} tricks", n=estimate))
    if view.hand is None:  # cannot happen outside ronda india, where cards play themselves
        return Decision(RandomBot().choose(view, legal, rng), Reason("a guess"))
    # The reason follows the aim the card was chosen for: medium over its bid in Oh Hell plays to
    # win again, and said it ducked.
    need = _aim(_need(view), view.params) if level == "medium" else _need(view)
    card = _play_policy(
        hand=view.hand.mask,
        legal=sum(1 << c for c in legal),
        trick=view.trick,
        trump=view.trump,
        order=pocha.card_order(view.params),
        outstanding=_outstanding(view),
        need=need,
        after=len(view.seats) - 1 - len(view.trick),
        careful=level == "medium",
    )
    return Decision(card, Reason("wants a trick" if need > 0 else "ducks"))


# --- shared facts --------------------------------------------------------------------------------


def _aim(need: int, params: pocha.Params) -> int:
    """The tricks a careful player still plays for: once over its bid in Oh Hell, where a missed
    bid still scores its tricks, every further trick is a point, so it plays to win again."""
    return 1 if need < 0 and params.scoring == "oh_hell" else need


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
    assert view.hand is not None
    return _estimate(
        view.hand.mask,
        view.trump,
        pocha.card_order(view.params),
        _outstanding(view),
        len(view.seats),
        careful,
    )


def _blind_view_estimate(view: pocha.View) -> float:
    """Ronda india: the chance that the card this seat cannot see takes the trick."""
    assert view.seat is not None
    seen = [h.mask if h is not None else 0 for h in view.hands]
    order = pocha.card_order(view.params)
    deck = pocha.deck(view.params).mask
    return _blind_chance(seen, view.seat, view.seats, view.trump, order, deck, view.upcard)


def _blind_chance(
    seen: Sequence[int],
    seat: int,
    seats: Sequence[int],
    trump: int,
    order: Order,
    deck: int,
    upcard: int,
) -> float:
    """The chance that ``seat``'s unseen card, one of the cards of ``deck`` it cannot see, beats
    the others' cards it sees (a one-card hand led by mano): every candidate card counted once."""
    unseen = deck
    for s in seats:
        if s != seat:
            unseen &= ~seen[s]
    if upcard >= 0:
        unseen &= ~(1 << upcard)
    mine = seats.index(seat)
    candidates = cards_of(unseen)
    wins = 0
    for card in candidates:
        trick = [card if s == seat else seen[s].bit_length() - 1 for s in seats]
        wins += trick_winner(trick, trump, order) == mine
    return wins / max(1, len(candidates))


def _estimate(
    hand: int, trump: int, order: Order, outstanding: int, players: int, careful: bool
) -> float:
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


# --- hard: what the search knows ---------------------------------------------------------------


def knowledge(view: pocha.View) -> Knowledge:
    """The search's knowledge of Pocha or Oh Hell, for a search from ``view``."""
    return Knowledge(view.params)


class Knowledge(search.Knowledge[pocha.State]):
    """Pocha and Oh Hell for ``tapete.bots.search``: the horizon is the end of the hand."""

    rules: Rules[pocha.State, Any] = pocha  # annotated, or mypyc leaves it unset

    def __init__(self, params: pocha.Params) -> None:
        self.params = params
        # A hand's scores spread over about a trick's worth plus the exact-bid bonus.
        self.scale = 10.0 if params.scoring == "oh_hell" else 20.0
        self.blind = params.ronda_india

    def sampler(self, view: pocha.View) -> Callable[[random.Random], pocha.State]:
        """Deals drawn from the view and read by the bids of the seats whose cards are hidden
        (``_bid_fit``): a seat that bid four holds more winners than one that bid nothing."""
        draw = _sampler(view)
        bids = [
            (s, bid)
            for s, bid in enumerate(view.bids)
            if bid is not None and s != view.seat and view.hands[s] is None
        ]
        if not bids or self.blind or READ_SPREAD <= 0:
            return draw
        deck = pocha.deck(view.params).mask & ~(1 << view.upcard if view.upcard >= 0 else 0)
        order = pocha.card_order(view.params)
        players = len(view.seats)
        suits = [m for m in map(suit_mask, range(8)) if deck & m]
        # Medium's estimate is a sum over suits, each depending on the seat's cards of that suit
        # alone: holdings are valued once and looked up after.
        worth: dict[int, float] = {}

        def fit(world: pocha.State) -> float:
            dealt = world.deal.dealt
            miss = 0.0
            for s, bid in bids:
                expected = 0.0
                for m in suits:
                    held = dealt[s] & m
                    if held not in worth:
                        worth[held] = _estimate(
                            held, view.trump, order, deck & ~held, players, True
                        )
                    expected += worth[held]
                miss += (bid - expected) ** 2
            return math.exp(-miss / (2 * READ_SPREAD**2))

        return search.read(draw, fit, READ_DEALS)

    def deal_over(self, start: pocha.State, state: pocha.State) -> bool:
        return state.deal is not start.deal or state.phase == _OVER

    def returns(self, start: pocha.State, state: pocha.State) -> tuple[int, ...]:
        return state.history[len(start.history)]

    def key(self, state: pocha.State) -> Hashable:
        """The seat's own hand (others' cards in a blind hand) and what everyone has seen."""
        seat = state.turn
        if self.blind and state.deal.size == 1:
            seen = tuple(h if s != seat else -1 for s, h in enumerate(state.hands))
            return (seat, seen, state.bids, state.trick)
        return (seat, state.hands[seat], state.bids, state.tricks, state.trick)

    def prior(self, state: pocha.State, actions: Sequence[int]) -> list[float]:
        if state.phase == _BID:
            estimate = _state_estimate(state, state.turn)
            return [math.exp(-((a - pocha.BID - estimate) ** 2) / 4) for a in actions]
        # Medium's card first, then the card medium would play with the opposite aim (duck
        # rather than win, or win rather than duck): the choice that matters most in a trick.
        card = _state_card(state, state.turn)
        other = _state_card(state, state.turn, flip=True)
        return [1.0 if a == card else 0.5 if a == other else 0.1 for a in actions]

    def rollout(
        self, start: pocha.State, state: pocha.State, rng: random.Random
    ) -> tuple[int, ...]:
        medium = PLAYOUT != "random" or (
            state.phase == _PLAY and len(state.deal.seats) >= MEDIUM_PLAY_FROM
        )
        return _rollout(state, None if medium else rng)[0]

    def joint(
        self, world: pocha.State, plans: Sequence[tuple[int, ...]], rng: random.Random
    ) -> list[float] | None:
        """A bid: the playout's cards are random, whatever the bids, so the tricks the seat takes
        in one playout score every bid it might make (``hand_score``), on the same deal."""
        if world.phase != _BID or PLAYOUT != "random":
            return None
        seat = world.turn
        _, won = _rollout(pocha.apply(world, plans[0][0]), rng)
        return [pocha.hand_score(self.params, p[0] - pocha.BID, won[seat]) for p in plans]


def _sampler(view: pocha.View) -> Callable[[random.Random], pocha.State]:
    """``sample_state`` for one view, its facts worked out once: deals of the unseen cards.

    Draws from the same distribution as ``pocha.sample_state`` (uniform among the deals that
    honour the voids and "could not beat" facts, by the same dealer), without laying the deal out
    as a deck: a search never deals the next hand of a sampled state."""
    template = pocha.sample_state(view, random.Random(0))
    n = view.params.players
    known = [h.mask if h is not None else -1 for h in view.hands]
    deal = template.deal
    played = [d & ~h for d, h in zip(deal.dealt, template.hands, strict=True)]
    pinned = [0] * n
    if view.shown >= 0 and not played[view.dealer] >> view.shown & 1 and known[view.dealer] < 0:
        pinned[view.dealer] = 1 << view.shown
    unseen = 0
    for s in range(n):
        if known[s] < 0:
            unseen |= template.hands[s] & ~pinned[s]
    stock = pocha.deck(view.params).mask
    for s in range(n):
        stock &= ~(deal.dealt[s] | (known[s] if known[s] > 0 else 0))
    if view.upcard >= 0:
        stock &= ~(1 << view.upcard)
    unseen |= stock
    sizes = [0 if known[s] >= 0 else view.hand_sizes[s] - pinned[s].bit_count() for s in range(n)]
    sizes.append(unseen.bit_count() - sum(sizes))
    excluded = [*(m.mask for m in view.excluded), 0]
    free = not any(excluded[s] & unseen for s in range(n) if sizes[s])
    cards = cards_of(unseen)
    bounds = [0]
    for size in sizes:
        bounds.append(bounds[-1] + size)

    def draw(rng: random.Random) -> pocha.State:
        if free:
            rng.shuffle(cards)
            dealt = [0] * (n + 1)
            for s in range(n + 1):
                for c in cards[bounds[s] : bounds[s + 1]]:
                    dealt[s] |= 1 << c
        else:
            dealt = deal_constrained(unseen, sizes, excluded, rng)
        hands = tuple(known[s] if known[s] >= 0 else dealt[s] | pinned[s] for s in range(n))
        d = pocha.Deal(
            deal.number,
            deal.size,
            deal.dealer,
            deal.seats,
            deal.after,
            deal.trump,
            deal.upcard,
            deal.shown,
            (),  # no deck order: the search stops at the end of this hand
            tuple(h | p for h, p in zip(hands, played, strict=True)),
            deal.tiebreak,
            deal.order,
        )
        return template._with(deal=d, hands=hands)

    return draw


def _state_outstanding(state: pocha.State, seat: int) -> int:
    """What ``seat`` counts as still out: cards not in its hand, not played, not turned up
    (every seat's hand counts as out for ``seat=-1``)."""
    deal = state.deal
    unplayed = 0
    for h in state.hands:
        unplayed |= h
    dealt = 0
    for h in deal.dealt:
        dealt |= h
    played = dealt & ~unplayed
    out = pocha.deck(state.params).mask & ~played
    if seat >= 0:
        out &= ~state.hands[seat]
    return out & ~(1 << deal.upcard) if deal.upcard >= 0 else out


def _state_estimate(state: pocha.State, seat: int) -> float:
    deal = state.deal
    if state.params.ronda_india and deal.size == 1:
        deck = pocha.deck(state.params).mask
        return _blind_chance(
            state.hands, seat, deal.seats, deal.trump, deal.order, deck, deal.upcard
        )
    return _estimate(
        state.hands[seat],
        deal.trump,
        deal.order,
        _state_outstanding(state, seat),
        len(deal.seats),
        careful=True,
    )


def _state_card(state: pocha.State, seat: int, flip: bool = False) -> int:
    deal = state.deal
    hand = state.hands[seat]
    need = _aim(state.bids[seat] - state.won[seat], state.params)
    return _play_policy(
        hand=hand,
        legal=pocha.legal_cards(state),
        trick=state.trick,
        trump=deal.trump,
        order=deal.order,
        outstanding=_state_outstanding(state, seat),
        need=(1 if need <= 0 else 0) if flip else need,
        after=len(deal.seats) - 1 - len(state.trick),
        careful=True,
    )


def _rollout(
    state: pocha.State, rng: random.Random | None = None
) -> tuple[tuple[int, ...], list[int]]:
    """The hand played out for every seat, the bids still to come made as medium would: by
    medium, each seat aiming at its own bid, or with ``rng`` by uniformly random cards. The
    seats' scores for the hand and the tricks each took.

    Plays on bitmasks and lists rather than states: this loop is the search's hot path."""
    params, deal = state.params, state.deal
    seats, after, trump, order = deal.seats, deal.after, deal.trump, deal.order
    bids = list(state.bids)
    turn = state.turn
    if state.phase == _BID:
        # Later bidders bid as medium would (the hook included), then mano leads.
        while True:
            bid = _nearest_bid(_state_estimate(state, turn), pocha.legal_actions(state))
            bid -= pocha.BID
            bids[turn] = bid
            if turn == deal.dealer:
                break
            state = pocha.apply(state, bid + pocha.BID)
            turn = state.turn
        turn = seats[0]
        trick: list[int] = []
        best, winner = -1, -1
    else:
        trick = list(state.trick)
        best, winner = state.winning
    hands = list(state.hands)
    won = list(state.won)
    obligation: Obligation = params.obligation
    underruff = params.must_underruff
    beaters = deal.beaters
    unplayed = 0
    for h in hands:
        unplayed |= h
    # What a seat counts as out, as medium does: everything not played and not turned up,
    # the undealt cards included (a seat cannot tell them from the other hands).
    live = _state_outstanding(state, -1)
    players = len(seats)
    led = trick[0] >> 4 if trick else -1
    draw = rng.random if rng is not None else None
    while unplayed:
        hand = hands[turn]
        legal = legal_over(hand, led, best, trump, beaters, obligation, underruff)
        if legal & (legal - 1) == 0:
            card = legal.bit_length() - 1
        elif draw is not None:
            for _ in range(int(draw() * legal.bit_count())):
                legal &= legal - 1  # drop the lowest card: the k-th card, uniformly
            card = (legal & -legal).bit_length() - 1
        else:
            card = _play_policy(
                hand=hand,
                legal=legal,
                trick=trick,
                trump=trump,
                order=order,
                outstanding=live & ~hand,
                need=_aim(bids[turn] - won[turn], params),
                after=players - 1 - len(trick),
                careful=True,
            )
        hands[turn] = hand & ~(1 << card)
        unplayed &= ~(1 << card)
        live &= ~(1 << card)
        trick.append(card)
        if best < 0 or beaters[best] >> card & 1:
            best, winner = card, turn
        if len(trick) == players:
            won[winner] += 1
            turn = winner
            trick = []
            best, led = -1, -1
        else:
            if len(trick) == 1:
                led = card >> 4
            turn = after[turn]
    scores = tuple(
        pocha.hand_score(params, bids[s], won[s]) if s in seats else 0
        for s in range(params.players)
    )
    return scores, won
