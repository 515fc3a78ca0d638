"""Bounds of a match, derived from a spec's parameters: deals, decisions and scores.

OpenSpiel asks every game for its longest history and its utility range. These are upper and
lower bounds computed from the rules' parameters (not tight, but safe). Where the rules set no
bound — repeated tie-break deals in Pocha, Truco hands that all tie under
``all_tied=no_score``, Tute deals that score nothing — ``EXTRA_DEALS`` more deals are allowed
for, far beyond anything a match is likely to reach.

>>> import tapete
>>> bounds(tapete.load("pocha(players=3, schedule=[1, 2], tiebreak_players=nobody)"))
Bounds(deals=2, decisions=15, min_score=-15, max_score=35)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tapete.game import Game

__all__ = ["EXTRA_DEALS", "Bounds", "bounds"]

EXTRA_DEALS = 20


@dataclass(frozen=True)
class Bounds:
    """At most ``deals`` deals and ``decisions`` decisions; every final score (a seat's or its
    team's) lies in ``min_score … max_score``."""

    deals: int
    decisions: int
    min_score: int
    max_score: int


def bounds(game: Game[Any, Any]) -> Bounds:
    """The bounds of a spec's matches (see the module docstring)."""
    return {
        "pocha": _pocha,
        "tute": _tute,
        "truco": _truco,
        "poch": _poch,
        "pottle": _pottle,
    }[game.rules.NAME](game)


def _pocha(game: Game[Any, Any]) -> Bounds:
    from tapete.games import pocha

    p, n = game.params, game.players
    sizes = list(pocha.schedule_of(p))
    if p.tiebreak_players != "nobody":
        sizes += [1] * EXTRA_DEALS  # a tie-break deal is one card a hand
    scores = [
        [pocha.hand_score(p, bid, won) for bid in range(s + 1) for won in range(s + 1)]
        for s in sizes
    ]
    return Bounds(
        deals=len(sizes),
        decisions=sum(n + n * s for s in sizes),
        min_score=sum(min(row) for row in scores),
        max_score=sum(max(row) for row in scores),
    )


def _tute(game: Game[Any, Any]) -> Bounds:
    from tapete.games import tute

    p, n = game.params, game.players
    match = p.match
    deals = 1 if match == "single_deal" else EXTRA_DEALS
    if match.startswith("best_of_"):
        deals = int(match.removeprefix("best_of_")) + EXTRA_DEALS  # drawn deals decide nothing
    # A deal: every card played, a swap each, four cantes, a tute.
    per_deal = 40 + 2 + 4 + 1
    # Card points (120), the last trick (10 or the bonus), four cantes of 40 at most.
    most = 120 + max(10, p.last_trick_bonus or 0) + 4 * 40
    if match.startswith("best_of_"):
        most = deals  # the standings count deals won
    del tute, n
    return Bounds(deals, deals * per_deal, 0, most if match == "single_deal" else most * deals)


def _truco(game: Game[Any, Any]) -> Bounds:
    p, n = game.params, game.players
    hands = 2 * p.target - 1 + (EXTRA_DEALS if p.all_tied == "no_score" else 0)
    # A hand: the mão de onze decision, three cards each, four raises and four answers.
    per_hand = 1 + 3 * n + 8
    return Bounds(hands, hands * per_hand, 0, p.target - 1 + 12)


def _poch(game: Game[Any, Any]) -> Bounds:
    from tapete.games import poch

    p, n = game.params, game.players
    rounds = poch.round_limit(p) or EXTRA_DEALS
    total = n * p.chips + (poch.NAMED_BOWLS * rounds if p.bowl_funding == "bank" else 0)
    cards = game.deck.size
    # The poker round: each raise adds a chip at least; each seat passes or calls once more.
    per_round = n * (total + 2) + cards
    return Bounds(rounds, rounds * per_round, -p.chips, total - p.chips)


def _pottle(game: Game[Any, Any]) -> Bounds:
    from tapete.games import pottle

    p, n = game.params, game.players
    deals = 2 * n if p.deals is None else p.deals
    most = deals + (n if p.extra_deals is None else p.extra_deals)
    per_deal = n + 1 + pottle.HAND * n  # one bid each, trump, every card
    # Every chip that can enter the match: the bankrolls and a buy-in a deal per seat.
    chips = n * p.bankroll * (most + 1)
    return Bounds(most, most * per_deal, -chips, chips)
