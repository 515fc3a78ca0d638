"""Taking a move back in the browser: one person against bots, as at the terminal table."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tapete.record import dumps, loads, replay
from tapete.web.room import UNDO
from tapete.web.store import MemoryStore
from webclient import Client, Server, my_turn, play_out, play_to_the_end


def started(server: Server, **body: Any) -> tuple[Client, dict[str, Any]]:
    table = server.create("pocha", params={"schedule": "[3]"}, **body)
    me = server.client()
    me.hello(str(table["code"]), str(table["token"]))
    me.expect("room")
    me.send({"type": "start"})
    me.expect("view")
    return me, table


def test_undo_takes_back_the_person_s_move_and_the_bots_answers(server: Server) -> None:
    me, table = started(server)
    before = my_turn(me)
    assert before["undo"] is False  # nothing of mine to take back yet
    first = me.legal()[0]
    me.send({"type": "act", "action": first, "version": before["version"]})
    again = me.until(
        lambda m: (
            m["type"] == "view"
            and m["version"] > before["version"]
            and bool(m["actions"]["buttons"] or m["actions"]["cards"])
        )
    )
    assert again["undo"] is True
    assert again["version"] > before["version"] + 1  # the bots answered meanwhile
    me.send({"type": "undo"})
    back = me.until(lambda m: m["type"] == "view" and m["version"] > again["version"])
    # The table as it was before my move, asking me again; the take-back is a move of its own
    # (the version only grows) and the log says it.
    assert back["table"] == before["table"]
    assert back["actions"] == before["actions"]
    assert back["version"] == again["version"] + 1
    assert back["log"] == ["Ana took back their last move, and the moves after it"]
    assert back["undo"] is False  # my only move is taken back
    # The match goes on to its end; its record holds only the moves in play.
    room = play_out(me, last=True)
    record = loads(json.dumps(server.get(f"/api/tables/{table['code']}/record")))
    replay(record)  # the record checks: every move legal, every score as the rules give it
    assert room["over"] is True


def test_undo_is_refused_with_a_reason_and_changes_nothing(server: Server) -> None:
    me, table = started(server)
    view = my_turn(me)
    me.send({"type": "undo"})
    assert me.expect("error")["rule"] == "nothing-to-undo"
    watcher = server.client()
    watcher.hello(str(table["code"]))
    watcher.send({"type": "undo"})
    assert watcher.expect("error")["rule"] == "spectator"
    me.send({"type": "act", "action": me.legal()[0], "version": view["version"]})
    me.view_at(view["version"] + 1)

    friends = server.create(
        "pocha", params={"schedule": "[3]"}, seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2
    )
    host = server.client()
    host.hello(str(friends["code"]), str(friends["token"]))
    host.send({"type": "undo"})
    assert host.expect("error")["rule"] == "no-undo"


def test_a_finished_match_with_a_take_back_is_kept_but_not_rated(server: Server) -> None:
    me_player = server.post("/api/players", {"name": "Ana"})
    me, table = started(server, player=me_player["token"])
    view = my_turn(me)
    me.send({"type": "act", "action": me.legal()[0], "version": view["version"]})
    me.until(lambda m: m["type"] == "view" and m["undo"] is True)
    me.send({"type": "undo"})
    me.until(lambda m: m["type"] == "view" and m["version"] > view["version"] and not m["undo"])
    play_out(me, last=True)
    profile = server.get(f"/api/players/{me_player['id']}")
    assert [r["table_id"] for r in profile["results"]] == [f"{table['code']}.0"]  # kept
    board = server.get("/api/leaderboard/pocha")
    assert me_player["id"] not in {row["participant"] for row in board}  # not rated
    assert "pocha" not in profile["ratings"]
    other = server.post("/api/players", {"name": "Bea"})
    play_to_the_end(
        server, server.create("pocha", params={"schedule": "[1]"}, player=other["token"])
    )
    # Rated: her profile's rating, which the session's other tests cannot push off a board of
    # the best fifty.
    assert server.get(f"/api/players/{other['id']}")["ratings"]["pocha"]["matches"] == 1


@pytest.mark.asyncio
async def test_a_table_read_again_from_its_store_is_where_the_take_back_left_it() -> None:
    from tapete.web.room import Room
    from tapete.web.store import SeatConfig, Truth

    store = MemoryStore()
    seats = [SeatConfig("human", "Ana")] + [SeatConfig("bot", level="random")] * 3
    truth = Truth(code="UNDO", spec="pocha(schedule=[3])", seed=11, seats=seats, started=True)
    await store.create(truth)
    room = Room(truth, store)
    moves = 0
    while moves < 12:
        seat = room.game.current_player(room.state)
        action = room.game.legal_actions(room.state)[0]
        assert await room.act(seat, room.game.format_action(action)) is None
        moves += 1
    before_undo = room.state
    assert await room.undo(0) is None
    assert room.truth.actions[-1][1] == UNDO
    kept = await store.room("UNDO")
    assert kept is not None and kept.actions == room.truth.actions
    again = Room(kept, store)
    assert repr(again.state) == repr(room.state) != repr(before_undo)
    assert dumps(again.record()) == dumps(room.record())
    in_record = [a for deal in room.record().deals for a in deal.actions]
    assert in_record == [room.truth.actions[i] for i in room.played]  # the moves in play only
    assert len(in_record) < 12
    assert again.played == room.played
    assert again.log[-1] == {"kind": "undo", "seat": 0, "keep": room.truth.notes[12]["keep"]}
    room.close()
    again.close()
