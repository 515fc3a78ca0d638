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
   that fades as the action is visited. With a prior, a node widens progressively: the actions
   the prior likes best compete first, one more each time the visits pass a square.
3. **Expand** one node: the first time the search meets an information set, and while a node has
   competing actions never tried, the action taken is the untried one the prior likes best (at
   random without a prior); then the descent stops.
4. **Roll out** to the horizon with the game's informed playout policy (``Knowledge.rollout``),
   or take an exact value where the game has one for a small endgame (``Knowledge.exact``).
5. **Back up** per-seat returns (``Knowledge.returns``, in the game's own units: points, chips,
   stakes). Every node maximises the return of the seat to move there; partners share a return.

**Horizon.** A search ends at the end of the current deal (``Knowledge.deal_over``) and values it
by the deal's score: every game here scores deal by deal, a deal's score is what the bids, plays
and bets decide, and a deal is short enough to be played out thousands of times a second. The
match around it (who leads, the target score) enters through ``returns`` where a game needs it.

**Shared playouts.** The root's options are raced on the same sampled deals, each simulated on
its own; where one playout values every option at once (``Knowledge.joint``: Pocha's bids, since
random cards do not depend on the bids), the options share it, and a decision samples as many
deals as it has playouts.

The decision is the first action of the best plan still in the root's race: the highest mean
return over the sampled deals, every plan still in the race having been played in all of them
(ties: the lower actions). With ``Budget(iterations=N)`` the search runs exactly N iterations
and the decision is a pure function of (view, legal actions, rng): bots stay reproducible and
fair. ``Budget(ms=N)`` runs until the clock says stop (at least a few iterations), or until the
race has settled the decision: every plan still in it starts with the same action.

The ablation drops the game's knowledge but its returns: ``hard(rollout=random)`` plays
uniformly random rollouts and takes no exact endgame values, ``hard(prior=none)`` searches
without the prior (untried actions in random order, no bias). ``hard(tree=none)`` drops the
tree instead: flat Monte Carlo, every root option played out from the root in each sampled deal
(an exact endgame value where the game has one), the other seats acting by the playouts alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tapete.bots import Budget, Decision, searched

if TYPE_CHECKING:
    from tapete.game import Action, Rules

__all__ = ["Knowledge", "Stats", "decide", "evaluate", "read", "search"]

S = TypeVar("S")

EXPLORATION = 0.7  # UCB1's constant, in units of Knowledge.scale
PRIOR_WEIGHT = 1.0  # the prior's bias on a never-visited action, in units of Knowledge.scale
ROOT_SHARE = 0.05  # root actions the prior likes at least this share of its favourite are tried
MAX_PLANS = 40  # the root's options (plans) at most
RACE_MIN = 6  # sampled deals before a root action can be dropped from the race
RACE_SE = 2.0  # standard errors of the paired difference by which a dropped action is worse
RACE_GROWTH = 1.1  # the race is run again when the sampled deals have grown by this factor
WIDENING = 1.0  # with a prior, a node visited v times lets 1 + WIDENING * sqrt(v) actions compete


class Knowledge(Generic[S]):
    """What the search knows about one game; a game's module subclasses it.

    Required: ``rules`` (the game module), ``deal_over`` and ``returns``. The rest have plain
    defaults: the whole view as the information key, uniformly random rollouts, no prior, no exact
    endgame. ``scale`` is the spread of a deal's returns in the game's units (UCB explores in
    these units).
    """

    rules: Rules[S, Any]
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

    def joint(
        self, world: S, plans: Sequence[tuple[Action, ...]], rng: random.Random
    ) -> list[float] | None:
        """The root seat's return after each of ``plans`` from **one** playout of ``world``, where
        the game's playout does not depend on which plan was taken, so one playout values them
        all (Pocha's bids: random cards do not depend on the bids, and one playout's tricks score
        every bid); else None, the default, and each plan is simulated on its own."""
        return None

    def prior(self, state: S, actions: Sequence[Action]) -> Sequence[float] | None:
        """How much the game's policy likes each action (0 to 1), or None for no opinion."""
        return None

    def exact(self, start: S, state: S) -> Sequence[float] | None:
        """Per-seat returns from ``state`` to the horizon under exact play, when that is cheap
        (a small endgame), else None."""
        return None

    def solved(self, view: Any, legal: Sequence[Action]) -> dict[Action, float] | None:
        """Every legal action's exact return for the seat of ``view`` (as ``returns`` counts),
        where nothing hidden matters any more and the game has a solver for it; else None (the
        default). A review takes these instead of sampled values."""
        return None

    def declares(self, state: S, action: Action) -> bool:
        """Whether ``action`` is a declaration the seat makes before another action of its own,
        with nothing hidden happening in between (a swap, a cante): the root then judges the
        declaration together with what follows it, as one option. Default: never."""
        return False

    def describe(self, params: Any, action: Action) -> str:
        """An action in the game's notation, for the hint's reason."""
        return self.rules.format_action(params, action)


