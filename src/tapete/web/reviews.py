"""The coach's review of a finished match, asked for in the browser: worked out once, kept.

Anyone who can replay a finished match — its complete record is public once it is over — can
ask for its review (``tapete.coach``): every seat's decisions, each valued from that seat's view
at the time, never a hidden card. A match still being played is never reviewed: its hidden
cards are still hidden from everyone but their holders.

The review is worked out in the bot workers' review lane (``Thinkers.behind``), decision by
decision, so live bots never wait behind it; anyone may follow its progress or cancel it. Once
done it is kept by the store beside the record (the ``reviews`` table of a database): a second
request, from anyone, on this server or another sharing the database, after a restart, is
answered from there. Servers sharing their tables (``tapete.web.cluster``) tell each other how
far their reviews are: a request or a cancel on any of them reaches the review where it is
worked out, and none is worked out twice at once.

>>> import asyncio
>>> from tapete.web.store import MemoryStore
>>> reviews = Reviews(MemoryStore(), Thinkers(0), iterations=5)
>>> asyncio.run(reviews.status("ABCD", 0))
{'status': 'none'}
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

import tapete
from tapete import coach, record
from tapete.i18n import tr
from tapete.present import game_deck, notation_label
from tapete.web.store import Store
from tapete.web.thinking import Thinkers

if TYPE_CHECKING:
    from tapete.web.cluster import Cluster

__all__ = ["WEB_ITERATIONS", "Reviews", "in_words"]

log = logging.getLogger("tapete.web")

WEB_ITERATIONS = coach.DEFAULT_ITERATIONS  # sampled deals a decision, unless the server says
KEEP_READ = 64  # kept reviews held in memory, the most recently asked for (the store has all)
STALE = 30.0  # seconds without news of another server's review before it is taken for gone


@dataclass
class _Work:
    """A review under way: how far it is, and the task working it out."""

    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = None
    failed: str = ""


class Reviews:
    """The reviews of one server's finished matches: kept in ``store``, worked out by
    ``thinkers`` at ``iterations`` sampled deals a decision (``seed``: which deals); ``cluster``:
    the other servers sharing the store, told of this server's reviews and telling theirs."""

    def __init__(
        self,
        store: Store,
        thinkers: Thinkers,
        iterations: int = WEB_ITERATIONS,
        seed: int = 0,
        cluster: Cluster | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"a review samples at least 1 deal a decision, not {iterations}")
        self.store = store
        self.thinkers = thinkers
        self.iterations = iterations
        self.seed = seed
        self.cluster = cluster
        self._work: dict[tuple[str, int], _Work] = {}
        # reviews under way on other servers: how far, and when this server last heard of them
        self._elsewhere: dict[tuple[str, int], tuple[int, int, float]] = {}
        # reviews read or made here, the most recently asked for last
        self._kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    async def status(self, code: str, match: int) -> dict[str, Any]:
        """``{status: done, review}``, ``{status: running, done, total}``, ``{status: failed}``
        or ``{status: none}`` (never asked for, or cancelled). A review under way here or on
        another server is told without asking the store (browsers ask every moment)."""
        key = (code, match)
        work = self._work.get(key)
        if key not in self._kept:
            if work is not None and not work.failed:
                return {"status": "running", "done": work.done, "total": work.total}
            elsewhere = self._away(code, match)
            if elsewhere is not None:
                return {"status": "running", "done": elsewhere[0], "total": elsewhere[1]}
        kept = await self._stored(code, match)
        if kept is not None:
            return {"status": "done", "review": kept}
        if work is not None and work.failed:
            return {"status": "failed", "error": work.failed}
        return {"status": "none"}

    async def request(self, code: str, match: int, text: str) -> dict[str, Any]:
        """Review finished match ``match`` of room ``code`` (``text``: its complete record),
        unless it is kept or under way already, here or on another server; answers as
        ``status``."""
        answer = await self.status(code, match)
        if answer["status"] not in ("none", "failed"):
            return answer
        key = (code, match)
        work = self._work.get(key)
        if work is None or work.failed:
            work = _Work()
            self._work[key] = work
            work.task = asyncio.get_running_loop().create_task(self._review(key, text, work))
        return await self.status(code, match)

    async def cancel(self, code: str, match: int) -> bool:
        """Stop the review under way of that match, here or on the server working it out (the
        decision a worker is on finishes, the rest are never started); whether one was."""
        elsewhere = self._elsewhere.pop((code, match), None) is not None
        here = self._cancel_here(code, match)
        if self.cluster is not None:
            await self.cluster.tell({"kind": "review-cancel", "room": code, "match": match})
        return here or elsewhere

    def _cancel_here(self, code: str, match: int) -> bool:
        work = self._work.pop((code, match), None)
        if work is None or work.task is None or work.task.done():
            return False
        work.task.cancel()
        return True

    def heard(self, news: Mapping[str, Any]) -> None:
        """Another server's news of a review: how far it is, that it ended, or a cancel."""
        key = (str(news["room"]), int(news["match"]))
        if news["kind"] == "review-cancel":
            self._elsewhere.pop(key, None)
            self._cancel_here(*key)
        elif news.get("state") == "running":
            self._elsewhere[key] = (int(news["done"]), int(news["total"]), time.monotonic())
        else:  # done (the store has it) or failed
            self._elsewhere.pop(key, None)

    def _away(self, code: str, match: int) -> tuple[int, int, float] | None:
        """Another server's review of that match, if one was heard of lately."""
        found = self._elsewhere.get((code, match))
        if found is not None and time.monotonic() - found[2] > STALE:
            del self._elsewhere[(code, match)]
            return None
        return found

    async def _tell(self, key: tuple[str, int], state: str, work: _Work) -> None:
        if self.cluster is not None:
            await self.cluster.tell(
                {
                    "kind": "review",
                    "room": key[0],
                    "match": key[1],
                    "state": state,
                    "done": work.done,
                    "total": work.total,
                }
            )

    def close(self) -> None:
        for work in self._work.values():
            if work.task is not None:
                work.task.cancel()
        self._work.clear()

    async def _stored(self, code: str, match: int) -> dict[str, Any] | None:
        key = (code, match)
        if key not in self._kept:
            text = await self.store.review(code, match)
            if text is None:
                return None
            self._keep(key, orjson.loads(text))
        self._kept.move_to_end(key)
        return self._kept[key]

    def _keep(self, key: tuple[str, int], review: dict[str, Any]) -> None:
        self._kept.setdefault(key, review)
        while len(self._kept) > KEEP_READ:
            self._kept.popitem(last=False)

    async def _review(self, key: tuple[str, int], text: str, work: _Work) -> None:
        try:
            await self._tell(key, "running", work)  # at once: no other server starts it too
            rec = record.loads(text)
            planned = await self.thinkers.behind(coach.plan, rec, None, self.iterations, self.seed)
            work.total = len(planned.tasks)
            await self._tell(key, "running", work)
            decisions = await self._decisions(planned, work, key)
            doc = coach.to_json(coach.assemble(planned, decisions))
            kept = orjson.dumps(doc).decode()
            await self.store.save_review(key[0], key[1], kept, self.iterations)
            # what the store kept: this one, or one another server kept first
            await self._stored(*key)
            await self._tell(key, "done", work)
            if self._work.get(key) is work:
                del self._work[key]
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("room %s: the review of match %d failed", *key)
            work.failed = str(exc) or type(exc).__name__
            with contextlib.suppress(Exception):
                await self._tell(key, "failed", work)

    async def _decisions(
        self, planned: coach.Plan, work: _Work, key: tuple[str, int]
    ) -> list[coach.Reviewed]:
        """Every decision reviewed in the lane, as many at once as it has processes, each told
        to ``work`` as it comes back."""
        out: list[coach.Reviewed | None] = [None] * len(planned.tasks)
        pending = iter(planned.tasks)

        async def reviewer() -> None:
            for task in pending:
                out[task.index] = await self.thinkers.behind(coach.review_task, task)
                work.done += 1
                await self._tell(key, "running", work)

        reviewers = [
            asyncio.ensure_future(reviewer()) for _ in range(max(1, self.thinkers.review_processes))
        ]
        try:
            await asyncio.gather(*reviewers)
        finally:
            for each in reviewers:
                each.cancel()
            for each in reviewers:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await each
        return [d for d in out if d is not None]


def in_words(review: dict[str, Any], lang: str) -> dict[str, Any]:
    """A kept review with its words in ``lang``: each decision's moves as the table's buttons
    name them (``played_label``, ``best_label``, and ``options``: every legal action with its
    expected points, best first), a card as the table's page writes it (``jugar caballo de
    copas``, ``play K♦``), and its verdict, or ``stand_in_label`` for a stand-in's move (not
    graded), and the unit."""
    deck = game_deck(tapete.load(review["game"]))

    def label(action: str) -> str:
        return notation_label(action, lang, deck)

    decisions = [
        {
            **d,
            "played_label": label(d["played"]),
            "best_label": label(d["best"]),
            # A stand-in's move is told as such, never graded as its seat's player's.
            "verdict_label": tr(lang, d["verdict"]) if d["verdict"] and not stood_in else "",
            "stand_in_label": tr(lang, "played by a stand-in") if stood_in else "",
            # every legal action's expected points, best first, as the buttons name them
            "options": [[label(a), v] for a, v in d["values"].items()],
        }
        for d in review["decisions"]
        for stood_in in (bool(d.get("stand_in")),)  # absent from a review kept before stand-ins
    ]
    return {**review, "decisions": decisions, "unit_label": tr(lang, review["unit"])}
