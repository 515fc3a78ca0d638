"""Pocha, and Oh Hell by parameters: bid the exact number of tricks you will take.

The rules as implemented (``docs/rules/pocha.md`` is the long form):

* **Deck**: the Spanish 40-card deck (``deck=48`` adds the 8s and 9s); with 40 cards and
  3 or 6 players the four 2s are taken out. Strength As, 3, Rey, Caballo, Sota, 7 … 2
  (``rank_order=natural``: As, Rey, Caballo, Sota, 7 … 2, the 3 low). ``deck=french`` is a French
  deck of ``suits`` suits and the top ``ranks`` ranks, A high.
* **Players**: 3 to 8, 4 by default, 3–4 recommended (``min_players=2`` allows 2;
  ``max_players`` narrows the range). Seats act in seat order; *mano* (``dealer + 1``) bids
  and leads first; the deal passes to mano. The first dealer is drawn by lot.
* **Schedule**: ``up_and_down`` deals 1, 2 … max−1 cards, then max cards once per player,
  then max−1 … 1, where max = deck size // players. Also ``up_only``, ``max_only``, ``n_ones``
  (N one-card hands at each end), a list of hand sizes, or one hand size.
* **Deal and trump**: one card at a time from mano round to the dealer; the next card is
  turned up and its suit is trump. When every card is dealt the dealer shows his last card, which
  sets trump and stays in his hand (``all_dealt_trump=none``: no trump, as in Oh Hell).
* **Bids**: 0 to the hand size, mano first, public. The dealer may not make the bids add up
  to the number of tricks (the *hook*; ``dealer_hook=false`` lifts it), except in one-card hands
  (``hook_on_one_card=true`` applies it there too).
* **Play**: ``obligation=must_win`` is the Spanish duty to follow, beat and trump
  (``tapete.tricks``; ``must_underruff`` adds a duty to under-trump); ``follow`` is follow
  suit only.
* **Score**: an exact bid scores 10 + 5 a trick, a miss −5 a trick of difference
  (``scoring=oh_hell``: a point a trick and 10 for an exact bid).
* **End**: after the schedule the highest total wins; a tie is played off in one-card hands
  with a turned trump and no hook among the tied leaders (``tiebreak_players=all``: everyone;
  ``nobody``: the tie stands, Oh Hell's default) until one leads alone; the tie-breakers are
  fixed when the tie-break starts.
* ``ronda_india``: in one-card hands each player sees everyone's card but their own; the
  cards are played by themselves once the bids are in.

Actions are ints: a card ``c`` is ``play c``; ``BID + n`` is ``bid n``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from operator import add

from tapete import chance, tricks
from tapete.cards import (
    CARD_TEXT,
    Card,
    CardSet,
    Deck,
    cards_of,
    format_card,
    format_cards,
    french,
    is_card,
    spanish,
    suit_name,
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
    count_in,
    deal_as_seen,
    mypyc_attr,
)

__all__ = [
    "BID",
    "MAX_HANDS",
    "NAME",
    "SCHEDULES",
    "Deal",
    "Params",
    "Phase",
    "State",
    "View",
    "apply",
    "card_order",
    "current_player",
    "deck",
    "events",
    "format_action",
    "hand_score",
    "legal_actions",
    "legal_cards",
    "new_state",
    "observe",
    "outcome",
    "parse_action",
    "players",
    "sample_state",
    "schedule_of",
    "stack_deck",
    "teams",
    "visible_action",
    "visible_events",
    "why_illegal",
]

NAME = "pocha"
BID = 128
SCHEDULES = ("up_and_down", "up_only", "max_only", "n_ones")
MAX_HANDS = 100  # the most hands a schedule may list: a match ends in human time


class Phase(WordEnum):
    """What the seat to act is doing (``State.phase``, ``View.phase``)."""

    BID = 0
    PLAY = 1
    OVER = 2  # the match is over


_BID, _PLAY, _OVER = Phase  # for the hot path: a global is read faster


# Compiled, a native class would refuse a wrong type before check_params names it.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, kw_only=True)
class Params:
    """Pocha's parameters; ``oh_hell`` registers other defaults (see ``tapete.games``)."""

    players: int = 4
    min_players: int = 3
    max_players: int = 8
    deck: int | str = 40
    suits: int = 4
    ranks: int = 13
    schedule: str | int | tuple[int, ...] = "up_and_down"
    dealer_hook: bool = True
    hook_on_one_card: bool = False
    rank_order: str = "as_tres"
    obligation: tricks.Obligation = "must_win"
    must_underruff: bool = False
    scoring: str = "pocha"
    all_dealt_trump: str = "dealer_card"
    tiebreak_players: str = "tied"
    ronda_india: bool = False

    def __post_init__(self) -> None:
        check_params(self)
        check(self.min_players in (2, 3), "min_players", self.min_players, "3, or 2")
        check(self.max_players in range(4, 9), "max_players", self.max_players, "4 to 8")
        check(
            self.min_players <= self.players <= self.max_players,
            "players",
            self.players,
            # The range, and how it widens where it can (Oh Hell is 3–7 unless max_players=8).
            (
                "{low}–{high} (min_players=2 allows 2, max_players=8 allows 8)"
                if self.min_players == 3 and self.max_players < 8
                else "{low}–{high} (min_players=2 allows 2)"
                if self.min_players == 3
                else "{low}–{high} (max_players=8 allows 8)"
                if self.max_players < 8
                else "{low}–{high}"
            ),
            low=self.min_players,
            high=self.max_players,
        )
        check(self.deck in (40, 48, "french"), "deck", self.deck, "40, 48 or french")
        if self.deck != "french":
            check(
                (self.suits, self.ranks) == (4, 13),
                "suits/ranks",
                (self.suits, self.ranks),
                "suits and ranks shape the French deck only (deck=french)",
            )
            check(
                self.rank_order in ("as_tres", "natural"),
                "rank_order",
                self.rank_order,
                "as_tres or natural",
            )
        else:
            check(1 <= self.suits <= 4, "suits", self.suits, "1 to 4")
            check(2 <= self.ranks <= 13, "ranks", self.ranks, "2 to 13")
            cards = self.suits * self.ranks
            check(
                cards >= self.players,
                "suits/ranks",
                (self.suits, self.ranks),
                "a card for each player at least ({cards} cards, {players} players)",
                cards=cards,
                players=self.players,
            )
            check(
                self.rank_order == "natural",
                "rank_order",
                self.rank_order,
                "natural: the French deck ranks A high (deck=french needs rank_order=natural;"
                " oh_hell sets both)",
            )
        check(
            self.obligation in ("must_win", "follow"),
            "obligation",
            self.obligation,
            "must_win or follow",
        )
        check(self.scoring in ("pocha", "oh_hell"), "scoring", self.scoring, "pocha or oh_hell")
        check(
            self.all_dealt_trump in ("dealer_card", "none"),
            "all_dealt_trump",
            self.all_dealt_trump,
            "dealer_card or none",
        )
        check(
            self.tiebreak_players in ("tied", "all", "nobody"),
            "tiebreak_players",
            self.tiebreak_players,
            "tied, all or nobody",
        )
        # Validates the schedule against the deck, uncached: a cached answer is looked up by an
        # equal Params, and schedule=true equals schedule=1 (it would pass once 1 had).
        _hand_sizes(self)


