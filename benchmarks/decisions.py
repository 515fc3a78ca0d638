"""One kind of decision at a time: bots compared on the same deals, every other decision fixed.

``python benchmarks/decisions.py --spec "pottle(deals=4, extra_deals=0)" --phase bid
--bots "hard(ms=100),medium" --deals 150 --out results/decisions/`` plays the first deal of each
seed once per seat and per bot under test: that seat's decisions in the named phase (the game's
``Phase``: ``bid``, ``play``, ``trump``, ``answer``, ``eleven``, ``poker``, ``shedding``) are the
bot's, its other decisions are ``--rest``'s (default ``medium``), and every other seat plays as
``--filler`` (default ``medium``). The value is that seat's return from the deal as the search
counts it (``Knowledge.returns``: points, chips or stakes, a fair share of a pot carried over).
Only a match's first deal is played, so a phase that comes later in a match (Truco's mão de
onze, at 11 points) never comes, and the run says that nothing was compared.

**Paired.** Every bot plays the same deals from the same seats, and the other players' and the
rest's random choices come from generators seeded by (deal, seat) alone, so two bots that make
the same decisions get the same value and only a different decision moves the difference
(``--rest`` and ``--filler`` should be deterministic: ``medium``, or a search with
``iterations=N``; a time budget makes them differ by the clock). The table gives each bot's mean
return a seat and deal, and its difference from the first bot with a 95% Student-t interval,
the deal being the unit (a deal's seats are not independent): a deal's difference is the mean
over its seats. ``changed`` is the share of (deal, seat) pairs whose value differs from the
first bot's; ``cpu`` the median CPU time of the bot's decisions in the phase (those with a
choice).

**Resumable.** Each deal played by a bot is one JSON line in ``<out>/<spec>--<phase>--<rest>--
<filler>.jsonl``; a later run with the same options skips the (deal, bot) lines already there.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import tapete
from tapete import arena, bots

sys.path.insert(0, str(Path(__file__).parent))
from vs_old_hard import interval, read_shard


def phase_names(game: tapete.Game[Any, Any]) -> list[str]:
    """The phases of ``game`` a decision can be in (``Phase`` less the match's end)."""
    return [p.name.lower() for p in _phases(game) if p.name != "OVER"]


def _phases(game: tapete.Game[Any, Any]) -> Any:
    return game.rules.Phase  # type: ignore[attr-defined]


def play_deal(spec: str, phase: str, bot: str, rest: str, filler: str, deal: int) -> dict[str, Any]:
    """Deal ``deal`` played once per seat, that seat's ``phase`` decisions by ``bot``: each
    seat's return, the bot's decisions with a choice, and their CPU seconds."""
    game = tapete.load(spec)
    wanted = int(_phases(game)[phase.upper()])
    start = game.new_state(seed=deal)
    tested, other, fill = bots.load(bot), bots.load(rest), bots.load(filler)
    knowledge = bots.knowledge(game.observe(start, 0))  # the horizon and returns, every seat's
    returns: list[float] = []
    cpu: list[float] = []
    for seat in range(game.players):
        rng_bot, rng_rest, rng_fill = (_rng(deal, seat, k) for k in range(3))
        state = start
        while game.outcome(state) is None and not knowledge.deal_over(start, state):
            mover = game.current_player(state)
            legal = game.legal_actions(state)
            view = game.observe(state, mover)
            if mover != seat:
                action = fill.choose(view, legal, rng_fill)
            elif int(getattr(state, "phase", 0)) == wanted:  # Tute keeps no phase: it has one
                began = time.process_time()
                action = tested.choose(view, legal, rng_bot)
                if len(legal) > 1:
                    cpu.append(time.process_time() - began)
            else:
                action = other.choose(view, legal, rng_rest)
            state = game.apply(state, action)
        returns.append(float(knowledge.returns(start, state)[seat]))
    return {"deal": deal, "bot": bot, "returns": returns, "cpu": cpu}


def _rng(deal: int, seat: int, kind: int) -> random.Random:
    return random.Random(f"{deal}/{seat}/{kind}")


def shard(out: Path, spec: str, phase: str, rest: str, filler: str) -> Path:
    name = re.sub(r"[^A-Za-z0-9=_.,-]+", "_", f"{spec}--{phase}--{rest}--{filler}")
    return out / f"{name}.jsonl"


def table(lines: Sequence[dict[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """Per bot: deals, mean return a seat and deal, the paired difference from the first bot
    (mean and 95% interval over deals), the share of seats changed, median CPU a decision, and
    how many decisions with a choice the bot made."""
    by: dict[str, dict[int, list[float]]] = {n: {} for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    for line in lines:
        if line["bot"] in by:
            by[line["bot"]][line["deal"]] = line["returns"]
            cpu[line["bot"]] += line["cpu"]
    base = by[names[0]]
    rows = []
    for name in names:
        deals = sorted(set(by[name]) & set(base))
        mine = [statistics.fmean(by[name][d]) for d in deals]
        diffs = [m - statistics.fmean(base[d]) for m, d in zip(mine, deals, strict=True)]
        seats = [(a, b) for d in deals for a, b in zip(by[name][d], base[d], strict=True)]
        rows.append(
            {
                "bot": name,
                "deals": len(deals),
                "mean": statistics.fmean(mine) if mine else 0.0,
                "difference": interval(diffs) if len(diffs) > 1 else (0.0, 0.0, 0.0),
                "changed": sum(a != b for a, b in seats) / max(1, len(seats)),
                "cpu_ms": 1000 * statistics.median(cpu[name]) if cpu[name] else 0.0,
                "decisions": len(cpu[name]),
            }
        )
    return rows


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    game = tapete.load(args.spec)
    if args.phase not in phase_names(game):
        raise SystemExit(
            f"--phase {args.phase}: {game.name} decides in {', '.join(phase_names(game))}"
        )
    names = arena.split_bots(args.bots)
    for name in {*names, args.rest, args.filler}:
        bots.load(name)  # a bad name stops the run before any deal is played
    args.out.mkdir(parents=True, exist_ok=True)
    path = shard(args.out, args.spec, args.phase, args.rest, args.filler)
    done = {(line["deal"], line["bot"]) for line in read_shard(path)}
    tasks = [
        (args.spec, args.phase, name, args.rest, args.filler, deal)
        for deal in range(args.seed, args.seed + args.deals)
        for name in names
        if (deal, name) not in done
    ]
    with path.open("a") as f:
        for line in _map(tasks, args.workers):
            f.write(json.dumps(line) + "\n")
            f.flush()
    wanted = range(args.seed, args.seed + args.deals)
    return table([line for line in read_shard(path) if line["deal"] in wanted], names)


def _map(tasks: list[tuple[Any, ...]], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(tasks) <= 1:
        yield from (play_deal(*task) for task in tasks)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(play_deal, *zip(*tasks, strict=True), chunksize=1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", required=True, help="the game, e.g. 'poch(rounds=4)'")
    parser.add_argument("--phase", required=True, help="the decisions under test")
    parser.add_argument("--bots", required=True, help="bots to compare, the first the baseline")
    parser.add_argument("--rest", default="medium", help="the seat's other decisions")
    parser.add_argument("--filler", default="medium", help="every other seat")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/decisions"))
    args = parser.parse_args(argv)
    print(f"{args.spec}: {args.phase} decisions; rest {args.rest}, others {args.filler}")
    print("| bot | deals | return a seat | − first bot (95% CI) | changed | CPU a decision |")
    print("|---|---|---|---|---|---|")
    rows = run(args)
    for row in rows:
        mean, low, high = row["difference"]
        print(
            f"| {row['bot']} | {row['deals']} | {row['mean']:+.3f} | {mean:+.3f} "
            f"[{low:+.3f}, {high:+.3f}] | {100 * row['changed']:.0f}% | {row['cpu_ms']:.1f} ms |"
        )
    if not any(row["decisions"] for row in rows):
        print(f"No seat had a choice in phase {args.phase} in these deals: nothing was compared.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
