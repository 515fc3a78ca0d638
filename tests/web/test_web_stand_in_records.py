"""A web table's record marks the moves a stand-in made (a bot for a person away or out of
time, a random legal move for a failed bot), in every store the server keeps records in, and
the record is read back, rebuilt after a restart, replayed and exported with its marks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tapete import record
from tapete.cli import main
from tapete.i18n import tr
from tapete.web.app import open_store
from tapete.web.reviews import in_words
from tapete.web.rooms import Room, Rooms, token_hash
from tapete.web.seating import FAILED
from tapete.web.sqlstore import SqlStore
from tapete.web.store import MemoryStore, Options, SeatConfig, Store
from webclient import Inbox

SPEC = "pocha(players=3, schedule=[2, 3])"
FSI, PDI = "\u2068", "\u2069"  # a right-to-left name's isolates in plain text


async def a_match_with_stand_ins(store: Store) -> tuple[str, list[int]]:
    """Ana plays; דנה is away and a bot stands in for her; Ana once runs out of time; the bot
    at seat 2 fails once. Its code, and the numbers (over the match) of the moves a stand-in
    made."""
    rooms = Rooms(store)
    room, token, _ = await rooms.create(
        SPEC,
        [SeatConfig("human"), SeatConfig("human"), SeatConfig("bot", level="random")],
        name="Ana",
        options=Options(bot_delay=0),
    )
    ana = Inbox(0, token_hash(token))
    room.join(ana)
    await room.seat_person("דנה", 1)
    await room.control(ana, "start", {})
    marked: list[int] = []
    timed_out = failed = False
    while not room.over:
        seat = room.game.current_player(room.state)
        assert seat is not None
        move = room.game.format_action(room.game.legal_actions(room.state)[0])
        note: dict[str, Any] | None = None
        if seat == 1:
            note = room.seating.standing_in(1)
            if not marked:  # its bot failed too: a random legal move, still one stand-in's
                note[FAILED] = True
        elif seat == 0 and room.version > 2 and not timed_out:
            note, timed_out = {"kind": "timed_out", "seat": 0}, True
        elif seat == 2 and not failed:
            note, failed = {"kind": "bot_failed", "seat": 2}, True
        if note is not None:
            marked.append(room.version)
        await room.act(seat, move, note=note)
    assert sorted(room.truth.notes) == marked
    code = room.code
    room.close()
    rooms.close()
    return code, marked


def marks(rec: record.Record) -> list[int]:
    """The numbers over the match of the moves ``rec`` marks as a stand-in's."""
    return [i for i, by in enumerate(record.stand_in_marks(rec)) if by]


async def kept_and_rebuilt(store: Store) -> tuple[record.Record, record.Record, list[int]]:
    code, marked = await a_match_with_stand_ins(store)
    truth = await store.room(code)
    assert truth is not None and truth.records[0] is not None
    kept = record.loads(truth.records[0])
    # A server started again builds the record anew from the moves and their notes.
    again = Room(truth, store)
    rebuilt = again.record()
    again.close()
    return kept, rebuilt, marked


def check(kept: record.Record, rebuilt: record.Record, marked: list[int]) -> None:
    assert marks(kept) == marked and len(marked) >= 4
    assert rebuilt == kept
    seats = [s for d in kept.deals for s, _ in d.actions]
    assert {seats[i] for i in marked} == {0, 1, 2}
    assert record.checked(kept).deals == kept.deals  # the replay keeps what it cannot check


def test_the_memory_store_keeps_a_stand_in_s_moves_marked() -> None:
    check(*asyncio.run(kept_and_rebuilt(MemoryStore())))


