"""Pottle (docs/rules/pottle.md): one test per rule clause, the worked examples PT-1..PT-5, the
options, and the contract (legality, views, sampling, immutability, notation, chip conservation).

Seats: in the worked examples P1..P4 are seats 0..3 with seat 3 (P4) dealing, so P1 bids first.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete import record
from tapete.cards import CardSet, format_card, parse_card, parse_cards
from tapete.chance import by_lot
from tapete.errors import IllegalActionError, InvalidActionError, RecordError, SpecError
from tapete.game import Game
from tapete.games import pottle
from tapete.games.pottle import BID, NO_TRUMP, TRUMP, Params, stack_deck
from tapete.match import play

# PT-1..PT-5: P1 (seat 0) bids 2, P2 (seat 1) 3, P3 (seat 2) 3, P4 (seat 3, dealer) 1.
EXAMPLE_HANDS = [
    "Ah Kh 2c 3c 4c 5c 2d",  # P1
    "As Ks Qs Js 2h 3h 4h",  # P2
    "Ad 3d 4d 5d 6d 7d 6c",  # P3
    "5h 6h 8d 9d Td Jd Qd",  # P4
]
# P2 leads three spades nobody else holds, then gives up the lead: P2 takes exactly 3.
EXACT_THREE = [
    "As 3d 8d 2c",
    "Ks 4d 9d 3c",
    "Qs 5d Td 4c",
    "2h 6c 5h Ah",  # P1 wins with the ace
    "Kh 3h 6d 6h",  # P1 again: P1 has taken exactly 2
    "2d Js Ad Jd",  # P3
    "7d Qd 5c 4h",  # P4
]
# P2 leads all four spades first: P2 takes 4, P1 still exactly 2, P3 1, P4 0.
FOUR_TRICKS = [
    "As 3d 8d 2c",
    "Ks 4d 9d 3c",
    "Qs 5d Td 4c",
    "Js 6d Jd 5c",
    "2h 6c 5h Ah",
    "Kh 3h 7d 6h",
    "2d 4h Ad Qd",
]
# PT-3 and PT-4: P2 leads K♠, P3 has A♠, P4 and P1 have no spade.
TRICK_HANDS = [
    "3h 5d 2c 3c 4c 5c 6c",  # P1: no spade, holds 3♥
    "Ks Qs Js Ts 9s 8s 7s",  # P2
    "As 6s 5s 4s 3s 2s Ad",  # P3
    "2h 4h 5h 6h 7h 8h 9h",  # P4: no spade
]
# Each seat holds seven cards of its own suit: at no trump the declarer leads every trick and
# takes all seven, so a first bid of 7 wins the pot and a first bid of 6 carries it over.
ONE_SUIT = [" ".join(r + s for r in "89TJQKA") for s in "cdhs"]


def load(spec: str = "pottle") -> Game[Any, Any]:
    return tapete.load(spec)


def start(
    hands: list[str], *, spec: str = "pottle", dealer: int = 3, more: int = 0
) -> tuple[Game[Any, Any], Any]:
    """A match whose first deal (and ``more`` deals after it) deal ``hands``, with the deal
    passing to the left."""
    game = load(spec)
    n = game.players
    decks = [stack_deck(game.params, (dealer + k) % n, hands) for k in range(1 + more)]
    return game, game.new_state(decks=decks, dealer=dealer)


def act(game: Game[Any, Any], state: Any, *actions: str) -> Any:
    for text in actions:
        state = game.apply(state, text)
    return state


def play_tricks(game: Game[Any, Any], state: Any, tricks: list[str]) -> Any:
    """Play each trick's cards in the order written (the leader first)."""
    for trick in tricks:
        state = act(game, state, *(f"play {card}" for card in trick.split()))
    return state


def play_one_suit_deal(game: Game[Any, Any], state: Any, first_bid: int) -> Any:
    """Play an ONE_SUIT deal: the first bidder bids ``first_bid``, the others less, no trump."""
    n = game.players
    for bid in (first_bid, 0, 0, 1, 1, 2, 2)[:n]:
        state = game.apply(state, f"bid {bid}")
    state = game.apply(state, "trump none")
    number = state.deal.number
    while game.outcome(state) is None and state.deal.number == number:
        state = game.apply(state, game.legal_actions(state)[0])
    return state


def all_events(game: Game[Any, Any], state: Any, actions: list[str]) -> tuple[Any, list[Any]]:
    seen = list(game.events(state))
    for text in actions:
        state = game.apply(state, text)
        seen += game.events(state)
    return state, seen


def settle(game: Game[Any, Any], state: Any, tricks: list[str]) -> tuple[Any, dict[str, Any]]:
    """Play a deal's last ``tricks``; return the next state and the settlement: the ``pot``
    event's data plus the tricks each seat took."""
    state, seen = all_events(game, state, [f"play {c}" for t in tricks for c in t.split()])
    pot = next(e for e in seen if e.type == "pot").data
    score = next(e for e in seen if e.type == "score").data
    return state, {**pot, "won": tuple(score["tricks"])}


