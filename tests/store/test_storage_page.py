"""docs/storage.md names every migration the package ships and every column of a table's row."""

from __future__ import annotations

import re
from pathlib import Path

from tapete.store import schema

ROOT = Path(__file__).parents[2]
PAGE = (ROOT / "docs" / "storage.md").read_text(encoding="utf-8")
VERSIONS = ROOT / "src" / "tapete" / "store" / "migrations" / "versions"


def test_the_migrations_table_lists_every_revision_shipped() -> None:
    shipped = {p.name[:4] for p in VERSIONS.glob("[0-9][0-9][0-9][0-9]_*.py")}
    listed = set(re.findall(r"^\| (\d{4}) \|", PAGE, flags=re.M))
    assert shipped and listed == shipped


def test_every_column_a_migration_added_to_a_tables_row_is_named() -> None:
    section = PAGE.split("## What is stored", 1)[1].split("## Migrations", 1)[0]
    row = next(line for line in section.splitlines() if line.startswith("| `tables` |"))
    kept_quiet = {"id", "code", "public", "created_at", "updated_at"}
    named = {c.name for c in schema.tables.columns if f"`{c.name}`" in row}
    assert {c.name for c in schema.tables.columns} - kept_quiet <= named
