"""A new match, chosen at the terminal: ``tapete play`` with no game asks which game, with which
rule options and who sits where, then opens its table.

Every option of the game is on the screen with its default, named and explained as the web
lobby names it (``tapete.present.option_words``), and read as the lobby reads its form
(``tapete.game.form_spec``): what the command line takes as ``tapete play "GAME(KEY=VALUE)"``.
An option the rules refuse is pointed at, and the refusal says what it accepts.

The choices a match was started with are kept in the app's settings (``settings.json``, under
``new_match``), and the screen opens on them the next time: an entry from another version of
tapete, or damaged, is left for the game's defaults, whole or in part, never an error.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Select, Static

from tapete import bots
from tapete.errors import SpecError
from tapete.game import Game, form_spec, format_value
from tapete.games import ENTRIES, game_names, load
from tapete.i18n import error_text, tr
from tapete.present import game_title, option_words
from tapete.tui.screens import TapeteScreen

if TYPE_CHECKING:
    from tapete.tui.app import NewMatch

__all__ = ["NewMatchScreen", "seat_choices"]

FIRST = "pocha"  # the game the screen opens on, as the lobby's form does
MOST_SEATS = 10  # seats drawn while the players field is being typed (8 is the most a game has)


def seat_choices(game: Game[Any, Any]) -> tuple[str, ...]:
    """Who may sit at a seat other than yours: a person sharing this terminal, or a bot of a
    level the game has (random only where it has no strategies)."""
    levels = bots.LEVELS if game.rules.NAME in bots.STRATEGIES else ("random",)
    return ("human", *levels)


def _options(game: Game[Any, Any]) -> list[tuple[str, object]]:
    """Each rule option of ``game`` with its default, in the order its rules list them."""
    return [(f.name, getattr(game.params, f.name)) for f in dataclasses.fields(game.params)]


def _shown(value: object) -> str:
    """An option's default as its field shows it: as a spec writes it (``[1, 2]``, none)."""
    return format_value(value)


