"""Bots against bots in duplicate matches: what ``tapete arena GAME --bots a,b`` measures.

**Duplicate matches.** A match's chance is a pure function of its seed (deal *k* is dealt from
``(seed, k)``, the first dealer drawn from the seed), so the same deals can be replayed with the
bots in other seats. A *duplicate group* is one seed played once per seat assignment of the
scheme below; every bot meets the same cards from every seat, and the luck of the deal cancels
within the group. The group, not the match, is the unit of the statistics.

**The scheme** (``assignments``). *Positions* are the seats, or the teams where the game has them
(a bot then holds every seat of its team, so partners are the same bot). With ``k`` bots and
``P`` positions:

* ``k <= P``: the pattern that deals the bots out in turn (``A B A B``, ``A B C A``) under every
  rotation of the positions and every cyclic relabelling of the bots, and the mirror images of
  those (the positions read the other way round: ``A C B A``), each distinct assignment once
  (``A B A B`` and ``B A B A`` for two bots at four seats; ``A B`` and ``B A`` for two teams;
  the six orders of ``A B C`` at three seats). So each bot holds each position equally often,
  and as often as every other bot, and sits right after each other bot as often as right before
  it; every match seats every bot, and where a bot holds several seats (``A B A``), every bot
  gets that turn (``B A B``).
* ``k > P``: every ordered choice of ``P`` different bots (a round robin: at two seats with three
  bots, ``A B``, ``B A``, ``A C`` ...), so every pair meets, from each side, on the same deals.

A match is reproducible from ``(spec, bots, seed, assignment)``: seat ``i``'s bot is a fresh
instance with the RNG ``tapete.match.seat_rng(seed, i)``, so the results do not depend on the
number of worker processes, nor on which worker played which match.

**The numbers.** A bot's score in a match is its team's score, or the mean score of the seats it
holds (``Outcome.scores``: points, or net chips in Poch and Pottle). Per bot: the mean score per
match and the win rate (a match is won by the bots holding its winners; a tie splits the win
among them). Per pair of bots: the mean score difference over the groups, each group giving the
mean difference over its matches where both play, with a 95% Student-t confidence interval over
the groups; "A beats B with 95% confidence" when it excludes 0. Ratings: openskill's
Plackett–Luce model, one rating match per match (each bot present is one team of the rating
match, ranked by its score), in match order.

**Stand-ins.** A bot that raises, runs out of time or proposes an illegal action has a random
legal move played for it (``tapete.match.choose_or_stand_in``), so that one bug does not stop
an arena. Its numbers then measure those random moves, so each match counts, per seat, the
decisions and the stand-ins; each bot's totals are in its ``BotResult``, and ``warnings()``, the
table and ``to_json`` say it of every bot that had any.

>>> result = run("pocha(schedule=1)", ["random", "random"], matches=4, workers=1, seed=1)
>>> result.bots, result.groups, len(result.matches)
(('random#1', 'random#2'), 2, 4)
>>> d = result.difference("random#1", "random#2")
>>> d.low <= d.mean <= d.high and d.groups == 2
True
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import pickle
import re
import shlex
import socket
import statistics
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tapete import players
from tapete.errors import SpecError
from tapete.game import Game, Seat, integer
from tapete.games import load
from tapete.match import Agent, play
from tapete.workers import deaf_to_interrupts

__all__ = [
    "CONFIDENCE",
    "MIN_GROUPS",
    "ArenaResult",
    "BotResult",
    "Difference",
    "MatchResult",
    "Stopped",
    "assignments",
    "bot_scores",
    "check",
    "check_ray",
    "dumps",
    "group_seed",
    "loads",
    "planned",
    "plot",
    "report",
    "run",
    "split_bots",
    "t_quantile",
    "table",
]

CONFIDENCE = 0.95
# The fewest duplicate groups a verdict is claimed from. The t interval assumes the group means
# are roughly normal and takes their spread from the sample itself; from two to four numbers that
# spread is itself a guess (two groups that happen to agree give an interval of zero width), so
# below this the arena says it cannot tell rather than print a confidence it does not have.
MIN_GROUPS = 5
_LISTS = ("seats", "scores", "winners")  # the tuples of a MatchResult
_COUNTS = ("decisions", "stand_ins")  # its per-seat counts: absent from older documents
_DERIVED = ("significant", "unmeasured")  # a Difference's properties, written to the JSON


# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    """One match: its group and seed, the bot (an index) at each seat, and its outcome.

    ``decisions`` and ``stand_ins`` are per seat: the moves the seat's bot was asked for, and
    how many of them were random legal moves played for it because it failed (raised, timed
    out, proposed an illegal action). Empty when not counted (a result built elsewhere).
    """

    group: int
    seed: int
    seats: tuple[int, ...]
    scores: tuple[int, ...]  # per seat, or per team (Outcome.scores)
    winners: tuple[Seat, ...]
    decisions: tuple[int, ...] = ()
    stand_ins: tuple[int, ...] = ()


@dataclass(frozen=True)
class BotResult:
    """One bot over the arena: mean score per match, wins (ties split), openskill rating, and
    how many of its ``decisions`` (over every seat it held) were ``stand_ins``: random legal
    moves played for it when it failed. Both are 0 in a document written before they were
    counted."""

    name: str
    matches: int
    mean_score: float
    wins: float
    win_rate: float
    mu: float
    sigma: float
    decisions: int = 0
    stand_ins: int = 0

    @property
    def warning(self) -> str | None:
        """One line when random moves stood in for the bot, else None."""
        if not self.stand_ins:
            return None
        rate = self.stand_ins / max(self.decisions, 1)
        share = f"{rate:.0%}" if rate >= 0.01 else "under 1%"  # one failure is never "0%"
        measured = (
            "random play, not the bot"
            if self.stand_ins >= self.decisions
            else "those random moves as well as the bot"
        )
        return (
            f"warning: {self.name} failed {self.stand_ins} of its {self.decisions} decisions"
            f" ({share}) and a random legal move stood in for each"
            " (it raised, ran out of time, chose no legal action or exited; stderr said why):"
            f" its numbers measure {measured}"
        )


@dataclass(frozen=True)
class Difference:
    """``bot``'s mean score minus ``other``'s, over ``groups`` duplicate groups, with a 95% CI."""

    bot: str
    other: str
    mean: float
    low: float
    high: float
    groups: int

    @property
    def unmeasured(self) -> str | None:
        """Why the interval cannot be trusted to tell the bots apart, or None when it can:
        fewer than ``MIN_GROUPS`` groups, or every group gave the same difference (no spread,
        so a zero-width interval that would "exclude 0" whatever the luck)."""
        if self.groups < MIN_GROUPS:
            return f"too few groups: {self.groups}, a 95% CI needs {MIN_GROUPS} or more"
        if self.high == self.low:
            return f"no spread: all {self.groups} groups gave the same difference"
        return None

    @property
    def significant(self) -> bool:
        """True when the arena claims a winner: the interval is measured and excludes 0."""
        return self.unmeasured is None and (self.low > 0 or self.high < 0)

    @property
    def verdict(self) -> str:
        """One line: who beats whom with 95% confidence, that there is no difference at 95%
        confidence, or that the arena cannot tell (``unmeasured``), claiming nothing."""
        if self.high < 0:
            return self.flipped().verdict
        if (why := self.unmeasured) is not None:
            return f"{self.bot} and {self.other}: cannot tell, {why} ({self.mean:+.2f} a match)"
        margin = f"{self.mean:+.2f} a match, 95% CI [{self.low:+.2f}, {self.high:+.2f}]"
        if self.low > 0:
            return f"{self.bot} beats {self.other} with 95% confidence ({margin})"
        return f"{self.bot} and {self.other}: no difference at 95% confidence ({margin})"

    def flipped(self) -> Difference:
        """The same difference seen from ``other``'s side."""
        return Difference(self.other, self.bot, -self.mean, -self.high, -self.low, self.groups)


