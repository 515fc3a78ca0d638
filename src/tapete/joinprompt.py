"""The line prompt at a server's table: ``tapete join LINK --plain``.

The server sends this seat's table, already presented in the person's language, after every
move, with the moves on offer on their turn; this prompt prints the log's new lines as they come
and, on the person's turn, the table and the moves, and sends what they type. It types as
``tapete play --plain`` does: the notation (``bid 2``, ``play 3o``), a card alone (``3o``), or a
move's words (``pedir 2``, ``truco``); ``hint`` and ``undo`` ask the server (at a table where
every other seat is a bot); ``q`` or the end of input leaves the table, the seat kept for
``tapete join`` to come back to. At a table this person hosts (``tapete host``), the match
starts once every seat is taken, or at once with ``start`` (bots in the empty seats). Once a
match is over, ``rematch`` starts another at the same table for everyone, as the browser's
Rematch does, and a rematch someone else starts is played here too.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from typing import Any, TextIO

from tapete.cli import (
    HINT_HELP,
    HINT_WORDS,
    LEFT,
    LINE_LIMIT,
    STOPPED_WATCHING,
    UNDO_HELP,
    UNDO_WORDS,
    _read_line,
    _words,
    prompt_options,
)
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
from tapete.i18n import tr
from tapete.narrate import table_text
from tapete.present import Actions, Button, Table

__all__ = ["Prompt"]

QUIT_WORDS = frozenset({"q", "quit", "exit"})
START_WORDS = frozenset({"s", "start", "empezar", "começar", "comecar"})
REMATCH_WORDS = frozenset({"r", "rematch", "revancha", "revanche"})
HOST_WAITING = (
    "the match starts once every seat is taken; start begins it now, with bots in the empty seats"
)
OVER_SEATED = "rematch starts another match at this table for everyone; q leaves"
OVER_WATCHING = "a rematch is shown here if the players start one; q stops watching"
LOG_KEPT = 300  # the log lines kept to tell a connection's recent log from new lines


class Prompt:
    """One person at a server's table, at a line prompt. ``lines`` gives what they type (None:
    the end of input); ``run`` plays match after match until they leave (0: their seat is
    kept) or the table is gone."""

    def __init__(
        self, link: Link, ticket: Ticket | None, out: TextIO, lang: str, seats: Seats | None
    ) -> None:
        self.link, self.ticket, self.out, self.lang, self.seats = link, ticket, out, lang, seats
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.game: Game[Any, Any] | None = None
        self.room: Mapping[str, Any] = {}
        self.view: Mapping[str, Any] = {}
        self.offered: list[str] = []  # the moves on offer now, in the notation
        self.words: dict[str, str] = {}  # a move's words as typed -> its notation
        self.printed: list[str] = []  # the log lines printed lately
        self.catching_up = False  # the next view is a connection's first: its log overlaps
        self.waiting_said = False
        self.seated: list[str] = []  # the seats as last listed, before the start
        self.host = False  # the welcome said this seat is the table's host
        self.starting = False  # a start is sent and its room not yet come
        self.over = False  # the match shown is over (until a rematch's first view)
        self.outbox: list[dict[str, Any]] = []  # what taking in a message asks to send
        self.prompted = False  # the prompt is printed and its line not ended
        self.echoed = False  # what is typed is echoed, ending the prompt's line (a terminal)

    def say(self, text: str) -> None:
        if self.prompted:
            # The prompt's line is still open (nothing typed, or typed where it is not echoed).
            print(file=self.out)
            self.prompted = False
        print(text, file=self.out, flush=True)

    def read_from(self, stdin: TextIO) -> None:
        """Read ``stdin`` in a thread of its own, line by line, into ``lines``."""
        loop = asyncio.get_running_loop()
        self.echoed = stdin.isatty()

        def reader() -> None:
            while True:
                read = _read_line(stdin)
                if read is not None and read[1] > LINE_LIMIT:
                    continue  # a line past the limit is no move: dropped
                text = None if read is None else read[0]
                loop.call_soon_threadsafe(self.lines.put_nowait, text)
                if text is None:
                    return

        threading.Thread(target=reader, daemon=True).start()

    async def run(self) -> int:
        messages = self.link.messages()
        incoming = asyncio.ensure_future(anext(messages))
        typed = asyncio.ensure_future(self.lines.get())
        try:
            while True:
                done, _ = await asyncio.wait({incoming, typed}, return_when=asyncio.FIRST_COMPLETED)
                if incoming in done:
                    try:
                        message = incoming.result()
                    except StopAsyncIteration:
                        return 0
                    with reading(self.link.server, message):
                        gone = self.heard(message)
                    if gone:
                        return 0
                    await self.flush()
                    incoming = asyncio.ensure_future(anext(messages))
                if typed in done:
                    text = typed.result()
                    self.prompted = self.prompted and not self.echoed
                    if text is None or text.strip().lower() in QUIT_WORDS:
                        self.leave()
                        return 0
                    await self.typed(text.strip())
                    typed = asyncio.ensure_future(self.lines.get())
        finally:
            for task in (incoming, typed):
                task.cancel()
            # The generator is closed once the task reading it has ended, not while it runs.
            await asyncio.gather(incoming, typed, return_exceptions=True)
            await self.link.close()
            await messages.aclose()

    # -- what the server says

    def heard(self, message: Mapping[str, Any]) -> bool:
        """Take in one message; True once the table is gone."""
        kind = message.get("type")
        if kind == "welcome":
            self.welcomed(message)
        elif kind == "room":
            self.roomed(message)
        elif kind == "view":
            self.viewed(message)
        elif kind == "error" and message.get("rule") == "no-such-table":
            self.say(f"tapete: {message.get('text') or message.get('message')}")
            return True  # expired or removed: nothing to wait for
        elif kind == "error":
            self.say(
                f"  {tr(self.lang, 'not allowed')}: {message.get('text') or message.get('message')}"
            )
        elif kind == "hint":
            self.say(f"  {tr(self.lang, 'hint')}: {message.get('label')} — {message.get('reason')}")
        if kind == "error":
            self.starting = False  # a start refused may be asked again
        if kind in ("error", "hint"):
            self.reprompt()
        return False

    def welcomed(self, message: Mapping[str, Any]) -> None:
        self.catching_up = True  # its first view brings the recent log again
        self.host = bool(message.get("host"))
        if message.get("refused") and self.ticket is not None:
            # The table no longer knows this seat (the host removed it, or the table is gone).
            if self.seats is not None:
                self.seats.forget(self.ticket.server, self.ticket.code)
            self.link.token, self.ticket = None, None
            self.say(tr(self.lang, "this seat is no longer yours: you watch the table"))

    def roomed(self, room: Mapping[str, Any]) -> None:
        first = not self.room
        self.room = room
        if self.game is None:
            try:
                self.game = load(str(room.get("spec")))
            except SpecError as exc:
                raise JoinError("a game this tapete does not know: {why}", why=exc) from None
        if first:
            self.say(str(room.get("title", "")))
        seated = [str(s.get("name")) for s in room.get("seats", ())]
        if first or (not room.get("started") and seated != self.seated):
            # Before the start, each friend who sits down is told: the host waits for them.
            for line in seat_lines(room, self.lang):
                self.say(line)
        self.seated = seated
        starts_now = self.host and full(room)
        if not room.get("started") and not self.waiting_said and not starts_now:
            self.waiting_said = True
            said = HOST_WAITING if self.host else "waiting for the host to start"
            self.say(tr(self.lang, said))
        if room.get("started"):
            self.starting = False
        elif starts_now and not self.starting:
            self.start()

    def start(self) -> None:
        """The host starts the match: at once, bots in the empty seats."""
        self.starting = True
        self.outbox.extend(start_now(self.room))

    def viewed(self, view: Mapping[str, Any]) -> None:
        self.view = view
        lines = list(view.get("log") or ())
        for said in past(self.printed, lines) if self.catching_up else lines:
            self.say(said)
            self.printed.append(said)
        del self.printed[:-LOG_KEPT]
        self.catching_up = False
        table = Table.from_json(view["table"])
        if view.get("result") is not None:
            if not self.over:
                # The log has said who won (and why, where the scores do not): the final
                # table, and where the match's record is, for tapete replay.
                self.over = True
                self.offered, self.words = [], {}
                self.say("\n" + table_text(table, self.lang, str(self.room.get("trick", "trick"))))
                where = self.link.record_url(int(view.get("match", 0)))
                self.say(f"{tr(self.lang, 'the record')}: {where}")
                self.say(tr(self.lang, OVER_SEATED if self.ticket is not None else OVER_WATCHING))
            return
        self.over = False  # a rematch (this person's or another player's) is under way
        offered = self.moves(view.get("actions") or {})
        if offered is not None:
            self.say("\n" + table_text(table, self.lang, str(self.room.get("trick", "trick"))))
            self.ask(offered)

    def moves(self, offered: Mapping[str, Any]) -> Actions | None:
        """The moves on offer, as the prompt names them; None when none is (not your turn)."""
        game = self.game
        cards = dict(offered.get("cards") or {})
        buttons = list(offered.get("buttons") or ())
        if game is None or not (cards or buttons):
            self.offered, self.words = [], {}
            return None
        self.offered = [*cards.values(), *(b["action"] for b in buttons)]
        self.words = {_words(b["label"]): b["action"] for b in buttons}
        self.words.update({_words(card): action for card, action in cards.items()})
        return Actions(
            cards={card: game.parse_action(a) for card, a in cards.items()},
            buttons=tuple(
                Button(b["label"], game.parse_action(b["action"]), b["action"]) for b in buttons
            ),
            explain=str(offered.get("explain") or ""),
        )

    def reprompt(self) -> None:
        """The prompt again after a word in between, while the moves are still on offer."""
        offered = self.moves(self.view.get("actions") or {})
        if offered is not None:
            self.ask(offered, explain=False)

    def ask(self, offered: Actions, explain: bool = True) -> None:
        assert self.game is not None
        legal = [*offered.cards.values(), *(b.action for b in offered.buttons)]
        if offered.explain and explain:
            self.say(f"  {offered.explain}")
        timer = self.view.get("timer")
        if timer is not None and explain:  # a table with a turn timer: past it, a bot moves
            self.say(f"  {tr(self.lang, '{n} seconds left to play', n=round(float(timer)))}")
        options = prompt_options(self.game, legal, offered)
        print(
            tr(self.lang, "your move ({options})", options=options) + ": ",
            end="",
            file=self.out,
            flush=True,
        )
        self.prompted = True

    # -- what the person types

    async def typed(self, text: str) -> None:
        if not text:
            return
        if text in ("?", "help", "ayuda", "ajuda"):
            explain = str((self.view.get("actions") or {}).get("explain") or "")
            hint = tr(self.lang, HINT_HELP) if self.room.get("hint") else ""
            undo = tr(self.lang, UNDO_HELP) if self.view.get("undo") else ""
            for said in (explain, hint, undo):
                if said:
                    self.say(f"  {said}")
            self.reprompt()
        elif text.lower() in HINT_WORDS:
            await self.send({"type": "hint"})
        elif text.lower() in UNDO_WORDS:
            await self.send({"type": "undo"})
        elif text.lower() in START_WORDS and self.host and not self.room.get("started"):
            if not self.starting:
                self.start()
                await self.flush()
        elif self.over and self.ticket is not None and text.lower() in REMATCH_WORDS:
            await self.send({"type": "rematch", "match": self.view.get("match", 0)})
        elif self.over:
            self.say(
                f"  {tr(self.lang, OVER_SEATED if self.ticket is not None else OVER_WATCHING)}"
            )
        elif not self.offered:
            self.say(f"  {tr(self.lang, 'not your turn yet')}")
        else:
            action = self.action(text)
            if action is None:
                self.reprompt()
            else:
                version = self.view.get("version")
                await self.send({"type": "act", "action": action, "version": version})

    def action(self, text: str) -> str | None:
        """The notation of the move ``text`` names: its words, its card, or the notation."""
        named = self.words.get(_words(text))
        if named is not None:
            return named
        assert self.game is not None
        try:
            parsed: Action = self.game.parse_action(text)
        except InvalidActionError as exc:
            said = (
                str(exc)
                if self.lang == "en"
                else tr(self.lang, "{entry!r} is not a move here", entry=text)
            )
            self.say(f"  {said}")
            self.say(f"  {tr(self.lang, 'type one of the moves in brackets; ? explains them')}")
            return None
        return self.game.format_action(parsed)

    async def flush(self) -> None:
        """Send what taking in messages asked to send."""
        while self.outbox:
            await self.send(self.outbox.pop(0))

    async def send(self, message: Mapping[str, Any]) -> None:
        try:
            await self.link.send(message)
        except NotSentError:
            self.say(
                f"  {tr(self.lang, 'the connection is lost: not sent; it comes back by itself')}"
            )

    def leave(self) -> None:
        said = LEFT if self.ticket is not None else STOPPED_WATCHING
        self.say(tr(self.lang, said, code=self.link.code, link=self.link.table_url))
