"""The saved matches list (F5, and the first screen of ``tapete records``): files of the records
folder that are not records, or are damaged, are counted and named at the foot of the list
rather than left out unsaid, and none of them stops the app."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from textual.widgets import DataTable

import tapete
from tapete import record
from tapete.match import play
from tapete.tui import TapeteApp, records
from tapete.tui.screens import RecordsScreen, ReplayScreen
from tapete.tui.session import Session
from tuikit import screen_lines, text_of

DAMAGED = (
    "bad.json",
    "truncated.json",
    "other-format.json",
    "empty.json",
    "unknown-game.json",
    "corrupt.json.gz",
    "folder.json",
)


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def folder_with_damaged_files(data: Path) -> Path:
    """A records folder: one match saved, and beside it files as a crash, a full disk, an
    editor or another program leave them."""
    _, rec = play(tapete.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)
    folder = data / "records"
    good = records.save(rec, folder)
    text = record.dumps(rec)
    (folder / "bad.json").write_text("{not json", encoding="utf-8")
    (folder / "truncated.json").write_text(text[: len(text) // 2], encoding="utf-8")
    (folder / "other-format.json").write_text('{"format": "other/1"}', encoding="utf-8")
    (folder / "empty.json").write_text("", encoding="utf-8")
    unknown = {**json.loads(text), "game": "briscola"}
    (folder / "unknown-game.json").write_text(json.dumps(unknown), encoding="utf-8")
    (folder / "corrupt.json.gz").write_bytes(b"\x1f\x8b" + b"not gzip at all")
    (folder / "folder.json").mkdir()
    return good


def test_the_list_names_the_files_it_could_not_read_and_still_opens_the_rest(
    tmp_path: Path,
) -> None:
    good = folder_with_damaged_files(tmp_path)

    async def go() -> None:
        app = TapeteApp(data=tmp_path, lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, RecordsScreen)
            table = app.screen.query_one(DataTable)
            assert table.row_count == 1
            foot = " ".join(text_of(app.screen.query_one("#records-unreadable")).split())
            assert "7 files could not be read" in foot
            for name in DAMAGED:
                assert name in foot, name
            assert any("7 files could not be read" in line for line in screen_lines(app))
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            assert app.screen.replay.record == record.checked(record.read(good))

    run(go())


def test_one_unreadable_file_is_told_in_every_language(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "bad.json").write_text("{", encoding="utf-8")
    said = {}

    async def go(lang: str) -> None:
        app = TapeteApp(data=tmp_path, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            said[lang] = text_of(app.screen.query_one("#records-unreadable"))

    for lang in ("en", "es", "pt"):
        run(go(lang))
    assert said["en"].startswith("1 file could not be read")
    assert all("bad.json" in told for told in said.values())
    # The command that says why of each file, and what to do with it.
    assert all("(tapete records --plain " in told for told in said.values())
    assert len(set(said.values())) == 3, said


def test_the_listing_gives_each_unreadable_file_and_why(tmp_path: Path) -> None:
    folder_with_damaged_files(tmp_path)
    found = records.folder_records(tmp_path / "records")
    assert len(found.saved) == 1
    why = {path.name: reason for path, reason in found.unreadable}
    assert sorted(why) == sorted(DAMAGED)
    assert "not JSON" in why["bad.json"] and "briscola" in why["unknown-game.json"]
    assert not any(str(tmp_path) in reason for reason in why.values())  # the name is told apart


def test_the_listing_says_why_in_the_app_s_language(tmp_path: Path) -> None:
    folder_with_damaged_files(tmp_path)
    found = records.folder_records(tmp_path / "records", lang="es")
    why = {path.name: reason for path, reason in found.unreadable}
    assert why["empty.json"] == "está vacío: no es un registro"
    assert why["bad.json"].startswith("no es JSON: ")
    assert why["other-format.json"] == (
        "no es un registro tapete-record/1: su campo 'format' es \"other/1\""
    )
    assert why["corrupt.json.gz"].startswith("un archivo gzip dañado o incompleto (")
    assert why["unknown-game.json"].startswith("no hay ningún juego llamado 'briscola'")
    assert not any(str(tmp_path) in reason for reason in why.values())  # the name is told apart


def test_a_saved_match_the_engine_disagrees_with_is_told_in_the_app_s_language(
    tmp_path: Path,
) -> None:
    """Listed (reading a file does not replay it), then refused when opened: the notice says
    so in Spanish, around the engine's own detail."""
    _, rec = play(tapete.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)
    saved = records.save(rec, tmp_path / "records")
    doc = json.loads(saved.read_text(encoding="utf-8"))
    doc["deals"][0]["score"] = [99, 0, 0, 0]
    saved.write_text(json.dumps(doc), encoding="utf-8")
    told: list[str] = []

    async def go() -> None:
        app = TapeteApp(data=tmp_path, lang="es")
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, RecordsScreen)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, RecordsScreen)  # not opened
            told.extend(str(n.message) for n in app._notifications)

    run(go())
    assert len(told) == 1
    assert told[0].startswith("el registro no coincide con el motor del juego: deal 1: ")


