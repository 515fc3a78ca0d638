"""Fit a model of the tricks skilled play takes for a bid in Oh Hell, from the cross-play shards.

Needs NumPy and the ``openspiel`` extra (the deals are dealt by ``crossplay_openspiel.deal_of``).
From the project folder::

    python benchmarks/bid_model.py benchmarks/results/crossplay/* --workers 2

**The question.** hard values a bid by random playouts: the tricks its seat takes when the rest
of the hand is played with uniformly random cards. The real hand is played by searches that steer
toward their bids, so the tricks taken differ from the playouts' in a systematic way.

**The data.** Every deal of every shard folder of the 4-player, 40-card, 9-trick shape whose
seats play with a search (``LEFT_OUT`` says which rows are not used) gives four seat-hands:
the seat's bid and the tricks it took (pairs of seeds from ``--below`` on are kept out: the
cross-play rows that test a bid model start there). The deal follows from the pair's seed; each
seat's view at its bid is rebuilt (its hand, the turned card, the bids before it) and hard's own
deal sampler (the bids read) draws ``--playouts`` deals from it, each played out with random
cards: a histogram ``p`` of the seat's tricks under random play.

**The model.** A conditional logit over the tricks taken: for a bid ``b``, tricks ``t`` have
probability proportional to ``p(t) * exp(exact [t = b] - under (b - t)+ - over (t - b)+)``, with
its own ``over`` for a bid of nothing: four numbers in tricks, fitted by maximum likelihood
(Newton's method). The held-out seeds (a fifth, split by seed: the same deals recur in several
rows) compare it with random play's own prediction (``p`` itself) by the log-loss of the tricks
taken and of "made the bid", and with random play's ``p(b)`` recalibrated by a logistic fit.

**Tried in hard, not kept.** hard bid by these four numbers (``BID_PULL``; the bid with the best
expected score under the pulled tricks, from the random playouts of its whole budget) in the
row ``hard-100ms-v6-pulled-bids`` of ``benchmarks/results/crossplay`` (``change.diff`` there):
it bid one more than before in two hands of five and lost as many exact bids as the tricks it
gained, no better than the same deals without it (docs/bots.md).
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
from crossplay_openspiel import deal_of

import tapete
from tapete.bots import pocha as pocha_bots
from tapete.games import pocha
from tapete.interop.oh_hell import OhHellShape

SHAPE = OhHellShape()
# Seats that do not play with a search, and the row of an experiment not kept (bids valued by
# playouts aimed at them; with it the four numbers move by less than 0.03).
LEFT_OUT = {"random", "medium", "hard-100ms-aimed-bids-ismcts-play"}
SMOOTH = 0.05  # playouts added to every count of tricks, so no count has probability 0
NAMES = ("exact", "under", "over", "over_nothing")


def histograms(item: tuple[int, tuple[int, ...], int]) -> dict[int, list[int]]:
    """Per seat, how many of ``playouts`` random playouts from its bidding view took 0..9 tricks."""
    seed, bids, playouts = item
    game = tapete.load(SHAPE.spec)
    dealer, dealt = deal_of(SHAPE, seed)
    setup = SHAPE.setup(dealer, dealt, seed)
    state = game.new_state(setup.seed, decks=setup.decks, dealer=setup.dealer)
    out = {}
    while state.phase == pocha.Phase.BID:
        seat = game.current_player(state)
        assert seat is not None
        view = game.observe(state, seat)
        rng = random.Random(f"{seed}:{seat}:{bids}")
        draw = pocha_bots.knowledge(view).sampler(view)
        counts = [0] * (SHAPE.tricks + 1)
        for _ in range(playouts):
            _, won = pocha_bots._rollout(pocha.apply(draw(rng), game.legal_actions(state)[0]), rng)
            counts[won[seat]] += 1
        out[seat] = counts
        state = game.apply(state, pocha.BID + bids[seat])
    return out


def seat_hands(folders: list[str], playouts: int, workers: int, below: int) -> list[dict[str, Any]]:
    """Every seat-hand of the folders' pairs of seeds below ``below``: seed, bid, tricks taken and
    the random-play histogram."""
    deals = []
    for folder in folders:
        config = json.loads((Path(folder) / "config.json").read_text())
        if Path(folder).name in LEFT_OUT or config["shape"] != SHAPE.spec:
            continue
        for shard in sorted(glob.glob(f"{folder}/pairs-*.jsonl")):
            for line in Path(shard).read_text().splitlines():
                pair = json.loads(line)
                if pair["seed"] >= below:
                    continue
                deals += [(pair["seed"], d["bids"], d["tricks"]) for d in pair["deals"]]
    # The same seeds recur in several rows, often with the same bids: one histogram each.
    items = sorted({(seed, tuple(bids), playouts) for seed, bids, _ in deals})
    with Pool(workers) as pool:
        found = dict(zip(items, pool.map(histograms, items, chunksize=8), strict=True))
    return [
        {
            "seed": seed,
            "bid": bids[s],
            "tricks": tricks[s],
            "counts": found[seed, tuple(bids), playouts][s],
        }
        for seed, bids, tricks in deals
        for s in range(SHAPE.players)
    ]


def features(bids: np.ndarray) -> np.ndarray:
    """The model's features of every count of tricks t for each bid: rows, t, the four names."""
    t = np.arange(SHAPE.tricks + 1)[None, :]
    b = bids[:, None]
    nothing = b == 0
    return np.stack(
        [
            (t == b).astype(float),
            -np.maximum(b - t, 0),
            -np.maximum(t - b, 0) * ~nothing,
            -np.maximum(t - b, 0) * nothing,
        ],
        axis=-1,
    )


