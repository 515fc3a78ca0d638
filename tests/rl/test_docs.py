"""docs/rl.md shows the encodings as the code builds them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import tapete.rl
from tapete.rl.encodings import describe

DOC = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
HEADINGS = re.findall(r"^### `(.+)`: (\d+) entries, (\d+) actions$", DOC, flags=re.M)


def test_every_game_has_its_table() -> None:
    games = {tapete.load(spec).rules.NAME for spec, _, _ in HEADINGS}
    assert games == {"pocha", "tute", "truco", "poch", "pottle"}


@pytest.mark.parametrize(("spec", "size", "actions"), HEADINGS)
def test_each_table_is_the_encoding_of_its_spec(spec: str, size: str, actions: str) -> None:
    enc = tapete.rl.encoding(spec)
    assert (enc.size, len(enc.actions)) == (int(size), int(actions))
    assert describe(enc) in DOC


def test_describe_names_what_it_takes_when_given_a_spec() -> None:
    """It failed on ``'str' object has no attribute 'fields'``."""
    with pytest.raises(TypeError, match=r"describe takes an encoding, tapete.rl.encoding\(spec\)"):
        describe("pocha")  # type: ignore[arg-type]
    assert describe(tapete.rl.encoding("pocha")).startswith("| indices | field |")
