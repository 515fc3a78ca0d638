"""Match records as files: whatever a file holds, one clear error or a record that checks out;
every event checked against the engine's; unfinished matches replayed and resumed."""

from __future__ import annotations

import copy
import dataclasses
import errno
import gzip
import hashlib
import json
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete import record
from tapete.errors import RecordError
from tapete.i18n import record_text
from tapete.match import play, resume

POCHA = "pocha(schedule=[2, 3])"


def finished(spec: str = POCHA, seed: int = 3) -> record.Record:
    game = tapete.load(spec)
    return play(game, ["random"] * game.players, seed=seed)[1]


def as_json(rec: record.Record) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(record.dumps(rec))
    return doc


def refused(doc: dict[str, Any]) -> str:
    """The error a record as JSON gets when it is read and checked."""
    with pytest.raises(RecordError) as caught:
        record.checked(record.loads(json.dumps(doc)))
    return str(caught.value)


# --- files that are not records --------------------------------------------------------------


def _deep() -> bytes:
    return b"[" * 100_000 + b"]" * 100_000


def _gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


BAD_FILES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "missing": (lambda d: d / "nowhere.json", "no such file"),
    "folder": (lambda d: d, "is a folder, not a record file"),
    "empty": (lambda d: _put(d / "e.json", b""), "is empty, not a record"),
    "blank": (lambda d: _put(d / "b.json", b" \n\n"), "is empty, not a record"),
    "binary": (lambda d: _put(d / "x.bin", bytes(range(256)) * 4), "not UTF-8 text"),
    "gzip of junk": (lambda d: _put(d / "j.gz", b"\x1f\x8b\x08junk"), "damaged or truncated gzip"),
    "truncated gzip": (
        lambda d: _put(d / "t.json.gz", _gz(record.dumps(finished()).encode())[:200]),
        "damaged or truncated gzip",
    ),
    "gzip of binary": (lambda d: _put(d / "g.gz", _gz(b"\xff\xfe\x00")), "not UTF-8 text"),
    "deep nesting": (lambda d: _put(d / "deep.json", _deep()), "nested too deeply"),
    "nesting the reader takes": (
        lambda d: _put(d / "deep2.json", b"[" * 900 + b"]" * 900),
        "nested too deeply",
    ),
    "not JSON": (lambda d: _put(d / "n.json", b'{"format": '), "not JSON"),
    "a number too long": (lambda d: _put(d / "big.json", b"1" * 5000), "not JSON"),
    "a list": (lambda d: _put(d / "l.json", b"[1, 2]"), "not an object"),
    "no format": (lambda d: _put(d / "f.json", b"{}"), "its 'format' field is missing"),
    "another version": (
        lambda d: _put(d / "v.json", b'{"format": "tapete-record/2"}'),
        "a tapete-record/2 record; this tapete reads tapete-record/1",
    ),
}


