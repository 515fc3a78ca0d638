"""Poch bots: easy hand-strength rules, medium card counting, hard sampled search.

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
* **hard** samples whole deals consistent with its view (``sample_state``: the Sequence bowl's
  verdict included). In the poker round it weighs each sample by how likely the others' bets,
  calls and passes were with the hands it gives them, and values every bet size by the chips it
  expects: who folds to it, what the callers' hands do at the showdown. It picks among the
  near-best actions at random with weights, and when that is a fold it still opens now and then
  with a one-chip bluff, as often as poker's bluffing ratio allows: its bluffs and slow plays come
  at mixed frequencies rather than by a fixed rule. The race is deterministic once the hands are
  known, so in each sampled deal it tries every lead it has and plays the race out: exactly near
  the end (every player leading for his own chips, a max-n search with a table), and before that
  with every player leading as medium would from his own seat. It leads the card with the best
  mean result.
"""

from __future__ import annotations

import contextlib
import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from tapete.bots import Budget, Decision
from tapete.cards import cards_of, format_card
from tapete.games import poch
from tapete.games.poch import CALL, PASS, PINKE, POCH

__all__ = ["decide"]

Value = tuple[Any, ...]  # a hand's showdown value, ``poch.hand_value``

MEDIUM_SAMPLES = 200  # deals medium draws to estimate its chance of the best hand
BET_BATCH = 12  # sampled deals per hard iteration in the poker round (each is cheap)
SOLVE_CARDS = 14  # cards left in all hands at or below which hard searches a race exactly
RACE_NODES = 20_000  # positions one exact race search may visit before falling back to playouts
VALUE_SHARE = 0.3  # about how many of its hands the hard bot opens for value
EPSILON = 0.15  # how often the hard bot's model of the others lets them act out of character


def decide(
    level: str, view: poch.View, legal: list[int], rng: random.Random, budget: Budget
) -> Decision:
    if view.phase == poch.Phase.POKER:
        if level == "hard":
            return _hard_bet(view, legal, rng, budget)
        if level == "medium":
            return _medium_bet(view, legal, rng)
        return _easy_bet(view, legal)
    if level == "hard":
        return _hard_lead(view, legal, rng, budget)
    if level == "medium":
        card = _medium_lead(_facts(view))
        return Decision(card, f"sheds the most and keeps the lead with {format_card(card)}")
    card = max(legal, key=lambda c: (_own_run(view, c), -(c & 15), -c))
    return Decision(card, f"starts its longest run with {format_card(card)}")


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


