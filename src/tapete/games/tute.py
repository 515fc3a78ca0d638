"""Tute for two players (with a stock) and for four (two partnerships): tricks for card points.

The rules as implemented (``docs/rules/tute.md`` is the long form):

* **Deck**: the Spanish 40-card deck, strength As, 3, Rey, Caballo, Sota, 7, 6, 5, 4, 2.
  Card points As 11, 3 10, Rey 4, Caballo 3, Sota 2: 120 in the deck.
* **Two players**: eight cards each, one at a time from the non-dealer; the next card is
  turned face up under the 23 face-down cards of the stock and sets trump. The non-dealer leads.
  After each of the first 12 tricks the winner draws first, then the loser; the loser of the 12th
  draws the face-up card. Twenty tricks in all; the deal passes to the other player.
* **Four players**: partners sit opposite, seats 0 and 2 against 1 and 3. All forty
  cards are dealt, ten each, one at a time from the dealer's right; the dealer's last card is shown,
  sets trump and stays in his hand. The holder of the 2 de oros leads the first trick
  (``first_leader=dealer_right``: the dealer's right-hand neighbour). The deal passes right.
* **Play**: follow suit and beat the best card of the suit led while the trick is not
  trumped; void, trump, over-trumping when you can; a void player who cannot over-trump plays
  anything. The best trump, else the best card of the suit led, wins; the winner leads next.
  ``stock_phase_play`` (2p) relaxes this while the stock lasts: ``follow_only`` (follow suit, no
  duty to beat or trump) or ``free`` (anything). Four players: ``must_beat_partner=false`` leaves
  only the duty to follow suit while your partner is winning; ``must_underruff=true`` adds the
  duty to trump under.
* **Swaps** (two players): before leading, while the face-up card is under the stock, the leader may
  give the 7 of trumps for a face-up As, 3, Rey, Caballo or Sota, or the 2 of trumps for a face-up
  4, 5, 6 or 7 (``two_swap_targets=[7]``: the 7 only). One swap a turn: the 2 takes a face-up 7
  only when another player put it there. The first leader may swap before trick 1 unless
  ``swap_requires_trick_win``. Swaps come before the cante.
* **Cantes**: the winner of the last trick, before leading, may show the Rey and
  Caballo of a suit: 40 in trumps, 20 in another suit. One cante per trick won, the 40 before any
  20, each suit once a deal; with two players none once the stock is gone
  (``cantes_after_stock=true`` allows them). Four players: a cante counts for the team;
  ``partner_may_sing=true`` lets the winner's partner sing instead, at his own turn in the next
  trick. ``tute_declaration=true``: four Reyes or four Caballos, declared like a cante, win the
  deal outright.
* **Score**: the card points of the tricks won plus the cantes, plus
  ``last_trick_bonus`` for the last trick (0 with two players, 10 with four, unless set). More
  points win the deal; a tie goes to whoever won the last trick.
* **Match**: ``single_deal``; ``best_of_K`` (K odd: the first to win more than half
  of K deals); ``to_101`` (totals carry from deal to deal until one passes 100; the higher total
  wins, a tie going to the last trick's winner; a tute wins the match).

Actions are ints: a card ``c`` is ``play c``, ``SWAP`` is ``swap``, ``SING + suit`` is
``sing <suit>`` and ``TUTE`` is ``tute``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from tapete import tricks
from tapete.cards import (
    CARD_TEXT,
    SPANISH_40,
    Card,
    CardSet,
    Deck,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
    suit_mask,
    suit_name,
)
from tapete.chance import dealt_order
from tapete.errors import IllegalActionError, InvalidActionError, Phrase
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
    format_value,
    mypyc_attr,
    unshared,
)

__all__ = [
    "BEATERS",
    "CABALLO",
    "CABALLOS",
    "COUNTING",
    "DRAWS",
    "FIRST_LEADER",
    "HAND_SIZE",
    "LAST_TRICK_BONUS",
    "MATCHES",
    "MAX_BEST_OF",
    "NAME",
    "ORDER",
    "PAIRS",
    "POINTS",
    "REY",
    "REYES",
    "SING",
    "SUITS",
    "SWAP",
    "TUTE",
    "TWO_OF_OROS",
    "Deal",
    "Params",
    "Phase",
    "State",
    "View",
    "apply",
    "current_player",
    "deal_result",
    "deals_to_win",
    "deck",
    "events",
    "format_action",
    "last_trick_bonus",
    "legal_actions",
    "legal_cards",
    "new_state",
    "obligation",
    "observe",
    "outcome",
    "parse_action",
    "players",
    "sample_state",
    "sampler",
    "scored_deal",
    "stack_deck",
    "sung_suits",
    "teams",
    "visible_action",
    "visible_events",
    "why_illegal",
    "winning_play",
]

NAME = "tute"
SWAP = 64
SING = 65  # SING + suit: sing the Rey and Caballo of that suit
TUTE = 69

ORDER = tricks.Order.of(SPANISH_40, (1, 3, 12, 11, 10, 7, 6, 5, 4, 2))
_RANK_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
POINTS: tuple[int, ...] = tuple(
    _RANK_POINTS.get(c & 15, 0) if SPANISH_40.mask >> c & 1 else 0 for c in range(64)
)
"""Card points by card."""

HAND_SIZE = {2: 8, 4: 10}
DRAWS = 12  # two players: the tricks after which both draw (23 face-down cards + the face-up)
COUNTING = (1, 3, 12, 11, 10)  # face-up ranks the 7 of trumps takes
REY, CABALLO, TWO_OF_OROS = 12, 11, 2
PAIRS = tuple(1 << (s * 16 + REY) | 1 << (s * 16 + CABALLO) for s in range(4))
REYES = sum(1 << (s * 16 + REY) for s in range(4))
CABALLOS = sum(1 << (s * 16 + CABALLO) for s in range(4))
MAX_BEST_OF = 99  # a match ends in human time
_MATCHES = Phrase("single_deal, best_of_K (K odd, 3 to {most}) or to_101", most=MAX_BEST_OF)
MATCHES = str(_MATCHES)
_SUIT_WORDS = {"oros": 0, "copas": 1, "espadas": 2, "bastos": 3, "o": 0, "c": 1, "e": 2, "b": 3}
SUITS = tuple(SPANISH_40.mask & suit_mask(s) for s in range(4))
"""The cards of each suit, as bitmasks."""


class Phase(WordEnum):
    """What the seat to act is doing (``View.phase``): playing (and declaring), or nothing."""

    PLAY = 0
    OVER = 1  # the match is over


def _suit_table(suit: int) -> tuple[tuple[Card, ...], ...]:
    """``cards_of`` for the cards of ``suit``, indexed by the 13 bits that hold its ranks.

    Indices that differ only in bits no Spanish card uses share one tuple, keeping the table small.
    """
    ranks = SUITS[0]
    by_ranks = {
        bits: tuple(cards_of(bits << 16 * suit)) for bits in range(8192) if bits == bits & ranks
    }
    return tuple(by_ranks[bits & ranks] for bits in range(8192))


# ``cards_of`` by table, for the playout hot path: one lookup per suit.
_C0, _C1, _C2, _C3 = (_suit_table(s) for s in range(4))


def _beaters(trump: int) -> tuple[int, ...]:
    """Per card, the cards that beat it when it is winning a trick with these trumps.

    A winning card that is not a trump is of the suit led: the higher cards of its suit beat it,
    and so does every trump. A winning trump falls only to a higher trump.
    """
    return tuple(ORDER.above[c] | (SUITS[trump] if c >> 4 != trump else 0) for c in range(64))


BEATERS = tuple(_beaters(trump) for trump in range(4))
"""``BEATERS[trump][card]``: the cards that beat ``card`` when it is winning the trick."""


# Compiled, a native class would refuse a wrong type before check_params names it.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, kw_only=True)
class Params:
    """Tute's parameters; ``None`` means the default for the player count."""

    players: int = 2
    stock_phase_play: str = "strict"
    two_swap_targets: tuple[int, ...] = (4, 5, 6, 7)
    swap_requires_trick_win: bool = False
    cantes_after_stock: bool = False
    last_trick_bonus: int | None = None
    tute_declaration: bool = False
    first_leader: str | None = None
    partner_may_sing: bool = False
    must_beat_partner: bool = True
    must_underruff: bool = False
    match: str = "single_deal"

    def __post_init__(self) -> None:
        check_params(self)
        for name, (allowed, accepted) in _CHOICES.items():
            value = getattr(self, name)
            check(value in allowed and not isinstance(value, bool), name, value, accepted)
        ok = deals_to_win(self.match) >= 0
        check(ok, "match", self.match, _MATCHES)
        other = 6 - self.players
        for name in _ONLY_WITH[other]:
            value, default = getattr(self, name), Params.__dataclass_fields__[name].default
            check(
                value == default,
                name,
                value,
                "{default} with {players} players (an option for players={other})",
                default=format_value(default),
                players=self.players,
                other=other,
            )
        # One spelling per set of rules, so that the spec (and a record) names them one way: a
        # value the player count gives anyway is the default, best_of_03 is best_of_3.
        for name, by_count in _BY_PLAYERS.items():
            if getattr(self, name) == by_count[self.players]:
                object.__setattr__(self, name, None)
        if self.match.startswith("best_of_"):
            object.__setattr__(self, "match", f"best_of_{2 * deals_to_win(self.match) - 1}")


