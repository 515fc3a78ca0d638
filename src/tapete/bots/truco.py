"""Truco Paulista bots, 1v1 and 2v2: easy rules, medium card counting, hard information-set search.

* **easy** plays like a casual player: it leads its best card, beats the table as cheaply as it
  can, throws its lowest when it cannot or when its partner already holds the round. It counts
  "points" in hand (manilhas, threes, twos, aces, rounds won; both hands in a mão de onze) to
  raise, accept or run, with a little noise.
* **medium** counts cards: in round 1 it keeps back a card that no unseen card is likely to beat
  and leads its middle one, ties when a tie is as good as a win, never spends a card on a round
  its partner holds, and throws a card that cannot matter face down. Its win chance comes from
  deals sampled from its view and played out by that policy, each deal weighed by how well the
  opponents' raises (or accepts of its raise) fit the cards they hold there; raises, answers and
  the mão de onze compare that chance with thresholds jittered by the RNG, and it bluffs now and
  then with nothing.
* **hard** (and **expert**, with more time) is the information-set search of
  ``tapete.bots.search`` over deals drawn from its view and kept in proportion to how well they
  fit what the other seats did: in 1v1 each card the opponent played face up that medium would not
  have played with the hand the deal gives it counts against the deal, and so does a raise (or an
  accept of its raise) that medium's thresholds would not have made with the win chance that team
  sees there (a few deals drawn from each seat's view, played out). What it knows of this game
  (``Knowledge``): the horizon is the end of the hand, valued by the points it moves (its stake,
  or what a run from a raise gives); an information set is the seat's hand (and a partner's shown
  in a mão de onze), the cards face up and the bets; cards, raises, accepts, runs and the mão de
  onze are moves of the same tree. Playouts play medium's cards and answer a raise by a deal drawn
  from the answering seat's view; the prior, which is how the search first models the other seats,
  is medium's card and medium's bets for the seat's own win chance (a few deals drawn from its
  view, read with the other team's bets as medium reads them, played out); in 2v2 that model
  accepts a raise from break-even on. It raises back over a raise only where medium would
  (``_searched``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from tapete.bots import Budget, Decision, Reason, search
from tapete.cards import cards_of
from tapete.game import Rules
from tapete.games import truco
from tapete.games.truco import ACCEPT, DOWN, RAISE, RUN, TIE

_PLAY, _ANSWER, _ELEVEN, _OVER = truco.Phase  # read in playouts: a global is faster

__all__ = ["Knowledge", "decide", "knowledge"]

UNIT = "points"  # what a deal's returns count, in reasons and reviews

_WORDS = {ACCEPT: "accept", RUN: "run", RAISE: "raise"}
MEDIUM_DEALS = 32  # sampled deals behind medium's win chance
READ_TRIES = 30  # deals drawn at most for one that the other seats' bets and cards are kept for
OPPONENT_DEALS = 4  # deals behind the search's guess of an opponent's win chance, read in its bets
PLAY_MISS = 0.4  # how much less a deal counts for each card medium would not have played in it
ANSWER_MARGIN = 0.1  # 1v1: what the search's model asks beyond break-even to accept a raise
PRIOR_DEALS = 4  # sampled deals behind the search's guess of a seat's win chance, for its bets
RERAISE_AT = 0.8  # hard re-raises a raise only with the win chance medium re-raises with
# Easy plays a mão de onze from this count of its hand (both hands in 2v2). Playing risks 3 points
# to win 3 (the match), running gives 1, so a hand is worth playing from a one-in-three chance.
# At 4 (7 in 2v2) easy ran from 65% of the hands that win more than half of medium's deals, two
# manilhas among them; these counts lost the fewest points over 900 random deals each (running
# also keeps the team on 11 for another hand, so the match asks a little more: see docs/bots.md).
EASY_ELEVEN_1V1 = 2.5
EASY_ELEVEN_2V2 = 3.5


def decide(
    level: str, view: truco.View, legal: list[int], rng: random.Random, budget: Budget
) -> Decision:
    if view.blind:
        return Decision(legal[0], Reason("a blind hand: every position is alike"))
    if level == "hard":
        return search.decide(view, _searched(view, legal, rng), rng, budget, knowledge(view), UNIT)
    careful = level == "medium"
    betting = view.phase != truco.Phase.PLAY or RAISE in legal
    if careful and not betting:
        what = Reason("counts the cards still out")
        bet = None
    elif careful:
        chance = _estimate(view, rng, MEDIUM_DEALS, read=True)
        bet = _medium_bet(view, legal, rng, chance)
        what = Reason("wins about {p:.0%} of the possible deals of the hidden cards", p=chance)
    else:
        points = _easy_points(view)
        bet = _easy_bet(view, legal, rng, points)
        what = Reason("counts {n:.1f} points in hand", n=points)
    if bet is not None:
        return Decision(bet, what)
    card = _pick(*_seen(view), careful=careful)
    return Decision(card, what)


def _searched(view: truco.View, legal: list[int], rng: random.Random) -> list[int]:
    """The actions hard's search weighs: every legal one, but a re-raise of the raise it answers
    only where medium would make it (a win chance of RERAISE_AT, MEDIUM_DEALS deals drawn and
    read with the bets).

    The search's playouts never raise, so a re-raise it plays is answered and then played out at
    the higher stake with no further raise, though the other team may raise again when the cards
    turn its way. Left to its playouts, the search re-raised about half the raises it answered
    (hard-v1's flat search a quarter) and lost to hard-v1 in 2v2; see docs/bots.md."""
    if view.phase != _ANSWER or RAISE not in legal:
        return legal
    if _estimate(view, rng, MEDIUM_DEALS, read=True) >= RERAISE_AT:
        return legal
    return [a for a in legal if a != RAISE]


# --- what a seat knows ---------------------------------------------------------------------------


def _tied_team(params: truco.Params, dealer: int) -> int:
    """The team that wins a hand of three tied rounds, or -1 when nobody scores it."""
    rule = params.all_tied
    if rule == "dealer_team":
        return dealer & 1
    if rule == "mao_team":
        return ((dealer + 1) % params.players) & 1
    return -1


def _can_down(params: truco.Params, results: Sequence[int]) -> bool:
    if params.encoberta == "off" or not results:
        return False
    return not (params.no_encoberta_after_tie and TIE in results)


def _power(view: truco.View) -> tuple[int, ...]:
    return truco.powers(view.params.deck, view.manilha)


def _results(view: truco.View) -> tuple[int, ...]:
    return tuple(TIE if r.result is None else r.result for r in view.tricks)


def _seen(
    view: truco.View,
) -> tuple[
    int, int, int, tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int, bool, int, int
]:
    """The arguments of ``_pick`` for the seat of ``view``."""
    assert view.seat is not None and view.hand is not None
    seat, n = view.seat, view.params.players
    hand = view.hand.mask
    partner = view.hands[(seat + 2) % n] if n == 4 else None
    partner_mask = partner.mask if partner is not None else 0
    unseen = truco.deck(view.params).mask & ~(1 << view.upcard) & ~hand & ~partner_mask
    for done in view.tricks:
        for play in done.plays:
            if play.card >= 0:
                unseen &= ~(1 << play.card)
    for play in view.trick:
        if play.card >= 0:
            unseen &= ~(1 << play.card)
    trick = tuple(DOWN if play.down else play.card for play in view.trick)
    results = _results(view)
    return (
        hand,
        seat,
        n,
        trick,
        view.leader,
        results,
        _power(view),
        unseen,
        _can_down(view.params, results),
        _tied_team(view.params, view.dealer),
        partner_mask,
    )


# id(power) -> (power, its table), for ``_stronger``
_STRONGER: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _stronger(power: tuple[int, ...]) -> tuple[int, ...]:
    """For each strength 0..24, the cards stronger than it (a bitmask).

    Kept by the identity of ``power`` (a deal's, the same tuple all deal long): hashing its 40
    entries for a cache keyed by value cost as much as the rest of a card choice. The entry
    holds ``power`` itself, so its id is not reused while it is kept."""
    kept = _STRONGER.get(id(power))
    if kept is not None and kept[0] is power:
        return kept[1]
    if len(_STRONGER) >= 256:
        _STRONGER.clear()
    table = tuple(sum(1 << c for c, p in enumerate(power) if p > q) for q in range(25))
    _STRONGER[id(power)] = (power, table)
    return table


def _hold(power: int, unseen: int, against: int, stronger: Sequence[int]) -> float:
    """The chance that none of ``against`` of the ``unseen`` cards (dealt at random) beats
    ``power``."""
    total = unseen.bit_count()
    above = (unseen & stronger[power]).bit_count()
    chance = 1.0
    for i in range(min(against, total)):
        chance *= max(total - above - i, 0) / (total - i)
    return chance


def _tie_is_good(results: Sequence[int], team: int, tied_team: int) -> bool:
    """Whether tying this round beats losing it for ``team`` (a tie never beats a win)."""
    r = len(results)
    if r == 0:
        return True  # round 2 decides
    if r == 1:
        return results[0] != 1 - team  # after a win a tie wins the hand; after a tie, round 3
    first = results[0]
    return first == team or (first == TIE and tied_team != 1 - team)


# --- the card policy (easy and medium; hard's playouts) ------------------------------------------


def _pick(
    hand: int,
    seat: int,
    n: int,
    trick: tuple[int, ...],
    leader: int,
    results: tuple[int, ...],
    power: tuple[int, ...],
    unseen: int,
    can_down: bool,
    tied_team: int,
    partner: int = 0,
    *,
    careful: bool,
) -> int:
    """The card ``seat`` plays (``DOWN + card`` face down) from what that seat knows.

    ``trick`` holds the round's plays from ``leader``, a face-down one as ``DOWN``; ``unseen`` the
    cards this seat cannot place; ``partner`` the partner's hand when it is shown (mão de onze).
    """
    cards = sorted(cards_of(hand), key=power.__getitem__)
    if len(cards) == 1 and not trick:
        return cards[0]
    team = seat & 1
    best, on_top = 0, 0
    for i, play in enumerate(trick):
        if play < DOWN:
            q = power[play]
            if q > best:
                best, on_top = q, 1 << ((leader + i) % n & 1)
            elif q == best:
                on_top |= 1 << ((leader + i) % n & 1)
    after = n - 1 - len(trick)
    opponents_after = (after + 1) // 2 if n == 4 else after
    partner_after = n == 4 and after >= 2
    against = opponents_after * (3 - len(results))
    stronger = _stronger(power)

    def hold(q: int) -> float:
        return _hold(q, unseen, against, stronger)

    low = cards[0]
    if not trick:
        if not careful or len(cards) < 3:
            return cards[-1]
        # Round 1: keep a near-sure winner back when the middle card has a chance on its own.
        whole = _hold(power[cards[2]], unseen, n // 2 * 3, stronger)
        if whole >= 0.75 and hold(power[cards[1]]) >= 0.3:
            return cards[1]
        return cards[2]
    discard = DOWN + low if careful and can_down and power[low] < best else low
    if on_top == 1 << team:
        return discard  # the partner holds the round: keep the strong cards
    beat = [c for c in cards if power[c] > best]
    equal = [c for c in cards if power[c] == best and best > 0]
    if not careful:
        return beat[0] if beat else low
    if partner_after and partner:
        strongest = max(power[c] for c in cards_of(partner))
        if strongest > best and _hold(strongest, unseen, 3 - len(results), stronger) >= 0.7:
            return discard
    tie_good = _tie_is_good(results, team, tied_team)
    tie_wins = len(results) == 1 and results[0] == team
    spare = len(results) > 0 or len(cards) == 1 or power[cards[-1]] > best
    if equal and tie_good and spare and (tie_wins or not beat or power[beat[0]] > 20):
        return equal[0]
    if beat:
        return beat[0]
    if equal and tie_good:
        return equal[0]
    return discard


def _finish(
    world: truco.State, team: int, first: int = -1, dealt: Sequence[int] | None = None
) -> float:
    """Play ``world``'s hand out with the medium policy for every seat (after ``first``, the
    current seat's card, when given): 1 if ``team`` wins it, 0 if it loses, 0.5 if nobody does.
    ``dealt`` replaces the hands of ``world`` (another deal of the cards still out)."""
    d, params = world.deal, world.params
    n, power = params.players, d.power
    hands = list(world.hands if dealt is None else dealt)
    trick, leader, results = world.trick, world.leader, world.results
    alive = truco.deck(params).mask & ~(1 << d.vira)
    for _, plays in world.tricks:
        for play in plays:
            alive &= ~(1 << (play & 127))
    for play in trick:
        alive &= ~(1 << (play & 127))
    tied = _tied_team(params, d.dealer)
    shown = n == 4 and d.special == truco.ELEVEN
    can_down = _can_down(params, results)
    while True:
        seat = (leader + len(trick)) % n
        if first >= 0:
            play, first = first, -1
        elif d.blind:
            play = next(c for c in d.order[seat] if hands[seat] >> c & 1)
        else:
            partner = hands[seat ^ 2] if shown and seat & 1 == d.eleven_team else 0
            play = _pick(
                hands[seat],
                seat,
                n,
                trick,
                leader,
                results,
                power,
                alive & ~hands[seat] & ~partner,
                can_down,
                tied,
                partner,
                careful=True,
            )
        bit = 1 << (play & 127)
        hands[seat] &= ~bit
        alive &= ~bit
        trick = (*trick, play)
        if len(trick) < n:
            continue
        result, leader = truco.round_result(trick, leader, n, power)
        results = (*results, result)
        trick = ()
        winner = truco.hand_winner(results)
        if winner is not None:
            if winner == truco.ALL_TIED:
                winner = tied
            return 0.5 if winner < 0 else float(winner == team)
        can_down = _can_down(params, results)


def _evidence(view: truco.View) -> str:
    """What the bets so far tell of the opponents' hands: "raised", "accepted" (our raise), or
    nothing."""
    assert view.seat is not None
    if view.phase == truco.Phase.ANSWER:
        return "raised"
    if view.phase == truco.Phase.PLAY and view.stake > 1:
        return "accepted" if view.raised_by == view.seat & 1 else "raised"
    return ""


def _fit(view: truco.View, world: truco.State, evidence: str) -> float:
    """How well the opponents' bets fit the cards they hold in ``world`` (at most 1), by a casual
    count of those cards and the rounds they have won."""
    if not evidence:
        return 1.0
    assert view.seat is not None
    return _fits(
        world.hands, view.seat & 1, _power(view), view.params.deck, _results(view), evidence
    )


def _fits(
    hands: Sequence[int],
    team: int,
    power: tuple[int, ...],
    deck: str,
    results: Sequence[int],
    evidence: str,
) -> float:
    """``_fit`` for the other team's ``hands`` (every seat's, indexed by seat)."""
    held = max(_points(hands[s], power, deck) for s in range(1 - team, len(hands), 2))
    points = held + _rounds_points(results, 1 - team)
    if evidence == "raised":
        return 0.15 + 0.85 * _ramp(points, 1, 6)
    return 0.3 + 0.7 * _ramp(points, 0, 3)


def _estimate(view: truco.View, rng: random.Random, deals: int, read: bool = False) -> float:
    """The chance that the view's team wins the hand: sampled deals played out by medium.

    With ``read``, a deal counts more when the opponents' raises (or accepts of our raise) fit
    the cards they hold in it (``_fit``).
    """
    assert view.seat is not None
    team = view.seat & 1
    evidence = _evidence(view) if read else ""
    total = weights = 0.0
    for _ in range(deals):
        world = truco.sample_state(view, rng)
        weight = _fit(view, world, evidence)
        total += weight * _finish(world, team)
        weights += weight
    return total / weights


def _ramp(x: float, lo: float, hi: float) -> float:
    return min(1.0, max(0.0, (x - lo) / (hi - lo)))


# --- easy and medium betting ---------------------------------------------------------------------


def _easy_points(view: truco.View) -> float:
    """A casual count: 3 a manilha (4 the zap), 2 a three, 1.5 a two, 1 an ace, 3 a round won."""
    assert view.seat is not None
    n, team = view.params.players, view.seat & 1
    seats = (view.seat, (view.seat + 2) % n) if n == 4 else (view.seat,)
    hands = sum(h.mask for h in (view.hands[s] for s in seats) if h is not None)
    return _points(hands, _power(view), view.params.deck) + _rounds_points(_results(view), team)


def _points(hand: int, power: tuple[int, ...], deck: str) -> float:
    top = len(truco.ORDINARY[deck])
    worth = {top: 2.0, top - 1: 1.5, top - 2: 1.0, 24: 4.0, 23: 3.0, 22: 3.0, 21: 3.0}
    return sum(worth.get(power[c], 0.0) for c in cards_of(hand))


def _rounds_points(results: Sequence[int], team: int) -> float:
    return sum(0 if r == TIE else (3 if r == team else -3) for r in results)


def _easy_bet(view: truco.View, legal: list[int], rng: random.Random, points: float) -> int | None:
    noise = rng.uniform(-1.0, 1.0)
    if view.phase == truco.Phase.ELEVEN:
        both = view.params.players == 4
        return ACCEPT if points + noise >= (EASY_ELEVEN_2V2 if both else EASY_ELEVEN_1V1) else RUN
    if view.phase == truco.Phase.ANSWER:
        if RAISE in legal and points + noise >= 8:
            return RAISE
        return ACCEPT if points + noise >= (2 if view.proposal == 3 else 3) else RUN
    if RAISE in legal and points + noise >= 6:
        return RAISE
    return None


def _medium_bet(
    view: truco.View, legal: list[int], rng: random.Random, chance: float
) -> int | None:
    if view.phase == truco.Phase.ELEVEN:
        return ACCEPT if chance >= 0.36 + rng.uniform(-0.04, 0.04) else RUN
    if view.phase == truco.Phase.ANSWER:
        asked = view.proposal or 3
        given = truco.RUN_PAYS[asked]
        # Break-even against running, plus a margin: a raise tells of a strong hand.
        keep = (asked - given) / (2 * asked) + 0.1 + rng.uniform(-0.06, 0.06)
        if RAISE in legal and chance >= 0.8 + rng.uniform(-0.05, 0.05):
            return RAISE
        return ACCEPT if chance >= keep else RUN
    strong = chance >= 0.65 + rng.uniform(-0.08, 0.08)
    if RAISE in legal and (strong or (chance < 0.2 and rng.random() < 0.06)):
        return RAISE
    return None


# --- the search's knowledge ----------------------------------------------------------------------


def knowledge(view: truco.View) -> Knowledge:
    """The search's knowledge of Truco, for a search from ``view``."""
    return Knowledge(view.params)


class Knowledge(search.Knowledge[truco.State]):
    """Truco for ``tapete.bots.search``: the horizon is the end of the hand, its value the points
    the hand moves (its stake, or what a run gives), cards and bets decisions alike."""

    rules: Rules[truco.State, Any] = truco  # annotated, or mypyc leaves it unset
    scale = 3.0  # a hand is worth 1 to 12 points, mostly 1 or 3

    def __init__(self, params: truco.Params) -> None:
        self.params = params
        self.chances: dict[Hashable, float] = {}

    def sampler(self, view: truco.View) -> Callable[[random.Random], truco.State]:
        """Deals drawn from the view, kept in proportion to how well the other seats' cards
        (``_plays_fit``) and the other team's raise or accept of ours (``_bets_fit``) fit the
        hands they hold in them, as medium would have played and bet: a raise tells of
        strength, a card of the hand it was kept from. After READ_TRIES deals none kept, the one
        that fit best."""
        evidence = _evidence(view)
        deal = _fast_sampler(view)
        read = _plays_read(view)
        if not evidence and not read:
            return deal

        def sample(rng: random.Random) -> truco.State:
            best, top = None, -1.0
            for _ in range(READ_TRIES):
                world = deal(rng)
                weight = _plays_fit(world, read)
                if evidence:  # the plays' test first: it costs no playout
                    if rng.random() >= weight:
                        if weight > top:
                            best, top = world, weight
                        continue
                    weight = _bets_fit(view, world, evidence, rng)
                if rng.random() < weight:
                    return world
                if weight > top:
                    best, top = world, weight
            assert best is not None
            return best

        return sample

    def deal_over(self, start: truco.State, state: truco.State) -> bool:
        return state.phase == _OVER or state.deal.number != start.deal.number

    def returns(self, start: truco.State, state: truco.State) -> tuple[float, ...]:
        """Each seat's points: its team's gain minus the other team's."""
        gained = [a - b for a, b in zip(state.scores, start.scores, strict=True)]
        margin = float(gained[0] - gained[1])
        return tuple(margin if s & 1 == 0 else -margin for s in range(len(state.hands)))

    def key(self, state: truco.State) -> Hashable:
        """The seat's hand (and a partner's shown in a mão de onze), the cards face up so far
        (face-down ones as unknown), and the bets: everything the seat sees, nothing more."""
        seat, d = state.turn, state.deal
        shown = self.params.players == 4 and d.special == truco.ELEVEN
        partner = state.hands[seat ^ 2] if shown and seat & 1 == d.eleven_team else 0
        rounds = tuple(tuple(min(p, DOWN) for p in plays) for _, plays in state.tricks)
        return (
            seat,
            state.hands[seat],
            partner,
            rounds,
            tuple(min(p, DOWN) for p in state.trick),
            state.phase,
            state.stake,
            state.proposal,
            state.raised_by,
            state.ran,
        )

    def prior(self, state: truco.State, actions: Sequence[int]) -> list[float]:
        """Medium's card; raises and answers as medium's thresholds say of the seat's own win
        chance (a few deals drawn from its view, played out). The prior is what the search
        plays first at a seat's new information set: the other seats' model."""
        liked = -1
        if state.phase != _PLAY or RAISE in actions:
            key = self.key(state)
            chance = self.chances.get(key)
            if chance is None:
                chance = _own_chance(state, random.Random(hash(key)), PRIOR_DEALS)
                self.chances[key] = chance
            liked = _bet(state, actions, chance)
        if liked < 0:
            liked = _playout_card(state, list(actions))
        return [1.0 if a == liked else 0.1 for a in actions]

    def rollout(
        self, start: truco.State, state: truco.State, rng: random.Random
    ) -> tuple[float, ...]:
        return self.returns(start, _rollout(state, rng))

    def describe(self, params: truco.Params, action: int) -> str:
        return _WORDS.get(action) or truco.format_action(params, action)


def _bets_fit(view: truco.View, world: truco.State, evidence: str, rng: random.Random) -> float:
    """How likely medium's bets were in ``world``: its raise (or its accept of ours), from the
    win chance the other team sees there (OPPONENT_DEALS deals drawn from each seat's view)."""
    assert view.seat is not None
    n, team = view.params.players, view.seat & 1
    seats = [view.proposer] if view.proposer is not None else range(1 - team, n, 2)
    chance = max(_own_chance(world, rng, OPPONENT_DEALS, s, read=False) for s in seats)
    if evidence == "raised":
        bluff = 0.06 if chance < 0.2 else 0.0
        return max(0.04, bluff, _ramp(chance, 0.55, 0.75))
    asked = view.stake
    keep = (asked - truco.RUN_PAYS[asked]) / (2 * asked) + 0.1
    return max(0.1, _ramp(chance, keep - 0.1, keep + 0.1))


def _plays_read(view: truco.View) -> tuple[int, ...]:
    """The plays of ``view`` whose card tells of a hand it cannot see: their indices in the
    order played (face up, by a seat whose hand the view does not show). 1v1 only: in 2v2 three
    hidden hands and their partners' tricks left too few deals that fit (measured against the
    flat search: 4 points a match behind reading every seat, 2.3 reading the opponents only; the
    partner's cards alone were no better than none)."""
    if view.blind or not PLAY_MISS < 1 or view.params.players == 4:
        return ()
    plays = [p for r in view.tricks for p in r.plays] + list(view.trick)
    return tuple(i for i, p in enumerate(plays) if p.card >= 0 and view.hands[p.seat] is None)


def _plays_fit(world: truco.State, read: Sequence[int]) -> float:
    """How well the plays ``read`` fit the hands of ``world``: PLAY_MISS for each card the
    medium policy would not have played there, from what its seat knew then."""
    if not read:
        return 1.0
    d, params = world.deal, world.params
    n, power = params.players, d.power
    rounds = (*world.tricks, (world.leader, world.trick))
    held = list(world.hands)
    for leader, plays in rounds:
        for i, play in enumerate(plays):
            held[(leader + i) % n] |= 1 << (play & 127)
    shown = n == 4 and d.special == truco.ELEVEN
    tied = _tied_team(params, d.dealer)
    played = 1 << d.vira
    index = 0
    fit = 1.0
    results: tuple[int, ...] = ()
    for r, (leader, plays) in enumerate(rounds):
        trick: tuple[int, ...] = ()
        for i, play in enumerate(plays):
            seat = (leader + i) % n
            if index in read:
                partner = held[seat ^ 2] if shown and seat & 1 == d.eleven_team else 0
                unseen = truco.deck(params).mask & ~played & ~held[seat] & ~partner
                pick = _pick(
                    held[seat],
                    seat,
                    n,
                    trick,
                    leader,
                    results,
                    power,
                    unseen,
                    _can_down(params, results),
                    tied,
                    partner,
                    careful=True,
                )
                if pick != play:
                    fit *= PLAY_MISS
            bit = 1 << (play & 127)
            held[seat] &= ~bit
            played |= bit
            trick = (*trick, DOWN if play >= DOWN else play)
            index += 1
        if r < len(world.results):
            results = (*results, world.results[r])
    return fit


def _fast_sampler(view: truco.View) -> Callable[[random.Random], truco.State]:
    """``truco.sample_state`` for one view, faster: where no card the view cannot see lies face
    down on the table, a deal only draws the hidden hands from the cards still out, around one
    sampled state (the same distribution; the deck order past the hand, which no search reaches,
    is that state's)."""
    assert view.seat is not None
    hidden = [s for s, h in enumerate(view.hands) if h is None]
    covered = any(
        play.card < 0 for plays in (*(r.plays for r in view.tricks), view.trick) for play in plays
    )
    if covered or view.blind or not hidden:
        return lambda rng: truco.sample_state(view, rng)
    template = truco.sample_state(view, random.Random(0))
    pool = cards_of(sum(template.hands[s] for s in hidden) | _undealt(template))
    sizes = [view.hand_sizes[s] for s in hidden]
    need = sum(sizes)

    def sample(rng: random.Random) -> truco.State:
        hands = _dealt(template.hands, hidden, sizes, rng.sample(pool, need))
        return template._with(hands=tuple(hands))

    return sample


def _dealt(
    hands: Sequence[int], hidden: Sequence[int], sizes: Sequence[int], drawn: Sequence[int]
) -> list[int]:
    """``hands`` with the ``hidden`` seats' hands replaced by the ``drawn`` cards, in turn,
    ``sizes`` cards each."""
    out = list(hands)
    at = 0
    for s, size in zip(hidden, sizes, strict=True):
        out[s] = sum(1 << c for c in drawn[at : at + size])
        at += size
    return out


def _undealt(state: truco.State) -> int:
    """The cards of the deck in no hand and not on the table (nor the vira)."""
    mask = truco.deck(state.params).mask & ~(1 << state.deal.vira)
    for hand in state.hands:
        mask &= ~hand
    for _, plays in state.tricks:
        for play in plays:
            mask &= ~(1 << (play & 127))
    for play in state.trick:
        mask &= ~(1 << (play & 127))
    return mask


def _playout_card(state: truco.State, legal: list[int]) -> int:
    """The medium policy's card for the seat to play in a full state (what it may see only)."""
    d, params, seat = state.deal, state.params, state.turn
    if d.blind:
        return legal[0]
    n = params.players
    alive = truco.deck(params).mask & ~(1 << d.vira)
    for _, plays in state.tricks:
        for play in plays:
            alive &= ~(1 << (play & 127))
    for play in state.trick:
        alive &= ~(1 << (play & 127))
    shown = n == 4 and d.special == truco.ELEVEN and seat & 1 == d.eleven_team
    partner = state.hands[seat ^ 2] if shown else 0
    trick = tuple(DOWN if play >= DOWN else play for play in state.trick)
    card = _pick(
        state.hands[seat],
        seat,
        n,
        trick,
        state.leader,
        state.results,
        d.power,
        alive & ~state.hands[seat] & ~partner,
        _can_down(params, state.results),
        _tied_team(params, d.dealer),
        partner,
        careful=True,
    )
    return card if card in legal else card & 127


def _own_chance(
    state: truco.State, rng: random.Random, deals: int, seat: int = -1, read: bool = True
) -> float:
    """The chance the seat to act wins the hand as it sees it: the hands it cannot see dealt
    again at random from the cards it cannot place, played out by medium, each deal weighed by
    how well the other team's raises (or accepts of ours) fit it, as medium reads them.

    Truco reveals no voids, so every card the seat cannot place is as likely in any hand it
    cannot see; the cards already played stay where they are. ``seat``: another seat than the
    one to act; without ``read`` the bets are not read."""
    seat, d = state.turn if seat < 0 else seat, state.deal
    n = state.params.players
    shown = n == 4 and d.special == truco.ELEVEN and seat & 1 == d.eleven_team
    hidden = [s for s in range(n) if s != seat and not (shown and s == seat ^ 2)]
    pool_mask = truco.deck(state.params).mask & ~(1 << d.vira)
    for s in range(n):
        if s not in hidden:
            pool_mask &= ~state.hands[s]
    for _, plays in state.tricks:
        for play in plays:
            pool_mask &= ~(1 << (play & 127))
    for play in state.trick:
        pool_mask &= ~(1 << (play & 127))
    pool = cards_of(pool_mask)
    sizes = [state.hands[s].bit_count() for s in hidden]
    need = sum(sizes)
    team = seat & 1
    evidence = _state_evidence(state) if read and seat == state.turn else ""
    total = weights = 0.0
    for _ in range(deals):
        dealt = _dealt(state.hands, hidden, sizes, rng.sample(pool, need))
        weight = (
            _fits(dealt, team, d.power, state.params.deck, state.results, evidence)
            if evidence
            else 1.0
        )
        total += weight * _finish(state, team, dealt=dealt)
        weights += weight
    return total / weights


def _state_evidence(state: truco.State) -> str:
    """``_evidence`` for the seat to act in a full state."""
    if state.phase == _ANSWER:
        return "raised"
    if state.phase == _PLAY and state.stake > 1:
        return "accepted" if state.raised_by == state.turn & 1 else "raised"
    return ""


def _bet(state: truco.State, actions: Sequence[int], chance: float) -> int:
    """Medium's bet (raise, accept, run) for a win ``chance``, or -1 for playing a card.

    In 2v2 a raise is accepted from break-even on, without medium's margin: the search's model
    of an answer is then the team that calls what pays, not one that runs more than it should
    (a raise of the search's own would otherwise look richer than it is)."""
    if state.phase == _ELEVEN:
        return ACCEPT if chance >= 0.3 else RUN
    if state.phase == _ANSWER:
        asked = state.proposal
        margin = ANSWER_MARGIN if state.params.players == 2 else 0.0
        keep = (asked - truco.RUN_PAYS[asked]) / (2 * asked) + margin
        if RAISE in actions and chance >= 0.8:
            return RAISE
        return ACCEPT if chance >= keep else RUN
    return RAISE if RAISE in actions and chance >= 0.65 else -1


def _rollout(state: truco.State, rng: random.Random) -> truco.State:
    """The hand played out from ``state``: cards by the medium policy from each seat's own
    knowledge, raises answered by a deal drawn from the answering seat's view, no further
    raises."""
    number = state.deal.number
    while state.phase != _OVER and state.deal.number == number:
        if state.phase == _PLAY:
            legal = truco.legal_actions(state)
            action = _playout_card(state, legal)
        else:
            action = _bet(state, (), _own_chance(state, rng, 1))
        state = truco.apply(state, action)
    return state
