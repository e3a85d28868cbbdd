"""What the narrator says, in both families: a line to speak or a silence to keep."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence to speak; `id` names it for a recorded voice pack and the timeline."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Wait:
    """Silence, in seconds, before the next line."""

    seconds: float


Step = Line | Wait


@dataclass(frozen=True, slots=True)
class Reminder:
    """A line spoken when `left` seconds of the debate remain."""

    left: int
    line: Line
