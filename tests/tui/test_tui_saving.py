"""Where the table keeps its matches: a data folder that cannot be written is told where, why and
what to do, for as long as it holds; a match in no file is never lost to ^Q without asking."""

from __future__ import annotations

import asyncio
import errno
import os
import random
from pathlib import Path

import pytest
from textual.widgets import Button, Input
from textual.widgets._toast import Toast

import tapete
from tapete import record
from tapete.tui import PlayConfig, TapeteApp
from tapete.tui.resume import QuitScreen
from tapete.tui.saving import NotSavedScreen, SaveAsScreen, failure_lines, why_of
from tapete.tui.screens import SummaryScreen, TableScreen
from tapete.tui.widgets import MessageLine
from tuikit import (
    make_app,
    play_to_the_end,
    press_a_legal_key,
    screen_lines,
    settle,
    table_screen,
    text_of,
    where_modes_hold,
)

FOUR = ["human", "random", "random", "random"]


def on_top(app: TapeteApp) -> object:
    """The screen on top now (read afresh: a test's isinstance checks narrow ``app.screen``)."""
    return app.screen


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def read_only_data(folder: Path) -> Path:
    """A data folder whose records folder exists but may not be written."""
    data = folder / "data"
    (data / "records").mkdir(parents=True)
    (data / "records").chmod(0o555)
    data.chmod(0o555)
    return data


def test_a_read_only_data_folder_is_told_at_the_end_and_the_match_saved_elsewhere() -> None:
    def scenario(folder: Path) -> None:
        data = read_only_data(folder)
        elsewhere = folder / "elsewhere"
        elsewhere.mkdir()

        async def go() -> None:
            app = make_app("pocha(schedule=[1])", FOUR, 8, data)
            rng = random.Random(2)
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await play_to_the_end(pilot, rng)
                assert isinstance(app.screen, SummaryScreen)
                told = " ".join(text_of(app.screen.query_one("#summary-not-saved")).split())
                # Where, why and what to do, on the summary itself (not a passing notice).
                assert (
                    f"could not be saved in {data / 'records'}: no permission to write there"
                    in told
                )
                assert "press s to save it in another file" in told
                assert "TAPETE_DATA" in told
                assert not app.screen.query("#summary-file")  # nothing claims it was saved
                await pilot.press("escape")
                await pilot.pause()
                assert isinstance(app.screen, TableScreen)
                assert "not saved" in text_of(screen.query_one(MessageLine))
                # ^Q does not lose it silently: it asks, and n stays at the table.
                await pilot.press("ctrl+q")
                await pilot.pause()
                assert app.is_running and isinstance(app.screen, NotSavedScreen)
                await pilot.press("n")
                await pilot.pause()
                assert app.is_running and app.screen is screen
                # s asks for a file, as typed, and writes the match there.
                await pilot.press("s")
                await pilot.pause()
                assert isinstance(app.screen, SaveAsScreen)
                suggested = app.screen.query_one(Input).value
                assert suggested.endswith(".json")
                await pilot.press("ctrl+u", *str(elsewhere / "first.json"), "enter")
                await pilot.pause()
                assert app.screen_stack[-1] is screen
                assert "saved as" in text_of(screen.query_one(MessageLine))
                saved = record.read(elsewhere / "first.json")
                assert saved.result is not None and saved == screen.session.record()
                # Kept now: ^Q quits at once.
                await pilot.press("ctrl+q")
                await pilot.pause()
                assert not app.is_running
            assert not list((data / "records").iterdir())

        run(go())

    where_modes_hold(scenario)


