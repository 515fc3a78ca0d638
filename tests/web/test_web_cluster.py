"""Several ``tapete serve`` processes sharing one PostgreSQL and one Redis (real ones): any
server takes any connection and any seat's move, and when the server driving a table dies
(kill -9) another drives it on, with nothing acknowledged lost or played twice."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from sqlalchemy import make_url, text
from websockets.exceptions import ConnectionClosed

from conftest import REDIS, database_url, pg_admin, redis_keys
from tapete.store import Store as Database
from tapete.web.cluster import Cluster
from tapete.web.ratelimit import SHARED_RETRY
from webclient import (
    Client,
    Gate,
    Server,
    free_port,
    open_socket,
    own_redis,
    process,
    stand_in_note,
)


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    with database_url("postgresql", tmp_path) as url:
        yield url


@pytest.fixture
def prefix() -> Iterator[str]:
    """Keys of this test's own in the shared Redis, removed after."""
    with redis_keys() as name:
        yield name


def options(prefix: str) -> list[str]:
    """A shared server: 1-second leases (a dead server's tables move within seconds)."""
    return ["--redis", REDIS, "--redis-prefix", prefix, "--lease", "1", "--bot-processes", "0"]


@contextmanager
def servers(
    pg_url: str, prefix: str, tmp_path: Path, n: int, more: Sequence[str] = ()
) -> Iterator[list[Server]]:
    with ExitStack() as stack:
        out = []
        for i in range(n):
            port = free_port()
            log = tmp_path / f"server-{i}.log"
            stack.enter_context(process(port, pg_url, log, [*options(prefix), *more]))
            out.append(Server(f"http://127.0.0.1:{port}", None, None))  # type: ignore[arg-type]
        yield out


def seat_owner(prefix: str, code: str) -> int:
    """The pid of the server driving room ``code`` (its lease names it)."""
    holder = redis.Redis.from_url(REDIS, decode_responses=True).get(f"{prefix}:lease:{code}")
    assert isinstance(holder, str), "nobody drives the room"
    return int(holder.split(":")[1])


