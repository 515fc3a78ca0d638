"""Restart safety: the real server as a process, several tables played partway, ``kill -9``, a
restart on the same database, and every table exactly at its last acknowledged action."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tapete.store import Store as Database
from webclient import Client, Server, free_port, open_socket, process, stand_in_note


class Table:
    """A table of people only (nothing moves unless a test player acts): its clients by seat,
    their tokens, and every action the server acknowledged, in order."""

    def __init__(self, server: Server, game: str, params: dict[str, Any], players: int) -> None:
        made = server.create(game, params=params, seats=[{"kind": "human"}] * players)
        self.code: str = made["code"]
        self.tokens = {made["seat"]: made["token"]}
        for i in range(1, players):
            joined = server.post(f"/api/tables/{self.code}/join", {"name": f"P{i}"})
            self.tokens[joined["seat"]] = joined["token"]
        self.clients = self.connect(server)
        self.clients[0].send({"type": "start"})
        for client in self.clients.values():
            client.view_at(0)
        self.acked: list[tuple[int, str]] = []

    def connect(self, server: Server) -> dict[int, Client]:
        clients = {}
        for seat, token in self.tokens.items():
            client = Client(open_socket(server.ws_url))
            client.hello(self.code, token)
            clients[seat] = client
        return clients

    def play(self, moves: int) -> None:
        for _ in range(moves):
            seat, client = next((s, c) for s, c in self.clients.items() if c.legal())
            action = client.legal()[0]
            client.send({"type": "act", "action": action})
            version = len(self.acked) + 1
            for each in self.clients.values():  # everyone is told: the action is acknowledged
                assert each.view_at(version)["version"] == version
            self.acked.append((seat, action))


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what a restart may change: the log window, the animation and clocks."""
    return {k: view[k] for k in ("version", "match", "table", "actions", "result")}


def test_kill_9_loses_no_acknowledged_action_and_duplicates_none(
    tmp_path: Path, db_url: str
) -> None:
    db = db_url  # an SQLite file, then a PostgreSQL database
    port = free_port()
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    log = tmp_path / "server.log"
    with process(port, db, log) as proc:
        tables = [
            Table(server, "pocha", {"schedule": "[2, 3]"}, 4),
            Table(server, "truco", {}, 2),
            Table(server, "oh_hell", {"players": 3}, 3),
            Table(server, "pocha", {"schedule": "[1]"}, 4),
        ]
        for table, moves in zip(tables, (11, 5, 7, 0), strict=True):
            table.play(moves)
        # A table of bots playing flat out, watched by its host: killed in the middle of it.
        bots = server.create(
            "pocha",
            params={"schedule": "[10, 10, 10]"},
            seats=[{"kind": "bot", "level": "random"}] * 4,
        )
        watcher = Client(open_socket(server.ws_url))
        watcher.hello(bots["code"], bots["token"])
        watcher.send({"type": "start"})
        watcher.view_at(30)
        before = {
            t.code: {s: comparable(c.view or {}) for s, c in t.clients.items()} for t in tables
        }
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    for table in tables:
        for client in table.clients.values():
            client.close()
    assert watcher.view is not None
    seen = watcher.view["version"]
    watcher.close()

    stored = Database(db)
    assert len(stored.actions(f"{bots['code']}.0")) >= seen  # told means committed
    for table in tables:
        rows = stored.actions(f"{table.code}.0")
        assert [(a.seat, a.action) for a in rows] == table.acked
        assert [a.idx for a in rows] == list(range(len(table.acked)))

    with process(port, db, log):
        for table in tables:
            table.clients = table.connect(server)
            for seat, client in table.clients.items():
                view = client.view_at(len(table.acked))
                assert comparable(view) == before[table.code][seat]
            table.play(2)  # and play goes on from there
            for client in table.clients.values():
                client.close()
        watcher = Client(open_socket(server.ws_url))
        watcher.hello(bots["code"], bots["token"])
        assert watcher.expect("view")["version"] >= seen
        watcher.close()
    for table in tables:
        rows = stored.actions(f"{table.code}.0")
        assert [(a.seat, a.action) for a in rows] == table.acked


