"""Pottle: bid the exact number of tricks, and the highest bidder plays for the pot.

The rules as implemented (``docs/rules/pottle.md`` is the long form):

* **Cards and players**: 52 cards, 2 low to A high; 3–7 players (4 by default).
* **Chips**: everyone starts with ``bankroll`` chips (20), bought at the start. Before each
  deal every player antes 1 chip into the pot; a player with no chip left first buys ``bankroll``
  more (a ``buy`` event). The standing of a seat is its net result: chips held minus chips bought.
* **Deal**: the first dealer is drawn by lot. Seven cards each, one at a time from the
  dealer's left (seat ``dealer + 1``; seats act in seat order, so "clockwise" is a display matter);
  the rest of the deck is not used. The deal passes to the left (``deal_passes=pot_winner``: to the
  player who won the pot, or to the left when nobody won it).
* **Bidding**: one round from the dealer's left, each player bids 0–7 tricks; bids need
  not rise. At most two players may bid the same number (the two sets of number cards,
  ``max_same_bid``: any count, or ``unlimited``). The highest bid wins the auction, a tie going to
  the first who bid it; the auction winner (the *declarer*) names trump or no trump, then leads.
* **Play**: follow suit if you can, else play anything (trumping is never required). The
  highest trump wins the trick, else the highest card of the suit led; the winner leads next.
* **Settlement**: a declarer who took exactly his bid takes the whole pot; otherwise the pot
  carries over to the next deal (``pot_rule=pagat``: the pot goes to the highest bidder among
  those who took exactly their bid; a tie there, or nobody exact, carries it over).
* **End**: after ``deals`` deals (2 × players), if the pot is not empty, extra deals follow,
  antes included, until it is won, ``extra_deals`` at most (one per player). A pot left after them
  is split equally; the remainder is discarded. The highest net result wins (ties share).

Actions are ints: a card ``c`` is ``play c``; ``TRUMP + i`` is ``trump c/d/h/s`` (i = 0..3),
``NO_TRUMP`` is ``trump none``; ``BID + n`` is ``bid n``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from tapete import chance, tricks
from tapete.cards import (
    CARD_TEXT,
    FRENCH_52,
    FRENCH_SUITS,
    Card,
    CardSet,
    Deck,
    cards_of,
    format_card,
    format_cards,
    parse_cards,
    suit_mask,
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
    unshared,
)

__all__ = [
    "ANTE",
    "BID",
    "DEAL_PASSES",
    "DECK",
    "HAND",
    "MAX_BANKROLL",
    "MAX_DEALS",
    "NAME",
    "NO_TRUMP",
    "ORDER",
    "POT_RULES",
    "TRUMP",
    "Deal",
    "Params",
    "Phase",
    "State",
    "View",
    "apply",
    "current_player",
    "deck",
    "events",
    "format_action",
    "legal_actions",
    "legal_cards",
    "new_state",
    "observe",
    "outcome",
    "parse_action",
    "players",
    "pot_winner",
    "sample_state",
    "sampler",
    "stack_deck",
    "teams",
    "visible_action",
    "visible_events",
    "why_illegal",
]

NAME = "pottle"
HAND = 7
TRUMP = 128
NO_TRUMP = TRUMP + 4
BID = NO_TRUMP + 1
ANTE = 1
DECK = FRENCH_52
ORDER = tricks.Order.of(DECK, tuple(range(14, 1, -1)))
POT_RULES = ("auction_winner", "pagat")
MAX_DEALS = 100  # the most deals ``deals`` or ``extra_deals`` may name
MAX_BANKROLL = 1000  # the most chips a player may start with (and buys): counts stay exact in
# every client, a browser's numbers included
DEAL_PASSES = ("clockwise", "pot_winner")

_UNNAMED = -2  # trump before the declarer names it; -1 is no trump, 4..7 a suit


class Phase(WordEnum):
    """What the seat to act is doing (``State.phase``, ``View.phase``)."""

    BID = 0
    TRUMP = 1  # the declarer names trump
    PLAY = 2
    OVER = 3  # the match is over


_BID, _TRUMP, _PLAY, _OVER = Phase  # for the hot path: a global is read faster


# Compiled, a native class would refuse a wrong type before check_params names it.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, kw_only=True)
class Params:
    """Pottle's parameters, the defaults first in each accepted list."""

    players: int = 4
    max_same_bid: int | str = 2
    pot_rule: str = "auction_winner"
    deal_passes: str = "clockwise"
    deals: int | None = None  # None: twice round the table, 2 × players
    extra_deals: int | None = None  # None: once round the table, players
    bankroll: int = 20

    def __post_init__(self) -> None:
        check_params(self)
        check(self.players in range(3, 8), "players", self.players, "3 to 7")
        check(
            self.max_same_bid == "unlimited" or _at_least(1, self.max_same_bid),
            "max_same_bid",
            self.max_same_bid,
            "2, unlimited, or any count from 1",
        )
        check(self.pot_rule in POT_RULES, "pot_rule", self.pot_rule, "auction_winner or pagat")
        check(
            self.deal_passes in DEAL_PASSES,
            "deal_passes",
            self.deal_passes,
            "clockwise or pot_winner",
        )
        check(
            self.deals is None or (_at_least(1, self.deals) and self.deals <= MAX_DEALS),
            "deals",
            self.deals,
            "none (2 × players) or a number of deals from 1 to {most}",
            most=MAX_DEALS,
        )
        check(
            self.extra_deals is None
            or (_at_least(0, self.extra_deals) and self.extra_deals <= MAX_DEALS),
            "extra_deals",
            self.extra_deals,
            "none (as many as players) or a number from 0 to {most}",
            most=MAX_DEALS,
        )
        check(
            _at_least(1, self.bankroll) and self.bankroll <= MAX_BANKROLL,
            "bankroll",
            self.bankroll,
            "a number of chips from 1 to {most}",
            most=MAX_BANKROLL,
        )


