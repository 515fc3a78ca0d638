"""Bots think in worker processes: the same moves as in the server's threads, and the server
says how long they waited for a worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tapete import bots
from tapete.web.thinking import NICENESS, Thinkers
from webclient import SRC, Client, Server, free_port, open_socket, running

SPEC_PARAMS = {"players": "4", "schedule": "[1, 2]"}
SEATS = [{"kind": "bot", "level": level} for level in ("hard", "medium", "easy", "hard")]


def bots_only_match(bot_processes: int, seed: int) -> tuple[Any, dict[str, Any]]:
    """A table of bots played to the end (the searches count iterations, not milliseconds:
    the same view and RNG give the same move); its record and the server's health."""
    fixed = {"hard": bots.load("hard(iterations=6)")}
    with running(players=fixed, bot_processes=bot_processes) as server:
        table = server.create("pocha", params=SPEC_PARAMS, seats=SEATS, seed=seed, public=False)
        host = server.client()
        host.hello(table["code"], table["token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "view" and m["result"] is not None, timeout=120)
        host.close()
        return server.get(f"/api/tables/{table['code']}/records/0"), server.get("/api/health")


def test_bots_in_worker_processes_play_the_moves_they_play_in_threads() -> None:
    in_threads, _ = bots_only_match(0, seed=11)
    in_processes, health = bots_only_match(1, seed=11)
    assert in_processes["deals"] == in_threads["deals"]
    assert in_processes["result"] == in_threads["result"]
    thought = health["bots"]
    assert thought["processes"] == 1 and thought["waiting"] == 0
    searched = sum(seat["bot"] != "random" for seat in in_processes["seats"]) > 0
    assert searched and thought["decisions"] == thought["in_workers"] > 0
    assert set(thought["wait_ms"]) == {"p50", "p99", "max"}


def test_a_hint_comes_from_a_worker_process() -> None:
    with running(bot_processes=1) as server:
        table = server.create("pocha", params={"players": "3", "schedule": "[3]"}, seed=3)
        ana = server.client()
        ana.hello(table["code"], table["token"])
        ana.send({"type": "start"})
        ana.until(lambda m: m["type"] == "view" and bool(m["actions"]["buttons"]), timeout=30)
        ana.send({"type": "hint"})
        hint = ana.expect("hint", timeout=30)
        assert hint["action"] in ana.legal() and hint["label"] and hint["reason"]
        assert server.get("/api/health")["bots"]["in_workers"] >= 1
        ana.close()


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
def test_workers_leave_when_their_server_dies_before_they_start() -> None:
    # A server that dies at once (kill -9 just after it started its workers) leaves them no
    # one to take jobs from: each must leave on its own, even one that starts after the death.
    mark = f"tapete-orphan-{uuid.uuid4().hex}"
    server = (
        "import os\nfrom tapete.web.thinking import Thinkers\nThinkers(2).start()\nos._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", server], env={**os.environ, "TAPETE_MARK": mark})
    deadline = time.monotonic() + 30
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not marked(mark)


def marked(mark: str) -> list[int]:
    """The processes whose environment holds ``mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and mark.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_bot_processes_still_loading_are_deaf_to_ctrl_c() -> None:
    # ^C at the terminal reaches the bots' processes too, maybe while they still load their
    # modules (seconds on a busy machine): they must not die of it, with a traceback each.
    thinkers = Thinkers(2)
    thinkers.start()
    pool = thinkers._pool
    assert isinstance(pool, ProcessPoolExecutor)
    workers = list(pool._processes.values())
    assert len(workers) == 2  # both started at once
    try:
        for worker in workers:
            assert worker.pid is not None
            os.kill(worker.pid, signal.SIGINT)
        assert pool.submit(os.getpid).result(timeout=60) in {w.pid for w in workers}
        assert all(worker.is_alive() for worker in workers)
    finally:
        thinkers.close()


def test_ctrl_c_stops_a_server_whose_bots_are_thinking_without_a_traceback(
    tmp_path: Path,
) -> None:
    # ^C in the terminal reaches every process of the foreground group, the bots' too: the
    # server stops them itself, so they must not die of it mid-decision, each with a traceback
    # and a pool the server then thinks died and starts again while it stops.
    port, log = free_port(), tmp_path / "server.log"
    command = [sys.executable, "-m", "tapete.cli", "serve", "--port", str(port), "--db", "memory"]
    with log.open("wb") as out:
        tapete = subprocess.Popen(
            [*command, "--bot-processes", "2"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), sys.path[0]])},
            start_new_session=True,  # a group of its own, as a terminal gives it
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    try:
        server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
        deadline = time.monotonic() + 60
        while True:
            try:
                server.get("/api/health")
                break
            except OSError:
                assert time.monotonic() < deadline and tapete.poll() is None, log.read_text()
                time.sleep(0.1)
        table = server.create("pocha", params=SPEC_PARAMS, seats=SEATS, seed=2)
        host = Client(open_socket(server.ws_url))
        host.hello(table["code"], table["token"])
        host.send({"type": "start"})
        host.view_at(2, timeout=60)  # both bot processes have decided
        os.killpg(tapete.pid, signal.SIGINT)
        assert tapete.wait(60) == 130  # stopped by ^C, as a shell counts it
    finally:
        if tapete.poll() is None:
            os.killpg(tapete.pid, signal.SIGKILL)
            tapete.wait(10)
    said = log.read_text()
    assert "Application shutdown complete" in said
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    assert "process died" not in said, said


@contextmanager
def bot_processes_dying() -> Iterator[None]:
    """Every bot process of this test's server killed (SIGKILL) as soon as it is up, as an
    out-of-memory killer, or a crash the decision itself causes, would, for as long as the
    block runs."""
    stop = threading.Event()

    def kill() -> None:
        while not stop.is_set():
            for pid in children(os.getpid()):
                try:
                    if os.getpriority(os.PRIO_PROCESS, pid) == NICENESS:
                        os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass  # gone already
            time.sleep(0.02)

    killer = threading.Thread(target=kill, daemon=True)
    killer.start()
    try:
        yield
    finally:
        stop.set()
        killer.join(5)


def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if entry.name.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_table_plays_on_when_its_bots_process_dies_at_every_decision() -> None:
    # A process that dies is started again and the decision asked again; when it dies again,
    # the bot has failed that move as any bot that cannot choose: a random legal move stands
    # in and the table is told, rather than waiting for ever.
    with running(bot_processes=1) as server, bot_processes_dying():
        table = server.create(
            "pocha",
            params={"players": "3", "schedule": "[1]"},
            seats=[{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 2,
            seed=4,
        )
        ana = server.client()
        ana.hello(table["code"], table["token"])
        ana.send({"type": "start"})
        hinted = None
        while (view := ana.expect("view", timeout=60))["result"] is None:
            if ana.legal():
                if hinted is None:  # a hint is asked of those processes too
                    ana.send({"type": "hint"})
                    hinted = ana.until(lambda m: m["type"] in ("hint", "error"), timeout=60)
                ana.send({"type": "act", "action": ana.legal()[0], "version": view["version"]})
        record = server.get(f"/api/tables/{table['code']}/records/0")
        ana.close()
    names = [s["name"] for s in next(m for m in ana.seen if m["type"] == "room")["seats"]]
    said = [line for m in ana.seen if m["type"] == "view" for line in m["log"]]
    failed = "failed to choose a move: a random legal move was played for it"
    bot_moves = [a for deal in record["deals"] for a in deal["actions"] if a["seat"] > 0]
    assert hinted is not None and (hinted["type"], hinted["rule"]) == ("error", "no-hint")
    assert bot_moves
    assert sum(said.count(f"{names[seat]} {failed}") for seat in (1, 2)) == len(bot_moves), said