_CHOICES: dict[str, tuple[tuple[object, ...], str]] = {
    "players": ((2, 4), "2 or 4"),
    "stock_phase_play": (("strict", "follow_only", "free"), "strict, follow_only or free"),
    "two_swap_targets": (((4, 5, 6, 7), (7,)), "[4, 5, 6, 7] or [7]"),
    "last_trick_bonus": ((None, 0, 10), "0 or 10 (none: 0 with 2 players, 10 with 4)"),
    "first_leader": ((None, "two_of_oros", "dealer_right"), "two_of_oros or dealer_right"),
}
LAST_TRICK_BONUS = {2: 0, 4: 10}  # by player count, where the option is not set
FIRST_LEADER = {2: None, 4: "two_of_oros"}
_BY_PLAYERS: dict[str, Mapping[int, object]] = {  # the defaults that depend on the player count
    "last_trick_bonus": LAST_TRICK_BONUS,
    "first_leader": FIRST_LEADER,
}
_ONLY_WITH = {  # the options that mean something with this many players only
    2: ("stock_phase_play", "two_swap_targets", "swap_requires_trick_win", "cantes_after_stock"),
    4: ("first_leader", "partner_may_sing", "must_beat_partner", "must_underruff"),
}


def deals_to_win(match: str) -> int:
    """Deals to win: 1 (``single_deal``), (K + 1) // 2 (``best_of_K``), 0 (``to_101``); else -1."""
    if match == "single_deal":
        return 1
    if match == "to_101":
        return 0
    count = match.removeprefix("best_of_")
    if count != match and count.isdecimal() and len(count) < 4:  # no long string goes to int()
        k = int(count)
        if 3 <= k <= MAX_BEST_OF and k % 2:
            return (k + 1) // 2
    return -1


def last_trick_bonus(params: Params) -> int:
    """The points for the last trick: the option, else 0 with two players and 10 with four."""
    if params.last_trick_bonus is not None:
        return params.last_trick_bonus
    return LAST_TRICK_BONUS[params.players]


def players(params: Params) -> int:
    return params.players


def teams(params: Params) -> tuple[tuple[Seat, ...], ...] | None:
    """Partners sit opposite with four players; two players play alone."""
    return ((0, 2), (1, 3)) if params.players == 4 else None


def deck(params: Params) -> Deck:
    return SPANISH_40


def _side_seats(side: int, n: int) -> tuple[Seat, ...]:
    return (side,) if n == 2 else (side, side + 2)


# --- state -----------------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class Deal:
    """What a deal fixes: its number, dealer, trump, the card that set it, the first leader.

    Treat as immutable. Not a frozen dataclass: one is built per deal on the playout path, and a
    frozen one costs several times as much to build.
    """

    number: int
    dealer: Seat
    trump: int
    upcard: Card  # 2p: turned under the stock; 4p: the dealer's last card, which he keeps
    first: Seat
    deck: tuple[Card, ...]  # as dealt, top first (empty in a sampled state)
    dealt: tuple[int, ...]  # each seat's hand as dealt (bitmask)
    relaxed: bool  # an option may lift the duty to win the trick (see ``obligation``)
    swappers: int = field(init=False)  # the 7 and the 2 of trumps
    beaters: tuple[int, ...] = field(init=False, repr=False)  # ``BEATERS[trump]``

    def __post_init__(self) -> None:
        self.swappers = 1 << (self.trump * 16 + 7) | 1 << (self.trump * 16 + 2)
        self.beaters = BEATERS[self.trump]