@dataclass(frozen=True)
class ArenaResult:
    """Everything an arena measured; ``to_json`` gives it all, raw matches included."""

    spec: str
    bots: tuple[str, ...]
    seed: int
    groups: int
    assignments: tuple[tuple[int, ...], ...]  # the bot at each seat, one per match of a group
    results: tuple[BotResult, ...]
    differences: tuple[Difference, ...]  # every ordered pair of bots
    matches: tuple[MatchResult, ...]

    def bot_result(self, bot: str) -> BotResult:
        """The results of the bot named ``bot``; raises KeyError for an unknown name."""
        for r in self.results:
            if r.name == bot:
                return r
        raise KeyError(bot)

    def difference(self, bot: str, other: str) -> Difference:
        """``bot``'s score minus ``other``'s; raises KeyError for an unknown pair."""
        for d in self.differences:
            if (d.bot, d.other) == (bot, other):
                return d
        raise KeyError((bot, other))

    def verdicts(self) -> list[str]:
        """A line per unordered pair, in the order of ``bots``."""
        return [self.difference(a, b).verdict for a, b in itertools.combinations(self.bots, 2)]

    def warnings(self) -> list[str]:
        """A line per bot that had random moves played for it (``BotResult.warning``)."""
        return [w for r in self.results if (w := r.warning) is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "tapete-arena/1",
            "spec": self.spec,
            "bots": list(self.bots),
            "seed": self.seed,
            "groups": self.groups,
            "confidence": CONFIDENCE,
            "assignments": [list(a) for a in self.assignments],
            "results": [asdict(r) for r in self.results],
            "differences": [
                {**asdict(d), "significant": d.significant, "unmeasured": d.unmeasured}
                for d in self.differences
            ],
            "verdicts": self.verdicts(),
            "warnings": self.warnings(),
            "matches": [
                {**asdict(m), **{k: list(getattr(m, k)) for k in (*_LISTS, *_COUNTS)}}
                for m in self.matches
            ],
        }


