"""Helpers for the web tests: the real server in a thread, and a WebSocket client that keeps
every message it is sent."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from tapete.bots import Bot
from tapete.client import Seats
from tapete.web import Limits, RateLimits, create_app
from tapete.web.app import server_config
from tapete.web.store import Store

Message = dict[str, Any]


def stand_in_note(name: str) -> str:
    """The log's English line when a bot stands in for ``name``, away from their seat: what
    the web tests wait for and count (said once a match, whatever happens to the seat)."""
    return f"{name} is away: a bot plays for them until they are back"


def _port_range() -> range | None:
    """``TAPETE_TEST_PORTS`` (``FIRST-LAST``): the loopback ports the tests' servers may take,
    for a machine where each run keeps to ports of its own; unset, the system picks free ones."""
    given = os.environ.get("TAPETE_TEST_PORTS", "")
    if not given:
        return None
    first, dash, last = given.partition("-")
    if not (dash and first.isdigit() and last.isdigit()) or not (
        1024 <= int(first) <= int(last) < 65536
    ):
        raise ValueError(f"TAPETE_TEST_PORTS: {given!r} is not a range of ports like 8600-8699")
    return range(int(first), int(last) + 1)


_handed_out: list[int] = []  # in TAPETE_TEST_PORTS, the ports given so far, oldest first


def free_port() -> int:
    """A loopback port nothing listens on now. In ``TAPETE_TEST_PORTS`` the one given longest
    ago (or never) comes first: a test asks for its ports before its servers listen on them."""
    ports = _port_range()
    if ports is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])
    order = sorted(ports, key=lambda p: _handed_out.index(p) if p in _handed_out else -1)
    for port in order:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers bind
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        if port in _handed_out:
            _handed_out.remove(port)
        _handed_out.append(port)
        return port
    raise RuntimeError(f"TAPETE_TEST_PORTS: every port of {ports.start}-{ports.stop - 1} is taken")


@dataclass
class Server:
    """A running server: its base URL and its app (whose ``state.rooms`` tests may look at)."""

    url: str
    app: Any
    uvicorn: uvicorn.Server

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"

    def get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        request = urllib.request.Request(self.url + path, headers=headers or {})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body[:1] in (b"{", b"[") else body.decode()

    def post(self, path: str, body: Message, method: str = "POST") -> Any:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method=method,
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def listed(self) -> list[Message]:
        """Every public table the lobby lists, page after page."""
        tables: list[Message] = []
        page = 1
        while True:
            got = self.get(f"/api/tables?page={page}&per_page=100")
            tables += got["tables"]
            if page >= got["pages"]:
                return tables
            page += 1

    def create(self, game: str = "pocha", **body: Any) -> Message:
        """A table: by default the creator and bots that play at once; no bot stands in for a
        test's players (so finished tests leave no match playing itself on the shared server)."""
        body.setdefault("bot_delay", 0)
        body.setdefault("grace", 600)
        body.setdefault("name", "Ana")
        return dict(self.post("/api/tables", {"game": game, **body}))

    def client(self, name: str = "") -> Client:
        return Client(open_socket(self.ws_url), name)


@asynccontextmanager
async def not_tapete(said: Sequence[Mapping[str, Any]]) -> AsyncIterator[str]:
    """A WebSocket server that is not tapete's (another program, or another version), on a
    loopback port: to each connection it sends ``said`` after the client's hello, then waits.
    Yields its ``ws://`` address."""
    from websockets.asyncio.server import ServerConnection, serve

    async def answer(socket: ServerConnection) -> None:
        await socket.recv()  # the client's hello
        for message in said:
            await socket.send(json.dumps(message))
        await socket.wait_closed()

    port = free_port()
    async with serve(answer, "127.0.0.1", port):
        yield f"ws://127.0.0.1:{port}/ws"


def open_socket(url: str) -> ClientConnection:
    """A client connection used directly (websockets >= 16 asks to say so with ``legacy``).

    It sends no keepalive pings of its own (the server's pings are what the tests check): a
    client's pings draw their payload from the global ``random`` in a thread of their own, and
    one drawn while Hypothesis generates a test's input breaks that input's replay."""
    options: dict[str, Any] = {"open_timeout": 10, "max_size": 2**22, "ping_interval": None}
    try:
        return connect(url, legacy=True, **options)  # type: ignore[call-overload,no-any-return,unused-ignore]
    except TypeError:
        return connect(url, **options)  # type: ignore[no-any-return,unused-ignore]


