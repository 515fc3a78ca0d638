"""Truco Paulista, 1v1 and 2v2: three rounds a hand, raise the stake, first team to 12.

The rules as implemented (``docs/rules/truco.md`` is the long form):

* **Deck**: French suits. ``deck=dirty`` (*baralho sujo*) keeps 40 cards, A 2 3 4 5 6 7 J
  Q K; ``clean`` (*baralho limpo*) keeps 24, A 2 3 J Q K. Ordinary strength, suits irrelevant:
  3, 2, A, K, J, Q, 7, 6, 5, 4; two ordinary cards of one rank are equal.
* **Vira and manilhas**: after the deal the next card is turned up (the *vira*); the rank
  above it in the cycle 4-5-6-7-Q-J-K-A-2-3 (clean: Q-J-K-A-2-3) gives the four *manilhas*, which
  beat every other card and rank among themselves ♣ (zap) > ♥ (copas) > ♠ (espadilha) > ♦
  (pica-fumo).
* **Seats and deal**: 2 players, or 4 with partners opposite (teams {0, 2} and {1, 3}).
  Play order is seat order; *mão* (``dealer + 1``) leads the first round; the deal passes to mão;
  the first dealer is drawn by lot. Three cards each, one at a time from mão, then the vira; the
  rest of the deck is not used.
* **Rounds**: each player plays one card, no duty to follow. The best card wins; when the
  best rank is held by both teams the round is tied (partners sharing it win it). The winner
  leads the next round: the first partner to play the shared best rank, after a tie the first
  player of a tied best card.
* **Face-down cards** (*encoberta*): from round 2 a card may be played face down; it is
  worth nothing and stays unknown to everyone but its owner. A round of face-down cards only is
  tied and its leader leads again. ``encoberta=off`` forbids them, ``no_encoberta_after_tie``
  forbids them once a round of the hand was tied.
* **The hand**: rounds 1 and 2 to one team, or one won and the other tied, decide it;
  otherwise round 3 does, a tied round 3 going to round 1's winner; three tied rounds go to the
  dealer's team (``all_tied=no_score``: nobody; ``mao_team``: mão's team).
* **Raises**: the hand is worth 1. On their turn to play, before playing, a player may
  ``raise`` to the next step of 1 → 3 (*truco*) → 6 → 9 → 12 unless their team made the last
  accepted raise. The next opponent (``responder=either_opponent``: either opponent, see
  below) answers ``accept`` (play goes on at the new value), ``run`` (*correr*: the raisers score
  the value before the raise: 1, 3, 6, 9) or ``raise`` again, which the raisers answer in turn.
  ``forbid_pointless_raise``: no raise when winning at the value on the table would already give
  the team the game.
* **Mão de onze**: when exactly one team has 11 (``target - 1``) the partners of that team
  see each other's cards and its first player from mão answers ``accept`` (play for 3) or
  ``run`` (the opponents score 1, no cards are played). Nobody raises.
* **Mão de ferro**: when both teams have 11 nobody raises and the hand decides the game.
  With ``iron_hand_blind`` (the default) nobody sees their own cards: a seat plays ``play 1`` …
  ``play 3``, the first, second or third of its unseen cards in the order dealt, and the card is
  turned face up as it is played. Blind actions never name a card, so neither the view nor the
  legal actions tell a seat what it holds. A blind card cannot be played face down.
* **Score and end**: the winner of a hand scores its value; the first team to reach
  ``target`` (12) wins the match.

``responder=either_opponent`` (a decision made here: no source gives its protocol): the two
opponents are asked in play order from the raiser; either one's ``accept`` or ``raise`` binds the
team, and the team runs only when both say ``run``.

Actions are ints: a card ``c`` is ``play c``; ``DOWN + c`` is ``play c down``; ``BLIND + i`` is
``play i+1`` (blind); then ``RAISE``, ``ACCEPT`` and ``RUN``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, TypeAlias

from tapete import chance
from tapete.cards import (
    CARD_TEXT,
    Card,
    CardSet,
    Deck,
    cards_of,
    format_card,
    format_cards,
    is_card,
    parse_card,
)
from tapete.errors import IllegalActionError, InvalidActionError
from tapete.game import (
    Action,
    Event,
    GameState,
    Outcome,
    Seat,
    Setup,
    WordEnum,
    check,
    check_params,
    deal_as_seen,
    mypyc_attr,
    unshared,
)

__all__ = [
    "ACCEPT",
    "ALL_TIED",
    "BLIND",
    "CLUBS",
    "DIAMONDS",
    "DOWN",
    "ELEVEN",
    "HEARTS",
    "IRON",
    "MANILHA_SUITS",
    "MAX_TARGET",
    "NAME",
    "NEXT_STAKE",
    "NORMAL",
    "ORDINARY",
    "RAISE",
    "RUN",
    "RUN_PAYS",
    "SPADES",
    "TIE",
    "Deal",
    "Params",
    "Phase",
    "Play",
    "Round",
    "Special",
    "State",
    "View",
    "apply",
    "current_player",
    "deck",
    "deck_of",
    "events",
    "format_action",
    "hand_winner",
    "legal_actions",
    "manilha_rank",
    "new_state",
    "observe",
    "outcome",
    "parse_action",
    "players",
    "powers",
    "round_result",
    "sample_state",
    "sees",
    "stack_deck",
    "start_deal",
    "strength",
    "teams",
    "visible_action",
    "visible_events",
    "why_illegal",
]

NAME = "truco"
DOWN = 128
BLIND = 256
RAISE, ACCEPT, RUN = 259, 260, 261

TIE = 2  # a round result: team 0, team 1 or TIE
ALL_TIED = 3  # hand_winner: three tied rounds

CLUBS, DIAMONDS, HEARTS, SPADES = 4, 5, 6, 7
MANILHA_SUITS = (CLUBS, HEARTS, SPADES, DIAMONDS)  # zap, copas, espadilha, pica-fumo
ORDINARY = {"dirty": (3, 2, 14, 13, 11, 12, 7, 6, 5, 4), "clean": (3, 2, 14, 13, 11, 12)}
MAX_TARGET = 99  # the most points a match may be played to: a match ends in human time
NEXT_STAKE = {1: 3, 3: 6, 6: 9, 9: 12}
RUN_PAYS = {3: 1, 6: 3, 9: 6, 12: 9}  # a team that runs from a raise to 6 gives 3, ...
_RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}


class Phase(WordEnum):
    """What the seat to act is doing (``State.phase``, ``View.phase``)."""

    PLAY = 0  # play a card, or raise the stake
    ANSWER = 1  # accept, raise again or run from a raise
    ELEVEN = 2  # the team on 11 decides to play the mão de onze or to run
    OVER = 3  # the match is over


_PLAY, _ANSWER, _ELEVEN, _OVER = Phase  # for the hot path: a global is read faster


class Special(WordEnum):
    """What kind of hand is dealt (``Deal.special``, ``View.special``; docs/rules/truco.md)."""

    NORMAL = 0
    MAO_DE_ONZE = 1  # one team on 11: it sees its cards and decides to play for 3 or run
    MAO_DE_FERRO = 2  # both teams on 11: no raises, blind by default


NORMAL, ELEVEN, IRON = Special  # the short names the rules use


# Compiled, a native class would refuse a wrong type before check_params names it.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, kw_only=True)
class Params:
    """Truco's parameters; the first value of each is the default."""

    players: int = 2
    deck: str = "dirty"
    target: int = 12
    all_tied: str = "dealer_team"
    iron_hand_blind: bool = True
    encoberta: str = "rounds_2_3"
    no_encoberta_after_tie: bool = False
    responder: str = "next_opponent"
    forbid_pointless_raise: bool = False

    def __post_init__(self) -> None:
        check_params(self)
        check(self.players in (2, 4), "players", self.players, "2 (1v1) or 4 (2v2)")
        check(self.deck in ORDINARY, "deck", self.deck, "dirty (40 cards) or clean (24 cards)")
        check(
            2 <= self.target <= MAX_TARGET,
            "target",
            self.target,
            "a number of points from 2 to {most} (12 by default)",
            most=MAX_TARGET,
        )
        check(
            self.all_tied in ("dealer_team", "no_score", "mao_team"),
            "all_tied",
            self.all_tied,
            "dealer_team, no_score or mao_team",
        )
        check(
            self.encoberta in ("rounds_2_3", "off"),
            "encoberta",
            self.encoberta,
            "rounds_2_3 or off",
        )
        check(
            self.responder in ("next_opponent", "either_opponent"),
            "responder",
            self.responder,
            "next_opponent or either_opponent",
        )


