"""Plain-text renderings for the command line: match logs, events and views in words.

Pure functions over records, events and views; the terminal and web apps have their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tapete.cards import CardSet
from tapete.game import Event, Game
from tapete.record import Record

__all__ = ["event_text", "record_lines", "view_text"]


def _seat(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)


def event_text(event: Event | Mapping[str, Any], names: Sequence[str]) -> str:
    """One line for an event (a trick taken, a deal scored, ...), seats by name."""
    data = dict(event.to_json() if isinstance(event, Event) else event)
    kind = data.pop("type")
    data.pop("after", None)
    if kind == "trick":
        cards = " ".join("down" if c is None else str(c) for c in data["cards"])
        if data.get("winner") is None:
            return f"  trick {cards} -> tied"
        return f"  trick {cards} -> {_seat(names, data['winner'])} takes it"
    if kind == "score":
        score = ", ".join(f"{_label(names, i)} {v:+d}" for i, v in enumerate(data["score"]))
        totals = data.get("totals")
        tail = f"   totals: {', '.join(str(t) for t in totals)}" if totals else ""
        return f"  score: {score}{tail}"
    if kind == "end":
        winners = ", ".join(_seat(names, w) for w in data["winners"])
        return (
            f"result: {winners} win{'s' if len(data['winners']) == 1 else ''} "
            f"({data['reason']}); scores {data['scores']}"
        )
    if kind == "deal":
        upcard = f", upcard {data['upcard']}" if data.get("upcard") else ""
        return f"deal {data.get('deal', '')}: {_seat(names, data['dealer'])} deals{upcard}"
    rest = ", ".join(f"{k} {v}" for k, v in data.items())
    return f"  {kind}: {rest}"


def _label(names: Sequence[str], index: int) -> str:
    return names[index] if index < len(names) else f"#{index}"


def record_lines(record: Record, *, hands: bool = True) -> Iterator[str]:
    """The match deal by deal: who dealt, the hands, every decision and what the rules did.

    Shown as it is: pass a record the engine wrote or rebuilt (``tapete.record.checked``), never
    one read from a file unchecked.
    """
    names = [s.name for s in record.seats]
    yield f"{record.game}  seed {record.seed}  " + ", ".join(
        f"{i}: {s.name} ({s.bot or s.kind})" for i, s in enumerate(record.seats)
    )
    for number, deal in enumerate(record.deals):
        upcard = f", upcard {deal.upcard}" if deal.upcard else ""
        yield ""
        yield f"deal {number + 1}: {_seat(names, deal.dealer)} deals{upcard}"
        if hands:
            for seat, hand in enumerate(deal.hands):
                if hand:
                    yield f"  {names[seat]}: {' '.join(hand)}"
        by_action: dict[int, list[Mapping[str, Any]]] = {}
        for event in deal.events:
            by_action.setdefault(int(event.get("after", len(deal.actions) - 1)), []).append(event)
        for event in by_action.get(-1, []):
            yield event_text(event, names)
        for index, (seat, action) in enumerate(deal.actions):
            yield f"  {names[seat]}: {action}"
            for event in by_action.get(index, []):
                yield event_text(event, names)
    yield ""
    if record.result is None:
        yield "unfinished: the match stopped here"
    else:
        yield event_text({"type": "end", **record.result}, names)


def view_text(game: Game[Any, Any], view: Any) -> str:
    """A view in words: the game's own ``describe`` when it has one, else every public field."""
    describe = getattr(game.rules, "describe", None)
    if describe is not None:
        return str(describe(view))
    lines = []
    for f in dataclasses.fields(view):
        if f.name in ("params", "excluded"):
            continue
        value = getattr(view, f.name)
        if isinstance(value, tuple):
            value = ", ".join(str(v) if not isinstance(v, CardSet) else f"[{v}]" for v in value)
        lines.append(f"{f.name}: {value}")
    return "\n".join(lines)
