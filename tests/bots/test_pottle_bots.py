"""Pottle bots: every level plays legally in every phase, hard is deterministic with a fixed
number of iterations, and each level finds the plain right move in a few set positions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete.bots import Budget, LevelBot, hint
from tapete.game import Game
from tapete.games.pottle import Phase, stack_deck

LEVELS = ("easy", "medium", "hard")
SPECS = (
    "pottle(deals=1, extra_deals=0)",
    "pottle(players=3, deals=1, extra_deals=0, max_same_bid=unlimited)",
    "pottle(players=7, deals=1, extra_deals=0, pot_rule=pagat)",
)


def bot(level: str) -> LevelBot:
    return LevelBot(level, Budget(iterations=4))


def position(
    spec: str, hands: list[str], moves: list[str], dealer: int = 3
) -> tuple[Game[Any, Any], object]:
    """The state after ``moves`` from a deal of ``hands`` (seat 0 first)."""
    game = tapete.load(spec)
    deck = stack_deck(game.params, dealer, hands)
    state = game.new_state(0, decks=[deck], dealer=dealer)
    for move in moves:
        state = game.apply(state, move)
    return game, state


def choice(game: Game[Any, Any], state: object, level: str) -> str:
    seat = game.current_player(state)
    view = game.observe(state, seat)
    action = bot(level).choose(view, game.legal_actions(state), random.Random(1))
    return game.format_action(action)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), spec=st.sampled_from(SPECS))
def test_every_level_plays_legally_in_every_phase(seed: int, spec: str) -> None:
    game = tapete.load(spec)
    rng = random.Random(seed)
    state = game.new_state(seed)
    phases = set()
    while (seat := game.current_player(state)) is not None:
        view = game.observe(state, seat)
        legal = game.legal_actions(state)
        phases.add(view.phase)
        choices = [bot(level).choose(view, legal, rng) for level in LEVELS]
        for action in choices:
            assert action in legal, (view.phase, game.format_action(action))
        state = game.apply(state, rng.choice(choices))
    assert phases == {Phase.BID, Phase.TRUMP, Phase.PLAY}


def test_hard_is_deterministic_with_iterations() -> None:
    game = tapete.load("pottle")
    state = game.new_state(5)
    for _ in range(6):  # bids, trump, and the first plays
        seat = game.current_player(state)
        view = game.observe(state, seat)
        legal = game.legal_actions(state)
        first = bot("hard").decide(view, legal, random.Random(9))
        again = bot("hard").decide(view, legal, random.Random(9))
        assert first == again
        state = game.apply(state, first.action)


# Declarer seat 0 bid 1 (seat 3 also bid 1; the tie goes to the first bidder), no trump, and has
# lost five tricks. Seat 1 leads the K of spades: the ace takes the one trick he needs, and the
# 2 of spades then loses the last trick. Ducking now would leave him discarding the ace.
TAKE_HANDS = [
    "2c 3c 4c 2d 3d As 2s",
    "Ac Kc Qc Ad Kd Ks 9h",
    "5c 7c 9c 5d 7d 5s 3s",
    "6c 8c Tc 6d 8d 6s 4s",
]
TAKE_MOVES = [
    "bid 1", "bid 0", "bid 0", "bid 1", "trump none",
    "2c", "Ac", "5c", "6c",
    "Kc", "7c", "8c", "3c",
    "Qc", "9c", "Tc", "4c",
    "Ad", "5d", "6d", "2d",
    "Kd", "7d", "8d", "3d",
    "Ks", "5s", "6s",
]  # fmt: skip


@pytest.mark.parametrize("level", LEVELS)
def test_declarer_takes_the_trick_he_needs(level: str) -> None:
    game, state = position("pottle", TAKE_HANDS, TAKE_MOVES)
    assert choice(game, state, level) == "play As"


# Declarer seat 0 bid 3 and has two tricks; he leads the Q of spades with 2h left, which loses the
# last trick. Seat 3, last to play, must take the queen with the king to beat the contract.
BEAT_HANDS = [
    "2c 3c 4c Ad Kd Qs 2h",
    "Ac Kc Qc 2d 3d 3s 9h",
    "5c 7c 9c 5d 7d 4s 7h",
    "6c 8c Tc 6d 8d Ks 2s",
]
BEAT_MOVES = [
    "bid 3", "bid 0", "bid 0", "bid 1", "trump none",
    "2c", "Ac", "5c", "6c",
    "Kc", "7c", "8c", "3c",
    "Qc", "9c", "Tc", "4c",
    "2d", "5d", "6d", "Ad",
    "Kd", "3d", "7d", "8d",
    "Qs", "3s", "4s",
]  # fmt: skip


@pytest.mark.parametrize("level", LEVELS)
def test_defender_beats_the_contract(level: str) -> None:
    # Hard solves each drawn deal exactly here: the declarer's last card is hidden, and in a few
    # deals ducking and taking the queen tie, so it is given 50 of them to tell them apart.
    game, state = position("pottle", BEAT_HANDS, BEAT_MOVES)
    seat = game.current_player(state)
    player = LevelBot(level, Budget(iterations=50))
    action = player.choose(game.observe(state, seat), game.legal_actions(state), random.Random(1))
    assert game.format_action(action) == "play Ks"


# The dealer holds the seven top spades: seven tricks with spades trump cannot fail.
SPADES = [
    "2c 3c 4c 2d 3d 2h 3h",
    "5c 6c 7c 5d 6d 5h 6h",
    "8c 9c Tc 8d 9d 8h 9h",
    "As Ks Qs Js Ts 9s 8s",
]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_sure_grand_slam_is_bid(level: str) -> None:
    game, state = position("pottle", SPADES, ["bid 0", "bid 0", "bid 1"])
    assert choice(game, state, level) == "bid 7"


@pytest.mark.parametrize("level", LEVELS)
def test_the_solid_suit_is_trump(level: str) -> None:
    game, state = position("pottle", SPADES, ["bid 0", "bid 0", "bid 1", "bid 7"])
    assert choice(game, state, level) == "trump s"


# Seat 1 holds three top clubs, two top diamonds and the K of spades and bid 3; seat 3's hand takes
# no trick. Outbidding him costs seat 3 nothing (a missed contract only carries the pot over) and
# takes his chance at the pot away; letting the 3 stand gives it to him.
WEAK_HANDS = [
    "2c 3c 4c 2d 3d 2h 2s",
    "Ac Kc Qc Ad Kd Ks 9h",
    "5c 7c 9c 5d 7d 5s 3s",
    "6c 8c Tc 6d 8d 6s 4s",
]


def test_the_search_outbids_rather_than_pass() -> None:
    game, state = position("pottle", WEAK_HANDS, ["bid 1", "bid 3", "bid 0"])
    assert choice(game, state, "hard") == "bid 4"


def test_hints_give_reasons() -> None:
    game, state = position("pottle", TAKE_HANDS, TAKE_MOVES)
    advice = hint(game.observe(state, 0), Budget(iterations=4))
    assert game.format_action(advice.action) == "play As"
    assert "chips on average in " in str(advice.reason)
    assert "possible deals of the hidden cards" in str(advice.reason)
    game, state = position("pottle", SPADES, ["bid 0", "bid 0", "bid 1"])
    advice = hint(game.observe(state, 3), Budget(iterations=4))
    assert str(advice.reason).startswith("bid 7") and "chips on average" in str(advice.reason)


def test_the_search_reads_a_high_bid_as_a_strong_hand() -> None:
    # Seat 3 bid all seven tricks: the deals hard's search draws give him far more high cards
    # than deals drawn around the cards alone.
    from tapete.bots import pottle as pottle_bots
    from tapete.games import pottle

    game, state = position("pottle", SPADES, ["bid 0", "bid 0", "bid 1", "bid 7", "trump s"])
    view = game.observe(state, 0)
    read = pottle_bots.knowledge(view).sampler(view)
    rng = random.Random(2)

    def high(draw: Any) -> float:
        hands = [draw(rng).hands[3] for _ in range(200)]
        return sum(sum(h >> (16 * s + r) & 1 for s in range(4, 8) for r in (13, 14)) for h in hands)

    assert high(read) > 1.3 * high(lambda r: pottle.sample_state(view, r))


def test_the_search_solves_the_last_tricks_exactly() -> None:
    # BEAT_MOVES leave three tricks: the declarer (seat 0, bid 3, two tricks won) cannot make
    # exactly his bid against the best defence once every card is known, so the pot stays.
    from tapete.bots import pottle as pottle_bots
    from tapete.games import pottle

    game, state = position("pottle", BEAT_HANDS, BEAT_MOVES[:-3])
    knowledge = pottle_bots.Knowledge(game.params)
    assert isinstance(state, pottle.State)
    assert knowledge.exact(state, state) == (0.0, 0.0, 0.0, 0.0)
    _, start = position("pottle", BEAT_HANDS, BEAT_MOVES[:5])
    assert isinstance(start, pottle.State)
    assert knowledge.exact(start, start) is None  # seven tricks left: played out instead


# Decisions of hard(iterations=40) with rng Random(seed), and every legal move's deals and mean
# over those 40 deals (a search over all legal moves), computed by the search as it was before
# drawing deals was made faster: the same deals, drawn with the same randomness and weighed
# alike, give the very same numbers. Bids, trump and cards (the last few solved exactly); the
# others' raises read in every one.
SAME_DEALS = [
    (
        "pottle",
        1,
        ["bid 0"],
        "bid 6",
        0.15,
        [
            "bid 0 7 -0.428571",
            "bid 1 12 -0.500000",
            "bid 2 12 -0.333333",
            "bid 3 40 +0.125000",
            "bid 4 40 +0.125000",
            "bid 5 40 +0.000000",
            "bid 6 40 +0.150000",
            "bid 7 40 +0.000000",
        ],
    ),
    (
        "pottle",
        1,
        ["bid 0", "bid 1", "bid 2", "bid 0"],
        "trump h",
        0.3,
        [
            "trump c 12 +0.000000",
            "trump d 12 +0.000000",
            "trump h 40 +0.300000",
            "trump s 40 +0.300000",
            "trump none 12 +0.000000",
        ],
    ),
    (
        "pottle",
        2,
        [
            "bid 0",
            "bid 1",
            "bid 3",
            "bid 0",
            "trump none",
            "play Ad",
            "play 6d",
            "play 4h",
            "play 2d",
            "play Ah",
            "play 6h",
        ],
        "play 9h",
        -0.375,
        ["play 9h 40 -0.375000", "play Jh 40 -0.425000"],
    ),
    (
        "pottle",
        3,
        [
            "bid 0",
            "bid 1",
            "bid 2",
            "bid 3",
            "trump h",
            "play Qh",
            "play 8h",
            "play 3s",
            "play 5h",
            "play Kh",
            "play 9h",
            "play 5d",
            "play Jh",
            "play Qd",
            "play 8d",
            "play Td",
            "play Kd",
            "play Ac",
            "play 2c",
            "play 9c",
            "play 6s",
        ],
        "play 4c",
        -0.225,
        ["play 4c 40 -0.225000", "play 6c 40 -0.225000", "play 2s 7 -0.857143"],
    ),
    (
        "pottle(players=3, deals=1, extra_deals=0)",
        1,
        [
            "bid 0",
            "bid 1",
            "bid 3",
            "trump none",
            "play Ah",
            "play 2h",
            "play 2c",
            "play Qs",
            "play 5s",
            "play 4s",
            "play Ks",
            "play 9s",
            "play Ts",
        ],
        "play Td",
        0.7,
        [
            "play Td 40 +0.700000",
            "play 5h 15 +0.133333",
            "play 7h 24 +0.166667",
            "play 7s 15 +0.133333",
        ],
    ),
    (
        "pottle(players=3, deals=1, extra_deals=0)",
        3,
        ["bid 1", "bid 2", "bid 3"],
        "trump s",
        0.8,
        [
            "trump c 10 +0.600000",
            "trump d 7 +0.285714",
            "trump h 6 +0.666667",
            "trump s 40 +0.800000",
            "trump none 40 +0.700000",
        ],
    ),
    (
        "pottle(players=5, deals=1, extra_deals=0)",
        1,
        ["bid 0", "bid 1", "bid 2", "bid 0"],
        "bid 3",
        0.3,
        [
            "bid 1 9 -0.555556",
            "bid 2 9 -0.555556",
            "bid 3 40 +0.300000",
            "bid 4 40 +0.000000",
            "bid 5 40 +0.000000",
            "bid 6 40 +0.000000",
            "bid 7 40 +0.000000",
        ],
    ),
    (
        "pottle(players=5, deals=1, extra_deals=0)",
        2,
        [
            "bid 0",
            "bid 3",
            "bid 0",
            "bid 1",
            "bid 1",
            "trump none",
            "play Ks",
            "play 3s",
            "play 2s",
            "play 4s",
            "play 8s",
        ],
        "play Ad",
        3.8,
        [
            "play 6c 7 +2.285714",
            "play 2d 8 +2.500000",
            "play 6d 6 +2.000000",
            "play Ad 40 +3.800000",
            "play 5s 8 +2.500000",
            "play As 6 +1.333333",
        ],
    ),
    (
        "pottle(players=5, deals=1, extra_deals=0)",
        3,
        [
            "bid 0",
            "bid 1",
            "bid 2",
            "bid 3",
            "bid 0",
            "trump s",
            "play Ad",
            "play 7d",
            "play Jd",
            "play 5d",
            "play Js",
            "play Ac",
            "play Jc",
            "play 5h",
            "play 8c",
            "play 2c",
            "play Kc",
            "play 9s",
            "play Ts",
            "play 9c",
            "play 4c",
            "play Qd",
            "play Kd",
            "play 7s",
            "play Qs",
            "play 2d",
            "play Kh",
        ],
        "play 2s",
        0.6,
        ["play Td 26 +0.000000", "play 2s 40 +0.600000", "play 4s 40 +0.500000"],
    ),
]


@pytest.mark.parametrize(("spec", "seed", "moves", "move", "mean", "table"), SAME_DEALS)
def test_the_search_draws_the_same_deals_as_before(
    spec: str, seed: int, moves: list[str], move: str, mean: float, table: list[str]
) -> None:
    from tapete.bots import pottle as pottle_bots
    from tapete.bots import search

    game = tapete.load(spec)
    state = game.new_state(seed)
    for text in moves:
        state = game.apply(state, game.parse_action(text))
    view = game.observe(state, game.current_player(state))
    legal = game.legal_actions(state)
    budget = Budget(iterations=40)
    decision = pottle_bots.decide("hard", view, legal, random.Random(seed), budget)
    assert game.format_action(decision.action) == move
    assert decision.reason.args["value"].args["mean"] == mean
    knowledge = pottle_bots.knowledge(view)
    stats = search.search(view, legal, random.Random(seed), budget, knowledge)
    got = [
        f"{game.format_action(a)} {stats.visits[a]} {m:+.6f}"
        for a, m in sorted(stats.means.items())
    ]
    assert got == table


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 7))
def test_the_bidders_model_values_a_hand_as_medium_does(seed: int, players: int) -> None:
    # The table of suit holdings the search weighs its deals by gives medium's own number.
    from tapete.bots import pottle as pottle_bots
    from tapete.games.pottle import DECK

    hand = sum(1 << c for c in random.Random(seed).sample(list(DECK.cards), 7))
    held = pottle_bots._held_at_bid(players)
    unseen = DECK.mask & ~hand
    medium = max(pottle_bots._expected(hand, t, unseen, held) for t in pottle_bots.TRUMPS)
    assert pottle_bots._tricks_at_bid(hand, held) == medium


def test_the_sampler_of_a_view_draws_as_sample_state_does() -> None:
    from tapete.games import pottle

    game, state = position("pottle", SPADES, ["bid 0", "bid 0", "bid 1", "bid 7", "trump s"])
    view = game.observe(state, 0)
    draw, a, b = pottle.sampler(view), random.Random(5), random.Random(5)
    for _ in range(20):
        mine, theirs = draw(a), pottle.sample_state(view, b)
        assert mine.hands == theirs.hands and mine.setup == theirs.setup
        assert mine.deal.deck == theirs.deal.deck and mine.deal.dealt == theirs.deal.dealt


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_with_pagat_every_seat_plays_for_its_own_bid_and_says_so(level: str) -> None:
    # With pot_rule=pagat nobody defends: whoever takes exactly his bid may win the pot, so the
    # bots play every seat's cards for its own bid, but told the players they "defend".
    game, state = position(
        "pottle(pot_rule=pagat)", SPADES, ["bid 0", "bid 1", "bid 2", "bid 7", "trump s"]
    )
    for _ in range(4):
        seat = game.current_player(state)
        decision = bot(level).decide(
            game.observe(state, seat), game.legal_actions(state), random.Random(1)
        )
        assert str(decision.reason) in ("plays for the contract", "the only legal move"), seat
        state = game.apply(state, decision.action)


def test_easys_outbid_is_said_as_an_outbid() -> None:
    # Seat 1 holds no ace, king or long suit (0 tricks) and outbids seat 0's 1 by one, as easy
    # does within two tricks of its count: its reason read "expects about 0.0 tricks" under
    # "bid 2", in a third of easy's bids.
    from tapete.narrate import reason_words

    game, state = position("pottle", SPADES, ["bid 1"])
    decision = bot("easy").decide(
        game.observe(state, 1), game.legal_actions(state), random.Random(1)
    )
    assert game.format_action(decision.action) == "bid 2"
    assert str(decision.reason) == (
        "outbids the high bid of 1: a missed contract costs nothing (0.0 tricks expected)"
    )
    assert reason_words("es", decision.reason) == (
        "supera la puja más alta, 1: fallar el contrato no cuesta nada (espera 0,0 bazas)"
    )
