"""Driving the terminal app in tests: build it, let the bots move, read what the screen shows."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widget import Widget

import tapete
from tapete.bots import Budget
from tapete.tui import PlayConfig, TapeteApp
from tapete.tui.screens import TableScreen
from tapete.tui.widgets import ActionButton, CardView


def make_app(spec: str, seats: list[str], seed: int, data: Path, lang: str = "en") -> TapeteApp:
    """A match at the table with instant bots and a quick, deterministic hint."""
    config = PlayConfig(tapete.load(spec), tuple(seats), seed, hint_budget=Budget(iterations=4))
    return TapeteApp(play=config, data=data, lang=lang, speed="instant", contrast=False)


def table_screen(app: Any) -> TableScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, TableScreen))


async def settle(pilot: Pilot[None]) -> TableScreen:
    """Wait until it is the person's turn or the match is over, and the screen is drawn."""
    screen = table_screen(pilot.app)
    for _ in range(5000):
        await pilot.pause()
        if not screen.bots_running and (screen.waiting_for_you or screen.finished):
            await pilot.pause()
            return screen
    raise AssertionError("the bots never handed the turn back")


def text_of(widget: Widget) -> str:
    """The text a Static-like widget shows."""
    content = getattr(widget, "content", None)
    if content is None:
        content = widget.render()
    if isinstance(content, Text):
        return content.plain
    if isinstance(content, str):
        return content
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


def cards_on_screen(screen: TableScreen) -> list[CardView]:
    return list(screen.query(CardView))


def legal_cards_on_screen(screen: TableScreen) -> set[str]:
    return {c.card for c in cards_on_screen(screen) if c.has_class("-legal")}


def buttons_on_screen(screen: TableScreen) -> list[ActionButton]:
    return list(screen.query(ActionButton))


def legal_keys_on_screen(screen: TableScreen) -> list[str]:
    """Every key the screen shows for a legal move: on the legal cards and on the buttons."""
    keys = [c.key for c in cards_on_screen(screen) if c.has_class("-legal") and c.key]
    keys += [
        str(b.label).split()[0] for b in buttons_on_screen(screen) if not b.has_class("-refused")
    ]
    return keys


async def press_a_legal_key(pilot: Pilot[None], rng: random.Random) -> str:
    screen = table_screen(pilot.app)
    keys = legal_keys_on_screen(screen)
    assert keys, "it is your turn but the screen shows no legal move"
    key = rng.choice(keys)
    await pilot.press(key)
    return key


def screen_lines(app: Any) -> list[str]:
    """What the terminal shows, line by line (the screen as composed, every layer)."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def fully_visible(app: Any, text: str) -> bool:
    """Whether ``text`` is on the screen whole, on one line."""
    return any(text in line for line in screen_lines(app))