def _at_least(low: int, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def deck(params: Params) -> Deck:
    """The 52 cards; 52 − 7N of them stay undealt in each deal."""
    return DECK


def players(params: Params) -> int:
    return params.players


def teams(params: Params) -> None:
    return None


@lru_cache(maxsize=64)
def _limits(params: Params) -> tuple[int, int, int]:
    """The deals of the match, the most extra deals, and how many players may share a bid."""
    n = params.players
    deals = params.deals if params.deals is not None else 2 * n
    extra = params.extra_deals if params.extra_deals is not None else n
    same = n if params.max_same_bid == "unlimited" else int(params.max_same_bid)
    return deals, extra, same


@dataclass(frozen=True, eq=False)
class Deal:
    """What a deal fixes: its number, its dealer and the cards as dealt."""

    number: int
    dealer: Seat
    deck: tuple[Card, ...]
    dealt: tuple[int, ...]  # each seat's hand as dealt (bitmask)


class State(GameState):
    """A Pottle match between two decisions. Treat as immutable: ``apply`` returns a new one."""

    __slots__ = (
        "bids",
        "bought",
        "deal",
        "declarer",
        "discarded",
        "hands",
        "history",
        "last",
        "leader",
        "params",
        "phase",
        "pot",
        "reason",
        "setup",
        "stacks",
        "trick",
        "tricks",
        "trump",
        "turn",
        "won",
    )

    params: Params
    setup: Setup
    deal: Deal
    hands: tuple[int, ...]
    bids: tuple[int, ...]  # -1: not bid yet
    declarer: Seat  # the auction winner, -1 while bidding
    trump: int  # a suit, -1 for no trump, -2 not named yet
    won: tuple[int, ...]
    trick: tuple[Card, ...]
    leader: Seat
    tricks: tuple[tuple[Seat, tuple[Card, ...]], ...]
    turn: Seat
    phase: Phase
    stacks: tuple[int, ...]  # chips in front of each player
    bought: tuple[int, ...]  # chips each player bought, the starting bankroll included
    pot: int
    discarded: int  # the remainder of a pot split at the end
    history: tuple[tuple[int, ...], ...]  # what each deal changed, per seat
    reason: str  # why the match ended, "" while it goes on
    last: tuple[Event | _Trick, ...]  # what the last step did (tricks are kept raw)

    def __init__(
        self,
        *,
        params: Params,
        setup: Setup,
        deal: Deal,
        hands: tuple[int, ...],
        bids: tuple[int, ...],
        declarer: Seat,
        trump: int,
        won: tuple[int, ...],
        trick: tuple[Card, ...],
        leader: Seat,
        tricks: tuple[tuple[Seat, tuple[Card, ...]], ...],
        turn: Seat,
        phase: Phase,
        stacks: tuple[int, ...],
        bought: tuple[int, ...],
        pot: int,
        discarded: int,
        history: tuple[tuple[int, ...], ...],
        reason: str,
        last: tuple[Event | _Trick, ...],
    ) -> None:
        self.params = params
        self.setup = setup
        self.deal = deal
        self.hands = hands
        self.bids = bids
        self.declarer = declarer
        self.trump = trump
        self.won = won
        self.trick = trick
        self.leader = leader
        self.tricks = tricks
        self.turn = turn
        self.phase = phase
        self.stacks = stacks
        self.bought = bought
        self.pot = pot
        self.discarded = discarded
        self.history = history
        self.reason = reason
        self.last = last

    def _copy(self) -> State:
        """A new state like this one (see ``GameState``)."""
        return State(
            params=self.params,
            setup=self.setup,
            deal=self.deal,
            hands=self.hands,
            bids=self.bids,
            declarer=self.declarer,
            trump=self.trump,
            won=self.won,
            trick=self.trick,
            leader=self.leader,
            tricks=self.tricks,
            turn=self.turn,
            phase=self.phase,
            stacks=self.stacks,
            bought=self.bought,
            pot=self.pot,
            discarded=self.discarded,
            history=self.history,
            reason=self.reason,
            last=self.last,
        )

    def __repr__(self) -> str:
        hands = " | ".join(format_cards(cards_of(h)) for h in self.hands)
        return (
            f"<pottle deal {self.deal.number} dealer {self.deal.dealer} {Phase(self.phase)} "
            f"turn {self.turn} bids {list(self.bids)} declarer {self.declarer} trump "
            f"{_trump_text(self.trump)} won {list(self.won)} trick [{format_cards(self.trick)}] "
            f"hands [{hands}] pot {self.pot} stacks {list(self.stacks)} "
            f"bought {list(self.bought)}>"
        )


_Trick = tuple[Seat, tuple[Card, ...], Seat]  # leader, cards, winner


def _trump_text(trump: int) -> str:
    return "not named" if trump == _UNNAMED else "none" if trump < 0 else suit_name(trump)


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat=None``) knows. Every chip count is public."""

    seat: Seat | None
    params: Params
    deal: int
    dealer: Seat
    hands: tuple[CardSet | None, ...]  # this seat's own hand only
    hand_sizes: tuple[int, ...]
    bids: tuple[int | None, ...]
    declarer: Seat | None
    trump: int | None  # None until named, -1 for no trump, else the suit
    won: tuple[int, ...]
    trick: tuple[Card, ...]
    leader: Seat
    tricks: tuple[tuple[Seat, tuple[Card, ...]], ...]
    turn: Seat | None
    phase: Phase
    pot: int
    stacks: tuple[int, ...]
    bought: tuple[int, ...]
    discarded: int
    scores: tuple[int, ...]  # net results: chips held minus chips bought
    history: tuple[tuple[int, ...], ...]
    reason: str | None
    excluded: tuple[CardSet, ...] = field(repr=False)  # suits each seat showed it is void in

    @property
    def hand(self) -> CardSet | None:
        """This seat's own hand."""
        return None if self.seat is None else self.hands[self.seat]


