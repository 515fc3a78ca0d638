"""The ``tapete`` command: list games, read their rules, play, replay, benchmark.

tapete games
tapete rules pocha                                    (how to play; --full: the reference)
tapete play pocha --seats human,easy,easy,easy      (the table, in the terminal)
tapete play pocha --seats human,random,random,random --seed 7 --record out.json --plain
tapete play --resume out.json                         (go on with a match saved unfinished)
tapete replay out.json                                (step through it; --plain prints it)
tapete records                                        (the matches saved at the table)
tapete export evening/ --since 2026-12-05T19:00       (the web app's finished matches, to files)
tapete bench "pocha(players=4, schedule=9)" --seconds 5 --json
tapete bench "pocha(players=4, schedule=9)" --compare-openspiel
tapete playthrough "pocha(schedule=[1, 2])" --seed 1
tapete serve --host 127.0.0.1 --port 8000
tapete arena "pocha(schedule=[1, 2])" --bots hard,medium --matches 400 --json arena.json
tapete play pocha --seats 'exec(cmd="./mybot"),medium,medium,medium'   (docs/bot-protocol.md)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import ipaddress
import json
import math
import os
import random
import re
import signal
import socket
import string
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from tapete import __version__, bench, bots, export, howto, players, playthrough, record
from tapete.client import DEFAULT_SERVER, Seats, Ticket
from tapete.errors import IllegalActionError, InvalidActionError, Phrase, RecordError, SpecError
from tapete.folders import record_file_name, records_dir
from tapete.game import Action, Game, format_value
from tapete.games import ENTRIES, game_names, load
from tapete.i18n import LANGUAGES, LEVEL_HELP, error_text, rule_text, system_language, tr
from tapete.match import AbandonedError, play, resume
from tapete.narrate import hint_text, line, record_lines, recorded_name, step_entries, view_text
from tapete.present import Actions, actions, option_lines

if TYPE_CHECKING:  # the arena's extra (rich, openskill) is imported by the command alone
    from tapete.arena import ArenaResult

__all__ = ["main"]


# The longest line the prompt reads as a move: a longer one (a paste gone wrong, a file sent by
# mistake) is read to its end and refused by its length, never echoed back.
LINE_LIMIT = 200


def _read_line(stdin: TextIO) -> tuple[str, int] | None:
    """The next line of ``stdin`` without its end, and how many characters it had; None at the
    end of input. A line past ``LINE_LIMIT`` is read to its end in pieces of that size (a huge
    one is never held whole) and given as "" with its length."""
    line = stdin.readline(LINE_LIMIT + 1)
    if not line:
        return None
    if line.endswith("\n") or len(line) <= LINE_LIMIT:
        return line.rstrip("\r\n"), len(line.rstrip("\r\n"))
    length = len(line)
    while line and not line.endswith("\n"):
        line = stdin.readline(LINE_LIMIT + 1)
        length += len(line)
    return "", length - line.endswith("\n")


# The words that ask for a hint at the line prompt, in each language, and the terminal's key.
HINT_WORDS = frozenset({"hint", "pista", "dica", "h"})
HINT_HELP = "hint: the hard bot's move for you, and why"
# The words that take back the person's last move, and the terminal table's key.
UNDO_WORDS = frozenset({"undo", "deshacer", "desfazer", "u"})
UNDO_HELP = "undo: take back your last move"


class UndoRequestError(AbandonedError):
    """The person at the prompt takes back their last move: the match so far (``record``, set by
    ``play``) goes on from before it."""


class HumanSeat:
    """A person at a line-based prompt: sees the view, types an action (in the notation, or
    the words its button says: ``pedir 2``, ``truco``), is told why not.

    An empty line asks again; a line past ``LINE_LIMIT`` characters is refused by its length;
    text that is no move is refused in the person's language (in English with the notation's
    full explanation); ``hint`` says the hard bot's move, ``undo`` (one person against bots)
    raises UndoRequestError; the end of input (^D) abandons the match."""

    kind = "human"
    name = "human"

    def __init__(
        self,
        game: Game[Any, Any],
        seat: int,
        stdin: TextIO,
        stdout: TextIO,
        lang: str = "en",
        names: Sequence[str] | None = None,
        undo: bool = False,
    ) -> None:
        self.game, self.seat, self.stdin, self.stdout = game, seat, stdin, stdout
        self.lang, self.names = lang, names
        self.undo = undo  # offered to one person against bots, as at the terminal table

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        out = self.stdout
        print(f"\n{view_text(view, self.lang, self.names)}", file=out)
        offered = actions(self.game, legal_actions, self.lang, view)
        options = prompt_options(self.game, legal_actions, offered)
        # What the decision means (what "run" or "pass" does, what a bid promises), once.
        explain = offered.explain
        # A range on offer is no move itself: said how to type one of its moves when it is
        # asked about (?) or typed as it stands.
        ranged = _RANGE.search(options)
        typing = (
            ""
            if ranged is None
            else tr(
                self.lang,
                "{range}: one move for each number; type one, such as {example}",
                range=ranged[0],
                example=f"{ranged[1]} {ranged[2]}",
            )
        )
        if explain:
            print(f"  {explain}", file=out)
        page = ENTRIES[self.game.name].module.rsplit(".", 1)[-1]
        rules = tr(self.lang, "the rules: tapete rules {game}", game=page)
        you = tr(self.lang, "you")
        who = (
            ""
            if self.names is None or self.names[self.seat] == you
            else f"{self.names[self.seat]}, "
        )
        while True:
            prompt = tr(self.lang, "your move ({options})", options=options)
            print(f"{who}{prompt}: ", end="", file=out, flush=True)
            read = _read_line(self.stdin)
            if read is None:
                print(file=out)
                raise AbandonedError(tr(self.lang, "input closed: match abandoned"))
            line, length = read
            if length > LINE_LIMIT:
                said = tr(
                    self.lang, "that line is too long ({n} characters): type a move", n=length
                )
                print(f"  {said}", file=out)
                continue
            text = line.strip()
            if not text:
                continue  # Enter alone: the prompt, with the moves on offer, again
            if text in ("q", "quit", "exit"):
                raise AbandonedError(tr(self.lang, "match abandoned"))
            if text in (
                "?",
                "help",
                "ayuda",
                "ajuda",
            ):  # a newcomer's first guess, in each language
                undo = tr(self.lang, UNDO_HELP) if self.undo else ""
                for said in (explain, typing, rules, tr(self.lang, HINT_HELP), undo):
                    if said:
                        print(f"  {said}", file=out)
                continue
            if text.lower() in HINT_WORDS:
                print(f"  {self._hint(view)}", file=out)
                continue
            if text.lower() in UNDO_WORDS:
                if self.undo:
                    raise UndoRequestError(tr(self.lang, "your last move is undone"))
                print(f"  {tr(self.lang, 'undo is only for a match against bots')}", file=out)
                continue
            # The words in brackets are the table's for the move: typed, they play it too.
            worded = {_words(b.label): b.action for b in offered.buttons}
            if (action := worded.get(_words(text))) is not None:
                return action
            try:
                return self.game.parse_action(text)
            except InvalidActionError as exc:
                # The notation's explanation is English; the other languages say it is no move.
                said = (
                    str(exc)
                    if self.lang == "en"
                    else tr(self.lang, "{entry!r} is not a move here", entry=text)
                )
                print(f"  {said}", file=out)
                print(
                    f"  {tr(self.lang, 'type one of the moves in brackets; ? explains them')}",
                    file=out,
                )
                if typing:
                    print(f"  {typing}", file=out)

    def _hint(self, view: Any) -> str:
        """The hard bot's move for this seat and why, as the terminal table's h key says it, the
        move named as the prompt offers it."""
        try:
            hint = bots.hint(view)
        except SpecError:
            return tr(self.lang, "no hint for this game yet")
        offered = actions(self.game, [hint.action], self.lang, view)
        named = prompt_options(self.game, [hint.action], offered)  # as typed: play Ad
        return hint_text(self.game, view, hint, self.lang, named)

    def illegal(self, error: IllegalActionError) -> None:
        why = rule_text(self.lang, error.rule, error.message)
        print(f"  {tr(self.lang, 'not allowed')}: {why} [{error.rule}]", file=self.stdout)


def prompt_options(game: Game[Any, Any], legal_actions: Sequence[Action], offered: Actions) -> str:
    """The moves on offer at the line prompt: each in the notation a person types, followed by
    the words its button says where they differ (``raise (truco!)``, ``bid 2 (pedir 2)``), so
    the prompt and the table name a call alike. Cards are played by their notation alone.

    Three or more numbers in a row of one kind of move (bids, bets, raises) are said as one
    range, in the notation and in the button's words alike (``bid 0–9 (pedir 0–9)``), each
    number of it typed as the notation says (``bid 3``); a number left out splits the range."""
    labels = {button.text: button.label for button in offered.buttons}
    shown: list[str] = []
    run: list[tuple[str, int, str]] = []  # (verb, number, the button's words) in a row

    def said(verb: str, number: str, words: str) -> str:
        text = f"{verb} {number}"
        return text if words == text else f"{text} ({words})"

    def close() -> None:
        if len(run) < 3:
            shown.extend(said(verb, str(n), label) for verb, n, label in run)
        else:
            (verb, first, label), last = run[0], run[-1][1]
            span = f"{first}–{last}"
            shown.append(said(verb, span, _numbered(label, first).format(span)))
        run.clear()

    for action in legal_actions:
        text = game.format_action(action)
        label = labels.get(text, text)
        verb, _, number = text.partition(" ")
        if number.isdecimal() and "{" not in label and "}" not in label:
            n = int(number)
            if run and not (
                run[-1][0] == verb
                and run[-1][1] + 1 == n
                and _numbered(run[-1][2], run[-1][1]) == _numbered(label, n)
            ):
                close()
            run.append((verb, n, label))
            continue
        close()
        shown.append(text if label == text else f"{text} ({label})")
    close()
    return ", ".join(shown)


def _words(text: str) -> str:
    """A move's words as a person may type them: any case, without the exclamation marks
    (``¡Truco!`` is ``truco``), one space between words."""
    return " ".join(text.casefold().replace("¡", " ").replace("!", " ").split())


# A range of moves at the prompt (``bid 0–9``): its verb and first number.
_RANGE = re.compile(r"(\w+) (\d+)–\d+")


def _numbered(label: str, number: int) -> str:
    """``label`` with ``number``, as a word of it, made a ``{}`` to fill: ``subir {} más``; the
    label itself where the number is none of its words (``¡truco!``)."""
    words = label.split(" ")
    return " ".join("{}" if word == str(number) else word for word in words)


def final_scores(lang: str, scores: Sequence[int], names: Sequence[str]) -> str:
    """The line that ends a match at the prompt: every seat's final score, or every team's
    where the game scores by team (one score per team, fewer than the seats). The hands' lines
    before it give each hand's points only, and the view with the totals is shown at one's own
    turns, so without it the standings after the last hand went untold.

    >>> final_scores("es", (12, -5), ["tú", "easy (1)"])
    'puntuación final: tú 12, easy (1) -5'
    >>> final_scores("en", (7, 3), ["you", "a", "b", "c"])
    'final scores: team 1 7, team 2 3'
    """
    labels = (
        names
        if len(scores) == len(names)
        else [tr(lang, "team {n}", n=i + 1) for i in range(len(scores))]
    )
    told = ", ".join(f"{label} {score}" for label, score in zip(labels, scores, strict=False))
    return f"{tr(lang, 'final scores')}: {told}"


def cmd_games(args: argparse.Namespace) -> int:
    lang = _language(args)
    for name in game_names():
        print(f"{name:10} {tr(lang, ENTRIES[name].summary)}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """The how-to page in the user's language; with ``--full``, the reference page in that
    language (in English where it has none)."""
    # A page per module: oh_hell is a set of Pocha's parameters and lives on Pocha's page.
    game = load(args.game)
    module = howto.module_of(game.name)
    lang = _language(args)
    # A spec with options, or a game with defaults of its own (oh_hell): the page tells its
    # module's defaults, so what differs from them is said first.
    lines = option_lines(lang, game, load(module))
    if lines:
        options = ", ".join(lines)
        print(tr(lang, "The rules below, with these options: {options}", options=options) + "\n")
    print(howto.reference(module, lang) if args.full else howto.page(module, lang))
    return 0


def _terminal_app(plain: bool, lang: str, program: str | None = None) -> bool:
    """Whether to open the Textual app: not asked for plain text, a terminal that can draw it
    (not ``TERM=dumb``), Textual installed, and no outside bot ``program`` at the table (which
    the table cannot seat); why not is said in ``lang``."""
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    if os.environ.get("TERM") == "dumb":
        # A terminal that moves no cursor and shows no colour (an editor's shell, a screen
        # reader's plain console) would get the table's escape codes as text.
        said = tr(
            lang,
            "a dumb terminal (TERM=dumb) cannot draw the table: plain text instead, as with"
            " --plain",
        )
        print(f"tapete: {said}", file=sys.stderr)
        return False
    if program is not None:
        said = tr(
            lang,
            "the table cannot seat an outside bot ({program}); you play at the line prompt",
            program=program,
        )
        print(f"tapete: {said}", file=sys.stderr)
        return False
    try:
        import tapete.tui  # noqa: F401
    except ImportError:
        said = tr(lang, "the table needs the tui extra (pip install 'tapete[tui]')")
        print(f"tapete: {said}", file=sys.stderr)
        return False
    return True


_KINDS = Phrase(
    "human or a bot level: {levels} (hard and expert take options: hard(ms=300)),"
    ' exec(cmd="PROGRAM") for an outside bot, or a trained policy(path="FILE")',
    levels=", ".join(bots.LEVELS),
)


def _language(args: argparse.Namespace | None) -> str:
    """The language a command speaks: ``--lang``, else the user's locale's (``LANG=es_ES.UTF-8``
    speaks Spanish), else English."""
    return getattr(args, "lang", None) or system_language() or "en"


def seat_kinds(text: str, game: Game[Any, Any]) -> list[str]:
    """``--seats``: a kind per seat, ``human``, a bot level (any case) or an outside bot,
    split at the top-level commas only; SpecError says why not.

    >>> seat_kinds("Human, EASY,hard(ms=300, iterations=9)", load("pocha(players=3)"))
    ['human', 'easy', 'hard(ms=300, iterations=9)']
    >>> seat_kinds("random,easy,medium,", load("pocha(players=3)"))
    ['random', 'easy', 'medium']
    >>> seat_kinds("human,,easy", load("pocha(players=3)"))
    Traceback (most recent call last):
    ...
    tapete.errors.SpecError: --seats: seat 1 is empty; a seat is human or a bot level: random, \
