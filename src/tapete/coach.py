"""The coach: a review of every decision of a match, from what the player knew at the time.

For each decision of the chosen seats (those with more than one legal action), ``review`` values
every legal action with the search behind ``hard`` (``tapete.bots.search.evaluate``) **from that
seat's view at that moment**, never a hidden card, all actions on the same sampled deals, in the
game's own points of the deal (Pocha's and Oh Hell's score, Tute's points of margin, Truco's
points, Poch's and Pottle's chips).

* **Loss.** The best action's mean return minus the played action's, counted only when it is
  larger than its standard error (the spread of the two actions' paired differences over the
  sampled deals, over the square root of their number); otherwise 0. A move that ties the best
  loses nothing. Where nothing hidden matters any more and the game has an exact solver (Tute
  for two once the stock is gone), the solver's values are taken, with no error.
* **Verdicts.** A loss of at least 10%, 30% or 60% of the game's scale (the usual spread of a
  deal's returns: ``Knowledge.scale``) is an *inaccuracy*, a *mistake* or a *blunder*.
* **Accuracy.** A decision scores ``100 * max(0, 1 - loss / scale)``; a player's accuracy is the
  mean over their reviewed decisions.
* **Loss per deal.** A player's losses added up, over the deals they played.
* **Stand-ins.** A move the record marks as a stand-in's (``DealRecord.stand_ins``: a bot that
  played for a person away or out of time, or a random legal move for a bot that failed) is
  reviewed and told apart, "played by a stand-in", but it is not the seat's: it counts in
  neither its accuracy, its verdicts nor its loss per deal, and a deal it played alone is not
  one of the seat's deals.

With a fixed ``iterations`` and ``seed`` the review is a pure function of the record: each
decision's sampled deals come from its own seeded generator, so workers change nothing.

>>> import tapete
>>> from tapete.match import play
>>> _, record = play(tapete.load("pocha(players=3, schedule=[2])"), ["easy"] * 3, seed=3)
>>> result = review(record, seats=[0], iterations=30)
>>> [d.seat for d in result.decisions] == [0] * len(result.decisions)
True
>>> 0 <= result.players[0].accuracy <= 100
True
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tapete import bots
from tapete.bots import Budget, search
from tapete.game import Action, Game, Seat
from tapete.games import rules_of
from tapete.i18n import tr
from tapete.narrate import isolated, recorded_name
from tapete.present import deal_unit, notation_label
from tapete.record import Record, recorded_game, stand_in_marks, steps
from tapete.workers import deaf_to_interrupts

__all__ = [
    "DEFAULT_ITERATIONS",
    "VERDICTS",
    "Plan",
    "Player",
    "Review",
    "Reviewed",
    "Task",
    "assemble",
    "plan",
    "review",
    "review_decision",
    "review_task",
    "to_json",
    "verdict",
]

DEFAULT_ITERATIONS = 200  # sampled deals a decision, every legal action on each
VERDICTS = (("blunder", 0.6), ("mistake", 0.3), ("inaccuracy", 0.1))  # share of the scale
_PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}


@dataclass(frozen=True)
class Reviewed:
    """One decision under review: where it was, what was played, what was best, what it cost."""

    seat: Seat
    deal: int  # counted from 0
    move: int  # the decision's number in its deal, counted from 1
    played: str  # in the game's notation
    best: str
    loss: float  # expected points of the deal lost against the best, 0 within its error
    error: float  # standard error of the played move's difference from the best
    verdict: str  # "", "inaccuracy", "mistake" or "blunder"
    values: tuple[tuple[str, float], ...]  # every legal action's mean return, best first
    stand_in: bool = False  # a stand-in made it, not the seat's player: not held against them


@dataclass(frozen=True)
class Player:
    """A seat's summary: accuracy, expected points lost a deal, and its costliest decisions."""

    seat: Seat
    name: str
    decisions: int
    deals: int
    accuracy: float | None  # None: no decision of its own was reviewed
    loss_per_deal: float
    costliest: tuple[Reviewed, ...]
    level: str | None = None  # the seat's bot level in the record, if a bot
    stand_ins: int = 0  # its decisions a stand-in made, reviewed apart (not in the numbers)


