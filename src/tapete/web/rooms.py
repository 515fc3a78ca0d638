"""Rooms: a table's truth, its live state, its connections, its bots and its clocks.

A ``Room`` owns one table. Its truth is a ``Truth`` — spec, seed, seat config and the accepted
actions — and its state is rebuilt from it by replay, so a store that keeps truths makes every
table survive a restart. Each action is checked by the engine, handed to the store, and only then
told to each connection as that connection's seat may see it: ``present(observe(state, seat))``
and the public log entries of the step. ``Rooms`` holds the rooms of a server.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, Protocol

import orjson

from tapete import bots, record
from tapete.errors import IllegalActionError, InvalidActionError, SpecError
from tapete.game import Action, Game
from tapete.games import load
from tapete.i18n import tr
from tapete.match import choose_or_stand_in, seat_rng
from tapete.present import actions, present
from tapete.record import Recorder, SeatInfo
from tapete.web.store import Options, SeatConfig, Store, Truth
from tapete.web.thinking import Job, Thinkers
from tapete.web.words import (
    deal_entries,
    line,
    public_trick,
    reason_words,
    seat_name,
    step_entries,
)

__all__ = ["Connection", "Room", "Rooms", "encode", "levels", "token_hash"]

log = logging.getLogger("tapete.web")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
LOG_KEEP = 200  # log entries kept for people who (re)connect
LOG_SHOWN = 60  # of which sent on (re)connection
HINT_MS = 400
EXPIRE_AFTER = 24 * 3600.0  # seconds a table may wait to be started before it is removed


def token_hash(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def levels(game: Game[Any, Any]) -> tuple[str, ...]:
    """The bot levels ``game`` has: every level where its strategies exist, else random only."""
    return bots.LEVELS if game.rules.NAME in bots.STRATEGIES else ("random",)


class Connection(Protocol):
    """One player's or spectator's link: its seat (None: watching), language and outbox.

    ``send`` takes a message as data for ``encode``; one message may go to several connections
    (those of the same seat and language), so it must not be changed after it is sent.
    """

    seat: int | None
    lang: str
    token: str | None  # the hash of the token it showed

    def send(self, message: Mapping[str, Any]) -> None: ...


def encode(message: Mapping[str, Any]) -> str:
    """A message as the JSON text that goes on the wire: compact, UTF-8, tuples as arrays and
    dataclasses (the presented ``Table``) as objects of their fields.

    orjson, because encoding every seat's view after every move was the server's largest cost
    with the standard library's encoder (about 40 µs a view against 4). What orjson declines —
    integers past 64 bits, deep nesting: only a ``ping``'s echo carries what a client chose —
    the standard library writes.

    >>> from tapete.present import OnTable
    >>> encode({"type": "view", "trick": (OnTable(1, "3o"),), "timer": None})
    '{"type":"view","trick":[{"seat":1,"card":"3o"}],"timer":null}'
    >>> encode({"type": "pong", "t": 2**70})
    '{"type":"pong","t":1180591620717411303424}'
    """
    try:
        return orjson.dumps(message).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def error(rule: str, message: str) -> IllegalActionError:
    return IllegalActionError(rule, message)


class Room:
    """One table: its truth, the state replayed from it, its connections, bots and timers."""

    def __init__(
        self,
        truth: Truth,
        store: Store,
        players: Mapping[str, bots.Bot] | None = None,
        thinkers: Thinkers | None = None,
    ) -> None:
        self.truth = truth
        self.store = store
        self.thinkers = thinkers or Thinkers(0)  # where the bots decide
        self.players = players or {}  # the bot that plays a level here, if not bots.load(level)
        self.game = load(truth.spec)
        self.levels = levels(self.game)
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.away: dict[int, float] = {}  # seat -> when its person left
        self.standin: set[int] = set()  # seats a bot plays while their person is away
        self.deadline: float | None = None  # when the person to act times out (time.monotonic)
        self._bots: dict[str, bots.Bot] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._driver: asyncio.Task[Any] | None = None
        self._timer: asyncio.Task[Any] | None = None
        self._grace: dict[int, asyncio.Task[Any]] = {}
        self.rebuild()

    # --- truth and state -----------------------------------------------------------------

    def rebuild(self) -> None:
        """The state and log from the truth, by replaying every accepted action."""
        game, t = self.game, self.truth
        state = game.new_state(t.seed)
        recorder = Recorder(game, state, t.seed, ())
        entries = deal_entries(game.visible_events(state, None))
        for seat, text in t.actions:
            action = game.parse_action(text)
            after = game.apply(state, action)
            recorder.step(seat, action, after)
            entries.extend(step_entries(game, seat, action, state, after))
            state = after
        self.state: Any = state
        # The record grows with the match, so ending one does not replay it while everyone waits.
        self.recorder = recorder
        self.log: list[dict[str, Any]] = entries[-LOG_KEEP:]
        self.rngs = [seat_rng(t.seed, s) for s in range(self.game.players)]

    @property
    def code(self) -> str:
        return self.truth.code

    @property
    def version(self) -> int:
        return len(self.truth.actions)

    @property
    def over(self) -> bool:
        return self.game.outcome(self.state) is not None

    def seat_of(self, token: str | None) -> int | None:
        if token is None:
            return None
        for i, seat in enumerate(self.truth.seats):
            if seat.kind == "human" and seat.token == token:
                return i
        return None

    def record(self) -> record.Record:
        """The match so far as a ``tapete-record/1`` (it holds every hand: for finished matches)."""
        infos = tuple(
            SeatInfo(seat_name("en", i, s.kind, s.name, s.level), "human", None)
            if s.kind == "human"
            else SeatInfo(seat_name("en", i, s.kind, s.name, s.level), "bot", s.level)
            for i, s in enumerate(self.truth.seats)
        )
        return dataclasses.replace(self.recorder.record(), seats=infos, seed_hash=self.seed_hash)

    @property
    def seed_hash(self) -> str:
        """The SHA-256 of this match's seed, published from the start (the seed is not)."""
        return hashlib.sha256(str(self.truth.seed).encode()).hexdigest()

    def record_for(self, seat: int | None, match: int | None = None) -> str | None:
        """Match ``match``'s record (default: the current one) as ``seat`` may have it: complete
        once the match is over, redacted to the seat's knowledge while it runs."""
        t = self.truth
        match = t.match if match is None else match
        if 0 <= match < len(t.records):
            return t.records[match]
        if match != t.match or not t.started:
            return None
        return record.dumps(record.redact(self.record(), seat))

    # --- what people see -----------------------------------------------------------------

    def names(self, lang: str) -> list[str]:
        return [seat_name(lang, i, s.kind, s.name, s.level) for i, s in enumerate(self.truth.seats)]

    def hint_allowed(self, seat: int | None) -> bool:
        """Hints are for people playing against bots only."""
        return seat is not None and all(
            s.kind == "bot" or i == seat for i, s in enumerate(self.truth.seats)
        )

    def room_message(self, conn: Connection) -> dict[str, Any]:
        t = self.truth
        names = self.names(conn.lang)
        connected = {c.seat for c in self.conns if c.seat is not None}
        return {
            "type": "room",
            "code": t.code,
            "game": self.game.name,
            "spec": t.spec,
            "players": self.game.players,
            "seats": [
                {
                    "seat": i,
                    "name": names[i],
                    "kind": s.kind,
                    "level": s.level,
                    "player": s.player if s.kind == "human" else f"bot:{s.level}",
                    "connected": i in connected,
                    "away": i in self.away,
                    "standin": i in self.standin,
                }
                for i, s in enumerate(t.seats)
            ],
            "you": conn.seat,
            "host": conn.token is not None and conn.token == t.host,
            "started": t.started,
            "over": self.over,
            "match": t.match,
            "records": len(t.records),
            "seed_hash": self.seed_hash,
            "seed": t.seed if self.over else None,
            "options": t.options.to_json(),
            "levels": list(self.levels),
            "hint": self.hint_allowed(conn.seat),
        }

    def view_message(
        self,
        conn: Connection,
        entries: Sequence[Mapping[str, Any]],
        trick: Mapping[str, Any] | None = None,
        said: dict[str, tuple[list[str], list[str]]] | None = None,
    ) -> dict[str, Any]:
        """``conn``'s view of the state, with ``entries`` as its log lines; ``said`` keeps the
        names and log lines per language for the other connections told of the same move."""
        game, state, seat, lang = self.game, self.state, conn.seat, conn.lang
        words = None if said is None else said.get(lang)
        if words is None:
            names = self.names(lang)
            words = names, [line(lang, e, names, game.teams is not None) for e in entries]
            if said is not None:
                said[lang] = words
        names, log = words
        view = game.observe(state, seat)
        table = present(view, lang, names)
        mine = seat is not None and self.truth.started and game.current_player(state) == seat
        legal = actions(game, game.legal_actions(state) if mine else [], lang, view)
        outcome = game.outcome(state)
        remaining = None
        if self.deadline is not None:
            remaining = max(0.0, round(self.deadline - time.monotonic(), 1))
        return {
            "type": "view",
            "version": self.version,
            "match": self.truth.match,
            "table": table,  # a dataclass: written as an object of its fields (``encode``)
            "actions": {
                "cards": {card: game.format_action(a) for card, a in legal.cards.items()},
                "buttons": [{"label": b.label, "action": b.text} for b in legal.buttons],
            },
            "log": log,
            "trick": trick,
            "result": None
            if outcome is None
            else {
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "names": [names[w] for w in outcome.winners],
            },
            "timer": remaining,
        }

    def _tell_all(self, message: Callable[[Connection], Mapping[str, Any]]) -> None:
        for conn in list(self.conns):
            conn.send(message(conn))

    def broadcast_room(self) -> None:
        self._tell_all(self.room_message)

    def _broadcast_view(
        self, entries: Sequence[Mapping[str, Any]], trick: Mapping[str, Any] | None = None
    ) -> None:
        """Each connection's view of the new state: built once per seat and language, so
        spectators and a person's second tab cost nothing more."""
        if not self.truth.started:
            return
        built: dict[tuple[int | None, str], dict[str, Any]] = {}
        said: dict[str, tuple[list[str], list[str]]] = {}
        for conn in list(self.conns):
            key = (conn.seat, conn.lang)
            message = built.get(key)
            if message is None:
                message = built[key] = self.view_message(conn, entries, trick, said)
            conn.send(message)

    # --- connections ---------------------------------------------------------------------

    def join(self, conn: Connection) -> None:
        """A connection arrives: it gets the room and its view; a returning person their seat."""
        self.conns.add(conn)
        seat = conn.seat
        conn.send(
            {
                "type": "welcome",
                "code": self.code,
                "seat": seat,
                "host": conn.token is not None and conn.token == self.truth.host,
                "lang": conn.lang,
            }
        )
        if seat is not None:
            self.away.pop(seat, None)
            task = self._grace.pop(seat, None)
            if task is not None:
                task.cancel()
            if seat in self.standin:
                self.standin.discard(seat)
                self._set_deadline()
        self.broadcast_room()
        if self.truth.started:
            conn.send(self.view_message(conn, self.log[-LOG_SHOWN:]))
        self._wake()

    def leave(self, conn: Connection) -> None:
        """A connection is gone; a person's seat waits ``grace`` seconds for them, then a bot
        stands in."""
        self.conns.discard(conn)
        seat = conn.seat
        if seat is None or any(c.seat == seat for c in self.conns):
            self.broadcast_room()
            return
        self._mark_away(seat)
        self.broadcast_room()

    def _mark_away(self, seat: int) -> None:
        if self.truth.seats[seat].kind != "human" or seat in self.away:
            return
        self.away[seat] = time.monotonic()
        self._grace[seat] = self._spawn(self._stand_in(seat))

    async def _stand_in(self, seat: int) -> None:
        await asyncio.sleep(self.truth.options.grace)
        if seat in self.away:
            self.standin.add(seat)
            self._grace.pop(seat, None)
            self.broadcast_room()
            self._wake()

    def relang(self, conn: Connection, lang: str) -> None:
        conn.lang = lang
        conn.send(self.room_message(conn))
        if self.truth.started:
            conn.send(self.view_message(conn, self.log[-LOG_SHOWN:]))

    # --- play ----------------------------------------------------------------------------

    def _check(self, seat: int | None, text: str) -> Action | IllegalActionError:
        game, state = self.game, self.state
        if seat is None:
            return error("spectator", "spectators watch: take a seat to play")
        if not self.truth.started:
            return error("not-started", "the match has not started: the host starts it")
        if game.outcome(state) is not None:
            return error("match-over", "the match is over")
        try:
            action = game.parse_action(text)
        except InvalidActionError as exc:
            return error("invalid-action", str(exc))
        turn = game.current_player(state)
        if turn != seat:
            who = self.names("en")[turn] if turn is not None else "nobody"
            return error("not-your-turn", f"it is not your turn: {who} is to act")
        illegal = game.why_illegal(state, action)
        return illegal if illegal is not None else action

    async def act(
        self, seat: int | None, text: str, note: Mapping[str, Any] | None = None
    ) -> IllegalActionError | None:
        """Play ``text`` for ``seat``: checked, stored, then told to everyone as they may see it
        (``note``: a log entry that comes before the move's own, such as a bot's failure).

        Returns the error (and changes nothing) when the action is refused.
        """
        async with self.lock:
            checked = self._check(seat, text)
            if isinstance(checked, IllegalActionError):
                return checked
            assert seat is not None
            game, before = self.game, self.state
            after = game.apply(before, checked)
            text = game.format_action(checked)
            await self.store.append(self.code, self.truth.match, self.version, seat, text)
            self.truth.actions.append((seat, text))
            self.state = after
            self.recorder.step(seat, checked, after)
            entries = step_entries(game, seat, checked, before, after)
            if note is not None:
                entries.insert(0, dict(note))
            self.log += entries
            del self.log[:-LOG_KEEP]  # in place: no copy of the whole log per move
            self._set_deadline()
            over = game.outcome(after) is not None
            if over:  # the record is kept before anyone hears the match is over
                await self._finish()
            self._broadcast_view(entries, self._trick(before, after))
            if over:
                self.broadcast_room()
        self._wake()
        return None

    def _trick(self, before: Any, after: Any) -> dict[str, Any] | None:
        """The trick the last step finished, as the public sees it (for the animation)."""
        for event in self.game.visible_events(after, None):
            if event.type == "trick":
                seats = getattr(self.game.observe(before, None), "seats", None)
                return public_trick(event, self.game.players, seats)
        return None

    async def _finish(self) -> None:
        text = record.dumps(self.record())
        try:
            await self.store.finish(self.code, self.truth.match, text)
        except Exception:  # the table still ends for its players; a restart stores it again
            log.exception("room %s: match %d's record was not stored", self.code, self.truth.match)
        if len(self.truth.records) == self.truth.match:
            self.truth.records.append(text)

    def _person_plays(self, seat: int) -> bool:
        return self.truth.seats[seat].kind == "human" and seat not in self.standin

    def _set_deadline(self) -> None:
        seat = self.game.current_player(self.state)
        timer = self.truth.options.turn_timer
        if seat is not None and timer > 0 and self.truth.started and self._person_plays(seat):
            self.deadline = time.monotonic() + timer
        else:
            self.deadline = None

    def _wake(self) -> None:
        """Let the bots (and the turn timer) take over when it is their move."""
        if self._driver is not None and not self._driver.done():
            return  # the driver is at work: it looks again after each move
        seat = self.game.current_player(self.state)
        if not self.truth.started or seat is None:
            return
        if self._person_plays(seat):  # no task for a person's move (most moves): only its clock
            self._arm_timer(seat)
            return
        self._driver = self._spawn(self._drive())

    async def _drive(self) -> None:
        while self.truth.started:
            seat = self.game.current_player(self.state)
            if seat is None:
                return
            if self._person_plays(seat):
                self._arm_timer(seat)
                return
            version = self.version
            await asyncio.sleep(self.truth.options.bot_delay)
            still = self.version == version and self.game.current_player(self.state) == seat
            if still and not self._person_plays(seat):
                await self._bot_move(seat, version)

    def _arm_timer(self, seat: int) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        if self.deadline is None and self.truth.options.turn_timer > 0:
            self._set_deadline()
        deadline = self.deadline
        if deadline is None:
            return
        version = self.version

        async def expire() -> None:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            if self.version == version and self.game.current_player(self.state) == seat:
                await self._bot_move(seat, version, level=self.truth.options.standby)

        self._timer = self._spawn(expire())

    def _bot(self, level: str) -> bots.Bot:
        if level not in self.levels:
            level = "random"
        if level not in self._bots:
            self._bots[level] = self.players.get(level) or bots.load(level)
        return self._bots[level]

    async def _bot_move(self, seat: int, version: int, level: str | None = None) -> None:
        config = self.truth.seats[seat]
        if level is None:
            level = config.level if config.kind == "bot" else self.truth.options.standby
        bot = self._bot(level)
        game, state = self.game, self.state
        view, legal = game.observe(state, seat), game.legal_actions(state)
        rng = self.rngs[seat]
        if bot.name == "random":  # no thinking to move off the event loop
            action, failed = choose_or_stand_in(bot, view, legal, rng)
            failure = None if failed is None else repr(failed)
        else:
            answer = await self.thinkers.decide(Job(bot, view, tuple(legal), rng))
            action, failure, self.rngs[seat] = answer.action, answer.failure, answer.rng
        if self.version != version:
            return
        note = None
        if failure is not None:  # a bot's bug must not stop the table: a random legal move
            log.error(
                "room %s: bot %s failed at seat %d, move %d; a random legal move stands in: %s",
                self.code,
                bot.name,
                seat,
                version,
                failure,
            )
            note = {"kind": "bot_failed", "seat": seat}
        refused = await self.act(seat, game.format_action(action), note=note)
        if refused is not None and self.version == version:  # cannot happen: a legal move
            log.error("room %s: the move of bot %s was refused: %s", self.code, bot.name, refused)

    async def hint(self, conn: Connection) -> dict[str, Any] | IllegalActionError:
        """The hard bot's move for ``conn``'s seat, with its reason, in its language."""
        seat, game = conn.seat, self.game
        if not self.hint_allowed(seat):
            return error("no-hint", "hints are for tables against bots")
        if seat is None or game.current_player(self.state) != seat or not self.truth.started:
            return error("not-your-turn", "a hint is for your own turn")
        view = game.observe(self.state, seat)
        adviser = bots.LevelBot("hard", bots.Budget(ms=HINT_MS))
        try:
            decision = await self.thinkers.decide(
                Job(adviser, view, (), random.Random(0), hint=True)
            )
        except SpecError:
            return error("no-hint", f"no hints for {game.name} yet")
        if game.why_illegal(self.state, decision.action) is not None:
            return error("no-hint", "no hint this time")
        shown = actions(game, [decision.action], conn.lang, view)
        label = (
            tr(conn.lang, "play {card}", card=next(iter(shown.cards)))
            if shown.cards
            else shown.buttons[0].label
        )
        return {
            "type": "hint",
            "action": game.format_action(decision.action),
            "label": label,
            "reason": reason_words(conn.lang, decision.reason),
        }

    # --- the host's controls -------------------------------------------------------------

    async def control(self, conn: Connection, kind: str, msg: Mapping[str, Any]) -> None:
        """Host controls (start, fill, seat, move, remove) and rematch; raises
        IllegalActionError when refused."""
        t = self.truth
        is_host = conn.token is not None and conn.token == t.host
        if kind == "rematch":
            if conn.seat is None or not self.over:
                raise error("no-rematch", "a rematch is for the players, once the match is over")
            await self._rematch()
            return
        if not is_host:
            raise error("not-host", "only the host can do that")
        async with self.lock:
            if kind == "start":
                if t.started:
                    raise error("started", "the match has already started")
                if any(s.kind == "open" for s in t.seats):
                    raise error("seats-open", "fill the empty seats with bots or wait for players")
                await self.store.start(t.code, t.match, t.seed)
                t.started = True
                self._set_deadline()
                self.broadcast_room()
                self._broadcast_view(self.log)
            else:
                self._seating(kind, msg)
                await self.store.save_seats(t.code, t.seats, t.host)
                self.broadcast_room()
                self._broadcast_view([])
        self._wake()

    def _seating(self, kind: str, msg: Mapping[str, Any]) -> None:
        t = self.truth
        n = len(t.seats)
        seat, to, level = msg.get("seat"), msg.get("to"), msg.get("level", t.options.standby)
        if not isinstance(level, str) or level not in bots.LEVELS:
            raise error("bad-level", f"bot levels are {', '.join(bots.LEVELS)}")
        if kind == "fill":
            for s in t.seats:
                if s.kind == "open":
                    s.kind, s.level, s.name = "bot", level, ""
            return
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise error("bad-seat", f"seats are 0 to {n - 1}")
        config = t.seats[seat]
        match kind:
            case "seat":
                if t.started:
                    raise error("started", "seats are set before the match starts")
                if config.kind == "human":
                    raise error("seat-taken", "a player sits there: remove them first")
                wanted = msg.get("kind")
                if wanted not in ("bot", "open"):
                    raise error("bad-message", "a seat is set to bot or open")
                config.kind, config.level, config.name = str(wanted), level, ""
            case "move":
                if t.started:
                    raise error("started", "players move before the match starts")
                if not isinstance(to, int) or not 0 <= to < n or to == seat:
                    raise error("bad-seat", f"move to another seat, 0 to {n - 1}")
                t.seats[seat], t.seats[to] = t.seats[to], t.seats[seat]
                moves = {seat: to, to: seat}
                for conn in self.conns:
                    if conn.seat in moves:
                        conn.seat = moves[conn.seat]
                self.away = {moves.get(s, s): when for s, when in self.away.items()}
            case "remove":
                if config.kind != "human":
                    raise error("bad-seat", "nobody sits there")
                if config.token == t.host:
                    raise error("bad-seat", "the host cannot remove themselves")
                if t.started:
                    config.kind, config.level, config.token = "bot", t.options.standby, None
                    config.name = ""
                else:
                    t.seats[seat] = SeatConfig("open", level=t.options.standby)
                self.away.pop(seat, None)
                self.standin.discard(seat)
                for conn in self.conns:
                    if conn.seat == seat:
                        conn.seat = None
                        conn.token = None
                        conn.send(
                            {
                                "type": "welcome",
                                "code": t.code,
                                "seat": None,
                                "host": False,
                                "lang": conn.lang,
                            }
                        )
            case _:
                raise error("unknown-type", f"no control {kind!r}")

    async def _rematch(self) -> None:
        async with self.lock:
            t = self.truth
            if not self.over:
                return
            seed = secrets.randbelow(2**31)
            await self.store.start(t.code, t.match + 1, seed)
            t.match, t.seed, t.actions, t.started = t.match + 1, seed, [], True
            self.rebuild()
            self._set_deadline()
            self.broadcast_room()
            self._broadcast_view(self.log)
        self._wake()

    async def seat_person(
        self, name: str, seat: int | None, player: str | None = None
    ) -> tuple[int, str]:
        """Sit a person at an open seat (``seat`` or the first); returns the seat and its token."""
        async with self.lock:
            t = self.truth
            open_seats = [i for i, s in enumerate(t.seats) if s.kind == "open"]
            if not open_seats:
                raise error("table-full", "no seat is free at this table")
            if seat is None:
                seat = open_seats[0]
            if seat not in open_seats:
                raise error("seat-taken", f"seat {seat} is not free")
            token = secrets.token_urlsafe(18)
            t.seats[seat] = SeatConfig(
                "human", name, t.options.standby, token_hash(token), player=player
            )
            await self.store.save_seats(t.code, t.seats, t.host)
            self.broadcast_room()
            return seat, token

    # --- lifetime ------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("room %s: task failed", self.code, exc_info=task.exception())

    def resume(self) -> None:
        """After a restart: everyone is away until they reconnect; bots carry on."""
        for i, s in enumerate(self.truth.seats):
            if s.kind == "human":
                self._mark_away(i)
        if self.over and len(self.truth.records) == self.truth.match:
            self._spawn(self._finish_again())  # the crash came between the last move and its record
        self._set_deadline()
        self._wake()

    async def _finish_again(self) -> None:
        async with self.lock:
            if len(self.truth.records) == self.truth.match:
                await self._finish()
                self.broadcast_room()

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def summary(self) -> dict[str, Any]:
        t = self.truth
        return {
            "code": t.code,
            "game": self.game.name,
            "spec": t.spec,
            "players": self.game.players,
            "open": sum(s.kind == "open" for s in t.seats),
            "humans": [s.name for s in t.seats if s.kind == "human"],
            "status": "over" if self.over else "playing" if t.started else "waiting",
            "public": t.options.public,
            "match": t.match,
            "seed_hash": self.seed_hash,
        }