def random_playout(game: Game[Any, Any], seed: int, steps: int | None = None) -> list[Any]:
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    states = [state]
    while game.outcome(state) is None and (steps is None or len(states) <= steps):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
        states.append(state)
    return states


def rule(game: Game[Any, Any], state: Any, action: int | str) -> str | None:
    error = game.why_illegal(state, action)
    return None if error is None else error.rule


def conserved(state: Any) -> bool:
    """Chips in stacks + pot == chips bought (the starting bankroll included) − discarded."""
    return bool(sum(state.stacks) + state.pot == sum(state.bought) - state.discarded)


# --- equipment, cards and players ---------------------------------------------------------


def test_6_1_a_52_cards_seven_each_the_rest_unused() -> None:
    game = load()
    state = game.new_state(seed=3)
    deal = game.events(state)[0]
    assert sorted(deal.data["deck"]) == sorted(format_card(c) for c in tapete.cards.FRENCH_52.cards)
    assert [len(h) for h in deal.data["hands"]] == [7, 7, 7, 7]
    assert deal.data["undealt"] == deal.data["deck"][28:]
    assert deal.data["upcard"] is None and deal.data["stock"] == []


def test_6_1_b_two_is_low_and_ace_is_high() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 0", "bid 1", "bid 0", "bid 1", "trump none")
    state = play_tricks(game, state, ["Ks As 2h 2c"])
    assert state.won == (0, 0, 1, 0)
    state = act(game, state, "play 2s", "play 4h", "play 3c", "play 7s")
    assert state.won == (0, 1, 1, 0)  # 7♠ beats 2♠


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_6_1_c_three_to_seven_players(n: int) -> None:
    game = load(f"pottle(players={n})")
    states = random_playout(game, seed=n)
    assert game.outcome(states[-1]) is not None
    assert len(game.events(states[0])[0].data["hands"]) == n


@pytest.mark.parametrize("n", [2, 8])
def test_6_1_c_other_player_counts_are_refused(n: int) -> None:
    with pytest.raises(SpecError, match="3 to 7"):
        load(f"pottle(players={n})")


def test_6_1_d_at_most_two_players_bid_the_same_number() -> None:
    game, state = start(EXAMPLE_HANDS)
    state = act(game, state, "bid 2", "bid 2")
    assert BID + 2 not in game.legal_actions(state)
    error = game.why_illegal(state, "bid 2")
    assert error is not None and error.rule == "bid-taken"
    assert "seat 0, seat 1" in str(error)
    assert rule(game, state, "bid 3") is None


def test_6_1_e_everyone_starts_with_20_chips_and_antes_one() -> None:
    game = load()
    state = game.new_state(seed=1)
    assert state.bought == (20, 20, 20, 20)
    assert state.stacks == (19, 19, 19, 19) and state.pot == 4


def test_6_1_f_a_player_who_cannot_ante_buys_a_bankroll() -> None:
    game, state = start(ONE_SUIT, spec="pottle(bankroll=1)", more=1)
    assert state.stacks == (0, 0, 0, 0)
    state = play_one_suit_deal(game, state, first_bid=7)  # P1 (seat 0) bids 7, takes 7
    buys = [e.data for e in game.events(state) if e.type == "buy"]
    assert buys == [{"seat": s, "chips": 1, "bought": 2} for s in (1, 2, 3)]
    assert state.bought == (1, 2, 2, 2)
    assert state.stacks == (3, 0, 0, 0) and state.pot == 4


def test_6_1_g_standings_are_chips_held_minus_chips_bought() -> None:
    game, state = start(ONE_SUIT, spec="pottle(bankroll=1, deals=2, extra_deals=0)", more=1)
    state = play_one_suit_deal(game, state, first_bid=7)  # seat 0 wins 4
    state = play_one_suit_deal(game, state, first_bid=7)  # seat 1 wins 4
    result = game.outcome(state)
    assert result is not None
    assert state.stacks == (3, 4, 0, 0) and state.bought == (1, 2, 2, 2)
    assert result.scores == (2, 2, -2, -2)
    assert result.scores == tuple(game.observe(state, None).scores)


# --- seating and deal --------------------------------------------------------------------


def test_6_2_a_the_first_dealer_is_drawn_by_lot() -> None:
    game = load("pottle(players=5)")
    for seed in range(5):
        state = game.new_state(seed=seed)
        assert state.deal.dealer == by_lot(5, seed, "first-dealer")


def test_6_2_b_the_deal_passes_to_the_left() -> None:
    game, state = start(ONE_SUIT, more=2)
    dealers = [state.deal.dealer]
    for _ in range(2):
        state = play_one_suit_deal(game, state, first_bid=6)
        dealers.append(state.deal.dealer)
    assert dealers == [3, 0, 1]


def test_6_2_c_everyone_antes_before_each_deal() -> None:
    game, state = start(ONE_SUIT, more=1)
    state = play_one_suit_deal(game, state, first_bid=6)  # the pot carries
    assert state.pot == 8 and state.stacks == (18, 18, 18, 18)
    deal = next(e for e in game.events(state) if e.type == "deal")
    assert (deal.data["carried"], deal.data["antes"], deal.data["pot"]) == (4, 4, 8)


