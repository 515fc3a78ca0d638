"""Per-client rate limits on what costs the server to keep: new tables, seats taken, players,
and the coach's reviews asked for; and on guesses at private tables' codes.

The counting is the ``limits`` package's (a moving window per client and kind), in a storage
named by URI: in this process's memory by default, or a shared one (``redis://host:6379``) so
that several server processes count together. A client is the address of the socket, or, when
that address is a trusted proxy (``tapete serve --trusted-proxy``), the address the proxy says it
forwards (uvicorn reads ``X-Forwarded-For`` from trusted proxies only); an IPv6 client is its
/64 (``client_key``).

A shared storage that does not answer (Redis away, or too slow: ``SHARED_WAIT``) neither fails
the request nor holds it: each server counts in its own memory meanwhile (``RateLimiter``), says
so once in its log, and asks the shared storage again every ``SHARED_RETRY`` seconds.

>>> RateLimits().rules["tables"]
'10/minute;60/hour'
>>> RateLimits.parse(["tables=3/minute", "joins=none"]).rules["joins"]
'none'
>>> RateLimits.parse(["off"]).enabled
False
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

import limits
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string

__all__ = ["KINDS", "STORAGES", "Limited", "RateLimiter", "RateLimits", "client_key"]

log = logging.getLogger("tapete.web")

STORAGES = ("memory://", "redis://", "rediss://")
"""Where the counts may be kept (``--rate-limit-storage``): this process, or a shared Redis."""
SHARED_WAIT = 2.0  # seconds a shared storage has to answer a request's counting
SHARED_RETRY = 5.0  # seconds, once it did not, before it is asked again

#: What is limited, and the default allowance per client (``limits``' notation; ``none``: no
#: limit). A person creates a table or two an evening; a school behind one address a few dozen.
KINDS: Mapping[str, str] = MappingProxyType(
    {
        "tables": "10/minute;60/hour",  # POST /api/tables
        "joins": "30/minute;300/hour",  # POST /api/tables/CODE/join
        "players": "10/minute;60/hour",  # POST /api/players
        "reviews": "10/minute;60/hour",  # POST /api/tables/CODE/reviews/N: the coach's work
        # Table codes asked for that name no table (GET /api/tables/CODE..., a WebSocket's
        # hello): a private table is found by its code alone, so guessing codes is kept slow.
        "lookups": "30/minute;300/hour",
    }
)

IPV6_CLIENT = 64  # bits of an IPv6 address that are one client: a home or a host gets a /64


def client_key(address: str) -> str:
    """Who ``address`` counts as: an IPv4 address itself, an IPv6 address its /64 (one user
    holds a whole /64 and could take a new address per request), an IPv4-mapped IPv6 address
    its IPv4 address; anything else (no address: a test client's name) as it is.

    >>> client_key("203.0.113.5"), client_key("::ffff:203.0.113.5")
    ('203.0.113.5', '203.0.113.5')
    >>> client_key("2001:db8:1:2:aaaa::1"), client_key("fe80::1%eth0"), client_key("testclient")
    ('2001:db8:1:2::/64', 'fe80::/64', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])  # without a link's zone
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_CLIENT), strict=False))
    return str(ip)


@dataclass(frozen=True)
class RateLimits:
    """The server's rate limits: one rule per kind, where they are counted, and whether at all."""

    rules: Mapping[str, str] = field(default_factory=lambda: dict(KINDS))
    storage: str = "memory://"  # or redis://HOST:PORT/DB, shared between processes
    prefix: str = "tapete"  # the keys' prefix in a shared storage
    enabled: bool = True

    @classmethod
    def off(cls) -> RateLimits:
        """No rate limits (tests and benchmarks that play many tables from one address)."""
        return cls(enabled=False)

    @classmethod
    def parse(
        cls, given: Sequence[str], storage: str = "memory://", prefix: str = "tapete"
    ) -> RateLimits:
        """Limits from ``tapete serve --rate-limit`` values: ``KIND=RULE`` (``tables=5/minute``,
        ``joins=none``) or ``off``. Raises ValueError naming a bad kind or rule."""
        rules = dict(KINDS)
        enabled = True
        for item in given:
            if item.strip().lower() == "off":
                enabled = False
                continue
            kind, sep, rule = item.partition("=")
            kind, rule = kind.strip(), rule.strip()
            if not sep or kind not in KINDS:
                raise ValueError(
                    f"a rate limit is KIND=RULE or off; the kinds are {', '.join(KINDS)}"
                )
            _items(rule)  # checked now, not at the first request
            rules[kind] = rule
        return cls(rules=rules, storage=storage, prefix=prefix, enabled=enabled)


def _items(rule: str) -> list[limits.RateLimitItem]:
    if rule.strip().lower() == "none":
        return []
    try:
        items = list(limits.parse_many(rule))
    except ValueError:
        raise ValueError(
            f"{rule!r} is not a rate limit: write e.g. 10/minute or 10/minute;60/hour, or none"
        ) from None
    if any(item.amount < 1 for item in items):  # 0/minute would refuse every request of it
        raise ValueError(
            f"{rule!r} allows nothing: a rate limit allows at least 1, or is none (no limit)"
        )
    return items


@dataclass(frozen=True)
class Limited:
    """A refusal: which kind, and in how many whole seconds the client may try again."""

    kind: str
    retry_after: int