def test_sigterm_mid_match_drains_and_the_match_ends_whole_after_a_restart(
    tmp_path: Path,
) -> None:
    """A host stops the server (SIGTERM) while bots play flat out on SQLite: it closes its
    connections as a restart (1012: the page reconnects), exits at once, and keeps every move
    it told; started again, the match plays on to its end and its record has every move."""
    db, port, log = f"sqlite:///{tmp_path / 'tapete.db'}", free_port(), tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    with process(port, db, log, ["--bot-processes", "0"]) as proc:
        made = server.create(
            "pocha",
            params={"players": 3, "schedule": "[3, 3]"},
            seats=[{"kind": "bot", "level": "random"}] * 3,
        )
        watcher = Client(open_socket(server.ws_url))
        watcher.hello(made["code"], made["token"])
        watcher.send({"type": "start"})
        watcher.view_at(5)
        proc.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            watcher.until(lambda m: False)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        proc.wait(15)
    assert watcher.view is not None
    seen = watcher.view["version"]
    assert "Application shutdown complete" in log.read_text()
    assert len(Database(db).actions(f"{made['code']}.0")) >= seen  # told means kept

    with process(port, db, log, ["--bot-processes", "0"]):
        again = Client(open_socket(server.ws_url))
        again.hello(made["code"], made["token"])
        end = again.until(lambda m: m["type"] == "view" and m["result"] is not None, 60)
        again.close()
        record = server.get(f"/api/tables/{made['code']}/records/0")
    assert sum(len(deal["actions"]) for deal in record["deals"]) == end["version"]
    assert len(Database(db).actions(f"{made['code']}.0")) == end["version"]


def played_to_the_end(client: Client, view: dict[str, Any]) -> list[str]:
    """The log lines of the rest of the match from ``view`` on, ``client`` playing its first
    legal action whenever it is to act."""
    after: list[str] = []
    while not view["result"]:
        if client.legal():
            client.send({"type": "act", "action": client.legal()[0]})
        view = client.expect("view", 30)
        after += view["log"]
    return after


