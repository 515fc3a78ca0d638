"""Every game's default match ends, whoever plays it.

A table must always end: each registered game at its defaults (and each seat count that changes
the game), plus two Poch tables where the bank's chips once kept careful bots going for ever,
played to the end by ``random``, ``easy`` and ``medium`` bots and by a mixed table. The decision
cap is far above any real match; reaching it means the match would not end.
"""

from __future__ import annotations

import pytest

import tapete
from tapete import bots
from tapete.games import ENTRIES
from tapete.match import seat_rng

DECISION_CAP = 100_000
SPECS = [
    *sorted(ENTRIES),
    "tute(players=4)",
    "truco(players=4)",
    "poch(players=5, chips=4, bet_cap=none)",
    "poch(players=3, chips=5, deal=all, all_pass=showdown, shed_leader=poker_winner)",
]
TABLES = ["random", "easy", "medium", "mixed"]


def play_to_the_end(spec: str, table: str, seed: int) -> tuple[int, tapete.Outcome | None]:
    game = tapete.load(spec)
    levels = ["easy", "medium", "random"] if table == "mixed" else [table]
    agents = [bots.load(levels[s % len(levels)]) for s in range(game.players)]
    rngs = [seat_rng(seed, s) for s in range(game.players)]
    state = game.new_state(seed=seed)
    decisions = 0
    while (seat := game.current_player(state)) is not None and decisions < DECISION_CAP:
        view = game.observe(state, seat)
        state = game.apply(state, agents[seat].choose(view, game.legal_actions(state), rngs[seat]))
        decisions += 1
    return decisions, game.outcome(state)


def test_the_specs_cover_every_registered_game() -> None:
    assert {tapete.load(spec).name for spec in SPECS} == set(tapete.game_names())


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("spec", SPECS)
def test_the_default_match_ends(spec: str, table: str) -> None:
    for seed in (1, 2):
        decisions, outcome = play_to_the_end(spec, table, seed)
        assert outcome is not None, f"{spec} between {table} bots: no end after {decisions}"
        assert outcome.winners
