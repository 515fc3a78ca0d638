"""The narrator: one account of the table for the command line, terminal and web, in every
language, and the bots' reasons worded in every language."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest

import tapete
from conformance_specs import SPECS
from tapete import bots
from tapete.bots import Move, Reason, said_after, searched
from tapete.cli import main
from tapete.game import Event
from tapete.i18n import LANGUAGES, catalog
from tapete.match import play
from tapete.narrate import (
    event_entries,
    line,
    reason_words,
    record_lines,
    step_entries,
    view_text,
    who_won,
)
from tapete.record import SeatInfo, write
from tapete.tui.session import Replay

NAMES = ["Ana", "Bea", "Carla", "Dani"]


def _first(game: tapete.Game[Any, Any], seed: int, wanted: str) -> tuple[Any, int]:
    """The first state of a seeded random match where ``wanted`` is legal, and that action."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    while game.current_player(state) is not None:
        legal = {game.format_action(a): a for a in game.legal_actions(state)}
        if wanted in legal:
            return state, legal[wanted]
        state = game.apply(state, rng.choice(list(legal.values())))
    raise AssertionError(f"{wanted} never legal")


def test_a_truco_player_who_runs_is_told_running_in_every_language() -> None:
    game = tapete.load("truco")
    for seed in range(20):
        try:
            state, run = _first(game, seed, "run")
            break
        except AssertionError:
            continue
    seat = game.current_player(state)
    assert seat is not None
    entries = step_entries(game, seat, run, state, game.apply(state, run))
    said = {lang: line(lang, entries[0], NAMES) for lang in LANGUAGES}
    assert said == {
        "en": f"{NAMES[seat]} runs",
        "es": f"{NAMES[seat]} corre",
        "pt": f"{NAMES[seat]} corre",
    }
    assert line("es", entries[0], NAMES, you=seat) == "corres"


def test_poch_s_runs_are_told_with_their_cards() -> None:
    game = tapete.load("poch(players=3, rounds=1)")
    rec = play(game, ["random"] * 3, seed=4)[1]
    runs = [t.split(": ", 1)[1].split() for t in record_lines(rec) if t.startswith("  run: ")]
    assert runs and all(game.parse_card(c) >= 0 for run in runs for c in run)


@pytest.mark.parametrize("saved_as", ["you", "you (0)"])
def test_a_record_tells_the_person_who_played_it_as_you_with_their_own_verbs(
    saved_as: str,
) -> None:
    """A match played at the terminal app (seat "you") or the line prompt ("you (0)")."""
    game = tapete.load("truco")
    rec = play(game, ["random"] * 2, seed=2)[1]
    rec = dataclasses.replace(rec, seats=(SeatInfo(saved_as, "human"), rec.seats[1]))
    told = {lang: "\n".join(record_lines(rec, lang=lang)) for lang in LANGUAGES}
    assert "you deal, " in told["en"] and "you play " in told["en"] and "  you: " in told["en"]
    assert not re.search(r"\byou(?: \(0\))? (?:deals|plays|calls|runs|takes|bids)\b", told["en"])
    assert "repartes tú" in told["es"] and "  tú: " in told["es"]
    assert "você dá as cartas" in told["pt"] and "você joga " in told["pt"]
    ends = [said.splitlines()[-1].strip() for said in told.values()]
    assert ends == [
        "match over: you won",
        "partida terminada: ganaste",
        "partida encerrada: você venceu",
    ]
    # With a partner: both named, the verb yours.
    end = {"kind": "end", "winners": [0, 2]}
    assert line("es", end, ["tú", *NAMES[1:]], you=0) == "partida terminada: ganasteis tú y Carla"
    assert line("en", end, NAMES, you=1) == "match over: Ana and Carla won"
    assert line("pt", end, NAMES) == "partida encerrada: Ana e Carla venceram"  # the verb plural
    assert line("es", {"kind": "end", "winners": [0, 1, 2]}, NAMES) == (
        "partida terminada: ganaron Ana, Bea y Carla"
    )


