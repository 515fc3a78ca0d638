"""The exact open-hand solver: ``python benchmarks/solver.py``.

Solves full 4-player Pocha hands of 4–7 cards (the most tricks mano can take against the rest)
from seeded deals, and reports nodes per second and the time per solve.
"""

from __future__ import annotations

import statistics
import time

import tapete
from tapete.bots.solver import Position, Solver


def pocha_positions(size: int, count: int) -> list[Position]:
    game = tapete.load(f"pocha(schedule={size})")
    out = []
    for seed in range(count):
        state = game.new_state(seed)
        while game.observe(state, None).phase == "bid":
            state = game.apply(state, game.legal_actions(state)[0])
        out.append(
            Position(
                hands=list(state.hands),
                seats=state.deal.seats,
                trick=(),
                leader=state.leader,
                trump=state.deal.trump,
                order=state.deal.order,
            )
        )
    return out


def measure(label: str, positions: list[Position]) -> None:
    times, nodes = [], 0
    for pos in positions:
        solver = Solver(pos, {pos.seats[0]}, {pos.seats[0]})
        start = time.perf_counter()
        solver.run()
        times.append(time.perf_counter() - start)
        nodes += solver.nodes
    total = sum(times)
    print(
        f"| {label} | {len(positions)} | {statistics.median(times) * 1000:,.1f} ms | "
        f"{max(times) * 1000:,.1f} ms | {nodes / total:,.0f} |",
        flush=True,
    )


def main() -> None:
    print("| position | solves | median | worst | nodes/s |")
    print("|---|---|---|---|---|")
    for size in (4, 5, 6, 7):
        measure(f"Pocha, 4 players, {size} cards each", pocha_positions(size, 10))


if __name__ == "__main__":
    main()
