"""Poch: one test per clause of docs/rules/poch.md, its worked examples PO-1..PO-5, every
option.

Positions are set up with explicit deck orders (``poch.stack_deck``). Seats are numbered in play
order, so with ``dealer=2`` of three players the worked examples' P1, P2, P3 are seats 0, 1, 2.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete.cards import CardSet, format_card, parse_card
from tapete.errors import IllegalActionError, InvalidActionError, SpecError
from tapete.game import Event, Game, Setup
from tapete.games import poch
from tapete.games.poch import (
    ACE,
    CALL,
    JACK,
    KING,
    MARRIAGE,
    PASS,
    PINKE,
    POCH,
    QUEEN,
    SEQUENCE,
    TEN,
    State,
    bet_action,
    raise_action,
)
from tapete.narrate import line, step_entries, view_text

# Worked example PO-1: P3 deals, trump diamonds.
PO1 = ["7c 8s Th Qh As", "8c 9c 9s Jh Kd", "Tc 7h 8h Ks Ad"]


def c(text: str) -> int:
    return parse_card(text, french=True)


def cs(text: str) -> CardSet:
    return CardSet.parse(text, french=True)


def setup(
    hands: list[str], upcard: str | None, dealer: int, **options: Any
) -> tuple[Game[Any, Any], State]:
    """A game with ``options`` whose first round deals ``hands`` (per seat) and turns ``upcard``."""
    spec = tapete.game.format_spec("poch", {"players": len(hands), **options})
    game = tapete.load(spec)
    deck = poch.stack_deck(game.params, dealer, hands, upcard)
    return game, game.new_state(decks=[deck], dealer=dealer)


def act(game: Game[Any, Any], state: State, *moves: str) -> tuple[State, list[Event]]:
    """Apply ``"seat action"`` moves in order, checking whose turn it is; collect the events."""
    seen: list[Event] = []
    for move in moves:
        seat, text = move.split(" ", 1)
        assert game.current_player(state) == int(seat), (move, state)
        state = game.apply(state, text)
        seen += game.events(state)
    return state, seen


def of(events: list[Event] | tuple[Event, ...], kind: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if e.type == kind]


def meld(state: State, bowl: int) -> poch.Meld:
    return state.rnd.melds[bowl]


def code(game: Game[Any, Any], state: State, text: str) -> str:
    error = game.why_illegal(state, text)
    assert error is not None, text
    with pytest.raises(IllegalActionError):
        game.apply(state, text)
    return error.rule


def random_states(spec: str, seed: int, limit: int = 400) -> list[State]:
    game = tapete.load(spec)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    out = [state]
    while game.current_player(state) is not None and len(out) < limit:
        state = game.apply(state, rng.choice(game.legal_actions(state)))
        out.append(state)
    return out


SPECS = [
    "poch",
    "poch(players=3)",
    "poch(players=5)",
    "poch(players=6, bet_cap=none)",
    "poch(bowl_funding=player_antes)",
    "poch(players=3, deal=all, all_pass=showdown, shed_leader=poker_winner)",
    "poch(players=5, deal=all, sequence_compare=length_then_height)",
    "poch(sequence_rule=trump_789, rounds=one_per_player)",
]


# --- deck and ranks ------------------------------------------------------------------------


def test_5_1_a_32_cards_for_3_or_4_players_52_for_5_or_6() -> None:
    for players, size, low in ((3, 32, 7), (4, 32, 7), (5, 52, 2), (6, 52, 2)):
        state = tapete.load(f"poch(players={players})").new_state(seed=1)
        assert len(state.rnd.deck) == size
        assert min(card & 15 for card in state.rnd.deck) == low


def test_5_1_b_ace_is_high_only_and_runs_never_wrap() -> None:
    p = poch.Params()
    assert poch.best_run(cs("Qc Kc Ac").mask, 5, p) is not None
    assert poch.best_run(cs("Kc Ac 7c").mask, 5, p) is None
    assert poch.best_run(cs("Ac 2c 3c").mask, 5, poch.Params(players=5)) is None
    assert poch.hand_value(cs("As 7c 8d 9h Jc").mask, 4) > poch.hand_value(
        cs("Ks Qc Jd 9s 8c").mask, 4
    )


def test_5_1_c_french_suits_and_notation() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    assert of(game.events(state), "deal")[0]["french"] is True
    assert game.parse_action("play Ah") == c("Ah")
    assert game.format_action(c("Td")) == "play Td"


# --- players, seating and setup ------------------------------------------------------------


def test_5_2_a_dealers_left_begins_every_phase() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    assert game.current_player(state) == 0  # the poker round
    state, _ = act(game, state, "0 pass", "1 pass", "2 pass")
    assert game.current_player(state) == 0  # the shedding race
    game, state = setup(PO1, "9d", dealer=0)
    assert game.current_player(state) == 1


def test_5_2_b_ten_chips_each_and_the_first_dealer_drawn_by_lot() -> None:
    game = tapete.load("poch")
    dealers = set()
    for seed in range(12):
        state = game.new_state(seed=seed)
        assert state.rnd.start == (10, 10, 10, 10)
        assert state.rnd.dealer == tapete.chance.by_lot(4, seed, "first-dealer")
        dealers.add(state.rnd.dealer)
    assert len(dealers) > 1
    assert game.new_state(seed=3, dealer=2).rnd.dealer == 2


def test_5_2_c_the_board_has_nine_bowls_with_the_pinke_last() -> None:
    assert poch.BOWLS == (
        "ace", "king", "queen", "jack", "ten", "marriage", "sequence", "poch", "pinke"
    )  # fmt: skip
    game, state = setup(PO1, "9d", dealer=2)
    assert len(game.observe(state, None).bowls) == 9


def test_5_2_d_the_bank_adds_one_chip_to_each_named_bowl_and_the_pinke_starts_empty() -> None:
    game, state = setup(["7c 8s Th Qh As", "8c 9c 9s Jh Ks", "Tc 7h 8h Kh Ac"], "9d", dealer=2)
    fund = of(game.events(state), "fund")[0]
    assert fund == {"type": "fund", "by": "bank", "chips": 8, "bowls": [1] * 8 + [0]}
    # Nobody holds a trump honour here, so the board is exactly as funded and no stack changed.
    assert state.bowls == (1,) * 8 + (0,)
    assert state.chips == (10, 10, 10)
    assert state.bank == 8


def test_5_2_e_chips_not_won_stay_in_their_bowl() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, events = act(game, state, "0 pass", "1 pass", "2 pass")
    assert of(events, "poker")[0]["result"] == "carry"
    state, _ = act(
        game, state, "0 play 7c", "2 play 7h", "2 play Ks", "0 play 8s", "1 play Jh", "0 play Th"
    )
    fund = of(game.events(state), "fund")[0]
    assert fund["bowls"] == [1, 1, 2, 2, 2, 2, 2, 2, 0]  # the Poch bowl carried too


@pytest.mark.parametrize("spec", SPECS)
def test_5_2_f_chips_are_conserved_and_only_the_bank_adds_them(spec: str) -> None:
    for seed in range(3):
        states = random_states(spec, seed, limit=2000)
        p = states[0].params
        for before, after in itertools.pairwise(states):
            total = sum(after.chips) + sum(after.bowls)
            assert total == p.players * p.chips + after.bank
            assert all(x >= 0 for x in (*after.chips, *after.bowls))
            added = after.bank - before.bank
            new_round = after.rnd is not before.rnd
            if p.bowl_funding == "bank":
                assert added == (8 if new_round else 0)
            else:
                assert added == 0


# --- deal ----------------------------------------------------------------------------------


def test_5_3_a_five_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    game = tapete.load("poch(players=3)")
    deck = game.new_state(seed=5).rnd.deck
    state = game.new_state(decks=[deck], dealer=1)
    for i in range(15):
        assert state.hands[(2 + i) % 3] >> deck[i] & 1
    assert [h.bit_count() for h in state.hands] == [5, 5, 5]
    deal = of(game.events(state), "deal")[0]
    assert deal["hands"][2] == [format_card(deck[i]) for i in (0, 3, 6, 9, 12)]


def test_5_3_b_the_next_card_sets_trump_and_the_rest_is_out_of_play() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    deal = of(game.events(state), "deal")[0]
    assert (deal["upcard"], deal["trump"], len(deal["stock"])) == ("9d", "diamonds", 16)
    view = game.observe(state, 0)
    assert view.trump == 5 and c("9d") in view.out_of_play
    assert state.rnd.stock.bit_count() == 17


# --- melding -------------------------------------------------------------------------------


def test_5_4_a_the_holders_of_trump_ace_to_ten_take_those_bowls_and_show_the_card() -> None:
    game, state = setup(["Ac Tc 7h 8s 9d", "Kc Jc 8h 9s Td", "Qh Kh 9h Js Qd"], "7c", dealer=2)
    assert [meld(state, b).seat for b in (ACE, KING, QUEEN, JACK, TEN)] == [0, 1, None, 1, 0]
    assert state.chips == (12, 12, 10)
    view = game.observe(state, 2)
    assert view.known[0] == cs("Ac Tc") and view.known[1] == cs("Kc Jc")
    events = of(game.events(state), "meld")
    assert events[0] == {
        "type": "meld",
        "bowl": "ace",
        "seat": 0,
        "chips": 1,
        "stays": 0,
        "cards": ["Ac"],
        "why": "holds the ace of trumps",
    }


def test_5_4_b_trump_king_and_queen_in_one_hand_take_the_marriage_bowl() -> None:
    _, state = setup(["Kc Qc 7h 8s 9d", "Ac Jc 8h 9s Td", "Qh Kh 9h Js Qd"], "7c", dealer=2)
    assert meld(state, MARRIAGE).seat == 0
    assert state.chips[0] == 13  # King, Queen and Marriage
    _, state = setup(["Kc Tc 7h 8s 9d", "Qc Jc 8h 9s Td", "Qh Kh 9h Js Qd"], "7c", dealer=2)
    assert meld(state, MARRIAGE).seat is None
    assert meld(state, MARRIAGE).why == "nobody holds both Kc and Qc"


# Worked example PO-4 (spades trump): P2 8-9-10 of clubs, P3 J-Q-K of diamonds, P4 7-8-9 of spades.
PO4 = ["Ah Kh 9h 7h 7d", "8c 9c Tc As Ks", "Jd Qd Kd 8h Ac", "7s 8s 9s Jh Th"]


def test_5_4_c_a_trump_run_beats_any_other() -> None:
    _, state = setup(PO4, "Ts", dealer=3)
    sequence = meld(state, SEQUENCE)
    assert (sequence.seat, sequence.cards) == (3, cs("7s 8s 9s"))


def test_5_4_d_otherwise_the_higher_run_wins() -> None:
    """PO-4 without P4: P3's J-Q-K beats P2's 8-9-10."""
    game, state = setup(PO4[:3], "Ts", dealer=2)
    assert meld(state, SEQUENCE).seat == 2
    assert game.observe(state, 0).known[2] == cs("Jd Qd Kd")


def test_5_4_e_equal_plain_runs_go_to_the_seat_nearest_the_dealers_left() -> None:
    hands = ["8c 9c Tc As Ks", "8h 9h Th Ah Kh", "7d Jd Qd 7c Jc"]
    for dealer, expected in ((2, 0), (0, 1), (1, 0)):
        game = tapete.load("poch(players=3)")
        order = [(dealer + 1 + i) % 3 for i in range(3)]
        deck = poch.stack_deck(game.params, dealer, hands, "7s")
        state = game.new_state(decks=[deck], dealer=dealer)
        assert meld(state, SEQUENCE).seat == expected
        assert order.index(expected) < order.index(1 - expected)


def test_5_4_f_a_longer_run_counts_by_its_best_three_cards() -> None:
    _, state = setup(["7c 8c 9c Tc As", "9h Th Jh 7d Ks", "Jd Qd 8h Ac 7h"], "7s", dealer=2)
    assert meld(state, SEQUENCE).seat == 1  # J high beats 10 high; the length does not count
    assert meld(state, SEQUENCE).why == "best run 9h Th Jh"
    _, state = setup(["7c 8c 9c Tc As", "8h 9h Th 7d Ks", "Jd Qd Jh Ac 7h"], "7s", dealer=2)
    assert meld(state, SEQUENCE).seat == 0  # equal at 10 high: the dealer's left
    assert meld(state, SEQUENCE).cards == cs("8c 9c Tc")


def test_5_4_g_a_bowl_whose_card_is_out_of_play_keeps_its_chips() -> None:
    game, state = setup(PO1, "9d", dealer=2)  # PO-1: Q, J and 10 of diamonds are in the stock
    for bowl in (QUEEN, JACK, TEN, MARRIAGE, SEQUENCE):
        assert meld(state, bowl).seat is None
        assert state.bowls[bowl] == 1
    assert meld(state, QUEEN).why == "Qd is out of play"
    assert cs("9d Qd Jd Td").mask & ~game.observe(state, 1).out_of_play.mask == 0


# --- poker ---------------------------------------------------------------------------------


def value(text: str, trump: int = 5) -> tuple[Any, ...]:
    return poch.hand_value(cs(text).mask, trump)


def test_5_5_a_four_beats_three_beats_a_pair_beats_no_set() -> None:
    """PO-2: four kings beat three aces; three sevens beat two kings."""
    assert value("Kc Kd Kh Ks 7c") > value("Ac Ad Ah 8s 9s")
    assert value("7c 7d 7h 8s 9s") > value("Kc Ks 8h 9d As")
    assert value("7c 7d 8h 9s Ts") > value("Ac Kd Qh Js 9s")


def test_5_5_b_among_sets_of_one_size_the_higher_rank_wins() -> None:
    assert value("Ac As 7h 8d 9c") > value("Kc Ks Ah Qd Jc")
    assert value("8c 8s 8h 7d 9c") > value("7c 7s 7h Ad Kc")


def test_5_5_c_same_size_and_rank_the_set_with_the_trump_card_wins() -> None:
    """PO-3: Kh Ks against Kd Kc with diamonds trump."""
    assert value("Kd Kc 7h 8h 9h") > value("Kh Ks Ah Qc Js")
    game, state = setup(["Kh Ks As 8c 9s", "Kd Kc 7h 8h Js", "Qc Jc 7c 8d Td"], "9d", dealer=2)
    state, events = act(game, state, "0 bet 1", "1 call", "2 pass")
    assert of(events, "poker")[0]["winner"] == 1


def _value_by_counting(hand: int, trump: int) -> tuple[Any, ...]:
    """The hand's value read straight from the rule: count each rank, take the biggest set (the
    higher rank among equal sizes), list the ranks high to low."""
    ranks = [c & 15 for c in CardSet(hand)]
    counts = {r: ranks.count(r) for r in ranks}
    size, rank = max((n, r) for r, n in counts.items())
    if size < 2:
        size, rank = 1, 0
    holds = int(size >= 2 and bool(hand >> (16 * trump + rank) & 1))
    trumps = [c & 15 for c in CardSet(hand) if c >> 4 == trump]
    return (size, rank, holds, tuple(sorted(ranks, reverse=True)), max(trumps, default=0))


def _runs_by_walking(hand: int, trump: int, by_length: bool) -> tuple[Any, ...] | None:
    """The best run's key read straight from the rule, walking each suit's runs."""
    keys = []
    for suit in range(4, 8):
        ranks = sorted(c & 15 for c in CardSet(hand) if c >> 4 == suit)
        start = 0
        for i in range(1, len(ranks) + 1):
            if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
                length, top = i - start, ranks[i - 1]
                if length >= 3:
                    trump_run = int(suit == trump)
                    keys.append((length, trump_run, top) if by_length else (trump_run, top))
                start = i
    return max(keys, default=None)


FRENCH_52 = [s * 16 + r for s in range(4, 8) for r in range(2, 15)]


@given(
    st.lists(st.sampled_from(FRENCH_52), min_size=1, max_size=13, unique=True), st.integers(4, 7)
)
def test_hand_values_and_runs_follow_the_rule_as_written(cards: list[int], trump: int) -> None:
    hand = sum(1 << c for c in cards)
    assert poch.hand_value(hand, trump) == _value_by_counting(hand, trump)
    for params in (poch.Params(), poch.Params(sequence_compare="length_then_height")):
        run = poch.best_run(hand, trump, params)
        by_length = params.sequence_compare == "length_then_height"
        assert (run[0] if run else None) == _runs_by_walking(hand, trump, by_length)


def test_5_5_d_without_sets_the_highest_card_then_the_next_decide() -> None:
    """PO-3: As Kh Tc 9d 8s beats Ac Qd Jh 9s 7h (K > Q on the second card)."""
    assert value("As Kh Tc 9d 8s") > value("Ac Qd Jh 9s 7h")
    game, state = setup(["Ac Qd Jh 9s 7h", "As Kh Tc 9d 8s", "7c 8c Jc Qs Ks"], "8d", dealer=2)
    state, events = act(game, state, "0 bet 1", "1 call", "2 call")
    poker = of(events, "poker")[0]
    assert poker["winner"] == 1
    assert [h["value"] for h in poker["hands"]] == [
        "high card A Q J 9 7",
        "high card A K T 9 8",
        "high card K Q J 8 7",
    ]


def test_5_5_e_a_complete_tie_goes_to_the_higher_trump_then_the_dealers_left() -> None:
    rest = "Tc Td 7c 7d Qs"
    game, state = setup(["Ac Kd Jc 9d 8c", "Ah Kh Js 9h 8d", rest], "7s", dealer=2)
    state, events = act(game, state, "0 bet 1", "1 call", "2 pass")
    assert of(events, "poker")[0]["winner"] == 1  # holds the jack of trumps
    game, state = setup(["Ac Kd Jc 9d 8c", "Ah Kh Jh 9h 8d", rest], "7s", dealer=2)
    state, events = act(game, state, "0 bet 1", "1 call", "2 pass")
    assert of(events, "poker")[0]["winner"] == 0  # no trumps: nearest the dealer's left


def test_5_5_f_only_the_best_set_of_a_hand_counts() -> None:
    assert value("7c 7s 7h Ad Ac") < value("8c 8s 8h 9d Tc")  # three sevens, not the aces
    assert value("Kc Ks 9h 9d 7c") < value("Ac As 7h 8d Tc")  # two pairs: only the kings count


def test_5_5_g_the_betting_starts_at_the_dealers_left_and_goes_round() -> None:
    game, state = setup(PO4, "Ts", dealer=3)
    order = []
    for move in ("bet 1", "call", "call", "call"):
        order.append(game.current_player(state))
        state = game.apply(state, move)
    assert order == [0, 1, 2, 3]


def test_5_5_h_before_any_bet_bet_or_pass_and_passing_folds() -> None:
    game, state = setup(PO4, "Ts", dealer=3)
    legal = game.legal_actions(state)
    assert legal[0] == PASS and CALL not in legal
    assert legal[1:] == [bet_action(n) for n in range(1, 11)]
    assert code(game, state, "call") == "no-bet-yet"
    assert code(game, state, "raise 1") == "no-bet-yet"
    state, _ = act(game, state, "0 pass", "1 bet 1", "2 call", "3 raise 1")
    assert game.current_player(state) == 1  # seat 0 passed before the bet and is out
    assert game.observe(state, None).folded == (True, False, False, False)


def test_5_5_i_after_a_bet_call_raise_or_pass() -> None:
    game, state = setup(PO4, "Ts", dealer=3)
    state, _ = act(game, state, "0 bet 2")
    legal = game.legal_actions(state)
    assert legal[:2] == [PASS, CALL] and legal[2] == raise_action(1)
    assert code(game, state, "bet 3") == "already-bet"
    state, _ = act(game, state, "1 raise 3")  # match the 2, then 3 more
    assert state.put == (2, 5, 0, 0)
    assert game.observe(state, 2).to_call == 5


def test_5_5_j_the_phase_ends_when_everyone_still_in_has_matched() -> None:
    game, state = setup(PO4, "Ts", dealer=3)
    state, _ = act(game, state, "0 bet 1", "1 raise 1", "2 call", "3 pass")
    assert game.observe(state, 0).phase == poch.Phase.POKER and game.current_player(state) == 0
    state, events = act(game, state, "0 call")
    assert game.observe(state, 0).phase == poch.Phase.SHEDDING
    assert of(events, "poker")[0]["bets"] == [2, 2, 2, 0]


def test_5_5_k_table_stakes_cap_bets_at_the_smallest_stack_still_in() -> None:
    # Seat 0 melds the queen (11 chips), seat 2 the ace and king (12), seat 1 nothing (10).
    hands = ["Qd 7c 9s Jh Ks", "8c 8h 7s Qh As", "Ad Kd 9c Th Js"]
    game, state = setup(hands, "9d", dealer=2)
    assert state.chips == (11, 10, 12)
    assert code(game, state, "bet 11") == "table-stakes"
    assert "above 10, the smallest stack" in str(game.why_illegal(state, "bet 11"))
    assert code(game, state, "bet 12") == "not-enough-chips"
    state, _ = act(game, state, "0 bet 10", "1 pass")
    # The 10-chip stack folded: the cap rises to 11.
    assert game.legal_actions(state)[-1] == raise_action(1)
    assert code(game, state, "raise 2") == "table-stakes"
    state, events = act(game, state, "2 raise 1", "0 call")
    assert of(events, "poker")[0]["pinke"] == 22
    assert state.chips == (0, 10, 1 + 22 + 1)  # A K J beats K Q J; the Poch bowl too


def test_5_5_l_at_a_showdown_the_best_hand_takes_the_pinke_and_the_poch_bowl() -> None:
    """PO-5: P1 bets 2, P2 calls, P3 raises to 4, P4 folds, P1 calls, P2 folds: a Pinke of 10."""
    hands = ["Kh Ks 7d 9h Jc", "Qh Qs 8c Td 7s", "Ah As 8d Th 9s", "7h 8h 9d Jd Js"]
    game, state = setup(hands, "7c", dealer=3)
    before = state.chips
    state, events = act(game, state, "0 bet 2", "1 call", "2 raise 2", "3 pass", "0 call", "1 pass")
    poker = of(events, "poker")[0]
    assert (poker["result"], poker["winner"], poker["pinke"], poker["poch"]) == (
        "showdown",
        2,
        10,
        1,
    )
    assert state.chips[2] == before[2] - 4 + 10 + 1
    assert state.bowls[PINKE] == 0 and state.bowls[POCH] == 0
    assert [h["seat"] for h in poker["hands"]] == [0, 2]


def test_5_5_m_a_lone_player_takes_both_bowls_without_showing() -> None:
    """PO-1's poker round, and the case where everyone before the last player passed."""
    game, state = setup(PO1, "9d", dealer=2)
    state, events = act(game, state, "0 pass", "1 bet 2", "2 pass")
    poker = of(events, "poker")[0]
    assert (poker["result"], poker["winner"], poker["pinke"], poker["poch"]) == ("alone", 1, 2, 1)
    assert "hands" not in poker and game.observe(state, 0).hands[1] is None
    game, state = setup(PO1, "9d", dealer=2)
    state, events = act(game, state, "0 pass", "1 pass", "2 bet 1")
    assert of(events, "poker")[0]["winner"] == 2
    assert state.chips[2] == 11 + 1  # the ace bowl, then its own chip back and the Poch bowl


