"""Translations for everything tapete shows people: English, Spanish, Brazilian Portuguese.

Messages are keyed by their English text (a ``str.format`` template); a catalog maps them to
another language. Missing entries fall back to English, and ``tests/test_i18n.py`` checks that
every catalog covers every key used by the presenters and the apps.

>>> tr("es", "trump")
'triunfo'
>>> tr("pt", "hand {n} of {total}", n=3, total=22)
'mão 3 de 22'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["LANGUAGES", "catalog", "tr"]

LANGUAGES = ("en", "es", "pt")

_ES: dict[str, str] = {
    # table and turns
    "your turn": "tu turno",
    "{name} to play": "juega {name}",
    "{name} to bid": "apuesta {name}",
    "{name} to answer": "responde {name}",
    "{name} to name trump": "{name} elige triunfo",
    "{name} to decide": "decide {name}",
    "match over": "partida terminada",
    "seat {n}": "asiento {n}",
    "you": "tú",
    "dealer": "reparte",
    "trump": "triunfo",
    "no trump": "sin triunfo",
    "upcard": "muestra",
    "score": "puntos",
    "scores": "puntuación",
    "hand": "mano",
    "deal": "reparto",
    "bid": "apuesta",
    "bids": "apuestas",
    "tricks": "bazas",
    "chips": "fichas",
    "pot": "bote",
    "stake": "valor",
    "team {n}": "equipo {n}",
    "cards": "cartas",
    "face down": "tapada",
    "tied": "empate",
    "winner": "ganador",
    "winners": "ganadores",
    "hand {n} of {total}": "mano {n} de {total}",
    "tie-break hand": "mano de desempate",
    "{n} cards each": "{n} cartas cada uno",
    "bid {n}": "pedir {n}",
    "play {card}": "jugar {card}",
    "play {card} face down": "jugar {card} tapada",
    "card {n}": "carta {n}",
    "raise": "subir",
    "truco!": "¡truco!",
    "accept": "aceptar",
    "run": "correr",
    "pass": "pasar",
    "call": "igualar",
    "bet {n}": "apostar {n}",
    "raise to {n}": "subir a {n}",
    "swap": "cambiar",
    "sing {suit}": "cantar {suit}",
    "tute": "tute",
    "trump {suit}": "triunfo {suit}",
    "the hand is worth {n}": "la mano vale {n}",
    "asks {n}": "pide {n}",
    "vira": "vira",
    "manilhas": "manillas",
    "mão de onze": "mano de once",
    "mão de ferro": "mano de hierro",
    "round {n}": "ronda {n}",
    "declarer": "declarante",
    "bought": "compradas",
    "rules": "reglas",
    "hint": "pista",
    "undo": "deshacer",
    "language": "idioma",
    "quit": "salir",
    "rematch": "revancha",
    "help": "ayuda",
    "log": "registro",
    "{name} takes the trick": "{name} se lleva la baza",
    "{name}: {action}": "{name}: {action}",
    "not allowed": "no permitido",
    "stock": "mazo",
    "bowls": "platos",
    "points": "tantos",
    # suits
    "oros": "oros",
    "copas": "copas",
    "espadas": "espadas",
    "bastos": "bastos",
    "clubs": "tréboles",
    "diamonds": "diamantes",
    "hearts": "corazones",
    "spades": "picas",
}

_PT: dict[str, str] = {
    "your turn": "sua vez",
    "{name} to play": "vez de {name}",
    "{name} to bid": "{name} aposta",
    "{name} to answer": "{name} responde",
    "{name} to name trump": "{name} escolhe o trunfo",
    "{name} to decide": "{name} decide",
    "match over": "partida encerrada",
    "seat {n}": "lugar {n}",
    "you": "você",
    "dealer": "dá as cartas",
    "trump": "trunfo",
    "no trump": "sem trunfo",
    "upcard": "carta virada",
    "score": "pontos",
    "scores": "placar",
    "hand": "mão",
    "deal": "rodada",
    "bid": "aposta",
    "bids": "apostas",
    "tricks": "vazas",
    "chips": "fichas",
    "pot": "pote",
    "stake": "valor",
    "team {n}": "dupla {n}",
    "cards": "cartas",
    "face down": "encoberta",
    "tied": "empate",
    "winner": "vencedor",
    "winners": "vencedores",
    "hand {n} of {total}": "mão {n} de {total}",
    "tie-break hand": "mão de desempate",
    "{n} cards each": "{n} cartas cada",
    "bid {n}": "pedir {n}",
    "play {card}": "jogar {card}",
    "play {card} face down": "jogar {card} encoberta",
    "card {n}": "carta {n}",
    "raise": "aumentar",
    "truco!": "truco!",
    "accept": "aceitar",
    "run": "correr",
    "pass": "passar",
    "call": "pagar",
    "bet {n}": "apostar {n}",
    "raise to {n}": "aumentar para {n}",
    "swap": "trocar",
    "sing {suit}": "cantar {suit}",
    "tute": "tute",
    "trump {suit}": "trunfo {suit}",
    "the hand is worth {n}": "a mão vale {n}",
    "asks {n}": "pede {n}",
    "vira": "vira",
    "manilhas": "manilhas",
    "mão de onze": "mão de onze",
    "mão de ferro": "mão de ferro",
    "round {n}": "rodada {n}",
    "declarer": "declarante",
    "bought": "compradas",
    "rules": "regras",
    "hint": "dica",
    "undo": "desfazer",
    "language": "idioma",
    "quit": "sair",
    "rematch": "revanche",
    "help": "ajuda",
    "log": "histórico",
    "{name} takes the trick": "{name} leva a vaza",
    "{name}: {action}": "{name}: {action}",
    "not allowed": "não permitido",
    "stock": "monte",
    "bowls": "pratos",
    "points": "pontos",
    "oros": "ouros",
    "copas": "copas",
    "espadas": "espadas",
    "bastos": "paus",
    "clubs": "paus",
    "diamonds": "ouros",
    "hearts": "copas",
    "spades": "espadas",
}

_CATALOGS: dict[str, Mapping[str, str]] = {"en": {}, "es": _ES, "pt": _PT}


def catalog(lang: str) -> Mapping[str, str]:
    """The messages of ``lang`` (``pt-BR`` and ``es-ES`` style tags use their language)."""
    return _CATALOGS.get(lang.split("-")[0].lower(), {})


def tr(lang: str, text: str, **values: Any) -> str:
    """``text`` in ``lang``, formatted with ``values``; English when there is no translation."""
    template = catalog(lang).get(text, text)
    return template.format(**values) if values else template
