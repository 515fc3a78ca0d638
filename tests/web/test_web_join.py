"""``tapete join``: a person at a line prompt sits at a server's table beside people in browsers.

Against the real server (the session's, on a loopback port): the seat is taken as a browser
takes one, the match is played to its end over the WebSocket, what the person typed is what
the record holds, and the seat token is kept so that joining again comes back to the seat.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tapete import record
from tapete.client import JoinError, Link, Seats, parse_link, take_seat, ws_url
from tapete.joinprompt import Prompt
from webclient import Server, free_port, host_plays, not_tapete, table_for_two

SRC = Path(__file__).resolve().parents[2] / "src"


def command_env(data: Path) -> dict[str, str]:
    """The environment of ``tapete`` run as a command, its data folder ``data``."""
    source = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "TAPETE_DATA": str(data), "PYTHONPATH": source}


def tapete(args: list[str], data: Path) -> subprocess.CompletedProcess[str]:
    """``tapete ARGS`` run as a command with its data folder ``data`` and no input."""
    return subprocess.run(
        [sys.executable, "-m", "tapete", *args],
        env=command_env(data),
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )


async def play_at_prompt(
    prompt: Prompt,
    typed: list[str],
    drop_after: int = -1,
    matches: int = 1,
    rematch: bool = False,
    deadline: float = 240,
) -> int:
    """Run ``prompt`` as a person would use it: ``typed`` first (one line each time moves are
    on offer), then the last move on offer each time, and ``q`` once ``matches`` matches are
    over (``rematch``: type it when one is over before that). ``drop_after``: cut the
    connection after that many moves, as a network would, to see it come back by itself.
    ``deadline``: the seconds the whole match may take before the test fails (not hangs)."""
    playing = asyncio.ensure_future(prompt.run())
    # The view last answered, held (not its id: a view freed may leave its id to the next).
    answered: object = None
    moves = over = 0
    async with asyncio.timeout(deadline):
        while not playing.done():
            await asyncio.sleep(0.01)
            if prompt.over != (over % 2 == 1):  # a match has ended, or a rematch begun
                over += 1
                if prompt.over and (over + 1) // 2 == matches:
                    prompt.lines.put_nowait("q")
                elif prompt.over and rematch:
                    prompt.lines.put_nowait("rematch")
            # Each view that offers moves is answered once (one sent again after a drop, too).
            if not prompt.offered or prompt.view is answered:
                continue
            answered = prompt.view
            if typed:
                prompt.lines.put_nowait(typed.pop(0))
                answered = None  # the same view may need another line
                await asyncio.sleep(0.2)
                continue
            prompt.lines.put_nowait(prompt.offered[-1])
            moves += 1
            if moves == drop_after:
                await prompt.link._socket.close()
    return await asyncio.wait_for(playing, 60)


def test_a_match_is_played_to_its_end_from_the_prompt(server: Server, tmp_path: Path) -> None:
    table = table_for_two(server, players=3, schedule="[2, 3]", tiebreak_players="nobody")
    seats = Seats(tmp_path)
    ticket = take_seat(server.url, table["code"], "Zoe", "en", seats)
    assert ticket.seat == 1
    host = host_plays(server, table)
    out = io.StringIO()

    async def main() -> int:
        link = Link(ws_url(server.url), table["code"], ticket.token, "en")
        prompt = Prompt(link, ticket, out, "en", seats)
        # A word that is no move, a move the rules refuse, and a hint at a table of people.
        return await play_at_prompt(prompt, ["nonsense", "bid 9", "hint"], drop_after=3)

    assert asyncio.run(main()) == 0
    host.join(30)
    said = out.getvalue()
    assert "Zoe (you)" in said and "waiting for the host to start" in said
    assert "'nonsense'" in said  # the notation's own explanation of what it cannot read
    assert "not allowed: a bid is 0 to 2 tricks in this hand" in said
    assert "not allowed: no hint here" in said  # another person sits at the table
    assert "match over" in said
    # The connection cut mid-match came back by itself, and the recent log it sent again was
    # not said twice: each of Zoe's moves is told once.
    told = [line for line in said.splitlines() if line.startswith(("Zoe plays", "Zoe bids"))]
    assert len(told) == 2 + 2 + 3
    url = said.split("the record: ")[1].split()[0]
    assert url == f"{server.url}/api/tables/{table['code']}/records/0"
    rec = record.loads(json.dumps(server.get(url.removeprefix(server.url))))
    record.replay(rec)
    zoe = [a for d in rec.deals for s, a in d.actions if s == 1]
    # A bid and the cards of each hand, as told (the log names the moves in the notation).
    assert [f"Zoe {a.replace('bid', 'bids').replace('play', 'plays')}" for a in zoe] == told


HOSTILE = "\x1b]0;owned\x07\x1b[2J"
"""Terminal escapes: retitle the window, a bell, clear the screen."""
RIGHT_TO_LEFT = "\u2068דנה\u2069 and 👩\u200d💻"
"""A right-to-left name as a server's line isolates it, and an emoji of two joined."""