# --- the match -----------------------------------------------------------------------------


def new_state(params: Params, setup: Setup) -> State:
    n = params.players
    dealer = setup.first_dealer(n)
    chips = (params.bankroll,) * n
    return _start_deal(params, setup, 0, dealer, chips, chips, 0, (), ())


def _start_deal(
    params: Params,
    setup: Setup,
    number: int,
    dealer: Seat,
    stacks: tuple[int, ...],
    bought: tuple[int, ...],
    pot: int,
    history: tuple[tuple[int, ...], ...],
    earlier: tuple[Event | _Trick, ...],
) -> State:
    """Buy chips where needed, ante, and deal seven cards each from the dealer's left."""
    n = params.players
    deck = setup.deck(number, DECK.cards)
    dealt = [0] * n
    for i in range(n * HAND):
        dealt[(dealer + 1 + i) % n] |= 1 << deck[i]
    deal = Deal(number, dealer, deck, tuple(dealt))
    stack_list, bought_list = list(stacks), list(bought)
    buys = []
    for seat in range(n):
        if stack_list[seat] < ANTE:
            stack_list[seat] += params.bankroll
            bought_list[seat] += params.bankroll
            buys.append(
                Event("buy", {"seat": seat, "chips": params.bankroll, "bought": bought_list[seat]})
            )
        stack_list[seat] -= ANTE
    carried, pot = pot, pot + n * ANTE
    dealt_event = Event(
        "deal",
        {
            "deal": number,
            "dealer": dealer,
            "deck": [CARD_TEXT[c] for c in deck],
            "hands": [[CARD_TEXT[c] for c in cards_of(h)] for h in dealt],
            "upcard": None,
            "stock": [],
            "undealt": [CARD_TEXT[c] for c in deck[n * HAND :]],
            "carried": carried,
            "antes": n * ANTE,
            "pot": pot,
            "french": True,
        },
    )
    first = (dealer + 1) % n
    return State(
        params=params,
        setup=setup,
        deal=deal,
        hands=deal.dealt,
        bids=(-1,) * n,
        declarer=-1,
        trump=_UNNAMED,
        won=(0,) * n,
        trick=(),
        leader=first,
        tricks=(),
        turn=first,
        phase=_BID,
        stacks=tuple(stack_list),
        bought=tuple(bought_list),
        pot=pot,
        discarded=0,
        history=history,
        reason="",
        last=(*earlier, dealt_event, *buys),
    )


