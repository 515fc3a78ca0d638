"""benchmarks/vs_old_hard.py: today's bots against a tagged commit's, both engines in step."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tapete
from tapete import bots
from tapete.errors import IllegalActionError

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "vs_old_hard.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vs_old_hard", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vs_old_hard"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _script(name: str) -> ModuleType:
    """A script of benchmarks/ that reads vs_old_hard's shards (after the ``bench`` fixture)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPT.parent / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def old(bench: ModuleType) -> tuple[Path, ModuleType]:
    try:
        folder = bench.extract()
    except LookupError as exc:  # no git, or a shallow clone
        pytest.skip(str(exc))
    return folder, bench.load_old(folder)


def test_the_old_package_comes_from_the_tag_not_from_src(old: tuple[Path, ModuleType]) -> None:
    folder, package = old
    assert package.__name__ == "tapete_v1"
    assert Path(package.bots.__file__).is_relative_to(folder)
    view_type = type(
        package.load("pocha(players=3, schedule=1)").observe(
            package.load("pocha(players=3, schedule=1)").new_state(1), 0
        )
    )
    assert view_type.__module__ == "tapete_v1.games.pocha"


def test_groups_land_in_a_shard_and_a_later_run_adds_only_the_missing(
    bench: ModuleType, old: tuple[Path, ModuleType], tmp_path: Path
) -> None:
    spec = "pocha(players=3, schedule=[1])"
    first = list(bench.run([spec], "hard(iterations=1)", "medium", 2, tmp_path, folder=old[0]))
    assert [s.pairs for s in first] == [2]
    (path,) = tmp_path.glob("*.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["group"] for line in lines] == [0, 1]
    # 2 bots at 3 seats: the six assignments of tapete arena, each bot's score per match
    assert all(len(line["matches"]) == 6 for line in lines)
    assert all(line["new_ms"] and line["old_ms"] for line in lines)
    again = list(bench.run([spec], "hard(iterations=1)", "medium", 3, tmp_path, folder=old[0]))
    assert again[0].pairs == 3
    assert [json.loads(line)["group"] for line in path.read_text().splitlines()] == [0, 1, 2]


def test_two_copies_of_an_unchanged_bot_tie_exactly(
    bench: ModuleType, old: tuple[Path, ModuleType]
) -> None:
    # random has not changed since the tag, and each seat's dice come from the seed and the seat
    game = tapete.load("pocha(players=3, schedule=[2])")
    old_game = old[1].load("pocha(players=3, schedule=[2])")
    scores = {
        bench.play_match(
            game, old_game, (bots.load("random"), old[1].bots.load("random")), seats, 5
        ).scores
        for seats in ((0, 1, 0), (1, 0, 1), (1, 1, 0))
    }
    assert len(scores) == 1


def test_engines_that_disagree_stop_the_match_with_the_step(
    bench: ModuleType, old: tuple[Path, ModuleType]
) -> None:
    game = tapete.load("pocha(players=3, schedule=[2])")
    other = old[1].load("pocha(players=3, schedule=[1])")  # bids 0..1 where today has 0..2
    with pytest.raises(bench.DivergenceError, match="seed 3, step 0: the engines disagree on seat"):
        bench.play_match(
            game, other, (bots.load("medium"), old[1].bots.load("medium")), (0, 1, 0), 3
        )


def test_where_the_tag_allows_more_both_bots_choose_among_todays_actions(
    bench: ModuleType, old: tuple[Path, ModuleType]
) -> None:
    # Tute 2p, seed 27, random bots: the tag offers a swap that today's rules (one swap a turn)
    # do not; the match plays on under today's rules.
    game, old_game = tapete.load("tute"), old[1].load("tute")
    agents = (bots.load("random"), old[1].bots.load("random"))
    for seats in ((0, 1), (1, 0)):
        match = bench.play_match(game, old_game, agents, seats, 27)
        assert match.new + match.old == sum(match.scores)


class PlansFromTheTag:
    """A bot of the tag's that answers with an action only the tag's rules allow whenever there
    is one, as hard-v1's search may (it plans from its own engine's actions); else at random."""

    def __init__(self, old_game: Any) -> None:
        self.old_game = old_game

    def choose(self, view: Any, legal: Sequence[int], rng: random.Random) -> int:
        state = self.old_game.sample_state(view, rng)
        extra = [a for a in self.old_game.legal_actions(state) if a not in legal]
        return extra[0] if extra else legal[rng.randrange(len(legal))]


def test_the_tags_medium_answers_where_the_tags_bot_plans_an_action_only_its_rules_allow(
    bench: ModuleType, old: tuple[Path, ModuleType]
) -> None:
    # Tute 2p, seed 27: the tag's bot asks for a second swap in a turn six times.
    game, old_game = tapete.load("tute"), old[1].load("tute")
    agents = (bots.load("random"), PlansFromTheTag(old_game))
    medium = old[1].bots.load("medium")
    match = bench.play_match(game, old_game, agents, (1, 0), 27, stand_in=medium)
    assert match.stand_ins == 6
    assert match.new + match.old == sum(match.scores)
    with pytest.raises(IllegalActionError):
        bench.play_match(game, old_game, agents, (1, 0), 27)


def test_a_filled_table_seats_the_filler_between_the_two_and_rotates_it(
    bench: ModuleType, old: tuple[Path, ModuleType], tmp_path: Path
) -> None:
    spec = "pottle(deals=1, extra_deals=0)"
    (summary,) = bench.run([spec], "medium", "medium", 1, tmp_path, folder=old[0], fill="easy")
    assert summary.pairs == 1
    (path,) = tmp_path.glob("*fill-easy.jsonl")
    (line,) = [json.loads(text) for text in path.read_text().splitlines()]
    assert line["fill"] == "easy"
    # each of the two at every seat once, the other half the table away, the filler between
    assert [m["seats"] for m in line["matches"]] == [
        [0, 2, 1, 2],
        [2, 0, 2, 1],
        [1, 2, 0, 2],
        [2, 1, 2, 0],
    ]
    # the two scores are the compared bots' seats only: the filler's are not in them
    for m in line["matches"]:
        assert m["new"] == m["scores"][m["seats"].index(0)]
        assert m["old"] == m["scores"][m["seats"].index(1)]


@pytest.mark.parametrize("spec", ["truco(players=4, target=6)", "poch(players=3, rounds=2)"])
def test_a_shard_keeps_each_matchs_actions_and_its_split_adds_up_to_the_difference(
    bench: ModuleType, old: tuple[Path, ModuleType], tmp_path: Path, spec: str
) -> None:
    list(bench.run([spec], "medium", "easy", 2, tmp_path, folder=old[0]))
    (path,) = tmp_path.glob("*.jsonl")
    groups = bench.read_shard(path)
    game = tapete.load(spec)
    for group in groups:
        for match in group["matches"]:
            state = game.new_state(group["group_seed"])
            for action in match["actions"]:
                state = game.apply(state, action)
            outcome = game.outcome(state)
            assert outcome is not None and list(outcome.scores) == match["scores"]
    parts, times = _script("split").split_groups(groups)
    for index, group in enumerate(groups):
        assert sum(part[index] for part in parts.values()) == pytest.approx(group["difference"])
    kinds = {
        "truco": {
            "no raise",
            "mão de onze",
            "ran from new's raise",
            "ran from old's raise",
            "accepted, new raised last",
            "accepted, old raised last",
        },
        "poch": {"melds", "poker", "race"},
    }[game.name]
    assert set(parts) <= kinds
    assert sum(times.values()) > 2  # a match to 6 takes more than two hands; two rounds, 3 phases


def test_the_pottle_auction_report_counts_one_declarer_a_deal_and_every_chip(
    bench: ModuleType, old: tuple[Path, ModuleType], tmp_path: Path
) -> None:
    spec = "pottle(deals=2, extra_deals=0)"
    list(bench.run([spec], "medium", "easy", 1, tmp_path, folder=old[0], fill="random"))
    (path,) = tmp_path.glob("*.jsonl")
    groups = bench.read_shard(path)
    auction = _script("pottle_auction")
    counts, matches, seats = auction.tally(groups)
    assert matches == 4 and seats == {"today": 4, "tag": 4, "filler": 8}  # seats by matches
    bots = ("today", "tag", "filler")
    assert sum(counts[f"{bot} declared"] for bot in bots) == 2 * matches  # one a deal
    assert all(counts[f"{bot} deals"] == 2 * seats[bot] for bot in bots)
    # antes paid and pots won or split: what one seat lost another won, but the split's remainder
    nets = sum(counts[f"{bot} net"] for bot in bots)
    assert -3 * matches <= nets <= 0
    assert counts["filler net"] == sum(
        m["scores"][s]
        for g in groups
        for m in g["matches"]
        for s, b in enumerate(m["seats"])
        if b == 2
    )


def test_apart_each_bot_plays_its_own_tables_of_fillers_on_the_same_cards(
    bench: ModuleType, old: tuple[Path, ModuleType], tmp_path: Path
) -> None:
    spec = "pottle(players=3, deals=1, extra_deals=0)"
    list(bench.run([spec], "medium", "easy", 1, tmp_path, folder=old[0], fill="random", alone=True))
    (path,) = tmp_path.glob("*--fill-random--apart.jsonl")
    (line,) = bench.read_shard(path)
    assert line["apart"] is True
    seatings = [m["seats"] for m in line["matches"]]
    assert seatings == [list(s) for s in bench.apart(3)]
    # never both at one table; each is scored only where it sits
    assert all(not ({0, 1} <= set(seats)) for seats in seatings)
    new = [m["new"] for m in line["matches"][:3]]
    old_scores = [m["old"] for m in line["matches"][3:]]
    assert all(m["old"] is None for m in line["matches"][:3])
    assert all(m["new"] is None for m in line["matches"][3:])
    assert line["difference"] == pytest.approx(sum(new) / 3 - sum(old_scores) / 3)
    auction = _script("pottle_auction")
    _, _, seats = auction.tally([line])
    assert seats == {"today": 3, "tag": 3, "filler": 12}


def test_apart_refuses_a_game_of_teams_and_a_table_without_fillers(
    bench: ModuleType, old: tuple[Path, ModuleType], tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="played by teams"):
        list(
            bench.run(
                ["truco(players=4)"],
                "medium",
                "easy",
                1,
                tmp_path,
                folder=old[0],
                fill="random",
                alone=True,
            )
        )
    with pytest.raises(ValueError, match="needs --fill"):
        list(bench.run(["pottle"], "medium", "easy", 1, tmp_path, folder=old[0], alone=True))
