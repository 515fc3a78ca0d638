"""Tute bots (two players with a stock, four in partnerships): rules, card counting, search.

* **easy** plays like a casual player: it always swaps, sings and declares when it may, leads its
  cheapest card, wins a trick that holds points with its cheapest winner (unless its partner is
  winning it and the rules let it off beating him) and otherwise throws its cheapest card.
* **medium** counts cards: from what is still out, the voids and "could not beat" facts its view
  holds and the cards shown in cantes and swaps, it estimates for each legal card the chance
  that its side takes the trick and the points that go with it, against what keeping the card is
  worth later (a sure winner, a trump, half of a pair still to sing, the 7 of trumps that can
  take a counting card from under the stock). It smears points on a partner's safe trick.
* **hard** (and **expert**, with more time) is the information-set search of
  ``tapete.bots.search``, valued by the deal's point margin of the seat's side. What it knows of
  Tute: an information set is the seat's hand and everything shown (tricks, cantes, swaps, the
  cards known to be in a hand); in playouts every seat swaps and sings as medium does and plays
  uniformly random cards with two players, medium's with four; medium's choice is the prior;
  with four players a leaf with 12 cards or fewer left is solved exactly for card points
  (``tapete.bots.solver``). Swaps and cantes are decisions of the same search, which sings
  whenever it may (it chooses which cante and the card after it). With two players once the
  stock is gone every unseen card is in the other hand: the hands are open, so one exact solve
  decides.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tapete.bots import Budget, Decision, Move, Reason, search
from tapete.bots.solver import Position, Solver, solve
from tapete.cards import SPANISH_40, cards_of, suit_mask
from tapete.game import Rules
from tapete.games import tute
from tapete.tricks import MUST_WIN, beats, trick_winner

__all__ = ["Knowledge", "decide", "knowledge"]

UNIT = "points of margin"  # what a deal's returns count, in reasons and reviews

PRIOR_POINTS = 5.0  # hard's prior: a card worth this many points less is e times less liked
EXACT_CARDS = 12  # four players: cards left in all hands at or below which a leaf is solved
BEST_OF_WIN = 60  # best_of_K matches: what winning a deal is worth next to its points
POINTS = tute.POINTS
ORDER = tute.ORDER
SUITS = tuple(suit_mask(s) for s in range(4))
SEVEN, TWO = 7, 2
# The medium policy's weights, in points of margin.
SMEAR = 3.0  # what a partner still to play adds to a trick this side is winning
FOLLOW_POINTS = 1.0  # what each opponent still to play adds to a trick this side takes
CAPTURE = 9.0  # four players: what a card that wins a trick later takes besides itself
CAPTURE_2 = 3.5  # two players
TRUMP_RISK = 0.35  # how much each higher trump still out lowers a trump's chance to win later
PARTNER_SAVE = 0.5  # four players: the chance a losing card still ends in a partner's trick
PAIR_KEEP = 0.5  # the share of a cante's value a card of the pair keeps
CANTE_WIN = 0.5  # the share of a cante's value that winning the trick now brings
# Playouts play uniformly random cards (swaps and cantes still medium's), as a decision then
# samples several times the deals: at 100 ms a decision, over medium's cards, +5.28 [+1.85,
# +8.71] points a deal with two players (200 duplicate groups, seed 31) and +2.73 [+0.38, +5.07]
# with four (200 groups, seeds 32 and 33: +2.26 and +3.19).


def decide(
    level: str, view: tute.View, legal: list[int], rng: random.Random, budget: Budget
) -> Decision:
    if tute.TUTE in legal:
        return Decision(
            tute.TUTE, Reason("four Reyes or four Caballos: a tute wins the deal outright")
        )
    if level == "hard":
        return _hard(view, legal, rng, budget)
    declaration = _declaration(legal)
    if declaration is not None:
        return Decision(declaration, _declaration_reason(view, declaration))
    know = _from_view(view, legal)
    if level == "easy":
        return Decision(_easy_card(know), Reason("plays cheap, wins tricks with points in them"))
    card, p_win = _medium_card(know)
    return Decision(card, Reason("takes the trick {p:.0%} of the time", p=p_win))


def _declaration(legal: Sequence[int]) -> int | None:
    """Easy and medium always swap first (swaps come before cantes), then sing."""
    if tute.SWAP in legal:
        return tute.SWAP
    sings = [a for a in legal if tute.SING <= a < tute.SING + 4]
    return sings[0] if sings else None


def _declaration_reason(view: tute.View, action: int) -> Reason:
    if action == tute.SWAP:
        return Reason("swaps a low trump for the face-up card")
    return Reason("sings {n}", n=40 if action - tute.SING == view.trump else 20)


# --- what a seat knows ---------------------------------------------------------------------------


@dataclass
class _Know:
    """One seat's facts at a card decision, from its view or (in playouts) from a state."""

    n: int
    seat: int
    hand: int
    legal: int
    trick: tuple[int, ...]
    leader: int
    trump: int
    may: list[int]  # per seat: the cards it may hold (its known cards included)
    known: list[int]  # per seat: the cards everyone knows it holds
    miss: list[float]  # per seat: the chance it lacks one given unseen card
    unseen: int  # cards out of this hand and not played (other hands and the stock)
    face_up: int  # two players: the card under the stock, or -1
    window: bool  # cantes may still be made
    sung: int  # suits sung this deal (bits)
    targets: tuple[int, ...]  # the face-up ranks the 2 of trumps takes
    beat_odds: dict[int, float] = field(default_factory=dict)  # _p_beats, worked out once


