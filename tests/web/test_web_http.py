"""The HTTP side: pages, the lobby API and its OpenAPI schema, strings, rules, records."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import tapete
from tapete import howto
from tapete.game import form_spec
from tapete.i18n import catalog
from tapete.web import strings
from webclient import Server

STATIC = Path(strings.__file__).parent / "static"


def status(server: Server, path: str, body: dict[str, object] | None = None) -> int:
    try:
        if body is None:
            server.get(path)
        else:
            server.post(path, body)
    except urllib.error.HTTPError as exc:
        return exc.code
    return 200


def test_pages_are_served(server: Server) -> None:
    for path in ("/", "/t/ABCDE", "/rules/pocha"):
        page = server.get(path)
        assert '<script type="module" src="/static/main.js">' in page
    assert "export function cardSVG" in server.get("/static/cards.js")
    # Only its own scripts, no framing by another site (the browser tests run under this policy).
    with urllib.request.urlopen(server.url + "/t/ABCDE", timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/api/health", "/", "/t/ABCDE"])
def test_a_load_balancer_s_head_request_is_answered_as_its_get(server: Server, path: str) -> None:
    """A health check or uptime monitor that asks with HEAD was answered 405, the server taken
    for down: it gets the GET's status and headers, and no body."""
    request = urllib.request.Request(server.url + path, method="HEAD")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200 and response.read() == b""
        assert response.headers["Content-Type"].startswith(("application/json", "text/html"))


@pytest.mark.parametrize(
    ("headers", "lang", "words"),
    [
        ({}, "en", "high contrast"),
        ({"Accept-Language": "es-AR,es;q=0.9,en;q=0.8"}, "es", "alto contraste"),
        ({"Accept-Language": "de-DE, en;q=0.5, pt-BR;q=0.7"}, "pt-BR", "alto contraste"),
        ({"Accept-Language": "fr"}, "en", "high contrast"),
        # The person's choice (the cookie the page keeps it in) over the browser's languages.
        ({"Accept-Language": "es", "Cookie": "tapete-lang=pt"}, "pt-BR", "cartas grandes"),
        ({"Accept-Language": "pt", "Cookie": "tapete-lang=en"}, "en", "large cards"),
    ],
)
def test_the_page_comes_in_the_language_the_person_will_see(
    server: Server, headers: dict[str, str], lang: str, words: str
) -> None:
    """The page came as lang="en" until its script ran: a screen reader or a translating
    plug-in reading the first paint took a Spanish page for English."""
    for path in ("/", "/t/ABCDE", "/static/index.html"):
        page = server.get(path, headers)
        assert f'<html lang="{lang}">' in page, path
        assert f">{words}</span>" in page, path
        assert '<script type="module" src="/static/main.js">' in page