def test_5_5_n_if_nobody_bets_the_pinke_stays_empty_and_the_poch_bowl_carries() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, events = act(game, state, "0 pass", "1 pass", "2 pass")
    assert of(events, "poker")[0]["result"] == "carry"
    assert state.bowls[POCH] == 1 and state.bowls[PINKE] == 0
    assert game.observe(state, 0).poker_winner is None


def test_5_5_o_folded_players_keep_their_cards_for_the_shedding() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, _ = act(game, state, "0 pass", "1 bet 2", "2 pass")
    assert [h.bit_count() for h in state.hands] == [5, 5, 5]
    assert game.legal_actions(state) == sorted(cs(PO1[0]))


def test_5_5_p_the_poker_round_comes_before_any_card_is_shed() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    assert code(game, state, "play 7c") == "poker-round"


# --- shedding ------------------------------------------------------------------------------


def test_5_6_a_the_dealers_left_leads_any_card() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, _ = act(game, state, "0 pass", "1 bet 2", "2 pass")
    assert game.current_player(state) == 0
    assert set(game.legal_actions(state)) == set(cs(PO1[0]))
    assert code(game, state, "play Kd") == "not-in-hand"
    assert code(game, state, "bet 1") == "shedding"


def test_5_6_b_the_holder_of_the_next_card_must_play_it_and_the_rules_play_it() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, _ = act(game, state, "0 pass", "1 pass", "2 pass", "0 play 7c")
    run = of(game.events(state), "run")[0]
    assert run["seats"] == [0, 1, 1, 2] and run["cards"] == ["7c", "8c", "9c", "Tc"]
    assert game.observe(state, 0).played == cs("7c 8c 9c Tc")


