"""Play over one WebSocket route, ``/ws``: a connection's link and the messages it may send.

Every message is a JSON object tagged with ``type`` (docs/protocol.md); ``handle`` reads them,
in ``dispatch``'s one ``match``, and answers bad input with ``{"type": "error", "rule",
"message", "text"}`` without changing anything or dropping the connection — except for
oversized messages and floods, which are cut off, hellos from a client past its limit of unknown
table codes (``lookups``), and any message to a shared server that has lost Redis
(``unavailable``: try again later). A message the database does not take, whichever it is, is
answered in one place (``not_saved``): the connection stays and its table is shown again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from tapete.errors import IllegalActionError
from tapete.i18n import LANGUAGES, RULES, tr
from tapete.web.cluster import UNAVAILABLE, Cluster
from tapete.web.deadlines import BODY_TIMEOUT, HEAD_TIMEOUT
from tapete.web.ratelimit import Limited, RateLimiter, client_key
from tapete.web.room import Room
from tapete.web.rooms import Rooms
from tapete.web.seating import is_seat, token_hash
from tapete.web.store import UNSAVED
from tapete.web.strings import rule_text
from tapete.web.views import encode

__all__ = ["Limits", "Link", "handle", "language", "router"]

log = logging.getLogger("tapete.web")

# A move not kept is told as a move; anything else (a start, a seat) by the rule's sentence.
MOVE_NOT_SAVED = "your move could not be saved: try again"

router = APIRouter()


@dataclass(frozen=True)
class Limits:
    """What one connection may send: bigger messages and faster floods are cut off, and
    requests sent too slowly (``tapete.web.deadlines``) too."""

    max_message: int = 4096  # bytes in one message
    burst: int = 40  # messages at once ...
    rate: float = 20.0  # ... refilled at this many a second
    outbox: int = 512  # messages queued for a slow reader before it is dropped
    hello_within: float = 30.0  # seconds a new connection has to say hello, else it is closed
    hello_every: float = 1.0  # seconds between one connection's hellos (each tells a room)
    per_client: int = 100  # WebSockets one client may hold open at once (a club behind one NAT)
    # The server pings every connection this often and takes one whose answer is this late
    # as gone (a phone out of coverage closes nothing): its seat is away within 15 s, not 40.
    # Browsers answer pings themselves, so a tab in the background, its timers slowed to one
    # a minute, is not taken for gone.
    ping_every: float = 5.0
    ping_timeout: float = 10.0
    head_within: float = HEAD_TIMEOUT  # seconds an HTTP request's head has (see deadlines)
    body_within: float = BODY_TIMEOUT  # seconds its body has, once the head is in


def language(value: Any) -> str | None:
    """The language of ``value`` (``es-AR`` is ``es``) if the app speaks it, else None."""
    if not isinstance(value, str):
        return None
    base = value.split("-")[0].lower()
    return base if base in LANGUAGES else None


class Link:
    """One WebSocket: its seat, language, rate limit and an outbox drained by a writer task."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        self.limits = limits
        self.seat: int | None = None
        self.lang = "en"
        self.token: str | None = None
        self.room: Room | None = None
        self.outbox: asyncio.Queue[str | int] = asyncio.Queue()
        self._tokens = float(limits.burst)
        self._refilled = time.monotonic()
        self.closing = False
        self.last_hello = -float("inf")  # time.monotonic() of its last hello

    def send(self, message: Mapping[str, Any]) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= self.limits.outbox:
            self.close(1008)  # a reader this slow would hold everyone's memory
            return
        self.outbox.put_nowait(encode(message))

    def fail(self, rule: str, message: str, text: str | None = None) -> None:
        """An error naming ``rule``; ``text`` for people (by default the rule's, translated)."""
        self.send(
            {
                "type": "error",
                "rule": rule,
                "message": message,
                "text": text or rule_text(self.lang, rule, message),
            }
        )

    def close(self, code: int) -> None:
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait(code)

    def allow(self) -> bool:
        """One more message within the rate limit (a token bucket)."""
        now = time.monotonic()
        self._tokens = min(
            self.limits.burst, self._tokens + (now - self._refilled) * self.limits.rate
        )
        self._refilled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def pump(self) -> None:
        """Write the outbox to the socket, in order; a number closes it with that code.

        A write that fails ends the connection: a writer gone silently would leave the reader
        taking the client's messages, and the client waiting for answers that never come. A
        client that left is ordinary; any other failure is the server's, logged as an error
        naming the connection, which is closed (1011) so the page reconnects."""
        while True:
            item = await self.outbox.get()
            if isinstance(item, int):
                with contextlib.suppress(Exception):
                    await self.ws.close(item)
                return
            try:
                await self.ws.send_text(item)
            except WebSocketDisconnect:
                self.closing = True
                return
            except Exception:
                log.exception("%s: a message could not be sent; closing it", self.described())
                self.closing = True
                with contextlib.suppress(Exception):
                    await self.ws.close(1011)
                return

    def described(self) -> str:
        """This connection in a log line: its room, seat and client's address."""
        client = self.ws.client
        address = f"{client.host}:{client.port}" if client else "an unknown address"
        if self.room is None:
            return f"connection from {address} (at no table yet)"
        seat = "watching" if self.seat is None else f"seat {self.seat}"
        return f"connection from {address} (room {self.room.code}, {seat})"


