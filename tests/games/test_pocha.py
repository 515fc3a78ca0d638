"""Pocha and Oh Hell: one test per rule clause of docs/rules/pocha.md, its worked examples
P1–P6, the options.

Positions are set up from text with explicit deck orders (``pocha.stack_deck``), so each test
reads as the rule it checks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from support import fingerprint, random_playout
from tapete.cards import CardSet, parse_card, parse_cards, suit_mask
from tapete.chance import dealt_order
from tapete.games import pocha
from tapete.games.pocha import BID
from tapete.i18n import spec_text


def deal(spec: str, hands: list[str], upcard: str | None = None, dealer: int = 3) -> Any:
    """A game and its first state, seat ``i`` holding ``hands[i]``."""
    game = tapete.load(spec)
    order = pocha.stack_deck(game.params, dealer, hands, upcard)
    return game, game.new_state(decks=[order], dealer=dealer)


def act(game: Any, state: Any, *actions: str) -> Any:
    for a in actions:
        state = game.apply(state, a)
    return state


def legal(game: Any, state: Any) -> list[str]:
    return [game.format_action(a) for a in game.legal_actions(state)]


def rule(game: Any, state: Any, action: str | int) -> str:
    error = game.why_illegal(state, action)
    assert error is not None, f"{action} should be illegal"
    with pytest.raises(tapete.IllegalActionError):
        game.apply(state, action)
    return str(error.rule)


# --- Deck and ranks ---------------------------------------------------------------------


def test_1_1_forty_card_spanish_deck_by_default() -> None:
    deck = tapete.load("pocha").deck
    assert deck.size == 40
    assert {c & 15 for c in deck.cards} == {1, 2, 3, 4, 5, 6, 7, 10, 11, 12}


def test_1_1_forty_eight_card_option_adds_eights_and_nines() -> None:
    deck = tapete.load("pocha(deck=48)").deck
    assert deck.size == 48 and {8, 9} <= {c & 15 for c in deck.cards}


@pytest.mark.parametrize("players", [3, 6])
def test_1_1_three_or_six_players_remove_the_twos_from_forty(players: int) -> None:
    deck = tapete.load(f"pocha(players={players})").deck
    assert deck.size == 36 and all(c & 15 != 2 for c in deck.cards)


def test_1_1_no_removal_with_forty_eight_cards() -> None:
    assert tapete.load("pocha(players=3, deck=48)").deck.size == 48


def test_1_1_strength_as_tres_rey_caballo_sota_7_to_2() -> None:
    order = pocha.card_order(pocha.Params())
    ranks = [1, 3, 12, 11, 10, 7, 6, 5, 4, 2]
    powers = [order.power[parse_card(f"{r}c")] for r in ranks]
    assert powers == sorted(powers, reverse=True)


def test_1_1_any_trump_beats_any_non_trump() -> None:
    game, state = deal("pocha(schedule=1)", ["1o", "2e", "3o", "4c"], upcard="5e")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "1o", "2e", "3o", "4c")
    trick = next(e for e in game.events(state) if e.type == "trick")
    assert trick.data["winner"] == 1


# --- Players and seating ----------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_1_2_every_count_from_three_to_eight_just_works(players: int) -> None:
    game = tapete.load(f"pocha(players={players})")
    assert game.players == players
    assert game.spec == ("pocha" if players == 4 else f"pocha(players={players})")
    state = game.new_state(seed=players)
    assert game.current_player(state) in range(players)


def test_1_2_three_to_eight_players_two_as_an_option() -> None:
    with pytest.raises(tapete.SpecError, match=r"players=9 is not accepted: 3–8"):
        tapete.load("pocha(players=9)")
    with pytest.raises(tapete.SpecError, match=r"players=2 is not accepted: 3–8 \(min_players=2"):
        tapete.load("pocha(players=2)")
    assert tapete.load("pocha(players=2, min_players=2)").players == 2


def test_1_2_specs_that_still_say_max_players_keep_loading() -> None:
    """Before any count from 3 to 8 was accepted, 5–8 players needed ``max_players=8``."""
    old = tapete.load("pocha(players=5, max_players=8)")
    assert old.players == 5 and old.spec == "pocha(players=5)"
    assert (
        old.new_state(seed=3).deal.dealt
        == tapete.load("pocha(players=5)").new_state(seed=3).deal.dealt
    )
    narrow = tapete.load("pocha(max_players=4)")
    assert narrow.players == 4
    with pytest.raises(tapete.SpecError, match=r"players=5 is not accepted: 3–4"):
        tapete.load("pocha(players=5, max_players=4)")


def test_1_2_a_table_too_big_for_oh_hell_is_told_how_it_may_be_had() -> None:
    """Oh Hell is 3–7 players unless ``max_players=8``: the refusal says so, as it says that
    ``min_players=2`` allows two, in every language."""
    with pytest.raises(tapete.SpecError) as refused:
        tapete.load("oh_hell(players=8)")
    assert str(refused.value) == (
        "players=8 is not accepted: 3–7 (min_players=2 allows 2, max_players=8 allows 8)"
    )
    assert spec_text("es", refused.value) == (
        "players=8 no se acepta: de 3 a 7 (min_players=2 permite 2, max_players=8 permite 8)"
    )
    with pytest.raises(tapete.SpecError, match=r"2–7 \(max_players=8 allows 8\)$"):
        tapete.load("oh_hell(players=1, min_players=2)")
    assert tapete.load("oh_hell(players=8, max_players=8)").players == 8


def test_1_2_mano_right_of_dealer_bids_and_leads_first_and_deals_next() -> None:
    game, state = deal("pocha(schedule=[1, 1])", ["1o", "2o", "3o", "4o"], "5e", dealer=2)
    assert game.current_player(state) == 3
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0")
    assert game.current_player(state) == 3
    state = act(game, state, "4o", "1o", "2o", "3o")
    nxt = next(e for e in game.events(state) if e.type == "deal")
    assert nxt.data["dealer"] == 3 and game.current_player(state) == 0


# --- Hand schedule ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "top", "hands"),
    [(3, 12, 25), (4, 10, 22), (5, 8, 19), (6, 6, 16), (7, 5, 15), (8, 5, 16)],
)
def test_1_3_up_and_down_schedule_table(players: int, top: int, hands: int) -> None:
    params = tapete.load(f"pocha(players={players})").params
    schedule = pocha.schedule_of(params)
    assert len(schedule) == hands and max(schedule) == top
    assert schedule.count(top) == players and schedule[0] == schedule[-1] == 1


def test_1_3_p4_four_player_schedule() -> None:
    expected = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    assert pocha.schedule_of(pocha.Params()) == expected


def test_1_3_schedule_options() -> None:
    def sched(spec: str) -> tuple[int, ...]:
        return pocha.schedule_of(tapete.load(spec).params)

    assert sched("pocha(schedule=up_only)") == (*range(1, 10), 10, 10, 10, 10)
    assert sched("pocha(schedule=max_only)") == (10, 10, 10, 10)
    assert len(sched("pocha(schedule=n_ones)")) == 28
    assert sched("pocha(schedule=[3, 1, 4])") == (3, 1, 4)
    assert sched("pocha(schedule=9)") == (9,)
    with pytest.raises(tapete.SpecError, match="hand sizes, each from 1 to 10"):
        tapete.load("pocha(schedule=[11])")
    with pytest.raises(tapete.SpecError, match="up_and_down"):
        tapete.load("pocha(schedule=sideways)")
    # A list holds at most 100 hands, so that a match ends in human time.
    assert len(sched(f"pocha(schedule={[1] * 100})")) == 100
    with pytest.raises(tapete.SpecError, match="1 to 100 hand sizes"):
        tapete.load(f"pocha(schedule={[1] * 101})")


@pytest.mark.parametrize("flag", ["true", "false"])
def test_1_3_a_schedule_of_true_or_false_is_refused_after_its_number_loaded(flag: str) -> None:
    """true equals 1 and false 0 as Python values: a schedule of true is refused even once the
    equal Params with schedule=1 (or 0, refused too) has been seen, and not dealt as hands of 1."""
    tapete.load("pocha(players=3, schedule=1)")
    for _ in range(2):
        with pytest.raises(tapete.SpecError) as refused:
            tapete.load(f"pocha(players=3, schedule={flag})")
        assert refused.value.param == "schedule"


def test_1_3_a_match_plays_every_scheduled_hand() -> None:
    game = tapete.load("pocha(schedule=[2, 1, 3])")
    path = random_playout(game, 4)
    sizes = [e.data["size"] for s, _ in path for e in game.events(s) if e.type == "deal"]
    assert sizes[:3] == [2, 1, 3]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_1_3_every_player_deals_exactly_one_all_cards_hand(players: int) -> None:
    """ "All cards are dealt as many times as there are players": the N all-cards hands come in
    a row and the deal passes each time, so each player deals one of them."""
    game = tapete.load(f"pocha(players={players})")
    top = max(pocha.schedule_of(game.params))
    path = random_playout(game, players)
    deals = [e.data for s, _ in path for e in game.events(s) if e.type == "deal"]
    dealers = [d["dealer"] for d in deals if d["size"] == top]
    assert sorted(dealers) == list(range(players))
    assert all(d["upcard_kept_by_dealer"] for d in deals if d["size"] == top)


# --- Deal and trump ---------------------------------------------------------------------


def test_1_4_deal_one_card_at_a_time_from_mano_to_the_dealer() -> None:
    game = tapete.load("pocha(schedule=2)")
    order = parse_cards("1o 2o 3o 4o 5o 6o 7o 10o 11o")
    order += [c for c in game.deck.cards if c not in order]
    state = game.new_state(decks=[order], dealer=1)
    # mano is seat 2: it gets cards 1 and 5, seat 3 cards 2 and 6, ..., the dealer 4 and 8.
    assert game.observe(state, 2).hand == CardSet.parse("1o 5o")
    assert game.observe(state, 1).hand == CardSet.parse("4o 10o")


def test_1_4_turned_card_sets_trump_and_belongs_to_nobody() -> None:
    game, state = deal("pocha(schedule=1)", ["1o", "2o", "3o", "4o"], upcard="7b")
    view = game.observe(state, 0)
    assert view.trump == 3 and view.upcard == parse_card("7b") and view.shown == -1
    assert all(parse_card("7b") not in game.observe(state, s).hand for s in range(4))


def test_1_4_seven_players_at_five_cards_leave_five_and_turn_one_up() -> None:
    game = tapete.load("pocha(players=7, schedule=5)")
    state = game.new_state(seed=3)
    view = game.observe(state, None)
    assert sum(view.hand_sizes) == 35 and view.upcard >= 0 and view.shown == -1
    assert view.trump == view.upcard >> 4
    assert all(view.upcard not in game.observe(state, s).hand for s in range(7))


def test_1_4_all_cards_dealt_dealer_shows_his_last_card_and_keeps_it() -> None:
    game = tapete.load("pocha(schedule=10)")
    state = game.new_state(seed=3, dealer=0)
    shown = game.observe(state, 1).shown
    assert shown >= 0 and game.observe(state, 1).trump == shown >> 4
    assert shown in game.observe(state, 0).hand
    deck_event = next(e for e in game.events(state) if e.type == "deal")
    assert deck_event.data["deck"][39] == tapete.format_card(shown)


def test_1_4_first_dealer_is_drawn_by_lot() -> None:
    game = tapete.load("pocha")
    dealers = {game.observe(game.new_state(seed=s), None).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert game.observe(game.new_state(seed=5, dealer=2), None).dealer == 2


# --- Bidding ----------------------------------------------------------------------------


def test_1_5_bids_are_zero_to_hand_size_in_play_order_and_public() -> None:
    game, state = deal(
        "pocha(schedule=3)", ["1o 2o 3o", "4o 5o 6o", "7o 10o 11o", "12o 1c 2c"], "3c"
    )
    assert legal(game, state) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    assert rule(game, state, "bid 4") == "bid-range"
    state = act(game, state, "bid 2")
    assert game.observe(state, 2).bids == (2, None, None, None)
    assert game.current_player(state) == 1


def test_1_5_p2_hook_forbids_the_dealer_the_bid_that_makes_the_total() -> None:
    game, state = deal(
        "pocha(schedule=3)", ["1o 2o 3o", "4o 5o 6o", "7o 10o 11o", "12o 1c 2c"], "3c"
    )
    state = act(game, state, "bid 1", "bid 0", "bid 1")
    assert legal(game, state) == ["bid 0", "bid 2", "bid 3"]
    assert rule(game, state, "bid 1") == "hook"
    assert "hook rule" in str(game.why_illegal(state, "bid 1"))


def test_1_5_p3_no_hook_when_the_others_already_bid_more_than_the_tricks() -> None:
    hands = ["1o 2o 3o 4o 5o", "6o 7o 10o 11o 12o", "1c 2c 3c 4c 5c", "6c 7c 10c 11c 12c"]
    game, state = deal("pocha(schedule=5)", hands, "1e")
    state = act(game, state, "bid 3", "bid 2", "bid 1")
    assert legal(game, state) == [f"bid {n}" for n in range(6)]


def test_1_5_no_hook_in_one_card_hands() -> None:
    game, state = deal("pocha(schedule=1)", ["1o", "2o", "3o", "4o"], "5e")
    state = act(game, state, "bid 0", "bid 0", "bid 0")
    assert legal(game, state) == ["bid 0", "bid 1"]


def test_1_5_dealer_hook_option_off() -> None:
    game, state = deal(
        "pocha(schedule=3, dealer_hook=false)",
        ["1o 2o 3o", "4o 5o 6o", "7o 10o 11o", "12o 1c 2c"],
        "3c",
    )
    state = act(game, state, "bid 1", "bid 0", "bid 1")
    assert "bid 1" in legal(game, state)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_1_5_the_dealer_always_has_a_legal_bid(seed: int) -> None:
    game = tapete.load("pocha(schedule=[1, 2, 3, 4])")
    for state, _ in random_playout(game, seed)[:-1]:
        assert game.legal_actions(state)


# --- Play and the must-win rule ----------------------------------------------------

P5 = ["5o 6c 7c", "7o 2o 1b", "4o 12e 5c", "10b 3e 6e"]


def p5_position() -> tuple[Any, Any]:
    game, state = deal("pocha(schedule=3)", P5, "1e")
    return game, act(game, state, "bid 0", "bid 0", "bid 0", "bid 0")


def test_1_6_mano_leads_any_card() -> None:
    game, state = p5_position()
    assert game.current_player(state) == 0
    assert legal(game, state) == ["play 5o", "play 6c", "play 7c"]


def test_1_6_p5_follow_suit_and_beat_the_best_card_of_the_suit() -> None:
    game, state = p5_position()
    state = act(game, state, "5o")
    assert legal(game, state) == ["play 7o"]
    assert rule(game, state, "2o") == "must-beat"
    assert rule(game, state, "1b") == "must-follow-suit"


def test_1_6_p5_cannot_beat_then_any_card_of_the_suit() -> None:
    game, state = p5_position()
    state = act(game, state, "5o", "7o")
    assert legal(game, state) == ["play 4o"]
    assert rule(game, state, "12e") == "must-follow-suit"


def test_1_6_p5_void_must_trump_and_the_trump_wins() -> None:
    game, state = p5_position()
    state = act(game, state, "5o", "7o", "4o")
    assert legal(game, state) == ["play 3e", "play 6e"]
    assert rule(game, state, "10b") == "must-trump"
    state = act(game, state, "6e")
    trick = next(e for e in game.events(state) if e.type == "trick")
    assert trick.data["winner"] == 3 and game.current_player(state) == 3


P6 = ["11c 5o 6o", "10e 2b 4o", "1c 4c 7o", "12e 2e 7o"]


def test_1_6_p6_void_with_trumps_must_trump_then_following_is_enough() -> None:
    game, state = deal(
        "pocha(schedule=3)", ["11c 5o 6o", "10e 2b 4b", "1c 4c 5b", "12e 2e 7o"], "1e"
    )
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "11c")
    assert legal(game, state) == ["play 10e"]
    state = act(game, state, "10e")
    assert legal(game, state) == ["play 1c", "play 4c"]  # the trick is trumped: follow is enough
    state = act(game, state, "4c")
    assert legal(game, state) == ["play 12e"]  # can over-trump, so must
    assert rule(game, state, "2e") == "must-overtrump"
    assert rule(game, state, "7o") == "must-overtrump"


def test_1_6_p6_cannot_overtrump_then_any_card() -> None:
    game, state = deal(
        "pocha(schedule=3)", ["11c 5o 6o", "10e 2b 4b", "1c 4c 5b", "2e 7o 6b"], "1e"
    )
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "11c", "10e", "1c")
    assert legal(game, state) == ["play 7o", "play 2e", "play 6b"]


def test_1_6_a_trump_lead_must_be_beaten_with_a_higher_trump() -> None:
    game, state = deal("pocha(schedule=2)", ["5e 1o", "3e 4e", "6o 7o", "2o 4o"], "1e")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 1", "5e")
    assert legal(game, state) == ["play 3e"]


def test_1_6_the_winner_leads_the_next_trick_and_a_hand_has_h_tricks() -> None:
    game, state = p5_position()
    state = act(game, state, "5o", "7o", "4o", "6e")
    assert game.current_player(state) == 3
    tricks = 1
    while not any(e.type == "score" for e in game.events(state)):
        state = game.apply(state, game.legal_actions(state)[0])
        for event in game.events(state):
            if event.type == "trick":
                tricks += 1
                assert game.current_player(state) == event.data["winner"] or event is not None
    score = next(e for e in game.events(state) if e.type == "score")
    assert tricks == 3 and sum(score.data["tricks"]) == 3


def _strength(params: Any, card: int) -> int:
    """A card's place in its suit as the rules list it, higher is stronger."""
    rank = card & 15
    if params.deck == "french":
        return 14 if rank == 1 else rank
    order = [1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2]
    if params.rank_order == "natural":
        order = [1, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    return -order.index(rank)


def _legal_as_written(params: Any, hand: list[int], trick: list[int], trump: int) -> set[int]:
    """The play duties read straight from the rules page, step by step."""
    if not trick:
        return set(hand)
    led = trick[0] >> 4
    power = [_strength(params, c) for c in trick]
    in_led = {c for c in hand if c >> 4 == led}
    if params.obligation == "follow":
        return in_led or set(hand)
    trumps = {c for c in hand if c >> 4 == trump}
    top_trump = max((p for c, p in zip(trick, power, strict=True) if c >> 4 == trump), default=None)
    if in_led:  # follow, beating the best of the suit led unless the trick is trumped
        if led != trump and top_trump is not None:
            return in_led
        top = max(p for c, p in zip(trick, power, strict=True) if c >> 4 == led)
        return {c for c in in_led if _strength(params, c) > top} or in_led
    if trumps:  # void: trump, over-trumping a trump already played
        if top_trump is None:
            return trumps
        over = {c for c in trumps if _strength(params, c) > top_trump}
        return over or (trumps if params.must_underruff else set(hand))
    return set(hand)


@pytest.mark.parametrize(
    "spec",
    [
        "pocha(schedule=[3, 10, 10])",
        "pocha(players=3, deck=48, rank_order=natural, schedule=[5, 16])",
        "pocha(players=6, must_underruff=true, schedule=[4, 6])",
        "pocha(all_dealt_trump=none, schedule=[10, 10])",
        "oh_hell(players=5, schedule=[6, 10])",
    ],
)
def test_1_6_every_play_and_trick_follows_the_rules_as_written(spec: str) -> None:
    """In whole random hands: the legal cards are the duties of the Play section, and each
    trick goes to the best trump, else the best card of the suit led."""
    game = tapete.load(spec)
    for seed in range(3):
        for state, action in random_playout(game, seed)[:-1]:
            if game.observe(state, None).phase != pocha.Phase.PLAY:
                continue
            d, hand = state.deal, list(CardSet(state.hands[state.turn]))
            expected = _legal_as_written(game.params, hand, list(state.trick), d.trump)
            assert set(game.legal_actions(state)) == expected, state
            if len(state.trick) + 1 == len(d.seats):
                trick = [*state.trick, action]
                trumps = [i for i, c in enumerate(trick) if c >> 4 == d.trump]
                led = [i for i, c in enumerate(trick) if c >> 4 == trick[0] >> 4]
                best = max(trumps or led, key=lambda i: _strength(game.params, trick[i]))
                winner = d.seats[(d.seats.index(state.leader) + best) % len(d.seats)]
                done = next(e for e in game.events(game.apply(state, action)) if e.type == "trick")
                assert done.data["winner"] == winner


def test_1_6_not_in_hand() -> None:
    game, state = p5_position()
    assert rule(game, state, "1o") == "not-in-hand"


def test_phase_errors_name_the_phase() -> None:
    game, state = p5_position()
    assert rule(game, state, "bid 1") == "not-bidding"
    game, state = deal("pocha(schedule=3)", P5, "1e")
    assert rule(game, state, "5o") == "bidding"


# --- Scoring ----------------------------------------------------------------------------


def test_1_7_p1_exact_bid_scores_ten_plus_five_a_trick() -> None:
    assert pocha.hand_score(pocha.Params(), 3, 3) == 25


def test_1_7_missed_bid_loses_five_a_trick_of_difference() -> None:
    assert pocha.hand_score(pocha.Params(), 1, 3) == -10
    assert pocha.hand_score(pocha.Params(), 2, 0) == -10
    assert pocha.hand_score(pocha.Params(), 0, 0) == 10


def test_1_7_p2_worked_example() -> None:
    # h = 3; bids 1, 0, 1 then the dealer may not bid 1 and bids 2; tricks 1, 1, 0, 1.
    hands = ["1o 4c 5c", "3o 6c 7e", "2o 4b 5b", "1c 3c 12c"]
    game, state = deal("pocha(schedule=3)", hands, "1e", dealer=3)
    state = act(game, state, "bid 1", "bid 0", "bid 1")
    assert rule(game, state, "bid 1") == "hook"
    state = act(game, state, "bid 2")
    # Trick 1: seat 0's As de oros; trick 2: seat 3 beats the 6 de copas with the As; trick 3:
    # seat 1, void in copas, must trump the 3 de copas with the 7 de espadas.
    state = act(game, state, "1o", "3o", "2o", "12c", "4c", "6c", "4b", "1c")
    assert legal(game, state) == ["play 3c"]
    state = act(game, state, "3c", "5c")
    assert legal(game, state) == ["play 7e"]
    state = act(game, state, "7e", "5b")
    score = next(e for e in game.events(state) if e.type == "score")
    assert score.data["tricks"] == [1, 1, 0, 1]
    assert score.data["score"] == [15, -5, -5, -5]


# --- End of game and ties ---------------------------------------------------------------


@pytest.mark.parametrize("action", [-1, -(2**40), 9, 2**64])
def test_an_int_that_is_no_card_and_no_bid_is_a_rule_error(action: int) -> None:
    game, bidding = deal("pocha(schedule=1)", ["1o", "2o", "3o", "4o"], "5e")
    playing = act(game, bidding, "bid 0", "bid 0", "bid 0", "bid 0")
    big = action >= BID
    assert rule(game, bidding, action) == ("bid-range" if big else "no-such-action")
    assert rule(game, playing, action) == ("not-bidding" if big else "no-such-action")


def test_1_8_highest_total_wins_after_the_last_hand() -> None:
    game = tapete.load("pocha(schedule=[1, 2])")
    final = random_playout(game, 1)[-1][0]
    outcome = game.outcome(final)
    assert outcome is not None
    assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    assert rule(game, final, "bid 0") == "match-over"


def tied_after_one_hand() -> tuple[Any, Any]:
    """Seats 0 and 1 both make bid 0 (+10), seats 2 and 3 miss."""
    game, state = deal("pocha(schedule=1)", ["4o", "5o", "1o", "3o"], "7e", dealer=3)
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 1", "4o", "5o", "1o", "3o")
    return game, state


def test_1_8_a_tie_is_played_off_by_the_tied_leaders_in_one_card_hands() -> None:
    game, state = tied_after_one_hand()
    assert game.observe(state, None).scores == (10, 10, -5, -5)
    assert game.outcome(state) is None
    view = game.observe(state, 0)
    assert view.tiebreak and view.hand_size == 1 and set(view.seats) == {0, 1}
    assert view.upcard >= 0  # a trump card is turned
    assert view.dealer == 0  # the deal rotates among them: the next tied seat after seat 3
    assert game.current_player(state) == 1


def test_1_8_tie_break_hands_have_no_hook_and_stop_when_one_leads() -> None:
    game, state = tied_after_one_hand()
    state = act(game, state, "bid 0")
    assert legal(game, state) == ["bid 0", "bid 1"]  # the dealer is not hooked
    while game.outcome(state) is None:
        state = game.apply(state, game.legal_actions(state)[0])
    outcome = game.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1 and outcome.winners[0] in (0, 1)


def test_1_8_the_tie_breakers_are_fixed_when_the_tie_break_starts() -> None:
    """Seats 0 and 1 tie for first, seat 2 is 5 behind; both tie-breakers miss the first extra
    hand and fall to seat 2's score. Seat 2 still does not join, and cannot win."""
    game = tapete.load("pocha(schedule=[1, 1])")
    deck = pocha.deck(game.params).cards

    def stacked(mano: int, hands: dict[int, str], upcard: str) -> tuple[int, ...]:
        rows = [[parse_card(hands[s])] for s in sorted(hands)]
        first = sorted(hands).index(mano)
        return dealt_order(rows, first, [parse_card(upcard)], deck)

    decks = [
        stacked(0, {0: "1o", 1: "4o", 2: "5o", 3: "6o"}, "7e"),  # seat 0 takes the trick
        stacked(1, {0: "4c", 1: "1c", 2: "5c", 3: "6c"}, "7e"),  # seat 1 takes the trick
        stacked(0, {0: "4b", 1: "5b"}, "7e"),  # tie-break 1: seat 1 takes the trick
        stacked(1, {0: "4o", 1: "1o"}, "7e"),  # tie-break 2: seat 1 takes the trick
    ]
    state = game.new_state(decks=decks, dealer=3)
    state = act(game, state, "bid 1", "bid 1", "bid 0", "bid 1", "1o", "4o", "5o", "6o")
    state = act(game, state, "bid 1", "bid 1", "bid 1", "bid 1", "1c", "5c", "6c", "4c")
    assert state.scores == (10, 10, 5, -10)
    view = game.observe(state, None)
    assert view.tiebreak and view.seats == (0, 1)
    state = act(game, state, "bid 1", "bid 0", "4b", "5b")  # both miss: 5, 5, 5
    assert state.scores == (5, 5, 5, -10) and game.outcome(state) is None
    view = game.observe(state, None)
    assert view.tiebreak and set(view.seats) == {0, 1}  # seat 2 does not join
    state = act(game, state, "bid 1", "bid 0", "1o", "4o")  # seat 1 makes 1, seat 0 makes 0
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome == tapete.Outcome((15, 20, 5, -10), (1,), "tie-break won")


def test_1_8_the_tie_break_deal_rotates_among_the_tied_and_all_of_them_play_on() -> None:
    """Seats 0, 1 and 3 tie; seat 3 dealt last, so seat 0 deals the first extra hand and seat 1
    the next. Seat 1 misses the first one and falls behind, but plays on: the set is fixed."""
    game = tapete.load("pocha(schedule=1)")
    deck = pocha.deck(game.params).cards

    def stacked(mano: int, hands: dict[int, str]) -> tuple[int, ...]:
        rows = [[parse_card(hands[s])] for s in sorted(hands)]
        return dealt_order(rows, sorted(hands).index(mano), [parse_card("7e")], deck)

    decks = [
        stacked(0, {0: "4o", 1: "5o", 2: "1o", 3: "6o"}),  # seat 2 takes the trick
        stacked(1, {0: "5c", 1: "1c", 3: "4c"}),  # tie-break 1: seat 1 takes the trick
    ]
    state = game.new_state(decks=decks, dealer=3)
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "4o", "5o", "1o", "6o")
    assert state.scores == (10, 10, -5, 10)
    view = game.observe(state, None)
    assert (view.dealer, view.seats) == (0, (1, 3, 0))
    state = act(game, state, "bid 0", "bid 0", "bid 0", "1c", "4c", "5c")
    assert state.scores == (20, 5, -5, 20) and game.outcome(state) is None
    view = game.observe(state, None)
    assert view.tiebreak and (view.dealer, view.seats) == (1, (3, 0, 1))


