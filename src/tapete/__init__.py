"""tapete: traditional card games with exact rules, bots, and a research API.

>>> import tapete
>>> game = tapete.load("pocha")
>>> game.players, game.spec
(4, 'pocha')
"""

from tapete.cards import Card, CardSet, format_card, parse_card
from tapete.errors import IllegalActionError, InvalidActionError, RecordError, SpecError
from tapete.game import Action, Event, Game, Outcome, Seat, Setup
from tapete.games import game_names, load

__all__ = [
    "Action",
    "Card",
    "CardSet",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Outcome",
    "RecordError",
    "Seat",
    "Setup",
    "SpecError",
    "format_card",
    "game_names",
    "load",
    "parse_card",
]

__version__ = "0.1.0"