def players(params: Params) -> int:
    return params.players


def deck(params: Params) -> Deck:
    """Every card the game uses: the dirty (40) or the clean (24) deck."""
    return deck_of(params.deck)


def teams(params: Params) -> tuple[tuple[Seat, ...], ...] | None:
    return ((0, 2), (1, 3)) if params.players == 4 else None


@lru_cache(maxsize=4)
def deck_of(kind: str) -> Deck:
    """The dirty (40) or clean (24) deck: French suits, the ranks Truco keeps."""
    return Deck(f"truco-{kind}", (CLUBS, DIAMONDS, HEARTS, SPADES), tuple(sorted(ORDINARY[kind])))


def manilha_rank(kind: str, vira: Card) -> int:
    """The rank just above the vira in the cycle 4-5-6-7-Q-J-K-A-2-3 (clean: Q-J-K-A-2-3).

    >>> [_rank_text(manilha_rank("dirty", parse_card(v, True))) for v in ("6c", "7c", "3c", "Ac")]
    ['7', 'Q', '4', '2']
    >>> _rank_text(manilha_rank("clean", parse_card("3h", True)))
    'Q'
    """
    cycle = ORDINARY[kind][::-1]
    return cycle[(cycle.index(vira & 15) + 1) % len(cycle)]


@lru_cache(maxsize=32)
def powers(kind: str, manilha: int) -> tuple[int, ...]:
    """Card strength indexed by card: manilhas 21..24, ordinary 1..10, -1 outside the deck."""
    power = [-1] * 128
    ranks = ORDINARY[kind]
    for suit in (CLUBS, DIAMONDS, HEARTS, SPADES):
        for i, rank in enumerate(ranks):
            power[suit * 16 + rank] = len(ranks) - i
    for i, suit in enumerate(MANILHA_SUITS):
        power[suit * 16 + manilha] = 24 - i
    return tuple(power)


