"""A trained policy as a tapete bot: ``policy(path="model.zip")`` in ``--seats`` and ``--bots``.

The file is a Stable-Baselines3 model saved by ``model.save(path)`` — sb3-contrib's
``MaskablePPO`` (``algo=maskable_ppo``, the default, as ``examples/train_pocha.py`` trains) or
Stable-Baselines3's ``PPO`` (``algo=ppo``, its choice masked to the legal actions afterwards) —
trained on ``tapete.rl`` observations of the same spec. The bot encodes its view as the
environments do, asks the policy for its most likely action among the legal ones, and plays it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tapete.errors import SpecError
from tapete.game import Action, Game
from tapete.games import rules_of
from tapete.rl.encodings import Encoding, encoding

__all__ = ["ALGOS", "PolicyBot"]

ALGOS = ("maskable_ppo", "ppo")


@lru_cache(maxsize=8)
def _model(path: str, algo: str) -> Any:
    """The model in ``path``, loaded once per process (an arena plays many matches)."""
    if algo == "maskable_ppo":
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(path, device="cpu")
    from stable_baselines3 import PPO

    return PPO.load(path, device="cpu")


@lru_cache(maxsize=16)
def _encoding(rules: Any, params: Any) -> Encoding:
    """The encoding of the game a view comes from (its rules and parameters)."""
    return encoding(Game(rules.NAME, params, rules, params))


class PolicyBot:
    """Plays what a trained policy prefers among the legal actions (see the module docstring)."""

    kind = "bot"

    def __init__(self, path: str, algo: str = "maskable_ppo") -> None:
        if algo not in ALGOS:
            raise SpecError(f"policy: algo={algo!r} is not accepted: {' or '.join(ALGOS)}")
        if not Path(path).is_file():
            raise SpecError(f'policy: no model file at {path!r} (path="FILE")')
        self.path, self.algo = path, algo
        self.name = f'policy(path="{path}")'
        _model(path, algo)  # a file that is no model fails here, before any match

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        rules: Any = rules_of(view)  # a module: hashable, as the cache needs
        enc = _encoding(rules, view.params)
        model = _model(self.path, self.algo)
        obs = enc.encode(view)
        expected = model.observation_space.shape
        if expected != obs.shape:
            raise SpecError(
                f"policy {self.path}: trained on observations of shape {expected}, but this"
                f" game's are {obs.shape}: train it on the spec it plays"
            )
        mask = enc.mask(legal_actions).astype(bool)
        if self.algo == "maskable_ppo":
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            return enc.action(action)
        return enc.actions[_best_legal(model, obs, mask)]


def _best_legal(model: Any, obs: Any, mask: Any) -> int:
    """The legal action the policy gives the highest probability."""
    import torch

    with torch.no_grad():
        tensor, _ = model.policy.obs_to_tensor(obs)
        probs = model.policy.get_distribution(tensor).distribution.probs[0].numpy()
    return int(np.argmax(np.where(mask, probs, -1.0)))
