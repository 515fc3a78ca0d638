"""The project speaks of itself only: its package, docs, README and tests never cite the team's
design notes outside the repository (users do not have them); the rules pages state each rule
and cite public sources instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE_NOTES = ("RULES" + ".md", "DESIGN" + ".md")  # spelled apart so this file passes too
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".js", ".html", ".css", ".tcss", ".json", ".po"}


def shipped_text_files() -> list[Path]:
    roots = [ROOT / "src" / "tapete", ROOT / "docs", ROOT / "tests"]
    files = [ROOT / "README.md"]
    for root in roots:
        files += [p for p in root.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES]
    return sorted(files)


def test_there_are_files_to_check() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in shipped_text_files()}
    assert {"README.md", "docs/rules/pocha.md", "src/tapete/games/pocha.py"} <= names


@pytest.mark.parametrize("note", OUTSIDE_NOTES)
def test_no_file_cites_the_design_notes(note: str) -> None:
    citing = [
        p.relative_to(ROOT).as_posix()
        for p in shipped_text_files()
        if note.lower() in p.read_text(encoding="utf-8", errors="replace").lower()
    ]
    assert citing == [], f"{note} is cited by {citing}"


def test_rules_pages_and_game_modules_use_no_section_numbers_of_a_brief() -> None:
    pages = [*(ROOT / "docs" / "rules").glob("*.md"), *(ROOT / "src/tapete/games").glob("*.py")]
    citing = [p.name for p in pages if "§" in p.read_text(encoding="utf-8")]
    assert citing == []


PAGES = [
    ROOT / "README.md",
    ROOT / "benchmarks" / "README.md",
    *sorted(ROOT.glob("docs/**/*.md")),
    *sorted(ROOT.glob("tests/**/README.md")),
]


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    text = page.read_text(encoding="utf-8")
    headings = re.findall(r"^#+\s+(.+?)\s*$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_link_between_the_pages_finds_its_file_and_heading(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if link.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists() or (anchor and not (target.is_file() and anchor in anchors(target))):
            broken.append(link)
    assert broken == []
