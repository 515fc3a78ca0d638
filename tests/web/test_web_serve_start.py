"""``tapete serve`` whose server does not start: it says why and ends with a failure status,
and ``--workers`` does not start a server that keeps failing again for ever."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tapete.web import app
from tapete.web.rooms import Rooms
from webclient import SRC, free_port


async def unreadable(self: Rooms) -> None:
    raise RuntimeError("the tables could not be read")


@pytest.fixture
def failing_start(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The app's startup fails (reading the tables kept), after uvicorn has begun."""
    monkeypatch.setattr(Rooms, "restore", unreadable)
    handlers = {n: signal.getsignal(n) for n in (signal.SIGTERM, signal.SIGINT)}
    yield
    for number, handler in handlers.items():
        signal.signal(number, handler)


def serve_options(port: int) -> dict[str, Any]:
    return {
        "host": "127.0.0.1",
        "port": port,
        "log_level": "warning",
        "db": "memory",
        "trusted_proxies": (),
        "rate_limits": None,
        "limits": None,
        "bot_processes": 0,
        "sharing": None,
    }


@pytest.mark.usefixtures("failing_start")
def test_a_server_whose_startup_fails_says_why_and_does_not_end_as_a_success() -> None:
    options = serve_options(free_port())
    host, port, level, db = (options.pop(k) for k in ("host", "port", "log_level", "db"))
    with pytest.raises(app.StartupError, match="RuntimeError: the tables could not be read"):
        app._serve_one(host, port, level, db, **options)


@pytest.mark.usefixtures("failing_start")
def test_a_worker_whose_startup_fails_tells_its_supervisor_why_and_exits_non_zero() -> None:
    hearing, told = multiprocessing.Pipe(duplex=False)
    with pytest.raises(SystemExit) as ended:
        app._worker(serve_options(free_port()), os.getppid(), told, quiet=True)
    assert ended.value.code not in (0, None)
    kind, said = hearing.recv()
    assert kind == "failed", said
    assert said == (
        "StartupError: the server did not start: RuntimeError: the tables could not be read"
    )


def test_a_start_that_fails_slowly_is_a_failure_not_a_server_that_ended() -> None:
    """A database that times out after a minute fails a start as surely as one refused at once:
    it is started again later and later, not at once for ever."""
    assert app._restart_wait(False, 120.0, 0) == (1, 1.0)
    assert app._restart_wait(False, 120.0, 3) == (4, 8.0)
    assert app._restart_wait(True, 120.0, 3) == (0, 0.0)  # it served: it ended, started at once


def test_workers_that_keep_failing_to_start_are_not_started_again_for_ever(
    tmp_path: Path,
) -> None:
    """Each start of the one worker fails (its database cannot be reached): after FAILS_MAX
    failed starts it is not started again, the log says so with the reason, and the
    supervisor ends with a failure status and why, rather than starting it again for ever."""
    script = textwrap.dedent(
        f"""
        import logging, sys
        from tapete.web import app
        logging.basicConfig(level=logging.INFO)
        app.FAILS_MAX = 2
        try:
            app._supervise(1, {{
                "host": "127.0.0.1", "port": {free_port()}, "log_level": "warning",
                "db": "postgresql://postgres@127.0.0.1:1/nowhere", "trusted_proxies": (),
                "rate_limits": None, "limits": None, "bot_processes": 0, "sharing": None,
            }})
        except app.StartupError as exc:
            print(f"tapete: {{exc}}", file=sys.stderr)
            sys.exit(1)
        """
    )
    log = tmp_path / "supervisor.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", script], stdout=out, stderr=out, env={"PYTHONPATH": str(SRC)}
        )
    try:
        assert proc.wait(90) == 1, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
    said = log.read_text()
    assert "failed to start 2 times in a row, last: StoreError" in said, said
    assert "it is not started again (0 of 1 servers left)" in said, said
    assert "tapete: every one of the 1 server processes failed to start" in said, said
