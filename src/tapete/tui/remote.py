"""The table at a server: ``tapete join LINK`` in a terminal.

The same table as ``tapete play`` draws, with the server as the dealer: each ``view`` message
brings the table already presented in the person's language (``present.Table``) and, on their
turn, the moves on offer; a key or a click sends the move, and the server's next view (or its
refusal, with the rule's sentence) is what the screen shows. Nothing is decided here: the hint
and the undo are asked of the server, which allows them at a table where every other seat is a
bot, and the match is kept by the server, not in the records folder. Until the match starts the
screen lists the seats as people sit down; at a table this person hosts (``tapete host``) the
match starts once every seat is taken, or at once with ``s`` (bots in the empty seats). Once a
match is over, ``r`` starts a rematch at the same table for everyone, as the browser's does.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.markup import escape
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from tapete.client import (
    JoinError,
    Link,
    NotSentError,
    Seats,
    Ticket,
    full,
    past,
    reading,
    seat_lines,
    start_now,
)
from tapete.errors import InvalidActionError, SpecError
from tapete.game import Action, Game
from tapete.games import load
from tapete.i18n import level_help, tr
from tapete.present import Button as Offered
from tapete.present import Table
from tapete.tui.session import LETTERS, CardKey, Scene, bid_order, button_keys
from tapete.tui.widgets import (
    CardView,
    KeyBar,
)

from .screens import SceneScreen, TableScreen, _page

__all__ = ["Joined", "RemoteTableScreen", "remote_scene"]

LOG_KEPT = 300  # log lines the screen keeps, as a local table does


@dataclass(frozen=True)
class Joined:
    """A seat taken at a server's table (``ticket``; None: watching) and the link to it."""

    link: Link
    ticket: Ticket | None
    seats: Seats | None = None


def remote_scene(
    game: Game[Any, Any],
    view: Mapping[str, Any],
    lang: str,
    log: Sequence[str] = (),
    message: str = "",
    hinted: Action | None = None,
    selected: int = -1,
    amount: int | None = None,
    about: Mapping[int, str] | None = None,
) -> Scene:
    """The scene of a ``view`` message (``docs/protocol.md``): its table, its moves with their
    keys (as ``Session.scene`` gives them at a local table), and ``log``."""
    table = Table.from_json(view["table"])
    offered = view.get("actions") or {}
    cards: Mapping[str, str] = offered.get("cards") or {}
    keys = "1234567890" + LETTERS
    card_keys = tuple(
        CardKey(
            card,
            keys[i] if cards and i < len(keys) else "",
            card in cards,
            game.parse_action(cards[card]) if card in cards else None,
            card in cards and game.parse_action(cards[card]) == hinted,
        )
        for i, card in enumerate(table.hand)
    )
    buttons = [
        (Offered(b["label"], game.parse_action(b["action"]), b["action"]), True)
        for b in offered.get("buttons") or ()
    ]
    refused = [
        (Offered(b["label"], game.parse_action(b["action"]), b["action"]), False)
        for b in offered.get("refused") or ()
    ]
    if refused:
        buttons = sorted([*buttons, *refused], key=lambda pair: bid_order(pair[0].text))
    mine = bool(cards or buttons)
    return Scene(
        table=table,
        lang=lang,
        cards=card_keys,
        buttons=button_keys(buttons, {c.key for c in card_keys if c.key}, hinted, amount),
        log=tuple(log),
        message=message,
        explain=str(offered.get("explain") or ""),
        selected=selected if mine else -1,
        about=dict(about or {}),
    )


