"""Where a decision is made, a newcomer is told what it means and what each option is worth
(``tapete.present.Actions.explain``), in every language, true to docs/rules/; and a card the
rules forbid now carries the rule's sentence (``refused_cards``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import tapete
from tapete.game import Game
from tapete.i18n import LANGUAGES
from tapete.present import actions, present, refused_cards


def explain(game: Game[Any, Any], state: Any, lang: str) -> str:
    seat = game.current_player(state)
    view = game.observe(state, seat)
    return actions(game, game.legal_actions(state), lang, view).explain


def first_where(
    spec: str, found: Callable[[Game[Any, Any], Any], bool]
) -> tuple[Game[Any, Any], Any]:
    """The first decision of ``spec`` where ``found`` holds, the seats playing seeded random
    moves from one deal to the next."""
    game = tapete.load(spec)
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(2000):
            legal = game.legal_actions(state)
            if not legal:
                break
            if found(game, state):
                return game, state
            state = game.apply(state, rng.choice(legal))
    raise AssertionError(f"no decision of {spec} found")


def first_state(spec: str, wanted: set[str]) -> tuple[Game[Any, Any], Any]:
    """The first decision of ``spec`` offering every verb of ``wanted``."""

    def offers(game: Game[Any, Any], state: Any) -> bool:
        return wanted <= {game.format_action(a).split()[0] for a in game.legal_actions(state)}

    return first_where(spec, offers)


def test_truco_says_what_a_truco_asks_and_what_running_gives() -> None:
    game, state = first_state("truco", {"raise", "play"})
    assert (
        explain(game, state, "en") == "truco! asks 3 for the hand: if they run, your side scores 1"
    )
    assert explain(game, state, "es") == "¡truco! pide 3 por la mano: si corren, tu lado suma 1"
    assert explain(game, state, "pt") == "truco! pede 3 pela mão: se correrem, seu lado marca 1"
    # Answering: accept plays for 3, running gives the raisers the 1 before it, seis asks 6.
    state = game.apply(state, game.parse_action("raise"))
    assert explain(game, state, "en") == (
        "accept: play the hand for 3 · run: give up the hand, they score 1"
        " · seis! asks 6 for the hand: if they run, your side scores 3"
    )
    assert explain(game, state, "es").startswith("aceptar: la mano se juega por 3 · correr:")
    assert explain(game, state, "pt").startswith("aceitar: a mão vale 3 · correr:")
    # A re-raise to 6 answered: running gives the 3 the hand was worth before it.
    state = game.apply(state, game.parse_action("raise"))
    assert "accept: play the hand for 6" in explain(game, state, "en")
    assert "run: give up the hand, they score 3" in explain(game, state, "en")
    assert "nove! asks 9" in explain(game, state, "en")


def test_truco_mao_de_onze_says_three_or_one() -> None:
    def eleven(game: Game[Any, Any], state: Any) -> bool:
        return str(game.observe(state, game.current_player(state)).phase) == "eleven"

    game, state = first_where("truco", eleven)
    assert explain(game, state, "en") == (
        "accept: play the hand for 3 · run: give up the hand, they score 1"
    )


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (
            "pocha",
            {"en": "exact scores 10 + 5 a trick", "es": "10 + 5 por baza", "pt": "10 + 5 por vaza"},
        ),
        (
            "oh_hell",
            {
                "en": "1 point a trick, 10 more if exact",
                "es": "10 más si aciertas",
                "pt": "mais 10 se acertar",
            },
        ),
    ],
)
def test_a_bid_says_what_it_promises_and_scores(spec: str, words: dict[str, str]) -> None:
    game, state = first_state(spec, {"bid"})
    for lang in LANGUAGES:
        assert words[lang] in explain(game, state, lang)
    # Playing a card needs no words: the cards are lit.
    game, state = first_state(spec, {"play"})
    assert explain(game, state, "en") == ""


def test_pottle_says_the_auction_and_the_exact_contract() -> None:
    game, state = first_state("pottle", {"bid"})
    pot = game.observe(state, None).pot
    assert explain(game, state, "en") == (
        "bid: the tricks you will take; the highest bid names trump and wins the pot"
        f" ({pot}) only by taking exactly that many"
    )
    game, state = first_state("pottle", {"trump"})
    seat = game.current_player(state)
    bid = game.observe(state, seat).bids[seat]
    assert explain(game, state, "es") == (
        f"ganaste la subasta: elige triunfo (o sin triunfo) y haz exactamente {bid} para ganar"
        " el bote"
    )


def test_pottle_s_pagat_pot_rule_is_said_as_it_is_played() -> None:
    """Under pot_rule=pagat the pot goes to the highest bid taken exactly, the declarer's or
    not: the words follow the table's rule."""
    game, state = first_state("pottle(pot_rule=pagat)", {"bid"})
    assert "goes to the highest bid taken exactly" in explain(game, state, "en")
    game, state = first_state("pottle(pot_rule=pagat)", {"trump"})
    assert explain(game, state, "pt") == "você ganhou o leilão: escolha o trunfo (ou sem trunfo)"


