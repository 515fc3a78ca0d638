"""A table keeps the rules it was made with: a server restarted on a newer tapete, whose
default for a rule differs, plays it on to the end under its own rules, and its record says so.

A newer version is made here by changing a default the way a release would: the registry's
defaults for a game (``tapete.games.ENTRIES``), which is how ``oh_hell``'s were changed before.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

import pytest
from sqlalchemy import insert

import tapete.games
from tapete import record
from tapete.store import Store as Database
from tapete.store import schema, seed_hash
from tapete.web.room import summary
from tapete.web.rooms import Room, Rooms, token_hash
from tapete.web.sqlstore import SqlStore
from tapete.web.store import MemoryStore, Options, SeatConfig, Store
from webclient import Inbox

SPEC = "pocha(schedule=[2, 3])"


def newer_default(monkeypatch: pytest.MonkeyPatch, game: str, **defaults: Any) -> None:
    """From now on ``game``'s defaults are ``defaults`` (a newer tapete's)."""
    entries = dict(tapete.games.ENTRIES)
    entries[game] = dataclasses.replace(entries[game], defaults=defaults)
    monkeypatch.setattr(tapete.games, "ENTRIES", MappingProxyType(entries))


async def ana_plays(room: Room, done: Callable[[], bool]) -> None:
    """Ana (seat 0) plays her first legal move whenever it is her turn, the bots theirs, until
    ``done()``."""
    for _ in range(2000):
        if done():
            return
        if room.game.current_player(room.state) == 0:
            first = room.game.legal_actions(room.state)[0]
            assert await room.act(0, room.game.format_action(first)) is None
        await asyncio.sleep(0.005)
    raise AssertionError("the match did not get there")


async def restart_on_a_newer_version(
    store_of: Callable[[], Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    rooms = Rooms(store_of())
    seats = [SeatConfig("human"), *(SeatConfig("bot", level="random") for _ in range(3))]
    room, token, seat = await rooms.create(
        SPEC, seats, name="Ana", options=Options(bot_delay=0), seed=5
    )
    me = Inbox(seat, token_hash(token))
    room.join(me)
    await room.control(me, "start", {})
    await ana_plays(room, lambda: room.version >= 6)
    before = room.version, room.game.observe(room.state, 0)
    rooms.close()

    newer_default(monkeypatch, "pocha", deck=48)  # a newer tapete deals from 48 cards
    again = Rooms(store_of())
    await again.restore()
    back = again.get(room.code)
    assert back is not None, "the table is served again"
    assert back.game.params.deck == 40  # the deck it was dealt from
    assert (back.version, back.game.observe(back.state, 0)) == before
    (listed,) = await again.store.lobby(room.code)
    for shown in (back.summary(), summary(listed.truth, listed.over)):
        assert shown["spec"] == SPEC and shown["players"] == 4  # the spec it was made with
    back.join(Inbox(0, token_hash(token)))
    await ana_plays(back, lambda: back.over and len(back.truth.records) == 1)

    kept = record.loads(back.truth.record(0) or "")
    assert kept.params["deck"] == 40 and kept.result is not None
    assert record.recorded_game(kept).params.deck == 40
    record.replay(kept)  # the record checks out move by move
    checked = back.verification(0)
    assert checked is not None and checked["ok"] is True  # its deals follow from its seed
    again.close()
    (stored,) = await store_of().rooms()
    assert stored.records == back.truth.records and stored.params == kept.params


def test_a_table_plays_on_under_its_rules_after_a_restart_on_a_newer_version(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite and PostgreSQL: the server restarted on the same database."""
    asyncio.run(restart_on_a_newer_version(lambda: SqlStore(Database(db_url)), monkeypatch))


def test_a_table_in_memory_keeps_its_rules_too(monkeypatch: pytest.MonkeyPatch) -> None:
    memory = MemoryStore()
    asyncio.run(restart_on_a_newer_version(lambda: memory, monkeypatch))


def test_a_rematch_is_played_under_the_rules_of_the_table(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rematch at a table made before the defaults changed deals from the table's deck."""

    async def scenario() -> None:
        store = SqlStore(Database(db_url))
        rooms = Rooms(store)
        seats = [SeatConfig("human"), *(SeatConfig("bot", level="random") for _ in range(3))]
        room, token, seat = await rooms.create(
            "pocha(schedule=[1])", seats, name="Ana", options=Options(bot_delay=0), seed=3
        )
        me = Inbox(seat, token_hash(token))
        room.join(me)
        await room.control(me, "start", {})
        await ana_plays(room, lambda: room.over and len(room.truth.records) == 1)
        rooms.close()

        newer_default(monkeypatch, "pocha", deck=48)
        again = Rooms(SqlStore(Database(db_url)))
        await again.restore()
        back = again.get(room.code)
        assert back is not None
        me = Inbox(0, token_hash(token))
        back.join(me)
        await back.control(me, "rematch", {})
        await ana_plays(back, lambda: back.over and len(back.truth.records) == 2)
        assert record.loads(back.truth.record(1) or "").params["deck"] == 40
        again.close()
        (stored,) = await SqlStore(Database(db_url)).rooms()
        assert stored.match == 1 and stored.params is not None and stored.params["deck"] == 40

    asyncio.run(scenario())


def test_a_table_kept_before_tables_kept_their_rules_is_played_from_its_spec(
    db_url: str,
) -> None:
    """A table in a database of an older tapete (no params kept): upgraded in place, it is
    served under this version's defaults, as it was before."""
    old = Database(db_url, migrate=False)
    old.migrate("0004")
    now = datetime.now(UTC)
    seats = [SeatConfig("human", "Ana", token="a" * 64).to_json()]
    seats += [SeatConfig("bot", level="random").to_json()] * 3
    with old.engine.begin() as c:
        c.execute(
            insert(schema.tables).values(
                id="OLD01.0",
                code="OLD01.0",
                spec=SPEC,
                seed=5,
                seed_hash=seed_hash(5),
                seats=seats,
                public=True,
                status="playing",
                created_at=now,
                updated_at=now,
                options=Options(bot_delay=0).to_json(),
                room="OLD01",
                match=0,
            )
        )
    old.engine.dispose()

    async def scenario() -> None:
        rooms = Rooms(SqlStore(Database(db_url)))
        await rooms.restore()
        room = rooms.get("OLD01")
        assert room is not None and room.truth.params is None
        assert room.game == tapete.load(SPEC)
        room.join(Inbox(0, "a" * 64))  # Ana is back: the bots play on
        await ana_plays(room, lambda: room.version >= 4)
        rooms.close()

    asyncio.run(scenario())
