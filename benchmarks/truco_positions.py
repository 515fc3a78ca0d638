"""Truco: today's hard and hard-v1 on the same positions, and which of their choices pays.

``python benchmarks/truco_positions.py SHARD... [--positions N] [--every E] [--kinds K,...]
[--ms MS] [--rollouts R] [--oracle-iterations I] [--long BOT]`` replays the matches of
``vs_old_hard.py`` shards (lines that hold their actions) on both engines in step and takes the
decisions today's hard made there (its seats, decisions with a choice), by kind: ``answer`` (a
raise to answer), ``eleven`` (the mão de onze), ``raise`` (a card or a raise), ``card`` (cards
only). At each of the first N of a kind (one in E of those met, in the shards' order), today's
``hard(ms=MS)`` decides from its view and the tag's ``hard(ms=MS)`` from the tag's view of the
same seat, each with its own seeded RNG.

Where the two choose differently, both choices are valued on the **true** deal of the match (the
cards the seats really held: what the other seats' bets really said of their hands): the hand is
played on from the position after each choice, R times, every seat by the tag's
``hard(iterations=I)`` (the flat search, fast at few deals, the same continuation for both
choices), and the points the hand moves for the deciding team are averaged. Over many positions
the mean of (today's choice − the tag's) is an unbiased estimate of what the different decisions
are worth against that continuation, with a 95% interval over positions.

With ``--long`` (``hard(iterations=400)``, say) today's search also decides each position at that
budget (its RNG seeded by the group), to see which of its choices more deals would change;
``--rollouts 0`` skips the valuing.

Prints one line per position (kind, group seed, step, seat, today's choice, the tag's, what
today's is worth over the tag's on the true deal, the long search's choice), then one row per
kind: positions, how many the two decide differently, what today's choice is worth over the
tag's where they differ and over all positions (points a hand, 95% CI over positions), and the
choice pairs; with ``--long``, each kind's choices at both budgets and how they changed.
Positions take a few seconds each (the two searches' budgets, then 2R hands played on).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import tapete
from tapete import bots as new_bots
from tapete.games import truco
from tapete.games.truco import ACCEPT, RAISE, RUN

sys.path.insert(0, str(Path(__file__).parent))
from vs_old_hard import extract, interval, load_old, read_shard

NAMES = {ACCEPT: "accept", RUN: "run", RAISE: "raise"}


def kind_of(state: Any, legal: list[int]) -> str | None:
    if len(legal) < 2:
        return None
    if state.phase == truco.Phase.ANSWER:
        return "answer"
    if state.phase == truco.Phase.ELEVEN:
        return "eleven"
    if RAISE in legal:
        return "raise"
    return "card"


def name(params: Any, action: int) -> str:
    return NAMES.get(action) or ("card" if action < 256 else str(action))


def positions(groups: list[dict[str, Any]], game: Any, old_game: Any, kinds: set[str]) -> Any:
    """(kind, group seed, step, seat, state, old state) of today's hard's decisions, in order."""
    for g in groups:
        seed = g["group_seed"]
        for m in g["matches"]:
            seats = m["seats"]
            state, old_state = game.new_state(seed), old_game.new_state(seed)
            for step, action in enumerate(m["actions"]):
                seat = game.current_player(state)
                legal = list(game.legal_actions(state))
                k = kind_of(state, legal)
                if seats[seat] == 0 and k in kinds:
                    yield k, seed, step, seat, state, old_state
                state = game.apply(state, action)
                old_state = old_game.apply(old_state, action)


def hand_points(game: Any, old_game: Any, state: Any, old_state: Any, bot: Any, rng: Any) -> int:
    """Play the hand of ``state`` out (every seat by ``bot``, the tag's); the points it moves,
    team 0's gain minus team 1's."""
    start = tuple(state.scores)
    number = state.deal.number
    while state.phase != truco.Phase.OVER and state.deal.number == number:
        seat = game.current_player(state)
        legal = list(game.legal_actions(state))
        action = (
            legal[0]
            if len(legal) == 1
            else bot.choose(old_game.observe(old_state, seat), legal, rng)
        )
        state = game.apply(state, action)
        old_state = old_game.apply(old_state, action)
    gained = [int(a) - int(b) for a, b in zip(state.scores, start, strict=True)]
    return gained[0] - gained[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shards", nargs="+", type=Path)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--kinds", default="answer,eleven,raise")
    parser.add_argument("--ms", type=int, default=100)
    parser.add_argument("--new", default=None, help="today's bot (default hard(ms=MS))")
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--oracle-iterations", type=int, default=10)
    parser.add_argument("--every", type=int, default=3, help="take one position in EVERY")
    parser.add_argument(
        "--long", default=None, help="also today's search at a long budget (hard(iterations=N))"
    )
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    old = load_old(extract())
    groups = [g for p in args.shards for g in read_shard(p) if "actions" in g["matches"][0]]
    spec = groups[0]["spec"]
    game, old_game = tapete.load(spec), old.load(spec)
    new_bot = new_bots.load(args.new or f"hard(ms={args.ms})")
    old_bot = old.bots.load(f"hard(ms={args.ms})")
    long_bot = new_bots.load(args.long) if args.long else None
    oracle = old.bots.load(f"hard(iterations={args.oracle_iterations})")
    taken: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    rows: dict[str, list[tuple[str, str, float | None]]] = defaultdict(list)
    longs: dict[str, list[tuple[str, str]]] = defaultdict(list)
    began = time.time()
    for k, seed, step, seat, state, old_state in positions(groups, game, old_game, kinds):
        seen[k] += 1
        if taken[k] >= args.positions or seen[k] % args.every:
            if all(taken[x] >= args.positions for x in kinds):
                break
            continue
        taken[k] += 1
        legal = list(game.legal_actions(state))
        rng = random.Random(seed * 1000 + step)
        a_new = new_bot.choose(game.observe(state, seat), legal, random.Random(rng.random()))
        a_old = old_bot.choose(
            old_game.observe(old_state, seat), legal, random.Random(rng.random())
        )
        a_long = (
            long_bot.choose(game.observe(state, seat), legal, random.Random(seed))
            if long_bot is not None
            else None
        )
        if a_long is not None:
            longs[k].append((name(game.params, a_new), name(game.params, a_long)))
        value = None
        if a_new != a_old and args.rollouts:
            sign = 1 if seat % 2 == 0 else -1
            worth = []
            for a in (a_new, a_old):
                s, o = game.apply(state, a), old_game.apply(old_state, a)
                pts = [
                    sign * hand_points(game, old_game, s, o, oracle, random.Random(seed + 7919 * r))
                    for r in range(args.rollouts)
                ]
                worth.append(statistics.fmean(pts))
            value = worth[0] - worth[1]
        rows[k].append((name(game.params, a_new), name(game.params, a_old), value))
        print(
            k,
            seed,
            step,
            seat,
            name(game.params, a_new),
            name(game.params, a_old),
            value,
            a_long is not None and name(game.params, a_long),
            flush=True,
        )
    print(f"\n{time.time() - began:.0f} s; {spec}; today's {args.new or f'hard(ms={args.ms})'}")
    print(
        "| kind | positions | differ | today's − tag's where they differ (95% CI)"
        " | over all positions | pairs (today/tag) |"
    )
    print("|---|---|---|---|---|---|")
    for k in sorted(rows):
        r = rows[k]
        diffs = [v for _, _, v in r if v is not None]
        pairs = Counter(f"{a}/{b}" for a, b, v in r if v is not None)
        if len(diffs) >= 2:
            mean, lo, hi = interval(diffs)
            every = [v or 0.0 for _, _, v in r]
            m2, lo2, hi2 = interval(every)
            ci = f"{mean:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            ci2 = f"{m2:+.3f} [{lo2:+.3f}, {hi2:+.3f}]"
        else:
            ci = ci2 = "-"
        print(f"| {k} | {len(r)} | {len(diffs)} | {ci} | {ci2} | {dict(pairs)} |")
    for k in sorted(longs):
        short = Counter(a for a, _ in longs[k])
        long = Counter(b for _, b in longs[k])
        both = Counter(f"{a}->{b}" for a, b in longs[k] if a != b)
        print(
            f"{k}: at the decision's budget {dict(short)}; at {args.long} {dict(long)};"
            f" changed {dict(both)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
