"""Storage: tables, their accepted actions, finished records, players and ratings.

SQLAlchemy 2 over an embedded SQLite file in the user's data folder by default, or PostgreSQL
(``postgresql://...``) through the same code. The schema is managed by Alembic migrations
shipped in the package, applied when a store opens, so a database from an older tapete upgrades
in place.

The unit of durability is one accepted action: ``append_action`` commits it before returning,
and the server tells nobody about an action before that. A table's state is rebuilt by replaying
its actions, so after a crash every table resumes at its last acknowledged action.

>>> store = Store("sqlite://")
>>> seats = [{"kind": "bot", "bot": "random"}] * 4
>>> row = store.create_table("pocha(schedule=[1])", seed=7, seats=seats)
>>> store.append_action(row.id, 0, 1, "bid 0")
>>> [a.action for a in store.actions(row.id)]
['bid 0']
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import text as sql
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    SQLAlchemyError,
)

from tapete.record import is_salt, seed_commitment
from tapete.store import schema

__all__ = [
    "ActionInput",
    "ActionRow",
    "ConflictError",
    "Finished",
    "Player",
    "Store",
    "StoreError",
    "TableRow",
    "default_url",
    "player_token",
    "seed_hash",
]

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATING = 0x7A9E7E  # the PostgreSQL advisory lock a migration holds (one server at a time)
RESULTS_SHOWN = 100  # results a profile lists, newest first
# PostgreSQL's connection settings, unless the URL gives its own: libpq waits for ever for a
# server that accepts a connection and never answers it (a host half down), and
# every caller would wait with it — a web request never answered, the threads it holds.
LIBPQ = ("psycopg", "psycopg2")  # the drivers that take libpq's settings below
PG_WAITS = {
    "connect_timeout": 5,  # seconds to connect and be let in
    "tcp_user_timeout": 10_000,  # ms for what was sent to be acknowledged (Linux; else ignored)
}


class ConflictError(ValueError):
    """An action index already taken (a duplicate or out-of-order write): nothing was written."""


class StoreError(OSError):
    """A database that cannot be opened: a URL that names none, a server that does not answer,
    a file that cannot be made. The message names the database (never its password)."""


@dataclass(frozen=True)
class TableRow:
    id: str
    code: str
    spec: str
    seed: int
    seed_hash: str
    seats: list[dict[str, Any]]
    public: bool
    status: str
    created_at: datetime
    updated_at: datetime
    host: str | None = None
    options: dict[str, Any] | None = None
    room: str | None = None  # the web room this match belongs to, and its number there
    match: int | None = None
    params: dict[str, Any] | None = None  # every rule parameter (None: made before they were kept)
    seed_salt: str | None = None  # the salt in seed_hash (None: a hash of the seed alone)
    started_by: int | None = None  # the seat whose rematch began this match (None: not one)
    # log lines said between the match's moves, each with "at" (None: none)
    asides: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class ActionRow:
    """An accepted action; ``note``: the log line a web table said before it (the turn timer,
    a stand-in or a failed bot made it), None for a plain move."""

    idx: int
    seat: int
    action: str
    note: dict[str, Any] | None = None


# An action to commit: ``(table_id, idx, seat, action)``, with its note (ActionRow) if any.
ActionInput = tuple[str, int, int, str] | tuple[str, int, int, str, Mapping[str, Any] | None]


@dataclass(frozen=True)
class Finished:
    """A finished match as the store keeps it: its table id (``ROOM.N`` for a web room's
    match N), its game's name, its complete ``tapete-record/1``, when it ended (UTC), and by
    seat who its results went to (a player id, ``bot:LEVEL`` or ``guest:…``), whether the seat
    won, and the player's name (None for a bot or a guest)."""

    table_id: str
    game: str
    record: str
    finished_at: datetime
    participants: tuple[str, ...] = ()
    won: tuple[bool, ...] = ()
    names: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class Player:
    id: str
    name: str


