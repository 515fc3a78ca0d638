"""``tapete join`` at the terminal's table: a seat at a server's table, drawn as a local one.

Against the real server on a loopback port: the host plays from a WebSocket of its own, the
person at the terminal presses keys, and the match is played to its end at the server.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path

import pytest
from textual.content import Content
from textual.widgets import Static

from tapete import record
from tapete.client import Link, Seats, make_table, take_seat, ws_url
from tapete.tui import TapeteApp
from tapete.tui.remote import Joined, RemoteTableScreen
from tapete.tui.widgets import LogView, MessageLine
from tuikit import text_of
from webclient import Server, host_plays, not_tapete, play_out, table_for_two, zoe_seats

ED = "[/b]Ed[b]"  # a friend's name that Textual's markup cannot read


def test_a_match_at_a_server_is_played_with_the_table_s_keys(
    server: Server, tmp_path: Path
) -> None:
    asyncio.run(_play_at_the_server(server, tmp_path))


async def _play_at_the_server(server: Server, tmp_path: Path) -> None:
    table = table_for_two(server, players=3, schedule="[2, 3]", tiebreak_players="nobody")
    seats = Seats(tmp_path)
    ticket = take_seat(server.url, table["code"], "Zoe", "en", seats)
    host = host_plays(server, table)
    link = Link(ws_url(server.url), table["code"], ticket.token, "en")
    app = TapeteApp(joined=Joined(link, ticket, seats), data=tmp_path, lang="en", contrast=False)
    pressed: list[str] = []
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.screen
        assert isinstance(screen, RemoteTableScreen)
        asked_hint = switched = False
        for _ in range(3000):
            await pilot.pause(0.01)
            scene = screen.scene
            if screen.over:
                break
            if scene is None or not screen.mine or screen.view.get("version") in pressed:
                continue
            if not asked_hint:  # a person sits at the table too: the server says no
                asked_hint = True
                await pilot.press("h")
                for _ in range(200):
                    await pilot.pause(0.01)
                    if "no hint" in screen.message_text:
                        break
                assert (
                    text_of(app.screen.query_one(MessageLine))
                    .strip()
                    .startswith("not allowed: no hint here")
                )
            keys = [c.key for c in scene.cards if c.legal] or [b.key for b in scene.buttons]
            pressed.append(screen.view["version"])
            await pilot.press(keys[0])
            if not switched and len(pressed) == 3:
                switched = True
                await pilot.press("f2")  # Spanish: the table and its log are said again in it
                for _ in range(300):
                    await pilot.pause(0.01)
                    if (
                        screen.scene is not None
                        and screen.scene.lang == "es"
                        and any(" juega " in line or " pide " in line for line in screen.lines)
                    ):
                        break
                assert not any(" plays " in line for line in screen.lines)
        assert screen.over, "the match did not end"
        log = screen.lines
        assert "registro" in text_of(app.screen.query_one(MessageLine))
        assert text_of(app.screen.query_one(LogView))  # the log is drawn
    host.join(30)
    assert app.return_code in (None, 0)
    rec = record.loads(json.dumps(server.get(f"/api/tables/{table['code']}/records/0")))
    record.replay(rec)
    zoe = [a for d in rec.deals for s, a in d.actions if s == 1]
    assert len(zoe) == 2 + 2 + 3  # a bid and the cards of each hand, each a key pressed
    # Every move of Zoe's is told once, in Spanish (the log said again in it at F2).
    told = [line for line in log if line.startswith(("Zoe pide", "Zoe juega"))]
    assert len(told) == len(zoe)


def test_the_host_s_screen_lists_the_seats_and_s_starts_with_bots(
    server: Server, tmp_path: Path
) -> None:
    asyncio.run(_host_at_the_terminal(server, tmp_path))


async def _host_at_the_terminal(server: Server, tmp_path: Path) -> None:
    seats = zoe_seats(server, tmp_path)
    params = {"players": "3", "schedule": "[1]"}
    ticket = make_table(
        server.url, "pocha", params, ["human"] * 3, "Zoe", seats=seats, options={"turn_timer": 60}
    )
    # A friend whose name reads as markup, and as markup that does not parse, is shown as typed.
    ed = server.post(f"/api/tables/{ticket.code}/join", {"name": ED})
    friend = threading.Thread(target=plays, args=(server, ticket.code, ed["token"]), daemon=True)
    friend.start()
    link = Link(ws_url(server.url), ticket.code, ticket.token, "en")
    app = TapeteApp(joined=Joined(link, ticket, seats), data=tmp_path, lang="en", contrast=False)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.screen
        assert isinstance(screen, RemoteTableScreen)
        waiting = screen.query_one("#waiting", Static)
        for _ in range(500):
            await pilot.pause(0.01)
            if "3. empty seat" in text_of(waiting):
                break
        said = str(waiting.render())  # as drawn: the markup read
        assert "1. Zoe (you)" in said and f"2. {ED}" in said
        assert f"tapete join {server.url}/t/{ticket.code}" in said
        assert "s: start now, with bots in the empty seats" in said
        assert screen.has_class("-waiting") and not screen.query_one("#bottom").display
        await pilot.press("s")
        for _ in range(500):
            await pilot.pause(0.01)
            if screen.view:
                break
        assert screen.view and not screen.has_class("-waiting")
        assert [s["kind"] for s in screen.room["seats"]] == ["human", "human", "bot"]
        assert screen.query_one("#bottom").display  # the table, its log and scores
        # On the seat's box, as drawn (the title's markup read), and over the scores.
        for _ in range(500):
            await pilot.pause(0.01)
            titles = [Content.from_markup(str(s.border_title)).plain for s in screen.query(".seat")]
            if len(titles) == 3:
                break
        assert titles[1] == ED
        assert ED in text_of(screen.query_one("#score-table", Static))
        for _ in range(500):
            await pilot.pause(0.01)
            if screen.mine:
                break
        # The turn timer's seconds, before what the move means.
        assert re.match(r"(60|59|58) seconds left to play · ", screen.shown_message())
        pressed: set[object] = set()
        for _ in range(3000):  # the one-card hand, played by keys
            await pilot.pause(0.01)
            scene, version = screen.scene, screen.view.get("version")
            if screen.over:
                break
            if scene is None or not screen.mine or version in pressed:
                continue
            pressed.add(version)
            await pilot.press(
                ([c.key for c in scene.cards if c.legal] or [scene.buttons[0].key])[0]
            )
        assert screen.over and "r: rematch" in text_of(app.screen.query_one(MessageLine))
        await pilot.press("r")  # a rematch, at the same table, for everyone
        for _ in range(1000):
            await pilot.pause(0.01)
            if screen.view.get("match") == 1:
                break
        assert screen.view.get("match") == 1 and not screen.over
        assert any("Zoe started a rematch" in line for line in screen.lines), screen.lines
    friend.join(30)


def plays(server: Server, code: str, token: str) -> None:
    """A friend's seat, played out from a WebSocket of its own once the match starts."""
    friend = server.client()
    friend.hello(code, token)
    friend.expect("view", timeout=30)
    play_out(friend)
    friend.close()


def test_a_message_of_another_shape_ends_the_table_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server of another version of tapete sends a view without a field this one needs: the
    terminal's table closes saying so, in the person's language, with no traceback."""
    room = {"type": "room", "spec": "pocha(players=3)", "seats": [], "started": True}
    view = {"type": "view", "log": [], "actions": {}}

    async def go() -> None:
        async with not_tapete([{"type": "welcome"}, room, view]) as url:
            link = Link(url, "ABCDE", None, "pt")
            app = TapeteApp(joined=Joined(link, None, None), data=tmp_path, lang="pt")
            async with app.run_test(size=(100, 34)) as pilot:
                for _ in range(500):
                    await pilot.pause(0.01)
                    if app.return_code is not None:
                        break
            assert app.return_code == 2

    capsys.readouterr()
    asyncio.run(go())
    said = " ".join(capsys.readouterr().err.split())  # as said, the terminal's wrapping undone
    assert "Traceback" not in said
    assert said.startswith("tapete: http://127.0.0.1:"), said
    assert said.endswith(
        "enviou uma mensagem view que este tapete não sabe ler (no field 'table'): outra versão?"
    ), said
