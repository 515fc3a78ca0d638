"""A room: one table's truth, its live state and its moves.

A ``Room`` owns one table. Its truth is a ``Truth`` — spec, seed, seat config and the accepted
actions — and its state is rebuilt from it by replay, so a store that keeps truths makes every
table survive a restart. Each action is checked by the engine, handed to the store, and only then
told to each connection as that connection's seat may see it. The room's other concerns each
have a module: who sits where (``seating``), what moves it when no person does (``driver``:
bots, the turn timer, hints) and what it tells its connections (``views``).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import logging
import secrets
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy.exc import IntegrityError

from tapete import bots, record
from tapete.errors import IllegalActionError, InvalidActionError
from tapete.game import Action, Game
from tapete.narrate import event_entries, line, public_trick, record_story, seat_name, step_entries
from tapete.present import deal_unit, trick_unit
from tapete.record import Recorder, SeatInfo
from tapete.web.driver import RETRY_FIRST, RETRY_MAX, Driver
from tapete.web.seating import FAILED, QUIET, Seating, error
from tapete.web.store import UNSAVED, SeatConflictError, Store, Truth
from tapete.web.thinking import Thinkers
from tapete.web.views import Broadcast, Connection

if TYPE_CHECKING:
    from tapete.web.cluster import Cluster

__all__ = [
    "LOG_KEEP",
    "WATCHERS",
    "Room",
    "levels",
    "new_salt",
    "new_seed",
    "rematch_entry",
    "seed_chosen",
    "seed_hash",
    "summary",
    "table_game",
]

log = logging.getLogger("tapete.web")

LOG_KEEP = 200  # log entries kept for people who (re)connect
TELLINGS = 64  # records and narrations a room keeps told (Room._told)
T = TypeVar("T")
MAX_SEED = 2**53 - 1
WATCHERS = -1  # where the other servers count a table's connections that hold no seat
"""The largest match seed. A browser's numbers hold every int up to it exactly (its fair-dealing
check hashes the seed's digits). A search of them all for a match's seed takes 2^53 deals
against the cards a seat holds, out of reach; against the published hash it would take 2^53
SHA-256 hashes (hours for a rented farm of graphics cards) were the seed hashed alone, which is
why the hash is salted (``new_salt``, docs/protocol.md)."""
# A person's take-back, kept as a move of its own (the store's log only grows): its note says
# how many of the moves in play stay (``Room.undo``).
UNDO = "undo"


def new_seed() -> int:
    """A match seed nobody can guess, from ``secrets``."""
    return secrets.randbelow(MAX_SEED + 1)


def new_salt() -> str:
    """A match's salt: 128 bits from ``secrets``, as 32 lowercase hex digits. Hashed with the
    seed into the published hash and told only with the seed, it leaves a search of every seed
    2^128 salts to try with each, out of anyone's reach."""
    return secrets.token_hex(16)


def seed_hash(seed: int, salt: str | None) -> str:
    """The SHA-256 of a match's seed and salt (``tapete.record.seed_commitment``), published
    from the start (the seed and salt are not)."""
    return record.seed_commitment(seed, salt)


def seed_chosen(truth: Truth, match: int) -> bool:
    """Whether the host chose match ``match``'s seed, and so could know every hand (only the
    first match's can be chosen: a rematch's is drawn)."""
    return truth.options.chosen_seed and match == 0


def table_game(truth: Truth) -> Game[Any, Any]:
    """The game table ``truth`` plays: its spec under the rules it was made with (its
    ``params``), so a server of a later version whose defaults differ plays it on as it began.
    Raises SpecError for a spec or a parameter this version does not have."""
    return record.played_game(truth.spec, truth.params)


def summary(truth: Truth, over: bool, game: Game[Any, Any] | None = None) -> dict[str, Any]:
    """Table ``truth`` as the lobby lists it (``over``: its match is over; ``game``: its game
    (``table_game``), when at hand). Its moves are not read: a listing read from the database
    has none."""
    game = game or table_game(truth)
    return {
        "code": truth.code,
        "game": game.name,
        "spec": truth.spec,
        "players": game.players,
        "open": sum(s.kind == "open" for s in truth.seats),
        # Each person by seat and name as given ("" for none): the lobby words an unnamed one
        # in its own language ("jugador 2", tapete.web.api), rather than list a blank.
        "humans": [
            {"seat": i, "name": s.name} for i, s in enumerate(truth.seats) if s.kind == "human"
        ],
        "status": "over" if over else "playing" if truth.started else "waiting",
        "public": truth.options.public,
        "match": truth.match,
        "seed_hash": seed_hash(truth.seed, truth.seed_salt),
        "chosen_seed": seed_chosen(truth, truth.match),
    }


def rematch_entry(seat: int, match: int) -> dict[str, Any]:
    """The log entry first in match ``match`` (0-based) when seat ``seat``'s rematch began it:
    the others, whose summary closes under them, read who did (``n`` counts from 1)."""
    return {"kind": "rematch", "seat": seat, "n": match + 1}


