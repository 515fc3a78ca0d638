"""Seats by name, as ``tapete play --seats`` and ``tapete arena --bots`` write them.

A bot level (``random``, ``easy``, ``medium``, ``hard(ms=300)``, ...: ``tapete.bots.load``), or
a seat of the outer layer that needs more than the standard library:
``policy(path="model.zip")``, a policy trained with ``tapete.rl`` (the rl extra and
sb3-contrib). The web app never takes these: it would run what a visitor names.

>>> load("medium").name
'medium'
>>> load("policy")
Traceback (most recent call last):
tapete.errors.SpecError: policy: give the model file, policy(path="FILE")
"""

from __future__ import annotations

from tapete import bots
from tapete.bots import Bot
from tapete.errors import SpecError
from tapete.game import parse_spec

__all__ = ["OUTER", "load"]

OUTER = ("policy",)
"""The seat names beyond the bot levels."""


def load(name: str) -> Bot:
    """The player a seat name stands for; raises SpecError naming what is wrong."""
    kind, options = parse_spec(name)
    if kind == "policy":
        path, algo = options.pop("path", None), options.pop("algo", "maskable_ppo")
        if not isinstance(path, str):
            raise SpecError('policy: give the model file, policy(path="FILE")')
        if options:
            raise SpecError(f"policy takes path and algo, not {', '.join(options)}")
        try:
            from tapete.rl.policy import PolicyBot
        except ImportError as exc:
            raise SpecError(
                f"policy seats need the rl extra and sb3-contrib ({exc.name} is missing)"
            ) from None
        return PolicyBot(path, str(algo))
    return bots.load(name)
