"""The web app: pages and the lobby over HTTP, play over one WebSocket route.

Every WebSocket message is a JSON object tagged with ``type`` (docs/protocol.md); the server
reads them in one ``match`` and answers bad input with ``{"type": "error", "rule", "message",
"text"}`` without changing anything or dropping the connection — except for oversized messages
and floods, which are cut off.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.encoders import jsonable_encoder
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from tapete import record
from tapete.bots import Bot
from tapete.errors import IllegalActionError, SpecError
from tapete.game import format_spec, parse_spec
from tapete.games import ENTRIES, games, load
from tapete.i18n import LANGUAGES
from tapete.web.ratelimit import RateLimiter, RateLimits
from tapete.web.rooms import Room, Rooms, encode, levels, token_hash
from tapete.web.store import MemoryStore, Options, SeatConfig, Store
from tapete.web.strings import rule_text, strings
from tapete.web.thinking import Thinkers, default_processes

__all__ = [
    "HideTokens",
    "Limits",
    "RateLimits",
    "create_app",
    "open_store",
    "serve",
    "server_config",
]

log = logging.getLogger("tapete.web")

STATIC = Path(__file__).parent / "static"
EXPIRE_EVERY = 600.0  # seconds between looks for tables nobody started within a day
LOBBY_PAGE = 20  # tables a lobby page lists by default
# Tokens in a URL's query (``?token=``) were how the pages first sent them; they still work for a
# while, answered with this Deprecation header (RFC 9745: since 2026-12-01).
DEPRECATED_SINCE = "@1796083200"
TOKEN_IN_QUERY = re.compile(r"((?:^|[?&])token=)[^&\s]*", re.IGNORECASE)


class HideTokens(logging.Filter):
    """Blanks ``token=...`` in the paths the access log prints (the deprecated query form):
    a token in a log is a seat or a player anyone reading the log can take."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                TOKEN_IN_QUERY.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args
            )
        return True


@dataclass(frozen=True)
class Limits:
    """What one connection may send: bigger messages and faster floods are cut off."""

    max_message: int = 4096  # bytes in one message
    burst: int = 40  # messages at once ...
    rate: float = 20.0  # ... refilled at this many a second
    outbox: int = 512  # messages queued for a slow reader before it is dropped


# --- the lobby API -------------------------------------------------------------------------


class SeatIn(BaseModel):
    kind: Literal["human", "bot"] = Field(
        description="human: a person (the first is the creator; others wait for friends)"
    )
    level: str = Field("medium", description="a bot's level: random, easy, medium, hard or expert")


class TableIn(BaseModel):
    game: str = Field(description="a registered game name, e.g. pocha")
    params: dict[str, str | int | bool] = Field(
        default_factory=dict, description="parameters that differ from the defaults"
    )
    seats: list[SeatIn] | None = Field(
        None, description="one per seat; default: the creator, then medium bots"
    )
    name: str = Field("", max_length=24, description="the creator's name at the table")
    public: bool = Field(True, description="listed in the lobby")
    grace: float = Field(20.0, ge=0, le=600, description="seconds before a bot stands in")
    turn_timer: float = Field(0.0, ge=0, le=600, description="seconds per move (0: no timer)")
    bot_delay: float = Field(0.7, ge=0, le=5, description="seconds a bot waits before acting")
    standby: str = Field("medium", description="level of stand-in bots and bots the host adds")
    seed: int | None = Field(None, ge=0, description="the match seed (default: random)")
    player: str | None = Field(
        None, max_length=128, description="the creator's player token (results and ratings)"
    )


class TableOut(BaseModel):
    code: str
    token: str = Field(description="the creator's secret: keep it to come back to the seat")
    seat: int | None
    spec: str


class JoinIn(BaseModel):
    name: str = Field("", max_length=24)
    seat: int | None = Field(None, description="a free seat, or the first free one")
    player: str | None = Field(None, max_length=128, description="your player token")


class PlayerIn(BaseModel):
    name: str = Field(max_length=24, description="the name shown at tables and leaderboards")


class PlayerOut(BaseModel):
    id: str
    name: str
    token: str | None = Field(None, description="the identity token: keep it, it is the login")


class JoinOut(BaseModel):
    code: str
    seat: int
    token: str


def _clean_name(name: str) -> str:
    return "".join(ch for ch in name if ch.isprintable()).strip()[:24]