@dataclass(frozen=True)
class Review:
    """A match's review: every reviewed decision in order, and a summary per reviewed seat."""

    game: str
    unit: str
    scale: float
    iterations: int
    seed: int
    decisions: tuple[Reviewed, ...]
    players: dict[Seat, Player]
    # per deal (play-off hands included), what it brought each seat, in the review's unit
    returns: tuple[tuple[float, ...], ...] = ()
    deal_unit: str = "deal"  # what the game calls a deal: hand, deal or round (``deal_unit``)


def verdict(loss: float, scale: float) -> str:
    """The class of a loss: blunder, mistake, inaccuracy, or "" for a good move.

    >>> verdict(7.0, 10.0), verdict(0.5, 10.0)
    ('blunder', '')
    """
    for name, share in VERDICTS:
        if loss >= share * scale:
            return name
    return ""


@dataclass(frozen=True)
class Task:
    """One decision to review: the seat's view and legal actions then, and what it played. It
    holds nothing the seat could not see, so it can travel to a worker process as it is."""

    index: int
    seat: Seat
    deal: int
    move: int
    view: Any
    legal: tuple[Action, ...]
    played: Action
    iterations: int
    seed: int
    stand_in: bool = False  # the record marks the move as a stand-in's


@dataclass(frozen=True)
class Plan:
    """A review to be made: its decisions (``tasks``, in match order), per seat the number of
    deals in which it decided, and per deal what it brought each seat. ``review`` runs the tasks
    itself; a server hands them to its own workers (``review_task``) and puts the answers
    together with ``assemble``."""

    game: str
    names: tuple[str, ...]
    seats: tuple[Seat, ...]
    iterations: int
    seed: int
    tasks: tuple[Task, ...]
    deals: tuple[int, ...]
    returns: tuple[tuple[float, ...], ...]
    deal_unit: str = "deal"  # what the game calls a deal: hand, deal or round (``deal_unit``)
    levels: tuple[str | None, ...] = ()  # per seat, its bot level in the record, if a bot