def test_5_6_c_a_run_stops_at_the_ace_a_card_out_of_play_or_already_played() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, _ = act(game, state, "0 pass", "1 pass", "2 pass")
    stops = []
    for move in ("0 play 8s", "1 play 9c", "2 play 7h", "2 play Ks", "0 play 7c"):
        state, events = act(game, state, move)
        run = of(events, "run")[0]
        stops.append((run["cards"][-1], run["stop"], run["next"]))
    assert stops == [
        ("9s", "out_of_play", "Ts"),
        ("Tc", "out_of_play", "Jc"),
        ("8h", "out_of_play", "9h"),
        ("As", "ace", None),
        ("8c", "played", "9c"),
    ]
    assert cs("Ts Jc 9h") == game.observe(state, 2).out_of_play & cs("Ts Jc 9h")


def test_5_6_d_whoever_played_the_last_card_leads_again() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, _ = act(game, state, "0 pass", "1 pass", "2 pass", "0 play 7c")
    assert game.current_player(state) == 2  # played the 10 of clubs
    state, _ = act(game, state, "2 play Ks")
    assert game.current_player(state) == 0  # played the ace of spades


def test_5_6_e_the_first_out_is_paid_a_chip_a_card_or_all_a_player_has() -> None:
    # Seat 0 sheds its whole hand in one run (7c up to Jc) and wins at once.
    hands = ["7c 8c 9c Tc Jc", "8s 9h Jh Ks Ah", "7s Th Qs As 8h"]
    game, state = setup(hands, "7d", dealer=2, chips=2)
    assert meld(state, SEQUENCE).seat == 0
    state, events = act(game, state, "0 pass", "1 pass", "2 pass", "0 play 7c")
    score = of(events, "score")[0]
    assert score["paid"] == [0, 2, 2] and score["cards_left"] == [0, 5, 5]
    assert of(events, "run")[0]["stop"] == "hand_empty"