easy, medium, hard, expert (hard and expert take options: hard(ms=300)), \
exec(cmd="PROGRAM") for an outside bot, or a trained policy(path="FILE")
    """
    # An outside bot's command keeps its case (./MyBot); a level is any case.
    try:
        seats = players.split_seats(text)
    except SpecError as exc:
        raise SpecError("--seats: {why}", why=exc.phrase) from None
    kinds = [k if players.is_outer(k) else k.lower() for k in seats]
    if len(kinds) == game.players + 1 and not kinds[-1]:
        kinds.pop()  # a comma after the last seat, as a Python list may end
    if len(kinds) != game.players:
        raise SpecError(
            "{spec} has {players} seats; --seats gave {given}",
            spec=game.spec,
            players=game.players,
            given=len(kinds),
        )
    for seat, kind in enumerate(kinds):
        if not kind:
            raise SpecError(
                "--seats: seat {seat} is empty; a seat is {kinds}", seat=seat, kinds=_KINDS
            )
        if players.kind_of(kind) not in ("human", *bots.LEVELS, *players.OUTER):
            raise SpecError(
                "--seats: {kind} (seat {seat}) is not a seat; a seat is {kinds}",
                kind=repr(kind),
                seat=seat,
                kinds=_KINDS,
            )
        if kind != "human":
            # A bad option, a missing program or a policy of another spec fails here, before
            # any move.
            players.check_game(players.load(kind), game)
    return kinds


def _recorded_names(rec: record.Record) -> list[str]:
    """Who sat where in a record, as written there."""
    return [s.kind if s.kind == "human" else s.bot or "random" for s in rec.seats]


def _recorded_kinds(rec: record.Record, game: Game[Any, Any], file: str) -> list[str]:
    """Who sat where in the record ``file``: its people play on as people, its bots as the
    same bots; a seat this tapete cannot seat is refused naming the file and the seat.

    An outside bot is a program on the machine that played: a record names it, but never
    starts it (a record may come from anyone); ``--seats`` must say who plays that seat.
    """
    names = _recorded_names(rec)
    for seat, name in enumerate(names):
        if players.is_outer(name):
            raise SpecError(
                "seat {seat} was played by {name}, a program of the machine that played;"
                " a record does not start programs: name every seat with --seats",
                seat=seat,
                name=name,
            )
        try:
            seat_kinds(",".join(n if i == seat else "human" for i, n in enumerate(names)), game)
        except SpecError as exc:
            # A level of a newer tapete, or options this one refuses: the file's, not --seats'.
            if players.kind_of(name.lower()) in bots.LEVELS:
                raise SpecError(
                    "{file}: seats[{seat}] is {name}: {why}; name every seat with --seats",
                    file=file,
                    seat=seat,
                    name=repr(name),
                    why=exc.phrase,
                ) from None
            raise SpecError(
                "{file}: seats[{seat}] is {name}, which this tapete cannot seat;"
                " name every seat with --seats",
                file=file,
                seat=seat,
                name=repr(name),
            ) from None
    return seat_kinds(",".join(names), game)


def _out_path(option: str, text: str) -> Path:
    """A file an option names to write (``--record``, ``--json``, ``--plot``): checked before
    the work starts, so a match or an arena is never played for nothing."""
    if not text.strip():
        raise SpecError("{option}: give a file name", option=option)
    path = Path(text)
    if path.is_dir():
        raise SpecError(
            "{option} {file}: that is a folder; give a file name in it", option=option, file=text
        )
    if text.endswith(("/", os.sep)):
        # A folder meant (Path drops the slash): never a file made of its name.
        raise SpecError(
            "{option} {file}: the folder {folder} does not exist",
            option=option,
            file=text,
            folder=text,
        )
    if path.exists() and not path.is_file():
        # A named pipe nobody reads would keep the command waiting at the end, once the whole
        # match or arena is played; a device or a socket is no file to keep results in either.
        raise SpecError(
            "{option} {file}: that is not a regular file (a pipe, a device or a socket);"
            " give a file name",
            option=option,
            file=text,
        )
    if path.exists() and not os.access(path, os.W_OK):
        # Found at the end, it would lose the whole match or arena played for it.
        raise SpecError("{option} {file}: the file is not writable", option=option, file=text)
    folder = path.parent
    if not folder.is_dir():
        raise SpecError(
            "{option} {file}: the folder {folder} does not exist",
            option=option,
            file=text,
            folder=str(folder),
        )
    if not os.access(folder, os.W_OK):
        raise SpecError(
            "{option} {file}: the folder {folder} is not writable",
            option=option,
            file=text,
            folder=str(folder),
        )
    return path


def _record_path(text: str) -> Path:
    """The ``--record`` file (``_out_path``), refused when it holds something that is no
    tapete record, not even one cut short: a typo (``--record README.md``) must not write a
    match over a person's file."""
    path = _out_path("--record", text)
    try:
        if not path.is_file():
            return path
        with path.open("rb") as file:
            head = file.read(256)
        # Empty, gzipped, or a record's start (cut however short): a file matches are kept in.
        if not head or head[:2] == b"\x1f\x8b" or b'"tapete-record/' in head:
            return path
        record.read(path)
    except RecordError:
        if record.salvage_file(path) is None:
            raise SpecError(
                "--record {file}: that file holds something else than a tapete record and is"
                " not written over; name another file",
                file=text,
            ) from None
    except OSError:
        pass  # unreadable: _out_path has said what matters (writable, a regular file)
    return path


