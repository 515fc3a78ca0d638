"""The table's widgets. Each draws the screen's one reactive ``Scene`` and holds no game truth."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import zip_longest

from rich.cells import cell_len
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, HorizontalScroll, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, RichLog, Static

from tapete.i18n import tr
from tapete.narrate import isolated
from tapete.present import OnTable, SeatBox, Table, card_glyph
from tapete.tui.session import ButtonKey, Scene

__all__ = [
    "ActionBar",
    "ActionButton",
    "BowlsBoard",
    "CardView",
    "HandRow",
    "InfoPanel",
    "LogView",
    "OpenHands",
    "ScoreBoard",
    "SeatsRow",
    "StepButton",
    "TitleBar",
    "TrickArea",
    "card_text",
]

_SUIT_CLASS = {
    "o": "oros",
    "c": "copas",
    "e": "espadas",
    "b": "bastos",
    "d": "red",
    "h": "red",
    "s": "black",
}
_SUIT_STYLE = {
    "oros": "bold #e0b000",
    "copas": "bold #ff5c5c",
    "espadas": "bold #6aa8ff",
    "bastos": "bold #5fd070",
    "red": "bold #ff5c5c",
    "black": "bold",
}
_PAPER_STYLE = {  # on a card's face: darker inks
    "oros": "bold #9a6f00",
    "copas": "bold #c01818",
    "espadas": "bold #1f4fb0",
    "bastos": "bold #1d7a2d",
    "red": "bold #c01818",
    "black": "bold #111111",
}


def suit_class(card: str, deck: str) -> str:
    if deck == "french":
        return "red" if card[-1] in "dh" else "black"
    return _SUIT_CLASS.get(card[-1], "black")


def card_text(card: str | None, deck: str, paper: bool = False) -> Text:
    """A card as a card player reads it: ``10♦``, ``Q♠``, or the Spanish ``3o``, in its colour."""
    if card is None:
        return Text("▒▒", style="dim")
    if card == "?":
        return Text("?", style="dim")
    label = card_glyph(card, deck)
    return Text(label, style=(_PAPER_STYLE if paper else _SUIT_STYLE)[suit_class(card, deck)])


def refit_later(widget: Widget) -> None:
    """Once ``widget`` is drawn anew (its height may change: a second row of buttons), let its
    screen fit the message line to the rows left (``TableScreen.fit_message``)."""
    fit = getattr(widget.screen, "fit_message", None) if widget.is_attached else None
    if fit is not None:
        widget.call_after_refresh(fit)


class TitleBar(Static):
    scene: reactive[Scene | None] = reactive(None)

    def watch_scene(self, scene: Scene | None) -> None:
        if scene is None:
            return
        line = Text.assemble((scene.table.title, "bold"), "  ·  ", (scene.table.status, "italic"))
        if scene.position:
            line.append(f"  ·  {scene.position}")
        self.update(line)


SEAT_ROWS = 5  # a seat's box: three lines of facts within its border (tapete.tcss)


class SeatsRow(Horizontal):
    """The seats around the table: name, bid or stake, tricks, chips; the one to act lit."""

    scene: reactive[Scene | None] = reactive(None, recompose=True)

    def compose(self) -> ComposeResult:
        refit_later(self)
        if self.scene is None:
            return
        lang, table = self.scene.lang, self.scene.table
        # Before the first layout the row has no width yet: it spans the screen.
        width = self.size.width or self.app.size.width
        per = width // max(1, len(table.seats))  # each box's columns, its border's among them
        # A border's title shows in the box's columns but its corners and a blank and a line
        # each side: seven seats and more at 80 columns leave it four or five ("Car…", "dea…").
        room = per - 6
        # Where a name or the dealer's mark would be cut on a border, every box has them in
        # its text instead, on its first and last lines ("Carmen", "dealer 1"), in all but the
        # border's columns and with no padding; the box keeps its height, giving up its top
        # and bottom borders. The same for every deal: the dealer's mark moves round the table.
        named = cell_len(tr(lang, "dealer")) > room or any(
            cell_len(b.name.split(" · ")[0]) > room for b in table.seats
        )
        # The row grows by a line where a seat's cards are in sight (Pocha's ronda_india, Poch's
        # showdown): under its facts, they would be cut off by a box of the usual height.
        # Six seats at 80 columns leave a box nine columns inside: a shown hand takes two lines.
        inside = max(4, per - 4)
        # Seven seats at 80 columns: a box too narrow for its facts gives up its padding, then
        # the end of a fact's word, never its number ("tricks" and "0" on two lines pushed the
        # score out of the box, in some boxes and not others).
        crowded = named or any(cell_len(line) > inside for b in table.seats for line in b.lines)
        inside += 2 if crowded else 0
        inner = max(
            (len(b.lines) + _card_rows(b.shown, table.deck, inside) for b in table.seats),
            default=0,
        )
        # Two rows for the borders, or for the name and the foot (cards, dealer) in the text.
        rows = max(SEAT_ROWS, inner + 2)
        self.styles.height = rows
        for box in table.seats:
            body = Text("\n".join(_fit(line, inside) for line in box.lines))
            if box.shown:
                body.append("\n")
                for card in box.shown:
                    body.append_text(card_text(card, table.deck))
                    body.append(" ")
            seat = Static(classes="seat" + (" -turn" if box.turn else ""))
            seat.styles.height = rows
            if crowded:
                seat.styles.padding = (0, 0)
            if named:
                seat.styles.border_top = ("none", "transparent")
                seat.styles.border_bottom = ("none", "transparent")
                foot = _foot(box, lang, inside)
                # The foot on the box's last line, level with its neighbours'.
                gap = rows - 2 - len(box.lines) - _card_rows(box.shown, table.deck, inside)
                body = Text.assemble(_name_line(box, inside), "\n", body, "\n" * (gap + 1), foot)
            else:
                # The title is the name and bot level; where too narrow, the name alone.
                title = box.name if cell_len(box.name) <= room else box.name.split(" · ")[0]
                # Content, not a string Textual would read as markup: a name is as typed.
                seat.border_title = Content(seat_label(title))
                seat.border_subtitle = Content(_foot(box, lang, room).plain)
            seat.update(body)
            seat.tooltip = self.scene.about.get(box.seat) or None  # what its bot level does
            yield seat

    def on_resize(self) -> None:
        # The titles are cut to the width: composed before the first layout (no width yet) or
        # at another size, they are cut wrong until drawn again at this one.
        if getattr(self, "_drawn_width", None) != self.size.width:
            self._drawn_width = self.size.width
            self.refresh(recompose=True)


def _name_line(box: SeatBox, width: int) -> Text:
    """A seat's name for the first line of its box: with its bot level where that fits, else
    the name whole where it fits, else cut short (``shortened``); the seat to act reversed."""
    name = box.name if cell_len(box.name) <= width else box.name.split(" · ")[0]
    label = seat_label(name) if cell_len(name) <= width else shortened(name, width)
    return Text(label, style="bold reverse" if box.turn else "bold")


def _foot(box: SeatBox, lang: str, width: int) -> Text:
    """What a seat's box says under its facts, in ``width`` columns: its cards ("5 cards", or
    the number alone where that does not fit: never "1 ca…"), and the dealer's mark, in the
    longest form that fits: with "cards", with the number, the word (cut short at the last)."""
    n = box.cards
    cards = tr(lang, "1 card") if n == 1 else tr(lang, "{n} cards", n=n)
    if cell_len(cards) > width:
        cards = str(n)
    if not box.dealer:
        return Text(cards, style="dim")
    dealer = tr(lang, "dealer")
    forms = (f"{dealer} · {cards}", f"{dealer} · {n}", f"{dealer} {n}", dealer)
    mark = next((f for f in forms if cell_len(f) <= width), shortened(dealer, width))
    return Text(mark, style="bold")


def _fit(line: str, width: int) -> str:
    """A seat's fact (``score -155``) in ``width`` columns: where it is longer, its word cut
    short (``sco… -155``), so that the number stays beside it; a fact of one word as it is."""
    if cell_len(line) <= width or " " not in line:
        return line
    word, value = line.rsplit(" ", 1)
    keep = width - cell_len(value) - 2  # the "…" and the space
    return f"{word[:keep]}… {value}" if keep >= 1 else line


def _card_rows(cards: Sequence[str], deck: str, width: int) -> int:
    """The lines ``cards`` take in a seat's box ``width`` columns wide, a space between two."""
    rows, used = 0, width
    for card in cards:
        size = len(card_glyph(card, deck))
        if used + 1 + size > width:
            rows, used = rows + 1, size
        else:
            used += 1 + size
    return rows


