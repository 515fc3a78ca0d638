"""Every game under a Gymnasium id, for ``gymnasium.make`` and the tools that take an id.

``import tapete.rl`` registers one id per game — ``tapete/Pocha-v0``, ``tapete/OhHell-v0``,
``tapete/Tute-v0``, ``tapete/Truco-v0``, ``tapete/Poch-v0``, ``tapete/Pottle-v0`` — each the
single-agent environment (``SingleAgentEnv``) of that game. ``gymnasium.make`` takes the game's
rule options and the environment's keywords side by side, so a script that only knows an id and
keywords (a training script's ``--env-id``, ``gymnasium.make_vec``) plays any rules:

>>> import gymnasium, tapete.rl
>>> env = gymnasium.make("tapete/Truco-v0", players=4, opponents="easy", reward="match")
>>> env.unwrapped.game.spec, env.spec.id
('truco(players=4)', 'tapete/Truco-v0')
>>> obs, info = env.reset(seed=3)

``gymnasium.make("tapete.rl:tapete/Pocha-v0")`` imports ``tapete.rl`` itself first. The ``-v0``
of an id goes up when what the default rules observe or allow changes shape (its observation or
action space), so a trained model names the environment it was trained on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium

from tapete.games import game_names, load

if TYPE_CHECKING:
    from tapete.rl.single import SingleAgentEnv

__all__ = ["ENV_KEYWORDS", "env_id", "make", "register"]

VERSION = 0
# The keywords that are the environment's own; every other keyword of gymnasium.make is one of
# the game's rule options (no game has an option of these names).
ENV_KEYWORDS = frozenset({"seat", "opponents", "reward", "illegal", "render_mode"})


def env_id(game: str) -> str:
    """The Gymnasium id of a game: its name in CamelCase under the ``tapete`` namespace.

    >>> env_id("oh_hell")
    'tapete/OhHell-v0'
    """
    name = "".join(word.capitalize() for word in game.split("_"))
    return f"tapete/{name}-v{VERSION}"


def make(game: str, **keywords: Any) -> SingleAgentEnv:
    """The single-agent environment of ``game`` under the rule options among ``keywords``
    (``players=3``, ``schedule=[5]``), with the environment's own keywords (``ENV_KEYWORDS``)
    passed on. A rule option the game does not have, or a value it does not take, raises the
    game's ``SpecError`` naming it, as ``tapete.load`` does.

    >>> make("pocha", players=3, seat=2).game.spec
    'pocha(players=3)'
    """
    from tapete.rl.single import SingleAgentEnv

    options = {k: v for k, v in keywords.items() if k in ENV_KEYWORDS}
    rules = {k: v for k, v in keywords.items() if k not in ENV_KEYWORDS}
    return SingleAgentEnv(load(game, **rules), **options)


def register() -> None:
    """Register every game's id with Gymnasium (``import tapete.rl`` does, once)."""
    for game in game_names():
        gymnasium.register(
            env_id(game), entry_point="tapete.rl.registry:make", kwargs={"game": game}
        )
