"""Pottle bots: easy rules, medium card counting, hard information-set search.

Only the declarer (the auction winner) can take the pot, and only by taking exactly his bid; a
missed contract costs him nothing, the pot simply carries over to a later deal. So the bots value
a deal's outcome for a seat as the whole pot when it wins it, a fair share (pot / players) when
the pot carries over, and nothing when someone else takes it. By that measure declaring is never
worse than letting someone else declare: a raise is worth making even for a slim chance, since it
also takes the pot's chance away from the player outbid. The defenders all play against the
declarer.

* **easy** bids its aces and guarded kings plus the length of its longest suit beyond three, or
  one more than the high bid when that is at most two above its count; names its longest suit
  trump; as declarer wins cheaply while it needs tricks and ducks once it has them; as a
  defender beats the declarer's card while he still needs tricks, and plays low once he has them.
* **medium** counts cards: which higher cards are still unseen, how likely each is to be in play
  (a third of the deck is never dealt), which suits every other player has shown void. Its bid
  and trump are the contract with the best chance of exactly that many tricks (a Poisson-binomial
  over each card's chance to win a trick, for each trump); it outbids the high bid when a higher
  contract keeps a fair share (``OUTBID``) of its best chance. As declarer it weighs its sure
  and likely winners against the tricks it still needs and wins or ducks accordingly; as a
  defender it takes tricks from a declarer who still needs them, covers his card before he
  plays, and feeds tricks to one who has enough.
* **hard** (and **expert**, with more time) is the information-set search of
  ``tapete.bots.search`` over deals drawn from its view (``sample_state``: voids included),
  drawn from a growing pool in proportion to how well the others' raises fit the hands each deal
  gives them (a bell curve around the tricks medium expects of the hand). What it knows of this
  game (``Knowledge``): the horizon is the end of the deal, valued in chips as above (the pot to
  its winner, a fair share of a pot carried over); an information set is the seat's hand, the
  bids, the trump and the cards played; playouts bid and name trump as medium does and play the
  cards by medium's policy; the prior is medium's bid, trump and card; with four tricks or fewer
  left, each drawn deal is solved exactly (can the declarer force exactly his bid against the
  defenders, every card known?). So a bid is weighed, in the same tree as the play, against the
  contract it forces and against letting a later player take the pot. In the auction for the pot
  it weighs only the raises (or one bid when none is left): by that measure a raise is never
  worth less than a bid that raises nothing, and those bids are one move under several numbers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from tapete.bots import Budget, Decision, Move, Reason, search
from tapete.bots.solver import Position, Solver
from tapete.cards import cards_of, suit_mask
from tapete.game import Rules
from tapete.games import pottle
from tapete.tricks import FOLLOW, beats, legal_mask, trick_winner

__all__ = ["Knowledge", "decide", "knowledge"]

UNIT = "chips"  # what a deal's returns count, in reasons and reviews

SUITS = (4, 5, 6, 7)
TRUMPS = (4, 5, 6, 7, -1)  # the trump choices, -1 for no trump
ORDER = pottle.ORDER
POWER = ORDER.power
ABOVE = ORDER.above
FULL = pottle.DECK.mask
SUIT_MASK = tuple(suit_mask(s) for s in range(8))
_BID, _TRUMP, _PLAY, _OVER = pottle.Phase  # read in playouts: a global is faster
OUTBID = 0.3  # medium raises the high bid when a higher contract keeps this share of its best
EASY_STRETCH = 2  # easy raises the high bid by one when it is at most this far above its count
SOLVE_TRICKS = 4  # tricks left at or below which hard's search solves a sampled deal exactly
LOOSE = 0.5  # a solved deal's credit for a contract the declarer can reach but not force
READ_DEALS = 4  # deals hard's search draws for each one it keeps, by how well the bids fit them
EPSILON = 0.02  # the least weight the search's model of the bidders gives any bid
SPREAD = 1.5  # tricks: how far from medium's expectation the model lets a bid stray, give or take


def decide(
    level: str, view: pottle.View, legal: list[int], rng: random.Random, budget: Budget
) -> Decision:
    if level == "hard":
        return search.decide(view, _options(view, legal), rng, budget, knowledge(view), UNIT)
    careful = level == "medium"
    if view.phase == pottle.Phase.BID:
        cur = _cur_bid(view) if view.params.pot_rule == "auction_winner" else -1
        if not careful:
            return _easy_bid(_hand(view), cur, legal)
        bid, trump, chance = _medium_bid(_hand(view), cur, legal, _in_play(view))
        if bid - pottle.BID <= cur:
            return Decision(bid, Reason("no contract above {n} worth playing", n=cur))
        return Decision(
            bid,
            Reason("{trump}: exact contract in about {p:.0%}", trump=_trump_text(trump), p=chance),
        )
    if view.phase == pottle.Phase.TRUMP:
        assert view.seat is not None
        contract = view.bids[view.seat]
        assert contract is not None
        trump = _easy_trump(_hand(view)) if not careful else _medium_trump(view, contract)
        return Decision(
            _trump_action(trump),
            Reason("{trump} for {n}", trump=_trump_text(trump), n=contract),
        )
    know = _know_view(view, legal)
    card = _policy(know, careful)
    # With pot_rule=pagat nobody defends: every seat plays for its own bid.
    playing = know.declarer < 0 or know.declarer == view.seat
    return Decision(card, Reason("plays for the contract" if playing else "defends"))


# --- shared facts --------------------------------------------------------------------------------


def _hand(view: pottle.View) -> int:
    hand = view.hand
    assert hand is not None
    return hand.mask


def _trump_action(trump: int) -> int:
    return pottle.NO_TRUMP if trump < 0 else pottle.TRUMP + trump - 4


def _trump_text(trump: int) -> Reason | Move:
    return Reason("no trump") if trump < 0 else Move(f"trump {'cdhs'[trump - 4]}")


def _cur_bid(view: pottle.View) -> int:
    """The bid to beat: the highest so far (ties go to the earlier bidder), -1 if none yet."""
    return max((b for b in view.bids if b is not None), default=-1)


def _options(view: pottle.View, legal: list[int]) -> list[int]:
    """The moves hard's search weighs: in the auction for the pot, every raise, or one bid that
    raises nothing when no raise is left; the rest of the time every legal move.

    A raise is never worth less than a bid that raises nothing: if the raise fails, the pot
    carries over as it does when the contract another player holds fails, and it takes the pot's
    chance from the player outbid. Bids that raise nothing are one move under different numbers.
    Racing them all spent most of a bid's deals on copies of one pass, and where no sampled deal
    made a contract every bid tied at nothing, and the tie went to the lowest bid: a pass.
    """
    if view.phase != pottle.Phase.BID or view.params.pot_rule != "auction_winner":
        return legal
    cur = _cur_bid(view)
    return [a for a in legal if a - pottle.BID > cur] or [min(legal)]


def _in_play(view: pottle.View) -> float:
    """The chance that a card this seat has not seen is in another player's hand."""
    assert view.seat is not None
    seen = _hand(view).bit_count() + sum(len(t) for _, t in view.tricks) + len(view.trick)
    others = sum(view.hand_sizes) - view.hand_sizes[view.seat]
    return others / max(1, 52 - seen)


