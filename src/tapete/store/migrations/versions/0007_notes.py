"""A table keeps what its log says besides the moves.

A web table's log says why a move was made when its person did not make it: the turn timer
played it, a bot stood in for someone away, a bot failed and a random legal move was played.
It also says who started a rematch. These lines were kept in one server's memory only, so a
restart, or another server reading the table, lost them. Each now sits with what it belongs
to: ``actions.note`` (JSON, null for a plain move) is the log line said before that move,
committed in the same row; ``tables.started_by`` is the seat whose rematch began that match
(null: the first match, or a match kept before this revision).

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place on SQLite too: recreating ``tables`` would cascade to its actions.
    op.add_column("actions", sa.Column("note", sa.JSON, nullable=True))
    op.add_column("tables", sa.Column("started_by", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("started_by")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("note")