def _miss(
    n: int, seat: int, sizes: Sequence[int], known: Sequence[int], unseen: int
) -> list[float]:
    pool = unseen
    for k in known:
        pool &= ~k
    count = max(1, pool.bit_count())
    out = []
    for s in range(n):
        if s == seat:
            out.append(1.0)
            continue
        unknown = sizes[s] - known[s].bit_count()
        out.append(max(0.0, 1.0 - unknown / count))
    return out


def _from_view(view: tute.View, legal: Sequence[int]) -> _Know:
    assert view.seat is not None and view.hand is not None
    n, seat, hand = view.params.players, view.seat, view.hand.mask
    played = 0
    for _, cards in (*view.tricks, (view.leader, view.trick)):
        for c in cards:
            played |= 1 << c
    unseen = SPANISH_40.mask & ~hand & ~played
    if view.face_up >= 0:
        unseen &= ~(1 << view.face_up)
    known = [k.mask for k in view.known]
    known[seat] = 0
    may = [0 if s == seat else (unseen & ~view.excluded[s].mask) | known[s] for s in range(n)]
    sung = 0
    for _, _, suit in view.cantes:
        sung |= 1 << suit
    return _Know(
        n=n,
        seat=seat,
        hand=hand,
        legal=sum(1 << a for a in legal if a < tute.SWAP),
        trick=view.trick,
        leader=view.leader,
        trump=view.trump,
        may=may,
        known=known,
        miss=_miss(n, seat, view.hand_sizes, known, unseen),
        unseen=unseen,
        face_up=view.face_up,
        window=n == 4 or view.face_up >= 0 or view.params.cantes_after_stock,
        sung=sung,
        targets=view.params.two_swap_targets,
    )


def _from_state(state: tute.State, legal: int) -> _Know:
    """A seat's facts in a playout, ``legal`` its legal cards: what is out, without the voids
    play has shown."""
    n, seat = state.params.players, state.turn
    hand = state.hands[seat]
    unseen = 0
    for s in range(n):
        if s != seat:
            unseen |= state.hands[s]
    for c in state.stock:
        unseen |= 1 << c
    known = list(state.known)
    known[seat] = 0
    return _Know(
        n=n,
        seat=seat,
        hand=hand,
        legal=legal,
        trick=state.trick,
        leader=state.leader,
        trump=state.deal.trump,
        may=[0 if s == seat else unseen for s in range(n)],
        known=known,
        miss=_miss(n, seat, [h.bit_count() for h in state.hands], known, unseen),
        unseen=unseen,
        face_up=state.face_up,
        window=n == 4 or state.face_up >= 0 or state.params.cantes_after_stock,
        sung=tute.sung_suits(state.cantes),
        targets=state.params.two_swap_targets,
    )


