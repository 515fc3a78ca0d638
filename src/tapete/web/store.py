"""Where a room's truth is kept: a small interface, and the in-memory implementation.

A room's truth is ``(spec, seed, seat config, accepted actions)``; the state is rebuilt from it
by replay. Every accepted action is handed to the store (and awaited) *before* anyone is told,
so a store that commits to a database makes the server restartable: ``rooms()`` gives back every
table and replaying its actions gives back every state. ``SqlStore`` (tapete.web.sqlstore) is
that store; ``MemoryStore`` keeps nothing past the process (``tapete serve --db memory``).

>>> import asyncio
>>> store = MemoryStore()
>>> truth = Truth(code="ABCD", spec="pocha", seed=7, seats=[SeatConfig("human", "Ana")])
>>> asyncio.run(store.create(truth))
>>> asyncio.run(store.append("ABCD", 0, 0, 0, "bid 1"))
>>> [t.actions for t in asyncio.run(store.rooms())]
[[(0, 'bid 1')]]
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError

__all__ = [
    "UNSAVED",
    "Listed",
    "MemoryStore",
    "Options",
    "SeatConfig",
    "SeatConflictError",
    "Store",
    "Truth",
]

# What a store raises when the database does not take a write (away, full, read-only): nothing
# was kept, or at worst it was kept and the answer lost on the way back.
UNSAVED: tuple[type[Exception], ...] = (OSError, SQLAlchemyError)


class SeatConflictError(ValueError):
    """The seats in the store are no longer the ones a change was made on (another server
    changed them meanwhile): nothing was written."""


@dataclass
class SeatConfig:
    """Who sits in a seat: ``kind`` is ``human``, ``bot`` or ``open`` (nobody yet).

    ``level`` is the bot's level, or for a person the level of the bot that stands in while they
    are away; ``token`` is the SHA-256 of the person's seat token (never the token itself);
    ``player`` is their persistent player id (results and ratings), if they gave one.
    """

    kind: str
    name: str = ""
    level: str = "medium"
    token: str | None = None
    player: str | None = None  # the person's player id, when they have one

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Options:
    """A table's settings, chosen when it is created."""

    public: bool = True
    grace: float = 20.0  # seconds before a bot stands in for a player who left
    turn_timer: float = 0.0  # seconds a person has to act (0: no timer)
    bot_delay: float = 0.7  # seconds a bot waits before acting, so people can follow
    standby: str = "medium"  # the level of stand-in bots and of seats filled by the host
    # The host chose the seed, so could know every hand: every seat and the record are told.
    chosen_seed: bool = False

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Truth:
    """Everything a room is: the state is ``replay(spec, seed, actions)``, nothing else.

    ``spec`` is the canonical spec the table was made with (what the lobby shows); ``params``
    every parameter of its rules then, defaults included, as a record keeps them, so that it is
    played under those rules whatever the defaults of a later version (None: a table kept
    before tables kept them, played from its spec). ``seed_salt`` is the salt of the match's
    published seed hash (``tapete.record.seed_commitment``), told with the seed once the match
    is over and never before; each match draws its own (None: a match kept before salts,
    whose hash is of the seed alone).
    """

    code: str
    spec: str
    seed: int
    seats: list[SeatConfig]
    actions: list[tuple[int, str]] = field(default_factory=list)
    options: Options = field(default_factory=Options)
    host: str | None = None  # SHA-256 of the host's token
    started: bool = False
    match: int = 0  # 0 for the first match, +1 for each rematch
    # The finished matches' tapete-record/1 texts, by match number: None for a match without
    # one (an earlier version could leave one so), which ``record`` tells apart.
    records: list[str | None] = field(default_factory=list)
    created: float = 0.0  # when the table was made (seconds since the epoch)
    params: dict[str, Any] | None = None  # every parameter of its rules (tapete.record.params_json)
    seed_salt: str | None = None  # the salt of the match's seed hash, secret until it is over
    # The log's lines that are not moves, kept as the moves are so a restart or another server
    # says them too: by move number, the line said before that move (the turn timer, a
    # stand-in, a failed bot made it; a stand-in's later moves keep a quiet one, not said, so
    # that its line is said once whoever drives the table); and the seat whose rematch began
    # this match.
    notes: dict[int, dict[str, Any]] = field(default_factory=dict)
    started_by: int | None = None
    # The log's lines said between moves (the host removed someone), in order, each with
    # "at": the number of moves played when it was said.
    asides: list[dict[str, Any]] = field(default_factory=list)

    def record(self, match: int) -> str | None:
        """Finished match ``match``'s record; None for a match not over, never played, or
        without one."""
        return self.records[match] if 0 <= match < len(self.records) else None


@dataclass
class Listed:
    """A room as the lobby lists it, read without its moves and finished records (the lobby
    has no use for them): its truth with ``actions`` and ``records`` left empty, and whether
    its match is over."""

    truth: Truth
    over: bool


