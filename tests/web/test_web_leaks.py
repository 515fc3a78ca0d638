"""No seat ever receives a card hidden from it: whole matches of every game over the real server.

Four (or two) people play random legal moves, a spectator watches, and a few illegal attempts are
thrown in; every message each of them receives is kept. Afterwards the match record gives every
state, and each message is checked against what ``observe(state, seat)`` shows that seat: the
table it carries against the view after the step, the rest (the log of the step) against the
views before and after plus the cards the step put face up on the table.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import tapete
from tapete import record
from tapete.cards import CARD_TEXT, CardSet
from tapete.game import Game
from tapete.web import Limits
from webclient import Client, Server, running

# Truco's matches are short: more seeds, to reach face-down cards, mão de onze and mão de ferro.
CASES = [(spec, 11) for spec in tapete.game_names()] + [
    (spec, seed) for spec in ("truco(players=4)", "truco") for seed in (12, 13, 14, 15)
]

# Fields of a view whose ints are cards (the rest are seats, counts, scores ...).
CARD_FIELDS = {"upcard", "shown", "vira", "trump_card", "card", "face_up"}
CARD_SEQUENCES = {"trick", "cards", "plays", "stock", "shown_cards"}


def visible(view: Any) -> set[str]:
    """Every card a view shows."""
    out: set[str] = set()

    def walk(value: Any, name: str) -> None:
        if isinstance(value, CardSet):
            out.update(CARD_TEXT[c] for c in value)
        elif isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
            for key in value._fields:
                walk(getattr(value, key), key)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                if f.name not in ("params", "excluded"):
                    walk(getattr(value, f.name), f.name)
        elif isinstance(value, tuple):
            if name == "runs":  # Poch: runs of (seat, card)
                out.update(CARD_TEXT[card] for run in value for _, card in run)
            elif name == "tricks":
                for item in value:  # (leader, cards) or a NamedTuple round
                    if hasattr(item, "_fields"):
                        walk(item, "round")
                    else:
                        walk(item[1], "trick")
            elif name in CARD_SEQUENCES:
                for item in value:
                    walk(item, "card" if isinstance(item, int) else name)
            else:
                for item in value:
                    walk(item, name)
        elif name == "manilha" and isinstance(value, int):
            # Truco names the four manilhas (a public fact about ranks, not where cards lie).
            out.update(CARD_TEXT[suit * 16 + value] for suit in range(4, 8))
        elif isinstance(value, int) and name in CARD_FIELDS and value >= 0:
            out.add(CARD_TEXT[value])

    walk(view, "")
    return out


def card_tokens(message: Any, deck: set[str]) -> set[str]:
    """Every card of ``deck`` named anywhere in a message (keys and values)."""
    text = json.dumps(message, ensure_ascii=False)
    return {token for token in re.findall(r"[0-9A-Za-z]+", text) if token in deck}


def play_match(server: Server, spec: str, seed: int) -> tuple[str, list[Client], Client]:
    game = tapete.load(spec)
    n = game.players
    table = server.create(
        spec.split("(")[0],
        params=dict(tapete.game.parse_spec(spec)[1]),
        seats=[{"kind": "human"}] * n,
        seed=seed,
    )
    code = str(table["code"])
    people = [server.client()]
    people[0].hello(code, str(table["token"]))
    for i in range(1, n):
        joined = server.post(f"/api/tables/{code}/join", {"name": f"P{i}"})
        people.append(server.client())
        people[i].hello(code, joined["token"])
    watcher = server.client()
    watcher.hello(code)
    people[0].send({"type": "start"})
    rng = random.Random(seed)
    version = 0
    while True:
        for c in [*people, watcher]:
            c.view_at(version)
        if people[0].view is not None and people[0].view["result"] is not None:
            break
        actors = [c for c in people if c.legal()]
        assert len(actors) == 1, "exactly one seat is offered actions"
        actor = actors[0]
        other = rng.choice([c for c in people if c is not actor])
        assert other.view is not None
        hand = other.view["table"]["hand"]
        if hand and rng.random() < 0.03:  # someone tries out of turn, with a card they hold
            other.send({"type": "act", "action": f"play {hand[0]}"})
            assert other.expect("error")["rule"] == "not-your-turn"
        actor.send({"type": "act", "action": rng.choice(actor.legal())})
        version += 1
    return code, people, watcher


def knowledge(game: Game[Any, Any], rec: record.Record) -> tuple[list[Any], list[set[str]]]:
    """The states of the match in order, and the cards each step put face up."""
    states: list[Any] = []
    played: list[set[str]] = [set()]
    for _, before, _, action, after in record.steps(rec):
        if not states:
            states.append(before)
        states.append(after)
        words = game.format_action(action).split()
        public = set()
        if (
            words[0] == "play"
            and len(words) == 2
            and words[1] in {CARD_TEXT[c] for c in game.deck.cards}
        ):
            public.add(words[1])
        for event in game.events(after):
            # What the rules put face up by themselves: Poch's runs, melds and showdown hands.
            if event.type in ("run", "meld"):
                public |= set(event.data.get("cards", ()))
            for shown in event.data.get("hands", ()) if event.type == "poker" else ():
                public |= set(shown["cards"])
            if event.type == "trick":
                down = list(event.data.get("down", ()))
                public |= {
                    c for i, c in enumerate(event.data["cards"]) if not (i < len(down) and down[i])
                }
        played.append(public)
    return states, played


@pytest.fixture(scope="module")
def fast_server() -> Iterator[Server]:
    """Scripted players act far faster than people: no flood limit here."""
    with running(limits=Limits(burst=10_000, rate=10_000)) as live:
        yield live


@pytest.mark.parametrize(("spec", "seed"), CASES)
def test_no_message_names_a_card_hidden_from_its_seat(
    fast_server: Server, spec: str, seed: int
) -> None:
    server = fast_server
    game = tapete.load(spec)
    code, people, watcher = play_match(server, spec, seed)
    rec = record.loads(json.dumps(server.get(f"/api/tables/{code}/records/0")))
    states, played = knowledge(game, rec)
    deck = {CARD_TEXT[c] for c in game.deck.cards}
    checked = 0
    for seat, client in [*enumerate(people), (None, watcher)]:
        known = [visible(game.observe(s, seat)) for s in states]
        version = 0
        for message in client.seen:
            if message["type"] == "view":
                version = message["version"]
                table_cards = card_tokens(message["table"], deck) | card_tokens(
                    message["actions"], deck
                )
                assert table_cards <= known[version], (seat, version, table_cards - known[version])
            allowed = known[version] | played[version] | (known[version - 1] if version else set())
            leaked = card_tokens(message, deck) - allowed
            assert not leaked, f"{spec}: seat {seat} was told {leaked} at step {version}: {message}"
            checked += 1
    assert checked > 50
    assert len(states) > 10


def test_the_checker_sees_a_leak() -> None:
    """The check itself: another seat's card in a message is caught."""
    game = tapete.load("pocha(schedule=[3])")
    state = game.new_state(seed=3)
    mine, theirs = visible(game.observe(state, 0)), game.observe(state, 1).hand
    assert theirs is not None
    deck = {CARD_TEXT[c] for c in game.deck.cards}
    leak = {"type": "view", "log": [f"P1 holds {CARD_TEXT[next(iter(theirs))]}"]}
    assert card_tokens(leak, deck) - mine