def test_1_8_tiebreak_players_all_and_nobody() -> None:
    game, state = deal("pocha(schedule=1, tiebreak_players=all)", ["4o", "5o", "1o", "3o"], "7e")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 1", "4o", "5o", "1o", "3o")
    assert set(game.observe(state, None).seats) == {0, 1, 2, 3}
    game, state = deal("pocha(schedule=1, tiebreak_players=nobody)", ["4o", "5o", "1o", "3o"], "7e")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 1", "4o", "5o", "1o", "3o")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.reason == "tie stands"


# --- Variants --------------------------------------------------------------------------


def test_1_10_natural_rank_order_puts_the_three_low() -> None:
    order = pocha.card_order(tapete.load("pocha(rank_order=natural)").params)
    ranks = [1, 12, 11, 10, 7, 6, 5, 4, 3, 2]
    powers = [order.power[parse_card(f"{r}o")] for r in ranks]
    assert powers == sorted(powers, reverse=True)


def test_1_10_must_underruff_option() -> None:
    hands = ["11c 5o 6o", "10e 2b 4b", "1c 4c 5b", "2e 7o 6b"]
    game, state = deal("pocha(schedule=3, must_underruff=true)", hands, "1e")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "11c", "10e", "1c")
    assert legal(game, state) == ["play 2e"]
    assert rule(game, state, "7o") == "must-underruff"