class Store(Protocol):
    """Persistence of rooms. Each method returns once the change is durable."""

    async def create(self, truth: Truth) -> None: ...
    async def append(
        self,
        code: str,
        match: int,
        index: int,
        seat: int,
        action: str,
        note: Mapping[str, Any] | None = None,
    ) -> None:
        """Keep accepted action number ``index`` of match ``match`` with ``note``, the log
        line said before it (``Truth.notes``), in one write; raises ValueError when that index
        is already taken (nothing is written then)."""

    async def save_seats(
        self,
        code: str,
        seats: list[SeatConfig],
        host: str | None,
        *,
        was: list[SeatConfig] | None = None,
        aside: Mapping[str, Any] | None = None,
    ) -> None:
        """Keep the seats and host of room ``code``. With ``was`` it is a compare-and-set: the
        seats are written only if the stored ones are still ``was`` (checked and written in
        one transaction), else SeatConflictError is raised and nothing is written. ``aside``:
        a log line said with the change (``Truth.asides``), kept in the same write."""

    async def start(
        self,
        code: str,
        match: int,
        seed: int,
        seed_salt: str | None,
        started_by: int | None = None,
    ) -> None:
        """Match ``match`` of room ``code`` is under way: the room's current one (its seed and
        salt are the ones it was made with), or a rematch, dealt from ``seed``, hashed with
        ``seed_salt`` and started by seat ``started_by``."""

    async def finish(self, code: str, match: int, record: str, *, rated: bool = True) -> None:
        """Keep finished match ``match``'s record, with its results; ``rated``: whether it
        counts in the players' ratings (not when a person took a move back in it)."""

    async def rooms(self) -> list[Truth]: ...
    async def room(self, code: str) -> Truth | None:
        """Room ``code`` as the store has it now (None: no such room)."""

    async def lobby(self, code: str | None = None) -> list[Listed]:
        """Every room the store holds (or room ``code`` only) as it has it now, for the lobby:
        without moves and records, so a listing costs no more than the rooms' rows."""

    async def remove(self, code: str) -> None:
        """Forget room ``code`` and everything of it (an expired table)."""

    async def review(self, code: str, match: int) -> str | None:
        """The coach's review kept of finished match ``match`` of room ``code`` (JSON), or None."""

    async def save_review(self, code: str, match: int, review: str, iterations: int) -> None:
        """Keep the review of a finished match; one kept already stays (it is the same match,
        reviewed once)."""


class MemoryStore:
    """A ``Store`` in a dict: nothing survives the process (the default until the SQL store)."""

    def __init__(self) -> None:
        self._truths: dict[str, Truth] = {}
        self._reviews: dict[tuple[str, int], str] = {}

    async def create(self, truth: Truth) -> None:
        self._truths[truth.code] = copy.deepcopy(truth)

    async def append(
        self,
        code: str,
        match: int,
        index: int,
        seat: int,
        action: str,
        note: Mapping[str, Any] | None = None,
    ) -> None:
        truth = self._truths[code]
        if truth.match != match or index != len(truth.actions):
            raise ValueError(f"{code}: action {index} of match {match} is out of order")
        truth.actions.append((seat, action))
        if note is not None:
            truth.notes[index] = dict(note)

    async def save_seats(
        self,
        code: str,
        seats: list[SeatConfig],
        host: str | None,
        *,
        was: list[SeatConfig] | None = None,
        aside: Mapping[str, Any] | None = None,
    ) -> None:
        truth = self._truths[code]
        if was is not None and truth.seats != was:
            raise SeatConflictError(f"{code}: the seats changed meanwhile")
        truth.seats = copy.deepcopy(seats)
        truth.host = host
        if aside is not None:
            truth.asides.append(dict(aside))

    async def start(
        self,
        code: str,
        match: int,
        seed: int,
        seed_salt: str | None,
        started_by: int | None = None,
    ) -> None:
        truth = self._truths[code]
        if match != truth.match:
            truth.notes, truth.started_by, truth.asides = {}, started_by, []
        truth.started, truth.match, truth.seed, truth.actions = True, match, seed, []
        truth.seed_salt = seed_salt

    async def finish(self, code: str, match: int, record: str, *, rated: bool = True) -> None:
        truth = self._truths[code]  # no ratings kept in memory: rated or not, the same
        if len(truth.records) == match:
            truth.records.append(record)

    async def rooms(self) -> list[Truth]:
        return [copy.deepcopy(t) for t in self._truths.values()]

    async def room(self, code: str) -> Truth | None:
        truth = self._truths.get(code)
        return None if truth is None else copy.deepcopy(truth)

    async def lobby(self, code: str | None = None) -> list[Listed]:
        return [
            Listed(
                dataclasses.replace(copy.deepcopy(t), actions=[], records=[], notes={}, asides=[]),
                over=len(t.records) > t.match,  # its record is kept once the match is over
            )
            for t in self._truths.values()
            if code is None or t.code == code
        ]

    async def remove(self, code: str) -> None:
        self._truths.pop(code, None)
        for key in [k for k in self._reviews if k[0] == code]:
            del self._reviews[key]

    async def review(self, code: str, match: int) -> str | None:
        return self._reviews.get((code, match))

    async def save_review(self, code: str, match: int, review: str, iterations: int) -> None:
        self._reviews.setdefault((code, match), review)