_Pending: TypeAlias = Event | Deal | tuple[Any, ...]
"""An event as the state keeps it: a ``Deal``, an Event, or raw (``("trick", ...)``, ``("draw",
...)``, ``("score", ...)``, ``("end", ...)``) to be rendered by ``events``."""


class State(GameState):
    """A Tute match between two decisions. Treat as immutable: ``apply`` returns a new one.

    ``cantes`` are ``(trick index, seat, suit)``, ``swaps`` ``(trick index, seat, given, taken)``;
    ``known`` is, per seat, the cards everyone knows are in that hand (shown in a cante, taken in
    a swap, the face-up card drawn, the four-player trump card); ``sing_right`` is the seat whose
    side may still sing for the last trick, or -1.
    """

    __slots__ = (
        "_legal",
        "cantes",
        "deal",
        "face_up",
        "hands",
        "history",
        "known",
        "last",
        "leader",
        "params",
        "points",
        "result",
        "scores",
        "setup",
        "sing_right",
        "stock",
        "swaps",
        "trick",
        "tricks",
        "turn",
    )
    _FRESH = (("_legal", -1),)  # caches a new state computes again

    def __init__(
        self,
        params: Params,
        setup: Setup,
        deal: Deal,
        hands: tuple[int, ...],
        stock: tuple[Card, ...],
        face_up: Card,
        trick: tuple[Card, ...],
        leader: Seat,
        turn: Seat,
        tricks: tuple[tuple[Seat, tuple[Card, ...]], ...],
        points: tuple[int, ...],
        cantes: tuple[tuple[int, Seat, int], ...],
        swaps: tuple[tuple[int, Seat, Card, Card], ...],
        known: tuple[int, ...],
        sing_right: Seat,
        scores: tuple[int, ...],
        history: tuple[tuple[int, ...], ...],
        result: Outcome | None,
        last: tuple[_Pending, ...],
    ) -> None:
        self.params = params
        self.setup = setup
        self.deal = deal
        self.hands = hands
        self.stock = stock
        self.face_up = face_up
        self.trick = trick
        self.leader = leader
        self.turn = turn
        self.tricks = tricks
        self.points = points
        self.cantes = cantes
        self.swaps = swaps
        self.known = known
        self.sing_right = sing_right
        self.scores = scores
        self.history = history
        self.result = result
        self.last = last
        self._legal = -1  # the cards the current player may play, computed once

    def _copy(self) -> State:
        """A new state like this one (see ``GameState``)."""
        return State(
            self.params,
            self.setup,
            self.deal,
            self.hands,
            self.stock,
            self.face_up,
            self.trick,
            self.leader,
            self.turn,
            self.tricks,
            self.points,
            self.cantes,
            self.swaps,
            self.known,
            self.sing_right,
            self.scores,
            self.history,
            self.result,
            self.last,
        )

    def __repr__(self) -> str:
        hands = " | ".join(format_cards(cards_of(h)) for h in self.hands)
        face = CARD_TEXT[self.face_up] if self.face_up >= 0 else "-"
        return (
            f"<tute deal {self.deal.number} dealer {self.deal.dealer} trump "
            f"{suit_name(self.deal.trump)} face-up {face} stock {len(self.stock)} "
            f"trick {len(self.tricks)} turn {self.turn} [{format_cards(self.trick)}] "
            f"hands [{hands}] points {list(self.points)} scores {list(self.scores)}>"
        )


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat=None``) knows. Cards are ints or sets; -1 is none."""

    seat: Seat | None
    params: Params
    deal: int
    dealer: Seat
    trump: int
    upcard: Card  # the card that set trump (2p: turned under the stock; 4p: the dealer's)
    face_up: Card  # the card face up under the stock now (2p), or -1
    stock_size: int  # cards left to draw, the face-up card included
    hands: tuple[CardSet | None, ...]  # the hands this seat can see: its own
    hand_sizes: tuple[int, ...]
    known: tuple[CardSet, ...]  # cards everyone knows are in each hand
    trick: tuple[Card, ...]
    leader: Seat
    tricks: tuple[tuple[Seat, tuple[Card, ...]], ...]
    turn: Seat | None
    phase: Phase
    points: tuple[int, ...]  # card points each seat has won this deal
    cantes: tuple[tuple[int, Seat, int], ...]  # (trick index, seat, suit)
    swaps: tuple[tuple[int, Seat, Card, Card], ...]  # (trick index, seat, given, taken)
    sing_right: Seat | None  # whose side may still sing for the last trick
    scores: tuple[int, ...]  # per side: the match standings (see the match parameter)
    history: tuple[tuple[int, ...], ...]  # per deal: what it added to the standings
    result: Outcome | None
    excluded: tuple[CardSet, ...] = field(repr=False)  # cards each seat is known not to hold now

    @property
    def hand(self) -> CardSet | None:
        """This seat's own hand."""
        return None if self.seat is None else self.hands[self.seat]


# --- the match -------------------------------------------------------------------------------


def new_state(params: Params, setup: Setup) -> State:
    n = params.players
    dealer = setup.first_dealer(n)
    return _deal(params, setup, 0, dealer, (0, 0), (), ())


def _deal(
    params: Params,
    setup: Setup,
    number: int,
    dealer: Seat,
    scores: tuple[int, ...],
    history: tuple[tuple[int, ...], ...],
    earlier: tuple[_Pending, ...],
) -> State:
    """Deal ``number``: one card at a time from the dealer's right."""
    n = params.players
    order = setup.deck(number, SPANISH_40.cards)
    dealt = [0] * n
    for i in range(n):  # card i goes to the dealer's right, i + 1 to the next seat, and so on
        dealt[(dealer + 1 + i) % n] = mask_of(order[i : n * HAND_SIZE[n] : n])
    known = [0] * n
    if n == 2:
        upcard, stock, face_up = order[16], order[17:], order[16]
        first = (dealer + 1) % 2
    else:
        upcard, stock, face_up = order[39], (), -1
        known[dealer] = 1 << upcard
        first = (dealer + 1) % 4
        if (params.first_leader or FIRST_LEADER[4]) == "two_of_oros":
            first = next(s for s in range(4) if dealt[s] >> TWO_OF_OROS & 1)
            known[first] |= 1 << TWO_OF_OROS  # who leads first shows who holds it
    deal = Deal(number, dealer, upcard >> 4, upcard, first, order, tuple(dealt), _relaxed(params))
    return State(
        params,
        setup,
        deal,
        tuple(dealt),
        tuple(stock),
        face_up,
        (),
        first,
        first,
        (),
        (0,) * n,
        (),
        (),
        tuple(known),
        -1,
        scores,
        history,
        None,
        (*earlier, deal),
    )