# --- end of round and end of game ----------------------------------------------------------


def test_5_7_a_the_deal_passes_left_and_the_bank_funds_again() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, _ = act(game, state, "0 pass", "1 pass", "2 pass")
    state, events = act(
        game, state, "0 play 7c", "2 play 7h", "2 play Ks", "0 play 8s", "1 play Jh", "0 play Th"
    )
    assert [e.type for e in events][-10:-8] == ["score", "deal"]
    assert state.rnd.dealer == 0 and state.rnd.seats == (1, 2, 0)
    assert state.bank == 16


def test_5_7_b_a_player_without_chips_after_a_round_is_out() -> None:
    hands = ["7c 7s 8s Th Ah", "8c 9c Tc Jc Qc", "Ad Kd Qd 9s Js", "Jd Td 7h 8h Kh"]
    game, state = setup(hands, "9d", dealer=3, chips=4)
    state, events = act(game, state, "0 pass", "1 pass", "2 pass", "3 pass", "0 play 7c")
    score = of(events, "score")[0]
    assert score["paid"] == [4, 0, 5, 5] and score["out"] == [0]
    # The deal passes over the seat that is out: from seat 3 to seat 1.
    assert state.rnd.dealer == 1 and state.rnd.seats == (2, 3, 1)
    view = game.observe(state, 2)
    assert view.in_game == (False, True, True, True) and view.hand_sizes[0] == 0
    assert 0 not in view.to_act