def read(
    draw: Callable[[random.Random], S], fit: Callable[[S], float], per_call: int
) -> Callable[[random.Random], S]:
    """A sampler that reads what the other seats did: each call draws ``per_call`` more deals
    with ``draw`` into a pool, weighs each by ``fit`` (how likely the others' public actions were
    with the hands the deal gives them, up to a constant) and returns one deal of the whole pool
    by weight. The longer the search, the closer its deals come to what the actions say (a
    likely deal may come again); with no weight anywhere yet, the latest deal drawn.

    >>> rng = random.Random(1)
    >>> sample = read(lambda r: r.randrange(10), lambda d: 1.0 if d >= 8 else 0.0, per_call=4)
    >>> all(sample(rng) >= 8 for _ in range(20))
    True
    """
    pool: list[S] = []
    cumulative: list[float] = []

    def sample(rng: random.Random) -> S:
        total = cumulative[-1] if cumulative else 0.0
        for _ in range(per_call):
            world = draw(rng)
            total += fit(world)
            pool.append(world)
            cumulative.append(total)
        if total <= 0:
            return pool[-1]
        return rng.choices(pool, cum_weights=cumulative)[0]

    return sample


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

    __slots__ = ("stats", "visits")

    def __init__(self) -> None:
        self.stats: dict[int, list[float]] = {}
        self.visits = 0


class Stats:
    """What the search found at the root: per legal action the sampled deals it was tried in and
    its best plan's mean return there; the best plan."""

    def __init__(
        self,
        visits: dict[int, int],
        means: dict[int, float],
        iterations: int,
        plan: tuple[int, ...],
        simulations: int = 0,
        close: tuple[int, ...] = (),
    ) -> None:
        self.visits = visits
        self.means = means
        self.iterations = iterations
        self.plan = plan
        self.simulations = simulations  # descents with their playouts, over all sampled deals
        # The root actions as good as the best within the sampled deals' noise: their paired
        # difference from the best plan is within one standard error of 0 (the best first).
        self.close = close or plan[:1]

    def best(self) -> int:
        """The first action of the best plan still in the race (ties: the lower actions)."""
        return self.plan[0]


def search(
    view: Any,
    legal: Sequence[Action],
    rng: random.Random,
    budget: Budget,
    knowledge: Knowledge[Any],
) -> Stats:
    """Run the search from ``view`` (see the module doc) and return the root's statistics."""
    informed = budget.rollout == "informed"
    priors = budget.prior == "informed"
    sample = knowledge.sampler(view)
    clock = budget.clock()
    tree = _Tree(knowledge, informed, priors, rng, budget.tree == "full")
    world = sample(rng)
    alive = _plans(knowledge, world, legal, priors)
    worlds: dict[Plan, list[float]] = {p: [] for p in alive}
    seat = view.seat
    check = RACE_MIN
    while clock.more():
        joint = knowledge.joint(world, alive, rng) if informed else None
        if joint is not None:
            tree.simulations += 1
            for plan, value in zip(alive, joint, strict=True):
                worlds[plan].append(value)
        else:
            for plan in alive:
                worlds[plan].append(tree.simulate(world, plan)[seat])
        clock.tick()
        if clock.done >= check:
            # The race's paired test reads every deal so far: run it at growing intervals, so
            # its cost stays a small share of a long search's.
            check = max(clock.done + 1, int(clock.done * RACE_GROWTH))
            alive = _race(alive, worlds)
            if budget.iterations is None and _settled(alive):
                break
        world = sample(rng)
    means: dict[Action, float] = dict.fromkeys(legal, -math.inf)
    visits: dict[Action, int] = dict.fromkeys(legal, 0)
    for plan, values in worlds.items():
        if values and (plan in alive or not visits[plan[0]]):
            mean = sum(values) / len(values)
            if (plan in alive and mean > means[plan[0]]) or not visits[plan[0]]:
                means[plan[0]] = mean
            visits[plan[0]] = max(visits[plan[0]], len(values))
    best = max(alive, key=lambda p: (sum(worlds[p]) / max(1, len(worlds[p])), [-a for a in p]))
    near = {p[0] for p in alive if p != best and _within(worlds[p], worlds[best], 1.0)}
    close = (best[0], *sorted(near - {best[0]}))
    return Stats(visits, means, clock.done, best, tree.simulations, close)


