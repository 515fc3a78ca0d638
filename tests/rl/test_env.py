"""tapete.rl.env: every conformance spec as a PettingZoo AEC environment."""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test

import tapete
import tapete.rl
from conformance_specs import SPECS
from tapete import record
from tapete.errors import SpecError
from tapete.game import seat_scores
from tapete.narrate import view_text
from tapete.rl.aec import TapeteEnv

# A Dict of observation and action mask is PettingZoo's own convention for card games.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")

ALL_SPECS = [spec for specs in SPECS.values() for spec in specs]


def play_out(env: TapeteEnv, seed: int) -> dict[str, float]:
    """Play one episode with random legal actions; each agent's summed rewards."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        assert env.observation_space(agent).contains(obs)
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        legal = env.game.legal_actions(env.state)
        assert sorted(env.encoding.actions[i] for i in mask.nonzero()[0]) == sorted(legal)
        env.step(rng.choice(list(mask.nonzero()[0])))
    return totals


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_pettingzoo_api_and_seed_tests_pass(spec: str) -> None:
    api_test(tapete.rl.env(spec), num_cycles=300)
    seed_test(lambda: tapete.rl.env(spec), num_cycles=100)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_a_whole_match_plays_with_masks_and_the_match_reward_is_the_outcome(spec: str) -> None:
    env = tapete.rl.env(spec, reward="match")
    totals = play_out(env, seed=11)
    outcome = env.game.outcome(env.state)
    assert outcome is not None
    scores = seat_scores(outcome.scores, env.game.teams)
    assert [totals[a] for a in env.possible_agents] == [float(s) for s in scores]


@pytest.mark.parametrize(
    "spec",
    [
        "pocha(players=3, schedule=[2, 3])",
        "oh_hell(schedule=[1, 7, 13])",
        "poch(chips=3)",
        "pottle(deals=2, extra_deals=1)",
        "truco(players=4)",
        "tute(players=4, match=to_101)",
    ],
)
def test_per_deal_rewards_are_each_deal_s_score(spec: str) -> None:
    env = tapete.rl.env(spec)
    totals = play_out(env, seed=5)
    # Every deal's score, summed, is where each seat (or its team) stands at the end.
    rec = record.loads(record.dumps(_recorded(spec, seed=5)))
    gains = [0] * env.game.players
    for deal in rec.deals:
        if deal.score is not None:
            per_seat = (
                seat_scores(deal.score, env.game.teams)
                if env.game.teams and len(deal.score) == len(env.game.teams)
                else deal.score
            )
            gains = [g + s for g, s in zip(gains, per_seat, strict=True)]
    assert [totals[a] for a in env.possible_agents] == [float(g) for g in gains]


def _recorded(spec: str, seed: int) -> record.Record:
    """The record the env writes of the episode ``play_out`` plays."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        env = tapete.rl.env(spec, record=folder)
        play_out(env, seed=seed)
        return record.read(Path(folder) / "episode-0.json")


def test_each_episode_is_recorded_and_the_record_replays_to_the_same_end(tmp_path: Any) -> None:
    env = tapete.rl.env("truco(target=3)", record=tmp_path)
    play_out(env, seed=1)
    final = env.state
    play_out(env, seed=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["episode-0.json", "episode-1.json"]
    first = record.read(tmp_path / "episode-0.json")
    assert env.game.outcome(record.replay(first)) == env.game.outcome(final)


def test_environments_recording_in_one_folder_write_over_no_record(tmp_path: Any) -> None:
    """Two environments side by side (a vector of them), or a second run, each wrote
    ``episode-0.json`` over the other's: every finished episode but the last was lost."""
    first, second = (tapete.rl.env("truco(target=3)", record=tmp_path) for _ in range(2))
    ends = []
    for seed in (1, 2):
        for env in (first, second):
            play_out(env, seed=seed + 10 * (env is second))
            ends.append(env.game.outcome(env.state))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"episode-{k}.json" for k in range(4)]
    replayed = [first.game.outcome(record.replay(record.read(tmp_path / n))) for n in names]
    assert replayed == ends
    seeds = {record.read(tmp_path / n).seed for n in names}
    assert len(seeds) == 4