_NUMBERS = re.compile(r"\[\s+(-?[\d.eE+-]+(?:,\s+-?[\d.eE+-]+)*)\s+\]")


def dumps(result: ArenaResult) -> str:
    """The JSON text of ``result`` (``to_json``), lists of numbers kept on one line."""
    text = json.dumps(result.to_json(), indent=2)
    return _NUMBERS.sub(lambda m: "[" + re.sub(r"\s+", " ", m[1]) + "]", text) + "\n"


def loads(text: str) -> ArenaResult:
    """The ``ArenaResult`` a ``dumps`` text holds (to plot or compare saved arenas).

    Raises ValueError when the text is not a ``tapete-arena/1`` document, or not a whole one
    (cut short, or a key edited away). One written before stand-ins were counted reads with
    none counted (empty per-seat counts, zero totals).
    """
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != "tapete-arena/1":
        raise ValueError("not a tapete-arena/1 document")
    try:
        return _from_json(data)
    except KeyError as exc:
        raise ValueError(f"not a whole tapete-arena/1 document: no {exc}") from None
    except TypeError as exc:  # a value of another kind (a number where a list goes)
        raise ValueError(f"not a whole tapete-arena/1 document: {exc}") from None


def _from_json(data: dict[str, Any]) -> ArenaResult:
    return ArenaResult(
        spec=data["spec"],
        bots=tuple(data["bots"]),
        seed=data["seed"],
        groups=data["groups"],
        assignments=tuple(tuple(a) for a in data["assignments"]),
        results=tuple(BotResult(**r) for r in data["results"]),
        # ``significant`` and ``unmeasured`` follow from the rest (and are absent from older
        # documents): read back, they are computed again under today's rule.
        differences=tuple(
            Difference(**{k: v for k, v in d.items() if k not in _DERIVED})
            for d in data["differences"]
        ),
        matches=tuple(
            MatchResult(
                m["group"],
                m["seed"],
                *(tuple(m[k]) for k in _LISTS),
                *(tuple(m.get(k, ())) for k in _COUNTS),
            )
            for m in data["matches"]
        ),
    )


# --- the scheme ----------------------------------------------------------------------------


def assignments(
    players: int, bots: int, teams: Sequence[Sequence[Seat]] | None = None
) -> tuple[tuple[int, ...], ...]:
    """The seat assignments of a duplicate group: the bot (``0..bots-1``) at each seat.

    >>> assignments(4, 2)
    ((0, 1, 0, 1), (1, 0, 1, 0))
    >>> assignments(3, 2)
    ((0, 1, 0), (1, 0, 1), (1, 0, 0), (0, 1, 1), (0, 0, 1), (1, 1, 0))
    >>> assignments(4, 2, teams=((0, 2), (1, 3)))
    ((0, 1, 0, 1), (1, 0, 1, 0))
    >>> assignments(2, 3)
    ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))
    """
    if bots < 2:
        raise SpecError("an arena needs two bots or more")
    positions = players if teams is None else len(teams)
    if bots <= positions:
        orbit = [
            tuple(((p + turn) % positions + shift) % bots for p in range(positions))
            for turn in range(positions)
            for shift in range(bots)
        ]
        # And their mirror images, the positions read the other way round: with three bots
        # or more, A B C's rotations alone always seat B right after A, never right before.
        mirrored = [pattern[::-1] for pattern in orbit]
        patterns = list(dict.fromkeys([*orbit, *mirrored]))
    else:
        patterns = list(itertools.permutations(range(bots), positions))
    if teams is None:
        return tuple(patterns)
    team_of = {seat: t for t, members in enumerate(teams) for seat in members}
    return tuple(tuple(pattern[team_of[s]] for s in range(players)) for pattern in patterns)