def _amounts(view: poch.View, legal: Sequence[int]) -> list[tuple[int, int]]:
    """(action, the total the seat's contribution reaches) for pass, call and a few bet sizes."""
    me, high = _me(view), max(view.bets)
    out = []
    sizes = []
    for a in legal:
        if a == PASS:
            out.append((a, view.bets[me]))
        elif a == CALL:
            out.append((a, high))
        else:
            sizes.append((a, (a - PASS) // 2 if not a & 1 else high + (a - CALL) // 2))
    if sizes:
        keep = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, len(sizes)}
        out += [x for i, x in enumerate(sizes, 1) if i in keep]
    return out


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


def _easy_bet(view: poch.View, legal: list[int]) -> Decision:
    strength = _strength(_hand(view), view.trump)
    name = poch.hand_name(_hand(view), view.trump)
    to_call = view.to_call
    if to_call == 0:
        size = {4.0: 3, 3.0: 2, 2.0: 1}.get(strength, 0)
        return _bet_or(legal, PASS, poch.bet_action(size) if size else PASS, name)
    if strength >= 3:
        return _bet_or(legal, CALL, poch.raise_action(int(strength) - 2), name)
    limit = {2.0: 3, 1.0: 1}.get(strength, 0)
    if to_call <= limit:
        return Decision(CALL, f"{name}: worth {to_call} to see")
    return Decision(PASS, f"{name}: not worth {to_call}")


def _bet_or(legal: list[int], fallback: int, action: int, name: str) -> Decision:
    if action not in legal:
        action = max((a for a in legal if a > CALL and a & 1 == action & 1), default=fallback)
    if action == PASS:
        return Decision(PASS, f"{name}: nothing to bet on")
    return Decision(action, f"{name}: bets on it")


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
    chance = _win_chance(view, rng, MEDIUM_SAMPLES)
    pot = view.bowls[PINKE] + view.bowls[POCH]
    to_call = view.to_call
    why = f"best hand {100 * chance:.0f}% of the time"
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


def _sized(legal: list[int], base: int, size: int, why: str) -> Decision:
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


# --- hard betting: weighted samples and the chips each action should bring ----------------------


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
    return EPSILON / 2 + (1 - EPSILON) * _sigmoid((equity - odds) / 0.08)


def _p_open(equity: float) -> float:
    return EPSILON / 2 + (1 - EPSILON) * _sigmoid((equity - 0.35) / 0.08)


def _p_raise(equity: float) -> float:
    return EPSILON / 2 + (1 - EPSILON) * _sigmoid((equity - 0.7) / 0.08)


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
            else:
                p = _p_call(e, high - put[seat], pot)
                if action == PASS:
                    weight *= 1 - p
                else:
                    r = _p_raise(e)
                    weight *= p * (r if action > CALL else 1 - r)
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


def _bet_values(
    view: poch.View, world: poch.State, options: list[tuple[int, int]]
) -> tuple[list[float], bool, float]:
    """The chips each option is expected to win against folding now, whether this hand is the
    best of those still in, and the sample's weight."""
    me, trump, seats, players = _me(view), view.trump, view.seats, view.params.players
    mine = poch.hand_value(world.hands[me], trump)
    rivals = _live(view)
    equity = {s: _percentile(world.hands[s], trump, players) for s in view.seats if s != me}
    weight = _likelihood(view, equity)
    beaten = {s: _beats(mine, me, poch.hand_value(world.hands[s], trump), s, seats) for s in rivals}
    pot0 = view.bowls[PINKE] + view.bowls[POCH]
    mine_put = view.bets[me]
    values = []
    for action, total in options:
        if action == PASS:
            values.append(0.0)
            continue
        x = min(total - mine_put, view.chips[me])
        calls = []
        for s in rivals:
            owe = min(max(0, total - view.bets[s]), view.chips[s])
            if owe == 0:  # matched already, or all in
                calls.append((1.0, s, 0))
                continue
            e = equity[s] ** len(rivals)
            calls.append((_p_call(e, owe, pot0 + x), s, owe))
        factors = [(1 - p) + p * beaten[s] for p, s, _ in calls]
        alive = math.prod(factors)
        value = pot0 * alive - x * (1 - alive)
        for i, (p, s, owe) in enumerate(calls):
            if beaten[s] and owe:
                value += p * owe * math.prod(f for j, f in enumerate(factors) if j != i)
        values.append(value)
    return values, all(beaten.values()), weight


def _hard_bet(view: poch.View, legal: list[int], rng: random.Random, budget: Budget) -> Decision:
    options = _amounts(view, legal)
    totals = [0.0] * len(options)
    weights, best_hand, worlds = 0.0, 0.0, 0
    clock = budget.clock()
    while clock.more():
        for _ in range(BET_BATCH):
            world = poch.sample_state(view, rng)
            values, best, weight = _bet_values(view, world, options)
            for i, v in enumerate(values):
                totals[i] += weight * v
            weights += weight
            best_hand += weight * best
            worlds += 1
        clock.tick()
    weights = weights or 1.0
    means = [t / weights for t in totals]
    top = max(means)
    pot = view.bowls[PINKE] + view.bowls[POCH]
    # Near-best actions are mixed: a bluff or a slow play is never a fixed rule.
    margin = 0.15 + 0.04 * pot
    near = [i for i, m in enumerate(means) if m >= top - margin]
    pick = rng.choices(near, weights=[math.exp((means[i] - top) / (margin / 2)) for i in near])[0]
    pick, bluff = _bluff(view, options, means, pick, rng)
    what = poch.format_action(view.params, options[pick][0])
    return Decision(
        options[pick][0],
        f"{what}{' (a bluff)' if bluff else ''}: {means[pick]:+.1f} chips expected, best hand in "
        f"{100 * best_hand / weights:.0f}% of {worlds} sampled deals",
    )


def _bluff(
    view: poch.View,
    options: list[tuple[int, int]],
    means: list[float],
    pick: int,
    rng: random.Random,
) -> tuple[int, bool]:
    """Now and then open with a weak hand, as often as poker's bluffing ratio says.

    A bet of s into a pot P is called profitably only if bluffs make up about s / (P + 2s) of
    the bets; against several players a bluff must pass them all, so it comes that much rarer.
    """
    if options[pick][0] != PASS or view.to_call or len(options) < 2:
        return pick, False
    i = 1  # the smallest bet
    size = options[i][1] - view.bets[_me(view)]
    pot = view.bowls[PINKE] + view.bowls[POCH]
    share = size / (pot + 2 * size)  # the bluffs' share of a balanced betting range
    rate = share / (1 - share) * VALUE_SHARE / (1 - VALUE_SHARE) / max(1, len(_live(view)))
    if means[i] > -size and rng.random() < rate:  # some chance that everyone folds
        return i, True
    return pick, False


# --- hard leads: each sampled race played out, exactly near its end ------------------------------


class _Public:
    """What everyone knows during a race: cards played, cards known out, cards seen in hands."""

    __slots__ = ("deck", "hidden_out", "low", "out", "played", "seen")

    def __init__(self, view: poch.View) -> None:
        deck = poch.deck(view.params)
        self.deck, self.low = deck.mask, deck.cards[0] & 15
        self.played, self.out = view.played.mask, view.out_of_play.mask
        self.seen = [0] * view.params.players
        for s in view.seats:
            full = view.hands[s]
            self.seen[s] = full.mask if full is not None else view.known[s].mask
        dealt = sum(view.hand_sizes) + len(view.played)
        self.hidden_out = deck.size - dealt - len(view.out_of_play)

    def facts(self, hands: Sequence[int], seat: int, seats: Sequence[int]) -> _Facts:
        """What ``seat`` would count in a sampled race: medium's facts, from its own seat."""
        hand, others = hands[seat], 0
        for s in seats:
            if s != seat:
                others |= self.seen[s] & hands[s]
        unseen = self.deck & ~hand & ~self.played & ~self.out & ~others
        p_out = self.hidden_out / max(1, unseen.bit_count())
        return _Facts(hand, self.played | self.out, others, p_out, self.low)

    def after_run(self, gone: int, stopped_at: int) -> _Public:
        """The public facts once a run shed ``gone`` and stopped short of ``stopped_at``."""
        new = _Public.__new__(_Public)
        new.deck, new.low, new.seen = self.deck, self.low, self.seen
        new.played, new.out, new.hidden_out = self.played | gone, self.out, self.hidden_out
        if stopped_at & 15 <= 14 and not (new.played | new.out) >> stopped_at & 1:
            new.out |= 1 << stopped_at  # nobody held it: it is out of play, for all to see
            new.hidden_out -= 1
        return new


class _Race:
    """The shedding race with every hand known: who leads what, each for his own chips."""

    def __init__(self, seats: tuple[int, ...], chips: Sequence[int], public: _Public) -> None:
        self.seats = seats
        self.chips = chips
        self.public = public
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        self.nodes = 0

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
        if self.nodes > RACE_NODES:
            raise _TooBigError
        best: tuple[int, ...] | None = None
        for card in cards_of(hands[seat]):
            v = self.solve(hands, seat, card)
            if best is None or v[seat] > best[seat]:
                best = v
        assert best is not None
        self.table[key] = best
        return best

    def playout(self, hands: tuple[int, ...], seat: int, card: int) -> tuple[int, ...]:
        """The payoffs when everyone leads as medium does after this lead, each by his count."""
        h, public = list(hands), self.public
        while True:
            before = sum(h)
            seat, stopped_at, won = self.lead(h, seat, card)
            if won:
                return self.payoff(h, seat)
            public = public.after_run(before & ~sum(h), stopped_at)
            card = _medium_lead(public.facts(h, seat, self.seats))


class _TooBigError(Exception):
    """An exact race search outgrew its budget of positions."""


def _hard_lead(view: poch.View, legal: list[int], rng: random.Random, budget: Budget) -> Decision:
    me = _me(view)
    public = _Public(view)
    totals = dict.fromkeys(legal, 0.0)
    wins = dict.fromkeys(legal, 0)
    clock = budget.clock()
    while clock.more():
        world = poch.sample_state(view, rng)
        race = _Race(view.seats, world.chips, public)
        results = None
        if sum(h.bit_count() for h in world.hands) <= SOLVE_CARDS:
            with contextlib.suppress(_TooBigError):  # too big to search: played out below
                results = {c: race.solve(world.hands, me, c) for c in legal}
        if results is None:
            results = {c: race.playout(world.hands, me, c) for c in legal}
        for c, pay in results.items():
            totals[c] += pay[me]
            wins[c] += pay[me] > 0
        clock.tick()
    worlds = max(clock.done, 1)
    best = max(legal, key=lambda c: (totals[c], -c))
    return Decision(
        best,
        f"{poch.format_action(view.params, best)}: {totals[best] / worlds:+.1f} chips on average,"
        f" wins the race in {100 * wins[best] / worlds:.0f}% of {worlds} sampled deals",
    )