class TrickArea(Static):
    """The cards on the table, by whom; when a trick is complete, who takes it. Each play stays
    whole on its line; where the lines do not all fit the box (Poch's long runs), the latest do.
    """

    scene: reactive[Scene | None] = reactive(None)

    def watch_scene(self, scene: Scene | None) -> None:
        if scene is None:
            return
        table = scene.table
        # A long name cut short (``shortened``): eight plays still share the box's lines.
        names = {b.seat: shortened(b.name.split(" · ")[0], PLAY_NAME) for b in table.seats}
        width = self.content_size.width or max(20, self.app.size.width // 4)

        def plays(cards: Iterable[OnTable], gap: str) -> list[Text]:
            return _packed([_play(names, p, table.deck) for p in cards], width, gap)

        lines, room = plays(table.trick, "   "), _room(self)
        if scene.trick_note:
            # The trick just taken stays in sight, with who took it; short of room, who took it.
            note = Text("→ " + scene.trick_note, style="dim" if table.trick else "bold")
            gap = [Text()] if lines else []
            taken = [*gap, *plays(table.last_trick, "  "), note]
            lines += taken if len(lines) + len(taken) <= room else [*gap, note]
        if len(lines) > room:
            lines = [Text("…", style="dim"), *lines[len(lines) - room + 1 :]]
        self.border_title = tr(scene.lang, "on the table")
        self.update(Text("\n").join(lines))

    def on_resize(self) -> None:
        # Plays are laid out to the width: at another, lay them out again.
        if getattr(self, "_drawn_width", None) != self.content_size.width:
            self._drawn_width = self.content_size.width
            self.watch_scene(self.scene)


PLAY_NAME = 12  # the most columns a name takes before its card on the table


def _room(box: Widget) -> int:
    """The lines a box holds at most: its max-height less the border."""
    most = box.styles.max_height
    cells = most.cells if most is not None else None
    return max(2, cells - 2) if cells else 5


def _play(names: dict[int, str], play: OnTable, deck: str) -> Text:
    """A card on the table after its player's name: ``Bruno 10♦``."""
    text = Text(f"{names.get(play.seat, '?')} ", style="dim")
    text.append_text(card_text(play.card, deck))
    return text


def _packed(parts: Sequence[Text], width: int, gap: str) -> list[Text]:
    """``parts`` in lines of ``width`` cells, ``gap`` between two, none split across lines."""
    lines: list[Text] = []
    for part in parts:
        if lines and lines[-1].cell_len + len(gap) + part.cell_len <= width:
            lines[-1].append(gap)
            lines[-1].append_text(part)
        else:
            lines.append(part.copy())
    return lines


class InfoPanel(Static):
    """Trump, upcard, vira, stake, pot; Tute's cantes. The facts keep to the box's rows (seven
    at most: 80x24 keeps its log and its keys). A list too long for its line (the cantes) goes
    one item a line, the first beside its label; short of rows, each seat's items share a line
    in the cards' notation (``cantes: you 20e 20c, Bruno 40b``); what still does not fit gives
    way to "…"."""

    scene: reactive[Scene | None] = reactive(None)

    def watch_scene(self, scene: Scene | None) -> None:
        if scene is None:
            return
        table = scene.table
        # Before the first layout the box has no width yet: its width in the stylesheet.
        width = self.content_size.width or _INFO_WIDTH
        room = _room(self)
        lines = self._lines(_facts(table, scene.lang, width, False), width)
        if len(lines) > room:
            lines = self._lines(_facts(table, scene.lang, width, True), width)
        if len(lines) > room:
            lines = [*lines[: room - 1], Text("…", style="dim")]
        self.update(Text("\n").join(lines))

    def _lines(self, text: Text, width: int) -> list[Text]:
        """``text`` as the box draws it: in lines of ``width`` cells."""
        return list(text.wrap(self.app.console, width, overflow="fold"))

    def on_resize(self) -> None:
        # Lists are laid out to the width: at another (or the first), lay them out again.
        if getattr(self, "_drawn_width", None) != self.content_size.width:
            self._drawn_width = self.content_size.width
            self.watch_scene(self.scene)


_INFO_WIDTH = 28  # the facts box's content: its 32 columns less border and padding


def _facts(table: Table, lang: str, width: int, short: bool) -> Text:
    """The facts, a line each. A list too long for its line (``a, b, c``): one item a line,
    the first beside the label, the others under it; ``short``, Tute's cantes by seat instead
    (the scene's ``sung``), each seat's on one line (``you 20e 20c``), as many a line as fit."""
    text, deck = Text(), table.deck
    for label, value in table.info:
        if text:
            text.append("\n")
        text.append(label, style="dim")
        if not value:
            continue
        text.append(": ")
        words = value.split()
        if all(_is_card(w) for w in words):
            for word in words:
                text.append_text(card_text(word, deck))
                text.append(" ")
        elif len(label) + 2 + len(value) > width and ", " in value:
            sung = table.extra.get("sung") if short and label == tr(lang, "cantes") else None
            parts = (
                _by_seat(sung, deck) if sung else [Text(i, style="bold") for i in value.split(", ")]
            )
            text.append_text(_listed(parts, width, len(label) + 2, ", " if sung else ""))
        else:
            text.append(value, style="bold")
    return text


def _by_seat(sung: Sequence[tuple[str, int, str]], deck: str) -> list[Text]:
    """Tute's cantes (the scene's ``sung``: who, points, suit letter) gathered by seat, each
    seat's in the cards' notation and colours: ``you 20e 20c``."""
    seats: dict[str, Text] = {}
    for name, points, letter in sung:
        seat = seats.setdefault(name, Text(name, style="bold"))
        seat.append(" ")
        seat.append_text(card_text(f"{points}{letter}", deck))
    return list(seats.values())


def _listed(parts: Sequence[Text], width: int, at: int, gap: str) -> Text:
    """``parts`` from column ``at`` on: as many a line as fit ``width`` with ``gap`` between two
    (an empty ``gap``: one a line), each whole. The next lines go under the first part, or from
    column 2 where a part would not fit there or they take fewer lines so; the first part goes
    beside the label where it fits."""
    under, left = (_lines_of(parts, width, at, indent, gap) for indent in (at, 2))
    if max(p.cell_len for p in parts) > width - at or len(left) < len(under):
        return Text("\n  ").join(left)
    return Text("\n" + " " * at).join(under)


def _lines_of(parts: Sequence[Text], width: int, at: int, indent: int, gap: str) -> list[Text]:
    """The lines of ``_listed`` with the next lines from column ``indent``."""
    lines = [Text()]  # the first beside the label
    for part in parts:
        room = width - (at if len(lines) == 1 else indent)
        last = lines[-1]
        if not last.cell_len and (part.cell_len <= room or len(lines) > 1):
            last.append_text(part)
        elif gap and last.cell_len and last.cell_len + len(gap) + part.cell_len <= room:
            last.append(gap)
            last.append_text(part)
        else:
            lines.append(part.copy())
    return lines


def _is_card(word: str) -> bool:
    return 2 <= len(word) <= 3 and word[-1] in "oecbdhs" and word[:-1] in _RANKS


_RANKS = {"A", "K", "Q", "J", "T", *(str(n) for n in range(1, 13))}

# Poch's board: the honours by rank, the marriage as K+Q, the sequence (789 or the best run, as
# the presenter says by the option), then the two the game names.
_BOWL_MARKS = ("A", "K", "Q", "J", "10", "K+Q", "789", "Poch", "Pinke")


class BowlsBoard(Static):
    """Poch's board of nine bowls and the chips in each (shown only for Poch)."""

    scene: reactive[Scene | None] = reactive(None)

    def watch_scene(self, scene: Scene | None) -> None:
        bowls = scene.table.extra.get("bowls") if scene is not None else None
        self.display = bool(bowls)
        if scene is None or not bowls:
            return
        self.border_title = tr(scene.lang, "bowls")
        marks = scene.table.extra.get("marks", _BOWL_MARKS)
        # Three bowls a row, each count followed by a space at least (none at a row's end):
        # a row wrapped in the box would part a bowl's name from its count ("Pinke" / "20").
        text = Text()
        for i, (mark, (_, chips, _taker)) in enumerate(zip(marks, bowls, strict=False)):
            if i and i % 3 == 0:
                text.append("\n")
            text.append(f"{mark} ", style="dim")
            count = f"{chips:<2} " if i % 3 < 2 else str(chips)
            text.append(count, style="bold #e0b000")
        self.update(text)


class CardView(Static):
    """A card of your hand: its key above it, lit when you may play it. The key of a card you
    may play is also drawn in brackets (``[1]``), one you may not bare, and the card the arrow
    keys point at between ``›`` and ``‹``: without colour (NO_COLOR, a monochrome terminal) these
    signs alone say which cards are legal and which one Enter plays."""

    class Chosen(Message):
        def __init__(self, card: str) -> None:
            self.card = card
            super().__init__()

    def __init__(
        self,
        card: str,
        key: str,
        deck: str,
        legal: bool,
        classes: str,
        selected: bool = False,
        keyed: bool = True,
    ) -> None:
        sign = f"[{key}]" if key and legal else key or " "
        face = Text(f"›{sign}‹" if selected else sign, style="bold") if keyed else Text()
        face.append("\n" if keyed else "")
        face.append_text(card_text(card, deck, paper=legal))
        super().__init__(face, classes=classes)
        if not keyed:
            self.styles.height = 1
        self.card = card
        self.key = key

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self.card))


