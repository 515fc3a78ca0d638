"""Every game and seat count played to the end through the real server, on SQLite and on
PostgreSQL: everyone at the table is told the result, the finished record replays to it, and
results and ratings are kept, a team's score for each partner in team games.

The seat-count sweep plays short matches with a hard bot (two sampled deals a decision) at seat 0;
one match per game at its default length follows, between cheaper bots.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import select

import tapete
from tapete import bots, record
from tapete.game import seat_scores
from tapete.store import Store as Database
from tapete.store import schema
from tapete.web.app import open_store
from webclient import Client, running

Table = tuple[str, dict[str, Any], list[str]]


def sweep(game: str, players: range, **params: Any) -> list[Table]:
    """Short matches at each seat count: hard at seat 0, then easy, medium and random."""
    others = ["easy", "medium", "random"]
    return [
        (game, {"players": n, **params}, ["hard", *(others[i % 3] for i in range(n - 1))])
        for n in players
    ]


def default(game: str, seats: int, **params: Any) -> Table:
    """A match of the game's default length: easy at seat 0, random bots at the others."""
    return game, params, ["easy"] + ["random"] * (seats - 1)


TABLES: list[Table] = [
    *sweep("pocha", range(3, 5), schedule="[1, 2]"),
    *sweep("pocha", range(5, 9), schedule="[1, 2]", max_players=8),
    *sweep("pocha", range(2, 3), schedule="[2]", min_players=2),
    *sweep("pocha", range(4, 5), schedule="[1, 2, 1]", ronda_india="true"),
    *sweep("oh_hell", range(3, 8), schedule="[1, 2]"),
    *sweep("tute", range(2, 5, 2)),  # a single deal is tute's default length
    *sweep("truco", range(2, 5, 2), target=3),
    *sweep("poch", range(3, 7), rounds=1),
    *sweep("pottle", range(3, 8), deals=1, extra_deals=0),
    default("pocha", 4),
    default("oh_hell", 4),
    default("truco", 2),
    default("truco", 4, players=4),
    default("poch", 4),
    default("pottle", 4),
]


def watch_to_the_end(client: Client) -> dict[str, Any]:
    """The view that tells the result (bots play on their own: the watcher only reads)."""
    return client.until(lambda m: m["type"] == "view" and m["result"] is not None, timeout=120)


def test_every_game_and_seat_count_finishes_with_record_results_and_ratings(
    db_url: str,
) -> None:
    started = time.monotonic()
    cheap_hard = {"hard": bots.load("hard(iterations=2)")}
    with running(open_store(db_url), players=cheap_hard) as server:
        made, watchers = [], []
        for seed, (name, params, levels) in enumerate(TABLES):
            table = server.create(
                name,
                params={k: str(v) for k, v in params.items()},
                seats=[{"kind": "bot", "level": level} for level in levels],
                seed=seed,
                public=False,
            )
            watcher = server.client()
            watcher.hello(table["code"], table["token"])  # the host: every seat is a bot
            watcher.send({"type": "start"})
            made.append(table)
            watchers.append(watcher)
        with ThreadPoolExecutor(len(watchers)) as pool:
            ends = list(pool.map(watch_to_the_end, watchers))
        records = [server.get(f"/api/tables/{t['code']}/records/0") for t in made]
        for watcher in watchers:
            watcher.close()
    played = time.monotonic() - started

    db = Database(db_url)
    rated: dict[str, Counter[str]] = {}
    for seed, (table, (_, _, levels), end, text) in enumerate(
        zip(made, TABLES, ends, records, strict=True)
    ):
        game = tapete.load(table["spec"])
        rec = record.loads(json.dumps(text))  # the downloaded file, as tapete replay reads it
        final = record.replay(rec)
        outcome = game.outcome(final)
        assert outcome is not None, table["spec"]
        assert rec.game == game.spec and rec.seed == seed and rec.result is not None
        assert list(rec.result["scores"]) == list(outcome.scores)
        assert list(rec.result["winners"]) == list(outcome.winners)
        assert end["result"]["scores"] == list(outcome.scores)
        assert end["result"]["winners"] == list(outcome.winners)
        assert [s.bot for s in rec.seats] == levels

        per_seat = seat_scores(outcome.scores, game.teams)
        assert results(db, f"{table['code']}.0") == [
            (seat, f"bot:{level}", per_seat[seat], seat in outcome.winners)
            for seat, level in enumerate(levels)
        ], table["spec"]
        rated.setdefault(game.name, Counter()).update(set(levels))
    for name, tables_of in rated.items():
        board = {row["participant"]: row["matches"] for row in db.leaderboard(name)}
        assert board == {f"bot:{level}": n for level, n in tables_of.items()}, name
    print(f"\n{len(TABLES)} matches to the end on {db_url.split(':')[0]}: {played:.1f} s")


def results(db: Database, table_id: str) -> list[tuple[int, str, int, bool]]:
    r = schema.results
    query = (
        select(r.c.seat, r.c.participant, r.c.score, r.c.won)
        .where(r.c.table_id == table_id)
        .order_by(r.c.seat)
    )
    with db.engine.connect() as c:
        return [(seat, who, score, bool(won)) for seat, who, score, won in c.execute(query)]
