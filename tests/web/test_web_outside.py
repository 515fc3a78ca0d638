"""The web app never seats an outside bot: it would run a program a visitor names."""

from __future__ import annotations

import json
import urllib.error

import pytest

from webclient import Server

OUTSIDE = "exec(cmd=\"sh -c 'touch pwned'\")"
REFUSED = f"{OUTSIDE} is not for the web app: outside bots run a program of the machine"


def test_a_table_with_an_outside_bot_is_refused_with_the_reason(server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": OUTSIDE}] + [{"kind": "bot"}] * 2
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.create(seats=seats)
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["detail"].startswith(REFUSED)
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.create(standby=OUTSIDE)
    assert json.loads(refused.value.read())["detail"].startswith(REFUSED)


def test_the_host_cannot_seat_an_outside_bot(server: Server) -> None:
    table = server.create(seats=[{"kind": "human"}] * 4)  # three seats wait for friends
    me = server.client()
    me.hello(str(table["code"]), str(table["token"]))
    me.expect("room")
    for message in (
        {"type": "fill", "level": OUTSIDE},
        {"type": "seat", "seat": 1, "kind": "bot", "level": OUTSIDE},
    ):
        me.send(message)
        error = me.expect("error")
        assert error["rule"] == "bad-level" and error["message"].startswith(REFUSED)
    # Nothing was seated: the open seats take the bots of a level now.
    me.send({"type": "fill", "level": "random"})
    room = me.until(lambda m: m["type"] == "room" and m["seats"][3]["kind"] == "bot")
    assert [s["level"] for s in room["seats"][1:]] == ["random"] * 3