def default_url() -> str:
    """An SQLite file in tapete's data folder: ``$TAPETE_DATA`` when set, as for the terminal's
    records, else the user's (``$XDG_DATA_HOME/tapete`` or the OS's own)."""
    from tapete.folders import data_dir

    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tapete.db'}"


def seed_hash(seed: int, salt: str | None = None) -> str:
    """The SHA-256 a table publishes before play: of ``SALT:SEED`` with a salt, else of the
    seed's decimal text (``tapete.record.seed_commitment``)."""
    return seed_commitment(seed, salt)


def _now() -> datetime:
    return datetime.now(UTC)


def _names_nothing(key: str) -> bool:
    """Whether ``key`` (a code, an id a client asked for) holds NUL, which no text the database
    keeps holds (PostgreSQL's text cannot): it names no row. Looked up, it is not found, rather
    than failing the query as a database that is away fails it."""
    return "\x00" in key


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def player_token(key: str) -> str:
    """The identity token of a player made with the client's creation ``key``: the same for
    the same key, so a player asked for again (its answer lost on the way) is found, and its
    token given back, though the database keeps only the token's hash. As secret as the key,
    which only that client knows.

    >>> player_token("k" * 22) == player_token("k" * 22) != player_token("x" * 22)
    True
    """
    digest = hashlib.sha256(f"tapete-player\0{key}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


URL_FORMS = "sqlite:///PATH or postgresql://USER@HOST:PORT/NAME"
KEPT_IN = ("sqlite", "postgresql")
"""The databases tapete keeps tables in (SQLAlchemy backend names)."""


def _engine(url: str) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi: Any, _: Any) -> None:
            cursor = dbapi.cursor()
            if url != "sqlite://":
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        file = _sqlite_file(url)
        if file is not None:
            _kept_in(engine, file)
        return engine
    parsed = make_url(url)
    if parsed.get_backend_name() not in KEPT_IN:
        # Refused before SQLAlchemy imports the backend's driver, whose ImportError says nothing
        # of what tapete takes.
        raise ArgumentError(f"no {parsed.get_backend_name()} store")
    waits: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in LIBPQ:
        waits = {key: value for key, value in PG_WAITS.items() if key not in parsed.query}
    return create_engine(url, pool_pre_ping=True, connect_args=waits)


def _in_memory(url: str) -> bool:
    """Whether ``url`` is an SQLite database in memory: ``sqlite://``, ``sqlite:///`` or
    ``sqlite:///:memory:``, with no options.

    >>> _in_memory("sqlite://"), _in_memory("sqlite:///:memory:"), _in_memory("sqlite:///x.db")
    (True, True, False)
    """
    if not url.startswith("sqlite://"):
        return False
    try:
        parsed = make_url(url)
    except ArgumentError:
        return False
    return parsed.database in (None, "", ":memory:") and not parsed.query


def _sqlite_file(url: str) -> Path | None:
    """The file an SQLite URL opens (None: a database in memory, or a ``file:`` URI)."""
    name = make_url(url).database
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name).absolute()