class HandRow(HorizontalScroll):
    """Your hand, legal cards highlighted, the hinted one marked."""

    scene: reactive[Scene | None] = reactive(None, recompose=True)

    def compose(self) -> ComposeResult:
        refit_later(self)
        if self.scene is None:
            return
        table = self.scene.table
        count = len(self.scene.cards)
        # Narrower cards for long hands, so that all of them fit 80 columns (Oh Hell's 17).
        many = " -many" + (" -crowded" if count > 15 else "") if count > 13 else ""
        # No card to play now (a bid, a bet): the keys' row would be blank, and at 80x24 it is
        # the row that lets what the decision means be read whole.
        keyed = self.scene.selected >= 0 or any(card.key for card in self.scene.cards)
        self.styles.height = 2 if keyed else 1
        for index, card in enumerate(self.scene.cards):
            classes = "card -" + suit_class(card.text, table.deck) + many
            classes += " -legal" if card.legal else " -illegal"
            if card.hinted:
                classes += " -hinted"
            if self.scene.selected == index:
                classes += " -selected"
            selected = self.scene.selected == index
            yield CardView(card.text, card.key, table.deck, card.legal, classes, selected, keyed)
        for _ in range(table.blind):
            yield CardView("?", "", table.deck, False, "card -black -illegal" + many, keyed=keyed)


