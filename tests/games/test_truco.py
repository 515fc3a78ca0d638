"""Truco Paulista: one test per clause of docs/rules/truco.md, its worked examples TR-1..TR-7,
every option, and the contract (views, sampling, legality, notation, immutability).

Positions are set up from text: ``deal("3h 4c 5c | 2d 6d 7d", "Kc")`` is a match whose deal gives
seat 0 the first hand, seat 1 the second ... and turns up the vira; mão is seat 0 unless a test
names another dealer. Actions are written as in the logs (``play Kc``, ``raise``, ``run``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete import record
from tapete.cards import CardSet, format_card, parse_card
from tapete.chance import by_lot
from tapete.errors import IllegalActionError, InvalidActionError, SpecError
from tapete.game import Setup
from tapete.games import truco
from tapete.games.truco import (
    ACCEPT,
    ALL_TIED,
    BLIND,
    DOWN,
    RAISE,
    RUN,
    TIE,
    Params,
    State,
    View,
)
from tapete.match import play as play_match
from tapete.narrate import view_text

A, B = 0, 1  # the teams: A is seats 0 and 2, B is seats 1 and 3


def card(text: str) -> int:
    return parse_card(text, french=True)


def deal(
    hands: str,
    vira: str,
    *,
    spec: str = "truco(players=4)",
    dealer: int | None = None,
    scores: tuple[int, int] = (0, 0),
    seed: int = 0,
) -> State:
    """A match at ``scores`` whose deal gives ``hands`` ("seat 0 | seat 1 | ...") and ``vira``."""
    params = tapete.load(spec).params
    n = params.players
    dealer = n - 1 if dealer is None else dealer
    deck = truco.stack_deck(params, dealer, [h.strip() for h in hands.split("|")], vira)
    return truco.start_deal(params, Setup(seed, (deck,), dealer), 0, dealer, scores, (), ())


def act(state: State, *texts: str) -> State:
    """Apply actions written as in the logs; one text may hold several, comma-separated."""
    for text in texts:
        for one in text.split(","):
            state = truco.apply(state, truco.parse_action(state.params, one))
    return state


def rule(state: State, text: str) -> str | None:
    error = truco.why_illegal(state, truco.parse_action(state.params, text))
    return None if error is None else error.rule


def legal(state: State) -> list[str]:
    return [truco.format_action(state.params, a) for a in truco.legal_actions(state)]


def event(state: State, kind: str) -> dict[str, Any]:
    found = [e.to_json() for e in truco.events(state) if e.type == kind]
    assert found, f"no {kind} event in {truco.events(state)}"
    return found[-1]


def ranked(vira: str, kind: str = "dirty") -> list[list[str]]:
    """The cards of the deck grouped by strength under ``vira``, strongest first."""
    params = Params(deck=kind)
    groups: dict[int, list[str]] = {}
    for c in truco.deck_of(kind).cards:
        groups.setdefault(truco.strength(params, card(vira), c), []).append(format_card(c))
    return [sorted(groups[p]) for p in sorted(groups, reverse=True)]


def ranks_of(groups: list[list[str]]) -> list[str]:
    return ["/".join(sorted({c[:-1] for c in g})) if len(g) > 1 else g[0] for g in groups]


# Hands used by many tests: under vira Kc the manilhas are the aces.
FOUR = "3c 4c 5c | 3d 4d 5d | 2h 6h 7h | 2s 6s 7s"
TWO = "3c 4c 5c | 2d 6d 7d"
ACE = "3c 4c 5c | 3d 4d 5d | Ac 6h 7h | 2s 6s 7s"  # seat 2's Ac (a manilha) takes round 1

# --- deck and card order ----------------------------------------------------------------


def test_4_1_dirty_deck_has_40_cards_without_8_9_10() -> None:
    deck = truco.deck_of("dirty")
    assert deck.size == 40
    assert sorted({c & 15 for c in deck.cards}) == [2, 3, 4, 5, 6, 7, 11, 12, 13, 14]
    assert {c >> 4 for c in deck.cards} == {4, 5, 6, 7}  # French suits


def test_4_1_clean_deck_has_24_cards_a_2_3_j_q_k() -> None:
    deck = truco.deck_of("clean")
    assert deck.size == 24
    assert sorted({c & 15 for c in deck.cards}) == [2, 3, 11, 12, 13, 14]
    state = deal("3c Jc Qc | 2d Kd Ad", "Ah", spec="truco(deck=clean)")
    assert sorted(truco.events(state)[0].data["deck"]) == sorted(map(format_card, deck.cards))


def test_4_1_ordinary_order_3_2_a_k_j_q_7_6_5_4_regardless_of_suit() -> None:
    # Vira 3: the manilhas are the 4s, so every other rank shows the ordinary order.
    groups = ranked("3c")
    assert ranks_of(groups[4:]) == ["3", "2", "A", "K", "J", "Q", "7", "6", "5"]
    assert all(len(g) == 4 for g in groups[4:])  # suits never matter


def test_4_1_clean_ordinary_order_3_2_a_k_j_q() -> None:
    assert ranks_of(ranked("3c", "clean")[4:]) == ["3", "2", "A", "K", "J"]  # manilhas: Qs


def test_4_1_manilha_rank_is_next_above_vira_cyclic() -> None:
    cycle = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
    for i, vira in enumerate(cycle):
        manilha = truco.manilha_rank("dirty", card(vira + "d"))
        assert format_card(64 + manilha)[:-1] == cycle[(i + 1) % 10]
    clean = ["Q", "J", "K", "A", "2", "3"]
    for i, vira in enumerate(clean):
        manilha = truco.manilha_rank("clean", card(vira + "d"))
        assert format_card(64 + manilha)[:-1] == clean[(i + 1) % 6]


def test_4_1_manilhas_beat_all_and_rank_clubs_hearts_spades_diamonds() -> None:
    groups = ranked("6h")  # manilhas: the 7s
    assert groups[:4] == [["7c"], ["7h"], ["7s"], ["7d"]]
    assert ranks_of(groups[4:5]) == ["3"]


def test_4_1_two_ordinary_cards_of_one_rank_tie() -> None:
    state = act(deal("3c 4c 5c | 3d 6d 7d", "Kh", spec="truco"), "play 3c", "play 3d")
    assert state.results == (TIE,)


# --- players, seating and deal ----------------------------------------------------------


def test_4_2_two_or_four_players_partners_opposite() -> None:
    assert tapete.load("truco(players=4)").players == 4
    assert tapete.load("truco(players=4)").teams == ((0, 2), (1, 3))
    assert tapete.load("truco").teams is None
    with pytest.raises(SpecError, match="2 \\(1v1\\) or 4 \\(2v2\\)"):
        tapete.load("truco(players=6)")


def test_4_2_mao_is_next_after_dealer_and_the_deal_passes_to_mao() -> None:
    state = deal(FOUR, "Kc", dealer=1)
    assert truco.current_player(state) == 2
    state = act(state, "raise", "run")  # the hand ends at once
    assert state.deal.dealer == 2 and truco.current_player(state) == 3


def test_4_2_first_dealer_is_drawn_by_lot() -> None:
    for seed in range(5):
        state = tapete.load("truco(players=4)").new_state(seed=seed)
        assert state.deal.dealer == by_lot(4, seed, "first-dealer")


def test_4_2_three_cards_each_then_the_vira_rest_unused() -> None:
    state = deal(FOUR, "Kc", dealer=3)
    data = truco.events(state)[0].to_json()
    assert data["type"] == "deal" and data["dealer"] == 3 and data["mao"] == 0
    assert data["hands"] == [h.split() for h in FOUR.split(" | ")]
    assert data["upcard"] == "Kc" and data["manilha"] == "A" and data["stock"] == []
    assert " ".join(data["deck"][:13]) == "3c 3d 2h 2s 4c 4d 6h 6s 5c 5d 7h 7s Kc"
    assert all(h.bit_count() == 3 for h in state.hands)


def test_4_2_each_deal_uses_its_deck_or_a_shuffle_of_seed_and_deal() -> None:
    game = tapete.load("truco")
    first = truco.stack_deck(game.params, 1, ["3c 4c 5c", "2d 6d 7d"], "Kh")
    second = truco.stack_deck(game.params, 0, ["Ac Ad Ah", "As Kc Kd"], "Qh")
    state = act(game.new_state(decks=[first, second], dealer=1), "raise", "run")
    assert state.deal.deck == second and state.deal.dealer == 0
    state = act(state, "raise", "run")
    assert state.deal.deck == Setup(0).deck(2, truco.deck_of("dirty").cards)


# --- a round ----------------------------------------------------------------------------


def test_4_3_any_card_may_be_played_no_duty_to_follow() -> None:
    state = act(deal(TWO, "Kh", spec="truco"), "play 3c")
    assert legal(state)[:3] == ["play 2d", "play 6d", "play 7d"]


def test_4_3_highest_card_wins_and_its_player_leads() -> None:
    state = act(deal(TWO, "Kh", spec="truco"), "play 4c", "play 2d")
    assert state.results == (B,) and truco.current_player(state) == 1
    assert event(state, "trick")["winner"] == 1


def test_4_3_round_tied_only_when_both_teams_share_the_top_rank() -> None:
    state = act(deal(FOUR, "Kc"), "play 3c", "play 3d", "play 2h", "play 2s")
    assert state.results == (TIE,)


def test_4_3_partners_alone_on_top_win_and_the_first_of_them_leads() -> None:
    hands = "5c 6c 7c | 4d 6d 7d | 5h 6h 7h | 4s Js Qs"
    state = act(deal(hands, "Kc"), "play 5c", "play 4d", "play 5h", "play 4s")
    assert state.results == (A,) and truco.current_player(state) == 0


def test_4_3_after_a_tie_the_first_tied_card_leads() -> None:
    hands = "4c 6c 7c | 3d 6d 7d | 3h 6h 7h | 2s Js Qs"
    state = act(deal(hands, "Kc"), "play 4c", "play 3d", "play 3h", "play 2s")
    assert state.results == (TIE,) and truco.current_player(state) == 1
    assert event(state, "trick")["next_leader"] == 1


# --- who wins the hand --------------------------------------------------------------------


def rounds(first: str, second: str, *, spec: str = "truco", dealer: int = 1) -> State:
    """A 1v1 hand under vira Kh (manilhas: the aces) where the i-th cards of the two hands meet
    in round i, whoever leads it; played until the hand is decided."""
    state = deal(f"{first} | {second}", "Kh", spec=spec, dealer=dealer)
    for a, b in zip(first.split(), second.split(), strict=True):
        if truco.current_player(state) is None or state.deal.number > 0:
            break
        mover = truco.current_player(state)
        pair = (a, b) if mover == 0 else (b, a)
        state = act(state, f"play {pair[0]}", f"play {pair[1]}")
    return state


def hand_score(state: State) -> list[int]:
    return list(event(state, "score")["score"])


def test_4_4_two_rounds_to_one_team_win_and_round_3_is_not_played() -> None:
    state = rounds("3c 3d 4c", "2c 2d 5c")
    assert hand_score(state) == [1, 0] and state.deal.number == 1
    assert [e.data["round"] for e in truco.events(state) if e.type == "trick"] == [2]


def test_4_4_seed_1_2_round_2_tied_goes_to_round_1_winner() -> None:
    state = rounds("3c 2c 4c", "2d 2h 5c")
    assert hand_score(state) == [1, 0] and state.deal.number == 1


def test_4_4_seed_1_1_round_1_tied_goes_to_round_2_winner() -> None:
    state = rounds("3c 4c 5c", "3d 2d 6d")
    assert hand_score(state) == [0, 1] and state.deal.number == 1


def test_4_4_split_rounds_then_round_3_decides() -> None:
    state = rounds("3c 4c 2c", "2d 3d 7d")
    assert hand_score(state) == [1, 0]
    state = rounds("3c 4c 7c", "2d 3d 2h")
    assert hand_score(state) == [0, 1]


def test_4_4_seed_1_3_round_3_tied_after_a_split_goes_to_round_1_winner() -> None:
    state = rounds("4c 3c 2c", "5d 2d 2h")  # B, A, tie
    assert hand_score(state) == [0, 1]


def test_4_4_seed_1_4_all_rounds_tied_go_to_the_dealer_team() -> None:
    state = rounds("3c 2c 7c", "3d 2d 7d", dealer=1)
    assert hand_score(state) == [0, 1]
    state = rounds("3c 2c 7c", "3d 2d 7d", dealer=0)
    assert hand_score(state) == [1, 0]


def test_4_4_hand_winner_table() -> None:
    table = {
        (A, A): A,
        (B, B): B,
        (A, TIE): A,
        (TIE, B): B,
        (A, B): None,
        (TIE, TIE): None,
        (A, B, A): A,
        (A, B, B): B,
        (A, B, TIE): A,
        (B, A, TIE): B,
        (TIE, TIE, B): B,
        (TIE, TIE, TIE): ALL_TIED,
        (A,): None,
        (): None,
    }
    for results, winner in table.items():
        assert truco.hand_winner(results) == winner, results


# --- raising the stake --------------------------------------------------------------------


def test_4_5_a_hand_is_worth_1_until_raised() -> None:
    state = rounds("3c 3d 4c", "2c 2d 5c")
    assert hand_score(state) == [1, 0] and event(state, "score")["stake"] == 1


def test_4_5_the_ladder_is_1_3_6_9_12() -> None:
    state = deal(TWO, "Kh", spec="truco")
    steps = []
    for _ in range(4):
        state = act(state, "raise")
        steps.append(state.proposal)
    assert steps == [3, 6, 9, 12]
    assert rule(state, "raise") == "stake-at-max"
    state = act(state, "accept")
    assert state.stake == 12 and rule(state, "raise") == "stake-at-max"


def test_4_5_raise_only_on_own_turn_before_playing() -> None:
    state = deal(FOUR, "Kc")
    assert "raise" in legal(state)  # seat 0, before playing
    state = act(state, "play 3c")
    assert truco.current_player(state) == 1 and "raise" in legal(state)
    state = act(state, "raise")
    assert truco.current_player(state) == 2 and state.phase == truco.Phase.ANSWER
    assert rule(state, "play 2h") == "answer-first"


def test_4_5_the_team_of_the_last_accepted_raise_may_not_raise() -> None:
    state = act(deal(FOUR, "Kc"), "raise", "accept")
    assert state.stake == 3 and truco.current_player(state) == 0
    assert rule(state, "raise") == "raise-twice"
    state = act(state, "play 3c")
    assert rule(state, "raise") is None  # seat 1 (team B) may ask 6
    state = act(state, "play 3d", "play 2h")
    assert rule(state, "raise") is None
    state = act(state, "raise", "accept")
    assert state.stake == 6 and state.raised_by == B
    assert rule(state, "raise") == "raise-twice"  # seat 3 again, team B


def test_4_5_accept_raises_the_value_and_the_raiser_plays_on() -> None:
    state = act(deal(FOUR, "Kc"), "play 3c", "raise", "accept")
    assert state.stake == 3 and truco.current_player(state) == 1 and state.phase == truco.Phase.PLAY
    state = act(state, "play 3d", "raise", "accept")  # seat 2 asks 6, seat 3 accepts
    assert state.stake == 6 and truco.current_player(state) == 2 and state.raised_by == A


def test_4_5_run_gives_the_raisers_the_value_before_the_raise() -> None:
    paid = []
    for raises in range(1, 5):
        state = act(deal(TWO, "Kh", spec="truco"), *["raise"] * raises, "run")
        paid.append((raises % 2 == 1, hand_score(state)))
    # Seat 0 raised last after an odd number of raises.
    assert paid == [(True, [1, 0]), (False, [0, 3]), (True, [6, 0]), (False, [0, 9])]
    assert event(state, "score")["reason"] == "run"


def test_4_5_re_raise_is_answered_by_the_original_raisers() -> None:
    state = act(deal(FOUR, "Kc"), "raise", "raise")  # seat 0 truco, seat 1 asks 6
    assert truco.current_player(state) == 2 and state.proposal == 6 and state.proposer == 1
    assert legal(state) == ["accept", "run", "raise"]
    state = act(state, "accept")
    assert state.stake == 6 and truco.current_player(state) == 0  # the first raiser plays


def test_4_5_after_a_re_raise_is_accepted_the_first_raiser_may_raise_again() -> None:
    """The last accepted raise is then the other team's, so the first raiser, who plays on,
    may raise at once."""
    state = act(deal(FOUR, "Kc"), "raise", "raise", "accept")  # 0 truco, 1 asks 6, 2 accepts
    assert state.stake == 6 and state.raised_by == B and truco.current_player(state) == 0
    assert "raise" in legal(state)
    state = act(state, "raise")
    assert state.proposal == 9 and truco.current_player(state) == 1


def test_4_5_a_seat_with_no_cards_left_answers_a_raise() -> None:
    # Seat 1 leads round 3 with its last card; seat 0 raises before playing its own.
    state = act(deal(TWO, "Kh", spec="truco"), "play 3c, play 2d, play 4c, play 6d, play 7d")
    assert truco.current_player(state) == 0 and state.hands[1] == 0
    state = act(state, "raise")
    assert truco.current_player(state) == 1 and legal(state) == ["accept", "run", "raise"]
    assert act(state, "run").scores == (1, 0)
    assert act(state, "accept", "play 5c").scores == (0, 3)  # the 7 beats the 5


def test_4_5_the_next_opponent_answers_for_the_team() -> None:
    state = act(deal(FOUR, "Kc"), "play 3c", "play 3d", "raise")  # seat 2 raises
    assert truco.current_player(state) == 3
    assert truco.parse_action(state.params, "run") in truco.legal_actions(state)
    state = act(state, "run")  # binds team B at once
    assert hand_score(state) == [1, 0]


def test_4_5_nothing_to_answer_without_a_raise() -> None:
    state = deal(FOUR, "Kc")
    assert rule(state, "accept") == rule(state, "run") == "nothing-to-answer"


# --- special hands ----------------------------------------------------------------------


def test_4_6_mao_de_onze_partners_see_each_other_opponents_do_not() -> None:
    state = deal(FOUR, "Kc", scores=(11, 8))
    assert state.deal.special == truco.ELEVEN
    seen = truco.observe(state, 2).hands
    assert seen[0] == CardSet.parse("3c 4c 5c", french=True) and seen[1] is None
    assert seen[2] == CardSet.parse("2h 6h 7h", french=True) and seen[3] is None
    assert truco.observe(state, 1).hands == (
        None,
        CardSet.parse("3d 4d 5d", french=True),
        None,
        None,
    )
    assert truco.observe(state, None).hands == (None,) * 4


def test_4_6_mao_de_onze_first_player_of_the_team_decides() -> None:
    state = deal(FOUR, "Kc", scores=(11, 8))
    assert truco.current_player(state) == 0 and legal(state) == ["accept", "run"]
    assert rule(state, "play 3c") == "eleven-decision"
    state = deal(FOUR, "Kc", scores=(8, 11))
    assert truco.current_player(state) == 1  # team B's first seat from mão


def test_4_6_mao_de_onze_accept_plays_for_3_without_raises() -> None:
    state = act(deal(FOUR, "Kc", scores=(11, 8)), "accept")
    assert state.stake == 3 and truco.current_player(state) == 0
    assert rule(state, "raise") == "no-raise-eleven"
    assert "raise" not in legal(state)
    state = act(state, "play 3c")
    assert rule(state, "raise") == "no-raise-eleven"  # the other team neither


def test_4_6_mao_de_onze_run_concedes_1_and_no_cards_are_played() -> None:
    state = act(deal(FOUR, "Kc", scores=(11, 8)), "run")
    assert hand_score(state) == [0, 1] and state.scores == (11, 9)
    assert not [e for e in truco.events(state) if e.type == "trick"]
    assert event(state, "score")["reason"] == "declined"


def test_4_6_mao_de_onze_in_1v1_shows_nothing_extra() -> None:
    state = deal(TWO, "Kh", spec="truco", scores=(8, 11))
    assert truco.current_player(state) == 1
    assert truco.observe(state, 1).hands == (None, CardSet.parse("2d 6d 7d", french=True))


def test_4_6_mao_de_ferro_no_raises_and_the_winner_takes_the_game() -> None:
    spec = "truco(iron_hand_blind=false)"
    state = deal("3c 2c 4c | 2d 6d 7d", "Kh", spec=spec, scores=(11, 11))
    assert state.deal.special == truco.IRON and rule(state, "raise") == "no-raise-iron"
    state = act(state, "play 3c", "play 2d", "play 2c", "play 6d")
    outcome = truco.outcome(state)
    assert outcome is not None and outcome.scores == (12, 11) and outcome.winners == (0,)


def test_4_6_three_tied_rounds_in_the_special_hands() -> None:
    """A mão de ferro whose rounds all tie goes by all_tied: the dealer's team wins the match,
    or with no_score nobody scores and the next hand is a mão de ferro again. A mão de onze
    played out and all tied gives its 3 to the dealer's team."""
    ties = "play 4c, play 4d, play 5c, play 5d, play 6c, play 6d"
    spec = "truco(iron_hand_blind=false{})"
    state = act(deal("4c 5c 6c | 4d 5d 6d", "Kh", spec=spec.format(""), scores=(11, 11)), ties)
    outcome = truco.outcome(state)
    assert outcome is not None and outcome.scores == (11, 12) and outcome.winners == (1,)
    state = deal(
        "4c 5c 6c | 4d 5d 6d", "Kh", spec=spec.format(", all_tied=no_score"), scores=(11, 11)
    )
    state = act(state, ties)
    assert truco.outcome(state) is None and state.scores == (11, 11)
    assert state.deal.number == 1 and state.deal.special == truco.IRON
    state = act(deal("4c 5c 6c | 4d 5d 6d", "Kh", spec="truco", scores=(11, 3)), "accept", ties)
    assert hand_score(state) == [0, 3] and state.scores == (11, 6)


