"""Tute for 2 and 4 players: one test per rule clause of docs/rules/tute.md, the worked
examples T2-1..T2-5 and T4-1..T4-3, every option, the views and ``sample_state``.

Positions are set up with stacked decks (``tute.stack_deck``): seat 0 is mano unless a test says
otherwise. Seats in the worked examples: P1..P4 are seats 0..3, team A is seats 0 and 2.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from support import fingerprint, random_playout
from tapete import bots, record, tricks
from tapete.cards import SPANISH_40, parse_card, parse_cards
from tapete.errors import IllegalActionError, InvalidActionError, SpecError
from tapete.game import Game
from tapete.games import tute
from tapete.games.tute import ORDER, POINTS, SING, SWAP, TUTE, State
from tapete.match import play

# --- helpers ---------------------------------------------------------------------------------


def deal(
    spec: str,
    hands: list[str],
    upcard: str | None = None,
    stock: str = "",
    dealer: int | None = None,
) -> tuple[Game[Any, Any], State]:
    """A game and its first state, dealt from a stacked deck (seat 0 is mano by default)."""
    game = tapete.load(spec)
    dealer = game.players - 1 if dealer is None else dealer
    order = tute.stack_deck(game.params, dealer, hands, upcard, stock)
    return game, game.new_state(decks=[order], dealer=dealer)


def act(game: Game[Any, Any], state: State, *actions: str) -> State:
    for action in actions:
        state = game.apply(state, action)
    return state


def legal(game: Game[Any, Any], state: State) -> set[str]:
    return {game.format_action(a) for a in game.legal_actions(state)}


def plays(game: Game[Any, Any], state: State) -> set[str]:
    return {t.removeprefix("play ") for t in legal(game, state) if t.startswith("play ")}


def refused(game: Game[Any, Any], state: State, action: str) -> str:
    """The rule code that refuses ``action``; apply raises the same and changes nothing."""
    before = fingerprint(state)
    error = game.why_illegal(state, action)
    assert isinstance(error, IllegalActionError), f"{action} is legal"
    with pytest.raises(IllegalActionError) as raised:
        game.apply(state, action)
    assert raised.value.rule == error.rule and str(error)
    assert fingerprint(state) == before
    return error.rule


def hand(state: State, seat: int) -> set[str]:
    return {tapete.format_card(c) for c in tapete.CardSet(state.hands[seat])}


def cards(text: str) -> set[str]:
    return set(text.split())


def event_types(game: Game[Any, Any], state: State) -> list[str]:
    return [e.type for e in game.events(state)]


def finish(game: Game[Any, Any], state: State, seed: int = 0) -> State:
    rng = random.Random(seed)
    while game.current_player(state) is not None:
        state = game.apply(state, rng.choice([a for a in game.legal_actions(state) if a < SWAP]))
    return state


# The "runaway" deal: trump bastos (4b turned). Seat 0 holds the best espadas and the oros pair and
# draws the bastos (its trump pair comes by the 4th draw); seat 1 holds copas and draws oros, so
# with the policy of ``drive`` seat 0 wins every trick of the stock phase.
RUNAWAY = ["12o 11o 1e 3e 12e 11e 10e 7e", "1c 3c 12c 11c 10c 7c 6c 5c"]
DRAWS_0 = ["1b", "3b", "12b", "11b", "10b", "7b", "6b", "5b", "6e", "5e", "4e", "2b"]
DRAWS_1 = ["4c", "2c", "1o", "3o", "10o", "7o", "6o", "5o", "4o", "2o", "2e"]
RUNAWAY_STOCK = " ".join(c for pair in itertools.zip_longest(DRAWS_0, DRAWS_1) for c in pair if c)
KEEP = set(parse_cards("12o 11o 12b 11b"))


def runaway(spec: str = "tute") -> tuple[Game[Any, Any], State]:
    return deal(spec, RUNAWAY, "4b", RUNAWAY_STOCK)


def runaway_after(done: int, spec: str = "tute") -> tuple[Game[Any, Any], State]:
    game, state = runaway(spec)
    return game, drive(game, state, done)


def drive(game: Game[Any, Any], state: State, done: int) -> State:
    """Play until ``done`` tricks are over: seat 0 its best card but the pairs, seat 1 its worst."""
    while len(state.tricks) < done:
        options = [a for a in game.legal_actions(state) if a < SWAP]
        if game.current_player(state) == 0:
            options = [c for c in options if c not in KEEP] or options
            state = game.apply(state, max(options, key=ORDER.power.__getitem__))
        else:
            state = game.apply(state, min(options, key=ORDER.power.__getitem__))
    return state


# --- deck, strength, points ---------------------------------------------------


def test_0_3_card_points_total_120() -> None:
    assert sum(POINTS[c] for c in SPANISH_40.cards) == 120
    assert [POINTS[parse_card(t)] for t in ["1o", "3o", "12o", "11o", "10o", "7o", "2o"]] == [
        11, 10, 4, 3, 2, 0, 0,
    ]  # fmt: skip


def test_0_3_strength_as_tres_rey_caballo_sota_then_seven_down_to_two() -> None:
    ranked = sorted(parse_cards("2e 4e 5e 6e 7e 10e 11e 12e 3e 1e"), key=ORDER.power.__getitem__)
    assert [tapete.format_card(c) for c in ranked[::-1]] == (
        ["1e", "3e", "12e", "11e", "10e", "7e", "6e", "5e", "4e", "2e"]
    )


# --- the shared "must win" play rule ---------------------------------------------------

FOLLOWER_CASES = [
    # seat 1's hand; seat 0 led 1o (As de oros), trump copas
    ("4o 5o 1e 2e 3e 4e 5e 6e", "4o 5o", "follow suit without beating when you cannot beat"),
    ("5c 7c 1e 2e 3e 4e 5e 6e", "5c 7c", "void in the suit led: trump, any trump"),
    ("1b 2e 3e 4e 5e 6e 7e 2b", "1b 2e 3e 4e 5e 6e 7e 2b", "void, no trump: anything"),
]


@pytest.mark.parametrize(("follower", "allowed", "why"), FOLLOWER_CASES)
def test_0_4_follow_beat_or_trump(follower: str, allowed: str, why: str) -> None:
    game, state = deal("tute", ["1o 3o 12o 11o 10o 12e 11e 10e", follower], "4c")
    assert plays(game, state) == {"1o", "3o", "12o", "11o", "10o", "12e", "11e", "10e"}
    state = act(game, state, "play 1o")
    assert plays(game, state) == cards(allowed), why


def test_0_4_beat_when_you_can_and_trump_lead_needs_a_higher_trump() -> None:
    game, state = deal("tute", ["12c 3o 12o 11o 10o 12e 11e 10e", "1c 5c 2b 4o 1e 2e 3e 4e"], "4c")
    state = act(game, state, "play 12c")  # a trump led: the As of trumps beats it
    assert plays(game, state) == {"1c"}
    assert refused(game, state, "play 5c") == "must-beat"
    assert refused(game, state, "play 2b") == "must-follow-suit"


def test_0_4_winner_leads_the_next_trick() -> None:
    game, state = deal("tute", ["5o 3o 12o 11o 10o 12e 11e 10e", "6o 4o 2b 1e 2e 3e 4e 5e"], "4c")
    state = act(game, state, "play 5o", "play 6o")
    assert game.current_player(state) == 1 == state.leader
    assert refused(game, state, "play 3o") == "not-in-hand"


def test_0_4_four_players_must_overtrump_and_need_not_beat_a_trumped_trick() -> None:
    game, state = deal(
        "tute(players=4, first_leader=dealer_right)",
        [
            "3c 2c 4c 5c 1o 3o 12o 11o 10o 12e",
            "5o 1e 2e 3e 4e 5e 6e 7e 10e 11e",
            "1c 6c 7o 4o 1b 2b 3b 4b 5b 6b",
            "7c 10c 11c 12c 6o 7b 10b 11b 12b 2o",
        ],
        "2o",
    )
    state = act(game, state, "play 3c", "play 5o")  # seat 1, void in copas, trumps
    assert plays(game, state) == {"1c", "6c"}  # follow suit; the trick is trumped: no duty to beat
    state = act(game, state, "play 6c")
    assert plays(game, state) == {"7c", "10c", "11c", "12c"}


def test_0_4_four_players_void_must_overtrump_when_able() -> None:
    game, state = deal(
        "tute(players=4, first_leader=dealer_right)",
        [
            "3c 2c 4c 5c 6c 7c 10c 11c 12c 1c",
            "5o 1e 2e 3e 4e 5e 6e 7e 10e 11e",
            "7o 4o 1b 2b 3b 4b 5b 6b 7b 10b",
            "1o 3o 12o 11o 10o 6o 12e 11b 12b 2o",
        ],
        "2o",
    )
    state = act(game, state, "play 3c", "play 5o")
    assert plays(game, state) == {"7o"}
    assert refused(game, state, "play 4o") == "must-overtrump"
    assert refused(game, state, "play 1b") == "must-overtrump"


# --- two players, the deal -------------------------------------------------------------


def test_2_2_eight_cards_each_one_at_a_time_face_up_trump_under_the_stock() -> None:
    game = tapete.load("tute")
    state = game.new_state(seed=4, dealer=1)
    data = game.events(state)[0].data
    deck = data["deck"]
    assert data["hands"][0] == sorted(deck[0:16:2], key=parse_card)
    assert data["hands"][1] == sorted(deck[1:16:2], key=parse_card)
    assert data["upcard"] == deck[16] and data["stock"] == deck[17:] and len(data["stock"]) == 23
    view = game.observe(state, 0)
    assert view.hand_sizes == (8, 8) and view.stock_size == 24
    assert view.face_up == view.upcard == parse_card(deck[16])
    assert view.trump == parse_card(deck[16]) >> 4


def test_2_2_non_dealer_leads_and_the_deal_alternates() -> None:
    game = tapete.load("tute(match=best_of_5)")
    for seed in range(5):
        state = game.new_state(seed)
        dealers = []
        while True:
            for e in game.events(state):
                if e.type == "deal":
                    dealers.append(e.data["dealer"])
                    assert game.current_player(state) == 1 - e.data["dealer"]
            if game.current_player(state) is None:
                break
            state = game.apply(state, game.legal_actions(state)[0])
        assert dealers == [(dealers[0] + i) % 2 for i in range(len(dealers))]


# --- the trick cycle -------------------------------------------------------------------

SWAPPER = ["7c 12c 1o 4e 5b 6b 7b 10b", "2c 4o 5e 6o 7o 10o 2b 4b"]


def test_2_3_a_seven_swap_takes_a_face_up_counting_card() -> None:
    game, state = deal("tute", SWAPPER, "11c")
    assert "swap" in legal(game, state)  # the first leader may swap before trick 1
    state = act(game, state, "swap")
    assert hand(state, 0) >= {"11c", "12c"} and "7c" not in hand(state, 0)
    assert game.observe(state, 1).face_up == parse_card("7c")
    assert [e.data for e in game.events(state)] == [{"seat": 0, "gave": "7c", "took": "11c"}]
    assert "11c" in str(game.observe(state, 1).known[0])  # everyone saw what he took


@pytest.mark.parametrize("face_up", ["1c", "3c", "12c", "11c", "10c"])
def test_2_3_a_the_seven_takes_as_tres_rey_caballo_sota(face_up: str) -> None:
    game, state = deal("tute", ["7c 2c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 7o 10o 2b 4b 3b"], face_up)
    state = act(game, state, "swap")
    assert face_up in hand(state, 0) and "7c" not in hand(state, 0) and "2c" in hand(state, 0)


@pytest.mark.parametrize("face_up", ["4c", "5c", "6c"])
def test_2_3_a_the_two_takes_a_face_up_four_to_seven(face_up: str) -> None:
    game, state = deal("tute", ["7c 2c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 7o 10o 2b 4b 3b"], face_up)
    state = act(game, state, "swap")  # the 2, not the 7: a low card is not the 7's target
    assert face_up in hand(state, 0) and "2c" not in hand(state, 0) and "7c" in hand(state, 0)
    assert "swap" not in legal(game, state)  # the 2 face up: nothing swaps for it


def test_2_3_a_the_two_takes_a_seven_turned_up_under_the_stock() -> None:
    """The 2 of trumps takes a face-up 4, 5, 6 or 7, the card turned up included: only a 7 its
    taker put there himself is barred (one swap a turn)."""
    game, state = deal("tute", ["2c 12c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 3o 10o 2b 4b 5c"], "7c")
    state = act(game, state, "swap")
    assert "7c" in hand(state, 0) and "2c" not in hand(state, 0)
    assert game.observe(state, 1).face_up == parse_card("2c")


def test_2_3_a_one_swap_a_turn_the_two_never_takes_back_your_own_seven() -> None:
    """The leader holds the 7 and the 2 of trumps with the As face up: he takes the As with the
    7, and may not then give the 2 for his own 7 — that would buy the As for the 2."""
    game, state = deal("tute", ["7c 2c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 7o 10o 2b 4b 3b"], "1c")
    state = act(game, state, "swap")
    assert hand(state, 0) >= {"1c", "2c"} and game.observe(state, 1).face_up == parse_card("7c")
    assert "swap" not in legal(game, state)
    assert refused(game, state, "swap") == "swap-own-card"
    state = act(game, state, "play 1o", "play 4o")  # he wins trick 1 and leads again
    assert state.leader == 0 and "2c" in hand(state, 0)
    assert refused(game, state, "swap") == "swap-own-card"  # not at a later turn either


def test_2_3_a_swap_needs_the_right_card() -> None:
    game, state = deal("tute", ["2c 12c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 7o 10o 2b 4b 7c"], "1c")
    assert refused(game, state, "swap") == "swap-needs-seven"
    game, state = deal("tute", ["7c 12c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 7o 10o 2b 4b 2c"], "5c")
    assert refused(game, state, "swap") == "swap-needs-two"
    game, state = deal("tute", ["7c 12c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 7o 10o 3b 4b 5c"], "2c")
    assert refused(game, state, "swap") == "swap-face-up-rank"


def test_2_3_a_option_two_swap_targets_seven_only() -> None:
    game, state = deal(
        "tute(two_swap_targets=[7])",
        ["2c 12c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 7o 10o 2b 4b 7c"],
        "5c",
    )
    assert refused(game, state, "swap") == "swap-face-up-rank"
    game, state = deal(
        "tute(two_swap_targets=[7])",
        ["2c 12c 1o 4e 5b 6b 7b 10b", "4o 5e 6o 3o 10o 2b 4b 5c"],
        "7c",
    )
    assert hand(act(game, state, "swap"), 0) >= {"7c"}


def test_2_3_a_option_swap_requires_trick_win() -> None:
    game, state = deal("tute(swap_requires_trick_win=true)", SWAPPER, "11c")
    assert refused(game, state, "swap") == "swap-needs-trick-win"
    state = act(game, state, "play 1o", "play 4o")  # seat 0 wins: now he may
    assert "swap" in legal(game, state)


def test_2_3_a_only_the_leader_swaps_before_leading() -> None:
    game, state = deal("tute", ["12c 7c 1o 4e 5b 6b 7b 10b", "7o 4o 5e 6o 2c 10o 2b 4b"], "6c")
    state = act(game, state, "play 1o")
    assert refused(game, state, "swap") == "not-before-lead"  # seat 1 holds the 2 of trumps


def test_2_3_a_swaps_come_before_the_cante() -> None:
    hands = ["7c 12o 11o 1e 3e 4b 5b 6b", "2o 3o 4o 5o 6o 2b 3b 7b"]
    game, state = deal("tute", hands, "1c")
    state = act(game, state, "play 1e", "play 2o")
    assert {"swap", "sing oros"} <= legal(game, state)
    sung = act(game, state, "sing oros")
    assert refused(game, sung, "swap") == "swap-after-cante"
    assert "sing oros" in legal(game, act(game, state, "swap"))


def test_2_3_a_no_swap_once_the_face_up_card_is_drawn() -> None:
    game, state = runaway()
    state = drive(game, state, 12)
    assert refused(game, state, "swap") == "stock-gone"


def test_2_3_b_follower_must_follow_and_beat() -> None:
    game, state = deal("tute", ["12b 1o 3o 1e 3e 12e 11e 10e", "1b 3b 2b 5o 4e 5e 6e 7e"], "4c")
    state = act(game, state, "play 12b")
    assert plays(game, state) == {"1b", "3b"}
    assert refused(game, state, "play 2b") == "must-beat"
    assert refused(game, state, "play 5o") == "must-follow-suit"


def test_2_3_c_winner_draws_first_then_the_loser() -> None:
    game, state = runaway()
    state = drive(game, state, 1)
    assert state.leader == 0
    assert "1b" in hand(state, 0) and "4c" in hand(state, 1)
    draw = [e.data for e in game.events(state) if e.type == "draw"]
    assert draw == [{"seats": [0, 1], "cards": ["1b", "4c"], "left": 22}]
    assert game.observe(state, 1).stock_size == 22


def test_2_3_c_the_loser_of_trick_12_draws_the_face_up_card_in_view_of_all() -> None:
    game, state = runaway()
    state = drive(game, state, 11)
    assert game.observe(state, 0).stock_size == 2
    state = drive(game, state, 12)
    assert "4b" in hand(state, 1) and "2b" in hand(state, 0)
    for seat in (0, 1, None):
        view = game.observe(state, seat)
        assert view.face_up == -1 and view.stock_size == 0
        assert parse_card("4b") in view.known[1]
        # The log says so too: the draw's face-up card is in everyone's event, the other not.
        (draw,) = [e for e in game.visible_events(state, seat) if e.type == "draw"]
        assert draw.data["cards"] == ["2b" if seat == 0 else None, "4b"]


def test_2_3_d_twenty_tricks_then_the_deal_is_scored() -> None:
    game = tapete.load("tute")
    rng = random.Random(3)
    for seed in range(20):
        state = game.new_state(seed)
        tricks_seen = 0
        while game.current_player(state) is not None:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
            tricks_seen += event_types(game, state).count("trick")
        assert tricks_seen == 20


# --- cantes ----------------------------------------------------------------------------


def test_2_4_forty_first_one_cante_per_trick_each_suit_once() -> None:
    game, state = runaway()
    state = drive(game, state, 4)  # seat 0 holds the oros pair and, drawn, the bastos pair
    assert hand(state, 0) >= {"12o", "11o", "12b", "11b"}
    assert {a for a in legal(game, state) if a.startswith("sing")} == {"sing bastos"}
    assert refused(game, state, "sing oros") == "forty-first"
    state = act(game, state, "sing bastos")
    (cante,) = game.events(state)
    assert cante.data == {"seat": 0, "suit": "bastos", "points": 40, "cards": ["12b", "11b"]}
    assert refused(game, state, "sing oros") == "one-cante-per-trick"
    state = drive(game, state, 5)
    state = act(game, state, "sing oros")
    assert game.events(state)[0].data["points"] == 20
    state = drive(game, state, 6)
    assert refused(game, state, "sing oros") == "suit-sung"
    assert refused(game, state, "sing bastos") == "suit-sung"


def test_2_4_only_the_winner_of_the_last_trick_sings() -> None:
    game, state = runaway()
    assert refused(game, state, "sing oros") == "not-trick-winner"  # nobody has won a trick yet
    state = act(game, state, "play 1e")
    assert refused(game, state, "sing copas") == "not-trick-winner"  # seat 1 holds 12c 11c
    state = drive(game, state, 1)
    state = act(game, state, "play 3e")  # seat 0 led without singing: the chance is gone
    assert state.sing_right == -1


def test_2_4_a_cante_needs_both_cards_in_hand() -> None:
    game, state = runaway_after(1)
    assert refused(game, state, "sing copas") == "sing-needs-pair"
    assert refused(game, state, "sing bastos") == "sing-needs-pair"  # 1b drawn, no 12b 11b yet


def test_2_4_the_cards_sung_are_known_to_all_until_played() -> None:
    game, state = runaway_after(4)
    state = act(game, state, "sing bastos")
    for seat in (1, None):
        assert {tapete.format_card(c) for c in game.observe(state, seat).known[0]} == {"12b", "11b"}
    state = act(game, state, "play 12b")
    assert {tapete.format_card(c) for c in game.observe(state, 1).known[0]} == {"11b"}


def test_2_4_no_cantes_once_the_stock_is_exhausted() -> None:
    game, state = runaway_after(12)
    assert state.leader == 0 and hand(state, 0) >= {"12o", "11o", "12b", "11b"}
    assert refused(game, state, "sing bastos") == "stock-gone"
    assert not {a for a in legal(game, state) if a.startswith("sing")}


def test_2_4_option_cantes_after_stock() -> None:
    game, state = runaway_after(12, "tute(cantes_after_stock=true)")
    assert "sing bastos" in legal(game, state)
    state = act(game, state, "sing bastos")
    assert game.observe(state, 1).cantes == ((12, 0, 3),)


# --- scoring ---------------------------------------------------------------------------


def test_2_5_card_points_plus_cantes_higher_total_wins() -> None:
    game = tapete.load("tute")
    for seed in range(30):
        final = finish(game, game.new_state(seed), seed)
        score = next(e.data for e in game.events(final) if e.type == "score")
        assert sum(score["cards"]) == 120
        assert score["points"] == [
            c + k for c, k in zip(score["cards"], score["cantes"], strict=True)
        ]
        result = game.outcome(final)
        assert result is not None and result.scores == tuple(score["points"])
        best = max(result.scores)
        assert result.winners[0] == score["winners"][0]
        if result.scores.count(best) == 1:
            assert result.scores[result.winners[0]] == best and result.reason == "more points"


def test_2_5_a_tie_goes_to_the_winner_of_the_last_trick() -> None:
    assert tute.deal_result((60, 60), (0, 0), 1, 0) == ((60, 60), 1)
    assert tute.deal_result((50, 70), (20, 0), 0, 0) == ((70, 70), 0)


@pytest.mark.parametrize(
    ("spec", "seed", "side"),
    [
        ("tute", 15, 0),
        ("tute", 377, 1),
        ("tute(players=4)", 156, 1),
        ("tute(players=4)", 172, 0),
        ("tute(match=best_of_3)", 99, 1),
        ("tute(match=best_of_3)", 105, 0),
        ("tute(match=to_101)", 95, 1),
        ("tute(match=to_101)", 330, 0),
        ("tute(players=4, match=to_101)", 112, 0),
        ("tute(players=4, match=to_101)", 336, 1),
    ],
)
def test_2_5_a_tied_end_goes_to_the_side_of_the_last_trick(spec: str, seed: int, side: int) -> None:
    """Played to the end: a deal tied on points, and a to_101 match tied on totals past 100, go
    to the side that took the last trick (of the last deal)."""
    game = tapete.load(spec)
    final = finish(game, game.new_state(seed), seed)
    score = next(e.data for e in game.events(final) if e.type == "score")
    result = game.outcome(final)
    assert result is not None and score["last_trick"] % 2 == side
    assert result.winners == ((side,) if game.players == 2 else (side, side + 2))
    if "to_101" in spec:
        assert result.scores[0] == result.scores[1] > 100
        assert result.reason == "passed 100, tied, won the last trick"
    else:
        assert score["points"][0] == score["points"][1]
        assert score["winners"] == list(result.winners)
        assert final.history[-1][side] == score["score"][side] > 0


def test_2_5_no_last_trick_bonus_by_default_option_ten() -> None:
    assert tute.deal_result((60, 60), (0, 0), 0, 0) == ((60, 60), 0)
    for spec, total in (("tute", 120), ("tute(last_trick_bonus=10)", 130)):
        game = tapete.load(spec)
        final = finish(game, game.new_state(1))
        score = next(e.data for e in game.events(final) if e.type == "score")
        assert sum(score["points"]) - sum(score["cantes"]) == total


# --- the two-player variants -----------------------------------------------------------

FOUR_REYES = ["12o 12c 12e 12b 1e 3e 1o 3o", "2c 4c 5c 6c 7c 10c 11c 1c"]


def test_2_7_tute_declaration_wins_the_deal_outright() -> None:
    game, state = deal("tute(tute_declaration=true)", FOUR_REYES, "4b")
    assert refused(game, state, "tute") == "not-trick-winner"
    state = act(game, state, "play 1e", "play 2c")
    assert "tute" in legal(game, state)
    state = act(game, state, "tute")
    result = game.outcome(state)
    assert result is not None and result.winners == (0,) and result.reason == "tute"
    assert event_types(game, state) == ["tute", "score", "end"]


def test_2_7_tute_is_off_by_default() -> None:
    game, state = deal("tute", FOUR_REYES, "4b")
    state = act(game, state, "play 1e", "play 2c")
    assert "tute" not in legal(game, state)
    assert refused(game, state, "tute") == "tute-off"


def test_2_7_tute_with_four_caballos_and_not_with_three() -> None:
    hands = ["11o 11c 11e 11b 1e 3e 1o 3o", "2c 4c 5c 6c 7c 10c 12c 1c"]
    game, state = deal("tute(tute_declaration=true)", hands, "4b")
    state = act(game, state, "play 1e", "play 2c")
    assert "tute" in legal(game, state)
    hands = ["11o 11c 11e 12b 1e 3e 1o 3o", "2c 4c 5c 6c 7c 10c 12c 1c"]
    game, state = deal("tute(tute_declaration=true)", hands, "4b")
    state = act(game, state, "play 1e", "play 2c")
    assert refused(game, state, "tute") == "tute-needs-four"


def test_2_7_option_stock_phase_play_free_and_follow_only() -> None:
    hands = ["12b 1o 3o 1e 3e 12e 11e 10e", "1b 3b 2b 5o 4e 5e 6e 7e"]  # T2-4
    game, state = deal("tute(stock_phase_play=free)", hands, "4c")
    assert plays(game, act(game, state, "play 12b")) == cards(hands[1])
    game, state = deal("tute(stock_phase_play=follow_only)", hands, "4c")
    assert plays(game, act(game, state, "play 12b")) == {"1b", "3b", "2b"}
    assert refused(game, act(game, state, "play 12b"), "play 5o") == "must-follow-suit"


def test_2_7_relaxed_play_ends_with_the_stock() -> None:
    for relaxed in ("free", "follow_only"):
        game, state = runaway_after(12, f"tute(stock_phase_play={relaxed})")
        state = act(game, state, "play 5e")
        assert plays(game, state) == {"4b"}  # void in espadas: strict again, must trump


def test_2_7_match_best_of_k() -> None:
    game = tapete.load("tute(match=best_of_3)")
    for seed in range(6):
        final = finish(game, game.new_state(seed), seed)
        result = game.outcome(final)
        assert result is not None and max(result.scores) == 2 and sum(result.scores) in (2, 3)
        assert result.scores[result.winners[0]] == 2
        assert all(sorted(h) == [0, 1] for h in final.history)


def test_2_7_match_to_101_carries_totals() -> None:
    game = tapete.load("tute(match=to_101)")
    deals = []
    for seed in range(10):
        final = finish(game, game.new_state(seed), seed)
        result = game.outcome(final)
        assert result is not None
        totals = [0, 0]
        for delta in final.history[:-1]:
            totals = [a + b for a, b in zip(totals, delta, strict=True)]
            assert max(totals) <= 100
        assert tuple(sum(d[i] for d in final.history) for i in (0, 1)) == result.scores
        assert max(result.scores) > 100
        assert result.scores[result.winners[0]] == max(result.scores)
        deals.append(len(final.history))
    assert max(deals) > 1  # some matches need a second deal


@pytest.mark.parametrize(
    "match",
    [
        "best_of_1",
        "best_of_4",
        "best_of_x",
        "to_100",
        "first",
        "best_of_101",
        "best_of_" + "9" * 5000,
    ],
)
def test_2_7_match_values_are_checked(match: str) -> None:
    with pytest.raises(SpecError, match="single_deal, best_of_K"):
        tapete.load(f"tute(match={match})")


# --- worked examples -------------------------------------------------------------------


def test_t2_1_five_of_oros_led_copas_trump() -> None:
    lead = parse_card("5o")
    assert tricks.trick_winner([lead, parse_card("6o")], 1, ORDER) == 1
    assert tricks.trick_winner([lead, parse_card("4o")], 1, ORDER) == 0
    assert tricks.trick_winner([lead, parse_card("2c")], 1, ORDER) == 1
    assert tricks.trick_winner([lead, parse_card("1b")], 1, ORDER) == 0
    game, state = deal("tute", ["5o 3o 12o 11o 10o 12e 11e 10e", "2c 1b 2b 4b 1e 2e 3e 4e"], "4c")
    state = act(game, state, "play 5o", "play 2c")
    assert state.leader == 1


def test_t2_2_a_trick_of_as_tres_rey_and_seven_is_worth_25() -> None:
    assert sum(POINTS[c] for c in parse_cards("1o 3c 12b 7e")) == 25


def test_t2_3_seven_swap_then_forty_then_the_two_takes_the_seven() -> None:
    game, state = deal("tute", SWAPPER, "11c")
    state = act(game, state, "swap", "play 1o", "play 4o")  # seat 0 wins trick 1
    assert "sing copas" in legal(game, state)
    state = act(game, state, "sing copas")
    assert game.events(state)[0].data["points"] == 40
    state = act(game, state, "play 4e", "play 5e")  # seat 1 beats the 4 and leads
    assert state.leader == 1 and game.observe(state, 1).face_up == parse_card("7c")
    state = act(game, state, "swap")
    assert "7c" in hand(state, 1) and "2c" not in hand(state, 1)
    assert game.observe(state, 0).face_up == parse_card("2c")


def test_t2_4_follower_must_beat_unless_play_is_free() -> None:
    hands = ["12b 1o 3o 1e 3e 12e 11e 10e", "1b 3b 2b 5o 4e 5e 6e 7e"]
    game, state = deal("tute", hands, "4c")
    assert plays(game, act(game, state, "play 12b")) >= {"1b", "3b"}
    assert plays(game, act(game, state, "play 12b")) & cards("1b 3b 2b 5o") == {"1b", "3b"}
    game, state = deal("tute(stock_phase_play=free)", hands, "4c")
    assert plays(game, act(game, state, "play 12b")) >= {"1b", "3b", "2b", "5o"}


def test_t2_5_final_count() -> None:
    assert tute.deal_result((78, 42), (40, 20), 1, 0) == ((118, 62), 0)
    assert 78 + 42 == 120


# --- four players ------------------------------------------------------------------------


def test_3_1_partners_sit_opposite() -> None:
    game = tapete.load("tute(players=4)")
    assert game.players == 4 and game.teams == ((0, 2), (1, 3))
    assert tapete.load("tute").teams is None


def test_3_2_ten_each_the_dealers_last_card_sets_trump_and_stays_known() -> None:
    game = tapete.load("tute(players=4)")
    for seed in range(8):
        state = game.new_state(seed)
        data = game.events(state)[0].data
        dealer, upcard = data["dealer"], data["upcard"]
        assert upcard == data["deck"][39] and upcard in data["hands"][dealer]
        assert all(len(h) == 10 for h in data["hands"]) and data["stock"] == []
        assert data["upcard_kept_by_dealer"] is True
        for seat in (*range(4), None):
            view = game.observe(state, seat)
            assert parse_card(upcard) in view.known[dealer]
            assert view.trump == parse_card(upcard) >> 4 and view.stock_size == 0


def test_3_3_the_holder_of_the_two_of_oros_leads() -> None:
    game = tapete.load("tute(players=4)")
    for seed in range(12):
        state = game.new_state(seed)
        assert parse_card("2o") in tapete.CardSet(state.hands[game.current_player(state)])


def test_3_3_everyone_knows_the_first_leader_holds_the_two_of_oros_until_he_plays_it() -> None:
    game, two = tapete.load("tute(players=4)"), parse_card("2o")
    for seed in range(2, 8):
        state = game.new_state(seed)
        first = game.current_player(state)
        assert first is not None
        others = [a for a in game.legal_actions(state) if a != two]
        state = game.apply(state, others[0])  # he leads another card: the 2 is still his
        for seat in (*range(4), None):
            view = game.observe(state, seat)
            assert two in view.known[first]
            if seat not in (first, None):  # a search's deals give it to him, never elsewhere
                for k in range(20):
                    assert game.sample_state(view, random.Random(k)).hands[first] >> two & 1
    # With the classic first leader nothing says where the 2 is (unless it is the dealer's card).
    for seed in range(2, 8):
        state = tapete.load("tute(players=4, first_leader=dealer_right)").new_state(seed)
        assert state.deal.upcard == two or not any(k >> two & 1 for k in state.known)


def test_3_3_option_first_leader_dealer_right() -> None:
    game = tapete.load("tute(players=4, first_leader=dealer_right)")
    for seed in range(6):
        state = game.new_state(seed)
        assert game.current_player(state) == (state.deal.dealer + 1) % 4


def test_3_3_no_swapping_without_a_stock() -> None:
    game = tapete.load("tute(players=4)")
    state = game.new_state(1)
    assert refused(game, state, "swap") == "no-stock"


def test_3_3_the_deal_passes_right() -> None:
    game = tapete.load("tute(players=4, match=best_of_5)")
    state = game.new_state(2)
    dealers = [state.deal.dealer]
    while game.current_player(state) is not None:
        state = game.apply(state, game.legal_actions(state)[0])
        dealers += [e.data["dealer"] for e in game.events(state) if e.type == "deal"]
    assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]


# Seat 0 leads the As of espadas and wins trick 1; its partner, seat 2, holds the oros and copas
# pairs. Trump bastos (the dealer's 4b).
PARTNERS = [
    "1e 3e 1o 3o 1c 3c 1b 3b 2o 4o",
    "2e 4e 5e 6e 5o 6o 7o 10o 5c 6c",
    "12o 11o 12c 11c 7c 10c 2c 4c 7e 10e",
    "11e 12e 2b 5b 6b 7b 10b 11b 12b 4b",
]


def test_3_4_only_the_trick_winner_sings_and_cantes_count_for_the_team() -> None:
    game, state = deal("tute(players=4, first_leader=dealer_right)", PARTNERS, "4b")
    state = act(game, state, "play 1e", "play 2e", "play 7e", "play 11e", "play 1o", "play 5o")
    assert game.current_player(state) == 2
    assert refused(game, state, "sing oros") == "not-trick-winner"
    game = tapete.load("tute(players=4)")
    for seed in range(20):
        final = finish(game, game.new_state(seed), seed)
        score = next(e.data for e in game.events(final) if e.type == "score")
        sung = [0, 0]
        for _, seat, suit in final.cantes:
            sung[seat % 2] += 40 if suit == final.deal.trump else 20
        assert score["cantes"] == sung


def test_3_4_option_partner_may_sing() -> None:
    spec = "tute(players=4, first_leader=dealer_right, partner_may_sing=true)"
    game, state = deal(spec, PARTNERS, "4b")
    state = act(game, state, "play 1e", "play 2e", "play 7e", "play 11e", "play 1o", "play 5o")
    assert {"sing oros", "sing copas"} <= legal(game, state)
    sung = act(game, state, "sing copas")
    assert refused(game, sung, "sing oros") == "one-cante-per-trick"
    assert game.observe(sung, 1).cantes == ((1, 2, 1),)
    passed = act(game, state, "play 12o")  # seat 2 played on: the chance is gone
    assert passed.sing_right == -1
    assert refused(game, passed, "sing oros") == "not-trick-winner"
    # The winner sings first: his partner may not add another cante for the same trick.
    hands = [
        "1e 3e 12o 11o 1c 3c 1b 3b 2o 4o",
        "2e 4e 5e 6e 5o 6o 7o 10o 5c 6c",
        "1o 3o 12c 11c 7c 10c 2c 4c 7e 10e",
        "11e 12e 2b 5b 6b 7b 10b 11b 12b 4b",
    ]
    game, state = deal(spec, hands, "4b")
    state = act(game, state, "play 1e", "play 2e", "play 7e", "play 11e", "sing oros")
    state = act(game, state, "play 1c", "play 5c")
    assert game.current_player(state) == 2
    assert refused(game, state, "sing copas") == "one-cante-per-trick"


def test_3_7_option_tute_declaration_wins_for_the_team() -> None:
    hands = [
        "12o 12c 12e 12b 1e 3e 1o 3o 1c 3c",
        "2e 4e 5e 6e 2o 4o 5o 6o 2c 4c",
        "7e 10e 7o 10o 11o 5c 6c 7c 10c 11c",
        "11e 1b 2b 3b 5b 6b 7b 10b 11b 4b",
    ]
    spec = "tute(players=4, first_leader=dealer_right, tute_declaration=true)"
    game, state = deal(spec, hands, "4b")
    state = act(game, state, "play 1e", "play 2e", "play 7e", "play 11e", "tute")
    result = game.outcome(state)
    assert result is not None and result.winners == (0, 2) and result.reason == "tute"


def test_3_7_tute_declaration_with_partner_may_sing_the_partner_declares() -> None:
    """The tute is declared by whoever may sing: with partner_may_sing, the winner's partner at
    his turn in the next trick, for the team."""
    hands = [
        "1e 3e 1o 3o 1c 3c 1b 3b 2o 4o",
        "2e 4e 5e 6e 5o 6o 7o 10o 5c 6c",
        "12o 12c 12e 12b 7c 10c 2c 4c 7e 10e",
        "11e 11o 11c 2b 5b 6b 7b 10b 11b 4b",
    ]
    spec = "tute(players=4, first_leader=dealer_right, tute_declaration=true{})"
    game, state = deal(spec.format(", partner_may_sing=true"), hands, "4b")
    state = act(game, state, "play 1e", "play 2e", "play 7e", "play 11e", "play 1o", "play 5o")
    assert game.current_player(state) == 2 and "tute" in legal(game, state)
    result = game.outcome(act(game, state, "tute"))
    assert result is not None and result.winners == (0, 2) and result.reason == "tute"
    game, state = deal(spec.format(""), hands, "4b")
    state = act(game, state, "play 1e", "play 2e", "play 7e", "play 11e", "play 1o", "play 5o")
    assert refused(game, state, "tute") == "not-trick-winner"


def test_3_5_ten_for_the_last_trick_total_130_and_ties_to_the_last_trick() -> None:
    game = tapete.load("tute(players=4)")
    for seed in range(20):
        final = finish(game, game.new_state(seed), seed)
        score = next(e.data for e in game.events(final) if e.type == "score")
        assert sum(score["cards"]) == 120
        assert sum(score["points"]) == 130 + sum(score["cantes"])
        result = game.outcome(final)
        assert result is not None and result.winners in ((0, 2), (1, 3))
    assert tute.deal_result((60, 50), (0, 0), 1, 10) == ((60, 60), 1)
    game = tapete.load("tute(players=4, last_trick_bonus=0)")
    final = finish(game, game.new_state(3))
    score = next(e.data for e in game.events(final) if e.type == "score")
    assert sum(score["points"]) == 120 + sum(score["cantes"])


# --- worked examples -------------------------------------------------------------------

T4_1 = [
    "3c 2c 4c 5c 6c 7c 10c 1o 3o 12o",
    "12c 1c 2o 11o 10o 7o 6o 5o 1e 2e",
    "11c 5b 1b 2b 3b 4b 6b 7b 10b 11b",
    "4o 10e 3e 4e 5e 6e 7e 11e 12e 12b",
]


def test_t4_1_the_void_player_trumps_over_his_partner() -> None:
    game, state = deal("tute(players=4, first_leader=dealer_right)", T4_1, "4o")
    state = act(game, state, "play 3c")
    assert plays(game, state) == {"1c"}  # the Rey does not beat the 3
    state = act(game, state, "play 1c")
    assert plays(game, state) == {"11c"}
    state = act(game, state, "play 11c")
    assert plays(game, state) == {"4o"}  # no trump yet: he must trump, over his partner too
    state = act(game, state, "play 4o")
    assert state.leader == 3 and state.points == (0, 0, 0, 24)


def test_t4_1_option_must_beat_partner_false() -> None:
    spec = "tute(players=4, first_leader=dealer_right, must_beat_partner=false)"
    game, state = deal(spec, T4_1, "4o")
    state = act(game, state, "play 3c", "play 1c", "play 11c")
    assert plays(game, state) == cards(T4_1[3])  # partner winning: only follow suit, and void
    other, start = deal(spec, T4_1, "4o")
    assert plays(other, act(other, start, "play 3c")) == {"1c"}  # the opponents still must beat


T4_2 = [
    "3c 2c 4c 5c 6c 7c 1o 3o 12o 11o",
    "12c 1c 10c 11c 2o 5o 6o 7o 11b 12b",
    "10o 6e 1e 2e 3e 4e 5e 7e 10e 11e",
    "4o 2b 12e 1b 3b 4b 5b 6b 7b 10b",
]


def test_t4_2_void_must_trump_and_free_when_he_cannot_overtrump() -> None:
    game, state = deal("tute(players=4, first_leader=dealer_right)", T4_2, "4o")
    state = act(game, state, "play 3c", "play 1c")
    assert plays(game, state) == {"10o"}
    assert refused(game, state, "play 6e") == "must-trump"
    state = act(game, state, "play 10o")
    assert plays(game, state) >= {"4o", "2b"}  # the 4 cannot beat the Sota: any card
    state = act(game, state, "play 2b")
    assert state.leader == 2


def test_t4_2_option_must_underruff() -> None:
    game, state = deal(
        "tute(players=4, first_leader=dealer_right, must_underruff=true)", T4_2, "4o"
    )
    state = act(game, state, "play 3c", "play 1c", "play 10o")
    assert plays(game, state) == {"4o"}
    assert refused(game, state, "play 2b") == "must-underruff"


# Copas led, seat 1 trumps with the Sota de oros, seat 2 follows; seat 3, void in copas, holds only
# the 4 de oros in trumps, which cannot beat his partner's Sota.
UNDER_PARTNER = [
    "3c 2c 4c 5c 6c 7c 1o 3o 12o 11o",
    "10o 1e 2e 3e 4e 5e 6e 7e 10e 11e",
    "1c 12c 11c 10c 2o 5o 6o 7o 12e 1b",
    "4o 2b 3b 4b 5b 6b 7b 10b 11b 12b",
]


def test_t4_2_options_a_partner_winning_lifts_the_duty_to_underruff() -> None:
    """With must_beat_partner=false a void player whose partner is winning may play anything,
    even under must_underruff=true; his partner losing, he must trump (and under-trump)."""
    spec = "tute(players=4, first_leader=dealer_right, must_underruff=true{})"
    game, state = deal(spec.format(""), UNDER_PARTNER, "4o")
    state = act(game, state, "play 3c", "play 10o", "play 1c")
    assert plays(game, state) == {"4o"}
    assert refused(game, state, "play 2b") == "must-underruff"
    game, state = deal(spec.format(", must_beat_partner=false"), UNDER_PARTNER, "4o")
    assert plays(game, act(game, state, "play 3c")) == {"10o"}  # the leader is no partner
    state = act(game, state, "play 3c", "play 10o", "play 1c")
    assert plays(game, state) == cards(UNDER_PARTNER[3])


def test_t4_3_final_count() -> None:
    assert tute.deal_result((71, 49), (20, 40), 0, 10) == ((101, 89), 0)
    assert 71 + 49 + 10 == 130


# --- parameters and notation -----------------------------------------------------------------


def test_defaults_depend_on_the_player_count() -> None:
    two, four = tapete.load("tute"), tapete.load("tute(players=4)")
    assert (two.spec, four.spec) == ("tute", "tute(players=4)")
    assert tute.last_trick_bonus(two.params) == 0 and tute.last_trick_bonus(four.params) == 10
    assert tapete.load(four.spec) == four
    assert tapete.load("tute(players=4, last_trick_bonus=0)").spec == (
        "tute(players=4, last_trick_bonus=0)"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("tute(players=3)", "players=3 is not accepted: 2 or 4"),
        ("tute(stock_phase_play=loose)", "strict, follow_only or free"),
        ("tute(two_swap_targets=[4, 5])", r"\[4, 5, 6, 7\] or \[7\]"),
        ("tute(last_trick_bonus=5)", "0 or 10"),
        ("tute(first_leader=two_of_oros)", "an option for players=4"),
        ("tute(players=4, first_leader=mano)", "two_of_oros or dealer_right"),
        ("tute(last_trick_bonus=false)", "0 or 10"),
        ("tute(partner_may_sing=true)", "an option for players=4"),
        ("tute(must_underruff=true)", "an option for players=4"),
        ("tute(players=4, stock_phase_play=free)", "an option for players=2"),
        ("tute(players=4, cantes_after_stock=true)", "an option for players=2"),
        ("tute(tute_declaration=1)", "true or false"),
        ("tute(jokers=true)", "its parameters are players"),
    ],
)
def test_bad_parameters_say_what_is_accepted(spec: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        tapete.load(spec)


@pytest.mark.parametrize(
    ("spelled", "canonical"),
    [
        ("tute(players=4, first_leader=two_of_oros)", "tute(players=4)"),
        ("tute(last_trick_bonus=0)", "tute"),
        ("tute(players=4, last_trick_bonus=10)", "tute(players=4)"),
        ("tute(match=best_of_03)", "tute(match=best_of_3)"),
    ],
)
def test_rules_spelled_two_ways_have_one_spec(spelled: str, canonical: str) -> None:
    # A record names the rules by its spec: the same rules must never name themselves twice.
    game = tapete.load(spelled)
    assert game.spec == canonical and game.params == tapete.load(canonical).params


def test_actions_round_trip_and_bad_text_is_invalid() -> None:
    game = tapete.load("tute")
    every = [*SPANISH_40.cards, SWAP, *(SING + s for s in range(4)), TUTE]
    for action in every:
        assert game.parse_action(game.format_action(action)) == action
    assert game.parse_action("sing c") == game.parse_action("SING copas") == SING + 1
    assert game.parse_action("12b") == game.parse_action("play 12b")
    for text in ("sing", "sing hearts", "play 8o", "Ah", "bid 2", "swap now", ""):
        with pytest.raises(InvalidActionError):
            game.parse_action(text)


def test_every_action_is_refused_with_a_rule_when_not_legal() -> None:
    codes = set()
    for spec in ("tute(tute_declaration=true)", "tute(players=4, partner_may_sing=true)"):
        game = tapete.load(spec)
        for state, _ in random_playout(game, 5)[:-1]:
            allowed = set(game.legal_actions(state))
            for action in range(-1, 72):
                error = game.why_illegal(state, action)
                assert (error is None) == (action in allowed), (state, action)
                if error is not None:
                    codes.add(error.rule)
    assert {"not-in-hand", "no-such-action", "not-trick-winner", "stock-gone", "no-stock"} <= codes


def test_match_over_refuses_everything() -> None:
    game = tapete.load("tute")
    final = finish(game, game.new_state(0))
    assert game.current_player(final) is None and game.legal_actions(final) == []
    assert refused(game, final, "play 1o") == "match-over"


# --- views -----------------------------------------------------------------------------------


def test_views_hide_every_other_hand_the_partners_too() -> None:
    for spec in ("tute", "tute(players=4)"):
        game = tapete.load(spec)
        for state, _ in random_playout(game, 2):
            for seat in (*range(game.players), None):
                view = game.observe(state, seat)
                shown = 0
                for s in range(game.players):
                    if s != seat:
                        assert view.hands[s] is None
                    shown |= view.known[s].mask
                    if view.hands[s] is not None:
                        shown |= view.hands[s].mask
                for s in range(game.players):
                    if s != seat:
                        secret = state.hands[s] & ~state.known[s]
                        assert not secret & shown, "a hidden card shows in another seat's view"
                assert not hasattr(view, "stock") and not hasattr(view, "setup")


def test_the_view_keeps_voids_only_until_the_next_draw() -> None:
    game, state = runaway()
    state = act(game, state, "play 1e", "play 5c")  # seat 1 shows: no espadas, no bastos
    assert not game.observe(state, 0).excluded[1]  # but he has drawn since: it may be over
    state = drive(game, state, 12)
    state = act(game, state, "play 5e", "play 4b")  # no stock: a void now lasts
    espadas = set(parse_cards("1e 2e 3e 4e 5e 6e 7e 10e 11e 12e"))
    for seat in (0, None):
        assert espadas <= set(game.observe(state, seat).excluded[1])


def test_views_in_the_four_player_game_carry_voids() -> None:
    game, state = deal("tute(players=4, first_leader=dealer_right)", T4_2, "4o")
    state = act(game, state, "play 3c", "play 1c", "play 10o", "play 2b")
    view = game.observe(state, 0)
    copas = set(parse_cards("1c 2c 3c 4c 5c 6c 7c 10c 11c 12c"))
    assert copas <= set(view.excluded[2]) and copas <= set(view.excluded[3])
    assert parse_card("12o") in view.excluded[3]  # he could not beat the Sota of trumps


# --- sample_state ----------------------------------------------------------------------------

SPECS = [
    "tute",
    "tute(stock_phase_play=follow_only, cantes_after_stock=true, tute_declaration=true)",
    "tute(stock_phase_play=free, two_swap_targets=[7])",
    "tute(players=4)",
    "tute(players=4, partner_may_sing=true, must_beat_partner=false, must_underruff=true)",
]


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False))
def test_sample_state_honours_the_view(spec: str, seed: int, pick: random.Random) -> None:
    game = tapete.load(spec)
    path = random_playout(game, seed)
    for state, _ in pick.sample(path, min(len(path), 4)):
        for seat in (*range(game.players), None):
            view = game.observe(state, seat)
            sampled = game.sample_state(view, random.Random(pick.random()))
            assert fingerprint(game.observe(sampled, seat)) == fingerprint(view)
            for s in range(game.players):
                assert not sampled.hands[s] & view.excluded[s].mask
                assert view.known[s].mask & ~sampled.hands[s] == 0
            finish(game, sampled)  # a sampled state plays on to the end


def test_sample_state_keeps_a_void_until_the_draws_could_fill_it() -> None:
    game, state = runaway()
    state = act(game, state, "play 1e", "play 5c")  # seat 1 shows: no espadas, no bastos
    view = game.observe(state, 0)
    espadas_bastos = sum(1 << c for c in SPANISH_40.cards if c >> 4 in (2, 3))
    counts: Counter[int] = Counter()
    rng = random.Random(1)
    for _ in range(400):
        sampled = game.sample_state(view, rng)
        counts[(sampled.hands[1] & espadas_bastos).bit_count()] += 1
    assert set(counts) == {0, 1}  # one draw since: at most one of them
    # Uniform over the deals that fit: the draw was one of 22 cards, 12 of them espadas or bastos.
    assert 0.45 < counts[1] / 400 < 0.65


def test_sample_state_a_twenty_sung_with_the_forty_open_hides_no_trump_pair() -> None:
    hands = ["4o 5o 6o 7o 2c 4c 5c 6c", "1o 3o 12c 11c 1e 3e 1b 3b"]
    game, state = deal("tute", hands, "4b", "", dealer=0)  # seat 1 leads
    state = act(game, state, "play 1o", "play 4o", "sing copas")
    view = game.observe(state, 0)
    pair = sum(1 << parse_card(c) for c in ("12b", "11b"))
    assert not view.known[1].mask & pair and not state.hands[0] & pair
    rng, seen = random.Random(2), set()
    for _ in range(300):
        sampled = game.sample_state(view, rng)
        seen.add((sampled.hands[1] & pair).bit_count())
    assert seen == {0, 1}


@pytest.mark.parametrize("spec", SPECS)
def test_a_sampler_draws_the_deals_sample_state_draws(spec: str) -> None:
    game = tapete.load(spec)
    for state, _ in random_playout(game, 7)[::9]:
        view = game.observe(state, state.turn)
        draw = tute.sampler(view)
        for k in range(3):
            assert draw(random.Random(k)).hands == tute.sample_state(view, random.Random(k)).hands


def test_sample_state_deals_an_unseen_card_to_each_hidden_hand_alike() -> None:
    game = tapete.load("tute(players=4)")
    state = game.new_state(3)
    view = game.observe(state, state.turn)
    shown = state.hands[state.turn] | sum(k.mask for k in view.known)
    card = next(c for c in SPANISH_40.cards if not shown >> c & 1)
    draw, rng = tute.sampler(view), random.Random(5)
    where: Counter[int] = Counter()
    for _ in range(900):
        sampled = draw(rng)
        where[next(s for s in range(4) if sampled.hands[s] >> card & 1)] += 1
    holders = [s for s in range(4) if s != state.turn]
    assert set(where) == set(holders)
    # A card whose place nothing shows is in each of the three hidden hands a third of the time
    # (less in the dealer's, whose trump card is known: 9 of its 10 cards are hidden).
    for s in holders:
        hidden = 10 - view.known[s].mask.bit_count()
        assert abs(where[s] / 900 - hidden / 29) < 0.06


def _exact_places(view: Any) -> dict[tuple[int, int], float]:
    """Four players, no cante shown: every deal of the unseen cards that the hand sizes, the
    known cards and the voids allow, counted; the chance of each (card, seat)."""
    hidden = [s for s in range(4) if view.hands[s] is None]
    shown = sum(h.mask for h in view.hands if h is not None) | sum(k.mask for k in view.known)
    for _, cards in (*view.tricks, (view.leader, view.trick)):
        shown |= sum(1 << c for c in cards)
    shown |= 1 << view.upcard
    unseen = [c for c in SPANISH_40.cards if not shown >> c & 1]
    need = [view.hand_sizes[s] - view.known[s].mask.bit_count() for s in hidden]
    played = any(view.upcard in cards for _, cards in (*view.tricks, (view.leader, view.trick)))
    if view.dealer in hidden and not played and not view.known[view.dealer].mask >> view.upcard & 1:
        need[hidden.index(view.dealer)] -= 1  # the trump card turned is the dealer's
    counts: Counter[tuple[int, int]] = Counter()
    deals = 0

    def place(i: int, left: list[int], got: list[tuple[int, int]]) -> None:
        nonlocal deals
        if i == len(hidden):
            deals += 1
            counts.update(got)
            return
        s = hidden[i]
        for hand in itertools.combinations(left, need[i]):
            if not any(view.excluded[s].mask >> c & 1 for c in hand):
                rest = [c for c in left if c not in hand]
                place(i + 1, rest, got + [(c, s) for c in hand])

    place(0, unseen, [])
    return {k: v / deals for k, v in counts.items()}


def test_sample_state_draws_uniformly_where_play_pins_most_cards() -> None:
    # Late in a four-player deal the cards played take most places of a hand and voids close
    # others: the sampler must still reach every deal the view allows, each as often. (Swaps of
    # two cards alone cannot turn some of these deals into others, and drew a card of one view
    # into a hand 87% of the time where 50% of its deals put it there.)
    game, medium = tapete.load("tute(players=4)"), bots.load("medium")
    rng, views = random.Random(0), []
    for seed in range(40):
        state = game.new_state(seed)
        while (seat := game.current_player(state)) is not None:
            view = game.observe(state, seat)
            late = seat == 0 and len(view.tricks) >= 6 and len(view.trick) == 1
            if late and not view.cantes and sum(bool(view.excluded[s].mask) for s in (1, 2, 3)) > 1:
                views.append(view)
                break
            state = game.apply(state, medium.choose(view, game.legal_actions(state), rng))
    assert len(views) >= 10
    for view in views[:10]:
        exact, draw, counts = _exact_places(view), tute.sampler(view), Counter[tuple[int, int]]()
        for _ in range(2000):
            hands = draw(rng).hands
            counts.update((c, s) for c, s in exact if hands[s] >> c & 1)
        assert max(abs(counts[k] / 2000 - p) for k, p in exact.items()) < 0.05


def test_sample_state_of_a_known_card() -> None:
    game, state = runaway_after(12)
    view = game.observe(state, 0)
    sampled = game.sample_state(view, random.Random(0))
    assert parse_card("4b") in tapete.CardSet(sampled.hands[1])
    assert sampled.stock == () and sampled.face_up == -1


# --- records, events, immutability -----------------------------------------------------------

RECORD_SPECS = [
    "tute(match=best_of_3, tute_declaration=true, stock_phase_play=follow_only)",
    "tute(match=to_101, two_swap_targets=[7], cantes_after_stock=true, last_trick_bonus=10)",
    "tute(players=4, match=best_of_3, partner_may_sing=true, first_leader=dealer_right)",
    "tute(players=4, match=to_101, must_beat_partner=false, tute_declaration=true)",
]


@pytest.mark.parametrize("spec", RECORD_SPECS)
def test_records_replay_exactly(spec: str) -> None:
    game = tapete.load(spec)
    for seed in range(3):
        final, rec = play(game, ["random"] * game.players, seed=seed)
        again = record.loads(record.dumps(rec))
        assert again == rec
        replayed = record.replay(again)
        assert game.outcome(replayed) == game.outcome(final)
        assert fingerprint(game.observe(replayed, None)) == fingerprint(game.observe(final, None))


def test_events_tell_the_deal() -> None:
    game, state = runaway()
    deal_event = game.events(state)[0].data
    assert deal_event["upcard"] == "4b" and deal_event["trump"] == "bastos"
    assert deal_event["stock"] == RUNAWAY_STOCK.split() and deal_event["first_leader"] == 0
    state = act(game, state, "play 1e", "play 5c")
    trick, draw = game.events(state)
    assert trick.data == {"leader": 0, "cards": ["1e", "5c"], "winner": 0, "points": 11}
    assert draw.type == "draw"
    final = finish(game, state)
    types = event_types(game, final)
    assert types[-2:] == ["score", "end"]


def test_apply_never_changes_the_state_it_is_given() -> None:
    for spec in ("tute(tute_declaration=true)", "tute(players=4, partner_may_sing=true)"):
        game = tapete.load(spec)
        for state, _ in random_playout(game, 9)[:-1]:
            before = fingerprint(state)
            for action in game.legal_actions(state):
                game.apply(state, action)
            assert fingerprint(state) == before


# --- decisions made here (docs/rules/tute.md) and the hot path ------------------------------


def test_decision_a_tute_wins_the_match_under_to_101_and_a_deal_under_best_of() -> None:
    for spec, scores in (("tute(tute_declaration=true, match=to_101)", None), (
        "tute(tute_declaration=true, match=best_of_3)", (1, 0))):  # fmt: skip
        game, state = deal(spec, FOUR_REYES, "4b")
        state = act(game, state, "play 1e", "play 2c", "tute")
        score = next(e.data for e in game.events(state) if e.type == "score")
        assert score["tute"] == 0 and score["winners"] == [0] and score["last_trick"] is None
        if scores is None:
            result = game.outcome(state)
            assert result is not None and result.winners == (0,) and result.reason == "tute"
        else:
            assert game.outcome(state) is None and state.scores == scores
            assert event_types(game, state)[-1] == "deal"


def test_decision_defaults_for_the_player_count_are_none_in_records() -> None:
    game = tapete.load("tute(players=4)")
    rec = play(game, ["random"] * 4, seed=1)[1]
    assert rec.params["last_trick_bonus"] is None and rec.params["first_leader"] is None


def test_the_trick_winner_by_table_agrees_with_tricks() -> None:
    rng = random.Random(5)
    for trump in range(4):
        tricks_of_four = (tuple(rng.sample(SPANISH_40.cards, 4)) for _ in range(3000))
        some = itertools.chain(itertools.permutations(SPANISH_40.cards, 2), tricks_of_four)
        for trick in some:
            for size in range(2, len(trick) + 1):
                expected = tricks.trick_winner(trick[:size], trump, ORDER)
                assert tute.winning_play(trick[:size], tute.BEATERS[trump]) == expected


@pytest.mark.parametrize(
    "spec",
    ["tute", "tute(players=4)", "tute(players=4, must_underruff=true)"],
)
def test_the_legal_cards_agree_with_tricks_legal_mask(spec: str) -> None:
    game = tapete.load(spec)
    p = game.params
    for seed in range(40):
        for state, _ in random_playout(game, seed)[:-1]:
            trump, seat = state.deal.trump, state.turn
            rule = tute.obligation(p, len(state.tricks), state.trick, seat, state.leader, trump)
            assert rule == tricks.MUST_WIN
            expected = tricks.legal_mask(
                state.hands[seat], state.trick, trump, ORDER, rule, must_underruff=p.must_underruff
            )
            assert tute.legal_cards(state) == expected
            plays = [a for a in tute.legal_actions(state) if a < SWAP]
            assert plays == tapete.cards.cards_of(expected)


def _duty(spec: tute.Params, state: State) -> set[int]:
    """Section 5 of docs/rules/tute.md, written from the page and nothing else: the cards the
    player to act may play."""
    power = {r: 10 - i for i, r in enumerate((1, 3, 12, 11, 10, 7, 6, 5, 4, 2))}
    hand, trick, trump = set(tapete.CardSet(state.hands[state.turn])), state.trick, state.deal.trump
    index, seat, leader = len(state.tricks), state.turn, state.leader
    if not trick:
        return hand
    led = trick[0] >> 4
    rule = spec.stock_phase_play if spec.players == 2 and index < 12 else "strict"
    if spec.players == 4 and not spec.must_beat_partner:
        best = trick[0]
        for c in trick[1:]:
            if (c >> 4 == best >> 4 and power[c & 15] > power[best & 15]) or (
                c >> 4 == trump != best >> 4
            ):
                best = c
        if (leader + trick.index(best)) % 4 == (seat + 2) % 4:
            rule = "follow_only"
    follow = {c for c in hand if c >> 4 == led}
    if rule == "free":
        return hand
    if rule == "follow_only":
        return follow or hand
    trumps_played = [power[c & 15] for c in trick if c >> 4 == trump]
    top_trump = max(trumps_played, default=-1)
    top_led = max(power[c & 15] for c in trick if c >> 4 == led)
    if follow:
        if led == trump:
            return {c for c in follow if power[c & 15] > top_trump} or follow
        if top_trump < 0:
            return {c for c in follow if power[c & 15] > top_led} or follow
        return follow
    trumps = {c for c in hand if c >> 4 == trump}
    if not trumps:
        return hand
    if top_trump < 0:
        return trumps
    over = {c for c in trumps if power[c & 15] > top_trump}
    return over or (trumps if spec.must_underruff else hand)


@pytest.mark.parametrize(
    "spec",
    [
        "tute",
        "tute(stock_phase_play=follow_only)",
        "tute(stock_phase_play=free, cantes_after_stock=true, tute_declaration=true)",
        "tute(players=4)",
        "tute(players=4, must_underruff=true)",
        "tute(players=4, must_beat_partner=false)",
        "tute(players=4, must_beat_partner=false, must_underruff=true, partner_may_sing=true)",
    ],
)
def test_the_legal_cards_are_the_duty_the_rules_page_states(spec: str) -> None:
    """Every option of the duty to win the trick, against the page's own wording, over whole
    random matches: what is offered, and what apply accepts, is exactly that."""
    game = tapete.load(spec)
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while game.current_player(state) is not None:
            hand = set(tapete.CardSet(state.hands[state.turn]))
            want = _duty(game.params, state)
            offered = [a for a in game.legal_actions(state) if a < SWAP]
            assert set(offered) == want, (seed, state)
            for card in hand - want:
                assert game.why_illegal(state, card) is not None
            state = game.apply(state, rng.choice(game.legal_actions(state)))
