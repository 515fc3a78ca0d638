"""Every registered game comes with what players meet it through: bots, a presenter, a rules page.

``docs/adding-a-game.md`` lists these; the golden transcript, the conformance specs and the README
screenshot are checked by their own tests (test_playthroughs, test_conformance, tui screenshots).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import importlib
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete import bots, record
from tapete.cards import CardSet, format_card
from tapete.game import Rules
from tapete.games import ENTRIES, poch, pocha, pottle, rules_of, truco, tute
from tapete.match import play
from tapete.present import PRESENTERS, actions, present

ROOT = Path(__file__).resolve().parents[1]

# Each game module, as the contract types it: mypy checks every one against ``Rules``.
MODULES: tuple[Rules[Any, Any], ...] = (poch, pocha, pottle, truco, tute)


def test_every_registered_module_is_checked_against_the_contract() -> None:
    assert {m.NAME for m in MODULES} == {entry.rules().NAME for entry in ENTRIES.values()}


def test_every_games_module_is_reached_the_ways_python_imports_it() -> None:
    """``tapete.games`` is the package of the games' modules (the list of names is
    ``tapete.game_names()``), so ``import tapete.games.truco as truco`` and attribute access both
    reach the module."""
    for name in tapete.game_names():
        module = ENTRIES[name].module
        imported = importlib.import_module(module)
        path = module.split(".")
        assert functools.reduce(getattr, path[1:], tapete) is imported
    import tapete.games.truco as truco_module

    assert truco_module is truco
    assert "truco" in tapete.game_names() and "oh_hell" in tapete.game_names()


def test_a_typed_load_gives_the_modules_states_and_views() -> None:
    game: tapete.Game[tute.State, tute.View] = tapete.load("tute(players=4)", tute)
    view: tute.View = game.observe(game.new_state(seed=3), 0)
    assert rules_of(view) is tute and view.phase == tute.Phase.PLAY
    with pytest.raises(tapete.SpecError, match="tute is not a game of the module"):
        tapete.load("tute", pocha)


CONTRACT = ("NAME", "Params", "Phase", "State", "View", *(n for n in dir(Rules) if n[0] != "_"))


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_every_games_module_lists_its_public_names_in_all(module: Any) -> None:
    """``__all__`` is every public name the module defines (a test keeps it so as names are
    added), so ``from tapete.games.pocha import *`` gives the contract and every name the docs
    use, and none of the module's own imports."""
    file = module.__name__.split(".")[-1]
    tree = ast.parse((ROOT / "src" / "tapete" / "games" / f"{file}.py").read_text())
    defined = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        defined.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    assert sorted(module.__all__) == sorted(n for n in defined if not n.startswith("_"))
    namespace: dict[str, Any] = {}
    exec(f"from {module.__name__} import *", namespace)
    docs = "".join(p.read_text() for p in (ROOT / "docs").rglob("*.md"))
    used = set(re.findall(rf"\b{file}\.([A-Za-z]\w*)", docs))
    documented = {n for n in used if hasattr(module, n)} | set(CONTRACT)
    assert documented <= set(namespace), sorted(documented - set(namespace))
    assert "dataclass" not in namespace and "check" not in namespace


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_every_game_has_bots_a_presenter_and_a_rules_page(name: str) -> None:
    game = tapete.load(name)
    state = game.new_state(seed=5)
    seat = game.current_player(state)
    assert seat is not None
    view = game.observe(state, seat)
    legal = game.legal_actions(state)
    game_name = rules_of(view).NAME
    assert game_name == game.rules.NAME

    strategies = importlib.import_module(bots.STRATEGIES[game_name])
    assert bots.strategies(view) is strategies
    for level in ("easy", "medium", "hard(iterations=2)"):
        assert bots.load(level).choose(view, legal, random.Random(0)) in legal

    assert game_name in PRESENTERS
    table = present(view, "en")
    assert table.status == "your turn" and len(table.seats) == game.players
    shown = actions(game, legal, "en", view)
    assert sorted([*shown.cards.values(), *(b.action for b in shown.buttons)]) == sorted(legal)

    assert (ROOT / "docs" / "rules" / f"{game_name}.md").is_file()
    assert (ROOT / "tests" / "games" / f"test_{game_name}.py").is_file()
    assert (ROOT / "tests" / "bots" / f"test_{game_name}_bots.py").is_file()


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_every_bot_level_says_when_it_has_no_legal_action_to_choose_from(name: str) -> None:
    game = tapete.load(name)
    view = game.observe(game.new_state(seed=5), 0)
    for level in (*bots.LEVELS, "hard(iterations=2)"):
        with pytest.raises(ValueError, match="no legal action to choose from"):
            bots.load(level).choose(view, [], random.Random(0))
    with pytest.raises(ValueError, match="no legal action to choose from"):
        bots.LevelBot("easy").decide(view, (), random.Random(0))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_bot_given_a_spectators_view_says_it_decides_for_a_seat(name: str) -> None:
    """A spectator's view (``observe(state, None)``) failed in every game's strategies with a
    bare AssertionError, or a hard search playing cards the seat to act does not hold."""
    game = tapete.load(name)
    state = game.new_state(seed=5)
    legal = game.legal_actions(state)
    spectator = game.observe(state, None)
    refused = r"a bot decides for a seat: give it the view of the seat to act"
    for level in ("easy", "medium", "hard(iterations=2)", "expert(iterations=2)"):
        with pytest.raises(ValueError, match=refused):
            bots.load(level).choose(spectator, legal, random.Random(0))
    with pytest.raises(ValueError, match=refused):
        bots.hint(spectator)
    seat = game.current_player(state)
    assert bots.load("easy").choose(game.observe(state, seat), legal, random.Random(0)) in legal


