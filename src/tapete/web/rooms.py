"""The rooms of one server: every table by its code, made, listed, restored and expired.

A room (``tapete.web.room``) is one table; ``Rooms`` holds a server's rooms, gives each new
table a code, restores every table the store keeps when the server starts, and removes the
tables nobody started within a day.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tapete import bots
from tapete.errors import SpecError
from tapete.game import Game
from tapete.games import load
from tapete.record import params_json
from tapete.web.room import WATCHERS, Room, levels, new_salt, new_seed, summary
from tapete.web.seating import outer_refusal, table_token, token_hash
from tapete.web.store import Listed, Options, SeatConfig, Store, Truth
from tapete.web.thinking import Thinkers
from tapete.web.views import Connection, encode

if TYPE_CHECKING:
    from tapete.web.cluster import Cluster

__all__ = [
    "ABANDON_AFTER",
    "EXPIRE_AFTER",
    "Connection",
    "Room",
    "Rooms",
    "encode",
    "levels",
    "outer_refusal",
    "token_hash",
]

log = logging.getLogger("tapete.web")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
# The codes a table made with a creation key may have, in turn: one is taken by another table
# once in millions of codes, all of them never in practice.
KEYED_CODES = 8
EXPIRE_AFTER = 24 * 3600.0  # seconds a table may wait to be started before it is removed
ABANDON_AFTER = 3600.0  # seconds a match nobody is at waits before its bots finish it


def expired(truth: Truth, now: float) -> bool:
    """A table nobody started within a day of its making is abandoned: its creator left it
    waiting for friends or bots that never began. Started tables end by themselves (bots
    stand in for the people who left, and finish a match nobody is at: ``Room.alone``) and are
    kept a day after their last match."""
    return not truth.started and now - truth.created >= EXPIRE_AFTER


def lobby_order(truth: Truth) -> tuple[bool, int, float]:
    """Where a table comes in the lobby: waiting for players first (most free seats first),
    then being played; newest first among equals."""
    return truth.started, -sum(s.kind == "open" for s in truth.seats), -truth.created


def keyed_codes(key: str) -> list[str]:
    """The codes a table made with creation ``key`` may have, in the order tried: made from the
    key, so that its creation asked again looks at them and nowhere else. A code is no secret
    (the table's token is), and tells nothing of the key.

    >>> keyed_codes("a" * 22) == keyed_codes("a" * 22) != keyed_codes("b" * 22)
    True
    >>> all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in keyed_codes("a" * 22))
    True
    """
    codes = []
    for attempt in range(KEYED_CODES):
        digest = hashlib.sha256(f"tapete-code\0{attempt}\0{key}".encode()).digest()
        # 256 is a multiple of the alphabet's 32 letters: every letter as likely.
        codes.append("".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:CODE_LENGTH]))
    return codes


def check_seat_count(game: Game[Any, Any], given: int) -> None:
    """SpecError unless ``given`` seats are the ``game``'s number of seats."""
    if given != game.players:
        raise SpecError(
            "{spec} has {players} seats, not {given}",
            spec=game.spec,
            players=game.players,
            given=given,
        )


