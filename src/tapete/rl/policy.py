"""A trained policy as a tapete bot: ``policy(path="model.zip")`` in ``--seats`` and ``--bots``.

The file is a Stable-Baselines3 model saved by ``model.save(path)`` — sb3-contrib's
``MaskablePPO`` (``algo=maskable_ppo``, the default, as ``examples/train_pocha.py`` trains) or
Stable-Baselines3's ``PPO`` (``algo=ppo``, its choice masked to the legal actions afterwards) —
trained on ``tapete.rl`` observations of the same spec. The bot encodes its view as the
environments do, asks the policy for its most likely action among the legal ones, and plays it.

A file that is no such model fails when the seat is loaded, with a SpecError that names the
file and says what is wrong (not a zip file, a model of the other ``algo``), as the ``tapete``
command's other errors do.
"""

from __future__ import annotations

import json
import random
import zipfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tapete.errors import SpecError, one_of
from tapete.game import Action, Game
from tapete.games import rules_of
from tapete.rl.encodings import Encoding, encoding

__all__ = ["ALGOS", "PolicyBot"]

ALGOS = ("maskable_ppo", "ppo")
_NAMES = {"maskable_ppo": "MaskablePPO (sb3-contrib)", "ppo": "PPO (Stable-Baselines3)"}


@lru_cache(maxsize=8)
def _model(path: str, algo: str) -> Any:
    """The model in ``path``, loaded once per process (an arena plays many matches)."""
    if algo == "maskable_ppo":
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(path, device="cpu")
    from stable_baselines3 import PPO

    return PPO.load(path, device="cpu")


def _load(path: str, algo: str) -> Any:
    """The model in ``path``, or a SpecError naming the file and what is wrong with it. Not the
    library's own errors (a ValueError for a file that is no zip, a TypeError for a model of
    the other algorithm): they say it in its terms, and reach the command as a traceback."""
    if not zipfile.is_zipfile(path):
        raise SpecError("policy: {path} is not a saved model (not a zip file)", path=path)
    saved = _saved_algo(path)
    if saved is not None and saved != algo:
        raise SpecError(
            "policy: {path} holds a {kind} model; use algo={algo}, the default"
            if saved == ALGOS[0]
            else "policy: {path} holds a {kind} model; use algo={algo}",
            path=path,
            kind=_NAMES[saved],
            algo=saved,
        )
    try:
        return _model(path, algo)
    except Exception as exc:  # whatever the library raises for a file it cannot load
        raise SpecError(
            "policy: {path} does not load as a {kind} model ({why})",
            path=path,
            kind=_NAMES[algo],
            why=f"{type(exc).__name__}: {exc}",
        ) from None


def _saved_algo(path: str) -> str | None:
    """Which of ``ALGOS`` saved the model in the zip file ``path``, read from its ``data``
    (the JSON of its parameters): the module of its policy class tells sb3-contrib's masked
    policies from Stable-Baselines3's, and ``clip_range`` a PPO from the other algorithms.
    None when it cannot tell (a policy class of the user's own); SpecError when the zip holds
    no such data."""
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
        module = str(data["policy_class"]["__module__"])
    except (KeyError, TypeError, ValueError, zipfile.BadZipFile):
        raise SpecError(
            "policy: {path} is a zip file but not a saved model (no Stable-Baselines3 data)",
            path=path,
        ) from None
    if "clip_range" not in data:
        return None
    if module.startswith("sb3_contrib.common.maskable."):
        return "maskable_ppo"
    if module.startswith("stable_baselines3."):
        return "ppo"
    return None


@lru_cache(maxsize=16)
def _encoding(rules: Any, params: Any) -> Encoding:
    """The encoding of the game a view comes from (its rules and parameters)."""
    return encoding(Game(rules.NAME, params, rules, params))


class PolicyBot:
    """Plays what a trained policy prefers among the legal actions (see the module docstring)."""

    kind = "bot"

    def __init__(self, path: str, algo: str = "maskable_ppo") -> None:
        if algo not in ALGOS:
            raise SpecError(
                "policy: {name}={value} is not accepted: {accepted}",
                name="algo",
                value=repr(algo),
                accepted=one_of(ALGOS),
            )
        if not Path(path).is_file():
            raise SpecError('policy: no model file at {path} (path="FILE")', path=repr(path))
        self.path, self.algo = path, algo
        self.name = f'policy(path="{path}")'
        _load(path, algo)  # a file that is no model fails here, before any match

    def check_game(self, game: Game[Any, Any]) -> None:
        """SpecError when the policy was trained on observations of another shape than
        ``game``'s (another spec): it could not make one decision of it. Asked before a match's
        first move (``players.check_game``), where every decision would be a random move under
        its name."""
        self._check_shape((encoding(game).size,), game.spec)

    def _check_shape(self, shape: tuple[int, ...], spec: str | None = None) -> None:
        """SpecError unless the model takes observations of ``shape``: those of ``spec``, or
        of the game being played."""
        expected = _model(self.path, self.algo).observation_space.shape
        if expected == shape:
            return
        if spec is None:
            raise SpecError(
                "policy {path}: trained on observations of shape {expected}, but this"
                " game's are {shape}: train it on the spec it plays",
                path=str(self.path),
                expected=str(expected),
                shape=str(shape),
            )
        raise SpecError(
            "policy {path}: trained on observations of shape {expected}, but {spec}'s are"
            " {shape}: train it on the spec it plays",
            path=str(self.path),
            expected=str(expected),
            spec=spec,
            shape=str(shape),
        )

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        rules: Any = rules_of(view)  # a module: hashable, as the cache needs
        enc = _encoding(rules, view.params)
        model = _model(self.path, self.algo)
        obs = enc.encode(view)
        self._check_shape(obs.shape)
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