def strength(params: Params, vira: Card, card: Card) -> int:
    """How strong ``card`` is under ``vira``: a larger number beats a smaller, equal ones tie.

    >>> p = Params()
    >>> kc, k_d = parse_card("Kc", True), parse_card("Kd", True)
    >>> strength(p, parse_card("Jh", True), kc) > strength(p, parse_card("Jh", True), k_d) > 10
    True
    """
    return powers(params.deck, manilha_rank(params.deck, vira))[card]


def round_result(
    plays: tuple[int, ...], leader: Seat, players: int, power: tuple[int, ...]
) -> tuple[int, Seat]:
    """The result of a round (team 0, team 1 or TIE) and who leads the next one.

    ``plays`` are in play order from ``leader``, a face-down card as ``DOWN + card`` (worth
    nothing). Partners alone on the best rank win it for their team, the first of them leading;
    both teams on it tie, and the first player of a best card leads. A round of face-down cards
    only is tied and its leader leads again.
    """
    best = 0
    first = leader
    on_top = 0  # bit t set: team t holds the best card
    seat = leader
    for play in plays:
        if play < DOWN:
            p = power[play]
            if p > best:
                best, first, on_top = p, seat, 1 << (seat & 1)
            elif p == best:
                on_top |= 1 << (seat & 1)
        seat = (seat + 1) % players
    if best == 0 or on_top == 3:
        return TIE, first
    return first & 1, first


def hand_winner(results: tuple[int, ...]) -> int | None:
    """The team that wins the hand after these round results, ALL_TIED, or None (play on).

    Who wins the hand (``docs/rules/truco.md``):

    >>> A, B = 0, 1
    >>> [hand_winner(r) for r in [(A, B, TIE), (TIE, B), (TIE, TIE, A), (A, TIE), (A, B)]]
    [0, 1, 0, 0, None]
    >>> hand_winner((TIE, TIE, TIE)) == ALL_TIED
    True
    """
    if len(results) < 2:
        return None
    r1, r2 = results[0], results[1]
    if len(results) == 2:
        if r1 == r2 != TIE or (r1 != TIE and r2 == TIE):
            return r1
        if r1 == TIE and r2 != TIE:
            return r2
        return None
    r3 = results[2]
    if r3 != TIE:
        return r3
    return r1 if r1 != TIE else ALL_TIED


@dataclass(eq=False)
class Deal:
    """What a deal fixes: its number, dealer, the vira and manilhas, the cards as dealt.

    Treat as immutable. Not a frozen dataclass: one is made every few steps of a playout, and a
    frozen one sets each field the slow way.
    """

    number: int
    dealer: Seat
    vira: Card
    manilha: int  # rank
    power: tuple[int, ...]
    deck: tuple[Card, ...]
    dealt: tuple[int, ...]  # each seat's three cards (bitmask)
    order: tuple[tuple[Card, ...], ...]  # each seat's cards in the order dealt (blind positions)
    special: Special
    eleven_team: int  # the team on 11 in a mão de onze, else -1
    blind: bool  # an iron hand played blind

    @property
    def mao(self) -> Seat:
        return (self.dealer + 1) % len(self.dealt)


# An event still to be rendered: a Deal (the deal event), ("trick", leader, plays, result,
# next leader, round number, the team on 11 in a mão de onze or -1), ("score", delta, totals,
# stake, team, reason), or an Event.
_Pending: TypeAlias = "Event | Deal | tuple[Any, ...]"


