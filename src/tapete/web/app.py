"""The web app: ``create_app`` puts the lobby (``api``) and play (``protocol``) together over
a server's rooms, and ``serve`` runs it under uvicorn.

Its parts: ``api`` (the lobby over HTTP and the pages), ``protocol`` (the WebSocket), ``rooms``
and ``room`` (the tables), ``seating``, ``driver`` and ``views`` (a table's seats, what moves
it, what it says), ``thinking`` (the bot processes), ``reviews`` (the coach's reviews of
finished matches), ``store`` and ``sqlstore`` (the truth).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from tapete.bots import Bot
from tapete.errors import SpecError
from tapete.record import lock_file
from tapete.web.api import STATIC, Files, Refused, pages, router
from tapete.web.cluster import LEASE, Cluster
from tapete.web.deadlines import BODY_TIMEOUT, head_deadline_protocol
from tapete.web.protocol import Limits
from tapete.web.protocol import router as play
from tapete.web.ratelimit import RateLimiter, RateLimits
from tapete.web.reviews import WEB_ITERATIONS, Reviews
from tapete.web.rooms import ABANDON_AFTER, Rooms
from tapete.web.store import MemoryStore, Store
from tapete.web.thinking import Thinkers, default_processes

__all__ = [
    "HideTokens",
    "Limits",
    "RateLimits",
    "Sharing",
    "StartupError",
    "create_app",
    "hold_database",
    "open_store",
    "serve",
    "server_config",
]

log = logging.getLogger("tapete.web")

EXPIRE_EVERY = 600.0  # seconds between looks for tables nobody started within a day
QUERY_VALUE = re.compile(r"(^|[?&])([^=&?\s]*)=[^&\s]*")


def hide_tokens(path: str) -> str:
    """``path`` with the value of every query parameter named ``token`` blanked, its name
    read as the server reads it (percent-decoded: ``tok%65n=`` is a token too).

    >>> hide_tokens("/api/players/me?lang=es&tok%65n=s3cret&x=1")
    '/api/players/me?lang=es&tok%65n=…&x=1'
    """

    def blank(found: re.Match[str]) -> str:
        if urllib.parse.unquote_plus(found[2]).strip().casefold() == "token":
            return f"{found[1]}{found[2]}=…"
        return found[0]

    return QUERY_VALUE.sub(blank, path)


class HideTokens(logging.Filter):
    """Blanks ``token=...`` in the paths the access log prints (the deprecated query form):
    a token in a log is a seat or a player anyone reading the log can take."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(hide_tokens(a) if isinstance(a, str) else a for a in record.args)
        return True


