"""Time for the session loop: the real clock, or a fake one that makes a 5-minute day instant."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since some fixed point."""

    def sleep_until(self, when: float) -> None:
        """Return at `when` (at once if it is past)."""


class RealClock:
    def now(self) -> float:
        return time.monotonic()

    def sleep_until(self, when: float) -> None:
        delay = when - time.monotonic()
        if delay > 0:
            time.sleep(delay)


class FakeClock:
    """Jumps instead of sleeping; `advance` stands for time spent elsewhere (audio playing)."""

    def __init__(self, start: float = 0.0) -> None:
        self.time = start

    def now(self) -> float:
        return self.time

    def sleep_until(self, when: float) -> None:
        self.time = max(self.time, when)

    def advance(self, seconds: float) -> None:
        self.time += seconds
