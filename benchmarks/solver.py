"""The exact open-hand solver: ``python benchmarks/solver.py``.

Solves full 4-player Pocha hands of 4–7 cards (the most tricks mano can take against the rest)
and full two-player Tute endgames (from the first trick after the stock, both hands open, eight
cards each: the most card points the leader can take) from seeded deals, and reports nodes per
second and the time per solve.
"""

from __future__ import annotations

import random
import statistics
import time

import tapete
from tapete.bots.solver import Position, Solver
from tapete.games import pocha, tute


def pocha_positions(size: int, count: int) -> list[Position]:
    game = tapete.load(f"pocha(schedule={size})")
    out = []
    for seed in range(count):
        state = game.new_state(seed)
        while game.observe(state, None).phase == pocha.Phase.BID:
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


def tute_endgames(count: int) -> list[Position]:
    """Two-player Tute deals played to the end of the stock (seeded random cards, no cantes)."""
    game = tapete.load("tute")
    out = []
    for seed in range(count):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while len(state.tricks) < tute.DRAWS:
            state = game.apply(state, rng.choice([a for a in game.legal_actions(state) if a < 64]))
        leader = state.leader
        out.append(
            Position(
                hands=list(state.hands),
                seats=(leader, 1 - leader),  # the leader first: he is the side counted
                trick=(),
                leader=leader,
                trump=state.deal.trump,
                order=tute.ORDER,
                last_trick_bonus=0,
                points=tute.POINTS,
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
    measure("Tute, 2 players, after the stock: 8 cards each", tute_endgames(20))


if __name__ == "__main__":
    main()