def test_4_6_mao_de_ferro_is_blind_a_seat_does_not_see_its_cards() -> None:
    state = deal(FOUR, "Kc", scores=(11, 11))
    assert state.deal.blind
    for seat in (None, 0, 1, 2, 3):
        assert truco.observe(state, seat).hands == (None,) * 4
    assert legal(state) == ["play 1", "play 2", "play 3"]
    assert rule(state, "play 3c") == "blind-hand"


def test_4_6_blind_legal_actions_do_not_depend_on_the_cards() -> None:
    one = deal(FOUR, "Kc", scores=(11, 11))
    other = deal("Ac Ad 2c | 3d 4d 5d | 2h 6h 7h | 3c 4c 5c", "Kh", scores=(11, 11))
    for seat in range(4):
        view_one, view_other = truco.observe(one, seat), truco.observe(other, seat)
        assert view_one.hands == view_other.hands
    assert truco.legal_actions(one) == truco.legal_actions(other) == [BLIND, BLIND + 1, BLIND + 2]


def test_4_6_blind_play_by_position_turns_the_card_face_up() -> None:
    state = act(deal(FOUR, "Kc", scores=(11, 11)), "play 2")  # seat 0's second card: 4c
    assert state.trick == (card("4c"),)
    assert truco.observe(state, 1).trick == (truco.Play(0, card("4c"), False),)
    state = act(state, "play 1")
    assert legal(state) == ["play 1", "play 2", "play 3"]
    state = act(state, "play 3", "play 3")
    assert state.results == (B,)  # 3d beats 4c, 7h and 7s
    state = act(state, "play 2")  # seat 1 holds 4d 5d: its second is now 5d
    assert state.trick == (card("5d"),)
    assert rule(state, "play 3") == "no-such-position"
    assert rule(state, "play 2h down") == "blind-hand"


