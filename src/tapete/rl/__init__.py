"""The research API: every tapete game as a PettingZoo, Gymnasium or OpenSpiel game (docs/rl.md).

Install with ``pip install 'tapete[rl]'`` (``'tapete[openspiel]'`` for ``tapete.rl.openspiel``).

* ``env(spec, reward="deal", record=None, render_mode=None)`` — a PettingZoo ``AECEnv``, one
  agent per seat;
* ``single_agent(spec, seat=0, opponents="medium")`` — a Gymnasium ``Env`` for one seat, the
  others played by tapete bots, with ``action_masks()``;
* ``encoding(game)`` — the fixed-size observation vector and action space of a spec;
* the Gymnasium ids ``tapete/Pocha-v0``, ``tapete/Truco-v0``, … (``tapete.rl.registry``),
  registered by importing this package, for ``gymnasium.make``.

>>> import tapete.rl
>>> env = tapete.rl.env("truco(players=4)")
>>> env.possible_agents
['seat_0', 'seat_1', 'seat_2', 'seat_3']
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tapete.game import Game, Seat, integer

if TYPE_CHECKING:
    from tapete.bots import Bot
    from tapete.rl.aec import TapeteEnv
    from tapete.rl.encodings import Encoding
    from tapete.rl.single import SingleAgentEnv

__all__ = ["encoding", "env", "single_agent"]


def env(
    spec: str | Game[Any, Any],
    *,
    reward: str = "deal",
    record: str | Path | None = None,
    render_mode: str | None = None,
) -> TapeteEnv:
    """The PettingZoo AEC environment of a spec (``reward="deal"`` or ``"match"``;
    ``record=DIR`` writes each episode's record there)."""
    from tapete.rl.aec import TapeteEnv

    return TapeteEnv(spec, reward=reward, record=record, render_mode=render_mode)


def single_agent(
    spec: str | Game[Any, Any],
    seat: Seat = 0,
    opponents: str | Bot | list[str | Bot] = "medium",
    *,
    reward: str = "deal",
    illegal: str = "replace",
    render_mode: str | None = None,
) -> SingleAgentEnv:
    """The Gymnasium environment of one seat against tapete bots (``illegal="raise"`` to
    raise on an action the mask rules out, instead of playing the first legal one)."""
    from tapete.rl.single import SingleAgentEnv

    return SingleAgentEnv(
        spec, seat, opponents, reward=reward, illegal=illegal, render_mode=render_mode
    )


def encoding(game: str | Game[Any, Any]) -> Encoding:
    """The observation encoding and action space of a spec."""
    from tapete.rl.encodings import encoding as of

    return of(game_of(game))


def game_of(spec: str | Game[Any, Any]) -> Game[Any, Any]:
    """The game a spec names, or the ``Game`` given; TypeError for anything else."""
    from tapete.games import load

    if isinstance(spec, Game):
        return spec
    if isinstance(spec, str):
        return load(spec)
    raise TypeError(f"a game is a spec such as 'pocha(players=3)' or a tapete Game, not {spec!r}")


def episode_seed(
    seed: object,
    wrong_type: type[TypeError] = TypeError,
    negative: type[ValueError] = ValueError,
) -> int | None:
    """``seed`` as the environments' ``reset`` takes it: None (go on from the generator) or a
    whole number from 0, as an int (NumPy's integers too). Raises ``wrong_type`` for anything
    else (text, a float, a bool) and ``negative`` for a number below 0, both naming the seed and
    what is accepted, before the environment changes.

    >>> episode_seed(7), episode_seed(None)
    (7, None)
    >>> episode_seed("a")
    Traceback (most recent call last):
    TypeError: seed='a' is not accepted: a whole number from 0, or None
    """
    if seed is None:
        return None
    number = integer(seed)
    if number is None:
        raise wrong_type(f"seed={seed!r} is not accepted: a whole number from 0, or None")
    if number < 0:
        raise negative(f"seed={seed!r} is not accepted: a whole number from 0, or None")
    return number


if importlib.util.find_spec("gymnasium") is not None:  # the rl extra: ids for gymnasium.make
    from tapete.rl.registry import register

    register()
