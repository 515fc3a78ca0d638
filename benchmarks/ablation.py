"""What each game's knowledge adds to the search: ``python benchmarks/ablation.py [--only TEXT]``.

Every row is one duplicate arena (``tapete arena``) of ``hard(ms=100)`` against the same search
with part of the game's knowledge taken away, at the same CPU time a decision:

- ``rollout=random``: deals played out by uniformly random legal actions through the rules engine
  (bids, bets and declarations included) rather than the game's playout policy, and no exact
  endgame values;
- ``prior=none``: every option raced at the root, and nodes below it without ordering or widening;
- both: the search with nothing of the game but its rules and its score.

A random playout is cheaper than an informed one, so at equal time the ablated search samples
more deals: the rows measure what the knowledge is worth once its cost is paid. Matches are
deal-sized where a whole match is long. Both bots run on a CPU-time budget, so play with no more
workers than free cores. Each arena's JSON lands in ``--out`` and is read back on a later run, as
in ``strength.py``; rows print as they finish, each with its ``tapete arena`` command.
"""

from __future__ import annotations

from strength import Row, arguments, command, play

from tapete import arena

HARD = "hard(ms=100)"
ABLATIONS = (
    "hard(ms=100, rollout=random)",
    "hard(ms=100, prior=none)",
    "hard(ms=100, rollout=random, prior=none)",
)
GAMES = (  # (label, spec, matches: two a duplicate group)
    ("Pocha 4p, one hand of 5", "pocha(schedule=[5], tiebreak_players=nobody)", 80),
    ("Oh Hell 4p, one hand of 7", "oh_hell(schedule=[7], tiebreak_players=nobody)", 80),
    ("Tute 2p", "tute", 80),
    ("Tute 4p", "tute(players=4)", 60),
    ("Truco 1v1, to 6 points", "truco(target=6)", 80),
    ("Truco 2v2, to 6 points", "truco(players=4, target=6)", 60),
    ("Poch 4p, one round", "poch(rounds=1)", 80),
)
# Not Pottle: two searches at one table outbid each other until no contract can be made, so
# nearly every score is 0 whatever either knows (docs/bots.md, the rows against hard-v1).


def rows(ablations: tuple[str, ...]) -> list[Row]:
    return [
        Row(label, spec, HARD, ablated, matches, seed=7, workers=None)
        for label, spec, matches in GAMES
        for ablated in ablations
    ]


def markdown(row: Row, result: arena.ArenaResult) -> str:
    d = result.difference(row.bot, row.other)
    without = row.other.removeprefix("hard(ms=100, ").removesuffix(")")
    diff = f"{d.mean:+.2f} [{d.low:+.2f}, {d.high:+.2f}]"
    return f"| {row.label} | {without} | {result.groups} | {diff} | `{command(row)}` |"


def main() -> None:
    parser = arguments(__doc__.split("\n")[0])
    parser.add_argument(
        "--ablation",
        action="append",
        choices=ABLATIONS,
        help="the ablated search to play (repeatable; default: all three)",
    )
    args = parser.parse_args()
    header = "| game | without | groups | hard − ablated, a match (95% CI) | command |"
    play(rows(tuple(args.ablation or ABLATIONS)), args, header, markdown)


if __name__ == "__main__":
    main()