@router.websocket("/ws")
async def play(ws: WebSocket) -> None:
    """One connection, from its first message to its last; the server's rooms and limits are
    the app's (``app.state``).

    A client holds at most ``limits.per_client`` connections open at once: each is a socket
    of the server's, and one client opening thousands would leave none for anyone else."""
    limits: Limits = ws.app.state.limits
    client = client_key(ws.client.host) if ws.client else "unknown"
    held: Counter[str] = ws.app.state.sockets
    if held[client] >= limits.per_client:
        with contextlib.suppress(Exception):  # a client gone already is told nothing
            await ws.accept()
            await ws.send_text(encode(crowded(limits.per_client)))
            await ws.close(1013)  # try again later: once some of its pages are closed
        return
    held[client] += 1
    try:
        await converse(ws, limits)
    finally:
        held[client] -= 1
        if not held[client]:
            del held[client]


def crowded(most: int) -> dict[str, Any]:
    """The error of a connection over its client's ``most``: told before any ``hello`` says
    a language, so in English."""
    return {
        "type": "error",
        "rule": "too-many-connections",
        "message": f"at most {most} connections from one address at once",
        "text": RULES["too-many-connections"],
    }


async def converse(ws: WebSocket, limits: Limits) -> None:
    """The messages of one connection, read and answered until it closes."""
    rooms: Rooms = ws.app.state.rooms
    await ws.accept()
    link = Link(ws, limits)
    writer = asyncio.get_running_loop().create_task(link.pump())
    try:
        while not link.closing:
            if link.room is None:  # a connection that never says hello holds a socket for naught
                try:
                    message = await asyncio.wait_for(ws.receive(), limits.hello_within)
                except TimeoutError:
                    link.fail("no-hello", f'say "hello" within {limits.hello_within:g} seconds')
                    link.close(1008)
                    break
            else:
                message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text, data = message.get("text"), message.get("bytes") or b""
            if len(data if text is None else text.encode()) > limits.max_message:
                link.fail("too-large", f"messages are at most {limits.max_message} bytes")
                link.close(1009)
                break
            if not link.allow():
                link.fail("flood", "too many messages: the connection is closed")
                link.close(1008)
                break
            if text is None:  # a binary frame: read as a text frame's UTF-8, not guessed at
                try:
                    text = data.decode()
                except UnicodeDecodeError as exc:
                    link.fail("bad-json", f"a message is one JSON object, in UTF-8 ({exc})")
                    continue
            await handle(rooms, link, text)
    except WebSocketDisconnect:
        pass
    finally:
        if link.room is not None:
            link.room.leave(link)
        link.close(1000)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def handle(rooms: Rooms, link: Link, text: str) -> None:
    """One message from ``link``: done, or answered with an error that names the rule."""
    try:
        # Strict JSON: no NaN or Infinity (a pong would echo null), no half of a UTF-16 pair
        # ("\ud800", text that can be neither hashed, stored nor sent back), a bounded depth.
        msg = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        link.fail("bad-json", f"a message is one JSON object ({exc})")
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        link.fail("bad-message", 'a message is a JSON object with a "type"')
        return
    if (unknown := unknown_fields(msg)) is not None:
        link.fail("bad-message", unknown)
        return
    cluster: Cluster | None = link.ws.app.state.cluster
    if cluster is not None and not cluster.serving and msg["type"] != "ping":
        # Without Redis this server's tables may be behind the others': none is shown here.
        # A page that comes back asks again with a new connection: told in its hello's language.
        if msg["type"] == "hello":
            link.lang = language(msg.get("lang")) or link.lang
        link.fail("unavailable", UNAVAILABLE)
        link.close(1013)
        return
    try:
        await dispatch(rooms, link, msg)
    except UNSAVED as exc:
        await not_saved(link, msg["type"], exc)


