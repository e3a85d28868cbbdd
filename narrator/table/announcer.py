"""The spoken part of a one-night game: the legend, the night, the day's timer and the vote call.

Everything is rendered before the night starts (synthesis never happens between two lines); the
day's reminders are then played at their times on the session's clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from narrator.script.announce import Announcements, Line, Step
from narrator.voice import Item, Pause, Rendered, Say, Speaker


def to_items(steps: Sequence[Step]) -> list[Item]:
    """The script's lines and waits as the voice layer's items."""
    return [Say(s.id, s.text) if isinstance(s, Line) else Pause(s.seconds) for s in steps]


@dataclass(frozen=True)
class Plan:
    """One table's narration: what is read straight through, then the timed day."""

    opening: list[Item]  # the legend, the night and the day's first lines, played as one
    minutes: int
    reminders: list[tuple[int, list[Item]]]  # (seconds left, what to say), latest first
    vote: list[Item]


def plan(announce: Announcements, in_play: Sequence[str], minutes: int | None = None, legend: bool = True) -> Plan:
    """Choose the lines for the characters in play (dealt or in the center) and the debate's length."""
    minutes = minutes if minutes is not None else announce.minutes
    steps = (announce.setup_steps(in_play) if legend else []) + announce.night_steps(in_play)
    steps += announce.opening_steps(minutes)
    reminders = sorted(
        ((r.left, to_items([r.line])) for r in announce.reminders if r.left < minutes * 60),
        key=lambda r: -r[0],
    )
    return Plan(to_items(steps), minutes, reminders, to_items(announce.vote))


class Announcer:
    """Plays a `Plan` through a speaker, on a clock; `render` turns items into audio."""

    def __init__(self, render: Callable[[Sequence[Item]], Rendered], speaker: Speaker, clock) -> None:
        self.render = render
        self.speaker = speaker
        self.clock = clock

    def run(self, plan: Plan, on_event: Callable[[str], None] = lambda event: None) -> None:
        """The whole narration: straight through to the debate, reminders on time, then the vote call."""
        opening = self.render(plan.opening)
        reminders = [(left, self.render(items)) for left, items in plan.reminders]
        vote = self.render(plan.vote)  # everything rendered before the first word is spoken
        on_event("night")
        self.speaker.play(opening)
        debate_end = self.clock.now() + plan.minutes * 60
        on_event("debate")
        for left, audio in reminders:
            self.clock.sleep_until(debate_end - left)
            self.speaker.play(audio)
        self.clock.sleep_until(debate_end)
        on_event("vote")
        self.speaker.play(vote)
