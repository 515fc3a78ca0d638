"""The coach: reviews from the seat's view alone, exact where a solver applies, reproducible."""

from __future__ import annotations

import json
import multiprocessing
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import tapete
from tapete import coach, record
from tapete.bots import tute as tute_bots
from tapete.cli import main
from tapete.games import tute
from tapete.match import play


def short_match(spec: str = "pocha(players=3, schedule=[2, 3])", seed: int = 5) -> Any:
    _, rec = play(
        tapete.load(spec), ["easy", "medium", "random"][: tapete.load(spec).players], seed=seed
    )
    return rec


def test_a_review_is_the_same_for_the_same_seed_and_any_number_of_workers() -> None:
    rec = short_match()
    one = coach.review(rec, seats=[2], iterations=12, seed=1)
    again = coach.review(rec, seats=[2], iterations=12, seed=1, workers=2)
    assert one == again
    assert one.decisions and all(d.seat == 2 and d.loss >= 0 for d in one.decisions)
    assert set(one.players) == {2}


def test_a_review_starts_no_more_processes_than_it_has_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # tapete analyze takes one process a core by default: on a big machine, dozens of them for
    # a short match's few decisions, each an interpreter to start.
    rec = short_match("pocha(players=3, schedule=[1])")
    planned = coach.plan(rec, seats=[0, 1, 2], iterations=4)
    started: list[int] = []
    spawn = multiprocessing.get_context("spawn")

    class Counted:
        def Pool(self, processes: int, **options: Any) -> Any:  # noqa: N802  (its name)
            started.append(processes)
            return spawn.Pool(processes, **options)

    monkeypatch.setattr(multiprocessing, "get_context", lambda method: Counted())
    result = coach.review(rec, iterations=4, workers=64)
    assert started == [len(planned.tasks)] and 1 < len(planned.tasks) < 64
    assert result == coach.review(rec, iterations=4)


def test_random_play_loses_more_than_a_counting_player() -> None:
    # Over a few matches the random seat must lose more expected points a deal than medium.
    lost = {1: 0.0, 2: 0.0}
    for seed in range(3):
        result = coach.review(short_match(seed=seed), seats=[1, 2], iterations=20)
        for seat in lost:
            lost[seat] += result.players[seat].loss_per_deal
    assert lost[2] > lost[1]


def test_the_json_has_decisions_and_players() -> None:
    doc = coach.to_json(coach.review(short_match(), iterations=8))
    assert {"seat", "deal", "played", "best", "loss"} <= set(doc["decisions"][0])
    assert [p["seat"] for p in doc["players"]] == [0, 1, 2]
    assert all(0 <= p["accuracy"] <= 100 and p["loss_per_deal"] >= 0 for p in doc["players"])
    json.dumps(doc)


@pytest.mark.parametrize("spec", ["pocha(players=4, schedule=[3])", "truco(players=4)"])
def test_a_review_never_reads_a_hidden_card(spec: str) -> None:
    # Re-deal what the seat cannot see, consistently with its view: the review is unchanged.
    game = tapete.load(spec)
    rng = random.Random(0)
    state = game.new_state(seed=9)
    reviewed = 0
    while game.outcome(state) is None and reviewed < 6:
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        if len(legal) > 1:
            view = game.observe(state, seat)
            other = game.sample_state(view, rng)
            assert game.observe(other, seat) == view
            here = coach.review_decision(view, legal, legal[0], iterations=10)
            there = coach.review_decision(
                game.observe(other, seat), game.legal_actions(other), legal[0], iterations=10
            )
            assert here == there
            reviewed += 1
        state = game.apply(state, legal[rng.randrange(len(legal))])


