"""Information-set Monte Carlo tree search: the search of ``hard`` and ``expert``, for every game.

One search over the game contract (``sample_state``, ``current_player``, ``legal_actions``,
``apply``), with what it knows about a game plugged in through a ``Knowledge``:

1. **Determinize.** Each iteration draws a full state from the deciding seat's view with the
   game's ``sample_state``: the hidden cards are dealt at random around everything public.
2. **Descend.** A tree node is an *information set*: ``Knowledge.key(state)`` names what the seat
   to move knows there (by default its whole view, ``observe(state, seat)``), never a hidden card,
   so a seat's statistics are shared by every deal it cannot tell apart and the search cannot
   "see through" the cards (no strategy fusion over hidden cards, no leaks). At a node the
   actions legal *in this determinization* compete by UCB1, where an action's exploration term
   counts the visits in which it was available (ISMCTS availability counts), plus a prior bias
   that fades as the action is visited.
3. **Expand** one node: the first time the search meets an information set, and while a node has
   actions never tried, the action taken is the untried one the prior likes best (at random
   without a prior); then the descent stops.
4. **Roll out** to the horizon with the game's informed playout policy (``Knowledge.rollout``),
   or take an exact value where the game has one for a small endgame (``Knowledge.exact``).
5. **Back up** per-seat returns (``Knowledge.returns``, in the game's own units: points, chips,
   stakes). Every node maximises the return of the seat to move there; partners share a return.

**Horizon.** A search ends at the end of the current deal (``Knowledge.deal_over``) and values it
by the deal's score: every game here scores deal by deal, a deal's score is what the bids, plays
and bets decide, and a deal is short enough to be played out thousands of times a second. The
match around it (who leads, the target score) enters through ``returns`` where a game needs it.

The decision is the root action with the most visits (ties: the higher mean, then the lower
action). With ``Budget(iterations=N)`` the search runs exactly N iterations and the decision is a
pure function of (view, legal actions, rng): bots stay reproducible and fair. ``Budget(ms=N)``
runs until the clock says stop (at least a few iterations).

The ablation drops the game's knowledge but its returns: ``hard(rollout=random)`` plays
uniformly random rollouts and takes no exact endgame values, ``hard(prior=none)`` searches
without the prior (untried actions in random order, no bias).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tapete.bots import Budget, Decision

if TYPE_CHECKING:
    from tapete.game import Action, Rules

__all__ = ["Knowledge", "Stats", "decide", "search"]

S = TypeVar("S")

EXPLORATION = 0.7  # UCB1's constant, in units of Knowledge.scale
PRIOR_WEIGHT = 1.0  # the prior's bias on a never-visited action, in units of Knowledge.scale


class Knowledge(Generic[S]):
    """What the search knows about one game; a game's module subclasses it.

    Required: ``rules`` (the game module), ``deal_over`` and ``returns``. The rest have plain
    defaults: the whole view as the information key, uniformly random rollouts, no prior, no exact
    endgame. ``scale`` is the spread of a deal's returns in the game's units (UCB explores in
    these units).
    """

    rules: Rules
    scale: float = 10.0

    def sampler(self, view: Any) -> Callable[[random.Random], S]:
        """Draws determinizations of ``view``: the game's ``sample_state`` unless the game has a
        faster sampler for the one view a search starts from (same distribution, same facts)."""
        sample = self.rules.sample_state
        return lambda rng: sample(view, rng)

    def deal_over(self, start: S, state: S) -> bool:
        """Whether ``state`` is past the horizon of a search that started at ``start``."""
        raise NotImplementedError

    def returns(self, start: S, state: S) -> Sequence[float]:
        """Per seat, what the deal brought it between ``start`` and ``state`` (the horizon).

        Partners get the same value. Indexed by seat."""
        raise NotImplementedError

    def key(self, state: S) -> Hashable:
        """The information set of the seat to move: a value that depends only on its view.

        The default is the view itself; a game may give a cheaper key that provably depends on
        nothing else (never a hidden card, never a hidden action)."""
        seat = self.rules.current_player(state)
        return (seat, self.rules.observe(state, seat))

    def rollout(self, start: S, state: S, rng: random.Random) -> Sequence[float]:
        """Play ``state`` out to the horizon with the game's informed policy for every seat and
        return the per-seat returns (as ``returns`` would give at the end).

        A game may play out on its own fast representation. The default plays at random."""
        return random_rollout(self, start, state, rng)

    def prior(self, state: S, actions: Sequence[Action]) -> Sequence[float] | None:
        """How much the game's policy likes each action (0 to 1), or None for no opinion."""
        return None

    def exact(self, start: S, state: S) -> Sequence[float] | None:
        """Per-seat returns from ``state`` to the horizon under exact play, when that is cheap
        (a small endgame), else None."""
        return None

    def describe(self, params: Any, action: Action) -> str:
        """An action in the game's notation, for the hint's reason."""
        return self.rules.format_action(params, action)