def create_app(
    store: Store | None = None,
    limits: Limits | None = None,
    rate_limits: RateLimits | None = None,
    clock: Callable[[], float] = time.time,
    *,
    players: Mapping[str, Bot] | None = None,
    bot_processes: int = 0,
    cluster: Cluster | None = None,
    review_iterations: int = WEB_ITERATIONS,
    review_processes: int | None = None,
    abandon_after: float = ABANDON_AFTER,
) -> FastAPI:
    """The tapete web app over ``store`` (in memory by default), with per-connection
    ``limits``, per-client ``rate_limits`` (the defaults unless given), ``clock`` (seconds
    since the epoch: when tables were made and when they expire), ``players``: the bot that
    plays a level at its tables, where it is not ``tapete.bots.load(level)``, and
    ``bot_processes``: the worker processes where bots think (0: threads of this process), and
    ``cluster``: the link to other servers sharing ``store`` (``tapete.web.cluster``);
    ``review_iterations``: the sampled deals a decision of the coach's reviews of finished
    matches, worked out in ``review_processes`` processes (one where bots have processes);
    ``abandon_after``: the seconds a started match nobody is at waits before its bots and
    stand-ins finish it (``Room.alone``; 0: it waits for ever)."""
    thinkers = Thinkers(bot_processes, review_processes)
    store = store or MemoryStore()
    rooms = Rooms(store, clock, players, thinkers, cluster, abandon_after=abandon_after)
    reviews = Reviews(store, thinkers, review_iterations, cluster=cluster)
    if cluster is not None:
        cluster.reviews = reviews

    async def expire_now_and_then() -> None:
        while True:
            await asyncio.sleep(EXPIRE_EVERY)
            try:
                await rooms.expire()
            except Exception:  # the database is away: look again next time
                log.exception("removing expired tables failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            thinkers.start()
            await rooms.restore()
            if cluster is not None:
                await cluster.start(rooms)
        except Exception as exc:
            # uvicorn logs the traceback and stops: its server says why it did not start.
            said = str(exc).splitlines()
            app.state.startup_failure = f"{type(exc).__name__}: {said[0] if said else ''}"
            raise
        sweeper = asyncio.get_running_loop().create_task(expire_now_and_then())
        yield
        sweeper.cancel()
        if cluster is not None:
            await cluster.close()  # the others take this server's rooms over at once
        rooms.close()
        reviews.close()
        thinkers.close()

    app = FastAPI(
        title="tapete",
        summary="Traditional card games in the browser: the lobby API. Play is over /ws.",
        version="0.1.0",
        lifespan=lifespan,
        # FastAPI's pages for browsing the schema load their scripts from a CDN: on the game's
        # own address they could read every seat token the browser keeps there. The schema is
        # at /openapi.json, for any OpenAPI viewer.
        docs_url=None,
        redoc_url=None,
    )
    app.state.rooms = rooms
    app.state.thinkers = thinkers
    app.state.reviews = reviews
    app.state.cluster = cluster
    app.state.limits = limits or Limits()
    app.state.sockets = Counter()  # open WebSockets per client (Limits.per_client)
    app.state.limiter = RateLimiter(rate_limits or RateLimits())
    app.state.db = getattr(store, "db", None)  # tapete.store.Store behind a SqlStore
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(Refused, _refused)
    app.add_exception_handler(StarletteHTTPException, _unread)
    app.add_exception_handler(SQLAlchemyError, _database_away)
    app.add_middleware(BodyLimit, within=app.state.limits.body_within)
    app.mount("/static", Files(directory=STATIC), name="static")
    app.include_router(pages)
    app.include_router(router)
    app.include_router(play)
    return app


MAX_BODY = 64 * 1024  # bytes of a request's body: every form of the API is far smaller


class BodyLimit:
    """Refuse a request whose body passes ``limit`` bytes with 413, before anything reads it:
    an unbounded body would cost the server memory and the time to parse it, on the event
    loop every table shares. Refuse one whose body is not all in ``within`` seconds after its
    head with 408 (and close the connection): uvicorn times no body, so one sent a byte now
    and then would hold its request, and what it sent so far, for as long as its client
    liked."""

    def __init__(self, app: Any, limit: int = MAX_BODY, within: float = BODY_TIMEOUT) -> None:
        self.app, self.limit, self.within = app, limit, within

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or ()).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.limit:
            await self._refuse(send, 413, f"a request body is at most {self.limit} bytes")
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.within
        seen, whole, started, refused = 0, False, False, False

        async def refuse(status: int, detail: str, close: bool = False) -> Any:
            nonlocal refused
            if not refused and not started:
                refused = True
                await self._refuse(send, status, detail, close)
            return {"type": "http.disconnect"}  # the app is told its client left

        async def counted() -> Any:
            # A body sent in chunks, with no length, is counted as it comes: past the limit
            # the client is answered here and the app told it left. Once the body is in, the
            # app may wait as long as it likes to hear that the client left.
            nonlocal seen, whole
            if refused:
                return {"type": "http.disconnect"}
            if whole:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), deadline - loop.time())
            except TimeoutError:
                detail = f"a request body has {self.within:g} s to arrive in full"
                return await refuse(408, detail, close=True)
            whole = not message.get("more_body", False)
            seen += len(message.get("body", b""))
            if seen > self.limit:
                return await refuse(413, f"a request body is at most {self.limit} bytes")
            return message

        async def unless_refused(message: Any) -> None:
            nonlocal started
            if not refused:
                started = True
                await send(message)

        await self.app(scope, counted, unless_refused)

    @staticmethod
    async def _refuse(send: Any, status: int, detail: str, close: bool = False) -> None:
        rule = "too-slow" if status == 408 else "too-large"
        body = json.dumps({"detail": detail, "rule": rule}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if close:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _refused(request: Request, exc: Exception) -> Response:
    """A request refused by a rule (``api.Refused``): its status, ``detail`` and ``rule``."""
    assert isinstance(exc, Refused)
    return Response(
        json.dumps({"detail": exc.detail, "rule": exc.rule}),
        status_code=exc.status_code,
        media_type="application/json",
        headers=exc.headers,
    )


async def _unread(request: Request, exc: Exception) -> Response:
    """A request the framework itself refused before any route read it — a body nested too
    deep to be read as JSON, an address no route has, a method its route does not take —
    answered with its status and detail, and, a client's mistake, the code ``bad-message``:
    every refusal a page can meet carries a rule (a page out of step with the server)."""
    assert isinstance(exc, StarletteHTTPException)
    if not 400 <= exc.status_code < 500:
        return await http_exception_handler(request, exc)
    return Response(
        json.dumps({"detail": exc.detail, "rule": "bad-message"}),
        status_code=exc.status_code,
        media_type="application/json",
        headers=exc.headers,
    )


async def _invalid(request: Request, exc: Exception) -> Response:
    """A request that does not fit its form: 422 and what is wrong, as FastAPI says it, each
    error's input kept only where JSON can hold it (NaN or an infinity cannot, and FastAPI's
    own answer failed with a 500). Written in ASCII: a field's name or input may hold half of
    a UTF-16 pair ("\\ud800" in the request), which JSON escapes but UTF-8 cannot hold."""
    assert isinstance(exc, RequestValidationError)
    detail = []
    for error in jsonable_encoder(exc.errors()):
        # A list or object refused whole (a body that is no object) is the client's own body,
        # as deep as it came (a thousand brackets): told back, it would be more than many a
        # client's JSON reader can read. A single value is kept, to say which one it was.
        if isinstance(error.get("input"), (list, dict)):
            error = {key: value for key, value in error.items() if key != "input"}
        try:
            json.dumps(error, allow_nan=False)
        except ValueError:
            error = {key: value for key, value in error.items() if key not in ("input", "ctx")}
        detail.append(error)
    # A name over its length is the one a person can type (an old page without the field's
    # limit): told as such; anything else is a page or client out of step with the server.
    too_long = any(
        e.get("type") == "string_too_long" and tuple(e.get("loc", ()))[-1:] == ("name",)
        for e in detail
    )
    rule = "name-too-long" if too_long else "bad-message"
    return Response(
        json.dumps({"detail": detail, "rule": rule}, separators=(",", ":")),
        status_code=422,
        media_type="application/json",
    )


DATABASE_AWAY = "the database did not answer or took nothing: try again in a moment"


async def _database_away(request: Request, exc: Exception) -> Response:
    """A request the database failed (away, full, read-only): 503, try again, nothing kept —
    not a 500, which would say the request itself was at fault."""
    log.warning("%s %s: the database failed (%s)", request.method, request.url.path, exc)
    return Response(
        json.dumps({"detail": DATABASE_AWAY, "rule": "database-away"}),
        status_code=503,
        media_type="application/json",
        headers={"Retry-After": "5"},
    )


def open_store(db: str | None = None) -> Store:
    """The store ``tapete serve --db`` names: a database URL (SQLite in the user's data folder
    by default, or ``postgresql://...``), or ``memory`` for none (nothing survives the process)."""
    if db == "memory":
        return MemoryStore()
    from tapete.store import Store as Database
    from tapete.web.sqlstore import SqlStore

    return SqlStore(Database(db))


def check_database(db: str | None) -> None:
    """Open the database ``db`` names (migrating it), check it takes writes, and close it
    again: raises ``tapete.store.StoreError``, one line naming it, when it cannot be opened
    or takes no writes (read-only, locked by another process)."""
    if db != "memory":
        from tapete.store import Store as Database

        database = Database(db)
        try:
            database.check_writes()
        finally:
            database.engine.dispose()


_HELD: dict[str, int] = {}  # lock files this process holds, by path: their descriptors


def hold_database(db: str | None) -> None:
    """Make this process the one server of the SQLite file ``db`` names (None: the default
    one) for the rest of its life: two servers on one file would each drive its tables (two
    bots playing one seat, two clocks). The hold is an exclusive lock on a file beside the
    database (``NAME.lock``, which says the holder's pid), and the operating system lets go of
    it when the process ends, however it ends (kill -9 too): nothing stale to clear by hand.

    Raises StoreError, one line naming the database and the process holding it, when another
    process holds it. PostgreSQL (shared by design), in-memory SQLite and ``memory`` need no
    hold; nor a file in a folder that does not exist (opening it says why). Holding it again
    in the same process does nothing.
    """
    from sqlalchemy.engine import make_url

    from tapete.store import StoreError, default_url

    url = db or default_url()
    if db == "memory" or not url.startswith("sqlite"):
        return
    parsed = make_url(url)
    name = parsed.database
    if not name or name == ":memory:" or parsed.query.get("mode") == "memory":
        return
    path = Path(name).resolve()
    lock = path.with_name(f"{path.name}.lock")
    if str(lock) in _HELD or not path.parent.is_dir():
        return
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:  # a read-only folder: the database could not be written either
        raise StoreError(
            f"the database {path} takes no writes: its lock file {lock} cannot be made "
            f"({exc.strerror})"
        ) from None
    try:
        lock_file(fd)
    except OSError:
        holder = os.read(fd, 32).decode("ascii", "replace").strip()
        os.close(fd)
        who = f"process {holder}" if holder.isdigit() else "another process"
        raise StoreError(
            f"the database {path} is served by {who} (it holds {lock}): one server per SQLite "
            "file; several servers share PostgreSQL (--db postgresql://… --redis …)"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    _HELD[str(lock)] = fd


def server_config(
    app: FastAPI,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    trusted_proxies: Sequence[str] = (),
) -> Any:
    """uvicorn's settings for the app: ``X-Forwarded-For`` is read from ``trusted_proxies``
    only (addresses or networks; none by default, where uvicorn would trust 127.0.0.1), the
    access log never prints a token, and a connection whose request head is not in within the
    app's ``Limits.head_within`` seconds is closed (``tapete.web.deadlines``)."""
    import copy

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    logging_config = copy.deepcopy(LOGGING_CONFIG)
    logging_config.setdefault("filters", {})["hide_tokens"] = {"()": HideTokens}
    logging_config["handlers"]["access"]["filters"] = ["hide_tokens"]
    limits: Limits = getattr(app.state, "limits", None) or Limits()
    return uvicorn.Config(
        app,
        http=head_deadline_protocol(limits.head_within),
        host=host,
        port=port,
        log_level=log_level,
        log_config=logging_config,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies),
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=limits.ping_every,
        ws_ping_timeout=limits.ping_timeout,
        timeout_graceful_shutdown=10,  # SIGTERM: connections get this long to close
    )


@dataclass(frozen=True)
class Sharing:
    """How a server shares its tables with others: Redis at ``redis`` (its keys under
    ``prefix``), rooms' leases of ``lease`` seconds, and ``workers`` processes on this host."""

    redis: str
    prefix: str = "tapete"
    lease: float = LEASE
    workers: int = 1


def check_sharing(db: str | None, sharing: Sharing | None) -> None:
    """Refuse a setup that cannot share: several processes need PostgreSQL and Redis (SQLite
    has one writer and stays the one-process default). Raises SpecError naming the option."""
    if sharing is None:
        return
    if sharing.workers < 1:
        raise SpecError("--workers: at least 1 process, not {workers}", workers=sharing.workers)
    if not (db or "").startswith("postgresql://"):
        raise SpecError(
            "--redis and --workers share tables between processes through PostgreSQL: "
            "give --db postgresql://… (SQLite keeps one process's tables)"
        )
    if not sharing.redis.startswith(("redis://", "rediss://", "unix://")):
        raise SpecError("--redis: a redis://host:port URL, not {url}", url=repr(sharing.redis))


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    db: str | None = None,
    *,
    trusted_proxies: Sequence[str] = (),
    rate_limits: RateLimits | None = None,
    limits: Limits | None = None,
    bot_processes: int | None = None,
    sharing: Sharing | None = None,
    review_iterations: int = WEB_ITERATIONS,
    review_processes: int | None = None,
    abandon_after: float = ABANDON_AFTER,
) -> None:
    """Run the web app with uvicorn until interrupted (SIGINT) or told to stop (SIGTERM: it
    closes its connections, gives its rooms to the other servers and exits), its rooms kept in
    ``db`` (an SQLite file is this process's alone, else StoreError: ``hold_database``);
    clients behind ``trusted_proxies`` are told apart by ``X-Forwarded-For``; bots think in
    ``bot_processes`` worker processes (default: one per core; 0: in threads of the server);
    the coach's reviews of finished matches sample ``review_iterations`` deals a decision, in
    ``review_processes`` processes of their own (default: one; 0: threads of the server); a
    started match nobody has been at for ``abandon_after`` seconds is finished by its bots and
    stand-ins (0: it waits for its people for ever).

    With ``sharing``, the tables are shared with every other server on the same PostgreSQL
    ``db`` and Redis (``tapete.web.cluster``), and ``sharing.workers`` processes of this host
    listen on the same port (the kernel spreads the connections among them).
    """
    check_sharing(db, sharing)
    port = check_port(host, port, sharing)
    hold_database(db)
    if sharing is not None and sharing.workers > 1:
        # Opened (and migrated) once here first: a database that cannot be reached is one clear
        # error now, not processes that die and are started again.
        check_database(db)
        _supervise(
            sharing.workers,
            {
                "host": host,
                "port": port,
                "log_level": log_level,
                "db": db,
                "trusted_proxies": tuple(trusted_proxies),
                "rate_limits": rate_limits,
                "limits": limits,
                # Each worker's share of the host's: a worker is told it is one of one.
                "bot_processes": worker_bot_processes(bot_processes, sharing),
                "sharing": dataclasses.replace(sharing, workers=1),
                "review_iterations": review_iterations,
                "review_processes": review_processes,
                "abandon_after": abandon_after,
            },
        )
        return
    _serve_one(
        host,
        port,
        log_level,
        db,
        trusted_proxies=trusted_proxies,
        rate_limits=rate_limits,
        limits=limits,
        bot_processes=bot_processes,
        sharing=sharing,
        reuse_port=sharing is not None,
        review_iterations=review_iterations,
        review_processes=review_processes,
        abandon_after=abandon_after,
    )