def test_after_the_stock_the_review_takes_the_solvers_best_card() -> None:
    # Two-player Tute once the stock is gone: every card is known, the true deal is solved
    # directly, and the review's best card must be one the solver rates best.
    game = tapete.load("tute(players=2)")
    checked = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while game.outcome(state) is None and state.deal.number == 0:
            seat = game.current_player(state)
            assert seat is not None
            legal = game.legal_actions(state)
            view = game.observe(state, seat)
            if not view.stock_size and len(legal) > 1 and all(a < tute.SWAP for a in legal):
                truth = tute_bots._card_values(state, legal, seat % 2)
                played = legal[rng.randrange(len(legal))]
                result = coach.review_decision(view, legal, played)
                best = game.rules.parse_action(view.params, result.best)
                assert truth[best] == max(truth.values())
                assert (result.loss > 0) == (truth[played] < max(truth.values()))
                checked += 1
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked >= 10


def test_loss_counts_only_beyond_its_error() -> None:
    assert coach._loss([1.0, 3.0, 2.0], [1.0, 3.0, 2.0]) == (0.0, 0.0)
    assert coach._loss([5.0, 5.0, 5.0], [1.0, 1.0, 1.0])[0] == 4.0
    assert coach._loss([5.0, 0.0, 4.0, 0.0], [0.0, 5.0, 0.0, 4.0])[0] == 0.0


def test_analyze_writes_a_review_and_refuses_a_seat_the_match_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    record.write(short_match(), path)
    out = tmp_path / "review.json"
    code = main(["analyze", str(path), "--seat", "1", "--iterations", "8", "--json", str(out)])
    assert code == 0
    assert "accuracy" in capsys.readouterr().out
    doc = json.loads(out.read_text())
    assert {d["seat"] for d in doc["decisions"]} == {1}
    assert main(["analyze", str(path), "--seat", "5"]) == 2
    assert "seats 0 to 2" in capsys.readouterr().err


@pytest.mark.parametrize(
    "spec", ["pocha(players=3, schedule=[2, 3])", "oh_hell(players=3, schedule=[2, 3])", "tute"]
)
def test_analyze_reviews_an_unfinished_match_up_to_where_it_stopped(
    spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Saved in the middle of its second deal (or its first, in Tute): the decisions made so far
    # are reviewed, and only the finished deals have a return.
    whole = short_match(spec)
    first = len(whole.deals[0].actions)
    moves = first + 2 if len(whole.deals) > 1 else first // 2
    half = record.cut(whole, moves)
    assert half.result is None and half.deals[-1].score is None
    path, out = tmp_path / "match.json", tmp_path / "review.json"
    record.write(half, path)
    assert main(["analyze", str(path), "--iterations", "4", "--json", str(out)]) == 0
    assert "accuracy" in capsys.readouterr().out
    doc = json.loads(out.read_text())
    assert len(doc["returns"]) == len(half.deals) - 1
    assert doc["decisions"] and max(d["deal"] for d in doc["decisions"]) == len(half.deals) - 1


@pytest.mark.parametrize(
    ("lang", "words"),
    [("es", ("Análisis de", "precisión", "asiento")), ("pt", ("Análise de", "precisão", "lugar"))],
)
def test_analyze_reports_in_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, words: tuple[str, ...]
) -> None:
    path = tmp_path / "match.json"
    record.write(short_match(), path)
    review = tmp_path / "review.json"
    args = ["analyze", str(path), "--iterations", "8", "--lang", lang, "--json", str(review)]
    assert main(args) == 0
    said = capsys.readouterr()
    out = said.out
    written = {"es": "análisis guardado en", "pt": "análise gravada em"}[lang]
    assert f"{written} {review}" in said.err
    assert all(w in out for w in words)
    assert "accuracy" not in out and "sampled deals a decision" not in out
    # Its numbers as the language writes them: "precisión 87,5%", never "87.5%".
    assert re.search(r"(precisión|precisão) \d+,\d%, (pierde|perde) \d+,\d\d ", out), out
    assert not re.search(r"\d\.\d", out), out


