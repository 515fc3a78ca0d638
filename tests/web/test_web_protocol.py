"""The WebSocket protocol against the real server: every message type, every bad input."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time

import pytest
from starlette.websockets import WebSocket
from websockets.exceptions import ConnectionClosed

from tapete.i18n import RULES, tr
from tapete.web import Limits
from webclient import Client, Server, my_turn, running


def seated(server: Server, game: str = "pocha", **body: object) -> tuple[Client, dict[str, object]]:
    table = server.create(game, **body)
    me = server.client()
    me.hello(str(table["code"]), str(table["token"]))
    me.expect("room")
    return me, table


def started(
    server: Server, game: str = "pocha", **body: object
) -> tuple[Client, dict[str, object]]:
    me, table = seated(server, game, **body)
    me.send({"type": "start"})
    me.expect("view")
    return me, table


def frozen(server: Server) -> Client:
    """A started table of four people where nobody else acts: nothing moves unless we do."""
    me, table = seated(server, params={"schedule": "[3]"}, seats=[{"kind": "human"}] * 4)
    for name in ("Bea", "Cai", "Dani"):
        server.post(f"/api/tables/{table['code']}/join", {"name": name})
    me.send({"type": "start"})
    me.expect("view")
    return me


def test_hello_gives_welcome_room_and_view(server: Server) -> None:
    me, table = seated(server, params={"schedule": "[1, 2]"})
    assert me.seen[0] == {
        "type": "welcome",
        "code": table["code"],
        "seat": 0,
        "host": True,
        "lang": "en",
        "refused": False,
    }
    room = me.seen[1]
    assert room["type"] == "room" and room["you"] == 0 and room["host"] and not room["started"]
    assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot", "bot"]
    me.send({"type": "fill", "level": "hard"})  # no seat is left: nothing changes
    assert me.expect("error")["rule"] == "no-open-seat"
    me.send({"type": "start"})
    view = me.expect("view")
    assert view["version"] == 0 and view["table"]["game"] == "Pocha"
    assert len(view["table"]["hand"]) == 1
    assert view["log"] and "deals" in view["log"][0]


def test_a_spectator_gets_the_public_view(server: Server) -> None:
    _, table = started(server, params={"schedule": "[3]"})
    watcher = server.client()
    welcome = watcher.hello(str(table["code"]))
    assert welcome["seat"] is None and not welcome["host"] and not welcome["refused"]
    view = watcher.expect("view")
    assert view["table"]["hand"] == [] and view["actions"] == {
        "cards": {},
        "buttons": [],
        "refused": [],
        "refused_cards": {},
        "explain": "",
    }
    watcher.send({"type": "act", "action": "bid 0"})
    assert watcher.expect("error")["rule"] == "spectator"
    # naming a seat makes no spectator a player: it is told it watches, not that it is not
    # that seat's
    for seat in (0, 1):
        watcher.send({"type": "act", "action": "bid 0", "seat": seat, "version": 0})
        assert watcher.expect("error")["rule"] == "spectator"


def test_act_plays_and_everyone_is_told(server: Server) -> None:
    me, _ = started(server, params={"schedule": "[2]"})
    view = my_turn(me)
    action = me.legal()[0]
    me.send({"type": "act", "action": action})
    after = me.view_at(int(view["version"]) + 1)
    assert after["log"][0].startswith("Ana ")


def test_ping_pong(server: Server) -> None:
    me, _ = seated(server)
    me.send({"type": "ping", "t": 42})
    assert me.expect("pong") == {"type": "pong", "t": 42}
    deep: object = 2**70  # what the fast encoder declines comes back all the same
    for _ in range(300):
        deep = [deep]
    me.send({"type": "ping", "t": deep})
    assert me.expect("pong") == {"type": "pong", "t": deep}
    me.send("[" * 1500 + "]" * 1500)  # deeper than Python parses
    assert me.expect("error")["rule"] == "bad-json"
    me.send({"type": "ping", "t": 1})
    assert me.expect("pong")["t"] == 1


def test_lang_switch_resends_room_and_view_in_the_new_language(server: Server) -> None:
    me, _ = started(server, params={"schedule": "[2]"})
    me.send({"type": "lang", "lang": "pt-BR"})
    room = me.expect("room")
    assert room["seats"][1]["name"].startswith("bot 2 · ")
    view = me.expect("view")
    assert view["table"]["title"].startswith("Pocha — mão 1 de 1")
    me.send({"type": "lang", "lang": "es"})
    view = me.until(
        lambda m: m["type"] == "view" and m["table"]["title"].startswith("Pocha — mano")
    )
    assert view["table"]["title"] == "Pocha — mano 1 de 1"
    me.send({"type": "lang", "lang": "fr"})
    assert me.expect("error")["rule"] == "bad-lang"


def test_hint_against_bots(server: Server) -> None:
    me, _ = started(server, params={"schedule": "[3]"})
    my_turn(me)
    me.send({"type": "hint"})
    hint = me.expect("hint", timeout=20)
    assert hint["action"] in me.legal()
    assert hint["label"] and hint["reason"]
    # The hint box says "hint: LABEL — REASON": the reason does not name the move again.
    assert not hint["reason"].startswith((hint["action"], hint["label"])), hint


def test_a_hint_asked_in_the_waiting_room_says_the_match_has_not_started(server: Server) -> None:
    """It once said "it is not your turn: wait for the other players", with nobody to wait for
    but the host's start."""
    made = server.create("truco", seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    me = server.client()
    me.hello(made["code"], made["token"], "es")
    me.send({"type": "hint"})
    refused = me.expect("error")
    assert refused["rule"] == "not-started"
    assert refused["text"] == "la partida aún no ha empezado: la empieza el anfitrión"
    me.close()


def test_a_spectator_asking_for_a_hint_is_told_it_watches(server: Server) -> None:
    """At a table of one person against bots, a spectator's hint was refused as "no hint
    here: hints are for tables against bots", which this table is: the refusal is that it
    watches, in its language, and no move of anyone's hand is told."""
    me, table = started(server, params={"schedule": "[3]"})
    watcher = server.client()
    watcher.hello(str(table["code"]), lang="es")
    watcher.expect("room")
    watcher.send({"type": "hint"})
    refused = watcher.expect("error")
    assert refused["rule"] == "spectator", refused
    assert refused["text"] == tr("es", RULES["spectator"])
    assert [m for m in watcher.seen if m["type"] == "hint"] == []
    watcher.close()
    me.close()


def test_an_act_with_a_null_seat_plays_for_one_s_own_seat(server: Server) -> None:
    """``seat`` is optional, and JSON's null is how many clients leave a field out: it was
    refused as "you can only act for your own seat", naming a seat nobody asked for."""
    me, _ = started(server, params={"schedule": "[3]"})
    version = my_turn(me)["version"]
    assert isinstance(version, int)
    me.send({"type": "act", "action": me.legal()[0], "seat": None})
    me.view_at(version + 1)
    assert [m for m in me.seen if m["type"] == "error"] == []
    me.close()


def test_a_version_too_large_for_a_view_is_refused_as_not_a_whole_number(server: Server) -> None:
    """2**70 reads as a float: it was refused as 'its "version" is a number', which it is."""
    me, _ = started(server, params={"schedule": "[3]"})
    my_turn(me)
    me.send('{"type": "act", "action": "bid 0", "version": 1180591620717411303424}')
    refused = me.expect("error")
    assert refused["rule"] == "bad-message"
    assert "version" in refused["message"] and "whole number" in refused["message"]
    assert_still_up(me)
    me.close()


def test_a_hint_is_thought_of_once_however_many_connections_of_the_seat_ask(
    server: Server,
) -> None:
    me, table = started(server, params={"schedule": "[3]"})
    my_turn(me)
    others = [server.client() for _ in range(3)]  # the same seat's token, more connections
    for other in others:
        other.hello(str(table["code"]), str(table["token"]))
    thinkers = server.app.state.thinkers
    before = thinkers.decisions
    for asker in (me, *others, me):
        asker.send({"type": "hint"})
    hints = [asker.expect("hint", timeout=20) for asker in (me, *others, me)]
    assert len({h["action"] for h in hints}) == 1
    assert thinkers.decisions == before + 1  # bots of other tables do not queue behind them


def test_hint_refused_at_tables_with_friends(server: Server) -> None:
    me, _ = seated(
        server, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    )
    me.send({"type": "hint"})
    assert me.expect("error")["rule"] == "no-hint"


def test_host_controls_seat_fill_move_remove_start(server: Server) -> None:
    me, table = seated(
        server, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]
    )
    code = str(table["code"])
    me.send({"type": "start"})
    assert me.expect("error")["rule"] == "seats-open"
    joined = server.post(f"/api/tables/{code}/join", {"name": "Bea"})
    assert joined["seat"] == 1
    bea = server.client()
    assert bea.hello(code, joined["token"])["seat"] == 1
    bea.send({"type": "start"})
    assert bea.expect("error")["rule"] == "not-host"
    me.send({"type": "seat", "seat": 3, "kind": "open"})
    room = me.until(lambda m: m["type"] == "room" and m["seats"][3]["kind"] == "open")
    me.send({"type": "move", "seat": 1, "to": 3})
    room = me.until(lambda m: m["type"] == "room" and m["seats"][3]["name"] == "Bea")
    assert room["seats"][1]["kind"] == "open"
    assert bea.until(lambda m: m["type"] == "room" and m["you"] == 3)["you"] == 3
    me.send({"type": "remove", "seat": 3})
    removed = bea.until(lambda m: m["type"] == "welcome")
    assert removed["seat"] is None and removed["refused"]  # the page forgets the token
    again = server.client()
    refused = again.hello(code, joined["token"])  # the token holds no seat now
    assert refused["seat"] is None and refused["refused"]
    me.send({"type": "fill", "level": "random"})
    room = me.until(lambda m: m["type"] == "room" and all(s["kind"] != "open" for s in m["seats"]))
    assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot", "bot"]
    me.send({"type": "fill", "level": "hard"})  # no seat is left: nothing changes
    assert me.expect("error")["rule"] == "no-open-seat"
    me.send({"type": "start"})
    assert me.expect("view")["version"] == 0
    me.send({"type": "start"})
    assert me.expect("error")["rule"] == "started"


