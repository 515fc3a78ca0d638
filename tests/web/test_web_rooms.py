"""Rooms: truth replayed after a restart, reconnection to the same seat, stand-in bots, the
turn timer."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Mapping
from typing import Any

import pytest

from tapete.record import Recorder, dumps
from tapete.web.protocol import Limits
from tapete.web.rooms import Room, Rooms, token_hash
from tapete.web.store import MemoryStore, Options, SeatConfig, Truth
from webclient import Client, Inbox, Network, Server, open_socket, running, stand_in_note


def test_a_restart_replays_every_table_from_the_store() -> None:
    async def scenario() -> None:
        store = MemoryStore()
        rooms = Rooms(store)
        seats = [SeatConfig("human"), *(SeatConfig("bot", level="random") for _ in range(3))]
        room, token, seat = await rooms.create(
            "pocha(schedule=[2, 3])", seats, name="Ana", options=Options(bot_delay=0), seed=5
        )
        me = Inbox(seat, token_hash(token))
        room.join(me)
        await room.control(me, "start", {})
        for _ in range(200):  # the bots play until it is Ana's turn; Ana plays; and again
            await asyncio.sleep(0.01)
            if room.game.current_player(room.state) == 0:
                refused = await room.act(
                    0, room.game.format_action(room.game.legal_actions(room.state)[0])
                )
                assert refused is None
            if room.version >= 9:
                break
        before = room.version, room.game.observe(room.state, 0), list(room.truth.actions)
        rooms.close()

        again = Rooms(store)
        await again.restore()
        back = again.get(room.code)
        assert back is not None and back is not room
        assert (back.version, back.game.observe(back.state, 0)) == before[:2]
        assert back.truth.actions == before[2]
        assert back.seat_of(token_hash(token)) == 0
        assert 0 in back.seating.away  # nobody is connected after a restart
        again.close()

    asyncio.run(scenario())


def test_a_table_this_version_cannot_replay_does_not_keep_the_others_from_starting(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A table stored by an older version (a rule option since dropped, a move since spelt
    otherwise) is left in the store, named in the log, and the server starts with the rest."""

    async def scenario() -> None:
        store = MemoryStore()
        seats = [SeatConfig("human"), SeatConfig("human")]
        now = time.time()
        old_option = Truth("OLD01", "truco(an_old_option=1)", 1, seats, created=now)
        old_move = Truth("OLD02", "truco", 7, seats, [(0, "a move of old")], started=True)
        for truth in (old_option, old_move, Truth("GOOD3", "truco", 3, seats, created=now)):
            await store.create(truth)
        rooms = Rooms(store)
        with caplog.at_level(logging.ERROR, logger="tapete.web"):
            await rooms.restore()
        assert rooms.get("GOOD3") is not None
        assert rooms.get("OLD01") is None and rooms.get("OLD02") is None
        said = caplog.text
        assert "room OLD01 (truco(an_old_option=1), match 0) could not be replayed" in said
        assert "no parameter an_old_option" in said
        assert "room OLD02 (truco, match 0) could not be replayed" in said
        assert {t.code for t in await store.rooms()} == {"OLD01", "OLD02", "GOOD3"}  # all kept
        rooms.close()

    asyncio.run(scenario())


def test_the_store_hears_each_action_before_anyone_is_told() -> None:
    order: list[str] = []

    class Spy(MemoryStore):
        async def append(
            self,
            code: str,
            match: int,
            index: int,
            seat: int,
            action: str,
            note: Mapping[str, Any] | None = None,
        ) -> None:
            order.append(f"stored {index}")
            await super().append(code, match, index, seat, action, note)

    class Ear(Inbox):
        def send(self, message: object) -> None:
            if dict(message)["type"] == "view":  # type: ignore[call-overload]
                order.append("told")

    async def scenario() -> None:
        rooms = Rooms(Spy())
        room, token, _ = await rooms.create(
            "pocha(schedule=[1])", [SeatConfig("human")] * 4, name="Ana", options=Options()
        )
        for name in ("B", "C", "D"):
            await room.seat_person(name, None)
        ear = Ear(0, token_hash(token))
        room.join(ear)
        await room.control(ear, "start", {})
        order.clear()
        seat = room.game.current_player(room.state)
        await room.act(seat, room.game.format_action(room.game.legal_actions(room.state)[0]))
        assert order == ["stored 0", "told"]
        rooms.close()

    asyncio.run(scenario())


