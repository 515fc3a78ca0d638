"""benchmarks/bots.py: the decision times of a bot level, with every option the level was given."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))  # it reads the game specs of specs.py
    spec = importlib.util.spec_from_file_location("bench_bots", SCRIPTS / "bots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bots"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_timed_bot_keeps_every_option_of_its_level(script: ModuleType) -> None:
    from tapete.bots import Budget

    flat = "hard(iterations=7, rollout=random, prior=none, tree=none)"
    bot = script._bot(flat, script.CountingBudget())
    assert bot.name == flat
    kept = {k: getattr(bot.budget, k) for k in ("ms", "iterations", "rollout", "prior", "tree")}
    assert Budget(**kept) == Budget(500, 7, rollout="random", prior="none", tree="none")


def test_a_level_with_several_options_is_one_level(
    script: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["bots.py", "--decisions", "1", "--levels", "hard(iterations=2, tree=none),easy"]
    monkeypatch.setattr(sys, "argv", [*argv, "--specs", "pocha(players=3, schedule=[2])"])
    script.main()
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [row.split(" | ")[1] for row in rows] == ["hard(iterations=2, tree=none)", "easy"]
    assert "is not a bot" not in "".join(rows)


def test_each_decision_keeps_its_phase(script: ModuleType) -> None:
    # --by-phase reads them: Pottle's bids are timed apart from its cards.
    got = script.timings("pottle(deals=1, extra_deals=0)", "hard(iterations=3)", 6)
    assert len(got.phases) == len(got.sampled) == 6
    assert got.phases[0] == "bid" and set(got.phases) <= {"bid", "trump", "play"}
    assert all(n == 3 for n in got.sampled)
