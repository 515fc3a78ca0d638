"""benchmarks/decisions.py: one kind of decision compared on the same deals, the rest fixed."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tapete

SCRIPTS = Path(__file__).resolve().parent.parent / "benchmarks"
POTTLE = "pottle(deals=4, extra_deals=0)"


@pytest.fixture(scope="module")
def decisions() -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))  # it reads vs_old_hard's interval
    spec = importlib.util.spec_from_file_location("decisions", SCRIPTS / "decisions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["decisions"] = module  # so that its workers find play_deal
    spec.loader.exec_module(module)
    return module


def _args(out: Path, **kw: object) -> argparse.Namespace:
    base = {
        "spec": POTTLE,
        "phase": "bid",
        "bots": "medium,easy",
        "rest": "medium",
        "filler": "medium",
        "deals": 3,
        "seed": 0,
        "workers": 1,
        "out": out,
    }
    return argparse.Namespace(**{**base, **kw})


def test_only_the_seats_decisions_of_the_phase_are_the_bots(decisions: ModuleType) -> None:
    # Everyone bids as medium, so one seat declares in every run of the deal: of the four runs
    # (one a seat), the tested bot names trump in exactly one.
    for deal in range(3):
        line = decisions.play_deal(POTTLE, "trump", "random", "medium", "medium", deal)
        assert len(line["cpu"]) == 1
        assert len(line["returns"]) == 4


def test_two_bots_that_decide_alike_differ_by_exactly_nothing(
    decisions: ModuleType, tmp_path: Path
) -> None:
    rows = decisions.run(
        _args(tmp_path, spec="poch(rounds=4)", phase="shedding", bots="medium,medium")
    )
    assert [r["bot"] for r in rows] == ["medium", "medium"]
    assert rows[1]["difference"] == (0.0, 0.0, 0.0) and rows[1]["changed"] == 0.0


def test_a_worse_decision_shows_as_a_paired_loss(decisions: ModuleType, tmp_path: Path) -> None:
    rows = decisions.run(
        _args(tmp_path, spec="poch(rounds=4)", phase="shedding", bots="medium,random", deals=8)
    )
    assert rows[1]["changed"] > 0
    assert rows[1]["difference"][0] < 0


def test_a_later_run_plays_only_the_deals_missing(decisions: ModuleType, tmp_path: Path) -> None:
    decisions.run(_args(tmp_path, deals=2))
    path = decisions.shard(tmp_path, POTTLE, "bid", "medium", "medium")
    assert len(decisions.read_shard(path)) == 4  # 2 deals, 2 bots
    rows = decisions.run(_args(tmp_path, deals=3))
    assert len(decisions.read_shard(path)) == 6
    assert rows[0]["deals"] == 3
    assert decisions.run(_args(tmp_path, deals=2))[0]["deals"] == 2  # only the deals asked for


def test_a_phase_the_game_lacks_is_refused_with_the_games_phases(
    decisions: ModuleType, tmp_path: Path
) -> None:
    assert decisions.phase_names(tapete.load("truco")) == ["play", "answer", "eleven"]
    with pytest.raises(SystemExit, match="truco decides in play, answer, eleven"):
        decisions.run(_args(tmp_path, spec="truco", phase="bid"))
    assert not list(tmp_path.iterdir())


def test_a_phase_that_never_comes_in_a_first_deal_compares_nothing(
    decisions: ModuleType, tmp_path: Path
) -> None:
    rows = decisions.run(_args(tmp_path, spec="truco", phase="eleven", bots="medium,random"))
    assert [r["decisions"] for r in rows] == [0, 0] and rows[1]["changed"] == 0.0