def test_4_6_encoberta_from_round_2_only() -> None:
    state = deal(TWO, "Kh", spec="truco")
    assert rule(state, "play 3c down") == "encoberta-round-1"
    assert "play 3c down" not in legal(state)
    state = act(state, "play 3c", "play 2d")
    assert rule(state, "play 4c down") is None
    assert legal(state) == ["play 4c", "play 5c", "play 4c down", "play 5c down", "raise"]


def test_4_6_a_face_down_card_cannot_win_or_tie() -> None:
    state = act(deal(TWO, "Kh", spec="truco"), "play 4c", "play 2d")
    state = act(state, "play 6d down", "play 5c")  # B leads round 2 face down
    assert state.results == (B, A)
    state = act(deal(TWO, "Kh", spec="truco"), "play 3c", "play 6d")
    state = act(state, "play 4c", "play 2d down")  # 2d face up would win
    assert hand_score(state) == [1, 0]  # rounds A, A
    state = act(deal("4c 7c 6c | 2d 7d 5d", "Kh", spec="truco"), "play 4c, play 2d")
    state = act(state, "play 7d down, play 7c")  # face up, the 7s would tie: B's hand
    assert state.results == (B, A)


def test_4_6_a_round_of_face_down_cards_only_is_tied_and_its_leader_leads_again() -> None:
    state = act(deal(TWO, "Kh", spec="truco"), "play 3c", "play 2d")
    state = act(state, "play 4c down", "play 6d down")  # seat 0 leads (won round 1)
    assert event(state, "trick")["winner"] is None  # round 2 tied: round 1's winner wins
    assert hand_score(state) == [1, 0]
    state = act(deal("3c 4c 5c | 3d 6d 7d", "Kh", spec="truco"), "play 3c", "play 3d")
    state = act(state, "play 4c down", "play 6d down")
    assert state.results == (TIE, TIE) and truco.current_player(state) == 0