def _win_chance(card: int, hand: int, trump: int, unseen: int, held: float) -> float:
    """How likely ``card`` is to take a trick, from the higher cards and trumps still unseen.

    ``held`` is the chance that an unseen card is in play (1 when every card is known).
    """
    suit = card >> 4
    higher = (ABOVE[card] & unseen).bit_count()
    top = (1 - held) ** higher if held < 1 else float(higher == 0)
    length = (hand & SUIT_MASK[suit]).bit_count()
    if suit == trump:
        # Low trumps still take tricks by ruffing once short side suits run out.
        return max(top, 0.45 if length >= 3 else 0.2) if higher else top
    if trump < 0 or not unseen & SUIT_MASK[trump]:
        return top
    out = (unseen & SUIT_MASK[suit]).bit_count() * held
    # The more cards of the suit already in my hand, the sooner the others are void and ruff.
    return top * max(0.1, 1 - 0.12 * length - 0.15 * max(0, 3 - out))


def _expected(hand: int, trump: int, unseen: int, held: float) -> float:
    return sum(_win_chance(c, hand, trump, unseen, held) for c in cards_of(hand))


def _distribution(chances: Sequence[float]) -> list[float]:
    """The Poisson-binomial: the chance of each number of tricks."""
    dist = [1.0]
    for p in chances:
        new = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            new[k] += q * (1 - p)
            new[k + 1] += q * p
        dist = new
    return dist


