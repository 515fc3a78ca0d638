"""``tapete export``: the finished matches ``tapete serve`` kept, written into a folder as the
web app's download names them, each match's scores and winners, and by game how many matches
each player won of those they played; said in the user's language (``--lang``, else the
locale's), as every command is."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from tapete import record
from tapete.errors import SpecError
from tapete.i18n import tr
from tapete.narrate import isolated, recorded_name

__all__ = ["moment", "record_file", "run", "standings"]


def moment(text: str) -> datetime:
    """``--since``: an ISO date or date and time (``2026-12-05``, ``2026-12-05T19:00``), in
    this machine's time zone unless it names one."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date and time: write it as 2026-12-05 or 2026-12-05T19:00"
        ) from None
    return when if when.tzinfo else when.astimezone()


def record_file(table_id: str) -> str:
    """A finished match's file name, as the web app's download names it: ``tapete-CODE-N.json``
    for match N of table CODE.

    >>> record_file("ABCDE.0"), record_file("ABCDE")
    ('tapete-ABCDE-0.json', 'tapete-ABCDE.json')
    """
    room, dot, match = table_id.rpartition(".")
    return f"tapete-{room}-{match}.json" if dot else f"tapete-{table_id}.json"


def standings(found: Sequence[Any], lang: str = "en") -> dict[str, list[tuple[str, int, int]]]:
    """By game, each participant's ``(name, matches, wins)``, most wins first (then fewer
    matches, then the name). A bot level at several seats of a match played it once, and won
    it if one of them won, as its rating counts it. A player is named as they are called now;
    a player whose name another's reads as has the start of their id after it, as on the
    leaderboard; a bot is its level (``bot:hard``), a guest the name it sat under, said to be
    a guest in ``lang``. A name that could reorder its line (Hebrew, Arabic) comes isolated, as
    the narrator's lines have it (``tapete.narrate.isolated``)."""
    played: dict[str, dict[str, list[int]]] = {}
    called: dict[str, str] = {}
    for match in found:
        seats = record.loads(match.record).seats
        won: dict[str, bool] = {}
        for seat, (who, seat_won, name) in enumerate(
            zip(match.participants, match.won, match.names, strict=True)
        ):
            won[who] = won.get(who, False) or seat_won
            if name is not None:
                called[who] = isolated(name)
            elif who.startswith("guest:") and seat < len(seats):
                name = recorded_name(lang, seat, seats[seat].name, seats[seat].bot)
                called[who] = tr(lang, "{name} (guest)", name=isolated(name))
            else:
                called.setdefault(who, who)
        for who, did in won.items():
            tally = played.setdefault(match.game, {}).setdefault(who, [0, 0])
            tally[0] += 1
            tally[1] += did
    alike: dict[str, set[str]] = {}
    for who, name in called.items():
        alike.setdefault(name.casefold(), set()).add(who)
    shown = {
        # A guest's id is "guest:" and then its own: the start of that tells two guests apart.
        who: f"{name} ({who.removeprefix('guest:')[:6]})"
        if len(alike[name.casefold()]) > 1
        else name
        for who, name in called.items()
    }
    return {
        game: sorted(
            ((shown[who], n, wins) for who, (n, wins) in tally.items()),
            key=lambda row: (-row[2], row[1], row[0].casefold()),
        )
        for game, tally in played.items()
    }


def run(folder: str, db: str | None, since: datetime | None, lang: str) -> int:
    """Export into ``folder`` the matches finished in ``db`` (``since`` a moment, if given):
    a line a match on stdout, then the standings; how many were written, on stderr. A database
    that is not there, or holds no tables of tapete serve, is a SpecError, and nothing is made."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DatabaseError

    from tapete.store import Store, default_url

    into = Path(folder)
    if into.exists() and not into.is_dir():
        # mkdir would say "File exists" of the very file named, in Python's words.
        raise SpecError("{folder} is a file: the records are exported into a folder", folder=folder)
    url = db or default_url()
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).is_file():
        # Opening it would make an empty database, and the export would find nothing in it.
        raise SpecError("--db: there is no database at {path}", path=url.removeprefix("sqlite:///"))
    # Read as it is: the server running on it may be of another version, and migrating its
    # database under it is the server's business, not an export's.
    store = Store(url, migrate=False)
    # As the organiser wrote it (postgresql://), not as the engine's driver has it.
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        if store.revision() is None:
            raise SpecError("--db: {db} holds no tables of tapete serve", db=shown)
        found = store.finished(since)
    except DatabaseError as exc:
        # A file that is no database, one damaged, or one of a tapete whose tables differ.
        raise SpecError(
            "--db: {db} cannot be read: {why}", db=shown, why=str(exc.orig).splitlines()[0]
        ) from None
    finally:
        store.engine.dispose()
    try:
        into.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file where a folder above it should be, or no right to write
        raise SpecError(
            "{folder}: the folder cannot be made ({why})", folder=folder, why=exc.strerror
        ) from None
    for match in found:
        rec = record.loads(match.record)
        result = rec.result or {}
        scores = result.get("scores", [])
        winners = set(result.get("winners", []))
        # The names the table gave its seats (its bots, stand-ins, people without a name) are
        # in English in the record: said in the export's language, as the table said them.
        names = [isolated(recorded_name(lang, i, s.name, s.bot)) for i, s in enumerate(rec.seats)]
        seated = ", ".join(f"{name} {score}" for name, score in zip(names, scores, strict=False))
        won = ", ".join(names[s] for s in sorted(winners) if s < len(names))
        name = record_file(match.table_id)
        record.write_whole(into / name, match.record.encode())
        when = match.finished_at.astimezone().strftime("%Y-%m-%d %H:%M")
        said = tr(lang, "won: {names}", names=won or "-")
        print(f"{when}  {name:24}  {rec.game}  {seated}  {said}")
    for game, rows in standings(found, lang).items():
        print("\n" + tr(lang, "{game}: matches won, of matches played", game=game))
        for shown, played, wins in rows:
            tally = tr(lang, "{wins} of {played}", wins=f"{wins:3}", played=f"{played:<3}")
            print(f"  {tally} {shown}")
    one = len(found) == 1
    if since is None:
        told = tr(
            lang,
            "1 finished match written to {folder}"
            if one
            else "{n} finished matches written to {folder}",
            n=len(found),
            folder=str(into),
        )
    else:
        told = tr(
            lang,
            "1 finished match since {when} written to {folder}"
            if one
            else "{n} finished matches since {when} written to {folder}",
            n=len(found),
            when=f"{since.astimezone():%Y-%m-%d %H:%M}",
            folder=str(into),
        )
    print(f"\n{told}", file=sys.stderr)
    return 0
