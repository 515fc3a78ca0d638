"""Load benchmark of the web server: simulated players on loopback playing random legal moves.

    python benchmarks/web_load.py                      # 50 four-player Pocha tables, 60 s
    python benchmarks/web_load.py --tables 10 --seconds 10 --json out.json
    python benchmarks/web_load.py --think 0.5          # players who take a moment to act
    python benchmarks/web_load.py --game truco --players 4 --tables 5 --seconds 10
    python benchmarks/web_load.py --tables 8 --bots hard --think 0.1   # 1 person + 3 hard bots
    python benchmarks/web_load.py --db postgresql://… --redis redis://… --workers 2
    python benchmarks/web_load.py --rate 200                # 200 moves a second offered, paced
    python benchmarks/web_load.py --sweep 100,200,300,400 --seconds 20   # the highest rate kept

Starts ``tapete serve`` in a subprocess on a free loopback port, creates the tables over HTTP,
seats ``--players`` people at each (one WebSocket per player), starts them, and lets every
player answer each view that offers it actions with a random legal one. A finished match is
followed by a rematch. Reports actions per second, the latency from an action sent to the
updated view received by its sender (p50, p99, max), and errors. With ``--bots LEVEL`` each
table has ``--humans`` people (1 by default) and bots of that level in the other seats; the
latency is still a person's action to its view, and the report adds the server's own account of
its bots (``/api/health``): decisions made and how long they waited for a bot process
(``--bot-processes``). Bounded in time and count;
loopback only; the temporary database folder is removed at the end.

Without ``--rate`` the players form a closed loop: each answers the moment it is offered
actions, so the load is whatever the server lets through, and a slower server shows a lower
throughput *and* a lower latency (fewer moves wait in its queues). Two servers cannot be ranked
on both at once. ``--rate R`` offers a fixed load instead (an open loop): each table's moves
come at random moments, R / tables a second on average (Poisson arrivals), whatever the server
does; a table whose answer comes late owes the moves it missed and plays them as soon as it can.
``--sweep R1,R2,…`` offers each rate in turn for ``--seconds`` on the same server (after a
``--warmup`` at the first) and reports, for each, the moves a second it kept up, the latency,
and the server's CPU seconds per 1,000 moves; ``sustained_rate`` is the highest offered rate
kept (at least 95% of it played) with a p99 within ``--p99-bound`` milliseconds: one number per
setup, comparable between setups.

The server runs with its per-client rate limits off and its per-connection message limit
raised (every player comes from one address and answers at once: it measures the server, not
its limits). With ``--server-limits`` it keeps the defaults and each player paces itself below
the message limit. Any error, refusal or dropped connection fails the run (exit status 1, and
``"ok": false``): numbers from a run that was refused are not a result.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets


def run_loop(main: Coroutine[Any, Any, Stats]) -> Stats:
    """The client shares the machine with the server: uvloop's event loop costs it less."""
    try:
        import uvloop
    except ImportError:  # no uvloop on Windows
        return asyncio.run(main)
    return uvloop.run(main)


HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class RefusedError(Exception):
    """The server refused a request of the set-up (a rate limit, a bad game or player count)."""


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return dict(json.loads(response.read()))
    except urllib.error.HTTPError as exc:
        raise RefusedError(
            f"POST {url}: {exc.code} {exc.read().decode(errors='replace')}"
        ) from None


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    matches: int = 0


@dataclass
class Stage:
    """``seconds`` of play at ``rate`` moves a second offered over all tables (0: closed loop)."""

    rate: float
    seconds: float
    stats: Stats = field(default_factory=Stats)
    cpu: tuple[float, float] = (0.0, 0.0)  # the servers' CPU seconds over the stage


