"""Where today's Pottle hard and hard-v1 decide differently, and which of the two is right.

``python benchmarks/pottle_positions.py SHARD --phase bid [--positions N] [--ms MS] [--oracle K]
[--out FILE]`` replays the matches of a Pottle shard of ``vs_old_hard.py`` (one that keeps its
actions) and stops at every decision with a choice that a searching seat (today's or the tag's)
made in ``--phase`` (``bid``, ``trump`` or ``play``). There both bots decide again, each from its
own engine's view at ``hard(ms=MS)`` (CPU time), seeded by the position. Where they differ, the
two moves are valued on the same ``--oracle`` deals drawn from the seat's view, each played out
from the move to the end of the deal as the search plays its deals out (medium's bids, trump and
cards, the last four tricks solved): once with today's drawing of the deals (the others' raises
read) and once with every deal the view allows alike. The oracle is the search's own model with
hundreds of deals instead of a decision's dozen or so: it says which bot's move that model prefers
once the noise of a short search is gone, not what a person would play.

One JSON line per position in ``--out`` (resumable: positions already there are skipped), and a
Markdown table: positions, how many differ, the deals each bot sampled (median), and the oracle's
mean difference a decision, today's move less the tag's, in chips of the deal (positions where the
two agree count 0), with a 95% interval over positions; for bids, how often each bot bid without
raising while a raise was legal, and what those decisions cost by the oracle.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import re
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import vs_old_hard

import tapete
from tapete.bots import Budget, search
from tapete.bots import pottle as bots
from tapete.games import pottle


class _Plain(bots.Knowledge):
    """Today's knowledge with every deal the view allows drawn alike."""

    def sampler(self, view: Any) -> Any:
        return lambda rng: pottle.sample_state(view, rng)


def positions(groups: list[dict[str, Any]], game: Any, old_game: Any, phase: str) -> Iterator[Any]:
    """Each decision of a searching seat (0 today's, 1 the tag's) with a choice, in ``phase``."""
    for group in groups:
        for match in group["matches"]:
            seed = group["group_seed"]
            state, old_state = game.new_state(seed), old_game.new_state(seed)
            for action in match["actions"]:
                seat = game.current_player(state)
                legal = list(game.legal_actions(state))
                if (
                    len(legal) > 1
                    and match["seats"][seat] < 2
                    and state.phase.name.lower() == phase
                ):
                    yield state, old_state, seat, legal
                state, old_state = game.apply(state, action), old_game.apply(old_state, action)


def _deals(reason: str) -> int:
    found = re.search(r"(\d+) (?:possible |sampled )?deals", reason)
    return int(found.group(1)) if found else 0


def _oracle(view: Any, moves: list[int], knowledge: Any, deals: int) -> tuple[float, float]:
    """The mean paired difference of ``moves[0]`` less ``moves[1]`` over ``deals`` deals, its SE."""
    budget = Budget(iterations=deals, tree="none")
    values = search.evaluate(view, moves, random.Random(7), budget, knowledge)
    diffs = [a - b for a, b in zip(values[moves[0]], values[moves[1]], strict=True)]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def _interval(xs: list[float]) -> str:
    if len(xs) < 2:
        return "—"
    mean, half = statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("shard", type=Path)
    parser.add_argument("--phase", choices=("bid", "trump", "play"), default="bid")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--ms", type=int, default=100)
    parser.add_argument("--oracle", type=int, default=300)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    groups = [g for g in vs_old_hard.read_shard(args.shard) if "actions" in g["matches"][0]]
    if not groups:
        parser.error("no group in this shard holds its matches' actions")
    old = vs_old_hard.load_old(vs_old_hard.extract())
    old_bots = sys.modules[f"{vs_old_hard.PACKAGE}.bots"]
    old_pottle = importlib.import_module(f"{vs_old_hard.PACKAGE}.bots.pottle")
    spec = groups[0]["spec"]
    game, old_game = tapete.load(spec), old.load(spec)
    out = args.out or Path(f"pottle-positions-{args.phase}.jsonl")
    earlier = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    done = {line["i"]: line for line in earlier}
    lines = []
    with out.open("a") as file:
        found = positions(groups, game, old_game, args.phase)
        for i, (state, old_state, seat, legal) in zip(range(args.positions), found, strict=False):
            if i in done:
                lines.append(done[i])
                continue
            view = game.observe(state, seat)
            new = bots.decide("hard", view, legal, random.Random(i), Budget(ms=args.ms))
            tag = old_pottle.decide(
                "hard",
                old_game.observe(old_state, seat),
                legal,
                random.Random(i),
                old_bots.Budget(ms=args.ms),
            )
            old_move = tag.action if tag.action in legal else legal[0]
            line: dict[str, Any] = {
                "i": i,
                "seat": seat,
                "bids": list(state.bids),
                "declarer": state.declarer,
                "legal": legal,
                "new": new.action,
                "old": old_move,
                "new_deals": _deals(str(new.reason)),
                "old_deals": _deals(str(tag.reason)),
            }
            if new.action != old_move:
                moves = [new.action, old_move]
                line["read"] = _oracle(view, moves, bots.knowledge(view), args.oracle)
                line["plain"] = _oracle(view, moves, _Plain(view.params), args.oracle)
            file.write(json.dumps(line) + "\n")
            file.flush()
            lines.append(line)
    print(table(lines, args.phase))
    return 0


def table(lines: list[dict[str, Any]], phase: str) -> str:
    """The Markdown summary of a run's positions."""
    differ = [x for x in lines if x["new"] != x["old"]]
    rows = [
        "| positions | differ | deals today / tag (median) | oracle, deals read: today − tag "
        "a decision | oracle, deals alike |",
        "|---|---|---|---|---|",
        f"| {len(lines)} | {len(differ)} | "
        f"{statistics.median(x['new_deals'] for x in lines):.0f} / "
        f"{statistics.median(x['old_deals'] for x in lines):.0f} | "
        f"{_interval([x['read'][0] if 'read' in x else 0.0 for x in lines])} | "
        f"{_interval([x['plain'][0] if 'plain' in x else 0.0 for x in lines])} |",
    ]
    if phase == "bid":
        for who, other in (("new", "old"), ("old", "new")):

            def passes(x: dict[str, Any], bot: str) -> bool:
                high = max(x["bids"])
                return high < pottle.HAND and x[bot] - pottle.BID <= high

            mine = [x for x in differ if passes(x, who) and not passes(x, other)]
            cost = sum(x["read"][0] for x in mine)
            rows.append(
                f"\n{'today' if who == 'new' else 'the tag'}: bids without raising while a raise "
                f"is legal in {sum(passes(x, who) for x in lines)} of {len(lines)} positions; "
                f"where the other raised ({len(mine)}), today − tag {cost / len(lines):+.3f} "
                "a decision by the oracle (deals read)"
            )
    if phase == "play":
        for role, test in (("declarer", True), ("defender", False)):
            part = [x for x in lines if (x["declarer"] == x["seat"]) == test]
            rows.append(
                f"\nas {role}: {len(part)} positions, "
                f"{sum(x['new'] != x['old'] for x in part)} differ, oracle "
                f"{_interval([x['read'][0] if 'read' in x else 0.0 for x in part])}"
            )
    return "\n".join(rows)


if __name__ == "__main__":
    raise SystemExit(main())
