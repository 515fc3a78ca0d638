"""Hostile clients cannot break a table: whatever a client sends, the server answers it.

Property tests against a real server (uvicorn on a loopback port) keeping its rooms in memory,
in SQLite and in PostgreSQL. Over the WebSocket, a message that is not a move the table takes —
a field of the wrong JSON type, missing or unknown, a number too large, negative, fractional or
boolean, a very long or strange string, a stale or future move number, another seat's move, a
move the rules forbid, a frame that is not JSON — is answered to its sender alone with an
``error`` (``rule``, ``message``, ``text``), nothing changes (the room, the store, every seat's
view: nobody else hears a thing), the connection stays, and a legal move right after is played;
before the start, the host's seat controls likewise, and the host's next control is done.
Only what the protocol says closes a connection does: a message over the size limit, and a
text frame that is not UTF-8 (the WebSocket protocol's own rule). Over HTTP, a hostile body is a
4xx naming its rule and field, never a 5xx; and nothing is written in the server's log as an
error.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

import tapete
from conftest import database_url
from tapete.errors import InvalidActionError
from tapete.web import Limits
from tapete.web.app import open_store
from tapete.web.protocol import FIELDS
from tapete.web.seating import is_seat
from tapete.web.store import MemoryStore, Store
from webclient import Client, Message, Server, running

# --- the servers, and what they write in their log ---------------------------------------------


class Errors(logging.Handler):
    """Every record of level ERROR or above the server logs (an exception in a handler is)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("websockets.client"):  # the tests' own clients
            self.records.append(record)

    def said(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records]


@dataclass
class Live:
    """A running server, its store and the errors it logged."""

    server: Server
    store: Store
    kind: str
    errors: Errors


# The flood limit (tested on its own) left out: these tests send hundreds of messages a second.
# No keepalive pings: the WebSocket server draws each ping's payload from Python's global random,
# which Hypothesis, drawing its examples in another thread meanwhile, takes for a strategy using it.
UNHURRIED = Limits(burst=100_000, rate=100_000.0, ping_every=3600.0)
# The session's shared server (tests/conftest.py) runs in this process too and keeps pinging
# the connections other test modules left open, drawing from the same global random: a ping
# that falls while Hypothesis draws an example here is taken for the strategy's, though no
# strategy of this module uses `random` (its examples replay alike whatever the pings draw).
pytestmark = pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")


@pytest.fixture(scope="module", params=["memory", "sqlite", "postgresql"])
def live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Live]:
    errors = Errors()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        if request.param == "memory":
            store: Store = MemoryStore()
            with running(store, UNHURRIED) as server:
                yield Live(server, store, "memory", errors)
        else:
            folder = tmp_path_factory.mktemp(request.param)
            with database_url(request.param, folder) as url:
                store = open_store(url)
                with running(store, UNHURRIED) as server:
                    yield Live(server, store, request.param, errors)
    finally:
        root.removeHandler(errors)


@pytest.fixture(autouse=True)
def _no_error_logged(live: Live) -> Iterator[None]:
    live.errors.records.clear()
    yield
    assert not live.errors.said(), "the server logged errors"


FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- a table where nothing moves unless a test moves it -----------------------------------------


@dataclass
class Table:
    """A started Pocha table of four people, each connected, and one spectator: no bot plays,
    so nothing happens unless a test makes it happen."""

    live: Live
    code: str
    tokens: list[str]
    seats: list[Client]
    spectator: Client
    stranger: Client  # connected, at no table yet

    @property
    def everyone(self) -> list[Client]:
        """Every connection at the table."""
        return [*self.seats, self.spectator]

    @property
    def room(self) -> Any:
        return self.live.server.app.state.rooms.get(self.code)

    def version(self) -> int:
        return int(self.room.version)

    def to_act(self) -> int:
        """The seat whose turn it is (its view offers moves)."""
        turn = self.room.game.current_player(self.room.state)
        assert turn is not None
        return int(turn)

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a refused message must leave as it was: the room as the server holds it,
        as its store keeps it, and each connection's seat."""
        room = self.room
        stored = asyncio.run(self.live.store.room(self.code))
        return (
            room.version,
            copy.deepcopy(room.truth),
            copy.deepcopy(stored),
            [c.view["version"] if c.view else None for c in self.everyone],
        )

    def close(self) -> None:
        for client in self.everyone:
            client.close()
        self.stranger.close()