def test_what_a_server_sends_cannot_act_on_the_terminal() -> None:
    # Another program answering at a table's link may send terminal escapes in any text: the
    # prompt shows them, inert.
    ana = [{"seat": 0, "name": f"Ana{HOSTILE}"}]
    said: list[dict[str, Any]] = [
        {"type": "welcome", "host": False},
        {"type": "room", "spec": "pocha(players=3)", "title": f"Pocha{HOSTILE}", "seats": []},
        {"type": "room", "spec": "pocha(players=3)", "seats": ana},
        {"type": "error", "text": f"no{HOSTILE}"},
        {"type": "error", "text": RIGHT_TO_LEFT},
        {"type": "hint", "label": "bid 1", "reason": f"\x9b31m{HOSTILE}"},
        {"type": "error", "rule": "no-such-table", "text": f"gone{HOSTILE}"},
    ]

    async def main() -> int:
        async with not_tapete(said) as url:
            link = Link(url, "ABCDE", None, "en")
            return await asyncio.wait_for(Prompt(link, None, out, "en", None).run(), 20)

    out = io.StringIO()
    assert asyncio.run(main()) == 0
    shown = out.getvalue()
    assert all(ch.isprintable() or ch in "\n\u200d\u2068\u2069" for ch in shown)
    # What tapete's own lines carry and a terminal shows stays: the isolates around a
    # right-to-left name, an emoji's joiner.
    assert f"not allowed: {RIGHT_TO_LEFT}" in shown
    escaped = "\\x1b]0;owned\\x07\\x1b[2J"
    for line in (f"Pocha{escaped}", f"1. Ana{escaped}", f"not allowed: no{escaped}"):
        assert line in shown
    assert f"hint: bid 1 — \\x9b31m{escaped}" in shown and f"tapete: gone{escaped}" in shown


def test_a_message_of_another_shape_is_said_not_a_traceback() -> None:
    # A server of another version of tapete may send a view without a field this one needs.
    room = {"type": "room", "spec": "pocha(players=3)", "seats": [], "started": True}
    view = {"type": "view", "log": ["Ana bids 1"], "actions": {"cards": {"3o": "play 3o"}}}

    async def main() -> None:
        async with not_tapete([{"type": "welcome"}, room, view]) as url:
            link = Link(url, "ABCDE", None, "es")
            await asyncio.wait_for(Prompt(link, None, out, "es", None).run(), 20)

    out = io.StringIO()
    with pytest.raises(JoinError) as refused:
        asyncio.run(main())
    said = refused.value.in_language("es")
    assert said.endswith(
        "envió un mensaje view que este tapete no sabe leer (no field 'table'): ¿otra versión?"
    )
    assert "Ana bids 1" in out.getvalue()  # what came before it was shown