class NewMatchScreen(TapeteScreen):
    """The game, each of its rule options and each seat; Start (or ^S) opens the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "start"),
        Binding("f1", "rules", "rules"),
        Binding("f2", "language", "language"),
        Binding("escape", "app.quit", "quit"),
    ]

    def __init__(self, match: NewMatch) -> None:
        super().__init__()
        self.match = match
        self.game = load(FIRST)
        self.drawn_seats = 0
        # What the fields are drawn with, in place of the defaults: the last match's choices
        # at first, the fields as they were across a change of language (F2).
        self.filled: Mapping[str, object] = {}
        self.seats_filled: Sequence[str] = ()
        self.refusal: SpecError | None = None  # what the rules refused at the last ^S
        self.fresh = True  # opened anew (on the last match's choices), not by F2

    def compose(self) -> ComposeResult:
        if self.fresh:
            self.remembered(self.tapete.settings.new_match)
        lang = self.lang
        yield Static(Text(tr(lang, "New match"), style="bold"), id="setup-title")
        with VerticalScroll(id="setup"):
            games = [(self._game_line(name), name) for name in game_names()]
            yield Select(games, value=self.game.name, allow_blank=False, id="setup-game")
            yield Static(Text(tr(lang, "Rule options"), style="bold"), classes="setup-head")
            yield Vertical(id="setup-options")
            yield Static(Text(tr(lang, "Seats"), style="bold"), classes="setup-head")
            yield Vertical(id="setup-seats")
        yield Static(id="setup-error")
        with Horizontal(id="setup-keys"):
            yield Button(tr(lang, "Start"), id="setup-start", variant="primary")
            yield Static(
                f"[b]^S[/b] {tr(lang, 'start')}  [b]tab[/b] {tr(lang, 'next field')}"
                f"  [b]F1[/b] {tr(lang, 'rules')}  [b]F2[/b] {tr(lang, 'language')}"
                f"  [b]esc[/b] {tr(lang, 'quit')}"
            )

    def _game_line(self, name: str) -> str:
        return f"{game_title(load(name))} — {tr(self.lang, ENTRIES[name].summary)}"

    async def on_mount(self) -> None:
        await self.draw()

    async def draw(self) -> None:
        """The chosen game's options and seats, as ``filled`` and ``seats_filled`` hold them."""
        await self.draw_options()
        await self.draw_seats()
        self.filled, self.seats_filled = {}, ()
        if self.refusal is not None:
            self.refused(self.refusal)  # said again, in this screen's language
        else:
            self.query_one("#setup-game", Select).focus()

    def remembered(self, entry: object) -> None:
        """Open on the last match's choices (``choices_kept``): its game, the options it set
        and its seats. What this tapete cannot take is left for the defaults: an entry not of
        that shape, or of a game it does not know, whole; options the rules now refuse
        (another version's), all of them; a seat no longer offered, that seat."""
        if not isinstance(entry, dict) or entry.get("game") not in game_names():
            return
        game = load(str(entry["game"]))
        options, seats = entry.get("options"), entry.get("seats")
        names = dict(_options(game))
        given = {
            name: value
            for name, value in (options.items() if isinstance(options, dict) else ())
            if name in names
            and isinstance(value, bool) == isinstance(names[name], bool)
            and isinstance(value, (str, bool))
        }
        try:
            load(form_spec(game.name, given))
        except (SpecError, ValueError, TypeError):
            given = {}
        self.game, self.filled = game, given
        choices = seat_choices(game)
        if isinstance(seats, list):
            self.seats_filled = [str(s) if s in choices else "" for s in seats]

    def choices_kept(self, game: Game[Any, Any], seats: Sequence[str]) -> dict[str, Any]:
        """What ``remembered`` opens on next time: the game, each option set otherwise than
        by default as the field holds it, and who sits at each seat but yours."""
        # A field left empty is the default (``form_spec``): shown as the default next time.
        options = {k: v for k, v in self.given().items() if not isinstance(v, str) or v.strip()}
        return {"game": game.name, "options": options, "seats": list(seats[1:])}

    def action_language(self) -> None:
        """The next language (F2), as at the table: the screen drawn again in it, its fields
        as they were (and a refusal said again)."""
        filled: dict[str, object] = {}
        for name, _ in _options(self.game):
            field = self.query_one(f"#opt-{name}")
            if isinstance(field, (Checkbox, Input)):
                filled[name] = field.value
        again = NewMatchScreen(self.match)
        again.game, again.filled, again.refusal = self.game, filled, self.refusal
        again.fresh = False
        again.seats_filled = [str(s.value) for s in self.query_one("#setup-seats").query(Select)]
        self.tapete.cycle_language()
        self.app.switch_screen(again)

    @on(Select.Changed, "#setup-game")
    async def game_chosen(self, event: Select.Changed) -> None:
        name = str(event.value)
        if name == self.game.name:
            return
        self.game = load(name)
        self.refusal = None
        self.say("")
        await self.draw_options()
        await self.draw_seats()

    async def draw_options(self) -> None:
        """One row per rule option of the game: its label, its field holding the default (a
        checkbox for a yes-or-no option), and what it takes."""
        box = self.query_one("#setup-options", Vertical)
        await box.remove_children()
        rows = []
        for name, value in _options(self.game):
            words = option_words(self.lang, name)
            field: Input | Checkbox
            filled = self.filled.get(name)
            if isinstance(value, bool):
                checked = filled if isinstance(filled, bool) else value
                field = Checkbox(words["label"], checked, id=f"opt-{name}", compact=True)
                label = Static("", classes="setup-label")
            else:
                shown = filled if isinstance(filled, str) else _shown(value)
                field = Input(shown, id=f"opt-{name}", compact=True)
                label = Static(words["label"], classes="setup-label")
            field.tooltip = name
            help_line = Static(
                Text(f"{name}: {words['help']}" if words["help"] else name, style="dim"),
                classes="setup-help",
            )
            rows.append(Vertical(Horizontal(label, field, classes="setup-row"), help_line))
        await box.mount_all(rows)

    def seat_count(self) -> int:
        """The seats to draw: the players field's number while it holds one (the rules judge it
        at the start), else the game's."""
        found = self.query("#opt-players")
        text = found.first(Input).value.strip() if found else ""
        count = int(text) if text.isdigit() else self.game.players
        return count if 1 <= count <= MOST_SEATS else self.game.players

    async def draw_seats(self) -> None:
        """Your seat first, then one choice per seat: a bot (easy by default, as ``tapete play
        GAME`` seats them) or a person sharing this terminal; choices made are kept."""
        count = self.seat_count()
        if count == self.drawn_seats:
            return
        box = self.query_one("#setup-seats", Vertical)
        kept = list(self.seats_filled) or [str(s.value) for s in box.query(Select)]
        await box.remove_children()
        lang = self.lang
        rows = [Horizontal(Static(tr(lang, "seat {n}", n=1)), Static(tr(lang, "you")))]
        choices = seat_choices(self.game)
        words = [(self._seat_words(kind), kind) for kind in choices]
        for seat in range(1, count):
            before = kept[seat - 1] if seat - 1 < len(kept) else None
            chosen = before if before in choices else ("easy" if "easy" in choices else "random")
            pick = Select(words, value=chosen, allow_blank=False, id=f"seat-{seat}", compact=True)
            rows.append(Horizontal(Static(tr(lang, "seat {n}", n=seat + 1)), pick))
        for row in rows:
            row.add_class("setup-row")
        await box.mount_all(rows)
        self.drawn_seats = count

    def _seat_words(self, kind: str) -> str:
        if kind == "human":
            return tr(self.lang, "a player at this terminal")
        return tr(self.lang, "bot ({level})", level=tr(self.lang, kind))

    @on(Input.Changed, "#opt-players")
    async def players_typed(self) -> None:
        await self.draw_seats()

    def say(self, text: str) -> None:
        self.query_one("#setup-error", Static).update(Text(text, style="bold red"))

    def given(self) -> dict[str, str | bool]:
        """Each option the fields set otherwise than by default, as its field holds it."""
        given: dict[str, str | bool] = {}
        for name, default in _options(self.game):
            field = self.query_one(f"#opt-{name}")
            if isinstance(field, Checkbox):
                if field.value != default:
                    given[name] = field.value
            elif isinstance(field, Input) and field.value.strip() != _shown(default):
                given[name] = field.value
        return given

    def chosen(self) -> tuple[Game[Any, Any], tuple[str, ...]]:
        """The game as the fields set it and who sits where; SpecError names the field refused."""
        game = load(form_spec(self.game.name, self.given()))
        # The seats drawn follow the players field as it is typed; the rules have judged it now.
        picked = [str(s.value) for s in self.query_one("#setup-seats").query(Select)]
        fill = "easy" if "easy" in seat_choices(game) else "random"
        others = [*picked, *[fill] * game.players][: game.players - 1]
        seats = ("human", *others)
        return game, seats

    @on(Button.Pressed, "#setup-start")
    def start_pressed(self) -> None:
        self.action_start()

    def action_rules(self) -> None:
        """How to play the game chosen, as at its table (F1)."""
        from tapete.tui.screens import RulesScreen

        page = ENTRIES[self.game.name].module.rsplit(".", 1)[-1]
        self.app.push_screen(RulesScreen(page, self.game.name))

    def action_start(self) -> None:
        from tapete.tui.app import PlayConfig

        try:
            game, seats = self.chosen()
        except SpecError as exc:
            self.refused(exc)
            return
        self.tapete.settings.new_match = self.choices_kept(game, seats)
        self.tapete.keep_settings()
        match = self.match
        self.tapete.play_config = PlayConfig(game, seats, match.seed, record_path=match.record_path)
        self.tapete.pop_screen()
        self.tapete.open_table()

    def refused(self, exc: SpecError) -> None:
        """Say why, in the screen's language, and put the cursor on the option refused (the
        first of two judged together, as suits/ranks)."""
        self.refusal = exc
        said = error_text(self.lang, exc)
        names = [n for n in (exc.param or "").split("/") if n in dict(_options(self.game))]
        if not names:
            self.say(said)
            return
        label = " / ".join(option_words(self.lang, name)["label"] for name in names)
        self.say(f"{label}: {said}")
        field = self.query_one(f"#opt-{names[0]}")
        field.focus()
        field.scroll_visible()