def test_a_tie_of_you_and_two_or_more_others_is_told_as_one_list() -> None:
    """Pottle splits an unwon pot evenly, so every seat can tie: the list ends in "and"."""
    end = {"kind": "end", "winners": [0, 1, 2, 3]}
    said = {lang: line(lang, end, NAMES, you=0) for lang in LANGUAGES}
    assert said == {
        "en": "match over: you, Bea, Carla and Dani won",
        "es": "partida terminada: ganasteis tú, Bea, Carla y Dani",
        "pt": "partida encerrada: você, Bea, Carla e Dani venceram",
    }
    # the same from a whole record played at the line prompt (pottle's pot split, seed 0)
    rec = play(tapete.load("pottle(deals=1)"), ["random"] * 4, seed=0)[1]
    rec = dataclasses.replace(rec, seats=(SeatInfo("you", "human"), *rec.seats[1:]))
    last = list(record_lines(rec))[-1].strip()
    assert last.startswith("match over: you, ") and last.count(" and ") == 1, last


def test_every_kind_of_entry_a_match_makes_has_words_of_its_own() -> None:
    """No entry falls through to its bare kind or to notation ("name: action")."""
    for name in SPECS:
        game = tapete.load(SPECS[name][0])
        rng = random.Random(name)
        state = game.new_state(2)
        while (seat := game.current_player(state)) is not None:
            action = rng.choice(game.legal_actions(state))
            after = game.apply(state, action)
            for entry in step_entries(game, seat, action, state, after):
                assert entry["kind"] not in ("other", "event"), (name, entry)
                for lang in LANGUAGES:
                    said = line(lang, entry, NAMES[: game.players])
                    assert said and said != entry["kind"], (name, lang, entry)
            state = after


def _reasons(reason: Reason | Move | Any) -> list[Reason]:
    if not isinstance(reason, Reason):
        return []
    return [reason, *(r for v in reason.args.values() for r in _reasons(v))]


@pytest.mark.parametrize("level", ["easy", "medium", "hard(iterations=4)"])
@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_reason_a_bot_gives_is_worded_in_every_language(name: str, level: str) -> None:
    game = tapete.load(SPECS[name][0])
    bot = bots.load(level)
    assert isinstance(bot, bots.LevelBot)
    rng = random.Random(level)
    state = game.new_state(1)
    decisions = 0
    while (seat := game.current_player(state)) is not None and decisions < 12:
        legal = game.legal_actions(state)
        decision = bot.decide(game.observe(state, seat), legal, rng)
        for reason in _reasons(decision.reason):
            for lang in LANGUAGES[1:]:
                assert reason.text in catalog(lang), (lang, reason.text)
        for lang in LANGUAGES:
            assert reason_words(lang, decision.reason)
        assert str(decision.reason)  # the English, for library users
        state = game.apply(state, decision.action)
        decisions += 1


def test_a_search_plan_names_its_moves_as_buttons() -> None:
    """Its numbers said plainly: what the move is worth on average, over how many possible
    deals of the hidden cards (not "sampled deals", the search's own word)."""
    plan = searched(["bid 2", "play Kd"], 1.25, "points", 40)
    assert str(plan) == (
        "bid 2 then play Kd: worth +1.2 points on average in 40 possible deals of the hidden cards"
    )
    assert reason_words("es", plan, "french") == (
        "pedir 2, después jugar K♦: vale +1,2 puntos de media en 40 repartos posibles"
        " de las cartas ocultas"
    )
    # A hint names its move first; its reason goes on from there.
    assert reason_words("pt", said_after(plan, "bid 2"), "french") == (
        "depois jogar K♦: vale +1,2 pontos em média em 40 distribuições possíveis"
        " das cartas ocultas"
    )
    alone = said_after(searched(["bid 2"], 1.25, "chips", 40), "bid 2")
    assert reason_words("es", alone) == (
        "vale +1,2 fichas de media en 40 repartos posibles de las cartas ocultas"
    )
    one = searched(["bid 2"], -0.3, "points", 1)
    said = str(said_after(one, "bid 2"))
    assert said == "worth -0.3 points in 1 possible deal of the hidden cards"
    assert said_after(plan, "bid 3") == plan


def test_a_tute_deal_says_where_each_side_s_points_came_from() -> None:
    """Cards, cantes and the 10 of the last trick (las diez de últimas), added up to the deal's
    points, in every language: a newcomer sees why the deal went as it did."""
    from tapete.playthrough import narration

    said = {lang: narration("tute(players=4)", 7, lang) for lang in LANGUAGES}
    assert (
        "  score of the deal: team 1 +53, team 2 +97\n"
        "  how the deal was scored: team 1 33 in cards + 20 sung = 53;"
        " team 2 87 in cards + 10 for the last trick = 97\n"
    ) in said["en"]
    assert "equipo 2 87 en cartas + 10 de últimas = 97" in said["es"]
    assert "dupla 2 87 em cartas + 10 da última vaza = 97" in said["pt"]
    # Each cante says what it is worth as it is sung.
    assert "  Carmen sings 20 in bastos\n" in said["en"]
    assert "  Carmen canta las 20 en bastos\n" in said["es"]
    assert "  Carmen canta 20 em paus\n" in said["pt"]