def test_4_6_face_down_card_is_seen_only_by_its_owner() -> None:
    state = act(deal(FOUR, "Kc"), "play 3c", "play 3d", "play 2h", "play 2s")  # tied: 0 leads
    state = act(state, "play 4c down")
    assert truco.observe(state, 0).trick == (truco.Play(0, card("4c"), True),)
    for seat in (None, 1, 2, 3):
        assert truco.observe(state, seat).trick == (truco.Play(0, -1, True),)
    state = act(state, "play 4d", "play 6h", "play 6s")
    assert state.results == (TIE, TIE)
    assert truco.observe(state, 1).tricks[-1].plays[0] == truco.Play(0, -1, True)
    assert event(state, "trick")["down"] == [True, False, False, False]


def test_4_6_mao_de_onze_partner_sees_the_face_down_card() -> None:
    state = act(
        deal(FOUR, "Kc", scores=(8, 11)),
        "accept, play 3c, play 3d, play 2h, play 2s, play 4c, play 4d down",
    )
    assert truco.observe(state, 3).trick[1].card == card("4d")
    assert truco.observe(state, 0).trick[1].card == truco.observe(state, 2).trick[1].card == -1
    game = tapete.load("truco(players=4)")
    before = act(state, "play 6h")
    assert [game.visible_action(before, "play 7s down", s) for s in (None, 0, 1, 2, 3)] == [
        "play down", "play down", "play 7s down", "play down", "play 7s down"
    ]  # fmt: skip
    # The round as the log tells it: the same knowledge as the view, when the round ends the
    # deal too (the next deal is no mão de onze: it must not decide who saw this one).
    after = act(before, "play 7s down")
    for seat, seen in ((1, True), (3, True), (0, False), (2, False), (None, False)):
        (round_,) = [e for e in game.visible_events(after, seat) if e.type == "trick"]
        assert round_.data["cards"][1] == ("4d" if seen else None), seat


