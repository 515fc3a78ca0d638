"""Helpers shared by the test modules."""

from __future__ import annotations

import dataclasses
import os
import pty
import random
import select
import subprocess
import sys
import time
from collections.abc import Mapping
from typing import Any

import tapete
from tapete.game import Game


def fingerprint(obj: Any) -> Any:
    """A structural snapshot of a state or view, to prove nothing changed it."""
    if isinstance(obj, int | str | float | bool | type(None)):
        return obj
    if isinstance(obj, tapete.CardSet):
        return ("CardSet", obj.mask)
    if isinstance(obj, tuple | list):
        return (type(obj).__name__, tuple(fingerprint(x) for x in obj))
    if isinstance(obj, Mapping):
        return ("map", tuple((k, fingerprint(v)) for k, v in obj.items()))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (
            type(obj).__name__,
            tuple((f.name, fingerprint(getattr(obj, f.name))) for f in dataclasses.fields(obj)),
        )
    slots = getattr(type(obj), "__slots__", None)
    if slots is not None:
        # Slots named _x are caches of derived values, not part of the value.
        return (
            type(obj).__name__,
            tuple((s, fingerprint(getattr(obj, s))) for s in slots if not s.startswith("_")),
        )
    if hasattr(obj, "__dict__"):
        return (type(obj).__name__, tuple((k, fingerprint(v)) for k, v in vars(obj).items()))
    raise TypeError(f"cannot fingerprint {type(obj)}")


def random_playout(
    game: Game[Any, Any], seed: int, max_steps: int = 100_000
) -> list[tuple[Any, int]]:
    """Play ``game`` with uniform random legal actions; the (state, action) pairs in order."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    path: list[tuple[Any, int]] = []
    while game.current_player(state) is not None and len(path) < max_steps:
        action = rng.choice(game.legal_actions(state))
        path.append((state, action))
        state = game.apply(state, action)
    path.append((state, -1))
    return path


def at_a_terminal(*args: str, until: str, seconds: float = 60) -> str:
    """What ``tapete ARGS`` shows a person at a terminal (its input and output a pseudo-terminal),
    read until ``until`` appears or ``seconds`` pass; the program is then ended."""
    main, side = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", *args],
        stdin=side, stdout=side, stderr=side, env=env, close_fds=True,
    )  # fmt: skip
    os.close(side)
    seen = b""
    deadline = time.monotonic() + seconds
    try:
        while until.encode() not in seen and time.monotonic() < deadline:
            if select.select([main], [], [], 0.2)[0]:
                try:
                    seen += os.read(main, 65536)
                except OSError:  # the program ended and closed the terminal
                    break
    finally:
        proc.kill()
        proc.wait()
        os.close(main)
    return seen.decode(errors="replace")
