"""Records and fair dealing over HTTP: the seed's SHA-256 published at creation, the record
redacted to a seat's knowledge while the match runs, complete (seed revealed) once it is over,
and the downloaded file checked by the server and by ``tapete replay --verify``."""

from __future__ import annotations

import hashlib
import json
import urllib.error
from pathlib import Path
from typing import Any

import pytest

import tapete
from tapete.cli import main
from tapete.match import play
from tapete.record import loads, redact
from webclient import Client, Server

SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3


def started(server: Server, **body: Any) -> tuple[Client, dict[str, Any]]:
    table = server.create("pocha", seats=SEATS, **body)
    me = server.client()
    me.hello(table["code"], table["token"])
    room = me.expect("room")
    assert room["seed_hash"] and room["seed"] is None
    me.send({"type": "start"})
    me.expect("view")
    return me, table


def finish(me: Client) -> None:
    while not (me.view and me.view["result"]):
        if me.legal():
            me.send({"type": "act", "action": me.legal()[0]})
        me.expect("view")


def test_the_seed_hash_is_published_at_creation_and_the_seed_kept_secret(server: Server) -> None:
    table = server.create("pocha", seats=SEATS, public=True, seed=1234)
    listed = server.get(f"/api/tables/{table['code']}")
    salt = me_salt(server, table)
    assert listed["seed_hash"] == hashlib.sha256(f"{salt}:1234".encode()).hexdigest()
    # Salted: whoever hashes every seed, this one included, does not come upon the hash.
    assert listed["seed_hash"] != hashlib.sha256(b"1234").hexdigest()
    assert "seed" not in listed and "seed_salt" not in listed
    assert any(t["seed_hash"] == listed["seed_hash"] for t in server.listed())


