"""Web rooms: each match of a room is one ``tables`` row (id ``ROOM.match``); hosts are hashes.

A room of the web app plays one match after another at the same seats (rematches). Each match is
a ``tables`` row of its own, with its seed, actions and record; ``room`` (indexed) and ``match``
say which room and which of its matches. ``host`` widens to hold a SHA-256 in hex.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


# SQLite: columns are added in place, and a VARCHAR's length is not enforced, so ``host`` is left
# alone there. Recreating ``tables`` (what a batch type change does) would drop it, and with
# foreign keys on, the drop cascades to every action.


def upgrade() -> None:
    op.add_column("tables", sa.Column("room", sa.String(16), nullable=True))
    op.add_column("tables", sa.Column("match", sa.Integer, nullable=True))
    op.create_index("ix_tables_room", "tables", ["room"])
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("tables", "host", type_=sa.String(64), existing_type=sa.String(32))


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("tables", "host", type_=sa.String(32), existing_type=sa.String(64))
    op.drop_index("ix_tables_room", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("match")
        batch.drop_column("room")
