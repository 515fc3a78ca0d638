"""The arena: the duplicate scheme, reproducibility across workers, the statistics, the command."""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from rich.console import Console
from rich.text import Text

import tapete
from tapete import SpecError, arena, record
from tapete.game import Action, Game
from tapete.match import play


class FirstBot:
    """Always the first legal action: in Pocha, bid 0 (the hook aside) and play the first card.

    In one-card Pocha that is a strong strategy against random bidding: a zero bid is made
    whenever the single trick goes elsewhere, three times in four at a four-seat table.
    """

    name = "first"

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[0]


class Raiser:
    """A bot with a bug in every decision: each of its moves is a random legal one played for it,
    with the seat's dice, so it plays exactly as ``random`` does."""

    name = "raiser"

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("no strategy yet")


def decisions_faced(
    spec: str, entrants: Sequence[str | Any], match: arena.MatchResult
) -> Counter[int]:
    """Each bot's decisions in ``match``, counted on a replay of it outside the arena."""
    game = tapete.load(spec)
    agents = [entrants[b] for b in match.seats]
    _, rec = play(game, agents, seed=match.seed, on_failure=lambda seat, failure: None)
    return Counter(match.seats[seat] for _, _, seat, _, _ in record.steps(rec))


# --- the scheme ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "bots"), list(itertools.product(range(2, 9), range(2, 5))))
def test_each_bot_holds_each_seat_equally_often(players: int, bots: int) -> None:
    group = arena.assignments(players, bots)
    assert len(set(group)) == len(group), "a duplicate assignment would replay the same match"
    assert all(len(a) == players and set(a) <= set(range(bots)) for a in group)
    for seat in range(players):
        held = Counter(a[seat] for a in group)
        assert held == dict.fromkeys(range(bots), len(group) // bots), (seat, held)
    for a, b in itertools.combinations(range(bots), 2):
        assert any(a in seats and b in seats for seats in group), f"bots {a} and {b} never meet"


@pytest.mark.parametrize(
    ("players", "bots"), [(p, b) for p in range(3, 9) for b in (3, 4) if b <= p]
)
def test_each_bot_plays_right_after_each_other_as_often_as_right_before_it(
    players: int, bots: int
) -> None:
    """Three bots at three seats played only A B C and its rotations: B always right after A,
    so "A against B" also measured the seat behind A against the seat in front of B (in Pocha,
    who bids and plays after whom)."""
    group = arena.assignments(players, bots)
    after = Counter((a[s], a[(s + 1) % players]) for a in group for s in range(players))
    for x, y in itertools.permutations(range(bots), 2):
        assert after[x, y] == after[y, x], (x, y, after)


@pytest.mark.parametrize("teams", [((0, 2), (1, 3)), ((0, 3), (1, 4), (2, 5))], ids=["2x2", "3x2"])
@pytest.mark.parametrize("bots", [2, 3, 4])
def test_in_team_games_a_bot_holds_a_whole_team(
    teams: tuple[tuple[int, ...], ...], bots: int
) -> None:
    players = sum(len(t) for t in teams)
    group = arena.assignments(players, bots, teams)
    assert len(set(group)) == len(group)
    for seats in group:
        holders = [{seats[s] for s in team} for team in teams]
        assert all(len(h) == 1 for h in holders), "partners must be the same bot"
        if bots >= len(teams):
            assert len({h.pop() for h in holders}) == len(teams), "a bot never plays itself"
    for t, team in enumerate(teams):
        held = Counter(a[team[0]] for a in group)
        assert held == dict.fromkeys(range(bots), len(group) // bots), (t, held)


def test_two_bots_at_four_seats_alternate_and_two_teams_swap() -> None:
    assert arena.assignments(4, 2) == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert arena.assignments(4, 2, ((0, 2), (1, 3))) == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert arena.assignments(2, 2) == ((0, 1), (1, 0))


def test_a_team_bot_scores_its_team_and_a_seat_bot_the_mean_of_its_seats() -> None:
    teams = cast(Game[Any, Any], SimpleNamespace(teams=((0, 2), (1, 3))))
    match = arena.MatchResult(0, 1, (1, 0, 1, 0), (12, 30), (1, 3))
    assert arena.bot_scores(teams, match) == {1: 12, 0: 30}
    solo = cast(Game[Any, Any], SimpleNamespace(teams=None))
    match = arena.MatchResult(0, 1, (0, 1, 0), (10, -5, 20), (2,))
    assert arena.bot_scores(solo, match) == {0: 15.0, 1: -5.0}


def test_bot_lists_split_at_top_level_commas() -> None:
    assert arena.split_bots("hard(ms=200),medium") == ["hard(ms=200)", "medium"]
    assert arena.split_bots(" random , hard(iterations=40, ms=5) ") == [
        "random",
        "hard(iterations=40, ms=5)",
    ]
    for bad in ("random,,hard", "hard(ms=200", "random,"):
        with pytest.raises(SpecError):
            arena.split_bots(bad)


def test_unknown_bots_and_lone_bots_are_refused() -> None:
    with pytest.raises(SpecError, match="no bot level"):
        arena.run("pocha(schedule=1)", ["random", "genius"], workers=1)
    with pytest.raises(SpecError, match="two bots"):
        arena.run("pocha(schedule=1)", ["random"], workers=1)


def test_a_level_named_in_capitals_is_that_level() -> None:
    """``--bots Medium,easy`` was refused ("no bot level 'Medium'"); ``tapete play`` took it."""
    shouted = arena.run("pocha(schedule=1)", ["Medium", "EASY"], matches=2, workers=1)
    plain = arena.run("pocha(schedule=1)", ["medium", "easy"], matches=2, workers=1)
    assert [r.mean_score for r in shouted.results] == [r.mean_score for r in plain.results]


@pytest.mark.parametrize("seed", [True, 1.0, "1", None])
def test_a_seed_that_is_no_whole_number_is_refused_not_played_as_other_deals(seed: object) -> None:
    """``seed=True`` played other deals than seed 1 (the groups' seeds hash its text) and a
    result that said ``"seed": true``; ``"x"`` played too."""
    with pytest.raises(TypeError, match=f"seed={seed!r} is not accepted: a whole number"):
        arena.run("pocha(schedule=1)", ["random", "random"], matches=4, workers=1, seed=seed)  # type: ignore[arg-type]


def test_a_numpy_seed_is_the_same_arena_as_its_int() -> None:
    import numpy as np

    by_numpy = arena.run("pocha(schedule=1)", ["random", "easy"], workers=1, seed=np.int64(3))  # type: ignore[arg-type]
    assert by_numpy == arena.run("pocha(schedule=1)", ["random", "easy"], workers=1, seed=3)
    assert json.loads(arena.dumps(by_numpy))["seed"] == 3


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        ({"matches": 0}, (ValueError, "matches=0 is not accepted: a whole number from 1")),
        ({"matches": "4"}, (TypeError, "matches='4' is not accepted: a whole number")),
        ({"matches": 2.5}, (TypeError, "matches=2.5 is not accepted: a whole number")),
        ({"workers": 0}, (ValueError, "workers=0 is not accepted: a whole number from 1")),
        ({"workers": -1}, (ValueError, "workers=-1 is not accepted: a whole number from 1")),
    ],
)
def test_matches_and_workers_are_whole_numbers_from_one(
    options: dict[str, object], refused: tuple[type[Exception], str]
) -> None:
    """``matches=0`` and ``workers=-1`` played (the command line refuses both), and
    ``matches="4"`` failed on ``bad operand type for unary -``."""
    kind, message = refused
    with pytest.raises(kind, match=re.escape(message)):
        arena.run("pocha(schedule=1)", ["random", "random"], **options)  # type: ignore[arg-type]