def test_1_10_ronda_india_you_see_every_card_but_your_own() -> None:
    game, state = deal(
        "pocha(players=3, schedule=1, ronda_india=true)", ["4o", "5o", "1o"], "7e", dealer=2
    )
    view = game.observe(state, 0)
    assert view.hand is None
    assert view.hands[1] == CardSet.parse("5o") and view.hands[2] == CardSet.parse("1o")
    state = act(game, state, "bid 0", "bid 1", "bid 0")
    assert game.outcome(state) is not None  # the blind cards played themselves
    trick = next(e for e in game.events(state) if e.type == "trick")
    assert trick.data["cards"] == ["4o", "5o", "1o"] and trick.data["winner"] == 2


# --- views, chance, conservation -------------------------------------------------------------


def test_views_show_only_your_own_hand() -> None:
    game, state = p5_position()
    for seat in range(4):
        view = game.observe(state, seat)
        assert view.hand == CardSet.parse(P5[seat])
        assert [h is None for h in view.hands] == [s != seat for s in range(4)]
    assert all(h is None for h in game.observe(state, None).hands)


def test_voids_revealed_by_play_are_public_and_sampled_around() -> None:
    game, state = p5_position()
    state = act(game, state, "5o", "7o", "4o", "6e")
    view = game.observe(state, 0)
    assert CardSet.parse("1o 3o 12o 11o 10o") <= view.excluded[2]  # could not beat the 7o
    assert parse_card("2o") in view.excluded[3]  # void in oros
    for k in range(20):
        sampled = game.sample_state(view, random.Random(k))
        assert not sampled.hands[3] & suit_mask(0)
        assert fingerprint(game.observe(sampled, 0)) == fingerprint(view)