class State(GameState):
    """A Truco match between two decisions. Treat as immutable: ``apply`` returns a new one.

    ``trick`` holds the current round's plays from ``leader`` (``DOWN + card`` when face down),
    ``tricks`` the finished rounds as ``(leader, plays)`` with their ``results``. A pending raise
    is ``proposal`` (the value asked, else 0) by ``proposer``; play resumes with ``resume`` once
    it is accepted; ``ran`` counts the asked team's ``run`` answers under ``either_opponent``.
    """

    __slots__ = (
        "deal",
        "hands",
        "history",
        "last",
        "leader",
        "params",
        "phase",
        "proposal",
        "proposer",
        "raised_by",
        "ran",
        "results",
        "resume",
        "scores",
        "setup",
        "stake",
        "trick",
        "tricks",
        "turn",
    )

    params: Params
    setup: Setup
    deal: Deal
    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: Seat
    tricks: tuple[tuple[Seat, tuple[int, ...]], ...]
    results: tuple[int, ...]
    turn: Seat
    phase: Phase
    stake: int
    raised_by: int
    proposal: int
    proposer: Seat
    resume: Seat
    ran: int
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    last: tuple[_Pending, ...]  # what the last step did, rendered by ``events``

    def __init__(
        self,
        *,
        params: Params,
        setup: Setup,
        deal: Deal,
        hands: tuple[int, ...],
        trick: tuple[int, ...],
        leader: Seat,
        tricks: tuple[tuple[Seat, tuple[int, ...]], ...],
        results: tuple[int, ...],
        turn: Seat,
        phase: Phase,
        stake: int,
        raised_by: int,
        proposal: int,
        proposer: Seat,
        resume: Seat,
        ran: int,
        scores: tuple[int, ...],
        history: tuple[tuple[int, ...], ...],
        last: tuple[_Pending, ...],
    ) -> None:
        self.params = params
        self.setup = setup
        self.deal = deal
        self.hands = hands
        self.trick = trick
        self.leader = leader
        self.tricks = tricks
        self.results = results
        self.turn = turn
        self.phase = phase
        self.stake = stake
        self.raised_by = raised_by
        self.proposal = proposal
        self.proposer = proposer
        self.resume = resume
        self.ran = ran
        self.scores = scores
        self.history = history
        self.last = last

    def _copy(self) -> State:
        """A new state like this one (see ``GameState``)."""
        return State(
            params=self.params,
            setup=self.setup,
            deal=self.deal,
            hands=self.hands,
            trick=self.trick,
            leader=self.leader,
            tricks=self.tricks,
            results=self.results,
            turn=self.turn,
            phase=self.phase,
            stake=self.stake,
            raised_by=self.raised_by,
            proposal=self.proposal,
            proposer=self.proposer,
            resume=self.resume,
            ran=self.ran,
            scores=self.scores,
            history=self.history,
            last=self.last,
        )

    def __repr__(self) -> str:
        d = self.deal
        hands = " | ".join(format_cards(cards_of(h)) for h in self.hands)
        return (
            f"<truco deal {d.number} dealer {d.dealer} vira {format_card(d.vira)}"
            f" {Special(d.special)} {Phase(self.phase)} turn {self.turn} stake {self.stake}"
            f" proposal {self.proposal} results {list(self.results)}"
            f" trick [{' '.join(_format_play(p) for p in self.trick)}] hands [{hands}]"
            f" scores {list(self.scores)}>"
        )


class Play(NamedTuple):
    """A card on the table as a viewer sees it: ``card`` is -1 when face down and unknown."""

    seat: Seat
    card: Card
    down: bool


class Round(NamedTuple):
    """A finished round: who led, the plays, and the result (team 0, team 1, or None: tied)."""

    leader: Seat
    plays: tuple[Play, ...]
    result: int | None


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat=None``) knows."""

    seat: Seat | None
    params: Params
    deal: int
    dealer: Seat
    upcard: Card  # the vira
    manilha: int  # the manilha rank
    special: Special
    eleven_team: int | None
    blind: bool
    hands: tuple[CardSet | None, ...]  # own hand, the partner's in a mão de onze; None if unseen
    hand_sizes: tuple[int, ...]
    trick: tuple[Play, ...]
    leader: Seat
    tricks: tuple[Round, ...]
    turn: Seat | None
    phase: Phase
    stake: int
    proposal: int | None  # the value a pending raise asks for
    proposer: Seat | None
    resume: Seat | None  # who plays once the pending raise is accepted
    ran: int
    raised_by: int | None  # the team that made the last accepted raise
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]

    @property
    def hand(self) -> CardSet | None:
        """This seat's own hand, when it may see it."""
        return None if self.seat is None else self.hands[self.seat]


# --- the match -----------------------------------------------------------------------------


def new_state(params: Params, setup: Setup) -> State:
    n = params.players
    dealer = setup.first_dealer(n)
    return start_deal(params, setup, 0, dealer, (0, 0), (), ())


def _deal(params: Params, setup: Setup, number: int, dealer: Seat, scores: tuple[int, ...]) -> Deal:
    """Three cards each, one at a time from mão, then the vira; the special hands."""
    n = params.players
    stack = setup.deck(number, deck_of(params.deck).cards)
    order = [stack[(s - dealer - 1) % n : 3 * n : n] for s in range(n)]
    vira = stack[3 * n]
    manilha = manilha_rank(params.deck, vira)
    eleven = params.target - 1
    on_eleven = [t for t in (0, 1) if scores[t] == eleven]
    special = (NORMAL, ELEVEN, IRON)[len(on_eleven)]
    return Deal(
        number=number,
        dealer=dealer,
        vira=vira,
        manilha=manilha,
        power=powers(params.deck, manilha),
        deck=stack,
        dealt=tuple(sum(1 << c for c in cards) for cards in order),
        order=tuple(order),
        special=special,
        eleven_team=on_eleven[0] if special == ELEVEN else -1,
        blind=special == IRON and params.iron_hand_blind,
    )


