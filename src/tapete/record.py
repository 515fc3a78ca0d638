"""The match record, ``tapete-record/1`` (docs/notation.md): dump, load and replay.

A record holds every deck order and every decision, so a replay needs no RNG and a referee can
check each decision without trusting the engine that wrote it:

>>> import tapete
>>> from tapete.match import play
>>> game = tapete.load("pocha(players=3, schedule=[1, 2])")
>>> final, rec = play(game, ["random"] * 3, seed=5)
>>> text = dumps(rec)
>>> loads(text) == rec
True
>>> game.outcome(replay(loads(text))) == game.outcome(final)
True
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tapete.cards import CARD_TEXT
from tapete.chance import by_lot, shuffled
from tapete.errors import RecordError
from tapete.game import Action, Event, Game, Outcome, Seat, jsonable, parse_spec
from tapete.games import load as load_game

__all__ = [
    "FORMAT",
    "DealRecord",
    "Record",
    "Recorder",
    "SeatInfo",
    "dumps",
    "loads",
    "read",
    "replay",
    "steps",
    "verify_deals",
    "write",
]

FORMAT = "tapete-record/1"


@dataclass(frozen=True)
class SeatInfo:
    name: str
    kind: str = "bot"  # "human" or "bot"
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.bot is not None:
            out["bot"] = self.bot
        return out


@dataclass(frozen=True)
class DealRecord:
    """One deal: its chance inputs, every decision, what the rules did, and the score change."""

    dealer: Seat
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    upcard: str | None
    stock: tuple[str, ...]
    actions: tuple[tuple[Seat, str], ...] = ()
    events: tuple[Mapping[str, Any], ...] = ()
    score: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "upcard": self.upcard,
            "stock": list(self.stock),
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "events": [dict(e) for e in self.events],
            "score": None if self.score is None else list(self.score),
        }


@dataclass(frozen=True)
class Record:
    """A whole match. ``result`` is None while the match is unfinished."""

    game: str
    params: Mapping[str, Any]
    seed: int | None
    seats: tuple[SeatInfo, ...]
    teams: tuple[tuple[Seat, ...], ...] | None
    deals: tuple[DealRecord, ...]
    result: Mapping[str, Any] | None = None
    format: str = field(default=FORMAT)
    seed_hash: str | None = None  # the SHA-256 of the seed a server published before play

    def to_json(self) -> dict[str, Any]:
        out = {
            "format": self.format,
            "game": self.game,
            "params": jsonable(self.params),
            "seed": self.seed,
            "seats": [s.to_json() for s in self.seats],
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "deals": [d.to_json() for d in self.deals],
            "result": None if self.result is None else jsonable(self.result),
        }
        if self.seed_hash is not None:
            out["seed_hash"] = self.seed_hash
        return out


def params_json(game: Game) -> dict[str, Any]:
    """Every parameter of ``game``, defaults included, JSON-ready."""
    return {f.name: jsonable(getattr(game.params, f.name)) for f in dataclasses.fields(game.params)}


class Recorder:
    """Builds a record while a match is played: feed it each decision and the state after it."""

    def __init__(self, game: Game, state: Any, seed: int | None, seats: Sequence[SeatInfo]) -> None:
        self.game = game
        self.seed = seed
        self.seats = tuple(seats)
        self._deals: list[dict[str, Any]] = []
        self._result: dict[str, Any] | None = None
        self._take(game.events(state))

    def step(self, seat: Seat, action: Action, after: Any) -> None:
        if not self._deals:
            raise RecordError("no deal has started")
        self._deals[-1]["actions"].append((seat, self.game.format_action(action)))
        self._take(self.game.events(after))

    def _take(self, events: Sequence[Event]) -> None:
        for event in events:
            data = event.to_json()
            if event.type == "deal":
                self._deals.append(
                    {
                        "dealer": data["dealer"],
                        "deck": tuple(data["deck"]),
                        "hands": tuple(tuple(h) for h in data["hands"]),
                        "upcard": data.get("upcard"),
                        "stock": tuple(data.get("stock", ())),
                        "actions": [],
                        "events": [],
                        "score": None,
                    }
                )
                continue
            if event.type == "end":
                self._result = {k: data[k] for k in ("scores", "winners", "reason")}
                continue
            if not self._deals:
                raise RecordError(f"a {event.type} event came before any deal")
            # Where the event happened: after this deal's action number ``after`` (-1: at the deal).
            data["after"] = len(self._deals[-1]["actions"]) - 1
            if event.type == "score":
                self._deals[-1]["score"] = tuple(data["score"])
            self._deals[-1]["events"].append(data)

    def record(self) -> Record:
        teams = self.game.teams
        deals = tuple(
            DealRecord(
                d["dealer"],
                d["deck"],
                d["hands"],
                d["upcard"],
                d["stock"],
                tuple(d["actions"]),
                tuple(d["events"]),
                d["score"],
            )
            for d in self._deals
        )
        return Record(
            self.game.spec,
            params_json(self.game),
            self.seed,
            self.seats,
            teams,
            deals,
            self._result,
        )


def dumps(record: Record) -> str:
    """The record as compact JSON, one deal a line, so diffs and ``grep`` stay readable."""
    doc = record.to_json()
    deals = doc.pop("deals")
    head = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    body = ",\n".join(json.dumps(d, separators=(",", ":"), ensure_ascii=False) for d in deals)
    return head[:-1] + ',"deals":[\n' + body + "\n]}\n"


def loads(text: str) -> Record:
    """Parse a record; raises RecordError naming the field that is wrong."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (the 'format' field says otherwise)")
    try:
        seats = tuple(SeatInfo(s["name"], s.get("kind", "bot"), s.get("bot")) for s in doc["seats"])
        deals = tuple(
            DealRecord(
                int(d["dealer"]),
                tuple(d["deck"]),
                tuple(tuple(h) for h in d["hands"]),
                d.get("upcard"),
                tuple(d.get("stock", ())),
                tuple((int(a["seat"]), str(a["action"])) for a in d["actions"]),
                tuple(d.get("events", ())),
                None if d.get("score") is None else tuple(d["score"]),
            )
            for d in doc["deals"]
        )
        teams = doc.get("teams")
        return Record(
            game=str(doc["game"]),
            params=doc["params"],
            seed=doc.get("seed"),
            seats=seats,
            teams=None if teams is None else tuple(tuple(t) for t in teams),
            deals=deals,
            result=doc.get("result"),
            seed_hash=doc.get("seed_hash"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed record: missing or bad field {exc}") from None


def write(record: Record, path: str | Path) -> None:
    """Write a record; a name ending in ``.gz`` is gzip-compressed."""
    data = dumps(record).encode()
    Path(path).write_bytes(gzip.compress(data, mtime=0) if str(path).endswith(".gz") else data)


def read(path: str | Path) -> Record:
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return loads(data.decode())


def steps(record: Record) -> Iterator[tuple[int, Any, Seat, Action, Any]]:
    """Replay ``record`` step by step: ``(deal index, state before, seat, action, state after)``.

    Checks, without any RNG, that each deal was dealt from its recorded deck as recorded, that
    each decision was made by the seat to act and is legal, and that each deal scores what the
    record says. Raises RecordError at the first difference.
    """
    game, state = _start(record)
    check = _DealCheck(record)
    check.events(game.events(state))
    for index, deal in enumerate(record.deals):
        for number, (seat, text) in enumerate(deal.actions):
            where = f"deal {index}, action {number} ({seat}: {text})"
            if check.deal != index:
                raise RecordError(f"{where}: the engine is at deal {check.deal}")
            if game.current_player(state) != seat:
                raise RecordError(f"{where}: seat {game.current_player(state)} is to act")
            try:
                action = game.parse_action(text)
                after = game.apply(state, action)
            except ValueError as exc:
                raise RecordError(f"{where}: {exc}") from None
            yield index, state, seat, action, after
            state = after
            check.events(game.events(state))
    result = game.outcome(state)
    check.finish(result)


def recorded_game(record: Record) -> Game:
    """The game a record was played under: its spec, and for every parameter the spec leaves out,
    the value in the record's ``params`` (the default of its day).

    So a record made before a default changed replays as it was played. A parameter newer than
    the record takes the value the game module names for older records (``PARAMS_BEFORE``), else
    its default. Raises ValueError for a bad spec or a parameter the game does not have.
    """
    game = load_game(record.game)
    fields = {f.name for f in dataclasses.fields(game.params)}
    unknown = sorted(set(record.params) - fields)
    if unknown:
        raise ValueError(f"{game.name} has no parameter {', '.join(unknown)}")
    older: Mapping[str, Any] = getattr(game.rules, "PARAMS_BEFORE", {})
    given = parse_spec(record.game)[1]
    values = {
        name: _param(record.params[name]) if name in record.params else older[name]
        for name in sorted(fields - set(given))
        if name in record.params or name in older
    }
    if all(getattr(game.params, k) == v for k, v in values.items()):
        return game
    return dataclasses.replace(game, params=dataclasses.replace(game.params, **values))


def _param(value: Any) -> Any:
    """A parameter as JSON holds it, back as ``Params`` holds it (lists are tuples)."""
    return tuple(value) if isinstance(value, list) else value


def _start(record: Record) -> tuple[Game, Any]:
    """The game and the state before the first decision, dealt from the record's decks."""
    try:
        game = recorded_game(record)
    except ValueError as exc:
        raise RecordError(f"game: {exc}") from None
    full = params_json(game)
    if dict(jsonable(record.params)) != {k: v for k, v in full.items() if k in record.params}:
        raise RecordError(f"params do not match the spec {record.game!r}")
    if not record.deals:
        raise RecordError("the record has no deals")
    try:
        decks = [[game.parse_card(c) for c in d.deck] for d in record.deals]
        state = game.new_state(record.seed or 0, decks=decks, dealer=record.deals[0].dealer)
    except ValueError as exc:
        raise RecordError(f"deal 0: {exc}") from None
    return game, state


class _DealCheck:
    """Compares what the engine deals and scores with what the record says."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.deal = -1

    def events(self, events: Sequence[Event]) -> None:
        for event in events:
            data = event.to_json()
            if event.type == "deal":
                self.deal += 1
                if self.deal >= len(self.record.deals):
                    raise RecordError(f"the engine deals deal {self.deal}; the record ends before")
                want = self.record.deals[self.deal]
                got = (data["dealer"], tuple(tuple(h) for h in data["hands"]), data.get("upcard"))
                if got != (want.dealer, want.hands, want.upcard):
                    raise RecordError(
                        f"deal {self.deal}: dealt {got}, the record says "
                        f"{(want.dealer, want.hands, want.upcard)}"
                    )
            elif event.type == "score":
                want_score = self.record.deals[self.deal].score
                if want_score != tuple(data["score"]):
                    raise RecordError(
                        f"deal {self.deal}: scores {data['score']}, the record says {want_score}"
                    )

    def finish(self, result: Outcome | None) -> None:
        if self.deal != len(self.record.deals) - 1:
            raise RecordError(
                f"the record has {len(self.record.deals)} deals; play used {self.deal + 1}"
            )
        want = self.record.result
        if result is None:
            if want is not None:
                raise RecordError("the record claims a result but the match is not over")
            return
        got = {
            "scores": list(result.scores),
            "winners": list(result.winners),
            "reason": result.reason,
        }
        if want is None or dict(jsonable(want)) != got:
            raise RecordError(f"result {got}, the record says {want}")


def replay(record: Record) -> Any:
    """Replay a whole record, checking it (see ``steps``); returns the final state."""
    final = None
    for _, _, _, _, after in steps(record):
        final = after
    return final if final is not None else _start(record)[1]


def verify_deals(record: Record, seed_hash: str | None = None) -> list[str]:
    """Check that the record's deals follow from its seed; returns what does not (empty: fair).

    Every deck order must be the shuffle ``tapete.chance.shuffled`` derives from the seed and the
    deal number, the first dealer the one drawn by lot from the seed, and the seed must hash to
    ``seed_hash`` (the SHA-256 of its decimal text a server publishes before play) when given.

    >>> import tapete
    >>> from tapete.match import play
    >>> _, rec = play(tapete.load("pocha(schedule=[1, 2])"), ["random"] * 4, seed=9)
    >>> verify_deals(rec)
    []
    """
    import hashlib

    if record.seed is None:
        return ["the record has no seed to check the deals against"]
    problems = []
    if seed_hash is not None:
        digest = hashlib.sha256(str(record.seed).encode()).hexdigest()
        if digest != seed_hash.lower():
            problems.append(f"the seed {record.seed} does not hash to the published {seed_hash}")
    game = load_game(record.game)
    cards = game.deck.cards
    for number, deal in enumerate(record.deals):
        expected = [CARD_TEXT[c] for c in shuffled(cards, record.seed, number)]
        if list(deal.deck) != expected:
            problems.append(f"deal {number}: the deck order is not the one the seed gives")
    lot = by_lot(game.players, record.seed, "first-dealer")
    if record.deals and record.deals[0].dealer != lot:
        problems.append(f"the first dealer is seat {record.deals[0].dealer}, the seed draws {lot}")
    return problems