def test_sample_state_keeps_the_dealers_shown_card_in_his_hand() -> None:
    game = tapete.load("pocha(schedule=10)")
    state = game.new_state(seed=9, dealer=0)
    view = game.observe(state, 2)
    for k in range(10):
        assert view.shown in CardSet(game.sample_state(view, random.Random(k)).hands[0])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_cards_are_conserved_at_every_step(seed: int) -> None:
    game = tapete.load("pocha(players=3, schedule=[2, 12])")
    for state, _ in random_playout(game, seed):
        if game.outcome(state) is not None:
            break
        hands = list(state.hands)
        played = [c for _, t in state.tricks for c in t] + list(state.trick)
        held = [c for h in hands for c in CardSet(h)]
        assert len(set(held) | set(played)) == len(held) + len(played)
        assert len(held) + len(played) == len(state.deal.seats) * state.deal.size


def test_state_is_a_value() -> None:
    game, state = p5_position()
    before = fingerprint(state)
    game.apply(state, "5o")
    with pytest.raises(tapete.IllegalActionError):
        game.apply(state, "bid 2")
    assert fingerprint(state) == before


def test_bad_params_list_what_is_accepted() -> None:
    with pytest.raises(tapete.SpecError, match="deck=52 is not accepted: 40, 48 or french"):
        tapete.load("pocha(deck=52)")
    with pytest.raises(tapete.SpecError, match="pocha has no parameter colour; its parameters"):
        tapete.load("pocha(colour=red)")
    # Quoted, a number is text: the message quotes it, rather than refuse "40" listing 40.
    with pytest.raises(tapete.SpecError, match="deck='40' is not accepted: 40, 48 or french"):
        tapete.load("pocha(deck='40')")
    with pytest.raises(tapete.SpecError, match="deck=french needs rank_order=natural"):
        tapete.load("pocha(deck=french)")