@contextmanager
def running(
    store: Store | None = None,
    limits: Limits | None = None,
    rate_limits: RateLimits | None = None,
    *,
    clock: Callable[[], float] = time.time,
    trusted_proxies: Sequence[str] = (),
    players: Mapping[str, Bot] | None = None,
    bot_processes: int = 0,
    review_iterations: int = 200,
    review_processes: int | None = None,
) -> Iterator[Server]:
    """The real app under uvicorn on a free loopback port, for as long as the block runs, as
    ``tapete serve`` configures it. No rate limits unless given: every test's clients come from
    one address. ``players``: the bot that plays a level there, as ``create_app`` takes it;
    ``bot_processes``: where its bots think (0: threads of the server); ``review_iterations``
    and ``review_processes``: the coach's reviews' budget and lane."""
    app = create_app(
        store,
        limits,
        rate_limits or RateLimits.off(),
        clock,
        players=players,
        bot_processes=bot_processes,
        review_iterations=review_iterations,
        review_processes=review_processes,
    )
    port = free_port()
    config = server_config(app, "127.0.0.1", port, "warning", trusted_proxies)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield Server(f"http://127.0.0.1:{port}", app, server)
    finally:
        server.should_exit = True
        thread.join(10)


SRC = Path(__file__).resolve().parents[1] / "src"


@contextmanager
def process(
    port: int, db: str, log: Path, options: Sequence[str] = ()
) -> Iterator[subprocess.Popen[bytes]]:
    """``tapete serve`` in a process of its own (with more ``options``), up and answering when
    the block starts."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    command = [
        *(sys.executable, "-m", "tapete.cli", "serve", "--port", str(port), "--db", db),
        *options,
    ]
    with log.open("ab") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=out, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start:\n{log.read_text()}") from None
                time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


@contextmanager
def own_redis(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A Redis server of the test's own (one it may stop), on ``port``, answering when the block
    starts; the test is skipped where there is no ``redis-server`` to start."""
    import pytest
    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("no redis-server to start and stop")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with redis.Redis(port=port) as client:
                    answering = client.info("server")["process_id"]
                break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        # The port was free when picked, but another run on the machine may have taken it since:
        # then this server could not listen, and the one answering is not the test's to stop.
        if answering != proc.pid:
            raise RuntimeError(f"port {port} is taken by another Redis (pid {answering})")
        yield proc
    finally:
        proc.kill()
        proc.wait(10)