def start_deal(
    params: Params,
    setup: Setup,
    number: int,
    dealer: Seat,
    scores: tuple[int, ...],
    history: tuple[tuple[int, ...], ...],
    earlier: tuple[_Pending, ...],
) -> State:
    """The state at the start of deal ``number``: dealt, and mão (or the team on 11) to act.

    ``earlier`` are the events of the step that ended the last deal, reported with this one.
    """
    deal = _deal(params, setup, number, dealer, scores)
    mao = deal.mao
    phase, turn = _PLAY, mao
    if deal.special == ELEVEN:
        # The team on 11 answers through its first player from mão.
        phase = _ELEVEN
        turn = mao if mao & 1 == deal.eleven_team else (mao + 1) % params.players
    return State(
        params=params,
        setup=setup,
        deal=deal,
        hands=deal.dealt,
        trick=(),
        leader=mao,
        tricks=(),
        results=(),
        turn=turn,
        phase=phase,
        stake=1,
        raised_by=-1,
        proposal=0,
        proposer=-1,
        resume=-1,
        ran=0,
        scores=scores,
        history=history,
        last=(*earlier, deal),
    )


def current_player(state: State) -> Seat | None:
    return None if state.phase == _OVER else state.turn


def legal_actions(state: State) -> list[Action]:
    """Cards (face up, then face down), then ``RAISE``; or the answers to a raise."""
    phase = state.phase
    if phase == _PLAY:
        hand = state.hands[state.turn]
        if state.deal.blind:
            return [BLIND + i for i in range(hand.bit_count())]
        cards = cards_of(hand)
        actions = cards + [DOWN + c for c in cards] if not _cover_rule(state) else cards
        if not _raise_rule(state):
            actions.append(RAISE)
        return actions
    if phase == _ANSWER:
        return [ACCEPT, RUN] if _raise_rule(state) else [ACCEPT, RUN, RAISE]
    if phase == _ELEVEN:
        return [ACCEPT, RUN]
    return []


def _cover_rule(state: State) -> str:
    """Why the current player may not play face down now ('' when they may)."""
    p = state.params
    if state.deal.blind:
        return "blind-hand"
    if p.encoberta == "off":
        return "encoberta-off"
    if not state.tricks:
        return "encoberta-round-1"
    if p.no_encoberta_after_tie and TIE in state.results:
        return "encoberta-after-tie"
    return ""


def _raise_rule(state: State) -> str:
    """Why the player to act may not raise now ('' when they may)."""
    special = state.deal.special
    if special == ELEVEN:
        return "no-raise-eleven"
    if special == IRON:
        return "no-raise-iron"
    if state.phase == _ANSWER:
        base = state.proposal
    else:
        base = state.stake
        if state.raised_by == state.turn & 1:
            return "raise-twice"
    if base == 12:
        return "stake-at-max"
    p = state.params
    if p.forbid_pointless_raise and state.scores[state.turn & 1] + base >= p.target:
        return "pointless-raise"
    return ""


def why_illegal(state: State, action: Action) -> IllegalActionError | None:
    """Why ``action`` breaks a rule now, or None. The single source of legality."""
    phase = state.phase
    if phase == _OVER:
        return IllegalActionError("match-over", "the match is over")
    if action in (ACCEPT, RUN):
        if phase == _PLAY:
            return IllegalActionError(
                "nothing-to-answer", "there is no raise to answer: play a card or raise"
            )
        return None
    if action == RAISE:
        rule = _raise_rule(state)
        return IllegalActionError(rule, _raise_message(state, rule)) if rule else None
    if not 0 <= action < BLIND + 3:
        return IllegalActionError("no-such-action", f"{action} is not a Truco action")
    if phase == _ANSWER:
        return IllegalActionError(
            "answer-first",
            f"the raise to {state.proposal} must be answered first: accept, run or raise",
        )
    if phase == _ELEVEN:
        return IllegalActionError(
            "eleven-decision",
            "mão de onze: the team on 11 first decides: accept (play for 3) or run (concede 1)",
        )
    return _why_card_illegal(state, action)


def _why_card_illegal(state: State, action: Action) -> IllegalActionError | None:
    hand = state.hands[state.turn]
    held = hand.bit_count()
    if action >= BLIND:
        if not state.deal.blind:
            return IllegalActionError(
                "not-blind",
                "cards are played by position only in a blind mão de ferro:"
                " name the card, e.g. play Kc",
            )
        if action - BLIND >= held:
            return IllegalActionError(
                "no-such-position", f"you hold {held} unseen cards: play 1 to {held}"
            )
        return None
    if state.deal.blind:
        return IllegalActionError(
            "blind-hand",
            f"mão de ferro is played blind and you cannot see your cards:"
            f" play 1 to {held}, by position",
        )
    card = action & 127
    if not hand >> card & 1:
        if not deck_of(state.params.deck).mask >> card & 1:  # 0, a Spanish card: none to name
            return IllegalActionError("no-such-action", f"{action} is not a Truco action")
        return IllegalActionError(
            "not-in-hand",
            f"{format_card(card)} is not in your hand ({format_cards(cards_of(hand))})",
        )
    if action >= DOWN:
        rule = _cover_rule(state)
        if rule:
            return IllegalActionError(rule, _COVER_MESSAGES[rule])
    return None


