"""Seeded records, byte for byte: the pure and the compiled build must write the same ones.

Every conformance spec is played to the end by random seats at two seeds, and the SHA-256 of each
written record is compared with ``records/digests.json``. CI runs this file on the pure build and
on the compiled one (``TAPETE_COMPILE=1``), so both builds write records identical to the
committed digests, and so to each other. Random seats need only the engine, so a change to a bot
cannot move these digests; a change to the rules or the record format does, and then the file is
regenerated with ``python tests/test_record_identity.py`` (and the change explained).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import tapete
from conformance_specs import SPECS
from tapete import record
from tapete.match import play

DIGESTS = Path(__file__).parent / "records" / "digests.json"
SEEDS = (0, 1)
CASES = [(spec, seed) for name in sorted(SPECS) for spec in SPECS[name] for seed in SEEDS]


def digest(spec: str, seed: int) -> str:
    """The SHA-256 of the record of ``spec`` played by random seats from ``seed``."""
    game = tapete.load(spec)
    _, rec = play(game, ["random"] * game.players, seed=seed)
    return hashlib.sha256(record.dumps(rec).encode()).hexdigest()


@pytest.mark.parametrize(("spec", "seed"), CASES)
def test_seeded_record_is_byte_identical_to_the_committed_one(spec: str, seed: int) -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert digest(spec, seed) == expected[f"{spec} --seed {seed}"]


def test_every_case_has_a_committed_digest() -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert set(expected) == {f"{spec} --seed {seed}" for spec, seed in CASES}


def test_the_build_is_the_one_ci_asked_for() -> None:
    """``TAPETE_EXPECT_COMPILED=1`` (CI's compiled stage) or ``0``: the engine's core modules are
    the mypyc extension modules, or the Python sources."""
    import os

    from tapete.bench import compiled

    wanted = os.environ.get("TAPETE_EXPECT_COMPILED")
    if wanted is None:
        pytest.skip("TAPETE_EXPECT_COMPILED is not set: either build will do")
    assert compiled() is (wanted == "1")


if __name__ == "__main__":
    DIGESTS.parent.mkdir(exist_ok=True)
    table = {f"{spec} --seed {seed}": digest(spec, seed) for spec, seed in CASES}
    DIGESTS.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(table)} digests to {DIGESTS}", file=sys.stderr)
