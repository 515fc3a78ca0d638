"""A table keeps every parameter of its rules, as a record does.

A table's spec names only the parameters that differ from their defaults, and a default may
change in a later version: a server upgraded while a table is being played would replay its
moves under other rules. ``params`` (JSON) keeps every parameter, defaults included, from the
table's making on. Tables made before this revision have none, and are played from their spec.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place on SQLite too: recreating ``tables`` would cascade to its actions.
    op.add_column("tables", sa.Column("params", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("params")