def test_5_7_c_the_last_player_with_chips_wins() -> None:
    hands = ["7c 8c 9c Tc Jc", "8s 9h Jh Ks Ah", "7s Th Qs As 8h"]
    game, state = setup(hands, "7d", dealer=2, chips=2)
    state, events = act(game, state, "0 pass", "1 pass", "2 pass", "0 play 7c")
    assert game.current_player(state) is None
    result = game.outcome(state)
    # Scores are chips won and lost: seat 0 ends with 7 of the 6 chips the players began with.
    assert state.chips == (7, 0, 0)
    assert result == tapete.game.Outcome((5, -2, -2), (0,), "last player with chips")
    assert of(events, "end")[0] == {
        "type": "end",
        "scores": [5, -2, -2],
        "winners": [0],
        "reason": "last player with chips",
    }
    assert game.why_illegal(state, "pass") is not None
    assert code(game, state, "pass") == "match-over"


def passive(game: Game[Any, Any], state: State) -> State:
    """Play on with nobody betting and every leader shedding its lowest card."""
    while game.current_player(state) is not None:
        legal = game.legal_actions(state)
        state = game.apply(state, PASS if PASS in legal else min(legal))
    return state


def test_5_7_d_rounds_one_per_player_ends_after_every_player_has_dealt() -> None:
    game = tapete.load("poch(rounds=one_per_player)")
    state = passive(game, game.new_state(seed=4))
    result = game.outcome(state)
    assert result is not None and state.rnd.number == 3 and len(state.history) == 4
    assert result.reason == "rounds complete"
    assert result.winners == tuple(
        s for s in range(4) if state.chips[s] == max(state.chips)
    )  # fmt: skip
    game = tapete.load("poch(players=3, rounds=2)")
    state = passive(game, game.new_state(seed=4))
    assert len(state.history) == 2


def test_5_7_e_the_match_ends_after_ten_rounds_per_player_most_chips_winning() -> None:
    """Two players who never bet keep shedding; the bank's 8 chips a round keep them going, and
    without a cap the match would never end (it had not after 200 rounds)."""
    game = tapete.load("poch")
    state = passive(game, game.new_state(seed=4))
    assert len(state.history) == 40 and state.chips == (0, 137, 0, 127)
    assert game.outcome(state) == tapete.game.Outcome(
        (-10, 127, -10, 117), (1,), "round limit reached"
    )


def test_5_7_e_a_tie_at_the_round_limit_is_shared() -> None:
    game = tapete.load("poch(max_rounds=2)")
    state = passive(game, game.new_state(seed=2))
    assert len(state.history) == 2 and state.chips == (8, 7, 16, 16)
    assert game.outcome(state) == tapete.game.Outcome((-2, -3, 6, 6), (2, 3), "round limit reached")
    # The reason is the limit that ended the match, when rounds asks for more than the cap.
    for spec, reason in [
        ("poch(rounds=5, max_rounds=2)", "round limit reached"),
        ("poch(rounds=2, max_rounds=5)", "rounds complete"),
        ("poch(rounds=2, max_rounds=2)", "rounds complete"),
    ]:
        game = tapete.load(spec)
        state = passive(game, game.new_state(seed=2))
        outcome = game.outcome(state)
        assert len(state.history) == 2 and outcome is not None and outcome.reason == reason


def test_5_7_e_option_max_rounds() -> None:
    assert poch.round_limit(tapete.load("poch(players=6)").params) == 60
    assert poch.round_limit(tapete.load("poch(max_rounds=7)").params) == 7
    assert poch.round_limit(tapete.load("poch(rounds=one_per_player)").params) == 4
    uncapped = tapete.load("poch(max_rounds=none)")
    assert uncapped.spec == "poch(max_rounds=none)" and poch.round_limit(uncapped.params) == 0
    longer = tapete.load("poch(max_rounds=41)")
    assert len(passive(longer, longer.new_state(seed=4)).history) == 41


# --- worked examples ----------------------------------------------------------------------


def test_po_1_a_full_round() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    melds = [(m.bowl, m.seat) for m in state.rnd.melds if m.seat is not None]
    assert melds == [(ACE, 2), (KING, 1)]
    state, events = act(game, state, "0 pass", "1 bet 2", "2 pass")
    assert of(events, "poker")[0]["won"] == [0, 3, 0]
    state, events = act(
        game, state, "0 play 7c", "2 play 7h", "2 play Ks", "0 play 8s", "1 play Jh", "0 play Th"
    )
    runs = [(r["cards"], r["stop"]) for r in of(events, "run")]
    assert runs == [
        (["7c", "8c", "9c", "Tc"], "out_of_play"),
        (["7h", "8h"], "out_of_play"),
        (["Ks", "As"], "ace"),
        (["8s", "9s"], "out_of_play"),
        (["Jh", "Qh"], "out_of_play"),
        (["Th"], "hand_empty"),
    ]
    score = of(events, "score")[0]
    assert score["paid"] == [0, 1, 1] and score["score"] == [2, 1, 0]
    assert score["chips"] == [12, 11, 10]
    fund = of(events, "fund")[0]  # the next round, with bank funding
    assert fund["bowls"] == [1, 1, 2, 2, 2, 2, 2, 1, 0]


def test_po_2_sets_by_size_then_rank() -> None:
    assert value("Kc Kd Kh Ks 8c") > value("Ac Ad Ah 7s 8s")
    assert value("7c 7d 7h Ts Js") > value("Kc Ks Ah Qd Jd")


def test_po_3_trump_card_in_a_tied_set_and_high_cards() -> None:
    assert value("Kd Kc 7s 8s 9s") > value("Kh Ks Ah Qd Jc")
    assert value("As Kh Tc 9d 8s") > value("Ac Qd Jh 9s 7h")


def test_po_4_sequences_with_spades_trump() -> None:
    _, state = setup(PO4, "Ts", dealer=3)
    assert meld(state, SEQUENCE).seat == 3
    _, state = setup(PO4[:3], "Ts", dealer=2)
    assert meld(state, SEQUENCE).seat == 2
    hands = ["Ah Kh 9h 7h 7d", "7c 8c 9c Tc As", "Jd Qd Kd 8h Ac"]
    _, state = setup(hands, "Ts", dealer=2, sequence_compare="length_then_height")
    assert meld(state, SEQUENCE).seat == 1 and meld(state, SEQUENCE).cards == cs("7c 8c 9c Tc")


def test_po_5_betting_makes_a_pinke_of_ten() -> None:
    hands = ["Kh Ks 7d 9h Jc", "Qh Qs 8c Td 7s", "Ah As 8d Th 9s", "7h 8h 9d Jd Js"]
    game, state = setup(hands, "7c", dealer=3)
    state, _ = act(game, state, "0 bet 2", "1 call", "2 raise 2", "3 pass", "0 call")
    assert state.bowls[PINKE] == 2 + 2 + 4 + 2
    state, events = act(game, state, "1 pass")
    poker = of(events, "poker")[0]
    assert poker["pinke"] == 10 and poker["winner"] == 2 and poker["won"][2] == 11


# --- options ------------------------------------------------------------------------------------


