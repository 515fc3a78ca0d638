"""The match record, ``tapete-record/1`` (docs/notation.md): dump, load and replay.

A record holds every deck order and every decision, so a replay needs no RNG and a referee can
check each decision without trusting the engine that wrote it:

>>> import tapete
>>> from tapete.match import play
>>> game = tapete.load("pocha(players=3, schedule=[1, 2])")
>>> final, rec = play(game, ["random"] * 3, seed=5)
>>> text = dumps(rec)
>>> loads(text) == rec
True
>>> game.outcome(replay(loads(text))) == game.outcome(final)
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import gzip
import io
import json
import os
import stat
import string
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeGuard

from tapete.cards import CARD_TEXT, Card
from tapete.chance import by_lot, shuffled
from tapete.errors import Phrase, RecordError, SpecError
from tapete.game import (
    Action,
    Event,
    Game,
    Outcome,
    Seat,
    deck_problem,
    hashable,
    integer,
    jsonable,
    parse_spec,
    typed_params,
)
from tapete.games import load as load_game

__all__ = [
    "FORMAT",
    "IN_USE",
    "DealRecord",
    "Hold",
    "Record",
    "Recorder",
    "SeatInfo",
    "SeatRecorder",
    "checked",
    "cut",
    "dumps",
    "hold",
    "is_salt",
    "loads",
    "lock_file",
    "played_game",
    "read",
    "redact",
    "replay",
    "salvage",
    "salvage_file",
    "seed_commitment",
    "stand_in_marks",
    "steps",
    "verify_deals",
    "write",
    "write_whole",
]

FORMAT = "tapete-record/1"
REDACTED = (
    "this record holds only what one seat knew (no seed, no deck orders, no other hands), so it"
    " cannot be replayed: the whole record of the match can"
)
"""Why a seat's record (``redact``) is refused where the whole match must be dealt again."""
SALT_DIGITS = 32  # a seed's salt: 128 random bits, written as lowercase hex
_HEX = frozenset("0123456789abcdef")


def seed_commitment(seed: int, salt: str | None = None) -> str:
    """The SHA-256 (lowercase hex) a table publishes before play, binding it to ``seed``
    without telling it: of the UTF-8 text ``SALT:SEED`` (the salt's hex, a colon, the seed's
    decimal digits), or of ``SEED`` alone for a table or record from before salts (``salt``
    None). The salt, secret until the seed is, is what keeps a search of every seed from
    finding the one behind the hash; hex has no colon and an unsalted text none at all, so no
    two of these texts are the same.

    >>> seed_commitment(7) == __import__("hashlib").sha256(b"7").hexdigest()
    True
    >>> salt = "0123456789abcdef" * 2
    >>> seed_commitment(7, salt) == __import__("hashlib").sha256(f"{salt}:7".encode()).hexdigest()
    True
    """
    import hashlib

    text = str(seed) if salt is None else f"{salt}:{seed}"
    return hashlib.sha256(text.encode()).hexdigest()


def is_salt(value: Any) -> bool:
    """Whether ``value`` is a seed's salt as tapete writes it: 32 lowercase hex digits."""
    return isinstance(value, str) and len(value) == SALT_DIGITS and set(value) <= _HEX


@dataclass(frozen=True)
class SeatInfo:
    name: str
    kind: str = "bot"  # "human" or "bot"
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.bot is not None:
            out["bot"] = self.bot
        return out


@dataclass(frozen=True)
class DealRecord:
    """One deal: its chance inputs, every decision, what the rules did, and the score change.

    ``stand_ins``: the indices in ``actions`` of the moves a stand-in made for the seat (a bot
    playing for a person away or out of time, or a random legal move for a bot that failed),
    in increasing order: the moves its player did not choose. Written only when there are any,
    so a deal without them is written as before they were marked.

    A value, as a ``Record`` is: equal deals hash equal (``by_value``)."""

    dealer: Seat
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    upcard: str | None
    stock: tuple[str, ...]
    actions: tuple[tuple[Seat, str], ...] = ()
    events: tuple[Mapping[str, Any], ...] = ()
    score: tuple[int, ...] | None = None
    stand_ins: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "upcard": self.upcard,
            "stock": list(self.stock),
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
        }
        if self.stand_ins:  # absent when none: such a deal is written byte for byte as before
            out["stand_ins"] = list(self.stand_ins)
        out["events"] = [dict(e) for e in self.events]
        out["score"] = None if self.score is None else list(self.score)
        return out

    def by_stand_in(self, move: int) -> bool:
        """Whether the deal's action number ``move`` (from 0) was a stand-in's."""
        return move in self.stand_ins

    def __hash__(self) -> int:
        return by_value(self)


@dataclass(frozen=True)
class Record:
    """A whole match. ``result`` is None while the match is unfinished.

    A value: equal records hash equal, so a set of records holds each match once (``by_value``).

    >>> import tapete
    >>> from tapete.match import play
    >>> final, rec = play(tapete.load("pocha(players=3, schedule=[1])"), ["random"] * 3, seed=5)
    >>> len({rec, loads(dumps(rec))})
    1
    """

    game: str
    params: Mapping[str, Any]
    seed: int | None
    seats: tuple[SeatInfo, ...]
    teams: tuple[tuple[Seat, ...], ...] | None
    deals: tuple[DealRecord, ...]
    result: Mapping[str, Any] | None = None
    format: str = field(default=FORMAT)
    seed_hash: str | None = None  # the SHA-256 a server published before play (seed_commitment)
    seed_salt: str | None = None  # the salt in it, told with the seed (None: an unsalted hash)
    redacted: Mapping[str, Any] | None = None  # ``{"seat": S}``: only what seat S knows (redact)

    def to_json(self) -> dict[str, Any]:
        out = {
            "format": self.format,
            "game": self.game,
            "params": jsonable(self.params),
            "seed": self.seed,
            "seats": [s.to_json() for s in self.seats],
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "deals": [d.to_json() for d in self.deals],
            "result": None if self.result is None else jsonable(self.result),
        }
        if self.seed_hash is not None:
            out["seed_hash"] = self.seed_hash
        if self.seed_salt is not None:
            out["seed_salt"] = self.seed_salt
        if self.redacted is not None:
            out["redacted"] = dict(self.redacted)
        return out

    def __hash__(self) -> int:
        return by_value(self)


