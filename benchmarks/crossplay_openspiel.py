"""Duplicate cross-play in Oh Hell: a tapete bot against OpenSpiel's C++ IS-MCTS at equal CPU.

Needs the ``openspiel`` extra (``pip install -e '.[openspiel]'``). From the project folder::

    python benchmarks/crossplay_openspiel.py --bot "hard(ms=100)" --pairs 200 --out OUT/hard100
    python benchmarks/crossplay_openspiel.py --bot hard --ratio 4 --pairs 40 --out OUT/hard-4x
    python benchmarks/crossplay_openspiel.py --report OUT/hard100 OUT/hard-4x

**The game.** OpenSpiel's ``oh_hell`` (C++ rules) and tapete's ``oh_hell`` of the same shape
(``tapete.interop.oh_hell``; 4 players, 4 suits of 10, 9 tricks by default) run in lockstep: every
deal is dealt once, by this script, into both engines; at every decision both must offer the same
legal actions, and at the end both must give the same scores, or the run stops with the
difference. OpenSpiel's state is the referee for the IS-MCTS seats, tapete's views for the tapete
seats.

**Duplicate pairs.** Pair ``s`` deals one hand (from the seed ``s``) twice: tapete's bot on seats 0
and 2 against IS-MCTS on 1 and 3, then the other way round. Its value is the mean, over its two
deals, of the points of tapete's seats minus the points of IS-MCTS's seats (each side's seats
added up), in Oh Hell points: a point a trick, 10 for an exact bid. The table gives the mean
over pairs with its 95% confidence interval, the exact-bid rates and the CPU per decision of
each side.

**The opponent** is ``pyspiel.ISMCTSBot`` (uct_c 2, one random rollout per leaf, unlimited
world samples, the most visited action) with its simulations **calibrated to the same CPU per
decision** as the tapete bot: a short calibration (``--calibration-deals``) measures the tapete
bot's CPU per bid and per play and IS-MCTS's CPU per simulation for each, and sets the two
simulation counts so that IS-MCTS spends ``--ratio`` times tapete's CPU on each decision type
(``--sims B,P`` fixes them instead). CPU is ``time.process_time`` around each decision, so load
from other programs slows both sides alike. Decisions with one legal action are applied without
asking either bot.

**Borrowed decisions.** ``--borrow bid`` (or ``play``) is a diagnostic that splits a bot's
strength in two: tapete's seats take that decision type from an IS-MCTS with the opponent's
simulations and the other from the bot, so the table shows what the bot's play (or bidding)
is worth with IS-MCTS's bidding (or play).

**What IS-MCTS knows.** OpenSpiel's ``oh_hell`` draws the determinizations of its IS-MCTS with
``ResampleFromInfostate``, which shuffles only the cards dealt to the other seats: the cards left
in the deck (3 of the 40 in the 4-player, 9-trick hand) are never put in a sampled hand, so the
search knows which cards are out of play, which a player at the table cannot. tapete's sampler
deals the unseen cards over the other hands and the undealt rest alike. ``--tapete-knows-undealt``
is the diagnostic that levels this: tapete's seats are told the undealt cards too (as cards no
seat holds), so both searches play on the same information.

**Shards.** Every finished pair is a JSON line in ``OUT/pairs-*.jsonl``; the run's settings and
calibration are in ``OUT/config.json``. Running the same command again skips the pairs done, so
a long run can span sessions (or machines: copy the folder); ``--report`` reads any number of
folders and prints the table.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tapete
from tapete import bots
from tapete.cards import CardSet
from tapete.interop.oh_hell import OhHellShape

try:
    import pyspiel
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("crossplay_openspiel.py needs OpenSpiel: pip install -e '.[openspiel]'")

KINDS = ("bid", "play")
# A bot's budget is CPU time, capped at a few times as much wall time so a starved bot still
# answers; here both sides are measured in CPU, so a busy machine must not cut the bot short.
bots.Clock.WALL_CAP = 1000
PROBE_SIMS = 400


@dataclass
class Cpu:
    """CPU seconds and decisions, per decision type."""

    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    decisions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))

    def add(self, kind: str, seconds: float) -> None:
        self.seconds[kind] += seconds
        self.decisions[kind] += 1

    def to_json(self) -> dict[str, list[float]]:
        return {k: [self.seconds[k], self.decisions[k]] for k in KINDS}


@dataclass(frozen=True)
class Settings:
    bot: str
    shape: OhHellShape
    sims: dict[str, int]
    uct_c: float = 2.0
    borrow: str | None = None  # "bid" or "play": tapete's seats take it from an IS-MCTS
    undealt: bool = False  # tapete's seats are told the undealt cards, as IS-MCTS finds them


class DivergenceError(RuntimeError):
    """The two engines disagree: a bug in one of them or in the mapping."""


def deal_of(shape: OhHellShape, seed: int) -> tuple[int, list[int]]:
    """The dealer and OpenSpiel's dealt cards (hands, then the turned card) of pair ``seed``."""
    rng = random.Random(f"crossplay-oh-hell:{seed}")
    cards = shape.suits * shape.ranks
    return rng.randrange(shape.players), rng.sample(range(cards), shape.players * shape.tricks + 1)


