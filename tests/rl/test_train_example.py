"""examples/train_pocha.py as a user runs it: a minute of training, then the policy as a seat."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from support import at_a_terminal
from tapete import record

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_pocha.py"
SPEC = "pocha(players=3, schedule=3)"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=600, check=False
    )


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("policy") / "pocha.zip"
    trained = run(
        str(EXAMPLE), "--spec", SPEC, "--opponents", "random", "--minutes", "1",
        "--steps", "4096", "--out", str(path),
    )  # fmt: skip
    assert trained.returncode == 0, trained.stderr
    assert "saved" in trained.stdout and path.is_file()
    return path


def test_training_stops_at_the_steps_asked_for(tmp_path: Path) -> None:
    """``--steps`` is at most this many, not rounded up to the 2,048 of a whole rollout."""
    trained = run(
        str(EXAMPLE), "--spec", SPEC, "--opponents", "random", "--steps", "100",
        "--out", str(tmp_path / "p.zip"),
    )  # fmt: skip
    assert trained.returncode == 0, trained.stderr
    assert trained.stdout.startswith("trained 100 steps in ")


def test_the_trained_policy_plays_a_seat_and_is_recorded(policy: Path, tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    seat = f'policy(path="{policy}")'
    played = run(
        "-m", "tapete.cli", "play", SPEC, "--seats", f"{seat},random,easy", "--seed", "2",
        "--record", str(out),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    rec = record.read(out)
    assert rec.seats[0].bot == seat and rec.result is not None


def test_a_person_plays_the_trained_policy_at_the_table(
    policy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAPETE_DATA", str(tmp_path))
    seats = f'human,policy(path="{policy}"),random'
    shown = at_a_terminal("play", SPEC, "--seats", seats, "--lang", "en", until="on the table")
    assert "on the table" in shown  # the table opened, not the line prompt
    assert "your move" not in shown and "outside bot" not in shown


def test_the_trained_policy_enters_an_arena(policy: Path, tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    arena = run(
        "-m", "tapete.cli", "arena", SPEC, "--bots", f'policy(path="{policy}"),random',
        "--matches", "4", "--workers", "1", "--json", str(out),
    )  # fmt: skip
    assert arena.returncode == 0, arena.stderr
    assert "policy" in json.loads(out.read_text())["bots"][0]


def test_a_policy_on_another_spec_is_told_why_it_cannot_play(policy: Path) -> None:
    played = run(
        "-m", "tapete.cli", "play", "pocha(players=4, schedule=3)", "--seats",
        f'policy(path="{policy}"),random,random,random',
    )  # fmt: skip
    # The match goes on (a random legal move stands in, as for any failing bot); the reason shows.
    assert "trained on observations of shape" in played.stderr
    assert "train it on the spec it plays" in played.stderr


def test_the_trained_policy_is_an_opponent_in_the_environment(policy: Path) -> None:
    """Self-play: the saved policy sits at another seat of the learner's environment."""
    import tapete.rl

    seat = f'policy(path="{policy}")'
    env = tapete.rl.single_agent(SPEC, seat=2, opponents=[seat, "random"])
    assert type(env.bots[0]).__name__ == "PolicyBot" and env.bots[2] is None
    env.reset(seed=3)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(env.action_masks().nonzero()[0][0]))
    assert info["outcome"] is not None
