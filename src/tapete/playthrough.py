"""Golden playthroughs: the text transcript of one seeded random match (OpenSpiel's idea).

Every decision with the acting seat, what it could see of its own hand, its legal actions and the
action taken, and every event with its data. A transcript stored in ``tests/playthroughs`` is
compared on every test run, so any change in the rules' behaviour shows up as a diff; regenerate
one deliberately with ``tapete playthrough SPEC --seed N > tests/playthroughs/NAME.txt``.

A *narration* is the same match as the narrator tells it, in a language (``tapete playthrough
SPEC --seed N --narrate es``); those in ``tests/narrations`` show any change in the words.
"""

from __future__ import annotations

import json
import random

from tapete.games import load

__all__ = ["narration", "transcript"]

HEADER = "# tapete playthrough: "
NARRATION = "# tapete narration: "
NAMES = ("Ana", "Bruno", "Carmen", "Diego", "Elena", "Fábio", "Gabi", "Hugo")


def transcript(spec: str, seed: int = 0) -> str:
    """The transcript of the match ``spec`` with ``seed``, random legal actions from that seed."""
    game = load(spec)
    rng = random.Random(seed)
    state = game.new_state(seed)
    lines = [f"{HEADER}{game.spec} --seed {seed}"]

    def events() -> None:
        for event in game.events(state):
            lines.append(f"event {json.dumps(event.to_json(), separators=(',', ':'))}")

    events()
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        hand = getattr(game.observe(state, seat), "hand", None)
        action = legal[rng.randrange(len(legal))]
        lines.append(
            f"seat {seat} hand [{hand if hand is not None else '?'}] "
            f"legal [{', '.join(game.format_action(a) for a in legal)}] "
            f"-> {game.format_action(action)}"
        )
        state = game.apply(state, action)
        events()
    lines.append(f"outcome {game.outcome(state)}")
    return "\n".join(lines) + "\n"


def narration(spec: str, seed: int = 0, lang: str = "en") -> str:
    """The match of ``transcript(spec, seed)`` as the narrator tells it in ``lang``, every
    hand open."""
    from tapete.narrate import record_lines
    from tapete.record import Recorder, SeatInfo

    game = load(spec)
    rng = random.Random(seed)
    state = game.new_state(seed)
    seats = [SeatInfo(NAMES[s % len(NAMES)], "bot", "random") for s in range(game.players)]
    recorder = Recorder(game, state, seed, seats)
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state = game.apply(state, action)
        recorder.step(seat, action, state)
    told = record_lines(recorder.record(), lang=lang)
    return "\n".join([f"{NARRATION}{game.spec} --seed {seed} --narrate {lang}", *told]) + "\n"