def ismcts(seed: int, sims: int, uct_c: float) -> Any:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(
        seed, evaluator, uct_c, sims, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
    )


def play_deal(
    settings: Settings, seed: int, tapete_seats: frozenset[int], cpu: dict[str, Cpu]
) -> dict[str, Any]:
    """One deal in both engines; returns the seats' scores, bids and tricks."""
    shape = settings.shape
    dealer, dealt = deal_of(shape, seed)
    game = tapete.load(shape.spec)
    setup = shape.setup(dealer, dealt, seed)
    state = game.new_state(setup.seed, decks=setup.decks, dealer=setup.dealer)
    os_game = pyspiel.load_game("oh_hell", shape.openspiel_params())
    os_state = os_game.new_initial_state()
    for action in [shape.tricks, dealer, *dealt]:
        os_state.apply_action(action)
    bot = bots.load(settings.bot)
    undealt = sum(1 << shape.card_from_openspiel(c) for c in range(shape.suits * shape.ranks))
    for card in dealt:
        undealt &= ~(1 << shape.card_from_openspiel(card))
    rngs = {seat: random.Random(f"{seed}:{seat}") for seat in tapete_seats}
    searchers = {
        kind: ismcts(seed * 2 + k, settings.sims[kind], settings.uct_c)
        for k, kind in enumerate(KINDS)
    }
    borrowed = {
        kind: ismcts(seed * 2 + 7 + k, settings.sims[kind], settings.uct_c)
        for k, kind in enumerate(KINDS)
    }
    while not os_state.is_terminal():
        seat = os_state.current_player()
        if game.current_player(state) != seat:
            raise DivergenceError(f"seed {seed}: OpenSpiel has seat {seat} to act, tapete another")
        legal = game.legal_actions(state)
        os_legal = os_state.legal_actions()
        if sorted(shape.action_to_openspiel(a) for a in legal) != sorted(os_legal):
            raise DivergenceError(f"seed {seed}: legal actions differ at {os_state.history_str()}")
        kind = "bid" if os_state.legal_actions()[0] >= shape.suits * shape.ranks else "play"
        if len(legal) == 1:
            action = legal[0]
        elif seat in tapete_seats and kind == settings.borrow:
            start = time.process_time()
            action = shape.action_from_openspiel(borrowed[kind].step(os_state))
            cpu["tapete"].add(kind, time.process_time() - start)
        elif seat in tapete_seats:
            start = time.process_time()
            view = game.observe(state, seat)
            if settings.undealt:
                view = told_undealt(view, undealt)
            action = bot.choose(view, legal, rngs[seat])
            cpu["tapete"].add(kind, time.process_time() - start)
        else:
            start = time.process_time()
            os_action = searchers[kind].step(os_state)
            cpu["ismcts"].add(kind, time.process_time() - start)
            action = shape.action_from_openspiel(os_action)
        state = game.apply(state, action)
        os_state.apply_action(shape.action_to_openspiel(action))
    outcome = game.outcome(state)
    returns = [round(r) for r in os_state.returns()]
    if outcome is None or list(outcome.scores) != returns:
        raise DivergenceError(f"seed {seed}: scores {returns} in OpenSpiel, {outcome} in tapete")
    view = game.observe(state, None)
    return {
        "tapete_seats": sorted(tapete_seats),
        "scores": returns,
        "bids": list(view.bids),
        "tricks": list(view.won),
    }


def told_undealt(view: Any, undealt: int) -> Any:
    """``view`` with the undealt cards known not to be in any hand: what OpenSpiel's ``oh_hell``
    resampling gives its IS-MCTS (it shuffles only the cards dealt to the other seats, so the
    cards left in the deck never reach a sampled hand). A diagnostic, never a player's view."""
    excluded = tuple(CardSet(m.mask | undealt) for m in view.excluded)
    return dataclasses.replace(view, excluded=excluded)


