"""Every observation lies in the observation space the environments declare: finite bounds,
field by field (docs/rl.md), for every game and every player count."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import tapete
import tapete.rl
from conformance_specs import SPECS
from tapete.errors import SpecError
from tapete.games import game_names
from tapete.rl.openspiel import _player_range

pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


def _player_specs() -> list[str]:
    """Each game with its defaults at every table size its rules allow."""
    specs = []
    for name in game_names():
        low, high = _player_range(name)
        for players in range(low, high + 1):
            spec = f"{name}(players={players})"
            try:
                tapete.rl.encoding(tapete.load(spec))
            except SpecError:  # Truco and Tute: two or four; Pocha for two needs min_players
                continue
            specs.append(spec)
    return specs


PLAYER_SPECS = _player_specs()
ALL_SPECS = [spec for specs in SPECS.values() for spec in specs]


def test_every_game_is_checked_at_several_table_sizes() -> None:
    for name in game_names():
        assert sum(spec.startswith(f"{name}(") for spec in PLAYER_SPECS) >= 2, name


@pytest.mark.parametrize("spec", ALL_SPECS + PLAYER_SPECS)
def test_every_observation_of_a_match_lies_in_the_declared_space(spec: str) -> None:
    """Every seat's observation after every step of two whole matches (late in a match too:
    Poch hands grow as seats drop out, Pottle's chips with each buy-in) is in its space."""
    env = tapete.rl.env(spec)
    enc = env.encoding
    assert np.isfinite(enc.low).all() and np.isfinite(enc.high).all()
    for seed in (0, 1):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in env.agent_iter():
            for other in env.agents:
                obs = env.observe(other)
                space = env.observation_space(other)
                assert space.contains(obs), _outside(enc, obs["observation"])
            _, _, terminated, truncated, _ = env.last()
            legal = env.last()[0]["action_mask"].nonzero()[0]
            env.step(None if terminated or truncated else int(rng.choice(legal)))


@pytest.mark.parametrize("spec", PLAYER_SPECS)
def test_the_single_agent_observations_lie_in_its_declared_space(spec: str) -> None:
    env = tapete.rl.single_agent(spec, seat=1, opponents="random")
    obs, _ = env.reset(seed=3)
    rng = random.Random(3)
    done = False
    while not done:
        assert env.observation_space.contains(obs), _outside(env.encoding, obs)
        legal = env.action_masks().nonzero()[0]
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        done = terminated or truncated
    assert env.observation_space.contains(obs), _outside(env.encoding, obs)


def _outside(enc: tapete.rl.encodings.Encoding, vector: np.ndarray) -> str:
    """The fields with a value outside their bounds, for the failure message."""
    return ", ".join(
        f"{f.name} {vector[f.start : f.stop].min()}…{vector[f.start : f.stop].max()}"
        f" not in {f.low}…{f.high}"
        for f in enc.fields
        if (vector[f.start : f.stop] < f.low).any() or (vector[f.start : f.stop] > f.high).any()
    )
