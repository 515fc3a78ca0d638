"""When a match cannot be kept where it should: say where and why, and keep it in another file.

The records folder (in the data folder, ``records.data_dir``) may be read-only, full or gone, and
so may the ``--record`` file's. The summary and the table then say so for as long as it holds,
``s`` saves the match in a file the person names, and ^Q (``tapete.tui.resume``) and ``r`` (a
rematch puts a new match in its place) ask before a match that is in no file is lost.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from tapete import record
from tapete.i18n import tr
from tapete.record import Record
from tapete.tui import records

if TYPE_CHECKING:
    from tapete.tui.app import TapeteApp
    from tapete.tui.screens import TableScreen

__all__ = [
    "ChoiceRow",
    "NotSavedScreen",
    "SaveAsScreen",
    "Why",
    "advice",
    "ask_before_rematch",
    "failure_lines",
    "suggested_file",
    "why_of",
]

SAVE_ELSEWHERE, DISCARD = "elsewhere", "discard"
QUIT, REMATCH = "quit", "rematch"  # what leaving a match in no file is, for NotSavedScreen


@dataclass(frozen=True)
class Why:
    """Why a write failed: the system's error number, to tell the common reasons in the
    table's language, and its own words (in English, whatever the table's), for the rest."""

    errno: int | None
    said: str

    def words(self, lang: str) -> str:
        """The reason in ``lang``: a common one in its words, any other as the system said it.

        >>> Why(errno.ENOSPC, "No space left on device").words("es")
        'no queda espacio en el disco'
        >>> Why(errno.EIO, "Input/output error").words("pt")
        'Input/output error'
        """
        known = _REASONS.get(self.errno) if self.errno is not None else None
        return tr(lang, known) if known is not None else self.said


# The reasons a records folder or a chosen file commonly refuses a write.
_REASONS = {
    errno.EACCES: "no permission to write there",
    errno.EPERM: "no permission to write there",
    errno.ENOSPC: "no space left on the disk",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EEXIST: "a part of the path is not a folder",  # a file where a folder is to be made
    errno.EROFS: "the disk is read-only",
    errno.ENOENT: "the folder does not exist",
}


def why_of(exc: OSError) -> Why:
    """Why a write failed, without the name of the temporary file it was writing (the place
    is told beside it)."""
    return Why(exc.errno, exc.strerror or str(exc))


def failure_lines(lang: str, failed: Sequence[tuple[Path, Why]]) -> list[str]:
    """Each write that failed, in words: where, and why."""
    return [
        tr(
            lang,
            "the record could not be saved in {place}: {why}",
            place=str(where),
            why=why.words(lang),
        )
        for where, why in failed
    ]


def advice(lang: str, saved: bool) -> str:
    """What the person can do: save this match elsewhere (while it is in no file), and have
    the next ones saved."""
    later = tr(lang, "for the next matches, make that folder writable or set TAPETE_DATA")
    if saved:
        return later
    return tr(lang, "press s to save it in another file") + "; " + later


def suggested_file(rec: Record, folder: Path | None = None) -> Path:
    """A file for ``rec`` in ``folder`` (the current one by default), named as the records
    folder names its files."""
    return (folder if folder is not None else Path.cwd()).absolute() / records.file_name(rec)


def ask_before_rematch(app: TapeteApp, table: TableScreen) -> None:
    """``r`` on a finished match in no file: the rematch would take its place, so ask first,
    as ^Q does. s saves it in another file and goes on to the rematch, d rematches without it,
    n (esc) stays where the person was."""
    lang = app.settings.lang

    def saved(path: Path | None) -> None:
        if path is not None:
            table.saved_elsewhere(path)
            app.start_rematch(table, saved=path)

    def answered(choice: str | None) -> None:
        if choice == SAVE_ELSEWHERE:
            rec = table.session.record()
            app.push_screen(SaveAsScreen(lang, rec, suggested_file(rec)), saved)
        elif choice == DISCARD:
            app.start_rematch(table)

    app.push_screen(NotSavedScreen(lang, table.failed, REMATCH), answered)


class SaveAsScreen(ModalScreen[Path | None]):
    """Save the record in another file: the name to edit, Enter writes it, esc gives up.

    A name that cannot be written is told here, and stays to be changed; an existing file is
    written over only at a second Enter. Dismissed with the file written, or None."""

    DEFAULT_CSS = """
    SaveAsScreen { align: center middle; }
    SaveAsScreen > Vertical {
        width: 76; max-width: 100%; height: auto; padding: 1 2;
        background: $panel; border: round $accent;
    }
    SaveAsScreen Input { margin-top: 1; }
    #save-as-error { color: $error; height: auto; }
    #save-as-keys { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, lang: str, rec: Record, suggestion: Path) -> None:
        super().__init__()
        self.lang, self.rec, self.suggestion = lang, rec, suggestion
        self.over: Path | None = None  # a file that exists, told once: Enter again writes over

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical():
            yield Static(Text(tr(lang, "save the record in another file"), style="bold"))
            yield Input(str(self.suggestion), id="save-as-file")
            yield Static(id="save-as-error")
            keys = f"[b]enter[/b] {tr(lang, 'save')}   [b]esc[/b] {tr(lang, 'cancel')}"
            yield Static(keys, id="save-as-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def tell(self, words: str) -> None:
        self.query_one("#save-as-error", Static).update(Text(words))

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        lang = self.lang
        text = event.value.strip()
        if not text:
            self.tell(tr(lang, "give a file name"))
            return
        path = Path(text).expanduser()
        if path.is_dir():
            path = path / records.file_name(self.rec)
        if not path.parent.is_dir():
            self.tell(tr(lang, "the folder {folder} does not exist", folder=str(path.parent)))
            return
        if path.exists() and path != self.over:
            self.over = path
            self.tell(tr(lang, "{file} exists: Enter again writes over it", file=str(path)))
            return
        try:
            record.write(self.rec, path)
        except OSError as exc:
            self.tell(failure_lines(lang, [(path, why_of(exc))])[0])
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceRow(Horizontal):
    """A dialog's buttons side by side, or one under another where the terminal is too narrow
    for the row (``fit``): every choice stays in sight and whole, its key with it."""

    DEFAULT_CSS = """
    ChoiceRow { width: auto; height: auto; margin-top: 1; }
    ChoiceRow Button { margin-right: 2; }
    ChoiceRow.-stacked { layout: vertical; }
    ChoiceRow.-stacked Button { margin-right: 0; }
    """

    # The columns around the row in its dialog: the border and the padding on either side.
    CHROME = 6

    def on_mount(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Stack the buttons when their row is wider than the terminal."""
        labels = [str(b.label) for b in self.query(Button)]
        wide = sum(len(label) + 2 + 2 for label in labels) + self.CHROME
        self.set_class(wide > self.app.size.width, "-stacked")


class NotSavedScreen(ModalScreen[str | None]):
    """Leave a match that is in no file? s saves it in another file, d leaves without it, n
    (esc) stays. Leaving is quitting (^Q) or a rematch (``r``, which puts a new match in its
    place). Dismissed with ``SAVE_ELSEWHERE``, ``DISCARD`` or None."""

    DEFAULT_CSS = """
    NotSavedScreen { align: center middle; }
    NotSavedScreen > Vertical {
        width: 76; max-width: 100%; height: auto; padding: 1 2;
        background: $panel; border: round $error;
    }
    #not-saved-why { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('elsewhere')", "save in another file"),
        Binding("d", "choose('discard')", "leave without saving"),
        Binding("n,escape", "choose('')", "stay"),
    ]

    def __init__(self, lang: str, failed: Sequence[tuple[Path, Why]], leaving: str = QUIT) -> None:
        super().__init__()
        self.lang, self.failed, self.leaving = lang, tuple(failed), leaving

    def compose(self) -> ComposeResult:
        lang = self.lang
        rematch = self.leaving == REMATCH
        title = tr(
            lang, "rematch? this match is not saved" if rematch else "quit? this match is not saved"
        )
        discard = tr(lang, "rematch without saving" if rematch else "quit without saving")
        stay = tr(lang, "cancel" if rematch else "do not quit")
        with Vertical():
            yield Static(Text(title, style="bold"), id="not-saved-title")
            yield Static(
                "\n".join(failure_lines(lang, self.failed)), id="not-saved-why", markup=False
            )
            with ChoiceRow():
                yield Button(f"s {tr(lang, 'save in another file')}", id="elsewhere", compact=True)
                yield Button(f"d {discard}", id="discard", compact=True)
                yield Button(f"n {stay}", id="stay", compact=True)

    def on_resize(self) -> None:
        for row in self.query(ChoiceRow):
            row.fit()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        choices = {"elsewhere": SAVE_ELSEWHERE, "discard": DISCARD}
        self.dismiss(choices.get(event.button.id or ""))
