"""Nothing lost: a game killed with SIGKILL and resumed ends as the uninterrupted one (issue 7)."""

from __future__ import annotations

import os

import crash_rig_classic
import pytest
from crash_rig import kill_and_resume, play_through

FULL = pytest.mark.full


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return {**os.environ, "PULSE_SERVER": "unix:/nonexistent"}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory, env):
    return play_through(tmp_path_factory.mktemp("whole"), env)


# One kill point per stage a resume starts from (its journal's events: 1 night done, 2 debate over, 3–6
# the four ballots, 7 the vote confirmed, 8–11 the four cards, 12 the cards confirmed, 13 the outcome):
# the debate (1), a vote with ballots already given (5), cards already said (11), a game already over
# (13). The other points are the `full` run's (conftest.py), and benchmarks/crash.py's 50 random ones.
@pytest.mark.parametrize("after_events", [1, pytest.param(3, marks=FULL), 5, pytest.param(7, marks=FULL), 11, 13])
def test_killed_then_resumed_ends_the_same(tmp_path, env, uninterrupted, after_events) -> None:
    # issue 7: "0 lost, 0 duplicated" — the confirmed vote, the confirmed cards and the outcome
    resumed, _ = kill_and_resume(tmp_path, env, after_events)
    assert resumed == uninterrupted


@pytest.fixture(scope="module")
def uninterrupted_classic(tmp_path_factory, env):
    return crash_rig_classic.play_through(tmp_path_factory.mktemp("whole-classic"), env)


# The journal's first events are the night's: 1–2 the first lines said, 3 the voyante's answer, 4–5 lines,
# 6 the wolves' answer, 7–8 lines, 9 the witch's answer, 10–12 lines. By default: killed before any
# answer (2), just after one was journaled and before its « se rendort » (6), after the last answer's
# lines (11); the others under `full`. tests/test_cue_properties.py kills classic games in-process at
# random points of the whole game (night, vote, hunter).
@pytest.mark.parametrize(
    "after_events",
    [
        pytest.param(1, marks=FULL),
        2,
        pytest.param(4, marks=FULL),
        6,
        pytest.param(8, marks=FULL),
        pytest.param(10, marks=FULL),
        11,
    ],
)
def test_a_classic_game_killed_then_resumed_ends_the_same(tmp_path, env, uninterrupted_classic, after_events) -> None:
    # the night's entries, the debate, the ballots, the hunter's shot: each answer once, none lost
    resumed, _ = crash_rig_classic.kill_and_resume(tmp_path, env, after_events)
    assert resumed == uninterrupted_classic
