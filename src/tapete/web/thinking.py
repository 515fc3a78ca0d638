"""Where bots think: a pool of worker processes, so a search never holds the server's event loop.

A bot's decision is a pure function of what it is given — the bot (its level and budget), the
seat's view, the legal actions and the seat's RNG — so that is what travels to a worker, never
the room. The worker answers with the action, what went wrong if the bot failed (a random legal
action then stands in, as at any table), the RNG as the decision left it, and when it began:
a search's time budget starts when its job leaves the queue, and the wait before it is counted.

The workers run at a lower OS priority than the server (``NICENESS``): when the machine is
busy, the server routing people's moves goes first and the bots think with what is left.

Work that no one at a table waits for — the coach's review of a finished match — goes to the
pool's **review lane** (``behind``): worker processes of their own (``review_processes``, one by
default), with their own queue, at the lowest OS priority (``REVIEW_NICENESS``). A live bot's
decision never queues behind a review, and when both want the CPU the bots get most of it.
``Thinkers`` without processes (``processes=0``) run each decision in a thread of the server
process instead, as small setups and tests do.

>>> import asyncio, random, tapete
>>> from tapete import bots
>>> game = tapete.load("pocha(players=3, schedule=1)")
>>> state = game.new_state(seed=2)
>>> seat = game.current_player(state)
>>> job = Job(bots.load("easy"), game.observe(state, seat), tuple(game.legal_actions(state)),
...           random.Random(0))
>>> answer = asyncio.run(Thinkers(0).decide(job))
>>> answer.action in (128, 129), answer.failure
(True, None)
"""

from __future__ import annotations

import asyncio
import contextlib
import copyreg
import importlib
import logging
import multiprocessing
import os
import random
import signal
import statistics
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from tapete import bots
from tapete.cards import CardSet
from tapete.game import Action
from tapete.match import choose_or_stand_in
from tapete.workers import deaf_to_interrupts

log = logging.getLogger("tapete.web")

__all__ = ["NICENESS", "REVIEW_NICENESS", "Answer", "Job", "Thinkers", "default_processes"]

T = TypeVar("T")

# Views travel to the workers pickled; a card set is its mask (it refuses the attribute writes
# that pickle's default way of rebuilding an object makes).
copyreg.pickle(CardSet, lambda cards: (CardSet, (cards.mask,)))