def test_option_bowl_funding_player_antes() -> None:
    game, state = setup(PO1, "9d", dealer=2, bowl_funding="player_antes")
    fund = of(game.events(state), "fund")[0]
    assert fund == {
        "type": "fund",
        "by": "player_antes",
        "antes": [8, 8, 8],
        "bowls": [3] * 8 + [0],
    }
    assert state.bank == 0 and state.chips == (2, 2 + 3, 2 + 3)
    # A player short of chips antes what he has, Ace bowl first; one left with none sits out.
    game, state = setup(["7c 8s Th Qh As", "8c 9c 9s Jh Ks", "Tc 7h 8h Kh Ac"], "9d", dealer=2,
                        bowl_funding="player_antes", chips=5)  # fmt: skip
    assert of(game.events(state), "fund")[0]["bowls"] == [3] * 5 + [0, 0, 0, 0]
    assert of(game.events(state), "sit_out")[0]["seats"] == [0, 1, 2]
    assert game.observe(state, 0).phase == poch.Phase.SHEDDING


def test_option_player_antes_a_seat_without_chips_sits_out_the_poker_round() -> None:
    hands = ["7c 8s Th Qh As", "8c 9c 9s Jh Ks", "Tc 7h 8h Kh Ad"]
    game, state = setup(hands, "9d", dealer=2, bowl_funding="player_antes", chips=8)
    assert state.chips == (0, 0, 3)  # everyone anted all 8; seat 2 took the ace bowl back
    assert of(game.events(state), "sit_out")[0]["seats"] == [0, 1]
    assert game.current_player(state) == 2
    assert game.legal_actions(state) == [PASS, bet_action(1), bet_action(2), bet_action(3)]
    state, events = act(game, state, "2 bet 1")
    assert of(events, "poker")[0]["result"] == "alone"


def test_option_sequence_rule_trump_789() -> None:
    hands = ["7d 8d 9d As Ks", "8c 9c Tc Jc Qh", "Ac Kc 7h 8h Th"]
    _, state = setup(hands, "Jd", dealer=2, sequence_rule="trump_789")
    assert meld(state, SEQUENCE).seat == 0
    _, state = setup(hands, "Jh", dealer=2, sequence_rule="trump_789")
    assert meld(state, SEQUENCE).seat is None  # the clubs run does not count
    assert meld(state, SEQUENCE).why == "nobody holds the 7, 8 and 9 of trumps"
    _, state = setup(hands, "Jh", dealer=2)
    assert meld(state, SEQUENCE).seat == 1


def test_option_bet_cap_none_allows_all_in_and_splits_the_pinke_in_layers() -> None:
    hands = ["Qd 7c 9s Jh Ks", "8c 8h 7s Qh As", "Ad Kd 9c Th Js"]
    game, state = setup(hands, "9d", dealer=2, bet_cap="none")
    assert state.chips == (11, 10, 12)
    assert game.why_illegal(state, "bet 11") is None
    assert code(game, state, "bet 12") == "not-enough-chips"
    state, events = act(game, state, "0 pass", "1 bet 10", "2 raise 2")
    # Seat 1 is all in: it cannot act again, and the betting is over.
    poker = of(events, "poker")[0]
    assert poker["result"] == "showdown" and poker["winner"] == 1  # the pair of eights
    assert poker["won"] == [0, 20 + 1, 2]  # seat 2's uncalled 2 chips come back to it
    assert state.chips == (11, 21, 2)


def test_option_bet_cap_none_a_short_stack_calls_all_in() -> None:
    hands = ["Qd 7c 9s Jh Ks", "8c 8h 7s Qh As", "Ad Kd 9c Th Js"]
    game, state = setup(hands, "9d", dealer=2, bet_cap="none")
    state, events = act(game, state, "0 bet 11", "1 call", "2 call")
    poker = of(events, "poker")[0]
    assert poker["bets"] == [11, 10, 11]  # seat 1 called with all 10 of its chips
    assert poker["won"] == [0, 30 + 1, 2]  # seat 1 wins the 30 it covered; seat 2 the rest
    assert poker["pinke"] == 32  # the whole Pinke: seat 1 took the 30 of it it covered
    # The log tells who took the chips the winner did not cover.
    _, start = setup(hands, "9d", dealer=2, bet_cap="none")
    before = game.apply(game.apply(start, "bet 11"), "call")
    call = game.parse_action("call")
    entries = step_entries(game, 2, call, before, game.apply(before, call))
    said = [line("en", e, ["Ana", "Bea", "Cai"]) for e in entries]
    assert said[-2:] == [
        "Bea takes the Pinke and the Poch bowl",
        "Cai takes the Pinke's side pot: 2 chips",
    ]


def test_option_all_pass_showdown_shows_every_hand_for_the_poch_bowl() -> None:
    game, state = setup(PO1, "9d", dealer=2, all_pass="showdown")
    state, events = act(game, state, "0 pass", "1 pass", "2 pass")
    poker = of(events, "poker")[0]
    assert (poker["result"], poker["winner"], poker["pinke"], poker["poch"]) == (
        "all_pass_showdown",
        1,
        0,
        1,
    )
    view = game.observe(state, 0)
    assert view.hands[1] == cs(PO1[1]) and view.hands[2] == cs(PO1[2])
    assert state.chips == (10, 12, 11)


def test_option_shed_leader_poker_winner() -> None:
    game, state = setup(PO1, "9d", dealer=2, shed_leader="poker_winner")
    state, _ = act(game, state, "0 pass", "1 bet 2", "2 pass")
    assert game.current_player(state) == 1
    game, state = setup(PO1, "9d", dealer=2, shed_leader="poker_winner")
    state, _ = act(game, state, "0 pass", "1 pass", "2 pass")
    assert game.current_player(state) == 0  # nobody took the Pinke: the dealer's left leads
    # Under all_pass=showdown the best hand takes the Poch bowl, and leads.
    game, state = setup(PO1, "9d", dealer=2, shed_leader="poker_winner", all_pass="showdown")
    state, events = act(game, state, "0 pass", "1 pass", "2 pass")
    assert of(events, "poker")[0]["winner"] == 1 and game.current_player(state) == 1


def test_option_deal_all_deals_every_card_and_shows_the_last_for_trump() -> None:
    game = tapete.load("poch(players=3, deal=all)")
    state = game.new_state(seed=2, dealer=2)
    deck = state.rnd.deck
    assert [h.bit_count() for h in state.hands] == [11, 11, 10]  # the first seats get one more
    assert state.rnd.upcard == -1 and state.rnd.shown == deck[-1] and state.rnd.stock == 0
    assert state.rnd.trump == deck[-1] >> 4 and state.hands[1] >> deck[-1] & 1
    deal = of(game.events(state), "deal")[0]
    assert deal["upcard"] == format_card(deck[-1]) and deal["upcard_kept_by"] == 1
    assert deal["stock"] == []
    assert deck[-1] in game.observe(state, 0).known[1]
    assert all(m.seat is not None for m in state.rnd.melds[:5])  # every honour is in a hand


