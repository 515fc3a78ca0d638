"""Where tapete keeps a person's data: one folder for the terminal's records and settings and
for the server's default SQLite database, so that one setting (``TAPETE_DATA``) moves them all.

The folder is ``TAPETE_DATA`` when set, else the platform's user data folder for tapete:
``~/.local/share/tapete`` on Linux (following ``XDG_DATA_HOME``), ``~/Library/Application
Support/tapete`` on macOS, ``%LOCALAPPDATA%\\tapete`` on Windows.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir"]


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