def tricks_given_bid(theta: np.ndarray, p: np.ndarray, bids: np.ndarray) -> np.ndarray:
    """The model's probability of each count of tricks, per row, for that row's bid."""
    logits = np.log(p) + features(bids)[..., : len(theta)] @ theta
    w = np.exp(logits - logits.max(axis=1, keepdims=True))
    return w / w.sum(axis=1, keepdims=True)


def fit(p: np.ndarray, bids: np.ndarray, tricks: np.ndarray, k: int = len(NAMES)) -> np.ndarray:
    """Maximum likelihood of the tricks taken: a conditional logit on the first ``k`` features,
    by Newton's method."""
    f = features(bids)[..., :k]
    taken = f[np.arange(len(bids)), tricks]
    theta = np.zeros(k)
    for _ in range(50):
        q = tricks_given_bid(theta, p, bids)
        mean = np.einsum("nt,ntk->nk", q, f)
        grad = (taken - mean).sum(axis=0)
        centred = f - mean[:, None, :]
        hessian = np.einsum("nt,ntk,ntl->kl", q, centred, centred)
        step = np.linalg.solve(hessian, grad)
        theta += step
        if np.abs(step).max() < 1e-9:
            break
    return theta


def logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A one-feature logistic regression (intercept, slope) by Newton's method."""
    a = np.c_[np.ones(len(x)), x]
    w = np.zeros(2)
    for _ in range(50):
        q = 1 / (1 + np.exp(-a @ w))
        w += np.linalg.solve((a * (q * (1 - q))[:, None]).T @ a, a.T @ (y - q))
    return w


def log_loss(q: np.ndarray, y: np.ndarray) -> float:
    q = np.clip(q, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", help="cross-play shard folders")
    parser.add_argument("--playouts", type=int, default=200, help="random playouts a seat-hand")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--below", type=int, default=10000, help="pairs of seeds from here on are left for testing"
    )
    options = parser.parse_args()
    rows = seat_hands(options.folders, options.playouts, options.workers, options.below)
    counts = np.array([r["counts"] for r in rows], float) + SMOOTH
    p = counts / counts.sum(axis=1, keepdims=True)
    bids = np.array([r["bid"] for r in rows])
    tricks = np.array([r["tricks"] for r in rows])
    made = (bids == tricks).astype(float)
    test = np.array([r["seed"] % 5 == 0 for r in rows])
    print(f"{len(rows)} seat-hands, {test.sum()} held out (seeds divisible by 5)")
    theta = fit(p[~test], bids[~test], tricks[~test])
    q = tricks_given_bid(theta, p[test], bids[test])
    # The pull's first number alone makes the bid's count likelier and leaves the bids' order as
    # random play has it: what the asymmetry adds is the model's case.
    q1 = tricks_given_bid(fit(p[~test], bids[~test], tricks[~test], 1), p[test], bids[test])
    rows_test = np.arange(test.sum())
    random_play = -np.mean(np.log(p[test][rows_test, tricks[test]]))
    x = np.log(p[np.arange(len(bids)), bids])
    w = logistic(x[~test], made[~test])
    recalibrated = 1 / (1 + np.exp(-(w[0] + w[1] * x[test])))
    print("held out                           log-loss of tricks taken   log-loss of made   made")
    print(
        f"random playouts                    {random_play:.4f}"
        f"                     {log_loss(p[test][rows_test, bids[test]], made[test]):.4f}"
        f"             {made[test].mean():.3f} ({p[test][rows_test, bids[test]].mean():.3f})"
    )
    print(
        f"random playouts, p(b) recalibrated                            "
        f"{log_loss(recalibrated, made[test]):.4f}             ({recalibrated.mean():.3f})"
    )
    print(
        f"the bid's count made likelier      {-np.mean(np.log(q1[rows_test, tricks[test]])):.4f}"
        f"                     {log_loss(q1[rows_test, bids[test]], made[test]):.4f}"
        f"             ({q1[rows_test, bids[test]].mean():.3f})"
    )
    print(
        f"pulled toward the bid              {-np.mean(np.log(q[rows_test, tricks[test]])):.4f}"
        f"                     {log_loss(q[rows_test, bids[test]], made[test]):.4f}"
        f"             ({q[rows_test, bids[test]].mean():.3f})"
    )
    theta = fit(p, bids, tricks)
    # The bids the searches chose: mostly random play's likeliest count. The pull is fitted again
    # on each side of it alone, where a bid one off that count tells what such a bid meets.
    likeliest = p.argmax(axis=1)
    for off in (-1, 1):
        side = bids - likeliest == off
        k = len(NAMES) if np.sum(bids[side] == 0) > 50 else 3  # nothing to fit "over nothing" by
        theta_side = fit(p[side], bids[side], tricks[side], k)
        numbers = dict(zip(NAMES[:k], np.round(theta_side, 3).tolist(), strict=True))
        print(
            f"fitted on the {side.sum()} bids {off:+d} from random play's likeliest count:", numbers
        )
    print(
        "BID_PULL, fitted on every seat-hand:",
        dict(zip(NAMES, np.round(theta, 3).tolist(), strict=True)),
    )


if __name__ == "__main__":
    sys.exit(main())