def _serve_one(
    host: str,
    port: int,
    log_level: str,
    db: str | None,
    *,
    trusted_proxies: Sequence[str],
    rate_limits: RateLimits | None,
    limits: Limits | None,
    bot_processes: int | None,
    sharing: Sharing | None,
    reuse_port: bool = False,
    review_iterations: int = WEB_ITERATIONS,
    review_processes: int | None = None,
    on_started: Callable[[], None] | None = None,
    abandon_after: float = ABANDON_AFTER,
) -> None:
    """One server process; ``on_started`` is called once it listens with its app started."""
    import gc

    import uvicorn

    processes = worker_bot_processes(bot_processes, sharing)
    cluster = None
    if sharing is not None:
        cluster = Cluster(sharing.redis, prefix=sharing.prefix, lease=sharing.lease)
    app = create_app(
        open_store(db),
        limits,
        rate_limits,
        bot_processes=processes,
        cluster=cluster,
        review_iterations=review_iterations,
        review_processes=review_processes,
        abandon_after=abandon_after,
    )
    # Every move allocates views for each seat; Python's default collector thresholds run full
    # collections over everything the server imported every few thousand moves — pauses that
    # land on whichever players are waiting. Freeze what startup built and collect less often.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    config = server_config(app, host, port, log_level, trusted_proxies)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started and on_started is not None:
                on_started()

    server = Server(config)
    try:
        _run(server, host, port, reuse_port)
    except SystemExit as exc:
        # uvicorn (0.30 on) exits with its own status when the app does not start; a signal's
        # status is a stop, not a failure
        if server.started or exc.code in STOPPED:
            raise
    if not server.started:  # older uvicorns return as if the server had served and ended
        why = getattr(app.state, "startup_failure", None) or "uvicorn stopped before serving"
        raise StartupError(f"the server did not start: {why}")


