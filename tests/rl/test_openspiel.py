"""tapete.rl.openspiel: every game as an OpenSpiel game, checked by OpenSpiel's own tests."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")

import tapete  # noqa: E402 — after the skip: OpenSpiel is not on every platform
import tapete.rl  # noqa: E402
from conformance_specs import SPECS  # noqa: E402
from tapete.interop.oh_hell import OhHellShape  # noqa: E402
from tapete.rl import openspiel  # noqa: E402

ALL_SPECS = [spec for specs in SPECS.values() for spec in specs]


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_openspiel_random_simulation_with_serialization_passes(spec: str) -> None:
    game = openspiel.load(spec)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_game_is_registered_under_its_name() -> None:
    names = openspiel.register()
    assert names == [f"tapete_{name}" for name in tapete.game_names()]
    assert set(names) <= set(pyspiel.registered_names())
    game = pyspiel.load_game("tapete_truco")
    assert game.num_players() == 2 and game.get_type().min_num_players == 2


@pytest.mark.parametrize(
    "spec",
    [
        "oh_hell(players=8, max_players=8, schedule=[1])",  # Oh Hell is 3–7 unless widened
        "oh_hell(players=2, min_players=2, schedule=[1])",
        "pocha(players=8, schedule=[1])",
        "pocha(players=2, min_players=2, schedule=[1])",
        "poch(players=6)",
        "pottle(players=7)",
    ],
)
def test_a_game_s_seat_count_is_within_the_range_its_openspiel_type_names(spec: str) -> None:
    """OpenSpiel reads a game type's player range as the bounds of every game of that name:
    a table its parameters widen (``max_players``, ``min_players``) is inside it too."""
    game = openspiel.load(spec)
    game_type = game.get_type()
    assert game_type.min_num_players <= game.num_players() <= game_type.max_num_players


def test_the_metadata_comes_from_the_spec() -> None:
    game = openspiel.load("pocha(players=3, schedule=[1, 2], tiebreak_players=nobody)")
    enc = tapete.rl.encoding("pocha(players=3, schedule=[1, 2], tiebreak_players=nobody)")
    assert game.num_distinct_actions() == len(enc.actions)
    assert game.information_state_tensor_shape() == [enc.size]
    assert game.observation_tensor_shape() == [enc.size]
    assert game.max_game_length() == 15  # 3 bids + 3 cards, then 3 bids + 6 cards
    assert (game.min_utility(), game.max_utility()) == (-15.0, 35.0)  # -5 - 10; 15 + 20
    assert game.max_chance_outcomes() == 36
    assert game.max_chance_nodes_in_history() == 1 + 2 * 35  # the dealer; 35 cards a deal
    assert game.max_history_length() == 15 + 71 == game.max_move_number()


def _deal_into(state: object, deck: list[int], cards: tuple[int, ...]) -> None:
    """Apply chance outcomes that lay the deck in this order."""
    for card in deck:
        if not state.is_chance_node():  # type: ignore[attr-defined]
            break
        state.apply_action(cards.index(card))  # type: ignore[attr-defined]


def test_a_seat_s_information_state_holds_no_other_hand() -> None:
    spec = "pocha(players=3, schedule=[2])"
    game, tgame = openspiel.load(spec), tapete.load(spec)
    cards = tgame.deck.cards
    deck = list(cards)
    random.Random(2).shuffle(deck)
    # Seats 1 and 2 swap hands (dealt from seat 1: positions 0, 3 and 1, 4; dealer 0 is last).
    swapped = list(deck)
    swapped[0], swapped[1], swapped[3], swapped[4] = deck[1], deck[0], deck[4], deck[3]
    states = []
    for order in (deck, swapped):
        state = game.new_initial_state()
        state.apply_action(0)  # seat 0 deals
        _deal_into(state, order, cards)
        states.append(state)
    a, b = states
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


HIDDEN_SPECS = [
    "pocha(players=3, schedule=[3])",
    "pocha(players=3, schedule=[1], ronda_india=true)",  # each seat sees the others' cards only
    "oh_hell(players=4, schedule=[3])",
    "tute",
    "tute(players=4)",
    "truco",
    "truco(players=4)",
    "poch(players=3, rounds=1)",
    "pottle(deals=1, extra_deals=0)",
]


@pytest.mark.parametrize("spec", HIDDEN_SPECS)
def test_a_seat_s_information_state_is_the_same_whatever_the_cards_it_has_not_seen(
    spec: str,
) -> None:
    """No leak through play: two first deals that differ only in two cards a seat has not seen
    (exchanged in the deck, neither in its hand, and its tapete view the same after every move
    of the deal) give it the same information state and observation, strings and tensors."""
    game, tgame = openspiel.load(spec), tapete.load(spec)
    enc, cards, n = tapete.rl.encoding(spec), tgame.deck.cards, tgame.players
    own = enc.fields[0]  # this seat's hand first: "hands" (its block first) or "hand"
    rng, compared = random.Random(spec), 0
    for _ in range(4):
        dealer, deck = rng.randrange(n), rng.sample(range(len(cards)), len(cards))
        moves, state = _first_deal(game, dealer, deck, rng)
        seat = rng.randrange(n)
        hand = _dealt(game, dealer, deck).observation_tensor(seat)[
            own.start : own.start + len(cards)
        ]
        hidden = [i for i, card in enumerate(deck) if not hand[card]]
        for _ in range(40):
            i, j = rng.sample(hidden, 2)
            other = list(deck)
            other[i], other[j] = deck[j], deck[i]
            if not _views_alike(tgame, enc, seat, dealer, deck, other, moves):
                continue
            again = _dealt(game, dealer, other)
            for move in moves:
                again.apply_action(move)
            for look in ("information_state_string", "information_state_tensor",
                         "observation_string", "observation_tensor"):  # fmt: skip
                assert getattr(again, look)(seat) == getattr(state, look)(seat), look
            compared += 1
    assert compared >= 4  # the test found deals to compare


# Hands of more than one card; Poch's deal=all shows the dealer's last card for trump.
REORDER_SPECS = [s for s in HIDDEN_SPECS if "ronda_india" not in s] + ["poch(deal=all, rounds=1)"]


@pytest.mark.parametrize("spec", REORDER_SPECS)
def test_a_hand_dealt_in_another_order_is_the_same_information_state(spec: str) -> None:
    """A hand is a set: a deal that gives every seat the same cards, one seat's in another
    order, gives every seat the same information state and observation, strings and tensors,
    after every move of the deal."""
    game, tgame = openspiel.load(spec), tapete.load(spec)
    cards, n = tgame.deck.cards, tgame.players
    rng = random.Random(spec)
    for seat in range(n):
        dealer, deck = rng.randrange(n), rng.sample(range(len(cards)), len(cards))
        hand = _hand_positions(tgame, dealer, deck, seat)
        # Its last card stays: Tute's and Poch's dealer shows it for trump.
        kept = hand[:-1]
        other = list(deck)
        for i, j in zip(kept, kept[::-1], strict=True):
            other[i] = deck[j]
        assert _deal_sets(tgame, dealer, other) == _deal_sets(tgame, dealer, deck)
        assert _hand_positions(tgame, dealer, other, seat) == hand
        assert other != deck  # the same cards, in another order
        moves, _ = _first_deal(game, dealer, deck, rng)
        states = [_dealt(game, dealer, d) for d in (deck, other)]
        for move in [None, *moves]:
            if move is not None:
                states = [s.child(move) for s in states]
            for look in ("information_state_string", "information_state_tensor",
                         "observation_string", "observation_tensor"):  # fmt: skip
                for p in range(n):
                    a, b = (getattr(s, look)(p) for s in states)
                    assert a == b, (look, p, move)


def _deal_event(tgame: Any, dealer: int, deck: list[int]) -> Any:
    cards = tgame.deck.cards
    state = tgame.new_state(0, decks=[[cards[i] for i in deck]], dealer=dealer)
    return next(e for e in tgame.events(state) if e.type == "deal").data


def _hand_positions(tgame: Any, dealer: int, deck: list[int], seat: int) -> list[int]:
    """Where in ``deck`` the cards dealt to ``seat`` lie, in the order dealt (top first)."""
    data, cards = _deal_event(tgame, dealer, deck), tgame.deck.cards
    where = {cards[i]: position for position, i in enumerate(deck)}
    return sorted(where[tgame.parse_card(text)] for text in data["hands"][seat])


def _deal_sets(tgame: Any, dealer: int, deck: list[int]) -> dict[str, Any]:
    """The deal event with each hand as a set and without the deck order."""
    data = dict(_deal_event(tgame, dealer, deck))
    data["hands"] = [frozenset(h) for h in data["hands"]]
    data.pop("deck")
    return data


def _dealt(game: Any, dealer: int, deck: list[int]) -> Any:
    """The OpenSpiel state once ``dealer`` has dealt the cards in ``deck`` (deck indices)."""
    state = game.new_initial_state()
    state.apply_action(dealer)
    for card in deck:
        if not state.is_chance_node():
            break
        state.apply_action(card)
    return state


def _first_deal(
    game: Any, dealer: int, deck: list[int], rng: random.Random
) -> tuple[list[int], Any]:
    """Random moves to the end of the first deal; the moves and the state after them."""
    state, moves = _dealt(game, dealer, deck), []
    while not state.is_terminal():
        move = rng.choice(state.legal_actions())
        after = state.child(move)
        if after.is_chance_node():  # the next deal: its cards are another story
            break
        moves.append(move)
        state = after
    return moves, state


def _views_alike(
    tgame: Any,
    enc: Any,
    seat: int,
    dealer: int,
    deck: list[int],
    other: list[int],
    moves: list[int],
) -> bool:
    """Whether ``seat``'s tapete view is the same in both deals after every move (both legal)."""
    cards = tgame.deck.cards
    states = [
        tgame.new_state(0, decks=[[cards[i] for i in d]], dealer=dealer) for d in (deck, other)
    ]
    for move in [None, *moves]:
        if move is not None:
            try:
                states = [tgame.apply(s, enc.actions[move]) for s in states]
            except tapete.errors.IllegalActionError:
                return False
        if tgame.observe(states[0], seat) != tgame.observe(states[1], seat):
            return False
    return True


