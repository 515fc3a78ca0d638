"""Many seats and long names at the table: eight seats at 80x24, names up to the longest a
table takes (``tapete.web.seating.MAX_NAME``) and in other scripts (Hebrew and Arabic, set apart;
Chinese and Japanese, two columns a character). Every box keeps its name or the start of it,
its facts and its dealer's mark between its side borders; the scores name every seat by the
start of its name; the rules page (F1) names every seat whole."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.widget import Widget

import tapete
from tapete.i18n import tr
from tapete.match import play
from tapete.present import isolated
from tapete.tui import TapeteApp
from tapete.tui.screens import ReplayScreen, SceneScreen
from tapete.tui.widgets import ScoreBoard, SeatsRow
from tapete.web.seating import MAX_NAME
from tuikit import cells, make_app, screen_lines, settle, text_of

NAMES = [
    "Maximiliano Rodríguez Gó",  # the longest a table takes
    "Bartholomew Fitzgeraldson"[:MAX_NAME],
    "山田太郎山田花子",  # sixteen columns
    "דנה כהן לוי אברהם",
    "نور الهدى عبد الرحمن",
    "李小龙",
    "Ana",
    "Zé",
]
SIDES = "│┃"


def _first(name: str, width: int) -> str:
    """The start of ``name`` that fits ``width`` columns, a wide character whole or not at all."""
    out = ""
    for char in name:
        if cell_len(out + char) > width:
            break
        out += char
    return out.rstrip()


def _box_rows(app: object, box: Widget) -> list[str]:
    region = box.region
    lines = screen_lines(app)
    return [cells(lines[y], region.x, region.right) for y in range(region.y, region.bottom)]


def _check_seats(app: object, screen: SceneScreen, names: list[str], lang: str) -> None:
    """Each box: its borders in their columns on every row (a wide character moved none), its
    name on its top border whole, else the start of it on its first row; its facts' numbers;
    the dealer's mark whole on its bottom border, else in its text (cut short only where the
    word is longer than the box)."""
    assert screen.scene is not None
    table = screen.scene.table
    boxes = list(screen.query_one(SeatsRow).children)
    dealer = tr(lang, "dealer")
    for box, facts, name in zip(boxes, table.seats, names, strict=True):
        rows = _box_rows(app, box)
        where = (name, rows)
        width = box.region.width - 2  # a box may have a column more than its row's share
        for row in rows:
            assert row[0] in SIDES + "╭┏╰┗" and row[-1] in SIDES + "╮┓╯┛", where
        top = rows[0]
        if top[0] in SIDES:
            assert _first(name, width - 2) in top, where
        else:
            assert f" {isolated(name)}" in top and "…" not in top, where
        if facts.dealer:
            marked = next((r for r in rows if _first(dealer, width - 2) in r), None)
            assert marked is not None, where
            if marked[0] not in SIDES:
                assert f" {dealer}" in marked and "…" not in marked, where
        for fact in facts.lines:
            number = fact.rsplit(" ", 1)[-1]
            assert any(row.rstrip(SIDES + " ").endswith(number) for row in rows), (fact, where)


def _check_scores(app: object, screen: SceneScreen, names: list[str]) -> None:
    """The scores' head: every seat's column, in seat order, headed by the start of its name
    (four columns of it at least), each total under the heads."""
    board = screen.query_one(ScoreBoard)
    rows = _box_rows(app, board)
    head = rows[1]
    at = 0
    for name in names:
        start = _first(name, 4)
        found = head.find(start, at)
        assert found >= 0, (name, start, rows)
        at = found + len(start)
    assert "…" not in head, rows
    totals = next(row for row in rows if "Σ" in row)
    assert len(totals.split("Σ")[1].split()) == len(names), rows


async def _check_rules_page(app: TapeteApp, pilot: object, names: list[str]) -> None:
    """F1: every seat's name whole."""
    await pilot.press("f1")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    seats = text_of(app.screen.query_one("#rules-seats"))
    for name in names:
        assert name in seats, seats
    await pilot.press("escape")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


GAMES = [
    "pocha(players=8, max_players=8, schedule=[1, 2])",
    "oh_hell(players=7, schedule=[1, 2])",
    "pottle(players=7, deals=1)",
    "poch(players=6, max_rounds=1)",
    "pocha(players=5, schedule=[1, 2])",
    "pocha(schedule=[1, 2])",
    "pocha(players=3, schedule=[1, 2])",
    "tute",
]


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
@pytest.mark.parametrize("spec", GAMES)
def test_every_seat_s_name_facts_and_dealer_stay_readable_with_long_and_wide_names(
    spec: str, size: tuple[int, int], tmp_path: Path
) -> None:
    """A replay of a match among long names (as a web table records them), at its start and
    at its end: eight seats at 80 columns had "dea…" on a box's border and the scores "B…",
    a wide name's column pushing the last seat's out of the scores."""
    game = tapete.load(spec)
    _check_replay(game, NAMES[: game.players], size, tmp_path)


def _check_replay(
    game: tapete.Game[Any, Any], names: list[str], size: tuple[int, int], tmp_path: Path
) -> str:
    """A replay of a random match among ``names``: every box at its start and at its end, the
    scores and the rules page (the checks above); the screen as drawn at the end."""
    _, rec = play(game, ["random"] * game.players, seed=3, names=names)

    async def go() -> str:
        app = TapeteApp(replay=rec, data=tmp_path, lang="en")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            _check_seats(app, screen, names, "en")
            screen.move(screen.replay.length)
            await pilot.pause()
            await pilot.pause()  # the boxes drawn anew
            _check_seats(app, screen, names, "en")
            _check_scores(app, screen, names)
            drawn = "\n".join(screen_lines(app))
            await _check_rules_page(app, pilot, names)
            return drawn

    return asyncio.run(go())


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_eight_seats_at_80x24_show_the_dealer_s_mark_in_its_box_not_on_its_border(
    lang: str, tmp_path: Path
) -> None:
    """At the table, eight seats at 80x24, in each language: the dealer's box says so on a row
    of its text; every seat's name heads its scores' column."""
    seats = ["human"] + ["easy"] * 7

    async def go() -> None:
        app = make_app("pocha(players=8, schedule=[1, 2])", seats, 3, tmp_path, lang)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            names = screen.session.table_names(lang)
            _check_seats(app, screen, names, lang)
            _check_scores(app, screen, names)
            row = screen.query_one(SeatsRow)
            assert row.region.height == 5  # the log keeps its rows
            assert screen.scene is not None
            dealer = next(b.seat for b in screen.scene.table.seats if b.dealer)
            rows = _box_rows(app, row.children[dealer])
            marked = [r for r in rows if tr(lang, "dealer")[:6] in r]
            assert len(marked) == 1 and marked[0][0] in SIDES and marked[0][-1] in SIDES, rows
            assert not set(marked[0]) & set("─━╰╯┗┛"), rows  # not on a border line

    asyncio.run(go())


def test_names_that_read_as_markup_are_drawn_as_typed(tmp_path: Path) -> None:
    """A web table takes any name: one that Textual's markup would read (or fail to read, as
    ``[/b]`` alone, which stopped the table) is drawn as typed on its box, over its scores, on
    the rules page and in the log (an action in one, ``@click``, is no link)."""
    names = ["[/b]Ed", "[b]Bo[/b]", "[@click=app.quit]Cy[/]"]
    drawn = _check_replay(
        tapete.load("pocha(players=3, schedule=[1, 2])"), names, (120, 40), tmp_path
    )
    assert all(name in drawn for name in names)
