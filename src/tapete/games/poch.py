"""Poch (*Pochen*): bowls for the trump honours, a poker round, then a shedding race.

The rules as implemented (``docs/rules/poch.md`` is the long form):

* **Deck**: 3–4 players use the 32-card French deck (7 up to A), 5–6 players all 52.
  Ranks run A high down to 7 (or 2); the Ace is high only, so a run never wraps.
* **Players**: 3–6 (default 4), 10 ``chips`` each. Seat ``i + 1`` acts after seat ``i``
  (Poch is played clockwise: a display matter). The first dealer is drawn by lot; the deal passes
  to the next seat still in the game, and the seat after the dealer (*Vorhand*, "the dealer's
  left") begins every phase.
* **The board**: nine bowls, Ace, King, Queen, Jack, Ten, Marriage, Sequence, Poch and the
  centre bowl, the *Pinke*. Before every round the bank adds 1 chip to each of the eight named
  bowls (``bowl_funding=player_antes``: every player puts 1 chip in each, as far as his chips
  go, Ace bowl first). Chips not won stay in their bowl. Chips only ever sit in a stack, a bowl
  or the Pinke; only the bank adds chips.
* **Deal**: 5 cards each, one at a time from the dealer's left; the next card is turned
  up and sets trump; it and the rest of the deck are out of play for the round
  (``deal=all``: every card is dealt, the first seats getting one more when they do not divide
  evenly; the last card dealt is shown for trump and stays in its holder's hand).
* **Melding** (automatic, each bowl announced as a ``meld`` event): the holder of the trump
  A, K, Q, J or 10 takes that bowl (the card is shown); the holder of trump K and Q also takes the
  Marriage bowl. The best run of three cards in a suit takes the Sequence bowl: a trump run beats
  any other, then the higher top card, then the seat nearest the dealer's left; a longer run
  counts by its best three cards (``sequence_compare=length_then_height``: longer first, then
  trump, then height; ``sequence_rule=trump_789``: only the trump 7‑8‑9 wins it). The winning run
  is shown. A bowl nobody can claim keeps its chips.
* **Poker**: from the dealer's left, ``bet n`` (n ≥ 1) or ``pass`` before any bet; after a
  bet ``call``, ``raise n`` (match, then n more) or ``pass``. Passing is folding, for the rest of
  the phase; a folded hand stays hidden. A player without chips sits the phase out. No bet or
  raise may take the highest contribution above the smallest stack still in (table stakes;
  ``bet_cap=none``: up to one's own stack, with all-in calls and side pots). When every player
  still in has matched, the hands still in are shown: the best takes the Pinke and the Poch bowl.
  Hands rank by set size (four, three, pair), then the set's rank, then the set holding the trump
  card; without sets by the highest card, the next, and so on; a tie beyond that goes to the
  higher trump, then the seat nearest the dealer's left. A lone player left after a bet takes
  both without showing. If nobody bets, the Pinke stays empty and the Poch bowl carries
  (``all_pass=showdown``: every hand is shown and the best takes the Poch bowl).
* **Shedding**: the dealer's left (``shed_leader=poker_winner``: the player who took the
  Pinke, if anyone did) leads any card. Whoever holds the next higher card of its suit must play
  it, and so on: the rules play these cards themselves (a ``run`` event). A run stops at the Ace,
  at a card out of play or already played; whoever played its last card leads again. The first
  player to empty his hand wins the round and every other player pays him 1 chip per card left,
  or all he has.
* **End**: a player with no chips at the end of a round is out. The last player with chips
  wins, but the match ends after at most 10 rounds per player (``max_rounds``: a number, or
  ``none`` for no cap), the most chips winning and tied players sharing the win: the bank's
  chips would otherwise let careful players go on for ever. ``rounds=one_per_player`` ends the
  match after one round per player the same way; a number of rounds does so after that many.

Forced moves: every decision a seat takes on its turn is an action, even when only one is
possible (a leader holding one card still says ``play``). The continuation of a run is not a turn
but a duty the rules call automatic, so the rules play it and record it in ``run`` events.

Actions are ints: a card ``c`` is ``play c``; ``PASS`` and ``CALL``; ``bet n`` is
``PASS + 2 * n`` and ``raise n`` is ``CALL + 2 * n``, so every bet and raise has its own action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from tapete import chance
from tapete.cards import (
    CARD_TEXT,
    Card,
    CardSet,
    Deck,
    Suit,
    cards_of,
    format_card,
    format_cards,
    french,
    suit_name,
)
from tapete.errors import IllegalActionError, InvalidActionError, one_of
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
    unshared,
)

__all__ = [
    "ACE",
    "BOWLS",
    "CALL",
    "HONOURS",
    "JACK",
    "KING",
    "MARRIAGE",
    "MAX_CHIPS",
    "MAX_ROUNDS",
    "NAME",
    "NAMED_BOWLS",
    "NO_CAP_MOST",
    "PARAMS_BEFORE",
    "PASS",
    "PINKE",
    "POCH",
    "QUEEN",
    "REASONS_BEFORE",
    "ROUNDS",
    "SEQUENCE",
    "TEN",
    "Meld",
    "Params",
    "Phase",
    "Round",
    "State",
    "View",
    "apply",
    "best_run",
    "bet_action",
    "current_player",
    "deck",
    "events",
    "format_action",
    "hand_name",
    "hand_value",
    "legal_actions",
    "meld_bowls",
    "most_chips",
    "new_state",
    "observe",
    "outcome",
    "parse_action",
    "players",
    "raise_action",
    "round_limit",
    "sample_state",
    "stack_deck",
    "teams",
    "visible_action",
    "visible_events",
    "why_illegal",
]

NAME = "poch"
PASS, CALL = 128, 129
BOWLS = ("ace", "king", "queen", "jack", "ten", "marriage", "sequence", "poch", "pinke")
ACE, KING, QUEEN, JACK, TEN, MARRIAGE, SEQUENCE, POCH, PINKE = range(9)
NAMED_BOWLS = 8  # the bowls the bank (or the antes) fund: all but the Pinke
HONOURS = ((ACE, 14), (KING, 13), (QUEEN, 12), (JACK, 11), (TEN, 10))
ROUNDS = ("until_one_left", "one_per_player")
MAX_CHIPS = 1000  # the most chips a player may start with: a match ends in human time
MAX_ROUNDS = 1000  # the most rounds ``rounds`` or ``max_rounds`` may name
_RANK_WORDS = {14: "ace", 13: "king", 12: "queen", 11: "jack", 10: "ten", 9: "nine", 8: "eight",
               7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two"}  # fmt: skip
_RANK_TEXT = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}
PARAMS_BEFORE = {"max_rounds": None}
"""Parameters records made before they existed lack, with the value those matches played under."""
REASONS_BEFORE = {"round limit reached": ("rounds complete",)}
"""Reasons as older records wrote them: a match the max_rounds cap ended before the rounds asked
for were played was called "rounds complete"."""


class Phase(WordEnum):
    """What the seat to act is doing (``State.phase``, ``View.phase``); melding is automatic."""

    POKER = 0  # bet, call or pass
    SHEDDING = 1  # lead or continue a run
    OVER = 2  # the match is over


_POKER, _SHED, _OVER = Phase  # for the hot path: a global is read faster


# Compiled, a native class would refuse a wrong type before check_params names it.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, kw_only=True)
class Params:
    """Poch's parameters (the options of ``docs/rules/poch.md``), defaults first."""

    players: int = 4
    chips: int = 10
    bowl_funding: str = "bank"
    sequence_compare: str = "height"
    sequence_rule: str = "best_run"
    bet_cap: str | None = "min_active_stack"  # none (None) is read as "none"
    all_pass: str = "carry"
    shed_leader: str = "dealer_left"
    deal: str = "five"
    rounds: str | int = "until_one_left"
    max_rounds: int | str | None = "ten_per_player"

    def __post_init__(self) -> None:
        check_params(self)
        if self.bet_cap is None:
            # A spec string reads the word none as None; this option's value is the word.
            object.__setattr__(self, "bet_cap", "none")
        check(self.players in range(3, 7), "players", self.players, "3 to 6")
        check(
            1 <= self.chips <= MAX_CHIPS,
            "chips",
            self.chips,
            "a number of chips from 1 to {most} (the rules: 10)",
            most=MAX_CHIPS,
        )
        choices = (
            ("bowl_funding", ("bank", "player_antes")),
            ("sequence_compare", ("height", "length_then_height")),
            ("sequence_rule", ("best_run", "trump_789")),
            ("bet_cap", ("min_active_stack", "none")),
            ("all_pass", ("carry", "showdown")),
            ("shed_leader", ("dealer_left", "poker_winner")),
            ("deal", ("five", "all")),
        )
        for name, accepted in choices:
            value = getattr(self, name)
            check(value in accepted, name, value, one_of(accepted))
        r = self.rounds
        check(
            r in ROUNDS
            or (isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= MAX_ROUNDS),
            "rounds",
            r,
            "until_one_left, one_per_player or a number of rounds from 1 to {most}",
            most=MAX_ROUNDS,
        )
        m = self.max_rounds
        check(
            m in ("ten_per_player", None)
            or (isinstance(m, int) and not isinstance(m, bool) and 1 <= m <= MAX_ROUNDS),
            "max_rounds",
            m,
            "ten_per_player, a number of rounds from 1 to {most}, or none (no cap: a match may"
            " never end)",
            most=MAX_ROUNDS,
        )


