"""The table for people without colour or a large terminal: the signs that carry a card's
legality without colour, and a clear word when the terminal is too small for the table."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from textual.widgets import Button, Static

from tapete.tui.resume import QuitScreen
from tapete.tui.screens import SummaryScreen, TableScreen
from tuikit import (
    cards_on_screen,
    fully_visible,
    make_app,
    play_to_the_end,
    screen_lines,
    settle,
    table_screen,
    text_of,
)

FOUR = ["human", "random", "random", "random"]


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def key_line(screen: TableScreen) -> list[str]:
    """The line above each card of your hand, as drawn."""
    return [text_of(c).split("\n")[0].strip() for c in cards_on_screen(screen)]


def test_legal_cards_and_the_selected_one_are_told_apart_without_colour(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("pocha(schedule=[5])", FOUR, 1, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            # Bidding: no card can be played, so no line of keys above them.
            assert all("\n" not in text_of(c) for c in cards_on_screen(screen))
            assert screen.query_one("#hand").size.height == 1
            while not any(c.has_class("-illegal") and c.key for c in cards_on_screen(screen)):
                legal = screen.session.game.legal_actions(screen.session.state)
                screen.act(legal[0])
                screen = await settle(pilot)
                assert not screen.finished, "the seed never left a card you may not play"
            cards = cards_on_screen(screen)
            for card, sign in zip(cards, key_line(screen), strict=True):
                lit = card.has_class("-legal")
                assert sign == (f"[{card.key}]" if lit else card.key), (card.card, sign)
            await pilot.press("right")
            assert key_line(screen)[0] == f"›{key_line(screen)[0][1:-1]}‹"
            marked = [s.startswith("›") for s in key_line(screen)]
            assert marked == [True] + [False] * (len(marked) - 1)

    run(go())


def test_a_terminal_too_small_says_so_and_plays_nothing_until_it_fits(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("pocha(schedule=[2])", FOUR, 1, tmp_path, lang="es")
        async with app.run_test(size=(60, 20)) as pilot:
            screen = await settle(pilot)
            said = screen.query_one("#too-small", Static)
            assert said.display and "80x24" in text_of(said) and "60x20" in text_of(said)
            assert "tapete play --plain" in text_of(said)
            assert not any(w.display for w in screen.children if w is not said)
            steps = len(screen.session.steps)
            await pilot.press("1", "h", "u")
            await pilot.pause()
            assert len(screen.session.steps) == steps and screen.waiting_for_you
            assert screen.message == ""  # no hint was asked for either
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not said.display
            assert all(c.region.right <= 80 and c.region.bottom <= 24 for c in screen.children)
            await pilot.press("1")
            await pilot.pause()
            assert len(screen.session.steps) > steps

    run(go())


def test_f1_and_question_mark_list_every_key_of_the_table_in_its_language(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        app = make_app("poch(rounds=1)", FOUR, 1, tmp_path, lang="pt")
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            for key in ("f1", "question_mark"):
                await pilot.press(key)
                await pilot.pause()
                listed = text_of(app.screen.query_one("#rules-key-list", Static))
                assert listed.strip().startswith("Teclas na mesa")
                assert "desfazer sua última jogada" in listed
                for named in ("← →", "Enter", "- +", "^Z", "F5", "^Q", "[1]"):
                    assert named in listed, named
                await pilot.press("escape")
                await pilot.pause()
                assert isinstance(app.screen, TableScreen)

    run(go())


def test_ctrl_c_at_the_table_asks_before_leaving_as_ctrl_q_does(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("pocha(schedule=[2])", FOUR, 1, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            await pilot.press("0")
            await settle(pilot)
            assert screen.session.steps
            await pilot.press("ctrl+c")
            await pilot.pause()
            asked = app.screen
            assert isinstance(asked, QuitScreen)
            await pilot.press("n")
            await pilot.pause()
            assert table_screen(app) is app.screen and app.is_running

    run(go())


def test_the_quit_question_keeps_every_choice_whole_on_a_narrow_terminal(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("pocha(schedule=[2])", FOUR, 1, tmp_path, lang="es")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            await pilot.press("0")
            await settle(pilot)
            await pilot.resize_terminal(40, 15)
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()
            asked = app.screen
            assert isinstance(asked, QuitScreen)
            buttons = list(asked.query(Button))
            assert len(buttons) == 3
            for button in buttons:  # each within the screen, its words in full
                assert button.region.x >= 0 and button.region.right <= 40, button.label
                assert button.region.width >= len(str(button.label)), button.label
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert len({b.region.y for b in buttons}) == 1  # room again: one row
            await pilot.press("n")
            await pilot.pause()
            assert app.screen is table_screen(app) and screen.session.steps

    run(go())


def test_the_end_of_match_summary_keeps_its_keys_in_view_on_a_small_terminal(
    tmp_path: Path,
) -> None:
    """At 40 x 15 the summary had more rows than the screen: its keys line (esc close) was cut
    off. Its body scrolls now, under a keys line always in view."""

    async def go() -> None:
        app = make_app("pocha(schedule=[1])", FOUR, 8, tmp_path)
        rng = random.Random(2)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_the_end(pilot, rng)
            await pilot.resize_terminal(40, 15)
            await pilot.pause()
            summary = app.screen
            assert isinstance(summary, SummaryScreen)
            for name in ("r rematch", "v replay", "esc close"):
                assert fully_visible(app, name), "\n".join(screen_lines(app))
            assert not fully_visible(app, "saved as")
            # The rest is there to scroll to, by keys: the last line of the body comes into view.
            await pilot.press("tab", "end")
            await pilot.pause()
            assert fully_visible(app, "saved as"), screen_lines(app)
            assert fully_visible(app, "esc close")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)

    run(go())


def test_the_end_of_match_summary_widens_for_the_file_the_match_went_to(tmp_path: Path) -> None:
    """The box was 60 columns whatever the screen: a record's path, longer, went on in the
    middle of its name on the next line. At 120 columns the box is as wide as the line."""

    async def go() -> None:
        app = make_app("pocha(schedule=[1])", FOUR, 8, tmp_path)
        rng = random.Random(2)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await play_to_the_end(pilot, rng)
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen) and screen.saved_to is not None
            line = f"saved as {screen.saved_to}"
            assert len(line) > 60 - 6
            assert fully_visible(app, line), "\n".join(screen_lines(app))
            for name in ("r rematch", "v replay", "esc close"):
                assert fully_visible(app, name)

    run(go())
