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
from tapete.errors import IllegalActionError, RecordError
from tapete.game import Action, Game, Seat
from tapete.record import (
    Record,
    Recorder,
    SeatInfo,
    check_record,
    recorded_game,
    replay,
    stand_in_marks,
    steps,
)

__all__ = ["AbandonedError", "Agent", "choose_or_stand_in", "play", "resume", "seat_rng"]


class AbandonedError(Exception):
    """Raised by an agent whose person leaves the match; ``play`` and ``resume`` pass it on with
    ``record`` set to the match so far, an unfinished record."""

    record: Record | None = None


class Agent(Protocol):
    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class Listener(Protocol):
    def __call__(self, seat: Seat, action: Action, before: Any, after: Any) -> None: ...


def seat_rng(seed: int, seat: Seat) -> random.Random:
    """The RNG a seat's agent uses in the match with ``seed``."""
    return random.Random(f"tapete/{seed}/seat-{seat}")


def choose_or_stand_in(
    agent: Agent, view: Any, legal: Sequence[Action], rng: random.Random
) -> tuple[Action, Exception | None]:
    """``agent``'s choice, or, when it raises or proposes an action that is not legal, a legal
    one at random with what went wrong: a bot's bug must not stop a match.

    >>> class Broken:
    ...     def choose(self, view, legal, rng):
    ...         raise AssertionError("no hand")
    >>> action, failure = choose_or_stand_in(Broken(), None, [3, 5], random.Random(1))
    >>> action in (3, 5), repr(failure)
    (True, "AssertionError('no hand')")
    """
    try:
        action = agent.choose(view, legal, rng)
    except Exception as exc:  # any bug in any bot
        failure: Exception = exc
    else:
        if action in legal:
            return action, None
        failure = ValueError(f"chose {action!r}, which is not a legal action")
    return legal[rng.randrange(len(legal))], failure


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
    on_failure: Callable[[Seat, Exception], None] | None = None,
    keep: Callable[[Record], object] | None = None,
) -> tuple[Any, Record]:
    """Play ``game`` to the end with one agent (or bot level name) per seat.

    ``names``, one text a seat, names the seats in the record. An agent's action may be an int
    or its text, as ``apply`` takes it; the record writes its text.

    An agent that proposes an illegal action is told why through ``on_illegal`` and asked again
    (a person mistyping); without ``on_illegal`` the error is raised (a bot's bug). With
    ``on_failure``, a bot that raises or proposes an illegal action has a legal move played for
    it at random instead (``choose_or_stand_in``), and ``on_failure`` is told what went wrong.
    ``keep`` is given the match so far, an unfinished record, each time a seat that is no bot
    (a person) has moved and each time one is about to be asked for a move: to keep it where
    a crash cannot take it.
    """
    if not isinstance(game, Game):  # a spec's text, say: it has no seats to count
        kind = type(game).__name__
        raise TypeError(f"play takes a Game, such as tapete.load('pocha'), not a {kind}")
    agents, infos = _agents(game, seats, names)
    state = game.new_state(seed, decks=decks, dealer=dealer)
    seed = int(seed)  # NumPy's integers too, which new_state takes but JSON would not write
    recorder = Recorder(game, state, seed, infos)
    return _run(game, agents, seed, state, recorder, on_step, on_illegal, on_failure, keep)