@pytest.mark.parametrize("path", ["/static/index.html", "/static/main.js", "/static/style.css"])
def test_the_page_s_files_carry_its_protections(server: Server, path: str) -> None:
    """/static/index.html is the whole app too (it shows the lobby): no other site may frame
    it, and it runs under the page's policy, as the page does at its own addresses."""
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        assert response.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_lobby_names_a_person_who_gave_no_name_as_the_table_does(server: Server) -> None:
    """The lobby once listed such a person as a blank: "Ana, " where the table says
    "Ana, jugador 2"."""
    made = server.create("pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    server.post(f"/api/tables/{made['code']}/join", {"name": ""})
    listed = [t for t in server.listed() if t["code"] == made["code"]]
    assert listed[0]["humans"] == ["Ana", "player 2"]
    listing = server.get("/api/tables?per_page=100&lang=es")["tables"]
    assert [t["humans"] for t in listing if t["code"] == made["code"]] == [["Ana", "jugador 2"]]
    table = server.get(f"/api/tables/{made['code']}?lang=pt")
    assert table["humans"] == ["Ana", "jogador 2"]


def test_the_lobby_api_is_documented_by_its_openapi_schema(server: Server) -> None:
    schema = server.get("/openapi.json")
    paths = schema["paths"]
    for path in (
        "/api/games",
        "/api/tables",
        "/api/tables/{code}",
        "/api/tables/{code}/join",
        "/api/tables/{code}/records/{match}",
        "/api/i18n/{lang}",
        "/api/rules/{game}",
    ):
        assert path in paths, path
    assert "TableIn" in schema["components"]["schemas"]
    # No page of the game's address runs another site's scripts, as FastAPI's browsers of the
    # schema would (from a CDN, next to the seat tokens kept in the browser).
    for page in ("/docs", "/redoc"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            server.get(page)
        assert missing.value.code == 404


# What each route answers besides 200 and 422, so a client made from the schema expects it.
REFUSALS = {
    ("post", "/api/players"): {"400", "408", "413", "429", "503"},
    ("get", "/api/players/me"): {"404", "503"},
    ("put", "/api/players/me"): {"400", "404", "408", "413", "503"},
    ("get", "/api/players/{participant}"): {"404", "503"},
    ("get", "/api/leaderboard/{game}"): {"404", "503"},
    ("get", "/api/rules/{game}"): {"404"},
    ("post", "/api/tables"): {"400", "403", "408", "413", "429"},
    ("get", "/api/tables/{code}"): {"404", "429"},
    ("post", "/api/tables/{code}/join"): {"400", "403", "404", "408", "409", "413", "429"},
    ("get", "/api/tables/{code}/records/{match}"): {"404", "429"},
    ("get", "/api/tables/{code}/record"): {"404", "429"},
    ("get", "/api/tables/{code}/narration"): {"404", "429"},
    ("get", "/api/tables/{code}/verify/{match}"): {"404", "429"},
    ("get", "/api/tables/{code}/reviews/{match}"): {"404", "409", "429"},
    ("post", "/api/tables/{code}/reviews/{match}"): {"404", "409", "429"},
    ("delete", "/api/tables/{code}/reviews/{match}"): {"404", "409", "429"},
}


def test_the_schema_names_every_refusal_a_route_answers(server: Server) -> None:
    schema = server.get("/openapi.json")
    game = schema["components"]["schemas"]["TableIn"]["properties"]["game"]
    assert "pocha" in game["enum"] and "truco" in game["enum"]  # the games a table may be of
    levels = ["random", "easy", "medium", "hard", "expert"]
    assert schema["components"]["schemas"]["TableIn"]["properties"]["standby"]["enum"] == levels
    assert schema["components"]["schemas"]["SeatIn"]["properties"]["level"]["enum"] == levels
    paths = schema["paths"]
    for (method, path), codes in REFUSALS.items():
        answers = paths[path][method]["responses"]
        assert set(answers) == {"200", "422"} | codes, (method, path)
        for code in codes:
            described = answers[code]
            assert described["description"], (method, path, code)
            detail = described["content"]["application/json"]["schema"]
            assert detail == {"$ref": "#/components/schemas/Refusal"}, (method, path, code)
        if "429" in codes:
            assert "Retry-After" in answers["429"]["headers"], (method, path)


def test_games_list_every_parameter_with_its_default(server: Server) -> None:
    games = {g["name"]: g for g in server.get("/api/games")}
    assert set(games) == set(tapete.game_names())
    pocha = games["pocha"]
    assert {"name": "players", "default": 4} in pocha["params"]
    assert pocha["levels"] == ["random", "easy", "medium", "hard", "expert"]
    assert games["oh_hell"]["rules"] == "pocha"
    assert [games[n]["title"] for n in ("pocha", "oh_hell", "truco")] == [
        "Pocha",
        "Oh Hell",
        "Truco",
    ]


def test_the_lobby_lists_each_table_s_game_in_words_in_the_asked_language(
    server: Server,
) -> None:
    made = server.create("pocha", params={"schedule": "[2]", "dealer_hook": "false"})
    listed = {
        lang: {t["code"]: t for t in server.get(f"/api/tables?per_page=100&lang={lang}")["tables"]}
        for lang in ("es", "pt-BR", "xx")
    }
    assert listed["es"][made["code"]]["title"] == (
        "Pocha — tamaño de las manos: [2], gancho del que reparte: no"
    )
    assert listed["pt-BR"][made["code"]]["title"].startswith("Pocha — ")
    assert listed["xx"][made["code"]]["title"].startswith("Pocha — hand sizes: [2]")


def test_a_table_whose_spec_no_longer_loads_is_listed_by_its_spec() -> None:
    """A table stored by an older version with an option since dropped keeps the lobby up."""
    from tapete.web.api import _title

    assert _title("es", "pocha(an_old_option=1)") == "pocha(an_old_option=1)"
    assert _title("es", "pocha") == "Pocha"


def test_create_checks_the_game_and_its_seats(server: Server) -> None:
    assert status(server, "/api/tables", {"game": "poker"}) == 400
    assert status(server, "/api/tables", {"game": "pocha", "params": {"players": 9}}) == 400
    assert status(server, "/api/tables", {"game": "pocha", "seats": [{"kind": "human"}]}) == 400
    assert status(server, "/api/tables", {"game": "pocha", "standby": "genius"}) == 400
    made = server.create("pocha", params={"players": 3, "deck": 48})
    assert made["spec"] == "pocha(players=3, deck=48)" and made["seat"] == 0
    assert form_spec("pocha", {"schedule": "[1, 2]", "dealer_hook": False}) == (
        "pocha(schedule=[1, 2], dealer_hook=false)"
    )


def test_table_forms_that_could_harm_the_server_are_refused_and_make_nothing(
    server: Server,
) -> None:
    before = len(server.listed())
    for body in (
        {"game": "truco", "seed": 2**53},  # past what a browser's numbers hold exactly
        {"game": "truco", "seed": float("nan")},
        {"game": "truco", "grace": float("nan")},
        {"game": "truco", "bot_delay": float("inf")},
    ):
        assert status(server, "/api/tables", body) == 422, body
    assert status(server, "/api/players", {"name": float("nan")}) == 422
    for game, params in (
        ("pocha", {"players": "3, deck=48"}),  # one value may not set a second parameter
        ("pocha", {"players": "abc"}),
        ("truco", {"target": 10**9}),  # a match that would never end
        ("pottle", {"deals": 10**7}),
        ("poch", {"max_rounds": "none"}),
    ):
        assert status(server, "/api/tables", {"game": game, "params": params}) == 400, params
    assert len(server.listed()) == before
    with pytest.raises(tapete.SpecError, match="players: '3, deck=48' is not one value"):
        form_spec("pocha", {"players": "3, deck=48"})
    with pytest.raises(tapete.SpecError, match=r"schedule: '\[1, 2' is not a value: a number"):
        form_spec("pocha", {"schedule": "[1, 2"})  # named by the field, not by a made-up spec


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/tables", {"game": "pocha", "name": "\ud800"}, "name"),
        ("/api/tables", {"game": "pocha", "player": "\ud800"}, "player"),
        ("/api/tables", {"game": "pocha", "standby": "exec(\ud800)"}, "standby"),
        ("/api/tables", {"game": "\ud800"}, "game"),
        (
            "/api/tables",
            {"game": "pocha", "seats": [{"kind": "human", "level": "\udfff"}]},
            "level",
        ),
        ("/api/players", {"name": "Ana\ud800"}, "name"),
    ],
)
def test_text_no_utf8_holds_is_refused_naming_its_field(
    server: Server, path: str, body: dict[str, object], field: str
) -> None:
    """JSON may escape half of a UTF-16 pair: Python reads it as a lone surrogate, which no
    answer quoting it could be written in."""
    before = len(server.listed())
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post(path, body)
    assert refused.value.code == 422
    assert field in [str(part) for part in json.loads(refused.value.read())["detail"][0]["loc"]]
    assert len(server.listed()) == before