def test_the_list_names_you_and_an_unfinished_match_in_the_chosen_language(
    tmp_path: Path,
) -> None:
    """The seats as the replay names them ("tú", "você"), and "unfinished" translated."""
    game = tapete.load("pocha(schedule=[1])")
    _, done = play(game, ["random"] * 4, seed=2)
    you = [record.SeatInfo("you", "human"), *done.seats[1:]]
    records.save(replace(done, seats=tuple(you)), tmp_path / "records")
    half = Session(game, ["human", "random", "random", "random"], 3).record()
    records.save(half, tmp_path / "records")
    rows = {}

    async def go(lang: str) -> None:
        app = TapeteApp(data=tmp_path, lang=lang)
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            table = app.screen.query_one(DataTable)
            rows[lang] = sorted(
                (str(table.get_row_at(i)[2]), str(table.get_row_at(i)[3]))
                for i in range(table.row_count)
            )

    for lang in ("en", "es", "pt"):
        run(go(lang))

    async def narrow() -> None:  # a long game name at 80 columns still shows the result
        app = TapeteApp(data=tmp_path, lang="pt")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "não&#160;terminada" in app.export_screenshot()

    run(narrow())
    assert done.result is not None
    scores = " ".join(str(s) for s in done.result["scores"])
    for lang, you_, unfinished in [
        ("en", "you", "unfinished"),
        ("es", "tú", "sin terminar"),
        ("pt", "você", "não terminada"),
    ]:
        names = [you_, *(s.name for s in done.seats[1:])]
        winners = ", ".join(names[w] for w in done.result["winners"])
        bots = [you_, *(s.name for s in half.seats[1:])]
        assert rows[lang] == sorted(
            [(", ".join(names), f"{winners}: {scores}"), (", ".join(bots), unfinished)]
        ), rows[lang]


def test_the_list_names_the_table_s_own_seat_names_in_the_language_as_the_replay_does(
    tmp_path: Path,
) -> None:
    """A record of the line prompt (bots "random (1)") or of a web table ("bot 3 · medium")
    kept in the folder: the list says its bots in the app's language, as its replay does."""
    game = tapete.load("pocha(schedule=[1])")
    _, done = play(game, ["random"] * 4, seed=2)
    names = ["Ana", "random (1)", "bot 3 · medium", "random (3)"]
    levels = ["random", "random", "medium", "random"]
    seats = [record.SeatInfo(n, "bot", level) for n, level in zip(names, levels, strict=True)]
    records.save(replace(done, seats=tuple(seats)), tmp_path / "records")
    listed = {
        lang: records.folder_records(tmp_path / "records", lang=lang).saved[0].seats
        for lang in ("en", "es", "pt")
    }
    assert listed["en"] == "Ana, random (1), bot 3 · medium, random (3)"
    assert listed["es"] == "Ana, al azar (1), bot 3 · medio, al azar (3)"
    assert listed["pt"] == "Ana, aleatório (1), bot 3 · médio, aleatório (3)"