def test_a_tute_tie_says_the_last_trick_decided_it() -> None:
    """Equal points and one side named the winner: the narration says why, in every language,
    where the tie decides something (one deal, a deal of a best-of match, a to_101 match ending
    on equal totals), and not for a tied deal whose totals go on to the next."""
    from tapete.playthrough import narration

    one = narration("tute", 15, "en")
    assert (
        "  how the deal was scored: Ana 60 in cards = 60; Bruno 60 in cards = 60;"
        " tied: the last trick decides (Ana)\n  match over: Ana won\n"
    ) in one
    assert "empate: decide la última baza (equipo 2)" in narration("tute(players=4)", 156, "es")
    assert "tied: the last trick decides (Ana)" in narration("tute(match=best_of_3)", 53, "en")
    assert "empate nos totais: decide a última vaza (Ana)" in narration(
        "tute(match=to_101)", 39, "pt"
    )
    carried = narration("tute(match=to_101)", 15, "en")
    assert "Ana 60 in cards = 60; Bruno 60 in cards = 60\n" in carried
    assert "last trick decides" not in carried
    assert "last trick decides" not in narration("tute(players=4)", 7, "en")


def test_a_pocha_hand_s_score_comes_with_each_player_s_tricks_against_the_bid() -> None:
    """+15, -5: why is under it, each player's tricks and bid, in every language."""
    from tapete.playthrough import narration

    told = narration("pocha(schedule=[1, 2, 3, 10, 1])", 7, "en")
    assert (
        "  score of the hand: Ana +15, Bruno +10, Carmen -5, Diego +10\n"
        "  tricks: Ana took 1, bid 1; Bruno took 0, bid 0; Carmen took 0, bid 1;"
        " Diego took 0, bid 0\n"
    ) in told
    took = {"kind": "took", "parts": [[1, 1], [0, 2], [0, -1]]}  # seat 2 sits out a tie-break
    assert line("es", took, ["tú", "Ana", "Bea"], you=0) == (
        "bazas: hiciste 1, pediste 1; Ana hizo 0, pidió 2"
    )
    assert line("pt", took, ["você", "Ana", "Bea"], you=0) == (
        "vazas: você fez 1, pediu 1; Ana fez 0, pediu 2"
    )


def test_a_pottle_pot_that_carries_over_says_the_declarer_s_tricks_against_the_bid() -> None:
    """ "nobody wins the pot" once left a newcomer guessing why: the declarer missed the bid."""
    from tapete.playthrough import narration

    told = narration("pottle(players=3, deals=2, extra_deals=1, bankroll=1)", 2, "es")
    assert "  Carmen pidió 6 e hizo 2: nadie gana el bote de 3; pasa a la siguiente\n" in told
    pot = Event("pot", {"declarer": 1, "bid": 5, "tricks": 4, "winner": None, "chips": 6})
    [entry] = event_entries([pot])
    said = {lang: line(lang, entry, NAMES[:3]) for lang in LANGUAGES}
    assert said == {
        "en": "Bea bid 5 and took 4: nobody wins the pot of 6; it carries over",
        "es": "Bea pidió 5 e hizo 4: nadie gana el bote de 6; pasa a la siguiente",
        "pt": "Bea pediu 5 e fez 4: ninguém ganha o pote de 6; fica para a próxima",
    }
    assert line("pt", entry, ["Ana", "você", "Carla"], you=1) == (
        "você pediu 5 e fez 4: ninguém ganha o pote de 6; fica para a próxima"
    )


