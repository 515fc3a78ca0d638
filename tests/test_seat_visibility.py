"""What a seat may see comes from the game alone, and nothing built on it gives more away.

The check is differential. At every step of seeded matches, for every seat and a spectator, the
cards the seat cannot see are dealt again consistently with its view (``sample_state``; later
deals kept as they were). Whatever that seat is then told must come out the same for the real and
the re-dealt table: its view, the hint it would get, and, for each move legal at both tables, the
move as it is told (``visible_action``), the events (``visible_events``), the lines of the web,
terminal and command-line logs, and its record. A step whose chance (a card drawn, a new deal)
shows the seat different cards at the two tables is not compared: there the seat rightly learns
something. Any leak of a hidden card would make the two tables tell different stories.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import tapete
from support import fingerprint, random_playout
from tapete import bots, record
from tapete.cards import CARD_TEXT
from tapete.game import Game
from tapete.games.truco import Special
from tapete.match import play
from tapete.narrate import line, reason_words, step_entries
from tapete.record import SeatInfo, SeatRecorder

# Every game and every option that hides something: hands and the stock everywhere; Pocha's
# ronda_india (every card but your own); Truco's cards played face down and its blind iron hand
# (target=2 makes one likely); Tute's stock draws and its four partners; Poch's folded hands.
# And the options that show some cards and not others: Poch's all_pass=showdown, an iron hand
# played open, a ronda india tie-break among eight, Tute's cantes after the stock.
HIDING = [
    ("pocha(players=3, schedule=[2, 1, 1], ronda_india=true)", 1),
    ("pocha(schedule=[3, 2])", 2),
    ("truco(target=2)", 16),
    ("truco(players=4, target=2)", 12),
    ("truco(target=3)", 5),
    ("tute", 6),
    ("tute(players=4, match=best_of_3)", 7),
    ("poch(players=3, rounds=2)", 8),
    ("pottle(deals=1, extra_deals=0)", 9),
    ("poch(players=3, chips=5, deal=all, all_pass=showdown, rounds=2)", 1),
    ("truco(players=4, target=2, iron_hand_blind=false)", 1),
    ("pocha(players=8, schedule=[1, 2], ronda_india=true, tiebreak_players=all)", 9),
    ("tute(stock_phase_play=free, cantes_after_stock=true, tute_declaration=true)", 27),
]
NAMES = ["Ana", "Bruno", "Carmen", "Diego", "Elena", "Fábio", "Gabi"]
HINT = bots.Budget(iterations=2)


def told(game: Game[Any, Any], seat: int | None, before: Any, action: int, after: Any) -> Any:
    """Everything ``seat`` is told about one step, by every part of tapete that tells it."""
    actor = game.current_player(before)
    assert actor is not None
    events = game.visible_events(after, seat)
    names = NAMES[: game.players]
    mine = step_entries(game, actor, action, before, after, seat)  # the terminal, command line
    public = step_entries(game, actor, action, before, after)  # the web's shared log
    return (
        game.visible_action(before, action, seat),
        [e.to_json() for e in events],
        [line(lang, e, names, you=seat) for e in mine for lang in ("en", "es", "pt")],
        [line("en", e, names) for e in public],
    )


def revealed(game: Game[Any, Any], state: Any) -> list[dict[str, Any]]:
    """What the last step showed the whole table, as this test reads the rules (not as the game
    tells it): every event but the deals, with no card drawn and no card played face down."""
    out = []
    for event in game.events(state):
        data = event.to_json()
        if event.type == "deal":
            continue
        if event.type == "draw":
            data.pop("cards")
        if event.type == "trick" and "down" in data:
            data["cards"] = [
                None if d else c for c, d in zip(data["cards"], data["down"], strict=True)
            ]
        out.append(data)
    return out


def comparisons(spec: str, seed: int) -> Iterator[tuple[str, Any, Any]]:
    """(what, real, re-dealt) pairs over a whole match, for every seat and a spectator."""
    game = tapete.load(spec)
    path = random_playout(game, seed)
    rng = random.Random(seed)
    for state, real_next in path[:-1]:
        actor = game.current_player(state)
        for seat in [*range(game.players), None]:
            view = game.observe(state, seat)
            redealt = game.sample_state(view, random.Random(rng.random()))
            redealt = redealt._with(setup=state.setup)  # later deals as they were
            yield "view", fingerprint(view), fingerprint(game.observe(redealt, seat))
            if seat is not None and seat == actor:
                hints = [
                    bots.hint(game.observe(s, seat), HINT, random.Random(seed))
                    for s in (state, redealt)
                ]
                told_real, told_redealt = (
                    (h.action, h.reason, reason_words("es", h.reason)) for h in hints
                )
                yield "hint", told_real, told_redealt
            both = [a for a in game.legal_actions(state) if a in game.legal_actions(redealt)]
            moves = {a for a in (real_next, *rng.sample(both, min(1, len(both)))) if a in both}
            for action in sorted(moves):
                after, other = game.apply(state, action), game.apply(redealt, action)
                seen = [fingerprint(game.observe(s, seat)) for s in (after, other)]
                if seen[0] != seen[1] or revealed(game, after) != revealed(game, other):
                    continue  # chance or play showed different cards: the seat rightly learns
                yield (
                    f"step {game.format_action(action)}",
                    told(game, seat, state, action, after),
                    told(game, seat, redealt, action, other),
                )


@pytest.mark.parametrize(("spec", "seed"), HIDING)
def test_a_seat_is_told_the_same_whatever_the_cards_it_cannot_see(spec: str, seed: int) -> None:
    steps = 0
    for what, real, redealt in comparisons(spec, seed):
        assert real == redealt, f"{spec}: {what} tells a hidden card"
        steps += what.startswith("step")
    assert steps > 10, f"{spec}: only {steps} steps compared"


@pytest.mark.parametrize(("spec", "seed"), HIDING)
def test_a_deal_tells_a_seat_the_hands_its_view_shows(spec: str, seed: int) -> None:
    """A deal as ``visible_events`` tells it holds exactly the hands ``observe`` shows that seat
    (none for a spectator), and no deck order or stock."""
    game = tapete.load(spec)
    deals = 0
    for state, _ in random_playout(game, seed):
        for event in game.events(state):
            if event.type != "deal":
                continue
            deals += 1
            for seat in [*range(game.players), None]:
                (seen,) = [e for e in game.visible_events(state, seat) if e.type == "deal"]
                shown = game.observe(state, seat).hands
                assert [sorted(h) for h in seen.data["hands"]] == [
                    [] if h is None else sorted(CARD_TEXT[c] for c in h) for h in shown
                ], f"{spec}: seat {seat} is dealt what its view hides"
                assert all(not seen.data.get(pile) for pile in ("deck", "stock", "undealt"))
    assert deals


def test_the_matches_compared_reach_every_secret() -> None:
    """The specs above do play what they are there for: a blind one-card deal, a blind iron
    hand, cards played face down, a folded Poch hand, draws from the Tute stock; a Poch
    showdown, an iron hand played open, a ronda india tie-break, a cante once the stock is out."""
    reached: set[str] = set()
    for spec, seed in HIDING:
        game = tapete.load(spec)
        for state, action in random_playout(game, seed)[:-1]:
            view = game.observe(state, game.current_player(state))
            text = game.format_action(action)
            if getattr(view, "blind", False):
                reached.add("iron hand")
            if "ronda_india" in spec and view.hand_size == 1:
                reached.add("ronda india")
            if text.endswith(" down"):
                reached.add("face down")
            if any(getattr(view, "folded", ())):
                reached.add("folded")
            if any(e.type == "draw" for e in game.events(game.apply(state, action))):
                reached.add("draw")
            if getattr(view, "showdown", ()):
                reached.add("showdown")
            if getattr(view, "special", None) == Special.MAO_DE_FERRO and not view.blind:
                reached.add("open iron hand")
            if "ronda_india" in spec and getattr(view, "tiebreak", False):
                reached.add("ronda india tie-break")
            if text.startswith("sing") and getattr(view, "stock_size", None) == 0:
                reached.add("cante after the stock")
    assert reached == {
        *("iron hand", "ronda india", "face down", "folded", "draw", "showdown"),
        *("open iron hand", "ronda india tie-break", "cante after the stock"),
    }


@pytest.mark.parametrize(("spec", "seed"), HIDING)
def test_a_seat_s_record_is_what_the_game_tells_it_step_by_step(spec: str, seed: int) -> None:
    """``record.redact`` writes, from a whole record, exactly what the seat was told along the
    way: the moves and events of ``visible_action`` and ``visible_events``, its own deals."""
    game = tapete.load(spec)
    _, rec = play(game, ["random"] * game.players, seed=seed)
    steps = list(record.steps(rec))
    for seat in [*range(game.players), None]:
        seen = SeatRecorder(game, steps[0][1], rec.seats, seat)
        for _, _, who, action, after in steps:
            seen.step(who, action, after)
        mine = record.redact(rec, seat)
        assert mine.deals == seen.record().deals
        assert mine.seed is None and mine.redacted == {"seat": seat}
        assert record.loads(record.dumps(mine)) == mine


def test_in_ronda_india_a_seat_s_record_hides_its_own_card() -> None:
    """Each seat sees every one-card hand but its own: so does the record it downloads."""
    game = tapete.load("pocha(players=3, schedule=[1], ronda_india=true)")
    state = game.new_state(4)
    recorder = record.Recorder(game, state, 4, [SeatInfo(n) for n in NAMES[:3]])
    hands = recorder.record().deals[0].hands
    for seat in range(3):
        mine = record.redact(recorder.record(), seat).deals[0].hands
        view = game.observe(state, seat)
        assert view.hands[seat] is None and mine[seat] == ()
        assert [h for s, h in enumerate(mine) if s != seat] == [
            h for s, h in enumerate(hands) if s != seat
        ]
    assert record.redact(recorder.record(), None).deals[0].hands == ((), (), ())


def test_in_ronda_india_the_table_shows_you_the_back_of_your_card_and_theirs_face_up() -> None:
    """The terminal and the browser draw a seat's table from ``present``: while the one-card
    hand is bid, you hold one card you cannot see (a back, not an empty hand) and see theirs."""
    from tapete.present import present

    game = tapete.load("pocha(players=3, schedule=[1], ronda_india=true)")
    state = game.new_state(4)
    for seat in range(3):
        table = present(game.observe(state, seat), "en", list(NAMES[:3]))
        assert (table.hand, table.blind) == ((), 1)
        others = [s for s in table.seats if s.seat != seat]
        assert all(len(s.shown) == 1 for s in others)


def test_the_terminal_log_never_names_a_card_a_bot_played_face_down() -> None:
    """At the terminal you read your own face-down cards; a bot's are told as face down."""
    from tapete.games.truco import BLIND, DOWN
    from tapete.tui.session import Session

    game = tapete.load("truco")
    session = Session(game, ["human", "random"], 5)
    rng = random.Random(5)
    while (turn := session.turn) is not None:
        session.push(turn, rng.choice(game.legal_actions(session.state)))
    lines = session.log_lines("en", limit=10_000)
    theirs = [step for step in session.steps if step.seat == 1 and DOWN <= step.action < BLIND]
    mine = [step for step in session.steps if step.seat == 0 and DOWN <= step.action < BLIND]
    assert theirs and mine, "no face-down play by both seats in this match"
    assert lines.count("Bruno plays a card face down") == len(theirs)
    assert sum(line.startswith("you play ") and "face down" in line for line in lines) == len(mine)
    assert "you play a card face down" not in lines