def test_poch_says_each_betting_choice_and_the_race() -> None:
    game, state = first_state("poch", {"bet", "pass"})
    assert explain(game, state, "en") == (
        "bet: chips into the Pinke; the best hand still in takes it and the Poch bowl"
        " · pass: drop out of the betting, keeping your cards for the race"
    )
    state = game.apply(state, game.parse_action("bet 2"))
    assert explain(game, state, "pt").startswith("pagar: você põe 2 para igualar a aposta")
    game, state = first_state("poch", {"play"})
    assert explain(game, state, "en").startswith("lead a card: the next higher cards")


def test_tute_says_what_singing_and_swapping_are() -> None:
    game, state = first_state("tute", {"sing"})
    assert "sing: show a Rey and Caballo of one suit for 20 (40 in trumps)" in explain(
        game, state, "en"
    )
    assert "cantar: enseña el rey y el caballo" in explain(game, state, "es")
    game, state = first_state("tute", {"swap"})
    assert "trocar: pegue a carta virada dando o seu 7 (ou 2) de trunfo" in explain(
        game, state, "pt"
    )


def test_every_explanation_is_in_every_language() -> None:
    """No explanation stays English in Spanish or Portuguese (a missing entry falls back)."""
    for spec, verbs in [
        ("truco", {"raise"}),
        ("pocha", {"bid"}),
        ("pottle", {"bid"}),
        ("pottle", {"trump"}),
        ("poch", {"bet"}),
        ("tute", {"sing"}),
        ("tute", {"swap"}),
    ]:
        game, state = first_state(spec, verbs)
        texts = {lang: explain(game, state, lang) for lang in LANGUAGES}
        assert texts["en"] and len(set(texts.values())) == 3, (spec, texts)


def test_a_card_the_rules_forbid_carries_its_reason() -> None:
    def must_follow(game: Game[Any, Any], state: Any) -> bool:
        legal = game.legal_actions(state)
        hand = present(game.observe(state, game.current_player(state))).hand
        return all(game.format_action(a).startswith("play") for a in legal) and len(legal) < len(
            hand
        )

    game, state = first_where("pocha(players=3, schedule=[5])", must_follow)
    view = game.observe(state, game.current_player(state))
    hand = present(view).hand
    acts = actions(game, game.legal_actions(state), "en", view)
    refused = refused_cards(game, state, hand, acts.cards)
    assert set(refused) == set(hand) - set(acts.cards) != set()
    # Each says the rule it breaks, in the engine's words (the suit led, the card held).
    assert all(e.rule.startswith("must-") and "must" in str(e) for e in refused.values())


def test_no_card_is_refused_while_the_decision_is_not_a_card() -> None:
    game, state = first_state("pocha", {"bid"})
    view = game.observe(state, game.current_player(state))
    acts = actions(game, game.legal_actions(state), "en", view)
    assert refused_cards(game, state, present(view).hand, acts.cards) == {}