@pytest.mark.parametrize("name", [None, 3, b"easy"])
def test_a_bot_or_seat_that_is_no_text_is_refused_as_no_bot_name(name: Any) -> None:
    """``bots.load(None)`` spoke of a game spec ("a spec is text, such as 'pocha(players=3)'")
    and ``players.load(None)`` failed on "'NoneType' object has no attribute 'split'"."""
    from tapete import players

    with pytest.raises(TypeError, match=r"a bot is a level's name, such as 'random'"):
        bots.load(name)
    with pytest.raises(TypeError, match=r"a seat is a bot level's name, such as 'random'"):
        players.load(name)


def test_an_object_no_game_made_has_no_presenter_or_bots() -> None:
    with pytest.raises(tapete.SpecError, match="not the view of a registered game"):
        present(object())
    with pytest.raises(tapete.SpecError, match="not the view of a registered game"):
        bots.strategies("a view")


def test_a_spec_names_the_parameter_it_refuses() -> None:
    with pytest.raises(tapete.SpecError, match="players is given twice"):
        tapete.load("tute(players=2, players=4)")
    with pytest.raises(tapete.SpecError, match="players=abc is not accepted: a whole number"):
        tapete.load("pocha(players=abc)")
    with pytest.raises(tapete.SpecError, match="not a game spec"):
        tapete.load("pocha(seed=" + "9" * 5000 + ")")  # an int too long for Python to read


@pytest.mark.parametrize(
    ("spec", "keywords"),
    [
        ("pocha(players=3, deck=48)", {"players": 3, "deck": 48}),
        ("pocha(players=3, deck=48)", {"deck": 48, "players": 3}),
        ("pocha(schedule=[1, 2], dealer_hook=false)", {"schedule": [1, 2], "dealer_hook": False}),
        ("oh_hell(players=5, rank_order=natural)", {"players": 5, "rank_order": "natural"}),
        ("truco(players=4)", {"players": 4}),
        ("pocha(players=4)", {"players": 4}),  # a default: the canonical spec leaves it out
    ],
)
def test_parameters_given_as_keywords_make_the_game_the_spec_names(
    spec: str, keywords: dict[str, Any]
) -> None:
    """``load(name, key=value)`` is ``load("name(key=value)")``: the same game, the same
    canonical spec, so a record of a match played with it replays."""
    name = spec.split("(")[0]
    game, written = tapete.load(name, **keywords), tapete.load(spec)
    assert game == written and game.spec == written.spec
    first, *rest = keywords.items()
    mixed = tapete.load(f"{name}({first[0]}={_spec_text(first[1])})", **dict(rest))
    assert mixed == written and mixed.spec == written.spec
    _, rec = play(game, ["random"] * game.players, seed=2)
    assert rec.game == written.spec and record.recorded_game(rec) == written
    assert game.outcome(record.replay(rec)) is not None


