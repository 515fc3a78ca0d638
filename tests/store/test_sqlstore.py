"""The web app's SQL store on SQLite and PostgreSQL: rooms, matches, actions, records, results."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tapete.errors import IllegalActionError
from tapete.record import seed_commitment
from tapete.store import Store as Database
from tapete.web.rooms import Room, Rooms
from tapete.web.sqlstore import SqlStore
from tapete.web.store import MemoryStore, Options, SeatConfig, Store, Truth

T = TypeVar("T")
HOST = "a" * 64  # a SHA-256 in hex: wider than the first schema's host column
SALT = "5a" * 16  # a match's salt: 32 lowercase hex digits


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def truth(code: str = "ROOM1", seed: int = 11, spec: str = "pocha(schedule=[1])") -> Truth:
    seats = [SeatConfig("human", "Ana", token="b" * 64, player="p1")] + [
        SeatConfig("bot", "", "random") for _ in range(3)
    ]
    return Truth(code, spec, seed, seats, options=Options(bot_delay=0), host=HOST, seed_salt=SALT)


@pytest.fixture(params=["sql", "memory"])
def store(request: pytest.FixtureRequest, db_url: str) -> Store:
    if request.param == "memory":
        if "postgresql" in db_url:
            pytest.skip("the memory store once is enough")
        return MemoryStore()
    return SqlStore(Database(db_url))


def test_a_room_comes_back_with_its_seats_options_and_actions(store: Store, db_url: str) -> None:
    run(store.create(truth()))
    run(store.start("ROOM1", 0, 11, SALT))
    for i, (seat, action) in enumerate([(1, "bid 0"), (2, "bid 1"), (3, "bid 0")]):
        run(store.append("ROOM1", 0, i, seat, action))
    seats = truth().seats
    seats[1] = SeatConfig("human", "Bea", token="c" * 64)
    run(store.save_seats("ROOM1", seats, HOST))
    if isinstance(store, SqlStore):  # a new process on the same database
        store = SqlStore(Database(db_url))
    (back,) = run(store.rooms())
    assert back.code == "ROOM1" and back.started and back.match == 0 and back.seed == 11
    assert back.actions == [(1, "bid 0"), (2, "bid 1"), (3, "bid 0")]
    assert back.seats == seats and back.host == HOST and back.options == Options(bot_delay=0)


def test_a_match_s_salt_survives_a_restart_and_a_rematch_keeps_its_own(
    store: Store, db_url: str
) -> None:
    """The salt of a match's published hash is kept with its truth, on every store: a server
    restarted in mid-match publishes the same hash and tells the same salt at the end."""
    run(store.create(truth()))
    run(store.start("ROOM1", 0, 11, SALT))
    if isinstance(store, SqlStore):  # a new process on the same database
        store = SqlStore(Database(db_url))
    (back,) = run(store.rooms())
    (listed,) = run(store.lobby())
    assert back.seed_salt == listed.truth.seed_salt == SALT
    rematch = "d4" * 16
    run(store.start("ROOM1", 1, 99, rematch))
    if isinstance(store, SqlStore):
        store = SqlStore(Database(db_url))
        row = store.db.table("ROOM1.1")
        assert row is not None and row.seed_hash == seed_commitment(99, rematch)
    again = run(store.room("ROOM1"))
    assert again is not None and (again.seed, again.seed_salt) == (99, rematch)


def test_a_taken_index_is_refused_and_nothing_written(store: Store) -> None:
    run(store.create(truth()))
    run(store.start("ROOM1", 0, 11, SALT))
    run(store.append("ROOM1", 0, 0, 1, "bid 0"))
    with pytest.raises(ValueError):
        run(store.append("ROOM1", 0, 0, 1, "bid 1"))
    (back,) = run(store.rooms())
    assert back.actions == [(1, "bid 0")]


def test_the_lobby_reads_every_room_without_its_moves_and_knows_when_its_match_is_over(
    store: Store, db_url: str
) -> None:
    run(store.create(truth("ROOM1")))
    over = truth("ROOM2", seed=12)
    over.started = True
    run(store.create(over))
    _play_out(store, over)
    if isinstance(store, SqlStore):  # a new process on the same database
        store = SqlStore(Database(db_url))
    listed = {room.truth.code: room for room in run(store.lobby())}
    full = {t.code: t for t in run(store.rooms())}
    assert set(listed) == set(full) == {"ROOM1", "ROOM2"}
    assert not listed["ROOM1"].over and listed["ROOM2"].over
    for code, room in listed.items():  # the room as it is, but for its moves and records
        assert room.truth == dataclasses.replace(full[code], actions=[], records=[])
    assert [room.truth.code for room in run(store.lobby("ROOM2"))] == ["ROOM2"]
    assert run(store.lobby("NOPE1")) == []


def _play_out(store: Store, t: Truth) -> Room:
    """Play a whole match of bots through a Room, as the server does."""

    async def go() -> Room:
        room = Room(t, store)
        while not room.over:
            seat = room.game.current_player(room.state)
            assert seat is not None
            legal = room.game.legal_actions(room.state)
            await room.act(seat, room.game.format_action(legal[0]))
        return room

    return run(go())


def test_a_finished_match_keeps_its_record_results_and_a_rematch_its_own_row(
    db_url: str,
) -> None:
    db = Database(db_url)
    store = SqlStore(db)
    t = truth()
    t.started = True
    run(store.create(t))
    room = _play_out(store, t)
    assert len(room.truth.records) == 1
    assert db.record("ROOM1.0") == room.truth.records[0]
    profile = db.profile("p1")
    assert profile["matches"] == 1 and "pocha" in profile["ratings"]
    assert db.profile("bot:random")["matches"] == 3
    run(store.start("ROOM1", 1, 99, "c3" * 16))
    run(store.append("ROOM1", 1, 0, 1, "bid 1"))
    again = SqlStore(Database(db_url))
    (back,) = run(again.rooms())
    assert back.match == 1 and back.seed == 99 and back.actions == [(1, "bid 1")]
    assert back.records == room.truth.records and back.seats == t.seats
    assert [row.id for row in db.tables()] == ["ROOM1.0", "ROOM1.1"]
    first, second = db.table("ROOM1.0"), db.table("ROOM1.1")
    assert first is not None and second is not None and first.seed_hash != second.seed_hash
    assert second.seed_hash == seed_commitment(99, "c3" * 16) and back.seed_salt == "c3" * 16


def test_many_rooms_at_once(db_url: str) -> None:
    store = SqlStore(Database(db_url))

    async def go() -> None:
        await asyncio.gather(*(store.create(truth(f"R{i}", i)) for i in range(8)))
        await asyncio.gather(*(store.append(f"R{i}", 0, 0, 1, "bid 0") for i in range(8)))

    run(go())
    back = run(SqlStore(Database(db_url)).rooms())
    assert sorted(t.code for t in back) == [f"R{i}" for i in range(8)]
    assert all(t.actions == [(1, "bid 0")] for t in back)


def test_actions_that_arrive_during_a_commit_share_the_next_one(db_url: str) -> None:
    db = Database(db_url)
    store = SqlStore(db)
    batches: list[int] = []
    plain = db.append_actions

    def counted(rows: Any) -> Any:
        batches.append(len(rows))
        return plain(rows)

    db.append_actions = counted  # type: ignore[method-assign]

    async def go() -> list[BaseException | None]:
        await asyncio.gather(*(store.create(truth(f"R{i}", i)) for i in range(8)))
        await store.append("R0", 0, 0, 1, "bid 0")
        moves = [store.append(f"R{i}", 0, 0, 1, "bid 1") for i in range(8)]  # R0's 0 is taken
        return await asyncio.gather(*moves, return_exceptions=True)

    outcomes = run(go())
    assert isinstance(outcomes[0], ValueError) and outcomes[1:] == [None] * 7
    assert batches[0] == 1 and sum(batches) == 9 and len(batches) < 9
    back = {t.code: t.actions for t in run(SqlStore(Database(db_url)).rooms())}
    assert back["R0"] == [(1, "bid 0")]
    assert all(back[f"R{i}"] == [(1, "bid 1")] for i in range(1, 8))


def test_sqlite_commits_waiting_actions_before_its_other_waiting_calls(tmp_path: Path) -> None:
    store = SqlStore(Database(f"sqlite:///{tmp_path / 'tapete.db'}"))
    done: list[str] = []
    busy, everyone_waits = threading.Event(), threading.Event()

    def slow_finish(code: str, match: int, record: str, rated: bool) -> None:
        busy.set()
        # A record and its ratings, written in the one SQLite thread, for as long as it takes
        # the move and the other two finishes to queue behind it.
        assert everyone_waits.wait(10), "the move and the finishes never queued"

    store._finish = slow_finish  # type: ignore[method-assign]

    async def all_queued() -> None:
        while not (len(store._queued) == 1 and len(store._calls) == 2):
            await asyncio.sleep(0)  # a turn of the event loop, no clock
        everyone_waits.set()

    async def go() -> None:
        await store.create(truth("R1"))

        async def finish(n: int) -> None:
            await store.finish("R1", 0, "{}")
            done.append(f"finish {n}")

        async def move() -> None:
            await asyncio.to_thread(busy.wait, 5)  # the first finish holds the thread
            await store.append("R1", 0, 0, 1, "bid 0")
            done.append("move")

        await asyncio.gather(*(finish(n) for n in range(3)), move(), all_queued())

    run(go())
    assert done == ["finish 0", "move", "finish 1", "finish 2"]


def test_sqlite_runs_other_calls_while_moves_keep_coming(tmp_path: Path) -> None:
    store = SqlStore(Database(f"sqlite:///{tmp_path / 'tapete.db'}"))
    moves = 400

    async def go() -> tuple[int, int]:
        await store.create(truth("R1"))
        committed = 0
        flowing = asyncio.Event()

        async def move(i: int) -> None:
            nonlocal committed
            await store.append("R1", 0, i, 1, "bid 0")
            committed += 1
            flowing.set()

        async def busy_tables() -> None:  # a move every millisecond, whatever the disk does
            tasks = []
            for i in range(moves):
                tasks.append(asyncio.ensure_future(move(i)))
                await asyncio.sleep(0.001)
            await asyncio.gather(*tasks)

        playing = asyncio.ensure_future(busy_tables())
        await flowing.wait()  # the first moves are committed: the table is busy
        await store.save_seats("R1", truth("R1").seats, HOST)
        seated_at = committed
        await playing
        return seated_at, committed

    seated_at, committed = run(go())
    assert committed == moves and seated_at < moves // 2


@pytest.mark.parametrize("spec", ["pocha(schedule=[1])", "tute(players=4)"])
def test_a_crash_between_the_last_move_and_its_record_is_mended_on_restart(
    db_url: str, spec: str
) -> None:
    class Crashing(SqlStore):
        async def finish(self, code: str, match: int, record: str, *, rated: bool = True) -> None:
            raise RuntimeError("the power went out")

    t = truth(spec=spec)
    t.started = True
    crashing = Crashing(Database(db_url))
    run(crashing.create(t))

    async def play_out() -> Room:
        room = Room(t, crashing)
        while not room.over:
            seat = room.game.current_player(room.state)
            assert seat is not None
            legal = room.game.legal_actions(room.state)
            assert await room.act(seat, room.game.format_action(legal[0])) is None
        return room

    room = run(play_out())
    db = Database(db_url)
    # The last action is committed, its record is not; the players still saw the match end.
    assert db.record("ROOM1.0") is None and len(room.truth.records) == 1

    class Watched(SqlStore):
        """The store after the restart, telling when a record is written."""

        async def finish(self, code: str, match: int, record: str, *, rated: bool = True) -> None:
            await super().finish(code, match, record, rated=rated)
            written.set()

    written = asyncio.Event()

    async def restart() -> None:
        rooms = Rooms(Watched(db))
        await rooms.restore()
        await asyncio.wait_for(written.wait(), 10)  # the mended record, written by the room
        rooms.close()

    run(restart())
    assert db.record("ROOM1.0") is not None
    assert db.profile("p1")["matches"] == 1


def test_the_log_s_notes_survive_a_restart_with_their_moves(store: Store, db_url: str) -> None:
    """What a table's log says besides the moves (a move the turn timer, a stand-in or a
    failed bot made; who started the rematch) is kept with the moves: a room read again from
    the store (a restart, another server) says each of them once, where it was said."""
    t = truth()
    t.started = True
    run(store.create(t))
    notes: list[dict[str, Any]] = []

    async def play() -> Room:
        room = Room(t, store)
        for kind in ("timed_out", None, "bot_failed"):
            seat = room.game.current_player(room.state)
            assert seat is not None
            note = None if kind is None else {"kind": kind, "seat": seat}
            notes.extend([] if note is None else [note])
            move = room.game.format_action(room.game.legal_actions(room.state)[0])
            assert await room.act(seat, move, note) is None
        return room

    played = run(play())
    timed, failed = notes
    if isinstance(store, SqlStore):  # a new process on the same database
        store = SqlStore(Database(db_url))
    (back,) = run(store.rooms())
    assert back.notes == {0: timed, 2: failed}
    again = Room(back, store)
    assert again.log == played.log
    said = [e for e in again.log if e.get("kind") in ("timed_out", "bot_failed")]
    assert said == [timed, failed]
    # each right before the move it explains, of the seat it names
    for note in notes:
        assert again.log[again.log.index(note) + 1]["seat"] == note["seat"]

    run(store.start("ROOM1", 1, 99, "d4" * 16, started_by=3))
    if isinstance(store, SqlStore):
        store = SqlStore(Database(db_url))
    (rematch,) = run(store.rooms())
    assert rematch.match == 1 and rematch.started_by == 3 and rematch.notes == {}
    log = Room(rematch, store).log
    assert [e for e in log if e.get("kind") == "rematch"] == [
        {"kind": "rematch", "seat": 3, "n": 2}
    ]
    assert log[0]["kind"] == "rematch"


def test_a_match_without_its_record_leaves_a_gap_and_the_next_keeps_its_number(
    db_url: str,
) -> None:
    """A database from an earlier version, where a rematch began over a match whose record was
    not kept: the records read back stand at their own match numbers, so match 3 is told as
    match 3, and match 2 has none (not match 3's)."""
    db = Database(db_url)
    store = SqlStore(db)
    t = truth()
    t.started = True
    run(store.create(t))
    first = _play_out(store, t).truth.records[0]
    run(store.start("ROOM1", 1, 99, "c3" * 16))  # played, but its record never kept
    run(store.start("ROOM1", 2, 98, "c4" * 16))
    (back,) = run(SqlStore(Database(db_url)).rooms())
    third = _play_out(SqlStore(Database(db_url)), back)
    assert db.record("ROOM1.1") is None and db.record("ROOM1.2") is not None
    kept = db.record("ROOM1.2")
    assert db.room_records(["ROOM1"]) == {"ROOM1": [first, None, kept]}
    (again,) = run(SqlStore(Database(db_url)).rooms())
    assert again.records == [first, None, kept] and again.record(1) is None
    assert again.record(2) == kept and third.verification(1) is None
    assert third.record_for(None, 1) is None and third.record_for(None, 2) == kept


def test_a_join_asked_again_with_its_key_gets_its_seat_back_after_a_restart_too(
    store: Store, db_url: str
) -> None:
    """The answer to a join lost on the way (a phone's network gone at that moment): asked
    again with the same join key, it gets the seat it took and its token, from the store as a
    server restarted since reads it; another key is refused that seat, as before."""
    t = truth()
    t.seats[1] = SeatConfig("open")
    t.seats[2] = SeatConfig("open")
    run(store.create(t))
    key = "k" * 22

    async def join(store: Store, key: str, seat: int | None) -> tuple[int, str]:
        (kept,) = await store.rooms()
        room = Room(kept, store)
        try:
            return await room.seat_person("Bea", seat, key=key)
        finally:
            room.close()

    seat, token = run(join(store, key, 1))
    if isinstance(store, SqlStore):  # a new process on the same database
        store = SqlStore(Database(db_url))
    assert run(join(store, key, 1)) == (seat, token) == (1, token)
    assert run(join(store, key, None)) == (1, token)  # whatever it asks, the same seat
    with pytest.raises(IllegalActionError, match="seat 1 is not free"):
        run(join(store, "x" * 22, 1))
    other = run(join(store, "x" * 22, None))
    assert other[0] == 2 and other[1] != token
    (kept,) = run(store.rooms())
    assert [s.kind for s in kept.seats] == ["human", "human", "human", "bot"]
    assert kept.seats[1].name == "Bea" and kept.seats[2].name == "Bea (2)"


def test_a_table_created_again_with_its_key_is_the_one_made_after_a_restart_too(
    store: Store, db_url: str
) -> None:
    """A new table asked for again with its creation key (its answer lost), twice at once
    too: the table the first request made, with its code, token and seat, from the store as a
    server restarted since reads it; nothing more is made."""
    key = "k" * 22
    seats = [SeatConfig("human")] + [SeatConfig("bot", level="random")] * 3

    async def create(store: Store) -> tuple[str, str, int | None]:
        rooms = Rooms(store)
        await rooms.restore()
        try:
            (room, token, seat), again = await asyncio.gather(
                *(
                    rooms.create(
                        "pocha(schedule=[1])", seats, name="Ana", options=Options(), key=key
                    )
                    for _ in range(2)
                )
            )
            assert again == (room, token, seat)
            return room.code, token, seat
        finally:
            rooms.close()

    first = run(create(store))
    if isinstance(store, SqlStore):  # a new process on the same database
        store = SqlStore(Database(db_url))
    assert run(create(store)) == first and first[2] == 0
    assert [t.code for t in run(store.rooms())] == [first[0]]