def current_player(state: State) -> Seat | None:
    return None if state.result is not None else state.turn


def obligation(
    params: Params, index: int, trick: tuple[Card, ...], seat: Seat, leader: Seat, trump: int
) -> tricks.Obligation | None:
    """The play duty for ``seat`` adding to ``trick`` in trick ``index``; None: free play."""
    if params.players == 2:
        if index < DRAWS and params.stock_phase_play != "strict":
            return tricks.FOLLOW if params.stock_phase_play == "follow_only" else None
        return tricks.MUST_WIN
    if not params.must_beat_partner and trick:
        winner = (leader + tricks.trick_winner(trick, trump, ORDER)) % 4
        if winner == (seat + 2) % 4:
            return tricks.FOLLOW
    return tricks.MUST_WIN


def _relaxed(params: Params) -> bool:
    """Whether an option can lift the duty to win the trick (else it is always ``MUST_WIN``)."""
    if params.players == 2:
        return params.stock_phase_play != "strict"
    return not params.must_beat_partner


def legal_cards(state: State) -> int:
    """The cards the player to act may play, as a mask (computed once per state)."""
    legal = state._legal
    if legal >= 0:
        return legal
    legal = state.hands[state.turn]
    trick, d = state.trick, state.deal
    if trick and d.relaxed:
        p = state.params
        rule = obligation(p, len(state.tricks), trick, state.turn, state.leader, d.trump)
        if rule is not None:
            legal = tricks.legal_mask(
                legal, trick, d.trump, ORDER, rule, must_underruff=p.must_underruff
            )
    elif trick:
        # ``tricks.legal_mask`` with MUST_WIN, by the table of the cards that beat the winning one.
        beaters = d.beaters
        win = trick[0]
        for card in trick[1:]:
            if beaters[win] >> card & 1:
                win = card
        in_led = legal & SUITS[trick[0] >> 4]
        if in_led:  # follow suit, beating the winning card if you can
            legal = in_led & beaters[win] or in_led
        elif legal & beaters[win]:  # void: trump, over-trumping when you can
            legal &= beaters[win]
        elif state.params.must_underruff and legal & SUITS[d.trump]:
            legal &= SUITS[d.trump]
    state._legal = legal
    return legal


def legal_actions(state: State) -> list[Action]:
    """The cards the play duty allows, then ``swap``, ``sing <suit>`` and ``tute`` if allowed."""
    if state.result is not None:
        return []
    legal = state._legal if state._legal >= 0 else legal_cards(state)
    # ``cards_of(legal)`` by table, one lookup per suit.
    actions = [
        *_C0[legal & 8191],
        *_C1[legal >> 16 & 8191],
        *_C2[legal >> 32 & 8191],
        *_C3[legal >> 48],
    ]
    if state.sing_right >= 0 or (state.face_up >= 0 and not state.trick):
        hand, d = state.hands[state.turn], state.deal
        # Cheap first: a pair (a Rey sits one bit above its Caballo), the 7 or 2 of trumps, a tute.
        if hand & hand >> 1 & CABALLOS or hand & d.swappers or state.params.tute_declaration:
            actions += _declarations(state)
    return actions


def winning_play(trick: tuple[Card, ...], beaters: tuple[int, ...]) -> int:
    """``tricks.trick_winner`` by the ``BEATERS`` table of the deal's trumps."""
    at, win = 0, trick[0]
    for i in range(1, len(trick)):
        if beaters[win] >> trick[i] & 1:
            at, win = i, trick[i]
    return at


def _declarations(state: State) -> list[Action]:
    """The swap, cantes and tute the player to act may make now."""
    out = []
    if _swap_card(state) >= 0:
        out.append(SWAP)
    hand = state.hands[state.turn]
    pairs = hand & hand >> 1 & CABALLOS  # a Rey sits one bit above its Caballo
    tute = state.params.tute_declaration and _has_tute(hand)
    if (pairs or tute) and _may_declare(state):
        suits = _singable(hand, sung_suits(state.cantes), state.deal.trump)
        out.extend(SING + s for s in range(4) if suits >> s & 1)
        if tute:
            out.append(TUTE)
    return out


def _swap_card(state: State) -> Card:
    """The trump the leader would give for the face-up card now (the 7 or the 2), or -1."""
    if state.face_up < 0 or state.trick:
        return -1
    p, trump, rank = state.params, state.deal.trump, state.face_up & 15
    if rank in COUNTING:
        card = trump * 16 + 7
    elif rank in p.two_swap_targets:
        card = trump * 16 + 2
    else:
        return -1
    if not state.hands[state.turn] >> card & 1:
        return -1
    if p.swap_requires_trick_win and not state.tricks:
        return -1
    if state.cantes and state.cantes[-1][0] == len(state.tricks):
        return -1  # swaps come before the cante
    if _put_there_by(state) == state.turn:
        return -1
    return card


def _put_there_by(state: State) -> Seat:
    """The seat whose swap left the face-up card there, or -1 if it is the card turned up.

    A player may not take back a card he put there himself: one swap a turn, and the 2 takes a
    face-up 7 only when another player gave it (else the 7 and the 2 together would buy a high
    card for the 2, which the 4–7 limit exists to prevent).
    """
    if state.swaps and state.swaps[-1][2] == state.face_up:
        return state.swaps[-1][1]
    return -1


def _entitled(state: State) -> bool:
    """Whether the player to act may declare for the last trick won."""
    right, seat = state.sing_right, state.turn
    if right < 0:
        return False
    return seat == right or (state.params.partner_may_sing and seat == (right + 2) % 4)


def _cante_window(state: State) -> bool:
    """Two players sing only while the stock lasts, unless ``cantes_after_stock``."""
    p = state.params
    return p.players == 4 or state.face_up >= 0 or p.cantes_after_stock


def _may_declare(state: State) -> bool:
    return _entitled(state) and _cante_window(state)


