"""The information-set search: its keys see only a view, its samplers honour it, its budget holds.

These are the search's contract for every game's ``Knowledge`` (Pocha and Oh Hell here; the other
games' knowledge is checked in their own bot tests through the same helpers).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import tapete
from support import random_playout
from tapete import bots
from tapete.bots import Budget, search
from tapete.bots import pocha as pocha_bots
from tapete.errors import SpecError

POCHA_SPECS = [
    "pocha(schedule=[1, 3, 10])",
    "pocha(players=3, deck=48, schedule=[16, 2])",
    "pocha(players=3, schedule=[1, 1, 1], ronda_india=true)",
    "oh_hell(players=4, suits=4, ranks=10, schedule=9)",
    "oh_hell(players=7, schedule=[7, 3])",
]


def decision_states(spec: str, seed: int = 1) -> list[Any]:
    game = tapete.load(spec)
    return [s for s, _ in random_playout(game, seed)[:-1] if len(game.legal_actions(s)) > 1]


def knowledge_of(game: tapete.Game[Any, Any]) -> search.Knowledge[Any]:
    return pocha_bots.Knowledge(game.params)


@pytest.mark.parametrize("spec", POCHA_SPECS)
def test_information_keys_depend_on_the_view_alone(spec: str) -> None:
    # Redealing what the seat cannot see never changes its key; other seats' keys do change
    # with their own hands, so the key is not blind either.
    game = tapete.load(spec)
    knowledge = knowledge_of(game)
    rng = random.Random(2)
    for state in decision_states(spec):
        seat = game.current_player(state)
        view = game.observe(state, seat)
        for _ in range(3):
            other = game.sample_state(view, rng)
            assert knowledge.key(other) == knowledge.key(state)
            assert knowledge.sampler(view)(rng) is not None


@pytest.mark.parametrize("spec", POCHA_SPECS)
def test_the_fast_sampler_deals_states_the_seat_cannot_tell_from_the_real_one(spec: str) -> None:
    game = tapete.load(spec)
    knowledge = knowledge_of(game)
    rng = random.Random(3)
    for state in decision_states(spec):
        seat = game.current_player(state)
        view = game.observe(state, seat)
        draw = knowledge.sampler(view)
        for _ in range(4):
            sampled = draw(rng)
            assert game.observe(sampled, seat) == view
            assert game.legal_actions(sampled) == game.legal_actions(state)


def test_the_fast_sampler_deals_the_unseen_cards_evenly() -> None:
    # First bid of a 2-card hand: each unseen card lands in each other hand about equally often.
    game = tapete.load("pocha(schedule=2)")
    state = game.new_state(seed=5)
    seat = game.current_player(state)
    assert seat is not None
    draw = knowledge_of(game).sampler(game.observe(state, seat))
    rng = random.Random(0)
    other = (seat + 1) % 4
    card = next(c for c in range(128) if state.hands[other] >> c & 1)
    held = sum(draw(rng).hands[other] >> card & 1 for _ in range(3000))
    # 37 unseen cards (40 less my 2, less the upcard), 2 of them in each other hand.
    unseen = 40 - 2 - 1
    assert abs(held / 3000 - 2 / unseen) < 0.02


@pytest.mark.parametrize("spec", POCHA_SPECS)
def test_rollouts_score_the_hand_as_the_rules_do(spec: str) -> None:
    # The fast playout, by medium for every seat, scores as the engine does: replaying
    # medium's choices through the engine ends with the same scores.
    game = tapete.load(spec)
    knowledge = knowledge_of(game)
    for state in decision_states(spec)[:6]:
        values, won = pocha_bots._rollout(state)
        assert len(values) == game.players
        end = state
        while not knowledge.deal_over(state, end):
            end = game.apply(end, medium_choice(game, end))
        assert tuple(values) == tuple(knowledge.returns(state, end))
        assert sum(won) == state.deal.size  # every trick of the hand went to someone


@pytest.mark.parametrize("spec", [s for s in POCHA_SPECS if s.startswith("oh_hell")])
def test_the_searchs_playouts_deal_out_every_trick(spec: str) -> None:
    # Oh Hell scores a trick a point plus 10 for an exact bid: with hands under 10 cards the
    # tricks are the scores modulo 10, and every trick of the hand went to someone.
    game = tapete.load(spec)
    knowledge = knowledge_of(game)
    for state in decision_states(spec)[:8]:
        for seed in range(3):
            values = knowledge.rollout(state, state, random.Random(seed))
            assert sum(v % 10 for v in values) == state.deal.size


def medium_choice(game: tapete.Game[Any, Any], state: Any) -> int:
    seat = game.current_player(state)
    return bots.load("medium").choose(
        game.observe(state, seat), game.legal_actions(state), random.Random(0)
    )


def test_an_iteration_budget_samples_exactly_that_many_deals() -> None:
    game = tapete.load("oh_hell(players=4, suits=4, ranks=10, schedule=9)")
    state = game.new_state(seed=3)
    seat = game.current_player(state)
    view, legal = game.observe(state, seat), game.legal_actions(state)
    stats = search.search(view, legal, random.Random(1), Budget(iterations=40), knowledge_of(game))
    # The best bid stayed in the race to the end: it was simulated in every sampled deal.
    assert stats.iterations == 40
    assert set(stats.visits) == set(legal)
    assert stats.visits[stats.best()] == 40 and stats.plan == (stats.best(),)
    again = search.search(view, legal, random.Random(1), Budget(iterations=40), knowledge_of(game))
    assert again.visits == stats.visits and stats.best() == again.best()
    # The actions as good as the best within the noise are still in the race, the best first.
    assert stats.close[0] == stats.best()
    assert all(stats.visits[a] == 40 for a in stats.close)


@pytest.mark.parametrize(
    "options", ["rollout=random", "prior=none", "rollout=random, prior=none", "tree=none"]
)
def test_the_ablation_searches_without_the_games_knowledge(options: str) -> None:
    game = tapete.load("oh_hell(players=4, suits=4, ranks=10, schedule=9)")
    state = game.new_state(seed=3)
    seat = game.current_player(state)
    bot = bots.load(f"hard(iterations=30, {options})")
    view, legal = game.observe(state, seat), game.legal_actions(state)
    assert bot.choose(view, legal, random.Random(1)) in legal


def test_a_flat_search_plays_out_from_the_root_and_grows_no_tree() -> None:
    game = tapete.load("truco")
    state = game.new_state(seed=3)
    view = game.observe(state, game.current_player(state))
    knowledge = bots.knowledge(view)
    world = knowledge.sampler(view)(random.Random(0))
    plan = (game.legal_actions(world)[0],)
    flat = search._Tree(knowledge, True, True, random.Random(1), grows=False)
    full = search._Tree(knowledge, True, True, random.Random(1))
    for _ in range(5):
        flat.simulate(world, plan)
        full.simulate(world, plan)
    assert not flat.nodes and full.nodes
    assert bots.load("hard(tree=none)").budget.tree == "none"  # type: ignore[attr-defined]
    with pytest.raises(SpecError, match="tree is full"):
        bots.load("hard(tree=maybe)")


def test_a_clear_bid_is_found() -> None:
    # Oh Hell, one card each, no trump dealt... a hand that cannot win a trick bids 0: seat 0
    # holds the 2 of clubs with the ace, king and queen of clubs out against it.
    game = tapete.load("oh_hell(players=3, suits=1, ranks=13, schedule=1)")
    from tapete.games import pocha

    order = pocha.stack_deck(game.params, 2, ["2c", "Ac", "Kc"], "Qc")
    state = game.new_state(decks=[order], dealer=2)
    bot = bots.load("hard(iterations=60)")
    action = bot.choose(game.observe(state, 0), game.legal_actions(state), random.Random(0))
    assert game.format_action(action) == "bid 0"


def test_a_timed_search_answers_once_its_race_has_settled() -> None:
    # Tute, trump oros: seat 0 wins the first trick and holds the Rey and Caballo of oros. The
    # search weighs only the cante (with each card that may follow it), so every plan starts
    # with "sing oros" and the first deals of the race settle it: with ten seconds to spend,
    # a person is not kept waiting for them.
    from tapete.games import tute

    game = tapete.load("tute")
    hands = ["1e 12o 11o 4c 5c 6c 4b 5b", "2e 7c 6b 7b"]
    state = game.new_state(decks=[tute.stack_deck(game.params, 1, hands, "2o", "")], dealer=1)
    state = game.apply(game.apply(state, "play 1e"), "play 2e")
    view, legal = game.observe(state, 0), game.legal_actions(state)
    decision = bots.LevelBot("hard", Budget(ms=10000)).decide(view, legal, random.Random(0))
    assert game.format_action(decision.action) == "sing oros"
    deals = decision.reason.args["value"].args["k"]
    assert deals == search.RACE_MIN
    # An iteration budget still samples every deal it names, for reproducible decisions.
    counted = bots.LevelBot("hard", Budget(iterations=20)).decide(view, legal, random.Random(0))
    assert counted.action == decision.action and counted.reason.args["value"].args["k"] == 20


@pytest.mark.parametrize("spec", ["tute(players=2)", "truco(players=4)", "pocha(schedule=[5])"])
def test_a_hint_is_what_hard_plays_from_the_same_view_and_rng(spec: str) -> None:
    # The hint drew the state its legal actions come from out of the search's RNG, so with the
    # same seed and budget it searched other deals than hard and, in Tute, advised another move
    # than hard played in two decisions of three.
    game = tapete.load(spec)
    budget = Budget(iterations=30)
    for k, state in enumerate(decision_states(spec)[:12]):
        view = game.observe(state, game.current_player(state))
        hard = bots.LevelBot("hard", budget).decide(
            view, game.legal_actions(state), random.Random(k)
        )
        assert bots.hint(view, budget, random.Random(k)) == hard, (spec, k)
