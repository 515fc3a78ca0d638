"""What keeps one client from filling the server: per-client rate limits (429 with Retry-After),
an IPv6 client counted by its /64, guesses at private tables' codes kept slow, trusted proxies,
a lobby listed a page at a time, tables nobody started removed after a day; and tokens kept out
of URLs and logs (headers; the old query form deprecated and hidden)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from conftest import REDIS, database_url, redis_keys
from tapete.web import Limits, MemoryStore, RateLimits
from tapete.web.app import open_store
from tapete.web.ratelimit import SHARED_RETRY, SHARED_WAIT, RateLimiter, client_key
from tapete.web.rooms import EXPIRE_AFTER
from tapete.web.store import Store
from webclient import Server, free_port, own_redis, process, running

SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


def call(
    server: Server,
    path: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    method: str | None = None,
) -> Answer:
    """One HTTP request; its status, headers and JSON body, whatever the status."""
    request = urllib.request.Request(
        server.url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        method=method or ("GET" if body is None else "POST"),
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return Answer(response.status, _lower(response.headers), json.loads(response.read()))
    except urllib.error.HTTPError as exc:
        return Answer(exc.code, _lower(exc.headers), json.loads(exc.read()))


def _lower(headers: Any) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


def create(server: Server, headers: dict[str, str] | None = None, **body: Any) -> Answer:
    return call(server, "/api/tables", {"game": "pocha", "seats": SEATS, **body}, headers)


def assert_limited(answer: Answer, kind: str) -> None:
    assert answer.status == 429, answer
    wait = int(answer.headers["retry-after"])
    assert 1 <= wait <= 60
    assert f"too many requests from your address ({kind})" in answer.body["detail"]


# --- rate limits ---------------------------------------------------------------------------


def test_creating_tables_joining_and_new_players_are_limited_per_client() -> None:
    limits = RateLimits.parse(["tables=3/minute", "joins=2/minute", "players=2/minute"])
    with running(open_store("sqlite://"), rate_limits=limits) as server:
        made = [create(server, seats=[{"kind": "human"}] * 4) for _ in range(3)]
        assert [a.status for a in made] == [200, 200, 200]
        assert_limited(create(server), "tables")
        assert len(server.app.state.rooms) == 3  # the refused one made nothing

        code = made[0].body["code"]
        joins = [call(server, f"/api/tables/{code}/join", {"name": f"p{i}"}) for i in range(3)]
        assert [a.status for a in joins[:2]] == [200, 200]
        assert_limited(joins[2], "joins")
        assert server.get(f"/api/tables/{code}")["open"] == 1

        players = [call(server, "/api/players", {"name": f"p{i}"}) for i in range(3)]
        assert [a.status for a in players[:2]] == [200, 200]
        assert_limited(players[2], "players")


def test_only_tables_made_count_toward_the_limit_of_tables() -> None:
    # A form refused (a rule option mistyped, a bot level unknown, a seat too many, a player
    # token unknown) made nothing: fixing it and sending it again is not turned away.
    limits = RateLimits.parse(["tables=3/minute"])
    with running(open_store("sqlite://"), rate_limits=limits) as server:
        refused = [
            create(server, params={"deck": 41}),
            create(server, seats=[*SEATS[:3], {"kind": "bot", "level": "hardest"}]),
            create(server, seats=[*SEATS, {"kind": "human"}]),
            create(server, player="no such player"),
        ]
        assert [a.status for a in refused] == [400, 400, 400, 403], refused
        made = [create(server) for _ in range(3)]
        assert [a.status for a in made] == [200, 200, 200], made
        assert_limited(create(server), "tables")
        assert_limited(create(server, params={"deck": 41}), "tables")  # over: refused at once
        assert len(server.app.state.rooms) == 3


def test_a_table_player_or_join_asked_again_with_its_key_is_not_counted_again() -> None:
    """The same request again, its answer lost, makes nothing: it is answered (with what the
    first made) and neither counted nor refused at the limit that first one reached."""
    limits = RateLimits.parse(["tables=2/minute", "players=1/minute", "joins=1/minute"])
    with running(open_store("sqlite://"), rate_limits=limits) as server:
        open_seats = [{"kind": "human"}] * 4  # seats for the joins below
        table = create(server, key="t" * 22, seats=open_seats)
        again = [create(server, key="t" * 22, seats=open_seats) for _ in range(3)]
        assert [a.status for a in again] == [200, 200, 200], again
        assert all(a.body == table.body for a in again)
        assert create(server, key="u" * 22).status == 200  # the second table of two
        assert create(server, key="u" * 22).body["code"] != table.body["code"]
        assert_limited(create(server, key="v" * 22), "tables")
        assert len(server.app.state.rooms) == 2

        player = call(server, "/api/players", {"name": "Ana", "key": "p" * 22})
        again = [call(server, "/api/players", {"name": "Ana", "key": "p" * 22}) for _ in range(3)]
        assert [a.status for a in again] == [200, 200, 200], again
        assert all(a.body == player.body for a in again)
        assert_limited(call(server, "/api/players", {"name": "Bea", "key": "q" * 22}), "players")

        join = f"/api/tables/{table.body['code']}/join"
        seated = call(server, join, {"name": "Bea", "key": "j" * 22})
        again = [call(server, join, {"name": "Bea", "key": "j" * 22}) for _ in range(3)]
        assert [a.status for a in again] == [200, 200, 200], again
        assert all(a.body == seated.body for a in again)
        assert_limited(call(server, join, {"name": "Cai", "key": "k" * 22}), "joins")


def test_the_refusal_is_translated_in_the_browser_strings() -> None:
    with running() as server:
        for lang in ("es", "pt"):
            ui = server.get(f"/api/i18n/{lang}")["ui"]
            said = ui["Too many requests from your address: try again in {seconds} s."]
            assert "{seconds}" in said and not said.startswith("Too many")


def test_a_trusted_proxy_s_forwarded_address_is_the_client() -> None:
    limits = RateLimits.parse(["tables=2/minute"])
    with running(rate_limits=limits, trusted_proxies=["127.0.0.1"]) as server:
        ana = {"X-Forwarded-For": "203.0.113.5"}
        bea = {"X-Forwarded-For": "198.51.100.7, 203.0.113.9"}  # the proxy appends its peer
        assert [create(server, ana).status for _ in range(2)] == [200, 200]
        assert_limited(create(server, ana), "tables")
        assert create(server, bea).status == 200  # another client behind the same proxy
        assert create(server, {"X-Forwarded-For": "203.0.113.9"}).status == 200
        assert_limited(create(server, {"X-Forwarded-For": "203.0.113.9"}), "tables")


def test_the_forwarded_header_is_ignored_from_anyone_but_a_trusted_proxy() -> None:
    limits = RateLimits.parse(["tables=2/minute"])
    with running(rate_limits=limits, trusted_proxies=["10.1.2.3"]) as server:
        forged = [create(server, {"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(3)]
        assert [a.status for a in forged[:2]] == [200, 200]
        assert_limited(forged[2], "tables")  # all three are this socket's address


def test_an_ipv6_client_is_its_64_and_an_ipv4_one_its_address() -> None:
    one = {client_key(a) for a in ("2001:db8:a:b::1", "2001:DB8:A:B:ffff:ffff:ffff:ffff")}
    assert one == {"2001:db8:a:b::/64"}
    assert client_key("2001:db8:a:c::1") == "2001:db8:a:c::/64"  # the next /64: another client
    assert client_key("fe80::1%eth0") == "fe80::/64"  # a link-local address with its zone
    assert client_key("203.0.113.5") != client_key("203.0.113.6")
    assert client_key("::ffff:203.0.113.5") == client_key("203.0.113.5") == "203.0.113.5"
    assert client_key("unknown") == "unknown"  # no address: a name, as it is


def test_addresses_of_one_ipv6_64_count_together() -> None:
    limits = RateLimits.parse(["tables=2/minute"])
    with running(rate_limits=limits, trusted_proxies=["127.0.0.1"]) as server:
        ana = [{"X-Forwarded-For": f"2001:db8:1:2::{i}"} for i in (1, 2, 3)]
        assert [create(server, ana[i]).status for i in (0, 1)] == [200, 200]
        assert_limited(create(server, ana[2]), "tables")  # a new address of hers: still her
        assert create(server, {"X-Forwarded-For": "2001:db8:1:3::1"}).status == 200
        v4 = [{"X-Forwarded-For": f"203.0.113.{i}"} for i in (1, 2, 1)]
        assert [create(server, h).status for h in v4] == [200, 200, 200]


# --- guessing private tables' codes -------------------------------------------------------------


def test_codes_that_name_no_table_are_limited_and_then_every_code_is_refused() -> None:
    limits = RateLimits.parse(["lookups=4/minute"])
    with running(rate_limits=limits) as server:
        made = create(server, public=False).body
        code = made["code"]
        for _ in range(10):  # known codes do not count, whatever is asked of them
            assert call(server, f"/api/tables/{code}").status == 200
            assert call(server, f"/api/tables/{code}/records/7").status == 404
        asked = [
            call(server, "/api/tables/ZZZZ2"),
            call(server, "/api/tables/ZZZZ3/record"),
            call(server, "/api/tables/ZZZZ4/join", {"name": "Bea"}),
        ]
        assert [a.status for a in asked] == [404, 404, 404]
        guesser = server.client()
        guesser.send({"type": "hello", "code": "ZZZZ5"})  # a WebSocket's hello counts too
        assert guesser.expect("error")["rule"] == "no-such-table"
        # Past the limit a known code is refused as an unknown one: a refusal tells nothing.
        assert_limited(call(server, "/api/tables/ZZZZ6"), "lookups")
        assert_limited(call(server, f"/api/tables/{code}"), "lookups")
        assert_limited(call(server, f"/api/tables/{code}/narration"), "lookups")
        guesser.send({"type": "hello", "code": code, "token": made["token"], "lang": "es"})
        refused = guesser.expect("error")
        assert refused["rule"] == "too-many-lookups" and "Demasiadas" in refused["text"]
        assert "try again in" in refused["message"]
        with pytest.raises(ConnectionClosed):  # closed: try again later
            guesser.recv(timeout=5)
        assert server.get("/api/tables")["total"] == 0  # what needs no code is served
        assert create(server).status == 200


def test_one_client_holds_only_so_many_connections_open_at_once() -> None:
    """Each connection is a socket of the server's: one client opening them by the thousand
    would leave none for the other tables. The one past the limit is told why and closed (try
    again later); once one of the others closes, a new one is taken."""
    with running(limits=Limits(per_client=3)) as server:
        code = create(server).body["code"]
        held = [server.client() for _ in range(3)]
        for client in held:
            client.hello(code)
        extra = server.client()
        refused = extra.expect("error")
        assert refused["rule"] == "too-many-connections", refused
        assert "at most 3 connections" in refused["message"]
        with pytest.raises(ConnectionClosed) as closed:
            extra.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        held[0].send({"type": "ping", "t": 1})  # those open go on as they were
        assert held[0].expect("pong")["t"] == 1
        held.pop().close()
        deadline = time.monotonic() + 5
        while server.app.state.sockets.get("127.0.0.1", 0) > 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        again = server.client()
        assert again.hello(code)["code"] == code


def test_a_hello_without_a_code_is_a_bad_message_not_a_guess() -> None:
    """A hello whose code is missing or not a string names no table to look for: refused as
    a malformed message, not counted against the client's unknown codes."""
    with running(rate_limits=RateLimits.parse(["lookups=2/minute"])) as server:
        made = create(server).body
        me = server.client()
        for hello in (
            {"type": "hello"},
            {"type": "hello", "code": None},
            {"type": "hello", "code": 12345},
            {"type": "hello", "code": ["ABCDE"]},
        ):
            me.send(hello)
            error = me.expect("error")
            assert error["rule"] == "bad-message" and '"code"' in error["message"], error
        assert call(server, f"/api/tables/{made['code']}").status == 200
        assert me.hello(made["code"], made["token"])["seat"] == 0
        me.close()