@pytest.mark.parametrize(
    ("lang", "round_word", "trick_word"),
    [("en", "round", "trick"), ("es", "ronda", "baza"), ("pt", "rodada", "vaza")],
)
def test_truco_s_table_calls_its_three_rounds_rounds_as_its_rules_do(
    lang: str, round_word: str, trick_word: str
) -> None:
    """Truco's rules and how-to say a hand has three rounds (rondas, rodadas); its table said
    "Diego se lleva la baza", "la baza queda empatada" and "bazas: empate" for the same thing."""
    from tapete.playthrough import narration
    from tapete.present import present

    told = narration("truco(players=4)", 2, lang)
    assert trick_word not in told
    assert re.search(rf"\b{round_word}\b", told)
    game = tapete.load("truco")
    rng = random.Random(3)
    state = game.new_state(3)
    labels: set[str] = set()
    while game.current_player(state) is not None and not labels:
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
        labels = {label for label, _ in present(game.observe(state, 0), lang).info}
        labels &= {round_word + "s", trick_word + "s"}
    assert labels == {round_word + "s"}
    # The line prompt's table: the cards of the round being played.
    while game.current_player(state) is not None and not game.observe(state, 0).trick:
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    table = view_text(game.observe(state, 0), lang)
    assert f"\n  {round_word}: " in table and f"\n  {trick_word}: " not in table, table
    # Every other trick-taking game keeps its tricks.
    assert trick_word in narration("tute(players=4)", 3, lang)


# --- names that read right to left --------------------------------------------------------------

FSI, PDI = "\u2068", "\u2069"
HEBREW = ["דנה", "אבי", "Ana", "Bea"]


def test_a_right_to_left_name_is_isolated_so_the_line_keeps_its_order() -> None:
    """ "דנה, אבי and Ana won": the two Hebrew names and the comma between them were one
    right-to-left run, shown as "אבי ,דנה": the second winner read first. Each name is
    isolated (U+2068 … U+2069): it reads right to left within itself, the line left to right."""
    won = who_won("en", HEBREW, [0, 1, 2])
    assert won == f"{FSI}דנה{PDI}, {FSI}אבי{PDI} and Ana won"
    assert who_won("es", HEBREW, [2, 3]) == "ganaron Ana y Bea"  # other names as they were
    game = tapete.load("pocha(players=4, schedule=[1])")
    before = game.new_state(seed=1, dealer=3)
    after = game.apply(before, "bid 1")
    (entry,) = step_entries(game, 0, game.parse_action("bid 1"), before, after)
    assert line("pt", entry, HEBREW) == f"{FSI}דנה{PDI} pede 1"
    assert line("pt", entry, ["Ana"]) == "Ana pede 1"
    # An Arabic name, Arabic-Indic digits, and a name the host removed: isolated too.
    assert line("en", entry, ["سارة"]).startswith(f"{FSI}سارة{PDI} ")
    assert line("en", entry, ["٣٣"]).startswith(f"{FSI}٣٣{PDI} ")
    removed = {"kind": "removed", "seat": 1, "name": "אבי", "at": 3}
    assert line("en", removed, HEBREW) == f"the host removed {FSI}אבי{PDI}: a bot plays their seat"


def test_a_record_told_in_plain_text_isolates_every_right_to_left_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``tapete replay --plain`` prints: the heading, the hands and every line."""
    game = tapete.load("pocha(players=4, schedule=[1])")
    _, rec = play(game, ["random"] * 4, seed=2, names=HEBREW)
    path = tmp_path / "match.json"
    write(rec, path)
    assert main(["replay", str(path), "--plain"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"0: {FSI}דנה{PDI} (random)" in out[0] and ", 2: Ana (random)" in out[0]
    assert f"  {FSI}אבי{PDI}: {rec.deals[0].hands[1][0]}" in out
    said = [text for text in out if "דנה" in text or "אבי" in text]
    assert len(said) > 4
    for text in said:  # never a bare name: each one between its isolates
        bare = re.sub(f"{FSI}(דנה|אבי){PDI}", "", text)
        assert "דנה" not in bare and "אבי" not in bare
    assert not any(FSI in text for text in out if "דנה" not in text and "אבי" not in text)


def test_the_terminal_log_and_the_line_prompt_s_table_isolate_right_to_left_names() -> None:
    game = tapete.load("pocha(players=4, schedule=[1])")
    _, rec = play(game, ["random"] * 4, seed=2, names=HEBREW)
    told = Replay(rec).log_lines("en")
    assert any(text.startswith(f"{FSI}דנה{PDI} bids") for text in told), told
    view = game.observe(game.new_state(seed=1, dealer=3), 2)
    text = view_text(view, "en", HEBREW)
    assert f"  {FSI}אבי{PDI}" in text and "  Ana" in text