def review(
    record: Record,
    seats: Iterable[Seat] | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review the decisions of ``seats`` (every seat by default) in ``record`` (see the module
    doc). ``workers`` processes share the decisions; ``progress(done, total)`` is told of each."""
    planned = plan(record, seats, iterations, seed)
    done: dict[int, Reviewed] = {}
    for index, reviewed in _run(planned.tasks, workers):
        done[index] = reviewed
        if progress is not None:
            progress(len(done), len(planned.tasks))
    return assemble(planned, [done[t.index] for t in planned.tasks])


def plan(
    record: Record,
    seats: Iterable[Seat] | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> Plan:
    """The decisions of ``seats`` (every seat by default) to review in ``record``, in one pass
    over the record (which checks it: RecordError if a step is not the engine's)."""
    game = recorded_game(record)
    wanted = set(range(game.players)) if seats is None else set(seats)
    tasks, deals, returns = _tasks(game, record, wanted, iterations, seed)
    names = tuple(
        record.seats[s].name if s < len(record.seats) else f"seat {s}" for s in range(game.players)
    )
    return Plan(
        record.game,
        names,
        tuple(sorted(wanted)),
        iterations,
        seed,
        tuple(tasks),
        tuple(deals),
        tuple(returns),
        deal_unit(game),
        tuple(record.seats[s].bot if s < len(record.seats) else None for s in range(game.players)),
    )


def assemble(planned: Plan, decisions: Sequence[Reviewed]) -> Review:
    """The review from ``planned``'s decisions, each reviewed (``review_task``), in its order."""
    decisions = tuple(decisions)
    if len(decisions) != len(planned.tasks):
        raise ValueError(f"{len(planned.tasks)} decisions to review, {len(decisions)} reviewed")
    tasks = planned.tasks
    unit, scale = _unit_and_scale(tasks[0].view) if tasks else ("points", 1.0)
    players = {
        seat: _player(
            seat,
            planned.names[seat],
            decisions,
            planned.deals[seat],
            scale,
            planned.levels[seat] if seat < len(planned.levels) else None,
        )
        for seat in planned.seats
    }
    return Review(
        planned.game,
        unit,
        scale,
        planned.iterations,
        planned.seed,
        decisions,
        players,
        planned.returns,
        planned.deal_unit,
    )


def _tasks(
    game: Game[Any, Any], record: Record, seats: set[Seat], iterations: int, seed: int
) -> tuple[list[Task], list[int], list[tuple[float, ...]]]:
    """The decisions to review, in one pass over the record; per seat the deals in which it made
    a decision (play-off hands included); per deal what it brought each seat."""
    tasks: list[Task] = []
    played: list[set[int]] = [set() for _ in range(game.players)]
    bounds: dict[int, list[Any]] = {}  # deal -> [its state before the first step, after the last]
    move, last_deal = 0, -1
    marks = stand_in_marks(record)
    for number, (deal, before, seat, action, after) in enumerate(steps(record)):
        move = move + 1 if deal == last_deal else 1
        last_deal = deal
        stand_in = marks[number]
        if not stand_in:  # a deal only its stand-in played is not one of the seat's
            played[seat].add(deal)
        bounds.setdefault(deal, [before, after])[1] = after
        legal = game.legal_actions(before)
        if seat in seats and len(legal) > 1:
            view = game.observe(before, seat)
            tasks.append(
                Task(
                    len(tasks),
                    seat,
                    deal,
                    move,
                    view,
                    tuple(legal),
                    action,
                    iterations,
                    seed,
                    stand_in,
                )
            )
    returns: list[tuple[float, ...]] = []
    if tasks:  # the game has a search to value its decisions, and so its deals
        knowledge = bots.knowledge(tasks[0].view)
        for deal in sorted(bounds):
            if record.deals[deal].score is None:  # an unfinished match's last deal: no return yet
                continue
            start, end = bounds[deal]
            returns.append(tuple(float(v) for v in knowledge.returns(start, end)))
    return tasks, [len(deals) for deals in played], returns


def _run(tasks: Sequence[Task], workers: int) -> Iterable[tuple[int, Reviewed]]:
    if workers <= 1 or len(tasks) < 2:
        yield from ((t.index, review_task(t)) for t in tasks)
        return
    # No more processes than decisions: each one started costs an interpreter and an import.
    context = multiprocessing.get_context("spawn")
    with deaf_to_interrupts():  # the pool starts its workers at once
        pool = context.Pool(min(workers, len(tasks)))
    with pool:
        yield from pool.imap_unordered(_indexed, tasks)


def _indexed(task: Task) -> tuple[int, Reviewed]:
    return task.index, review_task(task)


def review_task(task: Task) -> Reviewed:
    """One planned decision reviewed (``review_decision`` on what the task holds)."""
    reviewed = review_decision(
        task.view, task.legal, task.played, task.iterations, task.seed, task.deal, task.move
    )
    return dataclasses.replace(reviewed, stand_in=True) if task.stand_in else reviewed


def review_decision(
    view: Any,
    legal: Sequence[Action],
    played: Action,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    deal: int = 0,
    move: int = 1,
) -> Reviewed:
    """One decision reviewed from the seat's ``view`` alone: every legal action valued on the
    same sampled deals (or by the solver), the best, and what ``played`` cost (the module doc).
    ``deal`` and ``move`` say where it was; with the ``seed`` they also pick its sampled deals."""
    rules = rules_of(view)
    knowledge = bots.knowledge(view)
    rng = random.Random(f"review:{seed}:{deal}:{move}:{view.seat}")
    exact = knowledge.solved(view, legal)
    if exact is not None:  # nothing hidden matters: the solver's values, no sampling error
        values = {a: [v] for a, v in exact.items()}
    else:
        values = search.evaluate(view, legal, rng, Budget(iterations=iterations), knowledge)
    means = {a: sum(v) / len(v) for a, v in values.items()}
    ranked = sorted(legal, key=lambda a: (-means[a], a))
    best = ranked[0]
    loss, error = _loss(values[best], values[played])
    if loss == 0.0:
        best = played  # as good as the best, as far as the sampled deals can tell
    name = rules.format_action
    return Reviewed(
        seat=view.seat,
        deal=deal,
        move=move,
        played=name(view.params, played),
        best=name(view.params, best),
        loss=loss,
        error=error,
        verdict=verdict(loss, knowledge.scale),
        values=tuple((name(view.params, a), round(means[a], 3)) for a in ranked),
    )


def _loss(best: Sequence[float], played: Sequence[float]) -> tuple[float, float]:
    """The mean paired difference best − played and its standard error; the loss is 0 when the
    difference is within its error (no move is blamed for the sampling's noise)."""
    n = len(best)
    diffs = [b - p for b, p in zip(best, played, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    error = math.sqrt(var / n)
    return (round(mean, 3) if mean > error and mean > 0 else 0.0), round(error, 3)


def _unit_and_scale(view: Any) -> tuple[str, float]:
    return bots.strategies(view).UNIT, bots.knowledge(view).scale


def _player(
    seat: Seat,
    name: str,
    decisions: Sequence[Reviewed],
    deals: int,
    scale: float,
    level: str | None = None,
) -> Player:
    mine = [d for d in decisions if d.seat == seat and not d.stand_in]
    stood_in = sum(1 for d in decisions if d.seat == seat and d.stand_in)
    # With no decision of its own (all forced, or all a stand-in's) a seat has no accuracy.
    accuracy = sum(100 * max(0.0, 1 - d.loss / scale) for d in mine) / len(mine) if mine else None
    lost = sum(d.loss for d in mine)
    costliest = tuple(sorted((d for d in mine if d.loss > 0), key=lambda d: -d.loss)[:3])
    loss = round(lost / max(1, deals), 3)
    shown = None if accuracy is None else round(accuracy, 1)
    return Player(seat, name, len(mine), deals, shown, loss, costliest, level, stood_in)


def to_json(result: Review) -> dict[str, Any]:
    """The review as JSON: ``decisions`` (seat, deal, move, played, best, loss, error, verdict,
    values, stand_in: whether a stand-in made it), ``returns`` (per deal, what it brought each
    seat) and ``players`` (per reviewed seat: accuracy, loss_per_deal, the costliest, and
    stand_ins: its decisions a stand-in made, counted in none of the rest)."""

    def decision(d: Reviewed) -> dict[str, Any]:
        return {
            "seat": d.seat,
            "deal": d.deal,
            "move": d.move,
            "played": d.played,
            "best": d.best,
            "loss": d.loss,
            "error": d.error,
            "verdict": d.verdict,
            "values": dict(d.values),
            "stand_in": d.stand_in,
        }

    return {
        "game": result.game,
        "unit": result.unit,
        "scale": result.scale,
        "iterations": result.iterations,
        "seed": result.seed,
        "decisions": [decision(d) for d in result.decisions],
        "returns": [list(r) for r in result.returns],
        "deal_unit": result.deal_unit,
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "decisions": p.decisions,
                "deals": p.deals,
                "accuracy": p.accuracy,
                "loss_per_deal": p.loss_per_deal,
                "costliest": [decision(d) for d in p.costliest],
                "stand_ins": p.stand_ins,
            }
            for p in result.players.values()
        ],
    }


# Each count as its language says it: one of a thing is not "1 hands", in any language.
_COUNTED = {
    "hand": ("1 hand", "{n} hands"),
    "round": ("1 round", "{n} rounds"),
    "deal": ("1 deal", "{n} deals"),
    "decision": ("1 decision", "{n} decisions"),
}


def _counted(lang: str, n: int, thing: str) -> str:
    """``n`` of ``thing`` (a hand, round, deal or decision) in ``lang``: "1 hand", "3 hands"."""
    one, many = _COUNTED[thing]
    return tr(lang, one) if n == 1 else tr(lang, many, n=n)


def _summary_line(lang: str, p: Player, name: str, per: str, unit: str, tally: str) -> str:
    """A reviewed seat's numbers: accuracy, loss a deal (the game's word for it), verdicts."""
    return tr(
        lang,
        "{name} (seat {seat}): accuracy {accuracy:.1f}%, {loss:.2f} {unit} lost a hand"
        " over {deals} ({decisions}: {tally})"
        if per == "hand"
        else "{name} (seat {seat}): accuracy {accuracy:.1f}%, {loss:.2f} {unit} lost a"
        " round over {deals} ({decisions}: {tally})"
        if per == "round"
        else "{name} (seat {seat}): accuracy {accuracy:.1f}%, {loss:.2f} {unit} lost a deal"
        " over {deals} ({decisions}: {tally})",
        name=name,
        seat=p.seat,
        accuracy=p.accuracy,
        loss=p.loss_per_deal,
        unit=unit,
        deals=_counted(lang, p.deals, per),
        decisions=_counted(lang, p.decisions, "decision"),
        tally=tally,
    )


def report(result: Review, lang: str = "en") -> str:
    """The review for people, in ``lang``: each player's summary, then every decision that lost
    points (moves named as the table's buttons name them), by the game's word for a deal."""
    unit, per = tr(lang, result.unit), result.deal_unit
    sampled = (
        tr(lang, "Review of {game}: 1 sampled deal a decision", game=result.game)
        if result.iterations == 1
        else tr(
            lang,
            "Review of {game}: {n} sampled deals a decision",
            game=result.game,
            n=result.iterations,
        )
    )
    lines = [sampled]
    for p in result.players.values():
        counts = {name: 0 for name, _ in VERDICTS}
        for d in result.decisions:
            if d.seat == p.seat and d.verdict and not d.stand_in:
                counts[d.verdict] += 1
        tally = ", ".join(
            f"{n} {tr(lang, _PLURALS[k] if n != 1 else k)}" for k, n in counts.items()
        )
        # a bot's in the language; a right-to-left name isolated, as in the log
        name = isolated(recorded_name(lang, p.seat, p.name, p.level))
        if p.accuracy is None:
            said = "{name} (seat {seat}): no decision of its own with a choice to review"
            lines.append(tr(lang, said, name=name, seat=p.seat))
        else:
            lines.append(_summary_line(lang, p, name, per, unit, tally))
        if p.stand_ins:
            lines.append(
                "  "
                + (
                    tr(lang, "1 more decision played by a stand-in, not counted")
                    if p.stand_ins == 1
                    else tr(
                        lang, "{n} more decisions played by a stand-in, not counted", n=p.stand_ins
                    )
                )
            )
    for d in result.decisions:
        if d.loss > 0:
            # A stand-in's move is told, never graded as the player's.
            label = (
                f" — {tr(lang, 'played by a stand-in')}"
                if d.stand_in
                else f" — {tr(lang, d.verdict)}"
                if d.verdict
                else ""
            )
            line = tr(
                lang,
                "hand {deal}, move {move}, seat {seat}: {played}, better {best}:"
                " -{loss:.2f} ± {error:.2f} {unit}"
                if per == "hand"
                else "round {deal}, move {move}, seat {seat}: {played}, better {best}:"
                " -{loss:.2f} ± {error:.2f} {unit}"
                if per == "round"
                else "deal {deal}, move {move}, seat {seat}: {played}, better {best}:"
                " -{loss:.2f} ± {error:.2f} {unit}",
                deal=d.deal + 1,
                move=d.move,
                seat=d.seat,
                played=notation_label(d.played, lang),
                best=notation_label(d.best, lang),
                loss=d.loss,
                error=d.error,
                unit=unit,
            )
            lines.append(f"  {line}{label}")
    return "\n".join(lines)