def test_a_player_who_mistypes_a_code_a_few_times_gets_in() -> None:
    with running(rate_limits=RateLimits()) as server:  # the defaults
        code = create(server).body["code"]
        for typo in ("ABCDE", "ABCD3", "A8CDE", code[::-1], code + "X"):
            assert call(server, f"/api/tables/{typo}").status in (200, 404)
        me = server.client()
        for typo in ("ABCDE", "ABCD3"):
            me.send({"type": "hello", "code": typo})
            assert me.expect("error")["rule"] == "no-such-table"
        assert call(server, f"/api/tables/{code}").status == 200
        me.hello(code)
        me.close()


@pytest.fixture
def redis_limits() -> Iterator[RateLimits]:
    """Limits counted in the tests' Redis under a key prefix of this test's own, wiped after."""
    with redis_keys() as prefix:
        limits = RateLimits.parse(["tables=2/minute"], storage=REDIS, prefix=prefix)
        if not asyncio.run(RateLimiter(limits).storage.check()):
            raise RuntimeError(f"the rate limits cannot count in the Redis at {REDIS}")
        yield limits


def test_two_servers_count_together_in_a_shared_storage(redis_limits: RateLimits) -> None:
    with (
        running(rate_limits=redis_limits) as one,
        running(rate_limits=redis_limits) as other,
    ):
        assert create(one).status == 200
        assert create(other).status == 200
        assert_limited(create(one), "tables")
        assert_limited(create(other), "tables")
    keys = asyncio.run(_keys(redis_limits.prefix))
    assert keys and all(k.startswith(redis_limits.prefix) for k in keys)


