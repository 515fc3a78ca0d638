"""The table's log in words: what each step did, told so that every seat may hear it.

A step (one accepted action) becomes a few *entries*: small JSON-ready dicts that hold only public
facts — who did what, the card played unless it went face down, who took the trick, the score.
They are made from the action and the events as a spectator may know them (the game's
``visible_action`` and ``visible_events``), so they hold nothing the game hides from anyone at the
table. Entries are kept language-neutral and rendered per connection by ``line``.

>>> import tapete
>>> game = tapete.load("pocha(players=3, schedule=[1])")
>>> before = game.new_state(seed=1, dealer=2)
>>> after = game.apply(before, "bid 1")
>>> entries = step_entries(game, 0, game.parse_action("bid 1"), before, after)
>>> [line("es", e, ["Ana", "Bruno", "Carmen"]) for e in entries]
['Ana pide 1']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tapete.cards import CARD_TEXT
from tapete.game import Action, Event, Game
from tapete.i18n import tr
from tapete.present import raise_call

__all__ = ["deal_entries", "line", "public_trick", "reason_words", "seat_name", "step_entries"]

Entry = dict[str, Any]

_SUIT_LETTERS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def seat_name(lang: str, seat: int, kind: str, name: str = "", level: str | None = None) -> str:
    """A seat as every page names it (the table, its log, the record, the replay): the player's
    name; a bot by its seat and level; else an empty seat.

    >>> seat_name("en", 1, "bot", level="medium"), seat_name("es", 1, "bot", level="medium")
    ('bot 2 · medium', 'bot 2 · medio')
    """
    if name:
        return name
    if kind == "human":
        return tr(lang, "player {n}", n=seat + 1)
    if kind == "bot":
        return f"{tr(lang, 'bot {n}', n=seat + 1)} · {tr(lang, level or 'random')}"
    return tr(lang, "empty seat")


def step_entries(
    game: Game[Any, Any], seat: int, action: Action, before: Any, after: Any
) -> list[Entry]:
    """The public entries of one step: the action in words, then what the rules did."""
    events = game.visible_events(after, None)
    text = game.visible_action(before, action, None)
    return [_action_entry(game, seat, text, after, events), *deal_entries(events)]


def deal_entries(events: Sequence[Event]) -> list[Entry]:
    """Entries for the public events of a step (``visible_events(state, None)``); a deal keeps
    only its number, dealer and upcard."""
    out: list[Entry] = []
    for event in events:
        data = event.data
        match event.type:
            case "deal":
                upcard = data.get("upcard")
                out.append(
                    {
                        "kind": "deal",
                        "n": int(data.get("deal", 0)) + 1,
                        "seat": data.get("dealer"),
                        "card": upcard if isinstance(upcard, str) else None,
                    }
                )
            case "trick":
                out.append({"kind": "trick", "seat": data.get("winner")})
            case "score":
                out.append({"kind": "score", "score": [int(v) for v in data.get("score", ())]})
            case "end":
                out.append({"kind": "end", "winners": [int(w) for w in data.get("winners", ())]})
            case "buy":
                out.append({"kind": "buy", "seat": data.get("seat"), "n": data.get("chips")})
            case "auction":
                out.append({"kind": "auction", "seat": data.get("declarer"), "n": data.get("bid")})
            case "pot":
                out.append({"kind": "pot", "seat": data.get("winner"), "n": data.get("chips")})
            case "split":
                out.append({"kind": "split", "n": data.get("share")})
            case "meld" if data.get("seat") is not None:
                bowl, seat, chips = data.get("bowl"), data.get("seat"), data.get("chips")
                out.append({"kind": "meld", "seat": seat, "bowl": bowl, "n": chips})
            case "poker":
                for shown in data.get("hands", ()):
                    cards = " ".join(str(c) for c in shown.get("cards", ()))
                    out.append({"kind": "shows", "seat": shown.get("seat"), "cards": cards})
                winner = data.get("winner")
                out.append({"kind": "poker", "seat": winner})
            case "run":
                cards = " ".join(str(c) for c in data.get("cards", ()))
                out.append({"kind": "run", "cards": cards})
            case "trump" | "fund" | "sit_out" | "meld" | "draw" | "cante" | "swap" | "tute":
                pass  # the action already says it, or nothing anyone needs to read
            case other:
                out.append({"kind": "event", "name": str(other)})
    return out


def _action_entry(
    game: Game[Any, Any], seat: int, text: str, after: Any, events: Sequence[Event]
) -> Entry:
    words = text.split()
    verb, rest = words[0], words[1:]
    if verb == "play" and rest:
        if rest[-1] == "down":
            return {"kind": "play_down", "seat": seat}
        if rest[0].isdigit() and not _is_card(game, rest[0]):
            # A blind play (Truco's mão de ferro): the card is turned up as it is played.
            return {"kind": "play", "seat": seat, "card": _revealed(game, seat, after, events)}
        return {"kind": "play", "seat": seat, "card": rest[0]}
    if verb == "raise" and not rest:
        asked = getattr(game.observe(after, None), "proposal", None)
        return {"kind": "ask", "seat": seat, "n": asked}
    if verb in ("bid", "bet", "raise") and rest and rest[0].isdigit():
        return {"kind": verb, "seat": seat, "n": int(rest[0])}
    if verb == "trump" and rest:
        return {"kind": "trump", "seat": seat, "suit": _SUIT_LETTERS.get(rest[0], rest[0])}
    if verb == "sing" and rest:
        return {"kind": "sing", "seat": seat, "suit": rest[0]}
    if verb in ("accept", "run", "pass", "call", "swap", "tute") and not rest:
        return {"kind": verb, "seat": seat}
    return {"kind": "other", "seat": seat, "text": " ".join(words)}


def _is_card(game: Game[Any, Any], text: str) -> bool:
    try:
        game.parse_card(text)
    except ValueError:
        return False
    return True


def _revealed(game: Game[Any, Any], seat: int, after: Any, events: Sequence[Event]) -> str | None:
    """The card ``seat`` just played blind, as the public sees it."""
    for event in events:
        if event.type == "trick":
            trick = public_trick(event, game.players)
            for played, card in trick["cards"]:
                if played == seat:
                    return None if card is None else str(card)
    view = game.observe(after, None)
    for play in getattr(view, "trick", ()):
        card = getattr(play, "card", -1)
        if getattr(play, "seat", None) == seat and isinstance(card, int) and card >= 0:
            return CARD_TEXT[card]
    return None


def public_trick(event: Event, players: int, seats: Sequence[int] | None = None) -> dict[str, Any]:
    """A finished trick as the public event tells it (``visible_events(state, None)``):
    ``cards`` as ``[seat, card or None]`` in play order (None for a card played face down), and
    the ``winner`` (None: tied)."""
    data = event.data
    order = list(seats) if seats else list(range(players))
    leader = data.get("leader", order[0])
    start = order.index(leader) if leader in order else 0
    order = order[start:] + order[:start]
    cards = []
    for i, card in enumerate(data.get("cards", ())):
        cards.append([order[i % len(order)], None if card is None else str(card)])
    return {"cards": cards, "winner": data.get("winner")}


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def line(lang: str, entry: Mapping[str, Any], names: Sequence[str], teams: bool = False) -> str:
    """One entry as a sentence in ``lang``; ``teams``: scores are per team (Truco 2v2)."""
    name = _name(names, entry.get("seat"))
    n = entry.get("n")
    match entry["kind"]:
        case "play":
            card = entry.get("card")
            if card is None:
                return tr(lang, "{name} plays a blind card", name=name)
            return tr(lang, "{name} plays {card}", name=name, card=card)
        case "play_down":
            return tr(lang, "{name} plays a card face down", name=name)
        case "bid":
            return tr(lang, "{name} bids {n}", name=name, n=n)
        case "bet":
            return tr(lang, "{name} bets {n}", name=name, n=n)
        case "ask" if n is None:
            return tr(lang, "{name} raises", name=name)
        case "ask":
            call = tr(lang, raise_call(n if isinstance(n, int) else None))
            return tr(lang, "{name} calls {call}", name=name, call=call)
        case "raise":
            return tr(lang, "{name} raises by {n}", name=name, n=n)
        case "meld":
            bowl = tr(lang, str(entry.get("bowl")))
            if n == 1:
                return tr(lang, "{name} takes the {bowl} bowl: 1 chip", name=name, bowl=bowl)
            return tr(lang, "{name} takes the {bowl} bowl: {n} chips", name=name, bowl=bowl, n=n)
        case "shows":
            return tr(lang, "{name} shows {cards}", name=name, cards=entry.get("cards", ""))
        case "poker" if entry.get("seat") is None:
            return tr(lang, "nobody bet: the Poch bowl carries over")
        case "poker":
            return tr(lang, "{name} takes the Pinke and the Poch bowl", name=name)
        case "run":
            return tr(lang, "run: {cards}", cards=entry.get("cards", ""))
        case "accept":
            return tr(lang, "{name} accepts", name=name)
        case "run":
            return tr(lang, "{name} runs", name=name)
        case "pass":
            return tr(lang, "{name} passes", name=name)
        case "call":
            return tr(lang, "{name} calls", name=name)
        case "swap":
            return tr(lang, "{name} swaps for the trump card", name=name)
        case "sing":
            return tr(lang, "{name} sings {suit}", name=name, suit=tr(lang, str(entry["suit"])))
        case "tute":
            return tr(lang, "{name} sings tute!", name=name)
        case "trump" if entry.get("suit") == "none":
            return tr(lang, "{name} plays without trump", name=name)
        case "trump":
            return tr(lang, "{name} names {suit} trump", name=name, suit=tr(lang, entry["suit"]))
        case "deal" if entry.get("card"):
            return tr(
                lang, "hand {n}: {name} deals, {card} turned up", n=n, name=name, card=entry["card"]
            )
        case "deal":
            return tr(lang, "hand {n}: {name} deals", n=n, name=name)
        case "trick" if entry.get("seat") is None:
            return tr(lang, "the trick is tied")
        case "trick":
            return tr(lang, "{name} takes the trick", name=name)
        case "score":
            parts = []
            for i, v in enumerate(entry["score"]):
                who = tr(lang, "team {n}", n=i) if teams else _name(names, i)
                parts.append(f"{who} {v:+d}")
            return tr(lang, "score of the hand: {scores}", scores=", ".join(parts))
        case "end":
            winners = ", ".join(_name(names, w) for w in entry["winners"])
            return tr(lang, "match over: {names} won", names=winners)
        case "buy" if n == 1:
            return tr(lang, "{name} buys 1 chip", name=name)
        case "buy":
            return tr(lang, "{name} buys {n} chips", name=name, n=n)
        case "auction":
            return tr(lang, "{name} wins the auction with {n}", name=name, n=n)
        case "pot" if entry.get("seat") is None:
            return tr(lang, "nobody wins the pot of {n}: it carries over", n=n)
        case "pot":
            return tr(lang, "{name} wins the pot of {n}", name=name, n=n)
        case "split":
            return tr(lang, "the pot is split: {n} each", n=n)
        case "bot_failed":
            return tr(
                lang,
                "{name} failed to choose a move: a random legal move was played for it",
                name=name,
            )
        case "other":
            return tr(lang, "{name}: {action}", name=name, action=entry.get("text", ""))
        case _:
            return str(entry.get("name", entry["kind"]))


_REASONS = (
    (re.compile(r"^expects about ([\d.]+) tricks$"), "expects about {n} tricks"),
    (
        re.compile(
            r"^(?:.+: )?([+-][\d.]+) points on average, bid made in (\d+)% of (\d+) sampled deals$"
        ),
        "{n} points on average; bid made in {p}% of {k} sampled deals",
    ),
)


def reason_words(lang: str, reason: str) -> str:
    """A bot's reason for a hint, in ``lang`` (English when it is not a known phrase)."""
    fixed = {
        "the only legal move": tr(lang, "the only legal move"),
        "wants a trick": tr(lang, "wants a trick"),
        "ducks": tr(lang, "ducks"),
        "blind": tr(lang, "a guess"),
    }
    if reason in fixed:
        return fixed[reason]
    for pattern, _ in _REASONS:
        m = pattern.match(reason)
        if m and len(m.groups()) == 1:
            return tr(lang, "expects about {n} tricks", n=m.group(1))
        if m:
            n, p, k = m.groups()
            return tr(
                lang, "{n} points on average; bid made in {p}% of {k} sampled deals", n=n, p=p, k=k
            )
    return reason
