"""The conformance suite every registered game gets for free (docs/adding-a-game.md).

Seeded random playouts to the end, checking the contract at every step: one actor or a finished
match; legal actions non-empty, each one applies and round-trips as text; other actions are
refused with a rule code and change nothing; states are values; views depend only on what the
seat may know (``sample_state`` of a view observes back to the same view); records round-trip
and replay to the same result; the same seed gives the same match; every bot level plays every
spec; no card is ever in two places or lost, no chip made or lost; out-of-range and malformed
actions are refused with a clear error.
"""

from __future__ import annotations

import copyreg
import dataclasses
import pickle
import random
import typing
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from conformance_specs import CHIPS, ON_TABLE, SPECS
from support import fingerprint, random_playout
from tapete import bots, record
from tapete.bench import compiled
from tapete.cards import CARD_TEXT, CardSet
from tapete.game import Game, format_value
from tapete.games import ENTRIES, pocha
from tapete.match import play

ALL_SPECS = [spec for name in sorted(SPECS) for spec in SPECS[name]]
LEVELS = ["random", "easy", "medium", "hard(iterations=2)"]
FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_registered_game_has_conformance_specs() -> None:
    assert set(SPECS) == set(tapete.game_names())
    assert set(CHIPS) == set(tapete.game_names()), "say how each game's chips are counted (or None)"
    assert set(ON_TABLE) == set(tapete.game_names()), "say where each game's trick is"


def test_every_spec_is_canonical_and_loads() -> None:
    for spec in ALL_SPECS:
        game = tapete.load(spec)
        assert tapete.load(game.spec) == game


def test_every_option_is_played_with_more_than_one_value() -> None:
    """Each field of each rules module's ``Params`` takes two values or more over the specs of
    the games of that module (``oh_hell``'s count for Pocha's module): an option added to a game
    is played by the suite off its default, as a bool both ways."""
    seen: dict[tuple[str, str], set[str]] = {}
    for spec in ALL_SPECS:
        params = tapete.load(spec).params
        for field in dataclasses.fields(params):
            value = format_value(getattr(params, field.name))
            seen.setdefault((type(params).__module__, field.name), set()).add(value)
    once = sorted(
        f"{module}.{name}={values}" for (module, name), values in seen.items() if len(values) < 2
    )
    assert not once, f"options played with one value only: {once}"
    for entry in ENTRIES.values():
        for field in dataclasses.fields(entry.rules().Params):
            assert (entry.module, field.name) in seen


