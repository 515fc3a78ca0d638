"""tapete.store against SQLite and PostgreSQL: tables, actions, records, players, ratings."""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import insert, text, update

import tapete
from tapete.match import play
from tapete.record import dumps, params_json
from tapete.store import ConflictError, Store, StoreError, schema, seed_hash

SEATS = [{"kind": "bot", "bot": "random", "name": f"bot {i}"} for i in range(4)]


def test_a_table_and_its_actions_survive_reopening(db_url: str) -> None:
    store = Store(db_url)
    rules = params_json(tapete.load("pocha(schedule=[1, 2])"))
    row = store.create_table("pocha(schedule=[1, 2])", seed=42, seats=SEATS, params=rules)
    assert row.seed_hash == seed_hash(42) and len(row.code) == 6
    for i, action in enumerate(["bid 0", "bid 1", "bid 0"]):
        store.append_action(row.id, i, (i + 1) % 4, action)
    store.engine.dispose()
    again = Store(db_url)
    assert again.table(row.id) == row
    assert again.table_by_code(row.code.lower()) == row
    assert [(a.idx, a.seat, a.action) for a in again.actions(row.id)] == [
        (0, 1, "bid 0"),
        (1, 2, "bid 1"),
        (2, 3, "bid 0"),
    ]


def test_a_salted_table_keeps_its_salt_and_publishes_the_salted_hash(db_url: str) -> None:
    store = Store(db_url)
    salt = "0123456789abcdef" * 2
    row = store.create_table("pocha", seed=42, seats=SEATS, seed_salt=salt)
    assert row.seed_hash == hashlib.sha256(f"{salt}:42".encode()).hexdigest() != seed_hash(42)
    store.engine.dispose()
    back = Store(db_url).table(row.id)
    assert back is not None and back.seed_salt == salt and back.seed_hash == row.seed_hash
    with pytest.raises(ValueError, match="seed_salt must be 32 lowercase hex digits"):
        store.create_table("pocha", seed=42, seats=SEATS, seed_salt=salt.upper())
    assert [t.id for t in store.tables()] == [row.id]  # nothing written


def test_an_action_number_is_written_once(db_url: str) -> None:
    store = Store(db_url)
    row = store.create_table("pocha", seed=1, seats=SEATS)
    store.append_action(row.id, 0, 1, "bid 0")
    with pytest.raises(ConflictError, match="already has an action number 0"):
        store.append_action(row.id, 0, 1, "bid 1")
    assert [a.action for a in store.actions(row.id)] == ["bid 0"]


def test_actions_of_several_tables_commit_together_and_a_conflict_refuses_only_itself(
    db_url: str,
) -> None:
    store = Store(db_url)
    a, b = (store.create_table("pocha", seed=k, seats=SEATS) for k in (1, 2))
    assert store.append_actions([(a.id, 0, 1, "bid 0"), (b.id, 0, 2, "bid 1")]) == [None, None]
    refused = store.append_actions(
        [(a.id, 1, 2, "bid 1"), (b.id, 0, 2, "bid 3"), ("no-such-table", 0, 0, "bid 0")]
    )
    assert refused[0] is None
    assert all(isinstance(r, ConflictError) for r in refused[1:])
    assert [x.action for x in store.actions(a.id)] == ["bid 0", "bid 1"]
    assert [x.action for x in store.actions(b.id)] == ["bid 1"]
    assert store.append_actions([]) == []