def evaluate(
    view: Any,
    legal: Sequence[Action],
    rng: random.Random,
    budget: Budget,
    knowledge: Knowledge[Any],
) -> dict[Action, list[float]]:
    """Every legal action's return for the seat of ``view``, one per sampled deal, all actions on
    the same deals (so two actions compare pair by pair): the search of ``search`` without its
    race, for a review that must value the move played as carefully as the best one."""
    informed = budget.rollout == "informed"
    sample = knowledge.sampler(view)
    clock = budget.clock()
    tree = _Tree(knowledge, informed, budget.prior == "informed", rng, budget.tree == "full")
    values: dict[Action, list[float]] = {a: [] for a in legal}
    seat = view.seat
    while clock.more():
        world = sample(rng)
        for action in legal:
            values[action].append(tree.simulate(world, (action,))[seat])
        clock.tick()
    return values


Plan = tuple[int, ...]
"""The root seat's actions in a row: a declaration (swap, cante) and the card it comes with."""


def _plans(
    knowledge: Knowledge[Any], world: Any, legal: Sequence[Action], priors: bool
) -> list[Plan]:
    """The root's options, each a plan: an action the prior does not dismiss (all of them
    without a prior) and, after a declaration (``Knowledge.declares``), the seat's next.

    Declarations and the card after them are one option, so a cante is not judged by the
    exploring choices of a node below it."""
    rules = knowledge.rules
    seat = rules.current_player(world)
    out: list[Plan] = []
    for action in _candidates(knowledge, world, legal, priors):
        after = rules.apply(world, action)
        if (
            len(out) < MAX_PLANS
            and knowledge.declares(world, action)
            and not knowledge.deal_over(world, after)
            and rules.current_player(after) == seat
        ):
            more = _plans(knowledge, after, rules.legal_actions(after), priors)
            out += [(action, *rest) for rest in more]
        else:
            out.append((action,))
    return out


def _candidates(
    knowledge: Knowledge[Any], world: Any, legal: Sequence[Action], priors: bool
) -> list[Action]:
    """The actions worth a simulation in every sampled deal: those the prior does not dismiss
    (at least ROOT_SHARE of its favourite's weight), or all without a prior."""
    prior = knowledge.prior(world, legal) if priors and len(legal) > 1 else None
    if prior is None:
        return list(legal)
    top = max(prior)
    return [a for a, p in zip(legal, prior, strict=True) if p >= ROOT_SHARE * top]


