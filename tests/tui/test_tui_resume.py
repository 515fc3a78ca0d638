"""Leaving a match half-played at the table and coming back to it: ^Q asks, the unfinished match
is saved as a record, the replay steps through it and ``--resume`` plays it to the end."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

import tapete
from tapete import record
from tapete.record import Record
from tapete.tui import PlayConfig, TapeteApp, records
from tapete.tui.records import listing
from tapete.tui.resume import QuitScreen
from tapete.tui.screens import ReplayScreen, SummaryScreen, TableScreen
from tapete.tui.widgets import TitleBar
from tuikit import (
    make_app,
    play_to_the_end,
    press_a_legal_key,
    settle,
    table_screen,
    text_of,
)

POCHA = "pocha(schedule=[2, 3])"
FOUR = ["human", "random", "easy", "random"]


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


async def quit_half_way(tmp_path: Path, answers: list[str]) -> tuple[TapeteApp, list[str]]:
    """Play four of your moves, then ^Q and the keys in ``answers``; the moves played so far."""
    app = make_app(POCHA, FOUR, 5, tmp_path)
    rng = random.Random(1)
    async with app.run_test() as pilot:
        screen = await settle(pilot)
        for _ in range(4):
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
        assert not screen.finished
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")  # keep playing: nothing changes
        await pilot.pause()
        assert app.screen_stack[-1] is screen and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        played = [screen.session.game.format_action(s.action) for s in screen.session.steps]
        for key in answers:
            await pilot.press(key)
        await pilot.pause()
    return app, played


def test_ctrl_q_asks_and_saves_the_unfinished_match_as_a_record(tmp_path: Path) -> None:
    async def go() -> None:
        app, played = await quit_half_way(tmp_path, ["y"])
        assert not app.is_running
        saved = list((tmp_path / "records").glob("*.json"))
        assert len(saved) == 1
        rec = record.read(saved[0])
        assert rec.result is None and rec.seed == 5
        assert [a for d in rec.deals for _, a in d.actions] == played
        assert [s.kind for s in rec.seats] == ["human", "bot", "bot", "bot"]
        assert record.checked(rec) == rec
        assert listing(tmp_path / "records")[0].result == "unfinished"

    run(go())


def test_quitting_without_saving_keeps_nothing(tmp_path: Path) -> None:
    async def go() -> None:
        app, _ = await quit_half_way(tmp_path, ["d"])
        assert not app.is_running
        assert not list((tmp_path / "records").glob("*.json"))

    run(go())


def test_every_move_is_kept_as_it_is_played_so_a_crash_loses_nothing(tmp_path: Path) -> None:
    """Without ^Q (a kill, a closed terminal): after each of your moves, and the bots' up to
    your turn, the records folder holds the match so far in one file, which goes on; the end
    of the match is written over it."""

    async def go() -> None:
        app = make_app(POCHA, FOUR, 5, tmp_path)
        rng = random.Random(1)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            for _ in range(3):
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
                kept = list((tmp_path / "records").glob("*.json"))
                assert len(kept) == 1 and kept[0] == screen.kept
                rec = record.read(kept[0])
                steps = screen.session.steps
                assert rec.result is None and sum(len(d.actions) for d in rec.deals) == len(steps)
            screen = await play_to_the_end(pilot, rng)
        kept = list((tmp_path / "records").glob("*.json"))
        assert len(kept) == 1 and record.read(kept[0]).result is not None

    run(go())


def test_a_records_folder_removed_mid_match_is_made_again_at_the_next_move(
    tmp_path: Path,
) -> None:
    """The records folder deleted while a match is played (a clean-up): the next move puts the
    match back in its file, rather than saying the folder does not exist to the end."""

    async def go() -> None:
        app = make_app(POCHA, FOUR, 5, tmp_path)
        rng = random.Random(1)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            kept = screen.kept
            assert kept is not None and kept.exists()
            shutil.rmtree(tmp_path / "records")
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            assert screen.kept == kept and screen.failed == ()
            assert_holds_the_table(kept, screen)

    run(go())


def test_a_save_another_tapete_goes_on_with_is_not_written_over(tmp_path: Path) -> None:
    """The same match played on in two terminals at once (resumed twice, or resumed while it
    is still open): the file one of them wrote its moves in is not written over by the other,
    which keeps its match in a new file; neither loses a move, even quitting without saving."""

    async def go() -> None:
        app = make_app(POCHA, FOUR, 5, tmp_path)
        rng = random.Random(1)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            kept = screen.kept
            assert kept is not None
            # The other tapete, resumed from that file, plays a move of its own there.
            theirs = played_on_by_one_move(record.read(kept))
            record.write(theirs, kept)
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            assert record.read(kept) == theirs
            assert screen.kept is not None and screen.kept != kept
            assert_holds_the_table(screen.kept, screen)
            await pilot.press("ctrl+q")
            await pilot.pause()
            await pilot.press("d")  # quit without saving: this sitting's file goes, theirs stays
            await pilot.pause()
        assert record.read(kept) == theirs

    run(go())


def assert_holds_the_table(path: Path, screen: TableScreen) -> None:
    """The match kept at ``path`` is the one on ``screen``'s table, move for move."""
    rec = record.read(path)
    played = [a for d in rec.deals for _, a in d.actions]
    assert played == [screen.session.game.format_action(s.action) for s in screen.session.steps]