def deck(params: Params) -> Deck:
    """The cards in play: the 2s are out of the 40-card deck for 3 or 6 players."""
    return _deck(params)


@lru_cache(maxsize=64)
def _deck(params: Params) -> Deck:
    if params.deck == "french":
        return french(params.suits, params.ranks)
    deck = spanish(int(params.deck))
    if params.deck == 40 and params.players in (3, 6):
        return deck.without_ranks(2)
    return deck


@lru_cache(maxsize=64)
def card_order(params: Params) -> tricks.Order:
    """The strength of the cards within their suit: As-Tres or natural order, or A high (French)."""
    deck = _deck(params)
    if params.deck == "french":
        return tricks.Order.of(deck, tuple(range(14, 1, -1)))
    low = (7, 6, 5, 4, 2) if params.deck == 40 else (9, 8, 7, 6, 5, 4, 2)
    faces = (1, 3, 12, 11, 10) if params.rank_order == "as_tres" else (1, 12, 11, 10)
    rest = low if params.rank_order == "as_tres" else (*low[:-1], 3, 2)
    return tricks.Order.of(deck, faces + rest)


_SCHEDULES = ", ".join(SCHEDULES)


@lru_cache(maxsize=64)
def schedule_of(params: Params) -> tuple[int, ...]:
    """The hand sizes of the match.

    >>> schedule_of(Params(players=4))
    (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    >>> len(schedule_of(Params(players=3))), schedule_of(Params(players=4, schedule="n_ones"))[:5]
    (25, (1, 1, 1, 1, 2))
    """
    return _hand_sizes(params)