def _put(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_file_that_is_not_a_record_gets_one_clear_error(kind: str, tmp_path: Path) -> None:
    make, says = BAD_FILES[kind]
    path = make(tmp_path)
    with pytest.raises(RecordError) as caught:
        record.read(path)
    message = str(caught.value)
    assert says in message and "\n" not in message
    assert message.startswith(str(path))


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_file_that_is_not_a_record_is_told_in_spanish_and_portuguese(
    kind: str, tmp_path: Path
) -> None:
    """The same error in the person's language, the file named first as in English; it pickles
    with its words (a process hands it back to another)."""
    path = BAD_FILES[kind][0](tmp_path)
    with pytest.raises(RecordError) as caught:
        record.read(path)
    error = caught.value
    for lang in ("es", "pt"):
        said = record_text(lang, error)
        assert said != str(error) and said.startswith(str(path)) and "\n" not in said, said
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and record_text("pt", again) == record_text("pt", error)


def test_a_field_of_the_wrong_kind_is_named_in_every_language() -> None:
    doc = as_json(finished())
    doc["deals"][1]["dealer"] = "north"
    with pytest.raises(RecordError) as caught:
        record.loads(json.dumps(doc))
    assert str(caught.value) == "deals[1]: 'dealer' must be a seat number, not \"north\""
    said = record_text("es", caught.value)
    assert said == "deals[1]: 'dealer' debe ser un número de asiento, no \"north\""
    del doc["game"]
    with pytest.raises(RecordError) as caught:
        record.loads(json.dumps(doc))
    assert record_text("pt", caught.value) == "registro: falta o campo 'game'"


def test_a_record_the_engine_disagrees_with_is_said_around_the_english_detail() -> None:
    """Where a step, an event or a score differs, the detail is the engine's English (deal,
    move, event type, JSON field); another language says what it means around it."""
    doc = as_json(finished())
    doc["deals"][0]["score"] = [99, 0, 0, 0]
    with pytest.raises(RecordError) as caught:
        record.checked(record.loads(json.dumps(doc)))
    detail = str(caught.value)
    assert detail.startswith("deal 1: the deal scores ")
    said = record_text("es", caught.value)
    assert said == f"el registro no coincide con el motor del juego: {detail}"
    said = record_text("pt", caught.value)
    assert said == f"o registro não confere com o motor do jogo: {detail}"


@given(st.binary(max_size=400), st.booleans())
@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_bytes_are_refused_with_a_record_error(
    tmp_path: Path, data: bytes, zipped: bool
) -> None:
    path = tmp_path / "random.json"
    path.write_bytes(_gz(data) if zipped else data)
    with pytest.raises(RecordError):
        record.read(path)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
GOOD = as_json(finished("pocha(players=3, schedule=[1, 2])", seed=1))


@given(st.data(), JSON)
@settings(max_examples=400)
def test_a_record_with_any_value_replaced_is_checked_or_refused(data: Any, value: Any) -> None:
    """Put any JSON anywhere in a good record: it still checks out or is refused cleanly."""
    doc = copy.deepcopy(GOOD)
    node: Any = doc
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        if isinstance(node[key], dict | list) and node[key] and data.draw(st.booleans()):
            node = node[key]
            continue
        node[key] = value
        break
    try:
        rec = record.checked(record.loads(json.dumps(doc)))
    except RecordError as exc:
        assert "\n" not in str(exc)
    else:
        assert record.checked(rec) == rec


@pytest.mark.parametrize("where", ["params", "event", "result", "seat"])
def test_a_deep_value_anywhere_is_refused(where: str) -> None:
    """Deep enough to pass the JSON reader, and to break any recursive walk after it."""
    doc, deep = as_json(finished()), json.loads("[" * 900 + "]" * 900)
    place = {
        "params": doc["params"],
        "event": doc["deals"][0]["events"][0],
        "result": doc["result"],
        "seat": doc["seats"][0],
    }[where]
    place["x"] = deep
    assert refused(doc) == "not a record: its JSON is nested too deeply"


def test_the_command_line_says_it_in_one_line_with_status_2(tmp_path: Path) -> None:
    from test_cli import tapete as run

    for kind in ("binary", "truncated gzip", "deep nesting", "missing", "empty", "folder"):
        path = BAD_FILES[kind][0](tmp_path)
        for extra in [["--plain"]] + ([["--verify"]] if kind == "binary" else []):
            out = run("replay", str(path), *extra)
            assert out.returncode == 2, (kind, out.stderr)
            assert out.stderr.count("\n") == 1 and out.stderr.startswith("tapete: "), out.stderr
            assert "Traceback" not in out.stderr and out.stdout == ""


def test_a_file_too_deep_to_be_a_record_is_refused_by_resume_and_the_saved_matches_too(
    tmp_path: Path,
) -> None:
    """A file nested deeper than any record, whole or cut short, is not taken for a record cut
    short: ``tapete play --resume`` refuses it in one line, and the list of saved matches says
    it cannot be read, as ``tapete replay`` does (it was a RecursionError's traceback)."""
    from test_cli import tapete as run

    cut = b'{"format": "tapete-record/1", "game": "pocha", "seed": 1, "x": ' + b"[" * 30_000
    for name, data in (("deep.json", _deep()), ("cut.json", cut)):
        path = _put(tmp_path / name, data)
        out = run("play", "--resume", str(path), "--plain")
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert out.stderr == f"tapete: {path}: not a record: its JSON is nested too deeply\n"
        assert record.salvage_file(path) is None and path.read_bytes() == data
    # Nested as deep as the reader takes and cut short: no closing of it is tried past a
    # record's depth, which took time and memory squared in the depth.
    shallower = cut[:-30_000] + b"[" * 900
    assert record.salvage(shallower.decode()) is None


# --- events checked against the engine's ---------------------------------------------------


def test_a_genuine_record_is_rebuilt_unchanged() -> None:
    for spec in (POCHA, "tute(players=4)", "truco(players=4, target=3)", "pottle(players=3)"):
        rec = finished(spec, seed=5)
        assert record.checked(record.loads(record.dumps(rec))) == rec


def test_a_record_that_spells_a_rule_another_way_still_replays() -> None:
    # Records written before Tute's specs were made canonical kept the spelling they were given.
    doc = as_json(finished("tute(players=4)", seed=5))
    doc["game"] = "tute(players=4, first_leader=two_of_oros)"
    doc["params"]["first_leader"] = "two_of_oros"
    assert record.checked(record.loads(json.dumps(doc))).result is not None
    doc["params"]["first_leader"] = "dealer_right"  # another rule: refused, naming it
    assert refused(doc).endswith(
        'params: first_leader is "dealer_right", which is not the rule of the spec'
        " 'tute(players=4, first_leader=two_of_oros)'"
    )
    doc["params"]["first_leader"] = "two_of_oros"
    doc["params"]["players"] = 99  # no rules at all: named too
    assert "params: players is 99, which is not the rule of the spec" in refused(doc)


def test_a_record_with_a_reason_an_older_tapete_wrote_still_replays() -> None:
    # Poch's max_rounds cap ending a match before its rounds was once "rounds complete".
    doc = as_json(finished("poch(rounds=5, max_rounds=2)", seed=2))
    assert doc["result"]["reason"] == "round limit reached"
    doc["result"]["reason"] = "rounds complete"
    assert record.checked(record.loads(json.dumps(doc))).result is not None
    doc["result"]["reason"] = "last player with chips"  # another reason: refused
    assert 'expected "round limit reached"' in refused(doc)


def _event(doc: dict[str, Any], deal: int, kind: str) -> dict[str, Any]:
    event: dict[str, Any] = next(e for e in doc["deals"][deal]["events"] if e["type"] == kind)
    return event


def test_an_edited_trick_winner_is_refused_naming_the_move_event_and_field() -> None:
    doc = as_json(finished())
    trick = _event(doc, 1, "trick")
    right = trick["winner"]
    trick["winner"] = (right + 1) % 4
    seat, action = doc["deals"][1]["actions"][trick["after"]].values()
    assert refused(doc) == (
        f"deal 2, move {trick['after'] + 1} (seat {seat}: {action}): trick event, "
        f"field 'winner': expected {right}, the record says {(right + 1) % 4}"
    )


def test_an_edited_bid_or_total_in_a_score_event_is_refused() -> None:
    doc = as_json(finished())
    _event(doc, 1, "score")["bids"][0] += 1
    assert "score event, field 'bids': expected" in refused(doc)
    doc = as_json(finished())
    _event(doc, 0, "score")["totals"][2] += 5
    assert "deal 1, move" in refused(doc) and "field 'totals'" in refused(doc)
    doc = as_json(finished())
    doc["deals"][0]["score"][1] += 1
    assert refused(doc).startswith("deal 1: the deal scores")


def test_a_dropped_or_added_event_is_refused() -> None:
    doc = as_json(finished())
    dropped = doc["deals"][1]["events"].pop(0)
    assert f"the engine has a {dropped['type']} event the record lacks" in refused(doc)
    doc = as_json(finished())
    doc["deals"][1]["events"].pop()
    assert "the engine has a score event the record lacks" in refused(doc)
    doc = as_json(finished())
    doc["deals"][0]["events"].insert(1, dict(doc["deals"][0]["events"][0]))
    assert "the record has a trick event the engine does not" in refused(doc)
    doc = as_json(finished())
    doc["deals"][1]["events"].append({"type": "trick", "leader": 0, "winner": 0, "after": 99})
    assert refused(doc) == (
        "deal 2, after its last move: the record has a trick event the engine does not"
    )
    doc = as_json(finished())
    _event(doc, 0, "trick")["note"] = "mine"
    assert "trick event, field 'note': expected missing, the record says \"mine\"" in refused(doc)


def test_an_edited_result_or_deal_is_refused() -> None:
    doc = as_json(finished())
    doc["result"]["winners"] = [3]
    assert refused(doc).startswith("result, field 'winners'")
    doc = as_json(finished())
    doc["result"] = None
    assert "the record says null (unfinished)" in refused(doc)
    doc = as_json(finished())
    doc["deals"][1]["stock"] = ["1o"]
    assert refused(doc).startswith("deal 2: 'stock': expected []")
    doc = as_json(finished())
    doc["seats"].pop()
    assert "the record names 3" in refused(doc)


def test_replay_and_verify_refuse_an_edited_winner(tmp_path: Path) -> None:
    from test_cli import tapete as run

    doc = as_json(finished())
    _event(doc, 1, "trick")["winner"] += 1
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    for extra in (["--plain"], ["--verify"]):
        out = run("replay", str(path), *extra)
        assert out.returncode == 2 and "field 'winner'" in out.stderr
        assert "replay checked" not in out.stdout and "verified" not in out.stdout


# --- unfinished matches ------------------------------------------------------------------


@pytest.mark.parametrize("spec", [POCHA, "tute", "truco(players=4, target=3)", "poch(players=3)"])
def test_an_unfinished_record_replays_at_any_point(spec: str) -> None:
    whole = finished(spec, seed=2)
    moves = sum(len(d.actions) for d in whole.deals)
    for cut in sorted({0, 1, moves // 3, moves // 2, moves - 1}):
        half = record.cut(whole, cut)
        assert half.result is None and sum(len(d.actions) for d in half.deals) == cut
        again = record.loads(record.dumps(half))
        assert record.checked(again) == half
        assert tapete.load(spec).outcome(record.replay(again)) is None
    assert record.cut(whole, moves + 5) == record.cut(whole, moves)
    with pytest.raises(ValueError, match="0 or more decisions, not -1"):
        record.cut(whole, -1)


@pytest.mark.parametrize("spec", [POCHA, "tute(players=4)", "truco(target=3)"])
def test_resume_finishes_an_unfinished_match_from_its_last_move(spec: str) -> None:
    whole = finished(spec, seed=6)
    moves = sum(len(d.actions) for d in whole.deals)
    half = record.cut(whole, moves // 2)
    game = tapete.load(spec)
    final, rec = resume(half, ["random"] * game.players)
    assert game.outcome(final) is not None and rec.result is not None
    played = [a for d in rec.deals for a in d.actions]
    assert played[: moves // 2] == [a for d in half.deals for a in d.actions]
    assert record.checked(record.loads(record.dumps(rec))) == rec  # the whole match, checked
    # Later deals come from the seed, as they would have without the pause.
    assert all(a.deck == b.deck for a, b in zip(rec.deals, whole.deals, strict=False))
    with pytest.raises(RecordError, match="over: there is nothing to resume") as caught:
        resume(rec, ["random"] * game.players)
    said = record_text("es", caught.value)
    assert said == "la partida de este registro ya terminó: no hay nada que retomar"


def test_a_write_that_fails_leaves_the_record_that_was_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk (here: the flush to the disk failing) mid-write keeps the older record whole
    and leaves no half-written file beside it."""
    path = tmp_path / "match.json"
    first, second = finished(POCHA, seed=1), finished(POCHA, seed=2)
    record.write(first, path)

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full)
    with pytest.raises(OSError, match="No space left"):
        record.write(second, path)
    assert record.read(path) == first
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]
    monkeypatch.undo()
    record.write(second, path.with_suffix(".json.gz"))
    assert record.read(path.with_suffix(".json.gz")) == second


def test_a_record_is_held_by_one_match_at_a_time_and_let_go_of_after(tmp_path: Path) -> None:
    """``record.hold``: a second hold of a file is refused, naming the holder, until the first
    lets go; the lock file beside it goes with the hold."""
    path = tmp_path / "match.json"
    first = record.hold(path)
    with pytest.raises(RecordError) as caught:
        record.hold(tmp_path / "." / "match.json")  # the same file, however it is named
    assert str(caught.value) == (
        f"{tmp_path / '.' / 'match.json'} is being played on at another terminal (tapete"
        f" process {os.getpid()}): go on with it there, or quit it there first"
    )
    first.release()
    assert list(tmp_path.iterdir()) == []
    record.hold(path).release()


def test_a_file_system_without_locks_holds_nothing_and_refuses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the file system has no locks (flock answering ENOLCK, as some network file
    systems do) a match is not refused as if another tapete held its record."""
    import fcntl

    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    path = tmp_path / "match.json"
    one, two = record.hold(path), record.hold(path)
    one.release()
    two.release()


@pytest.mark.parametrize("value", ["out.json", None, {"format": "tapete-record/1"}])
def test_replaying_what_is_not_a_record_says_what_to_give(value: Any) -> None:
    expected = r"a Record is replayed \(record\.loads or record\.read one\)"
    with pytest.raises(TypeError, match=expected):
        record.replay(value)


@pytest.mark.parametrize("value", ["out.json", None, {"format": "tapete-record/1"}])
def test_every_function_of_a_record_says_what_to_give_it(value: Any) -> None:
    """``cut``, ``redact``, ``dumps``, ``verify_deals`` and ``resume`` given what is no record
    failed on "'NoneType' object has no attribute 'redacted'" (or 'seed'); each says, as
    ``replay`` does, what it takes, and what it was given."""
    kind = type(value).__name__
    calls: list[tuple[str, Callable[[], object]]] = [
        ("cut", lambda: record.cut(value, 3)),
        ("redacted", lambda: record.redact(value, 0)),
        ("written", lambda: record.dumps(value)),
        ("checked", lambda: record.verify_deals(value)),
        ("replayed", lambda: list(record.steps(value))),
        ("resumed", lambda: resume(value, ["random"] * 4)),
    ]
    for verb, call in calls:
        expected = rf"a Record is {verb} \(record\.loads or record\.read one\), not a {kind}"
        with pytest.raises(TypeError, match=expected):
            call()


def test_verify_deals_takes_the_published_hash_as_text() -> None:
    """A hash given as a number failed on "'int' object has no attribute 'lower'"."""
    with pytest.raises(TypeError, match="seed_hash is the published SHA-256 in hex"):
        record.verify_deals(finished(), 5)  # type: ignore[arg-type]


@pytest.mark.parametrize("copied", ["", "5ab0", "z" * 64, "a" * 63, "a" * 65])
def test_verify_deals_refuses_a_hash_that_is_no_sha256_rather_than_judge_the_deals(
    copied: str,
) -> None:
    """A hash cut short in copying was judged "does not hash to the published ...", the
    table found unfair for what the copy did, as ``tapete replay --seed-hash`` does not."""
    rec = salted(finished())
    with pytest.raises(ValueError, match=r"is not a SHA-256: 64 hexadecimal digits"):
        record.verify_deals(rec, copied)


def test_a_records_own_hash_that_is_no_sha256_is_found_unfair_not_refused() -> None:
    """What ``tapete replay FILE --verify`` checks when no hash is given: an edited record."""
    rec = dataclasses.replace(salted(finished()), seed_hash="5ab0")
    assert record.verify_deals(rec, rec.seed_hash) == [
        "the record's seed_hash '5ab0' is not a SHA-256"
    ]


def test_verify_deals_takes_a_hash_copied_with_spaces_or_in_capitals() -> None:
    rec = salted(finished())
    assert rec.seed_hash is not None
    assert record.verify_deals(rec, f"  {rec.seed_hash.upper()}\n") == []


@pytest.mark.parametrize("seat", [0, None])
def test_a_seat_s_record_is_refused_for_what_it_is_wherever_a_match_is_dealt_again(
    seat: int | None,
) -> None:
    """A record redacted to a seat (or a spectator) has no decks to deal again: replaying,
    cutting, stepping through or redacting it once more says so, in every language, rather
    than call its decks wrong."""
    mine = record.loads(record.dumps(record.redact(finished(), seat)))
    for use in (record.replay, lambda r: record.cut(r, 2), lambda r: list(record.steps(r))):
        with pytest.raises(RecordError, match="holds only what one seat knew") as raised:
            use(mine)
        assert "must hold each of the" not in str(raised.value)
    with pytest.raises(RecordError) as raised:
        record.redact(mine, 1)
    assert record_text("es", raised.value).startswith("este registro solo tiene lo que sabía")
    assert record_text("pt", raised.value).startswith("este registro só tem o que um lugar")


@pytest.mark.parametrize("deal", [0, 1])
def test_a_deal_s_deck_that_is_wrong_is_named_as_the_record_counts_deals(deal: int) -> None:
    """Deals count from 1 in every refusal of a record: a repeated card, or a word that is no
    card, in the second deal's deck is said of deal 2, before anything is dealt."""
    doc = as_json(finished())
    deck = doc["deals"][deal]["deck"]
    deck[5] = deck[6]
    assert refused(doc).startswith(f"deal {deal + 1}: its deck must hold each of the 40 cards")
    deck[5] = "xx"
    assert refused(doc).startswith(f"deal {deal + 1}: 'xx' is not a card")


# --- the published seed hash and its salt ----------------------------------------------------

SALT = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"


def salted(rec: record.Record, salt: str = SALT) -> record.Record:
    """``rec`` as a web table writes it: with the hash it published and the salt in it."""
    assert rec.seed is not None
    return dataclasses.replace(
        rec, seed_hash=record.seed_commitment(rec.seed, salt), seed_salt=salt
    )


def test_the_published_hash_is_the_sha256_of_salt_colon_seed_as_sha256sum_gives_it() -> None:
    assert record.seed_commitment(1234, SALT) == hashlib.sha256(f"{SALT}:1234".encode()).hexdigest()
    assert record.seed_commitment(1234) == hashlib.sha256(b"1234").hexdigest()  # before salts
    other = "f" * 32
    assert record.seed_commitment(1234, other) != record.seed_commitment(1234, SALT)


def test_a_salted_record_keeps_its_salt_through_a_file_a_check_and_a_cut() -> None:
    rec = salted(finished())
    doc = as_json(rec)
    assert doc["seed_salt"] == SALT and doc["seed_hash"] == rec.seed_hash
    back = record.loads(record.dumps(rec))
    assert back == rec
    assert record.checked(back).seed_salt == SALT and record.cut(back, 3).seed_salt == SALT
    assert record.verify_deals(back, rec.seed_hash) == []


def test_a_salted_hash_is_checked_with_the_record_s_salt_and_only_with_it() -> None:
    rec = salted(finished())
    assert rec.seed_hash is not None
    wrong = dataclasses.replace(rec, seed_salt="f" * 32)
    assert record.verify_deals(wrong, rec.seed_hash) == [
        f"the seed 3 with salt {'f' * 32} does not hash to the published {rec.seed_hash}"
    ]
    # Without its salt the seed alone does not give the published hash: nobody can search it.
    unsalted = dataclasses.replace(rec, seed_salt=None)
    assert record.verify_deals(unsalted, rec.seed_hash) != []
    assert record.verify_deals(rec, record.seed_commitment(3)) != []


def test_a_record_from_before_salts_verifies_as_it_did() -> None:
    rec = dataclasses.replace(finished(), seed_hash=hashlib.sha256(b"3").hexdigest())
    doc = as_json(rec)
    assert "seed_salt" not in doc
    back = record.loads(json.dumps(doc))
    assert back.seed_salt is None and record.verify_deals(back, back.seed_hash) == []


@pytest.mark.parametrize("salt", [SALT.upper(), SALT[:-1], SALT + "0", "g" * 32, 12, ["0"]])
def test_a_seed_salt_that_is_not_32_lowercase_hex_digits_is_refused_naming_it(salt: Any) -> None:
    doc = as_json(salted(finished()))
    doc["seed_salt"] = salt
    with pytest.raises(RecordError) as caught:
        record.loads(json.dumps(doc))
    assert str(caught.value).startswith("record: 'seed_salt' must be 32 lowercase hex digits")
    assert "32 dígitos hexadecimales en minúscula" in record_text("es", caught.value)


def test_a_seed_salt_without_a_seed_hash_is_refused() -> None:
    doc = as_json(salted(finished()))
    del doc["seed_hash"]
    with pytest.raises(RecordError) as caught:
        record.loads(json.dumps(doc))
    assert (
        str(caught.value)
        == "record: 'seed_salt' is the salt of a seed_hash, and the record has none"
    )
    assert record_text("pt", caught.value).startswith("registro: 'seed_salt' é o sal de um")


def test_a_seat_s_record_of_a_running_match_keeps_the_hash_but_not_the_salt() -> None:
    rec = salted(record.cut(finished(), 4))
    mine = record.redact(rec, 0)
    assert mine.seed is None and mine.seed_salt is None and mine.seed_hash == rec.seed_hash
    assert SALT not in record.dumps(mine)


def test_the_notation_page_shows_the_fields_a_record_has() -> None:
    """docs/notation.md's example record has the fields, in the order, that tapete writes."""
    import re

    page = (Path(__file__).resolve().parents[1] / "docs" / "notation.md").read_text("utf-8")
    section = page.split("## The match record: `tapete-record/1`", 1)[1]
    example = re.search(r"```json\n(.*?)```", section, re.DOTALL)
    assert example is not None
    shown = json.loads(example.group(1))
    game = tapete.load("pocha(schedule=[1, 2])")
    written = json.loads(record.dumps(play(game, ["random"] * 4, seed=7)[1]))
    assert list(shown) == list(written) and list(shown["deals"][0]) == list(written["deals"][0])
    assert list(shown["result"]) == list(written["result"])
    assert [event["type"] for event in shown["deals"][0]["events"]] == ["trick", "score"]
    for event in shown["deals"][0]["events"]:
        told = next(e for e in written["deals"][0]["events"] if e["type"] == event["type"])
        assert list(event) == list(told)
    # A web table's record has two more, which the list below the example tells of.
    assert "- `seed_hash` and `seed_salt` (optional; records of web tables)" in section


# --- stand-ins: the moves a seat's player did not choose ---------------------------------------


class FailsFrom:
    """``random`` for its first ``good`` decisions, then a bug in every one: from there each of
    its moves is a random legal one the match plays for it (a stand-in's)."""

    name = "fails"

    def __init__(self, good: int) -> None:
        self.left = good

    def choose(self, view: Any, legal_actions: Any, rng: Any) -> Any:
        self.left -= 1
        if self.left < 0:
            raise RuntimeError("gone")
        return rng.choice(list(legal_actions))


def stood_in(spec: str = POCHA, seed: int = 3, good: int = 5) -> record.Record:
    game = tapete.load(spec)
    seats: list[Any] = [FailsFrom(good), "random", "random", "random"][: game.players]
    return play(game, seats, seed=seed, on_failure=lambda seat, failure: None)[1]


def test_a_stand_in_s_moves_are_marked_by_deal_and_read_back() -> None:
    rec = stood_in()
    marked = [(k, m) for k, d in enumerate(rec.deals) for m in d.stand_ins]
    assert marked and all(rec.deals[k].actions[m][0] == 0 for k, m in marked)
    # Seat 0's first five decisions were its own, every later one a stand-in's.
    mine = [(k, m) for k, d in enumerate(rec.deals) for m, (s, _) in enumerate(d.actions) if s == 0]
    assert marked == mine[5:]
    doc = as_json(rec)
    first = next(d for d in doc["deals"] if d.get("stand_ins"))
    assert list(first)[:7] == ["dealer", "deck", "hands", "upcard", "stock", "actions", "stand_ins"]
    back = record.loads(record.dumps(rec))
    assert back == rec and record.dumps(back) == record.dumps(rec)
    # Kept through what tapete does with a record: checked, cut, resumed, redacted, salvaged.
    assert record.checked(back).deals == rec.deals
    moves = sum(len(d.actions) for d in rec.deals)
    assert record.cut(rec, moves) == rec
    half = record.cut(rec, len(rec.deals[0].actions) + 3)
    assert half.deals[0].stand_ins == rec.deals[0].stand_ins
    assert half.deals[1].stand_ins == tuple(m for m in rec.deals[1].stand_ins if m < 3)
    _, again = resume(half, ["random"] * 4)
    assert again.deals[0].stand_ins == rec.deals[0].stand_ins
    assert record.redact(half, 1).deals[1].stand_ins == half.deals[1].stand_ins
    text = record.dumps(half)
    saved = record.salvage(text[: text.rindex('"events"')])
    assert saved is not None and saved[0].deals[0].stand_ins == rec.deals[0].stand_ins


def test_a_record_without_stand_ins_is_written_byte_for_byte_as_before() -> None:
    """No ``stand_ins`` key where no stand-in played: a record written before they were marked
    reads back equal and is written again byte for byte (digests of records stay the same)."""
    rec = finished()
    text = record.dumps(rec)
    assert '"stand_ins"' not in text
    assert all(d.stand_ins == () for d in rec.deals)
    assert record.dumps(record.loads(text)) == text
    # A record with stand-ins, its marks taken out, is the record of the same match unmarked.
    marked = stood_in()
    plain = dataclasses.replace(
        marked, deals=tuple(dataclasses.replace(d, stand_ins=()) for d in marked.deals)
    )
    assert '"stand_ins"' not in record.dumps(plain)
    assert record.checked(record.loads(record.dumps(plain))) == record.checked(plain)


@pytest.mark.parametrize(
    "marks", [[-1], [99], [2, 1], [1, 1], ["1"], 3, [True]], ids=lambda m: repr(m)
)
def test_stand_ins_that_are_no_moves_of_their_deal_are_refused_naming_the_field(marks: Any) -> None:
    doc = as_json(finished())
    doc["deals"][1]["stand_ins"] = marks
    with pytest.raises(RecordError) as caught:
        record.loads(json.dumps(doc))
    assert str(caught.value).startswith(
        "deals[1]: 'stand_ins' must be increasing numbers of the deal's moves (from 0), not"
    )
    assert "números crecientes de jugadas" in record_text("es", caught.value)
    assert "números crescentes de jogadas" in record_text("pt", caught.value)


def test_a_record_saved_with_a_byte_order_mark_reads_as_it_was_written(tmp_path: Path) -> None:
    """An editor that saves UTF-8 with a byte order mark (Notepad) leaves a record a record."""
    rec = finished(POCHA, seed=3)
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + record.dumps(rec).encode())
    assert record.read(path) == rec