# --- easy ----------------------------------------------------------------------------------------


def _cheap(card: int, trump: int) -> tuple[int, int, int]:
    return (card >> 4 == trump, POINTS[card], ORDER.power[card])


def _easy_card(k: _Know) -> int:
    cards = sorted(cards_of(k.legal), key=lambda c: _cheap(c, k.trump))
    if not k.trick:
        return cards[0]
    winning = trick_winner(k.trick, k.trump, ORDER)
    best = k.trick[winning]
    winners = [c for c in cards if beats(c, best, k.trump, ORDER)]
    losers = [c for c in cards if c not in winners]
    on_table = sum(POINTS[c] for c in k.trick)
    # Where the rules let a player off beating his partner (must_beat_partner=false), even a
    # casual one does not trump or overtake the trick his partner is winning.
    partners = k.n == 4 and (k.leader + winning) % k.n == (k.seat + 2) % k.n
    if winners and on_table >= 2 and not (partners and losers):
        return min(winners, key=lambda c: (c >> 4 == k.trump, ORDER.power[c]))
    return (losers or cards)[0]


# --- medium --------------------------------------------------------------------------------------


def _p_any(k: _Know, s: int, mask: int) -> float:
    """The chance that seat ``s`` holds at least one card of ``mask``."""
    if mask & k.known[s]:
        return 1.0
    return 1.0 - k.miss[s] ** (mask & k.may[s]).bit_count()


def _p_void(k: _Know, s: int, suit: int) -> float:
    held = SUITS[suit] & k.may[s]
    if held & k.known[s]:
        return 0.0
    return k.miss[s] ** held.bit_count()


def _p_beats(k: _Know, s: int, best: int, led: int) -> float:
    """The chance that seat ``s``, still to play, can beat ``best`` in a trick of suit ``led``.

    A decision asks the same question for several cards (the trick's chance and the card's
    worth kept), so each answer is kept in ``k``."""
    key = (s << 8 | best) << 2 | led
    odds = k.beat_odds.get(key)
    if odds is not None:
        return odds
    trump = k.trump
    higher = _p_any(k, s, ORDER.above[best])
    if best >> 4 == trump:
        odds = higher if led == trump else _p_void(k, s, led) * higher
    else:
        odds = min(1.0, higher + _p_void(k, s, led) * _p_any(k, s, SUITS[trump]))
    k.beat_odds[key] = odds
    return odds


def _trick_chance(
    k: _Know, card: int, after: Sequence[int], winning: int
) -> tuple[float, float, float]:
    """After ``card``: the chance that this side takes the trick, that this seat does, and what
    the cards still to come add to this side's margin. ``after`` are the seats still to play
    after this one, ``winning`` the index of the card winning the trick so far (-1: none)."""
    if winning < 0 or beats(card, k.trick[winning], k.trump, ORDER):
        i, best = len(k.trick), card
    else:
        i, best = winning, k.trick[winning]
    owner = (k.leader + i) % k.n
    led = (k.trick[0] if k.trick else card) >> 4
    ours = 1.0 if owner % 2 == k.seat % 2 else 0.0
    mine = 1.0 if owner == k.seat else 0.0
    opponents = partner = 0.0
    for s in after:
        r = _p_beats(k, s, best, led)
        if s % 2 != k.seat % 2:
            ours *= 1 - r
            mine *= 1 - r
            opponents += 1
        else:
            partner = SMEAR * ours
            ours += (1 - ours) * r * 0.7
    return ours, mine, opponents * FOLLOW_POINTS * ours + partner


def _pair_value(k: _Know, suit: int) -> int:
    return 40 if suit == k.trump else 20


