"""The screens: the table you play at, a replay, the rules, the saved matches, the match summary."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.table import Table as RichTable
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Markdown, Static

from tapete import coach
from tapete.errors import RecordError, SpecError
from tapete.i18n import error_text, rule_text, tr
from tapete.match import choose_or_stand_in
from tapete.narrate import hint_text, isolated, outcome_words, who_won
from tapete.present import deal_unit, game_title, option_lines, trick_unit
from tapete.record import Record
from tapete.tui import records
from tapete.tui.records import short_date
from tapete.tui.saving import ChoiceRow, SaveAsScreen, Why, advice, failure_lines, suggested_file
from tapete.tui.session import RESERVED, SPEEDS, Replay, Scene, Session, cleared
from tapete.tui.widgets import (
    ActionBar,
    ActionButton,
    BowlsBoard,
    CardView,
    HandRow,
    InfoPanel,
    KeyBar,
    LogView,
    MessageLine,
    OpenHands,
    ScoreBoard,
    SeatsRow,
    StepButton,
    TitleBar,
    TrickArea,
    seat_label,
)

if TYPE_CHECKING:
    from tapete.game import Game
    from tapete.tui.app import TapeteApp

__all__ = ["RecordsScreen", "ReplayScreen", "RulesScreen", "SummaryScreen", "TableScreen"]

log = logging.getLogger("tapete.tui")

# The smallest terminal the table is drawn for (tapete.tcss): short of it the hand, the moves
# or the keys would be cut off, so the screen says so instead of showing half a table.
MIN_COLUMNS, MIN_ROWS = 80, 24


def too_small(lang: str, columns: int, rows: int) -> str | None:
    """What to tell a person whose terminal is ``columns`` x ``rows``: None when the table fits
    (``MIN_COLUMNS`` x ``MIN_ROWS`` or more), else how big it must be and the other way to play.

    >>> too_small("en", 80, 24) is None
    True
    >>> print(too_small("en", 60, 20))
    The table needs a terminal of at least 80x24; this one is 60x20.
    Make it larger (^Q quits), or play at the line prompt: tapete play --plain
    """
    if columns >= MIN_COLUMNS and rows >= MIN_ROWS:
        return None
    need = tr(
        lang,
        "The table needs a terminal of at least {needed}; this one is {size}.",
        needed=f"{MIN_COLUMNS}x{MIN_ROWS}",
        size=f"{columns}x{rows}",
    )
    how = tr(lang, "Make it larger (^Q quits), or play at the line prompt: tapete play --plain")
    return f"{need}\n{how}"


def _keys(bindings: list[BindingType]) -> list[tuple[str, str, str]]:
    out = []
    for b in bindings:
        if isinstance(b, Binding) and b.show and b.description:
            shown = b.key_display or b.key.split(",")[0]
            out.append((shown, b.description, b.action))
    return out


class TapeteScreen(Screen[None]):
    """A screen of the terminal app, with its app's settings at hand."""

    @property
    def tapete(self) -> TapeteApp:
        from tapete.tui.app import TapeteApp

        assert isinstance(self.app, TapeteApp)
        return self.app

    @property
    def lang(self) -> str:
        return self.tapete.settings.lang


class SceneScreen(TapeteScreen):
    """A screen drawing one reactive scene; the language and theme keys work everywhere."""

    scene: reactive[Scene | None] = reactive(None)
    selected = -1  # the card the arrow keys point at (-1: none)
    amount: int | None = None  # the amount a stepper shows (None: its first)

    def redraw(self) -> None:
        raise NotImplementedError

    @property
    def cramped(self) -> bool:
        """Whether the terminal is too small for the table (``too_small``)."""
        return self.has_class("-too-small")

    def check_size(self) -> None:
        """Hide the table behind a message saying why while the terminal is too small for it;
        show it again once it fits."""
        size = self.app.size
        said = too_small(self.lang, size.width, size.height)
        self.set_class(said is not None, "-too-small")
        if said is not None:
            self.query_one("#too-small", Static).update(said)

    def on_resize(self) -> None:
        self.check_size()

    def on_screen_resume(self) -> None:
        self.check_size()
        self.redraw()  # the language may have changed on a screen above

    def watch_scene(self, scene: Scene | None) -> None:
        if scene is not None:
            self.query_one(KeyBar).show(self.bar_keys(), scene.lang)

    def bar_keys(self) -> list[tuple[str, str, str]]:
        """The keys the bar shows: (key, its word in English, its action)."""
        return _keys(list(self.BINDINGS))

    def action_language(self) -> None:
        self.tapete.cycle_language()
        self.check_size()
        self.redraw()

    def action_contrast(self) -> None:
        self.tapete.toggle_contrast()

    def action_rules(self) -> None:
        # Every seat's name whole, with its bot level: the boxes and the scores may cut it short.
        seats = [box.name for box in self.scene.table.seats] if self.scene is not None else []
        rules = RulesScreen(
            self.game_page(), self.game_name(), self.key_help(), self.played(), seats
        )
        self.app.push_screen(rules)

    def key_help(self) -> RichTable | None:
        """The keys of this screen, said in full above the rules (F1 or ?); None: the bar at
        its foot names them all."""
        return None

    def game_page(self) -> str:
        raise NotImplementedError

    def game_name(self) -> str:
        raise NotImplementedError

    def played(self) -> Game[Any, Any]:
        """The game on this screen, with the options it is played under."""
        raise NotImplementedError

    def playing_widgets(self) -> ComposeResult:
        """The table with your hand, your moves, the message line, the log and the scores."""
        cls = type(self)
        yield from self.table_widgets()
        yield HandRow(id="hand").data_bind(scene=cls.scene)
        yield ActionBar(id="actions").data_bind(scene=cls.scene)
        yield MessageLine(id="message").data_bind(scene=cls.scene)
        with Horizontal(id="bottom"):
            yield LogView(id="log").data_bind(scene=cls.scene)
            yield ScoreBoard(id="scores").data_bind(scene=cls.scene)
        yield KeyBar(id="keys")

    def act(self, action: int | None) -> None:
        """Make the move ``action`` for the person (None: a key or a click that names none)."""

    def action_amount(self, step: int) -> None:
        """The stepper's amount one lower or higher (``-`` and ``+``)."""
        self.step_amount(step)

    @on(Button.Pressed)
    def button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, ActionButton):
            self.act(event.button.action_id)
        elif isinstance(event.button, StepButton):
            self.action_amount(event.button.step)

    def step_amount(self, step: int) -> bool:
        """The stepper's amount ``step`` lower or higher, redrawn; False when no stepper shows."""
        buttons = self.scene.buttons if self.scene else ()
        stepper = next((b for b in buttons if b.stepper), None)
        if stepper is None:
            return False
        self.amount = stepper.step(step)
        self.redraw()
        return True

    def action_cursor(self, step: int) -> None:
        """← and →: the card the arrows point at, one to the left or right."""
        cards = self.scene.cards if self.scene else ()
        if cards:
            self.selected = (self.selected + step) % len(cards) if self.selected >= 0 else 0
            self.redraw()

    def table_widgets(self) -> ComposeResult:
        cls = type(self)
        yield Static(id="too-small")
        yield TitleBar(id="title").data_bind(scene=cls.scene)
        yield SeatsRow(id="seats").data_bind(scene=cls.scene)
        with Horizontal(id="middle"):
            yield TrickArea(id="trick").data_bind(scene=cls.scene)
            yield BowlsBoard(id="bowls").data_bind(scene=cls.scene)
            yield InfoPanel(id="info").data_bind(scene=cls.scene)