def _hand_sizes(params: Params) -> tuple[int, ...]:
    """``schedule_of`` worked out, checking the schedule: SpecError for one it cannot deal."""
    n, top = params.players, _deck(params).size // params.players
    s = params.schedule
    if isinstance(s, int) and not isinstance(s, bool):
        s = (s,)
    if isinstance(s, tuple):
        check(
            0 < len(s) <= MAX_HANDS and all(1 <= h <= top for h in s),
            "schedule",
            s,
            "1 to {most} hand sizes, each from 1 to {top} ({cards} cards, {players} players)",
            most=MAX_HANDS,
            top=top,
            cards=_deck(params).size,
            players=n,
        )
        return s
    check(s in SCHEDULES, "schedule", s, "{words}, a hand size or a list of them", words=_SCHEDULES)
    up = tuple(range(1, top))
    if s == "up_and_down":
        return up + (top,) * n + up[::-1]
    if s == "up_only":
        return up + (top,) * n
    if s == "max_only":
        return (top,) * n
    return (1,) * (n - 1) + up + (top,) * n + up[::-1] + (1,) * (n - 1)


def players(params: Params) -> int:
    return params.players


def teams(params: Params) -> None:
    return None


@dataclass(eq=False)
class Deal:
    """What a deal fixes: its number, size, dealer, players, trump and the cards as dealt.

    Treat as immutable. Not a frozen dataclass: one is built per deal on the playout path, and a
    frozen one sets each field the slow way.
    """

    number: int
    size: int
    dealer: Seat
    seats: tuple[Seat, ...]  # who plays, in play order from mano (all, or tie-break players)
    after: tuple[Seat, ...]  # after[s]: the participant who acts after s
    trump: int  # suit, or -1 for no trump
    upcard: Card  # the turned card, or -1
    shown: Card  # the dealer's own last card shown for trump, or -1
    deck: tuple[Card, ...]
    dealt: tuple[int, ...]  # each seat's hand as dealt (bitmask)
    tiebreak: bool
    order: tricks.Order
    beaters: tuple[int, ...] = field(init=False, repr=False)  # ``order.beaters[trump]``

    def __post_init__(self) -> None:
        self.beaters = self.order.beaters[self.trump]


class _Scored:
    """A hand's score as the state keeps it, until ``events`` asks for it."""

    __slots__ = ("bids", "delta", "totals", "won")

    def __init__(
        self,
        bids: tuple[int, ...],
        won: tuple[int, ...],
        delta: tuple[int, ...],
        totals: tuple[int, ...],
    ) -> None:
        self.bids, self.won, self.delta, self.totals = bids, won, delta, totals

    def event(self) -> Event:
        return Event(
            "score",
            {
                "bids": list(self.bids),
                "tricks": list(self.won),
                "score": list(self.delta),
                "totals": list(self.totals),
            },
        )


_END = "end"
"""The end of the match as the state keeps it: ``events`` tells the outcome."""

_Pending = Event | Deal | _Scored | str | tuple[Seat, tuple[Card, ...], Seat]
"""An event as the state keeps it: a ``Deal``, a trick ``(leader, cards, winner)``, a hand's
score, the end, or an Event."""

_Public = tuple[tuple[int, ...], tuple[int | None, ...], tuple[CardSet, ...]]
"""What every seat's view of a state shares: hand sizes, bids, cards known not held."""


