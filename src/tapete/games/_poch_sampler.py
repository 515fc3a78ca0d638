"""Poch's ``sample_state``: a full state consistent with a view, for search.

The unseen cards are dealt at random around what the view shows (hands shown down, melds, runs,
cards known out of play) and the Sequence bowl's verdict; then a deck order is stacked that
deals those hands as the game deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tapete.cards import Card, cards_of
from tapete.chance import random_stack
from tapete.game import Seat, Setup
from tapete.games.poch import (
    SEQUENCE,
    Round,
    State,
    View,
    _deck,
    _known_out,
    _shown_holder,
    best_run,
)

__all__ = ["sample_state"]


def sample_state(view: View, rng: random.Random) -> State:
    """``poch.sample_state`` (its docstring states the contract), as this module describes."""
    p, n, seats = view.params, view.params.players, view.seats
    played_by = [0] * n
    for run in view.runs:
        for s, c in run:
            played_by[s] |= 1 << c
    fixed, room = [0] * n, [0] * n
    for s in seats:
        full = view.hands[s]
        fixed[s] = (full.mask if full is not None else view.known[s].mask) | played_by[s]
        room[s] = 0 if full is not None else view.hand_sizes[s] - len(view.known[s])
    dealt_count = 5 * len(seats) if p.deal == "five" else _deck(n).size
    stock_room = _deck(n).size - dealt_count - len(view.out_of_play)
    out = view.out_of_play.mask
    unseen = _deck(n).mask & ~sum(fixed) & ~out
    ok = _sequence_check(view, {s for s in seats if room[s]})
    targets = [s for s in seats if room[s]]
    hidden = _deal_hidden(
        cards_of(unseen),
        [room[s] for s in targets] + [stock_room],
        [fixed[s] for s in targets] + [0],
        lambda i, mask: i == len(targets) or ok(targets[i], mask),
        rng,
    )
    dealt = list(fixed)
    for i, s in enumerate(targets):
        dealt[s] |= hidden[i]
    stock = out | hidden[-1]
    rows = [dealt[s] for s in view.seats]
    deck = random_stack(rows, stock, rng, turned=view.upcard, last=view.shown)
    rnd = Round(
        view.deal,
        view.dealer,
        seats,
        view.trump,
        view.upcard,
        view.shown,
        deck,
        tuple(dealt),
        stock,
        view.melds,
        view.start_chips,
    )
    state = State.__new__(State)
    values = {
        "params": p,
        "setup": Setup(seed=rng.getrandbits(32)),
        "rnd": rnd,
        "hands": tuple(dealt[s] & ~played_by[s] for s in range(n)),
        "chips": view.chips,
        "bowls": view.bowls,
        "bank": view.bank,
        "put": view.bets,
        "folded": sum(1 << s for s in range(n) if view.folded[s]),
        "pending": sum(1 << s for s in view.to_act),
        "phase": view.phase,
        "turn": view.turn if view.turn is not None else -1,
        "poker": view.poker,
        "revealed": _revealed(view, dealt),
        "showdown": sum(1 << s for s in view.showdown),
        "winner": -1 if view.poker_winner is None else view.poker_winner,
        "runs": view.runs,
        "played": view.played.mask,
        "gone": view.out_of_play.mask & ~_known_out(rnd),
        "alive": sum(1 << s for s in range(n) if view.in_game[s]),
        "history": view.history,
        "last": (),
    }
    for name, value in values.items():
        object.__setattr__(state, name, value)
    return state


def _revealed(view: View, dealt: list[int]) -> tuple[int, ...]:
    """The cards each seat has shown this round, rebuilt from the melds and the showdown."""
    shown = [0] * view.params.players
    for m in view.melds:
        if m.seat is not None:
            shown[m.seat] |= m.cards.mask
    if view.shown >= 0:
        shown[_shown_holder(view.seats, view.params.players)] |= 1 << view.shown
    for s in view.showdown:
        shown[s] |= dealt[s]
    return tuple(shown)


def _sequence_check(view: View, hidden: set[Seat]) -> Callable[[Seat, int], bool]:
    """Whether a dealt hand for a hidden seat agrees with how the Sequence bowl went.

    The test is monotone (adding cards can only break it), so partial hands may be checked.
    """
    p, seats = view.params, view.seats
    meld = next(m for m in view.melds if m.bowl == SEQUENCE)
    winner = meld.seat
    claim = best_run(meld.cards.mask, view.trump, p) if winner is not None else None

    def ok(seat: Seat, hand: int) -> bool:
        if seat not in hidden:
            return True
        run = best_run(hand, view.trump, p)
        if run is None:
            return True
        if claim is None:
            return False
        if seat == winner:
            return run == claim
        if run[0] != claim[0]:
            return run[0] < claim[0]
        return seats.index(seat) > seats.index(winner)

    return ok


def _deal_hidden(
    cards: list[Card],
    room: list[int],
    fixed: list[int],
    ok: Callable[[int, int], bool],
    rng: random.Random,
) -> list[int]:
    """Deal ``cards`` to targets with ``room[i]`` places each so that ``ok(i, fixed[i] | hand)``.

    Random deals are tried first; a few failures fall back to a search, so a deal is found
    whenever one exists.
    """
    assert sum(room) == len(cards), (room, len(cards))
    for _ in range(50):
        rng.shuffle(cards)
        hands, i = [], 0
        for r in room:
            hands.append(sum(1 << c for c in cards[i : i + r]))
            i += r
        if all(ok(t, fixed[t] | h) for t, h in enumerate(hands)):
            return hands
    hands = [0] * len(room)
    left = list(room)

    def search(k: int) -> bool:
        if k == len(cards):
            return True
        order = [t for t in range(len(room)) if left[t]]
        rng.shuffle(order)
        for t in order:
            hands[t] |= 1 << cards[k]
            left[t] -= 1
            if ok(t, fixed[t] | hands[t]) and search(k + 1):
                return True
            hands[t] &= ~(1 << cards[k])
            left[t] += 1
        return False

    if not search(0):
        raise ValueError("no deal of the unseen cards is consistent with what the view shows")
    return hands