BOTTOM_ROWS = 4  # the log's least height (tapete.tcss #bottom): the message wraps above it


def _page(game: Any) -> str:
    from tapete.games import ENTRIES

    return str(ENTRIES[game.name].module.rsplit(".", 1)[-1])


def _phrase(phrase: str, **params: Any) -> Callable[[str], str]:
    """``phrase`` with its ``params``, to be said in whichever language the table is in."""
    return lambda lang: tr(lang, phrase, **params)


class HandOverScreen(ModalScreen[None]):
    """The curtain between two people sharing the terminal: the table out of sight until the
    one whose turn it is takes it (Enter).

    Keys reach it only ``SETTLE`` seconds after it rises: the Enter that played a card, pressed
    twice or held, must not lift it at once and show the next person's hand to the one who
    just played."""

    SETTLE = 0.6  # seconds: longer than a double press or a key's first repeat

    DEFAULT_CSS = """
    HandOverScreen { align: center middle; background: $background; }
    HandOverScreen > Static { width: auto; max-width: 90%; padding: 1 2; border: round $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "take", "take")]

    def __init__(self, lang: str, name: str) -> None:
        super().__init__()
        self.lang, self.name_ = lang, name
        self._risen = time.monotonic()

    def compose(self) -> ComposeResult:
        phrase = "{name}, your turn: take the terminal and press Enter to see your cards"
        yield Static(Text(tr(self.lang, phrase, name=isolated(self.name_)), style="bold"))

    def action_take(self) -> None:
        if time.monotonic() - self._risen >= self.SETTLE:
            self.dismiss(None)


class TableScreen(SceneScreen):
    """The table you play at. Every key and click ends in ``act``; bots move in a worker."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "hint"),
        Binding("u,ctrl+z", "undo", "undo"),
        Binding("f1,question_mark", "rules", "rules", key_display="F1"),
        Binding("f2", "language", "language", key_display="F2"),
        Binding("f3", "speed", "speed", key_display="F3"),
        Binding("f4", "contrast", "contrast", key_display="F4"),
        Binding("f5", "records", "records", key_display="F5"),
        Binding("ctrl+q", "app.quit", "quit", key_display="^Q"),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("enter,space", "play_selected", show=False),
        Binding("minus", "amount(-1)", show=False),
        Binding("plus,equals_sign", "amount(1)", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self._message = ""
        self._words: Callable[[str], str] | None = None  # the message, worded in a language
        self.hinted: int | None = None
        self.selected = -1
        self.amount: int | None = None  # the amount a stepper shows (None: its first)
        self.bots_running = False
        self.finished = False
        self.saved_to: Path | None = None  # where the finished match is (None: in no file)
        # The match's file in the records folder, kept up to date as it is played, so a crash
        # or a closed terminal loses nothing: each of your moves, and the bots' up to your turn.
        self.kept: Path | None = None
        # What ``kept`` held when the match was resumed from it (``--resume``): quitting without
        # saving puts it back. None: ``kept`` is this sitting's own.
        self.saved_before: Record | None = None
        # What ``kept`` holds as this table last wrote (or found) it: a second tapete going on
        # with the same save writes its own moves there, and this match then takes a new file.
        self.written: Record | None = None
        # What the ``--record`` file held when the match was resumed from it (without
        # --record, the file resumed from is that file): quitting without saving puts it back.
        self.copy_before: Record | None = None
        self.failed: tuple[tuple[Path, Why], ...] = ()  # the places the last write failed, why

    def compose(self) -> ComposeResult:
        yield from self.playing_widgets()

    def on_mount(self) -> None:
        self.check_size()
        self.advance()

    def game_page(self) -> str:
        return _page(self.session.game)

    def game_name(self) -> str:
        return self.session.game.name

    def played(self) -> Game[Any, Any]:
        return self.session.game

    def key_help(self) -> RichTable:
        """Every key of the table, those the bar at its foot leaves out among them (the arrows,
        Enter, - and +), in the table's language."""
        rows = [
            (
                "1 … 9, 0",
                "play the card with that key (past the tenth card, a letter: [a]); [1] marks a card"
                " you may play now",
            ),
            ("← → Enter", "choose a card (it shows between › and ‹), then play it"),
            (
                "a b c …",
                "the move of the button showing that letter or digit: bid, sing, raise, accept,"
                " run, bet, pass",
            ),
            ("- +", "a lower or higher amount on the button between them; its letter places it"),
            ("h", "a hint from the hard bot"),
            ("u  ^Z", "undo your last move"),
            ("F1  ?", "these rules and keys"),
            ("F2", "language"),
            ("F3", "the bots' speed"),
            ("F4", "high contrast"),
            ("F5", "saved matches"),
            ("^Q", "quit"),
        ]
        table = RichTable(
            title=tr(self.lang, "Keys at the table"),
            title_justify="left",
            show_header=False,
            box=None,
        )
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for keys, what in rows:
            table.add_row(keys, Text(tr(self.lang, what)))  # words, not markup: "[a]" shows
        return table

    def redraw(self) -> None:
        self.scene = self.session.scene(
            self.lang, self.message, self.hinted, self.selected, self.amount
        )
        self.call_after_refresh(self.fit_message)
        self.hand_over()

    def hand_over(self) -> None:
        """People sharing the terminal: before it shows the hand of another than the one it was
        handed to, a curtain covers the table until that one takes the terminal (Enter), so
        that nobody sees a hand not theirs."""
        session = self.session
        turn = session.turn
        if (
            turn is None
            or len(session.humans) < 2
            or self.finished
            or not self.waiting_for_you
            or turn == session.handed_to
            or any(isinstance(s, HandOverScreen) for s in self.app.screen_stack)
        ):
            return

        def taken(_: None) -> None:
            session.handed_to = turn
            self.redraw()

        name = session.display_names(self.lang)[turn]
        self.app.push_screen(HandOverScreen(self.lang, name), taken)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_message)

    def fit_message(self) -> None:
        """Let the message line wrap onto the rows the table can spare (up to three): what a
        decision means is read whole where there is room, and the log and the keys stay in
        sight on the smallest table (Poch's board at 80x24 spares none)."""
        line, bottom = self.query_one(MessageLine), self.query_one("#bottom")
        shown = [w for w in self.children if w.display]
        if not shown:
            return
        # The rows the table takes, margins included, but for the message and the log.
        span = shown[-1].region.bottom - shown[0].region.y
        used = span - line.outer_size.height - bottom.outer_size.height
        room = self.size.height - used - BOTTOM_ROWS
        rows = max(1, min(3, room))
        if line.styles.max_height is None or line.styles.max_height.value != rows:
            line.styles.max_height = rows

    @property
    def waiting_for_you(self) -> bool:
        return not self.bots_running and self.session.turn in self.session.humans

    # -- moves

    def act(self, action: int | None) -> None:
        """Play ``action`` for you: refused with the rule's sentence, or played and bots go on."""
        if action is None or self.cramped:
            return  # a move chosen on a table out of sight is not played
        if not self.waiting_for_you:
            self.say("wait for your turn")
            return
        error = self.session.try_action(action)
        if error is not None:
            self.say(
                lambda lang: tr(
                    lang, "not allowed: {why}", why=rule_text(lang, error.rule, error.message)
                )
            )
            return
        self.message, self.hinted, self.amount = "", None, None
        self.selected = min(self.selected, len(self.session.scene(self.lang).cards) - 1)
        self.keep()
        self.advance()

    def keep(self) -> None:
        """Write the match so far over its file in the records folder (a new one at first).
        A match just over is left to ``finish``, which writes it and tells on the summary."""
        # A match with a move, or one already kept (every move undone: written over too).
        started = bool(self.session.steps) or self.kept is not None
        if started and not self.finished and self.session.over is None:
            rec = self.session.record()
            written = self.tapete.save_record(rec, self.kept, self.written)
            if written.path is not None:
                self.kept, self.written = written.path, rec
            if written.failed and written.failed != self.failed:
                # Said once, not at every move; ^Q and the end of the match say it again.
                lines = failure_lines(self.lang, written.failed)
                self.notify("\n".join(lines), severity="error", timeout=10, markup=False)
            self.failed = written.failed

    @property
    def message(self) -> str:
        """The message line, in the table's language now: one said before F2 changed it is
        said again in the new one (a refusal read in a language you do not read, say)."""
        return self._words(self.lang) if self._words is not None else self._message

    @message.setter
    def message(self, text: str) -> None:
        self._message, self._words = text, None

    def say(self, words: str | Callable[[str], str], **params: Any) -> None:
        """Show ``words`` on the message line: a phrase of ``tr`` with its ``params``, or a
        function of the language that words it."""
        self._words = words if callable(words) else _phrase(words, **params)
        self.redraw()

    def advance(self) -> None:
        self.redraw()
        if self.session.over is not None:
            self.finish()
        elif self.session.bot_to_act:
            self.play_bots()

    @work(exclusive=True, group="bots")
    async def play_bots(self) -> None:
        session = self.session
        self.bots_running = True
        try:
            while session.bot_to_act:
                version = session.version
                delay = SPEEDS.get(self.tapete.settings.speed, 0.0)
                # A trick taken (or a Poch run laid) stays in sight a moment longer.
                took = bool(session.steps) and cleared(session.steps[-1])
                await asyncio.sleep(delay * (2 if took else 1))
                seat, view, legal, bot, rng = session.bot_job()
                action, failure = await asyncio.to_thread(choose_or_stand_in, bot, view, legal, rng)
                if version != session.version:
                    return
                if failure is not None:  # a bot's bug: a random legal move stands in, and you hear
                    log.error("%s failed at move %d", bot.name, version, exc_info=failure)
                    self._words = _phrase(
                        "{name} failed to choose a move: a random legal move was played for it",
                        name=isolated(session.seat_title(seat, self.lang)),
                    )
                session.push(seat, action, stand_in=failure is not None)
                if delay:  # instant bots: draw once they are done
                    self.redraw()
        finally:
            self.bots_running = False
            if self.message == tr(self.lang, "wait for your turn"):
                self.message = ""  # said while the bots played: your turn has come
        if session.over is not None:
            self.finish()
        else:
            self.keep()
            self.redraw()

    def finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        rec = self.session.record()
        written = self.tapete.save_record(rec, self.kept, self.written)
        if written.path is not None:
            self.kept, self.written = written.path, rec
        self.saved_to, self.failed = written.path or written.copy, written.failed
        if self.failed:
            # The summary tells where and why: a notice still up from a move would say it twice.
            self.app.clear_notifications()
        self._words = self.over_message
        self.redraw()
        summary = SummaryScreen(self.session, rec, self.saved_to, self.failed, written.copy)
        self.app.push_screen(summary)

    def over_message(self, lang: str) -> str:
        """The message line once the match is over: while it is in no file, that it is not
        saved and how to save it, for as long as that holds."""
        if self.saved_to is None:
            return tr(lang, "match over, not saved: s saves it in another file, r rematch")
        return tr(lang, "match over: press r for a rematch")

    def save_elsewhere(self) -> None:
        """``s`` on a finished match in no file: ask for a file and write it there."""

        def saved(path: Path | None) -> None:
            if path is not None:
                self.saved_elsewhere(path)

        suggestion = suggested_file(self.session.record())
        self.app.push_screen(SaveAsScreen(self.lang, self.session.record(), suggestion), saved)

    def saved_elsewhere(self, path: Path) -> None:
        """The match is now in ``path``: the screens say so instead of that it is not saved."""
        self.saved_to = path
        if self.finished:
            self.say("saved as {file}", file=str(path))
        for summary in self.app.screen_stack:
            if isinstance(summary, SummaryScreen) and summary.session is self.session:
                summary.saved(path)

    # -- keys and clicks

    def on_key(self, event: events.Key) -> None:
        scene = self.scene
        if scene is None or event.character is None:
            return
        if self.cramped and event.is_printable:
            event.stop()  # the table is out of sight: its keys do nothing until it shows
            return
        if self.finished and event.character == "r":
            event.stop()
            self.tapete.rematch()
            return
        if self.finished and event.character == "s" and self.saved_to is None:
            event.stop()
            self.save_elsewhere()
            return
        key = event.character
        keyed = scene.key_map()
        if key in keyed:
            event.stop()
            self.act(keyed[key])
            return
        if self.finished or not key.isalnum() or key in RESERVED:
            return  # the screen's own keys (hint, undo, rules...) go on to their bindings
        event.stop()
        if not self.waiting_for_you:
            self.say("wait for your turn")
        elif key.isdecimal() and any(c.key for c in scene.cards):
            self.say("no card {n}", n=key)  # a card's key, past your hand
        elif (action := self.session.key_action(key, scene)) is not None:
            self.act(action)  # a move the rules forbid now: refused with the rule's sentence
        else:
            self.say("no key {key} here", key=key)

    @on(CardView.Chosen)
    def card_chosen(self, message: CardView.Chosen) -> None:
        self.act(self.session.card_action(message.card))

    def action_amount(self, step: int) -> None:
        if self.step_amount(step) or self.cramped or self.finished:
            return
        if not self.waiting_for_you:
            self.say("wait for your turn")
        else:  # no amount to choose: said, as any other key that is no move here
            self.say("no key {key} here", key="-" if step < 0 else "+")

    def action_play_selected(self) -> None:
        """Enter plays the chosen card; with none chosen it says what to do, as any other key
        that is no move here."""
        cards = self.scene.cards if self.scene else ()
        if 0 <= self.selected < len(cards):
            self.act(cards[self.selected].action)
        elif self.cramped or self.finished:
            return
        elif not self.waiting_for_you:
            self.say("wait for your turn")
        elif any(c.legal for c in cards):
            self.say("choose a card first: its key, or ← and →")
        else:
            self.say("no key {key} here", key="Enter")

    # -- hint, undo, settings

    def action_hint(self) -> None:
        self.find_hint()

    @work(exclusive=True, group="hint")
    async def find_hint(self) -> None:
        if self.finished:
            self.say(self.over_message)
            return
        if not self.waiting_for_you:
            self.say("wait for your turn")
            return
        version = self.session.version
        self.say("thinking…")
        try:
            decision = await asyncio.to_thread(self.session.hint)
        except SpecError:
            self.say("no hint for this game yet")
            return
        if version != self.session.version:
            return
        self.hinted, self.amount = decision.action, None  # a stepper shows the hinted amount
        game = self.session.game
        view = game.observe(self.session.state, self.session.turn)
        self.say(lambda lang: hint_text(game, view, decision, lang))

    def action_undo(self) -> None:
        if len(self.session.humans) != 1:
            self.say("undo is only for a match against bots")
            return
        if not self.session.can_undo:
            # The bots, if they are playing (before your first move), play on.
            self.say("nothing to undo")
            return
        self.workers.cancel_group(self, "bots")
        self.bots_running = False
        self.session.undo()
        self.hinted, self.amount = None, None
        self._words = _phrase("your last move is undone")
        self.keep()  # the kept match is the one on the table, without the move undone
        self.advance()

    def action_speed(self) -> None:
        speed = self.tapete.cycle_speed()
        self.say(lambda lang: tr(lang, "bot speed: {speed}", speed=tr(lang, speed)))

    def action_records(self) -> None:
        self.app.push_screen(RecordsScreen())


