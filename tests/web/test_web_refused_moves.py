"""A person's move that the database does not keep (away, read-only, its move number taken
behind the server's back) is refused with a message in the person's language; their connection
stays open, the table is shown again and the move can be made again, and no move is ever kept
twice. So are the host's start and seat controls and a rematch. Against a real database:
PostgreSQL made read-only, as a failed-over standby is."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, make_url, select, text

from conftest import database_url
from tapete.store import Store as Database
from tapete.store import schema
from tapete.web.app import open_store
from webclient import Client, Server, running


def my_turn(server: Server, lang: str = "en") -> tuple[Client, str, int]:
    """A started table of a person and two bots that play at once, at the person's first
    turn: their connection, the table's code and the view's version."""
    table = server.create(
        "pocha",
        params={"players": "3", "schedule": "[1]"},
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2,
        seed=5,
    )
    me = server.client()
    me.hello(table["code"], table["token"], lang=lang)
    me.send({"type": "start"})
    mine = me.until(lambda m: m["type"] == "view" and bool(me.legal()))
    return me, table["code"], mine["version"]


@contextmanager
def read_only(url: str) -> Iterator[None]:
    """PostgreSQL database ``url`` takes no write while the block runs (every session of it is
    cut, so the server's next ones are read-only), and takes them again after."""
    name = make_url(url).database
    admin = create_engine(
        url.replace("postgresql://", "postgresql+psycopg://").rsplit("/", 1)[0] + "/postgres",
        isolation_level="AUTOCOMMIT",
    )

    def set_to(value: str) -> None:
        with admin.connect() as c:
            c.execute(text(f'ALTER DATABASE "{name}" SET default_transaction_read_only = {value}'))
            c.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )

    set_to("on")
    try:
        yield
    finally:
        set_to("off")
        admin.dispose()


def test_a_move_the_database_does_not_keep_is_told_and_can_be_made_again(
    tmp_path: Path,
) -> None:
    with database_url("postgresql", tmp_path) as url, running(open_store(url)) as server:
        me, code, version = my_turn(server, lang="es")
        action = me.legal()[0]
        with read_only(url):
            me.send({"type": "act", "action": action, "version": version})
            refusal = me.expect("error")
            again = me.expect("view")
        # Told in their language, and shown the table as it is: still their move.
        assert refusal["rule"] == "not-saved"
        assert refusal["text"] == "no se pudo guardar tu jugada: inténtalo de nuevo"
        assert again["version"] == version and action in me.legal()
        # The same connection makes the move again, once the database takes writes.
        me.send({"type": "act", "action": action, "version": version})
        assert me.view_at(version + 1)["version"] == version + 1
        me.close()
        stored = [(a.seat, a.action) for a in Database(url, migrate=False).actions(f"{code}.0")]
    assert stored[version] == (0, action) and stored.count((0, action)) == 1


def test_a_move_whose_number_the_database_holds_already_is_shown_not_played_twice(
    db_url: str,
) -> None:
    """The database has the move (kept, say, by a write whose answer was lost) but this
    server's copy does not: the person is told the table moved on and is shown it, with the
    move in it, on the same connection."""
    with running(open_store(db_url)) as server:
        me, code, version = my_turn(server)
        action = me.legal()[0]
        Database(db_url, migrate=False).append_action(f"{code}.0", version, 0, action)
        me.send({"type": "act", "action": action, "version": version})
        assert me.expect("error")["rule"] == "moved-on"
        shown = me.view_at(version + 1)
        assert shown["version"] >= version + 1
        me.send({"type": "ping", "t": 1})
        assert me.expect("pong")["t"] == 1  # still connected
        me.close()
        stored = [(a.seat, a.action) for a in Database(db_url, migrate=False).actions(f"{code}.0")]
    assert stored[version] == (0, action) and stored.count((0, action)) == 1


def host_of(server: Server, seats: list[dict[str, str]], lang: str = "en") -> tuple[Client, str]:
    """A waiting table of pocha for three with ``seats``, its host connected: their connection
    and the table's code."""
    table = server.create("pocha", params={"players": "3", "schedule": "[1]"}, seats=seats, seed=5)
    host = server.client()
    host.hello(table["code"], table["token"], lang=lang)
    host.expect("room")
    return host, table["code"]


def still_connected(client: Client) -> None:
    client.send({"type": "ping", "t": 7})
    assert client.expect("pong")["t"] == 7


def test_a_start_the_database_does_not_keep_is_told_and_can_be_made_again(
    tmp_path: Path,
) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 2
    with database_url("postgresql", tmp_path) as url, running(open_store(url)) as server:
        host, code = host_of(server, [{"kind": "human"}, *bots], lang="pt")
        with read_only(url):
            host.send({"type": "start"})
            refusal = host.expect("error")
            shown = host.expect("room")  # the table shown again: still waiting
            still_connected(host)
        assert refusal["rule"] == "not-saved"
        assert refusal["text"] == "não foi possível salvar: tente de novo"
        assert not shown["started"]
        host.send({"type": "start"})  # the same connection, once the database takes writes
        assert host.until(lambda m: m["type"] == "room" and m["started"])["started"]
        host.expect("view")
        host.close()
        row = Database(url, migrate=False).table(f"{code}.0")
    assert row is not None and row.status == "playing"


