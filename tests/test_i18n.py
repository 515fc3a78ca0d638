"""Every message the presenters and apps translate has a Spanish and a Portuguese entry."""

from __future__ import annotations

import ast
from pathlib import Path

import tapete
from tapete.i18n import LANGUAGES, catalog, tr

SRC = Path(tapete.__file__).parent


def literal_keys() -> set[str]:
    keys = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                keys.add(node.args[1].value)
    return keys


def test_every_translated_literal_is_in_every_catalog() -> None:
    keys = literal_keys()
    assert keys
    for lang in LANGUAGES[1:]:
        missing = sorted(k for k in keys if k not in catalog(lang))
        assert missing == [], f"{lang} lacks {missing}"


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    es, pt = catalog("es"), catalog("pt")
    assert set(es) == set(pt)
    for key in es:
        for lang in ("es", "pt"):
            assert sorted(_fields(catalog(lang)[key])) == sorted(_fields(key)), (lang, key)


def _fields(template: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def test_region_tags_and_fallback() -> None:
    assert tr("pt-BR", "trump") == "trunfo"
    assert tr("fr", "trump") == "trump"
    assert tr("es", "never translated") == "never translated"
