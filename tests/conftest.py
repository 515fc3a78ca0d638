"""Test settings and shared fixtures.

Hypothesis runs derandomized under CI so a green run stays green. Store tests run against an
SQLite file and against a real PostgreSQL server; the cluster and rate-limit tests against a real
Redis. Where they are, and how what a run makes there is named, is read from the environment, so
several runs share one machine (or one server) without meeting:

``TAPETE_TEST_PG``
    the PostgreSQL server (default ``postgresql://postgres@127.0.0.1:5432``); a database in the
    URL is the one connected to for creating and dropping the tests' own (default ``postgres``).
``TAPETE_TEST_DB_PREFIX``
    how the tests' databases are named (default ``tapete_test_``).
``TAPETE_TEST_REDIS``
    the Redis server (default ``redis://127.0.0.1:6379``).
``TAPETE_TEST_REDIS_PREFIX``
    how the tests' Redis keys are named (default ``tapete-test-``).
``TAPETE_TEST_PORTS``
    the loopback ports (``FIRST-LAST``) the tests' servers take (default: free ones the system
    picks).

Each test gets a database, or a key prefix, of its own, named after the prefix, this run (its
process id and a random part) and the test (another random part), and dropped after the test
whether it passed or not; at the end of the run whatever is still named after the run is dropped
too. Under CI a missing server is an error, elsewhere those cases are skipped. The web tests
share one real server (uvicorn on a loopback port, an SQLite file) per session:
``server``.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from sqlalchemy import URL, Engine, create_engine, make_url, text
from sqlalchemy.exc import ArgumentError

from webclient import Server, _port_range, running

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

_PG_GIVEN = os.environ.get("TAPETE_TEST_PG", "postgresql://postgres@127.0.0.1:5432")
try:
    PG = make_url(_PG_GIVEN)
except ArgumentError as exc:
    raise pytest.UsageError(f"TAPETE_TEST_PG: {_PG_GIVEN!r} is not a URL") from exc
DB_PREFIX = os.environ.get("TAPETE_TEST_DB_PREFIX", "tapete_test_")
REDIS = os.environ.get("TAPETE_TEST_REDIS", "redis://127.0.0.1:6379")
REDIS_PREFIX = os.environ.get("TAPETE_TEST_REDIS_PREFIX", "tapete-test-")
# This run's part of every name: the process id tells two runs at once apart, the random part
# two runs one after another with the same id (a container's pid 1).
RUN = f"{os.getpid()}x{secrets.token_hex(2)}"
# What this run has made, so the end of the run looks for leftovers only where there may be some.
_made: set[str] = set()


def pytest_configure(config: pytest.Config) -> None:
    """A setting the tests cannot use stops the run before any test, naming the setting."""
    if problems := _setting_problems():
        raise pytest.UsageError("; ".join(problems))


def _setting_problems() -> list[str]:
    """What is wrong with the settings above, one sentence each naming its variable.

    A database name is at most 63 bytes: the prefix leaves room for this run's and the test's
    parts. Redis prefixes are matched with SCAN's glob patterns, so they have no glob characters.
    """
    problems = []
    try:
        _port_range()
    except ValueError as exc:
        problems.append(str(exc))
    if not PG.drivername.startswith("postgresql"):
        problems.append(
            f"TAPETE_TEST_PG: {PG.drivername}:// is not a PostgreSQL URL (postgresql://…)"
        )
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,39}", DB_PREFIX):
        problems.append(
            f"TAPETE_TEST_DB_PREFIX: {DB_PREFIX!r} is not 1 to 40 lowercase letters, digits or _ "
            "(starting with a letter or _)"
        )
    if not REDIS.startswith(("redis://", "rediss://", "unix://")):
        problems.append(f"TAPETE_TEST_REDIS: {REDIS!r} is not a redis://host:port URL")
    if re.search(r"[\s*?\[\]\\]", REDIS_PREFIX) or len(REDIS_PREFIX) > 100:
        problems.append(
            f"TAPETE_TEST_REDIS_PREFIX: {REDIS_PREFIX!r} has spaces or glob characters "
            "(* ? [ ] \\) or is over 100 characters"
        )
    return problems


def _pg(database: str) -> str:
    """The URL of ``database`` on the tests' server, as ``tapete serve --db`` takes it."""
    return PG.set(drivername="postgresql", database=database).render_as_string(hide_password=False)


