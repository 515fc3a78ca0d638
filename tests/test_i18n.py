"""Every message the presenters and apps translate has a Spanish and a Portuguese entry."""

from __future__ import annotations

import ast
from pathlib import Path

import tapete
from tapete.i18n import LANGUAGES, RULES, catalog, rule_text, tr

SRC = Path(tapete.__file__).parent


def literal_keys() -> set[str]:
    """The messages translated by ``tr(lang, "...")`` and the bots' ``Reason("...")`` (the
    narrator words them in every language)."""
    keys = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "tr" and len(node.args) >= 2:
                keys |= _texts(node.args[1])
            elif node.func.id == "Reason" and node.args:
                keys |= _texts(node.args[0])
    return keys


def _texts(node: ast.expr) -> set[str]:
    """The string literals an argument can be (``"a" if x else "b"`` is both)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _texts(node.body) | _texts(node.orelse)
    return set()


def test_every_bot_reason_is_a_message_in_every_catalog() -> None:
    from tapete.bots import Move, Reason
    from tapete.narrate import reason_words

    keys = literal_keys()
    assert "expects about {n:.1f} tricks" in keys and "ducks" in keys
    reason = Reason("{move} then {plan}", move=Move("bid 2"), plan=Reason("ducks"))
    assert str(reason) == "bid 2 then ducks"
    assert reason_words("es", reason) == "pedir 2, después se escapa"
    assert reason_words("pt", reason) == "pedir 2, depois foge da vaza"


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


def test_every_rule_an_engine_refuses_by_has_a_sentence_in_every_language() -> None:
    """A refusal is told in the table's language by its rule code: a code with no sentence is
    told in English whatever the language (Poch's "shedding" was)."""
    codes = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalActionError":
                codes |= _texts(node.args[0]) if node.args else set()
    assert {"must-follow-suit", "shedding"} <= codes
    assert sorted(codes - set(RULES)) == []
    for lang in LANGUAGES[1:]:
        for code in codes:
            assert rule_text(lang, code, "the engine's sentence") != "the engine's sentence"
