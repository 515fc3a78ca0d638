"""Playout speed and memory: what ``tapete bench SPEC`` measures.

Random legal playouts of whole matches through the public ``Game`` API, as a search bot or an RL
loop drives the engine: matches per second and decisions per second; deals per second from the
mean number of deals a match has (counted in a second, untimed pass); then the peak
memory one playout allocates (tracemalloc, measured in a separate pass so it does not slow the
timing) and the process's peak resident size. Time is the process's own CPU time, so other work
on a shared machine slows the rates less than it would wall-clock ones.

``compare_openspiel`` runs the same loop over OpenSpiel's ``oh_hell`` for the same hand shape
(when the ``openspiel`` extra is installed), interleaved with tapete's in rounds so both see the
same machine, and reports the medians and their ratio.
"""

from __future__ import annotations

import importlib
import random
import resource
import statistics
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass
from typing import Any

from tapete.errors import SpecError
from tapete.game import Game
from tapete.games import load

__all__ = ["EVERY_GAME", "BenchResult", "Comparison", "compare_openspiel", "compiled", "run"]

EVERY_GAME = ["pocha(players=4, schedule=9)", "pocha", "oh_hell", "tute", "truco", "poch", "pottle"]
"""What ``tapete bench`` without a spec measures: every game at its defaults, and Pocha's
benchmark hand (one 9-card hand, four players)."""

CORE_MODULES = (
    "tapete.cards",
    "tapete.tricks",
    "tapete.chance",
    "tapete.games.pocha",
    "tapete.games.tute",
    "tapete.games.truco",
    "tapete.games.poch",
    "tapete.games.pottle",
    "tapete.bots.search",
    "tapete.bots.solver",
    "tapete.bots.pocha",
    "tapete.bots.tute",
    "tapete.bots.truco",
    "tapete.bots.poch",
    "tapete.bots.pottle",
)
"""The modules a compiled build (``TAPETE_COMPILE=1 pip install .``) compiles with mypyc: the
engine's core and the search with each game's playouts (the search bots' hot loop).

``tapete.game`` stays Python in both builds: its ``Game`` handle is a generic frozen dataclass
and ``GameState`` writes each state class's copy when the class is made."""


def compiled() -> bool:
    """Whether the engine's core modules are compiled (an extension module, not Python source)."""
    return all(_is_extension(name) for name in CORE_MODULES)


def _is_extension(name: str) -> bool:
    path = getattr(importlib.import_module(name), "__file__", None) or ""
    return path.endswith((".so", ".pyd"))


@dataclass(frozen=True)
class BenchResult:
    spec: str
    seconds: float
    matches: int
    deals: int
    decisions: int
    matches_per_second: float
    deals_per_second: float
    decisions_per_second: float
    playout_peak_bytes: int
    max_rss_bytes: int
    python: str
    compiled: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        build = "compiled" if self.compiled else "pure Python"
        return (
            f"{self.spec}: {self.matches_per_second:,.0f} matches/s, "
            f"{self.deals_per_second:,.0f} deals/s, {self.decisions_per_second:,.0f} decisions/s "
            f"({self.matches:,} random playouts in {self.seconds:.1f} s, {build}); "
            f"peak memory of one playout {self.playout_peak_bytes / 1024:,.0f} KiB, "
            f"process peak RSS {self.max_rss_bytes / 2**20:,.1f} MiB"
        )


def _playout(game: Game[Any, Any], seed: int, rng: random.Random) -> int:
    """One random playout; returns the number of decisions."""
    state = game.new_state(seed)
    current, legal, apply = game.current_player, game.legal_actions, game.apply
    decisions = 0
    while current(state) is not None:
        actions = legal(state)
        state = apply(state, actions[rng.randrange(len(actions))])
        decisions += 1
    return decisions


def _deals(game: Game[Any, Any], seed: int, rng: random.Random) -> int:
    """The deals of one random playout (counted from events, off the timed loop)."""
    state = game.new_state(seed)
    deals = 1
    while game.current_player(state) is not None:
        actions = game.legal_actions(state)
        state = game.apply(state, actions[rng.randrange(len(actions))])
        deals += sum(e.type == "deal" for e in game.events(state))
    return deals


def run(spec: str, seconds: float = 5.0, seed: int = 0) -> BenchResult:
    """Play random matches of ``spec`` for about ``seconds`` and report the rates."""
    game = load(spec)
    rng = random.Random(seed)
    matches = decisions = 0
    start = time.process_time()
    while True:
        decisions += _playout(game, seed + matches, rng)
        matches += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    sample = min(matches, 200)
    deals_per_match = sum(_deals(game, seed + i, random.Random(i)) for i in range(sample)) / sample
    tracemalloc.start()
    _playout(game, seed, random.Random(seed))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return BenchResult(
        spec=game.spec,
        seconds=elapsed,
        matches=matches,
        deals=round(matches * deals_per_match),
        decisions=decisions,
        matches_per_second=matches / elapsed,
        deals_per_second=matches * deals_per_match / elapsed,
        decisions_per_second=decisions / elapsed,
        playout_peak_bytes=peak,
        max_rss_bytes=rss,
        python=sys.version.split()[0],
        compiled=compiled(),
    )


