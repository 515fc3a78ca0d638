"""Bots: players that see only their view (docs/bots.md).

A bot has one method, ``choose(view, legal_actions, rng) -> action``. ``load(name)`` gives a bot
by its level, as written in ``--seats`` and in records: ``random``, ``easy``, ``medium``, ``hard``,
``expert``, with options for the search levels: ``hard(ms=300)`` (a time budget per decision) or
``hard(iterations=40)`` (a fixed number of simulated deals: no clock, so the same view and RNG
always give the same decision). ``expert`` is the same search as ``hard`` with 3 s a decision
instead of 0.5 s.

Each game's strategies live in ``tapete.bots.<game module>``, listed in ``STRATEGIES`` by the
game's name: easy plays simple human-like rules, medium adds card counting, hard and expert run
the information-set search of ``tapete.bots.search`` over deals drawn from the view with
``sample_state`` — so every level is fair by construction.

>>> import random, tapete
>>> game = tapete.load("pocha(players=3, schedule=1)")
>>> state = game.new_state(seed=2)
>>> seat = game.current_player(state)
>>> bot = load("easy")
>>> bot.choose(game.observe(state, seat), game.legal_actions(state), random.Random(0)) in (128, 129)
True
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import Any, Protocol

from tapete.errors import SpecError
from tapete.game import NOT_A_SPEC, Action, GameState, parse_spec
from tapete.games import rules_of

__all__ = [
    "LEVELS",
    "STRATEGIES",
    "Bot",
    "Budget",
    "Decision",
    "LevelBot",
    "Move",
    "RandomBot",
    "Reason",
    "hint",
    "knowledge",
    "load",
    "said_after",
    "searched",
]

LEVELS = ("random", "easy", "medium", "hard", "expert")
SEARCH_MS = {"hard": 500, "expert": 3000}  # the search levels' default budgets a decision


class Bot(Protocol):
    """A player that decides from its view alone: ``choose`` returns one of ``legal_actions``
    (the bots of ``load`` raise ValueError when there is none)."""

    name: str

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class Move(str):
    """An action in the game's notation inside a reason (``play Kd``, ``bid 2``): the narrator
    words it as the button that plays it."""

    __slots__ = ()


class Reason:
    """Why a bot chose its move, for people: an English message and its arguments.

    The message is the key of its translations (``tapete.i18n``), so the narrator words a
    reason in every language (``tapete.narrate.reason_words``); ``str()`` gives the English.
    An argument is a number (formatted by the message: ``{n:.1f}``), a word, a ``Move`` or
    another reason.

    >>> str(Reason("expects about {n:.1f} tricks", n=2.25))
    'expects about 2.2 tricks'
    >>> str(Reason("{plan}: {mean:+.1f} points", plan=Move("bid 2"), mean=0.75))
    'bid 2: +0.8 points'
    """

    __slots__ = ("args", "text")

    def __init__(self, text: str = "", **args: Any) -> None:
        self.text = text
        self.args: Mapping[str, Any] = MappingProxyType(dict(args))

    def __str__(self) -> str:
        if not self.args:
            return self.text
        return self.text.format(
            **{k: str(v) if isinstance(v, Reason) else v for k, v in self.args.items()}
        )

    def __bool__(self) -> bool:
        return bool(self.text)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Reason)
            and self.text == other.text
            and dict(self.args) == dict(other.args)
        )

    def __hash__(self) -> int:
        return hash((self.text, tuple(sorted(self.args.items()))))

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.args.items())
        return f"Reason({self.text!r}{args})"


NO_REASON = Reason()


def searched(plan: Sequence[str], mean: float, unit: str, deals: int) -> Reason:
    """The search's reason: its plan (actions in the game's notation), the mean result of the
    first over the sampled deals, in ``unit`` (points or chips).

    >>> str(searched(["sing oros", "play 1o"], 12.25, "points", 40))
    'sing oros then play 1o: worth +12.2 points on average in 40 possible deals of the hidden cards'
    """
    what: Reason | Move = Reason()
    for move in reversed(plan):
        what = Reason("{move} then {plan}", move=Move(move), plan=what) if what else Move(move)
    # Said for a beginner: what the move is worth on average, and in how many guesses at the
    # cards nobody sees it was tried ("sampled deals" is the search's word, not theirs).
    if deals == 1:
        text = (
            "worth {mean:+.1f} chips in 1 possible deal of the hidden cards"
            if unit == "chips"
            else "worth {mean:+.1f} points in 1 possible deal of the hidden cards"
        )
    else:
        text = (
            "worth {mean:+.1f} chips on average in {k} possible deals of the hidden cards"
            if unit == "chips"
            else "worth {mean:+.1f} points on average in {k} possible deals of the hidden cards"
        )
    value = Reason(text, mean=mean, k=deals)
    return Reason("{plan}: {value}", plan=what, value=value)


def said_after(reason: Reason, move: str) -> Reason:
    """``reason`` as said right after its ``move`` is named, as a hint does: a search's plan is
    not named again from that move.

    >>> str(said_after(searched(["bid 2"], 3.0, "points", 40), "bid 2"))
    'worth +3.0 points on average in 40 possible deals of the hidden cards'
    >>> str(said_after(searched(["sing oros", "play 1o"], 12.25, "points", 40), "sing oros"))
    'then play 1o: worth +12.2 points on average in 40 possible deals of the hidden cards'

    A reason around the search's (Poch's bluff) is said after the move as well:

    >>> bluff = Reason("{why} (a bluff)", why=searched(["bet 1"], 0.5, "chips", 30))
    >>> str(said_after(bluff, "bet 1"))
    'worth +0.5 chips on average in 30 possible deals of the hidden cards (a bluff)'
    """
    plan = reason.args.get("plan")
    if reason.text != "{plan}: {value}":
        told = {k: said_after(v, move) for k, v in reason.args.items() if isinstance(v, Reason)}
        if all(v == reason.args[k] for k, v in told.items()):
            return reason
        return Reason(reason.text, **{**reason.args, **told})
    if plan == Move(move):
        return reason.args["value"]  # type: ignore[no-any-return]
    if isinstance(plan, Reason) and plan.args.get("move") == Move(move):
        return Reason("then {plan}: {value}", plan=plan.args["plan"], value=reason.args["value"])
    return reason


@dataclass(frozen=True)
class Decision:
    """A choice and, for people asking for a hint, why (``str(reason)`` in English)."""

    action: Action
    reason: Reason = NO_REASON


@dataclass(frozen=True)
class Budget:
    """How long a search may think: ``iterations`` simulated deals (deterministic) or ``ms``.

    ``rollout`` and ``prior`` switch the game's knowledge off for the ablation: ``random``
    rollouts (no exact endgames either), ``none`` for no prior; ``tree="none"`` searches flat,
    every option played out from the root with no tree below it (see ``tapete.bots.search``).
    """

    ms: int = 500
    iterations: int | None = None
    rollout: str = "informed"
    prior: str = "informed"
    tree: str = "full"

    def clock(self) -> Clock:
        return Clock(self)


class Clock:
    """Counts a search's iterations against its budget (the only clock use in the bots).

    ``ms`` is CPU time of the deciding thread (``time.thread_time``), so a busy machine or a
    crowded server does not make a bot weaker: it thinks as much, only later. So that a bot that
    is starved of CPU still answers, the wall clock stops it at ``WALL_CAP`` times its budget.
    """

    WALL_CAP = 4

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.done = 0
        now = time.perf_counter()
        self.cpu_deadline = time.thread_time() + budget.ms / 1000
        self.check = now + budget.ms / 1000  # no sooner can the thread have spent its budget
        self.wall_deadline = now + self.WALL_CAP * budget.ms / 1000

    def more(self, minimum: int = 4) -> bool:
        """Whether to run another iteration; always at least ``minimum``."""
        if self.budget.iterations is not None:
            return self.done < self.budget.iterations
        if self.done < minimum:
            return True
        now = time.perf_counter()
        if now < self.check:
            return True
        # Reading the thread's CPU clock is a system call: read it only when the wall clock says
        # the budget may be spent, and next when the CPU still left could be.
        left = self.cpu_deadline - time.thread_time()
        self.check = now + left
        return left > 0 and now < self.wall_deadline

    def tick(self) -> None:
        self.done += 1


class RandomBot:
    """Plays a legal action uniformly at random: the baseline every other level must beat."""

    name = "random"

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        _choosable(legal_actions)
        _seated(view, rng)
        return legal_actions[rng.randrange(len(legal_actions))]


def _choosable(legal_actions: Sequence[Action]) -> None:
    """Raise ValueError unless there is a legal action to choose from: every level's ``choose``
    checks this first, so no strategy meets an empty list (it would fail in a ``min``).

    >>> _choosable([])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: no legal action to choose from: legal_actions is empty ...
    """
    if len(legal_actions) == 0:
        raise ValueError(
            "no legal action to choose from: legal_actions is empty (the match is over:"
            " nobody is to act)"
        )


def _seated(view: Any, rng: Any) -> None:
    """Raise ValueError for a spectator's view (``observe(state, None)``): a bot decides for a
    seat, from what that seat knows. The strategies failed on it with a bare AssertionError, or
    searched deals in which the seat to act held cards it does not hold. A state is refused
    (TypeError): it holds every hidden card, and a bot given one would play on what its seat
    cannot know; so are dice that are no ``random.Random``.

    >>> from types import SimpleNamespace
    >>> _seated(SimpleNamespace(seat=None), random.Random(0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: a bot decides for a seat: give it the view of the seat to act, ... (seat None)
    >>> import tapete
    >>> game = tapete.load("pocha")
    >>> _seated(game.new_state(seed=1), random.Random(0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    TypeError: a bot is given its seat's view, game.observe(state, seat), not the state: ...
    """
    if isinstance(view, GameState):
        raise TypeError(
            "a bot is given its seat's view, game.observe(state, seat), not the state: the"
            " state holds every hidden card"
        )
    if not isinstance(rng, random.Random):
        kind = type(rng).__name__
        raise TypeError(f"a bot's dice are a random.Random, such as random.Random(7), not {kind}")
    if getattr(view, "seat", 0) is None:
        raise ValueError(
            "a bot decides for a seat: give it the view of the seat to act,"
            " game.observe(state, seat), not a spectator's (seat None)"
        )


STRATEGIES: Mapping[str, str] = MappingProxyType(
    {
        "poch": "tapete.bots.poch",
        "pocha": "tapete.bots.pocha",
        "pottle": "tapete.bots.pottle",
        "truco": "tapete.bots.truco",
        "tute": "tapete.bots.tute",
    }
)
"""Each game's strategies module (its ``decide``) by the game's ``NAME``; a test checks that every
registered game has one."""


def strategies(view: Any) -> ModuleType:
    """The strategy module for the game a view belongs to."""
    name = rules_of(view).NAME
    if name not in STRATEGIES:
        raise SpecError("no bots beyond random for {name} yet", name=name)
    return importlib.import_module(STRATEGIES[name])


class LevelBot:
    """The easy, medium or hard bot of whatever game its view comes from."""

    kind = "bot"

    def __init__(self, level: str, budget: Budget | None = None, name: str | None = None) -> None:
        self.level = level
        self.budget = budget or Budget()
        self.name = name or level

    def decide(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Decision:
        _choosable(legal_actions)
        _seated(view, rng)
        if len(legal_actions) == 1:
            return Decision(legal_actions[0], Reason("the only legal move"))
        decision: Decision = strategies(view).decide(
            self.level, view, list(legal_actions), rng, self.budget
        )
        return decision

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.decide(view, legal_actions, rng).action


NO_LEVEL = "no bot level {level}; the levels are {levels}"
MOST_MS = 3_600_000  # an hour: a longer budget is a typo, and a match that never goes on
MOST_ITERATIONS = 1_000_000  # sampled deals: far past any budget's, and minutes a decision
_LEVELS = ", ".join(LEVELS)


def load(name: str) -> Bot:
    """The bot of a level name, in any case (``hard(ms=300)`` sets options); raises SpecError
    listing them, and TypeError for anything but text.

    >>> load("Hard(ms=300)").budget.ms
    300
    """
    if not isinstance(name, str):  # the spec reader would speak of a game's spec
        raise TypeError(
            f"a bot is a level's name, such as 'random' or 'hard(ms=300)', not {name!r}"
        )
    try:
        level, options = parse_spec(name)
    except SpecError as exc:
        if exc.phrase.text != NOT_A_SPEC:  # written as a spec, with an option's value amiss
            raise SpecError("{name}: {why}", name=name, why=exc.phrase) from None
        raise SpecError(
            "{name} is not a bot: the levels are {levels}", name=repr(name), levels=_LEVELS
        ) from None
    if level.lower() not in LEVELS:
        raise SpecError(NO_LEVEL, level=repr(level), levels=_LEVELS)
    level = level.lower()  # "Hard" at a prompt or in a script is the level hard
    if level == "random":
        if options:
            raise SpecError("the random bot takes no options")
        return RandomBot()
    unknown = sorted(set(options) - {"ms", "iterations", "rollout", "prior", "tree"})
    if unknown or (options and level not in SEARCH_MS):
        offered = "ms=N, iterations=N, rollout=informed|random, prior=informed|none, tree=full|none"
        if level not in SEARCH_MS:
            raise SpecError(
                "{name}: only hard and expert take options: {offered}", name=name, offered=offered
            )
        raise SpecError(
            "{name}: {level} has no option {unknown}; its options: {offered}",
            name=name,
            level=level,
            unknown=", ".join(unknown),
            offered=offered,
        )
    ms, iterations = options.get("ms", SEARCH_MS.get(level, 500)), options.get("iterations")
    if not isinstance(ms, int) or isinstance(ms, bool) or ms <= 0:
        raise SpecError("{name}: ms is a positive number of milliseconds", name=name)
    if ms > MOST_MS:
        raise SpecError(
            "{name}: ms is at most {most} (an hour a decision)", name=name, most=MOST_MS
        )
    if iterations is not None and (
        not isinstance(iterations, int) or isinstance(iterations, bool) or iterations <= 0
    ):
        raise SpecError("{name}: iterations is a positive number", name=name)
    if iterations is not None and iterations > MOST_ITERATIONS:
        # No clock stops a fixed number of deals: past this, a decision would take hours.
        raise SpecError("{name}: iterations is at most {most}", name=name, most=MOST_ITERATIONS)
    rollout, prior = options.get("rollout", "informed"), options.get("prior", "informed")
    prior = "none" if prior is None else prior  # the spec parser reads none as None
    tree = options.get("tree", "full")
    tree = "none" if tree is None else tree
    if rollout not in ("informed", "random"):
        raise SpecError("{name}: rollout is informed (the game's policy) or random", name=name)
    if prior not in ("informed", "none"):
        raise SpecError("{name}: prior is informed (the game's policy) or none", name=name)
    if tree not in ("full", "none"):
        raise SpecError(
            "{name}: tree is full (the search's tree) or none (a flat search)", name=name
        )
    budget = Budget(ms, iterations, str(rollout), str(prior), str(tree))
    # expert is hard with a longer budget: the game modules know one search level.
    return LevelBot("hard" if level == "expert" else level, budget, name)


def hint(view: Any, budget: Budget | None = None, rng: random.Random | None = None) -> Decision:
    """The hard bot's choice for the seat of ``view``, with a short reason (for people).

    The legal actions come from a state sampled from the view: they depend on the view alone,
    so the state is drawn with an RNG of its own, and ``rng`` is left whole for the search: the
    hint is what ``hard`` with the same budget plays from this view with the same ``rng``.
    """
    rng = rng or random.Random(0)
    _seated(view, rng)
    rules = rules_of(view)
    legal = rules.legal_actions(rules.sample_state(view, random.Random(0)))
    return LevelBot("hard", budget).decide(view, legal, rng)


def knowledge(view: Any) -> Any:
    """What the search (``tapete.bots.search``) knows of the game of ``view``, for its seat: the
    ``Knowledge`` that ``hard`` decides with, for tools that run the search themselves."""
    return strategies(view).knowledge(view)