def _spec_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize(
    ("spec", "keywords"),
    [
        ("pocha(players=2)", {"players": 2}),  # out of range
        ("pocha(players=3.5)", {"players": 3.5}),  # no value a spec can write
        ("pocha(schedule=[1, true])", {"schedule": [1, True]}),
        ("pocha(schedule=[1, 99])", {"schedule": (1, 99)}),
        ("pocha(deck=52)", {"deck": 52}),
        ("pocha(dealer_hook=3)", {"dealer_hook": 3}),
        ("pocha(scoring=nope)", {"scoring": "nope"}),
        ("pocha(colour=red)", {"colour": "red"}),  # no such parameter
        ("tute(players=3)", {"players": 3}),
        ("pocha(dealer_hook='false')", {"dealer_hook": "false"}),
    ],
)
def test_a_keyword_parameter_is_refused_in_the_words_of_the_spec(
    spec: str, keywords: dict[str, Any]
) -> None:
    with pytest.raises(tapete.SpecError) as written:
        tapete.load(spec)
    with pytest.raises(tapete.SpecError) as given:
        tapete.load(spec.split("(")[0], **keywords)
    assert str(given.value) == str(written.value)


@pytest.mark.parametrize(
    ("keywords", "refused"),
    [
        ({"dealer_hook": "false"}, "dealer_hook='false' is not accepted: true or false"),
        ({"dealer_hook": "True"}, "dealer_hook='True' is not accepted: true or false"),
        ({"players": "none"}, "players='none' is not accepted: a whole number"),
    ],
)
def test_text_that_names_a_word_value_is_refused_quoted(
    keywords: dict[str, Any], refused: str
) -> None:
    """The text "false" (a setting read from a file, say) was refused as
    "dealer_hook=false is not accepted: true or false": the refusal contradicted itself."""
    with pytest.raises(tapete.SpecError) as given:
        tapete.load("pocha", **keywords)
    assert str(given.value) == refused and given.value.param == next(iter(keywords))
    assert tapete.load("pocha", dealer_hook=False).spec == "pocha(dealer_hook=false)"


def test_a_parameter_in_the_spec_and_as_a_keyword_is_refused_by_name() -> None:
    with pytest.raises(tapete.SpecError, match="deck is given both in the spec and as a keyword"):
        tapete.load("pocha(players=3, deck=48)", deck=48)  # even when the two agree
    with pytest.raises(tapete.SpecError) as refused:
        tapete.load("oh_hell(players=5)", pocha, players=5)
    assert refused.value.param == "players"


@pytest.mark.parametrize(
    ("typed", "spec"),
    [
        ("Pocha", "pocha"),
        ("OH_HELL(players=3)", "oh_hell(players=3)"),
        ("Truco_Paulista", "truco"),
        ("TUTE(players=4)", "tute(players=4)"),
    ],
)
def test_a_game_name_is_read_in_any_case_and_named_as_registered(typed: str, spec: str) -> None:
    assert tapete.load(typed).spec == spec
    with pytest.raises(tapete.SpecError, match="no game named 'Poker'"):
        tapete.load("Poker")


def test_no_game_has_a_parameter_load_could_not_take_as_a_keyword() -> None:
    """``spec`` and ``rules`` are ``load``'s own arguments."""
    for entry in ENTRIES.values():
        fields = {f.name for f in dataclasses.fields(entry.rules().Params)}
        assert not fields & {"spec", "rules"}


def test_a_deck_order_names_its_repeated_and_missing_cards() -> None:
    game = tapete.load("tute")
    deck = list(game.deck.cards)
    deck[1] = deck[0]
    with pytest.raises(tapete.SpecError, match=r"missing: \S+; not in the deck: none; repeated"):
        game.new_state(decks=[deck])


@pytest.mark.parametrize("seat", [4, -1, "a", True, 1.0])
def test_a_seat_not_at_the_table_is_refused_not_read_as_another(seat: Any) -> None:
    """A view is only ever of a seat of the table or of a spectator: ``-1`` would otherwise
    index the last seat's hand, and ``True`` be seat 1."""
    game = tapete.load("pocha")
    state = game.new_state(seed=4)
    with pytest.raises(ValueError, match=rf"seat {seat!r} is not at this table: a seat is 0 to 3"):
        game.observe(state, seat)
    with pytest.raises(ValueError, match="is not at this table"):
        game.visible_events(state, seat)
    with pytest.raises(ValueError, match="is not at this table"):
        game.visible_action(state, game.legal_actions(state)[0], seat)


def test_a_seat_or_seed_given_as_a_numpy_integer_is_that_number() -> None:
    numpy = pytest.importorskip("numpy")
    game = tapete.load("pocha")
    state = game.new_state(seed=numpy.int64(4))
    assert repr(state) == repr(game.new_state(seed=4))
    assert game.observe(state, numpy.int64(2)) == game.observe(state, 2)
    seed: Any
    for seed in ("4", 4.0, True):
        with pytest.raises(tapete.SpecError, match="is not accepted: a whole number"):
            game.new_state(seed=seed)


