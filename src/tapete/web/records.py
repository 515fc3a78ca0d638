"""A running match's record as one seat may see it: ``tapete-record/1`` with the secrets out.

While a match is played, a seat may download its record, but only what that seat knows: its own
hands, what everyone saw, and the published SHA-256 of the seed. Out go the other hands, every
deck order and stock (they would give away the cards to come), the seed itself, cards played
face down by others (Truco's ``play X down`` becomes ``play down``) and others' draws (Tute).
Once the match is over the complete record is served instead, seed included, so anyone can
check the deals (``tapete replay FILE --verify --seed-hash H``).

>>> import tapete
>>> from tapete.match import play
>>> _, rec = play(tapete.load("pocha(schedule=[2])"), ["random"] * 4, seed=3)
>>> mine = redact(rec.to_json(), 1)
>>> mine["seed"], mine["deals"][0]["deck"], [len(h) for h in mine["deals"][0]["hands"]]
(None, [], [0, 2, 0, 0])
"""

from __future__ import annotations

import copy
import json
from typing import Any

__all__ = ["dumps", "redact"]


def _action(seat: int, who: int, text: str) -> str:
    words = text.split()
    if who != seat and len(words) == 3 and words[0] == "play" and words[2] == "down":
        return "play down"
    return text


def _event(seat: int | None, event: dict[str, Any]) -> dict[str, Any]:
    match event.get("type"):
        case "trick" if event.get("down"):
            down = list(event["down"])
            cards = list(event.get("cards", ()))
            order = _trick_seats(event, len(cards))
            event["cards"] = [
                None if i < len(down) and down[i] and order[i] != seat else card
                for i, card in enumerate(cards)
            ]
        case "draw":
            seats = list(event.get("seats", ()))
            cards = list(event.get("cards", ()))
            event["cards"] = [
                card if i < len(seats) and seats[i] == seat else None
                for i, card in enumerate(cards)
            ]
    return event


def _trick_seats(event: dict[str, Any], n: int) -> list[int | None]:
    """Who played each card of a finished trick, when the event says (leader, then around)."""
    leader = event.get("leader")
    players = event.get("players")
    if not isinstance(leader, int):
        return [None] * n
    if not isinstance(players, int):
        players = n
    return [(leader + i) % players for i in range(n)]


def redact(doc: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``doc`` (a record as JSON) as ``seat`` knows it while the match runs (None: a spectator)."""
    out = copy.deepcopy(doc)
    out["seed"] = None
    out["result"] = None
    out["redacted"] = {"seat": seat}
    for deal in out["deals"]:
        deal["deck"] = []
        deal["stock"] = []
        deal["hands"] = [
            list(hand) if i == seat else [] for i, hand in enumerate(deal.get("hands", ()))
        ]
        for played in deal.get("actions", ()):
            played["action"] = _action(
                seat if seat is not None else -1, played["seat"], played["action"]
            )
        deal["events"] = [_event(seat, dict(e)) for e in deal.get("events", ())]
    return out


def dumps(doc: dict[str, Any]) -> str:
    """A record as JSON in ``tapete.record.dumps``'s layout: one deal a line."""
    head = {k: v for k, v in doc.items() if k != "deals"}
    text = json.dumps(head, separators=(",", ":"), ensure_ascii=False)
    body = ",\n".join(
        json.dumps(d, separators=(",", ":"), ensure_ascii=False) for d in doc["deals"]
    )
    return text[:-1] + ',"deals":[\n' + body + "\n]}\n"
