"""Who declares in a Pottle run, at what bid, and how often the contract is made.

``python benchmarks/pottle_auction.py SHARD [SHARD ...]`` replays every match of the shards that
``vs_old_hard.py`` writes (the lines that hold their actions) on today's engine and reports, for
each bot at the table (today's, the tag's and, at a filled table, the filler), per seat and
match: its net chips, the deals it declared, the share of those it made exactly, took more or
fewer tricks than bid, its mean bid (every deal) and mean bid as declarer, the chips it won, and
the share of the other seats' contracts broken while it defended. In Pottle a missed contract
costs the declarer nothing (the pot carries), so whoever bids last may outbid for free: the
report shows whether the bots' chips come from contracts made or from the others' misses.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tapete
from tapete.game import Game

sys.path.insert(0, str(Path(__file__).parent))
from vs_old_hard import replayable

BOTS = ("today", "tag", "filler")  # the bot numbers of a shard's seats: 0, 1, 2


def tally_match(
    game: Game[Any, Any], seed: int, seats: Sequence[int], actions: Sequence[int]
) -> Counter[str]:
    """One match's counts, keyed ``"<bot> <what>"``, replayed from its actions."""
    state = game.new_state(seed)
    counts: Counter[str] = Counter()
    for action in actions:
        state = game.apply(state, action)
        for event in game.events(state):
            data = event.data
            if event.type == "pot":
                declarer = data["declarer"]
                bot = BOTS[seats[declarer]]
                made = data["winner"] == declarer
                counts[f"{bot} declared"] += 1
                counts[f"{bot} made"] += made
                counts[f"{bot} over"] += data["tricks"] > data["bid"]
                counts[f"{bot} under"] += data["tricks"] < data["bid"]
                counts[f"{bot} declared bids"] += data["bid"]
                counts[f"{bot} won"] += data["chips"] if made else 0
                for seat, other in enumerate(seats):
                    if seat != declarer:
                        counts[f"{BOTS[other]} defended"] += 1
                        counts[f"{BOTS[other]} broken"] += data["winner"] is None
            elif event.type == "score":
                for seat, bid in enumerate(data["bids"]):
                    counts[f"{BOTS[seats[seat]]} bids"] += bid
                    counts[f"{BOTS[seats[seat]]} deals"] += 1
                for seat, chips in enumerate(data["score"]):
                    counts[f"{BOTS[seats[seat]]} net"] += chips
    return counts


def tally(groups: Sequence[dict[str, Any]]) -> tuple[Counter[str], int, Counter[str]]:
    """The counts of every match of ``groups``, the number of matches, and each bot's seats
    summed over the matches (a bot's "per seat and match" divides by these)."""
    counts: Counter[str] = Counter()
    matches = 0
    seats: Counter[str] = Counter()
    for group in groups:
        game = tapete.load(group["spec"])
        for match in group["matches"]:
            # update, not +=: a Counter sum drops the negative nets
            counts.update(tally_match(game, group["group_seed"], match["seats"], match["actions"]))
            seats.update(BOTS[bot] for bot in match["seats"])
            matches += 1
    return counts, matches, seats


def main(argv: Sequence[str] | None = None) -> int:
    _, kept, skipped = replayable(__doc__, argv)
    counts, matches, seats = tally(kept)
    print(f"{matches} matches of {len(kept)} groups ({skipped} without actions)")
    print("bot      net  declared  made  over  under  mean bid  declared bid  chips won  broken")
    for bot, per in seats.items():  # per seat and match

        def c(what: str, bot: str = bot) -> int:
            return counts[f"{bot} {what}"]

        declared = max(1, c("declared"))
        print(
            f"{bot:7} {c('net') / per:+5.2f} {c('declared') / per:9.2f} {c('made') / declared:5.0%}"
            f" {c('over') / declared:5.0%} {c('under') / declared:6.0%}"
            f" {c('bids') / c('deals'):9.2f}"
            f" {c('declared bids') / declared:13.2f} {c('won') / per:10.2f}"
            f" {c('broken') / max(1, c('defended')):7.0%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
