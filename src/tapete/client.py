"""Sit at a table of a tapete server from the terminal: the web protocol's client side.

``tapete join LINK`` is this module: a table's link (``http://host:8000/t/K7QX2``, as the
browser shows and shares it) or its code and a server; a seat taken through the server's HTTP
API (``POST /api/tables/CODE/join``) as a browser takes one; then one WebSocket to ``/ws``
(``docs/protocol.md``), over which the server sends this seat's view after every move and takes
its moves. The server holds the match and checks every move: nothing here decides anything.

The seat token a join gives is kept in the data folder (``joined.json``), as a browser keeps it
in its storage, so ``tapete join`` again, after a closed terminal or a dropped network, comes
back to the same seat; so is the player token the server made for this person, so the matches
played from here count in one profile and one rating. A connection that drops is opened again
by itself, with the same waits as the browser's (``RETRY_WAITS``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tapete.folders import data_dir

__all__ = [
    "DEFAULT_SERVER",
    "JoinError",
    "Link",
    "NotSentError",
    "Seats",
    "Ticket",
    "full",
    "look",
    "make_table",
    "parse_link",
    "past",
    "server_address",
    "start_now",
    "take_seat",
    "ws_url",
]

DEFAULT_SERVER = "http://127.0.0.1:8000"  # where ``tapete serve`` listens by default
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # a table code's letters (the server's)
CODE_LENGTH = 5
RETRY_WAITS = (0.5, 1.0, 2.0, 2.5)  # seconds before each new try, the last one repeated
HTTP_TIMEOUT = 15.0  # seconds for an answer to a join
MAX_MESSAGE = 2**22  # bytes: a view is 1–2 KB, a room with its log a few more


class JoinError(Exception):
    """A table that cannot be joined, said for a person: no such table, no free seat, a
    server that cannot be reached, a link that is none. ``str()`` says it in English,
    ``in_language(lang)`` in the person's (a server's refusal comes in it already)."""

    def __init__(self, template: str, **values: object) -> None:
        self.template, self.values = template, values
        super().__init__(template.format(**values))

    def in_language(self, lang: str) -> str:
        from tapete.i18n import tr

        return tr(lang, self.template, **self.values)


class NotSentError(JoinError):
    """A message asked for while the connection is down: not kept to be sent later, because
    the table may have moved on (the browser does the same)."""


def parse_link(text: str, server: str | None = None) -> tuple[str, str]:
    """The server's address and the table's code from what a person pastes: the table's link,
    or its code (any case) with ``server`` (default ``DEFAULT_SERVER``).

    >>> parse_link("http://192.168.1.20:8000/t/K7QX2")
    ('http://192.168.1.20:8000', 'K7QX2')
    >>> parse_link("k7qx2", "https://cards.example.org/")
    ('https://cards.example.org', 'K7QX2')

    A link read off a browser's address bar, which shows it without its ``http://``, is that
    link:

    >>> parse_link("192.168.1.20:8000/t/K7QX2")
    ('http://192.168.1.20:8000', 'K7QX2')
    >>> parse_link("http://host/rules/truco")
    Traceback (most recent call last):
    ...
    tapete.client.JoinError: 'http://host/rules/truco' is not a table's link (http://HOST:PORT/t/CODE)
    """
    text = text.strip()
    if "/" in text:
        parts = urllib.parse.urlsplit(_with_scheme(text))
        words = [w for w in parts.path.split("/") if w]
        if parts.scheme not in ("http", "https") or len(words) != 2 or words[0] != "t":
            raise JoinError(
                "{given} is not a table's link (http://HOST:PORT/t/CODE)", given=repr(text)
            )
        base, code = f"{parts.scheme}://{parts.netloc}", words[1]
    else:
        base, code = server_address(server or DEFAULT_SERVER), text
    code = code.upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        raise JoinError(
            "{code} is not a table code: {n} letters and digits, such as K7QX2",
            code=repr(code),
            n=CODE_LENGTH,
        )
    return base, code


def server_address(text: str) -> str:
    """A server's address as ``--server`` gives it (``http://`` when it names no scheme), its
    path dropped; JoinError for one that is none.

    >>> server_address("192.168.1.20:8000"), server_address("https://cards.example.org/t/")
    ('http://192.168.1.20:8000', 'https://cards.example.org')
    """
    parts = urllib.parse.urlsplit(_with_scheme(text.strip()))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise JoinError(
            "--server {given}: a server's address, such as {example}",
            given=repr(text),
            example=DEFAULT_SERVER,
        )
    return f"{parts.scheme}://{parts.netloc}"


def _with_scheme(text: str) -> str:
    """``text`` with ``http://`` before it when it names no scheme: a browser's address bar
    shows ``192.168.1.20:8000/t/K7QX2``, and that is what a friend reads out or types."""
    return text if "://" in text else f"http://{text}"


@dataclass(frozen=True)
class Ticket:
    """A seat at a server's table: the token that is the seat's only credential."""

    server: str
    code: str
    seat: int
    token: str

    @property
    def ws_url(self) -> str:
        return ws_url(self.server)


def ws_url(server: str) -> str:
    """The play route of ``server``: ``ws://HOST:PORT/ws`` (``wss`` behind https).

    >>> ws_url("https://cards.example.org")
    'wss://cards.example.org/ws'
    """
    scheme, rest = server.split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws"


class Seats:
    """The seats and player tokens of this person, kept in ``joined.json`` in the data folder
    (``folder``): the file is written whole and replaced, so a crash leaves the old one."""

    def __init__(self, folder: Path | None = None) -> None:
        self.path = (folder or data_dir()) / "joined.json"

    def _read(self) -> dict[str, Any]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"players": {}, "seats": {}}  # none yet, or unreadable: start afresh
        if not isinstance(doc, dict):
            return {"players": {}, "seats": {}}
        for part in ("players", "seats"):
            if not isinstance(doc.get(part), dict):
                doc[part] = {}
        return doc

    def _write(self, doc: Mapping[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".joined-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                json.dump(doc, file, indent=1)
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def seat(self, server: str, code: str) -> Ticket | None:
        kept = self._read()["seats"].get(f"{server} {code}")
        if not isinstance(kept, dict):
            return None
        seat, token = kept.get("seat"), kept.get("token")
        if type(seat) is not int or not isinstance(token, str):
            return None
        return Ticket(server, code, seat, token)

    def keep(self, ticket: Ticket) -> None:
        doc = self._read()
        doc["seats"][f"{ticket.server} {ticket.code}"] = {
            "seat": ticket.seat,
            "token": ticket.token,
        }
        self._write(doc)

    def forget(self, server: str, code: str) -> None:
        doc = self._read()
        if doc["seats"].pop(f"{server} {code}", None) is not None:
            self._write(doc)

    def player(self, server: str) -> str | None:
        kept = self._read()["players"].get(server)
        return kept.get("token") if isinstance(kept, dict) else None

    def keep_player(self, server: str, token: str, name: str) -> None:
        doc = self._read()
        doc["players"][server] = {"token": token, "name": name}
        self._write(doc)


def _post(server: str, path: str, body: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """POST ``body`` as JSON; the answer's JSON, or JoinError with the server's own words."""
    request = urllib.request.Request(
        f"{server}{path}?lang={lang}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept-Language": lang},
        method="POST",
    )
    return _answer(request, server)


def _answer(request: urllib.request.Request, server: str) -> dict[str, Any]:
    """The JSON object ``server`` answers ``request`` with; JoinError for a refusal (in the
    server's words), a server out of reach, or one that is not tapete's."""
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            answer = inert(json.loads(response.read()))
    except urllib.error.HTTPError as exc:
        raise JoinError("{detail}", detail=_refusal(exc)) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise JoinError("cannot reach {server}: {reason}", server=server, reason=reason) from None
    except ValueError:
        raise JoinError(
            "{server} is not a tapete server (its answer is not JSON)", server=server
        ) from None
    if not isinstance(answer, dict):
        raise JoinError("{server} is not a tapete server (an unexpected answer)", server=server)
    return answer


UNREADABLE = "{server} sent a {kind} message this tapete cannot read ({why}): another version?"


def unreadable(server: str, message: Mapping[str, Any], exc: Exception) -> JoinError:
    """A message of ``server`` that this client cannot take in (a server of another version of
    tapete, or not tapete's at all), said as a JoinError rather than as a traceback.

    >>> str(unreadable("http://h:8000", {"type": "view"}, KeyError("table")))
    "http://h:8000 sent a view message this tapete cannot read (no field 'table'): another version?"
    """
    why = f"no field {exc}" if isinstance(exc, KeyError) else str(exc) or type(exc).__name__
    return JoinError(UNREADABLE, server=server, kind=str(message.get("type")), why=why)


MISREAD = (KeyError, TypeError, ValueError, AttributeError)
"""What taking in a message of the wrong shape raises (a field missing or of another kind)."""


@contextlib.contextmanager
def reading(server: str, message: Mapping[str, Any]) -> Iterator[None]:
    """Take in ``message`` of ``server`` in the ``with`` block: a field it lacks, or of another
    kind, is the one-line JoinError of ``unreadable``, not a traceback."""
    try:
        yield
    except MISREAD as exc:
        raise unreadable(server, message, exc) from None


def inert(value: Any) -> Any:
    r"""Decoded JSON ``value`` with each string's characters that a terminal would act on
    (escape sequences, a bell) written as their escapes, line breaks kept: whatever answers as a
    tapete server, what it sends is shown as text at the terminal, never obeyed.

    >>> inert({"name": "Ana\x1b[2J", "log": ["a\nb\x07"], "seat": 1})
    {'name': 'Ana\\x1b[2J', 'log': ['a\nb\\x07'], 'seat': 1}
    """
    from tapete.narrate import printable

    if isinstance(value, str):
        return value if value.isprintable() else "\n".join(map(printable, value.split("\n")))
    if isinstance(value, list):
        return [inert(item) for item in value]
    if isinstance(value, dict):
        return {inert(key): inert(item) for key, item in value.items()}
    return value


def _refusal(exc: urllib.error.HTTPError) -> str:
    """What a refusing server said: its ``detail`` when it sent one."""
    try:
        detail = inert(json.loads(exc.read())).get("detail")
    except (ValueError, AttributeError, OSError):
        detail = None
    if isinstance(detail, str):
        return detail
    if isinstance(detail, list) and detail and isinstance(detail[0], dict):
        # A form the server refused, field by field: the first, named as the request names it.
        where = detail[0].get("loc") or []
        field = str(where[-1]) if isinstance(where, list) and where else ""
        said = str(detail[0].get("msg", exc.reason))
        return f"{field}: {said}" if field else said
    return f"the server answered {exc.code} {exc.reason}"


def look(server: str, code: str, lang: str = "en") -> dict[str, Any]:
    """The table as the lobby lists it (its game, seats and status); JoinError when there is
    none (``GET /api/tables/CODE``)."""
    request = urllib.request.Request(f"{server}/api/tables/{code}?lang={lang}")
    return _answer(request, server)


def take_seat(
    server: str, code: str, name: str = "", lang: str = "en", seats: Seats | None = None
) -> Ticket:
    """This person's seat at the table: the one kept from an earlier join, else a free seat
    taken now under ``name`` (the server's player for this person made first, once a server).
    Each request carries a key, so one sent again after a lost answer takes nothing twice."""
    seats = seats or Seats()
    kept = seats.seat(server, code)
    if kept is not None:
        return kept
    player = _player(server, name, lang, seats)
    body = {"name": name, "player": player, "key": _key()}
    try:
        joined = _post(server, f"/api/tables/{code}/join", body, lang)
    except JoinError as exc:
        if "player" not in str(exc):
            raise
        # A player token the server no longer knows (another database since): join without it.
        body["player"] = None
        joined = _post(server, f"/api/tables/{code}/join", body, lang)
    ticket = _ticket(server, code, joined)
    seats.keep(ticket)
    return ticket


def make_table(
    server: str,
    game: str,
    params: Mapping[str, str],
    kinds: Sequence[str],
    name: str = "",
    public: bool = True,
    lang: str = "en",
    seats: Seats | None = None,
    options: Mapping[str, Any] | None = None,
) -> Ticket:
    """A new table at ``server`` with this person as its host (``POST /api/tables``): ``game``
    with the rule options ``params`` (each as a spec writes it), one seat per ``kinds`` entry,
    ``human`` or a bot level; the first ``human`` is the host's seat, the others wait for
    friends. ``options``: the table's other fields (``turn_timer``, ``standby``…, as the
    protocol names them). The host's token is kept as a joined seat is, so ``tapete join``
    comes back to it."""
    seats = seats or Seats()
    player = _player(server, name, lang, seats)
    body: dict[str, Any] = {
        "game": game,
        "params": dict(params),
        "seats": [
            {"kind": "human"} if kind == "human" else {"kind": "bot", "level": kind}
            for kind in kinds
        ],
        "name": name,
        "public": public,
        "player": player,
        "key": _key(),
        **(options or {}),
    }
    try:
        made = _post(server, "/api/tables", body, lang)
    except JoinError as exc:
        if player is None or "player" not in str(exc):
            raise
        body["player"] = None  # a player token the server no longer knows: make it without
        made = _post(server, "/api/tables", body, lang)
    ticket = _ticket(server, None, made)
    seats.keep(ticket)
    return ticket


def _ticket(server: str, code: str | None, answer: Mapping[str, Any]) -> Ticket:
    """The seat a join or a new table (``code`` None: the answer names it) answered with; a
    JoinError for an answer without one (a server of another version, or not tapete's)."""
    try:
        return Ticket(
            server, code or str(answer["code"]), int(answer["seat"]), str(answer["token"])
        )
    except MISREAD:
        raise JoinError(
            "{server} is not a tapete server (an unexpected answer)", server=server
        ) from None


def _player(server: str, name: str, lang: str, seats: Seats) -> str | None:
    """This person's player token at ``server``: the kept one, else one made now (None from a
    server that keeps no players, having no database)."""
    player = seats.player(server)
    if player is None:
        try:
            made = _post(server, "/api/players", {"name": name, "key": _key()}, lang)
        except JoinError:
            made = {}
        player = str(made.get("token", "")) or None
        if player:
            seats.keep_player(server, player, str(made.get("name", name)))
    return player


def _key() -> str:
    """A request's key: 22 random characters of the key alphabet (``docs/protocol.md``)."""
    return secrets.token_urlsafe(16)


class Link:
    """One seat's WebSocket to its table, opened again by itself when it drops.

    ``messages()`` yields the server's messages, each a dict, saying ``hello`` first on every
    connection (the seat token, or none to watch); ``send`` sends one, or raises NotSentError
    while the connection is down. A connection that cannot be opened at first is a JoinError;
    later, the link keeps trying (``RETRY_WAITS``) until ``close``."""

    def __init__(self, url: str, code: str, token: str | None, lang: str) -> None:
        self.url, self.code, self.token, self.lang = url, code, token, lang
        self._socket: Any = None
        self._closed = False
        self.drops = 0  # connections lost so far (the screen may say it)

    @property
    def server(self) -> str:
        """The server's address (``http://HOST:PORT``)."""
        scheme, rest = self.url.removesuffix("/ws").split("://", 1)
        return f"{'https' if scheme == 'wss' else 'http'}://{rest}"

    @property
    def table_url(self) -> str:
        """The table's link, as the browser shares it: ``tapete join`` takes it too."""
        return f"{self.server}/t/{self.code}"

    def record_url(self, match: int) -> str:
        """Where the server keeps the record of this table's match number ``match``, once over
        (``GET /api/tables/CODE/records/N``)."""
        return f"{self.server}/api/tables/{self.code}/records/{match}"

    def hello(self) -> dict[str, Any]:
        return {"type": "hello", "code": self.code, "token": self.token, "lang": self.lang}

    async def send(self, message: Mapping[str, Any]) -> None:
        socket = self._socket
        if socket is None:
            raise NotSentError("not connected: not sent")
        try:
            await socket.send(json.dumps(message))
        except Exception as exc:  # the connection went down under us
            raise NotSentError("the connection was lost: not sent") from exc

    async def close(self) -> None:
        self._closed = True
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await self._socket.close()

    async def messages(self) -> AsyncGenerator[dict[str, Any], None]:
        from websockets.asyncio.client import connect

        failures = 0
        first = True
        while not self._closed:
            try:
                async with connect(self.url, max_size=MAX_MESSAGE, open_timeout=10) as socket:
                    await socket.send(json.dumps(self.hello()))
                    self._socket, failures, first = socket, 0, False
                    async for raw in socket:
                        message = inert(json.loads(raw))
                        if isinstance(message, dict):
                            yield message
            except (OSError, TimeoutError) as exc:
                if first:
                    raise JoinError(
                        "cannot reach {server}: {reason}", server=self.url, reason=exc
                    ) from None
            except Exception as exc:
                if first or type(exc).__module__.split(".")[0] != "websockets":
                    raise
            self._socket = None
            if self._closed:
                return
            self.drops += 1
            wait = RETRY_WAITS[min(failures, len(RETRY_WAITS) - 1)]
            failures += 1
            # Drawn between half and all of it, so that clients of a server just back do not
            # all come in the same instant (as the browser does).
            await asyncio.sleep(wait * random.uniform(0.5, 1.0))


def full(room: Mapping[str, Any]) -> bool:
    """Whether a ``room`` not yet started has every seat taken, by a person or a bot: the
    moment a host at the terminal starts the match."""
    seats = room.get("seats") or ()
    return not room.get("started") and bool(seats) and all(s.get("kind") != "open" for s in seats)


def seat_lines(room: Mapping[str, Any], lang: str, shown: Callable[[str], str] = str) -> list[str]:
    """Who sits where at ``room``, a line a seat, this person's said (``shown``: how a chosen
    name is written, e.g. escaped where text is read as markup).

    >>> room = {"you": 1, "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Zoe"}]}
    >>> seat_lines(room, "es")
    ['  1. Ana', '  2. Zoe (tú)']
    """
    from tapete.i18n import tr

    you = f" ({tr(lang, 'you')})"
    return [
        f"  {int(seat.get('seat', 0)) + 1}. {shown(str(seat.get('name')))}"
        + (you if seat.get("seat") == room.get("you") else "")
        for seat in room.get("seats") or ()
    ]


def start_now(room: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What a host sends to start the match at once: the empty seats filled with bots of the
    table's stand-in level, then the start."""
    level = str((room.get("options") or {}).get("standby") or "medium")
    open_seats = any(s.get("kind") == "open" for s in room.get("seats") or ())
    return [*([{"type": "fill", "level": level}] if open_seats else []), {"type": "start"}]


def past(kept: Sequence[str], log: Sequence[str]) -> list[str]:
    """The lines of ``log`` after those of ``kept`` it repeats: the first view on a connection
    (opened again after a drop, or a restart) brings the table's recent log, whose start is
    what was already shown.

    >>> past(["a", "b", "c"], ["b", "c", "d"])
    ['d']
    >>> past(["a", "b"], ["x", "y"])
    ['x', 'y']
    """
    longest = min(len(kept), len(log))
    overlap = next((k for k in range(longest, 0, -1) if list(kept[-k:]) == list(log[:k])), 0)
    return list(log[overlap:])