def sung_suits(cantes: tuple[tuple[int, Seat, int], ...]) -> int:
    """The suits sung this deal, as bits."""
    sung = 0
    for _, _, suit in cantes:
        sung |= 1 << suit
    return sung


def _singable(hand: int, sung: int, trump: int) -> int:
    """The suits (bits) whose pair ``hand`` may sing: the 40 comes before any 20."""
    if not sung >> trump & 1 and hand & PAIRS[trump] == PAIRS[trump]:
        return 1 << trump
    suits = 0
    for suit in range(4):
        if not sung >> suit & 1 and hand & PAIRS[suit] == PAIRS[suit]:
            suits |= 1 << suit
    return suits


def _has_tute(hand: int) -> bool:
    return hand & REYES == REYES or hand & CABALLOS == CABALLOS


def why_illegal(state: State, action: Action) -> IllegalActionError | None:
    """Why ``action`` breaks a rule now, or None. The single source of legality."""
    if state.result is not None:
        return IllegalActionError("match-over", "the match is over")
    if 0 <= action < SWAP and SPANISH_40.mask >> action & 1:
        return _why_play(state, action)
    if action == SWAP:
        return _why_swap(state)
    if SING <= action < SING + 4:
        return _why_sing(state, action - SING)
    if action == TUTE:
        return _why_tute(state)
    return IllegalActionError(
        "no-such-action",
        f"{action} is not a Tute action (a card of the 40-card deck, swap, sing, tute)",
    )


def _why_play(state: State, card: Card) -> IllegalActionError | None:
    p, hand = state.params, state.hands[state.turn]
    rule = obligation(p, len(state.tricks), state.trick, state.turn, state.leader, state.deal.trump)
    if rule is None:
        return tricks.why_card_illegal(hand, card, (), state.deal.trump, ORDER)
    return tricks.why_card_illegal(
        hand, card, state.trick, state.deal.trump, ORDER, rule, must_underruff=p.must_underruff
    )


def _why_swap(state: State) -> IllegalActionError | None:
    p, trump = state.params, state.deal.trump
    if p.players == 4:
        return IllegalActionError(
            "no-stock", "there is no stock and no face-up card in Tute for four: nothing to swap"
        )
    if state.face_up < 0:
        return IllegalActionError(
            "stock-gone", "the face-up trump card has been drawn: swaps end with the stock"
        )
    if state.trick:
        return IllegalActionError(
            "not-before-lead",
            f"only the player about to lead may swap, before leading (seat {state.leader} led)",
        )
    if p.swap_requires_trick_win and not state.tricks:
        return IllegalActionError(
            "swap-needs-trick-win",
            "no swap before the first trick: a swap needs a trick won (swap_requires_trick_win)",
        )
    if state.cantes and state.cantes[-1][0] == len(state.tricks):
        return IllegalActionError(
            "swap-after-cante", "swaps come before the cante, and you have sung this turn"
        )
    face, hand = state.face_up, state.hands[state.turn]
    if _put_there_by(state) == state.turn:
        return IllegalActionError(
            "swap-own-card",
            f"you put the face-up {CARD_TEXT[face]} there yourself: the 2 of trumps takes a"
            " face-up 7 only when another player put it there",
        )
    if face & 15 in COUNTING:
        seven = trump * 16 + 7
        if not hand >> seven & 1:
            return IllegalActionError(
                "swap-needs-seven",
                f"the face-up {CARD_TEXT[face]} is taken with the 7 of trumps ({CARD_TEXT[seven]}),"
                " which you do not hold",
            )
        return None
    if face & 15 in p.two_swap_targets:
        two = trump * 16 + 2
        if not hand >> two & 1:
            return IllegalActionError(
                "swap-needs-two",
                f"the face-up {CARD_TEXT[face]} is taken with the 2 of trumps ({CARD_TEXT[two]}),"
                " which you do not hold",
            )
        return None
    targets = ", ".join(str(r) for r in p.two_swap_targets)
    return IllegalActionError(
        "swap-face-up-rank",
        f"nothing swaps for the face-up {CARD_TEXT[face]}: the 7 of trumps takes an As, 3, Rey,"
        f" Caballo or Sota, the 2 of trumps a {targets}",
    )


def _why_declare(state: State, what: str) -> IllegalActionError | None:
    """Who may sing (or declare a tute) and when."""
    p = state.params
    if not _entitled(state):
        if state.cantes and state.cantes[-1][0] == len(state.tricks):
            singer = state.cantes[-1][1]
            if singer == state.turn or (p.partner_may_sing and singer == (state.turn + 2) % 4):
                return IllegalActionError(
                    "one-cante-per-trick",
                    f"one cante per trick won: seat {singer} has sung for this one, no {what} now",
                )
        who = (
            "the player who won the last trick, before leading, or his partner at his own turn"
            if p.partner_may_sing
            else "only the player who won the last trick, before leading,"
        )
        return IllegalActionError("not-trick-winner", f"{who} may {what}")
    if not _cante_window(state):
        return IllegalActionError(
            "stock-gone", f"no {what} once the stock is exhausted (cantes_after_stock=false)"
        )
    return None


def _why_sing(state: State, suit: int) -> IllegalActionError | None:
    error = _why_declare(state, "sing")
    if error is not None:
        return error
    trump, hand, sung = state.deal.trump, state.hands[state.turn], sung_suits(state.cantes)
    name, value = suit_name(suit), 40 if suit == trump else 20
    if sung >> suit & 1:
        return IllegalActionError("suit-sung", f"{name} has been sung this deal: once per suit")
    if hand & PAIRS[suit] != PAIRS[suit]:
        pair = format_cards(cards_of(PAIRS[suit])[::-1])
        return IllegalActionError(
            "sing-needs-pair",
            f"to sing {value} in {name} you must hold its Rey and Caballo ({pair})",
        )
    if suit != trump and not sung >> trump & 1 and hand & PAIRS[trump] == PAIRS[trump]:
        return IllegalActionError(
            "forty-first",
            f"the 40 comes first: you hold the Rey and Caballo of {suit_name(trump)}, the trumps",
        )
    return None