def _contract_chances(hand: int, trump: int, held: float) -> list[float]:
    """Medium's chance of taking exactly 0..7 tricks as declarer with ``trump``."""
    unseen = FULL & ~hand
    dist = _distribution([_win_chance(c, hand, trump, unseen, held) for c in cards_of(hand)])
    dist += [0.0] * (pottle.HAND + 2 - len(dist))
    # A declarer steers: he can usually shed one trick too many, less often find one more.
    return [
        min(1.0, dist[k] + 0.45 * dist[k + 1] + 0.2 * (dist[k - 1] if k else 0.0))
        for k in range(pottle.HAND + 1)
    ]


def _medium_bid(hand: int, cur: int, legal: Sequence[int], held: float) -> tuple[int, int, float]:
    """The bid (action), trump and chance: the best contract above ``cur``, else the lowest bid."""
    table = {t: _contract_chances(hand, t, held) for t in TRUMPS}
    best: tuple[float, int, int] | None = None
    for action in legal:
        b = action - pottle.BID
        if b <= cur:
            continue
        for t in TRUMPS:
            key = (table[t][b], action, t)
            if best is None or key[0] > best[0]:
                best = key
    top = max(max(table[t]) for t in TRUMPS)
    if best is None or best[0] < OUTBID * top:
        return min(legal), -1, 0.0
    return best[1], best[2], best[0]


def _medium_trump(view: pottle.View, bid: int) -> int:
    hand, held = _hand(view), _in_play(view)
    return max(TRUMPS, key=lambda t: _contract_chances(hand, t, held)[bid])


def _easy_bid(hand: int, cur: int, legal: Sequence[int]) -> Decision:
    """The tricks it expects, or one more than the high bid when that is not far above."""
    estimate = _easy_estimate(hand)
    target = round(estimate)
    if cur >= target and cur + 1 <= estimate + EASY_STRETCH:
        target = cur + 1
    bid = min(legal, key=lambda a: (abs(a - pottle.BID - target), a))
    if bid - pottle.BID == cur + 1 > round(estimate):
        # Said as what it is: "bid 3: expects about 1.5 tricks" read as a mistake.
        return Decision(
            bid,
            Reason(
                "outbids the high bid of {n}: a missed contract costs nothing ({k:.1f} tricks"
                " expected)",
                n=cur,
                k=estimate,
            ),
        )
    return Decision(bid, Reason("expects about {n:.1f} tricks", n=estimate))


def _easy_estimate(hand: int) -> float:
    """Aces, guarded kings, and the length of the longest suit beyond three."""
    total = 0.0
    for card in cards_of(hand):
        rank, length = card & 15, (hand & suit_mask(card >> 4)).bit_count()
        total += 1.0 if rank == 14 else (0.5 if rank == 13 and length >= 2 else 0.0)
    longest = max((hand & suit_mask(s)).bit_count() for s in SUITS)
    return total + max(0, longest - 3)


def _easy_trump(hand: int) -> int:
    return max(SUITS, key=lambda s: ((hand & suit_mask(s)).bit_count(), hand >> (16 * s)))


# --- play: one policy for easy, medium and the rollouts -----------------------------------------


@dataclass
class _Know:
    """What the playing policy looks at."""

    seat: int
    n: int
    hand: int
    legal: int
    trick: tuple[int, ...]
    leader: int
    trump: int
    declarer: int  # -1 with pot_rule=pagat: everyone plays for his own bid
    need: int  # the declarer's tricks still to take (my own with pagat)
    left: int  # tricks left, this one included
    unseen: int  # cards that may be in another hand
    held: float  # the chance an unseen card is in play
    declarer_hand: int  # -1 when unknown
    declarer_void: int  # suits (as a mask of their cards) the declarer showed void in


def _know_view(view: pottle.View, legal: list[int]) -> _Know:
    assert view.seat is not None and view.declarer is not None and view.trump is not None
    seat, n = view.seat, len(view.hand_sizes)
    hand = _hand(view)
    played = 0
    for _, cards in view.tricks:
        for c in cards:
            played |= 1 << c
    for c in view.trick:
        played |= 1 << c
    unseen = FULL & ~hand & ~played
    # Cards every other player is known not to hold are out of play.
    nobody = FULL
    for s in range(n):
        if s != seat:
            nobody &= view.excluded[s].mask
    unseen &= ~nobody
    others = sum(view.hand_sizes) - view.hand_sizes[seat]
    pagat = view.params.pot_rule == "pagat"
    declarer = -1 if pagat else view.declarer
    me = seat if pagat else view.declarer
    bid = view.bids[me]
    assert bid is not None
    return _Know(
        seat=seat,
        n=n,
        hand=hand,
        legal=sum(1 << c for c in legal),
        trick=view.trick,
        leader=view.leader,
        trump=view.trump,
        declarer=declarer,
        need=bid - view.won[me],
        left=hand.bit_count(),  # my turn: I have not played to this trick
        unseen=unseen,
        held=min(1.0, others / max(1, unseen.bit_count())),
        declarer_hand=-1,
        declarer_void=view.excluded[view.declarer].mask,
    )


