"""Tute's ``sample_state``: a full state consistent with a view, the unseen cards dealt at random.

Every card a hidden hand ever held came from the deal or from a draw: call the moment its slot
(0 for the deal, j for the draw after trick j − 1). What the view shows pins each card's slot
between bounds: a card played, swapped away or shown in trick t came at slot t or earlier; a
card some play of trick t showed the seat did not hold came after slot t (if the seat held it
later). Dealing the unseen cards is then a matching of cards to places (the slots of the hidden
hands and the face-down stock), one card a place, which a greedy matching in random order
completes whenever the view is consistent; random swaps of two cards and turns of three that
all stay within bounds then take it towards a uniform draw among all consistent deals. Moments
within a trick are 3t (swaps), 3t + 1 (cantes) and 3t + 2 (plays).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

from tapete import tricks
from tapete.cards import SPANISH_40, Card, cards_of
from tapete.game import Seat, Setup
from tapete.games.tute import (
    DRAWS,
    HAND_SIZE,
    ORDER,
    PAIRS,
    Deal,
    State,
    View,
    _relaxed,
    obligation,
)

__all__ = ["sampler"]

_NEVER = 1 << 30


@dataclass
class _Timeline:
    """The public facts of a deal's hidden hands, replayed from a view."""

    tokens: list[dict[Card, list[int]]]  # seat -> card -> [latest slot, moment it left the hand]
    excluded: list[list[tuple[int, int]]]  # seat -> (moment, cards not held then)
    pairs: list[tuple[Seat, int, int]]  # a 20 sung with the 40 open: not both of these trumps
    fixed: list[list[int]]  # seat -> slots whose card everyone saw (face-up draw, trump card)


def _timeline(view: View) -> _Timeline:
    p, trump = view.params, view.trump
    n = p.players
    line = _Timeline([{} for _ in range(n)], [[] for _ in range(n)], [], [[] for _ in range(n)])
    # Cards each seat is publicly known to hold, and whether they came from a hidden slot.
    held: list[dict[Card, bool]] = [{} for _ in range(n)]

    def seen(seat: Seat, card: Card, index: int) -> None:
        if card not in held[seat]:
            held[seat][card] = True
            line.tokens[seat][card] = [index, _NEVER]

    def gone(seat: Seat, card: Card, moment: int) -> None:
        if held[seat].pop(card):
            line.tokens[seat][card][1] = moment

    if n == 4:
        line.fixed[view.dealer].append(0)
        held[view.dealer][view.upcard] = False
    face, sung, played = view.upcard if n == 2 else -1, 0, 0
    for index, (first, cards) in enumerate((*view.tricks, (view.leader, view.trick))):
        seat = first
        for i in range(min(len(cards) + 1, n)):
            # What this seat did at its turn: swap (the leader), sing, then play.
            for at, who, give, take in view.swaps:
                if (at, who) == (index, seat):
                    seen(seat, give, index)
                    gone(seat, give, 3 * index + 1)
                    held[seat][take], face = False, give
            for at, who, suit in view.cantes:
                if (at, who) == (index, seat):
                    if suit != trump and not sung >> trump & 1:
                        elsewhere = played | (1 << face if face >= 0 else 0)
                        _forty_hint(line, held, seat, 3 * index + 1, PAIRS[trump], elsewhere)
                    sung |= 1 << suit
                    for card in cards_of(PAIRS[suit]):
                        seen(seat, card, index)
            if i == len(cards):
                break
            card = cards[i]
            rule = obligation(p, index, cards[:i], seat, first, trump)
            if i and rule is not None:
                mask = tricks.excluded_by_play(
                    card, cards[:i], trump, ORDER, rule, must_underruff=p.must_underruff
                )
                if mask:
                    line.excluded[seat].append((3 * index + 2, mask))
            seen(seat, card, index)
            gone(seat, card, 3 * index + 3)
            played |= 1 << card
            seat = (seat + 1) % n
        if n == 2 and len(cards) == 2 and index == DRAWS - 1:
            loser = 1 - (first + tricks.trick_winner(cards, trump, ORDER)) % 2
            line.fixed[loser].append(DRAWS)
            held[loser][face] = False
    now = len(view.tricks)
    for seat in range(n):
        for card in view.known[seat]:
            seen(seat, card, now)  # shown without a recorded moment (a tute): held now
    return line