def test_sites_sharing_one_redis_count_their_limits_apart(
    redis_limits: RateLimits, tmp_path: Path
) -> None:
    """--redis-prefix names this site's keys: another site on the same Redis (a staging copy)
    neither uses up nor shares this one's rate limits."""
    prefixes = [f"{redis_limits.prefix}-{site}" for site in ("club", "staging")]
    ports = [free_port(), free_port()]
    try:
        with (
            process(ports[0], "memory", tmp_path / "club.log", _site(prefixes[0])),
            process(ports[1], "memory", tmp_path / "staging.log", _site(prefixes[1])),
        ):
            sites = [Server(f"http://127.0.0.1:{p}", None, None) for p in ports]  # type: ignore[arg-type]
            assert create(sites[0]).status == 200
            assert_limited(create(sites[0]), "tables")
            assert create(sites[1]).status == 200
        for prefix in prefixes:
            assert asyncio.run(_keys(prefix))
    finally:
        for prefix in prefixes:
            asyncio.run(RateLimiter(RateLimits.parse([], storage=REDIS, prefix=prefix)).reset())


def _site(prefix: str) -> list[str]:
    limits = ["--rate-limit", "tables=1/minute", "--rate-limit-storage", REDIS]
    return [*limits, "--redis-prefix", prefix, "--bot-processes", "0"]


