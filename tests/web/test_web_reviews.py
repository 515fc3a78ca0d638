"""The coach's review in the web app: asked for once a match is over, followed as it goes,
worked out once and kept beside the record (SQLite and PostgreSQL), served from the store to a
second request and after a restart, cancellable, and never in the way of a live bot."""

from __future__ import annotations

import time
import urllib.error
from typing import Any

import pytest

from tapete.store import Store as Database
from tapete.web.app import open_store
from tapete.web.reviews import in_words
from tapete.web.store import MemoryStore
from webclient import Server, running

FOUR_BOTS = [{"kind": "bot", "level": level} for level in ("easy", "random", "medium", "random")]


def finished(server: Server, schedule: str = "[3]", seed: int = 4) -> str:
    """A Pocha match of four bots played to its end; its table's code."""
    table = server.create(
        "pocha", params={"schedule": schedule}, seats=FOUR_BOTS, seed=seed, public=False
    )
    watcher = server.client()
    watcher.hello(table["code"], table["token"])
    watcher.send({"type": "start"})
    watcher.until(lambda m: m["type"] == "view" and m["result"] is not None, timeout=120)
    watcher.close()
    return str(table["code"])


def review_of(server: Server, code: str, lang: str = "en", timeout: float = 60) -> Any:
    """Ask for the review of match 0 and follow it until it is done; every answer seen."""
    seen = [server.post(f"/api/tables/{code}/reviews/0?lang={lang}", {})]
    deadline = time.monotonic() + timeout
    while seen[-1]["status"] == "running":
        assert time.monotonic() < deadline, seen[-1]
        time.sleep(0.05)
        seen.append(server.get(f"/api/tables/{code}/reviews/0?lang={lang}"))
    return seen


def refused(call: Any) -> int:
    with pytest.raises(urllib.error.HTTPError) as caught:
        call()
    return int(caught.value.code)


def test_a_review_is_worked_out_once_kept_and_served_after_a_restart(db_url: str) -> None:
    with running(open_store(db_url), review_iterations=6) as server:
        code = finished(server)
        seen = review_of(server, code)
        done = seen[-1]
        assert done["status"] == "done", done
        running_ones = [s for s in seen if s["status"] == "running"]
        assert all(0 <= s["done"] <= s["total"] for s in running_ones)
        review = done["review"]
        assert review["game"].startswith("pocha") and review["iterations"] == 6
        assert {d["seat"] for d in review["decisions"]} == {0, 1, 2, 3}
        bids = [d for d in review["decisions"] if d["played"].startswith("bid ")]
        assert bids and all(d["played_label"].startswith("bid ") for d in bids)
        assert all(d["loss"] >= 0 and d["best"] in d["values"] for d in review["decisions"])
        assert all(bool(d["verdict"]) == bool(d["verdict_label"]) for d in review["decisions"])
        deals = server.get(f"/api/tables/{code}/records/0")["deals"]  # play-offs too
        assert len(review["returns"]) == len(deals)
        assert all(len(r) == 4 for r in review["returns"])
        assert review["unit_label"] == "points"
        first = review["decisions"][0]  # a bid: every bid it could make, best first
        assert [label for label, _ in first["options"]] == [
            f"bid {a.split()[1]}" for a in first["values"]
        ]
        assert first["options"][0][1] == max(v for _, v in first["options"])

        # A second request is answered at once, from what was kept: the same review.
        again = server.post(f"/api/tables/{code}/reviews/0", {})
        assert again["status"] == "done" and again["review"] == review

        # In Spanish: the moves as the table's buttons name them, the unit in Spanish.
        spanish = server.get(f"/api/tables/{code}/reviews/0?lang=es")["review"]
        assert all(d["played_label"].startswith("pedir ") for d in spanish["decisions"][:4])
        assert spanish["unit_label"] == "puntos"

    # Kept beside the record, in the database.
    assert Database(db_url).review(f"{code}.0") is not None

    # Another server on the same database, with another budget: the kept review, not a new one.
    with running(open_store(db_url), review_iterations=9) as server:
        after = server.get(f"/api/tables/{code}/reviews/0")
        assert after["status"] == "done"
        assert after["review"]["iterations"] == 6
        assert after["review"]["decisions"] == review["decisions"]


def decision(played: str, best: str) -> dict[str, Any]:
    """A kept review's decision: ``played`` where ``best`` was worth more."""
    values = {best: 1.5, played: 0.25}
    kept = {"seat": 0, "deal": 0, "move": 3, "played": played, "best": best, "loss": 1.25}
    return kept | {"error": 0.1, "verdict": "mistake", "values": values}