@pytest.mark.parametrize(
    "spec", ["pocha(players=3, schedule=[2, 1])", "truco(target=2)", "poch(rounds=2)"]
)
def test_every_chance_node_offers_distinct_outcomes_whose_probabilities_sum_to_1(spec: str) -> None:
    """What OpenSpiel's samplers and exact algorithms assume of a chance node: each outcome once,
    a probability each, 1 in all, and the outcomes are the node's legal actions."""
    game, rng = openspiel.load(spec), random.Random(spec)
    state, nodes = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            assert len(set(actions)) == len(actions) == len(state.legal_actions())
            assert sorted(actions) == state.legal_actions()
            assert all(p > 0 for _, p in outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            nodes += 1
        _random_step(state, rng)
    assert nodes > game.num_players()  # the dealer, then the cards of every deal


def test_states_clone_and_pickle_to_the_same_match() -> None:
    game = openspiel.load("truco(target=2)")
    state, rng = game.new_initial_state(), random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        again = pickle.loads(pickle.dumps(state))
        assert str(again) == str(state) and again.history() == state.history()
        assert state.clone().legal_actions() == state.legal_actions()


@pytest.mark.parametrize(
    "spec", ["truco(target=2)", "pocha(players=3, schedule=[1])", "tute", "pottle(deals=1)"]
)
def test_every_history_fits_in_the_longest_the_game_names(spec: str) -> None:
    """OpenSpiel's contract: ``history()`` and ``move_number()`` never pass
    ``max_history_length()`` and ``max_move_number()``, chance nodes (a deck drawn card by card
    each deal) included. Truco has 39 chance nodes a hand and a few decisions."""
    game = openspiel.load(spec)
    for seed in range(3):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            _random_step(state, rng)
        assert len(state.history()) <= game.max_history_length()
        assert state.move_number() <= game.max_move_number()


def test_a_game_pickles_and_its_copy_plays() -> None:
    """OpenSpiel remakes an unpickled game from its string, without ``__init__``: the copy
    still knows its spec, makes states and observes them."""
    game = openspiel.load("pocha(players=3, schedule=[1, 2])")
    again = pickle.loads(pickle.dumps(game))
    assert again.spec == "pocha(players=3, schedule=[1, 2])"
    assert again.max_history_length() == game.max_history_length()
    state, rng = again.new_initial_state(), random.Random(1)
    while state.is_chance_node():
        _random_step(state, rng)
    assert len(state.information_state_tensor(state.current_player())) == 365


def _random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_a_resampled_state_is_one_the_seat_cannot_tell_apart(spec: str) -> None:
    """``resample_from_infostate``: the seat's information state, observation and legal actions
    stay; the other seats' hidden cards are dealt anew (not always as they were); the drawn
    state plays on, clones and pickles whole; the state it came from is unchanged."""
    game, rng = openspiel.load(spec), random.Random(7)
    state = game.new_initial_state()
    for _ in range(rng.randrange(40, 80)):
        if state.is_terminal():
            break
        _random_step(state, rng)
    while state.is_chance_node():
        _random_step(state, rng)
    if state.is_terminal():
        return
    seat, before = state.current_player(), str(state)
    for draw in range(6):
        drawn = state.resample_from_infostate(seat, random.Random(draw).random)
        assert drawn.information_state_string(seat) == state.information_state_string(seat)
        assert drawn.observation_string(seat) == state.observation_string(seat)
        assert drawn.legal_actions() == state.legal_actions()
        again = pickle.loads(pickle.dumps(drawn))
        assert str(again) == str(drawn)
        while not drawn.is_terminal():
            _random_step(drawn, rng)
        assert len(drawn.returns()) == game.num_players()
    assert str(state) == before


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_resampling_deals_the_hidden_cards_anew(spec: str) -> None:
    """At the first decision the others' hands are hidden, and resampling deals them otherwise
    (their observations differ between draws)."""
    game, rng = openspiel.load(spec), random.Random(5)
    state = game.new_initial_state()
    while state.is_chance_node():
        _random_step(state, rng)
    seat = state.current_player()
    others = [p for p in range(game.num_players()) if p != seat]
    seen = set()
    for draw in range(8):
        drawn = state.resample_from_infostate(seat, random.Random(draw).random)
        seen.add(tuple(drawn.observation_string(p) for p in others))
    assert len(seen) > 1


@pytest.mark.parametrize(
    ("draw", "refused"),
    [("x", TypeError), (None, TypeError), (True, TypeError), (float("nan"), ValueError)],
)
def test_a_sampler_that_gives_no_number_is_refused_by_name(
    draw: object, refused: type[Exception]
) -> None:
    """Text from the sampler was multiplied into a string of 2**53 copies: a MemoryError."""
    game, rng = openspiel.load("pocha(players=3, schedule=[2])"), random.Random(5)
    state = game.new_initial_state()
    while state.is_chance_node():
        _random_step(state, rng)
    with pytest.raises(refused, match=r"probability_sampler gave .*: a float in \[0, 1\)"):
        state.resample_from_infostate(state.current_player(), lambda: draw)
    np = pytest.importorskip("numpy")
    drawn = state.resample_from_infostate(state.current_player(), lambda: np.float64(0.5))
    assert drawn.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("spec", ["pocha(players=3, schedule=[2])", "truco(players=4, target=2)"])
def test_openspiel_s_information_set_search_plays_a_match(spec: str) -> None:
    """OpenSpiel's own IS-MCTS (its Python one: the C++ ``ISMCTSBot`` cannot call a Python
    game's resampling) plays a whole match against the random rollouts it is built on."""
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    numpy = pytest.importorskip("numpy")
    game, rng = openspiel.load(spec), random.Random(3)
    rs = numpy.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 20, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            _random_step(state, rng)
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert len(state.returns()) == game.num_players()


SHAPES = [OhHellShape(), OhHellShape(players=3, suits=4, ranks=13, tricks=7)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.spec)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_oh_hell_through_the_bridge_agrees_with_openspiel_s_oh_hell(
    shape: OhHellShape, seed: int
) -> None:
    rng = random.Random(seed)
    dealer = rng.randrange(shape.players)
    dealt = rng.sample(range(shape.suits * shape.ranks), shape.players * shape.tricks + 1)
    ours, tgame = openspiel.load(shape.spec), tapete.load(shape.spec)
    enc = tapete.rl.encoding(shape.spec)
    mine = ours.new_initial_state()
    mine.apply_action(dealer)
    _deal_into(mine, list(shape.setup(dealer, dealt).decks[0]), tgame.deck.cards)
    theirs = pyspiel.load_game("oh_hell", shape.openspiel_params()).new_initial_state()
    for action in [shape.tricks, dealer, *dealt]:
        theirs.apply_action(action)
    while not theirs.is_terminal():
        assert mine.current_player() == theirs.current_player()
        legal = [enc.actions[i] for i in mine.legal_actions()]
        assert sorted(shape.action_to_openspiel(a) for a in legal) == theirs.legal_actions()
        action = rng.choice(legal)
        mine.apply_action(enc.index[action])
        theirs.apply_action(shape.action_to_openspiel(action))
    assert mine.is_terminal()
    assert mine.returns() == theirs.returns()


def test_a_game_name_that_is_not_tapete_s_is_refused() -> None:
    with pytest.raises(tapete.errors.SpecError, match="no game named 'poker'"):
        openspiel.load("poker")


def test_a_tapete_game_loads_as_its_spec_does() -> None:
    """As the environments take a spec or a Game; a Game was refused as "not text"."""
    game = openspiel.load(tapete.load("pocha(players=3, schedule=[1, 2])"))
    assert str(game) == str(openspiel.load("pocha(players=3, schedule=[1, 2])"))
    assert game.num_players() == 3
    with pytest.raises(TypeError, match="a game is a spec such as 'pocha\\(players=3\\)'"):
        openspiel.load(3)  # type: ignore[arg-type]


def _snapshot(state: Any) -> tuple[Any, ...]:
    n = state.num_players()
    seen = tuple(state.information_state_string(p) for p in range(n))
    return str(state), state.history(), state.current_player(), seen, state.legal_actions()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_refused_move_or_chance_outcome_changes_nothing(seed: int) -> None:
    """An illegal action, or a chance outcome not on offer (a seat past the table, a card
    already drawn), raises a ValueError and leaves the state as it was: its information states,
    its history, and what a pickle or a clone of it replays."""
    game = openspiel.load("pocha(players=3, schedule=[2, 1])")
    state, rng = game.new_initial_state(), random.Random(seed)
    size = game.num_distinct_actions()
    while not state.is_terminal():
        if state.is_chance_node():
            offered = {a for a, _ in state.chance_outcomes()}
            refused = [a for a in range(size + 2) if a not in offered]
        else:
            refused = [a for a in range(size + 2) if a not in state.legal_actions()]
        before = _snapshot(state)
        with pytest.raises(ValueError):
            state.apply_action(rng.choice(refused))
        assert _snapshot(state) == before
        _random_step(state, rng)
        assert _snapshot(pickle.loads(pickle.dumps(state))) == _snapshot(state)
    assert _snapshot(state.clone()) == _snapshot(state)


def test_a_chance_outcome_not_on_offer_is_named() -> None:
    state = openspiel.load("pocha(players=3, schedule=[1])").new_initial_state()
    with pytest.raises(ValueError, match="chance outcome 3 is not on offer here: the first dealer"):
        state.apply_action(3)
    state.apply_action(0)
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    with pytest.raises(ValueError, match=f"chance outcome {first} is not on offer here: a card"):
        state.apply_action(first)


@pytest.mark.parametrize(
    ("spec", "error", "words"),
    [
        ("pocha(players=9)", tapete.errors.SpecError, "players=9 is not accepted"),
        ("pocha(", tapete.errors.SpecError, "is not a game spec"),
        (None, TypeError, "a spec is text"),
        (3, TypeError, "a spec is text"),
    ],
)
def test_spec_param_refuses_what_tapete_refuses_naming_it(
    spec: object, error: type[Exception], words: str
) -> None:
    """``spec_param(None)`` failed on ``'NoneType' object has no attribute 'replace'``, and a
    spec tapete refuses was written out, to be refused only when OpenSpiel loaded it."""
    with pytest.raises(error, match=words):
        openspiel.spec_param(spec)  # type: ignore[arg-type]
    assert openspiel.spec_param("pocha(players=4)") == "pocha"  # the canonical spec


def test_a_registered_game_refuses_the_spec_of_another_game() -> None:
    openspiel.register()
    with pytest.raises(tapete.errors.SpecError, match="tapete_pocha plays pocha specs, not tute"):
        pyspiel.load_game("tapete_pocha", {"spec": "tute"})
    spec = openspiel.spec_param("oh_hell(players=3)")
    with pytest.raises(tapete.errors.SpecError, match="load tapete_oh_hell"):
        pyspiel.load_game("tapete_pocha", {"spec": spec})
    assert pyspiel.load_game("tapete_oh_hell", {"spec": spec}).num_players() == 3
