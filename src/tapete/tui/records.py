"""Finished matches kept as records in the user's data folder, and the person's settings.

The folder is ``tapete.folders.data_dir()``: ``TAPETE_DATA`` when set, else the platform's user
data folder for tapete (``~/.local/share/tapete`` on Linux); records go in ``records/``.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tapete import record
from tapete.errors import Phrase, RecordError
from tapete.folders import data_dir, record_file_name
from tapete.games import load as load_game
from tapete.i18n import error_text, phrase_text, tr
from tapete.narrate import isolated, printable, record_you, recorded_name
from tapete.present import game_words

__all__ = [
    "Listing",
    "Saved",
    "data_dir",
    "file_name",
    "folder_records",
    "holding",
    "listing",
    "load_settings",
    "numbered",
    "ours",
    "same_file",
    "save",
    "save_settings",
    "short_date",
]


def file_name(rec: record.Record, when: datetime | None = None, number: int = 1) -> str:
    """The name of ``rec``'s file, to sort by date: ``20250101-120000-pocha-7.json`` (the
    ``number``-th of that second: ``...-7-2.json``)."""
    return record_file_name(rec.game, rec.seed, when or datetime.now(), number)


def save(rec: record.Record, folder: Path, when: datetime | None = None) -> Path:
    """Write ``rec`` into a new file of ``folder``, named by ``file_name``."""
    folder.mkdir(parents=True, exist_ok=True)
    when = when or datetime.now()
    number = 1
    while True:
        path = folder / file_name(rec, when, number)
        try:  # never over another's: two tapetes may save the same match in the same second
            record.write(rec, path, exclusive=True)
        except FileExistsError:
            number += 1
            continue
        return path


def numbered(path: Path, number: int) -> Path:
    """The file of the ``number``-th match written to ``path`` (a record holds one match):
    ``path`` itself for the first, then ``-2``, ``-3``... before its extension, which a ``.gz``
    keeps (``out-2.json``, ``out-2.json.gz``).

    >>> [numbered(Path("out.json.gz"), n).name for n in (1, 2)]
    ['out.json.gz', 'out-2.json.gz']
    """
    if number <= 1:
        return path
    gz = ".gz" if path.name.endswith(".gz") else ""
    base = path.name[: len(path.name) - len(gz)]
    stem, dot, extension = base.rpartition(".")
    if not stem:  # no extension (or a name that is one, ``.out``)
        stem, dot, extension = base, "", ""
    return path.with_name(f"{stem}-{number}{dot}{extension}{gz}")


@dataclass(frozen=True)
class Saved:
    """A saved match as the records list shows it: ``when`` as a script reads it
    (``2026-12-06 14:05``), ``at`` as a date to word for a person (``short_date``); ``game``
    as the record's spec (``pocha(players=8)``), ``title`` as the app names the game in the
    list's language, with the options that differ from its defaults in words
    (``tapete.present.game_words``: ``Pocha — jugadores: 8``)."""

    path: Path
    when: str
    game: str
    seats: str
    result: str
    at: datetime | None = None
    title: str = ""


def short_date(lang: str, when: datetime, now: datetime | None = None) -> str:
    """``when`` as a person reads it in ``lang``, short: the day, the month's short name and
    the time this year (``6 Dec 14:05``, ``6 dic 14:05``), the year instead of the time
    another year (``28 Feb 2025``).

    >>> short_date("pt", datetime(2026, 2, 6, 9, 5), now=datetime(2026, 12, 6))
    '6 fev 09:05'
    >>> short_date("en", datetime(2025, 12, 31, 23, 59), now=datetime(2026, 1, 1))
    '31 Dec 2025'
    """
    month = tr(lang, "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec").split()[when.month - 1]
    if when.year == (now or datetime.now()).year:
        return f"{when.day} {month} {when:%H:%M}"
    return f"{when.day} {month} {when.year}"


@dataclass(frozen=True)
class Listing:
    """What the records folder holds: the saved matches, and the files in it that could not
    be read as records, each with why (the file's name apart: ``not JSON: ...``), and in
    ``told`` the whole sentence naming the file (``x.json is empty, not a record``)."""

    saved: list[Saved]
    unreadable: list[tuple[Path, str]]
    told: dict[Path, str] = field(default_factory=dict)


def folder_records(folder: Path, limit: int = 200, lang: str = "en") -> Listing:
    """The saved matches, the last played first (by the date the list shows: a match begun
    before another but played on after it comes first), one entry a match: an unfinished save
    that another record in the folder goes on with (resumed, then saved again or finished) is
    left out, as it can no longer be resumed as the match it was. A file that is not a record
    (damaged, cut short, another format, a game this tapete does not know) is in
    ``unreadable``. The seats are named in ``lang`` as the replay names them: the person who
    played at this terminal "you", a bot by its level in that language."""
    if not folder.is_dir():
        return Listing([], [])
    _sweep(folder)
    read, unreadable, told = [], [], {}
    for path in _files(folder)[:limit]:
        try:
            rec = record.read(path)
            game = load_game(rec.game)  # cheap, where replaying every record would not be
            when = datetime.fromtimestamp(path.stat().st_mtime)  # local time
        except (RecordError, OSError, ValueError) as exc:
            unreadable.append((path, _reason(exc, path, lang)))
            told[path] = _sentence(exc, path, lang)
            continue
        read.append((path, rec, when, game))
    out = []
    for index, (path, rec, when, game) in enumerate(read):
        if rec.result is None and any(
            goes_on(other, rec, index < at)
            for at, (_, other, _, _) in enumerate(read)
            if at != index
        ):
            continue
        you = record_you(rec)
        names = [
            # recorded_name already shows a name's control characters as their escapes; each
            # set apart, or two Hebrew names side by side read in the wrong order
            isolated(
                printable(s.name.replace("you", tr(lang, "you"), 1))
                if i == you
                else recorded_name(lang, i, s.name, s.bot)
            )
            for i, s in enumerate(rec.seats)
        ]
        result = tr(lang, "unfinished")
        if rec.result is not None:
            winners = ", ".join(names[w] for w in rec.result.get("winners", ()) if w < len(names))
            result = f"{winners}: {' '.join(str(s) for s in rec.result.get('scores', ()))}"
        stamp = when.strftime("%Y-%m-%d %H:%M")
        title = game_words(lang, game)
        out.append(Saved(path, stamp, rec.game, ", ".join(names), result, when, title))
    out.sort(key=lambda saved: saved.at or datetime.min, reverse=True)  # stable: ties by name
    return Listing(out, unreadable, told)


STALE_SECONDS = 3600.0  # a file is written in a moment: one this old was left by a crash


def _sweep(folder: Path) -> None:
    """Remove the hidden files a crash left half written (``record.write_whole``'s
    ``.NAME.x1y2.tmp``) once they are an hour old: the file each was to replace is whole."""
    now = time.time()
    for path in folder.glob(".*.tmp"):
        with contextlib.suppress(OSError):  # gone meanwhile, or not ours to remove
            if now - path.stat().st_mtime > STALE_SECONDS:
                path.unlink()


def _files(folder: Path) -> list[Path]:
    """The record files of ``folder``, newest first: not the hidden ones, which are records
    being written (or left half written by a crash: the record they were to replace is whole)."""
    return sorted((p for p in folder.glob("*.json*") if not p.name.startswith(".")), reverse=True)


def listing(folder: Path, limit: int = 200) -> list[Saved]:
    """The saved matches of ``folder_records``, without the files it could not read."""
    return folder_records(folder, limit).saved


def _reason(exc: Exception, path: Path, lang: str = "en") -> str:
    """Why ``path`` is not a record, in ``lang``, without its name (said beside it)."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    phrase = exc.phrase if isinstance(exc, RecordError) else None
    if phrase is not None and phrase.text == record.IN_FILE and phrase.fields["file"] == str(path):
        why = phrase.fields["why"]  # "x.json: why": the why
        return phrase_text(lang, why) if isinstance(why, Phrase) else str(why)
    # Every language names the file first where a sentence names it ("x.json está vacío").
    said = error_text(lang, exc)
    return said.removeprefix(str(path)).lstrip(":").strip() or said


def _sentence(exc: Exception, path: Path, lang: str) -> str:
    """Why ``path`` is not a record, in ``lang``, as a sentence that names it: the record's
    own error where it names the file (``x.json is empty, not a record``), else ``x.json:``
    and why (a game this tapete does not know, a file the system would not read)."""
    if isinstance(exc, RecordError):
        said = error_text(lang, exc)
        if str(path) in said:
            return said
    return tr(lang, record.IN_FILE, file=path, why=_reason(exc, path, lang))


def goes_on(later: record.Record, earlier: record.Record, tie: bool = False) -> bool:
    """Whether ``later`` is the match of ``earlier`` played on: the same game, seed and decks,
    its moves beginning with all of ``earlier``'s, and more of them or a result. ``tie``: also
    when the two are the same (of two copies of one save, one stands for both)."""
    if (later.game, later.seed) != (earlier.game, earlier.seed):
        return False
    if len(later.deals) < len(earlier.deals):
        return False
    for before, after in zip(earlier.deals, later.deals, strict=False):
        if (before.deck, before.dealer) != (after.deck, after.dealer):
            return False
    moves = [a for d in earlier.deals for a in d.actions]
    more = [a for d in later.deals for a in d.actions]
    if more[: len(moves)] != moves:
        return False
    return len(more) > len(moves) or (later.result is not None) or tie


def holding(folder: Path, rec: record.Record, source: Path | None = None) -> Path | None:
    """The unfinished save of ``folder`` that holds the match of ``rec`` stopped where it
    stops (the save a match was resumed from, or a copy of it), if any: going on with the
    match writes over it, so it is listed once. ``source``: the file ``rec`` was resumed
    from, which holds it also when cut short by a crash (``rec`` is what of it replays)."""
    if not folder.is_dir():
        return None
    for path in _files(folder):
        try:
            saved = record.read(path)
        except (RecordError, OSError, ValueError):
            if source is None or not same_file(path, source):
                continue
            found = record.salvage_file(path)
            if found is None:
                continue
            saved = found[0]
        if saved.result is None and goes_on(saved, rec, True) and goes_on(rec, saved, True):
            return path
    return None


def same_file(one: Path, other: Path) -> bool:
    """Whether ``one`` and ``other`` name one file (not when either is gone)."""
    try:
        return one.samefile(other)
    except OSError:
        return False


def holds(path: Path, rec: record.Record) -> bool:
    """Whether ``path`` holds the match of ``rec`` stopped where ``rec`` stops (not a file
    that is gone or damaged, unlike ``ours``)."""
    try:
        saved = record.read(path)
    except (RecordError, OSError, ValueError):
        return False
    return goes_on(saved, rec, True) and goes_on(rec, saved, True)


def ours(path: Path, rec: record.Record) -> bool:
    """Whether the match that stopped at ``rec`` may write over ``path``: the file holds that
    match as ``rec`` stops, or no match at all (gone, damaged). Not when another tapete has
    since written its own moves there (the same save resumed twice at once)."""
    try:
        saved = record.read(path)
    except (RecordError, OSError, ValueError):
        return True
    return goes_on(saved, rec, True) and goes_on(rec, saved, True)


def load_settings(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(folder: Path, settings: dict[str, Any]) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Whole or not at all: a kill mid-write keeps the settings there were.
        record.write_whole(folder / "settings.json", json.dumps(settings, indent=2).encode())
    except OSError:
        pass  # settings are a convenience: a read-only home must not stop a game