def _identity(file: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(file)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _kept_in(engine: Engine, file: Path) -> None:
    """Every transaction on ``engine`` refused (StoreError) once ``file`` is no longer the
    file its connection opened: deleted or replaced while served. SQLite would go on writing
    to the file it has open, which nothing can read after a restart, so every move
    acknowledged from then on would be lost."""

    @event.listens_for(engine, "connect")
    def _opened(dbapi: Any, record: Any) -> None:
        record.info["file"] = _identity(file)

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        opened = connection.info.get("file")
        if opened is not None and _identity(file) != opened:
            raise StoreError(
                f"the database {file} was deleted or replaced while in use: nothing more is "
                "written to it; put the file back (or start a new one) and restart the server"
            )


def _shown(url: str) -> str:
    """``url`` as a message may show it: its password hidden, where it has one."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _reason(exc: Exception) -> str:
    """The database's own first line of why ``exc`` happened."""
    return str(getattr(exc, "orig", exc)).strip().splitlines()[0]


def _unreachable(url: str, exc: Exception) -> str:
    """Why the database at ``url`` cannot be opened, in a line for a person (no password)."""
    shown = _shown(url)
    if isinstance(exc, ArgumentError | NoSuchModuleError):
        if "://" not in url:
            return f"{url!r} is not a database URL: {URL_FORMS}"
        backend, _, driver = url.split("://", 1)[0].partition("+")
        if backend == "postgres":  # the short name some hosts give: SQLAlchemy knows it not
            return f"{shown!r}: PostgreSQL is written postgresql://: {URL_FORMS}"
        if backend in KEPT_IN:
            return f"{shown!r}: SQLAlchemy has no driver {driver!r} for {backend}: {URL_FORMS}"
        return f"{shown!r}: tapete keeps tables in SQLite or PostgreSQL, not {backend}: {URL_FORMS}"
    if isinstance(exc, ImportError):
        return f"cannot open the database {shown}: its driver is not installed ({exc})"
    reason = _reason(exc)
    if url.startswith("sqlite"):
        folder = Path(make_url(url).database or ".").parent
        hint = "" if folder.is_dir() else f" (the folder {folder} does not exist)"
        return f"cannot open the database {shown}: {reason}{hint}"
    return f"cannot reach the database {shown}: {reason}"


class Store:
    """One database. Thread-safe: each call runs in its own transaction."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        """Open the database at ``url`` (``default_url()`` when None) and, with ``migrate``,
        bring its schema up to date; raises StoreError when it cannot be reached."""
        self.url = url or default_url()
        try:
            self.engine = _engine(self.url)
            if url is not None and _in_memory(url):
                # An in-memory database lives in one connection: keep using it. (Opened anew
                # by each connection, sqlite:/// and sqlite:///:memory: lost the tables the
                # migration made: the server failed with a traceback of "no such table".)
                from sqlalchemy.pool import StaticPool

                self.engine = create_engine(
                    "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
                )
            if migrate:
                self.migrate()
        except (ArgumentError, NoSuchModuleError, OperationalError, ImportError) as exc:
            raise StoreError(_unreachable(self.url, exc)) from None
        except DBAPIError as exc:
            # Reached, but its tables could not be made or brought up to date (a read-only
            # database, a standby, that is new to this tapete or older than it; a user
            # without the right to make tables): that was a traceback of a hundred lines.
            raise StoreError(
                f"the database {_shown(self.url)} cannot be given this tapete's tables:"
                f" {_reason(exc)}"
            ) from None

    # --- schema ------------------------------------------------------------------------------

    def migrate(self, revision: str = "head") -> None:
        """Upgrade the schema to ``revision`` (the newest by default)."""
        from alembic import command
        from alembic.config import Config
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        scripts = ScriptDirectory.from_config(config)
        known = {script.revision for script in scripts.walk_revisions()}
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Several servers starting at once: one migrates, the others wait for it and
                # then find nothing to do.
                connection.execute(sql("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATING})
            found = MigrationContext.configure(connection).get_current_revision()
            if found is not None and found not in known:
                # Written by a newer tapete (a host who went back a version): Alembic's
                # traceback ("Can't locate revision") said nothing of that, or what to do.
                head = scripts.get_current_head()
                raise StoreError(
                    f"the database {_shown(self.url)} was written by a newer tapete (its schema"
                    f" is at revision {found}; this tapete knows up to {head}): upgrade tapete,"
                    " or start from a backup made before the upgrade"
                )
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    def check_writes(self) -> None:
        """Raise StoreError, one line naming the database and why, unless it takes writes now
        (a write that changes nothing, rolled back): a read-only file or folder, a read-only
        PostgreSQL (a standby), a file another process keeps locked. A server finds out
        as it starts, rather than at its first move."""
        try:
            with self.engine.connect() as c, c.begin() as transaction:
                c.execute(sql("UPDATE alembic_version SET version_num = version_num"))
                transaction.rollback()
        except SQLAlchemyError as exc:
            reason = _reason(exc)
            if "locked" in reason:
                reason += " (another program holds it: a sqlite3 shell, a backup under way?)"
            raise StoreError(f"the database {_shown(self.url)} takes no writes: {reason}") from None

    def revision(self) -> str | None:
        """The schema's revision (None: no tables of tapete's); raises StoreError when the
        database cannot be reached (opened without ``migrate``, it was not asked before)."""
        from alembic.runtime.migration import MigrationContext

        try:
            with self.engine.connect() as connection:
                return MigrationContext.configure(connection).get_current_revision()
        except OperationalError as exc:
            raise StoreError(_unreachable(self.url, exc)) from None

    # --- tables and actions ------------------------------------------------------------------

    def create_table(
        self,
        spec: str,
        *,
        seed: int,
        seats: Sequence[dict[str, Any]],
        public: bool = True,
        host: str | None = None,
        options: dict[str, Any] | None = None,
        code: str | None = None,
        table_id: str | None = None,
        status: str = "open",
        room: str | None = None,
        match: int | None = None,
        created_at: datetime | None = None,
        params: dict[str, Any] | None = None,
        seed_salt: str | None = None,
        started_by: int | None = None,
    ) -> TableRow:
        """A new table; its id and short join code are random unless given, and it is made now
        unless ``created_at`` says when. ``params``: every parameter of its rules (as a record
        keeps them), so that it is played under them whatever the defaults of a later
        version. ``seed_salt``: the salt of its published ``seed_hash`` (32 lowercase hex
        digits; None: the hash is of the seed alone); ValueError for any other. ``started_by``:
        the seat whose rematch began it, if one did."""
        if seed_salt is not None and not is_salt(seed_salt):
            raise ValueError(f"seed_salt must be 32 lowercase hex digits, not {seed_salt!r}")
        now = _now()
        row = TableRow(
            id=table_id or secrets.token_hex(8),
            code=code or _code(),
            spec=spec,
            seed=seed,
            seed_hash=seed_hash(seed, seed_salt),
            seats=[dict(s) for s in seats],
            public=public,
            status=status,
            created_at=created_at or now,
            updated_at=now,
            host=host,
            options=options,
            room=room,
            match=match,
            params=params,
            seed_salt=seed_salt,
            started_by=started_by,
        )
        with self.engine.begin() as c:
            c.execute(insert(schema.tables).values(**row.__dict__))
        return row

    def update_table(self, table_id: str, **fields: Any) -> None:
        """Change ``seats``, ``status``, ``public``, ``options`` or ``host`` of a table."""
        allowed = {"seats", "status", "public", "options", "host"}
        if set(fields) - allowed:
            raise ValueError(f"a table's {', '.join(sorted(set(fields) - allowed))} cannot change")
        with self.engine.begin() as c:
            c.execute(
                update(schema.tables)
                .where(schema.tables.c.id == table_id)
                .values(**fields, updated_at=_now())
            )

    def table(self, table_id: str) -> TableRow | None:
        if _names_nothing(table_id):
            return None
        return self._one(schema.tables.c.id == table_id)

    def table_by_code(self, code: str) -> TableRow | None:
        if _names_nothing(code):
            return None
        return self._one(schema.tables.c.code == code.upper())

    def _one(self, where: Any) -> TableRow | None:
        with self.engine.connect() as c:
            row = c.execute(select(schema.tables).where(where)).mappings().first()
        return None if row is None else _table_row(row)

    def tables(self, status: Collection[str] | None = None) -> list[TableRow]:
        query = select(schema.tables).order_by(schema.tables.c.created_at)
        if status is not None:
            query = query.where(schema.tables.c.status.in_(list(status)))
        with self.engine.connect() as c:
            return [_table_row(row) for row in c.execute(query).mappings()]

    def room_tables(self, since: datetime | None = None, room: str | None = None) -> list[TableRow]:
        """The newest match of every web room (or of ``room`` only), leaving out rooms
        finished before ``since``."""
        if room is not None and _names_nothing(room):
            return []
        t = schema.tables
        rooms = t.c.room.is_not(None) if room is None else t.c.room == room
        newest = (
            select(t.c.room, func.max(t.c.match).label("match"))
            .where(rooms)
            .group_by(t.c.room)
            .subquery()
        )
        query = (
            select(t)
            .join(newest, (t.c.room == newest.c.room) & (t.c.match == newest.c.match))
            .order_by(t.c.created_at)
        )
        if since is not None:
            query = query.where((t.c.status != "finished") | (t.c.updated_at >= since))
        with self.engine.connect() as c:
            return [_table_row(row) for row in c.execute(query).mappings()]

    def delete_room(self, room: str) -> None:
        """Remove every match of web room ``room``, with its actions, records and results."""
        t = schema.tables
        ids = select(t.c.id).where(t.c.room == room)
        with self.engine.begin() as c:
            for child in (schema.actions, schema.records, schema.results, schema.reviews):
                c.execute(delete(child).where(child.c.table_id.in_(ids)))
            c.execute(delete(t).where(t.c.room == room))

    def room_records(self, rooms: Collection[str]) -> dict[str, list[str | None]]:
        """The records of the finished matches of ``rooms``, by room: each at its match's
        number (``tables.match``), None for a match before it that has no record (a database
        written by an earlier version may hold one), so no record is taken for another's."""
        t, r = schema.tables, schema.records
        out: dict[str, list[str | None]] = {room: [] for room in rooms}
        if not out:
            return out
        query = (
            select(t.c.room, t.c.match, r.c.record)
            .join(r, r.c.table_id == t.c.id)
            .where(t.c.room.in_(list(out)), t.c.match.is_not(None))
            .order_by(t.c.room, t.c.match)
        )
        with self.engine.connect() as c:
            for room, match, text in c.execute(query):
                kept = out[room]
                kept += [None] * (match - len(kept))
                kept.append(text)
        return out

    def actions_of(self, table_ids: Collection[str]) -> dict[str, list[ActionRow]]:
        """The actions of several tables at once, by table id."""
        a = schema.actions
        out: dict[str, list[ActionRow]] = {table_id: [] for table_id in table_ids}
        if not out:
            return out
        query = (
            select(a.c.table_id, a.c.idx, a.c.seat, a.c.action, a.c.note)
            .where(a.c.table_id.in_(list(out)))
            .order_by(a.c.table_id, a.c.idx)
        )
        with self.engine.connect() as c:
            for table_id, idx, seat, action, note in c.execute(query):
                out[table_id].append(ActionRow(idx, seat, action, note))
        return out

    def append_action(
        self,
        table_id: str,
        idx: int,
        seat: int,
        action: str,
        note: Mapping[str, Any] | None = None,
    ) -> None:
        """Commit action number ``idx`` of a table, with its ``note`` (``ActionRow``) in the
        same row; raises ConflictError if ``idx`` is taken."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(schema.actions).values(
                        table_id=table_id,
                        idx=idx,
                        seat=seat,
                        action=action,
                        created_at=_now(),
                        note=None if note is None else dict(note),
                    )
                )
        except IntegrityError:
            raise ConflictError(f"table {table_id} already has an action number {idx}") from None

    def append_actions(self, rows: Sequence[ActionInput]) -> list[ConflictError | None]:
        """Commit several ``(table_id, idx, seat, action[, note])`` at once, each as
        ``append_action`` would: one transaction (one sync to disk) for them all, or, when one
        of them conflicts, each in its own so that only the conflicting ones are refused.

        Returns one entry per row: None when it was committed, else its ConflictError.
        """
        if not rows:
            return []
        now = _now()
        values = [
            {
                "table_id": row[0],
                "idx": row[1],
                "seat": row[2],
                "action": row[3],
                "created_at": now,
                "note": dict(note) if (note := _note(row)) is not None else None,
            }
            for row in rows
        ]
        try:
            with self.engine.begin() as c:
                c.execute(insert(schema.actions), values)
            return [None] * len(rows)
        except IntegrityError:
            pass  # rare (a duplicate, or a match with no row): find which, one by one
        refused: list[ConflictError | None] = []
        for row in rows:
            try:
                self.append_action(*row[:4], note=_note(row))
                refused.append(None)
            except ConflictError as exc:
                refused.append(exc)
        return refused

    def actions(self, table_id: str) -> list[ActionRow]:
        query = (
            select(
                schema.actions.c.idx,
                schema.actions.c.seat,
                schema.actions.c.action,
                schema.actions.c.note,
            )
            .where(schema.actions.c.table_id == table_id)
            .order_by(schema.actions.c.idx)
        )
        with self.engine.connect() as c:
            return [ActionRow(*row) for row in c.execute(query)]

    # --- finished matches --------------------------------------------------------------------

    def finish(
        self,
        table_id: str,
        game: str,
        record: str,
        results: Sequence[tuple[int, str, int, bool]],
        teams: Sequence[Sequence[int]] | None = None,
        *,
        rated: bool = True,
    ) -> None:
        """Store a finished match's record and results and update ratings, in one transaction.

        ``results`` are ``(seat, participant, score, won)``, one per seat; participants are
        player ids or ``bot:<level>``; in a team game (``teams``) a seat's score is its team's.
        Ratings are openskill's Plackett–Luce, teams rated as teams: the winners first, then
        the others by score. A match that is not ``rated`` (a person took a move back in it) is
        kept with its results and leaves every rating as it was.
        """
        now = _now()
        with self.engine.begin() as c:
            c.execute(
                insert(schema.records).values(
                    table_id=table_id, game=game, record=record, finished_at=now
                )
            )
            c.execute(
                insert(schema.results),
                [
                    {
                        "table_id": table_id,
                        "game": game,
                        "seat": seat,
                        "participant": who,
                        "score": score,
                        "won": won,
                        "finished_at": now,
                    }
                    for seat, who, score, won in results
                ],
            )
            c.execute(
                update(schema.tables)
                .where(schema.tables.c.id == table_id)
                .values(status="finished", updated_at=now)
            )
            if rated:
                _rate(c, game, results, teams)

    def finished(self, since: datetime | None = None) -> list[Finished]:
        """Every finished match, oldest first, with its results by seat; only those that ended
        at ``since`` or later when it is given (an aware datetime)."""
        r, res, p = schema.records, schema.results, schema.players
        query = select(r.c.table_id, r.c.game, r.c.record, r.c.finished_at).order_by(
            r.c.finished_at, r.c.table_id
        )
        if since is not None:
            # in UTC, as every time is written: SQLite compares the text and keeps no zone
            query = query.where(r.c.finished_at >= since.astimezone(UTC))
        seats = (
            select(res.c.table_id, res.c.participant, res.c.won, p.c.name)
            .join(p, p.c.id == res.c.participant, isouter=True)
            .where(res.c.table_id.in_(bindparam("ids", expanding=True)))
            .order_by(res.c.table_id, res.c.seat)
        )
        with self.engine.connect() as c:
            rows = c.execute(query).all()
            by_table: dict[str, list[tuple[str, bool, str | None]]] = {}
            if rows:
                for table_id, who, won, name in c.execute(seats, {"ids": [r[0] for r in rows]}):
                    by_table.setdefault(table_id, []).append((who, bool(won), name))
        return [
            Finished(
                table_id,
                game,
                text,
                _utc(when),
                tuple(who for who, _, _ in by_table.get(table_id, [])),
                tuple(won for _, won, _ in by_table.get(table_id, [])),
                tuple(name for _, _, name in by_table.get(table_id, [])),
            )
            for table_id, game, text, when in rows
        ]

    def record(self, table_id: str) -> str | None:
        if _names_nothing(table_id):
            return None
        query = select(schema.records.c.record).where(schema.records.c.table_id == table_id)
        with self.engine.connect() as c:
            return c.execute(query).scalar()

    def save_review(self, table_id: str, review: str, iterations: int) -> bool:
        """Keep the coach's review of a finished match (JSON); the first one kept stays: returns
        whether this one was kept (False: the match had one already)."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(schema.reviews).values(
                        table_id=table_id, review=review, iterations=iterations, created_at=_now()
                    )
                )
        except IntegrityError:
            return False
        return True

    def review(self, table_id: str) -> str | None:
        """The review kept of a match, or None."""
        if _names_nothing(table_id):
            return None
        query = select(schema.reviews.c.review).where(schema.reviews.c.table_id == table_id)
        with self.engine.connect() as c:
            return c.execute(query).scalar()

    # --- players, profiles, leaderboards -----------------------------------------------------

    def create_player(self, name: str, key: str | None = None) -> tuple[Player, str]:
        """A new player and the identity token that proves it (kept by the player only).

        With the client's creation ``key`` the token is ``player_token(key)``, and a player
        made with that key already (the same request again, its answer lost) is answered as
        it is, with that token, nothing made or renamed; also when the two requests race (on
        this server or another), as the token's hash is unique in the database."""
        name = name.strip()[:64] or "player"
        token = secrets.token_urlsafe(24) if key is None else player_token(key)
        if key is not None and (made := self.player(token)) is not None:
            return made, token
        player = Player(secrets.token_hex(8), name)
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(schema.players).values(
                        id=player.id, name=name, token_hash=_token_hash(token), created_at=_now()
                    )
                )
        except IntegrityError:
            # The same key's request, answered meanwhile: its player is this one's.
            if key is None or (made := self.player(token)) is None:
                raise
            return made, token
        return player, token

    def player(self, token: str) -> Player | None:
        query = select(schema.players.c.id, schema.players.c.name).where(
            schema.players.c.token_hash == _token_hash(token)
        )
        with self.engine.connect() as c:
            row = c.execute(query).first()
        return None if row is None else Player(*row)

    def rename_player(self, token: str, name: str) -> Player | None:
        """Change the name of the player ``token`` proves; None if no player has that token."""
        name = name.strip()[:64] or "player"
        with self.engine.begin() as c:
            done = c.execute(
                update(schema.players)
                .where(schema.players.c.token_hash == _token_hash(token))
                .values(name=name)
            )
        return self.player(token) if done.rowcount else None

    def player_by_id(self, player_id: str) -> Player | None:
        if _names_nothing(player_id):
            return None
        query = select(schema.players.c.id, schema.players.c.name).where(
            schema.players.c.id == player_id
        )
        with self.engine.connect() as c:
            row = c.execute(query).first()
        return None if row is None else Player(*row)

    def profile(self, participant: str, shown: int = RESULTS_SHOWN) -> dict[str, Any]:
        """Matches played and won, the ``shown`` newest results and per-game ratings of a
        player or bot. Each result says whether its table was ``public`` (listed in the lobby).

        Only so many results: a bot's profile, which anyone may ask for, would otherwise hold
        every match the server ever played."""
        if _names_nothing(participant):
            return {
                "participant": participant,
                "matches": 0,
                "wins": 0,
                "results": [],
                "ratings": {},
            }
        r, g, t = schema.results, schema.ratings, schema.tables
        public = func.coalesce(t.c.public, False).label("public")
        won = func.coalesce(func.sum(case((r.c.won, 1), else_=0)), 0)
        with self.engine.connect() as c:
            matches, wins = c.execute(
                select(func.count(), won).where(r.c.participant == participant)
            ).one()
            rows = (
                c.execute(
                    select(
                        r.c.table_id,
                        r.c.game,
                        r.c.seat,
                        r.c.score,
                        r.c.won,
                        r.c.finished_at,
                        public,
                    )
                    .join(t, t.c.id == r.c.table_id, isouter=True)
                    .where(r.c.participant == participant)
                    .order_by(r.c.finished_at.desc(), r.c.id.desc())
                    .limit(shown)
                )
                .mappings()
                .all()
            )
            rated = c.execute(select(g).where(g.c.participant == participant)).mappings().all()
        return {
            "participant": participant,
            "matches": int(matches),
            "wins": int(wins),
            "results": [dict(row) for row in rows],
            "ratings": {
                row["game"]: {
                    "mu": row["mu"],
                    "sigma": row["sigma"],
                    "ordinal": row["mu"] - 3 * row["sigma"],
                    "matches": row["matches"],
                }
                for row in rated
            },
        }

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        g, p = schema.ratings, schema.players
        ordinal = (g.c.mu - 3 * g.c.sigma).label("ordinal")
        query = (
            select(g.c.participant, g.c.mu, g.c.sigma, g.c.matches, ordinal, p.c.name)
            .join(p, p.c.id == g.c.participant, isouter=True)
            .where(g.c.game == game)
            .order_by(ordinal.desc())
            .limit(limit)
        )
        with self.engine.connect() as c:
            rows = c.execute(query).mappings().all()
        return [{**row, "name": row["name"] or row["participant"]} for row in rows]

    def count_actions(self) -> int:
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(schema.actions)).scalar() or 0)


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone; every time tapete writes is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _note(row: ActionInput) -> Mapping[str, Any] | None:
    return row[4] if len(row) == 5 else None