class ActionButton(Button):
    """A button for an action that is not a card: bid, sing, raise, accept, run, bet, pass."""

    def __init__(self, label: str, action: int, classes: str) -> None:
        super().__init__(label, classes=classes, compact=True)
        self.action_id = action
        self.can_focus = False


class StepButton(Button):
    """A stepper's ``-`` or ``+``: the amount beside it one lower or one higher (its key too)."""

    def __init__(self, step: int, disabled: bool) -> None:
        super().__init__("-" if step < 0 else "+", classes="step", compact=True, disabled=disabled)
        self.step = step
        self.can_focus = False


# The rows the buttons may take before they are drawn short: the table fits 80x24 with two.
ACTION_ROWS = 2

_Piece = tuple[int, list[Widget]]  # widgets kept on one row, and the columns they take


class ActionBar(Vertical):
    """The buttons, in as many rows as the width needs (every label whole); a bid the rules
    forbid now is shown struck through, and pressing it tells the rule. Where they would take
    more than two rows, each run of amounts is drawn short: its words once, then the numbers
    (``raise … more: 1 2 3 … 9 - t 12 +``)."""

    scene: reactive[Scene | None] = reactive(None, recompose=True)

    def compose(self) -> ComposeResult:
        refit_later(self)
        if self.scene is None:
            return
        width = max(20, (self.size.width or self.app.size.width) - 2)
        rows = _rows(_pieces(self.scene.buttons, short=False), width)
        if len(rows) > ACTION_ROWS:
            rows = _rows(_pieces(self.scene.buttons, short=True), width)
        for row in rows:
            yield Horizontal(*row, classes="action-row")

    def on_resize(self) -> None:
        if getattr(self, "_drawn_width", None) != self.size.width:
            self._drawn_width = self.size.width
            self.refresh(recompose=True)