def _policy(k: _Know, careful: bool) -> int:
    if k.declarer < 0 or k.declarer == k.seat:
        return _declarer_card(k, careful)
    return _defender_card(k, careful)


def _winning(k: _Know) -> tuple[int, int]:
    """The seat and card winning the trick so far."""
    i = trick_winner(k.trick, k.trump, ORDER)
    return (k.leader + i) % k.n, k.trick[i]


def _sure(card: int, k: _Know) -> bool:
    """No unseen card can beat ``card`` when it leads."""
    if ABOVE[card] & k.unseen:
        return False
    return card >> 4 == k.trump or k.trump < 0 or not k.unseen & suit_mask(k.trump)


def _declarer_card(k: _Know, careful: bool) -> int:
    cards = cards_of(k.legal)
    if careful:
        chance = {c: _win_chance(c, k.hand, k.trump, k.unseen, k.held) for c in cards}
    else:  # easy goes by rank, trumps above the rest
        chance = {c: POWER[c] / 20 + (1.0 if c >> 4 == k.trump else 0.0) for c in cards}
    if k.need <= 0:
        want = False
    elif k.need >= k.left:
        want = True
    elif careful:
        chances = [_win_chance(c, k.hand, k.trump, k.unseen, k.held) for c in cards_of(k.hand)]
        sure = sum(1 for p in chances if p >= 0.99)
        # Sure winners count in full; a maybe only wins if its suit comes round: half.
        want = sure + 0.5 * (sum(chances) - sure) < k.need + 0.25
    else:
        want = True
    if not k.trick:
        if want:
            if careful:
                return max(cards, key=lambda c: (chance[c], -POWER[c]))
            return max(cards, key=lambda c: (c & 15, c >> 4 == k.trump))
        return min(cards, key=lambda c: (chance[c], POWER[c]))
    _, best = _winning(k)
    last = len(k.trick) == k.n - 1
    winners = [c for c in cards if beats(c, best, k.trump, ORDER)]
    losers = [c for c in cards if not beats(c, best, k.trump, ORDER)]
    by_power = sorted(winners, key=lambda c: POWER[c] + (20 if c >> 4 == k.trump else 0))
    if want:
        if not winners:
            return min(losers, key=lambda c: (chance[c], POWER[c]))
        if last or not careful:
            return by_power[0]
        safe = [c for c in by_power if _sure(c, k)]
        return safe[0] if safe else by_power[-1]
    if losers:
        return max(losers, key=lambda c: (chance[c], POWER[c]))
    return by_power[-1] if last else by_power[0]


def _defender_card(k: _Know, careful: bool) -> int:
    cards = cards_of(k.legal)
    if k.need <= 0:
        feed = True
    elif k.need >= k.left or not careful or k.declarer_hand < 0:
        feed = False
    else:
        unseen = k.unseen & ~k.declarer_hand | k.hand
        feed = _expected(k.declarer_hand, k.trump, unseen, 1.0) > k.need + 0.5
    low = sorted(cards, key=lambda c: POWER[c] + (20 if c >> 4 == k.trump else 0))
    if not k.trick:
        if feed:
            open_suits = [c for c in low if not k.declarer_void >> c & 1] or low
            return open_suits[0]
        if careful:
            return max(cards, key=lambda c: (_sure(c, k), POWER[c], c >> 4 != k.trump))
        return low[-1]
    winner, best = _winning(k)
    pos = (k.seat - k.leader) % k.n
    declarer_played = (k.declarer - k.leader) % k.n < pos
    winners = [c for c in low if beats(c, best, k.trump, ORDER)]
    losers = [c for c in low if not beats(c, best, k.trump, ORDER)]
    if feed:
        if declarer_played and winner == k.declarer and losers:
            return losers[-1]  # keep his card on top, shed a high one
        return low[0]
    if declarer_played:
        if winner == k.declarer and winners:
            return winners[0]
        return losers[0] if losers else low[0]
    # The declarer plays after me: make his card have to beat a high one.
    if careful and winner != k.declarer and _sure(best, k):
        return losers[0] if losers else low[0]
    if winners:
        return winners[-1]
    return low[0]