KILLED_MID_WRITE = """
import os, signal, sys
from pathlib import Path
import tapete
from tapete import record
from tapete.match import play

real = os.fdopen

def fdopen(fd, mode):  # the process is killed half way through writing the file
    class Killed:
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            return None
        def write(self, data):
            os.write(fd, data[: len(data) // 2])
            os.kill(os.getpid(), signal.SIGKILL)
    return Killed()

_, rec = play(tapete.load("pocha(schedule=[1, 2])"), ["random"] * 4, seed=5)
os.fdopen = fdopen
record.write(rec, Path(sys.argv[1]))
"""


def test_a_save_killed_mid_write_leaves_the_match_before_and_nothing_damaged(
    tmp_path: Path,
) -> None:
    # kill -9 while a match's file is written over: the match as it was is still there, and
    # what the write left half done is no damaged file at the foot of the saved matches.
    _, rec = play(tapete.load("pocha(schedule=[1, 2])"), ["random"] * 4, seed=5)
    folder = tmp_path / "records"
    kept = records.save(record.cut(rec, 6), folder)
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(kept)], timeout=120)
    assert killed.returncode == -signal.SIGKILL
    assert len(list(folder.iterdir())) == 2  # the half-written file is there, hidden
    found = records.folder_records(folder)
    assert found.unreadable == []
    assert [s.path for s in found.saved] == [kept]
    assert record.read(kept) == record.cut(rec, 6)
    assert records.holding(folder, record.cut(rec, 6)) == kept
    # A listing an hour later removes what the crash left (a write takes a moment).
    (left,) = (p for p in folder.iterdir() if p != kept)
    assert left.name.startswith(".") and left.name.endswith(".tmp")
    records.folder_records(folder)
    assert left.exists()  # it might still be being written
    hour_ago = left.stat().st_mtime - records.STALE_SECONDS - 1
    os.utime(left, (hour_ago, hour_ago))
    records.folder_records(folder)
    assert list(folder.iterdir()) == [kept]