WRONG_TYPES = ("4", 4.5, b"4", [4], {"players": 4}, object())  # never a parameter's value


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_params_built_directly_refuse_a_wrong_type_as_load_does(name: str) -> None:
    """Every field of a game's ``Params`` given a value of a type it does not take raises the
    SpecError naming that field, and the same one ``tapete.load`` gives for the same value."""
    entry = ENTRIES[name]
    params = entry.rules().Params
    hints = typing.get_type_hints(params)
    for field in dataclasses.fields(params):
        if hints[field.name] is type:
            # The compiled build keeps a union's or a tuple's annotation only as "some type":
            # built directly, such a field is refused by the game's own checks, by name where
            # they can compare the value, else by the compiled code's TypeError; a spec gets a
            # SpecError either way.
            for value in WRONG_TYPES:
                with pytest.raises((tapete.SpecError, TypeError)):
                    params(**{**entry.defaults, field.name: value})
            with pytest.raises(tapete.SpecError):
                tapete.load(f"{name}({field.name}='4')")
            continue
        for value in WRONG_TYPES:
            with pytest.raises(tapete.SpecError) as direct:
                params(**{**entry.defaults, field.name: value})
            assert direct.value.param == field.name, (field.name, value)
        with pytest.raises(tapete.SpecError) as loaded:
            tapete.load(f"{name}({field.name}='4')")
        with pytest.raises(tapete.SpecError) as direct:
            params(**{**entry.defaults, field.name: "4"})
        assert str(direct.value) == str(loaded.value)


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_playout_contract(spec: str, seed: int) -> None:
    game = tapete.load(spec)
    path = random_playout(game, seed)
    seen: set[int] = set()
    for state, _ in path:
        seen.update(game.legal_actions(state))
    for state, action in path:
        seat = game.current_player(state)
        if seat is None:
            assert game.outcome(state) is not None
            assert game.legal_actions(state) == []
            assert game.why_illegal(state, next(iter(seen))) is not None
            break
        assert game.outcome(state) is None
        assert 0 <= seat < game.players
        legal = game.legal_actions(state)
        assert legal and action in legal
        assert len(set(legal)) == len(legal)
        before = fingerprint(state)
        for a in legal:
            assert game.why_illegal(state, a) is None
            assert game.parse_action(game.format_action(a)) == a
        game.apply(state, legal[0])
        for a in sorted(seen - set(legal))[:8]:
            error = game.why_illegal(state, a)
            assert isinstance(error, tapete.IllegalActionError), game.format_action(a)
            assert error.rule and str(error)
            with pytest.raises(tapete.IllegalActionError) as raised:
                game.apply(state, a)
            assert raised.value.rule == error.rule
        assert fingerprint(state) == before, "apply or why_illegal changed a state"


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False))
def test_views_depend_only_on_what_the_seat_may_know(
    spec: str, seed: int, pick: random.Random
) -> None:
    game = tapete.load(spec)
    path = random_playout(game, seed)
    for state, _ in pick.sample(path, min(len(path), 5)):
        for seat in [*range(game.players), None]:
            view = game.observe(state, seat)
            assert "Setup" not in repr(fingerprint(view)), "a view holds chance inputs"
            if seat is None:
                continue
            sampled = game.sample_state(view, random.Random(pick.random()))
            assert fingerprint(game.observe(sampled, seat)) == fingerprint(view)
            assert game.legal_actions(sampled) == game.legal_actions(state) or (
                game.current_player(state) != seat
            )


def scribble(value: Any) -> None:
    """Change every list and dict inside ``value``, as careless code might."""
    if isinstance(value, list):
        for item in value:
            scribble(item)
        value.append("scribbled")
    elif isinstance(value, dict):
        for item in value.values():
            scribble(item)
        value["scribbled"] = True
    elif isinstance(value, tuple):
        for item in value:
            scribble(item)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_changing_the_events_given_changes_no_state(spec: str) -> None:
    """The events of a step, as ``events`` and ``visible_events`` give them, are the caller's
    own: a list changed in one (a hand, the scores) changes neither the state nor what it
    tells next time."""
    game = tapete.load(spec)
    for state, _ in random_playout(game, 5):
        before, told = fingerprint(state), [e.to_json() for e in game.events(state)]
        for seat in [None, *range(game.players)]:
            for event in (*game.events(state), *game.visible_events(state, seat)):
                scribble(dict(event.data))
        assert fingerprint(state) == before, "an event given out was the state's own"
        assert [e.to_json() for e in game.events(state)] == told


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_records_round_trip_and_replay(spec: str, seed: int) -> None:
    game = tapete.load(spec)
    final, rec = play(game, ["random"] * game.players, seed=seed)
    text = record.dumps(rec)
    again = record.loads(text)
    assert again == rec
    assert record.dumps(again) == text
    replayed = record.replay(again)
    assert game.outcome(replayed) == game.outcome(final)
    assert fingerprint(game.observe(replayed, None)) == fingerprint(game.observe(final, None))
    assert rec.result is not None and list(rec.result["scores"]) == list(
        game.outcome(final).scores  # type: ignore[union-attr]
    )


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_same_seed_same_match(spec: str) -> None:
    game = tapete.load(spec)
    one = play(game, ["random"] * game.players, seed=11)[1]
    two = play(game, ["random"] * game.players, seed=11)[1]
    other = play(game, ["random"] * game.players, seed=12)[1]
    assert one == two
    assert one.deals[0].deck != other.deals[0].deck


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_given_deck_orders_are_used_and_checked(spec: str) -> None:
    game = tapete.load(spec)
    cards = game.deck.cards
    order = tuple(reversed(cards))
    state = game.new_state(3, decks=[order])
    deal = next(e for e in game.events(state) if e.type == "deal")
    assert [game.parse_card(c) for c in deal.data["deck"]] == list(order)
    with pytest.raises(tapete.SpecError, match="deck order"):
        game.new_state(3, decks=[order[1:]])


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("spec", ALL_SPECS)
def test_every_bot_level_plays_every_spec(spec: str, level: str) -> None:
    """Every seat played by one level from the first deal into the third (or to the end), each
    choice legal. The hard search makes the first decision of each seat only: its exact endgame
    takes minutes at tables of six or seven, and tests/bots plays whole matches with it."""
    game = tapete.load(spec)
    bot = bots.load(level)
    rng = random.Random(spec)
    state = game.new_state(seed=3)
    deals = decisions = 0
    most = game.players if level.startswith("hard") else 10_000
    while (seat := game.current_player(state)) is not None and decisions < most:
        legal = game.legal_actions(state)
        action = bot.choose(game.observe(state, seat), legal, rng)
        assert action in legal, (seat, game.format_action(action))
        state = game.apply(state, action)
        decisions += 1
        deals += any(e.type == "deal" for e in game.events(state))
        if deals == 2:
            break


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_states_and_views_pickle(spec: str, seed: int) -> None:
    """Every view pickles to an equal value (a server ships views to its bot processes), and,
    in the pure build, every state to one that plays on alike, whatever events the last step
    left in it; with no pickling rule registered for read-only mappings (the web server
    registers one). The compiled build's states are mypyc classes, which do not pickle."""
    game = tapete.load(spec)
    path = random_playout(game, seed)
    picked = random.Random(seed).sample(path[:-1], min(8, len(path) - 1))
    registered = copyreg.dispatch_table.pop(MappingProxyType, None)
    try:
        for state, action in [*picked, path[-1]]:
            seat = game.current_player(state)
            view = game.observe(state, seat)
            assert pickle.loads(pickle.dumps(view)) == view
            if compiled():
                continue
            copy = pickle.loads(pickle.dumps(state))
            assert fingerprint(copy) == fingerprint(state)
            if seat is not None:
                after = fingerprint(game.apply(state, action))
                assert fingerprint(game.apply(copy, action)) == after
    finally:
        if registered is not None:
            copyreg.dispatch_table[MappingProxyType] = registered


