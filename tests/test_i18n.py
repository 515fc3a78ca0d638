"""Every message the presenters and apps translate has a Spanish and a Portuguese entry."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import tapete
from tapete import howto
from tapete.i18n import LANGUAGES, LEVEL_HELP, RULES, catalog, level_help, number, rule_text, tr

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


# The modules whose refusals people meet in the lobby form, the table app and ``tapete play``,
# and those of a match record file that ``tapete replay``/``analyze``/``play --resume`` and the
# table app's saved matches cannot read, replay or resume (``RecordError``).
PEOPLE = (
    "game.py",
    "games",
    "cli.py",
    "record.py",
    "match.py",
    "players.py",
    "outside.py",
    "bots/__init__.py",
    "rl/policy.py",
    "web/api.py",
    "web/rooms.py",
    "tui",
    "client.py",
    "joinprompt.py",
)
# Refusals of commands that take no --lang (tapete serve, bench): said in English.
ENGLISH_ONLY = {
    "--compare-openspiel takes a spec, e.g. 'pocha(players=4, schedule=9)'",
    "--workers: several processes share tables through --redis redis://…",
    # A Recorder fed out of order: the engine's mistake, never a file's.
    "no deal has started",
    "a {kind} event came before any deal",
}
# The calls whose first words are a refusal's template (``check``: its fourth, what a rule
# option accepts).
REFUSALS = {
    "SpecError": 0,
    "RecordError": 0,
    "Phrase": 0,
    "check": 3,
    "JoinError": 0,
    "NotSentError": 0,
}


def refusal_templates() -> set[str]:
    """The templates of the refusals the ``PEOPLE`` modules raise: a ``SpecError``'s or a
    ``RecordError``'s message, a ``Phrase``'s text and what ``check`` says a rule option
    accepts, as literals or as the module's constants (``ACCEPTED``)."""
    import importlib

    found = set()
    for part in PEOPLE:
        paths = sorted((SRC / part).rglob("*.py")) if (SRC / part).is_dir() else [SRC / part]
        for path in paths:
            module = importlib.import_module(_module_name(path))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                at = REFUSALS.get(_called(node))
                if at is None or len(node.args) <= at:
                    continue
                arg = node.args[at]
                found |= _texts(arg)
                root = arg.value if isinstance(arg, ast.Attribute) else arg
                if isinstance(root, ast.Name) and root.id in vars(module):  # not a local
                    value = eval(ast.unparse(arg), vars(module))  # a module's constant
                    found |= {value} if isinstance(value, str) else set()
    return found


def _called(node: ast.Call) -> str:
    return str(getattr(node.func, "id", getattr(node.func, "attr", "")))


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_refusal_a_person_meets_has_a_sentence_in_every_language() -> None:
    """A refused game spec, rule option or seat is told in the person's language: a template a
    catalog lacks is told in English whatever the language."""
    # A server's refusal, passed on by tapete join: the server said it in the person's language.
    templates = refusal_templates() - ENGLISH_ONLY - {"{detail}"}
    assert "{name}={value} is not accepted: {accepted}" in templates  # check's, a constant
    assert "{low}–{high} (min_players=2 allows 2)" in templates  # Pocha's, a literal
    assert "{low}–{high} (max_players=8 allows 8)" in templates  # Oh Hell's, in the same call
    assert "cannot reach {server}: {reason}" in templates  # tapete join's, at the terminal
    for lang in LANGUAGES[1:]:
        missing = sorted(t for t in templates if t not in catalog(lang))
        assert missing == [], f"{lang} lacks {missing}"


def test_every_record_file_error_a_person_meets_has_a_sentence_in_every_language() -> None:
    """A record file that cannot be read, replayed or resumed is told in the person's
    language: its reading, its format, its fields, its resuming; a record the engine disagrees
    with in words around the engine's English detail."""
    from tapete import record

    templates = refusal_templates() - ENGLISH_ONLY
    assert {
        "{file} is empty, not a record",  # record.read's
        "not a record: its JSON is nested too deeply",  # a constant of record.py
        "{where}: {key} must be {want}, not {value}",  # a field's
        "a list of deals",  # what a field must be
        record.IN_FILE,
        record.MISMATCH,
        "the match in this record is over: there is nothing to resume",  # match.resume's
        "{file}: the match is over; tapete replay {file} shows it",  # the CLI's
    } <= templates
    for lang in LANGUAGES[1:]:
        assert catalog(lang)[record.MISMATCH] != record.MISMATCH  # said around the detail