def test_a_running_match_s_record_holds_only_what_the_seat_knows(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    me, table = started(server, params={"schedule": "[3, 3]"})
    while me.view is not None and me.view["version"] < 5:
        if me.legal():
            me.send({"type": "act", "action": me.legal()[0]})
        me.expect("view")
    text = server.get(f"/api/tables/{table['code']}/record?token={table['token']}")
    doc: dict[str, Any] = text if isinstance(text, dict) else json.loads(text)
    assert doc["format"] == "tapete-record/1" and doc["redacted"] == {"seat": 0}
    assert doc["seed"] is None and doc["result"] is None
    assert doc["seed_hash"] == room_of(server, table).seed_hash and "seed_salt" not in doc
    deal = doc["deals"][0]
    assert deal["deck"] == [] and deal["stock"] == []
    assert len(deal["hands"][0]) == 3 and deal["hands"][1:] == [[], [], []]
    loads(json.dumps(doc))  # still a record tapete can read, and replay says what it lacks
    path = tmp_path / "running.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path), "--plain"]) == 2
    assert "download it again once the match is over" in capsys.readouterr().err
    watcher = server.get(f"/api/tables/{table['code']}/record")
    assert watcher["redacted"] == {"seat": None} and watcher["deals"][0]["hands"][0] == []


def room_of(server: Server, table: dict[str, Any]) -> Any:
    return server.app.state.rooms.get(table["code"])


def me_salt(server: Server, table: dict[str, Any]) -> str:
    salt = room_of(server, table).truth.seed_salt
    assert isinstance(salt, str) and len(salt) == 32
    return salt


def test_a_finished_match_reveals_its_seed_and_its_deals_check_out(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    me, table = started(server, params={"schedule": "[1]"})
    published = server.get(f"/api/tables/{table['code']}")["seed_hash"]
    finish(me)
    room = me.until(lambda m: m["type"] == "room" and m["seed"] is not None)
    assert room["seed_hash"] == published
    committed = f"{room['seed_salt']}:{room['seed']}"  # as `sha256sum` is given it
    assert hashlib.sha256(committed.encode()).hexdigest() == room["seed_hash"]
    full = server.get(f"/api/tables/{table['code']}/record?token={table['token']}")
    assert full["seed"] == room["seed"] and full["result"] is not None
    assert full["seed_salt"] == room["seed_salt"] and full["seed_hash"] == published
    assert "redacted" not in full and all(len(d["deck"]) == 40 for d in full["deals"])
    check = server.get(f"/api/tables/{table['code']}/verify/0")
    assert check == {
        "ok": True,
        "seed": room["seed"],
        "seed_salt": room["seed_salt"],
        "seed_hash": room["seed_hash"],
        "chosen_seed": False,
        "problems": [],
    }
    path = tmp_path / "record.json"
    path.write_text(json.dumps(full))
    assert main(["replay", str(path), "--plain", "--verify", "--seed-hash", room["seed_hash"]]) == 0
    assert "deals verified" in capsys.readouterr().out
    assert main(["replay", str(path), "--plain", "--seed-hash", "0" * 64]) == 1
    # Another salt in the file (a server that would change its story at the end) is caught.
    path.write_text(json.dumps({**full, "seed_salt": "0" * 32}))
    assert main(["replay", str(path), "--plain", "--seed-hash", room["seed_hash"]]) == 1
    assert f"with salt {'0' * 32} does not hash to the published" in capsys.readouterr().out


def test_the_salt_is_told_to_nobody_before_the_match_is_over_and_to_everyone_after(
    server: Server,
) -> None:
    """With the salt, the published hash would give the seed away to a search of every seed:
    no message, record or narration tells it while the match runs; at its end it is told
    with the seed, and a rematch is hashed with a salt of its own."""
    me, table = started(server, params={"schedule": "[1]"})
    code, salt = table["code"], me_salt(server, table)
    watcher = server.client()
    watcher.hello(code)
    watcher.expect("room")
    auth = {"Authorization": f"Bearer {table['token']}"}
    while me.view is not None and me.view["version"] < 2:
        if me.legal():
            me.send({"type": "act", "action": me.legal()[0]})
        me.expect("view")
    told = [
        server.get(f"/api/tables/{code}/record", auth),
        server.get(f"/api/tables/{code}/record"),
        server.get(f"/api/tables/{code}/narration", auth),
        server.get(f"/api/tables/{code}"),
        server.listed(),
    ]
    finish(me)
    over = me.until(lambda m: m["type"] == "room" and m["over"])
    before = me.seen[: me.seen.index(over)]
    assert before and all(m["type"] != "room" or m["seed_salt"] is None for m in before)
    assert salt not in json.dumps(before + told)
    assert (over["seed"], over["seed_salt"]) == (room_of(server, table).truth.seed, salt)
    seen = watcher.until(lambda m: m["type"] == "room" and m["over"])
    assert seen["seed_salt"] == salt  # everyone at the table, as the seed
    watcher.close()
    me.send({"type": "rematch"})
    again = me.until(lambda m: m["type"] == "room" and m["match"] == 1)
    assert again["seed_salt"] is None and again["seed_hash"] != over["seed_hash"]
    assert me_salt(server, table) != salt
    assert server.get(f"/api/tables/{code}/records/0")["seed_salt"] == salt


def test_a_finished_match_is_checked_once_however_often_it_is_asked(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking deals the whole match again: every page at the table asks when the match ends,
    and anyone may ask as often as they like, so the answer is worked out once and kept."""
    me, table = started(server, params={"schedule": "[1]"})
    finish(me)
    me.until(lambda m: m["type"] == "room" and m["seed"] is not None)
    path = f"/api/tables/{table['code']}/verify/0"
    first = server.get(path)
    assert first["ok"] is True
    dealt: list[int] = []
    real = tapete.record.verify_deals

    def counted(*args: Any, **kwargs: Any) -> list[str]:
        dealt.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(tapete.record, "verify_deals", counted)
    assert [server.get(path) for _ in range(5)] == [first] * 5
    assert dealt == []  # not dealt again
    with pytest.raises(urllib.error.HTTPError) as missing:
        server.get(f"/api/tables/{table['code']}/verify/1")
    assert missing.value.code == 404


def test_no_record_of_a_match_not_started(server: Server) -> None:
    table = server.create("pocha", seats=SEATS)
    with pytest.raises(urllib.error.HTTPError) as caught:
        server.get(f"/api/tables/{table['code']}/record?token={table['token']}")
    assert caught.value.code == 404


def test_cards_played_face_down_by_others_stay_hidden() -> None:
    game = tapete.load("truco")
    for seed in range(40):
        _, rec = play(game, ["random"] * 2, seed=seed)
        doc = rec.to_json()
        downs = [
            (a["seat"], a["action"])
            for d in doc["deals"]
            for a in d["actions"]
            if "down" in a["action"]
        ]
        if downs:
            break
    else:
        pytest.fail("no face-down play in 40 matches")
    for seat in (0, 1):
        mine = redact(rec, seat).to_json()
        for deal, full in zip(mine["deals"], doc["deals"], strict=True):
            for a, b in zip(deal["actions"], full["actions"], strict=True):
                hidden = a["seat"] != seat and b["action"].endswith(" down")
                assert a["action"] == ("play down" if hidden else b["action"])
            for e, f in zip(deal["events"], full["events"], strict=True):
                if e["type"] == "trick":
                    for i, (shown, card) in enumerate(zip(e["cards"], f["cards"], strict=True)):
                        by = (f["leader"] + i) % 2
                        assert shown == (None if f["down"][i] and by != seat else card)
        text = json.dumps(mine)
        for who, action in downs:
            if who != seat:
                assert action not in text


def test_the_replay_s_words_come_from_the_narrator_as_the_seat_may_know_them(
    server: Server,
) -> None:
    me, table = started(server, params={"schedule": "[2, 1]"})
    code, token = table["code"], table["token"]
    while me.view is not None and me.view["version"] < 4:
        if me.legal():
            me.send({"type": "act", "action": me.legal()[0]})
        me.expect("view")
    while me.view is not None and not me.legal():
        me.expect("view")  # until the bots wait for this seat: the two reads see the same moves
    auth = {"Authorization": f"Bearer {token}"}
    running = server.get(f"/api/tables/{code}/narration?lang=es", auth)["deals"]
    doc = server.get(f"/api/tables/{code}/record", auth)
    doc = doc if isinstance(doc, dict) else json.loads(doc)
    assert running[0]["first"][0].startswith("mano 1: reparte ")
    assert [len(d["steps"]) for d in running] == [len(d["actions"]) for d in doc["deals"]]
    with pytest.raises(urllib.error.HTTPError) as missing:
        server.get(f"/api/tables/{code}/narration?match=3")
    assert missing.value.code == 404
    finish(me)
    done = server.get(f"/api/tables/{code}/narration?match=0")["deals"]
    record = loads(json.dumps(server.get(f"/api/tables/{code}/records/0")))
    assert [len(d["steps"]) for d in done] == [len(d.actions) for d in record.deals]
    assert done[-1]["steps"][-1][-1].startswith("match over: ")
    # Told once: asked again (by anyone, as often as they like) the match is not replayed again,
    # while each language, and each move of a running match, is told afresh.
    room = server.app.state.rooms.get(code)
    first = room.narration_for(None, 0, "en")
    assert room.narration_for(None, 0, "en") is first
    assert room.narration_for(None, 0, "es") != first