def play_pair(settings: Settings, seed: int) -> dict[str, Any]:
    players = settings.shape.players
    cpu = {"tapete": Cpu(), "ismcts": Cpu()}
    deals = [
        play_deal(settings, seed, frozenset(s for s in range(players) if s % 2 == side), cpu)
        for side in (0, 1)
    ]
    return {"seed": seed, "deals": deals, "cpu": {k: v.to_json() for k, v in cpu.items()}}


# --- calibration -------------------------------------------------------------------------------


def calibrate(bot: str, shape: OhHellShape, deals: int, ratio: float) -> dict[str, Any]:
    """Simulations per decision type that give IS-MCTS ``ratio`` times the bot's CPU."""
    probe = Settings(bot, shape, dict.fromkeys(KINDS, PROBE_SIMS))
    cpu = {"tapete": Cpu(), "ismcts": Cpu()}
    for k in range(deals):
        play_deal(probe, 10**9 + k, frozenset(s for s in range(shape.players) if s % 2 == 0), cpu)
    tapete_cpu = {k: cpu["tapete"].seconds[k] / max(1, cpu["tapete"].decisions[k]) for k in KINDS}
    per_sim = {
        k: cpu["ismcts"].seconds[k] / max(1, cpu["ismcts"].decisions[k]) / PROBE_SIMS for k in KINDS
    }
    sims = {k: max(1, round(ratio * tapete_cpu[k] / per_sim[k])) for k in KINDS}
    return {"tapete_cpu": tapete_cpu, "ismcts_cpu_per_sim": per_sim, "sims": sims}


# --- shards ------------------------------------------------------------------------------------


def load_config(out: Path, wanted: dict[str, Any]) -> dict[str, Any] | None:
    path = out / "config.json"
    if not path.exists():
        return None
    config: dict[str, Any] = json.loads(path.read_text())
    mismatched = [k for k, v in wanted.items() if config.get(k) != v]
    if mismatched:
        sys.exit(
            f"{out} holds a run with other settings ({', '.join(mismatched)}): use another --out"
        )
    return config


def done_seeds(out: Path) -> set[int]:
    return {pair["seed"] for pair in read_pairs(out)}


def read_pairs(out: Path) -> Iterator[dict[str, Any]]:
    for shard in sorted(out.glob("pairs-*.jsonl")):
        for line in shard.read_text().splitlines():
            if line.strip():
                yield json.loads(line)


def worker(args: tuple[Settings, Path, list[int], str]) -> int:
    settings, out, seeds, number = args
    with (out / f"pairs-{number}.jsonl").open("a") as shard:
        for seed in seeds:
            shard.write(json.dumps(play_pair(settings, seed)) + "\n")
            shard.flush()
    return len(seeds)


