"""What the terminal screens say and whether it fits: the dealer's hooked bid shown and refused,
one card notation per screen, every text whole at 80×24 and 120×40, the rules and bot levels in
the chosen language, and the words of the log (Truco's calls, plurals, "you deal", 1v1 Truco's
players, Poch's Pinke and sequence bowl, Pocha's bids against the tricks)."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Markdown

import tapete
from tapete import howto, record
from tapete.bots import Budget
from tapete.cards import format_card
from tapete.game import Event
from tapete.games import ENTRIES
from tapete.i18n import tr
from tapete.match import play
from tapete.narrate import action_label, event_entries, line
from tapete.present import actions, card_glyph, present
from tapete.record import Record
from tapete.tui import PlayConfig, TapeteApp
from tapete.tui.screens import RulesScreen, TableScreen
from tapete.tui.session import Replay, Session
from tapete.tui.widgets import InfoPanel, LogView, MessageLine, ScoreBoard, StepButton, TrickArea
from tuikit import (
    buttons_on_screen,
    cards_on_screen,
    fully_visible,
    make_app,
    screen_lines,
    settle,
    table_screen,
    text_of,
)

SIZES = [(80, 24), (120, 40)]
TEXT_CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs])\b")  # a French card in its record notation
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"  # the full reference pages


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def _seed_where(spec: str, wanted: Any) -> int:
    game = tapete.load(spec)
    return next(s for s in range(200) if wanted(game, game.new_state(s)))


async def _drive(pilot: Any, screen: TableScreen, until: Any, seed: int, prefer: str = "") -> None:
    """Move every seat (yours too) with random legal actions, preferring those starting with
    ``prefer``, until ``until(session)``; then hand the table back to the screen."""
    session = screen.session
    rng = random.Random(seed)
    while not until(session):
        assert session.over is None, "the match ended first"
        legal = session.game.legal_actions(session.state)
        wanted = [a for a in legal if prefer and session.game.format_action(a).startswith(prefer)]
        turn = session.turn
        assert turn is not None
        session.push(turn, wanted[0] if wanted else rng.choice(legal))
    screen.advance()
    await settle(pilot)


# --- the dealer's hook --------------------------------------------------------------------------


def test_a_bid_the_hook_forbids_is_shown_struck_and_marked_and_pressing_it_tells_the_rule(
    tmp_path: Path,
) -> None:
    spec = "pocha(schedule=[3])"
    seats = ["human", "random", "random", "random"]

    def hooked(seed: int) -> bool:
        session = Session(tapete.load(spec), seats, seed)
        if session.game.observe(session.state, 0).dealer != 0:
            return False
        while session.bot_to_act:
            seat, view, legal, bot, rng = session.bot_job()
            session.push(seat, bot.choose(view, legal, rng))
        return len(session.game.legal_actions(session.state)) == 3

    seed = next(s for s in range(200) if hooked(s))

    async def go() -> None:
        app = make_app(spec, seats, seed, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            session = screen.session
            assert session.turn == 0  # the dealer bids last
            refused = [b for b in buttons_on_screen(screen) if b.has_class("-refused")]
            assert len(refused) == 1
            hooked = session.game.format_action(refused[0].action_id)
            assert session.game.why_illegal(session.state, refused[0].action_id) is not None
            # Four bids 0..3 on screen, in order: the hooked one among them.
            labels = [str(b.label) for b in buttons_on_screen(screen)]
            n_hooked = int(hooked.split()[1])
            assert labels == [f"{n} bid {n}" + (" ✗" if n == n_hooked else "") for n in range(4)]
            steps = len(session.steps)
            await pilot.press(hooked.split()[1])
            await pilot.pause()
            # Wrapped to the line's width: read as one sentence.
            message = text_of(screen.query_one(MessageLine)).replace("\n", " ")
            error = session.game.why_illegal(session.state, refused[0].action_id)
            assert error is not None and error.rule == "hook"
            assert message == tr("en", "not allowed: {why}", why=str(error))
            assert "the dealer may not bid" in message
            assert len(session.steps) == steps  # nothing changed

    run(go())


def test_a_refusal_names_the_rule_in_the_table_s_language(tmp_path: Path) -> None:
    """In Spanish the rule's sentence is Spanish, not the engine's English."""
    spec = "pocha(schedule=[3])"
    seats = ["human", "random", "random", "random"]

    async def go() -> None:
        app = make_app(spec, seats, 0, tmp_path, lang="es")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            session = screen.session
            steps = len(session.steps)
            await pilot.press("right", "enter")  # a card while bidding
            message = text_of(screen.query_one(MessageLine))
            assert message == "no permitido: primero hay que pedir"
            assert len(session.steps) == steps

    run(go())


def test_what_the_message_line_said_is_said_again_in_the_language_f2_chooses(
    tmp_path: Path,
) -> None:
    """A refusal, a key that is no move, a hint: pressing F2 words the line in the new
    language (it stayed in the old one, the table around it in the new)."""
    spec = "pocha(schedule=[3])"
    seats = ["human", "random", "random", "random"]

    async def go() -> None:
        app = make_app(spec, seats, 0, tmp_path, lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            line = screen.query_one(MessageLine)
            await pilot.press("right", "enter")  # a card while bidding
            assert text_of(line).startswith("not allowed: ")
            await pilot.press("f2")
            await pilot.pause()
            assert screen.lang == "es"
            assert text_of(line) == "no permitido: primero hay que pedir"
            await pilot.press("x", "f2")
            await pilot.pause()
            assert text_of(line) == tr("pt", "no key {key} here", key="x")
            await pilot.press("h")
            screen = await settle(pilot)
            for _ in range(100):
                if text_of(line).startswith("dica: "):
                    break
                await pilot.pause()
            assert text_of(line).startswith("dica: ")
            await pilot.press("f2")
            await pilot.pause()
            assert text_of(line).replace("\n", " ").startswith("hint: bid ")

    run(go())


# --- one card notation per screen -------------------------------------------------------------


def test_screens_print_french_cards_with_glyphs_in_hand_buttons_log_and_hint(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        app = make_app("truco(target=12)", ["human", "random"], 3, tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settle(pilot)
            await _drive(pilot, screen, lambda s: len(s.steps) >= 8 and s.turn == 0, 3, "play")
            log = screen.query_one(LogView).lines_text
            plays = [line for line in log if " play" in line and "face down" not in line]
            assert plays and all(re.search("[♣♦♥♠]", line) for line in plays), plays
            on_screen = "\n".join(screen_lines(app))
            assert not TEXT_CARD.search(on_screen), TEXT_CARD.findall(on_screen)
            for button in buttons_on_screen(screen):
                assert not TEXT_CARD.search(str(button.label))
            await pilot.press("h")
            for _ in range(200):
                await pilot.pause()
                if "hint:" in text_of(screen.query_one(MessageLine)):
                    break
            hint = text_of(screen.query_one(MessageLine))
            assert "hint:" in hint and not TEXT_CARD.search(hint), hint

    run(go())


def test_action_words_keep_the_record_notation_out_of_the_screens() -> None:
    game = tapete.load("truco")
    play_kd = game.parse_action("play Kd")
    assert action_label(game, play_kd, "en") == "play K♦"
    assert action_label(game, game.parse_action("play 7h"), "es") == "jugar 7♥"
    spanish = tapete.load("tute")
    assert action_label(spanish, spanish.parse_action("play 10o"), "en") == "play 10o"
    # The plain notation stays what records and --plain read.
    assert game.format_action(play_kd) == "play Kd"


# --- every text whole at common sizes -------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_poch_bets_one_to_ten_all_show_whole(size: tuple[int, int], tmp_path: Path) -> None:
    spec = "poch(players=4)"
    seed = _seed_where(spec, lambda g, s: g.current_player(s) == 0)

    async def go() -> None:
        app = make_app(spec, ["human", "random", "random", "random"], seed, tmp_path)
        async with app.run_test(size=size) as pilot:
            screen = await settle(pilot)
            buttons = buttons_on_screen(screen)
            labels = [str(b.label) for b in buttons]
            assert [label.split(" ", 1)[1] for label in labels] == [
                "pass",
                *(f"bet {n}" for n in range(1, 11)),
            ]
            for label in labels:
                assert fully_visible(app, label), (label, screen_lines(app))
            width, height = size
            for button in buttons:
                assert button.region.right <= width and button.region.bottom <= height
            # The raise buttons once someone has bet: whole too.
            await pilot.press("5")
            screen = await settle(pilot)
            for button in buttons_on_screen(screen):
                assert fully_visible(app, str(button.label)), str(button.label)

    run(go())


def _in_sight(app: Any, widget: Widget, text: str) -> bool:
    """``text`` is drawn where ``widget`` is, and that is inside the terminal."""
    width, height = app.size
    region = widget.region
    if not region.height or region.right > width or region.bottom > height:
        return False
    return text in screen_lines(app)[region.y][region.x : region.right]


def _table_fits(app: Any, title: str) -> None:
    """The whole table is in sight: its title on the first line, the last of its keys on the
    last, the log between them."""
    lines = screen_lines(app)
    assert title in lines[0], lines
    assert fully_visible(app, "^Q quit"), lines
    log = app.screen.query_one(LogView)
    assert log.region.height >= 3 and log.region.bottom <= app.size.height, lines


def _raises(session: Session) -> int:
    legal = [session.game.format_action(a) for a in session.game.legal_actions(session.state)]
    return sum(a.startswith("raise ") for a in legal) if session.turn == 0 else 0


def test_poch_s_bets_to_answer_fit_80x24_every_button_in_sight(tmp_path: Path) -> None:
    """Four players, a bet to answer: pass, call and nine raises took three rows and pushed the
    last line of keys off the terminal. Drawn short, the raises take one row."""

    async def go() -> None:
        app = make_app("poch(rounds=1)", ["human", "easy", "easy", "easy"], 0, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            await _drive(pilot, screen, lambda s: _raises(s) == 9, 0, "bet")
            _table_fits(app, "Poch — round 1")
            buttons = buttons_on_screen(screen)
            assert len(buttons) == 11  # pass, call, raise 1 to 9 more
            for button in buttons:
                assert _in_sight(app, button, str(button.label)), (button, screen_lines(app))
            assert fully_visible(app, "raise … more:")
            await pilot.press("5")
            screen = await settle(pilot)
            mine = [s for s in screen.session.steps if s.seat == 0]
            assert screen.session.game.format_action(mine[-1].action) == "raise 5"

    run(go())


@pytest.mark.parametrize(
    ("seed", "by", "verb"), [(0, "keys", "bet"), (1, "mouse", "raise")], ids=["keys", "mouse"]
)
def test_poch_s_amounts_past_nine_are_one_button_stepped_by_minus_and_plus(
    seed: int, by: str, verb: str, tmp_path: Path
) -> None:
    """Forty chips each: a bet of 1 to 40, or a raise of 1 to 39 more. The amounts past nine are
    one button whose amount - and + choose (the keys, or a click), and all fit in two rows."""

    async def go() -> None:
        app = make_app(
            "poch(players=3, chips=40, rounds=1)", ["human", "easy", "easy"], seed, tmp_path
        )
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            _table_fits(app, "Poch — round 1")
            rows = {b.region.y for b in buttons_on_screen(screen)}
            assert len(rows) <= 2
            for button in [*buttons_on_screen(screen), *screen.query(StepButton)]:
                assert _in_sight(app, button, str(button.label)), (button, screen_lines(app))
            minus, plus = screen.query(StepButton)
            assert minus.disabled and not plus.disabled  # at the lowest amount past nine
            assert screen.scene is not None
            stepper = next(b for b in screen.scene.buttons if b.stepper)
            assert (stepper.amount, stepper.stepper[-1]) == (10, 40 if verb == "bet" else 39)
            for step in ("+", "+", "+", "-"):
                if by == "keys":
                    await pilot.press("plus" if step == "+" else "minus")
                else:
                    await pilot.click(plus if step == "+" else minus)
                await pilot.pause()
                minus, plus = screen.query(StepButton)
            shown = next(b for b in buttons_on_screen(screen) if "12" in str(b.label).split())
            assert _in_sight(app, shown, str(shown.label)), screen_lines(app)
            if by == "keys":
                await pilot.press(str(shown.label).split()[0])
            else:
                await pilot.click(shown)
            screen = await settle(pilot)
            mine = [s for s in screen.session.steps if s.seat == 0]
            assert screen.session.game.format_action(mine[-1].action) == f"{verb} 12"

    run(go())


def test_a_long_poch_run_shows_its_latest_cards_each_whole_and_the_table_fits(
    tmp_path: Path,
) -> None:
    """A run of eight cards in Poch's narrow box at 80x24: the box keeps its size, the earlier
    plays give way to "…", each play stays whole on its line."""

    def long_run(session: Session) -> bool:
        view = session.game.observe(session.state, 0)
        return session.turn == 0 and str(view.phase) == "shedding" and len(view.runs[-1]) >= 7

    async def go() -> None:
        app = make_app("poch(rounds=1)", ["human", "easy", "easy", "easy"], 2, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            await _drive(pilot, screen, long_run, 2)
            _table_fits(app, "Poch — round 1")
            area = screen.query_one(TrickArea)
            shown = text_of(area).splitlines()
            assert shown[0] == "…"
            assert screen.scene is not None
            table = screen.scene.table
            names = {b.seat: b.name.split(" · ")[0] for b in table.seats}
            words = [f"{names[p.seat]} {card_glyph(str(p.card), 'french')}" for p in table.trick]
            assert words[-1] in shown[-1]
            for line in shown[1:]:
                assert all(play in words for play in line.split("   ")), line  # none cut in two
            for line in shown:
                assert fully_visible(app, line.strip()), (line, screen_lines(app))
            for card in cards_on_screen(screen):
                assert card.region.bottom <= 24

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_tute_s_second_cante_shows_whole(size: tuple[int, int], tmp_path: Path) -> None:
    async def go() -> None:
        app = make_app("tute", ["human", "random"], 1, tmp_path, lang="es")
        async with app.run_test(size=size) as pilot:
            screen = await settle(pilot)

            def sung_twice(session: Session) -> bool:
                view = session.game.observe(session.state, 0)
                return len(view.cantes) >= 2 and session.turn == 0

            await _drive(pilot, screen, sung_twice, 1, "sing")
            assert screen.scene is not None
            cantes = dict(screen.scene.table.info)[tr("es", "cantes")]
            assert len(cantes.split(", ")) == 2
            for sung in cantes.split(", "):
                assert fully_visible(app, sung), (sung, screen_lines(app))
            panel = screen.query_one(InfoPanel)
            lines = text_of(panel).count("\n") + 1
            assert panel.content_region.height >= lines

    run(go())


def _four_cantes(spec: str, seed: int) -> Record:
    """A deal of Tute played (your seat too) singing whenever one may and keeping the Reyes and
    Caballos, until all four cantes are sung and it is your turn: the match as a record."""
    game = tapete.load(spec)
    session = Session(game, ["human"] + ["random"] * (game.players - 1), seed)
    rng = random.Random(seed)
    while session.turn != 0 or len(game.observe(session.state, 0).cantes) < 4:
        assert session.turn is not None and game.observe(session.state, 0).deal == 0, "no luck"
        legal = game.legal_actions(session.state)
        words = [game.format_action(a).split() for a in legal]
        sing = [a for a, w in zip(legal, words, strict=True) if w[0] == "sing"]
        keep = [a for a, w in zip(legal, words, strict=True) if w[-1][:-1] not in ("11", "12")]
        session.push(session.turn, sing[0] if sing else rng.choice(keep or legal))
    return session.record()


@pytest.mark.parametrize(
    ("spec", "seed"), [("tute", 61), ("tute(players=4)", 1868)], ids=["2p", "4p"]
)
def test_tute_s_four_cantes_fit_80x24_every_button_in_sight(
    spec: str, seed: int, tmp_path: Path
) -> None:
    """All four cantes sung: the facts box grew a line per cante and pushed the screen past 24
    rows (it scrolled, the last line of keys out of sight). Now each seat's cantes share a line
    (``you 20e 20c``), the box keeps its seven rows and the whole table is in sight."""
    game = tapete.load(spec)
    seats = ("human",) + ("random",) * (game.players - 1)
    config = PlayConfig(
        game, seats, seed, hint_budget=Budget(iterations=4), resume=_four_cantes(spec, seed)
    )

    async def go() -> None:
        app = TapeteApp(play=config, data=tmp_path, lang="en", speed="instant", contrast=False)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            view = game.observe(screen.session.state, 0)
            assert len(view.cantes) == 4 and screen.session.turn == 0
            for moved in (False, True):  # as first drawn, and after your move and the bots'
                if moved:
                    await pilot.press(
                        next(c.key for c in cards_on_screen(screen) if c.has_class("-legal"))
                    )
                    screen = await settle(pilot)
                    assert not screen.finished
                _table_fits(app, "Tute — deal 1")
                assert app.screen.max_scroll_y == 0, screen_lines(app)  # the screen stays put
                for button in buttons_on_screen(screen):
                    assert _in_sight(app, button, str(button.label)), screen_lines(app)
                for card in cards_on_screen(screen):  # its key above it, then the card
                    assert card.region.bottom <= 24, screen_lines(app)
                    drawn = screen_lines(app)[card.region.y + 1][card.region.x : card.region.right]
                    assert card_glyph(card.card, "spanish") in drawn, screen_lines(app)
                panel = screen.query_one(InfoPanel)
                shown = text_of(panel)
                assert panel.region.bottom <= 24 and panel.region.height <= 7
                assert panel.content_region.height >= shown.count("\n") + 1, shown
                assert fully_visible(app, "trump: "), screen_lines(app)
                names = screen.session.table_names("en")
                view = game.observe(screen.session.state, 0)
                assert len(view.cantes) == 4
                for _, seat, suit in view.cantes:  # who sang, and what: 20 or 40 in its suit
                    sung = f"{40 if suit == view.trump else 20}{'oceb'[suit]}"
                    said = rf"\b{re.escape(names[seat])} (\d\d[oceb] )*{sung}\b"
                    assert re.search(said, shown), shown

    run(go())


@pytest.mark.parametrize("size", SIZES)
def test_the_replay_s_score_header_shows_every_seat(size: tuple[int, int], tmp_path: Path) -> None:
    game = tapete.load("pocha(schedule=[1, 2])")
    _, rec = play(game, ["random"] * 4, seed=3)

    async def go() -> None:
        app = TapeteApp(replay=rec, data=tmp_path, lang="en")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("right", "right")
            await pilot.pause()
            board = app.screen.query_one(ScoreBoard)
            lines = [line for line in screen_lines(app) if "#" in line]
            assert lines, screen_lines(app)
            header = next(line for line in screen_lines(app) if " # " in line)
            heads = header.split("│")[-2].split()
            # "#", then one distinct label per seat, each beginning like the seat's name.
            labels = " ".join(heads[1:])
            for name in [s.name for s in rec.seats]:
                first, number = name.split()
                assert re.search(rf"\b{first[:2]}\w* {number}\b", labels), (name, header)
            assert board.size.width > 0

    run(go())


def _seat_titles(screen: Any) -> list[tuple[str, str]]:
    return [(str(s.border_title), str(s.border_subtitle)) for s in screen.query(".seat")]


def test_seat_boxes_show_the_bot_level_and_the_dealer_s_cards_from_the_first_frame(
    tmp_path: Path,
) -> None:
    whole = [("you", "8 cards"), ("Bruno · easy", "dealer · 8 cards")]

    async def go() -> None:
        app = make_app("tute", ["human", "easy"], 5, tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await settle(pilot)
            assert not screen.session.steps  # your move first: nothing drew the table again
            assert _seat_titles(screen) == whole
            # A terminal too small for the table hides it behind a word why; room again, and
            # the boxes are as they were.
            await pilot.resize_terminal(30, 8)
            await pilot.pause()
            assert screen.query_one("#too-small").display
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            assert _seat_titles(screen) == whole
            rec = screen.session.record()
        # A replay at its first step, the same match: every box whole too.
        replay = TapeteApp(replay=rec, data=tmp_path, lang="en")
        async with replay.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert _seat_titles(replay.screen) == [whole[0], ("Bruno", whole[1][1])]

    run(go())


def test_in_ronda_india_the_other_seats_cards_are_on_the_screen_at_80x24(
    tmp_path: Path,
) -> None:
    """The one-card hands of ronda_india are bid seeing everyone's card but your own: at the
    smallest terminal the seats' boxes show those cards whole, under the bids and tricks."""

    async def go() -> None:
        spec = "pocha(players=3, schedule=[1], ronda_india=true)"
        app = make_app(spec, ["human", "medium", "medium"], 4, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            view = screen.session.game.observe(screen.session.state, 0)
            for seat in (1, 2):
                hand = view.hands[seat]
                assert hand is not None and len(hand) == 1
                glyph = card_glyph(format_card(next(iter(hand))), "spanish")
                # a line of the seat's box holding the card alone, not cut off under its facts
                boxed = re.compile(rf"[│┃] {re.escape(glyph)} +[│┃]")
                assert any(boxed.search(line) for line in screen_lines(app)), glyph

    run(go())


# --- the language: F1 and bot levels ----------------------------------------------------------


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_f1_shows_how_to_play_in_the_players_language_and_f_the_full_rules(
    lang: str, missing: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F1 opens the how-to page in the player's language; f swaps it for the full rules page in
    that language. Where its translation is missing (``missing``: a page set with only the English
    reference), the English page shows under a note saying so and the game in a sentence in the
    player's language."""
    if missing:
        english = tmp_path / "rules"
        english.mkdir()
        (english / "truco.md").write_text(howto.reference("truco"), encoding="utf-8")
        reference, reference_language = howto.reference, howto.reference_language
        monkeypatch.setattr(howto, "reference", lambda m, lang="en": reference(m, lang, english))
        monkeypatch.setattr(
            howto, "reference_language", lambda m, lang="en": reference_language(m, lang, english)
        )

    async def go() -> None:
        app = make_app("truco", ["human", "easy"], 1, tmp_path)
        app.settings.lang = lang
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            page = app.screen.query_one("#rules-page", Markdown)
            assert page.source == howto.page("truco", lang)
            assert not app.screen.query_one("#rules-note").display
            keys = text_of(app.screen.query_one("#rules-keys"))
            assert tr(lang, "full rules") in keys
            await pilot.press("f")
            await pilot.pause()
            shown = "en" if missing else lang
            assert page.source == (
                RULES / ("truco.md" if shown == "en" else f"truco.{lang}.md")
            ).read_text(encoding="utf-8")
            note = app.screen.query_one("#rules-note")
            assert note.display == (shown != lang)
            if shown != lang:
                assert tr(lang, ENTRIES["truco"].summary) in text_of(note)
                assert "inglés" in text_of(note) or "inglês" in text_of(note)
            assert tr(lang, "how to play") in text_of(app.screen.query_one("#rules-keys"))
            await pilot.press("f")
            await pilot.pause()
            assert page.source == howto.page("truco", lang)

    run(go())


def test_f1_in_a_replay_shows_how_to_play_the_replayed_game(tmp_path: Path) -> None:
    """F1 in a replay once stopped the app (the replay named no rules page)."""
    from tapete.tui.screens import ReplayScreen

    _, rec = play(tapete.load("truco"), ["random"] * 2, seed=3)

    async def go() -> None:
        app = make_app("pocha(schedule=[1])", ["human", "easy", "easy", "easy"], 1, tmp_path)
        app.settings.lang = "pt"
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            app.push_screen(ReplayScreen(Replay(rec)))
            await pilot.pause()
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            page = app.screen.query_one("#rules-page", Markdown)
            assert page.source == howto.page("truco", "pt")

    run(go())


@pytest.mark.parametrize(
    ("spec", "lang", "said"),
    [
        (
            "truco(target=6, deck=clean)",
            "en",
            "At this table: Truco — deck: clean, points to win: 6",
        ),
        ("pocha(dealer_hook=false)", "es", "En esta mesa: Pocha — gancho del que reparte: no"),
        ("tute", "pt", "Nesta mesa: Tute, com as opções padrão"),
        # Oh Hell's own defaults, that Pocha's page below does not tell
        (
            "oh_hell(players=3, schedule=[1])",
            "en",
            "At this table: Oh Hell — players: 3, most players: 7, deck: french, hand sizes: [1],"
            " hook in one-card hands: yes, card order: natural, obligation: follow,"
            " scoring: oh_hell, trump when all cards are dealt: none, tie-break: nobody",
        ),
    ],
)
def test_f1_at_the_table_says_first_which_options_the_match_is_played_under(
    spec: str, lang: str, said: str, tmp_path: Path
) -> None:
    """The how-to page tells a game's default rules: a match set up with others (a target of
    6, no hook) said nowhere on the screen that it was, and a player learned it by losing."""

    async def go() -> None:
        seats = ["human"] + ["easy"] * (tapete.load(spec).players - 1)
        app = make_app(spec, seats, 1, tmp_path, lang=lang)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert text_of(app.screen.query_one("#rules-in-force")) == said

    run(go())


# --- wording ----------------------------------------------------------------------------------


def test_every_truco_raise_is_called_by_its_name_in_buttons_log_and_hints() -> None:
    game = tapete.load("truco")
    raise_ = game.parse_action("raise")
    state = game.new_state(5)
    calls = []
    for _ in range(4):
        while game.format_action(raise_) not in {
            game.format_action(a) for a in game.legal_actions(state)
        }:
            legal = game.legal_actions(state)
            state = game.apply(state, next(a for a in legal if game.format_action(a) == "accept"))
        view = game.observe(state, game.current_player(state))
        button = action_label(game, raise_, "en", view=view)
        state = game.apply(state, raise_)
        logged = action_label(game, raise_, "en", after=state)
        assert button == logged
        calls.append(logged)
        if (view.proposal is None and view.stake >= 9) or len(calls) == 4:
            break
    assert calls == ["truco!", "seis!", "nove!", "doze!"]
    assert action_label(game, raise_, "es", after=state) == "¡doze!"


@pytest.mark.parametrize(
    ("lang", "button", "turn", "box"),
    [
        ("es", "pedir 2", "pide ", "pedidas 2"),
        ("pt", "pedir 2", " pede", "pedido 2"),
    ],
)
def test_a_pottle_bid_is_one_word_on_the_buttons_the_turn_and_the_seat_boxes(
    lang: str, button: str, turn: str, box: str
) -> None:
    """The buttons asked for tricks ("pedir") while the seat boxes said a bet ("apuesta",
    "aposta"): one game, two words for one thing."""
    game = tapete.load("pottle")
    state = game.new_state(1)
    seat = game.current_player(state)
    assert seat is not None
    view = game.observe(state, seat)
    labels = [b.label for b in actions(game, game.legal_actions(state), lang, view=view).buttons]
    assert button in labels
    state = game.apply(state, game.parse_action("bid 2"))
    table = present(game.observe(state, seat), lang)
    assert table.seats[seat].lines[0] == box
    assert turn in table.status  # the next seat's turn to bid
    assert not any("apuest" in t or "apost" in t for t in (table.status, *table.seats[seat].lines))


def test_plurals_and_pocha_s_bids_against_the_tricks() -> None:
    game = tapete.load("pocha(players=3, schedule=[1, 2])")
    state = game.new_state(1)
    info = dict(present(game.observe(state, 0)).info)
    assert info["cards"] == "1 each" and info["bids"] == "0 / 1 trick"
    info_es = dict(present(game.observe(state, 0), "es").info)
    assert info_es["cartas"] == "1 cada uno" and info_es["pedidas"] == "0 / 1 baza"
    state = game.apply(state, game.parse_action("bid 1"))
    info = dict(present(game.observe(state, 0)).info)
    assert info["bids"] == "1 / 1 trick"
    while game.observe(state, 0).hand_size == 1:
        state = game.apply(state, game.legal_actions(state)[-1])
    bids = [game.legal_actions(state)[-1] for _ in range(1)]
    state = game.apply(state, bids[0])
    info = dict(present(game.observe(state, 0)).info)
    assert info["cards"] == "2 each" and info["bids"] == "2 / 2 tricks"


def test_a_replay_of_your_match_says_you_deal() -> None:
    game = tapete.load("pocha(players=3, schedule=[1, 1, 1])")  # everyone deals once
    session = Session(game, ["human", "random", "random"], 2)
    rng = random.Random(0)
    while (turn := session.turn) is not None:
        session.push(turn, rng.choice(game.legal_actions(session.state)))
    replay = Replay(session.record())
    replay.go(replay.length)
    log = replay.scene("en").log
    assert "hand 1: you deal, " in " ".join(log) and not any("you deals" in told for told in log)
    assert any(told.startswith("mano 1: repartes tú") for told in replay.scene("es").log)
    assert replay.display_names("es")[0] == "tú"


def test_tute_s_trump_card_is_shown_only_while_it_is_face_up_or_the_dealer_s() -> None:
    game = tapete.load("tute")
    state = game.new_state(5)
    rng = random.Random(5)
    while game.observe(state, 0).stock_size > 0:
        view = game.observe(state, 0)
        info = dict(present(view).info)
        assert info["trump card"] == format_card(view.face_up)
        legal = game.legal_actions(state)
        swaps = [a for a in legal if game.format_action(a).startswith("swap")]
        state = game.apply(state, swaps[0] if swaps else rng.choice(legal))
    # The stock is gone: the face-up card is in a hand now, and the panel names the suit only.
    for lang in ("en", "es", "pt"):
        info = dict(present(game.observe(state, 0), lang).info)
        assert tr(lang, "trump card") not in info and info[tr(lang, "trump")]
    four = tapete.load("tute(players=4)")
    view = four.observe(four.new_state(5), 1)
    assert dict(present(view).info)["trump card"] == format_card(view.upcard)


def test_people_sharing_the_terminal_are_players_in_the_log_and_you_at_the_table() -> None:
    game = tapete.load("pocha(players=3, schedule=[1, 1, 1])")
    session = Session(game, ["human", "human", "random"], 2)
    rng = random.Random(0)
    seen = set()
    while (turn := session.turn) is not None:
        if turn in session.humans:
            scene = session.scene("es")
            titles = [box.name for box in scene.table.seats]
            assert titles[turn] == "tú" and titles[1 - turn] == f"jugador {2 - turn}"
            assert not any("tú" in told for told in scene.log), scene.log
            seen.add(turn)
        session.push(turn, rng.choice(game.legal_actions(session.state)))
    assert seen == {0, 1}
    log = session.log_lines("en")
    assert "hand 1: player 1 deals, " in " ".join(log)
    assert not any(re.search(r"\byou\b", told) for told in log), log
    rec = session.record()
    assert [s.name for s in rec.seats] == ["player 1", "player 2", "Carmen"]
    replay = Replay(rec)
    replay.go(replay.length)
    assert not any(re.search(r"\byou\b", told) for told in replay.scene("en").log)


def test_one_to_one_truco_names_the_two_players() -> None:
    game = tapete.load("truco")
    table = present(game.observe(game.new_state(1), 0), "en", ["Ana", "Bea"])
    assert table.score_names == ("Ana", "Bea")
    assert all(not box.lines and box.team is None for box in table.seats)
    four = tapete.load("truco(players=4)")
    table = present(four.observe(four.new_state(1), 0), "en", ["A", "B", "C", "D"])
    assert table.score_names == ("team 1", "team 2")


def test_poch_s_log_shows_the_hands_compared_for_the_pinke() -> None:
    event = {
        "type": "poker",
        "winner": 1,
        "hands": [{"seat": 0, "cards": ["9c", "9s", "Kd"]}, {"seat": 1, "cards": ["Ah", "As"]}],
    }
    entries = event_entries([Event("poker", event)])
    words = [line("en", e, ["you", "Bruno"], you=0, deck="french") for e in entries]
    assert words == [
        "you show 9♣ 9♠ K♦",
        "Bruno shows A♥ A♠",
        "Bruno takes the Pinke and the Poch bowl",
    ]
    es = [line("es", e, ["tú", "Bruno"], you=0, deck="french") for e in entries]
    assert es[0] == "enseñas 9♣ 9♠ K♦" and "A♥ A♠" in es[1]


def test_poch_s_sequence_bowl_is_named_by_the_option() -> None:
    for rule, mark, name in (("best_run", "seq.", "sequence"), ("trump_789", "789", "7-8-9")):
        game = tapete.load(f"poch(players=3, sequence_rule={rule})")
        table = present(game.observe(game.new_state(1), 0))
        assert table.extra["marks"][6] == mark
        assert table.extra["bowls"][6][0] == name


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_every_key_of_the_table_and_the_replay_shows_whole_at_80x24(
    lang: str, tmp_path: Path
) -> None:
    from tapete.tui.screens import ReplayScreen, _keys

    game = tapete.load("pocha(schedule=[1, 2])")
    _, rec = play(game, ["random"] * 4, seed=3)

    async def go() -> None:
        app = make_app("truco(players=4)", ["human", "easy", "easy", "easy"], 1, tmp_path)
        app.settings.lang = lang
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            screen.redraw()
            await pilot.pause()
            for key, label, _ in _keys(list(TableScreen.BINDINGS)):
                assert fully_visible(app, f"{key} {tr(lang, label)}"), (key, screen_lines(app))
            for seat in screen.query(".seat"):
                for words in (seat.border_title, seat.border_subtitle):
                    assert words and fully_visible(app, str(words)), (words, screen_lines(app))
            app.push_screen(ReplayScreen(Replay(rec)))
            await pilot.pause()
            await pilot.pause()
            lines = screen_lines(app)
            assert "Pocha" in lines[0]  # nothing scrolled out of sight
            replay = app.screen
            assert isinstance(replay, ReplayScreen)
            # its keys by the game's words: a Pocha replay goes hand by hand
            assert ("n p", "hand", "next_deal") in replay.bar_keys()
            for key, label, _ in replay.bar_keys():
                assert fully_visible(app, f"{key} {tr(lang, label)}"), (key, lines)
            assert table_screen(app) is screen

    run(go())


# Every game at each of its seat counts, with its longest hands (Oh Hell's 13 cards, Pocha's 8
# among five, Pottle's 7 among seven) and its fullest tables.
REPLAYS = [
    "pocha(players=2, min_players=2, schedule=[1, 2])",
    "pocha(players=3, schedule=[1, 2])",
    "pocha(schedule=[1, 2])",
    "pocha(players=5, schedule=[8])",
    "pocha(players=6, max_players=8, schedule=[6])",
    "pocha(players=8, max_players=8, schedule=[5])",
    "oh_hell(players=3, schedule=[1])",
    "oh_hell(schedule=[13])",
    "oh_hell(players=5, schedule=[10])",
    "truco",
    "truco(players=4)",
    "tute",
    "tute(players=4)",
    "poch(players=3, max_rounds=2)",
    "poch(max_rounds=2)",
    "poch(players=5, max_rounds=2)",
    "poch(players=6, max_rounds=2)",
    "pottle(players=3, deals=1)",
    "pottle(deals=1)",
    "pottle(players=5, deals=1)",
    "pottle(players=7, deals=1)",
]


@pytest.mark.parametrize("spec", REPLAYS)
def test_every_replay_fits_80x24_at_every_step(spec: str, tmp_path: Path) -> None:
    """Stepped through, its first 40 moves (every deal of the short matches; a deal and more
    of the long): the title on the first row, the keys on the last, every box whole between
    them and every hand in sight (two to a line from six seats); nothing cut, nothing to
    scroll."""
    from tapete.tui.screens import ReplayScreen
    from tapete.tui.widgets import OpenHands

    game = tapete.load(spec)
    _, whole = play(game, ["random"] * game.players, seed=3)
    rec = record.cut(whole, 40) if sum(len(d.actions) for d in whole.deals) > 40 else whole

    async def go() -> None:
        app = TapeteApp(replay=rec, data=tmp_path, lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            for step in range(screen.replay.length + 1):
                screen.move(step)  # as → does, a step at a time
                await pilot.pause()
                lines = screen_lines(app)
                where = (step, "\n".join(lines))
                assert game.name.split("_")[0] in lines[0].lower(), where
                assert "esc" in lines[-1], where
                for box in screen.children:
                    assert box.region.y >= 0 and box.region.bottom <= 24, (box.id, *where)
                hands = screen.query_one(OpenHands)
                shown = hands.region.height - hands.styles.gutter.height
                lines = text_of(hands).splitlines()
                assert len(lines) in (game.players, (game.players + 1) // 2), where
                assert shown >= len(lines), where
                names = [seat.name for seat in rec.seats]
                assert all(name in "\n".join(lines) for name in names), where

    run(go())


# --- nothing cut at the edge of its box ---------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_seventeen_card_hand_shows_every_card_each_with_a_key_that_plays_it(
    size: tuple[int, int], tmp_path: Path
) -> None:
    """Oh Hell among three deals 17 cards: all of them are in sight at 80 columns, and the
    cards past the tenth have letters, bracketed when legal as the digits are, that play them
    (without them a monochrome terminal showed no legal card when the only one was the 11th)."""
    spec = "oh_hell(players=3, schedule=[17])"

    async def go() -> None:
        app = make_app(spec, ["human", "random", "random"], 3, tmp_path)
        async with app.run_test(size=size) as pilot:
            screen = await settle(pilot)
            await _drive(pilot, screen, lambda s: s.turn == 0 and _plays(s), 3)
            cards = cards_on_screen(screen)
            assert len(cards) == 17
            width = size[0]
            for card in cards:
                assert card.region.x >= 0 and card.region.right <= width, card.card
            keys = [c.key for c in cards]
            assert keys[:11] == [*"1234567890", "a"] and len(set(keys)) == 17
            lines = screen_lines(app)
            for card in cards:
                drawn = lines[card.region.y][card.region.x : card.region.right]
                assert (f"[{card.key}]" if card.has_class("-legal") else card.key) in drawn
            lettered = [c for c in cards[10:] if c.has_class("-legal")]
            assert lettered, "a legal card past the tenth, to play by its letter"
            await pilot.press(lettered[-1].key)
            screen = await settle(pilot)
            assert lettered[-1].card not in [c.card for c in cards_on_screen(screen)]
            await pilot.press("f1")  # the keys' list says so, "[a]" and all
            await pilot.pause()
            assert "a letter: [a]" in " ".join(" ".join(screen_lines(app)).split())

    run(go())


def _plays(session: Session) -> bool:
    legal = session.game.legal_actions(session.state)
    return all(session.game.format_action(a).startswith("play") for a in legal)


def test_a_seat_title_too_long_for_its_box_gives_up_the_level_not_letters(tmp_path: Path) -> None:
    """80x24, four seats: "Bruno · medium" fits its box whole, "Carmen · medium" does not and
    is "Carmen" (never "Carmen · medi…")."""

    async def go() -> None:
        app = make_app("pocha(schedule=[1])", ["human", "medium", "medium", "medium"], 1, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            titles = [str(seat.border_title) for seat in screen.query(".seat")]
            assert titles == ["you", "Bruno · medium", "Carmen", "Diego · medium"]
            for title in titles:
                assert fully_visible(app, f" {title} "), (title, screen_lines(app))

    run(go())


def test_a_log_line_wider_than_the_log_wraps_whole_into_it(tmp_path: Path) -> None:
    """The tricks against the bids under a hand's score, among four, are wider than the log at
    80x24: they go on the next line of the log, not past its edge."""

    async def go() -> None:
        app = make_app("pocha(schedule=[1])", ["human", "random", "random", "random"], 8, tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            await _drive(pilot, screen, lambda s: s.over is not None, 1)
            await pilot.press("escape")  # the summary, over the log
            await pilot.pause()
            log = screen.query_one(LogView)
            assert screen.scene is not None
            score = [line for line in screen.scene.log if line.startswith("tricks: ")][-1]
            assert len(score) > log.region.width, score
            box = log.region
            rows = screen_lines(app)[box.y : box.y + box.height]
            shown = " ".join(" ".join(row[box.x : box.right].strip("│ ").split()) for row in rows)
            assert score in shown, (score, rows)

    run(go())


@pytest.mark.parametrize("players", [2, 4])
def test_truco_s_facts_tell_who_took_each_round_of_the_hand(players: int, tmp_path: Path) -> None:
    """Who wins a Truco hand turns on who took which round, and the ties: before the third
    round the facts name each round's taker (or "tied") in order, as the tricks' events have
    them, at 80x24."""
    spec = "truco" if players == 2 else "truco(players=4)"
    seats = ["human", *["random"] * (players - 1)]

    def two_rounds_undecided(session: Session) -> bool:
        """Two rounds taken and a third to play: split between the sides, or both tied."""
        view = session.game.observe(session.state, 0)
        return len(view.tricks) == 2 and session.over is None

    async def go() -> None:
        for seed in range(40):
            app = make_app(spec, seats, seed, tmp_path)
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await settle(pilot)
                session = screen.session
                try:
                    await _drive(pilot, screen, two_rounds_undecided, seed, prefer="play")
                except AssertionError:
                    continue  # the match ended first: another seed
                taken = [
                    event.get("winner")
                    for step in session.steps
                    if step.events and step.events[0].get("type") != "deal"
                    for event in step.events
                    if event["type"] == "trick"
                ][-2:]
                names = session.table_names("en")
                told = ", ".join("tied" if t is None else names[t] for t in taken)
                assert screen.scene is not None
                assert ("rounds", told) in screen.scene.table.info
                assert fully_visible(app, f"rounds: {told}"), screen_lines(app)
                return
        raise AssertionError("no seed brought a third round")

    run(go())


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_a_screen_shrunk_to_60x20_and_back_is_drawn_as_before(lang: str, tmp_path: Path) -> None:
    """Back at 80x24 every box has its rows again: the keys one line where they fit one, not
    the two they took at 60 columns (the log and the scores' names lost a row to them)."""
    _, rec = play(tapete.load("pottle(deals=1)"), ["random"] * 4, seed=9)

    async def go() -> None:
        app = TapeteApp(replay=rec, data=tmp_path, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            before = screen_lines(app)
            await pilot.resize_terminal(60, 20)
            await pilot.pause()
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            assert screen_lines(app) == before

    run(go())


def test_poch_s_pass_after_the_betting_is_refused_in_the_table_s_language(tmp_path: Path) -> None:
    def your_lead(session: Session) -> bool:
        view = session.game.observe(session.state, 0)
        return str(view.phase) == "shedding" and session.turn == 0

    async def go() -> None:
        for seed in range(20):
            app = make_app(
                "poch(rounds=1)", ["human", "random", "random", "random"], seed, tmp_path
            )
            app.settings.lang = "es"
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await settle(pilot)
                try:
                    await _drive(pilot, screen, your_lead, seed)
                except AssertionError:
                    continue  # the round ended before your turn to lead: another seed
                await pilot.press("p")
                await pilot.pause()
                said = text_of(screen.query_one(MessageLine))
                assert said == (
                    "no permitido: la ronda de póquer terminó: sal con una carta de tu mano"
                )
                return
        raise AssertionError("no seed gave you a turn after the betting")

    run(go())


def test_the_trump_fact_reads_none_or_not_named_yet_and_no_trump_is_pottle_s_choice() -> None:
    game = tapete.load("pottle")
    state = game.new_state(7)
    words = {"en": ("not named yet", "none"), "es": ("aún sin elegir", "ninguno")}
    words["pt"] = ("ainda não escolhido", "nenhum")
    while not game.format_action(game.legal_actions(state)[0]).startswith("trump"):
        for lang, (unnamed, _) in words.items():
            assert dict(present(game.observe(state, 0), lang).info)[tr(lang, "trump")] == unnamed
        state = game.apply(state, game.legal_actions(state)[0])
    labels = {
        lang: [b.label for b in actions(game, game.legal_actions(state), lang).buttons]
        for lang in words
    }
    assert labels["en"][-1] == "no trump" and labels["en"][0] == "trump clubs"
    assert labels["es"][-1] == "sin triunfo" and labels["pt"][-1] == "sem trunfo"
    state = game.apply(state, game.parse_action("trump none"))
    for lang, (_, none) in words.items():
        assert dict(present(game.observe(state, 0), lang).info)[tr(lang, "trump")] == none
    # Pocha's last hand, all the cards dealt and no trump turned: "trump: none" too.
    pocha = tapete.load("pocha(players=4, schedule=[10], all_dealt_trump=none)")
    view = pocha.observe(pocha.new_state(1), 0)
    assert dict(present(view, "es").info)["triunfo"] == "ninguno"


@pytest.mark.parametrize(
    ("spec", "langs"),
    [
        ("tute(players=4)", ("en", "es", "pt")),  # ten cards each: the longest count
        ("pocha(players=4)", ("pt",)),
        ("truco(players=4)", ("pt",)),
        ("poch(players=4)", ("pt",)),
        ("pottle", ("pt",)),
    ],
)
def test_the_dealer_s_box_keeps_its_mark_and_card_count_at_80_columns(
    spec: str, langs: tuple[str, ...], tmp_path: Path
) -> None:
    async def go(lang: str) -> None:
        app = make_app(spec, ["human", "random", "random", "random"], 3, tmp_path / lang, lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            table = table_screen(app).session.scene(lang).table
            dealer = next(box for box in table.seats if box.dealer)
            mark = f"{tr(lang, 'dealer')} · {dealer.cards} "
            assert sum(mark in line for line in screen_lines(app)[:8]) == 1, screen_lines(app)

    for lang in langs:
        run(go(lang))


@pytest.mark.parametrize("players", [6, 7, 8])
@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_every_seat_box_shows_each_fact_with_its_number_on_one_line_at_80_columns(
    players: int, lang: str, tmp_path: Path
) -> None:
    """Seven seats at 80 columns: "tricks" and "0" took two lines in some boxes, and the score
    fell out of them; a fact too long for its box has its word cut short ("pon… -155"), never
    its number, and a box's card count is a whole number, not "1 ca…"."""
    from tapete.tui.widgets import SeatsRow, _fit

    spec = f"pocha(players={players}, max_players=8, schedule=[1])"
    seats = ["human"] + ["random"] * (players - 1)

    async def go() -> None:
        app = make_app(spec, seats, 4, tmp_path, lang)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await settle(pilot)
            table = screen.session.scene(lang).table
            boxes = list(screen.query_one(SeatsRow).children)
            lines = screen_lines(app)
            for box, facts in zip(boxes, table.seats, strict=True):
                region = box.region
                drawn = [lines[y][region.x : region.right] for y in range(region.y, region.bottom)]
                inside = [row[1:-1].strip() for row in drawn[1:-1]]
                assert len(facts.lines) == 3 and inside == [
                    _words_cut(fact, region.width - 2) for fact in facts.lines
                ], drawn
                if not facts.dealer:
                    assert "…" not in drawn[-1] and str(facts.cards) in drawn[-1], drawn
            # Past three digits, the word gives way to the number.
            assert _fit(tr(lang, "score") + " -155", 8).endswith("… -155")

    run(go())


def _words_cut(fact: str, width: int) -> str:
    """``fact`` as a box ``width`` wide shows it: whole, or its word cut short before its
    number."""
    if len(fact) <= width:
        return fact
    word, number = fact.rsplit(" ", 1)
    return f"{word[: width - len(number) - 2]}… {number}"


def test_the_replay_numbers_deals_once_in_the_game_s_word() -> None:
    """The title numbers the deal as the table did, among those the match was to have; the
    position counts the steps of the record, and numbers no deal again among those recorded
    (a match kept unfinished has fewer: "mão 1 de 3 · rodada 1 de 2" said two things)."""
    game = tapete.load("pocha(players=4, schedule=[1, 2, 3])")
    session = Session(game, ["human", "random", "random", "random"], 2)
    rng = random.Random(0)
    while session.state is not None and game.observe(session.state, None).deal == 0:
        turn = session.turn
        assert turn is not None
        session.push(turn, rng.choice(game.legal_actions(session.state)))
    replay = Replay(session.record())
    assert len(replay.record.deals) == 2
    scene = replay.scene("pt")
    assert scene.table.title == "Pocha — mão 1 de 3"
    assert scene.position == f"passo 0 de {replay.length}"
    assert replay.scene("en").position == f"step 0 of {replay.length}"
    pottle = tapete.load("pottle(deals=2, extra_deals=0)")
    _, rec = play(pottle, ["random"] * 4, seed=3)
    replay = Replay(rec)
    replay.go(replay.next_deal())
    scene = replay.scene("es")
    assert scene.table.title == "Pottle — reparto 2"
    assert scene.position == f"paso {replay.position} de {replay.length}"


def test_a_poch_replay_goes_run_by_run() -> None:
    """Poch has no tricks: the replay's trick keys go from one run of its race to the next (the
    step where each stops), and say so ("↓ ↑ run of cards", not the Sequence bowl's name)."""
    from tapete.tui.screens import ReplayScreen

    _, rec = play(tapete.load("poch(rounds=1)"), ["easy"] * 4, seed=3)
    replay = Replay(rec)
    ends = [
        i + 1 for i, step in enumerate(replay.steps) if any(e["type"] == "run" for e in step.events)
    ]
    assert len(ends) >= 2
    assert replay.next_trick() == ends[0]
    replay.go(ends[0])
    assert replay.next_trick() == ends[1]
    replay.go(ends[1])
    assert replay.previous_trick() == ends[0]
    keys = {action: word for _, word, action in ReplayScreen(replay).bar_keys()}
    assert keys["next_trick"] == "run of cards"


@pytest.mark.parametrize(
    ("spec", "size"),
    [
        ("pocha(players=8)", (80, 24)),
        ("pottle(players=7, deals=1)", (80, 24)),
        ("pocha(players=8)", (120, 40)),
    ],
)
def test_every_seat_s_name_is_whole_at_the_most_seats_a_game_has(
    spec: str, size: tuple[int, int], tmp_path: Path
) -> None:
    """Eight seats at 80 columns cut the names in the boxes' borders to three letters
    ("Car…"): each box has its name whole (on its first line where the border has no room for
    it, the seat to act shown reversed), its facts under it, and the row keeps its height."""
    from tapete.tui.widgets import SeatsRow

    game = tapete.load(spec)
    seats = ["human"] + ["random"] * (game.players - 1)

    async def go() -> None:
        app = make_app(spec, seats, 4, tmp_path)
        async with app.run_test(size=size) as pilot:
            screen = await settle(pilot)
            row = screen.query_one(SeatsRow)
            assert row.region.height == 5
            lines = screen_lines(app)
            names = screen.session.display_names("en")
            assert names[2] == "Carmen"
            for box, name in zip(row.children, names, strict=True):
                region = box.region
                top = lines[region.y][region.x : region.right]
                assert f"{name}" in top and "…" not in top, (name, lines[: region.bottom])
            if size[0] == 80:  # the first line's name, reversed for the seat to act
                you = row.children[0]
                body = getattr(you, "content", None)
                assert you.has_class("-turn") and isinstance(body, Text)
                assert body.plain.splitlines()[0] == "you"
                assert any("reverse" in str(span.style) for span in body.spans)

    run(go())