@pytest.mark.parametrize(("spec", "seed"), CASES)
def test_a_running_match_s_record_names_no_card_hidden_from_its_seat(spec: str, seed: int) -> None:
    """The record a seat downloads mid-match (``Room.record_for``) at several points of a match:
    every card it names is one that seat saw (its hands, the table) by then."""
    from tapete.match import play
    from tapete.record import Recorder, redact

    game = tapete.load(spec)
    _, rec = play(game, ["random"] * game.players, seed=seed)
    states, played = knowledge(game, rec)
    deck = {CARD_TEXT[c] for c in game.deck.cards}
    steps = list(record.steps(rec))
    for cut in sorted({1, len(steps) // 3, len(steps) // 2, len(steps) - 1}):
        recorder = Recorder(game, steps[0][1], rec.seed, rec.seats)
        for _, _, seat, action, after in steps[:cut]:
            recorder.step(seat, action, after)
        so_far = dataclasses.replace(recorder.record(), seats=rec.seats)
        doc = so_far.to_json()
        for seat in [*range(game.players), None]:
            known: set[str] = set()
            for version in range(cut + 1):
                known |= visible(game.observe(states[version], seat)) | played[version]
            leaked = card_tokens(redact(so_far, seat).to_json(), deck) - known
            assert not leaked, f"{spec}: seat {seat}'s record at step {cut} names {leaked}"
        if cut == 1:  # the complete record names hidden cards: the check would see them
            assert card_tokens(doc, deck) - visible(game.observe(states[cut], 0))