def test_option_deal_all_a_hand_with_a_further_card_wins_an_otherwise_equal_comparison() -> None:
    """Under deal=all hands differ in size. Ten cards of ten ranks against eleven cards of those
    ranks and one more: the further card wins, before the higher trump (hearts) is asked."""
    longer = value("As Kh Qc Jd Ts 9h 8c 7d 6s 5h 4c", 6)
    shorter = value("Ah Ks Qd Jc Th 9s 8d 7c 6h 5s", 6)
    assert longer > shorter
    assert value("Ah Ks Qd Jc Th 9s 8d 7c 6h 5s", 6) > value("As Kh Qc Jd Ts 9h 8c 7d 6s 5h", 6)


def test_5_7_f_if_everyone_ends_a_round_without_chips_they_share_the_win() -> None:
    """Under player_antes everyone antes his last 5 chips; no honour, marriage or run is held,
    so nobody has a chip to bet, and the shedding winner is paid nothing."""
    hands = ["7c 8s Th Qh As", "8c 9c 9s Jh Ks", "Tc 7h 8h Kh Ac"]
    game, state = setup(hands, "9d", dealer=2, bowl_funding="player_antes", chips=5)
    state = passive(game, state)
    assert state.chips == (0, 0, 0)
    assert game.outcome(state) == tapete.game.Outcome(
        (-5, -5, -5), (0, 1, 2), "nobody has chips left"
    )


def test_option_rounds_and_other_parameters_are_validated() -> None:
    for spec, words in (
        ("poch(players=7)", "3 to 6"),
        ("poch(bowl_funding=banker)", "bank or player_antes"),
        ("poch(sequence_compare=length)", "height or length_then_height"),
        ("poch(sequence_rule=789)", "best_run or trump_789"),
        ("poch(bet_cap=pot)", "min_active_stack or none"),
        ("poch(all_pass=redeal)", "carry or showdown"),
        ("poch(shed_leader=dealer)", "dealer_left or poker_winner"),
        ("poch(deal=eight)", "five or all"),
        ("poch(rounds=forever)", "until_one_left, one_per_player or a number of rounds"),
        ("poch(rounds=0)", "a number of rounds"),
        ("poch(rounds=1001)", "a number of rounds from 1 to 1000"),
        ("poch(max_rounds=0)", "ten_per_player, a number of rounds from 1 to 1000, or none"),
        ("poch(max_rounds=forever)", "ten_per_player, a number of rounds from 1 to 1000, or none"),
        ("poch(chips=0)", "from 1 to 1000"),
        ("poch(chips=1001)", "from 1 to 1000"),
    ):
        with pytest.raises(SpecError, match=words):
            tapete.load(spec)
    assert tapete.load("poch").params == poch.Params()
    assert tapete.load("poch(players=5, deal=all)").spec == "poch(players=5, deal=all)"


# --- the contract: notation, errors, values, views ----------------------------------------------


def test_actions_format_and_parse_round_trip() -> None:
    params = poch.Params()
    for spec in SPECS[:4]:
        for state in random_states(spec, 1, limit=150):
            for action in poch.legal_actions(state):
                text = poch.format_action(state.params, action)
                assert poch.parse_action(state.params, text) == action
    assert poch.parse_action(params, "  RAISE 3 ") == raise_action(3)
    assert poch.parse_action(params, "th") == c("Th")
    for bad in ("bet 0", "bet x", "raise", "fold", "play Zz", "3", "bet 2 3"):
        with pytest.raises(InvalidActionError):
            poch.parse_action(params, bad)


@pytest.mark.parametrize("spec", SPECS)
def test_legal_actions_and_why_illegal_agree(spec: str) -> None:
    for state in random_states(spec, 7, limit=250):
        if poch.current_player(state) is None:
            assert poch.legal_actions(state) == []
            continue
        top = 130 + 2 * (sum(state.chips) + 2)
        legal = [a for a in range(-1, top) if poch.why_illegal(state, a) is None]
        assert poch.legal_actions(state) == legal


def test_apply_never_changes_the_state_it_is_given() -> None:
    for state in random_states("poch(players=3)", 3, limit=120):
        if poch.current_player(state) is None:
            break
        before = {name: getattr(state, name) for name in State.__slots__}
        poch.apply(state, poch.legal_actions(state)[-1])
        with pytest.raises(IllegalActionError):
            poch.apply(state, CALL + 2 * 10_000)
        assert {name: getattr(state, name) for name in State.__slots__} == before


def test_every_new_round_emits_a_complete_deal_event() -> None:
    game = tapete.load("poch(players=5)")
    state = game.new_state(seed=9)
    rng = random.Random(9)
    deals = 0
    while game.current_player(state) is not None and deals < 4:
        for event in game.events(state):
            data = event.to_json()
            if event.type == "deal":
                deals += 1
                assert {"dealer", "deck", "hands", "upcard", "stock"} <= set(data)
                assert len(data["deck"]) == 52
                assert sum(len(h) for h in data["hands"]) == 5 * len(data["seats"])
        state = game.apply(state, rng.choice(game.legal_actions(state)))


def test_a_view_holds_no_card_it_should_not() -> None:
    for spec in SPECS:
        for state in random_states(spec, 5, limit=200):
            for seat in (None, *state.rnd.seats):
                view = poch.observe(state, seat)
                seen = view.played.mask | view.out_of_play.mask
                seen |= sum(h.mask for h in view.hands if h is not None)
                seen |= sum(k.mask for k in view.known) | sum(m.cards.mask for m in view.melds)
                for other in state.rnd.seats:
                    if other == seat or state.showdown >> other & 1:
                        continue
                    secret = state.hands[other] & ~state.revealed[other]
                    assert seen & secret == 0, (spec, seat, other)
                assert seen & state.rnd.stock & ~view.out_of_play.mask == 0


def test_a_folded_hand_stays_hidden_and_a_shown_hand_is_public() -> None:
    hands = ["Kh Ks 7d 9h Jc", "Qh Qs 8c Td 7s", "Ah As 8d Th 9s", "7h 8h 9d Jd Js"]
    game, state = setup(hands, "7c", dealer=3)
    state, _ = act(game, state, "0 bet 2", "1 call", "2 raise 2", "3 pass", "0 call", "1 pass")
    for seat in (None, 0, 1, 2, 3):
        view = game.observe(state, seat)
        assert view.hands[0] == cs(hands[0]) and view.hands[2] == cs(hands[2])
        assert view.showdown == (0, 2)
        for folded in (1, 3):
            assert (view.hands[folded] is None) == (seat != folded)


def test_a_view_in_words_puts_the_table_in_words_without_hidden_cards() -> None:
    game, state = setup(PO1, "9d", dealer=2)
    state, _ = act(game, state, "0 pass", "1 bet 2", "2 pass", "0 play 7c")
    text = view_text(game.observe(state, 0))
    assert "trump: diamonds, upcard: 9d" in text, text
    assert "your hand: Th Qh 8s As" in text and "cards seen: Kd" in text
    for hidden in ("9s", "Jh", "7h", "8h", "Ks"):
        assert hidden not in text


def test_hand_names_as_a_showdown_announces_them() -> None:
    names = [poch.hand_name(cs(h).mask, 5) for h in ("Kc Kd Kh Ks 7c", "6c 6d 6h 2s 3s", "8c 8d")]
    assert names == ["four kings", "three sixes", "pair of eights"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 10_000), cut=st.integers(0, 400))