class State(GameState):
    """A Pocha match between two decisions. Treat as immutable: ``apply`` returns a new one."""

    __slots__ = (
        "_legal",
        "_public",
        "bids",
        "deal",
        "hands",
        "history",
        "last",
        "leader",
        "params",
        "phase",
        "scores",
        "setup",
        "trick",
        "tricks",
        "turn",
        "winning",
        "won",
    )
    _FRESH = (("_legal", -1), ("_public", None))  # caches a new state computes again

    def __init__(
        self,
        params: Params,
        setup: Setup,
        deal: Deal,
        hands: tuple[int, ...],
        bids: tuple[int, ...],
        won: tuple[int, ...],
        trick: tuple[Card, ...],
        leader: Seat,
        tricks: tuple[tuple[Seat, tuple[Card, ...]], ...],
        turn: Seat,
        phase: Phase,
        scores: tuple[int, ...],
        history: tuple[tuple[int, ...], ...],
        last: tuple[_Pending, ...],
        winning: tuple[Card, Seat] | None = None,
    ) -> None:
        self.params = params
        self.setup = setup
        self.deal = deal
        self.hands = hands
        self.bids = bids
        self.won = won
        self.trick = trick
        self.leader = leader
        self.tricks = tricks
        self.turn = turn
        self.phase = phase
        self.scores = scores
        self.history = history
        self.last = last
        # The card winning the trick so far and its player ((-1, -1): no card played yet).
        self.winning = winning if winning is not None else _winning(deal, leader, trick)
        self._legal = -1  # the play phase's legal mask, computed once
        self._public: _Public | None = None  # what every seat's view shares, computed once

    def _copy(self) -> State:
        """A new state like this one (see ``GameState``)."""
        return State(
            self.params,
            self.setup,
            self.deal,
            self.hands,
            self.bids,
            self.won,
            self.trick,
            self.leader,
            self.tricks,
            self.turn,
            self.phase,
            self.scores,
            self.history,
            self.last,
            self.winning,
        )

    def __repr__(self) -> str:
        d = self.deal
        hands = " | ".join(format_cards(cards_of(h)) for h in self.hands)
        return (
            f"<pocha deal {d.number} size {d.size} dealer {d.dealer} trump "
            f"{suit_name(d.trump) if d.trump >= 0 else 'none'} {Phase(self.phase)} "
            f"turn {self.turn} bids {list(self.bids)} won {list(self.won)} "
            f"trick [{format_cards(self.trick)}] hands [{hands}] scores {list(self.scores)}>"
        )


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat=None``) knows. Cards are sets; -1 means none."""

    seat: Seat | None
    params: Params
    deal: int
    hand_size: int
    dealer: Seat
    seats: tuple[Seat, ...]
    tiebreak: bool
    trump: int
    upcard: Card
    shown: Card
    hands: tuple[CardSet | None, ...]  # the hands this seat can see (its own, unless blind)
    hand_sizes: tuple[int, ...]
    bids: tuple[int | None, ...]
    won: tuple[int, ...]
    trick: tuple[Card, ...]
    leader: Seat
    tricks: tuple[tuple[Seat, tuple[Card, ...]], ...]
    turn: Seat | None
    phase: Phase
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    excluded: tuple[CardSet, ...] = field(repr=False)  # cards each seat is known not to hold

    @property
    def hand(self) -> CardSet | None:
        """This seat's own hand, when it may see it."""
        return None if self.seat is None else self.hands[self.seat]


# --- the match -----------------------------------------------------------------------------


def new_state(params: Params, setup: Setup) -> State:
    n = params.players
    dealer = setup.first_dealer(n)
    seats = (*range(dealer + 1, n), *range(dealer + 1))  # mano first, the dealer last
    deal = _deal(params, setup, 0, schedule_of(params)[0], seats, tiebreak=False)
    zeros = (0,) * n
    return _start(params, setup, deal, zeros, (), (deal,))


def _deal(
    params: Params, setup: Setup, number: int, size: int, seats: tuple[Seat, ...], tiebreak: bool
) -> Deal:
    """Deal ``size`` cards to ``seats`` (mano first, dealer last), one at a time."""
    n, p = params.players, len(seats)
    cards, order = _dealing(params)
    deck = setup.deck(number, cards)
    dealt = [0] * n
    bits = [_BIT[card] for card in deck[: p * size]]  # the dealt cards' bits, in one pass
    for k, seat in enumerate(seats):  # each seat's cards: every p-th from its place in the round
        dealt[seat] = sum(bits[k::p])
    upcard = shown = -1
    if p * size < len(deck):
        upcard = deck[p * size]
        trump = upcard >> 4
    elif params.all_dealt_trump == "dealer_card":
        shown = deck[p * size - 1]
        trump = shown >> 4
    else:
        trump = -1
    after = [0] * n
    for i, s in enumerate(seats):
        after[s] = seats[(i + 1) % p]
    return Deal(
        number,
        size,
        seats[-1],
        seats,
        tuple(after),
        trump,
        upcard,
        shown,
        deck,
        tuple(dealt),
        tiebreak,
        order,
    )


@lru_cache(maxsize=64)
def _dealing(params: Params) -> tuple[tuple[Card, ...], tricks.Order]:
    """The deck's cards and their order, in one look-up a deal (each hashes the ``Params``)."""
    return _deck(params).cards, card_order(params)


_BIT = tuple(1 << c for c in range(128))  # a card's bit; the bits of distinct cards sum to a mask


def _start(
    params: Params,
    setup: Setup,
    deal: Deal,
    scores: tuple[int, ...],
    history: tuple[tuple[int, ...], ...],
    last: tuple[_Pending, ...],
) -> State:
    n = params.players
    mano = deal.seats[0]
    return State(
        params,
        setup,
        deal,
        deal.dealt,
        (-1,) * n,
        (0,) * n,
        (),
        mano,
        (),
        mano,
        _BID,
        scores,
        history,
        last,
        _NONE_WINNING,
    )


