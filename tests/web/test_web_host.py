"""``tapete host``: a person at a terminal opens a table at a server and friends join it.

Against the real server on a loopback port: the table is made through the HTTP API as the
lobby makes one, the host's prompt starts the match once every seat is taken (or at once with
``start``, bots in the empty seats), and the match is played to its end.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from test_web_join import command_env, play_at_prompt, tapete

from tapete import record
from tapete.client import JoinError, Link, Seats, Ticket, make_table, take_seat, ws_url
from tapete.joinprompt import Prompt
from webclient import Server, play_out, zoe_seats

TAPETE = [sys.executable, "-m", "tapete"]
SHORT = {"players": "3", "schedule": "[2]", "tiebreak_players": "nobody"}


def friend_plays(server: Server, code: str, name: str = "Bea") -> threading.Thread:
    """A friend, in a thread: takes a free seat as a browser does, then plays it out."""

    def run() -> None:
        token = server.post(f"/api/tables/{code}/join", {"name": name})["token"]
        friend = server.client()
        friend.hello(code, token)
        friend.expect("view", timeout=30)  # the host's prompt starts the match
        play_out(friend)
        friend.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


async def until_said(out: io.StringIO, text: str) -> None:
    for _ in range(1000):
        if text in out.getvalue():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never said: {text!r}\n{out.getvalue()}")


def started_alone(server: Server, ticket: Ticket, seats: Seats) -> str:
    """The host's prompt, ``start`` typed once it waits, played to the end with the bots that
    fill the empty seats; what it said."""
    out = io.StringIO()

    async def main() -> int:
        prompt = hosting(server, ticket.code, ticket.token, out, seats)
        playing = asyncio.ensure_future(play_at_prompt(prompt, []))
        await until_said(out, "the match starts once every seat is taken")
        prompt.lines.put_nowait("start")
        return await asyncio.wait_for(playing, 120)

    assert asyncio.run(main()) == 0
    return out.getvalue()


def hosting(server: Server, ticket_code: str, token: str, out: io.StringIO, seats: Seats) -> Prompt:
    link = Link(ws_url(server.url), ticket_code, token, "en")
    ticket = seats.seat(server.url, ticket_code)
    return Prompt(link, ticket, out, "en", seats)


def test_the_match_starts_once_a_friend_sits_and_is_played_to_its_end(
    server: Server, tmp_path: Path
) -> None:
    seats = zoe_seats(server, tmp_path)
    ticket = make_table(server.url, "pocha", SHORT, ["human", "human", "easy"], "Zoe", seats=seats)
    assert ticket.seat == 0 and seats.seat(server.url, ticket.code) == ticket
    listed = server.get(f"/api/tables/{ticket.code}")
    assert (listed["humans"], listed["open"], listed["spec"]) == (
        ["Zoe"],
        1,
        "pocha(players=3, schedule=[2], tiebreak_players=nobody)",
    )
    out = io.StringIO()

    async def main() -> int:
        prompt = hosting(server, ticket.code, ticket.token, out, seats)
        playing = asyncio.ensure_future(play_at_prompt(prompt, []))
        # The host is waiting, and says so, before the friend comes.
        await until_said(out, "the match starts once every seat is taken")
        friend = friend_plays(server, ticket.code)
        result = await asyncio.wait_for(playing, 120)
        friend.join(30)
        return result

    assert asyncio.run(main()) == 0
    said = out.getvalue()
    assert said.index("2. empty seat") < said.index("2. Bea")  # the friend told sitting down
    assert "match over" in said and "not allowed" not in said  # started once, by itself
    rec = record.loads(json.dumps(server.get(f"/api/tables/{ticket.code}/records/0")))
    record.replay(rec)
    assert [s.name for s in rec.seats][:2] == ["Zoe", "Bea"]


def test_start_begins_at_once_with_bots_in_the_empty_seats(server: Server, tmp_path: Path) -> None:
    seats = zoe_seats(server, tmp_path)
    options = {"standby": "easy", "turn_timer": 30}
    ticket = make_table(
        server.url, "pocha", SHORT, ["human"] * 3, "Zoe", seats=seats, options=options
    )
    said = started_alone(server, ticket, seats)
    assert "2. bot 2 · easy" in said and "match over" in said  # the table's stand-in level
    assert re.search(r"^  (30|29) seconds left to play$", said, re.M)  # the turn timer
    assert "not allowed" not in said  # one start, not one more once the seats were filled
    rec = record.loads(json.dumps(server.get(f"/api/tables/{ticket.code}/records/0")))
    assert [s.kind for s in rec.seats] == ["human", "bot", "bot"]


def test_a_table_the_server_refuses_is_said_and_nothing_is_kept(
    server: Server, tmp_path: Path
) -> None:
    seats = Seats(tmp_path)
    with pytest.raises(JoinError, match="players"):
        make_table(server.url, "pocha", {"players": "9"}, ["human"] * 9, seats=seats)
    with pytest.raises(JoinError, match="cannot reach"):
        make_table("http://127.0.0.1:9", "pocha", {}, ["human"] * 4, seats=seats)
    with pytest.raises(JoinError, match=r"^seed: Input should be greater than or equal to 0$"):
        make_table(server.url, "pocha", {}, ["human"] * 4, seats=seats, options={"seed": -1})
    assert (
        not (tmp_path / "joined.json").exists()
        or '"seats": {}' in (tmp_path / "joined.json").read_text()
    )


def test_the_command_opens_the_table_and_join_comes_back_to_the_host_seat(
    server: Server, tmp_path: Path
) -> None:
    env = command_env(tmp_path)
    zoe_seats(server, tmp_path)  # the command's data folder: Zoe, as the other tests' hosts
    spec = "pocha(players=3, schedule=[1])"
    hosting_command = subprocess.Popen(
        [
            *TAPETE,
            "host",
            spec,
            "--server",
            server.url,
            "--private",
            "--seats",
            "human,easy,easy",
            "--grace",
            "45",
            "--bot-delay",
            "0",
        ],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert hosting_command.stdout is not None and hosting_command.stdin is not None
    lines = []
    for line in hosting_command.stdout:  # until the match's first hand: full, so started
        lines.append(line.rstrip("\n"))
        if line.startswith("hand 1"):
            break
    hosting_command.stdin.close()  # the end of input: the host leaves, the seat kept
    assert hosting_command.wait(30) == 0, hosting_command.stderr.read()  # type: ignore[union-attr]
    code = lines[0].split()[1]
    assert lines[0] == (
        f"table {code} is open: friends join with  tapete join {server.url}/t/{code}"
        f"  or at {server.url}/t/{code} in a browser"
    )
    assert "  1. player 1 (you)" in lines
    listed = server.get(f"/api/tables/{code}")
    assert (listed["status"], listed["public"]) == ("playing", False)
    options = server.app.state.rooms.get(code).truth.options
    assert (options.grace, options.bot_delay) == (45, 0)
    back = tapete(["join", f"{server.url}/t/{code}"], tmp_path)
    assert back.returncode == 0, back.stderr
    assert f"you sit at seat 1 of table {code}" in back.stdout


def test_a_chosen_seed_deals_two_tables_alike_and_is_said(server: Server, tmp_path: Path) -> None:
    """A club's duplicate: two tables hosted with one seed deal the same hands."""
    hands = []
    for table in range(2):
        seats = zoe_seats(server, tmp_path / str(table))
        options = {"seed": 7, "standby": "random"}
        ticket = make_table(server.url, "pocha", SHORT, ["human"] * 3, seats=seats, options=options)
        assert server.get(f"/api/tables/{ticket.code}")["chosen_seed"] is True
        said = started_alone(server, ticket, seats)
        hands.append(re.findall(r"^your hand: .*$", said, re.M)[0])
    assert hands[0] == hands[1]