def frozen_table(live: Live) -> Table:
    server = live.server
    made = server.create("pocha", seats=[{"kind": "human"}] * 4)
    code = str(made["code"])
    tokens = [str(made["token"])]
    for name in ("Bea", "Cai", "Dani"):
        tokens.append(server.post(f"/api/tables/{code}/join", {"name": name})["token"])
    seats = []
    for token in tokens:
        client = server.client()
        client.hello(code, token)
        client.expect("room")
        seats.append(client)
    spectator = server.client()
    spectator.hello(code)
    seats[0].send({"type": "start"})
    for client in [*seats, spectator]:
        client.expect("view")
    return Table(live, code, tokens, seats, spectator, server.client())


# --- hostile messages ---------------------------------------------------------------------------

LONE = ["\ud800", "\udfff", "\udc00x"]  # halves of UTF-16 pairs: JSON escapes them, UTF-8 cannot
ODD = [
    "\x00",
    "\u202e",
    "\u200f",
    "\u0645\u0631\u062d\u0628\u0627",
    "\ufeff",
    "\U0001f0a1",
    "Ａｎａ",
]


def strange_text(max_size: int = 80) -> st.SearchStrategy[str]:
    """Text a person would not type: controls and NUL, right-to-left marks and script, halves of
    UTF-16 pairs, full-width letters, playing cards."""
    return st.one_of(
        st.text(max_size=max_size),
        st.lists(st.sampled_from(ODD + LONE + ["a", " ", "bid", "play", "1"]), max_size=12).map(
            "".join
        ),
        st.text(st.characters(codec="utf-8"), min_size=200, max_size=900),
    )


NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 4, 5, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
)
# Values a field of another message takes: a level, a seat's kind, a seat, a language, a game.
PLAUSIBLE = st.sampled_from(
    ["medium", "hard", "random", "bot", "open", "human", 0, 1, 2, 3, "en", "es", "pocha", "bid 0"]
)
SCALARS = st.one_of(st.none(), NUMBERS, strange_text(), PLAUSIBLE)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(strange_text(10), inner, max_size=3)
    ),
    max_leaves=6,
)


def not_a(kind: type) -> st.SearchStrategy[Any]:
    """A JSON value of any type but ``kind`` (booleans are not numbers here)."""

    def other(value: Any) -> bool:
        if kind is int:
            return not (isinstance(value, int) and not isinstance(value, bool))
        return not isinstance(value, kind)

    return ANY_JSON.filter(other)


def not_a_seat() -> st.SearchStrategy[Any]:
    """Anything but a seat of four, or null (which is one's own)."""
    return st.one_of(
        not_a(int).filter(lambda v: v is not None),
        st.integers(max_value=-1),
        st.integers(min_value=4),
        st.just(2**64),
    )


POCHA = tapete.load("pocha")


def not_a_move(action: str) -> bool:
    """Whether ``action`` is no move of Pocha's as the table reads one: ``bid 1``, and its
    shorthand ``1``, may be legal."""
    try:
        POCHA.parse_action(action)
    except InvalidActionError:
        return True
    return False