def _winning(deal: Deal, leader: Seat, trick: tuple[Card, ...]) -> tuple[Card, Seat]:
    """The card winning ``trick`` so far, and who played it; (-1, -1) for an empty trick."""
    if not trick:
        return _NONE_WINNING
    beaters, after = deal.beaters, deal.after
    best, taker, seat = trick[0], leader, leader
    for card in trick[1:]:
        seat = after[seat]
        if beaters[best] >> card & 1:
            best, taker = card, seat
    return best, taker


_NONE_WINNING = (-1, -1)


def current_player(state: State) -> Seat | None:
    return None if state.phase == _OVER else state.turn


def legal_actions(state: State) -> list[Action]:
    """Bids ``BID + n`` in the bidding, then the cards the play obligation allows."""
    if state.phase == _PLAY:
        legal = state._legal
        return cards_of(legal if legal >= 0 else legal_cards(state))
    if state.phase == _BID:
        bids = list(range(BID, BID + state.deal.size + 1))
        hooked = _hooked_bid(state)
        if hooked >= 0:
            bids.remove(BID + hooked)
        return bids
    return []


def legal_cards(state: State) -> int:
    """The cards the player to act may play, as a mask (computed once per state)."""
    if state._legal < 0:
        p, d, trick = state.params, state.deal, state.trick
        state._legal = tricks.legal_over(
            state.hands[state.turn],
            trick[0] >> 4 if trick else -1,
            state.winning[0],
            d.trump,
            d.beaters,
            p.obligation,
            p.must_underruff,
        )
    return state._legal


def _hooked_bid(state: State) -> int:
    """The bid the hook rule forbids the current bidder, or -1."""
    p, d = state.params, state.deal
    if not p.dealer_hook or state.turn != d.dealer or d.tiebreak:
        return -1
    if d.size == 1 and not p.hook_on_one_card:
        return -1
    rest = d.size - sum(b for b in state.bids if b > 0)
    return rest if 0 <= rest <= d.size else -1


def _the_tricks(size: int) -> str:
    """A hand's tricks in a refusal: "the 1 trick" of a one-card hand, "the 5 tricks"."""
    return "the 1 trick" if size == 1 else f"the {size} tricks"


def why_illegal(state: State, action: Action) -> IllegalActionError | None:
    """Why ``action`` breaks a rule now, or None. The single source of legality."""
    if state.phase == _OVER:
        return IllegalActionError("match-over", "the match is over")
    d = state.deal
    if action < 0 or (action < BID and not _deck(state.params).mask >> action & 1):
        # A card of another deck is named as written: "play Ah" at a Spanish table.
        what = format_card(action) if is_card(action) else action
        return IllegalActionError(
            "no-such-action", f"{what} is not an action: a card of the deck, or a bid"
        )
    if action >= BID:
        bid = action - BID
        if state.phase != _BID:
            return IllegalActionError("not-bidding", "the bids are in: play a card")
        if bid > d.size:
            return IllegalActionError("bid-range", f"a bid is 0 to {d.size} tricks in this hand")
        if bid == _hooked_bid(state):
            made = d.size - bid
            return IllegalActionError(
                "hook",
                f"the dealer may not bid {bid}: the bids would add up to {_the_tricks(d.size)}"
                f" ({made} already bid; hook rule)",
            )
        return None
    if state.phase != _PLAY:
        return IllegalActionError(
            "bidding", f"first bid: say how many of {_the_tricks(d.size)} you will take"
        )
    p = state.params
    return tricks.why_card_illegal(
        state.hands[state.turn],
        action,
        state.trick,
        d.trump,
        d.order,
        p.obligation,
        must_underruff=p.must_underruff,
    )


