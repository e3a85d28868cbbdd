"""A Speaker for machines without a sound card: prints each line with its start time."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from .timeline import Rendered


class ConsoleSpeaker:
    """Prints `mm:ss.cc  texte` per line; in real time (waiting the pauses) or all at once."""

    def __init__(
        self,
        out: TextIO | None = None,
        realtime: bool = False,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.out = out if out is not None else sys.stdout
        self.realtime = realtime
        self.sleep = sleep
        self.elapsed_s = 0.0  # audio time played so far: start times continue across plays

    def play(self, rendered: Rendered) -> None:
        """Print every line of the script, at its time when `realtime`."""
        clock = 0.0
        for segment in rendered.segments:
            if self.realtime and segment.start_s > clock:
                self.sleep(segment.start_s - clock)
                clock = segment.start_s
            print(f"{format_time(self.elapsed_s + segment.start_s)}  {segment.text}", file=self.out, flush=True)
        if self.realtime and rendered.duration_s > clock:
            self.sleep(rendered.duration_s - clock)
        self.elapsed_s += rendered.duration_s

    def close(self) -> None:
        """Nothing to release."""


def format_time(seconds: float) -> str:
    """`mm:ss.cc`, the way timelines are printed."""
    centiseconds = round(max(0.0, seconds) * 100)
    minutes, centiseconds = divmod(centiseconds, 6000)
    return f"{minutes:02d}:{centiseconds // 100:02d}.{centiseconds % 100:02d}"