def expired(truth: Truth, now: float) -> bool:
    """A table nobody started within a day of its making is abandoned: its creator left it
    waiting for friends or bots that never began. Started tables end by themselves (bots
    stand in for the people who left) and are kept a day after their last match."""
    return not truth.started and now - truth.created >= EXPIRE_AFTER


class Rooms:
    """The rooms of one server, by code; ``clock`` tells the time (seconds since the epoch)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        players: Mapping[str, bots.Bot] | None = None,
        thinkers: Thinkers | None = None,
    ) -> None:
        """``players``: the bot that plays each level at this server's tables, where it is not
        ``tapete.bots.load(level)`` (a cheaper hard search on a small machine, say);
        ``thinkers``: where bots decide (threads of this process unless given)."""
        self.store = store
        self.clock = clock
        self.players = dict(players or {})
        self.thinkers = thinkers or Thinkers(0)
        self._rooms: dict[str, Room] = {}

    async def restore(self) -> None:
        """Every table the store holds, replayed to where it was; expired ones are removed."""
        now = self.clock()
        for truth in await self.store.rooms():
            if expired(truth, now):
                await self.store.remove(truth.code)
                continue
            room = Room(truth, self.store, self.players, self.thinkers)
            self._rooms[truth.code] = room
            room.resume()

    async def expire(self) -> list[str]:
        """Remove the expired tables nobody is at (``expired``); returns their codes."""
        now = self.clock()
        gone = [
            code
            for code, room in self._rooms.items()
            if expired(room.truth, now) and not room.conns
        ]
        for code in gone:
            self._rooms.pop(code).close()
            await self.store.remove(code)
        if gone:
            log.info("removed %d tables nobody started within a day", len(gone))
        return gone

    def get(self, code: str) -> Room | None:
        return self._rooms.get(code.strip().upper())

    def listing(self) -> list[Room]:
        """Public tables not over: those waiting for players first (most free seats first),
        then those being played; newest first among equals."""
        rooms = [r for r in self._rooms.values() if r.truth.options.public and not r.over]
        rooms.sort(key=lambda r: -r.truth.created)  # a stable sort keeps this among equals

        def place(room: Room) -> tuple[bool, int]:
            return room.truth.started, -sum(s.kind == "open" for s in room.truth.seats)

        return sorted(rooms, key=place)

    def page(self, page: int, per_page: int) -> dict[str, Any]:
        """Page ``page`` (from 1) of ``listing``, ``per_page`` tables a page, with the total.

        Only the tables on the page are summarised: every open lobby asks for it every few
        seconds, however many tables there are.
        """
        listed = self.listing()
        start = (page - 1) * per_page
        return {
            "tables": [r.summary() for r in listed[start : start + per_page]],
            "total": len(listed),
            "page": page,
            "per_page": per_page,
            "pages": max(1, -(-len(listed) // per_page)),
        }

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._rooms:
                return code

    async def create(
        self,
        spec: str,
        seats: Sequence[SeatConfig],
        *,
        name: str,
        options: Options,
        seed: int | None = None,
        player: str | None = None,
    ) -> tuple[Room, str, int | None]:
        """A new table; the creator is its host and sits in the first ``human`` seat (other
        human seats are left open for friends; ``player`` is the creator's player id, if any).
        Returns the room, the creator's token and seat.

        Raises SpecError for a bad spec or seat count.
        """
        game = load(spec)
        if len(seats) != game.players:
            raise SpecError(f"{game.spec} has {game.players} seats, not {len(seats)}")
        token = secrets.token_urlsafe(18)
        configs: list[SeatConfig] = []
        mine: int | None = None
        for i, s in enumerate(seats):
            if s.kind == "human" and mine is None:
                mine = i
                configs.append(
                    SeatConfig("human", name, options.standby, token_hash(token), player=player)
                )
            elif s.kind == "bot":
                configs.append(SeatConfig("bot", "", s.level))
            else:
                configs.append(SeatConfig("open", "", options.standby))
        truth = Truth(
            code=self._new_code(),
            spec=game.spec,
            seed=secrets.randbelow(2**31) if seed is None else seed,
            seats=configs,
            options=options,
            host=token_hash(token),
            created=self.clock(),
        )
        await self.store.create(truth)
        room = Room(truth, self.store, self.players, self.thinkers)
        self._rooms[truth.code] = room
        return room, token, mine

    def close(self) -> None:
        for room in self._rooms.values():
            room.close()

    def __len__(self) -> int:
        return len(self._rooms)