def apply(state: State, action: Action) -> State:
    """The state after the current player takes ``action``; raises IllegalActionError.

    A legal card is played here, not in a function of its own: cards are most of a playout's
    steps, and an interpreted call costs a tenth of one.
    """
    legal = state._legal
    if (
        state.phase != _PLAY
        or not 0 <= action < BID
        or not (legal if legal >= 0 else legal_cards(state)) >> action & 1
    ):
        error = why_illegal(state, action)
        if error is not None:
            raise error
        return _bid(state, action - BID)
    card, seat, d = action, state.turn, state.deal
    held = list(state.hands)
    held[seat] ^= _BIT[card]
    hands = tuple(held)
    trick = state.trick + (card,)  # noqa: RUF005 (cheaper than unpacking, on the hot path)
    winning = state.winning
    best = winning[0]
    if best < 0 or d.beaters[best] >> card & 1:
        winning = (card, seat)
    if len(trick) < len(d.seats):
        turn, p = d.after[seat], state.params
        state = State(
            p,
            state.setup,
            d,
            hands,
            state.bids,
            state.won,
            trick,
            state.leader,
            state.tricks,
            turn,
            _PLAY,
            state.scores,
            state.history,
            (),
            winning,
        )
        # The next seat's legal cards now, while the suit led and the winning card are at hand:
        # every step of a playout asks for them.
        state._legal = tricks.legal_over(
            hands[turn],
            trick[0] >> 4,
            winning[0],
            d.trump,
            d.beaters,
            p.obligation,
            p.must_underruff,
        )
        return state
    winner, leader = winning[1], state.leader
    taken = list(state.won)
    taken[winner] += 1
    won = tuple(taken)
    event = (leader, trick, winner)
    state = State(
        state.params,
        state.setup,
        d,
        hands,
        state.bids,
        won,
        (),
        winner,
        state.tricks + ((leader, trick),),  # noqa: RUF005 (as the trick above)
        winner,
        _PLAY,
        state.scores,
        state.history,
        (event,),
        _NONE_WINNING,
    )
    if len(state.tricks) < d.size:
        state._legal = hands[winner]  # the leader may play any card
        return state
    return _end_of_hand(state)


def _bid(state: State, bid: int) -> State:
    seat, d = state.turn, state.deal
    bids = (*state.bids[:seat], bid, *state.bids[seat + 1 :])
    last_bid = seat == d.dealer
    state = State(
        state.params,
        state.setup,
        d,
        state.hands,
        bids,
        state.won,
        (),
        state.leader,
        state.tricks,
        d.seats[0] if last_bid else d.after[seat],
        _PLAY if last_bid else _BID,
        state.scores,
        state.history,
        (),
        _NONE_WINNING,
    )
    if not last_bid:
        return state
    state._legal = state.hands[state.turn]  # mano leads: any card
    if d.size == 1 and state.params.ronda_india:
        # Blind hands: nobody knows their own card, so the cards play themselves.
        for _ in d.seats:
            earlier = state.last
            state = apply(state, cards_of(state.hands[state.turn])[0])
            state.last = earlier + state.last  # a new state, not seen yet: see GameState
    return state


def hand_score(params: Params, bid: int, won: int) -> int:
    """Points for one hand: exact 10 + 5 a trick, else −5 a trick of difference.

    >>> hand_score(Params(), 3, 3), hand_score(Params(), 1, 0), hand_score(Params(), 0, 2)
    (25, -5, -10)
    >>> hand_score(Params(scoring="oh_hell"), 3, 3), hand_score(Params(scoring="oh_hell"), 1, 0)
    (13, 0)
    """
    if params.scoring == "oh_hell":
        return won + (10 if bid == won else 0)
    return 10 + 5 * won if bid == won else -5 * abs(won - bid)


def _end_of_hand(state: State) -> State:
    p, d = state.params, state.deal
    bids, won, seats = state.bids, state.won, d.seats
    delta = tuple([hand_score(p, bids[s], won[s]) if s in seats else 0 for s in range(p.players)])
    scores = tuple(map(add, state.scores, delta))
    history = (*state.history, delta)
    scored = _Scored(state.bids, state.won, delta, scores)
    last = (*state.last, scored)
    number, schedule = d.number + 1, schedule_of(p)
    if number < len(schedule):
        dealer = (d.dealer + 1) % p.players
        seats = (*range(dealer + 1, p.players), *range(dealer + 1))  # mano first
        nxt = _deal(p, state.setup, number, schedule[number], seats, tiebreak=False)
    else:
        # Under ``nobody`` a tie stands: who leads then matters to ``outcome`` only.
        stands = p.tiebreak_players == "nobody"
        leaders = () if stands else _leaders(scores, _contenders(p, d))
        if stands or len(leaders) == 1:
            over = state._copy()  # then set: see GameState
            over.scores, over.history, over.phase, over.turn = scores, history, _OVER, -1
            over.last = (*last, _END)
            return over
        if d.tiebreak:
            players = _contenders(p, d)  # fixed when the tie-break started
        else:
            players = leaders if p.tiebreak_players == "tied" else tuple(range(p.players))
        # The deal rotates among the players of the tie-break.
        dealer = next((s for s in sorted(players) if s > d.dealer), min(players))
        i = players.index(dealer)
        seats = players[i + 1 :] + players[: i + 1]
        nxt = _deal(p, state.setup, number, 1, seats, tiebreak=True)
    return _start(p, state.setup, nxt, scores, history, (*last, nxt))