_COVER_MESSAGES = {
    "encoberta-off": "cards are never played face down in this game (encoberta=off)",
    "encoberta-round-1": "a card may be played face down from round 2 on, not in round 1",
    "encoberta-after-tie": "no card is played face down after a tied round"
    " (no_encoberta_after_tie)",
}


def _raise_message(state: State, rule: str) -> str:
    team = "your team's" if state.params.players == 4 else "your"
    match rule:
        case "no-raise-eleven":
            return "nobody raises in a mão de onze: the hand is worth 3"
        case "no-raise-iron":
            return "nobody raises in a mão de ferro: the hand decides the game"
        case "raise-twice":
            whose = "your team's" if state.params.players == 4 else "yours"
            return (
                f"the last accepted raise (to {state.stake}) was {whose}: the other side"
                " must raise next"
            )
        case "stake-at-max":
            return "12 is the top of the ladder: nothing is above it"
        case _:
            base = state.proposal or state.stake
            return (
                f"a raise is pointless: {base} points would already take {team} score of"
                f" {state.scores[state.turn & 1]} to {state.params.target}"
                " (forbid_pointless_raise)"
            )


def apply(state: State, action: Action) -> State:
    """The state after the current player takes ``action``; raises IllegalActionError."""
    if (
        state.phase == _PLAY
        and 0 <= action < DOWN
        and state.hands[state.turn] >> action & 1
        and not state.deal.blind
    ):
        return _play(state, action)
    error = why_illegal(state, action)
    if error is not None:
        raise error
    if action == RAISE:
        return _raise(state)
    if action == ACCEPT:
        return _accept(state)
    if action == RUN:
        return _run(state)
    if action >= BLIND:
        seat = state.turn
        hand = state.hands[seat]
        unseen = [c for c in state.deal.order[seat] if hand >> c & 1]
        return _play(state, unseen[action - BLIND])
    return _play(state, action)


def _raise(state: State) -> State:
    seat = state.turn
    n = state.params.players
    new = state._copy()  # then set: see GameState
    if state.phase == _PLAY:
        new.phase, new.proposal, new.resume = _ANSWER, NEXT_STAKE[state.stake], seat
    else:
        new.proposal = NEXT_STAKE[state.proposal]
    new.proposer, new.ran, new.turn, new.last = seat, 0, (seat + 1) % n, ()
    return new


def _accept(state: State) -> State:
    if state.phase == _ELEVEN:
        return state._with(phase=_PLAY, stake=3, turn=state.deal.mao, last=())
    new = state._copy()  # then set: see GameState
    new.phase, new.stake, new.raised_by = _PLAY, state.proposal, state.proposer & 1
    new.proposal, new.proposer, new.resume, new.ran = 0, -1, -1, 0
    new.turn, new.last = state.resume, ()
    return new


def _run(state: State) -> State:
    seat = state.turn
    if state.phase == _ELEVEN:
        return _end_hand(state._with(last=()), 1 - state.deal.eleven_team, 1, "declined")
    p = state.params
    if p.responder == "either_opponent" and p.players == 4 and state.ran == 0:
        return state._with(ran=1, turn=(seat + 2) % 4, last=())
    return _end_hand(state._with(last=()), state.proposer & 1, RUN_PAYS[state.proposal], "run")


def _play(state: State, play: int) -> State:
    seat = state.turn
    n = state.params.players
    hands = list(state.hands)
    hands[seat] ^= 1 << (play & 127)
    trick = (*state.trick, play)
    new = state._copy()  # then set: see GameState
    new.hands, new.last = tuple(hands), ()
    if len(trick) < n:
        new.trick, new.turn = trick, (seat + 1) % n
        return new
    result, leader = round_result(trick, state.leader, n, state.deal.power)
    results = (*state.results, result)
    new.trick, new.tricks = (), (*state.tricks, (state.leader, trick))
    new.results, new.leader, new.turn = results, leader, leader
    # The team whose partners see each other's cards goes with the round: the round may end
    # the deal, and ``visible_events`` must not ask the next deal who saw it.
    partners = state.deal.eleven_team if state.deal.special == ELEVEN else -1
    new.last = (("trick", state.leader, trick, result, leader, len(results), partners),)
    state = new
    winner = hand_winner(results)
    if winner is None:
        return state
    if winner == ALL_TIED:
        rule = state.params.all_tied
        d = state.deal
        team = {"dealer_team": d.dealer & 1, "mao_team": d.mao & 1, "no_score": -1}[rule]
        return _end_hand(state, team, state.stake, "all rounds tied")
    return _end_hand(state, winner, state.stake, "rounds")