class Rooms:
    """The rooms of one server, by code; ``clock`` tells the time (seconds since the epoch)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        players: Mapping[str, bots.Bot] | None = None,
        thinkers: Thinkers | None = None,
        cluster: Cluster | None = None,
        *,
        abandon_after: float = ABANDON_AFTER,
    ) -> None:
        """``players``: the bot that plays each level at this server's tables, where it is not
        ``tapete.bots.load(level)`` (a cheaper hard search on a small machine, say);
        ``thinkers``: where bots decide (threads of this process unless given); ``cluster``:
        the other servers sharing the store's tables (none unless given); ``abandon_after``:
        the seconds a started match nobody is at waits for its people before its bots and
        stand-ins finish it (0: for ever)."""
        self.store = store
        self.clock = clock
        self.players = dict(players or {})
        self.thinkers = thinkers or Thinkers(0)
        self.cluster = cluster
        self.abandon_after = abandon_after
        self._rooms: dict[str, Room] = {}
        self._creating = asyncio.Lock()

    def _room(self, truth: Truth) -> Room:
        room = Room(truth, self.store, self.players, self.thinkers, self.cluster)
        room.abandon_after = self.abandon_after
        self._rooms[truth.code] = room
        return room

    def _served(self, truth: Truth) -> Room | None:
        """Table ``truth`` replayed and served here; None for a table this version cannot
        replay (stored by an older one with a rule option since dropped, say), which is left in
        the store and not served, with an error in the log naming it and why."""
        try:
            return self._room(truth)
        except Exception as exc:
            log.error(
                "room %s (%s, match %d) could not be replayed, so it is not served: %s",
                truth.code,
                truth.spec,
                truth.match,
                exc,
                exc_info=not isinstance(exc, SpecError),
            )
            return None

    async def restore(self) -> None:
        """Every table the store holds, replayed to where it was (``_served``: one this
        version cannot replay must not keep the server, and every other table, from starting);
        expired ones are removed."""
        now = self.clock()
        for truth in await self.store.rooms():
            if expired(truth, now):
                await self.store.remove(truth.code)
                continue
            room = self._served(truth)
            if room is not None:
                room.resume()

    async def expire(self) -> list[str]:
        """Remove the expired tables nobody is at (``expired``); returns their codes."""
        now = self.clock()
        gone = [
            code
            for code, room in self._rooms.items()
            if expired(room.truth, now) and not room.conns
        ]
        for code in gone:
            self._rooms.pop(code).close()
            await self.store.remove(code)
            if self.cluster is not None:
                await self.cluster.tell({"kind": "gone", "room": code})
        if gone:
            log.info("removed %d tables nobody started within a day", len(gone))
        return gone

    def get(self, code: str) -> Room | None:
        return self._rooms.get(code.strip().upper())

    async def find(self, code: str) -> Room | None:
        """Room ``code``: this server's, or, shared with other servers, one just made on
        another that this server has not heard of yet (read from the store)."""
        found = self.get(code)
        if found is not None or self.cluster is None:
            return found
        truth = await self.store.room(code.strip().upper())
        if truth is None:
            return None
        return self.get(truth.code) or self._served(truth)

    # --- news from other servers (tapete.web.cluster) --------------------------------------

    async def heard(self, news: Mapping[str, Any]) -> None:
        """Another server's move at one of the rooms (applied in the room's turn: see
        ``Room.in_turn``)."""
        room = await self.find(str(news["room"]))
        if room is not None:
            room.in_turn(lambda: room.heard(news))

    async def reload(self, code: str, note: Mapping[str, Any] | None = None) -> None:
        """Room ``code`` changed on another server (made, seated, started, a rematch);
        ``note``: the log entry said with the change there (``Room.reload``)."""
        room = self.get(code)
        if room is None:
            await self.find(code)
        else:
            room.in_turn(lambda: room.reload(note))

    def forget(self, code: str) -> None:
        """Room ``code`` was removed by another server."""
        room = self._rooms.pop(code, None)
        if room is not None:
            room.close()

    def presence_changed(self, code: str, seat: int) -> None:
        room = self.get(code)
        if room is None:
            return
        if 0 <= seat < len(room.truth.seats):
            room.presence_changed(seat)
        elif seat == WATCHERS:
            room.driver.wake()  # someone may be at the table again: its bots play on
            room.alone()  # or nobody is any more

    def connected(self) -> list[tuple[str, int, int]]:
        """Every seat with connections here, and the watchers (seat WATCHERS): (room, seat,
        how many)."""
        out = []
        for code, room in self._rooms.items():
            seats = [WATCHERS if c.seat is None else c.seat for c in room.conns]
            out += [(code, seat, seats.count(seat)) for seat in sorted(set(seats))]
        return out

    def needing_drivers(self) -> list[Room]:
        """The rooms a server must drive: started, and not over (or over without its record
        kept: the server that played the last move died before keeping it)."""
        return [
            room
            for room in self._rooms.values()
            if room.truth.started and (not room.over or len(room.truth.records) == room.truth.match)
        ]

    def take_over(self, code: str) -> None:
        """This server now holds room ``code``'s lease: the room catches up with the database
        and drives on, in a task of its own (the lease keeper must not wait for it: a room's
        catching up waits for its lock and the database, and the other leases meanwhile must
        be renewed)."""
        room = self.get(code)
        if room is not None:
            log.info("room %s: driven by this server now", code)
            room.spawn(room.take_over())

    async def resync(self) -> None:
        """Every room as the store has it now, after a time without news from the others:
        returns once each is read again."""
        known = {truth.code: truth for truth in await self.store.rooms()}
        for code in set(self._rooms) - set(known):
            self.forget(code)
        for code in known:
            await self.reload(code)
        await asyncio.gather(*(room.heard_all() for room in list(self._rooms.values())))

    def unavailable(self, text: str) -> None:
        """Everyone at a table here is told ``text`` (that it is unavailable for a moment) and
        their connection closed, 1013 (try again later): this server has lost touch with the
        others, so its tables may fall behind theirs."""
        for room in self._rooms.values():
            for conn in list(room.conns):
                conn.fail("unavailable", text)
                conn.close(1013)

    @property
    def behind(self) -> bool:
        """Whether this server's copies of the tables may be behind the truth: a server of
        several that is not serving (Redis away: it hears none of the others' changes)."""
        return self.cluster is not None and not self.cluster.serving

    async def listed(self, code: str | None = None) -> list[Listed]:
        """Every table (or table ``code`` only: none when there is none) with whether its match
        is over: this server's copies, or the database's rows while they may be behind.

        The lobby is read from the database then, rather than refused (503): the database
        holds every server's tables as they are, so a person looking for a table still finds
        the ones that exist, with their seats as taken now (joining and making a table go
        through the database too), where a refusal would leave them an empty lobby for the
        time Redis is away. It costs one read of the tables' rows (no moves, no records) per
        listing, and only meanwhile."""
        if self.behind:
            return await self.store.lobby(None if code is None else code.strip().upper())
        if code is None:
            return [Listed(room.truth, room.over) for room in self._rooms.values()]
        room = await self.find(code)
        return [] if room is None else [Listed(room.truth, room.over)]

    async def summary(self, code: str) -> dict[str, Any] | None:
        """Table ``code`` as the lobby tells it (``listed``); None when there is no such
        table."""
        found = await self.listed(code)
        return self._summary(found[0]) if found else None

    def _summary(self, listed: Listed) -> dict[str, Any] | None:
        """``listed`` as the lobby tells it; None for a table read from the database that this
        version cannot play (see ``_served``), which the lobby leaves out."""
        room = None if self.behind else self._rooms.get(listed.truth.code)
        if room is not None:  # its game at hand, not loaded again from its spec
            return room.summary()
        try:
            return summary(listed.truth, listed.over)
        except SpecError:
            return None

    async def page(self, page: int, per_page: int) -> dict[str, Any]:
        """Page ``page`` (from 1) of the public tables not over (``listed``), ``per_page``
        tables a page, with the total: those waiting for players first (most free seats
        first), then those being played; newest first among equals.

        Only the tables on the page are summarised: every open lobby asks for it every few
        seconds, however many tables there are.
        """
        listed = [t for t in await self.listed() if t.truth.options.public and not t.over]
        listed.sort(key=lambda t: lobby_order(t.truth))
        start = (page - 1) * per_page
        return {
            "tables": [
                told
                for t in listed[start : start + per_page]
                if (told := self._summary(t)) is not None
            ],
            "total": len(listed),
            "page": page,
            "per_page": per_page,
            "pages": max(1, -(-len(listed) // per_page)),
        }

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._rooms:
                return code

    async def made(self, key: str) -> tuple[Room, str, int | None] | None:
        """The table made with creation ``key`` (``create``), as ``create`` answered it: the
        room, the creator's token and seat (None if the creator has left it); None if no table
        was made with it, or it has expired since."""
        return (await self._keyed(key))[0]

    async def _keyed(self, key: str) -> tuple[tuple[Room, str, int | None] | None, str | None]:
        """The table made with creation ``key`` (``made``), and else the code of
        ``keyed_codes(key)`` a table made with it now takes: the first no table has (None: every
        one taken), read in the same look, so that one made meanwhile by another server is
        found rather than passed over as taken."""
        token = table_token(key)
        mine = token_hash(token)
        free = None
        for code in keyed_codes(key):
            room = await self.find(code)
            if room is None:
                free = free or code
                continue
            truth = room.truth
            seats = [i for i, s in enumerate(truth.seats) if s.token == mine]
            # The host passes on when the creator leaves, the seat may be kept: either is theirs.
            if seats or truth.host == mine:
                return (room, token, seats[0] if seats else None), None
        return None, free

    async def create(
        self,
        spec: str,
        seats: Sequence[SeatConfig],
        *,
        name: str,
        options: Options,
        seed: int | None = None,
        player: str | None = None,
        key: str | None = None,
    ) -> tuple[Room, str, int | None]:
        """A new table; the creator is its host and sits in the first ``human`` seat (other
        human seats are left open for friends; ``player`` is the creator's player id, if any).
        Returns the room, the creator's token and seat.

        With the client's creation ``key`` the token is ``table_token(key)`` and the code the
        first free one of ``keyed_codes(key)``; a table made with that key already (the same
        request again, its answer lost) is answered as it was (``made``), nothing made,
        whatever this one asks: on this server, and from another sharing the store, whose
        unique codes refuse the second of two racing.

        Raises SpecError for a bad spec or seat count.
        """
        game = load(spec)
        check_seat_count(game, len(seats))
        if key is None:
            token = secrets.token_urlsafe(18)
            return await self._create(game, seats, name, options, seed, player, token)
        async with self._creating:  # two of one key here: the second finds the first's table
            made, free = await self._keyed(key)
            if made is not None:
                return made
            try:
                # Every code taken (never in practice): another, which a retry will not find.
                return await self._create(
                    game, seats, name, options, seed, player, table_token(key), free
                )
            except Exception:
                # Two servers at once: the second's code is taken, by the first's table.
                made = await self.made(key)
                if made is None:
                    raise
                return made

    async def _create(
        self,
        game: Game[Any, Any],
        seats: Sequence[SeatConfig],
        name: str,
        options: Options,
        seed: int | None,
        player: str | None,
        token: str,
        code: str | None = None,
    ) -> tuple[Room, str, int | None]:
        """``create``'s table, with the creator's ``token``, at ``code`` (a new one if None)."""
        if seed is not None:  # said to everyone at the table: the host could know every hand
            options = dataclasses.replace(options, chosen_seed=True)
        configs: list[SeatConfig] = []
        mine: int | None = None
        for i, s in enumerate(seats):
            if s.kind == "human" and mine is None:
                mine = i
                configs.append(
                    SeatConfig("human", name, options.standby, token_hash(token), player=player)
                )
            elif s.kind == "bot":
                configs.append(SeatConfig("bot", "", s.level))
            else:
                configs.append(SeatConfig("open", "", options.standby))
        truth = Truth(
            code=code or self._new_code(),
            spec=game.spec,
            seed=new_seed() if seed is None else seed,
            seats=configs,
            options=options,
            host=token_hash(token),
            created=self.clock(),
            params=params_json(game),
            seed_salt=new_salt(),  # every match its own, a chosen seed's too
        )
        await self.store.create(truth)
        room = self._room(truth)
        await room.changed()
        return room, token, mine

    def close(self) -> None:
        for room in self._rooms.values():
            room.close()

    def __len__(self) -> int:
        return len(self._rooms)