# --- tables: sampled deals as plain masks, played out fast ---------------------------------------


class _Table:
    """A deal in progress with every hand known: the hands, the trick, who won what."""

    __slots__ = ("bids", "declarer", "hands", "leader", "n", "pagat", "trick", "trump", "won")

    def __init__(self, state: pottle.State) -> None:
        self.n = state.params.players
        self.hands = list(state.hands)
        self.trick = state.trick
        # Before play starts the declarer (once known) leads.
        playing = state.phase == _PLAY
        self.leader = state.leader if playing or state.declarer < 0 else state.declarer
        self.trump = state.trump
        self.declarer = state.declarer
        self.bids = state.bids
        self.won = list(state.won)
        self.pagat = state.params.pot_rule == "pagat"

    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def play(self, card: int) -> None:
        seat = self.turn()
        self.hands[seat] ^= 1 << card
        trick = (*self.trick, card)
        if len(trick) < self.n:
            self.trick = trick
            return
        winner = (self.leader + trick_winner(trick, self.trump, ORDER)) % self.n
        self.won[winner] += 1
        self.trick, self.leader = (), winner

    def know(self, seat: int) -> _Know:
        hand = self.hands[seat]
        unseen = 0
        for s, h in enumerate(self.hands):
            if s != seat:
                unseen |= h
        me = seat if self.pagat else self.declarer
        theirs = self.hands[self.declarer]
        return _Know(
            seat=seat,
            n=self.n,
            hand=hand,
            legal=legal_mask(hand, self.trick, self.trump, ORDER, FOLLOW),
            trick=self.trick,
            leader=self.leader,
            trump=self.trump,
            declarer=-1 if self.pagat else self.declarer,
            need=self.bids[me] - self.won[me],
            left=hand.bit_count(),
            unseen=unseen,
            held=1.0,
            declarer_hand=theirs,
            declarer_void=sum(m for m in SUIT_MASK[4:] if not theirs & m),
        )

    def rollout(self) -> None:
        """Play the deal out with the medium policy for every seat."""
        while self.hands[self.turn()]:
            seat = self.turn()
            legal = legal_mask(self.hands[seat], self.trick, self.trump, ORDER, FOLLOW)
            if legal & (legal - 1) == 0:
                self.play(legal.bit_length() - 1)
            else:
                self.play(_policy(self.know(seat), True))


def _winner(table: _Table, params: pottle.Params) -> int:
    """Who takes the pot after the deal played out on ``table``, -1 if it carries over."""
    return pottle.pot_winner(params, tuple(table.bids), tuple(table.won), table.declarer)


def _medium_bid_in(state: pottle.State) -> int:
    """Medium's bid for the seat to act in a full state."""
    seat = state.turn
    cur = max(state.bids) if state.params.pot_rule == "auction_winner" else -1
    held = _held_at_bid(state.params.players)
    return _medium_bid(state.hands[seat], cur, pottle.legal_actions(state), held)[0]


def _medium_trump_in(state: pottle.State) -> int:
    seat = state.declarer
    held = _held_at_bid(state.params.players)
    chances = {t: _contract_chances(state.hands[seat], t, held)[state.bids[seat]] for t in TRUMPS}
    return max(TRUMPS, key=lambda t: chances[t])


def _bid_fit(hand: int, bid: int, high: int, held: float) -> float:
    """The search's model of a bidder who raised the high bid ``high`` to ``bid``: how well that
    fits ``hand``, by how far the bid is from the tricks medium expects of it with its best trump
    (a bell curve ``SPREAD`` tricks wide, never below ``EPSILON``)."""
    if bid <= high:
        return 1.0
    tricks = _tricks_at_bid(hand, held)
    return max(EPSILON, math.exp(-((bid - tricks) ** 2) / (2 * SPREAD**2)))


# Each suit holding's card chances as trump, with no trump, and beside another trump, by the
# chance a card is held: at most 5,812 holdings of up to seven cards for each table size.
_HOLDINGS: dict[tuple[int, float], tuple[tuple[float, ...], ...]] = {}