def current_player(state: State) -> Seat | None:
    return None if state.phase == _OVER else state.turn


def legal_actions(state: State) -> list[Action]:
    """The bids still available, then the trump choices, then the cards that follow suit."""
    phase = state.phase
    if phase == _PLAY:
        return cards_of(legal_cards(state))
    if phase == _BID:
        same = _limits(state.params)[2]
        bids = state.bids
        return [BID + b for b in range(HAND + 1) if bids.count(b) < same]
    if phase == _TRUMP:
        return [TRUMP, TRUMP + 1, TRUMP + 2, TRUMP + 3, NO_TRUMP]
    return []


def legal_cards(state: State) -> int:
    """The cards the player to act may play, as a mask: the suit led if he has it, else any."""
    hand, trick = state.hands[state.turn], state.trick
    return hand & suit_mask(trick[0] >> 4) or hand if trick else hand


def why_illegal(state: State, action: Action) -> IllegalActionError | None:
    """Why ``action`` breaks a rule now, or None. The single source of legality."""
    if state.phase == _OVER:
        return IllegalActionError("match-over", "the match is over")
    if action < 0 or (action < TRUMP and not DECK.mask >> action & 1):
        return IllegalActionError("no-such-action", f"{action} is not an action of pottle")
    if action >= BID:
        return _why_bid_illegal(state, action - BID)
    if action >= TRUMP:
        return _why_trump_illegal(state)
    if state.phase == _BID:
        return IllegalActionError(
            "bidding", f"first bid: say how many of the {HAND} tricks you will take"
        )
    if state.phase == _TRUMP:
        return _naming_trump(state)
    return tricks.why_card_illegal(
        state.hands[state.turn], action, state.trick, state.trump, ORDER, tricks.FOLLOW
    )


def _why_bid_illegal(state: State, bid: int) -> IllegalActionError | None:
    if state.phase == _TRUMP:
        return _naming_trump(state)
    if state.phase != _BID:
        return IllegalActionError("not-bidding", "the bids are in: play a card")
    if bid > HAND:
        return IllegalActionError("bid-range", f"a bid is 0 to {HAND} tricks, not {bid}")
    same = _limits(state.params)[2]
    takers = [s for s, b in enumerate(state.bids) if b == bid]
    if len(takers) >= same:
        who = ", ".join(f"seat {s}" for s in takers)
        return IllegalActionError(
            "bid-taken",
            f"at most {same} players may bid {bid} ({who} did): every card for {bid} is taken",
        )
    return None


def _why_trump_illegal(state: State) -> IllegalActionError | None:
    if state.phase == _BID:
        return IllegalActionError(
            "bidding", "trump is named by the auction winner once everyone has bid: bid first"
        )
    if state.phase == _PLAY:
        return IllegalActionError(
            "trump-named", f"trump is already named: {_trump_text(state.trump)}"
        )
    return None


def _naming_trump(state: State) -> IllegalActionError:
    bid = state.bids[state.declarer]
    return IllegalActionError(
        "naming-trump",
        f"you won the auction with {bid}: name trump first (trump c, d, h, s or none)",
    )