def wait_for(condition: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(AssertionError):
            found = condition()
            if found:
                return found
        time.sleep(0.05)
    raise AssertionError("the condition never held")


@dataclass
class Person:
    """A person at a table who plays random legal moves and keeps the ones acknowledged (the
    view after their move came back); reconnects to ``urls`` in turn when a server dies."""

    urls: list[str]
    code: str
    token: str
    seed: int
    think: float = 0.0  # seconds before each move
    acked: list[tuple[int, str]] = field(default_factory=list)  # (move number, action)
    views: list[int] = field(default_factory=list)  # every view's version, in order
    result: Any = None
    error: BaseException | None = None

    def play(self, stop: threading.Event) -> None:
        rng = random.Random(self.seed)
        at = 0
        try:
            while self.result is None and not stop.is_set():
                client = self._connect(at)
                at += 1
                with contextlib.suppress(Exception):  # the server died: another one
                    self._play(client, rng, stop)
                client.close()
        except BaseException as exc:
            self.error = exc

    def _connect(self, at: int) -> Client:
        for attempt in range(200):
            url = self.urls[(at + attempt) % len(self.urls)]
            try:
                client = Client(open_socket(url))
                client.hello(self.code, self.token)
                return client
            except Exception:
                time.sleep(0.1)
        raise AssertionError("no server took the connection")

    def _play(self, client: Client, rng: random.Random, stop: threading.Event) -> None:
        """Each move names the version it was chosen on and is followed by a ping: the server
        answers messages in order, so the pong says the move's fate is known — refused if an
        error came before it, else played as move number ``version``."""
        sent: tuple[int, str] | None = None
        refused = False
        while self.result is None and not stop.is_set():
            message = client.recv(timeout=60)
            if message["type"] == "error":
                refused = True
            elif message["type"] == "pong" and sent is not None and message["t"] == sent[0]:
                if not refused:
                    self.acked.append(sent)
                sent, refused = None, False
            if message["type"] != "view":
                continue
            version = message["version"]
            self.views.append(version)
            if message["result"] is not None:
                self.result = message["result"]
                return
            legal = client.legal()
            if legal and sent is None:
                time.sleep(self.think)
                action = rng.choice(legal)
                sent = (version, action)
                client.send({"type": "act", "action": action, "version": version})
                client.send({"type": "ping", "t": version})


def stored_actions(pg_url: str, code: str) -> list[tuple[int, str]]:
    return [(a.seat, a.action) for a in Database(pg_url, migrate=False).actions(f"{code}.0")]


def test_a_table_is_played_across_two_servers_and_watched_on_both(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    with servers(pg_url, prefix, tmp_path, 2) as (one, two):
        made = one.create(
            "pocha",
            params={"players": "3", "schedule": "[2, 3]"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}],
            seed=4,
        )
        code = made["code"]
        joined = two.post(f"/api/tables/{code}/join", {"name": "Bea"})  # made on the other
        watchers = [Client(open_socket(s.ws_url)) for s in (one, two)]
        for watcher in watchers:
            watcher.hello(code)
        host = Client(open_socket(one.ws_url))
        host.hello(code, made["token"])
        host.send({"type": "start"})
        people = [
            Person([one.ws_url], code, made["token"], 1),
            Person([two.ws_url], code, joined["token"], 2),
        ]
        stop = threading.Event()
        ends: dict[int, Any] = {}

        def watch(watcher: Client) -> None:
            end = watcher.until(lambda m: m["type"] == "view" and m["result"], 120)
            ends[watchers.index(watcher)] = end

        threads = [threading.Thread(target=p.play, args=(stop,)) for p in people]
        threads += [threading.Thread(target=watch, args=(w,)) for w in watchers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(150)
        stop.set()
        host.close()
        assert all(p.error is None and p.result is not None for p in people)
        assert len(ends) == 2
        actions = stored_actions(pg_url, code)
        # Each watcher, on either server, saw every move: one view per move, in order.
        for watcher, end in zip(watchers, (ends[0], ends[1]), strict=True):
            versions = [m["version"] for m in watcher.seen if m["type"] == "view"]
            assert end["version"] == len(actions)
            assert set(range(1, len(actions) + 1)) <= set(versions)
            assert versions == sorted(versions)
            watcher.close()
        for person, seat in zip(people, (0, 1), strict=True):
            assert person.acked and all(actions[i] == (seat, a) for i, a in person.acked)
        assert one.get(f"/api/tables/{code}/records/0") == two.get(f"/api/tables/{code}/records/0")


def test_a_table_nobody_is_at_waits_until_someone_watches_on_another_server(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        pids = {}
        for port in ports:
            log = tmp_path / f"server-{port}.log"
            pids[stack.enter_context(process(port, pg_url, log, options(prefix))).pid] = port
        http = Server(f"http://127.0.0.1:{ports[0]}", None, None)  # type: ignore[arg-type]
        made = http.create(
            "pocha",
            params={"players": "3", "schedule": "[3, 3]"},
            seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2,
            bot_delay=0,
            grace=0.1,
        )
        code = made["code"]
        me = Client(open_socket(http.ws_url))
        me.hello(code, made["token"])
        me.send({"type": "start"})
        mine = me.until(lambda m: m["type"] == "view" and bool(m["actions"]["buttons"]))
        owner = pids[wait_for(lambda: seat_owner(prefix, code))]
        me.close()
        time.sleep(2.0)  # a stand-in would have played the match out: nobody is here to see it
        assert http.get(f"/api/tables/{code}")["status"] == "playing"
        other = next(p for p in ports if p != owner)
        watcher = Client(open_socket(f"ws://127.0.0.1:{other}/ws"))
        watcher.hello(code)
        assert watcher.expect("view")["version"] == mine["version"]
        # The server driving the table hears of the watcher on the other one and plays on.
        watcher.until(lambda m: m["type"] == "room" and bool(m["over"]), 60)
        watcher.close()


def test_chaos_the_driving_server_is_killed_and_every_match_finishes_as_acknowledged(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """Three tables (a person and two bots each); the server driving a table is killed with
    SIGKILL at random points of the matches and a new one started in its place; every match
    ends on the servers left, its stored moves holding every move a person had acknowledged,
    each once, in place."""
    rng = random.Random(19)
    ports = [free_port(), free_port()]
    urls = [f"ws://127.0.0.1:{p}/ws" for p in ports]
    with ExitStack() as stack:
        running: dict[int, Any] = {}

        def start(port: int) -> None:
            log = tmp_path / f"server-{port}.log"
            running[port] = stack.enter_context(process(port, pg_url, log, options(prefix)))

        for port in ports:
            start(port)
        http = Server(f"http://127.0.0.1:{ports[0]}", None, None)  # type: ignore[arg-type]
        people = []
        for seed in range(3):
            made = http.create(
                "pocha",
                params={"players": "3", "schedule": "[4, 5, 6]"},
                seats=[{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 2,
                seed=seed,
                bot_delay=0.05,
                grace=600,
            )
            person = Person(urls, made["code"], made["token"], seed, think=0.2)
            host = Client(open_socket(urls[seed % 2]))
            host.hello(made["code"], made["token"])
            host.send({"type": "start"})
            host.close()
            people.append(person)
        stop = threading.Event()
        threads = [threading.Thread(target=p.play, args=(stop,)) for p in people]
        for thread in threads:
            thread.start()
        takeovers = []
        for kill in range(3):
            victim = people[kill % len(people)]
            moves = rng.randint(1, 4)
            wait_for(lambda v=victim, m=moves: len(v.acked) >= m or v.result, 120)
            if victim.result is not None:
                continue
            pid = seat_owner(prefix, victim.code)
            port = next(p for p, proc in running.items() if proc.pid == pid)
            seen = len(victim.views)
            killed_at = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            running[port].wait(10)
            # Another server takes the table's lease and its moves go on.
            wait_for(lambda v=victim, p=pid: seat_owner(prefix, v.code) != p, 60)
            taken = time.monotonic() - killed_at
            wait_for(lambda v=victim, s=seen: v.result or len(v.views) > s + 1, 60)
            takeovers.append((taken, time.monotonic() - killed_at))
            start(port)  # a new server where the dead one was
        for thread in threads:
            thread.join(240)
        stop.set()
        assert len(takeovers) >= 2  # the matches outlived the kills
        for person in people:
            assert person.error is None and person.result is not None, person.code
            actions = stored_actions(pg_url, person.code)
            wrong = [
                (i, a, actions[i : i + 1])
                for i, a in person.acked
                if actions[i : i + 1] != [(0, a)]
            ]
            assert not wrong, (person.code, wrong)
            assert max(person.views) == len(actions)
            http = Server(f"http://127.0.0.1:{ports[0]}", None, None)  # type: ignore[arg-type]
            record = http.get(f"/api/tables/{person.code}/records/0")
            played = [(a["seat"], a["action"]) for deal in record["deals"] for a in deal["actions"]]
            assert len(played) == len(actions)
        print(
            json.dumps(
                {
                    "after_kill_s": [
                        {"driven": round(a, 2), "moved": round(b, 2)} for a, b in takeovers
                    ]
                }
            )
        )


def play_moves(people: list[Client], moves: int) -> None:
    """``moves`` moves, each by whoever has one in their latest view."""
    for _ in range(moves):
        version = max(p.view["version"] for p in people if p.view)
        for person in people:
            if person.view is None or person.view["version"] < version:
                person.view_at(version)
        mover = next(p for p in people if p.legal())
        mover.send({"type": "act", "action": mover.legal()[0], "version": version})
        for person in people:
            person.view_at(version + 1)


UNAVAILABLE = {
    "en": "this table is unavailable for a moment: trying again…",
    "es": "esta mesa no está disponible por un momento: reintentando…",
    "pt": "esta mesa está indisponível por um momento: tentando de novo…",
}


def test_without_redis_servers_say_their_tables_are_unavailable_until_it_returns(
    pg_url: str, tmp_path: Path
) -> None:
    """Redis goes away under two servers with people of one table on both. Neither hears the
    other's moves any more, so rather than show a table that may be stale as the truth, each
    tells its people, in their language, that the table is unavailable for a moment and closes
    their connections (1013: the page tries again), and refuses new ones, until Redis returns;
    then everyone is back at the same move and plays on, with nothing played lost."""
    redis_port, ports = free_port(), [free_port(), free_port()]
    url = f"redis://127.0.0.1:{redis_port}"
    shared = ["--redis", url, "--lease", "1", "--bot-processes", "0"]
    logs = [tmp_path / f"server-{i}.log" for i in range(2)]
    one, two = (Server(f"http://127.0.0.1:{p}", None, None) for p in ports)  # type: ignore[arg-type]
    langs, at = ["en", "es", "pt"], [one, two, one]

    def sit_down(tokens: list[str]) -> list[Client]:
        people = [Client(open_socket(server.ws_url)) for server in at]
        for person, token, lang in zip(people, tokens, langs, strict=True):
            person.hello(code, token, lang)
        return people

    with ExitStack() as stack:
        redis_server = stack.enter_context(own_redis(redis_port))
        for port, log in zip(ports, logs, strict=True):
            stack.enter_context(process(port, pg_url, log, shared))
        made = one.create(
            "pocha", params={"players": "3", "schedule": "[4]"}, seats=[{"kind": "human"}] * 3
        )
        code = made["code"]
        tokens = [made["token"]] + [
            server.post(f"/api/tables/{code}/join", {"name": name})["token"]
            for server, name in ((two, "Bea"), (one, "Cai"))
        ]
        people = sit_down(tokens)
        people[0].send({"type": "start"})
        for person in people:
            person.view_at(0)
        play_moves(people, 2)

        redis_server.kill()
        redis_server.wait(10)
        for person, lang in zip(people, langs, strict=True):
            told = person.until(lambda m: m["type"] == "error", 15)
            assert (told["rule"], told["text"]) == ("unavailable", UNAVAILABLE[lang])
            with pytest.raises(ConnectionClosed) as closed:
                person.until(lambda m: False)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        for server, log in zip((one, two), logs, strict=True):
            health = wait_for(
                lambda s=server: (h := s.get("/api/health"))["cluster"]["redis"] == "down" and h
            )
            assert health["ok"] and not health["cluster"]["serving"]
            assert health["cluster"]["driving"] == 0
            assert f"Redis at {url} is unreachable" in log.read_text()
            late = Client(open_socket(server.ws_url))  # a new connection is turned away alike
            late.send({"type": "hello", "code": code, "token": tokens[0], "lang": "pt"})
            refused = late.expect("error")  # in its hello's language
            assert (refused["rule"], refused["text"]) == ("unavailable", UNAVAILABLE["pt"])
            late.close()

        stack.enter_context(own_redis(redis_port))  # Redis is back
        for server in (one, two):
            wait_for(lambda s=server: s.get("/api/health")["cluster"]["serving"], 20)
        people = sit_down(tokens)
        assert [person.view_at(2)["version"] for person in people] == [2, 2, 2]
        play_moves(people, 2)
        for person in people:
            person.close()
        assert all("answers again: catching up" in log.read_text() for log in logs)
    assert len(stored_actions(pg_url, code)) == 4


def test_without_redis_the_lobby_lists_the_tables_as_the_database_has_them(
    pg_url: str, tmp_path: Path
) -> None:
    """A server that has lost Redis hears of no table made or seat taken through another
    server: its lobby (the list and one table) shows the database's tables meanwhile, not its
    own copies, which are behind; once Redis is back its copies say the same. A table the
    database holds that this version cannot play (an older one's rule option) is left out of
    the lobby and not found, whether or not Redis is there, rather than failing them."""
    redis_port, ports = free_port(), [free_port(), free_port()]
    shared = ["--redis", f"redis://127.0.0.1:{redis_port}", "--lease", "1", "--bot-processes", "0"]
    one, two = (Server(f"http://127.0.0.1:{p}", None, None) for p in ports)  # type: ignore[arg-type]
    with ExitStack() as stack:
        redis_server = stack.enter_context(own_redis(redis_port))
        for i, port in enumerate(ports):
            stack.enter_context(process(port, pg_url, tmp_path / f"server-{i}.log", shared))
        made = one.create(
            "pocha",
            params={"players": "3"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}],
        )
        code = made["code"]
        wait_for(lambda: two.get(f"/api/tables/{code}")["open"] == 1)
        old = unplayable_table(pg_url)
        assert [t["code"] for t in one.listed()] == [code]
        assert answer(one, "GET", f"/api/tables/{old}")[0] == 404

        redis_server.kill()
        redis_server.wait(10)
        for server in (one, two):
            wait_for(lambda s=server: not s.get("/api/health")["cluster"]["serving"], 15)
        two.post(f"/api/tables/{code}/join", {"name": "Bea"})  # one is not told
        later = two.create("tute", name="Cai")["code"]
        table = one.get(f"/api/tables/{code}")
        assert table["open"] == 0 and table["humans"] == ["Ana", "Bea"]
        listed = one.listed()
        assert {t["code"]: t["open"] for t in listed} == {code: 0, later: 0}
        assert listed == two.listed()
        assert one.get(f"/api/tables/{later}") == next(t for t in listed if t["code"] == later)
        assert answer(two, "GET", f"/api/tables/{old}")[0] == 404

        stack.enter_context(own_redis(redis_port))  # Redis is back: the copies catch up
        for server in (one, two):
            wait_for(lambda s=server: s.get("/api/health")["cluster"]["serving"], 20)
        assert one.listed() == listed and one.get(f"/api/tables/{code}") == table


def unplayable_table(url: str) -> str:
    """The code of a public table put in the database at ``url`` as a tapete with a rule option
    this one does not have would have kept it."""
    from tapete.web.sqlstore import SqlStore
    from tapete.web.store import Options, SeatConfig, Truth

    seats = [SeatConfig("human"), SeatConfig("human")]
    truth = Truth("QQQQ2", "truco(an_old_option=1)", 1, seats, options=Options(public=True))
    truth.created = time.time()
    asyncio.run(SqlStore(Database(url)).create(truth))
    return truth.code


def answer(server: Server, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
    """``method path``'s status, headers and how many seconds it took to come."""
    request = urllib.request.Request(
        server.url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method=method,
    )
    began = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, time.monotonic() - began
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, time.monotonic() - began


def test_without_redis_nor_the_database_the_lobby_answers_503_at_once(
    pg_url: str, tmp_path: Path
) -> None:
    """Redis stops answering (its process stopped: connections taken, nothing said) while the
    database is behind a host that takes connections and says nothing either. The lobby is
    answered 503 with Retry-After within seconds, not 500 nor never: neither counting a
    client's requests (rate limits in that Redis) nor reading the tables waits for ever. With
    the database back and Redis still away, tables are made and joined again (each server
    counts its clients alone meanwhile); with Redis back, the counts are shared again."""
    redis_port, port = free_port(), free_port()
    shared = f"redis://127.0.0.1:{redis_port}"
    log = tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    form = {"game": "pocha", "seats": [{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2}
    with ExitStack() as stack:
        redis_server = stack.enter_context(own_redis(redis_port))
        gate = Gate(make_url(pg_url).port or 5432)
        stack.callback(gate.close)
        db = make_url(pg_url).set(port=gate.port).render_as_string(hide_password=False)
        flags = ["--redis", shared, "--rate-limit-storage", shared, "--lease", "1"]
        stack.enter_context(process(port, db, log, [*flags, "--bot-processes", "0"]))
        code = server.post("/api/tables", form)["code"]

        redis_server.send_signal(signal.SIGSTOP)
        stack.callback(redis_server.send_signal, signal.SIGCONT)
        gate.shut()
        wait_for(lambda: not server.get("/api/health")["cluster"]["serving"], 15)
        asked = [
            ("GET", "/api/tables", None),
            ("GET", f"/api/tables/{code}", None),
            ("POST", "/api/tables", form),
            ("POST", f"/api/tables/{code}/join", {"name": "Bea"}),
            ("POST", "/api/players", {"name": "Cai"}),
        ]
        answers: dict[str, tuple[int, Any, float]] = {}
        threads = [
            threading.Thread(
                target=lambda m=method, p=path, b=body: answers.update(
                    {f"{m} {p}": answer(server, m, p, b)}
                )
            )
            for method, path, body in asked
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        for asking, (status, headers, took) in answers.items():
            assert (status, headers["Retry-After"]) == (503, "5"), asking
            assert took < 15, asking
        assert len(answers) == len(asked)
        assert server.get("/api/health")["ok"]  # a balancer still sees the server up

        gate.opened()  # the database is back, Redis is not: the lobby works again
        made = server.post("/api/tables", form)
        assert server.post(f"/api/tables/{made['code']}/join", {"name": "Bea"})["seat"] == 1
        said = log.read_text()
        assert f"the rate limits' storage at {shared} did not answer" in said
        assert "Traceback" not in said

        redis_server.send_signal(signal.SIGCONT)
        wait_for(lambda: server.get("/api/health")["cluster"]["serving"], 20)
        time.sleep(SHARED_RETRY)  # when the limits' storage is asked again
        server.post("/api/tables", form)
        assert any(redis.Redis(port=redis_port).scan_iter("tapete:LIMITER*"))
        assert f"the rate limits' storage at {shared} answers again" in log.read_text()


def test_the_log_names_the_database_when_it_is_what_keeps_a_server_from_catching_up(
    pg_url: str, tmp_path: Path
) -> None:
    """Redis away, then back while the database is still away: the server cannot read its
    rooms again, and its log says the database is what is away (once, not once a retry); once
    the database answers, it serves again and says so."""
    redis_port, port = free_port(), free_port()
    log = tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    with ExitStack() as stack:
        redis_server = stack.enter_context(own_redis(redis_port))
        gate = Gate(make_url(pg_url).port or 5432)
        stack.callback(gate.close)
        db = make_url(pg_url).set(port=gate.port).render_as_string(hide_password=False)
        flags = ["--redis", f"redis://127.0.0.1:{redis_port}", "--lease", "1"]
        stack.enter_context(process(port, db, log, [*flags, "--bot-processes", "0"]))
        redis_server.send_signal(signal.SIGSTOP)
        stack.callback(redis_server.send_signal, signal.SIGCONT)
        wait_for(lambda: not server.get("/api/health")["cluster"]["serving"], 15)
        gate.shut()
        redis_server.send_signal(signal.SIGCONT)
        wait_for(lambda: "the database is unreachable" in log.read_text(), 30)
        time.sleep(3)  # a few retries of the catch-up, each failing on the database
        said = log.read_text()
        assert said.count("the database is unreachable") == 1
        assert said.count(f"Redis at redis://127.0.0.1:{redis_port} is unreachable") == 1
        assert not server.get("/api/health")["cluster"]["serving"]
        gate.opened()
        wait_for(lambda: server.get("/api/health")["cluster"]["serving"], 30)
        assert "caught up with the database: serving tables again" in log.read_text()


def both_workers(server: Server) -> set[str]:
    """The names of the two ``--workers`` servers answering on one port, once both answer."""
    found: set[str] = wait_for(
        lambda: (
            len(names := {server.get("/api/health")["cluster"]["server"] for _ in range(20)}) == 2
            and names
        )
    )
    return found


def test_workers_share_one_port_and_stop_together_on_sigterm(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    shared = [*options(prefix), "--workers", "2"]
    with process(port, pg_url, log, shared) as supervisor:
        server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
        names = both_workers(server)
        made = server.create(
            "pocha",
            params={"players": "3", "schedule": "[1]"},
            seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 2,
        )
        watcher = Client(open_socket(server.ws_url))
        watcher.hello(made["code"], made["token"])
        watcher.send({"type": "start"})
        watcher.until(lambda m: m["type"] == "view" and bool(m["actions"]["buttons"]), 30)
        watcher.close()
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(30) == 0
    assert len(names) == 2
    assert log.read_text().count("Application shutdown complete") == 2


def test_workers_with_bot_processes_stop_on_sigterm_leaving_nothing_to_clean_up(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    # Each server, drained, ends through its exit handlers, which close its bot processes'
    # queues: nothing is left for the resource tracker to warn of at every restart.
    port, log = free_port(), tmp_path / "server.log"
    shared = [*options(prefix), "--workers", "2", "--bot-processes", "2"]
    with process(port, pg_url, log, shared) as supervisor:
        server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
        both_workers(server)
        # The host's two bot processes are shared by its two servers: one each, not two each.
        assert {server.get("/api/health")["bots"]["processes"] for _ in range(20)} == {1}
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(60) == 0
    said = log.read_text()
    assert said.count("Finished server process") == 2
    assert "leaked" not in said and "Traceback" not in said, said


def test_a_worker_that_cannot_start_is_started_again_later_each_time_until_it_can(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """A worker dies while its database is gone: each new one fails at its start, and is
    started again after 1, 2, 4… seconds (not every half second, a traceback each time); once
    the database is back, the next one serves."""
    port, log = free_port(), tmp_path / "server.log"
    name = make_url(pg_url).database
    admin = pg_admin()
    with process(port, pg_url, log, [*options(prefix), "--workers", "2"]):
        server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
        victim = int(sorted(both_workers(server))[0].split(":")[1])
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        os.kill(victim, signal.SIGKILL)
        wait_for(lambda: "3 failures in a row" in log.read_text(), 90)
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        both_workers(server)  # the next one started serves (and the survivor again too)
        wait_for(lambda: "serving again" in log.read_text(), 30)
    said = log.read_text()
    assert f"server process {victim} ended (-9)" in said
    assert "starting another in 1 s" in said and "starting another in 2 s" in said
    # The cause in full once, then a line a failure, and a line when it serves again.
    assert said.count("Traceback") == 1 and said.count(f'database "{name}" does not exist') >= 3
    again = [line for line in said.splitlines() if "failed to start again" in line]
    assert len(again) >= 2 and all("StoreError: cannot reach the database" in s for s in again)
    assert "(2 failures in a row)" in again[0] and all("starting another in" in s for s in again)
    assert f"started after {len(again) + 1} failures: serving again" in said
    admin.dispose()


@pytest.mark.parametrize("lease", [0.0005, 0.0, -1.0, float("nan"), 61.0])
def test_a_lease_out_of_its_range_is_refused_by_the_library_too(lease: float) -> None:
    # Under a millisecond Redis cannot keep the key at all (PX 0): refused before any server.
    with pytest.raises(ValueError, match="a lease lasts 1 to 60 seconds"):
        Cluster(REDIS, lease=lease)


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--workers", "2"], "--workers: several processes share tables through --redis"),
        (["--redis", REDIS], "give --db postgresql://"),
        (["--workers", "2", "--redis", REDIS], "give --db postgresql://"),
    ],
)
def test_sharing_needs_postgresql_and_redis(flags: list[str], says: str, tmp_path: Path) -> None:
    # Refused before it says it serves, and before the SQLite file is made and migrated.
    done = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "serve", "--db", f"sqlite:///{tmp_path}/t.db", *flags],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")},
    )
    assert done.returncode != 0 and says in done.stderr
    assert "serving on" not in done.stderr
    assert not (tmp_path / "t.db").exists()


def test_workers_on_a_port_another_program_has_are_refused_in_one_line(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    # Each worker would die of it and be started again, for ever: refused before any starts.
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                *(sys.executable, "-m", "tapete.cli", "serve", "--port", str(port)),
                *("--db", pg_url, *options(prefix), "--workers", "2"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")},
        )
    assert done.returncode == 2
    in_use = os.strerror(errno.EADDRINUSE)
    assert done.stderr == f"tapete: cannot listen on 127.0.0.1:{port}: {in_use}\n"


def test_a_review_is_followed_and_cancelled_from_any_server_and_worked_out_once(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    # The coach's review of a finished match: worked out on the server asked first, followed
    # and cancelled from the other, never worked out on both at once, and once kept, kept for all.
    with ExitStack() as stack:
        shared = []
        for i, budget in enumerate((1500, 5)):  # the first reviews slowly, the second at once
            port = free_port()
            flags = [*options(prefix), "--review-iterations", str(budget)]
            stack.enter_context(process(port, pg_url, tmp_path / f"server-{i}.log", flags))
            shared.append(Server(f"http://127.0.0.1:{port}", None, None))  # type: ignore[arg-type]
        one, two = shared
        made = one.create(
            "pocha",
            params={"schedule": "[5, 6]"},
            seats=[{"kind": "bot", "level": "random"}] * 4,
            seed=3,
            public=False,
        )
        code = made["code"]
        host = Client(open_socket(one.ws_url))
        host.hello(code, made["token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "view" and m["result"] is not None, 120)
        host.close()
        path = f"/api/tables/{code}/reviews/0"
        assert one.post(path, {})["status"] == "running"
        # The other server tells how far it is, and does not start one of its own.
        far = wait_for(lambda: two.get(path)["status"] == "running" and two.get(path)["total"])
        assert far
        assert two.post(path, {})["status"] == "running"
        assert two.get("/api/health")["bots"]["reviewing"] == 0
        # Cancelled from the other server: it stops where it is worked out.
        gone = two.post(path, {}, method="DELETE")
        assert gone["cancelled"] is True and gone["status"] == "none"
        wait_for(lambda: one.get(path)["status"] == "none", timeout=10)
        # Asked again on the second: worked out there, kept, and the first serves what it kept.
        two.post(path, {})
        done = wait_for(lambda: two.get(path)["status"] == "done" and two.get(path))
        assert done["review"]["iterations"] == 5
        served = one.get(path)
        assert served["status"] == "done" and served["review"] == done["review"]


def test_a_busy_server_tells_every_move_in_order_without_losing_redis(prefix: str) -> None:
    """Far more moves in flight than Redis connections in a pool (100): every one reaches the
    other servers, in the order told, and the server never takes Redis for gone (it would drop
    every lease it holds)."""
    import asyncio

    import orjson
    from redis.asyncio import Redis

    from tapete.web.cluster import Cluster
    from tapete.web.rooms import Rooms
    from tapete.web.store import MemoryStore

    async def scenario() -> tuple[list[int], bool]:
        listener = Redis.from_url(REDIS)
        # Any: redis 8 types PubSub.aclose, earlier versions do not, and both must check.
        pubsub: Any = listener.pubsub()
        await pubsub.subscribe(f"{prefix}:news")
        cluster = Cluster(REDIS, prefix=prefix)
        await cluster.start(Rooms(MemoryStore(), cluster=cluster))
        try:
            for _ in range(100):  # until it has said it is here
                if cluster.up:
                    break
                await asyncio.sleep(0.05)
            await asyncio.gather(*(cluster.tell({"kind": "test", "n": n}) for n in range(500)))
            heard: list[int] = []
            async with asyncio.timeout(10):
                while len(heard) < 500:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
                    if message is None:
                        continue
                    said = orjson.loads(message["data"])
                    heard += [n["n"] for n in said["news"] if n.get("kind") == "test"]
            return heard, cluster.up
        finally:
            await cluster.close()
            await pubsub.aclose()
            await listener.aclose()

    heard, up = asyncio.run(scenario())
    assert heard == list(range(500))
    assert up


def join_status(server: Server, code: str, body: dict[str, Any]) -> tuple[int, Any]:
    """``POST /api/tables/CODE/join``'s status and answer (a refusal's too)."""
    try:
        return 200, server.post(f"/api/tables/{code}/join", body)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def seat_taken(seat: int) -> Any:
    """Whether a message is a ``room`` that shows ``seat`` taken by a person."""
    return lambda m: m["type"] == "room" and m["seats"][seat]["kind"] == "human"


def join_at_once(
    start: threading.Barrier,
    answers: dict[str, tuple[int, Any]],
    server: Server,
    code: str,
    name: str,
) -> None:
    """Seat 1 of ``code`` for ``name`` on ``server``, once every other joiner is ready too."""
    start.wait()
    answers[name] = join_status(server, code, {"name": name, "seat": 1})


def test_a_seat_taken_on_one_server_is_found_at_once_by_a_hello_on_another(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """A person sits down through one server and their page's new connection lands on another
    at once, before that one has heard of the seat: it reads the seats again and seats them
    (before, it welcomed them as a spectator and the page forgot the seat token for good)."""
    with servers(pg_url, prefix, tmp_path, 2, ["--rate-limit", "off"]) as (one, two):
        lost = []
        for attempt in range(20):
            made = one.create("pocha", params={"players": "3"}, seats=[{"kind": "human"}] * 3)
            code = made["code"]
            watcher = Client(open_socket(two.ws_url))  # the other server has the room already
            assert watcher.hello(code)["seat"] is None
            person = Client(open_socket(two.ws_url))
            joined = one.post(f"/api/tables/{code}/join", {"name": "Bea"})
            welcome = person.hello(code, joined["token"])
            if welcome["seat"] != joined["seat"]:
                lost.append(attempt)
            # the watcher on that server is told of the new seat too
            watcher.until(seat_taken(joined["seat"]))
            for client in (watcher, person):
                client.close()
        assert not lost, f"{len(lost)} of 20 joins welcomed as spectators: {lost}"


def test_two_people_taking_one_seat_on_two_servers_at_once_one_gets_it(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """Both servers check the seat is free and save: only one may win it, the other is refused
    as for a taken seat (409), and the seat is the winner's everywhere."""
    with servers(pg_url, prefix, tmp_path, 2, ["--rate-limit", "off"]) as (one, two):
        wrong = []
        for attempt in range(20):
            made = one.create("pocha", params={"players": "3"}, seats=[{"kind": "human"}] * 3)
            code = made["code"]
            assert two.get(f"/api/tables/{code}")["code"] == code  # both servers have the room
            start = threading.Barrier(2)
            answers: dict[str, tuple[int, Any]] = {}
            threads = [
                threading.Thread(target=join_at_once, args=(start, answers, s, code, n))
                for s, n in ((one, "Bea"), (two, "Cai"))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            statuses = sorted(status for status, _ in answers.values())
            if statuses != [200, 409]:
                wrong.append((attempt, statuses))
                continue
            winner = next(name for name, (status, _) in answers.items() if status == 200)
            seats = Database(pg_url, migrate=False).table(f"{code}.0")
            assert seats is not None and seats.seats[1]["name"] == winner
            for server in (one, two):
                assert wait_for(
                    lambda s=server, c=code, w=winner: (
                        s.get(f"/api/tables/{c}")["humans"] == ["Ana", w]
                    )
                )
        assert not wrong, f"{len(wrong)} of 20 races not won by exactly one: {wrong}"


def test_a_join_asked_again_on_another_server_with_its_key_gets_the_seat_it_took(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """A join's answer lost, and the page's retry landing on another server (a balancer), at
    once: with the same join key that server finds the seat the first one gave, and answers
    with its token; another key is refused that seat."""
    with servers(pg_url, prefix, tmp_path, 2, ["--rate-limit", "off"]) as (one, two):
        for attempt in range(5):
            made = one.create("pocha", params={"players": "3"}, seats=[{"kind": "human"}] * 3)
            code = made["code"]
            assert two.get(f"/api/tables/{code}")["code"] == code  # both servers have the room
            asked = {"name": "Bea", "seat": 1, "key": f"join-key-{attempt}-" + "q" * 12}
            first = one.post(f"/api/tables/{code}/join", asked)
            assert two.post(f"/api/tables/{code}/join", asked) == first, attempt
            other = {**asked, "key": "another-key-" + "q" * 12}
            assert join_status(two, code, other)[0] == 409
            person = Client(open_socket(two.ws_url))
            assert person.hello(code, first["token"])["seat"] == 1
            person.close()


def make_at_once(
    start: threading.Barrier, server: Server, key: str, tables: list[Any], players: list[Any]
) -> None:
    """A table, then a player, made with ``key`` on ``server`` once every other maker is ready."""
    start.wait()
    tables.append(server.create("pocha", key=key))
    players.append(server.post("/api/players", {"name": "Bea", "key": key}))


def test_a_table_or_player_asked_again_on_another_server_with_its_key_is_made_once(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """A new table's or player's answer lost and the page's retry landing on another server
    (a balancer): that server answers with what the first one made. Sent to both at once, the
    same request still makes one table and one player, and both answers are theirs."""
    with servers(pg_url, prefix, tmp_path, 2, ["--rate-limit", "off"]) as (one, two):
        key = "table-key-" + "q" * 12
        first = one.create("pocha", key=key)
        assert two.create("pocha", key=key) == first
        person = Client(open_socket(two.ws_url))
        assert person.hello(first["code"], first["token"])["seat"] == 0
        person.close()
        me = one.post("/api/players", {"name": "Ana", "key": key})
        assert two.post("/api/players", {"name": "Ana", "key": key}) == me
        for attempt in range(5):
            start = threading.Barrier(2)
            tables: list[Any] = []
            players: list[Any] = []
            key = f"at-once-{attempt}-" + "q" * 12
            threads = [
                threading.Thread(target=make_at_once, args=(start, s, key, tables, players))
                for s in (one, two)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert len(tables) == len(players) == 2, attempt
            assert tables[0] == tables[1] and players[0] == players[1], attempt
        database = Database(pg_url, migrate=False)
        with database.engine.connect() as c:
            assert c.execute(text("SELECT count(*) FROM tables")).scalar() == 6
            assert c.execute(text("SELECT count(*) FROM players")).scalar() == 6


def test_workers_whose_supervisor_is_killed_drain_and_stop(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """kill -9 of ``tapete serve --workers 2`` leaves no server behind on the port: each
    worker sees its supervisor gone, drains and stops."""
    port = free_port()
    log = tmp_path / "server.log"
    with process(port, pg_url, log, [*options(prefix), "--workers", "2"]) as supervisor:
        server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
        names = both_workers(server)
        supervisor.kill()
        supervisor.wait(10)
    pids = [int(name.split(":")[1]) for name in names]
    wait_for(lambda: not any(_running(pid) for pid in pids), timeout=20)
    assert log.read_text().count("drains and stops") == 2


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs (an exited process nobody reaped yet does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


def asked(server: Server, path: str, token: str, answers: dict[str, Any]) -> None:
    """``GET path`` of ``server`` with seat token ``token``: its status and answer, kept under
    ``path`` in ``answers`` (a refusal's too)."""
    try:
        answers[path] = (200, server.get(path, {"Authorization": f"Bearer {token}"}))
    except urllib.error.HTTPError as exc:
        answers[path] = (exc.code, json.loads(exc.read() or b"null"))


def test_a_seat_taken_on_one_server_has_its_record_and_narration_on_another_at_once(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """A person sits down and the match starts through one server; their replay's requests
    reach another before it has heard of either (here it is held still meanwhile): it reads
    the room again for the token it does not know, as a hello does, and answers for their seat
    (before, it answered as to a stranger at a table not started: 404)."""
    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        procs = [
            stack.enter_context(
                process(port, pg_url, tmp_path / f"server-{i}.log", options(prefix))
            )
            for i, port in enumerate(ports)
        ]
        one, two = (Server(f"http://127.0.0.1:{p}", None, None) for p in ports)  # type: ignore[arg-type]
        refused = []
        for attempt in range(5):
            made = one.create(
                "pocha",
                params={"players": "3", "schedule": "[2]"},
                seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}],
            )
            code = made["code"]
            assert two.get(f"/api/tables/{code}")["status"] == "waiting"
            os.kill(procs[1].pid, signal.SIGSTOP)
            try:
                joined = one.post(f"/api/tables/{code}/join", {"name": "Bea"})
                host = Client(open_socket(one.ws_url))
                host.hello(code, made["token"])
                host.send({"type": "start"})
                host.expect("view")
                host.close()
                answers: dict[str, Any] = {}
                paths = [f"/api/tables/{code}/record", f"/api/tables/{code}/narration"]
                threads = [
                    threading.Thread(target=asked, args=(two, p, joined["token"], answers))
                    for p in paths
                ]
                for thread in threads:
                    thread.start()
                time.sleep(0.3)  # the requests wait at the held server, with its news
            finally:
                os.kill(procs[1].pid, signal.SIGCONT)
            for thread in threads:
                thread.join(30)
            record, told = (answers[p] for p in paths)
            if record[0] != 200 or told[0] != 200:
                refused.append((attempt, record[0], told[0]))
                continue
            assert record[1]["redacted"] == {"seat": joined["seat"]}
            assert isinstance(told[1]["deals"], list)
        assert not refused, f"{len(refused)} of 5 answered as to a stranger: {refused}"


def finish_match(people: list[Client]) -> None:
    """Each person plays their first legal move at their turn until every one sees the end
    (no timer, no stand-in: only a person's last view says it is their turn)."""
    while not all(p.view is not None and p.view["result"] for p in people):
        for person in people:
            view = person.view
            if view is not None and not view["result"] and person.legal():
                person.send({"type": "act", "action": person.legal()[0]})
                person.view_at(view["version"] + 1, 30)
            with contextlib.suppress(TimeoutError):
                person.recv(0.1)


def ana_and_bea(one: Server, two: Server) -> tuple[str, Client, Client]:
    """A one-hand Pocha table of three made on server ``one`` (a random bot at seat 2): its
    code, its host Ana at seat 0 connected there, and Bea at seat 1 connected to ``two``."""
    made = one.create(
        "pocha",
        params={"players": "3", "schedule": "[1]"},
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
    )
    code = made["code"]
    joined = two.post(f"/api/tables/{code}/join", {"name": "Bea"})
    ana, bea = one.client(), two.client()
    ana.hello(code, made["token"])
    assert bea.hello(code, joined["token"])["seat"] == 1
    return code, ana, bea


def test_a_rematch_is_said_to_the_people_on_every_server(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    with servers(pg_url, prefix, tmp_path, 2) as (one, two):
        code, ana, bea = ana_and_bea(one, two)
        watcher = two.client()
        watcher.hello(code)
        ana.send({"type": "start"})
        people = [ana, bea]
        finish_match(people)
        ana.send({"type": "rematch"})
        # Everyone, on the server that started it and on the other, reads who started it.
        for client in (ana, bea, watcher):
            again = client.until(lambda m: m["type"] == "view" and m["match"] == 1, 30)
            assert "Ana started a rematch: match 2" in again["log"], again["log"]
        # And whoever connects to the other server afterwards reads it in the recent log.
        late = two.client()
        late.hello(code)
        assert "Ana started a rematch: match 2" in late.expect("view")["log"]
        for client in (ana, bea, watcher, late):
            client.close()


def test_a_person_removed_by_the_host_on_another_server_is_told(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    with servers(pg_url, prefix, tmp_path, 2) as (one, two):
        _, ana, bea = ana_and_bea(one, two)
        ana.send({"type": "remove", "seat": 1})
        # The page says "The host removed you from your seat" on this welcome: without it,
        # the person on the other server would find their seat gone without a word.
        told = bea.until(lambda m: m["type"] == "welcome", 30)
        assert told["seat"] is None and told["refused"] is True
        ana.close()
        bea.close()


def test_the_host_removing_a_player_mid_match_is_said_on_every_server(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """The host, on the first server, removes Bea mid-match: a watcher reading Portuguese on
    the second server is told so in the log, once, as Ana is."""
    with servers(pg_url, prefix, tmp_path, 2) as (one, two):
        code, ana, bea = ana_and_bea(one, two)
        watcher = two.client()
        watcher.hello(code, lang="pt")
        ana.send({"type": "start"})
        watcher.view_at(0, 30)
        ana.send({"type": "remove", "seat": 1})
        english = "the host removed Bea: a bot plays their seat"
        ana.until(lambda m: m["type"] == "view" and english in m["log"], 30)
        said = "o anfitrião tirou Bea do seu lugar: um bot joga no lugar dele"
        watcher.until(lambda m: m["type"] == "view" and said in m["log"], 30)
        finish_match([ana])
        while watcher.view is None or not watcher.view["result"]:
            watcher.recv(30)
        lines = [line for m in watcher.seen if m["type"] == "view" for line in m["log"]]
        assert lines.count(said) == 1, lines
        for client in (ana, bea, watcher):
            client.close()


def test_a_stand_in_is_said_again_when_another_server_started_the_rematch(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """The server driving a table says a stand-in once a match: in a rematch another server
    started, it once said nothing, and the person back read the bot's moves as their own."""
    said = stand_in_note("Bea")
    ports = [free_port(), free_port()]
    driver, other = (Server(f"http://127.0.0.1:{p}", None, None) for p in ports)  # type: ignore[arg-type]
    with ExitStack() as stack:
        stack.enter_context(process(ports[0], pg_url, tmp_path / "driver.log", options(prefix)))
        made = driver.create(
            "pocha",
            params={"players": "3", "schedule": "[1]"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            grace=0.1,
        )
        code = made["code"]
        driver.post(f"/api/tables/{code}/join", {"name": "Bea"})  # and never comes
        ana = driver.client()
        ana.hello(code, made["token"])
        ana.send({"type": "start"})
        finish_match([ana])
        assert [line for m in ana.seen if m["type"] == "view" for line in m["log"]].count(said) == 1
        # The other server renews its leases only every 20 s: the rematch it starts is driven
        # by the first server, which said Bea's stand-in in the match before.
        lazy = [*options(prefix), "--lease", "60"]
        stack.enter_context(process(ports[1], pg_url, tmp_path / "other.log", lazy))
        again = other.client()
        again.hello(code, made["token"])
        again.send({"type": "rematch"})
        lines: list[str] = []
        while True:
            m = ana.until(lambda m: m["type"] == "view" and m["match"] == 1, 30)
            lines += m["log"]
            if m["result"]:
                break
            if ana.legal():
                ana.send({"type": "act", "action": ana.legal()[0]})
        assert lines.count(said) == 1, lines
        ana.close()
        again.close()


def test_a_person_the_host_moves_on_another_server_is_not_taken_for_away(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """Bea, connected to the second server, is moved by the host on the first, which drives the
    table: it once went on counting her connection at her old seat, took her for away at her
    new one, and a bot stood in for her while she was there."""
    ports = [free_port(), free_port()]
    one, two = (Server(f"http://127.0.0.1:{p}", None, None) for p in ports)  # type: ignore[arg-type]
    with ExitStack() as stack:
        stack.enter_context(process(ports[0], pg_url, tmp_path / "one.log", options(prefix)))
        # The second server renews its leases only every 20 s: the first drives the table.
        lazy = [*options(prefix), "--lease", "60"]
        stack.enter_context(process(ports[1], pg_url, tmp_path / "two.log", lazy))
        made = one.create(
            "pocha",
            params={"players": "4", "schedule": "[1]"},
            seats=[{"kind": "human"}] * 3 + [{"kind": "bot", "level": "random"}],
            grace=0.1,
        )
        code = made["code"]
        joined = two.post(f"/api/tables/{code}/join", {"name": "Bea", "seat": 1})
        ana, bea = one.client(), two.client()
        ana.hello(code, made["token"])
        assert bea.hello(code, joined["token"])["seat"] == 1
        ana.send({"type": "move", "seat": 1, "to": 3})
        bea.until(lambda m: m["type"] == "room" and m["you"] == 3, 30)
        # News the second server sends after Bea's new seat's count: once the first has it,
        # it has the count too (each server's news comes in the order it was sent).
        two.post(f"/api/tables/{code}/join", {"name": "Cai"})  # and never comes
        ana.until(lambda m: m["type"] == "room" and "Cai" in [s["name"] for s in m["seats"]], 30)
        ana.send({"type": "start"})
        # Play until a seat nobody here plays has moved: the first server drives the table.
        while not any(
            line.startswith(("bot", "Cai"))
            for m in ana.seen
            if m["type"] == "view"
            for line in m["log"]
        ):
            for person in (ana, bea):
                view = person.view
                if view is not None and not view["result"] and person.legal():
                    person.send({"type": "act", "action": person.legal()[0]})
                    person.view_at(view["version"] + 1, 30)
                with contextlib.suppress(TimeoutError):
                    person.recv(0.1)
        ana.send({"type": "lang", "lang": "en"})
        seats = ana.until(lambda m: m["type"] == "room", 30)["seats"]
        assert seats[3]["name"] == "Bea" and not seats[3]["away"] and not seats[3]["standin"]
        ana.close()
        bea.close()


def test_a_timer_move_and_a_stand_in_are_said_once_on_every_server(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    """Ana lets her turn timer run out at each turn and Bea never comes (a bot stands in): the
    watcher on the other server, and a server started after the match (which reads the table
    from the database), say each of those lines where Ana read it, once."""
    timed_out = "Ana ran out of time: a move was played for them"
    stand_in = stand_in_note("Bea")
    with servers(pg_url, prefix, tmp_path, 2) as (one, two):
        made = one.create(
            "pocha",
            params={"players": "3", "schedule": "[1]"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            grace=0.1,
            turn_timer=0.5,
            standby="random",
        )
        code = made["code"]
        two.post(f"/api/tables/{code}/join", {"name": "Bea"})  # and never comes
        ana, watcher = one.client(), two.client()
        ana.hello(code, made["token"])
        watcher.hello(code)
        ana.send({"type": "start"})
        for client in (ana, watcher):
            client.until(lambda m: m["type"] == "view" and m["result"] is not None, 60)
        said = [line for m in ana.seen if m["type"] == "view" for line in m["log"]]
        # Each of Ana's moves was the timer's (a tie may take a second hand): each said once.
        hers = sum(line.startswith(("Ana bids", "Ana plays")) for line in said)
        assert said.count(stand_in) == 1 and said.count(timed_out) == hers >= 2, said
        assert [line for m in watcher.seen if m["type"] == "view" for line in m["log"]] == said
        port = free_port()
        with process(port, pg_url, tmp_path / "late.log", options(prefix)):
            late = Server(f"http://127.0.0.1:{port}", None, None).client()  # type: ignore[arg-type]
            late.hello(code)
            assert late.expect("view")["log"] == said
            late.close()
        ana.close()
        watcher.close()


def test_a_take_back_on_one_server_is_played_on_the_other_and_kept_once(
    pg_url: str, prefix: str, tmp_path: Path
) -> None:
    with servers(pg_url, prefix, tmp_path, 2) as (one, two):
        bots = [{"kind": "bot", "level": "random"}] * 3
        made = one.create(
            "pocha", params={"schedule": "[3]"}, seats=[{"kind": "human"}, *bots], seed=8
        )
        code = made["code"]
        watcher = Client(open_socket(one.ws_url))
        watcher.hello(code)
        me = Client(open_socket(two.ws_url))  # the bots are driven by whichever holds the lease
        me.hello(code, made["token"])
        me.send({"type": "start"})
        offered = me.until(lambda m: m["type"] == "view" and bool(m["actions"]["buttons"]))
        me.send({"type": "act", "action": me.legal()[0], "version": offered["version"]})
        answered = me.until(lambda m: m["type"] == "view" and m["undo"] and bool(me.legal()), 30)
        me.send({"type": "undo"})
        back = me.until(lambda m: m["type"] == "view" and m["version"] > answered["version"])
        assert back["actions"] == offered["actions"] and back["table"] == offered["table"]
        seen = watcher.view_at(back["version"], 30)
        assert seen["version"] == back["version"]
        assert seen["table"]["seats"] == back["table"]["seats"]
        assert seen["log"][-1].endswith("took back their last move, and the moves after it")
        actions = stored_actions(pg_url, code)
        assert len(actions) == back["version"] and actions[-1] == (0, "undo")
        # The match goes on from there on both servers, to the same record.
        while not (me.view and me.view["result"]):
            if me.legal():
                me.send({"type": "act", "action": me.legal()[-1]})
            me.expect("view", 30)
        record = wait_for(lambda: one.get(f"/api/tables/{code}/records/0"))
        assert record == two.get(f"/api/tables/{code}/records/0")
        watcher.close()
        me.close()
