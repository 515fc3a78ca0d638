"""The database schema (SQLAlchemy Core), as the newest migration leaves it.

Tables, seats and decisions are stored as what they are in the rules' own terms: a table's spec,
seed and seats, and its accepted actions in order. A table's state is never stored: it is rebuilt
by replaying the actions, so a restart resumes exactly where the last commit left it.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("spec", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seed_hash", String(64), nullable=False),
    # The salt in seed_hash (tapete.record.seed_commitment), secret until the match is over
    # (null: a match kept before salts, whose hash is of the seed alone).
    Column("seed_salt", String(32), nullable=True),
    Column("seats", JSON, nullable=False),  # [{"kind": "human"|"bot", "name", "bot", "player"}]
    Column("public", Boolean, nullable=False, default=True),
    Column("status", String(16), nullable=False),  # open, playing, finished
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("host", String(64), nullable=True),  # a player id, or the SHA-256 of a host token
    Column("options", JSON, nullable=True),  # turn timer, bot grace period ...
    Column("room", String(16), nullable=True, index=True),  # a web room's code ...
    Column("match", Integer, nullable=True),  # ... and which of its matches (0, 1, 2 ...)
    # Every parameter of its rules, defaults included, as a record keeps them: a newer tapete
    # whose defaults differ still plays the table under the rules it was made with.
    Column("params", JSON, nullable=True),
    Column("started_by", Integer, nullable=True),  # the seat whose rematch began this match
    # The log lines said between this match's moves (the host removed someone), each with
    # "at": the number of moves played then (null: none).
    Column("asides", JSON, nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),  # 0, 1, 2 ... per table: no gap, no duplicate
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # The log line said before this move, as the web table showed it: the turn timer, a
    # stand-in or a failed bot made it (null: a plain move). Kept with the move, in its row.
    Column("note", JSON, nullable=True),
)

records = Table(
    "records",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("record", Text, nullable=False),  # tapete-record/1 JSON
    Column("finished_at", DateTime(timezone=True), nullable=False),
)

reviews = Table(
    "reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("review", Text, nullable=False),  # the coach's review as JSON (tapete.coach.to_json)
    Column("iterations", Integer, nullable=False),  # sampled deals a decision
    Column("created_at", DateTime(timezone=True), nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

results = Table(
    "results",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("participant", String(64), nullable=False),  # a player id, or "bot:<level>"
    Column("score", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "seat"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("participant", String(64), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
)