def test_rematch_after_the_match(server: Server) -> None:
    me, table = started(
        server,
        params={"schedule": "[1]"},
        seats=[
            {"kind": "human"},
            {"kind": "bot", "level": "random"},
            {"kind": "bot", "level": "random"},
            {"kind": "bot", "level": "random"},
        ],
    )
    me.send({"type": "rematch"})
    assert me.expect("error")["rule"] == "no-rematch"
    while not (me.view and me.view["result"]):
        if me.legal():
            me.send({"type": "act", "action": me.legal()[0]})
        me.expect("view")
    record = server.get(f"/api/tables/{table['code']}/records/0")
    assert record["format"] == "tapete-record/1" and record["result"] is not None
    me.send({"type": "rematch"})
    view = me.until(lambda m: m["type"] == "view" and m["match"] == 1)
    assert view["version"] == 0 and view["result"] is None


def test_two_players_pressing_rematch_at_once_start_one_rematch_and_neither_is_refused(
    server: Server,
) -> None:
    """Both saw the end of match 0 and pressed "rematch": the second press, arriving once the
    first started match 1, once got "a rematch is for the players, once the match is over" as
    the new match began."""
    table = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}] * 2 + [{"kind": "bot", "level": "random"}] * 2,
    )
    code = str(table["code"])
    joined = server.post(f"/api/tables/{code}/join", {"name": "Bea"})
    ana, bea = server.client(), server.client()
    ana.hello(code, str(table["token"]))
    bea.hello(code, str(joined["token"]))
    ana.send({"type": "start"})
    people = [ana, bea]
    while not all(p.view is not None and p.view["result"] for p in people):
        for person in people:
            view = person.view
            if view is not None and not view["result"] and person.legal():
                person.send({"type": "act", "action": person.legal()[0]})
                person.view_at(view["version"] + 1)
            with contextlib.suppress(TimeoutError):
                person.recv(0.1)
    ana.send({"type": "rematch", "match": 0})
    ana.until(lambda m: m["type"] == "view" and m["match"] == 1)
    told = len(bea.seen)
    bea.send({"type": "rematch", "match": 0})
    assert_still_up(bea)
    assert [m for m in bea.seen[told:] if m["type"] == "error"] == []
    assert server.get(f"/api/tables/{code}")["match"] == 1  # one rematch, not two
    ana.close()
    bea.close()