def _checked(rec: record.Record, file: str) -> record.Record:
    try:
        return record.checked(rec)
    except RecordError as exc:
        raise record.in_file(file, exc) from None


CUT_SHORT = (
    "{file} was cut short (a crash or a full disk while it was written): the match goes on "
    "from its last whole move, {moves} moves in; what came after it is lost"
)


def _to_resume(file: str, lang: str = "en") -> tuple[record.Record, Game[Any, Any], str | None]:
    """The unfinished match in ``file``, checked, and what the player must be told of it (a
    file cut short: the match as far as it goes); RecordError if it cannot go on."""
    notice = None
    try:
        rec = record.read(file)
    except RecordError as exc:
        found = record.salvage_file(file)
        if found is None:
            raise exc from None
        rec, moves = found
        notice = tr(lang, CUT_SHORT, file=file, moves=moves)
    if rec.seed is None or (rec.deals and not rec.deals[0].deck):
        raise RecordError(
            "{file}: a record without its seed and decks cannot be resumed", file=file
        )
    rec = _checked(rec, file)
    game = record.recorded_game(rec)  # the rules it was played under, should a default change
    if rec.result is not None:
        raise RecordError("{file}: the match is over; tapete replay {file} shows it", file=file)
    return rec, game, notice


CUT_SHORT_LISTED = (
    "{file} was cut short (a crash or a full disk while it was written): tapete play --resume"
    " {file} goes on from its last whole move, {moves} moves in"
)
LEFT_AS_IT_IS = (
    "this file is not a saved match and is left as it is: to stop this note, delete it or"
    " move it out of {folder}"
)
LEFT_AS_THEY_ARE = (
    "these {n} files are not saved matches and are left as they are: to stop this note,"
    " delete them or move them out of {folder}"
)
GO_ON_ELSEWHERE = "{why}; --record FILE goes on with the match in another file"

RESUMED_ELSEWHERE = (
    "{path} holds moves played elsewhere since this match went on from it (the same record"
    " resumed twice at once): it is left to that match, and this one stops here"
)


def _new_record_file(spec: str, seed: int, lang: str) -> Path | None:
    """A file of the records folder that holds no match yet, for a match of ``spec``; None,
    said, when the folder cannot be made (the match is then played unkept)."""
    folder = records_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or str(exc)
        said = tr(
            lang, "the record could not be saved in {place}: {why}", place=str(folder), why=why
        )
        print(f"tapete: {said}", file=sys.stderr)
        return None
    when, number = datetime.now(), 1
    while (path := folder / record_file_name(spec, seed, when, number)).exists():
        number += 1
    return path


def _before_last_move(rec: record.Record, seat: int) -> record.Record | None:
    """``rec`` cut before ``seat``'s last move (the bots' moves after it go too), or None when
    the seat has made none."""
    moves = [s for deal in rec.deals for s, _ in deal.actions]
    last = max((i for i, s in enumerate(moves) if s == seat), default=None)
    return None if last is None else record.cut(rec, last)


class ResumedElsewhereError(Exception):
    """The --record file holds another tapete's moves since this one last wrote it."""


def _same_file(one: str | Path, other: str | Path) -> bool:
    try:
        return Path(one).samefile(other)
    except OSError:  # either is gone: not one file
        return False


def _as_written(file: str) -> list[record.Record]:
    """The record ``file`` holds as it is written (a record from an earlier tapete may lack a
    rule option its match, resumed, has filled in), or none when it is cut short."""
    try:
        return [record.read(file)]
    except (RecordError, OSError, ValueError):
        return []


def _holds(path: Path, rec: record.Record) -> bool:
    """Whether ``path`` still holds ``rec``, or no whole record at all (gone, cut short): a
    file this match may write over."""
    try:
        return record.read(path) == rec
    except (RecordError, OSError, ValueError):
        return True


@contextlib.contextmanager
def _holding(*files: str | Path | None) -> Iterator[None]:
    """Hold each of ``files`` (``record.hold``) while the match is played: RecordError, naming
    the process, when another tapete plays on in one of them."""
    holds: list[record.Hold] = []
    try:
        for file in files:
            if file is not None and all(h.path != Path(file).resolve() for h in holds):
                holds.append(record.hold(file))
        yield
    finally:
        for taken in holds:
            taken.release()


def _choose_and_play(args: argparse.Namespace) -> int:
    """``tapete play`` alone at a terminal: the new match screen asks for the game, its options
    and the seats, then opens the table (``--seed`` and ``--record`` hold for that match)."""
    from tapete.tui import NewMatch, TapeteApp

    path = _record_path(args.record) if args.record is not None else None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    app = TapeteApp(new_match=NewMatch(seed, record_path=path), lang=args.lang)
    app.run()
    return app.return_code or 0