def test_6_2_d_seven_cards_one_at_a_time_from_the_dealers_left() -> None:
    game = load()
    state = game.new_state(seed=11, dealer=1)
    deck = state.deal.deck
    for i in range(28):
        assert deck[i] in CardSet(state.hands[(2 + i) % 4])
    assert all(h.bit_count() == 7 for h in state.hands)


# --- bidding -----------------------------------------------------------------------------


def test_6_3_a_one_round_of_bids_from_the_dealers_left() -> None:
    game, state = start(EXAMPLE_HANDS, dealer=1)
    order = []
    while state.phase == pottle.Phase.BID:
        order.append(game.current_player(state))
        state = game.apply(state, "bid 1" if len(order) % 2 else "bid 0")
    assert order == [2, 3, 0, 1]
    assert state.phase == pottle.Phase.TRUMP  # nobody bids twice


def test_6_3_b_a_bid_is_zero_to_seven_and_need_not_rise() -> None:
    game, state = start(EXAMPLE_HANDS)
    assert game.legal_actions(state) == [BID + b for b in range(8)]
    assert rule(game, state, BID + 8) == "bid-range"
    with pytest.raises(InvalidActionError, match="at most 7 tricks"):  # as text: no bid at all
        game.parse_action("bid 8")
    state = act(game, state, "bid 7", "bid 0", "bid 0")
    assert rule(game, state, "bid 5") is None


def test_6_3_c_the_highest_bid_wins_the_auction() -> None:
    game, state = start(EXAMPLE_HANDS)
    state, seen = all_events(game, state, ["bid 1", "bid 0", "bid 4", "bid 2"])
    assert state.declarer == 2 and game.current_player(state) == 2
    assert seen[-1].type == "auction" and seen[-1].data["declarer"] == 2


def test_6_3_d_a_tie_for_the_highest_bid_goes_to_the_first_bidder() -> None:
    game, state = start(EXAMPLE_HANDS, dealer=1)  # seat 2 bids first, seat 0 third
    state = act(game, state, "bid 1", "bid 0", "bid 5", "bid 5")
    assert state.declarer == 0


