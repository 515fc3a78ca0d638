"""Worker processes that leave ^C to the command that started them.

^C at a terminal reaches every process of its group: a command's worker processes too. A worker
that is still starting (importing its modules, for a second or more on a busy machine) dies of
it with a traceback of its own before it could set anything, over the command's one line
``interrupted``. So workers are started ignoring ^C: a signal ignored stays ignored across the
new interpreter's start, and Python leaves it so. The command answers ^C for them and ends them.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["deaf_to_interrupts"]


@contextmanager
def deaf_to_interrupts() -> Iterator[None]:
    """Ignore ^C in this process for the moment it takes to start worker processes, which then
    ignore it from their first instruction (a ^C in that moment is lost: press it again). Off
    the main thread, where Python sets no signal, it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