def _singable_soon(k: _Know) -> int:
    """What the cante this seat could make after winning a trick is worth."""
    if not k.window:
        return 0
    best = 0
    for suit in range(4):
        pair = tute.PAIRS[suit]
        if not k.sung >> suit & 1 and k.hand & pair == pair:
            best = max(best, _pair_value(k, suit))
    return best


def _keep(k: _Know, card: int, foes: Sequence[int]) -> float:
    """What holding ``card`` for later is worth to this side (in point margin); ``foes`` are the
    seats of the other side."""
    suit = card >> 4
    if suit == k.trump:
        higher = (ORDER.above[card] & k.unseen).bit_count()
        wins = 1 / (1 + TRUMP_RISK * higher)
    else:
        wins = 1.0
        for s in foes:
            wins *= 1 - _p_beats(k, s, card, suit)
    ours = wins + (1 - wins) * (PARTNER_SAVE if k.n == 4 else 0.0)
    value = (2 * ours - 1) * POINTS[card] + wins * (CAPTURE if k.n == 4 else CAPTURE_2)
    rank = card & 15
    if rank in (tute.REY, tute.CABALLO) and k.window and not k.sung >> suit & 1:
        pair = tute.PAIRS[suit]
        if k.hand & pair == pair:
            value += PAIR_KEEP * _pair_value(k, suit)
    if k.face_up >= 0 and suit == k.trump:
        up = k.face_up & 15
        if rank == SEVEN and up in tute.COUNTING:
            value += POINTS[k.face_up] + 2
        elif rank == TWO and up in k.targets:
            value += 2
    return value


def _medium_card(k: _Know) -> tuple[int, float]:
    """The legal card with the best expected trick margin less what keeping it is worth."""
    best, best_value, best_p = -1, -1e9, 0.0
    for card, (value, ours) in _medium_values(k).items():
        if value > best_value:
            best, best_value, best_p = card, value, ours
    return best, best_p


def _medium_values(k: _Know) -> dict[int, tuple[float, float]]:
    """Per legal card: medium's value of playing it, and its side's chance to take the trick."""
    on_table = 0
    for c in k.trick:
        on_table += POINTS[c]
    cante = _singable_soon(k)
    after = [(k.seat + step) % k.n for step in range(1, k.n - len(k.trick))]
    foes = range(1 - k.seat % 2, k.n, 2)
    winning = trick_winner(k.trick, k.trump, ORDER) if k.trick else -1
    out = {}
    for card in cards_of(k.legal):
        ours, mine, extra = _trick_chance(k, card, after, winning)
        value = (2 * ours - 1) * (on_table + POINTS[card]) + extra + mine * CANTE_WIN * cante
        out[card] = (value - _keep(k, card, foes), ours)
    return out


def _playout_action(state: tute.State, rng: random.Random) -> int:
    """The playout policy inside a sampled deal: medium's declarations (tute, swap, sing), then
    a uniformly random legal card."""
    if state.sing_right >= 0 or (state.face_up >= 0 and not state.trick):
        actions = tute.legal_actions(state)
        if tute.TUTE in actions:
            return tute.TUTE
        declaration = _declaration(actions)
        if declaration is not None:
            return declaration
    legal = tute.legal_cards(state)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    cards = cards_of(legal)
    return cards[int(rng.random() * len(cards))]


# --- hard ----------------------------------------------------------------------------------------


def _hard(view: tute.View, legal: list[int], rng: random.Random, budget: Budget) -> Decision:
    if view.params.players == 2 and view.stock_size == 0:
        return _open_hands(view, legal, rng)
    return search.decide(view, _sing_now(legal), rng, budget, knowledge(view), UNIT)


def _sing_now(legal: list[int]) -> list[int]:
    """With a cante on offer, only the cantes: the search chooses which to sing and the card
    after it, not whether to wait. A cante is made only by the side that has just won a trick,
    so waiting stakes its points on winning another while the window is open and the pair is
    still whole, and buys only what the pair would hide. Left to the search, the difference
    drowned in the playouts' noise: after winning a trick with the Rey and Caballo of trumps,
    30 deals sang the 40 with 11 of 20 dice."""
    sings = [a for a in legal if tute.SING <= a < tute.SING + 4]
    return sings or legal