def by_value(value: Any) -> int:
    """The hash of a frozen dataclass from every field it compares, read as a value
    (``hashable``): its mappings (the parameters, the result, the events) are plain dicts,
    which have no hash of their own."""
    return hash(
        tuple(hashable(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare)
    )


def params_json(game: Game[Any, Any]) -> dict[str, Any]:
    """Every parameter of ``game``, defaults included, JSON-ready."""
    return {f.name: jsonable(getattr(game.params, f.name)) for f in dataclasses.fields(game.params)}


class Recorder:
    """Builds a record while a match is played: feed it each decision and the state after it."""

    def __init__(
        self, game: Game[Any, Any], state: Any, seed: int | None, seats: Sequence[SeatInfo]
    ) -> None:
        self.game = game
        self.seed = seed
        self.seats = tuple(seats)
        self._deals: list[dict[str, Any]] = []
        self._result: dict[str, Any] | None = None
        self._state = state  # the state the next decision is taken in
        self._take(self._events(state))

    def step(self, seat: Seat, action: Action, after: Any, stand_in: bool = False) -> None:
        """Record ``seat``'s ``action`` and the state ``after`` it; ``stand_in``: a stand-in
        made it, not the seat's own player (``DealRecord.stand_ins``)."""
        if not self._deals:
            raise RecordError("no deal has started")
        actions = self._deals[-1]["actions"]
        if stand_in:
            self._deals[-1]["stand_ins"].append(len(actions))
        actions.append((seat, self._text(self._state, action)))
        self._state = after
        self._take(self._events(after))

    def _events(self, state: Any) -> Sequence[Event]:
        return self.game.events(state)

    def _text(self, state: Any, action: Action) -> str:
        return self.game.format_action(action)

    def _take(self, events: Sequence[Event]) -> None:
        for event in events:
            data = event.to_json()
            if event.type == "deal":
                self._deals.append(
                    {
                        "dealer": data["dealer"],
                        "deck": tuple(data["deck"]),
                        "hands": tuple(tuple(h) for h in data["hands"]),
                        "upcard": data.get("upcard"),
                        "stock": tuple(data.get("stock", ())),
                        "actions": [],
                        "events": [],
                        "score": None,
                        "stand_ins": [],
                    }
                )
                continue
            if event.type == "end":
                self._result = {k: data[k] for k in ("scores", "winners", "reason")}
                continue
            if not self._deals:
                raise RecordError("a {kind} event came before any deal", kind=event.type)
            # Where the event happened: after this deal's action number ``after`` (-1: at the deal).
            data["after"] = len(self._deals[-1]["actions"]) - 1
            if event.type == "score":
                self._deals[-1]["score"] = tuple(data["score"])
            self._deals[-1]["events"].append(data)

    def deals_so_far(self) -> Sequence[Mapping[str, Any]]:
        """The deals recorded so far as plain data (the last one may still be going on)."""
        return self._deals

    def record(self) -> Record:
        teams = self.game.teams
        deals = tuple(
            DealRecord(
                d["dealer"],
                d["deck"],
                d["hands"],
                d["upcard"],
                d["stock"],
                tuple(d["actions"]),
                tuple(d["events"]),
                d["score"],
                tuple(d["stand_ins"]),
            )
            for d in self._deals
        )
        return Record(
            self.game.spec,
            params_json(self.game),
            self.seed,
            self.seats,
            teams,
            deals,
            self._result,
        )


class SeatRecorder(Recorder):
    """A Recorder of what one seat may know (None: a spectator): every event and action as the
    game's ``visible_events`` and ``visible_action`` give them to that seat, so its deals hold
    only the hands its view shows, and no deck order or stock."""

    def __init__(
        self,
        game: Game[Any, Any],
        state: Any,
        seats: Sequence[SeatInfo],
        seat: Seat | None,
    ) -> None:
        self.seat = seat
        super().__init__(game, state, None, seats)

    def _events(self, state: Any) -> Sequence[Event]:
        return self.game.visible_events(state, self.seat)

    def _text(self, state: Any, action: Action) -> str:
        return self.game.visible_action(state, action, self.seat)


def redact(record: Record, seat: Seat | None) -> Record:
    """``record`` as ``seat`` knows it (None: a spectator), for a match still being played.

    The record is replayed and written again from what the game shows that seat: only the
    hands its view shows, no deck order or stock (they give away the cards to come), no seed
    (it gives away every deal; ``seed_hash`` stays, so the deals can be checked once the seed is
    published), no ``seed_salt`` (with it a search of every seed would find the seed), cards
    others played face down as ``play down``, others' draws hidden.

    >>> import tapete
    >>> from tapete.match import play
    >>> _, rec = play(tapete.load("pocha(schedule=[2])"), ["random"] * 4, seed=3)
    >>> mine = redact(rec, 1)
    >>> mine.seed, mine.deals[0].deck, [len(h) for h in mine.deals[0].hands], mine.redacted
    (None, (), [0, 2, 0, 0], {'seat': 1})
    """
    check_record(record, "redacted")
    game, state = _start(record)
    seen = SeatRecorder(game, state, record.seats, seat)
    # Who chose a move is no secret: the table's log says when a stand-in plays.
    for who, action, after, stand_in in _marked_steps(record):
        seen.step(who, action, after, stand_in)
    written = seen.record()
    return dataclasses.replace(
        record,
        seed=None,
        seed_salt=None,
        deals=written.deals,
        result=written.result,
        redacted={"seat": seat},
    )


def dumps(record: Record) -> str:
    """The record as compact JSON, one deal a line, so diffs and ``grep`` stay readable."""
    check_record(record, "written")
    doc = record.to_json()
    deals = doc.pop("deals")
    head = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    body = ",\n".join(json.dumps(d, separators=(",", ":"), ensure_ascii=False) for d in deals)
    return head[:-1] + ',"deals":[\n' + body + "\n]}\n"


def loads(text: str) -> Record:
    """Parse a record; raises RecordError naming the field that is wrong (as a JSON path).

    >>> loads('{"format": "tapete-record/1", "game": "pocha", "params": {}, "seats": 4}')
    Traceback (most recent call last):
    ...
    tapete.errors.RecordError: record: 'seats' must be a list of seats, not 4
    >>> loads('{"format": "tapete-record/9"}')
    Traceback (most recent call last):
    ...
    tapete.errors.RecordError: a tapete-record/9 record; this tapete reads tapete-record/1
    """
    try:
        doc = json.loads(text)
    except RecursionError:
        raise RecordError(_TOO_DEEP) from None
    except ValueError as exc:  # JSONDecodeError, and numbers too long to read
        # Python's own words for where the JSON breaks: they stay English in every language.
        raise RecordError("not JSON: {why}", why=str(exc)) from None
    if _deeper_than(doc, MAX_DEPTH):
        raise RecordError(_TOO_DEEP)
    if not isinstance(doc, dict):
        raise RecordError(
            "not a {format} record: the JSON is {value}, not an object",
            format=FORMAT,
            value=_short(doc),
        )
    version = doc.get("format", _MISSING)
    if version != FORMAT:
        if isinstance(version, str) and version.startswith("tapete-record/"):
            raise RecordError(
                "a {version} record; this tapete reads {format}", version=version, format=FORMAT
            )
        if version is _MISSING:
            raise RecordError("not a {format} record: its 'format' field is missing", format=FORMAT)
        raise RecordError(
            "not a {format} record: its 'format' field is {value}",
            format=FORMAT,
            value=_short(version),
        )
    return _record(doc)


_TOO_DEEP = "not a record: its JSON is nested too deeply"


# --- reading JSON field by field: every value checked for its kind before it is used ---------

_MISSING: Any = object()
MAX_DEPTH = 16  # a record nests 6 deep (a card in a hand in a deal); far deeper is not one


def _deeper_than(doc: Any, limit: int) -> bool:
    """Whether JSON ``doc`` nests deeper than ``limit``; without recursion, so any depth will do."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return False


def _short(value: Any) -> str:
    if value is _MISSING:
        return "missing"
    text = json.dumps(value, ensure_ascii=False) if _plain(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _plain(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_list_of(ok: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(ok(v) for v in value)


def _or_null(ok: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or ok(value)


def _field(
    obj: Mapping[str, Any],
    key: str,
    where: str | Phrase,
    want: Phrase,
    ok: Callable[[Any], bool],
    default: Any = _MISSING,
) -> Any:
    """``obj[key]`` if ``ok`` takes it; else RecordError naming the field by its JSON path
    (``where``: a path as written, or the whole record) and what it must be (``want``)."""
    value = obj.get(key, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise RecordError("{where}: the field {key} is missing", where=where, key=repr(key))
        return default
    if not ok(value):
        raise RecordError(
            "{where}: {key} must be {want}, not {value}",
            where=where,
            key=repr(key),
            want=want,
            value=_short(value),
        )
    return value


def _objects(obj: Mapping[str, Any], key: str, where: str | Phrase, want: Phrase) -> list[Any]:
    """The list of objects ``obj[key]`` (``want``: "a list of ..."), checked as ``_field`` does."""
    items: list[Any] = _field(obj, key, where, want, _is_list_of(_is_obj))
    return items


def _is_obj(value: Any) -> bool:
    return isinstance(value, dict)


_CARDS = _is_list_of(_is_str)
_INTS = _is_list_of(_is_int)


# What a field must be, said in the reader's language (``tapete.i18n.record_text``): made once
# here, as a record's every action is checked with them.
_TOP = Phrase("record")  # the whole record, as a field's place
_A_STRING = Phrase("a string")
_A_SEAT = Phrase("a seat number")
_CARD_LIST = Phrase("a list of cards")
_AN_ACTION = Phrase("an action's text")
_AN_EVENT = Phrase("an event type")
_STAND_INS = Phrase("increasing numbers of the deal's moves (from 0)")


def _record(doc: dict[str, Any]) -> Record:
    top = _TOP
    seats = tuple(
        SeatInfo(
            _field(s, "name", f"seats[{i}]", _A_STRING, _is_str),
            _field(
                s,
                "kind",
                f"seats[{i}]",
                Phrase("human or bot"),
                lambda k: k in ("human", "bot"),
                "bot",
            ),
            _field(s, "bot", f"seats[{i}]", Phrase("a bot level or null"), _or_null(_is_str), None),
        )
        for i, s in enumerate(_objects(doc, "seats", top, Phrase("a list of seats")))
    )
    teams = _field(
        doc, "teams", top, Phrase("null or lists of seats"), _or_null(_is_list_of(_INTS)), None
    )
    result = _field(doc, "result", top, Phrase("null or an object"), _or_null(_is_obj), None)
    if result is not None:
        for key, want, ok in _RESULT:
            _field(result, key, "result", want, ok)
    seed_hash = _field(doc, "seed_hash", top, Phrase("a string or null"), _or_null(_is_str), None)
    seed_salt = _field(
        doc, "seed_salt", top, Phrase("32 lowercase hex digits or null"), _or_null(is_salt), None
    )
    if seed_salt is not None and seed_hash is None:
        raise RecordError(
            "{where}: {key} is the salt of a seed_hash, and the record has none",
            where=top,
            key=repr("seed_salt"),
        )
    return Record(
        game=_field(doc, "game", top, Phrase("a game spec"), _is_str),
        params=_field(doc, "params", top, Phrase("an object"), _is_obj),
        seed=_field(doc, "seed", top, Phrase("an integer or null"), _or_null(_is_int), None),
        seats=seats,
        teams=None if teams is None else tuple(tuple(t) for t in teams),
        deals=tuple(
            _deal(d, f"deals[{k}]")
            for k, d in enumerate(_objects(doc, "deals", top, Phrase("a list of deals")))
        ),
        result=result,
        seed_hash=seed_hash,
        seed_salt=seed_salt,
        redacted=_field(doc, "redacted", top, Phrase("null or an object"), _or_null(_is_obj), None),
    )


_RESULT = (
    ("scores", Phrase("a list of integers"), _INTS),
    ("winners", Phrase("a list of seats"), _INTS),
    ("reason", _A_STRING, _is_str),
)


def _deal(d: dict[str, Any], where: str) -> DealRecord:
    actions = tuple(
        (
            _field(a, "seat", f"{where}.actions[{i}]", _A_SEAT, _is_int),
            _field(a, "action", f"{where}.actions[{i}]", _AN_ACTION, _is_str),
        )
        for i, a in enumerate(_objects(d, "actions", where, Phrase("a list of actions")))
    )
    events = _objects(d, "events", where, Phrase("a list of events")) if "events" in d else []
    for i, event in enumerate(events):
        _field(event, "type", f"{where}.events[{i}]", _AN_EVENT, _is_str)
    stand_ins = _field(d, "stand_ins", where, _STAND_INS, _INTS, [])
    if any(not 0 <= m < len(actions) for m in stand_ins) or stand_ins != sorted(set(stand_ins)):
        raise RecordError(
            "{where}: {key} must be {want}, not {value}",
            where=where,
            key=repr("stand_ins"),
            want=_STAND_INS,
            value=_short(stand_ins),
        )
    return DealRecord(
        dealer=_field(d, "dealer", where, _A_SEAT, _is_int),
        deck=tuple(_field(d, "deck", where, _CARD_LIST, _CARDS)),
        hands=tuple(
            tuple(h)
            for h in _field(d, "hands", where, Phrase("lists of cards"), _is_list_of(_CARDS))
        ),
        upcard=_field(d, "upcard", where, Phrase("a card or null"), _or_null(_is_str), None),
        stock=tuple(_field(d, "stock", where, _CARD_LIST, _CARDS, [])),
        actions=actions,
        events=tuple(events),
        score=_tuple_or_none(
            _field(d, "score", where, Phrase("null or integers"), _or_null(_INTS), None)
        ),
        stand_ins=tuple(stand_ins),
    )


def _tuple_or_none(values: list[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(values)


MAX_BYTES = 64 * 1024 * 1024  # a whole 22-deal match is about 40 KB: far bigger is not a record


def write(record: Record, path: str | Path, *, exclusive: bool = False) -> None:
    """Write a record; a name ending in ``.gz`` is gzip-compressed. The whole file or nothing
    (``write_whole``): a full disk or a crash mid-write leaves the record that was there before
    (and raises OSError). ``exclusive``: a file already at ``path`` is never written over
    (FileExistsError), even one another process put there a moment before."""
    target = Path(path)
    data = dumps(record).encode()
    data = gzip.compress(data, mtime=0) if target.name.endswith(".gz") else data
    write_whole(target, data, exclusive=exclusive)


def write_whole(target: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Put ``data`` at ``target``, the whole file or nothing: it is written beside its place,
    hidden (``.out.json.x1y2.tmp``: a crash may leave it, never in a listing), flushed to the
    disk and then put there; ``exclusive`` as in ``write``. A symbolic link at ``target`` is
    written through: the file it points to gets ``data``, and the link stays a link (put in its
    place, ``data`` would leave that file as it was, the match it holds going on elsewhere)."""
    if not exclusive and target.is_symlink():
        target = Path(os.path.realpath(target))
    folder = target.parent
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        # A temporary file is its owner's alone: the file keeps the mode of the one it
        # replaces, or the usual one.
        os.chmod(temporary, target.stat().st_mode & 0o777 if target.exists() else 0o644)
        if exclusive:
            _link(temporary, target)
        else:
            os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def _link(temporary: str, target: Path) -> None:
    """Put ``temporary`` at ``target`` unless a file is there (FileExistsError), at once."""
    try:
        os.link(temporary, target)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: the check and the move are two steps
        if target.exists():
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)


