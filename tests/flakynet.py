"""A bad connection between a browser and the server, for the browser tests: a TCP proxy of
asyncio in a thread of its own that can add latency, stall, drop every connection mid-frame,
and cut the line for a while (a phone on weak Wi-Fi, a train in a tunnel)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from webclient import Server

T = TypeVar("T")


class FlakyLine:
    """A loopback address (``url``) that reaches ``server`` through a line a test spoils:

    - ``latency``: seconds each chunk waits, each way (bytes keep their order);
    - ``stall()`` / ``resume()``: bytes stop going either way, nothing is closed;
    - ``drop()``: every connection is cut, the next chunk from the server only half sent (a
      WebSocket frame broken in the middle);
    - ``cut()`` / ``back()``: every connection is cut and new ones are refused until back.
    """

    def __init__(self, server: Server) -> None:
        self.target_port = int(server.url.rsplit(":", 1)[1])
        self.latency = 0.0
        self.loop = asyncio.new_event_loop()
        self._flowing = asyncio.Event()
        self._up = True
        self._half = False
        self._links: set[asyncio.StreamWriter] = set()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self._listener = self._call(self._listen())
        port = self._listener.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def _call(self, job: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(job, self.loop).result(10)

    async def _listen(self) -> asyncio.Server:
        self._flowing.set()
        return await asyncio.start_server(self._link, "127.0.0.1", 0)

    async def _link(self, near_in: asyncio.StreamReader, near_out: asyncio.StreamWriter) -> None:
        if not self._up:
            near_out.transport.abort()
            return
        try:
            far_in, far_out = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            near_out.transport.abort()
            return
        self._links |= {near_out, far_out}
        await asyncio.gather(
            self._pipe(near_in, far_out, near_out, False),
            self._pipe(far_in, near_out, far_out, True),
        )
        self._links -= {near_out, far_out}

    async def _pipe(
        self,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        back: asyncio.StreamWriter,
        from_server: bool,
    ) -> None:
        try:
            while data := await source.read(65536):
                if self.latency:
                    await asyncio.sleep(self.latency)
                await self._flowing.wait()
                if sink.transport.is_closing():
                    break
                if from_server and self._half:
                    self._half = False
                    sink.write(data[: max(1, len(data) // 2)])
                    await sink.drain()
                    self._abort_all()
                    break
                sink.write(data)
                await sink.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        for end in (sink, back):
            end.transport.abort()

    def _abort_all(self) -> None:
        for end in list(self._links):
            end.transport.abort()
        self._links.clear()

    def _do(self, job: Callable[[], None]) -> None:
        """``job`` run in the line's own thread, between two of its steps."""

        async def run() -> None:
            job()

        self._call(run())

    def stall(self) -> None:
        self._do(self._flowing.clear)

    def resume(self) -> None:
        self._do(self._flowing.set)

    def drop(self) -> None:
        """The next chunk the server sends is cut in two: its first half goes to the browser,
        then every connection is cut (a connection with nothing to send is cut at once)."""

        def now() -> None:
            self._half = True
            asyncio.get_running_loop().call_later(0.5, self._drop_idle)

        self._do(now)

    def _drop_idle(self) -> None:
        if self._half:
            self._half = False
            self._abort_all()

    def cut(self) -> None:
        def now() -> None:
            self._up = False
            self._abort_all()

        self._do(now)

    def back(self) -> None:
        def now() -> None:
            self._up = True

        self._do(now)

    def close(self) -> None:
        def now() -> None:
            self._listener.close()
            self._abort_all()
            self._flowing.set()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        self._do(now)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        with contextlib.suppress(RuntimeError):
            self.loop.close()


@contextmanager
def flaky(server: Server) -> Iterator[FlakyLine]:
    line = FlakyLine(server)
    try:
        yield line
    finally:
        line.close()