def test_analyze_reports_in_english_with_decimal_points(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    record.write(short_match(), path)
    assert main(["analyze", str(path), "--iterations", "8"]) == 0
    assert re.search(r"accuracy \d+\.\d%, \d+\.\d\d \w+ lost", capsys.readouterr().out)


def test_analyze_names_the_table_s_own_seat_names_in_the_report_s_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A record of the line prompt names its bots "easy (0)", a web table's "bot 3 · random":
    # the report says them in its language, as the replay does; the JSON keeps them as written.
    rec = short_match()
    seats = [
        record.SeatInfo("easy (0)", "bot", "easy"),
        record.SeatInfo("Ana", "bot", "medium"),
        record.SeatInfo("bot 3 · random", "bot", "random"),
    ]
    path, review = tmp_path / "match.json", tmp_path / "review.json"
    record.write(replace(rec, seats=tuple(seats)), path)
    assert (
        main(["analyze", str(path), "--iterations", "4", "--lang", "es", "--json", str(review)])
        == 0
    )
    out = capsys.readouterr().out
    assert "fácil (0) (asiento 0)" in out and "Ana (asiento 1)" in out
    assert "bot 3 · al azar (asiento 2)" in out and "random" not in out
    names = [p["name"] for p in json.loads(review.read_text())["players"]]
    assert names == ["easy (0)", "Ana", "bot 3 · random"]


@pytest.mark.parametrize(
    ("spec", "lang", "words"),
    [
        ("pocha(players=3, schedule=[2, 3])", "en", ("lost a hand over 2 hands", "\n  hand ")),
        ("pocha(players=3, schedule=[2, 3])", "es", ("puntos por mano en 2 manos", "\n  mano ")),
        ("tute", "en", ("lost a deal over 1 deal (", "\n  deal ")),
        (
            "poch(players=3, rounds=1)",
            "pt",
            ("perde", "fichas por rodada em 1 rodada (", "\n  rodada "),
        ),
        ("poch(players=3, rounds=1)", "en", ("lost a round over 1 round (", "\n  round ")),
        ("poch(players=3, rounds=1)", "es", ("pierde", "fichas por ronda en 1 ronda (")),
    ],
)
def test_the_review_counts_in_the_game_s_own_word_for_a_deal(
    spec: str, lang: str, words: tuple[str, ...]
) -> None:
    # Pocha and Truco play hands, Tute and Pottle deals, Poch rounds: the review says so.
    result = coach.review(short_match(spec, seed=2), iterations=4)
    assert coach.to_json(result)["deal_unit"] in {"hand", "deal", "round"}
    text = coach.report(result, lang)
    assert all(w in text for w in words), text


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("en", ("1 sampled deal a decision", "over 1 deal ("), ("1 deals", "1 sampled deals")),
        ("es", ("1 reparto muestreado", "en 1 reparto ("), ("1 repartos",)),
        ("pt", ("1 distribuição amostrada", "em 1 rodada ("), ("1 rodadas", "1 distribuições")),
    ],
)
def test_a_review_says_one_of_a_thing_in_the_singular(
    lang: str, one: tuple[str, ...], many: tuple[str, ...]
) -> None:
    # One deal of Tute, one sample a decision: no "1 deals" in any language.
    text = coach.report(coach.review(short_match("tute", seed=2), iterations=1), lang)
    assert all(w in text for w in one), text
    assert not any(w in text for w in many), text


