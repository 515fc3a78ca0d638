"""Environment steps per second: ``python benchmarks/rl.py [--seconds S] [--only TEXT]``.

For every game: the PettingZoo AEC env (``tapete.rl.env``: ``last()`` with the encoded
observation and action mask, a random legal action, ``step``) and the Gymnasium single-seat env
(``tapete.rl.single_agent`` against ``random`` seats, so the bots cost little: a step there is
the learner's move and every bot move up to its next turn). Beside them, in the same run,
PettingZoo's classic card environments where they install (``pettingzoo[classic]``, which
brings RLCard), through the same loop. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tapete.rl

SPECS = [
    "pocha",
    "pocha(players=4, schedule=9)",
    "oh_hell",
    "tute",
    "tute(players=4)",
    "truco",
    "truco(players=4)",
    "poch",
    "pottle",
]
CLASSIC = ["texas_holdem_v4", "leduc_holdem_v4", "gin_rummy_v4"]


def aec_steps(make: Callable[[], Any], seconds: float) -> tuple[float, int]:
    """Steps a second of the AEC loop with random legal actions; and how many steps."""
    env, rng = make(), np.random.default_rng(0)
    steps, seed = 0, 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            del agent
    return steps / (time.process_time() - start), steps


def single_steps(spec: str, seconds: float) -> float:
    """Steps a second of the single-seat env with random legal actions."""
    env, rng = tapete.rl.single_agent(spec, opponents="random"), np.random.default_rng(0)
    steps, seed = 0, 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start)


def classic(name: str) -> Callable[[], Any] | str:
    """PettingZoo's classic environment ``name``, raw (no wrappers, as ``tapete.rl.env``), or
    why it does not import here (its extra, RLCard or pygame, is missing)."""
    try:
        module = __import__(f"pettingzoo.classic.{name}", fromlist=["raw_env"])
    except Exception as missing:
        return str(missing)
    return module.raw_env  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--only", default="", help="only the specs that contain this text")
    args = parser.parse_args()
    print("| environment | AEC steps/s | single-agent steps/s |")
    print("|---|---|---|")
    rates: dict[str, float] = {}
    for spec in SPECS:
        if args.only not in spec:
            continue
        aec, _ = aec_steps(lambda spec=spec: tapete.rl.env(spec), args.seconds)
        rates[spec] = aec
        single = single_steps(spec, args.seconds)
        print(f"| `tapete.rl.env({spec!r})` | {aec:,.0f} | {single:,.0f} |", flush=True)
    for name in CLASSIC:
        if args.only not in name:
            continue
        make = classic(name)
        if isinstance(make, str):
            print(f"| PettingZoo `{name}` | not installed: {make} (`pettingzoo[classic]`) | |")
            continue
        aec, _ = aec_steps(make, args.seconds)
        rates[name] = aec
        print(f"| PettingZoo `{name}` | {aec:,.0f} | |", flush=True)
    if "pocha" in rates and "texas_holdem_v4" in rates:
        ratio = rates["pocha"] / rates["texas_holdem_v4"]
        print(f"\nPocha's AEC steps / texas_holdem_v4's: {ratio:.2f}")


if __name__ == "__main__":
    main()