@pytest.mark.parametrize(
    ("seats", "said"),
    [
        ("hard(ms=300),human,easy", "a server seats a bot by its level's name"),
        ("easy,easy,easy", "one seat is yours"),
        ("human,easy", "has 3 seats; --seats gave 2"),
        ("human,easy,easy --turn-timer 601", "601 is not a turn timer (0: none): 0 to 600 seconds"),
        ("human,easy,easy --bot-delay 6", "6 is not a bot's delay: 0 to 5 seconds"),
        ("human,easy,easy --grace=-1", "-1 is not a grace: 0 to 600 seconds"),
    ],
)
def test_seats_a_server_cannot_take_are_refused_before_anything_is_made(
    server: Server, tmp_path: Path, seats: str, said: str
) -> None:
    done = tapete(
        ["host", "pocha(players=3)", "--server", server.url, "--seats", *seats.split()], tmp_path
    )
    assert done.returncode == 2 and said in done.stderr
    assert not (tmp_path / "joined.json").exists()


def test_a_friend_at_a_terminal_joins_a_terminal_host(server: Server, tmp_path: Path) -> None:
    """Both ends of the command line: no browser anywhere."""
    host_seats = zoe_seats(server, tmp_path / "host")
    ticket = make_table(server.url, "truco", {}, ["human", "human"], "Zoe", seats=host_seats)
    friend_seats = Seats(tmp_path / "friend")
    friend = take_seat(server.url, ticket.code, "Bea", "en", friend_seats)
    assert friend.seat == 1
    outs = io.StringIO(), io.StringIO()

    async def main() -> list[int]:
        host = hosting(server, ticket.code, ticket.token, outs[0], host_seats)
        guest = hosting(server, ticket.code, friend.token, outs[1], friend_seats)
        both = asyncio.gather(play_at_prompt(host, []), play_at_prompt(guest, []))
        return list(await asyncio.wait_for(both, 120))

    assert asyncio.run(main()) == [0, 0]
    assert all("match over" in out.getvalue() for out in outs)
    assert "waiting for the host to start" in outs[1].getvalue()