def test_settings_are_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kill mid-write (here, the write failing before it is put in place) keeps the settings
    there were, rather than an empty or half file that resets them."""
    records.save_settings(tmp_path, {"lang": "es", "speed": "fast"})

    def cut_short(*args: object) -> None:
        raise OSError("killed")

    monkeypatch.setattr(os, "replace", cut_short)
    records.save_settings(tmp_path, {"lang": "pt", "speed": "slow"})
    assert records.load_settings(tmp_path) == {"lang": "es", "speed": "fast"}
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_two_saves_of_one_match_in_the_same_second_keep_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another tapete saves the same match (same game and seed: --seed) in the same second,
    # between this one's look for a free name and its write: neither is written over.
    _, rec = play(tapete.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)
    mine, theirs = record.cut(rec, 3), record.cut(rec, 5)
    folder, when = tmp_path / "records", datetime(2025, 1, 1, 12)
    real = record.write
    raced: list[Path] = []

    def write(what: record.Record, path: Path, **options: bool) -> None:
        if not raced:
            raced.append(path)
            real(theirs, path)  # the other tapete, a moment before
        real(what, path, **options)

    monkeypatch.setattr(record, "write", write)
    path = records.save(mine, folder, when)
    assert path != raced[0]
    assert record.read(raced[0]) == theirs and record.read(path) == mine


def test_the_list_gives_dates_as_people_read_them_and_every_player_whole_at_80_columns(
    tmp_path: Path,
) -> None:
    """Each saved match says when in the app's language, short and in local time ("6 Dec
    14:05", "6 dic 14:05"), not as a file's stamp; at 80 columns each player of an eight-seat
    match is on the screen whole (the names go on to a second line rather than off the edge),
    and F2 says it all again in the next language."""
    names = ["you", "Bruno", "Carmen", "Diego", "Elena", "Fábio", "Gabi", "Hugo"]
    _, done = play(tapete.load("pocha(players=8, schedule=[1])"), ["random"] * 8, seed=2)
    seats = [record.SeatInfo("you", "human"), *done.seats[1:]]
    seats = [replace(s, name=n) for s, n in zip(seats, names, strict=True)]
    path = records.save(replace(done, seats=tuple(seats)), tmp_path / "records")
    year = datetime.now().year
    stamp = datetime(year, 12, 6, 14, 5).timestamp()  # local time
    os.utime(path, (stamp, stamp))

    async def go() -> None:
        app = TapeteApp(data=tmp_path, lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            lines = screen_lines(app)
            row = next(line for line in lines if "6 Dec 14:05" in line)
            assert "Pocha — playe…" in row  # the game cut at its end, the players not
            assert f"{year}-12-06" not in "\n".join(lines)
            for name in names[1:]:
                assert any(name in line for line in lines), (name, lines)
            assert all(len(line.rstrip()) <= 80 for line in lines)
            await pilot.press("f2")
            await pilot.pause()
            lines = screen_lines(app)
            assert any("6 dic 14:05" in line for line in lines), lines
            assert any("tú," in line for line in lines)
            assert any("F2 idioma" in line for line in lines)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)

    run(go())


def test_the_list_names_each_game_as_the_app_does_with_its_options_in_words(
    tmp_path: Path,
) -> None:
    """The game column says the game's title, not the record's spec ("oh_hell",
    "pocha(players=5, ...)"): the options that differ from the defaults follow in the app's
    language where the screen has room, cut with an ellipsis at the end where it has not, the
    title whole."""
    folder = tmp_path / "records"
    for spec in ("oh_hell(schedule=[1])", "pocha(players=5, schedule=[1])"):
        _, done = play(tapete.load(spec), ["random"] * tapete.load(spec).players, seed=2)
        records.save(done, folder)
    seen: dict[tuple[str, int], list[str]] = {}

    async def go(lang: str, width: int) -> None:
        app = TapeteApp(data=tmp_path, lang=lang)
        async with app.run_test(size=(width, 24)) as pilot:
            await pilot.pause()
            table = app.screen.query_one(DataTable)
            seen[lang, width] = sorted(str(table.get_row_at(i)[1]) for i in range(table.row_count))
            shown = "\n".join(screen_lines(app))
            assert "oh_hell" not in shown and "pocha(" not in shown, shown

    for lang in ("en", "es", "pt"):
        run(go(lang, 160))
    assert seen["en", 160] == [
        "Oh Hell — hand sizes: [1]",
        "Pocha — players: 5, hand sizes: [1]",
    ]
    assert seen["es", 160] == [
        "Oh Hell — tamaño de las manos: [1]",
        "Pocha — jugadores: 5, tamaño de las manos: [1]",
    ]
    assert seen["pt", 160][1] == "Pocha — jogadores: 5, tamanho das mãos: [1]"
    run(go("es", 80))
    for cell in seen["es", 80]:
        assert cell.startswith(("Oh Hell", "Pocha")) and cell.endswith("…"), cell
        assert cell.count("…") == 1, cell


def test_a_match_of_another_year_says_its_year() -> None:
    then = datetime(2025, 2, 28, 9, 30)
    now = datetime(2026, 12, 6)
    assert records.short_date("en", then, now) == "28 Feb 2025"
    assert records.short_date("es", then.replace(year=2026), now) == "28 feb 09:30"
    assert records.short_date("pt", then.replace(month=5, year=2026), now) == "28 mai 09:30"


def test_the_match_played_last_comes_first_as_its_date_says(tmp_path: Path) -> None:
    """A match begun before another but played on after it (kept unfinished, resumed later)
    is listed above it: the list goes by the dates it shows, not by when each began."""
    game = tapete.load("pocha(schedule=[1])")
    _, done = play(game, ["random"] * 4, seed=2)
    folder = tmp_path / "records"
    year = datetime.now().year
    begun_first = records.save(done, folder, when=datetime(year, 1, 1, 10, 0))
    begun_later = records.save(replace(done, seed=3), folder, when=datetime(year, 1, 1, 11, 0))
    for path, hour in ((begun_first, 12), (begun_later, 11)):
        stamp = datetime(year, 1, 1, hour, 30).timestamp()
        os.utime(path, (stamp, stamp))
    listed = records.folder_records(folder).saved
    assert [s.path for s in listed] == [begun_first, begun_later]
    assert [records.short_date("en", s.at) for s in listed if s.at] == [
        "1 Jan 12:30",
        "1 Jan 11:30",
    ]
