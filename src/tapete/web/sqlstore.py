"""The web app's rooms kept in a database (``tapete.store``): every table survives a restart.

Each match of a room is one ``tables`` row, id and code ``ROOM.match`` (``K7QPX.0``, then
``K7QPX.1`` after a rematch), with ``room`` and ``match`` columns; its accepted actions are
``actions`` rows, its finished record a ``records`` row, its seats and options JSON. Every call
runs in a worker thread (``asyncio.to_thread``; for SQLite one thread, its single writer) so the
event loop never waits on the disk, and returns once its transaction is committed: an action is
durable before anyone is told about it. Actions that arrive while a commit is under way are
committed together in the next one (group commit): one sync to disk for all the tables that
played meanwhile, each of them still told only after its own action is on disk.

>>> import asyncio
>>> from tapete.store import Store as Database
>>> store = SqlStore(Database("sqlite://"))
>>> truth = Truth(code="ABCD", spec="pocha", seed=7, seats=[SeatConfig("human", "Ana")])
>>> asyncio.run(store.create(truth))
>>> asyncio.run(store.append("ABCD", 0, 0, 0, "bid 1"))
>>> [t.actions for t in asyncio.run(store.rooms())]
[[(0, 'bid 1')]]
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from tapete.games import load
from tapete.store import Store as Database
from tapete.store import TableRow
from tapete.web.store import Options, SeatConfig, Truth

__all__ = ["SqlStore", "participant", "table_id"]

T = TypeVar("T")

KEEP_FINISHED = timedelta(days=1)  # finished rooms older than this are not loaded at start


def table_id(code: str, match: int) -> str:
    """The ``tables`` row of match ``match`` of room ``code``."""
    return f"{code}.{match}"


def participant(seat: SeatConfig) -> str:
    """Who a seat's results and ratings belong to: a player id, ``bot:<level>`` or a guest."""
    if seat.kind == "bot":
        return f"bot:{seat.level}"
    if seat.player:
        return seat.player
    return f"guest:{(seat.token or 'anonymous')[:12]}"


def _seats(row: TableRow) -> list[SeatConfig]:
    names = {f.name for f in dataclasses.fields(SeatConfig)}
    return [SeatConfig(**{k: v for k, v in s.items() if k in names}) for s in row.seats]


def _options(row: TableRow) -> Options:
    names = {f.name for f in dataclasses.fields(Options)}
    return Options(**{k: v for k, v in (row.options or {}).items() if k in names})


class SqlStore:
    """The web ``Store`` on a ``tapete.store.Store`` (SQLite or PostgreSQL)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._match: dict[str, int] = {}  # room -> its current match
        # SQLite takes one writer at a time: writers in several threads would wait on its lock
        # with sleeps (a long latency tail), so its calls go to one thread, in order.
        self._pool = (
            ThreadPoolExecutor(1, thread_name_prefix="tapete-sqlite")
            if db.engine.dialect.name == "sqlite"
            else None
        )
        # Actions waiting for the next group commit, and the task that commits them.
        self._queued: list[tuple[tuple[str, int, int, str], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def _run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a worker thread: the event loop never waits on the database."""
        if self._pool is None:
            return await asyncio.to_thread(call, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(call, *args))

    async def create(self, truth: Truth) -> None:
        await self._run(self._create, truth, truth.match, truth.seed, truth.started)

    def _create(self, truth: Truth, match: int, seed: int, started: bool) -> None:
        self.db.create_table(
            truth.spec,
            seed=seed,
            seats=[s.to_json() for s in truth.seats],
            public=truth.options.public,
            host=truth.host,
            options=truth.options.to_json(),
            code=table_id(truth.code, match),
            table_id=table_id(truth.code, match),
            status="playing" if started else "open",
            room=truth.code,
            match=match,
        )
        self._match[truth.code] = match

    async def append(self, code: str, match: int, index: int, seat: int, action: str) -> None:
        # A taken index raises ConflictError (a ValueError); so does a match with no row.
        loop = asyncio.get_running_loop()
        committed: asyncio.Future[None] = loop.create_future()
        self._queued.append(((table_id(code, match), index, seat, action), committed))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._commit_queued())
        await committed

    async def _commit_queued(self) -> None:
        """Commit the queued actions, a batch per transaction, until none is left.

        A room awaits each of its actions before it sends the next, so a batch holds at most one
        action per match and their order within it does not matter.
        """
        while self._queued:
            batch, self._queued = self._queued, []
            refused: Sequence[BaseException | None]
            try:
                refused = await self._run(self.db.append_actions, [row for row, _ in batch])
            except asyncio.CancelledError:  # the server stops: nobody waits for an answer
                for _, committed in batch + self._queued:
                    committed.cancel()
                raise
            except Exception as exc:  # the database failed: every action of the batch with it
                refused = [exc] * len(batch)
            for (_, committed), error in zip(batch, refused, strict=True):
                if committed.done():  # its caller is gone (cancelled)
                    continue
                if error is None:
                    committed.set_result(None)
                else:
                    committed.set_exception(error)

    async def save_seats(self, code: str, seats: list[SeatConfig], host: str | None) -> None:
        rows = [s.to_json() for s in seats]
        match = self._match.get(code, 0)
        await self._run(
            functools.partial(self.db.update_table, table_id(code, match), seats=rows, host=host)
        )

    async def start(self, code: str, match: int, seed: int) -> None:
        await self._run(self._start, code, match, seed)

    def _start(self, code: str, match: int, seed: int) -> None:
        current = self._match.get(code, 0)
        if match == current:
            self.db.update_table(table_id(code, match), status="playing")
            return
        row = self.db.table(table_id(code, current))
        if row is None:
            raise ValueError(f"no room {code}")
        truth = Truth(code, row.spec, seed, _seats(row), options=_options(row), host=row.host)
        self._create(truth, match, seed, started=True)

    async def finish(self, code: str, match: int, record: str) -> None:
        await self._run(self._finish, code, match, record)

    def _finish(self, code: str, match: int, record: str) -> None:
        tid = table_id(code, match)
        if self.db.record(tid) is not None:
            return  # already kept (a restart finishing a match again)
        row = self.db.table(tid)
        if row is None:
            raise ValueError(f"no match {tid}")
        data = json.loads(record)
        game = load(row.spec)
        seats = _seats(row)
        result = data.get("result") or {}
        scores = list(result.get("scores") or [0] * len(seats))
        winners = set(result.get("winners") or [])
        results = [
            (i, participant(seat), int(scores[i]), i in winners) for i, seat in enumerate(seats)
        ]
        self.db.finish(tid, game.name, record, results, game.teams)

    async def rooms(self) -> list[Truth]:
        return await self._run(self._rooms)

    def _rooms(self) -> list[Truth]:
        rows = self.db.room_tables(since=datetime.now(UTC) - KEEP_FINISHED)
        actions = self.db.actions_of([row.id for row in rows])
        records = self.db.room_records([row.room for row in rows if row.room])
        out = []
        for row in rows:
            assert row.room is not None
            match = row.match or 0
            self._match[row.room] = match
            out.append(
                Truth(
                    code=row.room,
                    spec=row.spec,
                    seed=row.seed,
                    seats=_seats(row),
                    actions=[(a.seat, a.action) for a in actions[row.id]],
                    options=_options(row),
                    host=row.host,
                    started=row.status != "open",
                    match=match,
                    records=records[row.room],
                )
            )
        return out