@pytest.mark.parametrize("spec", ["pocha", "tute", "truco(players=4)", "poch", "pottle"])
@pytest.mark.parametrize("dealer", [True, "1", 1.0])
def test_a_first_dealer_that_is_no_seat_number_is_refused(spec: str, dealer: Any) -> None:
    """``True`` would otherwise deal as seat 1 and print as "dealer True"; "1" would fail
    deep in the rules with a comparison error."""
    game = tapete.load(spec)
    with pytest.raises(tapete.SpecError, match=r"dealer=.* is not accepted: a seat from 0 to") as e:
        game.new_state(seed=1, dealer=dealer)
    assert e.value.param == "dealer"
    numpy = pytest.importorskip("numpy")
    assert repr(game.new_state(seed=1, dealer=numpy.int64(1))) == repr(
        game.new_state(seed=1, dealer=1)
    )


@pytest.mark.parametrize("value", [None, 3, b"bid 1", ["bid 1"]])
def test_parse_action_refuses_what_is_not_text(value: Any) -> None:
    game = tapete.load("pocha")
    with pytest.raises(tapete.InvalidActionError, match="parse_action takes the text of an action"):
        game.parse_action(value)


@pytest.mark.parametrize(
    "spec, deck",
    [
        ("pocha", "oros"),
        ("tute", "oros"),
        ("oh_hell", "clubs"),
        ("oh_hell(suits=3, ranks=6)", "clubs"),
        ("truco", "clubs"),
        ("truco(deck=clean)", "clubs"),
        ("poch", "clubs"),
        ("pottle", "clubs"),
    ],
)
def test_a_word_that_is_no_move_is_answered_with_the_game_s_moves_and_its_own_cards(
    spec: str, deck: str
) -> None:
    """At the line prompt "foo" is no move: the answer names the moves the game's notation
    reads and how its own deck's cards are written, with three cards of that deck. A word at
    Poch's betting or Pottle's bid was answered "is not a card", and the cards' example named
    both decks' (Oh Hell's answer showed a Spanish "play 3o")."""
    game = tapete.load(spec)
    other = "clubs" if deck == "oros" else "oros"
    with pytest.raises(tapete.InvalidActionError) as bare:
        game.parse_action("foo")
    said = str(bare.value)
    assert said.startswith("'foo' is not a") and "action" in said.split(";")[0], said
    assert deck in said and other not in said, said
    examples = said.split("e.g. ")[1].split(" (")[0].split()
    assert len(examples) == 3
    for card in examples:  # each a card of this game's deck, as its notation plays it
        assert game.parse_action(f"play {card}") == game.parse_action(card)
    shown = re.search(r"\(bid 2, (play \w+)\)", said)  # Pocha's and Oh Hell's example move
    if shown:
        game.parse_action(shown[1])
    # After "play", the word was meant as a card: only how cards are written.
    with pytest.raises(tapete.InvalidActionError) as played:
        game.parse_action("play foo")
    assert str(played.value).startswith("'foo' is not a card: write rank then suit")


@pytest.mark.parametrize("value", [-1, 0, 15, 16, 128, 999, True, "1o", 1.0, None])
def test_format_card_refuses_a_number_that_is_no_card(value: Any) -> None:
    """-1 used to print as ``15b`` and 0 as ``0o``: text ``parse_card`` does not read back."""
    with pytest.raises(tapete.InvalidActionError, match="is not a card"):
        format_card(value)


def test_every_card_number_formats_and_parses_back() -> None:
    from tapete.cards import is_card, parse_card

    for number in (n for n in range(128) if is_card(n)):
        assert parse_card(format_card(number), french=number >= 64) == number


DECKS = ["pocha", "pocha(deck=48)", "oh_hell(players=3, suits=2, ranks=5)", "truco(deck=clean)"]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), spec=st.sampled_from([*DECKS, "poch", "pottle"]))
def test_any_set_of_a_game_s_cards_reads_back_from_its_text_and_its_repr(
    data: st.DataObject, spec: str
) -> None:
    game = tapete.load(spec)
    cards = CardSet(data.draw(st.sets(st.sampled_from(game.deck.cards))))
    french = max(game.deck.suits) >= 4  # French suits are 4 to 7
    assert CardSet.parse(str(cards), french=french) == cards
    assert eval(repr(cards), {"CardSet": CardSet}) == cards
    assert pickle.loads(pickle.dumps(cards)) == cards


@pytest.mark.parametrize("value", [None, 3, b"1o"])
def test_card_text_readers_refuse_what_is_not_text(value: Any) -> None:
    from tapete.cards import parse_card

    with pytest.raises(tapete.InvalidActionError, match="not " + repr(value).replace("'", ".")):
        parse_card(value)
    with pytest.raises(tapete.InvalidActionError):
        tapete.CardSet.parse(value)