@pytest.mark.parametrize(
    ("lang", "played", "best"),
    [
        ("en", "play rey of espadas", "play caballo of copas"),
        ("es", "jugar rey de espadas", "jugar caballo de copas"),
        ("pt", "jogar rei de espadas", "jogar cavalo de copas"),
    ],
)
def test_a_review_names_a_spanish_card_as_the_table_does_not_by_its_code(
    lang: str, played: str, best: str
) -> None:
    """A Tute review said "jugar 12e, better jugar 11c": the record's codes, where the table
    beside it names the cards (rey de espadas, caballo de copas)."""
    review = {"game": "tute", "unit": "points", "decisions": [decision("play 12e", "play 11c")]}
    told = in_words(review, lang)["decisions"][0]
    assert (told["played_label"], told["best_label"]) == (played, best)
    assert [label for label, _ in told["options"]] == [best, played]


def test_a_review_writes_a_french_card_with_its_glyph() -> None:
    """Truco's moves in a review as on its buttons: K♦, not the record's Kd."""
    review = {"game": "truco", "unit": "points", "decisions": [decision("play Kd down", "play 7h")]}
    told = in_words(review, "pt")["decisions"][0]
    assert (told["played_label"], told["best_label"]) == ("jogar K♦ encoberta", "jogar 7♥")


def test_only_a_finished_match_is_reviewed() -> None:
    with running(MemoryStore(), review_iterations=4) as server:
        seats = [{"kind": "human"}, *FOUR_BOTS[1:]]
        table = server.create("pocha", params={"schedule": "[3]"}, seats=seats, public=False)
        code = table["code"]
        host = server.client()
        host.hello(code, table["token"])
        assert refused(lambda: server.post(f"/api/tables/{code}/reviews/0", {})) == 404
        host.send({"type": "start"})
        host.view_at(0)
        # Being played: its hidden cards are no one's but their holders', so no review of it.
        assert refused(lambda: server.post(f"/api/tables/{code}/reviews/0", {})) == 409
        assert refused(lambda: server.get(f"/api/tables/{code}/reviews/0")) == 409
        assert refused(lambda: server.post(f"/api/tables/{code}/reviews/1", {})) == 404
        host.close()


def test_a_review_under_way_can_be_cancelled() -> None:
    # The lane in a process of its own: the decision under way when cancelled ends with it.
    with running(MemoryStore(), review_iterations=4000, review_processes=1) as server:
        code = finished(server, schedule="[5, 6]")
        first = server.post(f"/api/tables/{code}/reviews/0", {})
        assert first["status"] == "running"
        time.sleep(0.3)
        gone = server.post(f"/api/tables/{code}/reviews/0", {}, method="DELETE")
        assert gone["cancelled"] is True and gone["status"] == "none"
        time.sleep(0.5)
        assert server.get(f"/api/tables/{code}/reviews/0")["status"] == "none"
        assert server.app.state.thinkers.behind_waiting == 0  # nothing left in the lane
        # Cancelling again, or a review never asked for, changes nothing.
        again = server.post(f"/api/tables/{code}/reviews/0", {}, method="DELETE")
        assert again["cancelled"] is False and again["status"] == "none"


def test_live_bots_never_wait_behind_a_review() -> None:
    # Bots in a worker process, the review in the lane's own: a heavy review under way (each
    # decision takes a second or more) while bots play a match; no bot decision waits for it.
    with running(MemoryStore(), bot_processes=1, review_iterations=3000) as server:
        thinkers = server.app.state.thinkers
        reviewed = finished(server, schedule="[5, 6]", seed=1)  # also warms the bot process up
        before = thinkers.decisions
        assert server.post(f"/api/tables/{reviewed}/reviews/0", {})["status"] == "running"
        deadline = time.monotonic() + 30
        while (
            thinkers.behind_waiting == 0
            or server.get(f"/api/tables/{reviewed}/reviews/0").get("done", 0) < 1
        ):  # the lane is busy with a decision of the review
            assert time.monotonic() < deadline
            time.sleep(0.05)
        finished(server, schedule="[3]", seed=2)
        waits = list(thinkers._waits)[-(thinkers.decisions - before) :]
        assert len(waits) >= 8
        assert thinkers.behind_waiting >= 1  # the review was still under way meanwhile
        assert max(waits) < 0.5, waits
        server.post(f"/api/tables/{reviewed}/reviews/0", {}, method="DELETE")
        assert server.get("/api/health")["bots"]["review_processes"] == 1