def test_a_body_that_is_no_object_is_not_told_back(server: Server) -> None:
    """A list refused whole is the client's own body, as deeply nested as it came: the answer
    names the body, and stays one any JSON reader reads (Python's stops at about a thousand
    levels)."""
    body = b"[" * 900 + b"]" * 900
    request = urllib.request.Request(
        server.url + "/api/players", body, {"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    answer = refused.value.read()
    assert refused.value.code == 422 and len(answer) < 500
    (error,) = json.loads(answer)["detail"]
    assert error["loc"] == ["body"] and "input" not in error
    # A single value stays, to say which one was refused.
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post("/api/tables", {"game": "pocha", "public": "yes"})
    (error,) = json.loads(refused.value.read())["detail"]
    assert (error["loc"], error["input"]) == (["body", "public"], "yes")


def test_a_seat_or_seed_is_a_whole_number_not_a_boolean(server: Server) -> None:
    """JSON's true and false are no numbers: read as 1 and 0 they would seat someone where they
    did not ask, or choose a seed nobody chose."""
    before = len(server.listed())
    for seed in (False, True, "7", 7.0):
        assert status(server, "/api/tables", {"game": "truco", "seed": seed}) == 422, seed
    assert len(server.listed()) == before
    made = server.create("pocha", seats=[{"kind": "human"}] * 3 + [{"kind": "bot"}])
    for seat in (True, "1", 1.0):
        assert status(server, f"/api/tables/{made['code']}/join", {"seat": seat}) == 422, seat
    assert server.get(f"/api/tables/{made['code']}")["open"] == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("public", "yes"),  # read loosely: a table meant private listed in the lobby
        ("public", "false"),
        ("public", 0),
        ("grace", "20"),
        ("turn_timer", "30"),
        ("bot_delay", "0.5"),
        ("seats", [{"kind": "human"}] + [{"kind": "bot", "level": 3}] * 3),
    ],
)
def test_a_form_value_of_the_wrong_json_type_is_refused_naming_its_field(
    server: Server, field: str, value: object
) -> None:
    """A value of the wrong JSON type is the client's mistake: 422 naming the field, and no
    table made, rather than a guess at what it meant."""
    before = len(server.listed())
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post("/api/tables", {"game": "truco", "public": True, field: value})
    assert refused.value.code == 422
    error = json.loads(refused.value.read())["detail"][0]
    assert field in [str(part) for part in error["loc"]], error
    assert len(server.listed()) == before


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/tables", {"game": "truco", "turntimer": 30}, "turntimer"),  # no clock, unsaid
        ("/api/tables", {"game": "truco", "privat": True}, "privat"),
        (
            "/api/tables",
            {"game": "truco", "seats": [{"kind": "human"}, {"kind": "bot", "levle": "hard"}]},
            "levle",
        ),
        ("/api/tables/{code}/join", {"nmae": "Bea"}, "nmae"),
        ("/api/players", {"name": "Ana", "email": "ana@example.org"}, "email"),
    ],
)
def test_a_field_the_form_does_not_have_is_refused_naming_it(
    server: Server, path: str, body: dict[str, object], field: str
) -> None:
    """A misspelt option left out without a word would make a table other than the one asked
    for (no turn timer, a public table, a medium bot): 422 naming the field, nothing made."""
    made = server.create("truco", seats=[{"kind": "human"}, {"kind": "human"}])
    before = len(server.listed())
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post(path.format(code=made["code"]), body)
    assert refused.value.code == 422
    error = json.loads(refused.value.read())["detail"][0]
    assert error["type"] == "extra_forbidden" and field in error["loc"], error
    assert len(server.listed()) == before
    assert server.get(f"/api/tables/{made['code']}")["open"] == 1  # nobody sat down