@pytest.mark.parametrize(("spec", "number"), [("truco", 0), ("truco", 1), ("poch", 15)])
def test_a_number_that_is_no_card_of_the_deck_is_no_action_not_a_card_missing(
    spec: str, number: int
) -> None:
    """Truco and Poch said "0o is not in your hand" of the number 0: no card of their deck."""
    game = tapete.load(spec)
    state = game.new_state(seed=2)
    while game.observe(state, None).phase.name not in ("PLAY", "SHEDDING"):
        state = game.apply(state, game.legal_actions(state)[0])
    error = game.why_illegal(state, number)
    assert error is not None and error.rule == "no-such-action", error
    assert str(number) in str(error)


def test_a_seat_that_is_no_bot_is_refused_before_the_match() -> None:
    from tapete.match import play

    game = tapete.load("pocha(players=3, schedule=[1])")
    with pytest.raises(TypeError, match=r"seat 1: a seat is a bot level .*not 7"):
        play(game, ["random", 7, "random"], seed=1)  # type: ignore[list-item]


@pytest.mark.parametrize("seats", ["random", None, 3])
def test_seats_that_are_no_list_are_refused_saying_what_to_give(seats: Any) -> None:
    """``play(game, "random")`` was counted as six seats, one a letter ("needs 3 seats, not
    6"), and None failed on Python's ``len``."""
    from tapete.match import play

    game = tapete.load("pocha(players=3, schedule=[1])")
    expected = r"seats is a list, one bot level or agent a seat, such as \['random', 'random',"
    with pytest.raises(TypeError, match=expected):
        play(game, seats, seed=1)


def test_play_takes_a_game_not_its_spec() -> None:
    """A spec's text failed on "'str' object has no attribute 'players'"."""
    from tapete.match import play

    with pytest.raises(TypeError, match=r"play takes a Game, such as tapete\.load\('pocha'\)"):
        play("pocha", ["random"] * 4, seed=1)  # type: ignore[arg-type]


def test_a_numpy_seed_makes_a_record_that_is_written_and_read_back() -> None:
    """``new_state`` takes NumPy's integers, but the record kept the ``numpy.int64``, and
    ``record.dumps`` failed: "Object of type int64 is not JSON serializable"."""
    import numpy as np

    game = tapete.load("pocha(players=3, schedule=[1, 2])")
    _, rec = play(game, ["random"] * 3, seed=np.int64(7))  # type: ignore[arg-type]
    again = record.loads(record.dumps(rec))
    assert again.seed == 7 and again == play(game, ["random"] * 3, seed=7)[1]


class _TextBot:
    """A bot that answers with the text of its action, as ``apply`` takes it."""

    def __init__(self, game: tapete.Game[Any, Any]) -> None:
        self.game = game

    def choose(self, view: Any, legal_actions: list[int], rng: random.Random) -> str:
        return self.game.format_action(rng.choice(legal_actions))


def test_an_agent_may_answer_with_the_text_of_its_action() -> None:
    """``apply`` and ``why_illegal`` take an action's text, and so did ``play`` until it wrote
    the record: "format_action takes an action as an int, not 'bid 0'"."""
    game = tapete.load("pocha(players=3, schedule=[1, 2])")
    seats: list[Any] = [_TextBot(game), "random", "random"]  # Agent says an int: text too
    final, rec = play(game, seats, seed=1)
    assert game.outcome(record.replay(record.loads(record.dumps(rec)))) == game.outcome(final)
    assert rec == play(game, seats, seed=1)[1]


@pytest.mark.parametrize("names", [["Ana"], ["Ana", "Bea", "Caio", "Duda"], [1, 2, 3], "AB C"])
def test_names_that_are_not_one_text_a_seat_are_refused_before_the_match(names: Any) -> None:
    """Too few names failed mid-match with an IndexError, and numbers made a record that
    ``record.loads`` refused ("seats[0]: 'name' must be a string")."""
    game = tapete.load("pocha(players=3, schedule=[1])")
    with pytest.raises(ValueError, match=r"names is a list of 3 texts, one a seat"):
        play(game, ["random"] * 3, seed=1, names=names)
    named = play(game, ["random"] * 3, seed=1, names=("Ana", "Bea", "Caio"))[1]
    assert [s.name for s in record.loads(record.dumps(named)).seats] == ["Ana", "Bea", "Caio"]