@lru_cache(maxsize=8)
def _deck(players: int) -> Deck:
    """32 cards (7–A) for 3–4 players, all 52 for 5–6."""
    return french(4, 8) if players <= 4 else french()


def players(params: Params) -> int:
    return params.players


def deck(params: Params) -> Deck:
    """The cards in play: 7 up to A for 3–4 players, all 52 for 5–6."""
    return _deck(params.players)


def teams(params: Params) -> None:
    return None


def bet_action(n: int) -> Action:
    """The action ``bet n``."""
    return PASS + 2 * n


def raise_action(n: int) -> Action:
    """The action ``raise n`` (match the highest contribution, then add ``n``)."""
    return CALL + 2 * n


class Meld(NamedTuple):
    """One bowl of the melding phase: who took it (None: nobody), its chips, the cards shown."""

    bowl: int
    seat: Seat | None
    chips: int
    cards: CardSet
    why: str


@dataclass(eq=False)
class Round:
    """What a round fixes when it is dealt: dealer, players, trump, the cards, the melds.

    Treat as immutable. Not a frozen dataclass: one is made every round of every playout, and a
    frozen one sets each field the slow way.
    """

    number: int
    dealer: Seat
    seats: tuple[Seat, ...]  # the players of the round in play order, dealer's left first
    trump: Suit
    upcard: Card  # the turned card (out of play), or -1 under deal=all
    shown: Card  # deal=all: the last card dealt, shown for trump and kept by its holder; else -1
    deck: tuple[Card, ...]
    dealt: tuple[int, ...]  # each seat's hand as dealt (bitmask)
    stock: int  # the cards out of play this round, the turned card included (bitmask)
    melds: tuple[Meld, ...]
    start: tuple[int, ...]  # every seat's chips when the round began, before any ante


_Run = tuple[
    tuple[Seat, ...], tuple[Card, ...], str
]  # a shedding run: seats, cards, why it stopped


class _Poker:
    """The poker phase's result as the state keeps it, until ``events`` asks for it: the hands
    shown are put in words only then, off the playout path."""

    __slots__ = ("bets", "head", "shown", "trump", "won")

    def __init__(
        self,
        head: dict[str, Any],
        shown: tuple[tuple[Seat, int], ...],
        trump: Suit,
        won: tuple[int, ...],
        bets: tuple[int, ...],
    ) -> None:
        self.head, self.shown, self.trump, self.won, self.bets = head, shown, trump, won, bets

    def event(self) -> Event:
        data = dict(self.head)
        if self.shown:
            data["hands"] = [
                {
                    "seat": s,
                    "cards": [format_card(c) for c in cards_of(hand)],
                    "value": hand_name(hand, self.trump),
                }
                for s, hand in self.shown
            ]
        data["won"], data["bets"] = list(self.won), list(self.bets)
        return Event("poker", data)


_Pending = Event | Round | Meld | _Run | _Poker