class ReplayScreen(SceneScreen):
    """A record stepped through, every hand open."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Keys in pairs (forward and back) under one word: the bar fits 80 columns.
        Binding("right", "forward", "step", key_display="→ ←"),
        Binding("left", "back", show=False),
        Binding("down", "next_trick", "trick", key_display="↓ ↑"),
        Binding("up", "previous_trick", show=False),
        Binding("pagedown,n", "next_deal", "deal", key_display="n p"),
        Binding("pageup,p", "previous_deal", show=False),
        Binding("home", "start", show=False),
        Binding("end", "end", show=False),
        Binding("r", "review", "review"),
        Binding("f1", "rules", "rules", key_display="F1"),
        Binding("f2", "language", "language", key_display="F2"),
        Binding("escape,q", "close", "close", key_display="esc"),
    ]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.reviewing = False

    def bar_keys(self) -> list[tuple[str, str, str]]:
        """The keys that go a deal or a trick on say the game's own words for them: a Truco
        record goes hand by hand (mão, mano) and round by round (rodada, ronda), as its log
        and rules say, not by "rodada" and "vaza"."""
        words = {"deal": deal_unit(self.replay.game), "trick": trick_unit(self.replay.game)}
        return [(key, words.get(word, word), action) for key, word, action in super().bar_keys()]

    def action_review(self) -> None:
        """The coach's review of every decision (``tapete analyze``), worked out in the
        background; each step then tells how its decision compares with the best."""
        if not self.reviewing:
            self.reviewing = True
            self.run_worker(self._review, thread=True)

    def _review(self) -> None:
        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        # Your own decisions when the match was played here, else every seat's; in this process
        # (a terminal app's standard streams are not a child process's to inherit).
        you = self.replay.you
        seats = None if you is None else [you]
        result = coach.review(self.replay.record, seats=seats, progress=progress)
        self.app.call_from_thread(self._reviewed, result)

    def _progress(self, done: int, total: int) -> None:
        if self.scene is not None:
            line = tr(self.lang, "reviewing decision {done} of {total}", done=done, total=total)
            self.scene = replace(self.scene, message=line)

    def _reviewed(self, result: coach.Review) -> None:
        self.replay.reviewed(result)
        self.redraw()

    def compose(self) -> ComposeResult:
        yield from self.table_widgets()
        yield OpenHands(id="hands").data_bind(scene=ReplayScreen.scene)
        yield MessageLine(id="message").data_bind(scene=ReplayScreen.scene)
        with Horizontal(id="bottom"):
            yield LogView(id="log").data_bind(scene=ReplayScreen.scene)
            yield ScoreBoard(id="scores").data_bind(scene=ReplayScreen.scene)
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self.check_size()
        self.fit()
        self.redraw()

    def on_resize(self) -> None:
        self.check_size()
        self.fit()
        self.redraw()

    def fit(self) -> None:
        """Short of rows for every box at its tallest (80x24 with five seats), the middle row
        gives up its seventh: the trick box keeps its latest plays and who took the last
        trick, the facts share lines; the hands, the message and the log keep theirs. Short
        even so (six seats and more), the hands go two to a line."""
        # The rows beside the middle's, as the stylesheet has them: the title (1), the seats
        # (5), the hands (a line a seat under their rule), the message (1), the log at its
        # least (4), the keys (the lines they take).
        keys = max(1, self.query_one(KeyBar).region.height)
        players, height = self.replay.game.players, self.app.size.height
        rows = 1 + 5 + 1 + 1 + 4 + keys
        paired = rows + players + 6 > height
        self.query_one(OpenHands).paired = paired
        rows += (players + 1) // 2 if paired else players
        most = 7 if rows + 7 <= height else 6
        for box in self.query("#middle, #trick, #info"):
            box.styles.max_height = most

    def game_page(self) -> str:
        return _page(self.replay.game)

    def game_name(self) -> str:
        return self.replay.game.name

    def played(self) -> Game[Any, Any]:
        return self.replay.game

    def redraw(self) -> None:
        self.scene = self.replay.scene(self.lang)

    def move(self, where: int) -> None:
        self.replay.go(where)
        self.redraw()

    def action_forward(self) -> None:
        self.move(self.replay.position + 1)

    def action_back(self) -> None:
        self.move(self.replay.position - 1)

    def action_next_trick(self) -> None:
        self.move(self.replay.next_trick())

    def action_previous_trick(self) -> None:
        self.move(self.replay.previous_trick())

    def action_next_deal(self) -> None:
        self.move(self.replay.next_deal())

    def action_previous_deal(self) -> None:
        self.move(self.replay.previous_deal())

    def action_start(self) -> None:
        self.move(0)

    def action_end(self) -> None:
        self.move(self.replay.length)

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()


class RulesScreen(Screen[None]):
    """How to play the game, in the player's language (``tapete.howto``); ``f`` swaps it for the
    full rules page as implemented (``docs/rules/<game>.<lang>.md``; in English where that
    language has none, and then a note says so, with the game's summary in that language) and
    back. Opened from a table or a replay, it says first which options that match is played
    under: the how-to page tells the game's defaults."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1", "app.pop_screen", "close"),
        Binding("f", "full", "full rules"),
    ]

    def __init__(
        self,
        page: str,
        game: str | None = None,
        keys: RichTable | None = None,
        played: Game[Any, Any] | None = None,
        seats: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.played = played  # the match's game, its options in force
        self.seats = tuple(seats)  # who sits where, each name whole (the boxes may cut it)
        self.page = page  # the rules module: oh_hell's page is pocha's
        self.game = game
        self.keys = keys  # the keys of the screen it was opened from, listed before the rules
        self.full = False

    def lang(self) -> str:
        return self.app.settings.lang if hasattr(self.app, "settings") else "en"

    def text(self) -> str:
        from tapete import howto

        lang = self.lang()
        return howto.reference(self.page, lang) if self.full else howto.page(self.page, lang)

    def note(self) -> Text:
        """Over a full page shown in English to a player of Spanish or Portuguese (its translation
        missing): that it is in English, and the game in a sentence in the player's language.
        Nothing over the how-to page or a translated full page."""
        from tapete import howto
        from tapete.games import ENTRIES

        lang, entry = self.lang(), ENTRIES.get(self.game or self.page)
        if not self.full or entry is None or howto.reference_language(self.page, lang) == lang:
            return Text()
        summary = tr(lang, entry.summary)
        line = tr(
            lang, "The rules text is in English; a summary of the game: {summary}", summary=summary
        )
        return Text(line, style="italic")

    def in_force(self) -> Text:
        """The rules of the match this page was opened from: the game and each option that
        differs from the page's (Oh Hell's own defaults among them, on Pocha's page), as the
        lobby names them; or that it is played by the rules below."""
        from tapete.games import load

        lang, game = self.lang(), self.played
        assert game is not None
        lines = option_lines(lang, game, load(self.page))
        if lines:
            shown = f"{game_title(game)} — {', '.join(lines)}"
            line = tr(lang, "At this table: {game}", game=shown)
        else:
            line = tr(
                lang, "At this table: {game}, with its standard options", game=game_title(game)
            )
        return Text(line, style="bold")

    def seated(self) -> Text:
        """Who sits at the table, in seat order, each name whole with its bot level (a box of
        eight seats at 80 columns, a score's column, show only the first letters)."""
        # A name and its level kept on one line ("Fábio · easy"), a line breaking between two.
        names = ", ".join(seat_label(name).replace(" · ", "\u00a0·\u00a0") for name in self.seats)
        return Text(tr(self.lang(), "Seats: {names}", names=names))

    def compose(self) -> ComposeResult:
        yield Static(self.note(), id="rules-note")
        with VerticalScroll(id="rules"):
            if self.keys is not None:
                yield Static(self.keys, id="rules-key-list")
            if self.played is not None:
                yield Static(self.in_force(), id="rules-in-force")
            if self.seats:
                yield Static(self.seated(), id="rules-seats")
            yield Markdown(self.text(), id="rules-page")
        yield Static(id="rules-keys")

    def on_mount(self) -> None:
        self.show_keys()
        self.query_one("#rules", VerticalScroll).focus()

    def show_keys(self) -> None:
        lang = self.lang()
        other = tr(lang, "how to play" if self.full else "full rules")
        self.query_one("#rules-note", Static).display = bool(self.note().plain)
        self.query_one("#rules-keys", Static).update(
            f"[b]esc[/b] {tr(lang, 'close')}   [b]↑ ↓[/b] {tr(lang, 'scroll')}   [b]f[/b] {other}"
        )

    async def action_full(self) -> None:
        self.full = not self.full
        self.query_one("#rules-note", Static).update(self.note())
        await self.query_one("#rules-page", Markdown).update(self.text())
        self.query_one("#rules", VerticalScroll).scroll_home(animate=False)
        self.show_keys()


class RecordsScreen(TapeteScreen):
    """The matches saved in the data folder; Enter replays one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f5", "close", "close"),
        Binding("f2", "language", "language"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.found = records.Listing([], [])  # read at mount, and again in another language
        self.saved: list[records.Saved] = []
        self.drawn_for = (0, "")  # the width and language the list was laid out for

    def compose(self) -> ComposeResult:
        yield Static(id="records-title")
        yield DataTable(id="records", cursor_type="row")
        yield Static(id="records-unreadable")
        yield Static(id="records-keys")

    def on_mount(self) -> None:
        self.found = records.folder_records(self.tapete.records_dir, lang=self.lang)
        self.saved = self.found.saved
        self.drawn_for = (0, "")
        self.fill()
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        self.fill()

    def action_language(self) -> None:
        """The next language (F2), as at the table: the list says its seats and results in it."""
        self.tapete.cycle_language()
        self.found = records.folder_records(self.tapete.records_dir, lang=self.lang)
        self.saved = self.found.saved
        self.fill()

    def fill(self) -> None:
        """The list laid out for the screen's width (``record_columns``), in its language."""
        lang, width = self.lang, self.app.size.width
        if self.drawn_for == (width, lang):
            return
        self.drawn_for = (width, lang)
        foot = self.query_one("#records-unreadable", Static)
        foot.display = bool(self.found.unreadable)
        foot.update(Text(unreadable_line(lang, [path for path, _ in self.found.unreadable])))
        title = tr(lang, "saved matches") + f" — {self.tapete.records_dir}"
        self.query_one("#records-title", Static).update(Text(title, style="bold"))
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        rows = [
            # The game as the app names it, not the record's spec ("pocha(players=8)").
            (short_date(lang, s.at) if s.at else s.when, s.title or s.game, s.seats, s.result)
            for s in self.saved
        ]
        heads = [tr(lang, w) for w in ("date", "game", "players", "result")]
        # The table's cells take a column of padding each side, its scrollbar two.
        room = width - 2 * len(heads) - 2
        widths = record_columns([[h, *(r[i] for r in rows)] for i, h in enumerate(heads)], room)
        for head, columns in zip(heads, widths, strict=True):
            table.add_column(Text(head), width=columns)
        for saved, cells in zip(self.saved, rows, strict=True):
            date, game, seats, result = cells
            # The players go on to more lines where they do not fit in one; the rest is cut.
            cut = [
                Text(_cut(c, w), no_wrap=True)
                for c, w in ((date, widths[0]), (game, widths[1]), (result, widths[3]))
            ]
            players = Text(_wrap_names(seats, widths[2]))
            table.add_row(cut[0], cut[1], players, cut[2], key=str(saved.path), height=None)
        if 0 < row < table.row_count:
            table.move_cursor(row=row)
        keys = (
            f"[b]enter[/b] {tr(lang, 'replay')}   [b]F2[/b] {tr(lang, 'language')}"
            f"   [b]esc[/b] {tr(lang, 'close')}"
        )
        if not self.saved:
            keys = tr(lang, "no saved matches yet") + "   " + keys
        self.query_one("#records-keys", Static).update(keys)

    @on(DataTable.RowSelected)
    def open_record(self, event: DataTable.RowSelected) -> None:
        from tapete import record

        path = event.row_key.value
        if path is None:
            return
        if any(
            isinstance(table, TableScreen)
            and not table.finished
            and table.kept is not None
            and str(table.kept) == path
            for table in self.app.screen_stack
        ):
            # Its replay would open every hand of the match you are playing.
            lang = self.tapete.settings.lang
            self.notify(
                tr(lang, "this is the match you are playing: its replay opens once it is over")
            )
            return
        try:
            replay = Replay(record.read(path))
        except (RecordError, OSError, ValueError) as exc:
            # A damaged record, or a game or rule option this tapete refuses, is said in the
            # app's language.
            self.notify(error_text(self.tapete.settings.lang, exc), severity="error", markup=False)
            return
        self.app.push_screen(ReplayScreen(replay))

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()


# The columns the players leave the game and the result, where not all fits: a spec such as
# "pocha(players=8, schedule=[1])" and the scores of eight seats are cut, the players not.
GAME_LEAST, RESULT_LEAST, PLAYERS_LEAST = 14, 18, 16


def record_columns(columns: Sequence[Sequence[str]], room: int) -> list[int]:
    """The widths of the saved matches' columns (date, game, players, result; each given as
    its heading and cells) in ``room`` cells: each as wide as its longest cell where all fit;
    else every column whole but the players, on two lines at most; else the date whole, the
    game and the result cut to a share (``GAME_LEAST``, ``RESULT_LEAST``), given back what
    the players leave over, and the players the rest, on as many lines as they take: their
    names are the row's to read.

    >>> record_columns([["date", "6 Dec 14:05"], ["game", "tute"], ["players", "you, Bruno"],
    ...                 ["result", "you: 91 49"]], 70)
    [11, 4, 10, 10]
    >>> eight = ", ".join(["you", *(f"random {n}" for n in range(1, 8))])
    >>> record_columns([["date", "6 Dec 14:05"], ["game", "pocha(players=8, schedule=[1])"],
    ...   ["players", eight], ["result", "random 2: 15 0 30 15 -5 0 0 -5"]], 110)
    [11, 30, 39, 30]
    >>> record_columns([["date", "6 Dec 14:05"], ["game", "pocha(players=8, schedule=[1])"],
    ...   ["players", eight], ["result", "random 2: 15 0 30 15 -5 0 0 -5"]], 70)
    [11, 14, 27, 18]
    """
    natural = [max((cell_len(c) for c in column), default=0) for column in columns]
    date, game, players, result = natural
    if sum(natural) <= room:
        return natural

    def lines(width: int) -> int:
        return max((_wrap_names(c, width).count("\n") + 1 for c in columns[2][1:]), default=1)

    left = room - date - game - result
    if left >= PLAYERS_LEAST and lines(left) <= 2:
        return [date, game, left, result]
    game, result = min(game, GAME_LEAST), min(result, RESULT_LEAST)
    left = room - date - game - result
    if left > players:  # the players whole on one line: the rest back to the result, the game
        more = min(left - players, natural[3] - result)
        result += more
        game += min(left - players - more, natural[1] - game)
        left = players
    return [date, game, max(PLAYERS_LEAST, left), result]


def _wrap_names(names: str, width: int) -> str:
    """The players' names (``you, random 1, random 2``) in lines of ``width`` cells, each
    line broken after a comma, never inside a name (``random`` and ``2`` on two lines)."""
    lines: list[str] = []
    parts = names.split(", ")
    for i, part in enumerate(parts):
        part += "," if i < len(parts) - 1 else ""
        if lines and cell_len(lines[-1]) + 1 + cell_len(part) <= width:
            lines[-1] += " " + part
        else:
            lines.append(part)
    return "\n".join(lines)


def _cut(text: str, width: int) -> str:
    """``text`` in ``width`` cells: whole where it fits, else cut with an ellipsis."""
    return text if cell_len(text) <= width else set_cell_size(text, width - 1) + "…"


def unreadable_line(lang: str, paths: Sequence[Path], most: int = 10) -> str:
    """The foot of the records list: how many files of the folder could not be read, their
    names (the first ``most``), and the command that says of each why, and what to do."""
    if not paths:
        return ""
    count = len(paths)
    told = tr(lang, "1 file could not be read") if count == 1 else ""
    told = told or tr(lang, "{n} files could not be read", n=count)
    names = ", ".join(path.name for path in paths[:most])
    if count > most:
        names += ", " + tr(lang, "and {n} more", n=count - most)
    return f"{told}: {names} ({tr(lang, 'tapete records --plain says why and what to do')})"


class SummaryScreen(ModalScreen[None]):
    """The end of the match: the final scores, the winners, where the record went; a rematch.
    A record that could not be written says where, why and what to do, until it is saved."""

    # No button takes the focus ("", where None would take the app's first focusable widget):
    # an Enter meant for the last card, pressed twice or held, would press the first button and
    # start a rematch before the result was read. Tab reaches them; their keys always work.
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", "rematch"),
        Binding("v", "replay", "replay"),
        Binding("s", "save_elsewhere", show=False),
        Binding("escape", "app.pop_screen", "close"),
    ]

    def __init__(
        self,
        session: Session,
        rec: Record,
        saved_to: Path | None,
        failed: Sequence[tuple[Path, Why]] = (),
        copy: Path | None = None,
    ) -> None:
        super().__init__()
        self.session, self.rec, self.saved_to = session, rec, saved_to
        self.widest = 0  # the longest line naming a file (compose)
        self.failed = tuple(failed)
        self.copy = copy  # the ``--record`` file, when it was written too

    def compose(self) -> ComposeResult:
        lang = self.app.settings.lang if hasattr(self.app, "settings") else "en"
        outcome = self.session.over
        names = self.session.display_names(lang)
        grid = RichTable(box=None, show_header=True, padding=(0, 2))
        scores = outcome.scores if outcome else ()
        labels = names if len(scores) == len(names) else [tr(lang, "team {n}", n=i) for i in (1, 2)]
        grid.add_column(tr(lang, "final scores"))
        grid.add_column("", justify="right")
        for label, score in zip(labels, scores, strict=False):
            # Set apart, or a Hebrew name pulls its score into its run, to its left.
            grid.add_row(Text(isolated(label)), str(score))
        # "Diego won", "you won": one winner is no "winners" (nor "ganó tú")
        winners = who_won(lang, names, outcome.winners, self.session.you) if outcome else ""
        # The keys line stays in view under a body that scrolls: on a small terminal the
        # scores, the winners and where the record went may be more rows than the screen has.
        files: list[tuple[str, str | None]] = []  # each line, and its id
        if self.saved_to is not None:
            saved = tr(lang, "saved as {file}", file=str(self.saved_to))
            files.append((saved, "summary-file"))
        if self.copy is not None and self.copy != self.saved_to:
            files.append((tr(lang, "also written to {file}", file=str(self.copy)), None))
        # The box widens, as far as the screen goes, for a file's line: a path is no words,
        # and cut at the box's edge it went on in the middle of a name on the next line.
        self.widest = max((len(line) for line, _ in files), default=0)
        box = Vertical(id="summary", classes="-not-saved" if self.failed else "")
        box.styles.width = self.width()
        with box:
            with VerticalScroll(id="summary-body"):  # tab, then the arrows, scroll it
                yield Static(Text(tr(lang, "match over"), style="bold"), id="summary-title")
                yield Static(grid)
                yield Static(winners, id="summary-winners", markup=False)
                # Equal scores and one winner: why (Tute's tie goes to the last trick).
                if outcome is not None and (why := outcome_words(lang, outcome)):
                    yield Static(why, id="summary-why", markup=False)
                for line, name in files:
                    yield Static(line, id=name, classes="summary-file", markup=False)
                if self.failed:
                    told = failure_lines(lang, self.failed)
                    told.append(advice(lang, self.saved_to is not None))
                    yield Static("\n".join(told), id="summary-not-saved", markup=False)
            with ChoiceRow(id="summary-buttons"):
                yield Button(f"r {tr(lang, 'rematch')}", id="rematch", compact=True)
                yield Button(f"v {tr(lang, 'replay')}", id="replay", compact=True)
                yield Button(f"esc {tr(lang, 'close')}", id="close", compact=True)

    # The rows of the box around its body and keys: the border and the padding, above and below.
    CHROME = 4
    SIDES = 6  # and its columns, left and right

    def on_mount(self) -> None:
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Keys side by side, or stacked on a narrow terminal; the body gets the rows they leave
        (and scrolls within them), so the keys line is never below the screen."""
        for box in self.query("#summary"):
            box.styles.width = self.width()
        row = self.query_one(ChoiceRow)
        row.fit()
        keys = (len(row.children) if row.has_class("-stacked") else 1) + 1  # and its margin
        room = self.app.size.height - self.CHROME - keys
        self.query_one("#summary-body").styles.max_height = max(1, room)

    def width(self) -> int:
        """The box's columns: as many as its lines naming a file take, within the screen."""
        base = 76 if self.failed else 60  # tapete.tcss: #summary and #summary.-not-saved
        return min(self.app.size.width, max(base, self.widest + self.SIDES))

    def saved(self, path: Path) -> None:
        """The record is now in ``path`` (saved elsewhere): say so, and no more that it is not."""
        self.saved_to, self.failed = path, ()
        self.refresh(recompose=True)

    def action_save_elsewhere(self) -> None:
        table = next((s for s in self.app.screen_stack if isinstance(s, TableScreen)), None)
        if self.saved_to is None and table is not None and table.session is self.session:
            table.save_elsewhere()

    @on(Button.Pressed, "#rematch")
    def action_rematch(self) -> None:
        # The summary stays up while a match in no file asks first: cancelled, it is still here.
        from tapete.tui.app import TapeteApp

        if isinstance(self.app, TapeteApp):
            self.app.rematch()

    @on(Button.Pressed, "#replay")
    def action_replay(self) -> None:
        self.app.pop_screen()
        self.app.push_screen(ReplayScreen(Replay(self.rec)))

    @on(Button.Pressed, "#close")
    def close(self) -> None:
        self.app.pop_screen()
