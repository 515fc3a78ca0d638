"""Test settings and shared fixtures.

Hypothesis runs derandomized under CI so a green run stays green. Store tests run against an
SQLite file and against a real PostgreSQL server, reached at ``TAPETE_TEST_PG`` (default
``postgresql://postgres@127.0.0.1:5432``); each test gets a database of its own, dropped
afterwards. Under CI a missing server is an error, elsewhere the PostgreSQL cases are skipped.
The web tests share one real server (uvicorn on a loopback port, an SQLite file) per session:
``server``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import Engine, create_engine, text

from webclient import Server, running

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

PG = os.environ.get("TAPETE_TEST_PG", "postgresql://postgres@127.0.0.1:5432")


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands speak the locale's language when no --lang is given: the tests run in a
    locale of no language of tapete's, whatever the machine's, so English is what they read."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _pg_admin() -> Engine:
    return create_engine(
        PG.replace("postgresql://", "postgresql+psycopg://") + "/postgres",
        isolation_level="AUTOCOMMIT",
    )


@contextmanager
def database_url(kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database of ``kind`` (``sqlite`` or ``postgresql``) for one test, dropped after."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'tapete.db'}"
        return
    name = f"tapete_test_{secrets.token_hex(6)}"
    try:
        admin = _pg_admin()
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # any failure to reach the server
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no PostgreSQL server at {PG}: {exc}")
    try:
        yield f"{PG}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


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