async def _keys(prefix: str) -> list[str]:
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(REDIS, decode_responses=True)
    try:
        return [key async for key in client.scan_iter(f"{prefix}*")]
    finally:
        await client.aclose()


def test_serve_refuses_a_bad_rate_limit(capsys: pytest.CaptureFixture[str]) -> None:
    from tapete.cli import main

    assert main(["serve", "--db", "memory", "--rate-limit", "tables=lots"]) == 2
    assert "'lots' is not a rate limit" in capsys.readouterr().err
    assert main(["serve", "--db", "memory", "--rate-limit", "games=1/minute"]) == 2
    assert "the kinds are tables, joins, players, reviews, lookups" in capsys.readouterr().err
    # 0 a minute would refuse every new table: a limit allows at least one, or is none
    assert main(["serve", "--db", "memory", "--rate-limit", "tables=10/minute;0/hour"]) == 2
    assert "'10/minute;0/hour' allows nothing" in capsys.readouterr().err


# --- the lobby, a page at a time -----------------------------------------------------------


def test_the_lobby_lists_a_page_at_a_time_with_the_total() -> None:
    with running() as server:
        public = {create(server).body["code"] for _ in range(45)}
        private = {create(server, public=False).body["code"] for _ in range(3)}
        first = server.get("/api/tables")
        assert (first["total"], first["page"], first["per_page"], first["pages"]) == (45, 1, 20, 3)
        assert len(first["tables"]) == 20
        seen: list[str] = []
        for page in (1, 2, 3):
            seen += [t["code"] for t in server.get(f"/api/tables?page={page}")["tables"]]
        assert len(seen) == 45 and set(seen) == public and not set(seen) & private
        assert server.get("/api/tables?page=4")["tables"] == []
        assert len(server.get("/api/tables?per_page=50")["tables"]) == 45
        assert call(server, "/api/tables?per_page=101").status == 422
        assert call(server, "/api/tables?page=0").status == 422