def test_an_empty_list_of_seats_is_refused_as_a_seat_count(server: Server) -> None:
    """No seats is a seat count the game does not take, not a request for the default ones."""
    before = len(server.listed())
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post("/api/tables", {"game": "pocha", "seats": []})
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["detail"] == "pocha has 4 seats, not 0"
    assert len(server.listed()) == before


def test_a_seat_the_table_does_not_have_is_refused_as_such(server: Server) -> None:
    """Seat 9 of four is no seat at all (400, saying which there are), not a seat someone else
    took (409); nothing changes."""
    made = server.create("pocha", seats=[{"kind": "human"}] * 3 + [{"kind": "bot"}])
    code = made["code"]
    for seat in (4, 9, -1, 2**40):
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.post(f"/api/tables/{code}/join", {"name": "Bea", "seat": seat})
        assert refused.value.code == 400, seat
        detail = json.loads(refused.value.read())["detail"]
        assert detail == f"there is no seat {seat}: seats are 0 to 3", detail
    assert server.get(f"/api/tables/{code}")["open"] == 2
    assert server.post(f"/api/tables/{code}/join", {"name": "Bea", "seat": 2})["seat"] == 2
    assert status(server, f"/api/tables/{code}/join", {"name": "Cai", "seat": 2}) == 409
    assert status(server, f"/api/tables/{code}/join", {"name": "Cai", "seat": 3}) == 409


def test_a_join_asked_again_with_its_key_gets_the_same_seat_and_token(server: Server) -> None:
    """The answer to a join lost on the way: the page asks again, and was refused its own
    seat (409) with no token to sit in it. With the same join key it gets that seat and the
    same token back, which plays there; another key is refused the seat, as before."""
    made = server.create("pocha", seats=[{"kind": "human"}] * 3 + [{"kind": "bot"}])
    code = made["code"]
    asked = {"name": "Bea", "seat": 1, "key": "Kq3-_" + "x" * 17}
    first = server.post(f"/api/tables/{code}/join", asked)
    assert server.post(f"/api/tables/{code}/join", asked) == first
    assert first["seat"] == 1
    assert server.get(f"/api/tables/{code}")["open"] == 1
    assert status(server, f"/api/tables/{code}/join", {**asked, "key": "y" * 22}) == 409
    assert status(server, f"/api/tables/{code}/join", {"name": "Cai", "seat": 1}) == 409
    bea = server.client()
    welcome = bea.hello(code, first["token"])
    assert welcome["seat"] == 1
    bea.close()