def _within(mine: list[float], best: list[float], errors: float) -> bool:
    """Whether the paired difference ``mine - best`` is within ``errors`` standard errors of 0."""
    n = len(mine)
    if n < 2:
        return False
    diffs = [x - y for x, y in zip(mine, best, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean + errors * math.sqrt(var / n) >= 0


def _settled(alive: list[Plan]) -> bool:
    """Whether the race has decided the root: every plan still in it starts with the same
    action. A dropped plan never comes back, so more deals could not change the decision; a
    timed search then answers rather than keep a person waiting for the rest of its budget."""
    return len({plan[0] for plan in alive}) == 1


def _race(alive: list[Plan], worlds: dict[Plan, list[float]]) -> list[Plan]:
    """Drop the root actions clearly worse than the best in the same sampled deals: the paired
    difference's mean is below 0 by more than RACE_SE standard errors."""
    n = len(worlds[alive[0]])
    if n < RACE_MIN or len(alive) < 2:
        return alive
    best = max(alive, key=lambda a: sum(worlds[a]))
    mine = worlds[best]
    return [a for a in alive if a == best or _within(worlds[a], mine, RACE_SE)]


class _Tree:
    """The information-set tree below the root, shared by every simulation of one search."""

    def __init__(
        self,
        knowledge: Knowledge[Any],
        informed: bool,
        priors: bool,
        rng: random.Random,
        grows: bool = True,
    ) -> None:
        self.knowledge = knowledge
        self.informed = informed
        self.priors = priors
        self.rng = rng
        self.grows = grows  # False: flat, every simulation rolls out right after the root's plan
        self.c = EXPLORATION * knowledge.scale
        self.bias = PRIOR_WEIGHT * knowledge.scale
        self.nodes: dict[Hashable, _Node] = {}
        self.simulations = 0

    def simulate(self, start: Any, plan: Plan) -> Sequence[float]:
        """One simulation of the sampled deal ``start`` after the root's ``plan``: descend,
        expand one node, roll out to the horizon, back up; the per-seat returns."""
        knowledge, rules, rng = self.knowledge, self.knowledge.rules, self.rng
        self.simulations += 1
        state = start
        for action in plan:
            state = rules.apply(state, action)
        path: list[tuple[list[float], int]] = []
        values: Sequence[float] | None = None
        fresh = not self.grows  # a flat search stops where a new node would be expanded
        while True:
            if knowledge.deal_over(start, state):
                values = knowledge.returns(start, state)
                break
            if self.informed:
                values = knowledge.exact(start, state)
                if values is not None:
                    break
            if fresh:
                break
            key = knowledge.key(state)
            node = self.nodes.get(key)
            if node is None:
                node = self.nodes[key] = _Node()
            mover: int = rules.current_player(state)  # type: ignore[assignment]
            actions = rules.legal_actions(state)
            stat, fresh = _select(
                node, state, actions, knowledge, self.priors, self.c, self.bias, rng
            )
            path.append((stat, mover))
            state = rules.apply(state, int(stat[3]))
        if values is None:
            values = (
                knowledge.rollout(start, state, rng)
                if self.informed
                else random_rollout(knowledge, start, state, rng)
            )
        for stat, mover in path:
            stat[0] += 1
            stat[1] += values[mover]
        return values


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
    whether it was never tried (the expansion, after which the descent stops).

    With a prior the node widens progressively: only the 1 + sqrt(visits) actions the prior likes
    best compete, so a budget of a few dozen simulations is not spent trying every card once."""
    stats = node.stats
    prior = knowledge.prior(state, actions) if informed and len(actions) > 1 else None
    if prior is not None:
        width = 1 + int(WIDENING * math.sqrt(node.visits))
        ranked = sorted(range(len(actions)), key=lambda i: -prior[i])[:width]
        candidates = [(actions[i], prior[i]) for i in ranked]
    else:
        candidates = [(a, 0.0) for a in actions]
    node.visits += 1
    rows = []
    untried = []
    for a, _ in candidates:
        row = stats.get(a)
        if row is None:
            row = stats[a] = [0, 0.0, 0, a]
        row[2] += 1
        rows.append(row)
        if not row[0]:
            untried.append(row)
    if untried:
        if prior is None and len(untried) > 1:
            return untried[rng.randrange(len(untried))], True
        return untried[0], True
    best, best_score = rows[0], -math.inf
    for row, (_, liked) in zip(rows, candidates, strict=True):
        n = row[0]
        score = row[1] / n + c * math.sqrt(math.log(row[2]) / n) + bias * liked / (n + 1)
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
    what = [knowledge.describe(view.params, a) for a in stats.plan]
    return Decision(best, searched(what, stats.means[best], unit, stats.visits[best]))
