"""The conformance suite every registered game gets for free (docs/adding-a-game.md).

Seeded random playouts to the end, checking the contract at every step: one actor or a finished
match; legal actions non-empty, each one applies and round-trips as text; other actions are
refused with a rule code and change nothing; states are values; views depend only on what the
seat may know (``sample_state`` of a view observes back to the same view); records round-trip
and replay to the same result; the same seed gives the same match; every bot level plays every
spec.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from conformance_specs import SPECS
from support import fingerprint, random_playout
from tapete import bots, record
from tapete.match import play

ALL_SPECS = [spec for name in sorted(SPECS) for spec in SPECS[name]]
LEVELS = ["random", "easy", "medium", "hard(iterations=2)"]
FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_registered_game_has_conformance_specs() -> None:
    assert set(SPECS) == set(tapete.games())


def test_every_spec_is_canonical_and_loads() -> None:
    for spec in ALL_SPECS:
        game = tapete.load(spec)
        assert tapete.load(game.spec) == game


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_playout_contract(spec: str, seed: int) -> None:
    game = tapete.load(spec)
    path = random_playout(game, seed)
    seen: set[int] = set()
    for state, _ in path:
        seen.update(game.legal_actions(state))
    for state, action in path:
        seat = game.current_player(state)
        if seat is None:
            assert game.outcome(state) is not None
            assert game.legal_actions(state) == []
            assert game.why_illegal(state, next(iter(seen))) is not None
            break
        assert game.outcome(state) is None
        assert 0 <= seat < game.players
        legal = game.legal_actions(state)
        assert legal and action in legal
        assert len(set(legal)) == len(legal)
        before = fingerprint(state)
        for a in legal:
            assert game.why_illegal(state, a) is None
            assert game.parse_action(game.format_action(a)) == a
        game.apply(state, legal[0])
        for a in sorted(seen - set(legal))[:8]:
            error = game.why_illegal(state, a)
            assert isinstance(error, tapete.IllegalActionError), game.format_action(a)
            assert error.rule and str(error)
            with pytest.raises(tapete.IllegalActionError) as raised:
                game.apply(state, a)
            assert raised.value.rule == error.rule
        assert fingerprint(state) == before, "apply or why_illegal changed a state"


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False))
def test_views_depend_only_on_what_the_seat_may_know(
    spec: str, seed: int, pick: random.Random
) -> None:
    game = tapete.load(spec)
    path = random_playout(game, seed)
    for state, _ in pick.sample(path, min(len(path), 5)):
        for seat in [*range(game.players), None]:
            view = game.observe(state, seat)
            assert "Setup" not in repr(fingerprint(view)), "a view holds chance inputs"
            if seat is None:
                continue
            sampled = game.sample_state(view, random.Random(pick.random()))
            assert fingerprint(game.observe(sampled, seat)) == fingerprint(view)
            assert game.legal_actions(sampled) == game.legal_actions(state) or (
                game.current_player(state) != seat
            )


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_records_round_trip_and_replay(spec: str, seed: int) -> None:
    game = tapete.load(spec)
    final, rec = play(game, ["random"] * game.players, seed=seed)
    text = record.dumps(rec)
    again = record.loads(text)
    assert again == rec
    assert record.dumps(again) == text
    replayed = record.replay(again)
    assert game.outcome(replayed) == game.outcome(final)
    assert fingerprint(game.observe(replayed, None)) == fingerprint(game.observe(final, None))
    assert rec.result is not None and list(rec.result["scores"]) == list(
        game.outcome(final).scores  # type: ignore[union-attr]
    )


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_same_seed_same_match(spec: str) -> None:
    game = tapete.load(spec)
    one = play(game, ["random"] * game.players, seed=11)[1]
    two = play(game, ["random"] * game.players, seed=11)[1]
    other = play(game, ["random"] * game.players, seed=12)[1]
    assert one == two
    assert one.deals[0].deck != other.deals[0].deck


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_given_deck_orders_are_used_and_checked(spec: str) -> None:
    game = tapete.load(spec)
    cards = game.deck.cards
    order = tuple(reversed(cards))
    state = game.new_state(3, decks=[order])
    deal = next(e for e in game.events(state) if e.type == "deal")
    assert [game.parse_card(c) for c in deal.data["deck"]] == list(order)
    with pytest.raises(tapete.SpecError, match="deck order"):
        game.new_state(3, decks=[order[1:]])


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("spec", ALL_SPECS)
def test_every_bot_level_plays_every_spec(spec: str, level: str) -> None:
    """Every seat played by one level from the first deal into the third (or to the end), each
    choice legal. The hard search makes the first decision of each seat only: its exact endgame
    takes minutes at tables of six or seven, and tests/bots plays whole matches with it."""
    game = tapete.load(spec)
    bot = bots.load(level)
    rng = random.Random(spec)
    state = game.new_state(seed=3)
    deals = decisions = 0
    most = game.players if level.startswith("hard") else 10_000
    while (seat := game.current_player(state)) is not None and decisions < most:
        legal = game.legal_actions(state)
        action = bot.choose(game.observe(state, seat), legal, rng)
        assert action in legal, (seat, game.format_action(action))
        state = game.apply(state, action)
        decisions += 1
        deals += any(e.type == "deal" for e in game.events(state))
        if deals == 2:
            break


MALFORMED = (-1, -2, -128, -(2**31), 2**31, 2**63, 10**30, -(10**30), 255, 256, 4096)


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1), noise=st.lists(st.integers(-(2**70), 2**70), max_size=6))
def test_out_of_range_actions_are_refused_by_rule_and_change_nothing(
    spec: str, seed: int, noise: list[int]
) -> None:
    """Negative, huge and random ints are rule errors from ``why_illegal`` and ``apply`` alike,
    at every decision and after the end, never a crash; the state stays as it was."""
    game = tapete.load(spec)
    rng = random.Random(seed)
    path = random_playout(game, seed)
    states = [state for state, _ in path]
    for state in [*rng.sample(states, min(6, len(states))), states[-1]]:
        legal = set(game.legal_actions(state))
        before = fingerprint(state)
        tries = [*MALFORMED, *noise, *(rng.randrange(-300, 70_000) for _ in range(6))]
        for action in (a for a in tries if a not in legal):
            error = game.why_illegal(state, action)
            assert isinstance(error, tapete.IllegalActionError), action
            assert error.rule and str(error)
            with pytest.raises(tapete.IllegalActionError) as raised:
                game.apply(state, action)
            assert raised.value.rule == error.rule
        assert fingerprint(state) == before, "a refused action changed the state"