def test_concurrent_writers_never_duplicate_an_action(db_url: str) -> None:
    store = Store(db_url)
    row = store.create_table("pocha", seed=1, seats=SEATS)
    wins: list[int] = []

    def write(k: int) -> None:
        try:
            store.append_action(row.id, 0, 1, f"bid {k}")
            wins.append(k)
        except ConflictError:
            pass

    threads = [threading.Thread(target=write, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and len(store.actions(row.id)) == 1


def test_a_player_made_with_a_key_is_made_once_however_often_and_at_once_it_is_asked(
    db_url: str,
) -> None:
    """A new player asked for again with its creation key (the answer lost), by servers at
    once too, is the one player the first request made, with the same token; from another
    process on the same database as well."""
    store = Store(db_url)
    key = "k" * 22
    made: list[tuple[object, str]] = []
    start = threading.Barrier(4)

    def make() -> None:
        start.wait()
        made.append(Store(db_url, migrate=False).create_player("Ana", key))

    threads = [threading.Thread(target=make) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 4 and len(set(made)) == 1
    ana, token = made[0]
    assert Store(db_url).create_player("Lu", key) == (ana, token)  # its name stays
    assert store.player(token) == ana
    with store.engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM players")).scalar() == 1
    bea, other = store.create_player("Ana", "x" * 22)
    assert bea != ana and other != token


def test_tables_by_status_and_updates(db_url: str) -> None:
    store = Store(db_url)
    a = store.create_table("pocha", seed=1, seats=SEATS)
    b = store.create_table("truco(players=4)", seed=2, seats=SEATS[:2], public=False)
    store.update_table(b.id, status="playing", seats=SEATS[:1] + SEATS[:1])
    assert [t.id for t in store.tables({"open"})] == [a.id]
    assert store.table(b.id).status == "playing"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="spec cannot change"):
        store.update_table(a.id, spec="poch")


def test_finishing_stores_the_record_results_and_ratings(db_url: str) -> None:
    store = Store(db_url)
    ana, token = store.create_player("Ana")
    assert store.player(token) == ana and store.player("forged") is None
    game = tapete.load("pocha(schedule=[1, 2])")
    for seed in range(3):
        row = store.create_table(game.spec, seed=seed, seats=SEATS)
        final, rec = play(game, ["random"] * 4, seed=seed)
        outcome = game.outcome(final)
        assert outcome is not None
        who = [ana.id, "bot:random", "bot:easy", "bot:medium"]
        results = [(s, who[s], outcome.scores[s], s in outcome.winners) for s in range(4)]
        store.finish(row.id, game.name, dumps(rec), results)
        assert store.record(row.id) == dumps(rec)
        assert store.table(row.id).status == "finished"  # type: ignore[union-attr]
    profile = store.profile(ana.id)
    assert profile["matches"] == 3 and profile["ratings"]["pocha"]["matches"] == 3
    board = store.leaderboard("pocha")
    assert {r["participant"] for r in board} == {ana.id, "bot:random", "bot:easy", "bot:medium"}
    assert next(r for r in board if r["participant"] == ana.id)["name"] == "Ana"
    ordinals = [r["ordinal"] for r in board]
    assert ordinals == sorted(ordinals, reverse=True)


def test_finished_matches_are_listed_oldest_first_with_who_played_and_won(db_url: str) -> None:
    """An organiser's export reads every finished match of an evening from the store: the
    records as kept, their results by seat, and only those finished since a moment given in
    any time zone."""
    store = Store(db_url)
    ana, _ = store.create_player("Ana")
    game = tapete.load("pocha(schedule=[1])")
    kept = []
    for seed in range(3):
        row = store.create_table(game.spec, seed=seed, seats=SEATS, public=seed != 1)
        _, rec = play(game, ["random"] * 4, seed=seed)
        who = [ana.id, "bot:random", "bot:easy", "guest:abc"]
        store.finish(row.id, game.name, dumps(rec), [(s, who[s], s, s == 0) for s in range(4)])
        kept.append((row.id, dumps(rec)))
    store.create_table(game.spec, seed=9, seats=SEATS)  # not finished: not listed
    # The first match ended yesterday evening.
    yesterday = datetime.now(UTC) - timedelta(days=1)
    with store.engine.begin() as c:
        c.execute(
            update(schema.records)
            .where(schema.records.c.table_id == kept[0][0])
            .values(finished_at=yesterday)
        )
    every = store.finished()
    assert [(f.table_id, f.record) for f in every] == kept
    assert every[1].game == "pocha" and every[1].won == (True, False, False, False)
    assert every[1].participants == (ana.id, "bot:random", "bot:easy", "guest:abc")
    assert every[1].names == ("Ana", None, None, None)
    # An hour ago, said on a clock five hours ahead of UTC: today's two matches only.
    since = (datetime.now(UTC) - timedelta(hours=1)).astimezone(timezone(timedelta(hours=5)))
    assert [f.table_id for f in store.finished(since)] == [kept[1][0], kept[2][0]]
    assert store.finished(datetime.now(UTC) + timedelta(hours=1)) == []


def test_a_profile_counts_every_match_and_lists_only_the_newest(db_url: str) -> None:
    """A bot plays every table of a server: its profile, which anyone may ask for, counts all
    its matches and wins but lists only the newest results, with the table's code for a table
    the lobby lists."""
    store = Store(db_url)
    game = tapete.load("pocha(schedule=[1])")
    tables = []
    for seed in range(5):
        row = store.create_table(game.spec, seed=seed, seats=SEATS, public=seed != 4)
        _, rec = play(game, ["random"] * 4, seed=seed)
        won = seed % 2 == 0
        results = [(0, "bot:easy", seed, won), (1, "bot:hard", 0, not won)]
        store.finish(row.id, game.name, dumps(rec), results)
        tables.append(row.id)
    profile = store.profile("bot:easy", shown=2)
    assert (profile["matches"], profile["wins"]) == (5, 3)
    listed = [(r["table_id"], r["public"], r["score"]) for r in profile["results"]]
    assert listed == [(tables[4], False, 4), (tables[3], True, 3)]
    nobody = store.profile("bot:nobody")
    assert (nobody["matches"], nobody["wins"], nobody["results"]) == (0, 0, [])


def test_team_games_rate_teams(db_url: str) -> None:
    store = Store(db_url)
    row = store.create_table("truco(players=4)", seed=3, seats=SEATS)
    results = [
        (0, "bot:hard", 12, True),
        (1, "bot:easy", 4, False),
        (2, "bot:hard", 12, True),
        (3, "bot:easy", 4, False),
    ]
    store.finish(row.id, "truco", "{}", results, teams=[(0, 2), (1, 3)])
    hard = store.profile("bot:hard")["ratings"]["truco"]
    easy = store.profile("bot:easy")["ratings"]["truco"]
    assert hard["mu"] > easy["mu"] and hard["matches"] == easy["matches"] == 1


def test_a_won_play_off_ranks_above_an_equal_score(db_url: str) -> None:
    # A Pocha tie-break: seats 0 and 1 end level on points, seat 0 won the play-off.
    store = Store(db_url)
    row = store.create_table("pocha", seed=3, seats=SEATS)
    results = [(0, "ana", 50, True), (1, "bea", 50, False), (2, "cai", 10, False)]
    store.finish(row.id, "pocha", "{}", results)
    mu = {who: store.profile(who)["ratings"]["pocha"]["mu"] for who in ("ana", "bea", "cai")}
    assert mu["ana"] > mu["bea"] > mu["cai"]


def test_matches_that_end_at_once_are_all_rated(db_url: str) -> None:
    # Each server thread finishes its own match; the same bots sit at every table.
    store = Store(db_url)
    rows = [store.create_table("truco(players=4)", seed=i, seats=SEATS) for i in range(8)]
    who = ["bot:hard", "bot:easy", "bot:medium", "bot:random"]
    results = [(s, who[s], 12 if s % 2 == 0 else 4, s % 2 == 0) for s in range(4)]
    start = threading.Barrier(len(rows))
    errors: list[BaseException] = []

    def finish(table_id: str) -> None:
        start.wait()
        try:
            store.finish(table_id, "truco", "{}", results, teams=[(0, 2), (1, 3)])
        except BaseException as exc:  # collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=finish, args=(row.id,)) for row in rows]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    board = {r["participant"]: r["matches"] for r in store.leaderboard("truco")}
    assert board == dict.fromkeys(who, len(rows))


def test_migration_from_the_first_schema_keeps_the_data(db_url: str) -> None:
    old = Store(db_url, migrate=False)
    old.migrate("0001")
    assert old.revision() == "0001"
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    with old.engine.begin() as c:
        c.execute(
            insert(schema.tables).values(
                id="t1",
                code="ABCDEF",
                spec="pocha",
                seed=5,
                seed_hash=seed_hash(5),
                seats=SEATS,
                public=True,
                status="playing",
                created_at=now,
                updated_at=now,
            )
        )
        c.execute(
            insert(schema.actions).values(
                table_id="t1", idx=0, seat=1, action="bid 0", created_at=now
            )
        )
    old.engine.dispose()
    new = Store(db_url)
    assert new.revision() == "0008"
    table = new.table("t1")
    assert table is not None and table.host is None and table.status == "playing"
    # made before salts: its hash stays that of the seed alone, and is checked so
    assert table.seed_salt is None and table.seed_hash == seed_hash(5)
    assert table.room is None and table.match is None
    assert table.params is None  # made before tables kept their rules: played from its spec
    assert [a.action for a in new.actions("t1")] == ["bid 0"]
    player, _ = new.create_player("Bea")
    assert new.player_by_id(player.id) == player


def test_a_database_a_newer_tapete_wrote_is_one_clear_error_and_kept_as_it_is(
    db_url: str,
) -> None:
    """A host who goes back a version after an upgrade: the schema is at a revision this
    tapete has never heard of. It was Alembic's traceback ("Can't locate revision")."""
    Store(db_url).engine.dispose()
    newer = Store(db_url, migrate=False)
    with newer.engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = '0042'"))
    with pytest.raises(StoreError) as refused:
        Store(db_url)
    said = str(refused.value)
    assert "was written by a newer tapete (its schema is at revision 0042;" in said
    assert "this tapete knows up to 0008): upgrade tapete" in said and "\n" not in said
    assert newer.revision() == "0042"  # nothing was changed
    newer.engine.dispose()


def test_a_database_that_cannot_be_opened_is_one_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "folder" / "tapete.db"
    with pytest.raises(StoreError, match=r"cannot open the database .*the folder .* does not"):
        Store(f"sqlite:///{missing}")
    assert not missing.parent.exists()  # nothing was made on the way
    with pytest.raises(StoreError, match=r"'tables' is not a database URL: sqlite:///PATH or"):
        Store("tables")
    # A server that does not answer (port 9 is discard: nothing listens there): its password is
    # never in the message.
    with pytest.raises(StoreError, match=r"cannot reach the database .*:\*\*\*@") as refused:
        Store("postgresql://postgres:hunter2@127.0.0.1:9/tapete")
    assert "hunter2" not in str(refused.value) and isinstance(refused.value, OSError)


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_an_sqlite_file_deleted_or_replaced_while_open_takes_no_more_writes(
    tmp_path: Path, how: str
) -> None:
    """SQLite would go on writing to the file it has open, which nobody finds after a
    restart: every move acknowledged from then on would be lost. Refused instead, naming
    the file."""
    path = tmp_path / "tapete.db"
    store = Store(f"sqlite:///{path}")
    row = store.create_table("pocha(schedule=[1])", seed=1, seats=SEATS)
    store.append_action(row.id, 0, 1, "bid 0")
    for file in tmp_path.glob("tapete.db*"):
        file.unlink()
    if how == "replaced":  # a backup put back while the server runs, say
        Store(f"sqlite:///{path}").engine.dispose()
    with pytest.raises(StoreError, match=f"the database {path} was deleted or replaced"):
        store.append_actions([(row.id, 1, 2, "bid 0")])
    with pytest.raises(StoreError):
        store.finish(row.id, "pocha", "{}", [], None)


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://ana:hunter2@db/tapete", "'mysql://ana:***@db/tapete': tapete keeps tables in "
         "SQLite or PostgreSQL, not mysql: sqlite:///PATH or postgresql://"),
        ("postgres://ana:hunter2@db/tapete", "'postgres://ana:***@db/tapete': PostgreSQL is "
         "written postgresql://"),
        ("postgresql+pygresql://ana:hunter2@db/tapete", "'postgresql+pygresql://ana:***@db/"
         "tapete': SQLAlchemy has no driver 'pygresql' for postgresql"),
    ],
)  # fmt: skip
def test_a_database_tapete_does_not_keep_tables_in_is_named_without_its_password(
    url: str, said: str
) -> None:
    with pytest.raises(StoreError) as refused:
        Store(url)
    assert str(refused.value).startswith(said) and "hunter2" not in str(refused.value)


