"""Leaving a match half-played: ^Q asks first, then keeps the match as an unfinished record.

The record (``result`` null) sits with the finished ones in the records folder; ``tapete play
--resume FILE`` deals it out again and goes on from its last move, ``tapete replay FILE`` steps
through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tapete.i18n import tr

if TYPE_CHECKING:
    from tapete.tui.app import TapeteApp
    from tapete.tui.screens import TableScreen

__all__ = ["QuitScreen", "ask_to_quit"]

SAVE, DISCARD = "save", "discard"


def ask_to_quit(app: TapeteApp) -> None:
    """^Q: a finished or untouched match just quits; one under way asks first."""
    from tapete.tui.screens import TableScreen

    if isinstance(app.screen, QuitScreen):
        return  # already asking
    table = next((s for s in reversed(app.screen_stack) if isinstance(s, TableScreen)), None)
    if table is None or table.finished or not table.session.steps:
        app.exit()
        return

    def answered(choice: str | None) -> None:
        if choice == SAVE:
            save_and_quit(app, table)
        elif choice == DISCARD:
            if table.kept is not None:  # kept as it was played: not kept after all
                table.kept.unlink(missing_ok=True)
            app.exit()

    app.push_screen(QuitScreen(app.settings.lang), answered)


def save_and_quit(app: TapeteApp, table: TableScreen) -> None:
    """Stop the bots, keep the match as an unfinished record, and leave saying where it went."""
    table.workers.cancel_group(table, "bots")
    table.bots_running = False
    path = app.save_record(table.session.record(), table.kept)
    if path is None:
        return  # the app has said why; the match stays open
    lang = app.settings.lang
    app.exit(
        message=tr(lang, "match saved in {file}; tapete play --resume {file} goes on", file=path)
    )


class QuitScreen(ModalScreen[str | None]):
    """Quit this match? y saves it and quits, d quits without saving, n (esc) plays on."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Vertical {
        width: auto; max-width: 90%; height: auto; padding: 1 2;
        background: $panel; border: round $accent;
    }
    QuitScreen Horizontal { width: auto; height: auto; margin-top: 1; }
    QuitScreen Button { margin-right: 2; }
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
            with Horizontal():
                yield Button(f"y {tr(lang, 'save and quit')}", id="save", compact=True)
                yield Button(f"d {tr(lang, 'quit without saving')}", id="discard", compact=True)
                yield Button(f"n {tr(lang, 'keep playing')}", id="keep", compact=True)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"save": SAVE, "discard": DISCARD}.get(event.button.id or ""))
