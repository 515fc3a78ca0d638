"""Simulations a second of hard's search: ``python benchmarks/search.py [--specs ...]``.

For each game, the decisions of seat 0 along deals played by medium (two or more legal actions)
are searched with a fixed budget of sampled deals; the table gives the simulations (descent,
expansion and playout to the end of the deal) per second of CPU, the sampled deals per second,
and the median simulations per sampled deal (the root's options still in the race).

Instructions a simulation, which do not wander with the machine's load: run it under
``valgrind --tool=cachegrind --cache-sim=no`` with ``--iterations 20`` and again with
``--iterations 0`` (the same positions, no search), and divide the difference by the
simulations column.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time

from specs import GAMES

import tapete
from tapete import bots
from tapete.bots import Budget, search


def decisions(spec: str, wanted: int) -> list[tuple[object, list[int]]]:
    """Views and legal actions of seat 0's decisions along medium's play."""
    game = tapete.load(spec)
    medium = bots.load("medium")
    rng = random.Random(0)
    out: list[tuple[object, list[int]]] = []
    seed = 0
    while len(out) < wanted:
        state = game.new_state(seed)
        seed += 1
        while (seat := game.current_player(state)) is not None and len(out) < wanted:
            legal = game.legal_actions(state)
            view = game.observe(state, seat)
            if seat == 0 and len(legal) > 1:
                out.append((view, legal))
            state = game.apply(state, medium.choose(view, legal, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=50, help="sampled deals a decision")
    parser.add_argument(
        "--specs", default=";".join(GAMES), help="game specs separated by semicolons"
    )
    args = parser.parse_args()
    print(
        "| game | decisions | simulations | simulations/s | sampled deals/s | simulations a deal |"
    )
    print("|---|---|---|---|---|---|")
    for spec in [s.strip() for s in args.specs.split(";") if s.strip()]:
        game = tapete.load(spec)
        module = importlib.import_module(f"tapete.bots.{game.rules.__name__.rsplit('.', 1)[-1]}")
        knowledge_of = getattr(module, "knowledge", None)
        if knowledge_of is None:
            print(f"| `{spec}` | no search knowledge yet | | | | |")
            continue
        sims = deals = 0
        per: list[float] = []
        positions = decisions(spec, args.decisions)
        start = time.process_time()
        for view, legal in positions:
            stats = search.search(
                view,
                legal,
                random.Random(1),
                Budget(iterations=args.iterations),
                knowledge_of(view),
            )
            sims += stats.simulations
            deals += stats.iterations
            per.append(stats.simulations / max(1, stats.iterations))
        cpu = time.process_time() - start
        print(
            f"| `{spec}` | {args.decisions} | {sims} | {sims / max(cpu, 1e-9):,.0f} | "
            f"{deals / max(cpu, 1e-9):,.0f} | {statistics.median(per) if per else 0:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