def resume(
    record: Record,
    seats: Sequence[Agent | str],
    *,
    names: Sequence[str] | None = None,
    on_step: Listener | None = None,
    on_illegal: Callable[[Seat, IllegalActionError], None] | None = None,
    on_failure: Callable[[Seat, Exception], None] | None = None,
    keep: Callable[[Record], object] | None = None,
) -> tuple[Any, Record]:
    """Play an unfinished ``record`` to the end: checked first, then on from its last move
    (``keep`` and the rest as in ``play``).

    Later deals come from the record's seed, as they would have without the pause; the bots
    start their RNGs afresh. The record returned holds the whole match, from its first deal.

    >>> import tapete
    >>> from tapete.record import cut
    >>> game = tapete.load("pocha(players=3, schedule=[1, 2])")
    >>> _, whole = play(game, ["random"] * 3, seed=4)
    >>> final, again = resume(cut(whole, 7), ["random"] * 3)
    >>> again.deals[0] == whole.deals[0], len(again.deals), again.result is not None
    (True, 2, True)
    """
    check_record(record, "resumed")
    if record.seed is None:
        raise RecordError("the record has no seed: its next deals cannot be known")
    checked = list(steps(record))
    game = recorded_game(record)  # the rules it was played under, should a default have changed
    agents, infos = _agents(game, seats, names)
    start = checked[0][1] if checked else replay(record)
    recorder = Recorder(game, start, record.seed, infos)
    for (_, _, seat, action, after), stand_in in zip(checked, stand_in_marks(record), strict=True):
        recorder.step(seat, action, after, stand_in)
    state = checked[-1][-1] if checked else start
    if game.outcome(state) is not None:
        raise RecordError("the match in this record is over: there is nothing to resume")
    return _run(game, agents, record.seed, state, recorder, on_step, on_illegal, on_failure, keep)


def _agents(
    game: Game[Any, Any], seats: Sequence[Agent | str], names: Sequence[str] | None
) -> tuple[list[Agent], list[SeatInfo]]:
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        # "random" alone was counted as six seats, one a letter
        n = game.players
        raise TypeError(
            f"seats is a list, one bot level or agent a seat, such as {['random'] * n!r},"
            f" not {seats!r}"
        )
    if len(seats) != game.players:
        raise ValueError(f"{game.spec} needs {game.players} seats, not {len(seats)}")
    if names is not None and (
        isinstance(names, str)
        or not isinstance(names, Sequence)
        or len(names) != game.players
        or not all(isinstance(n, str) for n in names)
    ):
        # Too few failed mid-way with an IndexError; a number made a record that no reader
        # takes back ("'name' must be a string").
        raise ValueError(
            f"names is a list of {game.players} texts, one a seat, such as"
            f" {[f'seat {i}' for i in range(game.players)]!r}, not {names!r}"
        )
    for seat, given in enumerate(seats):
        if not isinstance(given, str) and not callable(getattr(given, "choose", None)):
            raise TypeError(
                f"seat {seat}: a seat is a bot level such as 'random', or an agent with"
                f" choose(view, legal_actions, rng), not {given!r}"
            )
    agents = [bots.load(s) if isinstance(s, str) else s for s in seats]
    infos = [_seat_info(s, a, i, names) for i, (s, a) in enumerate(zip(seats, agents, strict=True))]
    return agents, infos


def _run(
    game: Game[Any, Any],
    agents: Sequence[Agent],
    seed: int,
    state: Any,
    recorder: Recorder,
    on_step: Listener | None,
    on_illegal: Callable[[Seat, IllegalActionError], None] | None,
    on_failure: Callable[[Seat, Exception], None] | None,
    keep: Callable[[Record], object] | None = None,
) -> tuple[Any, Record]:
    rngs = [seat_rng(seed, i) for i in range(game.players)]
    moves, told = 0, -1  # moves played here; the number of them keep was last given
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        agent, view = agents[seat], game.observe(state, seat)
        bot = getattr(agent, "kind", "bot") == "bot"
        if keep is not None and not bot and told != moves:
            keep(recorder.record())  # not again after a refused move
            told = moves
        failure: Exception | None = None
        try:
            if on_failure is not None and bot:
                action, failure = choose_or_stand_in(agent, view, legal, rngs[seat])
                if failure is not None:
                    on_failure(seat, failure)
            else:
                action = agent.choose(view, legal, rngs[seat])
        except AbandonedError as left:
            left.record = recorder.record()
            raise
        # As apply takes it: text parsed, NumPy's ints made ints (the record writes ints), and
        # anything else refused with InvalidActionError.
        action = game.action(action)
        error = game.why_illegal(state, action)
        if error is not None:
            if on_illegal is None:
                raise error
            on_illegal(seat, error)
            continue
        after = game.apply(state, action)
        recorder.step(seat, action, after, stand_in=failure is not None)
        moves += 1
        if keep is not None and not bot and game.outcome(after) is None:
            keep(recorder.record())  # before the bots go on: they may take a while
            told = moves
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