def test_quitting_a_match_the_data_folder_refuses_asks_what_to_do_instead() -> None:
    def scenario(folder: Path) -> None:
        data = read_only_data(folder)

        async def go() -> None:
            app = make_app("pocha(schedule=[2, 3])", FOUR, 5, data)
            rng = random.Random(1)
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await settle(pilot)
                # ^Q while the bots play, y, and n at "not saved": the bots play on.
                app.settings.speed = "normal"
                await press_a_legal_key(pilot, rng)
                assert screen.bots_running
                await pilot.press("ctrl+q")
                await pilot.pause()
                await pilot.press("y", "n")
                await pilot.pause()
                assert app.is_running and app.screen_stack[-1] is screen
                app.settings.speed = "instant"
                assert (await settle(pilot)).waiting_for_you
                await pilot.press("ctrl+q")
                await pilot.pause()
                assert isinstance(app.screen, QuitScreen)
                await pilot.press("y")  # save and quit: it cannot be saved there
                await pilot.pause()
                assert app.is_running and isinstance(app.screen, NotSavedScreen)
                why = text_of(app.screen.query_one("#not-saved-why"))
                assert str(data / "records") in why and "no permission to write there" in why
                await pilot.press("s")
                await pilot.pause()
                await pilot.press("ctrl+u", *str(folder / "half.json"), "enter")
                await pilot.pause()
                assert not app.is_running
            half = record.read(folder / "half.json")
            assert half.result is None and sum(len(d.actions) for d in half.deals) > 0

        run(go())

    where_modes_hold(scenario)


def test_a_rematch_writes_each_match_to_its_own_record_file_beside_the_one_named(
    tmp_path: Path,
) -> None:
    """``--record out.json``: the first match there, the rematch in ``out-2.json``, the next in
    ``out-3.json``; each summary says where its match went."""
    out = tmp_path / "out.json"

    async def go() -> None:
        config = PlayConfig(tapete.load("pocha(schedule=[1])"), tuple(FOUR), 8, record_path=out)
        app = TapeteApp(play=config, data=tmp_path / "data", lang="en", speed="instant")
        rng = random.Random(2)
        seeds = []
        async with app.run_test(size=(80, 24)) as pilot:
            for number in (1, 2, 3):
                screen = await settle(pilot)
                if number > 1:  # told at once where this one goes
                    said = text_of(screen.query_one(MessageLine))
                    assert f"out-{number}.json" in said, said
                screen = await play_to_the_end(pilot, rng)
                seeds.append(screen.session.seed)
                assert isinstance(app.screen, SummaryScreen)
                where = " ".join(text_of(w) for w in app.screen.query(".summary-file"))
                name = "out.json" if number == 1 else f"out-{number}.json"
                assert str(tmp_path / name) in where, where
                await pilot.press("r")
        files = [out, tmp_path / "out-2.json", tmp_path / "out-3.json"]
        kept = [record.read(path) for path in files]
        assert [rec.seed for rec in kept] == seeds and len(set(seeds)) == 3
        assert all(rec.result is not None for rec in kept)

    run(go())


def test_a_rematch_asks_before_a_match_in_no_file_is_lost() -> None:
    """``r`` on a finished match the records folder refused: n (esc) stays at the summary, d
    rematches without it; from the table, s saves it in a file named, then the rematch."""

    def scenario(folder: Path) -> None:
        data = read_only_data(folder)

        async def go() -> None:
            app = make_app("pocha(schedule=[1])", FOUR, 8, data, lang="es")
            async with app.run_test(size=(80, 24)) as pilot:
                first = await play_to_the_end(pilot, random.Random(2))
                summary = app.screen
                assert isinstance(summary, SummaryScreen)
                await pilot.press("r")
                await pilot.pause()
                assert isinstance(app.screen, NotSavedScreen)
                title = text_of(app.screen.query_one("#not-saved-title"))
                assert title == "¿revancha? esta partida no está guardada"
                labels = [str(b.label) for b in app.screen.query(Button)]
                assert labels == [
                    "s guardar en otro archivo",
                    "d revancha sin guardar",
                    "n cancelar",
                ]
                why = text_of(app.screen.query_one("#not-saved-why"))
                assert why.endswith(": no hay permiso para escribir ahí"), why
                await pilot.press("n")  # cancelled: the summary, of the same match
                await pilot.pause()
                assert on_top(app) is summary and table_screen(app) is first
                await pilot.press("escape", "r")  # from the table, as from the summary
                await pilot.pause()
                assert isinstance(app.screen, NotSavedScreen)
                await pilot.press("escape")
                await pilot.pause()
                assert on_top(app) is first and first.finished
                await pilot.press("r", "d")  # rematch without it
                second = await settle(pilot)
                assert second is not first and second.session.seed == first.session.seed + 1
                assert not second.finished and on_top(app) is second
                # The next one is saved elsewhere on the way to its rematch, and the new table
                # says where it went.
                await play_to_the_end(pilot, random.Random(3))
                await pilot.press("r", "s")
                await pilot.pause()
                assert isinstance(app.screen, SaveAsScreen)
                await pilot.press("ctrl+u", *str(folder / "second.json"), "enter")
                third = await settle(pilot)
                assert third.session.seed == second.session.seed + 1
                said = text_of(third.query_one(MessageLine))
                assert said == f"la partida anterior se guardó en {folder / 'second.json'}"
                assert record.read(folder / "second.json") == second.session.record()
            assert not list((data / "records").iterdir())

        run(go())

    where_modes_hold(scenario)


