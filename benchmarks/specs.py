"""The game specs every benchmark covers: each game at its defaults, and each player count."""

GAMES = [
    "pocha",
    "oh_hell",
    "tute",
    "tute(players=4)",
    "truco",
    "truco(players=4)",
    "poch",
    "pottle",
]
