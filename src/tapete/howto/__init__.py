"""How to play: a short page per game module and language, for a person who has never played.

The pages are package data, ``tapete/howto/<module>.<lang>.md``: one per rules module (``pocha``
covers Pocha and Oh Hell) in English, Spanish and Brazilian Portuguese. Each tells tapete's
default rules in plain words, with the options a player meets in the lobby. The full reference
(``reference``) is ``docs/rules/<module>.md`` in English and ``docs/rules/<module>.<lang>.md`` in
Spanish and Brazilian Portuguese (the same page, code and numbers, translated), shipped in the
wheel as ``tapete/docs/rules``; a language without its page gets the English one.

>>> from tapete import howto
>>> howto.page("truco", "pt").splitlines()[0]
'# Truco Paulista'
>>> howto.reference("tute", "es").splitlines()[0]
'# Tute para 2 y 4 jugadores — las reglas tal como están implementadas'
>>> howto.reference_language("tute", "es")
'es'
>>> howto.module_of("oh_hell")
'pocha'
>>> howto.page("tute", "fr")
Traceback (most recent call last):
...
ValueError: lang: 'fr' is not one of en, es, pt
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from tapete.games import ENTRIES
from tapete.i18n import LANGUAGES

__all__ = ["MODULES", "module_of", "page", "reference", "reference_language"]

MODULES = ("pocha", "tute", "truco", "poch", "pottle")
"""The rules modules that have a page; a game's is ``module_of(game)``."""


def module_of(game: str) -> str:
    """The rules module of a registered game (``oh_hell`` is played by ``pocha``); KeyError for a
    name that is no game."""
    return ENTRIES[game].module.rsplit(".", 1)[-1]


def _check(module: str, lang: str) -> None:
    if module not in MODULES:
        raise ValueError(f"module: {module!r} is not one of {', '.join(MODULES)}")
    if lang not in LANGUAGES:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGUAGES)}")


def _packaged(*parts: str) -> str | None:
    item = resources.files("tapete").joinpath(*parts)
    return item.read_text(encoding="utf-8") if item.is_file() else None


def page(module: str, lang: str, pages: Traversable | Path | None = None) -> str:
    """The how-to page of ``module`` in ``lang``, from ``pages`` (the package's by default);
    the English page when that language has none, and the full reference (in ``lang`` if it has
    one) when there is no page at all. A module or language tapete does not have is a ValueError
    naming it."""
    _check(module, lang)
    folder = resources.files("tapete") / "howto" if pages is None else pages
    for tried in dict.fromkeys((lang, "en")):
        item = folder / f"{module}.{tried}.md"
        if item.is_file():
            return item.read_text(encoding="utf-8")
    return reference(module, lang)


def _reference_file(module: str, lang: str, pages: Traversable | Path | None) -> str | None:
    """The reference page of ``module`` written in ``lang`` (``<module>.md`` in English,
    ``<module>.<lang>.md`` otherwise) from ``pages``, by default the copy in the wheel, else the
    repository's ``docs/rules`` (a source checkout); None when there is none."""
    name = f"{module}.md" if lang == "en" else f"{module}.{lang}.md"
    if pages is None:
        text = _packaged("docs", "rules", name)
        if text is not None:
            return text
        pages = Path(__file__).resolve().parents[3] / "docs" / "rules"
    item = pages / name
    return item.read_text(encoding="utf-8") if item.is_file() else None


def reference_language(
    module: str, lang: str = "en", pages: Traversable | Path | None = None
) -> str:
    """The language ``reference(module, lang, pages)`` is written in: ``lang`` when that page
    exists, else ``en`` (the English page, or the rules class's docstring)."""
    _check(module, lang)
    return lang if _reference_file(module, lang, pages) is not None else "en"


def reference(module: str, lang: str = "en", pages: Traversable | Path | None = None) -> str:
    """The full rules page of ``module`` as implemented, in ``lang`` when it has one and in
    English otherwise, from ``pages``: by default the copy in the wheel, else the repository's
    ``docs/rules`` (a source checkout). With no page at all, the rules class's docstring. A
    module or language tapete does not have is a ValueError naming it."""
    _check(module, lang)
    for tried in dict.fromkeys((lang, "en")):
        text = _reference_file(module, tried, pages)
        if text is not None:
            return text
    rules = next(e for n, e in ENTRIES.items() if module_of(n) == module).rules()
    return rules.__doc__ or f"no rules page for {module}"
