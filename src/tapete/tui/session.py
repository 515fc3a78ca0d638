"""What the terminal game shows, without Textual: matches as lists of steps, and scenes.

A ``Session`` is a match being played: the first state and every accepted step after it (states
are values, so undo is dropping steps). A ``Replay`` is a record stepped through with every hand
open. Both turn into a ``Scene``: the presenter's ``Table`` plus what the keyboard can do, the log
in words and the message line, in the chosen language. The widgets draw scenes and nothing else.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tapete import bots
from tapete.bots import Move
from tapete.coach import Review, Reviewed
from tapete.errors import IllegalActionError, InvalidActionError, SpecError
from tapete.game import Action, Game, Outcome, Seat
from tapete.i18n import level_help, number, tr
from tapete.match import seat_rng
from tapete.narrate import (
    Entry,
    event_entries,
    line,
    reason_words,
    record_you,
    recorded_name,
    seat_name,
    step_entries,
)
from tapete.present import (
    Table,
    actions,
    deal_unit,
    forbidden_bids,
    game_deck,
    present,
    trick_unit,
)
from tapete.record import Record, Recorder, SeatInfo, recorded_game, stand_in_marks
from tapete.record import steps as record_steps

__all__ = [
    "BOT_NAMES",
    "ButtonKey",
    "CardKey",
    "Replay",
    "Scene",
    "Session",
    "Step",
    "cleared",
]

BOT_NAMES = ("Ana", "Bruno", "Carmen", "Diego", "Elena", "Fábio", "Gabi", "Hugo")
RESERVED = set("hu")  # app keys: hint, undo
LETTERS = "abcdefgijklmnopqrstvwxyz"


@dataclass(frozen=True)
class CardKey:
    """A card of your hand: its key, whether you may play it now, and the action it plays."""

    text: str
    key: str
    legal: bool
    action: Action | None
    hinted: bool = False


@dataclass(frozen=True)
class ButtonKey:
    """A button for an action that is not a card. ``legal`` False: shown, but the rules forbid it
    now (the dealer's hooked bid); pressing it tells the rule.

    ``amount`` is the number of a numbered action (``bet 5``: 5). A *stepper* stands for every
    amount of one verb past the digit keys (Poch's bets 10 to 40): it shows one of them,
    ``amount``, and ``stepper`` holds them all, in order."""

    label: str
    key: str
    action: Action
    hinted: bool = False
    legal: bool = True
    amount: int | None = None
    stepper: tuple[int, ...] = ()

    def step(self, by: int) -> int | None:
        """The amount ``by`` steps from the one a stepper shows (held at its ends)."""
        if self.amount not in self.stepper:
            return None
        index = self.stepper.index(self.amount) + by
        return self.stepper[max(0, min(len(self.stepper) - 1, index))]


@dataclass(frozen=True)
class Scene:
    """Everything one screen draws: the table, your moves with their keys, words."""

    table: Table
    lang: str
    cards: tuple[CardKey, ...] = ()
    buttons: tuple[ButtonKey, ...] = ()
    log: tuple[str, ...] = ()
    message: str = ""
    trick_note: str = ""
    explain: str = ""  # what the decision on offer means (tapete.present.Actions.explain)
    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()  # every hand open (replays)
    position: str = ""  # where a replay is
    selected: int = -1  # the card the arrow keys point at
    # seat -> what its bot level does, in a sentence (the seat box's tooltip): "hard" alone
    # tells a newcomer nothing
    about: Mapping[int, str] = field(default_factory=dict)

    def key_map(self) -> dict[str, Action]:
        """Key -> action for the cards you may play and the buttons."""
        keyed = {c.key: c.action for c in self.cards if c.key and c.action is not None}
        keyed.update({b.key: b.action for b in self.buttons if b.key})
        return keyed


@dataclass(frozen=True)
class Step:
    """An accepted decision and the state after it, with the public events it brought and the
    narrator's entries for it."""

    seat: Seat
    action: Action
    after: Any
    events: tuple[Mapping[str, Any], ...]
    entries: tuple[Entry, ...] = ()
    stand_in: bool = False  # a random legal move played for a bot that failed (its record says so)


def cleared(step: Step) -> bool:
    """Whether the cards on the table leave it after ``step``: a trick taken, or in Poch a run
    ended (its ``run`` event)."""
    return any(e["type"] in ("trick", "run") for e in step.events)


def public_events(game: Game[Any, Any], state: Any) -> tuple[Mapping[str, Any], ...]:
    """The events of the last step as everyone may know them (the game's ``visible_events`` for
    a spectator: no hand, deck or stock, no card played face down)."""
    return tuple(event.to_json() for event in game.visible_events(state, None))


class Timeline:
    """A match as its first state and the steps after it; the words and tables it shows."""

    def __init__(self, game: Game[Any, Any], start: Any, names: Sequence[str]) -> None:
        self.game = game
        self.start = start
        self.names = list(names)
        self.steps: list[Step] = []
        events = game.visible_events(start, self.you)
        self.first_entries = tuple(event_entries(events, deal_unit(game), trick_unit(game)))
        self.deck = game_deck(game)

    def state_at(self, index: int) -> Any:
        """The state after ``index`` steps."""
        return self.steps[index - 1].after if index > 0 else self.start

    def display_names(self, lang: str) -> list[str]:
        return list(self.names)

    @property
    def you(self) -> int | None:
        """The seat whose events read "you take the trick"."""
        return None

    open_hands = True  # a finished match replayed: every action is told as it was

    def step(self, seat: Seat, action: Action, after: Any) -> Step:
        """The step of ``seat`` playing ``action`` now, told as ``you`` may know it while the
        match is played (a card another seat played face down is not named)."""
        before = self.state_at(len(self.steps))
        entries = step_entries(
            self.game, seat, action, before, after, self.you, open_hands=self.open_hands
        )
        return Step(seat, action, after, public_events(self.game, after), tuple(entries))

    def words(self, entry: Entry, lang: str, names: Sequence[str]) -> str:
        """An entry in words, told to ``you``, cards printed as the screens draw them."""
        teams = self.game.teams is not None
        return line(lang, entry, names, teams, you=self.you, deck=self.deck)

    def step_line(self, index: int, lang: str, names: Sequence[str]) -> str:
        """Step ``index`` (from 0) in words: who did what."""
        return self.words(self.steps[index].entries[0], lang, names)

    def log_lines(self, lang: str, upto: int | None = None, limit: int = 300) -> tuple[str, ...]:
        """The match in words, from the first deal to step ``upto`` (the last few hundred lines)."""
        names = self.display_names(lang)
        chosen = self.steps if upto is None else self.steps[:upto]
        lines = [self.words(e, lang, names) for e in self.first_entries]
        start = max(0, len(chosen) - limit)
        for index in range(start, len(chosen)):
            lines.extend(self.words(e, lang, names) for e in chosen[index].entries)
        return tuple(told for told in lines if told)[-limit:]

    def trick_note(
        self, table: Table, taken: bool, winner: int | None, names: Sequence[str], lang: str
    ) -> str:
        """Who took the trick just finished, under the cards it held."""
        if not table.last_trick or not taken:
            return ""
        entry = {"kind": "trick", "seat": winner, "unit": trick_unit(self.game)}  # as the log
        return self.words(entry, lang, names)

    def last_trick_winner(self, upto: int) -> tuple[bool, int | None]:
        """Whether a trick was taken at or before step ``upto`` in this deal, and by whom."""
        for step in reversed(self.steps[:upto]):
            for event in reversed(step.events):
                if event["type"] == "trick":
                    return True, event.get("winner")
                if event["type"] == "deal":
                    return False, None
        return False, None


# --- a match being played --------------------------------------------------------------------


def _agent(kind: str, game: Game[Any, Any], state: Any) -> tuple[bots.Bot, str]:
    """The bot of a level (or a trained policy); a level a game has no strategies for yet plays
    random."""
    from tapete import players

    bot = players.load(kind)
    if isinstance(bot, bots.LevelBot):
        try:
            bots.strategies(game.observe(state, 0))
        except SpecError:
            return bots.load("random"), "random"
    return bot, kind


SEATS_GIVEN = "{spec} has {players} seats; --seats gave {given}"


class Session(Timeline):
    """A match at the terminal: people at ``human`` seats, bots at the others.

    >>> import tapete
    >>> s = Session(tapete.load("pocha(schedule=[1])"), ["human", "random", "random", "random"], 1)
    >>> s.human
    0
    """

    open_hands = False  # a match being played: the log tells what ``you`` may know

    def __init__(
        self,
        game: Game[Any, Any],
        kinds: Sequence[str],
        seed: int,
        *,
        hint_budget: bots.Budget | None = None,
        resume: Record | None = None,
    ) -> None:
        if len(kinds) != game.players:
            raise SpecError(SEATS_GIVEN, spec=game.spec, players=game.players, given=len(kinds))
        # A resumed match starts from its record's decks; deals after them come from the seed.
        start = game.new_state(seed) if resume is None else _first_state(game, resume)
        self.kinds = list(kinds)
        self.humans = [i for i, k in enumerate(kinds) if k == "human"]
        self.agents: dict[int, bots.Bot] = {}
        self.levels: dict[int, str] = {}
        for seat, kind in enumerate(kinds):
            if kind != "human":
                self.agents[seat], self.levels[seat] = _agent(kind, game, start)
        # One person against bots is "you" (told "you deal"); people sharing the terminal are
        # players by seat, as the log tells each of them to all.
        alone = len(self.humans) == 1
        names = [
            ("you" if alone else seat_name("en", i, k))
            if k == "human"
            else f"{BOT_NAMES[i % len(BOT_NAMES)]}"
            for i, k in enumerate(kinds)
        ]
        super().__init__(game, start, names)
        self.seed = seed
        self.rngs = [seat_rng(seed, s) for s in range(game.players)]
        self.hint_budget = hint_budget
        self.version = 0  # bumped by every change: a bot's late answer to an old state is dropped
        # People sharing the terminal: the one it was last handed to, whose hand it shows while
        # the bots play (None: nobody's yet). The table hands it over behind a curtain.
        self.handed_to: Seat | None = None
        marks = stand_in_marks(resume) if resume is not None else []
        for move, (_, _, seat, action, after) in enumerate(
            record_steps(resume) if resume is not None else ()
        ):
            self.push(seat, action, after, stand_in=marks[move])

    # -- who and what

    @property
    def state(self) -> Any:
        return self.state_at(len(self.steps))

    @property
    def turn(self) -> Seat | None:
        return self.game.current_player(self.state)

    @property
    def human(self) -> Seat | None:
        """The person whose table is shown: the one to act, else the one the terminal was last
        handed to, else the first."""
        turn = self.turn
        if turn in self.humans:
            return turn
        if self.handed_to is not None:
            return self.handed_to
        return self.humans[0] if self.humans else None

    @property
    def you(self) -> int | None:
        return self.humans[0] if len(self.humans) == 1 else None

    @property
    def over(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def bot_to_act(self) -> bool:
        return self.turn in self.agents

    def display_names(self, lang: str) -> list[str]:
        """The seats as the log, the scores and the record name them, in ``lang``."""
        return [
            tr(lang, "you")
            if s == self.you
            else seat_name(lang, s, "human")
            if s in self.humans
            else n
            for s, n in enumerate(self.names)
        ]

    def table_names(self, lang: str) -> list[str]:
        """The seats as the table names them: whoever's hand is shown is "you" (people sharing
        the terminal take turns at it)."""
        names = self.display_names(lang)
        if self.human is not None:
            names[self.human] = tr(lang, "you")
        return names

    def seat_title(self, seat: Seat, lang: str) -> str:
        name = self.table_names(lang)[seat]
        return name if seat not in self.levels else f"{name} · {tr(lang, self.levels[seat])}"

    # -- moves

    def push(self, seat: Seat, action: Action, after: Any = None, stand_in: bool = False) -> None:
        """Play ``action`` for ``seat``; ``stand_in``: a stand-in chose it, not the seat's bot
        (it failed), and the record marks it so."""
        after = self.game.apply(self.state, action) if after is None else after
        step = self.step(seat, action, after)
        self.steps.append(dataclasses.replace(step, stand_in=True) if stand_in else step)
        self.version += 1

    def try_action(self, action: Action) -> IllegalActionError | None:
        """Play ``action`` for the person to act; the rule's error (nothing changes) if illegal."""
        seat = self.turn
        if seat is None or seat not in self.humans:
            return IllegalActionError("not-your-turn", "it is not your turn")
        error = self.game.why_illegal(self.state, action)
        if error is None:
            self.push(seat, action)
        return error

    def card_action(self, card: str) -> Action | None:
        """The action that plays ``card`` (legal or not: the rules will say), if it parses."""
        try:
            return self.game.parse_action(f"play {card}")
        except InvalidActionError:
            return None

    def key_action(self, key: str, scene: Scene) -> Action | None:
        """The action ``key`` would press were it legal now, when no button of ``scene`` has it:
        a number past the bids or bets on offer, Truco's ``t`` (raise) after your own truco,
        Tute's ``s`` (swap) with no swap to make. None when the key stands for nothing here.
        """
        if key.isdecimal():
            if any(c.key for c in scene.cards):
                return None  # a digit is a card's key
            verbs = [
                words[0]
                for b in scene.buttons
                if len(words := self.game.format_action(b.action).split()) == 2
                and words[1].isdecimal()
            ]
            texts = [f"{verb} {key}" for verb in dict.fromkeys([*verbs, "bid"])]
        else:
            texts = [t for t in _WORD_ACTIONS if _natural_key(t) == key]
        shown = {b.action for b in scene.buttons}
        for text in texts:
            try:
                action = self.game.parse_action(text)
            except (InvalidActionError, ValueError):
                continue
            if self.game.format_action(action) == text and action not in shown:
                return action
        return None

    def bot_job(self) -> tuple[Seat, Any, list[Action], bots.Bot, random.Random]:
        """What the bot to act needs: its seat, view, legal actions, itself and its RNG."""
        seat = self.turn
        assert seat is not None and seat in self.agents
        view = self.game.observe(self.state, seat)
        return seat, view, self.game.legal_actions(self.state), self.agents[seat], self.rngs[seat]

    # -- undo and hints

    @property
    def can_undo(self) -> bool:
        """Undo is for one person against bots, while the match goes on."""
        return (
            len(self.humans) == 1
            and self.over is None
            and any(s.seat == self.humans[0] for s in self.steps)
        )

    def undo(self) -> bool:
        """Back to the state before the person's last action; False when there is none."""
        if not self.can_undo:
            return False
        last = max(i for i, s in enumerate(self.steps) if s.seat == self.humans[0])
        del self.steps[last:]
        self.version += 1
        return True

    def hint(self) -> bots.Decision:
        """The hard bot's move for the person to act, and why; SpecError if the game has none."""
        seat = self.turn
        assert seat is not None
        return bots.hint(self.game.observe(self.state, seat), self.hint_budget)

    # -- the record

    def record(self) -> Record:
        infos = [
            SeatInfo(self.names[i], "human")
            if k == "human"
            else SeatInfo(self.names[i], "bot", self.levels[i])
            for i, k in enumerate(self.kinds)
        ]
        recorder = Recorder(self.game, self.start, self.seed, infos)
        for step in self.steps:
            recorder.step(step.seat, step.action, step.after, step.stand_in)
        return recorder.record()

    # -- the scene

    def scene(
        self,
        lang: str,
        message: str = "",
        hinted: Action | None = None,
        selected: int = -1,
        amount: int | None = None,
    ) -> Scene:
        """The table as the person to act sees it; ``amount``: the one a stepper shows (the
        nearest on offer; None: the hinted one, else its lowest)."""
        seat = self.human
        names = self.display_names(lang)
        view = self.game.observe(self.state, seat)
        table = present(view, lang, self.table_names(lang))
        taken, winner = self.last_trick_winner(len(self.steps))
        table = replace(
            table,
            seats=tuple(replace(b, name=self.seat_title(b.seat, lang)) for b in table.seats),
            last_winner=winner,
        )
        mine = self.turn == seat and seat is not None
        legal = self.game.legal_actions(self.state) if mine else []
        acts = actions(self.game, legal, lang, view)
        # Bids the dealer's hook forbids, shown beside the legal ones: pressing one tells why.
        refused = [b for b, _ in forbidden_bids(self.game, self.state, legal, lang)]
        buttons = [(b, True) for b in acts.buttons]
        if refused:
            buttons = sorted(
                [*buttons, *((b, False) for b in refused)],
                key=lambda pair: bid_order(pair[0].text),
            )
        cards = _card_keys(self, table, acts.cards, mine, hinted)
        return Scene(
            table=table,
            lang=lang,
            cards=cards,
            buttons=button_keys(buttons, {c.key for c in cards if c.key}, hinted, amount),
            log=self.log_lines(lang),
            message=message,
            trick_note=self.trick_note(table, taken, winner, names, lang),
            explain=acts.explain,
            selected=selected if mine else -1,
            about={s: level_help(lang, level) for s, level in self.levels.items()},
        )


def _card_keys(
    session: Session, table: Table, legal: Mapping[str, Action], mine: bool, hinted: Action | None
) -> tuple[CardKey, ...]:
    # Past the tenth card (Pocha's and Oh Hell's long hands), letters: every card has a key.
    keys = "1234567890" + LETTERS
    out = []
    for i, card in enumerate(table.hand):
        action = legal.get(card)
        if action is None and mine:
            action = session.card_action(card)  # an illegal card: pressing it tells the rule
        key = keys[i] if i < len(keys) and legal else ""
        out.append(
            CardKey(card, key, card in legal, action, action is not None and action == hinted)
        )
    return tuple(out)


def bid_order(text: str) -> tuple[int, int]:
    words = text.split()
    if len(words) == 2 and words[0] == "bid" and words[1].isdecimal():
        return (0, int(words[1]))
    return (1, 0)


def button_keys(
    buttons: Sequence[tuple[Any, bool]],
    cards: set[str],
    hinted: Action | None,
    amount: int | None = None,
) -> tuple[ButtonKey, ...]:
    """The buttons' keys, none of them a card's (``cards``: the cards' keys)."""
    used: set[str] = set(RESERVED) | cards
    runs = {} if cards else _runs(buttons)
    out = []
    for button, legal in buttons:
        words = button.text.split()
        run = runs.get(words[0], [])
        if (button, legal) in run[1:]:
            continue  # one stepper stands for the whole run, where its lowest amount is
        key = ""
        if not cards and len(words) == 2 and words[1].isdecimal() and len(words[1]) == 1:
            key = words[1] if words[1] not in used else ""
        if not key:
            # Mnemonic from the notation first, so keys stay put when the language changes.
            key = _letter(_mnemonic(words, button.label), used)
        used.add(key)
        if run and run[0] == (button, legal):
            out.append(_stepper(run, key, hinted, amount))
        else:
            number = _number(words)
            out.append(
                ButtonKey(button.label, key, button.action, button.action == hinted, legal, number)
            )
    return tuple(out)


def _number(words: Sequence[str]) -> int | None:
    """The amount of a numbered action's notation (``bet 12``: 12), else None."""
    return int(words[1]) if len(words) == 2 and words[1].isdecimal() else None


def _runs(buttons: Sequence[tuple[Any, bool]]) -> dict[str, list[tuple[Any, bool]]]:
    """Per verb, its amounts past the digit keys (10 and up) when there are two or more: a row
    of buttons for each would crowd the table (Poch's bets go as high as the chips do)."""
    runs: dict[str, list[tuple[Any, bool]]] = {}
    for button, legal in buttons:
        words = button.text.split()
        number = _number(words)
        if number is not None and number > 9:
            runs.setdefault(words[0], []).append((button, legal))
    return {verb: run for verb, run in runs.items() if len(run) > 1}


def _stepper(
    run: Sequence[tuple[Any, bool]], key: str, hinted: Action | None, amount: int | None
) -> ButtonKey:
    """One button for a run of amounts, showing the one nearest ``amount`` (None: the hinted
    one, else the lowest)."""
    numbers = [int(button.text.split()[1]) for button, _ in run]
    actions = [button.action for button, _ in run]
    if amount is None:
        index = actions.index(hinted) if hinted in actions else 0
    else:
        index = min(range(len(run)), key=lambda i: (abs(numbers[i] - amount), numbers[i]))
    button, legal = run[index]
    hint = button.action == hinted
    return ButtonKey(button.label, key, button.action, hint, legal, numbers[index], tuple(numbers))


_PREFER = {"raise": ("t",)}  # truco!

# The notations of the buttons that are not numbered, in every game: a letter not on the screen
# is the key one of these would have (``_natural_key``), so pressing it tells the rule.
_WORD_ACTIONS = (
    *("raise", "accept", "run"),  # truco
    *("swap", "tute", "sing oros", "sing copas", "sing espadas", "sing bastos"),  # tute
    *("pass", "call"),  # poch
    *("trump c", "trump d", "trump h", "trump s", "trump none"),  # pottle
)


def _mnemonic(words: Sequence[str], label: str = "") -> str:
    """Where a button's key letter is looked for: the notation first, so keys stay put when the
    language changes, then the label."""
    return " ".join([*words[1:], *_PREFER.get(words[0], ()), *words, label])


def _natural_key(text: str) -> str:
    """The letter the button for ``text`` has when no other button took it first."""
    return next((ch for ch in _mnemonic(text.split()).lower() if ch in LETTERS), "")


def _letter(label: str, used: set[str]) -> str:
    for ch in label.lower():
        if ch in LETTERS and ch not in used:
            return ch
    return next((ch for ch in LETTERS if ch not in used), "")


# --- a record stepped through --------------------------------------------------------------


class Replay(Timeline):
    """A record with every hand open, at ``position`` steps from its first deal."""

    def __init__(self, record: Record) -> None:
        checked = list(record_steps(record))  # checks every decision against the rules
        game = recorded_game(record)  # the rules it was played under (the defaults of its day)
        start = checked[0][1] if checked else _first_state(game, record)
        self.record = record  # before the timeline: it names "you"
        super().__init__(game, start, [s.name for s in record.seats])
        for _, _, seat, action, after in checked:
            self.steps.append(self.step(seat, action, after))
        self.deals = [deal for deal, *_ in checked]
        self.starts = sorted({self.deals.index(d) for d in set(self.deals)})
        self.position = 0
        self.review: dict[int, Reviewed] = {}  # the coach's review of a step's decision
        self.unit = "points"

    def reviewed(self, result: Review) -> None:
        """Keep the coach's review (``tapete.coach``), each decision at the step it reviews."""
        steps: dict[tuple[int, int], int] = {}
        move, last = 0, -1
        for index, deal in enumerate(self.deals):
            move, last = (move + 1 if deal == last else 1), deal
            steps[(deal, move)] = index
        self.review = {steps[(d.deal, d.move)]: d for d in result.decisions}
        self.unit = result.unit

    def review_line(self, index: int, lang: str) -> str:
        """The review of step ``index``'s decision in words, or "" when it has none."""
        d = self.review.get(index)
        if d is None:
            return ""
        # A stand-in's move is said to be one, never graded as the player's.
        by = f" ({tr(lang, 'played by a stand-in')})" if d.stand_in else ""
        if d.loss <= 0:
            return tr(lang, "review: as good as the best") + by
        unit = tr(lang, self.unit)
        line = tr(
            lang,
            "review: better {best}, {loss} {unit}",
            best=reason_words(lang, Move(d.best), game_deck(self.game)),  # as its button says
            loss=f"-{number(lang, d.loss)}",
            unit=unit,
        )
        if by:
            return line + by
        return f"{line} ({tr(lang, d.verdict)})" if d.verdict else line

    @property
    def you(self) -> int | None:
        """The seat saved as "you" (a match played at a terminal): its events read "you
        deal", not "you deals"."""
        return record_you(self.record)

    def display_names(self, lang: str) -> list[str]:
        you = self.you
        seats = self.record.seats
        return [
            tr(lang, "you")
            if s == you
            else recorded_name(lang, s, n, seats[s].bot if s < len(seats) else None)
            for s, n in enumerate(self.names)
        ]

    @property
    def length(self) -> int:
        return len(self.steps)

    def go(self, position: int) -> None:
        self.position = max(0, min(self.length, position))

    def _took(self, position: int) -> bool:
        return cleared(self.steps[position - 1])

    def next_trick(self) -> int:
        """The position just after the next trick is taken, or Poch's run ends (or the end)."""
        later = range(self.position + 1, self.length + 1)
        return next((i for i in later if self._took(i)), self.length)

    def previous_trick(self) -> int:
        earlier = range(self.position - 1, 0, -1)
        return next((i for i in earlier if self._took(i)), 0)

    def deal_at(self, position: int) -> int:
        """The deal the next step belongs to (the last deal at the end)."""
        return self.deals[min(position, self.length - 1)] if self.deals else 0

    def next_deal(self) -> int:
        """The position where the next deal begins (or the end)."""
        return next((s for s in self.starts if s > self.position), self.length)

    def previous_deal(self) -> int:
        return max((s for s in self.starts if s < self.position), default=0)

    def open_hand(self, state: Any, seat: Seat) -> tuple[str, ...]:
        """``seat``'s cards face up in ``state`` (at ``position``): as a seat at the table sees
        them (its own, or, in Pocha's blind one-card hands, the others'); where nobody does
        (Truco's blind mão de ferro: not even their owner), as dealt, less those played since."""
        for viewer in dict.fromkeys((seat, *range(self.game.players))):
            seen = self.game.observe(state, viewer).hands[seat]
            if seen is not None:
                return tuple(sorted_cards(seen))
        deal = self.deal_at(self.position)
        first = self.deals.index(deal) if deal in self.deals else 0
        played = {
            step.entries[0].get("card")
            for step in self.steps[first : self.position]
            if step.seat == seat and step.entries[0]["kind"] in ("play", "play_down")
        }
        dealt = self.record.deals[deal].hands[seat]
        return tuple(sorted_cards(self.game.parse_card(c) for c in dealt if c not in played))

    def scene(self, lang: str) -> Scene:
        state = self.state_at(self.position)
        names = self.display_names(lang)
        table = present(self.game.observe(state, None), lang, names)
        taken, winner = self.last_trick_winner(self.position)
        table = replace(table, last_winner=winner)
        hands = tuple((names[seat], self.open_hand(state, seat)) for seat in range(len(names)))
        # The deal is numbered by the table's title, in the game's own word and among those the
        # match was to have (the record of a match kept unfinished holds fewer): not again here,
        # where a count of the deals recorded would read as another count of the same.
        where = tr(lang, "step {n} of {total}", n=self.position, total=self.length)
        last = self.step_line(self.position - 1, lang, names) if self.position else ""
        note = self.review_line(self.position - 1, lang) if self.position else ""
        if note:
            last = f"{last} · {note}"
        return Scene(
            table=table,
            lang=lang,
            log=self.log_lines(lang, self.position),
            message=last,
            trick_note=self.trick_note(table, taken, winner, names, lang),
            hands=hands,
            position=where,
        )


def sorted_cards(cards: Any) -> list[str]:
    from tapete.cards import CARD_TEXT

    return [CARD_TEXT[c] for c in sorted(cards)]


def _first_state(game: Game[Any, Any], record: Record) -> Any:
    decks = [[game.parse_card(c) for c in d.deck] for d in record.deals]
    return game.new_state(record.seed or 0, decks=decks, dealer=record.deals[0].dealer)


@dataclass
class Settings:
    """The person's choices: language, how fast bots move, the high-contrast theme, and the
    last match started on the new match screen (``tapete.tui.setup``), as it keeps it."""

    lang: str = "en"
    speed: str = "normal"
    contrast: bool = False
    new_match: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.25, "normal": 0.7, "slow": 1.5}