def test_a_record_folder_that_cannot_be_made_is_refused_with_the_environment(
    tmp_path: Any,
) -> None:
    """Not at the end of the first episode, halfway through its last step."""
    taken = tmp_path / "taken"
    taken.write_text("a file, not a folder")
    for folder in (taken, taken / "below"):
        with pytest.raises(ValueError, match=rf"record='{re.escape(str(folder))}' is not accepted"):
            tapete.rl.env("pocha(players=3, schedule=[1])", record=folder)
    with pytest.raises(TypeError, match="record=5 is not accepted: a folder"):
        tapete.rl.env("pocha(players=3, schedule=[1])", record=5)  # type: ignore[arg-type]
    made = tmp_path / "new" / "records"
    tapete.rl.env("pocha(players=3, schedule=[1])", record=made)
    assert made.is_dir()


@pytest.mark.parametrize("folder", ["", "  "])
def test_an_empty_record_folder_is_refused_not_read_as_the_current_one(
    folder: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``record=""`` was the current folder: every episode's record written wherever the
    script ran."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"record='\s*' is not accepted: .*None for no records"):
        tapete.rl.env("pocha(players=3, schedule=[1])", record=folder)
    assert list(tmp_path.iterdir()) == []


def test_reset_with_a_seed_deals_the_same_match_and_another_seed_another() -> None:
    env = tapete.rl.env("pocha(players=3, schedule=[5])")
    first = []
    for seed in (4, 4, 5):
        env.reset(seed=seed)
        first.append(env.observe(env.agent_selection)["observation"].copy())
    assert np.array_equal(first[0], first[1])
    assert not np.array_equal(first[0], first[2])


@pytest.mark.parametrize("spec", [specs[0] for specs in SPECS.values()] + ["truco(players=4)"])
def test_the_observation_depends_on_the_view_only(spec: str) -> None:
    """Deal the hidden cards anew, consistently with a seat's view: its vector is unchanged."""
    game = tapete.load(spec)
    enc = tapete.rl.encoding(game)
    rng = random.Random(3)
    state = game.new_state(seed=3)
    for _ in range(12):
        if game.current_player(state) is None:
            break
        for seat in range(game.players):
            view = game.observe(state, seat)
            other = game.sample_state(view, random.Random(rng.random()))
            assert np.array_equal(enc.encode(view), enc.encode(game.observe(other, seat)))
        state = game.apply(state, rng.choice(game.legal_actions(state)))


def test_other_seats_hands_are_not_in_the_vector() -> None:
    game = tapete.load("pocha(players=3, schedule=[4])")
    enc = tapete.rl.encoding(game)
    state = game.new_state(seed=9)
    hands = enc.field("hands")
    vector = enc.encode(game.observe(state, 0))
    per_seat = hands.size // 3
    assert vector[hands.start : hands.start + per_seat].sum() == 4  # its own four cards
    assert vector[hands.start + per_seat : hands.stop].sum() == 0


@pytest.mark.parametrize("spec", ["truco(players=4)", "pocha(players=3, schedule=[2])"])
def test_pettingzoo_s_render_test_passes(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: tapete.rl.env(spec, render_mode=render_mode))
    assert "your hand" in capsys.readouterr().out  # "human" printed the views


def test_ansi_renders_the_acting_seat_s_view_and_human_prints_it_at_every_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = "pocha(players=3, schedule=[2])"
    shown, printed = (
        tapete.rl.env(spec, render_mode="ansi"),
        tapete.rl.env(spec, render_mode="human"),
    )
    shown.reset(seed=4)
    printed.reset(seed=4)
    views = [shown.render()]
    assert printed.render() is None
    capsys.readouterr()
    for _ in range(3):
        action = shown.legal_actions()[0]
        shown.step(action)
        printed.step(action)
        views.append(shown.render())
    assert capsys.readouterr().out == "".join(f"{view}\n\n" for view in views[1:])
    seat = shown.game.current_player(shown.state)
    assert views[-1] == view_text(shown.game.observe(shown.state, seat))


def test_bad_options_are_refused_with_the_option_named() -> None:
    with pytest.raises(ValueError, match="reward='deals' is not accepted"):
        tapete.rl.env("pocha", reward="deals")
    with pytest.raises(SpecError, match="round cap"):
        tapete.rl.env("poch(max_rounds=none)")
    with pytest.raises(ValueError, match="render_mode='rgb_array' is not accepted: ansi, human"):
        tapete.rl.env("pocha", render_mode="rgb_array")


def test_an_action_outside_the_rules_raises_the_rule() -> None:
    env = tapete.rl.env("pocha(players=3, schedule=[1])")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(tapete.errors.IllegalActionError):
        env.step(illegal)


@pytest.mark.parametrize("spec", SPECS["pocha"] + SPECS["oh_hell"])
def test_the_state_shortcut_encodes_exactly_the_view(spec: str) -> None:
    game = tapete.load(spec)
    enc = tapete.rl.encoding(game)
    rng = random.Random(7)
    state = game.new_state(seed=7)
    while game.current_player(state) is not None:
        for seat in range(game.players):
            from_view = enc.encode(game.observe(state, seat))
            assert np.array_equal(enc.encode_state(state, seat), from_view)
        state = game.apply(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("name", ["pocha", "oh_hell", "tute", "truco", "poch", "pottle"])
def test_an_encoding_refuses_what_is_not_a_seats_view_of_its_spec(name: str) -> None:
    """A view of Pocha for four was encoded under Pocha for three's layout without a word, a
    spectator's view failed on arithmetic with None, a state on a missing attribute, and
    ``encode_state(state, -1)`` encoded seat -1 counted from the end of the hands."""
    game = tapete.load(name)
    enc = tapete.rl.encoding(game)
    state = game.new_state(seed=2)
    seat = game.current_player(state)
    assert seat is not None
    assert np.array_equal(enc.encode(game.observe(state, seat)), enc.encode_state(state, seat))
    with pytest.raises(ValueError, match=r"encodes a seat's view, not a spectator's"):
        enc.encode(game.observe(state, None))
    with pytest.raises(ValueError, match=r"encodes a seat's view, not a spectator's"):
        enc.encode_state(state, None)  # type: ignore[arg-type]
    for seat in (-1, game.players, True):
        with pytest.raises(ValueError, match=rf"seat {seat!r} is not at this table"):
            enc.encode_state(state, seat)
    with pytest.raises(
        TypeError, match=r"encodes a view of that game, not a tapete\.games\..*State"
    ):
        enc.encode(state)
    other = tapete.load(f"{name}(players={3 if game.players == 4 else 4})")  # other rules
    foreign = other.new_state(seed=2)
    with pytest.raises(TypeError, match=rf"not a view of {re.escape(other.spec)}: take the"):
        enc.encode(other.observe(foreign, 0))
    with pytest.raises(TypeError, match=rf"a state of {re.escape(other.spec)} is not a state"):
        enc.encode_state(foreign, 0)


@pytest.mark.parametrize(
    "action", [999, -1, "bid 0", None, 1.5, True, np.array([1, 2]), np.array([40])]
)
def test_an_action_outside_the_action_space_is_refused_not_read_as_another(action: Any) -> None:
    """``-1`` would otherwise be the last action of the space, ``1.5`` the second, ``True`` the
    second too; an index past the end would fail inside the encoding."""
    env = tapete.rl.env("pocha(schedule=[1])")
    env.reset(seed=3)
    agent = env.agent_selection
    with pytest.raises(ValueError, match=rf"action {re.escape(repr(action))} is not in the action"):
        env.step(action)
    assert env.agent_selection == agent  # nothing was played
    single = tapete.rl.single_agent("truco", seat=0, opponents="easy")
    single.reset(seed=1)
    with pytest.raises(ValueError, match="is not in the action space of truco: an index from 0"):
        single.step(action)


def test_an_observation_is_the_caller_s_own_to_change() -> None:
    """A policy that scales an observation or clears a mask in place changes nothing in the
    environment: ``last()`` and ``observe`` answer the same afterwards."""
    env = tapete.rl.env("pocha(players=3, schedule=[2])")
    env.reset(seed=5)
    first, *_ = env.last()
    kept = {key: value.copy() for key, value in first.items()}
    first["observation"] *= 0
    first["action_mask"][:] = 1
    again, *_ = env.last()
    assert np.array_equal(again["observation"], kept["observation"])
    assert np.array_equal(again["action_mask"], kept["action_mask"])
    other = env.observe(env.possible_agents[0])
    other["action_mask"][:] = 1
    assert not env.observe(env.possible_agents[0])["action_mask"].all()


def test_an_environment_not_running_says_so() -> None:
    env = tapete.rl.env("pocha(players=3, schedule=[1])")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("seat_0"), env.legal_actions):
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            call()
    play_out(env, seed=2)
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(RuntimeError, match="the match is over and every agent has left"):
            call()
    env.reset(seed=2)
    assert env.last()[0]["action_mask"].any()


@pytest.mark.parametrize("agent", ["seat_9", "seat_-1", 0, None])
def test_an_agent_not_at_the_table_is_named_with_the_agents_that_are(agent: Any) -> None:
    env = tapete.rl.env("pocha(players=3, schedule=[1])")
    env.reset(seed=2)
    selected = env.agent_selection
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(KeyError) as raised:
            call(agent)
        assert str(raised.value) == (
            f"no agent {agent!r} in tapete_pocha: the agents are seat_0, seat_1, seat_2"
        )
    assert env.agent_selection == selected


@pytest.mark.parametrize(
    ("seed", "error"), [("a", TypeError), (1.5, TypeError), (True, TypeError), (-1, ValueError)]
)
def test_a_seed_that_is_no_whole_number_from_0_is_refused_by_name(seed: Any, error: Any) -> None:
    import gymnasium

    message = f"seed={re.escape(repr(seed))} is not accepted: a whole number from 0, or None"
    env = tapete.rl.env("pocha(players=3, schedule=[1])")
    env.reset(seed=4)
    before = env.match_seed
    with pytest.raises(error, match=message):
        env.reset(seed=seed)
    assert env.match_seed == before  # the match in play goes on
    single = tapete.rl.single_agent("pocha(players=3, schedule=[1])", opponents="random")
    with pytest.raises(error, match=message) as raised:
        single.reset(seed=seed)
    assert isinstance(raised.value, gymnasium.error.Error)  # what Gymnasium raises for it
    assert single.state is None
    env.reset(seed=np.int64(4))  # type: ignore[arg-type]  # NumPy's ints are seeds too
    assert env.match_seed == before


def test_an_environment_pickles_mid_match_and_plays_on_alike() -> None:
    import pickle

    env = tapete.rl.env("tute(players=4)")
    env.reset(seed=8)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    twin = pickle.loads(pickle.dumps(env))
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        theirs = twin.last()
        assert twin.agent_selection == env.agent_selection
        assert np.array_equal(theirs[0]["observation"], obs["observation"])
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1])
        env.step(action)
        twin.step(action)
    assert twin.game.outcome(twin.state) == env.game.outcome(env.state)


@pytest.mark.parametrize("make", [tapete.rl.env, tapete.rl.single_agent, tapete.rl.encoding])
def test_a_game_that_is_neither_a_spec_nor_a_game_is_refused(make: Any) -> None:
    with pytest.raises(TypeError, match="a game is a spec such as 'pocha"):
        make(4)
