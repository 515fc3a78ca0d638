"""Bots are fair: a decision depends only on the deciding seat's view.

For states along random playouts, the other seats' hidden cards are redealt (``sample_state``
keeps everything the seat may know) and every level, given the same RNG, must decide the same —
the search with and without its game knowledge (priors, informed playouts) included.
"""

from __future__ import annotations

import importlib
import random

import pytest

import tapete
from conformance_specs import SPECS
from support import random_playout
from tapete import bots


def games_with_bots() -> list[str]:
    out = []
    for name in sorted(SPECS):
        module = type(tapete.load(name).params).__module__.rsplit(".", 1)[-1]
        try:
            importlib.import_module(f"tapete.bots.{module}")
        except ModuleNotFoundError:
            continue
        out += SPECS[name][:3]
    return out


@pytest.mark.parametrize("spec", games_with_bots())
def test_a_decision_never_depends_on_hidden_cards(spec: str) -> None:
    game = tapete.load(spec)
    names = (
        "easy",
        "medium",
        "hard(iterations=3)",
        "hard(iterations=3, rollout=random, prior=none)",
        "hard(iterations=3, tree=none)",
    )
    levels = [bots.load(name) for name in names]
    path = random_playout(game, 5)
    rng = random.Random(1)
    for state, _ in rng.sample(path[:-1], min(6, len(path) - 1)):
        seat = game.current_player(state)
        view = game.observe(state, seat)
        other = game.sample_state(view, random.Random(rng.random()))
        legal = game.legal_actions(state)
        for bot in levels:
            here = bot.choose(view, legal, random.Random(7))
            there = bot.choose(
                game.observe(other, seat), game.legal_actions(other), random.Random(7)
            )
            assert here == there, (bot.name, game.format_action(here))
            assert here in legal


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard(iterations=2)"])
def test_a_bot_given_the_state_rather_than_a_view_is_refused(level: str) -> None:
    """The state holds every hidden card: a bot given it would play on what its seat cannot
    know, so it is refused, as dice that are no random.Random are."""
    game = tapete.load("pocha(players=3, schedule=[2])")
    state = game.new_state(seed=4)
    legal = game.legal_actions(state)
    bot = bots.load(level)
    with pytest.raises(TypeError, match="not the state: the state holds every hidden card"):
        bot.choose(state, legal, random.Random(0))
    view = game.observe(state, game.current_player(state))
    with pytest.raises(TypeError, match=r"a bot's dice are a random\.Random"):
        bot.choose(view, legal, None)  # type: ignore[arg-type]
    assert bot.choose(view, legal, random.Random(0)) in legal
