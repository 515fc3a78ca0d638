"""The parameter sets the conformance suite plays for each registered game.

Small matches first (short schedules), so hypothesis can try many seeds; every option of a game
should appear in at least one spec here.
"""

from collections.abc import Callable
from typing import Any

SPECS: dict[str, list[str]] = {
    "pocha": [
        "pocha(schedule=[1, 3, 10])",
        "pocha(players=3, schedule=[1, 12])",
        "pocha(players=3, deck=48, schedule=[16, 2])",
        "pocha(players=2, min_players=2, schedule=[3, 20])",
        "pocha(players=6, schedule=[6, 1])",
        "pocha(players=7, max_players=8, schedule=[5, 2])",
        "pocha(players=5, deck=48, schedule=[9])",
        "pocha(schedule=[2, 1], rank_order=natural, must_underruff=true, dealer_hook=false)",
        "pocha(players=3, schedule=[1, 1, 1], ronda_india=true)",
        "pocha(players=3, schedule=[1], tiebreak_players=all)",
        "pocha(schedule=[1, 1], tiebreak_players=nobody)",
        "pocha(schedule=n_ones, deck=48)",
        "pocha(players=8, schedule=[5, 1], hook_on_one_card=true, obligation=follow,"
        " scoring=oh_hell)",
        "pocha(max_players=4, schedule=[10, 1], all_dealt_trump=none)",
    ],
    "oh_hell": [
        "oh_hell(schedule=[1, 7, 13])",
        "oh_hell(players=7, schedule=[7, 3])",
        "oh_hell(players=3, suits=3, ranks=8, schedule=up_only)",
        "oh_hell(players=5, suits=2, ranks=5, schedule=2, hook_on_one_card=false,"
        " tiebreak_players=tied)",
        "oh_hell(players=6, suits=1, ranks=9, schedule=[1, 1], ronda_india=true,"
        " tiebreak_players=all)",
        "oh_hell(players=3, suits=2, ranks=3, schedule=[2], dealer_hook=false,"
        " obligation=must_win, must_underruff=true, scoring=pocha, all_dealt_trump=dealer_card)",
        "oh_hell(ranks=2, schedule=[2, 1])",
    ],
    "poch": [
        "poch(players=3, rounds=3)",
        "poch(chips=3)",
        "poch(players=5, chips=4, bet_cap=none)",
        "poch(players=6, chips=3, bowl_funding=player_antes, rounds=one_per_player)",
        "poch(players=3, chips=5, deal=all, all_pass=showdown, shed_leader=poker_winner)",
        "poch(players=5, deal=all, sequence_compare=length_then_height, rounds=2)",
        "poch(chips=4, sequence_rule=trump_789, rounds=4)",
        "poch",
        "poch(players=3, chips=1, rounds=1)",
        "poch(players=5, chips=50, max_rounds=5)",
    ],
    "truco": [
        "truco(players=4)",
        "truco",
        "truco(players=4, deck=clean, target=4, responder=either_opponent)",
        "truco(target=3, iron_hand_blind=false, encoberta=off)",
        "truco(players=4, target=5, all_tied=no_score, no_encoberta_after_tie=true)",
        "truco(target=5, forbid_pointless_raise=true)",
        "truco(target=2, all_tied=mao_team)",
        "truco(target=15)",
    ],
    "pottle": [
        "pottle(deals=2, extra_deals=1)",
        "pottle(players=3, deals=3, bankroll=1)",
        "pottle(players=7, deals=1, extra_deals=2, pot_rule=pagat)",
        "pottle(players=5, deals=2, deal_passes=pot_winner, max_same_bid=unlimited, bankroll=2)",
        "pottle(players=6, deals=1, extra_deals=0, max_same_bid=1)",
        "pottle",
        "pottle(players=3, deals=1, extra_deals=3, max_same_bid=3, bankroll=1000)",
    ],
    "tute": [
        "tute",
        "tute(players=4)",
        "tute(stock_phase_play=follow_only, two_swap_targets=[7], swap_requires_trick_win=true)",
        "tute(stock_phase_play=free, cantes_after_stock=true, last_trick_bonus=10,"
        " tute_declaration=true, match=best_of_3)",
        "tute(match=to_101)",
        "tute(players=4, first_leader=dealer_right, partner_may_sing=true,"
        " must_beat_partner=false, tute_declaration=true)",
        "tute(players=4, must_underruff=true, last_trick_bonus=0, match=best_of_3)",
        "tute(players=4, match=to_101)",
        "tute(match=best_of_5)",
    ],
}


def _poch_chips(state: Any) -> int:
    """Poch: the chips in front of the players and in the bowls, less what the bank added."""
    return int(sum(state.chips) + sum(state.bowls) - state.bank)


def _pottle_chips(state: Any) -> int:
    """Pottle: stacks and pot, less the chips bought, plus the remainder of a split thrown away."""
    return int(sum(state.stacks) + state.pot + state.discarded - sum(state.bought))


CHIPS: dict[str, Callable[[Any], int] | None] = {
    "poch": _poch_chips,
    "pottle": _pottle_chips,
    "pocha": None,  # points are scored, no chips change hands
    "oh_hell": None,
    "truco": None,
    "tute": None,
}
"""Per game, the chip count that no step may change (None: a game without chips)."""


ON_TABLE: dict[str, Callable[[Any], list[int]]] = {
    "pocha": lambda state: list(state.trick),
    "oh_hell": lambda state: list(state.trick),
    "pottle": lambda state: list(state.trick),
    "tute": lambda state: list(state.trick),
    "truco": lambda state: [play & 127 for play in state.trick],  # the card, without its flags
    "poch": lambda state: [],  # a run is shed in one step
}
"""Per game, the cards played to a trick that nobody has taken yet."""
