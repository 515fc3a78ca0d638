"""How long a client may take to send a request: its head here, its body in ``app.BodyLimit``.

uvicorn starts no timer when a connection opens, and every byte it receives cancels its
keep-alive timer, so a client that opens many connections and sends a header byte every few
seconds (slowloris) would hold them all for ever. ``head_deadline_protocol`` is uvicorn's own
HTTP protocol (httptools' where it is installed, else h11's) with a clock: a connection whose
request head (the request line and the headers) is not all in within ``HEAD_TIMEOUT`` seconds
of opening, or of the previous response on a kept-alive connection, is closed. A request
being answered, or a WebSocket (its head is in before the upgrade hands the connection over),
has no such clock.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["BODY_TIMEOUT", "HEAD_TIMEOUT", "HeadClock", "head_deadline_protocol"]

log = logging.getLogger("tapete.web")

HEAD_TIMEOUT = 10.0  # seconds a request's head has, from the connection or the last response
BODY_TIMEOUT = 10.0  # seconds a request's body has to arrive in full, once its head is in


class HeadClock:
    """One connection's clock: ``wait`` starts it, ``head`` (a request head is in) and ``stop``
    stop it, ``answered`` (a response went out) starts it again once every request head in so
    far is answered; run out, it closes the connection."""

    def __init__(self, transport: asyncio.BaseTransport, seconds: float) -> None:
        self.transport, self.seconds = transport, seconds
        self.heads = self.answers = 0
        self.timer: asyncio.TimerHandle | None = None
        self.wait()

    def wait(self) -> None:
        self.stop()
        self.timer = asyncio.get_running_loop().call_later(self.seconds, self._expired)

    def head(self) -> None:
        self.heads += 1
        self.stop()

    def answered(self) -> None:
        # A pipelined request whose head came in while the one before was answered is served
        # next, with no clock: only a connection waiting for a head is timed.
        self.answers += 1
        if self.answers >= self.heads and not self.transport.is_closing():
            self.wait()

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _expired(self) -> None:
        self.timer = None
        log.debug("closed a connection whose request head took over %g s", self.seconds)
        self.transport.close()  # what was answered before is still sent: close, not abort


# uvicorn's methods each protocol below takes over: checked when the server is configured, so a
# uvicorn that renamed one fails at start, not by leaving connections untimed.
HOOKS = ("connection_made", "connection_lost", "on_response_complete")


def _check(base: type, hooks: tuple[str, ...]) -> None:
    missing = [hook for hook in hooks if not callable(getattr(base, hook, None))]
    if missing:
        raise RuntimeError(
            f"uvicorn {uvicorn.__version__}'s {base.__name__} has no {', '.join(missing)}: "
            "tapete's deadline for request heads needs them (a uvicorn it does not know)"
        )


class _Clocked:
    """What both protocols below add to uvicorn's: a ``HeadClock`` (``head_timeout`` seconds)
    from the connection's start, stopped at its end, started again after each answer. Listed
    before uvicorn's class, whose methods it calls on."""

    head_timeout = HEAD_TIMEOUT
    head_clock: HeadClock

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self.head_clock = HeadClock(transport, self.head_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self.head_clock.stop()
        super().connection_lost(exc)  # type: ignore[misc]

    def on_response_complete(self) -> None:
        self.head_clock.answered()  # first: a pipelined head the next line reads stops it
        super().on_response_complete()  # type: ignore[misc]


class H11HeadDeadline(_Clocked, H11Protocol):
    """h11's protocol with a ``HeadClock``."""

    head_hooks = (*HOOKS, "handle_events")

    def handle_events(self) -> None:
        # h11 hands uvicorn a whole request head as one ``h11.Request`` event, for which uvicorn
        # builds a new scope (before any upgrade to a WebSocket): a new scope is a head in.
        before = self.scope
        super().handle_events()
        if self.scope is not before:
            self.head_clock.head()


def head_deadline_protocol(seconds: float = HEAD_TIMEOUT, *, h11: bool = False) -> type[Any]:
    """The HTTP protocol class to give ``uvicorn.Config(http=...)``: uvicorn's own (httptools'
    where it is installed and ``h11`` is false, else h11's) that closes a connection whose
    request head is not in within ``seconds``. Raises RuntimeError when uvicorn lacks a method
    it takes over."""
    base: type[Any] = H11HeadDeadline
    if not h11 and HttpToolsHeadDeadline is not None:
        base = HttpToolsHeadDeadline
    _check(base.__mro__[2], base.head_hooks)  # uvicorn's class, after _Clocked
    return type(base.__name__, (base,), {"head_timeout": seconds})


def _httptools_deadline() -> type[Any] | None:
    """httptools' protocol with a ``HeadClock``; None without httptools."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return None

    class HttpToolsHeadDeadline(_Clocked, HttpToolsProtocol):
        """httptools' protocol with a ``HeadClock``."""

        head_hooks = (*HOOKS, "on_headers_complete")

        def on_headers_complete(self) -> None:
            # The parser's call when a head is in, a WebSocket's upgrade included.
            self.head_clock.head()
            super().on_headers_complete()

    return HttpToolsHeadDeadline


HttpToolsHeadDeadline = _httptools_deadline()