class State(GameState):
    """A Poch match between two decisions. Treat as immutable: ``apply`` returns a new one."""

    __slots__ = (
        "alive",
        "bank",
        "bowls",
        "chips",
        "folded",
        "gone",
        "hands",
        "history",
        "last",
        "params",
        "pending",
        "phase",
        "played",
        "poker",
        "put",
        "revealed",
        "rnd",
        "runs",
        "setup",
        "showdown",
        "turn",
        "winner",
    )

    params: Params
    setup: Setup
    rnd: Round
    hands: tuple[int, ...]
    chips: tuple[int, ...]
    bowls: tuple[int, ...]  # the nine bowls, Pinke last
    bank: int  # chips the bank has added so far
    put: tuple[int, ...]  # each seat's chips in the Pinke this round
    folded: int  # seats out of the poker phase (passed, sitting out, not playing)
    pending: int  # seats that still have to act in the poker phase
    phase: Phase
    turn: Seat
    poker: tuple[tuple[Seat, Action], ...]  # the poker phase so far (public)
    revealed: tuple[int, ...]  # cards each seat has shown this round (melds, showdown)
    showdown: int  # seats whose whole hand was shown
    winner: Seat  # who won the poker round (the Pinke, or the Poch bowl at a showdown), or -1
    runs: tuple[tuple[tuple[Seat, Card], ...], ...]  # the shedding runs so far
    played: int  # cards shed this round
    gone: int  # cards a run stopped at that nobody holds: out of play
    alive: int  # seats still in the game
    history: tuple[tuple[int, ...], ...]  # chips won and lost in each round
    last: tuple[_Pending, ...]  # the last step's events, rendered by ``events``

    def _copy(self) -> State:
        """A new state like this one (see ``GameState``): every slot, for the compiled build."""
        new = State.__new__(State)
        new.params, new.setup, new.rnd, new.hands = self.params, self.setup, self.rnd, self.hands
        new.chips, new.bowls, new.bank, new.put = self.chips, self.bowls, self.bank, self.put
        new.folded, new.pending, new.phase = self.folded, self.pending, self.phase
        new.turn, new.poker, new.revealed = self.turn, self.poker, self.revealed
        new.showdown, new.winner, new.runs = self.showdown, self.winner, self.runs
        new.played, new.gone, new.alive = self.played, self.gone, self.alive
        new.history, new.last = self.history, self.last
        return new

    def __repr__(self) -> str:
        hands = " | ".join(format_cards(cards_of(h)) for h in self.hands)
        return (
            f"<poch round {self.rnd.number} dealer {self.rnd.dealer} trump "
            f"{suit_name(self.rnd.trump)} {Phase(self.phase)} turn {self.turn} "
            f"chips {list(self.chips)} bowls {list(self.bowls)} put {list(self.put)} "
            f"hands [{hands}]>"
        )


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat=None``) knows. Cards are sets; -1 means none."""

    seat: Seat | None
    params: Params
    deal: int  # the round's number, from 0
    dealer: Seat
    seats: tuple[Seat, ...]
    in_game: tuple[bool, ...]
    trump: Suit
    upcard: Card
    shown: Card
    hands: tuple[CardSet | None, ...]  # whole hands this seat sees: its own, those shown down
    known: tuple[CardSet, ...]  # cards still in each hand that everyone has seen
    hand_sizes: tuple[int, ...]
    melds: tuple[Meld, ...]
    chips: tuple[int, ...]
    bowls: tuple[int, ...]
    bank: int
    start_chips: tuple[int, ...]
    bets: tuple[int, ...]  # chips each seat has put in the Pinke this round
    folded: tuple[bool, ...]
    to_act: tuple[Seat, ...]  # who still has to act in the poker phase
    poker: tuple[tuple[Seat, Action], ...]
    showdown: tuple[Seat, ...]
    poker_winner: Seat | None
    runs: tuple[tuple[tuple[Seat, Card], ...], ...]
    played: CardSet
    out_of_play: CardSet  # cards known to be out of play this round
    turn: Seat | None
    phase: Phase
    history: tuple[tuple[int, ...], ...]

    @property
    def hand(self) -> CardSet | None:
        """This seat's own hand."""
        return None if self.seat is None else self.hands[self.seat]

    @property
    def scores(self) -> tuple[int, ...]:
        """The standings: chips won and lost so far, per seat."""
        return tuple(c - self.params.chips for c in self.chips)

    @property
    def to_call(self) -> int:
        """What the seat to act must add to match the highest contribution."""
        return 0 if self.turn is None else max(self.bets) - self.bets[self.turn]


# --- the round: funding, deal, melds -----------------------------------------------------------


def new_state(params: Params, setup: Setup) -> State:
    n = params.players
    dealer = setup.first_dealer(n)
    chips = (params.chips,) * n
    return _begin_round(params, setup, 0, dealer, chips, (0,) * 9, 0, (1 << n) - 1, (), ())


def _seats_from(after: Seat, alive: int, n: int) -> tuple[Seat, ...]:
    """The seats still in the game in play order, starting with the one after ``after``."""
    return tuple(s for i in range(1, n + 1) if alive >> (s := (after + i) % n) & 1)


def _begin_round(
    params: Params,
    setup: Setup,
    number: int,
    dealer: Seat,
    chips: tuple[int, ...],
    bowls: tuple[int, ...],
    bank: int,
    alive: int,
    history: tuple[tuple[int, ...], ...],
    earlier: tuple[_Pending, ...],
) -> State:
    """Fund the bowls, deal, meld, and open the poker phase of round ``number``."""
    n = params.players
    seats = _seats_from(dealer, alive, n)
    start = chips
    chips_l, bowls_l = list(chips), list(bowls)
    if params.bowl_funding == "bank":
        for b in range(NAMED_BOWLS):
            bowls_l[b] += 1
        bank += NAMED_BOWLS
        fund = Event("fund", {"by": "bank", "chips": NAMED_BOWLS, "bowls": bowls_l[:]})
    else:
        antes = [0] * n
        for s in seats:
            antes[s] = min(NAMED_BOWLS, chips_l[s])
            chips_l[s] -= antes[s]
            for b in range(antes[s]):
                bowls_l[b] += 1
        fund = Event("fund", {"by": "player_antes", "antes": antes, "bowls": bowls_l[:]})
    rnd = _deal(params, setup, number, dealer, seats, start)
    melds, revealed = meld_bowls(params, rnd, bowls_l)
    for m in melds:
        if m.seat is not None:
            chips_l[m.seat] += m.chips
            bowls_l[m.bowl] = 0
    rnd.melds = melds  # the round is new: nobody holds it yet
    last: tuple[_Pending, ...] = (*earlier, rnd, fund, *melds)
    out = sum(1 << s for s in range(n) if s not in seats or chips_l[s] == 0)
    pending = ((1 << n) - 1) & ~out
    if sitting := [s for s in seats if chips_l[s] == 0]:
        last = (*last, Event("sit_out", {"seats": sitting, "why": "no chips left to bet"}))
    state = State.__new__(State)
    state.params, state.setup, state.rnd, state.hands = params, setup, rnd, rnd.dealt
    state.chips, state.bowls, state.bank = tuple(chips_l), tuple(bowls_l), bank
    state.put, state.folded, state.pending, state.phase = (0,) * n, out, pending, _POKER
    state.turn = _next_pending(pending, dealer, n) if pending else seats[0]
    state.poker, state.revealed, state.showdown, state.winner = (), revealed, 0, -1
    state.runs, state.played, state.gone, state.alive = (), 0, 0, alive
    state.history, state.last = history, last
    # Nobody with chips to bet: the poker round is over before it starts.
    return state if pending else _end_poker(state)


