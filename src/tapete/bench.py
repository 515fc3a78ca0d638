"""Playout speed and memory: what ``tapete bench SPEC`` measures.

Random legal playouts of whole matches through the public ``Game`` API, as a search bot or an RL
loop drives the engine: matches per second and decisions per second; deals per second from the
mean number of deals a match has (counted in a second, untimed pass); then the peak
memory one playout allocates (tracemalloc, measured in a separate pass so it does not slow the
timing) and the process's peak resident size.
"""

from __future__ import annotations

import random
import resource
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass
from typing import Any

from tapete.game import Game
from tapete.games import load

__all__ = ["BenchResult", "run"]


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

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        return (
            f"{self.spec}: {self.matches_per_second:,.0f} matches/s, "
            f"{self.deals_per_second:,.0f} deals/s, {self.decisions_per_second:,.0f} decisions/s "
            f"({self.matches:,} random playouts in {self.seconds:.1f} s); "
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
    start = time.perf_counter()
    while True:
        decisions += _playout(game, seed + matches, rng)
        matches += 1
        elapsed = time.perf_counter() - start
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
    )
