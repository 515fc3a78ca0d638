"""A match all its people left: after ``--abandon-after`` seconds with nobody at the table, its
bots and stand-ins play it to its end, and it is over in the lobby and in the store, its record
kept; a server restarted on such a table does the same. On SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import signal
import time
import urllib.error
from pathlib import Path
from typing import Any

from tapete.store import Store as Database
from webclient import Client, Server, free_port, open_socket, process

OPTIONS = ["--bot-processes", "0", "--abandon-after", "1"]


def left_in_mid_match(server: Server) -> tuple[str, Client]:
    """A table of Ana and two bots, started, a move of Ana's played: its code and Ana."""
    made = server.create(
        "pocha",
        params={"players": "3", "schedule": "[2, 2]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2,
        grace=0.1,
    )
    ana = Client(open_socket(server.ws_url))
    ana.hello(made["code"], made["token"])
    ana.send({"type": "start"})
    ana.expect("view", 30)
    while not ana.legal():
        ana.expect("view", 30)
    version = ana.view["version"] if ana.view else 0
    ana.send({"type": "act", "action": ana.legal()[0]})
    ana.view_at(version + 1)
    return str(made["code"]), ana


def over(server: Server, code: str) -> dict[str, Any]:
    """The record of the table's match once it is over and kept, the lobby saying it is over;
    AssertionError if it is not within a minute (nobody is at it: without the rule, it never
    is)."""
    deadline = time.monotonic() + 60
    while True:
        table = server.get(f"/api/tables/{code}")
        if table["status"] == "over":
            with contextlib.suppress(urllib.error.HTTPError):  # 404 until it is kept
                return dict(server.get(f"/api/tables/{code}/records/0"))
        assert time.monotonic() < deadline, f"{code} is still {table['status']}"
        time.sleep(0.2)


def finished_in(stored: Database, table: str) -> None:
    """Wait for the store to say the match ``table`` is finished: the page has its record from
    the server's memory as soon as it is over, the database a commit later."""
    deadline = time.monotonic() + 30
    while stored.table(table).status != "finished":  # type: ignore[union-attr]
        assert time.monotonic() < deadline, f"{table} is not finished in the database"
        time.sleep(0.1)


def test_a_match_everyone_left_is_finished_by_its_bots_and_kept(
    tmp_path: Path, db_url: str
) -> None:
    port, log = free_port(), tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    stored = Database(db_url)
    with process(port, db_url, log, OPTIONS) as proc:
        left, ana = left_in_mid_match(server)
        ana.close()  # and nobody else is at the table
        assert over(server, left)["result"] is not None
        finished_in(stored, f"{left}.0")
        # Another table its host still watches as the server is killed: started again, the
        # server finds it in mid-match, with nobody at it.
        kept, bea = left_in_mid_match(server)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    bea.close()
    assert stored.table(f"{kept}.0").status == "playing"  # type: ignore[union-attr]
    with process(port, db_url, log, OPTIONS):
        assert over(server, kept)["result"] is not None
        finished_in(stored, f"{kept}.0")
    assert stored.record(f"{kept}.0") is not None
    stored.engine.dispose()
