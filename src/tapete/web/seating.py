"""Who sits where at a room: people taking seats, the host arranging them, and people away.

A person who leaves keeps their seat: it waits ``grace`` seconds for them, then a bot of the
table's ``standby`` level stands in until they come back.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import secrets
import time
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from tapete import bots, players
from tapete.errors import IllegalActionError
from tapete.i18n import LANGUAGES
from tapete.narrate import seat_name
from tapete.web.store import SeatConfig, SeatConflictError

if TYPE_CHECKING:
    from tapete.web.room import Room
    from tapete.web.views import Connection

__all__ = [
    "FAILED",
    "QUIET",
    "Seating",
    "distinct_name",
    "error",
    "is_seat",
    "join_token",
    "outer_refusal",
    "refused_name",
    "table_token",
    "token_hash",
]

MAX_NAME = 24  # characters of a person's name at a table
# A note kept with a move but not said in the log: a stand-in's moves after its first one.
QUIET = "quiet"
# A note's flag: the bot that made the move failed, and a random legal move stood in. Said
# after the note's own line, so a stand-in's or a timed-out move's line is not lost.
FAILED = "failed"
TRIES = 5  # compare-and-sets a join tries while other servers keep changing the seats


def token_hash(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def join_token(code: str, key: str) -> str:
    """The seat token of a join made with the client's join ``key`` at table ``code``: the
    same for the same key, so a join asked again (its answer lost on the way) finds the seat
    it took and gives its token back, though the store keeps only the token's hash. As
    secret as the key, which only that client knows; another table's is another token.

    >>> join_token("K7QX2", "a" * 22) == join_token("K7QX2", "a" * 22)
    True
    >>> join_token("K7QX2", "a" * 22) == join_token("ZZZZZ", "a" * 22)
    False
    """
    digest = hashlib.sha256(f"tapete-join\0{code}\0{key}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def table_token(key: str) -> str:
    """The host's token of a table made with the client's creation ``key``: the same for the
    same key, so a creation asked again (its answer lost) finds the table it made and gives
    its token back (``Rooms.create``). As secret as the key; another key's is another token.

    >>> table_token("a" * 22) == table_token("a" * 22) != table_token("b" * 22)
    True
    """
    digest = hashlib.sha256(f"tapete-table\0{key}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def outer_refusal(level: str) -> str | None:
    """Why the web app refuses a seat that names a program or a file (``exec(...)``), or None
    for any other name: the server would run what a visitor names.

    >>> outer_refusal('exec(cmd="./mybot")').split(":")[0]
    'exec(cmd="./mybot") is not for the web app'
    >>> outer_refusal("genius") is None
    True
    """
    if not players.is_outer(level):
        return None
    return (
        f"{level} is not for the web app: outside bots run a program of the machine they play"
        " on, so only tapete play and tapete arena seat them; the bot levels here are"
        f" {', '.join(bots.LEVELS)}"
    )


JOINERS = "\u200c\u200d"  # ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER
_NO_JOINERS = str.maketrans("", "", JOINERS)


def name_key(name: str) -> str:
    """What a name looks like at the table: the part before its first " · " (all a column of the
    score table shows of a bot's name), its lookalike characters made one (NFKC: a full-width
    "Ａ" is an "A"), without case, runs of spaces or zero-width joiners (a name written with one
    and without it are told apart as twins are).

    >>> name_key("bot 2 · hard"), name_key("  ＢＯＴ  2 "), name_key("Ana · the best")
    ('bot 2', 'bot 2', 'ana')
    """
    short = unicodedata.normalize("NFKC", name).split("\u00b7")[0].translate(_NO_JOINERS)
    return " ".join(short.casefold().split())


def refused_name(name: str, seats: int) -> str | None:
    """Why a person may not take ``name`` at a table of ``seats`` seats, or None: a name the
    table gives a seat by itself, in any of its languages (a bot's "bot 2", an unnamed
    person's "player 3", "empty seat"), would pass a person off as a bot, or as someone else.

    >>> print(refused_name("Bot 3", 4).split(":")[1])
     'Bot 3' is how the table names a seat of its own
    >>> refused_name("jogador 1", 4) is None, refused_name("Ana", 4) is None
    (False, True)
    """
    given = {
        name_key(seat_name(lang, seat, kind))
        for lang in LANGUAGES
        for seat in range(seats)
        for kind in ("human", "bot", "open")
    }
    if name_key(name) not in given:
        return None
    return (
        f"name: {name!r} is how the table names a seat of its own: a bot, an empty seat or a"
        " player with no name; choose another name"
    )


def distinct_name(name: str, others: Sequence[str]) -> str:
    """``name``, numbered when it looks like one of ``others`` (the people at the table): two
    people are never told apart by their seats alone, nor one taken for the other. An empty
    name stays empty (the table calls it by its seat).

    >>> distinct_name("ana", ["Ana", "Ana (2)"]), distinct_name("Bea", ["Ana"])
    ('ana (3)', 'Bea')
    """
    taken = {name_key(other) for other in others}
    if not name or name_key(name) not in taken:
        return name
    number = 2
    while True:
        suffix = f" ({number})"
        numbered = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if name_key(numbered) not in taken:
            return numbered
        number += 1


def is_seat(value: Any, seats: int) -> TypeGuard[int]:
    """Whether ``value`` numbers one of ``seats`` seats: a whole number, not JSON's true or
    false, which Python would read as seat 1 or 0.

    >>> is_seat(1, 4), is_seat(True, 4), is_seat(4, 4), is_seat(1.0, 4)
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats


def error(rule: str, message: str) -> IllegalActionError:
    return IllegalActionError(rule, message)


class Seating:
    """The seats of one room and who is away from them."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.away: dict[int, float] = {}  # seat -> when its person left
        self.standin: set[int] = set()  # seats a bot plays while their person is away
        # The match and move number at which each seat's person was last here again
        # (``back``): a stand-in after it is said anew, whatever the stand-in said before.
        # Known here from this server's connections and the others' news; kept in the store
        # too, as a quiet aside, once a stand-in played for them (``return_aside``): after a
        # restart, or on a server that heard none of it, a stand-in after they left again
        # was kept quiet, and the person's moves since read as their own.
        self.returned: dict[int, tuple[int, int]] = {}
        self._grace: dict[int, asyncio.Task[None]] = {}

    def person_plays(self, seat: int) -> bool:
        return self.room.truth.seats[seat].kind == "human" and seat not in self.standin

    def connected(self, seat: int) -> bool:
        """Whether the person of ``seat`` has a connection here or on another server."""
        room = self.room
        if any(c.seat == seat for c in room.conns):
            return True
        return room.cluster is not None and room.cluster.here_elsewhere(room.code, seat)

    def seat_of(self, token: str | None) -> int | None:
        """The seat of the person whose token hashes to ``token``."""
        if token is None:
            return None
        for i, seat in enumerate(self.room.truth.seats):
            if seat.kind == "human" and seat.token == token:
                return i
        return None

    # --- people coming and going ---------------------------------------------------------

    def back(self, seat: int) -> None:
        """The person of ``seat`` is here again: no more waiting for them, no stand-in."""
        self.away.pop(seat, None)
        task = self._grace.pop(seat, None)
        if task is not None:
            task.cancel()
        self.returned[seat] = (self.room.truth.match, self.room.version)
        if seat in self.standin:
            self.standin.discard(seat)
            self.room.driver.set_deadline()

    def gone(self, seat: int) -> None:
        """The person of ``seat`` has no connection left: their seat waits, then a bot plays."""
        if self.room.truth.seats[seat].kind != "human" or seat in self.away:
            return
        self.away[seat] = time.monotonic()
        self._grace[seat] = self.room.spawn(self._stand_in(seat))

    def standing_in(self, seat: int) -> dict[str, Any]:
        """The note kept with a stand-in's move for ``seat``: said in the log (``stand_in``)
        before its first move since its person left, quiet (``QUIET``) at the next ones.
        Without it the person, back, would read moves they never made as their own.

        Whether it was said is read from the moves' notes, which the store keeps and every
        server of a cluster has: the seat's last move in this match a stand-in's and its
        person not here again since, it was. A restart, or another server driving the table
        now, does not say it twice."""
        note = {"kind": "stand_in", "seat": seat}
        last = self._stood_in(seat)
        if last is not None and self._back_at(seat) <= last:
            note[QUIET] = True
        return note

    def return_aside(self, seat: int) -> dict[str, Any] | None:
        """What the store keeps of the person of ``seat`` here again (``back``): a quiet
        aside (``Truth.asides``) at the moves played now, when their seat's last move in this
        match is a stand-in's not followed by a return kept already; else None (nothing to
        keep: a stand-in after they leave again is said without it)."""
        last = self._stood_in(seat)
        if last is None or self._kept_back(seat) > last:
            return None
        return {"kind": "back", "seat": seat, "at": self.room.version, QUIET: True}

    def _stood_in(self, seat: int) -> int | None:
        """The number of ``seat``'s last move in this match when a stand-in made it, else None."""
        t = self.room.truth
        last = next((i for i in range(len(t.actions) - 1, -1, -1) if t.actions[i][0] == seat), None)
        if last is None:
            return None
        before = t.notes.get(last) or {}
        stood_in = before.get("kind") == "stand_in" and before.get("seat") == seat
        return last if stood_in else None

    def _kept_back(self, seat: int) -> int:
        """The moves played when the person of ``seat`` was last back in this match, as the
        store keeps it (-1: never)."""
        kept = [
            int(a.get("at", 0))
            for a in self.room.truth.asides
            if a.get("kind") == "back" and a.get("seat") == seat
        ]
        return max(kept, default=-1)

    def _back_at(self, seat: int) -> int:
        """The moves played when the person of ``seat`` was last back in this match, as this
        server saw it or the store keeps it (-1: never)."""
        match, back = self.returned.get(seat, (self.room.truth.match, -1))
        if match != self.room.truth.match:  # back in a match before this one
            back = -1
        return max(back, self._kept_back(seat))

    async def _stand_in(self, seat: int) -> None:
        await asyncio.sleep(self.room.truth.options.grace)
        # The host may have moved the person meanwhile (before the start): the wait goes with
        # them, filed under their seat now.
        me = asyncio.current_task()
        seat = next((s for s, task in self._grace.items() if task is me), seat)
        if seat in self.away:
            self.standin.add(seat)
            self._grace.pop(seat, None)
            self.room.broadcast.room_to_all()
            self.room.driver.wake()
            if not self.room.truth.started:
                await self.room.hand_on_host()

    def keyed_seat(self, key: str) -> tuple[int, str] | None:
        """The seat a join made with ``key`` took already, and its token (the join asked again,
        its answer lost), as this server knows the table; None if no seat holds it."""
        token = join_token(self.room.truth.code, key)
        digest = token_hash(token)
        for i, s in enumerate(self.room.truth.seats):
            if s.token == digest:
                return i, token
        return None

    async def seat_person(
        self, name: str, seat: int | None, player: str | None = None, key: str | None = None
    ) -> tuple[int, str]:
        """Sit a person at an open seat (``seat`` or the first); returns the seat and its token.

        The seat is taken in the store by a compare-and-set on the seats read: shared with
        other servers, a seat taken on another one meanwhile makes it fail, and the seats are
        read again and the choice made anew (``seat`` taken: refused as any taken seat).

        With the client's join ``key`` the token is ``join_token(code, key)``, and a join with
        a key whose seat is taken already (the same request again, its answer lost) is
        answered with that seat and token, nothing changed, whatever it asks; from any server,
        after a restart too, as the store keeps the token's hash."""
        room = self.room
        count = len(room.truth.seats)
        if seat is not None and not is_seat(seat, count):  # not a taken seat: no seat at all
            raise error("bad-seat", f"there is no seat {seat}: seats are 0 to {count - 1}")
        async with room.lock:
            if room.cluster is not None:
                await room.resync()  # another server may have seated someone just now
            for _ in range(TRIES):
                t = room.truth
                if key is not None and (held := self.keyed_seat(key)) is not None:
                    return held
                token = secrets.token_urlsafe(18) if key is None else join_token(t.code, key)
                open_seats = [i for i, s in enumerate(t.seats) if s.kind == "open"]
                if not open_seats:
                    raise error("table-full", "no seat is free at this table")
                chosen = open_seats[0] if seat is None else seat
                if chosen not in open_seats:
                    raise error("seat-taken", f"seat {chosen} is not free")
                seats = copy.deepcopy(t.seats)
                people = [s.name for s in t.seats if s.kind == "human"]
                seats[chosen] = SeatConfig(
                    "human",
                    distinct_name(name, people),
                    t.options.standby,
                    token_hash(token),
                    player=player,
                )
                try:
                    await room.store.save_seats(t.code, seats, t.host, was=t.seats)
                except SeatConflictError:
                    await room.resync()  # taken on another server meanwhile: look again
                    continue
                t.seats[chosen] = seats[chosen]
                room.broadcast.room_to_all()
                return chosen, token
            raise error("seat-taken", "the seats keep changing: try again")

    # --- the host's seat controls --------------------------------------------------------

    def arrange(self, kind: str, msg: Mapping[str, Any]) -> None:
        """The host's ``fill``, ``seat``, ``move`` or ``remove``; raises IllegalActionError
        naming the rule when refused (nothing changes then)."""
        t = self.room.truth
        n = len(t.seats)
        seat, to, level = msg.get("seat"), msg.get("to"), msg.get("level", t.options.standby)
        if not isinstance(level, str) or level not in bots.LEVELS:
            refusal = outer_refusal(level) if isinstance(level, str) else None
            raise error("bad-level", refusal or f"bot levels are {', '.join(bots.LEVELS)}")
        if kind == "fill":
            if t.started:  # no seat is empty then: a person who leaves is stood in for
                raise error("started", "bots fill the empty seats before the match starts")
            if all(s.kind != "open" for s in t.seats):
                raise error("no-open-seat", "every seat is taken: no seat is left for a bot")
            for s in t.seats:
                if s.kind == "open":
                    s.kind, s.level, s.name = "bot", level, ""
            return
        if not is_seat(seat, n):
            raise error("bad-seat", f"seats are 0 to {n - 1}")
        match kind:
            case "seat":
                self._set(seat, msg.get("kind"), level)
            case "move":
                self._move(seat, to)
            case "remove":
                self._remove(seat)
            case _:
                raise error("unknown-type", f"no control {kind!r}")

    def _set(self, seat: int, wanted: Any, level: str) -> None:
        t = self.room.truth
        if t.started:
            raise error("started", "seats are set before the match starts")
        config = t.seats[seat]
        if config.kind == "human":
            raise error("seat-taken", "a player sits there: remove them first")
        if wanted not in ("bot", "open"):
            raise error("bad-message", "a seat is set to bot or open")
        config.kind, config.level, config.name = str(wanted), level, ""

    def _move(self, seat: int, to: Any) -> None:
        t = self.room.truth
        n = len(t.seats)
        if t.started:
            raise error("started", "players move before the match starts")
        if not is_seat(to, n) or to == seat:
            raise error("bad-seat", f"move to another seat, 0 to {n - 1}")
        t.seats[seat], t.seats[to] = t.seats[to], t.seats[seat]
        moves = {seat: to, to: seat}
        self.away = {moves.get(s, s): when for s, when in self.away.items()}
        self._grace = {moves.get(s, s): task for s, task in self._grace.items()}

    def _remove(self, seat: int) -> None:
        t = self.room.truth
        config = t.seats[seat]
        if config.kind != "human":
            raise error("bad-seat", "nobody sits there")
        if config.token == t.host:
            raise error("bad-seat", "the host cannot remove themselves")
        if t.started:
            config.kind, config.level, config.token = "bot", t.options.standby, None
            config.name = ""
        else:
            t.seats[seat] = SeatConfig("open", level=t.options.standby)
        self.away.pop(seat, None)
        self.standin.discard(seat)
        task = self._grace.pop(seat, None)  # nobody to wait for there any more
        if task is not None:
            task.cancel()

    def settle(self) -> None:
        """Once the host's arrangement is saved: each connection here follows its token, to the
        seat it was moved to, or, removed, to watching (told so by a new ``welcome``). The
        other servers are told the seats' new counts: the one driving the table would
        otherwise take a person moved here for away at their new seat, and a bot would stand
        in for them while they are connected."""
        moved: set[int | None] = set()
        for conn in self.room.conns:
            seat = self.seat_of(conn.token)
            if seat != conn.seat:
                moved |= {conn.seat, seat}
            if conn.seat is not None and seat is None:
                self._unseat(conn)
            else:
                conn.seat = seat
        for seat in moved:
            self.room.here(seat)

    def _unseat(self, conn: Connection) -> None:
        conn.seat = None
        conn.token = None
        conn.send(
            {
                "type": "welcome",
                "code": self.room.code,
                "seat": None,
                "host": False,
                "lang": conn.lang,
                "refused": True,  # the seat token holds no seat any more
            }
        )
