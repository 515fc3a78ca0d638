"""The ``tapete`` command as a user runs it: a real process, real stdin and files."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gzip
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tapete import howto, record
from tapete import load as load_game
from tapete.cli import LINE_LIMIT, main
from tapete.folders import records_dir
from tuikit import where_modes_hold


def tapete(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tapete.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_tapete_alone_says_what_it_does_and_how_to_start() -> None:
    done = tapete()
    assert done.returncode == 0 and not done.stderr
    assert "tapete play pocha" in done.stdout and "serve" in done.stdout


def test_games_lists_every_game() -> None:
    out = tapete("games").stdout
    assert "pocha" in out and "oh_hell" in out


def test_games_says_the_summaries_in_the_language_asked_or_the_locale_s() -> None:
    # As every other command: --lang, else the locale's language.
    spanish = tapete("games", "--lang", "es").stdout
    assert "pocha      bazas a la española acertando lo pedido" in spanish
    env = {**os.environ, "LANG": "pt_BR.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "games"], capture_output=True, text=True, env=env
    )
    assert "pocha      vazas à espanhola com pedidos exatos" in done.stdout
    assert "Spanish trick-taking" not in spanish + done.stdout


def test_rules_full_prints_the_reference_page() -> None:
    out = tapete("rules", "oh_hell", "--full", "--lang", "en").stdout
    # after the line saying Oh Hell's own defaults (the page tells Pocha's)
    said, page = out.split("\n\n", 1)
    assert said.startswith("The rules below, with these options: ")
    assert page == howto.reference("pocha") + "\n"
    assert "hook" in out.lower() and "Pocha" in out


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_rules_full_prints_the_reference_page_in_the_language_asked(lang: str) -> None:
    out = tapete("rules", "tute", "--full", "--lang", lang).stdout
    assert out == howto.reference("tute", lang) + "\n"
    assert out != howto.reference("tute") + "\n"
    assert "(English)" not in tapete("rules", "--help").stdout


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_rules_prints_how_to_play_in_the_language_asked_or_the_locales(lang: str) -> None:
    asked = tapete("rules", "truco", "--lang", lang).stdout
    assert asked == howto.page("truco", lang) + "\n"
    locale = {"en": "en_GB.UTF-8", "es": "es_AR.UTF-8", "pt": "pt_BR.UTF-8"}[lang]
    told = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "rules", "tute"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", "LANG": locale},
    )
    assert told.stdout == howto.page("tute", lang) + "\n"
    assert tapete("rules", "truco", "--lang", "fr").returncode == 2  # refused, naming the choices


def test_headless_play_prints_the_log_and_writes_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    run = tapete(
        "play",
        "pocha(schedule=[1, 2])",
        "--seats",
        "random,random,random,random",
        "--seed",
        "7",
        "--record",
        str(path),
    )
    assert run.returncode == 0, run.stderr
    assert "hand 1: " in run.stdout and "match over:" in run.stdout
    rec = record.read(path)
    assert rec.seed == 7 and len(rec.deals) >= 2
    replayed = tapete("replay", str(path), "--plain")
    assert replayed.returncode == 0 and "replay checked" in replayed.stdout


# ``tapete`` with a broken bot loaded for the level medium, as bots are loaded.
WITH_A_BROKEN_BOT = """
import sys
from tapete import bots
from tapete.cli import main

class Broken:
    name = "medium"
    def choose(self, view, legal, rng):
        raise AssertionError("this bot cannot see its hand")

