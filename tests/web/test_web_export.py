"""A club's evening afterwards: ``tapete export`` writes every finished match the server kept,
public and private, into a folder, with who won, while the server still runs."""

from __future__ import annotations

import contextlib
import sqlite3
import urllib.request
from pathlib import Path

import pytest

from conftest import database_url
from tapete.cli import main
from tapete.web.app import open_store
from webclient import play_to_the_end, running

SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3


def test_an_organiser_exports_every_finished_match_of_the_evening(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with running(open_store(url)) as server:
        ana = server.post("/api/players", {"name": "Ana"})
        bea = server.post("/api/players", {"name": "Bea"})
        listed = server.create(
            "pocha", params={"schedule": "[1]"}, seats=SEATS, player=ana["token"]
        )
        private = server.create(
            "pocha",
            params={"schedule": "[1]"},
            seats=SEATS,
            player=bea["token"],
            name="Bea",
            public=False,
        )
        guest = server.create("pocha", params={"schedule": "[1]"}, seats=SEATS, name="Dora")
        waiting = server.create("pocha", seats=SEATS, name="Cai")  # never started
        for table in (listed, private, guest):
            play_to_the_end(server, table)
        downloads = {}
        for table in (listed, private, guest):
            address = f"{server.url}/api/tables/{table['code']}/records/0"
            with urllib.request.urlopen(address, timeout=10) as response:
                downloads[f"tapete-{table['code']}-0.json"] = response.read()

        # While the server runs, as an organiser would at the end of the evening.
        folder = tmp_path / "evening"
        capsys.readouterr()
        assert main(["export", str(folder), "--db", url]) == 0
        said = capsys.readouterr()

    # Each record as the table's download gives it, under the same name; nothing else.
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == downloads
    assert waiting["code"] not in said.out
    assert "3 finished matches written to" in said.err
    for name in downloads:
        assert main(["replay", str(folder / name), "--verify", "--plain"]) == 0
    lines = said.out.splitlines()
    for table, who in ((listed, "Ana"), (private, "Bea"), (guest, "Dora")):
        line = next(x for x in lines if f"tapete-{table['code']}-0.json" in x)
        assert "  pocha(schedule=[1])  " in line and f"{who} " in line
        assert "won: " in line
    # The evening's standings: each person played one match of pocha (Dora without a player:
    # a guest), the random bots three (at three seats of each: one match each, as their
    # rating counts it).
    standings = lines[lines.index("pocha: matches won, of matches played") + 1 :]
    played = {row.split(maxsplit=3)[3]: row.split()[2] for row in standings}
    assert played == {"Ana": "1", "Bea": "1", "Dora (guest)": "1", "bot:random": "3"}


def test_two_guests_of_one_name_are_told_apart_in_the_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two people called Dora without a player, each at a table of their own: the standings
    said both "Dora (guest) (guest:)", the start of the id being the same "guest:" prefix."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with running(open_store(url)) as server:
        for _ in range(2):
            made = server.create("pocha", params={"schedule": "[1]"}, seats=SEATS, name="Dora")
            play_to_the_end(server, made)
    capsys.readouterr()
    assert main(["export", str(tmp_path / "out"), "--db", url]) == 0
    lines = capsys.readouterr().out.splitlines()
    standings = lines[lines.index("pocha: matches won, of matches played") + 1 :]
    doras = [row.split(maxsplit=3)[3] for row in standings if "Dora" in row]
    assert len(doras) == 2 and doras[0] != doras[1], doras
    for dora in doras:
        assert dora.startswith("Dora (guest) (") and "guest:" not in dora, dora


def test_an_export_since_a_moment_takes_only_what_finished_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with running(open_store(url)) as server:
        play_to_the_end(server, server.create("pocha", params={"schedule": "[1]"}, seats=SEATS))
    folder = tmp_path / "tomorrow"
    assert main(["export", str(folder), "--db", url, "--since", "2999-01-01T19:00"]) == 0
    assert list(folder.iterdir()) == []
    assert "0 finished matches since 2999-01-01 19:00 written to" in capsys.readouterr().err


def test_an_export_from_a_file_that_is_no_database_says_so_in_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.db"
    bad.write_text("not a database\n")
    assert main(["export", str(tmp_path / "out"), "--db", f"sqlite:///{bad}"]) == 2
    err = capsys.readouterr().err
    assert err == f"tapete: --db: sqlite:///{bad} cannot be read: file is not a database\n"
    assert bad.read_text() == "not a database\n" and not (tmp_path / "out").exists()


def test_an_export_from_a_database_that_is_not_there_says_so_and_makes_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "tapete.db"
    assert main(["export", str(tmp_path / "out"), "--db", f"sqlite:///{missing}"]) == 2
    assert f"--db: there is no database at {missing}" in capsys.readouterr().err
    assert not missing.exists() and not (tmp_path / "out").exists()
    missing.touch()  # an empty file: not tapete's, and given no tables of it
    assert main(["export", str(tmp_path / "out"), "--db", f"sqlite:///{missing}"]) == 2
    assert "holds no tables of tapete serve" in capsys.readouterr().err
    with contextlib.closing(sqlite3.connect(missing)) as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == []
    assert not (tmp_path / "out").exists()
    with pytest.raises(SystemExit) as exited:
        main(["export", str(tmp_path / "out"), "--since", "last night"])
    assert exited.value.code == 2
    assert "--since: 'last night' is not a date and time" in capsys.readouterr().err


def test_an_export_from_a_postgresql_database_tapete_never_served_names_it_as_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The line named the database as SQLAlchemy's driver has it (postgresql+psycopg://), a
    URL the organiser never wrote."""
    with database_url("postgresql", tmp_path) as url:
        assert main(["export", str(tmp_path / "out"), "--db", url]) == 2
    err = capsys.readouterr().err
    assert f"--db: {url} holds no tables of tapete serve" in err and "+psycopg" not in err
    assert not (tmp_path / "out").exists()


def test_an_export_from_a_database_that_does_not_answer_says_so_in_a_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A PostgreSQL server that is not there was a traceback of a hundred lines: the export
    opens its database without migrating it, and the first question to it was not caught."""
    url = "postgresql://nobody@127.0.0.1:1/tapete"
    assert main(["export", str(tmp_path / "out"), "--db", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tapete: cannot reach the database {url}: ") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_an_export_speaks_the_organisers_language_as_every_command_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with running(open_store(url)) as server:
        play_to_the_end(
            server, server.create("pocha", params={"schedule": "[1]"}, seats=SEATS, name="Dora")
        )
    capsys.readouterr()
    assert main(["export", str(tmp_path / "es"), "--db", url, "--lang", "es"]) == 0
    said = capsys.readouterr()
    assert "  ganó: " in said.out and "won:" not in said.out
    assert "\npocha: partidas ganadas, de las jugadas\n" in said.out
    assert "Dora (invitado)" in said.out and "de 1" in said.out
    assert f"1 partida terminada guardada en {tmp_path / 'es'}" in said.err
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")  # without --lang, the locale's language
    missing = tmp_path / "missing.db"
    assert main(["export", str(tmp_path / "pt"), "--db", f"sqlite:///{missing}"]) == 2
    assert f"tapete: --db: não há banco de dados em {missing}" in capsys.readouterr().err


def test_an_export_names_the_seats_the_table_named_in_the_export_s_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table names its bots and a person without a name itself ("bot 2 · random",
    "player 1"), in English in the record: a Spanish or Portuguese export said them in
    English, in a report otherwise in the organiser's language."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with running(open_store(url)) as server:
        made = server.create("pocha", params={"schedule": "[1]"}, seats=SEATS, name="")
        play_to_the_end(server, made)
    for lang, words in (
        ("es", ["jugador 1 (invitado)", "bot 2 · al azar", "bot 3 · al azar", "bot 4 · al azar"]),
        ("pt", ["jogador 1 (convidado)", "bot 2 · aleatório", "bot 4 · aleatório"]),
    ):
        capsys.readouterr()
        assert main(["export", str(tmp_path / lang), "--db", url, "--lang", lang]) == 0
        said = capsys.readouterr().out
        line = next(x for x in said.splitlines() if ".json" in x)
        for word in words[1:]:
            assert f"{word} " in line, (word, line)
        assert words[0] in said  # the guest in the standings
        assert "random" not in said.replace("bot:random", "") and "player 1" not in said
        # and the record replayed in that language names them so too
        (record,) = (tmp_path / lang).iterdir()
        assert main(["replay", str(record), "--plain", "--lang", lang]) == 0
        told = capsys.readouterr().out
        assert f"\n  {words[1]}: " in told and "player 1" not in told
        assert "· random" not in told  # "(random)" after a seat in the heading is its level's id