def test_the_example_of_the_coach_page_is_what_the_commands_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/coach.md's example: the match its command plays, reviewed as it says, begins with
    the lines the page shows."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "coach.md").read_text(encoding="utf-8")
    example = re.search(r"begins:\n\n```\n(.*?)\n  \.\.\.\n```", page, re.DOTALL)
    assert example is not None
    shown = example.group(1).splitlines()
    assert "--seats\neasy,medium,medium,medium --seed 7 --record match.json`)" in page
    path = tmp_path / "match.json"
    args = ["pocha(players=4)", "--seats", "easy,medium,medium,medium", "--seed", "7"]
    assert main(["play", *args, "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["analyze", str(path), "--seat", "0", "--workers", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[: len(shown)] == shown


class LeavesAfter:
    """``medium`` for its first ``own`` decisions, then gone: each later move is a random legal
    one the match plays for it, and the record marks it as a stand-in's."""

    name = "leaves"

    def __init__(self, own: int) -> None:
        self.left, self.medium = own, tapete.bots.load("medium")

    def choose(self, view: Any, legal_actions: Any, rng: random.Random) -> Any:
        self.left -= 1
        if self.left < 0:
            raise RuntimeError("left the table")
        return self.medium.choose(view, legal_actions, rng)


def stand_in_match(own: int = 4) -> Any:
    spec = "pocha(players=3, schedule=[3, 4])"
    seats: list[Any] = [LeavesAfter(own), "easy", "random"]
    return play(tapete.load(spec), seats, seed=5, on_failure=lambda seat, failure: None)[1]


def test_a_stand_in_s_moves_are_reviewed_apart_and_not_held_against_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = stand_in_match()
    marked = sum(len(d.stand_ins) for d in rec.deals)
    assert marked > 0
    result = coach.review(rec, seats=[0], iterations=8)
    own = [d for d in result.decisions if not d.stand_in]
    theirs = [d for d in result.decisions if d.stand_in]
    assert theirs and all(d.seat == 0 for d in theirs)
    player = result.players[0]
    assert (player.decisions, player.stand_ins) == (len(own), len(theirs))
    scale = result.scale
    expected = sum(100 * max(0.0, 1 - d.loss / scale) for d in own) / len(own)
    assert player.accuracy == round(expected, 1)
    assert all(d.stand_in is False for d in player.costliest)
    # The same moves unmarked (as before the records said it) are all held against the seat.
    unmarked = replace(rec, deals=tuple(replace(d, stand_ins=()) for d in rec.deals))
    blamed = coach.review(unmarked, seats=[0], iterations=8).players[0]
    assert blamed.decisions == len(own) + len(theirs) and blamed.stand_ins == 0
    # Told apart in the report, in every language, and in the JSON, from a file.
    path, out = tmp_path / "match.json", tmp_path / "review.json"
    record.write(rec, path)
    assert main(["analyze", str(path), "--seat", "0", "--iterations", "8", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    n = len(theirs)
    assert f"  {n} more decisions played by a stand-in, not counted" in text
    costly = [line for line in text.splitlines() if "played by a stand-in" in line][1:]
    assert len(costly) == sum(1 for d in theirs if d.loss > 0)
    assert all(line.endswith(" — played by a stand-in") for line in costly)
    doc = json.loads(out.read_text())
    assert [d["stand_in"] for d in doc["decisions"]] == [d.stand_in for d in result.decisions]
    assert doc["players"][0]["stand_ins"] == n
    said = {lang: coach.report(result, lang) for lang in ("es", "pt")}
    assert f"{n} decisiones más jugadas por un sustituto, no contadas" in said["es"]
    assert f"{n} decisões a mais jogadas por um substituto, não contadas" in said["pt"]
    if costly:
        assert "— jugada por un sustituto" in said["es"]
        assert "— jogada por um substituto" in said["pt"]


def test_a_seat_that_left_before_its_first_decision_has_no_accuracy_not_a_perfect_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person who left at once, every move a stand-in's, made no decision of their own: the
    review said "accuracy 100.0%, 0.00 points lost a hand over 0 hands". It says there was
    nothing of theirs to review (no accuracy in the JSON), in every language."""
    rec = stand_in_match(own=0)
    result = coach.review(rec, seats=[0], iterations=8)
    player = result.players[0]
    assert player.decisions == 0 and player.stand_ins > 0
    assert player.accuracy is None
    path, out = tmp_path / "match.json", tmp_path / "review.json"
    record.write(rec, path)
    assert main(["analyze", str(path), "--seat", "0", "--iterations", "8", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "accuracy" not in text
    assert "(seat 0): no decision of its own with a choice to review" in text
    assert json.loads(out.read_text())["players"][0]["accuracy"] is None
    said = {lang: coach.report(result, lang) for lang in ("es", "pt")}
    assert "ninguna decisión propia con opciones que revisar" in said["es"]
    assert "nenhuma decisão própria com escolha para rever" in said["pt"]
