"""``tapete play`` with no game: the new match screen chooses the game, its options and seats."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Markdown, Select

from tapete.tui import NewMatch, TapeteApp
from tapete.tui.screens import SummaryScreen, TableScreen
from tapete.tui.setup import NewMatchScreen
from tuikit import press_a_legal_key, settle, text_of


def new_match_app(data: Path, lang: str = "en") -> TapeteApp:
    return TapeteApp(new_match=NewMatch(7), data=data, lang=lang, speed="instant", contrast=False)


async def choose_game(pilot: Pilot[None], name: str) -> None:
    """Open the game list and go down to ``name`` with the arrows, as a person does."""
    games = pilot.app.screen.query_one("#setup-game", Select)
    games.focus()
    await pilot.press("enter")
    names = [str(value) for _, value in games._options]
    steps = names.index(name) - names.index(str(games.value))
    for _ in range(abs(steps)):
        await pilot.press("down" if steps > 0 else "up")
    await pilot.press("enter")
    await pilot.pause()
    assert games.value == name


async def type_into(pilot: Pilot[None], option: str, text: str) -> None:
    field = pilot.app.screen.query_one(f"#opt-{option}", Input)
    field.focus()
    await pilot.press("end", *["backspace"] * len(field.value), *text)
    await pilot.pause()


def test_every_option_of_every_game_is_on_the_screen_with_its_default(tmp_path: Path) -> None:
    """``tapete play`` alone said "give a game to play": now each game shows each of its options,
    a yes-or-no one as a checkbox, with its default, and one seat per player."""
    import dataclasses

    import tapete
    from tapete.games import game_names

    async def go() -> None:
        app = new_match_app(tmp_path)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)
            for name in game_names():
                await choose_game(pilot, name)
                game = tapete.load(name)
                for f in dataclasses.fields(game.params):
                    field = app.screen.query_one(f"#opt-{f.name}")
                    default = getattr(game.params, f.name)
                    if isinstance(default, bool):
                        assert isinstance(field, Checkbox) and field.value == default
                    else:
                        assert isinstance(field, Input)
                        assert field.value == tapete.game.format_value(default)
                seats = app.screen.query_one("#setup-seats").query(Select)
                assert len(seats) == game.players - 1, name

    asyncio.run(go())


def test_truco_to_6_with_the_clean_deck_is_refused_naming_the_option_then_played_to_its_end(
    tmp_path: Path,
) -> None:
    """A target out of range is refused on the screen, named and with what it takes, and the
    cursor put on it; the match set up then plays to its end under those rules, and F1 says
    them."""

    async def go() -> None:
        app = new_match_app(tmp_path)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            await choose_game(pilot, "truco")
            await type_into(pilot, "target", "100")
            await type_into(pilot, "deck", "clean")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)
            said = text_of(app.screen.query_one("#setup-error"))
            assert said == (
                "points to win: target=100 is not accepted: a number of points from 2 to 99"
                " (12 by default)"
            )
            assert app.focused is app.screen.query_one("#opt-target")
            await type_into(pilot, "target", "6")
            await pilot.press("ctrl+s")
            screen = await settle(pilot)
            assert isinstance(screen, TableScreen)
            game = screen.session.game
            assert game.spec == "truco(deck=clean, target=6)"
            assert screen.session.kinds == ["human", "easy"]
            await pilot.press("f1")
            await pilot.pause()
            in_force = text_of(app.screen.query_one("#rules-in-force"))
            assert in_force == "At this table: Truco — deck: clean, points to win: 6"
            await pilot.press("escape")
            rng = random.Random(3)
            turns = 0
            while not screen.finished:
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
                turns += 1
                assert turns < 400
            assert isinstance(app.screen, SummaryScreen)
            scores = screen.session.state.scores
            assert min(scores) < 6 <= max(scores)

    asyncio.run(go())


def test_the_seats_follow_the_players_field_and_a_friend_may_share_the_terminal(
    tmp_path: Path,
) -> None:
    """Five players of Pottle draw five seats; seat 3 given to a person at this terminal and a
    seat to a hard bot, the table opens with them (Spanish screen, Spanish words)."""

    async def go() -> None:
        app = new_match_app(tmp_path, lang="es")
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            await choose_game(pilot, "pottle")
            await type_into(pilot, "players", "5")
            seats = list(app.screen.query_one("#setup-seats").query(Select))
            assert len(seats) == 4
            seats[1].value = "human"
            seats[3].value = "hard"
            await type_into(pilot, "deals", "1")
            await type_into(pilot, "extra_deals", "0")
            await pilot.press("ctrl+s")
            await pilot.pause()
            table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
            assert table.session.game.spec == "pottle(players=5, deals=1, extra_deals=0)"
            assert table.session.kinds == ["human", "easy", "human", "easy", "hard"]

    asyncio.run(go())


def test_two_options_refused_together_are_named_and_the_first_gets_the_cursor(
    tmp_path: Path,
) -> None:
    """Suits and ranks, judged together ("suits/ranks"), are no one field: both are named by
    their labels and the cursor goes to the first."""

    async def go() -> None:
        app = new_match_app(tmp_path)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            await type_into(pilot, "suits", "3")
            app.screen.query_one("#setup-game").focus()
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)
            assert text_of(app.screen.query_one("#setup-error")) == (
                "suits / ranks: suits/ranks=[3, 13] is not accepted: suits and ranks shape the"
                " French deck only (deck=french)"
            )
            assert app.focused is app.screen.query_one("#opt-suits")

    asyncio.run(go())


def test_f1_on_the_new_match_screen_shows_how_to_play_the_game_chosen(tmp_path: Path) -> None:
    from tapete import howto
    from tapete.tui.screens import RulesScreen

    async def go() -> None:
        app = new_match_app(tmp_path, lang="pt")
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            await choose_game(pilot, "tute")
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert app.screen.query_one("#rules-page", Markdown).source == howto.page("tute", "pt")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen)

    asyncio.run(go())
