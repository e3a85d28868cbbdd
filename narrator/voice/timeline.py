"""Timelines: a script of lines and pauses becomes one PCM buffer and the time of every line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Say:
    """Speak one line; `line_id` names it (for a recorded voice pack and for the timeline)."""

    line_id: str
    text: str

    def __post_init__(self) -> None:
        if not self.text.strip():
            raise ValueError(f"Say({self.line_id!r}) : texte vide")


@dataclass(frozen=True, slots=True)
class Pause:
    """Silence for `seconds` (scaled by the profile's wait multiplier)."""

    seconds: float

    def __post_init__(self) -> None:
        if not self.seconds >= 0:  # also refuses NaN
            raise ValueError(f"Pause : durée négative ou invalide ({self.seconds!r})")


Item = Say | Pause


@dataclass(frozen=True, slots=True)
class Segment:
    """Where one spoken line sits in a timeline: the clip from start_s to end_s."""

    line_id: str
    text: str
    start_s: float
    end_s: float

    def shifted(self, offset_s: float) -> Segment:
        """The same segment, `offset_s` later."""
        return Segment(self.line_id, self.text, self.start_s + offset_s, self.end_s + offset_s)


@dataclass(frozen=True, slots=True)
class Timeline:
    """The segments of every Say, in order, and the total length."""

    segments: tuple[Segment, ...]
    duration_s: float


@dataclass(frozen=True, slots=True, eq=False)
class Rendered:
    """A script rendered to int16 mono PCM at `rate`, with the time of every line."""

    pcm: np.ndarray
    rate: int
    segments: tuple[Segment, ...]

    @property
    def duration_s(self) -> float:
        """Length of the audio in seconds."""
        return len(self.pcm) / self.rate


def plan(
    items: Sequence[Item],
    durations: Sequence[float],
    wait_multiplier: float = 1.0,
    rate: int | None = None,
) -> Timeline:
    """Lay out items end to end from the durations of the Say items (in order); pure, no audio.

    With `rate`, pauses are rounded to whole samples, exactly as `assemble` writes them.
    """
    says = [item for item in items if isinstance(item, Say)]
    if len(says) != len(durations):
        raise ValueError(f"{len(durations)} durées pour {len(says)} répliques")
    segments: list[Segment] = []
    clock = 0.0
    spoken = iter(durations)
    for item in items:
        if isinstance(item, Say):
            length = next(spoken)
            segments.append(Segment(item.line_id, item.text, clock, clock + length))
            clock += length
        else:
            clock += pause_seconds(item, wait_multiplier, rate)
    return Timeline(tuple(segments), clock)


def pause_seconds(pause: Pause, wait_multiplier: float, rate: int | None = None) -> float:
    """The silence a pause writes, in seconds (whole samples when `rate` is given)."""
    seconds = pause.seconds * wait_multiplier
    return seconds if rate is None else round(seconds * rate) / rate


def assemble(items: Sequence[Item], clips: Sequence[np.ndarray], rate: int, wait_multiplier: float = 1.0) -> Rendered:
    """Join the clips of the Say items (in order) and the pauses' silence into one buffer."""
    timeline = plan(items, [len(clip) / rate for clip in clips], wait_multiplier, rate)
    parts: list[np.ndarray] = []
    spoken = iter(clips)
    for item in items:
        if isinstance(item, Say):
            parts.append(next(spoken))
        else:
            parts.append(np.zeros(round(pause_seconds(item, wait_multiplier) * rate), np.int16))
    pcm = np.concatenate(parts).astype(np.int16, copy=False) if parts else np.zeros(0, np.int16)
    return Rendered(pcm, rate, timeline.segments)
