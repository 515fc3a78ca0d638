"""Many servers, one truth: PostgreSQL keeps every table, Redis carries the news between them.

Any number of ``tapete serve`` processes, on one host or many, share one PostgreSQL database and
one Redis (``--db postgresql://… --redis redis://…``). Every server keeps every room (replayed
from the database when it starts) and accepts any connection and any seat's action:

- **An action** is checked against the server's copy of the room and committed to PostgreSQL
  under the (match, move number) uniqueness the actions table already has; only then is it told
  to this server's connections and published on Redis, where the other servers apply it to their
  copies and tell theirs. Two servers that accept a move for the same number (a person's second
  tab on another server, a bot and its stand-in) cannot both commit it: the loser finds the
  number taken, reads the room again from the database and checks the action anew. This was
  chosen over forwarding each action to the room's owner because it needs no request and reply
  across servers (a move costs one commit and one publish wherever it arrives) and a server's
  death loses nothing in flight: what was acknowledged is committed, what was not was never
  told.
- **Driving** a room — its bots, its turn timer, stand-ins for people away — is done by one
  server at a time: the one holding the room's lease in Redis (``PREFIX:lease:CODE``, a key that
  expires unless its holder renews it). Servers take the leases of rooms that have none; when a
  server dies its leases lapse and another takes its rooms over within a lease. A server that
  cannot reach Redis stops driving at once (it could not renew: another may take over).
- **A server without Redis serves no table.** It hears no other server's moves, so its copy of
  a table may be behind theirs, and the others would not hear its own: rather than show a stale
  table as the truth, it tells everyone at its tables that the table is unavailable for a
  moment and closes their connections (1013, try again later: the pages reconnect, behind a
  balancer perhaps to a server that has Redis), and refuses new ones likewise. It says so in its
  log and on ``/api/health``. When Redis returns it listens again, reads every room again from
  the database, tells the others to read again the rooms whose news it could not send, and only
  then serves its tables again (``serving``). Its lobby meanwhile lists the tables as the
  database has them (``Rooms.listed``), not its copies.
- **Who is here** — which seats have a connection on some server — is news too, so the server
  driving a room lets a bot stand in only for people connected nowhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy.exc import SQLAlchemyError

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from tapete.web.reviews import Reviews
    from tapete.web.rooms import Rooms

__all__ = ["LEASE", "LEASE_RANGE", "UNAVAILABLE", "Cluster"]

log = logging.getLogger("tapete.web")

LEASE = 5.0  # seconds a room's lease lasts unless renewed (renewed every third of it)
# The leases a site may choose, in seconds. Shorter than a second, a renewal (every third of a
# lease) must fit a Redis round trip and a busy event loop in a few hundred milliseconds, or
# rooms change drivers while their server is alive (under a millisecond Redis cannot even keep
# the key). Longer than a minute, the tables of a dead server stand still that long while its
# people, told by the browsers' pings within seconds, are already back on another server.
LEASE_RANGE = (1.0, 60.0)
CLOSE_WAIT = 3.0  # seconds a stopping server waits, at most, for its Redis tasks and goodbyes
START_WAIT = 5.0  # seconds a starting server waits, at most, to serve before it takes connections
UNAVAILABLE = "this table is unavailable for a moment: trying again…"  # said to people

RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def server_name() -> str:
    """This process among the servers: host, pid and a random tag (a pid is reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    """This server's link to the others through Redis at ``url``, its keys and channel under
    ``prefix``; ``lease`` seconds for a room's lease."""

    def __init__(self, url: str, *, prefix: str = "tapete", lease: float = LEASE) -> None:
        low, high = LEASE_RANGE
        if not low <= lease <= high:  # also refuses nan
            raise ValueError(f"a lease lasts {low:g} to {high:g} seconds, not {lease}")
        self.url = url
        self.prefix = prefix
        self.lease = lease
        self.me = server_name()
        self.channel = f"{prefix}:news"
        self.owned: set[str] = set()  # the rooms this server drives
        # room -> until when (time.monotonic) this server may drive it: the lease's end as
        # counted from before it was asked for, so it ends here before it ends in Redis
        self._until: dict[str, float] = {}
        self.up = False  # whether Redis answered the last time it was asked
        # room -> seat -> server -> connections: who is here, on every server
        self.presence: dict[str, dict[int, dict[str, int]]] = {}
        self._redis: Redis | None = None
        self._tasks: list[asyncio.Task[None]] = []
        # news waiting for the publisher, who sends all that waits as one message
        self._outbox: list[dict[str, Any]] = []
        self._news = asyncio.Event()
        self._rooms: Rooms | None = None
        self.reviews: Reviews | None = None  # the coach's reviews: how far each server's are
        # What the log last said was away (Redis, or the database a catch-up reads), until this
        # server serves again: each is said once, not once a retry.
        self._said_away: str | None = None
        # Bumped each time Redis is found gone: the listener then starts anew (news may have
        # been missed), and the server serves again only once it has read every room again.
        self._epoch = 0
        self._caught_up = False
        self._ready = asyncio.Event()  # serving, for the first time
        self._lost: set[str] = set()  # rooms whose news could not be sent: to be read again

    # --- lifetime --------------------------------------------------------------------------

    async def start(self, rooms: Rooms) -> None:
        """Listen to the other servers and take the leases of rooms nobody drives; returns once
        this server is serving (``START_WAIT`` seconds at most: without Redis it starts all
        the same, and serves its tables once Redis answers)."""
        from redis.asyncio import Redis

        self._rooms = rooms
        self._redis = Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._hold()),
            loop.create_task(self._publish()),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), START_WAIT)

    @property
    def serving(self) -> bool:
        """Whether this server may serve its tables: Redis answers, and since Redis was last
        away this server has listened again and read every room again, so no table here is
        behind another server's moves, and the others hear this server's."""
        return self.up and self._caught_up

    async def close(self) -> None:
        """Leave the others: give back every lease at once (they take the rooms over at their
        next look, not a lease later) and stop listening."""
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # Each wait is bounded: a task stuck in the Redis client (a read or a pipeline that
            # does not end on its cancel) must not keep a server that was told to stop.
            done, _ = await asyncio.wait(self._tasks, timeout=CLOSE_WAIT)
            for task in done:
                if not task.cancelled():
                    task.exception()  # read, so a task that failed on its way out says no more
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._goodbye(self._redis), CLOSE_WAIT)
            self.owned.clear()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._redis.aclose(), CLOSE_WAIT)

    async def _goodbye(self, redis: Redis) -> None:
        """The last moves' news, then every lease given back and the life sign gone."""
        if self._outbox and self.up:  # the news first: the leases go after it
            batch, self._outbox = self._outbox, []
            await redis.publish(self.channel, orjson.dumps({"from": self.me, "news": batch}))
        for code in list(self.owned):
            await redis.eval(RELEASE, 1, self._lease_key(code), self.me)
        await redis.delete(self._alive_key(self.me))

    def report(self) -> dict[str, Any]:
        return {
            "server": self.me,
            "redis": "up" if self.up else "down",
            "serving": self.serving,
            "driving": len(self.owned),
        }

    # --- news ------------------------------------------------------------------------------

    async def tell(self, news: dict[str, Any]) -> None:
        """Publish ``news`` to the other servers, after everything told before it; while Redis
        is away it is dropped, and its room's name kept: the others are told to read the room
        again from the database (which has the truth) once Redis returns.

        It is queued, not sent here: one publisher sends whatever is waiting as one message
        while the last one is on its way, so a busy server makes one Redis round trip for many
        moves (not one each, on as many connections as moves in flight), and the others read
        its news in the order it was told.
        """
        if self._redis is None or not self.up:  # no waiting on a Redis that is away
            self._missed([news])
            return
        self._outbox.append(news)
        self._news.set()

    async def _publish(self) -> None:
        """Send the queued news, all that waits in one message, until cancelled."""
        assert self._redis is not None
        while True:
            await self._news.wait()
            self._news.clear()
            batch, self._outbox = self._outbox, []
            if not batch or not self.up:
                self._missed(batch)
                continue
            try:
                await self._redis.publish(
                    self.channel, orjson.dumps({"from": self.me, "news": batch})
                )
            except Exception as exc:
                self._missed(batch)
                self._down(exc)

    def _missed(self, batch: list[dict[str, Any]]) -> None:
        """News the others did not get: the rooms it changed are read again by them later."""
        self._lost.update(str(n["room"]) for n in batch if n.get("kind") in ("act", "room"))

    def owns(self, code: str) -> bool:
        """Whether this server drives room ``code``: it holds the room's lease, and the lease
        has not run out since it was last renewed (a server whose renewals are late stops
        before another may take over)."""
        return self.up and code in self.owned and time.monotonic() < self._until.get(code, 0.0)

    def anyone_elsewhere(self, code: str) -> bool:
        """Whether room ``code`` has a connection on another server, seated or watching."""
        seats = self.presence.get(code, {}).values()
        return any(n > 0 for counts in seats for s, n in counts.items() if s != self.me)

    def here_elsewhere(self, code: str, seat: int) -> bool:
        """Whether seat ``seat`` of room ``code`` has a connection on another server."""
        counts = self.presence.get(code, {}).get(seat, {})
        return any(n > 0 for server, n in counts.items() if server != self.me)

    async def here(self, code: str, seat: int, count: int) -> None:
        """This server now has ``count`` connections for ``seat`` of room ``code`` (the seat
        ``tapete.web.room.WATCHERS``: people watching)."""
        await self.tell({"kind": "presence", "room": code, "seat": seat, "count": count})

    async def _listen(self) -> None:
        """Apply the other servers' news, and after a break catch up with the database."""
        assert self._redis is not None and self._rooms is not None
        rooms = self._rooms
        while True:
            pubsub = self._redis.pubsub()
            try:
                epoch = self._epoch
                await pubsub.subscribe(self.channel)
                self._back()
                await rooms.resync()  # whatever was missed while away
                if epoch == self._epoch:
                    self._caught_up = True
                    self._ready.set()
                    if self._said_away is not None:
                        log.warning("caught up with the database: serving tables again")
                        self._said_away = None
                await self.tell({"kind": "who"})
                await self._tell_presence()
                while epoch == self._epoch:  # else Redis went away meanwhile: listen anew
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    said = orjson.loads(message["data"])
                    sender = str(said.get("from"))
                    if sender == self.me:
                        continue
                    for news in said.get("news", ()):
                        try:
                            await self._apply(news, sender)
                        except Exception:
                            log.exception("news from server %s was not applied", sender)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._down(exc)
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), CLOSE_WAIT)

    async def _apply(self, news: dict[str, Any], sender: str) -> None:
        assert self._rooms is not None
        rooms, kind = self._rooms, news.get("kind")
        if kind == "act":
            await rooms.heard(news)
        elif kind == "room":
            note = news.get("note")
            await rooms.reload(str(news["room"]), note if isinstance(note, dict) else None)
        elif kind == "gone":
            rooms.forget(str(news["room"]))
        elif kind == "presence":
            code, seat = str(news["room"]), int(news["seat"])
            seats = self.presence.setdefault(code, {})
            seats.setdefault(seat, {})[sender] = int(news["count"])
            rooms.presence_changed(code, seat)
        elif kind == "who":
            # A server (re)joining tells all its connections next: what it told before is
            # forgotten, since those it closed while Redis was away could not say they left.
            self._forget_the_dead([sender])
            await self._tell_presence()
        elif kind in ("review", "review-cancel") and self.reviews is not None:
            self.reviews.heard(news)

    async def _tell_presence(self) -> None:
        assert self._rooms is not None
        for code, seat, count in self._rooms.connected():
            await self.here(code, seat, count)

    # --- leases ----------------------------------------------------------------------------

    def _lease_key(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    def _alive_key(self, server: str) -> str:
        return f"{self.prefix}:alive:{server}"

    async def _hold(self) -> None:
        """Every third of a lease: renew this server's leases, take the free ones, and forget
        the connections of servers that are gone."""
        assert self._rooms is not None
        while True:
            try:
                await self._hold_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._down(exc)
            await asyncio.sleep(self.lease / 3)

    async def _hold_once(self) -> None:
        """One look at the leases, in one Redis round trip however many rooms there are: a
        server whose event loop is busy with moves must still renew all of its leases (and its
        life sign) well within a lease, or the others take its rooms and forget its people."""
        assert self._redis is not None and self._rooms is not None
        redis, ms = self._redis, int(self.lease * 1000)
        needing = [room.code for room in self._rooms.needing_drivers()]
        done = self.owned - set(needing)  # over: let them go
        servers = sorted(
            {s for seats in self.presence.values() for c in seats.values() for s in c} - {self.me}
        )
        asked = time.monotonic()
        async with redis.pipeline(transaction=False) as pipe:
            pipe.set(self._alive_key(self.me), "1", px=ms, get=True)
            for code in needing:
                if code in self.owned:
                    pipe.eval(RENEW, 1, self._lease_key(code), self.me, ms)
                else:
                    pipe.set(self._lease_key(code), self.me, nx=True, px=ms)
            for code in done:
                pipe.eval(RELEASE, 1, self._lease_key(code), self.me)
            for server in servers:
                pipe.exists(self._alive_key(server))
            answers = iter(await pipe.execute())
        lapsed = next(answers) is None  # the others may have forgotten this server's people
        self._back()
        won = []
        for code in needing:
            answer = next(answers)
            if code in self.owned:
                if answer:
                    self._until[code] = asked + self.lease
                else:  # another server holds it, or nobody: tried again at the next look
                    self.owned.discard(code)
                    log.warning("room %s: its lease went to another server", code)
            elif answer:
                self.owned.add(code)
                self._until[code] = asked + self.lease
                won.append(code)
        for code in done:
            next(answers)
            self.owned.discard(code)
        self._forget_the_dead([s for s in servers if not next(answers)])
        if lapsed:
            await self._tell_presence()
        for code in won:
            self._rooms.take_over(code)

    def _forget_the_dead(self, dead: list[str]) -> None:
        """Connections counted on servers that stopped renewing their life sign are gone."""
        assert self._rooms is not None
        for server in dead:
            for code, seats in self.presence.items():
                for seat, counts in seats.items():
                    if counts.pop(server, 0):
                        self._rooms.presence_changed(code, seat)

    # --- Redis away and back ---------------------------------------------------------------

    def _down(self, exc: BaseException) -> None:
        serving = self.serving
        dropped = sorted(self.owned)
        self.owned.clear()  # it cannot renew them: another server may take them over
        self.up = False
        self._caught_up = False
        self._epoch += 1
        if serving and self._rooms is not None:
            self._rooms.unavailable(UNAVAILABLE)
        # Catching up reads every room from the database: a database away then fails it too,
        # and the host must be sent to the part that is really away.
        away = "the database" if isinstance(exc, SQLAlchemyError) else f"Redis at {self.url}"
        if away != self._said_away:
            self._said_away = away
            log.error(
                "%s is unreachable (%s): this server stops driving its %d rooms and serves no "
                "table (its people are told to try again) until it returns; trying again every "
                "second",
                away,
                exc,
                len(dropped),
            )

    def _back(self) -> None:
        """Redis answered (the listener subscribed again)."""
        if not self.up and self._said_away == f"Redis at {self.url}":
            log.warning("Redis at %s answers again: catching up with the database", self.url)
        self.up = True
        if self._lost:  # what the others could not hear: they read those rooms again
            self._outbox += [{"kind": "room", "room": code} for code in sorted(self._lost)]
            self._lost.clear()
            self._news.set()