@pytest.mark.parametrize("key", ["short", "x" * 65, "x" * 20 + " ", "x" * 20 + "é", 12345])
def test_a_join_key_too_short_or_not_of_token_characters_is_refused_naming_it(
    server: Server, key: object
) -> None:
    """A join key is the seat's secret (the token is made from it): a few letters anyone
    could guess are refused, and nothing is taken."""
    made = server.create("pocha", seats=[{"kind": "human"}] * 3 + [{"kind": "bot"}])
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.post(f"/api/tables/{made['code']}/join", {"name": "Bea", "key": key})
    assert refused.value.code == 422
    assert "key" in [str(part) for part in json.loads(refused.value.read())["detail"][0]["loc"]]
    assert server.get(f"/api/tables/{made['code']}")["open"] == 2


def test_a_table_created_again_with_its_key_is_the_table_the_first_made(server: Server) -> None:
    """The answer to a new table lost on the way: asked again, a second table was made and
    the first one's token lost (its host seat waiting for nobody). With the same creation key
    the answer is the first table's code, seat and token, whatever the retry asks, and
    nothing more is made; another key is another table."""
    tables = len(server.app.state.rooms)
    key = "Tb1-_" + "c" * 17
    first = server.create("pocha", key=key)
    assert server.create("pocha", key=key) == first
    assert server.create("pocha", key=key, name="Bea", public=False) == first
    assert len(server.app.state.rooms) == tables + 1
    other = server.create("pocha", key="t" * 22)
    assert other["code"] != first["code"] and other["token"] != first["token"]
    ana = server.client()
    welcome = ana.hello(first["code"], first["token"])
    assert welcome["seat"] == first["seat"] == 0
    ana.close()


def test_a_player_made_again_with_its_key_is_the_player_the_first_made(server: Server) -> None:
    """The answer to a new player lost on the way: asked again, a second player was made and
    the first one's token lost. With the same creation key the answer is the first player,
    with the same token (which proves it), and nothing more is made."""
    key = "Pl2-_" + "p" * 17
    first = server.post("/api/players", {"name": "Lúcia", "key": key})
    assert server.post("/api/players", {"name": "Lúcia", "key": key}) == first
    assert server.post("/api/players", {"name": "Lu", "key": key}) == first
    me = server.get("/api/players/me", {"Authorization": f"Bearer {first['token']}"})
    assert me == {**first, "token": None}
    other = server.post("/api/players", {"name": "Lúcia", "key": "q" * 22})
    assert other["id"] != first["id"] and other["token"] != first["token"]


@pytest.mark.parametrize("key", ["short", "x" * 65, "x" * 20 + " ", "x" * 20 + "é", 12345])
def test_a_creation_key_too_short_or_not_of_token_characters_is_refused_naming_it(
    server: Server, key: object
) -> None:
    """A creation key is the table's or the player's secret (the token is made from it): a
    few letters anyone could guess are refused, and nothing is made."""
    tables = len(server.app.state.rooms)
    for path, body in (
        ("/api/tables", {"game": "pocha", "name": "Ana", "key": key}),
        ("/api/players", {"name": "Bea", "key": key}),
    ):
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.post(path, body)
        assert refused.value.code == 422, path
        loc = json.loads(refused.value.read())["detail"][0]["loc"]
        assert "key" in [str(part) for part in loc], path
    assert len(server.app.state.rooms) == tables


def test_the_lobby_says_a_person_s_own_name_as_given_whatever_it_reads_like(
    server: Server,
) -> None:
    """A person who calls himself "player 12" at a table of four (no seat there is called
    so) is listed by his own name in every language: the lobby words only the seats the
    table named itself, which it knows by their seat, not by reading English back."""
    made = server.create("pocha", name="player 12", seats=[{"kind": "human"}] * 4)
    server.post(f"/api/tables/{made['code']}/join", {"name": ""})
    table = server.get(f"/api/tables/{made['code']}?lang=es")
    assert table["humans"] == ["player 12", "jugador 2"]
    listing = server.get("/api/tables?per_page=100&lang=pt")["tables"]
    assert [t["humans"] for t in listing if t["code"] == made["code"]] == [
        ["player 12", "jogador 2"]
    ]