def test_another_games_state_or_view_is_named_as_such() -> None:
    truco_game, pocha_game = tapete.load("truco"), tapete.load("pocha")
    state = pocha_game.new_state(seed=1)
    foreign = r"a tapete\.games\.pocha\.State is not a State of truco: give it to the game"
    with pytest.raises(TypeError, match=foreign):
        truco_game.apply(state, 0)
    with pytest.raises(TypeError, match=foreign):
        truco_game.observe(state, 0)
    for query in (
        lambda: truco_game.why_illegal(state, 0),
        lambda: truco_game.visible_events(state, 0),
        lambda: truco_game.visible_action(state, 0, 1),
    ):
        with pytest.raises(TypeError, match=foreign):
            query()
    with pytest.raises(TypeError, match=r"a tapete\.games\.pocha\.View is not a View of tute"):
        tapete.load("tute").sample_state(pocha_game.observe(state, 0), random.Random(0))
    own = truco_game.new_state(seed=1)  # the game's own state keeps the rules' own error
    with pytest.raises(tapete.IllegalActionError, match="999 is not a Truco action"):
        truco_game.apply(own, 999)


def test_a_state_made_under_other_rules_of_the_same_module_is_named_as_such() -> None:
    """Pocha for three, Pocha for four and Oh Hell share a module: each refuses the others'
    states, naming the rules the state was made under; a game loaded again takes its own."""
    three, four, oh_hell = (tapete.load(s) for s in ("pocha(players=3)", "pocha", "oh_hell"))
    state = three.new_state(seed=1)
    made = r"a state of pocha\(players=3\) is not a state of pocha: give it to the game"
    with pytest.raises(TypeError, match=made):
        four.apply(state, three.legal_actions(state)[0])
    with pytest.raises(TypeError, match=made):
        four.observe(state, 3)
    with pytest.raises(TypeError, match="is not a state of oh_hell"):
        oh_hell.apply(state, three.legal_actions(state)[0])
    with pytest.raises(TypeError, match=made):
        four.why_illegal(state, three.legal_actions(state)[0])
    with pytest.raises(TypeError, match=made):
        four.visible_events(state, 3)
    again = tapete.load("pocha(players=3)")
    assert again.observe(again.apply(state, three.legal_actions(state)[0]), 0).seat == 0


def test_a_view_seen_under_other_rules_of_the_same_module_is_not_sampled() -> None:
    """A view of Pocha for three given to Pocha for four is refused, as its state is, rather
    than dealt out as a state of three seats that the game then refuses."""
    three, four = tapete.load("pocha(players=3)"), tapete.load("pocha")
    view = three.observe(three.new_state(seed=1), 0)
    made = r"a view of pocha\(players=3\) is not a view of pocha: give it to the game"
    with pytest.raises(TypeError, match=made):
        four.sample_state(view, random.Random(0))
    with pytest.raises(TypeError, match="is not a view of oh_hell"):
        tapete.load("oh_hell(players=3)").sample_state(view, random.Random(0))
    again = tapete.load("pocha(players=3)")
    assert again.observe(again.sample_state(view, random.Random(0)), 0) == view


@pytest.mark.parametrize("spec", ["oh_hell(players=5)", "tute(players=4)", "poch(rounds=2)"])
def test_a_game_pickles_and_copies_to_the_same_game(spec: str) -> None:
    """A ``Game`` travels to another process (its rules module by name) and deep-copies."""
    game = tapete.load(spec)
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert again == game and again.spec == game.spec
        state = game.new_state(seed=3)
        assert again.legal_actions(state) == game.legal_actions(state)


