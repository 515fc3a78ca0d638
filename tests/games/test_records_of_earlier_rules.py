"""Records made before a default changed replay as they were played.

A record keeps every parameter, defaults included; a parameter its spec leaves out is taken from
the record (the default of its day), and one newer than the record from what the game names for
older records. Old records are made here by rewriting new ones the way the older version wrote
them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import tapete
from tapete import record
from tapete.errors import RecordError
from tapete.match import play, resume
from tapete.narrate import record_lines, record_story


def rewritten(spec: str, seed: int, game: str, **params: Any) -> record.Record:
    """The record of a random match of ``spec``, as an older version would have written it:
    under ``game`` and with ``params`` changed (None: the parameter did not exist yet)."""
    _, rec = play(tapete.load(spec), ["random"] * tapete.load(spec).players, seed=seed)
    data = json.loads(record.dumps(rec))
    data["game"] = game
    for name, value in params.items():
        if value is None:
            del data["params"][name]
        else:
            data["params"][name] = value
    return record.loads(json.dumps(data))


def test_a_four_player_pocha_record_from_when_max_players_was_4() -> None:
    old = rewritten("pocha(schedule=[1, 2])", 3, "pocha(schedule=[1, 2])", max_players=4)
    assert record.recorded_game(old).params.max_players == 4
    final = record.replay(old)
    assert tapete.load("pocha").outcome(final) is not None


def test_a_five_player_pocha_record_that_says_max_players_8() -> None:
    spec = "pocha(players=5, max_players=8, schedule=[1, 2])"
    old = rewritten("pocha(players=5, schedule=[1, 2])", 3, spec, max_players=8)
    assert record.recorded_game(old).spec == "pocha(players=5, schedule=[1, 2])"
    record.replay(old)


def test_an_oh_hell_record_from_when_ties_were_played_off() -> None:
    """Seed 0 ties and plays a tie-break hand; before the tie stood by default, the spec said no
    more than ``oh_hell(schedule=1)``."""
    old = rewritten(
        "oh_hell(schedule=1, tiebreak_players=tied)",
        0,
        "oh_hell(schedule=1)",
        tiebreak_players="tied",
    )
    assert len(old.deals) == 2 and old.result is not None
    final = record.replay(old)
    result = tapete.load("oh_hell").outcome(final)
    assert result is not None and result.reason == "tie-break won"
    assert list(result.winners) == old.result["winners"]


def test_a_poch_record_from_before_the_round_cap_plays_uncapped() -> None:
    old = rewritten("poch(max_rounds=none)", 5, "poch", max_rounds=None)
    assert "max_rounds" not in old.params
    assert record.recorded_game(old).params.max_rounds is None
    record.replay(old)


def test_a_parameter_the_spec_names_must_still_agree_with_the_record() -> None:
    old = rewritten(
        "pocha(players=3, schedule=[1])", 1, "pocha(players=3, schedule=[1])", players=4
    )
    with pytest.raises(RecordError, match="params: players is 4, which is not the rule of"):
        record.replay(old)
    unknown = rewritten("pocha(schedule=[1])", 1, "pocha(schedule=[1])", colour="red")
    with pytest.raises(RecordError, match="no parameter colour"):
        record.replay(unknown)


def test_an_unfinished_record_from_before_a_default_changed_goes_on_under_its_rules() -> None:
    old = rewritten("pocha(schedule=[1, 2])", 3, "pocha(schedule=[1, 2])", max_players=4)
    final, whole = resume(record.cut(old, 3), ["random"] * 4)
    assert whole.result is not None and whole.params["max_players"] == 4
    assert whole.deals[0].actions[:3] == old.deals[0].actions[:3]
    game = record.recorded_game(whole)
    assert game.outcome(record.replay(whole)) == game.outcome(final) is not None


def test_a_record_from_before_a_default_changed_is_told_to_each_seat() -> None:
    old = rewritten("pocha(schedule=[1, 2])", 3, "pocha(schedule=[1, 2])", max_players=4)
    for seat in (0, None):
        story = record_story(old, seat, open_hands=False)
        assert len(story) == len(old.deals)
    assert "match over" in "\n".join(record_lines(old))