MALFORMED = (-1, -2, -128, -(2**31), 2**31, 2**63, 10**30, -(10**30), 255, 256, 4096)


@pytest.mark.parametrize("spec", ALL_SPECS)
@FAST
@given(seed=st.integers(0, 2**32 - 1), noise=st.lists(st.integers(-(2**70), 2**70), max_size=6))
def test_out_of_range_actions_are_refused_by_rule_and_change_nothing(
    spec: str, seed: int, noise: list[int]
) -> None:
    """Negative, huge and random ints are rule errors from ``why_illegal`` and ``apply`` alike,
    at every decision and after the end, never a crash; the state stays as it was."""
    game = tapete.load(spec)
    rng = random.Random(seed)
    path = random_playout(game, seed)
    states = [state for state, _ in path]
    for state in [*rng.sample(states, min(6, len(states))), states[-1]]:
        legal = set(game.legal_actions(state))
        before = fingerprint(state)
        tries = [*MALFORMED, *noise, *(rng.randrange(-300, 70_000) for _ in range(6))]
        for action in (a for a in tries if a not in legal):
            error = game.why_illegal(state, action)
            assert isinstance(error, tapete.IllegalActionError), action
            assert error.rule and str(error)
            with pytest.raises(tapete.IllegalActionError) as raised:
                game.apply(state, action)
            assert raised.value.rule == error.rule
        assert fingerprint(state) == before, "a refused action changed the state"


def one_state_a_phase(game: Game[Any, Any], seed: int) -> list[Any]:
    """The first state of each kind of decision (the game's phase) in a seeded random playout,
    and the state after its end."""
    path = random_playout(game, seed)
    phases: dict[str, Any] = {}
    for state, _ in path:
        phases.setdefault(repr(getattr(game.observe(state, None), "phase", None)), state)
    return [*phases.values(), path[-1][0]]


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_every_small_int_is_judged_by_a_rule_at_every_kind_of_decision(spec: str) -> None:
    """Each int an action space could hold (a card number that is no card, such as 0 or 15; a
    card of another deck; a word's number) is either legal or refused by a rule with its
    sentence, from ``why_illegal`` and ``apply`` alike: never a crash in writing the sentence."""
    game = tapete.load(spec)
    for state in one_state_a_phase(game, 11):
        legal = set(game.legal_actions(state))
        for action in (a for a in range(-2, 1024) if a not in legal):
            error = game.why_illegal(state, action)
            assert isinstance(error, tapete.IllegalActionError), action
            assert error.rule and str(error)
            with pytest.raises(tapete.IllegalActionError):
                game.apply(state, action)