@dataclass(frozen=True)
class Hostile:
    """One hostile frame: ``body`` sent as text (a message: its JSON) or as bytes (binary)."""

    body: Any
    binary: bool = False
    raw: bool = False  # ``body`` is the frame's text or bytes, not a value to send as JSON
    # Who sends it: the seat to act (0), one of the seats after it (1 to 3), the spectator (4),
    # a connection that has not said hello (5).
    sender: int = 0
    # ``body`` is given a move the seat to act may make, and the table's ``version`` plus this.
    moved: int | None = None
    # ``body`` is given the table's code and the sender's seat token, as a hello's.
    greets: bool = False

    def frame(self, table: Table | None = None, seat: int | None = None) -> str | bytes:
        body = self.body
        if table is not None and self.greets:
            body = {
                **body,
                "code": table.code,
                "token": None if seat is None else table.tokens[seat],
            }
        if table is not None and self.moved is not None:
            version = table.version()
            mover = table.seats[table.to_act()]
            body = {**body, "action": mover.legal()[0], "version": version + self.moved}
        text = body if self.raw else json.dumps(body)
        if self.binary and isinstance(text, str):
            return text.encode("utf-8", "surrogatepass")
        return text


def extra(message: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """``message`` with, or without, fields no message has."""
    return st.tuples(
        message,
        st.dictionaries(strange_text(12).filter(lambda k: k != "type"), ANY_JSON, max_size=2),
    ).map(lambda pair: {**pair[1], **pair[0]})


def of_type(name: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"type": st.just(name), **fields})


# Messages the acting seat's table refuses however they are dressed: a started match of four
# people, nobody's move but the one to act.
REFUSED = st.one_of(
    # wrong JSON types, missing fields, long and strange strings
    of_type("act", action=not_a(str)),
    of_type("act"),
    of_type("act", action=strange_text(60).filter(not_a_move)),
    of_type("act", action=st.text(min_size=65, max_size=500)),
    of_type("act", action=st.sampled_from(["bid 99", "bid -1", "play 1z", "bid 1.5", "bid"])),
    of_type("act", action=st.just("bid 0"), version=not_a(int).filter(lambda v: v is not None)),
    of_type("act", action=st.just("bid 0"), seat=not_a_seat()),
    of_type("hello", code=not_a(str)),
    of_type("hello"),
    of_type("hello", code=strange_text(40).filter(lambda c: c.strip().upper() != "")),
    of_type(
        "lang",
        lang=ANY_JSON.filter(lambda v: not isinstance(v, str) or v[:2] not in ("en", "es", "pt")),
    ),
    of_type("lang"),
    of_type("seat", seat=ANY_JSON, kind=ANY_JSON, level=ANY_JSON),
    of_type("move", seat=ANY_JSON, to=ANY_JSON),
    of_type("remove", seat=not_a_seat()),
    of_type("fill", level=ANY_JSON),
    of_type("fill"),
    of_type("start"),
    of_type("rematch", match=ANY_JSON),
    of_type("rematch"),
    of_type("hint"),
    # no message at all
    st.fixed_dictionaries({"type": not_a(str)}),
    st.fixed_dictionaries({"kind": st.just("act")}),
    of_type("dance"),
    st.fixed_dictionaries({"type": strange_text(20)}).filter(lambda m: m["type"] not in FIELDS),
    st.lists(ANY_JSON, max_size=3),
    SCALARS,
)

NOT_JSON = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "{",
            "{not json",
            "hello",
            '{"type": "act", "action": "bid 0", "version": NaN}',
            '{"type": "ping", "t": Infinity}',
            '{"type": "act", "action": "bid 0"} {}',
            "[" * 2000 + "]" * 2000,
            "[" * 1500 + "]" * 1500,
            '{"type": "act", "action": "bid 0", "action": 7}',
        ]
    ),
    st.text(max_size=40).filter(lambda t: not _is_json(t)),
)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


MAX_MESSAGE = 4096  # bytes (``Limits.max_message``): a longer one closes the connection
MOVE = 100  # bytes at most that a frame is given when it is sent: a code, a token, a move


