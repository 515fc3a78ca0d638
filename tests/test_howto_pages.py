"""The how-to pages of Pocha (with Oh Hell), Poch and Pottle: a short page per language for
players new to the game, in one shared format, telling tapete's default rules with the numbers
the game modules actually use.

The format: ``# <Game name>``, a one-sentence summary, then the sections in a fixed order with
their headings in the page's language; 350 to 700 words; plain Markdown without code blocks,
source tags or links, except a last line pointing to the full reference.
"""

from __future__ import annotations

import dataclasses
import re
from importlib import resources

import pytest

import tapete
from tapete.games import poch, pocha, pottle

MODULES = ("pocha", "poch", "pottle")
LANGS = ("en", "es", "pt")
TITLES = {"pocha": "Pocha", "poch": "Poch", "pottle": "Pottle"}

# The sections, in order; None stands for the game's own decision (bidding, betting, auction).
_ORDER: dict[str, tuple[str | None, ...]] = {
    "en": (
        "The cards",
        "The deal",
        None,
        "Playing the cards",
        "Scoring",
        "Winning the match",
        "Options",
    ),
    "es": (
        "Las cartas",
        "El reparto",
        None,
        "El juego de las cartas",
        "La puntuación",
        "Ganar la partida",
        "Opciones",
    ),
    "pt": (
        "As cartas",
        "A distribuição",
        None,
        "Jogando as cartas",
        "A pontuação",
        "Vencendo a partida",
        "Opções",
    ),
}
_DECISION = {
    "pocha": {"en": "Bidding", "es": "Pedir las bazas", "pt": "Os pedidos"},
    "poch": {"en": "Betting", "es": "Las apuestas", "pt": "As apostas"},
    "pottle": {"en": "The auction", "es": "La subasta", "pt": "O leilão"},
}
# The English name of each section, to find it in any language.
_KEYS = ("cards", "deal", "decision", "play", "scoring", "winning", "options")

PAGES = [(module, lang) for module in MODULES for lang in LANGS]


def page(module: str, lang: str) -> str:
    """The page as the package ships it."""
    return (resources.files("tapete") / "howto" / f"{module}.{lang}.md").read_text(encoding="utf-8")


def headings(module: str, lang: str) -> list[str]:
    return [_DECISION[module][lang] if h is None else h for h in _ORDER[lang]]


def section(module: str, lang: str, key: str) -> str:
    """The text of one section (by its English key), heading excluded."""
    text = page(module, lang)
    title = headings(module, lang)[_KEYS.index(key)]
    start = text.index(f"\n## {title}\n") + len(title) + 5
    end = text.find("\n## ", start)
    return text[start:] if end < 0 else text[start:end]


def numbers(text: str) -> list[str]:
    """The numbers a text states, as written (a minus sign kept: −5 is not 5)."""
    return re.findall(r"[−-]?\d+", text)


def mentions(text: str, *values: int) -> bool:
    said = set(numbers(text))
    return all(str(v).replace("-", "−") in said for v in values)


@pytest.mark.parametrize(("module", "lang"), PAGES)
def test_a_page_has_the_title_a_one_sentence_summary_and_the_sections_in_order(
    module: str, lang: str
) -> None:
    text = page(module, lang)
    blocks = text.split("\n\n")
    assert blocks[0] == f"# {TITLES[module]}"
    summary = blocks[1]
    assert "\n" not in summary and summary.endswith(".")
    assert not re.search(r"[.!?] \S", summary), f"the summary is one sentence: {summary}"
    found = [line for line in text.splitlines() if line.startswith("#")]
    assert found == [f"# {TITLES[module]}", *(f"## {h}" for h in headings(module, lang))]


