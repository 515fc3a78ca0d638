"""Decision time of each bot level: ``python benchmarks/bots.py [--decisions N] [--levels ...]``.

Seat 0 is the bot under test, the other seats play medium; the time of each of seat 0's
decisions with two or more legal actions is recorded until N are collected. Wall-clock times are
what a player waits; the CPU column (this process's own time) shows what a loaded machine adds;
for hard, "sampled" is the median number of sampled deals (search iterations) a decision ran
(``--by-phase``: also of each phase's decisions, e.g. Pottle's bids, trump and cards).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field, fields

from specs import GAMES

import tapete
from tapete import bots
from tapete.bots import Budget, Clock, LevelBot
from tapete.errors import SpecError
from tapete.players import split_seats


@dataclass(frozen=True)
class CountingBudget(Budget):
    """The same budget, keeping every clock it hands out so iterations can be counted."""

    clocks: list[Clock] = field(default_factory=list, compare=False)

    def clock(self) -> Clock:
        self.clocks.append(Clock(self))
        return self.clocks[-1]


@dataclass
class Timings:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)
    phases: list[str] = field(default_factory=list)  # each decision's phase, where views have one


def _bot(level: str, budget: CountingBudget) -> bots.Bot:
    bot = bots.load(level)
    if isinstance(bot, LevelBot):
        # Every option of the level's budget carries over (tree=none included), only counted.
        options = {f.name: getattr(bot.budget, f.name) for f in fields(Budget)}
        return LevelBot(bot.level, CountingBudget(**options, clocks=budget.clocks), bot.name)
    return bot


def timings(spec: str, level: str, wanted: int) -> Timings:
    """Wall-clock and CPU seconds (and search iterations) of ``wanted`` decisions at seat 0."""
    game = tapete.load(spec)
    counting = CountingBudget()
    bot = _bot(level, counting)
    others = bots.load("medium")
    rng = random.Random(0)
    out = Timings()
    seed = 0
    while len(out.wall) < wanted:
        state = game.new_state(seed)
        seed += 1
        while (seat := game.current_player(state)) is not None and len(out.wall) < wanted:
            legal = game.legal_actions(state)
            view = game.observe(state, seat)
            if seat == 0 and len(legal) > 1:
                counting.clocks.clear()
                start, start_cpu = time.perf_counter(), time.process_time()
                action = bot.choose(view, legal, rng)
                out.wall.append(time.perf_counter() - start)
                out.cpu.append(time.process_time() - start_cpu)
                out.sampled.append(sum(c.done for c in counting.clocks))
                phase = getattr(view, "phase", None)
                out.phases.append(str(getattr(phase, "name", phase)).lower())
            else:
                action = others.choose(view, legal, rng)
            state = game.apply(state, action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument(
        "--specs", default=";".join(GAMES), help="game specs separated by semicolons"
    )
    parser.add_argument(
        "--by-phase", action="store_true", help="also the sampled deals of each phase's decisions"
    )
    args = parser.parse_args()
    print("| game | level | decisions | median | 95th percentile | max | max CPU | sampled |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in [s.strip() for s in args.specs.split(";") if s.strip()]:
        for level in [name.strip() for name in split_seats(args.levels)]:  # hard(ms=1, ...)
            try:
                got = timings(spec, level, args.decisions)
            except SpecError as exc:
                print(f"| `{spec}` | {level} | {exc} | | | | | |")
                continue
            t = sorted(got.wall)
            p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
            sampled = f"{statistics.median(got.sampled):,.0f}" if any(got.sampled) else ""
            print(
                f"| `{spec}` | {level} | {len(t)} | {statistics.median(t) * 1000:,.2f} ms | "
                f"{p95 * 1000:,.2f} ms | {t[-1] * 1000:,.2f} ms | {max(got.cpu) * 1000:,.2f} ms | "
                f"{sampled} |",
                flush=True,
            )
            if args.by_phase and any(got.sampled):
                for phase in dict.fromkeys(got.phases):
                    each = [n for n, p in zip(got.sampled, got.phases, strict=True) if p == phase]
                    print(f"|  | {phase} | {len(each)} | | | | | {statistics.median(each):,.0f} |")


if __name__ == "__main__":
    main()