def test_6_3_e_the_auction_winner_names_a_suit_or_no_trump() -> None:
    game, state = start(EXAMPLE_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1")
    assert game.legal_actions(state) == [TRUMP, TRUMP + 1, TRUMP + 2, TRUMP + 3, NO_TRUMP]
    for text, trump in [("trump c", 4), ("trump d", 5), ("trump h", 6), ("trump s", 7)]:
        assert game.apply(state, text).trump == trump
    assert game.apply(state, "trump none").trump == -1
    assert rule(game, state, "play As") == "naming-trump"
    assert rule(game, state, "bid 4") == "naming-trump"


# --- play --------------------------------------------------------------------------------


def test_6_4_a_the_auction_winner_leads_the_first_trick() -> None:
    game, state = start(EXAMPLE_HANDS)
    state = act(game, state, "bid 0", "bid 0", "bid 1", "bid 1", "trump s")
    assert game.current_player(state) == 2 and state.leader == 2


def test_6_4_b_follow_suit_if_you_can() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump h", "play Ks")
    assert game.legal_actions(state) == parse_cards("2s 3s 4s 5s 6s As", french=True)
    error = game.why_illegal(state, "play Ad")
    assert error is not None and error.rule == "must-follow-suit"
    assert str(error) == "must follow suit: spades was led and you hold 2s 3s 4s 5s 6s As"


def test_6_4_c_a_void_player_may_play_anything_trumping_is_not_required() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump h", "play Ks", "play As")
    assert len(game.legal_actions(state)) == 7  # P4: any heart (all trumps)
    state = game.apply(state, "play 2h")
    assert len(game.legal_actions(state)) == 7  # P1: the 3♥ or any other card
    assert rule(game, state, "play 5d") is None and rule(game, state, "play 3h") is None


def test_6_4_d_the_highest_trump_wins_else_the_highest_of_the_suit_led() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump h")
    state = play_tricks(game, state, ["Ks As 2h 5d"])
    assert state.won == (0, 0, 0, 1)
    state = play_tricks(game, state, ["4h 3h Qs 2s"])  # the trump 4♥ led: P1's 3♥ is lower
    assert state.won == (0, 0, 0, 2)
    # With clubs trump and no club played, the K♠ led beats the off-suit 9♥.
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump c")
    state = play_tricks(game, state, ["Ks 2s 9h 5d"])
    assert state.won == (0, 1, 0, 0)


def test_6_4_e_the_trick_winner_leads_and_a_deal_has_seven_tricks() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump h")
    state = play_tricks(game, state, ["Ks As 2h 5d"])
    assert game.current_player(state) == 3 and state.leader == 3
    state = play_tricks(game, state, ["4h 3h Qs 2s", "5h 2c Js 3s", "6h 3c Ts 4s", "7h 4c 9s 5s"])
    state = play_tricks(game, state, ["8h 5c 8s 6s", "9h 6c 7s"])
    assert state.won == (0, 0, 0, 6) and game.current_player(state) == 2
    state, seen = all_events(game, state, ["play Ad"])
    assert [e.type for e in seen][:3] == ["trick", "pot", "score"]
    assert state.deal.number == 1 and state.won == (0, 0, 0, 0)  # the next deal began
    assert len(state.history) == 1


# --- settlement --------------------------------------------------------------------------


def test_6_5_a_an_exact_declarer_takes_the_whole_pot() -> None:
    game, state = start(EXAMPLE_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump none")
    state, seen = all_events(game, state, [f"play {c}" for t in EXACT_THREE for c in t.split()])
    pot = next(e for e in seen if e.type == "pot")
    expected = {"declarer": 1, "bid": 3, "tricks": 3, "winner": 1, "chips": 4, "carried": False}
    assert pot.data == expected
    assert state.history[0] == (-1, 3, -1, -1)
    assert state.stacks == (18, 22, 18, 18) and state.pot == 4  # the next deal's antes


def test_6_5_b_otherwise_the_pot_carries_and_grows_with_the_next_antes() -> None:
    game, state = start(EXAMPLE_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump none")
    state = play_tricks(game, state, FOUR_TRICKS)
    assert state.history[0] == (-1, -1, -1, -1)
    assert state.pot == 8 and state.stacks == (18, 18, 18, 18)


def test_6_5_c_other_players_bids_do_not_matter() -> None:
    # P1 bid 2 and took 2, P4 bid 1 and took 1; only the declarer's contract pays.
    game, state = start(EXAMPLE_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump none")
    state, settled = settle(game, state, EXACT_THREE)
    assert settled["won"] == (2, 3, 1, 1) and settled["winner"] == 1
    assert state.history[0] == (-1, 3, -1, -1)


# --- end of game -------------------------------------------------------------------------


def test_6_6_a_the_match_is_two_deals_per_player_when_the_last_pot_is_won() -> None:
    game, state = start(ONE_SUIT[:3], spec="pottle(players=3)", dealer=2, more=5)
    for _ in range(6):
        assert game.outcome(state) is None
        state = play_one_suit_deal(game, state, first_bid=7)
    result = game.outcome(state)
    assert result is not None and result.reason == "deals complete"
    assert len(state.history) == 6 and result.scores == (0, 0, 0)
    assert game.current_player(state) is None


def test_6_6_b_extra_deals_follow_until_the_pot_is_won() -> None:
    game, state = start(ONE_SUIT[:3], spec="pottle(players=3)", dealer=2, more=7)
    for _ in range(6):
        state = play_one_suit_deal(game, state, first_bid=6)
    assert game.outcome(state) is None and state.pot == 21
    state = play_one_suit_deal(game, state, first_bid=6)  # extra deal 1: carried again
    assert game.outcome(state) is None and state.pot == 24
    state = play_one_suit_deal(game, state, first_bid=7)  # extra deal 2: seat 0 deals, seat 1 wins
    result = game.outcome(state)
    assert result is not None and result.reason == "pot won in an extra deal"
    assert result.scores == (-8, 16, -8) and result.winners == (1,)


def test_6_6_c_after_n_extra_deals_the_pot_is_split_and_the_rest_discarded() -> None:
    game, state = start(ONE_SUIT[:3], spec="pottle(players=3)", dealer=2, more=8)
    state, seen = all_events(game, state, [])
    for _ in range(9):
        state = play_one_suit_deal(game, state, first_bid=6)
        seen += game.events(state)
    result = game.outcome(state)
    assert result is not None and result.reason == "pot split after the extra deals"
    split = next(e for e in seen if e.type == "split")
    assert split.data == {"pot": 27, "share": 9, "discarded": 0}
    assert result.scores == (0, 0, 0) and state.pot == 0

    game, state = start(ONE_SUIT, spec="pottle(deals=1, extra_deals=0, bankroll=5)")
    state, seen = all_events(game, state, [])
    state = play_one_suit_deal(game, state, first_bid=6)
    seen += game.events(state)
    split = next(e for e in seen if e.type == "split")
    assert split.data == {"pot": 4, "share": 1, "discarded": 0}


def test_6_6_c_an_uneven_pot_is_split_and_the_remainder_discarded() -> None:
    # A pot of 10 among four: 2 each, 2 discarded.
    game, state = start(ONE_SUIT, spec="pottle(deals=1, extra_deals=0)")
    state = state._with(pot=10, stacks=(17, 17, 18, 18))
    assert conserved(state)
    state = play_one_suit_deal(game, state, first_bid=6)
    assert state.discarded == 2 and state.stacks == (19, 19, 20, 20)
    assert conserved(state)
    end = game.events(state)[-1]
    assert end.type == "end" and end.data["discarded"] == 2


def test_6_6_d_the_highest_net_result_wins() -> None:
    game, state = start(ONE_SUIT, spec="pottle(deals=2, extra_deals=0)", more=1)
    state = play_one_suit_deal(game, state, first_bid=6)  # carried: pot 8
    state = play_one_suit_deal(game, state, first_bid=7)  # seat 1 bids first and wins 8
    result = game.outcome(state)
    assert result is not None and result.winners == (1,) and result.scores == (-2, 6, -2, -2)
    end = game.events(state)[-1]
    assert end.type == "end" and end.data["reason"] == "deals complete"
    assert end.data["scores"] == [-2, 6, -2, -2] and end.data["winners"] == [1]


# --- worked examples --------------------------------------------------------------------------


def test_pt_1_the_first_to_bid_three_wins_and_no_third_three() -> None:
    game, state = start(EXAMPLE_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3")
    assert game.current_player(state) == 3
    assert rule(game, state, "bid 3") == "bid-taken"
    state = game.apply(state, "bid 1")
    assert state.declarer == 1 and game.current_player(state) == 1
    state = game.apply(state, "trump s")
    assert game.current_player(state) == 1 and state.leader == 1


def test_pt_2_exact_wins_the_pot_of_twelve_a_miss_carries_it_to_sixteen() -> None:
    # Eight chips carried: two deals before it in which the auction's winner (6 of 7 tricks
    # in one suit each) missed, each leaving the four antes in the pot.
    game = load()
    decks = [
        stack_deck(game.params, 1, ONE_SUIT),
        stack_deck(game.params, 2, ONE_SUIT),
        stack_deck(game.params, 3, EXAMPLE_HANDS),
        stack_deck(game.params, 0, EXAMPLE_HANDS),
    ]
    state = game.new_state(decks=decks, dealer=1)
    for _ in range(2):
        state = play_one_suit_deal(game, state, 6)
    assert state.deal.number == 2 and state.pot == 8 + 4
    assert conserved(state)
    bid = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump none")

    made, settled = settle(game, bid, EXACT_THREE)
    assert settled["won"] == (2, 3, 1, 1) and settled["winner"] == 1 and settled["chips"] == 12
    assert made.history[-1] == (-1, 11, -1, -1)  # +11 net for the deal

    missed, settled = settle(game, bid, FOUR_TRICKS)
    assert settled["won"] == (2, 4, 1, 0) and settled["carried"]
    assert missed.history[-1] == (-1, -1, -1, -1)
    assert missed.pot == 16


def test_pt_3_a_void_player_may_discard_and_the_trump_wins() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump h")
    state = act(game, state, "play Ks", "play As", "play 2h")
    assert rule(game, state, "play 5d") is None  # P1 holds 3♥ but need not trump
    state, seen = all_events(game, state, ["play 5d"])
    assert seen[-1].data == {"leader": 1, "cards": ["Ks", "As", "2h", "5d"], "winner": 3}


def test_pt_4_at_no_trump_the_ace_of_the_suit_led_wins() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump none")
    state, seen = all_events(game, state, ["play Ks", "play As", "play 2h", "play 5d"])
    assert seen[-1].data["winner"] == 2


@pytest.mark.parametrize(("pot_rule", "winner"), [("pagat", 0), ("auction_winner", None)])
def test_pt_5_an_exact_p1_takes_the_pot_only_under_pagats_rule(
    pot_rule: str, winner: int | None
) -> None:
    game, state = start(EXAMPLE_HANDS, spec=f"pottle(pot_rule={pot_rule})")
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump none")
    state, settled = settle(game, state, FOUR_TRICKS)
    assert settled["won"] == (2, 4, 1, 0) and settled["winner"] == winner
    if winner is None:
        assert state.pot == 8
    else:
        assert state.history[0] == (3, -1, -1, -1) and state.pot == 4


# --- options ----------------------------------------------------------------------------------


def test_option_max_same_bid_unlimited_and_counts() -> None:
    game, state = start(EXAMPLE_HANDS, spec="pottle(max_same_bid=unlimited)")
    state = act(game, state, "bid 3", "bid 3", "bid 3", "bid 3")
    assert state.declarer == 0
    game, state = start(EXAMPLE_HANDS, spec="pottle(max_same_bid=1)")
    state = game.apply(state, "bid 3")
    assert rule(game, state, "bid 3") == "bid-taken"
    assert BID + 3 not in game.legal_actions(state)
    with pytest.raises(SpecError, match="2, unlimited"):
        load("pottle(max_same_bid=0)")


def test_option_max_same_bid_unlimited_everyone_may_bid_zero() -> None:
    """Only when as many players may bid a number as there are players can every bid be 0: the
    first bidder then wins the auction, and his contract is to take no trick."""
    game, state = start(ONE_SUIT, spec="pottle(max_same_bid=unlimited)")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0")
    assert state.declarer == 0 and game.current_player(state) == 0
    state = game.apply(state, "trump h")  # seat 2 trumps the first club and keeps the lead
    number, seen = state.deal.number, list[Any]()
    while state.deal.number == number:
        state = game.apply(state, game.legal_actions(state)[0])
        seen += game.events(state)
    pot = next(e.data for e in seen if e.type == "pot")
    assert pot["tricks"] == 0 and pot["winner"] == 0 and pot["chips"] == 4
    game, state = start(ONE_SUIT)  # two sets of number cards: a third 0 is refused
    assert rule(game, act(game, state, "bid 0", "bid 0"), "bid 0") == "bid-taken"


def test_option_pot_rule_pagat_ties_and_misses_carry() -> None:
    assert pottle.pot_winner(Params(pot_rule="pagat"), (3, 3, 0, 1), (3, 3, 0, 1), 0) == -1
    assert pottle.pot_winner(Params(pot_rule="pagat"), (3, 3, 0, 1), (4, 2, 1, 0), 0) == -1
    assert pottle.pot_winner(Params(pot_rule="pagat"), (3, 2, 0, 2), (3, 2, 1, 1), 0) == 0
    with pytest.raises(SpecError, match="auction_winner or pagat"):
        load("pottle(pot_rule=nobody)")


def test_option_deal_passes_to_the_pot_winner() -> None:
    spec = "pottle(deal_passes=pot_winner)"
    game = load(spec)
    decks = [stack_deck(game.params, d, ONE_SUIT) for d in (3, 0, 1)]
    state = game.new_state(decks=decks, dealer=3)
    state = play_one_suit_deal(game, state, first_bid=7)  # seat 0 wins the pot
    assert state.deal.dealer == 0
    state = play_one_suit_deal(game, state, first_bid=6)  # nobody wins: the deal passes left
    assert state.deal.dealer == 1
    with pytest.raises(SpecError, match="clockwise or pot_winner"):
        load("pottle(deal_passes=dealer)")


def test_option_deals_and_extra_deals() -> None:
    game, state = start(ONE_SUIT, spec="pottle(deals=1)", more=4)
    for _ in range(4):
        state = play_one_suit_deal(game, state, first_bid=6)
    assert game.outcome(state) is None  # 1 deal + at most 4 extra
    state = play_one_suit_deal(game, state, first_bid=6)
    result = game.outcome(state)
    assert result is not None and result.reason == "pot split after the extra deals"
    game, state = start(ONE_SUIT, spec="pottle(deals=1, extra_deals=2)", more=2)
    for _ in range(3):
        state = play_one_suit_deal(game, state, first_bid=6)
    assert len(state.history) == 3 and game.outcome(state) is not None
    for bad in ("deals=0", "extra_deals=-1", "deals=101", "extra_deals=101"):
        with pytest.raises(SpecError, match="to 100"):
            load(f"pottle({bad})")


def test_option_bankroll() -> None:
    state = load("pottle(bankroll=50)").new_state(seed=2)
    assert state.bought == (50,) * 4 and state.stacks == (49,) * 4
    with pytest.raises(SpecError, match="from 1"):
        load("pottle(bankroll=0)")


def test_spec_round_trip_and_defaults() -> None:
    game = load("pottle(players=5, pot_rule=pagat, max_same_bid=unlimited)")
    assert game.spec == "pottle(players=5, max_same_bid=unlimited, pot_rule=pagat)"
    assert load("pottle").params == Params()
    with pytest.raises(SpecError, match="its parameters are"):
        load("pottle(ante=2)")


# --- legality, notation, views, sampling, conservation ----------------------------------------


def test_why_illegal_codes() -> None:
    game, state = start(EXAMPLE_HANDS)
    assert rule(game, state, "play As") == "bidding"
    assert rule(game, state, "trump h") == "bidding"
    assert rule(game, state, BID + 9) == "bid-range"
    assert rule(game, state, -1) == rule(game, state, 20) == "no-such-action"
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1")
    assert rule(game, state, "play Ks") == "naming-trump"
    state = game.apply(state, "trump none")
    assert rule(game, state, "trump h") == "trump-named"
    assert rule(game, state, "bid 1") == "not-bidding"
    assert rule(game, state, "play Ah") == "not-in-hand"
    state = game.apply(state, "play 2h")
    assert rule(game, state, "play 3d") is None  # P3 has no heart
    state = game.apply(state, "play 3d")
    assert rule(game, state, "play 8d") == "must-follow-suit"  # P4 has 5♥ 6♥
    with pytest.raises(IllegalActionError) as raised:
        game.apply(state, "play 8d")
    assert raised.value.rule == "must-follow-suit"


def test_match_over_refuses_every_action() -> None:
    game, state = start(ONE_SUIT, spec="pottle(deals=1)")
    state = play_one_suit_deal(game, state, first_bid=7)
    assert game.current_player(state) is None and game.legal_actions(state) == []
    assert rule(game, state, "bid 1") == "match-over"


def test_legal_actions_agree_with_why_illegal() -> None:
    game = load("pottle(players=5)")
    space = range(-1, BID + 10)
    for state in random_playout(game, seed=5, steps=150)[::7]:
        legal = set(game.legal_actions(state))
        for action in space:
            assert (action in legal) == (game.why_illegal(state, action) is None), action


def test_parse_and_format_round_trip() -> None:
    game = load()
    space = [*tapete.cards.FRENCH_52.cards, *range(TRUMP, NO_TRUMP + 1), *range(BID, BID + 8)]
    for action in space:
        assert game.parse_action(game.format_action(action)) == action
    assert game.parse_action("TRUMP Hearts") == TRUMP + 2
    assert game.parse_action("3") == BID + 3 and game.parse_action("th") == parse_card("Th")
    for bad in ("bid x", "trump x", "play", "hello there friend", "play 1o"):
        with pytest.raises(InvalidActionError):
            game.parse_action(bad)


def test_apply_never_changes_the_old_state() -> None:
    game = load()
    rng = random.Random(3)
    state = game.new_state(seed=3)
    while game.outcome(state) is None:
        before = {name: getattr(state, name) for name in pottle.State.__slots__}
        action = rng.choice(game.legal_actions(state))
        with pytest.raises(IllegalActionError):
            game.apply(state, -5)
        state_after = game.apply(state, action)
        assert {name: getattr(state, name) for name in pottle.State.__slots__} == before
        state = state_after


def test_views_hide_other_hands() -> None:
    game = load("pottle(players=5)")
    for state in random_playout(game, seed=9, steps=60)[::5]:
        for seat in [None, *range(5)]:
            view = game.observe(state, seat)
            for other in range(5):
                if other != seat:
                    assert view.hands[other] is None
            text = repr(view)
            assert "seed" not in text and "deck" not in text


def test_a_view_is_unchanged_when_only_hidden_cards_change() -> None:
    game = load()
    a = game.new_state(decks=[stack_deck(game.params, 3, EXAMPLE_HANDS)], dealer=3)
    swapped = [EXAMPLE_HANDS[0], EXAMPLE_HANDS[2], EXAMPLE_HANDS[1], EXAMPLE_HANDS[3]]
    b = game.new_state(decks=[stack_deck(game.params, 3, swapped)], dealer=3)
    assert game.observe(a, 0) == game.observe(b, 0)
    assert game.observe(a, 1) != game.observe(b, 1)


def test_views_show_voids_chips_and_trump() -> None:
    game, state = start(TRICK_HANDS)
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1")
    view = game.observe(state, 0)
    assert view.trump is None and view.declarer == 1 and view.phase == pottle.Phase.TRUMP
    assert view.pot == 4 and view.stacks == (19,) * 4 and view.scores == (-1,) * 4
    state = act(game, state, "trump none", "play Ks", "play As", "play 2h")
    view = game.observe(state, 2)
    assert view.trump == -1 and view.trick == tuple(parse_card(c) for c in ("Ks", "As", "2h"))
    spades = CardSet(" ".join(r + "s" for r in "23456789TJQKA"), french=True)
    assert view.excluded[3] == spades and view.excluded[2] == CardSet()


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 7),
    steps=st.integers(0, 90),
    seat=st.integers(-1, 6),
)
def test_sample_state_is_consistent_with_the_view(
    seed: int, players: int, steps: int, seat: int
) -> None:
    game = load(f"pottle(players={players})")
    state = random_playout(game, seed, steps)[-1]
    who = None if seat < 0 else seat % players
    view = game.observe(state, who)
    rng = random.Random(seed)
    sampled = game.sample_state(view, rng)
    assert game.observe(sampled, who) == view
    for s in range(players):
        assert not sampled.hands[s] & view.excluded[s].mask
    if game.outcome(sampled) is None:  # and it plays on
        state = game.apply(sampled, rng.choice(game.legal_actions(sampled)))


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(
        [
            "pottle",
            "pottle(players=3, bankroll=2)",
            "pottle(players=7, bankroll=1, pot_rule=pagat)",
            "pottle(players=5, deals=2, extra_deals=0)",
            "pottle(players=6, deal_passes=pot_winner, max_same_bid=unlimited, bankroll=3)",
        ]
    ),
)
def test_chips_are_conserved(seed: int, spec: str) -> None:
    """Stacks + pot == chips started + chips bought since, minus the remainder discarded."""
    game = load(spec)
    start_chips = game.players * game.params.bankroll
    states = random_playout(game, seed)
    buys = 0
    for state in states:
        buys += sum(e.data["chips"] for e in game.events(state) if e.type == "buy")
        assert sum(state.stacks) + state.pot == start_chips + buys - state.discarded
        assert sum(state.bought) == start_chips + buys
        assert min(state.stacks) >= 0
    final = states[-1]
    result = game.outcome(final)
    assert result is not None and final.pot == 0
    assert sum(result.scores) == -final.discarded
    assert [sum(col) for col in zip(*final.history, strict=True)] == list(result.scores)


def test_same_seed_same_match() -> None:
    game = load()
    a, b = random_playout(game, 21), random_playout(game, 21)
    assert [repr(s) for s in a] == [repr(s) for s in b]


def test_events_of_a_deal() -> None:
    game, state = start(EXAMPLE_HANDS)
    first = game.events(state)
    assert [e.type for e in first] == ["deal"]
    deal = first[0].data
    assert deal["dealer"] == 3 and deal["hands"][0] == ["2c", "3c", "4c", "5c", "2d", "Kh", "Ah"]
    assert deal["deck"][:4] == ["Ah", "As", "Ad", "5h"]
    state = act(game, state, "bid 2", "bid 3", "bid 3", "bid 1", "trump none")
    state, seen = all_events(game, state, [f"play {c}" for t in EXACT_THREE for c in t.split()])
    assert [e.type for e in seen][-4:] == ["trick", "pot", "score", "deal"]
    score = next(e for e in seen if e.type == "score").data
    assert score["score"] == [-1, 3, -1, -1] and score["totals"] == [-1, 3, -1, -1]
    assert [e.to_json()["type"] for e in seen].count("trick") == 7


# --- records ----------------------------------------------------------------------------------


def test_a_record_replays_exactly() -> None:
    game = load("pottle(players=5, bankroll=1, pot_rule=pagat)")
    final, rec = play(game, ["random"] * 5, seed=4)
    again = record.loads(record.dumps(rec))
    assert again == rec
    replayed = record.replay(again)
    assert game.outcome(replayed) == game.outcome(final)
    assert replayed.stacks == final.stacks and replayed.bought == final.bought
    result = game.outcome(final)
    assert result is not None and rec.result is not None
    assert list(rec.result["scores"]) == list(result.scores)
    # A deal's score is what it changed; buys are not counted, so they add up to the standings.
    assert [sum(d.score[s] for d in rec.deals if d.score) for s in range(5)] == list(result.scores)
    buys = [e for d in rec.deals for e in d.events if e["type"] == "buy"]
    assert buys and all(e["after"] == -1 for e in buys)  # bought before the deal's first decision


def test_a_record_with_a_wrong_score_does_not_replay() -> None:
    game = load("pottle(players=3, deals=1, extra_deals=0)")
    _, rec = play(game, ["random"] * 3, seed=2)
    deal = rec.deals[0]
    assert deal.score is not None
    wrong = dataclasses.replace(deal, score=(deal.score[0] + 1, *deal.score[1:]))
    with pytest.raises(RecordError, match="scores"):
        record.replay(dataclasses.replace(rec, deals=(wrong,)))


def test_a_bankroll_is_1_to_1000_chips() -> None:
    # Counts stay exact in every client (a browser's numbers lose whole chips past 2**53).
    assert tapete.load("pottle(bankroll=1000)").params.bankroll == 1000
    for bad in (0, 1001, 10**30):
        with pytest.raises(
            SpecError, match=r"bankroll=.* is not accepted: a number of chips from 1 to 1000"
        ):
            tapete.load(f"pottle(bankroll={bad})")


@pytest.mark.parametrize(
    "spec", ["pottle", "pottle(players=7, pot_rule=pagat)", "pottle(players=3, max_same_bid=1)"]
)
def test_every_auction_trick_and_pot_follows_the_rules_as_written(spec: str) -> None:
    """In whole random matches: the legal cards follow suit, the first to bid the highest number
    declares, each trick goes to the best trump else the best of the suit led, and the pot goes
    to the exact declarer (under pagat's rule: to the one exact highest bidder)."""
    game = load(spec)
    n, pagat = game.params.players, game.params.pot_rule == "pagat"
    pots = 0
    for seed in range(3):
        states = random_playout(game, seed)
        for before, after in itertools.pairwise(states):
            if before.phase == pottle.Phase.PLAY:
                hand = CardSet(before.hands[before.turn])
                led = [c for c in hand if before.trick and c >> 4 == before.trick[0] >> 4]
                assert set(game.legal_actions(before)) == set(led or hand)
            for event in game.events(after):
                data = event.data
                if event.type == "auction":
                    order = [(before.deal.dealer + 1 + i) % n for i in range(n)]
                    top = max(data["bids"])
                    assert data["declarer"] == next(s for s in order if data["bids"][s] == top)
                if event.type == "trick":
                    trick, trump = [parse_card(c, french=True) for c in data["cards"]], before.trump
                    best = max(
                        [i for i, c in enumerate(trick) if c >> 4 == trump]
                        or [i for i, c in enumerate(trick) if c >> 4 == trick[0] >> 4],
                        key=lambda i: trick[i] & 15,
                    )
                    assert data["winner"] == (data["leader"] + best) % n
                if event.type == "score":
                    pots += 1
                    bids, won = data["bids"], data["tricks"]
                    if pagat:
                        exact = [s for s in range(n) if won[s] == bids[s]]
                        top = max((bids[s] for s in exact), default=-1)
                        makers = [s for s in exact if bids[s] == top]
                        winner = makers[0] if len(makers) == 1 else None
                    else:
                        declarer = before.declarer
                        winner = declarer if won[declarer] == bids[declarer] else None
                    pot = next(e for e in game.events(after) if e.type == "pot")
                    assert pot.data["winner"] == winner
    assert pots > 0