class RemoteTableScreen(SceneScreen):
    """Your seat at a server's table. Keys and clicks send moves; the server's views redraw."""

    # The local table's keys, but the bots' speed (they think at the server) and the records
    # folder (the server keeps the match).
    BINDINGS: ClassVar[list[BindingType]] = [
        b
        for b in TableScreen.BINDINGS
        if not (isinstance(b, Binding) and b.action in ("speed", "records"))
    ]

    def __init__(self, joined: Joined) -> None:
        super().__init__()
        self.link, self.ticket, self.seats = joined.link, joined.ticket, joined.seats
        self.game: Game[Any, Any] | None = None
        self.room: Mapping[str, Any] = {}
        self.view: Mapping[str, Any] = {}
        self.lines: list[str] = []
        self.message_text = ""
        self.hinted: Action | None = None
        self.selected = -1
        self.amount: int | None = None
        self.over = False
        self.catching_up = False  # the next view is a connection's first: its log overlaps
        self.relog = False  # the next view is said in a new language: its log replaces ours
        self.host = False  # the welcome said this seat is the table's host
        self.starting = False  # a start is sent and its room not yet come
        self.timer_end: float | None = None  # when the turn timer runs out (time.monotonic)

    def compose(self) -> ComposeResult:
        yield Static(id="waiting")
        yield from self.playing_widgets()

    def on_mount(self) -> None:
        self.add_class("-waiting")  # until the match's first view: who sits where
        self.check_size()
        self.query_one(KeyBar).show(self.bar_keys(), self.lang)
        self.listen()
        self.set_interval(1.0, self.tick)

    def tick(self) -> None:
        """The turn timer's seconds, counted down on the message line while it runs."""
        if self.timer_end is not None and self.mine:
            self.redraw()

    def shown_message(self) -> str:
        """The message line: a word from the server or about the last key, else, at a table
        with a turn timer, the seconds left for your move before what the move means."""
        if self.message_text or self.timer_end is None or not self.mine:
            return self.message_text
        left = max(0, round(self.timer_end - time.monotonic()))
        countdown = tr(self.lang, "{n} seconds left to play", n=left)
        explain = str((self.view.get("actions") or {}).get("explain") or "")
        return f"{countdown} · {explain}" if explain else countdown

    def game_page(self) -> str:
        assert self.game is not None
        return _page(self.game)

    def game_name(self) -> str:
        assert self.game is not None
        return self.game.name

    def played(self) -> Game[Any, Any]:
        assert self.game is not None
        return self.game

    # -- what the server says

    @work(exclusive=True, group="link")
    async def listen(self) -> None:
        try:
            async for message in self.link.messages():
                with reading(self.link.server, message):
                    self.heard(message)
        except JoinError as exc:
            self.app.exit(return_code=2, message=f"tapete: {exc.in_language(self.lang)}")

    def heard(self, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.catching_up = True  # its first view brings the recent log again
            self.host = bool(message.get("host"))
        if kind == "welcome" and message.get("refused") and self.ticket is not None:
            if self.seats is not None:
                self.seats.forget(self.ticket.server, self.ticket.code)
            self.link.token, self.ticket = None, None
            self.say(tr(self.lang, "this seat is no longer yours: you watch the table"))
        elif kind == "room":
            self.roomed(message)
        elif kind == "view":
            self.viewed(message)
        elif kind == "error" and message.get("rule") == "no-such-table":
            # Expired or removed while away: nothing to wait for.
            self.app.exit(return_code=2, message=f"tapete: {message.get('text') or ''}")
        elif kind == "error":
            self.starting = False  # a start refused may be asked again
            self.say(f"{tr(self.lang, 'not allowed')}: {message.get('text') or ''}")
        elif kind == "hint":
            self.hinted = self._parsed(str(message.get("action", "")))
            self.say(f"{tr(self.lang, 'hint')}: {message.get('label')} — {message.get('reason')}")

    def roomed(self, room: Mapping[str, Any]) -> None:
        self.room = room
        if self.game is None:
            try:
                self.game = load(str(room.get("spec")))
            except SpecError as exc:
                self.app.exit(
                    return_code=2,
                    message="tapete: "
                    + tr(self.lang, "a game this tapete does not know: {why}", why=exc),
                )
                return
        if room.get("started"):
            self.starting = False
        elif self.host and full(room) and not self.starting:
            self.start()
        self.redraw()

    def start(self) -> None:
        """The host starts the match: at once, bots in the empty seats."""
        self.starting = True
        for message in start_now(self.room):
            self.send(message)

    def waiting_text(self) -> str:
        """Before the match: the table, who sits where, and what starts it (as markup: the
        names people chose are escaped)."""
        room, lang = self.room, self.lang
        lines = [f"[b]{escape(str(room.get('title', '')))}[/b]", ""]
        lines += [*seat_lines(room, lang, escape), ""]
        if self.host:
            link = self.link.table_url
            lines.append(tr(lang, "friends join with  tapete join {link}", link=link))
            lines.append(tr(lang, "or in a browser at {link}", link=link))
            lines.append("")
            lines.append(tr(lang, "the match starts once every seat is taken"))
            lines.append(tr(lang, "s: start now, with bots in the empty seats"))
        else:
            lines.append(tr(lang, "waiting for the host to start"))
        if self.message_text:
            lines += ["", escape(self.message_text)]
        return "\n".join(lines)

    def viewed(self, view: Mapping[str, Any]) -> None:
        if view.get("version") != self.view.get("version"):
            # The table moved on: a word about the last position (a refusal, a hint) is old.
            self.hinted, self.amount, self.message_text = None, None, ""
        self.view = view
        timer = view.get("timer")
        self.timer_end = None if timer is None else time.monotonic() + float(timer)
        lines = list(view.get("log") or ())
        if self.relog:
            self.lines = lines  # the recent log, in the language just chosen
        else:
            self.lines = [*self.lines, *(past(self.lines, lines) if self.catching_up else lines)]
        del self.lines[:-LOG_KEPT]
        self.catching_up = self.relog = False
        if view.get("result") is None:
            self.over = False  # a rematch (this person's or another player's) is under way
        elif not self.over:
            self.over = True
            where = self.link.record_url(int(view.get("match", 0)))
            rematch = f" — r: {tr(self.lang, 'rematch')}" if self.ticket is not None else ""
            self.message_text = f"{tr(self.lang, 'the record')}: {where}{rematch}"
        self.redraw()

    def redraw(self) -> None:
        waiting = not self.view
        self.set_class(waiting, "-waiting")
        if waiting:
            if self.room:
                self.query_one("#waiting", Static).update(self.waiting_text())
            return
        if self.game is None:
            return
        about = {
            int(s["seat"]): level_help(self.lang, str(s["level"]))
            for s in self.room.get("seats", ())
            if s.get("kind") == "bot"
        }
        self.scene = remote_scene(
            self.game,
            self.view,
            self.lang,
            self.lines,
            self.shown_message(),
            self.hinted,
            self.selected,
            self.amount,
            about,
        )

    def say(self, text: str) -> None:
        self.message_text = text
        self.redraw()

    # -- what the person does

    def act(self, action: Action | None) -> None:
        if action is None or self.cramped or self.game is None:
            return
        if not self.mine:
            self.say(tr(self.lang, "wait for your turn"))
            return
        text = self.game.format_action(action)
        self.send({"type": "act", "action": text, "version": self.view.get("version")})

    @property
    def mine(self) -> bool:
        offered = self.view.get("actions") or {}
        return bool(offered.get("cards") or offered.get("buttons"))

    @work(group="send")
    async def send(self, message: Mapping[str, Any]) -> None:
        try:
            await self.link.send(message)
        except NotSentError:
            self.say(tr(self.lang, "the connection is lost: not sent; it comes back by itself"))

    def _parsed(self, text: str) -> Action | None:
        if self.game is None:
            return None
        try:
            return self.game.parse_action(text)
        except InvalidActionError:
            return None

    def on_key(self, event: events.Key) -> None:
        if not self.view and self.host and event.character == "s" and not self.cramped:
            event.stop()
            if not self.starting:
                self.start()
            return
        if self.over and event.character == "r" and self.ticket is not None and not self.cramped:
            event.stop()  # a new match at this table for everyone, as the browser's rematch
            self.send({"type": "rematch", "match": self.view.get("match", 0)})
            return
        scene = self.scene
        if scene is None or event.character is None:
            return
        if self.cramped and event.is_printable:
            event.stop()
            return
        keyed = scene.key_map()
        key = event.character
        if key in keyed:
            event.stop()
            self.act(keyed[key])
            return
        refused = next((c for c in scene.cards if c.key == key and not c.legal), None)
        if refused is not None:
            event.stop()  # a card the rules forbid now: the rule's sentence, from the server
            why = (self.view.get("actions") or {}).get("refused_cards", {}).get(refused.text)
            self.say(f"{tr(self.lang, 'not allowed')}: {why}" if why else "")

    @on(CardView.Chosen)
    def card_chosen(self, message: CardView.Chosen) -> None:
        card = (
            next((c for c in self.scene.cards if c.text == message.card), None)
            if self.scene
            else None
        )
        self.act(card.action if card is not None else None)

    def action_play_selected(self) -> None:
        cards = self.scene.cards if self.scene else ()
        if 0 <= self.selected < len(cards):
            self.act(cards[self.selected].action)

    def action_hint(self) -> None:
        self.send({"type": "hint"})

    def action_undo(self) -> None:
        self.send({"type": "undo"})

    def action_language(self) -> None:
        super().action_language()
        self.link.lang = self.lang  # the next connection says it too
        self.relog = bool(self.view)  # a started match: the server says its recent log again
        self.send({"type": "lang", "lang": self.lang})  # the room and view come back in it
