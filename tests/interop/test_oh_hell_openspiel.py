"""tapete's oh_hell and OpenSpiel's agree on every legal action and score, through the mapping."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete.interop.oh_hell import OhHellShape

SHAPES = [OhHellShape(), OhHellShape(players=3, suits=4, ranks=13, tricks=7)]


@given(st.sampled_from(SHAPES), st.integers(0, 2**32))
def test_the_mapping_is_a_bijection_of_actions(shape: OhHellShape, seed: int) -> None:
    cards = shape.suits * shape.ranks
    action = random.Random(seed).randrange(cards + shape.tricks + 1)
    assert shape.action_to_openspiel(shape.action_from_openspiel(action)) == action


def test_a_shape_that_cannot_be_dealt_is_refused() -> None:
    with pytest.raises(ValueError, match="need more than"):
        OhHellShape(players=4, suits=1, ranks=10, tricks=3)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.spec)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_deals_in_lockstep(shape: OhHellShape, seed: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(seed)
    dealer = rng.randrange(shape.players)
    dealt = rng.sample(range(shape.suits * shape.ranks), shape.players * shape.tricks + 1)
    game = tapete.load(shape.spec)
    setup = shape.setup(dealer, dealt)
    state = game.new_state(decks=setup.decks, dealer=dealer)
    theirs = pyspiel.load_game("oh_hell", shape.openspiel_params()).new_initial_state()
    for action in [shape.tricks, dealer, *dealt]:
        theirs.apply_action(action)
    while not theirs.is_terminal():
        assert game.current_player(state) == theirs.current_player()
        legal = game.legal_actions(state)
        assert sorted(shape.action_to_openspiel(a) for a in legal) == theirs.legal_actions()
        action = rng.choice(legal)
        state = game.apply(state, action)
        theirs.apply_action(shape.action_to_openspiel(action))
    outcome = game.outcome(state)
    assert outcome is not None
    assert list(outcome.scores) == [round(r) for r in theirs.returns()]