# The fields each message has besides its "type" (docs/protocol.md). One it has not is refused,
# naming it, rather than left out without a word: a misspelt "verison" would play a move on a
# view gone by, unchecked; a "levle" would fill the seats with bots of another level.
FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"code", "token", "lang"}),
    "ping": frozenset({"t"}),
    "act": frozenset({"action", "seat", "version"}),
    "hint": frozenset(),
    "undo": frozenset(),
    "lang": frozenset({"lang"}),
    "start": frozenset(),
    "fill": frozenset({"level"}),
    "seat": frozenset({"seat", "kind", "level"}),
    "move": frozenset({"seat", "to"}),
    "remove": frozenset({"seat"}),
    "rematch": frozenset({"match"}),
}


def unknown_fields(msg: Mapping[str, Any]) -> str | None:
    """Why ``msg`` is refused for a field its type does not have (None: it has none such; a
    type no message has is told as such by ``dispatch``).

    >>> print(unknown_fields({"type": "act", "action": "bid 1", "verison": 3}))
    an "act" message has no field 'verison' (its fields: action, seat, version)
    >>> unknown_fields({"type": "start"}), unknown_fields({"type": "dance", "x": 1})
    (None, None)
    """
    kind = msg["type"]
    known = FIELDS.get(kind)
    if known is None:
        return None
    unknown = sorted(set(msg) - known - {"type"})
    if not unknown:
        return None
    article = "an" if kind[0] in "aeiou" else "a"
    fields = ", ".join(sorted(known)) or "none but its type"
    return f'{article} "{kind}" message has no field {unknown[0]!r} (its fields: {fields})'


async def dispatch(rooms: Rooms, link: Link, msg: Mapping[str, Any]) -> None:
    """``msg`` (a JSON object with a ``type``) done or refused; raises one of ``UNSAVED``
    when the database did not take what it changes (or did not answer a read)."""
    room = link.room
    match msg["type"]:
        case "hello":
            await hello(rooms, link, msg)
        case "ping":
            link.send({"type": "pong", "t": msg.get("t")})
        case _ if room is None:
            link.fail("no-table", 'say "hello" with a table code first')
        case "act":
            await act(room, link, msg)
        case "hint":
            answer = await room.hint(link)
            if isinstance(answer, IllegalActionError):
                link.fail(answer.rule, answer.message)
            else:
                link.send(answer)
        case "undo":
            refused = await room.undo(link.seat)
            if refused is not None:
                link.fail(refused.rule, refused.message)
        case "lang":
            lang = language(msg.get("lang"))
            if lang is None:
                link.fail("bad-lang", f"languages are {', '.join(LANGUAGES)}")
            else:
                room.relang(link, lang)
        case "rematch" if (seen := msg.get("match")) is not None and (
            not isinstance(seen, int) or isinstance(seen, bool) or seen < 0
        ):
            link.fail("bad-message", 'a "rematch" message\'s "match" is a match number, 0 or more')
        case "start" | "fill" | "seat" | "move" | "remove" | "rematch" as kind:
            try:
                await room.control(link, kind, msg)
            except IllegalActionError as exc:
                link.fail(exc.rule, exc.message)
        case other:
            link.fail("unknown-type", f"no message type {other!r}")


