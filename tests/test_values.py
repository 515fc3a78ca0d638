"""The values a Python user gets from tapete (events, views, states' games, records) are values:
equal ones hash equal, so they go in sets and serve as dict keys."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapete
from tapete import record
from tapete.game import Event, Outcome, Setup
from tapete.games import ENTRIES
from tapete.match import play

# JSON-ready data, as an event holds it: numbers, text, true/false/null, lists and objects.
LEAVES = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=20,
)
DATA = st.dictionaries(st.text(max_size=5), JSON, max_size=5)


def _reordered(value: Any) -> Any:
    """``value`` built anew, every object's keys in the reverse order: equal, not the same."""
    if isinstance(value, dict):
        return {key: _reordered(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reordered(item) for item in value]
    return value


@given(kind=st.sampled_from(["deal", "trick", "score"]), data=DATA)
def test_equal_events_hash_equal(kind: str, data: dict[str, Any]) -> None:
    event = Event(kind, data)
    for same in (
        Event(kind, _reordered(data)),
        Event(kind, json.loads(json.dumps(data))),
        pickle.loads(pickle.dumps(event)),
        Event(kind, dict(event.data)),
    ):
        assert same == event and hash(same) == hash(event)
    assert len({event, *[Event(kind, _reordered(data)) for _ in range(3)]}) == 1


@given(first=DATA, second=DATA)
def test_events_hash_as_they_compare(first: dict[str, Any], second: dict[str, Any]) -> None:
    one, other = Event("x", first), Event("x", second)
    if one == other:
        assert hash(one) == hash(other)
    assert ({one, other} == {one}) == (one == other)


def test_an_event_changed_in_place_hashes_as_what_it_now_holds() -> None:
    """The hash follows the data (never a stale one kept from before), as equality does."""
    kept = Event("score", {"score": [3, 1]})
    kept.data["score"].append(0)
    assert hash(kept) == hash(Event("score", {"score": [3, 1, 0]}))


@pytest.mark.parametrize(
    "spec", ["pocha(players=3)", "oh_hell", "tute", "tute(players=4)", "truco(players=4)", "poch"]
)
def test_what_a_match_gives_a_player_hashes_as_it_compares(spec: str) -> None:
    """Every event, view (a seat's and a spectator's), outcome and the record of a played match
    hashes, and a copy of each (equal, not the same object) hashes the same."""
    game = tapete.load(spec)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    values: list[Any] = [game, game.params, game.deck, ENTRIES[game.name]]
    while game.current_player(state) is not None and len(values) < 400:
        values += [*game.events(state), game.observe(state, None)]
        values += [game.observe(state, seat) for seat in range(game.players)]
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    values += game.events(state)
    _, rec = play(game, ["random"] * game.players, seed=4)
    values += [rec, *rec.deals, *rec.seats, rec.result and game.outcome(record.replay(rec))]
    for value in values:
        again = pickle.loads(pickle.dumps(value))
        assert again == value and hash(again) == hash(value), type(value).__name__
    assert record.loads(record.dumps(rec)) in {rec}


CARDS = st.lists(st.integers(min_value=0, max_value=51), max_size=6)


@given(
    seed=st.integers(min_value=0),
    decks=st.lists(CARDS, max_size=3),
    dealer=st.none() | st.integers(min_value=0, max_value=5),
    lists=st.booleans(),
)
def test_a_setup_built_from_lists_is_the_setup_built_from_tuples(
    seed: int, decks: list[list[int]], dealer: int | None, lists: bool
) -> None:
    """A setup hashes and compares as its contents, whether its decks come as lists or tuples."""
    given_decks: Any = decks if lists else tuple(tuple(d) for d in decks)
    setup = Setup(seed, given_decks, dealer)
    same = Setup(seed=seed, decks=tuple(tuple(d) for d in decks), dealer=dealer)
    assert setup == same and hash(setup) == hash(same) and {setup, same} == {same}
    again = pickle.loads(pickle.dumps(setup))
    assert again == setup and hash(again) == hash(setup)
    for deal, deck in enumerate(decks):
        assert setup.deck(deal, deck) == tuple(deck)


@given(
    scores=st.lists(st.integers(), max_size=4),
    winners=st.lists(st.integers(0, 3), max_size=4),
    reason=st.text(max_size=5),
)
def test_an_outcome_built_from_lists_is_the_outcome_built_from_tuples(
    scores: list[int], winners: list[int], reason: str
) -> None:
    outcome = Outcome(scores, winners, reason)  # type: ignore[arg-type]
    same = Outcome(tuple(scores), tuple(winners), reason)
    assert outcome == same and hash(outcome) == hash(same)
