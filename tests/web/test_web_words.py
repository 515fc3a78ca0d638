"""The web app's words: every rule option has a label and help in every language, every game
its description, Truco's calls their names, and one function names the seats everywhere."""

from __future__ import annotations

import dataclasses

import pytest

import tapete
from tapete.games import ENTRIES
from tapete.i18n import LANGUAGES, catalog
from tapete.narrate import line, seat_name, step_entries
from tapete.web.strings import PARAMS, option_words, strings
from webclient import Server


def _options() -> set[str]:
    names = set()
    for game in tapete.game_names():
        names |= {f.name for f in dataclasses.fields(tapete.load(game).params)}
    return names


def test_every_rule_option_of_every_game_has_a_label_and_help_in_every_language() -> None:
    missing = sorted(_options() - set(PARAMS))
    assert missing == [], f"options without a label: {missing}"
    for name in _options():
        label, help_text = PARAMS[name]
        assert label and help_text and "_" not in label, name
        for lang in LANGUAGES[1:]:
            assert label in catalog(lang) and help_text in catalog(lang), (lang, name)
            words = option_words(lang, name)
            assert words["label"] != name and "_" not in words["label"], (lang, words)
    assert option_words("es", "dealer_hook") == {
        "label": "gancho del que reparte",
        "help": "el que reparte no puede pedir de modo que lo pedido sume las bazas de la mano",
    }


def test_the_iron_hand_s_help_says_when_it_comes_whatever_the_target() -> None:
    """The lobby sets target beside iron_hand_blind: the help names the iron hand by the target,
    not by the 11 points of a game to 12 alone."""
    said = {lang: option_words(lang, "iron_hand_blind")["help"] for lang in LANGUAGES}
    assert "one point from the target" in said["en"]
    assert "falta un punto para ganar" in said["es"]
    assert "falta um ponto" in said["pt"]


def test_every_game_description_is_translated() -> None:
    for lang in LANGUAGES[1:]:
        for name, entry in ENTRIES.items():
            assert entry.summary in catalog(lang), (lang, name)
        sent = strings(lang)["games"]
        assert set(sent) == set(ENTRIES)
        assert all(sent[name] != ENTRIES[name].summary for name in ENTRIES)


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_the_lobby_strings_carry_options_and_descriptions(server: Server, lang: str) -> None:
    got = server.get(f"/api/i18n/{lang}")
    assert got["params"]["dealer_hook"]["label"] == catalog(lang)["dealer's hook"]
    assert got["games"]["truco"] == catalog(lang)[ENTRIES["truco"].summary]


def test_truco_s_log_names_every_call() -> None:
    game = tapete.load("truco")
    state = game.new_state(5)
    names = ["Ana", "Bea"]
    said: list[str] = []
    while len(said) < 4:
        legal = {game.format_action(a): a for a in game.legal_actions(state)}
        chosen = legal.get("raise", legal.get("accept"))
        assert chosen is not None, legal
        seat = game.current_player(state)
        assert seat is not None
        after = game.apply(state, chosen)
        if game.format_action(chosen) == "raise":
            entries = step_entries(game, seat, chosen, state, after)
            said.append(line("en", entries[0], names))
        state = after
    assert [s.split(" ", 2)[2] for s in said] == ["truco!", "seis!", "nove!", "doze!"]
    assert said[0] == "Ana calls truco!"
    ask = {"kind": "ask", "seat": 1, "n": 9}
    assert line("es", ask, names) == "Bea canta ¡nove!"
    assert line("pt", ask, names) == "Bea pede nove!"


def test_one_function_names_seats_at_the_table_and_in_the_record(server: Server) -> None:
    made = server.create(
        "pocha",
        params={"schedule": "[1]"},
        seats=[{"kind": "human"}, *[{"kind": "bot", "level": "medium"}] * 3],
    )
    room = server.app.state.rooms.get(made["code"])
    assert room is not None
    assert room.names("en")[1] == seat_name("en", 1, "bot", level="medium") == "bot 2 · medium"
    assert room.names("es")[2] == "bot 3 · medio"
    record = room.record()
    assert [s.name for s in record.seats][1:] == room.names("en")[1:]


def test_one_chip_is_one_chip_in_the_log() -> None:
    meld = {"kind": "meld", "seat": 0, "bowl": "ace", "n": 1}
    assert line("en", meld, ["Ana"]) == "Ana takes the ace bowl: 1 chip"
    assert line("es", {**meld, "n": 3}, ["Ana"]).endswith(": 3 fichas")
    assert line("pt", {"kind": "buy", "seat": 0, "n": 1}, ["Ana"]) == "Ana compra 1 ficha"


def test_no_two_options_of_a_game_share_a_label_in_any_language() -> None:
    """Poch's lobby offered "rodada: five" (how the cards are dealt) beside "rodadas:
    until_one_left" and "máximo de rodadas": in Portuguese a deal and a round are both rodada."""
    for game in tapete.game_names():
        options = sorted(f.name for f in dataclasses.fields(tapete.load(game).params))
        for lang in LANGUAGES:
            # a word and its plural are one word here: "rodada" and "rodadas"
            labels = [option_words(lang, o)["label"].rstrip("s") for o in options]
            assert len(set(labels)) == len(labels), (game, lang, labels)
    assert option_words("pt", "deal")["label"] == "cartas distribuídas"
