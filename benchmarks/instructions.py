"""Instructions a decision of random playouts, counted by cachegrind (stable on a busy machine).

``python benchmarks/instructions.py [SPEC ...] [--playouts N]``: for each spec, runs
``tapete.bench._playout`` over N seeded playouts (after one warm-up playout) under
``valgrind --tool=cachegrind --cache-sim=no``, subtracts the same run with no playouts, and
divides by the decisions played. Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

SPECS = ["pocha(players=4, schedule=9)", "pocha", "oh_hell", "tute", "truco", "poch", "pottle"]

_RUN = """
import random, sys
import tapete
from tapete.bench import _playout
game = tapete.load(sys.argv[1])
_playout(game, 10**6, random.Random(1))
rng, decisions = random.Random(0), 0
for seed in range(int(sys.argv[2])):
    decisions += _playout(game, seed, rng)
print(decisions)
"""


def _count(spec: str, playouts: int) -> tuple[int, int]:
    """(instructions, decisions) of a run of ``playouts`` playouts of ``spec``."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "cg.out")
        run = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={out}",
                sys.executable,
                "-c",
                _RUN,
                spec,
                str(playouts),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        decisions = int(run.stdout.strip()) if playouts else 0
        total = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        assert total is not None, run.stderr
        return int(total.group(1).replace(",", "")), decisions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("specs", nargs="*", default=SPECS)
    parser.add_argument("--playouts", type=int, default=200)
    args = parser.parse_args()
    print("| spec | decisions | instructions a decision |")
    print("|---|---|---|")
    for spec in args.specs:
        base, _ = _count(spec, 0)
        total, decisions = _count(spec, args.playouts)
        print(f"| `{spec}` | {decisions} | {(total - base) / decisions:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