def _table_row(row: Any) -> TableRow:
    values = dict(row)
    values["created_at"] = _utc(values["created_at"])
    values["updated_at"] = _utc(values["updated_at"])
    return TableRow(**values)


def _code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud
    return "".join(secrets.choice(alphabet) for _ in range(6))


def _rate(
    c: Any,
    game: str,
    results: Sequence[tuple[int, str, int, bool]],
    teams: Sequence[Sequence[int]] | None,
) -> None:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    by_seat = {seat: (who, score) for seat, who, score, _ in results}
    won = {seat for seat, _, _, w in results if w}
    groups = [list(t) for t in teams] if teams else [[seat] for seat in sorted(by_seat)]
    g = schema.ratings
    everyone = sorted({who for who, _ in by_seat.values()})
    # Matches that end at once (PostgreSQL runs them in parallel) rate one after the other: every
    # participant first gets a row (kept if it has one), then this transaction locks the rows, in
    # one order so that two matches cannot wait on each other, and no update is lost.
    c.execute(
        _insert_new(c, g)
        .values(
            [
                {
                    "participant": who,
                    "game": game,
                    "mu": model.mu,
                    "sigma": model.sigma,
                    "matches": 0,
                }
                for who in everyone
            ]
        )
        .on_conflict_do_nothing(index_elements=["participant", "game"])
    )
    current = {
        who: (mu, sigma, matches)
        for who, mu, sigma, matches in c.execute(
            select(g.c.participant, g.c.mu, g.c.sigma, g.c.matches)
            .where(g.c.game == game, g.c.participant.in_(everyone))
            .order_by(g.c.participant)
            .with_for_update()
        )
    }
    rating_teams = [
        [model.rating(mu=current[by_seat[s][0]][0], sigma=current[by_seat[s][0]][1]) for s in group]
        for group in groups
    ]
    places = [(any(s in won for s in group), max(by_seat[s][1] for s in group)) for group in groups]
    ranks = [float(sorted(places, reverse=True).index(place)) for place in places]
    rated = model.rate(rating_teams, ranks=ranks)
    fresh: dict[str, tuple[float, float, int]] = {}
    for group, new_team in zip(groups, rated, strict=True):
        for seat, new in zip(group, new_team, strict=True):
            who = by_seat[seat][0]
            # The same bot level in several seats is rated once per match (its first seat).
            fresh.setdefault(who, (new.mu, new.sigma, current[who][2] + 1))
    # One statement for every rating: a finished match is written in SQLite's one writer
    # thread, between the moves of every other table.
    c.execute(
        update(g)
        .where(g.c.participant == bindparam("who"), g.c.game == game)
        .values(
            mu=bindparam("new_mu"),
            sigma=bindparam("new_sigma"),
            matches=bindparam("new_matches"),
        ),
        [
            {"who": who, "new_mu": mu, "new_sigma": sigma, "new_matches": n}
            for who, (mu, sigma, n) in fresh.items()
        ],
    )


def _insert_new(c: Any, table: Any) -> Any:
    """An INSERT that can skip rows already there (``on_conflict_do_nothing``) on either
    database."""
    if c.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        return postgresql_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table)
