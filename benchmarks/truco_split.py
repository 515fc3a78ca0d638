"""Where the points of a Truco duplicate run went: bets or cards, and whose.

``python benchmarks/truco_split.py SHARD [SHARD ...]`` replays every match of the shards that
``vs_old_hard.py`` writes (the lines that hold their actions) on today's engine and sorts each
hand's points, today's bot's team's minus the tag's, by how the hand ended:

- ``no raise``: played out at 1 point (or 3 in a mão de onze), the cards alone;
- ``ran from X's raise``: a team ran from a raise, X being the team whose raise it ran from;
- ``accepted, X raised last``: played out at a raised stake, X being the last team to raise;
- ``mão de onze``: a team on 11 chose whether to play the hand (played at 3, or 1 for the other
  team when it declined), counted here whatever else happened in it.

Each row is the mean over groups of that part of the group's difference (points a match, like
the run's own table), with a 95% interval, and how many hands of each kind a match had; the rows
add up to the run's difference. A hand's points are what it scored, so the split says where the
difference was made, not where it was caused: a team that runs too early shows in ``ran from``,
and its cards that would have won show nowhere.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tapete
from tapete import arena
from tapete.games import truco

sys.path.insert(0, str(Path(__file__).parent))
from vs_old_hard import read_shard


def hand_kind(raises: list[int], ended_by: str, eleven: bool, who: dict[int, str]) -> str:
    """The row a hand's points go to, from the teams that raised in it (in order) and its end."""
    if eleven:
        return "mão de onze"
    if not raises:
        return "no raise"
    if ended_by == "run":
        return f"ran from {who[raises[-1]]}'s raise"
    return f"accepted, {who[raises[-1]]} raised last"


def split_match(spec: str, seed: int, seats: list[int], actions: list[int]) -> dict[str, list[int]]:
    """Each kind of hand's points for today's bot's team and the tag's, replaying one match."""
    game = tapete.load(spec)
    new_team = next(s & 1 for s, bot in enumerate(seats) if bot == 0)
    who = {new_team: "new", 1 - new_team: "old"}
    state = game.new_state(seed)
    raises: list[int] = []
    eleven = state.deal.eleven_team >= 0
    points: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # new, old, hands
    for action in actions:
        if action == truco.RAISE:
            raises.append(game.current_player(state) & 1)
        state = game.apply(state, action)
        for event in game.events(state):
            if event.type != "score":
                continue
            row = points[hand_kind(raises, event.data["reason"], eleven, who)]
            row[0] += event.data["score"][new_team]
            row[1] += event.data["score"][1 - new_team]
            row[2] += 1
            raises = []
        if game.current_player(state) is not None:
            eleven = state.deal.eleven_team >= 0
    return dict(points)


def split_groups(groups: list[dict[str, Any]]) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Per kind of hand, each group's part of its difference (points a match), and the mean
    number of such hands a match."""
    parts: dict[str, list[float]] = defaultdict(list)
    hands: dict[str, float] = defaultdict(float)
    matches = 0
    for index, group in enumerate(groups):
        share: dict[str, float] = defaultdict(float)
        for match in group["matches"]:
            split = split_match(
                group["spec"], group["group_seed"], match["seats"], match["actions"]
            )
            for kind, (new, old, count) in split.items():
                share[kind] += (new - old) / len(group["matches"])
                hands[kind] += count
            matches += 1
        for kind in set(share) | set(parts):
            parts[kind].extend([0.0] * (index - len(parts[kind])))
            parts[kind].append(share.get(kind, 0.0))
    for kind in parts:
        parts[kind].extend([0.0] * (len(groups) - len(parts[kind])))
    return dict(parts), {kind: count / matches for kind, count in hands.items()}


def _interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+.2f}"
    half = arena.t_quantile(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shards", nargs="+", type=Path)
    args = parser.parse_args(argv)
    groups = [g for path in args.shards for g in read_shard(path)]
    kept = [g for g in groups if all("actions" in m for m in g["matches"])]
    if not kept:
        parser.error("no group in these shards holds its matches' actions")
    parts, hands = split_groups(kept)
    print(f"{len(kept)} groups ({len(groups) - len(kept)} without actions skipped)")
    print(f"{'hands ended':32} {'new − old, points a match (95% CI)':36} hands a match")
    for kind in sorted(parts, key=lambda k: -hands[k]):
        print(f"{kind:32} {_interval(parts[kind]):36} {hands[kind]:.2f}")
    print(f"{'all':32} {_interval([g['difference'] for g in kept])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
