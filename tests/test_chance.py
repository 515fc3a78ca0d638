"""Dealing the unseen cards consistently with a view (``chance.deal_constrained``), in time."""

from __future__ import annotations

import itertools
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import tapete
from support import fingerprint
from tapete import chance, record
from tapete.match import play

# Captured from an eight-player Pocha with the 48-card deck, mid-hand: seven hidden hands of three
# or four cards (and the stock, empty), five seats with voids revealed. No random placement finds
# a deal in twenty tries, and a backtracking search did not end.
UNSEEN = 635015484748208780
SIZES = [3, 3, 3, 4, 3, 3, 0, 3, 0]
EXCLUDED = [
    *(18446462598732847114, 0, 281474976710655, 0, 18446462598732840960, 0, 65535),
    *(18446462598732840960, 0),
]


class TooSlowError(Exception):
    pass


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Fail the test, rather than hang it, when the block takes longer than ``seconds``."""
    if not hasattr(signal, "setitimer"):
        pytest.skip("no interval timer on this platform")

    def late(*_: object) -> None:
        raise TooSlowError

    previous = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    slow = False
    try:
        yield
    except TooSlowError:
        slow = True  # failed below, without the traceback of the search it stopped
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if slow:
        pytest.fail(f"took more than {seconds} s", pytrace=False)


def consistent(hands: list[int], unseen: int, sizes: list[int], excluded: list[int]) -> bool:
    return (
        [h.bit_count() for h in hands] == sizes
        and sum(hands) == unseen
        and all(not h & e for h, e in zip(hands, excluded, strict=True))
    )


def test_a_deal_tightly_constrained_everywhere_is_found_at_once() -> None:
    with within(10):
        for seed in range(20):
            hands = chance.deal_constrained(UNSEEN, SIZES, EXCLUDED, random.Random(seed))
            assert consistent(hands, UNSEEN, SIZES, EXCLUDED)


def test_where_random_placement_fails_the_guided_one_still_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With every quick try failing, the fallback alone deals the hard case, in time. (The
    compiled build calls ``_greedy`` directly, unpatched: the quick tries fail here anyway.)"""
    monkeypatch.setattr(chance, "_greedy", lambda *_: None)
    with within(10):
        for seed in range(5):
            hands = chance.deal_constrained(UNSEEN, SIZES, EXCLUDED, random.Random(seed))
            assert consistent(hands, UNSEEN, SIZES, EXCLUDED)


def _some_deal_exists(cards: list[int], sizes: list[int], excluded: list[int]) -> bool:
    for seats in itertools.product(range(len(sizes)), repeat=len(cards)):
        if all(not excluded[s] >> c & 1 for c, s in zip(cards, seats, strict=True)) and all(
            seats.count(s) == n for s, n in enumerate(sizes)
        ):
            return True
    return False


def test_the_fallback_deals_exactly_when_some_deal_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small random constraints, checked against every assignment of the cards to the seats:
    a consistent deal is returned whenever one exists, and ValueError only when none does."""
    monkeypatch.setattr(chance, "_greedy", lambda *_: None)
    rng = random.Random(7)
    found = refused = 0
    for _ in range(300):
        cards = rng.sample(range(1, 40), rng.randint(1, 7))
        seats = rng.randint(1, 3)
        cuts = sorted(rng.randint(0, len(cards)) for _ in range(seats - 1))
        sizes = [b - a for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
        excluded = [sum(1 << c for c in cards if rng.random() < 0.4) for _ in range(seats)]
        unseen = sum(1 << c for c in cards)
        if _some_deal_exists(cards, sizes, excluded):
            hands = chance.deal_constrained(unseen, sizes, excluded, rng)
            assert consistent(hands, unseen, sizes, excluded)
            found += 1
        else:
            with pytest.raises(ValueError, match="no deal of the unseen cards"):
                chance.deal_constrained(unseen, sizes, excluded, rng)
            refused += 1
    assert found > 50 and refused > 50


def test_pocha_samples_a_crowded_table_mid_hand_in_time() -> None:
    """The view the constraints above came from: eight players, every card of 48 dealt."""
    game = tapete.load("pocha(players=8, schedule=n_ones, deck=48, ronda_india=true)")
    _, rec = play(game, ["random"] * 8, seed=42)
    state = list(record.steps(rec))[574][4]
    view = game.observe(state, 6)
    with within(10):
        for seed in range(3):
            sampled = game.sample_state(view, random.Random(seed))
            assert fingerprint(game.observe(sampled, 6)) == fingerprint(view)