def played_on_by_one_move(rec: Record) -> Record:
    """``rec`` with one move more, as another tapete going on with it would have it."""
    from tapete.match import resume

    _, whole = resume(rec, ["random"] * len(rec.seats))
    return record.cut(whole, sum(len(d.actions) for d in rec.deals) + 1)


def test_a_move_undone_is_undone_in_the_kept_match_too(tmp_path: Path) -> None:
    """A crash right after ``u`` does not bring the move taken back when the match resumes."""

    async def go() -> None:
        app = make_app(POCHA, FOUR, 5, tmp_path)
        rng = random.Random(1)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            for _ in range(3):
                await press_a_legal_key(pilot, rng)
                screen = await settle(pilot)
            for _ in range(3):  # back to before your first move, one move at a time
                await pilot.press("u")
                await pilot.pause()
                assert screen.kept is not None
                assert_holds_the_table(screen.kept, screen)

    run(go())


def test_the_replay_steps_through_an_unfinished_record(tmp_path: Path) -> None:
    _, whole = tapete.match.play(tapete.load(POCHA), ["random"] * 4, seed=2)
    half = record.cut(whole, 13)  # the two-card deal took 12

    async def go() -> None:
        app = TapeteApp(replay=half, data=tmp_path, lang="en")
        async with app.run_test() as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            title = app.screen.query_one(TitleBar)
            assert "step 0 of 13" in text_of(title)
            await pilot.press(*["right"] * 14)  # one past the end stays at the end
            await pilot.pause()
            assert "step 13 of 13" in text_of(title) and "hand 2 of 2  ·  " in text_of(title)

    run(go())


def test_resume_plays_the_saved_match_to_the_end(tmp_path: Path) -> None:
    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        path = next((tmp_path / "records").glob("*.json"))
        half = record.read(path)
        kinds = tuple("human" if s.kind == "human" else s.bot or "" for s in half.seats)
        assert kinds == tuple(FOUR)
        game = tapete.load(half.game)
        config = PlayConfig(game, kinds, half.seed or 0, resume=half)
        app = TapeteApp(play=config, data=tmp_path, lang="en", speed="instant")
        rng = random.Random(3)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            moves = sum(len(d.actions) for d in half.deals)
            assert len(screen.session.steps) >= moves
            screen = await play_to_the_end(pilot, rng)
            assert isinstance(app.screen, SummaryScreen)
            assert isinstance(table_screen(app), TableScreen)
            assert screen.saved_to is not None
            finished = record.read(screen.saved_to)
        assert finished.result is not None and finished.seed == half.seed
        played = [a for d in finished.deals for a in d.actions]
        assert played[:moves] == [a for d in half.deals for a in d.actions]
        assert record.checked(finished) == finished

    run(go())


async def resume_and(tmp_path: Path, half: Record, until: str) -> TableScreen:
    """Go on with ``half`` at the table and play on: to the end (``finished``), or one move
    of yours and then ^Q with ``y`` (saved) or ``d`` (quit without saving)."""
    kinds = tuple("human" if s.kind == "human" else s.bot or "" for s in half.seats)
    config = PlayConfig(tapete.load(half.game), kinds, half.seed or 0, resume=half)
    app = TapeteApp(play=config, data=tmp_path, lang="en", speed="instant")
    rng = random.Random(3)
    async with app.run_test() as pilot:
        screen = await settle(pilot)
        await press_a_legal_key(pilot, rng)
        screen = await settle(pilot)
        if until == "finished":
            screen = await play_to_the_end(pilot, rng)
        else:
            await pilot.press("ctrl+q")
            await pilot.pause()
            await pilot.press(until)
            await pilot.pause()
            assert not app.is_running
    return screen


def saved_matches(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "records").glob("*.json"))