def _rows(pieces: Iterable[_Piece], width: int) -> list[list[Widget]]:
    """The pieces in rows of ``width`` columns, none split across two."""
    rows: list[list[Widget]] = [[]]
    used = 0
    for room, widgets in pieces:
        if rows[-1] and used + room > width:
            rows.append([])
            used = 0
        used += room
        rows[-1].extend(widgets)
    return rows


def _pieces(buttons: Iterable[ButtonKey], short: bool) -> list[_Piece]:
    """The buttons as widgets: ``short``, a run of amounts under its words once (the first
    amount kept on the row of the words)."""
    pieces: list[_Piece] = []
    words = ""
    for button in buttons:
        if not short or button.amount is None:
            words = ""
            pieces.append(_button_piece(button, f"{button.key} {button.label}".strip(), 6))
            continue
        label = str(button.amount)
        label = label if button.key == label else f"{button.key} {label}".strip()
        room, widgets = _button_piece(button, label, 3)
        run = _run_words(button)
        if run != words:
            words = run
            head = Static(f"{run}:", classes="action-words")
            room, widgets = room + len(run) + 2, [head, *widgets]
        pieces.append((room, widgets))
    return pieces


def _button_piece(button: ButtonKey, label: str, least: int) -> _Piece:
    """A button as its widgets (a stepper's ``-`` and ``+`` beside it) and the columns they
    take: the label, its padding, the margin after it. A move the rules forbid now ends in
    ``✗`` as well as being struck through: a terminal without that style still shows it."""
    label = label if button.legal else f"{label} ✗"
    classes = "action" + (" -short" if least < 6 else "")
    classes += " -hinted" if button.hinted else ""
    classes += "" if button.legal else " -refused"
    widget = ActionButton(label, button.action, classes)
    room = max(len(label) + 2, least) + 1
    if not button.stepper:
        return room, [widget]
    lowest, highest = button.amount == button.stepper[0], button.amount == button.stepper[-1]
    return room + 8, [StepButton(-1, lowest), widget, StepButton(1, highest)]