def planned(matches: int, scheme: Sequence[Sequence[int]]) -> int:
    """How many matches an arena asked for ``matches`` plays with the group ``scheme``
    (``assignments``): rounded up to whole groups, two groups at least.

    >>> planned(5, assignments(3, 2))  # six matches a group
    12
    >>> planned(100, assignments(4, 2))
    100
    """
    return max(2, -(-matches // len(scheme))) * len(scheme)


def split_bots(text: str) -> list[str]:
    """Split a comma-separated list of bot specs, keeping commas inside parentheses and quotes.

    >>> split_bots('hard(ms=200, iterations=40),medium, exec(cmd="./bot a,b")')
    ['hard(ms=200, iterations=40)', 'medium', 'exec(cmd="./bot a,b")']
    """
    try:
        names = players.split_seats(text)
    except SpecError:
        names = []
    if not all(names) or not names:
        raise SpecError("{text} is not a comma-separated list of bots", text=repr(text))
    return names


def group_seed(seed: int, group: int) -> int:
    """The match seed of duplicate group ``group`` of an arena with ``seed`` (31 bits).

    Hashed rather than ``seed + group`` so that arenas with nearby seeds share no deals.
    """
    digest = hashlib.shake_256(f"tapete-arena/{seed}/{group}".encode()).digest(4)
    return int.from_bytes(digest, "little") >> 1


# --- playing -------------------------------------------------------------------------------

_Task = tuple[str, tuple[str | Agent, ...], int, int, tuple[int, ...]]
_AHEAD = 4  # batches made and sent ahead of play, a worker: enough to keep every one busy


@lru_cache(maxsize=8)
def _game(spec: str) -> Game[Any, Any]:
    return load(spec)


def _play(task: _Task) -> MatchResult:
    """Play one match of a task: fresh bots, so nothing carries over from match to match (an
    outside bot is a fresh process for each match, ended with it). The result counts each
    seat's decisions and stand-ins, so they travel back from a worker with the scores."""
    spec, entrants, group, seed, seats = task
    game = _game(spec)
    agents = [
        players.load(e) if isinstance(e, str) else copy.deepcopy(e)
        for e in (entrants[b] for b in seats)
    ]
    decisions, stand_ins = [0] * game.players, [0] * game.players
    # The matches of a duplicate group share their seed, so the seed and a seat name no one
    # match; with the seating too they are what tapete play takes to play it again.
    seating = ",".join(
        e if isinstance(e, str) else str(getattr(e, "name", e))
        for e in (entrants[b] for b in seats)
    )
    match = f"the match --seed {seed} --seats {shlex.quote(seating)}"

    def stepped(seat: Seat, action: Any, before: Any, after: Any) -> None:
        decisions[seat] += 1  # every move of a bot's seat was asked of the bot

    def failed(seat: Seat, failure: Exception) -> None:
        stand_ins[seat] += 1
        # Told as it happens, from whichever worker plays the match, with why: the numbers
        # count the stand-ins, but only this line says what went wrong. Once a seat and match:
        # a bot that fails every decision would write a line for each, hundreds a match.
        note = players.stand_in_note(failure)
        if note is None or stand_ins[seat] > 1:
            return
        print(
            f"tapete arena: {getattr(agents[seat], 'name', 'a bot')} at seat {seat} of"
            f" {match}: failed to choose a move ({type(failure).__name__}: {failure});"
            f" {note}; its further failures in this match are counted, not told",
            file=sys.stderr,
            flush=True,
        )

    with players.seated(game, agents, command="tapete arena", match=match) as finish:
        final, _ = play(game, agents, seed=seed, on_step=stepped, on_failure=failed)
        finish(final)
    outcome = game.outcome(final)
    assert outcome is not None
    return MatchResult(
        group,
        seed,
        seats,
        tuple(outcome.scores),
        tuple(outcome.winners),
        tuple(decisions),
        tuple(stand_ins),
    )


def _batches(tasks: Iterable[_Task], size: int) -> Iterator[list[tuple[int, _Task]]]:
    """``tasks`` numbered and cut into lists of ``size``, made as they are asked for."""
    numbered = enumerate(tasks)
    while batch := list(itertools.islice(numbered, size)):
        yield batch


def _pool_map(
    tasks: Iterable[_Task], total: int, workers: int
) -> Iterator[tuple[int, MatchResult]]:
    """Play the ``total`` ``tasks`` on ``workers`` processes; yields ``(index, result)`` as
    matches end. Only a few batches a worker are made ahead of play, so an arena of any size
    starts at once, in the memory of a small one."""
    if workers <= 1 or total <= 1:
        yield from enumerate(map(_play, tasks))
        return
    # forkserver or spawn, never fork: the caller may be running threads (a progress display).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    size = max(1, min(8, total // (workers * 16)))
    batches = _batches(tasks, size)
    pool = ProcessPoolExecutor(min(workers, -(-total // size)), mp_context=context)

    def submit(count: int) -> set[Future[list[tuple[int, MatchResult]]]]:
        # Batches travel pickled, so an agent a worker cannot unpickle is an error, not a hang.
        return {pool.submit(_play_batch, pickle.dumps(b)) for b in itertools.islice(batches, count)}

    played = False
    try:
        with deaf_to_interrupts():  # the first batches start every worker
            pending = submit(workers * _AHEAD)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()
            pending |= submit(len(done))
        played = True
    finally:
        if not played:
            # Stopped (^C, a signal, an error): the matches being played are not waited for,
            # their workers are ended (and end their outside bots), none left behind idle.
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        pool.shutdown(cancel_futures=True)


def _ray_map(tasks: Iterable[_Task], total: int, address: str) -> Iterator[tuple[int, MatchResult]]:
    """Play the ``total`` ``tasks`` as Ray tasks on the cluster at ``address`` (``""``: start a
    local Ray); yields ``(index, result)`` as batches end, with a bounded number in flight."""
    try:
        import ray
    except ImportError:
        raise SpecError("--ray needs Ray: pip install ray") from None
    if not ray.is_initialized():
        ray.init(address=address or None, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(_play_batch)
    size = max(1, min(8, total // 64))
    batches = _batches(tasks, size)
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
    ahead = max(1, int(cpus)) * _AHEAD
    pending = [remote.remote(pickle.dumps(b)) for b in itertools.islice(batches, ahead)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield from ray.get(ref)
        pending += [remote.remote(pickle.dumps(b)) for b in itertools.islice(batches, len(done))]


def _play_batch(payload: bytes) -> list[tuple[int, MatchResult]]:
    batch: list[tuple[int, _Task]] = pickle.loads(payload)
    return [(index, _play(task)) for index, task in batch]


def _labels(entrants: Sequence[str | Agent]) -> tuple[str, ...]:
    names = [
        e if isinstance(e, str) else str(getattr(e, "name", type(e).__name__)) for e in entrants
    ]
    return tuple(
        f"{n}#{names[: i + 1].count(n)}" if names.count(n) > 1 else n for i, n in enumerate(names)
    )


def _whole(value: object, name: str, least: int | None = None) -> int:
    """``value`` as an int (NumPy's integers too): TypeError naming ``name`` for anything else,
    ValueError below ``least``. A seed of ``True``, ``1.0`` or ``"1"`` would play other deals
    than seed 1 (the groups' seeds hash its text) under a result that names it.

    >>> _whole(True, "seed")
    Traceback (most recent call last):
    TypeError: seed=True is not accepted: a whole number
    """
    number = integer(value)
    if number is None:
        raise TypeError(f"{name}={value!r} is not accepted: a whole number")
    if least is not None and number < least:
        raise ValueError(f"{name}={value!r} is not accepted: a whole number from {least}")
    return number


def check(spec: str, bots: Sequence[str | Agent]) -> Game[Any, Any]:
    """The game of ``spec``, once the bots are known to make an arena; raises SpecError (and
    TypeError for bots given as one text, whose letters would be taken for bots)."""
    if isinstance(bots, str):
        raise TypeError(
            f"bots is a list, one bot level or agent each, such as ['hard', 'medium'], not"
            f" {bots!r} (arena.split_bots splits a command line's list)"
        )
    game = load(spec)
    if len(bots) < 2:
        raise SpecError("an arena needs two bots or more")
    for place, entrant in enumerate(bots):
        if not isinstance(entrant, str) and not callable(getattr(entrant, "choose", None)):
            # Found by the first match that seats it, it was told of as a seat of that match.
            raise TypeError(
                f"bots[{place}]: a bot is a level such as 'random' or 'hard(ms=300)', or an"
                f" agent with choose(view, legal_actions, rng), not {entrant!r}"
            )
        agent = players.load(entrant) if isinstance(entrant, str) else entrant
        players.check_game(agent, game)
    players.check_ends(game, ["bot"] * game.players)
    return game


RAY_WAIT = 3.0
"""Seconds a Ray cluster's address has to take a connection (``check_ray``)."""


def check_ray(address: str) -> None:
    """Refuse, with a SpecError naming ``--ray``, a Ray cluster that cannot be played on: Ray
    not installed, an address that is none, or one where nothing answers. Ray itself retries
    such an address for minutes behind the progress bar, saying so only in its own logs.
    ``""`` (start a local Ray), ``auto`` and ``local`` are Ray's to find.

    >>> check_ray("nowhere")
    Traceback (most recent call last):
    tapete.errors.SpecError: --ray: 'nowhere' is not a Ray address: HOST:PORT or ray://HOST:PORT
    """
    given = address.strip()
    if given in ("", "auto", "local"):
        return
    host, _, port = given.removeprefix("ray://").rpartition(":")
    if not host or not port.isdecimal() or not 0 < int(port) < 65536:
        raise SpecError(
            "--ray: {address} is not a Ray address: HOST:PORT or ray://HOST:PORT",
            address=repr(address),
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_WAIT):
            pass
    except OSError as exc:
        raise SpecError(
            "--ray: no Ray cluster answers at {address} ({why})",
            address=address,
            why=exc.strerror or str(exc),
        ) from None


def _check_importable(bots: Sequence[str | Agent], where: str) -> None:
    """ValueError naming a bot whose class another process cannot import: one defined at a
    prompt (an interactive session, ``python -c``, a notebook), whose ``__main__`` is no file.
    The worker processes would fail to load it, with a message that names neither the bot nor
    a way out."""
    main = sys.modules.get("__main__")
    if main is not None and getattr(main, "__file__", None) is not None:
        return
    for label, bot in zip(_labels(bots), bots, strict=True):
        if not isinstance(bot, str) and type(bot).__module__ == "__main__":
            raise ValueError(
                f"bot {label!r} is of a class defined at the prompt, which the arena's worker"
                f" processes cannot import {where}: define it in a module, or use workers=1"
            )


def run(
    spec: str,
    bots: Sequence[str | Agent],
    *,
    matches: int = 100,
    workers: int | None = None,
    seed: int = 0,
    on_match: Callable[[int, int], None] | None = None,
    ray: str | None = None,
) -> ArenaResult:
    """Play duplicate matches of ``spec`` between ``bots`` (level names or agents) and rate them.

    ``matches`` is rounded up to whole duplicate groups, two at least; ``workers`` processes
    (default: every core) play them, or, with ``ray``, Ray tasks on the cluster at that address
    (``""``: a local Ray); ``on_match(done, total)`` is called as each one ends. Each match is
    a function of its seed, so the numbers are the same wherever the matches run (with bots
    whose budget counts iterations rather than milliseconds). Agents given as objects are
    copied for every match and must pickle when ``workers > 1`` or with Ray: one whose class was
    typed at a prompt (no module the workers can import) raises ValueError then. A bot that fails
    a decision has a random legal move played for it and the arena goes on; the result counts
    them (``BotResult.stand_ins``, ``ArenaResult.warnings``). Interrupted (^C), it raises
    ``Stopped``, which holds the numbers of the duplicate groups played whole.
    Raises SpecError for an unknown game or bot level, TypeError for a bot that is neither a
    level nor an agent, and for a ``seed``, ``matches`` or ``workers`` that is no whole number
    (``True`` or ``1.0`` would name other deals than 1 in the result) and ValueError for fewer
    than one match or worker.
    """
    seed, matches = _whole(seed, "seed"), _whole(matches, "matches", least=1)
    game = check(spec, bots)
    if workers is None:
        workers = os.cpu_count() or 1
    workers = _whole(workers, "workers", least=1)
    if ray is not None or workers > 1:
        _check_importable(bots, "with Ray" if ray is not None else f"with workers={workers}")
    scheme = assignments(game.players, len(bots), game.teams)
    groups = planned(matches, scheme) // len(scheme)
    entrants = tuple(bots)
    total = groups * len(scheme)
    tasks = (
        (game.spec, entrants, g, group_seed(seed, g), seats)
        for g in range(groups)
        for seats in scheme
    )
    played: dict[int, MatchResult] = {}
    played_on = _pool_map(tasks, total, workers) if ray is None else _ray_map(tasks, total, ray)
    try:
        for done, (index, match) in enumerate(played_on, 1):
            played[index] = match
            if on_match is not None:
                on_match(done, total)
    except KeyboardInterrupt as stop:
        # The groups played whole from the first on: the numbers a run of that many gives.
        size, whole = len(scheme), 0
        while whole < groups and all(whole * size + j in played for j in range(size)):
            whole += 1
        first = tuple(played[i] for i in range(whole * size))
        partial = None
        if whole >= 2:  # as a run's: two groups at least
            partial = _summarise(game, _labels(entrants), seed, whole, scheme, first)
        raise Stopped(len(played), partial) from stop
    results = tuple(played[i] for i in range(total))
    return _summarise(game, _labels(entrants), seed, groups, scheme, results)


class Stopped(KeyboardInterrupt):
    """``run`` interrupted (^C) before its last match: ``played`` matches had ended, and
    ``result`` holds the numbers of the duplicate groups played whole from the first on (what
    ``run`` with that many matches and the same seed gives), or None when fewer than two were
    (``run`` plays two at least)."""

    def __init__(self, played: int, result: ArenaResult | None) -> None:
        super().__init__(f"stopped after {played} matches")
        self.played, self.result = played, result


# --- the statistics ------------------------------------------------------------------------


def bot_scores(game: Game[Any, Any], match: MatchResult) -> dict[int, float]:
    """Each playing bot's score in ``match``: its team's, or the mean of the seats it holds."""
    if game.teams is not None:
        return {match.seats[members[0]]: match.scores[t] for t, members in enumerate(game.teams)}
    held: dict[int, list[int]] = {}
    for seat, bot in enumerate(match.seats):
        held.setdefault(bot, []).append(match.scores[seat])
    return {bot: statistics.fmean(scores) for bot, scores in held.items()}


def _wins(match: MatchResult) -> dict[int, float]:
    winners = sorted({match.seats[s] for s in match.winners})
    return {bot: 1 / len(winners) for bot in winners}


def _summarise(
    game: Game[Any, Any],
    names: tuple[str, ...],
    seed: int,
    groups: int,
    scheme: tuple[tuple[int, ...], ...],
    matches: tuple[MatchResult, ...],
) -> ArenaResult:
    scores = [bot_scores(game, m) for m in matches]
    ratings = _ratings(len(names), scores)
    results = []
    decisions = _held(len(names), matches, "decisions")
    stand_ins = _held(len(names), matches, "stand_ins")
    for b, name in enumerate(names):
        mine = [s[b] for s in scores if b in s]
        wins = sum(_wins(m).get(b, 0.0) for m in matches)
        mu, sigma = ratings[b]
        mean = statistics.fmean(mine)
        results.append(
            BotResult(
                name, len(mine), mean, wins, wins / len(mine), mu, sigma, decisions[b], stand_ins[b]
            )
        )
    differences = [
        _difference(names, a, b, matches, scores, groups)
        for a in range(len(names))
        for b in range(len(names))
        if a != b
    ]
    return ArenaResult(
        game.spec, names, seed, groups, scheme, tuple(results), tuple(differences), matches
    )


def _held(bots: int, matches: tuple[MatchResult, ...], count: str) -> list[int]:
    """Each bot's total of a per-seat ``count`` (``decisions`` or ``stand_ins``) over the seats
    it held in ``matches``."""
    totals = [0] * bots
    for m in matches:
        counts: tuple[int, ...] = getattr(m, count)
        for bot, n in zip(m.seats, counts or (0,) * len(m.seats), strict=True):
            totals[bot] += n
    return totals


def _difference(
    names: tuple[str, ...],
    a: int,
    b: int,
    matches: tuple[MatchResult, ...],
    scores: list[dict[int, float]],
    groups: int,
) -> Difference:
    per_group: list[list[float]] = [[] for _ in range(groups)]
    for match, s in zip(matches, scores, strict=True):
        if a in s and b in s:
            per_group[match.group].append(s[a] - s[b])
    means = [statistics.fmean(d) for d in per_group if d]
    mean = statistics.fmean(means)
    half = t_quantile(len(means) - 1) * statistics.stdev(means) / math.sqrt(len(means))
    return Difference(names[a], names[b], mean, mean - half, mean + half, len(means))


def _ratings(bots: int, scores: list[dict[int, float]]) -> list[tuple[float, float]]:
    """openskill Plackett–Luce ratings, one rating match per match, each bot a team."""
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(bots)]
    for s in scores:
        present = sorted(s)
        rated = model.rate([[ratings[b]] for b in present], ranks=[-s[b] for b in present])
        for b, team in zip(present, rated, strict=True):
            ratings[b] = team[0]
    return [(r.mu, r.sigma) for r in ratings]


def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student-t critical value: ``P(|T| < t) = confidence`` with ``df`` degrees.

    >>> [round(t_quantile(df), 3) for df in (1, 2, 10, 30, 1000)]
    [12.706, 4.303, 2.228, 2.042, 1.962]
    """
    if df < 1:
        raise ValueError("a confidence interval needs two groups or more")
    if df > 5000:  # within 0.02% of the normal value; the exact sum would take df / 2 terms
        return statistics.NormalDist().inv_cdf((1 + confidence) / 2)
    low, high = 0.0, 1.0
    while _t_central(high, df) < confidence:
        low, high = high, 2 * high
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if _t_central(mid, df) < confidence else (low, mid)
    return (low + high) / 2


def _t_central(t: float, df: int) -> float:
    """``P(|T| < t)`` for Student's t with integer ``df`` (Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c, s = math.cos(theta), math.sin(theta)
    total = 0.0
    if df % 2:
        term = c
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= c * c * (2 * k) / (2 * k + 1)
        return 2 / math.pi * (theta + s * total)
    term = 1.0
    for k in range(1, df // 2 + 1):
        total += term
        term *= c * c * (2 * k - 1) / (2 * k)
    return s * total


# --- the report ----------------------------------------------------------------------------


def table(result: ArenaResult, differences: bool = True) -> Table:
    """The results table: a row per bot, and (unless ``differences`` is false) a column of
    score differences per opponent."""
    versus = (
        " vs X: the row's score minus X's, ± the half-width of its 95% CI"
        if differences
        else " each pair's difference, with its 95% CI, is in the lines below"
    )
    unknown = (
        f"; ±\u00a0?: cannot tell (fewer than {MIN_GROUPS} groups, or no spread between them)"
        if differences and any(d.unmeasured is not None for d in result.differences)
        else ""
    )
    out = Table(
        title=f"{result.spec}: {len(result.matches)} matches, {result.groups} duplicate groups",
        caption=(
            "score: mean a match; wins: ties split; rating: openskill mu ± sigma;"
            " stand-ins: random legal moves played for the bot when it failed, of its"
            f" decisions;{versus}{unknown}"
        ),
        box=box.SIMPLE_HEAD,
    )
    out.add_column("bot", no_wrap=True)
    opponents = result.bots if differences else ()
    headers = ("matches", "score", "wins", "rating", "stand-ins", *(f"vs {b}" for b in opponents))
    for header in headers:
        out.add_column(header, justify="right", no_wrap=True)
    for r in result.results:
        cells = [
            Text(r.name),
            Text(str(r.matches)),
            Text(f"{r.mean_score:.2f}"),
            Text(f"{r.win_rate:.1%}"),
            Text(f"{r.mu:.2f} ± {r.sigma:.2f}"),
            _stand_ins_cell(r),
        ]
        for other in opponents:
            if other == r.name:
                cells.append(Text("·", style="dim"))
                continue
            d = result.difference(r.name, other)
            if d.unmeasured is not None:
                cells.append(Text(f"{d.mean:+.2f} ± ?", style="dim"))
                continue
            style = "" if not d.significant else "green" if d.low > 0 else "red"
            cells.append(Text(f"{d.mean:+.2f} ± {d.high - d.mean:.2f}", style=style))
        out.add_row(*cells)
    return out


def _stand_ins_cell(r: BotResult) -> Text:
    """``0 of 480``, in bold red when not 0; a dash when nothing was counted (an old file)."""
    if not r.decisions:
        return Text("–", style="dim")
    return Text(f"{r.stand_ins} of {r.decisions}", style="bold red" if r.stand_ins else "")


def report(result: ArenaResult, console: Console) -> None:
    """Print the table, a verdict line per pair of bots, then a warning line per bot that had
    random moves played for it: last, where a terminal leaves the eye. Where the "vs X" columns
    do not fit the console's width, the table leaves them out rather than cut every number
    short: the verdict lines say each pair's difference and interval."""
    full = table(result)
    unbounded = console.options.update_width(1_000_000)  # measured within width, it "fits"
    fits = Measurement.get(console, unbounded, full).maximum <= console.width
    console.print(full if fits else table(result, differences=False))
    for line in result.verdicts():
        console.print(line, highlight=False)
    for line in result.warnings():
        console.print(Text(line, style="bold red"), soft_wrap=True)


# --- the plot ------------------------------------------------------------------------------


def plot(result: ArenaResult, path: str | Path) -> None:
    """Draw the mean differences with their 95% CIs and the ratings (mu ± 2 sigma) as a PNG."""
    from matplotlib.figure import Figure  # the Agg canvas, no pyplot state

    pairs = [result.difference(a, b) for a, b in itertools.combinations(result.bots, 2)]
    fig = Figure(figsize=(10, 1.5 + 0.45 * max(len(pairs), len(result.bots))), layout="tight")
    left, right = fig.subplots(1, 2)
    y = range(len(pairs))
    left.errorbar(
        [d.mean for d in pairs],
        y,
        xerr=[[d.mean - d.low for d in pairs], [d.high - d.mean for d in pairs]],
        fmt="o",
        capsize=4,
    )
    left.axvline(0, color="grey", linewidth=1)
    left.set_yticks(list(y), [f"{d.bot} − {d.other}" for d in pairs])
    left.invert_yaxis()
    left.set_xlabel(f"mean score difference a match (95% CI, {result.groups} groups)")
    y = range(len(result.results))
    right.errorbar(
        [r.mu for r in result.results],
        y,
        xerr=[2 * r.sigma for r in result.results],
        fmt="s",
        capsize=4,
    )
    right.set_yticks(list(y), [r.name for r in result.results])
    right.invert_yaxis()
    right.set_xlabel("openskill rating (mu ± 2 sigma)")
    failed = [r.name for r in result.results if r.stand_ins]
    warning = f"\nrandom moves stood in for {', '.join(failed)} (see the table)" if failed else ""
    fig.suptitle(f"tapete arena: {result.spec}, {len(result.matches)} matches{warning}")
    fig.savefig(path, format="png", dpi=100)
