"""The lobby over HTTP: tables, players, records, rules, and the pages of the browser app.

Its OpenAPI schema is at ``/openapi.json``. The routes find the server's rooms, database and rate
limiter in ``app.state`` (``create_app`` puts them there), so they live here at module level.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import html
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import Scope

from tapete import bots, howto
from tapete.errors import IllegalActionError, SpecError
from tapete.game import form_spec
from tapete.games import ENTRIES, game_names, load
from tapete.i18n import spec_text
from tapete.narrate import seat_name
from tapete.present import deal_unit, game_title, trick_unit
from tapete.store import player_token
from tapete.web.cluster import Cluster
from tapete.web.protocol import language
from tapete.web.ratelimit import RateLimiter
from tapete.web.reviews import Reviews, in_words
from tapete.web.room import MAX_SEED, Room, levels
from tapete.web.rooms import Rooms, check_seat_count
from tapete.web.seating import JOINERS, outer_refusal, refused_name, token_hash
from tapete.web.store import Options, SeatConfig
from tapete.web.strings import game_words, strings
from tapete.web.thinking import Thinkers

__all__ = ["STATIC", "Refused", "pages", "refuse", "router"]

STATIC = Path(__file__).parent / "static"
LOBBY_PAGE = 20  # tables a lobby page lists by default
# Tokens in a URL's query (``?token=``) were how the pages first sent them; they still work for a
# while, answered with this Deprecation header (RFC 9745: since 2026-12-01).
DEPRECATED_SINCE = "@1796083200"

T = TypeVar("T")

router = APIRouter()  # the API
pages = APIRouter(include_in_schema=False)  # the browser app's pages: one page, its own routes


# A game's or a level's name: a bound on it is also what has pydantic read it as text, so half
# of a UTF-16 pair ("\\ud800", which no answer quoting it could hold) is refused by name (422).
MAX_WORD = 64

# The forms read JSON as it is: a value of the wrong JSON type is a client's mistake, refused
# (422, naming the field) rather than guessed at. Read loosely, "yes" or 1 would make a private
# table public, "false" would be true, true a seat or seed 1, "20" a number of seconds; JSON
# has a type for each of them, and the pages send it. A field the form does not have is
# refused too (422, naming it): dropped, a misspelt "turntimer" or "privat" would make a table
# other than the one asked for, without a word.
STRICT = ConfigDict(strict=True, extra="forbid")


class SeatIn(BaseModel):
    model_config = STRICT

    kind: Literal["human", "bot"] = Field(
        description="human: a person (the first is the creator; others wait for friends)"
    )
    level: str = Field(
        "medium",
        max_length=MAX_WORD,
        description="a bot's level: random, easy, medium, hard or expert",
        json_schema_extra={"enum": [*bots.LEVELS]},
    )


# A client's key for a request safe to ask again: as a token's characters
# (``secrets.token_urlsafe``), nothing to escape anywhere.
JOIN_KEY = r"^[A-Za-z0-9_-]+$"


def _key_field(what: str, again: str) -> Any:
    """The ``key`` field of a request safe to ask again: ``what`` the request is, ``again``
    what the same request asked again gets back."""
    return Field(
        None,
        min_length=16,
        max_length=64,
        pattern=JOIN_KEY,
        description=f"a {what} key: 16 to 64 random characters of A-Z a-z 0-9 _ - the client"
        f" makes up for this {what} and keeps until its answer comes. Asked again with the"
        f" same key (the answer was lost), the {what} gets back {again}; secret as that"
        " token is",
    )


class TableIn(BaseModel):
    model_config = STRICT

    game: str = Field(
        max_length=MAX_WORD,
        description="a registered game name, e.g. pocha",
        json_schema_extra={"enum": [*game_names()]},
    )
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
    standby: str = Field(
        "medium",
        max_length=MAX_WORD,
        description="level of stand-in bots and bots the host adds",
        json_schema_extra={"enum": [*bots.LEVELS]},
    )
    seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="the match seed (default: random); a chosen seed is shown to everyone at"
        " the table: its chooser could know every hand",
    )
    player: str | None = Field(
        None, max_length=128, description="the creator's player token (results and ratings)"
    )
    key: str | None = _key_field(
        "creation", "the table it made, with the same code, seat and token, nothing made again"
    )


class TableOut(BaseModel):
    code: str
    token: str = Field(description="the creator's secret: keep it to come back to the seat")
    seat: int | None
    spec: str


class JoinIn(BaseModel):
    model_config = STRICT

    name: str = Field("", max_length=24)
    seat: int | None = Field(
        None,
        description="a free seat, or the first free one",
    )
    player: str | None = Field(None, max_length=128, description="your player token")
    key: str | None = _key_field("join", "the seat it took and the same token")


class PlayerIn(BaseModel):
    model_config = STRICT

    name: str = Field(max_length=24, description="the name shown at tables and leaderboards")
    key: str | None = _key_field("creation", "the player it made, with the same token")


class PlayerOut(BaseModel):
    id: str
    name: str
    token: str | None = Field(None, description="the identity token: keep it, it is the login")


class JoinOut(BaseModel):
    code: str
    seat: int
    token: str


class Refusal(BaseModel):
    """A request refused: the error answers' body."""

    detail: str = Field(
        description="why, in a sentence (English; a refused table in the language lang asks for)"
    )
    rule: str | None = Field(
        None,
        description="a stable code: the sentence for people, in their language, is the one of"
        " GET /api/i18n/LANG's rules under it (bad-spec: detail itself, in the language asked)",
    )
    param: str | None = Field(
        None, description="the rule option refused, where one is (creating a table)"
    )