def _spec(game: str, params: Mapping[str, str | int | bool]) -> str:
    """A spec from a name and form values; values are read as spec values (``[1, 2]``, true)."""
    name, given = parse_spec(game)
    if given:
        raise SpecError("give parameters in params, not in the game name")
    parsed: dict[str, Any] = {}
    for key, value in params.items():
        if not key.isidentifier():
            raise SpecError(f"{key!r} is not a parameter name")
        text = ("true" if value else "false") if isinstance(value, bool) else str(value).strip()
        _, one = parse_spec(f"x({key}={text})") if text else ("", {})
        parsed.update(one)
    return format_spec(name, parsed)


def _games() -> list[dict[str, Any]]:
    out = []
    for name in games():
        game = load(name)
        params = [
            {"name": f.name, "default": _plain(getattr(game.params, f.name))}
            for f in dataclasses.fields(game.params)
        ]
        out.append(
            {
                "name": name,
                "summary": ENTRIES[name].summary,
                "players": game.players,
                "params": params,
                "levels": list(levels(game)),
                "rules": ENTRIES[name].module.rsplit(".", 1)[-1],
            }
        )
    return out


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _rules_page(name: str) -> str:
    page = f"{name}.md"
    packaged = resources.files("tapete") / "docs" / "rules" / page
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[3] / "docs" / "rules" / page
    if source.is_file():
        return source.read_text(encoding="utf-8")
    raise HTTPException(404, f"no rules page for {name}")