class Gate:
    """A TCP relay on a loopback port of its own to ``port`` (a database), which a test may
    ``shut``: every connection through it is cut, and new ones are taken and never answered,
    as a host that is half down or a stuck proxy does, until it is ``opened`` again."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.is_open = True
        self._lock = threading.Lock()
        self._through: list[socket.socket] = []  # both ends of every relayed connection
        self._held: list[socket.socket] = []  # taken while shut, never answered
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            with self._lock:
                if not self.is_open:
                    self._held.append(client)
                    continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._through += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._relay, args=(a, b), daemon=True).start()

    @staticmethod
    def _relay(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def _cut(self, ends: list[socket.socket]) -> None:
        for end in ends:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
        ends.clear()

    def shut(self) -> None:
        with self._lock:
            self.is_open = False
            self._cut(self._through)

    def opened(self) -> None:
        with self._lock:
            self.is_open = True
            self._cut(self._held)

    def close(self) -> None:
        self.listener.close()
        with self._lock:
            self._cut(self._through)
            self._cut(self._held)


@dataclass
class Client:
    """A player's WebSocket: every message received is kept in ``seen``."""

    ws: ClientConnection
    name: str = ""
    seen: list[Message] = field(default_factory=list)
    view: Message | None = None

    def send(self, message: Message | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10) -> Message:
        message: Message = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        if message["type"] == "view":
            self.view = message
        return message

    def until(self, wanted: Callable[[Message], bool], timeout: float = 10) -> Message:
        """Read messages until one satisfies ``wanted``; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if wanted(message):
                return message

    def expect(self, kind: str, timeout: float = 10) -> Message:
        return self.until(lambda m: m["type"] == kind, timeout)

    def hello(self, code: str, token: str | None = None, lang: str = "en") -> Message:
        self.send({"type": "hello", "code": code, "token": token, "lang": lang})
        return self.expect("welcome")

    def view_at(self, version: int, timeout: float = 10) -> Message:
        return self.until(lambda m: m["type"] == "view" and m["version"] >= version, timeout)

    def legal(self) -> list[str]:
        """The actions offered in the last view (cards first, then buttons)."""
        assert self.view is not None
        acts = self.view["actions"]
        return list(acts["cards"].values()) + [b["action"] for b in acts["buttons"]]

    def close(self) -> None:
        self.ws.close()


class Network:
    """A loopback path to the server that can go dead as a phone's network does: bytes stop
    going either way, and nothing is closed."""

    def __init__(self, server: Server) -> None:
        self.target = ("127.0.0.1", int(server.url.rsplit(":", 1)[1]))
        self.up = threading.Event()
        self.up.set()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:  # closed: the test is over
                return
            far = socket.create_connection(self.target)
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: Any, sink: Any) -> None:
        while True:
            try:
                data = source.recv(65536)
                if not data:
                    break
                self.up.wait()  # a dead network holds every byte, closing nothing
                sink.sendall(data)
            except OSError:
                break
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


class Inbox:
    """A connection that keeps what it is sent (for rooms driven without a server)."""

    def __init__(self, seat: int | None, token: str | None = None) -> None:
        self.seat, self.lang, self.token = seat, "en", token
        self.sent: list[dict[str, object]] = []

    def send(self, message: object) -> None:
        self.sent.append(dict(message))  # type: ignore[call-overload]

    def fail(self, rule: str, message: str, text: str | None = None) -> None:
        self.send({"type": "error", "rule": rule, "message": message, "text": text or message})

    def close(self, code: int) -> None:
        self.send({"type": "closed", "code": code})


def my_turn(me: Client) -> Message:
    """The view that offers ``me`` a move: the last one if it does, else the next that does."""
    if me.view is not None and me.legal():
        return me.view
    return me.until(lambda m: m["type"] == "view" and bool(me.legal()))


def play_out(client: Client, last: bool = False) -> Message:
    """Play ``client``'s seat of a started match to its end, its first legal action each time
    (``last``: its last); returns the room that then tells the seed."""
    while not (client.view and client.view["result"]):
        if client.legal():
            client.send({"type": "act", "action": client.legal()[-1 if last else 0]})
        client.expect("view")
    return client.until(lambda m: m["type"] == "room" and m["seed"] is not None)


def play_to_the_end(server: Server, table: Message) -> Message:
    """Start ``table`` as its host and play it to the end; returns the room as the host first
    heard it."""
    client = server.client()
    client.hello(table["code"], table["token"])
    room: Message = client.expect("room")
    client.send({"type": "start"})
    client.expect("view")
    play_out(client)
    client.close()
    return room


def table_for_two(server: Server, game: str = "pocha", **params: Any) -> dict[str, Any]:
    """A table whose host is seat 0 and whose seat 1 waits for a friend; bots fill the rest."""
    players = int(params.get("players", 3))
    seats = [{"kind": "human"}, {"kind": "human"}]
    seats += [{"kind": "bot", "level": "easy"}] * (players - 2)
    return server.create(game, params=params, seats=seats, name="Host")


def host_plays(server: Server, table: dict[str, Any]) -> threading.Thread:
    """The host, in a thread: starts once seat 1 is connected, then plays its seat to the end."""

    def run() -> None:
        host = server.client()
        host.hello(table["code"], table["token"])
        host.until(lambda m: m["type"] == "room" and m["seats"][1]["connected"], timeout=30)
        host.send({"type": "start"})
        host.expect("view")
        play_out(host)
        host.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


_ZOE: dict[str, str] = {}  # the session server's url -> the player token the hosts share


def zoe_seats(server: Server, folder: Path) -> Seats:
    """A terminal's kept seats in ``folder``, as the one player Zoe: every test that hosts a
    table at the session's server shares her, so that the tests together add one rated player,
    not one each, to the leaderboards other tests read (a board lists the best fifty)."""
    if server.url not in _ZOE:
        _ZOE[server.url] = server.post("/api/players", {"name": "Zoe"})["token"]
    seats = Seats(folder)
    seats.keep_player(server.url, _ZOE[server.url], "Zoe")
    return seats