class Schedule:
    """The load offered over time: ``stages`` one after another, from ``start`` (a
    ``time.monotonic``); the moves sent before it (the warm-up) are not counted."""

    def __init__(self, stages: list[Stage], start: float) -> None:
        self.stages = stages
        self.start = start
        self.ends = [start + sum(st.seconds for st in stages[: i + 1]) for i in range(len(stages))]

    def at(self, now: float) -> Stage | None:
        """The stage under way at ``now`` (None: warming up, or over)."""
        if now < self.start:
            return None
        for stage, end in zip(self.stages, self.ends, strict=True):
            if now < end:
                return stage
        return None

    def change_after(self, now: float) -> float:
        """When the offered rate next changes after ``now`` (infinity: never)."""
        return min((t for t in [self.start, *self.ends] if t > now), default=float("inf"))

    def rate(self, now: float) -> float:
        """The offered rate at ``now`` (the first stage's while warming up)."""
        stage = self.at(now)
        return (stage or self.stages[0 if now < self.start else -1]).rate


class Table:
    """When a table's next move is due under an offered load (an open loop): its moves arrive
    as a Poisson process of the table's share of the rate; one that is late is owed, not lost."""

    def __init__(self, schedule: Schedule, tables: int, rng: random.Random) -> None:
        self.schedule = schedule
        self.tables = tables
        self.rng = rng
        self.rate = 0.0  # the rate ``due`` was drawn at
        self.due = 0.0

    async def wait(self) -> None:
        """Until this table's next move is due (at once in a closed loop)."""
        while True:
            now = time.monotonic()
            rate = self.schedule.rate(now)
            if rate <= 0:
                return
            if rate != self.rate:  # a new stage: Poisson arrivals have no memory, draw anew
                self.rate, self.due = rate, now + self.rng.expovariate(rate / self.tables)
            if self.due <= now:
                self.due += self.rng.expovariate(rate / self.tables)
                return
            await asyncio.sleep(min(self.due, self.schedule.change_after(now)) - now)


class Pace:
    """At most ``rate`` messages a second from one connection (0: no pacing)."""

    def __init__(self, rate: float) -> None:
        self.gap = 1 / rate if rate else 0.0
        self.last = 0.0

    async def wait(self) -> None:
        if self.gap:
            delay = self.last + self.gap - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            self.last = time.monotonic()


async def player(
    url: str,
    code: str,
    token: str,
    host: bool,
    stop: float,
    stats: Stats,
    seed: int,
    think: float = 0.0,
    pace: float = 0.0,
    table: Table | None = None,
) -> None:
    rng = random.Random(seed)
    paced = Pace(pace)
    async with websockets.connect(url, max_size=2**22) as ws:
        await paced.wait()
        await ws.send(json.dumps({"type": "hello", "code": code, "token": token}))
        if host:
            await paced.wait()
            await ws.send(json.dumps({"type": "start"}))
        # One deadline for the whole run, not a wait_for (a task) per message: the client
        # shares the machine with the server, so it keeps its own work small.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.01, stop - time.monotonic())):
                await _play(ws, host, stats, rng, think, paced, table)


async def _play(
    ws: Any,
    host: bool,
    stats: Stats,
    rng: random.Random,
    think: float,
    paced: Pace,
    table: Table | None,
) -> None:
    """Answer every view that offers actions with a random legal one, until cancelled; a
    connection the server closes raises (websockets' ConnectionClosed): a failed run. With a
    ``table`` schedule, each move waits until it is due and is counted in the stage it was
    sent in (``stats`` takes the errors and the matches)."""
    sent_at: float | None = None
    sent_version = -1
    counted: Stats | None = stats
    while True:
        raw = await ws.recv()
        message = orjson.loads(raw)
        if message["type"] == "error":
            stats.errors.append(f"{message['rule']}: {message['message']}")
            continue
        if message["type"] != "view":
            continue
        if sent_at is not None and message["version"] > sent_version:
            if counted is not None:
                counted.latencies.append(time.perf_counter() - sent_at)
                counted.actions += 1
            sent_at = None
        if message["result"] is not None:
            if host:
                stats.matches += 1
                await paced.wait()
                await ws.send(json.dumps({"type": "rematch"}))
            continue
        acts = message["actions"]
        legal = list(acts["cards"].values()) + [b["action"] for b in acts["buttons"]]
        if legal and sent_at is None:
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            if table is not None:
                await table.wait()
                stage = table.schedule.at(time.monotonic())
                counted = None if stage is None else stage.stats
            await paced.wait()
            sent_version = message["version"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)}))