# --- scoring and end of game ------------------------------------------------------------


def test_4_7_the_hand_winner_scores_its_value() -> None:
    state = act(
        deal("3c 2c 4c | 2d 6d 7d", "Kh", spec="truco"),
        "raise, accept, play 3c, play 2d, play 2c, play 6d",
    )
    assert hand_score(state) == [3, 0] and state.scores == (3, 0)
    assert state.history == ((3, 0),)


def test_4_7_first_team_to_12_or_more_wins_the_match() -> None:
    state = act(
        deal(ACE, "Kc", scores=(10, 4)),
        "raise, accept, play 3c, play 3d, play Ac, play 2s, play 6h, play 6s, play 4c, play 4d",
    )
    outcome = truco.outcome(state)
    assert outcome is not None
    assert outcome.scores == (13, 4) and outcome.winners == (0, 2)
    assert truco.current_player(state) is None and truco.legal_actions(state) == []
    assert event(state, "end") == {
        "type": "end",
        "scores": [13, 4],
        "winners": [0, 2],
        "reason": "reached 12",
    }
    assert rule(state, "play 5c") == "match-over"


def test_4_7_runs_score_at_once() -> None:
    state = act(deal(TWO, "Kh", spec="truco", scores=(10, 3)), "raise", "run")
    assert state.scores == (11, 3) and state.deal.special == truco.ELEVEN


# --- ambiguities --------------------------------------------------------------------------


def test_4_8_2_rounds_1_and_2_tied_round_3_decides() -> None:
    state = rounds("3c 2c 4c", "3d 2d 5d")
    assert hand_score(state) == [0, 1]


def test_4_8_6_leader_after_a_tie_is_the_first_tied_card() -> None:
    hands = "2c 6c 7c | 4d 6d 7d | 5h 6h 7h | 2s Js Qs"
    state = act(deal(hands, "Kc", dealer=1), "play 5h", "play 2s", "play 2c", "play 4d")
    assert state.results == (TIE,) and truco.current_player(state) == 3


# --- options ------------------------------------------------------------------------------


def test_4_9_defaults() -> None:
    assert Params() == Params(
        players=2,
        deck="dirty",
        target=12,
        all_tied="dealer_team",
        iron_hand_blind=True,
        encoberta="rounds_2_3",
        no_encoberta_after_tie=False,
        responder="next_opponent",
        forbid_pointless_raise=False,
    )
    assert tapete.load("truco_paulista").spec == "truco"


@pytest.mark.parametrize(
    ("spec", "accepted"),
    [
        ("truco(players=4, deck=52)", "dirty \\(40 cards\\) or clean"),
        ("truco(players=4, all_tied=nobody)", "dealer_team, no_score or mao_team"),
        ("truco(players=4, encoberta=always)", "rounds_2_3 or off"),
        ("truco(players=4, responder=partner)", "next_opponent or either_opponent"),
        ("truco(players=4, target=1)", "from 2 to 99"),
        ("truco(players=4, target=100)", "from 2 to 99"),
        ("truco(players=4, iron_hand_blind=3)", "true or false"),
        ("truco(players=4, no_encoberta_after_tie=2)", "true or false"),
        ("truco(players=4, forbid_pointless_raise=maybe)", "true or false"),
        ("truco(players=4, stake=3)", "its parameters are players, deck"),
    ],
)
def test_4_9_bad_options_list_what_is_accepted(spec: str, accepted: str) -> None:
    with pytest.raises(SpecError, match=accepted):
        tapete.load(spec)


def test_4_9_deck_clean_manilhas_from_the_short_cycle() -> None:
    state = deal("Qc 2c Ac | Qd Kd Ad", "3h", spec="truco(deck=clean)")
    assert format_card(64 + state.deal.manilha)[0] == "Q"
    state = act(state, "play Ac", "play Qd")
    assert state.results == (B,)
    with pytest.raises(InvalidActionError, match="not in the clean deck"):
        truco.parse_action(state.params, "play 7c")


def test_4_9_all_tied_no_score() -> None:
    state = rounds("3c 2c 7c", "3d 2d 7d", spec="truco(all_tied=no_score)")
    assert hand_score(state) == [0, 0] and event(state, "score")["winner"] is None


def test_4_9_all_tied_mao_team() -> None:
    state = rounds("3c 2c 7c", "3d 2d 7d", spec="truco(all_tied=mao_team)", dealer=1)
    assert hand_score(state) == [1, 0]


def test_4_9_iron_hand_blind_false_plays_by_card() -> None:
    state = deal(FOUR, "Kc", spec="truco(players=4, iron_hand_blind=false)", scores=(11, 11))
    assert not state.deal.blind and truco.observe(state, 0).hand is not None
    assert legal(state) == ["play 3c", "play 4c", "play 5c"]
    assert rule(state, "play 1") == "not-blind"


def test_4_9_encoberta_off() -> None:
    state = act(deal(TWO, "Kh", spec="truco(encoberta=off)"), "play 3c", "play 2d")
    assert rule(state, "play 4c down") == "encoberta-off"
    assert all("down" not in a for a in legal(state))


def test_4_9_no_encoberta_after_tie() -> None:
    spec = "truco(no_encoberta_after_tie=true)"
    state = act(deal(TWO, "Kh", spec=spec), "play 3c", "play 2d")
    assert rule(state, "play 4c down") is None  # no tie yet
    state = act(deal("3c 4c 5c | 3d 6d 7d", "Kh", spec=spec), "play 3c", "play 3d")
    assert rule(state, "play 4c down") == "encoberta-after-tie"


def test_4_9_responder_either_opponent() -> None:
    spec = "truco(players=4, responder=either_opponent)"
    state = act(deal(FOUR, "Kc", spec=spec), "raise", "run")
    assert truco.current_player(state) == 3 and state.proposal == 3  # the partner may still
    assert legal(state) == ["accept", "run", "raise"]
    accepted = act(state, "accept")
    assert accepted.stake == 3 and truco.current_player(accepted) == 0
    ran = act(state, "run")
    assert hand_score(ran) == [1, 0]
    # Either one's re-raise binds the team; the raisers are asked from the next seat.
    state = act(deal(FOUR, "Kc", spec=spec), "raise", "run", "raise")
    assert truco.current_player(state) == 0 and state.proposal == 6


