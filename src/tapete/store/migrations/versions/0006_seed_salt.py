"""A match keeps the salt of its published seed hash.

A table publishes the SHA-256 of its seed before play. Of the seed alone, that hash gives the
seed away to anyone who hashes every seed a table can draw (2^53 of them, hours for a farm of
graphics cards); ``seed_salt`` (128 random bits, as hex) goes into the hash with the seed and is
told with it at the end, so the hash alone no longer narrows the search. Matches kept before
this revision have none: their hash stays that of the seed alone.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place on SQLite too: recreating ``tables`` would cascade to its actions.
    op.add_column("tables", sa.Column("seed_salt", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seed_salt")