def hostile_frames() -> st.SearchStrategy[Hostile]:
    """Hostile frames within the size limit."""
    return _hostile_frames().filter(lambda h: _size(h.frame()) <= MAX_MESSAGE - MOVE)


def _size(frame: str | bytes) -> int:
    return len(frame if isinstance(frame, bytes) else frame.encode("utf-8", "surrogatepass"))


def _hostile_frames() -> st.SearchStrategy[Hostile]:
    message = extra(REFUSED.filter(lambda m: isinstance(m, dict))) | REFUSED
    return st.one_of(
        st.builds(Hostile, message),
        st.builds(Hostile, NOT_JSON, raw=st.just(True)),
        st.builds(Hostile, message, binary=st.just(True)),
        st.builds(Hostile, NOT_JSON, binary=st.just(True), raw=st.just(True)),
        st.builds(
            Hostile,
            st.binary(max_size=40).filter(_not_utf8),
            binary=st.just(True),
            raw=st.just(True),
        ),
        st.builds(Hostile, message, sender=st.integers(1, 5)),
        # a move of the seat to act, chosen on a view gone or not yet shown
        st.builds(Hostile, of_type("act"), moved=st.integers().filter(lambda n: n != 0)),
        # the move of the seat to act, sent by another seat, or by the spectator
        st.builds(Hostile, of_type("act"), sender=st.integers(1, 4), moved=st.just(0)),
        # a hello to the table, in a language of the wrong JSON type
        st.builds(
            Hostile,
            of_type("hello", lang=not_a(str).filter(lambda v: v is not None)),
            sender=st.just(5),  # a seat's own said hello just now: hello-too-soon
            greets=st.just(True),
        ),
        # the move, with a field no move has
        st.builds(Hostile, extra(of_type("act")).filter(_has_extra), moved=st.just(0)),
    )


def _has_extra(message: dict[str, Any]) -> bool:
    return bool(set(message) - FIELDS["act"] - {"type"})


def _not_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


# --- what each must do ----------------------------------------------------------------------


def assert_error(message: Message) -> None:
    """The protocol's error: a stable ``rule``, a ``message`` for developers, a ``text`` for
    people, and nothing else."""
    assert message["type"] == "error", message
    assert set(message) == {"type", "rule", "message", "text"}, message
    for key in ("rule", "message", "text"):
        assert isinstance(message[key], str) and message[key], message


def nothing_else_heard(table: Table, mark: str) -> None:
    """Each connection's next message is the answer to its ping: nothing was sent to anyone."""
    for client in [*table.everyone, table.stranger]:
        client.send({"type": "ping", "t": mark})
    for client in [*table.everyone, table.stranger]:
        answer = client.recv()
        assert answer == {"type": "pong", "t": mark}, (client.name, answer)


def refused_alone(table: Table, hostile: Hostile) -> None:
    """``hostile``, sent, answered to its sender with an error; nothing changed, nobody else
    told, every connection still up."""
    seat = None if hostile.sender >= 4 else (table.to_act() + hostile.sender) % 4
    sender = [*table.everyone, table.stranger][hostile.sender if seat is None else seat]
    before = table.snapshot()
    sender.ws.send(hostile.frame(table, seat))
    assert_error(sender.recv())
    nothing_else_heard(table, "after")
    assert table.snapshot() == before, hostile


def play_on(table: Table) -> None:
    """The seat to act plays a legal move (on the version it was shown): everyone sees it."""
    version = table.version()
    mover = table.seats[table.to_act()]
    mover.send({"type": "act", "action": mover.legal()[0], "version": version})
    for client in table.everyone:
        assert client.view_at(version + 1)["version"] == version + 1
    assert table.version() == version + 1


# --- the properties ---------------------------------------------------------------------------


@FUZZ
@given(st.lists(hostile_frames(), min_size=1, max_size=6))
def test_a_hostile_message_is_refused_alone_and_a_legal_move_follows(
    live: Live, frames: list[Hostile]
) -> None:
    with closing(frozen_table(live)) as table:
        for hostile in frames:
            refused_alone(table, hostile)
        play_on(table)