def _tricks_at_bid(hand: int, held: float) -> float:
    """``max(_expected(hand, t, FULL & ~hand, held) for t in TRUMPS)``, the same number, from a
    table of suit holdings: with every card but the hand unseen, a card's ``_win_chance``
    depends only on its own suit's holding and whether that suit is trump, another suit is, or
    none is (a hand of seven never holds a whole suit, which would leave no trump unseen). The
    search weighs every deal it draws by this, so each holding is valued once."""
    rows = []
    for s in SUITS:
        holding = hand >> 16 * s & 0xFFFF
        row = _HOLDINGS.get((holding, held))
        if row is None:
            mine = holding << 16 * s
            unseen = FULL & ~mine
            row = tuple(
                tuple(_win_chance(c, mine, t, unseen, held) for c in cards_of(mine))
                for t in (s, -1, 4 if s != 4 else 5)  # trump, no trump, another suit trump
            )
            _HOLDINGS[holding, held] = row
        rows.append(row)
    best = -1.0
    for t in TRUMPS:
        chances: list[float] = []
        for s, row in zip(SUITS, rows, strict=True):
            chances += row[0 if s == t else (1 if t < 0 else 2)]
        # Summed card by card, lowest first, as _expected sums them: the very same float.
        best = max(best, sum(chances))
    return best


def _held_at_bid(n: int) -> float:
    """Before any card is played: the chance an unseen card is in another player's hand."""
    return pottle.HAND * (n - 1) / (52 - pottle.HAND)


# --- the search's knowledge ----------------------------------------------------------------------


def knowledge(view: pottle.View) -> Knowledge:
    """The search's knowledge of Pottle, for a search from ``view``."""
    return Knowledge(view.params)


class Knowledge(search.Knowledge[pottle.State]):
    """Pottle for ``tapete.bots.search``: the horizon is the end of the deal, its value the chips
    it moves (the pot to its winner, a fair share of a pot carried over to everyone); bids, trump
    and cards are decisions alike."""

    rules: Rules[pottle.State, Any] = pottle  # annotated, or mypyc leaves it unset
    scale = 4.0  # chips: a pot of an ante a player, more when it carried over

    def __init__(self, params: pottle.Params) -> None:
        self.params = params

    def sampler(self, view: pottle.View) -> Callable[[random.Random], pottle.State]:
        """Deals drawn from the view in proportion to how well the raises of the others (the
        declarer's bid among them) fit the hands they give them (``_bid_fit``; a bid that raised
        nothing says little and costs as much to read), read by ``search.read``."""
        me = view.seat
        n = view.params.players
        highs: dict[int, int] = {}  # the others who raised: the high bid each one beat
        high = -1
        for s in [(view.dealer + 1 + i) % n for i in range(n)]:
            bid = view.bids[s]
            if bid is None:
                break
            if bid > high and s != me:
                highs[s] = high
            high = max(high, bid)
        bidders = list(highs)
        draw = pottle.sampler(view)
        if not bidders or view.params.pot_rule != "auction_winner":
            return draw
        held = _held_at_bid(n)

        def fit(world: pottle.State) -> float:
            weight = 1.0
            for s in bidders:
                weight *= _bid_fit(world.deal.dealt[s], world.bids[s], highs[s], held)
            return weight

        return search.read(draw, fit, READ_DEALS)

    def deal_over(self, start: pottle.State, state: pottle.State) -> bool:
        return state.phase == _OVER or state.deal.number != start.deal.number

    def returns(self, start: pottle.State, state: pottle.State) -> tuple[float, ...]:
        return tuple(b - a for a, b in zip(_worth(start), _worth(state), strict=True))

    def key(self, state: pottle.State) -> Hashable:
        """The seat's hand, the bids, the trump and the cards played: all it sees."""
        seat = state.turn
        return (seat, state.hands[seat], state.bids, state.trump, state.tricks, state.trick)

    def prior(self, state: pottle.State, actions: Sequence[int]) -> list[float]:
        """Medium's bid, trump and card, from the seat's own view."""
        liked = _medium_action(state, list(actions))
        return [1.0 if a == liked else 0.1 for a in actions]

    def rollout(
        self, start: pottle.State, state: pottle.State, rng: random.Random
    ) -> tuple[float, ...]:
        """The auction and trump by medium, the cards by medium's policy on the whole deal."""
        while state.phase in (_BID, _TRUMP):
            state = pottle.apply(state, _medium_action(state, []))
        before = self.returns(start, state)
        if state.phase == _OVER or state.deal.number != start.deal.number:
            return before
        table = _Table(state)
        table.rollout()
        n, pot = table.n, state.pot
        winner = _winner(table, self.params)
        if winner < 0:
            return before
        return tuple(v + (pot if s == winner else 0) - pot / n for s, v in enumerate(before))

    def exact(self, start: pottle.State, state: pottle.State) -> tuple[float, ...] | None:
        """Few tricks left, every card known: whether the declarer can force exactly his bid
        (``_solved``), his share of the pot by that."""
        if state.phase != _PLAY or state.params.pot_rule != "auction_winner":
            return None
        if max(h.bit_count() for h in state.hands) > SOLVE_TRICKS:
            return None
        table = _Table(state)
        success = _solved(table)
        before = self.returns(start, state)
        if not success:
            return before
        pot, n, decl = state.pot, table.n, table.declarer
        return tuple(
            v + success * ((pot if s == decl else 0) - pot / n) for s, v in enumerate(before)
        )


