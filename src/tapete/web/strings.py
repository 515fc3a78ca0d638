"""Every string the browser shows, and the rule sentences of error messages, by language.

The browser asks ``GET /api/i18n/<lang>`` once and translates with it; all the words come from
``tapete.i18n`` catalogs, so tests can check that each one exists in Spanish and Portuguese.

>>> strings("es")["ui"]["Create table"]
'Crear mesa'
>>> rule_text("pt", "must-follow-suit", "must follow suit: oros was led and you hold 3o")
'você deve seguir o naipe'
"""

from __future__ import annotations

from typing import Any

from tapete.game import Game, format_value
from tapete.games import ENTRIES
from tapete.i18n import LEVEL_HELP, RULES, level_help, rule_text, tr
from tapete.present import game_title

__all__ = [
    "CARD_WORDS",
    "PARAMS",
    "RULES",
    "UI",
    "game_words",
    "option_words",
    "rule_text",
    "strings",
]

UI = (
    # lobby
    "New table",
    "Your name",
    "A name, not only spaces",
    "Game",
    "Read the rules",
    "Seats",
    "Rule options",
    "Table options",
    "listed in the lobby",
    "turn timer (seconds, 0: none)",
    "seconds before a bot stands in for a player who left",
    "bot speed (seconds a move)",
    "The bot speed is a number of seconds from 0 to 5 (like 0.15).",
    "The turn timer is a whole number of seconds from 0 to 600 (0: none).",
    "The wait before a bot stands in is a whole number of seconds from 0 to 600.",
    "Create table",
    "Check the options",
    "Join a table",
    "code",
    "Go",
    "Open tables",
    "Your tables",
    "{n} free seats",
    "1 free seat",
    "watch",
    "No open tables yet: create one!",
    "page {page} of {pages}",
    "previous page",
    "next page",
    "Too many requests from your address: try again in {seconds} s.",
    "a friend",
    "bot ({level})",
    "bot {n}",
    "player {n}",
    "bid",
    "team {n}",
    "seat {n}",
    "you",
    "random",
    "easy",
    "medium",
    "hard",
    "expert",
    # header
    "language",
    "large cards",
    "high contrast",
    # table
    "table",
    "trick",
    "copy link",
    "Link copied: {link}",
    "Connection lost: reconnecting…",
    "log",
    "scores",
    "score chart",
    "Keys: 1–9 choose a card, ←/→ move, Enter plays, H hint, B buttons",
    "Keys: 1–9 choose a card, ←/→ move, Enter plays, B buttons",
    "your hand",
    "actions",
    "dealer",
    "a bot stands in",
    "away",
    "1 card",
    "{n} cards",
    "to act",
    "a card you cannot see",
    "not allowed",
    "hint",
    "rules",
    "lobby",
    "download the record",
    "watching",
    "{n} s",
    "{n} seconds left to play",
    "No such table",
    "There is no table with the code {code}.",
    "Back to the lobby",
    "The host chose this match's seed, so could know every hand",
    # waiting room
    "waiting for the host to start",
    "start the match when everyone is seated",
    "Waiting room",
    "Share this link or the code {code} with your friends:",
    "link",
    "empty seat",
    "remove",
    "remove a player: a bot takes the seat",
    "remove {name}",
    "move to seat",
    "sit here",
    "The host removed you from your seat",
    "The host removed you from your seat: you are watching",
    "This browser holds no seat at this table any more: you are watching",
    "The host left: you are the host now",
    "fill the empty seats with",
    "fill",
    "Start the match",
    # end of match
    "Match over",
    "{names} won",
    "winners: {names}",
    "rematch",
    "close",
    # fair dealing, the replay viewer, players
    "The hash shown before the match was {hash}",
    "This browser saw the same SHA-256 before the match",
    "Fair dealing",
    "seed SHA-256",
    "seed",
    "salt",
    "revealed when the match is over",
    "check the deal",
    "checking…",
    "The seed hashes to the published SHA-256 (checked in your browser)",
    "The seed does not hash to the published SHA-256!",
    "Every deal follows from the seed (checked by the server)",
    "The deals do not follow from the seed!",
    "The deals could not be checked",
    "your browser cannot compute SHA-256 here",
    "replay",
    "Replay",
    "No record to replay yet.",
    "previous deal",
    "next deal",
    "previous hand",
    "next hand",
    "previous round",
    "next round",
    "previous trick",
    "next trick",
    "step back",
    "step forward",
    "show",
    "all hands",
    "all hands open once the match is over",
    "{unit} {n} of {total} in the record",
    "hand",
    "deal",
    "round",
    "move {n} of {total}",
    # the coach's review
    "review this match",
    "The coach's review",
    "reviewing decision {done} of {total}",
    "cancel",
    "The review was cancelled.",
    "The review failed.",
    "as good as the best",
    "better {move}: {loss} {unit}",
    "better move",
    "every option",
    "inaccuracy",
    "mistake",
    "blunder",
    "inaccuracies",
    "mistakes",
    "blunders",
    "accuracy",
    "lost a deal",
    "lost a hand",
    "lost a round",
    "expected score through the match",
    "the deals before, plus what the deal was expected to bring after each move",
    "the hands before, plus what the hand was expected to bring after each move",
    "the rounds before, plus what the round was expected to bring after each move",
    "Profile",
    "your profile",
    "Leaderboard: {game}",
    "leaderboards",
    "matches played",
    "wins",
    "ratings",
    "rating",
    "matches",
    "results",
    "score",
    "won",
    "lost",
    "rank",
    "player",
    "No matches yet.",
    "No rated matches yet.",
    "You play as {name}",
    "change name",
    "No such player.",
    # rules page
    "No rules page for this game.",
    "The rules as implemented, from the project's rules page (in English).",
    "The rules as implemented, from the project's rules page.",
    "How to play",
    "Full rules, as implemented",
    # Poch's bowls and the like, when a presenter puts them in Table.extra
    "bowls",
    "pot",
)

