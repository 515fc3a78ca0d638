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


@pytest.mark.parametrize(
    ("fields", "refused"),
    [
        ({"players": 8, "tricks": 1}, "players=8 is not accepted"),
        ({"players": 0}, "players=0 is not accepted"),
        ({"suits": 5}, "suits=5 is not accepted"),
        ({"ranks": 14}, "ranks=14 is not accepted"),
        ({"tricks": 0}, r"schedule=\[0\] is not accepted"),
    ],
)
def test_a_shape_tapete_does_not_play_is_refused_naming_the_field(
    fields: dict[str, int], refused: str
) -> None:
    with pytest.raises(tapete.SpecError, match=refused):
        OhHellShape(**fields)
    with pytest.raises(TypeError, match="players is a whole number, not True"):
        OhHellShape(players=True, tricks=1)


@given(st.sampled_from(SHAPES), st.integers(-(2**40), 2**40))
def test_a_number_outside_the_shape_is_refused_not_mapped_to_another(
    shape: OhHellShape, number: int
) -> None:
    """OpenSpiel's actions are the cards, then bids 0 to ``tricks``; -1 used to map to the ace
    of spades and a number past the bids to a bid no hand allows."""
    cards = shape.suits * shape.ranks
    if 0 <= number <= cards + shape.tricks:
        assert shape.action_to_openspiel(shape.action_from_openspiel(number)) == number
    else:
        with pytest.raises(ValueError, match=f"OpenSpiel action {number} is not in this shape"):
            shape.action_from_openspiel(number)
    legal = set(tapete.load(shape.spec).deck.cards) | {128 + n for n in range(shape.tricks + 1)}
    if number not in legal:
        with pytest.raises(ValueError):
            shape.action_to_openspiel(number)


@pytest.mark.parametrize("dealer", [-1, 4, True, 1.0, "0"])
def test_a_dealer_not_at_the_table_is_refused_by_setup(dealer: object) -> None:
    """``setup`` once made a Setup with any dealer (-1, 4 at a table of four), refused only
    later by ``new_state``, after a deck laid out for the wrong dealer."""
    shape = OhHellShape()
    with pytest.raises(ValueError, match="is not a seat of this shape: 0 to 3"):
        shape.setup(dealer, list(range(37)))  # type: ignore[arg-type]
    assert shape.setup(3, list(range(37))).dealer == 3


@pytest.mark.parametrize("number", [True, False, 1.0, "1", None])
def test_what_is_not_a_whole_number_is_no_card_or_action(number: object) -> None:
    """``True`` was mapped as card 1 (the 5 of diamonds) and a float failed on Python's
    words: each mapping names what it takes."""
    shape = OhHellShape()
    for mapping in (
        shape.card_from_openspiel,
        shape.card_to_openspiel,
        shape.action_from_openspiel,
        shape.action_to_openspiel,
    ):
        with pytest.raises(TypeError, match="is a whole number, not"):
            mapping(number)  # type: ignore[arg-type]


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
