"""Seats by name: bot levels and trained policies, with clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tapete import players
from tapete.errors import SpecError


def test_a_bot_level_loads_as_before() -> None:
    assert players.load("hard(ms=50)").name == "hard(ms=50)"


def test_a_policy_needs_a_model_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="give the model file"):
        players.load("policy(file=x)")
    pytest.importorskip("sb3_contrib")
    with pytest.raises(SpecError, match="no model file at"):
        players.load(f'policy(path="{tmp_path / "missing.zip"}")')
    with pytest.raises(SpecError, match="algo='dqn' is not accepted"):
        players.load(f'policy(path="{tmp_path}", algo=dqn)')


def test_seats_keep_the_case_of_a_file_name() -> None:
    pytest.importorskip("sb3_contrib")
    from tapete.cli import seat_kinds
    from tapete.games import load

    with pytest.raises(SpecError, match=r"Models/X\.zip"):
        seat_kinds('Policy(path="Models/X.zip"),easy,easy', load("pocha(players=3)"))
