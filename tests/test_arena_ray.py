"""Arenas on Ray: the duplicate groups as Ray tasks (a local Ray here) give the same table as a
local run for the same seed, with bots whose budget counts iterations."""

from __future__ import annotations

import pytest

from tapete import arena

ray = pytest.importorskip("ray")


def test_a_ray_arena_gives_the_numbers_of_a_local_one() -> None:
    bots = ["hard(iterations=4)", "medium", "random"]
    local = arena.run("pocha(schedule=[1, 2])", bots, matches=12, workers=1, seed=3)
    try:
        on_ray = arena.run("pocha(schedule=[1, 2])", bots, matches=12, seed=3, ray="")
    finally:
        ray.shutdown()
    assert on_ray == local
    assert arena.dumps(on_ray) == arena.dumps(local)