def test_a_match_the_records_folder_refused_is_told_once_at_its_end() -> None:
    """The summary says it could not be saved; no notice beside it says it again, whether the
    last move was yours (seed 8) or the refusal was first told at a move before (seed 5)."""

    def scenario(folder: Path) -> None:
        data = read_only_data(folder)

        async def go(spec: str, seed: int) -> None:
            app = make_app(spec, FOUR, seed, data)
            # Notices are shown, as at a terminal (tests leave them out unless asked).
            async with app.run_test(size=(80, 24), notifications=True) as pilot:
                await play_to_the_end(pilot, random.Random(2))
                await pilot.pause()
                assert isinstance(app.screen, SummaryScreen)
                shown = "\n".join(screen_lines(app))
                assert shown.count("no permission to write there") == 1, shown
                assert not app.screen.query(Toast)

        run(go("pocha(schedule=[1])", 8))
        run(go("pocha(schedule=[2, 1])", 5))

    where_modes_hold(scenario)


def test_why_a_match_was_not_saved_is_told_in_the_table_s_language(tmp_path: Path) -> None:
    """A data folder that is a file: the summary says the records folder cannot be made there
    in Spanish, not in the system's English."""
    data = tmp_path / "data"
    data.write_text("not a folder")

    async def go() -> None:
        app = make_app("pocha(schedule=[1])", FOUR, 8, data, "es")
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_the_end(pilot, random.Random(2))
            assert isinstance(app.screen, SummaryScreen)
            told = " ".join(text_of(app.screen.query_one("#summary-not-saved")).split())
            assert "no se pudo guardar el registro en" in told
            assert told.count(": una parte de la ruta no es una carpeta") == 1, told
            assert "Not a directory" not in told

    run(go())


def test_a_records_folder_that_is_a_file_is_told_as_such(tmp_path: Path) -> None:
    """A file named records in the data folder: the summary says a part of the path is not a
    folder, not the system's "File exists"."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "records").write_text("not a folder")

    async def go() -> None:
        app = make_app("pocha(schedule=[1])", FOUR, 8, data)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_the_end(pilot, random.Random(2))
            assert isinstance(app.screen, SummaryScreen)
            told = " ".join(text_of(app.screen.query_one("#summary-not-saved")).split())
            assert f"{data / 'records'}: a part of the path is not a folder" in told, told
            assert "File exists" not in told

    run(go())


@pytest.mark.parametrize(
    ("number", "es", "pt"),
    [
        (errno.EACCES, "no hay permiso para escribir ahí", "não há permissão para gravar ali"),
        (errno.EPERM, "no hay permiso para escribir ahí", "não há permissão para gravar ali"),
        (errno.ENOSPC, "no queda espacio en el disco", "não há espaço livre no disco"),
        (
            errno.ENOTDIR,
            "una parte de la ruta no es una carpeta",
            "uma parte do caminho não é uma pasta",
        ),
        (errno.EROFS, "el disco es de solo lectura", "o disco é somente leitura"),
        (errno.ENOENT, "la carpeta no existe", "a pasta não existe"),
        (errno.EIO, "Input/output error", "Input/output error"),  # others: as the system says
    ],
)
def test_the_common_reasons_a_write_fails_are_in_every_language(
    number: int, es: str, pt: str
) -> None:
    why = why_of(OSError(number, os.strerror(number), "records/.tmp-1.json"))
    place = Path("records")
    assert failure_lines("es", [(place, why)]) == [
        f"no se pudo guardar el registro en records: {es}"
    ]
    assert failure_lines("pt", [(place, why)])[0].endswith(f"records: {pt}")
    assert ".tmp-1" not in failure_lines("en", [(place, why)])[0]