def apply(state: State, action: Action) -> State:
    """The state after the current player takes ``action``; raises IllegalActionError."""
    if state.phase == _PLAY and 0 <= action < TRUMP and legal_cards(state) >> action & 1:
        return _play(state, action)
    error = why_illegal(state, action)
    if error is not None:
        raise error
    if action >= BID:
        return _bid(state, action - BID)
    return _name_trump(state, action - TRUMP + 4 if action < NO_TRUMP else -1)


def _bid(state: State, bid: int) -> State:
    """Record a bid; after the dealer's, the highest bid (the first to make it) wins."""
    seat, n = state.turn, state.params.players
    bids = (*state.bids[:seat], bid, *state.bids[seat + 1 :])
    if seat != state.deal.dealer:
        return state._with(bids=bids, turn=(seat + 1) % n, last=())
    order = [(state.deal.dealer + 1 + i) % n for i in range(n)]
    best = max(bids)
    declarer = next(s for s in order if bids[s] == best)
    event = Event("auction", {"bids": list(bids), "declarer": declarer, "bid": best})
    return state._with(bids=bids, declarer=declarer, turn=declarer, phase=_TRUMP, last=(event,))


def _name_trump(state: State, trump: int) -> State:
    """The declarer names trump (a suit or -1) and leads the first trick."""
    event = Event(
        "trump", {"seat": state.declarer, "trump": suit_name(trump) if trump >= 0 else None}
    )
    return state._with(
        trump=trump, leader=state.declarer, turn=state.declarer, phase=_PLAY, last=(event,)
    )


def _play(state: State, card: Card) -> State:
    seat, n = state.turn, state.params.players
    hands = list(state.hands)
    hands[seat] ^= 1 << card
    trick = (*state.trick, card)
    new = state._copy()  # then set: see GameState
    new.hands = tuple(hands)
    if len(trick) < n:
        new.trick, new.turn, new.last = trick, (seat + 1) % n, ()
        return new
    winner = (state.leader + tricks.trick_winner(trick, state.trump, ORDER)) % n
    won = list(state.won)
    won[winner] += 1
    new.won, new.trick, new.leader, new.turn = tuple(won), (), winner, winner
    new.tricks = (*state.tricks, (state.leader, trick))
    new.last = ((state.leader, trick, winner),)  # the trick event, rendered by ``events``
    if len(new.tricks) < HAND:
        return new
    return _settle(new)


def pot_winner(params: Params, bids: tuple[int, ...], won: tuple[int, ...], declarer: Seat) -> int:
    """Who takes the pot after a deal, or -1 when it carries over.

    The seed's rule: the declarer, if he took exactly his bid. ``pot_rule=pagat``: the highest
    bidder among those who took exactly their bid, unless two of them share that bid.

    >>> pot_winner(Params(), (2, 3, 3, 1), (2, 3, 1, 1), 1)
    1
    >>> pot_winner(Params(), (2, 3, 3, 1), (2, 4, 0, 1), 1)
    -1
    >>> pot_winner(Params(pot_rule="pagat"), (2, 3, 3, 1), (2, 4, 0, 1), 1)
    0
    >>> pot_winner(Params(pot_rule="pagat"), (1, 3, 3, 1), (1, 4, 1, 1), 1)
    -1
    """
    if params.pot_rule == "auction_winner":
        return declarer if won[declarer] == bids[declarer] else -1
    exact = [s for s in range(params.players) if won[s] == bids[s]]
    if not exact:
        return -1
    best = max(bids[s] for s in exact)
    makers = [s for s in exact if bids[s] == best]
    return makers[0] if len(makers) == 1 else -1