@pytest.mark.parametrize(
    "spec",
    [
        "oh_hell(suits=1, ranks=2)",
        "oh_hell(players=7, suits=1, ranks=5)",
        "pocha(deck=french, rank_order=natural, suits=1, ranks=3)",
    ],
)
def test_a_deck_with_fewer_cards_than_players_is_refused(spec: str) -> None:
    # Every hand deals at least one card (the schedule starts at 1): with fewer cards than
    # players the hands would be empty and the dealer, hooked, would have no bid at all.
    with pytest.raises(tapete.SpecError, match="a card for each player at least"):
        tapete.load(spec)
    seven = tapete.load("oh_hell(players=7, suits=1, ranks=7)")  # one card each: playable
    assert pocha.schedule_of(seven.params) == (1,) * 7


def test_notation_round_trips_and_rejects_junk() -> None:
    game = tapete.load("pocha")
    assert game.parse_action("bid 3") == BID + 3
    assert game.parse_action("PLAY 12b") == parse_card("12b")
    assert game.format_action(game.parse_action("play 1e")) == "play 1e"
    # A French card at a Spanish table is no card of this deck: text no action is written as.
    with pytest.raises(tapete.InvalidActionError, match="'ah' is not a card of this game's 40"):
        game.apply(game.new_state(seed=1), "play Ah")
    digits = ["bid ²", "²"]  # digits to str.isdigit, but no number
    for junk in ["", "bid", "bid x", "play 13o", "fold", *digits]:
        with pytest.raises(tapete.InvalidActionError):
            game.parse_action(junk)