# --- conservation: no card in two places or lost, no chip made or lost --------------------------

PLAYED = ("trick", "run")  # the events that take cards out of the hands for good


@pytest.mark.parametrize("spec", ALL_SPECS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_cards_are_conserved_at_every_step(spec: str, seed: int) -> None:
    """Each deal uses the game's deck once over; at every step the hands never share a card,
    and the cards in the hands plus those played this deal (tricks, Poch's runs, the trick on
    the table) are the cards dealt plus those drawn, none played twice or still held."""
    game = tapete.load(spec)
    on_table = ON_TABLE[game.name]
    full_deck = sorted(CARD_TEXT[c] for c in game.deck.cards)
    deck: set[str] = set()
    played: list[str] = []
    dealt = drawn = 0
    for state, _ in random_playout(game, seed):
        for event in game.events(state):
            data = event.data
            if event.type == "deal":
                assert sorted(data["deck"]) == full_deck, "a deal is not the game's deck"
                deck, played, drawn = set(data["deck"]), [], 0
                dealt = sum(len(h) for h in data["hands"])
                assert len({c for h in data["hands"] for c in h}) == dealt, "a card dealt twice"
            elif event.type in PLAYED:
                played += [str(c) for c in data["cards"] if c is not None]
            elif event.type == "draw":
                drawn += len(data["cards"])
        held = [CARD_TEXT[c] for h in state.hands for c in CardSet(h)]
        out = played + [CARD_TEXT[c] for c in on_table(state)]
        assert len(set(held)) == len(held), "two hands hold the same card"
        assert len(set(out)) == len(out), f"a card played twice: {out}"
        assert not set(held) & set(out), "a card played is still held"
        assert set(held) | set(out) <= deck, "a card from outside the deck"
        assert len(held) + len(out) == dealt + drawn, "a card vanished or appeared"


@pytest.mark.parametrize("spec", [s for s in ALL_SPECS if CHIPS[tapete.load(s).name]])
@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_chips_are_conserved_at_every_step(spec: str, seed: int) -> None:
    game = tapete.load(spec)
    count = CHIPS[game.name]
    assert count is not None
    counts = {count(state) for state, _ in random_playout(game, seed)}
    assert len(counts) == 1, f"chips made or lost: {sorted(counts)}"


# --- malformed actions ---------------------------------------------------------------------------

MALFORMED_TEXT = (
    "",
    "   ",
    "play",
    "play ZZ",
    "play 1o 2o 3o",
    "bid",
    "bid -1",
    "bid 1.5",
    "bid 99999999999999999999999",
    "raise raise",
    "\x00",
    "🂡",
    "jugar 1o",
    # Digits that are no number (str.isdigit is true of them, int() refuses them)
    "bid ²",
    "²",
    "raise ²",
    "bet ²",
    "play ²c",
    # Numbers past Python's int() limit of 4300 digits: refused as text, not by int()
    *(f"{verb}{'9' * 5000}{end}" for verb, end in [("bid ", ""), ("", ""), ("raise ", "")]),
    *(f"{verb}{'9' * 5000}{end}" for verb, end in [("bet ", ""), ("play ", "o"), ("", "h")]),
)
NOT_ACTIONS = (None, 1.5, float("nan"), True, [1], (1,), b"bid 1", {"play": 1})


# Text made of the notation's own words, numbers and cards, and of anything else: the fixed lists
# above name the known slips, these find the ones nobody thought of.
NOTATION_WORDS = (
    *("bid", "play", "raise", "accept", "run", "bet", "call", "pass", "swap", "sing", "tute"),
    *("trump", "none", "down", "oros", "copas", "espadas", "bastos", "c", "d", "h", "s"),
    *("1o", "12b", "7e", "3c", "Ah", "Td", "2c", "9s", "0", "1", "2", "3", "07", "99", "-1"),
)
ANY_TEXT = st.text(max_size=12) | st.lists(
    st.sampled_from(NOTATION_WORDS) | st.text(max_size=3), max_size=4
).map(" ".join)


@pytest.mark.parametrize("spec", ALL_SPECS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), texts=st.lists(ANY_TEXT, min_size=1, max_size=8))
def test_any_text_is_an_action_that_writes_back_or_is_refused_changing_nothing(
    spec: str, seed: int, texts: list[str]
) -> None:
    """Whatever text ``parse_action`` reads names an action whose written form reads back as
    it; all else is InvalidActionError. Given to ``apply`` and ``why_illegal`` at a decision,
    text is that action's verdict or InvalidActionError, and a refusal leaves the state as it
    was."""
    game = tapete.load(spec)
    path = random_playout(game, seed)
    state = path[random.Random(seed).randrange(len(path))][0]
    before = fingerprint(state)
    for text in texts:
        try:
            action = game.parse_action(text)
        except tapete.InvalidActionError:
            with pytest.raises(tapete.InvalidActionError):
                game.apply(state, text)
            continue
        assert game.parse_action(game.format_action(action)) == action, text
        if game.why_illegal(state, text) is not None:
            with pytest.raises(tapete.IllegalActionError):
                game.apply(state, text)
    assert fingerprint(state) == before, "a refused text changed the state"