def test_a_view_is_built_once_per_seat_and_language_and_each_gets_its_own() -> None:
    async def scenario() -> None:
        rooms = Rooms(MemoryStore())
        room, token, _ = await rooms.create(
            "pocha(schedule=[3])", [SeatConfig("human")] * 4, name="Ana", options=Options()
        )
        for name in ("B", "C", "D"):
            await room.seat_person(name, None)
        ana = Inbox(0, token_hash(token))
        tab = Inbox(0, token_hash(token))  # Ana's second tab, in Spanish
        tab.lang = "es"
        bea, watchers = Inbox(1), [Inbox(None), Inbox(None)]
        for conn in (ana, tab, bea, *watchers):
            room.join(conn)
        await room.control(ana, "start", {})
        seat = room.game.current_player(room.state)
        await room.act(seat, room.game.format_action(room.game.legal_actions(room.state)[0]))
        last = {id(c): c.sent[-1] for c in (ana, tab, bea, *watchers)}
        assert all(m["type"] == "view" and m["version"] == 1 for m in last.values())
        hands = [m["table"].hand for m in last.values()]  # type: ignore[attr-defined]
        assert hands[0] == hands[1] and len(hands[0]) == 3 and hands[2] != hands[0]
        assert hands[3] == hands[4] == ()  # spectators see no hand
        assert last[id(ana)]["log"] != last[id(tab)]["log"]  # each in its own language
        assert last[id(watchers[0])] == last[id(watchers[1])]
        rooms.close()

    asyncio.run(scenario())


def test_the_record_kept_move_by_move_is_the_one_a_replay_of_the_truth_gives() -> None:
    async def scenario() -> None:
        rooms = Rooms(MemoryStore())
        seats = [SeatConfig("human"), *(SeatConfig("bot", level="random") for _ in range(3))]
        room, _, _ = await rooms.create(
            "pocha(schedule=[2, 3])", seats, name="Ana", options=Options(), seed=8
        )
        room.truth.started = True
        while not room.over:
            legal = room.game.legal_actions(room.state)
            seat = room.game.current_player(room.state)
            assert seat is not None
            await room.act(seat, room.game.format_action(legal[-1]))
        game, t = room.game, room.truth
        state = game.new_state(t.seed)
        replayed = Recorder(game, state, t.seed, room.record().seats)
        for seat, text in t.actions:
            action = game.parse_action(text)
            state = game.apply(state, action)
            replayed.step(seat, action, state)
        expected = dataclasses.replace(
            replayed.record(), seed_hash=room.seed_hash, seed_salt=t.seed_salt
        )
        assert room.record() == expected and expected.result is not None
        assert t.records == [dumps(expected)]
        assert Room(t, room.store).record() == expected  # after a restart too
        rooms.close()

    asyncio.run(scenario())