def _run_words(button: ButtonKey) -> str:
    """A numbered button's words with its number left out: ``raise 3 more``, ``raise … more``."""
    return button.label.replace(str(button.amount), "…", 1)


class MessageLine(Static):
    """What was just said (a refusal, a hint); else what the decision on offer means, so a
    newcomer reads what each button does where it is pressed. Wrapped here, not by the
    terminal's width alone: a number stays on the line of the word before it."""

    scene: reactive[Scene | None] = reactive(None)

    def watch_scene(self, scene: Scene | None) -> None:
        if scene is not None:
            self._show(scene)

    def on_resize(self) -> None:
        if self.scene is not None:
            self._show(self.scene)

    def _show(self, scene: Scene) -> None:
        words = wrap_keeping_numbers(scene.message or scene.explain, self.content_size.width)
        # A message may quote a name, a path or a server's words: never read as markup.
        self.update(Text(words) if scene.message else Text(words, style="not bold italic"))


def wrap_keeping_numbers(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` columns at its spaces, never before a
    number (``3``, ``(3)``, ``10,``) or the ``·`` between two sentences: "asks 6 for the hand:
    if they run, your side scores 3" would otherwise leave the 3 alone on the last line.
    Unchanged where ``width`` is not known yet (0); a word longer than the line is left for the
    terminal to fold.

    >>> wrap_keeping_numbers("truco! asks 3 for the hand: your side scores 1", 44)
    'truco! asks 3 for the hand: your side\\nscores 1'
    """
    if width <= 0:
        return text
    if "\n" in text:
        return "\n".join(wrap_keeping_numbers(part, width) for part in text.split("\n"))
    groups: list[str] = []
    for word in text.split(" "):
        if groups and (word == "·" or word.strip("()[].,;:!?+-").isdecimal()):
            groups[-1] += " " + word
        else:
            groups.append(word)
    lines: list[str] = []
    for group in groups:
        if lines and cell_len(lines[-1]) + 1 + cell_len(group) <= width:
            lines[-1] += " " + group
        else:
            lines.append(group)
    return "\n".join(lines)


class LogView(RichLog):
    """What happened, in words; only new lines are written unless the text changed."""

    scene: reactive[Scene | None] = reactive(None)

    def __init__(self, **kwargs: object) -> None:
        # Wrapped at the box's width: RichLog's default least width (78) would cut every line
        # longer than the box (the score of a hand among four) at its edge.
        super().__init__(wrap=True, markup=False, min_width=1, **kwargs)  # type: ignore[arg-type]
        self._shown: tuple[str, ...] = ()
        self.can_focus = False

    def watch_scene(self, scene: Scene | None) -> None:
        if scene is None:
            return
        self.border_title = tr(scene.lang, "log")
        lines, shown = scene.log, self._shown
        # Lines scroll out of the scene's window at the front: match on the overlap.
        overlap = next(
            (k for k in range(min(len(shown), len(lines)), 0, -1) if shown[-k:] == lines[:k]), 0
        )
        if overlap == 0 or (overlap < len(shown) and shown[-1] != lines[overlap - 1]):
            self.clear()
            new: Iterable[str] = lines
        else:
            new = lines[overlap:]
        for line in new:
            self._write(line)
        self._shown = lines
        self._to_end()

    def _write(self, line: str) -> None:
        # Broken where a number keeps its word ("team 2 +6" whole): to the width the scrollbar
        # leaves, so a scrollbar coming in later wraps nothing again; written at that width too,
        # not one the log measures against its console (80 columns off a terminal).
        styles = self.styles
        width = self.outer_size.width - styles.gutter.width - styles.scrollbar_size_vertical
        self.write(wrap_keeping_numbers(line, width), width=width if width > 0 else None)

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        # Lines are wrapped to the width they were written at: at another, write them again.
        self.clear()
        for line in self._shown:
            self._write(line)
        self._to_end()

    def _to_end(self) -> None:
        # The newest line is what just happened: keep it in view, also once the lines written
        # before the log knew its size are laid out.
        self.scroll_end(animate=False)
        self.call_after_refresh(self.scroll_end, animate=False)

    @property
    def lines_text(self) -> tuple[str, ...]:
        return self._shown


class ScoreBoard(VerticalScroll):
    """Scores per deal and the totals."""

    scene: reactive[Scene | None] = reactive(None)

    def compose(self) -> ComposeResult:
        yield Static(id="score-table")

    def watch_scene(self, scene: Scene | None) -> None:
        if scene is not None:
            self._draw(scene)

    def on_resize(self) -> None:
        # Its width follows the screen's (the names fit another way), its rows its height.
        drawn_for = (self.app.size.width, self.size.height)
        if self.scene is not None and getattr(self, "_drawn_for", None) != drawn_for:
            self._draw(self.scene)

    def _draw(self, scene: Scene) -> None:
        self._drawn_for = (self.app.size.width, self.size.height)
        table = scene.table
        self.border_title = tr(scene.lang, "scores")
        grid = RichTable(
            box=None, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False, expand=True
        )
        grid.add_column("#", style="dim", justify="right", no_wrap=True, min_width=2)
        width = board_width(table.score_names, self.app.size.width)
        if self.styles.width is None or self.styles.width.value != width:
            self.styles.width = width
        # Border, scrollbar and the "#" column take 5 cells; each column one of padding.
        n = max(1, len(table.score_names))
        room = max(3, (width - 5 - n) // n)
        # Every name whole where they fit together (a short "you" leaves room for a "Carmen"),
        # else each cut to an even share.
        whole = [name.split(" · ")[0] for name in table.score_names]
        if sum(max(4, cell_len(name)) + 1 for name in whole) + 5 <= width:
            room = max(cell_len(name) for name in whole)
        for name in table.score_names:
            # Set apart: two Hebrew names side by side read as one run, their columns swapped.
            grid.add_column(Text(isolated(short_name(name, room))), justify="right", no_wrap=True)
        # The names and the totals always show: where the rows do not all fit, the latest do.
        # Two rows inside (80x24): the names over the totals, no deal's row between them.
        height = self.scrollable_content_region.height
        shown = list(enumerate(table.history, 1))
        if height > 0:
            rows = max(0, height - 2)
            shown = shown[len(shown) - rows :] if len(shown) > rows else shown
        for number, row in shown:
            grid.add_row(str(number), *(f"{v:+d}" for v in row))
        grid.add_row(Text("Σ", style="bold"), *(Text(str(v), style="bold") for v in table.scores))
        self.query_one("#score-table", Static).update(grid)
        self.scroll_end(animate=False)


def seat_label(title: str) -> str:
    """A seat's title (``דנה``, ``bot 2 · medium``) with the player's name set apart
    (``tapete.narrate.isolated``): a Hebrew or Arabic name reads in its own direction and
    leaves the bot level, the cut's ellipsis and the box's other words in theirs.

    >>> seat_label("דנה · medium") == "\u2068דנה\u2069 · medium", seat_label("bot 2")
    (True, 'bot 2')
    """
    name, dot, rest = title.partition(" · ")
    return isolated(name) + dot + rest


def board_width(names: Sequence[str], screen: int) -> int:
    """The scores' width: every name whole (a score takes four cells at least) where the screen
    has room for it, up to 45% of the screen; never under 34 cells, nor under five a seat (a
    score of four cells and its blank: eight seats at 80 columns, the first four letters of
    each name over its column, not "B…" and a seat left out).

    >>> board_width(["you", "Bruno", "Carmen", "Diego", "Elena"], 100)
    40
    >>> board_width(["you", "Bruno", "Carmen", "Diego", "Elena", "Fábio", "Gabi", "Hugo"], 100)
    45
    """
    longest = max((cell_len(n.split(" · ")[0]) for n in names), default=0)
    wanted = 5 + len(names) * (max(4, longest) + 1)  # as many columns, each as wide
    return max(34, 5 + len(names) * 5, min(wanted, screen * 45 // 100))


def short_name(name: str, room: int) -> str:
    """A name that fits ``room`` columns whole: without its bot level, then shortened but keeping
    what tells seats apart (``random 3`` -> ``ran 3``, ``Carmen`` -> ``Carm``); a wide character
    (Chinese, Japanese, Korean: two columns) is kept whole or left out, never cut in half.

    >>> short_name("bot 2 · medium", 8), short_name("random 3", 5), short_name("Carmen", 4)
    ('bot 2', 'ran 3', 'Carm')
    >>> short_name("山田太郎", 5)
    '山田'
    """
    name = name.split(" · ")[0]
    if cell_len(name) <= room:
        return name
    words = name.split()
    if len(words) > 1 and words[-1].isdecimal() and len(words[-1]) + 2 <= room:
        return f"{first_cells(words[0], room - len(words[-1]) - 1)} {words[-1]}"
    return first_cells(name, max(1, room)) or name[:1]


def shortened(name: str, width: int) -> str:
    """``name`` in ``width`` columns: whole where it fits, else its first letters and "…"; set
    apart (``seat_label``, ``isolated``) with the "…" after it, so that a right-to-left name
    keeps its own direction and the mark of its cut at the end of the box's line.

    >>> shortened("Bartholomew", 8), shortened("山田太郎山田", 8), shortened("Ana", 8)
    ('Barthol…', '山田太…', 'Ana')
    """
    if cell_len(name) <= width:
        return seat_label(name)
    return isolated(first_cells(name, width - 1)) + "…"


def first_cells(text: str, cells: int) -> str:
    """The start of ``text`` that takes ``cells`` columns at most, without a trailing blank: a
    wide character that would not fit whole is left out.

    >>> first_cells("山田太郎", 5), first_cells("Ana Luz", 4)
    ('山田', 'Ana')
    """
    used, end = 0, 0
    for end, char in enumerate(text, 1):
        used += cell_len(char)
        if used > cells:
            end -= 1
            break
    return text[:end].rstrip()


class OpenHands(Static):
    """Every hand open (replays): a line a seat, or two seats a line (``paired``) where the
    screen is short of rows for a line each and the lines fit side by side."""

    scene: reactive[Scene | None] = reactive(None)
    paired: reactive[bool] = reactive(False)

    def watch_scene(self) -> None:
        self.draw()

    def watch_paired(self) -> None:
        self.draw()

    def on_resize(self) -> None:
        self.draw()

    def draw(self) -> None:
        scene = self.scene
        if scene is None:
            return
        self.border_title = (
            f" {tr(scene.lang, 'hands')} "  # on a rule, not a box: spaced as a box does
        )
        deck = scene.table.deck
        width = max((cell_len(name) for name, _ in scene.hands), default=0)
        if self.paired:
            # Two hands a line: long names cut short ("Maximil…") where whole they would
            # leave every hand a line of its own, past the screen's last row.
            cards = max((sum(len(card_glyph(c, deck)) + 1 for c in h) for _, h in scene.hands))
            width = min(width, max(PLAY_NAME, self.half() - cards - 2))
        lines = []
        for name, hand in scene.hands:
            # The name set apart, so a right-to-left one leaves its cards where they are.
            label = shortened(name, width)
            line = Text(label + " " * (width - cell_len(label) + 2), style="dim")
            for card in hand:
                line.append_text(card_text(card, deck))
                line.append(" ")
            lines.append(line)
        self.update(Text("\n").join(self.pair(lines)))

    def half(self) -> int:
        """The columns of one of two hands side by side."""
        return ((self.size.width or self.app.size.width - 2) - len(HANDS_GAP)) // 2

    def pair(self, lines: list[Text]) -> list[Text]:
        """``lines`` two to a line, the first half on the left, when ``paired`` and they fit."""
        half = self.half()
        if not self.paired or max((line.cell_len for line in lines), default=0) > half:
            return lines
        rows = (len(lines) + 1) // 2
        out = []
        for left, right in zip_longest(lines[:rows], lines[rows:]):
            left.pad_right(half - left.cell_len)
            out.append(left if right is None else Text.assemble(left, HANDS_GAP, right))
        return out


HANDS_GAP = " │ "  # between two seats' hands on one line


class KeyBar(Static):
    """The keys of the screen, in the chosen language; click one to use it."""

    def show(self, keys: Iterable[tuple[str, str, str]], lang: str) -> None:
        """The keys, in as many lines as the width needs, none split across two."""
        self._shown = (tuple(keys), lang)
        width = self.size.width or self.app.size.width
        lines: list[list[str]] = [[]]
        used = 0
        for key, label, action in self._shown[0]:
            words = tr(lang, label)
            room = len(key) + 1 + len(words) + (2 if lines[-1] else 0)
            if lines[-1] and used + room > width:
                lines.append([])
                used, room = 0, room - 2
            used += room
            lines[-1].append(f"[b]{key}[/b] [@click=screen.{action}]{words}[/]")
        self.update("\n".join("  ".join(parts) for parts in lines))
        # As many rows as lines, said outright: drawn again from a resize, an auto height kept
        # the rows of the width before (two at 60 columns, still two at 80, a row of the log lost).
        self.styles.height = len(lines)

    def on_resize(self) -> None:
        shown = getattr(self, "_shown", None)
        if shown is not None:
            self.show(*shown)