def test_a_rematch_is_started_from_the_prompt_and_played_at_both_ends(
    server: Server, tmp_path: Path
) -> None:
    """The host types ``rematch`` once the match is over; the friend's prompt, which typed
    nothing, plays the second match too, and each leaves with ``q`` after it."""
    host_seats = zoe_seats(server, tmp_path / "host")
    seated = ["human", "human", "easy"]
    ticket = make_table(server.url, "pocha", SHORT, seated, "Zoe", seats=host_seats)
    friend_seats = Seats(tmp_path / "friend")
    friend = take_seat(server.url, ticket.code, "Bea", "en", friend_seats)
    outs = io.StringIO(), io.StringIO()

    async def main() -> list[int]:
        host = hosting(server, ticket.code, ticket.token, outs[0], host_seats)
        guest = hosting(server, ticket.code, friend.token, outs[1], friend_seats)
        both = asyncio.gather(
            play_at_prompt(host, [], matches=2, rematch=True), play_at_prompt(guest, [], matches=2)
        )
        return list(await asyncio.wait_for(both, 120))

    assert asyncio.run(main()) == [0, 0]
    for out in outs:
        said = out.getvalue()
        assert said.count("the record: ") == 2
        assert "rematch starts another match at this table for everyone; q leaves" in said
        assert "/records/0" in said and "/records/1" in said
        assert "Zoe started a rematch: match 2" in said
        assert "you left the table" in said
    # The host's table was full when it came: the match started with no word about waiting.
    assert "the match starts once every seat is taken" not in outs[0].getvalue()
    for n in (0, 1):
        rec = record.loads(json.dumps(server.get(f"/api/tables/{ticket.code}/records/{n}")))
        record.replay(rec)
        assert [s.name for s in rec.seats][:2] == ["Zoe", "Bea"]
