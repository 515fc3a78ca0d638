"""One ``tapete serve`` per SQLite file: a second server on the same file (real processes)
refuses to start with one line naming the file and the process that serves it, and once that
process is gone — even killed with SIGKILL, with no chance to clean up — a new one starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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
