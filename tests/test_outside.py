"""Outside bots (docs/bot-protocol.md): programs that play a seat over stdin and stdout, as the
``tapete`` command runs them — whole matches of every game, in play and in the arena, and the
bots that fail: too slow, talking nonsense, dying mid-match, never leaving."""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import tapete
from support import at_a_terminal
from tapete import SpecError, arena, bots, players, record
from tapete.outside import LINE_BYTES, QUEUED_LINES, BotError, ExecBot, _Reader, from_spec

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "first_legal_bot.py"
SHELL_EXAMPLE = ROOT / "examples" / "first_legal_bot.sh"

# A short match of every game, so a whole one is played in seconds.
SPECS = {
    "pocha": "pocha(schedule=[1, 2])",
    "oh_hell": "oh_hell(players=3, schedule=[1, 2])",
    "poch": "poch(players=3, rounds=2)",
    "pottle": "pottle(deals=2, extra_deals=1)",
    "truco": "truco(players=4, target=3)",
    "tute": "tute(players=4)",
}

# A bot that answers the first legal action, with one misbehaviour put in by the test: the
# line MISCHIEF runs on decision number ``n`` (its answer is ``answer``).
TEMPLATE = """
import json, os, sys, time
n = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(HELLO, flush=True)
    elif message["type"] == "decide":
        n += 1
        answer = message["legal"][0]
        MISCHIEF
        print(answer, flush=True)
    elif message["type"] == "error":
        print("bot was told:", message["message"], file=sys.stderr, flush=True)
        with open(__file__ + ".told", "a") as told:
            told.write(message["message"] + "\\n")
    elif message["type"] == "end":
        print("bot saw the end:", message["scores"], file=sys.stderr, flush=True)
    elif message["type"] == "quit":
        break
"""


def bot_script(tmp_path: Path, mischief: str = "pass", hello: str = '"ready"') -> Path:
    path = tmp_path / "bot.py"
    path.write_text(TEMPLATE.replace("MISCHIEF", mischief).replace("HELLO", hello), "utf-8")
    return path


def exec_seat(*argv: str | Path, ms: int | None = None) -> str:
    cmd = shlex.join(str(a) for a in argv)
    return f"exec(cmd={json.dumps(cmd)}" + (f", ms={ms})" if ms else ")")


def python_seat(script: Path, ms: int | None = None) -> str:
    return exec_seat(sys.executable, script, ms=ms)


