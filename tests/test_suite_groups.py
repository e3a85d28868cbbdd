"""The suite's own arrangement (tests/conftest.py): real sound and browser tests run one after the other."""

from __future__ import annotations

import pytest


def test_a_real_sound_test_is_in_the_realtime_group_and_on_its_one_worker(
    audio_server, request: pytest.FixtureRequest, worker_id: str
) -> None:
    # pytest-xdist's --dist loadgroup sends a group to one worker by the « @group » it appends to the test's
    # id; pytest 9.2 ignores that rename, and the group's tests then ran on both workers at once (pyproject.toml)
    assert request.node.get_closest_marker("xdist_group").args == ("realtime",)
    if worker_id != "master":
        assert request.node.nodeid.endswith("@realtime")