def test_a_server_that_is_not_tapete_s_is_said_plainly(tmp_path: Path) -> None:
    # A web server of another program at the link (a page, or JSON of another shape): the
    # join is refused with one line, no seat kept, no traceback.
    import http.server

    pages = {"/api/tables/ABCDE/join": b"{}", "/api/tables/FGHIJ/join": b"<html>hi</html>"}

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = pages.get(self.path.split("?")[0], b"[]")
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    listening = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Answer)
    threading.Thread(target=listening.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{listening.server_address[1]}"
    try:
        with pytest.raises(JoinError, match="is not a tapete server \\(an unexpected answer\\)"):
            take_seat(url, "ABCDE", "Zoe", "en", Seats(tmp_path))
        with pytest.raises(JoinError, match="is not a tapete server \\(its answer is not JSON\\)"):
            take_seat(url, "FGHIJ", "Zoe", "en", Seats(tmp_path))
        run = tapete(["join", f"{url}/t/ABCDE", "--plain", "--lang", "es"], tmp_path)
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert (
            run.stderr == f"tapete: {url} no es un servidor de tapete (una respuesta inesperada)\n"
        )
        assert (
            not (tmp_path / "joined.json").exists()
            or "ABCDE" not in (tmp_path / "joined.json").read_text()
        )
    finally:
        listening.shutdown()


def test_joining_again_comes_back_to_the_same_seat(server: Server, tmp_path: Path) -> None:
    table = table_for_two(server, players=3, schedule="[2]")
    seats = Seats(tmp_path)
    first = take_seat(server.url, table["code"], "Zoe", "en", seats)
    again = take_seat(server.url, table["code"], "Zoe", "en", Seats(tmp_path))
    assert again == first
    kept = json.loads((tmp_path / "joined.json").read_text())
    assert kept["seats"] == {f"{server.url} {table['code']}": {"seat": 1, "token": first.token}}
    assert server.url in kept["players"]  # the matches from here count in one profile
    # Nobody else can have the seat, and the table has no other free one.
    with pytest.raises(JoinError, match="seat"):
        take_seat(server.url, table["code"], "Bea", "en", Seats(tmp_path / "bea"))


def test_a_table_that_cannot_be_joined_is_said_plainly(server: Server, tmp_path: Path) -> None:
    with pytest.raises(JoinError, match="no table"):
        take_seat(server.url, "ZZZZZ", "Zoe", "en", Seats(tmp_path))
    with pytest.raises(JoinError, match="cannot reach"):
        take_seat("http://127.0.0.1:9", "ABCDE", "Zoe", "en", Seats(tmp_path))
    with pytest.raises(JoinError, match="not a table's link"):
        parse_link("http://host:8000/rules/pocha")
    with pytest.raises(JoinError, match="not a table code"):
        parse_link("K7QX")
    assert parse_link("https://cards.example.org/t/k7qx2/") == (
        "https://cards.example.org",
        "K7QX2",
    )
    assert (
        not (tmp_path / "joined.json").exists()
        or "ZZZZZ" not in (tmp_path / "joined.json").read_text()
    )


def test_the_command_takes_a_seat_keeps_it_and_leaves_at_the_end_of_input(
    server: Server, tmp_path: Path
) -> None:
    table = table_for_two(server, players=3, schedule="[2]")
    # The second time back to the same seat, by the link as a browser's address bar shows it
    # (without its http://).
    shown = f"{server.url.removeprefix('http://')}/t/{table['code']}"
    for command in (["join", table["code"], "--server", server.url], ["join", shown]):
        done = tapete([*command, "--name", "Zoe"], tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"you sit at seat 2 of table {table['code']}" in done.stdout
        link = f"{server.url}/t/{table['code']}"  # the server's, not the default one
        assert f"tapete join {link} takes you back to your seat" in done.stdout
    listed = server.get(f"/api/tables/{table['code']}")
    assert (listed["humans"], listed["open"]) == (["Host", "Zoe"], 0)
    refused = tapete(["join", "http://127.0.0.1:8000/rules/pocha"], tmp_path)
    assert refused.returncode == 2 and "not a table's link" in refused.stderr
    en_espanol = tapete(
        ["join", "ZZZZZ", "--server", "http://127.0.0.1:9", "--lang", "es"], tmp_path
    )
    assert en_espanol.returncode == 2
    assert en_espanol.stderr.startswith("tapete: no se puede llegar a http://127.0.0.1:9")


def test_watching_takes_no_seat_and_a_missing_table_is_said_at_once(
    server: Server, tmp_path: Path
) -> None:
    table = table_for_two(server, players=3, schedule="[2]")
    command = ["join", "--server", server.url, "--watch"]
    watched = tapete([*command, table["code"]], tmp_path)
    assert watched.returncode == 0, watched.stderr
    assert "you watch the table" in watched.stdout
    assert f"you stopped watching table {table['code']}" in watched.stdout
    assert server.get(f"/api/tables/{table['code']}")["open"] == 1  # no seat taken
    missing = tapete([*command, "ZZZZZ"], tmp_path)
    assert missing.returncode == 2 and "no table ZZZZZ" in missing.stderr