def note_entries(note: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The log entries a move's note says before the move: its own line (none when quiet: a
    stand-in's later moves), then, when its bot failed (``FAILED``), that a random legal move
    was played for the seat."""
    if note is None:
        return []
    entries = [] if note.get(QUIET) else [{k: v for k, v in note.items() if k != FAILED}]
    if note.get(FAILED):
        entries.append({"kind": "bot_failed", "seat": note["seat"]})
    return entries


# The notes kept with a move a stand-in made: a bot for a person away (``Seating.standing_in``)
# or out of time, or a random legal move for a bot that failed.
STAND_IN_NOTES = frozenset({"stand_in", "timed_out", "bot_failed"})


def by_stand_in(note: Mapping[str, Any] | None) -> bool:
    """Whether the move kept with ``note`` was a stand-in's, not its seat's own player's: the
    record marks it so (``DealRecord.stand_ins``), and the coach does not blame the player."""
    return note is not None and (note.get("kind") in STAND_IN_NOTES or bool(note.get(FAILED)))


# A return not kept (``Room.keep_return``): the seats changed on another server meanwhile, or
# the database did not take the write.
NOT_KEPT: tuple[type[Exception], ...] = (SeatConflictError, *UNSAVED)


def aside_entry(aside: Mapping[str, Any]) -> dict[str, Any]:
    """The log entry of a line said between moves (``Truth.asides``), without its place."""
    return {k: v for k, v in aside.items() if k != "at"}


def aside_entries(asides: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The log entries of ``asides``: a quiet one (``QUIET``: a person back at a seat a
    stand-in played, ``Seating.standing_in``) is kept, never said."""
    return [aside_entry(a) for a in asides if not a.get(QUIET)]


def removed_aside(seat: int, name: str, at: int) -> dict[str, Any]:
    """The line said when the host removes ``name`` from ``seat`` of a started match, ``at``
    moves into it: the others would otherwise see a bot play on at the seat without a word."""
    return {"kind": "removed", "seat": seat, "name": name, "at": at}


def levels(game: Game[Any, Any]) -> tuple[str, ...]:
    """The bot levels ``game`` has: every level where its strategies exist, else random only."""
    return bots.LEVELS if game.rules.NAME in bots.STRATEGIES else ("random",)


class Room:
    """One table: its truth, the state replayed from it, and its connections; its seating,
    driver and broadcast each in their own part."""

    def __init__(
        self,
        truth: Truth,
        store: Store,
        players: Mapping[str, bots.Bot] | None = None,
        thinkers: Thinkers | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.truth = truth
        self.store = store
        self.cluster = cluster  # the other servers sharing this room, if any
        self.game = table_game(truth)
        self.levels = levels(self.game)
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._news: list[Callable[[], Coroutine[Any, Any, None]]] = []  # see in_turn
        self._hearing: asyncio.Task[None] | None = None
        # A started match nobody is at waits for its people this long (seconds; 0: for
        # ever), then its bots and stand-ins finish it (``alone``).
        self.abandon_after = 0.0
        self.abandoned = False
        self._alone: asyncio.Task[None] | None = None
        # A finished match's record the store has not kept yet (a full disk, the database
        # away): its match, text and whether it is rated, tried again until kept, and kept
        # before any rematch.
        self._unkept: tuple[int, str, bool] | None = None
        self.seating = Seating(self)
        self.driver = Driver(self, players or {}, thinkers or Thinkers(0))
        self.broadcast = Broadcast(self)
        self.rebuild()

    # --- truth and state -----------------------------------------------------------------

    def rebuild(self) -> None:
        """The state and log from the truth, by replaying every accepted action: the log
        says what it said as the match was played, its notes (``Truth.notes``: who started
        the rematch, a move the timer, a stand-in or a failed bot made) included."""
        game, t = self.game, self.truth
        state, recorder = self._replay([])
        entries = event_entries(game.visible_events(state, None), deal_unit(game), trick_unit(game))
        if t.started_by is not None:
            entries.insert(0, rematch_entry(t.started_by, t.match))
        asides = iter(t.asides)
        aside = next(asides, None)
        played: list[int] = []
        for i, (seat, text) in enumerate(t.actions):
            while aside is not None and aside.get("at", 0) <= i:
                entries += aside_entries([aside])
                aside = next(asides, None)
            entries.extend(note_entries(t.notes.get(i)))
            if text == UNDO:  # the log keeps the moves taken back, then says so
                del played[int(t.notes[i]["keep"]) :]
                state, recorder = self._replay(played)
                continue
            action = game.parse_action(text)
            after = game.apply(state, action)
            recorder.step(seat, action, after, by_stand_in(t.notes.get(i)))
            entries.extend(step_entries(game, seat, action, state, after))
            state = after
            played.append(i)
        if aside is not None:
            entries += aside_entries([aside, *asides])
        self.state: Any = state
        # The record grows with the match, so ending one does not replay it while everyone waits.
        self.recorder = recorder
        # The numbers of the moves in play: every move of the match but those taken back.
        self.played = played
        self.log: list[dict[str, Any]] = entries[-LOG_KEEP:]
        self._tellings: dict[tuple[Any, ...], Any] = {}  # records and narrations told (_told)
        self.driver.deal(t.seed)

    def _replay(self, played: Iterable[int]) -> tuple[Any, Recorder]:
        """The state and the record after the moves numbered ``played``, from the deal."""
        game, t = self.game, self.truth
        state = game.new_state(t.seed)
        recorder = Recorder(game, state, t.seed, ())
        for i in played:
            seat, text = t.actions[i]
            action = game.parse_action(text)
            state = game.apply(state, action)
            recorder.step(seat, action, state, by_stand_in(t.notes.get(i)))
        return state, recorder

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
        return self.seating.seat_of(token)

    def names(self, lang: str) -> list[str]:
        return self.broadcast.names(lang)

    def record(self) -> record.Record:
        """The match so far as a ``tapete-record/1`` (it holds every hand: for finished matches)."""
        infos = tuple(
            SeatInfo(seat_name("en", i, s.kind, s.name, s.level), "human", None)
            if s.kind == "human"
            else SeatInfo(seat_name("en", i, s.kind, s.name, s.level), "bot", s.level)
            for i, s in enumerate(self.truth.seats)
        )
        return dataclasses.replace(
            self.recorder.record(),
            seats=infos,
            seed_hash=self.seed_hash,
            seed_salt=self.truth.seed_salt,  # redact takes it out of a running match's record
        )

    def seed_chosen(self, match: int) -> bool:
        return seed_chosen(self.truth, match)

    @property
    def seed_hash(self) -> str:
        """The SHA-256 of this match's seed and salt, published from the start (the seed and
        salt are not)."""
        return seed_hash(self.truth.seed, self.truth.seed_salt)

    def record_for(self, seat: int | None, match: int | None = None) -> str | None:
        """Match ``match``'s record (default: the current one) as ``seat`` may have it: complete
        once the match is over, redacted to the seat's knowledge while it runs."""
        t = self.truth
        match = t.match if match is None else match
        if 0 <= match < len(t.records):
            return t.records[match]  # None: a match without its record
        if match != t.match or not t.started:
            return None
        return self._told(
            ("record", match, self.version, seat),
            lambda: record.dumps(record.redact(self.record(), seat)),
        )

    def narration_for(
        self, seat: int | None, match: int | None, lang: str
    ) -> list[dict[str, Any]] | None:
        """Match ``match`` (default: the current one) in words, deal by deal, for the replay:
        with every card once it is over, as ``seat`` may know it while it runs."""
        t = self.truth
        match = t.match if match is None else match
        names = tuple(self.names(lang))  # a seat taken or renamed since is told by its new name
        if t.record(match) is not None:
            return self._told(("words", match, lang, names), lambda: self._words(match, lang))
        if match == t.match and t.started:
            key = ("words", match, self.version, seat, lang, names)
            return self._told(key, lambda: self._words(match, lang, seat, over=False))
        return None

    def verification(self, match: int) -> dict[str, Any] | None:
        """Finished match ``match`` checked (None: no such finished match): its seed (with its
        salt) hashes to the published SHA-256 and every deal follows from it. Worked out once
        and kept, as a record's telling is: each check deals the whole match again, and the
        page of everyone at the table asks for it when the match ends."""
        if self.truth.record(match) is None:
            return None
        return self._told(("verify", match), lambda: self._verify(match))

    def _verify(self, match: int) -> dict[str, Any]:
        rec = record.loads(self._finished(match))
        problems = record.verify_deals(rec, rec.seed_hash)
        return {
            "ok": not problems and rec.seed_hash is not None,
            "seed": rec.seed,
            "seed_salt": rec.seed_salt,
            "seed_hash": rec.seed_hash,
            "chosen_seed": self.seed_chosen(match),  # the deals follow from it all the same
            "problems": problems,
        }

    def _finished(self, match: int) -> str:
        text = self.truth.record(match)
        assert text is not None, f"match {match} has no record"  # asked after record() said so
        return text

    def _words(
        self, match: int, lang: str, seat: int | None = None, *, over: bool = True
    ) -> list[dict[str, Any]]:
        if over:
            story = record_story(record.loads(self._finished(match)))
        else:
            story = record_story(self.record(), seat, open_hands=False)
        names, teams = self.names(lang), self.game.teams is not None
        return [
            {
                "first": [line(lang, e, names, teams) for e in deal.first],
                "steps": [[line(lang, e, names, teams) for e in step] for step in deal.steps],
                "scores": deal.scores,
            }
            for deal in story
        ]

    def _told(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """``make()``, kept for ``key``: a record or a narration replays the whole match, and a
        page asked again and again (or by many) must not replay it each time. The keys name the
        move number, so what a running match told is never told stale."""
        told = self._tellings
        if key not in told:
            if len(told) >= TELLINGS:
                told.clear()
            told[key] = make()
        return cast("T", told[key])

    def hint_allowed(self, seat: int | None) -> bool:
        """Hints are for people playing against bots only."""
        return seat is not None and all(
            s.kind == "bot" or i == seat for i, s in enumerate(self.truth.seats)
        )

    # --- connections ---------------------------------------------------------------------

    def join(self, conn: Connection) -> None:
        """A connection arrives: it gets the room and its view; a returning person their seat."""
        self.conns.add(conn)
        self.alone()  # someone is here: the match waits for its people again
        self._welcome(conn)
        if conn.seat is not None:
            self.seating.back(conn.seat)
        self.here(conn.seat)
        self.broadcast.room_to_all()
        self.broadcast.catch_up(conn)
        self.driver.wake()
        if conn.seat is not None and not self.truth.started:
            self.spawn(self.hand_on_host())

    async def keep_return(self, seat: int | None) -> None:
        """The person of ``seat``, here again (``join``), after a stand-in played for them:
        kept in the store, as a quiet aside (``Seating.returned``), so that a stand-in after
        they leave again says so in the log, whoever drives the table then, or after a
        restart. Kept only then, so a page reloaded now and then writes nothing."""
        if seat is None or self.seating.return_aside(seat) is None:
            return  # nothing to keep: the room's lock is not waited for
        async with self.lock:
            t = self.truth
            aside = self.seating.return_aside(seat)
            if aside is None:
                return
            try:
                await self.store.save_seats(t.code, t.seats, t.host, was=t.seats, aside=aside)
            except NOT_KEPT:
                # Not kept: this server, which knows it (``Seating.returned``), still says it.
                log.warning("room %s: seat %d back, not kept", self.code, seat, exc_info=True)
                return
            t.asides.append(aside)

    def greet(self, conn: Connection) -> None:
        """A connection already here says hello again (in another language, say): it alone is
        told the room and its view anew."""
        self._welcome(conn)
        conn.send(self.broadcast.room_message(conn))
        self.broadcast.catch_up(conn)

    def _welcome(self, conn: Connection) -> None:
        host = conn.token is not None and conn.token == self.truth.host
        conn.send(
            {
                "type": "welcome",
                "code": self.code,
                "seat": conn.seat,
                "host": host,
                "lang": conn.lang,
                # the token names no seat here (with other servers: nor in the database, read
                # again): the page may forget it
                "refused": conn.token is not None and conn.seat is None and not host,
            }
        )

    def leave(self, conn: Connection) -> None:
        """A connection is gone; a person's seat waits ``grace`` seconds for them, then a bot
        stands in."""
        self.conns.discard(conn)
        seat = conn.seat
        self.here(seat)
        if seat is not None and not self.seating.connected(seat):
            self.seating.gone(seat)
        self.broadcast.room_to_all()
        self.alone()

    def watched(self) -> bool:
        """Whether anyone is at the table: a connection here or on another server, seated or
        watching. A table nobody is at waits: its bots and stand-ins play on when someone
        comes (a table left to bots would otherwise spend a core to its end for no one)."""
        if self.conns:
            return True
        return self.cluster is not None and self.cluster.anyone_elsewhere(self.code)

    def plays_on(self) -> bool:
        """Whether the bots and stand-ins play: someone is at the table (``watched``), or
        nobody has been for ``abandon_after`` seconds (``alone``)."""
        return self.abandoned or self.watched()

    def alone(self) -> None:
        """Someone came or left, here or on another server. Nobody at the table now, a started
        match waits ``abandon_after`` seconds for someone to come, then its bots and stand-ins
        (one for each person, after the table's ``grace``) play it to its end, as if someone
        watched. A match left by all its people would otherwise stay in play for ever, in the
        lobby and in the store; it ends as any match does, its record and results kept.
        Someone at the table, it waits for its people again."""
        if self.watched():
            self.abandoned = False
            if self._alone is not None:
                self._alone.cancel()
            return
        if self.abandon_after <= 0:
            return
        if self._alone is None or self._alone.done():
            self._alone = self.spawn(self._left_alone())

    async def _left_alone(self) -> None:
        await asyncio.sleep(self.abandon_after)
        if self.watched() or not self.truth.started or self.over:
            return
        log.info(
            "room %s: nobody at the table for %g s: its bots and stand-ins finish match %d",
            self.code,
            self.abandon_after,
            self.truth.match,
        )
        self.abandoned = True
        self.driver.wake()

    def here(self, seat: int | None) -> None:
        """Tell the other servers (if any) how many connections ``seat`` (None: watchers) has
        here now."""
        if self.cluster is not None:
            count = sum(c.seat == seat for c in self.conns)
            key = WATCHERS if seat is None else seat
            self.spawn(self.cluster.here(self.code, key, count))

    def presence_changed(self, seat: int) -> None:
        """Another server's connections for ``seat`` came or went."""
        if self.seating.connected(seat):
            self.seating.back(seat)
        else:
            self.seating.gone(seat)
        self.broadcast.room_to_all()
        self.driver.wake()
        self.alone()

    def relang(self, conn: Connection, lang: str) -> None:
        conn.lang = lang
        conn.send(self.broadcast.room_message(conn))
        self.broadcast.catch_up(conn)

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
        self,
        seat: int | None,
        text: str,
        note: Mapping[str, Any] | None = None,
        *,
        version: int | None = None,
    ) -> IllegalActionError | None:
        """Play ``text`` for ``seat``: checked, stored, then told to everyone as they may see it
        (``note``: a log entry that comes before the move's own, such as a bot's failure;
        ``version``: the version the move was chosen on, refused once the table moved past it).

        Returns the error (and changes nothing) when the action is refused. Shared with other
        servers, a refusal or a move number already taken means this copy of the room may be
        behind: it is read again from the database and the action checked once more.
        """
        async with self.lock:
            committed = await self._commit(seat, text, version, note)
            if isinstance(committed, IllegalActionError):
                return committed
            seat, action = committed
            index = self.version
            await self._advance(seat, action, note, keep=True)
            await self._tell(index, seat, self.game.format_action(action), note)
        self.driver.wake()
        return None

    async def _tell(self, index: int, seat: int, text: str, note: Mapping[str, Any] | None) -> None:
        """Tell the other servers (if any) of move number ``index``, committed here."""
        if self.cluster is not None:
            news = {
                "kind": "act",
                "room": self.code,
                "match": self.truth.match,
                "index": index,
                "seat": seat,
                "action": text,
                "note": None if note is None else dict(note),
            }
            await self.cluster.tell(news)

    # --- taking a move back ----------------------------------------------------------------

    def _last_move(self, seat: int) -> int | None:
        """Where ``seat``'s last move in play is among the moves in play (None: it has none)."""
        t = self.truth
        mine = (
            k for k in range(len(self.played) - 1, -1, -1) if t.actions[self.played[k]][0] == seat
        )
        return next(mine, None)

    def undo_allowed(self, seat: int | None) -> bool:
        """Whether ``seat`` may take its last move back now (``undo``)."""
        return self._undo_refused(seat) is None

    def _undo_refused(self, seat: int | None) -> IllegalActionError | None:
        t = self.truth
        if seat is None:
            return error("spectator", "spectators watch: take a seat to play")
        if t.seats[seat].kind != "human" or not self.hint_allowed(seat):
            return error("no-undo", "undo is for one person playing against bots")
        if not t.started:
            return error("not-started", "the match has not started: the host starts it")
        if self.over:
            return error("match-over", "the match is over")
        if self._last_move(seat) is None:
            return error("nothing-to-undo", "nothing to undo: no move of this seat is in play")
        return None

    async def undo(self, seat: int | None) -> IllegalActionError | None:
        """Take back ``seat``'s last move and every move since (the bots' answers too, across
        the end of a deal), as the terminal table's undo does: for one person against bots,
        while the match goes on. The take-back is kept as a move of its own, with a note of how
        many moves stay in play, so the store's log only grows: a bot's move chosen before it
        is refused as one chosen on a view gone by, two servers cannot both commit one at the
        same number, and the log still says what was played and taken back. The record of the
        match holds the moves in play only; a match with a take-back is not rated (``_finish``).
        Returns the refusal (nothing changed) or None."""
        async with self.lock:
            refused = self._undo_refused(seat)
            if refused is not None:
                return refused
            assert seat is not None
            keep = self._last_move(seat)
            note = {"kind": "undo", "seat": seat, "keep": keep}
            index = self.version
            try:
                await self.store.append(self.code, self.truth.match, index, seat, UNDO, note)
            except ValueError:  # another server's move took the number: shown, then asked again
                self.spawn(self.reload())
                return error("moved-on", "the table moved on before your undo: look again")
            self._take_back(seat, note)
            await self._tell(index, seat, UNDO, note)
        self.driver.wake()
        return None

    def _take_back(self, seat: int, note: Mapping[str, Any]) -> None:
        """The take-back ``note`` (committed) applied here and told to this server's
        connections: the moves in play cut to the note's ``keep``, the state replayed."""
        t = self.truth
        t.notes[len(t.actions)] = dict(note)
        t.actions.append((seat, UNDO))
        del self.played[int(note["keep"]) :]
        self.state, self.recorder = self._replay(self.played)
        entries = note_entries(note)
        self.log += entries
        del self.log[:-LOG_KEEP]
        self.driver.set_deadline()
        self.broadcast.view_to_all(entries)

    async def _step(
        self, seat: int, text: str, note: Mapping[str, Any] | None, *, keep: bool
    ) -> None:
        """The next move as kept (``text``): a take-back or a move of the game."""
        if text == UNDO and note is not None:
            self._take_back(seat, note)
        else:
            await self._advance(seat, self.game.parse_action(text), note, keep=keep)

    async def _commit(
        self,
        seat: int | None,
        text: str,
        version: int | None = None,
        note: Mapping[str, Any] | None = None,
    ) -> tuple[int, Action] | IllegalActionError:
        """``text`` checked and committed as the room's next move for ``seat``, with ``note``
        (the log entry said before it) in the same write: a restart says it too.

        Shared with other servers, this copy of the room may be behind: when the move number is
        taken (another server committed it first) or it is not the seat's turn here, the
        action is refused — it was chosen for a state that is gone — and the room is read again
        from the database and shown anew, after the refusal. A move number taken is read again
        so alone too (a write whose answer was lost). Raises one of ``UNSAVED`` when the store
        could not keep the move.
        """
        moved_on = error("moved-on", "the table moved on before your move: look again")
        if version is not None and version != self.version and seat is not None:
            self._catch_up()
            return moved_on
        checked = self._check(seat, text)
        if isinstance(checked, IllegalActionError):
            if checked.rule == "not-your-turn":
                self._catch_up()
            return checked
        assert seat is not None
        action = self.game.format_action(checked)
        try:
            await self.store.append(self.code, self.truth.match, self.version, seat, action, note)
        except ValueError:
            # The database holds a move of this number that this copy has not: another
            # server's, or one whose answer was lost on its way back. It is shown, alone or not.
            self.spawn(self.reload())
            return moved_on
        return seat, checked

    async def look_again(self, conn: Connection) -> None:
        """``conn`` shown the table again — its ``room``, and its ``view`` once started — as
        the database has it, after a message of ``conn``'s that the store did not keep
        (``UNSAVED``: a move, a start, a seat): the page may show what it asked for as done.
        A write may have been kept though its answer was lost, and then it shows here (a move
        is never played twice: a move number is kept once). Everyone here is told what
        changed; with the database still away, ``conn`` is shown this copy again."""
        async with self.lock:
            t = self.truth
            before = (copy.deepcopy(t.seats), t.host, t.started, t.match, self.version)
            try:
                await self._resync()
            except UNSAVED as exc:
                log.warning("room %s: not read again after a refused write (%s)", self.code, exc)
            if (t.seats, t.host, t.started, t.match, self.version) != before:
                self.broadcast.room_to_all()
                self.broadcast.view_to_all([])
            else:
                conn.send(self.broadcast.room_message(conn))
                if t.started:
                    conn.send(self.broadcast.view_message(conn, []))
        self.driver.wake()

    def _catch_up(self) -> None:
        """Read the room again from the database once the current message is answered (shared
        with other servers only)."""
        if self.cluster is not None:
            self.spawn(self.reload())

    def in_turn(self, news: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Apply another server's news to this room (``news()``) after the news heard before
        it, in a task of the room's: the server hears every room's news one message after
        another, and a room waiting for its lock (a move of its own being committed) or for
        the database must not hold up the news of every other room."""
        self._news.append(news)
        if self._hearing is None or self._hearing.done():
            self._hearing = self.spawn(self._hear())

    async def heard_all(self) -> None:
        """Return once the news queued for this room so far is applied (or failed: logged)."""
        while self._hearing is not None and not self._hearing.done():
            await asyncio.wait([self._hearing])

    async def _hear(self) -> None:
        while self._news:
            try:
                await self._news.pop(0)()
            except Exception:  # the database has the truth: the next news reads it again
                log.exception("room %s: news from another server was not applied", self.code)

    async def heard(self, news: Mapping[str, Any]) -> None:
        """Another server's move (``Cluster`` news): applied when it is the next one here,
        else the room is read again from the database (this copy missed some)."""
        async with self.lock:
            t = self.truth
            place = (int(news["match"]), int(news["index"]))
            if place == (t.match, self.version):
                await self._step(
                    int(news["seat"]), str(news["action"]), news.get("note"), keep=False
                )
            elif place > (t.match, self.version):
                before = t.match
                await self._resync()
                if t.match != before:
                    # A new match learnt of from its move (its rematch news not here yet, or
                    # lost): its people are shown it now, with its log so far, not at the
                    # next move.
                    self.broadcast.room_to_all()
                    self.broadcast.view_to_all(self.log)
        self.driver.wake()

    async def _advance(
        self, seat: int, action: Action, note: Mapping[str, Any] | None, *, keep: bool
    ) -> None:
        """The state after ``action`` (committed), told to this server's connections; ``keep``:
        this server committed it, so it also keeps the finished match's record."""
        game, before = self.game, self.state
        after = game.apply(before, action)
        if note is not None:  # kept with the move, so a rebuild here says it again
            self.truth.notes[len(self.truth.actions)] = dict(note)
        self.played.append(len(self.truth.actions))
        self.truth.actions.append((seat, game.format_action(action)))
        self.state = after
        self.recorder.step(seat, action, after, by_stand_in(note))
        entries = step_entries(game, seat, action, before, after)
        entries[:0] = note_entries(note)
        self.log += entries
        del self.log[:-LOG_KEEP]  # in place: no copy of the whole log per move
        self.driver.set_deadline()
        over = game.outcome(after) is not None
        if over:  # the record is kept before anyone hears the match is over
            if keep:
                await self._finish()
            elif len(self.truth.records) == self.truth.match:
                self.truth.records.append(record.dumps(self.record()))
        self.broadcast.view_to_all(entries, self._trick(before, after))
        if over:
            self.broadcast.room_to_all()

    async def reload(self, note: Mapping[str, Any] | None = None) -> None:
        """Read the room again from the database (another server changed it) and tell this
        server's connections; ``note``: the log entry the other server said with the change
        (who started a rematch), said here too, once, if the room is now at that match."""
        async with self.lock:
            before, started = self.truth.match, self.truth.started
            await self._resync()
            said = note is not None and self._rematch_note(note)
            if self.truth.match != before or self.truth.started != started:
                # a new match, or the match just started: its log from the start, as said
                # there (the deal's lines come before any move)
                entries: list[dict[str, Any]] = self.log
            else:
                entries = [self.log[0]] if said else []
            self.broadcast.room_to_all()
            self.broadcast.view_to_all(entries)
        self.driver.wake()

    def _rematch_note(self, note: Mapping[str, Any]) -> bool:
        """Put ``note`` (another server's "who started the rematch") first in this match's log,
        unless it names another match or the log says it already; whether it was put."""
        entry = dict(note)
        if entry.get("kind") != "rematch" or entry.get("n") != self.truth.match + 1:
            return False
        if any(e.get("kind") == "rematch" for e in self.log):
            return False
        self.log.insert(0, entry)
        del self.log[LOG_KEEP:]
        return True

    async def resync(self) -> Truth | None:
        """``_resync`` for a caller that holds the room's lock (seating)."""
        return await self._resync()

    async def _resync(self) -> Truth | None:
        """This copy as the database has it now (returned: None when the room is gone). Moves
        this copy missed in the same match are played here one by one, so everyone here is
        told each of them; anything else (a rematch) replays the match."""
        truth = await self.store.room(self.code)
        if truth is None:
            return None
        t = self.truth
        have, heard = len(t.actions), len(t.asides)
        same_match = (truth.match, truth.seed) == (t.match, t.seed)
        missed = truth.actions[have:] if truth.actions[:have] == t.actions else None
        for f in dataclasses.fields(t):
            if f.name != "actions":
                setattr(t, f.name, copy.deepcopy(getattr(truth, f.name)))
        if self._unkept is not None and len(t.records) == self._unkept[0]:
            t.records.append(self._unkept[1])  # ended here, not yet in the database: still over
        if same_match and missed is not None:
            # what was said elsewhere meanwhile (the host removed someone), said here too, in
            # its place among the moves
            asides = truth.asides[heard:]
            for i, (seat, text) in enumerate(missed, start=have):
                while asides and asides[0].get("at", 0) <= i:
                    self._say(aside_entries([asides.pop(0)]))
                await self._step(seat, text, truth.notes.get(i), keep=False)
            if asides:
                self._say(aside_entries(asides))
        else:
            t.actions = list(truth.actions)
            self.rebuild()
        # Seats may have been moved or freed by the host on another server: a person removed
        # is told so here as there (a new welcome), or their page would lose the seat silently.
        self.seating.settle()
        self.driver.set_deadline()
        return truth

    async def take_over(self) -> None:
        """This server drives the room from now on (it took the room's lease): read it from
        the database, store a finished match's record if its driver died before that, and let
        the bots and the clock carry on."""
        async with self.lock:
            stored = await self._resync()
            for i, s in enumerate(self.truth.seats):
                if s.kind == "human" and not self.seating.connected(i):
                    self.seating.gone(i)
            if stored is not None and self.over and len(stored.records) == self.truth.match:
                await self._finish()
                self.broadcast.room_to_all()
        self.driver.wake()
        self.alone()

    def _trick(self, before: Any, after: Any) -> dict[str, Any] | None:
        """The trick the last step finished, as the public sees it (for the animation)."""
        for event in self.game.visible_events(after, None):
            if event.type == "trick":
                seats = getattr(self.game.observe(before, None), "seats", None)
                return public_trick(event, self.game.players, seats)
        return None

    async def _finish(self) -> None:
        """Keep the finished match's record, with its results and ratings. The table ends
        for its players even when the store refuses it: the record is then tried again, with
        growing pauses, until it is kept, and a rematch waits for it (``_keep``), so no match
        of a room is ever left without its record."""
        text = record.dumps(self.record())
        if len(self.truth.records) == self.truth.match:
            self.truth.records.append(text)
        rated = all(action != UNDO for _, action in self.truth.actions)
        self._unkept = (self.truth.match, text, rated)
        try:
            await self._keep()
        except UNSAVED as exc:
            log.warning(
                "room %s: match %d's record was not stored (%s); trying again",
                self.code,
                self.truth.match,
                exc,
            )
            self.spawn(self._keep_later())
        except Exception:  # not the store's refusal: a restart stores it again
            self._unkept = None
            log.exception("room %s: match %d's record was not stored", self.code, self.truth.match)

    async def _keep(self) -> None:
        """The record the store has not kept yet, kept now; raises one of ``UNSAVED`` if the
        store refuses it again (storing a record is idempotent: never kept twice)."""
        if self._unkept is None:
            return
        match, text, rated = self._unkept
        await self.store.finish(self.code, match, text, rated=rated)
        self._unkept = None
        log.info("room %s: match %d's record is stored", self.code, match)

    async def _keep_later(self) -> None:
        wait = RETRY_FIRST
        while self._unkept is not None:
            await asyncio.sleep(wait)
            wait = min(RETRY_MAX, wait * 2)
            async with self.lock:
                try:
                    await self._keep()
                except UNSAVED as exc:
                    log.warning("room %s: a record still not stored (%s)", self.code, exc)

    async def hint(self, conn: Connection) -> dict[str, Any] | IllegalActionError:
        """The hard bot's move for ``conn``'s seat, with its reason, in its language."""
        return await self.driver.hint(conn)

    # --- the host's controls -------------------------------------------------------------

    async def control(self, conn: Connection, kind: str, msg: Mapping[str, Any]) -> None:
        """Host controls (start, fill, seat, move, remove) and rematch; raises
        IllegalActionError when refused."""
        t = self.truth
        is_host = conn.token is not None and conn.token == t.host
        if kind == "rematch":
            seen = msg.get("match")  # the match whose end the player saw (protocol: checked)
            if conn.seat is not None and isinstance(seen, int) and seen < t.match:
                # Another player's rematch came first (both pressed it at its end): this one
                # asked for the same new match, which its page is being shown. Refused, it
                # would be told "once the match is over" as the new match begins.
                return
            if conn.seat is None or not self.over:
                raise error("no-rematch", "a rematch is for the players, once the match is over")
            await self._rematch(conn.seat)
            return
        if not is_host:
            raise error("not-host", "only the host can do that")
        async with self.lock:
            if self.cluster is not None:
                await self._resync()  # seats may have been taken on another server just now
            if kind == "start":
                if t.started:
                    raise error("started", "the match has already started")
                if any(s.kind == "open" for s in t.seats):
                    raise error("seats-open", "fill the empty seats with bots or wait for players")
                await self.store.start(t.code, t.match, t.seed, t.seed_salt)
                t.started = True
                self.driver.set_deadline()
                self.broadcast.room_to_all()
                self.broadcast.view_to_all(self.log)
            else:
                await self._arrange(kind, msg)
            await self.changed()
        self.driver.wake()

    async def _arrange(self, kind: str, msg: Mapping[str, Any]) -> None:
        """The host's seat control, saved by a compare-and-set on the seats it was made on:
        when another server changed them meanwhile (someone sat down there), it is refused
        with ``moved-on`` and the seats are read again and shown (the lock is held)."""
        t = self.truth
        seating = self.seating
        before, away, standin = copy.deepcopy(t.seats), dict(seating.away), set(seating.standin)
        seating.arrange(kind, msg)
        aside = None
        if kind == "remove" and t.started:  # refused otherwise, by arrange
            seat = int(msg["seat"])
            aside = removed_aside(seat, before[seat].name, self.version)
        try:
            await self.store.save_seats(t.code, t.seats, t.host, was=before, aside=aside)
        except SeatConflictError:
            seating.away, seating.standin = away, standin
            await self._resync()
            self.broadcast.room_to_all()
            self.broadcast.view_to_all([])
            raise error("moved-on", "the seats changed meanwhile: look again") from None
        except UNSAVED:
            # Not kept: this copy goes back to the seats the database has, or a later start
            # would play with seats that are nowhere but here.
            t.seats, seating.away, seating.standin = before, away, standin
            raise
        self.seating.settle()
        self.broadcast.room_to_all()
        if aside is not None:
            t.asides.append(aside)
            self._say([aside_entry(aside)])
        else:
            self.broadcast.view_to_all([])

    def _say(self, entries: list[dict[str, Any]]) -> None:
        """Entries said between moves: in the log, and told to everyone here."""
        self.log += entries
        del self.log[:-LOG_KEEP]
        self.broadcast.view_to_all(entries)

    async def seat_for(self, token: str | None) -> int | None:
        """The seat of the person whose token hashes to ``token``. Shared with other servers,
        a token this copy does not know may be a seat just taken on another server whose news
        has not come yet: the room is read again from the database first (only then, so a
        known token or none costs nothing), and this server's connections are told if it
        changed. A server that hears no news (Redis away) reads it again whatever the token."""
        seat = self.seat_of(token)
        cluster = self.cluster
        if cluster is None or (cluster.serving and (seat is not None or token is None)):
            return seat
        async with self.lock:
            t = self.truth
            before = (copy.deepcopy(t.seats), t.host, t.match, t.started, self.version)
            await self._resync()
            if before != (t.seats, t.host, t.match, t.started, self.version):
                self.broadcast.room_to_all()
                self.broadcast.view_to_all([])
        self.driver.wake()
        return self.seat_of(token)

    async def hand_on_host(self) -> None:
        """Before the start, a host away longer than the grace (a closed tab, a phone gone
        flat) hands the table on to the first seated person who is here: only the host can
        start, and friends would otherwise wait for ever for someone who is not coming."""
        async with self.lock:
            t, seating = self.truth, self.seating
            gone = self.seat_of(t.host)
            if t.started or gone is None or gone not in seating.standin:
                return
            heir = next(
                (i for i, s in enumerate(t.seats) if s.kind == "human" and seating.connected(i)),
                None,
            )
            if heir is None:
                return
            host = t.seats[heir].token
            try:
                await self.store.save_seats(t.code, t.seats, host, was=t.seats)
            except SeatConflictError:  # seats changed on another server: read them again
                await self._resync()
                return
            except UNSAVED as exc:  # the next person to come tries again
                log.warning("room %s: the host was not handed on (%s)", self.code, exc)
                return
            t.host = host
            for conn in self.conns:
                if conn.seat == heir:
                    self._welcome(conn)
            self.broadcast.room_to_all()
            await self.changed()

    async def changed(self, note: Mapping[str, Any] | None = None) -> None:
        """Tell the other servers (if any) to read this room again: its seats, its match;
        ``note``: a log entry that came with the change (who started a rematch): the others
        read it in the database too (``Truth.started_by``), once (``_rematch_note``)."""
        if self.cluster is not None:
            news: dict[str, Any] = {"kind": "room", "room": self.code}
            if note is not None:
                news["note"] = dict(note)
            await self.cluster.tell(news)

    async def _rematch(self, seat: int) -> None:
        async with self.lock:
            t = self.truth
            if not self.over:
                return
            # The finished match's record first: a rematch over a record the store has not
            # kept would leave that match without one for good (refused: not saved, again).
            await self._keep()
            seed, salt = new_seed(), new_salt()
            try:
                await self.store.start(t.code, t.match + 1, seed, salt, started_by=seat)
            except (IntegrityError, ValueError):
                # Its match row is there already: another server started the rematch first
                # (show it). A database that keeps nothing is not that: it is told as such.
                if self.cluster is None:
                    raise
                self._catch_up()
                return
            t.match, t.seed, t.actions, t.started = t.match + 1, seed, [], True
            t.seed_salt, t.notes, t.started_by, t.asides = salt, {}, seat, []
            self.rebuild()  # its log begins with who started it (rematch_entry)
            said = rematch_entry(seat, t.match)
            self.driver.set_deadline()
            self.broadcast.room_to_all()
            self.broadcast.view_to_all(self.log)
            await self.changed(said)
        self.driver.wake()

    async def seat_person(
        self, name: str, seat: int | None, player: str | None = None, key: str | None = None
    ) -> tuple[int, str]:
        """Sit a person at an open seat (``seat`` or the first); returns the seat and its token.
        A join ``key`` makes it idempotent (``Seating.seat_person``).

        The seat waits for its person from now on as for one who left: one who never comes
        (a page closed before it connected, a client that only joined) is stood in for by a
        bot after ``grace`` seconds, rather than holding the table up for ever."""
        taken = await self.seating.seat_person(name, seat, player, key)
        if not self.seating.connected(taken[0]):
            self.seating.gone(taken[0])
        await self.changed()
        return taken

    # --- lifetime ------------------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` as one of the room's tasks: cancelled when the room closes, logged when
        it fails."""
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
                self.seating.gone(i)
        if self.over and len(self.truth.records) == self.truth.match:
            self.spawn(self._finish_again())  # the crash came between the last move and its record
        self.driver.set_deadline()
        self.driver.wake()
        self.alone()

    async def _finish_again(self) -> None:
        async with self.lock:
            if len(self.truth.records) == self.truth.match:
                await self._finish()
                self.broadcast.room_to_all()

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def summary(self) -> dict[str, Any]:
        return summary(self.truth, self.over, self.game)