# --- a connection --------------------------------------------------------------------------


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

    def send(self, message: Mapping[str, Any]) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= self.limits.outbox:
            self.close(1008)  # a reader this slow would hold everyone's memory
            return
        self.outbox.put_nowait(encode(message))

    def fail(self, rule: str, message: str) -> None:
        self.send(
            {
                "type": "error",
                "rule": rule,
                "message": message,
                "text": rule_text(self.lang, rule, message),
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
        """Write the outbox to the socket, in order; a number closes it with that code."""
        while True:
            item = await self.outbox.get()
            if isinstance(item, int):
                with contextlib.suppress(Exception):
                    await self.ws.close(item)
                return
            await self.ws.send_text(item)


def _lang(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    base = value.split("-")[0].lower()
    return base if base in LANGUAGES else None


# --- tokens --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """A seat or player token a request showed, and whether in the deprecated query form."""

    value: str | None
    in_query: bool = False


_bearer = HTTPBearer(auto_error=False, description="a seat token or a player's identity token")


def _token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    token: Annotated[
        str | None,
        Query(deprecated=True, description="deprecated: send Authorization: Bearer TOKEN"),
    ] = None,
) -> Token:
    if credentials is not None:
        return Token(credentials.credentials)
    return Token(token or None, in_query=bool(token))


def _deprecate(response: Response, token: Token) -> None:
    if token.in_query:
        response.headers["Deprecation"] = DEPRECATED_SINCE


# --- the app -------------------------------------------------------------------------------


def create_app(
    store: Store | None = None,
    limits: Limits | None = None,
    rate_limits: RateLimits | None = None,
    clock: Callable[[], float] = time.time,
    *,
    players: Mapping[str, Bot] | None = None,
    bot_processes: int = 0,
) -> FastAPI:
    """The tapete web app over ``store`` (in memory by default), with per-connection
    ``limits``, per-client ``rate_limits`` (the defaults unless given), ``clock`` (seconds
    since the epoch: when tables were made and when they expire), ``players``: the bot that
    plays a level at its tables, where it is not ``tapete.bots.load(level)``, and
    ``bot_processes``: the worker processes where bots think (0: threads of this process)."""
    thinkers = Thinkers(bot_processes)
    rooms = Rooms(store or MemoryStore(), clock, players, thinkers)
    limits = limits or Limits()
    limiter = RateLimiter(rate_limits or RateLimits())

    async def expire_now_and_then() -> None:
        while True:
            await asyncio.sleep(EXPIRE_EVERY)
            try:
                await rooms.expire()
            except Exception:  # the database is away: look again next time
                log.exception("removing expired tables failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        thinkers.start()
        await rooms.restore()
        sweeper = asyncio.get_running_loop().create_task(expire_now_and_then())
        yield
        sweeper.cancel()
        rooms.close()
        thinkers.close()

    app = FastAPI(
        title="tapete",
        summary="Traditional card games in the browser: the lobby API. Play is over /ws.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.rooms = rooms
    app.state.limiter = limiter
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return page()

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return page()

    @app.get("/players/{participant}", include_in_schema=False)
    async def profile_page(participant: str) -> FileResponse:
        return page()

    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def leaderboard_page(game: str) -> FileResponse:
        return page()

    @app.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return page()

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> FileResponse:
        return page()

    db = getattr(store, "db", None)  # tapete.store.Store behind a SqlStore; None in memory

    def _db() -> Any:
        if db is None:
            raise HTTPException(503, "players need a database: this server keeps none")
        return db

    async def _player_id(token: str | None) -> str | None:
        if not token or db is None:
            return None
        found = await asyncio.to_thread(db.player, token)
        if found is None:
            raise HTTPException(403, "no player has that token")
        return str(found.id)

    async def _limit(kind: str, request: Request) -> None:
        """Count a request of ``kind`` by its client; 429 with Retry-After when over a limit."""
        client = request.client.host if request.client else "unknown"
        refused = await limiter.hit(kind, client)
        if refused is not None:
            raise HTTPException(
                429,
                f"too many requests from your address ({kind}): try again in "
                f"{refused.retry_after} s",
                headers={"Retry-After": str(refused.retry_after)},
            )

    @app.post("/api/players", summary="A new player: a name and an identity token (no password)")
    async def api_new_player(body: PlayerIn, request: Request) -> PlayerOut:
        await _limit("players", request)
        player, token = await asyncio.to_thread(_db().create_player, _clean_name(body.name))
        return PlayerOut(id=player.id, name=player.name, token=token)

    @app.get("/api/players/me", summary="The player a token proves (Authorization: Bearer TOKEN)")
    async def api_me(response: Response, token: Annotated[Token, Depends(_token)]) -> PlayerOut:
        _deprecate(response, token)
        found = await asyncio.to_thread(_db().player, token.value) if token.value else None
        if found is None:
            raise HTTPException(404, "no player has that token")
        return PlayerOut(id=found.id, name=found.name, token=None)

    @app.put("/api/players/me", summary="Change your player's name (Authorization: Bearer TOKEN)")
    async def api_rename(
        body: PlayerIn, response: Response, token: Annotated[Token, Depends(_token)]
    ) -> PlayerOut:
        _deprecate(response, token)
        if not token.value:
            raise HTTPException(404, "no player has that token")
        found = await asyncio.to_thread(_db().rename_player, token.value, _clean_name(body.name))
        if found is None:
            raise HTTPException(404, "no player has that token")
        return PlayerOut(id=found.id, name=found.name, token=None)

    @app.get(
        "/api/players/{participant}",
        summary="A profile: matches played, results and per-game ratings (players and bot:LEVEL)",
    )
    async def api_profile(participant: str) -> dict[str, Any]:
        base = _db()
        profile: dict[str, Any] = await asyncio.to_thread(base.profile, participant)
        if participant.startswith("bot:"):
            profile["name"] = participant
        else:
            found = await asyncio.to_thread(base.player_by_id, participant)
            if found is None and not profile["matches"]:
                raise HTTPException(404, "no such player")
            profile["name"] = found.name if found else participant
        return dict(jsonable_encoder(profile))

    @app.get("/api/leaderboard/{game}", summary="A game's players and bots by rating")
    async def api_leaderboard(game: str) -> list[dict[str, Any]]:
        if game not in ENTRIES:
            raise HTTPException(404, f"no game named {game!r}")
        rows: list[dict[str, Any]] = await asyncio.to_thread(_db().leaderboard, game)
        return rows

    @app.get("/api/health", summary="Whether this server is up: its tables and its bots' queue")
    async def api_health() -> dict[str, Any]:
        return {"ok": True, "tables": len(rooms), "bots": thinkers.report()}

    @app.get("/api/games", summary="The games, their parameters with defaults, and bot levels")
    async def api_games() -> list[dict[str, Any]]:
        return _games()

    @app.get("/api/i18n/{lang}", summary="Every string the browser shows, in one language")
    async def api_strings(lang: str) -> dict[str, Any]:
        return strings(_lang(lang) or "en")

    @app.get("/api/rules/{game}", summary="A game's rules page (Markdown)")
    async def api_rules(game: str) -> PlainTextResponse:
        if game not in ENTRIES:
            raise HTTPException(404, f"no game named {game!r}")
        module = ENTRIES[game].module.rsplit(".", 1)[-1]
        return PlainTextResponse(_rules_page(module), media_type="text/markdown")

    @app.get(
        "/api/tables",
        summary="Public tables, a page at a time: waiting for players, then being played",
    )
    async def api_tables(
        page: int = Query(1, ge=1, description="which page, from 1"),
        per_page: int = Query(LOBBY_PAGE, ge=1, le=100, description="tables a page"),
    ) -> dict[str, Any]:
        return rooms.page(page, per_page)

    @app.post("/api/tables", summary="Create a table", response_model=TableOut)
    async def api_create(body: TableIn, request: Request) -> TableOut:
        await _limit("tables", request)
        await rooms.expire()
        try:
            spec = _spec(body.game, body.params)
            game = load(spec)
            seats = body.seats or [SeatIn(kind="human", level=body.standby)] + [
                SeatIn(kind="bot", level=body.standby) for _ in range(game.players - 1)
            ]
            options = Options(
                public=body.public,
                grace=body.grace,
                turn_timer=body.turn_timer,
                bot_delay=body.bot_delay,
                standby=body.standby,
            )
            _check_level(body.standby)
            for s in seats:
                _check_level(s.level)
            room, token, seat = await rooms.create(
                spec,
                [SeatConfig(s.kind, level=s.level) for s in seats],
                name=_clean_name(body.name),
                options=options,
                seed=body.seed,
                player=await _player_id(body.player),
            )
        except SpecError as exc:
            raise HTTPException(400, str(exc)) from None
        return TableOut(code=room.code, token=token, seat=seat, spec=room.truth.spec)

    @app.get("/api/tables/{code}", summary="One table: its game, seats and status")
    async def api_table(code: str) -> dict[str, Any]:
        return _room(code).summary()

    @app.post("/api/tables/{code}/join", summary="Take a free seat", response_model=JoinOut)
    async def api_join(code: str, body: JoinIn, request: Request) -> JoinOut:
        await _limit("joins", request)
        room = _room(code)
        try:
            player = await _player_id(body.player)
            seat, token = await room.seat_person(_clean_name(body.name), body.seat, player)
        except IllegalActionError as exc:
            raise HTTPException(409, str(exc)) from None
        return JoinOut(code=room.code, seat=seat, token=token)

    @app.get("/api/tables/{code}/records/{match}", summary="A finished match's record")
    async def api_record(code: str, match: int) -> Response:
        room = _room(code)
        if not 0 <= match < len(room.truth.records):
            raise HTTPException(404, "no finished match with that number at this table")
        return Response(
            room.truth.records[match],
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="tapete-{room.code}-{match}.json"'
            },
        )

    @app.get(
        "/api/tables/{code}/record",
        summary="The match's record: redacted to your seat (Authorization: Bearer SEAT-TOKEN) "
        "while it runs, complete once over",
    )
    async def api_record_now(
        code: str, token: Annotated[Token, Depends(_token)], match: int | None = None
    ) -> Response:
        room = _room(code)
        seat = room.seat_of(token_hash(token.value)) if token.value else None
        text = room.record_for(seat, match)
        if text is None:
            raise HTTPException(404, "no match with that number has started at this table")
        number = room.truth.match if match is None else match
        response = Response(
            text,
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="tapete-{room.code}-{number}.json"',
                "Cache-Control": "no-store",  # a seat's view: for its holder only
            },
        )
        _deprecate(response, token)
        return response

    @app.get(
        "/api/tables/{code}/verify/{match}",
        summary="Check a finished match: its seed hashes to the published SHA-256, its deals "
        "follow from the seed",
    )
    async def api_verify(code: str, match: int) -> dict[str, Any]:
        room = _room(code)
        if not 0 <= match < len(room.truth.records):
            raise HTTPException(404, "no finished match with that number at this table")
        rec = record.loads(room.truth.records[match])
        problems = record.verify_deals(rec, rec.seed_hash)
        return {
            "ok": not problems and rec.seed_hash is not None,
            "seed": rec.seed,
            "seed_hash": rec.seed_hash,
            "problems": problems,
        }

    def _room(code: str) -> Room:
        room = rooms.get(code)
        if room is None:
            raise HTTPException(404, f"no table {code.upper()}")
        return room

    @app.websocket("/ws")
    async def play(ws: WebSocket) -> None:
        await ws.accept()
        link = Link(ws, limits)
        writer = asyncio.get_running_loop().create_task(link.pump())
        try:
            while not link.closing:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    text = data.decode("utf-8", "replace")
                if len(text.encode()) > limits.max_message:
                    link.fail("too-large", f"messages are at most {limits.max_message} bytes")
                    link.close(1009)
                    break
                if not link.allow():
                    link.fail("flood", "too many messages: the connection is closed")
                    link.close(1008)
                    break
                await _handle(link, text)
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

    async def _handle(link: Link, text: str) -> None:
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than Python goes
            link.fail("bad-json", "a message is one JSON object")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            link.fail("bad-message", 'a message is a JSON object with a "type"')
            return
        room = link.room
        match msg["type"]:
            case "hello":
                code, token = msg.get("code"), msg.get("token")
                found = rooms.get(code) if isinstance(code, str) else None
                if found is None:
                    link.fail("no-such-table", f"there is no table {code!r}")
                    return
                if token is not None and not isinstance(token, str):
                    link.fail("bad-message", "a token is a string")
                    return
                if room is not None:
                    room.leave(link)
                link.lang = _lang(msg.get("lang")) or link.lang
                link.token = token_hash(token) if token else None
                link.seat = found.seat_of(link.token)
                link.room = found
                found.join(link)
            case "ping":
                link.send({"type": "pong", "t": msg.get("t")})
            case _ if room is None:
                link.fail("no-table", 'say "hello" with a table code first')
            case "act":
                action, seat = msg.get("action"), msg.get("seat", link.seat)
                if not isinstance(action, str) or len(action) > 64:
                    link.fail("bad-message", 'an "act" message has an "action" string')
                elif seat != link.seat:
                    link.fail("not-your-seat", "you can only act for your own seat")
                elif (refused := await room.act(link.seat, action)) is not None:
                    link.fail(refused.rule, refused.message)
            case "hint":
                answer = await room.hint(link)
                if isinstance(answer, IllegalActionError):
                    link.fail(answer.rule, answer.message)
                else:
                    link.send(answer)
            case "lang":
                lang = _lang(msg.get("lang"))
                if lang is None:
                    link.fail("bad-lang", f"languages are {', '.join(LANGUAGES)}")
                else:
                    room.relang(link, lang)
            case "start" | "fill" | "seat" | "move" | "remove" | "rematch" as kind:
                try:
                    await room.control(link, kind, msg)
                except IllegalActionError as exc:
                    link.fail(exc.rule, exc.message)
            case other:
                link.fail("unknown-type", f"no message type {other!r}")

    return app


def _check_level(level: str) -> None:
    from tapete import bots

    if level not in bots.LEVELS:
        raise SpecError(f"no bot level {level!r}; the levels are {', '.join(bots.LEVELS)}")


def open_store(db: str | None = None) -> Store:
    """The store ``tapete serve --db`` names: a database URL (SQLite in the user's data folder
    by default, or ``postgresql://...``), or ``memory`` for none (nothing survives the process)."""
    if db == "memory":
        return MemoryStore()
    from tapete.store import Store as Database
    from tapete.web.sqlstore import SqlStore

    return SqlStore(Database(db))


def server_config(
    app: FastAPI,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    trusted_proxies: Sequence[str] = (),
) -> Any:
    """uvicorn's settings for the app: ``X-Forwarded-For`` is read from ``trusted_proxies``
    only (addresses or networks; none by default, where uvicorn would trust 127.0.0.1), and
    the access log never prints a token."""
    import copy

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    logging_config = copy.deepcopy(LOGGING_CONFIG)
    logging_config.setdefault("filters", {})["hide_tokens"] = {"()": HideTokens}
    logging_config["handlers"]["access"]["filters"] = ["hide_tokens"]
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=logging_config,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies),
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )


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
) -> None:
    """Run the web app with uvicorn until interrupted, its rooms kept in ``db``; clients behind
    ``trusted_proxies`` are told apart by ``X-Forwarded-For``; bots think in ``bot_processes``
    worker processes (default: one per core; 0: in threads of the server)."""
    import gc

    import uvicorn

    processes = default_processes() if bot_processes is None else bot_processes
    app = create_app(open_store(db), limits, rate_limits, bot_processes=processes)
    # Every move allocates views for each seat; Python's default collector thresholds run full
    # collections over everything the server imported every few thousand moves — pauses that
    # land on whichever players are waiting. Freeze what startup built and collect less often.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    uvicorn.Server(server_config(app, host, port, log_level, trusted_proxies)).run()