@pytest.mark.parametrize("spec", ["pocha(schedule=[1])", "truco", "poch", "pottle", "oh_hell"])
def test_a_deck_order_may_be_given_as_card_text(spec: str) -> None:
    game = tapete.load(spec)
    order = list(reversed(game.deck.cards))  # French decks too: there 2c..9c are clubs
    as_text = game.new_state(seed=1, decks=[[format_card(c) for c in order]])
    assert repr(as_text) == repr(game.new_state(seed=1, decks=[order]))
    with pytest.raises(tapete.SpecError, match="a deck order holds cards: 'xx' is not a card"):
        game.new_state(seed=1, decks=[["xx", *order[1:]]])
    with pytest.raises(tapete.SpecError, match="not None"):
        game.new_state(seed=1, decks=[[None]])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "spec",
    [
        "pocha(players=" + "-" * 3000 + "3)",  # our parser's recursion
        "pocha(players=" + "-" * 200_000 + "3)",  # Python's parser: MemoryError
        "pocha(players=" + "not " * 2000 + "3)",
        "pocha(schedule=" + "[" * 3000 + "]" * 3000 + ")",
    ],
)
def test_a_spec_nested_too_deep_is_refused_as_no_spec(spec: str) -> None:
    """A value of thousands of minus signs or brackets raised RecursionError (or MemoryError)
    out of ``tapete.load``, ``tapete play SPEC`` and a record's ``game``; the refusal quotes
    the start of the text, not all of it."""
    with pytest.raises(tapete.SpecError, match=r"is not a game spec: write name") as refused:
        tapete.load(spec)
    assert len(str(refused.value)) < 200
    with pytest.raises(tapete.SpecError, match=r"is not a bot"):
        bots.load(spec.replace("pocha(players=", "hard(ms=").replace("pocha(", "hard("))


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("pocha(players=+3)", "pocha(players=3)"),
        ("pocha(players=03)", "pocha(players=3)"),
        ("pocha(schedule=[+1, 02, 003], players=+0004)", "pocha(schedule=[1, 2, 3])"),
        ("pocha(schedule=[+1,-0])", None),  # read, and refused as a schedule
    ],
)
def test_a_number_with_a_leading_plus_or_zeros_is_read(written: str, read: str | None) -> None:
    """``+3`` and ``03`` were refused as no game spec, while ``0x3`` and ``1_0`` were read:
    a spec reads the decimal numbers a person writes, a sign or leading zeros too."""
    if read is None:
        with pytest.raises(tapete.SpecError, match=r"^schedule=\[1, 0\] is not accepted"):
            tapete.load(written)
        return
    game = tapete.load(written)
    assert game.spec == read and tapete.load(game.spec) == game


@pytest.mark.parametrize(
    "written",
    [
        *("pocha(players=0x3)", "pocha(players=0o3)", "pocha(players=0b11)", "pocha(players=1_0)"),
        *("pocha(players=--3)", "pocha(players=- -3)", "pocha(players=+-3)", "pocha(players=-+3)"),
        *("pocha(schedule=[1, 0x2])", "pocha(schedule=[1, --2])"),
    ],
)
def test_a_number_written_in_python_s_other_ways_is_no_spec(written: str) -> None:
    """Hexadecimal, octal, binary, underscores and signs on signs are Python's, not a person's
    way of writing a number of players: no game spec, in the words that say what one is."""
    with pytest.raises(tapete.SpecError, match=r"is not a game spec: write name or name\("):
        tapete.load(written)


HUGE_NAME: dict[str, Any] = {"y" * 100_000: 1}  # a parameter's name, typed by a program


@pytest.mark.parametrize(
    ("load", "start"),
    [
        (lambda: tapete.load("pocha", schedule=list(range(100_000))), "schedule=[0, 1, 2, 3"),
        (lambda: tapete.load("pocha(schedule=[" + "9, " * 100_000 + "9])"), "schedule=[9, 9, 9"),
        (lambda: tapete.load("x" * 100_000), "no game named 'xxx"),
        (lambda: tapete.load("pocha", **HUGE_NAME), "pocha has no parameter yyy"),
        (lambda: tapete.load("pocha", deck="z" * 100_000), "deck=zzz"),
        (lambda: tapete.load("pocha(players=3, players=4" + " " * 100_000 + ")"), "'pocha(pla"),
        (lambda: tapete.load("pocha", players=10**5000), "players=~10**5000 is not accepted"),
    ],
)
def test_a_refusal_of_a_huge_value_quotes_its_start_and_its_length(load: Any, start: str) -> None:
    """A refusal repeated the whole value it refused: a schedule of 100,000 hands gave a
    message of 700 KB, and an int too long for Python to write a ValueError of its own. A
    field longer than a few lines is quoted by its first 80 characters and its length, in
    every language; the game's own words (its list of parameters) stay whole."""
    from tapete.i18n import spec_text

    with pytest.raises(tapete.SpecError) as refused:
        load()
    message = str(refused.value)
    assert message.startswith(start) and len(message) < 400, message[:400]
    if "~10**" not in message:
        assert re.search(r"… \(\d+ characters\)", message)
        assert re.search(r"… \(\d+ caracteres\)", spec_text("es", refused.value))
        assert re.search(r"… \(\d+ caracteres\)", spec_text("pt", refused.value))
    if "has no parameter" in message:
        assert message.endswith("tiebreak_players, ronda_india")
    assert pickle.loads(pickle.dumps(refused.value)).phrase == refused.value.phrase