def test_a_bid_past_any_hand_names_the_largest_hand_of_the_match() -> None:
    # A prompt offering bid 0–5 must not answer "at most 10": the deck could deal 10 cards a
    # hand, but this match never does.
    game = tapete.load("pocha(schedule=[5])")
    with pytest.raises(tapete.InvalidActionError, match="no hand of this match has more than 5"):
        game.parse_action("bid 99")
    with pytest.raises(tapete.InvalidActionError, match="more than 10 tricks"):
        tapete.load("pocha").parse_action("bid 11")
    # Within what the deck deals, the hand at hand says it: a rule, with its numbers.
    refused = game.why_illegal(game.new_state(seed=2), "bid 7")
    assert refused is not None and refused.rule == "bid-range"


# --- Oh Hell ---------------------------------------------------------------------------------


def test_oh_hell_is_pocha_with_international_defaults() -> None:
    game = tapete.load("oh_hell")
    assert game.deck.size == 52 and game.params.obligation == "follow"
    assert pocha.schedule_of(game.params)[:3] == (1, 2, 3)
    assert tapete.load("oh_hell(suits=3, ranks=8)").deck.size == 24


def test_oh_hell_follow_suit_only_void_may_discard() -> None:
    hands = ["Ac 2d", "Kc 3d", "2h 4d", "3c 5d"]
    game, state = deal("oh_hell(schedule=2)", hands, "7h")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "Ac")
    assert legal(game, state) == ["play Kc"]  # follow, no duty to beat
    state = act(game, state, "Kc")
    assert legal(game, state) == ["play 4d", "play 2h"]  # void: anything, no duty to trump


