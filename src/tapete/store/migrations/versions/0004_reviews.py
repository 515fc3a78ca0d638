"""The coach's reviews of finished matches, kept beside their records.

A review (``tapete.coach``) of a finished match takes the server's bot workers seconds to
minutes: it is worked out once, when someone first asks, and kept here, one row per match, so a
second request and a restarted server answer it from the database. Removed with its match.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("review", sa.Text, nullable=False),
        sa.Column("iterations", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
