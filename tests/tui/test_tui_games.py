"""Each game played from the keyboard against bots, checking what the table shows at every turn."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest

from tapete import record
from tapete.i18n import tr
from tapete.narrate import line
from tapete.present import card_glyph, trick_unit
from tapete.tui.screens import SummaryScreen, TableScreen
from tapete.tui.widgets import ScoreBoard, TitleBar, TrickArea
from tuikit import (
    buttons_on_screen,
    fully_visible,
    legal_cards_on_screen,
    make_app,
    play_to_the_end,
    press_a_legal_key,
    screen_lines,
    settle,
    text_of,
)

# Small matches: a couple of Pocha hands, one Oh Hell hand, Truco to 2, one Pottle deal, one
# Poch round.
MATCHES = [
    ("pocha(schedule=[1, 2])", ["human", "random", "random", "random"], 3),
    ("oh_hell(players=3, schedule=[2])", ["human", "easy", "easy"], 5),
    ("truco(target=2)", ["human", "random"], 1),
    ("truco(players=4, target=2)", ["human", "random", "random", "random"], 2),
    ("pottle(players=3, deals=1, extra_deals=0)", ["human", "random", "random"], 4),
    ("poch(players=3, chips=2, rounds=1)", ["human", "random", "random"], 6),
    ("tute", ["human", "random"], 7),
    ("tute(players=4)", ["human", "random", "random", "random"], 8),
]


def check_turn(screen: TableScreen) -> bool:
    """The screen at your turn: exactly the legal cards lit, a button per other legal action,
    and the last trick's winner named. True when a trick winner was on screen."""
    session = screen.session
    game = session.game
    legal = [game.format_action(a) for a in game.legal_actions(session.state)]
    lit = {f"play {c}" for c in legal_cards_on_screen(screen)}
    plays = {a for a in legal if a.startswith("play") and len(a.split()) == 2}
    assert lit == {a for a in plays if a.split()[1] in screen.scene.table.hand}  # type: ignore[union-attr]
    offered = [b for b in buttons_on_screen(screen) if not b.has_class("-refused")]
    assert len(offered) == len(legal) - len(lit)
    title = text_of(screen.query_one(TitleBar))
    scene = screen.scene
    assert scene is not None
    # Your turn, or (Truco) what you are asked: a raise to answer, a mão de onze to decide.
    asked = ("your answer", "or run")
    status = scene.table.status
    assert status in title and (status == tr("en", "your turn") or status.endswith(asked))
    if scene.table.last_trick and scene.trick_note:
        winner = _last_trick_winner(screen)
        names = session.display_names("en")
        trick = {"kind": "trick", "seat": winner, "unit": trick_unit(session.game)}
        expected = line("en", trick, names, you=session.you)  # Truco's is a round
        assert expected in text_of(screen.query_one(TrickArea))
        return True
    return False


def _last_trick_winner(screen: TableScreen) -> int | None:
    for step in reversed(screen.session.steps):
        for event in reversed(step.events):
            if event["type"] == "trick":
                winner = event.get("winner")
                return winner if isinstance(winner, int) else None
    raise AssertionError("a trick note without a trick")


@pytest.mark.parametrize(("spec", "seats", "seed"), MATCHES, ids=[m[0] for m in MATCHES])
def test_a_match_from_the_keyboard(spec: str, seats: list[str], seed: int, tmp_path: Path) -> None:
    async def play() -> None:
        app = make_app(spec, seats, seed, tmp_path)
        rng = random.Random(seed)
        async with app.run_test(size=(80, 24)) as pilot:
            turns: list[bool] = []  # each of your turns: whether it showed a trick's winner
            screen = await play_to_the_end(pilot, rng, lambda at: turns.append(check_turn(at)))
            assert turns
            winners_seen = sum(turns)
            # The end: the summary with the final scores, and the score table agrees.
            assert isinstance(app.screen, SummaryScreen)
            outcome = screen.session.over
            assert outcome is not None
            summary = " ".join(text_of(w) for w in app.screen.query("Static"))
            assert tr("en", "match over") in summary
            board = text_of(screen.query_one(ScoreBoard).query_one("#score-table"))
            for total in outcome.scores:
                assert str(total) in board
            assert len(screen.scene.table.history) >= 1  # type: ignore[union-attr]
            # The log tells the match in words, and the match is saved as a record that replays.
            log = screen.session.log_lines("en")
            assert any(told.startswith("you ") for told in log), log  # told to you
            saved = list((tmp_path / "records").glob("*.json"))
            assert len(saved) == 1
            rec = record.read(saved[0])
            assert rec.seats[0].kind == "human" and rec.result is not None
            record.replay(rec)
            if spec.startswith(("pocha", "oh_hell", "tute")):
                assert winners_seen > 0

    asyncio.run(play())


