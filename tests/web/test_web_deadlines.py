"""Clients too slow to send a request, against the real server on a real socket: a request's
head that does not arrive in time closes its connection (slowloris), a body that does not is
answered 408; requests in time, kept-alive connections and WebSockets are served as before."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import BinaryIO
from urllib.parse import urlsplit

import pytest

import tapete.web.app
from tapete.web import Limits
from tapete.web.deadlines import HEAD_TIMEOUT, head_deadline_protocol
from webclient import Server, running

QUICK = Limits(head_within=1.0, body_within=1.0)  # the deadlines, a tenth of the real ones
HEAD = b"GET /api/games HTTP/1.1\r\nHost: tapete\r\n"


@pytest.fixture(params=["httptools", "h11"])
def quick(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose deadlines are a second, over uvicorn's httptools protocol (the one it
    picks when httptools is installed) and over its h11 one (when it is not)."""
    if request.param == "h11":
        monkeypatch.setattr(
            tapete.web.app, "head_deadline_protocol", lambda s: head_deadline_protocol(s, h11=True)
        )
    with running(limits=QUICK) as server:
        mro = server.uvicorn.config.http_protocol_class.__mro__
        assert any(c.__module__.endswith(f"{request.param}_impl") for c in mro)
        yield server


def opened(server: Server) -> socket.socket:
    url = urlsplit(server.url)
    return socket.create_connection((url.hostname, url.port), timeout=10)


def closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closes ``sock`` (what it sends is read and dropped); fails
    when it is still open after ``seconds``."""
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def answer(reader: BinaryIO) -> tuple[int, dict[str, str], bytes]:
    """One response read off a connection: its status, headers and body."""
    status = int(reader.readline().split()[1])
    headers = {}
    while (line := reader.readline().decode().strip()) != "":
        name, _, value = line.partition(":")
        headers[name.lower()] = value.strip()
    return status, headers, reader.read(int(headers["content-length"]))


def test_the_deadline_is_ten_seconds() -> None:
    assert HEAD_TIMEOUT == 10.0 and Limits().head_within == Limits().body_within == 10.0


def test_a_connection_whose_request_head_does_not_arrive_is_closed(quick: Server) -> None:
    with opened(quick) as silent, opened(quick) as half:
        half.sendall(HEAD)  # all but the empty line that ends the head
        assert 0.8 < closed_within(half, 5) < 3
        assert closed_within(silent, 5) < 1  # opened at the same time: closed by now


def test_a_head_sent_a_byte_at_a_time_is_closed_all_the_same(quick: Server) -> None:
    # uvicorn's own keep-alive timer is put off by every byte: this clock is not.
    start = time.monotonic()
    with opened(quick) as drip:
        drip.settimeout(0.2)
        for byte in HEAD * 10:
            try:
                drip.sendall(bytes([byte]))
                if drip.recv(4096) == b"":
                    break
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            assert time.monotonic() - start < 5, "the server still reads the head"
    assert 0.8 < time.monotonic() - start < 3


def test_requests_in_time_are_answered_and_kept_alive(quick: Server) -> None:
    with opened(quick) as sock, sock.makefile("rb") as reader:
        time.sleep(0.6)
        sock.sendall(HEAD + b"\r\n")
        assert answer(reader)[0] == 200
        time.sleep(0.6)  # past the first deadline: the clock started again at the answer
        sock.sendall(HEAD + b"\r\n")
        assert answer(reader)[0] == 200
        sock.sendall(HEAD + b"\r\n" + HEAD + b"\r\n")  # pipelined
        assert [answer(reader)[0] for _ in range(2)] == [200, 200]
        sock.sendall(HEAD)  # the next head, half sent: closed a second after the answer
        assert 0.8 < closed_within(sock, 5) < 3


def test_a_websocket_outlives_the_deadline(quick: Server) -> None:
    made = quick.create()
    client = quick.client()
    client.hello(made["code"], made["token"])
    time.sleep(1.5)
    client.send({"type": "ping", "t": 1})
    assert client.until(lambda m: m["type"] == "pong")["t"] == 1
    client.close()


def test_a_body_that_does_not_arrive_in_time_is_answered_408(quick: Server) -> None:
    body = b'{"game": "pocha"}'
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: tapete\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    with opened(quick) as sock, sock.makefile("rb") as reader:
        sock.sendall(head + body[:5])
        time.sleep(0.4)
        sock.sendall(body[5:])  # in time, if in two parts
        assert answer(reader)[0] == 200
    with opened(quick) as sock, sock.makefile("rb") as reader:
        start = time.monotonic()
        sock.sendall(head + body[:5])
        status, headers, said = answer(reader)
        assert 0.8 < time.monotonic() - start < 3
        assert status == 408 and headers["connection"] == "close"
        assert b"a request body has 1 s to arrive in full" in said
        assert closed_within(sock, 2) < 1