def run(options: argparse.Namespace) -> None:
    shape = OhHellShape(options.players, options.suits, options.ranks, options.tricks)
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    wanted = {"bot": options.bot, "shape": shape.spec, "ratio": options.ratio}
    if options.borrow:
        wanted["borrow"] = options.borrow
    if options.undealt:
        wanted["undealt"] = True
    config = load_config(out, wanted)
    if config is None:
        if options.sims:
            bid, play = (int(x) for x in options.sims.split(","))
            config = {**wanted, "sims": {"bid": bid, "play": play}, "calibration": None}
        else:
            print(f"calibrating on {options.calibration_deals} deals ...", file=sys.stderr)
            calibration = calibrate(options.bot, shape, options.calibration_deals, options.ratio)
            config = {**wanted, "sims": calibration["sims"], "calibration": calibration}
        config["uct_c"] = options.uct_c
        (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    borrow = config.get("borrow")
    settings = Settings(
        options.bot, shape, config["sims"], config["uct_c"], borrow, bool(config.get("undealt"))
    )
    print(f"IS-MCTS simulations: {config['sims']}", file=sys.stderr)
    todo = [
        s for s in range(options.seed, options.seed + options.pairs) if s not in done_seeds(out)
    ]
    stamp = f"{int(time.time())}"
    jobs = [
        (settings, out, todo[w :: options.workers], f"{stamp}-{w}")
        for w in range(options.workers)
        if todo[w :: options.workers]
    ]
    if options.workers == 1:
        for job in jobs:
            worker(job)
    else:
        with multiprocessing.Pool(options.workers) as pool:
            pool.map(worker, jobs)
    report([out])


# --- the table ---------------------------------------------------------------------------------


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def summarise(out: Path) -> dict[str, Any]:
    config = json.loads((out / "config.json").read_text())
    pairs = list(read_pairs(out))
    values, exact, cpu = [], {"tapete": [0, 0], "ismcts": [0, 0]}, {}
    totals = {side: {k: [0.0, 0] for k in KINDS} for side in ("tapete", "ismcts")}
    for pair in pairs:
        diffs = []
        for deal in pair["deals"]:
            ours = [deal["scores"][s] for s in deal["tapete_seats"]]
            theirs = [
                deal["scores"][s]
                for s in range(len(deal["scores"]))
                if s not in deal["tapete_seats"]
            ]
            diffs.append(sum(ours) - sum(theirs))
            for seat, (bid, won) in enumerate(zip(deal["bids"], deal["tricks"], strict=True)):
                side = "tapete" if seat in deal["tapete_seats"] else "ismcts"
                exact[side][0] += bid == won
                exact[side][1] += 1
        values.append(statistics.fmean(diffs))
        for side, kinds in pair["cpu"].items():
            for kind, (seconds, n) in kinds.items():
                totals[side][kind][0] += seconds
                totals[side][kind][1] += n
    for side, kinds in totals.items():
        all_s = sum(s for s, _ in kinds.values())
        all_n = sum(n for _, n in kinds.values())
        cpu[side] = {k: 1000 * s / max(1, n) for k, (s, n) in kinds.items()}
        cpu[side]["all"] = 1000 * all_s / max(1, all_n)
    return {
        "out": str(out),
        "bot": config["bot"],
        "borrowed": (f", {config['borrow']}s by IS-MCTS" if config.get("borrow") else "")
        + (", told the undealt cards" if config.get("undealt") else ""),
        "sims": config["sims"],
        "ratio": config["ratio"],
        "pairs": len(values),
        "diff": mean_ci(values) if values else (math.nan, math.nan, math.nan),
        "exact": {side: e / max(1, n) for side, (e, n) in exact.items()},
        "cpu_ms": cpu,
    }


def report(outs: Sequence[Path]) -> None:
    print(
        "| run | tapete bot | CPU/decision ms (bid, play, all) | IS-MCTS sims (bid, play) |"
        " CPU/decision ms (bid, play, all) | pairs | tapete − IS-MCTS a deal (95% CI) |"
        " exact bids tapete / IS-MCTS |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for out in outs:
        row = summarise(out)
        t, o = row["cpu_ms"]["tapete"], row["cpu_ms"]["ismcts"]
        mean, low, high = row["diff"]
        print(
            f"| {out.name} | `{row['bot']}`{row['borrowed']}"
            f" | {t['bid']:.1f}, {t['play']:.1f}, {t['all']:.1f}"
            f" | {row['sims']['bid']:,}, {row['sims']['play']:,}"
            f" | {o['bid']:.1f}, {o['play']:.1f}, {o['all']:.1f} | {row['pairs']}"
            f" | {mean:+.2f} ({low:+.2f}, {high:+.2f})"
            f" | {row['exact']['tapete']:.0%} / {row['exact']['ismcts']:.0%} |"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="hard(ms=100)", help="the tapete bot (a level name)")
    parser.add_argument("--pairs", type=int, default=200, help="duplicate pairs to have in OUT")
    parser.add_argument("--out", help="the folder of this run's shards (resumed when it exists)")
    parser.add_argument("--ratio", type=float, default=1.0, help="IS-MCTS CPU / tapete CPU")
    parser.add_argument("--sims", help="fixed IS-MCTS simulations 'BID,PLAY' (no calibration)")
    parser.add_argument(
        "--borrow",
        choices=KINDS,
        help="a diagnostic: tapete's seats take their bids (or plays) from an IS-MCTS with the "
        "opponent's simulations, the rest from the bot",
    )
    parser.add_argument(
        "--tapete-knows-undealt",
        dest="undealt",
        action="store_true",
        help="a diagnostic: tapete's seats are told which cards were not dealt, as OpenSpiel's "
        "resampling tells its IS-MCTS",
    )
    parser.add_argument("--calibration-deals", type=int, default=6)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=1, help="processes (one per free core)")
    parser.add_argument("--seed", type=int, default=0, help="the first pair's seed")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--ranks", type=int, default=10)
    parser.add_argument("--tricks", type=int, default=9)
    parser.add_argument("--report", nargs="+", metavar="OUT", help="print the table of runs")
    options = parser.parse_args(argv)
    if options.report:
        report([Path(p) for p in options.report])
    elif options.out:
        try:
            bots.load(options.bot)  # refused here in a line, not by a worker's traceback
        except tapete.SpecError as error:
            parser.error(f"--bot: {error}")
        run(options)
    else:
        parser.error("give --out (to play) or --report")


if __name__ == "__main__":
    main()