# --- the HTTP forms ---------------------------------------------------------------------------


def answer(
    server: Server, method: str, path: str, body: bytes, token: str | None = None
) -> tuple[int, Any]:
    """The status and JSON body of a request."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(server.url + path, body, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field's value as the form takes it, or anything at all."""
    return st.one_of(value, ANY_JSON)


LEVELS = st.sampled_from(["random", "easy", "medium", "hard", "expert"])
KEYS = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", min_size=16, max_size=64
)
TABLE_FIELDS = {
    "game": maybe(st.sampled_from(["pocha", "tute", "truco_paulista", "poch", "pottle"])),
    "params": maybe(
        st.dictionaries(
            st.one_of(
                st.sampled_from(["schedule", "players", "dealer_hook", "max_rounds"]),
                strange_text(12),
            ),
            st.one_of(st.text(max_size=20), strange_text(20), NUMBERS),
            max_size=3,
        )
    ),
    "seats": maybe(
        st.lists(
            st.fixed_dictionaries(
                {"kind": maybe(st.sampled_from(["human", "bot"]))},
                optional={"level": maybe(LEVELS)},
            ),
            max_size=9,
        )
    ),
    "name": maybe(strange_text(30)),
    "public": maybe(st.booleans()),
    "grace": maybe(st.floats(0, 600)),
    "turn_timer": maybe(st.floats(0, 600)),
    "bot_delay": maybe(st.floats(0, 5)),
    "standby": maybe(LEVELS),
    "seed": maybe(st.integers(0, 2**63)),
    "player": maybe(strange_text(40)),
    "key": maybe(KEYS),
}
JOIN_FIELDS = {
    "name": maybe(strange_text(30)),
    "seat": maybe(st.integers(-2, 6)),
    "player": maybe(strange_text(40)),
    "key": maybe(KEYS),
}
PLAYER_FIELDS = {"name": maybe(strange_text(30)), "key": maybe(KEYS)}


