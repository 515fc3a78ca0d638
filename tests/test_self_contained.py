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


def documented_names() -> dict[str, set[str]]:
    """Each ``tapete.…`` name the pages show in code, with the pages that show it; not the files
    named like the package (``tapete.db``, its ``tapete.db.lock``)."""
    names: dict[str, set[str]] = {}
    for page in PAGES:
        for name in re.findall(r"`(tapete(?:\.\w+)+)", page.read_text(encoding="utf-8")):
            if not name.startswith("tapete.db"):
                names.setdefault(name, set()).add(page.relative_to(ROOT).as_posix())
    return names


def test_every_module_function_and_class_the_pages_name_is_there() -> None:
    import importlib

    names = documented_names()
    assert len(names) > 50
    missing = []
    for name in sorted(names):
        parts = name.split(".")
        for split in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:split]))
            except ModuleNotFoundError as exc:
                if exc.name is not None and not exc.name.startswith("tapete"):
                    pytest.skip(f"{name} needs {exc.name}, an extra not installed")
                continue
            break
        for attribute in parts[split:]:
            found = getattr(found, attribute, None)
        if found is None:
            missing.append((name, sorted(names[name])))
    assert missing == []


def test_every_file_of_the_repository_the_pages_name_in_code_is_there() -> None:
    """``tests/…``, ``src/…``, ``benchmarks/…``, ``examples/…`` and ``docs/…`` in code: not
    patterns (``docs/rules/<game>.md``, ``*.jsonl``), which name no one file."""
    named = re.compile(r"`((?:tests|src|benchmarks|examples|docs)/[\w./=-]+)`")
    assert sum(len(named.findall(page.read_text(encoding="utf-8"))) for page in PAGES) > 50
    missing = [
        (page.relative_to(ROOT).as_posix(), path)
        for page in PAGES
        for path in named.findall(page.read_text(encoding="utf-8"))
        if not (ROOT / path).exists()
    ]
    assert missing == []
