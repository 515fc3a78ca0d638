"""The table's features from the keyboard: an illegal attempt, a hint, undo, the language, the
rules, the records list, a replay stepped through, rematch, high contrast and resizing."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from textual.widgets import DataTable, Markdown

import tapete
from tapete import bots, record
from tapete.cards import format_card
from tapete.i18n import tr
from tapete.match import play
from tapete.present import card_glyph
from tapete.tui import TapeteApp
from tapete.tui.screens import RecordsScreen, ReplayScreen, RulesScreen, SummaryScreen
from tapete.tui.session import Session
from tapete.tui.widgets import (
    ActionButton,
    InfoPanel,
    KeyBar,
    LogView,
    MessageLine,
    OpenHands,
    TitleBar,
    TrickArea,
)
from tuikit import (
    cards_on_screen,
    legal_keys_on_screen,
    make_app,
    play_to_the_end,
    press_a_legal_key,
    screen_lines,
    settle,
    table_screen,
    text_of,
)

POCHA = "pocha(schedule=[1, 3])"
FOUR = ["human", "random", "random", "random"]


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def test_an_illegal_card_shows_the_rule_and_changes_nothing(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("pocha(schedule=[1, 5])", FOUR, 1, tmp_path)
        rng = random.Random(0)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            # While bidding, a card chosen with the arrows and Enter is refused.
            assert screen.session.game.format_action(
                screen.session.game.legal_actions(screen.session.state)[0]
            ).startswith("bid")
            steps = len(screen.session.steps)
            await pilot.press("right", "enter")
            message = text_of(screen.query_one(MessageLine))
            assert message.startswith(tr("en", "not allowed: {why}", why=""))
            assert len(screen.session.steps) == steps
            # In play, pressing the key of a card you may not play names the rule.
            refused = 0
            while not screen.finished and not refused:
                illegal = [c for c in cards_on_screen(screen) if c.key and c.has_class("-illegal")]
                if illegal:
                    state = screen.session.state
                    card = illegal[0]
                    why = screen.session.game.why_illegal(state, f"play {card.card}")
                    assert why is not None
                    await pilot.press(card.key)
                    assert str(why) in text_of(screen.query_one(MessageLine))
                    assert screen.session.state is state
                    refused += 1
                else:
                    await press_a_legal_key(pilot, rng)
                    screen = await settle(pilot)
            assert refused

    run(go())


def test_a_digit_past_your_hand_says_there_is_no_such_card_on_your_turn(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app(POCHA, FOUR, 11, tmp_path)
        rng = random.Random(0)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            while not any(c.has_class("-legal") for c in cards_on_screen(screen)):
                await press_a_legal_key(pilot, rng)  # the bid
                screen = await settle(pilot)
            assert len(cards_on_screen(screen)) < 9 and screen.waiting_for_you
            state = screen.session.state
            await pilot.press("9")
            assert text_of(screen.query_one(MessageLine)) == tr("en", "no card {n}", n=9)
            assert screen.session.state is state
            app.settings.lang = "es"
            await pilot.press("9")
            assert text_of(screen.query_one(MessageLine)) == "no hay carta 9"
            # While the bots are moving, a digit is too early.
            screen.bots_running = True
            await pilot.press("9")
            assert text_of(screen.query_one(MessageLine)) == tr("es", "wait for your turn")

    run(go())


def test_a_key_for_a_move_not_legal_now_says_the_rule(tmp_path: Path) -> None:
    """Truco's ``t`` (raise) when the rules forbid a raise now, its button not on the screen:
    the message line gives the rule's sentence and nothing changes. A key that stands for no
    move in the game says so."""

    async def go() -> None:
        app = make_app("truco(target=2)", ["human", "easy"], 3, tmp_path)
        rng = random.Random(0)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            refused = 0
            while not screen.finished and not refused:
                scene = screen.scene
                assert scene is not None
                state = screen.session.state
                why = screen.session.game.why_illegal(state, "raise")
                if why is not None and "t" not in scene.key_map():
                    await pilot.press("t")
                    message = text_of(screen.query_one(MessageLine))
                    assert message == tr("en", "not allowed: {why}", why=str(why))
                    assert screen.session.state is state
                    refused += 1
                else:
                    await press_a_legal_key(pilot, rng)
                    screen = await settle(pilot)
            assert refused
            await pilot.press("z")
            assert text_of(screen.query_one(MessageLine)) == tr("en", "no key {key} here", key="z")
            app.settings.lang = "pt"
            await pilot.press("z")
            assert text_of(screen.query_one(MessageLine)) == "a tecla z não faz nada aqui"

    run(go())


def test_minus_and_plus_with_no_amount_to_choose_say_so(tmp_path: Path) -> None:
    """``-`` and ``+`` step an amount past nine (Poch's bets); at a Pocha bid, where there is
    none, they said nothing at all: now they are told as any key that is no move here."""

    async def go() -> None:
        app = make_app("pocha(schedule=[3])", ["human", "random", "random", "random"], 0, tmp_path)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            line = screen.query_one(MessageLine)
            steps = len(screen.session.steps)
            await pilot.press("minus")
            assert text_of(line) == tr("en", "no key {key} here", key="-")
            await pilot.press("plus")
            assert text_of(line) == tr("en", "no key {key} here", key="+")
            assert len(screen.session.steps) == steps

    run(go())


def test_enter_with_no_card_chosen_says_what_to_do(tmp_path: Path) -> None:
    """Enter plays the chosen card; with none chosen it did nothing and said nothing. At a bid
    it is no move; at a card to play it says to choose one first."""

    async def go() -> None:
        app = make_app("pocha(schedule=[3])", ["human", "random", "random", "random"], 0, tmp_path)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            line = screen.query_one(MessageLine)
            app.set_focus(None)  # Enter on a focused button presses it
            await pilot.press("enter")
            assert text_of(line) == tr("en", "no key {key} here", key="Enter")
            while screen.scene is not None and not any(c.legal for c in screen.scene.cards):
                await press_a_legal_key(pilot, random.Random(0))
                screen = await settle(pilot)
            steps = len(screen.session.steps)
            app.set_focus(None)
            await pilot.press("enter")
            assert text_of(line) == tr("en", "choose a card first: its key, or ← and →")
            assert len(screen.session.steps) == steps

    run(go())


def test_a_number_past_the_bids_says_the_rule(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app(POCHA, FOUR, 11, tmp_path)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            state = screen.session.state
            assert screen.scene is not None and "9" not in screen.scene.key_map()
            why = screen.session.game.why_illegal(state, "bid 9")
            assert why is not None
            await pilot.press("9")
            message = text_of(screen.query_one(MessageLine))
            assert message == tr("en", "not allowed: {why}", why=str(why))
            assert screen.session.state is state

    run(go())


def test_the_mouse_plays_a_card_and_presses_a_button(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app(POCHA, FOUR, 6, tmp_path)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            steps = len(screen.session.steps)
            button = screen.query(ActionButton).first()
            await pilot.click(button)
            screen = await settle(pilot)
            assert screen.session.steps[steps].seat == 0
            while not any(c.has_class("-legal") for c in cards_on_screen(screen)):
                await press_a_legal_key(pilot, random.Random(0))
                screen = await settle(pilot)
            card = next(c for c in cards_on_screen(screen) if c.has_class("-legal"))
            mine = len([s for s in screen.session.steps if s.seat == 0])
            await pilot.click(card)
            screen = await settle(pilot)
            assert len([s for s in screen.session.steps if s.seat == 0]) == mine + 1

    run(go())


def test_a_hint_names_a_move_and_marks_it(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app(POCHA, FOUR, 2, tmp_path)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await pilot.press("h")
            for _ in range(200):
                await pilot.pause(0.01)
                if screen.hinted is not None:
                    break
            assert screen.hinted in screen.session.game.legal_actions(screen.session.state)
            message = text_of(screen.query_one(MessageLine))
            assert message.startswith(tr("en", "hint: {action}", action=""))
            marked = list(screen.query(".-hinted"))
            assert len(marked) == 1

    run(go())


def test_a_game_without_hints_says_so(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("pottle(players=3, deals=1, extra_deals=0)", FOUR[:3], 1, tmp_path)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await pilot.press("h")
            for _ in range(200):
                await pilot.pause(0.01)
                message = text_of(screen.query_one(MessageLine))
                if message and message != tr("en", "thinking…"):
                    break
            hinted = screen.hinted is not None
            assert hinted or message == tr("en", "no hint for this game yet")

    run(go())


def test_undo_takes_back_your_last_move_and_the_bots_after_it(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app(POCHA, FOUR, 5, tmp_path)
        rng = random.Random(1)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await pilot.press("u")
            assert text_of(screen.query_one(MessageLine)) == tr("en", "nothing to undo")
            before = screen.session.state
            hand = [c.card for c in cards_on_screen(screen)]
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            await press_a_legal_key(pilot, rng)  # the bid, then a card: two moves
            screen = await settle(pilot)
            middle = screen.session.state
            await pilot.press("u")
            await pilot.pause()
            assert screen.session.state is not middle
            await pilot.press("u")
            await pilot.pause()
            assert screen.session.state is before  # states are values: the very same one
            assert [c.card for c in cards_on_screen(screen)] == hand
            assert text_of(screen.query_one(MessageLine)) == tr("en", "your last move is undone")
            assert legal_keys_on_screen(screen)

    run(go())


def test_undo_before_your_first_move_lets_the_bots_play_on(tmp_path: Path) -> None:
    """``u`` while the bots open the match has nothing to undo: it says so and the bots go on
    to your turn (they were stopped for good, and the table waited forever)."""

    async def go() -> None:
        app = make_app("pocha(schedule=[2])", FOUR, 1, tmp_path)
        # At the normal pace the three bids before yours take two seconds: a busy machine's
        # slow first frame does not see them all made before the key is pressed.
        app.settings.speed = "normal"
        async with app.run_test() as pilot:
            await pilot.pause()
            screen = table_screen(app)
            assert screen.bots_running  # seed 1: Bruno bids first
            await pilot.press("u")
            assert text_of(screen.query_one(MessageLine)) == tr("en", "nothing to undo")
            for _ in range(400):
                await pilot.pause(0.05)
                if screen.waiting_for_you:
                    break
            assert screen.waiting_for_you
            screen = await settle(pilot)
            assert legal_keys_on_screen(screen)

    run(go())


def test_the_language_switch_redraws_every_word(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app(POCHA, FOUR, 3, tmp_path)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            title = screen.query_one(TitleBar)
            assert tr("en", "your turn") in text_of(title)
            for lang in ("es", "pt", "en"):
                await pilot.press("f2")
                await pilot.pause()
                assert app.settings.lang == lang
                assert tr(lang, "your turn") in text_of(title)
                assert tr(lang, "hint") in text_of(screen.query_one(KeyBar))
                buttons = [str(b.label) for b in screen.query(ActionButton)]
                assert all(tr(lang, "bid {n}", n="") in label for label in buttons)
            # The choice is kept for next time.
            assert TapeteApp(data=tmp_path).settings.lang == "en"

    run(go())


def test_rules_records_replay_and_rematch(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("pocha(schedule=[1])", FOUR, 8, tmp_path)
        rng = random.Random(2)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert "Pocha" in app.screen.query_one(Markdown).source
            await pilot.press("escape")
            screen = await play_to_the_end(pilot, rng)
            assert isinstance(app.screen, SummaryScreen)
            # An Enter meant for the last card, pressed once more, leaves the result up.
            await pilot.press("enter", "space")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen) and screen.session.steps
            await pilot.press("escape")
            await pilot.press("f5")
            await pilot.pause()
            assert isinstance(app.screen, RecordsScreen)
            rows = app.screen.query_one(DataTable)
            assert rows.row_count == 1
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            await pilot.press("escape", "escape")
            await pilot.pause()
            assert table_screen(app) is screen and len(app.screen_stack) == 2
            seed = screen.session.seed
            app.push_screen(SummaryScreen(screen.session, screen.session.record(), None))
            await pilot.pause()
            await pilot.press("r")
            again = await settle(pilot)
            assert again is not screen and again.session.seed == seed + 1

    run(go())


def test_the_match_in_play_is_not_replayed_with_every_hand_open(tmp_path: Path) -> None:
    """F5 in the middle of a match lists it (it is kept as it is played), but Enter on it says
    it is the match in play rather than open a replay showing the bots' hands; once it is
    over, it opens."""

    async def go() -> None:
        app = make_app("pocha(schedule=[2])", FOUR, 3, tmp_path)
        rng = random.Random(1)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            assert not screen.finished and screen.kept is not None
            await pilot.press("f2", "f5")  # in Spanish
            await pilot.pause()
            assert isinstance(app.screen, RecordsScreen)
            assert app.screen.query_one(DataTable).row_count == 1
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, RecordsScreen)
            said = [n.message for n in app._notifications]
            told = "this is the match you are playing: its replay opens once it is over"
            assert said == [tr("es", told)] and tr("es", told) != told
            await pilot.press("escape")
            await pilot.pause()
            screen = await play_to_the_end(pilot, rng)
            await pilot.press("escape", "f5")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)

    run(go())


class Broken:
    """A bot with a bug: every decision raises."""

    name = "medium"

    def choose(self, view: object, legal: Sequence[int], rng: random.Random) -> int:
        raise AssertionError("this bot cannot see its hand")


def test_a_failing_bot_has_a_random_legal_move_played_for_it_and_you_are_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load = bots.load
    monkeypatch.setattr(bots, "load", lambda name: Broken() if name == "medium" else load(name))
    said = "failed to choose a move: a random legal move was played for it"

    async def go() -> None:
        app = make_app(
            "pocha(schedule=[1, 2])", ["human", "medium", "random", "random"], 3, tmp_path
        )
        rng = random.Random(1)
        told: list[bool] = []  # each of your turns: whether the line says a move was played for it
        async with app.run_test() as pilot:
            screen = await play_to_the_end(
                pilot, rng, lambda at: told.append(said in text_of(at.query_one(MessageLine)))
            )
            moves = [s for s in screen.session.steps if s.seat == 1]
            assert len(moves) >= 4 and sum(told) >= 2
            # Its saved record marks each of those moves as a stand-in's, and only those:
            # tapete analyze does not take them for the bot's own play.
            rec = screen.session.record()
            marks = record.stand_in_marks(rec)
            seats = [seat for d in rec.deals for seat, _ in d.actions]
            assert marks == [seat == 1 for seat in seats]
            # Saved mid-match and resumed at the terminal, the marks stay with its moves.
            kinds = screen.session.kinds
            half = record.cut(rec, len(seats) - 1)
            again = Session(screen.session.game, kinds, rec.seed or 0, resume=half)
            assert record.stand_in_marks(again.record()) == marks[:-1]

    run(go())


def test_a_replay_steps_through_tricks_and_deals_with_every_hand_open(tmp_path: Path) -> None:
    game = tapete.load("pocha(schedule=[2, 3])")
    _, rec = play(game, ["random"] * 4, seed=4, names=["Ana", "Bruno", "Carmen", "Diego"])
    path = tmp_path / "match.json"
    record.write(rec, path)

    async def go() -> None:
        app = TapeteApp(replay=record.read(path), data=tmp_path, lang="en")
        async with app.run_test() as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            total = sum(len(d.actions) for d in rec.deals)
            title = screen.query_one(TitleBar)
            assert f"step 0 of {total}" in text_of(title)
            hands = text_of(screen.query_one(OpenHands))
            for name, dealt in zip(
                ["Ana", "Bruno", "Carmen", "Diego"], rec.deals[0].hands, strict=True
            ):
                line = next(line for line in hands.splitlines() if line.startswith(name))
                assert sorted(line.split()[1:]) == sorted(dealt)
            await pilot.press("right")
            assert f"step 1 of {total}" in text_of(title)
            _, action = rec.deals[0].actions[0]
            assert action.split()[-1] in text_of(screen.query_one(MessageLine))
            await pilot.press("down")  # to the first trick taken
            trick = next(e for e in rec.deals[0].events if e["type"] == "trick")
            winner = rec.seats[trick["winner"]].name
            assert f"{winner} takes the trick" in text_of(screen.query_one(TrickArea))
            await pilot.press("n")  # the next deal
            first_of_second = len(rec.deals[0].actions)
            assert f"step {first_of_second} of {total}" in text_of(title)
            assert "Pocha — hand 2 of 2  ·  " in text_of(title)  # the hand as its table said it
            await pilot.press("left", "p")
            assert "Pocha — hand 1 of 2  ·  " in text_of(title)
            await pilot.press("end")
            assert f"step {total} of {total}" in text_of(title)
            log = screen.query_one(LogView).lines_text
            assert any("match over" in line for line in log)

    run(go())


@pytest.mark.parametrize("spec", ["truco(target=2)", "truco(players=4, target=2)"])
def test_the_replay_of_a_blind_mao_de_ferro_shows_every_hand_face_up(
    spec: str, tmp_path: Path
) -> None:
    """At one point each (the target is 2) the hand is played blind: nobody sees his own cards
    while it is played, but the replay, like every other hand's, shows them all face up."""
    game = tapete.load(spec)
    _, rec = play(game, ["easy"] * game.players, seed=0)
    # The deal played by position ("play 1"): the cards nobody saw.
    iron = next(d for d, deal in enumerate(rec.deals) if (deal.actions[0][1] == "play 1"))
    names = [s.name for s in rec.seats]

    def hands_shown(screen: ReplayScreen) -> dict[str, list[str]]:
        lines = text_of(screen.query_one(OpenHands)).splitlines()
        return {n: next(ln for ln in lines if ln.startswith(n))[len(n) :].split() for n in names}

    async def go() -> None:
        app = TapeteApp(replay=rec, data=tmp_path, lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            for _ in range(iron):
                await pilot.press("n")
            assert f"hand {iron + 1}  ·  " in text_of(screen.query_one(TitleBar))
            assert "mão de ferro" in text_of(screen.query_one(InfoPanel))
            dealt = rec.deals[iron].hands
            shown = hands_shown(screen)
            for seat, name in enumerate(names):
                assert sorted(shown[name]) == sorted(card_glyph(c, "french") for c in dealt[seat])
            # A blind card played: it is on the table, and no longer in its player's hand.
            seat, _ = rec.deals[iron].actions[0]
            await pilot.press("right")
            on_table = text_of(screen.query_one(TrickArea))
            gone = next(c for c in shown[names[seat]] if c not in hands_shown(screen)[names[seat]])
            assert gone in on_table and len(hands_shown(screen)[names[seat]]) == 2

    run(go())


def test_high_contrast_and_resizing(tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("truco(target=2)", ["human", "random"], 1, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            await pilot.press("f4")
            assert app.theme == "tapete-contrast" and app.has_class("-contrast")
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            assert screen.query_one(LogView).size.height > 6
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert all(w.region.right <= 80 for w in cards_on_screen(screen))
            await pilot.press("f3")
            assert app.settings.speed == "fast"
            assert table_screen(app) is screen

    run(go())


def test_every_key_label_and_speed_has_its_translations() -> None:
    from textual.binding import Binding

    from tapete.i18n import catalog
    from tapete.tui.screens import ReplayScreen, SummaryScreen, TableScreen
    from tapete.tui.session import SPEEDS

    words = set(SPEEDS)
    for screen in (TableScreen, ReplayScreen, SummaryScreen):
        words |= {b.description for b in screen.BINDINGS if isinstance(b, Binding) and b.show}
    for lang in ("es", "pt"):
        missing = sorted(w for w in words if w and w not in catalog(lang))
        assert missing == [], (lang, missing)


def test_r_reviews_the_replayed_match_and_each_step_says_how_its_decision_compares(
    tmp_path: Path,
) -> None:
    game = tapete.load("pocha(players=3, schedule=[2])")
    _, rec = play(game, ["random", "medium", "easy"], seed=6, names=["Ana", "Bruno", "Carmen"])

    async def go() -> None:
        app = TapeteApp(replay=rec, data=tmp_path, lang="en")
        async with app.run_test() as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("r")
            await app.workers.wait_for_complete()
            await pilot.pause()
            reviewed = screen.replay.review
            assert reviewed  # every decision with a choice has its review
            first = min(reviewed)
            for _ in range(first + 1):
                await pilot.press("right")
            message = text_of(screen.query_one(MessageLine))
            assert "review: " in message
            lost = reviewed[first].loss
            assert ("better" in message) == (lost > 0)

    asyncio.run(go())


def test_the_review_names_the_better_move_as_its_button_in_the_language() -> None:
    from tapete.coach import Reviewed
    from tapete.tui.session import Replay

    game = tapete.load("pocha(players=3, schedule=[2])")
    _, rec = play(game, ["random", "medium", "easy"], seed=6)
    replay = Replay(rec)
    replay.review = {2: Reviewed(0, 0, 1, "bid 2", "bid 1", 3.25, 0.5, "mistake", ())}
    # Each language's own decimal mark: a comma in Spanish and Portuguese.
    assert replay.review_line(2, "es") == "análisis: mejor pedir 1, -3,2 puntos (error)"
    assert replay.review_line(2, "pt").startswith("análise: melhor pedir 1, -3,2 pontos")
    assert replay.review_line(2, "en").startswith("review: better bid 1, -3.2 points")
    # A stand-in's move is said to be one, not graded as the player's mistake.
    stood = Reviewed(0, 0, 1, "bid 2", "bid 1", 3.25, 0.5, "mistake", (), stand_in=True)
    good = dataclasses.replace(stood, loss=0.0, best="bid 2", verdict="")
    replay.review = {2: stood, 3: good}
    assert replay.review_line(2, "en") == "review: better bid 1, -3.2 points (played by a stand-in)"
    assert replay.review_line(2, "es").endswith("-3,2 puntos (jugada por un sustituto)")
    assert replay.review_line(3, "pt").endswith("(jogada por um substituto)")


@pytest.mark.parametrize(
    ("lang", "hard", "easy"),
    [
        ("en", "searches sampled deals for about half a second a move", "a casual player"),
        ("es", "busca en repartos simulados durante cerca de medio segundo", "jugador ocasional"),
        ("pt", "busca em distribuições simuladas por cerca de meio segundo", "jogador casual"),
    ],
)
def test_each_bot_s_seat_says_what_its_level_does(
    tmp_path: Path, lang: str, hard: str, easy: str
) -> None:
    async def go() -> None:
        app = make_app(
            "pocha(schedule=[1])", ["human", "hard", "easy", "random"], 3, tmp_path, lang
        )
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settle(pilot)
            tips = [str(w.tooltip or "") for w in screen.query("#seats .seat")]
            assert tips[0] == ""  # your own seat: no level to explain
            assert hard in tips[1] and easy in tips[2] and tips[3]

    asyncio.run(go())


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "truco! asks 3 for the hand: if they run, your side scores 1"),
        ("es", "¡truco! pide 3 por la mano: si corren, tu lado suma 1"),
        ("pt", "truco! pede 3 pela mão: se correrem, seu lado marca 1"),
    ],
)
def test_the_table_says_what_a_decision_means_where_it_is_made(
    lang: str, said: str, tmp_path: Path
) -> None:
    """Under the buttons, what they do: a newcomer need not know that a truco asks 3 and that
    the other side may run from it. A refusal or a hint takes the line while it is said."""

    async def go() -> None:
        app = make_app("truco", ["human", "random"], 3, tmp_path, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            line = screen.query_one(MessageLine)
            assert text_of(line) == said
            await pilot.press("z")  # no move here: said instead, the explanation back after
            assert text_of(line) != said
            await pilot.press("t")
            await settle(pilot)

    run(go())


def test_a_long_explanation_is_wrapped_whole_where_the_table_has_rows_to_spare(
    tmp_path: Path,
) -> None:
    """80 columns, 30 rows: the explanation wraps onto a second line. At 80x24 too, as the hand
    draws no row of keys while no card can be played, and the log and the keys stay in sight."""

    async def go() -> None:
        app = make_app("pottle", ["human", "random", "random", "random"], 3, tmp_path, "pt")
        async with app.run_test(size=(80, 30)) as pilot:
            screen = await settle(pilot)
            line = screen.query_one(MessageLine)
            said = text_of(line)
            assert said.startswith("pedir: as vazas que você fará;") and len(said) > 80
            assert line.size.height == 2 and line.region.right <= 80
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            assert line.size.height == 2
            keys = screen.query_one(KeyBar)
            assert keys.region.bottom <= 24 and screen.query_one(LogView).region.height >= 4

    run(go())


def test_a_number_in_what_a_decision_means_stays_with_its_word(tmp_path: Path) -> None:
    # At 120 columns in Portuguese, "seis! pede 6 pela mão: se correrem, seu lado marca 3" left
    # the 3 alone on the message's second line.
    async def play() -> None:
        app = make_app("truco(target=3)", ["human", "random"], 5, tmp_path, "pt")
        rng = random.Random(5)
        wrapped = 0
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(40):
                screen = await settle(pilot)
                if screen.finished:
                    break
                message = screen.query_one(MessageLine)
                shown = [
                    line.strip()
                    for line in screen_lines(app)[message.region.y : message.region.bottom]
                ]
                wrapped += len(shown) > 1
                lone = [line for line in shown if line.strip("()[].,;:!?+-·").isdecimal()]
                assert not lone, shown
                await press_a_legal_key(pilot, rng)
        assert wrapped, "no message long enough to wrap"

    asyncio.run(play())


@pytest.mark.parametrize(
    ("spec", "seats", "lang"),
    [
        ("pottle(players=3, deals=1)", ["human", "random", "random"], "es"),
        ("pottle(players=3, deals=1)", ["human", "random", "random"], "pt"),
        ("pocha", ["human", "random", "random", "random"], "pt"),
    ],
)
def test_a_bids_meaning_is_read_whole_at_80x24(
    spec: str, seats: list[str], lang: str, tmp_path: Path
) -> None:
    # Pottle's bid, "... and wins the pot (3) only by taking exactly that many", lost its end at
    # 80x24 in Spanish and Portuguese: the hand kept a blank row for keys no card had.
    async def play() -> None:
        app = make_app(spec, seats, 1, tmp_path, lang)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            explain = screen.scene.explain  # type: ignore[union-attr]
            assert explain, "no bid on offer"
            words = " ".join(line.strip() for line in screen_lines(app))
            assert explain in words, "\n".join(screen_lines(app))

    asyncio.run(play())


@pytest.mark.parametrize(
    ("spec", "seed", "size", "score"),
    [
        ("truco(players=4, target=3)", 2, (80, 24), "puntos"),
        ("tute(players=4)", 1, (120, 40), "cómo se puntuó"),
    ],
)
def test_a_number_in_the_log_stays_with_its_word(
    spec: str, seed: int, size: tuple[int, int], score: str, tmp_path: Path
) -> None:
    # In Spanish, "puntos de la mano: equipo 1 +0, equipo 2 +6" left the "+6" alone on the
    # log's next row at 80x24, and Tute's "... 82 en cartas + 10 de últimas = 92" its 10 at
    # 120x40 (the log wrapped at 80 columns, not its own width, off a terminal).
    async def play() -> None:
        seats = ["human", "random", "random", "random"]
        app = make_app(spec, seats, seed, tmp_path, "es")
        rng = random.Random(seed)
        scores = 0
        async with app.run_test(size=size) as pilot:
            for _ in range(60):
                screen = await settle(pilot)
                if screen.finished:  # the summary, as wide as its file's line, over the log
                    await pilot.press("escape")
                    await pilot.pause()
                box = screen.query_one(LogView).region
                rows = [
                    row[box.x : box.right].strip("│ ▁▂▃▄▅▆▇█")
                    for row in screen_lines(app)[box.y + 1 : box.bottom - 1]
                ]
                lone = [row for row in rows if row.strip("()[].,;:!?+-·").isdecimal()]
                assert not lone, rows
                scores += any(row.startswith(score) for row in rows)
                if screen.finished:
                    break
                await press_a_legal_key(pilot, rng)
        assert scores, "no score in the log"

    asyncio.run(play())


def test_people_sharing_the_terminal_are_handed_it_behind_a_curtain(tmp_path: Path) -> None:
    """Two people and a bot: after one moves, the next one's hand showed at once, to the one
    who had just played. A curtain now covers the table, naming whose turn it is, until Enter;
    while it is up no card of anyone's is on the screen."""
    from tapete.tui.screens import HandOverScreen

    spec = "pocha(players=3, schedule=[2])"
    app = make_app(spec, ["human", "human", "random"], 1, tmp_path, lang="es")
    rng = random.Random(0)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            handed = set()
            while not screen.finished:
                await pilot.pause()
                turn = screen.session.turn
                assert turn is not None
                if turn != screen.session.handed_to:
                    curtain = app.screen
                    assert isinstance(curtain, HandOverScreen), (turn, screen_lines(app))
                    risen = curtain  # as a HandOverScreen: the checks below narrow curtain
                    drawn = "\n".join(screen_lines(app))
                    assert f"jugador {turn + 1}, es tu turno" in drawn
                    state = screen.session.state
                    hands = [screen.session.game.observe(state, s).hand for s in (0, 1)]
                    glyphs = [card_glyph(format_card(c), "spanish") for h in hands for c in h]
                    assert glyphs and not any(glyph in drawn for glyph in glyphs)
                    await pilot.press("1")  # no move through the curtain
                    assert app.screen is curtain
                    if turn not in handed:  # the first time: a doubled Enter does not lift it
                        # as if it had just risen: on a busy machine the checks above may take
                        # longer than SETTLE, after which an Enter rightly lifts it
                        risen._risen = time.monotonic()
                        await pilot.press("enter", "enter")
                        assert app.screen is curtain
                    await pilot.pause(HandOverScreen.SETTLE)
                    await pilot.press("enter")
                    await pilot.pause()
                    handed.add(turn)
                assert app.screen is screen and screen.session.handed_to == turn
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
            assert handed == {0, 1}

    run(go())


@pytest.mark.parametrize(
    ("lang", "seed", "said"),
    [
        ("es", 1, "ganó Bruno"),
        ("pt", 10, "Diego venceu"),
        ("es", 9, "ganaste"),
        ("pt", 9, "você venceu"),
    ],
)
def test_the_summary_says_who_won_as_one_winner_is_said(
    tmp_path: Path, lang: str, seed: int, said: str
) -> None:
    """The end-of-match box said "ganadores: Bruno" for one winner, and "ganadores: tú" when the
    person won; it says who won as the log does: "ganó Bruno", "ganaste", "você venceu"."""

    async def go() -> None:
        app = make_app(
            "pocha(schedule=[1])", ["human", "random", "random", "random"], seed, tmp_path, lang
        )
        rng = random.Random(2)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            while not screen.finished:
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            assert text_of(app.screen.query_one("#summary-winners")) == said

    asyncio.run(go())


@pytest.mark.parametrize(
    ("spec", "lang", "keys"),
    [
        ("truco", "pt", ["↓ ↑ rodada", "n p mão"]),
        ("truco", "es", ["↓ ↑ ronda", "n p mano"]),
        ("tute", "pt", ["↓ ↑ vaza", "n p rodada"]),
        ("poch", "es", ["↓ ↑ escalera", "n p ronda"]),  # Poch's race lays runs, not tricks
    ],
)
def test_a_replay_s_keys_go_by_the_game_s_own_deals_and_tricks(
    tmp_path: Path, spec: str, lang: str, keys: list[str]
) -> None:
    """A Truco replay in Portuguese said "↓ ↑ vaza  n p rodada": its keys go round by round and
    hand by hand, which its log and rules call rodadas and mãos (a rodada is no deal there)."""
    game = tapete.load(spec)
    _, rec = play(game, ["random"] * game.players, seed=3)
    path = tmp_path / "match.json"
    record.write(rec, path)

    async def go() -> None:
        app = TapeteApp(replay=record.read(path), data=tmp_path, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            bar = "\n".join(screen_lines(app)[-2:])  # the keys line, as the screen shows it
            for key in keys:
                assert key in bar, bar

    run(go())


def test_truco_s_table_says_who_won_the_round_under_its_cards(tmp_path: Path) -> None:
    """Under a Truco round just played the table said "→ Carmen leva a vaza" while its log said
    "Carmen ganha a rodada": the note under the cards says the round too."""

    async def go() -> None:
        app = make_app("truco", ["human", "random"], 3, tmp_path, "pt")
        rng = random.Random(1)
        notes: set[str] = set()
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            while not screen.finished and len(notes) < 3:
                note = screen.scene.trick_note if screen.scene is not None else ""
                if note:
                    notes.add(note)
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
        assert notes and all("rodada" in n and "vaza" not in n for n in notes), notes

    run(go())
