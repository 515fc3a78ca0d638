"""Decision time of each bot level: ``python benchmarks/bots.py [--decisions N] [--levels ...]``.

Seat 0 is the bot under test, the other seats play medium; the time of each of seat 0's
decisions with two or more legal actions is recorded until N are collected.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import tapete
from tapete import bots
from tapete.errors import SpecError

SPECS = [
    "pocha",
    "oh_hell",
    "tute",
    "tute(players=4)",
    "truco",
    "truco(players=4)",
    "poch",
    "pottle",
]


def timings(spec: str, level: str, wanted: int) -> list[float]:
    game = tapete.load(spec)
    bot = bots.load(level)
    others = bots.load("medium")
    rng = random.Random(0)
    out: list[float] = []
    seed = 0
    while len(out) < wanted:
        state = game.new_state(seed)
        seed += 1
        while (seat := game.current_player(state)) is not None and len(out) < wanted:
            legal = game.legal_actions(state)
            view = game.observe(state, seat)
            if seat == 0 and len(legal) > 1:
                start = time.perf_counter()
                action = bot.choose(view, legal, rng)
                out.append(time.perf_counter() - start)
            else:
                action = others.choose(view, legal, rng)
            state = game.apply(state, action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--specs", default=",".join(SPECS), help="';'-free list, comma separated")
    args = parser.parse_args()
    print("| game | level | decisions | median | 95th percentile | max |")
    print("|---|---|---|---|---|---|")
    for spec in [s for s in SPECS if s in args.specs.split(",")] or SPECS:
        for level in args.levels.split(","):
            try:
                t = sorted(timings(spec, level, args.decisions))
            except SpecError as exc:
                print(f"| `{spec}` | {level} | {exc} | | | |")
                continue
            p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
            print(
                f"| `{spec}` | {level} | {len(t)} | {statistics.median(t) * 1000:,.2f} ms | "
                f"{p95 * 1000:,.2f} ms | {t[-1] * 1000:,.2f} ms |",
                flush=True,
            )


if __name__ == "__main__":
    main()