class RateLimiter:
    """Counts each client's requests of each kind in the configured storage; while a shared
    storage does not answer, in this process's memory."""

    def __init__(self, config: RateLimits) -> None:
        self.config = config
        self.items = {kind: _items(rule) for kind, rule in config.rules.items()}
        uri = config.storage if config.storage.startswith("async+") else f"async+{config.storage}"
        self.shared = not uri.startswith("async+memory")
        options: dict[str, Any] = {}
        if uri.startswith(("async+redis://", "async+rediss://")):
            # redis-py (the package ``redis``), not limits' default coredis; its calls time out
            # as the cluster's do, so a Redis that stopped answering is noticed in seconds.
            options = {
                "implementation": "redispy",
                "key_prefix": config.prefix,
                "socket_timeout": SHARED_WAIT,
                "socket_connect_timeout": SHARED_WAIT,
            }
        # async+: an aio one; its failures all raised as StorageError, whatever the storage
        stored = storage_from_string(uri, wrap_exceptions=True, **options)
        self.storage = cast(Storage, stored)
        self.limiter = MovingWindowRateLimiter(self.storage)
        # Where the counts go while the shared storage is away: refusing every request meanwhile
        # would close the lobby for want of a counter (though the database that keeps the
        # tables may answer), and counting nothing would let a guesser of codes go unchecked;
        # counted here, each server holds every client to its limits alone.
        self._local = MovingWindowRateLimiter(MemoryStorage()) if self.shared else self.limiter
        self._away_until = 0.0  # time.monotonic() before which the shared storage is not asked
        self._said_away = False
        self._probing = False  # a request is asking a storage that was away whether it is back
        self.where = _shown(config.storage)

    async def test(self, kind: str, client: str) -> Limited | None:
        """A ``Limited`` when one more request of ``kind`` by ``client`` (an address) would be
        over a limit; counts nothing."""
        if not self.config.enabled:
            return None
        return await self._counted(self._test, kind, client_key(client))

    async def hit(self, kind: str, client: str) -> Limited | None:
        """Count one request of ``kind`` by ``client`` (an address); a ``Limited`` when it is
        over a limit (then nothing is counted for the rules it was within)."""
        if not self.config.enabled:
            return None
        return await self._counted(self._hit, kind, client_key(client))

    async def _counted(
        self,
        how: Callable[[MovingWindowRateLimiter, str, str], Awaitable[Limited | None]],
        kind: str,
        client: str,
    ) -> Limited | None:
        """``how`` asked of the shared storage, or of this process's memory while the shared
        one is away: a request is never failed nor held by its counting."""
        if self.shared and time.monotonic() >= self._away_until and not self._probing:
            # Once it was away, one request at a time asks whether it is back; the others count
            # here meanwhile, rather than every request waiting SHARED_WAIT on a storage that
            # still does not answer.
            self._probing = self._said_away
            try:
                answer = await asyncio.wait_for(how(self.limiter, kind, client), SHARED_WAIT)
            except (StorageError, TimeoutError, OSError) as exc:
                self._away(exc)
            else:
                self._back()
                return answer
            finally:
                self._probing = False
        return await how(self._local, kind, client)

    async def _test(
        self, limiter: MovingWindowRateLimiter, kind: str, client: str
    ) -> Limited | None:
        for item in self.items.get(kind, []):
            if not await limiter.test(item, kind, client):
                return Limited(kind, await self._retry_after(limiter, item, kind, client))
        return None

    async def _hit(
        self, limiter: MovingWindowRateLimiter, kind: str, client: str
    ) -> Limited | None:
        refused = await self._test(limiter, kind, client)
        if refused is not None:
            return refused
        for item in self.items.get(kind, []):
            if not await limiter.hit(item, kind, client):  # another request got there first
                return Limited(kind, await self._retry_after(limiter, item, kind, client))
        return None

    @staticmethod
    async def _retry_after(
        limiter: MovingWindowRateLimiter, item: limits.RateLimitItem, kind: str, client: str
    ) -> int:
        stats = await limiter.get_window_stats(item, kind, client)
        return max(1, math.ceil(stats.reset_time - time.time()))

    def _away(self, exc: BaseException) -> None:
        self._away_until = time.monotonic() + SHARED_RETRY
        if not self._said_away:
            self._said_away = True
            log.error(
                "the rate limits' storage at %s did not answer (%s): this server counts its "
                "clients' requests alone until it does; asking it again every %g s",
                self.where,
                str(exc) or type(exc).__name__,
                SHARED_RETRY,
            )

    def _back(self) -> None:
        if self._said_away:
            self._said_away = False
            log.warning("the rate limits' storage at %s answers again", self.where)

    async def reset(self) -> None:
        """Forget every count (of this prefix, in a shared storage)."""
        await self.storage.reset()


def _shown(uri: str) -> str:
    """``uri`` as a log may print it: without a password.

    >>> _shown("redis://:secret@cache:6379/0"), _shown("redis://cache:6379")
    ('redis://…@cache:6379/0', 'redis://cache:6379')
    """
    scheme, sep, rest = uri.partition("://")
    where, slash, path = rest.partition("/")
    if sep and "@" in where:
        where = "…@" + where.rpartition("@")[2]
    return f"{scheme}{sep}{where}{slash}{path}"