_BIT = tuple(1 << c for c in range(128))  # a card's bit; the bits of distinct cards sum to a mask


def _deal(
    params: Params,
    setup: Setup,
    number: int,
    dealer: Seat,
    seats: tuple[Seat, ...],
    start: tuple[int, ...],
) -> Round:
    """Deal one card at a time from the dealer's left: 5 each, or all of them."""
    deck = setup.deck(number, _deck(params.players).cards)
    p = len(seats)
    count = 5 * p if params.deal == "five" else len(deck)
    dealt = [0] * params.players
    bit = _BIT.__getitem__
    for k, seat in enumerate(seats):  # each seat's cards: every p-th from its place in the round
        dealt[seat] = sum(map(bit, deck[k:count:p]))
    if count < len(deck):
        upcard, shown = deck[count], -1
        stock = sum(map(bit, deck[count:]))
    else:
        upcard, shown, stock = -1, deck[-1], 0
    trump = (upcard if upcard >= 0 else shown) >> 4
    return Round(number, dealer, seats, trump, upcard, shown, deck, tuple(dealt), stock, (), start)


def _shown_holder(seats: tuple[Seat, ...], players: int) -> Seat:
    """Under ``deal=all``: the seat dealt the last card, which is shown for trump."""
    return seats[(_deck(players).size - 1) % len(seats)]


def meld_bowls(
    params: Params, rnd: Round, bowls: list[int]
) -> tuple[tuple[Meld, ...], tuple[int, ...]]:
    """Who takes the Ace … Ten, Marriage and Sequence bowls, and the cards each seat shows."""
    n, trump, dealt = params.players, rnd.trump, rnd.dealt
    shown = [0] * n
    if rnd.shown >= 0:
        shown[_shown_holder(rnd.seats, n)] |= 1 << rnd.shown
    melds = []
    for bowl, rank in HONOURS:
        card = trump * 16 + rank
        seat = _holder(rnd.seats, dealt, card)
        if seat < 0:
            melds.append(Meld(bowl, None, bowls[bowl], _NO_CARDS, _OUT_OF_PLAY[card]))
        else:
            shown[seat] |= 1 << card
            melds.append(Meld(bowl, seat, bowls[bowl], _ONE_CARD[card], _HOLDS[rank]))
    king = _holder(rnd.seats, dealt, trump * 16 + 13)
    if king >= 0 and king == _holder(rnd.seats, dealt, trump * 16 + 12):
        pair = (1 << (trump * 16 + 13)) | (1 << (trump * 16 + 12))
        melds.append(
            Meld(MARRIAGE, king, bowls[MARRIAGE], CardSet(pair), "holds K and Q of trumps")
        )
    else:
        melds.append(Meld(MARRIAGE, None, bowls[MARRIAGE], _NO_CARDS, _NO_MARRIAGE[trump]))
    best: tuple[tuple[int, ...], int, Seat] | None = None
    for seat in rnd.seats:
        run = best_run(dealt[seat], trump, params)
        if run is not None and (best is None or run[0] > best[0]):
            best = (run[0], run[1], seat)
    if best is None:
        why = "nobody holds three cards in a row of one suit"
        if params.sequence_rule == "trump_789":
            why = "nobody holds the 7, 8 and 9 of trumps"
        melds.append(Meld(SEQUENCE, None, bowls[SEQUENCE], _NO_CARDS, why))
    else:
        _, cards, seat = best
        shown[seat] |= cards
        melds.append(Meld(SEQUENCE, seat, bowls[SEQUENCE], CardSet(cards), _run_words(cards)))
    return tuple(melds), tuple(shown)


def _holder(seats: Sequence[Seat], hands: Sequence[int], card: Card) -> Seat:
    """The seat among ``seats`` whose hand holds ``card``, or -1."""
    for seat in seats:
        if hands[seat] >> card & 1:
            return seat
    return -1


# The melds' words, made once: melding runs at every round of every playout.
_NO_CARDS = CardSet()
_ONE_CARD = {c: CardSet(1 << c) for c in range(64, 128)}
_OUT_OF_PLAY = {c: f"{format_card(c)} is out of play" for c in range(64, 128) if 2 <= c & 15 <= 14}
_HOLDS = {rank: f"holds the {_RANK_WORDS[rank]} of trumps" for _, rank in HONOURS}
_NO_MARRIAGE = {
    t: f"nobody holds both {format_card(t * 16 + 13)} and {format_card(t * 16 + 12)}"
    for t in range(4, 8)
}


@lru_cache(maxsize=1024)
def _run_words(cards: int) -> str:
    return f"best run {format_cards(cards_of(cards))}"


def best_run(hand: int, trump: Suit, params: Params) -> tuple[tuple[int, ...], int] | None:
    """A hand's best claim to the Sequence bowl: (its sort key, its cards), or None.

    By default a run counts by its best three cards: trump beats plain suits, then the top
    card. Equal keys go to the seat nearest the dealer's left.

    >>> p = Params()
    >>> key, cards = best_run(CardSet.parse("8c 9c Tc Jc Ah", french=True).mask, 7, p)
    >>> key, CardSet(cards)
    ((0, 11), CardSet('9c Tc Jc', french=True))
    >>> longer = Params(sequence_compare="length_then_height")
    >>> best_run(CardSet.parse("8c 9c Tc Jc Ah", french=True).mask, 7, longer)[0]
    (4, 0, 11)
    """
    if params.sequence_rule == "trump_789":
        need = sum(1 << (trump * 16 + r) for r in (7, 8, 9))
        return ((1,), need) if hand & need == need else None
    by_length = params.sequence_compare == "length_then_height"
    best: tuple[tuple[int, ...], int] | None = None
    for suit in range(4, 8):
        ranks = hand >> (16 * suit) & 0xFFFF
        is_trump = int(suit == trump)
        if not by_length:  # by the best three: the top of the suit's highest three in a row
            tops = ranks & ranks << 1 & ranks << 2
            if tops:
                high = tops.bit_length() - 1
                if best is None or (is_trump, high) > best[0]:
                    best = ((is_trump, high), 7 << (16 * suit + high - 2))
            continue
        while ranks:
            low = (ranks & -ranks).bit_length() - 1
            high = low
            while ranks >> (high + 1) & 1:
                high += 1
            ranks &= ~((2 << high) - 1)
            length = high - low + 1
            if length < 3:
                continue
            key = (length, is_trump, high)
            if best is None or key > best[0]:
                best = (key, ((1 << length) - 1) << (16 * suit + low))
    return best


