"""Nothing lost: a game killed with SIGKILL and resumed ends as the uninterrupted one (issue 7)."""

from __future__ import annotations

import os

import crash_rig_classic
import pytest
from crash_rig import kill_and_resume, play_through


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return {**os.environ, "PULSE_SERVER": "unix:/nonexistent"}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory, env):
    return play_through(tmp_path_factory.mktemp("whole"), env)


@pytest.mark.parametrize("after_events", [1, 3, 5, 7, 11, 13])
def test_killed_then_resumed_ends_the_same(tmp_path, env, uninterrupted, after_events) -> None:
    # issue 7: "0 lost, 0 duplicated" — the confirmed vote, the confirmed cards and the outcome
    resumed, _ = kill_and_resume(tmp_path, env, after_events)
    assert resumed == uninterrupted


@pytest.fixture(scope="module")
def uninterrupted_classic(tmp_path_factory, env):
    return crash_rig_classic.play_through(tmp_path_factory.mktemp("whole-classic"), env)


@pytest.mark.parametrize("after_events", [1, 2, 4, 6, 8, 10, 11])
def test_a_classic_game_killed_then_resumed_ends_the_same(tmp_path, env, uninterrupted_classic, after_events) -> None:
    # the night's entries, the debate, the ballots, the hunter's shot: each answer once, none lost
    resumed, _ = crash_rig_classic.kill_and_resume(tmp_path, env, after_events)
    assert resumed == uninterrupted_classic
