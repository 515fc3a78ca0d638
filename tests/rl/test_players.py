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


# --- a policy of another spec, in an arena ---------------------------------------------------


def test_an_arena_refuses_a_policy_trained_on_another_spec_before_any_match(
    models: dict[str, Path], tmp_path: Path
) -> None:
    """It could not make one decision: every one would be a random move (and a line on stderr),
    and the table would measure random play under the policy's name. Said once, up front."""
    run = tapete_run(
        "arena", "pocha(players=4, schedule=1)", "--bots", 'policy(path="masked.zip"),easy',
        "--matches", "2", "--workers", "1",
        cwd=models["maskable_ppo"].parent,
    )  # fmt: skip
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        "tapete: policy masked.zip: trained on observations of shape (362,), but"
        " pocha(schedule=1)'s are (487,): train it on the spec it plays\n"
    )


def test_arena_run_refuses_a_policy_of_another_spec_and_plays_its_own(
    models: dict[str, Path],
) -> None:
    from tapete import arena

    masked = f'policy(path="{models["maskable_ppo"]}")'
    with pytest.raises(SpecError, match=r"shape \(362,\), but pocha\(players=3, schedule=3\)'s"):
        arena.run("pocha(players=3, schedule=3)", [masked, "easy"], matches=2, workers=1)
    played = arena.run("pocha(players=3, schedule=1)", [masked, "easy"], matches=2, workers=1)
    assert played.warnings() == []  # the spec it was trained on plays, with no stand-in


def test_play_refuses_a_policy_trained_on_another_spec_before_any_move(
    models: dict[str, Path],
) -> None:
    """As the arena does: a match where every one of its decisions is a random move (and a
    line on stderr) is no match of the policy's."""
    run = tapete_run(
        "play", "pocha(players=4, schedule=1)",
        "--seats", 'policy(path="masked.zip"),easy,easy,easy',
        cwd=models["maskable_ppo"].parent,
    )  # fmt: skip
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        "tapete: policy masked.zip: trained on observations of shape (362,), but"
        " pocha(schedule=1)'s are (487,): train it on the spec it plays\n"
    )
    played = tapete_run(
        "play", "pocha(players=3, schedule=1)",
        "--seats", 'policy(path="masked.zip"),easy,easy',
        cwd=models["maskable_ppo"].parent,
    )  # fmt: skip
    assert (played.returncode, played.stderr) == (0, "")


def test_an_environment_refuses_a_policy_opponent_of_another_spec_when_made(
    models: dict[str, Path],
) -> None:
    import tapete.rl

    masked = f'policy(path="{models["maskable_ppo"]}")'
    with pytest.raises(SpecError, match=r"shape \(362,\), but pocha\(players=3, schedule=3\)'s"):
        tapete.rl.single_agent("pocha(players=3, schedule=3)", opponents=masked)
    env = tapete.rl.single_agent("pocha(players=3, schedule=1)", opponents=masked)
    env.reset(seed=0)  # the spec it was trained on plays