def test_a_seat_change_the_database_does_not_keep_leaves_the_seats_as_they_were(
    tmp_path: Path,
) -> None:
    """The host's seat control is refused whole: the seats shown again are the ones the
    database has, not the change it did not keep (which a later start would otherwise use)."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    with database_url("postgresql", tmp_path) as url, running(open_store(url)) as server:
        host, code = host_of(server, seats)
        control = {"type": "seat", "seat": 1, "kind": "bot", "level": "easy"}
        with read_only(url):
            host.send(control)
            refusal = host.expect("error")
            shown = host.expect("room")
            still_connected(host)
            host.send({"type": "start"})  # seat 1 is still open: no start on a change not kept
            assert host.expect("error")["rule"] == "seats-open"
        assert (refusal["rule"], refusal["text"]) == (
            "not-saved",
            "that could not be saved: try again",
        )
        assert shown["seats"][1]["kind"] == "open"
        host.send(control)
        seated = host.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "bot")
        assert seated["seats"][1]["level"] == "easy"
        host.close()
        row = Database(url, migrate=False).table(f"{code}.0")
    assert row is not None and row.seats[1]["kind"] == "bot"


def test_a_rematch_the_database_does_not_keep_is_told_and_can_be_asked_again(
    tmp_path: Path,
) -> None:
    with database_url("postgresql", tmp_path) as url, running(open_store(url)) as server:
        me, code, version = my_turn(server)
        while True:  # one hand of one card each
            if me.legal():
                me.send({"type": "act", "action": me.legal()[0], "version": version})
            shown = me.expect("view")
            version = shown["version"]
            if shown["result"] is not None:
                break
        with read_only(url):
            me.send({"type": "rematch"})
            assert me.expect("error")["rule"] == "not-saved"
            assert me.expect("room")["match"] == 0
            still_connected(me)
        me.send({"type": "rematch"})
        assert me.until(lambda m: m["type"] == "room" and m["match"] == 1)["started"]
        me.close()
        assert Database(url, migrate=False).table(f"{code}.1") is not None


def test_a_form_the_database_does_not_take_is_answered_503_to_try_again(tmp_path: Path) -> None:
    """Creating a table while the database takes no write: 503 with Retry-After (the request
    was good; try it again), not a 500, and nothing is made; once it takes writes, it is."""
    form = {"game": "pocha", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}
    with database_url("postgresql", tmp_path) as url, running(open_store(url)) as server:
        with read_only(url):
            refused = urllib.request.Request(
                server.url + "/api/tables",
                data=json.dumps(form).encode(),
                headers={"Content-Type": "application/json"},
            )
            with pytest.raises(urllib.error.HTTPError) as answer:
                urllib.request.urlopen(refused, timeout=10)
        assert answer.value.code == 503 and answer.value.headers["Retry-After"] == "5"
        assert "try again" in json.loads(answer.value.read())["detail"]
        assert server.get("/api/tables")["tables"] == []
        made = server.post("/api/tables", form)
        assert server.get(f"/api/tables/{made['code']}")["code"] == made["code"]


@contextmanager
def records_refused(url: str) -> Iterator[None]:
    """Database ``url`` refuses to keep a finished match's record (as a full disk does: a
    record is the largest write) while the block runs; moves are still kept."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    if url.startswith("sqlite"):
        refuse = [
            "CREATE TRIGGER refuse BEFORE INSERT ON records"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        ]
        allow = ["DROP TRIGGER refuse"]
    else:
        refuse = [
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$",
            "CREATE TRIGGER refuse BEFORE INSERT ON records EXECUTE FUNCTION refuse()",
        ]
        allow = ["DROP TRIGGER refuse ON records", "DROP FUNCTION refuse()"]
    with engine.begin() as c:
        for statement in refuse:
            c.execute(text(statement))
    try:
        yield
    finally:
        with engine.begin() as c:
            for statement in allow:
                c.execute(text(statement))
        engine.dispose()


def to_the_end(me: Client, version: int) -> None:
    """``me`` plays its moves (the bots theirs) until the match is over."""
    while True:
        if me.legal():
            me.send({"type": "act", "action": me.legal()[0], "version": version})
        shown = me.expect("view")
        version = shown["version"]
        if shown["result"] is not None:
            return


def test_a_record_the_database_refuses_is_kept_once_it_takes_it_and_before_a_rematch(
    db_url: str,
) -> None:
    """The last move is kept but the record is not (the disk full): the match ends for its
    players, a rematch is refused as not saved rather than leaving that match without a record
    for good, and once the database takes writes the record is kept, with its results."""
    with running(open_store(db_url)) as server:
        me, code, version = my_turn(server)
        with records_refused(db_url):
            to_the_end(me, version)
            me.send({"type": "rematch"})
            assert me.expect("error")["rule"] == "not-saved"
            assert me.expect("room")["match"] == 0
        stored = Database(db_url, migrate=False)
        deadline = time.monotonic() + 30
        while stored.record(f"{code}.0") is None and time.monotonic() < deadline:
            time.sleep(0.1)  # kept by the server's next try, without anyone asking
        kept = stored.record(f"{code}.0")
        assert kept is not None and json.loads(kept)["seed"] == 5
        with stored.engine.connect() as c:
            results = c.execute(
                select(schema.results).where(schema.results.c.table_id == f"{code}.0")
            )
            assert len(results.all()) == 3  # and its results, so its players' ratings
        me.send({"type": "rematch"})
        assert me.until(lambda m: m["type"] == "room" and m["match"] == 1)["started"]
        me.close()
        assert server.get(f"/api/tables/{code}/records/0")["seed"] == 5