def test_a_resumed_match_finished_is_listed_once_and_not_as_unfinished(tmp_path: Path) -> None:
    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [path] = saved_matches(tmp_path)
        await resume_and(tmp_path, record.read(path), "finished")
        assert saved_matches(tmp_path) == [path]  # the same file, now the whole match
        assert record.read(path).result is not None
        [listed] = listing(tmp_path / "records")
        assert listed.path == path and listed.result != "unfinished"

    run(go())


def test_a_resumed_match_saved_again_is_listed_once_where_it_now_stops(tmp_path: Path) -> None:
    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [path] = saved_matches(tmp_path)
        half = record.read(path)
        screen = await resume_and(tmp_path, half, "y")
        assert saved_matches(tmp_path) == [path]
        again = record.read(path)
        assert again.result is None and again == screen.session.record()
        assert sum(map(len, (d.actions for d in again.deals))) > sum(
            map(len, (d.actions for d in half.deals))
        )
        assert [s.path for s in listing(tmp_path / "records")] == [path]

    run(go())


def test_a_resumed_match_quit_without_saving_stays_as_it_was_saved(tmp_path: Path) -> None:
    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [path] = saved_matches(tmp_path)
        half = record.read(path)
        await resume_and(tmp_path, half, "d")
        assert saved_matches(tmp_path) == [path] and record.read(path) == half
        [listed] = listing(tmp_path / "records")
        assert listed.result == "unfinished"

    run(go())


def test_the_list_leaves_out_an_unfinished_save_another_record_goes_on_with(
    tmp_path: Path,
) -> None:
    """A folder as earlier versions left it: the save a match was resumed from, beside the
    record of the match played on from it; one entry, the match as it went on."""
    _, whole = tapete.match.play(tapete.load(POCHA), ["random"] * 4, seed=2)
    folder = tmp_path / "records"
    folder.mkdir()
    record.write(record.cut(whole, 13), folder / "20250101-120000-pocha-2.json")
    record.write(record.cut(whole, 20), folder / "20250101-130000-pocha-2.json")
    record.write(whole, folder / "20250101-140000-pocha-2.json")
    _, other = tapete.match.play(tapete.load(POCHA), ["random"] * 4, seed=3)
    record.write(record.cut(other, 5), folder / "20250101-110000-pocha-3.json")
    for file in folder.iterdir():  # each last written when its name says it was begun
        stamp = datetime.strptime(file.name[:15], "%Y%m%d-%H%M%S").timestamp()
        os.utime(file, (stamp, stamp))
    listed = listing(folder)
    assert [s.path.name for s in listed] == [
        "20250101-140000-pocha-2.json",
        "20250101-110000-pocha-3.json",
    ]
    assert [s.result == "unfinished" for s in listed] == [False, True]


def test_a_match_resumed_from_a_file_elsewhere_and_quit_without_saving_leaves_no_save(
    tmp_path: Path,
) -> None:
    """Resumed from a file outside the records folder: its moves were kept in a new save as
    they were played; quitting without saving removes that save and leaves the file alone."""

    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [saved] = saved_matches(tmp_path)
        elsewhere = saved.rename(tmp_path / "elsewhere.json")  # moved out of the folder
        half = record.read(elsewhere)
        await resume_and(tmp_path, half, "d")
        assert saved_matches(tmp_path) == []
        assert record.read(elsewhere) == half

    run(go())


async def resume_from_file(
    tmp_path: Path, file: Path, moves: int, until: str | None = None
) -> TableScreen:
    """Go on at the table with the match in ``file`` as ``tapete play --resume FILE`` does
    (the file is where the match goes on being recorded): play ``moves`` of yours, then ^Q and
    ``until`` (``d``: quit without saving), or leave it there (a crash: nothing more is said)."""
    half = record.read(file)
    kinds = tuple("human" if s.kind == "human" else s.bot or "" for s in half.seats)
    game = tapete.load(half.game)
    config = PlayConfig(game, kinds, half.seed or 0, record_path=file, resume=half)
    app = TapeteApp(play=config, data=tmp_path, lang="en", speed="instant")
    rng = random.Random(3)
    async with app.run_test() as pilot:
        screen = await settle(pilot)
        for _ in range(moves):
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
        if until is not None:
            await pilot.press("ctrl+q")
            await pilot.pause()
            await pilot.press(until)
            await pilot.pause()
            assert not app.is_running
        else:
            # What the files hold now is what a crash here would leave.
            assert record.read(file) == screen.session.record()
    return screen


