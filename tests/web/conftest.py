"""The web tests share one real server (uvicorn on a loopback port) per session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from webclient import Server, running


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    with running() as live:
        yield live
