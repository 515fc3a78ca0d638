"""A quick duplicate duel between two bots: ``python benchmarks/duel.py SPEC A B GROUPS``.

Each group plays one seed twice, the bots alternating round the table (A B A B, then B A B A; in
team games A takes one team, then the other), and scores A's mean seat (or team) score minus B's.
Prints the mean difference a match and the half-width of its 95% confidence interval (normal
approximation over groups). ``tapete arena`` does the same with more statistics; this is the
light version the bot numbers in docs/bots.md marked "duel" come from.
"""

from __future__ import annotations

import statistics
import sys
import time
from multiprocessing import Pool

import tapete
from tapete.match import play

SPEC, A, B, GROUPS = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])


def group(seed: int) -> float:
    game = tapete.load(SPEC)
    n = game.players
    diff = 0.0
    for pattern in ([A, B] * n, [B, A] * n):
        seats = pattern[:n]
        final, _ = play(game, seats, seed=seed)
        outcome = game.outcome(final)
        assert outcome is not None
        scores = outcome.scores
        if game.teams:
            mine = [t for t in range(2) if seats[game.teams[t][0]] == A]
            sa = sum(scores[t] for t in mine)
            sb = sum(scores[t] for t in range(2) if t not in mine)
        else:
            sa = sum(scores[i] for i in range(n) if seats[i] == A) / seats.count(A)
            sb = sum(scores[i] for i in range(n) if seats[i] == B) / seats.count(B)
        diff += (sa - sb) / 2
    return diff


if __name__ == "__main__":
    start = time.time()
    with Pool(2) as pool:
        diffs = pool.map(group, range(GROUPS))
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    print(
        f"{SPEC} {A} vs {B}: mean diff {mean:+.1f} ± {half:.1f} over {GROUPS} groups "
        f"({time.time() - start:.0f}s)"
    )
