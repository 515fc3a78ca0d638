"""What a table's log says besides the moves (a move the turn timer, a stand-in or a failed bot
made; who started a rematch) is said again after a restart, and a server that learns of a new
match from its first move shows it at once."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from tapete.web.rooms import Room, Rooms, token_hash
from tapete.web.store import MemoryStore, Options, SeatConfig
from webclient import Client, Inbox, Server, free_port, process, stand_in_note

TIMED_OUT = "Ana ran out of time: a move was played for them"
STAND_IN = stand_in_note("Bea")


def lines(client: Client) -> list[str]:
    """Every log line ``client`` was told, in order: the log it was sent on connecting, then
    what each view added."""
    return [line for m in client.seen if m["type"] == "view" for line in m["log"]]


def test_the_log_still_says_why_a_move_was_made_after_a_restart(tmp_path: Path) -> None:
    """Ana lets her turn timer run out and Bea never comes (a bot stands in); the server is
    killed and started again on its SQLite file: Ana, back, reads the log as she read it,
    each of those lines once, before the move it explains."""
    db, port, log = f"sqlite:///{tmp_path / 'tapete.db'}", free_port(), tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    with process(port, db, log, ["--bot-processes", "0"]) as proc:
        made = server.create(
            "pocha",
            params={"players": 3, "schedule": "[2, 2]"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            grace=0.1,
            turn_timer=0.5,
            standby="random",
        )
        code = made["code"]
        server.post(f"/api/tables/{code}/join", {"name": "Bea"})  # and never comes
        ana = server.client()
        ana.hello(code, made["token"])
        ana.send({"type": "start"})
        ana.until(lambda m: TIMED_OUT in lines(ana) and STAND_IN in lines(ana), 60)
        before = lines(ana)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    ana.close()
    assert before.count(STAND_IN) == 1
    with process(port, db, log, ["--bot-processes", "0"]):
        back = server.client()
        back.hello(code, made["token"])
        after = back.expect("view")["log"]
        back.close()
    # The moves committed after Ana's last view come after what she read; nothing is lost.
    assert after[: len(before)] == before, (before, after)
    assert after.count(STAND_IN) == 1


def test_a_new_match_learnt_of_from_its_first_move_is_shown_at_once() -> None:
    """Two servers' copies of one table: the rematch is started on the first, and the second
    hears of it only from its first move (the rematch news lost). Its people are shown the
    new match then, with who started it, not at the match's next move."""

    async def scenario() -> None:
        store = MemoryStore()
        rooms = Rooms(store)
        one, token, _ = await rooms.create(
            "pocha(players=3, schedule=[1])",
            [SeatConfig("human"), SeatConfig("bot", level="random"), SeatConfig("bot")],
            name="Ana",
            options=Options(bot_delay=0),
        )
        ana = Inbox(0, token_hash(token))
        one.join(ana)
        await one.control(ana, "start", {})
        while not one.over:
            seat = one.game.current_player(one.state)
            assert seat is not None
            await one.act(seat, one.game.format_action(one.game.legal_actions(one.state)[0]))
        truth = await store.room(one.code)
        assert truth is not None
        two = Room(truth, store)  # the other server's copy, at the end of match 1
        watcher = Inbox(None)
        two.join(watcher)
        await one.control(ana, "rematch", {"match": 0})
        seat = one.game.current_player(one.state)
        assert seat is not None
        move = one.game.format_action(one.game.legal_actions(one.state)[0])
        await one.act(seat, move)
        watcher.sent.clear()
        news: dict[str, Any] = {"match": 1, "index": 1, "seat": seat, "action": move}
        await two.heard(news)  # not the next move there: it reads the table again
        views = [m for m in watcher.sent if m["type"] == "view"]
        assert [m["match"] for m in views] == [1]
        log = views[0]["log"]
        assert isinstance(log, list) and log[0] == "Ana started a rematch: match 2"
        assert views[0]["version"] == 1
        assert any(m["type"] == "room" for m in watcher.sent)
        one.close()
        two.close()
        rooms.close()

    asyncio.run(scenario())


def test_a_stand_in_is_said_once_in_a_rematch_after_its_person_came_back_in_the_match_before() -> (
    None
):
    """Bea came back at the end of the first match and is away in the rematch: the bot standing
    in for her is said before its first move there, and not again before each of its moves
    (her coming back, late in the match before, is not after them)."""

    async def scenario() -> None:
        rooms = Rooms(MemoryStore())
        room, token, _ = await rooms.create(
            "pocha(players=3, schedule=[2])",
            [SeatConfig("human"), SeatConfig("human"), SeatConfig("bot", level="random")],
            name="Ana",
            options=Options(bot_delay=0),
        )
        ana = Inbox(0, token_hash(token))
        room.join(ana)
        await room.seat_person("Bea", 1)
        await room.control(ana, "start", {})
        notes: list[dict[str, Any]] = []

        async def play_to_the_end() -> None:
            while not room.over:
                seat = room.game.current_player(room.state)
                assert seat is not None
                move = room.game.format_action(room.game.legal_actions(room.state)[0])
                note = room.seating.standing_in(seat) if seat == 1 and room.truth.match else None
                notes.extend([note] if note else [])
                await room.act(seat, move, note=note)

        await play_to_the_end()
        room.seating.back(1)  # Bea is here again, at the end of the first match
        await room.control(ana, "rematch", {"match": 0})
        await play_to_the_end()
        said = [n for n in notes if not n.get("quiet")]
        # every move of hers in the rematch (a tie may add a deal) has its note, one said
        assert len(notes) >= 3 and said == [{"kind": "stand_in", "seat": 1}], notes
        assert room.log.count({"kind": "stand_in", "seat": 1}) == 1

    asyncio.run(scenario())
