"""Outside bots: a program in any language plays a seat over stdin and stdout.

The protocol is docs/bot-protocol.md.

``exec(cmd="./mybot", ms=500)`` in ``tapete play --seats`` or ``tapete arena --bots`` runs
``./mybot`` once per seat for the whole match and speaks the ``tapete-bot/1`` line protocol with
it: tapete writes one JSON object a line (``hello``, ``start``, ``decide``, ``error``, ``end``,
``quit``), the bot answers ``ready`` to ``hello`` and one action in tapete notation to each
``decide``. A ``decide`` holds the seat's view (the presented table of ``tapete.present``, as the
web app sends it: nothing the seat may not see), the legal actions in notation and the time
budget in milliseconds.

A bot that answers what is not a legal action, answers too late, or exits gets a clear message
(on tapete's stderr through the match's ``on_failure``, and as an ``error`` line to the bot while
it runs) and a legal move is played for it (``tapete.match.choose_or_stand_in``); a bot that has
exited is not started again. A line the bot writes when no decision is waiting for an answer (a
second answer, a note after the answer) is dropped before the next ``decide`` is sent, and the
first such line of a match is named on tapete's stderr: it is never taken for the next
decision's answer. The process is ended on every way out: ``close`` after the match, and at
interpreter exit for any left running (an interrupted match). A bot runs in its own session, so
^C at the terminal reaches tapete, which then ends the bot.

Standard library only: the protocol needs no package on either side.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import enum
import json
import os
import queue
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import IO, Any

from tapete.bots import MOST_MS  # past the clock's range, a crash
from tapete.cards import CardSet, cards_of
from tapete.errors import InvalidActionError, Phrase, SpecError
from tapete.game import Action, Game, Outcome, ParamValue, Seat
from tapete.present import present

__all__ = [
    "DEFAULT_MS",
    "GRACE_MS",
    "HELLO_MS",
    "PROTOCOL",
    "VERSION",
    "BotError",
    "BotGoneError",
    "ExecBot",
    "from_spec",
    "view_json",
]

PROTOCOL = "tapete-bot"
VERSION = 1
DEFAULT_MS = 1000  # a decision's budget unless the seat says ms=N
GRACE_MS = 250  # on top of the budget, for the pipes and the scheduler: the budget is the bot's
HELLO_MS = 10_000  # to start and answer hello: an interpreter or a virtual machine may be slow
QUIT_MS = 1000  # to exit after quit, before it is terminated
CATCH_UP_MS = 100  # at most, before a decide, for the reader to take in what the bot has written
EXIT_POLL_MS = 50  # how often a wait for the bot's line checks whether it has exited
# After an answer that is no action or not legal: the silence awaited before the next decide,
# dropping what comes (the answer that followed a note), at most a decision's budget.
QUIET_MS = 50
# A line the bot writes is kept up to LINE_BYTES (the rest of it is dropped, so a bot that never
# ends a line cannot fill tapete's memory); messages quote at most SHOWN characters of it, and
# an answer longer than that is no action (none is half as long) and is not read as one.
LINE_BYTES = 65536
SHOWN = 80
# At most so many lines the bot has written wait to be read; past that what it writes is dropped
# (each decide takes one line, so a bot that writes more floods), and tapete's memory stays small.
QUEUED_LINES = 100

_RUNNING: weakref.WeakSet[ExecBot] = weakref.WeakSet()  # ended at exit if still running


class BotError(Exception):
    """An outside bot failed a decision: no answer in time, an answer that is no legal action,
    or it is not running. The match goes on with a legal move played for it.

    ``final`` when the bot plays no more in this match (it exited, or failed the hello)."""

    def __init__(self, message: str, *, final: bool = False) -> None:
        super().__init__(message)
        self.final = final


class BotGoneError(BotError):
    """A decision asked of a bot that has already stopped playing: the ``final`` BotError that
    stopped it said so once, and a legal move is played for it at every decision after."""

    repeated = True  # what ``tapete.players.stand_in_note`` does not tell again

    def __init__(self, message: str) -> None:
        super().__init__(message, final=True)


def view_json(view: Any) -> dict[str, Any]:
    """The seat's view as the web app sends it: the presented table (English words, cards in
    the text notation), as plain JSON data.

    >>> import tapete
    >>> game = tapete.load("pocha(players=3, schedule=[2])")
    >>> table = view_json(game.observe(game.new_state(seed=1, dealer=2), 0))
    >>> table["status"], len(table["hand"]), table["seats"][0]["name"]
    ('your turn', 2, 'you')
    """
    data = _plain(present(view, "en"))
    assert isinstance(data, dict)
    return data


def facts_json(view: Any) -> dict[str, Any]:
    """The seat's view as the engine holds it, field by field (the game's ``View``), as plain
    JSON data for a program to read without parsing words: numbers stay numbers, a card is its
    int ``suit * 16 + rank`` (docs/notation.md), a set of cards a sorted list of them, a phase
    or another named choice its name in lower case, what the seat does not know ``null``.

    >>> import tapete
    >>> game = tapete.load("pocha(players=3, schedule=[2])")
    >>> facts = facts_json(game.observe(game.new_state(seed=1, dealer=2), 0))
    >>> facts["phase"], facts["bids"], facts["hands"][1], len(facts["hands"][0])
    ('bid', [None, None, None], None, 2)
    """
    data = _plain(view)
    assert isinstance(data, dict)
    return data


def _plain(value: Any) -> Any:
    """Dataclasses as objects of their public fields, mappings as objects, tuples as arrays;
    a set of cards as the sorted list of its ints, a named choice as its name in lower case."""
    if isinstance(value, CardSet):
        return list(cards_of(value.mask))
    if isinstance(value, enum.Enum):
        return value.name.lower()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return {f.name: _plain(getattr(value, f.name)) for f in fields if f.name[0] != "_"}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def from_spec(name: str, options: Mapping[str, ParamValue]) -> ExecBot:
    """The outside bot an ``exec(cmd="...", ms=N)`` seat names; SpecError says what is wrong.

    The program is looked for now, so a typo fails before the match, not at its first move.

    >>> from_spec('exec(cmd="sh -c true", ms=50)', {"cmd": "sh -c true", "ms": 50}).ms
    50
    >>> from_spec("exec()", {})
    Traceback (most recent call last):
    ...
    tapete.errors.SpecError: exec(): cmd is the program to run, as in exec(cmd="./mybot")
    """
    unknown = sorted(set(options) - {"cmd", "ms"})
    if unknown:
        raise SpecError(
            '{name}: exec takes cmd="PROGRAM ARGS" and ms=N, not {unknown}',
            name=name,
            unknown=", ".join(unknown),
        )
    cmd = options.get("cmd")
    if not isinstance(cmd, str) or not cmd.strip():
        raise SpecError('{name}: cmd is the program to run, as in exec(cmd="./mybot")', name=name)
    ms = options.get("ms", DEFAULT_MS)
    if not isinstance(ms, int) or isinstance(ms, bool) or ms <= 0:
        raise SpecError("{name}: ms is a positive number of milliseconds a decision", name=name)
    if ms > MOST_MS:
        raise SpecError(
            "{name}: ms is at most {most} (an hour a decision)", name=name, most=MOST_MS
        )
    try:
        argv = shlex.split(cmd)
    except ValueError as exc:
        raise SpecError(
            "{name}: cmd {cmd} does not split into words ({why})",
            name=name,
            cmd=repr(cmd),
            why=str(exc),
        ) from None
    if shutil.which(argv[0]) is None:
        program = argv[0]
        # The two slips of a person used to a shell: no shell runs the command here.
        if os.sep not in program and shutil.which(os.path.join(os.curdir, program)):
            raise SpecError(
                "{name}: no program {program} on PATH; the one in this folder is {here}",
                name=name,
                program=repr(program),
                here=os.path.join(os.curdir, program),
            )
        if program.startswith("~"):
            raise SpecError(
                "{name}: no program {program}: no shell runs it, so ~ is not a home folder;"
                " write the whole path",
                name=name,
                program=repr(program),
            )
        raise SpecError(
            "{name}: no program {program} to run (not found, or not executable)",
            name=name,
            program=repr(program),
        )
    found = shutil.which(argv[0])
    unrunnable = None if found is None else _unrunnable_script(found)
    if unrunnable is not None:
        # Else the system's own words at the first decision: "No such file or directory",
        # naming the script, which is there.
        raise SpecError("{name}: {program} {why}", name=name, program=repr(argv[0]), why=unrunnable)
    return ExecBot(argv, ms, name=name)


def _unrunnable_script(path: str) -> Phrase | None:
    """Why the system cannot run the script at ``path`` by its ``#!`` line, or None (no such
    line, or one it can run): a line ended by a Windows carriage return, which the
    system takes for the interpreter's last letter; an interpreter named by a path where no
    program is."""
    try:
        with open(path, "rb") as script:
            first = script.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    if first.rstrip(b"\n").endswith(b"\r"):
        return Phrase(
            "has Windows line ends: its #! line ends in a carriage return (\\r), which the"
            " system reads as part of the interpreter's name; save it with Unix line ends"
        )
    words = first[2:].split()
    if not words:
        return None
    interpreter = os.fsdecode(words[0])
    if not os.path.isabs(interpreter) or shutil.which(interpreter) is not None:
        return None
    return Phrase(
        "starts with #!{interpreter}, a program that is not there"
        " (#!/usr/bin/env python3, say, looks the interpreter up on PATH)",
        interpreter=interpreter,
    )


class ExecBot:
    """One seat played by an outside program, for one match: ``sit`` starts it, ``choose`` asks
    it each decision, ``close`` tells it the result and ends it."""

    kind = "bot"

    def __init__(
        self,
        argv: Sequence[str],
        ms: int = DEFAULT_MS,
        name: str | None = None,
        hello_ms: int = HELLO_MS,
    ) -> None:
        self.argv = list(argv)
        self.ms = ms
        self.hello_ms = hello_ms
        self.name = name or f"exec(cmd={json.dumps(shlex.join(self.argv))}, ms={ms})"
        # The running command, which starts what the bot's seat says on stderr itself (as
        # ``tapete arena:`` starts the arena's messages); players.seated sets it.
        self.command = "tapete"
        self.match = ""  # which of the command's matches this is, when it plays many
        self.game: Game[Any, Any] | None = None
        self.seat: Seat | None = None
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()  # what the bot wrote; None: EOF
        self.reader: _Reader | None = None
        # What tapete writes goes through a thread, so a bot that stops reading blocks that
        # thread, never the match; None closes the bot's input.
        self.outbox: queue.Queue[str | None] = queue.Queue()
        self.decisions = 0
        self.owed = 0  # answers to decisions that timed out, still to come and be dropped
        self.stray = 0  # lines dropped that answered no decision (the first is told on stderr)
        self.out_of_step = False  # its last answer was no legal action: maybe a note, more to come
        self.ready = False
        self.gone: str | None = None  # why the bot no longer plays
        self.closed = False
        self.unstarted: str | None = None  # why the program could not be started, until told

    # --- the match -----------------------------------------------------------------------

    def sit(self, game: Game[Any, Any], seat: Seat) -> None:
        """Start the program for ``seat`` of ``game`` and greet it (its answer is read at the
        first decision, so every seat's program starts at once)."""
        self.game, self.seat = game, seat
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                # Its own session: ^C at the terminal reaches tapete, which ends the bot.
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            # Told at its first decision, once (as an exit is), not taken silently as gone.
            self.unstarted = f"could not be started: {exc}"
            return
        _RUNNING.add(self)
        _end_all_on_signals()
        assert self.process.stdout is not None and self.process.stdin is not None
        self.reader = _Reader(self.process.stdout, self.lines)
        threading.Thread(target=self.reader.run, daemon=True).start()
        threading.Thread(target=_write, args=(self.process.stdin, self.outbox), daemon=True).start()
        self._send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "version": VERSION,
                "game": game.spec,
                "seat": seat,
                "players": game.players,
                "teams": None if game.teams is None else [list(t) for t in game.teams],
                "ms": self.ms,
            }
        )
        self._send({"type": "start"})

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: Any) -> Action:
        """The program's answer to this decision; BotError when there is none to play."""
        if self.unstarted is not None and self.gone is None:
            self.gone = self.unstarted
            raise self._stopped()
        if self.gone is not None:
            raise BotGoneError(f"the bot is not playing: {self.gone}")
        if self.game is None or self.process is None:
            raise BotError("the bot was never seated (tapete.players.seated starts it)")
        game = self.game
        if not self.ready:
            self._handshake()
        self.decisions += 1
        # Before the decide is sent, so that no line read for it can have been written before
        # the bot saw it (the bot cannot have answered what it has not been sent).
        self._drop_stray()
        legal = [game.format_action(a) for a in legal_actions]
        self._send(
            {
                "type": "decide",
                "decision": self.decisions,
                "legal": legal,
                "ms": self.ms,
                "view": view_json(view),
                "facts": facts_json(view),
            }
        )
        answer = self._answer()
        if len(answer) > SHOWN:
            self.out_of_step = True
            raise self._told(f"answered {_shown(answer)}, which is no action")
        try:
            action = game.parse_action(answer)
        except InvalidActionError as exc:
            self.out_of_step = True
            raise self._told(f"answered {answer!r}: {exc}") from None
        if action not in legal_actions:
            self.out_of_step = True
            raise self._told(
                f"answered {answer!r}, which is not legal now (legal: {', '.join(legal)})"
            )
        return action

    def close(self, outcome: Outcome | None = None) -> None:
        """Tell the bot the result (when the match ended) and ``quit``; end it if it lingers."""
        if self.closed:
            return
        self.closed = True
        process = self.process
        if process is None:
            _RUNNING.discard(self)
            return
        if self.gone is None and process.poll() is None:
            if outcome is not None:
                self._send(
                    {
                        "type": "end",
                        "scores": list(outcome.scores),
                        "winners": list(outcome.winners),
                        "reason": outcome.reason,
                    }
                )
            self._send({"type": "quit"})
        self.outbox.put(None)
        _end(process, QUIT_MS / 1000 if self.gone is None else 0.0)
        # Running until now: what ends tapete while the bot is given its seconds to exit (a
        # signal, an exception) ends it too (``_end_all``).
        _RUNNING.discard(self)

    # --- the lines -----------------------------------------------------------------------

    def _handshake(self) -> None:
        line = self._line(self.hello_ms, "to the hello")
        if line is None:
            raise self._lost("at the hello")
        # A byte order mark may open the output of a program whose runtime writes UTF-8 so.
        line = line.strip().removeprefix("\ufeff")
        if line.split(maxsplit=1)[:1] != ["ready"]:
            self.gone = f"answered the hello with {_shown(line)}, not ready"
            self.close()
            raise self._stopped()
        self.ready = True

    def _answer(self) -> str:
        """The line that answers the current decision. While the bot still owes the answer to
        a decision that timed out, it has one more budget to give it (dropped: a random move
        was played); this decision's budget starts once it has, when the bot is free."""
        budget = (self.ms + GRACE_MS) / 1000
        deadline = time.monotonic() + budget
        while True:
            try:
                line = self._next(deadline - time.monotonic())
            except queue.Empty:
                late = self.owed > 0
                self.owed += 1
                if late:
                    raise self._told(
                        f"still busy with decision {self.decisions - self.owed + 1}"
                        f" after {self.ms} ms more{self._unended()}"
                    ) from None
                raise self._told(f"no answer within {self.ms} ms{self._unended()}") from None
            if line is None:
                raise self._lost(f"at decision {self.decisions}")
            if self.owed:  # a timed-out decision's answer, arriving now: not this one's
                self.owed -= 1
                if not self.owed:
                    deadline = time.monotonic() + budget
                continue
            return line.strip()

    def _drop_stray(self) -> None:
        """Drop every line the bot has written so far: the decide this precedes is not sent
        yet, so none of them answers it. A timed-out decision's late answer among them pays
        what is owed (as in ``_answer``); any other is a stray line, which left queued would be
        taken for this decision's answer, and this one's for the next, to the match's end.
        After an answer that was no legal action, what the bot writes until it has been silent
        ``QUIET_MS`` (within a decision's budget) is dropped too. The end of the bot's output
        stays queued for ``_answer`` to report with the exit code.
        """
        if self.reader is not None:
            # A line written a moment ago may still be in the pipe, or read but not queued.
            self.reader.catch_up(CATCH_UP_MS / 1000)
        # After an answer that was no legal action the bot may be a line out of step (a note,
        # then its answer a moment later): wait for it to fall silent, or that late answer
        # would be taken for this decision's, and this one's for the next.
        quiet = QUIET_MS / 1000 if self.out_of_step else 0.0
        self.out_of_step = False
        limit = time.monotonic() + (self.ms + GRACE_MS) / 1000
        while True:
            left = limit - time.monotonic()
            if left <= 0:
                # A bot that never falls silent (it floods its output) would be waited for, and
                # its lines dropped, for ever: the decide goes now, and takes what comes.
                return
            try:
                line = self.lines.get(timeout=min(quiet, left))
            except queue.Empty:
                return
            if line is None:
                self.lines.put(None)  # nothing follows the end: it is still the last item
                return
            if self.owed:
                self.owed -= 1
                continue
            self._stray(line)

    def _stray(self, line: str) -> None:
        """Count a stray line; the first one in a match is told on stderr, naming it."""
        self.stray += 1
        if self.stray > 1:
            return
        print(
            f"{self.command}: {self.name} at seat {self.seat}"
            f"{' of ' + self.match if self.match else ''}: dropped the line"
            f" {_shown(line.strip())}, written when no decision was waiting for an answer"
            " (seen before decision"
            f" {self.decisions}); the protocol takes one line for each decide, notes go to"
            " standard error. Any more such lines in this match are dropped without a word.",
            file=sys.stderr,
            flush=True,
        )

    def _line(self, ms: int, what: str) -> str | None:
        try:
            return self._next(ms / 1000)
        except queue.Empty:
            # Most often the answer was written and sits in the bot's output buffer, unflushed.
            self.gone = f"gave no answer {what} within {ms / 1000:g} s" + (
                self._unended()
                or " (a line not flushed stays in the bot's buffer: flush standard output after"
                " each line)"
            )
            self.close()
            raise self._stopped() from None

    def _next(self, seconds: float) -> str | None:
        """The bot's next line within ``seconds`` (else queue.Empty), or None when it has ended
        its output or exited with nothing more written. Exited is checked as it waits, because
        the end of its output never comes while something it started still holds it open."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                return self.lines.get(timeout=max(0.0, min(EXIT_POLL_MS / 1000, left)))
            except queue.Empty:
                if self.process is not None and self.process.poll() is not None:
                    if self.reader is not None:  # what it wrote before it exited comes first
                        self.reader.catch_up(CATCH_UP_MS / 1000)
                    try:
                        return self.lines.get_nowait()
                    except queue.Empty:
                        return None
                if left <= 0:
                    raise

    def _unended(self) -> str:
        """What to add to "no answer" when the bot has written the start of a line but not its
        end (an answer written without its newline, which is no answer yet), else ""."""
        if self.reader is None:
            return ""
        with self.reader.lock:
            started = self.reader.partial.decode("utf-8", "replace").strip()
        if not started:
            return ""
        return f": it wrote {_shown(started)} but never ended the line (write a newline after it)"

    def _stopped(self) -> BotError:
        return BotError(f"the bot {self.gone}; it plays no more in this match", final=True)

    def _told(self, problem: str) -> BotError:
        """A failed decision: the bot is told, and the error says it for tapete's log."""
        message = f"decision {self.decisions}: {problem}; a random legal move is played for you"
        self._send({"type": "error", "decision": self.decisions, "message": message})
        return BotError(f"decision {self.decisions}: {problem}")

    def _lost(self, when: str) -> BotError:
        process = self.process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        how = (
            "closed its output"
            if code is None
            else f"was killed by signal {-code}"
            if code < 0
            else f"exited with code {code}"
        )
        self.gone = f"it {how} {when}"
        self.close()
        return BotError(f"the bot {how} {when}; it plays no more in this match", final=True)

    def _send(self, message: Mapping[str, Any]) -> None:
        if self.process is None or self.gone is not None:
            return
        self.outbox.put(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")


# Where the pipe can be polled (not Windows), the reader waits for bytes unlocked and reads and
# queues them locked, so a caller holding the lock knows every byte is in the pipe or queued.
_POLL = hasattr(select, "poll")


class _Reader:
    """Queues every line the bot writes (a str with its newline), then None when it closes its
    output (exits); ``catch_up`` waits until what the bot has written so far is queued.

    Why: the thread that reads the pipe needs the interpreter lock to queue what it has read,
    and the match's thread may hold it for milliseconds, enough to play the other seats and ask
    this bot its next decision while a line written before that decision is still on its way.
    """

    def __init__(self, stream: IO[str], lines: queue.Queue[str | None]) -> None:
        self.stream = stream  # kept, so its descriptor stays open while it is read
        self.fd = stream.fileno()
        self.lines = lines
        self.lock = threading.Lock()
        self.partial = b""  # the start of a line whose end has not come yet (LINE_BYTES at most)
        self.ended = False

    def run(self) -> None:
        """The reading thread: until the end of the bot's output, or an error reading it."""
        waiter = _poller(self.fd)
        with contextlib.suppress(OSError, ValueError):
            while not self.ended:
                if waiter is not None:
                    waiter.poll()  # unlocked: the bytes are still in the pipe
                    with self.lock:
                        self._take(os.read(self.fd, 65536))
                else:
                    chunk = os.read(self.fd, 65536)
                    with self.lock:
                        self._take(chunk)
        with self.lock:
            self._take(b"")

    def catch_up(self, limit: float) -> None:
        """Return once every byte the bot has written is queued as lines (a line it is halfway
        through writing is waited for), or after ``limit`` seconds. Without ``poll`` the bytes
        still in the pipe cannot be seen: a line it has begun is waited for, no more."""
        checker = _poller(self.fd)
        deadline = time.monotonic() + limit
        while True:
            with self.lock:
                if self.ended:
                    return
                waiting = bool(self.partial) or (checker is not None and bool(checker.poll(0)))
            if not waiting or time.monotonic() >= deadline:
                return
            time.sleep(0.0005)  # the reader's turn: it needs the interpreter lock to go on

    def _take(self, chunk: bytes) -> None:
        """Queue the lines ``chunk`` completes; an empty chunk is the end (a last line without
        its newline is queued too, then None). Called with the lock held."""
        if self.ended:
            return
        if not chunk:
            if self.partial:
                self.lines.put(self.partial.decode("utf-8", "replace"))
            self.partial, self.ended = b"", True
            self.lines.put(None)
            return
        *complete, rest = chunk.split(b"\n")
        if complete:
            first, self.partial = self._kept(complete[0]), b""
            # Past QUEUED_LINES waiting, the lines are dropped: no decision waits for them.
            room = max(0, QUEUED_LINES - self.lines.qsize())
            for line in [first, *complete[1:room]][:room]:
                self.lines.put(line[:LINE_BYTES].decode("utf-8", "replace") + "\n")
        self.partial = self._kept(rest)

    def _kept(self, piece: bytes) -> bytes:
        """The line so far with ``piece`` added, up to ``LINE_BYTES``: past that it is dropped."""
        room = LINE_BYTES - len(self.partial)
        return self.partial + piece[:room] if room > 0 and piece else self.partial


def _shown(text: str) -> str:
    """``text`` quoted for a message; a long line is cut to its first ``SHOWN`` characters.

    >>> _shown("bid 9")
    "'bid 9'"
    >>> _shown("x" * 100_000) == repr("x" * 80) + "… (a line of over 80 characters)"
    True
    """
    if len(text) <= SHOWN:
        return repr(text)
    return f"{text[:SHOWN]!r}… (a line of over {SHOWN} characters)"


def _poller(fd: int) -> Any:
    """A poll object for reading ``fd``, or None where pipes cannot be polled (Windows)."""
    if not _POLL:
        return None
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return poller


def _write(stream: IO[str], outbox: queue.Queue[str | None]) -> None:
    """Every message to the bot, in order, until None (then its input is closed) or until it
    exits (the reader then says so, with its exit code)."""
    with contextlib.suppress(OSError, ValueError):
        while (text := outbox.get()) is not None:
            stream.write(text)
            stream.flush()
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _end(process: subprocess.Popen[str], wait: float) -> None:
    """Let ``process`` exit within ``wait`` seconds, else terminate it, else kill it — with
    whatever it started (its session's process group)."""
    kill = signal.SIGKILL if os.name == "posix" else signal.SIGTERM
    for sig, seconds in ((None, wait), (signal.SIGTERM, 1.0), (kill, 1.0)):
        if sig is not None:
            _signal(process, sig)
        try:
            process.wait(timeout=seconds)
            break
        except subprocess.TimeoutExpired:
            continue
    if os.name == "posix":
        _signal(process, signal.SIGKILL)  # anything it left running in its session
    # Its output is left to the reader thread, which ends at the end of the pipe: closing it
    # here would wait for that thread's read.


def _signal(process: subprocess.Popen[str], sig: int) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
    except (ProcessLookupError, PermissionError, OSError):
        pass


@atexit.register
def _end_all() -> None:
    """An interrupted match leaves no bot running, nor one that was being closed."""
    for bot in list(_RUNNING):
        if bot.closed:  # its close was cut short: no more seconds to exit
            if bot.process is not None:
                _signal(bot.process, signal.SIGKILL if os.name == "posix" else signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    bot.process.wait(timeout=1)
            _RUNNING.discard(bot)
            continue
        bot.gone = bot.gone or "tapete exited"
        bot.close()


# Signals that end tapete without running its exit handlers (a bot in its own session does not
# get them): ``kill``, ``timeout``, a closed terminal.
_STOPPING = ("SIGTERM", "SIGHUP")


def _end_all_on_signals() -> None:
    """From the first bot started, SIGTERM and SIGHUP end the bots before they end tapete, as
    they would have (only where nobody has handled them: a program around tapete may have)."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread can handle signals
    for name in _STOPPING:
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) == signal.SIG_DFL:
            signal.signal(number, _end_all_and_stop)


def _end_all_and_stop(number: int, frame: Any) -> None:
    """End every bot, then let the signal end tapete as it would have."""
    _end_all()
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)