def test_4_9_responder_either_opponent_the_first_accept_binds_the_team() -> None:
    state = act(deal(FOUR, "Kc", spec="truco(players=4, responder=either_opponent)"), "raise")
    assert truco.current_player(state) == 1
    state = act(state, "accept")  # seat 3 is not asked
    assert state.stake == 3 and state.phase == truco.Phase.PLAY
    assert truco.current_player(state) == 0 and state.raised_by == A


def test_4_9_responder_either_is_next_opponent_in_1v1() -> None:
    state = act(deal(TWO, "Kh", spec="truco(responder=either_opponent)"), "raise", "run")
    assert hand_score(state) == [1, 0]


def test_4_9_forbid_pointless_raise() -> None:
    spec = "truco(forbid_pointless_raise=true)"
    state = deal(TWO, "Kh", spec=spec, scores=(9, 10))
    assert rule(state, "raise") is None  # 9 + 1 < 12
    state = act(state, "raise")  # seat 1 on 10: accepting 3 already gives 13
    assert rule(state, "raise") == "pointless-raise" and legal(state) == ["accept", "run"]
    state = act(deal(TWO, "Kh", spec=spec, scores=(9, 10)), "play 3c")
    assert rule(state, "raise") is None  # 10 + 1 < 12
    state = deal(TWO, "Kh", spec="truco", scores=(9, 10))
    assert rule(act(state, "raise"), "raise") is None  # without the option


def test_4_9_forbid_pointless_raise_on_ones_turn_counts_the_stake_on_the_table() -> None:
    """With forbid_pointless_raise, a team that would reach the target by winning at the value
    already on the table may not raise on its own turn either: on 9 at a truco it accepted, the
    3 it plays for already makes 12."""
    hands, steps = TWO, ("play 4c", "raise", "accept", "play 2d", "play 6d")
    state = act(deal(hands, "Kh", spec="truco(forbid_pointless_raise=true)", scores=(9, 5)), *steps)
    assert truco.current_player(state) == 0 and state.stake == 3 and state.raised_by == B
    assert rule(state, "raise") == "pointless-raise" and "raise" not in legal(state)
    state = act(deal(hands, "Kh", spec="truco", scores=(9, 5)), *steps)
    assert rule(state, "raise") is None  # without the option


def test_4_9_target_points() -> None:
    state = deal("3c 2c 4c | 2d 6d 7d", "Kh", spec="truco(target=3)", scores=(2, 0))
    assert state.deal.special == truco.ELEVEN  # "mão de onze" comes at target - 1
    state = act(state, "accept", "play 3c", "play 2d", "play 2c", "play 6d")
    outcome = truco.outcome(state)
    assert outcome is not None and outcome.scores == (5, 0) and outcome.reason == "reached 3"


# --- worked examples -------------------------------------------------------------------


def test_tr_1_vira_j_order() -> None:
    assert ranks_of(ranked("Jh")) == [
        "Kc",
        "Kh",
        "Ks",
        "Kd",
        "3",
        "2",
        "A",
        "J",
        "Q",
        "7",
        "6",
        "5",
        "4",
    ]


def test_tr_2_manilhas_from_the_vira() -> None:
    for vira, manilha in (("6", "7"), ("7", "Q"), ("3", "4"), ("A", "2")):
        assert format_card(64 + truco.manilha_rank("dirty", card(vira + "s")))[0] == manilha
    assert format_card(64 + truco.manilha_rank("clean", card("3s")))[0] == "Q"


def test_tr_3_espadilha_beats_pica_fumo_team_a_wins_p3_leads() -> None:
    hands = "3h 6c 7c | 5d 6d 7d | 5s 6h 7h | 2c Js Qs"
    state = act(deal(hands, "4c"), "play 3h", "play 5d", "play 5s", "play 2c")
    assert state.results == (A,) and truco.current_player(state) == 2


def test_tr_4_top_rank_on_both_teams_ties_p1_leads() -> None:
    hands = "3c 6c 7c | 3d 6d 7d | 2h 6h 7h | Ks Js Qs"
    state = act(deal(hands, "Kh"), "play 3c", "play 3d", "play 2h", "play Ks")
    assert state.results == (TIE,) and truco.current_player(state) == 0


def test_tr_5_hand_results() -> None:
    assert truco.hand_winner((A, B, TIE)) == A
    assert truco.hand_winner((TIE, B)) == B  # and round 3 is not played:
    assert hand_score(rounds("3c 4c 5c", "3d 2d 6d")) == [0, 1]
    assert truco.hand_winner((TIE, TIE, A)) == A
    assert truco.hand_winner((A, TIE)) == A
    assert truco.hand_winner((TIE, TIE, TIE)) == ALL_TIED
    assert hand_score(rounds("3c 2c 7c", "3d 2d 7d")) == [0, 1]  # dealer 1
    assert hand_score(rounds("3c 2c 7c", "3d 2d 7d", spec="truco(all_tied=no_score)")) == [0, 0]


def test_tr_6_raise_sequences() -> None:
    state = act(deal(FOUR, "Kc"), "raise", "raise", "run")  # A truco, B asks 6, A runs
    assert hand_score(state) == [0, 3]
    state = act(deal(FOUR, "Kc"), "raise", "accept", "play 3c", "raise", "raise", "run")
    assert hand_score(state) == [6, 0]  # B calls 6, A asks 9, B runs
    state = act(deal(FOUR, "Kc"), "raise", "accept")
    assert rule(state, "raise") == "raise-twice"


def test_tr_7_mao_de_onze_at_11_8() -> None:
    state = act(deal(FOUR, "Kc", scores=(11, 8)), "run")
    assert state.scores == (11, 9)
    won = act(
        deal(ACE, "Kc", scores=(11, 8)),
        "accept, play 3c, play 3d, play Ac, play 2s, play 6h, play 6s, play 4c, play 4d",
    )
    outcome = truco.outcome(won)
    assert outcome is not None and outcome.scores == (14, 8) and outcome.winners == (0, 2)
    lost = act(
        deal("4c 5c 6c | 3d 4d 5d | 7c 6h 7h | 2s 6s 7s", "Kc", scores=(11, 8)),
        "accept, play 4c, play 3d, play 7c, play 2s, play 4d, play 6h, play 6s, play 5c",
    )
    assert lost.scores == (11, 11) and lost.deal.special == truco.IRON