def test_no_record_error_is_worded_where_a_translation_cannot_find_it() -> None:
    """A ``RecordError`` built from an f-string would be English in every language: each one
    of the modules people meet is a template (the engine's disagreements: ``MISMATCH``)."""
    worded = []
    for part in ("record.py", "match.py", "cli.py", "tui"):
        paths = sorted((SRC / part).rglob("*.py")) if (SRC / part).is_dir() else [SRC / part]
        for path in paths:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and _called(node) == "RecordError"):
                    continue
                if node.args and isinstance(node.args[0], ast.JoinedStr | ast.BinOp):
                    worded.append(f"{path.name}:{node.lineno}")
    assert worded == []


def test_no_refusal_is_worded_where_a_translation_cannot_find_it() -> None:
    """A ``SpecError`` or ``RecordError`` built from an f-string is English in every language
    (``load("tute", pocha)`` was): every one in tapete is a template with fields."""
    worded = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and _called(node) in ("SpecError", "RecordError")):
                continue
            if node.args and isinstance(node.args[0], ast.JoinedStr | ast.BinOp):
                worded.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert worded == []


def test_a_game_of_another_module_is_refused_in_the_person_s_language() -> None:
    from tapete.errors import SpecError
    from tapete.games import pocha
    from tapete.i18n import spec_text

    try:
        tapete.load("tute", pocha)
    except SpecError as exc:
        assert str(exc) == "tute is not a game of the module tapete.games.pocha"
        assert spec_text("es", exc) == "tute no es un juego del módulo tapete.games.pocha"
        assert spec_text("pt", exc) == "tute não é um jogo do módulo tapete.games.pocha"
    else:
        raise AssertionError("tute loaded as a game of pocha's module")


def phrase_templates(phrase: object) -> set[str]:
    """Every template in a phrase, the phrases in its fields too."""
    from tapete.errors import Phrase

    if not isinstance(phrase, Phrase):
        return set()
    return {phrase.text}.union(*(phrase_templates(v) for v in phrase.fields.values()))


def test_every_rule_option_a_game_refuses_is_said_in_every_language() -> None:
    """Each game's ``Params`` refuses values of each option (and of one option given another's
    value: Tute's four-player options with two players): every template of every refusal, and
    of what it says the option accepts, has an entry in every catalog."""
    from tapete.errors import SpecError
    from tapete.games import ENTRIES
    from tapete.i18n import spec_text

    values: tuple[object, ...] = (999, -1, 0, 2, 10, "zzz", "dealer_right", "french", "follow_only")
    values += (True, False, None, (0,), (7,), [1], "4")
    seen: dict[str, SpecError] = {}
    for entry in ENTRIES.values():
        rules = entry.rules()
        names = [f.name for f in dataclasses.fields(rules.Params)]
        bases = [dict(entry.defaults)]
        for base in bases:
            for name in names:
                for value in values:
                    try:
                        rules.Params(**{**base, name: value})
                    except SpecError as exc:
                        for template in phrase_templates(exc.phrase):
                            seen.setdefault(template, exc)
                    else:
                        if len(bases) < 40 and name in ("players", "deck"):
                            bases.append({**base, name: value})  # judge the others against it
    assert {"{default} with {players} players (an option for players={other})", "2 or 4"} <= set(
        seen
    )
    assert len(seen) > 40
    for lang in LANGUAGES[1:]:
        missing = sorted(t for t in seen if t not in catalog(lang))
        assert missing == [], f"{lang} lacks {missing}"
        for refused in seen.values():
            assert spec_text(lang, refused) != str(refused), (lang, str(refused))


def test_numbers_are_written_with_each_language_s_decimal_mark() -> None:
    # Spanish and Portuguese write 2,5 and 1.234,5; English 2.5 and 1,234.5.
    assert tr("en", "expects about {n:.1f} tricks", n=2.25) == "expects about 2.2 tricks"
    assert tr("es", "expects about {n:.1f} tricks", n=2.25) == "espera unas 2,2 bazas"
    assert tr("pt", "expects about {n:.1f} tricks", n=2.25) == "espera umas 2,2 vazas"
    assert tr("pt-BR", "counts {n:.1f} points in hand", n=31.0) == "conta 31,0 pontos na mão"
    assert [number(lang, 1234.5, ",.2f") for lang in LANGUAGES] == [
        "1,234.50",
        "1.234,50",
        "1.234,50",
    ]
    # Words and whole numbers among the values are left as they are.
    said = tr("es", "{file}: cannot be read ({why})", file="a.b.json", why="línea 3")
    assert said == "a.b.json: no se puede leer (línea 3)"