def test_sample_state_agrees_with_the_view(spec: str, seed: int, cut: int) -> None:
    states = random_states(spec, seed, limit=cut + 1)
    state = states[-1]
    rng = random.Random(seed)
    for seat in (None, *state.rnd.seats):
        view = poch.observe(state, seat)
        sampled = poch.sample_state(view, rng)
        assert poch.observe(sampled, seat) == view
        # The sampled deal must meld exactly as the real one did, and play on legally.
        melds, _ = poch.meld_bowls(
            state.params, sampled.rnd, [m.chips for m in view.melds] + [0, 0]
        )
        assert [(m.bowl, m.seat, m.cards) for m in melds] == [
            (m.bowl, m.seat, m.cards) for m in view.melds
        ]
        if poch.current_player(sampled) is not None:
            poch.apply(sampled, poch.legal_actions(sampled)[0])


def test_sample_state_keeps_hidden_runs_below_the_sequence_winner() -> None:
    # Seat 1 took the Sequence bowl with 9-10-J of hearts. Seat 0, nearer the dealer's left,
    # cannot hold a run as good; seat 2 may hold an equal one but no better.
    game, state = setup(["7c 8c 9c Tc As", "9h Th Jh 7d Ks", "Jd Qd 8h Ac 7h"], "7s", dealer=2)
    rng = random.Random(0)
    for observer, hidden, ok in ((2, 0, (0, 10)), (0, 2, (0, 11))):
        view = game.observe(state, observer)
        for _ in range(100):
            sampled = poch.sample_state(view, rng)
            run = poch.best_run(sampled.hands[hidden], 7, state.params)
            assert run is None or run[0] <= ok
            assert cs("9h Th Jh").mask & ~sampled.hands[1] == 0


def test_same_seed_same_match() -> None:
    a = random_states("poch(players=4)", 11, limit=300)
    b = random_states("poch(players=4)", 11, limit=300)
    assert [repr(x) for x in a] == [repr(x) for x in b]
    assert poch.observe(a[-1], 0) == poch.observe(b[-1], 0)
    assert poch.new_state(poch.Params(), Setup(seed=1)).rnd.deck != (
        poch.new_state(poch.Params(), Setup(seed=2)).rnd.deck
    )


def test_a_bet_or_raise_past_every_chip_in_play_is_no_action() -> None:
    """Bets and raises name 1 to ``most_chips`` chips (360 for four players of 10 chips, the
    bank adding 8 a round for 40 rounds); a larger number is no action, as text or as an int."""
    game = tapete.load("poch")
    assert poch.most_chips(game.params) == 4 * 10 + 8 * 40
    assert game.format_action(poch.raise_action(360)) == "raise 360"
    assert game.parse_action("bet 360") == poch.bet_action(360)
    # Refused in the rules' own words, which say why.
    with pytest.raises(InvalidActionError, match="9999 is not an action of Poch: a raise names"):
        game.format_action(9999)
    for text in ("raise 4935", "bet 361", "bet " + "9" * 5000):
        with pytest.raises(InvalidActionError, match="names 1 to 360 chips"):
            game.parse_action(text)
    antes = tapete.load("poch(players=3, bowl_funding=player_antes, max_rounds=none)")
    assert poch.most_chips(antes.params) == 30  # the players' chips alone: no bank adds any
    unbounded = tapete.load("poch(max_rounds=none)")
    assert poch.most_chips(unbounded.params) is None  # the bank's money grows without end
    big = poch.raise_action(poch.NO_CAP_MOST)
    assert unbounded.parse_action(unbounded.format_action(big)) == big
    with pytest.raises(InvalidActionError):
        unbounded.format_action(big + 2)


@pytest.mark.parametrize("number", [0, 15, 127, 9999, poch.bet_action(361)])
def test_an_int_that_is_no_action_is_refused_as_none_in_either_phase(number: int) -> None:
    """The rule codes say ``no-such-action`` for an int that is no action of Poch. The poker
    round called the number 0 "playing a card" and 9999 a raise with nothing to raise; the
    shedding called 9999 a bet."""
    game = tapete.load("poch")
    state = game.new_state(seed=2)
    shedding = state
    while game.observe(shedding, None).phase == poch.Phase.POKER:
        shedding = game.apply(shedding, PASS)
    for phase in (state, shedding):
        error = game.why_illegal(phase, number)
        assert error is not None and error.rule == "no-such-action", error
        assert str(number) in str(error)
        with pytest.raises(IllegalActionError):
            game.apply(phase, number)


@pytest.mark.parametrize("spec", SPECS)
def test_every_poker_round_ends_matched_and_a_pass_folds_for_good(spec: str) -> None:
    """In random play: a seat that passes never acts again in that poker round, and when the
    round ends every seat still in has matched the highest bet or has no chip left (all in)."""
    game = tapete.load(spec)
    rounds = 0
    for seed in range(3):
        for before, after in itertools.pairwise(random_states(spec, seed)):
            if before.phase != poch.Phase.POKER:
                continue
            seat = game.current_player(before)
            assert seat is not None and not before.folded >> seat & 1  # a pass folds for good
            for poker in of(game.events(after), "poker"):
                rounds += 1
                bets, high = poker["bets"], max(poker["bets"])
                for s in before.rnd.seats:
                    if not after.folded >> s & 1:
                        all_in = after.chips[s] == poker["won"][s]  # no chip left before winning
                        assert bets[s] == high or all_in, poker
    assert rounds > 0


@pytest.mark.parametrize("spec", SPECS)
def test_every_shedding_run_follows_the_rule_as_written(spec: str) -> None:
    """In random play, each run read against the rule: the leader's card, then the next higher
    card of its suit from whoever holds it, until an Ace, a card out of play or already played,
    or an empty hand; the last to play leads next, and an empty hand ends the round."""
    game = tapete.load(spec)
    runs = 0
    for seed in range(3):
        for before, after in itertools.pairwise(random_states(spec, seed)):
            for run in of(game.events(after), "run"):
                runs += 1
                cards = [parse_card(c, french=True) for c in run["cards"]]
                seats, hands = run["seats"], list(before.hands)
                assert seats[0] == game.current_player(before)
                for i, (seat, card) in enumerate(zip(seats, cards, strict=True)):
                    if i:
                        assert card == cards[i - 1] + 1  # the next card of the suit
                    assert hands[seat] >> card & 1
                    hands[seat] &= ~(1 << card)
                last, nxt = cards[-1], cards[-1] + 1
                held = [s for s in before.rnd.seats if hands[s] >> nxt & 1]
                stop = (
                    "hand_empty"
                    if not hands[seats[-1]]
                    else "ace"
                    if last & 15 == 14
                    else "played"
                    if before.played >> nxt & 1
                    else "out_of_play"
                )
                assert run["stop"] == stop and (stop != "out_of_play" or not held)
                if stop != "hand_empty":
                    assert game.current_player(after) == seats[-1]
                else:
                    assert of(game.events(after), "score")[0]["winner"] == seats[-1]
    assert runs > 0
