"""The web app's rooms kept in a database (``tapete.store``): every table survives a restart.

Each match of a room is one ``tables`` row, id and code ``ROOM.match`` (``K7QPX.0``, then
``K7QPX.1`` after a rematch), with ``room`` and ``match`` columns; its accepted actions are
``actions`` rows, its finished record a ``records`` row, its seats and options JSON. Every call
runs in a worker thread (``asyncio.to_thread``; for SQLite one thread, its single writer) so the
event loop never waits on the disk, and returns once its transaction is committed: an action is
durable before anyone is told about it. Actions that arrive while a commit is under way are
committed together in the next one (group commit): one sync to disk for all the tables that
played meanwhile, each of them still told only after its own action is on disk. SQLite's other
calls (a finished match's record and ratings, a rematch, seats) take its one thread between
those commits, one call after each: neither waits behind a pile of the other.

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
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import orjson
from sqlalchemy import select, update

from tapete.game import seat_scores
from tapete.record import played_game
from tapete.store import ActionInput, TableRow, schema
from tapete.store import Store as Database
from tapete.web.store import Listed, Options, SeatConfig, SeatConflictError, Truth

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


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.done():  # its caller is gone (cancelled)
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)


def _seats(row: TableRow) -> list[SeatConfig]:
    return _configs(row.seats)


def _configs(seats: Sequence[dict[str, Any]]) -> list[SeatConfig]:
    names = {f.name for f in dataclasses.fields(SeatConfig)}
    return [SeatConfig(**{k: v for k, v in s.items() if k in names}) for s in seats]


def _options(row: TableRow) -> Options:
    names = {f.name for f in dataclasses.fields(Options)}
    return Options(**{k: v for k, v in (row.options or {}).items() if k in names})


def _truth(row: TableRow) -> Truth:
    """The room of a match's row, as of that match: without its moves and records (read
    apart, by those who want them)."""
    assert row.room is not None  # a web room's rows: room_tables reads no other
    return Truth(
        code=row.room,
        spec=row.spec,
        seed=row.seed,
        seats=_seats(row),
        options=_options(row),
        host=row.host,
        started=row.status != "open",
        match=row.match or 0,
        created=row.created_at.timestamp(),
        params=row.params,
        seed_salt=row.seed_salt,
        started_by=row.started_by,
        asides=list(row.asides or []),
    )


class SqlStore:
    """The web ``Store`` on a ``tapete.store.Store`` (SQLite or PostgreSQL)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._match: dict[str, int] = {}  # room -> its current match
        # SQLite takes one writer at a time: writers in several threads would wait on its lock
        # with sleeps (a long latency tail), so its calls go to one thread, in turn.
        self._pool = (
            ThreadPoolExecutor(1, thread_name_prefix="tapete-sqlite")
            if db.engine.dialect.name == "sqlite"
            else None
        )
        # What waits for the database: accepted actions, committed together and before anything
        # else, and (SQLite) its other calls; one task hands them to the database in turn.
        self._queued: list[tuple[ActionInput, asyncio.Future[None]]] = []
        self._calls: deque[tuple[Callable[[], Any], asyncio.Future[Any]]] = deque()
        self._writer: asyncio.Task[None] | None = None

    async def _run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a worker thread: the event loop never waits on the database.

        SQLite's calls wait for its one thread behind the actions already queued, so that a
        finished match's record and ratings never hold up the moves at other tables.
        """
        if self._pool is None:
            return await asyncio.to_thread(call, *args)
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._calls.append((functools.partial(call, *args), done))
        self._wake_writer()
        return await done

    async def _in_thread(self, call: Callable[[], T]) -> T:
        if self._pool is None:
            return await asyncio.to_thread(call)
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    def _wake_writer(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        """Until nothing waits: every queued action in one transaction, then one other call, and
        again. Actions wait for at most one call; a call for at most one commit of actions, even
        while moves keep coming (they arrive during every commit under load)."""
        while self._queued or self._calls:
            if self._queued:
                batch, self._queued = self._queued, []
                await self._commit(batch)
            if not self._calls:
                continue
            call, done = self._calls.popleft()
            try:
                result = await self._in_thread(call)
            except asyncio.CancelledError:
                self._give_up([done])
                raise
            except Exception as exc:
                _settle(done, None, exc)
            else:
                _settle(done, result, None)

    async def _commit(self, batch: list[tuple[ActionInput, asyncio.Future[None]]]) -> None:
        """Commit a batch of actions (group commit), each told its own outcome.

        A room awaits each of its actions before it sends the next, so a batch holds at most one
        action per match and their order within it does not matter.
        """
        rows = [row for row, _ in batch]
        refused: Sequence[BaseException | None]
        try:
            refused = await self._in_thread(functools.partial(self.db.append_actions, rows))
        except asyncio.CancelledError:
            self._give_up([done for _, done in batch])
            raise
        except Exception as exc:  # the database failed: every action of the batch with it
            refused = [exc] * len(batch)
        for (_, done), error in zip(batch, refused, strict=True):
            _settle(done, None, error)

    def _give_up(self, waiting: list[asyncio.Future[Any]]) -> None:
        """The server stops: nobody waits for an answer any more."""
        waiting += [done for _, done in self._queued] + [done for _, done in self._calls]
        self._queued.clear()
        self._calls.clear()
        for done in waiting:
            done.cancel()

    async def create(self, truth: Truth) -> None:
        await self._run(self._create, truth, truth.match, truth.seed, truth.started)

    def _create(self, truth: Truth, match: int, seed: int, started: bool) -> None:
        """Match ``match``'s row, dealt from ``seed`` and hashed with ``truth.seed_salt``."""
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
            # the room's clock, which need not be this machine's (tests move it)
            created_at=datetime.fromtimestamp(truth.created, UTC) if truth.created else None,
            params=truth.params,
            seed_salt=truth.seed_salt,
            started_by=truth.started_by,
        )
        self._match[truth.code] = match

    async def append(
        self,
        code: str,
        match: int,
        index: int,
        seat: int,
        action: str,
        note: Mapping[str, Any] | None = None,
    ) -> None:
        # A taken index raises ConflictError (a ValueError); so does a match with no row. The
        # note goes in the move's own row: both are committed, or neither.
        committed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append(((table_id(code, match), index, seat, action, note), committed))
        self._wake_writer()
        await committed

    async def save_seats(
        self,
        code: str,
        seats: list[SeatConfig],
        host: str | None,
        *,
        was: list[SeatConfig] | None = None,
        aside: Mapping[str, Any] | None = None,
    ) -> None:
        rows = [s.to_json() for s in seats]
        match = self._match.get(code, 0)
        if was is None and aside is None:
            await self._run(
                functools.partial(
                    self.db.update_table, table_id(code, match), seats=rows, host=host
                )
            )
            return
        await self._run(self._swap_seats, table_id(code, match), rows, host, was, aside)

    def _swap_seats(
        self,
        tid: str,
        rows: list[dict[str, Any]],
        host: str | None,
        was: list[SeatConfig] | None,
        aside: Mapping[str, Any] | None = None,
    ) -> None:
        """The seats of table ``tid`` set to ``rows`` if they are still ``was`` (None: whatever
        they are), in one transaction (a compare-and-set): two servers seating two people at
        once in one seat cannot both win it. ``aside`` is added to the match's asides in it.

        The row is locked first, by a write that changes nothing (PostgreSQL: the row's lock;
        SQLite: the database's one writer lock), so a second writer waits for the first one's
        commit and then reads what it wrote, on either database, whatever its isolation level.
        """
        t = schema.tables
        with self.db.engine.begin() as c:
            locked = c.execute(update(t).where(t.c.id == tid).values(updated_at=t.c.updated_at))
            found = c.execute(select(t.c.seats, t.c.asides).where(t.c.id == tid)).first()
            if not locked.rowcount or found is None:
                raise ValueError(f"no match {tid}")
            stored, asides = found
            if was is not None and _configs(stored) != was:
                raise SeatConflictError(f"{tid}: the seats changed meanwhile")
            changes: dict[str, Any] = {"seats": rows, "host": host}
            if aside is not None:
                changes["asides"] = [*(asides or []), dict(aside)]
            c.execute(
                update(t).where(t.c.id == tid).values(**changes, updated_at=datetime.now(UTC))
            )

    async def start(
        self,
        code: str,
        match: int,
        seed: int,
        seed_salt: str | None,
        started_by: int | None = None,
    ) -> None:
        await self._run(self._start, code, match, seed, seed_salt, started_by)

    def _start(
        self, code: str, match: int, seed: int, seed_salt: str | None, started_by: int | None
    ) -> None:
        current = self._match.get(code, 0)
        if match == current:
            self.db.update_table(table_id(code, match), status="playing")
            return
        row = self.db.table(table_id(code, current))
        if row is None:
            raise ValueError(f"no room {code}")
        truth = Truth(
            code,
            row.spec,
            seed,
            _seats(row),
            options=_options(row),
            host=row.host,
            params=row.params,  # a rematch is played under the rules of the match before it
            seed_salt=seed_salt,
            started_by=started_by,
        )
        self._create(truth, match, seed, started=True)

    async def finish(self, code: str, match: int, record: str, *, rated: bool = True) -> None:
        await self._run(self._finish, code, match, record, rated)

    def _finish(self, code: str, match: int, record: str, rated: bool) -> None:
        tid = table_id(code, match)
        if self.db.record(tid) is not None:
            return  # already kept (a restart finishing a match again)
        row = self.db.table(tid)
        if row is None:
            raise ValueError(f"no match {tid}")
        data = orjson.loads(record)  # a whole match: orjson reads it several times faster
        game = played_game(row.spec, row.params)
        seats = _seats(row)
        result = data.get("result") or {}
        # Team games score per team: each seat is credited with its team's score.
        scores = seat_scores(result.get("scores") or [0] * game.players, game.teams)
        winners = set(result.get("winners") or [])
        results = [
            (i, participant(seat), int(scores[i]), i in winners) for i, seat in enumerate(seats)
        ]
        self.db.finish(tid, game.name, record, results, game.teams, rated=rated)

    async def rooms(self) -> list[Truth]:
        return await self._run(self._rooms)

    async def remove(self, code: str) -> None:
        await self._run(self.db.delete_room, code)
        self._match.pop(code, None)

    async def review(self, code: str, match: int) -> str | None:
        return await self._run(self.db.review, table_id(code, match))

    async def save_review(self, code: str, match: int, review: str, iterations: int) -> None:
        await self._run(self.db.save_review, table_id(code, match), review, iterations)

    async def room(self, code: str) -> Truth | None:
        """Room ``code`` as the database has it now (another server may have moved it)."""
        found = await self._run(self._rooms, code)
        return found[0] if found else None

    async def lobby(self, code: str | None = None) -> list[Listed]:
        return await self._run(self._lobby, code)

    def _lobby(self, code: str | None = None) -> list[Listed]:
        rows = self.db.room_tables(since=datetime.now(UTC) - KEEP_FINISHED, room=code)
        # "finished" once its record is kept: the match is over
        return [Listed(_truth(row), over=row.status == "finished") for row in rows]

    def _rooms(self, code: str | None = None) -> list[Truth]:
        rows = self.db.room_tables(since=datetime.now(UTC) - KEEP_FINISHED, room=code)
        actions = self.db.actions_of([row.id for row in rows])
        records = self.db.room_records([row.room for row in rows if row.room])
        out = []
        for row in rows:
            truth = _truth(row)
            self._match[truth.code] = truth.match
            truth.actions = [(a.seat, a.action) for a in actions[row.id]]
            truth.notes = {a.idx: a.note for a in actions[row.id] if a.note is not None}
            kept = records[truth.code]
            # A match before this one without its record (an earlier version's rematch over a
            # record not kept): a gap, so this match's record is still kept at its number.
            truth.records = kept + [None] * (truth.match - len(kept))
            out.append(truth)
        return out