@pytest.mark.parametrize("spec", ["pocha", "tute", "truco", "poch", "pottle"])
def test_an_action_of_any_size_refused_is_said_in_a_line(spec: str) -> None:
    """Text that is no action, sent by a bot or a client, was quoted whole in the refusal: a
    line of a few characters more than the text, whatever its size."""
    with pytest.raises(tapete.InvalidActionError) as refused:
        tapete.load(spec).parse_action("play " + "1o" * 50_000)
    message = str(refused.value)
    assert len(message) < 300 and "characters) …" in message, message
    assert "1o1o1o" in message[:100], message


def test_a_refusal_of_an_ordinary_value_quotes_it_whole() -> None:
    with pytest.raises(tapete.SpecError) as refused:
        tapete.load("pocha", schedule=list(range(60)))
    assert str(refused.value).startswith("schedule=[0, 1, 2, " + ", ".join(map(str, range(3, 60))))


@pytest.mark.parametrize("decks", [None, 7, "1o 2o", [None], [7], ["1o", "2o"], [b"1o"]])
def test_decks_of_the_wrong_shape_are_refused_naming_decks(decks: Any) -> None:
    """``decks`` is a list of deck orders: text was read a character at a time ("'1' is not a
    card"), and a number or None refused by Python's own words ("'int' object is not
    iterable"), none of them naming the field."""
    game = tapete.load("pocha(players=3, schedule=[1])")
    with pytest.raises(tapete.SpecError, match=r"^decks=.* is not accepted: a list of deck") as e:
        game.new_state(seed=1, decks=decks)
    assert e.value.param == "decks"
    from tapete.i18n import spec_text

    assert spec_text("es", e.value).endswith("cada uno una lista de cartas")


@pytest.mark.parametrize(
    ("fields", "refused"),
    [
        ({"seed": "x"}, r"seed=x is not accepted: a whole number \(the deals follow from it\)"),
        ({"seed": 1.5}, r"seed=1\.5 is not accepted"),
        ({"seed": True}, r"seed=true is not accepted"),
        ({"dealer": "0"}, r"dealer='0' is not accepted: a seat number"),
        ({"decks": None}, r"decks=None is not accepted: a list of deck orders"),
        ({"decks": "ab"}, r"decks='ab' is not accepted: a list of deck orders"),
        ({"decks": [["1o"]]}, r"a Setup's deck order holds cards as ints .* not '1o'"),
    ],
)
def test_a_setup_refuses_what_new_state_refuses(fields: dict[str, Any], refused: str) -> None:
    """``tapete.Setup`` is public, and a rules module's ``new_state`` takes it as given: a seed
    of "x" or 1.5 dealt deals of its own, and a dealer of "0" failed comparing it to ints."""
    with pytest.raises(tapete.SpecError, match=refused):
        tapete.Setup(**fields)
    game = tapete.load("pocha(players=3, schedule=[1])")
    order = list(game.deck.cards)
    setup = tapete.Setup(7, [order], 1)  # type: ignore[arg-type]
    assert setup == tapete.Setup(7, (tuple(order),), 1) and tapete.Setup(7).decks == ()
    state = game.rules.new_state(game.params, setup)
    assert repr(state) == repr(game.new_state(7, decks=[order], dealer=1))


def test_decks_may_be_any_iterable_of_orders() -> None:
    """Tuples, lists, a generator or a NumPy array of deck orders deal alike."""
    np = pytest.importorskip("numpy")
    game = tapete.load("pocha(players=3, schedule=[1])")
    order = list(reversed(game.deck.cards))
    expected = repr(game.new_state(seed=1, decks=[order]))
    for decks in ((tuple(order),), (o for o in [order]), np.array([order])):
        assert repr(game.new_state(seed=1, decks=decks)) == expected


@pytest.mark.parametrize("rng", [7, None, "seed"])
def test_sample_state_names_the_random_source_it_needs(rng: Any) -> None:
    game = tapete.load("tute")
    view = game.observe(game.new_state(seed=1), 0)
    with pytest.raises(TypeError, match=r"sample_state draws from a random\.Random, not a"):
        game.sample_state(view, rng)
    assert game.observe(game.sample_state(view, random.Random(3)), 0) == view


def test_a_prompt_s_line_refused_is_quoted_whole_with_what_to_write() -> None:
    """A line a person can type (up to 200 characters) is refused with all of its explanation:
    cut as a whole sentence, the quoted text pushed out the part that says what to write."""
    with pytest.raises(tapete.InvalidActionError) as refused:
        tapete.load("pocha").parse_action("a" * 200)
    message = str(refused.value)
    assert "characters)" not in message and message.count("a" * 200) == 2
    assert "is not an action: write 'bid N' or 'play CARD'" in message