def tapete_run(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tapete.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def played(path: Path, seat: int) -> tuple[list[bool], record.Record]:
    """For each decision of ``seat`` in the recorded match: whether it was the first legal
    action (what the bots here answer when they answer in time)."""
    rec = record.read(path)
    game = tapete.load(rec.game)
    firsts = [
        action == game.legal_actions(before)[0]
        for _, before, who, action, _ in record.steps(rec)
        if who == seat
    ]
    return firsts, rec


# --- whole matches ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_example_bot_plays_a_whole_match_of_every_game(name: str, tmp_path: Path) -> None:
    assert set(SPECS) == set(tapete.game_names())
    spec, path = SPECS[name], tmp_path / "match.json"
    seats = tapete.load(spec).players
    run = tapete_run(
        "play",
        spec,
        "--seats",
        ",".join([python_seat(EXAMPLE)] * (seats - 1) + ["random"]),
        "--seed",
        "11",
        "--record",
        str(path),
    )
    assert run.returncode == 0, run.stderr
    assert "match over:" in run.stdout and "failed" not in run.stderr, run.stderr
    for seat in range(seats - 1):
        firsts, rec = played(path, seat)
        assert firsts and all(firsts)  # every answer the bot gave was played
        assert rec.seats[seat].bot == python_seat(EXAMPLE)
    assert tapete_run("replay", str(path), "--plain").returncode == 0


def test_the_bot_of_the_protocol_page_plays_a_whole_match(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    sample = re.search(r"```python\n(.*?)```", page, re.DOTALL)
    assert sample is not None
    script = tmp_path / "mybot.py"
    script.write_text(sample.group(1), encoding="utf-8")
    seats = ",".join([python_seat(script)] + ["random"] * 3)
    run = tapete_run("play", SPECS["pocha"], "--seats", seats, "--seed", "5")
    assert run.returncode == 0, run.stderr
    assert "match over:" in run.stdout and "failed" not in run.stderr, run.stderr


def test_a_person_at_a_terminal_with_an_outside_bot_is_told_why_the_line_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAPETE_DATA", str(tmp_path))
    seats = f"human,{python_seat(EXAMPLE)},random"
    shown = at_a_terminal(
        "play", "pocha(players=3, schedule=[1])", "--seats", seats, "--lang", "en",
        until="your move",
    )  # fmt: skip
    assert "the table cannot seat an outside bot" in shown
    assert "your move" in shown


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")
def test_the_shell_example_plays_a_whole_match(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    seat = exec_seat("sh", SHELL_EXAMPLE)
    run = tapete_run(
        "play", SPECS["truco"], "--seats", f"{seat},random,{seat},random", "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    assert "failed" not in run.stderr
    assert all(played(path, 0)[0]) and all(played(path, 2)[0])


def test_the_arena_plays_outside_bots_in_its_worker_processes(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    run = tapete_run(
        "arena",
        SPECS["pocha"],
        "--bots",
        f"{python_seat(EXAMPLE)},hard(ms=20, iterations=4)",
        "--matches",
        "8",
        "--workers",
        "2",
        "--json",
        str(out),
    )
    assert run.returncode == 0, run.stderr
    assert "failed" not in run.stderr
    data = json.loads(out.read_text("utf-8"))
    assert data["bots"] == [python_seat(EXAMPLE), "hard(ms=20, iterations=4)"]
    assert len(data["matches"]) == 8


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_example_bot_plays_every_game_in_the_arena(name: str) -> None:
    result = arena.run(SPECS[name], [python_seat(EXAMPLE), "random"], matches=2, workers=1)
    assert result.bots == (python_seat(EXAMPLE), "random")
    assert all(m.scores for m in result.matches) and result.groups == 2


# The facts of a decide, checked by the bot against the presented view: its own seat is to act,
# and its hand holds as many cards (ints) as the view shows as text.
FACTS_CHECK = """
facts = message["facts"]
me = facts["seat"]
texts = sorted(message["view"]["hand"])
ok = facts["turn"] == me and len(facts["hands"][me]) == len(texts)
with open(__file__ + ".facts", "a") as out:
    out.write(f"{ok} {facts['phase']}\\n")
"""


@pytest.mark.parametrize("name", ["pocha", "truco", "poch"])
def test_a_bot_reads_the_facts_of_its_view_without_parsing_words(name: str, tmp_path: Path) -> None:
    script = bot_script(tmp_path, FACTS_CHECK.strip().replace("\n", "\n        "))
    spec = SPECS[name]
    others = ["random"] * (tapete.load(spec).players - 1)
    run = tapete_run(
        "play", spec, "--seats", ",".join([python_seat(script), *others]), "--seed", "3"
    )
    assert run.returncode == 0 and "failed" not in run.stderr, run.stderr
    checks = (tmp_path / "bot.py.facts").read_text("utf-8").split("\n")[:-1]
    assert checks and all(line.startswith("True ") for line in checks), checks


# --- bots that fail --------------------------------------------------------------------------


def test_a_bot_that_answers_too_late_gets_a_random_move_and_its_late_answer_is_dropped(
    tmp_path: Path,
) -> None:
    # Late past its budget (1 s and tapete's 0.25 s grace) but within the next, then in time.
    bot = bot_script(tmp_path, "if n == 2: time.sleep(1.9)")
    path = tmp_path / "match.json"
    seat = python_seat(bot, ms=1000)
    run = tapete_run(
        "play", SPECS["pocha"], "--seats", f"{seat},random,random,random", "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    said = f"{seat} (0) failed to choose a move (BotError: decision 2: no answer within 1000 ms);"
    assert said in run.stderr and run.stderr.count("failed to choose") == 1, run.stderr
    assert "bot was told: decision 2: no answer within 1000 ms; a random legal move" in run.stderr
    # Decision 3 is answered by the bot's answer to decision 3, not by the late one to 2.
    firsts, _ = played(path, 0)
    assert firsts[:1] + firsts[2:] == [True] * (len(firsts) - 1)


def test_a_bot_that_answers_garbage_is_told_why_and_a_legal_move_is_played(
    tmp_path: Path,
) -> None:
    bot = bot_script(tmp_path, "answer = {1: 'fold', 2: 'bid 1'}.get(n, answer)")
    path = tmp_path / "match.json"
    seat = python_seat(bot)
    run = tapete_run(
        "play", SPECS["pocha"], "--seats", f"{seat},random,random,random", "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    assert "decision 1: answered 'fold': 'fold' is not an action: write 'bid N'" in run.stderr
    assert "decision 2: answered 'bid 1', which is not legal now (legal: play " in run.stderr
    assert run.stderr.count("failed to choose a move") == 2, run.stderr
    told = Path(f"{bot}.told").read_text("utf-8").splitlines()
    assert [line.split(":")[0] for line in told] == ["decision 1", "decision 2"], run.stderr
    firsts, rec = played(path, 0)
    assert all(firsts[2:]) and rec.result is not None


def test_a_bot_that_answers_a_huge_line_is_told_so_in_a_few_words(tmp_path: Path) -> None:
    # Decision 2's answer is a line of 4 MB: the message quotes its start, not all of it (on
    # tapete's stderr and in the error line to the bot), and the match goes on as for garbage.
    bot = bot_script(tmp_path, "if n == 2: answer = 'play ' + 'x' * 4_000_000")
    path = tmp_path / "match.json"
    seat = python_seat(bot)
    run = tapete_run(
        "play", SPECS["pocha"], "--seats", f"{seat},random,random,random", "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    said = "decision 2: answered 'play xxxx"
    assert said in run.stderr and run.stderr.count("failed to choose a move") == 1, run.stderr
    assert "xxx'… (a line of over 80 characters), which is no action" in run.stderr
    assert len(run.stderr) < 5000
    told = Path(f"{bot}.told").read_text("utf-8").splitlines()
    assert len(told) == 1 and told[0].startswith(said) and len(told[0]) < 300
    firsts, rec = played(path, 0)
    assert firsts[:1] + firsts[2:] == [True] * (len(firsts) - 1) and rec.result is not None


def test_a_line_that_never_ends_is_kept_to_its_first_64_kib() -> None:
    # What a bot writes without a newline is not all held in memory: past LINE_BYTES it is
    # dropped, up to the end of the line; the next line is whole.
    read_fd, write_fd = os.pipe()
    lines: queue.Queue[str | None] = queue.Queue()
    reader = _Reader(os.fdopen(read_fd, encoding="utf-8"), lines)
    thread = threading.Thread(target=reader.run, daemon=True)
    thread.start()
    with os.fdopen(write_fd, "wb") as pipe:
        pipe.write(b"y" * (64 * LINE_BYTES) + b"z\nbid 1\n")
    thread.join(10)
    assert lines.get(timeout=1) == "y" * LINE_BYTES + "\n"
    assert [lines.get(timeout=1), lines.get(timeout=1)] == ["bid 1\n", None]


# From decision 2 on, a thread writes short lines to standard output without end, between and
# around the bot's answers.
FLOOD = (
    "if n == 2: __import__('threading').Thread(target=lambda: [sys.stdout.write('noise\\n' * 1000)"
    " for _ in iter(int, 1)], daemon=True).start()"
)


def test_a_bot_that_floods_its_output_never_stalls_the_match(tmp_path: Path) -> None:
    # The lines keep coming faster than they can be dropped: before, tapete dropped them
    # before the next decide for ever, and the match never went on.
    bot = bot_script(tmp_path, FLOOD)
    path = tmp_path / "match.json"
    seat = python_seat(bot, ms=200)
    run = tapete_run(
        "play",
        SPECS["pocha"],
        "--seats",
        f"{seat},random,random,random",
        "--record",
        str(path),
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "match over:" in run.stdout
    assert "answered 'noise': 'noise' is not an action" in run.stderr
    firsts, rec = played(path, 0)
    assert firsts[0] and rec.result is not None


def test_lines_written_faster_than_asked_for_are_not_all_held(tmp_path: Path) -> None:
    # A bot that writes a million lines nobody asked for: tapete holds a few of them, not all
    # (each decide takes one line; the rest would fill its memory while a person thinks).
    done = tmp_path / "done"
    script = tmp_path / "flood.py"
    script.write_text(
        "import sys, time\n"
        "print('ready', flush=True)\n"
        "for _ in range(1000):\n"
        "    sys.stdout.write('noise\\n' * 1000)\n"
        "sys.stdout.flush()\n"
        f"open({str(done)!r}, 'w').close()\n"
        "time.sleep(60)\n",
        "utf-8",
    )
    bot = ExecBot([sys.executable, str(script)], ms=200)
    bot.sit(tapete.load(SPECS["pocha"]), 0)
    try:
        for _ in range(600):  # the writes end only once the pipe is read: the reader reads
            if done.exists():
                break
            time.sleep(0.1)
        assert done.exists()
        assert bot.reader is not None
        bot.reader.catch_up(5)
        assert bot.lines.qsize() <= QUEUED_LINES
    finally:
        bot.close()


needs_sleep = pytest.mark.skipif(shutil.which("sleep") is None, reason="needs a sleep program")


def stray_run(tmp_path: Path, mischief: str) -> tuple[subprocess.CompletedProcess[str], list[bool]]:
    """A match of seat 0's misbehaving bot against random ones: the run, and for each of the
    bot's decisions whether the first legal action (its answer) was played."""
    path = tmp_path / "match.json"
    seat = python_seat(bot_script(tmp_path, mischief))
    run = tapete_run(
        "play", SPECS["pocha"], "--seats", f"{seat},random,random,random", "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    firsts, _ = played(path, 0)
    assert len(firsts) > 3
    return run, firsts


def dropped(line: str, decision: int) -> str:
    return (
        f"at seat 0: dropped the line {line}, written when no decision was waiting for an"
        rf" answer \(seen before decision {decision}\)"
    )


@pytest.mark.parametrize(
    "mischief",
    [
        # The note and the answer in one line of code: one write, or two a moment apart.
        "if n == 2: answer = 'thinking hard\\n' + answer",
        # The note, then the answer after a while (the bot went on thinking).
        "if n == 2: print('thinking hard', flush=True); time.sleep(0.005)",
    ],
    ids=["at-once", "later"],
)
def test_a_note_before_the_answer_costs_that_decision_and_no_other(
    tmp_path: Path, mischief: str
) -> None:
    # The note is taken for decision 2's answer; the answer after it, left over, must not be
    # taken for decision 3's, nor decision 3's for decision 4's, to the end of the match.
    run, firsts = stray_run(tmp_path, mischief)
    assert "decision 2: answered 'thinking hard': 'thinking hard' is not an action" in run.stderr
    assert run.stderr.count("failed to choose a move") == 1, run.stderr
    assert re.search(dropped(r"'play \w+'", 3), run.stderr), run.stderr
    assert firsts[:1] + firsts[2:] == [True] * (len(firsts) - 1)


def test_a_bot_that_answers_twice_loses_no_decision_and_is_told_once(tmp_path: Path) -> None:
    # The first three answers are written twice.
    run, firsts = stray_run(tmp_path, "if n <= 3: answer = answer + '\\n' + answer")
    assert "failed" not in run.stderr, run.stderr
    assert run.stderr.count("dropped the line") == 1, run.stderr
    assert re.search(dropped("'bid 0'", 2), run.stderr), run.stderr
    assert all(firsts)


def test_a_stray_line_is_told_under_the_running_commands_name(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # In the arena every message starts "tapete arena:", the stray-line one too.
    run, _ = stray_run(tmp_path, "if n == 1: answer = answer + '\\n' + answer")
    assert re.search("^tapete: .*" + dropped("'bid 0'", 2), run.stderr, re.M), run.stderr
    seat = python_seat(bot_script(tmp_path, "if n == 1: answer = answer + '\\n' + answer"))
    arena.run(SPECS["pocha"], [seat, "random"], matches=1, workers=1)
    told = [line for line in capfd.readouterr().err.splitlines() if "dropped the line" in line]
    assert told and all(line.startswith(f"tapete arena: {seat} at seat ") for line in told), told


def test_a_stray_line_in_the_arena_names_its_match(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # Three seats, two bots: six matches share each seed, and the bot is at each seat in three.
    seat = python_seat(bot_script(tmp_path, "if n == 1: answer = answer + '\\n' + answer"))
    result = arena.run("pocha(players=3, schedule=[1, 2])", [seat, "random"], matches=6, workers=1)
    told = [line for line in capfd.readouterr().err.splitlines() if "dropped the line" in line]
    # Once a match for each process of the bot: one line for each of the bot's seats.
    assert len(told) == sum(m.seats.count(0) for m in result.matches), told
    assert len(set(told)) == len(told), "\n".join(told)
    assert all(" of the match --seed " in line for line in told), told


# A program it started, left running, holds the bot's output open: its end never comes.
ORPHAN = "os.spawnlp(os.P_NOWAIT, 'sleep', 'sleep', '30')"


@pytest.mark.parametrize(
    "orphan", [False, pytest.param(True, marks=needs_sleep)], ids=["alone", "orphan"]
)
def test_a_bot_that_crashes_mid_match_is_reported_and_the_match_goes_on(
    tmp_path: Path, orphan: bool
) -> None:
    bot = bot_script(tmp_path, f"if n == 3: {ORPHAN if orphan else 'None'}; sys.exit(3)")
    path = tmp_path / "match.json"
    seat = python_seat(bot)
    run = tapete_run(
        "play", SPECS["pocha"], "--seats", f"{seat},random,random,random", "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    assert "match over:" in run.stdout
    crash = (
        "the bot exited with code 3 at decision 3; it plays no more in this match);"
        " random legal moves are played for it from now on"
    )
    # Said once, not again at each of the decisions after, all played for it.
    assert run.stderr.count(crash) == 1 and run.stderr.count("failed") == 1, run.stderr
    firsts, _ = played(path, 0)
    assert len(firsts) > 3
    assert "bot saw the end" not in run.stderr


@needs_sleep
def test_a_bot_that_exits_at_once_is_not_waited_for(tmp_path: Path) -> None:
    # It exits before the hello, leaving a program that holds its output open: the exit is
    # told at once, not after the 10 s given to answer the hello.
    bot = bot_script(tmp_path, hello=f"{ORPHAN} and sys.exit(4)")
    start = time.monotonic()
    run = tapete_run("play", SPECS["pocha"], "--seats", f"{python_seat(bot)},random,random,random")
    assert run.returncode == 0, run.stderr
    assert "the bot exited with code 4 at the hello; it plays no more" in run.stderr
    assert run.stderr.count("failed") == 1 and time.monotonic() - start < 8, run.stderr


def test_the_arena_reports_a_failing_bot_and_plays_on(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    seat = python_seat(bot_script(tmp_path, "answer = 'fold' if n == 2 else answer"))
    result = arena.run(SPECS["pocha"], [seat, "random"], matches=4, workers=1)
    assert len(result.matches) == 4
    told = capfd.readouterr().err
    # Each match is a fresh process whose second decision fails: 4 matches, 2 seats each.
    assert told.count(f"tapete arena: {seat} at seat ") == 8, told
    assert "failed to choose a move (BotError: decision 2: answered 'fold': " in told
    assert result.bot_result(seat).stand_ins == 8  # and the result counts them
    assert result.bot_result("random").stand_ins == 0


def test_the_arena_names_the_match_a_bot_failed_in_so_that_it_can_be_played_again(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # Three seats, two bots: the six matches of a duplicate group share one seed, and the bot
    # sits at seat 2 in three of them, so the seed and the seat alone name no one match.
    seat = python_seat(bot_script(tmp_path, "answer = 'fold' if n == 2 else answer"))
    spec = "pocha(players=3, schedule=[1, 2])"
    result = arena.run(spec, [seat, "random"], matches=6, workers=1)
    told = [line for line in capfd.readouterr().err.splitlines() if "failed to choose" in line]
    assert len(told) == result.bot_result(seat).stand_ins > 0, told
    assert len(set(told)) == len(told), "\n".join(told)  # each line tells of a match of its own
    # What a line names is what tapete play takes, and the match it plays is the arena's.
    named = re.search(r"of the match --seed (\d+) --seats (.+?): failed", told[-1])
    assert named is not None, told[-1]
    seed, seats = named[1], shlex.split(named[2])[0]
    path = tmp_path / "again.json"
    run = tapete_run(
        "play", spec, "--plain", "--seed", seed, "--seats", seats, "--record", str(path)
    )
    assert run.returncode == 0, run.stderr
    rec = record.read(path)
    final = list(record.steps(rec))[-1][4]
    outcome = tapete.load(spec).outcome(final)
    assert outcome is not None
    names = [seat, "random"]
    arena_scores = {(m.seed, ",".join(names[b] for b in m.seats)): m.scores for m in result.matches}
    assert arena_scores[(int(seed), seats)] == tuple(outcome.scores)


def test_the_arena_counts_every_decision_of_a_bot_that_answers_garbage(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # Each decide the bot's processes get is counted by the bot itself, in a file.
    bot = bot_script(tmp_path, "answer = 'garbage'; open(__file__ + '.n', 'a').write('.')")
    seat = python_seat(bot)
    result = arena.run(SPECS["pocha"], [seat, "random"], matches=4, workers=1)
    capfd.readouterr()
    faced = len(Path(f"{bot}.n").read_text("utf-8"))
    mine, other = result.bot_result(seat), result.bot_result("random")
    assert (mine.decisions, mine.stand_ins) == (faced, faced) and faced > 0
    assert other.decisions > 0 and other.stand_ins == 0
    assert result.warnings() == [mine.warning]
    assert f"{seat} failed {faced} of its {faced} decisions (100%)" in result.warnings()[0]


def test_a_bot_that_does_not_greet_is_not_asked_again(tmp_path: Path) -> None:
    bot = bot_script(tmp_path, hello='"hello?"')
    seat = python_seat(bot)
    run = tapete_run("play", SPECS["pocha"], "--seats", f"{seat},random,random,random")
    assert run.returncode == 0, run.stderr
    assert "the bot answered the hello with 'hello?', not ready; it plays no more" in run.stderr
    assert "the bot is not playing" not in run.stderr and run.stderr.count("failed") == 1


def test_a_byte_order_mark_before_ready_is_no_matter(tmp_path: Path) -> None:
    # As a .NET program writing UTF-8 may open its output: the greeting is still ready.
    bot = bot_script(tmp_path, hello='"\\ufeffready mybot"')
    run = tapete_run("play", SPECS["pocha"], "--seats", f"{python_seat(bot)},random,random,random")
    assert run.returncode == 0, run.stderr
    assert "failed" not in run.stderr and "match over:" in run.stdout, run.stderr


@pytest.mark.skipif(os.name != "posix", reason="a program the system cannot run")
def test_a_program_that_cannot_be_started_is_told_once(tmp_path: Path) -> None:
    # Executable, so found, but with no #! line: the system will not run it. Its random
    # stand-ins were played without a word.
    script = tmp_path / "bot"
    script.write_text("echo ready\n", "utf-8")
    script.chmod(0o755)
    run = tapete_run("play", SPECS["pocha"], "--seats", f"{exec_seat(script)},random,random,random")
    assert run.returncode == 0, run.stderr
    assert "match over:" in run.stdout
    said = "failed to choose a move (BotError: the bot could not be started: "
    assert said in run.stderr and "it plays no more in this match" in run.stderr, run.stderr
    assert run.stderr.count("failed") == 1, run.stderr


def test_a_silent_bot_times_out_at_the_hello(tmp_path: Path) -> None:
    bot = bot_script(tmp_path, hello='time.sleep(30) or "ready"')
    game = tapete.load(SPECS["pocha"])
    slow = ExecBot([sys.executable, str(bot)], ms=100, hello_ms=300)
    with players.seated(game, [slow]):
        state = game.new_state(seed=1)
        view = game.observe(state, 0)
        with pytest.raises(BotError, match=r"gave no answer to the hello within 0\.3 s"):
            slow.choose(view, game.legal_actions(state), None)
    assert slow.process is not None and slow.process.returncode is not None


def test_a_bot_that_does_not_flush_its_ready_is_told_to_flush(tmp_path: Path) -> None:
    # Its ready sits in its own output buffer (standard output to a pipe is buffered): the
    # message says where the answer most likely is, not only that none came.
    bot = tmp_path / "unflushed.py"
    bot.write_text(
        "import sys\n"
        "out = open(1, 'w', buffering=8192, closefd=False)  # buffered, whatever the environment\n"
        "out.write('ready\\n')\n"
        "for line in sys.stdin:\n"
        "    pass\n",
        "utf-8",
    )
    failed, _ = first_decision_fails(bot)
    assert "gave no answer to the hello within 0.3 s" in failed
    assert "flush standard output after each line" in failed


def first_decision_fails(bot: Path) -> tuple[str, str]:
    """The script ``bot`` seated at a one-hand Pocha (100 ms a decision, 300 ms for its hello):
    its first decision's BotError in words, and the notation of the first legal action."""
    game = tapete.load(SPECS["pocha"])
    seated = ExecBot([sys.executable, str(bot)], ms=100, hello_ms=300)
    with players.seated(game, [seated]):
        state = game.new_state(seed=1)
        with pytest.raises(BotError) as failed:
            seated.choose(game.observe(state, 0), game.legal_actions(state), None)
    return str(failed.value), game.format_action(game.legal_actions(state)[0])


@pytest.mark.parametrize("hello", [True, False], ids=["ready", "answer"])
def test_a_bot_that_does_not_end_its_line_is_told_so(tmp_path: Path, hello: bool) -> None:
    # Written without its newline, the line is no answer yet: the message names what came.
    bot = tmp_path / "unended.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'hello':\n"
        f"        sys.stdout.write('ready' + {'' if hello else chr(10)!r})\n"
        "    elif message['type'] == 'decide':\n"
        "        sys.stdout.write(message['legal'][0])\n"
        "    sys.stdout.flush()\n",
        "utf-8",
    )
    failed, first = first_decision_fails(bot)
    said = "'ready'" if hello else repr(first)
    assert f"it wrote {said} but never ended the line" in failed


def test_the_bot_hears_the_end_and_quits(tmp_path: Path) -> None:
    bot = bot_script(tmp_path)
    path = tmp_path / "match.json"
    seats = f"{python_seat(bot)},random,random,random"
    run = tapete_run("play", SPECS["pocha"], "--seats", seats, "--record", str(path))
    assert run.returncode == 0, run.stderr
    result = record.read(path).result
    assert result is not None
    assert f"bot saw the end: {list(result['scores'])}" in run.stderr


def test_a_bot_that_ignores_quit_and_sigterm_is_killed(tmp_path: Path) -> None:
    bot = tmp_path / "stubborn.py"
    bot.write_text(
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n",
        "utf-8",
    )
    game = tapete.load(SPECS["pocha"])
    stubborn = ExecBot([sys.executable, str(bot)])
    with players.seated(game, [stubborn]):
        pass
    assert stubborn.process is not None and stubborn.process.returncode == -signal.SIGKILL


def test_bots_that_linger_are_ended_together_not_one_after_another(tmp_path: Path) -> None:
    # Each bot ignores quit and SIGTERM; asked to stop (SIGTERM), it notes how many of the four
    # bots still run. Ended one after another, each would find the ones before it gone: the
    # wait for a match to end would grow by two seconds a seat.
    bot = tmp_path / "stubborn.py"
    bot.write_text(
        "import os, signal, sys, time\n"
        "folder = sys.argv[1]\n"
        "def alive(pid):\n"
        "    try:\n"
        "        os.kill(pid, 0)\n"
        "    except ProcessLookupError:\n"
        "        return False\n"
        "    return True\n"
        "def stopping(number, frame):\n"
        "    pids = [int(p) for p in os.listdir(folder)]\n"
        "    with open(folder + '.alive', 'a') as told:\n"
        "        told.write(f'{sum(alive(p) for p in pids)}\\n')\n"
        "signal.signal(signal.SIGTERM, stopping)\n"
        "open(os.path.join(folder, str(os.getpid())), 'w').close()\n"
        "print('ready', flush=True)\n"
        "while True:\n"
        "    time.sleep(1)\n",
        "utf-8",
    )
    folder = tmp_path / "pids"
    folder.mkdir()
    game = tapete.load(SPECS["pocha"])
    stubborn = [ExecBot([sys.executable, str(bot), str(folder)]) for _ in range(4)]
    with players.seated(game, stubborn):
        while len(list(folder.iterdir())) < 4:  # every bot is running, its pid written
            time.sleep(0.01)
    assert Path(f"{folder}.alive").read_text("utf-8").split() == ["4"] * 4
    assert all(b.process is not None and b.process.returncode == -signal.SIGKILL for b in stubborn)


def test_a_bot_that_stops_reading_never_blocks_the_match(tmp_path: Path) -> None:
    bot = tmp_path / "deaf.py"
    bot.write_text("import time\nprint('ready', flush=True)\ntime.sleep(60)\n", "utf-8")
    game = tapete.load(SPECS["pocha"])
    deaf = ExecBot([sys.executable, str(bot)], ms=50)
    state = game.new_state(seed=1)
    view, legal = game.observe(state, 0), game.legal_actions(state)
    with players.seated(game, [deaf]):
        start = time.monotonic()
        # Far more than a pipe holds (64 KiB on Linux) goes to a bot that reads none of it.
        deaf._send({"type": "note", "padding": "x" * 1_000_000})
        with pytest.raises(BotError, match="no answer within 50 ms"):
            deaf.choose(view, legal, None)
        assert time.monotonic() - start < 5
    assert deaf.process is not None and deaf.process.returncode is not None


@pytest.mark.skipif(os.name != "posix", reason="signals and /proc")
@pytest.mark.parametrize(
    ("stop", "code"),
    [
        (signal.SIGINT, 130),  # ^C
        # kill, timeout, a closed terminal: tapete dies of the signal, after ending its bots
        (getattr(signal, "SIGTERM", None), -getattr(signal, "SIGTERM", 0)),
        (getattr(signal, "SIGHUP", None), -getattr(signal, "SIGHUP", 0)),
    ],
    ids=["SIGINT", "SIGTERM", "SIGHUP"],
)
def test_interrupting_tapete_ends_its_bots(tmp_path: Path, stop: int | None, code: int) -> None:
    if stop is None or os.name != "posix":
        pytest.skip("a POSIX signal")
    pid_file = tmp_path / "pid"
    bot = bot_script(
        tmp_path, f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    )
    seats = f"{python_seat(bot, ms=60_000)},random,random,random"
    tapete = _playing(seats)
    try:
        pid = _written_pid(pid_file, tapete)
        tapete.send_signal(stop)  # the bot is thinking: tapete must not wait for it
        assert tapete.wait(timeout=30) == code
    finally:
        tapete.kill()
    _assert_ended(pid)


def _playing(seats: str) -> subprocess.Popen[bytes]:
    """``tapete play`` of a Pocha match with ``seats``, started in another process."""
    return subprocess.Popen(
        [sys.executable, "-m", "tapete.cli", "play", SPECS["pocha"], "--seats", seats],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _written_pid(pid_file: Path, tapete: subprocess.Popen[bytes]) -> int:
    """The bot's process id, once the bot has written it to ``pid_file`` (tapete running)."""
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline and tapete.poll() is None
        time.sleep(0.05)
    return int(pid_file.read_text())


def _assert_ended(pid: int) -> None:
    left = Path(f"/proc/{pid}").exists()
    if left:  # not to outlive the test
        os.kill(pid, signal.SIGKILL)
    assert not left


STUBBORN = """
import json, os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print("ready", flush=True)
    elif message["type"] == "decide":
        print(message["legal"][0], flush=True)
    elif message["type"] == "quit":
        open(PID, "w").write(str(os.getpid()))
        time.sleep(60)
"""


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_stopping_tapete_while_it_waits_for_a_bot_to_exit_ends_the_bot(tmp_path: Path) -> None:
    # The match is over and the bot ignores quit and SIGTERM: tapete gives it a second for
    # each before SIGKILL. Stopped then, tapete must not leave it running.
    pid_file = tmp_path / "pid"
    bot = tmp_path / "stubborn.py"
    bot.write_text(STUBBORN.replace("PID", repr(str(pid_file))), "utf-8")
    seats = f"{python_seat(bot)},random,random,random"
    tapete = _playing(seats)
    try:
        pid = _written_pid(pid_file, tapete)
        tapete.send_signal(signal.SIGTERM)
        assert tapete.wait(timeout=30) == -signal.SIGTERM
    finally:
        tapete.kill()
    _assert_ended(pid)


# --- naming the seats ------------------------------------------------------------------------


def test_seat_lists_split_only_at_top_level_commas() -> None:
    run = tapete_run(
        "play", SPECS["pocha"], "--seats", "hard(ms=100, iterations=9),random,RANDOM,easy"
    )
    assert run.returncode == 0, run.stderr
    assert "hard(ms=100, iterations=9) (0)" in run.stdout
    run = tapete_run("play", SPECS["pocha"], "--seats", "hard(ms=100,random,random,random")
    assert run.returncode == 2
    assert "--seats: 'hard(ms=100,random,random,random' has a parenthesis" in run.stderr


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")
@pytest.mark.parametrize("command", ["play", "arena"])
def test_a_quote_escaped_in_a_command_is_part_of_it(command: str) -> None:
    # cmd="sh bot.sh \"smile :)\"" is one seat, as the string literal it is: the seat list
    # was split as if the escaped quote closed the string (a parenthesis or quote left open).
    cmd = f'sh {shlex.quote(str(SHELL_EXAMPLE))} "smile :)"'
    seat = f"exec(cmd={json.dumps(cmd)})"
    assert '\\"smile :)\\"' in seat
    if command == "play":
        run = tapete_run("play", SPECS["pocha"], "--seats", f"{seat},random,random,random")
    else:
        run = tapete_run(
            "arena", SPECS["pocha"], "--bots", f"{seat},random", "--matches", "2", "--workers", "1"
        )
    assert run.returncode == 0, run.stderr
    assert "failed" not in run.stderr and seat in run.stdout, run.stderr


def test_a_missing_program_or_a_bad_option_fails_before_the_match() -> None:
    run = tapete_run("play", SPECS["pocha"], "--seats", 'exec(cmd="./no-such-bot"),random,x,y')
    assert run.returncode == 2
    assert "no program './no-such-bot' to run (not found, or not executable)" in run.stderr
    run = tapete_run("arena", SPECS["pocha"], "--bots", 'exec(cmd="sh", speed=3),random')
    assert run.returncode == 2
    assert 'exec takes cmd="PROGRAM ARGS" and ms=N, not speed' in run.stderr
    with pytest.raises(SpecError, match="ms is a positive number"):
        from_spec('exec(cmd="sh", ms=0)', {"cmd": "sh", "ms": 0})
    # A budget past the clock's range was taken, and then every decision failed on it.
    run = tapete_run(
        "play",
        SPECS["pocha"],
        "--seats",
        'exec(cmd="sh", ms=99999999999999999999),random,random,random',
    )
    assert run.returncode == 2, run.stderr
    assert "ms is at most 3600000 (an hour a decision)" in run.stderr
    assert from_spec('exec(cmd="sh", ms=3600000)', {"cmd": "sh", "ms": 3600000}).ms == 3600000


def test_a_script_whose_interpreter_is_not_there_fails_before_the_match(tmp_path: Path) -> None:
    # Written for a machine with /usr/bin/python, run where there is only python3: the system
    # says the script itself is not found, which it plainly is.
    bot = tmp_path / "mybot.py"
    bot.write_text("#!/no/such/python -u\nprint('ready')\n", "utf-8")
    bot.chmod(0o755)
    run = tapete_run("play", SPECS["pocha"], "--seats", f"{exec_seat(bot)},random,random,random")
    assert run.returncode == 2, run.stderr
    assert f"'{bot}' starts with #!/no/such/python, a program that is not there" in run.stderr
    assert "No such file" not in run.stderr and "failed to choose" not in run.stderr


@pytest.mark.parametrize("interpreter", ["/bin/sh", "/usr/bin/env sh"])
def test_a_script_with_windows_line_ends_fails_before_the_match(
    tmp_path: Path, interpreter: str
) -> None:
    # Its #! line ends in \r, which the system takes for the last letter of "sh".
    bot = tmp_path / "mybot.sh"
    bot.write_bytes(f"#!{interpreter}\r\necho ready\r\n".encode())
    bot.chmod(0o755)
    run = tapete_run("play", SPECS["pocha"], "--seats", f"{exec_seat(bot)},random,random,random")
    assert run.returncode == 2, run.stderr
    assert f"'{bot}' has Windows line ends: its #! line ends in a carriage return" in run.stderr
    assert "failed to choose" not in run.stderr


@pytest.mark.parametrize(
    ("seat", "example"),
    [('exec("./mybot")', 'exec(cmd="./mybot", ms=500)'), ("policy(model.zip)", "policy(path=")],
)
def test_a_seat_whose_options_are_not_named_is_told_how_to_name_them(
    seat: str, example: str
) -> None:
    # Before, it was called no game spec, which a seat is not meant to be.
    run = tapete_run("play", SPECS["pocha"], "--seats", f"{seat},random,random,random")
    assert run.returncode == 2
    assert f"{seat!r} is not a seat: name its options, as in {example}" in run.stderr
    assert "game spec" not in run.stderr


def test_a_program_named_as_a_shell_would_take_it_is_told_how_to_name_it(
    tmp_path: Path,
) -> None:
    # No shell runs the command: a bare name is looked for on PATH only (as a shell does), and
    # ~ is no home folder. Before, both were only "not found", with the program right there.
    bot = tmp_path / "mybot"
    bot.write_text("#!/bin/sh\necho ready\n", "utf-8")
    bot.chmod(0o755)
    seats = 'exec(cmd="mybot"),random,random,random'
    run = subprocess.run(
        [sys.executable, "-m", "tapete.cli", "play", SPECS["pocha"], "--seats", seats],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert run.returncode == 2
    assert "no program 'mybot' on PATH; the one in this folder is ./mybot" in run.stderr
    run = tapete_run("play", SPECS["pocha"], "--seats", 'exec(cmd="~/mybot"),random,random,random')
    assert run.returncode == 2
    assert "no shell runs it, so ~ is not a home folder; write the whole path" in run.stderr


def test_the_bot_levels_alone_come_from_tapete_bots_load() -> None:
    with pytest.raises(SpecError, match="no bot level 'exec'"):
        bots.load(python_seat(EXAMPLE))
    assert isinstance(players.load(python_seat(EXAMPLE)), ExecBot)


def test_a_record_never_starts_the_programs_it_names(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.json", tmp_path / "cut.json"
    seats = f"{python_seat(EXAMPLE)},random,random,random"
    assert (
        tapete_run("play", SPECS["pocha"], "--seats", seats, "--record", str(whole)).returncode == 0
    )
    record.write(record.cut(record.read(whole), 5), cut)
    run = tapete_run("play", "--resume", str(cut))
    assert run.returncode == 2
    assert f"seat 0 was played by {python_seat(EXAMPLE)}, a program of the machine" in run.stderr
    assert "name every seat with --seats" in run.stderr
    run = tapete_run("play", "--resume", str(cut), "--seats", seats)
    assert run.returncode == 0, run.stderr
    assert "match over:" in run.stdout


def test_outside_bots_need_only_the_standard_library() -> None:
    from test_layering import SRC, STDLIB, imports

    for module in ("outside.py", "players.py"):
        third_party = [
            name
            for name in imports(SRC / module)
            if name.split(".")[0] not in STDLIB and name.split(".")[0] != "tapete"
        ]
        assert third_party == [], module


SPY = """
import subprocess, sys, threading
log = open(sys.argv[1], "w", encoding="utf-8")
bot = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def answers():
    for line in bot.stdout:
        log.write("< " + line)
        log.flush()
        sys.stdout.write(line)
        sys.stdout.flush()
told = threading.Thread(target=answers)
told.start()
for line in sys.stdin:
    log.write("> " + line)
    log.flush()
    bot.stdin.write(line)
    bot.stdin.flush()
bot.stdin.close()
told.join()
"""


def test_the_whole_match_of_the_protocol_page_is_what_the_bot_is_told(tmp_path: Path) -> None:
    """docs/bot-protocol.md's transcript, line by line, as the example bot hears and answers it
    in the match its command plays (a line the page cuts short with … holds what it shows)."""
    page = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    section = page.split("## A whole match", 1)[1]
    command = re.search(r"`tapete play (\"[^\"]+\") --seats '([^']+)' --seed (\d+)`", section)
    transcript = re.search(r"```text\n(.*?)\n```", section, re.DOTALL)
    assert command is not None and transcript is not None
    spec, seats, seed = json.loads(command.group(1)), command.group(2), command.group(3)
    assert seats.startswith('exec(cmd="python3 examples/first_legal_bot.py", ms=500),')
    spy, log = tmp_path / "spy.py", tmp_path / "heard.txt"
    spy.write_text(SPY, encoding="utf-8")
    seat = exec_seat(sys.executable, spy, log, sys.executable, EXAMPLE, ms=500)
    seats = seats.replace('exec(cmd="python3 examples/first_legal_bot.py", ms=500)', seat)
    run = tapete_run("play", spec, "--seats", seats, "--seed", seed)
    assert run.returncode == 0, run.stderr
    heard = log.read_text(encoding="utf-8").splitlines()
    shown = transcript.group(1).splitlines()
    # The bot reads the start after its ready, as the page says: the order of those two lines
    # between the pipes is the scheduler's.
    assert sorted(heard[1:3]) == sorted(shown[1:3])
    heard[1:3], shown[1:3] = shown[1:3], shown[1:3]
    assert len(heard) == len(shown)
    for said, written in zip(heard, shown, strict=True):
        assert all(part.strip() in said for part in written.split("…")), (said, written)


def test_an_outer_agent_that_fails_to_close_is_told_after_the_others_are_closed() -> None:
    # The seats are closed at once, in threads: a failure there is still the caller's error.
    class Outer:
        def __init__(self, fails: bool) -> None:
            self.fails, self.closed = fails, False

        def sit(self, game: Any, seat: int) -> None:
            pass

        def choose(self, view: Any, legal: Any, rng: Any) -> int:
            return int(legal[0])

        def close(self, outcome: Any) -> None:
            self.closed = True
            if self.fails:
                raise RuntimeError("the bot's pipe broke")

    game = tapete.load("pocha(players=3, schedule=[1])")
    agents = [Outer(False), Outer(True), Outer(False)]
    with pytest.raises(RuntimeError, match="pipe broke"), players.seated(game, agents) as finish:
        finish(game.new_state(1))
    assert all(agent.closed for agent in agents)
