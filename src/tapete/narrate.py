"""The narrator: what the table says, in every language, for the command line, terminal and web.

A step (one accepted action) becomes a few *entries*: small JSON-ready dicts of facts — who did
what, the card played unless it went face down, who took the trick, the score. They are made from
the action and the events as one seat (or a spectator) may know them, the game's
``visible_action`` and ``visible_events``: the engine alone decides what a seat may see, and an
entry holds nothing more. Entries are language-neutral; ``line`` words one in a language, for a
seat (``you``: "you take the trick").

Bots explain their moves with a ``tapete.bots.Reason`` (a message and its arguments), which
``reason_words`` words in every language. ``action_label`` names an action as its button does.

>>> import tapete
>>> game = tapete.load("pocha(players=3, schedule=[1])")
>>> before = game.new_state(seed=1, dealer=2)
>>> after = game.apply(before, "bid 1")
>>> entries = step_entries(game, 0, game.parse_action("bid 1"), before, after)
>>> [line("es", e, ["Ana", "Bruno", "Carmen"]) for e in entries]
['Ana pide 1']
>>> line("en", entries[0], ["you", "Bruno", "Carmen"], you=0)
'you bid 1'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tapete.bots import Decision, Move, Reason, said_after
from tapete.cards import CARD_TEXT
from tapete.game import Action, Event, Game, Outcome
from tapete.games import rules_of
from tapete.i18n import LEVEL_HELP, tr
from tapete.present import (
    SUIT_WORDS,
    Table,
    actions,
    card_glyph,
    deal_unit,
    game_deck,
    glyph_text,
    isolated,
    notation_label,
    present,
    raise_call,
    trick_unit,
)
from tapete.record import Record, recorded_game, stand_in_marks
from tapete.record import steps as record_steps

__all__ = [
    "DealStory",
    "Entry",
    "action_label",
    "event_entries",
    "isolated",
    "line",
    "public_trick",
    "reason_words",
    "record_lines",
    "record_story",
    "record_you",
    "recorded_name",
    "seat_name",
    "step_entries",
    "table_text",
    "view_text",
    "who_won",
]

Entry = dict[str, Any]


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


def recorded_name(lang: str, seat: int, name: str, level: str | None = None) -> str:
    """A record's name for ``seat`` in ``lang``: a name the table gave the seat itself, kept
    in the record in English (at a web table a bot's "bot 2 · medium", an unnamed person's
    "player 1", as ``seat_name`` says it in ``lang``; at the line prompt "medium (2)",
    "player (1)"); a person's own name as it is (a person may not take a
    name the table gives a seat: ``tapete.web.seating.refused_name``). ``level``: the seat's
    bot level in the record, if a bot.

    >>> recorded_name("es", 1, "bot 2 · medium", "medium"), recorded_name("pt", 0, "player 1")
    ('bot 2 · medio', 'jogador 1')
    >>> recorded_name("es", 0, "Ana"), recorded_name("es", 2, "medium (2)")
    ('Ana', 'medio (2)')
    >>> recorded_name("pt", 0, "you (0)")
    'você (0)'
    """
    for kind in ("bot", "human"):
        if name == seat_name("en", seat, kind, level=level):
            return seat_name(lang, seat, kind, level=level)
    # The line prompt's own names: "you (0)", "player (1)", a bot's "medium (2)".
    kind = name.removesuffix(f" ({seat})")
    if kind != name and (kind in ("you", "player") or kind in LEVEL_HELP):
        return f"{tr(lang, kind)} ({seat})"
    return printable(name)


# Characters Python holds unprintable that a line of tapete's own text carries and a terminal
# shows, never obeys: the isolates set around a right-to-left name (``present.isolated``) and
# the zero-width joiners of Persian names and of emoji.
_SHOWN = frozenset("\u200c\u200d\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    r"""``text`` with each character a terminal would act on rather than show (an escape
    sequence, a bell, a line break: a record's names come from whoever wrote the file) written
    as its escape, so it is seen and does nothing. The isolates around a right-to-left name
    and the zero-width joiners stay as they are: they are part of what the text says.

    >>> printable("Ana\x1b[2J\n")
    'Ana\\x1b[2J\\n'
    >>> printable("\u2068דנה\u2069 bids 1\u202e") == "\u2068דנה\u2069 bids 1\\u202e"
    True
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or ch in _SHOWN else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


# --- entries: what happened, as a seat may know it ----------------------------------------------


def step_entries(
    game: Game[Any, Any],
    seat: int,
    action: Action,
    before: Any,
    after: Any,
    viewer: int | None = None,
    *,
    open_hands: bool = False,
) -> list[Entry]:
    """The entries of one step as ``viewer`` may know it (None: a spectator): the action in
    words, then what the rules did. ``open_hands``: a finished match told with every card."""
    if open_hands:
        events = game.events(after)
        text = game.format_action(action)
    else:
        events = game.visible_events(after, viewer)
        text = game.visible_action(before, action, viewer)
    entries = event_entries(events, deal_unit(game), trick_unit(game))
    return [_action_entry(game, seat, text, after, events), *entries]


def event_entries(events: Sequence[Event], unit: str = "hand", trick: str = "trick") -> list[Entry]:
    """Entries for the events of a step; a deal keeps only its number, dealer and upcard.
    ``unit``: what the game calls a deal (``tapete.present.deal_unit``), for its number and its
    score; ``trick``: what it calls a trick (``tapete.present.trick_unit``)."""
    out: list[Entry] = []
    for event in events:
        data = event.data
        match event.type:
            case "deal":
                upcard = data.get("upcard")
                out.append(
                    {
                        "kind": "deal",
                        "unit": unit,
                        "n": int(data.get("deal", 0)) + 1,
                        "seat": data.get("dealer"),
                        "card": upcard if isinstance(upcard, str) else None,
                    }
                )
            case "trick":
                out.append({"kind": "trick", "seat": data.get("winner"), "unit": trick})
            case "score":
                score = [int(v) for v in data.get("score", ())]
                out.append({"kind": "score", "unit": unit, "score": score})
                if "bids" in data and "tricks" in data and "pot" not in data:
                    # Pocha, Oh Hell: each player's tricks against the bid, the why of the
                    # score (Pottle's pot, not the bids, says who won its deal).
                    took = [
                        [int(t), int(b)] for t, b in zip(data["tricks"], data["bids"], strict=True)
                    ]
                    out.append({"kind": "took", "parts": took})
                if "cards" in data and "cantes" in data and "points" in data:
                    # Tute: where each side's points came from, so a newcomer sees why the
                    # deal went as it did (cards, cantes, the last trick's bonus).
                    parts = [
                        [int(c), int(k), int(p) - int(c) - int(k)]
                        for c, k, p in zip(
                            data["cards"], data["cantes"], data["points"], strict=True
                        )
                    ]
                    entry: Entry = {"kind": "points", "parts": parts}
                    if _tie_decided(data, events):
                        entry["tie"] = data["last_trick"]
                    out.append(entry)
            case "end":
                out.append({"kind": "end", "winners": [int(w) for w in data.get("winners", ())]})
            case "buy":
                out.append({"kind": "buy", "seat": data.get("seat"), "n": data.get("chips")})
            case "auction":
                out.append({"kind": "auction", "seat": data.get("declarer"), "n": data.get("bid")})
            case "pot":
                pot: Entry = {"kind": "pot", "seat": data.get("winner"), "n": data.get("chips")}
                declarer, bid, made = data.get("declarer"), data.get("bid"), data.get("tricks")
                if data.get("winner") is None and None not in (declarer, bid, made):
                    # A pot that carries over says why: the declarer's tricks against the bid.
                    pot |= {"declarer": declarer, "bid": bid, "took": made}
                out.append(pot)
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
                out.append({"kind": "poker", "seat": winner if winner != -1 else None})
                for seat, chips in enumerate(data.get("won", ())):
                    if chips and seat != winner:  # bet_cap=none: what the winner did not cover
                        out.append({"kind": "side_pot", "seat": seat, "n": chips})
            case "run":
                cards = " ".join(str(c) for c in data.get("cards", ()))
                out.append({"kind": "run_cards", "cards": cards})
            case "trump" | "fund" | "sit_out" | "meld" | "draw" | "cante" | "swap" | "tute":
                pass  # the action already says it, or nothing anyone needs to read
            case other:
                out.append({"kind": "event", "name": str(other)})
    return out


def _tie_decided(data: Mapping[str, Any], events: Sequence[Event]) -> bool:
    """Whether a Tute score went by the last trick: a deal tied on points that a best-of match
    counts, or a match that ends here on equal totals (one deal, or to 101). Said, or a side wins
    with as many points as the other and no reason given."""
    if not isinstance(data.get("last_trick"), int):
        return False  # a deal ended by a tute
    points, score, totals = data.get("points"), data.get("score"), data.get("totals")
    if list(score or ()) != list(points or ()):  # best_of_K: the deal's winner scores 1
        return len(set(points or ())) == 1
    return any(e.type == "end" for e in events) and len(set(totals or ())) == 1


def _action_entry(
    game: Game[Any, Any], seat: int, text: str, after: Any, events: Sequence[Event]
) -> Entry:
    words = text.split()
    verb, rest = words[0], words[1:]
    if verb == "play" and rest:
        if rest[-1] == "down":  # the card is named only to those who may know it
            card = rest[0] if len(rest) == 2 and _is_card(game, rest[0]) else None
            return {"kind": "play_down", "seat": seat, "card": card}
        if rest[0].isdecimal() and not _is_card(game, rest[0]):
            # A blind play (Truco's mão de ferro): the card is turned up as it is played.
            return {"kind": "play", "seat": seat, "card": _revealed(game, seat, after, events)}
        return {"kind": "play", "seat": seat, "card": rest[0]}
    if verb == "raise" and not rest:
        asked = getattr(game.observe(after, None), "proposal", None)
        return {"kind": "ask", "seat": seat, "n": asked}
    if verb in ("bid", "bet", "raise") and rest and rest[0].isdecimal():
        return {"kind": verb, "seat": seat, "n": int(rest[0])}
    if verb == "trump" and rest:
        return {"kind": "trump", "seat": seat, "suit": SUIT_WORDS.get(rest[0], rest[0])}
    if verb == "sing" and rest:
        # What the cante is worth (20, or 40 in trumps): a newcomer reads it as it is sung.
        worth = next((e.data.get("points") for e in events if e.type == "cante"), None)
        return {"kind": "sing", "seat": seat, "suit": rest[0], "n": worth}
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


# --- words: an entry in a language, for a seat --------------------------------------------------


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return isolated(names[seat])
    return "?"


def _missed(entry: Mapping[str, Any]) -> bool:
    """Whether a pot entry says the declarer's bid and tricks, and they differ: the reason the
    pot carries over (under the ``pagat`` rule, with nobody else exact either)."""
    return "declarer" in entry and entry.get("bid") != entry.get("took")


def _cards(text: Any, deck: str | None) -> str:
    """Cards (text with spaces) as printed: with their glyphs for a ``deck``, else as written."""
    listed = str(text or "").split()
    return " ".join(card_glyph(c, deck) if deck else c for c in listed)


def line(
    lang: str,
    entry: Mapping[str, Any],
    names: Sequence[str],
    teams: bool = False,
    *,
    you: int | None = None,
    deck: str | None = None,
) -> str:
    """One entry as a sentence in ``lang``. ``teams``: scores are per team (Truco 2v2); ``you``:
    the seat it is told to, in the second person; ``deck``: cards printed with their glyphs.
    A move a stand-in made (``"stand_in": True``, ``record_story``) says so after it:
    "Ana bids 2 (played by a stand-in)"."""
    said = _sentence(lang, entry, names, teams, you=you, deck=deck)
    if entry.get("stand_in"):
        return f"{said} ({tr(lang, 'played by a stand-in')})"
    return said


def _sentence(
    lang: str,
    entry: Mapping[str, Any],
    names: Sequence[str],
    teams: bool = False,
    *,
    you: int | None = None,
    deck: str | None = None,
) -> str:
    seat = entry.get("seat")
    if you is not None and seat == you:
        said = _to_you(lang, entry, deck)
        if said is not None:
            return said
    name = _name(names, seat)
    n = entry.get("n")
    match entry["kind"]:
        case "play" if entry.get("card") is None:
            return tr(lang, "{name} plays a blind card", name=name)
        case "play":
            return tr(lang, "{name} plays {card}", name=name, card=_cards(entry["card"], deck))
        case "play_down" if entry.get("card"):
            card = _cards(entry["card"], deck)
            return tr(lang, "{name} plays {card} face down", name=name, card=card)
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
            cards = _cards(entry.get("cards"), deck)
            return tr(lang, "{name} shows {cards}", name=name, cards=cards)
        case "poker" if seat is None:
            return tr(lang, "nobody bet: the Poch bowl carries over")
        case "poker":
            return tr(lang, "{name} takes the Pinke and the Poch bowl", name=name)
        case "side_pot" if n == 1:
            return tr(lang, "{name} takes the Pinke's side pot: 1 chip", name=name)
        case "side_pot":
            return tr(lang, "{name} takes the Pinke's side pot: {n} chips", name=name, n=n)
        case "run_cards":
            return tr(lang, "run: {cards}", cards=_cards(entry.get("cards"), deck))
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
        case "sing" if n is not None:
            suit = tr(lang, str(entry["suit"]))
            return tr(lang, "{name} sings {n} in {suit}", name=name, n=n, suit=suit)
        case "sing":
            return tr(lang, "{name} sings {suit}", name=name, suit=tr(lang, str(entry["suit"])))
        case "tute":
            return tr(lang, "{name} sings tute!", name=name)
        case "trump" if entry.get("suit") == "none":
            return tr(lang, "{name} plays without trump", name=name)
        case "trump":
            return tr(lang, "{name} names {suit} trump", name=name, suit=tr(lang, entry["suit"]))
        case "deal" if entry.get("card"):
            card, unit = _cards(entry["card"], deck), _unit(lang, entry)
            return tr(
                lang,
                "{unit} {n}: {name} deals, {card} turned up",
                unit=unit,
                n=n,
                name=name,
                card=card,
            )
        case "deal":
            return tr(lang, "{unit} {n}: {name} deals", unit=_unit(lang, entry), n=n, name=name)
        case "trick" if seat is None and entry.get("unit") == "round":
            return tr(lang, "the round is tied")
        case "trick" if seat is None:
            return tr(lang, "the trick is tied")
        case "trick" if entry.get("unit") == "round":
            return tr(lang, "{name} wins the round", name=name)
        case "trick":
            return tr(lang, "{name} takes the trick", name=name)
        case "buy" if n == 1:
            return tr(lang, "{name} buys 1 chip", name=name)
        case "buy":
            return tr(lang, "{name} buys {n} chips", name=name, n=n)
        case "auction":
            return tr(lang, "{name} wins the auction with {n}", name=name, n=n)
        case "pot" if seat is None and _missed(entry):
            bid, took = entry["bid"], entry["took"]
            if you is not None and entry["declarer"] == you:
                carried = (
                    "you bid {bid} and took {took}: nobody wins the pot of {n}; it carries over"
                )
                return tr(lang, carried, bid=bid, took=took, n=n)
            return tr(
                lang,
                "{name} bid {bid} and took {took}: nobody wins the pot of {n}; it carries over",
                name=_name(names, entry["declarer"]),
                bid=bid,
                took=took,
                n=n,
            )
        case "pot" if seat is None:
            return tr(lang, "nobody wins the pot of {n}: it carries over", n=n)
        case "pot":
            return tr(lang, "{name} wins the pot of {n}", name=name, n=n)
        case "bot_failed":
            return tr(
                lang,
                "{name} failed to choose a move: a random legal move was played for it",
                name=name,
            )
        case "rematch":
            return tr(lang, "{name} started a rematch: match {n}", name=name, n=n)
        case "stand_in":
            return tr(lang, "{name} is away: a bot plays for them until they are back", name=name)
        case "timed_out":
            return tr(lang, "{name} ran out of time: a move was played for them", name=name)
        case "undo":
            return tr(lang, "{name} took back their last move, and the moves after it", name=name)
        case "removed":
            # the seat is a bot's now: the person is named as they were at the table
            who = isolated(str(entry.get("name") or "")) or seat_name(
                lang, seat if isinstance(seat, int) else 0, "human"
            )
            return tr(lang, "the host removed {name}: a bot plays their seat", name=who)
        case "other":
            return tr(lang, "{name}: {action}", name=name, action=entry.get("text", ""))
    return _table_line(lang, entry, names, teams, you)


def _table_line(
    lang: str, entry: Mapping[str, Any], names: Sequence[str], teams: bool, you: int | None
) -> str:
    """The entries about the whole table: the score, the end, a split pot."""
    match entry["kind"]:
        case "score":
            parts = []
            for i, v in enumerate(entry["score"]):
                who = tr(lang, "team {n}", n=i + 1) if teams else _name(names, i)
                parts.append(f"{who} {v:+d}")
            unit = entry.get("unit", "hand")
            return tr(
                lang,
                "score of the deal: {scores}"
                if unit == "deal"
                else "score of the round: {scores}"
                if unit == "round"
                else "score of the hand: {scores}",
                scores=", ".join(parts),
            )
        case "took":
            each = [
                tr(lang, "you took {took}, bid {bid}", took=took, bid=bid)
                if i == you
                else tr(
                    lang, "{name} took {took}, bid {bid}", name=_name(names, i), took=took, bid=bid
                )
                for i, (took, bid) in enumerate(entry["parts"])
                if bid >= 0  # a tie-break hand: who is not in it has no bid
            ]
            return tr(lang, "tricks: {each}", each="; ".join(each))
        case "points":
            sides = []
            for i, (cards, cantes, last) in enumerate(entry["parts"]):
                who = tr(lang, "team {n}", n=i + 1) if teams else _name(names, i)
                said = tr(lang, "{name} {n} in cards", name=who, n=cards)
                if cantes:
                    said += " " + tr(lang, "+ {n} sung", n=cantes)
                if last:
                    said += " " + tr(lang, "+ {n} for the last trick", n=last)
                sides.append(f"{said} = {cards + cantes + last}")
            told = tr(lang, "how the deal was scored: {sides}", sides="; ".join(sides))
            tie = entry.get("tie")
            if isinstance(tie, int):
                side = len(entry["parts"])
                who = tr(lang, "team {n}", n=tie % side + 1) if teams else _name(names, tie)
                tied = (
                    "; tied: the last trick decides ({name})"
                    if len({sum(part) for part in entry["parts"]}) == 1
                    else "; the totals are tied: the last trick decides ({name})"
                )
                told += tr(lang, tied, name=who)
            return told
        case "end":
            outcome = who_won(lang, names, entry["winners"], you)
            return tr(lang, "match over: {outcome}", outcome=outcome)
        case "split":
            return tr(lang, "the pot is split: {n} each", n=entry.get("n"))
        case _:
            return str(entry.get("name", entry["kind"]))


def who_won(lang: str, names: Sequence[str], winners: Sequence[int], you: int | None = None) -> str:
    """Who won the match, as a sentence in ``lang``: "Diego won", "Ana and Bea won", and to a
    winner "you won" ("ganaste"), never "ganó tú"; one winner is never called "winners"."""
    if you is not None and you in winners:
        *others, last = [_name(names, w) for w in winners if w != you] or [""]
        if not last:
            return tr(lang, "you won")
        if not others:
            return tr(lang, "you and {names} won", names=last)
        # a tie of three or more: "you, Ana and Bea won", not "you and Ana, Bea won"
        return tr(lang, "you, {names} and {last} won", names=", ".join(others), last=last)
    *others, last = [_name(names, w) for w in winners] or ["?"]
    if not others:
        return tr(lang, "{names} won", names=last)
    # several winners (a team, a tie): "Ana and Bea won", "Ana e Bea venceram"
    return tr(lang, "{names} and {last} won", names=", ".join(others), last=last)


def _to_you(lang: str, entry: Mapping[str, Any], deck: str | None) -> str | None:
    """An entry about the seat it is told to, in the second person (None: not one of those)."""
    n = entry.get("n")
    match entry["kind"]:
        case "play" if entry.get("card") is None:
            return tr(lang, "you play a blind card")
        case "play":
            return tr(lang, "you play {card}", card=_cards(entry["card"], deck))
        case "play_down" if entry.get("card"):
            return tr(lang, "you play {card} face down", card=_cards(entry["card"], deck))
        case "play_down":
            return tr(lang, "you play a card face down")
        case "bid":
            return tr(lang, "you bid {n}", n=n)
        case "bet":
            return tr(lang, "you bet {n}", n=n)
        case "ask" if n is None:
            return tr(lang, "you raise")
        case "ask":
            return tr(lang, "you call {call}", call=tr(lang, raise_call(n)))
        case "raise":
            return tr(lang, "you raise by {n}", n=n)
        case "meld" if n == 1:
            return tr(lang, "you take the {bowl} bowl: 1 chip", bowl=tr(lang, str(entry["bowl"])))
        case "meld":
            bowl = tr(lang, str(entry["bowl"]))
            return tr(lang, "you take the {bowl} bowl: {n} chips", bowl=bowl, n=n)
        case "shows":
            return tr(lang, "you show {cards}", cards=_cards(entry.get("cards"), deck))
        case "poker":
            return tr(lang, "you take the Pinke and the Poch bowl")
        case "side_pot" if n == 1:
            return tr(lang, "you take the Pinke's side pot: 1 chip")
        case "side_pot":
            return tr(lang, "you take the Pinke's side pot: {n} chips", n=n)
        case "accept":
            return tr(lang, "you accept")
        case "run":
            return tr(lang, "you run")
        case "pass":
            return tr(lang, "you pass")
        case "call":
            return tr(lang, "you call")
        case "swap":
            return tr(lang, "you swap for the trump card")
        case "sing" if n is not None:
            return tr(lang, "you sing {n} in {suit}", n=n, suit=tr(lang, str(entry["suit"])))
        case "sing":
            return tr(lang, "you sing {suit}", suit=tr(lang, str(entry["suit"])))
        case "tute":
            return tr(lang, "you sing tute!")
        case "trump" if entry.get("suit") == "none":
            return tr(lang, "you play without trump")
        case "trump":
            return tr(lang, "you name {suit} trump", suit=tr(lang, str(entry["suit"])))
        case "deal" if entry.get("card"):
            card, unit = _cards(entry["card"], deck), _unit(lang, entry)
            return tr(lang, "{unit} {n}: you deal, {card} turned up", unit=unit, n=n, card=card)
        case "deal":
            return tr(lang, "{unit} {n}: you deal", unit=_unit(lang, entry), n=n)
        case "trick" if entry.get("unit") == "round":
            return tr(lang, "you win the round")
        case "trick":
            return tr(lang, "you take the trick")
        case "buy" if n == 1:
            return tr(lang, "you buy 1 chip")
        case "buy":
            return tr(lang, "you buy {n} chips", n=n)
        case "auction":
            return tr(lang, "you win the auction with {n}", n=n)
        case "pot":
            return tr(lang, "you win the pot of {n}", n=n)
    return None


# --- actions and reasons ------------------------------------------------------------------------


def action_label(
    game: Game[Any, Any], action: Action, lang: str, view: Any = None, after: Any = None
) -> str:
    """An action as its button names it (``play K♦``, ``pedir 2``, ``¡truco!``, ``seis!``): from
    the ``view`` it is chosen in, or the state ``after`` it (what a Truco raise asked)."""
    if after is not None and game.format_action(action) == "raise":
        asked = getattr(game.observe(after, None), "proposal", None)
        if asked is not None:
            return tr(lang, raise_call(asked))
    acts = actions(game, [action], lang, view)
    if acts.cards:
        card = card_glyph(next(iter(acts.cards)), game_deck(game))
        return tr(lang, "play {card}", card=card)
    return acts.buttons[0].label if acts.buttons else game.format_action(action)


def hint_text(
    game: Game[Any, Any], view: Any, hint: Decision, lang: str, named: str | None = None
) -> str:
    """A hint as the table says it, in ``lang``: the hard bot's move for the seat of ``view``,
    named as its button (or ``named``: as the line prompt offers it), and why.

    >>> import tapete
    >>> from tapete import bots
    >>> game = tapete.load("pocha(schedule=[3])")
    >>> state = game.new_state(1)
    >>> view = game.observe(state, game.current_player(state))
    >>> hint_text(game, view, bots.hint(view, bots.Budget(iterations=10)), "es")
    'pista: pedir 0 — vale +1,0 puntos de media en 10 repartos posibles de las cartas ocultas'
    """
    told = said_after(hint.reason, game.format_action(hint.action))
    named = named or action_label(game, hint.action, lang, view=view)
    said = tr(lang, "hint: {action}", action=named)
    reason = reason_words(lang, told, game_deck(game))
    return f"{said} — {reason}" if reason else said


def reason_words(lang: str, reason: Reason | Move | str, deck: str | None = None) -> str:
    """A bot's reason in ``lang``; the moves in it named as their buttons, cards printed with
    their glyphs for a ``deck``.

    >>> reason_words("es", Reason("expects about {n:.1f} tricks", n=2.25))
    'espera unas 2,2 bazas'
    >>> reason_words("pt", Reason("{move} then {plan}", move=Move("bid 2"), plan=Move("play Kd")))
    'pedir 2, depois jogar Kd'
    """
    if isinstance(reason, Move):
        words = notation_label(str(reason), lang)
        return _cards_in(words, deck)
    if not isinstance(reason, Reason):
        return str(reason)
    args = {
        k: reason_words(lang, v, deck) if isinstance(v, Reason | Move) else v
        for k, v in reason.args.items()
    }
    return _cards_in(tr(lang, reason.text, **args), deck)


# A match won on equal scores, by why its winner won (the outcome's reason): the end of the
# match says so, or two equal totals and one winner come with no reason.
_TIE_BROKEN = {
    "tied on points, won the last trick": "tied on points: the last trick decides",
    "passed 100, tied, won the last trick": "the totals are tied: the last trick decides",
}


def outcome_words(lang: str, outcome: Outcome) -> str:
    """Why the winners of ``outcome`` won, in ``lang``, when its scores alone do not say it (a
    tie broken by a rule); "" otherwise.

    >>> outcome_words("es", Outcome((60, 60), (1,), "tied on points, won the last trick"))
    'empate a puntos: decide la última baza'
    >>> outcome_words("pt", Outcome((104, 104), (1,), "passed 100, tied, won the last trick"))
    'empate nos totais: decide a última vaza'
    >>> outcome_words("en", Outcome((118, 62), (0,), "more points"))
    ''
    """
    why = _TIE_BROKEN.get(outcome.reason)
    return tr(lang, why) if why else ""


def _unit(lang: str, entry: Mapping[str, Any]) -> str:
    """The word for a deal in ``entry``'s game (entries from before it was kept: "hand")."""
    return tr(lang, str(entry.get("unit", "hand")))


def _cards_in(text: str, deck: str | None) -> str:
    return glyph_text(text, deck) if deck else text


# --- the command line: a record and a view in words ---------------------------------------------


def record_story(
    record: Record, viewer: int | None = None, *, open_hands: bool = True
) -> list[DealStory]:
    """A record's entries deal by deal, as ``viewer`` may know them (every card with
    ``open_hands``): per deal, the entries before its first decision (the deal itself) and
    those of each decision, in order, with the running scores at the deal's start and after
    each decision (public: chips bet count at once). The record is replayed and checked on the way
    (``tapete.record.steps``); a deal's own entry comes from the step that ended the one before.
    A decision a stand-in made (the record's ``stand_ins``) has ``"stand_in": True`` in its
    first entry, the move itself, which ``line`` says was played by a stand-in.
    """
    game = recorded_game(record)
    story: list[DealStory] = []
    marks = stand_in_marks(record)
    for number, (_, before, seat, action, after) in enumerate(record_steps(record)):
        if not story:  # the first deal, told by the events of the first state
            events = game.events(before) if open_hands else game.visible_events(before, viewer)
            first = event_entries(events, deal_unit(game), trick_unit(game))
            story.append(DealStory(first, [], [_scores(game, before)]))
        told = step_entries(game, seat, action, before, after, viewer, open_hands=open_hands)
        if marks[number]:  # the move, not what the rules did after it, was the stand-in's
            told[0] = {**told[0], "stand_in": True}
        cut = next((i for i, e in enumerate(told) if e["kind"] == "deal"), len(told))
        story[-1].steps.append(told[:cut])
        story[-1].scores.append(_scores(game, after))
        if cut < len(told):
            story.append(DealStory(told[cut:], [], [_scores(game, after)]))
    return story


def _scores(game: Game[Any, Any], state: Any) -> tuple[int, ...]:
    """The running scores everyone sees at ``state`` (per seat, or per team)."""
    return tuple(game.observe(state, None).scores)


@dataclass(frozen=True)
class DealStory:
    """One deal of a record's story: the entries before its first decision, then per decision;
    ``scores``: the running scores at its start, then after each decision."""

    first: list[Entry]
    steps: list[list[Entry]]
    scores: list[tuple[int, ...]]


_YOU = re.compile(r"you(?: \(\d+\))?")  # the terminal app's "you", the line prompt's "you (0)"


def record_you(record: Record) -> int | None:
    """The seat of the one person who played ``record`` at a terminal, saved as ``you`` (or
    ``you (0)`` at the line prompt): its events are told in the second person, "you deal", never
    "you deals". None when no seat, or more than one, was saved so."""
    yours = [i for i, s in enumerate(record.seats) if s.kind == "human" and _YOU.fullmatch(s.name)]
    return yours[0] if len(yours) == 1 else None


def record_lines(record: Record, *, hands: bool = True, lang: str = "en") -> Iterator[str]:
    """The match as the narrator tells it with every card open: who dealt, the hands, every
    decision and what the rules did; the person who played it at a terminal as "you".

    Shown as it is: pass a record the engine wrote or rebuilt (``tapete.record.checked``), never
    one read from a file unchecked.
    """
    you = record_you(record)
    names = [
        tr(lang, "you") if i == you else recorded_name(lang, i, s.name, s.bot)
        for i, s in enumerate(record.seats)
    ]
    teams = recorded_game(record).teams is not None
    # The heading in the reader's language too: "semilla 7  0: tú (humano), 1: Bruno (medio)".
    yield f"{record.game}  {tr(lang, 'seed')} {record.seed}  " + ", ".join(
        f"{i}: {isolated(names[i])} ({printable(tr(lang, s.bot or s.kind))})"
        for i, s in enumerate(record.seats)
    )
    for number, deal in enumerate(record_story(record)):
        yield ""
        opening = [e for e in deal.first if e["kind"] == "deal"]
        yield from (line(lang, entry, names, teams, you=you) for entry in opening)
        if hands and number < len(record.deals):
            for seat, hand in enumerate(record.deals[number].hands):
                if hand:
                    yield f"  {isolated(names[seat])}: {' '.join(hand)}"
        rest = [e for e in deal.first if e["kind"] != "deal"]  # a buy-in as the deal begins
        for told in [rest, *deal.steps]:
            yield from ("  " + line(lang, entry, names, teams, you=you) for entry in told)
    if record.result is None:
        yield ""
        yield tr(lang, "unfinished: the match stopped here")


def view_text(view: Any, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """A seat's view in words, for a person at a plain text prompt: the table the screens draw
    (``tapete.present``), line by line."""
    return table_text(present(view, lang, names), lang, trick_unit(rules_of(view).NAME))


def table_text(table: Table, lang: str = "en", trick_word: str = "trick") -> str:
    """A presented table in words, line by line (``view_text``; ``tapete join --plain`` has
    the table from the server, already presented). ``trick_word``: what the game calls a trick
    (Truco's are rounds), an English word of the catalog."""
    lines = [f"{table.title} — {table.status}"]
    if table.info:
        lines.append(", ".join(f"{label}: {value}" for label, value in table.info))
    for box in table.seats:
        facts = [*box.lines, *([tr(lang, "dealer")] if box.dealer else [])]
        if box.shown:
            # Named: a bare "[Kd]" after a seat's chips read as nothing in particular.
            facts.append(f"{tr(lang, 'cards seen')}: {' '.join(box.shown)}")
        turn = "  <-" if box.turn else ""
        said = f": {', '.join(facts)}" if facts else ""
        lines.append(f"  {isolated(box.name)}{said}{turn}")
    if table.scores:
        scores = zip(table.score_names, table.scores, strict=False)
        lines.append(f"{tr(lang, 'scores')}: " + ", ".join(f"{isolated(n)} {v}" for n, v in scores))
    if table.trick:
        played = ", ".join(
            f"{_name([b.name for b in table.seats], p.seat)} {p.card or '?'}" for p in table.trick
        )
        lines.append(f"  {tr(lang, trick_word)}: {played}")
    hand = " ".join(table.hand) if table.hand else ""
    if table.blind:
        unseen = (
            tr(lang, "1 card you may not see")
            if table.blind == 1
            else tr(lang, "{n} cards you may not see", n=table.blind)
        )
        hand = (hand + " " if hand else "") + unseen
    lines.append(f"{tr(lang, 'your hand')}: {hand or '-'}")
    return "\n".join(lines)
