"""Leaving a match half-played: ^Q asks first, then keeps the match as an unfinished record.

The record (``result`` null) sits with the finished ones in the records folder; ``tapete play
--resume FILE`` deals it out again and goes on from its last move, ``tapete replay FILE`` steps
through it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tapete.i18n import tr
from tapete.record import write
from tapete.tui import records
from tapete.tui.saving import (
    SAVE_ELSEWHERE,
    ChoiceRow,
    NotSavedScreen,
    SaveAsScreen,
    suggested_file,
)

if TYPE_CHECKING:
    from tapete.tui.app import TapeteApp
    from tapete.tui.screens import TableScreen

__all__ = ["QuitScreen", "ask_to_quit"]

SAVE, DISCARD = "save", "discard"


def ask_to_quit(app: TapeteApp) -> None:
    """^Q: a match kept in a file, or untouched, just quits; one under way asks first, and so
    does a finished one that could not be saved (it would be lost)."""
    from tapete.tui.screens import TableScreen

    if isinstance(app.screen, (QuitScreen, NotSavedScreen, SaveAsScreen)):
        return  # already asking
    table = next((s for s in reversed(app.screen_stack) if isinstance(s, TableScreen)), None)
    if table is None or not table.session.steps or (table.finished and table.saved_to):
        app.exit()
        return
    if table.finished:
        ask_unsaved(app, table)
        return

    def answered(choice: str | None) -> None:
        if choice == SAVE:
            save_and_quit(app, table)
        elif choice == DISCARD:
            discard_and_quit(app, table)

    app.push_screen(QuitScreen(app.settings.lang), answered)


def discard_and_quit(app: TapeteApp, table: TableScreen) -> None:
    """Quit without saving: a match under way is not kept after all; one resumed from a save
    of the records folder is left in it as it was saved, and so is the record it was resumed
    from (the ``--record`` file). A save another tapete has written its own moves in since is
    left to it."""
    kept, written = table.kept, table.written
    if (
        not table.finished
        and kept is not None  # kept as played
        and written is not None
        and records.ours(kept, written)  # by this table alone
    ):
        if table.saved_before is None:
            kept.unlink(missing_ok=True)
        else:
            with contextlib.suppress(OSError):  # a folder gone read-only keeps the moves since
                write(table.saved_before, kept)
    copy = app.play_config.record_file if app.play_config is not None else None
    if not table.finished and table.copy_before is not None and copy is not None:
        with contextlib.suppress(OSError):
            write(table.copy_before, copy)
    app.exit()


def save_and_quit(app: TapeteApp, table: TableScreen) -> None:
    """Stop the bots, keep the match as an unfinished record, and leave saying where it went;
    where it could not be written, ask what to do instead of leaving."""
    table.workers.cancel_group(table, "bots")
    table.bots_running = False
    rec = table.session.record()
    written = app.save_record(rec, table.kept, table.written)
    if written.path is not None:
        table.kept, table.written = written.path, rec
    table.failed = written.failed
    path = written.path or written.copy
    if path is None:
        ask_unsaved(app, table)
        return
    quit_saying(app, table, path)


def quit_saying(app: TapeteApp, table: TableScreen, path: Path) -> None:
    """Leave, saying where the match is: an unfinished one with how to go on with it."""
    lang = app.settings.lang
    if table.finished:
        app.exit(message=tr(lang, "saved as {file}", file=path))
    else:
        app.exit(
            message=tr(
                lang, "match saved in {file}; tapete play --resume {file} goes on", file=path
            )
        )


def ask_unsaved(app: TapeteApp, table: TableScreen) -> None:
    """The match is in no file: say where and why it could not be written, and ask whether to
    save it in another file, quit without it, or stay."""
    lang = app.settings.lang

    def saved(path: Path | None) -> None:
        if path is not None:
            table.saved_elsewhere(path)
            quit_saying(app, table, path)
        else:
            table.advance()  # back at the table: the bots stopped to save go on

    def answered(choice: str | None) -> None:
        if choice == SAVE_ELSEWHERE:
            rec = table.session.record()
            app.push_screen(SaveAsScreen(lang, rec, suggested_file(rec)), saved)
        elif choice == DISCARD:
            discard_and_quit(app, table)
        else:
            table.advance()

    app.push_screen(NotSavedScreen(lang, table.failed), answered)


class QuitScreen(ModalScreen[str | None]):
    """Quit this match? y saves it and quits, d quits without saving, n (esc) plays on."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Vertical {
        width: auto; max-width: 90%; height: auto; padding: 1 2;
        background: $panel; border: round $accent;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "choose('save')", "save and quit"),
        Binding("d", "choose('discard')", "quit without saving"),
        Binding("n,escape", "choose('')", "keep playing"),
    ]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical():
            yield Static(Text(tr(lang, "quit this match?"), style="bold"), id="quit-title")
            yield Static(tr(lang, "it is saved with your records, to go on with later"))
            with ChoiceRow():
                yield Button(f"y {tr(lang, 'save and quit')}", id="save", compact=True)
                yield Button(f"d {tr(lang, 'quit without saving')}", id="discard", compact=True)
                yield Button(f"n {tr(lang, 'keep playing')}", id="keep", compact=True)

    def on_resize(self) -> None:
        for row in self.query(ChoiceRow):
            row.fit()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"save": SAVE, "discard": DISCARD}.get(event.button.id or ""))