def test_oh_hell_scoring_and_hook_on_one_card() -> None:
    assert pocha.hand_score(tapete.load("oh_hell").params, 2, 2) == 12
    assert pocha.hand_score(tapete.load("oh_hell").params, 2, 1) == 1
    game, state = deal("oh_hell(schedule=1)", ["Ac", "Kc", "2h", "3c"], "7h")
    state = act(game, state, "bid 0", "bid 0", "bid 0")
    assert legal(game, state) == ["bid 0"]
    # The refusal says "the 1 trick", not "the 1 tricks".
    assert "add up to the 1 trick (0 already bid" in str(game.why_illegal(state, "bid 1"))
    assert "how many of the 1 trick you" in str(game.why_illegal(state, "play 3c"))


def test_oh_hell_a_tie_for_first_stands_the_play_off_is_an_option() -> None:
    """Pagat's Oh Hell has no play-off: seats 1, 2 and 3 tie on 10 and share the win."""
    hands = ["Ac", "Kc", "2c", "3c"]
    game, state = deal("oh_hell(schedule=1)", hands, "7h")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "Ac", "Kc", "2c", "3c")
    assert game.outcome(state) == tapete.Outcome((1, 10, 10, 10), (1, 2, 3), "tie stands")
    game, state = deal("oh_hell(schedule=1, tiebreak_players=tied)", hands, "7h")
    state = act(game, state, "bid 0", "bid 0", "bid 0", "bid 0", "Ac", "Kc", "2c", "3c")
    view = game.observe(state, None)
    assert game.outcome(state) is None and view.tiebreak and set(view.seats) == {1, 2, 3}


