"""A bot that fails does not stop its table: the server logs the failure with its traceback,
plays a random legal move for that seat, tells the players in their language, and play goes on
to the end of the match."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tapete.game import Action
from tapete.games import pocha
from tapete.web.store import MemoryStore
from webclient import running, stand_in_note


class Raising:
    """A bot with a bug: every decision raises."""

    name = "medium"

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        raise AssertionError("this bot cannot see its hand")


class Illegal:
    """A bot with another bug: it always bids 9, whatever the rules allow."""

    name = "easy"

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return pocha.BID + 9


FAILED = {
    "en": "failed to choose a move: a random legal move was played for it",
    "es": "no pudo elegir jugada: se jugó por él una jugada legal al azar",
}


def test_a_failing_bot_has_a_legal_move_played_for_it_and_the_match_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR, logger="tapete.web")
    with running(players={"medium": Raising(), "easy": Illegal()}) as server:
        table = server.create(
            "pocha",
            params={"players": "3", "schedule": "[1, 2]"},
            seats=[{"kind": "bot", "level": level} for level in ("medium", "easy", "random")],
            seed=5,
        )
        host, watcher = server.client(), server.client()
        host.hello(table["code"], table["token"])
        watcher.hello(table["code"], lang="es")
        host.send({"type": "start"})
        ends = [
            c.until(lambda m: m["type"] == "view" and m["result"] is not None, timeout=30)
            for c in (host, watcher)
        ]
        record = server.get(f"/api/tables/{table['code']}/records/0")
        host.close()
        watcher.close()

    assert ends[0]["result"] == {**ends[1]["result"], "names": ends[0]["result"]["names"]}
    assert record["result"]["scores"] == ends[0]["result"]["scores"]
    moves = [0, 0, 0]
    for deal in record["deals"]:
        for action in deal["actions"]:
            moves[action["seat"]] += 1
    for client, lang in ((host, "en"), (watcher, "es")):
        names = [s["name"] for s in next(m for m in client.seen if m["type"] == "room")["seats"]]
        said = [line for m in client.seen if m["type"] == "view" for line in m["log"]]
        failed = [said.count(f"{name} {FAILED[lang]}") for name in names]
        # Every move of the two failing bots was played for them, and everyone was told.
        assert failed == [moves[0], moves[1], 0] and moves[0] >= 5, said
    # The server's log has each failure with its traceback.
    failures = [str(r.exc_info[1]) for r in caplog.records if r.exc_info]
    assert failures.count("this bot cannot see its hand") == moves[0]
    assert failures.count(f"chose {pocha.BID + 9}, which is not a legal action") == moves[1]


class Hiccup(MemoryStore):
    """A store away for a moment: the next ``fails`` moves it is asked to keep are refused."""

    def __init__(self) -> None:
        super().__init__()
        self.fails = 0

    async def append(
        self,
        code: str,
        match: int,
        index: int,
        seat: int,
        action: str,
        note: Mapping[str, Any] | None = None,
    ) -> None:
        if self.fails:
            self.fails -= 1
            raise OSError("the database is not accepting connections")
        await super().append(code, match, index, seat, action, note)


def test_a_bot_s_move_the_store_refused_is_played_once_the_store_is_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Nothing refused is kept, and the table does not wait for ever: the bots move again."""
    caplog.set_level(logging.WARNING, logger="tapete.web")
    store = Hiccup()
    with running(store) as server:
        table = server.create(
            "pocha",
            params={"players": "3", "schedule": "[1]"},
            seats=[{"kind": "bot", "level": "random"}] * 3,
            seed=5,
        )
        host = server.client()
        host.hello(table["code"], table["token"])
        store.fails = 3
        host.send({"type": "start"})
        end = host.until(lambda m: m["type"] == "view" and m["result"] is not None, timeout=30)
        host.close()
    assert end["result"] is not None and store.fails == 0
    assert caplog.text.count("the store refused a bot's move") == 3


def test_a_failing_stand_in_says_who_is_away_and_that_it_failed_once_each_in_order() -> None:
    """Bea never comes and the bot standing in for her fails at every move: the log says she
    is away once, before the first of her moves, and then that a random move was played for
    her before each of them (her stand-in line is not lost to the failure, nor said again)."""
    away = stand_in_note("Bea")
    failed = f"Bea {FAILED['en']}"
    with running(players={"medium": Raising()}) as server:
        table = server.create(
            "pocha",
            params={"players": "3", "schedule": "[1, 2]"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            seed=5,
            grace=0.1,
            standby="medium",
        )
        server.post(f"/api/tables/{table['code']}/join", {"name": "Bea"})  # and never comes
        ana = server.client()
        ana.hello(table["code"], table["token"])
        ana.send({"type": "start"})
        while (view := ana.expect("view", timeout=30))["result"] is None:
            if ana.legal():
                ana.send({"type": "act", "action": ana.legal()[0], "version": view["version"]})
        record = server.get(f"/api/tables/{table['code']}/records/0")
        ana.close()
    bea_moves = sum(1 for deal in record["deals"] for a in deal["actions"] if a["seat"] == 1)
    said = [line for m in ana.seen if m["type"] == "view" for line in m["log"]]
    mine = [line for line in said if line in (away, failed)]
    assert bea_moves >= 3 and mine == [away] + [failed] * bea_moves, said
