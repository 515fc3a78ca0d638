"""Who plays a seat in ``tapete play --seats`` and ``tapete arena --bots``: a bot level, or a
kind of player that lives outside the core.

``load(name)`` gives the bot a seat name stands for: a level of ``tapete.bots`` (``medium``,
``hard(ms=100, iterations=9)``), or an outer kind from ``OUTER``: ``exec(cmd="./mybot")``, a
program in any language speaking the protocol of docs/bot-protocol.md, or
``policy(path="model.zip")``, a policy trained with ``tapete.rl`` (the rl extra and sb3-contrib,
docs/rl.md). ``tapete.bots.load``
knows the levels only, and the web app asks it alone: a visitor never names a program for the
server to run. Outer seats need their game and seat before the match and an end after it;
``seated`` gives them both, on every way out of the match.

>>> split_seats('hard(ms=100, iterations=9), exec(cmd="./bot a,b"),random')
['hard(ms=100, iterations=9)', 'exec(cmd="./bot a,b")', 'random']
>>> load("hard(ms=100, iterations=9)").name
'hard(ms=100, iterations=9)'
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from tapete import bots
from tapete.errors import SpecError
from tapete.game import NOT_A_SPEC, Game, Outcome, ParamValue, parse_spec
from tapete.match import Agent

__all__ = ["OUTER", "check_ends", "is_outer", "kind_of", "load", "seated", "split_seats"]

Loader = Callable[[str, Mapping[str, ParamValue]], Any]


def _exec(name: str, options: Mapping[str, ParamValue]) -> Any:
    from tapete import outside

    return outside.from_spec(name, options)


def _policy(name: str, options: Mapping[str, ParamValue]) -> Any:
    rest = dict(options)
    path, algo = rest.pop("path", None), rest.pop("algo", "maskable_ppo")
    if not isinstance(path, str):
        raise SpecError('policy: give the model file, policy(path="FILE")')
    if rest:
        raise SpecError("policy takes path and algo, not {given}", given=", ".join(rest))
    try:
        from tapete.rl.policy import PolicyBot
    except ImportError as exc:
        raise SpecError(
            "policy seats need the rl extra and sb3-contrib ({missing} is missing)",
            missing=str(exc.name),
        ) from None
    return PolicyBot(path, str(algo))


OUTER: dict[str, Loader] = {"exec": _exec, "policy": _policy}
"""The seat kinds beyond the bot levels, by name: each loader takes the seat's text and its
options and returns an agent (raising SpecError for bad options). Imported lazily, so a kind's
packages are needed only where it is used."""
# How each outer kind is written, for a seat that does not name its options.
OUTER_EXAMPLES = {"exec": 'exec(cmd="./mybot", ms=500)', "policy": 'policy(path="model.zip")'}


def stand_in_note(failure: Exception) -> str | None:
    """What to add when a seat's ``failure`` had a random legal move played for it, or None when
    nothing is new to tell: a bot that stopped playing fails every decision after, and its first
    failure said so once.

    >>> stand_in_note(ValueError("chose 'x', which is not a legal action"))
    'a random legal move was played for it'
    """
    if getattr(failure, "repeated", False):
        return None
    if getattr(failure, "final", False):
        return "random legal moves are played for it from now on"
    return "a random legal move was played for it"


def kind_of(name: str) -> str:
    """The kind a seat name starts with, in lower case: ``hard(ms=5)`` is ``hard``.

    >>> kind_of(' Exec(cmd="./Bot")')
    'exec'
    """
    return name.split("(", 1)[0].strip().lower()


def is_outer(name: str) -> bool:
    """Whether ``name`` is an outer kind (a program or a file on this machine), not a level."""
    return kind_of(name) in OUTER


def load(name: str) -> Any:
    """The agent a seat name stands for; SpecError says what is wrong with it.

    >>> load("genius")
    Traceback (most recent call last):
    ...
    tapete.errors.SpecError: no bot level 'genius'; the levels are random, easy, medium, hard, \
