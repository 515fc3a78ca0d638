"""A table keeps the log lines said between its moves.

The host removing a person from a started match is said in everyone's log ("the host
removed Bea: a bot plays their seat"). Said between two moves, it belongs to no move's row
(``actions.note``): ``tables.asides`` (JSON, null for none) is the list of such lines of that
match, each with ``at``, the number of moves played when it was said, so a restart, or another
server reading the table, says it where it was said.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("asides", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("asides")