def form(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[bytes]:
    """A body for a form of ``fields``: some of them, of any type, maybe with fields it has
    not; or JSON that is not an object; or no JSON at all."""
    some = st.fixed_dictionaries({}, optional=fields)
    with_extra = st.tuples(some, st.dictionaries(strange_text(12), ANY_JSON, max_size=2)).map(
        lambda pair: {**pair[1], **pair[0]}
    )
    return st.one_of(
        some.map(json.dumps),
        with_extra.map(json.dumps),
        ANY_JSON.map(json.dumps),
        NOT_JSON,
    ).map(lambda text: text.encode("utf-8", "surrogatepass"))


def _fields(sent: bytes) -> set[str]:
    """The fields of a body sent, as the server reads them (none, when it is no object)."""
    try:
        value = json.loads(sent)
    except (ValueError, RecursionError):
        return set()
    return set(value) if isinstance(value, dict) else set()


def assert_answered(live: Live, sent: bytes, status: int, body: Any, *, tables_before: int) -> None:
    """A request answered: done (2xx), or refused by the client's fault (4xx) with the rule
    and the field named (one it sent, or one it left out); never the server's fault (5xx),
    but the 503 of a server that keeps no players."""
    if status < 300:
        return
    if status == 503 and live.kind == "memory":
        assert body["rule"] == "no-database", body
        return
    assert 400 <= status < 500, (status, body)
    assert isinstance(body, dict) and body.get("rule") and body.get("detail"), body
    if status == 422:
        fields = _fields(sent)
        for error in body["detail"]:
            assert error["loc"][0] == "body" and error["msg"], error
            if len(error["loc"]) > 1 and error["type"] not in ("missing", "json_invalid"):
                assert error["loc"][1] in fields, (error, fields)
    assert len(live.server.app.state.rooms) == tables_before  # nothing made


HTTP = settings(FUZZ, max_examples=60)


@HTTP
@given(form(TABLE_FIELDS))
def test_a_hostile_table_form_is_refused_naming_its_field(live: Live, body: bytes) -> None:
    before = len(live.server.app.state.rooms)
    status, answered = answer(live.server, "POST", "/api/tables", body)
    if status >= 300:
        assert_answered(live, body, status, answered, tables_before=before)


@HTTP
@given(
    form(JOIN_FIELDS),
    st.one_of(st.none(), strange_text(12).filter(lambda c: c.strip() and "/" not in c)),
)
def test_a_hostile_join_is_refused_naming_its_field(
    live: Live, body: bytes, code: str | None
) -> None:
    if code is None:
        code = live.server.create("pocha", seats=[{"kind": "human"}] * 4)["code"]
    path = (
        "/api/tables/"
        + urllib.parse.quote(code.encode("utf-8", "surrogatepass"), safe="")
        + "/join"
    )
    before = len(live.server.app.state.rooms)
    status, answered = answer(live.server, "POST", path, body)
    if status >= 300:
        assert_answered(live, body, status, answered, tables_before=before)


@HTTP
@given(
    form(PLAYER_FIELDS), st.sampled_from(["POST", "PUT"]), st.one_of(st.none(), strange_text(40))
)
def test_a_hostile_player_form_is_refused_naming_its_field(
    live: Live, body: bytes, method: str, token: str | None
) -> None:
    path = "/api/players" if method == "POST" else "/api/players/me"
    shown = None if token is None else token.encode("utf-8", "surrogatepass").decode("latin-1")
    before = len(live.server.app.state.rooms)
    try:
        status, answered = answer(live.server, method, path, body, shown)
    except (UnicodeEncodeError, ValueError):  # not a header any client can send
        return
    if status >= 300:
        assert_answered(live, body, status, answered, tables_before=before)


# --- what the protocol cuts off ----------------------------------------------------------------

WS_MAX_SIZE = 64 * 1024  # a frame larger is refused by the WebSocket layer, before it is read


def settle(clients: list[Client]) -> None:
    """Each of ``clients`` has read all it was sent so far."""
    for client in clients:
        client.send({"type": "ping", "t": "settled"})
    for client in clients:
        client.until(lambda m: m == {"type": "pong", "t": "settled"})


def padded(size: int) -> str:
    """A ping of ``size`` bytes."""
    return json.dumps({"type": "ping", "t": "x" * (size - len('{"type": "ping", "t": ""}'))})


@settings(FUZZ, max_examples=8)
@given(
    st.one_of(
        st.integers(MAX_MESSAGE + 1, WS_MAX_SIZE + 4096).map(padded),
        st.integers(MAX_MESSAGE + 1, WS_MAX_SIZE).map(lambda n: padded(n).encode()),
        st.binary(min_size=1, max_size=40).filter(_not_utf8).map(lambda b: (b,)),
    )
)
def test_a_frame_the_protocol_cuts_off_closes_that_connection_alone(
    live: Live, frame: str | bytes | tuple[bytes]
) -> None:
    """A message over the size limit is told (``too-large``) when the server reads it, and its
    connection closed (1009); a text frame that is not UTF-8 closes it (1007). The table and the
    seat's other connection go on as before."""
    with closing(frozen_table(live)) as table:
        seat = table.to_act()
        tab = live.server.client()  # the seat's second tab
        tab.hello(table.code, table.tokens[seat])
        settle([*table.everyone, tab])
        before = table.snapshot()
        if isinstance(frame, tuple):  # bytes that are not UTF-8, in a text frame
            tab.ws.send(frame[0], text=True)
            closed = 1007
        else:
            tab.ws.send(frame)
            closed = 1009
        size = len(frame) if not isinstance(frame, tuple) else 0
        with pytest.raises(ConnectionClosed):
            answer = tab.recv(timeout=10)
            if size <= WS_MAX_SIZE:  # read, and told why
                assert (answer["type"], answer["rule"]) == ("error", "too-large")
            tab.recv(timeout=10)
        assert tab.ws.close_code == closed
        assert table.snapshot() == before
        play_on(table)


# --- the host's controls, before the start ----------------------------------------------------


def waiting_table(live: Live) -> Table:
    """A Pocha table of four not started: Ana, its host, and Bea seated, two seats open; both
    connected, and a spectator."""
    server = live.server
    made = server.create("pocha", seats=[{"kind": "human"}] * 4)
    code = str(made["code"])
    tokens = [str(made["token"]), server.post(f"/api/tables/{code}/join", {"name": "Bea"})["token"]]
    seats = []
    for token in tokens:
        client = server.client()
        client.hello(code, token)
        seats.append(client)
    spectator = server.client()
    spectator.hello(code)
    table = Table(live, code, tokens, seats, spectator, server.client())
    settle(table.everyone)
    return table


def refused_control(message: dict[str, Any]) -> bool:
    """Whether the host's ``message`` is refused at a waiting table: Ana at seat 0, Bea at 1,
    seats 2 and 3 open."""
    level = message.get("level", "medium")
    if not isinstance(level, str) or level not in LEVEL_NAMES:
        return True
    seat, kind = message.get("seat"), message.get("type")
    if kind == "fill":
        return False
    if not is_seat(seat, 4):
        return True
    if kind == "seat":
        return seat in (0, 1) or message.get("kind") not in ("bot", "open")
    if kind == "move":
        return not is_seat(message.get("to"), 4) or message.get("to") == seat
    return seat != 1  # remove: the host may not remove itself, nor nobody


LEVEL_NAMES = ("random", "easy", "medium", "hard", "expert")
SEAT_OR_NOT = st.one_of(st.integers(0, 3), not_a_seat())
CONTROLS = st.one_of(
    of_type("seat", seat=SEAT_OR_NOT, kind=maybe(st.sampled_from(["bot", "open"]))),
    of_type("move", seat=SEAT_OR_NOT, to=SEAT_OR_NOT),
    of_type("remove", seat=SEAT_OR_NOT),
    of_type("fill"),
)
HOSTILE_CONTROLS = st.one_of(
    st.tuples(CONTROLS, st.one_of(st.just({}), st.builds(dict, level=maybe(LEVELS)))).map(
        lambda pair: {**pair[0], **pair[1]}
    ),
    of_type("start"),
    of_type("act", action=st.sampled_from(["bid 0", "play 1o"])),
    of_type("hint"),
    of_type("rematch"),
).filter(refused_control)


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.builds(Hostile, extra(HOSTILE_CONTROLS) | HOSTILE_CONTROLS),
            st.builds(Hostile, extra(CONTROLS), sender=st.sampled_from([1, 4, 5])),
        ).filter(lambda h: _size(h.frame()) <= MAX_MESSAGE - MOVE),
        min_size=1,
        max_size=5,
    )
)
def test_a_hostile_control_is_refused_alone_and_the_host_s_next_one_is_done(
    live: Live, frames: list[Hostile]
) -> None:
    with closing(waiting_table(live)) as table:
        for hostile in frames:
            sender = [*table.seats, None, None, table.spectator, table.stranger][hostile.sender]
            assert sender is not None
            before = table.snapshot()
            sender.ws.send(hostile.frame())
            assert_error(sender.recv())
            nothing_else_heard(table, "after")
            assert table.snapshot() == before, hostile
        table.seats[0].send({"type": "fill", "level": "random"})
        for client in table.everyone:
            seats = client.expect("room")["seats"]
            assert [s["kind"] for s in seats] == ["human", "human", "bot", "bot"]
        assert [s.kind for s in table.room.truth.seats] == ["human", "human", "bot", "bot"]
