"""What a room tells its connections: the room (seats, who is here) and each seat's view.

A view is ``present(observe(state, seat))`` with the move's log lines in the connection's
language; ``Broadcast`` builds it once per seat and language after each move, so spectators
and a person's second tab cost nothing more, and sends it to every connection of the room.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from tapete.i18n import rule_text
from tapete.narrate import line, outcome_words, seat_name
from tapete.present import (
    actions,
    forbidden_bids,
    option_lines,
    present,
    refused_cards,
    trick_unit,
)
from tapete.web.strings import game_words

if TYPE_CHECKING:
    from tapete.web.room import Room

__all__ = ["LOG_SHOWN", "Broadcast", "Connection", "encode"]

LOG_SHOWN = 60  # log entries sent on (re)connection


class Connection(Protocol):
    """One player's or spectator's link: its seat (None: watching), language and outbox.

    ``send`` takes a message as data for ``encode``; one message may go to several connections
    (those of the same seat and language), so it must not be changed after it is sent.
    """

    seat: int | None
    lang: str
    token: str | None  # the hash of the token it showed

    def send(self, message: Mapping[str, Any]) -> None: ...
    def fail(self, rule: str, message: str, text: str | None = None) -> None:
        """An ``error`` naming ``rule``; ``text`` for people (by default the rule's)."""

    def close(self, code: int) -> None:
        """Close the connection with ``code``, after what was sent before."""


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


Said = dict[str, tuple[list[str], list[str]]]  # per language: the seat names and the log lines


class Broadcast:
    """The messages of one room: the room itself for everyone, each connection's view."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def names(self, lang: str) -> list[str]:
        seats = self.room.truth.seats
        return [seat_name(lang, i, s.kind, s.name, s.level) for i, s in enumerate(seats)]

    def room_message(self, conn: Connection) -> dict[str, Any]:
        room = self.room
        t, seating = room.truth, room.seating
        names = self.names(conn.lang)
        connected = {c.seat for c in room.conns if c.seat is not None}
        team_of = {seat: k for k, members in enumerate(room.game.teams or ()) for seat in members}
        return {
            "type": "room",
            "code": t.code,
            "game": room.game.name,
            "spec": t.spec,
            "title": game_words(conn.lang, room.game),  # the spec in words, in the language
            # What the game calls a trick, as a word of the catalog: "trick", or Truco's "round".
            "trick": trick_unit(room.game),
            # Its options set off their defaults, for the table to keep in sight once it starts.
            "rules": option_lines(conn.lang, room.game),
            "players": room.game.players,
            "seats": [
                {
                    "seat": i,
                    "name": names[i],
                    "kind": s.kind,
                    "level": s.level,
                    "player": s.player if s.kind == "human" else f"bot:{s.level}",
                    "connected": i in connected,
                    "away": i in seating.away,
                    # Once the match is over no bot plays for anyone: the seat is its person's.
                    "standin": i in seating.standin and not room.over,
                    "team": team_of.get(i),
                }
                for i, s in enumerate(t.seats)
            ],
            "you": conn.seat,
            "host": conn.token is not None and conn.token == t.host,
            "started": t.started,
            "over": room.over,
            "match": t.match,
            "records": len(t.records),
            "seed_hash": room.seed_hash,
            "seed": t.seed if room.over else None,
            "seed_salt": t.seed_salt if room.over else None,  # with the seed, never before
            "chosen_seed": room.seed_chosen(t.match),
            "options": t.options.to_json(),
            "levels": list(room.levels),
            "hint": room.hint_allowed(conn.seat),
        }

    def view_message(
        self,
        conn: Connection,
        entries: Sequence[Mapping[str, Any]],
        trick: Mapping[str, Any] | None = None,
        said: Said | None = None,
    ) -> dict[str, Any]:
        """``conn``'s view of the state, with ``entries`` as its log lines; ``said`` keeps the
        names and log lines per language for the other connections told of the same move."""
        room = self.room
        game, state, seat, lang = room.game, room.state, conn.seat, conn.lang
        words = None if said is None else said.get(lang)
        if words is None:
            names = self.names(lang)
            words = names, [line(lang, e, names, game.teams is not None) for e in entries]
            if said is not None:
                said[lang] = words
        names, log = words
        view = game.observe(state, seat)
        table = present(view, lang, names)
        mine = seat is not None and room.truth.started and game.current_player(state) == seat
        legal_now = game.legal_actions(state) if mine else []
        legal = actions(game, legal_now, lang, view)
        outcome = game.outcome(state)
        remaining = None
        deadline = room.driver.deadline
        if deadline is not None:
            remaining = max(0.0, round(deadline - time.monotonic(), 1))
        return {
            "type": "view",
            "version": room.version,
            "match": room.truth.match,
            "table": table,  # a dataclass: written as an object of its fields (``encode``)
            "actions": {
                "cards": {card: game.format_action(a) for card, a in legal.cards.items()},
                "buttons": [{"label": b.label, "action": b.text} for b in legal.buttons],
                # Not playable: shown struck through, with the rule that forbids it.
                "refused": [
                    {"label": b.label, "action": b.text, "why": rule_text(lang, e.rule, str(e))}
                    for b, e in (forbidden_bids(game, state, legal_now, lang) if mine else ())
                ],
                # Cards of your hand not playable now, each with the rule that forbids it.
                "refused_cards": {
                    card: rule_text(lang, e.rule, str(e))
                    for card, e in refused_cards(game, state, table.hand, legal.cards).items()
                },
                "explain": legal.explain,
            },
            "log": log,
            "trick": trick,
            "result": None
            if outcome is None
            else {
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "names": [names[w] for w in outcome.winners],
                # Why they won when the scores do not say it (Tute's tie: the last trick).
                "why": outcome_words(lang, outcome),
            },
            "timer": remaining,
            # Whether this seat may take its last move back now (one person against bots).
            "undo": room.undo_allowed(seat),
        }

    def catch_up(self, conn: Connection) -> None:
        """The view of a connection that arrives or changes language, with the recent log."""
        if self.room.truth.started:
            conn.send(self.view_message(conn, self.room.log[-LOG_SHOWN:]))

    def room_to_all(self) -> None:
        """The room to every connection: built once per seat, language and host, so a crowd
        of spectators costs one message, not one each (each message counts the connections)."""
        host = self.room.truth.host
        built: dict[tuple[int | None, str, bool], dict[str, Any]] = {}
        for conn in list(self.room.conns):
            key = (conn.seat, conn.lang, conn.token is not None and conn.token == host)
            message = built.get(key)
            if message is None:
                message = built[key] = self.room_message(conn)
            conn.send(message)

    def view_to_all(
        self, entries: Sequence[Mapping[str, Any]], trick: Mapping[str, Any] | None = None
    ) -> None:
        """Each connection's view of the new state: built once per seat and language, so
        spectators and a person's second tab cost nothing more."""
        if not self.room.truth.started:
            return
        built: dict[tuple[int | None, str], dict[str, Any]] = {}
        said: Said = {}
        for conn in list(self.room.conns):
            key = (conn.seat, conn.lang)
            message = built.get(key)
            if message is None:
                message = built[key] = self.view_message(conn, entries, trick, said)
            conn.send(message)