def test_a_database_keeps_a_stand_in_s_moves_marked_for_replay_and_export(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store(db_url)
    assert isinstance(store, SqlStore)
    try:
        kept, rebuilt, marked = asyncio.run(kept_and_rebuilt(store))
    finally:
        store.db.engine.dispose()
    check(kept, rebuilt, marked)
    folder = tmp_path / "out"
    capsys.readouterr()
    assert main(["export", str(folder), "--db", db_url]) == 0
    listed = capsys.readouterr().out
    # A right-to-left name isolated in the export's lines, as in the log's.
    assert f"{FSI}דנה{PDI} " in listed and f"{FSI}דנה{PDI} (guest)" in listed
    (exported,) = folder.glob("*.json")
    assert marks(record.read(exported)) == marked
    capsys.readouterr()
    assert main(["replay", str(exported), "--plain"]) == 0
    assert main(["replay", str(exported), "--verify"]) == 0
    assert main(["analyze", str(exported), "--seat", "1", "--iterations", "2"]) == 0
    reported = capsys.readouterr().out
    # Every move of hers was a stand-in's: nothing of her own to grade, no accuracy.
    assert f"{FSI}דנה{PDI} (seat 1): no decision of its own with a choice to review" in reported
    assert "played by a stand-in, not counted" in reported


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "played by a stand-in"),
        ("es", "jugada por un sustituto"),
        ("pt", "jogada por um substituto"),
    ],
)
def test_the_browser_s_review_names_a_stand_in_s_move_in_the_reader_s_language(
    lang: str, said: str
) -> None:
    decision = {"seat": 1, "played": "bid 1", "best": "bid 0", "verdict": "blunder", "values": {}}
    kept = {
        "game": "pocha",
        "unit": "points",
        "decisions": [{**decision, "stand_in": True}, decision],
    }
    stood, own = in_words(kept, lang)["decisions"]
    assert (stood["stand_in_label"], stood["verdict_label"]) == (said, "")
    # A review kept before stand-ins were marked: every move its seat's own, as it was.
    assert own["stand_in_label"] == "" and own["verdict_label"] == tr(lang, "blunder")


def test_the_server_s_own_stand_in_marks_its_moves_and_only_them() -> None:
    """Nobody scripts the notes here: דנה takes a seat and never comes, the table's driver
    has a bot stand in for her after the grace, and the kept record marks exactly her moves."""

    async def scenario() -> tuple[record.Record, int]:
        store = MemoryStore()
        rooms = Rooms(store)
        room, token, _ = await rooms.create(
            "pocha(players=3, schedule=[2])",
            [SeatConfig("human"), SeatConfig("human"), SeatConfig("bot", level="random")],
            name="Ana",
            options=Options(bot_delay=0, grace=0.05, standby="random"),
        )
        ana = Inbox(0, token_hash(token))
        room.join(ana)
        await room.seat_person("דנה", 1)
        await room.control(ana, "start", {})
        for _ in range(2000):  # Ana plays her turns; the driver plays every other one
            if room.over:
                break
            if room.game.current_player(room.state) == 0:
                move = room.game.format_action(room.game.legal_actions(room.state)[0])
                await room.act(0, move)
            await asyncio.sleep(0.01)
        assert room.over
        truth = await store.room(room.code)
        assert truth is not None and truth.records[0] is not None
        room.close()
        rooms.close()
        return record.loads(truth.records[0]), len(truth.notes)

    kept, notes = asyncio.run(scenario())
    seats = [seat for d in kept.deals for seat, _ in d.actions]
    assert record.stand_in_marks(kept) == [seat == 1 for seat in seats]
    assert notes == seats.count(1) > 0


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "(played by a stand-in)"),
        ("es", "(jugada por un sustituto)"),
        ("pt", "(jogada por um substituto)"),
    ],
)
def test_the_replay_s_narration_says_which_moves_a_stand_in_played(lang: str, said: str) -> None:
    """The browser's replay tells each move from the server's narration: a move a stand-in
    made says so after it, in the reader's language, and no other move does."""

    async def told() -> tuple[list[dict[str, Any]], list[int]]:
        store = MemoryStore()
        code, marked = await a_match_with_stand_ins(store)
        truth = await store.room(code)
        assert truth is not None
        room = Room(truth, store)
        narration = room.narration_for(None, 0, lang)
        room.close()
        assert narration is not None
        return narration, marked

    narration, marked = asyncio.run(told())
    moves = [step[0] for deal in narration for step in deal["steps"]]
    assert [i for i, move in enumerate(moves) if move.endswith(said)] == marked, moves
    assert all(said not in line for deal in narration for line in deal["first"])


def test_tapete_replay_plain_says_which_moves_a_stand_in_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept, _, marked = asyncio.run(kept_and_rebuilt(MemoryStore()))
    path = tmp_path / "match.json"
    record.write(kept, path)
    for lang, said in (("en", "played by a stand-in"), ("es", "jugada por un sustituto")):
        capsys.readouterr()
        assert main(["replay", str(path), "--plain", "--lang", lang]) == 0
        lines = capsys.readouterr().out.splitlines()
        stood = [line for line in lines if line.endswith(f" ({said})")]
        assert len(stood) == len(marked), lines
        assert f"{FSI}דנה{PDI} bids" in "\n".join(lines) or lang != "en"
