"""The web app: ``tapete serve`` and a browser (FastAPI + uvicorn; extra ``web``).

HTTP serves the pages and the lobby API (its OpenAPI schema is at ``/openapi.json``); each
player plays over one WebSocket, ``/ws``, whose typed JSON messages are documented in
``docs/protocol.md``.
The server is authoritative: a ``Room`` holds each table's truth and state, checks every action
with the engine, and sends each seat only what ``observe(state, seat)`` shows, as a presented
``Table`` (``tapete.present``) and a log in words.
"""

from __future__ import annotations

from tapete.web.app import Limits, RateLimits, create_app, serve
from tapete.web.rooms import Room, Rooms
from tapete.web.store import MemoryStore, Options, SeatConfig, Store, Truth

__all__ = [
    "Limits",
    "MemoryStore",
    "Options",
    "RateLimits",
    "Room",
    "Rooms",
    "SeatConfig",
    "Store",
    "Truth",
    "create_app",
    "serve",
]
