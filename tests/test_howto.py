"""The how-to pages: one per rules module and language, in the shared format, telling tapete's
defaults; and the fallbacks of ``tapete.howto.page``."""

from __future__ import annotations

import dataclasses
import importlib
import re
from importlib import resources
from pathlib import Path

import pytest

from tapete import howto
from tapete.games import ENTRIES
from tapete.i18n import LANGUAGES

PAGES = resources.files("tapete") / "howto"

# A number each game's pages must state, in every language: the default that decides a match.
KEY_NUMBERS = {"truco": "12", "tute": "120", "pocha": "40", "poch": "10", "pottle": "20"}


def default_players(module: str) -> int:
    params = importlib.import_module(f"tapete.games.{module}").Params
    fields = {f.name: f for f in dataclasses.fields(params)}
    value = fields["players"].default
    assert isinstance(value, int)
    return value


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("module", howto.MODULES)
def test_every_module_has_a_how_to_page_in_every_language_in_the_shared_format(
    module: str, lang: str
) -> None:
    file = PAGES / f"{module}.{lang}.md"
    assert file.is_file(), f"no how-to page {module}.{lang}.md"
    text = file.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[0].startswith("# ") and not lines[0].startswith("## ")
    assert not lines[1].startswith("#")  # the one-sentence summary under the title
    sections = [line for line in lines if line.startswith("## ")]
    assert len(sections) >= 5, sections
    assert 350 <= len(text.split()) <= 700, len(text.split())
    assert "```" not in text and ">>>" not in text  # no code blocks, no doctests
    assert "[TEXT]" not in text and "[REF]" not in text and "[DECISION]" not in text
    # No links but the last line's pointer to the full reference.
    assert "](" not in text and "http" not in text
    assert f"tapete rules {module} --full" in lines[-1]
    assert f"players={default_players(module)}" in text  # the options, with tapete's defaults
    assert KEY_NUMBERS[module] in text


def test_the_pages_are_only_the_modules_and_languages_tapete_has() -> None:
    names = {p.name for p in PAGES.iterdir() if p.name.endswith(".md")}
    wanted = {f"{m}.{lang}.md" for m in howto.MODULES for lang in LANGUAGES}
    assert names <= wanted, names - wanted


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_reads_the_page_of_that_language(lang: str) -> None:
    text = howto.page("truco", lang)
    assert text == (PAGES / f"truco.{lang}.md").read_text(encoding="utf-8")
    options = {"en": "## Options", "es": "## Opciones", "pt": "## Opções"}[lang]
    assert options in text


def test_a_missing_language_falls_back_to_english_then_to_the_reference(tmp_path: Path) -> None:
    (tmp_path / "tute.en.md").write_text("# Tute\n\nin English\n", encoding="utf-8")
    assert howto.page("tute", "es", pages=tmp_path) == "# Tute\n\nin English\n"
    # No how-to page at all: the full reference, in the language asked when it has one.
    assert howto.page("truco", "pt", pages=tmp_path) == howto.reference("truco", "pt")
    assert "## Glossary" in howto.reference("truco")


RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("module", howto.MODULES)
def test_reference_reads_the_full_page_of_the_language_asked(module: str, lang: str) -> None:
    name = f"{module}.md" if lang == "en" else f"{module}.{lang}.md"
    assert (RULES / name).is_file(), f"no reference page {name}"
    assert howto.reference(module, lang) == (RULES / name).read_text(encoding="utf-8")
    assert howto.reference_language(module, lang) == lang
    assert howto.reference(module) == (RULES / f"{module}.md").read_text(encoding="utf-8")


def test_a_reference_page_missing_in_a_language_falls_back_to_english(tmp_path: Path) -> None:
    (tmp_path / "tute.md").write_text("# Tute\n\nin English\n", encoding="utf-8")
    (tmp_path / "tute.pt.md").write_text("# Tute\n\nem português\n", encoding="utf-8")
    assert howto.reference("tute", "es", pages=tmp_path) == "# Tute\n\nin English\n"
    assert howto.reference_language("tute", "es", pages=tmp_path) == "en"
    assert howto.reference("tute", "pt", pages=tmp_path) == "# Tute\n\nem português\n"
    assert howto.reference_language("tute", "pt", pages=tmp_path) == "pt"
    # No page in any language: the rules class's docstring, which is English.
    assert howto.reference("truco", "es", pages=tmp_path) == ENTRIES["truco"].rules().__doc__
    assert howto.reference_language("truco", "es", pages=tmp_path) == "en"
    with pytest.raises(ValueError, match="lang: 'fr'"):
        howto.reference("tute", "fr")


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"^```.*?^```$", text, flags=re.M | re.S)


def _shape(text: str) -> list[str]:
    """A page's skeleton: its headings' levels, its table rows' column counts, its list items."""
    shape = []
    for line in re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S).splitlines():
        if line.startswith("#"):
            shape.append(line.split(" ")[0])
        elif line.lstrip().startswith("|"):
            shape.append(f"|{line.count('|')}")
    return shape


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("module", howto.MODULES)
def test_a_translated_reference_keeps_the_english_pages_code_and_shape(
    module: str, lang: str
) -> None:
    # The code blocks run as doctests and the numbers are the rules: a translation changes
    # the words only, never an example, a heading's place or a table's columns.
    english = (RULES / f"{module}.md").read_text(encoding="utf-8")
    translated = (RULES / f"{module}.{lang}.md").read_text(encoding="utf-8")
    assert _code_blocks(translated) == _code_blocks(english)
    assert _shape(translated) == _shape(english)
    assert re.findall(r"\]\(([^)]+)\)", translated) == re.findall(r"\]\(([^)]+)\)", english)


def test_a_module_or_language_tapete_has_not_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="module: 'poker'"):
        howto.page("poker", "en")
    with pytest.raises(ValueError, match="lang: 'fr'"):
        howto.page("truco", "fr")
    with pytest.raises(ValueError, match="module: 'oh_hell'"):
        howto.reference("oh_hell")  # a game, not a module: module_of says which page
    assert howto.module_of("oh_hell") == "pocha"