@pytest.mark.parametrize(("module", "lang"), PAGES)
def test_a_page_is_short_plain_markdown_with_only_the_reference_as_a_pointer(
    module: str, lang: str
) -> None:
    text = page(module, lang)
    assert 350 <= len(text.split()) <= 700
    assert "```" not in text and "~~~" not in text
    assert not re.search(r"\[(TEXT|REF|DECISION|IMPL)", text), "no source tags"
    *body, last = text.rstrip("\n").splitlines()
    assert not any("http" in line or "](" in line or "docs/" in line for line in body)
    # The full reference of the page's own language: docs/rules/<module>.md is the English one.
    reference = f"docs/rules/{module}.md" if lang == "en" else f"docs/rules/{module}.{lang}.md"
    assert f"`tapete rules {module} --full`" in last and reference in last


def _written(value: object) -> str:
    """A parameter value as a spec writes it: true, none, up_and_down, 4."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


@pytest.mark.parametrize(("module", "lang"), PAGES)
def test_the_options_are_the_game_parameters_with_their_defaults(module: str, lang: str) -> None:
    defaults = tapete.load(module).params
    fields = {f.name for f in dataclasses.fields(defaults)}
    lines = [line for line in section(module, lang, "options").splitlines() if line.startswith("-")]
    assert len(lines) >= 7
    for line in lines:
        match = re.match(r"- `(\w+)=([^`]+)`: \S", line)
        assert match, f"an option line is - `name=default`: what it does ({line})"
        name, value = match.groups()
        assert name in fields, f"{name} is no parameter of {module}"
        assert value == _written(getattr(defaults, name)), f"{name}'s default is not {value}"


@pytest.mark.parametrize("module", MODULES)
def test_the_three_languages_state_the_same_numbers(module: str) -> None:
    en = sorted(numbers(page(module, "en")))
    assert sorted(numbers(page(module, "es"))) == en
    assert sorted(numbers(page(module, "pt"))) == en


@pytest.mark.parametrize("lang", LANGS)
def test_pocha_pages_tell_the_default_deck_hands_and_scores(lang: str) -> None:
    params = pocha.Params()
    hands = pocha.schedule_of(params)
    three = pocha.deck(pocha.Params(players=3)).size
    assert mentions(section("pocha", lang, "cards"), pocha.deck(params).size, three)
    assert mentions(section("pocha", lang, "deal"), params.players, max(hands), len(hands))
    exact, per_trick = pocha.hand_score(params, 0, 0), pocha.hand_score(params, 1, 1)
    examples = pocha.hand_score(params, 3, 3), pocha.hand_score(params, 1, 3)
    scoring = section("pocha", lang, "scoring")
    assert mentions(scoring, exact, per_trick - exact, pocha.hand_score(params, 1, 0), *examples)


@pytest.mark.parametrize("lang", LANGS)
def test_the_oh_hell_paragraph_tells_its_deck_players_and_bonus(lang: str) -> None:
    oh_hell = tapete.load("oh_hell").params
    assert isinstance(oh_hell, pocha.Params)
    told = [p for p in section("pocha", lang, "options").split("\n\n") if "`oh_hell`" in p]
    assert len(told) == 1
    bonus = pocha.hand_score(oh_hell, 0, 0)
    assert mentions(told[0], pocha.deck(oh_hell).size, oh_hell.max_players, bonus)


@pytest.mark.parametrize("lang", LANGS)
def test_poch_pages_tell_the_chips_the_deck_and_the_round_limit(lang: str) -> None:
    params = poch.Params()
    assert mentions(section("poch", lang, "cards"), params.chips, poch.deck(params).size)
    rounds = poch._max_rounds(params)  # the cap the match ends at: 10 rounds a player
    assert mentions(section("poch", lang, "winning"), rounds, rounds // params.players)


@pytest.mark.parametrize("lang", LANGS)
def test_pottle_pages_tell_the_bankroll_the_hand_and_the_deals(lang: str) -> None:
    params = pottle.Params()
    deals, extra, same = pottle._limits(params)
    assert mentions(section("pottle", lang, "cards"), params.bankroll, params.players)
    assert mentions(section("pottle", lang, "deal"), pottle.HAND)
    assert mentions(section("pottle", lang, "decision"), pottle.HAND, same)
    assert mentions(section("pottle", lang, "winning"), deals, params.players)
    assert extra == params.players  # the page says: at most as many extra deals as players