def test_bots_given_as_one_text_are_refused_as_not_a_list() -> None:
    """``"random,random"`` was read letter by letter: "no bot level 'r'"."""
    with pytest.raises(TypeError, match=r"bots is a list.*not 'random,random'"):
        arena.run("pocha(schedule=1)", "random,random", workers=1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_is_no_agent_is_named_by_its_place_in_the_list_before_any_match(
    workers: int,
) -> None:
    """``None`` among the bots was told of as "seat 1: a seat is ..." from the first match that
    seated it: a seat of some match, not the bot's place in the list given."""
    played: list[int] = []
    refused = r"^bots\[1\]: a bot is a level such as 'random'.* not None$"
    with pytest.raises(TypeError, match=refused):
        arena.run(
            "pocha(schedule=1)",
            ["random", None],  # type: ignore[list-item]
            matches=4,
            workers=workers,
            on_match=lambda done, total: played.append(done),
        )
    assert played == []


# --- playing and the numbers ---------------------------------------------------------------


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    bots: list[str | FirstBot] = ["random", "random", FirstBot()]
    one = arena.run("pocha(schedule=[1, 2])", bots, matches=48, workers=1, seed=5)
    two = arena.run("pocha(schedule=[1, 2])", bots, matches=48, workers=2, seed=5)
    assert one == two
    assert len(one.matches) == 48 and one.groups == 2
    assert [m.group for m in one.matches] == sorted(m.group for m in one.matches)


def test_a_bot_typed_at_a_prompt_is_refused_by_name_when_workers_would_need_it() -> None:
    """A class defined at an interactive prompt (here ``python -c``) cannot be imported by the
    worker processes: the arena says which bot and what to do, before any match is played,
    rather than a worker's unpickling error naming neither; with one worker it plays."""
    program = (
        "from tapete import arena\n"
        "class Mine:\n"
        "    name = 'mine'\n"
        "    def choose(self, view, legal_actions, rng):\n"
        "        return legal_actions[0]\n"
        "try:\n"
        "    arena.run('pocha(schedule=1)', ['random', Mine()], matches=4, workers=2)\n"
        "except ValueError as err:\n"
        "    print('refused:', err)\n"
        "result = arena.run('pocha(schedule=1)', ['random', Mine()], matches=4, workers=1)\n"
        "print('played', len(result.matches))\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=300, check=False
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        "refused: bot 'mine' is of a class defined at the prompt, which the arena's worker"
        " processes cannot import with workers=2: define it in a module, or use workers=1",
        "played 4",
    ]


def test_identical_bots_tie_exactly_in_duplicate() -> None:
    # Seat i's RNG comes from (seed, i) whoever sits there, so two copies of a bot replay each
    # other's matches exactly: duplicate cancels the luck of the cards and of the bots' dice.
    result = arena.run("pocha(schedule=[1, 2])", ["random", "random"], matches=8, workers=1)
    d = result.difference("random#1", "random#2")
    assert (d.mean, d.low, d.high) == (0, 0, 0)
    assert result.bot_result("random#1").win_rate == result.bot_result("random#2").win_rate


def test_first_legal_action_against_random_gives_sane_numbers() -> None:
    seen: list[tuple[int, int]] = []
    result = arena.run(
        "pocha(schedule=[1, 2, 3])",
        [FirstBot(), "random"],
        matches=40,
        workers=1,
        seed=3,
        on_match=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(i, 40) for i in range(1, 41)]
    assert result.bots == ("first", "random") and result.groups == 20
    ab, ba = result.difference("first", "random"), result.difference("random", "first")
    assert ab.mean == pytest.approx(-ba.mean)
    assert (ab.low, ab.high) == pytest.approx((-ba.high, -ba.low))
    assert ab.low <= ab.mean <= ab.high and ab.groups == 20
    for r in result.results:
        assert r.matches == 40 and 0 <= r.win_rate <= 1
        assert math.isfinite(r.mu) and 0 < r.sigma < 25 / 3  # openskill's prior sigma
    assert sum(r.wins for r in result.results) == pytest.approx(40)
    first = [arena.bot_scores(tapete.load(result.spec), m) for m in result.matches]
    assert result.bot_result("first").mean_score == pytest.approx(sum(s[0] for s in first) / 40)
    assert arena.loads(arena.dumps(result)) == result


def test_a_bot_that_fails_every_decision_is_counted_and_flagged(
    capfd: pytest.CaptureFixture[str],
) -> None:
    spec = "pocha(schedule=[1, 2])"
    entrants: list[str | Any] = [Raiser(), "random"]
    result = arena.run(spec, entrants, matches=8, workers=1, seed=2)
    assert "failed to choose a move (RuntimeError: no strategy yet)" in capfd.readouterr().err
    faced = sum((decisions_faced(spec, entrants, m) for m in result.matches), Counter[int]())
    raiser, other = result.bot_result("raiser"), result.bot_result("random")
    assert raiser.decisions == faced[0] > 0 and raiser.stand_ins == faced[0]
    assert (other.decisions, other.stand_ins) == (faced[1], 0)
    # What the count is for: the bug is invisible in the scores (it plays as random does).
    assert result.difference("raiser", "random").mean == 0
    assert result.warnings() == [raiser.warning] and other.warning is None
    n = faced[0]
    assert f"raiser failed {n} of its {n} decisions (100%) and a random legal move" in str(
        raiser.warning
    )
    data = result.to_json()
    assert [(r["decisions"], r["stand_ins"]) for r in data["results"]] == [(n, n), (faced[1], 0)]
    assert data["warnings"] == result.warnings()
    for m in data["matches"]:  # per seat of every match: which assignments it failed in
        pairs = zip(m["seats"], m["decisions"], strict=True)
        assert m["stand_ins"] == [d if b == 0 else 0 for b, d in pairs]
    assert arena.loads(arena.dumps(result)) == result
    # The same counts wherever the matches are played.
    assert arena.run(spec, entrants, matches=8, workers=2, seed=2) == result


def test_a_bot_that_fails_every_decision_is_told_of_once_a_match_and_seat(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """A line a decision buried the progress bar under hundreds of the same line; the count
    is the table's and the warning's."""
    result = arena.run("pocha(schedule=[1, 2])", [Raiser(), "random"], matches=8, workers=1)
    told = [line for line in capfd.readouterr().err.splitlines() if "raiser" in line]
    held = sorted((m.seed, seat) for m in result.matches for seat in range(4) if m.seats[seat] == 0)
    assert result.bot_result("raiser").stand_ins > len(held) == 16
    assert len(told) == len(held), told
    for line in told:
        assert line.endswith(
            "failed to choose a move (RuntimeError: no strategy yet); a random legal move was"
            " played for it; its further failures in this match are counted, not told"
        )


def test_the_report_shows_the_stand_ins_and_warns() -> None:
    result = arena.run("pocha(schedule=1)", [Raiser(), "random"], matches=4, workers=1)
    out = io.StringIO()
    arena.report(result, Console(file=out, width=300))
    text = out.getvalue()
    n = result.bot_result("raiser").decisions
    assert "stand-ins" in text and f"{n} of {n}" in text and f"0 of {n}" in text
    assert text.rstrip().splitlines()[-1].startswith(f"warning: raiser failed {n} of its {n}")


def test_a_terminal_of_80_columns_shows_every_number_whole() -> None:
    """Four bots' "vs X" columns do not fit in 80 columns: rather than cut every number to
    "22.5…" and "0…", the table leaves them to the verdict lines, which say each pair's."""
    bots = ["random", "easy", "medium", "hard(iterations=2)"]
    result = arena.run("pocha(schedule=1)", bots, matches=24, workers=1)
    out = io.StringIO()
    arena.report(result, Console(file=out, width=80))
    text = out.getvalue()
    assert "…" not in text
    for r in result.results:
        row = next(line.split() for line in text.splitlines() if line.split()[:1] == [r.name])
        rating = f"{r.mu:.2f} ± {r.sigma:.2f}".split()
        assert row[1:] == [
            str(r.matches), f"{r.mean_score:.2f}", f"{r.win_rate:.1%}", *rating,
            *f"{r.stand_ins} of {r.decisions}".split(),
        ]  # fmt: skip
    words = " ".join(text.split())  # the verdict lines, wrapped at 80 columns
    for a, b in itertools.combinations(result.bots, 2):
        assert result.difference(a, b).verdict in words
    wide = io.StringIO()
    arena.report(result, Console(file=wide, width=200))
    assert "vs hard(iterations=2)" in wide.getvalue()  # where they fit, the columns are there


def test_a_cut_or_edited_arena_file_is_refused_naming_what_is_missing() -> None:
    """``loads`` says ValueError for what is no arena document; one cut short or edited raised
    a bare ``KeyError: 'spec'``."""
    result = arena.run("pocha(schedule=1)", ["random", "easy"], matches=4, workers=1)
    whole = json.loads(arena.dumps(result))
    del whole["matches"][1]["scores"]
    with pytest.raises(ValueError, match=r"^not a whole tapete-arena/1 document: no 'scores'$"):
        arena.loads(json.dumps(whole))
    with pytest.raises(ValueError, match=r"^not a whole tapete-arena/1 document: no 'spec'$"):
        arena.loads('{"format": "tapete-arena/1"}')


def test_an_arena_saved_before_stand_ins_were_counted_reads_back() -> None:
    data = arena.run("pocha(schedule=1)", ["random", FirstBot()], matches=4, workers=1).to_json()
    for r in data["results"]:
        del r["decisions"], r["stand_ins"]
    for m in data["matches"]:
        del m["decisions"], m["stand_ins"]
    old = arena.loads(json.dumps(data))
    assert [(r.decisions, r.stand_ins) for r in old.results] == [(0, 0), (0, 0)]
    assert old.warnings() == [] and old.matches[0].stand_ins == ()
    out = io.StringIO()
    arena.report(old, Console(file=out, width=300))
    assert "–" in out.getvalue()


def test_a_dominant_bot_is_found_to_beat_the_other_with_95_percent_confidence() -> None:
    result = arena.run("pocha(schedule=1)", ["random", FirstBot()], matches=200, workers=1)
    d = result.difference("first", "random")
    assert d.low > 0
    assert result.verdicts() == [d.verdict]
    assert d.verdict.startswith("first beats random with 95% confidence")
    assert result.bot_result("first").mu > result.bot_result("random").mu


def test_two_groups_that_agree_claim_nothing_in_the_verdict_table_and_json() -> None:
    """Two groups giving the same difference made a zero-width interval, and the arena said
    "beats with 95% confidence" of two numbers. Below ``MIN_GROUPS`` groups, or with no spread
    between the groups, it says it cannot tell, and colours no cell."""
    result = arena.run("pocha(schedule=1)", [FirstBot(), "random"], matches=4, workers=1)
    assert result.groups == 2
    agreed = arena.Difference("first", "random", 3.0, 3.0, 3.0, 2)  # what two equal groups give
    rigged = dataclasses.replace(result, differences=(agreed, agreed.flipped()))
    assert not agreed.significant and not agreed.flipped().significant
    assert rigged.verdicts() == [
        "first and random: cannot tell, too few groups: 2, a 95% CI needs 5 or more (+3.00 a match)"
    ]
    out = io.StringIO()
    arena.report(rigged, Console(file=out, width=300, force_terminal=True, color_system="standard"))
    text = out.getvalue()
    assert "beats" not in text and "+3.00 ± ?" in text and "-3.00 ± ?" in text
    assert "\x1b[32m" not in text and "\x1b[31m" not in text  # neither green nor red
    assert "± ?: cannot tell (fewer than 5 groups" in " ".join(Text.from_ansi(text).plain.split())
    data = json.loads(arena.dumps(rigged))
    assert [(d["significant"], d["unmeasured"]) for d in data["differences"]] == [
        (False, "too few groups: 2, a 95% CI needs 5 or more")
    ] * 2
    assert data["verdicts"] == rigged.verdicts()
    assert arena.loads(arena.dumps(rigged)) == rigged


def test_groups_enough_but_all_alike_claim_nothing_and_enough_spread_groups_do() -> None:
    same = arena.Difference("a", "b", 2.0, 2.0, 2.0, arena.MIN_GROUPS + 5)
    assert not same.significant
    assert same.verdict == (
        "a and b: cannot tell, no spread: all 10 groups gave the same difference (+2.00 a match)"
    )
    assert arena.Difference("a", "b", 2.0, 1.0, 3.0, arena.MIN_GROUPS).significant
    assert arena.Difference("a", "b", -2.0, -3.0, -1.0, arena.MIN_GROUPS).verdict.startswith(
        "b beats a with 95% confidence"
    )
    few = arena.Difference("a", "b", 2.0, 1.0, 3.0, arena.MIN_GROUPS - 1)
    assert not few.significant and "cannot tell, too few groups: 4," in few.verdict


def test_an_arena_saved_before_verdicts_were_checked_reads_back_under_the_rule() -> None:
    result = arena.run("pocha(schedule=1)", ["random", FirstBot()], matches=4, workers=1)
    data = result.to_json()
    for d in data["differences"]:
        del d["significant"], d["unmeasured"]
    assert arena.loads(json.dumps(data)) == result


# --- the command ---------------------------------------------------------------------------


def test_the_command_writes_the_table_json_and_plot(tmp_path: Path) -> None:
    out_json, out_png = tmp_path / "out.json", tmp_path / "out.png"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tapete.cli",
            "arena",
            "pocha(schedule=[1, 2])",
            "--bots",
            "random,random",
            "--matches",
            "4",
            "--workers",
            "1",
            "--json",
            str(out_json),
            "--plot",
            str(out_png),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "random#1" in run.stdout and "cannot tell, too few groups: 2," in run.stdout
    assert "stand-ins" in run.stdout and "warning" not in run.stdout
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["format"] == "tapete-arena/1" and len(data["matches"]) == 4
    assert data["warnings"] == [] and all(r["stand_ins"] == 0 for r in data["results"])
    assert out_png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_the_command_logs_no_progress_bar_cut_to_80_columns(tmp_path: Path) -> None:
    """stderr to a file (a log, nohup) gets the lines that say what was done, not the bar's
    last frame squeezed into 80 columns ("24/… 0:0… 0:00…")."""
    command = [sys.executable, "-m", "tapete.cli", "arena", "pocha(schedule=[1, 2])"]
    options = ["--matches", "48", "--workers", "1", "--json", str(tmp_path / "out.json")]
    run = subprocess.run(
        [*command, "--bots", "random,easy,hard(iterations=2)", *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert re.fullmatch(r"48 matches in [\d.]+ s on 1 worker", lines[0]), lines
    assert lines[1:] == [f"results written to {tmp_path / 'out.json'}"]


def test_the_command_says_how_many_workers_played() -> None:
    # Asked for 6, an arena of 4 matches plays on 4 (one a match at most), and says so.
    arena_command = ["arena", "pocha(schedule=[1])", "--bots", "random,easy"]
    run = subprocess.run(
        [sys.executable, "-m", "tapete.cli", *arena_command, "--matches", "4", "--workers", "6"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"^4 matches in [\d.]+ s on 4 workers$", run.stderr, re.M), run.stderr


THINKER = """
import json, os, sys, time
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print("ready", flush=True)
    elif message["type"] == "decide":
        with open(os.path.join(FOLDER, str(os.getpid())), "w") as pids:
            pids.write(str(os.getppid()))  # the worker that plays the match
        time.sleep(60)
"""


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not exited (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_stopped_arena_leaves_no_worker_nor_bot_running(tmp_path: Path) -> None:
    # kill (SIGTERM) to the arena's own process, as its bots think in two workers: the workers
    # are ended and end their bots, instead of waiting idle forever for the arena gone.
    bot = tmp_path / "thinker.py"
    bot.write_text(THINKER.replace("FOLDER", repr(str(tmp_path / "pids"))), "utf-8")
    (tmp_path / "pids").mkdir()
    seat = f"exec(cmd={json.dumps(f'{sys.executable} {bot}')}, ms=60000)"
    command = [sys.executable, "-m", "tapete.cli", "arena", "pocha(players=3, schedule=[1])"]
    tapete = subprocess.Popen(
        [*command, "--bots", f"{seat},random", "--matches", "12", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pids: dict[int, int] = {}
    try:
        deadline = time.monotonic() + 60
        while len(set(pids.values())) < 2:
            assert time.monotonic() < deadline and tapete.poll() is None
            time.sleep(0.05)
            files = [f for f in (tmp_path / "pids").iterdir() if f.read_text()]
            pids = {int(f.name): int(f.read_text()) for f in files}
        tapete.send_signal(signal.SIGTERM)
        assert tapete.wait(timeout=30) == 128 + signal.SIGTERM
        deadline = time.monotonic() + 10
        while any(map(running, [*pids, *pids.values()])) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        tapete.kill()
        left = [pid for pid in [*pids, *pids.values()] if running(pid)]
        for pid in left:  # not to outlive the test
            os.kill(pid, signal.SIGKILL)
    assert left == []


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_arena_says_how_far_it_got_and_that_it_wrote_nothing(
    tmp_path: Path, how: signal.Signals
) -> None:
    # ^C or kill while a bot thinks: the numbers need whole duplicate groups, so none are
    # written; the stop says so, lest an arena.json of an earlier run be read as this one's.
    bot = tmp_path / "thinker.py"
    bot.write_text(THINKER.replace("FOLDER", repr(str(tmp_path / "pids"))), "utf-8")
    (tmp_path / "pids").mkdir()
    (tmp_path / "arena.json").write_text("an earlier run's\n", "utf-8")
    seat = f"exec(cmd={json.dumps(f'{sys.executable} {bot}')}, ms=60000)"
    command = [sys.executable, "-m", "tapete.cli", "arena", "pocha(players=3, schedule=[1])"]
    options = ["--matches", "6", "--workers", "1", "--json", "arena.json"]
    tapete = subprocess.Popen(
        [*command, "--bots", f"{seat},random", *options],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not any((tmp_path / "pids").iterdir()):
            assert time.monotonic() < deadline and tapete.poll() is None
            time.sleep(0.05)
        tapete.send_signal(how)
        out, err = tapete.communicate(timeout=30)
    finally:
        tapete.kill()
    assert tapete.returncode == (130 if how == signal.SIGINT else 128 + how)
    assert out == ""
    lines = [line for line in err.splitlines() if line]
    assert lines[0] == (
        "tapete arena: stopped after 0 of 12 matches: no numbers (they need whole duplicate"
        " groups), nothing written to arena.json"
    )
    assert lines[1:] == (["tapete: interrupted"] if how == signal.SIGINT else [])
    assert (tmp_path / "arena.json").read_text("utf-8") == "an earlier run's\n"


# A bot that answers at once in its first processes (a fresh one a match), then thinks for a
# minute: an arena of it is stopped with some duplicate groups played whole.
QUICK_THEN_THINKER = """
import json, os, sys, time
started = len(os.listdir(FOLDER))
open(os.path.join(FOLDER, str(os.getpid())), "w").close()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print("ready", flush=True)
    elif message["type"] == "decide":
        if started >= QUICK:
            open(os.path.join(FOLDER, "thinking"), "w").close()
            time.sleep(60)
        print(message["legal"][0], flush=True)
"""


def test_an_arena_stopped_by_ctrl_c_shows_the_numbers_of_its_whole_duplicate_groups(
    tmp_path: Path,
) -> None:
    """^C after some groups were played whole: the table and the --json of those groups, the
    very numbers a run of that many matches gives; a long arena stopped loses none of them."""

    def arena_of(quick: int, folder: str, *more: str) -> subprocess.Popen[str]:
        (tmp_path / folder).mkdir()
        bot = tmp_path / f"{folder}.py"
        code = QUICK_THEN_THINKER.replace("FOLDER", repr(str(tmp_path / folder)))
        bot.write_text(code.replace("QUICK", str(quick)), "utf-8")
        seat = f"exec(cmd={json.dumps(f'{sys.executable} {bot}')}, ms=60000)"
        command = [sys.executable, "-m", "tapete.cli", "arena", "pocha(players=3, schedule=[1])"]
        return subprocess.Popen(
            [*command, "--bots", f"{seat},random", "--workers", "1", *more],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    tapete = arena_of(40, "stopped", "--matches", "200", "--json", "stopped.json")
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "stopped" / "thinking").exists():
            assert time.monotonic() < deadline and tapete.poll() is None
            time.sleep(0.05)
        tapete.send_signal(signal.SIGINT)
        out, err = tapete.communicate(timeout=30)
    finally:
        tapete.kill()
    assert tapete.returncode == 130, err
    said = re.fullmatch(
        r"tapete arena: stopped after (\d+) of \d+ matches: the numbers of the first (\d+) whole"
        r" duplicate groups \((\d+) matches, as --matches \3 gives them\)",
        err.splitlines()[0],
    )
    assert said is not None, err
    played, groups, shown = map(int, said.groups())
    assert groups >= 2 and shown <= played < 200
    assert f"{shown} matches, {groups} duplicate groups" in out
    # The same arena asked for that many matches from the start: the same numbers.
    again = arena_of(10**6, "whole", "--matches", str(shown), "--json", "whole.json")
    assert again.wait(timeout=120) == 0
    numbers = (tmp_path / "stopped.json").read_text().replace("stopped.py", "whole.py")
    assert numbers == (tmp_path / "whole.json").read_text()  # the bot's file named apart


def test_a_stopped_arena_raises_stopped_with_its_whole_groups_numbers() -> None:
    """From Python, ^C in ``arena.run`` raises ``arena.Stopped`` (a KeyboardInterrupt) holding
    the numbers of the duplicate groups played whole from the first."""
    scheme = arena.assignments(3, 2, None)

    def stop(done: int, total: int) -> None:
        if done == 2 * len(scheme) + 1:  # two groups whole, and one match of the third
            raise KeyboardInterrupt

    with pytest.raises(arena.Stopped) as stopped:
        arena.run(
            "pocha(players=3, schedule=[1])",
            ["random", "medium"],
            matches=40,
            workers=1,
            on_match=stop,
        )
    assert (
        isinstance(stopped.value, KeyboardInterrupt) and stopped.value.played == 2 * len(scheme) + 1
    )
    result = stopped.value.result
    assert result is not None and result.groups == 2
    whole = arena.run(
        "pocha(players=3, schedule=[1])", ["random", "medium"], matches=2 * len(scheme), workers=1
    )
    assert arena.dumps(result) == arena.dumps(whole)


class _UnderWayError(Exception):
    """Raised from the progress callback once the arena has shown it is under way."""


@pytest.mark.parametrize("workers", [1, 2])
def test_a_huge_arena_starts_at_once_in_the_memory_of_a_small_one(workers: int) -> None:
    # Two million matches, were they all made before the first is played, would hold hundreds
    # of megabytes and take seconds; the arena makes them as it plays them.
    import tracemalloc

    def stop(done: int, total: int) -> None:
        assert total == 2_000_000
        raise _UnderWayError

    tracemalloc.start()
    began = time.perf_counter()
    try:
        with pytest.raises(_UnderWayError):
            arena.run(
                "pocha(schedule=1)",
                ["random", "random"],
                matches=2_000_000,
                workers=workers,
                on_match=stop,
            )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - began < 30
    assert peak < 20_000_000, f"{peak / 1e6:.0f} MB"


def test_the_table_the_bots_page_reads_is_the_one_the_arena_prints() -> None:
    """docs/bots.md's "Reading the table": one-card Pocha, first between two randoms, 240
    matches at the default seed; its title, rows and verdicts as the arena prints them."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text("utf-8")
    section = page.split("### Reading the table", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert block is not None
    shown = [line.strip() for line in block.group(1).splitlines() if line.strip()]
    assert shown[0] == "pocha(schedule=1): 240 matches, 10 duplicate groups"
    result = arena.run(
        "pocha(schedule=1)", ["random", FirstBot(), "random"], matches=240, workers=1
    )
    out = io.StringIO()
    arena.report(result, Console(file=out, width=120))
    printed = {line.strip() for line in out.getvalue().splitlines()}
    assert [line for line in shown if line not in printed] == []


def test_the_bots_page_names_every_field_of_the_arena_json() -> None:
    """A reader of ``--json`` finds each key, and what it holds, in docs/bots.md's "The JSON"."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text("utf-8")
    section = page.split("### The JSON", 1)[1].split("\n#", 1)[0]
    named = set(re.findall(r"`([a-z_]+)`", section))
    result = arena.run("truco(target=3)", ["random", "easy"], matches=2, workers=1)
    data = json.loads(arena.dumps(result))
    keys = {*data, *data["results"][0], *data["differences"][0], *data["matches"][0]}
    assert sorted(keys - named) == []