def test_every_bot_level_says_what_it_does_in_every_language() -> None:
    from tapete import bots

    assert set(LEVEL_HELP) == set(bots.LEVELS)
    for lang in LANGUAGES:
        said = [level_help(lang, level) for level in bots.LEVELS]
        assert all(said) and len(set(said)) == len(said)
        if lang != "en":
            assert not set(said) & set(LEVEL_HELP.values()), lang  # translated, not English
    # A level with options is still that level; an outside bot has no sentence.
    assert level_help("es", "hard(ms=300)") == level_help("es", "hard")
    assert level_help("pt", 'exec(cmd="./mybot")') == ""


def test_the_bots_page_gives_each_level_the_sentence_players_read() -> None:
    page = Path(__file__).resolve().parents[1] / "docs" / "bots.md"
    table = page.read_text(encoding="utf-8").split("## How each level plays", 1)[1]
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+?) \|$", table.split("\n###", 1)[0], re.M))
    assert rows == LEVEL_HELP


def test_a_trick_bid_is_asked_for_not_bet_in_spanish_and_portuguese() -> None:
    """The buttons say "pedir" for a Pocha, Oh Hell or Pottle bid, while the game's summary,
    the refusals and the rule help said a bet ("apuestas exactas", "esa apuesta"): one thing,
    two words. Poch's chips are bet, and stay so."""
    bids = re.compile(r"\bbid(s|der|ding)?\b")
    for lang in ("es", "pt"):
        for english, said in catalog(lang).items():
            if bids.search(english) and "bet" not in english:
                assert not re.search("apuest|apost", said), (lang, english, said)
        for module in ("pocha", "pottle"):
            page = howto.page(module, lang)
            assert not re.search("apuest|apost", page), (lang, module)
    assert tr(
        "es", "Spanish trick-taking with exact bids: 1 card up to all and back (3–8 players)"
    ) == ("bazas a la española acertando lo pedido: de 1 carta a todas y vuelta (3–8 jugadores)")
    # Poch's betting keeps its word.
    assert "apuesta" in tr("es", "there is a bet already: call, raise or pass")
    assert "apostas" in howto.page("poch", "pt")


def test_a_sampled_deal_of_the_hidden_cards_has_one_word_in_each_language() -> None:
    """A hint said "4 distribuições possíveis das cartas ocultas" and the review of the same
    search "4 rodadas amostradas": a rodada is a Truco round or a Tute deal, not one way the
    hidden cards may lie."""
    word = {"es": "reparto", "pt": "distribuiç"}
    sampled = re.compile(r"\b(sampled|possible|simulated) deals?\b")
    for lang in ("es", "pt"):
        told = {k: v for k, v in catalog(lang).items() if sampled.search(k)}
        assert len(told) >= 5, told
        for english, said in told.items():
            assert word[lang] in said and "rodada" not in said, (lang, english, said)
    heading = "Review of {game}: {n} sampled deals a decision"
    assert (
        tr("pt", heading, game="truco", n=4)
        == "Análise de truco: 4 distribuições amostradas por decisão"
    )


def test_tute_s_stock_has_one_name_in_each_language() -> None:
    """Tute's stock was "monte" in the game's summary, its options and its rules, and "mazo"
    on the table ("mazo: 12") and in its refusals ("el mazo se ha acabado")."""
    word = {"es": "monte", "pt": "monte"}
    for lang in ("es", "pt"):
        told = {k: v for k, v in catalog(lang).items() if re.search(r"\bstock\b", k)}
        assert len(told) >= 6, told
        for english, said in told.items():
            assert word[lang] in said and "mazo" not in said, (lang, english, said)
        assert word[lang] in howto.page("tute", lang)


def test_a_seat_is_a_lugar_in_portuguese_everywhere() -> None:
    """A seat is a "lugar" at the table, in the records and in tapete analyze; one refusal
    said "'exec(./bot)' não é um assento"."""
    told = {k: v for k, v in catalog("pt").items() if re.search(r"\bseats?\b", k)}
    assert sum("lugar" in v for v in told.values()) >= 10
    assert [v for v in catalog("pt").values() if "assento" in v] == []
    said = tr(
        "pt", "{seat} is not a seat: name its options, as in {example}", seat="'x'", example="y"
    )
    assert said.startswith("'x' não é um lugar: ")
