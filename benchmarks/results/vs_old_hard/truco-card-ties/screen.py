"""Head to head: hard with truco.VARIANT=v against hard (VARIANT='') in a duplicate arena."""

import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tapete import arena
from tapete.bots import Budget, LevelBot
from tapete.bots import truco as tb


class Variant:
    def __init__(self, variant: str, budget: str) -> None:
        self.variant = variant
        self.budget = budget
        self.name = f"hard[{variant or 'base'}]"
        kind, n = budget.split("=")
        b = Budget(iterations=int(n)) if kind == "iterations" else Budget(ms=int(n))
        self.bot = LevelBot("hard", b, self.name)

    def choose(self, view: Any, legal: Sequence[int], rng: random.Random) -> int:
        tb.VARIANT = self.variant
        try:
            return self.bot.choose(view, legal, rng)
        finally:
            tb.VARIANT = ""


if __name__ == "__main__":
    variant, budget, matches, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    spec = sys.argv[5] if len(sys.argv) > 5 else "truco(players=4)"
    result = arena.run(
        spec,
        [Variant(variant, budget), Variant("", budget)],
        matches=matches,
        workers=1,
        seed=seed,
    )
    for d in result.differences:
        print(f"{d.bot} - {d.other}: {d.mean:+.3f} [{d.low:+.3f}, {d.high:+.3f}] over {d.groups}")
    out = f"screen-{variant}-{budget}-{seed}.json"
    Path(out).write_text(arena.dumps(result))