def test_a_database_driver_not_installed_is_named() -> None:
    if importlib.util.find_spec("pg8000") is not None:
        pytest.skip("pg8000 is installed here")
    with pytest.raises(StoreError) as refused:
        Store("postgresql+pg8000://ana:hunter2@db/tapete")
    said = "cannot open the database postgresql+pg8000://ana:***@db/tapete: its driver is not"
    assert str(refused.value).startswith(said) and "hunter2" not in str(refused.value)


def test_the_default_database_is_in_tapete_s_data_folder_when_one_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One setting moves all of a person's tapete data: the terminal's records and the server's.
    from tapete.store import default_url
    from tapete.tui.records import data_dir

    monkeypatch.setenv("TAPETE_DATA", str(tmp_path / "elsewhere"))
    assert default_url() == f"sqlite:///{tmp_path / 'elsewhere' / 'tapete.db'}"
    assert (tmp_path / "elsewhere").is_dir() and data_dir() == tmp_path / "elsewhere"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("TAPETE_DATA")
    assert default_url() == f"sqlite:///{tmp_path / 'xdg' / 'tapete' / 'tapete.db'}"
    # Whatever the platform's folder, the server's database sits with the terminal's records.
    assert default_url() == f"sqlite:///{data_dir() / 'tapete.db'}"


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite:///:memory:"])
def test_every_way_of_writing_sqlite_in_memory_keeps_its_tables(url: str) -> None:
    """``sqlite:///`` and ``sqlite:///:memory:`` opened a new, empty database for each
    connection: the migrated tables were gone, and ``tapete serve --db sqlite:///`` ended in a
    traceback of "no such table: tables"."""
    store = Store(url)
    row = store.create_table("pocha", seed=42, seats=SEATS)
    store.append_action(row.id, 0, 1, "bid 0")
    assert store.revision() is not None and store.table(row.id) == row
    assert [a.action for a in store.actions(row.id)] == ["bid 0"]
