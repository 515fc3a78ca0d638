"""What Poch's race search is worth: ``python benchmarks/poch_race.py [--ms 100] [--matches 160]``.

A duplicate arena (``tapete.arena``) of ``poch(rounds=4)`` between hard and the same hard with
medium's leads in the shedding race: both bet as hard does (the poker round is the same search),
so the difference is what hard's search of the race adds to medium's count of it. Prints the
arena's table and the difference a match with its 95% confidence interval.

``--ceiling [--deals 1000]`` measures the race alone, and how much any leader could gain: every
player passes the poker round (so no bet tells anything and no Pinke is won), one seat leads by
the leader under test and the other three by medium, and the same deal is raced again with that
seat leading by medium too; the difference is that seat's chips from the race, every seat of
every deal in turn. The leaders: a player who sees every hand and searches the race exactly (no
real player can: the ceiling), one who draws deals from its view and searches each exactly,
hard, easy and random.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence

from rich.console import Console

import tapete
from tapete import arena, bots
from tapete.bots import Decision
from tapete.bots import poch as poch_bots
from tapete.games import poch


class MediumRace:
    """Hard's bets, medium's leads in the race."""

    kind = "bot"

    def __init__(self, ms: int) -> None:
        self.hard = bots.LevelBot("hard", bots.Budget(ms=ms))
        self.medium = bots.LevelBot("medium")
        self.name = f"hard(ms={ms}) with medium's race"

    def decide(self, view: poch.View, legal: Sequence[int], rng: random.Random) -> Decision:
        racing = len(legal) > 1 and view.phase != poch.Phase.POKER
        decision: Decision = (self.medium if racing else self.hard).decide(view, legal, rng)
        return decision

    def choose(self, view: poch.View, legal: Sequence[int], rng: random.Random) -> int:
        return self.decide(view, legal, rng).action


# --- the race alone: what a leader gains over medium's leads ---------------------------------

Leader = Callable[[poch.State, list[int], random.Random], int]
GAME = "poch(rounds=1)"


def _exact(state: poch.State) -> poch_bots._Race:
    """The exact race search hard uses near the race's end, here without its size limit (a race
    of five cards each is small)."""
    return poch_bots._Race(state.rnd.seats, state.chips, limit=2**62)


def _open_hands(state: poch.State, legal: list[int], rng: random.Random) -> int:
    """Sees every hand: each lead's chips when every player then leads his best (max-n)."""
    race = _exact(state)
    return max(legal, key=lambda c: (race.solve(state.hands, state.turn, c)[state.turn], -c))


def _drawn_deals(samples: int) -> Leader:
    """Draws ``samples`` deals from its view (``sample_state``) and searches each exactly."""

    def lead(state: poch.State, legal: list[int], rng: random.Random) -> int:
        view = poch.observe(state, state.turn)
        total = dict.fromkeys(legal, 0)
        for _ in range(samples):
            world = poch.sample_state(view, rng)
            race = _exact(world)
            for card in legal:
                total[card] += race.solve(world.hands, world.turn, card)[world.turn]
        return max(legal, key=lambda c: (total[c], -c))

    return lead


def _bot(name: str) -> Leader:
    bot = bots.load(name)
    return lambda state, legal, rng: bot.choose(poch.observe(state, state.turn), legal, rng)


@functools.cache
def _leaders(ms: int, samples: int) -> dict[str, Leader]:
    return {
        "sees every hand, searches exactly (no real player can)": _open_hands,
        f"draws {samples} deals from its view, searches each exactly": _drawn_deals(samples),
        f"hard(ms={ms})": _bot(f"hard(ms={ms})"),
        "easy": _bot("easy"),
        "random": _bot("random"),
    }


@functools.cache
def _table() -> tuple[tapete.Game[poch.State, poch.View], Leader]:
    """The game and medium's leads, loaded once per process."""
    return tapete.load(GAME), _bot("medium")


def _race(seed: int, seat: int, lead: Leader | None) -> tuple[int, float, int]:
    """The chips ``seat`` wins or pays in the race of deal ``seed`` (every player passes the poker
    round), leading by ``lead`` (None: medium) while the others lead by medium; the CPU seconds
    and the number of its decisions with a choice."""
    game, medium = _table()
    rng = random.Random(seed * 8 + seat)
    state = game.new_state(seed)
    while state.phase == poch.Phase.POKER:
        state = game.apply(state, poch.PASS)
    before, spent, decisions = state.chips[seat], 0.0, 0
    while game.current_player(state) is not None:
        legal = game.legal_actions(state)
        if state.turn == seat and lead is not None and len(legal) > 1:
            start = time.process_time()
            action = lead(state, legal, rng)
            spent += time.process_time() - start
            decisions += 1
        else:
            action = medium(state, legal, rng)
        state = game.apply(state, action)
    return state.chips[seat] - before, spent, decisions


def _ceiling_task(task: tuple[str, int, int, int, int]) -> tuple[int, float, int]:
    name, ms, samples, seed, seat = task
    won, spent, decisions = _race(seed, seat, _leaders(ms, samples)[name])
    base, _, _ = _race(seed, seat, None)
    return won - base, spent, decisions


def ceiling(deals: int, ms: int, samples: int, workers: int) -> None:
    """Print each leader's chips a race over medium's leads, from the same seat of the same deal."""
    print(f"Poch's race alone ({GAME}, every poker decision a pass), {deals} deals, each seat")
    print("leading in turn against three medium leaders; chips a race over medium's leads:\n")
    print("| leader | races | chips a race over medium's (95% CI) | CPU a decision |")
    print("|---|---|---|---|")
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        for name in _leaders(ms, samples):
            tasks = [(name, ms, samples, d, s) for d in range(deals) for s in range(4)]
            rows = pool.map(_ceiling_task, tasks, chunksize=8)
            # A deal's four races share its cards: the deal, not the race, is the unit.
            by_deal = [
                statistics.fmean(r[0] for r in rows[i : i + 4]) for i in range(0, len(rows), 4)
            ]
            mean = statistics.fmean(by_deal)
            half = 1.96 * statistics.stdev(by_deal) / math.sqrt(len(by_deal))
            per = sum(r[1] for r in rows) / max(1, sum(r[2] for r in rows)) * 1000
            print(
                f"| {name} | {len(rows)} | {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"
                f" | {per:.1f} ms |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ms", type=int, default=100, help="hard's budget a decision")
    parser.add_argument("--matches", type=int, default=160)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--ceiling", action="store_true", help="the race alone (see above)")
    parser.add_argument("--deals", type=int, default=1000, help="with --ceiling: deals raced")
    parser.add_argument("--samples", type=int, default=30, help="with --ceiling: deals drawn")
    parser.add_argument("--workers", type=int, default=2, help="with --ceiling: processes")
    args = parser.parse_args()
    if args.ceiling:
        ceiling(args.deals, args.ms, args.samples, args.workers)
        return
    result = arena.run(
        "poch(rounds=4)",
        [f"hard(ms={args.ms})", MediumRace(args.ms)],
        matches=args.matches,
        workers=1,  # the agent object stays in this process
        seed=args.seed,
    )
    arena.report(result, Console(width=160))


if __name__ == "__main__":
    main()
