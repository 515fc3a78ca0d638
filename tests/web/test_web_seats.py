"""Taking a seat is a compare-and-set in the store, on SQLite and PostgreSQL alike: of two
stores (two servers) that read a seat free and fill it at once, exactly one wins it."""

from __future__ import annotations

import asyncio
import copy

import pytest

from tapete.store import Store as Database
from tapete.web.sqlstore import SqlStore
from tapete.web.store import MemoryStore, SeatConfig, SeatConflictError, Store, Truth


def truth() -> Truth:
    return Truth(
        code="SEATS", spec="pocha", seed=7, seats=[SeatConfig("human", "Ana"), SeatConfig("open")]
    )


async def race(stores: list[Store]) -> tuple[list[BaseException | None], Truth | None]:
    """Each store reads the seats, then all fill seat 1 at once, each with its own name."""
    read = [await store.room("SEATS") for store in stores]

    async def take(store: Store, seen: Truth | None, name: str) -> None:
        assert seen is not None and seen.seats[1].kind == "open"
        seats = copy.deepcopy(seen.seats)
        seats[1] = SeatConfig("human", name)
        await store.save_seats("SEATS", seats, None, was=seen.seats)

    names = [f"P{i}" for i in range(len(stores))]
    outcomes = await asyncio.gather(
        *(take(s, t, n) for s, t, n in zip(stores, read, names, strict=True)),
        return_exceptions=True,
    )
    return [o if isinstance(o, BaseException) else None for o in outcomes], await stores[0].room(
        "SEATS"
    )


@pytest.mark.parametrize("servers", [2, 4])
def test_of_stores_filling_one_free_seat_at_once_exactly_one_wins(
    db_url: str, servers: int
) -> None:
    stores: list[Store] = [SqlStore(Database(db_url)) for _ in range(servers)]
    asyncio.run(stores[0].create(truth()))
    errors, stored = asyncio.run(race(stores))
    won = [i for i, e in enumerate(errors) if e is None]
    assert len(won) == 1, errors
    assert all(isinstance(e, SeatConflictError) for e in errors if e is not None)
    assert stored is not None and stored.seats[1] == SeatConfig("human", f"P{won[0]}")


def test_a_save_on_seats_that_changed_writes_nothing() -> None:
    store = MemoryStore()
    asyncio.run(store.create(truth()))
    stale = truth().seats
    taken = [stale[0], SeatConfig("human", "Bea")]
    asyncio.run(store.save_seats("SEATS", taken, None, was=stale))
    with pytest.raises(SeatConflictError):
        asyncio.run(store.save_seats("SEATS", [stale[0], SeatConfig("bot")], None, was=stale))
    stored = asyncio.run(store.room("SEATS"))
    assert stored is not None and stored.seats == taken