def test_oh_hell_all_cards_dealt_means_no_trump() -> None:
    game = tapete.load("oh_hell(schedule=13)")
    state = game.new_state(seed=1)
    view = game.observe(state, 0)
    assert view.trump == -1 and view.shown == -1 and view.upcard == -1


def test_oh_hell_french_cards_parse_as_french() -> None:
    game = tapete.load("oh_hell")
    assert game.parse_action("play 2c") == parse_cards("2c", french=True)[0]


def test_the_bid_the_hook_forbids_is_offered_struck_even_when_it_is_zero() -> None:
    # The screens show it beside the legal bids (struck through, with the rule) rather than
    # leave a gap; a 0 the hook forbids comes before the lowest legal bid.
    from tapete.present import forbidden_bids

    game = tapete.load("pocha(players=3, schedule=[2])")
    state = game.apply(game.apply(game.new_state(seed=1), "bid 1"), "bid 1")
    legal = game.legal_actions(state)
    assert [game.format_action(a) for a in legal] == ["bid 1", "bid 2"]
    ((button, error),) = forbidden_bids(game, state, legal)
    assert button.text == "bid 0" and error.rule == "hook"
    state = game.apply(game.apply(game.new_state(seed=1), "bid 0"), "bid 1")
    ((button, _),) = forbidden_bids(game, state, game.legal_actions(state))
    assert button.text == "bid 1"
