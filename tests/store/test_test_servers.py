"""The suite's own use of the shared servers (see tests/conftest.py): what a run makes is named
after its prefix and the run, and gone after the test whether it passed or not, so several runs
share one machine."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import redis
from sqlalchemy import make_url, text

import conftest
from conftest import DB_PREFIX, REDIS, REDIS_PREFIX, RUN, database_url, pg_admin, redis_keys
from webclient import free_port


def databases() -> set[str]:
    admin = pg_admin()
    try:
        with admin.connect() as c:
            return set(c.execute(text("SELECT datname FROM pg_database")).scalars())
    finally:
        admin.dispose()


def test_a_database_is_named_after_the_prefix_and_the_run_and_dropped_when_its_test_fails(
    tmp_path: Path,
) -> None:
    with (
        pytest.raises(RuntimeError, match="the test failed"),
        database_url("postgresql", tmp_path) as url,
    ):
        name = str(make_url(url).database)
        assert name.startswith(f"{DB_PREFIX}{RUN}_") and name in databases()
        raise RuntimeError("the test failed")
    assert name not in databases()


def test_redis_keys_are_named_after_the_prefix_and_the_run_and_deleted_when_their_test_fails() -> (
    None
):
    client = redis.Redis.from_url(REDIS)
    with pytest.raises(RuntimeError, match="the test failed"), redis_keys() as prefix:
        assert prefix.startswith(f"{REDIS_PREFIX}{RUN}-")
        client.set(f"{prefix}:lease:ROOM1", 1)
        client.set(f"{prefix}-staging:LIMITER/x", 1)  # a prefix made from it: gone too
        raise RuntimeError("the test failed")
    assert list(client.scan_iter(f"{prefix}*")) == []
    client.close()


def test_servers_listen_on_the_ports_given_each_a_port_nobody_listens_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        busy = int(taken.getsockname()[1])
        while not (busy + 2 < 65536 and bindable(busy + 1) and bindable(busy + 2)):
            taken.close()  # its neighbours are in use: another port
            taken = socket.create_server(("127.0.0.1", 0))
            busy = int(taken.getsockname()[1])
        monkeypatch.setenv("TAPETE_TEST_PORTS", f"{busy}-{busy + 2}")
        ports = [free_port() for _ in range(4)]
        taken.close()
    # The taken one never; the two others in turn (a test asks for several before any listens).
    assert busy not in ports and ports[0] != ports[1] and ports[:2] == ports[2:]
    assert set(ports) == {busy + 1, busy + 2}


def bindable(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("DB_PREFIX", "Ana-", "TAPETE_TEST_DB_PREFIX: 'Ana-' is not 1 to 40 lowercase letters"),
        ("DB_PREFIX", "a" * 41, "TAPETE_TEST_DB_PREFIX: 'aaaa"),
        ("REDIS_PREFIX", "ana*", "TAPETE_TEST_REDIS_PREFIX: 'ana*' has spaces or glob characters"),
        ("REDIS", "localhost:6379", "TAPETE_TEST_REDIS: 'localhost:6379' is not a redis://"),
        ("PG", make_url("mysql://db/x"), "TAPETE_TEST_PG: mysql:// is not a PostgreSQL URL"),
    ],
)
def test_a_setting_the_tests_cannot_use_is_named(
    name: str, value: object, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conftest, name, value)
    (problem,) = conftest._setting_problems()
    assert problem.startswith(says)


def test_a_port_range_the_tests_cannot_use_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAPETE_TEST_PORTS", "8699-8600")
    assert conftest._setting_problems() == [
        "TAPETE_TEST_PORTS: '8699-8600' is not a range of ports like 8600-8699"
    ]
