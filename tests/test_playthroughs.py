"""Golden transcripts: one seeded match per game, compared line by line on every run.

A failure means the engine now plays a seeded match differently. If that change is intended,
regenerate the file with the command in its first line (see tests/playthroughs/README.md).
The narrations are the same matches as the narrator tells them: a failure there means the words
changed (``tapete playthrough SPEC --seed N --narrate LANG`` regenerates one).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tapete.playthrough import HEADER, NARRATION, narration, transcript

FILES = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))
NARRATIONS = sorted((Path(__file__).parent / "narrations").glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthrough_matches_golden_transcript(path: Path) -> None:
    golden = path.read_text(encoding="utf-8")
    first = golden.splitlines()[0]
    assert first.startswith(HEADER)
    spec, seed = first[len(HEADER) :].rsplit(" --seed ", 1)
    assert transcript(spec, int(seed)) == golden


def test_every_game_has_a_golden_transcript() -> None:
    import tapete

    covered = {p.stem.split("-")[0] for p in FILES}
    assert set(tapete.game_names()) <= covered


@pytest.mark.parametrize("path", NARRATIONS, ids=[p.stem for p in NARRATIONS])
def test_narration_matches_golden_words(path: Path) -> None:
    golden = path.read_text(encoding="utf-8")
    first = golden.splitlines()[0]
    assert first.startswith(NARRATION)
    spec, rest = first[len(NARRATION) :].rsplit(" --seed ", 1)
    seed, lang = rest.split(" --narrate ")
    assert narration(spec, int(seed), lang) == golden


def test_every_transcript_has_a_narration() -> None:
    assert {p.stem for p in FILES} <= {p.stem for p in NARRATIONS}


def test_the_readme_commands_remake_the_files_they_name() -> None:
    """A refresh run as tests/playthroughs/README.md shows keeps the file's own match."""
    here = Path(__file__).parent
    readme = (here / "playthroughs" / "README.md").read_text(encoding="utf-8")
    commands = re.findall(
        r'^ +tapete playthrough "([^"]+)" --seed (\d+)(.*) > (\S+)$', readme, re.M
    )
    assert commands
    for spec, seed, narrate, target in commands:
        first = (here.parent / target).read_text(encoding="utf-8").splitlines()[0]
        kind = NARRATION if narrate else HEADER
        assert first == f"{kind}{spec} --seed {seed}{narrate}", target