class _Target(Solver):
    """Whether the declarer can end with between ``low`` and ``high`` more tricks against the
    defenders, every card known: a yes-or-no search that stops at the first proof."""

    def __init__(self, pos: Position, declarer: int, low: int, high: int) -> None:
        super().__init__(pos, {declarer}, {declarer})
        self.declarer, self.low, self.high = declarer, low, high
        self.memo: dict[tuple[tuple[int, ...], int, int], bool] = {}

    def reach(self, hands: list[int], trick: tuple[int, ...], leader: int, taken: int) -> bool:
        if not trick:
            left = hands[leader].bit_count()
            if taken > self.high or taken + left < self.low:
                return False
            if taken >= self.low and taken + left <= self.high:
                return True
            key = (tuple(hands), leader, taken)
            known = self.memo.get(key)
            if known is not None:
                return known
        seat = leader
        for _ in trick:
            seat = self.after[seat]
        mine = seat == self.declarer
        result = not mine
        for card in self.moves(hands, seat, trick):
            hands[seat] ^= 1 << card
            played = (*trick, card)
            if len(played) == len(self.pos.seats):
                winner = leader
                for _ in range(trick_winner(played, self.pos.trump, self.pos.order)):
                    winner = self.after[winner]
                ok = self.reach(hands, (), winner, taken + (winner == self.declarer))
            else:
                ok = self.reach(hands, played, leader, taken)
            hands[seat] ^= 1 << card
            if ok == mine:
                result = ok
                break
        if not trick:
            self.memo[(tuple(hands), leader, taken)] = result
        return result


def _solved(table: _Table) -> float:
    """The declarer's success with every card known and best play on both sides: 1 if he can
    force exactly his bid, ``LOOSE`` if he can force at least it and, apart, at most it (imperfect
    defenders often let him steer there), else 0."""
    decl = table.declarer
    need = table.bids[decl] - table.won[decl]
    if need < 0:
        return 0.0
    pos = Position(
        hands=table.hands,
        seats=tuple(range(table.n)),
        trick=table.trick,
        leader=table.leader,
        trump=table.trump,
        order=ORDER,
        obligation=FOLLOW,
    )

    def can(low: int, high: int) -> bool:
        return _Target(pos, decl, low, high).reach(list(pos.hands), pos.trick, pos.leader, 0)

    if can(need, need):
        return 1.0
    if can(need, 99) and can(0, need):
        return LOOSE
    return 0.0


def _worth(state: pottle.State) -> list[float]:
    """Each seat's net chips, with a fair share of the pot: what later deals give back of a pot
    that carries over (the antes of the next deal are in it, as they are in the stacks)."""
    share = state.pot / state.params.players
    return [c - b + share for c, b in zip(state.stacks, state.bought, strict=True)]


def _medium_action(state: pottle.State, legal: list[int]) -> int:
    """Medium's bid, trump or card for the seat to act in a full state, from its own view."""
    if state.phase == _BID:
        return _medium_bid_in(state)
    if state.phase == _TRUMP:
        return _trump_action(_medium_trump_in(state))
    if len(legal) == 1:
        return legal[0]
    return _policy(_know_view(pottle.observe(state, state.turn), legal), True)