expert, or exec(cmd="PROGRAM") for a program that speaks the tapete-bot protocol, or \
policy(path="FILE") for a trained policy
    >>> load("policy")
    Traceback (most recent call last):
    ...
    tapete.errors.SpecError: policy: give the model file, policy(path="FILE")
    """
    if not isinstance(name, str):  # not a letter of it read, as kind_of would
        raise TypeError(
            f"a seat is a bot level's name, such as 'random' or 'hard(ms=300)', not {name!r}"
        )
    kind = kind_of(name)
    if kind in OUTER:
        try:
            _, options = parse_spec(name)
        except SpecError as exc:
            if exc.phrase.text != NOT_A_SPEC:
                raise  # an option's value amiss, said of that option
            # Not "a game spec": a seat, whose options are written by name.
            raise SpecError(
                "{seat} is not a seat: name its options, as in {example}",
                seat=repr(name.strip()),
                example=OUTER_EXAMPLES[kind],
            ) from None
        return OUTER[kind](name.strip(), options)
    try:
        return bots.load(name)
    except SpecError as exc:
        if kind not in bots.LEVELS:
            raise SpecError(
                '{why}, or exec(cmd="PROGRAM") for a program that speaks the tapete-bot protocol,'
                ' or policy(path="FILE") for a trained policy',
                why=exc.phrase,
            ) from None
        raise


def check_game(agent: Any, game: Game[Any, Any]) -> None:
    """Let a bot that can tell it cannot play ``game`` (a policy trained on another spec) say
    so, a SpecError, before the match: once there, a random move would stand in for its every
    decision. Bots with no ``check_game`` play every game."""
    check = getattr(agent, "check_game", None)
    if callable(check):
        check(game)


def check_ends(game: Game[Any, Any], kinds: Sequence[str]) -> None:
    """SpecError when a match of ``game`` between the bots ``kinds`` (no ``human`` among them)
    may never end: Poch with no round cap, where the bank adds chips every round and careful
    players may never go broke. A person at the table ends it by leaving; bots alone never do.
    """
    from tapete.games import poch  # only this game has such an option

    if "human" in kinds or not isinstance(game.params, poch.Params):
        return
    if poch.round_limit(game.params) == 0:
        raise SpecError(
            "max_rounds: a match between bots alone must end, so give it a number of rounds,"
            " not none (without a round cap the chips grow every round and it may go on for"
            " ever)",
            param="max_rounds",
        )


def split_seats(text: str) -> list[str]:
    """Split a comma-separated list of seats at its top-level commas only: commas inside
    parentheses or quotes belong to a seat's options. Empty entries are kept (the caller says
    which seat is empty); SpecError for unbalanced parentheses or quotes.

    >>> split_seats("random,,easy")
    ['random', '', 'easy']
    >>> split_seats("hard(ms=1")
    Traceback (most recent call last):
    ...
    tapete.errors.SpecError: 'hard(ms=1' has a parenthesis or quote left open

    A backslash in quotes escapes the next character, as in the spec's string literals:

    >>> split_seats(r'exec(cmd="echo \\"ready :)"),random')
    ['exec(cmd="echo \\\\"ready :)")', 'random']
    """
    seats, depth, quote, start, escaped = [], 0, "", 0, False
    for i, char in enumerate(text):
        if escaped:
            escaped = False
        elif quote:
            escaped = char == "\\"
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "()":
            depth += 1 if char == "(" else -1
            if depth < 0:
                break
        elif char == "," and depth == 0:
            seats.append(text[start:i].strip())
            start = i + 1
    if depth or quote:
        raise SpecError("{seats} has a parenthesis or quote left open", seats=repr(text))
    return [*seats, text[start:].strip()]


@contextmanager
def seated(
    game: Game[Any, Any], agents: Sequence[Agent], *, command: str = "tapete", match: str = ""
) -> Iterator[Callable[[Any], None]]:
    """Seat ``agents`` at ``game`` for one match: outer ones are started (``sit``) and are
    ended on the way out however the match ends — an error, ^C, an abandoned match. Yields
    ``finish(final_state)``, which tells them the result first when the match ended.
    ``command`` is the running command (``tapete``, ``tapete arena``): an outer agent that
    writes to stderr itself (an ``exec`` bot's stray lines) starts its messages with it, as
    the command's own messages start, and names ``match`` in them when the command plays
    many (``tapete arena``: ``the match --seed N --seats A,B,C``).

    >>> import tapete
    >>> from tapete.match import play
    >>> game = tapete.load("pocha(players=3, schedule=1)")
    >>> agents = [load("random") for _ in range(3)]
    >>> with seated(game, agents) as finish:
    ...     final, _ = play(game, agents, seed=1)
    ...     finish(final)
    """
    started: list[Any] = []

    def finish(final: Any) -> None:
        outcome: Outcome | None = game.outcome(final)
        _close_all(started, outcome)

    try:
        for seat, agent in enumerate(agents):
            if hasattr(agent, "sit"):
                if hasattr(agent, "command"):
                    agent.command = command
                if hasattr(agent, "match"):
                    agent.match = match
                agent.sit(game, seat)
                started.append(agent)
        yield finish
    finally:
        _close_all(started, None)


def _close_all(agents: Sequence[Any], outcome: Outcome | None) -> None:
    """Close every started agent at once: each is given its seconds to exit (an outside bot a
    second after ``quit``, then a second after SIGTERM), and one after another those seconds
    would add up, seat by seat, at the end of every match."""
    if len(agents) <= 1:
        for agent in agents:
            agent.close(outcome)
        return
    failures: list[BaseException] = []

    def close(agent: Any) -> None:
        try:
            agent.close(outcome)
        except BaseException as failure:  # raised here, as one after another would have
            failures.append(failure)

    # Daemons: ^C while they wait leaves the ending of the bots to the exit handler.
    closing = [threading.Thread(target=close, args=(agent,), daemon=True) for agent in agents]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join()
    if failures:
        raise failures[0]
