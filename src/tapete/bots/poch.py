"""Poch bots: easy hand-strength rules, medium card counting, hard information-set search.

The melding is automatic, so a Poch player decides two things: how to bet in the poker round and
which card to lead in the shedding race.

* **easy** bets by its set (three or four of a kind bets and raises, a high pair or a pair
  holding trump bets small and calls small bets, a low pair calls one chip, no set passes) and
  leads the card that starts its longest run of its own cards, lowest first.
* **medium** counts cards: it deals the cards it cannot see (not its own, not shown at melding
  or at a showdown, not played, not known out of play) to the players still in, a couple of
  hundred times, and bets, calls or raises by its chance of the best hand against the pot odds.
  In the race it follows each possible lead up its suit: its own cards shed, where the run stops
  for certain (the Ace, a card played or known out of play), where someone else takes it over,
  and how likely an unseen next card is out of play, which gives it the lead back.
* **hard** (and **expert**, with more time) is the information-set search of
  ``tapete.bots.search`` over deals drawn from its view (``sample_state``: the Sequence bowl's
  verdict included); in the poker round they are drawn from a growing pool in proportion to
  how likely the others' bets, calls and passes were with the hands each deal gives them (a bet
  or raise bigger than medium would make on an ordinary hand is read as a strong one), in the
  race every deal the view allows counts alike. What it knows of this game
  (``Knowledge``): the horizon is the end of the round, valued by the chips it moves (the Pinke,
  the race's payments, a fair share of what stays in the bowls). A bet is valued where it is
  made: every other player still to match it calls (by the model: his hand's equity against the
  pot odds) or folds, each combination weighed and settled by its showdown, then the race is
  played out as the hands stand; only pass, call and four bet sizes compete (the smallest,
  medium's, twice medium's, the largest). In the race the leads are moves of the tree; playouts
  lead as medium counts the race, on bare card masks, and near the race's end
  (``SOLVE_CARDS``) each drawn deal is searched exactly, every player leading for his own chips
  (max-n with a table). Its bets are mixed so that they are no fixed rule of its cards: it
  draws among the bets as good as the best within its sampled deals' noise, and when it would
  pass first it bets the smallest now and then, as often as poker's bluffing odds allow.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from tapete.bots import Budget, Decision, Reason, search, searched
from tapete.cards import cards_of, format_card
from tapete.game import Rules
from tapete.games import poch
from tapete.games.poch import CALL, PASS, PINKE, POCH

_POKER, _SHED, _OVER = poch.Phase  # read in playouts: a global is faster

__all__ = ["Knowledge", "decide", "knowledge"]

UNIT = "chips"  # what a deal's returns count, in reasons and reviews

Value = tuple[Any, ...]  # a hand's showdown value, ``poch.hand_value``

MEDIUM_SAMPLES = 200  # deals medium draws to estimate its chance of the best hand
EPSILON = 0.15  # how often the search's model of the others lets them act out of character
# Bet sizes read as strength, by medium's sizing: an opening bet above 1 + 0.7 of the pot only
# comes with a chance above 70%, a raise above 1 + 0.3 of the pot and the call with one near 85%.
BIG_BET = 0.7
BIG_RAISE = 0.3
READ_DEALS = 4  # deals the search draws for each one it keeps, by how well the bets fit them
SOLVE_CARDS = 14  # cards left in all hands at or below which hard searches a race exactly
RACE_NODES = 20_000  # positions one exact race search may visit before it gives up (then: playouts)


def decide(
    level: str, view: poch.View, legal: list[int], rng: random.Random, budget: Budget
) -> Decision:
    if level == "hard":
        if view.phase != _POKER:
            return search.decide(view, legal, rng, budget, knowledge(view), UNIT)
        return _hard_bet(view, legal, rng, budget)
    if view.phase == poch.Phase.POKER:
        if level == "medium":
            return _medium_bet(view, legal, rng)
        return _easy_bet(view, legal)
    if level == "medium":
        card = _medium_lead(_facts(view))
        return Decision(
            card, Reason("sheds the most and keeps the lead with {card}", card=format_card(card))
        )
    card = max(legal, key=lambda c: (_own_run(view, c), -(c & 15), -c))
    return Decision(card, Reason("starts its longest run with {card}", card=format_card(card)))


# --- shared facts --------------------------------------------------------------------------------


def _me(view: poch.View) -> int:
    assert view.seat is not None
    return view.seat


def _hand(view: poch.View) -> int:
    hand = view.hand
    assert hand is not None
    return hand.mask


def _live(view: poch.View) -> list[int]:
    """The other players still in the poker round."""
    me = _me(view)
    return [s for s in view.seats if s != me and not view.folded[s]]


def _beats(mine: Value, me: int, other: Value, seat: int, seats: Sequence[int]) -> bool:
    """Whether ``me`` beats ``seat`` at a showdown (a complete tie: nearer the dealer's left)."""
    return mine > other or (mine == other and seats.index(me) < seats.index(seat))


# --- easy and medium betting ---------------------------------------------------------------------


def _strength(hand: int, trump: int) -> float:
    """Easy's reading of a hand: 0 no set, 1 low pair, 2 high or trump pair, 3+ three or four."""
    size, rank, holds_trump, _, _ = poch.hand_value(hand, trump)
    if size >= 3:
        return float(size)
    if size == 2:
        return 2.0 if rank >= 12 or holds_trump else 1.0
    return 0.0


_RANKS_SAID = {14: "aces", 13: "kings", 12: "queens", 11: "jacks", 10: "tens", 9: "nines",
               8: "eights", 7: "sevens", 6: "sixes", 5: "fives", 4: "fours", 3: "threes",
               2: "twos"}  # fmt: skip
_HIGH_RANKS = {14: "A", 13: "K", 12: "Q", 11: "J"}


def _hand_said(hand: int, trump: int) -> Reason:
    """The hand's name (``poch.hand_name``) as a reason, so that the narrator words it in every
    language: as plain text it stayed English inside a Spanish or Portuguese reason.

    >>> from tapete.cards import CardSet
    >>> str(_hand_said(CardSet.parse("9c 9s 9d 8c Jh", french=True).mask, 5))
    'three nines'
    >>> str(_hand_said(CardSet.parse("As Kh Tc 9d 8s", french=True).mask, 5))
    'high card A K 10 9 8'
    """
    size, rank, _, ranks, _ = poch.hand_value(hand, trump)
    if size == 1:
        # The ten as the table draws it, 10: "T" is the English notation's letter for it, and
        # read as no card at all inside a Spanish or Portuguese reason.
        high = " ".join(_HIGH_RANKS.get(r, str(r)) for r in ranks)
        return Reason("high card {ranks}", ranks=high)
    said = Reason(_RANKS_SAID[rank])
    if size == 2:
        return Reason("pair of {rank}", rank=said)
    return Reason("three {rank}" if size == 3 else "four {rank}", rank=said)


def _easy_bet(view: poch.View, legal: list[int]) -> Decision:
    strength = _strength(_hand(view), view.trump)
    name = _hand_said(_hand(view), view.trump)
    to_call = view.to_call
    if to_call == 0:
        size = {4.0: 3, 3.0: 2, 2.0: 1}.get(strength, 0)
        return _bet_or(legal, PASS, poch.bet_action(size) if size else PASS, name)
    if strength >= 3:
        return _bet_or(legal, CALL, poch.raise_action(int(strength) - 2), name)
    limit = {2.0: 3, 1.0: 1}.get(strength, 0)
    if to_call <= limit:
        return Decision(CALL, Reason("{hand}: worth {n} to see", hand=name, n=to_call))
    return Decision(PASS, Reason("{hand}: not worth {n}", hand=name, n=to_call))


def _bet_or(legal: list[int], fallback: int, action: int, name: Reason) -> Decision:
    if action not in legal:
        action = max((a for a in legal if a > CALL and a & 1 == action & 1), default=fallback)
    if action == PASS:
        return Decision(PASS, Reason("{hand}: nothing to bet on", hand=name))
    return Decision(action, Reason("{hand}: bets on it", hand=name))


def _unseen(view: poch.View) -> int:
    """Cards whose place this seat does not know: in a hidden hand or out of play unseen."""
    mask = poch.deck(view.params).mask & ~_hand(view) & ~view.played.mask
    mask &= ~view.out_of_play.mask
    for s in view.seats:
        full = view.hands[s]
        mask &= ~(full.mask if full is not None else view.known[s].mask)
    return mask


def _win_chance(view: poch.View, rng: random.Random, samples: int) -> float:
    """Medium: how often this hand beats every player still in, the unseen cards dealt at random."""
    me, trump, seats = _me(view), view.trump, view.seats
    mine = poch.hand_value(_hand(view), trump)
    pool = cards_of(_unseen(view))
    rivals = []
    for s in _live(view):
        full = view.hands[s]
        fixed = full.mask if full is not None else view.known[s].mask
        room = 0 if full is not None else view.hand_sizes[s] - len(view.known[s])
        rivals.append((s, fixed, room))
    wins = 0
    for _ in range(samples):
        rng.shuffle(pool)
        i, won = 0, True
        for s, fixed, room in rivals:
            hand = fixed | sum(1 << c for c in pool[i : i + room])
            i += room
            if not _beats(mine, me, poch.hand_value(hand, trump), s, seats):
                won = False
                break
        wins += won
    return wins / samples


def _medium_bet(view: poch.View, legal: list[int], rng: random.Random) -> Decision:
    return _bet_by(view, legal, _win_chance(view, rng, MEDIUM_SAMPLES))


def _bet_by(view: poch.View, legal: list[int], chance: float) -> Decision:
    """Medium's bet for a ``chance`` of holding the best hand: open above 35%, call when the
    chance beats the pot odds, raise above 70%, sized by the pot."""
    pot = view.bowls[PINKE] + view.bowls[POCH]
    to_call = view.to_call
    why = Reason("best hand {p:.0%} of the time", p=chance)
    if to_call == 0:
        if chance < 0.35:
            return Decision(PASS, why)
        size = 1 + int(chance * pot) + (2 if chance > 0.7 else 0)
        return _sized(legal, PASS, size, why)
    if chance > 0.7:
        return _sized(legal, CALL, 1 + int((chance - 0.7) * 2 * (pot + to_call)), why)
    if chance * (pot + to_call) >= to_call:
        return Decision(CALL, why)
    return Decision(PASS, why)


def _sized(legal: list[int], base: int, size: int, why: Reason) -> Decision:
    """The bet (after ``PASS``) or raise (after ``CALL``) of ``size``, or the largest allowed."""
    options = [a for a in legal if a > CALL and a & 1 == base & 1]
    if not options:
        return Decision(CALL if CALL in legal else PASS, why)
    return Decision(min(options, key=lambda a: abs((a - base) // 2 - size)), why)


# --- easy and medium leads -----------------------------------------------------------------------


def _own_run(view: poch.View, card: int) -> int:
    """How many of its own cards in a row a lead of ``card`` sheds."""
    hand, n = _hand(view), 0
    while hand >> card & 1:
        n += 1
        if card & 15 == 14:
            break
        card += 1
    return n


class _Facts:
    """What a seat knows in the race: its hand, where runs stop, cards seen in other hands."""

    __slots__ = ("hand", "low", "others", "p_out", "stops")

    def __init__(self, hand: int, stops: int, others: int, p_out: float, low: int) -> None:
        self.hand, self.stops, self.others, self.p_out, self.low = hand, stops, others, p_out, low


def _facts(view: poch.View) -> _Facts:
    """Medium's count: cards played or known out of play stop a run; the unseen cards are
    out of play in proportion to how many of them must be."""
    hand = _hand(view)
    stops = view.played.mask | view.out_of_play.mask
    others = 0
    for s in view.seats:
        if s != view.seat:
            full = view.hands[s]
            others |= full.mask if full is not None else view.known[s].mask
    unseen = _unseen(view) & ~others
    dealt = sum(view.hand_sizes) + len(view.played)
    hidden_out = poch.deck(view.params).size - dealt - len(view.out_of_play)
    low = poch.deck(view.params).cards[0] & 15
    return _Facts(hand, stops, others, hidden_out / max(1, unseen.bit_count()), low)


def _lead_value(f: _Facts, card: int) -> float:
    """Medium: the cards a lead sheds and the chance of leading again, from what is known."""
    hand, stops, others, p_out = f.hand, f.stops, f.others, f.p_out
    sure, shed, keep, running, last_mine = 1, 1.0, 0.0, 1.0, 1.0
    theirs = 0.0
    n = card
    while True:
        if n & 15 == 14:
            keep += last_mine
            break
        n += 1
        if hand >> n & 1:
            shed += running
            sure += running == 1.0
            last_mine = running
        elif stops >> n & 1:
            keep += last_mine
            break
        elif others >> n & 1:
            theirs += running
            last_mine = 0.0
        else:
            keep += p_out * last_mine
            running *= 1 - p_out
            theirs += running
            last_mine = 0.0
            if running < 0.02:
                break
    if sure >= hand.bit_count():
        return 100.0
    # A card nobody can play after (lowest of its suit, or its predecessor gone) leaves only
    # by a lead; others may still be carried off by someone else's run.
    low = card & 15 == f.low or stops >> (card - 1) & 1
    return shed + 1.5 * keep - 0.3 * theirs + (0.4 if low else 0.0)


def _medium_lead(f: _Facts) -> int:
    return max(cards_of(f.hand), key=lambda c: (_lead_value(f, c), -c))


# --- hard's bets: the search's, mixed ---------------------------------------------------------


def _hard_bet(view: poch.View, legal: list[int], rng: random.Random, budget: Budget) -> Decision:
    """The search's bet, drawn among those as good as the best within the noise of its sampled
    deals; a pass when nobody has bet yet turns now and then into the smallest bet (a bluff)."""
    stats = search.search(view, legal, rng, budget, knowledge(view))
    action = stats.close[rng.randrange(len(stats.close))]
    bluff = False
    small = poch.bet_action(1)
    if action == PASS and view.to_call == 0 and small in legal:
        # Bluffs are to value bets as the caller's pot odds allow (s / (P + s) for a bet s into
        # a pot P) when half the hands open for value; each player still in must fold to it.
        pot = view.bowls[PINKE] + view.bowls[POCH]
        rate = 1 / (pot + 1) / max(1, len(_live(view)))
        if stats.means[small] > -1 and rng.random() < rate:
            action, bluff = small, True
    what = poch.format_action(view.params, action)
    reason = searched([what], stats.means[action], UNIT, stats.visits[action])
    if bluff:
        reason = Reason("{why} (a bluff)", why=reason)
    return Decision(action, reason)


# --- the search's model of the others' bets ------------------------------------------------------


@lru_cache(maxsize=32)
def _strength_table(players: int, size: int) -> tuple[tuple[Any, ...], ...]:
    """The sorted values of 3000 random hands of ``size`` cards: percentiles for the model."""
    rng = random.Random(players * 100 + size)
    cards = list(poch.deck(poch.Params(players=players)).cards)
    table = []
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(cards, size))
        v = poch.hand_value(hand, 4)
        table.append((v[0], v[1], v[3]))
    return tuple(sorted(table))


def _percentile(hand: int, trump: int, players: int) -> float:
    """The share of random hands of its size this hand beats (trump aside)."""
    table = _strength_table(players, hand.bit_count())
    v = poch.hand_value(hand, trump)
    key = (v[0], v[1], v[3])
    return (bisect_left(table, key) + bisect_right(table, key)) / (2 * len(table))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))


def _p_call(equity: float, to_call: int, pot: int) -> float:
    """The model: a player calls when his equity beats the pot odds, give or take."""
    odds = to_call / (pot + to_call)
    return _p_above(equity, odds)


def _p_above(equity: float, needed: float) -> float:
    """The model: a player acts on a hand whose equity is above ``needed``, give or take."""
    return EPSILON / 2 + (1 - EPSILON) * _sigmoid((equity - needed) / 0.08)


def _p_open(equity: float) -> float:
    return _p_above(equity, 0.35)


def _p_raise(equity: float) -> float:
    return _p_above(equity, 0.7)


def _likelihood(view: poch.View, equity: dict[int, float]) -> float:
    """How likely the others' poker actions so far were, given the equities of their hands."""
    n = view.params.players
    put = [0] * n
    live = {s for s in view.seats if not view.folded[s]} | {s for s, a in view.poker if a == PASS}
    pot, weight = view.bowls[POCH], 1.0
    for seat, action in view.poker:
        high = max(put)
        e = equity.get(seat, 0.5) ** max(1, len(live) - 1)
        if seat != view.seat:
            if high == 0:
                p = _p_open(e)
                weight *= p if action != PASS else 1 - p
                if (action - PASS) // 2 > 1 + BIG_BET * pot:  # a big bet claims a strong hand
                    weight *= _p_above(e, 0.7)
            else:
                owe = high - put[seat]
                p = _p_call(e, owe, pot)
                if action == PASS:
                    weight *= 1 - p
                else:
                    r = _p_raise(e)
                    weight *= p * (r if action > CALL else 1 - r)
                    if action > CALL and (action - CALL) // 2 > 1 + BIG_RAISE * (pot + owe):
                        weight *= _p_above(e, 0.85)
        if action == PASS:
            live.discard(seat)
            continue
        total = high if action == CALL else (action - PASS) // 2
        if action > CALL and action & 1:
            total = high + (action - CALL) // 2
        total = min(total, view.chips[seat] + view.bets[seat])  # his stack before betting
        pot += total - put[seat]
        put[seat] = total
    return weight


# --- the race with every hand known: exact near its end ---------------------------------------


class _Race:
    """The shedding race with every hand known: who leads what, each for his own chips."""

    def __init__(
        self, seats: tuple[int, ...], chips: Sequence[int], limit: int = RACE_NODES
    ) -> None:
        self.seats = seats
        self.chips = chips
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        self.nodes = 0
        self.limit = limit  # positions before it gives up (_TooBigError)

    def lead(self, hands: list[int], seat: int, card: int) -> tuple[int, int, bool]:
        """Play ``card`` and the run it starts on ``hands``: who played last, the card the run
        stopped short of, whether his hand is empty."""
        seats = self.seats
        while True:
            hands[seat] &= ~(1 << card)
            if not hands[seat]:
                return seat, card + 1, True
            if card & 15 == 14:
                return seat, card + 1, False
            bit = 2 << card
            for s in seats:
                if hands[s] & bit:
                    seat, card = s, card + 1
                    break
            else:
                return seat, card + 1, False

    def payoff(self, hands: Sequence[int], winner: int) -> tuple[int, ...]:
        """Every other player pays the winner a chip a card left, or all he has."""
        pay = [0] * len(hands)
        for s in self.seats:
            if s != winner:
                x = min(hands[s].bit_count(), self.chips[s])
                pay[s] -= x
                pay[winner] += x
        return tuple(pay)

    def solve(self, hands: tuple[int, ...], seat: int, card: int) -> tuple[int, ...]:
        """The payoffs once ``seat`` leads ``card`` and everyone then leads his best (max-n)."""
        h = list(hands)
        last, _, won = self.lead(h, seat, card)
        return self.payoff(h, last) if won else self.value(tuple(h), last)

    def value(self, hands: tuple[int, ...], seat: int) -> tuple[int, ...]:
        key = (hands, seat)
        found = self.table.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.limit:
            raise _TooBigError
        best: tuple[int, ...] | None = None
        for card in cards_of(hands[seat]):
            v = self.solve(hands, seat, card)
            if best is None or v[seat] > best[seat]:
                best = v
        assert best is not None
        self.table[key] = best
        return best


class _TooBigError(Exception):
    """An exact race search outgrew its budget of positions."""


# --- the search's knowledge ----------------------------------------------------------------------


def knowledge(view: poch.View) -> Knowledge:
    """The search's knowledge of Poch, for a search from ``view``."""
    return Knowledge(view.params)


class Knowledge(search.Knowledge[poch.State]):
    """Poch for ``tapete.bots.search``: the horizon is the end of the round, its value the chips
    it moves (the Pinke, the race's payments, a fair share of the bowls that stay), the bets and
    the race's leads decisions alike."""

    rules: Rules[poch.State, Any] = poch  # annotated, or mypyc leaves it unset
    scale = 5.0  # chips: a pot of a few bets, a race of a few cards each

    def __init__(self, params: poch.Params) -> None:
        self.params = params

    def sampler(self, view: poch.View) -> Callable[[random.Random], poch.State]:
        """In the poker round, deals drawn from the view in proportion to how likely the others'
        bets, calls and passes were with the hands they give them (``_likelihood``, read by
        ``search.read``). In the race, every deal the view allows alike: the bets are read as
        medium would have made them, which measured nothing in the race against medium's own
        bets, and against a search's (hard-v1's) the race went better without it (docs/bots.md)."""
        me = _me(view)
        if view.phase == _SHED or not any(seat != me for seat, _ in view.poker):
            return super().sampler(view)
        players, trump = view.params.players, view.trump
        others = [s for s in view.seats if s != me]

        def fit(world: poch.State) -> float:
            equity = {s: _percentile(world.hands[s], trump, players) for s in others}
            return _likelihood(view, equity)

        return search.read(lambda rng: poch.sample_state(view, rng), fit, READ_DEALS)

    def deal_over(self, start: poch.State, state: poch.State) -> bool:
        return state.phase == _OVER or state.rnd.number != start.rnd.number

    def returns(self, start: poch.State, state: poch.State) -> tuple[float, ...]:
        """Each seat's chips won or lost in the round (what stays in the bowls shared out
        evenly); the next round's antes and melds, dealt at the horizon, are not this round's."""
        number = start.rnd.number
        return tuple(
            b - a for a, b in zip(_worth(start, number), _worth(state, number), strict=True)
        )

    def prior(self, state: poch.State, actions: Sequence[int]) -> list[float]:
        """Medium's bet for its hand's standing among random hands, medium's lead. Of the bet
        and raise sizes only a few compete (``_sizes``): the smallest, medium's, twice medium's
        and the largest; the others are left out, so each size in the race is tried in more
        deals."""
        liked = _playout_action(state, list(actions))
        if state.phase != _POKER:
            return [1.0 if a == liked else 0.1 for a in actions]
        keep = _sizes(actions, liked)
        return [1.0 if a == liked else 0.1 if a in keep else 0.01 for a in actions]

    def rollout(
        self, start: poch.State, state: poch.State, rng: random.Random
    ) -> tuple[float, ...]:
        """The poker round by ``_playout_action``, then the race on bare card masks, every
        seat leading as medium counts from what it knows (``_race_playout``)."""
        number = state.rnd.number
        while state.phase == _POKER and state.rnd.number == number:
            state = poch.apply(state, _playout_action(state, poch.legal_actions(state)))
        if state.phase != _SHED or state.rnd.number != number:
            return self.returns(start, state)
        pay = _race_playout(state)
        return tuple(r + p for r, p in zip(self.returns(start, state), pay, strict=True))

    def exact(self, start: poch.State, state: poch.State) -> tuple[float, ...] | None:
        """A race with few cards left, searched exactly: every player leads for his own chips.

        A search of a bet stops at the race and takes its playout's value (every seat leading as
        medium counts): the same deal then values every bet alike, so the bets compare pair by
        pair, undisturbed by the leads the tree would try (they are searched when they come)."""
        if (
            state.phase == _POKER
            and start.phase == _POKER
            and len(state.poker) > len(start.poker)
            and state.poker[-1][0] == start.turn
            and state.params.shed_leader == "dealer_left"
            and state.params.bet_cap != "none"
        ):
            return self._after_bet(start, state)
        if state.phase != _SHED:
            return None
        if start.phase == _POKER and state.rnd.number == start.rnd.number:
            # The race as the hands stand before any showdown, so that every bet meets it alike.
            pay = _race_playout(state._with(revealed=start.revealed, chips=start.chips))
            return tuple(r + p for r, p in zip(self.returns(start, state), pay, strict=True))
        if sum(h.bit_count() for h in state.hands) > SOLVE_CARDS:
            return None
        race = _Race(state.rnd.seats, state.chips)
        try:
            pay = race.value(state.hands, state.turn)
        except _TooBigError:
            return None
        return tuple(r + p for r, p in zip(self.returns(start, state), pay, strict=True))

    def _after_bet(self, start: poch.State, state: poch.State) -> tuple[float, ...]:
        """The poker round's expected end just after the searching seat's bet, call, raise or
        pass, then the race's playout: every other player still to match the high bet calls with
        the model's chance for his hand (``_p_call``: equity against the pot odds) or folds, each
        combination weighed by its chance and settled by the showdown; nobody raises again.
        Exact over the model's answers rather than one drawn answer, so a bet is judged in every
        drawn deal by what it wins on average."""
        n, rnd = state.params.players, state.rnd
        me, trump = start.turn, rnd.trump
        base = self.returns(start, state)
        live = [s for s in rnd.seats if not state.folded >> s & 1]
        pot = state.bowls[PINKE] + state.bowls[POCH]
        high = max(state.put)
        players = state.params.players
        answer = []  # (seat, owed, chance of calling) for the others still to match
        for s in live:
            if s != me and state.put[s] < high and state.chips[s]:
                owe = min(high - state.put[s], state.chips[s])
                e = _percentile(state.hands[s], trump, players) ** max(1, len(live) - 1)
                answer.append((s, owe, _p_call(e, owe, pot)))
        fixed = [s for s in live if not any(s == a[0] for a in answer)]
        value = [0.0] * n
        for mask in range(1 << len(answer)):
            chance, stay, paid = 1.0, list(fixed), 0
            delta = [0.0] * n
            for i, (s, owe, p) in enumerate(answer):
                if mask >> i & 1:
                    chance *= p
                    stay.append(s)
                    delta[s] -= owe
                    paid += owe
                else:
                    chance *= 1 - p
            if chance == 0.0:
                continue
            if high == 0:  # it passed first: the others open or not, the best of them wins
                carry = math.prod(
                    1 - _p_open(_percentile(state.hands[s], trump, players) ** (len(stay) - 1))
                    for s in stay
                )
                chance *= 1 - carry
                won = poch._best(stay, state.hands, trump, rnd.seats) if stay else -1
            elif len(stay) == 1:
                won = stay[0]
            else:
                won = poch._best(stay, state.hands, trump, rnd.seats)
            if won >= 0:
                delta[won] += pot + paid
            moved = sum(delta)  # chips that left the bowls for the stacks
            for s in range(n):
                value[s] += chance * (delta[s] - moved / n)
        race = _race_playout(state._with(turn=rnd.seats[0], chips=start.chips))
        return tuple(b + v + r for b, v, r in zip(base, value, race, strict=True))


def _worth(state: poch.State, number: int) -> list[float]:
    """Each seat's chips at the end of round ``number`` (at the start of a later round: before
    its antes and melds), with a fair share of the chips in the bowls that the players put in
    (chips, bowls less the bank's additions: a total that no step changes)."""
    chips = state.rnd.start if state.rnd.number != number else state.chips
    total = sum(state.chips) + sum(state.bowls) - state.bank
    share = (total - sum(chips)) / state.params.players
    return [c + share for c in chips]


def _sizes(actions: Sequence[int], liked: int) -> set[int]:
    """The poker actions worth searching: pass, call, and of the bets (or raises) the smallest,
    medium's (``liked``), twice medium's and the largest."""
    keep = {a for a in actions if a <= CALL}
    sized = [a for a in actions if a > CALL]
    if sized:
        keep |= {sized[0], sized[-1]}
        if liked > CALL:
            twice = liked + (liked - (CALL if liked & 1 else PASS))  # the size doubled
            keep.add(min(sized, key=lambda a: abs(a - twice)))
    return keep


def _playout_action(state: poch.State, legal: list[int]) -> int:
    """Medium's bet for the chance that the hand beats those still in, each as a random hand
    (its percentile, ``_percentile``); medium's count of the race; from the seat's own view."""
    if len(legal) == 1:
        return legal[0]
    view = poch.observe(state, state.turn)
    if state.phase == _SHED:
        return _medium_lead(_facts(view))
    standing = _percentile(_hand(view), view.trump, view.params.players)
    return _bet_by(view, legal, standing ** max(1, len(_live(view)))).action


def _race_playout(state: poch.State) -> tuple[int, ...]:
    """The race from ``state`` (its turn to lead) played out on card masks, every seat leading
    as medium does (``_medium_lead``) from what it knows: its hand, the cards others showed,
    the cards played or known out of play; the chips each seat wins or pays."""
    rnd, n = state.rnd, state.params.players
    seats = rnd.seats
    hands = list(state.hands)
    shown = [r & h for r, h in zip(state.revealed, state.hands, strict=True)]
    played = state.played
    out = poch._known_out(rnd) | state.gone
    size = poch.deck(state.params).size
    full = poch.deck(state.params).mask
    low = poch.deck(state.params).cards[0] & 15
    seat = state.turn
    while True:
        hand = hands[seat]
        others = 0
        for s in seats:
            if s != seat:
                others |= shown[s] & hands[s]
        stops = played | out
        unseen = full & ~hand & ~stops & ~others
        dealt = sum(h.bit_count() for h in hands) + played.bit_count()
        p_out = (size - dealt - out.bit_count()) / max(1, unseen.bit_count())
        card = _medium_lead(_Facts(hand, stops, others, p_out, low))
        while True:
            hands[seat] ^= 1 << card
            played |= 1 << card
            if not hands[seat]:
                pay = [0] * n
                for s in seats:
                    if s != seat:
                        x = min(hands[s].bit_count(), state.chips[s])
                        pay[s] -= x
                        pay[seat] += x
                return tuple(pay)
            if card & 15 == 14:
                break
            nxt = card + 1
            if played >> nxt & 1:
                break
            for s in seats:
                if hands[s] >> nxt & 1:
                    seat, card = s, nxt
                    break
            else:
                out |= 1 << nxt
                break