def _settle(state: State) -> State:
    """Pay or carry the pot, then deal again or end the match."""
    p, d = state.params, state.deal
    n = p.players
    winner = pot_winner(p, state.bids, state.won, state.declarer)
    delta = [-ANTE] * n
    stacks, pot = list(state.stacks), state.pot
    if winner >= 0:
        stacks[winner] += pot
        delta[winner] += pot
    paid = Event(
        "pot",
        {
            "declarer": state.declarer,
            "bid": state.bids[state.declarer],
            "tricks": state.won[state.declarer],
            "winner": winner if winner >= 0 else None,
            "chips": pot,
            "carried": winner < 0,
        },
    )
    last = (*state.last, paid)
    pot = 0 if winner >= 0 else pot
    played = d.number + 1
    deals, extra, _ = _limits(p)
    reason = ""
    discarded = 0
    if played >= deals and pot == 0:
        reason = "deals complete" if played == deals else "pot won in an extra deal"
    elif played >= deals + extra:
        share, discarded = divmod(pot, n)
        for s in range(n):
            stacks[s] += share
            delta[s] += share
        last = (*last, Event("split", {"pot": pot, "share": share, "discarded": discarded}))
        pot = 0
        reason = "pot split after the extra deals"
    history = (*state.history, tuple(delta))
    nets = [stacks[s] - state.bought[s] for s in range(n)]
    scored = Event(
        "score",
        {
            "bids": list(state.bids),
            "tricks": list(state.won),
            "score": delta,
            "stacks": stacks,
            "pot": pot,
            "totals": nets,
        },
    )
    last = (*last, scored)
    if reason:
        ended = state._with(
            stacks=tuple(stacks),
            pot=0,
            discarded=discarded,
            history=history,
            phase=_OVER,
            turn=-1,
            reason=reason,
        )
        result = outcome(ended)
        assert result is not None
        end = Event(
            "end",
            {
                "scores": list(result.scores),
                "winners": list(result.winners),
                "reason": result.reason,
                "discarded": discarded,
            },
        )
        return ended._with(last=(*last, end))
    dealer = winner if p.deal_passes == "pot_winner" and winner >= 0 else (d.dealer + 1) % n
    return _start_deal(
        p, state.setup, played, dealer, tuple(stacks), state.bought, pot, history, last
    )


def outcome(state: State) -> Outcome | None:
    """Once the match is over: net results per seat; the best net result wins (ties share)."""
    if state.phase != _OVER:
        return None
    nets = tuple(c - b for c, b in zip(state.stacks, state.bought, strict=True))
    best = max(nets)
    return Outcome(nets, tuple(s for s, v in enumerate(nets) if v == best), state.reason)


def events(state: State) -> tuple[Event, ...]:
    """The deal, buys, auction, trump, tricks, pot, split, score and end the last step caused."""
    return tuple(unshared(e) if isinstance(e, Event) else _trick_event(*e) for e in state.last)


def visible_events(state: State, seat: Seat | None) -> tuple[Event, ...]:
    """The last step's events as ``seat`` may know them: a deal shows only its own hand, and
    neither the deck order nor the undealt cards."""
    return tuple(
        deal_as_seen(e, lambda owner: owner == seat) if e.type == "deal" else e
        for e in events(state)
    )


def visible_action(state: State, action: Action, seat: Seat | None) -> str:
    """Every bid, trump and play is made in the open: its text is the same for every seat."""
    return format_action(state.params, action)


def _trick_event(leader: Seat, trick: tuple[Card, ...], winner: Seat) -> Event:
    # Kept raw in the state and rendered here, off the playout hot path.
    return Event(
        "trick", {"leader": leader, "cards": [CARD_TEXT[c] for c in trick], "winner": winner}
    )


# --- notation --------------------------------------------------------------------------------


def format_action(params: Params, action: Action) -> str:
    """The text form of ``action`` (docs/notation.md).

    >>> [format_action(Params(), a) for a in (BID + 3, TRUMP + 2, NO_TRUMP, DECK.parse("Ks"))]
    ['bid 3', 'trump h', 'trump none', 'play Ks']
    """
    if action >= BID:
        return f"bid {action - BID}"
    if action == NO_TRUMP:
        return "trump none"
    if action >= TRUMP:
        return f"trump {FRENCH_SUITS[action - TRUMP]}"
    return f"play {format_card(action)}"


_TRUMP_WORDS = {
    **{c: TRUMP + i for i, c in enumerate(FRENCH_SUITS)},
    **{suit_name(4 + i): TRUMP + i for i in range(4)},
    "none": NO_TRUMP,
    "nt": NO_TRUMP,
}