def _sync_folder(folder: Path) -> None:
    """Flush ``folder``'s list of names to the disk, so a record just put there is there after
    a power cut too (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read(path: str | Path) -> Record:
    """Read a record file, gzipped or not; a file that is not one raises RecordError saying why.

    Only a regular file is read: a named pipe, a device or a socket is refused at once, never
    waited on (a pipe nobody writes to, or a terminal, would keep the reader waiting for good).
    """
    name = str(path)
    try:
        # Opened without waiting (a pipe with no writer opens at once that way), then looked
        # at: what is checked is what was opened, not a name another file may take meanwhile.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise RecordError("{file}: no such file", file=name) from None
    except IsADirectoryError:
        raise RecordError(FOLDER, file=name) from None
    except OSError as exc:
        raise _unreadable(name, exc) from None
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        if stat.S_ISDIR(kind):
            raise RecordError(FOLDER, file=name)
        raise RecordError(
            "{file} is not a record file: it is a pipe, a device or a socket", file=name
        )
    if getattr(os, "O_NONBLOCK", 0):
        os.set_blocking(fd, True)  # a regular file: read it as any other
    with os.fdopen(fd, "rb") as file:
        try:
            data = file.read(MAX_BYTES + 1)
        except OSError as exc:
            raise _unreadable(name, exc) from None
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, name)
    if not data.strip():
        raise RecordError("{file} is empty, not a record", file=name)
    if len(data) > MAX_BYTES:
        raise RecordError(
            "{file} is over {mb} MB: too big for a match record", file=name, mb=MAX_BYTES // 2**20
        )
    try:
        # utf-8-sig: a byte order mark, as some editors save UTF-8 text (Notepad), is no text.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError("{file} is not a record: it is not UTF-8 text", file=name) from None
    try:
        return loads(text)
    except RecordError as exc:
        raise in_file(name, exc) from None


IN_USE = (
    "{file} is being played on at another terminal (tapete process {pid}): go on with it"
    " there, or quit it there first"
)


class Hold:
    """This process's hold on the record file ``path`` (``hold``): released by ``release``,
    and by the operating system when the process ends, however it ends."""

    def __init__(self, path: Path, lock: Path, fd: int | None) -> None:
        self.path, self.lock, self._fd = path, lock, fd

    def release(self) -> None:
        """Let go of the file; releasing twice does nothing."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if sys.platform != "win32":  # Windows keeps an open file: the name stays, unheld
            with contextlib.suppress(OSError):
                os.unlink(self.lock)  # held while removed: nobody holds the old one meanwhile
        os.close(fd)