def test_a_stand_in_is_said_once_across_a_restart(tmp_path: Path) -> None:
    """Bea never comes, so a bot stands in for her, and the log says so; the server restarts
    mid-match and her stand-in plays on: the log once said it again, after the restart, as if
    she had come back and gone meanwhile."""
    said = stand_in_note("Bea")
    db, port, log = f"sqlite:///{tmp_path / 'tapete.db'}", free_port(), tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    with process(port, db, log, ["--bot-processes", "0"]) as proc:
        made = server.create(
            "pocha",
            params={"players": "3", "schedule": "[3]"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            grace=0.1,
            bot_delay=0,
        )
        code = made["code"]
        server.post(f"/api/tables/{code}/join", {"name": "Bea"})  # and never comes
        ana = Client(open_socket(server.ws_url))
        ana.hello(code, made["token"])
        ana.send({"type": "start"})
        before: list[str] = []
        # Until it is Ana's turn after the stand-in's first move: nothing moves until she does.
        while not (said in before and ana.legal()):
            view = ana.expect("view", 30)
            before += view["log"]
            if ana.legal() and said not in before:
                ana.send({"type": "act", "action": ana.legal()[0]})
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    ana.close()
    with process(port, db, log, ["--bot-processes", "0"]):
        ana = Client(open_socket(server.ws_url))
        ana.hello(code, made["token"])
        first = ana.expect("view", 30)
        assert first["log"].count(said) == 1, first["log"]
        after = played_to_the_end(ana, first)
        ana.close()
    assert any(line.startswith("Bea ") for line in after), after  # her stand-in played on
    assert said not in after, after


def test_a_stand_in_after_the_person_came_back_and_left_again_is_said_after_a_restart(
    tmp_path: Path, db_url: str
) -> None:
    """Bea never comes, a bot stands in for her (said); she comes back while it is Ana's
    turn, and leaves again before her own; the server restarts, and her stand-in plays on.
    It was kept quiet, as if she had never been back: Ana read a new absence without a word,
    and Bea, back, moves she never made as her own."""
    said = stand_in_note("Bea")
    port, log = free_port(), tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    with process(port, db_url, log, ["--bot-processes", "0"]) as proc:
        made = server.create(
            "pocha",
            params={"players": "3", "schedule": "[3]"},
            seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            grace=0.1,
            bot_delay=0,
        )
        code = made["code"]
        bea_token = server.post(f"/api/tables/{code}/join", {"name": "Bea"})["token"]
        ana = Client(open_socket(server.ws_url))
        ana.hello(code, made["token"])
        ana.send({"type": "start"})
        before: list[str] = []
        while not (said in before and ana.legal()):  # Ana's turn, after the stand-in's move
            view = ana.expect("view", 30)
            before += view["log"]
            if ana.legal() and said not in before:
                ana.send({"type": "act", "action": ana.legal()[0]})
        bea = Client(open_socket(server.ws_url))
        bea.hello(code, bea_token)  # back, while nothing moves until Ana does
        bea.expect("view")
        ana.until(lambda m: m["type"] == "room" and not m["seats"][1]["away"])
        bea.close()
        ana.until(lambda m: m["type"] == "room" and not m["seats"][1]["connected"])
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    ana.close()
    with process(port, db_url, log, ["--bot-processes", "0"]):
        ana = Client(open_socket(server.ws_url))
        ana.hello(code, made["token"])
        view = ana.expect("view", 30)
        assert view["log"].count(said) == 1, view["log"]
        after = played_to_the_end(ana, view)
        ana.close()
    bea_moved = [i for i, line in enumerate(after) if line.startswith("Bea plays")]
    assert bea_moved and after.count(said) == 1, after  # said again, once, before her moves
    assert after.index(said) < bea_moved[0], after


def test_the_host_removing_a_player_is_said_to_everyone_and_after_a_restart(
    tmp_path: Path, db_url: str
) -> None:
    """The host removes Bea mid-match: Cai, reading Spanish, is told so in his log (a bot
    plays her seat from then on, which he would otherwise see without a word); after a restart
    the log says it where it was said, once, in Spanish and in Portuguese."""
    port, log = free_port(), tmp_path / "server.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    said = "el anfitrión quitó a Bea de su asiento: un bot juega en su lugar"
    with process(port, db_url, log, ["--bot-processes", "0"]):
        made = server.create(
            "pocha", params={"players": "3", "schedule": "[2]"}, seats=[{"kind": "human"}] * 3
        )
        code = made["code"]
        bea_token = server.post(f"/api/tables/{code}/join", {"name": "Bea"})["token"]
        cai_token = server.post(f"/api/tables/{code}/join", {"name": "Cai"})["token"]
        ana, bea, cai = (Client(open_socket(server.ws_url)) for _ in range(3))
        ana.hello(code, made["token"])
        bea.hello(code, bea_token)
        cai.hello(code, cai_token, lang="es")
        ana.send({"type": "start"})
        people = [ana, bea, cai]
        for version in range(2):  # two moves, whoever is to act
            for person in people:
                person.view_at(version)
            turn = next(person for person in people if person.legal())
            turn.send({"type": "act", "action": turn.legal()[0]})
        cai.view_at(2)
        ana.send({"type": "remove", "seat": 1})
        told = cai.until(lambda m: m["type"] == "view" and said in m["log"])
        assert told["log"] == [said], told["log"]
        heard = [line for m in cai.seen if m["type"] == "view" for line in m["log"]]
        for client in people:
            client.close()
    with process(port, db_url, log, ["--bot-processes", "0"]):
        spanish, portuguese = (Client(open_socket(server.ws_url)) for _ in range(2))
        spanish.hello(code, lang="es")
        portuguese.hello(code, lang="pt")
        again = spanish.expect("view")["log"]
        # in its place: the earlier lines name Bea's seat as it is now, a bot's
        assert again.count(said) == 1 and again.index(said) == heard.index(said) == len(heard) - 1
        # the stand-in may have bid before the server stopped: nothing else follows the line
        assert all(line.startswith("bot 2") for line in again[len(heard) :]), (again, heard)
        lines = portuguese.expect("view")["log"]
        spanish.close()
        portuguese.close()
    assert lines.count("o anfitrião tirou Bea do seu lugar: um bot joga no lugar dele") == 1