# --- tables nobody started expire ------------------------------------------------------------


class Clock:
    """The server's clock, moved by the test (no sleeping a day)."""

    def __init__(self) -> None:
        import time

        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Store]]:
    """A way to open the same store again (a restart): in memory, SQLite or PostgreSQL."""
    if request.param == "memory":
        memory = MemoryStore()
        yield lambda: memory
        return
    with database_url(request.param, tmp_path) as url:
        yield lambda: open_store(url)


def test_a_table_nobody_started_within_a_day_is_removed(
    any_store: Callable[[], Store],
) -> None:
    reopen = any_store
    clock = Clock()
    with running(reopen(), clock=clock) as server:
        waiting = create(server).body["code"]
        friends = create(server, seats=[{"kind": "human"}] * 4).body["code"]
        server.post(f"/api/tables/{friends}/join", {"name": "Bea"})
        started = create(server, bot_delay=5).body
        client = server.client()
        client.hello(started["code"], started["token"])
        client.send({"type": "start"})
        client.expect("view")
        client.close()

        clock.now += EXPIRE_AFTER - 60
        create(server)  # every new table has the server look for expired ones
        assert {waiting, friends} <= {t["code"] for t in server.listed()}

        clock.now += 120
        newest = create(server).body["code"]
        listed = {t["code"] for t in server.listed()}
        assert waiting not in listed and friends not in listed and newest in listed
        assert call(server, f"/api/tables/{waiting}").status == 404
        assert server.get(f"/api/tables/{started['code']}")["status"] == "playing"
        kept = {t.code for t in asyncio.run(_truths(reopen()))}
        assert waiting not in kept and friends not in kept
        assert {started["code"], newest} <= kept

    clock.now += 3600  # a restart: nothing expired comes back
    with running(reopen(), clock=clock) as server:
        assert call(server, f"/api/tables/{waiting}").status == 404
        assert server.get(f"/api/tables/{newest}")["status"] == "waiting"
        assert server.get(f"/api/tables/{started['code']}")["status"] in ("playing", "over")


def test_tables_that_expired_while_the_server_was_down_are_not_reloaded(
    any_store: Callable[[], Store],
) -> None:
    reopen = any_store
    clock = Clock()
    with running(reopen(), clock=clock) as server:
        old = create(server).body["code"]
    clock.now += EXPIRE_AFTER + 1
    with running(reopen(), clock=clock) as server:
        assert call(server, f"/api/tables/{old}").status == 404
        assert server.listed() == []
    assert old not in {t.code for t in asyncio.run(_truths(reopen()))}