def _why_tute(state: State) -> IllegalActionError | None:
    if not state.params.tute_declaration:
        return IllegalActionError(
            "tute-off", "the tute is not declared in this game (tute_declaration=false)"
        )
    error = _why_declare(state, "declare a tute")
    if error is not None:
        return error
    if not _has_tute(state.hands[state.turn]):
        return IllegalActionError(
            "tute-needs-four", "a tute needs all four Reyes or all four Caballos in your hand"
        )
    return None


def apply(state: State, action: Action) -> State:
    """The state after the current player takes ``action``; raises IllegalActionError."""
    if 0 <= action < SWAP and state.result is None:
        legal = state._legal if state._legal >= 0 else legal_cards(state)
        if legal >> action & 1:
            return _play(state, action)
    error = why_illegal(state, action)
    if error is not None:
        raise error
    if action == SWAP:
        return _swap(state)
    if action == TUTE:
        return _declare_tute(state)
    assert SING <= action < SING + 4, "why_illegal and the legal cards disagree"
    return _sing(state, action - SING)


def _play(state: State, card: Card) -> State:
    p, seat = state.params, state.turn
    hands = [*state.hands]
    hands[seat] ^= 1 << card
    known = state.known
    if known[seat] >> card & 1:
        known = (*known[:seat], known[seat] ^ 1 << card, *known[seat + 1 :])
    trick = state.trick + (card,)  # noqa: RUF005 (cheaper than unpacking, on the hot path)
    if len(trick) == p.players:
        return _take_trick(state, hands, known, trick)
    right = state.sing_right
    if right >= 0 and seat == ((right + 2) % 4 if p.partner_may_sing else right):
        right = -1  # the last chance to sing for the trick won has passed
    new = state._copy()  # then set: see GameState
    new.hands, new.trick, new.turn = tuple(hands), trick, (seat + 1) % p.players
    new.known, new.sing_right, new.last = known, right, ()
    return new


def _take_trick(
    state: State, hands: list[int], known: tuple[int, ...], trick: tuple[Card, ...]
) -> State:
    """The winner takes the trick and leads; while the stock lasts both draw, winner first."""
    p, d, leader = state.params, state.deal, state.leader
    n = p.players
    if n == 2:  # the follower wins by beating the lead
        winner = leader ^ (d.beaters[trick[0]] >> trick[1] & 1)
        won = POINTS[trick[0]] + POINTS[trick[1]]
    else:
        winner = (leader + winning_play(trick, d.beaters)) % 4
        won = POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
    points = [*state.points]
    points[winner] += won
    taken = ("trick", leader, trick, winner, won)
    stock, face_up = state.stock, state.face_up
    if face_up < 0:
        last: tuple[_Pending, ...] = (taken,)
    else:
        loser, first = 1 - winner, stock[0]
        if len(stock) > 1:
            second, stock = stock[1], stock[2:]
        else:  # the last face-down card: the loser takes the face-up trump card
            second, stock, face_up = face_up, (), -1
            known = (
                (known[0] | 1 << second, known[1])
                if loser == 0
                else (known[0], known[1] | 1 << second)
            )
        hands[winner] |= 1 << first
        hands[loser] |= 1 << second
        last = (taken, ("draw", winner, first, loser, second, len(stock) + (face_up >= 0)))
    done = state.tricks + ((leader, trick),)  # noqa: RUF005 (as in _play)
    after = state._copy()  # then set: see GameState
    after.hands, after.stock, after.face_up, after.trick = tuple(hands), stock, face_up, ()
    after.leader, after.turn, after.tricks, after.points = winner, winner, done, tuple(points)
    after.known, after.sing_right, after.last = known, winner, last
    if len(done) * n < 40:
        after._legal = hands[winner]  # the leader may play any card
        return after
    return _end_deal(after, -1)


def _swap(state: State) -> State:
    seat, give, take = state.turn, _swap_card(state), state.face_up
    hands, known = list(state.hands), list(state.known)
    hands[seat] = hands[seat] ^ 1 << give | 1 << take
    known[seat] = known[seat] & ~(1 << give) | 1 << take
    event = Event("swap", {"seat": seat, "gave": CARD_TEXT[give], "took": CARD_TEXT[take]})
    return state._with(
        hands=tuple(hands),
        known=tuple(known),
        face_up=give,
        swaps=(*state.swaps, (len(state.tricks), seat, give, take)),
        last=(event,),
    )


def _sing(state: State, suit: int) -> State:
    seat, trump = state.turn, state.deal.trump
    known = list(state.known)
    known[seat] |= PAIRS[suit]
    event = Event(
        "cante",
        {
            "seat": seat,
            "suit": suit_name(suit),
            "points": 40 if suit == trump else 20,
            "cards": [CARD_TEXT[suit * 16 + REY], CARD_TEXT[suit * 16 + CABALLO]],
        },
    )
    return state._with(
        known=tuple(known),
        cantes=(*state.cantes, (len(state.tricks), seat, suit)),
        sing_right=-1,
        last=(event,),
    )


def _declare_tute(state: State) -> State:
    seat, hand = state.turn, state.hands[state.turn]
    shown = REYES if hand & REYES == REYES else CABALLOS
    known = list(state.known)
    known[seat] |= shown
    event = Event("tute", {"seat": seat, "cards": [CARD_TEXT[c] for c in cards_of(shown)]})
    return _end_deal(state._with(known=tuple(known), sing_right=-1, last=(event,)), seat)


def deal_result(
    card_points: tuple[int, int], cantes: tuple[int, int], last_trick: int, bonus: int
) -> tuple[tuple[int, int], int]:
    """Each side's total and the side that wins the deal.

    The total is card points plus cantes plus ``bonus`` to the side that won the last trick; the
    higher total wins, a tie goes to the side of the last trick.

    >>> deal_result((78, 42), (40, 20), 1, 0)  # worked example T2-5
    ((118, 62), 0)
    >>> deal_result((71, 49), (20, 40), 0, 10)  # worked example T4-3
    ((101, 89), 0)
    >>> deal_result((60, 60), (0, 0), 1, 0)
    ((60, 60), 1)
    """
    totals = [card_points[0] + cantes[0], card_points[1] + cantes[1]]
    totals[last_trick] += bonus
    if totals[0] != totals[1]:
        return (totals[0], totals[1]), int(totals[1] > totals[0])
    return (totals[0], totals[1]), last_trick