# --- side by side with OpenSpiel's oh_hell -------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """tapete's and OpenSpiel's hands per second for one Oh Hell hand shape, same run.

    Each rate is the median over ``rounds`` interleaved rounds; ``ratio`` is tapete's median over
    OpenSpiel's (above 1: tapete is faster).
    """

    spec: str
    openspiel_params: dict[str, int]
    rounds: int
    tapete_hands_per_second: float
    openspiel_hands_per_second: float
    ratio: float
    tapete_rounds: tuple[float, ...]
    openspiel_rounds: tuple[float, ...]
    compiled: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        build = "compiled" if self.compiled else "pure Python"
        params = ", ".join(f"{k}={v}" for k, v in self.openspiel_params.items())
        return (
            f"{self.spec} ({build}): {self.tapete_hands_per_second:,.0f} hands/s\n"
            f"OpenSpiel oh_hell({params}), driven from Python: "
            f"{self.openspiel_hands_per_second:,.0f} hands/s\n"
            f"ratio tapete / OpenSpiel: {self.ratio:.2f} "
            f"(medians of {self.rounds} interleaved rounds; random legal playouts, deal included)"
        )


def openspiel_shape(game: Game[Any, Any]) -> dict[str, int]:
    """OpenSpiel's ``oh_hell`` parameters for the hand ``game`` deals (a Pocha or Oh Hell spec
    with one hand size); raises SpecError for any other game."""
    from tapete.games import pocha

    params = game.params
    if game.rules is not pocha or not isinstance(params.schedule, int | tuple):
        raise SpecError(
            "{spec}: --compare-openspiel takes a pocha or oh_hell spec with one hand size,"
            " e.g. pocha(players=4, schedule=9)",
            spec=game.spec,
        )
    sizes = pocha.schedule_of(params)
    if len(set(sizes)) != 1 or len(sizes) != 1:
        raise SpecError("{spec}: --compare-openspiel needs one hand: schedule=N", spec=game.spec)
    deck = game.deck
    return {
        "players": params.players,
        "num_suits": len(deck.suits),
        "num_cards_per_suit": len(deck.ranks),
        "num_tricks_fixed": sizes[0],
    }


def _tapete_round(game: Game[Any, Any], seconds: float, seed: int, rng: random.Random) -> float:
    """Matches per second of random playouts for about ``seconds`` (a match of one hand size
    with no tie-break is one hand)."""
    matches = 0
    start = time.process_time()
    while True:
        _playout(game, seed + matches, rng)
        matches += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return matches / elapsed


def _openspiel_round(spiel_game: Any, seconds: float, rng: random.Random) -> float:
    """Hands per second of OpenSpiel random playouts, chance nodes sampled in Python."""
    hands = 0
    start = time.process_time()
    while True:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        hands += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return hands / elapsed


def compare_openspiel(
    spec: str, seconds: float = 5.0, seed: int = 0, rounds: int = 5
) -> Comparison:
    """tapete's ``spec`` and OpenSpiel's ``oh_hell`` of the same hand shape, ``rounds`` rounds
    each of ``seconds / rounds`` seconds, alternating; raises SpecError without OpenSpiel.

    OpenSpiel's ``oh_hell`` is one hand, so tapete plays the spec with
    ``tiebreak_players=nobody``: a tie for the lead then ends the match as it ends OpenSpiel's
    game, rather than dealing a second hand that would be counted as part of the first (about
    one match in four ties at four players)."""
    game = load(spec)
    shape = openspiel_shape(game)
    if game.params.tiebreak_players != "nobody":
        # OpenSpiel's hand ends the game; a tie for the lead would deal tapete a second hand.
        game = load(game.name, **{**game.changes, "tiebreak_players": "nobody"})
    try:
        import pyspiel
    except ImportError:
        raise SpecError(
            "--compare-openspiel needs OpenSpiel: pip install 'tapete[openspiel]'"
        ) from None
    spiel_game = pyspiel.load_game("oh_hell", shape)
    rng = random.Random(seed)
    slice_ = seconds / rounds
    ours: list[float] = []
    theirs: list[float] = []
    _tapete_round(game, 0.1, seed, rng)  # warm both up: tables, caches
    _openspiel_round(spiel_game, 0.1, rng)
    for r in range(rounds):
        ours.append(_tapete_round(game, slice_, seed + 1_000_000 * r, rng))
        theirs.append(_openspiel_round(spiel_game, slice_, rng))
    mine, other = statistics.median(ours), statistics.median(theirs)
    return Comparison(
        spec=game.spec,
        openspiel_params=shape,
        rounds=rounds,
        tapete_hands_per_second=mine,
        openspiel_hands_per_second=other,
        ratio=mine / other,
        tapete_rounds=tuple(ours),
        openspiel_rounds=tuple(theirs),
        compiled=compiled(),
    )