def test_a_match_resumed_from_a_file_elsewhere_goes_on_being_recorded_there(
    tmp_path: Path,
) -> None:
    """Resumed from a file outside the records folder: every move is written to that file as
    it is played (a second crash loses nothing), beside the save the records folder keeps;
    quitting without saving puts the file back as it was."""

    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [saved] = saved_matches(tmp_path)
        elsewhere = saved.rename(tmp_path / "elsewhere.json")
        half = record.read(elsewhere)
        screen = await resume_from_file(tmp_path, elsewhere, 1)
        assert record.read(elsewhere).result is None and record.read(elsewhere) != half
        assert saved_matches(tmp_path) == [screen.kept]
        again = record.read(elsewhere)
        await resume_from_file(tmp_path, elsewhere, 1, "d")
        assert record.read(elsewhere) == again

    run(go())


def test_a_match_resumed_from_its_save_is_still_one_file_and_quit_leaves_it_as_it_was(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [path] = saved_matches(tmp_path)
        half = record.read(path)
        screen = await resume_from_file(tmp_path, path, 1)
        assert saved_matches(tmp_path) == [path] and screen.kept == path
        assert record.read(path) != half
        again = record.read(path)
        await resume_from_file(tmp_path, path, 1, "d")
        assert saved_matches(tmp_path) == [path] and record.read(path) == again

    run(go())


def test_a_save_cut_short_is_said_on_the_table_it_goes_on_at(tmp_path: Path) -> None:
    """``tapete play --resume`` of a file cut short opens the table with what was lost said in
    a notification (the terminal table hides what was printed before it)."""
    from tapete.match import play

    _, whole = play(tapete.load("pocha(schedule=[2, 3])"), ["random"] * 4, seed=4)
    text = record.dumps(record.cut(whole, 14))
    salvaged = record.salvage(text[: text.rindex('{"seat"') + 5])
    assert salvaged is not None
    half, moves = salvaged
    said = f"cut.json was cut short: {moves} moves in"
    config = PlayConfig(tapete.load(half.game), tuple(FOUR), 4, resume=half, notice=said)

    async def go() -> None:
        app = TapeteApp(play=config, data=tmp_path, lang="en", speed="instant")
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            assert len(screen.session.steps) >= moves == 13
            assert [n.message for n in app._notifications] == [said]

    run(go())


def test_a_save_cut_short_resumed_goes_on_in_that_same_save(tmp_path: Path) -> None:
    """A save of the records folder cut short by a crash, resumed as ``tapete play --resume``
    does (from as much of it as replays): the match goes on in that save, one file and one
    entry of the records list, not in a new save beside the damaged one."""

    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [path] = saved_matches(tmp_path)
        text = path.read_text(encoding="utf-8")
        path.write_text(text[: text.rindex('{"seat"') + 5], encoding="utf-8")  # a crash
        salvaged = record.salvage(path.read_text(encoding="utf-8"))
        assert salvaged is not None
        half, _ = salvaged
        kinds = tuple("human" if s.kind == "human" else s.bot or "" for s in half.seats)
        config = PlayConfig(tapete.load(half.game), kinds, 5, record_path=path, resume=half)
        app = TapeteApp(play=config, data=tmp_path, lang="en", speed="instant")
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await press_a_legal_key(pilot, random.Random(3))
            screen = await settle(pilot)
            assert screen.kept == path
            assert record.read(path) == screen.session.record()
        assert saved_matches(tmp_path) == [path]
        assert [s.path for s in listing(tmp_path / "records")] == [path]

    run(go())


def test_a_save_cut_short_resumed_with_record_naming_another_file_goes_on_in_that_save(
    tmp_path: Path,
) -> None:
    """``tapete play --resume SAVE --record OTHER`` of a save of the records folder cut short
    by a crash: the match goes on in that save, as it would were the save whole (one entry
    of the records list, no new save beside the damaged one), and OTHER gets its copy."""

    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [path] = saved_matches(tmp_path)
        text = path.read_text(encoding="utf-8")
        path.write_text(text[: text.rindex('{"seat"') + 5], encoding="utf-8")  # a crash
        salvaged = record.salvage(path.read_text(encoding="utf-8"))
        assert salvaged is not None
        half, _ = salvaged
        other = tmp_path / "other.json"
        kinds = tuple("human" if s.kind == "human" else s.bot or "" for s in half.seats)
        config = PlayConfig(
            tapete.load(half.game),
            kinds,
            5,
            record_path=other,
            resume=half,
            resume_file=path,
        )
        app = TapeteApp(play=config, data=tmp_path, lang="en", speed="instant")
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await press_a_legal_key(pilot, random.Random(3))
            screen = await settle(pilot)
            assert screen.kept == path
            assert record.read(path) == screen.session.record() == record.read(other)
        assert saved_matches(tmp_path) == [path]
        found = records.folder_records(tmp_path / "records")
        assert [s.path for s in found.saved] == [path] and found.unreadable == []

    run(go())


def test_a_save_resumed_at_a_second_terminal_is_refused_before_its_table_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same save resumed while another tapete plays on in it (here at the line prompt,
    waiting for its move): the table never opens, one line says why in the player's language,
    the exit status is not 0, and the first goes on as if nothing happened."""

    async def go() -> None:
        await quit_half_way(tmp_path, ["y"])
        [path] = saved_matches(tmp_path)
        half = record.read(path)
        first = subprocess.Popen(
            [sys.executable, "-m", "tapete.cli", "play", "--resume", str(path), "--plain"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            assert first.stdout is not None
            shown = b""
            while b"your move (" not in shown:  # it holds the save, and asks for a move
                more = os.read(first.stdout.fileno(), 4096)
                assert more, shown
                shown += more
            kinds = tuple("human" if s.kind == "human" else s.bot or "" for s in half.seats)
            game = tapete.load(half.game)
            config = PlayConfig(game, kinds, 5, record_path=path, resume=half, resume_file=path)
            app = TapeteApp(play=config, data=tmp_path, lang="es", speed="instant")
            capsys.readouterr()  # what the match before said as it was saved
            async with app.run_test() as pilot:
                await pilot.pause()
                assert not any(isinstance(s, TableScreen) for s in app.screen_stack)
            assert app.return_code == 2
            said = capsys.readouterr().err.replace("\n", "")
            assert said.startswith(f"tapete: {path} se está jugando en otra terminal (proceso ")
            assert f"proceso {first.pid} de tapete" in said
            assert record.read(path) == half and saved_matches(tmp_path) == [path]
            _, err = first.communicate(b"?\nq\n", timeout=120)
        finally:
            if first.poll() is None:
                first.kill()
                first.communicate()
        assert first.returncode == 1 and f"kept in {path}" in err.decode(), err
        assert record.read(path) == half

    run(go())


def test_a_save_still_being_played_at_the_table_is_refused_at_another_terminal(
    tmp_path: Path,
) -> None:
    """A match under way at the table keeps its save held from its first write: ``tapete
    play --resume`` of that save at another terminal is refused at once, and the table goes
    on writing its moves there."""

    async def go() -> None:
        app = make_app(POCHA, FOUR, 5, tmp_path)
        rng = random.Random(1)
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            kept = screen.kept
            assert kept is not None
            other = subprocess.run(
                [sys.executable, "-m", "tapete.cli", "play", "--resume", str(kept), "--plain"],
                input="q\n",
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert other.returncode == 2 and other.stdout == "", other.stderr
            assert other.stderr == (
                f"tapete: {kept} is being played on at another terminal (tapete process"
                f" {os.getpid()}): go on with it there, or quit it there first\n"
            )
            await press_a_legal_key(pilot, rng)
            screen = await settle(pilot)
            assert screen.kept == kept
            assert_holds_the_table(kept, screen)

    run(go())


def test_a_tute_match_tied_on_points_says_at_its_end_why_its_winner_won(tmp_path: Path) -> None:
    """Two equal scores and one winner came with no reason: the last trick decides a tie."""
    from tapete.record import Recorder, SeatInfo

    game = tapete.load("tute")
    rng, state, moves = random.Random(15), game.new_state(15), []
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        moves.append((seat, legal[rng.randrange(len(legal))]))
        state = game.apply(state, moves[-1][1])
    state = game.new_state(15)
    recorder = Recorder(
        game, state, 15, [SeatInfo("Ana", "human"), SeatInfo("Bea", "bot", "random")]
    )
    for seat, action in moves[:-1]:
        state = game.apply(state, action)
        recorder.step(seat, action, state)
    assert len(game.legal_actions(state)) == 1  # the last card: whoever plays it, it is played
    half = recorder.record()  # all but the last card, which is the only one its player has

    async def go() -> None:
        config = PlayConfig(game, ("human", "random"), 15, resume=half)
        app = TapeteApp(play=config, data=tmp_path, lang="es", speed="instant")
        async with app.run_test() as pilot:
            screen = await settle(pilot)
            while not screen.finished:
                await press_a_legal_key(pilot, random.Random(1))
                screen = await settle(pilot)
            assert isinstance(app.screen, SummaryScreen)
            outcome = screen.session.over
            assert outcome is not None and outcome.scores == (60, 60)
            why = app.screen.query_one("#summary-why")
            assert text_of(why) == "empate a puntos: decide la última baza"

    run(go())