def _end_hand(state: State, team: int, points: int, reason: str) -> State:
    """Score the hand for ``team`` (-1: nobody), then deal the next hand or end the match."""
    p, d = state.params, state.deal
    delta = (points if team == 0 else 0, points if team == 1 else 0)
    scores = (state.scores[0] + delta[0], state.scores[1] + delta[1])
    history = (*state.history, delta)
    last = (*state.last, ("score", delta, scores, state.stake, team, reason))
    if max(scores) < p.target:
        return start_deal(
            p, state.setup, d.number + 1, (d.dealer + 1) % p.players, scores, history, last
        )
    ended = state._with(
        scores=scores,
        history=history,
        phase=_OVER,
        turn=-1,
        proposal=0,
        proposer=-1,
        resume=-1,
        ran=0,
    )
    result = outcome(ended)
    assert result is not None
    end = Event(
        "end",
        {"scores": list(result.scores), "winners": list(result.winners), "reason": result.reason},
    )
    return ended._with(last=(*last, end))


def events(state: State) -> tuple[Event, ...]:
    """The deal, rounds, score and end of match that the last step brought about."""
    return tuple(_event(e) for e in state.last)


def visible_events(state: State, seat: Seat | None) -> tuple[Event, ...]:
    """The last step's events as ``seat`` may know them: a deal shows the hands ``observe``
    shows (none of them in a blind iron hand), and a round shows a face-down card only to the
    seat that played it and, in a mão de onze, to its partner, who saw the hand."""
    return tuple(_seen(state, p, _event(p), seat) for p in state.last)


def _seen(state: State, pending: _Pending, event: Event, seat: Seat | None) -> Event:
    if event.type == "deal":
        return deal_as_seen(event, lambda owner: sees(state, seat, owner), french=True)
    if event.type == "trick" and any(event.data["down"]):
        assert isinstance(pending, tuple)  # a round is kept raw
        n, leader, partners = state.params.players, event.data["leader"], pending[-1]

        def seen(owner: Seat) -> bool:
            return owner == seat or (seat is not None and seat & 1 == owner & 1 == partners)

        cards = [
            None if down and not seen((leader + i) % n) else card
            for i, (card, down) in enumerate(
                zip(event.data["cards"], event.data["down"], strict=True)
            )
        ]
        return Event("trick", {**event.data, "cards": cards})
    return event


def visible_action(state: State, action: Action, seat: Seat | None) -> str:
    """The text of ``action`` as ``seat`` may know it: a card played face down by another seat
    is ``play down``, but to the player's partner in a mão de onze, who saw the hand."""
    player = current_player(state)
    hidden = player is not None and player != seat and not sees(state, seat, player)
    if DOWN <= action < BLIND and hidden:
        return "play down"
    return format_action(state.params, action)


def _event(pending: _Pending) -> Event:
    # Events are kept raw in the state and only rendered here, off the playout hot path.
    if isinstance(pending, Event):
        return unshared(pending)
    if isinstance(pending, Deal):
        d = pending
        return Event(
            "deal",
            {
                "deal": d.number,
                "dealer": d.dealer,
                "mao": d.mao,
                "deck": [CARD_TEXT[c] for c in d.deck],
                "hands": [[CARD_TEXT[c] for c in cards] for cards in d.order],
                "upcard": CARD_TEXT[d.vira],
                "manilha": _rank_text(d.manilha),
                "stock": [],
                "special": str(d.special),
                "eleven_team": d.eleven_team if d.eleven_team >= 0 else None,
                "blind": d.blind,
            },
        )
    if pending[0] == "trick":
        _, leader, plays, result, next_leader, number, _ = pending
        return Event(
            "trick",
            {
                "round": number,
                "leader": leader,
                "cards": [CARD_TEXT[c & 127] for c in plays],
                "down": [c >= DOWN for c in plays],
                "winner": next_leader if result != TIE else None,
                "team": result if result != TIE else None,
                "next_leader": next_leader,
            },
        )
    _, delta, scores, stake, team, reason = pending
    return Event(
        "score",
        {
            "score": list(delta),
            "totals": list(scores),
            "stake": stake,
            "winner": team if team >= 0 else None,
            "reason": reason,
        },
    )


def outcome(state: State) -> Outcome | None:
    if state.phase != _OVER:
        return None
    team = 0 if state.scores[0] >= state.params.target else 1
    winners = tuple(s for s in range(state.params.players) if s & 1 == team)
    return Outcome(state.scores, winners, f"reached {state.params.target}")


# --- notation --------------------------------------------------------------------------------


def _rank_text(rank: int) -> str:
    return _RANK_TEXT.get(rank, str(rank))


def _format_play(play: int) -> str:
    return format_card(play & 127) + ("(down)" if play >= DOWN else "")


_WORDS = {RAISE: "raise", ACCEPT: "accept", RUN: "run"}
_ACTIONS = {word: action for action, word in _WORDS.items()}


def format_action(params: Params, action: Action) -> str:
    """The text notation (docs/notation.md); raises InvalidActionError outside the action space.

    >>> [format_action(Params(), a) for a in (parse_card("Kc", True), DOWN + 100, BLIND, RUN)]
    ['play Kc', 'play 4h down', 'play 1', 'run']
    """
    if action in _WORDS:
        return _WORDS[action]
    if not 0 <= action < BLIND + 3 or not (action >= BLIND or is_card(action % DOWN)):
        raise InvalidActionError(f"{action} is not a Truco action")
    if action >= BLIND:
        return f"play {action - BLIND + 1}"
    if action >= DOWN:
        return f"play {format_card(action - DOWN)} down"
    return f"play {format_card(action)}"