def test_pochs_bowls_show_each_name_with_its_count_on_one_line(tmp_path: Path) -> None:
    # With 20 chips in the Pinke its row, "seq. 1  Poch 1  Pinke 20", once wrapped in the
    # bowls' box and left "Pinke" at a line's end and its count alone on the next.
    async def play() -> None:
        app = make_app("poch(players=3)", ["human", "random", "random"], 6, tmp_path)
        rng = random.Random(1)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            for _ in range(60):
                pinke = screen.scene.table.extra["bowls"][-1][1]  # type: ignore[union-attr]
                if pinke >= 10:
                    break
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
            assert pinke >= 10, "no two-digit Pinke to look at"
            assert fully_visible(app, f"Pinke {pinke}"), "\n".join(screen_lines(app))

    asyncio.run(play())


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_pochs_seats_show_bets_only_while_the_betting_is_on(lang: str, tmp_path: Path) -> None:
    # Once the poker round ends the Pinke is paid out; each seat's "bet 7" stayed on show
    # through the race as if it were still in play.
    async def play() -> None:
        app = make_app("poch(players=3)", ["human", "random", "random"], 6, tmp_path, lang)
        rng = random.Random(2)
        bet = re.compile(rf"\b{tr(lang, 'bet')} \d")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            phases = set()
            for _ in range(80):
                table = screen.scene.table  # type: ignore[union-attr]
                phase = dict(table.info)[tr(lang, "phase")]
                phases.add(phase)
                seats = "\n".join(text_of(s) for s in screen.query(".seat"))
                if phase == tr(lang, "poker"):
                    assert bet.search(seats) or tr(lang, "passed") in seats, seats
                else:
                    assert not bet.search(seats), seats
                    assert tr(lang, "passed") not in seats, seats
                if screen.finished:
                    break
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
            assert phases >= {tr(lang, "poker"), tr(lang, "shedding")}

    asyncio.run(play())


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_five_names_fit_whole_over_the_scores_at_80_columns(lang: str, tmp_path: Path) -> None:
    # Every column was cut to an even share, so "Carmen" showed as "Carme" beside a "you"
    # with room to spare.
    async def play() -> None:
        seats = ["human", "random", "random", "random", "random"]
        app = make_app("pocha(players=5, schedule=[1])", seats, 1, tmp_path, lang)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            board = screen.query_one(ScoreBoard).region
            rows = [line[board.x : board.right] for line in screen_lines(app)]
            header = rows[board.y + 1].strip("│ ").split()
            names = screen.session.display_names(lang)
            assert header == ["#", *names], rows[board.y : board.bottom]

    asyncio.run(play())


def test_a_hand_shown_in_a_narrow_seat_is_seen_whole(tmp_path: Path) -> None:
    # Six seats at 80 columns: a hand shown down took two lines of a box sized for one, and its
    # last cards were cut off under the border.
    async def play() -> None:
        seats = ["human", *["random"] * 5]
        app = make_app("poch(players=6, rounds=3)", seats, 1, tmp_path, "pt")
        rng = random.Random(1)
        seen = 0
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(10):
                screen = await settle(pilot)
                if screen.finished:
                    await pilot.press("escape")  # the summary, over the seats
                    await pilot.pause()
                table = screen.scene.table  # type: ignore[union-attr]
                lines = screen_lines(app)
                for box, widget in zip(table.seats, screen.query(".seat"), strict=True):
                    area = widget.region
                    inside = " ".join(  # within the side borders: a box may have no padding
                        row[area.x + 1 : area.right - 1] for row in lines[area.y : area.bottom]
                    )
                    for card in box.shown:
                        assert card_glyph(card, table.deck) in inside.split(), (card, inside)
                    seen += len(box.shown) > 3
                if screen.finished:
                    break
                await press_a_legal_key(pilot, rng)
        assert seen, "no hand shown down"

    asyncio.run(play())