def _deal_event(params: Params, d: Deal) -> Event:
    french = params.deck == "french"
    face_up = d.upcard if d.upcard >= 0 else d.shown
    return Event(
        "deal",
        {
            "deal": d.number,
            "dealer": d.dealer,
            "size": d.size,
            "seats": list(d.seats),
            "deck": [CARD_TEXT[c] for c in d.deck],
            "hands": [[CARD_TEXT[c] for c in cards_of(h)] for h in d.dealt],
            "upcard": format_card(face_up) if face_up >= 0 else None,
            "upcard_kept_by_dealer": d.shown >= 0,
            "trump": suit_name(d.trump) if d.trump >= 0 else None,
            "stock": [],
            "french": french,
        },
    )


def _contenders(params: Params, deal: Deal) -> tuple[Seat, ...]:
    """Who may still win after ``deal``: everyone, or in a tie-break only its players.

    The set of tie-breakers is fixed when the tie-break starts: a player who was not tied for
    first never joins it, even when the tie-breakers fall to or below his score.
    """
    return tuple(sorted(deal.seats)) if deal.tiebreak else tuple(range(params.players))


def _leaders(scores: tuple[int, ...], contenders: tuple[Seat, ...]) -> tuple[Seat, ...]:
    best = max(scores[s] for s in contenders)
    return tuple(s for s in contenders if scores[s] == best)


def outcome(state: State) -> Outcome | None:
    """The result once the match is over: the highest total, or the winner of the tie-break.

    The reason says how it was decided: ``schedule complete``, ``tie stands`` (a shared win
    under ``tiebreak_players=nobody``) or ``tie-break won``.
    """
    if state.phase != _OVER:
        return None
    d = state.deal
    winners = _leaders(state.scores, _contenders(state.params, d))
    if d.tiebreak:
        reason = "tie-break won"
    else:
        reason = "schedule complete" if len(winners) == 1 else "tie stands"
    return Outcome(state.scores, winners, reason)


def events(state: State) -> tuple[Event, ...]:
    """The deal, tricks, score and end of match the last step brought about."""
    return tuple(_event(state, e) for e in state.last)


def visible_events(state: State, seat: Seat | None) -> tuple[Event, ...]:
    """The last step's events as ``seat`` may know them: a deal shows the hands ``observe``
    shows (its own; in a ``ronda_india`` one-card deal everyone's but its own), no deck."""
    d = state.deal

    def sees(owner: Seat) -> bool:
        if seat is None:
            return False
        if _blind(state):
            return owner != seat and owner in d.seats
        return owner == seat

    return tuple(deal_as_seen(e, sees) if e.type == "deal" else e for e in events(state))


def visible_action(state: State, action: Action, seat: Seat | None) -> str:
    """Every bid and play is made in the open: its text is the same for every seat."""
    return format_action(state.params, action)


def _blind(state: State) -> bool:
    """Is this a ``ronda_india`` one-card deal, each card seen by everyone but its holder?"""
    return state.params.ronda_india and state.deal.size == 1 and state.phase != _OVER


def _event(state: State, pending: _Pending) -> Event:
    # Events are kept raw in the state and only rendered here, off the playout hot path.
    if isinstance(pending, Event):
        return pending
    if isinstance(pending, Deal):
        return _deal_event(state.params, pending)
    if isinstance(pending, _Scored):
        return pending.event()
    if isinstance(pending, str):  # the end: the state is the match's last
        result = outcome(state)
        assert result is not None
        return Event(
            "end",
            {
                "scores": list(result.scores),
                "winners": list(result.winners),
                "reason": result.reason,
            },
        )
    leader, trick, winner = pending
    return Event(
        "trick", {"leader": leader, "cards": [CARD_TEXT[c] for c in trick], "winner": winner}
    )


# --- notation --------------------------------------------------------------------------------


def format_action(params: Params, action: Action) -> str:
    """The text of an action: ``bid N`` or ``play CARD``.

    >>> format_action(Params(), BID + 2), format_action(Params(), 3)
    ('bid 2', 'play 3o')
    """
    if action >= BID:
        return f"bid {action - BID}"
    return f"play {format_card(action)}"