def _run(server: Any, host: str, port: int, reuse_port: bool) -> None:
    # uvicorn drains on SIGTERM, then raises it again; left to the default, that ends the
    # process on the spot, skipping its exit handlers: the bot processes' queues are then left
    # to the resource tracker, which warns of "leaked semaphore objects" at every stop.
    if threading.current_thread() is threading.main_thread():  # else signals are not ours
        signal.signal(signal.SIGTERM, _exit_on_signal)
    if not reuse_port:
        server.run()
        return
    server.run(sockets=[listening_socket(host, port, shared=True)])


STOPPED = (128 + signal.SIGTERM, 128 + signal.SIGINT)  # a server stopped by a signal


class StartupError(RuntimeError):
    """A server did not start (its app's startup failed): the message says why."""


def _exit_on_signal(number: int, frame: Any) -> None:
    raise SystemExit(128 + number)  # the status a shell gives a process the signal ended


def listening_socket(host: str, port: int, *, shared: bool) -> socket.socket:
    """A socket bound to ``host``:``port`` as the server binds it: ``shared`` servers on one
    host (``--workers``, or several ``tapete serve --redis``) each bind the one port with
    SO_REUSEPORT. Raises OSError naming the address when it cannot be had (another program's,
    or not this host's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if shared and hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def check_port(host: str, port: int, sharing: Sharing | None) -> int:
    """Refuse now, in one line, a port this server could not listen on: ``--workers`` would
    otherwise start server after server, each dying of it in turn. Returns the port: the one
    asked for, or for 0 the free one the system gave, so that the server says where it is
    (and every ``--workers`` process listens on the one port)."""
    sock = listening_socket(host, port, shared=sharing is not None)
    with sock:
        return int(sock.getsockname()[1])


def worker_bot_processes(bot_processes: int | None, sharing: Sharing | None) -> int:
    """Each server's bot processes: ``--bot-processes`` (default one per core) is for the host,
    shared among its ``--workers``, at least one each; 0 stays 0 (bots think in threads).

    >>> worker_bot_processes(4, Sharing("redis://r", workers=2)), worker_bot_processes(0, None)
    (2, 0)
    >>> worker_bot_processes(0, Sharing("redis://r", workers=2))
    0
    """
    processes = default_processes() if bot_processes is None else bot_processes
    if sharing is None or not processes:
        return processes
    return max(1, processes // max(1, sharing.workers))


def _worker(options: dict[str, Any], parent: int, told: Connection, quiet: bool) -> None:
    """One of ``--workers`` processes: a server sharing its port and tables. It drains and
    stops when its supervisor ``parent`` is gone (killed with -9, it cannot tell them), so a
    restarted supervisor never finds the old servers still on the port.

    It tells its supervisor through ``told`` that it serves (``"up"``) or why it ended
    (``"failed"`` and the error's first line). ``quiet``, it leaves its traceback out: the
    supervisor has already shown the same failure's whole traceback and says the rest in a
    line."""
    threading.Thread(target=_drain_without, args=(parent,), daemon=True).start()
    options = dict(options)
    host, port, log_level, db = (options.pop(k) for k in ("host", "port", "log_level", "db"))

    def up() -> None:
        told.send(("up", ""))

    try:
        _serve_one(host, port, log_level, db, reuse_port=True, on_started=up, **options)
    except Exception as exc:
        said = str(exc).splitlines()
        with contextlib.suppress(OSError):  # a supervisor gone hears nothing
            told.send(("failed", f"{type(exc).__name__}: {said[0] if said else ''}"))
        if not quiet:
            raise  # the whole traceback, once: what a person needs to find the cause
        sys.exit(1)


def _drain_without(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    log.error("the supervising process %s is gone: this server drains and stops", parent)
    os.kill(os.getpid(), signal.SIGTERM)


QUICK_END = 10.0  # seconds: a server that ends sooner than this after it served failed at once
RESTART_MAX = 30.0  # seconds, at most, before a failed server is started again
FAILS_MAX = 10  # failed starts in a row after which a server is not started again


def _supervise(workers: int, options: dict[str, Any]) -> None:
    """Start ``workers`` servers and keep them running: one that served a while and died is
    started again at once; one that failed (it never served, however long it tried, or it
    ended within ``QUICK_END`` seconds of serving) later and later (``_restart_wait``); one
    whose start failed ``FAILS_MAX`` times in a row is not started again, said in one line
    with its last reason.
    Raises StartupError once no server is left to start. On SIGTERM or SIGINT each is told to
    stop (they drain) and waited for.

    A server that keeps failing shows its whole traceback once; each further failure is one
    line (the error and the wait before the next start), and its recovery one line."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    stopping = False

    def start(quiet: bool) -> tuple[Any, Connection]:
        hearing, told = context.Pipe(duplex=False)
        process = context.Process(
            target=_worker, args=(options, os.getpid(), told, quiet), name="tapete-server"
        )
        process.start()
        told.close()  # the child's end: once the child is gone, hearing sees the end
        return process, hearing

    def stop(signum: int, _: Any) -> None:
        nonlocal stopping
        stopping = True
        for process in processes:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)

    def heard(i: int) -> list[tuple[str, str]]:
        news = []
        with contextlib.suppress(EOFError, OSError):
            while hearings[i].poll():
                news.append(hearings[i].recv())
        return news

    started = [start(quiet=False) for _ in range(workers)]
    processes = [process for process, _ in started]
    hearings = [hearing for _, hearing in started]
    began = [time.monotonic()] * workers  # when each started serving (or was started)
    up = [False] * workers  # whether each has served since it was started
    shown = [False] * workers  # whether the traceback of each one's failures has been shown
    why = [""] * workers  # what each said when it failed
    failures = [0] * workers  # failed starts of each in a row (it never served)
    failed = [0] * workers  # quick ends of each in a row: the wait before its next start
    due: list[float | None] = [None] * workers  # when each that ended is started again
    given_up = [False] * workers  # failed FAILS_MAX times in a row: not started again
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping and not all(given_up):
        time.sleep(0.5)
        now = time.monotonic()
        for i, process in enumerate(processes):
            if given_up[i]:
                continue
            restart_at = due[i]
            if restart_at is not None:
                if now >= restart_at and not stopping:
                    (processes[i], hearings[i]), began[i], due[i] = start(shown[i]), now, None
                    up[i] = False
                continue
            alive = process.is_alive()  # asked first: what it said before it ended is heard
            for kind, said in heard(i):
                if kind == "up":
                    if shown[i]:
                        log.warning(
                            "server process %s started after %s failures: serving again",
                            process.pid,
                            failures[i],
                        )
                    up[i], began[i], shown[i] = True, time.monotonic(), False
                elif kind == "failed":
                    why[i] = said
            if stopping or alive:
                continue
            process.join()
            failed[i], wait = _restart_wait(up[i], now - began[i], failed[i])
            if up[i]:  # it served: it ended, whatever the cause
                failures[i] = 0
                again = f": starting another{f' in {wait:g} s' if wait else ''}"
                log.error("server process %s ended (%s)%s", process.pid, process.exitcode, again)
            else:
                failures[i] += 1
                reason = why[i] or f"it exited with status {process.exitcode}"
                if failures[i] >= FAILS_MAX:
                    given_up[i] = True
                    log.error(
                        "server process %s failed to start %s times in a row, last: %s; it is"
                        " not started again (%s of %s servers left): fix the cause and restart"
                        " tapete serve",
                        process.pid,
                        failures[i],
                        reason,
                        given_up.count(False),
                        workers,
                    )
                else:
                    again = f": starting another in {wait:g} s"
                    if shown[i]:
                        log.error(
                            "server process %s failed to start again (%s failures in a row): %s%s",
                            process.pid,
                            failures[i],
                            reason,
                            again,
                        )
                    else:
                        log.error(
                            "server process %s failed to start: %s%s", process.pid, reason, again
                        )
                shown[i] = True
            if not given_up[i]:
                due[i] = now + wait
            why[i] = ""
            hearings[i].close()
    for process in processes:
        process.join(30)
    if all(given_up) and not stopping:
        raise StartupError(
            f"every one of the {workers} server processes failed to start {FAILS_MAX} times in"
            " a row: see the reasons above"
        )


def _restart_wait(served: bool, lived: float, failed: int) -> tuple[int, float]:
    """How many times in a row a server has now failed, and how long to wait before starting
    it again. One that ``served`` for ``QUICK_END`` seconds or more ended as servers do: started
    again at once, its failures forgotten. One that never served (its start failed, after 2 s
    or after 2 min of a database timing out) or died within ``QUICK_END`` seconds of serving
    failed: started again after 1, 2, 4… up to ``RESTART_MAX`` seconds, not every half second
    with a traceback each time.

    >>> _restart_wait(True, 3600.0, 4), _restart_wait(False, 2.0, 0), _restart_wait(True, 2.0, 3)
    ((0, 0.0), (1, 1.0), (4, 8.0))
    >>> _restart_wait(False, 3600.0, 9)
    (10, 30.0)
    """
    if served and lived >= QUICK_END:
        return 0, 0.0
    return failed + 1, min(RESTART_MAX, 2.0**failed)
