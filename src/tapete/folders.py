"""Where tapete keeps a person's data: one folder for the terminal's records and settings and
for the server's default SQLite database, so that one setting (``TAPETE_DATA``) moves them all.

The folder is ``TAPETE_DATA`` when set, else the platform's user data folder for tapete:
``~/.local/share/tapete`` on Linux (following ``XDG_DATA_HOME``), ``~/Library/Application
Support/tapete`` on macOS, ``%LOCALAPPDATA%\\tapete`` on Windows.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

__all__ = ["data_dir", "record_file_name", "records_dir"]


def data_dir() -> Path:
    """Where tapete keeps the person's records, settings and default database."""
    given = os.environ.get("TAPETE_DATA")
    if given:
        return Path(given)
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with the tui and web extras
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "tapete"
    # No author folder: on Windows platformdirs would otherwise nest tapete\tapete.
    return platformdirs.user_data_path("tapete", appauthor=False)


def records_dir() -> Path:
    """Where the matches people play are kept as records: ``records/`` in ``data_dir()``."""
    return data_dir() / "records"


def record_file_name(game: str, seed: int | None, when: datetime, number: int = 1) -> str:
    """The name of a record's file in ``records_dir()``, to sort by date: the game's name (of its
    spec ``game``) and the match's seed, ``number``-th of that second.

    >>> moment = datetime(2025, 1, 1, 12, 0, 0)
    >>> record_file_name("pocha(players=3)", 7, moment), record_file_name("tute", 7, moment, 2)
    ('20250101-120000-pocha-7.json', '20250101-120000-tute-7-2.json')
    """
    name = re.sub(r"[^a-z0-9_]+", "", game.split("(")[0].lower()) or "match"
    stamp = when.strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{name}-{seed}" + (f"-{number}" if number > 1 else "") + ".json"