async def _truths(store: Store) -> list[Any]:
    return await store.rooms()


# --- tokens in headers, not in URLs or logs ------------------------------------------------


def test_the_record_and_the_player_take_their_tokens_in_a_header(server: Server) -> None:
    made = create(server, bot_delay=5).body
    client = server.client()
    client.hello(made["code"], made["token"])
    client.send({"type": "start"})
    client.expect("view")
    path = f"/api/tables/{made['code']}/record"
    mine = call(server, path, headers={"Authorization": f"Bearer {made['token']}"})
    assert mine.status == 200 and mine.body["redacted"]["seat"] == 0
    assert "deprecation" not in mine.headers and mine.headers["cache-control"] == "no-store"
    assert call(server, path).body["redacted"]["seat"] is None  # no token: a spectator's record
    old = call(server, f"{path}?token={made['token']}")  # the old form still works, for now
    assert old.body == mine.body and old.headers["deprecation"].startswith("@")
    client.close()

    me = server.post("/api/players", {"name": "Ana"})
    bearer = {"Authorization": f"Bearer {me['token']}"}
    assert call(server, "/api/players/me", headers=bearer).body["id"] == me["id"]
    renamed = call(server, "/api/players/me", {"name": "Aninha"}, bearer, method="PUT")
    assert renamed.body["name"] == "Aninha" and "deprecation" not in renamed.headers
    old = call(server, f"/api/players/me?token={me['token']}")
    assert old.body["name"] == "Aninha" and "deprecation" in old.headers
    assert call(server, "/api/players/me").status == 404
    wrong = {"Authorization": "Bearer not-a-token"}
    assert call(server, "/api/players/me", headers=wrong).status == 404