@dataclass(frozen=True)
class Seating:
    """Who sits at each table: ``humans`` people, then bots of ``bots`` level (None: people
    only), which wait ``bot_delay`` seconds before each move."""

    humans: int
    bots: str | None = None
    bot_delay: float = 0.7


async def run(
    base: str,
    tables: int,
    players: int,
    game: str,
    seconds: float,
    think: float = 0.0,
    pace: float = 0.0,
    seating: Seating | None = None,
    stages: list[Stage] | None = None,
    warmup: float = 0.0,
    servers: list[int] | None = None,
) -> Stats:
    """Play until ``seconds`` from now; or with ``stages``, paced, for ``warmup`` seconds and
    then each stage in turn (each stage's numbers in it, the ``servers``' CPU seconds too)."""
    ws_url = base.replace("http", "ws", 1) + "/ws"
    seating = seating or Seating(players)
    kinds = [{"kind": "human"}] * seating.humans + [
        {"kind": "bot", "level": seating.bots or "random"}
    ] * (players - seating.humans)
    seats: list[tuple[str, str, bool]] = []
    for _ in range(tables):
        made = post(
            f"{base}/api/tables",
            {
                "game": game,
                "params": {"players": players},
                "seats": kinds,
                "public": False,
                "bot_delay": seating.bot_delay,
            },
        )
        seats.append((made["code"], made["token"], True))
        for i in range(1, seating.humans):
            joined = post(f"{base}/api/tables/{made['code']}/join", {"name": f"p{i}"})
            seats.append((made["code"], joined["token"], False))
    stats = Stats()
    stop = time.monotonic() + seconds
    paced: dict[str, Table] = {}
    if stages:  # the clock starts once every table is made
        schedule = Schedule(stages, time.monotonic() + warmup)
        print(f"web_load: {tables} tables made; playing paced from now", file=sys.stderr)
        stop = schedule.ends[-1]
        paced = {
            code: Table(schedule, tables, random.Random(i))
            for i, (code, _, host) in enumerate(seats)
            if host
        }
    tasks = [
        player(ws_url, code, token, host, stop, stats, seed, think, pace, paced.get(code))
        for seed, (code, token, host) in enumerate(seats)
    ]
    if stages:
        tasks.append(_watch_cpu(schedule, servers or []))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return stats


async def _watch_cpu(schedule: Schedule, servers: list[int]) -> None:
    """Each stage's share of the servers' CPU seconds, read at the stages' ends."""
    await asyncio.sleep(max(0.0, schedule.start - time.monotonic()))
    before = _servers_cpu(servers)
    for stage, end in zip(schedule.stages, schedule.ends, strict=True):
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        now = _servers_cpu(servers)
        stage.cpu = (now[0] - before[0], now[1] - before[1])
        before = now


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as children:
            return [int(p) for p in children.read().split()]
    except (OSError, ValueError):
        return []


def _children_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process's children (its bot processes; Linux /proc; 0 elsewhere)."""
    return sum(_cpu_seconds(p) for p in _children(pid))


def _servers(pid: int, workers: int) -> list[int]:
    """The server processes: the one started, or with --workers its worker processes."""
    return _children(pid) if workers > 1 else [pid]


def _servers_cpu(pids: list[int]) -> tuple[float, float]:
    """CPU seconds of the servers, and of their bot processes."""
    return sum(_cpu_seconds(p) for p in pids), sum(_children_cpu_seconds(p) for p in pids)


# Loose enough that nothing of the benchmark's own is refused: every player is on one address.
RAISED = (
    "rate_limits=RateLimits.off(), limits=Limits(burst=100_000, rate=100_000.0, per_client=100_000)"
)
MESSAGE_RATE = 20.0  # the server's default messages a second per connection (tapete.web.Limits)


def _percentile(ms: list[float], q: float) -> float | None:
    return round(ms[int(q * (len(ms) - 1))], 2) if ms else None


