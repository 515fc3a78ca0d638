"""The coach's sanity and speed: does the review order the bot levels, and how long does it take?

From the project folder::

    python benchmarks/coach.py --matches 6 --iterations 150
    python benchmarks/coach.py --timing-only

**Order.** Plays ``--matches`` matches of ``--spec`` with one seat of each level (random, easy,
medium, hard at ``--hard``, seats rotated match by match), reviews every seat of every match at
``--iterations`` sampled deals a decision (a budget other than hard's own) and prints each level's
mean expected loss per decision with its 95% confidence interval, then the gap between each
level and the next one up, paired by match.

**Speed.** Reviews one seat of a whole 22-deal, 4-player Pocha match (``pocha(players=4)``,
medium bots) at the default budget on every core, and one seat of a single 10-card deal, and
prints the times.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import time

import tapete
from tapete import coach
from tapete.match import play

LEVELS = ("random", "easy", "medium", "hard")


def mean_ci(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def order(spec: str, matches: int, iterations: int, hard: str, workers: int) -> None:
    game = tapete.load(spec)
    per_match: dict[str, list[float]] = {level: [] for level in LEVELS}
    for m in range(matches):
        levels = [LEVELS[(m + s) % len(LEVELS)] for s in range(game.players)]
        names = [hard if level == "hard" else level for level in levels]
        _, record = play(game, names, seed=1000 + m)
        result = coach.review(record, iterations=iterations, seed=m, workers=workers)
        for seat, level in enumerate(levels):
            mine = [d.loss for d in result.decisions if d.seat == seat]
            if mine:
                per_match[level].append(statistics.fmean(mine))
        print(f"match {m + 1}/{matches} reviewed", flush=True)
    print(f"\n{spec}, {matches} matches, reviewed at {iterations} sampled deals a decision")
    print("| level | mean loss a decision (95% CI) |\n|---|---|")
    for level in LEVELS:
        print(f"| {level} | {mean_ci(per_match[level])} |")
    print("\n| gap | paired by match (95% CI) |\n|---|---|")
    for worse, better in itertools.pairwise(LEVELS):
        gaps = [a - b for a, b in zip(per_match[worse], per_match[better], strict=True)]
        print(f"| {worse} − {better} | {mean_ci(gaps)} |")


def timing(workers: int) -> None:
    game = tapete.load("pocha(players=4)")
    _, record = play(game, ["medium"] * 4, seed=7)
    start = time.perf_counter()
    whole = coach.review(record, seats=[0], workers=workers)
    elapsed = time.perf_counter() - start
    print(
        f"pocha(players=4), 22 deals, seat 0: {len(whole.decisions)} decisions reviewed in "
        f"{elapsed:.1f} s on {workers} workers at {coach.DEFAULT_ITERATIONS} sampled deals"
    )
    _, deal = play(tapete.load("pocha(players=4, schedule=[10])"), ["medium"] * 4, seed=7)
    start = time.perf_counter()
    one = coach.review(deal, seats=[0], workers=workers)
    print(
        f"one 10-card deal, seat 0: {len(one.decisions)} decisions in "
        f"{time.perf_counter() - start:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", default="pocha(players=4, schedule=[5, 7])")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--hard", default="hard(ms=200)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timing-only", action="store_true")
    args = parser.parse_args()
    if not args.timing_only:
        order(args.spec, args.matches, args.iterations, args.hard, args.workers)
    timing(args.workers)


if __name__ == "__main__":
    main()