def hold(path: str | Path) -> Hold:
    """Hold the record file ``path`` for a match played on in it, so that one match at a
    time goes on in a file: the same save resumed at two terminals at once would have each
    write its own moves over the other's. The hold is an exclusive lock on a hidden file
    beside it (``.out.json.lock``, saying the holder's process id), removed on release.

    Raises RecordError (``IN_USE``, naming the process) when another process, or another
    hold of this one, has it. Where no lock file can be made (a read-only folder, one that
    does not exist) there is nothing to hold: no match can write there either, and says so.
    """
    target = Path(path).resolve()  # one file, however it is named
    lock = target.with_name(f".{target.name}.lock")
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return Hold(target, lock, None)
        try:
            lock_file(fd)
        except OSError as exc:
            if exc.errno not in _HELD_ELSEWHERE:  # a file system without locks: none to hold
                os.close(fd)
                return Hold(target, lock, None)
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            raise RecordError(IN_USE, file=str(path), pid=holder or "?") from None
        try:  # released and removed by its holder while this one waited: hold the new one
            if os.path.samestat(os.fstat(fd), os.stat(lock)):
                break
        except OSError:
            pass
        os.close(fd)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return Hold(target, lock, fd)


# What a lock taken elsewhere answers (EDEADLK: Windows's msvcrt, after its retries).
_HELD_ELSEWHERE = frozenset({errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, errno.EDEADLK})