# Every rule option of every game: a label and a line of help for the lobby's form. An option
# missing here still shows, by its name with spaces (a test keeps this list complete).
PARAMS: dict[str, tuple[str, str]] = {
    "players": ("players", "how many sit at the table"),
    "min_players": ("fewest players", "the smallest table this variant allows"),
    "max_players": ("most players", "the largest table this variant allows"),
    "deck": (
        "deck",
        "which cards are used (40 or 48 Spanish, French; Truco: dirty 40 or clean 24)",
    ),
    "suits": ("suits", "how many suits of the deck are used"),
    "ranks": ("ranks", "how many cards of each suit are used"),
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
    "deal": ("deal", "five cards each, or all the cards"),
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
    options = [
        f"{option_words(lang, name)['label']}: {_value_words(lang, value)}"
        for name, value in game.changes.items()
    ]
    return " — ".join([game_title(game), ", ".join(options)] if options else [game_title(game)])


def _value_words(lang: str, value: object) -> str:
    # The lobby has a checkbox for a yes-or-no option: "true" is no word for a person.
    if isinstance(value, bool):
        return tr(lang, "yes" if value else "no")
    return format_value(value)


# Card names for screen readers and the log: rank keys are s<rank> (Spanish), f<rank> (French).
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
_SUITS = {
    "so": "oros",
    "sc": "copas",
    "se": "espadas",
    "sb": "bastos",
    "fc": "clubs",
    "fd": "diamonds",
    "fh": "hearts",
    "fs": "spades",
}


def strings(lang: str) -> dict[str, Any]:
    """What ``GET /api/i18n/<lang>`` answers."""
    return {
        "lang": lang,
        "ui": {key: tr(lang, key) for key in UI},
        "ranks": {key: tr(lang, word) for key, word in CARD_WORDS.items()},
        "suits": {key: tr(lang, word) for key, word in _SUITS.items()},
        "card": tr(lang, "{rank} of {suit}"),
        "rules": {rule: rule_text(lang, rule, text) for rule, text in RULES.items()},
        "games": {name: tr(lang, entry.summary) for name, entry in ENTRIES.items()},
        "params": {name: option_words(lang, name) for name in PARAMS},
        "levels": {level: level_help(lang, level) for level in LEVEL_HELP},
    }