# --- bad input: an error with the rule code, nothing changes, the connection stays up -----------


def assert_still_up(me: Client) -> None:
    me.send({"type": "ping", "t": "up"})
    assert me.expect("pong")["t"] == "up"


@pytest.mark.parametrize(
    ("raw", "rule"),
    [
        ("{not json", "bad-json"),
        ('{"type": "act", "action": "bid 0", "version": NaN}', "bad-json"),  # Python's, not JSON
        ('{"type": "ping", "t": -Infinity}', "bad-json"),
        ("[1, 2]", "bad-message"),
        (json.dumps({"no": "type"}), "bad-message"),
        (json.dumps({"type": "dance"}), "unknown-type"),
        (json.dumps({"type": "act"}), "bad-message"),
        (json.dumps({"type": "act", "action": "dance"}), "invalid-action"),
        (json.dumps({"type": "act", "action": "bid 0", "seat": 3}), "not-your-seat"),
        (json.dumps({"type": "move", "seat": 1, "to": 2}), "started"),
        (json.dumps({"type": "fill", "level": "hard"}), "started"),  # no seat is empty then
        (json.dumps({"type": "hello", "code": "NOPE1"}), "no-such-table"),
        (json.dumps({"type": "hello", "code": 7}), "bad-message"),
        (json.dumps({"type": "rematch", "match": "0"}), "bad-message"),
        (json.dumps({"type": "rematch", "match": True}), "bad-message"),
        (json.dumps({"type": "rematch", "match": -1}), "bad-message"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(server: Server, raw: str, rule: str) -> None:
    me = frozen(server)
    version = me.view["version"] if me.view else 0
    me.send(raw)
    error = me.expect("error")
    assert error["rule"] == rule and error["message"] and error["text"]
    assert_still_up(me)
    assert me.view is not None and me.view["version"] == version


# JSON may escape half a UTF-16 pair ("\\ud800"): text no UTF-8 can hold, so it can be neither
# hashed (a token), stored nor sent back (a pong's ``t``, a refused level quoted in the error).
LONE = "\\ud800"


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "hello", "code": "%s", "token": "' + LONE + '"}',
        '{"type": "hello", "code": "' + LONE + '"}',
        '{"type": "ping", "t": {"a": ["' + LONE + '"]}}',
        '{"type": "fill", "level": "exec(' + LONE + ')"}',
        '{"type": "act", "action": "bid ' + LONE + '"}',
        '{"type": "act", "' + LONE + '": 1}',
    ],
)
def test_text_no_utf8_holds_is_refused_as_not_json(server: Server, raw: str) -> None:
    me, table = seated(server, seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    # a hello from a connection of its own (one at the table may not say it again so soon)
    sender = server.client() if '"hello"' in raw else me
    sender.send(raw.replace("%s", str(table["code"])))
    error = sender.expect("error")
    assert error["rule"] == "bad-json" and "surrogate" in error["message"]
    assert_still_up(sender)
    assert_still_up(me)
    assert server.get(f"/api/tables/{table['code']}")["open"] == 1  # nothing changed: no fill


@pytest.mark.parametrize(
    "control",
    [
        {"type": "move", "seat": False, "to": True},  # JSON's true is no seat 1
        {"type": "move", "seat": 0, "to": 1.0},
        {"type": "seat", "seat": True, "kind": "open"},
        {"type": "remove", "seat": True},
    ],
)
def test_a_seat_is_a_whole_number_not_a_boolean(server: Server, control: dict[str, object]) -> None:
    me, table = seated(server, seats=[{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot"}] * 2)
    server.post(f"/api/tables/{table['code']}/join", {"name": "Bea"})
    room = server.app.state.rooms.get(table["code"])
    before = [(s.kind, s.name) for s in room.truth.seats]
    me.send(control)
    assert me.expect("error")["rule"] == "bad-seat"
    assert_still_up(me)
    assert [(s.kind, s.name) for s in room.truth.seats] == before


def test_acting_names_its_own_seat_by_number(server: Server) -> None:
    me = frozen(server)
    version = me.view["version"] if me.view else 0
    for seat in (False, 0.0, "0"):
        me.send({"type": "act", "action": "bid 0", "seat": seat})
        assert me.expect("error")["rule"] == "bad-message"
    assert_still_up(me)
    assert me.view is not None and me.view["version"] == version


def test_a_field_a_message_does_not_have_is_refused_naming_it(server: Server) -> None:
    """A misspelt field is no field left out: a move sent with "verison" would be played
    whatever the table did since it was chosen."""
    me, _ = started(server, params={"schedule": "[3]"}, bot_delay=0)
    version = int(my_turn(me)["version"])
    me.send({"type": "act", "action": me.legal()[0], "verison": version - 1})
    error = me.expect("error")
    assert error["rule"] == "bad-message" and "'verison'" in error["message"]
    me.send({"type": "ping", "t": 1, "lang": "es"})
    assert me.expect("error")["rule"] == "bad-message"
    assert_still_up(me)
    assert me.view is not None and me.view["version"] == version
    me.send({"type": "act", "action": me.legal()[0], "version": version})
    me.view_at(version + 1)


def test_a_binary_frame_is_read_as_utf8_json_and_refused_when_it_is_not(server: Server) -> None:
    me, _ = seated(server)
    me.ws.send(json.dumps({"type": "ping", "t": "bin"}).encode())
    assert me.expect("pong")["t"] == "bin"
    me.ws.send(b'{"type": "ping", "t": "\xff"}')  # not UTF-8: not read as a pong's "\ufffd"
    error = me.expect("error")
    assert error["rule"] == "bad-json" and "UTF-8" in error["message"]
    assert_still_up(me)


def test_a_text_frame_that_is_not_utf8_closes_the_connection(server: Server) -> None:
    """The WebSocket protocol's own rule (RFC 6455: 1007), before any message is read."""
    me, _ = seated(server)
    me.ws.send(b'{"type": "ping", "t": "\xff"}', text=True)
    with pytest.raises(ConnectionClosed):
        me.recv(timeout=5)
    assert me.ws.close_code == 1007


def test_a_hello_s_language_is_a_tag_not_a_number(server: Server) -> None:
    table = server.create("pocha")
    me = server.client()
    me.send({"type": "hello", "code": table["code"], "lang": 5})
    error = me.expect("error")
    assert error["rule"] == "bad-message" and '"lang"' in error["message"]
    # A tag the app does not speak is English: a browser's language may be any.
    assert me.hello(str(table["code"]), lang="fr")["lang"] == "en"


def test_messages_before_hello_are_refused(server: Server) -> None:
    me = server.client()
    me.send({"type": "act", "action": "bid 0"})
    assert me.expect("error")["rule"] == "no-table"
    assert_still_up(me)


def test_out_of_turn_and_illegal_actions(server: Server) -> None:
    me, _ = started(server, params={"schedule": "[3]", "dealer_hook": "true"}, bot_delay=0)
    view = my_turn(me)
    version = int(view["version"])
    phase_bid = any(a.startswith("bid") for a in me.legal())
    me.send({"type": "act", "action": "bid 7" if phase_bid else "play 99"})
    error = me.expect("error")
    assert error["rule"] in ("bid-range", "invalid-action")
    me.send({"type": "act", "action": "dance"})
    assert me.expect("error")["rule"] == "invalid-action"
    me.send({"type": "act", "action": me.legal()[0], "seat": 2})
    assert me.expect("error")["rule"] == "not-your-seat"
    assert_still_up(me)
    assert me.view is not None and me.view["version"] == version
    me.send({"type": "act", "action": me.legal()[0]})
    me.view_at(version + 1)
    if me.view and not me.legal():
        me.send({"type": "act", "action": "bid 0"})
        error = me.expect("error")
        assert error["rule"] in ("not-your-turn", "not-bidding")


def test_a_move_chosen_on_an_older_version_is_refused(server: Server) -> None:
    me, _ = started(server, params={"schedule": "[3]"}, bot_delay=0)
    view = my_turn(me)
    version = int(view["version"])
    me.send({"type": "act", "action": me.legal()[0], "version": version - 1})
    assert me.expect("error")["rule"] == "moved-on"
    me.send({"type": "act", "action": me.legal()[0], "version": "7"})
    assert me.expect("error")["rule"] == "bad-message"
    assert_still_up(me)
    assert me.view is not None and me.view["version"] == version
    me.send({"type": "act", "action": me.legal()[0], "version": version})
    me.view_at(version + 1)


def test_an_illegal_card_names_the_rule(server: Server) -> None:
    # Try seeds until seat 0 holds a card the rules forbid at its turn to play.
    for seed in range(40):
        me, _ = started(server, params={"schedule": "[3]"}, seed=seed, bot_delay=0)
        my_turn(me)
        if me.legal()[0].startswith("bid"):
            me.send({"type": "act", "action": me.legal()[0]})
            me.until(lambda m: m["type"] == "view" and bool(m["actions"]["cards"]))
        assert me.view is not None
        hand = me.view["table"]["hand"]
        cards = me.view["actions"]["cards"]
        illegal = [c for c in hand if c not in cards]
        if illegal:
            me.send({"type": "act", "action": f"play {illegal[0]}"})
            error = me.expect("error")
            assert error["rule"] in (
                "must-follow-suit",
                "must-beat",
                "must-trump",
                "must-overtrump",
            )
            assert illegal[0] not in error["text"] or error["rule"]  # the sentence names the rule
            assert_still_up(me)
            return
        me.close()
    pytest.fail("no seed gave an illegal card")


def test_oversized_messages_are_cut_off(server: Server) -> None:
    me, _ = seated(server)
    me.send(json.dumps({"type": "ping", "t": "x" * 10_000}))
    assert me.expect("error")["rule"] == "too-large"
    with pytest.raises(ConnectionClosed):
        me.recv(timeout=5)
    assert me.ws.close_code == 1009


def test_floods_are_cut_off(server: Server) -> None:
    me, _ = seated(server)
    for _ in range(200):
        try:
            me.send({"type": "ping"})
        except ConnectionClosed:
            break
    with pytest.raises(ConnectionClosed):
        while True:
            message = me.recv(timeout=5)
            if message["type"] == "error":
                assert message["rule"] == "flood"
    assert me.ws.close_code == 1008


# --- what one connection may cost the others ---------------------------------------------------


def test_hello_again_soon_is_refused_and_the_same_seat_again_tells_only_itself(
    server: Server,
) -> None:
    # Each hello used to leave and join the room again, telling everyone there: a few watchers
    # saying hello in a loop closed a seated player's connection with their flood of news.
    me, table = started(server)
    code = str(table["code"])
    watcher = server.client()
    watcher.hello(code)
    me.expect("room")  # a watcher came: everyone is told once
    watcher.send({"type": "hello", "code": code})  # at once: refused, nothing told
    assert watcher.expect("error")["rule"] == "hello-too-soon"
    me.send({"type": "ping", "t": 1})
    assert me.until(lambda m: m["type"] in ("pong", "room"))["type"] == "pong"
    time.sleep(1.05)
    me.send({"type": "hello", "code": code, "token": table["token"], "lang": "es"})
    assert me.expect("welcome")["lang"] == "es" and me.expect("room")["you"] == 0
    watcher.send({"type": "ping", "t": 2})
    assert watcher.until(lambda m: m["type"] in ("pong", "room"))["type"] == "pong"


def test_a_connection_that_never_says_hello_is_closed() -> None:
    with running(limits=Limits(hello_within=0.3)) as quick:
        silent = quick.client()
        assert silent.expect("error", timeout=5)["rule"] == "no-hello"
        with pytest.raises(ConnectionClosed):
            silent.recv(timeout=5)


def test_a_message_the_server_cannot_send_closes_the_connection_and_is_logged(
    server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A write to a socket that fails on the server's side (not the client leaving) must not
    leave the connection open and silent, its messages taken and never answered: it is closed
    with 1011, so the page reconnects, and the host reads which connection, at which table."""
    caplog.set_level(logging.ERROR, logger="tapete.web")
    table = server.create("pocha")
    marker = f"unsendable-{secrets.token_hex(4)}"
    send_text = WebSocket.send_text

    async def failing(ws: WebSocket, data: str) -> None:
        if marker in data:
            raise RuntimeError("the transport broke")
        await send_text(ws, data)

    monkeypatch.setattr(WebSocket, "send_text", failing)
    me = server.client()
    me.hello(table["code"], table["token"])
    me.send({"type": "ping", "t": marker})
    with pytest.raises(ConnectionClosed) as closed:
        me.until(lambda m: False)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
    said = [r for r in caplog.records if r.exc_info and "could not be sent" in r.getMessage()]
    assert said and f"room {table['code']}, seat 0" in said[0].getMessage()
    again = server.client()  # the page comes back to its seat
    assert again.hello(table["code"], table["token"])["seat"] == 0
    again.send({"type": "ping", "t": 1})
    assert again.expect("pong")["t"] == 1
    again.close()