async def hello(rooms: Rooms, link: Link, msg: Mapping[str, Any]) -> None:
    """``link`` comes to a table (leaving the one it was at): as the seat its token holds, or
    to watch."""
    code, token, lang = msg.get("code"), msg.get("token"), msg.get("lang")
    link.lang = language(lang) or link.lang  # first: a refusal is told in it too
    if not isinstance(code, str):  # a malformed hello guesses no code: it is not counted
        link.fail("bad-message", 'a "hello" message has a table "code", a string')
        return
    if lang is not None and not isinstance(lang, str):
        # A tag the app does not speak ("fr") is English, as a browser's language may be any;
        # a number or a list is no language tag at all.
        link.fail("bad-message", 'a "hello" message\'s "lang" is a language tag, a string')
        return
    found, refused = await find(rooms, link, code)
    if refused is not None:  # closed "try again later": the page does, as after any closing
        seconds = refused.retry_after
        link.fail(
            "too-many-lookups",
            f"too many unknown table codes from your address: try again in {seconds} s",
            tr(
                link.lang,
                "Too many requests from your address: try again in {seconds} s.",
                seconds=seconds,
            ),
        )
        link.close(1013)
        return
    if found is None:
        link.fail("no-such-table", f"there is no table {code!r}")
        return
    if token is not None and not isinstance(token, str):
        link.fail("bad-message", "a token is a string")
        return
    now = time.monotonic()
    if now - link.last_hello < link.limits.hello_every:  # each hello tells a whole room
        link.fail("hello-too-soon", f"one hello every {link.limits.hello_every:g} seconds")
        return
    link.last_hello = now
    hashed = token_hash(token) if token else None
    if link.room is found and hashed == link.token:  # the same seat again: only it is told
        found.greet(link)
        return
    # A token this server's copy does not know may be a seat just taken on another server:
    # the room is read again first (seat_for), so a seat saved anywhere is found.
    seat = await found.seat_for(hashed)
    if link.room is not None:
        link.room.leave(link)
    link.token = hashed
    link.seat = seat
    link.room = found
    found.join(link)
    await found.keep_return(link.seat)


async def find(rooms: Rooms, link: Link, code: str) -> tuple[Room | None, Limited | None]:
    """Room ``code`` (None when there is none), or a refusal: a private table is found by its
    code alone, so each client's codes that name no table are counted (``lookups``), and past
    that limit every code it asks for is refused, a table's or not (a refusal tells a guesser
    nothing about a code), as ``GET /api/tables/CODE`` does."""
    limiter: RateLimiter = link.ws.app.state.limiter
    client = link.ws.client.host if link.ws.client else "unknown"
    refused = await limiter.test("lookups", client)
    if refused is not None:
        return None, refused
    found = await rooms.find(code)
    if found is None:
        return None, await limiter.hit("lookups", client)
    return found, None


async def act(room: Room, link: Link, msg: Mapping[str, Any]) -> None:
    """A move for the link's own seat (chosen on the view of ``version``, when given); raises
    one of ``UNSAVED`` when the store does not keep it (``not_saved`` answers)."""
    action, seat, version = msg.get("action"), msg.get("seat"), msg.get("version")
    if seat is None:  # left out, or null as many clients leave a field out: one's own seat
        seat = link.seat
    if not isinstance(action, str) or len(action) > 64:
        link.fail("bad-message", 'an "act" message has an "action" string')
    elif version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        # A number past 64 bits is read as a float: it is no view's version either.
        link.fail("bad-message", 'an "act" message\'s "version" is a view\'s: a whole number')
    elif seat is not None and not is_seat(seat, len(room.truth.seats)):
        # Python holds JSON's false equal to 0 and 0.0 too: only a seat's number names it.
        link.fail(
            "bad-message",
            f'an "act" message\'s "seat" is a seat number, 0 to {len(room.truth.seats) - 1}',
        )
    elif seat != link.seat and link.seat is not None:
        link.fail("not-your-seat", "you can only act for your own seat")
    else:  # a spectator is told it watches (``spectator``), whichever seat it names
        refused = await room.act(link.seat, action, version=version)
        if refused is not None:
            link.fail(refused.rule, refused.message)


async def not_saved(link: Link, kind: str, exc: BaseException) -> None:
    """A ``kind`` message the database did not take (away, full, read-only): nothing it would
    have changed was changed. The person is told, in their language, and shown their table
    again as the database has it, so they may try again on the same connection: a database's
    trouble for a moment is not theirs, and a dropped connection would only send their page
    knocking at a server that cannot keep anything either. A connection at no table yet (its
    hello found none to read) has nothing to be shown: it is closed, 1013, and the page tries
    again later, as after any closing."""
    room = link.room
    where = f"room {room.code}" if room is not None else "a connection at no table"
    log.warning("%s: the database failed a %r message (%s)", where, kind, exc)
    sentence = MOVE_NOT_SAVED if kind == "act" else RULES["not-saved"]
    link.fail("not-saved", sentence, tr(link.lang, sentence))
    if room is None:
        link.close(1013)
    else:
        await room.look_again(link)
