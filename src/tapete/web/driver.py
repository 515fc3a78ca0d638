"""What moves a room when no person does: its bots, its turn timer, and hints for people.

The driver looks at the room after every change (``wake``): when a bot (or a stand-in for a
person who left) is to act, it waits the table's ``bot_delay`` and asks the bot; when a person
is to act, it only arms their clock, if the table has one. Bots decide in ``Thinkers`` (worker
processes), never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from tapete import bots
from tapete.errors import IllegalActionError, SpecError
from tapete.match import choose_or_stand_in, seat_rng
from tapete.narrate import action_label, reason_words
from tapete.web.seating import FAILED, error
from tapete.web.store import UNSAVED
from tapete.web.thinking import Answer, Job, Thinkers

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tapete.web.room import Room
    from tapete.web.views import Connection

__all__ = ["HINT_MS", "Driver"]

log = logging.getLogger("tapete.web")

RETRY_FIRST, RETRY_MAX = 0.5, 10.0  # seconds before a bot's refused move is tried again

HINT_MS = 400


class Driver:
    """The bots, the turn timer and the hints of one room."""

    def __init__(self, room: Room, players: Mapping[str, bots.Bot], thinkers: Thinkers) -> None:
        self.room = room
        self.players = players  # the bot that plays a level here, if not bots.load(level)
        self.thinkers = thinkers
        self.deadline: float | None = None  # when the person to act times out (time.monotonic)
        self.rngs: list[random.Random] = []
        self._bots: dict[str, bots.Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        # The hint of the position now, by (match, move number, seat): asked again, by any
        # number of connections of the seat, it is thought of once.
        self._hints: dict[tuple[int, int, int], asyncio.Future[Answer]] = {}

    def deal(self, seed: int) -> None:
        """A new match with ``seed``: each seat's bot draws from the seat's own RNG."""
        self.rngs = [seat_rng(seed, s) for s in range(self.room.game.players)]

    def set_deadline(self) -> None:
        room = self.room
        seat = room.game.current_player(room.state)
        timer = room.truth.options.turn_timer
        if seat is not None and timer > 0 and room.truth.started and self._person(seat):
            self.deadline = time.monotonic() + timer
        else:
            self.deadline = None

    def _person(self, seat: int) -> bool:
        return self.room.seating.person_plays(seat)

    def drives(self) -> bool:
        """Whether this server drives the room: always alone, else while it holds its lease."""
        cluster = self.room.cluster
        return cluster is None or cluster.owns(self.room.code)

    def wake(self) -> None:
        """Let the bots (and the turn timer) take over when it is their move."""
        if self._driver is not None and not self._driver.done():
            return  # the driver is at work: it looks again after each move
        room = self.room
        seat = room.game.current_player(room.state)
        if not room.truth.started or seat is None or not self.drives() or not room.plays_on():
            return
        if self._person(seat):  # no task for a person's move (most moves): only its clock
            self._arm_timer(seat)
            return
        self._driver = room.spawn(self._drive())

    async def _drive(self) -> None:
        room = self.room
        refused = 0  # the store's refusals in a row
        while room.truth.started and self.drives() and room.plays_on():
            seat = room.game.current_player(room.state)
            if seat is None:
                return
            if self._person(seat):
                self._arm_timer(seat)
                return
            version = room.version
            # the delay lets people follow the bots: with nobody to follow, none
            await asyncio.sleep(room.truth.options.bot_delay if room.watched() else 0.0)
            still = room.version == version and room.game.current_player(room.state) == seat
            if still and not self._person(seat) and self.drives() and room.plays_on():
                try:
                    await self._bot_move(seat, version)
                    refused = 0
                except UNSAVED as exc:
                    # The database away for a moment (a restart, a full disk): nothing was
                    # kept, so the bot moves again once it is back, rather than the table
                    # waiting for ever.
                    refused += 1
                    wait = min(RETRY_MAX, RETRY_FIRST * 2 ** (refused - 1))
                    log.warning(
                        "room %s: the store refused a bot's move (%s); again in %g s",
                        room.code,
                        exc,
                        wait,
                    )
                    await asyncio.sleep(wait)

    def _arm_timer(self, seat: int) -> None:
        room = self.room
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        if self.deadline is None and room.truth.options.turn_timer > 0:
            self.set_deadline()
        deadline = self.deadline
        if deadline is None:
            return
        version = room.version

        async def expire() -> None:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            now = room.version == version and room.game.current_player(room.state) == seat
            if now and self.drives() and room.plays_on():
                # Said before the move: the person would otherwise read a card they never
                # chose as their own.
                timed_out = {"kind": "timed_out", "seat": seat}
                await self._bot_move(seat, version, room.truth.options.standby, timed_out)

        self._timer = room.spawn(expire())

    def _bot(self, level: str) -> bots.Bot:
        if level not in self.room.levels:
            level = "random"
        if level not in self._bots:
            self._bots[level] = self.players.get(level) or bots.load(level)
        return self._bots[level]

    async def _bot_move(
        self,
        seat: int,
        version: int,
        level: str | None = None,
        note: Mapping[str, Any] | None = None,
    ) -> None:
        room = self.room
        config = room.truth.seats[seat]
        if level is None:
            level = config.level if config.kind == "bot" else room.truth.options.standby
        if note is None and config.kind == "human":
            note = room.seating.standing_in(seat)
        bot = self._bot(level)
        game, state = room.game, room.state
        view, legal = game.observe(state, seat), game.legal_actions(state)
        rng = self.rngs[seat]
        trace = ""
        if bot.name == "random":  # no thinking to move off the event loop
            action, failure = choose_or_stand_in(bot, view, legal, rng)
        else:
            answer = await self.thinkers.decide(Job(bot, view, tuple(legal), rng))
            action, failure, self.rngs[seat] = answer.action, answer.failure, answer.rng
            if failure is not None and failure.__traceback__ is None and answer.trace:
                trace = f"\n{answer.trace}"  # from a worker process: its traceback as text
        if room.version != version or not self.drives():
            return
        if failure is not None:  # a bot's bug must not stop the table: a random legal move
            log.error(
                "room %s: bot %s failed at seat %d, move %d; a random legal move stands in%s",
                room.code,
                bot.name,
                seat,
                version,
                trace,
                exc_info=failure,
            )
            # Said after the note's own line: a stand-in's first move still says who is away.
            note = {"kind": "bot_failed", "seat": seat} if note is None else {**note, FAILED: True}
        refused = await room.act(seat, game.format_action(action), note=note)
        if refused is not None and room.version == version:  # cannot happen: a legal move
            log.error("room %s: the move of bot %s was refused: %s", room.code, bot.name, refused)

    async def hint(self, conn: Connection) -> dict[str, Any] | IllegalActionError:
        """The hard bot's move for ``conn``'s seat, with its reason, in its language."""
        room = self.room
        seat, game = conn.seat, room.game
        if seat is None:  # told it watches, not that this table has no hints: it may have
            return error("spectator", "spectators watch: a hint is for a seat's own turn")
        if not room.hint_allowed(seat):
            return error("no-hint", "hints are for tables against bots")
        if not room.truth.started:
            return error("not-started", "a hint is for a move of the match, once started")
        if seat is None or game.current_player(room.state) != seat:
            return error("not-your-turn", "a hint is for your own turn")
        view = game.observe(room.state, seat)
        key = (room.truth.match, len(room.truth.actions), seat)
        if key not in self._hints:
            self._hints = {k: h for k, h in self._hints.items() if k[:2] == key[:2]}
            adviser = bots.LevelBot("hard", bots.Budget(ms=HINT_MS))
            job = Job(adviser, view, (), random.Random(0), hint=True)
            self._hints[key] = asyncio.ensure_future(self.thinkers.decide(job))
        try:
            # shielded: one asker leaving does not cancel the others' hint
            decision = await asyncio.shield(self._hints[key])
        except SpecError:
            return error("no-hint", f"no hints for {game.name} yet")
        except BrokenProcessPool:  # its process died twice: asking again asks anew
            self._hints.pop(key, None)
            return error("no-hint", "no hint this time")
        if game.why_illegal(room.state, decision.action) is not None:
            return error("no-hint", "no hint this time")
        move = game.format_action(decision.action)
        return {
            "type": "hint",
            "action": move,
            "label": action_label(game, decision.action, conn.lang, view),
            "reason": reason_words(conn.lang, bots.said_after(decision.reason, move)),
        }