SPEC_WORDS = st.sampled_from(
    ["players", "deck", "schedule", "min_players", "max_players", "rank_order", "chips", "x"]
)
SPEC_VALUES = st.sampled_from(
    [
        *("3", "4", "0", "-1", "true", "none", "[1, 2]", "[]", "48", "french", "natural", "'3'"),
        *("3.0", "+3", "04", "[+1, 02]", "0x3", "1_0", "--3", "-+1", "0o4", "-(-4)"),
    ]
)
ANY_SPEC = st.text(max_size=20) | st.builds(
    lambda name, pairs: name + (f"({', '.join(f'{k}={v}' for k, v in pairs)})" if pairs else ""),
    st.sampled_from(sorted(ENTRIES)),
    st.lists(st.tuples(SPEC_WORDS, SPEC_VALUES), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(text=ANY_SPEC)
def test_any_spec_text_is_a_game_with_a_canonical_spec_or_is_refused(text: str) -> None:
    """A spec ``load`` reads gives a game whose canonical spec, and whose changed parameters
    given as keywords, load the same game; all else is SpecError, never another exception."""
    try:
        game = tapete.load(text)
    except tapete.SpecError:
        return
    assert tapete.load(game.spec) == game and tapete.load(game.spec).spec == game.spec
    assert tapete.load(game.name, **game.changes) == game


@settings(max_examples=300, deadline=None)
@given(text=ANY_TEXT, french=st.booleans())
def test_any_card_text_is_a_card_that_writes_back_or_is_refused(text: str, french: bool) -> None:
    """``parse_card`` and ``CardSet.parse`` read a card, or cards, whose text reads back as
    them, or refuse with InvalidActionError."""
    try:
        card = tapete.parse_card(text, french)
    except tapete.InvalidActionError:
        pass
    else:
        assert tapete.parse_card(tapete.format_card(card), french) == card
    try:
        cards = CardSet.parse(text, french)
    except tapete.InvalidActionError:
        return
    assert CardSet.parse(str(cards), french) == cards


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_what_format_action_writes_parse_action_reads_back(spec: str) -> None:
    """Every int either has text that reads back as that int, or is refused: a card of another
    deck or a number out of range never gets the text of some other action."""
    game = tapete.load(spec)
    for number in [*range(-2, 300), 1000, 10**6, 2**70]:
        try:
            text = game.format_action(number)
        except tapete.InvalidActionError as exc:
            assert str(number) in str(exc)
            continue
        assert game.parse_action(text) == number, (number, text)


def test_a_number_written_with_leading_zeros_is_the_same_action() -> None:
    """``bid 07`` is ``bid 7``, ``bet 003`` is ``bet 3``: zeros in front are no part of how
    long a number may be written."""
    numbered = 0
    for spec in ("pocha", "oh_hell", "pottle", "poch"):
        game = tapete.load(spec)
        for action in range(-2, 1024):
            try:
                text = game.format_action(action)
            except tapete.InvalidActionError:
                continue
            verb, _, number = text.rpartition(" ")
            if number.isdecimal():
                assert game.parse_action(f"{verb} 000{number}") == action, text
                numbered += 1
    assert numbered > 100  # the bids and bets of four games


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_the_ints_with_text_are_exactly_the_game_s_actions(spec: str) -> None:
    """``format_action`` gives text to the actions of the game and to nothing else: the fixed
    action space of its encoding (``tapete.rl.encodings``), every card, call, bid, bet and raise
    the rules can ever allow. A bid past the largest hand, or a bet or raise past the chips
    that can be in play, is InvalidActionError, as text and as a number."""
    encodings = pytest.importorskip("tapete.rl.encodings")  # the encodings need NumPy
    game = tapete.load(spec)
    space = set(encodings.encoding(game).actions)
    if game.rules is pocha:
        # Pocha's notation names the bids of the deck's largest hand, its encoding those of the
        # schedule's: a bid past this hand is the rule bid-range, whatever the schedule.
        space |= {pocha.BID + n for n in range(game.deck.size // game.players + 1)}
    named = set()
    for number in [*range(-2, 2 * max(space) + 2), 10**6, 2**70]:
        try:
            text = game.format_action(number)
        except tapete.InvalidActionError:
            continue
        named.add(number)
        assert game.parse_action(text) == number, (number, text)
    assert named == space, sorted(named ^ space)[:5]


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_an_action_is_told_to_a_seat_only_if_it_has_a_text(spec: str) -> None:
    """``visible_action`` tells a seat the text of an action of the game (``format_action``'s,
    or less where the seat may know less), and refuses any other int as ``format_action``
    does, rather than make up a text for it (``bid 9871``) or crash."""
    game = tapete.load(spec)
    state = game.new_state(seed=3)
    for number in [*range(-2, 1100), 10**6, 2**70]:
        try:
            text = game.format_action(number)
        except tapete.InvalidActionError:
            for seat in (0, None):
                with pytest.raises(tapete.InvalidActionError):
                    game.visible_action(state, number, seat)
            continue
        assert game.visible_action(state, number, None) in (text, "play down"), number


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_a_card_of_another_deck_is_no_action(spec: str) -> None:
    """Every card text of the Spanish and French decks either names a card of the game's deck
    or is refused as text, naming the card: never some other deck's card, refused later by
    the rules as if it were a move."""
    game = tapete.load(spec)
    mine = set(game.deck.cards)
    for text in sorted(set(CARD_TEXT) - {"?"}):
        try:
            action = game.parse_action(f"play {text}")
        except tapete.InvalidActionError as exc:
            assert text.lower() in str(exc).lower()
            continue
        assert action in mine, (text, action)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_malformed_actions_are_refused_with_a_clear_error(spec: str) -> None:
    """Text that is no action and values that are neither an int nor text are errors naming
    the problem, from ``parse_action``, ``why_illegal`` and ``apply`` alike, at every kind of
    decision and after the end; the state stays as it was."""
    game = tapete.load(spec)
    for state in one_state_a_phase(game, 5):
        before = fingerprint(state)
        for text in MALFORMED_TEXT:
            try:
                action = game.parse_action(text)
            except tapete.InvalidActionError as exc:
                assert str(exc), text
                with pytest.raises(tapete.InvalidActionError):
                    game.apply(state, text)
                continue
            # Parsed (the notation forgives case and spaces): the rules judge it.
            assert action not in game.legal_actions(state) or text.strip(), text
        for value in NOT_ACTIONS:
            with pytest.raises(tapete.InvalidActionError, match="an action is an int or its text"):
                game.why_illegal(state, value)  # type: ignore[arg-type]
            with pytest.raises(tapete.InvalidActionError):
                game.apply(state, value)  # type: ignore[arg-type]
        assert fingerprint(state) == before, "a malformed action changed the state"