@pytest.fixture(autouse=True)
def _data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A person's data folder of the test's own (the matches a person plays are kept there,
    ``tapete.folders``): never the machine's, and never another test's records."""
    monkeypatch.delenv("TAPETE_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands speak the locale's language when no --lang is given: the tests run in a
    locale of no language of tapete's, whatever the machine's, so English is what they read."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def pg_admin() -> Engine:
    """The tests' server, connected to the database it creates and drops theirs from."""
    return create_engine(
        PG.set(drivername="postgresql+psycopg", database=PG.database or "postgres"),
        isolation_level="AUTOCOMMIT",
    )


def _drop_databases(admin: Engine, names: Iterable[str]) -> None:
    with admin.connect() as c:
        for name in names:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@contextmanager
def database_url(kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database of ``kind`` (``sqlite`` or ``postgresql``) for one test, dropped after
    (also when the test fails). A PostgreSQL one is named ``TAPETE_TEST_DB_PREFIX``, this run,
    and a random part: no other test, nor another run at the same time, has it."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'tapete.db'}"
        return
    name = f"{DB_PREFIX}{RUN}_{secrets.token_hex(4)}"
    admin = pg_admin()
    try:
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # any failure to reach the server
        admin.dispose()
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no PostgreSQL server at {_shown(PG)}: {exc}")
    _made.add("postgresql")  # not before: where there is no server, the end of the run asks none
    try:
        yield _pg(name)
    finally:
        try:
            _drop_databases(admin, [name])
        finally:
            admin.dispose()


@contextmanager
def redis_keys() -> Iterator[str]:
    """A key prefix of one test's own in the tests' Redis (``TAPETE_TEST_REDIS_PREFIX``, this
    run, a random part); every key starting with it is deleted after the test, also when it
    fails. Skipped where there is no Redis, an error under CI."""
    import redis

    prefix = f"{REDIS_PREFIX}{RUN}-{secrets.token_hex(4)}"
    client = redis.Redis.from_url(REDIS)
    try:
        client.ping()
    except redis.RedisError as exc:
        client.close()
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Redis server at {REDIS}: {exc}")
    _made.add("redis")
    try:
        yield prefix
    finally:
        try:
            _delete_keys(client, prefix)
        finally:
            client.close()


def _delete_keys(client: Any, prefix: str) -> None:
    keys = list(client.scan_iter(f"{prefix}*", count=500))
    for i in range(0, len(keys), 500):
        client.delete(*keys[i : i + 500])


@pytest.fixture(scope="session", autouse=True)
def _nothing_left_behind() -> Iterator[None]:
    """At the end of the run, whatever is still named after it (a database a test made again
    after dropping it, keys a server wrote after its test cleaned up) is dropped: the run leaves
    nothing behind, passed or failed. Only what this run made: another's names differ."""
    yield
    if "postgresql" in _made:
        admin = pg_admin()
        try:
            with admin.connect() as c:
                names = c.execute(text("SELECT datname FROM pg_database")).scalars().all()
            _drop_databases(admin, [n for n in names if n.startswith(f"{DB_PREFIX}{RUN}_")])
        finally:
            admin.dispose()
    if "redis" in _made:
        import redis

        with redis.Redis.from_url(REDIS) as client:
            _delete_keys(client, f"{REDIS_PREFIX}{RUN}-")


def _shown(url: URL) -> str:
    return url.render_as_string(hide_password=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, tmp_path) as url:
        yield url


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The web app served for real on a loopback port, for the whole session, its rooms kept
    in a temporary SQLite file as ``tapete serve`` keeps them."""
    from tapete.web.app import open_store

    folder = tmp_path_factory.mktemp("server")
    # The coach's reviews at a small budget: a short match is reviewed in a second or two.
    with running(open_store(f"sqlite:///{folder / 'tapete.db'}"), review_iterations=20) as live:
        yield live
