"""Poch bots: legal in every phase, deterministic when asked, sensible when the play is clear."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from support import random_playout
from tapete import bots
from tapete.games import poch
from tapete.match import play

LEVELS = ["easy", "medium", "hard(iterations=4)"]


@pytest.mark.parametrize(
    "spec",
    [
        "poch(players=3, rounds=2)",
        "poch(rounds=2)",
        "poch(players=5, chips=4, bet_cap=none, rounds=2)",
        "poch(players=3, chips=5, deal=all, all_pass=showdown, shed_leader=poker_winner, rounds=1)",
        "poch(players=6, chips=3, bowl_funding=player_antes, sequence_rule=trump_789, rounds=2)",
    ],
)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_level_plays_whole_matches_legally(spec: str, seed: int) -> None:
    game = tapete.load(spec)
    seats = ["easy", "medium", "hard(iterations=2)", "random", "medium", "easy"][: game.players]
    final, rec = play(game, seats, seed=seed)  # play() raises on any illegal choice
    assert game.outcome(final) is not None and rec.result is not None


@pytest.mark.parametrize("spec", ["poch(players=3)", "poch(players=6, deal=all, bet_cap=none)"])
def test_every_level_answers_every_decision_of_a_random_playout(spec: str) -> None:
    game = tapete.load(spec)
    path = random_playout(game, 3)
    rng = random.Random(0)
    for state, _ in rng.sample(path[:-1], min(8, len(path) - 1)):
        view, legal = game.observe(state, game.current_player(state)), game.legal_actions(state)
        for level in LEVELS:
            assert bots.load(level).choose(view, legal, random.Random(1)) in legal


def deal(hands: list[str], upcard: str = "7d", actions: tuple[str, ...] = ()) -> tuple[Any, Any]:
    """A four-player round with seat 0 (the dealer's left) first, after ``actions``."""
    game = tapete.load("poch")
    state = game.new_state(decks=[poch.stack_deck(game.params, 3, hands, upcard)], dealer=3)
    for text in actions:
        state = game.apply(state, text)
    return game, state


def choose(level: str, game: Any, state: Any) -> str:
    seat = game.current_player(state)
    action = bots.load(level).choose(
        game.observe(state, seat), game.legal_actions(state), random.Random(0)
    )
    return str(game.format_action(action))


HANDS = ["Ac Ad Ah As 7c", "8c 9d Th Js Qc", "8d 9h Ts Jc Qd", "8h 9s Tc Jd Qh"]


@pytest.mark.parametrize("level", LEVELS)
def test_four_aces_bet_and_never_fold(level: str) -> None:
    game, state = deal(HANDS)
    assert choose(level, game, state).startswith("bet")
    game, state = deal(HANDS[1:] + HANDS[:1], actions=("bet 2", "pass", "pass"))
    assert choose(level, game, state) != "pass"


@pytest.mark.parametrize("level", LEVELS)
def test_no_set_folds_to_a_big_bet_after_a_raise(level: str) -> None:
    # Seat 0 bet everything and seat 1 called: seat 2, holding nothing, folds.
    hands = ["Ac Ad Ah As 7h", "Kc Kd Kh 9c 9s", "7c 9d Jh Ks 8s", "Qc Qd Qh 8c 8d"]
    game, state = deal(hands, actions=("bet 10", "call"))
    assert game.current_player(state) == 2
    assert choose(level, game, state) == "pass"


@pytest.mark.parametrize("level", LEVELS)
def test_a_lead_that_empties_the_hand_wins_the_race(level: str) -> None:
    # Everyone passes; seat 0 leads 7h and its own 8h 9h Th Jh follow: the round is won at once.
    hands = ["7h 8h 9h Th Jh", "7c 8c 9c Tc Jc", "Qh Kh Ah 7s 8s", "9s Ts Js Qs Ks"]
    game, state = deal(hands, actions=("pass", "pass", "pass", "pass"))
    assert game.observe(state, 0).phase == poch.Phase.SHEDDING
    assert choose(level, game, state) == "play 7h"


def test_hard_is_deterministic_with_an_iteration_budget() -> None:
    game = tapete.load("poch")
    state = game.new_state(seed=4)
    bot = bots.load("hard(iterations=4)")
    for _ in range(2):  # a poker decision, then (all passing) a lead
        view, legal = game.observe(state, game.current_player(state)), game.legal_actions(state)
        assert bot.choose(view, legal, random.Random(3)) == bot.choose(
            view, legal, random.Random(3)
        )
        while game.observe(state, None).phase == poch.Phase.POKER:
            state = game.apply(state, "pass")


def test_hints_name_the_move_and_why() -> None:
    game = tapete.load("poch")
    state = game.new_state(seed=2)
    for phase in (poch.Phase.POKER, poch.Phase.SHEDDING):
        view = game.observe(state, game.current_player(state))
        assert view.phase == phase
        hint = bots.hint(view, bots.Budget(iterations=4))
        assert hint.action in game.legal_actions(state)
        assert "deals of the hidden cards" in str(hint.reason) and game.format_action(
            hint.action
        ) in str(hint.reason)
        while game.observe(state, None).phase == poch.Phase.POKER:
            state = game.apply(state, "pass")


def test_hard_passes_a_hand_without_a_set_when_opening() -> None:
    game, state = deal(["7c 9d Jh Ks 8s", "Ac Ad Ah As 7h", "Kc Kd Kh 9c 9s", "Qc Qd Qh 8c 8d"])
    view, legal = game.observe(state, 0), game.legal_actions(state)
    bot = bots.LevelBot("hard", bots.Budget(iterations=300))
    choices = [bot.choose(view, legal, random.Random(seed)) for seed in range(10)]
    assert choices.count(poch.PASS) >= 7


def test_the_search_plays_the_race_out_as_the_engine_does() -> None:
    # The search's playout runs the race on bare card masks; it must end exactly where the
    # engine, every seat leading as medium does from its own view, ends.
    from tapete.bots import poch as poch_bots

    game = tapete.load("poch")
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        while game.observe(state, None).phase == poch.Phase.POKER:
            seat = game.current_player(state)
            view = game.observe(state, seat)
            state = game.apply(
                state, bots.load("medium").choose(view, game.legal_actions(state), rng)
            )
        for _ in range(rng.randrange(3)):
            if state.phase == poch.Phase.SHEDDING:
                state = poch.apply(state, rng.choice(poch.legal_actions(state)))
        if state.phase != poch.Phase.SHEDDING:
            continue
        knowledge = poch_bots.Knowledge(state.params)
        end, number = state, state.rnd.number
        while end.phase != poch.Phase.OVER and end.rnd.number == number:
            legal = poch.legal_actions(end)
            end = poch.apply(end, poch_bots._playout_action(end, legal))
        assert knowledge.rollout(state, state, rng) == pytest.approx(knowledge.returns(state, end))
        checked += 1
    assert checked >= 20


def test_hard_calls_a_small_bet_into_a_big_pot_with_a_high_pair() -> None:
    # Seat 0 bet 1 into a Pinke and Poch bowl of a few chips: aces are worth far more than 1.
    hands = ["7c 9d Jh Ks 8s", "Ac Ad 9h Tc 8d", "7h 9s Th Qc 8h", "Qd Qh 7s 9c Td"]
    game, state = deal(hands, actions=("bet 1",))
    assert game.current_player(state) == 1
    view, legal = game.observe(state, 1), game.legal_actions(state)
    bot = bots.LevelBot("hard", bots.Budget(iterations=200))
    choices = [bot.choose(view, legal, random.Random(seed)) for seed in range(5)]
    assert poch.PASS not in choices


def test_a_big_opening_bet_is_read_as_a_strong_hand() -> None:
    # Seat 1 reads seat 0's opening bet: trips against a low pair, with a bet of 1 or of 8.
    from tapete.bots import poch as poch_bots

    hands = ["7c 9d Jh Ks 8s", "Ac Ad 9h Tc 8d", "7h 9s Th Qc 8h", "Qd Qh 7s 9c Td"]
    trips, low_pair = {0: 0.95}, {0: 0.35}

    def odds(bet: str) -> float:
        game, state = deal(hands, actions=(bet,))
        view = game.observe(state, 1)
        return poch_bots._likelihood(view, trips) / poch_bots._likelihood(view, low_pair)

    assert odds("bet 8") > 3 * odds("bet 1") > 3


def test_hard_bluffs_now_and_then_with_nothing() -> None:
    # No set, first to speak: mostly a pass, but now and then the smallest bet, said to be a bluff.
    from tapete.bots import poch as poch_bots

    game, state = deal(["7c 9d Jh Ks 8s", "Ac Ad Ah As 7h", "Kc Kd Kh 9c 9s", "Qc Qd Qh 8c 8d"])
    view, legal = game.observe(state, 0), game.legal_actions(state)
    budget = bots.Budget(iterations=40)
    decisions = [poch_bots.decide("hard", view, legal, random.Random(s), budget) for s in range(40)]
    bluffs = [d for d in decisions if "(a bluff)" in str(d.reason)]
    assert 1 <= len(bluffs) <= 15
    assert {d.action for d in bluffs} == {poch.bet_action(1)}
    assert sum(d.action == poch.PASS for d in decisions) >= 25


def test_a_bluff_hinted_names_its_bet_once() -> None:
    # The table shows "hint: bet 1 — " and then the reason, said after the bet it names.
    from tapete.bots import poch as poch_bots
    from tapete.narrate import reason_words

    game, state = deal(["7c 9d Jh Ks 8s", "Ac Ad Ah As 7h", "Kc Kd Kh 9c 9s", "Qc Qd Qh 8c 8d"])
    view, legal = game.observe(state, 0), game.legal_actions(state)
    budget = bots.Budget(iterations=40)
    decisions = [poch_bots.decide("hard", view, legal, random.Random(s), budget) for s in range(40)]
    bluff = next(d for d in decisions if "(a bluff)" in str(d.reason))
    told = bots.said_after(bluff.reason, game.format_action(bluff.action))
    assert str(told).startswith("worth +") or str(told).startswith("worth -"), str(told)
    assert str(told).endswith(" of the hidden cards (a bluff)") and "bet 1" not in str(told)
    assert "bet" not in reason_words("es", told) and "apost" not in reason_words("es", told)


def test_the_race_draws_every_deal_the_view_allows_alike() -> None:
    # The bets are read in the poker round only: in the race the search's deals are the view's
    # plain draws, whatever was bet.
    from tapete.bots import poch as poch_bots

    game = tapete.load("poch")
    state = game.new_state(seed=2)
    medium, rng = bots.load("medium"), random.Random(0)
    while game.observe(state, None).phase == poch.Phase.POKER:
        view = game.observe(state, game.current_player(state))
        state = game.apply(state, medium.choose(view, game.legal_actions(state), rng))
    view = game.observe(state, state.turn)
    assert view.phase == poch.Phase.SHEDDING
    assert any(seat != state.turn for seat, _ in view.poker)
    draw = poch_bots.Knowledge(state.params).sampler(view)
    for seed in range(5):
        plain = poch.sample_state(view, random.Random(seed))
        assert draw(random.Random(seed)).hands == plain.hands


@pytest.mark.parametrize(
    ("hands", "es", "pt"),
    [
        (HANDS, "póquer de ases: apuesta por ella", "quadra de ases: aposta nela"),
        (
            ["Kc Kd Kh 7c 7h", *HANDS[1:]],
            "trío de reyes: apuesta por ella",
            "trinca de reis: aposta nela",
        ),
        (
            ["Kc Kd 7h 9c 8s", *HANDS[1:]],
            "pareja de reyes: apuesta por ella",
            "par de reis: aposta nela",
        ),
        (
            HANDS[1:] + HANDS[:1],
            "carta alta Q J 10 9 8: nada por lo que apostar",
            "carta alta Q J 10 9 8: nada em que apostar",
        ),
    ],
)
def test_easys_reason_names_its_hand_in_the_players_language(
    hands: list[str], es: str, pt: str
) -> None:
    # The hand's name was English text inside the reason: "three kings: apuesta por ella", and
    # a high card's ten the notation's T: "carta alta Q J T 9 8".
    from tapete.narrate import reason_words

    game, state = deal(hands)
    decision = bots.LevelBot("easy").decide(
        game.observe(state, 0), game.legal_actions(state), random.Random(0)
    )
    assert reason_words("es", decision.reason) == es
    assert reason_words("pt", decision.reason) == pt