def random_rollout(
    knowledge: Knowledge[S], start: S, state: S, rng: random.Random
) -> Sequence[float]:
    """Play out to the horizon choosing uniformly among the legal actions; the returns."""
    rules = knowledge.rules
    while not knowledge.deal_over(start, state):
        actions = rules.legal_actions(state)
        state = rules.apply(state, actions[rng.randrange(len(actions))])
    return knowledge.returns(start, state)


class _Node:
    """An information set's statistics, per action: visits, total return, availability."""

    __slots__ = ("stats",)

    def __init__(self) -> None:
        self.stats: dict[int, list[float]] = {}


class Stats:
    """What the search found at the root: per legal action its visits and mean return."""

    def __init__(self, visits: dict[int, int], means: dict[int, float], iterations: int) -> None:
        self.visits = visits
        self.means = means
        self.iterations = iterations

    def best(self) -> int:
        """The most visited action (ties: higher mean, then lower action)."""
        return max(self.visits, key=lambda a: (self.visits[a], self.means[a], -a))


def search(
    view: Any,
    legal: Sequence[Action],
    rng: random.Random,
    budget: Budget,
    knowledge: Knowledge[Any],
) -> Stats:
    """Run the search from ``view`` (see the module doc) and return the root's statistics."""
    rules = knowledge.rules
    informed = budget.rollout == "informed"
    priors = budget.prior == "informed"
    c = EXPLORATION * knowledge.scale
    bias = PRIOR_WEIGHT * knowledge.scale
    root = _Node()
    nodes: dict[Hashable, _Node] = {}
    clock = budget.clock()
    root_actions = list(legal)
    sample = knowledge.sampler(view)
    while clock.more():
        start = sample(rng)
        state = start
        path: list[tuple[list[float], int]] = []
        node = root
        actions = root_actions
        values: Sequence[float] | None = None
        while True:
            mover: int = rules.current_player(state)  # type: ignore[assignment]
            stat, fresh = _select(node, state, actions, knowledge, priors, c, bias, rng)
            path.append((stat, mover))
            state = rules.apply(state, int(stat[3]))
            if knowledge.deal_over(start, state):
                values = knowledge.returns(start, state)
                break
            if informed:
                values = knowledge.exact(start, state)
                if values is not None:
                    break
            if fresh:
                break
            key = knowledge.key(state)
            found = nodes.get(key)
            if found is None:
                found = nodes[key] = _Node()
            node = found
            actions = rules.legal_actions(state)
        if values is None:
            values = (
                knowledge.rollout(start, state, rng)
                if informed
                else random_rollout(knowledge, start, state, rng)
            )
        for stat, mover in path:
            stat[0] += 1
            stat[1] += values[mover]
        clock.tick()
    visits = {a: int(root.stats[a][0]) if a in root.stats else 0 for a in legal}
    means = {a: root.stats[a][1] / root.stats[a][0] if visits[a] else -math.inf for a in legal}
    return Stats(visits, means, clock.done)


def _select(
    node: _Node,
    state: Any,
    actions: Sequence[Action],
    knowledge: Knowledge[Any],
    informed: bool,
    c: float,
    bias: float,
    rng: random.Random,
) -> tuple[list[float], bool]:
    """The action to take at ``node`` (its stats row: visits, total, availability, action) and
    whether it was never tried (the expansion, after which the descent stops)."""
    stats = node.stats
    rows = []
    untried = []
    for a in actions:
        row = stats.get(a)
        if row is None:
            row = stats[a] = [0, 0.0, 0, a]
        row[2] += 1
        rows.append(row)
        if not row[0]:
            untried.append(row)
    prior = knowledge.prior(state, actions) if informed and len(actions) > 1 else None
    if untried:
        if len(untried) == 1:
            return untried[0], True
        if prior is None:
            return untried[rng.randrange(len(untried))], True
        liked = dict(zip(actions, prior, strict=True))
        return max(untried, key=lambda r: liked[int(r[3])]), True
    best, best_score = rows[0], -math.inf
    for i, row in enumerate(rows):
        n = row[0]
        score = row[1] / n + c * math.sqrt(math.log(row[2]) / n)
        if prior is not None:
            score += bias * prior[i] / (n + 1)
        if score > best_score:
            best, best_score = row, score
    return best, False


def decide(
    view: Any,
    legal: Sequence[Action],
    rng: random.Random,
    budget: Budget,
    knowledge: Knowledge[Any],
    unit: str = "points",
) -> Decision:
    """The search's decision for the seat of ``view``, with a reason for people."""
    stats = search(view, legal, rng, budget, knowledge)
    best = stats.best()
    what = knowledge.describe(view.params, best)
    return Decision(
        best,
        f"{what}: {stats.means[best]:+.1f} {unit} on average in {stats.visits[best]} of "
        f"{stats.iterations} simulated deals",
    )