def parse_action(params: Params, text: str) -> Action:
    """``bid N``, ``trump c/d/h/s``, ``trump none`` or ``play CARD``; a bare number is a bid and
    a bare card a play.

    >>> parse_action(Params(), "bid 3") == BID + 3, parse_action(Params(), "trump none") == NO_TRUMP
    (True, True)
    >>> format_card(parse_action(Params(), "Ah"))
    'Ah'
    """
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] in ("bid", "play", "trump"):
        verb, arg = words
    elif len(words) == 1:
        verb, arg = ("bid" if words[0].isdecimal() else "play"), words[0]
    else:
        raise InvalidActionError(_usage(text))
    if verb == "bid":
        if not arg.isdecimal():
            raise InvalidActionError(f"{text!r}: a bid is a number of tricks, e.g. 'bid 2'")
        tricks = count_in(arg, HAND)
        if tricks is None:
            raise InvalidActionError(f"{text!r}: a bid is at most {HAND} tricks, the whole hand")
        return BID + tricks
    if verb == "trump":
        if arg not in _TRUMP_WORDS:
            raise InvalidActionError(f"{text!r}: name trump as c, d, h, s or none")
        return _TRUMP_WORDS[arg]
    return DECK.parse(arg, _usage(text) if len(words) == 1 else "")


def _usage(text: str) -> str:
    """What the notation reads, for ``text`` that is none of it (made only to be raised)."""
    return f"{text!r} is not an action: write 'bid N', 'trump c/d/h/s', 'trump none' or 'play CARD'"


# --- views -----------------------------------------------------------------------------------


def observe(state: State, seat: Seat | None) -> View:
    """What ``seat`` sees: its own hand, the bids, trump, the tricks and every chip count."""
    p = state.params
    hands: list[CardSet | None] = [None] * p.players
    if seat is not None:
        hands[seat] = CardSet(state.hands[seat])
    return View(
        seat=seat,
        params=p,
        deal=state.deal.number,
        dealer=state.deal.dealer,
        hands=tuple(hands),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        bids=tuple(None if b < 0 else b for b in state.bids),
        declarer=None if state.declarer < 0 else state.declarer,
        trump=None if state.trump == _UNNAMED else state.trump,
        won=state.won,
        trick=state.trick,
        leader=state.leader,
        tricks=state.tricks,
        turn=None if state.phase == _OVER else state.turn,
        phase=state.phase,
        pot=state.pot,
        stacks=state.stacks,
        bought=state.bought,
        discarded=state.discarded,
        scores=tuple(c - b for c, b in zip(state.stacks, state.bought, strict=True)),
        history=state.history,
        reason=state.reason or None,
        excluded=tuple(
            CardSet(m)
            for m in _excluded(
                state.params.players, state.trump, state.tricks, state.leader, state.trick
            )
        ),
    )


def _excluded(
    n: int,
    trump: int,
    done: tuple[tuple[Seat, tuple[Card, ...]], ...],
    leader: Seat,
    trick: tuple[Card, ...],
) -> list[int]:
    """The cards each seat is known not to hold: the suits it showed itself void in."""
    out = [0] * n
    for first, cards in (*done, (leader, trick)):
        for i, card in enumerate(cards):
            out[(first + i) % n] |= tricks.excluded_by_play(
                card, cards[:i], trump, ORDER, tricks.FOLLOW
            )
    return [m & DECK.mask for m in out]


def sample_state(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``: unseen cards dealt at random around known voids.

    The seat's own hand, the cards played and every void shown are honoured; the undealt cards
    and later deals come from fresh randomness.
    """
    return sampler(view)(rng)


def sampler(view: View) -> Callable[[random.Random], State]:
    """``sample_state`` for many deals of one view (a search's): the view's facts are worked out
    once, and each call draws a deal exactly as ``sample_state(view, rng)`` would with that rng.
    """
    # The sampler builds on this module, so it is imported when first needed.
    from tapete.games._pottle_sampler import sampler as prepare

    return prepare(view)


def stack_deck(params: Params, dealer: Seat, hands: list[str]) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (text, one per seat, seven cards each).

    For tests, puzzles and teaching: ``game.new_state(decks=[stack_deck(...)], dealer=...)``.
    The undealt cards follow in canonical order.

    >>> p = Params(players=3)
    >>> deck = stack_deck(p, 2, ["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d",
    ...                          "2h 3h 4h 5h 6h 7h 8h"])
    >>> format_cards(deck[:4])
    '2c 2d 2h 3c'
    """
    n = params.players
    check(
        len(hands) == n and all(len(parse_cards(h, french=True)) == HAND for h in hands),
        "hands",
        len(hands),
        "{n} hands of {size} cards",
        n=n,
        size=HAND,
    )
    return chance.stack_deck(DECK, n, dealer, hands)
