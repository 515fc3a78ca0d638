"""What a table shows, for the terminal and web apps: a view turned into a ``Table`` of words.

Both apps draw the same ``Table``: the seats around it, your hand, the cards on the table, the
facts of the moment (trump, stake, pot ...), scores and their history; and the legal actions
sorted into card clicks and buttons. A presenter per game does the turning, in the requested
language; the apps never read game truth, only views.

>>> import tapete
>>> game = tapete.load("pocha(players=3, schedule=[2])")
>>> state = game.new_state(seed=1, dealer=2)
>>> table = present(game.observe(state, 0), lang="es")
>>> table.title, table.status, len(table.hand)
('Pocha — mano 1 de 1', 'tu turno', 2)
>>> [b.label for b in actions(game, game.legal_actions(state), "es").buttons]
['pedir 0', 'pedir 1', 'pedir 2']
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tapete.cards import CARD_TEXT, SPANISH_SUITS, Card, CardSet, cards_of, format_card, suit_name
from tapete.errors import IllegalActionError, InvalidActionError
from tapete.game import Action, Game, format_value
from tapete.games import rules_of
from tapete.i18n import tr

if TYPE_CHECKING:
    from tapete.games import poch, pocha, pottle, truco, tute

__all__ = [
    "CARD_SUITS",
    "CARD_WORDS",
    "PARAMS",
    "PRESENTERS",
    "SUIT_WORDS",
    "Actions",
    "Button",
    "OnTable",
    "Presenter",
    "SeatBox",
    "Table",
    "actions",
    "card_glyph",
    "card_name",
    "card_words",
    "deal_unit",
    "game_deck",
    "game_title",
    "game_words",
    "glyph_text",
    "isolated",
    "notation_label",
    "option_lines",
    "option_words",
    "present",
    "raise_call",
    "refused_cards",
]
_GLYPHS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE, POP DIRECTIONAL ISOLATE
# The bidirectional classes that can move the text around them in a left-to-right line: right-
# to-left letters (Hebrew, Arabic), Arabic-Indic digits, and the explicit embeddings, overrides
# and isolates. A name of other characters (Latin letters, digits, spaces, "·") cannot.
_REORDERING = frozenset(
    {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
)
# A card's code in an action's notation, by the deck: the record's ``11c``, ``Kd``.
_CARD_CODE = {
    "spanish": re.compile(r"(?:1[0-2]|[1-9])[oceb]"),
    "french": re.compile(r"[2-9TJQKA][cdhs]"),
}
# A card's code as the browser finds cards in a line to draw them (cards.js: CARD_RE, and
# GLYPH_RE for a card printed with its suit), in either deck; ASCII word boundaries, as
# JavaScript's ``\b`` has them.
_CARD_WORD = re.compile(
    rf"\b(?:{_CARD_CODE['spanish'].pattern}|{_CARD_CODE['french'].pattern})\b"
    r"|(?:10|[2-9JQKA])[♣♦♥♠]",
    re.ASCII,
)


def isolated(name: str) -> str:
    """``name`` as a line of plain text says it: between FIRST STRONG ISOLATE (U+2068) and POP
    DIRECTIONAL ISOLATE (U+2069) when it holds a character that could reorder the rest of the
    line (a Hebrew or Arabic name pulled the words and numbers after it into its own
    right-to-left run: "דנה bids 2" read as "2 bids דנה"), so it reads in its own direction and
    leaves its neighbours in theirs, or a word that reads as a card's code (a player called
    "Ad" was drawn in the browser's log as the ace of diamonds: it draws the cards of a line,
    and leaves what is isolated as it is); else as it is, so a line of other names is
    unchanged. The browser shows the isolated part of a log line as a ``<bdi>`` element.

    >>> isolated("Ana"), isolated("דנה") == "\u2068דנה\u2069", isolated("Ad") == "\u2068Ad\u2069"
    ('Ana', True, True)
    """
    if any(unicodedata.bidirectional(ch) in _REORDERING for ch in name) or _CARD_WORD.search(name):
        return f"{FSI}{name}{PDI}"
    return name


def card_glyph(card: str, deck: str) -> str:
    """A card as the screens print it: French cards with their suit glyph and a 10 (``K♦``,
    ``10♥``); Spanish cards as printed on them (``3o``, ``12b``). Records keep the text form.

    >>> card_glyph("Th", "french"), card_glyph("Kd", "french"), card_glyph("10o", "spanish")
    ('10♥', 'K♦', '10o')
    """
    if deck != "french" or len(card) < 2 or card[-1] not in _GLYPHS:
        return card
    rank = "10" if card[:-1] == "T" else card[:-1]
    return rank + _GLYPHS[card[-1]]


# A card's name in words, in the catalogs' English (``tr`` gives the language): rank keys are
# s<rank> (Spanish), f<rank> (French); a rank not here is said as its number. The browser gets
# them too (``tapete.web.strings``): its table names a card as these do.
CARD_WORDS = {
    "s1": "ace",
    "s10": "sota",
    "s11": "caballo",
    "s12": "rey",
    "fA": "ace",
    "fJ": "jack",
    "fQ": "queen",
    "fK": "king",
}
CARD_SUITS = {
    "so": "oros",
    "sc": "copas",
    "se": "espadas",
    "sb": "bastos",
    "fc": "clubs",
    "fd": "diamonds",
    "fh": "hearts",
    "fs": "spades",
}


def card_name(card: str, lang: str, deck: str) -> str:
    """A card by its name in ``lang``, as the browser's table says it (its cards' labels, the
    log's chips, the hint): ``caballo de copas``, ``rei de espadas``, ``king of diamonds``.

    >>> card_name("11c", "es", "spanish"), card_name("12e", "pt", "spanish")
    ('caballo de copas', 'rei de espadas')
    >>> card_name("Kd", "en", "french"), card_name("Th", "es", "french")
    ('king of diamonds', '10 de corazones')
    """
    kind = "f" if deck == "french" else "s"
    rank, suit = card[:-1], card[-1]
    said = CARD_WORDS.get(kind + rank, "10" if rank == "T" else rank)
    return tr(lang, "{rank} of {suit}", rank=tr(lang, said), suit=tr(lang, CARD_SUITS[kind + suit]))


def card_words(card: str, lang: str, deck: str) -> str:
    """A card as the browser's page writes it: a French card with its glyph (``K♦``), a Spanish
    one by its name (``caballo de copas``): its drawing has no index that reads as ``11c``, the
    record's code, which nothing on the page teaches.

    >>> card_words("11c", "es", "spanish"), card_words("Kd", "es", "french")
    ('caballo de copas', 'K♦')
    """
    return card_glyph(card, deck) if deck == "french" else card_name(card, lang, deck)


_FRENCH_CARD = re.compile(rf"\b({_CARD_CODE['french'].pattern})\b")


def glyph_text(text: str, deck: str) -> str:
    """Every French card named in ``text`` (a bot's reason) printed with its glyph.

    >>> glyph_text("+0.7 for play Ah", "french")
    '+0.7 for play A♥'
    """
    if deck != "french":
        return text
    return _FRENCH_CARD.sub(lambda m: card_glyph(m.group(1), deck), text)


# What each game calls one deal of the cards, in titles and logs alike: a Pocha or Truco "hand"
# (mano, mão), a Tute or Pottle "deal", a Poch "round".
_DEAL_UNITS = {"pocha": "hand", "truco": "hand", "tute": "deal", "pottle": "deal", "poch": "round"}


def deal_unit(game: Game[Any, Any]) -> str:
    """``hand``, ``deal`` or ``round``: what ``game`` calls one deal of the cards.

    >>> import tapete
    >>> deal_unit(tapete.load("tute")), deal_unit(tapete.load("oh_hell"))
    ('deal', 'hand')
    """
    return _DEAL_UNITS.get(game.rules.NAME, "deal")


def trick_unit(game: Game[Any, Any] | str) -> str:
    """``trick``, ``round`` or ``run of cards``: what ``game`` (or the game of that rules name)
    calls the cards on the table. Truco's rules call the three tricks of a hand its rounds
    (rondas, rodadas), and so does its table; Poch's race has no tricks but runs (escaleras),
    each card of one laid by whoever holds it (not "sequence": that is Poch's meld bowl).

    >>> import tapete
    >>> trick_unit(tapete.load("truco")), trick_unit(tapete.load("tute")), trick_unit("poch")
    ('round', 'trick', 'run of cards')
    """
    name = game if isinstance(game, str) else game.rules.NAME
    return {"truco": "round", "poch": "run of cards"}.get(name, "trick")


def game_title(game: Game[Any, Any]) -> str:
    """``game``'s name as its table's title has it: ``Pocha``, ``Oh Hell`` (Pocha with French
    cards), ``Tute``, ``Truco``, ``Poch``, ``Pottle``.

    >>> import tapete
    >>> game_title(tapete.load("oh_hell")), game_title(tapete.load("pottle(players=5)"))
    ('Oh Hell', 'Pottle')
    """
    return _title(game.rules.NAME, game.params)


def _title(name: str, params: Any) -> str:
    if name == "pocha":
        return "Oh Hell" if params.deck == "french" else "Pocha"
    return name.capitalize()


def game_deck(game: Game[Any, Any]) -> str:
    """``french`` or ``spanish``: how ``game``'s cards are printed and drawn."""
    return "french" if any(s >= 4 for s in game.deck.suits) else "spanish"


_CALLS = {3: "truco!", 6: "seis!", 9: "nove!", 12: "doze!"}


def raise_call(asked: int | None) -> str:
    """What a Truco player calls to raise the hand to ``asked``: truco (3), seis, nove, doze —
    the game's own words, in every language (its log, hints and buttons).

    >>> [raise_call(n) for n in (3, 6, 9, 12)]
    ['truco!', 'seis!', 'nove!', 'doze!']
    """
    return _CALLS.get(asked or 3, "truco!")


@dataclass(frozen=True)
class SeatBox:
    """One seat around the table."""

    seat: int
    name: str
    lines: tuple[str, ...]  # e.g. "bid 2", "tricks 1", "35"
    cards: int  # cards in hand
    shown: tuple[str, ...] = ()  # cards of this seat the viewer can see
    turn: bool = False
    dealer: bool = False
    team: int | None = None


@dataclass(frozen=True)
class OnTable:
    """A card played to the current trick (``card`` None: face down)."""

    seat: int
    card: str | None


@dataclass(frozen=True)
class Table:
    game: str
    title: str
    status: str
    seats: tuple[SeatBox, ...]
    hand: tuple[str, ...]  # your cards, in display order
    blind: int  # your cards you may not see (played by position)
    trick: tuple[OnTable, ...]
    last_trick: tuple[OnTable, ...]
    last_winner: int | None
    info: tuple[tuple[str, str], ...]  # (label, value): trump, upcard, stake, pot ...
    score_names: tuple[str, ...]
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    deck: str  # spanish or french: how to draw the cards
    over: bool
    extra: dict[str, Any] = field(default_factory=dict)  # game-specific (Poch's bowls ...)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Table:
        """The table from the object of its fields the web protocol sends (``docs/protocol.md``:
        ``view.table``), as a client far from the engine draws it; KeyError or TypeError for an
        object that is not one.

        >>> import json, dataclasses, tapete
        >>> game = tapete.load("pocha(players=3, schedule=[2])")
        >>> table = present(game.observe(game.new_state(seed=1), 0))
        >>> sent = json.loads(json.dumps(dataclasses.asdict(table)))
        >>> Table.from_json(sent) == table
        True
        """
        return cls(
            game=str(data["game"]),
            title=str(data["title"]),
            status=str(data["status"]),
            seats=tuple(
                SeatBox(
                    seat=int(s["seat"]),
                    name=str(s["name"]),
                    lines=tuple(map(str, s["lines"])),
                    cards=int(s["cards"]),
                    shown=tuple(map(str, s.get("shown", ()))),
                    turn=bool(s.get("turn", False)),
                    dealer=bool(s.get("dealer", False)),
                    team=None if s.get("team") is None else int(s["team"]),
                )
                for s in data["seats"]
            ),
            hand=tuple(map(str, data["hand"])),
            blind=int(data["blind"]),
            trick=_on_table(data["trick"]),
            last_trick=_on_table(data["last_trick"]),
            last_winner=None if data.get("last_winner") is None else int(data["last_winner"]),
            info=tuple((str(label), str(value)) for label, value in data["info"]),
            score_names=tuple(map(str, data["score_names"])),
            scores=tuple(map(int, data["scores"])),
            history=tuple(tuple(map(int, row)) for row in data["history"]),
            deck=str(data["deck"]),
            over=bool(data["over"]),
            extra=dict(data.get("extra") or {}),
        )


def _on_table(cards: Any) -> tuple[OnTable, ...]:
    return tuple(
        OnTable(int(c["seat"]), None if c["card"] is None else str(c["card"])) for c in cards
    )


@dataclass(frozen=True)
class Button:
    label: str
    action: Action
    text: str  # the action's notation


@dataclass(frozen=True)
class Actions:
    """Legal actions as a person meets them: cards to click and buttons to press."""

    cards: dict[str, Action]  # card text -> its "play" action
    buttons: tuple[Button, ...]
    # What the decision on offer means and what each option is worth, in words a newcomer can
    # follow ("accept: play the hand for 3 · run: give up the hand, they score 1"); "" when
    # there is nothing to say beyond the cards (or no view was given).
    explain: str = ""


def actions(
    game: Game[Any, Any], legal: Sequence[Action], lang: str = "en", view: Any = None
) -> Actions:
    """Sort legal actions into card plays (clicking a card in your hand) and labelled buttons.

    With the ``view``, a game's presenter may label a button by the moment (Truco's ``raise``
    says what it asks: truco!, seis!, nove!, doze!). Cards in labels are printed as on the
    screens (``play K♦ face down``).
    """
    cards: dict[str, Action] = {}
    buttons = []
    presenter = PRESENTERS[game.rules.NAME]
    button = presenter.button if view is not None else None
    offered: list[list[str]] = []
    for action in legal:
        text = game.format_action(action)
        words = text.split()
        offered.append(words)
        if len(words) == 2 and words[0] == "play" and _is_card(game, words[1]):
            cards[words[1]] = action
        elif button is not None and (label := button(view, words, lang)) is not None:
            buttons.append(Button(label, action, text))
        else:
            if len(words) > 1 and _is_card(game, words[1]):
                words = [words[0], card_glyph(words[1], game_deck(game)), *words[2:]]
            buttons.append(Button(_label(words, lang), action, text))
    explain = ""
    if view is not None and presenter.explain is not None and offered:
        explain = " · ".join(presenter.explain(view, offered, lang))
    return Actions(cards, tuple(buttons), explain)


def forbidden_bids(
    game: Game[Any, Any], state: Any, legal: Sequence[Action], lang: str = "en"
) -> list[tuple[Button, IllegalActionError]]:
    """The bids from 0 to the highest on offer that the dealer's hook forbids now (Pocha, Oh
    Hell), each with its refusal: shown beside the legal ones, struck through, so a person sees
    why that number is missing rather than wonder."""
    offered = [game.format_action(a).split() for a in legal]
    numbers = [int(w[1]) for w in offered if len(w) == 2 and w[0] == "bid" and w[1].isdecimal()]
    out: list[tuple[Button, IllegalActionError]] = []
    for n in range(max(numbers) + 2) if numbers else ():
        if n in numbers:
            continue
        try:
            action = game.parse_action(f"bid {n}")
        except InvalidActionError:
            continue
        error = game.why_illegal(state, action)
        if error is not None and error.rule == "hook":
            out.extend((b, error) for b in actions(game, [action], lang).buttons)
    return out


def refused_cards(
    game: Game[Any, Any], state: Any, hand: Sequence[str], playable: Mapping[str, Action]
) -> dict[str, IllegalActionError]:
    """Each card of ``hand`` the rules forbid now, with its refusal, while cards are what is
    asked (``playable``: the legal ones): so a dimmed card says why it may not be played (you
    must follow suit...) instead of a bare "not allowed"."""
    out: dict[str, IllegalActionError] = {}
    if not playable:
        return out
    for card in hand:
        if card in playable:
            continue
        try:
            action = game.parse_action(f"play {card}")
        except InvalidActionError:
            continue
        error = game.why_illegal(state, action)
        if error is not None:
            out[card] = error
    return out


def _is_card(game: Game[Any, Any], text: str) -> bool:
    try:
        game.parse_card(text)
    except (InvalidActionError, ValueError):
        return False
    return True


_LABELS = {
    "bid": "bid {n}",
    "bet": "bet {n}",
    "sing": "sing {suit}",
    "trump": "trump {suit}",
}


def notation_label(text: str, lang: str, deck: str | None = None) -> str:
    """An action written in the game's notation as its button names it, without a view or a
    game (a bot's plan): ``bid 2`` is ``pedir 2`` in Spanish, ``play Kd`` ``jugar Kd``. With the
    game's ``deck``, its card is written as the browser's page writes it (``card_words``).

    >>> [notation_label(a, "es") for a in ("bid 2", "play Kd")], notation_label("trump h", "en")
    (['pedir 2', 'jugar Kd'], 'trump hearts')
    >>> notation_label("play 11c", "es", "spanish"), notation_label("play Kd down", "pt", "french")
    ('jugar caballo de copas', 'jogar K♦ encoberta')
    """
    words = text.split()
    if deck is not None and len(words) > 1 and _CARD_CODE[deck].fullmatch(words[1]):
        words[1] = card_words(words[1], lang, deck)
    if len(words) == 2 and words[0] == "play" and not words[1].isdecimal():
        return tr(lang, "play {card}", card=words[1])
    return _label(words, lang) if words else text


SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def _label(words: list[str], lang: str) -> str:
    verb = words[0]
    if len(words) == 1:
        return tr(lang, {"raise": "truco!"}.get(verb, verb))
    if verb == "play" and len(words) == 3 and words[2] == "down":
        return tr(lang, "play {card} face down", card=words[1])
    if verb == "play" and words[1].isdecimal():
        return tr(lang, "card {n}", n=words[1])
    if verb == "raise":
        # Poch's "raise N": match the highest bet, then N more.
        return tr(lang, "raise {n} more", n=words[1])
    if verb == "trump" and words[1] == "none":
        # Pottle's no-trump contract is a choice beside the four suits: "no trump", not
        # "trump no trump".
        return tr(lang, "no trump")
    if verb in ("sing", "trump"):
        suit = SUIT_WORDS.get(words[1], words[1])  # Pottle's trump h: hearts
        return tr(lang, _LABELS[verb], suit=tr(lang, suit))
    if verb in _LABELS:
        return tr(lang, _LABELS[verb], n=words[1])
    return " ".join(words)


# --- presenters ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Presenter:
    """How the apps show one game: its ``Table``, and button labels that depend on the view."""

    table: Callable[[Any, str, list[str]], Table]
    button: Callable[[Any, list[str], str], str | None] | None = None
    # What each kind of decision on offer means (the view, the offered actions' words, lang).
    explain: Callable[[Any, list[list[str]], str], tuple[str, ...]] | None = None


def present(view: Any, lang: str = "en", names: Sequence[str] | None = None) -> Table:
    """The table as ``view``'s seat sees it, in ``lang``; ``names`` name the seats."""
    presenter = PRESENTERS[rules_of(view).NAME]
    return presenter.table(view, lang, _names(view, lang, names))


def _names(view: Any, lang: str, names: Sequence[str] | None) -> list[str]:
    n = len(view.hand_sizes)
    if names is not None:
        return list(names)
    return [tr(lang, "you") if s == view.seat else tr(lang, "seat {n}", n=s) for s in range(n)]


def _status(view: Any, lang: str, names: list[str], verb: str = "{name} to play") -> str:
    if view.turn is None:
        return tr(lang, "match over")
    if view.turn == view.seat:
        return tr(lang, "your turn")
    return tr(lang, verb, name=isolated(names[view.turn]))


def _cards(cards: Any) -> tuple[str, ...]:
    if cards is None:
        return ()
    if isinstance(cards, CardSet):
        return _card_texts(cards.mask)
    return tuple(CARD_TEXT[c] for c in sorted(cards))


@functools.lru_cache(maxsize=1024)
def _card_texts(mask: int) -> tuple[str, ...]:
    # A hand is drawn again after every move at its table, mostly unchanged: remember it.
    return tuple(CARD_TEXT[c] for c in cards_of(mask))


def _shown(view: Any, seat: int) -> tuple[str, ...]:
    seen = view.hands[seat]
    return _cards(seen) if seen is not None and seat != view.seat else ()


def _trick(view: Any, plays: Sequence[Card], leader: int | None = None) -> tuple[OnTable, ...]:
    """The cards of a trick on the seats that played them, from its leader (the current one's)."""
    leader = view.leader if leader is None else leader
    seats = getattr(view, "seats", None)
    if seats is None:
        seats = tuple(range(len(view.hand_sizes)))
    return _laid(tuple(seats), leader, tuple(plays))


@functools.lru_cache(maxsize=1024)
def _laid(seats: tuple[int, ...], leader: int, plays: tuple[Card, ...]) -> tuple[OnTable, ...]:
    # Every seat at a table shows the same trick, and the last one for a whole trick: remember.
    start = seats.index(leader) if leader in seats else 0
    order = seats[start:] + seats[:start]
    return tuple(OnTable(order[i % len(order)], CARD_TEXT[c]) for i, c in enumerate(plays))


def _suit(lang: str, suit: int | None) -> str:
    """The trump fact's value: a suit, "none" (the fact is "trump: none", not "trump: no
    trump"), or, while Pottle's declarer is still to name it, "not named yet"."""
    if suit is None:
        return tr(lang, "not named yet")
    if suit < 0:
        return tr(lang, "none")
    return tr(lang, suit_name(suit))


def _pocha(view: pocha.View, lang: str, names: list[str]) -> Table:
    p = view.params
    face = view.upcard if view.upcard >= 0 else view.shown
    bids = sum(b for b in view.bids if b is not None)
    title, info = _pocha_words(
        lang, p, view.deal, view.tiebreak, view.trump, face, view.hand_size, bids
    )
    seats = _pocha_seats(
        lang,
        tuple(names),
        view.bids,
        view.won,
        view.scores,
        view.hand_sizes,
        tuple(_shown(view, s) for s in range(len(view.hand_sizes))),
        view.turn,
        view.dealer,
    )
    last = view.tricks[-1] if view.tricks else None
    verb = "{name} to bid" if str(view.phase) == "bid" else "{name} to play"
    return Table(
        game=_title("pocha", p),
        title=title,
        status=_status(view, lang, names, verb),
        seats=seats,
        hand=_cards(view.hand),
        # A ronda_india one-card hand: its holder sees a back where every other seat sees it.
        blind=view.hand_sizes[view.seat] if view.seat is not None and view.hand is None else 0,
        trick=_trick(view, view.trick),
        last_trick=_last(view, last),
        last_winner=None,
        info=info,
        score_names=tuple(names),
        scores=view.scores,
        history=view.history,
        deck="french" if p.deck == "french" else "spanish",
        over=view.turn is None,
    )


@functools.lru_cache(maxsize=256)
def _pocha_words(
    lang: str, params: Any, deal: int, tiebreak: bool, trump: int, face: int, size: int, bids: int
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The title and the facts of a deal: trump, upcard, hand size, and the bids made so far
    against the tricks in the hand (over or under: someone must fail)."""
    from tapete.games import pocha

    total = len(pocha.schedule_of(params))
    title = (
        tr(lang, "tie-break hand")
        if tiebreak
        else tr(lang, "hand {n} of {total}", n=deal + 1, total=total)
    )
    info = [(tr(lang, "trump"), _suit(lang, trump))]
    if face >= 0:
        info.append((tr(lang, "upcard"), format_card(face)))
    info.append((tr(lang, "cards"), tr(lang, "{n} each", n=size)))
    tricks = tr(lang, "1 trick") if size == 1 else tr(lang, "{n} tricks", n=size)
    info.append((tr(lang, "bids"), f"{bids} / {tricks}"))
    return f"{_title('pocha', params)} — {title}", tuple(info)


@functools.lru_cache(maxsize=256)
def _pocha_seats(
    lang: str,
    names: tuple[str, ...],
    bids: tuple[int | None, ...],
    won: tuple[int, ...],
    scores: tuple[int, ...],
    hand_sizes: tuple[int, ...],
    shown: tuple[tuple[str, ...], ...],
    turn: int | None,
    dealer: int,
) -> tuple[SeatBox, ...]:
    # The seats look the same from every seat at the table: built once per move, not per seat.
    bid_word, tricks_word, score_word = tr(lang, "bid"), tr(lang, "tricks"), tr(lang, "score")
    return tuple(
        SeatBox(
            s,
            names[s],
            (
                f"{bid_word} {'–' if bids[s] is None else bids[s]}",
                f"{tricks_word} {won[s]}",
                f"{score_word} {scores[s]}",
            ),
            hand_sizes[s],
            shown[s],
            s == turn,
            s == dealer,
        )
        for s in range(len(hand_sizes))
    )


def _last(view: Any, last: Any) -> tuple[OnTable, ...]:
    if last is None:
        return ()
    leader, cards = last
    return _trick(view, cards, leader)


def _pottle(view: pottle.View, lang: str, names: list[str]) -> Table:
    seats = []
    for s in range(len(view.hand_sizes)):
        bid = view.bids[s]
        lines = (
            f"{tr(lang, 'bid')} {'–' if bid is None else bid}",
            f"{tr(lang, 'tricks')} {view.won[s]}",
            f"{tr(lang, 'chips')} {view.stacks[s]}",
        )
        seats.append(
            SeatBox(s, names[s], lines, view.hand_sizes[s], (), s == view.turn, s == view.dealer)
        )
    info = [(tr(lang, "pot"), str(view.pot))]
    if view.declarer is not None:
        info.append((tr(lang, "declarer"), isolated(names[view.declarer])))
    info.append((tr(lang, "trump"), _suit(lang, view.trump)))
    verbs = {"bid": "{name} to bid", "trump": "{name} to name trump"}
    return Table(
        game=_title("pottle", view.params),
        title=f"{_title('pottle', view.params)} — {tr(lang, 'deal')} {view.deal + 1}",
        status=_status(view, lang, names, verbs.get(str(view.phase), "{name} to play")),
        seats=tuple(seats),
        hand=_cards(view.hand),
        blind=0,
        trick=_trick(view, view.trick),
        last_trick=_last(view, view.tricks[-1] if view.tricks else None),
        last_winner=None,
        info=tuple(info),
        score_names=tuple(names),
        scores=view.scores,
        history=view.history,
        deck="french",
        over=view.turn is None,
    )


def _truco(view: truco.View, lang: str, names: list[str]) -> Table:
    from tapete.games import truco

    n = len(view.hand_sizes)
    pairs = n == 4  # 1v1: the players are the sides, by name
    seats = [
        SeatBox(
            s,
            names[s],
            (tr(lang, "team {n}", n=s % 2 + 1),) if pairs else (),
            view.hand_sizes[s],
            _shown(view, s),
            s == view.turn,
            s == view.dealer,
            s % 2 if pairs else None,
        )
        for s in range(n)
    ]
    manilhas = " ".join(format_card(suit * 16 + view.manilha) for suit in truco.MANILHA_SUITS)
    info = [
        (tr(lang, "vira"), format_card(view.upcard)),
        (tr(lang, "manilhas"), manilhas),
        (tr(lang, "stake"), str(view.stake)),
    ]
    if view.tricks:
        # Who took each round of the hand so far, in order: who wins the hand turns on the
        # order and the ties, not just the count (a split then a tie goes to the first).
        leaders = [*(r.leader for r in view.tricks[1:]), view.leader]
        won = [
            tr(lang, "tied") if r.result is None else isolated(names[leader])
            for r, leader in zip(view.tricks, leaders, strict=True)
        ]
        info.append((tr(lang, "rounds"), ", ".join(won)))
    if view.proposal is not None and view.proposer is not None:
        info.append((isolated(names[view.proposer]), tr(lang, "asks {n}", n=view.proposal)))
    if view.special != truco.Special.NORMAL:
        info.append((tr(lang, str(view.special).replace("_", " ").replace("mao", "mão")), ""))
    trick = tuple(
        OnTable(p.seat, None if p.card < 0 or p.down else CARD_TEXT[p.card]) for p in view.trick
    )
    last = view.tricks[-1] if view.tricks else None
    last_trick = (
        tuple(
            OnTable(p.seat, None if p.card < 0 or p.down else CARD_TEXT[p.card]) for p in last.plays
        )
        if last
        else ()
    )
    verbs = {"answer": "{name} to answer", "eleven": "{name} to decide"}
    status = _status(view, lang, names, verbs.get(str(view.phase), "{name} to play"))
    if view.turn is not None and view.turn == view.seat:  # say what is asked, not just "your turn"
        if view.phase == truco.Phase.ANSWER and view.proposer is not None:
            asks = "{name} asks {n}: your answer"
            status = tr(lang, asks, name=isolated(names[view.proposer]), n=view.proposal)
        elif view.phase == truco.Phase.ELEVEN:
            status = tr(lang, "one point from the game: play this hand for 3, or run")
    hand = view.hand
    return Table(
        game=_title("truco", view.params),
        title=f"{_title('truco', view.params)} — {tr(lang, 'hand')} {view.deal + 1}",
        status=status,
        seats=tuple(seats),
        hand=_cards(hand),
        blind=view.hand_sizes[view.seat] if view.seat is not None and hand is None else 0,
        trick=trick,
        last_trick=last_trick,
        last_winner=None,
        info=tuple(info),
        score_names=(tr(lang, "team {n}", n=1), tr(lang, "team {n}", n=2))
        if pairs
        else tuple(names[:2]),
        scores=view.scores,
        history=view.history,
        deck="french",
        over=view.turn is None,
    )


def _poch(view: poch.View, lang: str, names: list[str]) -> Table:
    """Poch: chips and bets per seat, the nine bowls in ``extra["bowls"]``, the run in play."""
    from tapete.games import poch

    n = len(view.hand_sizes)
    # A bet is live only in the poker round: once it ends the Pinke is settled, and its bets
    # (and who passed) are history, told in the log, not a seat's state.
    betting = view.phase == poch.Phase.POKER and view.turn is not None
    seats = []
    for s in range(n):
        chips = f"{tr(lang, 'chips')} {view.chips[s]}"
        if not view.in_game[s]:
            lines: tuple[str, ...] = (chips, tr(lang, "out"))
        elif not betting:
            lines = (chips,)
        elif view.folded[s]:
            lines = (chips, tr(lang, "passed"))
        else:
            lines = (chips, f"{tr(lang, 'bet')} {view.bets[s]}")
        seen = view.hands[s] if view.hands[s] is not None else view.known[s]
        shown = _cards(seen) if s != view.seat and seen else ()
        seats.append(
            SeatBox(s, names[s], lines, view.hand_sizes[s], shown, s == view.turn, s == view.dealer)
        )
    face = view.upcard if view.upcard >= 0 else view.shown
    info = [(tr(lang, "trump"), _suit(lang, view.trump))]
    if face >= 0:
        info.append((tr(lang, "upcard"), format_card(face)))
    info.append((tr(lang, "phase"), tr(lang, str(view.phase))))
    if str(view.phase) == "poker" and view.turn is not None and max(view.bets) > 0:
        info.append((tr(lang, "to call"), str(view.to_call)))
    takers = {m.bowl: m.seat for m in view.melds if m.seat is not None}
    # The sequence bowl is the trump 7-8-9 only under sequence_rule=trump_789; else the best run.
    by_789 = view.params.sequence_rule == "trump_789"
    bowl_names = [
        ("7-8-9" if by_789 else name) if name == "sequence" else name for name in poch.BOWLS
    ]
    bowls = [
        (tr(lang, name), chips, None if takers.get(i) is None else names[takers[i]])
        for i, (name, chips) in enumerate(zip(bowl_names, view.bowls, strict=True))
    ]
    marks = (
        "A",
        "K",
        "Q",
        "J",
        "10",
        "K+Q",
        "789" if by_789 else tr(lang, "seq."),
        "Poch",
        "Pinke",
    )
    run = view.runs[-1] if view.runs else ()
    verbs = {"poker": "{name} to bet", "shedding": "{name} to lead"}
    return Table(
        game=_title("poch", view.params),
        title=f"{_title('poch', view.params)} — {tr(lang, 'round {n}', n=view.deal + 1)}",
        status=_status(view, lang, names, verbs.get(str(view.phase), "{name} to play")),
        seats=tuple(seats),
        hand=_cards(view.hand),
        blind=0,
        trick=tuple(OnTable(seat, CARD_TEXT[card]) for seat, card in run),
        last_trick=(),
        last_winner=None,
        info=tuple(info),
        score_names=tuple(names),
        scores=view.scores,
        history=view.history,
        deck="french",
        over=view.turn is None,
        extra={"bowls": bowls, "marks": marks},
    )


def _tute(view: tute.View, lang: str, names: list[str]) -> Table:
    """Tute: card points per seat, trump and its card, the stock (two players), the cantes."""
    n = len(view.hand_sizes)
    pairs = n == 4
    seats = []
    for s in range(n):
        lines = [f"{tr(lang, 'points')} {view.points[s]}"]
        if pairs:
            lines.append(tr(lang, "team {n}", n=s % 2 + 1))
        known = view.known[s] if s != view.seat else None
        seats.append(
            SeatBox(
                s,
                names[s],
                tuple(lines),
                view.hand_sizes[s],
                _cards(known) if known else (),
                s == view.turn,
                s == view.dealer,
                s % 2 if pairs else None,
            )
        )
    info = [(tr(lang, "trump"), _suit(lang, view.trump))]
    # Two players: the card face up under the stock, until it is drawn into a hand (then the
    # trump suit alone). Four: the dealer's last card, which all know he holds.
    face = view.upcard if pairs else view.face_up
    if face >= 0:
        info.append((tr(lang, "trump card"), format_card(face)))
    if not pairs:
        info.append((tr(lang, "stock"), str(view.stock_size)))
    if view.cantes:
        sung = ", ".join(
            f"{isolated(names[seat])} {40 if suit == view.trump else 20} "
            f"{tr(lang, suit_name(suit))}"
            for _, seat, suit in view.cantes
        )
        info.append((tr(lang, "cantes"), sung))
    sides = (tr(lang, "team {n}", n=1), tr(lang, "team {n}", n=2)) if pairs else tuple(names[:2])
    return Table(
        game=_title("tute", view.params),
        title=f"{_title('tute', view.params)} — {tr(lang, 'deal')} {view.deal + 1}",
        status=_status(view, lang, names),
        seats=tuple(seats),
        hand=_cards(view.hand),
        blind=0,
        trick=_trick(view, view.trick),
        last_trick=_last(view, view.tricks[-1] if view.tricks else None),
        last_winner=None,
        info=tuple(info),
        score_names=sides,
        scores=view.scores,
        history=view.history,
        deck="spanish",
        over=view.turn is None,
        # The terminal's short cantes: (who, points, suit's card text) for "you 20e".
        extra={"sung": tuple(_sung(view, names))},
    )


def _sung(view: tute.View, names: Sequence[str]) -> Iterator[tuple[str, int, str]]:
    for _, seat, suit in view.cantes:
        yield names[seat], 40 if suit == view.trump else 20, SPANISH_SUITS[suit]


def _truco_button(view: truco.View, words: list[str], lang: str) -> str | None:
    """``raise`` says what it asks: truco! (to 3), then seis!, nove!, doze!."""
    if words != ["raise"]:
        return None
    base = view.proposal if view.proposal is not None else view.stake
    return tr(lang, raise_call(3 if base == 1 else base + 3))


# --- what a decision means: one short sentence per kind of option on offer, true to
# docs/rules/ (the apps show them where the decision is made, so nobody has to know the game)


def _verbs(offered: list[list[str]]) -> set[str]:
    """The kinds of action on offer: ``play``, ``play down`` (a face-down card), or the verb."""
    return {"play down" if w[0] == "play" and w[-1] == "down" else w[0] for w in offered if w}


def _pocha_explain(view: pocha.View, offered: list[list[str]], lang: str) -> tuple[str, ...]:
    if "bid" not in _verbs(offered):
        return ()
    if view.params.scoring == "oh_hell":
        return (
            tr(lang, "bid: the tricks you will take this hand; 1 point a trick, 10 more if exact"),
        )
    return (
        tr(
            lang,
            "bid: the tricks you will take this hand; exact scores 10 + 5 a trick,"
            " missed loses 5 a trick off",
        ),
    )


def _pottle_explain(view: pottle.View, offered: list[list[str]], lang: str) -> tuple[str, ...]:
    verbs = _verbs(offered)
    if "bid" in verbs and view.params.pot_rule == "pagat":
        return (
            tr(
                lang,
                "bid: the tricks you will take; the highest bid names trump, and the pot ({pot})"
                " goes to the highest bid taken exactly",
                pot=view.pot,
            ),
        )
    if "bid" in verbs:
        return (
            tr(
                lang,
                "bid: the tricks you will take; the highest bid names trump and wins the pot"
                " ({pot}) only by taking exactly that many",
                pot=view.pot,
            ),
        )
    if "trump" in verbs and view.seat is not None and view.params.pot_rule == "pagat":
        return (tr(lang, "you won the auction: name trump (or no trump)"),)
    if "trump" in verbs and view.seat is not None:
        bid = view.bids[view.seat] or 0
        return (
            tr(
                lang,
                "you won the auction: name trump (or no trump), then take exactly {n} to win"
                " the pot",
                n=bid,
            ),
        )
    return ()


def _before(asked: int) -> int:
    """What a Truco raise to ``asked`` gives the raisers when the other side runs."""
    return 1 if asked <= 3 else asked - 3


def _truco_explain(view: truco.View, offered: list[list[str]], lang: str) -> tuple[str, ...]:
    from tapete.games import truco

    verbs = _verbs(offered)
    out = []
    eleven = view.phase == truco.Phase.ELEVEN
    if "accept" in verbs:
        n = 3 if eleven else view.proposal or 3
        out.append(tr(lang, "accept: play the hand for {n}", n=n))
    if "run" in verbs:
        m = 1 if eleven else _before(view.proposal or 3)
        out.append(tr(lang, "run: give up the hand, they score {n}", n=m))
    if "raise" in verbs:
        base = view.proposal if view.proposal is not None else view.stake
        asked = 3 if base == 1 else base + 3
        call = tr(lang, raise_call(asked))
        out.append(
            tr(
                lang,
                "{call} asks {n} for the hand: if they run, your side scores {m}",
                call=call,
                n=asked,
                m=_before(asked),
            )
        )
    if "play down" in verbs:
        out.append(tr(lang, "a card face down is hidden and cannot win the round"))
    return tuple(out)


def _poch_explain(view: poch.View, offered: list[list[str]], lang: str) -> tuple[str, ...]:
    verbs = _verbs(offered)
    if str(view.phase) == "shedding":
        return (
            tr(
                lang,
                "lead a card: the next higher cards of its suit must follow; the first to"
                " empty the hand gets 1 chip a card left from each",
            ),
        )
    out = []
    if "bet" in verbs:
        out.append(
            tr(lang, "bet: chips into the Pinke; the best hand still in takes it and the Poch bowl")
        )
    if "call" in verbs:
        out.append(tr(lang, "call: put in {n} to match the bet", n=view.to_call))
    if "raise" in verbs:
        out.append(tr(lang, "raise: match the bet and add more"))
    if "pass" in verbs:
        out.append(tr(lang, "pass: drop out of the betting, keeping your cards for the race"))
    return tuple(out)


def _tute_explain(view: tute.View, offered: list[list[str]], lang: str) -> tuple[str, ...]:
    verbs = _verbs(offered)
    out = []
    if "sing" in verbs:
        out.append(tr(lang, "sing: show a Rey and Caballo of one suit for 20 (40 in trumps)"))
    if "tute" in verbs:
        out.append(tr(lang, "tute: show all four Reyes or all four Caballos and win the deal"))
    if "swap" in verbs:
        out.append(tr(lang, "swap: take the face-up card for your 7 (or 2) of trumps"))
    return tuple(out)


PRESENTERS: Mapping[str, Presenter] = MappingProxyType(
    {
        "poch": Presenter(_poch, explain=_poch_explain),
        "pocha": Presenter(_pocha, explain=_pocha_explain),
        "pottle": Presenter(_pottle, explain=_pottle_explain),
        "truco": Presenter(_truco, _truco_button, _truco_explain),
        "tute": Presenter(_tute, explain=_tute_explain),
    }
)
"""Each game's presenter by the game's ``NAME`` (every registered game has one: a test checks)."""


# Every rule option of every game: a label and a line of help for the lobby's form and
# the terminal's rules page. An option
# missing here still shows, by its name with spaces (a test keeps this list complete).
PARAMS: dict[str, tuple[str, str]] = {
    "players": ("players", "how many sit at the table"),
    "min_players": ("fewest players", "the smallest table this variant allows"),
    "max_players": ("most players", "the largest table this variant allows"),
    "deck": (
        "deck",
        "which cards are used (40 or 48 Spanish, French; Truco: dirty 40 or clean 24)",
    ),
    "suits": ("suits", "how many suits are used (deck=french only)"),
    "ranks": ("ranks", "how many cards of each suit are used, the highest (deck=french only)"),
    "schedule": (
        "hand sizes",
        "hand sizes in order: up_and_down, up_only, max_only, n_ones or a list like [1, 3, 5]",
    ),
    "dealer_hook": (
        "dealer's hook",
        "the dealer may not bid so that the bids add up to the tricks in the hand",
    ),
    "hook_on_one_card": (
        "hook in one-card hands",
        "the dealer's hook applies to one-card hands too",
    ),
    "rank_order": (
        "card order",
        "how the cards rank: as_tres (A, 3, Rey … 2) or natural (A high … 2)",
    ),
    "obligation": (
        "obligation",
        "what you must play: must_win (follow and beat when you can) or follow (just follow suit)",
    ),
    "must_underruff": (
        "must underruff",
        "with no card of the suit led, play a trump even one that cannot win",
    ),
    "scoring": (
        "scoring",
        "pocha: 10 + 5 a trick if exact, −5 a trick off; oh_hell: 1 a trick, +10 if exact",
    ),
    "all_dealt_trump": (
        "trump when all cards are dealt",
        "dealer_card: the dealer's last card shows trump; none: no trump",
    ),
    "tiebreak_players": (
        "tie-break",
        "who plays the tie-break hand when the lead is tied: tied, all, or nobody (a shared win)",
    ),
    "ronda_india": (
        "Indian round",
        "one-card hands are played blind: each sees everyone's card but his own",
    ),
    "chips": ("chips", "each player's starting chips"),
    "bowl_funding": (
        "bowl funding",
        "who fills the bowls each round: bank, or player_antes (each player pays)",
    ),
    "sequence_compare": (
        "sequence comparison",
        "which run wins the sequence bowl: height, or length_then_height",
    ),
    "sequence_rule": (
        "sequence bowl",
        "best_run: the best run of the trump suit wins it; trump_789: only the 7-8-9 of trumps",
    ),
    "bet_cap": (
        "bet cap",
        "min_active_stack: no bet above the smallest stack still in; none: no cap",
    ),
    "all_pass": (
        "all pass",
        "when nobody bets: carry (the Poch bowl waits) or showdown (the best hand takes it)",
    ),
    "shed_leader": ("first to shed", "who leads the shedding race: dealer_left or poker_winner"),
    # Not "deal": in Portuguese that is a rodada, as Poch's rounds are, two options one word.
    "deal": ("cards dealt", "five cards each, or all the cards"),
    "rounds": (
        "rounds",
        "how long the match lasts: until_one_left, one_per_player, or a number of rounds",
    ),
    "max_rounds": (
        "most rounds",
        "the match ends after this many rounds at the latest: most chips wins",
    ),
    "max_same_bid": (
        "most of one bid",
        "how many players may make the same bid: a count or unlimited",
    ),
    "pot_rule": ("pot rule", "who can win the pot: auction_winner, or pagat (anyone exact)"),
    "deal_passes": ("next dealer", "clockwise, or pot_winner (the pot winner deals next)"),
    "deals": ("deals", "how many deals: none means twice the players"),
    "extra_deals": (
        "extra deals",
        "deals played while the pot is not won: none means one per player",
    ),
    "bankroll": ("bankroll", "the chips each player starts with, and buys when he cannot ante"),
    "target": ("points to win", "the score that wins the match"),
    "all_tied": (
        "all rounds tied",
        "who wins a hand whose three rounds tie: dealer_team, mao_team or no_score",
    ),
    "iron_hand_blind": (
        "iron hand blind",
        "when both sides are one point from the target (11 to 11), the hand is played blind",
    ),
    "encoberta": ("face-down cards", "when a card may be played face down: rounds_2_3 or off"),
    "no_encoberta_after_tie": (
        "no face-down after a tie",
        "no card is played face down after a tied round",
    ),
    "responder": ("who answers a raise", "next_opponent, or either_opponent"),
    "forbid_pointless_raise": (
        "no pointless raise",
        "no raise when the hand would already win the game",
    ),
    "stock_phase_play": (
        "play while the stock lasts",
        "strict (follow and beat), follow_only, or free",
    ),
    "two_swap_targets": (
        "what the 2 of trumps takes",
        "the face-up ranks the 2 of trumps swaps for, e.g. [4, 5, 6, 7] or [7]",
    ),
    "swap_requires_trick_win": ("swap needs a trick", "a swap needs a trick won first"),
    "cantes_after_stock": ("cantes after the stock", "cantes are allowed once the stock is gone"),
    "last_trick_bonus": (
        "last trick bonus",
        "points for the last trick: none (0 with 2 players, 10 with 4), 0 or 10",
    ),
    "tute_declaration": ("tute", "four Reyes or four Caballos win the deal when declared"),
    "first_leader": ("first to lead", "none, two_of_oros, or dealer_right"),
    "partner_may_sing": (
        "partner may sing",
        "the trick winner's partner may sing in his place (one cante a trick won)",
    ),
    "must_beat_partner": ("must beat partner", "you must beat your partner's card when you can"),
    "match": ("match", "single_deal, best_of_K (e.g. best_of_3), or to_101"),
}


def option_words(lang: str, name: str) -> dict[str, str]:
    """A rule option's label and help in ``lang``.

    >>> option_words("es", "dealer_hook")["label"]
    'gancho del que reparte'
    """
    label, help_text = PARAMS.get(name, (name.replace("_", " "), ""))
    return {"label": tr(lang, label), "help": tr(lang, help_text) if help_text else ""}


def game_words(lang: str, game: Game[Any, Any]) -> str:
    """``game`` in words, for a table waiting for its start and a replay's heading: its name
    as the table's title has it, then each option that differs from the game's defaults, by
    the lobby's label and with the value as the lobby writes it.

    >>> import tapete
    >>> game_words("es", tapete.load("pocha(schedule=[2], dealer_hook=false)"))
    'Pocha — tamaño de las manos: [2], gancho del que reparte: no'
    >>> game_words("en", tapete.load("oh_hell"))
    'Oh Hell'
    """
    options = option_lines(lang, game)
    return " — ".join([game_title(game), ", ".join(options)] if options else [game_title(game)])


def option_lines(
    lang: str, game: Game[Any, Any], against: Game[Any, Any] | None = None
) -> list[str]:
    """Each option of ``game`` that differs from its defaults (or from ``against``'s options),
    by the lobby's label and with the value as the lobby writes it: what a table says its rules
    are, beside its game's name.

    >>> import tapete
    >>> option_lines("en", tapete.load("truco(target=6)"))
    ['points to win: 6']
    >>> option_lines("en", tapete.load("oh_hell(deck=french)"), tapete.load("pocha"))[:2]
    ['most players: 7', 'deck: french']
    """
    changes = game.changes
    if against is not None:
        mine, theirs = game.params, against.params
        names = [f.name for f in dataclasses.fields(mine)]
        changes = {n: getattr(mine, n) for n in names if getattr(mine, n) != getattr(theirs, n)}
    return [
        f"{option_words(lang, name)['label']}: {_value_words(lang, value)}"
        for name, value in changes.items()
    ]


def _value_words(lang: str, value: object) -> str:
    # The lobby has a checkbox for a yes-or-no option: "true" is no word for a person.
    if isinstance(value, bool):
        return tr(lang, "yes" if value else "no")
    return format_value(value)
