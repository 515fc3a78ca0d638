"""Playing a match: seats to agents, seeded, recorded.

An agent is anything with ``choose(view, legal_actions, rng)``: a bot, or a person behind a
prompt. Each seat gets its own RNG derived from the match seed, so a match between bots is
reproducible from its seed alone.

>>> import tapete
>>> final, record = play(tapete.load("pocha(players=3, schedule=[1, 2])"), ["random"] * 3, seed=7)
>>> len(record.deals), record.result is not None
(2, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tapete import bots
from tapete.errors import IllegalActionError
from tapete.game import Action, Game, Seat
from tapete.record import Record, Recorder, SeatInfo

__all__ = ["Agent", "play", "seat_rng"]


class Agent(Protocol):
    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class Listener(Protocol):
    def __call__(self, seat: Seat, action: Action, before: Any, after: Any) -> None: ...


def seat_rng(seed: int, seat: Seat) -> random.Random:
    """The RNG a seat's agent uses in the match with ``seed``."""
    return random.Random(f"tapete/{seed}/seat-{seat}")


def play(
    game: Game[Any, Any],
    seats: Sequence[Agent | str],
    *,
    seed: int = 0,
    names: Sequence[str] | None = None,
    decks: Sequence[Sequence[int]] = (),
    dealer: int | None = None,
    on_step: Listener | None = None,
    on_illegal: Callable[[Seat, IllegalActionError], None] | None = None,
) -> tuple[Any, Record]:
    """Play ``game`` to the end with one agent (or bot level name) per seat.

    An agent that proposes an illegal action is told why through ``on_illegal`` and asked again
    (a person mistyping); without ``on_illegal`` the error is raised (a bot's bug).
    """
    if len(seats) != game.players:
        raise ValueError(f"{game.spec} needs {game.players} seats, not {len(seats)}")
    agents = [bots.load(s) if isinstance(s, str) else s for s in seats]
    infos = [_seat_info(s, a, i, names) for i, (s, a) in enumerate(zip(seats, agents, strict=True))]
    rngs = [seat_rng(seed, i) for i in range(game.players)]
    state = game.new_state(seed, decks=decks, dealer=dealer)
    recorder = Recorder(game, state, seed, infos)
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        action = agents[seat].choose(game.observe(state, seat), legal, rngs[seat])
        error = game.why_illegal(state, action)
        if error is not None:
            if on_illegal is None:
                raise error
            on_illegal(seat, error)
            continue
        after = game.apply(state, action)
        recorder.step(seat, action, after)
        if on_step is not None:
            on_step(seat, action, state, after)
        state = after
    return state, recorder.record()


def _seat_info(
    given: Agent | str, agent: Agent, seat: int, names: Sequence[str] | None
) -> SeatInfo:
    level = given if isinstance(given, str) else getattr(agent, "name", None)
    kind = str(getattr(agent, "kind", "bot"))
    name = names[seat] if names is not None else f"{level or kind} {seat}"
    return SeatInfo(name, kind, level if kind == "bot" else None)
