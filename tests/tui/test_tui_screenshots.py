"""The README's screenshots: one SVG per game, made by ``python -m tapete.tui.screenshots``."""

from __future__ import annotations

from pathlib import Path

from tapete.games import ENTRIES
from tapete.tui.screenshots import SHOTS, take

ROOT = Path(__file__).resolve().parents[2]


def test_a_screenshot_is_an_svg_of_the_table(tmp_path: Path) -> None:
    (path, replay) = take(tmp_path, SHOTS[:1])
    svg = path.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Pocha" in svg
    assert "<svg" in replay.read_text(encoding="utf-8")


def test_every_game_has_a_committed_screenshot_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shots = {shot.name for shot in SHOTS}
    for name in ENTRIES:
        assert name in shots, name
    for shot in SHOTS:
        picture = f"docs/screenshots/tui-{shot.name}.svg"
        assert (ROOT / picture).is_file(), picture
        assert picture in readme, picture