def test_people_of_the_same_name_at_a_table_are_told_apart(server: Server) -> None:
    """A second Ana (in any case, or in full-width letters) sits as "Ana (2)": the log's "Ana
    deals" and the score table's columns name one person each."""
    made = server.create("pocha", name="Ana", seats=[{"kind": "human"}] * 4)
    code = made["code"]
    for name in ("ana", "\uff21\uff4e\uff41", "Bea"):
        server.post(f"/api/tables/{code}/join", {"name": name})
    assert server.get(f"/api/tables/{code}")["humans"] == [
        "Ana",
        "ana (2)",
        "\uff21\uff4e\uff41 (3)",
        "Bea",
    ]
    client = server.client()
    client.hello(code)
    names = [s["name"] for s in client.expect("room")["seats"]]
    assert len({n.casefold() for n in names}) == 4, names


def test_a_name_s_pile_of_accents_is_cut_to_three_a_letter(server: Server) -> None:
    """Twenty accents on one letter are drawn over the seats and the bar above the name; a
    name's real accents (Thai's vowel and tone marks, a composed é) stay as they are."""
    piled = "Z" + "".join(chr(0x300 + i) for i in range(20)) + "oe"
    made = server.create("pocha", name=piled, seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    joined = {"name": "ที่ Jose\u0301"}
    server.post(f"/api/tables/{made['code']}/join", joined)
    assert server.get(f"/api/tables/{made['code']}")["humans"] == [
        "Z\u0300\u0301\u0302oe",
        "ที่ Jos\u00e9",
    ]
    assert server.post("/api/players", {"name": piled})["name"] == "Z\u0300\u0301\u0302oe"


def test_a_name_s_spaces_of_other_keyboards_stay_spaces(server: Server) -> None:
    """A Japanese keyboard types a full-width space between family and given name, a Mac's
    option-space a no-break space: they were dropped as unprintable, and "山田 太郎" sat as
    "山田太郎", "Ana María" as "AnaMaría". They are spaces, as the name was typed."""
    made = server.create(
        "pocha", name="山田\u3000太郎", seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2
    )
    server.post(f"/api/tables/{made['code']}/join", {"name": "Ana\u00a0Mar\u00eda"})
    assert server.get(f"/api/tables/{made['code']}")["humans"] == ["山田 太郎", "Ana María"]
    assert server.post("/api/players", {"name": "Jo\u2009Li"})["name"] == "Jo Li"
    # And an unnamed seat's name typed with one is that name: refused, as "player 3" is.
    assert status(server, f"/api/tables/{made['code']}/join", {"name": "player\u00a03"}) == 400


def test_a_name_written_with_zero_width_joiners_keeps_them_where_its_script_needs_them(
    server: Server,
) -> None:
    """Persian writes "می‌روم" with a zero-width non-joiner (without it the letters join and it
    reads as another word), Devanagari a half form with a joiner, and a joiner makes two emoji
    one picture ("👩‍💻"): they were dropped with what prints nothing. Between Latin letters a
    joiner changes nothing seen and is still dropped; and a name with a joiner and the same
    name without it are told apart as twins are."""
    persian, hindi, coder = "می\u200cروم", "क्\u200dष", "Jo 👩\u200d💻"
    made = server.create("pocha", name=persian, seats=[{"kind": "human"}] * 4)
    code = made["code"]
    for name in (hindi, coder, "میروم"):
        server.post(f"/api/tables/{code}/join", {"name": name})
    assert server.get(f"/api/tables/{code}")["humans"] == [persian, hindi, coder, "میروم (2)"]
    assert server.post("/api/players", {"name": "A\u200dna\u200c"})["name"] == "Ana"
    assert server.post("/api/players", {"name": coder})["name"] == coder


def test_a_name_the_table_gives_a_seat_is_refused_and_sits_no_one(server: Server) -> None:
    """A person named "bot 3 · hard" (or "Bot 3", or an unnamed player's "jugador 2") would be
    taken for the bot of seat 3, or for someone else: 400 naming the field, nothing changes."""
    made = server.create("pocha", seats=[{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
    code = made["code"]
    for name in ("bot 3 · hard", "Bot 4", "jugador 2", "  PLAYER 1 ", "empty seat", "lugar vago"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.post(f"/api/tables/{code}/join", {"name": name})
        assert refused.value.code == 400, name
        detail = json.loads(refused.value.read())["detail"]
        assert detail.startswith("name: ") and "choose another name" in detail, detail
    assert server.get(f"/api/tables/{code}")["open"] == 1
    assert status(server, "/api/tables", {"game": "pocha", "name": "bot 2"}) == 400
    assert server.post(f"/api/tables/{code}/join", {"name": "Bot Ana"})["seat"] == 1


def test_the_right_json_types_are_taken(server: Server) -> None:
    """What the lobby page sends: true and false, whole and decimal numbers."""
    before = len(server.listed())
    hidden = server.create("truco", public=False, grace=20, turn_timer=0, bot_delay=0.5)
    assert hidden["code"] not in {t["code"] for t in server.listed()}
    two = [{"kind": "human"}, {"kind": "human"}]
    shown = server.create("truco", seats=two, public=True, grace=12.5, seed=3)
    assert len(server.listed()) == before + 1
    assert server.post(f"/api/tables/{shown['code']}/join", {"seat": None})["seat"] == 1
    assert server.post("/api/players", {"name": "Ana"})["name"] == "Ana"


def test_a_chosen_seed_is_told_to_everyone_at_the_table(server: Server) -> None:
    made = server.create("truco", seats=[{"kind": "human"}, {"kind": "human"}], seed=42)
    assert server.get(f"/api/tables/{made['code']}")["chosen_seed"] is True
    drawn = server.create("truco", seats=[{"kind": "human"}, {"kind": "human"}])
    assert server.get(f"/api/tables/{drawn['code']}")["chosen_seed"] is False


def test_join_and_records(server: Server) -> None:
    made = server.create("pocha")
    code = made["code"]
    assert status(server, f"/api/tables/{code}/join", {"name": "Bea"}) == 409  # no free seat
    assert status(server, "/api/tables/NOPE9/join", {"name": "Bea"}) == 404
    assert status(server, f"/api/tables/{code}/records/0") == 404  # not finished
    assert server.get(f"/api/tables/{code.lower()}")["code"] == code


def test_rules_pages(server: Server) -> None:
    assert server.get("/api/rules/pocha").startswith("# ")
    assert status(server, "/api/rules/poker") == 404
    # The full reference page in the language asked; oh_hell's is Pocha's.
    assert server.get("/api/rules/oh_hell?full=true") == howto.reference("pocha")
    assert server.get("/api/rules/oh_hell?full=true&lang=es") == howto.reference("pocha", "es")


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_the_full_rules_route_serves_the_reference_in_the_pages_language(
    server: Server, lang: str
) -> None:
    url = f"{server.url}/api/rules/tute?full=true&lang={lang}-ES"
    with urllib.request.urlopen(url) as response:
        assert response.read().decode("utf-8") == howto.reference("tute", lang)
        written = response.headers["Content-Language"]
    assert written == howto.reference_language("tute", lang) == lang


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_rules_route_serves_how_to_play_in_the_pages_language(server: Server, lang: str) -> None:
    for game in ("truco", "tute"):
        assert server.get(f"/api/rules/{game}?lang={lang}") == howto.page(game, lang)
    assert server.get(f"/api/rules/truco?lang={lang}-BR") == howto.page("truco", lang)
    # A language the app does not speak gets the English page, not a refusal.
    assert server.get("/api/rules/truco?lang=fr") == howto.page("truco", "en")


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_strings_for_the_browser(server: Server, lang: str) -> None:
    got = server.get(f"/api/i18n/{lang}")
    assert set(got["ui"]) == set(strings.UI)
    assert got["lang"] == lang and got["card"]
    if lang != "en":
        assert got["ui"]["Create table"] != "Create table"
        assert got["suits"]["so"] in ("oros", "ouros") and got["rules"]["must-follow-suit"]


def test_every_browser_and_rule_string_is_translated() -> None:
    keys = (
        set(strings.UI)
        | set(strings.RULES.values())
        | set(strings.CARD_WORDS.values())
        | {"{rank} of {suit}"}
    )
    for lang in ("es", "pt"):
        missing = sorted(k for k in keys if k not in catalog(lang))
        assert missing == [], f"{lang} lacks {missing}"


def test_the_browser_only_asks_for_strings_the_server_sends() -> None:
    used = set()
    for path in STATIC.glob("*.js"):
        used |= set(re.findall(r'\bt\("([^"]+)"', path.read_text(encoding="utf-8")))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used |= set(re.findall(r'data-t="([^"]+)"', html))
    assert used and used <= set(strings.UI), sorted(used - set(strings.UI))


def test_every_rule_code_of_the_games_has_a_sentence() -> None:
    games = Path(tapete.__file__).parent / "games"
    codes = set()
    for path in games.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'IllegalActionError\(\s*"([a-z]+(?:-[a-z]+)+)"', text))
    assert codes and codes <= set(strings.RULES), sorted(codes - set(strings.RULES))


def test_every_refusal_the_server_sends_a_browser_has_a_sentence() -> None:
    """A refusal's words for people come from its rule's sentence, in the page's language: a
    code with none reached Spanish and Portuguese players in English."""
    web = Path(strings.__file__).parent
    codes = set()
    for path in web.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'\b(?:error|fail)\(\s*"([a-z]+(?:-[a-z]+)*)"', text))
        # The HTTP API's refusals: refuse(status, "rule", detail).
        codes |= set(re.findall(r'\brefuse\(\s*[^,"]+,\s*"([a-z]+(?:-[a-z]+)*)"', text))
    assert {"not-host", "no-hello", "flood", "seat-name", "no-such-match"} <= codes
    assert codes <= set(strings.RULES), sorted(codes - set(strings.RULES))


def _answers(url: str, server: subprocess.Popen[Any]) -> None:
    """Wait until the server at ``url`` answers the games list (20 s at most); its error if it
    stops first or never does."""
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/games", timeout=1) as r:
                assert r.status == 200
                return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise
            time.sleep(0.1)


def test_tapete_serve_starts_the_app(tmp_path: Path) -> None:
    """With no --db, tables go to an SQLite file in the user data folder (here a temporary one)."""
    import os
    import subprocess
    import sys

    from webclient import free_port

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", "serve", "--port", str(port)],
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _answers(f"http://127.0.0.1:{port}", server)
    finally:
        server.terminate()
        _, err = server.communicate(timeout=10)
    assert f"serving on http://127.0.0.1:{port}" in err.decode()
    assert (tmp_path / "tapete" / "tapete.db").is_file()


def _serving(tmp_path: Path, *options: str) -> subprocess.Popen[str]:
    """``tapete serve`` with ``options``, keeping nothing (``--db memory``), bots thinking in its
    threads; its standard error to read as text."""
    command = ["serve", *options, "--db", "memory", "--bot-processes", "0"]
    return subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", *command],
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_tapete_serve_on_port_0_says_the_free_port_it_was_given_and_serves_there(
    tmp_path: Path,
) -> None:
    """--port 0 asks the system for any free port: the server said "serving on
    http://127.0.0.1:0", a link that leads nowhere. It says the port it listens on."""
    server = _serving(tmp_path, "--port", "0")
    try:
        assert server.stderr is not None
        said = server.stderr.readline()
        found = re.fullmatch(r"tapete: serving on (http://127\.0\.0\.1:(\d+))\n", said)
        assert found is not None and int(found.group(2)) > 0, said
        _answers(found.group(1), server)
    finally:
        server.terminate()
        server.communicate(timeout=10)


def test_serving_every_interface_says_the_address_others_on_the_network_open(
    tmp_path: Path,
) -> None:
    """A club's phones cannot open 127.0.0.1, and the links a table shares name the address its
    page was opened at: listening on every interface, tapete serve prints the machine's address
    on its network, and that address serves the app."""
    from tapete.cli import _network_address
    from webclient import free_port

    if _network_address() is None:
        pytest.skip("this machine has no network address to print")
    port = free_port()
    server = _serving(tmp_path, "--host", "0.0.0.0", "--port", str(port))
    try:
        assert server.stderr is not None
        assert server.stderr.readline() == f"tapete: serving on http://0.0.0.0:{port}\n"
        said = server.stderr.readline()
        found = re.match(r"tapete: on this network, open (http://[0-9.]+:\d+) \(", said)
        assert found is not None, said
        assert not found.group(1).startswith("http://127.")
        _answers(found.group(1), server)
    finally:
        server.terminate()
        server.communicate(timeout=10)