def _side_value(state: tute.State, side: int) -> tuple[float, bool]:
    """The margin of ``side`` in the deal that just ended, and whether it won it."""
    scored = tute.scored_deal(state)
    if scored is None:
        raise AssertionError("a finished deal without a score")
    points, winner = scored
    won = winner == side
    margin = float(points[side] - points[1 - side])
    if _deals_to_win(state.params) > 1:
        margin += BEST_OF_WIN if won else -BEST_OF_WIN
    return margin, won


def _deals_to_win(params: tute.Params) -> int:
    return tute.deals_to_win(params.match)


def _position(state: tute.State) -> Position:
    p = state.params
    n = p.players
    return Position(
        hands=list(state.hands),
        seats=tuple(range(n)),
        trick=state.trick,
        leader=state.leader,
        trump=state.deal.trump,
        order=ORDER,
        obligation=MUST_WIN,  # four players with must_beat_partner=false: a stricter model
        must_underruff=p.must_underruff,
        last_trick_bonus=tute.last_trick_bonus(p),
        points=POINTS,
    )


def _card_values(state: tute.State, cards: Sequence[int], side: int) -> dict[int, int]:
    """Exact: for each card, the points ``side`` takes from the tricks left after playing it."""
    pos = _position(state)
    n = len(pos.seats)
    team = {s for s in range(n) if s % 2 == side}
    solver = Solver(pos, team, team)
    hands, seat = list(state.hands), state.turn
    out = {}
    for card in cards:
        hands[seat] ^= 1 << card
        played = (*state.trick, card)
        if len(played) == n:
            winner = (state.leader + trick_winner(played, pos.trump, ORDER)) % n
            left = hands[winner].bit_count()
            gain = solver.value_of_trick(played, left) if winner in team else 0
            out[card] = gain + solver.search(hands, (), winner, -(10**9), 10**9)
        else:
            out[card] = solver.search(hands, played, state.leader, -(10**9), 10**9)
        hands[seat] ^= 1 << card
    return out


def _margin_so_far(state: tute.State) -> int:
    """Side 0's card points and cantes so far, less side 1's."""
    points = [0, 0]
    for seat, taken in enumerate(state.points):
        points[seat % 2] += taken
    for _, seat, suit in state.cantes:
        points[seat % 2] += 40 if suit == state.deal.trump else 20
    return points[0] - points[1]


def _left(state: tute.State) -> int:
    """The card points still to take, with the last trick's bonus."""
    total = 0
    for h in state.hands:
        for c in cards_of(h):
            total += POINTS[c]
    for c in state.trick:
        total += POINTS[c]
    return total + tute.last_trick_bonus(state.params)


def _sing_first(view: tute.View, legal: list[int]) -> Decision | None:
    """With play solved exactly a cante costs nothing: sing now (the 40 before a 20)."""
    sings = [a for a in legal if tute.SING <= a < tute.SING + 4]
    if not sings:
        return None
    best = max(sings, key=lambda a: (a - tute.SING == view.trump, -a))
    return Decision(
        best, Reason("sings {n}: free points", n=40 if best - tute.SING == view.trump else 20)
    )


def _open_hands(view: tute.View, legal: list[int], rng: random.Random) -> Decision:
    """Two players after the stock: every unseen card is in the other hand, so solve exactly."""
    assert view.seat is not None
    sing = _sing_first(view, legal)
    if sing is not None:
        return sing
    state = tute.sample_state(view, rng)
    values = _card_values(state, legal, view.seat % 2)
    best = max(legal, key=lambda c: (values[c], -c))
    # Worded as the search's plan and value, so that a hint, which names the move first, does not
    # name it again (``bots.said_after``).
    takes = Reason(
        "takes {n} of the {left} points left with best play (the hands are known)",
        n=values[best],
        left=_left(state),
    )
    return Decision(
        best,
        Reason("{plan}: {value}", plan=Move(tute.format_action(view.params, best)), value=takes),
    )