def _meld_event(m: Meld) -> Event:
    return Event(
        "meld",
        {
            "bowl": BOWLS[m.bowl],
            "seat": m.seat,
            "chips": m.chips if m.seat is not None else 0,
            "stays": 0 if m.seat is not None else m.chips,
            "cards": [format_card(c) for c in m.cards],
            "why": m.why,
        },
    )


def _deal_event(rnd: Round) -> Event:
    text = [CARD_TEXT[c] for c in rnd.deck]
    p = len(rnd.seats)
    count = len(rnd.deck) if rnd.upcard < 0 else rnd.deck.index(rnd.upcard)
    hands: list[list[str]] = [[] for _ in rnd.dealt]
    for i in range(count):
        hands[rnd.seats[i % p]].append(text[i])
    return Event(
        "deal",
        {
            "deal": rnd.number,
            "dealer": rnd.dealer,
            "seats": list(rnd.seats),
            "deck": text,
            "hands": hands,
            "upcard": text[count] if rnd.upcard >= 0 else text[-1],
            "upcard_kept_by": rnd.seats[(count - 1) % p] if rnd.shown >= 0 else None,
            "trump": suit_name(rnd.trump),
            "stock": text[count + 1 :],
            "french": True,
        },
    )


# --- hand values --------------------------------------------------------------------------------


def hand_value(hand: int, trump: Suit) -> tuple[Any, ...]:
    """A sort key for the poker phase: a higher key is a better hand.

    (set size, set rank, set holds the trump card, ranks high to low, best trump rank). Sets are
    pairs, threes and fours; only the best set of a hand counts; no set counts as size 1.

    >>> v = lambda text: hand_value(CardSet.parse(text, french=True).mask, 5)  # diamonds trump
    >>> v("Kc Kd Kh Ks 7c") > v("Ac Ad Ah 8s 9s") and v("7c 7d 7h 8s 9s") > v("Kc Ks 8h 9d As")
    True
    >>> v("Kh Ks 7c 8c 9c") < v("Kd Kc 7h 8h 9h")
    True
    """
    ranks = sorted([card & 15 for card in cards_of(hand)], reverse=True)
    size, rank, run, prev = 1, 0, 0, -1
    for r in ranks:  # high to low, so equal ranks are together and the higher set comes first
        run = run + 1 if r == prev else 1
        prev = r
        if run > size:
            size, rank = run, r
    holds_trump = int(size >= 2 and bool(hand >> (16 * trump + rank) & 1))
    trumps = hand >> (16 * trump) & 0xFFFF
    return (size, rank, holds_trump, tuple(ranks), trumps.bit_length() - 1 if trumps else 0)


def hand_name(hand: int, trump: Suit) -> str:
    """The hand in words, as a showdown announces it.

    >>> hand_name(CardSet.parse("9c 9s Kd 8c Jh", french=True).mask, 5)
    'pair of nines'
    >>> hand_name(CardSet.parse("As Kh Tc 9d 8s", french=True).mask, 5)
    'high card A K T 9 8'
    """
    size, rank, _, ranks, _ = hand_value(hand, trump)
    if size == 1:
        return "high card " + " ".join(_RANK_TEXT.get(r, str(r)) for r in ranks)
    word = _RANK_WORDS[rank] + ("es" if rank == 6 else "s")
    return f"pair of {word}" if size == 2 else f"{('three', 'four')[size - 3]} {word}"


def _best(seats: Sequence[Seat], hands: Sequence[int], trump: Suit, order: Sequence[Seat]) -> Seat:
    """The best hand among ``seats``; a complete tie goes to the seat first in ``order``."""
    return max(seats, key=lambda s: (hand_value(hands[s], trump), -order.index(s)))


# --- the match ----------------------------------------------------------------------------------


def current_player(state: State) -> Seat | None:
    return None if state.phase == _OVER else state.turn


def legal_actions(state: State) -> list[Action]:
    """Poker: pass, call, every bet or raise the cap allows. Shedding: any card of the leader."""
    if state.phase == _SHED:
        return cards_of(state.hands[state.turn])
    if state.phase == _OVER:
        return []
    seat, high = state.turn, max(state.put)
    top = _cap(state, seat)
    if high == 0:  # bet n is PASS + 2n, raise n is CALL + 2n
        return [PASS, *range(PASS + 2, PASS + 2 * top + 1, 2)]
    return [PASS, CALL, *range(CALL + 2, CALL + 2 * (top - high) + 1, 2)]


def _cap(state: State, seat: Seat) -> int:
    """The highest contribution a bet or raise by ``seat`` may reach (table stakes)."""
    if state.params.bet_cap == "none":
        return state.chips[seat] + state.put[seat]
    folded, chips, put = state.folded, state.chips, state.put
    cap = -1
    for s in state.rnd.seats:
        if not folded >> s & 1 and (cap < 0 or chips[s] + put[s] < cap):
            cap = chips[s] + put[s]
    return cap


