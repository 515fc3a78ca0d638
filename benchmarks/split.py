"""Where the difference of a ``vs_old_hard.py`` run was made: Truco's hands, Poch's phases.

``python benchmarks/split.py SHARD [SHARD ...]`` replays every match of the shards (the lines
that hold their actions) on today's engine and splits each match's difference, today's bot's
score minus the tag's (as ``tapete.arena.bot_scores`` counts them: a team's points, or the mean
of a bot's seats), into parts that add up to it:

- **Truco**, each hand's points by how the hand ended: ``no raise`` (played out at 1 point);
  ``ran from X's raise`` (a team ran, X being the team whose raise it ran from);
  ``accepted, X raised last`` (played out at a raised stake, X the last team to raise);
  ``mão de onze`` (a team on 11 chose whether to play the hand: counted here whatever else
  happened in it).
- **Poch**, each round's chips by phase: ``melds`` (the bowls taken with trump honours, a
  marriage or a sequence), ``poker`` (the Pinke and the Poch bowl won, less the bets) and
  ``race`` (the cards paid to the shedding race's winner).

Each part is the mean over groups with a 95% interval (points or chips a match, like the run's own
table), with how often it happened a match (Truco: hands of that kind). A part says where the
difference was made, not where it was caused: a team that runs too early shows in ``ran from``,
and the cards that would have won show nowhere.
"""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import tapete
from tapete.game import Game
from tapete.games import truco

sys.path.insert(0, str(Path(__file__).parent))
from vs_old_hard import interval, replayable

# A match's parts: kind -> (today's score from it, the tag's, how many times it happened).
Parts = dict[str, tuple[float, float, int]]


def _hand_kind(raises: list[str], ended_by: str, eleven: bool) -> str:
    """A Truco hand's row, from the bots that raised in it (in order) and how it ended."""
    if eleven:
        return "mão de onze"
    if not raises:
        return "no raise"
    if ended_by == "run":
        return f"ran from {raises[-1]}'s raise"
    return f"accepted, {raises[-1]} raised last"


def truco_parts(
    game: Game[Any, Any], seed: int, seats: Sequence[int], actions: Sequence[int]
) -> Parts:
    """Each kind of Truco hand's points for today's bot's team and the tag's."""
    new_team = seats.index(0) & 1
    who = {new_team: "new", 1 - new_team: "old"}
    state = game.new_state(seed)
    raises: list[str] = []
    eleven = state.deal.eleven_team >= 0
    points: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for action in actions:
        if action == truco.RAISE:
            raises.append(who[game.current_player(state) & 1])
        state = game.apply(state, action)
        for event in game.events(state):
            if event.type == "score":
                row = points[_hand_kind(raises, event.data["reason"], eleven)]
                row[0] += event.data["score"][new_team]
                row[1] += event.data["score"][1 - new_team]
                row[2] += 1
                raises = []
        if game.current_player(state) is not None:  # the hand now dealt
            eleven = state.deal.eleven_team >= 0
    return {kind: (new, old, count) for kind, (new, old, count) in points.items()}


def poch_parts(
    game: Game[Any, Any], seed: int, seats: Sequence[int], actions: Sequence[int]
) -> Parts:
    """Each phase's chips, the mean over today's bot's seats and over the tag's."""
    chips: dict[str, list[int]] = defaultdict(lambda: [0] * len(seats))
    rounds: dict[str, int] = defaultdict(int)
    state = game.new_state(seed)
    for action in actions:
        state = game.apply(state, action)
        for event in game.events(state):
            data = event.data
            if event.type == "meld" and data["seat"] is not None:
                chips["melds"][data["seat"]] += data["chips"]
                rounds["melds"] += 1
            elif event.type == "poker":
                for seat, (won, bet) in enumerate(zip(data["won"], data["bets"], strict=True)):
                    chips["poker"][seat] += won - bet
                rounds["poker"] += 1
            elif event.type == "score":
                for seat, paid in enumerate(data["paid"]):
                    chips["race"][seat] -= paid
                chips["race"][data["winner"]] += sum(data["paid"])
                rounds["race"] += 1

    def mean(kind: str, bot: int) -> float:
        return statistics.fmean(c for c, b in zip(chips[kind], seats, strict=True) if b == bot)

    return {kind: (mean(kind, 0), mean(kind, 1), rounds[kind]) for kind in chips}


SPLITS: dict[str, Callable[[Game[Any, Any], int, Sequence[int], Sequence[int]], Parts]] = {
    "truco": truco_parts,
    "poch": poch_parts,
}


def split_groups(groups: list[dict[str, Any]]) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Per part, each group's share of its difference (a match's mean), and how many times the
    part happened a match."""
    parts: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(groups))
    times: dict[str, float] = defaultdict(float)
    matches = 0
    for index, group in enumerate(groups):
        game = tapete.load(group["spec"])
        split = SPLITS[game.name]
        for match in group["matches"]:
            found = split(game, group["group_seed"], match["seats"], match["actions"])
            for kind, (new, old, count) in found.items():
                parts[kind][index] += (new - old) / len(group["matches"])
                times[kind] += count
            matches += 1
    return dict(parts), {kind: count / matches for kind, count in times.items()}


def _interval(values: list[float]) -> str:
    mean, low, high = interval(values)
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def main(argv: Sequence[str] | None = None) -> int:
    parser, kept, skipped = replayable(__doc__, argv)
    games = {tapete.load(g["spec"]).name for g in kept}
    if len(games) > 1 or not games <= set(SPLITS):
        parser.error(f"one game at a time, of {', '.join(SPLITS)}: these shards hold {games}")
    parts, times = split_groups(kept)
    print(f"{len(kept)} groups ({skipped} without actions skipped)")
    print(f"{'part':28} {'today − tag, a match (95% CI)':32} times a match")
    for kind in sorted(parts, key=lambda k: -times[k]):
        print(f"{kind:28} {_interval(parts[kind]):32} {times[kind]:.2f}")
    print(f"{'all':28} {_interval([g['difference'] for g in kept])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