def cmd_play(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as holding:  # the files the match is played on in, released
        return _play(args, holding)


def _play(args: argparse.Namespace, holding: contextlib.ExitStack) -> int:
    if args.resume and args.game:
        raise SpecError("give a game to play, or --resume FILE to go on with one; not both")
    if args.resume and args.seed is not None:
        raise SpecError("--seed: a resumed match keeps the seed of its record")
    lang = _language(args)
    if not (args.resume or args.game):
        if args.seats is None and _terminal_app(args.plain, lang):
            return _choose_and_play(args)
        raise SpecError("give a game to play (tapete games lists them), or --resume FILE")
    resumed, game, notice = (
        _to_resume(args.resume, lang) if args.resume else (None, load(args.game), None)
    )
    if args.seats is not None:
        kinds = seat_kinds(args.seats, game)
    elif resumed is not None:
        kinds = _recorded_kinds(resumed, game, args.resume)
    else:
        # A newcomer's first match: casual players, who play sensibly (random bots bid anything).
        kinds = ["human"] + ["easy"] * (game.players - 1)
    players.check_ends(game, kinds)
    path = _record_path(args.record) if args.record is not None else None
    if path is None and args.resume:
        # A resumed match goes on in the record it came from, move by move as a --record file
        # is kept: a second crash loses none of the moves played since. One that cannot be
        # written is said now, as a --record file is, not once the match is played on.
        try:
            path = _out_path("--resume", args.resume)
        except SpecError as exc:
            raise SpecError(GO_ON_ELSEWHERE, why=exc.phrase) from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if resumed is not None and resumed.seed is not None:
        seed = resumed.seed
    # The table runs its bots in threads with no match start or end to tell them: a program
    # (exec) needs both, so people playing with one get the line prompt, and are told why.
    program = next((k for k in kinds if players.kind_of(k) == "exec"), None)
    if "human" in kinds and _terminal_app(args.plain, lang, program):
        from tapete.tui import PlayConfig, TapeteApp

        resume_file = Path(args.resume) if args.resume else None
        config = PlayConfig(
            game,
            tuple(kinds),
            seed,
            record_path=path,
            resume=resumed,
            resume_file=resume_file,
            notice=notice,
        )
        app = TapeteApp(play=config, lang=args.lang)
        app.run()  # the table holds the files it plays on in, and refuses as below
        return app.return_code or 0
    if path is None and "human" in kinds:
        # As at the table, nothing a person plays is lost: without --record the match is kept
        # in the records folder as it is played, where `tapete records` lists it.
        path = _new_record_file(game.spec, seed, lang)
    # One match at a time goes on in a file: refused here, before the table is shown, when
    # another tapete plays on in the record resumed or the --record file.
    holding.enter_context(_holding(args.resume, path))
    if notice is not None:
        print(f"tapete: {notice}", file=sys.stderr)
    # One person is "you (0)" and is told "you deal"; people sharing the prompt are players.
    person = "you" if kinds.count("human") == 1 else "player"
    names = [f"{person if k == 'human' else k} ({i})" for i, k in enumerate(kinds)]
    if resumed is not None:  # a seat that keeps its kind keeps its name
        before = [k if players.is_outer(k) else k.lower() for k in _recorded_names(resumed)]
        names = [s.name if before[i] == kinds[i] else names[i] for i, s in enumerate(resumed.seats)]
    # What the people at this terminal may know: one person's seat, or a spectator's share.
    viewer = kinds.index("human") if kinds.count("human") == 1 else None
    # The table and the log name every seat alike; people sharing the prompt are players, and
    # bots their level, in the table's language (the record keeps the names as they are).
    told = [
        tr(lang, "you") if s == viewer else recorded_name(lang, s, n) for s, n in enumerate(names)
    ]
    agents: list[Any] = [
        HumanSeat(game, i, sys.stdin, sys.stdout, lang, told, undo=viewer is not None)
        if k == "human"
        else players.load(k)
        for i, k in enumerate(kinds)
    ]
    humans = [a for a in agents if isinstance(a, HumanSeat)]

    def tell(seat: int, error: IllegalActionError) -> None:
        agents[seat].illegal(error)

    def show(seat: int, action: Action, before: Any, after: Any) -> None:
        for entry in step_entries(game, seat, action, before, after, viewer):
            print(line(lang, entry, told, game.teams is not None, you=viewer))

    def failed(seat: int, failure: Exception) -> None:
        if (note := players.stand_in_note(failure)) is not None:
            said = tr(
                lang,
                "{name} failed to choose a move ({why}); {note}",
                name=names[seat],
                why=f"{type(failure).__name__}: {failure}",  # the bot's own words
                note=tr(lang, note),
            )
            print(f"tapete: {said}", file=sys.stderr)

    on_step = show if humans else None
    on_illegal = tell if humans else None
    refused: list[str] = []  # why the --record file could not be written, each said once
    written: list[record.Record] = []  # the last match so far the --record file holds
    # What the --record file holds as far as this match knows: the record it was resumed
    # from, when it goes on in it, then each write.
    resuming_in_place = resumed is not None and path is not None and _same_file(args.resume, path)
    held: list[record.Record] = [] if not resuming_in_place else _as_written(args.resume)

    def write(rec: record.Record) -> bool:
        """Write the --record file; one that cannot be is said (where and why), once. Raises
        ResumedElsewhereError, writing nothing, when another tapete has written its own moves there
        since (the same record resumed twice at once): the last writer must not win silently."""
        assert path is not None
        if held and not _holds(path, held[0]):
            raise ResumedElsewhereError(tr(lang, RESUMED_ELSEWHERE, path=str(path)))
        try:
            record.write(rec, path)
        except OSError as exc:
            why = exc.strerror or str(exc)  # without the name of the file being written
            if why not in refused:  # said once, not at every move
                refused.append(why)
                said = tr(
                    lang,
                    "the record could not be saved in {place}: {why}",
                    place=str(path),
                    why=why,
                )
                print(f"tapete: {said}", file=sys.stderr)
            return False
        written[:] = held[:] = [rec]
        return True

    def write_said(rec: record.Record) -> bool:
        """``write``, with the match another tapete goes on with said rather than raised."""
        try:
            return write(rec)
        except ResumedElsewhereError as elsewhere:
            print(f"tapete: {elsewhere}", file=sys.stderr)
            return False

    # The --record file holds the match up to each of your moves and turns, so a crash, a
    # closed terminal or ^C loses none of your moves; a write that fails is said, and play goes
    # on (its end is written again).
    keep_so_far = write if humans and path is not None else None
    try:
        # Outside bots start here and are ended on every way out (an error, ^C, a person leaving).
        with players.seated(game, agents) as finish:
            hooks: dict[str, Any] = {
                "names": names,
                "on_step": on_step,
                "on_illegal": on_illegal,
                "on_failure": failed,
                "keep": keep_so_far,
            }
            start = resumed
            while True:
                try:
                    if start is None:
                        final, rec = play(game, agents, seed=seed, **hooks)
                    else:
                        final, rec = resume(start, agents, **hooks)
                    break
                except UndoRequestError as undo:
                    assert undo.record is not None and viewer is not None
                    start = _before_last_move(undo.record, viewer)
                    said = str(undo) if start is not None else tr(lang, "nothing to undo")
                    print(f"  {said}")
                    start = start or undo.record  # asked again where it stood
            finish(final)
        if humans and (outcome := game.outcome(final)) is not None:
            print(final_scores(lang, outcome.scores, told))
    except KeyboardInterrupt:
        # ^C (or a bot interrupted): what the --record file holds goes on, as q's would.
        if not humans:
            raise
        why = tr(lang, "interrupted: match abandoned")
        if path is None:
            kept = tr(lang, "{why} (with --record FILE it is kept, to go on with)", why=why)
        elif not written:
            kept = why
        else:
            kept = tr(
                lang,
                "{why}; kept in {path}: tapete play --resume {path} goes on",
                why=why,
                path=str(path),
            )
        print(f"\ntapete: {kept}", file=sys.stderr)
        return 130
    except ResumedElsewhereError as elsewhere:
        print(f"tapete: {elsewhere}", file=sys.stderr)
        return 1
    except AbandonedError as left:
        if path is None or left.record is None:
            kept = tr(lang, "{why} (with --record FILE it is kept, to go on with)", why=str(left))
            print(f"tapete: {kept}", file=sys.stderr)
            return 1
        refused.clear()  # the last word on it is said, whatever was said before
        if not write_said(left.record):
            return 1
        kept = tr(
            lang,
            "{why}; kept in {path}: tapete play --resume {path} goes on",
            why=str(left),
            path=str(path),
        )
        print(f"tapete: {kept}", file=sys.stderr)
        return 1
    if not humans:  # with people the log was told move by move, the result with it
        for said in record_lines(rec, lang=lang):
            print(said)
    if path is not None:
        refused.clear()  # the last word on it is said, whatever was said before
        if not write_said(rec):
            return 1
        print(tr(lang, "record written to {path}", path=str(path)), file=sys.stderr)
    return 0


def _whole_record(path: str, to: Phrase) -> record.Record:
    """The record at ``path``, checked (see ``_checked``); RecordError for a record that holds one
    seat's knowledge only, which cannot be replayed, verified or reviewed (``to`` says which)."""
    rec = record.read(path)
    if rec.redacted is not None:
        raise RecordError(
            "this record was downloaded while its match was played, so it holds only one seat's"
            " knowledge (no seed, no deck orders, no other hands); download it again once the"
            " match is over to {to}",
            to=to,
        )
    # Every decision, event and score is checked before anything is shown, and what is shown
    # is the engine's own account of the match, never the file's.
    return _checked(rec, path)


def cmd_replay(args: argparse.Namespace) -> int:
    rec = _whole_record(args.file, Phrase("replay or verify it"))
    if not (args.verify or args.seed_hash) and _terminal_app(args.plain, _language(args)):
        from tapete.tui import TapeteApp

        TapeteApp(replay=rec, lang=args.lang).run()
        return 0
    lang = _language(args)
    for told in record_lines(rec, lang=lang):
        print(told)
    print(
        "\n" + tr(lang, "replay checked: every deal, decision, event and score matches the engine")
    )
    if rec.result is None:
        print(
            tr(
                lang,
                "the match is unfinished: tapete play --resume {file} goes on with it",
                file=args.file,
            )
        )
    if args.verify or args.seed_hash:
        # Without a published hash, the record's own is checked: a match whose seed does not
        # hash to it contradicts itself, and the hash is then the one to compare by eye.
        published = args.seed_hash or rec.seed_hash
        problems = record.verify_deals(rec, published)
        for problem in problems:  # the check's own words (English) after the verdict
            print(tr(lang, "NOT FAIR: {problem}", problem=problem))
        if problems:
            return 1
        print(
            tr(
                lang,
                "deals verified: every deck order and the first dealer follow from seed {seed}"
                " and hashes to the published SHA-256"
                if args.seed_hash
                else (
                    "deals verified: every deck order and the first dealer follow from seed {seed}"
                ),
                seed=rec.seed,
            )
        )
        if published and not args.seed_hash:
            print(
                tr(
                    lang,
                    "the seed hashes to the record's seed_hash {hash}: compare it with the one"
                    " the table published before play (or pass it as --seed-hash)",
                    hash=published,
                )
            )
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    from tapete import coach

    rec = _whole_record(args.file, Phrase("review it"))
    players = len(rec.seats)
    for seat in args.seat or ():
        if not 0 <= seat < players:
            raise SpecError(
                "--seat {seat}: this match has seats 0 to {last}", seat=seat, last=players - 1
            )
    if args.json is not None:
        _out_path("--json", args.json)
    on_tty = sys.stderr.isatty()

    lang = _language(args)

    def progress(done: int, total: int) -> None:
        if on_tty:
            end = "\n" if done == total else ""
            told = tr(lang, "reviewing decision {done} of {total}", done=done, total=total)
            print(f"\r{told}", end=end, file=sys.stderr, flush=True)

    result = coach.review(
        rec,
        seats=args.seat,
        iterations=args.iterations,
        seed=args.seed,
        workers=args.workers or os.cpu_count() or 1,
        progress=progress,
    )
    print(coach.report(result, lang))
    if args.json:
        Path(args.json).write_text(json.dumps(coach.to_json(result), indent=1), encoding="utf-8")
        print(tr(lang, "review written to {path}", path=args.json), file=sys.stderr)
    return 0


def cmd_records(args: argparse.Namespace) -> int:
    try:
        from tapete.tui import records
    except ImportError:
        said = tr(
            _language(args), "saved matches come with the tui extra (pip install 'tapete[tui]')"
        )
        print(f"tapete: {said}", file=sys.stderr)
        return 2
    if _terminal_app(args.plain, _language(args)):
        from tapete.tui import TapeteApp

        TapeteApp(lang=args.lang).run()
        return 0
    lang = _language(args)
    folder = records_dir()
    found = records.folder_records(folder, lang=lang)
    for match in found.saved:
        print(f"{match.when}  {match.game:32}  {match.result:24}  {match.path}")
    if not found.saved:
        print(tr(lang, "no saved matches in {folder}", folder=folder))
    left = 0
    for path, _ in found.unreadable:  # said, not left out: a damaged file is worth knowing of
        cut = record.salvage_file(path)
        if cut is not None and cut[0].result is None and cut[0].seed is not None:
            # A save a crash cut short still goes on, as far as it goes: say so, and how.
            said = tr(lang, CUT_SHORT_LISTED, file=path, moves=cut[1])
        else:
            said = found.told[path]
            left += 1
        print(f"tapete: {said}", file=sys.stderr)
    if left:
        # What the person may do about them: tapete never removes a file it cannot read.
        advice = LEFT_AS_IT_IS if left == 1 else LEFT_AS_THEY_ARE
        print(f"tapete: {tr(lang, advice, n=left, folder=folder)}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    return export.run(args.folder, args.db, args.since, _language(args))


def cmd_bench(args: argparse.Namespace) -> int:
    if args.compare_openspiel:
        if args.spec is None:
            raise SpecError("--compare-openspiel takes a spec, e.g. 'pocha(players=4, schedule=9)'")
        compared = bench.compare_openspiel(args.spec, seconds=args.seconds, seed=args.seed)
        print(json.dumps(compared.to_json(), indent=2) if args.json else compared)
        return 0
    specs = [args.spec] if args.spec is not None else bench.EVERY_GAME
    results = [bench.run(spec, seconds=args.seconds, seed=args.seed) for spec in specs]
    if args.json:
        shown = results[0].to_json() if args.spec is not None else [r.to_json() for r in results]
        print(json.dumps(shown, indent=2))
    else:
        print("\n".join(str(r) for r in results))
    return 0


def cmd_playthrough(args: argparse.Namespace) -> int:
    if args.narrate:
        sys.stdout.write(playthrough.narration(args.spec, args.seed, args.narrate))
        return 0
    sys.stdout.write(playthrough.transcript(args.spec, args.seed))
    return 0


EVERY_ADDRESS = ("0.0.0.0", "::", "")  # --host values that listen on every interface


def _network_address() -> str | None:
    """This machine's address on its network (the one its default route leaves from), or None
    without a network. Connecting a UDP socket picks the route and sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never answered
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith(("0.", "127.")) else address


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from tapete.web import RateLimits, serve
        from tapete.web.app import (
            Sharing,
            StartupError,
            check_database,
            check_port,
            check_sharing,
            hold_database,
        )
        from tapete.web.ratelimit import STORAGES
    except ImportError as exc:
        raise SpecError(
            "the web app needs its extra: pip install 'tapete[web]' ({why})", why=str(exc)
        ) from None
    sharing = None
    if args.redis or args.workers > 1:
        if not args.redis:
            raise SpecError("--workers: several processes share tables through --redis redis://…")
        sharing = Sharing(args.redis, args.redis_prefix, args.lease, args.workers)
    try:
        rate_limits = RateLimits.parse(
            args.rate_limit, storage=args.rate_limit_storage, prefix=args.redis_prefix
        )
    except ValueError as exc:
        raise SpecError("--rate-limit: {why}", why=str(exc)) from None
    if not args.rate_limit_storage.removeprefix("async+").startswith(STORAGES):
        # Refused here, not by a traceback when the first process builds its limiter.
        raise SpecError(
            "--rate-limit-storage: memory:// or a redis://host:port URL, not {uri}",
            uri=repr(args.rate_limit_storage),
        )
    # Before saying it serves, and before the database is opened (and maybe migrated): a setup
    # that cannot share, a port it cannot listen on, a file another server has, or a database
    # it cannot open, is one line, and a refused command leaves no database behind.
    check_sharing(args.db, sharing)
    args.port = check_port(args.host, args.port, sharing)  # 0: the free port the system gave
    hold_database(args.db)
    check_database(args.db)
    print(f"tapete: serving on http://{args.host}:{args.port}", file=sys.stderr)
    if args.host in EVERY_ADDRESS and (address := _network_address()) is not None:
        # The page's invitation links name the address it was opened at: opened at
        # 127.0.0.1 on the organiser's machine, they would lead every phone to itself.
        print(
            f"tapete: on this network, open http://{address}:{args.port}"
            " (the links a table shares name the address its page was opened at)",
            file=sys.stderr,
        )
    try:
        serve(
            args.host,
            args.port,
            db=args.db,
            trusted_proxies=args.trusted_proxy,
            rate_limits=rate_limits,
            bot_processes=args.bot_processes,
            sharing=sharing,
            review_iterations=args.review_iterations,
            review_processes=args.review_processes,
            abandon_after=args.abandon_after,
        )
    except StartupError as exc:  # uvicorn has logged the traceback: the reason in a line
        print(f"tapete: {exc}", file=sys.stderr)
        return 1
    return 0


LEFT = "you left the table; tapete join {link} takes you back to your seat"
STOPPED_WATCHING = "you stopped watching table {code}"


def _need_websockets(command: str) -> None:
    try:
        import websockets  # noqa: F401 (the connection's library: said now, not mid-join)
    except ImportError:
        raise SpecError(
            "tapete {command} needs the websockets package: pip install 'tapete[tui]'",
            command=command,
        ) from None


def cmd_join(args: argparse.Namespace) -> int:
    """Sit at a table of a tapete server: at the terminal's table (``tapete.tui.remote``), or
    at a line prompt (``tapete.joinprompt``)."""
    _need_websockets("join")
    from tapete.client import JoinError, look, parse_link, take_seat

    lang = _language(args)
    _stop_on_signals()
    try:
        server, code = parse_link(args.link, args.server)
        seats = Seats()
        if args.watch:
            look(server, code, lang)  # a table that is not there is said now, not waited for
        ticket = None if args.watch else take_seat(server, code, args.name, lang, seats)
        return _sit(args, server, code, ticket, seats)
    except JoinError as exc:
        print(f"tapete: {exc.in_language(lang)}", file=sys.stderr)
        return 2


HOSTED = "table {code} is open: friends join with  tapete join {link}  or at {link} in a browser"


def cmd_host(args: argparse.Namespace) -> int:
    """Open a table at a tapete server and sit at it as its host: friends join by its link,
    at a terminal or in a browser; the match starts once every seat is taken."""
    from tapete.client import JoinError, make_table, server_address

    game = load(args.game)
    kinds = host_seats(args.seats, game)
    _need_websockets("host")
    lang = _language(args)
    _stop_on_signals()
    try:
        server = server_address(args.server or DEFAULT_SERVER)
        seats = Seats()
        params = {key: format_value(value) for key, value in game.changes.items()}
        options = {
            "turn_timer": args.turn_timer,
            "grace": args.grace,
            "bot_delay": args.bot_delay,
            "standby": args.standby,
            "seed": args.seed,
        }
        ticket = make_table(
            server, game.name, params, kinds, args.name, not args.private, lang, seats, options
        )
        print(tr(lang, HOSTED, code=ticket.code, link=f"{server}/t/{ticket.code}"), flush=True)
        return _sit(args, server, ticket.code, ticket, seats)
    except JoinError as exc:
        print(f"tapete: {exc.in_language(lang)}", file=sys.stderr)
        return 2


def host_seats(text: str | None, game: Game[Any, Any]) -> list[str]:
    """``tapete host --seats``: ``human`` or a bot level by name per seat, the first ``human``
    the host's (default: the host, then a seat for a friend at every other place).

    >>> host_seats(None, load("truco"))
    ['human', 'human']
    >>> host_seats("human,hard,human,hard", load("truco(players=4)"))
    ['human', 'hard', 'human', 'hard']
    >>> host_seats("hard(ms=300),human", load("truco"))
    Traceback (most recent call last):
    ...
    tapete.errors.SpecError: --seats: a server seats a bot by its level's name (random, easy, \
medium, hard, expert), not hard(ms=300)
    """
    if text is None:
        return ["human"] * game.players
    kinds = seat_kinds(text, game)
    for kind in kinds:
        if kind != "human" and kind not in bots.LEVELS:
            raise SpecError(
                "--seats: a server seats a bot by its level's name ({levels}), not {kind}",
                levels=", ".join(bots.LEVELS),
                kind=kind,
            )
    if "human" not in kinds:
        raise SpecError("--seats: one seat is yours, the host's: human")
    return kinds


def _sit(
    args: argparse.Namespace, server: str, code: str, ticket: Ticket | None, seats: Seats
) -> int:
    """Play (or watch, without ``ticket``) at table ``code`` of ``server`` until the match is
    over or the person leaves: the terminal's table, or the line prompt."""
    import asyncio

    from tapete.client import Link, ws_url
    from tapete.joinprompt import Prompt

    lang = _language(args)
    token = None if ticket is None else ticket.token
    link = Link(ws_url(server), code, token, lang)
    if _terminal_app(args.plain, lang):
        from tapete.tui import TapeteApp
        from tapete.tui.remote import Joined

        app = TapeteApp(joined=Joined(link, ticket, seats), lang=args.lang)
        link.lang = app.settings.lang  # the table's language, kept from the last time
        app.run()
        if app.return_code:
            return app.return_code
        said = LEFT if ticket else STOPPED_WATCHING
        print(tr(app.settings.lang, said, code=code, link=link.table_url))
        return 0

    async def run() -> int:
        prompt = Prompt(link, ticket, sys.stdout, lang, seats)
        if ticket is not None:
            seat = ticket.seat + 1
            prompt.say(tr(lang, "you sit at seat {seat} of table {code}", seat=seat, code=code))
        else:
            prompt.say(tr(lang, "you watch the table"))
        prompt.read_from(sys.stdin)
        return await prompt.run()

    return asyncio.run(run())


def cmd_arena(args: argparse.Namespace) -> int:
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        from tapete import arena

        if args.plot:
            import matplotlib  # noqa: F401  (checked now, not after a long arena)
    except ImportError as exc:
        missing = (exc.name or "a package").split(".")[0]
        print(f"tapete arena needs the arena extra ({missing} is missing):", file=sys.stderr)
        print("  pip install 'tapete[arena]'", file=sys.stderr)
        return 2
    names = arena.split_bots(args.bots)
    game = arena.check(args.game, names)  # before the progress bar: a typo is one clean line
    total = arena.planned(args.matches, arena.assignments(game.players, len(names), game.teams))
    for option, text in (("--json", args.json), ("--plot", args.plot)):
        if text is not None:
            _out_path(option, text)
    if args.ray is not None:
        arena.check_ray(args.ray)  # a cluster that is not there: one line, not a bar that waits
    workers = args.workers or os.cpu_count() or 1
    _stop_on_signals()  # stopped, the arena ends its worker processes (and they their bots)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    times = (TimeElapsedColumn(), TimeRemainingColumn())
    start = time.perf_counter()
    played = [0]
    try:
        errors = Console(stderr=True)
        # A bar is for a terminal: in a log, its last frame, cut to 80 columns, would be noise.
        bar = Progress(*columns, *times, console=errors, disable=not errors.is_terminal)
        with bar as progress:
            task = progress.add_task(f"{args.game}: {' vs '.join(names)}", total=total)

            def advance(done: int, total: int) -> None:
                played[0] = done
                progress.update(task, completed=done, total=total)

            result = arena.run(
                args.game,
                names,
                matches=args.matches,
                workers=workers,
                seed=args.seed,
                on_match=advance,
                ray=args.ray,
            )
    except arena.Stopped as stopped:
        if stopped.result is None:
            _stopped_bare(args, stopped.played, total)
            raise
        shown = len(stopped.result.matches)
        print(
            f"tapete arena: stopped after {stopped.played} of {total} matches: the numbers of"
            f" the first {stopped.result.groups} whole duplicate groups ({shown} matches, as"
            f" --matches {shown} gives them)",
            file=sys.stderr,
        )
        _arena_out(args, stopped.result)
        raise  # ^C ends as every command's does, "interrupted"
    except (KeyboardInterrupt, SystemExit):
        _stopped_bare(args, played[0], total)
        raise  # a signal ends with its code
    elapsed = time.perf_counter() - start
    used = min(workers, len(result.matches))  # the arena starts no more than it has matches
    processes = f"{used} worker{'s' if used > 1 else ''}"
    if args.ray is not None:
        processes = f"Ray ({args.ray or 'local'})"
    print(f"{len(result.matches)} matches in {elapsed:.1f} s on {processes}", file=sys.stderr)
    _arena_out(args, result)
    return 0


def _stopped_bare(args: argparse.Namespace, played: int, total: int) -> None:
    """Say that a stopped arena has no numbers (no duplicate group was played whole, or a
    signal stopped it), and what it did not write, lest a file of an earlier run be read as
    this one's."""
    files = " or ".join(f for f in (args.json, args.plot) if f is not None)
    unwritten = f", nothing written to {files}" if files else ""
    print(
        f"tapete arena: stopped after {played} of {total} matches: no numbers (they"
        f" need whole duplicate groups){unwritten}",
        file=sys.stderr,
    )


def _arena_out(args: argparse.Namespace, result: ArenaResult) -> None:
    """An arena's numbers: its files (``--json``, ``--plot``), then its table."""
    from rich.console import Console

    from tapete import arena

    # The files first: a reader of the table that stops early (| head) loses none of them.
    if args.json:
        Path(args.json).write_text(arena.dumps(result), encoding="utf-8")
        print(f"results written to {args.json}", file=sys.stderr)
    if args.plot:
        arena.plot(result, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)

    class Table(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError  # ended as every command's output is (not rich's exit 1)

    # Piped to a file, the table keeps its full width instead of a terminal's 80 columns.
    arena.report(result, Table() if sys.stdout.isatty() else Table(width=200))


def _stop_on_signals() -> None:
    """SIGTERM and SIGHUP (``kill``, ``timeout``, a closed terminal) stop the command as ^C
    does, through its ``finally`` clauses and exit handlers; it exits with 128 + the signal."""

    def stop(number: int, frame: Any) -> None:
        raise SystemExit(128 + number)

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, stop)


def _number(text: str, kind: type[int] | type[float]) -> Any:
    """``text`` as a whole number (``int``) or any number (``float``); a word, a fraction where a
    whole number is due, or nothing is refused in words, not with the parser's names."""
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not {what}") from None


def _seconds(text: str) -> float:
    value = _number(text, float)
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return float(value)


def _lease(text: str) -> float:
    value = float(_number(text, float))
    try:
        from tapete.web.cluster import LEASE_RANGE
    except ImportError:  # no web extra: serve says so, a clearer line than the lease's
        return value
    low, high = LEASE_RANGE
    if not low <= value <= high:  # nan and inf fail it too
        raise argparse.ArgumentTypeError(f"{text} is not a lease: {low:g} to {high:g} seconds")
    return value


def _count(text: str) -> int:
    value = _number(text, int)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return int(value)


def _processes(text: str) -> int:
    value = _number(text, int)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not a number of processes (0 or more)")
    return int(value)


def _wait(text: str) -> float:
    value = float(_number(text, float))
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds (0 or more)")
    return value


def _whole(text: str) -> int:
    return int(_number(text, int))


def _table_seconds(what: str, most: float) -> Callable[[str], float]:
    """A ``type`` for a table's seconds: ``what`` says them in a refusal, ``most`` is the most
    a server's table takes (its API's bounds, docs/protocol.md)."""

    def seconds(text: str) -> float:
        value = float(_number(text, float))
        if not 0 <= value <= most:  # nan and inf fail it too
            raise argparse.ArgumentTypeError(f"{text} is not {what}: 0 to {most:g} seconds")
        return value

    return seconds


def _port(text: str) -> int:
    value = _number(text, int)
    # Past 65535 the operating system would take the number modulo 65536: another port than
    # the one said. 0 asks it for any free port (tapete serve says which).
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: 0 to 65535")
    return int(value)


def _sha256(text: str) -> str:
    """A published seed hash: 64 hexadecimal digits. A hash cut short or mistyped in copying is
    no hash, and would otherwise be judged NOT FAIR against every seed: the table accused of
    what the copy did."""
    digits = text.strip()
    if len(digits) != 64 or any(c not in string.hexdigits for c in digits):
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not a SHA-256: 64 hexadecimal digits, as the table published it"
        )
    return digits


def _shown(text: str) -> str:
    """``text`` as a refusal quotes it: a long one by its start (a whole file pasted in)."""
    return repr(text) if len(text) <= 80 else f"{text[:70]!r}… ({len(text)} characters)"


def _proxy(text: str) -> str:
    """A trusted proxy: an IP address or network. Anything else would be trusted as a literal
    that no client's address ever is (uvicorn's reading), so the proxy's clients would all be
    counted as the proxy, with nothing said."""
    try:
        ipaddress.ip_network(text) if "/" in text else ipaddress.ip_address(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{_shown(text)} is not an IP address (10.0.0.2) or network (10.0.0.0/8)"
        ) from None
    return text


class _Parser(argparse.ArgumentParser):
    """The command line's parser: a mistake is one line, naming the option, and where to look,
    instead of the whole usage (which ``--help`` gives)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


FIRST_STEPS = """first steps:
  tapete play pocha                 a match at the terminal, you against three easy bots
  tapete play                       choose the game, its options and the seats first
  tapete games                      the games, and tapete rules GAME: how to play one
  tapete serve                      the browser game, at http://127.0.0.1:8000
  tapete join LINK                  sit at a table of a tapete serve, with friends in browsers
  tapete host GAME --server URL     open a table there, for friends at terminals or in browsers
  tapete COMMAND --help             what a command takes"""


def parser() -> argparse.ArgumentParser:
    top = _Parser(
        prog="tapete",
        description="Traditional card games.",
        epilog=FIRST_STEPS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action="version", version=f"tapete {__version__}")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("games", help="list the games")
    p.add_argument("--lang", choices=LANGUAGES, help="the summaries' language (en, es, pt)")
    p.set_defaults(run=cmd_games)
    p = sub.add_parser("rules", help="how to play a game (--full: its rules as implemented)")
    p.add_argument("game", help="a game name or spec (tapete games lists them)")
    p.add_argument("--lang", choices=LANGUAGES, help="the page's language (en, es, pt)")
    p.add_argument("--full", action="store_true", help="the full reference page, as implemented")
    p.set_defaults(run=cmd_rules)
    levels = "\n".join(f"  {level:8} {what}" for level, what in LEVEL_HELP.items())
    p = sub.add_parser(
        "play",
        help="play a match (a human seat opens the table)",
        epilog=f"bot levels, for --seats:\n{levels}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "game",
        nargs="?",
        help='a game spec, e.g. pocha or "pocha(players=3)" (none: choose the game, its options'
        " and the seats on the terminal's new match screen)",
    )
    p.add_argument(
        "--seats",
        help="comma-separated: human, a bot level (random, easy, medium, hard, expert; "
        'hard(ms=100, iterations=9)), an outside bot: exec(cmd="./mybot", ms=500), or a '
        'trained policy(path="model.zip") (default: human at seat 0, easy at every other)',
    )
    p.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with the unfinished match in this record (seats as recorded, or --seats),"
        " written to it as it goes on (unless --record names another file)",
    )
    p.add_argument("--seed", type=_whole, help="the match seed (default: a random one)")
    p.add_argument(
        "--record",
        help="write the match record here (.gz compresses); at the table, a rematch's goes "
        "beside it, as FILE-2, FILE-3...",
    )
    p.add_argument("--plain", action="store_true", help="a line prompt instead of the table")
    p.add_argument("--lang", choices=LANGUAGES, help="the table's language (en, es, pt)")
    p.set_defaults(run=cmd_play)
    p = sub.add_parser("replay", help="check a record and step through it (--plain: print it)")
    p.add_argument("file", help="a tapete-record/1 file (.json or .json.gz)")
    p.add_argument("--plain", action="store_true", help="print the record deal by deal")
    p.add_argument("--lang", choices=LANGUAGES, help="the replay's language (en, es, pt)")
    p.add_argument("--verify", action="store_true", help="check the deals follow from the seed")
    p.add_argument(
        "--seed-hash",
        type=_sha256,
        help="the SHA-256 published before play: of SALT:SEED with the record's seed_salt,"
        " else of the seed alone",
    )
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("analyze", help="a review of every decision of a record, as a coach sees it")
    p.add_argument("file", help="a tapete-record/1 file, finished or not")
    p.add_argument("--seat", type=_whole, action="append", help="review this seat (repeatable)")
    p.add_argument(
        "--iterations", type=_count, default=200, help="sampled deals a decision (default 200)"
    )
    p.add_argument("--seed", type=_whole, default=0, help="which deals are sampled (default 0)")
    p.add_argument("--workers", type=_count, help="processes (default: one a core)")
    p.add_argument("--json", help="also write the review as JSON to this file")
    p.add_argument("--lang", choices=LANGUAGES, help="the report's language (en, es, pt)")
    p.set_defaults(run=cmd_analyze)
    p = sub.add_parser("records", help="the matches played at the table, saved in your data folder")
    p.add_argument("--plain", action="store_true", help="print the list")
    p.add_argument("--lang", choices=LANGUAGES, help="the app's language (en, es, pt)")
    p.set_defaults(run=cmd_records)
    p = sub.add_parser(
        "export",
        help="the finished matches of tapete serve's tables: every record into a folder, and "
        "who won",
        description="Write the complete record of every finished match tapete serve kept (public "
        "tables and private ones) into FOLDER as tapete-CODE-N.json, the name the web app's "
        "download gives it, and print each match's scores and winners, then, by game, how many "
        "matches each player won of those they played. It reads the database and may run while "
        "the server does.",
    )
    p.add_argument(
        "folder",
        help="where the records go (made if missing; a file of the same name is written over)",
    )
    p.add_argument(
        "--db",
        help="the database tapete serve keeps its tables in (default: its SQLite file in the "
        "user data folder; sqlite:///path/tapete.db or postgresql://user@host/name)",
    )
    p.add_argument(
        "--since",
        type=export.moment,
        metavar="WHEN",
        help="only matches finished then or later: 2026-12-05 or 2026-12-05T19:00 (this "
        "machine's time zone unless it says another)",
    )
    p.add_argument("--lang", choices=LANGUAGES, help="the report's language (en, es, pt)")
    p.set_defaults(run=cmd_export)
    p = sub.add_parser("bench", help="random playouts per second and memory")
    p.add_argument("spec", nargs="?", help="a game spec (default: every game, in turn)")
    p.add_argument("--seconds", type=_seconds, default=5.0, help="how long, each (default 5)")
    p.add_argument(
        "--compare-openspiel",
        action="store_true",
        help="OpenSpiel's oh_hell of the same hand shape, interleaved: both rates and the ratio",
    )
    p.add_argument("--seed", type=_whole, default=0, help="the first playout's seed (default 0)")
    p.add_argument("--json", action="store_true", help="print the rates as JSON")
    p.set_defaults(run=cmd_bench)
    p = sub.add_parser("playthrough", help="a golden transcript of one seeded random match")
    p.add_argument("spec", help='a game spec, e.g. pocha or "pocha(players=3)"')
    p.add_argument("--seed", type=_whole, default=0, help="the match seed (default 0)")
    p.add_argument(
        "--narrate", choices=LANGUAGES, help="the match as the narrator tells it, in a language"
    )
    p.set_defaults(run=cmd_playthrough)
    p = sub.add_parser("serve", help="the web app: play in the browser, with bots or friends")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine alone; 0.0.0.0: every "
        "network it is on)",
    )
    p.add_argument("--port", type=_port, default=8000, help="the port to listen on (default 8000)")
    p.add_argument(
        "--db",
        help="where tables are kept: a database URL (default: SQLite in the user data folder; "
        "postgresql://user@host/name) or memory (nothing survives a restart)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        type=_proxy,
        default=[],
        metavar="ADDR",
        help="a reverse proxy's address or network (repeatable): clients it forwards are told "
        "apart by X-Forwarded-For; from anyone else that header is ignored",
    )
    p.add_argument(
        "--rate-limit",
        action="append",
        default=[],
        metavar="KIND=RULE",
        help="per-client limits (repeatable): tables, joins, players, reviews or lookups "
        "(table codes asked for that name no table) = e.g. 10/minute;60/hour or none; off for "
        "no limits at all (default: tables=10/minute;60/hour, joins=30/minute;300/hour, "
        "players=10/minute;60/hour, reviews=10/minute;60/hour, lookups=30/minute;300/hour)",
    )
    p.add_argument(
        "--rate-limit-storage",
        default="memory://",
        metavar="URI",
        help="where the counts are kept: memory:// (this process, the default) or "
        "redis://host:6379 (shared by several server processes)",
    )
    p.add_argument(
        "--bot-processes",
        type=_processes,
        metavar="K",
        help="worker processes where bots think, at a lower OS priority than the server "
        "(default: one per core; 0: threads of the server process)",
    )
    p.add_argument(
        "--review-iterations",
        type=_count,
        default=200,
        metavar="N",
        help="sampled deals a decision in the coach's reviews of finished matches, worked out "
        "in a process of their own below the bots (default 200, as tapete analyze)",
    )
    p.add_argument(
        "--review-processes",
        type=_processes,
        metavar="K",
        help="processes for the coach's reviews, at the lowest OS priority, apart from the bots' "
        "so no live bot waits behind a review (default: 1, or threads where bots think in threads)",
    )
    p.add_argument(
        "--abandon-after",
        type=_wait,
        default=3600.0,
        metavar="SECONDS",
        help="a started match nobody has been at for this long is played to its end by its bots "
        "and stand-ins, its record kept (default: 3600; 0: it waits for its people for ever)",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help="share the tables with every other server on the same --db postgresql://… "
        "through this Redis (redis://host:6379): news between servers and who drives each room",
    )
    p.add_argument(
        "--workers",
        type=_count,
        default=1,
        metavar="N",
        help="server processes on this host, on one port (default 1; more need --redis and "
        "PostgreSQL)",
    )
    p.add_argument(
        "--redis-prefix",
        default="tapete",
        metavar="PREFIX",
        help="the Redis keys and channel of this site, and its rate limits' counts there"
        " (several sites may share one Redis; default tapete)",
    )
    p.add_argument(
        "--lease",
        type=_lease,
        default=5.0,
        metavar="SECONDS",
        help="how long a room's driver holds it without renewing: a dead server's rooms are "
        "taken over within a lease and a third of its death (1 to 60, default 5)",
    )
    p.set_defaults(run=cmd_serve)
    after = (
        "Once a match is over, r (rematch, at the line prompt) starts another at the table for"
        " everyone; q leaves, the seat kept: tapete join with the table's link comes back to it."
    )
    p = sub.add_parser(
        "join", help="sit at a table of a tapete server, at the terminal", epilog=after
    )
    p.add_argument(
        "link", help="the table's link (http://HOST:PORT/t/CODE), or its code with --server"
    )
    p.add_argument("--server", help=f"the server of a bare code (default {DEFAULT_SERVER})")
    p.add_argument("--name", default="", help="your name at the table (default: the table's)")
    p.add_argument("--watch", action="store_true", help="watch the table, taking no seat")
    p.add_argument("--plain", action="store_true", help="a line prompt instead of the table")
    p.add_argument("--lang", choices=LANGUAGES, help="the table's language (en, es, pt)")
    p.set_defaults(run=cmd_join)
    p = sub.add_parser(
        "host",
        help="open a table at a tapete server for friends, and sit at it (at the terminal)",
        epilog="The match starts once every seat is taken; s (start, at the line prompt) starts"
        f" it at once, bots in the empty seats. {after}",
    )
    p.add_argument("game", help='a game spec, e.g. pocha or "truco(players=4)"')
    p.add_argument("--server", help=f"the tapete server (default {DEFAULT_SERVER})")
    p.add_argument(
        "--seats",
        help="comma-separated, a seat each: human (the first is yours, the others wait for"
        " friends) or a bot level (random, easy, medium, hard, expert); default: you, then"
        " a seat for a friend at every other place",
    )
    p.add_argument("--name", default="", help="your name at the table (default: the table's)")
    p.add_argument("--private", action="store_true", help="not listed in the server's lobby")
    p.add_argument(
        "--turn-timer",
        type=_table_seconds("a turn timer (0: none)", 600),
        default=0.0,
        metavar="SECONDS",
        help="seconds a person has for a move; past it a bot moves for them (default 0: none)",
    )
    p.add_argument(
        "--grace",
        type=_table_seconds("a grace", 600),
        default=20.0,
        metavar="SECONDS",
        help="seconds a person who left keeps their seat before a bot stands in (default 20)",
    )
    p.add_argument(
        "--bot-delay",
        type=_table_seconds("a bot's delay", 5),
        default=0.7,
        metavar="SECONDS",
        help="seconds a bot waits before its move, so people can follow (default 0.7)",
    )
    p.add_argument(
        "--standby",
        choices=bots.LEVELS,
        default="medium",
        help="the level of a bot standing in for a person who left, and of the seats s fills"
        " (default medium)",
    )
    p.add_argument(
        "--seed",
        type=_whole,
        help="the first match's seed, so that tables dealt alike can be compared (default: drawn"
        " by the server; a chosen seed is shown to everyone: its chooser could know every hand)",
    )
    p.add_argument("--plain", action="store_true", help="a line prompt instead of the table")
    p.add_argument("--lang", choices=LANGUAGES, help="the table's language (en, es, pt)")
    p.set_defaults(run=cmd_host)
    p = sub.add_parser("arena", help="duplicate matches between bots: scores, CIs, ratings")
    p.add_argument("game", help='a game spec, e.g. pocha or "pocha(schedule=[1, 2])"')
    p.add_argument(
        "--bots",
        required=True,
        help="two or more bot levels, outside bots or trained policies: "
        'hard,medium,exec(cmd="./mybot"),policy(path="model.zip")',
    )
    p.add_argument(
        "--matches", type=_count, default=100, help="rounded up to whole groups (default 100)"
    )
    p.add_argument("--workers", type=_count, help="processes (default: every core)")
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play the duplicate groups as Ray tasks on the cluster at ADDRESS (a local Ray "
        "when none is given): the same numbers as a local run for the same seed",
    )
    p.add_argument(
        "--seed", type=_whole, default=0, help="the groups' deals follow from it (default 0)"
    )
    p.add_argument("--json", help="write every number and the raw matches here")
    p.add_argument("--plot", help="draw the differences and ratings to this PNG")
    p.set_defaults(run=cmd_arena)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        # Output that cannot hold a suit's sign or a dash (a cp1252 file, a Latin-1 terminal)
        # gets a "?" for it instead of a traceback.
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="replace")
    given = sys.argv[1:] if argv is None else list(argv)
    if not given:  # someone trying the command: what it does, not a usage error
        parser().print_help()
        return 0
    args = parser().parse_args(given)
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # here, so a reader gone away is caught below, not at exit
        return code
    except BrokenPipeError:
        # The reader stopped early (``| head``): end quietly, as a killed pipe writer would.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (SpecError, RecordError) as exc:
        # Said in the command's language (--lang, or the locale's), as its table would be.
        print(f"tapete: {error_text(_language(args), exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"tapete: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # On a line of its own: ^C may come in the middle of a progress bar or a prompt.
        print(f"\ntapete: {tr(_language(args), 'interrupted')}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
