"""Seats by name: bot levels and trained policies, with clear errors."""

from __future__ import annotations

import subprocess
import sys
import zipfile
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


# --- files that are no model of the algo named ---------------------------------------------


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An untrained model of each algo a policy seat takes, saved as training saves it."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    import tapete.rl

    folder = tmp_path_factory.mktemp("models")
    env = tapete.rl.single_agent("pocha(players=3, schedule=1)", opponents="random")
    paths = {"maskable_ppo": folder / "masked.zip", "ppo": folder / "plain.zip"}
    MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, device="cpu").save(
        paths["maskable_ppo"]
    )
    PPO("MlpPolicy", env, n_steps=16, batch_size=16, device="cpu").save(paths["ppo"])
    return paths


def tapete_run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tapete.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        check=False,
    )


def test_a_file_that_is_no_model_is_named(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    text, other = tmp_path / "g.zip", tmp_path / "other.zip"
    text.write_text("not a model", encoding="utf-8")
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("notes.txt", "no model either")
    with pytest.raises(SpecError, match=r"g\.zip is not a saved model \(not a zip file\)$"):
        players.load(f'policy(path="{text}")')
    with pytest.raises(SpecError, match=r"other\.zip is a zip file but not a saved model"):
        players.load(f'policy(path="{other}")')


def test_a_model_of_the_other_algo_is_named(models: dict[str, Path]) -> None:
    masked, plain = models["maskable_ppo"], models["ppo"]
    with pytest.raises(SpecError, match=r"plain\.zip holds a PPO \(Stable-Baselines3\) model;"):
        players.load(f'policy(path="{plain}")')
    with pytest.raises(SpecError, match=r"masked\.zip holds a MaskablePPO .*; use algo=maskable"):
        players.load(f'policy(path="{masked}", algo=ppo)')
    assert players.load(f'policy(path="{plain}", algo=ppo)').algo == "ppo"
    assert players.load(f'policy(path="{masked}")').algo == "maskable_ppo"


def test_the_command_says_what_is_wrong_in_one_line(
    models: dict[str, Path], tmp_path: Path
) -> None:
    (tmp_path / "g.zip").write_text("not a model", encoding="utf-8")
    run = tapete_run(
        "play", "pocha(players=3, schedule=1)", "--seats", 'policy(path="g.zip"),easy,easy',
        cwd=tmp_path,
    )  # fmt: skip
    assert (run.returncode, run.stderr) == (
        2,
        "tapete: policy: g.zip is not a saved model (not a zip file)\n",
    )
    run = tapete_run(
        "arena", "pocha(players=3, schedule=1)", "--bots", 'policy(path="plain.zip"),easy',
        cwd=models["ppo"].parent,
    )  # fmt: skip
    assert (run.returncode, run.stderr) == (
        2,
        "tapete: policy: plain.zip holds a PPO (Stable-Baselines3) model; use algo=ppo\n",
    )
