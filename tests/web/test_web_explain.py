"""In the browser, a decision comes with what it means, and a card the rules forbid now with
the rule that forbids it, in the player's language (the view's ``actions``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webclient import Client, Server


def seated(server: Server, game: str, params: dict[str, str], lang: str, seed: int) -> Client:
    """A person at a started table of ``game`` with random bots, at their first turn."""
    players = int(params.get("players", "2"))
    table = server.create(
        game,
        params=params,
        seats=[{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1),
        seed=seed,
    )
    me = server.client()
    me.hello(table["code"], table["token"], lang=lang)
    me.send({"type": "start"})
    me.until(lambda m: m["type"] == "view" and bool(me.legal()))
    return me


def moved_on(me: Client, version: int) -> Callable[[dict[str, Any]], bool]:
    """A view after ``version`` that is the person's turn again, or the end of the match."""

    def wanted(m: dict[str, Any]) -> bool:
        later = m["type"] == "view" and m["version"] > version
        return later and (bool(me.legal()) or m["result"] is not None)

    return wanted


def test_a_truco_says_what_it_asks_in_the_players_language(server: Server) -> None:
    for lang, said in [
        ("en", "truco! asks 3 for the hand: if they run, your side scores 1"),
        ("pt", "truco! pede 3 pela mão: se correrem, seu lado marca 1"),
    ]:
        me = seated(server, "truco", {"players": "2"}, lang, seed=3)
        assert me.view is not None
        assert me.view["actions"]["explain"] == said
        me.close()


def test_a_card_the_rules_forbid_says_why(server: Server) -> None:
    me = seated(server, "pocha", {"players": "3", "schedule": "[5]"}, "es", seed=2)
    told = []
    while me.view is not None and me.view["result"] is None:
        acts = me.view["actions"]
        hand = set(me.view["table"]["hand"])
        if acts["cards"]:
            refused = acts["refused_cards"]
            # Every card not playable now says why; no playable card is among them.
            assert set(refused) == hand - set(acts["cards"])
            told += refused.values()
        me.send({"type": "act", "action": me.legal()[0], "version": me.view["version"]})
        me.until(moved_on(me, me.view["version"]))
    assert told, "no card was ever refused"
    assert all(why.startswith("debes ") for why in told), told
