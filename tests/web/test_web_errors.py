"""What a person is told when the server refuses something or something goes wrong.

Every refusal a browser can meet names a stable ``rule`` code, over HTTP (the body's ``rule``)
and over the WebSocket (the ``error`` message's ``rule``), and the page says the rule's one
sentence, what happened and what to do, in the person's language, from the catalog of
``GET /api/i18n/LANG``. The server's own ``detail``/``message`` is for developers, in English.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from tapete.i18n import SERVER_RULES, rule_text
from webclient import Client, Server, running


def refused(server: Server, path: str, body: Any = None, method: str | None = None) -> Any:
    """The refusal of a request: (status, body, headers); fails when it is not refused."""
    data = (
        None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    )
    request = urllib.request.Request(
        server.url + path,
        data=data,
        headers={"Content-Type": "application/json"},
        method=method or ("GET" if data is None else "POST"),
    )
    try:
        urllib.request.urlopen(request, timeout=10).close()
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), exc.headers
    raise AssertionError(f"{path} was not refused")


def sentence(server: Server, lang: str, rule: str) -> str:
    """What the page of ``lang`` says for ``rule``: the browser's catalog's sentence."""
    words: dict[str, str] = server.get(f"/api/i18n/{lang}")["rules"]
    return words[rule]


def table_of_two(server: Server) -> dict[str, Any]:
    """A Truco table for two people: Ana seated, one seat open."""
    return server.create("truco_paulista", seats=[{"kind": "human"}, {"kind": "human"}])


def test_http_refusals_name_their_rule_and_the_page_says_it_in_spanish(server: Server) -> None:
    made = table_of_two(server)
    code = made["code"]
    join = f"/api/tables/{code}/join"

    cases = [
        (refused(server, "/api/tables/ZZZZZZ"), 404, "no-such-table"),
        (refused(server, join, {"name": "bot 1"}), 400, "seat-name"),
        (refused(server, join, {"name": "B" * 25}), 422, "name-too-long"),
        (refused(server, join, {"name": "Bea", "seat": 0}), 409, "seat-taken"),
        (refused(server, join, {"name": "Bea", "seat": 7}), 400, "bad-seat"),
        (refused(server, join, {"name": "Bea", "player": "nobody"}), 403, "no-player"),
        (refused(server, join, b"{not json"), 422, "bad-message"),
        # JSON nested deeper than the server reads, and an address no route has: the
        # framework's own refusals, a page out of step with the server
        (refused(server, join, b"[" * 5000 + b"]" * 5000), 400, "bad-message"),
        (refused(server, f"/api/tables/{code}/nothing-here"), 404, "bad-message"),
        (refused(server, f"/api/tables/{code}/records/9"), 404, "no-such-match"),
        (refused(server, "/api/players/nobody-at-all"), 404, "no-such-player"),
    ]
    server.post(join, {"name": "Bea"})  # the last seat goes
    cases.append((refused(server, join, {"name": "Cai"}), 409, "table-full"))

    for (status, body, _), wanted_status, rule in cases:
        assert (status, body["rule"]) == (wanted_status, rule), body
        assert body["detail"]  # the server's own words stay, for developers
        es = sentence(server, "es", rule)
        assert es == rule_text("es", rule, "") and es != SERVER_RULES[rule], rule
    assert sentence(server, "es", "table-full") == (
        "la mesa está llena: puedes mirar la partida o crear una mesa propia"
    )
    assert sentence(server, "pt", "seat-name") == (
        "esse nome é o que a mesa dá aos seus próprios lugares: escolha outro nome"
    )
    # English pages say the rule's sentence too, not the server's detail ("seat 0 is not free").
    assert sentence(server, "en", "seat-taken") == "that seat is taken: choose a free one"


def test_a_refused_game_is_told_in_the_language_asked_under_its_own_code(server: Server) -> None:
    status, body, _ = refused(
        server, "/api/tables?lang=es", {"game": "pocha", "params": {"players": 9}}
    )
    assert (status, body["rule"], body["param"]) == (400, "bad-spec", "players")
    assert "no se acepta" in body["detail"]
    # No sentence of its own: the page says the detail, already in its language.
    assert "bad-spec" not in server.get("/api/i18n/es")["rules"]


def test_a_rate_limit_and_a_body_too_large_name_their_rule() -> None:
    from tapete.web import RateLimits

    with running(rate_limits=RateLimits.parse(["tables=1/minute"])) as live:
        live.create("pocha")
        status, body, headers = refused(live, "/api/tables", {"game": "pocha", "name": "Ana"})
        assert (status, body["rule"]) == (429, "too-many-requests")
        assert int(headers["Retry-After"]) > 0
        status, body, _ = refused(live, "/api/players", b"{" + b" " * 70_000 + b"}")
        assert (status, body["rule"]) == (413, "too-large")
        assert sentence(live, "es", "too-many-requests").startswith("demasiadas solicitudes")


def error_of(client: Client) -> dict[str, Any]:
    return client.expect("error")


def test_websocket_refusals_say_what_happened_and_what_to_do_in_the_player_s_language(
    server: Server,
) -> None:
    made = table_of_two(server)
    code = made["code"]
    ana = server.client("Ana")
    ana.hello(code, made["token"], lang="es")
    ana.send({"type": "start"})
    error = error_of(ana)
    assert error["rule"] == "seats-open"
    assert error["text"] == "llena los asientos libres con bots o espera a más jugadores"
    ana.send({"type": "rematch"})
    assert error_of(ana)["text"] == "la revancha es para los jugadores, al terminar la partida"

    joined = server.post(f"/api/tables/{code}/join", {"name": "Bea"})
    bea = server.client("Bea")
    bea.hello(code, joined["token"], lang="pt")
    bea.send({"type": "start"})
    error = error_of(bea)
    assert (error["rule"], error["text"]) == (
        "not-host",
        "só o anfitrião pode fazer isso: peça ao anfitrião",
    )
    assert error["message"] == "only the host can do that"  # for developers, in English
    bea.send({"type": "act", "action": "1o"})
    assert error_of(bea)["text"] == "a partida ainda não começou: quem começa é o anfitrião"

    ana.send({"type": "start"})
    ana.expect("view")
    bea.expect("view")
    # Truco's first hand: one of the two is to act; the other is told to wait, in their words.
    acting, waiting = (ana, bea) if ana.legal() else (bea, ana)
    waiting.send({"type": "act", "action": acting.legal()[0]})
    error = error_of(waiting)
    assert error["rule"] == "not-your-turn"
    assert (
        error["text"]
        == {
            "es": "no es tu turno: espera a los demás jugadores",
            "pt": "não é a sua vez: espere os outros jogadores",
        }["es" if waiting is ana else "pt"]
    )
    acting.send({"type": "act", "action": "no-such-move"})
    error = error_of(acting)
    assert error["rule"] == "invalid-action"
    assert error["text"].startswith("eso no es una jugada" if acting is ana else "isso não é uma")
    ana.send({"type": "seat", "seat": 1, "kind": "bot"})
    assert error_of(ana)["text"] == "la partida ya empezó: puedes mirarla"

    lost = server.client()
    lost.send({"type": "hello", "code": "ZZZZZZ", "lang": "es"})
    error = error_of(lost)
    assert error["rule"] == "no-such-table"
    assert error["text"] == "no hay ninguna mesa con ese código: revisa el código o crea una mesa"
    lost.send("{not json")
    assert error_of(lost)["text"] == (
        "la página envió algo que el servidor no entendió: recarga la página"
    )
    for client in (ana, bea, lost):
        client.close()


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_a_server_refusal_is_told_by_its_rule_s_sentence_in_english_too(
    server: Server, lang: str
) -> None:
    """The server's ``message`` names seats by number, limits and fields, for developers: a
    person, English included, is told the rule's sentence (an engine's refusal keeps its own
    English sentence, which names the cards)."""
    made = table_of_two(server)
    ana = server.client("Ana")
    ana.hello(made["code"], made["token"], lang=lang)
    ana.send({"type": "seat", "seat": 7, "kind": "bot"})
    error = error_of(ana)
    assert error["rule"] == "bad-seat" and "0 to 1" in error["message"]
    assert error["text"] == rule_text(lang, "bad-seat", "") == sentence(server, lang, "bad-seat")
    assert "0 to 1" not in error["text"]
    ana.close()