def why_illegal(state: State, action: Action) -> IllegalActionError | None:
    """Why ``action`` breaks a rule now, or None. The single source of legality."""
    if state.phase == _OVER:
        return IllegalActionError("match-over", "the match is over")
    if state.phase == _SHED and 0 <= action < PASS and state.hands[state.turn] >> action & 1:
        return None  # a lead from the hand: the common case, answered first
    # An int that is no action of Poch says so in either phase: 0 is no card of this deck, and a
    # bet or raise of more chips than can ever be in play is no bet (``format_action``).
    if action < 0 or (action < PASS and not _deck(state.params.players).mask >> action & 1):
        return IllegalActionError("no-such-action", f"{action} is not an action of Poch")
    if action > CALL:
        verb, chips = (
            ("raise", (action - CALL) // 2) if action & 1 else ("bet", (action - PASS) // 2)
        )
        most = _most_named(state.params)
        if chips > most:
            return IllegalActionError(
                "no-such-action",
                f"{action} is not an action of Poch: a {verb} names 1 to {most} chips",
            )
    if state.phase == _SHED:
        if action >= PASS:
            return IllegalActionError(
                "shedding", "the poker round is over: lead a card from your hand (play CARD)"
            )
        hand = state.hands[state.turn]
        if not hand >> action & 1:
            return IllegalActionError(
                "not-in-hand",
                f"{format_card(action)} is not in your hand ({format_cards(cards_of(hand))})",
            )
        return None
    if action < PASS:
        return IllegalActionError(
            "poker-round", "the poker round comes first: bet, call, raise or pass"
        )
    seat, high = state.turn, max(state.put)
    if action == PASS:
        return None
    if action == CALL or action & 1:
        if high == 0:
            verb = "call" if action == CALL else "raise"
            return IllegalActionError(
                "no-bet-yet", f"nobody has bet yet, so there is nothing to {verb}: bet or pass"
            )
        if action == CALL:
            return None
        return _over_cap(state, seat, high + (action - CALL) // 2, f"raise {(action - CALL) // 2}")
    if high > 0:
        return IllegalActionError(
            "already-bet", f"there is a bet of {high} already: call, raise or pass"
        )
    return _over_cap(state, seat, (action - PASS) // 2, f"bet {(action - PASS) // 2}")


def _over_cap(state: State, seat: Seat, total: int, what: str) -> IllegalActionError | None:
    own = state.chips[seat] + state.put[seat]
    if total > own:
        return IllegalActionError(
            "not-enough-chips",
            f"{what} would need {total - state.put[seat]} chips and you have {state.chips[seat]}",
        )
    cap = _cap(state, seat)
    if total > cap:
        return IllegalActionError(
            "table-stakes",
            f"{what} would take the bet to {total}, above {cap}, the smallest stack of the"
            " players still in (table stakes)",
        )
    return None


def apply(state: State, action: Action) -> State:
    """The state after the current player takes ``action``; raises IllegalActionError."""
    error = why_illegal(state, action)
    if error is not None:
        raise error
    if state.phase == _SHED:
        return _lead(state, action)
    return _bet(state, action)


def _bet(state: State, action: Action) -> State:
    seat, n = state.turn, state.params.players
    bit = 1 << seat
    high = max(state.put)
    pay, folded, pending = 0, state.folded, state.pending & ~bit
    if action == PASS:
        folded |= bit
    elif action == CALL:
        pay = min(high - state.put[seat], state.chips[seat])
    else:
        total = (action - PASS) // 2 if not action & 1 else high + (action - CALL) // 2
        pay = total - state.put[seat]
    chips, put, bowls = state.chips, state.put, state.bowls
    if pay:
        chips = (*chips[:seat], chips[seat] - pay, *chips[seat + 1 :])
        put = (*put[:seat], put[seat] + pay, *put[seat + 1 :])
        bowls = (*bowls[:PINKE], bowls[PINKE] + pay)
    if action > CALL:  # a bet or raise: everyone else still in with chips must answer it
        pending = sum(1 << s for s in state.rnd.seats if not folded >> s & 1 and chips[s]) & ~bit
    live = ((1 << n) - 1) & ~folded
    over = not pending or (max(put) and live.bit_count() == 1)
    new = state._copy()  # then set: see GameState
    new.chips, new.put, new.bowls, new.folded, new.pending = chips, put, bowls, folded, pending
    new.poker = (*state.poker, (seat, action))
    new.turn = seat if over else _next_pending(pending, seat, n)
    new.last = ()
    return _end_poker(new) if over else new


def _next_pending(pending: int, seat: Seat, n: int) -> Seat:
    """The first seat after ``seat`` that still has to act."""
    for i in range(1, n + 1):
        s = (seat + i) % n
        if pending >> s & 1:
            return s
    raise AssertionError("nobody is pending")


def _end_poker(state: State) -> State:
    """Settle the Pinke and the Poch bowl, then open the shedding phase."""
    p, rnd, n = state.params, state.rnd, state.params.players
    live = [s for s in rnd.seats if not state.folded >> s & 1]
    chips, bowls = list(state.chips), list(state.bowls)
    won = [0] * n
    shown, winner = 0, -1
    data: dict[str, Any] = {}
    if max(state.put) == 0:
        if p.all_pass == "showdown":
            shown = sum(1 << s for s in rnd.seats)
            winner = _best(rnd.seats, state.hands, rnd.trump, rnd.seats)
            data = {"result": "all_pass_showdown"}
        else:
            data = {"result": "carry", "why": "nobody bet: the Poch bowl carries"}
    elif len(live) == 1:
        winner = live[0]
        data = {"result": "alone", "why": "everyone else passed: no hand is shown"}
    else:
        shown = sum(1 << s for s in live)
        winner = _best(live, state.hands, rnd.trump, rnd.seats)
        data = {"result": "showdown"}
    if winner >= 0:
        for seat, layer in _pinke_layers(state.put, live, state.hands, rnd):
            won[seat] += layer
        won[winner] += bowls[POCH]
        # ``pinke`` is the whole Pinke: with side pots (bet_cap=none) a layer the winner did not
        # cover goes to the best hand that paid into it, which ``won`` shows.
        data |= {"winner": winner, "pinke": bowls[PINKE], "poch": bowls[POCH]}
        bowls[POCH] = bowls[PINKE] = 0
        for s in range(n):
            chips[s] += won[s]
    showdown = tuple((s, state.hands[s]) for s in rnd.seats if shown >> s & 1)
    result = _Poker(data, showdown, rnd.trump, tuple(won), tuple(state.put))
    revealed = tuple(
        r | (state.hands[s] if shown >> s & 1 else 0) for s, r in enumerate(state.revealed)
    )
    leader = rnd.seats[0]
    if p.shed_leader == "poker_winner" and winner >= 0:
        leader = winner
    new = state._copy()  # then set: see GameState
    new.chips, new.bowls, new.pending = tuple(chips), tuple(bowls), 0
    new.phase, new.turn, new.winner = _SHED, leader, winner
    new.revealed, new.showdown = revealed, shown
    new.last = (*state.last, result)
    return new


def _pinke_layers(
    put: Sequence[int], live: Sequence[Seat], hands: Sequence[int], rnd: Round
) -> list[tuple[Seat, int]]:
    """Who wins what of the Pinke: each layer of contributions goes to the best hand that paid
    into it, so an all-in call (``bet_cap=none``) wins only what it covered. Under table stakes
    there is one layer."""
    levels = sorted({put[s] for s in live})
    out, prev = [], 0
    for i, level in enumerate(levels):
        top = max(put) if i == len(levels) - 1 else level
        layer = sum(min(x, top) - min(x, prev) for x in put)
        eligible = [s for s in live if put[s] >= level]
        out.append((_best(eligible, hands, rnd.trump, rnd.seats), layer))
        prev = top
    return out


def _lead(state: State, card: Card) -> State:
    """Lead ``card``; the holders of the next cards of its suit follow by rule."""
    hands = list(state.hands)
    seats, cards = [], []
    played, seat = state.played, state.turn
    stop, gone = "", state.gone
    while True:
        hands[seat] ^= 1 << card
        played |= 1 << card
        seats.append(seat)
        cards.append(card)
        if not hands[seat]:
            stop = "hand_empty"
            break
        if card & 15 == 14:
            stop = "ace"
            break
        nxt = card + 1
        if played >> nxt & 1:
            stop = "played"
            break
        holder = _holder(state.rnd.seats, hands, nxt)
        if holder < 0:
            stop, gone = "out_of_play", gone | 1 << nxt
            break
        seat, card = holder, nxt
    new = state._copy()  # then set: see GameState
    new.hands, new.played, new.gone, new.turn = tuple(hands), played, gone, seat
    new.runs = (*state.runs, tuple(zip(seats, cards, strict=True)))
    new.last = ((tuple(seats), tuple(cards), stop),)
    if stop == "hand_empty":
        return _end_round(new, seat)
    return new


def _end_round(state: State, winner: Seat) -> State:
    """Pay the shedding winner, put out the broke, and deal the next round."""
    p, rnd, n = state.params, state.rnd, state.params.players
    chips = list(state.chips)
    paid = [0] * n
    for s in rnd.seats:
        if s != winner:
            paid[s] = min(state.hands[s].bit_count(), chips[s])
            chips[s] -= paid[s]
            chips[winner] += paid[s]
    delta = tuple(chips[s] - rnd.start[s] for s in range(n))
    out = [s for s in rnd.seats if chips[s] == 0]
    alive = state.alive & ~sum(1 << s for s in out)
    score = Event(
        "score",
        {
            "score": list(delta),
            "winner": winner,
            "paid": paid,
            "cards_left": [state.hands[s].bit_count() for s in range(n)],
            "chips": chips,
            "bowls": list(state.bowls),
            "out": out,
        },
    )
    history = (*state.history, delta)
    ended = state._copy()  # then set: see GameState
    ended.chips, ended.history, ended.last = tuple(chips), history, (*state.last, score)
    played = rnd.number + 1
    if alive.bit_count() <= 1 or played == round_limit(p):
        ended = ended._with(phase=_OVER, turn=-1, alive=alive or state.alive)
        result = outcome(ended)
        assert result is not None
        end = Event(
            "end",
            {
                "scores": list(result.scores),
                "winners": list(result.winners),
                "reason": result.reason,
            },
        )
        return ended._with(last=(*ended.last, end))
    dealer = _seats_from(rnd.dealer, alive, n)[0]
    return _begin_round(
        p,
        state.setup,
        played,
        dealer,
        tuple(chips),
        state.bowls,
        state.bank,
        alive,
        history,
        ended.last,
    )


def round_limit(params: Params) -> int:
    """How many rounds the match lasts at most (0: until one player is left).

    The bank adds 8 chips every round, so the money grows without limit and careful players may
    never go broke: ``max_rounds`` (10 rounds per player by default) makes every match end.

    >>> round_limit(Params()), round_limit(Params(players=5, rounds=3))
    (40, 3)
    >>> round_limit(Params(max_rounds=12)), round_limit(Params(max_rounds=None))
    (12, 0)
    """
    return min((n for n in (_max_rounds(params), _rounds(params)) if n), default=0)


def _rounds(params: Params) -> int:
    """The rounds the ``rounds`` option asks for, or 0 (until one player is left)."""
    if params.rounds == "one_per_player":
        return params.players
    return params.rounds if isinstance(params.rounds, int) else 0


def _max_rounds(params: Params) -> int:
    """The round cap ``max_rounds`` sets, or 0 for none."""
    if params.max_rounds == "ten_per_player":
        return 10 * params.players
    return params.max_rounds if isinstance(params.max_rounds, int) else 0


def outcome(state: State) -> Outcome | None:
    """Chips won and lost over the match per seat; the winners are the players still in with the
    most chips (the last one left, unless the rounds ran out first)."""
    if state.phase != _OVER:
        return None
    params = state.params
    n, start = params.players, params.chips
    contenders = [s for s in range(n) if state.alive >> s & 1]
    best = max(state.chips[s] for s in contenders)
    winners = tuple(s for s in contenders if state.chips[s] == best)
    if len(contenders) == 1:
        reason = "last player with chips"
    elif best == 0:
        reason = "nobody has chips left"
    elif _rounds(params) == round_limit(params):
        reason = "rounds complete"
    else:  # the max_rounds cap came first
        reason = "round limit reached"
    return Outcome(tuple(c - start for c in state.chips), winners, reason)


def events(state: State) -> tuple[Event, ...]:
    """The deal, funding, melds, poker result, runs, score and end the last step brought about."""
    return tuple(_event(x) for x in state.last)


def visible_events(state: State, seat: Seat | None) -> tuple[Event, ...]:
    """The last step's events as ``seat`` may know them: a deal shows only its own hand, and
    neither the deck order nor the stock. Melded cards, the hands shown at the showdown and the
    runs are played in the open; a folded hand is never in an event."""
    return tuple(
        deal_as_seen(e, lambda owner: owner == seat) if e.type == "deal" else e
        for e in events(state)
    )


def visible_action(state: State, action: Action, seat: Seat | None) -> str:
    """Every bet and play is made in the open: its text is the same for every seat."""
    return format_action(state.params, action)


def _event(pending: _Pending) -> Event:
    # Deals, melds and runs are kept raw in the state and rendered here, off the playout path.
    if isinstance(pending, Event):
        return unshared(pending)
    if isinstance(pending, Round):
        return _deal_event(pending)
    if isinstance(pending, Meld):
        return _meld_event(pending)
    if isinstance(pending, _Poker):
        return pending.event()
    seats, cards, stop = pending
    return Event(
        "run",
        {
            "seats": list(seats),
            "cards": [CARD_TEXT[c] for c in cards],
            "stop": stop,
            "next": CARD_TEXT[cards[-1] + 1] if stop in ("played", "out_of_play") else None,
        },
    )


# --- notation -----------------------------------------------------------------------------------


def most_chips(params: Params) -> int | None:
    """The most chips a bet or a raise can name: every chip there can be in play, the players'
    starting chips and what the bank adds each round up to the round cap; None when the bank
    funds the bowls with no round cap (the money grows without limit, and so do the bets).

    Bets and raises of 1 up to this many chips (``NO_CAP_MOST`` where None) are Poch's betting
    actions: a larger one is no action of the game (``format_action`` and ``parse_action``
    refuse it). Whether one is legal now is for ``why_illegal``: the bettor's stack and the
    table stakes bound it.

    >>> most_chips(Params()), most_chips(Params(players=3, bowl_funding="player_antes"))
    (360, 30)
    >>> most_chips(Params(max_rounds=None)) is None
    True
    """
    total = params.players * params.chips
    if params.bowl_funding != "bank":
        return total
    limit = round_limit(params)
    return total + NAMED_BOWLS * limit if limit else None


def format_action(params: Params, action: Action) -> str:
    """The text notation (docs/notation.md); InvalidActionError for a bet or raise of more
    chips than can be in play (``most_chips``), which is no action of the game.

    >>> [format_action(Params(), a) for a in (PASS, CALL, bet_action(3), raise_action(2), 110)]
    ['pass', 'call', 'bet 3', 'raise 2', 'play Ah']
    >>> format_action(Params(), 9999)
    Traceback (most recent call last):
    tapete.errors.InvalidActionError: 9999 is not an action of Poch: a raise names 1 to 360 chips
    """
    if action < PASS:
        return f"play {format_card(action)}"
    if action == PASS:
        return "pass"
    if action == CALL:
        return "call"
    verb, chips = ("raise", (action - CALL) // 2) if action & 1 else ("bet", (action - PASS) // 2)
    most = _most_named(params)
    if chips > most:
        raise InvalidActionError(
            f"{action} is not an action of Poch: a {verb} names 1 to {most} chips"
        )
    return f"{verb} {chips}"


def parse_action(params: Params, text: str) -> Action:
    """``pass``, ``call``, ``bet N``, ``raise N``, ``play CARD`` (a bare card is a play); a bet
    or raise of 1 up to ``most_chips``.

    >>> parse_action(Params(), "bet 2") == bet_action(2), parse_action(Params(), "Ah")
    (True, 110)
    >>> parse_action(Params(), "raise 4935")
    Traceback (most recent call last):
    tapete.errors.InvalidActionError: 'raise 4935': a raise names 1 to 360 chips
    """
    words = text.strip().lower().split()
    if words in (["pass"], ["call"]):
        return PASS if words[0] == "pass" else CALL
    if len(words) == 2 and words[0] in ("bet", "raise"):
        verb, number = words
        most = _most_named(params)
        chips = count_in(number, most) or 0
        if not 1 <= chips <= most:
            raise InvalidActionError(f"{text!r}: a {verb} names 1 to {most} chips")
        return bet_action(chips) if verb == "bet" else raise_action(chips)
    if len(words) == 2 and words[0] == "play":
        return _deck(params.players).parse(words[1])
    usage = f"{text!r} is not an action: write 'bet N', 'call', 'raise N', 'pass' or 'play CARD'"
    if len(words) == 1 and not words[0].isdecimal():
        return _deck(params.players).parse(words[0], usage)
    raise InvalidActionError(usage)


NO_CAP_MOST = 10**18 - 1
"""The most chips the notation names where ``most_chips`` sets no bound: far more than a match
in human time holds (the bank adds 8 chips a round), and a bound all the same, so that
``format_action`` writes only what ``parse_action`` reads back."""


def _most_named(params: Params) -> int:
    most = most_chips(params)
    return NO_CAP_MOST if most is None else most


# --- views --------------------------------------------------------------------------------------


def observe(state: State, seat: Seat | None) -> View:
    """What ``seat`` sees: its own hand, every chip, bet and shown card; no hidden card.

    Cards shown at melding and hands shown at the showdown are public; a folded hand is not.
    """
    p, rnd, n = state.params, state.rnd, state.params.players
    hands: list[CardSet | None] = [None] * n
    for s in rnd.seats:
        if s == seat or state.showdown >> s & 1:
            hands[s] = CardSet(state.hands[s])
    over = state.phase == _OVER
    return View(
        seat=seat,
        params=p,
        deal=rnd.number,
        dealer=rnd.dealer,
        seats=rnd.seats,
        in_game=tuple(bool(state.alive >> s & 1) for s in range(n)),
        trump=rnd.trump,
        upcard=rnd.upcard,
        shown=rnd.shown,
        hands=tuple(hands),
        known=tuple(CardSet(r & h) for r, h in zip(state.revealed, state.hands, strict=True)),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        melds=rnd.melds,
        chips=state.chips,
        bowls=state.bowls,
        bank=state.bank,
        start_chips=rnd.start,
        bets=state.put,
        folded=tuple(bool(state.folded >> s & 1) for s in range(n)),
        to_act=tuple(s for s in range(n) if state.pending >> s & 1),
        poker=state.poker,
        showdown=tuple(s for s in rnd.seats if state.showdown >> s & 1),
        poker_winner=None if state.winner < 0 else state.winner,
        runs=state.runs,
        played=CardSet(state.played),
        out_of_play=CardSet(_known_out(rnd) | state.gone),
        turn=None if over else state.turn,
        phase=state.phase,
        history=state.history,
    )


def _known_out(rnd: Round) -> int:
    """Cards everyone knows are out of play: the turned card and the trump honours no one took."""
    out = 1 << rnd.upcard if rnd.upcard >= 0 else 0
    for m in rnd.melds[:5]:
        if m.seat is None:
            out |= 1 << (rnd.trump * 16 + HONOURS[m.bowl][1])
    return out


def sample_state(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``: the unseen cards dealt at random around the facts.

    Honoured: this seat's hand, the hands shown down, the cards shown at melding, every card
    shed, the cards known out of play (the turned card, trump honours nobody took, cards a run
    stopped at) and the Sequence bowl (no hidden hand may hold a run that would have beaten the
    winner's, or any run if nobody won it). Later rounds come from a fresh seed.
    """
    # The sampler builds on this module, so it is imported when first needed.
    from tapete.games._poch_sampler import sample_state as sample

    return sample(view, rng)


def stack_deck(
    params: Params, dealer: Seat, hands: Sequence[str], upcard: str | None = None
) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (text, one per seat) with ``upcard`` turned next.

    For tests, puzzles and teaching: ``game.new_state(decks=[stack_deck(...)], dealer=...)``.
    Every seat plays; the rest of the deck follows in its canonical order. Under ``deal=all``
    each hand is written in the order its cards are dealt (the last one dealt is shown).

    >>> p = Params(players=3)
    >>> order = stack_deck(p, 2, ["7c 8s Th Qh As", "8c 9c 9s Jh Kd", "Tc 7h 8h Ks Ad"], "9d")
    >>> format_cards(order[:4]), format_card(order[15])
    ('7c 8c Tc 8s', '9d')
    """
    n = params.players
    return chance.stack_deck(_deck(n), n, dealer, hands, upcard or "")
