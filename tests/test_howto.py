"""The how-to pages: one per rules module and language, in the shared format, telling tapete's
defaults; and the fallbacks of ``tapete.howto.page``."""

from __future__ import annotations

import dataclasses
import importlib
from importlib import resources
from pathlib import Path

import pytest

from tapete import howto
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
    assert howto.page("truco", "pt", pages=tmp_path) == howto.reference("truco")
    assert "## Glossary" in howto.reference("truco")


def test_a_module_or_language_tapete_has_not_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="module: 'poker'"):
        howto.page("poker", "en")
    with pytest.raises(ValueError, match="lang: 'fr'"):
        howto.page("truco", "fr")
    with pytest.raises(ValueError, match="module: 'oh_hell'"):
        howto.reference("oh_hell")  # a game, not a module: module_of says which page
    assert howto.module_of("oh_hell") == "pocha"