load = bots.load
bots.load = lambda name: Broken() if name == "medium" else load(name)
sys.exit(main(sys.argv[1:]))
"""


def test_a_failing_bot_has_a_random_legal_move_played_for_it(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    args = ["play", "pocha(schedule=[1, 2])", "--seats", "medium,random,random,random"]
    run = subprocess.run(
        [sys.executable, "-c", WITH_A_BROKEN_BOT, *args, "--seed", "7", "--record", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    moves = sum(1 for deal in record.read(path).deals for seat, _ in deal.actions if seat == 0)
    said = "medium (0) failed to choose a move (AssertionError: this bot cannot see its hand);"
    assert run.stderr.count(said) == moves >= 5, run.stderr
    assert "match over:" in run.stdout
    assert tapete("replay", str(path), "--plain").returncode == 0
    spanish = subprocess.run(
        [sys.executable, "-c", WITH_A_BROKEN_BOT, *args, "--seed", "7", "--lang", "es"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = (
        "tapete: medium (0) no pudo elegir jugada (AssertionError: this bot cannot see its"
        " hand); se jugó por él una jugada legal al azar"
    )
    assert spanish.stderr.count(said) == moves, spanish.stderr


def test_a_human_is_reprompted_with_the_rule_after_an_illegal_entry(tmp_path: Path) -> None:
    path = tmp_path / "human.json.gz"
    # Whatever the prompt asks, these lines end up answering it: each refused entry is explained
    # and asked again, the first legal one is taken.
    cards = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    cycle = "bid 0\n" + "".join(f"play {c}\n" for c in cards)
    run = tapete(
        "play",
        "pocha(schedule=1)",
        "--seats",
        "human,random,random,random",
        "--seed",
        "3",
        "--record",
        str(path),
        stdin="bid 7\nfold\n" + cycle * 10,
    )
    assert run.returncode == 0, run.stderr
    assert "a bid is 0 to 1 tricks in this hand [bid-range]" in run.stdout
    assert "'fold' is not an action: write 'bid N' or 'play CARD'" in run.stdout
    assert "[not-in-hand]" in run.stdout and "your hand:" in run.stdout
    rec = record.loads(gzip.decompress(path.read_bytes()).decode())
    human = [a for d in rec.deals for s, a in d.actions if s == 0]
    assert human[0] == "bid 0"  # the refused entries left no trace
    assert rec.seats[0].kind == "human"
    record.replay(rec)


def test_the_prompt_refuses_hostile_lines_in_the_players_language_without_echoing_them() -> None:
    # Enter alone, a pasted page, control characters: each is refused (the first by asking
    # again) in Spanish, the long line by its length and never written back.
    huge = "a" * 100_000
    run = tapete(
        "play",
        "pocha(players=3, schedule=1)",
        "--seats",
        "human,easy,easy",
        "--seed",
        "1",
        "--plain",
        "--lang",
        "es",
        stdin=f"\n{huge}\nx\x01\n",
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "esa línea es demasiado larga (100000 caracteres): escribe una jugada" in run.stdout
    assert "'x\\x01' no es una jugada aquí" in run.stdout
    assert huge[:LINE_LIMIT] not in run.stdout and len(run.stdout) < 5_000
    # Asked again after each line.
    assert run.stdout.count("tu jugada (bid 0 (pedir 0), bid 1 (pedir 1)):") == 4
    assert "entrada cerrada: partida abandonada" in run.stderr


def test_a_match_at_the_prompt_ends_with_every_final_score_in_the_players_language(
    tmp_path: Path,
) -> None:
    # Two hands: the last hand's points alone would not say the standings.
    path = tmp_path / "two.json"
    cards = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    cycle = "bid 0\nbid 1\nbid 2\n" + "".join(f"play {c}\n" for c in cards)
    run = tapete(
        "play",
        "pocha(players=3, schedule=[1, 2])",
        "--seats",
        "human,easy,easy",
        "--seed",
        "4",
        "--lang",
        "pt",
        "--record",
        str(path),
        stdin=cycle * 10,
    )
    assert run.returncode == 0, run.stderr
    rec = record.loads(path.read_text())
    assert rec.result is not None
    # The bots are named by their level in Portuguese, as everywhere at this prompt.
    assert [s.name for s in rec.seats[1:]] == ["easy (1)", "easy (2)"]  # the record keeps them
    names = ["você", "fácil (1)", "fácil (2)"]
    totals = ", ".join(f"{n} {v}" for n, v in zip(names, rec.result["scores"], strict=True))
    assert run.stdout.rstrip().splitlines()[-1] == f"placar final: {totals}"


@pytest.mark.parametrize(
    ("locale", "why", "prompt"),
    [
        (
            "en_GB.UTF-8",
            "a dumb terminal (TERM=dumb) cannot draw the table: plain text instead",
            "your move (bid 0, bid 1)",
        ),
        (
            "es_ES.UTF-8",
            "una terminal tonta (TERM=dumb) no puede dibujar la mesa: texto simple",
            "tu jugada (bid 0 (pedir 0)",
        ),
    ],
)
def test_a_dumb_terminal_gets_the_line_prompt_not_the_table(
    tmp_path: Path, locale: str, why: str, prompt: str
) -> None:
    # A real terminal (a pseudo-terminal) that says it is dumb: the table's escape codes would
    # reach the person as text, so the line prompt is used, and said why, in their language.
    import pty
    import select

    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "dumb", "TAPETE_DATA": str(tmp_path), "LANG": locale}
    env.update(LC_ALL="", LC_MESSAGES="", LANGUAGE="")
    with subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", "play", "pocha(players=3, schedule=1)"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
    ) as child:
        os.close(follower)
        os.write(leader, b"q\n")
        said = b""
        # Read until the terminal closes; a table opened instead would never close it, so the
        # wait is bounded (a safety net, not a measure of speed) and the child ended after it.
        while select.select([leader], [], [], 60)[0]:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the child is gone and its terminal closed
                break
            if not chunk:
                break
            said += chunk
        if child.poll() is None:
            child.kill()
        assert child.wait() == 1, said
    os.close(leader)
    text = said.decode()
    assert why in text and prompt in text
    assert "\x1b[" not in text  # no escape code reached the terminal


def test_the_person_at_the_prompt_is_you_in_the_log_and_in_its_replay(tmp_path: Path) -> None:
    path = tmp_path / "you.json"
    cards = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    answers = "bid 1\n" + "".join(f"play {c}\n" for c in cards)
    seats = ("--seats", "human,random,random", "--seed", "3")
    spec = "pocha(players=3, schedule=[1, 1, 1])"  # everyone deals once
    run = tapete("play", spec, *seats, "--plain", "--record", str(path), stdin=answers * 3)
    assert run.returncode == 0, run.stderr
    assert "you bid " in run.stdout and "you play " in run.stdout
    replayed = tapete("replay", str(path), "--plain", "--lang", "es").stdout
    assert "repartes tú" in replayed and "  tú: " in replayed and "juegas " in replayed
    for told in (run.stdout, tapete("replay", str(path), "--plain").stdout):
        assert not re.search(r"\byou(?: \(0\))? (?:deals|bids|plays|takes)\b", told), told


def test_without_seats_you_play_against_easy_bots(tmp_path: Path) -> None:
    """A newcomer's ``tapete play GAME`` seats casual players, not bots that bid at random."""
    path = tmp_path / "first.json"
    cards = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    answers = "bid 1\n" + "".join(f"play {c}\n" for c in cards)
    spec = "pocha(players=3, schedule=[1])"
    run = tapete("play", spec, "--seed", "3", "--plain", "--record", str(path), stdin=answers)
    assert run.returncode == 0, run.stderr
    seats = json.loads(path.read_text())["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
    assert [s.get("bot") for s in seats[1:]] == ["easy", "easy"]


def test_the_prompt_names_the_seats_as_the_log_does_in_the_players_language() -> None:
    cards = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    answers = "bid 1\n" + "".join(f"play {c}\n" for c in cards)
    args = ("pocha(players=3, schedule=[2])", "--seats", "human,medium,easy", "--seed", "3")
    run = tapete("play", *args, "--plain", "--lang", "es", stdin=answers)
    assert run.returncode == 0, run.stderr
    # The seats' boxes carry the names the log lines use, not "asiento 1": the bots by their
    # level, in Spanish.
    assert "  medio (1): " in run.stdout and "  fácil (2): " in run.stdout, run.stdout
    assert "medio (1) pide " in run.stdout and "asiento 1" not in run.stdout
    assert "tu jugada (bid 0–2 (pedir 0–2)): " in run.stdout
    assert "your move" not in run.stdout and "seat 0" not in run.stdout
    # A refused entry names the rule in Spanish too, with its code for scripts.
    assert "no permitido: esa carta no está en tu mano [not-in-hand]" in run.stdout
    assert "that card is not in your hand" not in run.stdout


def test_replay_shows_a_recorded_name_that_would_drive_the_terminal_as_its_escapes(
    tmp_path: Path,
) -> None:
    # A record's names are whatever its file says: one holding an escape sequence (clear the
    # screen, retitle the window) or a line break was written to the terminal as it was.
    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(players=3, schedule=[1])"), ["random"] * 3, seed=2)
    doc = json.loads(record.dumps(whole))
    doc["seats"][0]["name"] = "Ana\x1b[2J\nseat 9"
    doc["seats"][1]["bot"] = "random\x1b]0;owned\x07"
    path = tmp_path / "out.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = tapete("replay", str(path), "--plain")
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout and "\nseat 9" not in run.stdout
    assert "0: Ana\\x1b[2J\\nseat 9 (random), 1: " in run.stdout
    assert "(random\\x1b]0;owned\\x07)" in run.stdout
    assert "  Ana\\x1b[2J\\nseat 9: " in run.stdout  # in the deal's hands too
    # and in the list of saved matches, where the winner is named
    (tmp_path / "records").mkdir()
    saved = tmp_path / "records" / "20250101-120000-pocha-3.json"
    doc["result"]["winners"] = [0]
    saved.write_text(json.dumps(doc), encoding="utf-8")
    env = {**os.environ, "TAPETE_DATA": str(tmp_path)}
    listed = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "records", "--plain"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    assert "\x1b" not in listed.stdout and "Ana\\x1b[2J\\nseat 9: " in listed.stdout


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    tapete(
        "play",
        "pocha(schedule=[2])",
        "--seats",
        "random,random,random,random",
        "--seed",
        "1",
        "--record",
        str(path),
    )
    doc = json.loads(path.read_text())
    doc["deals"][0]["score"] = [99, 0, 0, 0]
    path.write_text(json.dumps(doc))
    run = tapete("replay", str(path))
    assert run.returncode == 2 and "the record says" in run.stderr
    run = tapete("replay", "--lang", "es", str(path))
    assert run.returncode == 2
    assert f"tapete: {path}: el registro no coincide con el motor del juego: deal 1: " in run.stderr


def test_a_record_file_that_cannot_be_replayed_or_resumed_is_said_in_the_language_asked_for(
    tmp_path: Path,
) -> None:
    import tapete as tp
    from tapete.match import play as play_match

    empty, other, done = tmp_path / "vacio.json", tmp_path / "otro.json", tmp_path / "done.json"
    empty.write_text("")
    other.write_text('{"jugadores": 4}')
    record.write(play_match(tp.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)[1], done)
    said = {
        lang: [
            tapete("replay", "--lang", lang, "--plain", str(empty)),
            tapete("replay", "--lang", lang, "--plain", str(other)),
            tapete("play", "--lang", lang, "--plain", "--resume", str(done)),
        ]
        for lang in ("en", "es", "pt")
    }
    assert all(run.returncode == 2 and not run.stdout for runs in said.values() for run in runs)
    assert [run.stderr for run in said["en"]] == [
        f"tapete: {empty} is empty, not a record\n",
        f"tapete: {other}: not a tapete-record/1 record: its 'format' field is missing\n",
        f"tapete: {done}: the match is over; tapete replay {done} shows it\n",
    ]
    assert [run.stderr for run in said["es"]] == [
        f"tapete: {empty} está vacío: no es un registro\n",
        f"tapete: {other}: no es un registro tapete-record/1: le falta el campo 'format'\n",
        f"tapete: {done}: la partida ya terminó; tapete replay {done} la muestra\n",
    ]
    assert [run.stderr for run in said["pt"]] == [
        f"tapete: {empty} está vazio: não é um registro\n",
        f"tapete: {other}: não é um registro tapete-record/1: falta o campo 'format'\n",
        f"tapete: {done}: a partida já terminou; tapete replay {done} a mostra\n",
    ]
    review = tapete("analyze", "--lang", "pt", str(tmp_path / "nada.json"))
    assert review.returncode == 2
    assert review.stderr == f"tapete: {tmp_path / 'nada.json'}: esse arquivo não existe\n"


def test_bench_reports_rates_and_memory_as_json() -> None:
    run = tapete("bench", "pocha(schedule=3)", "--seconds", "0.3", "--json")
    result = json.loads(run.stdout)
    assert result["matches"] > 0 and result["decisions_per_second"] > 0
    assert result["playout_peak_bytes"] > 0


def test_bench_says_whether_the_engine_is_compiled_and_covers_every_game() -> None:
    run = tapete("bench", "--seconds", "0.05", "--json")
    results = json.loads(run.stdout)
    assert {r["spec"].split("(")[0] for r in results} == set(tapete_games())
    assert all(r["compiled"] in (True, False) and r["decisions"] > 0 for r in results)


def test_bench_compares_with_openspiels_oh_hell_in_one_run() -> None:
    run = tapete(
        "bench", "pocha(players=4, schedule=3)", "--compare-openspiel", "--seconds", "0.5", "--json"
    )
    result = json.loads(run.stdout)
    assert result["openspiel_params"] == {
        "players": 4,
        "num_suits": 4,
        "num_cards_per_suit": 10,
        "num_tricks_fixed": 3,
    }
    # OpenSpiel's game is one hand: tapete's ties for the lead end the match too.
    assert result["spec"] == "pocha(schedule=3, tiebreak_players=nobody)"
    assert result["tapete_hands_per_second"] > 0 and result["openspiel_hands_per_second"] > 0
    ratio = result["tapete_hands_per_second"] / result["openspiel_hands_per_second"]
    assert abs(result["ratio"] - ratio) < 1e-9


def test_bench_compare_takes_one_oh_hell_hand_shape() -> None:
    run = tapete("bench", "tute", "--compare-openspiel", "--seconds", "0.1")
    assert run.returncode == 2 and "takes a pocha or oh_hell spec with one hand size" in run.stderr
    run = tapete("bench", "pocha(schedule=[2, 3])", "--compare-openspiel", "--seconds", "0.1")
    assert run.returncode == 2 and "needs one hand: schedule=N" in run.stderr


def tapete_games() -> list[str]:
    import tapete as tp

    return tp.game_names()


def test_bad_spec_is_a_clear_error() -> None:
    run = tapete("play", "pocha(players=9)")
    assert run.returncode == 2 and "players=9 is not accepted" in run.stderr


def test_a_refused_game_or_seat_is_said_in_the_language_asked_for() -> None:
    run = tapete("play", "--lang", "es", "pocha(players=9)")
    assert run.returncode == 2
    assert run.stderr == "tapete: players=9 no se acepta: de 3 a 8 (min_players=2 permite 2)\n"
    run = tapete("play", "--lang", "pt", "tute(match=best_of_4)", "--plain")
    assert run.returncode == 2
    assert "match=best_of_4 não é aceito: single_deal, best_of_K (K ímpar, de 3 a" in run.stderr
    run = tapete("play", "--lang", "pt", "pocha(players=3)", "--seats", "human,genius,easy")
    assert run.returncode == 2
    assert "--seats: 'genius' (lugar 1) não é um lugar; um lugar é human ou um nível" in run.stderr
    run = tapete("play", "--lang", "es", "pocha(players=3)", "--seats", "human,hard(ms=0),easy")
    assert run.stderr == "tapete: hard(ms=0): ms es un número positivo de milisegundos\n"
    run = tapete("play", "--lang", "es", "--record", "no/such/folder/x.json", "pocha")
    assert "--record no/such/folder/x.json: la carpeta no/such/folder no existe" in run.stderr


def test_replay_verify_checks_the_deals_follow_from_the_seed(tmp_path: Path) -> None:
    import hashlib

    path = tmp_path / "fair.json"
    tapete(
        "play",
        "pocha(schedule=[2, 1])",
        "--seats",
        "random,random,random,random",
        "--seed",
        "12",
        "--record",
        str(path),
    )
    digest = hashlib.sha256(b"12").hexdigest()
    fair = tapete("replay", str(path), "--verify", "--seed-hash", digest)
    assert fair.returncode == 0 and "deals verified" in fair.stdout
    lie = tapete("replay", str(path), "--seed-hash", hashlib.sha256(b"13").hexdigest())
    assert lie.returncode == 1 and "does not hash to the published" in lie.stdout
    # A stacked deck (same cards, another order) is caught, whatever else the record says.
    rec = record.read(path)
    deal = dataclasses.replace(rec.deals[0], deck=tuple(reversed(rec.deals[0].deck)))
    stacked = dataclasses.replace(rec, deals=(deal, *rec.deals[1:]))
    assert record.verify_deals(stacked) == ["deal 1: the deck order is not the one the seed gives"]
    moved = dataclasses.replace(rec.deals[0], dealer=(rec.deals[0].dealer + 1) % 4)
    assert "the seed draws" in record.verify_deals(dataclasses.replace(rec, deals=(moved,)))[-1]


def test_replay_verify_checks_a_web_records_own_salted_hash(tmp_path: Path) -> None:
    """A record from a web table carries the hash published before play and its salt:
    --verify alone checks the seed against them and shows the hash to compare."""
    played = tmp_path / "played.json"
    tapete(
        "play",
        "pocha(schedule=[1])",
        "--seats",
        "random,random,random,random",
        "--seed",
        "5",
        "--record",
        str(played),
    )
    salt = "ab" * 16
    rec = dataclasses.replace(
        record.read(played), seed_hash=record.seed_commitment(5, salt), seed_salt=salt
    )
    path = tmp_path / "web.json"
    record.write(rec, path)
    fair = tapete("replay", str(path), "--verify")
    assert fair.returncode == 0 and str(rec.seed_hash) in fair.stdout
    assert "compare it with the one the table published" in fair.stdout
    record.write(dataclasses.replace(rec, seed_salt="cd" * 16), path)
    lie = tapete("replay", str(path), "--verify")
    assert lie.returncode == 1 and "does not hash to the published" in lie.stdout


def test_records_lists_the_saved_matches(tmp_path: Path) -> None:
    import os

    import tapete as tp
    from tapete.match import play as play_match
    from tapete.tui import records

    _, rec = play_match(tp.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)
    saved = records.save(rec, tmp_path / "records")
    run = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "records"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TAPETE_DATA": str(tmp_path)},
    )
    assert run.returncode == 0 and str(saved) in run.stdout and "pocha" in run.stdout


