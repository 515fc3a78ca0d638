"""Pocha and Oh Hell bots: legal in every phase, deterministic when asked, sensible when clear."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete import bots
from tapete.bots import pocha as pocha_bots
from tapete.games import pocha
from tapete.match import play


@pytest.mark.parametrize(
    "spec",
    [
        "pocha(schedule=[1, 4, 10])",
        "oh_hell(schedule=[2, 6])",
        "pocha(players=3, schedule=[3], must_underruff=true)",
    ],
)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_level_plays_whole_matches_legally(spec: str, seed: int) -> None:
    game = tapete.load(spec)
    seats = ["easy", "medium", "hard(iterations=2)", "random"][: game.players]
    final, rec = play(game, seats, seed=seed)  # play() raises on any illegal choice
    assert game.outcome(final) is not None and rec.result is not None


def test_unknown_levels_and_options_are_refused() -> None:
    with pytest.raises(tapete.SpecError, match="the levels are random, easy, medium, hard, expert"):
        bots.load("master")
    with pytest.raises(tapete.SpecError, match="'hard\\(' is not a bot: the levels are random"):
        bots.load("hard(")
    with pytest.raises(tapete.SpecError, match="only hard and expert take options"):
        bots.load("easy(ms=3)")
    with pytest.raises(tapete.SpecError, match=r"hard has no option foo, msec; its options: ms=N"):
        bots.load("hard(msec=300, foo=1)")
    with pytest.raises(tapete.SpecError, match="rollout is informed"):
        bots.load("hard(rollout=greedy)")
    with pytest.raises(tapete.SpecError, match="prior is informed"):
        bots.load("expert(prior=some)")


@pytest.mark.parametrize("option", ["iterations", "ms"])
@pytest.mark.parametrize("value", ["true", "false", "0", "-1", '"2"', "fast"])
def test_a_search_budget_is_a_positive_whole_number_not_true(option: str, value: str) -> None:
    """true is no number of iterations (nor of milliseconds), though Python counts it as 1."""
    with pytest.raises(tapete.SpecError, match=f"{option} is a positive number"):
        bots.load(f"hard({option}={value})")


def test_expert_is_the_search_with_a_longer_budget() -> None:
    expert = bots.load("expert")
    assert isinstance(expert, bots.LevelBot)
    assert (expert.level, expert.budget.ms, expert.name) == ("hard", 3000, "expert")
    plain = bots.load("hard(iterations=5, rollout=random, prior=none)")
    assert isinstance(plain, bots.LevelBot)
    assert plain.budget == bots.Budget(500, 5, "random", "none")


def first_play(spec: str, hands: list[str], upcard: str, bids: list[str]) -> tuple[Any, Any]:
    game = tapete.load(spec)
    order = pocha.stack_deck(game.params, 3, hands, upcard)
    state = game.new_state(decks=[order], dealer=3)
    for b in bids:
        state = game.apply(state, b)
    return game, state


@pytest.mark.parametrize("level", ["easy", "medium", "hard(iterations=8)"])
def test_needing_a_trick_it_takes_the_sure_one(level: str) -> None:
    # Seat 0 bid 1 and leads; its As de oros cannot lose (trump bastos, nobody void in oros).
    hands = ["1o 4c", "5o 6c", "7o 2c", "10o 5c"]
    game, state = first_play("pocha(schedule=2)", hands, "7b", ["bid 1", "bid 0", "bid 0", "bid 0"])
    action = bots.load(level).choose(
        game.observe(state, 0), game.legal_actions(state), random.Random(0)
    )
    assert game.format_action(action) == "play 1o"


@pytest.mark.parametrize("level", ["easy", "medium", "hard(iterations=8)"])
def test_having_its_tricks_it_ducks(level: str) -> None:
    # Follow-suit-only rules; seat 3 bid 0 and the 3 de oros leads the trick: it plays under it.
    hands = ["3o 4c", "5o 6c", "7o 2c", "1o 4o"]
    game, state = first_play(
        "pocha(schedule=2, dealer_hook=false, obligation=follow)",
        hands,
        "7b",
        ["bid 1", "bid 0", "bid 0", "bid 0", "play 3o", "play 5o", "play 7o"],
    )
    action = bots.load(level).choose(
        game.observe(state, 3), game.legal_actions(state), random.Random(0)
    )
    assert game.format_action(action) == "play 4o"


@pytest.mark.parametrize("level", ["easy", "medium", "hard(iterations=8)"])
@pytest.mark.parametrize(
    ("others", "bid"),
    [
        (["1b", "3b", "12b"], "bid 0"),  # the three best trumps: its card cannot win
        (["4c", "5c", "6c"], "bid 1"),  # it leads, nobody else holds a trump: most cards win
    ],
)
def test_in_ronda_india_it_bids_from_the_cards_it_sees(
    level: str, others: list[str], bid: str
) -> None:
    # Blind one-card hands: seat 0 leads, sees the other three cards and not its own (7o).
    spec = "pocha(schedule=1, ronda_india=true)"
    game = tapete.load(spec)
    order = pocha.stack_deck(game.params, 3, ["7o", *others], "7b")
    state = game.new_state(decks=[order], dealer=3)
    view = game.observe(state, 0)
    assert view.hand is None
    action = bots.load(level).choose(view, game.legal_actions(state), random.Random(0))
    assert game.format_action(action) == bid


def test_hard_is_deterministic_with_an_iteration_budget() -> None:
    game = tapete.load("pocha(schedule=[5])")
    state = game.new_state(seed=4)
    view, legal = game.observe(state, game.current_player(state)), game.legal_actions(state)
    bot = bots.load("hard(iterations=6)")
    assert bot.choose(view, legal, random.Random(3)) == bot.choose(view, legal, random.Random(3))


def test_a_hint_names_the_move_and_why() -> None:
    game = tapete.load("pocha(schedule=[4])")
    state = game.new_state(seed=2)
    view = game.observe(state, game.current_player(state))
    hint = bots.hint(view, bots.Budget(iterations=6))
    assert hint.action in game.legal_actions(state)
    assert "deals of the hidden cards" in str(hint.reason) and game.format_action(
        hint.action
    ) in str(hint.reason)


@pytest.mark.parametrize(("players", "medium"), [(4, False), (5, True)])
def test_at_five_the_search_plays_its_playouts_out_with_medium_cards(
    players: int, medium: bool
) -> None:
    # a card decision's playout: random cards at four players, medium's (the same whatever the
    # dice) at five; the same deal played out with many dice tells them apart
    game = tapete.load(f"pocha(players={players}, max_players=8, schedule=[5])")
    state = game.new_state(seed=7)
    mover = bots.load("medium")
    while state.phase != pocha.Phase.PLAY:
        seat = game.current_player(state)
        view = game.observe(state, seat)
        state = game.apply(state, mover.choose(view, game.legal_actions(state), random.Random(0)))
    view = game.observe(state, game.current_player(state))
    knowledge = pocha_bots.knowledge(view)
    outcomes = {tuple(knowledge.rollout(state, state, random.Random(d))) for d in range(30)}
    assert (len(outcomes) == 1) is medium


def test_hard_reads_a_big_bid_into_its_deals() -> None:
    # Oh Hell, 9 tricks: the first seat to speak bids 5, a bid few hands make. The deals the
    # search draws for the next seat give the bidder its share of aces and trumps and more:
    # medium's estimate of the bidder's hand is higher in them than in deals drawn blind.
    game = tapete.load("oh_hell(players=4, suits=4, ranks=10, schedule=9)")
    state = game.new_state(seed=2)
    bidder = game.current_player(state)
    assert bidder is not None
    state = game.apply(state, pocha.BID + 5)
    view = game.observe(state, game.current_player(state))
    order, deck = pocha.card_order(view.params), pocha.deck(view.params).mask

    def bidder_estimate(world: pocha.State) -> float:
        hand = world.deal.dealt[bidder]
        return pocha_bots._estimate(hand, view.trump, order, deck & ~hand, 4, careful=True)

    rng = random.Random(0)
    read = pocha_bots.knowledge(view).sampler(view)
    blind = pocha_bots._sampler(view)
    mean_read = sum(bidder_estimate(read(rng)) for _ in range(400)) / 400
    mean_blind = sum(bidder_estimate(blind(rng)) for _ in range(400)) / 400
    assert mean_read > mean_blind + 1.0
    assert view.hand is not None and view.seat is not None
    assert all(read(rng).hands[view.seat] == view.hand.mask for _ in range(20))


@pytest.mark.parametrize(
    ("level", "card", "why"), [("easy", "2h", "ducks"), ("medium", "Ad", "wants a trick")]
)
def test_over_its_bid_in_oh_hell_the_reason_is_the_aim_it_played_for(
    level: str, card: str, why: str
) -> None:
    # Seat 0 bid 0 and took the first trick with Ac: its bid is lost, and in Oh Hell every trick
    # is a point, so medium leads its sure Ad to win again. It said "ducks" while doing so.
    hands = ["Ac Ad 2h", "3c 4d 5h", "5c 6d 7h", "7c 8d 9h"]
    game, state = first_play(
        "oh_hell(players=4, schedule=3)",
        hands,
        "2s",
        ["bid 0", "bid 0", "bid 0", "bid 1", "play Ac", "play 3c", "play 5c", "play 7c"],
    )
    decision = bots.LevelBot(level).decide(
        game.observe(state, 0), game.legal_actions(state), random.Random(0)
    )
    assert game.format_action(decision.action) == f"play {card}"
    assert str(decision.reason) == why


def test_a_hooked_dealers_reason_says_why_it_bids_off_its_count() -> None:
    # The dealer holds two aces (2 tricks to easy) but the bids may not add up to the 2 tricks:
    # it bids 1, and its reason said only "expects about 2.0 tricks".
    from tapete.narrate import reason_words

    hands = ["5o 6c", "7o 2c", "4o 5c", "1o 1c"]
    game, state = first_play("pocha(schedule=2)", hands, "7b", ["bid 0", "bid 0", "bid 0"])
    decision = bots.LevelBot("easy").decide(
        game.observe(state, 3), game.legal_actions(state), random.Random(0)
    )
    assert game.format_action(decision.action) == "bid 1"
    assert str(decision.reason) == "expects about 2.0 tricks; the dealer's hook forbids 2"
    assert reason_words("pt", decision.reason) == (
        "espera umas 2,0 vazas; o gancho de quem dá proíbe 2"
    )
