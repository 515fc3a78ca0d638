"""``tapete play`` with no game: the new match screen chooses the game, its options and seats."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Markdown, Select

from tapete.tui import NewMatch, TapeteApp
from tapete.tui.screens import SummaryScreen, TableScreen
from tapete.tui.setup import NewMatchScreen
from tuikit import fully_visible, press_a_legal_key, settle, text_of


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


def test_f2_switches_the_language_as_at_the_table_and_keeps_what_the_fields_hold(
    tmp_path: Path,
) -> None:
    """F2, named in the keys line as at the table, draws the screen in the next language; the
    game, the options typed and the seats chosen stay as they were, and so does a refusal,
    said again in the new language."""

    async def go() -> None:
        app = new_match_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert fully_visible(app, "F1 rules  F2 language")
            await choose_game(pilot, "pottle")
            await type_into(pilot, "players", "5")
            list(app.screen.query_one("#setup-seats").query(Select))[1].value = "human"
            await type_into(pilot, "deals", "0")
            await pilot.press("ctrl+s")
            await pilot.pause()
            await pilot.press("f2")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NewMatchScreen)
            assert app.settings.lang == "es"
            assert text_of(screen.query_one("#setup-title")) == "Partida nueva"
            assert fully_visible(app, "F1 reglas  F2 idioma")
            assert screen.query_one("#setup-game", Select).value == "pottle"
            assert screen.query_one("#opt-players", Input).value == "5"
            assert screen.query_one("#opt-deals", Input).value == "0"
            seats = [s.value for s in screen.query_one("#setup-seats").query(Select)]
            assert seats == ["easy", "human", "easy", "easy"]
            assert text_of(screen.query_one("#setup-error")).startswith(
                "repartos: deals=0 no se acepta"
            )
            assert app.focused is screen.query_one("#opt-deals")

    asyncio.run(go())


def test_a_second_match_opens_on_the_choices_of_the_last_one(tmp_path: Path) -> None:
    """The game, the options and the seats a match was started with are what ``tapete play``
    opens on the next time, from the app's settings file, beside its language (an option
    left empty, its default)."""
    import json

    import tapete
    from tapete.game import format_value

    async def start(pilot: Pilot[None]) -> None:
        app = pilot.app
        await choose_game(pilot, "pottle")
        await type_into(pilot, "players", "5")
        list(app.screen.query_one("#setup-seats").query(Select))[1].value = "human"
        list(app.screen.query_one("#setup-seats").query(Select))[3].value = "hard"
        await type_into(pilot, "deals", "1")
        await type_into(pilot, "extra_deals", "")  # left empty: the default
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert any(isinstance(s, TableScreen) for s in app.screen_stack)

    async def again() -> None:
        app = new_match_app(tmp_path)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NewMatchScreen)
            assert screen.query_one("#setup-game", Select).value == "pottle"
            assert screen.query_one("#opt-players", Input).value == "5"
            assert screen.query_one("#opt-deals", Input).value == "1"
            extra = tapete.load("pottle").params.extra_deals
            assert screen.query_one("#opt-extra_deals", Input).value == format_value(extra)
            seats = [s.value for s in screen.query_one("#setup-seats").query(Select)]
            assert seats == ["easy", "human", "easy", "hard"]
            await pilot.press("ctrl+s")
            await pilot.pause()
            table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
            assert table.session.game.spec == "pottle(players=5, deals=1)"
            assert table.session.kinds == ["human", "easy", "human", "easy", "hard"]

    async def first() -> None:
        app = new_match_app(tmp_path)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            await start(pilot)

    asyncio.run(first())
    kept = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert kept["lang"] == "en" and kept["new_match"]["game"] == "pottle"
    asyncio.run(again())


@pytest.mark.parametrize(
    "entry",
    [
        "pottle",
        {"game": "briscola", "options": {}, "seats": []},
        {"game": ["pottle"]},
        {"game": "pottle", "options": {"players": "12"}, "seats": ["easy"] * 11},
        {"game": "pottle", "options": {"players": 5, "colour": "red"}, "seats": "easy"},
        {"game": "pottle", "options": ["players"], "seats": [None, {"a": 1}, "grandmaster"]},
    ],
)
def test_a_damaged_or_outdated_last_match_opens_on_the_defaults(
    tmp_path: Path, entry: object
) -> None:
    """What another version of tapete, or a damaged settings file, left as the last match is
    set aside, whole or in part, for the defaults: the screen opens and a match starts."""
    import json

    import tapete

    (tmp_path / "settings.json").write_text(
        json.dumps({"lang": "en", "new_match": entry}), encoding="utf-8"
    )

    async def go() -> None:
        app = new_match_app(tmp_path)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NewMatchScreen)
            name = str(screen.query_one("#setup-game", Select).value)
            assert screen.query_one("#opt-players", Input).value == "4"
            seats = [s.value for s in screen.query_one("#setup-seats").query(Select)]
            assert seats == ["easy"] * 3
            await pilot.press("ctrl+s")
            await pilot.pause()
            table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
            assert table.session.game.spec == tapete.load(name).spec

    asyncio.run(go())