def lock_file(fd: int) -> None:
    """An exclusive lock on open file ``fd`` that the OS drops when this process ends, or
    OSError at once when another holds it (a record's hold; ``tapete serve``'s on its SQLite
    file)."""
    if sys.platform == "win32":
        import msvcrt

        # Windows locks bytes and forbids reading them: a byte past the pid is locked.
        os.lseek(fd, 1024, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        os.lseek(fd, 0, os.SEEK_SET)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


FOLDER = "{file} is a folder, not a record file"


def _unreadable(name: str, exc: OSError) -> RecordError:
    # The system's words for why (permission denied ...) stay as the system says them.
    why = exc.strerror or str(exc)
    return RecordError("{file}: cannot be read ({why})", file=name, why=why)


def in_file(name: str, error: RecordError) -> RecordError:
    """``error`` said of the file ``name``: ``x.json: ...``, in any language."""
    return RecordError(IN_FILE, file=name, why=error.phrase)


IN_FILE = "{file}: {why}"


def _gunzip(data: bytes, name: str) -> bytes:
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as file:
            return file.read(MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise RecordError(
            "{file}: a damaged or truncated gzip file ({why})", file=name, why=str(exc)
        ) from None


def steps(record: Record) -> Iterator[tuple[int, Any, Seat, Action, Any]]:
    """Replay ``record`` step by step: ``(deal index, state before, seat, action, state after)``.

    Checks, without any RNG, that each deal was dealt from its recorded deck as recorded, that
    each decision was made by the seat to act and is legal, and that every event, every deal's
    score and the result are the engine's own, field by field. Raises RecordError at the first
    difference, naming the deal, the move (counted from 1 in its deal), the event and the field;
    a step is yielded only once it is checked.
    """
    yield from _Check(record).steps()


def stand_in_marks(record: Record) -> list[bool]:
    """Each decision of ``record``, in order: whether a stand-in made it (``stand_ins``)."""
    return [d.by_stand_in(m) for d in record.deals for m in range(len(d.actions))]


def _marked_steps(record: Record) -> Iterator[tuple[Seat, Action, Any, bool]]:
    """``steps``, each with whether a stand-in made it."""
    marks = stand_in_marks(record)
    for number, (_, _, seat, action, after) in enumerate(steps(record)):
        yield seat, action, after, marks[number]


def checked(record: Record) -> Record:
    """``record`` replayed and checked (see ``steps``), rebuilt from the engine's own events.

    What tapete shows of a record comes from this copy, so nothing a file claims is repeated
    without the engine having said it; only the game spec, seed and seat names are the file's.
    """
    check = _Check(record)
    for _ in check.steps():
        pass
    rebuilt = check.engine.record()
    return dataclasses.replace(
        rebuilt, game=record.game, seed_hash=record.seed_hash, seed_salt=record.seed_salt
    )


def cut(record: Record, moves: int) -> Record:
    """``record`` as it stood after its first ``moves`` decisions: an unfinished match (the whole
    record when it has no more). ValueError for a negative count.

    >>> import tapete
    >>> from tapete.match import play
    >>> _, whole = play(tapete.load("pocha(players=3, schedule=[1, 2])"), ["random"] * 3, seed=4)
    >>> half = cut(whole, 7)  # the one-card deal took 6 decisions
    >>> half.result, [len(d.actions) for d in half.deals], half.deals[0] == whole.deals[0]
    (None, [6, 1], True)
    """
    check_record(record, "cut")
    if integer(moves) is None or moves < 0:
        raise ValueError(f"a record is cut after 0 or more decisions, not {moves!r}")
    game, start = _start(record)
    recorder = Recorder(game, start, record.seed, record.seats)
    for number, (seat, action, after, stand_in) in enumerate(_marked_steps(record)):
        if number == moves:
            break
        recorder.step(seat, action, after, stand_in)
    return dataclasses.replace(
        recorder.record(), game=record.game, seed_hash=record.seed_hash, seed_salt=record.seed_salt
    )


SALVAGE_TRIES = 200  # replays tried on a cut-short file before giving up: each is a whole match


def salvage(text: str) -> tuple[Record, int] | None:
    """The most of a record file cut short (a crash while it was written, a full disk) that
    still replays: its match up to its last whole move, and how many moves that is; None when
    not even its start (game, seed, seats) is there.

    The text is closed at each place a JSON value ends, from the end back, until what it says
    is a record whose moves replay (``cut``): a deal whose deck was cut is dropped, a deal cut
    among its moves keeps the moves before the cut.

    >>> import tapete
    >>> from tapete.match import play
    >>> _, whole = play(tapete.load("pocha(players=3, schedule=[1, 2])"), ["random"] * 3, seed=4)
    >>> text = dumps(cut(whole, 8))
    >>> rec, moves = salvage(text[: text.rindex('"action"')])  # in its second deal's 2nd move
    >>> moves, rec.result, [len(d.actions) for d in rec.deals]
    (7, None, [6, 1])
    >>> rec, moves = salvage(text[: text.index('"deck":[') + 30])  # in its first deal's deck
    >>> moves, rec.seed, len(rec.deals[0].deck)
    (0, 4, 36)
    """
    tries = 0
    for end, closing in reversed(_value_ends(text)):
        try:
            found = loads(text[:end] + closing)
        except RecordError:
            continue
        moves = sum(len(d.actions) for d in found.deals)
        tries += 1
        try:
            if not found.deals and found.seed is not None:
                # Cut in its first deal's deck: the seed deals it again, before any move.
                game = recorded_game(found)
                start = Recorder(game, game.new_state(found.seed), found.seed, found.seats)
                return dataclasses.replace(start.record(), game=found.game), 0
            check = _Check(found)
            check.cut_short = True
            for _ in check.steps():
                pass
            rebuilt = dataclasses.replace(check.engine.record(), game=found.game)
            return rebuilt, moves
        except (RecordError, ValueError):
            if tries >= SALVAGE_TRIES:
                return None
    return None


def salvage_file(file: str | Path) -> tuple[Record, int] | None:
    """The most of ``file`` that replays when it is a record cut short (``salvage``); None for
    any other file (whole, gone, not a record at all)."""
    path = Path(file)
    try:
        if not path.is_file():  # a pipe or a device is never waited on
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if data[:2] == b"\x1f\x8b":
        # A gzipped record cut short (out.json.gz): what of it unpacks is cut as a plain one.
        try:
            data = zlib.decompressobj(wbits=31).decompress(data, MAX_BYTES + 1)
        except zlib.error:
            return None
    if len(data) > MAX_BYTES:
        return None
    # A cut may fall inside a character: its bytes are dropped with what follows them.
    text = data.decode("utf-8-sig", errors="ignore")
    try:
        json.loads(text)
    except RecursionError:
        return None  # nested deeper than any record: no cut of it is one (``read`` says so)
    except ValueError:
        return salvage(text)
    return None  # whole JSON: what is wrong with it is not a cut


def _value_ends(text: str) -> list[tuple[int, str]]:
    """Where a JSON text may be cut and closed: each place a value (or an open bracket) ends
    outside a string, with the brackets that close everything open there."""
    ends: list[tuple[int, str]] = []
    opened: list[str] = []
    in_string = escaped = False
    for i, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "{[":
            if len(opened) == MAX_DEPTH:
                # Deeper than any record nests: no cut from here on is one, and closing
                # each of a thousand brackets anew would take time and memory squared.
                break
            opened.append("}" if char == "{" else "]")
            ends.append((i + 1, "".join(reversed(opened))))
        elif char in "}]" and opened:
            opened.pop()
            ends.append((i + 1, "".join(reversed(opened))))
        elif char == ",":
            ends.append((i, "".join(reversed(opened))))
    return ends


def recorded_game(record: Record) -> Game[Any, Any]:
    """The game a record was played under: its spec, and for every parameter the spec leaves out,
    the value in the record's ``params`` (the default of its day).

    So a record made before a default changed replays as it was played. A parameter newer than
    the record takes the value the game module names for older records (``PARAMS_BEFORE``), else
    its default. Raises SpecError (a ValueError) for a bad spec or a parameter the game does
    not have.
    """
    return played_game(record.game, record.params)


def played_game(spec: str, params: Mapping[str, Any] | None) -> Game[Any, Any]:
    """The game ``spec`` names under the rules kept as ``params`` (every parameter, as
    ``params_json`` writes them): a parameter the spec leaves out takes its kept value, the
    default of the day it was kept, whatever this version's default. Records are read so
    (``recorded_game``), and a server's tables; ``None`` (nothing kept) is the spec under this
    version's defaults.

    >>> played_game("pocha(players=3)", {"players": 3, "deck": 48}).spec
    'pocha(players=3, deck=48)'
    """
    game = load_game(spec)
    if params is None:
        return game
    fields = {f.name for f in dataclasses.fields(game.params)}
    unknown = sorted(set(params) - fields)
    if unknown:
        names = ", ".join(n if n.isidentifier() else repr(n) for n in unknown)
        raise SpecError("{game} has no parameter {names}", game=game.name, names=names)
    older: Mapping[str, Any] = getattr(game.rules, "PARAMS_BEFORE", {})
    given = parse_spec(spec)[1]
    values = {
        name: _param(params[name]) if name in params else older[name]
        for name in sorted(fields - set(given))
        if name in params or name in older
    }
    values = typed_params(type(game.params), values)  # as a spec's values are read
    if all(getattr(game.params, k) == v for k, v in values.items()):
        return game
    try:
        return dataclasses.replace(game, params=dataclasses.replace(game.params, **values))
    except TypeError as exc:  # a value of the wrong kind that the checks could not compare
        raise SpecError("params: {why}", why=str(exc)) from None


def _param(value: Any) -> Any:
    """A parameter as JSON holds it, back as ``Params`` holds it (lists are tuples); raises
    SpecError for what no parameter can be (an object, a list of other than numbers)."""
    if isinstance(value, list) and all(type(v) is int for v in value):
        return tuple(value)
    if value is None or isinstance(value, int) or (isinstance(value, str) and value.isprintable()):
        return value
    # A word with a line break or a control character is no value of any game's parameter.
    raise SpecError("params: {value} is no parameter value", value=_short(value))


def _start(record: Record) -> tuple[Game[Any, Any], Any]:
    """The game and the state before the first decision, dealt from the record's decks."""
    if record.redacted is not None:
        raise RecordError(REDACTED)
    try:
        game = recorded_game(record)
    except ValueError as exc:
        raise RecordError("game: {why}", why=_why(exc)) from None
    if not _same_rules(game, record.params):
        differ = next(
            (k for k in record.params if not _same_rules(game, {k: record.params[k]})), None
        )
        if differ is None:
            raise RecordError("params do not match the spec {spec}", spec=repr(record.game))
        raise RecordError(
            "params: {key} is {value}, which is not the rule of the spec {spec}",
            key=differ,
            value=_short(record.params[differ]),
            spec=repr(record.game),
        )
    if len(record.seats) != game.players:
        raise RecordError(
            "{spec} has {players} seats; the record names {given}",
            spec=game.spec,
            players=game.players,
            given=len(record.seats),
        )
    if _canon(record.teams) != _canon(game.teams):
        raise RecordError(
            "teams: expected {expected}, the record says {given}",
            expected=_short(jsonable(game.teams)),
            given=_short(jsonable(record.teams)),
        )
    if not record.deals:
        raise RecordError("the record has no deals")
    decks = [_deck(game, deal, number) for number, deal in enumerate(record.deals, start=1)]
    try:
        state = game.new_state(record.seed or 0, decks=decks, dealer=record.deals[0].dealer)
    except ValueError as exc:
        raise RecordError("deal {deal}: {why}", deal=1, why=_why(exc)) from None
    return game, state


def _deck(game: Game[Any, Any], deal: DealRecord, number: int) -> list[Card]:
    """The deck order of a record's deal ``number`` (counted from 1), checked before any deal
    is dealt, so that a refusal names the deal as the record counts it."""
    try:
        order = [game.parse_card(c) for c in deal.deck]
    except ValueError as exc:
        raise RecordError("deal {deal}: {why}", deal=number, why=_why(exc)) from None
    problem = deck_problem(order, game.deck.cards)
    if problem is not None:
        raise RecordError(
            "deal {deal}: its deck must hold each of the {cards} cards once (it has {given};"
            " missing: {missing}; not in the deck: {foreign}; repeated: {repeated})",
            deal=number,
            **problem,
        )
    return order


def _why(exc: ValueError) -> str | Phrase:
    """What refused a record's game or decks: a SpecError's phrase (said in the reader's
    language), or the words of another error as they are."""
    return exc.phrase if isinstance(exc, SpecError) else str(exc)


# A record that a step, an event, a score or the result of disagrees with the engine: the
# message (the detail) names the deal, the move, the event and the JSON field, in the engine's
# and the notation's own words (event types, field names, JSON values), and it is read by
# whoever mends the file or reports the bug, not by a player at the table. Worded in another
# language it would be half English anyway; so another language says the fact around it
# ("el registro no coincide con el motor del juego: deal 2, move 3 ...") and the detail stays
# English.
# The English template is the detail alone, so the English message is as it always was.
MISMATCH = "{mismatch}"


def _mismatch(detail: str) -> RecordError:
    """The record disagrees with the engine, as ``detail`` (English) says."""
    return RecordError(MISMATCH, mismatch=detail)


def _same_rules(game: Game[Any, Any], params: Mapping[str, Any]) -> bool:
    """Whether the record's ``params`` are the rules of ``game`` (its spec's), read as the game
    reads them: a value the rules spell another way (Tute's first_leader=two_of_oros with four
    players, which older records wrote out) is the same rule."""
    try:
        given = typed_params(type(game.params), {k: _param(v) for k, v in params.items()})
        spelled = dataclasses.replace(game.params, **given)
    except (ValueError, TypeError):  # SpecError is a ValueError
        return False
    full, recorded = params_json(game), params_json(dataclasses.replace(game, params=spelled))
    return _canon({k: full[k] for k in params}) == _canon({k: recorded[k] for k in params})


def _canon(value: Any) -> str:
    """One text per JSON value, so ``1``, ``1.0`` and ``true`` stay three different things."""
    return json.dumps(value, sort_keys=True, default=_mapping)


def _mapping(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


_DEALT = ("dealer", "deck", "hands", "upcard", "stock")


def check_record(record: object, verb: str) -> None:
    """A TypeError unless ``record`` is a ``Record``: said as "a Record is ``verb``", before
    anything is read from it (a dict or None otherwise failed on a missing attribute)."""
    if not isinstance(record, Record):
        kind = type(record).__name__
        raise TypeError(f"a Record is {verb} (record.loads or record.read one), not a {kind}")


class _Check:
    """Replays a record next to a Recorder fed by the engine, and compares the two as they grow."""

    def __init__(self, record: Record) -> None:
        check_record(record, "replayed")
        self.record = record
        # A record cut short (``salvage``): its last deal's events and score, its next deal
        # and its result were never written, so only its moves are compared there.
        self.cut_short = False
        self.game, self.state = _start(record)
        self._older: Mapping[str, Sequence[str]] = getattr(self.game.rules, "REASONS_BEFORE", {})
        self.engine = Recorder(self.game, self.state, record.seed, record.seats)
        self.current = -1  # the deal being compared
        self.seen = 0  # its events compared so far
        self._compare()

    def steps(self) -> Iterator[tuple[int, Any, Seat, Action, Any]]:
        game = self.game
        for index, deal in enumerate(self.record.deals):
            for number, (seat, text) in enumerate(deal.actions):
                where = f"deal {index + 1}, move {number + 1} (seat {seat}: {text})"
                if self.current != index:
                    raise _mismatch(f"{where}: the engine is in deal {self.current + 1}")
                to_act = game.current_player(self.state)
                if to_act != seat:
                    turn = "the match is over" if to_act is None else f"seat {to_act} is to act"
                    raise _mismatch(f"{where}: {turn}")
                try:
                    action = game.parse_action(text)
                    after = game.apply(self.state, action)
                except ValueError as exc:
                    raise _mismatch(f"{where}: {exc}") from None
                # Who chose the move is the file's word: no engine can tell a stand-in's move.
                self.engine.step(seat, action, after, number in deal.stand_ins)
                self._compare()
                yield index, self.state, seat, action, after
                self.state = after
        self._finish(game.outcome(self.state))

    def _where(self, deal: int, after: Any) -> str:
        actions = self.record.deals[deal].actions
        if after == -1:
            return f"deal {deal + 1}, at the deal"
        if not _is_int(after) or after < -1:
            return f"deal {deal + 1}, 'after' {_short(after)}"
        if after >= len(actions):
            return f"deal {deal + 1}, after its last move"
        seat, text = actions[after]
        return f"deal {deal + 1}, move {after + 1} (seat {seat}: {text})"

    def _compare(self) -> None:
        """Compare what the engine has recorded since the last call."""
        deals = self.engine.deals_so_far()
        while True:
            if self.current >= 0:
                self._events(self.current, deals[self.current])
            if self.current + 1 >= len(deals):
                return
            if self.current >= 0:
                self._close(self.current, deals[self.current])
            self._open(self.current + 1, deals[self.current + 1])
            self.current, self.seen = self.current + 1, 0

    def _open(self, index: int, dealt: Mapping[str, Any]) -> None:
        deals = self.record.deals
        if index >= len(deals):
            if self.cut_short:  # never written: the engine deals it from the seed
                return
            raise _mismatch(f"the engine deals deal {index + 1}; the record ends before it")
        want = deals[index]
        for key in _DEALT:
            if _canon(dealt[key]) != _canon(getattr(want, key)):
                raise _mismatch(
                    f"deal {index + 1}: {key!r}: expected {_short(jsonable(dealt[key]))}, "
                    f"the record says {_short(jsonable(getattr(want, key)))}"
                )

    def _unwritten(self, index: int) -> bool:
        return self.cut_short and index >= len(self.record.deals) - 1

    def _events(self, index: int, dealt: Mapping[str, Any]) -> None:
        if self._unwritten(index):
            return
        got, want = dealt["events"], self.record.deals[index].events
        for number in range(self.seen, len(got)):
            event = got[number]
            if number < len(want) and _canon(event) == _canon(want[number]):
                continue
            where = self._where(index, event["after"])
            if number >= len(want):
                raise _mismatch(f"{where}: the engine has a {event['type']} event the record lacks")
            _same_event(where, event, want[number], self._older)
        self.seen = len(got)
        moves = len(dealt["actions"]) - 1
        if len(want) > len(got):
            extra = want[len(got)]
            after = extra.get("after")
            if not _is_int(after) or after <= moves:
                raise _mismatch(
                    f"{self._where(index, moves)}: the record has a {extra.get('type')} event "
                    "the engine does not"
                )

    def _close(self, index: int, dealt: Mapping[str, Any]) -> None:
        """Deal ``index`` is over: no event may be left in the record, and its score must match."""
        if self._unwritten(index):
            return
        want = self.record.deals[index]
        if len(want.events) > len(dealt["events"]):
            extra = want.events[len(dealt["events"])]
            raise _mismatch(
                f"{self._where(index, extra.get('after'))}: the record has a {extra.get('type')} "
                "event the engine does not"
            )
        if _canon(dealt["score"]) != _canon(want.score):
            raise _mismatch(
                f"deal {index + 1}: the deal scores {_short(jsonable(dealt['score']))}, "
                f"the record says {_short(jsonable(want.score))}"
            )

    def _finish(self, result: Outcome | None) -> None:
        if self.cut_short:
            return
        deals = self.engine.deals_so_far()
        self._close(self.current, deals[self.current])
        if self.current != len(self.record.deals) - 1:
            raise _mismatch(
                f"the record has {len(self.record.deals)} deals; "
                f"the engine dealt {self.current + 1}"
            )
        want = self.record.result
        if result is None:
            if want is not None:
                raise _mismatch("the record claims a result but the match is not over")
            return
        got = {
            "scores": list(result.scores),
            "winners": list(result.winners),
            "reason": result.reason,
        }
        if want is None:
            raise _mismatch(f"result: expected {got}, the record says null (unfinished)")
        for key, value in got.items():
            if not _same_value(key, value, want.get(key), self._older):
                raise _mismatch(
                    f"result, field {key!r}: expected {_short(value)}, "
                    f"the record says {_short(want.get(key, _MISSING))}"
                )


def _same_value(key: str, mine: Any, theirs: Any, older: Mapping[str, Sequence[str]]) -> bool:
    """Whether a record's value is the engine's: the same, or for a ``reason`` the words an
    older tapete wrote for it (``older``: the game's ``REASONS_BEFORE``), so a record made
    before a reason was named better still replays."""
    if _canon(mine) == _canon(theirs):
        return True
    return key == "reason" and isinstance(mine, str) and theirs in older.get(mine, ())


def _same_event(
    where: str,
    got: Mapping[str, Any],
    want: Mapping[str, Any],
    older: Mapping[str, Sequence[str]] = MappingProxyType({}),
) -> None:
    if _canon(got) == _canon(want):
        return
    kind, after = got["type"], want.get("after")
    if _is_int(after) and after != got["after"]:
        # Events are in order: a record event from later means one is missing here, and one
        # from earlier is one the engine never had.
        if after > got["after"]:
            raise _mismatch(f"{where}: the engine has a {kind} event the record lacks")
        raise _mismatch(f"{where}: the record has a {want.get('type')} event the engine does not")
    if want.get("type") != kind:
        raise _mismatch(
            f"{where}: expected a {kind} event, the record has a {want.get('type')} event"
        )
    for key in [*got, *(k for k in want if k not in got)]:
        mine, theirs = got.get(key, _MISSING), want.get(key, _MISSING)
        if _MISSING in (mine, theirs) or not _same_value(key, mine, theirs, older):
            raise _mismatch(
                f"{where}: {kind} event, field {key!r}: expected {_short(mine)}, "
                f"the record says {_short(theirs)}"
            )


def replay(record: Record) -> Any:
    """Replay a whole record, checking it (see ``steps``); returns the final state."""
    check = _Check(record)
    for _ in check.steps():
        pass
    return check.state


def verify_deals(record: Record, seed_hash: str | None = None) -> list[str]:
    """Check that the record's deals follow from its seed; returns what does not (empty: fair).

    Every deck order must be the shuffle ``tapete.chance.shuffled`` derives from the seed and the
    deal number, the first dealer the one drawn by lot from the seed, and the seed must hash to
    ``seed_hash`` (what a server publishes before play, ``seed_commitment``: with the record's
    ``seed_salt`` when it has one, else of the seed alone) when given. A ``seed_hash`` that is
    not 64 hexadecimal digits (cut short or mistyped in copying; spaces around it are left
    out) is no hash: ValueError, rather than a table judged unfair for what the copy did.

    >>> import tapete
    >>> from tapete.match import play
    >>> _, rec = play(tapete.load("pocha(schedule=[1, 2])"), ["random"] * 4, seed=9)
    >>> verify_deals(rec)
    []
    >>> verify_deals(rec, "5ab0")
    Traceback (most recent call last):
    ValueError: seed_hash '5ab0' is not a SHA-256: 64 hexadecimal digits, as the table published it
    """
    check_record(record, "checked")
    problems, published = [], None
    if seed_hash is not None:
        if not isinstance(seed_hash, str):
            kind = type(seed_hash).__name__
            raise TypeError(f"seed_hash is the published SHA-256 in hex (text), not a {kind}")
        digits = seed_hash.strip()
        if len(digits) != 64 or any(c not in string.hexdigits for c in digits):
            shown = repr(seed_hash) if len(seed_hash) <= 80 else f"{seed_hash[:70]!r}…"
            if seed_hash != record.seed_hash:
                raise ValueError(
                    f"seed_hash {shown} is not a SHA-256: 64 hexadecimal digits, as the table"
                    " published it"
                )
            # The record's own (an edited record): it contradicts itself, a finding.
            problems.append(f"the record's seed_hash {shown} is not a SHA-256")
        else:
            published = digits
    if record.seed is None:
        return ["the record has no seed to check the deals against"]
    if published is not None:
        salt = record.seed_salt
        if seed_commitment(record.seed, salt) != published.lower():
            told = f"the seed {record.seed}" + ("" if salt is None else f" with salt {salt}")
            problems.append(f"{told} does not hash to the published {published}")
    game = load_game(record.game)
    cards = game.deck.cards
    for number, deal in enumerate(record.deals):
        expected = [CARD_TEXT[c] for c in shuffled(cards, record.seed, number)]
        if list(deal.deck) != expected:
            problems.append(f"deal {number + 1}: the deck order is not the one the seed gives")
    lot = by_lot(game.players, record.seed, "first-dealer")
    if record.deals and record.deals[0].dealer != lot:
        problems.append(f"the first dealer is seat {record.deals[0].dealer}, the seed draws {lot}")
    return problems
