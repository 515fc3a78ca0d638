"""What Poch's race search is worth: ``python benchmarks/poch_race.py [--ms 100] [--matches 160]``.

A duplicate arena (``tapete.arena``) of ``poch(rounds=4)`` between hard and the same hard with
medium's leads in the shedding race: both bet as hard does (the poker round is the same search),
so the difference is what hard's search of the race adds to medium's count of it. Prints the
arena's table and the difference a match with its 95% confidence interval.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from rich.console import Console

from tapete import arena, bots
from tapete.bots import Decision
from tapete.games import poch


class MediumRace:
    """Hard's bets, medium's leads in the race."""

    kind = "bot"

    def __init__(self, ms: int) -> None:
        self.hard = bots.LevelBot("hard", bots.Budget(ms=ms))
        self.medium = bots.LevelBot("medium")
        self.name = f"hard(ms={ms}) with medium's race"

    def decide(self, view: poch.View, legal: Sequence[int], rng: random.Random) -> Decision:
        racing = len(legal) > 1 and view.phase != poch.Phase.POKER
        decision: Decision = (self.medium if racing else self.hard).decide(view, legal, rng)
        return decision

    def choose(self, view: poch.View, legal: Sequence[int], rng: random.Random) -> int:
        return self.decide(view, legal, rng).action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ms", type=int, default=100, help="hard's budget a decision")
    parser.add_argument("--matches", type=int, default=160)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    result = arena.run(
        "poch(rounds=4)",
        [f"hard(ms={args.ms})", MediumRace(args.ms)],
        matches=args.matches,
        workers=1,  # the agent object stays in this process
        seed=args.seed,
    )
    arena.report(result, Console(width=160))


if __name__ == "__main__":
    main()