# --- hard: what the search knows -----------------------------------------------------------------


def knowledge(view: tute.View) -> Knowledge:
    """The search's knowledge of Tute, for a search from ``view``."""
    return Knowledge(view.params)


class Knowledge(search.Knowledge[tute.State]):
    """Tute for ``tapete.bots.search``: the horizon is the end of the deal, valued by the point
    margin of the seat's side (plus a deal's worth in a best-of match, where deals are won)."""

    rules: Rules[tute.State, Any] = tute  # annotated, or mypyc leaves it unset
    scale = 40.0

    def __init__(self, params: tute.Params) -> None:
        self.params = params

    def sampler(self, view: tute.View) -> Callable[[random.Random], tute.State]:
        """``tute.sample_state``'s deals, with the view read once for the whole search."""
        return tute.sampler(view)

    def deal_over(self, start: tute.State, state: tute.State) -> bool:
        return state.result is not None or state.deal is not start.deal

    def returns(self, start: tute.State, state: tute.State) -> tuple[float, ...]:
        margin, _ = _side_value(state, 0)
        return tuple(margin if s % 2 == 0 else -margin for s in range(self.params.players))

    def key(self, state: tute.State) -> tuple[object, ...]:
        """The seat's hand and what everyone has seen: tricks, cantes, swaps, known cards."""
        seat = state.turn
        return (
            seat,
            state.hands[seat],
            state.tricks,
            state.trick,
            state.cantes,
            state.swaps,
            state.known,
            state.sing_right,
        )

    def solved(self, view: tute.View, legal: Sequence[int]) -> dict[int, float] | None:
        """Two players after the stock: every unseen card is in the other hand, so each card's
        margin is the solver's (a decision that may still sing or swap is left to sampling)."""
        if view.params.players != 2 or view.stock_size or view.params.cantes_after_stock:
            return None
        if any(a >= tute.SWAP for a in legal) or view.seat is None:
            return None
        state = tute.sample_state(view, random.Random(0))  # the one deal the view allows
        side = view.seat % 2
        takes = _card_values(state, legal, side)
        sign = 1 if side == 0 else -1
        out = {}
        for card in legal:
            margin = sign * _margin_so_far(state) + 2 * takes[card] - _left(state)
            if _deals_to_win(self.params) > 1:
                margin += BEST_OF_WIN if margin > 0 else -BEST_OF_WIN
            out[card] = float(margin)
        return out

    def declares(self, state: tute.State, action: int) -> bool:
        return action == tute.SWAP or tute.SING <= action < tute.SING + 4

    def prior(self, state: tute.State, actions: Sequence[int]) -> list[float]:
        """Declarations first (medium always makes them), then cards by medium's value."""
        values = _medium_values(_from_state(state, tute.legal_cards(state)))
        top = max(v for v, _ in values.values())
        return [
            math.exp((values[a][0] - top) / PRIOR_POINTS) if a in values else 1.0 for a in actions
        ]

    def rollout(
        self, start: tute.State, state: tute.State, rng: random.Random
    ) -> tuple[float, ...]:
        while not self.deal_over(start, state):
            state = tute.apply(state, _playout_action(state, rng))
        return self.returns(start, state)

    def exact(self, start: tute.State, state: tute.State) -> tuple[float, ...] | None:
        """Four players near the end: the sampled deal solved for card points (cantes sung so
        far count; a cante still to come is not foreseen)."""
        n = self.params.players
        if n != 4 or state.trick or sum(h.bit_count() for h in state.hands) > EXACT_CARDS:
            return None
        if state.sing_right >= 0:
            return None
        team = {0, 2}
        ours = solve(_position(state), team, team) if _left(state) else 0
        margin = float(_margin_so_far(state) + 2 * ours - _left(state))
        if _deals_to_win(self.params) > 1:
            margin += BEST_OF_WIN if margin > 0 else -BEST_OF_WIN
        return tuple(margin if s % 2 == 0 else -margin for s in range(n))