def test_records_names_the_files_of_the_folder_it_could_not_read(tmp_path: Path) -> None:
    import os

    import tapete as tp
    from tapete.match import play as play_match
    from tapete.tui import records

    _, rec = play_match(tp.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)
    saved = records.save(rec, tmp_path / "records")
    text = saved.read_text(encoding="utf-8")
    (tmp_path / "records" / "cut.json").write_text(text[:100], encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "records", "--plain"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TAPETE_DATA": str(tmp_path)},
    )
    assert run.returncode == 0 and str(saved) in run.stdout
    cut = tmp_path / "records" / "cut.json"
    assert f"tapete: {cut}: not JSON: " in run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "records", "--plain", "--lang", "es"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TAPETE_DATA": str(tmp_path)},
    )
    assert run.returncode == 0 and f"tapete: {cut}: no es JSON: " in run.stderr


def test_records_says_of_each_file_it_cannot_read_what_is_wrong_and_what_to_do(
    tmp_path: Path,
) -> None:
    """Each file in a sentence of its own naming it, then what the person may do about them."""
    import os

    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "empty.json").write_text("", encoding="utf-8")
    (folder / "latin1.json").write_bytes('{"game": "año"}'.encode("latin-1"))
    (folder / "notes.json").write_text('{"title": "my notes"}', encoding="utf-8")
    env = {**os.environ, "TAPETE_DATA": str(tmp_path)}
    told = {}
    for lang in ("en", "es", "pt"):
        run = subprocess.run(
            [sys.executable, "-m", "tapete.cli", "records", "--plain", "--lang", lang],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
        assert run.returncode == 0
        told[lang] = run.stderr.splitlines()
    assert told["en"] == [
        f"tapete: {folder / 'notes.json'}: not a tapete-record/1 record: its 'format' field"
        " is missing",
        f"tapete: {folder / 'latin1.json'} is not a record: it is not UTF-8 text",
        f"tapete: {folder / 'empty.json'} is empty, not a record",
        "tapete: these 3 files are not saved matches and are left as they are: to stop this"
        f" note, delete them or move them out of {folder}",
    ]
    assert told["es"][1:] == [
        f"tapete: {folder / 'latin1.json'} no es un registro: no es texto UTF-8",
        f"tapete: {folder / 'empty.json'} está vacío: no es un registro",
        "tapete: estos 3 archivos no son partidas guardadas y se dejan como están: para que no"
        f" se avise más, bórralos o sácalos de {folder}",
    ]
    assert told["pt"][-1] == (
        "tapete: estes 3 arquivos não são partidas salvas e ficam como estão: para não ser mais"
        f" avisado, apague-os ou tire-os de {folder}"
    )
    (folder / "latin1.json").unlink()
    (folder / "notes.json").unlink()
    run = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "records", "--plain"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert run.stderr.splitlines()[-1] == (
        "tapete: this file is not a saved match and is left as it is: to stop this note, delete"
        f" it or move it out of {folder}"
    )
    assert (folder / "empty.json").read_text(encoding="utf-8") == ""  # left as it was


def test_version_prints_the_package_version() -> None:
    import tapete as tp

    run = tapete("--version")
    assert run.returncode == 0 and run.stdout.strip() == f"tapete {tp.__version__}"


def test_python_dash_m_tapete_is_the_tapete_command() -> None:
    """For an environment whose scripts are not on the PATH."""
    import tapete as tp

    run = subprocess.run(
        [sys.executable, "-m", "tapete", "--version"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0 and run.stdout.strip() == f"tapete {tp.__version__}"
    refused = subprocess.run(
        [sys.executable, "-m", "tapete", "play", "pocha(players=9)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "players=9 is not accepted" in refused.stderr


def test_seats_are_checked_and_read_in_any_case(tmp_path: Path) -> None:
    kinds = "human or a bot level: random, easy, medium, hard"
    empty = tapete("play", "pocha", "--seats", "human,,easy,easy")
    assert empty.returncode == 2 and f"seat 1 is empty; a seat is {kinds}" in empty.stderr
    typo = tapete("play", "pocha", "--seats", "humna,easy,easy,easy")
    assert (
        typo.returncode == 2 and f"'humna' (seat 0) is not a seat; a seat is {kinds}" in typo.stderr
    )
    path = tmp_path / "cased.json"
    cased = tapete(
        "play", "pocha(schedule=[1])", "--seats", "Random,EASY,random,Easy", "--record", str(path)
    )
    assert cased.returncode == 0, cased.stderr
    assert [s.bot for s in record.read(path).seats] == ["random", "easy", "random", "easy"]


def test_a_record_path_that_cannot_be_written_fails_before_the_first_move(tmp_path: Path) -> None:
    seats = ("--seats", "hard,hard,hard,hard")  # a long match, were it played
    missing = tapete("play", "pocha", *seats, "--record", str(tmp_path / "no" / "m.json"))
    assert missing.returncode == 2 and missing.stdout == ""
    assert f"the folder {tmp_path / 'no'} does not exist" in missing.stderr
    folder = tapete("play", "pocha", *seats, "--record", str(tmp_path))
    assert folder.returncode == 2 and "that is a folder" in folder.stderr


def test_a_reader_that_stops_early_gets_no_error(tmp_path: Path) -> None:
    for args in (
        ["rules", "pocha"],
        ["play", "pocha(schedule=[1, 2])", "--seats", "random," * 3 + "random"],
    ):
        child = subprocess.Popen(
            [sys.executable, "-m", "tapete.cli", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()  # like `| head` once it has its lines
        errors = child.stderr.read().decode()
        assert child.wait(timeout=60) == 141 and errors == ""


def test_play_resume_through_a_symbolic_link_goes_on_in_the_file_it_points_to(
    tmp_path: Path,
) -> None:
    # A save kept elsewhere and linked to (latest.json -> saves/monday.json): resuming the
    # link put a new file in the link's place and left the save it pointed to unfinished.
    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(players=3, schedule=[1, 2])"), ["random"] * 3, seed=4)
    (tmp_path / "saves").mkdir()
    save, link = tmp_path / "saves" / "monday.json", tmp_path / "latest.json"
    record.write(record.cut(whole, 4), save)
    link.symlink_to(save)
    run = tapete("play", "--resume", str(link), "--plain")
    assert run.returncode == 0, run.stderr
    assert link.is_symlink() and link.resolve() == save.resolve()
    assert record.read(save).result is not None
    assert sorted(p.name for p in (tmp_path / "saves").iterdir()) == ["monday.json"]


def test_play_help_says_what_each_bot_level_does() -> None:
    # --seats takes a level by name: the help says what each one plays like.
    said = tapete("play", "--help").stdout
    assert "bot levels, for --seats:" in said
    assert "hard     searches sampled deals for about half a second a move" in said
    assert "expert   the same search as hard, for about three seconds a move" in said


def test_join_and_host_help_say_how_a_rematch_starts_and_how_to_leave() -> None:
    for command in ("join", "host"):
        said = " ".join(tapete(command, "--help").stdout.split())
        assert "r (rematch, at the line prompt) starts another at the table for everyone" in said
        assert "q leaves, the seat kept: tapete join with the table's link comes back" in said


def test_every_option_with_a_default_says_it_in_its_help() -> None:
    # What an option does when left out is the first thing its --help is read for.
    from tapete.cli import parser

    commands = next(
        a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    silent = [
        f"tapete {name} {option.option_strings[0]}"
        for name, command in commands.items()
        for option in command._actions
        if option.option_strings
        and option.default not in (None, [], argparse.SUPPRESS)
        and option.default is not False
        and "default" not in (option.help or "")
    ]
    assert silent == []
    unexplained = [
        f"tapete {name} {option.dest}"
        for name, command in commands.items()
        for option in command._actions
        if not option.option_strings and not option.help
    ]
    assert unexplained == []
    said = tapete("serve", "--help").stdout
    assert "(default 127.0.0.1" in said and "(default 1;" in said
    # --seats is worked out from the game's seat count, so its default is said in words.
    said = " ".join(tapete("play", "--help").stdout.split())
    assert "(default: human at seat 0, easy at every other)" in said


def test_bench_refuses_a_duration_that_is_not_positive() -> None:
    for seconds in ("0", "-1", "nan"):
        run = tapete("bench", "pocha", "--seconds", seconds)
        assert run.returncode == 2 and "is not a positive number of seconds" in run.stderr


def test_play_resume_finishes_an_unfinished_match_with_its_bots(tmp_path: Path) -> None:
    import tapete as tp
    from tapete.match import play as play_match

    spec = "pocha(schedule=[2, 3])"
    _, whole = play_match(tp.load(spec), ["random", "easy", "random", "easy"], seed=4)
    half = record.cut(whole, 9)
    path, done = tmp_path / "half.json", tmp_path / "done.json.gz"
    record.write(half, path)
    shown = tapete("replay", str(path), "--plain")
    assert shown.returncode == 0 and "unfinished" in shown.stdout
    assert f"tapete play --resume {path}" in shown.stdout
    run = tapete("play", "--resume", str(path), "--record", str(done))
    assert run.returncode == 0, run.stderr
    assert "match over:" in run.stdout
    rec = record.read(done)
    assert rec.result is not None and [s.bot for s in rec.seats] == [s.bot for s in half.seats]
    played = [a for d in rec.deals for a in d.actions]
    assert played[:9] == [a for d in half.deals for a in d.actions]
    assert record.checked(rec) == rec and record.read(path) == half  # --record took its place
    over = tapete("play", "--resume", str(done))
    assert over.returncode == 2 and "the match is over" in over.stderr
    both = tapete("play", spec, "--resume", str(path))
    assert both.returncode == 2 and "not both" in both.stderr
    other = tapete("play", "--resume", str(path), "--seats", "random,random,hard,random")
    assert other.returncode == 0, other.stderr
    assert "hard (2)" in other.stdout


def test_a_seat_s_download_is_told_apart_from_a_record_with_its_deck_cut(tmp_path: Path) -> None:
    """Only a record that says it holds one seat's knowledge (``redacted``) is told to be
    downloaded again; a deck emptied by hand is the field error it is, naming the file."""
    import json

    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(players=3, schedule=[1])"), ["random"] * 3, seed=5)
    mine, emptied = tmp_path / "mine.json", tmp_path / "emptied.json"
    record.write(record.redact(whole, 0), mine)
    doc = json.loads(record.dumps(whole))
    doc["deals"][0]["deck"] = []
    emptied.write_text(json.dumps(doc))
    for command in ("replay", "analyze"):
        run = tapete(command, str(mine))
        assert run.returncode == 2 and "download it again once the match is over" in run.stderr
        run = tapete(command, str(emptied))
        assert run.returncode == 2 and f"{emptied}: deal 1: its deck must hold" in run.stderr
        assert "download it again" not in run.stderr


def test_a_record_s_bot_this_tapete_cannot_seat_is_the_file_s_not_seats(tmp_path: Path) -> None:
    """A bot level a record names that this tapete does not know (a newer one's), or options it
    refuses, is said of the file and its seat, not of a --seats nobody typed."""
    import json

    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(players=3, schedule=[1, 2])"), ["random"] * 3, seed=2)
    path = tmp_path / "gm.json"
    record.write(record.cut(whole, 2), path)
    doc = json.loads(path.read_text())
    for bot, said in (
        ("grandmaster", "seats[1] is 'grandmaster', which this tapete cannot seat"),
        ("hard(ms=5000000)", "seats[1] is 'hard(ms=5000000)': hard(ms=5000000): ms is at most"),
    ):
        doc["seats"][1]["bot"] = bot
        path.write_text(json.dumps(doc))
        run = tapete("play", "--resume", str(path))
        assert run.returncode == 2 and f"{path}: {said}" in run.stderr, run.stderr
        assert "--seats:" not in run.stderr and "with --seats" in run.stderr
    run = tapete("play", "--resume", str(path), "--seats", "random,random,random")
    assert run.returncode == 0, run.stderr


def test_a_record_file_that_holds_something_else_is_not_written_over(tmp_path: Path) -> None:
    notes = tmp_path / "README.md"
    notes.write_text("important notes\n")
    run = tapete(
        "play",
        "pocha(players=3, schedule=[1])",
        "--seats",
        "random,random,random",
        "--record",
        str(notes),
    )
    assert run.returncode == 2 and "not written over" in run.stderr
    assert notes.read_text() == "important notes\n"
    said = tapete("play", "pocha", "--plain", "--record", str(notes), "--lang", "es", stdin="q\n")
    assert said.returncode == 2 and "no se escribe encima" in said.stderr
    # A record (an earlier match, or one cut short) is still a file a match may be kept in.
    kept = tmp_path / "kept.json"
    for _ in range(2):
        run = tapete(
            "play",
            "pocha(players=3, schedule=[1])",
            "--seats",
            "random,random,random",
            "--record",
            str(kept),
        )
        assert run.returncode == 0, run.stderr
    kept.write_text(kept.read_text()[:300])
    again = tapete(
        "play",
        "pocha(players=3, schedule=[1])",
        "--seats",
        "random,random,random",
        "--record",
        str(kept),
    )
    assert again.returncode == 0, again.stderr


def test_a_record_from_before_a_rule_option_goes_on_in_its_own_file(tmp_path: Path) -> None:
    """A record written before a rule option existed (its ``params`` lack it) resumes, at the
    prompt or with bots alone, in the file itself: the option's old value filled in is no
    sign that another tapete wrote there."""
    import json

    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(players=3, schedule=[1, 2])"), ["random"] * 3, seed=11)
    path = tmp_path / "old.json"
    record.write(record.cut(whole, 4), path)
    doc = json.loads(path.read_text())
    del doc["params"]["ronda_india"]  # as a record from before the option was
    path.write_text(json.dumps(doc))
    run = tapete("play", "--resume", str(path), "--seats", "random,random,random")
    assert run.returncode == 0, run.stderr
    rec = record.read(path)
    assert rec.result is not None and record.checked(rec) == rec


@pytest.mark.parametrize(
    ("cut_in", "kept"),
    [
        ("the last move", 13),
        ("the first deal's deck", 0),
        ("the second deal's line", 12),
    ],
)
def test_play_resume_goes_on_from_the_last_whole_move_of_a_record_cut_short(
    tmp_path: Path, cut_in: str, kept: int
) -> None:
    """A save cut short by a crash or a full disk mid-write: the player is told so, in their
    language, and the match goes on from its last whole move, never a traceback."""
    import tapete as tp
    from tapete.match import play as play_match

    spec = "pocha(schedule=[2, 3])"
    _, whole = play_match(tp.load(spec), ["random", "easy", "random", "easy"], seed=4)
    half = record.cut(whole, 14)  # 12 moves in its first deal, 2 in its second
    data = record.dumps(half).encode()
    ends = {
        "the last move": lambda: data.rindex(b'{"seat"') + 5,
        "the first deal's deck": lambda: data.index(b'"deck":[') + 20,
        "the second deal's line": lambda: data.index(b"\n", data.index(b"[\n") + 2) + 1,
    }
    path, done = tmp_path / "cut.json", tmp_path / "done.json"
    path.write_bytes(data[: ends[cut_in]()])
    run = tapete("play", "--resume", str(path), "--record", str(done), "--lang", "es")
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert f"{path} quedó cortado" in run.stderr and f"tras {kept} jugadas" in run.stderr
    rec = record.read(done)
    assert rec.result is not None and record.checked(rec) == rec
    played = [a for d in rec.deals for a in d.actions]
    assert played[:kept] == [a for d in half.deals for a in d.actions][:kept]
    assert [s.name for s in rec.seats] == [s.name for s in half.seats]
    nothing = tmp_path / "nothing.json"
    nothing.write_bytes(data[:40])  # not even the seed and seats: nothing to go on with
    refused = tapete("play", "--resume", str(nothing))
    assert refused.returncode == 2 and "not JSON" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_play_resume_goes_on_with_a_gzipped_record_cut_short(tmp_path: Path) -> None:
    # out.json.gz copied half: refused as "a damaged or truncated gzip file", where the same
    # record unzipped and cut short goes on from its last whole move.
    import gzip

    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(schedule=[2, 3])"), ["random"] * 4, seed=4)
    half = record.cut(whole, 14)
    path = tmp_path / "cut.json.gz"
    packed = gzip.compress(record.dumps(half).encode(), mtime=0)
    path.write_bytes(packed[: len(packed) * 3 // 4])
    run = tapete("play", "--resume", str(path), "--plain")
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert f"{path} was cut short" in run.stderr and "gzip" not in run.stderr
    rec = record.read(path)  # the match went on in it, gzipped, to its end
    assert rec.result is not None and record.checked(rec) == rec
    assert gzip.decompress(path.read_bytes())  # whole again


def test_quitting_at_the_prompt_keeps_the_unfinished_match_in_the_record(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    args = ("pocha(schedule=[2, 3])", "--seats", "human,random,random,random", "--seed", "2")
    left = tapete("play", *args, "--record", str(path), stdin="bid 0\nq\n")
    assert left.returncode == 1
    assert f"match abandoned; kept in {path}: tapete play --resume {path}" in left.stderr
    rec = record.read(path)
    assert rec.result is None and (
        "bid 0" in [a for d in rec.deals for s, a in d.actions if s == 0]
    )
    assert record.checked(rec) == rec
    # Without --record, the match is kept in the records folder, as the table keeps it.
    gone = tapete("play", *args, stdin="")
    kept = re.search(
        r"input closed: match abandoned; kept in (\S+): tapete play --res", gone.stderr
    )
    assert gone.returncode == 1 and kept is not None, gone.stderr
    assert Path(kept[1]).parent == records_dir() and record.read(kept[1]).result is None


def test_a_match_at_the_prompt_is_kept_in_the_records_folder_as_it_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing a person plays is lost at the line prompt either: with no --record the match is
    written to the records folder after each move, listed by ``tapete records`` and resumed
    from there; a match of bots alone is kept nowhere; a folder that cannot be made is said."""
    monkeypatch.setenv("TAPETE_DATA", str(tmp_path / "data"))
    spec = "pocha(players=3, schedule=[1], tiebreak_players=nobody)"
    args = (spec, "--seats", "human,random,random", "--seed", "3")
    left = tapete("play", *args, "--plain", stdin="bid 0\nq\n")
    (path,) = (tmp_path / "data" / "records").iterdir()
    assert path.name.endswith("-pocha-3.json") and f"kept in {path}" in left.stderr
    assert (0, "bid 0") in record.read(path).deals[0].actions
    assert str(path) in tapete("records").stdout
    done = tapete("play", "--resume", str(path), "--plain", stdin="play 11o\n")
    assert done.returncode == 0 and f"record written to {path}" in done.stderr, done.stderr
    assert record.read(path).result is not None
    bots = tapete("play", "pocha(players=3, schedule=[1])", "--seats", "random,random,random")
    assert bots.returncode == 0 and list((tmp_path / "data" / "records").iterdir()) == [path]
    monkeypatch.setenv("TAPETE_DATA", str(tmp_path / "file"))
    (tmp_path / "file").write_text("not a folder")
    unkept = tapete("play", *args, "--plain", stdin="bid 0\nplay 11o\n")
    assert unkept.returncode == 0 and "match over" in unkept.stdout
    assert f"the record could not be saved in {tmp_path / 'file' / 'records'}" in unkept.stderr


def test_serve_on_a_database_it_cannot_open_says_so_in_a_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'missing' / 'tapete.db'}"
    run = tapete("serve", "--port", "0", "--db", db)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "cannot open the database" in run.stderr and "does not exist" in run.stderr
    assert run.stderr.count("\n") == 1 and "serving on" not in run.stderr  # the one line


@pytest.mark.parametrize(
    ("port", "said"),
    [
        ("99999", "99999 is not a port"),
        ("-1", "-1 is not a port"),
        ("http", "'http' is not a whole"),
    ],
)
def test_serve_on_a_port_that_is_none_says_so_and_serves_nothing(port: str, said: str) -> None:
    run = tapete("serve", "--port", port, "--db", "memory")
    assert run.returncode == 2 and f"argument --port: {said}" in run.stderr
    assert "serving on" not in run.stderr


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        # A storage limits cannot make was a traceback of limits' own, once the server started.
        (["--rate-limit-storage", "bogus://"], "tapete: --rate-limit-storage: memory:// or a"),
        (["--rate-limit-storage", "memcached://x:1"], "redis://host:port URL, not 'memcached"),
        # A proxy that is no address was trusted as a name no client has: the server started,
        # and counted every client behind the proxy as the proxy, saying nothing.
        (["--trusted-proxy", "proxy.local"], "--trusted-proxy: 'proxy.local' is not an IP"),
        (["--trusted-proxy", "10.0.0.1/8"], "--trusted-proxy: '10.0.0.1/8' is not an IP"),
    ],
)
def test_serve_with_a_flag_it_cannot_use_says_so_in_a_line_and_serves_nothing(
    flags: list[str], said: str
) -> None:
    run = tapete("serve", "--port", "0", "--db", "memory", *flags)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert said in run.stderr and run.stderr.count("\n") == 1, run.stderr


def test_serve_takes_a_trusted_proxy_s_address_or_network() -> None:
    from tapete.cli import parser

    given = ["10.0.0.2", "10.0.0.0/8", "::1"]
    args = parser().parse_args(["serve", *(f"--trusted-proxy={a}" for a in given)])
    assert args.trusted_proxy == ["10.0.0.2", "10.0.0.0/8", "::1"]


@pytest.mark.parametrize("published", ["zz", "ab" * 31, "ab" * 33, "g" * 64, "x" * 5000])
def test_replay_refuses_a_seed_hash_that_is_no_hash_rather_than_call_the_table_unfair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], published: str
) -> None:
    """A hash cut short in copying was judged "NOT FAIR: the seed 5 does not hash to the
    published zz", accusing the table of what the copy did."""
    path = tmp_path / "m.json"
    seats = "random,random,random,random"
    made = ["play", "pocha(schedule=[1])", "--seats", seats, "--seed", "5", "--record", str(path)]
    assert main(made) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["replay", str(path), "--plain", "--seed-hash", published])
    said = capsys.readouterr()
    assert exited.value.code == 2 and "NOT FAIR" not in said.out
    assert "argument --seed-hash: " in said.err and "is not a SHA-256: 64 hexadecimal" in said.err
    assert said.err.count("\n") == 1 and len(said.err) < 300
    import hashlib

    digest = hashlib.sha256(b"5").hexdigest().upper()  # as some tools print it
    assert main(["replay", str(path), "--plain", "--seed-hash", f" {digest} "]) == 0


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("127.0.0.1:1", "--ray: no Ray cluster answers at 127.0.0.1:1 (Connection refused)"),
        ("ray://127.0.0.1:1", "--ray: no Ray cluster answers at ray://127.0.0.1:1"),
        ("bogus", "--ray: 'bogus' is not a Ray address: HOST:PORT or ray://HOST:PORT"),
        ("host:99999", "--ray: 'host:99999' is not a Ray address"),
    ],
)
def test_arena_on_a_ray_cluster_that_is_not_there_says_so_in_a_line(
    capsys: pytest.CaptureFixture[str], address: str, said: str
) -> None:
    """Ray retried an address where nothing answers for minutes, behind a progress bar that
    stood at 0/?, saying why only in its own log lines."""
    started = time.monotonic()
    run = ["arena", "pocha", "--bots", "easy,random", "--matches", "2", "--ray", address]
    assert main(run) == 2
    err = capsys.readouterr().err
    assert (
        err == f"tapete: {said}\n" if said.endswith(")") else said in err and err.count("\n") == 1
    )
    assert time.monotonic() - started < 10


def test_export_into_a_file_says_it_needs_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tapete export FILE`` said Python's "[Errno 17] File exists" of the file it was given."""
    taken = tmp_path / "standings.txt"
    taken.write_text("mine")
    assert main(["export", str(taken), "--db", f"sqlite:///{tmp_path / 'none.db'}"]) == 2
    assert f"tapete: {taken} is a file: the records are exported into a folder" in (
        capsys.readouterr().err
    )
    assert main(["export", str(taken), "--lang", "es"]) == 2
    assert "es un archivo: los registros se exportan a una carpeta" in capsys.readouterr().err
    assert taken.read_text() == "mine"


def test_serve_sharing_over_sqlite_is_refused_before_it_says_it_serves(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tapete.db'}"
    run = tapete("serve", "--db", db, "--workers", "2", "--redis", "redis://127.0.0.1:6379")
    assert run.returncode == 2 and "give --db postgresql://" in run.stderr
    assert "serving on" not in run.stderr


def test_replay_and_the_prompt_say_their_verdicts_in_the_players_language(tmp_path: Path) -> None:
    import hashlib

    path = tmp_path / "es.json"
    args = ("pocha(schedule=[2])", "--seats", "random,random,random,random", "--seed", "12")
    made = tapete("play", *args, "--record", str(path), "--lang", "es")
    assert f"registro guardado en {path}" in made.stderr
    digest = hashlib.sha256(b"12").hexdigest()
    fair = tapete("replay", str(path), "--seed-hash", digest, "--lang", "es")
    assert fair.returncode == 0
    assert "repetición comprobada: cada reparto" in fair.stdout
    assert "salen de la semilla 12, cuyo SHA-256 es el publicado" in fair.stdout
    lie = tapete(
        "replay", str(path), "--seed-hash", hashlib.sha256(b"13").hexdigest(), "--lang", "pt"
    )
    assert lie.returncode == 1 and "NÃO É LIMPA: " in lie.stdout
    human = ("pocha(schedule=[2, 3])", "--seats", "human,random,random,random", "--seed", "2")
    left = tapete("play", *human, "--record", str(path), "--lang", "pt", stdin="bid 0\nq\n")
    assert f"partida abandonada; guardada em {path}: tapete play --resume {path}" in left.stderr
    resumed = tapete("replay", str(path), "--plain", "--lang", "es")
    assert f"la partida está sin terminar: tapete play --resume {path}" in resumed.stdout


def test_without_lang_a_command_speaks_the_locale_s_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    gone = tapete("replay", str(tmp_path / "nothing.json"))
    assert gone.returncode == 2 and "esse arquivo não existe" in gone.stderr
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    refused = tapete("play", "pocha(players=9)", "--lang", "en")
    assert "players=9 is not accepted" in refused.stderr  # --lang comes first
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert "players=9 is not accepted" in tapete("play", "pocha(players=9)").stderr


def _prompted(child: subprocess.Popen[str], moves: int) -> list[str]:
    """Answer ``child``'s line prompt ``moves`` times with its first legal move; the moves."""
    assert child.stdout is not None and child.stdin is not None
    made: list[str] = []
    seen = ""
    while len(made) < moves:
        char = child.stdout.read(1)
        assert char, "the match ended before the moves were made"
        seen += char
        if seen.endswith("): ") and "your move (" in seen:
            move = seen.rsplit("your move (", 1)[1].split(")")[0].split(", ")[0]
            move = move.split("–")[0]  # of a range of bids, bid 0–2, its first
            child.stdin.write(move + "\n")
            child.stdin.flush()
            made.append(move)
            seen = ""
    return made


@pytest.mark.parametrize(
    "how", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=["kill", "ctrl-c", "term"]
)
def test_a_match_at_the_line_prompt_killed_keeps_every_move_in_its_record(
    tmp_path: Path, how: signal.Signals
) -> None:
    # Each move is in the --record file before the bots go on: a crash, a closed terminal or
    # ^C (which says where the match is) loses none, and --resume goes on to the end.
    path = tmp_path / "m.json"
    spec = "pocha(players=3, schedule=[2, 3])"
    args = ["play", spec, "--seats", "human,random,random", "--plain", "--seed", "3"]
    child = subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", *args, "--record", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    made = _prompted(child, 3)
    assert child.stdout is not None
    while child.stdout.read(1) != ":":  # told after the third move is played
        pass
    child.send_signal(how)
    _, errors = child.communicate(timeout=60)
    kept = record.read(path)
    assert [a for d in kept.deals for s, a in d.actions if s == 0] == made
    if how == signal.SIGINT:
        assert child.returncode == 130
        assert f"kept in {path}: tapete play --resume {path} goes on" in errors
    run = tapete(
        "play", "--resume", str(path), "--seats", "random,random,random", "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    assert record.read(path).result is not None


def test_a_record_file_that_cannot_be_written_at_the_end_is_said_where_and_why(
    tmp_path: Path,
) -> None:
    # Its folder removed during the match: q says the record could not be saved there and
    # why, in the words a failed move's write uses, with no temporary file's name.
    folder = tmp_path / "gone"
    folder.mkdir()
    path = folder / "m.json"
    args = ["play", "pocha(players=3, schedule=[2])", "--seats", "human,random,random"]
    child = subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", *args, "--plain", "--record", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _prompted(child, 1)
    assert child.stdout is not None
    while child.stdout.read(1) != ":":  # told after the move is played
        pass
    shutil.rmtree(folder)  # the record, and the lock beside it that holds it for this match
    _, errors = child.communicate("q\n", timeout=60)
    assert child.returncode == 1
    assert f"tapete: the record could not be saved in {path}: No such file or directory" in errors
    assert "Errno" not in errors and ".tmp" not in errors


ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted(ROOT.glob("docs/**/*.md"))]
COMMAND = re.compile(r"(?<![\w/.-])tapete ([a-z]+)\b([^`\n]*)")


def documented_commands() -> list[tuple[str, str, str]]:
    """Each ``tapete COMMAND ...`` the pages show: (page, command, the rest of its line)."""
    found = []
    for page in DOCS:
        text = page.read_text(encoding="utf-8").replace("\\\n", " ")
        for command, rest in COMMAND.findall(text):
            found.append((page.relative_to(ROOT).as_posix(), command, rest.split("  #")[0]))
    return found


def test_every_option_the_pages_name_is_one_the_command_takes() -> None:
    from tapete.cli import parser

    commands = next(
        a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    unknown = []
    for page, command, rest in documented_commands():
        if command not in commands:
            continue  # "tapete is ...", not a command line
        taken = commands[command]._option_string_actions
        unknown += [(page, command, o) for o in re.findall(r"(?<![\w-])--[a-z][\w-]*", rest)
                    if o not in taken]  # fmt: skip
    assert len(documented_commands()) > 50 and unknown == []


SCRIPT = re.compile(r"(?<![\w/.-])python3? ((?:benchmarks|examples)/[\w/]+\.py)\b([^`\n\"']*)")


def test_every_script_the_pages_run_is_there_and_takes_the_options_they_give_it() -> None:
    """``python benchmarks/….py --option`` and ``python examples/….py --option`` as the pages
    show them: the script exists and its ``--help`` names each option."""
    lines: dict[str, list[tuple[str, str]]] = {}
    for page in DOCS:
        text = page.read_text(encoding="utf-8").replace("\\\n", " ")
        for script, rest in SCRIPT.findall(text):
            given = re.findall(r"(?<![\w-])--[a-z][\w-]*", rest.split("  #")[0])
            lines.setdefault(script, []).extend((page.name, o) for o in given)
    assert len(lines) > 10
    unknown = [(script, "no such file") for script in lines if not (ROOT / script).is_file()]
    for script, given in lines.items():
        if not given or not (ROOT / script).is_file():
            continue
        told = subprocess.run(
            [sys.executable, str(ROOT / script), "--help"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
        )
        missing = re.search(r"No module named '(\w+)", told.stderr)
        if told.returncode != 0 and missing and missing.group(1) != "tapete":
            continue  # a script of an extra not installed here (the train extra's torch)
        assert told.returncode == 0, (script, told.stderr)
        taken = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", told.stdout))
        unknown += [(script, f"{option} ({page})") for page, option in given if option not in taken]
    assert unknown == []


def test_an_output_file_that_cannot_be_written_is_refused_before_any_match(
    tmp_path: Path,
) -> None:
    def scenario(folder: Path) -> None:
        kept = folder / "kept.json"
        kept.write_text("an earlier arena\n")
        kept.chmod(0o444)
        told = io.StringIO()
        slow = ["arena", "pocha", "--bots", "hard,hard", "--matches", "100000"]
        for args in ([*slow, "--json", str(kept)], [*slow, "--plot", str(kept)]):
            with contextlib.redirect_stderr(told):
                assert main(args) == 2
        assert told.getvalue().count(f"{kept}: the file is not writable\n") == 2
        assert kept.read_text() == "an earlier arena\n"

    where_modes_hold(scenario)
    missing = tapete(
        "arena", "pocha", "--bots", "hard,hard", "--json", str(tmp_path / "no" / "a.json")
    )
    assert missing.returncode == 2 and missing.stdout == ""
    where = f"--json {tmp_path / 'no' / 'a.json'}: the folder {tmp_path / 'no'}"
    assert missing.stderr == f"tapete: {where} does not exist\n"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "was cut short (a crash or a full disk while it was written): tapete play"),
        ("es", "quedó cortado (un fallo o un disco lleno mientras se escribía): tapete play"),
    ],
)
def test_the_records_list_says_a_save_cut_short_still_goes_on_and_how(
    tmp_path: Path, lang: str, said: str
) -> None:
    # A crash cut a save short: listed as unreadable ("not JSON"), nobody would know that
    # tapete play --resume goes on with it as far as it goes.
    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(schedule=[2, 3])"), ["random"] * 4, seed=4)
    folder = tmp_path / "records"
    folder.mkdir()
    path = folder / "20250101-120000-pocha-4.json"
    text = record.dumps(record.cut(whole, 14))
    path.write_text(text[: text.rindex('{"seat"') + 5], encoding="utf-8")
    (folder / "20250101-130000-pocha-5.json").write_text("{", encoding="utf-8")
    env = {**os.environ, "TAPETE_DATA": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "records", "--plain", "--lang", lang],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    bad, cut, advice = run.stderr.splitlines()  # newest first, then what to do about bad
    assert cut.startswith(f"tapete: {path} {said} --resume {path} ") and " 13 " in cut
    assert bad.startswith("tapete: ") and "pocha-5.json" in bad and "tapete play" not in bad
    assert str(folder) in advice and " 1 " not in advice  # one file, the cut save goes on


def test_a_record_named_as_a_folder_that_does_not_exist_is_refused_not_made_a_file(
    tmp_path: Path,
) -> None:
    # "--record out/" means a folder: it was written as a file named "out" in its place.
    meant = f"{tmp_path / 'out'}/"
    run = tapete("play", "pocha", "--record", meant, "--plain", stdin="q\n")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"tapete: --record {meant}: the folder {meant} does not exist\n"
    assert list(tmp_path.iterdir()) == []


def test_a_record_that_cannot_be_written_is_refused_before_it_is_resumed() -> None:
    # Resumed without --record, the match goes on in its record: one that cannot be written
    # (the file or its folder read-only) is said at once, with the way out, not after the
    # match is played on and its moves lost; with --record naming another file it goes on.
    import tapete as tp
    from tapete.match import play as play_match

    _, whole = play_match(tp.load("pocha(schedule=[2, 3])"), ["random"] * 4, seed=4)
    half = record.cut(whole, 9)

    def scenario(folder: Path) -> None:
        path = folder / "half.json"
        record.write(half, path)
        for barred in (path, folder):
            barred.chmod(0o555 if barred == folder else 0o444)
            for lang, said in (
                ("en", "--record FILE goes on with the match in another file"),
                ("pt", "--record ARQUIVO continua a partida em outro arquivo"),
            ):
                told, shown = io.StringIO(), io.StringIO()
                args = ["play", "--resume", str(path), "--plain", "--lang", lang]
                with contextlib.redirect_stderr(told), contextlib.redirect_stdout(shown):
                    assert main(args) == 2
                assert told.getvalue().startswith(f"tapete: --resume {path}: ")
                assert told.getvalue().endswith(f"; {said}\n") and shown.getvalue() == ""
            barred.chmod(0o755 if barred == folder else 0o644)
        assert record.read(path) == half

    where_modes_hold(scenario)


def test_bots_alone_are_not_seated_at_a_poch_match_that_may_never_end(tmp_path: Path) -> None:
    endless = "poch(max_rounds=none)"
    alone = tapete("play", endless, "--seats", "easy,easy,easy,easy")
    assert alone.returncode == 2 and alone.stdout == ""
    assert alone.stderr.startswith("tapete: max_rounds: a match between bots alone must end")
    arena = tapete("arena", endless, "--bots", "easy,random")
    assert arena.returncode == 2 and "max_rounds: a match between bots alone" in arena.stderr
    # Capped by rounds, it ends; with a person at the table, the person ends it by leaving.
    capped = tapete("play", "poch(max_rounds=none, rounds=2)", "--seats", "easy,easy,easy,easy")
    assert capped.returncode == 0, capped.stderr
    person = tapete("play", endless, "--seats", "human,easy,easy,easy", "--plain", stdin="q\n")
    assert person.returncode == 1 and "match abandoned" in person.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["analyze", "m.json", "--iterations", "abc"],
            "argument --iterations: 'abc' is not a whole",
        ),
        (["arena", "pocha", "--bots", "random,random", "--matches", "1e3"], "'1e3' is not a whole"),
        (["bench", "pocha", "--seconds", "soon"], "argument --seconds: 'soon' is not a number"),
        (["play", "pocha", "--seed", "1.5"], "argument --seed: '1.5' is not a whole number"),
        (["serve", "--port", "99999"], "argument --port: 99999 is not a port: 0 to 65535"),
        (["serve", "--port", "-1"], "argument --port: -1 is not a port: 0 to 65535"),
        (["serve", "--bot-processes", "x"], "argument --bot-processes: 'x' is not a whole number"),
        (["serve", "--lease", "0.0001"], "--lease: 0.0001 is not a lease: 1 to 60 seconds"),
        (["serve", "--lease", "0"], "argument --lease: 0 is not a lease: 1 to 60 seconds"),
        (["serve", "--lease", "-5"], "argument --lease: -5 is not a lease: 1 to 60 seconds"),
        (["serve", "--lease", "nan"], "argument --lease: nan is not a lease: 1 to 60 seconds"),
        (["serve", "--lease", "3600"], "argument --lease: 3600 is not a lease: 1 to 60 seconds"),
        (["arena", "pocha"], "the following arguments are required: --bots"),
    ],
)
def test_a_mistaken_option_is_one_line_naming_it(args: list[str], said: str) -> None:
    # No usage block, no parser's internal names: the option, what is wrong, where to look.
    run = tapete(*args)
    assert run.returncode == 2 and run.stdout == ""
    command = f"tapete {args[0]}"
    assert run.stderr.startswith(f"{command}: ")
    assert said in run.stderr and run.stderr.endswith(f"(see {command} --help)\n")
    assert run.stderr.count("\n") == 1 and "_" not in run.stderr.replace("--bot-processes", "")


def _long_commands(folder: Path) -> list[list[str]]:
    """Two commands that would run for hours on worker processes: a review of a short match
    recorded in ``folder``, and an arena."""
    path = folder / "m.json"
    played = tapete("play", "pocha(players=3, schedule=[2])", "--seats", "random,random,random",
                    "--record", str(path))  # fmt: skip
    assert played.returncode == 0, played.stderr
    return [
        ["analyze", str(path), "--iterations", "1000000", "--workers", "2"],
        ["arena", "pocha", "--bots", "random,random", "--matches", "1000000", "--workers", "2"],
    ]


def test_interrupted_a_long_command_says_so_in_a_line_from_every_process(tmp_path: Path) -> None:
    # ^C reaches every process of the terminal: the command's workers too.
    for args in _long_commands(tmp_path):
        child = subprocess.Popen(
            [sys.executable, "-m", "tapete.cli", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # a group of its own, as a terminal's foreground job
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        _workers_at_work(child.pid)
        os.killpg(child.pid, signal.SIGINT)
        _, errors = child.communicate(timeout=60)
        assert child.returncode == 130, errors
        assert errors.endswith("\ntapete: interrupted\n"), errors
        assert "Traceback" not in errors and "Process" not in errors


def test_a_long_command_s_workers_ignore_interrupts_from_their_start(tmp_path: Path) -> None:
    # A worker still importing its modules when ^C comes would die of it with a traceback of
    # its own: the workers start deaf to it, and the command answers it for them.
    for args in _long_commands(tmp_path):
        child = subprocess.Popen(
            [sys.executable, "-m", "tapete.cli", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            # A shell starts a background job's commands deaf to ^C, and they rightly stay so:
            # the command starts here as from a terminal, whatever started this test.
            preexec_fn=_hearing_interrupts,
        )
        try:
            workers = _descendants(child.pid, at_least=2)
            assert all(_ignores_interrupts(w) for w in workers), args
            # The command itself answers ^C, once its workers are started: it is deaf only
            # while it starts them, a moment that may outlast their appearing on a busy machine.
            deadline = time.monotonic() + 30
            while _ignores_interrupts(child.pid) and time.monotonic() < deadline:
                time.sleep(0.02)
            assert not _ignores_interrupts(child.pid), args
        finally:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


def _hearing_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _descendants(pid: int, at_least: int) -> list[int]:
    """The worker processes under ``pid`` once there are ``at_least`` of them (Linux's /proc):
    a spawned interpreter, or a child of multiprocessing's forkserver (the forkserver itself
    and the resource tracker are none)."""
    if not Path(f"/proc/{pid}/stat").exists():
        pytest.skip("needs Linux's /proc to see a process's workers")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        parents: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        found, frontier = [], [pid]
        while frontier:
            frontier = [p for p, parent in parents.items() if parent in frontier]
            found += frontier
        workers = [
            p
            for p in found
            if "spawn_main" in _command_line(p) or "forkserver" in _command_line(parents[p])
        ]
        if len(workers) >= at_least:
            return workers
        time.sleep(0.05)
    raise AssertionError(f"process {pid} never had {at_least} workers")


def _command_line(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return ""


def _ignores_interrupts(pid: int) -> bool:
    """Whether ``pid`` ignores SIGINT (its SigIgn mask in /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    ignored = int(re.search(r"^SigIgn:\s*([0-9a-f]+)$", status, re.M).group(1), 16)  # type: ignore[union-attr]
    return bool(ignored >> (signal.SIGINT - 1) & 1)


def _workers_at_work(pid: int) -> None:
    """Wait until the process ``pid`` has two workers, then a moment for them to be at work."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if not children.exists():
        pytest.skip("needs Linux's /proc to see a process's workers")
    deadline = time.monotonic() + 60
    while len(children.read_text().split()) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(3)


def test_an_arena_whose_reader_stops_early_still_writes_its_results(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    args = ["arena", "pocha(schedule=1)", "--bots", "random,random,random", "--matches", "12"]
    child = subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", *args, "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    child.stdout.close()  # like `| head` gone before the table
    _, errors = child.communicate(timeout=120)
    assert child.returncode == 141 and "Traceback" not in errors
    assert json.loads(out.read_text())["format"] == "tapete-arena/1"


@pytest.mark.parametrize(
    ("seat", "said"),
    [
        ("hard(ms=1.5)", "hard(ms=1.5): ms: 1.5 is not a value (an int,"),
        ("expert(iterations=1e9)", "expert(iterations=1e9): iterations: 1000000000.0 is not a"),
        ("hard(ms=10000000000000)", "hard(ms=10000000000000): ms is at most 3600000"),
        ("hard(iterations=10**20)", "hard(iterations=10**20): iterations: "),
        (
            "hard(iterations=99999999999999999999)",
            "hard(iterations=99999999999999999999): iterations is at most 1000000",
        ),
    ],
)
def test_a_bot_option_amiss_is_said_of_that_option(seat: str, said: str) -> None:
    # The level is right, its option is not: said of the option, not "is not a bot"; and a
    # budget no match would outlive is refused, not waited for.
    run = tapete("play", "pocha(schedule=1)", "--seats", f"random,random,random,{seat}")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"tapete: {said}") and run.stderr.count("\n") == 1


def _told_at_once(*args: str) -> subprocess.CompletedProcess[str]:
    """``tapete *args``, which must end by itself: a command waiting on a pipe nobody writes to
    or reads would never end, so it is stopped (and the test fails) long after any would."""
    return subprocess.run(
        [sys.executable, "-m", "tapete.cli", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_pipe_or_device_given_as_a_record_is_refused_not_waited_on(tmp_path: Path) -> None:
    pipe = tmp_path / "match.json"
    os.mkfifo(pipe)  # nobody ever writes to it
    for given in (pipe, Path(os.devnull)):
        for args in (
            ["replay", str(given), "--plain"],
            ["replay", str(given), "--verify"],
            ["play", "--resume", str(given), "--plain"],
            ["analyze", str(given)],
        ):
            run = _told_at_once(*args)
            assert run.returncode == 2, (args, run.stderr)
            assert run.stderr == (
                f"tapete: {given} is not a record file: it is a pipe, a device or a socket\n"
            )
    spanish = _told_at_once("replay", str(pipe), "--plain", "--lang", "es")
    assert spanish.stderr == (
        f"tapete: {pipe} no es un archivo de registro: es una tubería, un dispositivo o un socket\n"
    )
    folder = _told_at_once("replay", str(tmp_path), "--plain")
    assert folder.returncode == 2
    assert folder.stderr == f"tapete: {tmp_path} is a folder, not a record file\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_pipe_named_for_results_is_refused_before_the_work_starts(tmp_path: Path) -> None:
    pipe = tmp_path / "out.json"
    os.mkfifo(pipe)  # nobody ever reads it: writing the results there would wait for good
    for option, args in (
        ("--json", ["arena", "pocha(schedule=[1])", "--bots", "random,random", "--matches", "2"]),
        ("--record", ["play", "pocha(schedule=[1])", "--seats", "random,random,random,random"]),
    ):
        run = _told_at_once(*args, option, str(pipe))
        assert run.returncode == 2 and run.stdout == "", (option, run.stderr)
        assert run.stderr == (
            f"tapete: {option} {pipe}: that is not a regular file (a pipe, a device or a socket);"
            " give a file name\n"
        )
    assert pipe.is_fifo()  # left as it was


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_pipe_among_the_saved_matches_is_listed_as_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tapete as tp
    from tapete.match import play as play_match

    folder = tmp_path / "records"
    folder.mkdir()
    record.write(
        play_match(tp.load("pocha(schedule=[1])"), ["random"] * 4, seed=2)[1], folder / "a.json"
    )
    os.mkfifo(folder / "b.json")
    monkeypatch.setenv("TAPETE_DATA", str(tmp_path))
    run = _told_at_once("records", "--plain")
    assert run.returncode == 0 and "a.json" in run.stdout
    assert (
        f"tapete: {folder / 'b.json'} is not a record file: it is a pipe, a device or a socket\n"
        in (run.stderr)
    )


def test_the_prompt_says_what_the_decision_means_in_the_players_language() -> None:
    """A newcomer at the line prompt reads what a bid promises and scores before bidding."""
    args = ("pocha(players=3, schedule=[1])", "--seats", "human,easy,easy", "--seed", "3")
    for lang, said in [
        ("en", "bid: the tricks you will take this hand; exact scores 10 + 5 a trick"),
        ("es", "pedir: las bazas que harás en esta mano; si aciertas, 10 + 5 por baza"),
        ("pt", "pedir: as vazas que você fará nesta mão; acertando, 10 + 5 por vaza"),
    ]:
        run = tapete("play", *args, "--plain", "--lang", lang, stdin="bid 0\n")
        assert f"\n  {said}" in run.stdout, run.stdout


def test_the_prompt_names_each_call_as_its_button_does_in_the_players_language() -> None:
    # The table's button says "truco!"; the prompt said only "raise", the word to type.
    truco = ("truco", "--seats", "human,easy", "--seed", "3", "--plain")
    for lang, prompt in [
        ("en", "your move (play Qc, play 4d, play Ad, raise (truco!)): "),
        ("es", "tu jugada (play Qc, play 4d, play Ad, raise (¡truco!)): "),
        ("pt", "sua jogada (play Qc, play 4d, play Ad, raise (truco!)): "),
    ]:
        assert prompt in tapete("play", *truco, "--lang", lang, stdin="q\n").stdout
    # Words that are the notation itself are not said twice; a Spanish bid is "pedir".
    args = ("pocha(players=3, schedule=[1])", "--seats", "human,easy,easy", "--seed", "3")
    for lang, prompt in [
        ("en", "your move (bid 0, bid 1): "),
        ("es", "tu jugada (bid 0 (pedir 0), bid 1 (pedir 1)): "),
        ("pt", "sua jogada (bid 0 (pedir 0), bid 1 (pedir 1)): "),
    ]:
        run = tapete("play", *args, "--plain", "--lang", lang, stdin="q\n")
        assert prompt in run.stdout, run.stdout


def test_a_question_mark_at_the_prompt_explains_the_moves_and_names_the_rules() -> None:
    args = ("truco", "--seats", "human,easy", "--seed", "3")
    run = tapete("play", *args, "--plain", "--lang", "es", stdin="?\nfoo\nq\n")
    told = run.stdout.split("tu jugada (", 1)[1]  # what is said after the first prompt
    assert "¡truco! pide 3 por la mano: si corren, tu lado suma 1" in told
    assert "las reglas: tapete rules truco" in told
    # What cannot be read is said in Spanish, with the way to help, and nothing is played.
    assert "escribe una de las jugadas entre paréntesis; ? las explica" in told
    assert "is not a card" not in told
    assert run.stdout.count("tu jugada (play Qc, play 4d, play Ad, raise (¡truco!)): ") == 3


def test_a_hint_at_the_prompt_names_the_hard_bots_move_as_typed_and_plays_nothing() -> None:
    """The terminal table's h key, at the line prompt: ``hint`` (``pista``, ``dica``, ``h``)
    says the move as the prompt offers it and why; the prompt then asks again."""
    args = ("truco", "--seats", "human,easy", "--seed", "3")
    run = tapete("play", *args, "--plain", "--lang", "pt", stdin="?\ndica\nq\n")
    told = run.stdout.split("sua jogada (", 1)[1]
    assert "dica: a jogada do bot difícil para você, e por quê" in told  # said by ?
    hint = re.search(r"dica: (play \w+|raise \(truco!\)) — (.+)", told)
    assert hint is not None and "distribuições possíveis" in hint[2], told
    # Asked again with the same moves on offer: nothing was played for the person.
    assert run.stdout.count("sua jogada (play Qc, play 4d, play Ad, raise (truco!)): ") == 3
    single = ("pocha(players=3, schedule=[1])", "--seats", "easy,human,easy", "--seed", "3")
    run = tapete("play", *single, "--plain", stdin="bid 0\nH\nq\n")
    assert "hint: " in run.stdout, run.stdout


def test_undo_at_the_prompt_takes_back_the_persons_last_move_and_the_record_with_it(
    tmp_path: Path,
) -> None:
    """The terminal table's u key, at the line prompt: back to before the person's last move,
    the bots' moves after it gone too, across the end of a hand; the record kept follows."""
    path = tmp_path / "m.json"
    args = ["play", "pocha(schedule=[1, 2])", "--seats", "human,easy,easy,easy", "--seed", "3"]
    typed = "u\nbid 1\nplay 3c\nundo\nq\n"  # nothing to undo yet; then the card of hand 1
    run = tapete(*args, "--plain", "--record", str(path), stdin=typed)
    assert run.stdout.count("nothing to undo") == 1
    assert "your last move is undone" in run.stdout
    assert "hand 2: easy (2) deals" in run.stdout  # the card was played, and hand 2 dealt
    kept = record.read(path)
    assert [a for d in kept.deals for a in d.actions] == [
        (2, "bid 0"),
        (3, "bid 0"),
        (0, "bid 1"),
        (1, "bid 1"),
        (2, "play 10o"),
        (3, "play 7c"),
    ]  # the person's card is to be played again, and hand 2 is not dealt
    shared = ["play", "pocha(players=3, schedule=[1])", "--seats", "human,human,easy"]
    run = tapete(*shared, "--plain", "--seed", "3", "--lang", "es", stdin="deshacer\nq\n")
    assert "solo se deshace jugando contra bots" in run.stdout


def test_a_resumed_match_goes_on_in_its_record_so_a_second_crash_loses_nothing(
    tmp_path: Path,
) -> None:
    # Without --record, the moves played after resuming are written to the record resumed
    # from, as they are played: killed again, it holds them, and --resume goes on from there.
    path = tmp_path / "m.json"
    spec = "pocha(players=3, schedule=[2, 3])"
    args = ["play", spec, "--seats", "human,random,random", "--plain", "--seed", "3"]
    first = tapete(*args, "--record", str(path), stdin="bid 0\nq\n")
    assert first.returncode == 1
    before = [a for d in record.read(path).deals for a in d.actions]
    child = subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", "play", "--resume", str(path), "--plain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    made = _prompted(child, 2)
    assert child.stdout is not None
    while child.stdout.read(1) != ":":  # told after the second move is played
        pass
    child.kill()
    child.communicate(timeout=60)
    kept = record.read(path)
    moves = [a for d in kept.deals for a in d.actions]
    assert moves[: len(before)] == before and kept.result is None
    assert [a for d in kept.deals for s, a in d.actions if s == 0][-2:] == made
    assert record.checked(kept) == kept
    done = tapete("play", "--resume", str(path), "--seats", "random,random,random")
    assert done.returncode == 0, done.stderr
    assert f"record written to {path}" in done.stderr
    assert record.read(path).result is not None


@pytest.mark.parametrize(
    ("lang", "offered"),
    [
        ("en", "bid 0–9"),
        ("es", "bid 0–9 (pedir 0–9)"),
        ("pt", "bid 0–9 (pedir 0–9)"),
    ],
)
def test_a_long_list_of_bids_is_one_range_at_the_prompt_and_each_bid_is_typed(
    lang: str, offered: str
) -> None:
    # Ten bids said one by one, with their words in Spanish and Portuguese, filled the prompt:
    # a range says them all, "?" and a range typed as it stands say how to type one.
    args = ("pocha(schedule=[9])", "--seats", "human,random,random,random", "--seed", "1")
    run = tapete("play", *args, "--plain", "--lang", lang, stdin="?\nbid 0–9\nbid 7\n")
    prompt = {"en": "your move", "es": "tu jugada", "pt": "sua jogada"}[lang]
    assert f"{prompt} ({offered}): " in run.stdout
    how = {
        "en": "bid 0–9: one move for each number; type one, such as bid 0",
        "es": "bid 0–9: una jugada por número; escribe una, como bid 0",
        "pt": "bid 0–9: uma jogada por número; digite uma, como bid 0",
    }[lang]
    assert run.stdout.count(how) == 2
    assert {"en": "you bid 7", "es": "pides 7", "pt": "você pede 7"}[lang] in run.stdout


def test_a_bid_the_hook_forbids_splits_the_range_and_a_short_run_is_said_bid_by_bid() -> None:
    from tapete.cli import prompt_options
    from tapete.games.pocha import BID
    from tapete.present import actions

    game = load_game("pocha(schedule=[9])")
    legal = [BID + n for n in (0, 1, 3, 4, 5, 6, 7, 8, 9)]
    for lang, said in (
        ("en", "bid 0, bid 1, bid 3–9"),
        ("es", "bid 0 (pedir 0), bid 1 (pedir 1), bid 3–9 (pedir 3–9)"),
    ):
        assert prompt_options(game, legal, actions(game, legal, lang)) == said


def test_the_words_in_brackets_are_typed_as_the_move_they_name() -> None:
    # A person reading "bid 0–9 (pedir 0–9)" or "raise (¡seis!)" types what their language
    # says: it plays that move, in any case, with or without the exclamation marks.
    bids = ("pocha(schedule=[9])", "--seats", "human,random,random,random", "--seed", "1")
    run = tapete("play", *bids, "--plain", "--lang", "pt", stdin="Pedir  7\n")
    assert "sua jogada (bid 0–9 (pedir 0–9)): você pede 7" in run.stdout
    calls = ("truco", "--seats", "human,random", "--seed", "1")
    run = tapete("play", *calls, "--plain", "--lang", "es", stdin="Seis\n")
    assert "raise (¡seis!)): cantas ¡seis!" in run.stdout
    wrong = tapete("play", *calls, "--plain", "--lang", "es", stdin="truco\n")
    assert "'truco' no es una jugada aquí" in wrong.stdout  # the call on offer is seis


def test_people_sharing_the_prompt_are_named_players_in_their_language() -> None:
    args = ("pocha(players=3, schedule=[1])", "--seats", "human,human,random", "--seed", "1")
    run = tapete("play", *args, "--plain", "--lang", "es", stdin="q\n")
    assert "  jugador (0): pedidas –" in run.stdout
    assert "jugador (1), tu jugada (bid 0 (pedir 0), bid 1 (pedir 1)): " in run.stdout
    assert "player (" not in run.stdout


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "is being played on at another terminal (tapete process {pid})"),
        ("es", "se está jugando en otra terminal (proceso {pid} de tapete)"),
        ("pt", "está sendo jogado em outro terminal (processo {pid} do tapete)"),
    ],
)
def test_a_record_resumed_at_a_second_prompt_is_refused_before_its_table_is_shown(
    tmp_path: Path, lang: str, said: str
) -> None:
    """Two terminals resume one save: the second is refused at once, in its player's
    language, with one line naming the file and the tapete that plays on in it, before any
    table is shown and with a non-zero exit status; the first plays on in the file as if
    nothing happened. So is a new match whose --record names that file."""
    path = tmp_path / "save.json"
    args = ("pocha(schedule=[2, 3])", "--seats", "human,random,random,random", "--seed", "2")
    left = tapete("play", *args, "--record", str(path), stdin="bid 0\nq\n")
    assert left.returncode == 1, left.stderr
    half = record.read(path)
    first = subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", "play", "--resume", str(path), "--lang", "es"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert first.stdin is not None and first.stdout is not None
        shown = b""
        while b"tu jugada (" not in shown:  # it has read the save, and asks for its move
            more = os.read(first.stdout.fileno(), 4096)
            assert more, shown
            shown += more
        for other in (("--resume", str(path)), (*args[:1], "--record", str(path))):
            second = tapete("play", *other, "--plain", "--lang", lang, stdin="play 6e\nq\n")
            assert second.returncode == 2 and second.stdout == "", second.stderr
            told = f"tapete: {path} " + said.format(pid=first.pid)
            assert second.stderr.startswith(told) and second.stderr.count("\n") == 1
            assert record.read(path) == half
        _, err = first.communicate(b"play 6e\nq\n", timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == 1 and "guardada en" in err.decode(), err.decode()
    kept = record.read(path)
    assert sum(len(d.actions) for d in kept.deals) > sum(len(d.actions) for d in half.deals)
    done = tapete("play", "--resume", str(path), "--seats", "random,random,random,random")
    assert done.returncode == 0, done.stderr  # let go of once the first is over


def test_bots_at_the_prompt_are_named_by_their_level_in_the_tables_language() -> None:
    args = ("pocha(players=3, schedule=[1])", "--seats", "human,medium,easy", "--seed", "1")
    run = tapete("play", *args, "--plain", "--lang", "es", stdin="q\n")
    assert "  medio (1): pedidas 0" in run.stdout
    assert "fácil (2) pide 0" in run.stdout
    assert "medium (" not in run.stdout and "easy (" not in run.stdout
    english = tapete("play", *args, "--plain", stdin="q\n")
    assert "medium (1) bids 0" in english.stdout


def test_a_match_told_line_by_line_says_its_heading_and_bots_in_the_tables_language(
    tmp_path: Path,
) -> None:
    # Bots alone at the prompt: the match is told from the record at its end, heading and all.
    args = ("pocha(players=3, schedule=[1])", "--seats", "medium,easy,medium", "--seed", "1")
    out = tmp_path / "m.json"
    run = tapete("play", *args, "--plain", "--lang", "es", "--record", str(out))
    heading = run.stdout.splitlines()[0]
    assert heading.startswith("pocha(players=3, schedule=[1])  semilla 1  0: medio (0) (medio)")
    assert "1: fácil (1) (fácil)" in heading
    assert "fácil (1) pide " in run.stdout and "medium" not in run.stdout
    # The replay of a terminal match: "you" and its kind in Portuguese.
    replay = tapete("replay", str(out), "--plain", "--lang", "pt")
    assert replay.stdout.splitlines()[0].endswith("2: médio (2) (médio)")
    assert "seed" not in replay.stdout and "semente 1" in replay.stdout
    # A match played at the prompt, left after a bid: its person is "you", a human, in Spanish.
    left = tmp_path / "left.json"
    seats = ("--seats", "human,medium,easy", "--seed", "1", "--record", str(left))
    tapete("play", "pocha(players=3, schedule=[1])", *seats, "--plain", stdin="bid 0\n")
    told = tapete("replay", str(left), "--plain", "--lang", "es").stdout.splitlines()[0]
    assert told.endswith("semilla 1  0: tú (humano), 1: medio (1) (medio), 2: fácil (2) (fácil)")


def test_play_with_no_game_at_a_terminal_asks_for_one_and_without_a_terminal_says_to_name_it(
    tmp_path: Path,
) -> None:
    """``tapete play`` alone refused to start ("give a game to play") even at a terminal: there
    it now opens the new match screen (^Q leaves it); a script, with no terminal to draw
    the screen on, is still told to name a game."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 34, 100, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "TAPETE_DATA": str(tmp_path)}
    with subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", "play", "--lang", "en"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
    ) as child:
        os.close(follower)
        said = b""
        # Read until the screen shows its title; a bounded wait (a safety net, not a measure of
        # speed), the child ended after it whatever happened.
        while b"New match" not in said and select.select([leader], [], [], 60)[0]:
            try:
                said += os.read(leader, 65536)
            except OSError:
                break
        shown = b"New match" in said
        if shown:
            os.write(leader, b"\x11")  # ^Q: quit
        # Drained until the app has left its screen and closed the terminal.
        while child.poll() is None and select.select([leader], [], [], 60)[0]:
            try:
                if not os.read(leader, 65536):
                    break
            except OSError:
                break
        if child.poll() is None:
            child.kill()
        code = child.wait()
    os.close(leader)
    assert shown, said[-2000:]
    assert code == 0
    refused = tapete("play")
    assert refused.returncode == 2
    assert "give a game to play (tapete games lists them), or --resume FILE" in refused.stderr


def test_rules_of_a_spec_with_options_says_them_before_the_page_of_defaults() -> None:
    """``tapete rules "truco(target=6)"`` printed the page of the defaults (to 12) and nothing
    of the 6 asked for."""
    told = tapete("rules", "truco(target=6, deck=clean)", "--lang", "es")
    first, blank, title = told.stdout.splitlines()[:3]
    assert first == "Las reglas de abajo, con estas opciones: baraja: clean, puntos para ganar: 6"
    assert (blank, title) == ("", "# Truco Paulista")
    assert tapete("rules", "truco").stdout.startswith("# Truco Paulista")
    # Oh Hell lives on Pocha's page, whose options list Pocha's defaults: its own come first.
    oh_hell = tapete("rules", "oh_hell").stdout.splitlines()[0]
    assert oh_hell.startswith("The rules below, with these options: most players: 7, deck: french")
    assert "scoring: oh_hell" in oh_hell and "card order: natural" in oh_hell