class Refused(HTTPException):
    """A request refused by the rule ``rule`` (a code of ``tapete.i18n.RULES``): answered
    ``{"detail", "rule"}`` (the app's handler), ``detail`` for developers, in English, and the
    rule's sentence for people, which a page finds by the code in its own language."""

    def __init__(
        self, status: int, rule: str, detail: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(status, detail, dict(headers) if headers else None)
        self.rule = rule


def refuse(
    status: int, rule: str, detail: str, headers: Mapping[str, str] | None = None
) -> Refused:
    """The refusal of a request, to raise: ``status``, the ``rule``'s code and ``detail``."""
    return Refused(status, rule, detail, headers)


def _refusals(answers: Mapping[int, str]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's refusals (status: when), besides its 200 and
    FastAPI's 422: a client made from the schema expects them."""
    out: dict[int | str, dict[str, Any]] = {}
    for code, when in answers.items():
        out[code] = {"model": Refusal, "description": when}
        if code == 429:
            out[code]["headers"] = {"Retry-After": RETRY_AFTER}
    return out


RETRY_AFTER = {"description": "whole seconds to wait", "schema": {"type": "integer"}}


# The refusals several routes share.
NO_TABLE = {
    404: "no table has that code",
    429: "too many table codes that name no table from this client (lookups): Retry-After says "
    "when to ask again",
}
A_BODY = {
    400: "the body is not JSON",
    408: "the body did not all arrive in time",
    413: "the body is larger than any form of the API",
}
NO_DATABASE = {503: "this server keeps no database (--db memory): no players"}
NO_PLAYER = {403: "no player has that token"}


def _limited(kind: str) -> dict[int, str]:
    return {429: f"too many requests of this kind ({kind}) from this client: Retry-After says when"}


def _both(kind: str) -> str:
    """A 429 of a route counted as ``kind`` that looks a table up too."""
    return (
        f"too many requests of this kind ({kind}) or table codes that name no table (lookups)"
        " from this client: Retry-After says when to ask again"
    )


MAX_MARKS = 3  # accents on one letter: Thai's vowel and tone, Hebrew's points, fit in three


def _clean_name(name: str) -> str:
    """``name`` as a table shows it: its letters composed (NFC), every kind of space a space,
    without what prints nothing (controls, zero-width and direction marks) but the joiners a
    script or an emoji is written with (``_written_with_joiners``), and no letter under more
    than ``MAX_MARKS`` accents: a pile of them is drawn over the lines above it, across the page.

    >>> _clean_name(" A\u0301\u200b\u202e" + "\u0300\u0302\u0303\u0304\u0305\u0306" + "na ")
    'Á̀̂̃na'
    >>> _clean_name("A\u200dna"), _clean_name("\u0645\u06cc\u200c\u0631\u0648\u0645") == (
    ...     "\u0645\u06cc\u200c\u0631\u0648\u0645")
    ('Ana', True)
    """
    text = unicodedata.normalize("NFC", name)
    kept: list[str] = []
    marks = 0
    for at, ch in enumerate(text):
        if unicodedata.category(ch) == "Zs":  # a Japanese full-width space, a no-break space
            ch = " "  # Python holds all but " " unprintable: "山田\u3000太郎" is "山田 太郎"
        if ch in JOINERS:
            if not (kept and _written_with_joiners(kept[-1] + text[at + 1 : at + 2])):
                continue
        elif not ch.isprintable():
            continue
        marks = marks + 1 if unicodedata.category(ch).startswith("M") else 0
        if marks <= MAX_MARKS:
            kept.append(ch)
    return "".join(kept).strip()[:24].rstrip(JOINERS)


_ALPHABETS = {"LATIN", "GREEK", "CYRILLIC"}


def _written_with_joiners(pair: str) -> bool:
    """Whether a zero-width joiner between the two characters of ``pair`` may be part of how
    a name is written: between letters (or marks) of a script whose letters take their shapes
    by them (Persian writes "می‌روم" with a non-joiner, Devanagari its half forms with a joiner),
    or between emoji (a joiner makes "👩‍💻" one picture). Not in Latin, Greek or Cyrillic, nor
    beside a space or a digit: there a joiner changes nothing seen, and only makes a name
    differ from its lookalike."""
    if len(pair) != 2:
        return False
    for ch in pair:
        kind = unicodedata.category(ch)
        if ch.isascii() or not (kind[0] in "LM" or kind in ("So", "Sk")):
            return False
        if _ALPHABETS & set(unicodedata.name(ch, "").split()):  # "FULLWIDTH LATIN …" too
            return False
    return True


def _person_name(name: str, seats: int) -> str:
    """A person's name at a table of ``seats`` seats, cleaned; 400 for one the table gives a
    seat by itself (a bot's, an unnamed player's), which would pass them off as that seat."""
    cleaned = _clean_name(name)
    refusal = refused_name(cleaned, seats)
    if refusal is not None:
        raise refuse(400, "seat-name", refusal)
    return cleaned


# A form's options read as a spec (``tapete.game.form_spec``): shared with the terminal's.


def _games() -> list[dict[str, Any]]:
    out = []
    for name in game_names():
        game = load(name)
        params = [
            {"name": f.name, "default": _plain(getattr(game.params, f.name))}
            for f in dataclasses.fields(game.params)
        ]
        out.append(
            {
                "name": name,
                "title": game_title(game),  # as a person reads it: "Oh Hell", not oh_hell
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


# --- what a route finds in the app -----------------------------------------------------------


def _rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


async def _room(request: Request, code: str) -> Room:
    """Room ``code``, or 404 (see ``_looked_up``)."""
    return await _looked_up(request, code, _rooms(request).find)


async def _looked_up(request: Request, code: str, find: Callable[[str], Awaitable[T | None]]) -> T:
    """What ``find`` finds for table ``code``, or 404. A private table is found by its code
    alone, so each client's codes that name no table are counted ("lookups"); past that limit
    every code it asks for is refused (429), a table's or not: a refusal tells a guesser
    nothing about a code."""
    await _limit("lookups", request, count=False)
    found = await find(code)
    if found is None:
        await _limit("lookups", request)
        raise refuse(404, "no-such-table", f"no table {code.upper()}")
    return found


async def _seat(room: Room, token: Token) -> int | None:
    """The seat ``token`` holds at ``room`` (None: none, or no token), found as a WebSocket
    hello finds it (``Room.seat_for``): with several servers, a seat just taken on another one
    is found here too, before this server hears of it, and a server without Redis reads the
    room again first (it hears no news)."""
    return await room.seat_for(token_hash(token.value) if token.value else None)


def _db(request: Request) -> Any:
    """The player database (a ``tapete.store.Store``); 503 when the server keeps none."""
    db = request.app.state.db
    if db is None:
        raise refuse(503, "no-database", "players need a database: this server keeps none")
    return db


async def _player_id(request: Request, token: str | None) -> str | None:
    db = request.app.state.db
    if not token or db is None:
        return None
    found = await asyncio.to_thread(db.player, token)
    if found is None:
        raise refuse(403, "no-player", "no player has that token")
    return str(found.id)


async def _limit(kind: str, request: Request, count: bool = True) -> None:
    """Count a request of ``kind`` by its client (only look, without ``count``); 429 with
    Retry-After when over a limit."""
    limiter: RateLimiter = request.app.state.limiter
    client = request.client.host if request.client else "unknown"
    refused = await (limiter.hit if count else limiter.test)(kind, client)
    if refused is not None:
        raise refuse(
            429,
            "too-many-requests",
            f"too many requests from your address ({kind}): try again in {refused.retry_after} s",
            headers={"Retry-After": str(refused.retry_after)},
        )


def _check_level(level: str) -> None:
    if level not in bots.LEVELS:
        outer = outer_refusal(level)  # a seat only an API client names: said in English
        if outer is not None:
            raise SpecError(outer)
        raise SpecError(bots.NO_LEVEL, level=repr(level), levels=", ".join(bots.LEVELS))


# --- the routes ------------------------------------------------------------------------------


# The page loads only its own scripts and talks only to its own server; no other site may
# frame it (a table's buttons under someone else's page) or guess its files' types.
PROTECTIONS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
PAGE_HEADERS = {"Cache-Control": "no-cache", **PROTECTIONS}


class Files(StaticFiles):
    """The page's files, each with the page's protections: ``/static/index.html`` is the whole
    app too (it routes itself to the lobby), which any site could otherwise frame, and which
    would run without the page's Content-Security-Policy."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path == "index.html":  # in the person's language, as at the page's own addresses
            response = page(Request(scope))
            response.headers.update(PROTECTIONS)
            return response
        response = await super().get_response(path, scope)
        response.headers.update(PROTECTIONS)
        return response


# The cookie where the page keeps the language a person chose (static/main.js), so the page
# comes in it from its first paint; the choice itself lives in the browser's localStorage.
LANG_COOKIE = "tapete-lang"


def page_language(chosen: str | None, accepted: str | None) -> str:
    """The language the page opens in: the one the person chose (``chosen``, the cookie), else
    the first of their browser's (``accepted``, an Accept-Language header, best ``q`` first)
    that the app speaks, else English: as the page's script picks it, so what a screen reader
    or a translating plug-in reads before the script runs is what the person will see.

    >>> page_language(None, "fr-FR, pt-BR;q=0.9, es;q=0.95")
    'es'
    >>> page_language("pt", "es"), page_language("xx", "de"), page_language(None, "es;q=0")
    ('pt', 'en', 'en')
    """
    if language(chosen) is not None:
        return str(language(chosen))
    ranked: list[tuple[float, int, str]] = []
    for place, part in enumerate((accepted or "").split(",")):
        tag, _, rest = part.partition(";")
        weight = 1.0
        for param in rest.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        said = language(tag.strip())
        if said is not None and weight > 0:
            ranked.append((-weight, place, said))
    return min(ranked)[2] if ranked else "en"


@functools.cache
def page_text(lang: str) -> str:
    """``index.html`` in ``lang``: its ``lang`` attribute, and the words it shows before the
    script runs (``data-t``), as the script would set them."""
    words = strings(lang)["ui"]
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    tag = "pt-BR" if lang == "pt" else lang
    text = text.replace('<html lang="en">', f'<html lang="{tag}">', 1)

    def said(found: re.Match[str]) -> str:
        return f'data-t="{found[1]}">{html.escape(words.get(found[1], found[1]))}<'

    text = re.sub(r'data-t="([^"]+)">[^<]*<', said, text)
    return text.replace('aria-label="language"', f'aria-label="{html.escape(words["language"])}"')


def page(request: Request) -> Response:
    lang = page_language(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"))
    headers = {**PAGE_HEADERS, "Vary": "Accept-Language, Cookie"}
    return Response(page_text(lang), media_type="text/html; charset=utf-8", headers=headers)


async def app_page(request: Request) -> Response:
    """The browser app's one page, in the person's language: it reads which view to show
    from the address."""
    return page(request)


# The addresses a player may open or share; the page routes itself in the browser.
for _address in (
    "/",
    "/t/{code}",
    "/players/{participant}",
    "/leaderboard/{game}",
    "/replay/{code}",
    "/rules/{game}",
):
    # HEAD too: a load balancer or uptime check that asks it was answered 405, the app down.
    pages.add_api_route(_address, app_page, methods=["GET", "HEAD"], include_in_schema=False)


@router.post(
    "/api/players",
    summary="A new player: a name and an identity token (no password)",
    responses=_refusals({**_limited("players"), **A_BODY, **NO_DATABASE}),
)
async def api_new_player(body: PlayerIn, request: Request) -> PlayerOut:
    db = _db(request)
    if body.key is not None:
        # The same request again, its answer lost: nothing made, so nothing counted.
        token = player_token(body.key)
        made = await asyncio.to_thread(db.player, token)
        if made is not None:
            return PlayerOut(id=made.id, name=made.name, token=token)
    await _limit("players", request)
    player, token = await asyncio.to_thread(db.create_player, _clean_name(body.name), body.key)
    return PlayerOut(id=player.id, name=player.name, token=token)


@router.get(
    "/api/players/me",
    summary="The player a token proves (Authorization: Bearer TOKEN)",
    responses=_refusals({404: "no player has that token", **NO_DATABASE}),
)
async def api_me(
    request: Request, response: Response, token: Annotated[Token, Depends(_token)]
) -> PlayerOut:
    _deprecate(response, token)
    found = await asyncio.to_thread(_db(request).player, token.value) if token.value else None
    if found is None:
        raise refuse(404, "no-player", "no player has that token")
    return PlayerOut(id=found.id, name=found.name, token=None)


@router.put(
    "/api/players/me",
    summary="Change your player's name (Authorization: Bearer TOKEN)",
    responses=_refusals({404: "no player has that token", **A_BODY, **NO_DATABASE}),
)
async def api_rename(
    request: Request, body: PlayerIn, response: Response, token: Annotated[Token, Depends(_token)]
) -> PlayerOut:
    _deprecate(response, token)
    if not token.value:
        raise refuse(404, "no-player", "no player has that token")
    found = await asyncio.to_thread(_db(request).rename_player, token.value, _clean_name(body.name))
    if found is None:
        raise refuse(404, "no-player", "no player has that token")
    return PlayerOut(id=found.id, name=found.name, token=None)


@router.get(
    "/api/players/{participant}",
    summary="A profile: matches played, results and per-game ratings (players and bot:LEVEL)",
    responses=_refusals({404: "no such player", **NO_DATABASE}),
)
async def api_profile(request: Request, participant: str) -> dict[str, Any]:
    base = _db(request)
    profile: dict[str, Any] = await asyncio.to_thread(base.profile, participant)
    # A table the lobby does not list is found by its code alone: a profile, which anyone may
    # read (a bot's lists every table it sat at), does not give it away.
    for result in profile["results"]:
        if not result.pop("public"):
            result["table_id"] = None
    if participant.startswith("bot:"):
        profile["name"] = participant
    else:
        found = await asyncio.to_thread(base.player_by_id, participant)
        if found is None and not profile["matches"]:
            raise refuse(404, "no-such-player", "no such player")
        profile["name"] = found.name if found else participant
    return dict(jsonable_encoder(profile))


@router.get(
    "/api/leaderboard/{game}",
    summary="A game's players and bots by rating",
    responses=_refusals({404: "no game of that name", **NO_DATABASE}),
)
async def api_leaderboard(request: Request, game: str) -> list[dict[str, Any]]:
    if game not in ENTRIES:
        raise refuse(404, "no-such-game", f"no game named {game!r}")
    rows: list[dict[str, Any]] = await asyncio.to_thread(_db(request).leaderboard, game)
    return rows


@router.get(
    "/api/health",
    summary="This server answers: its tables, its bots' queue and (shared) its link to the others",
)
async def api_health(request: Request) -> dict[str, Any]:
    thinkers: Thinkers = request.app.state.thinkers
    cluster: Cluster | None = request.app.state.cluster
    health: dict[str, Any] = {
        "ok": True,
        "tables": len(_rooms(request)),
        "bots": thinkers.report(),
    }
    if cluster is not None:
        # Redis down: this server answers, but serves no table (``cluster.serving``)
        health["cluster"] = cluster.report()
    return health


# A load balancer's check may ask with HEAD (HAProxy's ``option httpchk HEAD …``): the same
# status, no body, where it was answered 405 and every server taken for down.
router.add_api_route("/api/health", api_health, methods=["HEAD"], include_in_schema=False)


@router.get("/api/games", summary="The games, their parameters with defaults, and bot levels")
async def api_games() -> list[dict[str, Any]]:
    return _games()


@router.get("/api/i18n/{lang}", summary="Every string the browser shows, in one language")
async def api_strings(lang: str) -> dict[str, Any]:
    return strings(language(lang) or "en")


@router.get(
    "/api/rules/{game}",
    summary="How to play a game, or with full=true its rules as implemented (Markdown)",
    responses=_refusals({404: "no game of that name"}),
)
async def api_rules(
    game: str,
    lang: Annotated[
        str,
        Query(
            max_length=MAX_WORD,
            description="the page's language: en, es, pt (another is English)",
        ),
    ] = "en",
    full: Annotated[
        bool, Query(description="the full reference page instead of the how-to page")
    ] = False,
) -> PlainTextResponse:
    """The page in ``lang``; the Content-Language header says the language it is written in
    (``en`` for a full page that language does not have yet, for the browser's note)."""
    if game not in ENTRIES:
        raise refuse(404, "no-such-game", f"no game named {game!r}")
    module, asked = howto.module_of(game), language(lang) or "en"
    if full:
        text, written = howto.reference(module, asked), howto.reference_language(module, asked)
    else:
        text, written = howto.page(module, asked), asked
    return PlainTextResponse(
        text, media_type="text/markdown", headers={"Content-Language": written}
    )


# The language of a table's title in a listing (``game_words``): en, es or pt.
Lang = Annotated[
    str, Query(max_length=MAX_WORD, description="the language of a table's title: en, es, pt")
]


@router.get(
    "/api/tables",
    summary="Public tables, a page at a time: waiting for players, then being played",
)
async def api_tables(
    request: Request,
    page: int = Query(1, ge=1, description="which page, from 1"),
    per_page: int = Query(LOBBY_PAGE, ge=1, le=100, description="tables a page"),
    lang: Lang = "en",
) -> dict[str, Any]:
    # A server of several without Redis lists the database's tables (see Rooms.listed).
    listing = await _rooms(request).page(page, per_page)
    said = language(lang) or "en"
    for table in listing["tables"]:
        table["title"] = _title(said, table["spec"])
        table["humans"] = _people(said, table["humans"])
    return listing


def _people(lang: str, humans: list[dict[str, Any]]) -> list[str]:
    """The people at a table (``summary``'s seats and names) as the lobby lists them in
    ``lang``: an unnamed person by the name the table gives the seat ("player 2" is "jugador
    2"), a named one by their own name, whatever it reads like."""
    return [seat_name(lang, person["seat"], "human", person["name"]) for person in humans]


@functools.lru_cache(maxsize=1024)
def _title(lang: str, spec: str) -> str:
    """A table's game in words (``game_words``): the lobby lists the same few specs every few
    seconds, each loaded once. A spec this version no longer reads (an option since dropped)
    is listed as it is written, rather than failing the whole lobby."""
    try:
        return game_words(lang, load(spec))
    except SpecError:
        return spec


@router.post(
    "/api/tables",
    summary="Create a table",
    response_model=TableOut,
    responses=_refusals(
        {
            **A_BODY,
            400: "the body is not JSON; or no game of that name, or a rule option, seat or level"
            " it does not take, or a name the table gives a seat (a bot's, an unnamed player's)",
            **NO_PLAYER,
            **_limited("tables"),
        }
    ),
)
async def api_create(
    body: TableIn,
    request: Request,
    lang: Annotated[
        str, Query(max_length=MAX_WORD, description="the language of a refusal: en, es, pt")
    ] = "en",
) -> TableOut | JSONResponse:
    if body.key is not None:
        # The same request again, its answer lost: the table it made, not one more, so not
        # counted nor refused for the limit that table itself may have reached.
        made = await _rooms(request).made(body.key)
        if made is not None:
            room, token, seat = made
            return TableOut(code=room.code, token=token, seat=seat, spec=room.truth.spec)
    # Only a table made counts toward the limit: a form refused (a typo in a rule option, a
    # seat too many) costs the server nothing to keep, and its fix must not be turned away.
    await _limit("tables", request, count=False)
    await _rooms(request).expire()
    try:
        spec = form_spec(body.game, body.params)
        game = load(spec)
        if getattr(game.params, "max_rounds", "") is None:  # Poch's "no cap"
            raise SpecError(
                "max_rounds: a table must end, so give it a number of rounds, not none",
                param="max_rounds",
            )
        # None: the default seats; an empty list is a seat count like any other (refused).
        seats = body.seats
        if seats is None:
            seats = [SeatIn(kind="human", level=body.standby)] + [
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
        check_seat_count(game, len(seats))
        name = _person_name(body.name, game.players)
        player = await _player_id(request, body.player)
        await _limit("tables", request)
        room, token, seat = await _rooms(request).create(
            spec,
            [SeatConfig(s.kind, level=s.level) for s in seats],
            name=name,
            options=options,
            seed=body.seed,
            player=player,
            key=body.key,
        )
    except SpecError as exc:
        return _refused_spec(exc, language(lang) or "en")
    return TableOut(code=room.code, token=token, seat=seat, spec=room.truth.spec)


def _refused_spec(exc: SpecError, lang: str) -> JSONResponse:
    """400 for rules the game does not accept: ``detail`` says why in ``lang`` (the page's
    language; English by default, as every other detail), and ``param`` names the rule option
    refused where one is, so that a form can point at its field."""
    refusal = Refusal(detail=spec_text(lang, exc), rule="bad-spec", param=exc.param)
    return JSONResponse(refusal.model_dump(exclude_none=True), status_code=400)


@router.get(
    "/api/tables/{code}",
    summary="One table: its game, seats and status",
    responses=_refusals(NO_TABLE),
)
async def api_table(request: Request, code: str, lang: Lang = "en") -> dict[str, Any]:
    table = await _looked_up(request, code, _rooms(request).summary)
    said = language(lang) or "en"
    return {**table, "title": _title(said, table["spec"]), "humans": _people(said, table["humans"])}


@router.post(
    "/api/tables/{code}/join",
    summary="Take a free seat",
    response_model=JoinOut,
    responses=_refusals(
        {
            **NO_TABLE,
            409: "no seat is free, or not that one",
            **NO_PLAYER,
            429: _both("joins"),
            **A_BODY,
            400: "the body is not JSON, or the seat asked for is none of the table's, or the"
            " name is one the table gives a seat (a bot's, an unnamed player's)",
        }
    ),
)
async def api_join(code: str, body: JoinIn, request: Request) -> JoinOut:
    if body.key is not None:
        # The same request again, its answer lost: the seat it took, not counted nor refused
        # for the limit, as a table or a player asked for again.
        found = await _rooms(request).find(code)
        if found is not None and (held := found.seating.keyed_seat(body.key)) is not None:
            return JoinOut(code=found.code, seat=held[0], token=held[1])
    await _limit("joins", request)
    room = await _room(request, code)
    try:
        player = await _player_id(request, body.player)
        name = _person_name(body.name, len(room.truth.seats))
        seat, token = await room.seat_person(name, body.seat, player, body.key)
    except IllegalActionError as exc:
        # A seat the table does not have is a bad request; a seat taken, a conflict.
        raise refuse(400 if exc.rule == "bad-seat" else 409, exc.rule, str(exc)) from None
    return JoinOut(code=room.code, seat=seat, token=token)


@router.get(
    "/api/tables/{code}/records/{match}",
    summary="A finished match's record (also once its table has expired: the database keeps it)",
    responses=_refusals(
        {**NO_TABLE, 404: "no table has that code, or no finished match that number"}
    ),
)
async def api_record(request: Request, code: str, match: int) -> Response:
    rooms, db = _rooms(request), request.app.state.db

    async def find(code: str) -> tuple[str, str | None] | None:
        room = await rooms.find(code)
        if room is not None:
            return room.code, room.truth.record(match)
        if db is None:
            return None
        # A table expires a day after its last match, its records do not: a profile's links
        # to them, and a page kept open, still work.
        from tapete.web.sqlstore import table_id  # as app.py: only a server with a database

        code = code.strip().upper()
        text = await asyncio.to_thread(db.record, table_id(code, match))
        return None if text is None else (code, text)

    code, text = await _looked_up(request, code, find)
    if text is None:
        raise refuse(404, "no-such-match", "no finished match with that number at this table")
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="tapete-{code}-{match}.json"'},
    )


@router.get(
    "/api/tables/{code}/record",
    summary="The match's record: redacted to your seat (Authorization: Bearer SEAT-TOKEN) "
    "while it runs, complete once over",
    responses=_refusals({**NO_TABLE, 404: "no table has that code, or no match that number"}),
)
async def api_record_now(
    request: Request, code: str, token: Annotated[Token, Depends(_token)], match: int | None = None
) -> Response:
    room = await _room(request, code)
    seat = await _seat(room, token)
    text = room.record_for(seat, match)
    if text is None:
        raise refuse(404, "no-such-match", "no match with that number has started at this table")
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


@router.get(
    "/api/tables/{code}/narration",
    summary="The match in words, deal by deal, for the replay: as your seat may know it "
    "(Authorization: Bearer SEAT-TOKEN) while it runs, every card once over",
    responses=_refusals({**NO_TABLE, 404: "no table has that code, or no match that number"}),
)
async def api_narration(
    request: Request,
    code: str,
    token: Annotated[Token, Depends(_token)],
    response: Response,
    match: int | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    room = await _room(request, code)
    seat = await _seat(room, token)
    lang = language(lang) or "en"
    told = room.narration_for(seat, match, lang)
    if told is None:
        raise refuse(404, "no-such-match", "no match with that number has started at this table")
    response.headers["Cache-Control"] = "no-store"  # a seat's view: for its holder only
    _deprecate(response, token)
    # The game in words and what it calls a deal and a trick, for the replay to name it and
    # number its deals and go through its tricks as its table does.
    return {
        "deals": told,
        "game": game_words(lang, room.game),
        "unit": deal_unit(room.game),
        "trick": trick_unit(room.game),
    }


@router.get(
    "/api/tables/{code}/verify/{match}",
    summary="Check a finished match: its salt and seed hash to the published SHA-256, its "
    "deals follow from the seed",
    responses=_refusals(
        {**NO_TABLE, 404: "no table has that code, or no finished match that number"}
    ),
)
async def api_verify(request: Request, code: str, match: int) -> dict[str, Any]:
    room = await _room(request, code)
    checked = room.verification(match)
    if checked is None:
        raise refuse(404, "no-such-match", "no finished match with that number at this table")
    return checked


# --- the coach's reviews of finished matches -------------------------------------------------


# A review is of a finished match: one still being played is refused (409).
REVIEWED = {
    **NO_TABLE,
    404: "no table has that code, or no match that number",
    409: "that match is still being played",
}


def _reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


def _finished(room: Room, match: int) -> str:
    """Finished match ``match``'s complete record: 404 for a match that never was, 409 for one
    still being played (its hidden cards are not everyone's yet: no review of it)."""
    text = room.truth.record(match)
    if text is not None:
        return text
    if match == room.truth.match and room.truth.started:
        raise refuse(
            409,
            "match-playing",
            "a review is of a finished match: this one is still being played",
        )
    raise refuse(404, "no-such-match", "no match with that number at this table")


def _told(answer: dict[str, Any], lang: str) -> dict[str, Any]:
    if answer["status"] == "done":
        return {**answer, "review": in_words(answer["review"], language(lang) or "en")}
    return answer


@router.get(
    "/api/tables/{code}/reviews/{match}",
    summary="The coach's review of a finished match: done (with the review), running (with "
    "its progress), failed, or none",
    responses=_refusals(REVIEWED),
)
async def api_review(request: Request, code: str, match: int, lang: str = "en") -> dict[str, Any]:
    room = await _room(request, code)
    _finished(room, match)
    return _told(await _reviews(request).status(room.code, match), lang)


@router.post(
    "/api/tables/{code}/reviews/{match}",
    summary="Ask for the coach's review of a finished match: worked out once by the bot workers, "
    "below every live bot, then kept; answers as the GET does",
    responses=_refusals({**REVIEWED, 429: _both("reviews")}),
)
async def api_request_review(
    request: Request, code: str, match: int, lang: str = "en"
) -> dict[str, Any]:
    await _limit("reviews", request)
    room = await _room(request, code)
    text = _finished(room, match)
    return _told(await _reviews(request).request(room.code, match, text), lang)


@router.delete(
    "/api/tables/{code}/reviews/{match}",
    summary="Cancel the review under way of a finished match (a kept review stays)",
    responses=_refusals(REVIEWED),
)
async def api_cancel_review(
    request: Request, code: str, match: int, lang: str = "en"
) -> dict[str, Any]:
    room = await _room(request, code)
    _finished(room, match)
    reviews = _reviews(request)
    cancelled = await reviews.cancel(room.code, match)
    return {**_told(await reviews.status(room.code, match), lang), "cancelled": cancelled}