def test_a_reload_returns_to_the_same_seat_with_the_current_view(server: Server) -> None:
    table = server.create(
        "pocha",
        params={"schedule": "[4]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
    )
    code = str(table["code"])
    bea_seat = server.post(f"/api/tables/{code}/join", {"name": "Bea"})
    me = server.client()
    me.hello(code, str(table["token"]))
    me.send({"type": "start"})
    first = me.expect("view")
    me.close()
    again = server.client()
    welcome = again.hello(code, str(table["token"]))
    assert welcome["seat"] == 0 and welcome["host"]
    room = again.expect("room")
    assert room["you"] == 0 and room["seats"][0]["connected"]
    view = again.expect("view")
    assert view["table"]["hand"] == first["table"]["hand"] or view["version"] > first["version"]
    assert view["log"], "the log so far comes back too"
    assert bea_seat["seat"] == 1


def started_and_left(server: Server, grace: float) -> tuple[str, str, dict[str, Any]]:
    """A Pocha table of one person and three random bots (no delay), started by that person,
    who leaves at their first move: its code, their token and the view they left."""
    table = server.create(
        "pocha",
        params={"schedule": "[2, 2]"},
        grace=grace,
        bot_delay=0,
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
    )
    code, token = str(table["code"]), str(table["token"])
    me = server.client()
    me.hello(code, token)
    me.send({"type": "start"})
    mine = me.until(lambda m: m["type"] == "view" and bool(m["actions"]["buttons"]))
    me.close()
    return code, token, mine


def test_a_bot_stands_in_after_the_grace_period_and_gives_the_seat_back() -> None:
    with running() as server:
        code, token, _ = started_and_left(server, grace=0.3)
        watcher = server.client()
        watcher.hello(code)
        room = watcher.until(lambda m: m["type"] == "room" and m["seats"][0]["standin"], 5)
        assert room["seats"][0]["away"]
        # The stand-in plays the seat: the match goes on without its person.
        watcher.until(lambda m: m["type"] == "view" and m["version"] >= 6, 10)
        back = server.client()
        back.hello(code, token)
        room = back.expect("room")
        assert room["you"] == 0 and not room["seats"][0]["standin"]


def _bea_joins_and_never_comes(server: Server, grace: float) -> tuple[str, Client]:
    """A table of Pocha (one hand of 1) with two people's seats: you, connected as host, and
    Bea, who joined by the API and whose page never connects."""
    table = server.create(
        "pocha",
        params={"schedule": "[1]"},
        grace=grace,
        bot_delay=0,
        seats=[{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2,
    )
    code = str(table["code"])
    server.post(f"/api/tables/{code}/join", {"name": "Bea"})
    me = server.client()
    me.hello(code, str(table["token"]))
    return code, me


def test_a_friend_who_takes_a_seat_and_never_comes_is_stood_in_for() -> None:
    """A seat taken by a join whose page never connected (closed at once, or a client that
    only joined) once held the table up for ever: no connection ever left it, so no bot came."""
    with running() as server:
        code, me = _bea_joins_and_never_comes(server, grace=0.2)
        room = me.until(lambda m: m["type"] == "room" and m["seats"][1]["standin"], 5)
        assert room["seats"][1]["away"] and room["seats"][1]["name"] == "Bea"
        me.send({"type": "start"})
        # Bea's stand-in plays her seat: every move of the match is made, to its end.
        while True:
            view = me.until(lambda m: m["type"] == "view", 10)
            if view["result"] is not None:
                break
            choices = list(view["actions"]["cards"].values()) + [
                b["action"] for b in view["actions"]["buttons"]
            ]
            if choices:
                me.send({"type": "act", "action": choices[0], "version": view["version"]})
        assert server.get(f"/api/tables/{code}")["status"] == "over"
        # The match is over: no bot stands in any more, Bea's seat is hers, shown as away.
        room = me.until(lambda m: m["type"] == "room" and bool(m["over"]), 5)
        assert room["seats"][1]["name"] == "Bea"
        assert room["seats"][1]["away"] and not room["seats"][1]["standin"]


def test_a_friend_the_host_moves_before_coming_is_stood_in_for_at_the_new_seat() -> None:
    """The wait for a friend who has not come goes with them when the host moves them: it was
    left on the old seat number, and the new seat held the table up for ever."""
    with running() as server:
        _, me = _bea_joins_and_never_comes(server, grace=0.5)
        me.send({"type": "move", "seat": 1, "to": 3})
        room = me.until(lambda m: m["type"] == "room" and m["seats"][3]["standin"], 5)
        assert room["seats"][3]["name"] == "Bea" and not room["seats"][1]["standin"]


def test_a_table_nobody_is_at_waits_and_plays_on_when_someone_comes() -> None:
    with running() as server:
        code, _, mine = started_and_left(server, grace=0.1)
        # Long past the grace: a stand-in would have played the whole match by now (random
        # bots, no delay), but nobody is there to see it.
        time.sleep(1.5)
        assert server.get(f"/api/tables/{code}")["status"] == "playing"
        watcher = server.client()
        watcher.hello(code)
        first = watcher.expect("view")
        assert first["version"] == mine["version"]
        # Someone is here: the stand-in and the bots play on, to the end.
        watcher.until(lambda m: m["type"] == "view" and m["version"] > first["version"], 5)
        watcher.until(lambda m: m["type"] == "room" and bool(m["over"]), 20)
        assert server.get(f"/api/tables/{code}")["status"] == "over"


def test_the_turn_timer_plays_for_a_person_who_does_not() -> None:
    with running() as server:
        table = server.create(
            "pocha",
            params={"schedule": "[3]"},
            turn_timer=0.5,
            bot_delay=0,
            seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        )
        me = server.client()
        me.hello(str(table["code"]), str(table["token"]))
        me.send({"type": "start"})
        view = me.until(
            lambda m: m["type"] == "view" and bool(m["actions"]["buttons"] or m["actions"]["cards"])
        )
        assert view["timer"] is not None and 0 < view["timer"] <= 0.5
        start = time.monotonic()
        after = me.until(lambda m: m["type"] == "view" and m["version"] > view["version"], 5)
        assert time.monotonic() - start >= 0.3
        assert after["log"][0] == "Ana ran out of time: a move was played for them"
        assert after["log"][1].startswith("Ana ")


def test_rooms_are_listed_while_they_wait_or_play(server: Server) -> None:
    table = server.create(
        "truco", params={"players": "4"}, seats=[{"kind": "human"}] * 4, public=True
    )
    listed = {t["code"]: t for t in server.listed()}
    assert listed[table["code"]]["status"] == "waiting" and listed[table["code"]]["open"] == 3
    hidden = server.create("truco", public=False)
    assert hidden["code"] not in {t["code"] for t in server.listed()}


def test_room_unit_names_and_levels() -> None:
    async def scenario() -> None:
        rooms = Rooms(MemoryStore())
        room, _, _ = await rooms.create(
            "truco",
            [SeatConfig("human"), SeatConfig("bot", level="hard")],
            name="",
            options=Options(),
        )
        assert isinstance(room, Room)
        assert room.names("es") == ["jugador 1", "bot 2 · difícil"]
        assert room.levels[0] == "random"
        rooms.close()

    asyncio.run(scenario())


def test_a_host_long_gone_before_the_start_hands_the_table_to_the_next_friend_who_comes(
    server: Server,
) -> None:
    """The host shares the link and closes the page; friends come later: the first one seated
    and here may start, rather than the table waiting for ever."""
    table = server.create(
        "pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2, grace=0.2
    )
    code = str(table["code"])
    ana = server.client()
    assert ana.hello(code, str(table["token"]))["host"] is True
    ana.close()
    time.sleep(0.6)  # past the grace, with nobody here to take the table on
    joined = server.post(f"/api/tables/{code}/join", {"name": "Bea"})
    bea = server.client()
    bea.hello(code, str(joined["token"]))
    bea.until(lambda m: m["type"] == "room" and bool(m["host"]))
    bea.send({"type": "start"})
    bea.until(lambda m: m["type"] == "room" and bool(m["started"]))
    back = server.client()  # the old host comes back as a player, no longer the host
    assert back.hello(code, str(table["token"]))["host"] is False
    back.send({"type": "fill", "level": "easy"})
    assert back.expect("error")["rule"] == "not-host"


def test_a_seat_whose_network_goes_silent_is_away_within_the_ping_timeout() -> None:
    """A phone out of coverage closes nothing: the server's pings go unanswered, and the seat is
    away once ``ping_timeout`` has passed, so the grace and the stand-in follow as for a closed
    tab."""
    with running(limits=Limits(ping_every=0.2, ping_timeout=0.4)) as server:
        table = server.create(
            "pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2
        )
        code = str(table["code"])
        ana = server.client()
        ana.hello(code, str(table["token"]))
        joined = server.post(f"/api/tables/{code}/join", {"name": "Bea"})
        network = Network(server)
        bea = Client(open_socket(network.url.replace("http", "ws", 1) + "/ws"), "Bea")
        bea.hello(code, str(joined["token"]))
        ana.until(lambda m: m["type"] == "room" and m["seats"][1]["connected"])
        time.sleep(1)  # the server's pings answered all along: still here
        bea.send({"type": "ping", "t": 1})
        assert bea.expect("pong")["t"] == 1
        network.up.clear()
        gone = ana.until(lambda m: m["type"] == "room" and m["seats"][1]["away"], 5)
        assert not gone["seats"][1]["connected"]
        network.up.set()
        network.close()


def test_a_stand_in_is_said_once_a_match_and_again_in_the_rematch(server: Server) -> None:
    table = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
        grace=0.1,
    )
    code = str(table["code"])
    joined = server.post(f"/api/tables/{code}/join", {"name": "Bea"})
    bea = server.client()
    bea.hello(code, str(joined["token"]))
    bea.close()  # Bea never comes back: a bot stands in for her in both matches
    ana = server.client()
    ana.hello(code, str(table["token"]))
    time.sleep(0.3)
    ana.send({"type": "start"})
    said = stand_in_note("Bea")
    for match in (0, 1):
        lines: list[str] = []
        while True:
            m = ana.until(lambda m: m["type"] in ("view", "room"))
            if m["type"] == "room" and m["over"] and m["match"] == match:
                break
            if m["type"] == "view" and m["match"] == match:
                lines += m["log"]
                if m["actions"]["buttons"] or m["actions"]["cards"]:
                    ana.send({"type": "act", "action": ana.legal()[0]})
        assert lines.count(said) == 1, lines
        if match == 0:
            ana.send({"type": "rematch"})
