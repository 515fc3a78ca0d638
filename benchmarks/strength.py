"""The strength table of docs/bots.md: ``python benchmarks/strength.py [--only TEXT] [--out DIR]``.

Every row is one duplicate arena (``tapete arena``) between two neighbouring levels, or between
hard and random, for every game and player count. Hard runs in its deterministic mode
(``hard(iterations=N)``), so every number is reproducible on any machine, however loaded; the
iteration counts are far below what the default 500 ms budget samples (see docs/bots.md), so these
rows understate hard. Each arena's JSON lands in ``--out`` (default ``arena-results/``), and a row
whose JSON is already there is read back rather than replayed, so an interrupted run resumes.
The markdown rows print as they finish, each with the ``tapete arena`` command that reproduces it.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from tapete import arena


class Row(NamedTuple):
    label: str
    spec: str
    bot: str
    other: str
    matches: int
    seed: int
    workers: int | None = None  # one for time budgets: a busier machine would weaken the bot


def _rows(label: str, spec: str, hard: str, cheap: int, costly: int, vs_random: int) -> list[Row]:
    """The four steps of one game: easy > random, medium > easy, hard > medium, hard > random."""
    return [
        Row(label, spec, "easy", "random", cheap, 1),
        Row(label, spec, "medium", "easy", cheap, 2),
        Row(label, spec, hard, "medium", costly, 3),
        Row(label, spec, hard, "random", vs_random, 4),
    ]


ROWS = [
    *_rows("Pocha 4p", "pocha", "hard(iterations=8)", 60, 24, 12),
    *_rows("Oh Hell 4p", "oh_hell", "hard(iterations=8)", 60, 24, 12),
    *_rows("Tute 2p", "tute", "hard(iterations=30)", 2000, 200, 50),
    *_rows("Tute 4p", "tute(players=4)", "hard(iterations=30)", 2000, 200, 50),
    *_rows("Truco 1v1", "truco", "hard(iterations=20)", 600, 400, 100),
    *_rows("Truco 2v2", "truco(players=4)", "hard(iterations=20)", 600, 400, 100),
    *_rows("Poch 4p", "poch(rounds=8)", "hard(iterations=20)", 600, 160, 40),
    *_rows("Pottle 4p", "pottle", "hard(iterations=10)", 800, 80, 20),
    # hard at its default budget, where a match is short enough to afford it
    Row("Tute 2p", "tute", "hard", "medium", 40, 5, workers=1),
    Row("Truco 1v1", "truco", "hard", "medium", 40, 5, workers=1),
]


def command(row: Row) -> str:
    """The ``tapete arena`` command line that plays this row."""
    spec = row.spec if re.fullmatch(r"\w+", row.spec) else shlex.quote(row.spec)
    bots = shlex.quote(f"{row.bot},{row.other}") if "(" in row.bot else f"{row.bot},{row.other}"
    workers = "" if row.workers is None else f" --workers {row.workers}"
    return f"tapete arena {spec} --bots {bots} --matches {row.matches} --seed {row.seed}{workers}"


def measure(row: Row, out: Path, workers: int | None) -> arena.ArenaResult:
    """Play the row's arena, or read it back from ``out`` if an earlier run saved it."""
    name = f"{row.spec}-{row.bot}-{row.other}-{row.matches}-{row.seed}"
    name = re.sub(r"\W+", "_", name).strip("_")
    path = out / f"{name}.json"
    if path.exists():
        return arena.loads(path.read_text())
    result = arena.run(
        row.spec,
        [row.bot, row.other],
        matches=row.matches,
        workers=row.workers or workers,
        seed=row.seed,
    )
    path.write_text(arena.dumps(result))
    return result


def markdown(row: Row, result: arena.ArenaResult) -> str:
    d = result.difference(row.bot, row.other)
    level = "hard (500 ms)" if row.bot == "hard" else row.bot.split("(")[0]
    matches = len(result.matches)
    diff = f"{d.mean:+.1f} [{d.low:+.1f}, {d.high:+.1f}]"
    return f"| {row.label} | {level} vs {row.other} | {matches} | {diff} | `{command(row)}` |"


def arguments(description: str) -> argparse.ArgumentParser:
    """The options of a table of arena rows: ``--only``, ``--out`` and ``--workers``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--only", default="", help="rows whose game or spec contains this text")
    parser.add_argument("--out", type=Path, default=Path("arena-results"))
    parser.add_argument("--workers", type=int, default=None, help="default: every core")
    return parser


def play(
    rows: list[Row],
    args: argparse.Namespace,
    header: str,
    markdown: Callable[[Row, arena.ArenaResult], str],
) -> None:
    """Play (or read back) the rows ``--only`` keeps, printing each markdown row as it ends."""
    args.out.mkdir(parents=True, exist_ok=True)
    print(header)
    print("|---" * header.count("|", 1) + "|", flush=True)
    for row in rows:
        if args.only and args.only not in row.label and args.only not in row.spec:
            continue
        start = time.perf_counter()
        result = measure(row, args.out, args.workers)
        took = time.perf_counter() - start
        print(markdown(row, result), flush=True)
        print(f"{row.label}, {row.bot} vs {row.other}: {took:.0f} s", file=sys.stderr)


def main() -> None:
    args = arguments(__doc__.split("\n")[0]).parse_args()
    play(ROWS, args, "| game | pair | matches | mean difference, 95% CI | command |", markdown)


if __name__ == "__main__":
    main()