# A hint's reason comes back as structured data, whose read-only mappings pickle as their items.
def _read_only(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


copyreg.pickle(MappingProxyType, lambda mapping: (_read_only, (dict(mapping),)))

NICENESS = 10  # how much lower the workers' OS priority is than the server's
REVIEW_NICENESS = 19  # the review lane's: the lowest there is, below every bot
WAITS_KEPT = 2000  # recent queue waits kept for the health report


def default_processes() -> int:
    """Bot processes ``tapete serve`` starts unless told: one per core."""
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Job:
    """One decision: ``bot`` chooses among ``legal`` from ``view`` with ``rng``.

    ``hint``: the hard bot's advice for a person (``bots.hint``) instead of a move; its budget
    is the bot's.
    """

    bot: bots.Bot
    view: Any
    legal: tuple[Action, ...]
    rng: random.Random
    hint: bool = False


@dataclass(frozen=True)
class Answer:
    """A decision: ``failure`` is the bot's error (None when it chose a legal action) and
    ``trace`` its traceback as text (a traceback does not travel between processes); ``rng``
    is the seat's RNG after it; ``reason`` a hint's reason; ``waited`` and ``thought`` the
    seconds in the queue and deciding."""

    action: Action
    failure: Exception | None
    rng: random.Random
    reason: Any = ""
    waited: float = 0.0
    thought: float = 0.0
    trace: str = ""


def think(job: Job, queued: float) -> Answer:
    """Decide ``job`` (in a worker); ``queued`` is when it was submitted (``time.monotonic``,
    which is one clock for every process of the machine)."""
    began = time.monotonic()
    if job.hint:
        budget = job.bot.budget if isinstance(job.bot, bots.LevelBot) else None
        decision = bots.hint(job.view, budget, job.rng)
        return Answer(
            decision.action,
            None,
            job.rng,
            decision.reason,
            began - queued,
            time.monotonic() - began,
        )
    action, failure = choose_or_stand_in(job.bot, job.view, job.legal, job.rng)
    trace = ""
    if failure is not None:
        trace = "".join(traceback.format_exception(failure)).rstrip()
    waited, thought = max(0.0, began - queued), time.monotonic() - began
    return Answer(action, failure, job.rng, "", waited, thought, trace)


def _stood_in(job: Job, died: BrokenProcessPool) -> Answer:
    """A random legal move for a decision whose process died each time it was asked: the
    decision itself may be what kills it (a crash, the memory it takes), and the table must not
    wait for ever. The bot is said to have failed, as any bot that cannot choose."""
    failure = BrokenProcessPool(f"its bot process died twice deciding this move ({died})")
    return Answer(job.legal[job.rng.randrange(len(job.legal))], failure, job.rng)


def _lower_priority(server: int, niceness: int = NICENESS) -> None:
    """A worker's first act: leave ^C to its server, step behind the server for the CPU (by
    ``niceness``), and load every game's bots (a worker's first decision should not pay for the
    imports)."""
    # ^C at the terminal reaches every process of the group: a worker dying of it would print
    # a traceback and break its pool while the server, stopping, still waits for decisions.
    # The server ends its workers itself when it stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # not permitted here: the bots then compete as equals
        os.nice(niceness)
    # A server killed outright (kill -9) cannot stop its workers: each leaves on its own when
    # its server is gone, rather than waiting forever for jobs. The server names itself: a
    # worker that starts after its server died must not take its new parent for the server.
    threading.Thread(target=_leave_with, args=(server,), daemon=True).start()
    for module in bots.STRATEGIES.values():
        importlib.import_module(module)


def _leave_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _ready() -> int:
    return os.getpid()


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    return sorted_values[int(q * (len(sorted_values) - 1))]


class Thinkers:
    """The bots' decisions for one server: ``processes`` worker processes (0: threads).

    ``decide`` awaits a decision without holding the event loop; ``report`` says how many
    decisions were made and how long they waited for a worker.
    """

    def __init__(self, processes: int = 0, review_processes: int | None = None) -> None:
        if processes < 0:
            raise ValueError(f"bot processes is a number from 0, not {processes}")
        self.processes = processes
        # the review lane: one process by default where bots have processes, else threads
        lane = (1 if processes else 0) if review_processes is None else review_processes
        self.review_processes = lane
        if self.review_processes < 0:
            raise ValueError(f"review processes is a number from 0, not {review_processes}")
        self._pool: Executor | None = None
        self._review_pool: ProcessPoolExecutor | None = None
        self.behind_waiting = 0  # review work queued or under way in the review lane
        self._waits: deque[float] = deque(maxlen=WAITS_KEPT)
        self.decisions = 0
        self.in_workers = 0  # of which in a worker process
        self.waiting = 0

    def start(self) -> None:
        """Start the workers now (each loads the games and bots), not at the first decision."""
        if self.processes and self._pool is None:
            self._pool = _started(self.processes, NICENESS)

    async def decide(self, job: Job) -> Answer:
        """``job``'s decision, from a worker when there are some."""
        self.waiting += 1
        try:
            if self._pool is None and self.processes:
                self.start()
            if self._pool is None or not isinstance(job.bot, bots.LevelBot):
                # a bot of the server's own making (a test's, say) may not travel: a thread
                answer = await asyncio.to_thread(think, job, time.monotonic())
            else:
                try:
                    answer = await self._in_pool(False, think, job, time.monotonic())
                except BrokenProcessPool as exc:
                    if job.hint:
                        raise
                    answer = _stood_in(job, exc)
                else:
                    self.in_workers += 1
        finally:
            self.waiting -= 1
        self.decisions += 1
        self._waits.append(answer.waited)
        return answer

    def _lane(self, review: bool) -> Executor:
        """The bots' processes, or the review lane's (started at its first call)."""
        if review:
            if self._review_pool is None:
                self._review_pool = _started(self.review_processes, REVIEW_NICENESS)
            return self._review_pool
        if self._pool is None:
            self.start()
        assert self._pool is not None
        return self._pool

    async def _in_pool(self, review: bool, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in the bots' processes (or the review lane's); a pool whose worker
        died (killed, out of memory) is replaced and the call asked again, once."""
        what = "review" if review else "bot"
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._lane(review)
            try:
                return await loop.run_in_executor(pool, call, *args)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.error("a %s process died: starting the %s processes again", what, what)
                if (self._review_pool if review else self._pool) is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    if review:
                        self._review_pool = None
                    else:
                        self._pool = None
        raise AssertionError("unreachable")

    async def behind(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in the review lane (a module-level function and arguments that
        pickle): its own processes at ``REVIEW_NICENESS``, started at the first call, with their
        own queue, so no bot's decision waits behind it (threads of the server when the lane has
        no processes). A lane whose process died is started again and the call asked again,
        once; a call cancelled before a worker took it is dropped from the queue."""
        self.behind_waiting += 1
        try:
            if not self.review_processes:
                return await asyncio.to_thread(call, *args)
            return await self._in_pool(True, call, *args)
        finally:
            self.behind_waiting -= 1

    def report(self) -> dict[str, Any]:
        """Decisions made (of which in worker processes), waiting now, and the recent waits for
        a worker (ms)."""
        waits = sorted(self._waits)
        shown = {}
        if waits:
            shown = {
                "p50": round(statistics.median(waits) * 1000, 1),
                "p99": round(_percentile(waits, 0.99) * 1000, 1),
                "max": round(waits[-1] * 1000, 1),
            }
        return {
            "processes": self.processes,
            "decisions": self.decisions,
            "in_workers": self.in_workers,
            "waiting": self.waiting,
            "wait_ms": shown,
            "review_processes": self.review_processes,
            "reviewing": self.behind_waiting,
        }

    def close(self) -> None:
        """Stop the workers now; decisions under way are dropped (their rooms replay to where
        they were when the server starts again)."""
        pool, self._pool = self._pool, None
        lane, self._review_pool = self._review_pool, None
        for each in (pool, lane):
            if isinstance(each, ProcessPoolExecutor):
                _end(each)


def _started(processes: int, niceness: int) -> ProcessPoolExecutor:
    """A pool of ``processes`` workers, every one of them started now, each deaf to ^C from
    its first instruction (``tapete.workers``): started now, not at a later job, so no worker
    is ever started outside that moment."""
    # spawn: a fresh interpreter, never a fork of a server with threads running
    pool = ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_lower_priority,
        initargs=(os.getpid(), niceness),
    )
    with deaf_to_interrupts():
        for _ in range(processes):  # each job finds no worker idle yet, so starts one
            pool.submit(_ready)
    return pool


def _end(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's workers now: one may be busy with a search or still loading the games, and
    waiting for it would hold up a server told to stop, so each is ended (the executor keeps
    them by pid)."""
    workers = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(5)