def _end_deal(state: State, tute: Seat) -> State:
    """Score the deal (``tute``: the seat that declared one, else -1), then deal again or end."""
    p, d = state.params, state.deal
    n = p.players
    cards, cantes = [0, 0], [0, 0]
    for seat in range(n):
        cards[seat % 2] += state.points[seat]
    for _, seat, suit in state.cantes:
        cantes[seat % 2] += 40 if suit == d.trump else 20
    if tute >= 0:
        points, side = (cards[0] + cantes[0], cards[1] + cantes[1]), tute % 2
    else:  # the winner of the last trick leads the next, so state.leader is that seat
        points, side = deal_result(
            (cards[0], cards[1]), (cantes[0], cantes[1]), state.leader % 2, last_trick_bonus(p)
        )
    needed = deals_to_win(p.match)
    delta = points if needed <= 1 else (int(side == 0), int(side == 1))
    scores = (state.scores[0] + delta[0], state.scores[1] + delta[1])
    history = (*state.history, delta)
    last_trick = None if tute >= 0 else state.leader
    declared = tute if tute >= 0 else None
    scored = (
        "score",
        delta,
        points,
        tuple(cards),
        tuple(cantes),
        last_trick,
        declared,
        side,
        scores,
    )
    winner = side  # of the match, if it ends here
    if needed > 1:  # best_of_K: a tute wins the deal like any other win
        over, reason = scores[side] >= needed, f"won {needed} deals"
    elif tute >= 0:
        over, reason = True, "tute"
    elif needed == 1:
        over = True
        reason = "tied on points, won the last trick" if points[0] == points[1] else "more points"
    else:
        over, reason = max(scores) > 100, "passed 100"
        if scores[0] != scores[1]:
            winner = int(scores[1] > scores[0])
        else:
            winner, reason = state.leader % 2, "passed 100, tied, won the last trick"
    if not over:
        nxt = (d.dealer + 1) % n
        return _deal(p, state.setup, d.number + 1, nxt, scores, history, (*state.last, scored))
    result = Outcome(scores, _side_seats(winner, n), reason)
    end = ("end", scores, result.winners, reason)
    return state._with(
        scores=scores, history=history, result=result, last=(*state.last, scored, end)
    )


def scored_deal(state: State) -> tuple[tuple[int, int], int] | None:
    """The points of each side and the side that won, if the last step scored a deal."""
    for pending in state.last:
        if isinstance(pending, tuple) and pending[0] == "score":
            return pending[2], pending[7]
    return None


def outcome(state: State) -> Outcome | None:
    return state.result


def events(state: State) -> tuple[Event, ...]:
    """The deal, tricks, draws, cantes, swaps, score and end that the last step brought about."""
    return tuple(_event(state.params, e) for e in state.last)


def visible_events(state: State, seat: Seat | None) -> tuple[Event, ...]:
    """The last step's events as ``seat`` may know them: a deal shows only its own hand, and
    neither the deck order nor the stock; a draw from the stock shows only its own card, but
    the face-up trump card, which the last draw gives the loser, in view of both."""
    return tuple(_seen(e, seat) for e in events(state))


def _seen(event: Event, seat: Seat | None) -> Event:
    if event.type == "deal":
        return deal_as_seen(event, lambda owner: owner == seat)
    if event.type == "draw":
        last = event.data["left"] == 0  # the loser's card is the face-up one, seen by all
        drawn = enumerate(zip(event.data["seats"], event.data["cards"], strict=True))
        cards = [c if s == seat or (last and i == 1) else None for i, (s, c) in drawn]
        return Event("draw", {**event.data, "cards": cards})
    return event


def visible_action(state: State, action: Action, seat: Seat | None) -> str:
    """Every play, swap and cante is made in the open: its text is the same for every seat."""
    return format_action(state.params, action)


def _event(params: Params, pending: _Pending) -> Event:
    # Tricks, draws and scores are kept raw in the state and rendered here, off the playout path.
    if isinstance(pending, Event):
        return unshared(pending)
    if isinstance(pending, Deal):
        return _deal_event(params, pending)
    if pending[0] == "score":
        _, delta, points, cards, cantes, last_trick, tute, side, totals = pending
        return Event(
            "score",
            {
                "score": list(delta),
                "points": list(points),
                "cards": list(cards),
                "cantes": list(cantes),
                "last_trick": last_trick,
                "tute": tute,
                "winners": list(_side_seats(side, params.players)),
                "totals": list(totals),
            },
        )
    if pending[0] == "end":
        _, scores, winners, reason = pending
        return Event("end", {"scores": list(scores), "winners": list(winners), "reason": reason})
    if pending[0] == "trick":
        _, leader, trick, winner, won = pending
        return Event(
            "trick",
            {
                "leader": leader,
                "cards": [CARD_TEXT[c] for c in trick],
                "winner": winner,
                "points": won,
            },
        )
    _, winner, first, loser, second, left = pending
    return Event(
        "draw",
        {"seats": [winner, loser], "cards": [CARD_TEXT[first], CARD_TEXT[second]], "left": left},
    )


def _deal_event(params: Params, d: Deal) -> Event:
    n = params.players
    return Event(
        "deal",
        {
            "deal": d.number,
            "dealer": d.dealer,
            "deck": [CARD_TEXT[c] for c in d.deck],
            "hands": [[CARD_TEXT[c] for c in cards_of(h)] for h in d.dealt],
            "upcard": CARD_TEXT[d.upcard],
            "upcard_kept_by_dealer": n == 4,
            "trump": suit_name(d.trump),
            "stock": [CARD_TEXT[c] for c in d.deck[17:]] if n == 2 else [],
            "first_leader": d.first,
        },
    )


# --- notation --------------------------------------------------------------------------------


def format_action(params: Params, action: Action) -> str:
    """The text of an action: ``play CARD``, ``swap``, ``sing SUIT`` or ``tute``.

    >>> format_action(Params(), parse_card("3o")), format_action(Params(), SING + 1)
    ('play 3o', 'sing copas')
    """
    if action == SWAP:
        return "swap"
    if action == TUTE:
        return "tute"
    if SING <= action < SING + 4:
        return f"sing {suit_name(action - SING)}"
    return f"play {CARD_TEXT[action]}"