def _stage_numbers(stage: Stage) -> dict[str, Any]:
    ms = sorted(x * 1000 for x in stage.stats.latencies)
    played = stage.stats.actions
    return {
        "offered": stage.rate,
        "played_per_second": round(played / stage.seconds, 1),
        "latency_ms_p50": _percentile(ms, 0.5),
        "latency_ms_p99": _percentile(ms, 0.99),
        "latency_ms_max": _percentile(ms, 1.0),
        "server_cpu_share": round(stage.cpu[0] / stage.seconds, 2),
        "server_cpu_s_per_1000_actions": round(1000 * stage.cpu[0] / played, 2) if played else None,
    }


def _kept(stage: dict[str, Any], bound: float) -> bool:
    """A rate is kept when nearly all of it was played, with its p99 within ``bound`` ms."""
    p99 = stage["latency_ms_p99"]
    return (
        stage["played_per_second"] >= 0.95 * stage["offered"] and p99 is not None and (p99 <= bound)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=4, help="people at each table")
    parser.add_argument("--game", default="pocha")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player waits before acting (0: at once, the hardest load)",
    )
    parser.add_argument(
        "--db",
        default="sqlite",
        help="the server's store: sqlite (a temporary file, the default), memory, or a URL",
    )
    parser.add_argument(
        "--server-limits",
        action="store_true",
        help="keep the server's default limits (the players then pace themselves below its "
        "message limit; creating many tables is refused by its rate limits)",
    )
    parser.add_argument(
        "--bots",
        metavar="LEVEL",
        help="bots of this level in every seat but the people's (random, easy, medium, hard)",
    )
    parser.add_argument(
        "--humans", type=int, default=1, help="people at each table when there are --bots"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.7, help="seconds a bot waits before each move"
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        help="the server's bot processes (default: tapete serve's, one per core; 0: threads)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="share the tables through this Redis (needs --db postgresql://…), as tapete serve",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes on the port (needs --redis)"
    )
    parser.add_argument(
        "--rate",
        type=float,
        help="moves a second offered over all tables, paced (an open loop); default: none, "
        "each player answers at once (a closed loop)",
    )
    parser.add_argument(
        "--sweep",
        metavar="R1,R2,…",
        help="offer each of these rates in turn, --seconds each, and report the highest kept",
    )
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds played before a paced run is counted"
    )
    parser.add_argument(
        "--p99-bound",
        type=float,
        default=100.0,
        help="ms: a rate is kept when its p99 is within this and 95%% of it is played",
    )
    parser.add_argument("--json", help="write the numbers here too")
    args = parser.parse_args()
    rates = [args.rate] if args.rate else []
    if args.sweep:
        try:
            rates = [float(r) for r in args.sweep.split(",")]
        except ValueError:
            parser.error("--sweep takes rates separated by commas: 100,200,300")
    if any(not 0 < r <= 10_000 for r in rates) or (args.rate and args.sweep):
        parser.error("one of --rate or --sweep, of 0 to 10,000 moves a second")
    args.rates = rates
    if args.seconds * max(1, len(rates)) > 1800:
        parser.error("keep it bounded: up to 30 minutes in all")
    if not (1 <= args.tables <= 200 and 2 <= args.players <= 8 and 0 < args.seconds <= 600):
        parser.error("keep it bounded: 1-200 tables, 2-8 players, up to 600 s")
    if args.workers != 1 and not args.redis:
        parser.error("--workers needs --redis (and --db postgresql://…)")
    if args.bots and not 1 <= args.humans < args.players:
        parser.error("with --bots, 1 to players-1 people sit at each table")
    folder = tempfile.mkdtemp(prefix="tapete-load-")
    try:
        return measure(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(args: argparse.Namespace, folder: str) -> int:
    port = free_port()
    db = f"sqlite:///{folder}/tapete.db" if args.db == "sqlite" else args.db
    options = "" if args.server_limits else f", {RAISED}"
    if args.bot_processes is not None:
        options += f", bot_processes={args.bot_processes}"
    if args.redis:
        prefix = f"tapete-load-{os.getpid()}"
        options += f", sharing=Sharing({args.redis!r}, {prefix!r}, workers={args.workers})"
    code = (
        "from tapete.web import Limits, RateLimits, serve; "
        "from tapete.web.app import Sharing; "
        f"serve({HOST!r}, {port}, log_level='warning', db={db!r}{options})"
    )
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-c", code], env=env)
    base = f"http://{HOST}:{port}"
    pace = 0.8 * MESSAGE_RATE if args.server_limits else 0.0
    try:
        for _ in range(1200):  # a busy machine may take a minute to start several servers
            try:
                urllib.request.urlopen(base + "/api/tables", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        if args.workers > 1:  # every worker answers before the clock starts
            for _ in range(1200):
                if len(_children(server.pid)) >= args.workers:
                    break
                time.sleep(0.05)
            time.sleep(3)
        servers = _servers(server.pid, args.workers)
        began, cpu = time.perf_counter(), time.process_time()
        server_cpu, bots_cpu = _servers_cpu(servers)
        stages = [Stage(rate, args.seconds) for rate in args.rates]
        try:
            seating = Seating(args.humans, args.bots, args.bot_delay) if args.bots else None
            stats = run_loop(
                run(
                    base,
                    args.tables,
                    args.players,
                    args.game,
                    args.seconds,
                    args.think,
                    pace,
                    seating,
                    stages,
                    args.warmup,
                    servers,
                )
            )
        except RefusedError as exc:
            print(f"web_load: FAILED before play: the server refused {exc}", file=sys.stderr)
            return 1
        elapsed = time.perf_counter() - began
        server_now, bots_now = _servers_cpu(servers)
        server_cpu, bots_cpu = server_now - server_cpu, bots_now - bots_cpu
        client_cpu = time.process_time() - cpu
        with urllib.request.urlopen(base + "/api/health", timeout=10) as response:
            health = json.loads(response.read())
    finally:
        server.terminate()
        server.wait(30)
    if stages:  # the whole run is its stages (not the warm-up)
        stats.latencies = [x for st in stages for x in st.stats.latencies]
        stats.actions = sum(st.stats.actions for st in stages)
        server_cpu = sum(st.cpu[0] for st in stages)
        bots_cpu = sum(st.cpu[1] for st in stages)
        elapsed = sum(st.seconds for st in stages)
    lat = sorted(stats.latencies)
    ms = [x * 1000 for x in lat]
    ok = not stats.errors and stats.actions > 0
    result = {
        "ok": ok,
        "players": args.tables * (args.humans if args.bots else args.players),
        "bots": args.bots,
        "bots_per_table": args.players - args.humans if args.bots else 0,
        "tables": args.tables,
        "game": args.game,
        "players_per_table": args.players,
        "think_s": args.think,
        "server_limits": args.server_limits,
        "seconds": round(elapsed, 1),
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / (elapsed if stages else args.seconds), 1),
        "latency_ms_p50": round(statistics.median(ms), 2) if ms else None,
        "latency_ms_p99": round(ms[int(0.99 * (len(ms) - 1))], 2) if ms else None,
        "latency_ms_max": round(ms[-1], 2) if ms else None,
        "matches_finished": stats.matches,
        "server_processes": args.workers,
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "server_cpu_s_per_1000_actions": round(1000 * server_cpu / stats.actions, 2)
        if stats.actions
        else None,
        "bot_processes_cpu_share": round(bots_cpu / elapsed, 2),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "server_bots": health.get("bots"),
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
    }
    if stages:
        result["stages"] = [_stage_numbers(st) for st in stages]
        kept = [st["offered"] for st in result["stages"] if _kept(st, args.p99_bound)]
        result["p99_bound_ms"] = args.p99_bound
        result["sustained_rate"] = max(kept, default=None)
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    if not ok:
        why = f"{len(stats.errors)} errors or refusals" if stats.errors else "no action played"
        print(
            f"web_load: FAILED: {why}; the numbers above are not a measurement",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
