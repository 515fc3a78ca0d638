"""SVG screenshots of the table, one per game, for the README: ``python -m tapete.tui.screenshots
docs/screenshots``. Each match is seeded and the same keys are pressed, so the pictures only
change when the app does.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import tapete
from tapete.match import play
from tapete.tui.app import PlayConfig, TapeteApp
from tapete.tui.screens import TableScreen

__all__ = ["SHOTS", "Shot", "main", "take"]


@dataclass(frozen=True)
class Shot:
    name: str
    spec: str
    seats: tuple[str, ...]
    seed: int
    lang: str = "en"
    moves: int = 2  # your moves before the picture


SHOTS = (
    Shot("pocha", "pocha(schedule=[6, 7])", ("human", "easy", "easy", "easy"), 3, "es", 2),
    Shot("oh_hell", "oh_hell(schedule=[7])", ("human", "easy", "easy", "easy"), 4, "en", 3),
    Shot("truco", "truco(players=4)", ("human", "random", "random", "random"), 5, "pt", 1),
    Shot("pottle", "pottle", ("human", "random", "random", "random"), 2, "en", 2),
    Shot("poch", "poch", ("human", "random", "random", "random"), 1, "en", 0),
    Shot("tute", "tute", ("human", "random"), 6, "es", 5),
)


async def _table(shot: Shot, data: Path, size: tuple[int, int]) -> str:
    config = PlayConfig(tapete.load(shot.spec), shot.seats, shot.seed)
    app = TapeteApp(play=config, data=data, lang=shot.lang, speed="instant", contrast=False)
    rng = random.Random(shot.seed)
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        moves = 0
        for _ in range(2000):
            await pilot.pause()
            if screen.bots_running or not screen.waiting_for_you or screen.scene is None:
                continue
            scene = screen.scene
            keys = [c.key for c in scene.cards if c.legal and c.key]
            keys += [b.key for b in scene.buttons if b.key]
            if moves >= shot.moves or not keys:
                break
            await pilot.press(rng.choice(keys))
            moves += 1
        await pilot.pause()
        return app.export_screenshot(title=f"tapete — {shot.name}")


async def _replay(data: Path, size: tuple[int, int]) -> str:
    game = tapete.load("pocha(schedule=[5])")
    _, rec = play(game, ["easy"] * 4, seed=9, names=["Ana", "Bruno", "Carmen", "Diego"])
    app = TapeteApp(replay=rec, data=data, lang="en", contrast=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "right")
        await pilot.pause()
        return app.export_screenshot(title="tapete — replay")


def take(
    folder: Path, shots: Sequence[Shot] = SHOTS, size: tuple[int, int] = (80, 24)
) -> list[Path]:
    """Write ``tui-<game>.svg`` for each shot and ``tui-replay.svg`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as data:
        for shot in shots:
            path = folder / f"tui-{shot.name}.svg"
            path.write_text(asyncio.run(_table(shot, Path(data), size)), encoding="utf-8")
            written.append(path)
        path = folder / "tui-replay.svg"
        path.write_text(asyncio.run(_replay(Path(data), size)), encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else Path("docs/screenshots")
    for path in take(folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