def test_the_access_log_prints_no_token(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    server = Server(f"http://127.0.0.1:{port}", None, None)  # type: ignore[arg-type]
    with process(port, "memory", log, ["--rate-limit", "off"]):
        made = create(server).body
        path = f"/api/tables/{made['code']}/record"
        secret = made["token"]
        call(server, f"{path}?token={secret}&match=0")
        call(server, f"{path}?match=0&TOKEN={secret}")
        call(server, f"{path}?match=0&tok%65n={secret}")  # read as token= all the same
        call(server, path, headers={"Authorization": f"Bearer {secret}"})
    text = log.read_text()
    assert f"GET {path}?token=…&match=0 HTTP" in text  # the line is there, its token blanked
    assert f"GET {path}?match=0&TOKEN=… HTTP" in text
    assert f"GET {path}?match=0&tok%65n=… HTTP" in text
    assert secret not in text


# --- the cost of one request -----------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_before_it_is_read(server: Server) -> None:
    # Rules options of megabytes once held the event loop for seconds while they were parsed.
    huge = "[" + ", ".join(["1"] * 40_000) + "]"
    refused = create(server, params={"schedule": huge})
    assert refused.status == 413 and "at most 65536 bytes" in refused.body["detail"]
    # Sent in chunks with no length given, it is counted as it comes.
    request = urllib.request.Request(
        server.url + "/api/tables",
        data=iter([b'{"game": "pocha", "x": "', b"1" * 70_000, b'"}']),
        headers={"Content-Type": "application/json"},  # urllib sends it chunked
        method="POST",
    )
    # It is answered 413 as soon as it passes the limit; a client still sending may find the
    # connection closed under it instead of reading that answer.
    with pytest.raises(urllib.error.URLError) as chunked:
        urllib.request.urlopen(request, timeout=10)
    refusal = chunked.value
    if isinstance(refusal, urllib.error.HTTPError):
        assert refusal.code == 413
    else:
        assert isinstance(refusal.reason, BrokenPipeError | ConnectionResetError), refusal
    assert create(server).status == 200  # the server serves on


def test_a_rule_option_too_long_to_be_one_is_refused_unread(server: Server) -> None:
    long = "[" + ", ".join(["1"] * 400) + "]"
    refused = create(server, params={"schedule": long})
    assert refused.status == 400 and "a value is at most 600 characters" in refused.body["detail"]
    many = create(server, params={f"p{i}": "1" for i in range(50)})
    assert many.status == 400 and "at most 40 rule options" in many.body["detail"]


def test_a_refused_rule_option_is_named_for_the_form_to_point_at(server: Server) -> None:
    """``param`` names the option the rules refused (the form marks that field); a refusal
    of no one option has none."""
    players = create(server, params={"players": "99"})
    assert players.status == 400 and players.body["param"] == "players"
    assert players.body["detail"].startswith("players=99 is not accepted: ")
    unread = create(server, params={"schedule": "[1,"})
    assert unread.status == 400 and unread.body["param"] == "schedule"
    many = create(server, params={f"p{i}": "1" for i in range(50)})
    assert many.status == 400 and "param" not in many.body


def test_a_refused_table_is_said_in_the_language_the_lobby_asks_for(server: Server) -> None:
    """The lobby sends its page's language (``?lang=``): a refused rule option, game or seat
    count comes back in it, the option still named for the form; English by default."""

    def refused(lang: str, **body: Any) -> Answer:
        form = {"game": "pocha", "seats": SEATS, **body}
        return call(server, f"/api/tables?lang={lang}", form)

    players = refused("es", params={"players": "9"})
    assert players.status == 400 and players.body["param"] == "players"
    assert players.body["detail"] == "players=9 no se acepta: de 3 a 8 (min_players=2 permite 2)"
    deck = refused("pt-BR", params={"deck": "52"})
    assert deck.status == 400 and deck.body["param"] == "deck"
    assert deck.body["detail"] == "deck=52 não é aceito: 40, 48 ou french"
    unread = refused("pt", params={"schedule": "[1,"})
    assert (
        unread.body["detail"] == "schedule: '[1,' não é um valor: um número, uma palavra ou [1, 2]"
    )
    poker = refused("es", game="poker")
    assert poker.status == 400 and poker.body["detail"].startswith(
        "no hay ningún juego llamado 'poker'; los juegos son "
    )
    seats = refused("pt", seats=SEATS[:2])
    assert seats.body["detail"] == "pocha tem 4 lugares, não 2"
    english = refused("xx", params={"players": "9"})
    assert english.body["detail"] == "players=9 is not accepted: 3–8 (min_players=2 allows 2)"


def test_while_the_shared_storage_is_away_one_request_at_a_time_asks_it_again() -> None:
    """Redis stopped (connections taken, nothing said): once that is known, each request is
    counted in the server's memory at once; when it is time to ask Redis again, one request
    asks (and waits for it), not every request that comes meanwhile."""
    port = free_port()
    with own_redis(port) as server:
        limits = RateLimits.parse(["tables=100/minute"], storage=f"redis://127.0.0.1:{port}")
        limiter = RateLimiter(limits)

        async def timed() -> float:
            began = asyncio.get_running_loop().time()
            assert await limiter.hit("tables", "192.0.2.1") is None
            return asyncio.get_running_loop().time() - began

        async def go() -> tuple[float, list[float]]:
            first = await timed()  # Redis answers
            server.send_signal(signal.SIGSTOP)
            try:
                await asyncio.gather(*(timed() for _ in range(3)))  # they find it away
                await asyncio.sleep(SHARED_RETRY)
                again = await asyncio.gather(*(timed() for _ in range(6)))
            finally:
                server.send_signal(signal.SIGCONT)
            return first, again

        first, again = asyncio.run(go())
    assert first < SHARED_WAIT
    # Those in flight when Redis stopped each wait out SHARED_WAIT; after the retry time only
    # the one that asks again waits, the others are counted at once.
    assert sum(t >= SHARED_WAIT * 0.9 for t in again) == 1, again
    assert sorted(again)[-2] < 0.5, again