def parse_action(params: Params, text: str) -> Action:
    """``bid N`` or ``play CARD``; a bare number is a bid and a bare card a play.

    >>> parse_action(Params(), "bid 2") == BID + 2, parse_action(Params(), "3o")
    (True, 3)
    """
    words = text.strip().lower().split()
    deck = _deck(params)
    if len(words) == 1:
        words = ["bid" if words[0].isdecimal() else "play", words[0]]
    if len(words) != 2 or words[0] not in ("bid", "play"):
        raise InvalidActionError(_usage(deck, text))
    verb, arg = words
    if verb == "bid":
        if not arg.isdecimal():
            raise InvalidActionError(f"{text.strip()!r}: a bid is a number of tricks, e.g. bid 2")
        most = deck.size // params.players  # the largest hand the deck can deal
        tricks = count_in(arg, most)
        if tricks is None:
            # Said by the largest hand this match deals (tie-breaks deal one card), which the
            # prompt's "bid 0–5" agrees with, not by the deck's, which it may never deal.
            largest = max(schedule_of(params))
            raise InvalidActionError(
                f"{text.strip()!r}: no hand of this match has more than {largest} tricks"
            )
        return BID + tricks
    return deck.parse(arg, _usage(deck, text) if len(text.split()) == 1 else "")


def _usage(deck: Deck, text: str) -> str:
    """What the notation reads, for ``text`` that is none of it (made only to be raised)."""
    example = format_card(deck.cards[2])
    return (
        f"{text.strip()!r} is not an action: write 'bid N' or 'play CARD' (bid 2, play {example})"
    )


# --- views -----------------------------------------------------------------------------------


def observe(state: State, seat: Seat | None) -> View:
    """What ``seat`` sees: its own hand, the bids, the tricks, trump; never another hand.

    In ``ronda_india`` one-card hands a seat sees every card but its own.
    """
    p, d = state.params, state.deal
    hands: list[CardSet | None] = [None] * p.players
    if seat is not None:
        if _blind(state):
            hands = [
                CardSet(h) if s != seat and s in d.seats else None
                for s, h in enumerate(state.hands)
            ]
        else:
            hands[seat] = CardSet(state.hands[seat])
    hand_sizes, bids, excluded = _shared(state)
    return View(
        seat=seat,
        params=p,
        deal=d.number,
        hand_size=d.size,
        dealer=d.dealer,
        seats=d.seats,
        tiebreak=d.tiebreak,
        trump=d.trump,
        upcard=d.upcard,
        shown=d.shown,
        hands=tuple(hands),
        hand_sizes=hand_sizes,
        bids=bids,
        won=state.won,
        trick=state.trick,
        leader=state.leader,
        tricks=state.tricks,
        turn=None if state.phase == _OVER else state.turn,
        phase=state.phase,
        scores=state.scores,
        history=state.history,
        excluded=excluded,
    )


def _shared(state: State) -> _Public:
    """The parts of a view that are the same for every seat (hand sizes, bids, the cards each
    seat is known not to hold), kept in the state: a server shows every seat the same state."""
    if state._public is None:
        state._public = (
            tuple(h.bit_count() for h in state.hands),
            tuple(None if b < 0 else b for b in state.bids),
            tuple(CardSet(m) for m in _excluded(state)),
        )
    return state._public


def _excluded(state: State) -> list[int]:
    """Cards each seat is known not to hold, from how it followed (public to all)."""
    p, d = state.params, state.deal
    out = [0] * p.players
    order = d.order
    for leader, trick in (*state.tricks, (state.leader, state.trick)):
        seat = leader
        for i, card in enumerate(trick):
            out[seat] |= tricks.excluded_by_play(
                card,
                trick[:i],
                d.trump,
                order,
                p.obligation,
                must_underruff=p.must_underruff,
            )
            seat = d.after[seat]
    return out


def sample_state(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``: unseen cards dealt at random around known facts.

    The seat's own hand, the cards played, the turned card, the dealer's shown card and every void
    or "could not beat" revealed by play are honoured; later deals come from a fresh seed.
    """
    # The sampler builds on this module, so it is imported when first needed.
    from tapete.games._pocha_sampler import sample_state as sample

    return sample(view, rng)


def stack_deck(
    params: Params, dealer: Seat, hands: list[str], upcard: str | None = None
) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (text, one per seat) with ``upcard`` turned next.

    For tests, puzzles and teaching: ``game.new_state(decks=[stack_deck(...)], dealer=...)``.
    The rest of the deck follows in its canonical order.

    >>> p = Params(players=3, schedule=1)
    >>> [format_card(c) for c in stack_deck(p, 2, ["1o", "3o", "4o"], "5e")[:4]]
    ['1o', '3o', '4o', '5e']
    """
    return chance.stack_deck(_deck(params), params.players, dealer, hands, upcard or "")