def _page_round(plays: list[tuple[int, int, bool]], power: tuple[int, ...]) -> tuple[int, int]:
    """Section 3 of docs/rules/truco.md: ``(seat, card, down)`` in play order to (result, next
    leader); a face-down card is worth nothing, a round of them only is tied and led again."""
    up = [(power[c], seat) for seat, c, down in plays if not down]
    if not up:
        return TIE, plays[0][0]
    best = max(p for p, _ in up)
    top = [seat for p, seat in up if p == best]
    return (TIE if len({seat % 2 for seat in top}) == 2 else top[0] % 2), top[0]


def _page_hand(results: list[int]) -> int | None:
    """Section 4's table: the hand's winner (ALL_TIED for three ties), or None to play on."""
    r = results
    if len(r) == 2 and (r[0] == r[1] != TIE or (TIE in r and r != [TIE, TIE])):
        return r[0] if r[0] != TIE else r[1]
    if len(r) == 3:
        return r[2] if r[2] != TIE else r[0] if r[0] != TIE else ALL_TIED
    return None


@pytest.mark.parametrize(
    "spec",
    [
        "truco",
        "truco(players=4)",
        "truco(players=4, responder=either_opponent, forbid_pointless_raise=true, target=6)",
        "truco(deck=clean, all_tied=mao_team, iron_hand_blind=false, target=4)",
        "truco(players=4, all_tied=no_score, no_encoberta_after_tie=true, target=3)",
    ],
)
def test_who_may_raise_and_what_each_hand_scores_are_the_rules_page(spec: str) -> None:
    """Sections 3 to 7 of the page, written out independently, over whole random matches: when
    raise is offered and who answers, each round's result and next leader, and what each hand
    scores, with every option above and the special hands (small targets reach them often)."""
    for seed in range(60):
        rng = random.Random(seed)
        state = tapete.load(spec).new_state(seed)
        p, results, taken = state.params, [], [0, 0]
        while truco.current_player(state) is not None:
            d, seat, team = state.deal, state.turn, state.turn % 2
            base = state.proposal if state.phase == truco.Phase.ANSWER else state.stake
            may = (
                state.phase != truco.Phase.ELEVEN
                and d.special == truco.NORMAL
                and base < 12
                and not (state.phase == truco.Phase.PLAY and state.raised_by == team)
                and not (p.forbid_pointless_raise and state.scores[team] + base >= p.target)
            )
            assert (RAISE in truco.legal_actions(state)) == may, (seed, state)
            if state.phase == truco.Phase.ANSWER:
                asked = (state.proposer + 1) % p.players
                assert seat in (asked, (asked + 2) % p.players) and team != state.proposer % 2
            before = state
            state = truco.apply(state, rng.choice(truco.legal_actions(state)))
            for e in truco.events(state):
                if e.type == "trick":
                    lead, downs = e.data["leader"], e.data["down"]
                    plays = [
                        ((lead + i) % p.players, card(c), down)
                        for i, (c, down) in enumerate(zip(e.data["cards"], downs, strict=True))
                    ]
                    result, nxt = _page_round(plays, d.power)
                    assert (e.data["team"], e.data["next_leader"]) == (
                        None if result == TIE else result,
                        nxt,
                    )
                    results.append(result)
                elif e.type == "score":
                    how, won = e.data["reason"], e.data["winner"]
                    worth = {
                        "rounds": before.stake,
                        "all rounds tied": before.stake,
                        "run": truco.RUN_PAYS.get(before.proposal, 0),
                        "declined": 1,
                    }[how]
                    if how in ("rounds", "all rounds tied"):
                        winner = _page_hand(results)
                        assert winner is not None
                        if winner == ALL_TIED:
                            winner = {"dealer_team": d.dealer % 2, "mao_team": d.mao % 2}.get(
                                p.all_tied
                            )
                        assert won == winner
                        if d.special == truco.ELEVEN:
                            assert worth == 3
                    elif how == "run":
                        assert won == before.proposer % 2
                    else:
                        assert d.special == truco.ELEVEN and won == 1 - d.eleven_team
                    if won is not None:
                        taken[won] += worth
                    assert e.data["score"] == [worth * (won == t) for t in (0, 1)]
                    assert e.data["totals"] == taken
                    results = []
        outcome = truco.outcome(state)
        assert outcome is not None and max(taken) >= p.target
        assert outcome.winners[0] % 2 == (0 if taken[0] >= p.target else 1)


# --- the contract ----------------------------------------------------------------------------

SPECS = [
    "truco(players=4)",
    "truco",
    "truco(players=4, responder=either_opponent)",
    "truco(deck=clean, iron_hand_blind=false)",
    "truco(players=4, no_encoberta_after_tie=true, forbid_pointless_raise=true, all_tied=no_score)",
]
SCORES = [(0, 0), (11, 5), (6, 11), (11, 11), (10, 9)]
ALL_ACTIONS = range(-1, 263)


def playout(spec: str, scores: tuple[int, int], seed: int, steps: int) -> list[State]:
    params = tapete.load(spec).params
    dealer = by_lot(params.players, seed, "first-dealer")
    state = truco.start_deal(params, Setup(seed), 0, dealer, scores, (), ())
    rng = random.Random(seed)
    states = [state]
    for _ in range(steps):
        if truco.current_player(state) is None:
            break
        state = truco.apply(state, rng.choice(truco.legal_actions(state)))
        states.append(state)
    return states


def visible_cards(view: View) -> int:
    mask = 1 << view.upcard
    for hand in view.hands:
        mask |= hand.mask if hand is not None else 0
    for plays in (view.trick, *(r.plays for r in view.tricks)):
        for play in plays:
            mask |= 1 << play.card if play.card >= 0 else 0
    return mask


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SPECS), st.sampled_from(SCORES), st.integers(0, 10_000), st.integers(0, 40))
def test_sample_state_honours_the_view(
    spec: str, scores: tuple[int, int], seed: int, steps: int
) -> None:
    state = playout(spec, scores, seed, steps)[-1]
    rng = random.Random(seed)
    for seat in (None, *range(state.params.players)):
        view = truco.observe(state, seat)
        sampled = truco.sample_state(view, rng)
        assert truco.observe(sampled, seat) == view
        if seat is not None and truco.current_player(state) == seat:
            assert truco.legal_actions(sampled) == truco.legal_actions(state)
        follow = sampled  # the sampled state plays on
        while truco.current_player(follow) is not None and follow.deal.number == view.deal:
            follow = truco.apply(follow, rng.choice(truco.legal_actions(follow)))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SPECS), st.sampled_from(SCORES), st.integers(0, 10_000))