def parse_action(params: Params, text: str) -> Action:
    """``play CARD``, ``play CARD down``, ``play 1``..``play 3`` (blind), ``raise``, ``accept``,
    ``run``; a bare card is a play.

    >>> p = Params()
    >>> parse_action(p, "play 4h down") == DOWN + 100, parse_action(p, "play 2") == BLIND + 1
    (True, True)
    """
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _ACTIONS:
        return _ACTIONS[words[0]]
    if words and words[0] == "play":
        words = words[1:]
    down = len(words) == 2 and words[1] == "down"
    if len(words) != 1 + down:
        raise InvalidActionError(_usage(text))
    if words[0] in ("1", "2", "3"):
        if down:
            raise InvalidActionError(f"{text!r}: a blind card is played face up")
        return BLIND + int(words[0]) - 1
    deck = deck_of(params.deck)
    try:
        card = parse_card(words[0], french=True)
    except InvalidActionError:
        raise deck.no_card(words[0], _usage(text) if len(text.split()) == 1 else "") from None
    if not deck.mask >> card & 1:
        raise InvalidActionError(
            f"{format_card(card)} is not in the {params.deck} deck"
            f" (ranks {' '.join(_rank_text(r) for r in ORDINARY[params.deck])}; suits c d h s)"
        )
    return DOWN + card if down else card


def _usage(text: str) -> str:
    """What the notation reads, for ``text`` that is none of it (made only to be raised)."""
    return (
        f"{text!r} is not a Truco action: write play CARD, play CARD down, play 1..3 (blind),"
        " raise, accept or run"
    )


# --- views -----------------------------------------------------------------------------------


def sees(state: State, seat: Seat | None, owner: Seat) -> bool:
    """May ``seat`` see ``owner``'s cards? Its own, unless blind; its partner's in a mão de onze."""
    if seat is None:
        return False
    d = state.deal
    if seat == owner:
        return not d.blind
    return d.special == ELEVEN and seat & 1 == owner & 1 == d.eleven_team


def _view_plays(
    state: State, seat: Seat | None, leader: Seat, plays: tuple[int, ...]
) -> tuple[Play, ...]:
    n = state.params.players
    out = []
    for i, play in enumerate(plays):
        owner = (leader + i) % n
        down = play >= DOWN
        card = play & 127 if not down or sees(state, seat, owner) else -1
        out.append(Play(owner, card, down))
    return tuple(out)


def observe(state: State, seat: Seat | None) -> View:
    """What ``seat`` sees: its hand (not in a blind iron hand), the partner's hand in a mão de
    onze for the team on 11, the table; a face-down card only if it may see the owner's hand."""
    p, d = state.params, state.deal
    over = state.phase == _OVER
    return View(
        seat=seat,
        params=p,
        deal=d.number,
        dealer=d.dealer,
        upcard=d.vira,
        manilha=d.manilha,
        special=d.special,
        eleven_team=d.eleven_team if d.eleven_team >= 0 else None,
        blind=d.blind,
        hands=tuple(
            CardSet(h) if sees(state, seat, s) else None for s, h in enumerate(state.hands)
        ),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        trick=_view_plays(state, seat, state.leader, state.trick),
        leader=state.leader,
        tricks=tuple(
            Round(leader, _view_plays(state, seat, leader, plays), None if r == TIE else r)
            for (leader, plays), r in zip(state.tricks, state.results, strict=True)
        ),
        turn=None if over else state.turn,
        phase=state.phase,
        stake=state.stake,
        proposal=state.proposal or None,
        proposer=None if state.proposer < 0 else state.proposer,
        resume=None if state.resume < 0 else state.resume,
        ran=state.ran,
        raised_by=None if state.raised_by < 0 else state.raised_by,
        scores=state.scores,
        history=state.history,
    )


def sample_state(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``: the cards it does not show dealt at random.

    Truco has no duty to follow, so play reveals no voids: every unseen card (other hands, cards
    played face down, the unused deck) is equally likely anywhere. Later deals come from a fresh
    seed.
    """
    # The sampler builds on this module, so it is imported when first needed.
    from tapete.games._truco_sampler import sample_state as sample

    return sample(view, rng)


def stack_deck(params: Params, dealer: Seat, hands: list[str], vira: str) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (text, one per seat) and turns up ``vira``.

    For tests, puzzles and teaching: ``game.new_state(decks=[stack_deck(...)], dealer=...)``.
    The rest of the deck follows in its canonical order.

    >>> p = Params(players=2)
    >>> format_cards(stack_deck(p, 1, ["3c 2c Ac", "4d 5d 6d"], "Kh")[:7])
    '3c 4d 2c 5d Ac 6d Kh'
    """
    n = params.players
    if len(hands) != n or any(len(h.split()) != 3 for h in hands):
        raise ValueError(f"give {n} hands of 3 cards")
    return chance.stack_deck(deck_of(params.deck), n, dealer, hands, vira)
