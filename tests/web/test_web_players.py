"""Players over HTTP: an identity token (no password), results and ratings from finished
matches, profiles for people and bots, a leaderboard per game."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from tapete.store import Store as Database
from tapete.store import schema
from tapete.web.app import open_store
from webclient import Server, play_to_the_end, running

SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3


def put(server: Server, path: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="PUT",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_a_player_plays_a_match_and_has_a_profile_and_a_rating(server: Server) -> None:
    me = server.post("/api/players", {"name": "Lúcia"})
    assert me["name"] == "Lúcia" and len(me["token"]) > 20
    bearer = {"Authorization": f"Bearer {me['token']}"}
    assert server.get("/api/players/me", bearer) == {**me, "token": None}
    table = server.create("pocha", params={"schedule": "[1]"}, seats=SEATS, player=me["token"])
    room = play_to_the_end(server, table)
    assert room["seats"][0]["player"] == me["id"] and room["seats"][1]["player"] == "bot:random"
    profile = server.get(f"/api/players/{me['id']}")
    assert profile["name"] == "Lúcia" and profile["matches"] == 1
    assert profile["results"][0]["table_id"] == f"{table['code']}.0"
    assert profile["ratings"]["pocha"]["matches"] == 1
    bots = server.get("/api/players/bot:random")
    assert bots["matches"] >= 3 and "pocha" in bots["ratings"]
    board = server.get("/api/leaderboard/pocha")
    assert {row["participant"] for row in board} >= {me["id"], "bot:random"}
    assert next(r for r in board if r["participant"] == me["id"])["name"] == "Lúcia"
    assert put(server, "/api/players/me", {"name": "Lu"}, bearer)["name"] == "Lu"


def test_a_profile_does_not_give_away_the_code_of_a_table_the_lobby_does_not_list(
    server: Server,
) -> None:
    """A private table is found by its code alone: neither its player's profile nor the
    profile of a bot that sat at it (which anyone may read) names it."""
    me = server.post("/api/players", {"name": "Rui"})
    one = {"params": {"schedule": "[1]"}, "seats": SEATS, "player": me["token"]}
    private = server.create("pocha", public=False, **one)
    listed = server.create("pocha", public=True, **one)
    for table in (private, listed):
        play_to_the_end(server, table)
    for who in (me["id"], "bot:random"):
        profile = server.get(f"/api/players/{who}")
        assert private["code"] not in json.dumps(profile), who
        assert f"{listed['code']}.0" in {r["table_id"] for r in profile["results"]}, who
    mine = server.get(f"/api/players/{me['id']}")["results"]
    assert [r["table_id"] for r in mine] == [f"{listed['code']}.0", None]


def test_a_wrong_player_token_is_refused(server: Server) -> None:
    with pytest.raises(urllib.error.HTTPError) as caught:
        server.create("pocha", seats=SEATS, player="not-a-token")
    assert caught.value.code == 403
    with pytest.raises(urllib.error.HTTPError) as caught:
        server.get("/api/players/nobody-at-all")
    assert caught.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as caught:
        server.get("/api/leaderboard/chess")
    assert caught.value.code == 404


def status(server: Server, path: str) -> int:
    try:
        server.get(path)
    except urllib.error.HTTPError as exc:
        return exc.code
    return 200


def test_a_profile_s_record_is_served_after_its_table_expired(tmp_path: Path) -> None:
    """A table is not read back a day after its last match, its records stay in the
    database: the record of a match a profile lists is still served at its table's address."""
    url = f"sqlite:///{tmp_path / 'tapete.db'}"
    with running(open_store(url)) as server:
        me = server.post("/api/players", {"name": "Lúcia"})
        table = server.create("pocha", params={"schedule": "[1]"}, seats=SEATS, player=me["token"])
        play_to_the_end(server, table)
        code = table["code"]
        kept = server.get(f"/api/tables/{code}/records/0")
    two_days_ago = datetime.now(UTC) - timedelta(days=2)
    db = Database(url)
    with db.engine.begin() as c:  # its last match ended two days ago
        c.execute(update(schema.tables).values(updated_at=two_days_ago))
    with running(open_store(url)) as server:
        assert status(server, f"/api/tables/{code}") == 404  # the table is gone
        (result,) = server.get(f"/api/players/{me['id']}")["results"]
        room, match = result["table_id"].split(".")
        assert server.get(f"/api/tables/{room}/records/{match}") == kept
        assert server.get(f"/api/tables/{code.lower()}/records/0") == kept
        assert status(server, f"/api/tables/{code}/records/1") == 404  # no such match


def test_an_address_holding_nul_names_nobody_on_every_database(db_url: str) -> None:
    """PostgreSQL's text holds no NUL: a player or a table's record asked for by a name with
    one is not there (404), not a database away (503) that would have the page try again."""
    with running(open_store(db_url)) as server:
        for path, rule in (
            ("/api/players/ana%00", "no-such-player"),
            ("/api/tables/ABCDE%00/records/0", "no-such-table"),
        ):
            with pytest.raises(urllib.error.HTTPError) as refused:
                server.get(path)
            assert refused.value.code == 404
            assert json.loads(refused.value.read())["rule"] == rule