def test_views_never_show_a_hidden_card(spec: str, scores: tuple[int, int], seed: int) -> None:
    for state in playout(spec, scores, seed, 60):
        n = state.params.players
        played_up = 0
        for _, plays in (*state.tricks, (state.leader, state.trick)):
            for play in plays:
                played_up |= 1 << play if play < DOWN else 0
        for seat in (None, *range(n)):
            allowed = (1 << state.deal.vira) | played_up
            for owner in range(n):
                if truco.sees(state, seat, owner):
                    allowed |= state.deal.dealt[owner]
            assert visible_cards(truco.observe(state, seat)) & ~allowed == 0


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SPECS), st.sampled_from(SCORES), st.integers(0, 10_000))
def test_legal_actions_why_illegal_and_apply_agree(
    spec: str, scores: tuple[int, int], seed: int
) -> None:
    for state in playout(spec, scores, seed, 40):
        legal_set = set(truco.legal_actions(state))
        for action in ALL_ACTIONS:
            error = truco.why_illegal(state, action)
            assert (error is None) == (action in legal_set), (state, action, error)
            if error is not None:
                assert error.rule and str(error)
                if action % 17 == seed % 17:  # apply raises the same error (a sample)
                    with pytest.raises(IllegalActionError) as raised:
                        truco.apply(state, action)
                    assert raised.value.rule == error.rule


def snapshot(state: State) -> tuple[object, ...]:
    return tuple(getattr(state, name) for name in State.__slots__)


def test_apply_never_changes_the_old_state() -> None:
    for spec in SPECS:
        states = playout(spec, (0, 0), 7, 150)
        rng = random.Random(1)
        for state in states:
            before = snapshot(state)
            for action in truco.legal_actions(state):
                truco.apply(state, action)
            with pytest.raises(IllegalActionError):
                truco.apply(
                    state, rng.choice([a for a in ALL_ACTIONS if truco.why_illegal(state, a)])
                )
            assert snapshot(state) == before


def test_with_copies_every_slot() -> None:
    state = deal(FOUR, "Kc")
    copy = state._with()
    assert snapshot(copy) == snapshot(state)


def test_parse_and_format_round_trip() -> None:
    for params in (Params(), Params(deck="clean")):
        deck = truco.deck_of(params.deck).cards
        for action in (
            *deck,
            *(DOWN + c for c in deck),
            BLIND,
            BLIND + 1,
            BLIND + 2,
            RAISE,
            ACCEPT,
            RUN,
        ):
            text = truco.format_action(params, action)
            assert truco.parse_action(params, text) == action
            assert truco.parse_action(params, text.upper()) == action
    assert truco.parse_action(Params(), "Kc") == card("Kc")


@pytest.mark.parametrize(
    "text",
    ["", "play", "bid 2", "play 8c", "play Kc up", "play 1 down", "play 1o", "truco 3", "play 4"],
)
def test_parse_action_rejects_what_is_not_an_action(text: str) -> None:
    with pytest.raises(InvalidActionError):
        truco.parse_action(Params(), text)


def test_format_action_rejects_what_is_not_an_action() -> None:
    for action in (-1, 262):
        with pytest.raises(InvalidActionError):
            truco.format_action(Params(), action)
        assert truco.why_illegal(deal(FOUR, "Kc"), action) is not None


def test_not_in_hand_names_the_hand() -> None:
    state = deal(FOUR, "Kc")
    error = truco.why_illegal(state, card("Ac"))
    assert error is not None and error.rule == "not-in-hand"
    assert str(error) == "Ac is not in your hand (3c 4c 5c)"


def test_same_seed_same_match() -> None:
    game = tapete.load("truco(players=4)")
    runs = []
    for _ in range(2):
        state, rng, log = game.new_state(seed=11), random.Random(5), []
        while game.current_player(state) is not None:
            action = rng.choice(game.legal_actions(state))
            log.append((action, [e.to_json() for e in game.events(state)]))
            state = game.apply(state, action)
        runs.append((log, game.outcome(state)))
    assert runs[0] == runs[1]


def test_events_report_deals_rounds_scores_and_the_end() -> None:
    game = tapete.load("truco")
    state, rng = game.new_state(seed=3), random.Random(3)
    kinds = [e.type for e in game.events(state)]
    scores = [0, 0]
    while game.current_player(state) is not None:
        state = game.apply(state, rng.choice(game.legal_actions(state)))
        for e in game.events(state):
            kinds.append(e.type)
            if e.type == "score":
                scores = [a + b for a, b in zip(scores, e.data["score"], strict=True)]
    outcome = game.outcome(state)
    assert outcome is not None and list(outcome.scores) == scores
    assert kinds[0] == "deal" and kinds[-2:] == ["score", "end"]
    assert kinds.count("deal") == kinds.count("score") == state.deal.number + 1


@pytest.mark.parametrize(
    "spec",
    [
        "truco(target=2)",
        "truco(players=4, target=2, responder=either_opponent, all_tied=mao_team)",
        "truco(target=2, deck=clean, iron_hand_blind=false)",
        "truco(players=4, target=4, encoberta=off, forbid_pointless_raise=true)",
        "truco(target=5, no_encoberta_after_tie=true, all_tied=no_score)",
    ],
)
def test_records_replay_exactly(spec: str) -> None:
    game = tapete.load(spec)
    specials = set()
    for seed in range(12):
        final, rec = play_match(game, ["random"] * game.players, seed=seed)
        again = record.loads(record.dumps(rec))
        replayed = record.replay(again)
        assert game.outcome(replayed) == game.outcome(final)
        assert truco.observe(replayed, None) == truco.observe(final, None)
        specials |= {after.deal.special for *_, after in record.steps(again)}
    assert specials == {truco.NORMAL, truco.ELEVEN, truco.IRON}


def test_a_view_in_words_shows_the_table_the_screens_draw() -> None:
    state = act(deal(FOUR, "Kc", scores=(11, 8)), "accept", "play 3c", "play 3d", "play 2h")
    text = view_text(truco.observe(state, 2))
    assert "vira: Kc, manilhas: Ac Ah As Ad" in text
    assert ", cards seen: 4c 5c" in text and "your hand: 6h 7h" in text
    assert "cartas vistas: 4c 5c" in view_text(truco.observe(state, 2), "es")
    blind = view_text(truco.observe(deal(FOUR, "Kc", scores=(11, 11)), 0))
    assert "your hand: 3 cards you may not see" in blind


def test_the_last_blind_card_is_said_in_the_singular() -> None:
    """A blind hand down to its last card once read "1 cards you may not see"."""
    game = tapete.load("truco(players=4)")
    state = deal(FOUR, "Kc", scores=(11, 11))
    for _ in range(8):  # seat 0 plays its first two cards blind
        if "your hand: 1 card" in view_text(truco.observe(state, 0)):
            break
        state = game.apply(state, game.legal_actions(state)[0])
    assert "your hand: 1 card you may not see" in view_text(truco.observe(state, 0))
    assert "1 carta que no puedes ver" in view_text(truco.observe(state, 0), "es")
