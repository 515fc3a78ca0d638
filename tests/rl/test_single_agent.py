"""tapete.rl.single_agent: one seat as a Gymnasium environment against tapete bots."""

from __future__ import annotations

import warnings
from functools import partial
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

import tapete.rl
from tapete.errors import SpecError
from tapete.game import seat_scores
from tapete.i18n import spec_text

SPECS = [
    "pocha(players=3, schedule=[1, 3])",
    "oh_hell(players=3, suits=3, ranks=8, schedule=up_only)",
    "tute",
    "tute(players=4)",
    "truco(players=4, target=3)",
    "poch(players=3, rounds=3)",
    "pottle(players=3, deals=2, extra_deals=0)",
]


@pytest.mark.parametrize("spec", SPECS)
def test_gymnasium_check_env_passes(spec: str) -> None:
    check_env(tapete.rl.single_agent(spec, seat=1, opponents="easy"), skip_render_check=True)


@pytest.mark.parametrize("mode", ["ansi", "human"])
def test_gymnasium_check_env_passes_rendering(
    mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    env = tapete.rl.single_agent("truco", opponents="random", render_mode=mode)
    # Made through its id, the checker also makes it in the other render modes, with nothing to
    # warn of (the text's frame rate is declared, as Gymnasium's text environments declare it).
    made = gymnasium.make("tapete/Truco-v0", opponents="random", render_mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(made.unwrapped)
    capsys.readouterr()
    env.reset(seed=1)
    printed = capsys.readouterr().out
    shown = env.render()
    if mode == "human":
        assert shown is None and printed.startswith("Truco") and capsys.readouterr().out == printed
    else:
        assert shown is not None and shown.startswith("Truco") and not printed


@pytest.mark.parametrize("spec", SPECS)
def test_a_match_against_bots_sums_to_the_seat_s_score(spec: str) -> None:
    env = tapete.rl.single_agent(spec, seat=0, opponents="random", reward="match")
    env.reset(seed=8)
    done, total, rng = False, 0.0, np.random.default_rng(8)
    info: dict[str, Any] = {}
    while not done:
        mask = env.action_masks()
        legal = env.encoding.mask(env.game.legal_actions(env.state)).astype(bool)
        assert np.array_equal(mask, legal)
        _, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        total += reward
    assert total == seat_scores(info["outcome"].scores, env.game.teams)[0]


@pytest.mark.parametrize("seed", range(4))
def test_a_deal_the_bots_score_before_the_seat_s_first_decision_is_in_its_rewards(
    seed: int,
) -> None:
    """In Truco for four the opponent who speaks first may run before the learner's partner
    plays: that deal's point is scored inside ``reset``, and comes with the first step."""
    env = tapete.rl.single_agent("truco(players=4)", seat=1, opponents="random")
    env.reset(seed=seed)
    done, total, rng = False, 0.0, np.random.default_rng(seed)
    info: dict[str, Any] = {}
    while not done:
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
    assert total == seat_scores(info["outcome"].scores, env.game.teams)[1]


@pytest.mark.parametrize(
    ("spec", "level"),
    [
        ("pocha(players=4, schedule=[3, 3])", "medium"),
        ("tute", "hard(iterations=6)"),  # docs/rl.md: the reproducible way to seat hard
    ],
)
def test_the_same_seed_gives_the_same_match_against_the_same_bots(spec: str, level: str) -> None:
    def actions(seed: int) -> list[tuple[float, ...]]:
        env = tapete.rl.single_agent(spec, seat=1, opponents=level)
        obs, _ = env.reset(seed=seed)
        seen, done = [tuple(obs)], False
        while not done:
            obs, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            seen.append(tuple(obs))
        return seen

    assert actions(3) == actions(3)
    assert actions(3) != actions(4)


def test_opponents_may_differ_by_seat() -> None:
    seats: list[Any] = [None, "easy", "random"]
    env = tapete.rl.single_agent("pocha(players=3, schedule=[2])", opponents=seats)
    assert [getattr(b, "name", None) for b in env.bots] == [None, "easy", "random"]
    others = tapete.rl.single_agent(
        "pocha(players=4)", seat=1, opponents=["easy", "random", "medium"]
    )
    assert [getattr(b, "name", None) for b in others.bots] == ["easy", None, "random", "medium"]
    with pytest.raises(ValueError, match=r"every other seat \(2\) or one per seat \(3\), not 1"):
        tapete.rl.single_agent("pocha(players=3)", opponents=["easy"])
    with pytest.raises(ValueError, match="is a program"):
        tapete.rl.single_agent("pocha(players=3)", opponents='exec(cmd="./bot")')
    with pytest.raises(ValueError, match="seat=3 is not accepted"):
        tapete.rl.single_agent("pocha(players=3)", seat=3)


def test_an_opponent_that_is_no_level_is_told_what_an_environment_seats() -> None:
    """Not the seat list's "or exec(...)": an environment refuses a program."""
    with pytest.raises(SpecError) as refused:
        tapete.rl.single_agent("pocha(players=3)", opponents=["easy", "human"])
    assert str(refused.value) == (
        "opponents: no bot level 'human'; the levels are random, easy, medium, hard, expert,"
        ' or policy(path="FILE") for a trained policy'
    )
    assert "exec" not in spec_text("es", refused.value)


def test_an_action_off_the_mask_is_replaced_or_raises_as_asked() -> None:
    env = tapete.rl.single_agent("pocha(players=3, schedule=[2])", opponents="random")
    env.reset(seed=1)
    off = int(np.flatnonzero(~env.action_masks())[0])
    _, _, _, _, info = env.step(off)
    assert info["illegal"] is True
    strict = tapete.rl.single_agent("pocha(players=3, schedule=[2])", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(tapete.errors.IllegalActionError):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


@pytest.mark.parametrize("seat", [4, -1, True, 1.0, "1"])
def test_a_seat_not_at_the_table_is_refused(seat: Any) -> None:
    with pytest.raises(ValueError, match=r"seat=.* is not accepted: a seat from 0 to 3"):
        tapete.rl.single_agent("pocha", seat=seat, opponents="easy")


def test_a_numpy_seat_is_that_seat() -> None:
    seat: Any = np.int64(2)  # what a vectorised trainer may hand over
    env = tapete.rl.single_agent("pocha", seat=seat, opponents="easy")
    assert env.seat == 2 and type(env.seat) is int


def test_the_match_seed_deals_the_episode_s_cards_again() -> None:
    env = tapete.rl.single_agent("pocha(players=3, schedule=[2])", opponents="easy")
    env.reset(seed=4)
    again = tapete.load("pocha(players=3, schedule=[2])").new_state(seed=env.match_seed)
    assert again.deal.order == env.state.deal.order


def test_an_opponent_that_is_no_bot_is_refused_when_the_env_is_made() -> None:
    with pytest.raises(TypeError, match=r"opponents: a bot level such as 'medium'.* not 5"):
        tapete.rl.single_agent("pocha(players=3)", opponents=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not None"):
        tapete.rl.single_agent("pocha(players=3)", opponents=["easy", None])  # type: ignore[list-item]


def test_the_masks_before_a_reset_say_so() -> None:
    env = tapete.rl.single_agent("pocha(players=3)", opponents="random")
    with pytest.raises(RuntimeError, match=r"call reset\(\) before asking for the action masks"):
        env.action_masks()
    env.reset(seed=1)
    mask = env.action_masks()
    mask[:] = True
    assert not env.action_masks().all()


def _truco_learner() -> Any:
    return tapete.rl.single_agent("truco(target=3)", seat=1, opponents="easy")


def test_a_vector_loop_choosing_from_the_masks_runs_through_matches_that_end() -> None:
    """The loop of docs/rl.md: a match just over offers nothing (its mask is all zeros) until
    the vector environment's next step starts a new one, its action unused."""
    from gymnasium.vector import SyncVectorEnv

    make = partial(tapete.rl.single_agent, "truco(target=2)", opponents="easy")
    envs = SyncVectorEnv([make, make])
    ended = 0
    try:
        envs.reset(seed=[0, 1])
        for _ in range(200):
            masks = np.stack(envs.call("action_masks"))
            actions = [int(np.flatnonzero(row)[0]) if row.any() else 0 for row in masks]
            _, _, terminated, _, _ = envs.step(np.array(actions))
            ended += int(terminated.sum())
    finally:
        envs.close()
    assert ended >= 4  # several matches over, and the loop went on through each


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_a_vector_of_environments_plays_each_as_it_plays_alone(vector: str) -> None:
    """Gymnasium's vector environments (async: each in a worker process, which it is pickled
    to) play the same matches as the environments alone, masks and all."""
    from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

    make = SyncVectorEnv if vector == "sync" else AsyncVectorEnv
    envs = make([_truco_learner, _truco_learner])
    alone = [_truco_learner(), _truco_learner()]
    try:
        obs, _ = envs.reset(seed=[5, 6])
        singles = [env.reset(seed=seed)[0] for env, seed in zip(alone, (5, 6), strict=True)]
        for _ in range(4):  # a few decisions of each match, before either ends
            assert (obs == np.stack(singles)).all()
            assert all(envs.single_observation_space.contains(o) for o in obs)
            masks = np.stack(envs.call("action_masks"))
            assert (masks == np.stack([env.action_masks() for env in alone])).all()
            actions = [int(np.flatnonzero(m)[-1]) for m in masks]
            obs, rewards, terminated, *_ = envs.step(np.array(actions))
            steps = [env.step(a) for env, a in zip(alone, actions, strict=True)]
            singles = [step[0] for step in steps]
            assert list(rewards) == [step[1] for step in steps]
            if terminated.any():
                break
    finally:
        envs.close()
