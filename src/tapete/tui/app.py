"""The Textual app: settings (language, bot speed, high contrast), records, and the first screen."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App
from textual.theme import Theme

from tapete import bots
from tapete.errors import RecordError
from tapete.game import Game
from tapete.i18n import LANGUAGES, error_text, system_language
from tapete.record import Hold, Record, hold
from tapete.record import write as write_record
from tapete.tui import records
from tapete.tui.saving import Why, why_of
from tapete.tui.session import SPEEDS, Replay, Session, Settings

if TYPE_CHECKING:
    from tapete.tui.remote import Joined
    from tapete.tui.screens import TableScreen

__all__ = ["NewMatch", "PlayConfig", "TapeteApp", "Written"]

FELT = Theme(
    name="tapete",
    primary="#3f9f5f",
    secondary="#2f6f4f",
    accent="#f2c14e",
    warning="#f2c14e",
    error="#ff6b6b",
    success="#7ee08a",
    foreground="#f0efe6",
    background="#0c3b22",
    surface="#0f4529",
    panel="#155232",
    dark=True,
)
CONTRAST = Theme(
    name="tapete-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#00ffff",
    warning="#ffff00",
    error="#ff5050",
    success="#00ff00",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#000000",
    dark=True,
)


@dataclass(frozen=True)
class PlayConfig:
    """A match to play: the game, who sits where (``human`` or a bot level), the seed."""

    game: Game[Any, Any]
    seats: tuple[str, ...]
    seed: int
    hint_budget: bots.Budget | None = None
    record_path: Path | None = None  # also write the match here (``--record``); see record_file
    extra: dict[str, Any] = field(default_factory=dict)
    resume: Record | None = None  # an unfinished match to go on with (``--resume``)
    resume_file: Path | None = None  # the file ``resume`` was read from
    number: int = 1  # the match's number at this sitting: each rematch counts one more
    notice: str | None = None  # what the player is told as the table opens (a save cut short)

    @property
    def record_file(self) -> Path | None:
        """Where ``--record`` has this match written: a file holds one match, so a rematch's
        goes beside the first (``out-2.json``)."""
        path = self.record_path
        return None if path is None else records.numbered(path, self.number)

    def session(self) -> Session:
        budget = self.hint_budget
        return Session(self.game, self.seats, self.seed, hint_budget=budget, resume=self.resume)


@dataclass(frozen=True)
class NewMatch:
    """A match the person chooses at the terminal (``tapete play`` with no game): its seed and
    where to write its record, as ``--seed`` and ``--record`` gave them; the game, its options
    and the seats come from the new match screen."""

    seed: int
    record_path: Path | None = None


@dataclass(frozen=True)
class Written:
    """Where a match was written: its file in the records folder (None: not there), the
    ``--record`` file (None: not asked for, or not written), and each place a write failed,
    with why."""

    path: Path | None = None
    copy: Path | None = None
    failed: tuple[tuple[Path, Why], ...] = ()


class TapeteApp(App[None]):
    """tapete at the terminal: play a match (``play``), choose one to play (``new_match``), step
    through a record (``replay``), sit at a server's table (``joined``), or browse the saved
    matches (none of them)."""

    CSS_PATH = "tapete.tcss"
    TITLE = "tapete"

    def __init__(
        self,
        *,
        play: PlayConfig | None = None,
        new_match: NewMatch | None = None,
        replay: Record | None = None,
        joined: Joined | None = None,
        data: Path | None = None,
        lang: str | None = None,
        speed: str | None = None,
        contrast: bool | None = None,
    ) -> None:
        super().__init__()
        self.play_config = play
        self.new_match = new_match  # no match given: the person chooses one (setup.py)
        self.replay_record = replay
        self.joined = joined  # a seat at a server's table (tapete join)
        self.data = data if data is not None else records.data_dir()
        saved = records.load_settings(self.data)
        self.settings = Settings(
            lang=_pick(lang, saved.get("lang"), system_language() or "en", LANGUAGES),
            speed=_pick(speed, saved.get("speed"), "normal", tuple(SPEEDS)),
            contrast=bool(contrast if contrast is not None else saved.get("contrast", False)),
            # Judged by the new match screen, which opens on it (a damaged entry: the defaults).
            new_match=last if isinstance(last := saved.get("new_match"), dict) else {},
        )
        self.saved_records: list[Path] = []
        self.holds: list[Hold] = []  # the record files this app's matches are played on in

    @property
    def records_dir(self) -> Path:
        return self.data / "records"

    def on_mount(self) -> None:
        from tapete.tui.screens import RecordsScreen, ReplayScreen

        self.register_theme(FELT)
        self.register_theme(CONTRAST)
        self.apply_theme()
        if self.play_config is not None:
            self.open_table()
        elif self.new_match is not None:
            from tapete.tui.setup import NewMatchScreen

            self.push_screen(NewMatchScreen(self.new_match))
        elif self.replay_record is not None:
            self.push_screen(ReplayScreen(Replay(self.replay_record)))
        elif self.joined is not None:
            from tapete.tui.remote import RemoteTableScreen

            self.push_screen(RemoteTableScreen(self.joined))
        else:
            self.push_screen(RecordsScreen())

    def open_table(self) -> None:
        """Open the table of the match ``play_config`` names (given, or chosen on the new
        match screen), holding the files it is played on in first."""
        from tapete.tui.screens import TableScreen

        config = self.play_config
        assert config is not None
        table = TableScreen(config.session())
        resumed = config.resume
        source = config.resume_file or config.record_file
        held = None if resumed is None else records.holding(self.records_dir, resumed, source)
        if not self.hold_files(config.resume_file, config.record_file, held):
            return
        if held is not None:
            # The save it goes on from is written over as it is played, then at its end:
            # the match stays one file, and one entry of the records list.
            table.kept, table.saved_before, table.written = held, resumed, resumed
            if config.record_file is not None and records.same_file(config.record_file, held):
                # Resumed from that save itself: written once a move, as the save it is.
                self.play_config = config = replace(config, record_path=None)
        copy = config.record_file
        if resumed is not None and copy is not None and records.holds(copy, resumed):
            # The record it was resumed from (or --record naming a copy of it): quitting
            # without saving puts it back as it was.
            table.copy_before = resumed
        self.push_screen(table)
        if config.notice is not None:
            self.notify(config.notice, severity="warning", timeout=30, markup=False)

    def hold_files(self, *files: Path | None) -> bool:
        """Hold each file a match is played on in (``tapete.record.hold``) before its table
        opens. One another tapete plays on in already stops this one here, with one line in
        the table's language and a non-zero exit status: two terminals going on with one
        save would each write its own moves over the other's."""
        for file in files:
            if file is None or any(h.path == file.resolve() for h in self.holds):
                continue
            try:
                self.holds.append(hold(file))
            except RecordError as exc:
                self.release_holds()
                said = Text(f"tapete: {error_text(self.settings.lang, exc)}")
                self.exit(return_code=2, message=said)
                return False
        return True

    def hold_quietly(self, file: Path) -> None:
        """Hold a file a match has just begun to be written in (its save, a rematch's
        ``--record`` file), so that resuming it elsewhere meanwhile is refused; one already
        held elsewhere is left to the check each write makes (``records.ours``)."""
        with contextlib.suppress(RecordError):
            self.holds.append(hold(file))

    def release_holds(self) -> None:
        for taken in self.holds:
            taken.release()
        self.holds.clear()

    def on_unmount(self) -> None:
        self.release_holds()

    # -- settings

    def apply_theme(self) -> None:
        self.theme = CONTRAST.name if self.settings.contrast else FELT.name
        self.set_class(self.settings.contrast, "-contrast")

    def keep_settings(self) -> None:
        s = self.settings
        kept: dict[str, Any] = {"lang": s.lang, "speed": s.speed, "contrast": s.contrast}
        if s.new_match:
            kept["new_match"] = s.new_match
        records.save_settings(self.data, kept)

    def cycle_language(self) -> str:
        i = LANGUAGES.index(self.settings.lang) if self.settings.lang in LANGUAGES else -1
        self.settings.lang = LANGUAGES[(i + 1) % len(LANGUAGES)]
        self.keep_settings()
        return self.settings.lang

    def cycle_speed(self) -> str:
        names = list(SPEEDS)
        i = names.index(self.settings.speed) if self.settings.speed in names else -1
        self.settings.speed = names[(i + 1) % len(names)]
        self.keep_settings()
        return self.settings.speed

    def toggle_contrast(self) -> None:
        self.settings.contrast = not self.settings.contrast
        self.apply_theme()
        self.keep_settings()

    # -- matches

    async def action_quit(self) -> None:
        """^Q: a match under way asks first, and may be kept to go on with later."""
        from tapete.tui.resume import ask_to_quit

        ask_to_quit(self)

    def action_help_quit(self) -> None:
        """^C does as ^Q does, as it does at the line prompt: it leaves, asking first when a
        match under way would be lost (Textual's own ^C only says, in English, to press ^Q)."""
        from tapete.tui.resume import ask_to_quit

        ask_to_quit(self)

    def save_record(
        self, rec: Record, into: Path | None = None, was: Record | None = None
    ) -> Written:
        """Keep a match, finished or not, in the records folder (and at ``--record``): in a new
        file, or over ``into``, the file this match was kept in before, which held ``was``
        (a new file after all when ``into`` holds another's moves now: ``records.ours``). Each
        place is tried whatever became of the other; what failed is in the answer, with why,
        to be told."""
        if into is not None and was is not None and not records.ours(into, was):
            into = None
        config = self.play_config
        copy, failed = None, []
        wanted = config.record_file if config is not None else None
        if wanted is not None:
            try:
                write_record(rec, wanted)
                copy = wanted
            except OSError as exc:
                failed.append((wanted, why_of(exc)))
        path = None
        try:
            if into is None:
                path = records.save(rec, self.records_dir)
                self.hold_quietly(path)
            else:  # the folder made again, were it removed while the match was played
                into.parent.mkdir(parents=True, exist_ok=True)
                write_record(rec, into)
                path = into
        except OSError as exc:
            failed.append((self.records_dir, why_of(exc)))
        if path is not None and path not in self.saved_records:
            self.saved_records.append(path)
        return Written(path, copy, tuple(failed))

    def rematch(self) -> None:
        """``r`` at the end of a match: the same seats again, with the next seed. A finished
        match in no file (the records folder refused it) asks first, as ^Q does."""
        from tapete.tui.saving import ask_before_rematch
        from tapete.tui.screens import TableScreen

        stack = reversed(self.screen_stack)
        table = next((s for s in stack if isinstance(s, TableScreen)), None)
        if self.play_config is None or table is None:
            return
        if table.finished and table.saved_to is None:
            ask_before_rematch(self, table)
        else:
            self.start_rematch(table)

    def start_rematch(self, table: TableScreen, saved: Path | None = None) -> None:
        """Put the rematch in ``table``'s place (and of the summary over it); with
        ``--record``, written beside the match before (which keeps its file), as the message
        line says, and so does where the match before was just ``saved``."""
        from tapete.i18n import tr
        from tapete.tui.screens import TableScreen

        config = self.play_config
        if config is None or table not in self.screen_stack:
            return
        while self.screen is not table:
            self.pop_screen()
        session = table.session
        next_config = PlayConfig(
            session.game,
            tuple(session.kinds),
            session.seed + 1,
            config.hint_budget,
            config.record_path,
            number=config.number + 1,
        )
        self.play_config = next_config
        if next_config.record_file is not None:
            self.hold_quietly(next_config.record_file)
        rematch = TableScreen(next_config.session())
        lang = self.settings.lang
        told = []
        if saved is not None:
            told.append(tr(lang, "the last match was saved as {file}", file=str(saved)))
        if next_config.record_file is not None:
            told.append(
                tr(lang, "this match is written to {file}", file=str(next_config.record_file))
            )
        rematch.message = " · ".join(told)
        self.switch_screen(rematch)


def _pick(given: str | None, saved: Any, default: str, accepted: tuple[str, ...]) -> str:
    for value in (given, saved):
        if isinstance(value, str) and value in accepted:
            return value
    return default