def _forty_hint(
    line: _Timeline, held: list[dict[Card, bool]], seat: Seat, moment: int, pair: int, gone: int
) -> None:
    """A 20 sung while the 40 was open: the singer did not hold both trumps of the pair.

    Nothing follows when one of them was already elsewhere (played, face up, shown in another
    hand); when the singer was known to hold one, the other is the one he lacked.
    """
    for other, cards in enumerate(held):
        if other != seat:
            gone |= sum(1 << c for c in cards)
    if pair & gone:
        return
    mine = sum(1 << c for c in cards_of(pair) if c in held[seat])
    line.pairs.append((seat, moment, pair & ~mine))


def _lowest_slot(excluded: list[tuple[int, int]], card: Card, left: int) -> int:
    """The earliest slot ``card`` can have come from, given what the seat showed it lacked."""
    low = 0
    for moment, cards in excluded:
        if cards >> card & 1 and moment < left:
            low = max(low, moment // 3 + 1)
    return low


def sampler(view: View) -> Callable[[random.Random], State]:
    """``tute.sampler`` (its docstring states the contract), as this module describes."""
    n = view.params.players
    line = _timeline(view)
    hidden = [s for s in range(n) if view.hands[s] is None]
    drawn = min(len(view.tricks), DRAWS) if n == 2 else 0
    places: list[tuple[Seat, int]] = []  # (seat, slot) of the hidden hands, then (-1, 0): stock
    for s in hidden:
        fixed = line.fixed[s]
        places += [(s, 0)] * (HAND_SIZE[n] - fixed.count(0))
        places += [(s, j) for j in range(1, drawn + 1) if j not in fixed]
    in_hands = len(places)
    places += [(-1, 0)] * (view.stock_size - (view.face_up >= 0))
    tokens = [(s, c, latest, left) for s in hidden for c, (latest, left) in line.tokens[s].items()]
    pool = cards_of(SPANISH_40.mask & ~_public(view))
    cards = [c for _, c, _, _ in tokens] + pool
    if len(cards) != len(places):
        raise ValueError("the view's hand and stock sizes do not match its unseen cards")
    hints = [(s, moment, lacked) for s, moment, lacked in line.pairs if s in hidden]
    choices = list(itertools.product(*(cards_of(lacked) for _, _, lacked in hints)))
    allowed = _allowed(line.excluded, tokens, pool, places)
    check = _hint_check(hints, cards, tokens, places)
    everywhere = (1 << len(places)) - 1
    free = not hints and all(mask == everywhere for mask in allowed)  # a plain shuffle is uniform
    moves = _moves(allowed, places) if not free else ([], [])
    starts: dict[tuple[int, ...], list[list[int]]] = {}

    def start(choice: tuple[int, ...]) -> list[list[int]]:
        """The hand places each card may take in a deal where each such singer lacked one
        chosen trump of the pair."""
        if choice not in starts:
            excluded = [list(e) for e in line.excluded]
            for (s, moment, _), card in zip(hints, choice, strict=True):
                excluded[s].append((moment, 1 << card))
            masks = _allowed(excluded, tokens, pool, places)
            starts[choice] = [[i for i in range(in_hands) if m >> i & 1] for m in masks]
        return starts[choice]

    def sample(rng: random.Random) -> State:
        order = list(choices)
        rng.shuffle(order)
        for choice in order:
            at = _greedy(start(choice), len(tokens), in_hands, rng)
            if at is not None:
                break
        else:
            raise ValueError("no deal of the unseen cards is consistent with what the view shows")
        if not free:
            _mix(at, allowed, moves, check, rng)
        # Tokens are already where the view shows them: only the pool cards are new.
        placed = [cards[node] if node >= len(tokens) else -1 for node in at]
        return _sampled(view, placed, places, rng)

    return sample


def _public(view: View) -> int:
    """The cards whose place the view shows: seen hands, shown cards, played, face up."""
    public = 1 << view.face_up if view.face_up >= 0 else 0
    for s, seen in enumerate(view.hands):
        public |= view.known[s].mask | (seen.mask if seen is not None else 0)
    for _, cards in (*view.tricks, (view.leader, view.trick)):
        for card in cards:
            public |= 1 << card
    return public


def _allowed(
    excluded: list[list[tuple[int, int]]],
    tokens: list[tuple[Seat, Card, int, int]],
    pool: list[Card],
    places: list[tuple[Seat, int]],
) -> list[int]:
    """For each card (tokens, then the pool) the places it may occupy, as a bitmask."""
    out = []
    for seat, card, latest, left in tokens:
        low = _lowest_slot(excluded[seat], card, left)
        out.append(
            sum(1 << i for i, (s, j) in enumerate(places) if s == seat and low <= j <= latest)
        )
    stock = sum(1 << i for i, (s, _) in enumerate(places) if s < 0)
    for card in pool:
        lows: dict[Seat, int] = {}
        mask = stock
        for i, (s, j) in enumerate(places):
            if s >= 0:
                if s not in lows:
                    lows[s] = _lowest_slot(excluded[s], card, _NEVER)
                if j >= lows[s]:
                    mask |= 1 << i
        out.append(mask)
    return out


def _greedy(
    edges: list[list[int]], tokens: int, in_hands: int, rng: random.Random
) -> list[int] | None:
    """Place -> card index: every hand place filled (tokens first), the rest to the stock;
    ``edges`` lists each card's allowed hand places."""
    # Cards in random order, each to its first free place: uniform where nothing is excluded,
    # and the moves of ``_mix`` take it to uniform where something is.
    owner = [-1] * in_hands
    order = list(range(tokens, len(edges)))
    rng.shuffle(order)
    free, spare = in_hands, []
    for node in [*range(tokens), *order]:
        if free and _augment(node, edges, owner, set()):
            free -= 1
        elif node < tokens:
            return None
        else:
            spare.append(node)
    return owner + spare if not free else None


def _augment(node: int, edges: list[list[int]], owner: list[int], seen: set[int]) -> bool:
    for place in edges[node]:
        if owner[place] < 0:
            owner[place] = node
            return True
    for place in edges[node]:
        if place not in seen:
            seen.add(place)
            if _augment(owner[place], edges, owner, seen):
                owner[place] = node
                return True
    return False


_Check = tuple[Callable[[list[int]], bool], frozenset[int]]


def _hint_check(
    hints: list[tuple[Seat, int, int]],
    cards: list[Card],
    tokens: list[tuple[Seat, Card, int, int]],
    places: list[tuple[Seat, int]],
) -> _Check | None:
    """A test that each 20 sung with the 40 open left the singer short of the trump pair, and
    the cards (by index in ``cards``) whose places it reads: a swap of two others keeps it."""
    if not hints:
        return None
    left = [t[3] for t in tokens] + [_NEVER] * (len(cards) - len(tokens))
    nodes = {card: node for node, card in enumerate(cards)}
    watched = frozenset(nodes[c] for _, _, lacked in hints for c in cards_of(lacked) if c in nodes)

    def ok(at: list[int]) -> bool:
        where = {node: place for place, node in enumerate(at)}

        def held(seat: Seat, moment: int, card: Card) -> bool:
            node = nodes.get(card)
            if node is None:  # the card is where the view shows it, not in this hand
                return False
            s, slot = places[where[node]]
            return s == seat and slot <= moment // 3 and left[node] > moment

        return not any(
            all(held(seat, moment, c) for c in cards_of(lacked)) for seat, moment, lacked in hints
        )

    return ok, watched


def _moves(allowed: list[int], places: list[tuple[Seat, int]]) -> tuple[list[list[int]], list[int]]:
    """For ``_mix``: each card's allowed places, and the cards whose allowed places differ in
    seat or slot (a card held to one seat's slot 0, say, has nowhere to go that changes a deal)."""
    spots = [[place for place in range(len(places)) if mask >> place & 1] for mask in allowed]
    movable = [node for node, mine in enumerate(spots) if len({places[q] for q in mine}) > 1]
    return spots, movable


def _mix(
    at: list[int],
    allowed: list[int],
    moves: tuple[list[list[int]], list[int]],
    check: _Check | None,
    rng: random.Random,
) -> None:
    """Random swaps and three-way turns of placed cards that stay allowed: towards uniform over
    all deals.

    A move (six a place) takes a movable card (``_moves``) picked at random to a place picked at
    random among those allowed to it; the card there goes where the first was (a swap) or, every
    other move, on to a place picked at random among its own allowed places, whose card goes
    where the first was (a turn of three). What a card may move to does not change, so each move
    is proposed as often as the move back, and the moves keep the uniform distribution. Swaps
    alone cannot reach every deal: with hands A {1, 2}, B {3, 4}, C {5}, where 1 and 2 may go
    to A or C, 3 and 4 to A or B and 5 to B or C, no swap turns it into A {1, 3}, B {4, 5},
    C {2}."""
    ok, watched = check if check is not None else (None, frozenset[int]())
    spots, movable = moves
    if not movable:
        return
    size, m, rand = len(at), len(movable), rng.random
    mobile = [False] * size
    for node in movable:
        mobile[node] = True
    where = [0] * size
    for place, node in enumerate(at):
        where[node] = place

    def pick(spots: list[int]) -> int:
        # A place holding a movable card, uniformly: a card that cannot move takes a place of
        # its own class either way, so how many such places each card may pick never changes.
        for _ in range(8):
            q = spots[int(rand() * len(spots))]
            if mobile[at[q]]:
                return q
        return -1

    for i in range(6 * size):
        a = movable[int(rand() * m)]
        p, q = where[a], pick(spots[a])
        if q < 0 or at[q] == a:
            continue
        b = at[q]
        if i & 1:
            r = pick(spots[b])
            if r < 0 or at[r] in (a, b) or not allowed[at[r]] >> p & 1:
                continue
            c = at[r]
            at[p], at[q], at[r], where[a], where[b], where[c] = c, a, b, q, r, p
            if ok is not None and watched.intersection((a, b, c)) and not ok(at):
                at[p], at[q], at[r], where[a], where[b], where[c] = a, b, c, p, q, r
        elif allowed[b] >> p & 1:
            at[p], at[q], where[a], where[b] = b, a, q, p
            # Only a move of a card the check reads can break it.
            if ok is not None and (a in watched or b in watched) and not ok(at):
                at[p], at[q], where[a], where[b] = a, b, p, q


def _sampled(
    view: View, placed: list[Card], places: list[tuple[Seat, int]], rng: random.Random
) -> State:
    """The state whose hidden hands and stock hold the cards ``placed`` (-1: none) in ``places``."""
    n = view.params.players
    hands = [
        seen.mask if seen is not None else known.mask
        for seen, known in zip(view.hands, view.known, strict=True)
    ]
    stock = []
    for card, (seat, _) in zip(placed, places, strict=True):
        if card < 0:
            continue
        if seat < 0:
            stock.append(card)
        else:
            hands[seat] |= 1 << card
    rng.shuffle(stock)
    assert [h.bit_count() for h in hands] == list(view.hand_sizes[:n])
    first = view.tricks[0][0] if view.tricks else view.leader
    deal = Deal(
        view.deal, view.dealer, view.trump, view.upcard, first, (), (), _relaxed(view.params)
    )
    return State(
        view.params,
        Setup(seed=rng.getrandbits(32)),
        deal,
        tuple(hands),
        tuple(stock),
        view.face_up,
        view.trick,
        view.leader,
        view.turn if view.turn is not None else view.leader,
        view.tricks,
        view.points,
        view.cantes,
        view.swaps,
        tuple(k.mask for k in view.known),
        -1 if view.sing_right is None else view.sing_right,
        view.scores,
        view.history,
        view.result,
        (),
    )
