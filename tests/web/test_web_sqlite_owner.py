"""One ``tapete serve`` per SQLite file: a second server on the same file (real processes)
refuses to start with one line naming the file and the process that serves it, and once that
process is gone — even killed with SIGKILL, with no chance to clean up — a new one starts."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import make_url, text

from conftest import database_url, pg_admin
from tapete.store import Store as Database
from webclient import SRC, free_port, process


def serve(db: str) -> subprocess.CompletedProcess[str]:
    """``tapete serve --db DB`` on a free port, waited for (it should refuse at once)."""
    return subprocess.run(
        [sys.executable, "-m", "tapete.cli", "serve", "--port", str(free_port()), "--db", db],
        capture_output=True,
        text=True,
        timeout=30,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        },
    )


def test_a_second_server_on_one_sqlite_file_refuses_until_the_first_is_gone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tapete.db"
    db = f"sqlite:///{path}"
    with process(free_port(), db, tmp_path / "first.log") as first:
        second = serve(db)
        said = second.stderr.strip().splitlines()
        assert second.returncode == 2 and len(said) == 1, second.stderr
        assert str(path) in said[0] and f"process {first.pid}" in said[0]
        first.kill()  # SIGKILL: it cannot let go of anything itself
        first.wait(10)
        with process(free_port(), db, tmp_path / "third.log") as third:
            assert third.poll() is None


@pytest.mark.parametrize("db", ["sqlite://", "memory"])
def test_servers_that_keep_their_tables_in_memory_start_side_by_side(
    db: str, tmp_path: Path
) -> None:
    with (
        process(free_port(), db, tmp_path / "one.log") as one,
        process(free_port(), db, tmp_path / "two.log") as two,
    ):
        assert one.poll() is None and two.poll() is None


def test_a_database_file_another_program_keeps_locked_is_refused_at_start(
    tmp_path: Path,
) -> None:
    """A sqlite3 shell in the middle of a write holds the file: the server says so and stops,
    rather than starting and failing every move."""
    path = tmp_path / "tapete.db"
    Database(f"sqlite:///{path}").engine.dispose()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        refused = serve(f"sqlite:///{path}")
    finally:
        other.execute("ROLLBACK")
        other.close()
    said = refused.stderr.strip().splitlines()
    assert refused.returncode == 2 and len(said) == 1, refused.stderr
    assert str(path) in said[0] and "takes no writes: database is locked" in said[0]
    assert "another program holds it" in said[0]


def read_only(url: str) -> str:
    """Set the PostgreSQL database of ``url`` to take no writes, as a standby; its name."""
    name = str(make_url(url).database)
    admin = pg_admin()
    with admin.connect() as c:
        c.execute(text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on'))
    admin.dispose()
    return name


def test_a_read_only_database_is_refused_at_start(tmp_path: Path) -> None:
    """PostgreSQL that takes no writes (a standby, a database set read-only): the server says
    so and stops, rather than serving tables whose every move is refused."""
    with database_url("postgresql", tmp_path) as url:
        Database(url).engine.dispose()
        name = read_only(url)
        refused = serve(url)
    said = refused.stderr.strip().splitlines()
    assert refused.returncode == 2 and len(said) == 1, refused.stderr
    assert name in said[0] and "takes no writes" in said[0] and "read-only" in said[0]


def test_a_read_only_database_that_needs_tapete_s_tables_is_refused_at_start(
    tmp_path: Path,
) -> None:
    """A standby that has no tables of tapete's yet (or older ones) cannot be given them: the
    server says so in one line naming the database and why, where Alembic's traceback ran to a
    hundred lines."""
    with database_url("postgresql", tmp_path) as url:
        name = read_only(url)
        refused = serve(url)
    said = refused.stderr.strip().splitlines()
    assert refused.returncode == 2 and len(said) == 1, refused.stderr
    assert name in said[0] and "cannot be given this tapete's tables" in said[0]
    assert "read-only transaction" in said[0]