def parse_action(params: Params, text: str) -> Action:
    """``play CARD`` (or a bare card), ``swap``, ``sing SUIT`` (word or letter), ``tute``.

    >>> parse_action(Params(), "sing o") == parse_action(Params(), "Sing Oros") == SING
    True
    >>> parse_action(Params(), "12b"), parse_action(Params(), "swap") == SWAP
    (60, True)
    """
    words = text.strip().lower().split()
    if words == ["swap"]:
        return SWAP
    if words == ["tute"]:
        return TUTE
    if len(words) == 2 and words[0] == "sing":
        if words[1] not in _SUIT_WORDS:
            raise InvalidActionError(
                f"{text!r}: sing a suit, oros, copas, espadas or bastos (or o, c, e, b)"
            )
        return SING + _SUIT_WORDS[words[1]]
    usage = f"{text!r} is not an action: write 'play CARD', 'swap', 'sing SUIT' or 'tute'"
    if len(words) == 2 and words[0] == "play":
        return SPANISH_40.parse(words[1])
    if len(words) == 1:
        return SPANISH_40.parse(words[0], usage)
    raise InvalidActionError(usage)


# --- views -----------------------------------------------------------------------------------


def observe(state: State, seat: Seat | None) -> View:
    """What ``seat`` sees: its own hand and everything public, never another hand.

    Public: the cards played, the trump card, the face-up card and every swap, the size of the
    stock, the cards shown in cantes (known to stay in the singer's hand until played).
    """
    p, d = state.params, state.deal
    hands: list[CardSet | None] = [None] * p.players
    if seat is not None:
        hands[seat] = CardSet(state.hands[seat])
    over = state.result is not None
    excluded = _excluded_now(p, d.trump, state.tricks, state.trick, state.leader, state.known)
    return View(
        seat=seat,
        params=p,
        deal=d.number,
        dealer=d.dealer,
        trump=d.trump,
        upcard=d.upcard,
        face_up=state.face_up,
        stock_size=len(state.stock) + (state.face_up >= 0),
        hands=tuple(hands),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        known=tuple(CardSet(k) for k in state.known),
        trick=state.trick,
        leader=state.leader,
        tricks=state.tricks,
        turn=None if over else state.turn,
        phase=Phase.OVER if over else Phase.PLAY,
        points=state.points,
        cantes=state.cantes,
        swaps=state.swaps,
        sing_right=None if state.sing_right < 0 else state.sing_right,
        scores=state.scores,
        history=state.history,
        result=state.result,
        excluded=tuple(CardSet(m) for m in excluded),
    )


def _play_exclusions(
    params: Params,
    trump: int,
    done: tuple[tuple[Seat, tuple[Card, ...]], ...],
    trick: tuple[Card, ...],
    leader: Seat,
) -> list[list[tuple[int, int]]]:
    """Per seat, ``(trick index, cards)``: what each play showed the seat did not hold then."""
    n = params.players
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for index, (first, cards) in enumerate((*done, (leader, trick))):
        seat = first
        for i in range(1, len(cards)):
            seat = (seat + 1) % n
            before = cards[:i]
            rule = obligation(params, index, before, seat, first, trump)
            if rule is None:
                continue
            mask = tricks.excluded_by_play(
                cards[i], before, trump, ORDER, rule, must_underruff=params.must_underruff
            )
            if mask:
                out[seat].append((index, mask))
    return out


def _excluded_now(
    params: Params,
    trump: int,
    done: tuple[tuple[Seat, tuple[Card, ...]], ...],
    trick: tuple[Card, ...],
    leader: Seat,
    known: tuple[int, ...],
) -> list[int]:
    """Cards each seat is known not to hold now: shown by plays since its last draw."""
    drawn = min(len(done), DRAWS) if params.players == 2 else 0
    out = []
    for seat, facts in enumerate(_play_exclusions(params, trump, done, trick, leader)):
        mask = 0
        for index, cards in facts:
            if index >= drawn:
                mask |= cards
        out.append(mask & ~known[seat])
    return out


# --- sampling a state consistent with a view -------------------------------------------------


def sample_state(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``: the unseen cards dealt at random around the facts.

    The seat's own hand, every card played, swapped or shown, and every void or "could not beat"
    that play revealed, each at the moment it was revealed (a two-player hand changes with every
    draw), are honoured; so is the 40-before-20 rule's hint that a singer of 20 did not hold both
    trumps of the pair. Among the deals that fit, the draw is close to uniform. Raises
    ValueError for a view no deal can explain.
    """
    return sampler(view)(rng)


def sampler(view: View) -> Callable[[random.Random], State]:
    """``sample_state`` for many deals of one view (a search's): the view's facts are worked out
    once, and each call draws a deal exactly as ``sample_state(view, rng)`` would with that rng.
    """
    # The sampler builds on this module, so it is imported when first needed.
    from tapete.games._tute_sampler import sampler as prepare

    return prepare(view)


# --- helpers for people and tests ------------------------------------------------------------


def stack_deck(
    params: Params,
    dealer: Seat,
    hands: Sequence[str],
    upcard: str | None = None,
    stock: str = "",
) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (text, one per seat) for ``new_state(decks=[...])``.

    Two players: ``upcard`` is turned under the stock and ``stock`` lists the first cards drawn.
    Four players: ``upcard`` is the dealer's last card, which sets trump. A hand given in part is
    filled from the cards named nowhere, in canonical order (oros first), so name what matters.

    >>> order = stack_deck(Params(), 1, ["1o 3o", "12b"], upcard="4c", stock="7e 5e")
    >>> format_cards(order[:4]), CARD_TEXT[order[16]], format_cards(order[17:19])
    ('1o 12b 3o 11o', '4c', '7e 5e')
    """
    n = params.players
    size = HAND_SIZE[n]
    rows = [parse_cards(h) for h in hands]
    up = parse_card(upcard) if upcard is not None else None
    drawn = parse_cards(stock)
    if len(rows) != n or any(len(r) > size for r in rows):
        raise ValueError(f"give {n} hands of at most {size} cards")
    if n == 4 and up is not None and up in rows[dealer]:
        rows[dealer].remove(up)
    named = {c for r in rows for c in r} | set(drawn) | ({up} if up is not None else set())
    spare = [c for c in SPANISH_40.cards if c not in named]
    for s, row in enumerate(rows):
        want = size - (1 if n == 4 and s == dealer and up is not None else 0)
        while len(row) < want:
            row.append(spare.pop(0))
    if n == 4 and up is not None:
        rows[dealer].append(up)
    turned = [up if up is not None else spare.pop(0), *drawn] if n == 2 else []
    return dealt_order(rows, (dealer + 1) % n, turned, SPANISH_40.cards)
