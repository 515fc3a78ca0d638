"""Today's bots against the bots of a tagged commit, in duplicate matches with both engines in step.

``python benchmarks/vs_old_hard.py --new hard --old hard --pairs 40 --out results/`` plays, for
every game spec (``--spec``, repeatable; default: every game and player count, deal-sized where a
full match is long), ``--pairs`` duplicate groups between a bot of this tree (``--new``) and a bot
of the tag (``--old``, default tag ``hard-v1``, the last commit with the flat Monte Carlo hard:
e0b396028445686465ca602e68adfd588d42efa7; in a clone without the tag, ``git tag hard-v1 e0b3960``
makes it again).

**The old code** is read from git (``git archive TAG src/tapete``) into a temporary folder, its
package renamed ``tapete_v1`` (every ``tapete.`` import and module path rewritten), and imported
beside today's ``tapete``; the folder is removed at exit. Nothing of the old code stays in ``src``.

**Lockstep.** Every match is played twice over: today's engine is the referee, the tag's engine
follows the same actions, and each bot decides from its own engine's view of its seat with its own
engine's view (views differ between versions). Before every step the two engines must agree on
the seat to act and its legal actions, and at the end on the scores; the first disagreement
stops the run with the spec, seed, step and both sides' answers. One disagreement is allowed:
where the tag's rules allow more than today's (a rule tightened since, such as Tute's one swap a
turn), both bots choose among today's legal actions, which the tag's engine accepts too; where
the tag's bot still answers with one only its rules allow (its search plans from its own
engine), the tag's medium answers that decision instead, and the group's line counts these
``stand_ins``.

**Duplicate groups** are those of ``tapete arena`` (``tapete.arena.assignments``): one seed
played once per seat assignment of the two bots (seats, or teams where the game has them), with
the seat RNGs of ``tapete.match.seat_rng``; a group's difference is the mean over its matches of
the new bot's score minus the old one's (``tapete.arena.bot_scores``: points, or net chips), and
the table gives the mean over groups with a 95% Student-t interval.

**Filled tables** (``--fill medium``): the two bots share a table with a third, today's, at
every other seat: today's bot at seat 0, the tag's half the table away, the filler between them,
and a group plays every rotation of that table (each bot at every seat, the same cards). Where
two searches at one table make each other's game empty (Pottle: each outbids the other until no
contract can be made, and every score is 0), a table of players who bid for what they can make
shows which of the two takes more from it. With ``--apart`` the two never meet: each plays its
own tables with the filler at every other seat, one match for each seat on the same cards, and
a group's difference is today's mean score minus the tag's (how much more each takes from the
same table of fillers; games without teams).

**Resumable.** Each group finished is one JSON line in ``--out``
(``<spec>--<new>--vs--<old>@<tag>.jsonl``); a later run with the same options skips the groups
already there, so a long run can span sessions, and ``--pairs`` can grow between runs. Each line
also holds every decision's CPU time of both bots (decisions with a choice), for the speed columns,
and every match's actions (shards written before they were kept lack them), so a match can be
replayed on today's engine to see where the points went (``benchmarks/split.py``,
``benchmarks/pottle_auction.py``).
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import json
import math
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import tapete
from tapete import arena
from tapete import bots as new_bots
from tapete.game import Game
from tapete.match import seat_rng

TAG = "hard-v1"
# The commit the tag names: a clone without tags (git clone of a branch, many CI checkouts) still
# has it in its history.
TAG_COMMIT = "e0b396028445686465ca602e68adfd588d42efa7"
PACKAGE = "tapete_v1"

# Every game and player count; a deal or a few where a whole match is long for the search.
# Pocha and Oh Hell without the play-off hand for tied leaders: the tag seats it differently,
# and it is one more hand of the same game, not what the comparison is about.
SPECS = [
    "pocha(players=3, schedule=[6], tiebreak_players=nobody)",
    "pocha(schedule=[5], tiebreak_players=nobody)",
    "pocha(players=5, max_players=8, schedule=[5], tiebreak_players=nobody)",
    "oh_hell(schedule=[7], tiebreak_players=nobody)",
    "tute",
    "tute(players=4)",
    "truco",
    "truco(players=4)",
    "poch(rounds=4)",
    "pottle(deals=4, extra_deals=0)",
]


class DivergenceError(RuntimeError):
    """The two engines disagree: the comparison would no longer be one game."""


# --- the old code --------------------------------------------------------------------------

_IMPORT = re.compile(r"^(\s*)(from|import) tapete\b", re.MULTILINE)
_MODULE_PATH = re.compile(r"""((?<!\w)f?["'])tapete\.""")


def _rename(source: str) -> str:
    """``source`` with the package ``tapete`` renamed: imports and module paths in strings."""
    source = re.sub(
        r"^(\s*)import tapete$", r"\1import tapete_v1 as tapete", source, flags=re.MULTILINE
    )
    source = _IMPORT.sub(rf"\1\2 {PACKAGE}", source)
    return _MODULE_PATH.sub(rf"\1{PACKAGE}.", source)


def extract(tag: str = TAG, repo: Path | None = None) -> Path:
    """A temporary folder holding the tag's ``src/tapete`` as the package ``tapete_v1``.

    Raises LookupError when git is missing, or neither the tag nor the commit it names is in the
    history (a shallow clone). The folder is removed when the process exits.
    """
    repo = repo or Path(__file__).resolve().parent.parent
    git = shutil.which("git")
    if git is None:
        raise LookupError("git is not installed")
    names = [tag, TAG_COMMIT] if tag == TAG else [tag]
    for name in names:
        found = subprocess.run(
            [git, "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"],
            capture_output=True,
            text=True,
        )
        if found.returncode == 0:
            tag = found.stdout.strip()
            break
    else:
        raise LookupError(f"no commit {tag!r} in {repo} (a shallow clone? git fetch --unshallow)")
    folder = Path(tempfile.mkdtemp(prefix=f"{PACKAGE}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    archive = subprocess.run(
        [git, "-C", str(repo), "archive", "--format=tar", tag, "src/tapete"],
        capture_output=True,
        check=True,
    )
    tar_path = folder / "old.tar"
    tar_path.write_bytes(archive.stdout)
    with tarfile.open(tar_path) as tar:
        tar.extractall(folder, filter="data")
    tar_path.unlink()
    package = folder / PACKAGE
    (folder / "src" / "tapete").rename(package)
    (folder / "src").rmdir()
    for path in package.rglob("*.py"):
        path.write_text(_rename(path.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


def load_old(folder: Path) -> ModuleType:
    """The old package ``tapete_v1`` from a folder made by ``extract`` (imported once)."""
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    old = importlib.import_module(PACKAGE)
    old_bots = importlib.import_module(f"{PACKAGE}.bots")
    # The tag's clock is the wall clock; today's is the thread's CPU time. Both are put on CPU
    # time so that a busy machine (other runs, other programs) takes nothing from either bot.
    old_bots.time = _CpuTime()  # type: ignore[attr-defined]
    new_bots.Clock.WALL_CAP = 1000
    return old


class _CpuTime:
    """``time`` for the tag's bots: its ``perf_counter`` is the thread's CPU time."""

    perf_counter = staticmethod(time.thread_time)
    thread_time = staticmethod(time.thread_time)


# --- one duplicate group -------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One match of a group: the bot at each seat (0 new, 1 old, 2 the filler), scores, the
    compared bots' scores."""

    seats: tuple[int, ...]
    scores: tuple[int, ...]
    new: float | None  # None: the bot was not at the table (``--apart``)
    old: float | None
    stand_ins: int = 0  # the tag's bot's decisions its medium made (see ``play_match``)
    actions: tuple[int, ...] = ()  # every action of the match, to replay it for a closer look


def play_match(
    game: Game,
    old_game: Any,
    bots: Sequence[Any],
    seats: Sequence[int],
    seed: int,
    times: tuple[list[float], list[float]] | None = None,
    stand_in: Any = None,
) -> Match:
    """Play one match with both engines in step: ``bots[0]`` is today's, ``bots[1]`` the tag's,
    ``bots[2]`` (if any) today's filler.

    ``seats[i]`` is the bot at seat ``i``. Decision times (ms, decisions with a choice) are
    appended to ``times`` per bot. Raises DivergenceError at the first step where the engines
    disagree. Where the tag's bot answers with an action only the tag's rules allow (its search
    plans from its own engine's actions), ``stand_in`` (the tag's medium) answers that decision
    for it, counted in ``Match.stand_ins``; without one, such an answer is an error.
    """
    state = game.new_state(seed)
    old_state = old_game.new_state(seed)
    rngs = [seat_rng(seed, s) for s in range(game.players)]
    step = stand_ins = 0
    actions: list[int] = []

    def diverged(what: str, new: object, old: object) -> DivergenceError:
        return DivergenceError(
            f"{game.spec}, seed {seed}, step {step}: the engines disagree on {what}:"
            f" today {new!r}, {TAG} {old!r}"
        )

    while True:
        seat = game.current_player(state)
        old_seat = old_game.current_player(old_state)
        if seat != old_seat:
            raise diverged("the seat to act", seat, old_seat)
        if seat is None:
            break
        legal = game.legal_actions(state)
        old_legal = old_game.legal_actions(old_state)
        if list(legal) != list(old_legal) and not set(legal) < set(old_legal):
            raise diverged(f"seat {seat}'s legal actions", legal, old_legal)
        bot = seats[seat]
        start = time.thread_time()
        if bot != 1:
            action = bots[bot].choose(game.observe(state, seat), legal, rngs[seat])
        else:
            old_view = old_game.observe(old_state, seat)
            action = bots[1].choose(old_view, legal, rngs[seat])
            if action not in legal and action in old_legal and stand_in is not None:
                action = stand_in.choose(old_view, legal, rngs[seat])
                stand_ins += 1
        if times is not None and len(legal) > 1 and bot < 2:
            times[bot].append((time.thread_time() - start) * 1000)
        error = game.why_illegal(state, action)
        if error is not None:
            raise error
        state = game.apply(state, action)
        old_state = old_game.apply(old_state, action)
        actions.append(action)
        step += 1
    outcome, old_outcome = game.outcome(state), old_game.outcome(old_state)
    assert outcome is not None
    if old_outcome is None or tuple(outcome.scores) != tuple(old_outcome.scores):
        raise diverged("the final scores", outcome.scores, old_outcome and old_outcome.scores)
    result = arena.MatchResult(0, seed, tuple(seats), tuple(outcome.scores), outcome.winners)
    mine = arena.bot_scores(game, result)
    return Match(
        tuple(seats), tuple(outcome.scores), mine.get(0), mine.get(1), stand_ins, tuple(actions)
    )


_OLD: dict[str, Any] = {}


def _worker_init(folder: str) -> None:
    _OLD["package"] = load_old(Path(folder))


def filled(players: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of a filled table's group: every rotation of today's bot (0) at seat 0, the
    tag's (1) half the table away and the filler (2) elsewhere.

    >>> filled(4)
    ((0, 2, 1, 2), (2, 0, 2, 1), (1, 2, 0, 2), (2, 1, 2, 0))
    """
    table = [2] * players
    table[0], table[players // 2] = 0, 1
    return tuple(
        tuple(table[(s - turn) % players] for s in range(players)) for turn in range(players)
    )


def apart(players: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of an ``--apart`` group: today's bot (0) at every seat in turn with the
    filler (2) elsewhere, then the tag's (1) the same way.

    >>> apart(3)
    ((0, 2, 2), (2, 0, 2), (2, 2, 0), (1, 2, 2), (2, 1, 2), (2, 2, 1))
    """
    return tuple(
        tuple(bot if s == seat else 2 for s in range(players))
        for bot in (0, 1)
        for seat in range(players)
    )


Task = tuple[str, str, str, int, int, str, bool]  # spec, bots, seed, group, filler, apart


def play_group(task: Task) -> dict[str, Any]:
    """Play one duplicate group; the JSON line that records it."""
    spec, new_name, old_name, base_seed, group, fill, alone = task
    old = _OLD["package"]
    game = tapete.load(spec)
    old_game = old.load(spec)
    seed = arena.group_seed(base_seed, group)
    times: tuple[list[float], list[float]] = ([], [])
    matches = []
    if alone:
        seatings = apart(game.players)
    elif fill:
        seatings = filled(game.players)
    else:
        seatings = arena.assignments(game.players, 2, game.teams)
    for seats in seatings:
        # Fresh bots: nothing carries over between matches.
        bots = [new_bots.load(new_name), old.bots.load(old_name)]
        if fill:
            bots.append(new_bots.load(fill))
        stand_in = old.bots.load("medium")
        matches.append(play_match(game, old_game, bots, seats, seed, times, stand_in))
    return {
        "spec": game.spec,
        "new": new_name,
        "old": old_name,
        **({"fill": fill} if fill else {}),
        **({"apart": True} if alone else {}),
        "tag": TAG,
        "seed": base_seed,
        "group": group,
        "group_seed": seed,
        # Each bot's mean over the matches it played: with both at every table, the mean of the
        # differences.
        "difference": statistics.fmean(m.new for m in matches if m.new is not None)
        - statistics.fmean(m.old for m in matches if m.old is not None),
        "matches": [
            {
                "seats": list(m.seats),
                "scores": list(m.scores),
                "new": m.new,
                "old": m.old,
                "actions": list(m.actions),
            }
            for m in matches
        ],
        "new_ms": [round(t, 2) for t in times[0]],
        "old_ms": [round(t, 2) for t in times[1]],
        "stand_ins": sum(m.stand_ins for m in matches),
    }


# --- shards and the summary ----------------------------------------------------------------


def shard(
    out: Path,
    spec: str,
    new_name: str,
    old_name: str,
    seed: int,
    fill: str = "",
    alone: bool = False,
) -> Path:
    """The results file of one spec and pair of bots (one JSON line per group)."""
    name = f"{spec}--{new_name}--vs--{old_name}@{TAG}--seed{seed}"
    if fill:
        name += f"--fill-{fill}"
    if alone:
        name += "--apart"
    return out / (re.sub(r"[^\w.@=-]+", "_", name).strip("_") + ".jsonl")


def read_shard(path: Path) -> list[dict[str, Any]]:
    """The groups recorded in a shard (a torn last line, from an interrupted run, is skipped)."""
    if not path.exists():
        return []
    lines = []
    for line in path.read_text().splitlines():
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return lines


def replayable(
    doc: str | None, argv: Sequence[str] | None
) -> tuple[argparse.ArgumentParser, list[dict[str, Any]], int]:
    """The command line of a script that replays shards (``SHARD...``): its parser, the groups
    whose lines hold their matches' actions, and how many groups lack them (written before
    shards kept them). None holding them is a usage error."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("shards", nargs="+", type=Path)
    args = parser.parse_args(argv)
    groups = [g for path in args.shards for g in read_shard(path)]
    kept = [g for g in groups if all("actions" in m for m in g["matches"])]
    if not kept:
        parser.error("no group in these shards holds its matches' actions")
    return parser, kept, len(groups) - len(kept)


@dataclass(frozen=True)
class Summary:
    spec: str
    pairs: int
    mean: float
    low: float
    high: float
    new_ms: tuple[float, float]  # median, p95
    old_ms: tuple[float, float]


def _quantiles(times: list[float]) -> tuple[float, float]:
    if not times:
        return (math.nan, math.nan)
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% Student-t interval (NaN ends with fewer than two)."""
    mean = statistics.fmean(values)
    half = math.nan
    if len(values) > 1:
        half = arena.t_quantile(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def summarise(spec: str, groups: list[dict[str, Any]]) -> Summary:
    """Mean difference per match over the groups, with its 95% CI, and decision times."""
    diffs = [g["difference"] for g in groups]
    new_ms = [t for g in groups for t in g["new_ms"]]
    old_ms = [t for g in groups for t in g["old_ms"]]
    return Summary(spec, len(diffs), *interval(diffs), _quantiles(new_ms), _quantiles(old_ms))


def run(
    specs: Sequence[str],
    new_name: str,
    old_name: str,
    pairs: int,
    out: Path,
    seed: int = 0,
    workers: int = 1,
    folder: Path | None = None,
    fill: str = "",
    alone: bool = False,
) -> Iterator[Summary]:
    """Play what is missing of ``pairs`` groups per spec into ``out``; a summary per spec.

    ``alone``: each bot on its own tables of ``fill`` (``--apart``), games without teams only."""
    if alone and not fill:
        raise ValueError("--apart needs --fill: the bot at the other seats")
    out.mkdir(parents=True, exist_ok=True)
    folder = folder or extract()
    _worker_init(str(folder))
    old = _OLD["package"]
    new_bots.load(new_name)
    old.bots.load(old_name)
    if fill:
        new_bots.load(fill)
    for spec in specs:
        game = tapete.load(spec)
        if alone and game.teams is not None:
            raise ValueError(f"--apart: {game.spec} is played by teams; a bot has no table alone")
        canonical = game.spec
        path = shard(out, canonical, new_name, old_name, seed, fill, alone)
        done = {g["group"] for g in read_shard(path)}
        # The tag's engine gets the spec as written: a default that changed since the tag
        # (Oh Hell's tie-break) must be named to hold in both engines.
        tasks: list[Task] = [
            (spec, new_name, old_name, seed, g, fill, alone) for g in range(pairs) if g not in done
        ]
        with path.open("a") as sink:
            for line in _map(tasks, workers, folder):
                sink.write(json.dumps(line) + "\n")
                sink.flush()
        groups = [g for g in read_shard(path) if g["group"] < pairs]
        yield summarise(canonical, groups)


def _map(tasks: list[Task], workers: int, folder: Path) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(tasks) <= 1:
        yield from map(play_group, tasks)
        return
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_worker_init, initargs=(str(folder),)
    ) as pool:
        for future in as_completed([pool.submit(play_group, t) for t in tasks]):
            yield future.result()


def _row(s: Summary, new_name: str, old_name: str) -> str:
    return (
        f"| {s.spec} | {new_name} vs {old_name}@{TAG} | {s.pairs} | {s.mean:+.2f}"
        f" [{s.low:+.2f}, {s.high:+.2f}] | {s.new_ms[0]:.1f}, {s.new_ms[1]:.1f} ms"
        f" | {s.old_ms[0]:.1f}, {s.old_ms[1]:.1f} ms |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", action="append", help="a game spec (repeatable; default: all)")
    parser.add_argument("--new", default="hard", help="today's bot (default hard)")
    parser.add_argument("--old", default="hard", help=f"the bot of {TAG} (default hard)")
    parser.add_argument("--pairs", type=int, default=20, help="duplicate groups per spec")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("vs-old-hard-results"))
    parser.add_argument(
        "--fill", default="", help="today's bot at the other seats (a filled table; see above)"
    )
    parser.add_argument(
        "--apart",
        action="store_true",
        help="with --fill: each bot on its own tables of fillers, never at one table (see above)",
    )
    args = parser.parse_args(argv)
    print(
        "| spec | bots | pairs | new − old a match, 95% CI | new: median, p95"
        " | old: median, p95 |\n|---|---|---|---|---|---|",
        flush=True,
    )
    try:
        for summary in run(
            args.spec or SPECS,
            args.new,
            args.old,
            args.pairs,
            args.out,
            args.seed,
            args.workers,
            fill=args.fill,
            alone=args.apart,
        ):
            print(_row(summary, args.new, args.old), flush=True)
    except (DivergenceError, LookupError, ValueError) as exc:
        print(f"vs_old_hard: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
