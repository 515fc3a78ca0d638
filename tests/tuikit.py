"""Driving the terminal app in tests: build it, let the bots move, read what the screen shows."""

from __future__ import annotations

import io
import os
import random
import shutil
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.cells import cell_len
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


async def play_to_the_end(
    pilot: Pilot[None],
    rng: random.Random,
    at_each_turn: Callable[[TableScreen], object] | None = None,
    most: int = 500,
) -> TableScreen:
    """Press a legal key (chosen by ``rng``) at each of your turns until the match is over;
    the table it ended at, its summary drawn over it. ``at_each_turn`` looks at the table at
    each of your turns, before the key. A match asking more than ``most`` of your moves fails
    the test rather than play on for ever."""
    screen = await settle(pilot)
    moves = 0
    while not screen.finished:
        assert moves < most, f"the match still goes on after {most} of your moves"
        if at_each_turn is not None:
            at_each_turn(screen)
        await press_a_legal_key(pilot, rng)
        moves += 1
        screen = await settle(pilot)
    return screen


def screen_lines(app: Any) -> list[str]:
    """What the terminal shows, line by line (the screen as composed, every layer)."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def cells(line: str, start: int, end: int) -> str:
    """The part of a screen line from column ``start`` to ``end``, counted in the terminal's
    cells: a wide character (Chinese, Japanese, Korean) takes two, a direction mark none."""
    out, column = [], 0
    for char in line:
        if start <= column < end:
            out.append(char)
        column += cell_len(char)
    return "".join(out)


def fully_visible(app: Any, text: str) -> bool:
    """Whether ``text`` is on the screen whole, on one line."""
    return any(text in line for line in screen_lines(app))


def where_modes_hold(test: Callable[[Path], None]) -> None:
    """Run ``test`` with a fresh folder of its own, where a folder's mode bars writes as it does
    for anyone: as this user, or, for root (whom no mode bars), in a child process that gave
    up root's power to pass modes by. The folder is removed afterwards, whatever its modes."""
    folder = Path(tempfile.mkdtemp(prefix="tapete-modes-"))
    try:
        if os.geteuid() != 0:
            test(folder)
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: bound by modes from here on, and never back to the tests
            os.close(read)
            status = 0
            try:
                _drop_mode_override()
                test(folder)
            except BaseException:
                os.write(write, traceback.format_exc().encode())
                status = 1
            os._exit(status)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            told = pipe.read().decode()
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, told or "the child process failed"
    finally:
        for inner, _, _ in os.walk(folder):
            os.chmod(inner, 0o755)
        shutil.rmtree(folder)


def _drop_mode_override() -> None:
    """Give up CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH for good (effective and permitted):
    root stays root, owning its files, but a mode that bars their owner bars it too."""
    import ctypes

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [(name, ctypes.c_uint32) for name in ("effective", "permitted", "inheritable")]

    libc = ctypes.CDLL(None, use_errno=True)
    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two words of bits
    data = (Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    keep = ~((1 << 1) | (1 << 2)) & 0xFFFFFFFF  # CAP_DAC_OVERRIDE is 1, CAP_DAC_READ_SEARCH 2
    data[0].effective &= keep
    data[0].permitted &= keep
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")
