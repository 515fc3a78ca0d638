"""The Gymnasium ids: ``gymnasium.make("tapete/Truco-v0", players=4, opponents="easy")``."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AsyncVectorEnv

import tapete.rl
from tapete.errors import SpecError
from tapete.games import game_names
from tapete.rl.aec import RenderModeError
from tapete.rl.registry import ENV_KEYWORDS, env_id
from tapete.rl.single import SingleAgentEnv

IDS = {
    "pocha": "tapete/Pocha-v0",
    "oh_hell": "tapete/OhHell-v0",
    "tute": "tapete/Tute-v0",
    "truco": "tapete/Truco-v0",
    "poch": "tapete/Poch-v0",
    "pottle": "tapete/Pottle-v0",
}


def inner(env: gymnasium.Env[Any, Any]) -> SingleAgentEnv:
    """The tapete environment under gymnasium.make's wrappers."""
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, SingleAgentEnv)
    return unwrapped


def test_every_game_has_its_id_once_tapete_rl_is_imported() -> None:
    assert {name: env_id(name) for name in game_names()} == IDS
    for name, id_ in IDS.items():
        env = gymnasium.make(id_)
        assert env.spec is not None and env.spec.id == id_
        assert inner(env).game.name == name
        env.close()


def test_no_game_has_a_rule_option_named_as_an_environment_keyword() -> None:
    for name in game_names():
        options = {f.name for f in dataclasses.fields(tapete.load(name).params)}
        assert not options & ENV_KEYWORDS, name


def test_rule_options_and_the_environment_s_keywords_go_side_by_side() -> None:
    env = gymnasium.make(
        "tapete/Pocha-v0", players=3, schedule=[2], seat=2, opponents="random", reward="match"
    )
    tapete_env = inner(env)
    assert tapete_env.game.spec == "pocha(players=3, schedule=[2])"
    assert (tapete_env.seat, tapete_env.reward_mode) == (2, "match")
    assert [bot is None for bot in tapete_env.bots] == [False, False, True]
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(tapete_env.action_masks())
        obs, reward, done, _, info = env.step(int(legal[-1]))
        total += float(reward)
    assert total == info["outcome"].scores[2]


def test_a_rule_option_the_game_lacks_is_refused_by_name() -> None:
    with pytest.raises(SpecError, match="pocha has no parameter colour"):
        gymnasium.make("tapete/Pocha-v0", colour=3)
    with pytest.raises(SpecError, match="players"):
        gymnasium.make("tapete/Truco-v0", players=3)
    with pytest.raises(ValueError, match="seat=5 is not accepted"):
        gymnasium.make("tapete/Tute-v0", seat=5)


def test_a_render_mode_it_lacks_is_a_type_error_too_so_training_libraries_fall_back() -> None:
    # Stable-Baselines3's make_vec_env asks for "rgb_array" and, on a TypeError, for none.
    with pytest.raises(RenderModeError, match="render_mode='rgb_array' is not accepted") as err:
        gymnasium.make("tapete/Truco-v0", render_mode="rgb_array")
    assert isinstance(err.value, TypeError) and isinstance(err.value, ValueError)
    env = gymnasium.make("tapete/Truco-v0", render_mode="ansi", opponents="random")
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's wrapper finds a frame rate declared
        text = env.render()
    assert isinstance(text, str) and "your hand" in text


def test_a_made_environment_passes_gymnasium_s_checker() -> None:
    env = gymnasium.make("tapete/Poch-v0", players=3, rounds=2, opponents="easy")
    check_env(env.unwrapped, skip_render_check=True)


def test_make_vec_runs_an_id_in_worker_processes() -> None:
    envs = gymnasium.make_vec(
        "tapete/Truco-v0", num_envs=2, vectorization_mode="async", opponents="random"
    )
    assert isinstance(envs, AsyncVectorEnv)
    try:
        obs, _ = envs.reset(seed=[1, 2])
        size = tapete.rl.encoding("truco").size
        assert obs.shape == (2, size)
        masks = np.stack(envs.call("action_masks"))
        rewards = envs.step(masks.argmax(axis=1))[1]
        assert rewards.shape == (2,)
    finally:
        envs.close()


def test_an_id_naming_the_module_needs_no_import_first() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('tapete.rl:tapete/Tute-v0', players=4)\n"
        "print(env.unwrapped.game.spec)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "tute(players=4)"


def test_stable_baselines3_makes_an_id_into_a_maskable_vector_env() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    kwargs = {"players": 3, "schedule": [2], "opponents": "random"}
    envs = make_vec_env("tapete/Pocha-v0", n_envs=2, env_kwargs=kwargs, seed=0)
    envs.reset()
    masks = get_action_masks(envs)
    assert masks.shape == (2, len(tapete.rl.encoding("pocha(players=3, schedule=[2])").actions))
