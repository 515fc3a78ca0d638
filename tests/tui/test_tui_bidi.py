"""A Hebrew or Arabic name in the terminal app: set apart (U+2068 … U+2069, as
``tapete.narrate.isolated`` does in the log) wherever it is shown beside other text, so a
terminal that lays out right-to-left text does not pull the score, the bot level or the next
name into its run (two Hebrew names side by side read as one, in swapped order)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import tapete
from tapete import record
from tapete.match import play
from tapete.tui import TapeteApp, records
from tapete.tui.screens import ReplayScreen, SummaryScreen
from tapete.tui.session import Session
from tapete.tui.widgets import OpenHands
from tuikit import screen_lines, text_of

NAMES = ["דנה", "שלום", "Ana", "نور"]
RTL = [n for n in NAMES if n != "Ana"]


def apart(name: str) -> str:
    return f"\u2068{name}\u2069"


def test_the_replay_sets_each_right_to_left_name_apart_in_seats_scores_and_hands(
    tmp_path: Path,
) -> None:
    game = tapete.load("pocha(schedule=[1, 2])")
    _, rec = play(game, ["random"] * 4, seed=4, names=NAMES)

    async def go() -> None:
        app = TapeteApp(replay=rec, data=tmp_path, lang="en")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("n", "n")  # to the end: the scores have their rows
            await pilot.pause()
            shown = "\n".join(screen_lines(app))
            seats = "\n".join(
                line for line in screen_lines(app) if "╭" in line or "┏" in line
            )  # the seat boxes' names are on their borders
            hands = text_of(screen.query_one(OpenHands))
            for name in RTL:
                assert apart(name) in seats, seats
                assert apart(name) in hands, hands
            # Latin names are left as they were: nothing to set apart.
            assert apart("Ana") not in shown and "Ana" in shown
            # The scores' heads: each name its own run ("דנה" and "שלום" side by side).
            heads = next(line for line in screen_lines(app) if apart("דנה") in line and "#" in line)
            assert apart("שלום") in heads, heads

    asyncio.run(go())


def test_the_match_summary_sets_each_right_to_left_name_apart(tmp_path: Path) -> None:
    game = tapete.load("pocha(schedule=[1])")
    session = Session(game, ["random"] * 4, 3)
    session.names = list(NAMES)
    while (turn := session.turn) is not None:
        session.push(turn, game.legal_actions(session.state)[0])
    assert session.over is not None

    async def go() -> None:
        app = TapeteApp(data=tmp_path, lang="es")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.push_screen(SummaryScreen(session, session.record(), None))
            await pilot.pause()
            lines = screen_lines(app)
            for name in RTL:
                row = next(line for line in lines if name in line)
                assert apart(name) in row, row

    asyncio.run(go())


def test_the_saved_matches_list_sets_each_right_to_left_player_apart(tmp_path: Path) -> None:
    _, done = play(tapete.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)
    seats = [replace(s, name=n) for s, n in zip(done.seats, NAMES, strict=True)]
    records.save(replace(done, seats=tuple(seats)), tmp_path / "records")
    saved = records.folder_records(tmp_path / "records").saved[0]
    assert saved.seats == ", ".join([apart("דנה"), apart("שלום"), "Ana", apart("نور")])
    record.dumps(done)  # the record itself keeps the names as they are
